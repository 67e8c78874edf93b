#!/usr/bin/env bash
# The main job: the MASE tutorial end to end on a real model.
#   PyTorch traces torchvision's mobilenet_v2, unmodified (1000 classes,
#   random weights), at its real input size 1x3x224x224; mav imports it,
#   raises it to the Mase IR, counts dropout, removes it, counts again,
#   exports a checkpoint, reloads it, checks that the reloaded graph equals
#   the saved one and that it computes what PyTorch computes, and prints a
#   summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MAV_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" mav-opt mav-translate mav-run >/dev/null
out=${MAV_MAIN_JOB_OUT:-$build/main-job}
mkdir -p "$out"
/usr/bin/python3 "$root/scripts/main_job_model.py" "$out"
bin="$build/bin"
name=mobilenet_v2
model="$out/$name.pt"
field() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$out/$name.json"; }

"$bin/mav-translate" --import-torchscript "$model" \
  --input-shape="$(field x "['input_shape']")" -o "$out/$name.mlir"
"$bin/mav-opt" "$out/$name.mlir" \
  -mav-raise -mav-count-dropout -mav-remove-dropout -mav-count-dropout \
  -mav-export-checkpoint=path="$out/$name.ckpt" \
  --mav-report="$out/report.json" -o "$out/saved.mlir"
"$bin/mav-opt" "$out/$name.ckpt" -o "$out/reloaded.mlir"
# Each text names its own weights file; printed with the weights inline, the
# two must be the same bytes, weights included.
"$bin/mav-opt" "$out/saved.mlir" --mav-weights=inline -o "$out/saved.inline.mlir"
"$bin/mav-opt" "$out/reloaded.mlir" --mav-weights=inline -o "$out/reloaded.inline.mlir"
cmp -s "$out/saved.inline.mlir" "$out/reloaded.inline.mlir" ||
  { echo "main-job: the reloaded graph differs from the saved one" >&2; exit 1; }
"$bin/mav-run" "$out/$name.ckpt" --reference="$model" >"$out/run.txt" ||
  { cat "$out/run.txt" >&2; echo "main-job: the graph does not compute what PyTorch computes" >&2; exit 1; }

report() { /usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$out/report.json"; }
nodes=$(sed -n '/mav.graph @forward/,/^  }/p' "$out/saved.mlir" | grep -cE '= mav\.(call_module|call_function|call_method|get_attr)')
echo "mav: the MASE tutorial on $(field x "['model']") at $(field x "['input_shape']") (traced by PyTorch $(field x "['torch_version']"))"
echo "  nodes in @forward after removal:  $nodes"
params=$(/usr/bin/python3 - "$out/saved.mlir" <<'PY'
import math, re, sys
total = 0
for line in open(sys.argv[1]):
    m = re.match(r'\s*mav\.weight \S+ parameter = .* : tensor<([^>]*)>(.*)$', line)
    if m and "tied_to" not in m.group(2):
        total += math.prod(int(d) for d in m.group(1).split("x")[:-1])
print(total)
PY
)
echo "  parameters:                       $params (PyTorch counts $(field x "['param_count']"))"
echo "  dropout before removal:           $(report "r[0]['outputs']['dropout_count']") (PyTorch counts $(field x "['dropout_count']"))"
echo "  dropout removed:                  $(report "r[1]['outputs']['removed']")"
echo "  dropout after removal:            $(report "r[2]['outputs']['dropout_count']")"
echo "  checkpoint:                       $out/$name.ckpt ($(stat -c %s "$out/$name.ckpt") bytes)"
echo "  reloaded graph equals saved one:  yes"
echo "  against PyTorch (eval mode):      $(tail -1 "$out/run.txt")"
echo "  pass outputs (JSON):              $out/report.json"
