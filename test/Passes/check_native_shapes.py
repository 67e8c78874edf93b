#!/usr/bin/python3
"""Native shape propagation against libtorch's meta device on real models.

For each model written by test/models/generate.py: imports it, then raises it
twice, with `shape-engine=torch` (libtorch's meta device) and with the
default `shape-engine=auto` (mav's rules when every node has one), and
compares the two outputs byte for byte. Where auto used mav's rules, raises
a third time with `shape-engine=native` and no libtorch plugin to load
(MAV_TORCH_PLUGIN names a missing file), which must give the same text.
Prints one line per model:

  NAME: same (native)            mav's rules, no libtorch
  NAME: same (libtorch: WHY)     a node without a rule; WHY is the remark
  NAME: DIFFERENT ...            the engines disagree (a failure)

Usage: check_native_shapes.py --models DIR --translate PATH --opt PATH
       --work DIR [NAME ...]
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import mavtest  # noqa: E402


def raise_graph(opt, source, output, engine, env=None):
    """Raises `source` into `output`; returns (exit code, stderr)."""
    os.makedirs(os.path.dirname(output), exist_ok=True)
    # -mav-raise with the engine chosen.
    pipeline = ["-mav-lower-nested-tensors", "-mav-init-metadata",
                f"-mav-add-common-metadata=shape-engine={engine}"]
    run = subprocess.run([opt, source, *pipeline, "-o", output],
                         capture_output=True, text=True, env=env)
    return run.returncode, run.stderr


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    args = mavtest.parse_arguments("models", "translate", "opt", "work")
    without_torch = dict(os.environ,
                         MAV_TORCH_PLUGIN=os.path.join(args.work, "missing.so"))
    failed = False
    for name in args.names:
        source = os.path.join(args.work, name + ".mlir")
        mavtest.import_model(args.translate, args.models, name, source,
                             "--mav-weights=file")
        outputs = {engine: os.path.join(args.work, engine, name + ".mlir")
                   for engine in ("torch", "auto", "native")}
        torch_code, torch_err = raise_graph(args.opt, source,
                                            outputs["torch"], "torch")
        auto_code, auto_err = raise_graph(args.opt, source, outputs["auto"],
                                          "auto")
        if torch_code or auto_code:
            print(f"{name}: DIFFERENT: exit codes {torch_code} (torch), "
                  f"{auto_code} (auto): {torch_err or auto_err}")
            failed = True
            continue
        if read(outputs["torch"]) != read(outputs["auto"]):
            print(f"{name}: DIFFERENT: the raised graphs differ")
            failed = True
            continue
        fallback = [line for line in auto_err.splitlines()
                    if "shapes from libtorch" in line]
        if fallback:
            reason = fallback[0].split("remark: ", 1)[-1]
            print(f"{name}: same (libtorch: {reason})")
            continue
        code, err = raise_graph(args.opt, source, outputs["native"], "native",
                                env=without_torch)
        if code or read(outputs["native"]) != read(outputs["torch"]):
            print(f"{name}: DIFFERENT: shape-engine=native without libtorch: "
                  f"{err.strip()}")
            failed = True
            continue
        print(f"{name}: same (native)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
