// flockscope._flockscope: the C++ half of the Python module. Bindings only: the flock, the
// metrics table, sweeps, recordings and the board link are core/'s, experiments/' and
// app/link's; this file turns Python values into parameters, hands the engine's state to
// numpy without a copy, releases the GIL while the engine works and turns errors into
// Python's. The Python half (flockscope/__init__.py) makes DataFrames of what this returns.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <omp.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/params.hpp"
#include "flockscope/core/recording.hpp"
#include "flockscope/core/run.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "link/board_link.hpp"
#include "link/wire_params.hpp"

namespace py = pybind11;
using namespace flockscope;
using Clock = std::chrono::steady_clock;

namespace {

// ---------------------------------------------------------------- errors
// An unknown parameter or preset name (a KeyError, and a ValueError: bad input either way).
struct UnknownName : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A board that rejected a request, with its reason.
struct BoardRejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ValueErr : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// How often a long call looks for Ctrl-C (Python's handler only sets a flag that the main
// thread must check with the GIL held).
constexpr auto kSignalCheck = std::chrono::milliseconds(100);

// Runs Python's pending signal handlers (KeyboardInterrupt for Ctrl-C); throws their error.
// Called with the GIL released: takes it for the check.
void check_signals_nogil() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// ---------------------------------------------------------------- parameters
const ParamDef& param_named(std::string_view name) {
  const ParamDef* def = find_param(name);
  if (!def) throw UnknownName(unknown_param(name));
  return *def;
}

std::string type_name(py::handle v) { return py::str(py::type::of(v).attr("__name__")); }

// Stores one Python value: a number (int, float, numpy scalar) for numeric parameters, a
// bool (or 0/1) for switches, a name or an index for choices. Wrong types raise TypeError;
// out of range, NaN and unknown choices ValueError naming the key and what is allowed.
void set_value(Params& p, const ParamDef& def, py::handle v) {
  const std::string key(def.name);
  std::optional<std::string> err;
  const bool is_bool = py::isinstance<py::bool_>(v) ||
                       (py::hasattr(v, "dtype") && py::str(v.attr("dtype").attr("kind")).cast<std::string>() == "b");
  if (py::isinstance<py::str>(v)) {
    if (def.kind != ParamKind::Choice)
      throw py::type_error(key + " takes " + (def.kind == ParamKind::Bool ? "True or False" : "a number") + ", not str");
    err = set_param_text(p, key, v.cast<std::string>());
  } else if (is_bool) {
    if (def.kind != ParamKind::Bool) throw py::type_error(key + " takes a number, not bool");
    err = set_param(p, def, v.cast<bool>() ? 1.0 : 0.0);
  } else if (PyNumber_Check(v.ptr()) && !PyComplex_Check(v.ptr()) && py::hasattr(v, "__float__")) {
    double x = 0;
    if (PyLong_Check(v.ptr())) {
      // An int beyond 64 bits is out of every range: taken as infinite, not as an overflow error.
      int overflow = 0;
      const long long i = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
      x = overflow > 0 ? INFINITY : overflow < 0 ? -INFINITY : double(i);
    } else {
      x = PyFloat_AsDouble(v.ptr());  // numpy scalars; an array of several raises TypeError
      if (x == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    }
    err = set_param(p, def, x);
  } else {
    const char* want = def.kind == ParamKind::Choice ? "a name or an index" : def.kind == ParamKind::Bool ? "True or False" : "a number";
    throw py::type_error(key + " takes " + want + ", not " + type_name(v));
  }
  if (err) throw ValueErr(*err);
}

// Applies {name: value} to a copy of `base`: all or nothing.
Params with_values(Params p, const py::dict& values) {
  for (auto [k, v] : values) {
    if (!py::isinstance<py::str>(k)) throw py::type_error("parameter names are str, not " + type_name(k));
    set_value(p, param_named(k.cast<std::string>()), v);
  }
  return p;
}

// A parameter's value as Python has it: float, int, bool or the choice's name.
py::object value_of(const Params& p, const ParamDef& def) {
  const double v = get_param(p, def);
  switch (def.kind) {
    case ParamKind::Real: return py::float_(v);
    case ParamKind::Int: return py::int_(static_cast<long long>(v));
    case ParamKind::Bool: return py::bool_(v != 0);
    case ParamKind::Choice: return py::str(format_param(p, def));
  }
  return py::float_(v);
}

py::dict params_dict(const Params& p) {
  py::dict d;
  for (const auto& def : param_table()) d[py::str(std::string(def.name))] = value_of(p, def);
  return d;
}

Params load_named_preset(const std::string& preset) {
  try {
    return load_preset(resolve_preset(preset));
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("unknown preset", 0) == 0) throw UnknownName(what);
    throw;
  }
}

py::list table_rows() {
  static const char* kinds[] = {"real", "int", "bool", "choice"};
  py::list rows;
  for (const auto& d : param_table()) {
    py::dict r;
    r["name"] = std::string(d.name);
    r["kind"] = kinds[int(d.kind)];
    Params p;
    r["default"] = value_of(p, d);
    r["min"] = d.min;
    r["max"] = d.max;
    r["unit"] = std::string(d.unit);
    r["apply"] = d.apply == Apply::Live ? "live" : "reset";
    r["help"] = std::string(d.help);
    py::list choices;
    for (auto c : choice_names(d)) choices.append(std::string(c));
    r["choices"] = choices;
    rows.append(r);
  }
  return rows;
}

// ---------------------------------------------------------------- metrics rows
py::list metrics_columns_py() {
  py::list cols;
  for (const auto& c : metrics_table()) cols.append(py::make_tuple(std::string(c.name), c.whole));
  return cols;
}

void fill_row(double* row, std::uint64_t step, double time, const Metrics& m) {
  const auto t = metrics_table();
  for (std::size_t c = 0; c < t.size(); ++c) row[c] = t[c].value(step, time, m);
}

py::dict metrics_dict(std::uint64_t step, double time, const Metrics& m) {
  py::dict d;
  for (const auto& c : metrics_table()) {
    const double v = c.value(step, time, m);
    if (c.whole) d[py::str(std::string(c.name))] = py::int_(static_cast<long long>(v));
    else d[py::str(std::string(c.name))] = py::float_(v);
  }
  return d;
}

// (P, 4) float32: x, y, vx, vy of each predator (a copy: there are few).
py::array_t<float> predators_array(const std::vector<Predator>& pr) {
  py::array_t<float> out({pr.size(), std::size_t(4)});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < pr.size(); ++i)
    w(py::ssize_t(i), 0) = pr[i].x, w(py::ssize_t(i), 1) = pr[i].y, w(py::ssize_t(i), 2) = pr[i].vx, w(py::ssize_t(i), 3) = pr[i].vy;
  return out;
}

