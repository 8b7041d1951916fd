// USB descriptors: a full-speed device with one CDC-ACM interface (the protocol link).
// The Raspberry Pi vendor id with the Pico SDK's CDC product id, so the app recognises the
// board under /dev/serial/by-id like any Pico serial device.
//
// Its two build switches, FLOCKSCOPE_NO_UNIQUE_ID (defined: no flash unique id) and
// FLOCKSCOPE_USB_PRODUCT (default below), are read here and not through board_config.hpp,
// which lists them: the drop-in link library (protocol/pico) compiles this file in a
// student's project, without that header.
#include <string.h>

#ifndef FLOCKSCOPE_NO_UNIQUE_ID
#include "pico/unique_id.h"
#endif
#include "tusb.h"

#define FLOCKSCOPE_USB_VID 0x2E8A
#define FLOCKSCOPE_USB_PID 0x000A
#ifndef FLOCKSCOPE_USB_PRODUCT  // the lab firmware's link library names its own board
#define FLOCKSCOPE_USB_PRODUCT "flockscope pico-vga board"
#endif

enum { ITF_CDC_NOTIF = 0, ITF_CDC_DATA, ITF_COUNT };
enum { STR_LANG = 0, STR_MANUFACTURER, STR_PRODUCT, STR_SERIAL, STR_CDC };

#define EP_CDC_NOTIF 0x81
#define EP_CDC_OUT 0x02
#define EP_CDC_IN 0x82

static const tusb_desc_device_t device_desc = {
    .bLength = sizeof(tusb_desc_device_t),
    .bDescriptorType = TUSB_DESC_DEVICE,
    .bcdUSB = 0x0200,
    .bDeviceClass = TUSB_CLASS_MISC,
    .bDeviceSubClass = MISC_SUBCLASS_COMMON,
    .bDeviceProtocol = MISC_PROTOCOL_IAD,
    .bMaxPacketSize0 = CFG_TUD_ENDPOINT0_SIZE,
    .idVendor = FLOCKSCOPE_USB_VID,
    .idProduct = FLOCKSCOPE_USB_PID,
    .bcdDevice = 0x0100,
    .iManufacturer = STR_MANUFACTURER,
    .iProduct = STR_PRODUCT,
    .iSerialNumber = STR_SERIAL,
    .bNumConfigurations = 1,
};

#define CONFIG_TOTAL_LEN (TUD_CONFIG_DESC_LEN + TUD_CDC_DESC_LEN)
static const uint8_t config_desc[] = {
    TUD_CONFIG_DESCRIPTOR(1, ITF_COUNT, 0, CONFIG_TOTAL_LEN, 0, 250),
    TUD_CDC_DESCRIPTOR(ITF_CDC_NOTIF, STR_CDC, EP_CDC_NOTIF, 8, EP_CDC_OUT, EP_CDC_IN, 64),
};

const uint8_t* tud_descriptor_device_cb(void) { return (const uint8_t*)&device_desc; }

const uint8_t* tud_descriptor_configuration_cb(uint8_t index) {
  (void)index;
  return config_desc;
}

static uint16_t string_buf[33];

const uint16_t* tud_descriptor_string_cb(uint8_t index, uint16_t langid) {
  (void)langid;
#ifndef FLOCKSCOPE_NO_UNIQUE_ID
  static char serial[2 * PICO_UNIQUE_BOARD_ID_SIZE_BYTES + 1];
#endif
  const char* s;
  size_t n;
  switch (index) {
    case STR_LANG:
      string_buf[1] = 0x0409;
      n = 1;
      string_buf[0] = (uint16_t)((TUSB_DESC_STRING << 8) | (2 * n + 2));
      return string_buf;
    case STR_MANUFACTURER: s = "flockscope"; break;
    case STR_PRODUCT: s = FLOCKSCOPE_USB_PRODUCT; break;
    case STR_SERIAL:
#ifndef FLOCKSCOPE_NO_UNIQUE_ID
      pico_get_unique_board_id_string(serial, sizeof serial);
      s = serial;
#else
      s = "emulated";  // the emulator build: no flash unique id to read
#endif
      break;
    case STR_CDC: s = "flockscope link"; break;
    default: return NULL;
  }
  n = strlen(s);
  if (n > 32) n = 32;
  for (size_t i = 0; i < n; ++i) string_buf[1 + i] = (uint8_t)s[i];
  string_buf[0] = (uint16_t)((TUSB_DESC_STRING << 8) | (2 * n + 2));
  return string_buf;
}
