// Sections: state machines | DMA
#include "vga.hpp"

#include <cstdint>

#include "flockscope/board/draw.hpp"
#include "hardware/clocks.h"
#include "hardware/dma.h"
#include "hardware/pio.h"
#include "hardware/pio_instructions.h"
#include "vga.pio.h"

namespace {
const std::uint32_t* g_fb = nullptr;
}

void vga_start(const std::uint32_t* words) {
  g_fb = words;
  PIO pio = pio0;
  const uint sm_h = 0, sm_v = 1, sm_px = 2;

  // ---- state machines
  const uint off_h = pio_add_program(pio, &flock_hsync_program);
  const uint off_v = pio_add_program(pio, &flock_vsync_program);
  // The pixel clock is 25 MHz, a whole number of system cycles P: 5 at 125 MHz, 6 at 150 MHz
  // (the RP2350's), 8 at 200 MHz (FLOCKSCOPE_SYS_CLOCK_KHZ). The sync machines run at divider P (one instruction cycle =
  // one pixel), the pixel machine at divider 1 with its `out` stretched to P - 1 cycles
  // plus the `jmp`'s one: P cycles a pixel with no fractional divider (no jitter).
  const std::uint32_t pixel_cycles = clock_get_hz(clk_sys) / 25000000u;
  const float pixel_div = float(pixel_cycles);
  std::uint16_t px_code[32];
  pio_program_t px_program = flock_pixels_program;
  for (uint i = 0; i < flock_pixels_program.length; ++i) {
    std::uint16_t op = flock_pixels_program.instructions[i];
    if ((op >> 13) == 3) op = std::uint16_t((op & ~0x1F00u) | ((pixel_cycles - 2) << 8));  // OUT: its delay
    px_code[i] = op;
  }
  px_program.instructions = px_code;
  const uint off_px = pio_add_program(pio, &px_program);

  auto sync_sm = [&](uint sm, uint offset, const pio_program_t& prog, uint pin, uint wrap_target, uint wrap) {
    pio_gpio_init(pio, pin);
    pio_sm_set_consecutive_pindirs(pio, sm, pin, 1, true);
    pio_sm_config c = pio_get_default_sm_config();
    sm_config_set_set_pins(&c, pin, 1);
    sm_config_set_wrap(&c, offset + wrap_target, offset + wrap);
    sm_config_set_clkdiv(&c, pixel_div);
    pio_sm_init(pio, sm, offset, &c);
    pio_sm_set_pins_with_mask(pio, sm, 1u << pin, 1u << pin);  // idle high (sync is active low)
    (void)prog;
  };
  sync_sm(sm_h, off_h, flock_hsync_program, FLOCKSCOPE_VGA_HSYNC_PIN, flock_hsync_wrap_target, flock_hsync_wrap);
  sync_sm(sm_v, off_v, flock_vsync_program, FLOCKSCOPE_VGA_VSYNC_PIN, flock_vsync_wrap_target, flock_vsync_wrap);

  pio_gpio_init(pio, FLOCKSCOPE_VGA_VIDEO_PIN);
  pio_sm_set_consecutive_pindirs(pio, sm_px, FLOCKSCOPE_VGA_VIDEO_PIN, 1, true);
  pio_sm_config c = pio_get_default_sm_config();
  sm_config_set_out_pins(&c, FLOCKSCOPE_VGA_VIDEO_PIN, 1);
  sm_config_set_out_shift(&c, true, true, 32);  // right: least significant bit = leftmost pixel
  sm_config_set_fifo_join(&c, PIO_FIFO_JOIN_TX);
  sm_config_set_wrap(&c, off_px + flock_pixels_wrap_target, off_px + flock_pixels_wrap);
  sm_config_set_clkdiv(&c, 1.0f);
  pio_sm_init(pio, sm_px, off_px, &c);

  // The counts, loaded by instructions the CPU executes on each (still stopped) machine.
  auto load_osr = [&](uint sm, std::uint32_t value) {
    pio_sm_put_blocking(pio, sm, value);
    pio_sm_exec(pio, sm, pio_encode_pull(false, true));
  };
  load_osr(sm_h, 654);
  load_osr(sm_v, 479);
  load_osr(sm_px, 639);
  pio_sm_exec(pio, sm_px, pio_encode_mov(pio_y, pio_osr));
  pio_sm_exec(pio, sm_px, pio_encode_out(pio_null, 32));

  // ---- DMA: channel A streams the framebuffer into the pixel FIFO; channel B rewinds A.
  const int dma_a = dma_claim_unused_channel(true);
  const int dma_b = dma_claim_unused_channel(true);
  dma_channel_config ca = dma_channel_get_default_config(dma_a);
  channel_config_set_transfer_data_size(&ca, DMA_SIZE_32);
  channel_config_set_read_increment(&ca, true);
  channel_config_set_write_increment(&ca, false);
  channel_config_set_dreq(&ca, pio_get_dreq(pio, sm_px, true));
  channel_config_set_chain_to(&ca, dma_b);
  dma_channel_configure(dma_a, &ca, &pio->txf[sm_px], g_fb, flockscope::board::kFbWords, false);

  dma_channel_config cb = dma_channel_get_default_config(dma_b);
  channel_config_set_transfer_data_size(&cb, DMA_SIZE_32);
  channel_config_set_read_increment(&cb, false);
  channel_config_set_write_increment(&cb, false);
  channel_config_set_chain_to(&cb, dma_a);
  dma_channel_configure(dma_b, &cb, &dma_hw->ch[dma_a].read_addr, &g_fb, 1, false);

  pio_enable_sm_mask_in_sync(pio, (1u << sm_h) | (1u << sm_v) | (1u << sm_px));
  dma_start_channel_mask(1u << dma_a);
}
