// Runs a flockscope firmware ELF in the rp2040js emulator and bridges the firmware's USB
// CDC to a pseudo-terminal (pty_bridge.py), until killed.
//
//   node run.mjs [--link PATH] [--bootrom FILE] [--report SECONDS] ELF
//
// The boot ROM is our stand-in (bootrom.S, assembled by build.sh into
// build-pico/bootrom.bin). The ELF's loadable segments that live in flash are copied into
// the emulated flash; the stand-in's reset code starts boot2 as the real ROM does. An image
// that launches core 1 (flockscope_pico_emu2) runs on two emulated cores (dual_core.mjs).
//
// USB: rp2040js's USBCDC helper plays the host. It answers every armed OUT endpoint at
// once, with zero bytes when it has none, which floods the firmware with interrupts; we
// hold that answer until there are bytes to deliver.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USBCDC } from 'rp2040js';
import { newChip, startImage } from './chip.mjs';
import { Elf } from './elf.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let link = null;
let bootromPath = join(here, '..', '..', 'build-pico', 'bootrom.bin');
let reportSeconds = 0;
let elfPath = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--link') link = args[++i];
  else if (args[i] === '--bootrom') bootromPath = args[++i];
  else if (args[i] === '--report') reportSeconds = Number(args[++i]);
  else elfPath = args[i];
}
if (!elfPath) {
  console.error('usage: run.mjs [--link PATH] [--bootrom FILE] [--report SECONDS] ELF');
  process.exit(2);
}

// ---- the chip, the boot ROM stand-in, the image
const { sim, mcu } = newChip(bootromPath);
const elf = new Elf(elfPath);
const { loaded, dual } = startImage(mcu, elf); // dual: the two-core image, both cores run

// ---- USB CDC <-> pseudo-terminal
const cdc = new USBCDC(mcu.usbCtrl);
const toDevice = []; // bytes from the app, waiting for the firmware to arm its OUT endpoint
let held = null; // an OUT request answered later
const answerRead = mcu.usbCtrl.onEndpointRead;
function topUp() {
  while (toDevice.length > 0 && !cdc.txFIFO.full) cdc.sendSerialByte(toDevice.shift());
}
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  topUp();
  if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) {
    held = { endpoint, size };
    return;
  }
  answerRead(endpoint, size);
};
function deliver() {
  topUp();
  if (held && !cdc.txFIFO.empty) {
    const { endpoint, size } = held;
    held = null;
    answerRead(endpoint, size);
  }
}

const bridgeArgs = [join(here, 'pty_bridge.py')];
if (link) bridgeArgs.push('--link', link);
const bridge = spawn('python3', bridgeArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
bridge.on('exit', (code) => {
  console.error(`emulator: pty bridge exited (${code})`);
  process.exit(1);
});
bridge.stdout.on('data', (chunk) => {
  for (const b of chunk) toDevice.push(b);
  deliver();
});
cdc.onSerialData = (buffer) => {
  bridge.stdin.write(Buffer.from(buffer));
};
cdc.onDeviceConnected = () => console.error('emulator: USB CDC configured (DTR set)');

// ---- run
const stop = () => {
  sim.stop();
  bridge.kill();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.error(`emulator: ${elfPath} (${loaded} bytes in flash), boot ROM stand-in ${bootromPath}`);
if (reportSeconds > 0) {
  const t0 = Date.now();
  setInterval(() => {
    const simSeconds = mcu.core.cycles / 125e6;
    const wall = (Date.now() - t0) / 1000;
    console.error(`emulator: ${simSeconds.toFixed(2)} s simulated in ${wall.toFixed(1)} s (${(simSeconds / wall).toFixed(3)}x), pc 0x${mcu.core.PC.toString(16)}`);
  }, reportSeconds * 1000);
}
if (dual) {
  // rp2040js's own loop steps one core: two take turns here, in slices that let the event
  // loop (the pty bridge) in between.
  const slice = () => {
    for (let i = 0; i < 15000; i++) dual.step();
    setTimeout(slice, 0);
  };
  slice();
} else {
  sim.execute();
}
