#!/usr/bin/env bash
# Fetches the Pico SDK 2.1.1 and TinyUSB without the internet at large: from Debian
# trixie's `pico-sdk` source package and `tinyusb-source` binary package, through a
# private apt configuration whose source lines reuse the Debian mirror URI already in
# this machine's apt sources (no host name is written in this repository). The
# machine's own apt state is not touched.
#
#   firmware_pico/fetch_sdk.sh [DEST]      (default ~/.cache/flockscope/pico-sdk-2.1.1)
#
# Prints the SDK path on its last line. Idempotent: an existing complete SDK is reused.
set -euo pipefail

cache="${FLOCKSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/flockscope}"
dest="${1:-$cache/pico-sdk-2.1.1}"
if [ -f "$dest/.complete" ]; then echo "$dest"; exit 0; fi

# ---- the mirror URI from the machine's own sources (deb822 .sources or one-line lists)
mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  u=$(awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}' "$f" | grep -v -- '-security' | grep -i debian | head -n1 || true)
  [ -n "$u" ] && { mirror="$u"; break; }
done
if [ -z "$mirror" ]; then
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    u=$(awk '$1 == "deb" || $1 == "deb-src" {for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) {print $i; break}}' "$f" \
        | grep -v -- '-security' | grep -i debian | head -n1 || true)
    [ -n "$u" ] && { mirror="$u"; break; }
  done
fi
[ -n "$mirror" ] || { echo "fetch_sdk: no Debian mirror URI found in /etc/apt/sources*" >&2; exit 1; }
echo "fetch_sdk: using the machine's mirror $mirror, suite trixie" >&2

# ---- private apt configuration
apt_dir="$cache/apt-trixie"
mkdir -p "$apt_dir"/{lists/partial,archives/partial,etc/preferences.d,etc/apt.conf.d}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat > "$apt_dir/etc/sources.list" <<SRC
deb [signed-by=$keyring] $mirror trixie main
deb-src [signed-by=$keyring] $mirror trixie main
SRC
: > "$apt_dir/status"
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/etc/none"
  -o "Dir::Etc::Preferences=$apt_dir/etc/none"
  -o "Dir::Etc::PreferencesParts=$apt_dir/etc/preferences.d"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::State::Status=$apt_dir/status"
  -o "Dir::Cache=$apt_dir"
  -o "Dir::Cache::Archives=$apt_dir/archives"
  -o "APT::Architecture=$(dpkg --print-architecture)"
  -o "Acquire::Languages=none"
  -o "APT::Get::Only-Source=true"
)
apt-get "${apt_opts[@]}" -qq update

work="$cache/work-sdk"
rm -rf "$work" && mkdir -p "$work"
(
  cd "$work"
  # The source package: apt names its files and their SHA-256 from the signed index;
  # apt's own helper downloads and checks each. The orig tarball is the SDK; the .dsc and
  # the Debian packaging tarball are fetched when the mirror has them (some mirrors
  # carry only the orig tarball), and dpkg-source unpacks when it can.
  apt-get "${apt_opts[@]}" -qq --print-uris source pico-sdk | grep "^'" > uris.txt
  while read -r uri name size hash; do
    uri=${uri//\'/}
    if ! /usr/lib/apt/apt-helper "${apt_opts[@]}" download-file "$uri" "$PWD/$name" "$hash" >&2 2>/dev/null; then
      case "$name" in
        *.orig.tar.*) echo "fetch_sdk: could not download $name" >&2; exit 1 ;;
        *) echo "fetch_sdk: $name not on this mirror, using the orig tarball alone" >&2 ;;
      esac
    fi
  done < uris.txt
  if ls pico-sdk_*.dsc pico-sdk_*.debian.tar.* > /dev/null 2>&1; then
    dpkg-source --no-check -x pico-sdk_*.dsc sdk >&2
  else
    mkdir sdk && tar -xf pico-sdk_*.orig.tar.* -C sdk --strip-components=1
  fi
  # TinyUSB: the binary package carries its sources under /usr/share.
  apt-get "${apt_opts[@]}" -qq download tinyusb-source >&2
  mkdir tusb && dpkg-deb -x tinyusb-source_*.deb tusb
)
sdk="$work/sdk"
grep -q 'PICO_SDK_VERSION_MAJOR 2' "$sdk/pico_sdk_version.cmake" || { echo "fetch_sdk: not SDK 2.x" >&2; exit 1; }
tusb_root=$(dirname "$(dirname "$(find "$work/tusb" -path '*/src/tusb.h' | head -n1)")")
[ -d "$tusb_root/src" ] || { echo "fetch_sdk: TinyUSB sources not found in tinyusb-source" >&2; exit 1; }
rm -rf "$sdk/lib/tinyusb" && mkdir -p "$sdk/lib" && cp -a "$tusb_root" "$sdk/lib/tinyusb"
rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$sdk" "$dest"
touch "$dest/.complete"
rm -rf "$work"
echo "$dest"
