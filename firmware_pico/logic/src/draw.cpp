#include "flockscope/board/draw.hpp"

#include "flockscope/board/board_config.hpp"

namespace flockscope::board {

namespace {
// A 3x5 font of our own: each glyph is 5 rows of 3 bits, the leftmost dot in bit 2.
struct Glyph {
  char c;
  std::uint8_t rows[5];
};
constexpr Glyph kFont[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 3, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 2, 2}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {':', {0, 2, 0, 2, 0}},
    {'-', {0, 0, 7, 0, 0}}, {'B', {6, 5, 6, 5, 6}}, {'D', {6, 5, 5, 5, 6}}, {'F', {7, 4, 6, 4, 4}},
    {'I', {7, 2, 2, 2, 7}}, {'N', {5, 7, 7, 7, 5}}, {'O', {7, 5, 5, 5, 7}}, {'P', {7, 5, 7, 4, 4}},
    {'S', {7, 4, 7, 1, 7}}, {'T', {7, 2, 2, 2, 2}},
};

const Glyph* glyph(char c) {
  for (const auto& g : kFont)
    if (g.c == c) return &g;
  return nullptr;
}

}  // namespace

char* put_uint(char* p, char* end, std::uint32_t v) {
  char tmp[10];
  int n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < 10);
  while (n > 0 && p < end) *p++ = tmp[--n];
  return p;
}

char* put_str(char* p, char* end, const char* s) {
  while (*s && p < end) *p++ = *s++;
  return p;
}
void Framebuffer::clear(int first_row, int rows) {
  if (rows > 0) flockscope_zero_words(w_ + first_row * kFbWordsPerRow, std::uint32_t(rows * kFbWordsPerRow));
}

int Framebuffer::text(int x, int y, const char* s, int scale) {
  for (; *s; ++s, x += 4 * scale) {
    const Glyph* g = glyph(*s);
    if (!g) continue;
    if (scale < 1 || scale > 8 || x < 0 || x + 3 * scale > kFbWidth || y < 0 || y + 5 * scale > kFbHeight) {
      // Cut by the screen's edges (or an odd scale): pixel by pixel, clipped.
      for (int r = 0; r < 5; ++r)
        for (int col = 0; col < 3; ++col)
          if (g->rows[r] & (4 >> col))
            for (int dy = 0; dy < scale; ++dy)
              for (int dx = 0; dx < scale; ++dx) set(x + col * scale + dx, y + r * scale + dy);
      continue;
    }
    // Inside: each glyph row is one mask of up to 24 pixels (x is bit x & 31 of word
    // x >> 5), ORed into `scale` rows of one word or two: the status line is redrawn every
    // frame, and pixel by pixel it would take ~15 K cycles of the board's frame.
    const int bit = x & 31;
    const std::uint32_t dot = (1u << scale) - 1;
    std::uint32_t* p = w_ + y * kFbWordsPerRow + (x >> 5);
    for (int r = 0; r < 5; ++r) {
      std::uint32_t m = 0;
      for (int col = 0; col < 3; ++col)
        if (g->rows[r] & (4 >> col)) m |= dot << (col * scale);
      const std::uint32_t lo = m << bit, hi = bit ? m >> (32 - bit) : 0;
      for (int dy = 0; dy < scale; ++dy, p += kFbWordsPerRow) {
        p[0] |= lo;
        if (hi) p[1] |= hi;  // (x + 3 scale <= 640: word x >> 5 is not the row's last)
      }
    }
  }
  return x;
}

void draw_flock(Framebuffer& fb, const BoardFlock& flock) {
  const std::uint32_t n = flock.size();
  for (std::uint32_t k = 0; k < n; ++k) {
    // The pixel of the Q23.9 position, as the next frame's snapshot will hold it.
    fb.dot2(round_q9(flock.x(k).raw) >> 9, round_q9(flock.y(k).raw) >> 9);
  }
  draw_predators(fb, flock);
  draw_extensions(fb, flock);
}

void draw_extensions(Framebuffer& fb, const BoardFlock& flock) {
  // The ledge: 2 rows from perch_y + 2 on (a boid resting at perch_y is a 2x2 dot from
  // perch_y, so it sits on the line), from perch_x0 to perch_x1, clipped, a word at a time.
  if (flock.perching()) {
    int x0 = flock.perch_x0().raw >> 16, x1 = flock.perch_x1().raw >> 16;
    const int y = (flock.perch_y().raw >> 16) + 2;
    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 > kFbWidth - 1 ? kFbWidth - 1 : x1;
    for (int row = y; row < y + 2 && x0 <= x1; ++row) {
      if (unsigned(row) >= unsigned(kFbHeight)) continue;
      std::uint32_t* w = fb.words() + row * kFbWordsPerRow;
      for (int x = x0; x <= x1;) {
        const int bit = x & 31, last = (x | 31) < x1 ? 31 : x1 & 31;
        const std::uint32_t m = (last == 31 ? ~0u : (2u << last) - 1) & ~((1u << bit) - 1);
        w[x >> 5] |= m;
        x = (x | 31) + 1;
      }
    }
  }
  // Food sources: 5x5 discs (a square without its corners).
  for (std::uint32_t i = 0; i < flock.food_count(); ++i) {
    const int x = flock.food(i).x.raw >> 16, y = flock.food(i).y.raw >> 16;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        if (!((dx == -2 || dx == 2) && (dy == -2 || dy == 2))) fb.set(x + dx, y + dy);
  }
}

