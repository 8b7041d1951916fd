// A second Cortex-M0+ core for rp2040js (1.4.1 emulates core 0 only), so that the two-core
// firmware runs as on the chip: both cores share the bus, memory and peripherals; the
// per-core parts of the chip are per core here too.
//
//   - SIO: CPUID reads the running core's number; the two mailbox FIFOs (8 words each way,
//     FIFO_ST / FIFO_WR / FIFO_RD) exist; the hardware divider has one state per core (the
//     firmware's fixed point divides on both cores at once), and so have the two
//     interpolators (the neighbour scan keeps its sums in them on both cores at once).
//   - PPB (NVIC, SCB): rp2040js reaches it through `rp2040.core`, which points at the
//     running core, so each core has its own interrupt enables, priorities and VTOR.
//   - Interrupt lines from the peripherals reach both cores' NVICs, as on the chip.
//   - Core 1 starts in the boot ROM's wait loop: the ROM's side of the SDK's launch
//     handshake (each word echoed; 0, 0, 1, vector table, stack pointer, entry) is played
//     here, and the core starts at the entry with that stack and vector table.
//   - WFE returns at once (a spurious wake-up, which the architecture allows and every WFE
//     loop tolerates): a core waiting on the other's FIFO spins instead of sleeping, so no
//     event wiring is needed. WFI still sleeps until an interrupt.
//
// Time: the cores run in turns of about `quantum` cycles, core 1 catching up with core 0,
// and the clock advances with core 0; cycle counts stay the emulator's own (125 MHz).
const SIO_CPUID = 0x000;
const SIO_FIFO_ST = 0x050;
const SIO_FIFO_WR = 0x054;
const SIO_FIFO_RD = 0x058;
const FIFO_DEPTH = 8;
const DIVIDER_FIELDS = ['divDividend', 'divDivisor', 'divQuotient', 'divRemainder', 'divCSR'];
const WFE = 0xbf20;
// Nanoseconds a system cycle: 8 at the reset clock (125 MHz, as rp2040js's own loop counts),
// 5 once a 200 MHz image has set up its PLL (rp2040js follows the clock registers in
// mcu.clkSys): the timer then sees as many cycles a microsecond as the chip would.
export const cycleNanos = (mcu) => 1e9 / mcu.clkSys;

export class DualCore {
  constructor(mcu, { quantum = 64 } = {}) {
    this.mcu = mcu;
    this.cores = [mcu.core, new mcu.core.constructor(mcu)];
    this.quantum = quantum;
    this.running = 0; // the core whose turn it is
    this.inbox = [[], []]; // inbox[c]: words core c has yet to read
    this.errors = [0, 0]; // FIFO_ST WOF/ROE bits per core
    this.divider = [this.saveDivider(), this.saveDivider()];
    const { interp0, interp1 } = mcu.sio;
    this.interps = [
      [interp0, interp1],
      [new interp0.constructor(0), new interp1.constructor(1)],
    ];
    this.launched = false;
    this.handshake = [];
    this.cycles = [0, 0]; // cycles each core has run
    // The lowest stack pointer of each core while both run, and core 1's stack top (the SP
    // of the launch): whether core 0's stack reached into core 1's (stackReport()).
    this.lowestSp = [0xffffffff, 0xffffffff];
    this.core1Top = 0;
    this.patchSio();
    const setInterrupt = (irq, value) => {
      for (const core of this.cores) core.setInterrupt(irq, value);
    };
    mcu.setInterrupt = setInterrupt;
  }

  saveDivider() {
    const s = {};
    for (const f of DIVIDER_FIELDS) s[f] = this.mcu.sio[f];
    return s;
  }

  switchTo(c) {
    if (c === this.running) return;
    this.divider[this.running] = this.saveDivider();
    Object.assign(this.mcu.sio, this.divider[c]);
    [this.mcu.sio.interp0, this.mcu.sio.interp1] = this.interps[c];
    this.running = c;
    this.mcu.core = this.cores[c];
  }

