// The app's link against the real firmware ELF running in rp2040js (firmware_pico/emulate.sh):
// connect, handshake with the parameters read back, a change acknowledged and a rejected
// one reverted. The emulated board is slower than real time, so the request and silence
// timeouts are stretched (options a user would set for a slow link too).
#include <gtest/gtest.h>

#include "../board/emulator_process.hpp"
#include "link_probe.hpp"

using namespace flockscope;
using linktest::Probe;
namespace proto = flockscope::protocol;

TEST(LinkEmulator, ConnectsReadsParametersAndChangesOne) {
  REQUIRE_OR_SKIP(std::filesystem::exists(emutest::elf_path()), "no " + emutest::elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(emutest::have_node(), "node/npm missing");
  emutest::Emulator emu(emutest::elf_path());
  ASSERT_TRUE(std::filesystem::exists(emu.link)) << "the emulator made no pty link";
  link::LinkOptions o;
  o.port = emu.link;
  o.silence_ms = 30000;
  o.request_timeout_ms = 10000;
  o.request_retries = 2;
  Probe p(o);
  ASSERT_TRUE(p.connected_with_params(90000)) << link::to_string(p.state()) << ": " << p.link.status().detail;
  const auto st = p.link.status();
  ASSERT_TRUE(st.board.has_value());
  EXPECT_EQ(st.board->role, proto::Role::kBoard);
  EXPECT_EQ(std::string(st.board->name, st.board->name_len), "pico-emu");
  EXPECT_EQ(p.param(1).value(), 640.0);
  EXPECT_EQ(p.param(7).value(), 40.0);
  ASSERT_TRUE(p.pump_until(60000, [&] { return !p.frames.empty() && p.frames.back().state_complete; }));
  EXPECT_GT(p.frames.back().size(), 0u);

  const auto d = p.wait_done(p.link.change_param(7, proto::ParamValue::of_real(30.0)), 60000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, link::Outcome::kAccepted);
  EXPECT_EQ(d->value.as_real(), 30.0);
  const auto bad = p.wait_done(p.link.change_param(7, proto::ParamValue::of_real(1000.0)), 60000);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->outcome, link::Outcome::kRejected);
  EXPECT_EQ(bad->status, proto::Status::kOutOfRange);
  EXPECT_EQ(bad->value.as_real(), 30.0);
  std::printf("emulated board: change acknowledged in %.0f ms\n", d->rtt_ms);
}
