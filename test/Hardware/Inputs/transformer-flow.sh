#!/bin/sh
# The hardware flow of docs/Hardware.md ("Transformers") on one trace:
#   transformer-flow.sh BIN PT SHAPE WIDTH FRAC WIDTHS WORK [icarus] [synth]
# imports PT, lowers PyTorch's fused attention kernels, inlines the
# attention and encoder-layer modules, raises, splits unpacked chunks into
# slices, folds the shape arithmetic, removes dropout, quantizes to
# <WIDTH, FRAC>, annotates with max-parallelism WIDTHS (a number) or folds to
# WIDTHS (multipliers=M or target-cycles=N: -mav-fold-parallelism); proves
# every rewrite before quantization with mav-run --reference (float, bit for bit within
# float tolerance), reports the fixed-point model's error against PyTorch on
# 8 samples, models performance (check_perf.py), exports the design, lints
# it with verilator -Wall (no waivers) and simulates it bit for bit under
# Verilator with stalls and then without (the timing line: within 10% of the
# model). With `icarus`, also under Icarus (one sample, no timing run); with
# `synth`, Yosys's coarse synthesis of the whole design. Any failing step
# stops the script.
set -eu
bin=$1 pt=$2 shape=$3 width=$4 frac=$5 par=$6 work=$7
shift 7
dir=$work/$(basename "$pt" .pt)-w$width-f$frac-$(echo "$par" | tr = -)
rm -rf "$dir" && mkdir -p "$dir"
# The import and the raise remark on shapes taken from libtorch's meta
# device; their output is shown only when they fail.
"$bin/mav-translate" --import-torchscript "$pt" --input-shape="${shape}xf32" \
  -o "$dir/net.mlir" 2> "$dir/import.log" || { cat "$dir/import.log"; exit 1; }
"$bin/mav-opt" "$dir/net.mlir" -mav-lower-fused-attention \
  -mav-inline-modules=classes=TransformerEncoderLayer,MultiheadAttention \
  -mav-raise -mav-split-chunks -mav-raise -mav-fold-shape-arithmetic \
  -mav-remove-dropout -o "$dir/net.lowered.mlir" 2> "$dir/lower.log" ||
  { cat "$dir/lower.log"; exit 1; }
"$bin/mav-run" "$dir/net.lowered.mlir" --reference="$pt" | sed 's/^/float: /'
case $par in
  multipliers=* | target-cycles=*)
    widths="-mav-add-hardware-metadata -mav-fold-parallelism=$par" ;;
  *) widths="-mav-add-hardware-metadata=max-parallelism=$par" ;;
esac
"$bin/mav-opt" "$dir/net.lowered.mlir" \
  -mav-quantize="width=$width frac=$frac" $widths -o "$dir/net.hw.mlir"
case $par in
  *=*) "$bin/mav-opt" "$dir/net.hw.mlir" --mav-elide-weights |
    grep -o 'multiplier_budget = [0-9]* : i64, multipliers = [0-9]* : i64' |
    sed 's/^/fold: /' ;;
esac
"$bin/mav-run" "$dir/net.hw.mlir" --reference="$pt" --samples=8
"$bin/mav-translate" --report-performance "$dir/net.hw.mlir" --clock-mhz=200 \
  -o "$dir/perf.json"
/usr/bin/python3 "$(dirname "$0")/check_perf.py" "$dir/perf.json" 200
"$bin/mav-translate" --export-verilog "$dir/net.hw.mlir" -o "$dir/rtl"
if grep -l 'lint_off' "$dir"/rtl/*.sv; then
  echo "waiver found"; exit 1
fi
(cd "$dir/rtl" && verilator --lint-only -Wall --top-module top -f filelist.f)
echo "lint: clean"
"$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=3 --samples=2
for option in "$@"; do
  if [ "$option" = icarus ]; then
    "$bin/mav-run" "$dir/net.hw.mlir" --rtl="$dir/rtl" --seed=4 --samples=1 \
      --simulator=icarus --timing=0
  elif [ "$option" = synth ]; then
    (cd "$dir/rtl" && yosys -q -p "read_verilog -sv $(tr '\n' ' ' < filelist.f); synth -top top -run begin:fine; check -assert; tee -q -o stat.json stat -json")
    grep -q '"num_cells"' "$dir/rtl/stat.json" && echo "yosys: synthesised"
  fi
done
