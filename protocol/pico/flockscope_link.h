/* flockscope_link: the board side of the flockscope link for firmware you write yourself.
 *
 * Add a few lines to your own pico-sdk main.c and `flockscope mirror` (or the window)
 * mirrors your flock and changes your parameters, acknowledged:
 *
 *   fsl_init(&(fsl_config){.name = "my-lab", .capacity = N_BOIDS, .on_reset = my_reset});
 *   fsl_param("visualRange", &visualRange, FSL_FIX15, NULL);   // your fix15 variable
 *   fsl_param("turnfactor", &turnfactor, FSL_FIX15, NULL);
 *   for (;;) {
 *     uint64_t begin = time_us_64();
 *     if (!fsl_paused()) step_my_flock();
 *     fsl_send_state(&(fsl_state){&boids[0].x, &boids[0].y, &boids[0].vx, &boids[0].vy,
 *                                 sizeof boids[0], FSL_FIX15, n_boids},
 *                    (uint32_t)(time_us_64() - begin), FRAME_PERIOD_US);
 *     fsl_wait_until(begin + FRAME_PERIOD_US);  // the frame's spare time: the link's work
 *   }
 *
 * Nothing here waits: every call does a bounded amount of work and returns, bytes the USB
 * link cannot take now wait in a small buffer, and a frame's state that does not get out
 * before the next fsl_send_state is dropped (and counted), so the link never stalls the
 * animation. Nothing is sent until a host has opened the port and said hello.
 *
 * Your step may take longer than a frame. fsl_send_state copies the frame's state (see
 * fsl_send_state), and on the RP2040 a timer interrupt of the library's own (every
 * millisecond, at the lowest priority) keeps the USB link running and sends that copy while
 * your step runs, so a frame is never torn between two steps and a slow step still streams
 * whole frames. What the app asks (parameter changes, reset, boid count, pause) is handled
 * only inside fsl_send_state, fsl_poll and fsl_wait_until, never during your step: your
 * variables and callbacks are touched only between steps, and the answer goes out at the
 * next of those calls. During your step, do not call the library from an interrupt or from
 * the other core (call it from one core's main loop only); nothing else is asked of you.
 * The app learns your frame time from the frame's stats and waits for answers accordingly.
 *
 * The wire format is flockscope's protocol (protocol/PROTOCOL.md); this is a C face over
 * its no-heap C++ codec and board session (the same as flockscope's firmware runs). One link
 * per program: the state lives in static memory.
 * The header compiles as C (C99 and later) and C++.
 */
#ifndef FLOCKSCOPE_LINK_H
#define FLOCKSCOPE_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How your numbers are stored. */
typedef enum {
  FSL_FIX15 = 0, /* int32_t Q16.15 (the labs' fix15: 1.0 is 32768) */
  FSL_FLOAT = 1, /* float */
  FSL_INT = 2    /* int32_t (whole pixels for positions; counts, flags for parameters) */
} fsl_format;

/* A check callback's answer (these are the protocol's ack statuses). */
typedef enum {
  FSL_OK = 0x00,           /* accept */
  FSL_OUT_OF_RANGE = 0x10, /* outside what this firmware allows */
  FSL_READ_ONLY = 0x12,    /* this firmware does not let it change now */
  FSL_BUSY = 0x14,         /* not now, try again later */
  FSL_INVALID = 0x16       /* inconsistent with the other parameters */
} fsl_status;

/* Called with the new value (in the parameter's units, e.g. px) before anything changes;
 * anything other than FSL_OK rejects the change, and the app shows the status with the
 * reason given by fsl_reason, if the callback called it. */
typedef fsl_status (*fsl_check_fn)(const char* name, double value);

/* Inside a check callback, before refusing: why, in a few words, e.g.
 * fsl_reason("at most 180 px on this board"). The app shows "NAME: WHY" with the refusal
 * (PROTOCOL.md 12). Ignored outside a check callback. */
void fsl_reason(const char* why);

/* The byte link, a seam: the RP2040 build provides fsl_usb_transport() (TinyUSB CDC);
 * a host build passes its own (a pseudo-terminal in the tests). No function may wait. */
typedef struct {
  size_t (*read)(void* ctx, uint8_t* buf, size_t cap);       /* bytes waiting now, 0 if none */
  size_t (*write)(void* ctx, const uint8_t* buf, size_t n);  /* bytes taken now, 0 if full */
  bool (*connected)(void* ctx);  /* a host holds the port open (USB: DTR set) */
  uint64_t (*now_us)(void* ctx); /* a monotonic clock in microseconds */
  void (*service)(void* ctx);    /* optional: run the USB stack (tud_task), called by fsl_poll */
  void* ctx;
} fsl_transport;

