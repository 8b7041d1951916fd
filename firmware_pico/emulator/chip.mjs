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
  return { sim, mcu };
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
