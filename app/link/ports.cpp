#include "link/ports.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <system_error>

namespace flockscope::link {
namespace fs = std::filesystem;

namespace {

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::uint16_t read_hex16(const fs::path& p) {
  const std::string s = read_line(p);
  if (s.empty() || s.size() > 4) return 0;
  try {
    return static_cast<std::uint16_t>(std::stoul(s, nullptr, 16));
  } catch (...) {
    return 0;
  }
}

// sysfs: /sys/class/tty/ttyACM0/device is the USB interface; its parent is the USB device,
// which holds idVendor, idProduct and product.
void read_usb_ids(const PortRoots& roots, const std::string& tty, PortInfo& info, std::string& product_name) {
  std::error_code ec;
  const fs::path iface = fs::canonical(roots.sys / "class" / "tty" / tty / "device", ec);
  if (ec) return;
  const fs::path usb = iface.parent_path();
  info.vendor = read_hex16(usb / "idVendor");
  info.product = read_hex16(usb / "idProduct");
  product_name = read_line(usb / "product");
}

PortInfo describe(const PortRoots& roots, const std::string& path, const fs::path& device) {
  PortInfo info;
  info.path = path;
  info.device = device.string();
  const std::string tty = device.filename().string();
  std::string product;
  read_usb_ids(roots, tty, info, product);
  info.raspberry_pi = info.vendor == kRaspberryPiVendorId;
  if (info.raspberry_pi)
    info.label = (product.empty() ? std::string("Raspberry Pi board") : "Raspberry Pi " + product) + " (" + tty + ")";
  else if (!product.empty())
    info.label = product + " (" + tty + ")";
  else
    info.label = tty;
  return info;
}

}  // namespace

std::vector<PortInfo> list_ports(const PortRoots& roots) {
  std::vector<PortInfo> out;
  std::set<std::string> devices;
  std::error_code ec;
  // Stable names first: they survive re-plugging and name the board.
  const fs::path by_id = roots.dev / "serial" / "by-id";
  for (fs::directory_iterator it(by_id, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    fs::path target = fs::read_symlink(it->path(), e2);
    if (e2) continue;
    if (target.is_relative()) target = by_id / target;
    target = target.lexically_normal();
    const fs::path device = roots.dev / target.filename();
    PortInfo info = describe(roots, it->path().string(), device);
    if (info.vendor == 0 && it->path().filename().string().find("Raspberry_Pi") != std::string::npos)
      info.raspberry_pi = true;  // no sysfs (a container): the by-id name still says it
    if (info.raspberry_pi && info.label == device.filename().string())
      info.label = "Raspberry Pi board (" + info.label + ")";
    devices.insert(device.string());
    out.push_back(std::move(info));
  }
  for (fs::directory_iterator it(roots.dev, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("ttyACM", 0) != 0) continue;
    if (devices.count(it->path().string())) continue;
    out.push_back(describe(roots, it->path().string(), it->path()));
  }
  std::stable_sort(out.begin(), out.end(), [](const PortInfo& a, const PortInfo& b) {
    if (a.raspberry_pi != b.raspberry_pi) return a.raspberry_pi;
    return a.path < b.path;
  });
  return out;
}

}  // namespace flockscope::link
