// The scriptable hostile board (tests/link/hostile_board.py) as a child process on a
// pseudo-terminal with a symlink at `link`. Shared by the link's and the window's tests;
// needs FLOCKSCOPE_PYTHON3 and FLOCKSCOPE_SOURCE_DIR.
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

namespace hostile {

// Starts args[0] with args, stdout and stderr into `log`.
inline pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

struct HostileBoard {
  pid_t pid = -1;
  std::string link;
  // `hostile_board.py --link <tmp>/flockscope-hostile-TAG-link-PID EXTRA...`; waits (up to
  // 5 s) for the link.
  HostileBoard(const std::string& tag, std::vector<std::string> extra) {
    namespace fs = std::filesystem;
    const auto base = fs::temp_directory_path() / ("flockscope-hostile-" + tag + "-" + std::to_string(getpid()));
    link = base.string() + "-link";
    fs::remove(link);
    std::vector<std::string> args = {FLOCKSCOPE_PYTHON3, FLOCKSCOPE_SOURCE_DIR "/tests/link/hostile_board.py", "--link", link};
    args.insert(args.end(), extra.begin(), extra.end());
    pid = spawn(args, base.string() + "-board.log");
    for (int i = 0; i < 500 && !fs::exists(fs::symlink_status(link)); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ~HostileBoard() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
  }
  HostileBoard(const HostileBoard&) = delete;
  HostileBoard& operator=(const HostileBoard&) = delete;
};

}  // namespace hostile
