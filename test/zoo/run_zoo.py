#!/usr/bin/python3
"""The model zoo: every model of zoo_models.py through every step of mav.

Usage:
    /usr/bin/python3 test/zoo/run_zoo.py --models DIR --translate PATH
        --opt PATH --run PATH --work DIR [--expected FILE] [--jobs N]
        [--keep] [NAME ...]

Generates the models that are missing or stale (zoo_models.py, two
processes), then runs each model, in a pool of --jobs workers (2), through
these steps; every reference value comes from the model's JSON, written by
PyTorch in the generator:

  import     mav-translate --import-torchscript NAME.pt --input-shape=...
             [--leaf-module=...]; a detection model must be refused here
             with a one-line error naming the custom operator
  run        mav-run --reference: the imported graph computes what the
             TorchScript module computes (a model traced in train mode has
             live dropout: there mav-run must report the mismatch against
             the eval-mode twin)
  raise      mav-opt -mav-raise
  shapes     the raised graph's results have PyTorch's output types (a
             dynamic dimension `?` stands for any size)
  params     -mav-count-params: the total is PyTorch's param_count
  dropout    -mav-count-dropout -mav-remove-dropout -mav-count-dropout:
             counts by module class and functional dropouts are PyTorch's,
             and nothing is left
  nodrop     the graph without dropout computes what the eval-mode module
             computes (mav-run --reference)
  learnable  on the graph without dropout: -mav-classify-entry-exit
             -mav-insert-learnable-nodes, twice: the second inserts nothing
  ckpt       the graph with learnable nodes, -mav-export-checkpoint=path=CKPT,
             reloaded: the printed graph equals the exported one, and
             mav-run CKPT --reference matches the eval-mode module. When it
             does not, mav-run on the graph before export tells whether the
             learnable step is to blame (then learnable fails, ckpt shows -)

The three checks against the reference (run, nodrop, ckpt) run in one
mav-run process per model, after the other steps (docs/Running.md: several
graphs). A step whose input is missing (an earlier step failed) shows `-`. The
expected-failure table (expected.json) lists, per model, the steps that fail
today and why, and the refusals expected at import. A cell shows ok, FAIL
(an unlisted failure), xfail (a listed failure), refused (the expected
refusal) or XPASS (a listed failure that no longer happens). The driver
prints the table, a summary, and the first line of the error of every
failure; it exits 1 on any FAIL or XPASS.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import zoo_models  # noqa: E402  (does not import torch)

STEPS = ("import", "run", "raise", "shapes", "params", "dropout", "nodrop",
         "learnable", "ckpt")
# A step runs when the step it needs has produced its output.
NEEDS = {"run": "import", "raise": "import", "shapes": "raise",
         "params": "raise", "dropout": "raise", "nodrop": "dropout",
         "learnable": "dropout", "ckpt": "learnable"}
TIMEOUT = 600  # seconds, per tool invocation
INT_HIGH = "--int-high=50"  # token inputs: the zoo's vocabularies have 50


class Blame(Exception):
    """A later step found that an earlier step's output is wrong."""

    def __init__(self, step, line):
        super().__init__(line)
        self.step, self.line = step, line


class Deferred:
    """A step's check against the reference, run with the model's other
    such checks in one mav-run process once every step has run."""

    def __init__(self, graph, stochastic=False):
        self.graph, self.stochastic = graph, stochastic


class StepError(Exception):
    """A step failed; `line` is the first line of the error."""

    def __init__(self, line, produced=False):
        super().__init__(line)
        self.line = line
        self.produced = produced  # the step's output exists nonetheless


def first_line(text):
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def tool(argv, expect_ok=True):
    """Runs a tool; returns (returncode, stdout, stderr). With expect_ok,
    raises StepError on a non-zero exit, with the error's first line."""
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise StepError("%s: timed out after %d s" % (os.path.basename(argv[0]), TIMEOUT))
    if run.returncode < 0:
        raise StepError("%s: crashed (signal %d): %s" % (
            os.path.basename(argv[0]), -run.returncode,
            first_line(run.stderr) or first_line(run.stdout)))
    if expect_ok and run.returncode != 0:
        raise StepError(error_line(run))
    return run.returncode, run.stdout, run.stderr


