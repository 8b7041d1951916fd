// A libFuzzer target (scripts/fuzz.sh builds one per target with clang
// -fsanitize=fuzzer,address,undefined): FLOCKSCOPE_FUZZ_TARGET names the oracle. A broken
// invariant aborts with its reason; memory errors are the sanitizers'.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string why;
  if (!fuzztest::FLOCKSCOPE_FUZZ_TARGET(data, size, &why)) {
    std::fprintf(stderr, "invariant violated: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
