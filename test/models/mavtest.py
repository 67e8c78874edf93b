"""What the model-level test drivers share: which models to run, and how to
import one with its input shapes."""

import json
import os
import subprocess


def model_names(models, names):
    """The models asked for, or every model the generator wrote."""
    return names or sorted(
        f[:-5] for f in os.listdir(models) if f.endswith(".json"))


def reference(models, name):
    """The values PyTorch computed for the model in the generator."""
    return json.load(open(os.path.join(models, name + ".json")))


def import_model(translate, models, name, output, *extra):
    """Imports NAME.pt with its input shapes into `output`."""
    shapes = ["--input-shape=" + s
              for s in reference(models, name)["input_shapes"]]
    subprocess.run([translate, "--import-torchscript",
                    os.path.join(models, name + ".pt"), *shapes, *extra,
                    "-o", output], check=True)


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
