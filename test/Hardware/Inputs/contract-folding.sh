#!/bin/sh
# The hardware flow of issue 29 at two foldings of one model:
#   contract-folding.sh BIN MODELS NAME SHAPE WIDTH FRAC WORK
# imports MODELS/NAME.pt, raises, folds the batch norms, quantizes to
# <WIDTH, FRAC>, annotates, and folds twice with -mav-fold-parallelism: the
# slowest folding (a target no node exceeds: every width 1), and a fast one
# with 16 times its multipliers (multipliers=16*S). For each it prints the
# fold's outputs, exports the design, lints it with verilator -Wall (no
# waivers) and checks that --report-performance predicts the design the
# fold pass reported. Every line starts with NAME and the folding; any
# failing step stops the script. The designs are left in WORK/NAME-wW-fF-
# {slow,fast} for simulation.
set -eu
bin=$1 models=$2 name=$3 shape=$4 width=$5 frac=$6 work=$7
base=$work/$name-w$width-f$frac
mkdir -p "$base"
"$bin/mav-translate" --import-torchscript "$models/$name.pt" \
  --input-shape="${shape}xf32" -o "$base/net.mlir"
"$bin/mav-opt" "$base/net.mlir" -mav-raise -mav-fold-batchnorm \
  -mav-quantize="width=$width frac=$frac" -mav-add-hardware-metadata \
  -o "$base/net.meta.mlir"
outputs() {  # outputs REPORT KEY: one output of the fold pass
  /usr/bin/python3 -c 'import json, sys
print([r["outputs"] for r in json.load(open(sys.argv[1]))
       if r["pass"] == "mav-fold-parallelism"][-1][sys.argv[2]])' "$1" "$2"
}
fold() {  # fold TAG OPTION
  dir=$base-$1
  rm -rf "$dir" && mkdir -p "$dir"
  "$bin/mav-opt" "$base/net.meta.mlir" -mav-fold-parallelism="$2" \
    --mav-report="$dir/report.json" -o "$dir/net.hw.mlir"
  echo "$name: $1: $2: $(outputs "$dir/report.json" multipliers) multipliers," \
    "bottleneck $(outputs "$dir/report.json" bottleneck_cycles)," \
    "design $(outputs "$dir/report.json" design_cycles_per_frame) cycles per frame"
  "$bin/mav-translate" --report-performance "$dir/net.hw.mlir" \
    -o "$dir/perf.json" > /dev/null
  /usr/bin/python3 -c 'import json, sys
print("%s: %s: report-performance: %d cycles per frame, %d multipliers" % (
    sys.argv[2], sys.argv[3], json.load(open(sys.argv[1]))["design"]["cycles_per_frame"],
    json.load(open(sys.argv[1]))["totals"]["multipliers"]))' \
    "$dir/perf.json" "$name" "$1"
  "$bin/mav-translate" --export-verilog "$dir/net.hw.mlir" -o "$dir/rtl"
  if grep -l 'lint_off' "$dir"/rtl/*.sv; then
    echo "waiver found"; exit 1
  fi
  (cd "$dir/rtl" && verilator --lint-only -Wall --top-module top -f filelist.f)
  echo "$name: $1: lint: clean"
}
fold slow target-cycles=4611686018427387904
fold fast multipliers=$((16 * $(outputs "$base-slow/report.json" multipliers)))
/usr/bin/python3 - "$base-slow/report.json" "$base-fast/report.json" "$name" <<'PY'
import json, sys
slow, fast = ([r["outputs"] for r in json.load(open(path))
               if r["pass"] == "mav-fold-parallelism"][-1]
              for path in sys.argv[1:3])
ratio = fast["design_cycles_per_frame"] / slow["design_cycles_per_frame"]
ok = ratio <= 1 / 12
print("%s: fast/slow cycles per frame: 1/%.1f: %s" % (
    sys.argv[3], 1 / ratio, "within 1/12" if ok else "NOT within 1/12"))
sys.exit(0 if ok else 1)
PY
