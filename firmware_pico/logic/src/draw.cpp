#include "flockscope/board/draw.hpp"

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
}  // namespace

void Framebuffer::clear(int first_row, int rows) {
  std::uint32_t* p = w_ + first_row * kFbWordsPerRow;
  const int n = rows * kFbWordsPerRow;
  for (int i = 0; i < n; ++i) p[i] = 0;
}

int Framebuffer::text(int x, int y, const char* s, int scale) {
  for (; *s; ++s) {
    if (const Glyph* g = glyph(*s)) {
      for (int r = 0; r < 5; ++r)
        for (int col = 0; col < 3; ++col)
          if (g->rows[r] & (4 >> col))
            for (int dy = 0; dy < scale; ++dy)
              for (int dx = 0; dx < scale; ++dx) set(x + col * scale + dx, y + r * scale + dy);
    }
    x += 4 * scale;
  }
  return x;
}

void draw_flock(Framebuffer& fb, const BoardFlock& flock) {
  const std::uint32_t n = flock.size();
  for (std::uint32_t k = 0; k < n; ++k) {
    // The pixel of the Q23.9 position, as the next frame's snapshot will hold it (the
    // firmware erases there).
    fb.dot2(round_q9(flock.x(k).raw) >> 9, round_q9(flock.y(k).raw) >> 9);
  }
  for (std::uint32_t i = 0; i < flock.predator_count(); ++i) {
    const int x = flock.predator(i).x.raw >> 16, y = flock.predator(i).y.raw >> 16;
    for (int d = -3; d <= 3; ++d) fb.set(x + d, y), fb.set(x, y + d), fb.set(x + d, y + d), fb.set(x + d, y - d);
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
