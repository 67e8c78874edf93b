#!/usr/bin/env bash
# Builds a libFuzzer target with clang-19 (ASan + UBSan) into
# ${MAV_FUZZ_BUILD_DIR:-build-fuzz} and runs it for SECONDS, seeded from its
# corpus. Findings land in build-fuzz/findings/TARGET.
#   scripts/fuzz.sh mav-ir-fuzzer 600 [libFuzzer flags...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MAV_FUZZ_BUILD_DIR:-$root/build-fuzz}
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DMAV_ENABLE_FUZZERS=ON
fi
cmake --build "$build" -j2 --target "$target"

# The seed corpus: a fuzz/<dir>/corpus directory the target declares, plus,
# for the IR fuzzer, every IR test split at its `// -----` markers.
corpus=$build/corpus/$target
findings=$build/findings/$target
mkdir -p "$corpus" "$findings"
case "$target" in
mav-ir-fuzzer)
  /usr/bin/python3 "$root/fuzz/ir/seed.py" "$root" "$build" "$corpus" \
    "${MAV_BUILD_DIR:-$root/build}"
  ;;
mav-checkpoint-fuzzer)
  # Checkpoints of small test models, exported by the normal build.
  "$root/scripts/build.sh" mav-opt mav-translate
  "$root/fuzz/checkpoint/make-corpus.sh" "${MAV_BUILD_DIR:-$root/build}" \
    "$corpus" >/dev/null
  ;;
mav-torchscript-fuzzer)
  # Small TorchScript archives, saved by torch.jit.save.
  /usr/bin/python3 "$root/fuzz/torchscript/make-corpus.py" "$corpus"
  ;;
esac
# mav-NAME-fuzzer keeps its own seeds, if any, in fuzz/NAME/corpus.
name=${target#mav-}
name=${name%-fuzzer}
if [ -d "$root/fuzz/$name/corpus" ]; then
  cp -n "$root/fuzz/$name/corpus"/* "$corpus"/ 2>/dev/null || true
fi

# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in
# instrumented code and unpoisons what it hands out in Debian's uninstrumented
# LLVM and MLIR, so ASan would report the first MLIRContext's builtin types as
# use-after-poison.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$findings"
exec "$build/bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
  -max_len=65536 -print_final_stats=1 "$@" "$corpus"
