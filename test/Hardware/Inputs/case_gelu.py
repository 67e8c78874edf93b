"""rtlgen.py case of fixed_gelu: GELU in the exact erf form, x * Phi(x), as
documented in lib/Export/Verilog/rtl/fixed_gelu.sv. The table of Phi is
computed here with math.erf, independently of the constants typed into the
RTL, so the simulation checks them.

  python3 case_gelu.py [W F]          prints the model's maximum absolute
                                      error against float x * Phi(x) over the
                                      words of <W, F> in [-8, 8] (default
                                      <16,10>).
  python3 case_gelu.py --check-rtl SV compares the table typed into SV (the
                                      case items "7'dK: phi_table = 16'dV;")
                                      with T, entry by entry."""
import math
import re
import sys

import fixedpoint as fx

PHI_FRAC = 16          # fraction bits of Phi
SEG_BITS = 4           # table step 1/16
TABLE_SIZE = 65        # T[0..64]: |x| in [0, 4]


def phi(z):
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def gelu_table():
    """T[k] = round(Phi(k/16) * 2^16), k = 0..64."""
    return [round(phi(k / (1 << SEG_BITS)) * (1 << PHI_FRAC)) for k in range(TABLE_SIZE)]


TABLE = gelu_table()


def gelu(x, width, frac):
    """The integer rule of fixed_gelu for one word x of <width, frac>."""
    assert 0 <= frac <= PHI_FRAC and frac < width
    a = abs(x)                                  # W bits unsigned, |MIN| fits
    u = a << (PHI_FRAC - frac)                  # |x| with 16 fraction bits
    idx = u >> (PHI_FRAC - SEG_BITS)
    fr = u & ((1 << (PHI_FRAC - SEG_BITS)) - 1)
    if idx >= TABLE_SIZE - 1:
        p = 1 << PHI_FRAC
    else:
        d = TABLE[idx + 1] - TABLE[idx]
        assert d >= 0
        p = TABLE[idx] + ((d * fr) >> (PHI_FRAC - SEG_BITS))
    ps = (1 << PHI_FRAC) - p if x < 0 else p
    return fx.requant(x * ps, PHI_FRAC, width)


def gelu_data(rng, width, frac, n):
    """n words: first the table's knots and segment midpoints (every T[k]
    and every T[k+1] - T[k] is used, for both signs), 4, 5, 8 and the
    extremes; for narrow words every word once; then mostly [-5, 5] (the
    curved part) with some full-range words and extremes."""
    lo, hi = fx.qmin(width), fx.qmax(width)
    special = [0, 1, -1, lo, hi, lo + 1, hi - 1]
    for k in range(TABLE_SIZE):
        knot = -((-k << frac) >> SEG_BITS)      # ceil(k/16 * 2^F): first word of segment k
        mid = ((2 * k + 1) << frac) >> (SEG_BITS + 1)   # floor((k + 1/2)/16 * 2^F)
        special += [knot, -knot, mid, -mid]
    for v in (4, 5, 8):
        special += [v << frac, -(v << frac), (v << frac) - 1, -(v << frac) + 1]
    seen = set()
    uniq = []
    for v in special:
        if lo <= v <= hi and v not in seen:
            seen.add(v)
            uniq.append(v)
    out = uniq[:n]
    if width <= 10:
        every = list(range(lo, hi + 1))
        rng.shuffle(every)
        out += every[:n - len(out)]
    lim = min(hi, 5 << frac)
    while len(out) < n:
        r = rng.random()
        if r < 0.03:
            out.append(lo)
        elif r < 0.06:
            out.append(hi)
        elif r < 0.2:
            out.append(rng.randint(lo, hi))
        else:
            out.append(rng.randint(-lim, lim))
    return out


def case(a, rng, params, path, options):
    W, F, P = a.width, a.frac, a.par
    if F > PHI_FRAC:
        raise SystemExit("gelu: need FRAC_WIDTH <= 16")
    if a.words % P:
        raise SystemExit("gelu: PARALLELISM must divide --words")
    x = gelu_data(rng, W, F, a.words)
    expected = [gelu(v, W, F) for v in x]
    # Elementwise: one item; no stalls: N/P beats + 1 cycle of latency.
    return [x], expected, None, P, a.words // P + 1, 1


def max_error(width, frac, lo=-8.0, hi=8.0):
    """Maximum |gelu(x) - x * Phi(x) * 2^F| in LSBs over the words in [lo, hi]."""
    worst, at = 0.0, None
    for q in range(max(fx.qmin(width), math.ceil(lo * (1 << frac))),
                   min(fx.qmax(width), math.floor(hi * (1 << frac))) + 1):
        z = q / (1 << frac)
        err = abs(gelu(q, width, frac) - z * phi(z) * (1 << frac))
        if err > worst:
            worst, at = err, q
    return worst, at


def check_rtl(sv_path):
    """The constants of phi_table in the RTL, against T: prints one line per
    difference and 'table ok: <n> entries' or 'table MISMATCH'."""
    with open(sv_path) as f:
        text = f.read()
    typed = {}
    for k, v in re.findall(r"7'd(\d+):\s*phi_table\s*=\s*16'd(\d+);", text):
        assert int(k) not in typed, "entry %s twice" % k
        typed[int(k)] = int(v)
    bad = 0
    for k in range(TABLE_SIZE):
        if typed.get(k) != TABLE[k]:
            print("T[%d]: RTL %s, erf %d" % (k, typed.get(k), TABLE[k]))
            bad += 1
    if bad or len(typed) != TABLE_SIZE:
        print("table MISMATCH")
    else:
        print("table ok: %d entries" % len(typed))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check-rtl":
        check_rtl(sys.argv[2])
        sys.exit(0)
    assert TABLE[0] == 32768 and TABLE[64] == 65534 and len(TABLE) == 65
    # <16,10>: gelu(0) = 0, gelu(1) = Phi(1) = 0.8413 -> 861.5 (1024 * 55138
    # / 65536 = 861.53 -> 862), gelu(-1) = -0.1587 -> -162, gelu(MIN) = 0.
    assert gelu(0, 16, 10) == 0 and gelu(1024, 16, 10) == 862
    assert gelu(-1024, 16, 10) == -162 and gelu(-32768, 16, 10) == 0
    assert gelu(32767, 16, 10) == 32767
    w, f = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (16, 10)
    err, q = max_error(w, f)
    print("gelu <%d,%d>: max |error| over [-8, 8] = %.4f LSB at x = %d (%g)"
          % (w, f, err, q, q / (1 << f)))