// ---------------------------------------------------------------- the flock
// The engine behind a Python Flock. Views of its state hold a reference to it, so a reset
// (a new engine) never frees memory that an old view still reads.
struct PyFlock {
  std::shared_ptr<Flock> flock;
  int threads = 0;

  PyFlock(const std::string& preset, const py::dict& values, int threads_) : threads(threads_) {
    if (threads_ < 0 || threads_ > 256) throw ValueErr("threads=" + std::to_string(threads_) + " is out of range; allowed [0, 256] (0: all cores)");
    const Params p = with_values(load_named_preset(preset), values);
    if (auto err = check_scouts(p, p.boids)) throw ValueErr(*err);
    py::gil_scoped_release nogil;
    flock = std::make_shared<Flock>(p);
    flock->set_threads(effective_threads());
  }

  int effective_threads() const { return threads > 0 ? threads : omp_get_num_procs(); }
  void set_threads(int t) {
    if (t < 0 || t > 256) throw ValueErr("threads=" + std::to_string(t) + " is out of range; allowed [0, 256] (0: all cores)");
    threads = t;
    flock->set_threads(effective_threads());
  }

  // Steps n times without the GIL; Ctrl-C stops between two steps (the flock stays whole).
  void step(std::int64_t n) {
    if (n < 0) throw ValueErr("steps=" + std::to_string(n) + " is out of range; allowed 0 or more");
    const auto f = flock;
    py::gil_scoped_release nogil;
    auto next_check = Clock::now() + kSignalCheck;
    for (std::int64_t i = 0; i < n; ++i) {
      f->step();
      if (Clock::now() >= next_check) {
        check_signals_nogil();
        next_check = Clock::now() + kSignalCheck;
      }
    }
  }

