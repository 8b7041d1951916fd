// `flockscope mirror` (and `flockscope board --link`) against input that is out to hurt:
// a scriptable hostile board (tests/link/hostile_board.py, frames built with the protocol's
// Python reference) on a real pseudo-terminal, signals sent to the running mirror, a
// recording onto a full disk (/dev/full), and files in the way of the board's link. What
// must hold: the mirror ends near --seconds and stays small whatever the board sends, what
// the board sent is written as sent (and made printable), and nothing is lost or deleted.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <variant>
#include <unistd.h>
#include <vector>

#include "../board/vboard_process.hpp"
#include "hostile_board_process.hpp"
#include "link/board_link.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

fs::path temp(const std::string& tag) {
  return fs::temp_directory_path() / ("flockscope-hostile-" + tag + "-" + std::to_string(getpid()));
}

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t lines(const fs::path& f) {
  std::ifstream in(f);
  std::size_t n = 0;
  for (std::string s; std::getline(in, s);) ++n;
  return n;
}

struct Outcome {
  int rc = -1;           // exit status; -1 when killed by a signal
  double seconds = 0;    // wall time
  long max_rss_kb = 0;   // peak resident memory of the mirror itself
  std::string output;    // stdout + stderr
};

// Runs flockscope with `args` to the end; `during` (if any) is called with its pid first.
Outcome run_flockscope(const std::vector<std::string>& args, const std::function<void(pid_t)>& during = {}) {
  std::vector<std::string> all = {FLOCKSCOPE_BIN};
  all.insert(all.end(), args.begin(), args.end());
  const fs::path log = temp("run.log");
  const auto t0 = Clock::now();
  const pid_t pid = hostile::spawn(all, log);
  if (during) during(pid);
  int st = 0;
  rusage ru{};
  wait4(pid, &st, 0, &ru);
  Outcome r;
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.max_rss_kb = ru.ru_maxrss;
  r.output = slurp(log);
  fs::remove(log);
  return r;
}

nlohmann::json link_json(const fs::path& out) { return nlohmann::json::parse(std::ifstream(out / "link.json")); }

// Every data row of metrics.csv, split into cells.
std::vector<std::vector<std::string>> rows(const fs::path& csv) {
  std::ifstream in(csv);
  std::vector<std::vector<std::string>> out;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    out.push_back(cells);
  }
  return out;
}

// The mirror's bound: 100 MB whatever the board sends. Under AddressSanitizer the same
// process carries ASan's shadow memory and quarantine (140-220 MB measured for these runs),
// so the sanitizer pass checks that memory stays bounded at a proportionally higher line; the
// release pass holds the 100 MB.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kMemoryLimitKb = 400 * 1024;
#else
constexpr long kMemoryLimitKb = 100 * 1024;
#endif

}  // namespace

