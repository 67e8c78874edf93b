"""rtlgen.py case of fixed_layernorm: LayerNorm over rows of D words with
gamma and beta ROMs (the integer rule of the component's header).

Options (--param NAME=INT): length (D, default 8); eps_term (EPS_TERM,
default round(1e-5 * D^2 * 4^F)); kinds (0: the row kinds below in turn,
starting with a constant row; 1: start with a wide row).
"""
import math

import fixedpoint as fx
import rtlgen


def eps_term(eps, d, frac):
    """The compiler's EPS_TERM: round(eps * D^2 * 2^(2F))."""
    return round(eps * d * d * 4 ** frac)


def layernorm_row(x, gamma, beta, width, frac, eps):
    """One row, exactly as documented in fixed_layernorm.sv."""
    d = len(x)
    s_sum = sum(x)
    c = [d * v - s_sum for v in x]
    q = sum(t * t for t in c)
    v = q // d + eps
    s = math.isqrt(v << 16)
    k = frac + fx.clog2(d) + 16
    r = 0 if s == 0 else (1 << (k + 8)) // s
    out = []
    for i in range(d):
        n = fx.rne_shift(c[i] * r, k - frac - 4)
        out.append(fx.requant(n * gamma[i] + (beta[i] << (frac + 4)), frac + 4, width))
    return out


def layernorm_cycles(width, frac, d, eps):
    """itemCycles with no stalls: D load beats, C compute cycles, D output
    beats; C = NS + (K + 1) + 3 as in the header."""
    kd = fx.clog2(d)
    vw = max(2 * width + 2 * kd - 2, fx.clog2(eps + 1)) + 1
    ns = (vw + 17) // 2
    k = frac + kd + 16
    c = ns + (k + 1) + 3
    return d + c + d


def rand_row(rng, kind, width, frac, d):
    """A row of one kind: constant (Q = 0), wide (|x| up to 8.0), tiny
    variance (a base plus -1, 0, +1 words), extremes (MIN, MAX, 0, any word),
    one outlier among equal words (|n| near sqrt(D - 1)), small (|x| up to
    0.25), two levels (half the row at each)."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    lim = min(hi, 8 << frac)
    if kind == 0:
        return [rng.randint(-lim, lim)] * d
    if kind == 1:
        return [rng.randint(-lim, lim) for _ in range(d)]
    if kind == 2:
        base = rng.randint(-lim, lim - 1)
        return [max(lo, min(hi, base + rng.choice((-1, 0, 0, 1)))) for _ in range(d)]
    if kind == 3:
        return rtlgen._mixture(rng, width, d, 0.2, 0.2, 0.1, 0.5, lo, hi)
    if kind == 4:
        row = [rng.randint(-lim // 4, lim // 4)] * d
        row[rng.randrange(d)] = rng.choice((lo, hi))
        return row
    if kind == 5:
        small = max(1, (1 << frac) // 4)
        return [rng.randint(-small, small) for _ in range(d)]
    a, b = rng.randint(lo, hi), rng.randint(lo, hi)
    return [a if i % 2 else b for i in range(d)]


def rand_gamma(rng, width, frac, d):
    """Mostly near 1.0 (some exactly 1.0, so that the last rounding meets
    ties), some near -1.0, 0, and a few large (outputs saturate)."""
    one = min(1 << frac, fx.qmax(width))
    spread = max(1, one // 4)
    out = []
    for _ in range(d):
        r = rng.random()
        if r < 0.15:
            out.append(one)
        elif r < 0.2:
            out.append(0)
        elif r < 0.3:
            out.append(max(fx.qmin(width), -one + rng.randint(-spread, spread)))
        elif r < 0.4:
            out.append(rng.choice((fx.qmin(width), fx.qmax(width),
                                   min(fx.qmax(width), 6 * one))))
        else:
            out.append(min(fx.qmax(width), one + rng.randint(-spread, spread)))
    return out


def rand_beta(rng, width, frac, d):
    """Mostly near 0 (|beta| up to 0.5), some 0, a few large."""
    half = max(1, (1 << frac) // 2)
    return rtlgen._mixture(rng, width, d, 0.03, 0.03, 0.2, 0.04, -half, half)


def case(a, rng, params, path, options):
    width, frac = a.width, a.frac
    d = options.get("length", 8)
    eps = options.get("eps_term", eps_term(1e-5, d, frac))
    first = options.get("kinds", 0)
    if a.par != 1:
        raise SystemExit("layernorm: one word per beat (--par 1)")
    gamma = rand_gamma(rng, width, frac, d)
    beta = rand_beta(rng, width, frac, d)
    rtlgen.write_lines(path("weights.mem"), [rtlgen.word_hex(v, width) for v in gamma])
    rtlgen.write_lines(path("bias.mem"), [rtlgen.word_hex(v, width) for v in beta])
    x, expected = [], []
    for item in range(a.items):
        row = rand_row(rng, (first + item) % 7, width, frac, d)
        x += row
        expected += layernorm_row(row, gamma, beta, width, frac, eps)
    del params["PARALLELISM"]
    params.update(LENGTH=d, EPS_TERM="64'd%d" % eps,
                  WEIGHTS_FILE='"%s"' % path("weights.mem"),
                  BIAS_FILE='"%s"' % path("bias.mem"))
    cycles = a.items * layernorm_cycles(width, frac, d, eps)
    return [x], expected, [1], 1, cycles, a.items
