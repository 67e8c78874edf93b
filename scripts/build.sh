#!/usr/bin/env bash
# Configures (once) and builds mav into ${MAV_BUILD_DIR:-build}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MAV_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
# A build directory configured for another MLIR (MLIR 16, before the move to
# 19) caches that MLIR's paths: configure it afresh.
mlir_dir=/usr/lib/llvm-19/lib/cmake/mlir
if [ -f "$build/CMakeCache.txt" ] &&
   ! grep -qx "MLIR_DIR:PATH=$mlir_dir" "$build/CMakeCache.txt"; then
  echo "build.sh: $build was configured for another MLIR; configuring afresh"
  rm -rf "$build"
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
fi
if [ $# -gt 0 ]; then
  cmake --build "$build" -j2 --target "$@"
else
  cmake --build "$build" -j2
fi
