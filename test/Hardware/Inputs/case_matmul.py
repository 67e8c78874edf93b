"""rtlgen.py case of fixed_matmul: Y = A B per item, A on data_in_0 (M x K,
row-major), B on data_in_1 (K x N, row-major), Y on data_out_0 (M x N,
row-major), Y[m][n] = requant(sum_k A[m][k] * B[k][n], F, W).

Options (--param NAME=INT): rows (M), inner (K), cols (N), default 4 each;
in_par (P_in: words per A beat, divides K), out_par (P_out: words per B and
Y beat, divides N), default 1 each (rtlgen's --in-par / --out-par are not
for this component).
"""
import math

import fixedpoint as fx


def matmul(a, b, m, k, n, width, frac):
    """a: M*K words row-major, b: K*N words row-major -> M*N words row-major;
    exact sums (checked against the 2W + clog2(K + 1) accumulator), round half
    to even by frac bits, saturate to width bits."""
    out = []
    aw = fx.acc_width(width, k)
    for i in range(m):
        for j in range(n):
            acc = sum(a[i * k + t] * b[t * n + j] for t in range(k))
            assert -(1 << (aw - 1)) <= acc < (1 << (aw - 1))
            out.append(fx.requant(acc, frac, width))
    return out


def matmul_cycles(m, k, n, p_in=1, p_out=1):
    """fixed_matmul, no stalls: cycles per item (= initiation interval), as
    documented in its header: M*K/P_in + K*N/P_out load beats, then per
    output beat (M*N/P_out of them) K/P_in MAC cycles and one emit cycle."""
    return m * k // p_in + k * n // p_out + m * (n // p_out) * (k // p_in + 1)


def _vector(rng, width, size, lim, coarse_step):
    """size words of one kind, drawn per vector (a row of A or a column of
    B): mostly uniform in [-lim, lim] (lim: outputs of typical size), or
    small, full-range (saturating products), all equal, coarse (products on
    half-LSB multiples of the output, so round-half-even ties occur), or
    only extremes and zero; extremes are also mixed into the others."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    r = rng.random()
    if r < 0.50:
        xs = [rng.randint(-lim, lim) for _ in range(size)]
    elif r < 0.62:
        s = max(1, lim >> 4)
        xs = [rng.randint(-s, s) for _ in range(size)]
    elif r < 0.65:
        xs = [rng.randint(lo, hi) for _ in range(size)]
    elif r < 0.72:
        v = rng.randint(-lim, lim)
        return [rng.choice([lo, hi, v, v, v, v])] * size
    elif r < 0.96:
        c = max(1, lim // coarse_step)
        xs = [rng.randint(-c, c) * coarse_step for _ in range(size)]
    else:
        return [rng.choice([lo, hi, 0, -1, 1]) for _ in range(size)]
    # About one vector in 16 gets an extreme.
    p_ext = 1.0 / (32 * size)
    out = []
    for x in xs:
        p = rng.random()
        out.append(lo if p < p_ext else hi if p < 2 * p_ext else fx.saturate(x, width))
    return out


def case(a, rng, params, path, options):
    W, F = a.width, a.frac
    if a.par != 1:
        raise SystemExit("matmul: one word per beat (--par 1)")
    m = options.get("rows", 4)
    k = options.get("inner", 4)
    n = options.get("cols", 4)
    p_in = options.get("in_par", 1)
    p_out = options.get("out_par", 1)
    unknown = set(options) - {"rows", "inner", "cols", "in_par", "out_par"}
    if unknown or min(m, k, n, p_in, p_out) < 1:
        raise SystemExit("matmul: options rows, inner, cols, in_par, out_par (>= 1)")
    if k % p_in or n % p_out:
        raise SystemExit("matmul: in_par must divide inner, out_par cols")
    # Uniform A and B in [-lim, lim]: each output's standard deviation is
    # about half the output range (sqrt(K) * lim^2 / 3 = 2^(W-2+F)).
    lim = int(math.sqrt(3.0 * (1 << (W - 2 + F)) / math.sqrt(k)))
    lim = max(2, min(fx.qmax(W), lim))
    # A on multiples of 2^(F//2), B on multiples of 2^(F-1-F//2): each
    # product is a multiple of 2^(F-1), a tie when an odd one.
    sa = 1 << (F // 2)
    sb = 1 << max(0, F - 1 - F // 2)
    x0, x1, expected = [], [], []
    for _ in range(a.items):
        am = [v for _ in range(m) for v in _vector(rng, W, k, lim, sa)]
        cols = [_vector(rng, W, k, lim, sb) for _ in range(n)]
        bm = [cols[j][t] for t in range(k) for j in range(n)]
        x0 += am
        x1 += bm
        expected += matmul(am, bm, m, k, n, W, F)
    del params["PARALLELISM"]
    params.update(ROWS=m, INNER=k, COLS=n, IN_PARALLELISM=p_in,
                  OUT_PARALLELISM=p_out)
    return ([x0, x1], expected, [p_in, p_out], p_out,
            a.items * matmul_cycles(m, k, n, p_in, p_out), a.items)
