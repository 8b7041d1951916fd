"""flockscope.Flock and the tables against the command line: the same metrics rows and state
hash as `flockscope run`, views without copies, Python's errors for bad input, Ctrl-C."""

import json
import math
import os
import signal
import tempfile
import threading
import time
import unittest
import warnings

import numpy as np
import pandas as pd

import flockscope as fs
from support import cli


def printed(v):
    """A value as metrics.csv prints it (%.9g), read back."""
    return float("%.9g" % v)


class Tables(unittest.TestCase):
    def test_presets_are_the_bundled_ones(self):
        names = fs.presets()
        self.assertIn("cornell-pico-predator", names)
        self.assertEqual(names, sorted(names))

    def test_params_is_the_table(self):
        t = fs.params()
        self.assertEqual(list(t.columns[:6]), ["name", "default", "min", "max", "unit", "help"])
        row = t.set_index("name").loc["visualRange"]
        self.assertEqual((row["default"], row["min"], row["max"], row["unit"]), (40.0, 0.0, 10000.0, "px"))
        # Every parameter of `flockscope params`, in its order.
        listed = [line.split()[0] for line in cli("params").stdout.splitlines()[1:] if line.strip()]
        self.assertTrue(set(t["name"]) <= set(listed) | {"name"}, set(t["name"]) - set(listed))

    def test_metrics_columns_are_metrics_csv_header(self):
        with tempfile.TemporaryDirectory() as d:
            cli("run", "--steps", 1, "--out", d)
            with open(os.path.join(d, "metrics.csv")) as f:
                self.assertEqual(f.readline().strip().split(","), fs.metrics_columns())


class SameAsTheCommandLine(unittest.TestCase):
    def check_run(self, preset, seed, steps, boids):
        with tempfile.TemporaryDirectory() as d:
            cli("run", "--preset", preset, "--seed", seed, "--steps", steps, "--set", f"boids={boids}", "--threads", 2,
                "--out", d)
            want = pd.read_csv(os.path.join(d, "metrics.csv"), float_precision="round_trip")
            with open(os.path.join(d, "run.json")) as f:
                want_hash = json.load(f)["final_state_hash"]
        f = fs.Flock(preset, seed=seed, boids=boids, threads=1)
        got = f.run(steps)
        self.assertEqual(list(got.columns), list(want.columns))
        self.assertEqual(len(got), steps + 1)
        for col in want.columns:
            if got[col].dtype.kind == "i":
                self.assertTrue((got[col].to_numpy() == want[col].to_numpy()).all(), col)
                continue
            g = np.array([printed(v) if not math.isnan(v) else math.nan for v in got[col]])
            w = want[col].to_numpy(dtype=float)
            self.assertTrue(np.array_equal(g, w, equal_nan=True), f"{col}: {g[:5]} != {w[:5]}")
        self.assertEqual(f.state_hash, want_hash)
        self.assertEqual(f.steps, steps)

    def test_run_gives_metrics_csv_rows_and_the_state_hash(self):
        self.check_run("cornell-pico-predator", 3, 60, 800)

    def test_report_rules_too(self):
        self.check_run("report-baseline", 11, 40, 150)

    def test_metrics_is_the_current_row(self):
        f = fs.Flock(boids=300, seed=5)
        f.step(7)
        m = f.metrics()
        self.assertEqual(list(m), fs.metrics_columns())
        self.assertEqual(m["step"], 7)
        row = f.run(0).iloc[0].to_dict()
        for k, v in m.items():
            self.assertTrue(v == row[k] or (math.isnan(v) and math.isnan(row[k])), k)

    def test_every(self):
        f = fs.Flock(boids=200, seed=1)
        df = f.run(10, every=4)
        self.assertEqual(list(df["step"]), [0, 4, 8, 10])

    def test_step_releases_the_gil(self):
        f = fs.Flock(boids=20000, seed=4, threads=1)
        ticks = []
        stop = threading.Event()

        def count():
            while not stop.is_set():
                ticks.append(1)
                time.sleep(0.001)
        t = threading.Thread(target=count)
        t.start()
        try:
            f.step(100)
        finally:
            stop.set()
            t.join()
        self.assertGreater(len(ticks), 5, "another Python thread ran while the engine stepped")

    def test_threads_do_not_change_the_state(self):
        a = fs.Flock(boids=3000, seed=9, threads=1)
        b = fs.Flock(boids=3000, seed=9, threads=2)
        a.step(20)
        b.step(20)
        self.assertEqual(a.state_hash, b.state_hash)


class Views(unittest.TestCase):
    def test_positions_share_the_engines_memory_and_are_read_only(self):
        f = fs.Flock(boids=1000, seed=2)
        p1, p2 = f.positions, f.positions
        self.assertEqual(p1.shape, (1000, 2))
        self.assertEqual(p1.dtype, np.float32)
        self.assertTrue(np.shares_memory(p1, p2))
        self.assertFalse(p1.flags.writeable)
        with self.assertRaises(ValueError):
            p1[0, 0] = 1.0
        with self.assertRaises(ValueError):
            f.velocities[:] = 0
        v1 = f.velocities
        self.assertTrue(np.shares_memory(v1, f.velocities))
        self.assertEqual(f.ids.shape, (1000,))

    def test_a_view_follows_the_flock(self):
        f = fs.Flock(boids=500, seed=2)
        p = f.positions
        before = p.copy()
        f.step()
        self.assertFalse(np.array_equal(before, p), "the view shows the new state")
        snap = np.column_stack([f.positions, f.velocities])
        self.assertEqual(snap.shape, (500, 4))

    def test_a_view_outlives_a_reset_and_the_flock(self):
        f = fs.Flock(boids=400, seed=2)
        p = f.positions
        f.set(boids=100)
        f.reset()
        self.assertEqual(len(f), 100)
        self.assertEqual(p.shape, (400, 2))
        del f
        self.assertTrue(np.isfinite(p).all())  # the old engine is kept alive by the view

    def test_predators(self):
        f = fs.Flock("cornell-pico-predator", boids=300)
        n = f.params["predators"]
        self.assertEqual(f.predators.shape, (n, 2))
        self.assertEqual(f.predator_velocities.shape, (n, 2))


