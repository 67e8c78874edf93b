"""rtlgen.py case of fixed_softmax: softmax along the last dimension, one row
of LENGTH words per item (--param length=N, default 8), one word per beat.

softmax_row is the reference model of the RTL's integer rule (the header of
lib/Export/Verilog/rtl/fixed_softmax.sv)."""
import fixedpoint as fx

LOG2E_Q16 = 94548   # round(log2(e) * 2^16)


def softmax_row(x, width, frac):
    """The integer softmax of one row x of words in <width, frac>."""
    m = max(x)
    e = []
    for v in x:
        d = v - m                                   # <= 0
        t = d * LOG2E_Q16                           # frac + 16 fraction bits
        n = t >> (frac + 16)                        # floor, <= 0
        f = (t - (n << (frac + 16))) >> frac        # 0 <= f < 2^16
        p = 65536 + ((f * (45555 + ((f * (14919 + ((f * 5050) >> 16))) >> 16))) >> 16)
        assert 65536 <= p < 131072
        e.append(0 if -n >= 32 else p >> (-n))     # exp(d), 16 fraction bits
    s = sum(e)
    assert s >= 65536
    r = (1 << 48) // s
    assert r <= 1 << 32
    return [fx.requant(ei * r, 48 - frac, width) for ei in e]


def rand_row(rng, width, frac, n, kind):
    """One row of attention-like scores: mostly in [-8, 8] (saturated to the
    format), with rows of equal values, rows with one dominant value, rows
    whose small values underflow exp to 0, and full-range rows."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    eight = fx.saturate(8 << frac, width)
    span = lambda a, b: rng.randint(max(lo, a), min(hi, b))  # noqa: E731
    if kind == 0:        # typical scores in [-8, 8]
        row = [span(-eight, eight) for _ in range(n)]
    elif kind == 1:      # all equal
        row = [span(-eight, eight)] * n
    elif kind == 2:      # one dominant value, the rest far below
        top = span(eight // 2, eight)
        row = [span(top - 4 * eight, top - eight // 2) for _ in range(n)]
        row[rng.randrange(n)] = top
    elif kind == 3:      # very negative values next to large ones (e underflows)
        row = [rng.choice([lo, span(lo, lo + eight), span(eight // 2, hi)])
               for _ in range(n)]
    elif kind == 4:      # small differences, ties
        base = span(-eight, eight)
        row = [fx.saturate(base + rng.randint(-3, 3), width) for _ in range(n)]
    else:                # any word, the extremes
        row = [rng.choice([lo, hi, 0, rng.randint(lo, hi)]) for _ in range(n)]
    return [fx.saturate(v, width) for v in row]


def case(a, rng, params, path, options):
    width, frac, n = a.width, a.frac, options.get("length", 8)
    items = a.items
    del params["PARALLELISM"]
    params["LENGTH"] = n
    x, expected = [], []
    for k in range(items):
        row = rand_row(rng, width, frac, n, k % 6)
        x += row
        expected += softmax_row(row, width, frac)
    # Buffered: N load beats, C = N + 2 (N exp cycles, the divide, y[0]),
    # N output beats.
    expected_cycles = items * (3 * n + 2)
    return [x], expected, [1], 1, expected_cycles, items


if __name__ == "__main__":
    # Self-checks: one element is 1.0; equal elements share 1.0; at <8,7> 1.0
    # saturates; a far smaller element's e underflows to 0.
    assert softmax_row([5], 16, 10) == [1024]
    assert softmax_row([3, 3, 3, 3], 16, 10) == [256] * 4
    assert softmax_row([0], 8, 7) == [127]
    assert softmax_row([-32768, 32767], 16, 10) == [0, 1024]
    assert softmax_row([0, -1024], 16, 10) == [749, 275]   # 0.7311, 0.2689
    print("case_softmax self-check ok")
