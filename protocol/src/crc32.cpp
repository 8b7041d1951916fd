// CRC-32/ISO-HDLC, table driven. Hosts use slicing-by-8 (8 KiB of tables, about
// 1 cycle per byte: the decoder's 200 MB/s budget needs it), bytes assembled into words
// whatever the alignment. The Cortex-M0+ (no unaligned loads, no cache beyond the flash's)
// uses slicing-by-4 (4 KiB) on the aligned words of the buffer, one load and four table
// lookups per word: about 7 cycles a byte against about 11 for the one-table byte loop.
// FLOCKSCOPE_CRC32_SLICES overrides the choice (1, 4 or 8).
#include "flockscope/protocol/crc32.hpp"

#include <array>
#include <bit>
#include <cstring>

#ifndef FLOCKSCOPE_CRC32_SLICES
#if defined(__ARM_ARCH_6M__)
#define FLOCKSCOPE_CRC32_SLICES 4
#else
#define FLOCKSCOPE_CRC32_SLICES 8
#endif
#endif

namespace flockscope::protocol {
namespace {

constexpr std::uint32_t kPolyReflected = 0xEDB88320u;
constexpr int kSlices = FLOCKSCOPE_CRC32_SLICES;
static_assert(kSlices == 1 || kSlices == 4 || kSlices == 8, "FLOCKSCOPE_CRC32_SLICES must be 1, 4 or 8");

using Tables = std::array<std::array<std::uint32_t, 256>, kSlices>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ kPolyReflected : (c >> 1);
    t[0][i] = c;
  }
  for (int s = 1; s < kSlices; ++s)
    for (std::uint32_t i = 0; i < 256; ++i)
      t[static_cast<std::size_t>(s)][i] =
          (t[static_cast<std::size_t>(s - 1)][i] >> 8) ^ t[0][t[static_cast<std::size_t>(s - 1)][i] & 0xFFu];
  return t;
}

constexpr Tables kTables = make_tables();

inline std::uint32_t step(std::uint32_t c, std::uint8_t b) {
  return kTables[0][(c ^ b) & 0xFFu] ^ (c >> 8);
}

}  // namespace

std::uint32_t crc32_update(std::uint32_t state, const std::uint8_t* data, std::size_t n) {
  std::uint32_t c = state;
#if FLOCKSCOPE_CRC32_SLICES == 8
  // Bytes are assembled explicitly (no word loads), so this is alignment- and
  // endian-independent; compilers merge them into one load on x86/ARMv7+.
  while (n >= 8) {
    const std::uint32_t lo = c ^ (static_cast<std::uint32_t>(data[0]) |
                                  (static_cast<std::uint32_t>(data[1]) << 8) |
                                  (static_cast<std::uint32_t>(data[2]) << 16) |
                                  (static_cast<std::uint32_t>(data[3]) << 24));
    c = kTables[7][lo & 0xFFu] ^ kTables[6][(lo >> 8) & 0xFFu] ^ kTables[5][(lo >> 16) & 0xFFu] ^
        kTables[4][lo >> 24] ^ kTables[3][data[4]] ^ kTables[2][data[5]] ^ kTables[1][data[6]] ^
        kTables[0][data[7]];
    data += 8;
    n -= 8;
  }
#elif FLOCKSCOPE_CRC32_SLICES == 4
  if constexpr (std::endian::native == std::endian::little) {
    // Bytes up to a word boundary, then whole words (a word's first byte is its low one).
    while (n > 0 && (reinterpret_cast<std::uintptr_t>(data) & 3u) != 0) c = step(c, *data++), --n;
    const auto* w = static_cast<const std::uint8_t*>(__builtin_assume_aligned(data, 4));
#if defined(__ARM_ARCH_6M__) && defined(__OPTIMIZE__)
    // The same loop in Thumb-1 with the four table bases, the word, the CRC and the pointer
    // in the eight low registers (the compiler's version spills: ~35 instructions a word
    // against these 19). Optimised builds only: without optimisation r7 is the frame
    // pointer and the eight low registers are not all free.
    if (n >= 4) {
      const std::uint8_t* const end = w + (n & ~std::size_t(3));
      std::uint32_t v, t;
      asm volatile(
          ".syntax unified\n"  // (GCC's inline Thumb-1 assembly is in divided syntax)
          "1: ldm %[w]!, {%[v]}\n"
          "eors %[v], %[c]\n"
          "lsrs %[t], %[v], #24\n"
          "lsls %[t], %[t], #2\n"
          "ldr %[c], [%[t0], %[t]]\n"
          "uxtb %[t], %[v]\n"
          "lsls %[t], %[t], #2\n"
          "ldr %[t], [%[t3], %[t]]\n"
          "eors %[c], %[t]\n"
          "lsrs %[t], %[v], #8\n"
          "uxtb %[t], %[t]\n"
          "lsls %[t], %[t], #2\n"
          "ldr %[t], [%[t2], %[t]]\n"
          "eors %[c], %[t]\n"
          "lsrs %[t], %[v], #16\n"
          "uxtb %[t], %[t]\n"
          "lsls %[t], %[t], #2\n"
          "ldr %[t], [%[t1], %[t]]\n"
          "eors %[c], %[t]\n"
          "cmp %[w], %[end]\n"
          "bne 1b\n"
          ".syntax divided\n"
          : [c] "+l"(c), [w] "+l"(w), [v] "=&l"(v), [t] "=&l"(t)
          : [t0] "l"(kTables[0].data()), [t1] "l"(kTables[1].data()), [t2] "l"(kTables[2].data()),
            [t3] "l"(kTables[3].data()), [end] "h"(end)
          : "cc", "memory");
      n &= 3;
    }
#else
    for (; n >= 4; n -= 4, w += 4) {
      std::uint32_t v;
      std::memcpy(&v, w, 4);  // one aligned load
      v ^= c;
      c = kTables[3][v & 0xFFu] ^ kTables[2][(v >> 8) & 0xFFu] ^ kTables[1][(v >> 16) & 0xFFu] ^ kTables[0][v >> 24];
    }
#endif
    data = w;
  }
#endif
  while (n--) c = step(c, *data++);
  return c;
}

}  // namespace flockscope::protocol
