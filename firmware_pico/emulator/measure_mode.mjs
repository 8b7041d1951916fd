// The firmware's measurement mode (measure.hpp, MeasureConfig / MeasureResult), shared by the
// runners that use it (measure.mjs, vga.mjs): switched on by patching
// flockscope_measure_config in the loaded image; its results read from
// flockscope_measure_result in the emulated RAM.

// MeasureResult's fields, in order (32-bit words).
export const MEASURE_FIELDS = ['done', 'boids', 'frames', 'grid', 'scan', 'update', 'draw', 'link', 'compute',
  'scan_mismatch', 'live_frame', 'live_boids', 'live_compute', 'cores', 'hash_lo', 'hash_hi', 'framebuffer',
  'rules_mismatch', 'rules_checked', 'settings_applied', 'settings_refused', 'cases', 'cases_checked',
  'cases_mismatch'];

// Patches the ELF's flash image (before elf.loadFlash): `boids` boids spawned at boot (0:
// the lab's spawning), means over `frames` frames after `warmup`, the measuring app asking
// for `streams` (protocol stream bits; 0 or absent: every stream), `settings` ("name=value
// ..." parameters set before the spawn; at most 255 characters). Returns a reader of the
// results: () => { done, boids, ... } from mcu's RAM.
export function enableMeasureMode(elf, mcu, { boids, warmup, frames, streams = 0, settings = '' }) {
  const cfgAddr = elf.symbols.get('flockscope_measure_config');
  const resAddr = elf.symbols.get('flockscope_measure_result');
  if (cfgAddr === undefined || resAddr === undefined) {
    throw new Error('the image has no measurement symbols (rebuild with firmware_pico/build.sh)');
  }
  const text = Buffer.from(settings, 'ascii');
  if (text.length > 255) throw new Error("settings longer than 255 characters");
  const at = elf.fileOffset(cfgAddr, 16 + 256);
  elf.buf.writeUInt32LE(boids >>> 0, at);
  elf.buf.writeUInt32LE(warmup >>> 0, at + 4);
  elf.buf.writeUInt32LE(frames >>> 0, at + 8);
  elf.buf.writeUInt32LE(streams >>> 0, at + 12);
  elf.buf.fill(0, at + 16, at + 16 + 256);
  text.copy(elf.buf, at + 16);
  return () => {
    const r = {};
    MEASURE_FIELDS.forEach((f, i) => { r[f] = mcu.readUint32(resAddr + 4 * i) >>> 0; });
    return r;
  };
}
