"""Copies a file with every occurrence of one byte string replaced by another
of the same length: patch_bytes.py IN OUT OLD NEW. Fails unless OLD occurs."""
import sys

source, target, old, new = sys.argv[1:5]
old, new = old.encode(), new.encode()
assert len(old) == len(new), "the replacement must keep the file's layout"
data = open(source, "rb").read()
assert old in data, f"{sys.argv[3]!r} is not in {source}"
open(target, "wb").write(data.replace(old, new))
