#!/usr/bin/env python3
"""Writes the IR fuzzer's seed corpus: every .mlir test, split at its
`// -----` markers, and, when a normal build's mav-translate is at hand, the IR
it imports from the test models (test/models/generate.py), as text and, with
its weights elided to stay under the fuzzer's 64 KiB, as bytecode.

usage: seed.py ROOT FUZZ_BUILD CORPUS [NORMAL_BUILD]"""

import hashlib
import os
import pathlib
import subprocess
import sys


def write(corpus, text):
    data = text if isinstance(text, bytes) else text.encode()
    (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    root, fuzz_build, corpus = (pathlib.Path(arg) for arg in sys.argv[1:4])
    normal_build = pathlib.Path(
        sys.argv[4] if len(sys.argv) > 4 else
        os.environ.get("MAV_BUILD_DIR", root / "build"))
    for test in sorted((root / "test").rglob("*.mlir")):
        for chunk in test.read_text().split("// -----"):
            write(corpus, chunk)

    translate = normal_build / "bin" / "mav-translate"
    if not translate.exists():
        print(f"seed.py: no {translate}; seeding from the tests only")
        return
    models = fuzz_build / "models"
    subprocess.run([sys.executable, str(root / "test/models/generate.py"),
                    "--out", str(models)], check=True,
                   stdout=subprocess.DEVNULL)
    for model in sorted(models.glob("*.pt")):
        imported = subprocess.run(
            [str(translate), "--import-torchscript", str(model)],
            capture_output=True, text=True)
        if imported.returncode != 0:
            continue
        write(corpus, imported.stdout)
        bytecode = subprocess.run(
            [str(normal_build / "bin" / "mav-opt"), "-", "--mav-elide-weights",
             "--emit-bytecode"], input=imported.stdout.encode(),
            capture_output=True)
        if bytecode.returncode == 0 and len(bytecode.stdout) <= 65536:
            write(corpus, bytecode.stdout)


if __name__ == "__main__":
    main()
