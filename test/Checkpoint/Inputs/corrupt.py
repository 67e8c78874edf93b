#!/usr/bin/python3
"""Damages a checkpoint the ways the corruption tests need.

  corrupt.py truncate SRC DST FRACTION   keep the first FRACTION of the bytes
  corrupt.py flip SRC DST SUFFIX         flip one byte in the middle of the
                                         data of the record ending in SUFFIX
  corrupt.py version SRC DST N           rewrite the manifest's version as N
  corrupt.py manifest SRC DST STATEMENT  run the Python STATEMENT on the
                                         manifest (a dict named manifest)
  corrupt.py deflate SRC DST SUFFIX      compress the record ending in SUFFIX
Rewriting the manifest rewrites the archive with Python's zipfile, which does
not align record data as torch does.
"""

import json
import sys
import zipfile


def record(archive, suffix):
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            if info.filename.endswith(suffix):
                return info
    sys.exit(f"corrupt.py: no record ending in {suffix}")


def main():
    mode, src, dst, arg = sys.argv[1:5]
    data = bytearray(open(src, "rb").read())
    if mode == "truncate":
        data = data[: int(len(data) * float(arg))]
    elif mode == "flip":
        info = record(src, arg)
        header = data[info.header_offset: info.header_offset + 30]
        name_length = int.from_bytes(header[26:28], "little")
        extra_length = int.from_bytes(header[28:30], "little")
        start = info.header_offset + 30 + name_length + extra_length
        data[start + info.compress_size // 2] ^= 0xFF
    elif mode in ("version", "manifest", "deflate"):
        with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
            for info in z.infolist():
                content = z.read(info.filename)
                if mode == "deflate" and info.filename.endswith(arg):
                    info.compress_type = zipfile.ZIP_DEFLATED
                if mode != "deflate" and info.filename.endswith(
                        "mav/manifest.json"):
                    manifest = json.loads(content)
                    if mode == "version":
                        manifest["version"] = int(arg)
                    else:
                        exec(arg, {"manifest": manifest})
                    content = json.dumps(manifest).encode()
                out.writestr(info, content)
        return
    else:
        sys.exit(f"corrupt.py: unknown mode {mode}")
    open(dst, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
