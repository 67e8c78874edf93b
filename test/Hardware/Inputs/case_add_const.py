"""rtlgen.py case of fixed_add_const: a constant added to the stream,
y_k = sat_W(x_k + c[k mod CONST_WORDS]), as documented in
lib/Export/Verilog/rtl/fixed_add_const.sv.

Options (--param NAME=INT):
  const_words  CONST_WORDS, the constant's words (default 4)
The stream is --items items of CONST_WORDS words (one item in rtlgen's
terms: the component is elementwise). The constant is written to const.mem
(WEIGHTS_FILE), one word per line."""
import fixedpoint as fx
import rtlgen


def add_const(x, c, width):
    return [fx.saturate(v + c[k % len(c)], width) for k, v in enumerate(x)]


def rand_const(rng, width, frac, n):
    """Mostly small words (|c| <= 1.0, an embedding), with the extremes, zero,
    runs of equal words and full-range words."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    lim = min(hi, 1 << frac)
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.04:
            out.append(lo)
        elif r < 0.08:
            out.append(hi)
        elif r < 0.11:
            out.append(0)
        elif r < 0.20 and out:
            out.append(out[-1])
        elif r < 0.45:
            out.append(rng.randint(lo, hi))
        else:
            out.append(rng.randint(-lim, lim))
    return out


def rand_input(rng, width, frac, c, n):
    """Word k: the extremes, zero, words whose sum with c[k] is at or just
    beyond either bound (saturation both ways and the exact bounds), runs of
    equal words, small and full-range words."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    lim = min(hi, 1 << frac)
    out = []
    for k in range(n):
        ck = c[k % len(c)]
        r = rng.random()
        if r < 0.05:
            v = lo
        elif r < 0.10:
            v = hi
        elif r < 0.12:
            v = 0
        elif r < 0.22:
            v = rng.choice((hi, lo)) - ck + rng.choice((-1, 0, 1))
        elif r < 0.30 and out:
            v = out[-1]
        elif r < 0.60:
            v = rng.randint(lo, hi)
        else:
            v = rng.randint(-lim, lim)
        out.append(fx.saturate(v, width))
    return out


def case(a, rng, params, path, options):
    for k in options:
        if k != "const_words":
            raise SystemExit("add_const: unknown --param " + k)
    W, F, P = a.width, a.frac, a.par
    nc = options.get("const_words", 4)
    if nc < 1 or nc % P:
        raise SystemExit("add_const: PARALLELISM must divide const_words >= 1")
    c = rand_const(rng, W, F, nc)
    c[0], c[-1] = fx.qmin(W), fx.qmax(W)
    with open(path("const.mem"), "w") as f:
        f.write("".join(rtlgen.word_hex(v, W) + "\n" for v in c))
    n = nc * a.items
    x = rand_input(rng, W, F, c, n)
    expected = add_const(x, c, W)
    params.update(CONST_WORDS=nc, WEIGHTS_FILE='"%s"' % path("const.mem"))
    # Elementwise (one item): no stalls, N/P beats + 1 cycle of latency.
    return [x], expected, None, P, n // P + 1, 1


if __name__ == "__main__":
    assert add_const([1, 2, 3, 4, 5], [10, -20], 8) == [11, -18, 13, -16, 15]
    assert add_const([127, -128, 100], [1, -1, -100], 8) == [127, -128, 0]
    print("case_add_const self-check ok")
