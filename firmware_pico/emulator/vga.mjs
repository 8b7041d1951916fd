// What a monitor on the board's VGA connector would show: runs the board's firmware
// (flockscope_pico_emu_vga: two cores and VGA, with only the emulator's switches) in
// rp2040js with its PIO clocked cycle by cycle (pio_clock.mjs) and its DMA feeding the pixel
// machine, records the three VGA pins, decodes whole frames by their sync pulses, and
// compares each picture with the framebuffer the firmware drew.
//
//   node vga.mjs [--bootrom FILE] [--boids N] [--frames F] [--set NAME=VALUE]... [--png FILE] ELF
//
// N boids (default 300, the firmware's measurement mode: seed 1, a connected app played
// by a sink), F whole frames decoded (default 3); --set: parameters set before the spawn,
// as an app's param_change would (measure.mjs's). Prints `key value` lines (the emulator
// test reads them):
//   frames               whole frames decoded (vsync fall to vsync fall)
//   line_cycles          hsync period, in system cycles (min max over all lines)
//   hsync_cycles         hsync low time (min max)
//   clock_hz             the system clock the firmware set (125 MHz, or 200 MHz for the
//                        FLOCKSCOPE_SYS_CLOCK_KHZ=200000 images)
//   lines                lines per frame (min max); refresh_hz at that clock
//   vsync_lines          vsync low time in lines (min max)
//   active_lines         lines the pixel machine draws per frame (min max)
//   first_active_line    the first one, counted from the vsync fall (min max)
//   active_offset        cycles from the hsync fall to a drawn line's first pixel (min max)
//   pixel_cycles         the clock's cycles a pixel (5 at 125 MHz, 8 at 200 MHz) when every
//                        change of the video pin falls on a pixel boundary of its line
//                        (else the first offending remainder)
//   pins                 "pio0" when GPIO 16-18 are driven by PIO 0 as outputs
//   clean_frames         frames during whose scan-out the framebuffer did not change
//   differ               pixels of the last clean frame that differ from the framebuffer
//   lit                  lit pixels in it
// --png writes that frame as the monitor would show it (640 x 480). Exit status 1 when no
// whole clean frame was decoded within the cycle limit.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newChip, startImage, stepChip } from './chip.mjs';
import { Elf } from './elf.mjs';
import { enableMeasureMode } from './measure_mode.mjs';
import { clockPio } from './pio_clock.mjs';
import { writeFramebufferPng } from './png.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let bootromPath = join(here, '..', '..', 'build-pico', 'bootrom.bin');
let boids = 300;
let wantFrames = 3;
let pngPath = null;
const settings = [];
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--bootrom') bootromPath = args[++i];
  else if (args[i] === '--boids') boids = Number(args[++i]);
  else if (args[i] === '--frames') wantFrames = Number(args[++i]);
  else if (args[i] === '--png') pngPath = args[++i];
  else if (args[i] === '--set') settings.push(args[++i]);
  else rest.push(args[i]);
}
const [elfPath] = rest;
if (!elfPath || !(wantFrames >= 1)) {
  console.error('usage: vga.mjs [--bootrom FILE] [--boids N] [--frames F] [--set NAME=VALUE]... [--png FILE] ELF');
  process.exit(2);
}

// The pins (firmware_pico/vga.hpp) and the picture (640 x 480, 1 bit a pixel, draw.hpp).
const HSYNC = 16, VSYNC = 17, VIDEO = 18;
const WIDTH = 640, HEIGHT = 480, FB_WORDS = (WIDTH * HEIGHT) / 32;
// Boot (the spawn's double-precision trigonometry in software: ~20 M cycles at 2,000 boids)
// plus the frames (2.1 M cycles each at 125 MHz, 3.4 M at 200 MHz).
const CYCLE_LIMIT = 40e6 + 4e6 * wantFrames;

// ---- the chip
const elf = new Elf(elfPath);
const { sim, mcu } = newChip(bootromPath);
// Measurement mode only for a fixed flock and the framebuffer's address: the warm-up never
// ends, so no averages are taken.
const result = enableMeasureMode(elf, mcu, { boids, warmup: 0xffffffff, frames: 1, settings: settings.join(' ') });
const { dual } = startImage(mcu, elf);
const pio = mcu.pio[0];
const pioClock = clockPio(pio);
const pixelMachine = pio.machines[2]; // vga.cpp: hsync 0, vsync 1, pixels 2
const WAIT_IRQ = 4; // rp2040js WaitType.IRQ

