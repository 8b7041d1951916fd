"""flockscope.Board over a pseudo-terminal: against the virtual board (`flockscope board`)
and, in the emulator tier, against the firmware running in rp2040js. A set is
acknowledged, a value the board refuses raises with its reason, frames arrive."""

import os
import unittest

import numpy as np

import flockscope as fs
from support import emulated_board, emulator_elf, have_node, require, virtual_board


class BoardChecks:
    """The same checks on any board; `open` gives a connected Board."""

    def check_set_reject_frames(self, b, boids):
        b.set(visualRange=30)
        self.assertEqual(b.params["visualRange"], 30.0)
        # The app's table allows up to 10000 px; both boards' limits are tighter.
        with self.assertRaises(fs.BoardError) as e:
            b.set(visualRange=1000)
        self.assertIn("out of range", str(e.exception))
        self.assertIn("visualRange=1000", str(e.exception))
        self.assertEqual(b.params["visualRange"], 30.0)
        # Outside this app's own table: refused before anything is sent.
        with self.assertRaises(ValueError):
            b.set(visualRange=-1)
        with self.assertRaises(TypeError):
            b.set(visualRange="30")
        with self.assertRaises(fs.UnknownNameError):
            b.set(visualrange=30)
        frames = list(b.frames(count=3, timeout=self.frame_timeout))
        self.assertEqual(len(frames), 3)
        f = frames[-1]
        self.assertEqual(f.positions.shape, (len(f.positions), 2))
        self.assertEqual(f.positions.dtype, np.float32)
        self.assertGreater(len(f.positions), 0)
        self.assertLessEqual(len(f.positions), boids)
        self.assertEqual(list(f.metrics), fs.metrics_columns())
        self.assertEqual(f.metrics["step"], f.frame)
        self.assertGreater(f.metrics["diameter"], 0)
        self.assertTrue(all(a.frame < c.frame for a, c in zip(frames, frames[1:])))
        st = b.status()
        print(f"\n{st['board']}: last request answered in {st['last_rtt_ms']:.1f} ms, frame {f.frame} with "
              f"{len(f.positions)} boids, diameter {f.metrics['diameter']:.1f} px")


class VirtualBoard(unittest.TestCase, BoardChecks):
    frame_timeout = 5

    def test_set_acknowledged_rejected_with_reason_and_frames(self):
        with virtual_board("--boids", 300) as vb, fs.Board(vb.link) as b:
            self.assertEqual(b.status()["state"], "connected")
            self.check_set_reject_frames(b, 300)
            frames = list(b.frames(seconds=0.5))
            self.assertGreater(len(frames), 5)  # 30 fps

    def test_food_and_aims_of_the_lab_extensions(self):
        with virtual_board("--boids", 300, "--preset", "cornell-final-project") as vb, fs.Board(vb.link) as b:
            f = list(b.frames(count=3, timeout=self.frame_timeout))[-1]
            self.assertEqual(f.food.shape, (2, 2))
            self.assertEqual(f.aims.shape, (1, 3))
            self.assertTrue(np.all((f.food >= 0) & (f.food <= [640, 480])))
            self.assertFalse(np.isnan(f.metrics["food_distance"]))

    def test_missing_port_is_file_not_found_naming_it(self):
        with self.assertRaises(FileNotFoundError) as e:
            fs.Board("/dev/no-such-board")
        self.assertEqual(e.exception.filename, "/dev/no-such-board")
        self.assertIn("no-such-board", str(e.exception))

    def test_silent_port_times_out(self):
        with self.assertRaises(TimeoutError) as e:
            fs.Board("/dev/null", connect_timeout=0.5)
        self.assertIn("/dev/null", str(e.exception))


class EmulatedFirmware(unittest.TestCase, BoardChecks):
    # rp2040js runs the firmware slower than real time: the link's timeouts are stretched.
    frame_timeout = 60

    def test_set_acknowledged_rejected_with_reason_and_frames(self):
        require(os.path.exists(emulator_elf()), f"no {emulator_elf()}: run firmware_pico/build.sh")
        require(have_node(), "node/npm missing")
        with emulated_board(emulator_elf()) as emu:
            self.assertTrue(os.path.exists(emu.link), "the emulator made no pty link")
            with fs.Board(emu.link, connect_timeout=90, request_timeout=10, silence=30) as b:
                self.check_set_reject_frames(b, 4000)


if __name__ == "__main__":
    unittest.main()