def error_line(run):
    line = first_line(run.stderr) or first_line(run.stdout)
    return line or "(exit %d, no message)" % run.returncode


def report(path, *passes):
    """The entries of a --mav-report file, of `passes` only when given (the
    report also lists what earlier runs recorded in the module, such as
    -mav-raise's -mav-lower-nested-tensors)."""
    entries = json.load(open(path))
    return [e for e in entries if not passes or e["pass"] in passes]


TENSOR = re.compile(r"tensor<(.*)>")  # fullmatch: complex<f32> nests


def split_top(text):
    parts, depth, current = [], 0, ""
    for c in text:
        depth += (c == "<") - (c == ">")
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def forward_result_types(path):
    """The result types of @forward's mav.output, as mav spells them."""
    in_forward = False
    for line in open(path):
        stripped = line.lstrip()
        if stripped.startswith("mav.graph"):
            in_forward = "@forward(" in stripped
        elif in_forward and stripped.startswith("mav.output"):
            if " : " not in stripped:
                return []
            types = split_top(stripped.rsplit(" : ", 1)[1].strip())
            return [TENSOR.fullmatch(t).group(1) if TENSOR.fullmatch(t) else t
                    for t in types]
    raise StepError("no @forward graph with a mav.output")


def type_matches(ours, theirs):
    """`ours` (mav) against PyTorch's `theirs`: a `?` dimension matches any."""
    a, b = ours.split("x"), theirs.split("x")
    return len(a) == len(b) and all(x == y or x == "?" for x, y in zip(a, b))


