#!/usr/bin/python3
"""Damages or forges a checkpoint the ways the checkpoint tests need.

In place (the archive's bytes otherwise unchanged):
  corrupt.py truncate SRC DST FRACTION   keep the first FRACTION of the bytes
  corrupt.py flip SRC DST SUFFIX         flip one byte in the middle of the
                                         data of the record ending in SUFFIX
  corrupt.py sub SRC DST SUFFIX OLD NEW  replace the bytes OLD (once) by NEW,
                                         as long, in the record ending in
                                         SUFFIX

Rewritten with Python's zipfile, which does not align record data as torch
does. The header is resealed (its sizes and checksums of the manifest and
the graph recomputed), as a tool that knows the format would forge it, so
that the checks behind the header are reached; "unsealed" leaves it alone:
  corrupt.py manifest SRC DST STATEMENT  run the Python STATEMENT on the
                                         manifest (a dict named manifest)
  corrupt.py unsealed SRC DST STATEMENT  the same, the header left as it was
  corrupt.py record SRC DST NAME EXPR    the record NAME becomes the bytes
                                         EXPR, in which `records` maps every
                                         record's name to its bytes
  corrupt.py header SRC DST EXPR         the header becomes the text EXPR, in
                                         which `header` is the sealed header
  corrupt.py version SRC DST N           the header's version becomes N
  corrupt.py drop SRC DST SUFFIX         remove the record ending in SUFFIX
  corrupt.py deflate SRC DST SUFFIX      compress the record ending in SUFFIX
  corrupt.py v2 SRC DST                  a version 2 checkpoint: no header,
                                         the version in the manifest
"""

import json
import sys
import zipfile

HEADER = "mav/header"
MANIFEST = "mav/manifest.json"
GRAPH = "mav/graph.mlirbc"

_P1 = 11400714785074694791
_P2 = 14029467366897019727
_P3 = 1609587929392839161
_P4 = 9650029242287828579
_P5 = 2870177450012600261
_MASK = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & _MASK


def _round(acc, lane):
    return (_rotl((acc + lane * _P2) & _MASK, 31) * _P1) & _MASK


def _merge(acc, value):
    return ((acc ^ _round(0, value)) * _P1 + _P4) & _MASK


def xxh64(data):
    """XXH64 with seed 0, as llvm::xxHash64."""
    n, i = len(data), 0
    lane = lambda at, size: int.from_bytes(data[at:at + size], "little")
    if n >= 32:
        v = [(_P1 + _P2) & _MASK, _P2, 0, (-_P1) & _MASK]
        while i + 32 <= n:
            v = [_round(v[k], lane(i + 8 * k, 8)) for k in range(4)]
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) +
             _rotl(v[3], 18)) & _MASK
        for value in v:
            h = _merge(h, value)
    else:
        h = _P5
    h = (h + n) & _MASK
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, lane(i, 8)), 27) * _P1 + _P4) & _MASK
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ ((lane(i, 4) * _P1) & _MASK), 23) * _P2 + _P3) & _MASK
        i += 4
    while i < n:
        h = (_rotl(h ^ ((data[i] * _P5) & _MASK), 11) * _P1) & _MASK
        i += 1
    h = ((h ^ (h >> 33)) * _P2) & _MASK
    h = ((h ^ (h >> 29)) * _P3) & _MASK
    return h ^ (h >> 32)


def checksum(data):
    return f"{xxh64(data):016x}"


def seal(manifest, graph):
    return (f"mav-checkpoint 3\nmanifest {len(manifest)} {checksum(manifest)}"
            f"\ngraph {len(graph)} {checksum(graph)}\n").encode()


def record(archive, suffix):
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            if info.filename.endswith(suffix):
                return info
    sys.exit(f"corrupt.py: no record ending in {suffix}")


def in_place(mode, src, args):
    data = bytearray(open(src, "rb").read())
    if mode == "truncate":
        return data[: int(len(data) * float(args[0]))]
    info = record(src, args[0])
    header = data[info.header_offset: info.header_offset + 30]
    name_length = int.from_bytes(header[26:28], "little")
    extra_length = int.from_bytes(header[28:30], "little")
    start = info.header_offset + 30 + name_length + extra_length
    if mode == "flip":
        data[start + info.compress_size // 2] ^= 0xFF
        return data
    old, new = args[1].encode(), args[2].encode()
    at = data.find(old, start, start + info.compress_size)
    if at < 0 or len(old) != len(new):
        sys.exit(f"corrupt.py: cannot replace {args[1]} by {args[2]}")
    data[at: at + len(old)] = new
    return data


def rewrite(mode, src, dst, args):
    with zipfile.ZipFile(src) as z:
        infos = z.infolist()
        top = infos[0].filename.split("/")[0] + "/"
        records = {info.filename[len(top):]: z.read(info.filename)
                   for info in infos}
    if mode in ("manifest", "unsealed", "v2"):
        manifest = json.loads(records[MANIFEST])
        if mode == "v2":
            manifest["version"] = 2
        else:
            exec(args[0], {"manifest": manifest})
        records[MANIFEST] = json.dumps(manifest).encode()
    elif mode == "record":
        records[args[0]] = eval(args[1], {"records": records})
    if HEADER in records:
        if mode != "unsealed":
            records[HEADER] = seal(records[MANIFEST], records[GRAPH])
        if mode == "header":
            records[HEADER] = eval(
                args[0], {"header": records[HEADER].decode()}).encode()
        elif mode == "version":
            records[HEADER] = records[HEADER].replace(
                b"checkpoint 3\n", f"checkpoint {args[0]}\n".encode())
    with zipfile.ZipFile(dst, "w") as out:
        for info in infos:
            name = info.filename[len(top):]
            if (mode == "drop" and name.endswith(args[0])) or (
                    mode == "v2" and name == HEADER):
                continue
            if mode == "deflate" and name.endswith(args[0]):
                info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, records[name])


def main():
    mode, src, dst, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    if mode in ("truncate", "flip", "sub"):
        open(dst, "wb").write(bytes(in_place(mode, src, args)))
    elif mode in ("manifest", "unsealed", "record", "header", "version",
                  "drop", "deflate", "v2"):
        rewrite(mode, src, dst, args)
    else:
        sys.exit(f"corrupt.py: unknown mode {mode}")


if __name__ == "__main__":
    main()
