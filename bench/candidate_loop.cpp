// What each operation of the AVX-512 kernel's candidate loop costs: the loop of
// core/src/cornell_kernel_avx512.hpp (sixteen boids in the lanes, one candidate broadcast at a
// time, the fused neighbour test, the seven masked sums of its Avx512Sums) over 53 and over
// 176 candidates in L1 (a run-time count, as the engine's: about 176 lanes a boid after 2,000
// steps): `engine` as the kernel runs it, each candidate tested four ahead of its sums
// (Avx512Sums::add_pipelined); the others test and sum each candidate in turn (the plain
// form of the loop), with one piece left out or done another way. Variants marked
// "(wrong)" give other results: they only time what the missing piece costs. ns a candidate =
// 1e9 / items_per_second (for two_registers, a candidate tested against 32 boids).
//   build/bench/candidate_loop --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
// (docs/performance.md, "What bounds it"; the measurements in
// bench/results/engine-journal.md, "The fused neighbour test" and "The candidate loop
// software-pipelined").
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "cornell_kernel_avx512.hpp"  // core/src: Avx512Sums

#ifdef FLOCKSCOPE_HAVE_X86_KERNELS

namespace {

using flockscope::grid_step::Avx512Sums;

enum Variant : int {
  kEngine,      // as the engine: software-pipelined, each candidate tested four ahead of its
                // sums (Avx512Sums::add_pipelined)
  kOneAtATime,  // each candidate tested and summed in turn: the fused test (rules::offset_d2),
                // two compares, seven sums (the loop without pipelining)
  kPlainD2,     // d^2 = dx * dx + dy * dy, then two compares and "and not separate" (the seeds'
                // form, without the fused test): other roundings
  kNoCount,     // without the count (wrong)
  kNoSeparate,  // without the two separation sums (wrong)
  kAllFma,       // the fourth visible sum as a masked FMA by 1.0 too (the same bits)
  kTwoSums,      // two sets of sums, even and odd candidates, added at the end (other roundings)
  kEmbeddedBroadcasts,  // the four visible sums read their candidate from memory ({1to16}, asm)
  kNoMasks,      // every sum unmasked (wrong): what the masked merges cost
  kTwoRegisters,  // 32 boids in two registers, each candidate broadcast once for both
};

struct Sums {  // the lanes' sums, stored so the loop cannot be optimised away
  alignas(64) float s[6][16];
  alignas(64) std::int32_t count[16];
};

#define FLOCKSCOPE_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), always_inline))

// The test of one candidate against the sixteen boids (X, Y), as the engine makes it.
struct Tested {
  __m512 dx, dy;
  __mmask16 separate, visible;
};
struct Ranges {
  __m512 minus_protected2;
  __m512i band;  // rules::visible_band_bits
};
FLOCKSCOPE_AVX512 inline Tested test(__m512 X, __m512 Y, __m512 ox, __m512 oy, const Ranges& r) {
  const __m512 dx = _mm512_sub_ps(X, ox), dy = _mm512_sub_ps(Y, oy);
  const __m512 t = _mm512_fmadd_ps(dx, dx, _mm512_fmadd_ps(dy, dy, r.minus_protected2));
  return {dx, dy, _mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_LT_OQ),
          _mm512_cmplt_epu32_mask(_mm512_castps_si512(t), r.band)};
}

// sum += value * 1.0 where `visible`, the value broadcast from memory by the FMA itself.
FLOCKSCOPE_AVX512 inline void fma_from_memory(__m512& sum, const float& value, __m512 ones, __mmask16 visible) {
  asm("vfmadd231ps %[m]%{1to16%}, %[ones], %[s]%{%[k]%}"
      : [s] "+v"(sum)
      : [m] "m"(value), [ones] "v"(ones), [k] "Yk"(visible));
}

