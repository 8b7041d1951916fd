// flockscope: explore, mirror and measure Boids flocks. Subcommands run headless.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "flockscope/core/run.hpp"

namespace flockscope::cli {
void add_run_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
}  // namespace flockscope::cli

int main(int argc, char** argv) {
  CLI::App app{"flockscope: explore, mirror and measure Boids flocks"};
  app.set_version_flag("--version", flockscope::version_string());
  int exit_code = 0;
  flockscope::cli::add_run_command(app, exit_code);
  flockscope::cli::add_bench_command(app, exit_code);
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // One-line reason on bad flags (CLI11's own message), non-zero exit.
    if (e.get_exit_code() != 0) {
      std::fprintf(stderr, "flockscope: %s (see --help)\n", e.what());
      return 2;
    }
    return app.exit(e);
  }
  if (app.get_subcommands().empty()) {
    std::printf("%s", app.help().c_str());
    std::printf("\nThe window is not built yet; try: flockscope run --preset cornell-pico-predator --out out/\n");
  }
  return exit_code;
}
