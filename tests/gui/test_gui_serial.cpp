// The window mirroring a board: the virtual board (`flockscope board`) on a pseudo-terminal,
// the window's own SerialSource and panels, driven like a user through GuiApp::frame().
// A slider change shows pending, is acknowledged and takes effect; a value the board
// refuses goes back with the board's reason; a board session records and replays; an
// unplugged board shows as reconnecting and comes back by itself.
#include <SDL.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stb/stb_image.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <filesystem>
#include <functional>
#include <optional>
#include <thread>

#include "../board/vboard_process.hpp"
#include "../link/hostile_board_process.hpp"
#include "../link/test_pty.hpp"
#include "flockscope/protocol/protocol.hpp"
#include "link/wire_params.hpp"
#include "gui_app.hpp"
#include "mouse_events.hpp"
#include "serial_source.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::gui;
using vbtest::VirtualBoard;

namespace {

// The board panel sits above the sliders: a tall window.
GuiOptions board_window() { return headless(1100, 1000, true); }

std::string link_path(const std::string& tag) {
  return (fs::temp_directory_path() / ("flockscope-gui-" + tag + "-" + std::to_string(getpid()))).string();
}

SerialSource& serial(GuiApp& app) { return dynamic_cast<SerialSource&>(app.source()); }

}  // namespace

TEST(GuiSerial, SliderChangeIsPendingThenAcknowledgedAndARefusedOneReverts) {
  VirtualBoard vb({"--boids", "800"}, link_path("slider"));
  GuiApp app(board_window());
  app.connect_serial(vb.link);
  EXPECT_STREQ(app.source().kind(), "serial");
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected() && app.source().boids().n == 800; }))
      << app.message();
  EXPECT_EQ(app.source().params().width, 640);  // the board's world, read back
  // Until the layout settles (the link's first messages and stats change the panel's height).
  std::optional<GuiApp::Rect> r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r.has_value());
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
  // The refusal names what the board allows (its log line, sent just before the ack).
  EXPECT_NE(app.message().find("the board refused visualRange = 200 (out of range: this board allows 0 to 127); it keeps 0"),
            std::string::npos)
      << app.message();
  // The slider's tooltip gives the board's range from then on, not this app's.
  EXPECT_EQ(app.source().board_allows(7).value_or("(none)"), "0 to 127");
  EXPECT_FALSE(app.source().board_allows(8).has_value());
  // The plots follow the board's own frames (the board sends 30 a second: wait for them, the
  // steps above may take only a few hundred milliseconds).
  EXPECT_TRUE(frames_until(app, 3000, [&] { return app.plots().diameter.size() > 10u; }))
      << app.plots().diameter.size() << " points";
  EXPECT_GT(app.plots().steps.back(), app.plots().steps.front());
  // Disconnected: the board's plots stay (to compare and export), the local flock's run
  // follows a reset marker.
  const std::size_t board_points = app.plots().diameter.size();
  const double board_end = app.plots().last_time();
  app.disconnect_serial();
  for (int i = 0; i < 5; ++i) app.frame();
  ASSERT_GT(app.plots().diameter.size(), board_points);
  EXPECT_EQ(app.plots().sources.front(), app.plots().sources[board_points - 1]);
  ASSERT_FALSE(app.plots().resets.empty());
  EXPECT_GT(app.plots().resets.back(), board_end);
  const fs::path out = fs::temp_directory_path() / ("flockscope-gui-disconnect-" + std::to_string(getpid()));
  app.export_all(out);
  ASSERT_FALSE(app.message_is_error()) << app.message();
  std::size_t rows = 0;
  for (const auto& f : app.last_export())
    if (f.extension() == ".csv") rows = read_csv(f).size() - 1;
  EXPECT_EQ(rows, app.plots().diameter.size());
  fs::remove_all(out);
}

