#!/usr/bin/env bash
# Installs what is missing, builds mav, and runs the whole test suite
# (lit + FileCheck and the gtest unit tests) through the check-mav target.
#   scripts/test.sh             gcc build in ${MAV_BUILD_DIR:-build}
#   scripts/test.sh --sanitize  clang-19 build with ASan and UBSan in
#                               ${MAV_SANITIZE_BUILD_DIR:-build-sanitize}
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != "--sanitize" ]; then
  exec "$root/scripts/build.sh" check-mav
fi

build=${MAV_SANITIZE_BUILD_DIR:-$root/build-sanitize}
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DMAV_SANITIZE=ON
fi
# libtorch is not instrumented and keeps allocations alive until exit: leak
# reports would be its, not mav's. Debian's LLVM is not instrumented either,
# and its allocator poisons memory that instrumented code then reports as a
# use after poison (in Dialect::addType): user poisoning is off.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cmake --build "$build" -j2 --target check-mav
