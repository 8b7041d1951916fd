// The committed fuzz corpus (tests/protocol/fuzz_corpus/) replayed through the
// fuzz oracle as an ordinary test, so every build checks what the fuzzer found.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_check.hpp"

namespace {

namespace fs = std::filesystem;

TEST(ProtocolFuzzCorpus, ReplaysClean) {
  const fs::path dir = FLOCKSCOPE_FUZZ_CORPUS_DIR;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string why;
    EXPECT_TRUE(ptest::check_decoder(data.data(), data.size(), &why)) << e.path() << ": " << why;
    ++files;
  }
  EXPECT_GE(files, 10u) << "the seed corpus is missing";
}

}  // namespace
