#!/bin/sh
# The hardware flow of docs/Hardware.md at a folding chosen by
# -mav-fold-parallelism:
#   fold-flow.sh BIN MODELS NAME SHAPE WORK TAG FOLD [icarus]
# imports MODELS/NAME.pt, raises, folds batch norms, quantizes to <8, 4>,
# annotates, folds with -mav-fold-parallelism=FOLD (e.g. target-cycles=500),
# writes the pass outputs to WORK/NAME-TAG/report.json, prints the predicted
# bottleneck, exports the design, lints it with verilator -Wall (no waivers)
# and simulates it bit for bit under stalls with Verilator (and Icarus with
# `icarus`); mav-run prints the measured cycles. Any failing step stops the
# script.
set -eu
bin=$1 models=$2 name=$3 shape=$4 work=$5 tag=$6 fold=$7
sim=${8:-}
dir=$work/$name-$tag
rm -rf "$dir" && mkdir -p "$dir"
"$bin/mav-translate" --import-torchscript "$models/$name.pt" \
  --input-shape="${shape}xf32" -o "$dir/net.mlir"
"$bin/mav-opt" "$dir/net.mlir" -mav-raise -mav-fold-batchnorm \
  -mav-quantize='width=8 frac=4' -mav-add-hardware-metadata \
  -mav-fold-parallelism="$fold" --mav-report="$dir/report.json" \
  -o "$dir/net.hw.mlir"
/usr/bin/python3 - "$dir/report.json" <<'PY'
import json, sys
outputs = [r["outputs"] for r in json.load(open(sys.argv[1]))
           if r["pass"] == "mav-fold-parallelism"][0]
print("predicted: bottleneck %s, cycles: %d, multipliers: %d"
      % (outputs["bottleneck"], outputs["bottleneck_cycles"],
         outputs["multipliers"]))
PY
"$bin/mav-translate" --export-verilog "$dir/net.hw.mlir" -o "$dir/rtl"
if grep -l 'lint_off' "$dir"/rtl/*.sv; then
  echo "waiver found"; exit 1
fi
(cd "$dir/rtl" && verilator --lint-only -Wall --top-module top -f filelist.f)
echo "lint: clean"
"$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=3 --samples=2
if [ "$sim" = icarus ]; then
  "$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=4 --samples=2 \
    --simulator=icarus
fi
