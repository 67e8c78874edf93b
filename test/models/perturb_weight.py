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


def edit_weight(text, name, edit):
    """`text` with weight NAME's f32 values replaced by `edit(values)`, or
    None when NAME is no inline f32 dense_resource weight."""
    resource = re.search(r"mav\.weight @%s \w+ = dense_resource<([^>]+)> : "
                         r"tensor<[^>]*xf32>" % re.escape(name), text)
    if not resource:
        return None
    blob = re.search(r"(\n\s*\"?%s\"?: \"0x)([0-9A-Fa-f]+)\"" %
                     re.escape(resource.group(1)), text)
    if not blob:
        return None
    data = bytes.fromhex(blob.group(2))
    alignment, payload = data[:4], data[4:]
    values = edit(list(struct.unpack("<%df" % (len(payload) // 4), payload)))
    hex_data = (alignment + struct.pack("<%df" % len(values), *values)).hex()
    return text[:blob.start(2)] + hex_data.upper() + text[blob.end(2):]


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

    def edit(values):
        if args.add:
            index, delta = int(args.add[0]), float(args.add[1])
            old = values[index]
            values[index] += delta
            print("%s[%d]: %g -> %g" % (args.name, index, old, values[index]))
            return values
        print("%s: %d values scaled by %g" % (args.name, len(values),
                                             args.scale))
        return [v * args.scale for v in values]

    text = edit_weight(open(args.input).read(), args.name, edit)
    if text is None:
        sys.exit("perturb_weight.py: %s: no inline f32 dense_resource weight "
                 "@%s" % (args.input, args.name))
    with open(args.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
