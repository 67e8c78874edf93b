"""Generates a randomized streaming test of one mav RTL component.

  rtlgen.py COMPONENT --out DIR [--width W --frac F --par P --seed S ...]

writes into DIR:
  in0.mem [in1.mem]   input beats, hex, one beat (PARALLELISM words, word 0 in
                      the low bits; each input its own words per beat:
                      IN_PARALLELISM, SCALE_PARALLELISM) per line
  weights.mem bias.mem  ROM contents, one word per line (linear, conv2d)
  expected.mem        the output beats computed by fixedpoint.py
  tb.sv               a testbench (module tb) that drives the inputs with random
                      valid stalls, the output with random ready stalls, and
                      compares every output beat bit for bit; it prints
                      "PASS <n> beats" or "MISMATCH ..." lines and "FAIL".
                      With several consumers (fork), each has its own random
                      ready and checker, all against expected.mem, and the
                      line is "PASS <n> beats on each of <k> outputs".
                      --no-stall (valid and ready always high) adds
                      "CYCLES <n> EXPECTED_CYCLES <m>", --report-cycles
                      "CYCLES first <a> last <b>" (see --help).
The same tb.sv runs under Verilator (--binary --timing) and Icarus (-g2012).
"""
import argparse
import importlib
import os
import random

import fixedpoint as fx


