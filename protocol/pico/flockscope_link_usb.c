// The RP2040 transport of flockscope_link: the USB CDC port through TinyUSB, run from
// fsl_poll (tud_task), never waiting. Raw CDC reads and writes: the bytes go out exactly as
// given (the SDK's stdio would translate line ends and wait for room).
#include "flockscope_link.h"
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

const fsl_transport* fsl_usb_transport(void) {
  static bool started = false;
  static const fsl_transport t = {usb_read, usb_write, usb_connected, usb_now_us, usb_service, 0};
  if (!started) {
    tud_init(0);
    started = true;
  }
  return &t;
}
