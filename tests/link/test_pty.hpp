// A pseudo-terminal of the test's own, for tests that play the board's side of the line
// byte by byte (a board of another version, one that reports values out of range).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <string>
#include <termios.h>
#include <unistd.h>

namespace linktest {

// A pseudo-terminal of the test's own: the app opens `link` (its slave), the test holds
// the master and plays the board's side of the line.
struct TestPty {
  int master = -1;
  std::string link;
  explicit TestPty(const std::string& tag)
      : link((std::filesystem::temp_directory_path() / ("flockscope-" + tag + "-" + std::to_string(getpid()))).string()) {
    master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return;
    const std::string slave = ptsname(master);
    const int s = ::open(slave.c_str(), O_RDWR | O_NOCTTY);
    termios t{};
    if (s >= 0 && tcgetattr(s, &t) == 0) {
      cfmakeraw(&t);
      tcsetattr(s, TCSANOW, &t);
    }
    if (s >= 0) ::close(s);
    std::filesystem::remove(link);
    std::filesystem::create_symlink(slave, link);
  }
  ~TestPty() {
    std::filesystem::remove(link);
    if (master >= 0) ::close(master);
  }
  void write_all(const std::uint8_t* p, std::size_t n) {
    for (std::size_t off = 0; off < n;) {
      const ssize_t w = ::write(master, p + off, n - off);
      if (w > 0) {
        off += std::size_t(w);
        continue;
      }
      pollfd pf{master, POLLOUT, 0};
      if (::poll(&pf, 1, 100) <= 0) return;  // the app is not reading: drop the rest
    }
  }
};

}  // namespace linktest
