"""rtlgen.py case of fixed_reorder: a strided view of each item.

The expected words come from the operation itself, applied to the item as
nested lists (a transpose swaps two levels, a slice slices one ...); the
module's parameters (BASE, SIZE_d, STRIDE_d) are derived separately, the way
a compiler would lower the operation to a view of a contiguous item, and the
two are checked against each other before the testbench is written.

Options (--param NAME=INT):
  op      0 view: in_words, base, size0..size5, stride0..stride5 as given
          1 transpose: dims dim0, dim1
          2 slice: dim, start, end (end exclusive)
          3 select: dim, index (the dimension is removed)
          4 expand: a new leading dimension of repeat (stride 0)
          5 permute: perm, the new order of the dimensions as decimal digits
            (perm=213 for rank 4 is (0, 2, 1, 3))
          6 identity
  n0..n5  the item's shape for ops 1-6 (rank: how many are given)
"""
import itertools

import fixedpoint as fx
import rtlgen

DIMS = 6


def prod(xs):
    p = 1
    for v in xs:
        p *= v
    return p


# The operations, on an item held as nested lists.

def nest(flat, shape):
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat)
    k = prod(shape[1:])
    return [nest(flat[i * k:(i + 1) * k], shape[1:]) for i in range(shape[0])]


def flatten(t):
    if not isinstance(t, list):
        return [t]
    return [v for u in t for v in flatten(u)]


def get(t, index):
    for i in index:
        t = t[i]
    return t


def permute(t, shape, perm):
    out_shape = [shape[p] for p in perm]
    out = []
    for j in itertools.product(*[range(s) for s in out_shape]):
        i = [0] * len(shape)
        for k, p in enumerate(perm):
            i[p] = j[k]
        out.append(get(t, i))
    return nest(out, out_shape)


def slice_dim(t, dim, start, end):
    if dim == 0:
        return t[start:end]
    return [slice_dim(u, dim - 1, start, end) for u in t]


def select_dim(t, dim, index):
    if dim == 0:
        return t[index]
    return [select_dim(u, dim - 1, index) for u in t]


# The same operations as views (shape, strides, offset) of the item.

def contiguous(shape):
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return list(shape), strides, 0


def gather(x, base, sizes, strides):
    """x[base + sum_d j_d * stride_d] for the row-major multi-indices j."""
    return [x[base + sum(j * s for j, s in zip(js, strides))]
            for js in itertools.product(*[range(n) for n in sizes])]


def case(a, rng, params, path, options):
    del path
    if a.par != 1:
        raise SystemExit("reorder: one word per beat (--par 1)")
    known = (["op", "in_words", "base", "dim", "dim0", "dim1", "start", "end", "index",
              "repeat", "perm"] + ["n%d" % d for d in range(DIMS)] +
             ["size%d" % d for d in range(DIMS)] + ["stride%d" % d for d in range(DIMS)])
    for k in options:
        if k not in known:
            raise SystemExit("reorder: unknown --param " + k)
    op = options.get("op", 6)
    W, F = a.width, a.frac

    if op == 0:
        n_in = options["in_words"]
        base = options.get("base", 0)
        sizes = [options.get("size%d" % d, 1) for d in range(DIMS)]
        strides = [options.get("stride%d" % d, 0) for d in range(DIMS)]
        apply = lambda x: gather(x, base, sizes, strides)  # noqa: E731
    else:
        shape = []
        for d in range(DIMS):
            if "n%d" % d in options:
                shape.append(options["n%d" % d])
        if not shape:
            raise SystemExit("reorder: give the item's shape, --param n0=...")
        n_in = prod(shape)
        vshape, vstrides, base = contiguous(shape)
        if op == 1:
            d0, d1 = options["dim0"], options["dim1"]
            perm = list(range(len(shape)))
            perm[d0], perm[d1] = perm[d1], perm[d0]
            op_fn = lambda t: permute(t, shape, perm)  # noqa: E731
        elif op == 5:
            perm = [int(c) for c in str(options["perm"]).zfill(len(shape))]
            assert sorted(perm) == list(range(len(shape))), perm
            op_fn = lambda t: permute(t, shape, perm)  # noqa: E731
        elif op == 2:
            dim, s, e = options["dim"], options["start"], options["end"]
            op_fn = lambda t: slice_dim(t, dim, s, e)  # noqa: E731
            base += s * vstrides[dim]
            vshape[dim] = e - s
        elif op == 3:
            dim, i = options["dim"], options["index"]
            op_fn = lambda t: select_dim(t, dim, i)  # noqa: E731
            base += i * vstrides[dim]
            del vshape[dim], vstrides[dim]
        elif op == 4:
            r = options["repeat"]
            op_fn = lambda t: [t] * r  # noqa: E731
            vshape, vstrides = [r] + vshape, [0] + vstrides
        elif op == 6:
            op_fn = lambda t: t  # noqa: E731
        else:
            raise SystemExit("reorder: unknown op %d" % op)
        if op in (1, 5):
            vshape = [shape[p] for p in perm]
            vstrides = [vstrides[p] for p in perm]
        if len(vshape) > DIMS:
            raise SystemExit("reorder: at most %d dimensions" % DIMS)
        pad = DIMS - len(vshape)
        sizes, strides = [1] * pad + vshape, [0] * pad + vstrides
        apply = lambda x: flatten(op_fn(nest(x, shape)))  # noqa: E731

    n_out = prod(sizes)
    top = base + sum((n - 1) * s for n, s in zip(sizes, strides))
    if min(sizes) < 1 or min(strides) < 0 or base < 0 or top >= n_in:
        raise SystemExit("reorder: the view leaves the item")

    x, expected = [], []
    for _ in range(a.items):
        item = rtlgen.rand_copy_data(rng, W, F, n_in)
        y = apply(item)
        # The lowering to a view agrees with the operation.
        assert y == gather(item, base, sizes, strides), "view != operation"
        assert len(y) == n_out
        x += item
        expected += y

    del params["PARALLELISM"]
    params.update(IN_WORDS=n_in, OUT_WORDS=n_out, BASE=base)
    params.update(("SIZE_%d" % d, sizes[d]) for d in range(DIMS))
    params.update(("STRIDE_%d" % d, strides[d]) for d in range(DIMS))
    # Buffered, C = 0: IN_WORDS load beats, then OUT_WORDS output beats.
    return [x], expected, [1], 1, a.items * (n_in + n_out), a.items