TEST(GuiSerial, BoardSessionRecordsAndReplaysWithoutTheBoard) {
  const fs::path dir = fs::temp_directory_path() / ("flockscope-gui-recording-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::size_t recorded = 0;
  {
    VirtualBoard vb({"--boids", "500"}, link_path("rec"));
    GuiApp app(board_window());
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
  GuiApp app(board_window());
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
  GuiApp app(board_window());
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
  for (std::size_t i = first; i < d.steps.size(); ++i) EXPECT_EQ(d.sources[i], link::MetricsSource::kState) << "point " << i;
  const Recording rec = Recording::load(dir / "every.flkrec");
  ASSERT_EQ(rec.frames(), d.steps.size() - first);
  for (std::size_t i = 0; i < rec.frames(); ++i) {
    ASSERT_EQ(double(rec.step(i)), d.steps[first + i]) << "frame " << i;
    EXPECT_EQ(rec.metrics(i).diameter, d.diameter.y()[first + i]);
  }
  fs::remove_all(dir);
}

// A board from elsewhere reports visualRange = 20000, beyond this app's range (0..10000): the
// slider shows 20000 in the warning colour (the board's value, not the clamped 10000), and
// moving it sends a value in range, which the board takes. The board is played by the test
// over its own pseudo-terminal: hello, its parameter set, a heartbeat, acks.
TEST(GuiSerial, BoardValueOutsideTheAppsRangeIsShownAndTheSliderSendsAValidOne) {
  namespace proto = flockscope::protocol;
  linktest::TestPty line("gui-outside");
  ASSERT_GE(line.master, 0);
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::vector<proto::Param> changes;  // what the app asked for
  std::thread board([&] {
    proto::StaticDecoder<> dec;
    proto::Encoder enc;
    std::uint8_t buf[4096], wire[proto::kMaxWireSize];
    auto send = [&](proto::Message m) { line.write_all(wire, enc.encode(m, wire)); };
    bool greeted = false;
    std::uint32_t frame = 0;
    auto beat = std::chrono::steady_clock::now();
    while (!stop) {
      pollfd pf{line.master, POLLIN, 0};
      ::poll(&pf, 1, 10);
      const ssize_t n = ::read(line.master, buf, sizeof buf);
      std::span<const std::uint8_t> in(buf, n > 0 ? std::size_t(n) : 0);
      proto::Message m;
      while (dec.next(in, m)) {
        if (m.type == proto::MsgType::kHello) {
          send(proto::make_hello(proto::Role::kBoard, 9, 0, 0, 4000, 0x1FF, "pico-elsewhere"));
          proto::Message ps{};
          ps.type = proto::MsgType::kParamSet;
          ps.version = proto::kProtocolVersion;
          const Params defaults;
          for (const ParamDef& d : param_table()) {
            const double v = std::string_view(d.name) == "visualRange" ? 20000.0 : get_param(defaults, d);
            ps.param_set.params[ps.param_set.count++] = {d.id, link::to_wire(d, v)};
          }
          ps.param_set.total = ps.param_set.count;
          send(ps);
          greeted = true;
        } else if (m.type == proto::MsgType::kParamChange) {
          {
            std::lock_guard<std::mutex> lock(mu);
            changes.push_back(m.param_change.param);
          }
          send(proto::make_ack(m, proto::Status::kOk, m.param_change.param.id, m.param_change.param.value));
        } else if (m.type == proto::MsgType::kCommand) {
          send(proto::make_ack(m, proto::Status::kOk, std::uint16_t(m.command.id), proto::ParamValue::of_int(m.command.arg)));
        }
      }
      if (greeted && std::chrono::steady_clock::now() - beat > std::chrono::milliseconds(33)) {
        beat = std::chrono::steady_clock::now();
        proto::Message st{};
        st.type = proto::MsgType::kStats, st.version = proto::kProtocolVersion;
        st.stats = {++frame, 30, 1000, 30000, 0, frame * 33, 0, 0};
        send(st);
      }
    }
  });
  struct Join {
    std::atomic<bool>& stop;
    std::thread& t;
    ~Join() { stop = true, t.join(); }
  } join{stop, board};

  GuiApp app(board_window());
  app.connect_serial(line.link);
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected(); })) << app.message();
  const ParamDef& range = *find_param("visualRange");
  ASSERT_EQ(app.source().outside_value(range.id), 20000.0);
  EXPECT_EQ(app.source().params().visualRange, range.max) << "params hold the nearest valid value";
  // The board's note about the value is shown above the panel: wait for it, so that the
  // panel's layout is the one the screenshot below shows.
  ASSERT_TRUE(frames_until(app, 3000, [&] { return app.message().find("outside this app's ranges") != std::string::npos; }))
      << app.message();
  std::optional<GuiApp::Rect> r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r.has_value());
  ASSERT_LT(r->y1, 1000) << "the slider is on screen";
  // The slider's frame in the warning colour.
  const fs::path shot = fs::temp_directory_path() / ("flockscope-gui-outside-" + std::to_string(getpid()) + ".png");
  app.request_screenshot(shot);
  app.frame();
  {
    int w = 0, h = 0, ch = 0;
    unsigned char* px = stbi_load(shot.c_str(), &w, &h, &ch, 4);
    ASSERT_NE(px, nullptr);
    // Just inside the frame's left edge, above the text: the warning red (140, 41, 26).
    const int x = int(r->x0) + 4, y = int(r->y0) + 2;
    const unsigned char* p = px + 4 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
    EXPECT_GT(p[0], 110);
    EXPECT_LT(p[1], 70);
    EXPECT_LT(p[2], 60);
    stbi_image_free(px);
  }
  // The screenshot's message replaced the board's note above the panel: find the slider
  // again once the panel has settled.
  r = settled_rect(app, "param:visualRange");
  ASSERT_TRUE(r.has_value());
  // Moved to a quarter of the slider: an in-range value goes out, the board takes it.
  drag(app, r->x1 - 3, r->cy(), r->x0 + (r->x1 - r->x0) / 4);
  ASSERT_TRUE(frames_until(app, 3000, [&] {
    std::lock_guard<std::mutex> lock(mu);
    return !changes.empty() && !app.source().param_pending(range.id);
  })) << app.message() << "; asked " << app.source().pending_params().visualRange << ", pending "
      << app.source().param_pending(range.id) << ", rect " << r->x0 << ".." << r->x1 << " y " << r->cy();
  double sent = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    ASSERT_GE(changes.size(), 1u);  // the press, then the drag: each an in-range value
    for (const auto& c : changes) {
      EXPECT_EQ(c.id, range.id);
      sent = link::from_wire(range, c.value).value_or(-1);
      EXPECT_GE(sent, range.min);
      EXPECT_LE(sent, range.slider_max);
    }
  }
  EXPECT_LT(sent, range.slider_max / 2);  // the drag's end, a quarter of the way
  EXPECT_EQ(app.source().params().visualRange, sent);
  EXPECT_FALSE(app.source().outside_value(range.id).has_value());
  fs::remove(shot);
}

