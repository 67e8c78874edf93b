#!/bin/sh
# The float half of the hardware flow (docs/Hardware.md) on one model:
#   float-flow.sh BIN MODELS NAME SHAPE WORK ATOL
# imports MODELS/NAME.pt, raises and checks the raised graph against
# PyTorch at mav-run's default tolerance, folds the batch norms and checks
# the folded graph within the absolute tolerance ATOL (folding rounds
# differently in float32), then prints the pass output of the fold and
# how many nodes of each mase_op the folded graph has. Every line starts
# with NAME; any failing step stops the script.
set -eu
bin=$1 models=$2 name=$3 shape=$4 work=$5 atol=$6
dir=$work/$name
rm -rf "$dir" && mkdir -p "$dir"
"$bin/mav-translate" --import-torchscript "$models/$name.pt" \
  --input-shape="${shape}xf32" -o "$dir/net.mlir"
"$bin/mav-opt" "$dir/net.mlir" -mav-raise -o "$dir/net.raised.mlir"
run() {  # run STEP GRAPH [OPTIONS]: mav-run against PyTorch, its verdict
  step=$1 graph=$2
  shift 2
  status=0
  "$bin/mav-run" "$graph" --reference="$models/$name.pt" "$@" \
    > "$dir/$step.txt" || status=$?
  sed -n "s/^max abs difference/$name: $step: &/p" "$dir/$step.txt"
  return $status
}
run raised "$dir/net.raised.mlir"
"$bin/mav-opt" "$dir/net.mlir" -mav-raise -mav-fold-batchnorm \
  -o "$dir/net.folded.mlir"
grep -o '"mav-fold-batchnorm", {folded = [0-9]*' "$dir/net.folded.mlir" |
  sed "s/^/$name: /"
run folded "$dir/net.folded.mlir" --atol="$atol"
grep -o 'mase_op = "[a-z0-9_]*"' "$dir/net.folded.mlir" | sort | uniq -c |
  awk -v n="$name" '{gsub(/"/, "", $4); print n ": mase_op " $4 " " $1}'
