#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "flockscope/plot/raster.hpp"
#include "flockscope/plot/svg.hpp"

namespace flockscope::plot {
namespace {

// Temp file + rename: a failed or interrupted write never leaves half a figure.
void write_file(const std::filesystem::path& file, const void* data, std::size_t size) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(file.string() + ": cannot write (" + std::strerror(errno) + ")");
    out.write(static_cast<const char*>(data), std::streamsize(size));
    if (!out.flush()) throw std::runtime_error(file.string() + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) throw std::runtime_error(file.string() + ": cannot write (" + ec.message() + ")");
}

void write_scene(const std::filesystem::path& stem, const Scene& scene) {
  if (stem.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(stem.parent_path(), ec);
  }
  const std::string svg = to_svg(scene);
  write_file(stem.string() + ".svg", svg.data(), svg.size());
  const auto png = encode_png(rasterise(scene));
  write_file(stem.string() + ".png", png.data(), png.size());
}

}  // namespace

void write_plot(const std::filesystem::path& stem, const LinePlot& p, Size size) { write_scene(stem, layout(p, size)); }
void write_plot(const std::filesystem::path& stem, const Heatmap& h, Size size) { write_scene(stem, layout(h, size)); }

}  // namespace flockscope::plot
