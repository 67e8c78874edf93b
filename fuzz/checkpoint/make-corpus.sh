#!/usr/bin/env bash
# Seeds the checkpoint fuzzer's corpus with checkpoints of small test models,
# exported by a normal (gcc) build of mav.
#   fuzz/checkpoint/make-corpus.sh BUILD_DIR CORPUS_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: make-corpus.sh BUILD_DIR CORPUS_DIR}" && pwd)
corpus=${2:?usage: make-corpus.sh BUILD_DIR CORPUS_DIR}
models="$build/test/models"
mkdir -p "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# model name and the shape of its input, as the lit tests import them.
seeds=(
  "plain_cnn 1x3x16x16xf32"
  "mlp_functional_dropout 2x16xf32"
  "shared_scale 2x16xf32"
)
for seed in "${seeds[@]}"; do
  read -r model shape <<<"$seed"
  /usr/bin/python3 "$root/test/models/generate.py" --out "$models" \
    --only "$model" >/dev/null
  "$build/bin/mav-translate" --import-torchscript "$models/$model.pt" \
    --input-shape="$shape" -o "$work/$model.mlir"
  "$build/bin/mav-opt" "$work/$model.mlir" \
    -mav-export-checkpoint=path="$corpus/$model.ckpt" -o /dev/null
  "$build/bin/mav-opt" "$work/$model.mlir" -mav-raise \
    -mav-export-checkpoint=path="$corpus/$model.raised.ckpt" -o /dev/null
done
ls -l "$corpus"
