// The decoder's fuzz oracle, shared by the libFuzzer target (fuzz_decoder.cpp)
// and the gtest that replays the committed corpus (test_fuzz_corpus.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ptest {

// Feeds data[1..] to decoders (whole, in chunks chosen by data[0], and through a
// small buffer) and checks that they agree, that every counter adds up, and that
// every delivered message re-encodes and decodes to itself. Returns false and sets
// why on a violated invariant; memory errors are left to the sanitizers.
bool check_decoder(const std::uint8_t* data, std::size_t size, std::string* why = nullptr);

}  // namespace ptest
