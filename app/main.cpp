// flockscope: explore, mirror and measure Boids flocks. Subcommands run headless.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "flockscope/core/text.hpp"

#include "flockscope/core/run.hpp"
#include "flockscope/experiments/mpi.hpp"

namespace flockscope::cli {
void add_run_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_board_command(CLI::App& app, int& exit_code);
void add_mirror_command(CLI::App& app, int& exit_code);
void add_sweep_command(CLI::App& app, int& exit_code);
void add_sweep_merge_command(CLI::App& app, int& exit_code);
void add_consensus_command(CLI::App& app, int& exit_code);
void add_plot_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_params_command(CLI::App& app, int& exit_code);
struct GuiArgs;
std::shared_ptr<GuiArgs> add_gui_options(CLI::App& app);
int run_gui_command(GuiArgs& args);
}  // namespace flockscope::cli

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

int run_command_line(int argc, char** argv) {
  CLI::App app{"flockscope: explore, mirror and measure Boids flocks"};
  app.set_version_flag("--version", flockscope::version_string());
  int exit_code = 0;
  flockscope::cli::add_run_command(app, exit_code);
  flockscope::cli::add_bench_command(app, exit_code);
  flockscope::cli::add_board_command(app, exit_code);
  flockscope::cli::add_mirror_command(app, exit_code);
  flockscope::cli::add_sweep_command(app, exit_code);
  flockscope::cli::add_sweep_merge_command(app, exit_code);
  flockscope::cli::add_consensus_command(app, exit_code);
  flockscope::cli::add_plot_command(app, exit_code);
  flockscope::cli::add_replay_command(app, exit_code);
  flockscope::cli::add_params_command(app, exit_code);
  auto gui_args = flockscope::cli::add_gui_options(app);  // no subcommand: the window
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // One-line reason on bad flags (CLI11's own message), non-zero exit.
    if (e.get_exit_code() != 0) {
      // A word where a subcommand goes that is none (`flockscope runn`): name the nearest.
      std::vector<std::string> names;
      const CLI::App& commands = app;
      for (const CLI::App* sub : commands.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
      if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
        const auto best = flockscope::nearest_name(argv[1], names);
        std::fprintf(stderr, "flockscope: unknown command '%s' (%scommands: %s; see --help)\n", argv[1],
                     best.empty() ? "" : ("did you mean " + std::string(best) + "? ").c_str(), join(names).c_str());
        return 2;
      }
      std::fprintf(stderr, "flockscope: %s (see --help)\n", e.what());
      return 2;
    }
    return app.exit(e);
  }
  if (app.get_subcommands().empty()) return flockscope::cli::run_gui_command(*gui_args);
  return exit_code;
}

}  // namespace

// Under mpirun / srun, ranks other than 0 serve rank 0's sweep and never read the command
// line (so a bad flag is reported once, by rank 0).
int main(int argc, char** argv) {
  if (const auto worker_exit = flockscope::experiments::mpi::enter(argc, argv)) return *worker_exit;
  return flockscope::experiments::mpi::leave(run_command_line(argc, argv));
}
