// Port listing on a /dev + /sys tree made here, laid out as Linux lays out a Pico
// (/dev/serial/by-id link, sysfs interface -> USB device with idVendor 2e8a).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "link/ports.hpp"

namespace fs = std::filesystem;
using flockscope::link::list_ports;
using flockscope::link::PortRoots;

namespace {
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

struct FakeTree {
  fs::path root = fs::temp_directory_path() / ("flockscope-ports-" + std::to_string(::getpid()));
  PortRoots roots{root / "dev", root / "sys"};
  FakeTree() {
    fs::remove_all(root);
    fs::create_directories(roots.dev / "serial" / "by-id");
  }
  ~FakeTree() { fs::remove_all(root); }
  // A USB CDC device ttyACM<n> of the given vendor, with or without a by-id link.
  void add_acm(int n, const std::string& vendor, const std::string& product, const std::string& by_id) {
    const std::string tty = "ttyACM" + std::to_string(n);
    write(roots.dev / tty, "");
    const fs::path usb = roots.sys / "devices" / "usb1" / ("1-" + std::to_string(n));
    write(usb / "idVendor", vendor + "\n");
    write(usb / "idProduct", "000a\n");
    write(usb / "product", product + "\n");
    fs::create_directories(usb / ("1-" + std::to_string(n) + ":1.0"));
    fs::create_directories(roots.sys / "class" / "tty" / tty);
    fs::create_directory_symlink(usb / ("1-" + std::to_string(n) + ":1.0"), roots.sys / "class" / "tty" / tty / "device");
    if (!by_id.empty()) fs::create_symlink("../../" + tty, roots.dev / "serial" / "by-id" / by_id);
  }
};
}  // namespace

TEST(Ports, PicoRecognisedByVendorAndListedFirstByItsStableName) {
  FakeTree t;
  t.add_acm(0, "2341", "Arduino Uno", "");
  t.add_acm(1, "2e8a", "Pico", "usb-Raspberry_Pi_Pico_E66164084319392A-if00");
  write(t.roots.dev / "ttyS0", "");  // not a CDC device: never listed
  const auto ports = list_ports(t.roots);
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_TRUE(ports[0].raspberry_pi);
  EXPECT_EQ(ports[0].vendor, 0x2E8A);
  EXPECT_EQ(ports[0].path, (t.roots.dev / "serial/by-id/usb-Raspberry_Pi_Pico_E66164084319392A-if00").string());
  EXPECT_EQ(ports[0].device, (t.roots.dev / "ttyACM1").string());
  EXPECT_EQ(ports[0].label, "Raspberry Pi Pico (ttyACM1)");
  EXPECT_FALSE(ports[1].raspberry_pi);
  EXPECT_EQ(ports[1].path, (t.roots.dev / "ttyACM0").string());
  EXPECT_EQ(ports[1].label, "Arduino Uno (ttyACM0)");
}

TEST(Ports, NoSysfsStillNamesAPicoFromItsByIdName) {
  FakeTree t;
  write(t.roots.dev / "ttyACM3", "");
  fs::create_symlink("../../ttyACM3", t.roots.dev / "serial" / "by-id" / "usb-Raspberry_Pi_Pico_X-if00");
  const auto ports = list_ports(t.roots);
  ASSERT_EQ(ports.size(), 1u);
  EXPECT_TRUE(ports[0].raspberry_pi);
  EXPECT_EQ(ports[0].label, "Raspberry Pi board (ttyACM3)");
}

TEST(Ports, MissingFoldersGiveAnEmptyList) {
  EXPECT_TRUE(list_ports(PortRoots{"/nonexistent/dev", "/nonexistent/sys"}).empty());
}
