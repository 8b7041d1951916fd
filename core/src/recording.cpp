// Sections: little-endian bytes | writer | reader. The layout is documented in recording.hpp.
#include "flockscope/core/recording.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <span>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#include "flockscope/protocol/crc32.hpp"

namespace flockscope {

namespace {
constexpr char kMagic[8] = {'F', 'L', 'K', 'R', 'E', 'C', '\r', '\n'};
constexpr std::uint8_t kFrame = 1, kParams = 2, kExtras = 3;

// ---------------------------------------------------------------- little-endian bytes
struct Out {
  std::vector<std::uint8_t>& b;
  void u8(std::uint8_t v) { b.push_back(v); }
  void u16(std::uint16_t v) { u8(std::uint8_t(v)), u8(std::uint8_t(v >> 8)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(std::uint8_t(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) u8(std::uint8_t(v >> (8 * i)));
  }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
};

struct In {
  const std::uint8_t* p;
  const std::uint8_t* end;
  bool ok = true;
  std::uint64_t raw(int n) {
    if (end - p < n) {
      ok = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(p[i]) << (8 * i);
    p += n;
    return v;
  }
  std::uint8_t u8() { return std::uint8_t(raw(1)); }
  std::uint16_t u16() { return std::uint16_t(raw(2)); }
  std::uint32_t u32() { return std::uint32_t(raw(4)); }
  std::uint64_t u64() { return raw(8); }
  float f32() { return std::bit_cast<float>(u32()); }
  double f64() { return std::bit_cast<double>(u64()); }
};

void put_metrics(Out& o, const Metrics& m) {
  for (double v : {m.diameter, m.centroid_x, m.centroid_y, m.polarisation, m.mean_speed, m.mean_nn_distance,
                   double(m.clusters), m.share_right, m.share_left})
    o.f64(v);
}

Metrics get_metrics(In& in) {
  Metrics m;
  m.diameter = in.f64(), m.centroid_x = in.f64(), m.centroid_y = in.f64();
  m.polarisation = in.f64(), m.mean_speed = in.f64(), m.mean_nn_distance = in.f64();
  const double clusters = in.f64();  // written from an int: anything else is damage (-1)
  m.clusters = clusters >= 0 && clusters <= 2147483647.0 && clusters == std::floor(clusters) ? int(clusters) : -1;
  m.share_right = in.f64(), m.share_left = in.f64();
  return m;
}

// The extensions' metrics, counted, so that a later writer may append more and a reader
// take the ones it knows; then the food sources.
constexpr std::uint32_t kExtraMetrics = 5;

void put_extras(Out& o, const Metrics& m, std::span<const FoodSource> food) {
  o.u32(kExtraMetrics);
  for (double v : {double(m.perched), m.speed_down, m.speed_up, m.food_distance, m.predator_distance}) o.f64(v);
  o.u32(std::uint32_t(food.size()));
  for (const auto& f : food) o.f32(f.x), o.f32(f.y), o.f32(f.vx), o.f32(f.vy);
}

// Reads the metrics into m and leaves `in` at the food count; false when they do not fit.
bool get_extras(In& in, Metrics& m) {
  const std::uint64_t count = in.u32();
  if (!in.ok || count * 8 > std::uint64_t(in.end - in.p)) return false;
  double v[kExtraMetrics] = {};
  for (std::uint64_t k = 0; k < count; ++k) {
    const double x = in.f64();
    if (k < kExtraMetrics) v[k] = x;  // the rest: a later writer's
  }
  if (count >= 1) m.perched = v[0] >= 0 && v[0] < 1e15 ? std::size_t(v[0]) : 0;
  if (count >= 2) m.speed_down = v[1];
  if (count >= 3) m.speed_up = v[2];
  if (count >= 4) m.food_distance = v[3];
  if (count >= 5) m.predator_distance = v[4];
  return in.ok;
}

// The time of writing, or SOURCE_DATE_EPOCH's where it is set (the reproducible-builds
// convention: the same frames then give the same file, as the fuzzers' seed recordings do).
std::string now_iso() {
  std::time_t t = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch) t = std::time_t(std::strtoll(epoch, nullptr, 10));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char s[32];
  std::strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return s;
}
}  // namespace

// ---------------------------------------------------------------- writer
RecordingWriter::RecordingWriter(const std::filesystem::path& file, const Params& params, std::string_view source)
    : file_(file), out_(file, std::ios::binary | std::ios::trunc) {
  if (!out_) throw OutputError(file.string() + ": cannot write the recording (" + std::strerror(errno) + ")");
  nlohmann::json h;
  h["format"] = "flockscope-recording";
  h["version"] = kRecordingVersion;
  h["source"] = std::string(source);
  h["seed"] = params.seed;
  h["params"] = params_to_json(params);
  h["metrics"] = metrics_columns();
  h["created"] = now_iso();
  const std::string text = h.dump();
  std::vector<std::uint8_t> head(kMagic, kMagic + 8);
  Out o{head};
  o.u32(kRecordingVersion);
  o.u32(std::uint32_t(text.size()));
  head.insert(head.end(), text.begin(), text.end());
  o.u32(protocol::crc32(head.data(), head.size()));
  out_.write(reinterpret_cast<const char*>(head.data()), std::streamsize(head.size()));
  bytes_ = head.size();
  if (!out_) throw OutputError(file.string() + ": write failed (" + std::strerror(errno) + ")");
}

void RecordingWriter::chunk(std::uint8_t type, const std::vector<std::uint8_t>& payload) {
  std::uint8_t head[5] = {type};
  for (int i = 0; i < 4; ++i) head[1 + i] = std::uint8_t(payload.size() >> (8 * i));
  std::uint32_t crc = protocol::crc32_update(protocol::crc32_init(), head, 5);
  crc = protocol::crc32_final(protocol::crc32_update(crc, payload.data(), payload.size()));
  std::uint8_t tail[4];
  for (int i = 0; i < 4; ++i) tail[i] = std::uint8_t(crc >> (8 * i));
  out_.write(reinterpret_cast<const char*>(head), 5);
  out_.write(reinterpret_cast<const char*>(payload.data()), std::streamsize(payload.size()));
  out_.write(reinterpret_cast<const char*>(tail), 4);
  bytes_ += 5 + payload.size() + 4;
  if (!out_) throw OutputError(file_.string() + ": write failed (" + std::strerror(errno) + ")");
}

void RecordingWriter::write_frame(std::uint64_t step, double time, const Metrics& m, const PointsView& b,
                                  const std::uint32_t* ids, const std::vector<Predator>& predators) {
  float x0 = 0, x1 = 1, y0 = 0, y1 = 1, vmax = 1e-6f;
  if (b.n > 0) {
    x0 = x1 = b.x[0], y0 = y1 = b.y[0];
    for (std::size_t i = 0; i < b.n; ++i) {
      x0 = std::min(x0, b.x[i]), x1 = std::max(x1, b.x[i]);
      y0 = std::min(y0, b.y[i]), y1 = std::max(y1, b.y[i]);
      vmax = std::max({vmax, std::fabs(b.vx[i]), std::fabs(b.vy[i])});
    }
  }
  // Ranges a hair wider than the data so the largest value maps inside 65535.
  const float sx = 65535.0f / std::max(x1 - x0, 1e-6f), sy = 65535.0f / std::max(y1 - y0, 1e-6f);
  const float sv = 32767.0f / vmax;
  buf_.clear();
  Out o{buf_};
  o.u64(step);
  o.f64(time);
  put_metrics(o, m);
  o.u32(std::uint32_t(b.n));
  o.u32(std::uint32_t(predators.size()));
  for (float v : {x0, x1, y0, y1, vmax}) o.f32(v);
  const std::size_t base = buf_.size();
  buf_.resize(base + 8 * b.n);
  for (std::size_t k = 0; k < b.n; ++k) {
    const std::size_t i = ids ? ids[k] : k;
    const auto qx = std::uint16_t(std::lround(std::clamp((b.x[k] - x0) * sx, 0.0f, 65535.0f)));
    const auto qy = std::uint16_t(std::lround(std::clamp((b.y[k] - y0) * sy, 0.0f, 65535.0f)));
    const auto qvx = std::uint16_t(std::int16_t(std::lround(std::clamp(b.vx[k] * sv, -32767.0f, 32767.0f))));
    const auto qvy = std::uint16_t(std::int16_t(std::lround(std::clamp(b.vy[k] * sv, -32767.0f, 32767.0f))));
    std::uint8_t* d = buf_.data() + base + 8 * i;
    for (std::uint16_t v : {qx, qy, qvx, qvy}) *d++ = std::uint8_t(v), *d++ = std::uint8_t(v >> 8);
  }
  for (const auto& pr : predators) o.f32(pr.x), o.f32(pr.y), o.f32(pr.vx), o.f32(pr.vy);
  chunk(kFrame, buf_);
  buf_.clear();
  put_extras(o, m, b.food);
  chunk(kExtras, buf_);
  ++frames_;
}

void RecordingWriter::write_frame(const Flock& f, const Metrics& m) {
  write_frame(f.steps(), f.time(), m, view_of(f), f.ids().data(), f.predators());
}

void RecordingWriter::write_params(const Params& p) {
  const std::string text = params_to_json(p).dump();
  chunk(kParams, std::vector<std::uint8_t>(text.begin(), text.end()));
}

void RecordingWriter::close() {
  if (out_.is_open()) {
    out_.flush();
    out_.close();
  }
}

// ---------------------------------------------------------------- reader
Recording Recording::load(const std::filesystem::path& file) {
  return parse(read_input_file(file, kMaxRecordingBytes), file.string());
}

Recording Recording::parse(std::string bytes, std::string_view origin) {
  const std::string name(origin);
  Recording r;
  r.data_ = std::move(bytes);
  const auto* d = reinterpret_cast<const std::uint8_t*>(r.data_.data());
  const std::size_t size = r.data_.size();
  if (size < 16 || std::memcmp(d, kMagic, 8) != 0) throw InputError(name + ": not a flockscope recording (bad magic)");
  In h{d + 8, d + size};
  const std::uint32_t version = h.u32(), hlen = h.u32();
  if (version < 1 || version > kRecordingVersion)
    throw InputError(name + ": recording version " + std::to_string(version) + " (this build reads 1 to " +
                     std::to_string(kRecordingVersion) + ")");
  const bool checked = version >= 2;  // version 1 has no checksums
  const std::size_t tail = checked ? 4 : 0;
  if (std::size_t(h.end - h.p) < std::uint64_t(hlen) + tail)
    throw InputError(name + ": byte 16: the header is cut short (" + std::to_string(hlen) + " bytes announced)");
  if (checked) {
    In c{h.p + hlen, h.end};
    if (c.u32() != protocol::crc32(d, 16 + std::size_t(hlen)))
      throw InputError(name + ": byte 16: the header fails its checksum (the file is damaged)");
  }
  try {
    const auto j = nlohmann::json::parse(h.p, h.p + hlen);
    r.params_ = params_from_json(nlohmann::json{{"params", j.at("params")}}, name);
    r.source_ = j.value("source", "local");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(name + ": bad header (" + e.what() + ")");
  }
  r.param_sets_.push_back(r.params_);
  In c{h.p + hlen + tail, d + size};
  // The first damage ends the reading; the frames before it are kept, and damage() says
  // where and what it is.
  auto damaged = [&](const std::uint8_t* at, const std::string& what) {
    r.damage_ = "byte " + std::to_string(at - d) + ": " + what;
  };
  std::uint8_t last_type = 0;
  while (c.p < c.end) {
    const std::uint8_t* at = c.p;
    const std::string which = "chunk " + std::to_string(r.chunks_) + " (after frame " + std::to_string(r.frames_.size()) + ")";
    if (c.end - c.p < 5) {
      damaged(at, which + " is cut short: the recording ends inside its head");
      break;
    }
    const std::uint8_t type = c.u8();
    const std::uint32_t len = c.u32();
    if (std::uint64_t(c.end - c.p) < std::uint64_t(len) + tail) {
      damaged(at, which + " is cut short: " + std::to_string(len) + " bytes announced, " +
                      std::to_string(c.end - c.p) + " left");
      break;
    }
    const std::uint8_t* payload = c.p;
    c.p += len;
    if (checked && c.u32() != protocol::crc32(at, 5 + std::size_t(len))) {
      damaged(at, which + " fails its checksum (the file is damaged)");
      break;
    }
    ++r.chunks_;
    const std::uint8_t previous = last_type;
    last_type = type;
    if (type == kFrame) {
      In f{payload, payload + len};
      const std::uint64_t step = f.u64();
      const double time = f.f64();
      const Metrics m = get_metrics(f);
      const std::uint64_t n = f.u32(), np = f.u32();
      if (!f.ok || 20 + 8 * n + 16 * np != std::uint64_t(f.end - f.p)) {
        damaged(at, "frame " + std::to_string(r.frames_.size()) + " has a bad length");
        break;
      }
      // A writer writes finite numbers and a whole cluster count; anything else would reach
      // the replay as NaN boids or a wrapped count.
      In v{f.p, f.p + 20};
      const float x0 = v.f32(), x1 = v.f32(), y0 = v.f32(), y1 = v.f32(), vmax = v.f32();
      bool finite = std::isfinite(time) && std::isfinite(x0) && std::isfinite(x1 - x0) && std::isfinite(y0) &&
                    std::isfinite(y1 - y0) && std::isfinite(vmax);
      for (In pr{f.end - 16 * np, f.end}; pr.p < pr.end;)
        if (!std::isfinite(pr.f32())) finite = false;
      if (!finite || m.clusters < 0) {
        damaged(at, "frame " + std::to_string(r.frames_.size()) + " holds a value no recording has (" +
                        (finite ? "a cluster count that is not a whole number" : "a number that is not finite") + ")");
        break;
      }
      r.frames_.push_back(std::size_t(payload - d));
      r.extras_.push_back(0);
      r.param_idx_.push_back(std::uint32_t(r.param_sets_.size() - 1));
      r.metrics_.push_back(m);
      r.steps_.push_back(step);
      r.times_.push_back(time);
    } else if (type == kExtras && previous == kFrame) {
      // The frame before stays whole whatever its extras hold.
      In e{payload, payload + len};
      Metrics m = r.metrics_.back();
      const bool fits = get_extras(e, m);
      const std::uint8_t* food_at = e.p;
      const std::uint64_t food = e.u32();
      if (!fits || !e.ok || 16 * food != std::uint64_t(e.end - e.p)) {
        damaged(at, "frame " + std::to_string(r.frames_.size() - 1) + "'s extras have a bad length");
        break;
      }
      bool finite = true;
      for (In fs{e.p, e.end}; fs.p < fs.end;)
        if (!std::isfinite(fs.f32())) finite = false;
      if (!finite) {
        damaged(at, "frame " + std::to_string(r.frames_.size() - 1) + "'s food sources hold a number that is not finite");
        break;
      }
      r.metrics_.back() = m;
      r.extras_.back() = std::size_t(food_at - d);
    } else if (type == kParams) {
      try {
        r.param_sets_.push_back(params_from_json(nlohmann::json{{"params", nlohmann::json::parse(payload, payload + len)}}, name));
      } catch (const std::exception& e) {
        damaged(at, "bad parameter chunk (" + std::string(e.what()) + ")");
        break;
      }
    }
  }
  return r;
}

const Params& Recording::params_at(std::size_t i) const { return param_sets_[param_idx_.at(i)]; }

RecordedFrame Recording::frame(std::size_t i) const {
  const auto* d = reinterpret_cast<const std::uint8_t*>(data_.data());
  In f{d + frames_.at(i), d + data_.size()};
  RecordedFrame fr;
  fr.step = f.u64();
  fr.time = f.f64();
  fr.metrics = get_metrics(f);
  const std::uint32_t n = f.u32(), np = f.u32();
  const float x0 = f.f32(), x1 = f.f32(), y0 = f.f32(), y1 = f.f32(), vmax = f.f32();
  const float sx = (x1 - x0) / 65535.0f, sy = (y1 - y0) / 65535.0f, sv = vmax / 32767.0f;
  auto& b = fr.boids;
  b.x.resize(n), b.y.resize(n), b.vx.resize(n), b.vy.resize(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    b.x[k] = x0 + float(f.u16()) * sx;
    b.y[k] = y0 + float(f.u16()) * sy;
    b.vx[k] = float(std::int16_t(f.u16())) * sv;
    b.vy[k] = float(std::int16_t(f.u16())) * sv;
  }
  fr.predators.resize(np);
  for (auto& pr : fr.predators) pr.x = f.f32(), pr.y = f.f32(), pr.vx = f.f32(), pr.vy = f.f32();
  fr.metrics = metrics_[i];
  if (extras_[i] != 0) {
    In e{d + extras_[i], d + data_.size()};
    fr.food.resize(e.u32());
    for (auto& s : fr.food) s.x = e.f32(), s.y = e.f32(), s.vx = e.f32(), s.vy = e.f32();
  }
  return fr;
}

}  // namespace flockscope
