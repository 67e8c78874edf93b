#!/usr/bin/env bash
# The main job. Today: round-trip the example graphs (a small CNN and a
# transformer block) through text and MLIR bytecode and check nothing changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MAV_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" mav-opt mav-translate
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for example in cnn transformer; do
  input="$root/test/IR/example-$example.mlir"
  "$build/bin/mav-opt" "$input" -o "$out/$example.mlir"
  "$build/bin/mav-opt" "$out/$example.mlir" --emit-bytecode -o "$out/$example.mlirbc"
  "$build/bin/mav-translate" --mav-roundtrip "$out/$example.mlirbc" -o "$out/$example.back.mlir"
  cmp -s "$out/$example.mlir" "$out/$example.back.mlir" ||
    { echo "main-job: $example changed in the text -> bytecode -> text round trip" >&2; exit 1; }
  nodes=$(grep -cE '= mav\.(call_module|call_function|call_method|get_attr)' "$out/$example.mlir")
  weights=$(grep -c 'mav.weight @' "$out/$example.mlir")
  printf '%-12s %3d nodes, %d weights, text %6d bytes, bytecode %6d bytes: round trip identical\n' \
    "$example" "$nodes" "$weights" "$(stat -c %s "$out/$example.mlir")" "$(stat -c %s "$out/$example.mlirbc")"
done