  // Rows of the metrics table: the current step, then every `every`-th step of the next n
  // (and the last one), as `flockscope run` computes them (compute_metrics after each step).
  py::array_t<double> run(std::int64_t n, std::int64_t every) {
    if (n < 0) throw ValueErr("steps=" + std::to_string(n) + " is out of range; allowed 0 or more");
    if (every < 1) throw ValueErr("every=" + std::to_string(every) + " is out of range; allowed 1 or more");
    const std::size_t cols = metrics_table().size();
    std::vector<double> rows;
    {
      const auto f = flock;
      py::gil_scoped_release nogil;
      rows.reserve((std::size_t(n / every) + 2) * cols);
      auto add = [&] {
        rows.resize(rows.size() + cols);
        fill_row(rows.data() + rows.size() - cols, f->steps(), f->time(), compute_metrics(*f));
      };
      add();
      auto next_check = Clock::now() + kSignalCheck;
      for (std::int64_t i = 1; i <= n; ++i) {
        f->step();
        if (i % every == 0 || i == n) add();
        if (Clock::now() >= next_check) {
          check_signals_nogil();
          next_check = Clock::now() + kSignalCheck;
        }
      }
    }
    py::array_t<double> out({rows.size() / cols, cols});
    std::copy(rows.begin(), rows.end(), out.mutable_data());
    return out;
  }

  py::dict metrics() const {
    const auto f = flock;
    Metrics m;
    {
      py::gil_scoped_release nogil;
      m = compute_metrics(*f);
    }
    return metrics_dict(f->steps(), f->time(), m);
  }

  // Live parameters act from the next step; reset-only ones are kept for reset(). Returns the
  // names of those waiting.
  py::list set(const py::dict& values) {
    const Params p = with_values(flock->pending_params(), values);
    if (auto err = check_scouts(p, std::int64_t(flock->size()))) throw ValueErr(*err);
    flock->set_params(p);
    py::list waiting;
    for (const auto& def : param_table())
      if (def.apply == Apply::Reset && get_param(p, def) != get_param(flock->params(), def)) waiting.append(std::string(def.name));
    return waiting;
  }

  void reset() {
    const Params p = flock->pending_params();
    if (auto err = check_scouts(p, p.boids)) throw ValueErr(*err);
    py::gil_scoped_release nogil;
    auto f = std::make_shared<Flock>(p);
    f->set_threads(effective_threads());
    flock = std::move(f);
  }