  patchSio() {
    const sio = this.mcu.sio;
    const read = sio.readUint32.bind(sio);
    const write = sio.writeUint32.bind(sio);
    sio.readUint32 = (offset) => {
      const c = this.running;
      switch (offset) {
        case SIO_CPUID:
          return c;
        case SIO_FIFO_ST: // VLD: a word to read; RDY: room to write; WOF, ROE: errors
          return (this.inbox[c].length > 0 ? 1 : 0) | (this.inbox[1 - c].length < FIFO_DEPTH ? 2 : 0) | this.errors[c];
        case SIO_FIFO_RD:
          if (this.inbox[c].length === 0) {
            this.errors[c] |= 8;
            return 0;
          }
          return this.inbox[c].shift();
        default:
          return read(offset);
      }
    };
    sio.writeUint32 = (offset, value) => {
      const c = this.running;
      switch (offset) {
        case SIO_FIFO_ST: // writing clears the sticky error flags
          this.errors[c] = 0;
          return;
        case SIO_FIFO_WR:
          if (this.inbox[1 - c].length >= FIFO_DEPTH) {
            this.errors[c] |= 4;
            return;
          }
          this.inbox[1 - c].push(value >>> 0);
          if (c === 0 && !this.launched) this.bootRom();
          return;
        default:
          write(offset, value);
      }
    };
  }

  // Core 1's boot ROM: echo each word from core 0; after 0, 0, 1, VTOR, SP, entry, start.
  bootRom() {
    const w = this.inbox[1].shift();
    this.inbox[0].push(w);
    const expect = [0, 0, 1];
    const n = this.handshake.length;
    if (n < 3 && w !== expect[n]) {
      this.handshake = w === 0 ? [0] : [];
      return;
    }
    this.handshake.push(w);
    if (this.handshake.length < 6) return;
    const [, , , vtor, sp, entry] = this.handshake;
    const core1 = this.cores[1];
    core1.VTOR = vtor >>> 0;
    core1.SP = sp >>> 0;
    this.core1Top = sp >>> 0;
    core1.PC = (entry >>> 0) & ~1;
    this.launched = true;
    this.cycles[1] = this.cycles[0];
  }

  // Runs one core for about a quantum; returns the cycles it ran (or idled).
  turn(c, budget) {
    this.switchTo(c);
    const core = this.cores[c];
    let ran = 0;
    while (ran < budget) {
      if (core.waiting) return ran > 0 ? ran : -1; // asleep in WFI: the caller decides how time passes
      const pc = core.PC & ~1;
      ran += core.executeInstruction();
      if (this.launched && core.SP >>> 0 < this.lowestSp[c]) this.lowestSp[c] = core.SP >>> 0;
      if (core.waiting && this.mcu.readUint16(pc) === WFE) core.waiting = false;
    }
    return ran;
  }

  // Each core's deepest stack use while both ran; `overlap` when core 0's stack (from
  // `core0Top` down) went below the top of core 1's, which lies under it.
  stackReport(core0Top) {
    const [low0, low1] = this.lowestSp;
    const overlap = this.core1Top < core0Top && low0 < this.core1Top;
    return { core0Bytes: core0Top - low0, core1Bytes: this.core1Top - low1, core1Top: this.core1Top, overlap };
  }

  // One round: core 0 runs a quantum and the clock follows it; core 1 catches up.
  step() {
    const { clock } = this.mcu;
    const ran0 = this.turn(0, this.quantum);
    if (ran0 >= 0) {
      clock.tick(ran0 * cycleNanos(this.mcu));
      this.cycles[0] += ran0;
    } else if (!this.launched || this.cores[1].waiting) {
      const nanos = clock.nanosToNextAlarm;
      clock.tick(nanos);
      this.cycles[0] += Math.ceil(nanos / cycleNanos(this.mcu));
      if (this.launched) this.cycles[1] = this.cycles[0];
      return;
    } else {
      // Core 0 sleeps while core 1 works: time follows core 1.
      const ran1 = this.turn(1, this.quantum);
      const dt = Math.max(ran1, 1);
      clock.tick(dt * cycleNanos(this.mcu));
      this.cycles[0] += dt;
      this.cycles[1] += dt;
      this.switchTo(0);
      return;
    }
    if (this.launched) {
      const behind = this.cycles[0] - this.cycles[1];
      if (behind > 0) {
        const ran1 = this.turn(1, behind);
        this.cycles[1] += ran1 >= 0 ? ran1 : behind;
      }
      this.switchTo(0);
    }
  }
}
