// The Pico 2 (RP2350, Arm cores) as far as this machine can check it without an RP2350
// emulator: the UF2s of `firmware_pico/build.sh --pico2` (their family, addresses and
// contents, the absolute block ahead of them, the IMAGE_DEF the boot ROM looks for), and
// the board's flock step on a Cortex-M33 under QEMU (mps2-an505) against the host build of
// the same logic, bit for bit. Without build-pico2/ or qemu-system-arm the tests skip,
// except under CI=true, where they fail (CI builds the firmware first).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "emulator_process.hpp"
#include "flock_runs.hpp"
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/host_storage.hpp"
#include "../support/shell.hpp"

namespace fs = std::filesystem;
namespace fb = flockscope::board;
namespace pinned = flockscope::board::pinned;

namespace {

const fs::path kOut = fs::path(FLOCKSCOPE_SOURCE_DIR) / "build-pico2";

constexpr std::uint32_t kFlash = 0x10000000;
constexpr std::uint32_t kFamilyAbsolute = 0xE48BFF57, kFamilyRp2350ArmS = 0xE48BFF59;

std::uint32_t word(const std::string& bytes, std::size_t at) {
  std::uint32_t w = 0;
  std::memcpy(&w, bytes.data() + at, 4);  // (little-endian, as the host and the chip)
  return w;
}

struct Uf2Block {
  std::uint32_t flags, addr, size, number, count, family;
  std::string data;  // the payload's `size` bytes
};

// Every block of a UF2 file, each checked for its magic numbers.
std::vector<Uf2Block> read_uf2(const fs::path& file) {
  const std::string bytes = testsupport::slurp(file);
  EXPECT_EQ(bytes.size() % 512, 0u) << file;
  std::vector<Uf2Block> blocks;
  for (std::size_t at = 0; at + 512 <= bytes.size(); at += 512) {
    EXPECT_EQ(word(bytes, at), 0x0A324655u) << file << " block at " << at;
    EXPECT_EQ(word(bytes, at + 4), 0x9E5D5157u) << file << " block at " << at;
    EXPECT_EQ(word(bytes, at + 508), 0x0AB16F30u) << file << " block at " << at;
    Uf2Block b{word(bytes, at + 8),  word(bytes, at + 12), word(bytes, at + 16),
               word(bytes, at + 20), word(bytes, at + 24), word(bytes, at + 28), {}};
    b.data = bytes.substr(at + 32, b.size <= 476 ? b.size : 476);
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// The PICOBIN block at `at` of the flash image (RP2350 datasheet, "Blocks"): start marker,
// items (1-byte size in words for types below 0x80, 2-byte size above), the last item
// (0xFF) with the items' total size, the link to the next block (relative, in bytes), end
// marker. Returns the link; `image_type` gets the IMAGE_TYPE item's value (or stays).
std::int32_t picobin_block(const std::string& flash, std::size_t at, std::uint32_t& image_type) {
  EXPECT_EQ(word(flash, at), 0xFFFFDED3u) << "no block start at +" << at;
  std::size_t p = at + 4;
  for (int items = 0; items < 64; ++items) {
    const auto type = std::uint8_t(flash[p]);
    if (type == 0xFF) {  // the last item: then the link and the end marker
      const std::size_t words = std::uint8_t(flash[p + 1]) | (std::uint8_t(flash[p + 2]) << 8);
      EXPECT_EQ(words, (p - at - 4) / 4) << "last item's size, block at +" << at;
      EXPECT_EQ(word(flash, p + 8), 0xAB123579u) << "no block end marker, block at +" << at;
      return std::int32_t(word(flash, p + 4));
    }
    const std::size_t words = type & 0x80 ? std::uint8_t(flash[p + 1]) | (std::uint8_t(flash[p + 2]) << 8)
                                          : std::uint8_t(flash[p + 1]);
    if (type == 0x42) image_type = word(flash, p) >> 16;  // IMAGE_TYPE: its flags in the upper half
    EXPECT_GT(words, 0u);
    if (words == 0) return 0;
    p += 4 * words;
  }
  ADD_FAILURE() << "a block at +" << at << " without its last item";
  return 0;
}

// An RP2350 Arm Secure UF2 against its ELF: the absolute block first, then the image's
// pages in order, of the RP2350 Arm Secure family, numbered, and holding the flash bytes of
// the ELF (objcopy's .bin of it, from 0x10000000); the image's first 4 KiB hold a block
// with an IMAGE_DEF for an Arm Secure RP2350 executable, in a closed block loop.
void check_rp2350_uf2(const std::string& name) {
  const fs::path uf2 = kOut / (name + ".uf2"), bin = kOut / (name + ".bin");
  REQUIRE_OR_SKIP(fs::exists(uf2) && fs::exists(bin), "no " + uf2.string() + ": run firmware_pico/build.sh --pico2");
  const std::vector<Uf2Block> blocks = read_uf2(uf2);
  ASSERT_GE(blocks.size(), 2u);

  // RP2350-E10: the leading block of the absolute family, at the flash window's last page,
  // 0xEF bytes, "block 0 of 2" (there is no second: picotool's --abs-block makes it so).
  const Uf2Block& abs = blocks[0];
  EXPECT_EQ(abs.family, kFamilyAbsolute);
  EXPECT_EQ(abs.flags, 0x2000u);
  EXPECT_EQ(abs.addr, 0x10FFFF00u);
  EXPECT_EQ(abs.size, 256u);
  EXPECT_EQ(abs.number, 0u);
  EXPECT_EQ(abs.count, 2u);
  EXPECT_EQ(abs.data, std::string(256, '\xef'));

  const std::string flash = testsupport::slurp(bin);
  ASSERT_GT(flash.size(), 4096u);
  const std::size_t pages = blocks.size() - 1;
  EXPECT_EQ(pages, (flash.size() + 255) / 256) << "the pages cover the image from 0x10000000, without gaps";
  for (std::size_t n = 0; n < pages; ++n) {
    const Uf2Block& b = blocks[1 + n];
    SCOPED_TRACE("block " + std::to_string(1 + n));
    ASSERT_EQ(b.family, kFamilyRp2350ArmS);
    ASSERT_EQ(b.flags, 0x2000u);
    ASSERT_EQ(b.addr, kFlash + 256 * n);
    ASSERT_EQ(b.size, 256u);
    ASSERT_EQ(b.number, n);
    ASSERT_EQ(b.count, pages);
    std::string expect = flash.substr(256 * n, 256);
    expect.resize(256, '\0');
    ASSERT_EQ(b.data, expect);
  }

  // The boot ROM looks for a block starting in the first 4 KiB (word-aligned) and follows
  // its links until they come back to it.
  std::size_t first = 0;
  while (first < 4096 && word(flash, first) != 0xFFFFDED3u) first += 4;
  ASSERT_LT(first, 4096u) << "no PICOBIN block in the first 4 KiB";
  std::uint32_t image_type = 0;
  std::size_t at = first;
  int hops = 0;
  do {
    const std::int32_t link = picobin_block(flash, at, image_type);
    ASSERT_NE(link, 0) << "the block at +" << at << " ends the loop unclosed";
    at = std::size_t(std::int64_t(at) + link);
    ASSERT_LT(at, flash.size()) << "a link leaves the image";
  } while (at != first && ++hops < 16);
  EXPECT_EQ(at, first) << "the block loop does not close";
  // EXE (1), security S (2 << 4), CPU Arm (0 << 8), chip RP2350 (1 << 12)
  EXPECT_EQ(image_type, 0x1021u) << "IMAGE_TYPE of an Arm Secure RP2350 executable";
}

// The host build's reports of the pinned runs, as flock_m33 prints them.
std::string host_reports() {
  std::string out;
  fb::HostFlockStorage storage(pinned::kCapacity);
  for (const pinned::Run& r : pinned::kRuns) {
    fb::BoardFlock flock(storage.buffers);
    pinned::play(flock, r, [&](int step, std::uint64_t hash) {
      char line[pinned::kReportChars];
      pinned::format_report(line, r.name, step, hash);
      out += line;
    });
  }
  return out + "flock_m33: done\n";
}

// The flock's functions in an ELF (those of the flockscope namespaces and the flockscope_*
// routines), each as its instructions without addresses: objdump -d without the raw bytes,
// cut at the symbol's size (nm -S: the padding and the neighbour's data after it are not
// the function's), every 8-digit hex number (an address or a literal-pool word) and symbol
// reference masked.
std::map<std::string, std::string> flock_code(const fs::path& elf) {
  std::map<std::string, std::uint32_t> end;  // the function's end address
  const testsupport::Result nm = testsupport::sh("arm-none-eabi-nm -S --defined-only " + elf.string());
  EXPECT_EQ(nm.code, 0) << nm.output.substr(0, 500);
  std::istringstream syms(nm.output);
  std::string line, name;
  while (std::getline(syms, line)) {
    std::istringstream f(line);
    std::string addr, size, type;
    if (!(f >> addr >> size >> type >> name)) continue;  // (no size: not a function of ours)
    if ((type == "t" || type == "T") && name.find("flockscope") != std::string::npos)
      end[name] = std::uint32_t((std::stoul(addr, nullptr, 16) & ~1ul) + std::stoul(size, nullptr, 16));
  }
  const testsupport::Result d = testsupport::sh("arm-none-eabi-objdump -d --no-show-raw-insn " + elf.string());
  EXPECT_EQ(d.code, 0) << d.output.substr(0, 500);
  static const std::regex header(R"(^[0-9a-f]+ <(.*)>:$)"), at(R"(^ *([0-9a-f]+):\s*(.*)$)");
  static const std::regex symbol(R"(<[^>]*>)"), hex(R"(\b(0x)?[0-9a-f]{8}\b)");
  std::map<std::string, std::string> code;
  std::istringstream in(d.output);
  std::uint32_t limit = 0;
  std::smatch m;
  name.clear();
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, header)) {
      const auto it = end.find(m[1].str());
      name = it == end.end() ? "" : it->first;
      limit = it == end.end() ? 0 : it->second;
    } else if (!name.empty() && std::regex_match(line, m, at) && std::stoul(m[1].str(), nullptr, 16) < limit) {
      code[name] += std::regex_replace(std::regex_replace(m[2].str(), symbol, "<>"), hex, "A") + "\n";
    }
  }
  return code;
}

}  // namespace

