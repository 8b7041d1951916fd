// A firmware ELF for the emulator runners (run.mjs, measure.mjs): its symbols, its
// functions and its loadable segments, and loading those that live in flash into rp2040js.
import { readFileSync } from 'node:fs';

export class Elf {
  constructor(path) {
    this.path = path;
    this.buf = Buffer.from(readFileSync(path));
    const b = this.buf;
    if (b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 1 || b[5] !== 1) throw new Error(`${path}: not a 32-bit LE ELF`);
    this.symbols = new Map(); // name -> value
    this.funcs = []; // { name, start, size } (Thumb bit cleared)
    const shoff = b.readUInt32LE(32), shentsize = b.readUInt16LE(46), shnum = b.readUInt16LE(48);
    for (let i = 0; i < shnum; i++) {
      const o = shoff + i * shentsize;
      if (b.readUInt32LE(o + 4) !== 2) continue; // SHT_SYMTAB
      const off = b.readUInt32LE(o + 16), size = b.readUInt32LE(o + 20), link = b.readUInt32LE(o + 24);
      const stroff = b.readUInt32LE(shoff + link * shentsize + 16);
      for (let s = off; s < off + size; s += 16) {
        const nameOff = b.readUInt32LE(s);
        let end = stroff + nameOff;
        while (b[end] !== 0) end++;
        const name = b.toString('latin1', stroff + nameOff, end);
        this.symbols.set(name, b.readUInt32LE(s + 4));
        if ((b[s + 12] & 0xf) === 2) this.funcs.push({ name, start: b.readUInt32LE(s + 4) & ~1, size: b.readUInt32LE(s + 8) });
      }
    }
    this.segments = [];
    const phoff = b.readUInt32LE(28), phentsize = b.readUInt16LE(42), phnum = b.readUInt16LE(44);
    for (let i = 0; i < phnum; i++) {
      const o = phoff + i * phentsize;
      this.segments.push({ type: b.readUInt32LE(o), offset: b.readUInt32LE(o + 4), vaddr: b.readUInt32LE(o + 8),
        paddr: b.readUInt32LE(o + 12), filesz: b.readUInt32LE(o + 16) });
    }
  }

  // Both cores run (the image launches core 1): the runners then emulate two (dual_core.mjs).
  get twoCores() {
    return this.symbols.has('multicore_launch_core1') || this.symbols.has('multicore_launch_core1_with_stack');
  }

  // Where the initial value of the object at `address` is in the file (flash, or flash
  // copied to RAM at boot), for patching before loading.
  fileOffset(address, size) {
    const seg = this.segments.find((s) => s.type === 1 && address >= s.vaddr && address + size <= s.vaddr + s.filesz);
    if (!seg) throw new Error(`${this.path}: 0x${address.toString(16)} is not in a loaded segment`);
    return seg.offset + (address - seg.vaddr);
  }

  // Copies the loadable segments that live in flash into the emulated flash; returns bytes.
  loadFlash(mcu) {
    let bytes = 0;
    for (const s of this.segments) {
      if (s.type !== 1 || s.filesz === 0 || s.paddr < 0x10000000 || s.paddr >= 0x11000000) continue;
      mcu.flash.set(this.buf.subarray(s.offset, s.offset + s.filesz), s.paddr - 0x10000000);
      bytes += s.filesz;
    }
    if (bytes === 0) throw new Error(`${this.path}: nothing to load into flash`);
    return bytes;
  }
}
