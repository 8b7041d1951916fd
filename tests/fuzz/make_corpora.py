#!/usr/bin/env python3
"""Regenerates the seed corpora of the board sides' fuzz targets (tests/fuzz/corpus/<target>/)
from the protocol's test vectors: what an app sends a board.

Each file is one input (fuzz_checks.hpp): byte 0 picks how the bytes are cut into reads, the
rest is the app's bytes. Seeds: the app's hello followed by each request vector; every request
and error vector in one stream; that stream damaged (flipped, dropped, inserted bytes, cut
short); a flood of one request. Both targets get the same seeds. Deterministic: rerunning it
changes nothing. Files named regress_* (the fuzzer's findings kept as tests) are left alone.

    python3 tests/fuzz/make_corpora.py
"""
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
VECTORS = HERE.parent.parent / "protocol" / "test_vectors"
TARGETS = ("board_receive", "link_receive")


def read_hex(path):
    data = bytearray()
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        data += bytes(int(t, 16) for t in line.split())
    return bytes(data)


def seeds():
    v = {p.stem: read_hex(p) for p in sorted(VECTORS.glob("*.hex"))}
    hello = v["hello_app"]
    requests = [n for n in v if n.startswith(("param_change", "param_set", "command_"))]
    errors = [n for n in v if n.startswith("err_")]
    out = {}
    for i, name in enumerate(requests + errors):
        out["hello_" + name] = bytes([i * 5 % 256]) + hello + v[name]
    stream = hello + b"".join(v[n] for n in requests + errors) + hello
    out["stream_all"] = b"\x3f" + stream
    out["stream_byte_reads"] = b"\x00" + stream
    rng = random.Random(7)
    for k in range(4):
        b = bytearray(stream)
        for _ in range(1 + k):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        out[f"stream_flipped_{k}"] = bytes([64 + k]) + bytes(b)
    for k in range(3):
        b = bytearray(stream)
        for _ in range(1 + k):
            del b[rng.randrange(len(b))]
        out[f"stream_dropped_{k}"] = bytes([128 + k]) + bytes(b)
    for k in range(3):
        b = bytearray(stream)
        pos = rng.randrange(len(b))
        b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        out[f"stream_inserted_{k}"] = bytes([192 + k]) + bytes(b)
    out["stream_cut"] = b"\x11" + stream[: len(stream) // 2]
    out["flood_param_change"] = b"\xff" + hello + v["param_change"] * 40
    out["no_hello"] = b"\x20" + b"".join(v[n] for n in requests)
    out["empty"] = b""
    return out


def main():
    s = seeds()
    for target in TARGETS:
        d = HERE / "corpus" / target
        d.mkdir(parents=True, exist_ok=True)
        for old in d.iterdir():
            if not old.name.startswith("regress_"):
                old.unlink()
        for name, data in s.items():
            (d / name).write_bytes(data)


if __name__ == "__main__":
    main()
