#!/usr/bin/python3
"""Change one weight of a mav text IR file, for tests that must see it.

    perturb_weight.py IN.mlir NAME (--add INDEX DELTA | --scale FACTOR) -o OUT

NAME is a weight held inline as a `dense_resource` blob (f32, the form mav
prints). `--add` adds DELTA to element INDEX (flat, row-major); `--scale`
multiplies every element by FACTOR (0 zeroes the layer). Prints the old and
new values of what it changed.
"""

import argparse
import re
import struct
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("name")
    parser.add_argument("--add", nargs=2, metavar=("INDEX", "DELTA"))
    parser.add_argument("--scale", type=float)
    parser.add_argument("-o", dest="output", required=True)
    args = parser.parse_args()
    if (args.add is None) == (args.scale is None):
        parser.error("give one of --add and --scale")

    text = open(args.input).read()
    resource = re.search(r"mav\.weight @%s \w+ = dense_resource<([^>]+)> : "
                         r"tensor<[^>]*xf32>" % re.escape(args.name), text)
    if not resource:
        sys.exit("perturb_weight.py: %s: no f32 dense_resource weight @%s"
                 % (args.input, args.name))
    blob = re.search(r"(\n\s*%s: \"0x)([0-9A-Fa-f]+)\"" %
                     re.escape(resource.group(1)), text)
    if not blob:
        sys.exit("perturb_weight.py: %s: no blob %s"
                 % (args.input, resource.group(1)))
    data = bytes.fromhex(blob.group(2))
    alignment, payload = data[:4], data[4:]
    values = list(struct.unpack("<%df" % (len(payload) // 4), payload))
    if args.add:
        index, delta = int(args.add[0]), float(args.add[1])
        old = values[index]
        values[index] += delta
        print("%s[%d]: %g -> %g" % (args.name, index, old, values[index]))
    else:
        values = [v * args.scale for v in values]
        print("%s: %d values scaled by %g" % (args.name, len(values),
                                             args.scale))
    hex_data = (alignment + struct.pack("<%df" % len(values), *values)).hex()
    text = (text[:blob.start(2)] + hex_data.upper() + text[blob.end(2):])
    with open(args.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
