#include "cli_common.hpp"

#include <unistd.h>

#include <cstdio>
#include <new>
#include <stdexcept>

#include "flockscope/core/io.hpp"

namespace flockscope::cli {

Params resolve_params(const std::string& preset, const std::vector<std::string>& sets) {
  Params p = preset.empty() ? Params{} : load_preset(resolve_preset(preset));
  for (const auto& s : sets)
    if (auto err = apply_assignment(p, s)) throw InputError("--set " + s + ": " + *err);
  return p;
}

int report_error(const char* command, const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) || dynamic_cast<const std::length_error*>(&e)) {
    std::fprintf(stderr, "flockscope %s: not enough memory for this (fewer boids or steps will fit)\n", command);
    return kExitRuntime;
  }
  std::fprintf(stderr, "flockscope %s: %s\n", command, e.what());
  return dynamic_cast<const OutputError*>(&e) ? kExitRuntime : kExitBadInput;
}

ProgressLine::ProgressLine(std::string name, std::uint64_t total)
    : name_(std::move(name)), total_(total), enabled_(isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressLine::update(std::uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (!enabled_ || (now - last_ < std::chrono::milliseconds(500) && done < total_)) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? double(done) / secs : 0;
  const long long left = rate > 0 ? (long long)(double(total_ - done) / rate + 0.5) : -1;
  char eta[32] = "--:--";
  if (left >= 0) std::snprintf(eta, sizeof eta, "%lld:%02lld", left / 60, left % 60);
  std::fprintf(stderr, "\r%s: step %llu/%llu (%.0f %%), %.1f steps/s, %s left  ", name_.c_str(),
               (unsigned long long)done, (unsigned long long)total_, total_ ? 100.0 * double(done) / double(total_) : 100.0,
               rate, eta);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace flockscope::cli
