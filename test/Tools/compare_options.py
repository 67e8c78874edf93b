"""Checks that every option of mlir-opt-19's driver is an option of mav-opt.

mlir-opt-19 links libLLVM, whose options (targets, code generation) opt-19
lists too; those, and the options MLIR's test passes register, are no
driver options. Pass names are not options: --help lists them indented.

usage: compare_options.py MLIR_OPT OPT MAV_OPT"""

import re
import subprocess
import sys

# Options of MLIR's test passes that mlir-opt-19 links.
TEST_PASS_OPTIONS = {
    "backward-slicing", "compose-maps", "forward-slicing", "slicing",
    "test-legalize-mode", "test-loop-fusion-dependence-check",
    "test-loop-fusion-slice-computation", "test-loop-fusion-transformation",
    "vector-shape-ratio", "vectorize-affine-loop-nest",
}
# Driver options that opt-19 happens to have too.
SHARED_DRIVER_OPTIONS = {"o", "verify-each", "help", "help-hidden", "version"}


def options(tool):
    listing = subprocess.run([tool, "--help-hidden"], capture_output=True,
                             text=True, check=True).stdout
    return set(re.findall(r"^  --?([A-Za-z0-9][A-Za-z0-9_.-]*)", listing,
                          re.MULTILINE))


def main():
    mlir_opt, opt, mav_opt = sys.argv[1:4]
    expected = ((options(mlir_opt) - options(opt) - TEST_PASS_OPTIONS)
                | SHARED_DRIVER_OPTIONS)
    missing = sorted(expected - options(mav_opt))
    for name in missing:
        print(f"mav-opt lacks --{name}")
    print(f"{len(expected) - len(missing)} of {len(expected)} mlir-opt "
          "driver options")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
