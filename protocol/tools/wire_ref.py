#!/usr/bin/env python3
"""Reference implementation of the flockscope wire protocol, written from
protocol/PROTOCOL.md alone (standard library only), and a checker for the test
vectors.

    python3 wire_ref.py check protocol/test_vectors    # every vector: decode + re-encode
    python3 wire_ref.py decode < capture.bin           # print the messages of a capture

It exists to prove the spec is implementable without the C++ code, and to be a
handy tool for looking at captures. It is not fast.
"""
import json
import math
import pathlib
import struct
import sys
import zlib

VERSION = 2
MAX_FRAME = 1024

TYPES = {0x01: "hello", 0x02: "param_set", 0x03: "param_change", 0x04: "ack", 0x05: "command",
         0x10: "flock_state", 0x11: "predators", 0x12: "metrics", 0x13: "stats", 0x14: "surroundings",
         0x20: "log"}
TYPE_IDS = {v: k for k, v in TYPES.items()}
ROLES = {0: "app", 1: "board", 2: "virtual_board"}
STATUS = {0x00: "ok", 0x01: "ok_at_reset", 0x10: "out_of_range", 0x11: "unknown_id",
          0x12: "read_only", 0x13: "wrong_type", 0x14: "busy", 0x15: "unknown_type",
          0x16: "invalid", 0x1F: "other"}
COMMANDS = {1: "reset", 2: "pause", 3: "resume", 4: "set_boid_count", 5: "predators",
            6: "request_params", 7: "streams"}
VALUE_TYPES = {0: "int", 1: "real", 2: "bool", 3: "choice"}


def name_of(table, v):
    return table.get(v, v)


def id_of(table, v):
    if isinstance(v, int):
        return v
    return {name: k for k, name in table.items()}[v]


class Malformed(Exception):
    pass


# ---- COBS (section 2) -------------------------------------------------------------------

def cobs_encode(data):
    out = bytearray()
    data = bytes(data) + b"\x00"  # the virtual trailing zero
    i = 0
    while i < len(data):
        j = i
        while j < len(data) and data[j] != 0 and j - i < 254:
            j += 1
        run = data[i:j]
        if len(run) == 254:
            out += b"\xff" + run  # stands for no zero
            i = j
        else:
            out += bytes([len(run) + 1]) + run  # stands for run + its zero
            i = j + 1
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        i += 1
        if code == 0 or i + code - 1 > len(data):
            raise ValueError("broken COBS block")
        out += data[i:i + code - 1]
        i += code - 1
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


# ---- payload layouts (section 8) -----------------------------------------------------------

def get_value(p, off):
    t = p[off]
    raw = p[off + 1:off + 9]
    kind = VALUE_TYPES.get(t, t)
    if kind == "int":
        return ["int", struct.unpack("<q", raw)[0]]
    if kind == "real":
        return ["real", struct.unpack("<d", raw)[0]]
    return [kind, struct.unpack("<Q", raw)[0]]


def put_value(v):
    kind, x = v
    t = id_of(VALUE_TYPES, kind)
    if kind == "int":
        return bytes([t]) + struct.pack("<q", x)
    if kind == "real":
        return bytes([t]) + struct.pack("<d", float(x))
    return bytes([t]) + struct.pack("<Q", x)


def f32(p, off):
    return struct.unpack_from("<f", p, off)[0]


def boids(p, off, n):
    return [list(struct.unpack_from("<hhhh", p, off + 8 * i)) for i in range(n)]


def need(cond):
    if not cond:
        raise Malformed()


def parse_hello(p, foreign):
    need(len(p) >= 15)
    n = p[14]
    need(n <= 32)
    need(len(p) >= 15 + n if foreign else len(p) == 15 + n)
    return {"protocol_version": p[0], "role": name_of(ROLES, p[1]), "sw_major": p[2], "sw_minor": p[3],
            "sw_patch": struct.unpack_from("<H", p, 4)[0], "max_boids": struct.unpack_from("<I", p, 6)[0],
            "capabilities": struct.unpack_from("<I", p, 10)[0], "name": p[15:15 + n].decode("utf-8")}


