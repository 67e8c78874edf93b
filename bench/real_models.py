#!/usr/bin/python3
"""mav against torch.fx on real models at their real size (issue 13).

For each model (torchvision classifiers at 1x3x224x224 with 1000 classes and
random weights, vit_b_16, and a GPT-style language model of torch.nn layers
at 1x128 tokens), side by side in one run:

  fx passes      in one Python process, on the symbolic_trace'd GraphModule
                 already in memory: ShapeProp + count + remove + count, the
                 MASE tutorial's passes (fx_reference.py); median of --runs
  fx cold        a whole Python process from file to file: import torch,
                 torch.load the saved GraphModule, the same passes,
                 torch.save (fx_file_to_file.py)
  mav process    the whole `mav-opt NAME.mlir -mav-raise -mav-count-dropout
                 -mav-remove-dropout -mav-count-dropout -o OUT.mlir`
  mav in-process its --mlir-timing Total (parser and output included)
  mav passes     the --mlir-timing rows of the passes only (no parser, no
                 output)
  count+remove   fx: the first count and the remove; mav: the first
                 CountDropout and RemoveDropout rows
  import         `mav-translate --import-torchscript NAME.pt` as a whole
                 process, beside `python3 -c "import torch;
                 torch.jit.load('NAME.pt')"`
  IR             the size of NAME.mlir as imported (text)

Ratios are torch.fx / mav (above 1x mav is faster); the import ratio is mav
/ jit.load (below 1x mav is faster). What each target means: issue 13 and
bench/README.md. Prints a markdown report; --json FILE keeps every figure.

    /usr/bin/python3 bench/real_models.py [--models resnet18 ...] [--runs 3]
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import run as harness  # noqa: E402  (process timing, --mlir-timing rows)

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

TORCHVISION = ["resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0",
               "densenet121", "convnext_tiny", "vit_b_16"]
MODELS = TORCHVISION + ["gpt_small"]
PASSES = ("InitMetadata", "AddCommonMetadata", "CountDropout",
          "RemoveDropout")


class Block(nn.Module):
    """A GPT-2 block from torch.nn layers: pre-norm attention written with
    Linear, matmul and softmax (so torch.fx traces it), then an MLP."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.attn_dropout = nn.Dropout(0.1)
        self.ln_2 = nn.LayerNorm(width)
        self.fc = nn.Linear(width, 4 * width)
        self.gelu = nn.GELU()
        self.fc_proj = nn.Linear(4 * width, width)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        # No unpacking of shapes or tuples: torch.fx traces proxies.
        batch, length, width = x.size(0), x.size(1), self.proj.in_features
        qkv = self.qkv(self.ln_1(x))
        q = qkv[..., :width].view(batch, length, self.heads, -1).transpose(1, 2)
        k = qkv[..., width:2 * width].view(batch, length, self.heads, -1).transpose(1, 2)
        v = qkv[..., 2 * width:].view(batch, length, self.heads, -1).transpose(1, 2)
        scale = (width // self.heads) ** 0.5
        scores = torch.matmul(q, k.transpose(-2, -1)) / scale
        attended = torch.matmul(self.attn_dropout(scores.softmax(-1)), v)
        attended = attended.transpose(1, 2).reshape(batch, length, width)
        x = x + self.dropout(self.proj(attended))
        return x + self.dropout(self.fc_proj(self.gelu(self.fc(self.ln_2(x)))))


class GptSmall(nn.Module):
    def __init__(self, vocab=32000, width=512, layers=6, heads=8, length=128):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.zeros(1, length, width))
        self.dropout = nn.Dropout(0.1)
        self.blocks = nn.Sequential(*[Block(width, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, tokens):
        x = self.dropout(self.tokens(tokens) + self.positions)
        return self.head(self.ln_f(self.blocks(x)))


def build(name):
    """The eval-mode model, its example inputs and mav's --input-shape."""
    torch.manual_seed(0)
    if name == "gpt_small":
        return GptSmall().eval(), [torch.randint(0, 32000, (1, 128))], \
            ["1x128xsi64"]
    import torchvision
    model = getattr(torchvision.models, name)(weights=None).eval()
    if name.startswith("vit_"):
        make_vit_traceable(model)
    return model, [torch.randn(1, 3, 224, 224)], ["1x3x224x224xf32"]


def make_vit_traceable(model):
    """torchvision 0.14's VisionTransformer unpacks `x.shape`, which
    torch.fx's symbolic_trace cannot do; the same patch embedding with the
    sizes the model was built for (one image size, square patches) traces.
    Both sides run this model."""
    def process_input(x):
        patches = model.image_size // model.patch_size
        x = model.conv_proj(x).reshape(x.size(0), model.hidden_dim,
                                       patches * patches)
        return x.permute(0, 2, 1)
    model._process_input = process_input


def prepare(name, work):
    """NAME.pt (torch.jit.trace), NAME.gm.pt (the fx GraphModule, saved),
    NAME.inputs.pt; skipped when present."""
    import torch.fx as fx
    paths = {k: os.path.join(work, name + suffix) for k, suffix in
             (("pt", ".pt"), ("gm", ".gm.pt"), ("inputs", ".inputs.pt"))}
    model, inputs, shapes = build(name)
    if not os.path.exists(paths["pt"]):
        with torch.no_grad():
            torch.jit.save(torch.jit.trace(model, inputs), paths["pt"])
        torch.save(inputs, paths["inputs"])
    if not os.path.exists(paths["gm"]):
        try:
            torch.save(fx.symbolic_trace(model), paths["gm"])
        except Exception as error:  # torch.fx cannot trace it: say why
            return paths, shapes, "%s: %s" % (type(error).__name__,
                                              str(error).split("\n")[0][:200])
    return paths, shapes, None


def python(code_or_script, *args):
    return ["/usr/bin/python3"] + (["-c", code_or_script] if "\n" in code_or_script
                                   or code_or_script.startswith("import")
                                   else [code_or_script]) + list(args)


def measure(name, args):
    work = args.work
    paths, shapes, fx_error = prepare(name, work)
    # With a weights file beside it, the text IR names its weights only.
    suffix = ".mlir" if args.weights == "inline" else ".wf.mlir"
    mlir = os.path.join(work, name + suffix)
    opt = os.path.join(args.build, "bin", "mav-opt")
    translate = os.path.join(args.build, "bin", "mav-translate")
    result = {"model": name}

    imported = harness.run_median(
        [translate, "--import-torchscript", paths["pt"]] +
        ["--input-shape=" + s for s in shapes] +
        ["--mav-weights=" + args.weights, "-o", mlir], work, args.runs)
    result["import_s"] = imported["wall"]
    result["jit_load_s"] = harness.run_median(
        python("import torch; torch.jit.load(%r)" % paths["pt"]), work,
        args.runs)["wall"]
    result["ir_bytes"] = os.path.getsize(mlir)

    pipeline = harness.run_median(
        [opt, mlir, "-mav-raise", "-mav-count-dropout", "-mav-remove-dropout",
         "-mav-count-dropout", "--mlir-timing", "-o",
         os.path.join(work, name + ".out" + suffix)], work, args.runs)
    result["mav_process_s"] = pipeline["wall"]
    result["mav_total_s"] = harness.phase(pipeline, "Total")
    result["mav_passes_s"] = sum(t for n, t in pipeline["phases"]
                                 if n in PASSES)
    result["mav_count_remove_s"] = (harness.phase(pipeline, "CountDropout") +
                                    harness.phase(pipeline, "RemoveDropout"))
    result["mav_rss_kib"] = pipeline["rss_kib"]
    result["mav_phases"] = pipeline["phases"]

    if fx_error:
        result["fx_error"] = fx_error
        return result
    reference = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "fx_reference.py"),
         "--saved", paths["gm"], "--inputs", paths["inputs"],
         "--runs", str(args.runs)],
        check=True, capture_output=True, text=True)
    fx_result = json.loads(reference.stdout)
    result["fx_nodes"] = fx_result["nodes"]
    result["fx_passes_s"] = fx_result["median"]["pipeline"]
    result["fx_count_remove_s"] = (fx_result["median"]["count"] +
                                   fx_result["median"]["remove"])
    result["fx_cold_s"] = harness.run_median(
        ["/usr/bin/python3", os.path.join(HERE, "fx_file_to_file.py"),
         paths["gm"], paths["inputs"], os.path.join(work, name + ".fx.out.pt")],
        work, args.runs)["wall"]
    return result


