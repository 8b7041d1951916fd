"""flockscope from Python: the Boids engine, runs and sweeps as pandas DataFrames, a board
over its serial link.

    import flockscope as fs
    f = fs.Flock("cornell-pico-predator", boids=20000, seed=3, visualRange=30)
    df = f.run(2000)                  # the columns of `flockscope run`'s metrics.csv
    sw = fs.sweep({"visualRange": [20, 40, 60]}, preset="cornell-pico-predator", boids=500)

The work is done by the C++ engine (the extension module flockscope._flockscope); this file
turns its results into DataFrames. docs/python.md is the guide.
"""

import os
import tempfile
import warnings

import numpy as np
import pandas as pd

# An installed package carries its presets (scripts/install-python.sh); in the build tree
# the engine reads them from the source tree.
_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
if os.path.isdir(_ASSETS) and not os.environ.get("FLOCKSCOPE_ASSETS"):
    os.environ["FLOCKSCOPE_ASSETS"] = _ASSETS

from . import _flockscope as _fs  # noqa: E402
from ._flockscope import BoardError, UnknownNameError  # noqa: E402

__all__ = ["Flock", "Board", "Frame", "Recording", "presets", "params", "preset_params", "sweep",
           "read_recording", "metrics_columns", "UnknownNameError", "BoardError", "__version__"]
__version__ = _fs.version()


def _name_str(self):
    # KeyError's own str() quotes its message; this one reads as a sentence.
    return str(self.args[0]) if self.args else ""


UnknownNameError.__str__ = _name_str

_COLUMNS = _fs.metrics_columns()  # (name, whole number?) in metrics.csv's order


def metrics_columns():
    """The columns of metrics.csv (and of Flock.run's DataFrame), in order."""
    return [name for name, _ in _COLUMNS]


def _metrics_frame(rows):
    df = pd.DataFrame(rows, columns=metrics_columns())
    for name, whole in _COLUMNS:
        if whole:
            df[name] = df[name].astype("int64")
    return df


def _check_name(value, what):
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{what} is a name or a file path, not {type(value).__name__}")
    return os.fspath(value)


def presets():
    """The bundled presets' names, sorted."""
    return list(_fs.preset_names())


def preset_params(preset):
    """Every parameter's value in a preset (a name or a .json file), as a dict."""
    return _fs.preset_params(_check_name(preset, "preset"))


def params():
    """The parameter table: name, default, min, max, unit, help, kind, apply (live or reset)
    and, for choices, their names. One row a parameter."""
    rows = _fs.param_table()
    cols = ["name", "default", "min", "max", "unit", "help", "kind", "apply", "choices"]
    return pd.DataFrame([{c: r[c] for c in cols} for r in rows], columns=cols)


