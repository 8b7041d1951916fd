// The virtual board (`flockscope board`) as a child process on a pseudo-terminal with a
// symlink at `link`. Shared by the board's end-to-end tests and the app link's.
#pragma once

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace vbtest {

struct VirtualBoard {
  pid_t pid = -1;
  std::string link;
  // Starts `flockscope board --link LINK --quiet EXTRA...` and waits (up to 2 s) for the link.
  explicit VirtualBoard(std::vector<std::string> extra, std::string link_path = {}) {
    link = link_path.empty()
               ? (std::filesystem::temp_directory_path() / ("flockscope-vb-" + std::to_string(getpid()))).string()
               : link_path;
    std::vector<std::string> args = {FLOCKSCOPE_BIN, "board", "--link", link, "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid = fork();
    if (pid == 0) {
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      const int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 1);
      execv(argv[0], argv.data());
      _exit(127);
    }
    for (int i = 0; i < 200 && !std::filesystem::exists(link); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~VirtualBoard() { stop(SIGTERM); }
  // SIGTERM: the board removes its link; SIGKILL: it vanishes mid-frame, link left dangling.
  void stop(int sig = SIGTERM) {
    if (pid > 0) {
      kill(pid, sig);
      int st = 0;
      waitpid(pid, &st, 0);
      pid = -1;
    }
  }
  bool alive() const { return pid > 0 && waitpid(pid, nullptr, WNOHANG) == 0; }
};

}  // namespace vbtest
