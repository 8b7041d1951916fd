#include "flock_view.hpp"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <numbers>
#include <thread>

namespace flockscope::gui {

namespace {
constexpr ImU32 kPredator = IM_COL32(255, 70, 70, 255);
constexpr ImU32 im_colour(Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// Whether the flock perches: the ledge is the Cornell rules' and only there while it is used.
bool ledge_shown(const Params& p) { return p.perch_frames > 0 && p.rule_set() == RuleSet::Cornell; }
}  // namespace

// The density pass runs on as many threads as the local engine (all cores).
FlockView::FlockView() : threads_(int(std::max(1u, std::thread::hardware_concurrency()))) {}
FlockView::~FlockView() { release_texture(); }

void FlockView::release_texture() {
  if (texture_) SDL_DestroyTexture(texture_);
  texture_ = nullptr, texture_w_ = texture_h_ = 0;
}

void FlockView::push_centroid(double x, double y) {
  trail_.emplace_back(float(x), float(y));
  if (trail_.size() > 600) trail_.erase(trail_.begin(), trail_.begin() + 100);
}

void FlockView::fit_camera(const Params& p) {
  const double w = rect_.x1 - rect_.x0, h = rect_.y1 - rect_.y0;
  zoom_ = std::max(1e-6, std::min(w / p.width, h / p.height) * 0.96);
  cam_x_ = p.width / 2, cam_y_ = p.height / 2;
}

void FlockView::panel(const BoidSource& s, const ViewHud& hud, WidgetRects& rects, SDL_Renderer* renderer) {
  ImGui::Checkbox("fit", &fit_);
  rects.remember("view:fit");
  if (fit_) follow_ = false;
  ImGui::SameLine();
  if (ImGui::Checkbox("follow centroid", &follow_) && follow_) fit_ = false;
  ImGui::SameLine();
  ImGui::Checkbox("centroid path", &show_path_);
  ImGui::SameLine();
  ImGui::Checkbox("margins", &show_margins_);
  ImGui::SameLine();
  int colour = int(colour_);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("heading").x + ImGui::GetFrameHeight() + 12);
  ImGui::BeginDisabled(weight_ <= 0);  // greyed while the boids are triangles
  if (ImGui::Combo("colour", &colour, "count\0heading\0speed\0")) colour_ = DensityColour(colour);
  ImGui::EndDisabled();
  rects.remember("view:colour");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("What colours the density image (crowded flocks): boids a pixel alone, or their mean heading\n"
                      "(hue: direction of travel, grey: headings disagree) or mean speed, with boids a pixel as brightness");
  ImGui::SameLine();
  // The keys' hint, as much as the row has room for (at 1280 px the whole of it ran past the
  // window's edge, cutting off S and R), all of it on hover.
  static constexpr const char* kHints[] = {"   wheel: zoom   drag: pan   F: fit   space: run/pause   S: step   R: reset",
                                           "   wheel: zoom  drag: pan  F: fit  space: run  S: step  R: reset",
                                           "   F: fit  space: run  S: step  R: reset", "   keys (hover)"};
  const float room = ImGui::GetContentRegionAvail().x;
  const char* hint = kHints[std::size(kHints) - 1];
  for (const char* h : kHints)
    if (ImGui::CalcTextSize(h).x <= room) {
      hint = h;
      break;
    }
  ImGui::TextDisabled("%s", hint);
  rects.remember("view:keys");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Over the flock: wheel: zoom, drag: pan, F: fit\nspace: run/pause, S: step, R: reset");

  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 16.0f), avail.y = std::max(avail.y, 16.0f);
  ImGui::InvisibleButton("##canvas", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  rect_ = {c0.x, c0.y, c0.x + avail.x, c0.y + avail.y};
  ImGuiIO& io = ImGui::GetIO();
  const Metrics& m = s.metrics();
  const Params& p = s.params();
  if (fit_) fit_camera(p);
  if (follow_ && std::isfinite(m.centroid_x)) cam_x_ = m.centroid_x, cam_y_ = m.centroid_y;
  const float vcx = rect_.cx(), vcy = rect_.cy();
  if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
    // Zoom about the point under the cursor.
    const double wx = cam_x_ + (io.MousePos.x - vcx) / zoom_, wy = cam_y_ + (io.MousePos.y - vcy) / zoom_;
    zoom_ = std::clamp(zoom_ * std::pow(1.15, io.MouseWheel), 1e-5, 1e3);
    cam_x_ = wx - (io.MousePos.x - vcx) / zoom_, cam_y_ = wy - (io.MousePos.y - vcy) / zoom_;
    fit_ = false;
  }
  if (ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
    cam_x_ -= io.MouseDelta.x / zoom_, cam_y_ -= io.MouseDelta.y / zoom_;
    fit_ = follow_ = false;
  }
  xf_ = {float(zoom_), float(vcx - cam_x_ * zoom_), float(vcy - cam_y_ * zoom_)};
  // The density pass for this very transform, so that the image, its scale and the choice
  // between it and the triangles all belong to the frame drawn.
  const auto d0 = std::chrono::steady_clock::now();
  build_density(s, renderer);
  density_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - d0).count();

  // The density image, then the overlays (a handful of items; the triangles go to SDL in
  // render(), under all of ImGui's drawing).
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(rect_.x0, rect_.y0), ImVec2(rect_.x1, rect_.y1), true);
  if (weight_ > 0 && texture_) {
    // Opaque when it is the whole picture (the software renderer copies it as a plain
    // rectangle); faded over the triangles while the view changes between them.
    SDL_SetTextureBlendMode(texture_, weight_ >= 1 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    const float x0 = std::floor(rect_.x0), y0 = std::floor(rect_.y0);
    dl->AddImage(texture_, ImVec2(x0, y0), ImVec2(x0 + float(texture_w_), y0 + float(texture_h_)), ImVec2(0, 0), ImVec2(1, 1),
                 IM_COL32(255, 255, 255, int(std::lround(std::min(1.0, weight_) * 255))));
  }
  auto S = [&](double x, double y) { return ImVec2(xf_.ox + float(x) * xf_.scale, xf_.oy + float(y) * xf_.scale); };
  dl->AddRect(S(0, 0), S(p.width, p.height), IM_COL32(150, 160, 180, 200), 0, 0, 1.5f);
  if (show_margins_)
    dl->AddRect(S(p.leftmargin, p.topmargin), S(p.width - p.rightmargin, p.height - p.bottommargin),
                IM_COL32(110, 130, 170, 110), 0, 0, 1.0f);
  if (show_path_ && trail_.size() > 1) {
    std::vector<ImVec2> pts;
    pts.reserve(trail_.size());
    for (auto [x, y] : trail_) pts.push_back(S(x, y));
    dl->AddPolyline(pts.data(), int(pts.size()), IM_COL32(200, 150, 255, 170), 0, 1.5f);
  }
  if (std::isfinite(m.centroid_x)) {
    const ImVec2 c = S(m.centroid_x, m.centroid_y);
    dl->AddCircle(c, 6, IM_COL32(255, 255, 255, 230), 16, 2.0f);
    dl->AddLine(ImVec2(c.x - 10, c.y), ImVec2(c.x + 10, c.y), IM_COL32(255, 255, 255, 230), 1.5f);
    dl->AddLine(ImVec2(c.x, c.y - 10), ImVec2(c.x, c.y + 10), IM_COL32(255, 255, 255, 230), 1.5f);
  }
  if (ledge_shown(p)) dl->AddLine(S(p.perch_x0, p.perch_y), S(p.perch_x1, p.perch_y), im_colour(kLedgeColour), 3.0f);
  // Food sources: a disc of a fixed size on screen, and faintly the range boids smell it from.
  for (const FoodSource& f : s.food()) {
    const ImVec2 c = S(f.x, f.y);
    if (p.food_range > 0) dl->AddCircle(c, float(p.food_range) * xf_.scale, IM_COL32(kFoodColour.r, kFoodColour.g, kFoodColour.b, 50), 48);
    dl->AddCircleFilled(c, 6.0f, im_colour(kFoodColour), 20);
    dl->AddCircle(c, 6.5f, IM_COL32(40, 30, 0, 220), 20, 1.5f);
  }
  // A hunting predator's aim (the centre it steers to, the boid it chases): a thin line there.
  const auto aims = s.predator_aims();
  for (std::size_t q = 0; q < aims.size() && q < s.predators().size(); ++q) {
    if (!aims[q].active) continue;
    const Predator& pr = s.predators()[q];
    const ImVec2 a = S(aims[q].x, aims[q].y);
    dl->AddLine(S(pr.x, pr.y), a, im_colour(kAimColour), 1.0f);
    dl->AddCircle(a, 4.0f, im_colour(kAimColour), 12, 1.0f);
  }
  for (const Predator& pr : s.predators()) {
    // Predators: larger red triangles along their velocity.
    const float l = std::hypot(pr.vx, pr.vy);
    const float hx = l > 0 ? pr.vx / l : 1, hy = l > 0 ? pr.vy / l : 0;
    const ImVec2 c = S(pr.x, pr.y);
    const float sz = 14;
    dl->AddTriangleFilled(ImVec2(c.x + hx * sz, c.y + hy * sz), ImVec2(c.x - hx * sz * 0.6f - hy * sz * 0.55f, c.y - hy * sz * 0.6f + hx * sz * 0.55f),
                          ImVec2(c.x - hx * sz * 0.6f + hy * sz * 0.55f, c.y - hy * sz * 0.6f - hx * sz * 0.55f), kPredator);
    if (p.predatorRange > 0) dl->AddCircle(c, float(p.predatorRange) * xf_.scale, IM_COL32(255, 70, 70, 60), 48);
  }
  // The lab's VGA read-out: boid count, frame rate, step and simulation time t (the plots'
  // time: steps x dt), then the wall-clock time since the window opened, named as such.
  char text[200];
  std::snprintf(text, sizeof text, "boids %zu   fps %.0f   step %" PRIu64 "   t %.4g   |   wall clock %.0f s", s.boids().n, hud.fps,
                s.step(), std::isnan(hud.plot_time) ? s.time() : hud.plot_time, hud.elapsed_s);
  readout_ = text;
  const float fh = ImGui::GetFontSize();
  dl->AddRectFilled(ImVec2(rect_.x0 + 6, rect_.y0 + 6), ImVec2(rect_.x0 + 14 + ImGui::CalcTextSize(text).x, rect_.y0 + 10 + fh),
                    IM_COL32(0, 0, 0, 150), 3);
  dl->AddText(ImVec2(rect_.x0 + 10, rect_.y0 + 8), IM_COL32(230, 235, 240, 255), text);
  if (hud.recording) {  // where the eyes are, not only in the panel
    std::snprintf(text, sizeof text, "REC  %" PRIu64 " frames", hud.recorded_frames);
    const float w = ImGui::CalcTextSize(text).x + fh + 16;
    const WidgetRect badge{rect_.x1 - 6 - w, rect_.y0 + 6, rect_.x1 - 6, rect_.y0 + 10 + fh};
    dl->AddRectFilled(ImVec2(badge.x0, badge.y0), ImVec2(badge.x1, badge.y1), IM_COL32(90, 10, 10, 210), 3);
    dl->AddCircleFilled(ImVec2(badge.x0 + 4 + fh / 2, badge.cy()), fh * 0.35f, IM_COL32(255, 50, 50, 255));
    dl->AddText(ImVec2(badge.x0 + 8 + fh, badge.y0 + 2), IM_COL32(255, 220, 220, 255), text);
    rects.remember("view:rec", badge);
  }
  // Legend: what the colours mean, for the kinds on screen.
  const BoidPalette pal;
  enum class Mark { Boid, Predator, Food, Ledge, Gravity };
  struct Entry {
    Rgba c;
    const char* what;
    Mark mark;
  };
  Entry entries[7];
  char gravity_text[64];
  int n = 0;
  entries[n++] = {pal.plain, weight_ >= 1 ? "boids: drawn as density (scale right)" : "boid", Mark::Boid};
  if (p.scouts1 > 0) entries[n++] = {pal.scout_right, "scout group 1 (biased right)", Mark::Boid};
  if (p.scouts2 > 0) entries[n++] = {pal.scout_left, "scout group 2 (biased left)", Mark::Boid};
  if (!s.predators().empty())
    entries[n++] = {{255, 70, 70, 255},
                    s.predator_aims().empty() || p.hunt() == PredatorMode::Random ? "predator (circle: predatorRange)"
                                                                      : "predator (circle: predatorRange, line: aim)",
                    Mark::Predator};
  if (!s.food().empty()) entries[n++] = {kFoodColour, "food source (circle: food_range)", Mark::Food};
  if (ledge_shown(p)) entries[n++] = {kLedgeColour, "ledge (perching)", Mark::Ledge};
  if (p.gravity != 0) {  // which way it pulls and how hard (+y is down, as the screen)
    std::snprintf(gravity_text, sizeof gravity_text, "gravity %.3g px/frame^2", p.gravity);
    entries[n++] = {kGravityColour, gravity_text, Mark::Gravity};
  }
  if (n > 1) {
    float w = 0;
    for (int i = 0; i < n; ++i) w = std::max(w, ImGui::CalcTextSize(entries[i].what).x);
    const float row = fh + 4, x0 = rect_.x0 + 6, y0 = rect_.y1 - 6 - float(n) * row - 4;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + w + fh + 18, rect_.y1 - 6), IM_COL32(0, 0, 0, 150), 3);
    for (int i = 0; i < n; ++i) {
      const Entry& e = entries[i];
      const float y = y0 + 4 + float(i) * row, cy = y + fh / 2, cx = x0 + 6 + fh / 2, r = e.mark == Mark::Predator ? fh * 0.45f : fh * 0.3f;
      const ImU32 c = IM_COL32(e.c.r, e.c.g, e.c.b, 255);
      if (e.mark == Mark::Food)
        dl->AddCircleFilled(ImVec2(cx, cy), fh * 0.3f, c, 12);
      else if (e.mark == Mark::Ledge)
        dl->AddLine(ImVec2(cx - fh * 0.45f, cy), ImVec2(cx + fh * 0.45f, cy), c, 3.0f);
      else if (e.mark == Mark::Gravity) {  // an arrow along +y (down) or -y
        const float d = p.gravity > 0 ? 1.0f : -1.0f, h = fh * 0.45f;
        dl->AddLine(ImVec2(cx, cy - d * h), ImVec2(cx, cy + d * h * 0.2f), c, 2.0f);
        dl->AddTriangleFilled(ImVec2(cx, cy + d * h), ImVec2(cx - h * 0.6f, cy + d * h * 0.1f),
                              ImVec2(cx + h * 0.6f, cy + d * h * 0.1f), c);
      }
      else
        dl->AddTriangleFilled(ImVec2(cx + r, cy), ImVec2(cx - r * 0.7f, cy - r * 0.7f), ImVec2(cx - r * 0.7f, cy + r * 0.7f), c);
      dl->AddText(ImVec2(x0 + 12 + fh, y), IM_COL32(220, 225, 235, 255), entries[i].what);
    }
    rects.remember("view:legend", {x0, y0, x0 + w + fh + 18, rect_.y1 - 6});
  }
  density_legend(p, rects);
  if (!hud.stale.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(hud.stale.c_str());
    const ImVec2 c((rect_.x0 + rect_.x1) / 2, (rect_.y0 + rect_.y1) / 2);
    dl->AddRectFilled(ImVec2(rect_.x0, rect_.y0), ImVec2(rect_.x1, rect_.y1), IM_COL32(10, 10, 14, 120));
    dl->AddRectFilled(ImVec2(c.x - ts.x / 2 - 14, c.y - ts.y / 2 - 10), ImVec2(c.x + ts.x / 2 + 14, c.y + ts.y / 2 + 10),
                      IM_COL32(90, 30, 25, 230), 6);
    dl->AddText(ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), IM_COL32(255, 225, 210, 255), hud.stale.c_str());
    rects.remember("view:stale", {c.x - ts.x / 2 - 14, c.y - ts.y / 2 - 10, c.x + ts.x / 2 + 14, c.y + ts.y / 2 + 10});
  }
  dl->PopClipRect();
}

