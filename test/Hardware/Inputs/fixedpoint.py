"""Reference model of mav's fixed-point rules (docs/Hardware.md,
"Fixed-point arithmetic"). Values are Python ints holding the two's-complement
integer q of a number q * 2^-frac. Written from the document, used by the RTL
tests as the expected values."""


def clog2(n):
    """Smallest k with 2^k >= n (clog2(1) = 0), as SystemVerilog $clog2."""
    return (n - 1).bit_length() if n > 1 else 0


def qmin(width):
    return -(1 << (width - 1))


def qmax(width):
    return (1 << (width - 1)) - 1


def saturate(x, width):
    return max(qmin(width), min(qmax(width), x))


def rne_shift(x, shift):
    """round_half_even(x / 2^shift) for an integer x."""
    if shift == 0:
        return x
    q = x >> shift                       # floor
    r = x - (q << shift)                 # 0 <= r < 2^shift
    half = 1 << (shift - 1)
    if r > half or (r == half and (q & 1)):
        q += 1
    return q


def requant(x, shift, width):
    return saturate(rne_shift(x, shift), width)


def cast(x, in_frac, out_width, out_frac):
    """x in <in_width, in_frac> to <out_width, out_frac>: fewer (or as many)
    fraction bits: round half to even, then saturate; more: shift left
    (exact), then saturate."""
    if in_frac >= out_frac:
        return requant(x, in_frac - out_frac, out_width)
    return saturate(x << (out_frac - in_frac), out_width)


def relu(x):
    return max(x, 0)


def add(a, b, width):
    return saturate(a + b, width)


def mul(a, b, width, frac):
    return requant(a * b, frac, width)


def acc_width(width, n_terms):
    return 2 * width + clog2(n_terms + 1)


def linear(x, w, b, width, frac):
    """x: [N], w: [M][N] (torch layout), b: [M]."""
    n = len(x)
    out = []
    for o in range(len(w)):
        acc = b[o] << frac
        for i in range(n):
            acc += w[o][i] * x[i]
        assert -(1 << (acc_width(width, n) - 1)) <= acc < (1 << (acc_width(width, n) - 1))
        out.append(requant(acc, frac, width))
    return out


def conv2d(x, w, b, width, frac, stride, padding):
    """x: [C][H][W], w: [OC][C][KH][KW], b: [OC] -> [OC][OH][OW]."""
    c_in, h, wd = len(x), len(x[0]), len(x[0][0])
    kh, kw = len(w[0][0]), len(w[0][0][0])
    oh = (h + 2 * padding - kh) // stride + 1
    ow = (wd + 2 * padding - kw) // stride + 1
    n = c_in * kh * kw
    out = []
    for oc in range(len(w)):
        plane = []
        for oy in range(oh):
            row = []
            for ox in range(ow):
                acc = b[oc] << frac
                for ic in range(c_in):
                    for ky in range(kh):
                        for kx in range(kw):
                            iy = oy * stride + ky - padding
                            ix = ox * stride + kx - padding
                            if 0 <= iy < h and 0 <= ix < wd:
                                acc += w[oc][ic][ky][kx] * x[ic][iy][ix]
                assert abs(acc) < (1 << (acc_width(width, n) - 1))
                row.append(requant(acc, frac, width))
            plane.append(row)
        out.append(plane)
    return out


def _windows(x, kh, kw, stride):
    h, wd = len(x[0]), len(x[0][0])
    oh = (h - kh) // stride + 1
    ow = (wd - kw) // stride + 1
    for c in range(len(x)):
        for oy in range(oh):
            for ox in range(ow):
                yield c, oy, ox, [x[c][oy * stride + ky][ox * stride + kx]
                                  for ky in range(kh) for kx in range(kw)]


def maxpool2d(x, kh, kw, stride):
    """x: [C][H][W] -> flat list in (c, oy, ox) order. No padding."""
    return [max(win) for _, _, _, win in _windows(x, kh, kw, stride)]


