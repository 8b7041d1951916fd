// A test program's own scratch folder below the temporary folder (two build trees may run
// their tests at once), removed when the program ends.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace testsupport {

// flockscope_test_NAME_PID in the temporary folder.
inline std::filesystem::path scratch_root(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("flockscope_test_" + name + "_" + std::to_string(getpid()));
}

// Removes `dir` once every test has run: ::testing::AddGlobalTestEnvironment(new RemoveAtExit(dir)).
class RemoveAtExit : public ::testing::Environment {
 public:
  explicit RemoveAtExit(std::filesystem::path dir) : dir_(std::move(dir)) {}
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace testsupport
