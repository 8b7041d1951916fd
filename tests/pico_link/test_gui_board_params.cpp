// The window mirroring a board that exposes only some of the table's parameters (the tiny C
// board: five of them): the others are greyed as not on the board, and moving one sends
// nothing.
#include <SDL.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <thread>

#include "../gui/mouse_events.hpp"
#include "flock.h"
#include "gui_app.hpp"
#include "tiny_board.h"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;

namespace {

// The tiny C board on a raw pseudo-terminal: start() runs it on its own thread until stop()
// or the end of the scope.
class TinyBoardOnPty {
 public:
  explicit TinyBoardOnPty(int count) {
    if (openpty(&board_, &host_, name_, nullptr, nullptr) != 0) return;
    termios t{};
    tcgetattr(host_, &t);
    cfmakeraw(&t);
    tcsetattr(host_, TCSANOW, &t);
    ok_ = tiny_board_init(board_, count);
  }
  ~TinyBoardOnPty() {
    stop();
    if (board_ >= 0) close(board_);
    if (host_ >= 0) close(host_);
  }
  TinyBoardOnPty(const TinyBoardOnPty&) = delete;
  TinyBoardOnPty& operator=(const TinyBoardOnPty&) = delete;
  bool ok() const { return ok_; }
  std::string name() const { return name_; }
  void start() { thread_ = std::thread([this] { tiny_board_run(&stop_); }); }
  void stop() {
    stop_ = 1;
    if (thread_.joinable()) thread_.join();
  }

 private:
  int board_ = -1, host_ = -1;
  char name_[256] = {};
  bool ok_ = false;
  volatile int stop_ = 0;
  std::thread thread_;
};

}  // namespace

TEST(GuiBoardParams, ParametersNotOnTheBoardAreGreyedAndNeverSent) {
  TinyBoardOnPty board(60);
  ASSERT_TRUE(board.ok());
  board.start();
  {
    GuiOptions o = headless(1100, 1000, true);
    GuiApp app(o);
    app.connect_serial(board.name());
    ASSERT_TRUE(frames_until(app, 8000, [&] { return app.source().boids().n == 60 && app.source().has_param(7); }))
        << app.message();
    EXPECT_TRUE(app.source().has_param(17));    // maxspeed: on the board
    EXPECT_FALSE(app.source().has_param(9));    // centeringfactor: not
    EXPECT_FALSE(app.source().has_param(1));    // width: not
    const double before = app.source().pending_params().centeringfactor;
    const std::optional<GuiApp::Rect> r = settled_rect(app, "param:centeringfactor");
    ASSERT_TRUE(r.has_value());
    drag(app, r->cx(), r->cy(), r->x1 + 40);
    frames_until(app, 500, [] { return false; });
    EXPECT_EQ(app.source().pending_params().centeringfactor, before) << "a greyed slider does not move";
    EXPECT_FALSE(app.source().param_pending(9));
  }
  board.stop();
  EXPECT_EQ(fsl_get_counters().requests, 0u) << "nothing was sent to the board";
}

namespace {
void push_key(Uint32 type, SDL_Scancode code, SDL_Keycode sym) {
  SDL_Event e{};
  e.type = type;
  e.key.keysym.scancode = code;
  e.key.keysym.sym = sym;
  e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}

void push_text(const char* text) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  std::snprintf(e.text.text, sizeof e.text.text, "%s", text);
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}
}  // namespace

