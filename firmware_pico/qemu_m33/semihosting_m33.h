// Output and exit through ARM semihosting (startup_m33.c).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif
void semihost_write(const char* text);
void semihost_exit(int code) __attribute__((noreturn));
#ifdef __cplusplus
}
#endif
