#!/usr/bin/env bash
# Mutation testing of the test suite (test/README.md, "Mutation testing").
#
#   scripts/mutation-test.sh [--dir DIR] [--only REGEX] [--no-baseline] [--list]
#
# Applies a fixed set of semantic mutations, one at a time, each to a scratch
# copy of the tree, and requires that the lit tests named for it fail, with
# the message that says why. Prints each mutation as `caught` or `missed`
# (or `error` when it could not be applied), then `mutation score: N/M (P%)`;
# exits 1 below 100%.
#
# The user's checkout is never mutated. The source tree is copied (rsync,
# mtimes preserved; build directories and .git left out) into DIR/src
# (default build-mutation/, or $MAV_MUTATION_DIR), and built in DIR/build as
# scripts/build.sh builds (Ninja, Release, gcc), with ccache (DIR/ccache) as
# compiler launcher and -j2. The first run builds everything (11 to 15
# minutes on 2 cores); later runs copy only what changed and rebuild
# incrementally.
#
# Code mutations (C++, and the .sv components, embedded into the binaries at
# build time) are applied to DIR/src and rebuilt; the file is then restored
# and touched, so that the next build (a ccache hit) restores the binaries.
# Data mutations (IR text, checkpoints, weights files, exported summaries)
# need no rebuild: the tool that writes the data (DIR/build/bin/mav-opt or
# mav-translate) is replaced by a wrapper that runs it and then mutates what
# it wrote, so the unmodified tests see mutated data exactly where they would
# see a bug's. Options:
#   --dir DIR       scratch directory (default $MAV_MUTATION_DIR or
#                   build-mutation/ in the checkout)
#   --only REGEX    run only the mutations whose name matches REGEX
#   --no-baseline   skip the run of the named tests on the unmutated copy
#                   (by default each mutation's tests must pass unmutated
#                   first, else its verdict is `error`)
#   --list          print the mutations and their tests, and exit
#   -j N            lit workers (default 2)
# Environment: MAV_LIT overrides the lit command (by default the one the
# build's CMakeCache.txt names, LLVM_EXTERNAL_LIT, run by /usr/bin/python3).
set -euo pipefail
script=$0

