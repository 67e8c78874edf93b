"""The package itself: one libtorch per process, the API's names."""

import os

import torch

import mav


def mapped_files(fragment):
    """The distinct files mapped into this process whose name has
    `fragment`, by (device, inode): one file however many links name it."""
    files = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fragment in fields[5]:
                files.add(os.stat(fields[5]).st_ino)
    return files


def test_one_libtorch():
    mav.trace(torch.nn.ReLU(), torch.randn(2, 3))
    assert len(mapped_files("libtorch_cpu")) == 1
    assert len(mapped_files("libc10.so")) == 1


def test_core_is_the_built_one():
    assert mav._core.__file__.endswith(".so")


def test_operator_registry():
    registry = mav.operators()
    targets = {target for entry in registry["operators"]
               for target in entry["aten_ops"]}
    assert "aten::conv2d" in targets
