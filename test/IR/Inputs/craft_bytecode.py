#!/usr/bin/python3
"""Write a copy of an MLIR 19 bytecode file with one length or count field
made huge, as a corrupt or hostile file would have it.

Usage: craft_bytecode.py IN.mlirbc OUT.mlirbc FIELD [VALUE]

FIELD names the first field of its kind in the file, found by walking the
format (mlir/Bytecode/Encoding.h): section-length (of the IR section),
string-count, dialect-count, opname-count, properties-count,
attribute-count, type-count, attribute-group-count (the entries of the first
group of attributes; default: one more than there are attributes),
resource-count, resource-kind (a byte, set to
VALUE, default 8: no kind MLIR knows), and in the IR section block-count, value-count,
op-count, argument-count, result-count, operand-count, region-count. The
field is overwritten in place with a 9-byte varint of VALUE (default 2**40),
so the bytes that follow it are clobbered but every enclosing length stays
right: MLIR reads and allocates for a count before the elements it counts.
Prints the field's offset.
"""
import sys

SECTION_NAMES = ["string", "dialect", "attr-type", "attr-type-offset", "ir",
                 "resource", "resource-offset", "dialect-versions",
                 "properties"]
HAS_ATTRS, HAS_RESULTS, HAS_OPERANDS, HAS_SUCCESSORS = 1, 2, 4, 8
HAS_INLINE_REGIONS, HAS_USE_LIST_ORDERS, HAS_PROPERTIES = 16, 32, 64


class Reader:
    def __init__(self, data, pos, end, found):
        self.data, self.pos, self.end, self.found = data, pos, end, found

    def empty(self):
        return self.pos >= self.end

    def byte(self):
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self, kind=None):
        start = self.pos
        first = self.byte()
        extra = 8 if first == 0 else (first & -first).bit_length() - 1
        rest = int.from_bytes(self.data[self.pos:self.pos + extra], "little")
        self.pos += extra
        value = rest if first == 0 else ((rest << 8) | first) >> (extra + 1)
        if kind is not None:
            self.found.setdefault(kind, start)
        return value

    def section(self):
        start = self.pos
        ident = self.byte()
        length = self.varint()
        if ident & 0x80:
            alignment = self.varint()
            while self.data[self.pos] == 0xCB and self.pos % alignment:
                self.pos += 1
        begin = self.pos
        self.pos += length
        return ident & 0x7F, start, begin, self.pos


def walk_ir(reader, version):
    """Walks a region list the way mav's pre-check does (BytecodeBounds.cpp),
    recording the first offset of every kind of count."""
    def block_header(r):
        num_ops, has_args = divmod(r.varint("op-count"), 2)
        if has_args:
            for _ in range(r.varint("argument-count")):
                if version >= 4:
                    if r.varint() & 1:
                        r.varint()
                else:
                    r.varint()
                    r.varint()
            if version >= 3 and r.byte():
                use_lists(r, 1)
        for _ in range(num_ops):
            operation(r)

    def use_lists(r, size):
        count = r.varint() if size > 1 else 1
        for _ in range(count):
            if size > 1:
                r.varint()
            for _ in range(r.varint() >> 1):
                r.varint()

    def region(r):
        num_blocks = r.varint("block-count")
        if num_blocks == 0:
            return
        r.varint("value-count")
        for _ in range(num_blocks):
            block_header(r)

    def operation(r):
        r.varint()
        mask = r.byte()
        r.varint()
        if mask & HAS_ATTRS:
            r.varint()
        if mask & HAS_PROPERTIES:
            r.varint()
        results = 0
        if mask & HAS_RESULTS:
            results = r.varint("result-count")
            for _ in range(results):
                r.varint()
        if mask & HAS_OPERANDS:
            for _ in range(r.varint("operand-count")):
                r.varint()
        if mask & HAS_SUCCESSORS:
            for _ in range(r.varint()):
                r.varint()
        if version >= 3 and mask & HAS_USE_LIST_ORDERS:
            use_lists(r, results)
        if not mask & HAS_INLINE_REGIONS:
            return
        num_regions, isolated = divmod(r.varint("region-count"), 2)
        if num_regions == 0:
            return
        if isolated and version >= 2:
            _, _, begin, end = r.section()
            nested = Reader(r.data, begin, end, r.found)
        else:
            nested = r
        for _ in range(num_regions):
            region(nested)

    block_header(reader)


def main():
    source, target, field = sys.argv[1:4]
    value = int(sys.argv[4], 0) if len(sys.argv) > 4 else 2 ** 40
    data = bytearray(open(source, "rb").read())
    assert data[:4] == b"ML\xefR", "not MLIR bytecode"
    found = {}
    top = Reader(data, 4, len(data), found)
    version = top.varint()
    top.pos = data.index(0, top.pos) + 1  # the producer string
    sections = {}
    while not top.empty():
        ident, start, begin, end = top.section()
        sections[SECTION_NAMES[ident]] = (start, begin, end)

    def reader(name):
        _, begin, end = sections[name]
        return Reader(data, begin, end, found)

    found["section-length"] = sections["ir"][0] + 1
    reader("string").varint("string-count")
    dialects = reader("dialect")
    for _ in range(dialects.varint("dialect-count")):
        if dialects.varint() & 1:
            dialects.section()
    if version >= 4:
        dialects.varint("opname-count")
    if "properties" in sections and sections["properties"][1] < \
            sections["properties"][2]:
        reader("properties").varint("properties-count")
    if "resource-offset" in sections:
        resources = reader("resource-offset")

        def group(r):
            for _ in range(r.varint("resource-count")):
                r.varint()
                r.varint()
                found.setdefault("resource-kind", r.pos)
                r.byte()

        for _ in range(resources.varint()):
            resources.varint()
            group(resources)
        while not resources.empty():
            resources.varint()
            group(resources)
    offsets = reader("attr-type-offset")
    num_attributes = offsets.varint("attribute-count")
    offsets.varint("type-count")
    offsets.varint()
    offsets.varint("attribute-group-count")
    walk_ir(reader("ir"), version)

    if field not in found:
        sys.exit("no %s field in %s" % (field, source))
    offset = found[field]
    if field == "attribute-group-count" and len(sys.argv) <= 4:
        value = num_attributes + 1
    if field == "resource-kind":
        data[offset] = value if len(sys.argv) > 4 else 8
    else:
        data[offset:offset + 9] = b"\0" + value.to_bytes(8, "little")
    open(target, "wb").write(bytes(data[:max(len(data), offset + 9)]))
    print(offset)


if __name__ == "__main__":
    main()
