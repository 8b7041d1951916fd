#!/usr/bin/env python3
"""Flash and RAM taken by groups of object files in a GNU ld map (an RP2040 image's .elf.map).

    scripts/map_sizes.py build-pico/lab_minimal.elf.map \
        link=flockscope_link.cpp.o,board_session.cpp.o codec=libflockscope_protocol.a

Each GROUP=PATTERN[,PATTERN...] adds up the input sections of the objects whose name contains
one of the patterns; the rest are reported as "everything else". Flash is what the image
stores (code, read-only data, and the initial values of data copied to RAM at boot); RAM is
what the program occupies in SRAM (data, bss, stacks, code placed in RAM). An object counts in
the first group it matches.
"""
import re
import sys


def sections(path):
    """(section, address, size, object) of every input section in the map's memory map."""
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    pending = None
    for line in lines[start:]:
        m = re.match(r"^ (\.\S+)\s*$", line)  # a long section name, its numbers on the next line
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"^ (\.\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", line)
        if m:
            name = m.group(1) or pending
            pending = None
            if name is not None and int(m.group(3), 16) > 0:
                yield name, int(m.group(2), 16), int(m.group(3), 16), m.group(4)


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv[2:]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    groups = [(g, p.split(",")) for g, p in (a.split("=", 1) for a in argv[2:])]
    totals = {g: [0, 0] for g, _ in groups}
    totals["everything else"] = [0, 0]
    for name, addr, size, obj in sections(argv[1]):
        group = next((g for g, pats in groups if any(p in obj for p in pats)), "everything else")
        in_ram = addr >= 0x20000000
        uninitialised = name.startswith((".bss", ".noinit", ".heap", ".stack", ".scratch_x.stack",
                                         ".scratch_y.stack")) or "COMMON" in name
        if in_ram:
            totals[group][1] += size
        if (in_ram and not uninitialised) or 0x10000000 <= addr < 0x20000000:
            totals[group][0] += size
    print(f"{'group':<20} {'flash B':>9} {'RAM B':>9}")
    for g, (flash, ram) in totals.items():
        print(f"{g:<20} {flash:>9,} {ram:>9,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
