"""`mav.Graph` and `mav.Node`: a mav module held in this process."""

import contextlib
import gc
import html
import io
import json

from . import _core
from .errors import Error


class ValueRef:
    """Result `result` of a node (or a placeholder), as a call argument."""

    def __init__(self, node, result=0):
        self.node, self.result = node, result


def _ref(value):
    """Node and ValueRef arguments as the core's references, recursively."""
    if isinstance(value, Node):
        return _core.ValueRef(value.name, 0)
    if isinstance(value, ValueRef):
        return _core.ValueRef(value.node, value.result)
    if isinstance(value, list):
        return [_ref(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_ref(v) for v in value)
    return value


class _Section(dict):
    """A node's metadata section: a dict whose writes go to the graph."""

    def __init__(self, node, section, contents):
        super().__init__(contents)
        self._node, self._section = node, section

    def __setitem__(self, key, value):
        self._node._write(self._section, key, value)
        super().__setitem__(key, value)

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        self._node._write(self._section, key, None)
        super().__delitem__(key)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key, *default):
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        value = self[key]
        del self[key]
        return value

    def clear(self):
        for key in list(self):
            del self[key]


class Node:
    """A node of a graph, as torch.fx names its parts.

    `op` is placeholder, get_attr, call_module, call_function, call_method
    or output; `target` the module path, weight or operator; `scope` the
    module path it was traced in. `common`, `hardware` and `software` are
    the MASE metadata sections as dicts: writing to `software` (any key),
    `common` (mase_type, mase_op) or `hardware` (its MASE fields) writes the
    graph, and a value the verifier rejects raises `mav.Error`.
    """

    def __init__(self, graph, data):
        self._graph = graph
        self._data = data

    name = property(lambda self: self._data["name"])
    op = property(lambda self: self._data["op"])
    target = property(lambda self: self._data.get("target", ""))
    scope = property(lambda self: self._data.get("scope", ""))
    module_class = property(lambda self: self._data.get("module_class", ""))
    mase_op = property(lambda self: self._data.get("mase_op", ""))
    mase_type = property(lambda self: self._data.get("mase_type", ""))
    flops = property(lambda self: self._data.get("flops"))
    macs = property(lambda self: self._data.get("macs"))

    @property
    def results(self):
        """Each result's type: {"shape": [...], "dtype": "float32"} for a
        ranked tensor (None for a dynamic size), else {"type": "..."}."""
        return self._data.get("results", [])

    @property
    def common(self):
        return _Section(self, "common", self._data.get("common", {}))

    @property
    def hardware(self):
        return _Section(self, "hardware", self._data.get("hardware", {}))

    @property
    def software(self):
        return _Section(self, "software", self._data.get("software", {}))

    @property
    def inputs(self):
        """The nodes whose results this node reads, in operand order."""
        return [self._graph.node(name) for name in
                self._graph._edges_to().get(self.name, [])]

    @property
    def users(self):
        """The nodes that read this node's results, in graph order."""
        return [self._graph.node(name) for name in
                self._graph._edges_from().get(self.name, [])]

    def output(self, index):
        """Result `index`, for a node of several results, as an argument."""
        return ValueRef(self.name, index)

    def _write(self, section, key, value):
        session = self._graph._session
        if section == "software":
            session.set_software(self.name, key, value)
        elif section == "common":
            if value is None:
                raise Error(f"node '{self.name}': common.{key} cannot be "
                            "deleted", self._graph.source, self.name)
            session.set_common(self.name, key, value)
        else:
            session.set_hardware(self.name, key, value)
        self._graph._changed()

    # Structural edits: thin calls into mav's C++ pass API.
    def replace_all_uses_with(self, replacement):
        """Every use of this node's result(s) now reads `replacement`."""
        self._graph._session.replace_all_uses(self.name, _ref(replacement))
        self._graph._changed()

    def erase(self):
        """Erases the node, which nothing may use any more."""
        self._graph._session.erase_node(self.name)
        self._graph._changed()

    def set_arg(self, position, value):
        """Sets positional argument `position` (len: appends); drops the
        node's common metadata, which -mav-raise recomputes."""
        self._graph._session.set_argument(self.name, position, _ref(value),
                                          False)
        self._graph._changed()

    def erase_arg(self, position):
        self._graph._session.set_argument(self.name, position, None, True)
        self._graph._changed()

    def set_kwarg(self, name, value):
        self._graph._session.set_keyword(self.name, name, _ref(value), False)
        self._graph._changed()

    def erase_kwarg(self, name):
        self._graph._session.set_keyword(self.name, name, None, True)
        self._graph._changed()

    def rename(self, name):
        self._graph._session.rename_node(self.name, name, True)
        self._graph._changed()
        self._data = dict(self._data, name=name)

    def set_scope(self, path, module_class):
        self._graph._session.set_scope(self.name, path, module_class)
        self._graph._changed()

    def __repr__(self):
        return (f"<mav.Node {self.name}: {self.op} {self.target}"
                + (f" ({self.mase_op})" if self.mase_op else "") + ">")


