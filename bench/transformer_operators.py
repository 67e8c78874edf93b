#!/usr/bin/python3
"""Error of the transformer components' fixed-point approximations against
float, over their input ranges.

The integer rules are not written here: they are the Python reference models
of test/Hardware/Inputs (bit-identical to the RTL and to the C++ model of
mav-run; the RTL tests' expected values), imported as they are:

    case_softmax.softmax_row     exp as 2^(d log2 e), cubic for 2^f, one
                                 reciprocal per row
    case_layernorm.layernorm_row integer mean/variance, isqrt, reciprocal,
                                 affine; case_layernorm.eps_term
    case_gelu.gelu               x * Phi(x), Phi from 65 entries, linear
                                 interpolation
    case_scale.scale             x times a constant word

The exp stage of softmax_row is observed, not recomputed: its list of e is
captured at the call of sum() (a name looked up in the module's globals),
and the polynomial's value p for each f is read from the function's locals
by a line trace. Everything else is the models' outputs against float64 of
the same quantized inputs (words as the compiler makes them: round half to
even, then saturate), so the figures are the approximations' own error, not
the input quantization's.

    /usr/bin/python3 bench/transformer_operators.py [--quick]

prints a markdown report; seeds are fixed, the run takes about 10 s
(--quick: fewer rows). Errors are in units of the output's LSB (2^-F) and
absolute.
"""
import argparse
import builtins
import inspect
import math
import os
import platform
import sys
import time

sys.dont_write_bytecode = True   # leave test/Hardware/Inputs as it is

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Hardware", "Inputs"))

import fixedpoint as fx  # noqa: E402
import case_gelu  # noqa: E402
import case_layernorm  # noqa: E402
import case_scale  # noqa: E402
import case_softmax  # noqa: E402

FORMATS = [(8, 4), (16, 10), (16, 12)]


def fmt(w, f):
    return "<%d,%d>" % (w, f)


def quantize(x, width, frac):
    """The compiler's quantize: round half to even (np.rint), saturate."""
    q = np.rint(np.asarray(x, dtype=np.float64) * (1 << frac))
    return np.clip(q, fx.qmin(width), fx.qmax(width)).astype(np.int64)


def g(v, digits=4):
    """A figure for a table."""
    if v == 0:
        return "0"
    if abs(v) >= 1e-3:
        return "%.*g" % (digits, v)
    return "%.2e" % v


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


# --------------------------------------------------------------------- exp

def exp_stage(d_words, width, frac):
    """e(d) (16 fraction bits) of softmax_row for each d <= 0 (words of
    <width, frac>, as differences v - max): one row max + d, the list of e
    captured where softmax_row sums it."""
    m = fx.qmax(width)
    row = [m] + [m + int(d) for d in d_words]
    seen = []

    def recording_sum(values):
        seen.append(list(values))
        return builtins.sum(values)

    case_softmax.sum = recording_sum
    try:
        case_softmax.softmax_row(row, width, frac)
    finally:
        del case_softmax.sum
    assert len(seen) == 1 and len(seen[0]) == len(row)
    return np.array(seen[0][1:], dtype=np.int64)


def poly_stage():
    """p(f) of softmax_row for all 65536 f, read from its locals at the
    line that checks p. Row 0, -1, ..., -65535 at frac 2: t = -k * 94548
    and f = (t mod 2^18) >> 2 = (-k * 23637) mod 2^16, a bijection of k
    mod 2^16 (23637 odd), so every f occurs once."""
    lines, first = inspect.getsourcelines(case_softmax.softmax_row)
    at = [first + i for i, s in enumerate(lines) if "assert 65536 <= p" in s]
    assert len(at) == 1, "softmax_row no longer checks p on one line"
    target, code = at[0], case_softmax.softmax_row.__code__
    p_of = {}

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno == target:
            p_of[frame.f_locals["f"]] = frame.f_locals["p"]
        return local

    def calls(frame, event, arg):
        return local if frame.f_code is code else None

    sys.settrace(calls)
    try:
        case_softmax.softmax_row([-k for k in range(65536)], 24, 2)
    finally:
        sys.settrace(None)
    assert len(p_of) == 65536
    f = np.arange(65536)
    return f, np.array([p_of[k] for k in range(65536)], dtype=np.int64)