void draw_predators(Framebuffer& fb, const BoardFlock& flock) {
  for (std::uint32_t i = 0; i < flock.predator_count(); ++i) {
    const int x = flock.predator(i).x.raw >> 16, y = flock.predator(i).y.raw >> 16;
    for (int d = -3; d <= 3; ++d) fb.set(x + d, y), fb.set(x, y + d), fb.set(x + d, y + d), fb.set(x + d, y - d);
  }
}

// A dot the fast loop leaves out (the screen's edges, across two words): clipped.
extern "C" void flockscope_dot2_edge(std::uint32_t* words, int x, int y) { Framebuffer(words).dot2(x, y); }

namespace {
void clamp_band(int& y0, int& y1) {
  y0 = y0 < 0 ? 0 : y0 > kFbHeight ? kFbHeight : y0;
  y1 = y1 < y0 ? y0 : y1 > kFbHeight ? kFbHeight : y1;
}
std::uint32_t rounded(fix v) { return std::uint32_t(v.raw) + 64u; }
}  // namespace

#if !FLOCKSCOPE_DRAW_ASM
extern "C" void flockscope_draw_dots(const DotsJob* job) {
  std::uint32_t* const words = job->words;
  for (std::uint32_t k = 0; k < job->n; ++k) {
    const int x = std::int32_t(rounded(job->xs[k])) >> 16, y = std::int32_t(rounded(job->ys[k])) >> 16;
    if (unsigned(x) < unsigned(kFbWidth - 1) && unsigned(y) < unsigned(kFbHeight - 1) && (x & 31) != 31) {
      const std::uint32_t m = 3u << (x & 31);
      std::uint32_t* const p = words + y * kFbWordsPerRow + (x >> 5);
      p[0] |= m;
      p[kFbWordsPerRow] |= m;
    } else {
      flockscope_dot2_edge(words, x, y);
    }
  }
}
#endif

// The loop passes over every boid (the new positions are not in grid order), so the test
// for the band is one unsigned compare on the raw coordinate: a dot at pixel row y touches
// rows y and y + 1, so it is in the band when y is in [y0 - 1, y1). The band is clamped to
// the screen first, so the row tests below are the clip too. One core draws the whole
// screen through flockscope_draw_dots, without the band tests. A boid's pixel is
// round_q9(raw) >> 9 of its Q16.16 state, int32(raw + 64) >> 16 (the rounding added
// modulo 2^32, as round_q9 adds it: no signed overflow). Everything the loop needs is in
// locals: the framebuffer's stores cannot alias them, so the compiler keeps them in
// registers (read through the flock's members, the count and the framebuffer's address
// would be reloaded after every store: ~55 cycles a dot on the M0+).
void draw_boids_rows(Framebuffer& fb, const BoardFlock& flock, int y0, int y1) {
  clamp_band(y0, y1);
  std::uint32_t* const words = fb.words();
  const fix *const xs = flock.xs(), *const ys = flock.ys();
  const std::uint32_t n = flock.size();
  if (y0 == 0 && y1 == kFbHeight) {  // the whole screen (one core): no band tests
    const DotsJob job{words, xs, ys, n};
    flockscope_draw_dots(&job);
    return;
  }
  const std::uint32_t lo = std::uint32_t(y0 - 1) << 16, span = std::uint32_t(y1 - y0 + 1) << 16;
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t w = rounded(ys[k]);
    if (w - lo >= span) continue;
    const int x = std::int32_t(rounded(xs[k])) >> 16, y = std::int32_t(w) >> 16;
    if (unsigned(x) < unsigned(kFbWidth - 1) && (x & 31) != 31) {
      const std::uint32_t m = 3u << (x & 31);
      std::uint32_t* const p = words + y * kFbWordsPerRow + (x >> 5);
      if (y >= y0) p[0] |= m;
      if (y + 1 < y1) p[kFbWordsPerRow] |= m;
    } else {
      fb.dot2_rows(x, y, true, y0, y1);  // the screen's left and right edges, rare
    }
  }
}

std::size_t format_status(char* out, std::size_t cap, std::uint32_t boids, float fps, std::uint32_t elapsed_s) {
  if (cap == 0) return 0;
  char* p = out;
  char* end = out + cap - 1;
  p = put_str(p, end, "N ");
  p = put_uint(p, end, boids);
  p = put_str(p, end, "  FPS ");
  const auto tenths = std::uint32_t(fps < 0 ? 0 : fps * 10.0f + 0.5f);
  p = put_uint(p, end, tenths / 10);
  p = put_str(p, end, ".");
  p = put_uint(p, end, tenths % 10);
  p = put_str(p, end, "  T ");
  p = put_uint(p, end, elapsed_s);
  *p = '\0';
  return std::size_t(p - out);
}

void draw_status(Framebuffer& fb, std::uint32_t boids, float fps, std::uint32_t elapsed_s) {
  char line[48];
  format_status(line, sizeof line, boids, fps, elapsed_s);
  fb.text(4, 4, line, 2);
}

}  // namespace flockscope::board
