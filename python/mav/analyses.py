"""The seeds' two analyses, from a model in hand."""

import os
import tempfile

from .tracing import trace


class ScaleAnalysis:
    """`-mav-analyse-scale`'s result: `outputs` (its pass outputs: fwd_std,
    bwd_std, ... by node, grad_std by parameter, flagged), `listing` (the
    annotated listing, by module scope) and the raised `graph`."""

    def __init__(self, graph, outputs, listing):
        self.graph, self.outputs, self.listing = graph, outputs, listing

    def __str__(self):
        return self.listing

    def __repr__(self):
        return self.listing


def _options(options):
    return " ".join(f"{key.replace('_', '-')}={value}"
                    for key, value in options.items())


def analyse_scale(model, inputs, **options):
    """Traces `model` on `inputs`, raises it and runs -mav-analyse-scale
    with `options` (seed, distribution, scale, backward, threshold), as
    unit-scaling's analyse_module does: every node's forward and backward
    std. The inputs give the shapes; the values are mav's seeded draw."""
    graph = trace(model, inputs)
    with tempfile.TemporaryDirectory() as directory:
        listing = os.path.join(directory, "listing.txt")
        options = dict(options, listing=listing)
        graph.run(f"mav-raise,mav-analyse-scale{{{_options(options)}}}")
        with open(listing) as file:
            text = file.read()
    return ScaleAnalysis(graph, graph.pass_outputs["mav-analyse-scale"], text)


def param_exec_order(model, inputs, **options):
    """Traces `model` on `inputs`, raises it and runs -mav-param-exec-order
    with `options` (seed, second_seed, backward): the FSDP-style orders
    (module_order, param_forward_order, param_backward_order, ...), as a
    dict."""
    graph = trace(model, inputs)
    pipeline = "mav-raise,mav-param-exec-order"
    if options:
        pipeline += f"{{{_options(options)}}}"
    graph.run(pipeline)
    return graph.pass_outputs["mav-param-exec-order"]
