#!/usr/bin/env bash
# Installs the Debian packages flockscope builds and tests with. Idempotent: packages
# already installed are skipped, and apt is not touched at all when nothing is missing.
# Uses sudo only when not root. Extra package groups: pass "firmware" for the RP2040
# toolchain (the protocol's cross-compile check and the firmware build need it) and QEMU
# (the flock step on a Cortex-M33, the Pico 2's core: tests/board), "mpi" for
# Open MPI (`mpirun -n P flockscope sweep` and its tests; the build works without it),
# "python" for the Python module (pybind11, Debian's numpy and pandas) and what its tests
# and notebook use (matplotlib, nbclient, ipykernel).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  python3
  libsdl2-dev libimgui-dev libstb-dev fonts-dejavu-core  # the window (app/gui)
  libasio-dev  # the serial link (app/link): standalone asio serial_port
  libpugixml-dev  # the plots (plot/ also needs libstb-dev, fonts-dejavu-core): its tests parse the SVG
)
for group in "$@"; do
  case "$group" in
    firmware) packages+=(gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib)
              # firmware_pico/: fetch_sdk.sh (apt's own helper, dpkg-dev's dpkg-source), the
              # emulator (node + npm for rp2040js; a node already on the machine is kept)
              packages+=(dpkg-dev ca-certificates)
              # the board's flock step on an emulated Cortex-M33 (mps2-an505), the Pico 2's core
              packages+=(qemu-system-arm)
              command -v npm > /dev/null 2>&1 || packages+=(nodejs npm) ;;
    fuzz)     packages+=(clang libclang-rt-14-dev libomp-dev) ;;
    mpi)      packages+=(openmpi-bin libopenmpi-dev) ;;
    python)   packages+=(python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pandas
                         python3-matplotlib python3-nbclient python3-nbformat python3-ipykernel) ;;
    *) echo "install-deps: unknown group '$group' (known: firmware, fuzz, mpi, python)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
