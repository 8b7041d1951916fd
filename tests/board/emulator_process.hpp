// The firmware in the emulator as a child process (firmware_pico/emulate.sh: rp2040js with
// the ELF, its USB CDC bridged to a pseudo-terminal at `link`), and the skip rule: without
// the ELF or node the tests skip, except under CI=true, where they fail (CI builds the
// firmware first). Shared by the board's emulator tests and the app link's.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace emutest {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

#define REQUIRE_OR_SKIP(cond, what)                      \
  do {                                                   \
    if (!(cond)) {                                       \
      if (emutest::in_ci()) FAIL() << what << " (CI=true)";       \
      GTEST_SKIP() << what;                              \
    }                                                    \
  } while (0)

struct Emulator {
  pid_t pid = -1;
  std::string link;
  explicit Emulator(const std::string& elf) {
    link = (std::filesystem::temp_directory_path() / ("flockscope-emu-" + std::to_string(getpid()))).string();
    std::filesystem::remove(link);
    pid = fork();
    if (pid == 0) {
      setpgid(0, 0);  // its own group: node and the pty bridge are stopped together
      const std::string script = std::string(FLOCKSCOPE_SOURCE_DIR) + "/firmware_pico/emulate.sh";
      execl("/bin/bash", "bash", script.c_str(), "--link", link.c_str(), elf.c_str(), nullptr);
      _exit(127);
    }
    setpgid(pid, pid);
    for (int i = 0; i < 1200 && !std::filesystem::exists(link); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ~Emulator() {
    if (pid > 0) {
      kill(-pid, SIGTERM);
      int st = 0;
      waitpid(pid, &st, 0);
    }
    std::filesystem::remove(link);
  }
};

inline std::string elf_path() { return std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/flockscope_pico_emu.elf"; }
// The same firmware with both cores sharing the update (run on two emulated cores).
inline std::string two_core_elf_path() {
  return std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/flockscope_pico_emu2.elf";
}
// The board's image (two cores, VGA) with only the emulator's switches.
inline std::string vga_elf_path() {
  return std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/flockscope_pico_emu_vga.elf";
}

inline bool have_node() { return std::system("command -v node > /dev/null 2>&1 && command -v npm > /dev/null 2>&1") == 0; }

}  // namespace emutest
