#!/usr/bin/python3
"""Runs every ```sh block of a tutorial in docs/, in order, in one directory.

Each block runs under `bash -euo pipefail` with mav's tools first on PATH and
MAV_SRC and MAV_BUILD naming the checkout and its build directory; its output
is printed after a `== block N` line, for FileCheck. A code block that
follows `<!-- file: PATH -->` must equal that file of the repository; one
that follows `<!-- excerpt: PATH -->` must appear in it, verbatim. Exits
non-zero at the first failure.

Usage: run_tutorial.py --doc docs/Tutorial.md --root SRC --bin DIR --work DIR
"""

import argparse
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
SHOWN = re.compile(r"<!-- (file|excerpt): (\S+) -->\s*$")


def main():
    parser = argparse.ArgumentParser()
    for option in ("doc", "root", "bin", "work"):
        parser.add_argument("--" + option, required=True)
    args = parser.parse_args()
    text = open(args.doc).read()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, PATH=args.bin + os.pathsep + os.environ["PATH"],
               MAV_SRC=os.path.abspath(args.root),
               MAV_BUILD=os.path.abspath(os.path.join(args.bin, os.pardir)))
    number = 0
    for match in FENCE.finditer(text):
        language, body = match.group(1), match.group(2)
        before = text[: match.start()].rstrip().splitlines()[-1]
        shown = SHOWN.search(before)
        if shown:
            kind, path = shown.group(1), shown.group(2)
            source = open(os.path.join(args.root, path)).read()
            if source != body if kind == "file" else body not in source:
                sys.exit(f"run_tutorial: the code shown for {path} "
                         f"differs from the file")
            print(f"== {kind} {path} matches")
        if language != "sh":
            continue
        number += 1
        print(f"== block {number}", flush=True)
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", body],
                             cwd=args.work, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        print(run.stdout, end="", flush=True)
        if run.returncode != 0:
            sys.exit(f"run_tutorial: block {number} failed "
                     f"(exit {run.returncode}):\n{body}")


if __name__ == "__main__":
    main()
