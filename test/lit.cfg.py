# -*- Python -*-
# lit configuration for the mav test suite.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "MAV"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "README.md", "Inputs", "models", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mav_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mav_src", config.mav_src_root))
config.substitutions.append(("%mav_bin", config.mav_tools_dir))
config.substitutions.append(("%mav_obj", config.mav_obj_root))
# Debian's torch; the python3 first on PATH may lack it.
config.substitutions.append(("%python", "/usr/bin/python3"))
# The Python package as built (python/): `%mav_python -m pytest ...` runs
# Debian's python3 with `import mav` finding it.
config.substitutions.append(
    ("%mav_python", "env PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=" +
     os.path.join(config.mav_obj_root, "python") + " /usr/bin/python3"))
# Real models traced by PyTorch at test time (test/models/generate.py), shared
# by every test directory; the generator only rewrites what is stale.
config.substitutions.append(
    ("%mav_models", os.path.join(config.mav_obj_root, "test", "models")))
config.substitutions.append(
    ("%generate_models", "/usr/bin/python3 " + os.path.join(
        config.mav_src_root, "test", "models", "generate.py") +
     " --out " + os.path.join(config.mav_obj_root, "test", "models")))

# The SystemVerilog component library (test/Hardware); verilator, iverilog,
# vvp and yosys are taken from PATH.
config.substitutions.append(
    ("%rtl", os.path.join(config.mav_src_root, "lib", "Export", "Verilog", "rtl")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

# Every Verilator build (Inputs/sim.sh, mav-run --rtl) compiles the same
# Verilator runtime, about 9 s of CPU each time: Verilator's own OBJCACHE
# variable puts ccache in front of the compiler, with a cache private to this
# build directory.
if shutil.which("ccache"):
    config.environment["OBJCACHE"] = "ccache"
    config.environment["CCACHE_DIR"] = os.path.join(
        config.mav_obj_root, "test", "ccache")
llvm_config.use_default_substitutions()

tool_dirs = [config.mav_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["FileCheck", "not", "count"],
                                   [config.llvm_tools_dir])
llvm_config.add_tool_substitutions(
    ["mav-opt", "mav-translate", "mav-run", "MavUnitTests", "MavRuntimeUnitTests"], tool_dirs)
