"""Writes IR files whose sizes are multiples of the page size, 4096 (read)
and 16 KiB and up (memory-mapped): valid ones, and invalid ones whose error
lies at the very end, each padded with a comment that runs to the end."""

import pathlib
import sys

out = pathlib.Path(sys.argv[1])
valid = ("mav.graph @page(%x: !mav.tensor) -> !mav.tensor {\n"
         "  mav.output %x : !mav.tensor\n}\n// ")
invalid = "module {\n// "
for size in (4096, 16384, 65536):
    for name, text in (("valid", valid), ("invalid", invalid)):
        padded = text + "x" * (size - len(text))
        assert len(padded) == size
        (out / f"{name}-{size}.mlir").write_text(padded)
