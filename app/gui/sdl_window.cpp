#include "sdl_window.hpp"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <filesystem>
#include <stdexcept>
#include <utility>

namespace flockscope::gui {

namespace {
// Only the subsystems are shut down, never SDL_Quit(): SDL_Quit unloads the libraries SDL
// opened at run time (D-Bus, ...), whose own leftovers then show up as leaks under ASan;
// the process exits right after anyway.
constexpr Uint32 kSdlSystems = SDL_INIT_VIDEO | SDL_INIT_TIMER;
}  // namespace

SdlWindow::SdlWindow(int width, int height, bool software, bool vsync, std::string ini_file)
    : ini_file_(std::move(ini_file)) {
  // The software renderer draws into a plain surface: without this hint SDL may back the
  // window with a GL texture (EGL, Mesa, LLVM loaded just to copy pixels).
  if (software) SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
  if (SDL_InitSubSystem(kSdlSystems) != 0) throw std::runtime_error(std::string("no display: ") + SDL_GetError());
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");
  window_ = SDL_CreateWindow("flockscope", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height,
                             SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!window_) {
    const std::string err = SDL_GetError();
    SDL_QuitSubSystem(kSdlSystems);
    throw std::runtime_error("cannot open a window: " + err);
  }
  Uint32 flags = software ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED;
  if (vsync && !software) flags |= SDL_RENDERER_PRESENTVSYNC;
  renderer_ = SDL_CreateRenderer(window_, -1, flags);
  if (!renderer_ && !software) renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
  if (!renderer_) {
    const std::string err = SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_QuitSubSystem(kSdlSystems);
    throw std::runtime_error("cannot create a renderer: " + err);
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_file_.empty() ? nullptr : ini_file_.c_str();  // never the working directory
  ImGui::StyleColorsDark();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowRounding = 0;
  st.FrameRounding = 3;
  st.GrabRounding = 3;
  st.WindowBorderSize = 0;
  st.ItemSpacing = ImVec2(7, 5);
  st.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 1.0f);
  st.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.27f, 0.38f, 1.0f);
  // DejaVu Sans (Debian's fonts-dejavu-core) reads better than the built-in bitmap font.
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) io.Fonts->AddFontFromFileTTF(font, 15.0f);
  ImGui_ImplSDL2_InitForSDLRenderer(window_);
  ImGui_ImplSDLRenderer_Init(renderer_);
}

SdlWindow::~SdlWindow() {
  ImGui_ImplSDLRenderer_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_DestroyRenderer(renderer_);
  SDL_DestroyWindow(window_);
  SDL_QuitSubSystem(kSdlSystems);
}

bool SdlWindow::process(const SDL_Event& e) {
  ImGui_ImplSDL2_ProcessEvent(&e);
  return e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE && e.window.windowID == SDL_GetWindowID(window_);
}

void SdlWindow::new_frame() {
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
}

void SdlWindow::render_ui() { ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData()); }

}  // namespace flockscope::gui