  // An (N, 2) read-only float32 view of two of the engine's arrays (x and y, or vx and vy):
  // the rows step along one array, the two columns are the arrays themselves.
  py::capsule keep_alive() const {
    return py::capsule(new std::shared_ptr<Flock>(flock), [](void* p) { delete static_cast<std::shared_ptr<Flock>*>(p); });
  }
  py::array view2(const std::vector<float>& a, const std::vector<float>& b) const {
    const auto base = keep_alive();
    const auto col = reinterpret_cast<const char*>(b.data()) - reinterpret_cast<const char*>(a.data());
    py::array out(py::dtype::of<float>(), {py::ssize_t(flock->size()), py::ssize_t(2)},
                  {py::ssize_t(sizeof(float)), py::ssize_t(col)}, a.data(), base);
    py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return out;
  }
  py::array positions() const { return view2(flock->x(), flock->y()); }
  py::array velocities() const { return view2(flock->vx(), flock->vy()); }
  py::array ids() const {
    const auto base = keep_alive();
    py::array out(py::dtype::of<std::uint32_t>(), {py::ssize_t(flock->size())}, {py::ssize_t(sizeof(std::uint32_t))},
                  flock->ids().data(), base);
    py::detail::array_proxy(out.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return out;
  }
  // Predators are few and their array may be re-made when their number changes: a copy.
  py::array_t<float> predators() const { return predators_array(flock->predators()); }
};

// ---------------------------------------------------------------- sweeps
// Runs the sweep into `out` (runs.csv, summary.csv, sweep.json; resumed when `out` holds
// the same sweep) and returns runs.csv's path. Ctrl-C stops it (finished runs kept) and
// raises KeyboardInterrupt.
std::string sweep(const std::string& preset, const py::dict& fixed, const std::vector<std::string>& grid,
                  std::uint64_t reps, std::uint64_t steps, std::optional<std::uint64_t> seed, bool paired, int jobs,
                  std::uint64_t check_every, double form_radius, const std::string& out) {
  using namespace experiments;
  SweepSpec s;
  s.preset = preset;
  s.base = with_values(load_named_preset(preset), fixed);
  for (const auto& g : grid) {
    const std::string key = g.substr(0, g.find('='));
    if (key != kInformedKey && key != kRightShareKey) param_named(key);
    try {
      s.axes.push_back(parse_grid_axis(g));
    } catch (const InputError& e) {
      throw ValueErr(e.what());
    }
  }
  if (reps < 1) throw ValueErr("reps=0 is out of range; allowed 1 or more");
  if (jobs < 0 || jobs > 1024) throw ValueErr("jobs=" + std::to_string(jobs) + " is out of range; allowed [0, 1024] (0: all cores)");
  if (check_every < 1) throw ValueErr("check_every=0 is out of range; allowed 1 or more");
  if (!(form_radius > 0) || !std::isfinite(form_radius)) throw ValueErr("form_radius must be a positive number");
  s.reps = reps;
  s.steps = steps;
  s.seed = seed ? *seed : std::uint64_t(s.base.seed);
  s.seed_mode = paired ? SeedMode::PerRep : SeedMode::PerRun;
  s.summary.check_every = check_every;
  s.summary.form_radius = form_radius;
  try {
    validate(s);
  } catch (const InputError& e) {
    throw ValueErr(e.what());
  }
  std::atomic<bool> stop{false};
  std::optional<py::error_already_set> interrupted;
  SweepOptions o;
  o.jobs = jobs;
  o.stop = &stop;
  o.drop_runs_in_flight = true;
  o.progress_interval = 0.1;
  o.progress = [&](const SweepProgress&) {
    if (interrupted) return;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      interrupted.emplace();
      stop = true;
    }
  };
  SweepOutcome r;
  {
    py::gil_scoped_release nogil;
    r = run_sweep(s, out, o);
  }
  if (interrupted) throw std::move(*interrupted);
  if (!r.complete) throw ValueErr("the sweep stopped before every run was made");
  return (std::filesystem::path(out) / "runs.csv").string();
}

// ---------------------------------------------------------------- recordings
py::dict read_recording(const std::string& file) {
  if (!std::filesystem::exists(file)) {
    errno = ENOENT;
    PyErr_SetFromErrnoWithFilename(PyExc_OSError, file.c_str());
    throw py::error_already_set();
  }
  const Recording rec = Recording::load(file);
  const std::size_t cols = metrics_table().size();
  py::array_t<double> metrics({rec.frames(), cols});
  for (std::size_t i = 0; i < rec.frames(); ++i)
    fill_row(metrics.mutable_data(py::ssize_t(i), 0), rec.step(i), rec.time(i), rec.metrics(i));
  py::list states, predators;
  for (std::size_t i = 0; i < rec.frames(); ++i) {
    const RecordedFrame fr = rec.frame(i);
    py::array_t<float> s({fr.boids.size(), std::size_t(4)});
    auto w = s.mutable_unchecked<2>();
    for (std::size_t k = 0; k < fr.boids.size(); ++k)
      w(k, 0) = fr.boids.x[k], w(k, 1) = fr.boids.y[k], w(k, 2) = fr.boids.vx[k], w(k, 3) = fr.boids.vy[k];
    states.append(s);
    predators.append(predators_array(fr.predators));
  }
  py::dict d;
  d["metrics"] = metrics;
  d["states"] = states;
  d["predators"] = predators;
  d["params"] = params_dict(rec.params());
  d["source"] = rec.source();
  d["damage"] = rec.damage();
  return d;
}

