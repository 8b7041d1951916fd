#!/usr/bin/env python3
"""A scriptable hostile board for the link tests: speaks the wire protocol (frames built with
protocol/tools/wire_ref.py, the reference written from PROTOCOL.md alone) on a
pseudo-terminal with a symlink at --link, like `flockscope board`, but sends what it is told:
names and log lines with terminal controls or invalid UTF-8, parameter values outside the
app's table, acknowledgements carrying NaN, flock_state chunks claiming more boids than its
announced capacity or leaving most of a frame out, and frames as fast as the line takes.

    hostile_board.py --link /tmp/ttyHOSTILE [--capacity N] [--boids N] [--total N] ...

Runs until SIGTERM/SIGINT (the link is then removed). Standard library only.
"""
import argparse
import os
import pathlib
import select
import signal
import struct
import sys
import time
import tty
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "protocol" / "tools"))
import wire_ref  # noqa: E402

TYPE = wire_ref.TYPE_IDS
VALUE_TYPE = {"int": 0, "real": 1, "bool": 2, "choice": 3}


class Wire:
    def __init__(self):
        self.seq = 0

    def frame(self, type_name, payload):
        """One frame with raw payload bytes (so a name or a log line can carry any byte)."""
        head = struct.pack("<BBH", wire_ref.VERSION, TYPE[type_name], self.seq)
        self.seq = (self.seq + 1) & 0xFFFF
        body = head + payload
        body += struct.pack("<I", zlib.crc32(body))
        return b"\x00" + wire_ref.cobs_encode(body) + b"\x00"

    def message(self, m):
        return self.frame(m["type"], wire_ref.build_payload(m))


def value_bytes(spec):
    """'real:nan', 'real:1e308', 'choice:99', 'bool:7', 'int:5' -> the 9 value bytes."""
    kind, text = spec.split(":", 1)
    if kind == "real":
        return bytes([VALUE_TYPE[kind]]) + struct.pack("<d", float(text))
    if kind == "int":
        return bytes([VALUE_TYPE[kind]]) + struct.pack("<q", int(text))
    return bytes([VALUE_TYPE[kind]]) + struct.pack("<Q", int(text))


def parse_args():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--link", required=True, help="symlink to make to the pseudo-terminal")
    a.add_argument("--name-hex", default="686f7374696c65", help="hello name bytes, hex (default 'hostile')")
    a.add_argument("--log-hex", default="", help="a log line sent after each hello, hex bytes")
    a.add_argument("--capacity", type=int, default=4000, help="max_boids in the hello")
    a.add_argument("--param", action="append", default=[],
                   help="ID=KIND:VALUE in the parameter set (repeatable; default 7=real:40)")
    a.add_argument("--ack", choices=["echo", "nan", "none"], default="echo",
                   help="answer a param_change: ok with the value asked, ok with NaN, or not at all")
    a.add_argument("--ack-delay", type=float, default=0,
                   help="seconds between a param_change and its answer (frames go on meanwhile)")
    a.add_argument("--boids", type=int, default=100, help="boids whose state is sent each frame")
    a.add_argument("--total", type=int, default=0, help="the flock size the chunks claim (default --boids)")
    a.add_argument("--bad-total", type=int, default=0,
                   help="every other frame's chunks claim this total instead (frames the app must drop)")
    a.add_argument("--coincident", action="store_true", help="every boid at the same point")
    a.add_argument("--fps", type=float, default=30, help="frames per second; 0: as fast as the line takes")
    a.add_argument("--flood", type=int, default=0,
                   help="between frames, as fast as the line takes: this many --log-hex lines and hellos at a time")
    return a.parse_args()


