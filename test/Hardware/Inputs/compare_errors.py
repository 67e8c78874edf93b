#!/usr/bin/python3
"""compare_errors.py SMALLER.txt LARGER.txt

Reads the `max abs error E` of two mav-run outputs (fixed-point model vs
PyTorch), prints both, and exits 1 unless the first is smaller."""

import re
import sys


def max_abs_error(path):
    with open(path) as f:
        found = re.search(r"fixed-point <(\d+), (\d+)> vs float reference: "
                          r"max abs error (\S+)", f.read())
    if not found:
        sys.exit("compare_errors.py: %s: no max abs error" % path)
    return float(found.group(3))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[0])
    smaller, larger = (max_abs_error(path) for path in argv)
    print("max abs error: %g (%s), %g (%s): %s" % (
        smaller, argv[0], larger, argv[1],
        "smaller" if smaller < larger else "NOT smaller"))
    return 0 if smaller < larger else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