main() {
  root=$(cd "$(dirname "$0")/.." && pwd)
  scratch=${MAV_MUTATION_DIR:-$root/build-mutation}
  driver_args=()
  list=0
  while [ $# -gt 0 ]; do
    case $1 in
      --dir) scratch=$2; shift 2 ;;
      --dir=*) scratch=${1#--dir=}; shift ;;
      --list) list=1; driver_args+=("$1"); shift ;;
      --only|-j) driver_args+=("$1" "$2"); shift 2 ;;
      --no-baseline|--only=*|-j*) driver_args+=("$1"); shift ;;
      -h|--help) sed -n '2,/^set -euo/p' "$script" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
      *) echo "mutation-test: unknown option $1" >&2; exit 2 ;;
    esac
  done
  mkdir -p "$scratch"
  scratch=$(cd "$scratch" && pwd)
  src=$scratch/src
  build=$scratch/build
  driver=$scratch/mutation_driver.py

  # The driver is the Python program at the end of this file.
  driver_source > "$driver"
  if [ "$list" = 1 ]; then
    exec /usr/bin/python3 "$driver" --src "$root" --build "$build" \
      --scratch "$scratch" "${driver_args[@]}"
  fi

  start=$(date +%s)
  # A run that was interrupted left a mutation in the copy: undo it first.
  /usr/bin/python3 "$driver" --src "$src" --build "$build" --scratch "$scratch" \
    --recover-only

  # Copy the tree. rsync keeps mtimes, so that only what changed is rebuilt;
  # it compares contents, and a file whose content changed is then touched:
  # its copy must be newer than the objects built from the old content even
  # when its mtime in the checkout is older (a mutant left by an interrupted
  # run, a file restored with an old mtime). Without rsync, tar copies all
  # (but leaves files deleted since).
  inside=
  case $scratch/ in
    "$root"/*) inside=${scratch#"$root"/} ;;
  esac
  mkdir -p "$src"
  if command -v rsync > /dev/null; then
    rsync -a --checksum --delete --out-format='%i %n' --exclude='/build*/' \
      --exclude='/.git/' --exclude='__pycache__/' \
      ${inside:+--exclude="/$inside/"} "$root/" "$src/" |
      while read -r change name; do
        case $change in
          '>f'*) touch -- "$src/$name" ;;
        esac
      done
  else
    tar -C "$root" --anchored --exclude='./build*' --exclude=./.git \
      ${inside:+--exclude="./$inside"} --no-anchored --exclude=__pycache__ \
      -cf - . | tar -C "$src" -xpf -
  fi
  /usr/bin/python3 "$driver" --src "$src" --build "$build" --scratch "$scratch" \
    --touch-recovered

  export CCACHE_DIR=$scratch/ccache
  export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime
  export CCACHE_BASEDIR=$scratch
  # A scratch build configured for another MLIR is configured afresh, as
  # scripts/build.sh does.
  if [ -f "$build/CMakeCache.txt" ] && ! grep -qx \
      "MLIR_DIR:PATH=/usr/lib/llvm-19/lib/cmake/mlir" "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  if [ ! -f "$build/build.ninja" ]; then
    echo "mutation-test: configuring $build (the first build takes 11 to 15 minutes on 2 cores)"
    cmake -G Ninja -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
      -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
      > "$scratch/configure.log" || { cat "$scratch/configure.log"; exit 1; }
  fi
  echo "mutation-test: building $build"
  if ! cmake --build "$build" -j2 > "$scratch/build.log" 2>&1; then
    tail -40 "$scratch/build.log"
    echo "mutation-test: the unmutated copy does not build"
    exit 1
  fi
  echo "mutation-test: copied and built in $(( $(date +%s) - start )) s"

  status=0
  /usr/bin/python3 "$driver" --src "$src" --build "$build" --scratch "$scratch" \
    "${driver_args[@]}" || status=$?
  echo "mutation-test: total $(( $(date +%s) - start )) s"
  exit $status
}

