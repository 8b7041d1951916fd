#!/usr/bin/env python3
"""Regenerates the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the
protocol's test vectors. Each file is one input (fuzz_checks.hpp: byte 0 picks how the rest
is cut up, the rest is fed to the reader).

decoder: every vector alone, all of the small ones as one stream, that stream damaged
(flipped, dropped, inserted bytes, cut short), and a few odd streams.
board_receive, link_receive (the same seeds): what an app sends a board: its hello followed
by each request or error vector, all of them as one stream, that stream damaged, a flood of
one request, requests without a hello.

Deterministic: rerunning it changes nothing. Files named regress_* (the fuzzer's findings
kept as tests) are left alone.

    python3 tests/fuzz/make_corpora.py
"""
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
VECTORS = HERE.parent.parent / "protocol" / "test_vectors"


def read_hex(path):
    data = bytearray()
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        data += bytes(int(t, 16) for t in line.split())
    return bytes(data)


def damaged(stream, rng, flips, drops, inserts, max_insert, first_byte):
    """The stream with 1, 2, ... bytes flipped, then dropped, then a run inserted: name -> input
    (each input's byte 0 from first_byte(kind, k))."""
    out = {}
    for k in range(flips):
        b = bytearray(stream)
        for _ in range(1 + k):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        out[f"stream_flipped_{k}"] = bytes([first_byte("flipped", k)]) + bytes(b)
    for k in range(drops):
        b = bytearray(stream)
        for _ in range(1 + k):
            del b[rng.randrange(len(b))]
        out[f"stream_dropped_{k}"] = bytes([first_byte("dropped", k)]) + bytes(b)
    for k in range(inserts):
        b = bytearray(stream)
        pos = rng.randrange(len(b))
        b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, max_insert)))
        out[f"stream_inserted_{k}"] = bytes([first_byte("inserted", k)]) + bytes(b)
    return out


def decoder_seeds(v):
    out = {}
    for i, (name, data) in enumerate(v.items()):
        if len(data) <= 1100:
            out["vec_" + name] = bytes([i]) + data
    stream = b"".join(d for d in v.values() if len(d) < 300)
    out["stream_all_small"] = b"\x07" + stream
    base = {"flipped": 10, "dropped": 20, "inserted": 30}
    out.update(damaged(stream, random.Random(1), 6, 4, 4, 60, lambda kind, k: base[kind] + k))
    out["stream_truncated"] = b"\x28" + stream[: len(stream) // 2] + stream
    out["empty"] = b"\x00"
    out["zeros"] = b"\x01" + b"\x00" * 64
    out["no_zeros"] = b"\x02" + bytes(1 + (i * 37) % 255 for i in range(2100))
    out["ff_blocks"] = b"\x03\x00" + b"\xff" + bytes(range(1, 255)) + b"\x01\x00"
    return out


def board_seeds(v):
    hello = v["hello_app"]
    requests = [n for n in v if n.startswith(("param_change", "param_set", "command_"))]
    errors = [n for n in v if n.startswith("err_")]
    out = {}
    for i, name in enumerate(requests + errors):
        out["hello_" + name] = bytes([i * 5 % 256]) + hello + v[name]
    stream = hello + b"".join(v[n] for n in requests + errors) + hello
    out["stream_all"] = b"\x3f" + stream
    out["stream_byte_reads"] = b"\x00" + stream
    base = {"flipped": 64, "dropped": 128, "inserted": 192}
    out.update(damaged(stream, random.Random(7), 4, 3, 3, 40, lambda kind, k: base[kind] + k))
    out["stream_cut"] = b"\x11" + stream[: len(stream) // 2]
    out["flood_param_change"] = b"\xff" + hello + v["param_change"] * 40
    out["no_hello"] = b"\x20" + b"".join(v[n] for n in requests)
    out["empty"] = b""
    return out


def main():
    v = {p.stem: read_hex(p) for p in sorted(VECTORS.glob("*.hex"))}
    board = board_seeds(v)
    for target, seeds in (("decoder", decoder_seeds(v)), ("board_receive", board), ("link_receive", board)):
        d = HERE / "corpus" / target
        d.mkdir(parents=True, exist_ok=True)
        for old in d.iterdir():
            if not old.name.startswith("regress_"):
                old.unlink()
        for name, data in seeds.items():
            (d / name).write_bytes(data)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
