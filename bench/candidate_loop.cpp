// What each operation of the AVX-512 kernel's candidate loop costs: the loop of
// core/src/cornell_kernel_avx512.hpp (sixteen boids in the lanes, one candidate broadcast at a
// time, the seven masked sums of its Avx512Sums) over 53 candidates in L1, and variants of it
// with one piece left out or done another way. Variants marked "(wrong)" give other results:
// they only time what the missing piece costs. ns a candidate = 1e9 / items_per_second.
//   build/bench/candidate_loop --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
// (docs/performance.md, "The candidate loop's operations").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "cornell_kernel_avx512.hpp"  // core/src: Avx512Sums

#ifdef FLOCKSCOPE_HAVE_X86_KERNELS

namespace {

using flockscope::grid_step::Avx512Sums;

enum Variant : int {
  kEngine,      // as the engine: 14 vector operations a candidate
  kNoCount,     // without the count (wrong)
  kFmaSquare,   // d^2 as fma(dx, dx, dy * dy): one operation less, other roundings
  kNoSeparate,  // without the two separation sums (wrong)
  kNoAndNot,    // visible = d^2 < visual^2 without "and not separate" (wrong)
  kBand,        // visible as one unsigned compare of the bits (protected^2 <= d^2 < visual^2)
};

struct Sums {  // the lanes' sums, stored so the loop cannot be optimised away
  alignas(64) float s[6][16];
  alignas(64) std::int32_t count[16];
};

template <Variant V>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline)) void candidate_loop(
    const float* sx, const float* sy, const float* svx, const float* svy, int n, const float* gx, const float* gy,
    Sums& out) {
  const __m512 X = _mm512_loadu_ps(gx), Y = _mm512_loadu_ps(gy);
  const __m512 protected2 = _mm512_set1_ps(64.0f), visual2 = _mm512_set1_ps(1600.0f);
  const __m512i protected_bits = _mm512_castps_si512(protected2);
  const __m512i band = _mm512_set1_epi32(std::int32_t(0x44c80000u - 0x42800000u));  // bits of 1600 - bits of 64
  Avx512Sums sums = Avx512Sums::zero();
  for (int j = 0; j < n; ++j) {
    const __m512 ox = _mm512_set1_ps(sx[j]), oy = _mm512_set1_ps(sy[j]);
    const __m512 ovx = _mm512_set1_ps(svx[j]), ovy = _mm512_set1_ps(svy[j]);
    const __m512 dx = _mm512_sub_ps(X, ox), dy = _mm512_sub_ps(Y, oy);
    const __m512 d2 = V == kFmaSquare ? _mm512_fmadd_ps(dx, dx, _mm512_mul_ps(dy, dy))
                                      : _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    const __mmask16 separate = _mm512_cmp_ps_mask(d2, protected2, _CMP_LT_OQ);
    __mmask16 visible;
    if constexpr (V == kNoAndNot)
      visible = _mm512_cmp_ps_mask(d2, visual2, _CMP_LT_OQ);
    else if constexpr (V == kBand)
      visible = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(_mm512_castps_si512(d2), protected_bits), band);
    else
      visible = _kandn_mask16(separate, _mm512_cmp_ps_mask(d2, visual2, _CMP_LT_OQ));
    if constexpr (V == kNoSeparate) {
      sums.add_visible(ox, oy, ovx, ovy, visible);
      sums.add_count(visible);
    } else if constexpr (V == kNoCount) {
      sums.add_separation(dx, dy, separate);
      sums.add_visible(ox, oy, ovx, ovy, visible);
    } else {
      sums.add(dx, dy, ox, oy, ovx, ovy, separate, visible);
    }
  }
  const __m512 each[6] = {sums.cdx, sums.cdy, sums.xp, sums.yp, sums.xv, sums.yv};
  for (int k = 0; k < 6; ++k) _mm512_store_ps(out.s[k], each[k]);
  _mm512_store_si512(out.count, sums.count);
}

template <Variant V>
void BM_CandidateLoop(benchmark::State& state) {
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq") ||
      !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512vl")) {
    state.SkipWithError("this CPU has no AVX-512");
    return;
  }
  // Candidates spread over a 3x3 block of 40 px cells, the boids in its middle cell: about
  // a third of the pairs within the visual range, as in the gathered flock.
  constexpr int kCandidates = 53, kPad = 16;
  std::vector<float> sx(kCandidates + kPad), sy(sx.size()), svx(sx.size()), svy(sx.size());
  std::uint32_t seed = 12345;
  auto next = [&seed] { return float((seed = seed * 1664525u + 1013904223u) >> 8) / float(1u << 24); };
  for (std::size_t i = 0; i < sx.size(); ++i)
    sx[i] = 120.0f * next(), sy[i] = 120.0f * next(), svx[i] = 4.0f * next() - 2.0f, svy[i] = 4.0f * next() - 2.0f;
  float gx[16], gy[16];
  for (int l = 0; l < 16; ++l) gx[l] = 40.0f + 40.0f * next(), gy[l] = 40.0f + 40.0f * next();
  Sums out;
  for (auto _ : state) {
    candidate_loop<V>(sx.data(), sy.data(), svx.data(), svy.data(), kCandidates, gx, gy, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations()) * kCandidates);
}

BENCHMARK(BM_CandidateLoop<kEngine>)->Name("candidate_loop/engine");
BENCHMARK(BM_CandidateLoop<kNoCount>)->Name("candidate_loop/no_count_wrong");
BENCHMARK(BM_CandidateLoop<kFmaSquare>)->Name("candidate_loop/fma_square");
BENCHMARK(BM_CandidateLoop<kNoSeparate>)->Name("candidate_loop/no_separation_sums_wrong");
BENCHMARK(BM_CandidateLoop<kNoAndNot>)->Name("candidate_loop/no_and_not_wrong");
BENCHMARK(BM_CandidateLoop<kBand>)->Name("candidate_loop/band_compare");

}  // namespace
#endif