class Model:
    def __init__(self, args, name):
        self.args, self.name = args, name
        self.ref = json.load(open(os.path.join(args.models, name + ".json")))
        self.work = os.path.join(args.work, name)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.pt = os.path.join(args.models, name + ".pt")
        self.eval_ref = os.path.join(args.models, self.ref["outputs_reference"])
        self.stochastic = self.ref.get("reference_is_stochastic", False)

    def path(self, suffix):
        return os.path.join(self.work, self.name + suffix)

    def opt(self, *argv):
        return tool([self.args.opt, *argv])

    def run_references(self, graphs):
        """mav-run GRAPH... --reference, one process for all the graphs
        (loading libtorch is most of a small model's run); returns, per
        graph, its verdict line (`... match`, `... MISMATCH`,
        `... UNDECIDED: why`) or its error."""
        code, out, err = tool([self.args.run, *graphs,
                               "--reference=" + self.eval_ref, INT_HIGH],
                              expect_ok=False)
        # With several graphs, each one's lines follow a line naming it.
        if len(graphs) == 1:
            sections = {graphs[0]: out.splitlines()}
        else:
            sections, current = {}, []
            for line in out.splitlines():
                if line.endswith(":") and line[:-1] in graphs:
                    current = sections[line[:-1]] = []
                else:
                    current.append(line)
        results = {}
        for graph in graphs:
            lines = [l for l in sections.get(graph, []) if l.strip()]
            verdict = lines[-1] if lines and (lines[-1].endswith(
                (": match", ": MISMATCH")) or ": UNDECIDED: " in lines[-1]) \
                else ""
            errors = [l for l in err.splitlines() if graph in l]
            results[graph] = (verdict, first_line("\n".join(errors)) or
                              ("" if verdict else first_line(err) or
                               "exit %d" % code))
        return results

    @staticmethod
    def judge(result, stochastic=False):
        """A graph's verdict as a step's note; a match, or for a graph with
        live dropout, the mismatch mav-run must report."""
        verdict, error = result
        if stochastic:
            if verdict.endswith("MISMATCH"):
                return "live dropout: " + verdict
            raise StepError("live dropout, but no mismatch reported: " +
                            (error or verdict))
        if not verdict.endswith(": match"):
            raise StepError(error or verdict)
        return verdict

    # The steps. Each returns a short note, or raises StepError.

    def step_import(self):
        shapes = ["--input-shape=" + s for s in self.ref["input_shapes"]]
        extra = zoo_models.ZOO[self.name].import_args
        code, _, err = tool([self.args.translate, "--import-torchscript", self.pt,
                             *shapes, *extra, "--emit-bytecode", "-o",
                             self.path(".mlirbc")], expect_ok=False)
        if code != 0:
            # A refusal is one line, and it names the file.
            lines = [line for line in err.splitlines() if line.strip()]
            if len(lines) != 1 or self.pt not in lines[0]:
                raise StepError("not a one-line error naming %s (%d lines): %s"
                                % (self.pt, len(lines), first_line(err)))
            raise StepError(lines[0])
        return " ".join(extra)

    def step_run(self):
        return Deferred(self.path(".mlirbc"), self.stochastic)

    def step_raise(self):
        self.opt(self.path(".mlirbc"), "-mav-raise", "--emit-bytecode",
                 "-o", self.path(".raised.mlirbc"))
        self.opt(self.path(".raised.mlirbc"), "--mav-elide-weights",
                 "-o", self.path(".raised.mlir"))
        return ""

    def step_shapes(self):
        ours = forward_result_types(self.path(".raised.mlir"))
        theirs = self.ref["output_types"]
        if len(ours) != len(theirs) or not all(
                type_matches(a, b) for a, b in zip(ours, theirs)):
            raise StepError("results %s, PyTorch's %s" % (
                ", ".join(ours), ", ".join(theirs)))
        return ", ".join(ours)

    def step_params(self):
        rpt = self.path(".params.json")
        self.opt(self.path(".raised.mlirbc"), "-mav-count-params",
                 "--mav-report=" + rpt, "-o", os.devnull)
        total = report(rpt, "mav-count-params")[0]["outputs"]["total"]
        if total != self.ref["param_count"]:
            raise StepError("%d parameters, PyTorch counts %d" % (
                total, self.ref["param_count"]))
        return "%d parameters" % total

    def step_dropout(self):
        rpt = self.path(".dropout.json")
        self.opt(self.path(".raised.mlirbc"), "-mav-count-dropout",
                 "-mav-remove-dropout", "-mav-count-dropout", "--mav-report=" + rpt,
                 "--emit-bytecode", "-o", self.path(".nodropout.mlirbc"))
        before, removal, after = (r["outputs"] for r in report(
            rpt, "mav-count-dropout", "mav-remove-dropout"))
        ref = self.ref
        problems = []
        if before["modules"] != ref["dropout_modules"]:
            problems.append("modules %s, PyTorch's %s" % (
                json.dumps(before["modules"]), json.dumps(ref["dropout_modules"])))
        if before["functional_count"] != ref["functional_dropout_count"]:
            problems.append("%d functional, PyTorch %d" % (
                before["functional_count"], ref["functional_dropout_count"]))
        if before["dropout_count"] != ref["dropout_count"]:
            problems.append("%d dropouts, PyTorch %d" % (
                before["dropout_count"], ref["dropout_count"]))
        if after["dropout_count"] != 0:
            problems.append("%d left after removal" % after["dropout_count"])
        if problems:
            raise StepError("; ".join(problems), produced=True)
        return "%d dropouts (%d modules, %d functional), %d removed" % (
            before["dropout_count"], before["module_count"],
            before["functional_count"], removal["removed"])

    def step_nodrop(self):
        return Deferred(self.path(".nodropout.mlirbc"))

    def step_learnable(self):
        rpt = self.path(".learnable.json")
        self.opt(self.path(".nodropout.mlirbc"), "-mav-classify-entry-exit",
                 "-mav-insert-learnable-nodes", "-mav-insert-learnable-nodes",
                 "--mav-report=" + rpt, "--emit-bytecode",
                 "-o", self.path(".learnable.mlirbc"))
        inserted = [r["outputs"]["inserted"] for r in report(rpt)
                    if r["pass"] == "mav-insert-learnable-nodes"]
        if inserted[1] != 0:
            raise StepError("the second insertion inserted %d" % inserted[1],
                            produced=True)
        return "%d learnable nodes" % inserted[0]

    def step_ckpt(self):
        ckpt = self.path(".ckpt")
        exported, loaded = self.path(".exported.mlir"), self.path(".loaded.mlir")
        self.opt(self.path(".learnable.mlirbc"), "-mav-export-checkpoint=path=" + ckpt,
                 "--mav-elide-weights", "-o", exported)
        self.opt(ckpt, "--mav-elide-weights", "-o", loaded)
        if open(exported).read() != open(loaded).read():
            raise StepError("the reloaded checkpoint prints differently from "
                            "the exported graph")
        return Deferred(ckpt)

    def judge_ckpt(self, result):
        """The checkpoint's verdict. When it fails, mav-run on the graph
        before export tells whether the learnable step is to blame."""
        try:
            return self.judge(result)
        except StepError as e:
            before = self.path(".learnable.mlirbc")
            try:
                self.judge(self.run_references([before])[before])
            except StepError as earlier:
                raise Blame("learnable", "with learnable nodes: " + earlier.line)
            raise StepError("the checkpoint: " + e.line)