class Flock:
    """One flock of the engine.

    Flock(preset="cornell-pico-predator", *, threads=0, **params): the preset (a bundled
    name or a .json file) with any parameter given as a keyword (boids=, seed=,
    visualRange=, rules="report", ...). threads: the engine's threads for step and run
    (0: all cores), as `flockscope run --threads`.
    """

    def __init__(self, preset="cornell-pico-predator", *, threads=0, **params):
        if not isinstance(threads, (int, np.integer)) or isinstance(threads, bool):
            raise TypeError(f"threads is a whole number, not {type(threads).__name__}")
        self._f = _fs.Flock(_check_name(preset, "preset"), params, int(threads))
        self.preset = os.fspath(preset)

    def step(self, n=1):
        """Steps the flock n times. The GIL is released while the engine works; Ctrl-C stops
        it between two steps with KeyboardInterrupt (the flock stays usable)."""
        self._f.step(n)

    def run(self, steps, every=1):
        """Steps `steps` times and returns the metrics as a DataFrame, the columns of
        `flockscope run`'s metrics.csv: one row for the state it starts from, then one
        every `every` steps (and the last). From a new flock, run(N) gives the rows of
        `flockscope run --steps N` with the same preset and seed."""
        return _metrics_frame(self._f.run(steps, every))

    def metrics(self):
        """The current step's row of metrics.csv, as a dict."""
        return self._f.metrics()

    def set(self, **params):
        """Changes parameters: live ones act from the next step; reset-only ones (boids,
        seed, world size, ...) wait for reset() (a warning names them). All or nothing: a
        bad value raises ValueError (range, NaN), TypeError or UnknownNameError before any
        is changed."""
        waiting = self._f.set(params)
        if waiting:
            warnings.warn(f"{', '.join(waiting)} act(s) at the next reset(); call reset() to apply", stacklevel=2)

    def reset(self):
        """Spawns the flock again from its parameters (and seed). Views taken before keep
        the old state."""
        self._f.reset()

    @property
    def positions(self):
        """(N, 2) float32 x, y of every boid (px): a read-only view of the engine's memory,
        not a copy, so it follows the flock as it steps. Rows are in the engine's storage
        order, which changes every step (ids gives each row's boid)."""
        return self._f.positions

    @property
    def velocities(self):
        """(N, 2) float32 vx, vy (px per step), a read-only view like positions."""
        return self._f.velocities

    @property
    def ids(self):
        """(N,) uint32: the boid (spawn order) in each row of positions and velocities."""
        return self._f.ids

    @property
    def predators(self):
        """(P, 2) float32 positions of the predators (a copy)."""
        return self._f.predators[:, :2]

    @property
    def predator_velocities(self):
        """(P, 2) float32 velocities of the predators (a copy)."""
        return self._f.predators[:, 2:]

    @property
    def params(self):
        """The parameters in force, as a dict."""
        return self._f.params()

    @property
    def threads(self):
        return self._f.threads

    @threads.setter
    def threads(self, n):
        self._f.threads = n

    @property
    def steps(self):
        """Steps made since the last (re)spawn."""
        return self._f.steps

    @property
    def time(self):
        return self._f.time

    @property
    def state_hash(self):
        """FNV-1a of the state, as run.json's final_state_hash."""
        return self._f.state_hash

    def __len__(self):
        return self._f.size

    def __repr__(self):
        return f"<flockscope.Flock {self.preset!r}: {len(self)} boids, step {self.steps}>"


