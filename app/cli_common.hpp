// What the command-line modes share: resolving --preset/--set into parameters, and the
// one-line error exit.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "flockscope/core/params.hpp"

namespace flockscope::cli {

// Loads the preset (name or file) and applies key=value overrides in order.
// Throws InputError with a one-line reason.
Params resolve_params(const std::string& preset, const std::vector<std::string>& sets);

// Exit statuses: 0 done, 1 the command's own failure (documented per command), 2 bad
// arguments or input files, 3 a failure while running (an output that cannot be written,
// out of memory).
inline constexpr int kExitBadInput = 2, kExitRuntime = 3;

// Prints "flockscope COMMAND: reason" for a caught exception and returns its exit status.
// An allocation failure says so in words (not as the library's "cannot create std::vector
// larger than max_size()").
int report_error(const char* command, const std::exception& e);

// A progress line on stderr, redrawn in place at most twice a second: "NAME: step 120/1000
// (12 %), 3.4 steps/s, 4:18 left". Only when stderr is a terminal (enabled()); pipes and
// logs get nothing.
class ProgressLine {
 public:
  ProgressLine(std::string name, std::uint64_t total);
  bool enabled() const { return enabled_; }
  void update(std::uint64_t done);
  void finish();  // ends the line, if one was drawn

 private:
  std::string name_;
  std::uint64_t total_;
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace flockscope::cli