// The density scale, bottom right: what a shade means and where the picture switches
// between triangles and density.
void FlockView::density_legend(const Params& p, WidgetRects& rects) {
  if (!counted_) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float fh = ImGui::GetFontSize(), row = fh + 4, bar_w = 240, bar_h = fh * 0.8f;
  char crowd[96], where[96];
  std::snprintf(crowd, sizeof crowd, "%zu boids on screen, %.2f a pixel where boids are", density_.on_screen(), density_.crowding());
  std::snprintf(where, sizeof where, "drawn as %s: triangles below %.2f, density from %.2f",
                weight_ >= 1 ? "density" : weight_ > 0 ? "both (fading)" : "triangles", switch_.fade_from, switch_.full_at);
  const char* title = colour_ == DensityColour::Heading ? "hue: mean heading, brightness: boids/pixel (log)"
                      : colour_ == DensityColour::Speed ? "colour: mean speed, brightness: boids/pixel (log)"
                                                        : "density: boids per pixel (log scale)";
  const bool image = weight_ > 0;
  float w = std::max(ImGui::CalcTextSize(crowd).x, ImGui::CalcTextSize(where).x);
  if (image) w = std::max({w, ImGui::CalcTextSize(title).x, bar_w});
  const float h = image ? 4 * row + bar_h + 4 : 2 * row + 4;
  const WidgetRect box{rect_.x1 - 6 - w - 16, rect_.y1 - 6 - h, rect_.x1 - 6, rect_.y1 - 6};
  dl->AddRectFilled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), IM_COL32(0, 0, 0, 170), 3);
  const float x0 = box.x0 + 8;
  float y = box.y0 + 4;
  const ImU32 text = IM_COL32(220, 225, 235, 255);
  if (image) {
    dl->AddText(ImVec2(x0, y), text, title);
    y += row;
    // The bar: 48 steps of the scale, then labels under it at their places.
    const int steps = 48;
    for (int k = 0; k < steps; ++k) {
      const float f = (float(k) + 0.5f) / steps;
      const Rgba c = colour_ == DensityColour::Heading ? heading_colour(-std::numbers::pi_v<float> + 2 * std::numbers::pi_v<float> * f, 1, 1)
                     : colour_ == DensityColour::Speed ? speed_colour(f, 1)
                                                       : count_colour(f);
      dl->AddRectFilled(ImVec2(x0 + bar_w * float(k) / steps, y), ImVec2(x0 + bar_w * float(k + 1) / steps + 0.5f, y + bar_h), im_colour(c));
    }
    auto label = [&](float f, const char* s) {
      const float tw = ImGui::CalcTextSize(s).x, x = std::clamp(x0 + bar_w * f - tw / 2, x0, x0 + bar_w - tw);
      dl->AddLine(ImVec2(x0 + bar_w * f, y + bar_h), ImVec2(x0 + bar_w * f, y + bar_h + 3), text);
      dl->AddText(ImVec2(x, y + bar_h + 3), text, s);
    };
    char s[32];
    if (colour_ == DensityColour::Heading) {  // screen directions: +y is down
      label(0.0f, "left"), label(0.25f, "up"), label(0.5f, "right"), label(0.75f, "down"), label(1.0f, "left");
    } else if (colour_ == DensityColour::Speed) {
      std::snprintf(s, sizeof s, "%.3g", style_.speed_lo);
      label(0, s);
      std::snprintf(s, sizeof s, "%.3g %s", style_.speed_hi, p.rule_set() == RuleSet::Report ? "px/time" : "px/frame");
      label(1, s);
    } else {
      const std::uint32_t mx = std::max<std::uint32_t>(1, density_.max_count());
      // Powers of ten up to the largest count (each clear of the largest's label), and the
      // largest count itself.
      std::snprintf(s, sizeof s, "%u", mx);
      const float room = (ImGui::CalcTextSize(s).x + fh) / bar_w;
      label(1, s);
      for (std::uint32_t c = 1; c < mx; c *= 10) {
        std::snprintf(s, sizeof s, "%u", c);
        if (density_.shade(c) < 1 - room) label(density_.shade(c), s);
        if (c > 100000000) break;
      }
    }
    y += bar_h + row + 2;
  }
  dl->AddText(ImVec2(x0, y), text, crowd);
  dl->AddText(ImVec2(x0, y + row), weight_ > 0 && weight_ < 1 ? IM_COL32(255, 220, 150, 255) : text, where);
  rects.remember("view:density", box);
}

