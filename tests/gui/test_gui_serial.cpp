// The window mirroring a board: the virtual board (`flockscope board`) on a pseudo-terminal,
// the window's own SerialSource and panels, driven like a user through GuiApp::frame().
// A slider change shows pending, is acknowledged and takes effect; a value the board
// refuses goes back with the board's reason; a board session records and replays; an
// unplugged board shows as reconnecting and comes back by itself.
#include <SDL.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <thread>

#include "../board/vboard_process.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;
using vbtest::VirtualBoard;

namespace {

GuiOptions headless() {
  GuiOptions o;
  o.width = 1100, o.height = 1000;  // the board panel sits above the sliders
  o.software = true;
  o.use_ini = false;
  o.vsync = false;
  return o;
}

std::string link_path(const std::string& tag) {
  return (fs::temp_directory_path() / ("flockscope-gui-" + tag + "-" + std::to_string(getpid()))).string();
}

// Frames (about 100 per second at most) until pred() holds or ms have passed.
bool frames_until(GuiApp& app, int ms, const std::function<bool()>& pred) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    app.frame();
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

// Move, press, move, release along y, one frame each.
void drag(GuiApp& app, float x0, float y, float x1) {
  push_mouse(SDL_MOUSEMOTION, x0, y);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONDOWN, x0, y);
  app.frame();
  push_mouse(SDL_MOUSEMOTION, x1, y);
  app.frame();
  push_mouse(SDL_MOUSEBUTTONUP, x1, y);
  app.frame();
}

SerialSource& serial(GuiApp& app) { return dynamic_cast<SerialSource&>(app.source()); }

}  // namespace

TEST(GuiSerial, SliderChangeIsPendingThenAcknowledgedAndARefusedOneReverts) {
  VirtualBoard vb({"--boids", "800"}, link_path("slider"));
  GuiApp app(headless());
  app.connect_serial(vb.link);
  EXPECT_STREQ(app.source().kind(), "serial");
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected() && app.source().boids().n == 800; }))
      << app.message();
  EXPECT_EQ(app.source().params().width, 640);  // the board's world, read back
  // Until the layout settles (the link's first messages and stats change the panel's height).
  std::optional<GuiApp::Rect> r;
  ASSERT_TRUE(frames_until(app, 3000, [&] {
    const auto q = app.item_rect("param:visualRange");
    const bool same = q && r && q->y0 == r->y0;
    r = q;
    return same;
  }));
  ASSERT_LT(r->y1, 1000) << "the slider is on screen";
  // To the left end (0): the board takes it.
  drag(app, r->cx(), r->cy(), r->x0 - 40);
  EXPECT_EQ(app.source().pending_params().visualRange, 0.0);
  ASSERT_TRUE(frames_until(app, 2000, [&] { return !app.source().param_pending(7); }));
  EXPECT_EQ(app.source().params().visualRange, 0.0) << "acknowledged and in force";
  // To the right end (the slider's 200): above this board's limit, refused.
  drag(app, r->x1 - 2, r->cy(), r->x1 + 40);
  ASSERT_TRUE(frames_until(app, 2000, [&] { return !app.source().param_pending(7); }));
  EXPECT_EQ(app.source().params().visualRange, 0.0);
  EXPECT_EQ(app.source().pending_params().visualRange, 0.0) << "the slider shows the board's value again";
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("the board rejected visualRange = 200: out of range; back to 0"), std::string::npos)
      << app.message();
  // The plots follow the board's own frames (the board sends 30 a second: wait for them, the
  // steps above may take only a few hundred milliseconds).
  EXPECT_TRUE(frames_until(app, 3000, [&] { return app.plots().diameter.size() > 10u; }))
      << app.plots().diameter.size() << " points";
  EXPECT_GT(app.plots().steps.back(), app.plots().steps.front());
}

