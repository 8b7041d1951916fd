// The bare Cortex-M33 under QEMU (mps2-an505): the vector table, the reset handler (FPU on,
// .bss zeroed, constructors run, main, exit) and the two semihosting calls the program
// needs (ARM semihosting: BKPT 0xAB with the operation in r0 and its argument in r1; QEMU
// answers with -semihosting).
#include <stdint.h>

#include "semihosting_m33.h"

extern uint32_t __bss_start__, __bss_end__, __stack_top;
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);
int main(void);

static uint32_t semihost(uint32_t op, const void* arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void semihost_write(const char* text) { (void)semihost(0x04, text); }  // SYS_WRITE0

void semihost_exit(int code) {
  // SYS_EXIT: ADP_Stopped_ApplicationExit makes QEMU exit with 0, RunTimeErrorUnknown with 1.
  (void)semihost(0x18, (const void*)(uintptr_t)(code == 0 ? 0x20026u : 0x20023u));
  for (;;) {
  }
}

void flock_m33_reset(void) {
  *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20;  // CPACR: CP10, CP11 (the FPU) full access
  __asm__ volatile("dsb\n isb" ::: "memory");
  for (uint32_t* p = &__bss_start__; p < &__bss_end__; ++p) *p = 0;
  for (void (**f)(void) = __init_array_start; f < __init_array_end; ++f) (*f)();
  semihost_exit(main());
}

static void flock_m33_fault(void) {
  semihost_write("flock_m33: fault\n");
  semihost_exit(1);
}

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&__stack_top,
    flock_m33_reset,
    flock_m33_fault, flock_m33_fault, flock_m33_fault, flock_m33_fault, flock_m33_fault,
    flock_m33_fault, flock_m33_fault, flock_m33_fault, flock_m33_fault, flock_m33_fault,
    flock_m33_fault, flock_m33_fault, flock_m33_fault, flock_m33_fault};
