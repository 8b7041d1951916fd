// Eight-lane float vectors (GCC/Clang vector extensions) for the float engine's neighbour
// loop. Portable: without AVX the compiler splits each operation into SSE halves; with AVX2
// (chosen at run time through target_clones) it is one register. No -march=native needed.
#pragma once

#include <cstdint>
#include <cstring>

// Run-time instruction set choice for a function (target_clones). Not under
// ThreadSanitizer: it instruments the clones' resolvers, which the loader runs before TSan
// is initialised (a crash at start). Not under clang, whose clones of a member function
// declared without them are never defined (clang 14); a clang build compiles the core for
// AVX2 instead (core/CMakeLists.txt).
#if defined(__SANITIZE_THREAD__) || defined(__clang__)
#define FLOCKSCOPE_CLONES(...)
#else
#define FLOCKSCOPE_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#endif

// Inline helpers pass vectors by value; the ABI note about AVX arguments does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace flockscope::rules {

using v8f = float __attribute__((vector_size(32)));
using v8i = std::int32_t __attribute__((vector_size(32)));
using v8u = std::uint32_t __attribute__((vector_size(32)));
constexpr std::uint32_t kLanes = 8;

// Sixteen lanes, for the AVX-512 kernel's update (rules::cornell_update_lanes on v16f): its
// operations are only ever inlined into that kernel's AVX-512 target.
using v16f = float __attribute__((vector_size(64)));
using v16i = std::int32_t __attribute__((vector_size(64)));

inline v8f abs_of(v8f v) { return v8f(v8i(v) & 0x7fffffff); }
[[gnu::always_inline]] inline v16f abs_of(v16f v) { return v16f(v16i(v) & 0x7fffffff); }
inline v8f load8(const float* p) {
  v8f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline v8f broadcast(float f) { return f - v8f{}; }
inline v8f masked(v8f v, v8i m) { return v8f(v8i(v) & m); }
// Lanes added in a fixed order, so a sum does not depend on how lanes were scheduled.
inline float lane_sum(v8f v) {
  float s = 0;
  for (std::uint32_t k = 0; k < kLanes; ++k) s += v[k];
  return s;
}

}  // namespace flockscope::rules
