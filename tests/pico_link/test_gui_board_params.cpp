// The window mirroring a board that exposes only some of the table's parameters (the tiny C
// board: five of them): the others are greyed as not on the board, and moving one sends
// nothing.
#include <SDL.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
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

}  // namespace

TEST(GuiBoardParams, ParametersNotOnTheBoardAreGreyedAndNeverSent) {
  int board = -1, host = -1;
  char name[256];
  ASSERT_EQ(openpty(&board, &host, name, nullptr, nullptr), 0);
  termios t{};
  tcgetattr(host, &t);
  cfmakeraw(&t);
  tcsetattr(host, TCSANOW, &t);
  ASSERT_TRUE(tiny_board_init(board, 60));
  volatile int stop = 0;
  std::thread th([&] { tiny_board_run(&stop); });
  {
    GuiOptions o;
    o.width = 1100, o.height = 1000;
    o.software = true;
    o.use_ini = false;
    o.vsync = false;
    GuiApp app(o);
    app.connect_serial(name);
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
  stop = 1;
  th.join();
  EXPECT_EQ(fsl_get_counters().requests, 0u) << "nothing was sent to the board";
  close(board);
  close(host);
}

int main(int argc, char** argv) {
  setenv("SDL_VIDEODRIVER", "offscreen", 0);
  const fs::path home = fs::temp_directory_path() / "flockscope_test_pico_gui" / "xdg";
  fs::create_directories(home);
  setenv("XDG_CONFIG_HOME", home.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