def report_exp():
    print("### exp and 2^f (softmax's first stage)\n")
    print("e(d) = p(f) >> -n with d log2(e) = n + f/2^16 (LOG2E_Q16 = 94548, "
          "f truncated), p(f) = 65536 + f(45555 + f(14919 + f 5050 / 2^16) / 2^16) / 2^16; "
          "e has 16 fraction bits, so errors are in units of 2^-16 (absolute = "
          "units / 65536). Every difference d = v - max reachable in the format "
          "with d in [-16, 0] (<8,4>: d >= -255/16, <16,12>: d >= -65535/4096). "
          "Relative error |e/2^16 - exp(d)| / exp(d); it reaches 1 where e "
          "underflows to 0 (exp(d) < 2^-16 from d = -11.09; 'e = 0 from d': the "
          "largest such d).\n")
    bands = [(-1, 0), (-4, -1), (-8, -4), (-16, -8), (-16, 0)]
    rows = []
    for w, f in FORMATS:
        lo = -min(16 << f, (1 << w) - 1)
        d = np.arange(0, lo - 1, -1)
        e = exp_stage(d, w, f)
        real = np.exp(d / float(1 << f))
        err = np.abs(e - real * 65536.0)
        rel = np.abs(e / 65536.0 - real) / real
        for a, b in bands:
            x = d / float(1 << f)
            sel = (x >= a) & ((x <= 0) if b == 0 else (x < b))
            k = int(np.argmax(np.where(sel, err, -1)))
            zero = sel & (e == 0)
            rows.append([fmt(w, f), "[%d, %d%s" % (a, b, "]" if b == 0 else ")"),
                         int(sel.sum()), g(err[sel].max()), g(err[sel].max() / 65536),
                         g(err[sel].mean()), "%.3g" % (d[k] / (1 << f)),
                         g(rel[sel].max()),
                         "%.4g" % (d[zero].max() / (1 << f)) if zero.any() else "-"])
    print(table(["format", "d in", "words", "max err (2^-16)", "max err (abs)",
                 "mean err (2^-16)", "max at d", "max rel err", "e = 0 from d"], rows))
    fs, p = poly_stage()
    real = np.exp2(fs / 65536.0) * 65536.0
    err = np.abs(p - real)
    signed = p - real
    k = int(np.argmax(err))
    print()
    print(table(["2^f polynomial, all 65536 f", "max err (2^-16)", "max err (abs)",
                 "mean err (2^-16)", "max at f/2^16", "max rel err", "signed err range (2^-16)"],
                [["p(f) vs 2^(f/2^16) 2^16", g(err.max()), g(err.max() / 65536),
                  g(err.mean()), "%.5f" % (fs[k] / 65536), g((err / real).max()),
                  "[%s, %s]" % (g(signed.min()), g(signed.max()))]]))
    print()


# ----------------------------------------------------------------- softmax

def softmax_rows(rng, kind, n, rows):
    if kind == "uniform [-8, 8]":
        return rng.uniform(-8, 8, (rows, n))
    if kind == "normal sigma 1":
        return rng.normal(0, 1, (rows, n))
    if kind == "normal sigma 3":
        return rng.normal(0, 3, (rows, n))
    if kind == "one dominant":
        x = rng.normal(0, 1, (rows, n))
        x[np.arange(rows), rng.integers(0, n, rows)] = rng.uniform(5, 8, rows)
        return x
    if kind == "all equal":
        return np.repeat(rng.uniform(-8, 8, (rows, 1)), n, axis=1)
    raise ValueError(kind)


SOFTMAX_KINDS = ["uniform [-8, 8]", "normal sigma 1", "normal sigma 3",
                 "one dominant", "all equal"]