void FlockView::build_density(const BoidSource& s, SDL_Renderer* r) {
  const PointsView b = s.boids();
  weight_ = 0;
  counted_ = b.n >= switch_.min_boids;
  if (!counted_) return;
  const int x0 = int(std::floor(rect_.x0)), y0 = int(std::floor(rect_.y0));
  const PixelRect px{x0, y0, int(std::ceil(rect_.x1)) - x0, int(std::ceil(rect_.y1)) - y0};
  // Below 250,000 boids one thread counts them in well under a millisecond, less than waking
  // the engine's other threads can cost on a busy machine, and the pixels cost more than the
  // boids: the pass first fits its rectangle to the boids' bounding box. Above, that extra
  // pass over the positions costs about what it saves (a million boids filling the world).
  const bool many = b.n >= 250000;
  density_.accumulate(b, xf_, px, colour_, many ? threads_ : 1, !many);
  weight_ = switch_.weight(density_.crowding());
  if (weight_ <= 0) return;
  if (!texture_ || texture_w_ != px.w || texture_h_ != px.h) {
    release_texture();
    // The window's own format where it is RGB888 (the software renderer's): the copy is then
    // a plain copy of rows, no conversion.
    SDL_Window* win = SDL_RenderGetWindow(r);
    const Uint32 format = win && SDL_GetWindowPixelFormat(win) == SDL_PIXELFORMAT_RGB888 ? SDL_PIXELFORMAT_RGB888 : SDL_PIXELFORMAT_ARGB8888;
    texture_ = SDL_CreateTexture(r, format, SDL_TEXTUREACCESS_STREAMING, px.w, px.h);
    if (!texture_) return void(weight_ = 0);  // triangles then: slower, never nothing
    texture_w_ = px.w, texture_h_ = px.h;
  }
  const Params& p = s.params();
  style_.world_x0 = xf_.ox, style_.world_y0 = xf_.oy;
  style_.world_x1 = xf_.ox + float(p.width) * xf_.scale, style_.world_y1 = xf_.oy + float(p.height) * xf_.scale;
  // The speeds a flock keeps to: Cornell and blog rules between minspeed and maxspeed, the
  // report's up to V_max.
  const bool report = p.rule_set() == RuleSet::Report;
  style_.speed_hi = float(report ? p.V_max : p.maxspeed);
  style_.speed_lo = report || !(p.minspeed < p.maxspeed) ? 0.0f : float(p.minspeed);
  void* pixels = nullptr;
  int pitch = 0;
  if (SDL_LockTexture(texture_, nullptr, &pixels, &pitch) != 0) return void(weight_ = 0);
  density_.tone_map(pixels, pitch, style_, &px);  // counted over the boids' part of it
  SDL_UnlockTexture(texture_);
}

