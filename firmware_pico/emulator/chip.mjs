// The emulated chip as every runner sets it up (run.mjs, measure.mjs, vga.mjs): rp2040js's
// simulator with our boot ROM stand-in, then the firmware image in flash and core 0 reset
// to boot it (with a second core for a two-core image: dual_core.mjs). Between the two
// steps a runner may still patch the image (measure_mode.mjs). stepChip() then runs it.
import { readFileSync } from 'node:fs';
import { ConsoleLogger, LogLevel, Simulator } from 'rp2040js';
import { cycleNanos, DualCore } from './dual_core.mjs';

export function newChip(bootromPath) {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  const rom = readFileSync(bootromPath);
  mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength >> 2));
  deferInterpolatorResults(mcu.sio);
  return { sim, mcu };
}

// The SIO interpolators as the board's neighbour scan uses them: ACCUM0_ADD and ACCUM1_ADD
// (two stores a visible neighbour, its x and y) and, with both lanes signed, unshifted and
// unmasked, a store to BASE_1AND0 followed by a load of POP_LANE0 (its vx and vy).
// rp2040js recomputes both lanes' results on every write and pop, many times the work of
// the adds. Here, in that plain configuration, an add only adds (modulo 2^32, as the
// chip), BASE_1AND0 only sets the bases (each half sign-extended) and POP_LANE0 only adds
// them to the accumulators and returns ACCUM0, and the interpolator is marked; its results
// are recomputed before anything else of it is read or written, so every register reads
// as rp2040js would have it. Offsets from SIO: interp0 at 0x080, interp1 at 0x0c0 (0x40
// each), POP_LANE0 +0x14, ACCUM0_ADD +0x34, ACCUM1_ADD +0x38, BASE_1AND0 +0x3c; CTRL_LANE0
// +0x2c and CTRL_LANE1 +0x30 hold 0xfc00 in the plain configuration (rp2040js keeps
// ctrl0's read-only overflow flags there too, zero when nothing is masked off).
const INTERP_BASE = 0x080;
const INTERP_END = 0x100;
const PLAIN_LANE = 0xfc00;
function deferInterpolatorResults(sio) {
  const read = sio.readUint32.bind(sio);
  const write = sio.writeUint32.bind(sio);
  const interp = (offset) => (offset < 0x0c0 ? sio.interp0 : sio.interp1);
  const settle = (it) => {
    if (it.pendingAdds) {
      it.pendingAdds = false;
      it.update();
    }
  };
  const plain = (it) => it.ctrl0 === PLAIN_LANE && it.ctrl1 === PLAIN_LANE;
  sio.readUint32 = (offset) => {
    if (offset >= INTERP_BASE && offset < INTERP_END) {
      const it = interp(offset);
      if (((offset - INTERP_BASE) & 0x3f) === 0x14 && plain(it)) {
        it.accum0 = (it.accum0 + it.base0) >>> 0;
        it.accum1 = (it.accum1 + it.base1) >>> 0;
        it.pendingAdds = true;
        return it.accum0;
      }
      settle(it);
    }
    return read(offset);
  };
  sio.writeUint32 = (offset, value) => {
    if (offset >= INTERP_BASE && offset < INTERP_END) {
      const it = interp(offset);
      const reg = (offset - INTERP_BASE) & 0x3f;
      if (reg === 0x34 || reg === 0x38) {
        if (reg === 0x34) it.accum0 = (it.accum0 + value) >>> 0;
        else it.accum1 = (it.accum1 + value) >>> 0;
        it.pendingAdds = true;
        return;
      }
      if (reg === 0x3c && plain(it)) {
        it.base0 = ((value << 16) >> 16) >>> 0;
        it.base1 = (value >> 16) >>> 0;
        it.pendingAdds = true;
        return;
      }
      settle(it);
    }
    write(offset, value);
  };
}

// Loads elf (an Elf) into mcu's flash and starts it: returns what loadFlash loaded and the
// second core (null for a one-core image).
export function startImage(mcu, elf) {
  const loaded = elf.loadFlash(mcu);
  mcu.core.reset(); // not mcu.reset(): that also erases the flash
  const dual = elf.twoCores ? new DualCore(mcu) : null;
  return { loaded, dual };
}

// Runs the chip a little: one instruction of core 0 (or, asleep, up to its next alarm),
// or with a second core one round of dual_core.mjs (about 64 cycles of each core). Returns
// the system cycles that passed.
export function stepChip(sim, mcu, dual) {
  if (dual) {
    const before = dual.cycles[0];
    dual.step();
    return dual.cycles[0] - before;
  }
  if (mcu.core.waiting) {
    const nanos = sim.clock.nanosToNextAlarm;
    sim.clock.tick(nanos);
    return Math.ceil(nanos / cycleNanos(mcu));
  }
  const n = mcu.core.executeInstruction();
  sim.clock.tick(n * cycleNanos(mcu));
  return n;
}
