#!/usr/bin/python3
"""Generates the models of test/models/generate.py's PENDING table (models
that run but do not raise yet) into DIR, as generate.py does for REGISTRY.

Usage: generate_pending.py --out DIR NAME ...
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "models"))
import generate  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in generate.PENDING]
    if unknown:
        parser.error("not in generate.PENDING: " + ", ".join(unknown))
    generate.REGISTRY.update((n, generate.PENDING[n]) for n in args.names)
    return generate.main(["--out", args.out, "--only", *args.names])


if __name__ == "__main__":
    sys.exit(main())