def classify(step, ok, line, expected):
    """A cell's state and whether it is unexpected."""
    listed = step in expected
    if ok:
        return ("XPASS", True) if listed else ("ok", False)
    return ("xfail", False) if listed else ("FAIL", True)


def run_model(args, name, expected):
    """Runs one model's steps; returns {step: (cell, line, note)} and the
    time it took."""
    start = time.time()
    cells = run_steps(args, name, expected)
    cells["time"] = time.time() - start
    return cells


def run_steps(args, name, expected):
    exp = expected.get(name, {})
    cells = {}
    json_path = os.path.join(args.models, name + ".json")
    if not os.path.exists(json_path):
        line = args.gen_errors.get(name, "not generated")
        cell, _ = classify("gen", False, line, exp)
        cells["gen"] = (cell, line, "")
        for step in STEPS:
            cells[step] = ("-", "", "")
        return cells
    cells["gen"] = classify("gen", True, "", exp)[0], "", ""
    model = Model(args, name)
    done = set()
    seconds = cells["seconds"] = {}
    refusal = exp.get("refused")
    deferred = {}
    for step in STEPS:
        need = NEEDS.get(step)
        if need and need not in done:
            cells[step] = ("-", "", "")
            continue
        began = time.time()
        try:
            note = getattr(model, "step_" + step)()
            ok, line = True, ""
            done.add(step)
            if isinstance(note, Deferred):
                deferred[step] = note
                seconds[step] = round(time.time() - began, 2)
                continue
        except StepError as e:
            ok, line, note = False, e.line, ""
            if e.produced:
                done.add(step)
        except Blame as e:
            cells[e.step] = (classify(e.step, False, e.line, exp)[0], e.line, "")
            cells[step] = ("-", "", "")
            continue
        if step == "import" and refusal:
            if ok:
                cells[step] = ("FAIL", "imported; expected a refusal naming " +
                               refusal, "")
            elif refusal in line:
                cells[step] = ("XPASS" if step in exp else "refused", line, "")
            else:
                cells[step] = (("xfail" if step in exp else "FAIL"), line, "")
            continue
        cells[step] = (classify(step, ok, line, exp)[0], line, note)
        seconds[step] = round(time.time() - began, 2)
    if deferred:
        began = time.time()
        results = model.run_references([d.graph for d in deferred.values()])
        seconds["references"] = round(time.time() - began, 2)
        for step, check in deferred.items():
            try:
                result = results[check.graph]
                note = (model.judge_ckpt(result) if step == "ckpt" else
                        model.judge(result, check.stochastic))
                ok, line = True, ""
            except StepError as e:
                ok, line, note = False, e.line, ""
            except Blame as e:
                cells[e.step] = (classify(e.step, False, e.line, exp)[0], e.line, "")
                cells[step] = ("-", "", "")
                continue
            cells[step] = (classify(step, ok, line, exp)[0], line, note)
    if not args.keep:
        for f in os.listdir(model.work):  # weights: keep only the text
            if not f.endswith((".mlir", ".json")):
                os.unlink(os.path.join(model.work, f))
    return cells


