#!/usr/bin/env bash
# The main job, end to end on a real model: trace torchvision's alexnet with
# PyTorch, import it into mav, write it as MLIR bytecode, read it back, and
# check that nothing changed. Grows with the tutorial (raise, count and remove
# dropout, checkpoint) as those land.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MAV_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" mav-opt mav-translate
models="$build/test/models"
/usr/bin/python3 "$root/test/models/generate.py" --out "$models" --only alexnet
out=${MAV_MAIN_JOB_OUT:-$build/main-job}
mkdir -p "$out"

model="$models/alexnet.pt"
shape=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['input_shapes'][0])" "$models/alexnet.json")
"$build/bin/mav-translate" --import-torchscript "$model" --input-shape="$shape" -o "$out/alexnet.mlir"
"$build/bin/mav-opt" "$out/alexnet.mlir" --emit-bytecode -o "$out/alexnet.mlirbc"
"$build/bin/mav-opt" "$out/alexnet.mlirbc" -o "$out/alexnet.back.mlir"
"$build/bin/mav-opt" "$out/alexnet.mlir" -o "$out/alexnet.printed.mlir"
cmp -s "$out/alexnet.printed.mlir" "$out/alexnet.back.mlir" ||
  { echo "main-job: alexnet changed in the text -> bytecode -> text round trip" >&2; exit 1; }

forward=$(sed -n '/mav.graph @forward/,/^  }/p' "$out/alexnet.mlir")
nodes=$(grep -cE '= mav\.(call_module|call_function|call_method|get_attr)' <<<"$forward")
leaves=$(grep -c '= mav.call_module' <<<"$forward")
dropout=$(grep -c 'module_class = "torch.nn.modules.dropout.Dropout"' <<<"$forward" || true)
weights=$(grep -c '^  mav.weight @' "$out/alexnet.mlir")
echo "alexnet (torchvision, traced by PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)'))"
echo "  imported:    $nodes nodes in @forward, $leaves leaf module calls ($dropout Dropout), $weights weights"
echo "  text:        $out/alexnet.mlir ($(stat -c %s "$out/alexnet.mlir") bytes)"
echo "  bytecode:    $out/alexnet.mlirbc ($(stat -c %s "$out/alexnet.mlirbc") bytes)"
echo "  round trip:  text -> bytecode -> text identical"
