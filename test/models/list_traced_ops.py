#!/usr/bin/python3
"""Prints every aten op kind the test models use, one per line, sorted.

Reads the JSON files test/models/generate.py writes (their inlined_op_counts,
taken from each traced model's fully inlined graph). The OpRegistry unit test
reads this list (MAV_TRACED_OPS) and checks that each op is in the registry.

Usage: /usr/bin/python3 list_traced_ops.py MODELS_DIR [-o FILE]
"""

import argparse
import glob
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    ops = set()
    for path in glob.glob(os.path.join(args.models, "*.json")):
        ops.update(op for op in json.load(open(path))["inlined_op_counts"]
                   if op.startswith("aten::"))
    if not ops:
        sys.exit(f"list_traced_ops: no model JSON in {args.models}")
    text = "".join(op + "\n" for op in sorted(ops))
    if args.output:
        open(args.output, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