void FlockView::build_geometry(const BoidSource& s) {
  if (weight_ >= 1) {  // the density image covers the view: no triangles to build
    boids_ = 0;
    return;
  }
  const PointsView b = s.boids();
  const float size_px = std::clamp(float(3.2 * std::sqrt(zoom_)) + 2.0f, 3.5f, 16.0f);
  build_boid_triangles(b, xf_, size_px, xy_);
  const Params& p = s.params();
  if (const std::uint8_t* g = s.groups())
    build_group_colours(g, b.n, BoidPalette{}, colours_);
  else
    build_boid_colours(s.ids(), b.n, p.scouts1, p.scouts2, BoidPalette{}, colours_);
  boids_ = b.n;
}

void FlockView::render(SDL_Renderer* r, const Params& p) const {
  const SDL_Rect clip{int(rect_.x0), int(rect_.y0), int(rect_.x1 - rect_.x0), int(rect_.y1 - rect_.y0)};
  SDL_RenderSetClipRect(r, &clip);
  if (weight_ < 1) {  // else the density image paints the whole canvas
    SDL_SetRenderDrawColor(r, style_.world.r, style_.world.g, style_.world.b, 255);
    const SDL_FRect world{xf_.ox, xf_.oy, float(p.width) * xf_.scale, float(p.height) * xf_.scale};
    SDL_RenderFillRectF(r, &world);
  }
  if (boids_ > 0)
    SDL_RenderGeometryRaw(r, nullptr, xy_.data(), 2 * sizeof(float), reinterpret_cast<const SDL_Color*>(colours_.data()),
                          sizeof(SDL_Color), nullptr, 0, int(3 * boids_), nullptr, 0, 0);
  SDL_RenderSetClipRect(r, nullptr);
}

}  // namespace flockscope::gui
