# Locates the Pico SDK for this project (our own, minimal): PICO_SDK_PATH from the cache
# or the environment, which firmware_pico/build.sh sets to what fetch_sdk.sh unpacked.
# include() it before project(), as the SDK requires.
if(NOT PICO_SDK_PATH AND DEFINED ENV{PICO_SDK_PATH})
  set(PICO_SDK_PATH $ENV{PICO_SDK_PATH})
endif()
if(NOT PICO_SDK_PATH OR NOT EXISTS "${PICO_SDK_PATH}/pico_sdk_init.cmake")
  message(FATAL_ERROR "Pico SDK not found (PICO_SDK_PATH='${PICO_SDK_PATH}'): run firmware_pico/fetch_sdk.sh, "
                      "or build through firmware_pico/build.sh")
endif()
set(PICO_SDK_PATH "${PICO_SDK_PATH}" CACHE PATH "Path to the Raspberry Pi Pico SDK" FORCE)
include(${PICO_SDK_PATH}/pico_sdk_init.cmake)
