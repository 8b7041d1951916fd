"""What the Python module's tests share: the paths ctest gives them, the command-line
program to compare against, the virtual board and the emulated firmware as child
processes on pseudo-terminals (as tests/board/vboard_process.hpp and emulator_process.hpp
start them)."""

import os
import signal
import subprocess
import tempfile
import time
import unittest

FLOCKSCOPE_BIN = os.environ.get("FLOCKSCOPE_BIN", "")
SOURCE_DIR = os.environ.get("FLOCKSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
IN_CI = os.environ.get("CI") == "true"


def require(cond, what):
    """Skips the test when `cond` is false, except under CI=true, where it fails."""
    if not cond:
        if IN_CI:
            raise AssertionError(f"{what} (CI=true)")
        raise unittest.SkipTest(what)


def cli(*args, check=True):
    """Runs the command-line program; returns its CompletedProcess."""
    return subprocess.run([FLOCKSCOPE_BIN, *map(str, args)], capture_output=True, text=True, check=check, timeout=600)


def wait_for(path, seconds, proc=None):
    """Waits until `path` exists, `seconds` pass or `proc` ends."""
    end = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < end and (proc is None or proc.poll() is None):
        time.sleep(0.05)
    return os.path.exists(path)


class _Child:
    def __init__(self, argv, link, seconds, group=False):
        self.link = link
        if os.path.lexists(link):
            os.remove(link)
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, start_new_session=group)
        self.group = group
        wait_for(link, seconds, self.proc)

    def stop(self):
        if self.proc.poll() is None:
            if self.group:
                os.killpg(self.proc.pid, signal.SIGTERM)
            else:
                self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL) if self.group else self.proc.kill()
                self.proc.wait()
        if os.path.lexists(self.link):
            os.remove(self.link)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _link_path(name):
    return os.path.join(tempfile.gettempdir(), f"flockscope-py-{name}-{os.getpid()}")


def virtual_board(*extra, name="vb"):
    """`flockscope board --link LINK --quiet EXTRA...` until the with-block ends."""
    link = _link_path(name)
    return _Child([FLOCKSCOPE_BIN, "board", "--link", link, "--quiet", *map(str, extra)], link, 2)


def emulator_elf():
    return os.path.join(SOURCE_DIR, "build-pico", "flockscope_pico_emu.elf")


def have_node():
    return subprocess.run("command -v node > /dev/null 2>&1 && command -v npm > /dev/null 2>&1", shell=True).returncode == 0


def emulated_board(elf):
    """The firmware ELF in rp2040js (firmware_pico/emulate.sh), its own process group."""
    link = _link_path("emu")
    return _Child(["/bin/bash", os.path.join(SOURCE_DIR, "firmware_pico", "emulate.sh"), "--link", link, elf], link, 120,
                  group=True)
