#!/usr/bin/python3
"""Write a copy of a TorchScript archive (.pt) with one record damaged.

Usage: corrupt_archive.py IN.pt OUT.pt RECORD [--plain]

RECORD is a substring of the record's name (e.g. "code/" or "data.pkl"); the
first record that contains it is damaged. By default one byte in the middle
of the record's bytes as stored (compressed or not) is flipped, as a bad disk
or a bad download would. With --plain the record's uncompressed text has one
byte flipped and is compressed again, with the zip entry's CRC-32 left as it
was: a damaged but well-formed deflate stream. The byte is the 'e' of
"__parameters__" ("__paramdters__"), where there is one, which makes
torch::jit::load of libtorch 1.13 segfault in
ScriptTypeParser::parseClassConstant; else the middle byte.
Prints the damaged record's name.
"""
import struct
import sys
import zipfile


def main():
    source, target, wanted = sys.argv[1:4]
    plain = "--plain" in sys.argv[4:]
    data = bytearray(open(source, "rb").read())
    with zipfile.ZipFile(source) as archive:
        infos = archive.infolist()
        info = next(i for i in infos if wanted in i.filename)
        contents = {i.filename: archive.read(i.filename) for i in infos}
    if not plain:
        offset = info.header_offset
        name_size, extra_size = struct.unpack("<HH", data[offset + 26:offset + 30])
        start = offset + 30 + name_size + extra_size
        data[start + info.compress_size // 2] ^= 0xFF
        open(target, "wb").write(bytes(data))
        print(info.filename)
        return
    text = bytearray(contents[info.filename])
    crash = text.find(b"__parameters__")
    text[crash + 9 if crash >= 0 else len(text) // 2] ^= 0x01
    contents[info.filename] = bytes(text)
    with zipfile.ZipFile(target, "w") as out:
        for i in infos:
            out.writestr(zipfile.ZipInfo(i.filename, i.date_time),
                         contents[i.filename], compress_type=i.compress_type)
    # Restore the original CRC-32 in the local and central headers.
    data = bytearray(open(target, "rb").read())
    with zipfile.ZipFile(target) as archive:
        new = archive.getinfo(info.filename)
    struct.pack_into("<I", data, new.header_offset + 14, info.CRC)
    name = info.filename.encode()
    central = data.index(b"PK\x01\x02")
    while data[central + 46:central + 46 + len(name)] != name:
        central = data.index(b"PK\x01\x02", central + 4)
    struct.pack_into("<I", data, central + 16, info.CRC)
    open(target, "wb").write(bytes(data))
    print(info.filename)


if __name__ == "__main__":
    main()