// Ctrl+click on the visualRange slider and type 400, a character every few frames (long
// enough for any change sent on the way to reach the board), then Enter: the board gets one
// change, 400 (the lab's check refuses it: its squared distances allow at most 180 px), and
// the window says what was refused.
TEST(GuiBoardParams, TypingIntoASliderSendsOnlyTheCommittedValue) {
  TinyBoardOnPty board(60);
  ASSERT_TRUE(board.ok());
  const fsl_counters before = fsl_get_counters();
  board.start();
  std::string message;
  double kept = -1;
  {
    GuiOptions o = headless(1100, 1000, true);
    GuiApp app(o);
    app.connect_serial(board.name());
    ASSERT_TRUE(frames_until(app, 8000, [&] { return app.source().boids().n == 60 && app.source().has_param(7); }))
        << app.message();
    const double start = app.source().params().visualRange;
    const std::optional<GuiApp::Rect> r = settled_rect(app, "param:visualRange");
    ASSERT_TRUE(r.has_value());
    // Ctrl held while clicking turns the slider into a text field.
    SDL_SetModState(KMOD_LCTRL);
    push_key(SDL_KEYDOWN, SDL_SCANCODE_LCTRL, SDLK_LCTRL);
    app.frame();
    click(app, r->cx(), r->cy());
    SDL_SetModState(KMOD_NONE);
    push_key(SDL_KEYUP, SDL_SCANCODE_LCTRL, SDLK_LCTRL);
    app.frame();
    for (const char* c : {"4", "0", "0"}) {
      push_text(c);
      frames_until(app, 400, [] { return false; });
    }
    EXPECT_FALSE(app.source().param_pending(7)) << "nothing sent while typing";
    EXPECT_EQ(app.source().params().visualRange, start);
    push_key(SDL_KEYDOWN, SDL_SCANCODE_RETURN, SDLK_RETURN);
    app.frame();
    push_key(SDL_KEYUP, SDL_SCANCODE_RETURN, SDLK_RETURN);
    EXPECT_TRUE(frames_until(app, 4000, [&] { return app.message().find("visualRange = 400") != std::string::npos; }))
        << app.message();
    frames_until(app, 500, [] { return false; });
    message = app.message();
    kept = app.source().params().visualRange;
    EXPECT_EQ(kept, start);
    EXPECT_EQ(app.source().pending_params().visualRange, start) << "the slider shows the board's value again";
  }
  board.stop();
  const fsl_counters after = fsl_get_counters();
  EXPECT_EQ(after.requests - before.requests, 1u) << "one change reached the board, not 4 and 40 on the way";
  EXPECT_EQ(after.rejected - before.rejected, 1u);
  EXPECT_NE(message.find("the board refused visualRange = 400 (out of range: at most 180 px on this board (its squared "
                         "distances are fix15)); it keeps 40"),
            std::string::npos)
      << message;
}

// One screen, one boid count: the board's stats, the boids slider and the Set-boid-count
// field agree (the tiny board does not even list `boids` in its parameter set); when its link
// goes quiet the frozen flock view says so.
TEST(GuiBoardParams, BoidCountsAgreeAndALostLinkIsShownOverTheView) {
  TinyBoardOnPty board(60);
  ASSERT_TRUE(board.ok());
  board.start();
  {
    GuiOptions o = headless(1100, 1000, true);
    o.preset = "cornell-consensus";  // 1000 boids: not the board's count
    GuiApp app(o);
    app.connect_serial(board.name());
    ASSERT_TRUE(frames_until(app, 8000, [&] { return app.source().boids().n == 60 && app.source().has_param(7); }))
        << app.message();
    EXPECT_TRUE(frames_until(app, 2000, [&] { return app.source().pending_params().boids == 60; }))
        << "the boids slider shows " << app.source().pending_params().boids;
    EXPECT_EQ(app.source().params().boids, 60);
    EXPECT_FALSE(app.item_rect("view:stale").has_value()) << "connected: nothing over the view";
    board.stop();
    // Two seconds without a frame: the link is lost; the view keeps the last frame and says so.
    EXPECT_TRUE(frames_until(app, 6000, [&] { return app.item_rect("view:stale").has_value(); }));
    EXPECT_EQ(app.source().boids().n, 60u);
    const auto r = app.item_rect("view:stale");
    ASSERT_TRUE(r.has_value());
    const auto v = app.view_rect();
    EXPECT_GT(r->cx(), v.x0);
    EXPECT_LT(r->cx(), v.x1);
    EXPECT_GT(r->cy(), v.y0);
    EXPECT_LT(r->cy(), v.y1);
  }
}

// A port path that does not exist: an error naming it (and the ports there are), while the
// window keeps trying it.
TEST(GuiBoardParams, AMissingPortIsNamedAndStillTried) {
  const std::string missing = (fs::temp_directory_path() / "flockscope-no-such-port").string();
  fs::remove(missing);
  GuiOptions o = headless(1100, 1000, true);
  o.port = missing;
  GuiApp app(o);
  ASSERT_TRUE(frames_until(app, 4000, [&] { return app.message().find("no such port") != std::string::npos; }))
      << app.message();
  EXPECT_TRUE(app.message_is_error());
  EXPECT_NE(app.message().find(missing + ": no such port; "), std::string::npos) << app.message();
  EXPECT_NE(app.message().find("still trying"), std::string::npos) << app.message();
  EXPECT_NE(app.source().board(), nullptr) << "still the board's source";
  // The port appears (a board plugged in): the link takes it.
  TinyBoardOnPty board(40);
  ASSERT_TRUE(board.ok());
  board.start();
  fs::create_symlink(board.name(), missing);
  EXPECT_TRUE(frames_until(app, 8000, [&] { return app.source().boids().n == 40; })) << app.message();
  board.stop();
  fs::remove(missing);
}

int main(int argc, char** argv) {
  setenv("SDL_VIDEODRIVER", "offscreen", 0);
  const fs::path home = fs::temp_directory_path() / "flockscope_test_pico_gui" / "xdg";
  fs::create_directories(home);
  setenv("XDG_CONFIG_HOME", home.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