# The mutation driver, written to DIR/mutation_driver.py and run from there.
driver_source() {
  cat <<'__DRIVER__'
"""The mutation driver of scripts/mutation-test.sh (extracted and run by it)."""

import argparse
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time
import zipfile

PYTHON = "/usr/bin/python3"
TOOLS = ["mav-opt", "mav-translate", "mav-run"]


# --- The mutations ----------------------------------------------------------
#
# Each: name; what (one line); where (the file or the data it changes);
# tests (lit test paths under test/, each run with --filter); expect (a
# regular expression that the failing tests' output must contain: the check
# that should catch the mutation, not any failure); and either
#   code: (file, regex, replacement): the regex must match exactly once, or
#   data: (tool, mutator name, arguments): the tool's wrapper runs the tool,
#         then the mutator on its command line and outputs.

MUTATIONS = [
    dict(name="op-swap-add-sub",
         what="every aten::add.Tensor of torchvision mobilenet_v2 (its 10 "
              "residual adds) becomes aten::sub.Tensor",
         where="the IR imported from mobilenet_v2.pt (mav-translate output)",
         data=("mav-translate", "swap_ops",
               {"model": "mobilenet_v2",
                "swaps": [[r'"aten::add\.Tensor"', '"aten::sub.Tensor"']]}),
         tests=["Run/reference.test"],
         expect=r"mobilenet_v2: UNEXPECTED: exit 1"),
    dict(name="op-swap-relu-sigmoid",
         what="every aten::relu_ of torchvision resnet18 becomes "
              "aten::sigmoid_",
         where="the IR imported from resnet18.pt (mav-translate output)",
         data=("mav-translate", "swap_ops",
               {"model": "resnet18",
                "swaps": [[r'"aten::relu_"', '"aten::sigmoid_"']]}),
         tests=["Run/reference.test"],
         expect=r"resnet18: UNEXPECTED: exit 1"),
    dict(name="op-swap-gelu-sigmoid",
         what="both aten::gelu of the vit test model become aten::sigmoid",
         where="the IR imported from vit.pt (mav-translate output)",
         data=("mav-translate", "swap_ops",
               {"model": "vit",
                "swaps": [[r'"aten::gelu" \((%\w+), approximate = "none"\)',
                           r'"aten::sigmoid" (\1)']]}),
         tests=["Checkpoint/roundtrip.test"],
         expect=r"MISMATCH"),
    dict(name="checkpoint-weight",
         what="vit's conv_proj.weight[0] += 1.0 in the checkpoint "
              "-mav-export-checkpoint writes, record checksums and header "
              "resealed",
         where="NAME.ckpt (mav-opt -mav-export-checkpoint output)",
         data=("mav-opt", "perturb_checkpoint",
               {"weight": "conv_proj.weight"}),
         tests=["Checkpoint/roundtrip.test"],
         # The text printed from the checkpoint differs from the text
         # exported (weights inline), or the run or torch.load sees it.
         expect=r"(?m)^[<>] .*0x|compare_weights: .* differs|MISMATCH"),
    dict(name="weights-file-weight",
         what="resnet18's conv1.weight[0] += 1.0 in the weights file "
              "NAME.mlir.weights, its checksums, header and the checksum "
              "the text names resealed",
         where="NAME.mlir.weights (mav-translate --import-torchscript output)",
         data=("mav-translate", "perturb_weights_file",
               {"model": "resnet18", "weight": "conv1.weight"}),
         tests=["Checkpoint/weights-file.test"],
         expect=r"compare_weights: conv1\.weight differs|MISMATCH"),
    dict(name="node-dropped-module",
         what="plain_cnn's relu call_module is dropped from @forward (its "
              "uses take its input) before --export-json",
         where="hw.mlir (mav-opt -mav-add-hardware-metadata output of "
               "check_json.py)",
         data=("mav-opt", "drop_node",
               {"path_contains": "/plain_cnn/", "output_suffix": "/hw.mlir",
                "node": "relu"}),
         tests=["Export/export-json-models.test"],
         expect=r"plain_cnn: FAIL"),
    dict(name="node-dropped-add",
         what="resnet18's first residual add_ (a call_method) is dropped "
              "from @forward (its uses take its first operand) before "
              "--export-json",
         where="hw.mlir (mav-opt -mav-add-hardware-metadata output of "
               "check_json.py)",
         data=("mav-opt", "drop_node",
               {"path_contains": "/resnet18/", "output_suffix": "/hw.mlir",
                "node": "add"}),
         tests=["Export/export-json-models.test"],
         expect=r"resnet18: FAIL"),
    dict(name="summary-rows-dropped",
         what="the last 16 rows of every model's summary are dropped (the "
              "--export-json \"summary\" and the --summary table)",
         where="mav-translate --export-json and --summary output",
         data=("mav-translate", "drop_summary_rows", {"rows": 16}),
         tests=["Visualization/summary-models.test"],
         expect=r": FAIL: "),
    dict(name="flops-conv-formula",
         what="convFlops counts prod(kernel) MACs per output element "
              "instead of Cin/groups * prod(kernel)",
         where="lib/Operators/CostFormulas.cpp",
         code=("lib/Operators/CostFormulas.cpp",
               r"(Flops convFlops\(const CostInputs &inputs\) \{[^}]*?"
               r"numElements\(weight->drop_front\()(\)\)\);)",
               r"\g<1>2\g<2>"),
         tests=["Visualization/flops-models.test"],
         expect=r": FAIL: "),
    dict(name="handshake-join2-in1-ready",
         what="fixed_join2's data_in_1_ready loses its data_in_0_valid term",
         where="lib/Export/Verilog/rtl/fixed_join2.sv",
         code=("lib/Export/Verilog/rtl/fixed_join2.sv",
               r"assign data_in_1_ready = data_in_0_valid && stage_ready;",
               "assign data_in_1_ready = stage_ready;"),
         tests=["Hardware/join2.test", "Hardware/add.test",
                "Hardware/mul.test"],
         expect=r"data_in_1_ready without data_in_0_valid"),
    dict(name="handshake-join2-in0-ready",
         what="fixed_join2's data_in_0_ready loses its data_in_1_valid term",
         where="lib/Export/Verilog/rtl/fixed_join2.sv",
         code=("lib/Export/Verilog/rtl/fixed_join2.sv",
               r"assign data_in_0_ready = data_in_1_valid && stage_ready;",
               "assign data_in_0_ready = stage_ready;"),
         tests=["Hardware/join2.test", "Hardware/add.test",
                "Hardware/mul.test"],
         expect=r"data_in_0_ready without data_in_1_valid"),
    dict(name="rounding-cpp",
         what="roundHalfEven rounds ties up instead of to even (the C++ "
              "fixed-point model of mav-run and the ROMs)",
         where="include/mav/Hardware/FixedPoint.h",
         code=("include/mav/Hardware/FixedPoint.h",
               r"if \(remainder > half \|\| \(remainder == half && "
               r"\(quotient & 1\)\)\)",
               "if (remainder >= half)"),
         tests=["Hardware/flow-mlp.test", "Hardware/flow-cnn.test"],
         expect=r"differing: [1-9][0-9]*.*MISMATCH"),
    dict(name="rounding-sv",
         what="fixed_round_sat rounds ties up instead of to even",
         where="lib/Export/Verilog/rtl/fixed_round_sat.sv",
         code=("lib/Export/Verilog/rtl/fixed_round_sat.sv",
               r"\{\{\(EW - 1\)\{1'b0\}\}, ext\[SHIFT\]\}",
               "{{(EW - 1){1'b0}}, 1'b1}"),
         tests=["Hardware/mul.test", "Hardware/linear.test",
                "Hardware/flow-mlp.test"],
         expect=r"MISMATCH: beat|differing: [1-9]"),
    dict(name="quantized-bias",
         what="hw_cnn's fc.bias[0] becomes 5.0 in the quantized graph "
              "(about 5,000 LSB of its <16, 10> output)",
         where="the -mav-quantize output of mav-opt (flow-mixed's net.hw.mlir)",
         data=("mav-opt", "set_bias",
               {"weight": "fc.bias", "index": 0, "value": 5.0}),
         tests=["Hardware/flow-mixed.test"],
         expect=r"vs float reference: max abs error .*MISMATCH"),
    dict(name="dropout-left-in",
         what="-mav-remove-dropout no longer descends into leaf module "
              "bodies, so dropouts inside them stay",
         where="passes/transform/RemoveDropout.cpp",
         code=("passes/transform/RemoveDropout.cpp",
               r"collectGraphs\(body, symbols, graphs\);",
               "(void)body;"),
         tests=["Passes/remove-dropout.mlir", "Passes/dropout-models.test"],
         expect=r"dropouts left after removal|remove-dropout\.mlir:[0-9]+:[0-9]+: error"),
    dict(name="exec-order-param-missing",
         what="-mav-param-exec-order drops the last parameter of the "
              "forward order",
         where="passes/analysis/ParamExecOrder.cpp",
         code=("passes/analysis/ParamExecOrder.cpp",
               r"(\n)(    // Which modules use each parameter)",
               r"\1    if (!order.forwardOrder.empty())\n"
               r"      order.forwardOrder.pop_back();\n\2"),
         tests=["Passes/analyses.test", "Passes/analyses-models.test"],
         expect=r"FAIL: param_forward_order|analyses\.test:[0-9]+:[0-9]+: error"),
]


# --- Checkpoints (docs/Checkpoints.md) ---------------------------------------

HEADER = "mav/header"
MANIFEST = "mav/manifest.json"
GRAPH = "mav/graph.mlirbc"


def xxh64_hex(data, src):
    """The checksum of a record: the xxHash64 of corrupt.py, the checkpoint
    tests' forger."""
    sys.path.insert(0, os.path.join(src, "test", "Checkpoint", "Inputs"))
    import corrupt  # noqa: E402
    return corrupt.checksum(data)


def perturb_archive(path, weight, src, delta=1.0):
    """Adds `delta` to element 0 (float32) of `weight` in the checkpoint at
    `path`, and reseals it: the record's checksum in both manifest tables,
    then the header. Returns the manifest's new checksum."""
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        top = infos[0].filename.split("/")[0] + "/"
        records = {i.filename[len(top):]: z.read(i.filename) for i in infos}
    manifest = json.loads(records[MANIFEST])
    entry = manifest["weights"][weight]
    if entry["dtype"] != "f32":
        raise SystemExit("%s is %s, not f32" % (weight, entry["dtype"]))
    name = entry["record"]
    data = bytearray(records[name])
    (value,) = struct.unpack_from("<f", data, 0)
    struct.pack_into("<f", data, 0, value + delta)
    records[name] = bytes(data)
    check = xxh64_hex(records[name], src)
    entry["checksum"] = check
    manifest["records"][name]["checksum"] = check
    records[MANIFEST] = json.dumps(manifest).encode()
    manifest_check = xxh64_hex(records[MANIFEST], src)
    records[HEADER] = (
        "mav-checkpoint 3\nmanifest %d %s\ngraph %d %s\n" % (
            len(records[MANIFEST]), manifest_check, len(records[GRAPH]),
            xxh64_hex(records[GRAPH], src))).encode()
    tmp = path + ".mutating"
    with zipfile.ZipFile(tmp, "w") as out:
        for info in infos:
            out.writestr(info, records[info.filename[len(top):]])
    os.replace(tmp, path)
    return manifest_check


# --- Data mutators: run by the tool wrappers after the real tool -----------


def option_value(args, name):
    for k, arg in enumerate(args):
        if arg == name and k + 1 < len(args):
            return args[k + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


def imported_model(args):
    pt = option_value(args, "--import-torchscript")
    return os.path.basename(pt)[:-3] if pt and pt.endswith(".pt") else None


def text_output(args):
    out = option_value(args, "-o")
    if not out or "--emit-bytecode" in args or not os.path.isfile(out):
        return None
    with open(out, "rb") as f:
        if f.read(4) == b"ML\xefR":  # MLIR bytecode
            return None
    return out


def swap_ops(args, spec, ctx):
    if imported_model(args) != spec["model"]:
        return False
    out = text_output(args)
    if not out:
        return False
    text = open(out).read()
    count = 0
    for pattern, replacement in spec["swaps"]:
        text, n = re.subn(pattern, replacement, text)
        count += n
    if not count:
        return False
    open(out, "w").write(text)
    return "%d ops in %s" % (count, out)


def perturb_checkpoint(args, spec, ctx):
    path = None
    for arg in args:
        m = re.search(r"mav-export-checkpoint=(?:[^ ]* )?path=([^ }']+)", arg)
        if m:
            path = m.group(1)
    if not path or not os.path.isfile(path):
        return False
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        manifest = json.loads(z.read([n for n in names
                                      if n.endswith(MANIFEST)][0]))
    if spec["weight"] not in manifest["weights"]:
        return False
    perturb_archive(path, spec["weight"], ctx["src"])
    return "%s in %s" % (spec["weight"], path)


def perturb_weights_file(args, spec, ctx):
    if imported_model(args) != spec["model"]:
        return False
    out = option_value(args, "-o")
    if not out or not os.path.isfile(out + ".weights"):
        return False
    check = perturb_archive(out + ".weights", spec["weight"], ctx["src"])
    text = open(out).read()
    new, n = re.subn(r'(mav\.weights_file = \["[^"]*", ")[0-9a-f]+("\])',
                     r"\g<1>%s\2" % check, text)
    if n != 1:
        raise SystemExit("no mav.weights_file in %s" % out)
    open(out, "w").write(new)
    return "%s in %s.weights" % (spec["weight"], out)


def drop_node(args, spec, ctx):
    out = text_output(args)
    if not out or not out.endswith(spec["output_suffix"]) or not any(
            spec["path_contains"] in a for a in args if a != out):
        return False
    lines = open(out).read().split("\n")
    node = spec["node"]
    pattern = re.compile(r"^    %" + node + r" = mav\.[a-z_]+ .*?\((%[\w]+)[,)]")
    inside = False
    for k, line in enumerate(lines):
        if line.startswith("  mav.graph @forward"):
            inside = True
        elif inside and line.startswith("  }"):
            break
        elif inside:
            m = pattern.match(line)
            if m:
                operand = m.group(1)
                del lines[k]
                use = re.compile("%" + node + r"\b")
                for j in range(k, len(lines)):
                    if lines[j].startswith("  }"):
                        break
                    lines[j] = use.sub(operand, lines[j])
                open(out, "w").write("\n".join(lines))
                return "%%%s of %s" % (node, out)
    return False


def drop_summary_rows(args, spec, ctx):
    """--export-json: drops the last rows of "summary"; --summary: the same
    rows' lines of the table (ctx["stdout"] holds what the tool printed)."""
    if "--export-json" in args:
        out = option_value(args, "-o")
        if not out or not os.path.isfile(out):
            return False
        doc = json.load(open(out))
        rows = doc.get("summary", {}).get("rows", [])
        if len(rows) < 2:
            return False
        n = min(spec["rows"], len(rows) - 1)
        del rows[-n:]
        open(out, "w").write(json.dumps(doc, indent=2) + "\n")
        return "%d rows of %s" % (n, out)
    if "--summary" in args and ctx.get("stdout") is not None:
        lines = ctx["stdout"].split("\n")
        rows = [k for k, l in enumerate(lines)
                if re.match(r"^[│├└ ]*[├└]─\S+: \S+ ", l)]
        if len(rows) < 2:
            return False
        n = min(spec["rows"], len(rows) - 1)
        drop = set(rows[-n:])
        ctx["stdout"] = "\n".join(l for k, l in enumerate(lines)
                                  if k not in drop)
        return "%d table rows" % n
    return False


def set_bias(args, spec, ctx):
    if not any(a.startswith("-mav-quantize") or a.startswith("--mav-quantize")
               for a in args):
        return False
    out = text_output(args)
    if not out:
        return False
    sys.path.insert(0, os.path.join(ctx["src"], "test", "models"))
    from perturb_weight import edit_weight

    def set_value(values):
        values[spec["index"]] = spec["value"]
        return values

    text = edit_weight(open(out).read(), spec["weight"], set_value)
    if text is None:
        return False
    open(out, "w").write(text)
    return "%s[%d] = %g in %s" % (spec["weight"], spec["index"],
                                  spec["value"], out)


MUTATORS = {f.__name__: f for f in (swap_ops, perturb_checkpoint,
                                    perturb_weights_file, drop_node,
                                    drop_summary_rows, set_bias)}


def wrap(argv):
    """wrap SCRATCH SRC MUTATION REAL TOOLPATH ARGS...: runs the real tool as
    TOOLPATH, then the mutation's mutator on what it wrote."""
    scratch, src, name, real, tool = argv[:5]
    args = argv[5:]
    mutation = [m for m in MUTATIONS if m["name"] == name][0]
    _, mutator, spec = mutation["data"]
    capture = mutator == "drop_summary_rows" and "--summary" in args
    run = subprocess.run([tool] + args, executable=real,
                         stdout=subprocess.PIPE if capture else None)
    ctx = {"src": src, "stdout": run.stdout.decode() if capture else None}
    if run.returncode == 0:
        hit = MUTATORS[mutator](args, spec, ctx)
        if hit:
            with open(os.path.join(scratch, "hits"), "a") as f:
                f.write("%s: %s\n" % (os.path.basename(tool), hit))
    if capture:
        sys.stdout.write(ctx["stdout"])
        sys.stdout.flush()
    return run.returncode


# --- Applying and reverting, with a record to recover from an interruption --


class Copy:
    def __init__(self, src, build, scratch):
        self.src, self.build, self.scratch = src, build, scratch
        self.state = os.path.join(scratch, "active-mutation.json")
        self.bin = os.path.join(build, "bin")

    def record(self, state):
        with open(self.state, "w") as f:
            json.dump(state, f)

    def recover(self):
        """Undoes what an interrupted run left: wrappers, a mutated file (its
        content comes back with the next copy; `touch_recovered` then makes
        it newer than the objects built from the mutant)."""
        if not os.path.exists(self.state):
            return
        state = json.load(open(self.state))
        if state.get("kind") == "data":
            self.unwrap()
            shutil.rmtree(os.path.join(self.build, "test", "models",
                                       "imported"), ignore_errors=True)
            os.remove(self.state)
        elif state.get("kind") == "code":
            path = os.path.join(self.src, state["file"])
            if "original" in state and os.path.exists(path):
                open(path, "w").write(state["original"])
                os.utime(path)
            state["restored"] = True
            self.record(state)

    def touch_recovered(self):
        if not os.path.exists(self.state):
            return
        state = json.load(open(self.state))
        if state.get("kind") == "code":
            os.utime(os.path.join(self.src, state["file"]))
        os.remove(self.state)

    def apply_code(self, mutation):
        rel, pattern, replacement = mutation["code"]
        path = os.path.join(self.src, rel)
        original = open(path).read()
        mutated, n = re.subn(pattern, replacement, original)
        if n != 1:
            return "the pattern matches %d times in %s" % (n, rel)
        self.record({"kind": "code", "file": rel, "original": original})
        open(path, "w").write(mutated)
        return None

    def revert_code(self, mutation):
        rel = mutation["code"][0]
        state = json.load(open(self.state))
        path = os.path.join(self.src, rel)
        open(path, "w").write(state["original"])
        os.utime(path)  # newer than the mutant's objects: rebuilt next time
        os.remove(self.state)

    def wrap_tool(self, mutation, driver):
        tool = mutation["data"][0]
        path = os.path.join(self.bin, tool)
        real = path + ".real"
        self.record({"kind": "data", "tool": tool})
        os.rename(path, real)
        words = [PYTHON, driver, "--wrap", self.scratch, self.src,
                 mutation["name"], real, path]
        with open(path, "w") as f:
            f.write('#!/bin/sh\nexec %s "$@"\n' %
                    " ".join(shlex.quote(w) for w in words))
        os.chmod(path, 0o755)

    def unwrap(self):
        for tool in TOOLS:
            path = os.path.join(self.bin, tool)
            if os.path.exists(path + ".real"):
                os.replace(path + ".real", path)

    def revert_data(self):
        self.unwrap()
        # The tests' import cache (test/models/mavtest.py) holds imports made
        # by the wrapper, newer than the real binary: drop it.
        shutil.rmtree(os.path.join(self.build, "test", "models", "imported"),
                      ignore_errors=True)
        os.remove(self.state)

    def rebuild(self, log):
        env = dict(os.environ, CCACHE_DIR=os.path.join(self.scratch, "ccache"),
                   CCACHE_BASEDIR=self.scratch,
                   CCACHE_SLOPPINESS="include_file_mtime,include_file_ctime")
        with open(log, "a") as f:
            f.write("\n=== build\n")
            f.flush()
            run = subprocess.run(["cmake", "--build", self.build, "-j2",
                                  "--target"] + TOOLS, stdout=f,
                                 stderr=subprocess.STDOUT, env=env)
        return run.returncode == 0


# --- Running lit ---------------------------------------------------------


def lit_command(build):
    if os.environ.get("MAV_LIT"):
        return os.environ["MAV_LIT"].split()
    cache = open(os.path.join(build, "CMakeCache.txt")).read()
    m = re.search(r"^LLVM_EXTERNAL_LIT:[A-Z]*=(.*)$", cache, re.M)
    if not m:
        raise SystemExit("mutation-test: no LLVM_EXTERNAL_LIT in %s; set MAV_LIT"
                         % os.path.join(build, "CMakeCache.txt"))
    return [PYTHON, m.group(1).strip()]


def run_lit(build, tests, jobs, log):
    pattern = "^MAV :: (%s)$" % "|".join(re.escape(t) for t in tests)
    cmd = lit_command(build) + ["-v", "-j", str(jobs), "--filter", pattern,
                                os.path.join(build, "test")]
    # FileCheck prints all of its input on a failure, so that the expected
    # message is there to be found.
    env = dict(os.environ, FILECHECK_OPTS="-dump-input-filter=all")
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=env)
    with open(log, "a") as f:
        f.write("\n=== %s\n%s" % (" ".join(cmd), run.stdout))
    failed = re.findall(r"^(?:FAIL|XPASS|UNRESOLVED): MAV :: (\S+)", run.stdout,
                        re.M)
    passed = re.findall(r"^PASS: MAV :: (\S+)", run.stdout, re.M)
    return run.stdout, failed, passed


# --- The run -------------------------------------------------------------


def main():
    if sys.argv[1:2] == ["--wrap"]:
        sys.exit(wrap(sys.argv[2:]))
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--only")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--recover-only", action="store_true")
    ap.add_argument("--touch-recovered", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    copy = Copy(a.src, a.build, a.scratch)
    if a.recover_only:
        return copy.recover()
    if a.touch_recovered:
        return copy.touch_recovered()

    mutations = [m for m in MUTATIONS
                 if not a.only or re.search(a.only, m["name"])]
    if a.list:
        for m in mutations:
            print("%s (%s): %s\n    where: %s\n    tests: %s\n    expect: %s"
                  % (m["name"], "code" if "code" in m else "data", m["what"],
                     m["where"], " ".join(m["tests"]), m["expect"]))
        return 0
    driver = os.path.abspath(__file__)
    logs = os.path.join(a.scratch, "logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)

    baseline_failed = set()
    if not a.no_baseline:
        tests = sorted({t for m in mutations for t in m["tests"]})
        t0 = time.time()
        _, failed, passed = run_lit(a.build, tests, a.j,
                                    os.path.join(logs, "baseline.log"))
        baseline_failed = set(failed) | (set(tests) - set(passed))
        print("baseline: %d tests in %.0f s%s" % (
            len(tests), time.time() - t0,
            ", failing unmutated: " + " ".join(sorted(baseline_failed))
            if baseline_failed else ", all pass"), flush=True)

    results = []
    for m in mutations:
        t0 = time.time()
        log = os.path.join(logs, m["name"] + ".log")
        verdict, why = None, ""
        bad_baseline = sorted(set(m["tests"]) & baseline_failed)
        if bad_baseline:
            verdict, why = "error", "fails unmutated: " + " ".join(bad_baseline)
        elif "code" in m:
            problem = copy.apply_code(m)
            if problem:
                verdict, why = "error", "cannot apply: " + problem
            else:
                try:
                    if not copy.rebuild(log):
                        verdict, why = "error", "the mutant does not build"
                    else:
                        output, failed, _ = run_lit(a.build, m["tests"], a.j, log)
                finally:
                    copy.revert_code(m)
        else:
            hits = os.path.join(a.scratch, "hits")
            if os.path.exists(hits):
                os.remove(hits)
            if not copy.rebuild(log):
                verdict, why = "error", "the unmutated copy does not build"
            else:
                copy.wrap_tool(m, driver)
                try:
                    output, failed, _ = run_lit(a.build, m["tests"], a.j, log)
                finally:
                    copy.revert_data()
                applied = open(hits).read() if os.path.exists(hits) else ""
                with open(log, "a") as f:
                    f.write("\n=== applied\n" + applied)
                if not applied:
                    verdict, why = "error", "never applied: no tool call matched"
        if verdict is None:
            if not failed:
                verdict, why = "missed", "the tests pass"
            elif re.search(m["expect"], output):
                verdict, why = "caught", "by " + " ".join(failed)
                passed = [t for t in m["tests"] if t not in failed]
                if passed:
                    why += "; passed by " + " ".join(passed)
            else:
                verdict = "missed"
                why = ("%s failed, but without /%s/ (another failure: see the "
                       "log)" % (" ".join(failed), m["expect"]))
        results.append((m, verdict))
        print("%-7s %-26s %4.0f s  %s" % (verdict, m["name"], time.time() - t0,
                                          why), flush=True)

    # Leave the copy's binaries as its sources are.
    copy.rebuild(os.path.join(logs, "final-build.log"))
    caught = sum(1 for _, v in results if v == "caught")
    total = len(results)
    print("logs: %s" % logs)
    print("mutation score: %d/%d (%d%%)" % (
        caught, total, (100 * caught // total) if total else 100))
    return 0 if caught == total else 1


if __name__ == "__main__":
    sys.exit(main())
__DRIVER__
}

main "$@"
