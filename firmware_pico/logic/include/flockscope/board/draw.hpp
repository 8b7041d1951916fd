// Drawing into the board's 1-bit framebuffer (640x480, 80 bytes a row, 32-bit words, the
// leftmost pixel in the least significant bit: the order the VGA PIO program shifts
// pixels out). Portable, so the host tests can look at what the board would show.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_flock.hpp"

namespace flockscope::board {

inline constexpr int kFbWidth = 640, kFbHeight = 480;
inline constexpr int kFbWordsPerRow = kFbWidth / 32;
inline constexpr std::size_t kFbWords = std::size_t(kFbWordsPerRow) * kFbHeight;  // 9600 words, 38,400 bytes

class Framebuffer {
 public:
  explicit Framebuffer(std::uint32_t* words) : w_(words) {}
  void clear(int first_row = 0, int rows = kFbHeight);
  void set(int x, int y) {
    if (unsigned(x) < unsigned(kFbWidth) && unsigned(y) < unsigned(kFbHeight))
      w_[y * kFbWordsPerRow + (x >> 5)] |= 1u << (x & 31);
  }
  bool get(int x, int y) const {
    return unsigned(x) < unsigned(kFbWidth) && unsigned(y) < unsigned(kFbHeight) &&
           ((w_[y * kFbWordsPerRow + (x >> 5)] >> (x & 31)) & 1u);
  }
  // A 2x2 dot with its top left at (x, y), clipped: set (on) or cleared. Two word
  // updates when the dot is inside and does not straddle a word (31 of 32 columns).
  void dot2(int x, int y, bool on = true) {
    if (unsigned(x) < unsigned(kFbWidth - 1) && unsigned(y) < unsigned(kFbHeight - 1) && (x & 31) != 31) {
      std::uint32_t* w = w_ + y * kFbWordsPerRow + (x >> 5);
      const std::uint32_t m = 3u << (x & 31);
      if (on) {
        w[0] |= m, w[kFbWordsPerRow] |= m;
      } else {
        w[0] &= ~m, w[kFbWordsPerRow] &= ~m;
      }
      return;
    }
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int xx = x + dx, yy = y + dy;
        if (unsigned(xx) < unsigned(kFbWidth) && unsigned(yy) < unsigned(kFbHeight)) {
          const std::uint32_t bit = 1u << (xx & 31);
          std::uint32_t& word = w_[yy * kFbWordsPerRow + (xx >> 5)];
          word = on ? word | bit : word & ~bit;
        }
      }
  }
  // dot2() limited to the rows [y0, y1): two cores drawing bands of rows never write the
  // same word (a word is in one row), so their read-modify-writes cannot race.
  void dot2_rows(int x, int y, bool on, int y0, int y1) {
    if (y >= y0 && y + 1 < y1) return dot2(x, y, on);
    if (y + 1 < y0 || y >= y1) return;
    const int row = y >= y0 ? y : y + 1;  // the dot's one row inside the band
    if (unsigned(row) >= unsigned(kFbHeight)) return;
    for (int dx = 0; dx < 2; ++dx) {
      const int xx = x + dx;
      if (unsigned(xx) < unsigned(kFbWidth)) {
        const std::uint32_t bit = 1u << (xx & 31);
        std::uint32_t& word = w_[row * kFbWordsPerRow + (xx >> 5)];
        word = on ? word | bit : word & ~bit;
      }
    }
  }
  // Text in the built-in 3x5 font, each dot scale x scale pixels; returns the end x.
  int text(int x, int y, const char* s, int scale = 2);
  std::uint32_t* words() { return w_; }

 private:
  std::uint32_t* w_;
};

// Boids as 2x2 dots, predators as 7x7 crosses, the ledge and the food sources, and the status line at the top
// ("N 2000 FPS 30.0 T 125"): the lab's boid count, frame rate and elapsed seconds.
void draw_flock(Framebuffer& fb, const BoardFlock& flock);
void draw_predators(Framebuffer& fb, const BoardFlock& flock);  // draw_flock()'s crosses
// draw_flock()'s lab extensions (seed 001: "draw a background ... a simple ledge"): the
// ledge while boids perch (a 2-pixel line under perch_y from perch_x0 to perch_x1) and each
// food source as a 5x5 disc.
void draw_extensions(Framebuffer& fb, const BoardFlock& flock);
// The boids' dots of draw_flock() (no predators) in the rows [y0, y1) only: the bands of
// a split of the screen together draw what draw_flock() draws (one band per core).
void draw_boids_rows(Framebuffer& fb, const BoardFlock& flock, int y0, int y1);
void draw_status(Framebuffer& fb, std::uint32_t boids, float fps, std::uint32_t elapsed_s);

// draw_boids_rows()' loop over the whole screen as a plain-data job: the dots of boids
// 0 .. n - 1. The RP2040 build runs it in Thumb-1 (draw_m0.S), which reads this layout by
// the names in asm_offsets.h (checked by asm_offsets.cpp); the host its C++ (draw.cpp).
struct DotsJob {
  std::uint32_t* words;
  const fix *xs, *ys;
  std::uint32_t n;
};
extern "C" void flockscope_draw_dots(const DotsJob* job);

// Writes v in decimal and then s at p, up to end (not past it; no terminator): the status
// line's and the firmware log's numbers without printf (no libc formatting on the board).
char* put_uint(char* p, char* end, std::uint32_t v);
char* put_str(char* p, char* end, const char* s);

// Formats "N <boids> FPS <fps> T <s>" without printf (no libc formatting on the board).
std::size_t format_status(char* out, std::size_t cap, std::uint32_t boids, float fps, std::uint32_t elapsed_s);

}  // namespace flockscope::board