// ---------------------------------------------------------------- the board
// A board over its serial port (app/link's BoardLink): connect, set parameters (each
// acknowledged or refused by the board), take its frames.
struct PyBoard {
  std::string port;
  std::unique_ptr<link::BoardLink> link;
  std::optional<Params> params;  // the board's, after the handshake
  std::vector<std::uint16_t> on_board;
  std::deque<link::MirroredFrame> frames;
  std::vector<link::RequestDone> done;
  link::LinkState state = link::LinkState::kClosed;
  std::string detail;
  // Frames kept for the caller between two reads (3 s of a 30 fps board); older ones go.
  static constexpr std::size_t kMaxFrames = 90;

  PyBoard(const std::string& port_, double connect_timeout, double request_timeout, double silence) : port(port_) {
    if (!std::filesystem::exists(port)) {
      errno = ENOENT;
      PyErr_SetFromErrnoWithFilename(PyExc_FileNotFoundError, port.c_str());
      throw py::error_already_set();
    }
    if (!(connect_timeout > 0) || !(request_timeout > 0) || !(silence > 0))
      throw ValueErr("connect_timeout, request_timeout and silence must be positive numbers of seconds");
    link::LinkOptions o;
    o.port = port;
    o.request_timeout_ms = int(std::min(request_timeout, 3600.0) * 1000);
    o.silence_ms = int(std::min(silence, 3600.0) * 1000);
    link = std::make_unique<link::BoardLink>(o);
    const auto deadline = Clock::now() + std::chrono::duration<double>(connect_timeout);
    while (!params) {
      if (state == link::LinkState::kVersionMismatch) throw_os("the board on " + port + " speaks another protocol: " + detail);
      if (Clock::now() >= deadline) {
        const auto st = link->status();
        PyErr_SetString(PyExc_TimeoutError, ("no board answered on " + port + " within " + py::str(py::float_(connect_timeout)).cast<std::string>() +
                                             " s (" + link::to_string(st.state) + ": " + st.detail + ")").c_str());
        throw py::error_already_set();
      }
      pump(std::chrono::milliseconds(50));
    }
  }

  [[noreturn]] static void throw_os(const std::string& what) {
    PyErr_SetString(PyExc_OSError, what.c_str());
    throw py::error_already_set();
  }

