// protocol/test_vectors/: every file decodes to the catalogue's message and the
// message re-encodes to the file's bytes, byte for byte.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "test_support.hpp"
#include "vectors_catalogue.hpp"

namespace {

using namespace flockscope::protocol;
namespace fs = std::filesystem;

const fs::path kDir = FLOCKSCOPE_TEST_VECTOR_DIR;

bool update_mode() {
  const char* e = std::getenv("FLOCKSCOPE_UPDATE_VECTORS");
  return e && *e && std::string(e) != "0";
}

void write_file(const fs::path& p, const std::vector<std::string>& comments,
                const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p);
  for (const auto& c : comments) out << "# " << c << "\n";
  out << ptest::to_hex(bytes);
}

std::vector<std::string> good_comments(const ptest::GoodVector& g) {
  return {g.name + ": " + g.description, "decoded: " + ptest::to_json(g.msg)};
}
std::vector<std::string> bad_comments(const ptest::BadVector& b) {
  std::vector<std::string> c = {b.name + ": " + b.description, "expect: " + b.expect};
  if (b.delivered) c.push_back("decoded: " + ptest::to_json(b.msg));
  return c;
}

std::uint32_t counter(const DecoderStats& s, const std::string& name) {
  if (name == "frames_ok") return s.frames_ok;
  if (name == "bad_crc") return s.bad_crc;
  if (name == "bad_framing") return s.bad_framing;
  if (name == "oversize") return s.oversize;
  if (name == "malformed") return s.malformed;
  if (name == "unknown_type") return s.unknown_type;
  if (name == "version_mismatch") return s.version_mismatch;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// FLOCKSCOPE_UPDATE_VECTORS=1 rewrites the files from the catalogue first (then
// the checks below run against what was written).
void update_files_if_asked() {
  if (!update_mode()) return;
  for (const auto& g : ptest::good_vectors())
    write_file(kDir / (g.name + ".hex"), good_comments(g), ptest::encode_one(g.msg));
  for (const auto& b : ptest::bad_vectors()) write_file(kDir / (b.name + ".hex"), bad_comments(b), b.bytes);
}

TEST(ProtocolVectors, EveryMessageTypeHasAVector) {
  std::set<MsgType> seen;
  for (const auto& g : ptest::good_vectors()) seen.insert(g.msg.type);
  for (MsgType t : {MsgType::kHello, MsgType::kParamSet, MsgType::kParamChange, MsgType::kAck, MsgType::kCommand,
                    MsgType::kFlockState, MsgType::kPredators, MsgType::kMetrics, MsgType::kStats, MsgType::kLog,
                    MsgType::kSurroundings})
    EXPECT_TRUE(seen.count(t)) << to_string(t);
}

TEST(ProtocolVectors, GoodVectorsDecodeAndReencodeByteExact) {
  update_files_if_asked();
  for (const auto& g : ptest::good_vectors()) {
    SCOPED_TRACE(g.name);
    const ptest::HexFile f = ptest::read_hex_file((kDir / (g.name + ".hex")).string());
    ASSERT_TRUE(f.ok) << "missing or unreadable vector file";
    EXPECT_EQ(f.comments, good_comments(g));

    const ptest::Decoded d = ptest::decode_all(f.bytes);
    ASSERT_EQ(d.msgs.size(), 1u);
    EXPECT_TRUE(d.msgs[0] == g.msg) << ptest::to_json(d.msgs[0]);
    EXPECT_EQ(ptest::to_json(d.msgs[0]), ptest::to_json(g.msg));
    EXPECT_EQ(d.stats.frames_ok, 1u);
    EXPECT_EQ(d.stats.frames(), 1u);
    EXPECT_EQ(d.stats.bytes, f.bytes.size());

    EXPECT_EQ(ptest::encode_one(d.msgs[0]), f.bytes);
    EXPECT_EQ(ptest::encode_one(g.msg), f.bytes);
  }
}

TEST(ProtocolVectors, BadVectorsAreCountedWhereTheySay) {
  update_files_if_asked();
  for (const auto& b : ptest::bad_vectors()) {
    SCOPED_TRACE(b.name);
    const ptest::HexFile f = ptest::read_hex_file((kDir / (b.name + ".hex")).string());
    ASSERT_TRUE(f.ok);
    EXPECT_EQ(f.comments, bad_comments(b));
    EXPECT_EQ(f.bytes, b.bytes);
    const ptest::Decoded d = ptest::decode_all(f.bytes);
    EXPECT_EQ(counter(d.stats, b.expect), 1u);
    EXPECT_EQ(d.stats.frames(), 1u);
    ASSERT_EQ(d.msgs.size(), b.delivered ? 1u : 0u);
    if (b.delivered) {
      EXPECT_TRUE(d.msgs[0] == b.msg) << ptest::to_json(d.msgs[0]);
    }
  }
}

TEST(ProtocolVectors, NoStrayFilesInTheDirectory) {
  std::set<std::string> known;
  for (const auto& g : ptest::good_vectors()) known.insert(g.name + ".hex");
  for (const auto& b : ptest::bad_vectors()) known.insert(b.name + ".hex");
  for (const auto& e : fs::directory_iterator(kDir)) {
    if (e.path().extension() != ".hex") continue;
    EXPECT_TRUE(known.count(e.path().filename().string())) << e.path() << " is not in the catalogue";
  }
}

TEST(ProtocolVectors, AllVectorsAsOneStream) {
  // Valid and broken frames back to back: each broken one costs only itself.
  std::vector<std::uint8_t> stream;
  std::vector<Message> expected;
  DecoderStats want;
  for (const auto& g : ptest::good_vectors()) {
    const auto f = ptest::read_hex_file((kDir / (g.name + ".hex")).string());
    stream.insert(stream.end(), f.bytes.begin(), f.bytes.end());
    expected.push_back(g.msg);
  }
  for (const auto& b : ptest::bad_vectors()) {
    stream.insert(stream.end(), b.bytes.begin(), b.bytes.end());
    if (b.delivered) expected.push_back(b.msg);
  }
  for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}, SIZE_MAX}) {
    const ptest::Decoded d = ptest::decode_all(stream, chunk);
    ASSERT_EQ(d.msgs.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(d.msgs[i] == expected[i]) << i;
    EXPECT_EQ(d.stats.frames_ok, ptest::good_vectors().size());
    EXPECT_EQ(d.stats.bad_crc, 1u);
    EXPECT_EQ(d.stats.bad_framing, 2u);
    EXPECT_EQ(d.stats.oversize, 1u);
    EXPECT_EQ(d.stats.malformed, 1u);
    EXPECT_EQ(d.stats.unknown_type, 1u);
    EXPECT_EQ(d.stats.version_mismatch, 2u);
  }
}

}  // namespace