// A total of a million boids from a board announcing 4,000: each such frame is a protocol
// error, dropped and counted; the good frames between them are mirrored; memory stays small.
TEST(HostileBoard, ChunksClaimingMoreThanTheCapacityAreDroppedAndCostNoMemory) {
  hostile::HostileBoard hb("capacity", {"--capacity", "4000", "--boids", "100", "--bad-total", "1000000", "--fps", "0"});
  ASSERT_TRUE(fs::exists(fs::symlink_status(hb.link)));
  const fs::path out = temp("capacity-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "3", "--quiet", "--out", out.string()});
  std::printf("mirror --seconds 3: %.2f s, peak %ld KB\n", r.seconds, r.max_rss_kb);
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto j = link_json(out);
  EXPECT_GT(j["link"]["frames_over_capacity"].get<int>(), 0);
  EXPECT_GE(j["link"]["bad_chunks"].get<int>(), j["link"]["frames_over_capacity"].get<int>());
  EXPECT_GT(j["frames"]["received"].get<int>(), 0);
  EXPECT_EQ(j["frames"]["boids"], 100);
  EXPECT_EQ(j["frames"]["received"], j["frames"]["complete"]);
  EXPECT_EQ(lines(out / "metrics.csv"), j["frames"]["received"].get<std::size_t>() + 1);
  EXPECT_LT(r.max_rss_kb, kMemoryLimitKb);
  EXPECT_LT(r.seconds, 3 + 20.0) << "held far past --seconds";  // a hang guard, not a speed test
  fs::remove_all(out);
}

// The board claims 20,000 boids and sends 120: the 19,880 it never sent are not mirrored as
// boids piled at the origin (which made nearest-neighbour distance and clusters quadratic),
// and each frame, partial and without metrics of the board's own, is marked `partial` and
// measured over the 120 that arrived.
TEST(HostileBoard, BoidsNeverSentAreNotMeasured) {
  hostile::HostileBoard hb("partial", {"--capacity", "20000", "--boids", "120", "--total", "20000", "--fps", "0"});
  const fs::path out = temp("partial-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "2", "--quiet", "--out", out.string()});
  std::printf("mirror --seconds 2: %.2f s, peak %ld KB\n", r.seconds, r.max_rss_kb);
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto j = link_json(out);
  EXPECT_EQ(j["frames"]["boids"], 120);
  EXPECT_EQ(j["frames"]["partial"], j["frames"]["received"]);
  const auto rs = rows(out / "metrics.csv");
  ASSERT_FALSE(rs.empty());
  // The 120 sent boids lie at least 7 px apart: no boid sits on another.
  for (const auto& row : rs) ASSERT_GE(std::stod(row.at(7)), 7.0) << "mean_nn_distance";
  // By hand, as hostile_board.py places them: boid k at (5 + 7k mod 630, 5 + (13k div 630 x
  // 11 + k) mod 470), every one at (1, 0) px/frame.
  double cx = 0, cy = 0;
  for (int k = 0; k < 120; ++k) cx += 5 + (k * 7) % 630, cy += 5 + (k * 13 / 630 * 11 + k) % 470;
  cx /= 120, cy /= 120;
  for (const auto& row : rs) {
    ASSERT_EQ(row.at(11), "partial");  // source
    ASSERT_EQ(row.at(12), "120");      // metrics_boids
    EXPECT_NEAR(std::stod(row.at(3)), cx, 1e-6);
    EXPECT_NEAR(std::stod(row.at(4)), cy, 1e-6);
    EXPECT_NEAR(std::stod(row.at(5)), 1.0, 1e-9);  // polarisation
    EXPECT_NEAR(std::stod(row.at(6)), 1.0, 1e-9);  // mean speed
  }
  EXPECT_LT(r.max_rss_kb, kMemoryLimitKb);
  EXPECT_LT(r.seconds, 2 + 20.0) << "held far past --seconds";
  fs::remove_all(out);
}

// 65,535 boids on one point, as fast as the line takes: measuring such a frame is the most
// a board can ask of the mirror. It still ends near --seconds and stays small.
TEST(HostileBoard, ACrowdedFlockAtTheLimitDoesNotHoldTheMirror) {
  hostile::HostileBoard hb("crowd", {"--capacity", "65535", "--boids", "65535", "--coincident", "--fps", "0"});
  const fs::path out = temp("crowd-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "2", "--quiet", "--out", out.string()});
  std::printf("mirror --seconds 2: %.2f s, peak %ld KB\n%s", r.seconds, r.max_rss_kb, r.output.c_str());
  EXPECT_TRUE(r.rc == 0 || r.rc == 1) << r.output;  // 1: no frame could be measured in time
  const auto j = link_json(out);
  EXPECT_LT(j["seconds"].get<double>(), 2 + 5.0);
  EXPECT_LT(r.max_rss_kb, kMemoryLimitKb);
  EXPECT_LT(r.seconds, 2 + 10.0) << "held far past --seconds";
  fs::remove_all(out);
}

// Log lines and hellos as fast as the line takes while the mirror measures a crowded frame:
// the link keeps the newest hello and a bounded number of log lines (the rest are counted in
// logs_dropped when the mirror falls behind, which depends on the machine), so memory and
// time stay bounded however much arrives.
TEST(HostileBoard, AFloodOfLogLinesAndHellosIsBounded) {
  hostile::HostileBoard hb("flood", {"--capacity", "65535", "--boids", "20000", "--coincident", "--fps", "0", "--flood", "100",
                            "--log-hex", std::string(500, '4')});
  const fs::path out = temp("flood-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "2", "--quiet", "--out", out.string()});
  std::printf("mirror --seconds 2: %.2f s, peak %ld KB\n", r.seconds, r.max_rss_kb);
  EXPECT_TRUE(r.rc == 0 || r.rc == 1) << r.output;
  const auto j = link_json(out);
  std::printf("%s\n", j["link"].dump().c_str());
  EXPECT_GT(j["link"]["bytes_rx"].get<double>(), 10e6) << "the flood arrived";
  EXPECT_LT(r.max_rss_kb, kMemoryLimitKb);
  EXPECT_LT(r.seconds, 2 + 10.0) << "held far past --seconds";
  fs::remove_all(out);
}

// A name that is not UTF-8 and carries terminal controls; a log line that clears the screen
// and retitles the terminal. Written escaped everywhere; link.json is written.
TEST(HostileBoard, NamesAndLogLinesArePrintedEscapedAndLinkJsonIsWritten) {
  // \xff\xfe "evil" ESC "[2J" ESC "]0;pwned" BEL
  const std::string name_hex = "fffe6576696c1b5b324a1b5d303b70776e656407";
  // ESC "[2Jcleared" ESC "]0;title" BEL, a C1 CSI (U+009B) "31m", U+202E "txt"
  const std::string log_hex = "1b5b324a636c65617265641b5d303b7469746c6507c29b33316de280ae747874";
  hostile::HostileBoard hb("name", {"--name-hex", name_hex, "--log-hex", log_hex});
  const fs::path out = temp("name-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "1", "--out", out.string()});
  EXPECT_EQ(r.rc, 0) << r.output;
  for (const char* raw : {"\x1b", "\x07", "\xff", "\xc2\x9b", "\xe2\x80\xae"})
    EXPECT_EQ(r.output.find(raw), std::string::npos) << "raw control on the terminal: " << r.output;
  EXPECT_NE(r.output.find("connected to \\xff\\xfeevil\\x1b[2J\\x1b]0;pwned\\x07 on "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("board: \\x1b[2Jcleared\\x1b]0;title\\x07\\u{009b}31m\\u{202e}txt\n"), std::string::npos)
      << r.output;
  ASSERT_TRUE(fs::exists(out / "link.json"));
  const auto j = link_json(out);
  EXPECT_EQ(j["board"]["name"], "\\xff\\xfeevil\\x1b[2J\\x1b]0;pwned\\x07");
  fs::remove_all(out);
}

// Values outside this app's table are written as the board sent them and flagged with the
// reason, in link.json and on the terminal (PROTOCOL.md section 12).
TEST(HostileBoard, ParameterValuesAreWrittenAsSentAndFlagged) {
  hostile::HostileBoard hb("params", {"--param", "1=real:1e308", "--param", "8=real:inf", "--param", "7=real:nan", "--param",
                             "6=choice:99", "--param", "24=bool:7", "--param", "17=real:5"});
  const fs::path out = temp("params-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "1", "--out", out.string()});
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto j = link_json(out);
  const auto& p = j["params"];
  EXPECT_EQ(p["width"].get<double>(), 1e308);
  EXPECT_EQ(p["protectedRange"], "inf");
  EXPECT_EQ(p["visualRange"], "nan");
  EXPECT_EQ(p["rules"], 99);
  EXPECT_EQ(p["dynamicbias"], 7);
  EXPECT_EQ(p["maxspeed"], 5.0);  // in range: as it was
  const auto& f = j["params_flagged"];
  EXPECT_EQ(f.size(), 5u) << f.dump();
  EXPECT_EQ(f["width"], "above this app's maximum 1e+06");
  EXPECT_EQ(f["protectedRange"], "above this app's maximum 10000");
  EXPECT_EQ(f["visualRange"], "not a number");
  EXPECT_EQ(f["rules"], "not one of this app's choices 0 to 2");
  EXPECT_EQ(f["dynamicbias"], "a bool is 0 or 1");
  EXPECT_NE(r.output.find("the board reports values outside this app's ranges: width=1e+308 (above this app's maximum "
                          "1e+06), protectedRange=inf (above this app's maximum 10000), visualRange=nan (not a number), "
                          "rules=choice 99 (not one of this app's choices 0 to 2), dynamicbias=bool 7 (a bool is 0 or 1)"),
            std::string::npos)
      << r.output;
  fs::remove_all(out);
}

// "ok" with NaN in force is no acknowledgement: the mirror exits 1 and says why.
TEST(HostileBoard, AnAcknowledgementCarryingNaNIsRefused) {
  // The board has maxspeed (id 17), so the change is sent and the answer is what is judged.
  hostile::HostileBoard hb("acknan", {"--ack", "nan", "--param", "7=real:40", "--param", "17=real:6"});
  const fs::path out = temp("acknan-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "1", "--set", "maxspeed=5", "--out", out.string()});
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_NE(r.output.find("the board answered maxspeed=5 with nan in force (not a number): not an acknowledgement"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("acknowledged in"), std::string::npos) << r.output;
  fs::remove_all(out);
}

// An answer that comes after the link reported its request unanswered (the board took 3 s,
// its frames said 33 ms) still tells the consumer what the board did: a second answer,
// marked late, with the value in force.
TEST(HostileBoard, ALateAcknowledgementStillResolvesItsRequest) {
  hostile::HostileBoard hb("late", {"--ack-delay", "3", "--param", "7=real:40"});
  flockscope::link::BoardLink link(flockscope::link::LinkOptions{.port = hb.link});
  const auto until = [&](double seconds, const std::function<bool(const flockscope::link::LinkEvent&)>& done) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      link.wait_for_event(std::chrono::milliseconds(50));
      for (const auto& e : link.take_events())
        if (done(e)) return true;
    }
    return false;
  };
  ASSERT_TRUE(until(10, [](const auto& e) { return std::holds_alternative<flockscope::link::BoardParams>(e); }));
  const std::uint32_t request = link.change_param(7, flockscope::protocol::ParamValue::of_real(30.0));
  std::vector<flockscope::link::RequestDone> answers;
  until(8, [&](const auto& e) {
    if (const auto* d = std::get_if<flockscope::link::RequestDone>(&e); d && d->request == request) answers.push_back(*d);
    return answers.size() == 2;
  });
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].outcome, flockscope::link::Outcome::kUnanswered);
  EXPECT_FALSE(answers[0].late);
  EXPECT_EQ(answers[1].outcome, flockscope::link::Outcome::kAccepted);
  EXPECT_TRUE(answers[1].late);
  EXPECT_EQ(answers[1].value.as_real(), 30.0);
  EXPECT_GE(answers[1].rtt_ms, 2900);
  EXPECT_EQ(link.status().counters.late_acks, 1u);
}

// Ctrl-C (and SIGTERM) in the middle of a long mirror: it stops at once with everything so
// far written, and exits as a finished mirror does.
TEST(MirrorSignals, SigintAndSigtermEndTheMirrorWithEverythingWritten) {
  vbtest::VirtualBoard vb({"--boids", "300"}, temp("sig-vb").string());
  ASSERT_TRUE(fs::exists(vb.link));
  for (int sig : {SIGINT, SIGTERM}) {
    const fs::path out = temp("sig-out");
    fs::remove_all(out);
    const Outcome r = run_flockscope({"mirror", "--port", vb.link, "--seconds", "600", "--quiet", "--out", out.string()},
                                 [&](pid_t pid) {
                                   // Until rows arrive (metrics.csv is written as the frames come).
                                   for (int i = 0; i < 3000 && lines(out / "metrics.csv") < 20; ++i)
                                     std::this_thread::sleep_for(std::chrono::milliseconds(10));
                                   kill(pid, sig);
                                 });
    ASSERT_EQ(r.rc, 0) << strsignal(sig) << ": " << r.output;
    EXPECT_NE(r.output.find(sig == SIGINT ? "stopped by SIGINT" : "stopped by SIGTERM"), std::string::npos) << r.output;
    const auto j = link_json(out);
    EXPECT_GE(j["frames"]["received"].get<int>(), 19);
    EXPECT_EQ(lines(out / "metrics.csv"), j["frames"]["received"].get<std::size_t>() + 1);
    EXPECT_LT(j["seconds"].get<double>(), 600.0);
    fs::remove_all(out);
  }
}

// Stopped while still waiting for a board: link.json says what the link saw.
TEST(MirrorSignals, SigintWhileConnectingWritesLinkJson) {
  const fs::path out = temp("sig-wait-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", "/nonexistent/ttyACM9", "--connect-timeout", "600", "--out", out.string()},
                               [](pid_t pid) {
                                 std::this_thread::sleep_for(std::chrono::milliseconds(500));
                                 kill(pid, SIGINT);
                               });
  EXPECT_EQ(r.rc, 1) << r.output;
  EXPECT_NE(r.output.find("stopped by SIGINT"), std::string::npos) << r.output;
  EXPECT_EQ(link_json(out)["state"], "waiting for the port");
  EXPECT_EQ(lines(out / "metrics.csv"), 1u);
  fs::remove_all(out);
}

// A recording onto a full disk stops with a message; the mirror goes on and writes the rest.
TEST(MirrorSignals, AFullDiskStopsTheRecordingNotTheMirror) {
  vbtest::VirtualBoard vb({"--boids", "2000"}, temp("full-vb").string());
  ASSERT_TRUE(fs::exists(vb.link));
  const fs::path out = temp("full-out");
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", vb.link, "--seconds", "2", "--quiet", "--record", "/dev/full", "--out",
                                out.string()});
  ASSERT_EQ(r.rc, 0) << r.output;
  EXPECT_NE(r.output.find("the recording stopped after"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/dev/full: write failed"), std::string::npos) << r.output;
  const auto j = link_json(out);
  EXPECT_NE(j["recording"]["stopped"].get<std::string>(), "");
  EXPECT_GT(j["frames"]["received"].get<int>(), 30);
  EXPECT_EQ(lines(out / "metrics.csv"), j["frames"]["received"].get<std::size_t>() + 1);
  fs::remove_all(out);
}

// `board --link PATH` never deletes what it did not make.
TEST(BoardLink, TheLinkNeverReplacesAFileAFolderOrALiveLink) {
  const fs::path dir = temp("board-link");
  fs::remove_all(dir);
  fs::create_directories(dir / "folder");
  std::ofstream(dir / "data.txt") << "precious\n";
  fs::create_symlink(dir / "data.txt", dir / "to-data");
  for (const char* name : {"data.txt", "folder", "to-data"}) {
    const Outcome r = run_flockscope({"board", "--link", (dir / name).string(), "--frames", "3", "--quiet"});
    EXPECT_EQ(r.rc, 2) << name << ": " << r.output;
    EXPECT_NE(r.output.find("exists and is not a stale board link"), std::string::npos) << r.output;
  }
  EXPECT_EQ(slurp(dir / "data.txt"), "precious\n");
  EXPECT_TRUE(fs::is_directory(dir / "folder"));
  EXPECT_EQ(fs::read_symlink(dir / "to-data"), dir / "data.txt");

  // A board's stale link (its pseudo-terminal gone) is replaced, and removed at exit.
  fs::create_symlink("/dev/pts/987654", dir / "stale");
  const Outcome r = run_flockscope({"board", "--link", (dir / "stale").string(), "--frames", "3", "--quiet"});
  EXPECT_EQ(r.rc, 0) << r.output;
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "stale")));

  // Replaced by a file while the board runs: the file stays when the board ends.
  {
    vbtest::VirtualBoard vb({"--boids", "10"}, (dir / "live").string());
    ASSERT_TRUE(fs::is_symlink(dir / "live"));
    fs::remove(dir / "live");
    std::ofstream(dir / "live") << "mine now\n";
  }
  EXPECT_EQ(slurp(dir / "live"), "mine now\n");
  fs::remove_all(dir);
}

// A board that lists the lab's extensions without saying it has them (no capability bit 9:
// older firmware held them at off): the app leaves them out of the board's parameters, so
// nothing sends them (--set names them as not on this board) and the window greys them;
// the rest (visualRange, gravity) is the board's as before, and it still mirrors.
TEST(HostileBoard, ExtensionsWithoutTheirCapabilityAreNotOnTheBoard) {
  hostile::HostileBoard hb("oldext", {"--param", "7=real:40", "--param", "52=real:0", "--param", "40=choice:0",
                                      "--param", "48=int:0", "--param", "43=int:0"});
  const fs::path out = temp("oldext-out");
  fs::remove_all(out);
  const Outcome set = run_flockscope({"mirror", "--port", hb.link, "--seconds", "1", "--set", "predator_mode=chase",
                                      "--out", out.string()});
  EXPECT_EQ(set.rc, 1) << set.output;
  EXPECT_NE(set.output.find("predator_mode is not on this board"), std::string::npos) << set.output;
  fs::remove_all(out);
  const Outcome r = run_flockscope({"mirror", "--port", hb.link, "--seconds", "1", "--out", out.string()});
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto j = link_json(out);
  std::vector<std::string> on;
  for (const auto& n : j["on_board"]) on.push_back(n.get<std::string>());
  EXPECT_EQ(on, (std::vector<std::string>{"visualRange", "gravity"})) << j["on_board"].dump();
  EXPECT_GT(j["frames"]["received"].get<double>(), 0.0);
  fs::remove_all(out);
}
