// check_board_receive (fuzz_checks.hpp): our firmware's board logic, host build.
#include <cmath>

#include "flockscope/board/board.hpp"
#include "flockscope/board/host_storage.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_input.hpp"

namespace fuzztest {
namespace {

namespace fb = flockscope::board;

struct Io final : fb::Transport {
  InputBytes in;
  OutputCheck out;
  Io(const std::uint8_t* data, std::size_t size) : in(data, size) {}
  std::size_t read(std::uint8_t* buf, std::size_t cap) override { return in.read(buf, cap); }
  std::size_t write(const std::uint8_t* buf, std::size_t n) override { return out.take(buf, n); }
  bool connected() override { return true; }
};

}  // namespace

bool check_board_receive(const std::uint8_t* data, std::size_t size, std::string* why) {
  static fb::HostFlockStorage storage(64, 256);
  fb::BoardConfig cfg;
  cfg.role = flockscope::protocol::Role::kVirtualBoard;
  cfg.name = "fuzz";
  cfg.boids = 20;
  fb::Board board(cfg, storage.buffers);
  Io io(data, size);
  std::uint64_t t = 1000000;
  for (int frame = 0; frame < kMaxFrames && !(io.in.done() && frame > 2); ++frame) {
    io.in.next_frame();
    board.frame_start(io, t);
    if (board.running()) board.flock().step();
    board.frame_end(t + 2000, 2000);
    board.pump(io);
    t += 33333;
    for (const fb::ParamInfo& p : fb::detail::kTable) {
      double lo = 0, hi = 0;
      board.params().range(p.id, lo, hi);
      for (const double v : {board.params().active(p.id), board.params().pending(p.id)})
        if (!(v >= std::min(lo, p.min) && v <= std::max(hi, p.max)))
          return fail(why, std::string(p.name) + " = " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "]");
    }
    if (board.flock().size() > board.flock().capacity())
      return fail(why, "the flock holds " + std::to_string(board.flock().size()) + " boids, capacity " +
                           std::to_string(board.flock().capacity()));
  }
  if (!io.out.clean(why)) return false;
  if (io.out.acks() > board.counters().requests)
    return fail(why, std::to_string(io.out.acks()) + " acks for " + std::to_string(board.counters().requests) +
                         " requests");
  return true;
}

}  // namespace fuzztest