  // Waits (without the GIL) up to `wait` for the link's events and sorts them; then runs
  // Python's signal handlers (Ctrl-C raises KeyboardInterrupt here).
  void pump(std::chrono::milliseconds wait) {
    std::vector<link::LinkEvent> events;
    {
      py::gil_scoped_release nogil;
      link->wait_for_event(wait);
      events = link->take_events();
    }
    for (auto& e : events) {
      if (auto* f = std::get_if<link::MirroredFrame>(&e)) {
        frames.push_back(std::move(*f));
        if (frames.size() > kMaxFrames) frames.pop_front();
      } else if (auto* bp = std::get_if<link::BoardParams>(&e)) {
        params = link::params_from_wire(bp->params, params.value_or(Params{}));
        on_board.clear();
        for (const auto& w : bp->params) on_board.push_back(w.id);
      } else if (auto* d = std::get_if<link::RequestDone>(&e)) {
        done.push_back(*d);
      } else if (auto* sc = std::get_if<link::StateChanged>(&e)) {
        state = sc->state, detail = sc->detail;
      }
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }

  link::RequestDone wait_done(std::uint32_t req) {
    for (;;) {
      for (auto it = done.begin(); it != done.end(); ++it)
        if (it->request == req) {
          const link::RequestDone d = *it;
          done.erase(it);
          return d;
        }
      pump(std::chrono::milliseconds(50));
    }
  }

  void check_open() const {
    if (!link) throw_os("the board on " + port + " is closed");
  }

  // Sets each value in turn; returns when the board has acknowledged it. Values outside
  // this app's table raise ValueError before anything is sent; a value the board refuses
  // raises BoardError with the board's reason.
  void set(const py::dict& values) {
    check_open();
    const Params q = with_values(*params, values);  // every value checked before the first is sent
    for (auto [k, v] : values) {
      const ParamDef& def = param_named(k.cast<std::string>());
      const std::string asked = std::string(def.name) + "=" + format_param(q, def);
      if (std::find(on_board.begin(), on_board.end(), def.id) == on_board.end()) {
        std::string names;
        for (auto id : on_board)
          if (const ParamDef* d = find_param(id)) names += (names.empty() ? "" : ", ") + std::string(d->name);
        throw BoardRejected(std::string(def.name) + " is not on this board (it has: " + names + ")");
      }
      const link::RequestDone d = wait_done(link->change_param(def.id, link::to_wire(def, get_param(q, def))));
      switch (d.outcome) {
        case link::Outcome::kAccepted:
          if (auto got = link::from_wire(def, d.value)) (void)set_param(*params, def, std::clamp(*got, def.min, def.max));
          break;
        case link::Outcome::kRejected:
          throw BoardRejected(link::describe_refusal(def, asked, d.status, d.value, d.reason));
        case link::Outcome::kUnanswered:
          PyErr_SetString(PyExc_TimeoutError, ("the board did not acknowledge " + asked).c_str());
          throw py::error_already_set();
        case link::Outcome::kNotConnected:
          PyErr_SetString(PyExc_ConnectionError, ("the link to " + port + " dropped while setting " + asked).c_str());
          throw py::error_already_set();
      }
    }
  }

  // The next board frame (oldest first), or None when none comes within `timeout` seconds.
  py::object next_frame(double timeout) {
    check_open();
    const auto deadline = Clock::now() + std::chrono::duration<double>(std::max(0.0, timeout));
    while (frames.empty()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return py::none();
      pump(std::min(left, std::chrono::milliseconds(50)));
    }
    const link::MirroredFrame f = std::move(frames.front());
    frames.pop_front();
    const Metrics m = link::metrics_of(f, cluster_radius(*params));
    py::array_t<float> pos({f.size(), std::size_t(2)}), vel({f.size(), std::size_t(2)});
    auto wp = pos.mutable_unchecked<2>();
    auto wv = vel.mutable_unchecked<2>();
    for (std::size_t i = 0; i < f.size(); ++i) wp(i, 0) = f.x[i], wp(i, 1) = f.y[i], wv(i, 0) = f.vx[i], wv(i, 1) = f.vy[i];
    py::dict d;
    d["frame"] = f.frame;
    d["positions"] = pos;
    d["velocities"] = vel;
    d["predators"] = predators_array(f.predators);
    // The lab's extensions from a board that sends them (empty otherwise): (F, 2) food
    // positions, (P, 3) each predator's aim: x, y, and 1 where it steers toward it.
    py::array_t<float> food({f.food.size(), std::size_t(2)}), aims({f.aims.size(), std::size_t(3)});
    auto wf = food.mutable_unchecked<2>();
    for (std::size_t i = 0; i < f.food.size(); ++i) wf(py::ssize_t(i), 0) = f.food[i].x, wf(py::ssize_t(i), 1) = f.food[i].y;
    auto wa = aims.mutable_unchecked<2>();
    for (std::size_t i = 0; i < f.aims.size(); ++i)
      wa(py::ssize_t(i), 0) = f.aims[i].x, wa(py::ssize_t(i), 1) = f.aims[i].y, wa(py::ssize_t(i), 2) = f.aims[i].active ? 1.0f : 0.0f;
    d["food"] = food;
    d["aims"] = aims;
    d["complete"] = f.state_complete;
    d["metrics_from_state"] = link::metrics_from_state(f);
    // As `flockscope mirror` writes them: the board's frame number as the step, dt per frame.
    d["metrics"] = metrics_dict(f.frame, double(f.frame) * params->dt, m);
    if (f.has_stats) d["fps"] = f.stats.fps;
    return d;
  }

  py::dict status() const {
    py::dict d;
    if (!link) {
      d["state"] = "closed";
      return d;
    }
    const auto st = link->status();
    d["state"] = link::to_string(st.state);
    d["detail"] = st.detail;
    d["board"] = st.board_name;
    d["port"] = port;
    d["requests"] = st.counters.requests;
    d["accepted"] = st.counters.accepted;
    d["rejected"] = st.counters.rejected;
    d["frames"] = st.counters.frames.frames;
    d["last_rtt_ms"] = st.counters.last_rtt_ms;
    return d;
  }

  void close() {
    py::gil_scoped_release nogil;
    link.reset();
  }
};

}  // namespace

