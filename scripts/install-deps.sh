#!/usr/bin/env bash
# Installs the Debian 12 packages mav needs, when any is missing, and the
# HTML viewer's npm packages (viewer/node_modules, from viewer/package-lock.json)
# when they are missing or older than the lockfile.
# Runs apt-get as root (directly, or through sudo when available).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(
  cmake ninja-build g++ clang-format
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools libzstd-dev zlib1g-dev
  libtorch-dev libfmt-dev libgtest-dev libbenchmark-dev
  python3-torch python3-torchvision python3-torchaudio python3-torchtext
  time strace ccache rsync
  clang-19 libclang-rt-19-dev
  verilator iverilog yosys
  chromium chromium-driver python3-selenium
  pybind11-dev python3-pybind11 python3-pytest
  python3-nbclient python3-ipykernel python3-nbformat
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# elkjs for the HTML viewer (pinned by viewer/package-lock.json), embedded into
# exported pages at build time. npm ci writes node_modules/.package-lock.json
# last, so its age tells whether the install finished after the lockfile changed.
viewer="$root/viewer"
if [ ! -f "$viewer/node_modules/.package-lock.json" ] ||
   [ "$viewer/package-lock.json" -nt "$viewer/node_modules/.package-lock.json" ]; then
  echo "install-deps: npm ci in viewer/"
  (cd "$viewer" && npm ci --no-audit --no-fund --loglevel=error)
fi
