// The window's command line: `flockscope` with no subcommand opens the window;
// `--frames N --screenshot FILE.png` draws N frames headless (SDL_VIDEODRIVER=offscreen or
// Xvfb), saves the whole window and exits.
#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "gui_app.hpp"

namespace flockscope::cli {

struct GuiArgs {
  gui::GuiOptions opt;
  int frames = 0;
  std::string screenshot;
  std::string size;
  bool accelerated = false;
  std::string explore_out;
};

std::shared_ptr<GuiArgs> add_gui_options(CLI::App& app) {
  auto a = std::make_shared<GuiArgs>();
  app.add_option("--preset", a->opt.preset, "Window: preset the local flock starts from")->capture_default_str();
  app.add_option("--set", a->opt.sets, "Window: override a parameter, key=value (repeatable)");
  app.add_option("--replay", a->opt.replay, "Window: replay this recording (.flkrec) instead of a local flock");
  app.add_option("--port", a->opt.port, "Window: mirror the board on this serial port (/dev/ttyACM0, a by-id link, the virtual board's --link)");
  app.add_option("--frames", a->frames, "Window: draw this many frames, then exit")->check(CLI::Range(1, 100000000));
  app.add_option("--screenshot", a->screenshot, "Window: save the last frame as this PNG (with --frames)");
  app.add_option("--size", a->size, "Window size WxH (default 1440x900)");
  app.add_option("--colour", a->opt.density_colour,
                 "Window: what colours the density image of a crowded flock: count, heading (hue by direction of travel) or speed")
      ->transform(CLI::CheckedTransformer(std::map<std::string, gui::DensityColour>{{"count", gui::DensityColour::Count},
                                                                                   {"heading", gui::DensityColour::Heading},
                                                                                   {"speed", gui::DensityColour::Speed}}));
  app.add_flag("--software", a->opt.software, "Window: use SDL's software renderer");
  app.add_flag("--accelerated", a->accelerated, "Window: with --frames, draw with the GPU renderer (e.g. under Xvfb)");
  app.add_option("--explore-grid", a->opt.explore_grid,
                 "Window: draw an Explore map of this swept key, key=a:b:step or key=v1,v2,... as sweep's --grid "
                 "(once or twice), then write --explore-out and exit");
  app.add_option("--reps", a->opt.explore_reps, "Window: Explore map repeats per cell")->capture_default_str()->check(CLI::Range(1, 1000000));
  app.add_option("--steps", a->opt.explore_steps, "Window: Explore map steps per run")->capture_default_str()->check(CLI::Range(0, 100000000));
  app.add_option("--explore-out", a->explore_out, "Window: folder for the Explore map's runs.csv, map.png and map.svg");
  app.add_option("--explore-measure", a->opt.explore_measure,
                 "Window: the Explore map's measure (final_diameter, mean_diameter, mean_polarisation, final_clusters, formed, formed_time; "
                 "with scout groups mean_share_right, final_share_right)")
      ->capture_default_str();
  return a;
}

int run_gui_command(GuiArgs& a) {
  if (!a.size.empty() && std::sscanf(a.size.c_str(), "%dx%d", &a.opt.width, &a.opt.height) != 2) {
    std::fprintf(stderr, "flockscope: --size %s: expected WxH, e.g. 1280x800\n", a.size.c_str());
    return 2;
  }
  if (a.opt.explore_grid.empty() != a.explore_out.empty()) {
    std::fprintf(stderr, "flockscope: --explore-grid and --explore-out go together\n");
    return 2;
  }
  a.opt.explore_out = a.explore_out;
  if (!a.screenshot.empty() && a.frames == 0 && a.opt.explore_grid.empty()) a.frames = 1;
  if (a.frames > 0 || !a.opt.explore_grid.empty()) {
    // Headless drawing: reproducible (no imgui.ini), software renderer unless asked, no vsync.
    a.opt.software = !a.accelerated;
    a.opt.use_ini = false;
    a.opt.vsync = false;
  }
  return gui::run_gui(a.opt, a.frames, a.screenshot);
}

}  // namespace flockscope::cli