typedef struct {
  const char* name;   /* the board's name in the app, up to 32 bytes, e.g. "lab3-flock" */
  uint32_t capacity;  /* the most boids your arrays hold (the app's boid-count limit) */
  const fsl_transport* transport; /* NULL: fsl_usb_transport() (RP2040 builds only) */
  /* Commands from the app; NULL: the command is refused as not on this board. */
  void (*on_reset)(uint32_t seed);           /* restart the flock from this seed */
  uint32_t (*on_boid_count)(uint32_t count); /* set the boid count (<= capacity); returns the count now */
  void (*on_pause)(bool paused);             /* optional: pause/resume are always accepted, fsl_paused() says */
} fsl_config;

/* Starts the link (and, with the USB transport, the USB device). false: bad config. */
bool fsl_init(const fsl_config* config);

/* Exposes a variable as the parameter `name` of flockscope's table (PROTOCOL.md section 9:
 * "visualRange", "protectedRange", "centeringfactor", "avoidfactor", "matchingfactor",
 * "turnfactor", "maxspeed", "minspeed", "leftmargin", ...). A change from the app is checked
 * against the table's range, the format's range and `check` (may be NULL), then written to
 * *value and acknowledged with the value now in force (a fix15 variable holds the nearest
 * multiple of 1/32768). Parameters not exposed are shown by the app as not on this board.
 * false: unknown name, already exposed, or all 36 slots used. Call after fsl_init. */
bool fsl_param(const char* name, void* value, fsl_format format, fsl_check_fn check);

/* Where your boids are: the first element of each of x, y, vx, vy, and the bytes from one
 * boid's value to the next: sizeof(struct boid) for an array of structs, sizeof(x[0]) for
 * separate arrays. Positions in px (screen coordinates), velocities in px per frame. */
typedef struct {
  const void* x;
  const void* y;
  const void* vx;
  const void* vy;
  size_t stride;
  fsl_format format;
  uint32_t count;
} fsl_state;

/* Once a frame, after the step: queues this frame's state and stats. The state is read from
 * your arrays now (the first FSL_SNAPSHOT_BOIDS boids, 2048 unless your build sets it, are
 * copied; boids past those are read when their chunk goes out, so with more boids than that
 * step only after the frame's wait) and sent in chunks by fsl_poll, fsl_wait_until and the
 * background interrupt. compute_us: the time your step took; period_us: your frame budget
 * (33333 at 30 fps). The rest of the previous frame's state, if it did not get out, is
 * dropped and counted, and this frame's state starts at its first boid. While paused, the
 * frame number stays. */
void fsl_send_state(const fsl_state* state, uint32_t compute_us, uint32_t period_us);

/* Handles what the host sent (hello, parameter changes, commands: your variables change and
 * your callbacks run here) and moves queued output to the link. Bounded work; call it at
 * least once a frame (fsl_wait_until does). Calling it inside a long step is allowed, and
 * then changes land mid-step. */
void fsl_poll(void);

/* fsl_poll until the clock (transport now_us) reaches deadline_us: the frame's spare time. */
void fsl_wait_until(uint64_t deadline_us);

/* Moves queued output to the link (and runs the USB stack) unless one of the calls above is
 * running; never handles requests. The RP2040 build calls it from its timer interrupt; a
 * host build or a firmware with its own scheduler may call it from an interrupt or between
 * parts of a long step. */
void fsl_background_service(void);

bool fsl_paused(void);            /* the app paused the flock */
bool fsl_host_connected(void);    /* a host said hello and is listening */
void fsl_log(const char* text);   /* a line for the app's log (dropped when nobody listens) */

/* What the link did since boot (for your own display or tests). */
typedef struct {
  uint32_t frames;        /* fsl_send_state calls */
  uint32_t state_frames;  /* frames whose whole state went out */
  uint32_t tx_dropped;    /* protocol frames not sent because the link was busy */
  uint32_t requests;      /* requests received (parameter changes, commands) */
  uint32_t accepted;      /* ... acknowledged as done */
  uint32_t rejected;      /* ... refused with a reason */
  uint32_t rx_errors;     /* damaged frames received (checksum, framing, size, layout) */
  uint32_t busy_us;       /* the library's own work in the last whole frame, in microseconds
                             (fsl_send_state, and the fsl_poll calls and background services
                             that had something to do; the USB stack's tud_task and idle
                             polls excluded) */
} fsl_counters;
fsl_counters fsl_get_counters(void);

#ifdef FSL_HAVE_USB
/* The RP2040's USB CDC (TinyUSB, run by fsl_poll). Defined when the library is built by the
 * pico-sdk; do not also enable the SDK's stdio over USB (use the UART for printf). */
const fsl_transport* fsl_usb_transport(void);
#endif

#ifdef __cplusplus
}
#endif
#endif /* FLOCKSCOPE_LINK_H */
