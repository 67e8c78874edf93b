"""Checks --report-resources --resources-by=instance reports.

  check_resources.py agree REPORT.json
      REPORT (--resources-by=both): the sum by instance against the whole
      design, per figure, within the tolerances docs/Hardware.md
      ("Resources") states: memory bits, DSPs, block and LUT RAM exactly;
      Xilinx LUTs within 10%, Xilinx flip-flops and carry chains within 5%,
      generic flip-flops within 10%, generic cells within 15% of the whole
      design (what flat synthesis optimises across instance boundaries).
  check_resources.py sums REPORT.json
      Each sum is the configurations' figures times their instance counts;
      prints the counts.
  check_resources.py leftout LIMITED.json FULL.json
      LIMITED (--synth-memory-limit): what each configuration left out, and
      its memory bits against FULL's (the same design, no limit).
  check_resources.py xilinx ONLY.json FULL.json
      ONLY (--synth-generic=false) has FULL's Xilinx figures and memory bits.
  check_resources.py same FIRST.json SECOND.json
      SECOND is a rerun of FIRST: every configuration from the cache, the
      same figures.
"""
import json
import sys

RELATIVE = {("generic", "cells"): 0.15, ("generic", "flip_flops"): 0.10,
            ("xilinx", "luts"): 0.10, ("xilinx", "flip_flops"): 0.05,
            ("xilinx", "carry"): 0.05}


def agree(path):
    report = json.load(open(path))
    whole, diff = report["whole_design"], report["difference"]
    bad = 0
    for section in ("generic", "xilinx"):
        for key, value in sorted(whole[section].items()):
            if not isinstance(value, int):
                continue
            delta = diff[section].get(key, 0)
            limit = RELATIVE.get((section, key), 0) * value
            ok = abs(delta) <= limit
            bad += not ok
            print("%s %s: whole %d, sum %d, difference %+d: %s" %
                  (section, key, value, value + delta, delta,
                   "agrees" if ok else "DISAGREES"))
    print("sum vs whole design: %s" %
          ("within tolerance" if bad == 0 else "%d figures out" % bad))
    return bad == 0


def sums(path):
    report = json.load(open(path))
    entries = report["configurations"]
    print("instances per configuration: %s" %
          " ".join(str(entry["count"]) for entry in entries))
    bad = [(section, key) for section in ("generic", "xilinx")
           for key, value in report[section].items()
           if isinstance(value, int) and value != sum(
               entry[section][key] * entry["count"] for entry in entries)]
    print("sums: %s" % ("by count" if not bad else "WRONG %s" % bad))
    return not bad


def leftout(limited_path, full_path):
    limited, full = json.load(open(limited_path)), json.load(open(full_path))
    for entry in limited["configurations"]:
        memories = ", ".join("%s %dx%d: %d BRAM18" % (
            m["kind"], m["words"], m["width"], m["bram_18k"])
            for m in entry["left_out"])
        print("%s %s: %s" % (entry["module"], entry["instances"][0],
                             memories or "nothing left out"))
    estimated = sum(m["bram_18k"] * entry["count"]
                    for entry in limited["configurations"]
                    for m in entry["left_out"])
    print("estimated BRAM18: %d, in the sum: %d" %
          (estimated, limited["xilinx"]["bram_18k_estimated"]))
    same_bits = (limited["generic"]["memory_bits"] ==
                 full["generic"]["memory_bits"])
    print("memory bits: %s" % ("as without a limit" if same_bits
                               else "DIFFERENT"))
    return same_bits and estimated == limited["xilinx"]["bram_18k_estimated"]


def xilinx(only_path, full_path):
    only, full = json.load(open(only_path)), json.load(open(full_path))
    equal = (only["xilinx"] == full["xilinx"] and
             only["generic"] == {"memory_bits": full["generic"]["memory_bits"]})
    print("xilinx only: %s" % ("the same Xilinx figures and memory bits"
                               if equal else "DIFFERENT"))
    return equal


def strip(report):
    for entry in report["configurations"]:
        del entry["cached"]
    for key in ("cached", "synthesised"):
        del report[key]
    return report


def same(first_path, second_path):
    first, second = json.load(open(first_path)), json.load(open(second_path))
    hits = sum(entry["cached"] for entry in second["configurations"])
    total = len(second["configurations"])
    print("second run: %d of %d configurations from the cache" % (hits, total))
    first.pop("whole_design", None)
    first.pop("difference", None)
    equal = strip(first) == strip(second)
    print("second run: %s" % ("same figures" if equal else "DIFFERENT"))
    return equal and hits == total


if __name__ == "__main__":
    command = sys.argv[1]
    ok = {"agree": agree, "sums": sums, "same": same,
          "leftout": leftout, "xilinx": xilinx}[command](*sys.argv[2:])
    sys.exit(0 if ok else 1)