def generate(args, names):
    """Generates the stale models in two processes; returns {name: error}."""
    mtime = zoo_models.script_mtime()
    stale = [n for n in names
             if not zoo_models.gen.is_fresh(args.models, n, mtime)]
    errors = {}
    if not stale:
        return errors
    groups = [stale[i::args.jobs] for i in range(args.jobs)]
    procs = [subprocess.Popen(
        [sys.executable, os.path.join(HERE, "zoo_models.py"), "--out", args.models,
         "--only", *g], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for g in groups if g]
    for p in procs:
        _, err = p.communicate()
        for line in err.splitlines():
            m = re.match(r"zoo_models\.py: error: (\S+): (.*)", line)
            if m:
                errors[m.group(1)] = m.group(2)
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for option in ("models", "translate", "opt", "run", "work"):
        parser.add_argument("--" + option, required=True)
    parser.add_argument("--expected", default=os.path.join(HERE, "expected.json"),
                        help="the expected-failure table")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--table-to-stderr", action="store_true",
                        help="print the report to stderr too (lit shows it)")
    parser.add_argument("--keep", action="store_true",
                        help="keep every intermediate file (weights included)")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    args.models = os.path.normpath(os.path.abspath(args.models))
    args.work = os.path.normpath(os.path.abspath(args.work))
    os.makedirs(args.models, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    unknown = [n for n in args.names if n not in zoo_models.ZOO]
    if unknown:
        parser.error("unknown model(s): %s (see zoo_models.py --list)" % ", ".join(unknown))
    names = args.names or list(zoo_models.ZOO)
    expected = {k: v for k, v in json.load(open(args.expected))["models"].items()}
    stray = sorted(set(expected) - set(zoo_models.ZOO))
    if stray:
        parser.error("expected.json lists unknown models: " + ", ".join(stray))
    for n, entry in expected.items():
        bad = sorted(set(entry) - set(("gen", "refused") + STEPS))
        if bad:
            parser.error("expected.json: %s: unknown steps %s" % (n, ", ".join(bad)))

    start = time.time()
    args.gen_errors = generate(args, names)
    generated = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {n: pool.submit(run_model, args, n, expected) for n in names}
        results = {n: f.result() for n, f in futures.items()}
    finished = time.time()

    columns = ("gen",) + STEPS
    width = max(len(n) for n in names)
    family_width = max(len(zoo_models.ZOO[n].family) for n in names)
    out = [("%-*s  %-*s  %s  %s" % (width, "model", family_width, "family",
                                    "  ".join("%-9s" % c for c in columns),
                                    "time")).rstrip()]
    counts = {}
    failures = []
    for n in names:
        row = results[n]
        for c in columns:
            cell, line, _ = row[c]
            counts[cell] = counts.get(cell, 0) + 1
            if cell in ("FAIL", "xfail", "XPASS", "refused"):
                reason = expected.get(n, {}).get(c, "")
                failures.append((n, c, cell, line, reason))
        out.append(("%-*s  %-*s  %s  %4.1fs" % (
            width, n, family_width, zoo_models.ZOO[n].family,
            "  ".join("%-9s" % row[c][0] for c in columns), row["time"])).rstrip())
    out.append("")
    for n, c, cell, line, reason in failures:
        text = "%s/%s: %s: %s" % (n, c, cell, line or "(passed)")
        if reason:
            text += "  [expected: %s]" % reason
        out.append(text)
    unexpected = counts.get("FAIL", 0) + counts.get("XPASS", 0)
    out.append("")
    out.append("zoo: %d models, %d steps each: %s; %d unexpected" % (
        len(names), len(columns),
        ", ".join("%d %s" % (counts.get(k, 0), k)
                  for k in ("ok", "refused", "xfail", "FAIL", "XPASS", "-")),
        unexpected))
    out.append("zoo: time: generation %.0f s, steps %.0f s, total %.0f s (%d jobs)" % (
        generated - start, finished - generated, finished - start, args.jobs))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.table_to_stderr:
        sys.stderr.write(text)
    with open(os.path.join(args.work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
