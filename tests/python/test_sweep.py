"""flockscope.sweep against `flockscope sweep` (the same runs.csv), and read_recording of a
board session recorded by `flockscope mirror --record`."""

import os
import tempfile
import unittest

import numpy as np
import pandas as pd

import flockscope as fs
from support import cli, virtual_board


class Sweep(unittest.TestCase):
    def test_same_runs_csv_as_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            py_dir, cli_dir = os.path.join(d, "py"), os.path.join(d, "cli")
            sw = fs.sweep({"visualRange": [20, 40, 60], "matchingfactor": [0.01, 0.05]}, preset="cornell-pico-predator",
                          reps=2, steps=60, jobs=2, boids=120, out=py_dir)
            cli("sweep", "--preset", "cornell-pico-predator", "--grid", "visualRange=20,40,60", "--grid",
                "matchingfactor=0.01,0.05", "--reps", 2, "--steps", 60, "--jobs", 2, "--set", "boids=120", "--no-plots",
                "--out", cli_dir)
            with open(os.path.join(py_dir, "runs.csv"), "rb") as a, open(os.path.join(cli_dir, "runs.csv"), "rb") as b:
                self.assertEqual(a.read(), b.read())
            want = pd.read_csv(os.path.join(cli_dir, "runs.csv"), keep_default_na=False, na_values=[""])
            pd.testing.assert_frame_equal(sw, want)
            self.assertEqual(len(sw), 12)
            self.assertIn("visualRange", sw.columns)

    def test_without_out_and_with_a_text_axis(self):
        sw = fs.sweep({"D_vis": "10:30:10"}, reps=1, steps=20, boids=50)
        self.assertEqual(list(sw["D_vis"]), [10, 20, 30])

    def test_bad_values(self):
        with self.assertRaises(ValueError):
            fs.sweep({"visualRange": [-5]}, steps=1)
        with self.assertRaises(ValueError):
            fs.sweep({"visualRange": []}, steps=1)
        with self.assertRaises(ValueError):
            fs.sweep({"visualRange": [1]}, reps=0, steps=1)
        with self.assertRaises(TypeError):
            fs.sweep({"visualRange": [None]}, steps=1)
        with self.assertRaises(TypeError):
            fs.sweep({"visualRange": [1]}, steps=1.5)


class Recordings(unittest.TestCase):
    def test_a_mirrored_session_reads_back(self):
        with tempfile.TemporaryDirectory() as d, virtual_board("--boids", 300, name="rec") as vb:
            rec_file = os.path.join(d, "session.flkrec")
            cli("mirror", "--port", vb.link, "--seconds", 1, "--out", os.path.join(d, "m"), "--record", rec_file,
                "--quiet")
            rec = fs.read_recording(rec_file)
            self.assertGreater(len(rec), 0)
            self.assertEqual(rec.source, "serial")
            self.assertEqual(rec.damage, "")
            self.assertEqual(list(rec.metrics.columns), fs.metrics_columns())
            self.assertEqual(len(rec.metrics), len(rec.states))
            self.assertEqual(rec.states[0].shape, (300, 4))
            self.assertEqual(rec.states[0].dtype, np.float32)
            self.assertTrue(np.isfinite(rec.states[-1]).all())
            self.assertTrue((rec.metrics["diameter"] > 0).all())
            self.assertIn("visualRange", rec.params)


if __name__ == "__main__":
    unittest.main()