TEST(Pico2, BoardUf2IsRp2350ArmSecure) { check_rp2350_uf2("flockscope_pico"); }

TEST(Pico2, LabMinimalUf2IsRp2350ArmSecure) { check_rp2350_uf2("lab_minimal"); }

// flock_m33 (firmware_pico/qemu_m33/) under qemu-system-arm -M mps2-an505: the pinned runs'
// state hashes every 30 steps, each equal to the host's.
TEST(Pico2, FlockStepOnCortexM33EqualsTheHost) {
  const fs::path elf = kOut / "flock_m33.elf";
  REQUIRE_OR_SKIP(fs::exists(elf), "no " + elf.string() + ": run firmware_pico/build.sh --pico2");
  REQUIRE_OR_SKIP(testsupport::sh("command -v qemu-system-arm").code == 0,
                  "qemu-system-arm missing: scripts/install-deps.sh firmware");
  const testsupport::Result m33 = testsupport::sh(
      "timeout 300 qemu-system-arm -M mps2-an505 -nographic -monitor none -serial none -semihosting -kernel " +
      elf.string());
  ASSERT_EQ(m33.code, 0) << m33.output;
  const std::string host = host_reports();
  std::istringstream a(m33.output), b(host);
  std::string la, lb;
  int line = 0;
  while (std::getline(b, lb)) {
    ++line;
    ASSERT_TRUE(std::getline(a, la)) << "the Cortex-M33 stopped before line " << line << ": " << lb;
    ASSERT_EQ(la, lb) << "line " << line << " (run, step, state hash): the Cortex-M33 against the host";
  }
  EXPECT_FALSE(std::getline(a, la)) << "more output from the Cortex-M33: " << la;
  std::printf("%d reports equal (%zu runs)\n", line - 1, std::size(pinned::kRuns));
}

// flock_m33 runs the board image's flock: each of its flock functions has the instructions of
// the same function in build-pico2/flockscope_pico.elf (the same sources, compiler and flags),
// addresses aside. A change to the board image's compile options that flock_m33 does not
// follow fails here.
TEST(Pico2, FlockM33HasTheBoardImagesFlockInstructions) {
  const fs::path m33 = kOut / "flock_m33.elf", board = kOut / "flockscope_pico.elf";
  REQUIRE_OR_SKIP(fs::exists(m33) && fs::exists(board), "no " + m33.string() + ": run firmware_pico/build.sh --pico2");
  REQUIRE_OR_SKIP(testsupport::sh("command -v arm-none-eabi-objdump").code == 0,
                  "arm-none-eabi-objdump missing: scripts/install-deps.sh firmware");
  const auto mine = flock_code(m33), theirs = flock_code(board);
  ASSERT_GE(mine.size(), 20u) << "the flock's functions in flock_m33.elf";
  for (const auto& [name, code] : mine) {
    const auto it = theirs.find(name);
    ASSERT_NE(it, theirs.end()) << name << " is not in the board image";
    EXPECT_EQ(code, it->second) << name;
  }
  std::printf("%zu functions with the board image's instructions\n", mine.size());
}
