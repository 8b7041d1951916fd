// Cycles per frame of a flockscope firmware ELF in the rp2040js emulator, by phase, with
// no USB host: the firmware's measurement mode (measure.hpp) is switched on by patching
// flockscope_measure_config in the image, and its results are read from
// flockscope_measure_result in the emulated RAM. Cycle counts are the emulator's (125 MHz),
// independent of the host's load. A two-core image (flockscope_pico_emu2: it has
// multicore_launch_core1 or multicore_launch_core1_with_stack) runs on two emulated cores (dual_core.mjs); its update phase is
// timed as a whole, both cores working.
//
//   node measure.mjs [--bootrom FILE] [--warmup W] [--frames F] [--streams MASK] [--set NAME=VALUE]... [--spawn] [--profile] [--screen PNG] ELF BOIDS
//
// BOIDS boids from the boot-time spawn (seed 1, inside the margins); W frames run first
// (default 5), the means are over the next F (default 10). --spawn: the lab's rule instead
// (start with 50, add 50 a frame while the frame's work stays under 80 % of 33.3 ms);
// prints the count once it has held for 30 frames. --profile: also where the measured frames'
// cycles went, by function (one core: every instruction's cycles added to its address, so
// the shares are exact; two cores: core 0's program counter sampled every 97 steps). With
// FLOCKSCOPE_PROFILE_PCS=1 also by address, to map with arm-none-eabi-addr2line. --screen: the framebuffer (what the
// VGA output shows) after the last measured frame, as a PNG. --streams: the measuring app's
// streams (PROTOCOL.md bits: 1 state, 2 predators, 4 metrics, 8 stats, 16 log; default all),
// e.g. 12 for metrics and stats without the state. --set: a parameter (the app's names,
// e.g. minspeed=4.5), set before the flock spawns as an app's param_change would; a refused
// one fails the run.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newChip, startImage, stepChip } from './chip.mjs';
import { Elf } from './elf.mjs';
import { enableMeasureMode } from './measure_mode.mjs';
import { writeFramebufferPng } from './png.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let bootromPath = join(here, '..', '..', 'build-pico', 'bootrom.bin');
let warmup = 5;
let frames = 10;
let spawn = false;
let profile = false;
let screenPath = null;
let streams = 0;
const settings = [];
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bootrom') bootromPath = args[++i];
  else if (args[i] === '--warmup') warmup = Number(args[++i]);
  else if (args[i] === '--frames') frames = Number(args[++i]);
  else if (args[i] === '--spawn') spawn = true;
  else if (args[i] === '--profile') profile = true;
  else if (args[i] === '--screen') screenPath = args[++i];
  else if (args[i] === '--streams') streams = Number(args[++i]);
  else if (args[i] === '--set') settings.push(args[++i]);
  else rest.push(args[i]);
}
const [elfPath, boidsArg] = rest;
if (!elfPath || (!spawn && boidsArg === undefined)) {
  console.error('usage: measure.mjs [--bootrom FILE] [--warmup W] [--frames F] [--streams MASK] [--set NAME=VALUE]... [--spawn] [--profile] [--screen PNG] ELF BOIDS');
  process.exit(2);
}
const boids = spawn ? 0 : Number(boidsArg);

// ---- the chip, and the ELF with its measurement configuration patched in
const elf = new Elf(elfPath);
const { funcs } = elf;
const { sim, mcu } = newChip(bootromPath);
const result = enableMeasureMode(elf, mcu, { boids, warmup, frames, streams, settings: settings.join(' ') });
const { dual } = startImage(mcu, elf);

