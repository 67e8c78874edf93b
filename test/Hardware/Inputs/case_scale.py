"""rtlgen.py case of fixed_scale: multiplication by a constant word,
y = requant_W(x * SCALE_WORD, F), as documented in
lib/Export/Verilog/rtl/fixed_scale.sv.

Options: --param scale=<SCALE_WORD> (a signed word of the format; default
0.25, i.e. 2^(F-2), rounded half to even)."""
import fixedpoint as fx


def scale(x, s, width, frac):
    return fx.requant(x * s, frac, width)


def scale_data(rng, width, frac, s, n):
    """n words: the extremes, 0, +-1 and words whose product ends in exactly
    half an LSB (ties, both parities) first; for narrow words every word once;
    then mid-range and full-range words with the extremes mixed in (so that
    a scale above 1 in magnitude saturates)."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    special = [lo, hi, 0, 1, -1, lo + 1, hi - 1]
    if frac > 0 and s != 0:
        # x * s = (2m + 1) * 2^(F-1) for some x: ties, if s has few factors 2.
        tz = (s & -s).bit_length() - 1
        if tz < frac:
            step = 1 << (frac - 1 - tz)
            special += [k * step for k in (1, 3, 5, -1, -3, -5)]
    seen = set()
    out = []
    for v in special:
        if lo <= v <= hi and v not in seen:
            seen.add(v)
            out.append(v)
    out = out[:n]
    if width <= 10:
        every = list(range(lo, hi + 1))
        rng.shuffle(every)
        out += every[:n - len(out)]
    half = 1 << (width - 2)
    while len(out) < n:
        r = rng.random()
        if r < 0.04:
            out.append(lo)
        elif r < 0.08:
            out.append(hi)
        elif r < 0.4:
            out.append(rng.randint(lo, hi))
        else:
            out.append(rng.randint(-half, half - 1))
    return out


def case(a, rng, params, path, options):
    W, F, P = a.width, a.frac, a.par
    s = options.get("scale", fx.saturate(fx.rne_shift(1 << F, 2), W))
    if not fx.qmin(W) <= s <= fx.qmax(W):
        raise SystemExit("scale: SCALE_WORD must be a word of <W, F>")
    if a.words % P:
        raise SystemExit("scale: PARALLELISM must divide --words")
    x = scale_data(rng, W, F, s, a.words)
    expected = [scale(v, s, W, F) for v in x]
    params["SCALE_WORD"] = s
    # Elementwise: one item; no stalls: N/P beats + 1 cycle of latency.
    return [x], expected, None, P, a.words // P + 1, 1


if __name__ == "__main__":
    # <16,10>, 0.25: 6 * 256 / 1024 = 1.5 -> 2; 10 / 4 = 2.5 -> 2; -6 -> -2.
    assert scale(6, 256, 16, 10) == 2 and scale(10, 256, 16, 10) == 2
    assert scale(-6, 256, 16, 10) == -2 and scale(-32768, -1024, 16, 10) == 32767
    print("case_scale self-check ok")
