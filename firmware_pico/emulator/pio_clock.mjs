// PIO state machines in step with the system clock, for runners that look at what the PIO
// puts on the pins (vga.mjs). rp2040js 1.4.1 runs each PIO block on a timer of its own,
// ignores the clock divider and only counts an instruction's delay cycles (the instruction
// after it runs at once); its step() also runs the state machines that are not enabled.
// clockPio() keeps the emulator's instruction semantics and adds what timing needs:
//
//   - the block is stepped by the caller, once per system clock cycle (tick()), not by a
//     timer of its own;
//   - a disabled state machine does nothing;
//   - each machine runs one cycle every CLKDIV (integer + 8-bit fraction) system cycles,
//     and CTRL's CLKDIV_RESTART lines the dividers up;
//   - an instruction's delay [n], and the delay of a wait once it is satisfied, stall the
//     machine n cycles before its next instruction.
//
// One difference from the chip stays: a wait that becomes satisfied completes in the same
// cycle as the instruction after it (rp2040js runs both in one step), so a chain of
// waits runs a cycle early per wait.
export function clockPio(pio) {
  pio.run = () => {}; // never on its own timer
  if (pio.runTimer) clearTimeout(pio.runTimer);
  pio.runTimer = null;
  for (const sm of pio.machines) {
    const step = sm.step.bind(sm);
    sm.phase = 0; // fraction of the divider passed, in 1/256 system cycles
    sm.stall = 0; // delay cycles still to wait
    sm.clkDivRestart = () => { sm.phase = 0; }; // CTRL's CLKDIV_RESTART (pio_enable_sm_mask_in_sync)
    sm.step = () => {
      if (!sm.enabled) return;
      const div = ((sm.clockDivInt || 0x10000) << 8) | sm.clockDivFrac;
      sm.phase += 256;
      if (sm.phase < div) return;
      sm.phase -= div;
      if (sm.stall > 0) {
        sm.stall--;
        return;
      }
      // The emulator counts 1 + delay for an instruction it ran (a wait's delay once the
      // wait is done, when it also runs the next instruction): this cycle is one of them.
      const before = sm.cycles;
      step();
      sm.stall = Math.max(sm.cycles - before - 1, 0);
    };
  }
  const machines = pio.machines;
  return {
    // One system clock cycle of the whole block.
    tick() {
      for (let i = 0; i < 4; i++) machines[i].step();
      pio.checkChangedPins();
    },
  };
}
