#!/usr/bin/python3
"""Compares the cycles of foldings of one model (Inputs/fold-flow.sh), from
the slowest to the fastest target:
   compare_cycles.py LOG...
reads from each log the predicted bottleneck (`predicted: ... cycles: N`,
-mav-fold-parallelism's outputs) and the cycles the Verilator simulation
measured (`rtl (verilator): ... cycles: N`, with stalls), prints both series
and fails unless each falls from one log to the next."""
import re
import sys


def read(path):
    text = open(path).read()
    predicted = int(re.search(r"^predicted: .*cycles: (\d+)", text,
                              re.M).group(1))
    measured = int(re.search(r"^rtl \(verilator\): .*cycles: (\d+)", text,
                             re.M).group(1))
    return predicted, measured


runs = [read(path) for path in sys.argv[1:]]
predicted = [run[0] for run in runs]
measured = [run[1] for run in runs]
print("predicted bottleneck cycles: " + " -> ".join(map(str, predicted)))
print("measured cycles: " + " -> ".join(map(str, measured)))
falls = all(a > b for series in (predicted, measured)
            for a, b in zip(series, series[1:]))
print("cycles fall: %s" % ("yes" if falls else "NO"))
sys.exit(0 if falls else 1)
