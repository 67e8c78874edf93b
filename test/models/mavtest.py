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
