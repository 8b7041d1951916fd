#!/usr/bin/env python3
"""ELF -> UF2 for the RP2040 and the RP2350, our own small converter (the Pico SDK's needs
picotool).

UF2 (Microsoft's USB flashing format, https://github.com/microsoft/uf2): 512-byte blocks,
each carrying 256 bytes for one flash address: magic 0x0A324655, 0x9E5D5157, flags
(0x2000: family id present), target address, payload size, block number, block count,
family id, 476 data bytes (256 used), magic 0x0AB16F30.

The image is taken from the ELF's loadable segments whose load (physical) addresses lie in
flash (0x10000000 .. 0x11000000 on both chips), split into 256-byte pages.

--family rp2040 (the default): family 0xE48BFF56, the image's pages only.
--family rp2350-arm-s (the Pico 2's Arm cores, secure: what the SDK builds for
PICO_PLATFORM=rp2350-arm-s): family 0xE48BFF59, after one leading block of the absolute
family (0xE48BFF57) at 0x10FFFF00, 256 bytes of 0xEF, numbered 0 of 2: the workaround for
the RP2350 A2 boot ROM's erratum E10 (a UF2 dropped onto a flash with a partition table),
which picotool adds (--abs-block) whenever the SDK's PICO_RP2350_A2_SUPPORTED is on, its
default. The RP2350's boot ROM boots a flash image only if a block holding an IMAGE_DEF
(the SDK's crt0 embeds one: PICOBIN start marker 0xFFFFDED3, an image-type item) starts in
its first 4 KiB; the converter refuses an image without one.

    uf2.py [--family rp2040|rp2350-arm-s] firmware.elf firmware.uf2
"""
import struct
import sys

FLASH_START, FLASH_END = 0x10000000, 0x11000000
FAMILIES = {"rp2040": 0xE48BFF56, "rp2350-arm-s": 0xE48BFF59}
FAMILY_ABSOLUTE = 0xE48BFF57
ABS_BLOCK_ADDR = 0x10FFFF00  # the last page of the 16 MiB flash window
PICOBIN_START, PICOBIN_ITEM_IMAGE_TYPE = 0xFFFFDED3, 0x42
PAGE = 256


def flash_image(elf: bytes) -> dict:
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise SystemExit("uf2.py: not a 32-bit little-endian ELF")
    (phoff,) = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    pages = {}
    for i in range(phnum):
        p_type, p_offset, _vaddr, p_paddr, p_filesz, _memsz, _flags, _align = struct.unpack_from(
            "<8I", elf, phoff + i * phentsize)
        if p_type != 1 or p_filesz == 0:  # PT_LOAD with file contents
            continue
        if not (FLASH_START <= p_paddr < FLASH_END):
            continue
        data = elf[p_offset:p_offset + p_filesz]
        for k, byte in enumerate(data):
            addr = p_paddr + k
            page = addr & ~(PAGE - 1)
            pages.setdefault(page, bytearray(PAGE))[addr - page] = byte
    if not pages:
        raise SystemExit("uf2.py: no loadable segment in flash")
    return pages


def has_image_def(pages: dict) -> bool:
    """Whether a PICOBIN block with an image-type item starts in the first 4 KiB of flash
    (word-aligned, as the RP2350's boot ROM searches)."""
    for page in range(FLASH_START, FLASH_START + 0x1000, PAGE):
        data = pages.get(page)
        if data is None:
            continue
        for off in range(0, PAGE - 8, 4):
            (word,) = struct.unpack_from("<I", data, off)
            if word == PICOBIN_START and data[off + 4] == PICOBIN_ITEM_IMAGE_TYPE:
                return True
    return False


def block(addr: int, data: bytes, n: int, count: int, family: int) -> bytes:
    header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x00002000, addr, PAGE, n, count, family)
    out = header + bytes(data) + bytes(476 - PAGE) + struct.pack("<I", 0x0AB16F30)
    assert len(out) == 512
    return out


def to_uf2(pages: dict, family: str = "rp2040") -> bytes:
    out = bytearray()
    if family != "rp2040":
        out += block(ABS_BLOCK_ADDR, b"\xef" * PAGE, 0, 2, FAMILY_ABSOLUTE)
    addrs = sorted(pages)
    for n, addr in enumerate(addrs):
        out += block(addr, pages[addr], n, len(addrs), FAMILIES[family])
    return bytes(out)


def main() -> None:
    args = sys.argv[1:]
    family = "rp2040"
    if len(args) == 4 and args[0] == "--family" and args[1] in FAMILIES:
        family = args[1]
        args = args[2:]
    if len(args) != 2:
        raise SystemExit(__doc__)
    with open(args[0], "rb") as f:
        pages = flash_image(f.read())
    if family != "rp2040" and not has_image_def(pages):
        raise SystemExit(f"uf2.py: {args[0]}: no IMAGE_DEF block in the first 4 KiB of flash: "
                         "the RP2350's boot ROM would not boot it")
    data = to_uf2(pages, family)
    with open(args[1], "wb") as f:
        f.write(data)
    print(f"uf2.py: {args[1]}: {len(data) // 512} blocks, {len(data)} bytes")


if __name__ == "__main__":
    main()
