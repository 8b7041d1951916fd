// libFuzzer target for the frame decoder: built by scripts/fuzz-protocol.sh with
// clang -fsanitize=fuzzer,address,undefined. Any broken invariant traps, any
// memory error is caught by the sanitizers.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string why;
  if (!ptest::check_decoder(data, size, &why)) {
    std::fprintf(stderr, "decoder invariant violated: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