// The variants whose loop is not the engine's with one operation changed.
template <Variant V>
FLOCKSCOPE_AVX512 inline void other_loop(const float* sx, const float* sy, const float* svx, const float* svy, int n,
                                         __m512 X, __m512 Y, const Ranges& ranges, Avx512Sums& sums) {
  struct Candidate {
    __m512 ox, oy, ovx, ovy;
  };
  auto candidate = [&](int j) FLOCKSCOPE_AVX512 {
    return Candidate{_mm512_set1_ps(sx[j]), _mm512_set1_ps(sy[j]), _mm512_set1_ps(svx[j]), _mm512_set1_ps(svy[j])};
  };
  auto add_into = [](Avx512Sums& to, const Avx512Sums& from) FLOCKSCOPE_AVX512 {
    to.cdx = _mm512_add_ps(to.cdx, from.cdx), to.cdy = _mm512_add_ps(to.cdy, from.cdy);
    to.xp = _mm512_add_ps(to.xp, from.xp), to.yp = _mm512_add_ps(to.yp, from.yp);
    to.xv = _mm512_add_ps(to.xv, from.xv), to.yv = _mm512_add_ps(to.yv, from.yv);
    to.count = _mm512_add_epi32(to.count, from.count);
  };
  auto add_candidate = [&](Avx512Sums& to, int j) FLOCKSCOPE_AVX512 {  // as the engine
    const auto [ox, oy, ovx, ovy] = candidate(j);
    const Tested t = test(X, Y, ox, oy, ranges);
    to.add(t.dx, t.dy, ox, oy, ovx, ovy, t.separate, t.visible);
  };
  if constexpr (V == kTwoSums) {
    Avx512Sums odd = Avx512Sums::zero();
    int j = 0;
    for (; j + 1 < n; j += 2) add_candidate(sums, j), add_candidate(odd, j + 1);
    if (j < n) add_candidate(sums, j);
    add_into(sums, odd);
  } else if constexpr (V == kEmbeddedBroadcasts) {
    const __m512 ones = _mm512_set1_ps(1.0f);
    for (int j = 0; j < n; ++j) {
      // Each candidate coordinate read once by the subtraction (GCC folds that broadcast) and
      // once by its sum's instruction, instead of broadcast into a register for both.
      const Tested t = test(X, Y, _mm512_set1_ps(sx[j]), _mm512_set1_ps(sy[j]), ranges);
      sums.add_separation(t.dx, t.dy, t.separate);
      fma_from_memory(sums.xp, sx[j], ones, t.visible);
      fma_from_memory(sums.yp, sy[j], ones, t.visible);
      fma_from_memory(sums.xv, svx[j], ones, t.visible);
      asm("vaddps %[m]%{1to16%}, %[s], %[s]%{%[k]%}" : [s] "+v"(sums.yv) : [m] "m"(svy[j]), [k] "Yk"(t.visible));
      sums.add_count(t.visible);
    }
  } else if constexpr (V == kNoMasks) {
    const __m512 ones = _mm512_set1_ps(1.0f);
    for (int j = 0; j < n; ++j) {
      const auto [ox, oy, ovx, ovy] = candidate(j);
      const Tested t = test(X, Y, ox, oy, ranges);
      sums.cdx = _mm512_add_ps(sums.cdx, t.dx), sums.cdy = _mm512_add_ps(sums.cdy, t.dy);
      sums.xp = _mm512_fmadd_ps(ox, ones, sums.xp), sums.yp = _mm512_fmadd_ps(oy, ones, sums.yp);
      sums.xv = _mm512_fmadd_ps(ovx, ones, sums.xv), sums.yv = _mm512_add_ps(sums.yv, ovy);
      // The count from the masks as a vector (vpmovm2d), so that the compares still run.
      sums.count = _mm512_sub_epi32(sums.count, _mm512_movm_epi32(t.separate ^ t.visible));
    }
  } else if constexpr (V == kTwoRegisters) {
    // The second sixteen boids a little apart from the first, as the next sixteen of a row are.
    const __m512 X1 = _mm512_add_ps(X, _mm512_set1_ps(12.0f)), Y1 = _mm512_add_ps(Y, _mm512_set1_ps(-5.0f));
    Avx512Sums second = Avx512Sums::zero();
    for (int j = 0; j < n; ++j) {
      const auto [ox, oy, ovx, ovy] = candidate(j);
      const Tested t = test(X, Y, ox, oy, ranges);
      sums.add(t.dx, t.dy, ox, oy, ovx, ovy, t.separate, t.visible);
      const Tested t1 = test(X1, Y1, ox, oy, ranges);  // the same broadcasts
      second.add(t1.dx, t1.dy, ox, oy, ovx, ovy, t1.separate, t1.visible);
    }
    add_into(sums, second);  // so that the second registers' sums are stored too
  }
}

