"""What the model-level test drivers share: which models to run, and how to
import one with its input shapes."""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess


def model_names(models, names):
    """The models asked for, or every model the generator wrote but the
    hardware flow's contract fixtures (hw_resnet18, hw_mobilenet_v2, ...:
    a spec with hardware_ranges). Those are the same torchvision classes as
    resnet18, mobilenet_v2 and the others, sized for the fixed-point flow,
    and test/Hardware takes them through import, raise and mav-run."""
    if names:
        return names
    return sorted(f[:-5] for f in os.listdir(models) if f.endswith(".json")
                  and not json.load(open(os.path.join(models, f))).get(
                      "hardware_ranges"))


def reference(models, name):
    """The values PyTorch computed for the model in the generator."""
    return json.load(open(os.path.join(models, name + ".json")))


def import_model(translate, models, name, output, *extra):
    """Imports NAME.pt with its input shapes into `output` (and its weights
    file, `output`.weights, when mav-translate writes one).

    Most model-level tests import the same models with the same options,
    and an import is mostly the second it takes to load libtorch. So an
    import is done once per build: into MODELS/imported/KEY/, KEY naming
    the model, the options and the output's file name (the text names its
    weights file by that name), under a lock, and linked from there. An
    entry older than NAME.pt or than the mav-translate binary is redone.
    Callers only read `output`; mav-opt and mav-translate replace a file
    they write (rename), so a link is never written through."""
    key = hashlib.sha1("\0".join(
        [name, os.path.basename(output), *extra]).encode()).hexdigest()[:16]
    entry = os.path.join(models, "imported", name + "-" + key)
    pt = os.path.join(models, name + ".pt")
    binary = shutil.which(translate) or translate
    stamp = os.path.join(entry, "done")
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    with open(entry + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (os.path.exists(stamp) and os.path.getmtime(stamp) >= max(
                os.path.getmtime(pt), os.path.getmtime(binary))):
            shutil.rmtree(entry, ignore_errors=True)
            os.makedirs(entry)
            shapes = ["--input-shape=" + s
                      for s in reference(models, name)["input_shapes"]]
            subprocess.run([translate, "--import-torchscript", pt, *shapes,
                            *extra, "-o",
                            os.path.join(entry, os.path.basename(output))],
                           check=True)
            open(stamp, "w").close()
    for file in os.listdir(entry):
        if file == "done":
            continue
        target = os.path.join(os.path.dirname(output) or ".", file)
        if os.path.lexists(target):
            os.unlink(target)
        try:
            os.link(os.path.join(entry, file), target)
        except OSError:
            shutil.copyfile(os.path.join(entry, file), target)


def parse_arguments(*options, extra=None):
    """The drivers' command line: required --OPTION paths, optional model
    names; --work, when asked for, is created."""
    import argparse
    parser = argparse.ArgumentParser()
    for option in options:
        parser.add_argument("--" + option, required=True)
    if extra:
        extra(parser)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    if "work" in options:
        os.makedirs(args.work, exist_ok=True)
    args.names = model_names(args.models, args.names)
    return args