const t0 = Date.now();
const samples = new Map();
// One core: cycles by address, boot ROM (16 KiB: its memset and memcpy), RAM (0x20000000,
// 264 KiB with the scratch banks) and flash (0x10000000, 2 MiB), two bytes an entry (Thumb
// instructions are halfword-aligned).
const romCycles = profile && !dual ? new Float64Array(0x4000 / 2) : null;
const ramCycles = profile && !dual ? new Float64Array(0x42000 / 2) : null;
const flashCycles = profile && !dual ? new Float64Array(0x200000 / 2) : null;
let measuringNow = false;
function addressCycles() {
  if (!ramCycles) return samples;
  const out = new Map();
  romCycles.forEach((n, i) => { if (n) out.set(2 * i, n); });
  ramCycles.forEach((n, i) => { if (n) out.set(0x20000000 + 2 * i, n); });
  flashCycles.forEach((n, i) => { if (n) out.set(0x10000000 + 2 * i, n); });
  return out;
}
function printProfile() {
  if (!profile) return;
  const by = new Map();
  let total = 0;
  const counts = addressCycles();
  for (const [pc, n] of counts) {
    const f = funcs.find((g) => pc >= g.start && pc < g.start + Math.max(g.size, 2));
    const name = f ? f.name : `0x${pc.toString(16)}`;
    by.set(name, (by.get(name) || 0) + n);
    total += n;
  }
  const top = [...by.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(ramCycles ? 'profile (share of the cycles, measured frames):' : 'profile (share of core 0\'s sampled instructions, measured frames):');
  for (const [name, n] of top) console.log(`  ${(100 * n / total).toFixed(1).padStart(5)} %  ${name}`);
  if (process.env.FLOCKSCOPE_PROFILE_PCS) {
    const pcs = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5000);
    for (const [pc, n] of pcs) console.log(`  pc 0x${pc.toString(16)} ${(100 * n / total).toFixed(2)} %`);
  }
}
let lastFrame = -1, lastCount = -1, same = 0;
for (;;) {
  for (let i = 0; i < 200000; i++) {
    if (ramCycles && measuringNow) {
      const pc = mcu.core.PC;
      const n = stepChip(sim, mcu, dual);
      if (pc >= 0x20000000 && pc < 0x20042000) ramCycles[(pc - 0x20000000) >> 1] += n;
      else if (pc >= 0x10000000 && pc < 0x10200000) flashCycles[(pc - 0x10000000) >> 1] += n;
      else if (pc < 0x4000) romCycles[pc >> 1] += n;
      continue;
    }
    stepChip(sim, mcu, dual);
    if (dual) i += 15; // a round of both cores (about 64 cycles each) counts as 16 steps
    if (profile && dual && i % 97 === 0 && measuringNow) {
      const pc = mcu.core.PC;
      samples.set(pc, (samples.get(pc) || 0) + 1);
    }
  }
  const r = result();
  measuringNow = r.live_frame >= warmup;
  if (!spawn && r.done === 1) {
    const m = (c) => (c / 1e6).toFixed(3).padStart(7);
    console.log(`boids ${r.boids}  frames ${warmup}+${r.frames}  cores ${r.cores}${streams ? `  streams ${streams}` : ''}  cycles per frame (millions):`);
    const scan = r.cores > 1 ? '  (scan not split out on two cores)' : `  scan ${m(r.scan)}`;
    console.log(`  grid ${m(r.grid)}${scan}  update ${m(r.update)}  draw ${m(r.draw)}  | compute ${m(r.compute)} (${(r.compute / (mcu.clkSys / 1000)).toFixed(2)} ms at ${mcu.clkSys / 1e6} MHz, budget ${(mcu.clkSys / 30e6).toFixed(3)} = 33.3 ms)  | link ${m(r.link)}`);
    const checked = warmup > 1 ? 'first and last warm-up frames' : 'first frame';
    console.log(`  scan check (assembly vs C++, ${r.cases > 0 ? 'rare cases, ' : ''}${checked}): ${r.scan_mismatch} boids differ`);
    if (settings.length) console.log(`  settings: ${settings.join(' ')} (${r.settings_applied} applied, ${r.settings_refused} refused)`);
    console.log(r.rules_checked === 0 ? `  rules check: the fast path is off`
      : `  rules check (fast path vs general rules, ${checked}): ${r.rules_mismatch} of ${r.rules_checked} boids differ`);
    if (r.rules_checked !== 0) console.log(`  rules cases (the fast path's rare branches, before the spawn): ${r.cases_mismatch} of ${r.cases_checked} boids differ (${r.cases} placed)`);
    if (dual) {
      const st = dual.stackReport(elf.symbols.get('__StackTop'));
      console.log(`  stacks: core 0 ${st.core0Bytes} bytes deep, core 1 ${st.core1Bytes} bytes below its top 0x${st.core1Top.toString(16)}; stack overlap ${st.overlap ? 'yes' : 'no'}`);
    }
    const hex = (v) => v.toString(16).padStart(8, '0');
    console.log(`  state hash ${hex(r.hash_hi)}${hex(r.hash_lo)} (frame ${r.live_frame})`);
    if (screenPath) {
      writeFramebufferPng(screenPath, 640, 480, (i) => mcu.readUint32(r.framebuffer + 4 * i));
      console.log(`  screen: ${screenPath} (the framebuffer after frame ${r.live_frame})`);
    }
    console.log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s of emulation`);
    printProfile();
    process.exit(r.scan_mismatch === 0 && r.rules_mismatch === 0 && r.cases_mismatch === 0 && r.settings_refused === 0 ? 0 : 1);
  }
  if (spawn && r.live_frame !== lastFrame) {
    lastFrame = r.live_frame;
    same = r.live_boids === lastCount ? same + 1 : 0;
    lastCount = r.live_boids;
    if (same >= 30) {
      console.log(`spawning settled at ${r.live_boids} boids (frame ${r.live_frame}), ${(r.live_compute / 1e6).toFixed(3)} M cycles of compute + drawing in its last frame`);
      process.exit(0);
    }
  }
}
