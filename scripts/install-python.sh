#!/usr/bin/env bash
# `import flockscope` in one command: installs the Debian packages (the build's and the
# "python" group: pybind11, Debian's numpy and pandas, matplotlib), builds the module in
# build/python/ and installs it, with the presets, into the site folder for local software
# of the Python it is built for (Debian's /usr/bin/python3: /usr/local/lib/python3.X/
# dist-packages, on that Python's path in every new shell). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh python
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLOCKSCOPE_TESTS=OFF -DFLOCKSCOPE_BENCH=OFF > /dev/null
cmake --build build --target flockscope_python -j"$(nproc)"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO env ${DESTDIR:+DESTDIR="$DESTDIR"} cmake --install build --component python
py=$(sed -n 's/^FLOCKSCOPE_PYTHON_EXECUTABLE:INTERNAL=//p' build/CMakeCache.txt)
# A staged install (DESTDIR=..., for a package) is not on any Python's path yet.
[ -z "${DESTDIR:-}" ] || exit 0
(cd / && "$py" -c "import flockscope, sys; print('install-python: flockscope', flockscope.__version__, 'for', sys.executable)")
# Another python3 first on PATH (pyenv, a virtualenv) has its own site folder and neither
# Debian's numpy nor pandas: say which one has the module.
on_path=$(command -v python3 || true)
if [ -n "$on_path" ] && ! (cd / && python3 -c "import flockscope" > /dev/null 2>&1); then
  echo "install-python: note: python3 on PATH ($on_path) is another Python; run $py, or a virtualenv made with" \
       "'$py -m venv --system-site-packages'"
fi