def report_softmax(elements):
    print("### softmax\n")
    print("softmax_row on rows of N words; reference: float64 softmax of the same "
          "words (x = v / 2^F). Rows: uniform [-8, 8]; normal sigma 1 and 3; "
          "normal sigma 1 with one entry replaced by U(5, 8); all entries one "
          "U(-8, 8) value. %d words per (format, N, distribution), seed 1. "
          "RNE %%: outputs equal to the float result rounded to the nearest word. "
          "Row max: the signed error of each row's largest output, averaged. "
          "Sum: max over rows of |sum(y) - 1|, and the same for the float "
          "softmax rounded to words.\n" % elements)
    rows = []
    for w, f in FORMATS:
        for n in (16, 64):
            for ki, kind in enumerate(SOFTMAX_KINDS):
                rng = np.random.default_rng([1, w, f, n, ki])
                x = quantize(softmax_rows(rng, kind, n, elements // n), w, f)
                y = np.array([case_softmax.softmax_row([int(v) for v in r], w, f)
                              for r in x], dtype=np.int64)
                xr = x / float(1 << f)
                ex = np.exp(xr - xr.max(axis=1, keepdims=True))
                ref = ex / ex.sum(axis=1, keepdims=True) * (1 << f)
                ref = np.clip(ref, fx.qmin(w), fx.qmax(w))
                err = np.abs(y - ref)
                rne = np.mean(y == quantize(ref / (1 << f), w, f)) * 100
                s = np.abs(y.sum(axis=1) - (1 << f)).max()
                s_rne = np.abs(quantize(ref / (1 << f), w, f).sum(axis=1) - (1 << f)).max()
                top = (y - ref)[np.arange(len(x)), np.argmax(x, axis=1)]
                rows.append([fmt(w, f), n, kind, g(err.max()), g(err.max() / (1 << f)),
                             g(err.mean()), "%.2f" % rne, "%+.3f" % top.mean(),
                             int(s), g(s / (1 << f)), int(s_rne)])
    print(table(["format", "N", "scores", "max err (LSB)", "max err (abs)",
                 "mean err (LSB)", "RNE %", "row max: mean signed err (LSB)",
                 "max abs(sum-1) (LSB)", "max abs(sum-1) (abs)", "same, float rounded (LSB)"],
                rows))
    print()


# --------------------------------------------------------------- layernorm

def layernorm_ref(x, gamma, beta, eps, frac):
    xr = x / float(1 << frac)
    mean = xr.mean(axis=1, keepdims=True)
    var = ((xr - mean) ** 2).mean(axis=1, keepdims=True)
    y = (xr - mean) / np.sqrt(var + eps) * (gamma / float(1 << frac)) \
        + beta / float(1 << frac)
    return y * (1 << frac)


def report_layernorm(elements):
    print("### layernorm\n")
    print("layernorm_row (EPS_TERM = case_layernorm.eps_term(eps, D, F)) on rows "
          "of D words, x ~ normal(0, sigma) quantized; gamma = 1, beta = 0 "
          "('1/0') or gamma ~ normal(1, 0.1), beta ~ normal(0, 0.1) quantized, "
          "one draw per (format, D) ('rand'). Reference: float64 LayerNorm "
          "(biased variance, the true eps) of the same words and the same gamma, "
          "beta words, saturated to the format: the error is the approximation's; "
          "saturation is shown apart. sat in: inputs clipped by quantization "
          "(the reference sees them clipped too); sat out: reference outputs "
          "beyond the format's range. %d words per row of the table, seed 2; "
          "<16,10> all D, <8,4> and <16,12> D = 64.\n" % elements)
    rows = []
    eps_terms = []
    for w, f in FORMATS:
        for d in ((16, 64, 256) if (w, f) == (16, 10) else (64,)):
            grng = np.random.default_rng([2, w, f, d])
            gammas = {"1/0": (np.full(d, 1 << f, dtype=np.int64), np.zeros(d, dtype=np.int64)),
                      "rand": (quantize(grng.normal(1, 0.1, d), w, f),
                               quantize(grng.normal(0, 0.1, d), w, f))}
            terms = {eps: case_layernorm.eps_term(eps, d, f) for eps in (1e-5, 1e-6)}
            eps_terms.append("%s D=%d: %d, %d" % (fmt(w, f), d, terms[1e-5], terms[1e-6]))
            for si, sigma in enumerate((0.05, 0.5, 2, 8)):
                rng = np.random.default_rng([2, w, f, d, si])
                raw = rng.normal(0, sigma, (max(8, elements // d), d))
                x = quantize(raw, w, f)
                scaled = np.rint(raw * (1 << f))
                sat_in = np.mean((scaled < fx.qmin(w)) | (scaled > fx.qmax(w))) * 100
                xl = [[int(v) for v in r] for r in x]
                for gname, (gamma, beta) in gammas.items():
                    gl, bl = [int(v) for v in gamma], [int(v) for v in beta]
                    cells = []
                    sat_out = 0.0
                    for eps in (1e-5, 1e-6):
                        y = np.array([case_layernorm.layernorm_row(r, gl, bl, w, f, terms[eps])
                                      for r in xl], dtype=np.int64)
                        ref = layernorm_ref(x, gamma, beta, eps, f)
                        out = (ref < fx.qmin(w) - 0.5) | (ref > fx.qmax(w) + 0.5)
                        sat_out = max(sat_out, np.mean(out) * 100)
                        ref = np.clip(ref, fx.qmin(w), fx.qmax(w))
                        err = np.abs(y - ref)
                        rne = np.mean(y == quantize(ref / (1 << f), w, f)) * 100
                        cells += [g(err.max()), g(err.max() / (1 << f)), g(err.mean())]
                        if eps == 1e-5:
                            cells.append("%.2f" % rne)
                    rows.append([fmt(w, f), d, sigma, gname, "%.3g" % sat_in,
                                 "%.3g" % sat_out] + cells)
    print(table(["format", "D", "sigma", "gamma/beta", "sat in %", "sat out %",
                 "eps 1e-5: max (LSB)", "max (abs)", "mean (LSB)", "RNE %",
                 "eps 1e-6: max (LSB)", "max (abs)", "mean (LSB)"], rows))
    print("\nEPS_TERM (eps 1e-5, 1e-6): " + "; ".join(eps_terms) + ".\n")


# -------------------------------------------------------------------- gelu

def report_gelu():
    print("### gelu\n")
    print("case_gelu.gelu on every word of the range; reference x * Phi(x) "
          "in float64 (math.erf). Beyond |x| = 4 the table gives Phi = 1 "
          "(x >= 4: y = x, x <= -4: y = 0).\n")
    rows = []
    ranges = [((8, 4), None), ((16, 10), 8.0), ((16, 10), None), ((16, 12), None)]
    erf = np.vectorize(math.erf)
    for (w, f), lim in ranges:
        lo, hi = fx.qmin(w), fx.qmax(w)
        if lim is not None:
            lo, hi = max(lo, -int(lim * (1 << f))), min(hi, int(lim * (1 << f)))
        q = np.arange(lo, hi + 1)
        y = np.array([case_gelu.gelu(int(v), w, f) for v in q], dtype=np.int64)
        z = q / float(1 << f)
        ref = z * 0.5 * (1.0 + erf(z / math.sqrt(2.0))) * (1 << f)
        ref = np.clip(ref, fx.qmin(w), fx.qmax(w))
        err = np.abs(y - ref)
        k = int(np.argmax(err))
        tail = np.abs(z) >= 4
        rne = np.mean(y == quantize(ref / (1 << f), w, f)) * 100
        rows.append([fmt(w, f), "[%g, %g]" % (lo / (1 << f), hi / (1 << f)), len(q),
                     g(err.max()), g(err.max() / (1 << f)), "%.5g" % z[k],
                     g(err.mean()), "%.2f" % rne,
                     g(err[~tail].max()), g(err[tail].max()) if tail.any() else "-"])
    print(table(["format", "x in", "words", "max err (LSB)", "max err (abs)", "max at x",
                 "mean err (LSB)", "RNE %", "max, abs(x) < 4 (LSB)", "max, abs(x) >= 4 (LSB)"],
                rows))
    print()


# ------------------------------------------------------------------- scale

def report_scale():
    print("### scale by 1/sqrt(d)\n")
    print("case_scale.scale(x, c) with c = quantize(1/sqrt(d)) (round half to "
          "even, as Scale.cpp), on every word x; reference x / sqrt(d) with the "
          "exact factor. Output error grows with |x| by |c - 1/sqrt(d)| per unit "
          "of x, so it is given over the whole range and over |x| <= 8.\n")
    rows = []
    for w, f in FORMATS:
        q = np.arange(fx.qmin(w), fx.qmax(w) + 1)
        for d in (8, 16, 32, 64):
            exact = 1 / math.sqrt(d)
            c = int(quantize(exact, w, f))
            y = np.array([case_scale.scale(int(v), c, w, f) for v in q], dtype=np.int64)
            err = np.abs(y - q * exact)
            small = np.abs(q) <= 8 * (1 << f)
            rne = np.mean(y == quantize(q * exact / (1 << f), w, f)) * 100
            rows.append([fmt(w, f), d, "%.6f" % exact, c, "%.6f" % (c / (1 << f)),
                         g(abs(c / (1 << f) - exact) / exact),
                         g(err.max()), g(err.max() / (1 << f)), g(err[small].max()),
                         g(err.mean()), "%.2f" % rne])
    print(table(["format", "d", "1/sqrt(d)", "word c", "c / 2^F", "factor rel err",
                 "max err, all x (LSB)", "max err, all x (abs)", "max err, abs(x) <= 8 (LSB)",
                 "mean err (LSB)", "RNE %"], rows))
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer softmax and layernorm rows")
    args = ap.parse_args()
    elements = 4096 if args.quick else 131072
    start = time.time()
    print("## Transformer components: fixed-point error against float\n")
    print("`/usr/bin/python3 bench/transformer_operators.py%s` (Python %s, numpy %s, %s). "
          "Models: test/Hardware/Inputs/case_{softmax,layernorm,gelu,scale}.py, "
          "bit-identical to the RTL and mav-run. Errors: |model word - float "
          "result x 2^F| in LSB (2^-F) and absolute; float reference of the same "
          "quantized inputs.\n"
          % (" --quick" if args.quick else "", platform.python_version(), np.__version__,
             time.strftime("%Y-%m-%d")))
    report_exp()
    report_softmax(elements)
    report_layernorm(elements // 2)
    report_gelu()
    report_scale()
    print("Run time %.0f s." % (time.time() - start))


if __name__ == "__main__":
    main()