def parse_payload(kind, p):
    if kind == "hello":
        return parse_hello(p, False)
    if kind == "param_set":
        need(len(p) >= 5)
        total, first, count = struct.unpack_from("<HHB", p, 0)
        need(count <= 64 and len(p) == 5 + 11 * count and first + count <= total)
        params = []
        for i in range(count):
            o = 5 + 11 * i
            params.append([struct.unpack_from("<H", p, o)[0]] + get_value(p, o + 2))
        return {"total": total, "first": first, "params": params}
    if kind == "param_change":
        need(len(p) == 11)
        return {"id": struct.unpack_from("<H", p, 0)[0], "value": get_value(p, 2)}
    if kind == "ack":
        need(len(p) == 15)
        ref_seq, ref_type, status, subject = struct.unpack_from("<HBBH", p, 0)
        return {"ref_seq": ref_seq, "ref_type": name_of(TYPES, ref_type), "status": name_of(STATUS, status),
                "subject": subject, "value": get_value(p, 6)}
    if kind == "command":
        need(len(p) == 5)
        return {"command": name_of(COMMANDS, p[0]), "arg": struct.unpack_from("<I", p, 1)[0]}
    if kind == "flock_state":
        need(len(p) >= 17)
        frame, total, offset, count, pos_shift, vel_shift, flags = struct.unpack_from("<IIIHBBB", p, 0)
        need(count <= 120 and pos_shift <= 15 and vel_shift <= 15 and flags & ~1 == 0)
        need(offset + count <= total)
        groups = flags & 1
        need(len(p) == 17 + 8 * count + ((count + 3) // 4 if groups else 0))
        d = {"frame": frame, "total": total, "offset": offset, "pos_shift": pos_shift,
             "vel_shift": vel_shift, "boids": boids(p, 17, count)}
        if groups:
            g = p[17 + 8 * count:]
            d["groups"] = [(g[i // 4] >> (2 * (i % 4))) & 3 for i in range(count)]
            if count % 4:
                need(g[count // 4] >> (2 * (count % 4)) == 0)
        return d
    if kind == "predators":
        need(len(p) >= 7)
        frame, count, pos_shift, vel_shift = struct.unpack_from("<IBBB", p, 0)
        need(count <= 16 and pos_shift <= 15 and vel_shift <= 15 and len(p) == 7 + 8 * count)
        return {"frame": frame, "pos_shift": pos_shift, "vel_shift": vel_shift,
                "predators": boids(p, 7, count)}
    if kind == "surroundings":
        need(len(p) >= 7)
        frame, nfood, naims, pos_shift = struct.unpack_from("<IBBB", p, 0)
        need(nfood <= 16 and naims <= 16 and pos_shift <= 15 and len(p) == 7 + 4 * nfood + 5 * naims)
        food = [list(struct.unpack_from("<hh", p, 7 + 4 * i)) for i in range(nfood)]
        aims = [list(struct.unpack_from("<Bhh", p, 7 + 4 * nfood + 5 * i)) for i in range(naims)]
        need(all(a[0] & ~1 == 0 for a in aims))
        return {"frame": frame, "pos_shift": pos_shift, "food": food, "aims": aims}
    if kind == "metrics":
        need(len(p) == 28)
        return {"frame": struct.unpack_from("<I", p, 0)[0], "diameter": f32(p, 4), "centroid_x": f32(p, 8),
                "centroid_y": f32(p, 12), "polarisation": f32(p, 16), "mean_speed": f32(p, 20),
                "boids": struct.unpack_from("<I", p, 24)[0]}
    if kind == "stats":
        need(len(p) == 29)
        frame, fps, compute, spare, count, elapsed, dropped, flags = struct.unpack_from("<IfIiIIIB", p, 0)
        need(flags & ~7 == 0)
        return {"frame": frame, "fps": fps, "compute_us": compute, "spare_us": spare, "boid_count": count,
                "elapsed_ms": elapsed, "tx_dropped": dropped, "flags": flags}
    if kind == "log":
        need(1 <= len(p) <= 256)
        return {"level": p[0], "text": p[1:].decode("utf-8")}
    raise AssertionError(kind)


def build_payload(m):
    kind = m["type"]
    if kind == "hello":
        name = m["name"].encode("utf-8")
        return struct.pack("<BBBBHIIB", m["protocol_version"], id_of(ROLES, m["role"]), m["sw_major"],
                           m["sw_minor"], m["sw_patch"], m["max_boids"], m["capabilities"], len(name)) + name
    if kind == "param_set":
        out = struct.pack("<HHB", m["total"], m["first"], len(m["params"]))
        for pid, vt, v in m["params"]:
            out += struct.pack("<H", pid) + put_value([vt, v])
        return out
    if kind == "param_change":
        return struct.pack("<H", m["id"]) + put_value(m["value"])
    if kind == "ack":
        return struct.pack("<HBBH", m["ref_seq"], id_of(TYPES, m["ref_type"]), id_of(STATUS, m["status"]),
                           m["subject"]) + put_value(m["value"])
    if kind == "command":
        return struct.pack("<BI", id_of(COMMANDS, m["command"]), m["arg"])
    if kind == "flock_state":
        groups = "groups" in m
        out = struct.pack("<IIIHBBB", m["frame"], m["total"], m["offset"], len(m["boids"]), m["pos_shift"],
                          m["vel_shift"], 1 if groups else 0)
        out += b"".join(struct.pack("<hhhh", *b) for b in m["boids"])
        if groups:
            g = bytearray((len(m["groups"]) + 3) // 4)
            for i, v in enumerate(m["groups"]):
                g[i // 4] |= v << (2 * (i % 4))
            out += g
        return out
    if kind == "predators":
        return struct.pack("<IBBB", m["frame"], len(m["predators"]), m["pos_shift"], m["vel_shift"]) + b"".join(
            struct.pack("<hhhh", *b) for b in m["predators"])
    if kind == "surroundings":
        return (struct.pack("<IBBB", m["frame"], len(m["food"]), len(m["aims"]), m["pos_shift"]) +
                b"".join(struct.pack("<hh", *f) for f in m["food"]) +
                b"".join(struct.pack("<Bhh", *a) for a in m["aims"]))
    if kind == "metrics":
        return struct.pack("<IfffffI", m["frame"], m["diameter"], m["centroid_x"], m["centroid_y"],
                           m["polarisation"], m["mean_speed"], m["boids"])
    if kind == "stats":
        return struct.pack("<IfIiIIIB", m["frame"], m["fps"], m["compute_us"], m["spare_us"], m["boid_count"],
                           m["elapsed_ms"], m["tx_dropped"], m["flags"])
    if kind == "log":
        return bytes([m["level"]]) + m["text"].encode("utf-8")
    raise ValueError(kind)


# ---- frames (sections 3, 5) and the stream (section 2) ---------------------------------------

def encode(m):
    """A message dict -> wire bytes (leading 0x00, COBS, trailing 0x00)."""
    frame = struct.pack("<BBH", m.get("version", VERSION), id_of(TYPES, m["type"]), m["seq"]) + build_payload(m)
    frame += struct.pack("<I", zlib.crc32(frame))
    assert len(frame) <= MAX_FRAME
    return b"\x00" + cobs_encode(frame) + b"\x00"


def classify(frame):
    """An un-stuffed frame -> (counter, message dict or None)."""
    if len(frame) > MAX_FRAME:
        return "oversize", None
    if len(frame) < 8:
        return "bad_framing", None
    if zlib.crc32(frame[:-4]) != struct.unpack_from("<I", frame, len(frame) - 4)[0]:
        return "bad_crc", None
    version, type_id, seq = struct.unpack_from("<BBH", frame, 0)
    payload = frame[4:-4]
    head = {"type": name_of(TYPES, type_id), "version": version, "seq": seq}
    if version != VERSION:
        if type_id == 0x01:
            try:
                return "version_mismatch", {**head, **parse_hello(payload, True)}
            except Malformed:
                pass
        return "version_mismatch", None
    if type_id not in TYPES:
        return "unknown_type", head
    try:
        return "frames_ok", {**head, **parse_payload(TYPES[type_id], payload)}
    except Malformed:
        return "malformed", None


def decode_stream(data):
    """Wire bytes -> list of (counter, message or None), one per non-empty candidate frame."""
    out = []
    for candidate in bytes(data).split(b"\x00"):
        if not candidate:
            continue  # runs of delimiters, or nothing yet
        try:
            frame = cobs_decode(candidate)
        except ValueError:
            out.append(("bad_framing", None))
            continue
        out.append(classify(frame))
    return out


# ---- vector checking (section 15) --------------------------------------------------------------

def same(a, b):
    """JSON value comparison that treats NaN as equal to NaN and compares f32 fields
    at f32 precision (the JSON text is the shortest f32 round-trip form)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or struct.pack("<f", a) == struct.pack("<f", b)
    return a == b


def read_vector(path):
    comments, data = [], bytearray()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            comments.append(line[1:].strip())
        elif line.strip():
            data += bytes(int(t, 16) for t in line.split())
    return comments, bytes(data)


def check(directory):
    files = sorted(pathlib.Path(directory).glob("*.hex"))
    failures = 0
    for path in files:
        comments, data = read_vector(path)
        decoded = [json.loads(c[len("decoded:"):]) for c in comments if c.startswith("decoded:")]
        expect = [c[len("expect:"):].strip() for c in comments if c.startswith("expect:")]
        results = decode_stream(data)
        problems = []
        if len(results) != 1:
            problems.append(f"{len(results)} candidate frames, expected 1")
        else:
            counter, msg = results[0]
            want_counter = expect[0] if expect else "frames_ok"
            if counter != want_counter:
                problems.append(f"counted as {counter}, expected {want_counter}")
            if decoded:
                if msg is None or not same(decoded[0], msg):
                    problems.append(f"decoded {msg}\n      expected {decoded[0]}")
                elif counter == "frames_ok" and encode(decoded[0]) != data:
                    problems.append("re-encoding the decoded fields gives other bytes:\n      "
                                    + encode(decoded[0]).hex(" "))
            elif msg is not None:
                problems.append(f"delivered {msg}, but the vector has no decoded: line")
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {path.name}")
        for p in problems:
            print("     " + p)
        failures += bool(problems)
    if not files:
        print(f"no .hex files in {directory}")
        return 1
    print(f"{len(files) - failures}/{len(files)} vectors agree with the reference implementation")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "check":
        return check(argv[2])
    if len(argv) == 2 and argv[1] == "decode":
        for counter, msg in decode_stream(sys.stdin.buffer.read()):
            print(counter, json.dumps(msg) if msg else "")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