// ---- recording: pin changes and the pixel machine's line starts, by cycle
let cycle = 0;
let pins = (pio.pinValues >>> HSYNC) & 7;
const pinEvents = [[0, pins]]; // [cycle, bits: hsync 1, vsync 2, video 4]
const lineStarts = []; // cycles at which the pixel machine left `wait 1 irq 1`
let pixelWaiting = false;
const snapshots = []; // [cycle, framebuffer words] at every vsync fall
let fbAddr = 0;

function readFramebuffer() {
  const words = new Uint32Array(FB_WORDS);
  for (let i = 0; i < FB_WORDS; i++) words[i] = mcu.readUint32(fbAddr + 4 * i);
  return words;
}

function runCycles(n) {
  for (let i = 0; i < n; i++) {
    pioClock.tick();
    cycle++;
    const waiting = pixelMachine.waiting && pixelMachine.waitType === WAIT_IRQ;
    if (pixelWaiting && !waiting) lineStarts.push(cycle);
    pixelWaiting = waiting;
    const now = (pio.pinValues >>> HSYNC) & 7;
    if (now !== pins) {
      if ((pins & 2) && !(now & 2)) {
        // VSYNC runs only after vga_start(), by which time the firmware has said where the
        // framebuffer is.
        if (fbAddr === 0) fbAddr = result().framebuffer;
        snapshots.push([cycle, readFramebuffer()]);
      }
      pins = now;
      pinEvents.push([cycle, now]);
    }
  }
}

while (snapshots.length < wantFrames + 2 && cycle < CYCLE_LIMIT) runCycles(stepChip(sim, mcu, dual));

