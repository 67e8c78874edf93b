#!/bin/sh
# The hardware half of the flow (docs/Hardware.md) on one model, without
# simulation:
#   hw-export.sh BIN MODELS NAME SHAPE WIDTH FRAC MAXPAR WORK
# imports MODELS/NAME.pt, raises, folds, quantizes to <WIDTH, FRAC>,
# annotates with max-parallelism MAXPAR, prints how many nodes have no
# component and why, reports the fixed-point model's error against PyTorch
# (the worst-case bound's verdict is cut: on a deep model it says nothing),
# the statistical error estimate's line and mav-run's exit status (the
# caller checks them). Every line starts with NAME; any other failing step
# stops the script. (contract-folding.sh exports and lints.)
set -eu
bin=$1 models=$2 name=$3 shape=$4 width=$5 frac=$6 par=$7 work=$8
dir=$work/$name-w$width-f$frac-p$par
rm -rf "$dir" && mkdir -p "$dir"
"$bin/mav-translate" --import-torchscript "$models/$name.pt" \
  --input-shape="${shape}xf32" -o "$dir/net.mlir"
"$bin/mav-opt" "$dir/net.mlir" -mav-raise -mav-fold-batchnorm \
  -mav-quantize="width=$width frac=$frac" \
  -mav-add-hardware-metadata="max-parallelism=$par" -o "$dir/net.hw.mlir"
grep -o 'unsupported = [0-9]* : i64, unsupported_ops = {[^}]*}' \
  "$dir/net.hw.mlir" | sed "s/^/$name: /"
status=0
"$bin/mav-run" "$dir/net.hw.mlir" --reference="$models/$name.pt" \
  --samples=2 > "$dir/error.txt" || status=$?
sed -n "s/^fixed-point/$name: fixed-point/p" "$dir/error.txt" |
  sed 's/: \(within\|MISMATCH\|UNDECIDED\).*//'
sed -n "s/^error estimate/$name: error estimate/p" "$dir/error.txt"
echo "$name: mav-run: exit $status"
