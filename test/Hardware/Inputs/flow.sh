#!/bin/sh
# The hardware flow of docs/Hardware.md on one model, one precision, one
# parallelism:
#   flow.sh BIN MODELS NAME SHAPE WIDTH FRAC MAXPAR WORK [report|synth]
# imports MODELS/NAME.pt, raises, folds batch norms, quantizes to
# <WIDTH, FRAC>, annotates with max-parallelism MAXPAR, checks the fixed-point
# model against PyTorch within its error bound, models its performance
# (--report-performance, checked by check_perf.py), exports the design,
# lints it with verilator -Wall (no waivers), simulates it bit for bit under
# Verilator and Icarus, with stalls and then without (mav-run's timing line:
# within 10% of the model); with `report` runs the full resource report (generic and Xilinx
# synthesis down to cells) and embeds it in the JSON export; with `synth`
# runs Yosys's coarse synthesis (`synth -top top -run begin:fine`: elaboration,
# processes, memories, arithmetic), where a design that cannot be synthesised
# fails, and `check -assert` (no multiple drivers, no combinational loops).
# Mapping to gates, 95% of Yosys's time, runs once per model, in `report`.
# Any failing step stops the script.
set -eu
bin=$1 models=$2 name=$3 shape=$4 width=$5 frac=$6 par=$7 work=$8
mode=${9:-}
dir=$work/$name-w$width-f$frac-p$par
rm -rf "$dir" && mkdir -p "$dir"
"$bin/mav-translate" --import-torchscript "$models/$name.pt" \
  --input-shape="${shape}xf32" -o "$dir/net.mlir"
"$bin/mav-opt" "$dir/net.mlir" -mav-raise -mav-fold-batchnorm \
  -mav-quantize="width=$width frac=$frac" \
  -mav-add-hardware-metadata="max-parallelism=$par" -o "$dir/net.hw.mlir"
"$bin/mav-run" "$dir/net.hw.mlir" --reference="$models/$name.pt" \
  --samples=8
"$bin/mav-translate" --report-performance "$dir/net.hw.mlir" --clock-mhz=200 \
  -o "$dir/perf.json"
/usr/bin/python3 "$(dirname "$0")/check_perf.py" "$dir/perf.json" 200
"$bin/mav-translate" --export-verilog "$dir/net.hw.mlir" -o "$dir/rtl"
grep '"parallelism"' "$dir/rtl/design.json"
if grep -l 'lint_off' "$dir"/rtl/*.sv; then
  echo "waiver found"; exit 1
fi
(cd "$dir/rtl" && verilator --lint-only -Wall --top-module top -f filelist.f)
echo "lint: clean"
"$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=3 --samples=2
"$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=4 --samples=2 \
  --simulator=icarus
if [ "$mode" = report ]; then
  "$bin/mav-translate" --report-resources "$dir/rtl" -o "$dir/resources.json"
  "$bin/mav-translate" --export-json "$dir/net.hw.mlir" \
    --resources="$dir/resources.json" -o "$dir/net.json"
  grep -c '"luts"' "$dir/net.json" | sed 's/^/resources in json: /'
elif [ "$mode" = synth ]; then
  (cd "$dir/rtl" && yosys -q -p "read_verilog -sv $(tr '\n' ' ' < filelist.f); synth -top top -run begin:fine; check -assert; tee -q -o stat.json stat -json")
  grep -q '"num_cells"' "$dir/rtl/stat.json" && echo "yosys: synthesised"
fi