def state_chunks(wire, frame, total, n, coincident):
    out = []
    for off in range(0, n, 120):
        cnt = min(120, n - off)
        bs = []
        for k in range(off, off + cnt):
            x, y = (320.0, 240.0) if coincident else (5.0 + (k * 7) % 630, 5.0 + (k * 13 // 630 * 11 + k) % 470)
            bs.append([int(x * 16), int(y * 16), 16, 0])
        out.append(wire.message({"type": "flock_state", "seq": 0, "frame": frame, "total": total, "offset": off,
                                 "pos_shift": 4, "vel_shift": 4, "boids": bs}))
    return out


def main():
    args = parse_args()
    master, slave = os.openpty()
    tty.setraw(slave)  # 8-bit clean, as the virtual board's pty
    os.set_blocking(master, False)
    path = os.ttyname(slave)
    os.symlink(path, args.link)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))

    wire = Wire()
    params = []
    for p in args.param or ["7=real:40"]:
        pid, spec = p.split("=", 1)
        params.append(struct.pack("<H", int(pid)) + value_bytes(spec))
    name = bytes.fromhex(args.name_hex)

    def hello():
        return wire.frame("hello", struct.pack("<BBBBHIIB", wire_ref.VERSION, 2, 6, 6, 6, args.capacity, 0x1BF, len(name)) + name)

    def param_set():
        return wire.frame("param_set", struct.pack("<HHB", len(params), 0, len(params)) + b"".join(params))

    out = bytearray()
    delayed = []  # (due, answer bytes): acks held back by --ack-delay
    rx = bytearray()
    session = False
    frame = 1
    next_frame = time.monotonic()
    total = args.total or args.boids
    try:
        while not stop:
            # Read what the app sent: hellos, requests.
            r, w, _ = select.select([master], [master] if out else [], [], 0.002)
            if r:
                try:
                    rx += os.read(master, 65536)
                except (BlockingIOError, OSError):
                    pass
                *frames, rest = rx.split(b"\x00")
                rx = bytearray(rest)
                for cand in frames:
                    if not cand:
                        continue
                    try:
                        kind, m = wire_ref.classify(wire_ref.cobs_decode(cand))
                    except ValueError:
                        continue
                    if kind != "frames_ok" or m is None:
                        continue
                    if m["type"] == "hello":
                        out += hello() + param_set()
                        if args.log_hex:
                            out += wire.frame("log", bytes([2]) + bytes.fromhex(args.log_hex))
                        session = True
                    elif m["type"] == "command":
                        if m["command"] == "request_params":
                            out += param_set()
                    elif m["type"] == "param_change" and args.ack != "none":
                        value = ["real", float("nan")] if args.ack == "nan" else m["value"]
                        ack = wire.message({"type": "ack", "seq": 0, "ref_seq": m["seq"], "ref_type": "param_change",
                                            "status": "ok", "subject": m["id"], "value": value})
                        delayed.append((time.monotonic() + args.ack_delay, ack))
            while delayed and delayed[0][0] <= time.monotonic():
                out += delayed.pop(0)[1]
            if out and w:
                try:
                    n = os.write(master, out)
                    del out[:n]
                except (BlockingIOError, OSError):
                    pass
            if session and args.flood and len(out) < 65536:
                out += (wire.frame("log", bytes([3]) + bytes.fromhex(args.log_hex)) + hello()) * args.flood
            # A frame when it is due and the line has taken the last one.
            now = time.monotonic()
            if session and len(out) < 65536 and (args.fps == 0 or now >= next_frame):
                next_frame = max(next_frame + (1.0 / args.fps if args.fps else 0), now - 1)
                claim = args.bad_total if args.bad_total and frame % 2 == 0 else total
                for c in state_chunks(wire, frame, claim, args.boids, args.coincident):
                    out += c
                out += wire.message({"type": "stats", "seq": 0, "frame": frame, "fps": 30.0, "compute_us": 1000,
                                     "spare_us": 30000, "boid_count": claim, "elapsed_ms": frame * 33,
                                     "tx_dropped": 0, "flags": 0})
                frame += 1
    finally:
        try:
            if os.readlink(args.link) == path:
                os.unlink(args.link)
        except OSError:
            pass


if __name__ == "__main__":
    main()