def ratio(ref, mav):
    return harness.fmt_ratio(harness.ratio(ref, mav))


def report(results, runs):
    lines = [
        "| model | fx nodes | fx passes ÷ mav passes (in-process) | fx passes ÷ mav process | fx cold ÷ mav process (cold) | count+remove | import ÷ jit.load | text IR |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        if "fx_error" in r:
            lines.append("| %s | - | - | - | - | - | %.2fx | %.1f MB |" % (
                r["model"], r["import_s"] / r["jit_load_s"],
                r["ir_bytes"] / 1e6))
            continue
        lines.append("| %s | %d | %s | %s | %s | %s | %.2fx | %.1f MB |" % (
            r["model"], r["fx_nodes"],
            ratio(r["fx_passes_s"], r["mav_passes_s"]),
            ratio(r["fx_passes_s"], r["mav_process_s"]),
            ratio(r["fx_cold_s"], r["mav_process_s"]),
            ratio(r["fx_count_remove_s"], r["mav_count_remove_s"]),
            r["import_s"] / r["jit_load_s"], r["ir_bytes"] / 1e6))
    lines += ["", "Times (seconds, medians of %d runs):" % runs, "",
              "| model | fx passes | mav passes | mav in-process | mav process | fx cold | mav import | jit.load | mav peak RSS |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        fx = ("%.3f" % r["fx_passes_s"], "%.3f" % r["fx_cold_s"]) \
            if "fx_error" not in r else ("-", "-")
        lines.append("| %s | %s | %.3f | %.3f | %.3f | %s | %.2f | %.2f | %.0f MiB |" % (
            r["model"], fx[0], r["mav_passes_s"], r["mav_total_s"],
            r["mav_process_s"], fx[1], r["import_s"],
            r["jit_load_s"], r["mav_rss_kib"] / 1024))
    failed = [r for r in results if "fx_error" in r]
    if failed:
        lines += [""] + ["torch.fx cannot trace %s: %s" % (r["model"],
                                                          r["fx_error"])
                         for r in failed]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="*", default=MODELS)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default="/tmp/mav-bench-real")
    parser.add_argument("--json", help="write every measurement here")
    parser.add_argument("--weights", choices=["inline", "file"],
                        default="file",
                        help="where the text IR keeps its weights "
                             "(mav's --mav-weights)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M")
    load = os.getloadavg()[0]
    results = []
    for name in args.models:
        harness.log("real_models: " + name)
        results.append(measure(name, args))
    print("Date %s; load average %.2f at start, %.2f at end; torch %s; "
          "weights %s.\n" % (started, load, os.getloadavg()[0],
                             torch.__version__, args.weights))
    print(report(results, args.runs))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
