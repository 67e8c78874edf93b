#!/bin/sh
# lower-fused-attention.sh BIN DIR NAME SHAPE: imports DIR/NAME.pt, counts its
# fused kernels, lowers them, raises, folds the shape arithmetic, counts
# again, and runs the result against the trace.
set -eu
bin=$1 dir=$2 name=$3 shape=$4
"$bin/mav-translate" --import-torchscript "$dir/$name.pt" --input-shape="$shape" \
  -o "$dir/$name.mlir"
fused='"aten::_transformer_encoder_layer_fwd"\|"aten::_native_multi_head_attention"'
echo "fused: $(grep -c "$fused" "$dir/$name.mlir") $(grep -o "$fused" "$dir/$name.mlir" | sort -u | tr -d '"')"
"$bin/mav-opt" "$dir/$name.mlir" -mav-lower-fused-attention -mav-raise \
  -mav-fold-shape-arithmetic -o "$dir/$name.lowered.mlir" 2>/dev/null
"$bin/mav-opt" "$dir/$name.lowered.mlir" --mav-elide-weights > "$dir/$name.txt"
grep -o '#mav.pass_output<"mav-lower-fused-attention", {[^>]*>' "$dir/$name.txt"
echo "left: $(grep -c "$fused" "$dir/$name.txt" || true)"
grep -o '"aten::gelu"' "$dir/$name.txt" | head -1 || true
"$bin/mav-run" "$dir/$name.lowered.mlir" --reference="$dir/$name.pt"