// ---- decoding
// The pixel clock is 25 MHz: the system clock's cycles a pixel (rp2040js follows the PLL and
// clock registers the firmware programs).
const CLOCK_HZ = mcu.clkSys;
const PIXEL_CYCLES = Math.round(CLOCK_HZ / 25e6);
// Cycles at which pin `bit` (1 hsync, 2 vsync, 4 video) went to `level` (0 falls, 1 rises).
const edges = (bit, level) => {
  const out = [];
  for (let i = 1; i < pinEvents.length; i++) {
    const was = (pinEvents[i - 1][1] & bit) ? 1 : 0, is = (pinEvents[i][1] & bit) ? 1 : 0;
    if (was !== is && is === level) out.push(pinEvents[i][0]);
  }
  return out;
};
const span = (values) => (values.length ? [Math.min(...values), Math.max(...values)] : [NaN, NaN]);
const firstAtOrAfter = (list, t) => { // index of the first element >= t (list ascending)
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

const eventTimes = pinEvents.map((p) => p[0]);
const hFalls = edges(1, 0), hRises = edges(1, 1), vFalls = edges(2, 0), vRises = edges(2, 1);
const lineCycles = [], hsyncCycles = [], linesPerFrame = [], vsyncLines = [], activeLines = [];
const firstActive = [], activeOffset = [];
let pixelRemainder = 0;
const frames = []; // { start, end, picture }
for (let f = 0; f + 1 < vFalls.length; f++) {
  const start = vFalls[f], end = vFalls[f + 1];
  const h0 = firstAtOrAfter(hFalls, start - 2), h1 = firstAtOrAfter(hFalls, end - 2);
  if (h0 === 0) continue; // no whole line before: the frame may have begun before recording
  const lines = hFalls.slice(h0, h1);
  linesPerFrame.push(lines.length);
  for (let i = 1; i < lines.length; i++) lineCycles.push(lines[i] - lines[i - 1]);
  for (const t of lines) {
    const r = hRises[firstAtOrAfter(hRises, t)];
    if (r !== undefined) hsyncCycles.push(r - t);
  }
  const vr = vRises[firstAtOrAfter(vRises, start)];
  const period = lines.length > 1 ? (lines[lines.length - 1] - lines[0]) / (lines.length - 1) : NaN;
  if (vr !== undefined) vsyncLines.push(Math.round((vr - start) / period));
  // The drawn lines: each pixel-machine start belongs to the last hsync fall before it.
  const starts = lineStarts.slice(firstAtOrAfter(lineStarts, start), firstAtOrAfter(lineStarts, end));
  activeLines.push(starts.length);
  const picture = new Uint32Array(FB_WORDS);
  starts.forEach((s, row) => {
    const line = firstAtOrAfter(lines, s) - 1;
    if (row === 0) firstActive.push(line);
    if (line >= 0) activeOffset.push(s - lines[line]);
    if (row >= HEIGHT) return;
    // Pixel x is on the video pin during [s + Px, s + Px + P): read it mid-pixel.
    const mid = PIXEL_CYCLES >> 1;
    let e = firstAtOrAfter(eventTimes, s + mid) - 1;
    for (let x = 0; x < WIDTH; x++) {
      const t = s + PIXEL_CYCLES * x + mid;
      while (e + 1 < pinEvents.length && pinEvents[e + 1][0] <= t) {
        e++;
        const into = (pinEvents[e][0] - s) % PIXEL_CYCLES;
        if (pixelRemainder === 0 && into !== 0 && ((pinEvents[e][1] ^ pinEvents[e - 1][1]) & 4)) pixelRemainder = into;
      }
      if (pinEvents[e][1] & 4) picture[row * (WIDTH / 32) + (x >> 5)] |= 1 << (x & 31);
    }
  });
  frames.push({ start, end, picture });
}

// Frames with the framebuffer unchanged from their vsync fall to the next: the picture must
// be the framebuffer exactly (the DMA reads each word shortly before it is shown).
const snapAt = new Map(snapshots.map(([t, words]) => [t, words]));
const same = (a, b) => a && b && a.length === b.length && a.every((w, i) => w === b[i]);
const clean = frames.filter((f) => same(snapAt.get(f.start), snapAt.get(f.end)));
const show = (key, [a, b]) => console.log(`${key} ${a} ${b}`);
const fnSel = (pin) => mcu.gpio[pin].functionSelect;
const pioDriven = [HSYNC, VSYNC, VIDEO].every((p) => fnSel(p) === 6 && (pio.pinDirections >>> p) & 1);
console.log(`clock_hz ${CLOCK_HZ}`);
console.log(`frames ${frames.length}`);
show('line_cycles', span(lineCycles));
show('hsync_cycles', span(hsyncCycles));
show('lines', span(linesPerFrame));
const meanLine = lineCycles.reduce((a, b) => a + b, 0) / Math.max(lineCycles.length, 1);
const meanLines = linesPerFrame.reduce((a, b) => a + b, 0) / Math.max(linesPerFrame.length, 1);
console.log(`refresh_hz ${(CLOCK_HZ / (meanLine * meanLines)).toFixed(2)}`);
show('vsync_lines', span(vsyncLines));
show('active_lines', span(activeLines));
show('first_active_line', span(firstActive));
show('active_offset', span(activeOffset));
console.log(`pixel_cycles ${pixelRemainder === 0 ? PIXEL_CYCLES : `off-by-${pixelRemainder}`}`);
console.log(`pins ${pioDriven ? 'pio0' : 'not-pio0'}`);
console.log(`clean_frames ${clean.length}`);
if (clean.length === 0) {
  console.error(`vga.mjs: no whole frame with an unchanged framebuffer in ${cycle} cycles`);
  process.exit(1);
}
const pick = clean[clean.length - 1];
const fbWords = snapAt.get(pick.end);
let differ = 0, lit = 0;
for (let i = 0; i < FB_WORDS; i++) {
  const d = pick.picture[i] ^ fbWords[i];
  for (let b = 0; b < 32; b++) {
    if ((d >>> b) & 1) differ++;
    if ((pick.picture[i] >>> b) & 1) lit++;
  }
}
console.log(`differ ${differ}`);
console.log(`lit ${lit}`);
console.log(`cycles ${cycle}`);
if (pngPath) writeFramebufferPng(pngPath, WIDTH, HEIGHT, (i) => pick.picture[i]);