def _grid_value(key, v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    raise TypeError(f"grid values of {key} are numbers, bools or names, not {type(v).__name__}")


def _grid_spec(key, values):
    if not isinstance(key, str):
        raise TypeError(f"grid keys are parameter names, not {type(key).__name__}")
    if isinstance(values, str):  # "first:last:step" or "a,b,c", as --grid takes it
        return f"{key}={values}"
    try:
        values = list(values)
    except TypeError:
        raise TypeError(f"grid[{key!r}] is a list of values or a 'first:last:step' text, "
                        f"not {type(values).__name__}") from None
    if not values:
        raise ValueError(f"grid[{key!r}] has no values")
    return f"{key}=" + ",".join(_grid_value(key, v) for v in values)


def sweep(grid, preset="report-baseline", *, reps=1, steps=1000, jobs=0, seed=None, paired=False,
          out=None, check_every=5, form_radius=10.0, **params):
    """Every combination of `grid` ({key: [values]}, the first key outermost), each run
    `reps` times with its own recorded seed, in parallel: `flockscope sweep`. Fixed
    parameters are keywords, as in Flock. Returns runs.csv's rows as a DataFrame. With
    out=DIR the sweep's files (runs.csv, summary.csv, sweep.json) stay in DIR and a sweep
    stopped with Ctrl-C resumes from there; without, they go to a temporary folder."""
    if not isinstance(grid, dict):
        raise TypeError(f"grid is a dict {{key: [values]}}, not {type(grid).__name__}")
    specs = [_grid_spec(k, v) for k, v in grid.items()]
    for name, v in (("reps", reps), ("steps", steps), ("jobs", jobs), ("check_every", check_every)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise TypeError(f"{name} is a whole number, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"{name}={v} is out of range; allowed 0 or more")
    if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool)):
        raise TypeError(f"seed is a whole number, not {type(seed).__name__}")
    if seed is not None and not 0 <= seed <= 4294967295:
        raise ValueError(f"seed={seed} is out of range; allowed [0, 4294967295]")

    def go(folder):
        path = _fs.sweep(_check_name(preset, "preset"), params, specs, int(reps), int(steps), seed, bool(paired),
                         int(jobs), int(check_every), float(form_radius), folder)
        return pd.read_csv(path, keep_default_na=False, na_values=[""])

    if out is not None:
        return go(_check_name(out, "out"))
    with tempfile.TemporaryDirectory(prefix="flockscope-sweep-") as folder:
        return go(folder)


class Recording:
    """A recording (.flkrec) read back: metrics (DataFrame, the columns of metrics.csv, as
    recorded), states (one (N, 4) float32 array of x, y, vx, vy a frame, boids in id
    order), predators (one (P, 4) array a frame), params (dict, at the start), source
    ("local", "serial") and damage (empty, or where reading stopped)."""

    def __init__(self, d):
        self.metrics = _metrics_frame(d["metrics"])
        self.states = d["states"]
        self.predators = d["predators"]
        self.params = d["params"]
        self.source = d["source"]
        self.damage = d["damage"]

    def __len__(self):
        return len(self.states)

    def __repr__(self):
        return f"<flockscope.Recording: {len(self)} frames from {self.source}>"


def read_recording(path):
    """Reads a recording (.flkrec, from the window's Record or `flockscope mirror --record`)."""
    return Recording(_fs.read_recording(_check_name(path, "path")))


class Frame:
    """One board frame: frame (the board's number), positions and velocities ((N, 2)
    float32, in the board's order), predators ((P, 4)), food ((F, 2): the food sources) and
    aims ((P, 3): each predator's aim x, y and 1 where it steers toward it; both empty from a
    board without the lab's extensions), complete (every boid's state came), metrics (the row
    of metrics.csv `flockscope mirror` writes for it)."""

    __slots__ = ("frame", "positions", "velocities", "predators", "food", "aims", "complete", "metrics_from_state",
                 "metrics", "fps")

    def __init__(self, d):
        for k in self.__slots__:
            setattr(self, k, d.get(k))

    def __repr__(self):
        return f"<flockscope.Frame {self.frame}: {len(self.positions)} boids>"


class Board:
    """A board over its serial port: a Pico on /dev/ttyACM0, the virtual board's
    pseudo-terminal (`flockscope board`), the firmware in the emulator.

        with fs.Board("/dev/ttyACM0") as b:
            b.set(visualRange=30)
            for frame in b.frames(seconds=5):
                print(frame.frame, frame.metrics["diameter"])

    Opening waits for the handshake (connect_timeout seconds; a missing port raises
    FileNotFoundError naming it, a silent one TimeoutError). request_timeout and silence
    stretch the link's timings for a slow board (the emulator)."""

    def __init__(self, port, *, connect_timeout=10.0, request_timeout=0.25, silence=2.0):
        self.port = _check_name(port, "port")
        self._b = _fs.Board(self.port, float(connect_timeout), float(request_timeout), float(silence))

    def set(self, **params):
        """Sets each parameter on the board in turn and returns once the board has
        acknowledged it. Raises ValueError (outside this app's range), BoardError (the
        board refused it, with its reason) or TimeoutError (no answer)."""
        self._b.set(params)

    def frames(self, seconds=None, count=None, timeout=5.0):
        """Yields the board's frames as they come, for `seconds` and/or `count` frames
        (at least one of them, else until the caller stops). Stops early when no frame
        comes for `timeout` seconds."""
        import time
        end = None if seconds is None else time.monotonic() + seconds
        n = 0
        while (count is None or n < count) and (end is None or time.monotonic() < end):
            wait = timeout if end is None else max(0.0, min(timeout, end - time.monotonic()))
            d = self._b.next_frame(wait)
            if d is None:
                return
            n += 1
            yield Frame(d)

    def frame(self, timeout=5.0):
        """The next frame, or None when none comes within `timeout` seconds."""
        d = self._b.next_frame(timeout)
        return None if d is None else Frame(d)

    @property
    def params(self):
        """The board's parameters as this app holds them (after every acknowledged set)."""
        return self._b.params()

    def status(self):
        return self._b.status()

    def close(self):
        self._b.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
