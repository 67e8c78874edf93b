"""rtlgen.py case of fixed_prepend: a constant put before each item,
y = cat(c, x), as documented in lib/Export/Verilog/rtl/fixed_prepend.sv.

Options (--param NAME=INT):
  const_words  CONST_WORDS, the constant's words (default 2)
  in_words     IN_WORDS, the input item's words (default 4)
The constant is written to const.mem (WEIGHTS_FILE), one word per line."""
import fixedpoint as fx
import rtlgen


def prepend(x, c, in_words):
    """Per item of in_words words of x: the words of c, then the item's."""
    assert len(x) % in_words == 0
    out = []
    for k in range(0, len(x), in_words):
        out += list(c) + x[k:k + in_words]
    return out


def case(a, rng, params, path, options):
    for k in options:
        if k not in ("const_words", "in_words"):
            raise SystemExit("prepend: unknown --param " + k)
    if a.par != 1:
        raise SystemExit("prepend: one word per beat (--par 1)")
    W, F = a.width, a.frac
    nc = options.get("const_words", 2)
    n = options.get("in_words", 4)
    if nc < 1 or n < 1:
        raise SystemExit("prepend: need const_words >= 1, in_words >= 1")
    # The ROM's first and last words at the extremes (as the first and last
    # constant words), the rest random.
    c = rtlgen.rand_copy_data(rng, W, F, nc)
    c[0] = fx.qmin(W)
    if nc > 1:
        c[-1] = fx.qmax(W)
    with open(path("const.mem"), "w") as f:
        f.write("".join(rtlgen.word_hex(v, W) + "\n" for v in c))
    x = rtlgen.rand_copy_data(rng, W, F, n * a.items)
    expected = prepend(x, c, n)
    del params["PARALLELISM"]
    params.update(CONST_WORDS=nc, IN_WORDS=n, WEIGHTS_FILE='"%s"' % path("const.mem"))
    # Buffered, C = 0: IN_WORDS load beats, then CONST_WORDS + IN_WORDS
    # output beats per item.
    return [x], expected, [1], 1, a.items * (n + nc + n), a.items


if __name__ == "__main__":
    assert prepend([1, 2, 3, 4], [9], 2) == [9, 1, 2, 9, 3, 4]
    assert prepend([-5], [7, -8], 1) == [7, -8, -5]
    print("case_prepend self-check ok")
