#!/usr/bin/env python3
"""Checks a --report-performance JSON report for sanity.

  check_perf.py PERF.json CLOCK_MHZ

Every instance has its fields, non-negative; its cycles per frame are its
items times its item cycles; the design is no faster than its slowest
instance and its latency no shorter than any instance's; the totals are
the sums; the throughput is the clock over the cycles per frame. Prints one
line, `performance: ...: sane`, or fails naming the field.
"""
import json
import sys

FIELDS = ("instance", "module", "kind", "items_per_frame", "item_cycles",
          "cycles_per_frame", "latency_cycles", "multipliers", "memory_bits",
          "luts", "flip_flops")


def fail(message):
    sys.exit("check_perf.py: " + message)


def main():
    report = json.load(open(sys.argv[1]))
    clock = float(sys.argv[2])
    if report.get("clock_mhz") != clock:
        fail("clock_mhz is %r, not %r" % (report.get("clock_mhz"), clock))
    design, totals = report["design"], report["totals"]
    instances = report["instances"]
    if not instances:
        fail("no instances")
    for instance in instances:
        for field in FIELDS:
            if field not in instance:
                fail("instance %r has no %r" % (instance.get("instance"), field))
        for field in FIELDS[3:]:
            if not isinstance(instance[field], int) or instance[field] < 0:
                fail("%s: %s = %r" % (instance["instance"], field,
                                      instance[field]))
        if instance["cycles_per_frame"] != (instance["items_per_frame"] *
                                            instance["item_cycles"]):
            fail("%s: cycles_per_frame is not items times item cycles" %
                 instance["instance"])
        if instance["kind"] == "node" and "node" not in instance:
            fail("%s: a node instance without its node" % instance["instance"])
    slowest = max(instances, key=lambda i: i["cycles_per_frame"])
    if design["bottleneck"]["instance"] != slowest["instance"]:
        fail("the bottleneck is not the slowest instance")
    if design["cycles_per_frame"] < slowest["cycles_per_frame"] - 1:
        fail("the design is faster than its bottleneck")
    if design["latency_cycles"] < max(i["latency_cycles"] for i in instances):
        fail("the design's latency is shorter than an instance's")
    for field in ("multipliers", "memory_bits", "luts", "flip_flops"):
        if totals[field] != sum(i[field] for i in instances):
            fail("totals.%s is not the sum" % field)
        if totals[field] <= 0:
            fail("totals.%s is %r" % (field, totals[field]))
    fps = clock * 1e6 / design["cycles_per_frame"]
    if abs(design["frames_per_second"] - fps) > 1e-6 * fps:
        fail("frames_per_second is not the clock over the cycles per frame")
    ends = design["frame_end_cycles"]
    if (len(ends) != design["frames_simulated"] or
            ends[-1] - ends[-2] != design["cycles_per_frame"] or
            ends[0] - design["first_input_cycle"] + 1 !=
            design["latency_cycles"]):
        fail("frame_end_cycles disagree with the latency and cycles per frame")
    print("performance: %d instances, bottleneck %s (%s), latency %d, "
          "cycles per frame %d: sane" %
          (len(instances), slowest["instance"], slowest["module"],
           design["latency_cycles"], design["cycles_per_frame"]))


if __name__ == "__main__":
    main()