def reciprocal(n, recip_frac):
    """R = round(2^recip_frac / n); ties cannot occur unless n is a power of
    two, where the quotient is exact, so round-half-up is round-half-even."""
    return ((1 << recip_frac) + n // 2) // n


def avgpool2d(x, kh, kw, stride, width, recip_frac):
    """Sum of the window (exact), times R, round half to even by recip_frac
    bits, saturate. x: [C][H][W] -> flat list in (c, oy, ox) order."""
    r = reciprocal(kh * kw, recip_frac)
    return [requant(sum(win) * r, recip_frac, width)
            for _, _, _, win in _windows(x, kh, kw, stride)]


def conv2d_grouped(x, w, b, width, frac, stride, padding, groups):
    """Grouped convolution (torch.nn.Conv2d with groups): x: [C][H][W],
    w: [OC][C/groups][KH][KW], b: [OC] -> [OC][OH][OW]. Output channel oc reads
    input channels g*(C/groups) .. g*(C/groups) + C/groups - 1, with
    g = oc // (OC/groups); zero padding; the same accumulate and requantisation
    as conv2d (groups = 1 is conv2d, groups = C = OC depthwise)."""
    c_in, h, wd = len(x), len(x[0]), len(x[0][0])
    oc_n = len(w)
    assert c_in % groups == 0 and oc_n % groups == 0 and len(w[0]) == c_in // groups
    icg, ocg = c_in // groups, oc_n // groups
    kh, kw = len(w[0][0]), len(w[0][0][0])
    oh = (h + 2 * padding - kh) // stride + 1
    ow = (wd + 2 * padding - kw) // stride + 1
    n = icg * kh * kw
    out = []
    for oc in range(oc_n):
        g = oc // ocg
        plane = []
        for oy in range(oh):
            row = []
            for ox in range(ow):
                acc = b[oc] << frac
                for icl in range(icg):
                    for ky in range(kh):
                        for kx in range(kw):
                            iy = oy * stride + ky - padding
                            ix = ox * stride + kx - padding
                            if 0 <= iy < h and 0 <= ix < wd:
                                acc += w[oc][icl][ky][kx] * x[g * icg + icl][iy][ix]
                assert abs(acc) < (1 << (acc_width(width, n) - 1))
                row.append(requant(acc, frac, width))
            plane.append(row)
        out.append(plane)
    return out


def pool_out_size(size, kernel, stride, padding, ceil_mode):
    """PyTorch's pooling output size: floor or ceil of
    (size + 2*padding - kernel) / stride, plus 1; in ceil mode the last window
    must start inside the image or the left padding (else one fewer)."""
    span = size + 2 * padding - kernel
    assert span >= 0
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def maxpool2d_padded(x, kh, kw, stride, padding, ceil_mode):
    """Max pooling with padding and ceil mode: the maximum over the window's
    taps inside the image (padding positions, and positions past the bottom or
    right edge in ceil mode, are ignored). x: [C][H][W] -> flat list in
    (c, oy, ox) order."""
    h, wd = len(x[0]), len(x[0][0])
    oh = pool_out_size(h, kh, stride, padding, ceil_mode)
    ow = pool_out_size(wd, kw, stride, padding, ceil_mode)
    out = []
    for c in range(len(x)):
        for oy in range(oh):
            for ox in range(ow):
                win = [x[c][iy][ix]
                       for iy in range(oy * stride - padding, oy * stride - padding + kh)
                       for ix in range(ox * stride - padding, ox * stride - padding + kw)
                       if 0 <= iy < h and 0 <= ix < wd]
                assert win, "a window with no tap in the image"
                out.append(max(win))
    return out


# Operators of the mobile networks (docs/Hardware.md, "Per operation").

def clamp(x, lo, hi):
    """ReLU6 / Hardtanh: min(max(x, lo), hi); lo, hi are words of the format."""
    return min(max(x, lo), hi)


def hard_t(x, frac):
    """t = clamp(x + 3 * 2^F, 0, 6 * 2^F), exact (relu6(x + 3) in <W + 4, F>)."""
    return min(max(x + 3 * (1 << frac), 0), 6 * (1 << frac))


def hardsigmoid(x, width, frac, recip_frac):
    """relu6(x + 3) / 6: requant_W(t * reciprocal(6, RF), RF)."""
    return requant(hard_t(x, frac) * reciprocal(6, recip_frac), recip_frac, width)


def hardswish(x, width, frac, recip_frac):
    """x * relu6(x + 3) / 6: requant_W(x * t * reciprocal(6, RF), F + RF)."""
    return requant(x * hard_t(x, frac) * reciprocal(6, recip_frac),
                   frac + recip_frac, width)


def concat2(x0, x1, in0_words, in1_words):
    """torch.cat of two streams along the channels: per image, the in0_words
    words of x0, then the in1_words words of x1."""
    assert len(x0) % in0_words == 0 and len(x1) % in1_words == 0
    assert len(x0) // in0_words == len(x1) // in1_words
    out = []
    for k in range(len(x0) // in0_words):
        out += x0[k * in0_words:(k + 1) * in0_words]
        out += x1[k * in1_words:(k + 1) * in1_words]
    return out


def channel_mul(x, s, channels, spatial, width, frac):
    """x * s, s broadcast over H, W: x has channels * spatial words per image,
    s channels words per image; word i of an image times s[i // spatial],
    requantised by frac."""
    n = channels * spatial
    assert len(x) % n == 0 and len(s) == len(x) // n * channels
    out = []
    for k in range(len(x) // n):
        for i in range(n):
            out.append(requant(x[k * n + i] * s[k * channels + i // spatial], frac, width))
    return out


if __name__ == "__main__":
    # Self-checks of the rounding rule.
    assert rne_shift(0b0110, 2) == 2      # 1.5  -> 2
    assert rne_shift(0b1010, 2) == 2      # 2.5  -> 2
    assert rne_shift(0b1011, 2) == 3      # 2.75 -> 3
    assert rne_shift(-6, 2) == -2         # -1.5 -> -2
    assert rne_shift(-10, 2) == -2        # -2.5 -> -2
    assert rne_shift(-9, 2) == -2         # -2.25 -> -2
    assert requant(1 << 20, 4, 8) == 127 and requant(-(1 << 20), 4, 8) == -128
    assert cast(6, 4, 8, 2) == 2 and cast(10, 4, 8, 2) == 2   # <8,4> -> <8,2>: ties to even
    assert cast(-6, 4, 8, 2) == -2 and cast(0x7fff, 8, 8, 4) == 127
    assert cast(-3, 4, 16, 10) == -192 and cast(100, 2, 8, 6) == 127
    assert cast(-128, 4, 8, 6) == -128 and cast(5, 0, 4, 0) == 5
    assert reciprocal(9, 16) == 7282 and reciprocal(4, 16) == 16384
    # PyTorch's pooling sizes: resnet's stem (112, k3 s2 p1) and squeezenet's
    # ceil-mode pools (k3 s2).
    assert pool_out_size(112, 3, 2, 1, False) == 56
    assert pool_out_size(7, 3, 2, 0, True) == 3 and pool_out_size(8, 3, 2, 0, True) == 4
    assert pool_out_size(54, 3, 2, 0, True) == 27 and pool_out_size(55, 3, 2, 0, True) == 27
    assert pool_out_size(5, 2, 2, 1, True) == 3 and pool_out_size(4, 2, 2, 1, True) == 3
    assert reciprocal(6, 12) == 683 and reciprocal(6, 1) == 0
    assert clamp(100, 0, 96) == 96 and clamp(-5, 0, 96) == 0 and clamp(7, -16, 16) == 7
    # <8,4>, RF 12: hardsigmoid(0) = 0.5, hardsigmoid(3) = 1, hardsigmoid(-3) = 0;
    # hardswish(1) = 16 * 64 * 683 / 2^16 = 10.67 -> 11; hardswish(-3) = 0.
    assert hardsigmoid(0, 8, 4, 12) == 8 and hardsigmoid(48, 8, 4, 12) == 16
    assert hardsigmoid(-48, 8, 4, 12) == 0 and hardswish(16, 8, 4, 12) == 11
    assert hardswish(-48, 8, 4, 12) == 0 and hardswish(127, 8, 4, 12) == 127
    assert concat2([1, 2, 3, 4], [5, 6], 2, 1) == [1, 2, 5, 3, 4, 6]
    assert channel_mul([16, 32, 48, 16], [32, -8], 2, 2, 8, 4) == [32, 64, -24, -8]
    print("fixedpoint self-check ok")
