#!/usr/bin/env python3
"""ELF -> UF2 for the RP2040, our own small converter (the Pico SDK's needs picotool).

UF2 (Microsoft's USB flashing format, https://github.com/microsoft/uf2): 512-byte blocks,
each carrying 256 bytes for one flash address: magic 0x0A324655, 0x9E5D5157, flags
(0x2000: family id present), target address, payload size, block number, block count,
family id (RP2040: 0xE48BFF56), 476 data bytes (256 used), magic 0x0AB16F30.

The image is taken from the ELF's loadable segments whose load (physical) addresses lie in
the RP2040's flash (0x10000000 .. 0x11000000), split into 256-byte pages.

    uf2.py firmware.elf firmware.uf2
"""
import struct
import sys

FLASH_START, FLASH_END = 0x10000000, 0x11000000
FAMILY_RP2040 = 0xE48BFF56
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


def to_uf2(pages: dict) -> bytes:
    out = bytearray()
    addrs = sorted(pages)
    for n, addr in enumerate(addrs):
        header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x00002000, addr, PAGE, n, len(addrs), FAMILY_RP2040)
        block = header + bytes(pages[addr]) + bytes(476 - PAGE) + struct.pack("<I", 0x0AB16F30)
        assert len(block) == 512
        out += block
    return bytes(out)


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], "rb") as f:
        pages = flash_image(f.read())
    data = to_uf2(pages)
    with open(sys.argv[2], "wb") as f:
        f.write(data)
    print(f"uf2.py: {sys.argv[2]}: {len(pages)} blocks, {len(data)} bytes")


if __name__ == "__main__":
    main()
