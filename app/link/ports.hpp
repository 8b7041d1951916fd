// The serial ports a board may be on: /dev/serial/by-id (stable names that survive
// re-plugging) and /dev/ttyACM* (USB CDC devices), with a Raspberry Pi board (USB vendor
// 0x2E8A, the Pico's) recognised from sysfs and named.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace flockscope::link {

inline constexpr std::uint16_t kRaspberryPiVendorId = 0x2E8A;

struct PortInfo {
  std::string path;      // what to open: the by-id link when there is one
  std::string device;    // the tty it leads to, e.g. /dev/ttyACM0
  std::string label;     // for the port picker: "Raspberry Pi Pico (ttyACM0)"
  std::uint16_t vendor = 0, product = 0;  // 0 when sysfs does not say
  bool raspberry_pi = false;
};

// Where to look: the real /dev and /sys, or a tree a test made.
struct PortRoots {
  std::filesystem::path dev = "/dev";
  std::filesystem::path sys = "/sys";
};

// Raspberry Pi boards first, then by path. Never throws: an unreadable folder is skipped.
std::vector<PortInfo> list_ports(const PortRoots& roots = {});

}  // namespace flockscope::link