def word_hex(v, width):
    assert fx.qmin(width) <= v <= fx.qmax(width), v
    return format(v & ((1 << width) - 1), "0%dx" % ((width + 3) // 4))


def beats(words, width, par):
    assert len(words) % par == 0, (len(words), par)
    out = []
    for k in range(0, len(words), par):
        v = 0
        for j in range(par):
            assert fx.qmin(width) <= words[k + j] <= fx.qmax(width), words[k + j]
            v |= (words[k + j] & ((1 << width) - 1)) << (j * width)
        out.append(format(v, "0%dx" % ((width * par + 3) // 4)))
    return out


def write_lines(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def _mixture(rng, width, n, p_min, p_max, p_zero, p_full, lo, hi):
    """n draws: MIN(width) with probability p_min, MAX with p_max, 0 with
    p_zero, any word with p_full, else uniform in [lo, hi]."""
    out = []
    for _ in range(n):
        r = rng.random()
        if r < p_min:
            out.append(fx.qmin(width))
        elif r < p_min + p_max:
            out.append(fx.qmax(width))
        elif r < p_min + p_max + p_zero:
            out.append(0)
        elif r < p_min + p_max + p_zero + p_full:
            out.append(rng.randint(fx.qmin(width), fx.qmax(width)))
        else:
            out.append(rng.randint(lo, hi))
    return out


def rand_data(rng, width, n):
    """Mostly mid-range values, with the extremes and zero mixed in, so that
    both rounding and saturation are exercised."""
    half = 1 << (width - 2)
    return _mixture(rng, width, n, 0.05, 0.05, 0.03, 0.37, -half, half - 1)


def rand_copy_data(rng, width, frac, n):
    """Words for components that copy them (reorder, prepend): the extremes,
    zero, runs of equal words, small (|v| <= 1.0) and full-range words,
    about half negative."""
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            out.append(fx.qmin(width))
        elif r < 0.10:
            out.append(fx.qmax(width))
        elif r < 0.13:
            out.append(0)
        elif r < 0.25 and out:
            out.append(out[-1])
        elif r < 0.45:
            lim = min(fx.qmax(width), 1 << frac)
            out.append(rng.randint(-lim, lim))
        else:
            out.append(rng.randint(fx.qmin(width), fx.qmax(width)))
    return out


def rand_mac_data(rng, width, n, terms):
    """Inputs of a multiply-accumulate component: scaled with the number of
    terms so that most outputs stay in range, with some extremes so that
    others saturate."""
    lim = min(fx.qmax(width), max(2, (1 << (width - 1)) * 3 // terms))
    return _mixture(rng, width, n, 0.03, 0.03, 0, 0, -lim, lim)


def rand_weights(rng, width, frac, n):
    """Weights of magnitude up to about 1.0, some at the extremes."""
    lim = min(1 << frac, fx.qmax(width))
    return _mixture(rng, width, n, 0.005, 0.005, 0, 0, -lim, lim)


def rand_cast_data(rng, width, frac, out_width, out_frac, n):
    """Inputs of a cast: mostly values whose result lies in (or a little
    beyond) the output range, with the input's extremes, zero and full-range
    values mixed in, so that ties, saturation and exact results all occur."""
    up, down = max(0, frac - out_frac), max(0, out_frac - frac)
    lim = ((fx.qmax(out_width) + 1) * 9 << up) >> (3 + down)
    lim = max(1, min(fx.qmax(width), lim))
    return _mixture(rng, width, n, 0.05, 0.05, 0.03, 0.12, -lim, lim)


def rand_hard_data(rng, width, frac, n):
    """Inputs of hardsigmoid / hardswish: every corner of the clamp of x + 3
    (x = -3, 3 and their neighbours, the extremes, 0), then, for narrow words,
    every word once, then values mostly in [-4, 4] with some full-range."""
    three = 3 << frac
    special = [v for v in (-three - 1, -three, -three + 1, three - 1, three,
                           three + 1, 0, 1, -1, fx.qmin(width), fx.qmax(width))
               if fx.qmin(width) <= v <= fx.qmax(width)]
    out = special[:n]
    if width <= 10:
        every = list(range(fx.qmin(width), fx.qmax(width) + 1))
        rng.shuffle(every)
        out += every[:n - len(out)]
    lim = min(fx.qmax(width), 4 << frac)
    out += _mixture(rng, width, n - len(out), 0.03, 0.03, 0.02, 0.2, -lim, lim)
    return out


def rate_cond(seed, rate):
    """A beat offered (or ready) with probability rate/16, every cycle at 16."""
    return "1'b1" if rate >= 16 else "(%s[3:0] < 4'd%d)" % (seed, rate)


def linear_cycles(n, m, p_in, p_out):
    """fixed_linear, no stalls: cycles per vector (= initiation interval), as
    documented in its header: N/P_in load beats, then per output beat N/P_in
    MAC cycles and one emit cycle."""
    return n // p_in + (m // p_out) * (n // p_in + 1)


def conv2d_cycles(c, oc, groups, h, wd, kh, kw, stride, padding, p_in, p_out):
    """fixed_conv2d, no stalls: cycles per image (= initiation interval), as
    documented in its header: C*H*W/P_in load beats, then per block of P_out
    output channels OH*OW windows of CH*KH*KW tap cycles and OH*OW emit
    cycles, CH = (C/groups)/P_in chunks (depthwise, C = OC = groups: 1)."""
    icg, ocg = c // groups, oc // groups
    oh = (h + 2 * padding - kh) // stride + 1
    ow = (wd + 2 * padding - kw) // stride + 1
    ch = 1 if icg == 1 and ocg == 1 else icg // p_in
    return c * h * wd // p_in + (oc // p_out) * oh * ow * (ch * kh * kw + 1)


def pool_cycles(c, h, wd, kh, kw, oh, ow, par):
    """fixed_maxpool2d / fixed_avgpool2d (fixed_window_scan), no stalls:
    cycles per image (= initiation interval), as documented in their headers:
    C*H*W/P load beats, then per block of P channels OH*OW windows of KH*KW
    tap cycles (padding taps included) and OH*OW emit cycles."""
    return c * h * wd // par + (c // par) * oh * ow * (kh * kw + 1)


def chunks(xs, n):
    return [xs[k:k + n] for k in range(0, len(xs), n)]


def mobile_case(comp, a, rng, params):
    """The operators of the mobile networks: returns the input word lists,
    the expected output words, the words per beat of each input and of the
    output; adds the component's own parameters to params."""
    W, F, P = a.width, a.frac, a.par
    in_pars, out_par = None, P
    if comp == "clamp":
        hi = fx.saturate(6 << F, W) if a.max_word is None else a.max_word
        lo = a.min_word
        x = rand_data(rng, W, a.words)
        inputs = [x]
        expected = [fx.clamp(v, lo, hi) for v in x]
        params.update(MIN_WORD=lo, MAX_WORD=hi)
    elif comp in ("hardsigmoid", "hardswish"):
        x = rand_hard_data(rng, W, F, a.words)
        inputs = [x]
        op = fx.hardsigmoid if comp == "hardsigmoid" else fx.hardswish
        expected = [op(v, W, F, a.recip_frac) for v in x]
        params["RECIP_FRAC"] = a.recip_frac
    elif comp == "width_convert":
        in_par = a.in_par or P
        out_par = a.out_par or P
        x = rand_data(rng, W, a.words)
        inputs, expected, in_pars = [x], list(x), [in_par]
        del params["PARALLELISM"]
        params.update(IN_PARALLELISM=in_par, OUT_PARALLELISM=out_par)
    elif comp == "concat2":
        n0, n1 = a.in0_words, a.in1_words
        x0 = rand_data(rng, W, n0 * a.items)
        x1 = rand_data(rng, W, n1 * a.items)
        inputs = [x0, x1]
        expected = fx.concat2(x0, x1, n0, n1)
        params.update(IN0_WORDS=n0, IN1_WORDS=n1)
    elif comp == "channel_mul":
        c, sp = a.channels, a.spatial
        x = rand_data(rng, W, c * sp * a.items)
        # Scales (squeeze-and-excitation gates) mostly in [-2, 2], with the
        # extremes: most products in range, some saturated.
        lim = min(fx.qmax(W), 2 << F)
        s = _mixture(rng, W, c * a.items, 0.05, 0.05, 0.05, 0.05, -lim, lim)
        inputs, in_pars = [x, s], [P, a.scale_par]
        expected = fx.channel_mul(x, s, c, sp, W, F)
        params.update(SCALE_PARALLELISM=a.scale_par, CHANNELS=c, SPATIAL=sp)
    return inputs, expected, in_pars, out_par


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("component")
    ap.add_argument("--out", required=True)
    ap.add_argument("--width", type=int, default=8)
    ap.add_argument("--frac", type=int, default=4)
    ap.add_argument("--par", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--items", type=int, default=3,
                    help="vectors / images per test")
    ap.add_argument("--words", type=int, default=64,
                    help="words per test for elementwise components")
    ap.add_argument("--in-features", type=int, default=6)
    ap.add_argument("--out-features", type=int, default=4)
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--out-channels", type=int, default=2)
    ap.add_argument("--height", type=int, default=5)
    ap.add_argument("--width-px", type=int, default=5)
    ap.add_argument("--kernel", type=int, nargs=2, default=[3, 3])
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--padding", type=int, default=0)
    ap.add_argument("--recip-frac", type=int, default=16)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--out-width", type=int, default=None,
                    help="cast: output width (default --width)")
    ap.add_argument("--out-frac", type=int, default=None,
                    help="cast: output fraction bits (default --frac)")
    ap.add_argument("--outputs", type=int, default=2,
                    help="fork: number of consumers")
    ap.add_argument("--min-word", type=int, default=0, help="clamp: MIN_WORD")
    ap.add_argument("--max-word", type=int, default=None,
                    help="clamp: MAX_WORD (default 6.0 in the format, saturated)")
    ap.add_argument("--in0-words", type=int, default=8, help="concat2: IN0_WORDS")
    ap.add_argument("--in1-words", type=int, default=4, help="concat2: IN1_WORDS")
    ap.add_argument("--spatial", type=int, default=4, help="channel_mul: SPATIAL")
    ap.add_argument("--scale-par", type=int, default=1,
                    help="channel_mul: SCALE_PARALLELISM")
    ap.add_argument("--in-par", type=int, default=None,
                    help="linear, conv2d, width_convert: IN_PARALLELISM (default --par)")
    ap.add_argument("--out-par", type=int, default=None,
                    help="linear, conv2d, width_convert: OUT_PARALLELISM (default --par)")
    ap.add_argument("--groups", type=int, default=1, help="conv2d: GROUPS")
    ap.add_argument("--ceil-mode", action="store_true", help="maxpool2d: ceil mode")
    ap.add_argument("--no-stall", action="store_true",
                    help="valid and ready always high (as --in-rate 16 --out-rate 16); "
                    "the testbench prints CYCLES <n> EXPECTED_CYCLES <m>: first beat "
                    "taken on data_in_0 to last output beat, inclusive, and the "
                    "documented formula (linear, conv2d, pools; else 'unknown')")
    ap.add_argument("--report-cycles", action="store_true",
                    help="print 'CYCLES first <a> last <b>': the cycles of the first "
                    "and last output beats, counted from the first beat taken on "
                    "data_in_0")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=INT",
                    help="a component option read by its case module "
                    "(Inputs/case_<component>.py), e.g. --param rows=4")
    ap.add_argument("--in-rate", type=int, default=10,
                    help="input valid offered with probability in-rate/16")
    ap.add_argument("--out-rate", type=int, default=7,
                    help="output ready with probability out-rate/16")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    W, F, P = a.width, a.frac, a.par
    PI = P if a.in_par is None else a.in_par     # linear, conv2d: words per input beat
    PO = P if a.out_par is None else a.out_par   # linear, conv2d: words per output beat
    if (a.in_par is not None or a.out_par is not None) and a.component not in (
            "linear", "conv2d", "width_convert"):
        raise SystemExit("--in-par / --out-par: linear, conv2d and width_convert only")
    in_rate = 16 if a.no_stall else a.in_rate
    out_rate = 16 if a.no_stall else a.out_rate
    expected_cycles = None   # per the component's documented formula (--no-stall)
    out_dir = os.path.abspath(a.out)
    os.makedirs(out_dir, exist_ok=True)
    path = lambda name: os.path.join(out_dir, name)  # noqa: E731

    comp = a.component
    module = "fixed_" + comp
    params = {"DATA_WIDTH": W, "FRAC_WIDTH": F, "PARALLELISM": P}
    inputs = []   # list of word lists, one per input stream
    expected = []
    OW = W        # output word width (cast changes it)
    n_out = 1     # consumers of data_out_0 (fork has several)
    in_pars = None   # words per beat of each input (default P for all)
    out_par = P      # words per beat of data_out_0
    plugin_items = None  # items per test, from a case module

    if comp in ("skid_buffer", "flatten", "fifo", "relu"):
        x = rand_data(rng, W, a.words)
        inputs = [x]
        expected = [fx.relu(v) for v in x] if comp == "relu" else list(x)
        if comp == "fifo":
            params["DEPTH"] = a.depth
    elif comp == "cast":
        OW = W if a.out_width is None else a.out_width
        OF = F if a.out_frac is None else a.out_frac
        x = rand_cast_data(rng, W, F, OW, OF, a.words)
        inputs = [x]
        expected = [fx.cast(v, F, OW, OF) for v in x]
        params = {"IN_WIDTH": W, "IN_FRAC_WIDTH": F, "OUT_WIDTH": OW,
                  "OUT_FRAC_WIDTH": OF, "PARALLELISM": P}
    elif comp == "fork":
        x = rand_data(rng, W, a.words)
        inputs = [x]
        expected = list(x)
        n_out = a.outputs
        params["OUTPUTS"] = n_out
    elif comp in ("add", "mul"):
        x0, x1 = rand_data(rng, W, a.words), rand_data(rng, W, a.words)
        inputs = [x0, x1]
        if comp == "add":
            expected = [fx.add(p, q, W) for p, q in zip(x0, x1)]
        else:
            expected = [fx.mul(p, q, W, F) for p, q in zip(x0, x1)]
    elif comp == "linear":
        n, m = a.in_features, a.out_features
        w = chunks(rand_weights(rng, W, F, m * n), n)
        b = rand_mac_data(rng, W, m, 4)
        write_lines(path("weights.mem"), [word_hex(v, W) for row in w for v in row])
        write_lines(path("bias.mem"), [word_hex(v, W) for v in b])
        x = []
        for _ in range(a.items):
            xi = rand_mac_data(rng, W, n, n)
            x += xi
            expected += fx.linear(xi, w, b, W, F)
        inputs = [x]
        expected_cycles = a.items * linear_cycles(n, m, PI, PO)
        in_pars, out_par = [PI], PO
        del params["PARALLELISM"]
        params.update(IN_FEATURES=n, OUT_FEATURES=m,
                      IN_PARALLELISM=PI, OUT_PARALLELISM=PO,
                      WEIGHTS_FILE='"%s"' % path("weights.mem"),
                      BIAS_FILE='"%s"' % path("bias.mem"))
    elif comp == "conv2d":
        c, oc, h, wd = a.channels, a.out_channels, a.height, a.width_px
        kh, kw = a.kernel
        g = a.groups
        icg = c // g
        flat_w = rand_weights(rng, W, F, oc * icg * kh * kw)
        w = [chunks(ch, kw) for ch in chunks(flat_w, kh * kw)]
        w = chunks(w, icg)
        b = rand_mac_data(rng, W, oc, 4)
        write_lines(path("weights.mem"), [word_hex(v, W) for v in flat_w])
        write_lines(path("bias.mem"), [word_hex(v, W) for v in b])
        x = []
        for _ in range(a.items):
            flat = rand_mac_data(rng, W, c * h * wd, icg * kh * kw)
            x += flat
            img = [chunks(ch, wd) for ch in chunks(flat, h * wd)]
            y = fx.conv2d_grouped(img, w, b, W, F, a.stride, a.padding, g)
            expected += [v for plane in y for row in plane for v in row]
        inputs = [x]
        expected_cycles = a.items * conv2d_cycles(c, oc, g, h, wd, kh, kw, a.stride,
                                                  a.padding, PI, PO)
        in_pars, out_par = [PI], PO
        del params["PARALLELISM"]
        params.update(IN_PARALLELISM=PI, OUT_PARALLELISM=PO,
                      IN_CHANNELS=c, OUT_CHANNELS=oc, GROUPS=g, IN_HEIGHT=h, IN_WIDTH=wd,
                      KERNEL_H=kh, KERNEL_W=kw, STRIDE=a.stride,
                      PADDING=a.padding,
                      WEIGHTS_FILE='"%s"' % path("weights.mem"),
                      BIAS_FILE='"%s"' % path("bias.mem"))
    elif comp in ("maxpool2d", "avgpool2d"):
        c, h, wd = a.channels, a.height, a.width_px
        if c % P:
            raise SystemExit("pools: PARALLELISM must divide the channels")
        kh, kw = a.kernel
        x = []
        for _ in range(a.items):
            flat = rand_data(rng, W, c * h * wd)
            x += flat
            img = [chunks(ch, wd) for ch in chunks(flat, h * wd)]
            if comp == "maxpool2d" and (a.padding or a.ceil_mode):
                expected += fx.maxpool2d_padded(img, kh, kw, a.stride, a.padding,
                                                a.ceil_mode)
            elif comp == "maxpool2d":
                expected += fx.maxpool2d(img, kh, kw, a.stride)
            else:
                expected += fx.avgpool2d(img, kh, kw, a.stride, W, a.recip_frac)
        inputs = [x]
        params.update(CHANNELS=c, IN_HEIGHT=h, IN_WIDTH=wd, KERNEL_H=kh,
                      KERNEL_W=kw, STRIDE=a.stride)
        if comp == "avgpool2d":
            params["RECIP_FRAC"] = a.recip_frac
            oh, ow = (h - kh) // a.stride + 1, (wd - kw) // a.stride + 1
        else:
            oh = fx.pool_out_size(h, kh, a.stride, a.padding, a.ceil_mode)
            ow = fx.pool_out_size(wd, kw, a.stride, a.padding, a.ceil_mode)
            params.update(PADDING=a.padding, OUT_HEIGHT=oh, OUT_WIDTH=ow)
        expected_cycles = a.items * pool_cycles(c, h, wd, kh, kw, oh, ow, P)
    elif comp in ("clamp", "hardsigmoid", "hardswish", "width_convert",
                  "concat2", "channel_mul"):
        inputs, expected, in_pars, out_par = mobile_case(comp, a, rng, params)
    elif os.path.exists(os.path.join(os.path.dirname(__file__), "case_%s.py" % comp)):
        # A component whose case lives in its own module: case(a, rng,
        # params, path, options) returns (inputs, expected, in_pars, out_par,
        # expected_cycles, items) and may edit params.
        options = dict((k, int(v)) for k, v in (p.split("=", 1) for p in a.param))
        case = importlib.import_module("case_" + comp)
        (inputs, expected, in_pars, out_par, expected_cycles,
         plugin_items) = case.case(a, rng, params, path, options)
    else:
        raise SystemExit("unknown component " + comp)

    elementwise = ("skid_buffer", "flatten", "fifo", "relu", "add", "mul", "cast", "fork",
                   "clamp", "hardsigmoid", "hardswish", "width_convert")
    items = 1 if comp in elementwise else a.items
    if plugin_items is not None:
        items = plugin_items
    in_pars = in_pars or [P] * len(inputs)
    for x, ip in zip(inputs, in_pars):
        if (len(x) // items) % ip or (len(expected) // items) % out_par:
            raise SystemExit("PARALLELISM must divide the element count of each item")
    sat = sum(1 for v in expected if v in (fx.qmin(OW), fx.qmax(OW)))
    with open(path("stats.txt"), "w") as f:
        f.write("%s: %d output words, %d saturated\n" % (comp, len(expected), sat))

    in_beats = [beats(x, W, ip) for x, ip in zip(inputs, in_pars)]
    exp_beats = beats(expected, OW, out_par)
    for k, bs in enumerate(in_beats):
        write_lines(path("in%d.mem" % k), bs)
    write_lines(path("expected.mem"), exp_beats)

    bw = W * in_pars[0]
    nin = len(in_beats[0])
    nout = len(exp_beats)
    timeout = 200 * (nin + nout) + 20 * (expected_cycles or 0) + 50 * len(expected) * max(
        1, a.in_features if comp == "linear" else
        a.channels // a.groups * a.kernel[0] * a.kernel[1]) + 1000
    tb = []
    tb.append("// Generated by test/Hardware/Inputs/rtlgen.py %s (seed %d)." % (comp, a.seed))
    tb.append("module tb;")
    tb.append("  localparam int BW = %d;" % bw)
    tb.append("  localparam int OBW = %d;" % (OW * out_par))
    tb.append("  localparam int NIN = %d;" % nin)
    tb.append("  localparam int NOUT = %d;" % nout)
    tb.append("  logic clk = 1'b0;")
    tb.append("  logic rst = 1'b1;")
    tb.append("  int cycle = 0;")
    tb.append("  function automatic logic [31:0] xs(input logic [31:0] v);")
    tb.append("    logic [31:0] t;")
    tb.append("    t = v ^ (v << 13); t = t ^ (t >> 17); return t ^ (t << 5);")
    tb.append("  endfunction")
    tb.append("  always #5 clk = ~clk;")
    tb.append("  always @(posedge clk) begin")
    tb.append("    cycle <= cycle + 1;")
    tb.append("    if (cycle == 3) rst <= 1'b0;")
    tb.append("    if (cycle == %d) begin $display(\"FAIL: timeout\"); $finish; end" % timeout)
    tb.append("  end")
    ports = []
    for k in range(len(inputs)):
        tb.append("  localparam int NIN%d = %d;" % (k, len(in_beats[k])))
        tb.append("  logic [%d:0] in%d_mem [0:NIN%d-1];" % (W * in_pars[k] - 1, k, k))
        tb.append("  initial $readmemh(\"%s\", in%d_mem);" % (path("in%d.mem" % k), k))
        tb.append("  logic [%d:0] d%d = '0;" % (W * in_pars[k] - 1, k))
        tb.append("  logic v%d = 1'b0;" % k)
        tb.append("  logic r%d;" % k)
        tb.append("  int i%d = 0;" % k)
        tb.append("  logic [31:0] s%d = 32'd%d;" % (k, rng.randint(1, 2**31)))
        tb.append("  always @(posedge clk) begin")
        tb.append("    s%d <= xs(s%d);" % (k, k))
        tb.append("    if (!rst) begin")
        tb.append("      if (v%d && r%d) i%d <= i%d + 1;" % (k, k, k, k))
        tb.append("      if (!v%d || r%d) begin" % (k, k))
        tb.append("        if (i%d + ((v%d && r%d) ? 1 : 0) < NIN%d && %s) begin"
                  % (k, k, k, k, rate_cond("s%d" % k, in_rate)))
        tb.append("          v%d <= 1'b1;" % k)
        tb.append("          d%d <= in%d_mem[i%d + ((v%d && r%d) ? 1 : 0)];" % (k, k, k, k, k))
        tb.append("        end else begin")
        tb.append("          v%d <= 1'b0;" % k)
        tb.append("        end")
        tb.append("      end")
        tb.append("    end")
        tb.append("  end")
        ports += [".data_in_%d(d%d)" % (k, k), ".data_in_%d_valid(v%d)" % (k, k),
                  ".data_in_%d_ready(r%d)" % (k, k)]
    tb.append("  logic [OBW-1:0] exp_mem [0:NOUT-1];")
    tb.append("  initial $readmemh(\"%s\", exp_mem);" % path("expected.mem"))
    tb.append("  logic [OBW-1:0] dout;")
    # One consumer: scalar vout/rout, counters o, errors; several: one set per
    # consumer (suffix k), valid and ready as vectors on the ports.
    sfx = [""] if n_out == 1 else [str(k) for k in range(n_out)]
    if n_out == 1:
        tb.append("  logic vout;")
    else:
        tb.append("  logic [%d:0] vout;" % (n_out - 1))
    for k, x in enumerate(sfx):
        vk = "vout" if n_out == 1 else "vout[%d]" % k
        tb.append("  logic rout%s = 1'b0;" % x)
        tb.append("  logic [31:0] so%s = 32'd%d;" % (x, rng.randint(1, 2**31)))
        tb.append("  int o%s = 0;" % x)
        tb.append("  int errors%s = 0;" % x)
        tb.append("  logic held%s = 1'b0;" % x)
        tb.append("  logic [OBW-1:0] held_data%s = '0;" % x)
        tb.append("  always @(posedge clk) begin")
        tb.append("    so%s <= xs(so%s);" % (x, x))
        tb.append("    if (!rst) begin")
        tb.append("      rout%s <= %s;" % (x, rate_cond("so" + x, out_rate)))
        tb.append("      if (held%s && (!%s || dout !== held_data%s)) begin" % (x, vk, x))
        tb.append("        $display(\"MISMATCH: output%s changed while stalled at beat %%0d\", o%s);"
                  % ("" if n_out == 1 else " " + x, x))
        tb.append("        errors%s <= errors%s + 1;" % (x, x))
        tb.append("      end")
        tb.append("      held%s <= %s && !rout%s;" % (x, vk, x))
        tb.append("      held_data%s <= dout;" % x)
        tb.append("      if (%s && rout%s) begin" % (vk, x))
        tb.append("        if (o%s >= NOUT) begin" % x)
        tb.append("          $display(\"MISMATCH: extra beat%s %%h\", dout);"
                  % ("" if n_out == 1 else " on output " + x))
        tb.append("          errors%s <= errors%s + 1;" % (x, x))
        tb.append("        end else if (dout !== exp_mem[o%s]) begin" % x)
        tb.append("          $display(\"MISMATCH: %sbeat %%0d got %%h expected %%h\", o%s, dout, exp_mem[o%s]);"
                  % ("" if n_out == 1 else "output " + x + " ", x, x))
        tb.append("          errors%s <= errors%s + 1;" % (x, x))
        tb.append("        end")
        tb.append("        o%s <= o%s + 1;" % (x, x))
        tb.append("      end")
        tb.append("    end")
        tb.append("  end")
    if a.no_stall or a.report_cycles:
        # Clock edges of the first beat taken on data_in_0 and of the first
        # and last output beats (with several consumers, taken by any).
        if n_out == 1:
            took = "vout && rout"
        else:
            took = "|(vout & {%s})" % ", ".join("rout%s" % x for x in reversed(sfx))
        tb.append("  int t_in = -1;")
        tb.append("  int t_first = -1;")
        tb.append("  int t_last = -1;")
        tb.append("  always @(posedge clk) begin")
        tb.append("    if (!rst) begin")
        tb.append("      if (v0 && r0 && t_in < 0) t_in <= cycle;")
        tb.append("      if (%s) begin" % took)
        tb.append("        if (t_first < 0) t_first <= cycle;")
        tb.append("        t_last <= cycle;")
        tb.append("      end")
        tb.append("    end")
        tb.append("  end")
    tb.append("  int drain = 0;")
    tb.append("  always @(posedge clk) begin")
    tb.append("    if (!rst) begin")
    tb.append("      if (%s) drain <= drain + 1;" % " && ".join("o%s >= NOUT" % x for x in sfx))
    tb.append("      if (drain == 200) begin")
    if a.report_cycles:
        tb.append("        $display(\"CYCLES first %0d last %0d\", t_first - t_in, t_last - t_in);")
    if a.no_stall:
        tb.append("        $display(\"CYCLES %%0d EXPECTED_CYCLES %s\", t_last - t_in + 1);"
                  % ("unknown" if expected_cycles is None else expected_cycles))
    errs = " + ".join("errors%s" % x for x in sfx)
    if n_out == 1:
        tb.append("        if (errors == 0) $display(\"PASS %0d beats\", o);")
        tb.append("        else $display(\"FAIL: %0d errors\", errors);")
    else:
        same = " && ".join("o%s == o0" % x for x in sfx[1:])
        tb.append("        if (%s == 0 && %s) $display(\"PASS %%0d beats on each of %d outputs\", o0);"
                  % (errs, same, n_out))
        tb.append("        else $display(\"FAIL: %%0d errors, beats %s\", %s, %s);"
                  % (" ".join(["%0d"] * n_out), errs, ", ".join("o%s" % x for x in sfx)))
    tb.append("        $finish;")
    tb.append("      end")
    tb.append("    end")
    tb.append("  end")
    if n_out == 1:
        ports += [".data_out_0(dout)", ".data_out_0_valid(vout)", ".data_out_0_ready(rout)"]
    else:
        ports += [".data_out_0(dout)", ".data_out_0_valid(vout)",
                  ".data_out_0_ready({%s})" % ", ".join("rout%s" % x for x in reversed(sfx))]
    plist = ",\n    ".join(".%s(%s)" % (k, v) for k, v in params.items())
    tb.append("  %s #(\n    %s\n  ) dut (\n    .clk(clk), .rst(rst),\n    %s\n  );"
              % (module, plist, ",\n    ".join(ports)))
    tb.append("endmodule")
    write_lines(path("tb.sv"), tb)


if __name__ == "__main__":
    main()
