// The committed corpora of the fuzz targets (tests/fuzz/corpus/<target>/), replayed through
// their oracles as ordinary tests, so every build checks what the fuzzer
// found (scripts/fuzz.sh adds what it finds to build-fuzz/, and a finding kept as a
// regression test is copied here).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_checks.hpp"

namespace {

namespace fs = std::filesystem;

// Every input of the target's corpus through its oracle.
void replay(const fuzztest::FuzzTarget& t) {
  const fs::path dir = fs::path(FLOCKSCOPE_FUZZ_CORPORA) / t.name;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string why;
    EXPECT_TRUE(t.check(data.data(), data.size(), &why)) << e.path() << ": " << why;
    ++files;
  }
  EXPECT_GE(files, 10u) << "the seed corpus is missing";
}

TEST(FuzzCorpus, TheDecoderReplaysClean) { replay(fuzztest::kTargets[0]); }
TEST(FuzzCorpus, OurBoardReplaysClean) { replay(fuzztest::kTargets[1]); }
TEST(FuzzCorpus, TheDropInLinkReplaysClean) { replay(fuzztest::kTargets[2]); }
TEST(FuzzCorpus, PresetsReplayClean) { replay(fuzztest::kTargets[3]); }
TEST(FuzzCorpus, StateFilesReplayClean) { replay(fuzztest::kTargets[4]); }
TEST(FuzzCorpus, RecordingsReplayClean) { replay(fuzztest::kTargets[5]); }
TEST(FuzzCorpus, SweepRunsFilesReplayClean) { replay(fuzztest::kTargets[6]); }
TEST(FuzzCorpus, ExploreSetupsReplayClean) { replay(fuzztest::kTargets[7]); }

}  // namespace