TEST(GuiSerial, BoardSessionRecordsAndReplaysWithoutTheBoard) {
  const fs::path dir = fs::temp_directory_path() / ("flockscope-gui-recording-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::size_t recorded = 0;
  {
    VirtualBoard vb({"--boids", "500"}, link_path("rec"));
    GuiApp app(headless());
    app.connect_serial(vb.link);
    ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected() && app.source().boids().n == 500; }))
        << app.message() << " connected " << serial(app).connected() << " boids " << app.source().boids().n;
    app.start_recording(dir / "board.flkrec");
    // About a second of board frames (30 a second; longer on a loaded machine).
    const std::size_t before = app.plots().diameter.size();
    frames_until(app, 5000, [&] { return app.plots().diameter.size() >= before + 30; });
    app.stop_recording();
    recorded = app.plots().diameter.size();
  }
  GuiApp app(headless());
  app.open_replay(dir / "board.flkrec");
  ASSERT_FALSE(app.message_is_error()) << app.message();
  EXPECT_STREQ(app.source().kind(), "replay");
  EXPECT_EQ(app.source().boids().n, 500u);
  EXPECT_GT(recorded, 10u);
  fs::remove_all(dir);
}

// A board at 30 frames a second mirrored by a window that draws at most 10 a second (the
// test sleeps 100 ms after every drawn frame): every board frame received is still a
// plotted point and a recorded frame, in order, with no frame number skipped.
TEST(GuiSerial, SlowWindowPlotsAndRecordsEveryBoardFrame) {
  const fs::path dir = fs::temp_directory_path() / ("flockscope-gui-every-rec-" + std::to_string(getpid()));
  fs::create_directories(dir);
  VirtualBoard vb({"--boids", "300"}, link_path("every"));
  GuiApp app(headless());
  app.connect_serial(vb.link);
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected() && app.source().boids().n == 300; }))
      << app.message();
  app.start_recording(dir / "every.flkrec");
  const std::size_t first = app.plots().steps.size() - 1;  // the recording's first frame
  int drawn = 0;
  for (; drawn < 200 && app.plots().steps.size() < first + 60; ++drawn) {
    app.frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  app.stop_recording();
  const PlotData& d = app.plots();
  ASSERT_GE(d.steps.size(), first + 60) << "board frames plotted in " << drawn << " drawn frames";
  // More board frames than drawn frames: the window took every frame queued between draws.
  EXPECT_GT(d.steps.size() - first, std::size_t(drawn) + 20);
  for (std::size_t i = first + 1; i < d.steps.size(); ++i) ASSERT_EQ(d.steps[i], d.steps[i - 1] + 1) << "point " << i;
  EXPECT_EQ(serial(app).link_status().counters.frames_dropped, 0u);
  // The whole board frames' metrics come from all of their boids.
  for (std::size_t i = first; i < d.steps.size(); ++i) EXPECT_EQ(d.from_state[i], 1) << "point " << i;
  const Recording rec = Recording::load(dir / "every.flkrec");
  ASSERT_EQ(rec.frames(), d.steps.size() - first);
  for (std::size_t i = 0; i < rec.frames(); ++i) {
    ASSERT_EQ(double(rec.step(i)), d.steps[first + i]) << "frame " << i;
    EXPECT_EQ(rec.metrics(i).diameter, d.diameter.y()[first + i]);
  }
  fs::remove_all(dir);
}

TEST(GuiSerial, UnpluggedBoardShowsReconnectingAndComesBackByItself) {
  const std::string path = link_path("unplug");
  auto vb = std::make_unique<VirtualBoard>(std::vector<std::string>{"--boids", "300"}, path);
  GuiApp app(headless());
  app.connect_serial(path);
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected(); }));
  vb->stop(SIGKILL);
  ASSERT_TRUE(frames_until(app, 3000, [&] { return serial(app).link_status().state == link::LinkState::kReconnecting; }));
  app.frame();  // the window shows what the link reported
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find("reconnecting"), std::string::npos) << app.message();
  // Unplugged: the window goes on drawing (no frame blocks on the port).
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) app.frame();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  fs::remove(path);
  vb = std::make_unique<VirtualBoard>(std::vector<std::string>{"--boids", "700"}, path);
  ASSERT_TRUE(frames_until(app, 3000, [&] { return serial(app).connected() && app.source().boids().n == 700; }));
  EXPECT_EQ(serial(app).link_status().counters.reconnects, 1u);
}