template <Variant V>
__attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"), noinline)) void candidate_loop(
    const float* sx, const float* sy, const float* svx, const float* svy, int n, const float* gx, const float* gy,
    Sums& out) {
  const __m512 X = _mm512_loadu_ps(gx), Y = _mm512_loadu_ps(gy);
  // protectedRange 8, visualRange 40: t < 0 separates, 0 <= t < 1600 - 64 is visible.
  const Ranges ranges{_mm512_set1_ps(-64.0f),
                      _mm512_set1_epi32(std::int32_t(flockscope::rules::visible_band_bits(1600.0f, 64.0f)))};
  Avx512Sums sums = Avx512Sums::zero();
  if constexpr (V == kEngine) {
    // cornell_group_avx512's loop, the slots in a row (the engine's come from BlockSlots).
    sums.add_pipelined(
        std::uint32_t(n), [](std::uint32_t count) { return count; }, sx, sy, svx, svy, X, Y, ranges.minus_protected2,
        ranges.band);
  } else if constexpr (V == kTwoSums || V == kEmbeddedBroadcasts || V == kNoMasks || V == kTwoRegisters) {
    other_loop<V>(sx, sy, svx, svy, n, X, Y, ranges, sums);
  } else {
    for (int j = 0; j < n; ++j) {
      const __m512 ox = _mm512_set1_ps(sx[j]), oy = _mm512_set1_ps(sy[j]);
      const __m512 ovx = _mm512_set1_ps(svx[j]), ovy = _mm512_set1_ps(svy[j]);
      Tested t;
      if constexpr (V == kPlainD2) {
        t.dx = _mm512_sub_ps(X, ox), t.dy = _mm512_sub_ps(Y, oy);
        const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(t.dx, t.dx), _mm512_mul_ps(t.dy, t.dy));
        t.separate = _mm512_cmp_ps_mask(d2, _mm512_set1_ps(64.0f), _CMP_LT_OQ);
        t.visible = _kandn_mask16(t.separate, _mm512_cmp_ps_mask(d2, _mm512_set1_ps(1600.0f), _CMP_LT_OQ));
      } else {
        t = test(X, Y, ox, oy, ranges);
      }
      if constexpr (V == kNoSeparate) {
        sums.add_visible(ox, oy, ovx, ovy, t.visible);
        sums.add_count(t.visible);
      } else if constexpr (V == kNoCount) {
        sums.add_separation(t.dx, t.dy, t.separate);
        sums.add_visible(ox, oy, ovx, ovy, t.visible);
      } else if constexpr (V == kAllFma) {
        sums.add_separation(t.dx, t.dy, t.separate);
        const __m512 ones = _mm512_set1_ps(1.0f);
        sums.xp = _mm512_mask3_fmadd_ps(ox, ones, sums.xp, t.visible);
        sums.yp = _mm512_mask3_fmadd_ps(oy, ones, sums.yp, t.visible);
        sums.xv = _mm512_mask3_fmadd_ps(ovx, ones, sums.xv, t.visible);
        sums.yv = _mm512_mask3_fmadd_ps(ovy, ones, sums.yv, t.visible);
        sums.add_count(t.visible);
      } else {
        sums.add(t.dx, t.dy, ox, oy, ovx, ovy, t.separate, t.visible);
      }
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
  const int kCandidates = int(state.range(0));  // at run time, as the engine's loop count
  constexpr int kPad = 16;
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

BENCHMARK(BM_CandidateLoop<kEngine>)->Name("candidate_loop/engine")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kOneAtATime>)->Name("candidate_loop/one_at_a_time")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kPlainD2>)->Name("candidate_loop/plain_d2")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kNoCount>)->Name("candidate_loop/no_count_wrong")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kNoSeparate>)->Name("candidate_loop/no_separation_sums_wrong")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kAllFma>)->Name("candidate_loop/all_fma")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kTwoSums>)->Name("candidate_loop/two_sums")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kEmbeddedBroadcasts>)->Name("candidate_loop/embedded_broadcasts")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kNoMasks>)->Name("candidate_loop/no_masks_wrong")->Arg(53)->Arg(176);
BENCHMARK(BM_CandidateLoop<kTwoRegisters>)->Name("candidate_loop/two_registers")->Arg(53)->Arg(176);

}  // namespace
#endif