PYBIND11_MODULE(_flockscope, m) {
  m.doc() = "flockscope's engine, sweeps, recordings and board link (the C++ half of the flockscope package)";
  // A KeyError (a name not in a table) and a ValueError (bad input, as the other errors).
  static py::exception<UnknownName> unknown(m, "UnknownNameError",
                                            py::make_tuple(py::handle(PyExc_KeyError), py::handle(PyExc_ValueError)));
  static py::exception<BoardRejected> rejected(m, "BoardError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const UnknownName& e) {
      unknown(e.what());
    } catch (const BoardRejected& e) {
      rejected(e.what());
    } catch (const ValueErr& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("version", &version_string);
  m.def("param_table", &table_rows);
  m.def("preset_names", &preset_names);
  m.def("preset_params", [](const std::string& preset) { return params_dict(load_named_preset(preset)); });
  m.def("preset_description", [](const std::string& preset) { return preset_description(resolve_preset(preset)); });
  m.def("metrics_columns", &metrics_columns_py);
  m.def("cpu_count", [] { return omp_get_num_procs(); });

  py::class_<PyFlock>(m, "Flock")
      .def(py::init<const std::string&, const py::dict&, int>(), py::arg("preset"), py::arg("values"), py::arg("threads"))
      .def("step", &PyFlock::step, py::arg("n"))
      .def("run", &PyFlock::run, py::arg("n"), py::arg("every"))
      .def("metrics", &PyFlock::metrics)
      .def("set", &PyFlock::set, py::arg("values"))
      .def("reset", &PyFlock::reset)
      .def_property_readonly("positions", &PyFlock::positions)
      .def_property_readonly("velocities", &PyFlock::velocities)
      .def_property_readonly("ids", &PyFlock::ids)
      .def_property_readonly("predators", &PyFlock::predators)
      .def_property("threads", [](const PyFlock& f) { return f.threads; }, &PyFlock::set_threads)
      .def_property_readonly("size", [](const PyFlock& f) { return f.flock->size(); })
      .def_property_readonly("steps", [](const PyFlock& f) { return f.flock->steps(); })
      .def_property_readonly("time", [](const PyFlock& f) { return f.flock->time(); })
      .def_property_readonly("state_hash", [](const PyFlock& f) { return f.flock->state_hash(); })
      .def("params", [](const PyFlock& f) { return params_dict(f.flock->params()); })
      .def("pending_params", [](const PyFlock& f) { return params_dict(f.flock->pending_params()); });

  m.def("sweep", &sweep, py::arg("preset"), py::arg("fixed"), py::arg("grid"), py::arg("reps"), py::arg("steps"),
        py::arg("seed"), py::arg("paired"), py::arg("jobs"), py::arg("check_every"), py::arg("form_radius"), py::arg("out"));
  m.def("read_recording", &read_recording, py::arg("file"));

  py::class_<PyBoard>(m, "Board")
      .def(py::init<const std::string&, double, double, double>(), py::arg("port"), py::arg("connect_timeout"),
           py::arg("request_timeout"), py::arg("silence"))
      .def("set", &PyBoard::set, py::arg("values"))
      .def("next_frame", &PyBoard::next_frame, py::arg("timeout"))
      .def("params", [](const PyBoard& b) { return params_dict(*b.params); })
      .def("status", &PyBoard::status)
      .def("close", &PyBoard::close);
}
