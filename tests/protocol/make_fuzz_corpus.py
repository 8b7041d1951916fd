#!/usr/bin/env python3
"""Regenerates the seed corpus in tests/protocol/fuzz_corpus/ from the test vectors.

Each corpus file is one fuzz input: byte 0 picks the chunking of the second decoder
(see fuzz_check.cpp), the rest is fed to the decoders. Seeds: every vector alone,
all of them as one stream, and a few damaged streams (flipped, dropped, inserted,
truncated bytes). Deterministic, so rerunning it changes nothing.

    python3 tests/protocol/make_fuzz_corpus.py
"""
import pathlib
import random

HERE = pathlib.Path(__file__).resolve().parent
VECTORS = HERE.parent.parent / "protocol" / "test_vectors"
OUT = HERE / "fuzz_corpus"


def read_hex(path):
    data = bytearray()
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        data += bytes(int(t, 16) for t in line.split())
    return bytes(data)


def main():
    OUT.mkdir(exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    vectors = {p.stem: read_hex(p) for p in sorted(VECTORS.glob("*.hex"))}
    seeds = {}
    for i, (name, data) in enumerate(vectors.items()):
        if len(data) <= 1100:
            seeds["vec_" + name] = bytes([i]) + data
    small = [d for n, d in vectors.items() if len(d) < 300]
    stream = b"".join(small)
    seeds["stream_all_small"] = b"\x07" + stream
    rng = random.Random(1)
    for k in range(6):
        b = bytearray(stream)
        for _ in range(1 + k):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        seeds[f"stream_flipped_{k}"] = bytes([10 + k]) + bytes(b)
    for k in range(4):
        b = bytearray(stream)
        for _ in range(1 + k):
            del b[rng.randrange(len(b))]
        seeds[f"stream_dropped_{k}"] = bytes([20 + k]) + bytes(b)
    for k in range(4):
        b = bytearray(stream)
        pos = rng.randrange(len(b))
        b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        seeds[f"stream_inserted_{k}"] = bytes([30 + k]) + bytes(b)
    seeds["stream_truncated"] = b"\x28" + stream[: len(stream) // 2] + stream
    seeds["empty"] = b"\x00"
    seeds["zeros"] = b"\x01" + b"\x00" * 64
    seeds["no_zeros"] = b"\x02" + bytes(1 + (i * 37) % 255 for i in range(2100))
    seeds["ff_blocks"] = b"\x03\x00" + b"\xff" + bytes(range(1, 255)) + b"\x01\x00"
    for name, data in seeds.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(seeds)} seeds to {OUT}")


if __name__ == "__main__":
    main()
