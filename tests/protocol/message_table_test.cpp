// The message table (message_list.hpp) against the places kept by hand: the Python reference
// written from PROTOCOL.md (tools/wire_ref.py) names every type code as the table does, and
// the vector catalogue has a vector of every message. A row added to the table alone fails
// here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "vectors_catalogue.hpp"

namespace {

using namespace flockscope::protocol;
namespace fs = std::filesystem;

struct Row {
  MsgType type;
  int code;
  std::string name;
  std::size_t fixed;
};

std::vector<Row> table() {
  return {
#define ROW(k, type, code, member, name, fixed) {MsgType::k, code, name, fixed},
      FLOCKSCOPE_MESSAGE_LIST(ROW)
#undef ROW
  };
}

// wire_ref.py's TYPES = {0x01: "hello", ...}.
std::map<int, std::string> python_types() {
  const fs::path file = fs::path(FLOCKSCOPE_TEST_VECTOR_DIR) / ".." / "tools" / "wire_ref.py";
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const auto begin = text.find("TYPES = {");
  const auto end = text.find('}', begin);
  EXPECT_NE(begin, std::string::npos) << file;
  std::map<int, std::string> out;
  if (begin == std::string::npos || end == std::string::npos) return out;
  const std::string block = text.substr(begin, end - begin);
  const std::regex entry(R"re(0x([0-9A-Fa-f]+):\s*"(\w+)")re");
  for (std::sregex_iterator it(block.begin(), block.end(), entry), last; it != last; ++it)
    out[std::stoi((*it)[1].str(), nullptr, 16)] = (*it)[2].str();
  return out;
}

TEST(ProtocolMessageTable, EnumCodesNamesAndSizesComeFromTheTable) {
  std::set<int> codes;
  for (const Row& r : table()) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(static_cast<int>(r.type), r.code);
    EXPECT_TRUE(is_known(r.type));
    EXPECT_EQ(std::string(to_string(r.type)), r.name);
    EXPECT_EQ(fixed_payload_size(r.type), r.fixed);
    EXPECT_TRUE(codes.insert(r.code).second) << "type code used twice";
  }
  // A code outside the table is unknown everywhere.
  for (int c = 0; c < 256; ++c) {
    if (codes.count(c)) continue;
    const auto t = static_cast<MsgType>(c);
    EXPECT_FALSE(is_known(t)) << c;
    EXPECT_STREQ(to_string(t), "unknown") << c;
    EXPECT_EQ(fixed_payload_size(t), 0u) << c;
  }
}

TEST(ProtocolMessageTable, ThePythonReferenceNamesTheSameTypes) {
  std::map<int, std::string> expected;
  for (const Row& r : table()) expected[r.code] = r.name;
  EXPECT_EQ(python_types(), expected);
}

TEST(ProtocolMessageTable, EveryMessageHasAVector) {
  std::set<MsgType> covered;
  for (const auto& g : ptest::good_vectors()) covered.insert(g.msg.type);
  for (const Row& r : table()) EXPECT_TRUE(covered.count(r.type)) << r.name << " has no test vector";
}

}  // namespace
