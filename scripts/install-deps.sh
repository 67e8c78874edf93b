#!/usr/bin/env bash
# Installs the Debian 12 packages mav needs, when any is missing.
# Runs apt-get as root (directly, or through sudo when available).
set -euo pipefail

packages=(
  cmake ninja-build g++ clang-format
  llvm-16-dev libmlir-16-dev mlir-16-tools llvm-16-tools
  libtorch-dev libfmt-dev libgtest-dev libbenchmark-dev
  python3-torch python3-torchvision
  time strace
  clang-16 libclang-rt-16-dev
  verilator iverilog yosys
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