class BadInput(unittest.TestCase):
    def test_unknown_names_suggest_the_closest(self):
        with self.assertRaises(fs.UnknownNameError) as e:
            fs.Flock(visualrange=30)
        self.assertIn("did you mean visualRange?", str(e.exception))
        self.assertIsInstance(e.exception, KeyError)
        self.assertIsInstance(e.exception, ValueError)
        with self.assertRaises(fs.UnknownNameError) as e:
            fs.Flock("cornell-pico-predatr")
        self.assertIn("did you mean cornell-pico-predator?", str(e.exception))
        f = fs.Flock(boids=100)
        with self.assertRaises(fs.UnknownNameError):
            f.set(matchingfactr=0.1)
        with self.assertRaises(fs.UnknownNameError):
            fs.sweep({"visualRangee": [1, 2]}, steps=1)

    def test_out_of_range_and_nan_are_value_errors_naming_the_key_and_range(self):
        f = fs.Flock(boids=100)
        with self.assertRaises(ValueError) as e:
            f.set(visualRange=-1)
        self.assertIn("visualRange", str(e.exception))
        self.assertIn("[0, 10000] px", str(e.exception))
        with self.assertRaises(ValueError) as e:
            f.set(visualRange=float("nan"))
        self.assertIn("not a number", str(e.exception))
        with self.assertRaises(ValueError):
            fs.Flock(boids=2.5)
        with self.assertRaises(ValueError):
            fs.Flock(boids=10**30)
        with self.assertRaises(ValueError):
            f.set(rules="nosuch")
        with self.assertRaises(ValueError):
            f.step(-1)
        with self.assertRaises(ValueError):
            f.run(10, every=0)
        with self.assertRaises(ValueError):
            fs.Flock(threads=-1)

    def test_wrong_types_are_type_errors(self):
        f = fs.Flock(boids=100)
        for bad in ({"visualRange": "30"}, {"visualRange": None}, {"visualRange": [1]}, {"visualRange": True},
                    {"visualRange": np.array([1.0, 2.0])}, {"visualRange": 1j},
                    {"dynamicbias": "yes"}):
            with self.assertRaises(TypeError, msg=str(bad)):
                f.set(**bad)
        with self.assertRaises(TypeError):
            f.step("10")
        with self.assertRaises(TypeError):
            fs.Flock(3)
        with self.assertRaises(TypeError):
            fs.sweep([1, 2])
        with self.assertRaises(TypeError):
            fs.read_recording(None)

    def test_a_bad_set_changes_nothing(self):
        f = fs.Flock(boids=100)
        before = f.params
        with self.assertRaises(ValueError):
            f.set(visualRange=50, protectedRange=-3)
        self.assertEqual(f.params, before)

    def test_numbers_of_every_kind_and_choices_by_name(self):
        f = fs.Flock(boids=np.int64(100), visualRange=np.float32(30))
        self.assertEqual(f.params["visualRange"], 30.0)
        f.set(rules="report", dynamicbias=True, D_vis=float("inf"))
        self.assertEqual(f.params["rules"], "report")

    def test_reset_only_values_warn_until_reset(self):
        f = fs.Flock(boids=100)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f.set(boids=50)
        self.assertTrue(any("boids" in str(x.message) for x in w))
        self.assertEqual(len(f), 100)
        f.reset()
        self.assertEqual(len(f), 50)

    def test_missing_recording_is_file_not_found_naming_it(self):
        with self.assertRaises(FileNotFoundError) as e:
            fs.read_recording("/no/such/run.flkrec")
        self.assertEqual(e.exception.filename, "/no/such/run.flkrec")


def interrupt_after(seconds):
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    t.start()
    return t


class CtrlC(unittest.TestCase):
    def check_interrupts(self, call):
        t0 = time.monotonic()
        interrupt_after(0.5)
        with self.assertRaises(KeyboardInterrupt):
            call()
        took = time.monotonic() - t0 - 0.5
        self.assertLess(took, 1.0, f"stopped {took:.2f} s after Ctrl-C")

    def test_step_and_run_stop_within_a_second_and_the_flock_stays_usable(self):
        f = fs.Flock(boids=20000, seed=4, threads=2)
        self.check_interrupts(lambda: f.step(10**9))
        done = f.steps
        self.assertGreater(done, 0)
        f.step(2)
        self.assertEqual(f.steps, done + 2)
        self.check_interrupts(lambda: f.run(10**9, every=1000))
        self.assertEqual(len(f.run(3)), 4)

    def test_sweep_stops_within_a_second(self):
        self.check_interrupts(lambda: fs.sweep({"visualRange": [20, 30, 40, 50]}, preset="cornell-pico-predator",
                                               reps=50, steps=5000, jobs=2, boids=2000))


if __name__ == "__main__":
    unittest.main()