class CheckResult:
    """A passed `Graph.check`: mav-run's verdict line and the largest
    absolute difference."""

    def __init__(self, report, largest_difference):
        self.report = report
        self.largest_difference = largest_difference

    def __repr__(self):
        return f"<mav.CheckResult {self.report}>"


class Summary:
    """The torchinfo-style summary: `str()` is the table, `rows` and
    `totals` the same figures as data (the JSON export's "summary")."""

    def __init__(self, table, data):
        self.table = table
        self.rows = data["rows"]
        self.totals = data["totals"]

    def __str__(self):
        return self.table

    def __repr__(self):
        return self.table

    def _repr_html_(self):
        return f"<pre>{html.escape(self.table)}</pre>"


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while a large tree of fresh,
    acyclic objects is built: otherwise the million dicts and lists of a
    30,000-node export trigger full collections again and again, which take
    two thirds of the read (bench/RESULTS.md, "Python")."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _plain(value):
    """A model's output as tensors in tuples, as mav flattens it."""
    import torch
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, dict):
        return tuple(_plain(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def _saved(value):
    import torch
    buffer = io.BytesIO()
    torch.save(value, buffer)
    return buffer.getvalue()


def _loaded(data):
    import torch
    return torch.load(io.BytesIO(data))


class Graph:
    """A mav module: the graph of a model, its weights and its metadata.

    Made by `mav.trace`, `mav.from_fx` or `mav.load`. Reading is from one
    JSON export of the module, made when first needed after a change;
    every change goes through mav's C++ API.
    """

    def __init__(self, session):
        self._session = session
        self._changed()

    def _changed(self):
        self._export = None
        self._graphs = None
        self._nodes = None
        self._by_name = None
        self._to = None
        self._from = None

    @property
    def source(self):
        """What the graph was made from (a file, or a traced class)."""
        return self._session.source

    def to_json(self):
        """The graph as `mav-translate --export-json` writes it."""
        if self._export is None:
            with _collector_paused():
                self._export = json.loads(self._session.export_json(False))
        return self._export

    def _graph_json(self):
        """The graph's part of the export (its nodes, edges, inputs and
        outputs), exported and parsed alone."""
        if self._graphs is None:
            with _collector_paused():
                self._graphs = json.loads(
                    self._session.export_json(True))["graphs"]
        return self._graphs[0]

    @property
    def nodes(self):
        """Every node in graph order: placeholders, the nodes, output."""
        if self._nodes is None:
            with _collector_paused():
                self._nodes = [Node(self, data)
                               for data in self._graph_json()["nodes"]]
                self._by_name = {node.name: node for node in self._nodes}
        return self._nodes

    def node(self, name):
        self.nodes
        try:
            return self._by_name[name]
        except KeyError:
            raise Error(f"no node '{name}'", self.source, name) from None

    def _edges_to(self):
        if self._to is None:
            self._to = {}
            for edge in self._graph_json()["edges"]:
                self._to.setdefault(edge["to"], []).append(edge["from"])
        return self._to

    def _edges_from(self):
        if self._from is None:
            self._from = {}
            for edge in self._graph_json()["edges"]:
                users = self._from.setdefault(edge["from"], [])
                if edge["to"] not in users:
                    users.append(edge["to"])
        return self._from

    @property
    def inputs(self):
        return self._graph_json()["inputs"]

    @property
    def outputs(self):
        return self._graph_json()["outputs"]

    def run(self, pipeline):
        """Runs a mav-opt pipeline: a string (`"mav-raise,mav-count-dropout"`,
        options as `mav-quantize{width=16 frac=10}`), a Python pass (a
        function taking the graph), or a list of both, in order. On failure
        raises mav.Error, and the graph is as it was before that pipeline.
        Returns the graph."""
        from . import passes
        steps = pipeline if isinstance(pipeline, (list, tuple)) else [pipeline]
        for step in steps:
            if callable(step):
                step = passes._anonymous(step)
            if not isinstance(step, str):
                raise Error(f"run: {step!r} is neither a pipeline string nor "
                            "a function", self.source)
            passes._running.append(self)
            try:
                self._session.run_pipeline(step)
            finally:
                passes._running.pop()
                self._changed()
        return self

    @property
    def pass_outputs(self):
        """Each pass's outputs, by pass name: the last run's, as dicts."""
        return {record["pass"]: record["outputs"]
                for record in self.pass_output_history}

    @property
    def pass_output_history(self):
        """Every pass output in run order: [{"pass": ..., "outputs": ...}]."""
        return json.loads(self._session.pass_outputs_json())

    def insert_call(self, target, args=(), kwargs=None, *, before="output",
                    kind="call_function", name="", results=1):
        """Inserts a call_function of aten operator `target` (kind
        "call_method": a Tensor method) before node `before`, with
        arguments that may be nodes. Returns the new node; its types are
        unknown until -mav-raise."""
        if isinstance(before, Node):
            before = before.name
        created = self._session.insert_call(
            kind, target, list(_ref(tuple(args))), _ref_dict(kwargs or {}),
            before, name, results)
        self._changed()
        return self.node(created)

    def check(self, model, inputs=None, *, seed=0, atol=None, rtol=1e-5,
              int_high=10):
        """mav-run --reference in this process: runs the graph and `model` on
        the same inputs (given, or mav-run's seeded draw), and raises
        mav.Error unless every output is within atol + rtol * |reference|
        (atol: 1e-5 of each output's largest magnitude unless given). An
        output that cannot be told from zeros is a failure too. A quantized
        graph runs as the fixed-point model, against its error bound. The
        model runs as it is (call .eval() for eval mode)."""
        import torch
        if self._session.is_quantized():
            return self._check_quantized(model, seed)
        if inputs is None:
            inputs = _loaded(self._session.random_inputs(seed, int_high))
        elif not isinstance(inputs, (tuple, list)):
            inputs = (inputs,)
        inputs = tuple(inputs)
        with torch.no_grad():
            expected = _plain(model(*inputs))
        verdict, report, largest, _ = self._session.compare_with(
            _saved(inputs), _saved(expected),
            1e-5 if atol is None else atol, atol is None, rtol)
        if verdict != "match":
            raise Error(report, self.source)
        return CheckResult(report, largest)

    def _reference(self, model):
        import torch

        def run(data):
            with torch.no_grad():
                return _saved(_plain(model(*_loaded(data))))
        return run

    def _check_quantized(self, model, seed):
        status, report = self._session.run_quantized(
            seed, 1, self._reference(model), "", "verilator", True, 0)
        if status:
            raise Error(report.strip(), self.source)
        return CheckResult(report.strip(), None)

    def summary(self, depth=0):
        """The torchinfo-style table (`mav-translate --summary`), with the
        figures as data."""
        return Summary(self._session.summary_table(depth),
                       self.to_json()["summary"])

    def html(self, title=None):
        """The interactive viewer as one self-contained HTML page."""
        return self._session.export_html(title or self.source)

    def _repr_html_(self):
        page = html.escape(self.html(), quote=True)
        return ('<iframe class="mav-viewer" style="width:100%;height:600px;'
                f'border:0" sandbox="allow-scripts" srcdoc="{page}"></iframe>')

    def to_mlir(self, weights=False):
        """The module as MLIR text; weights elided unless asked for."""
        return self._session.print(weights)

    def save(self, path):
        """Writes a checkpoint (atomically; mav.load reads it back)."""
        self._session.save_checkpoint(str(path))

    def export_verilog(self, directory):
        """mav-translate --export-verilog: the SystemVerilog design of a
        quantized graph with hardware metadata, into `directory`."""
        self._session.export_verilog(str(directory))

    def simulate_rtl(self, directory, model=None, *, samples=1, seed=0,
                     simulator="verilator", timing=True,
                     max_cycles=50_000_000):
        """mav-run --rtl: simulates the exported design against the
        fixed-point model, word for word, under stalls (and, with `model`,
        the model against float PyTorch). Returns the report; raises
        mav.Error on any difference."""
        reference = None if model is None else self._reference(model)
        status, report = self._session.run_quantized(
            seed, samples, reference, str(directory), simulator, timing,
            max_cycles)
        if status:
            raise Error(report.strip(), str(directory))
        return report.strip()

    def __repr__(self):
        count = len(self._graph_json()["nodes"])
        return f"<mav.Graph {self.source}: {count} nodes>"


def _ref_dict(kwargs):
    return {key: _ref(value) for key, value in kwargs.items()}
