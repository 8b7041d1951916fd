// The RP2040 transport of flockscope_link: the USB CDC port through TinyUSB, run from
// fsl_poll and from the background service (tud_task), never waiting. Raw CDC reads and
// writes: the bytes go out exactly as given (the SDK's stdio would translate line ends and
// wait for room).
//
// The background service runs every millisecond while the caller steps: a repeating timer
// (the SDK's default alarm pool) pends a spare interrupt at the lowest priority, whose
// handler calls fsl_background_service, as the SDK's own stdio over USB runs tud_task. The
// work is done at the lowest priority so that the caller's own timers and interrupts, and
// the USB interrupt, are never held up by it.
#include "flockscope_link.h"
#include "hardware/irq.h"
#include "pico/time.h"
#include "tusb.h"

static size_t usb_read(void* ctx, uint8_t* buf, size_t cap) {
  (void)ctx;
  if (!tud_cdc_available()) return 0;
  return tud_cdc_read(buf, (uint32_t)cap);
}

static size_t usb_write(void* ctx, const uint8_t* buf, size_t n) {
  (void)ctx;
  const uint32_t room = tud_cdc_write_available();
  if (room == 0) {
    tud_cdc_write_flush();
    return 0;
  }
  const uint32_t w = tud_cdc_write(buf, n < room ? (uint32_t)n : room);
  tud_cdc_write_flush();
  return w;
}

static bool usb_connected(void* ctx) {
  (void)ctx;
  return tud_cdc_connected();
}

static uint64_t usb_now_us(void* ctx) {
  (void)ctx;
  return time_us_64();
}

static void usb_service(void* ctx) {
  (void)ctx;
  tud_task();
}

static unsigned background_irq;
static repeating_timer_t background_timer;

static void background_handler(void) { fsl_background_service(); }

static bool background_tick(repeating_timer_t* timer) {
  (void)timer;
  irq_set_pending(background_irq);
  return true;
}

static void start_background(void) {
  background_irq = (unsigned)user_irq_claim_unused(true);
  irq_set_exclusive_handler(background_irq, background_handler);
  irq_set_priority(background_irq, PICO_LOWEST_IRQ_PRIORITY);
  irq_set_enabled(background_irq, true);
  add_repeating_timer_us(-1000, background_tick, 0, &background_timer);  // every 1 ms, start to start
}

const fsl_transport* fsl_usb_transport(void) {
  static bool started = false;
  static const fsl_transport t = {usb_read, usb_write, usb_connected, usb_now_us, usb_service, 0};
  if (!started) {
    tud_init(0);
    start_background();  // fsl_background_service does nothing until fsl_init has finished
    started = true;
  }
  return &t;
}