TEST(GuiSerial, UnpluggedBoardShowsReconnectingAndComesBackByItself) {
  const std::string path = link_path("unplug");
  auto vb = std::make_unique<VirtualBoard>(std::vector<std::string>{"--boids", "300"}, path);
  GuiApp app(board_window());
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

#ifdef FLOCKSCOPE_PYTHON3
// A hostile board (tests/link/hostile_board.py): a name that is not UTF-8 with terminal
// controls, a warning that clears the screen and retitles the terminal, values outside the
// table. The window's messages (also printed on its terminal) show them escaped, and the
// values as the board sent them, flagged.
TEST(GuiSerial, AHostileBoardsTextIsShownEscapedAndItsValuesAsSent) {
  hostile::HostileBoard hb("gui", {"--name-hex", "fffe6576696c1b5b324a1b5d303b70776e656407", "--log-hex",
                                   "1b5b324a636c65617265641b5d303b7469746c6507", "--param", "7=real:nan", "--param",
                                   "24=bool:7"});
  // The window's messages are printed on its terminal as well: every one of them is here.
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  std::string name;
  {
    GuiApp app(board_window());
    app.connect_serial(hb.link);
    frames_until(app, 5000, [&] { return app.message().find("board: ") == 0; });
    name = serial(app).link_status().board_name;
  }
  const std::string out = ::testing::internal::GetCapturedStdout() + ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find_first_of("\x1b\x07\xff"), std::string::npos) << out;
  EXPECT_NE(out.find("connected to \\xff\\xfeevil\\x1b[2J\\x1b]0;pwned\\x07 on "), std::string::npos) << out;
  EXPECT_NE(out.find("the board reports values outside this app's ranges: visualRange=nan (not a number), "
                     "dynamicbias=bool 7 (a bool is 0 or 1)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("flockscope: board: \\x1b[2Jcleared\\x1b]0;title\\x07\n"), std::string::npos) << out;
  // The board panel shows this name.
  EXPECT_EQ(name, "\\xff\\xfeevil\\x1b[2J\\x1b]0;pwned\\x07");
}
// A board whose parameter set lists the lab's extensions but whose hello lacks capability bit 9
// (older firmware held them at off): the window has them not on the board (greyed, never sent);
// the virtual board, which runs them, has them.
TEST(GuiSerial, ExtensionSlidersAreNotOnABoardWithoutThem) {
  const auto id = [](const char* n) { return find_param(n)->id; };
  hostile::HostileBoard hb("gui-ext", {"--param", "7=real:40", "--param", "52=real:0", "--param", "40=choice:0",
                                       "--param", "48=int:0"});
  {
    GuiApp app(board_window());
    app.connect_serial(hb.link);
    ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected(); }));
    EXPECT_TRUE(app.source().has_param(id("visualRange")));
    EXPECT_TRUE(app.source().has_param(id("gravity")));
    EXPECT_FALSE(app.source().has_param(id("predator_mode")));
    EXPECT_FALSE(app.source().has_param(id("food")));
  }
  VirtualBoard vb({"--boids", "300"}, link_path("ext"));
  GuiApp app(board_window());
  app.connect_serial(vb.link);
  ASSERT_TRUE(frames_until(app, 5000, [&] { return serial(app).connected(); }));
  for (const char* n : {"predator_mode", "perch_frames", "food", "food_speed", "gravity"})
    EXPECT_TRUE(app.source().has_param(id(n))) << n;
}
#endif
