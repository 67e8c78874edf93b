//===- FixedPoint.h - mav's fixed-point arithmetic --------------*- C++ -*-===//
//
// The rules of docs/Hardware.md, "Fixed-point arithmetic": a word of a
// format <width, frac> is a two's complement integer q standing for
// q * 2^-frac. Intermediates are exact; precision is lost only in
// requantisation, which rounds half to even and then saturates. The
// fixed-point model of mav-run and the ROMs of --export-verilog use these
// functions; the RTL components implement the same rules.
//
//===----------------------------------------------------------------------===//

#ifndef MAV_HARDWARE_FIXEDPOINT_H
#define MAV_HARDWARE_FIXEDPOINT_H

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace mav {

/// A two's complement fixed-point format <width, frac>.
struct FixedFormat {
  int64_t width = 0;
  int64_t frac = 0;

  bool operator==(const FixedFormat &other) const {
    return width == other.width && frac == other.frac;
  }
  bool operator!=(const FixedFormat &other) const { return !(*this == other); }
};

/// Widths the software model supports: accumulators fit in 64 bits.
constexpr int64_t kMinFixedWidth = 2;
constexpr int64_t kMaxFixedWidth = 24;

/// Smallest k with 2^k >= n, as SystemVerilog's $clog2 ($clog2(1) = 0).
inline int64_t ceilLog2(int64_t n) {
  int64_t bits = 0;
  while ((int64_t(1) << bits) < n)
    ++bits;
  return bits;
}

inline int64_t minWord(int64_t width) { return -(int64_t(1) << (width - 1)); }
inline int64_t maxWord(int64_t width) {
  return (int64_t(1) << (width - 1)) - 1;
}

inline int64_t saturate(int64_t value, int64_t width) {
  return std::clamp(value, minWord(width), maxWord(width));
}

/// Round half to even of value / 2^shift, in any signed integer type wide
/// enough (LayerNorm's products need 128 bits).
template <typename Int> inline Int roundHalfEvenOf(Int value, int64_t shift) {
  if (shift == 0)
    return value;
  Int quotient = value >> shift; // floor: arithmetic shift
  Int remainder = value - quotient * (Int(1) << shift);
  Int half = Int(1) << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1)))
    ++quotient;
  return quotient;
}

inline int64_t roundHalfEven(int64_t value, int64_t shift) {
  return roundHalfEvenOf<int64_t>(value, shift);
}

/// sat_width(rne(value, shift)): the only step that loses precision.
inline int64_t requantize(int64_t value, int64_t shift, int64_t width) {
  return saturate(roundHalfEven(value, shift), width);
}

/// A word of `from` in the format `to` (the fixed_cast component).
inline int64_t castWord(int64_t word, FixedFormat from, FixedFormat to) {
  if (from.frac >= to.frac)
    return requantize(word, from.frac - to.frac, to.width);
  // Saturate before shifting, so that the shift cannot overflow.
  int64_t shift = to.frac - from.frac;
  int64_t bound = int64_t(1) << std::min<int64_t>(62 - shift, 62);
  int64_t clamped = std::clamp(word, -bound, bound);
  return saturate(clamped * (int64_t(1) << shift), to.width);
}

/// The word nearest to a real number: sat(rne(x * 2^frac)). NaN becomes 0;
/// infinities saturate.
inline int64_t quantize(double value, FixedFormat format) {
  if (std::isnan(value))
    return 0;
  double scaled = std::ldexp(value, static_cast<int>(format.frac));
  double limit = std::ldexp(1.0, 62);
  scaled = std::clamp(scaled, -limit, limit);
  // nearbyint rounds half to even in the default rounding mode.
  return saturate(static_cast<int64_t>(std::nearbyint(scaled)), format.width);
}

/// The real number a word stands for.
inline double dequantize(int64_t word, FixedFormat format) {
  return std::ldexp(static_cast<double>(word), -static_cast<int>(format.frac));
}

/// The reciprocal 1/n with recipFrac fraction bits, rounded to nearest
/// (average pooling, docs/Hardware.md).
inline int64_t reciprocal(int64_t n, int64_t recipFrac) {
  return ((int64_t(1) << recipFrac) + n / 2) / n;
}

/// requant_W(sum * recip, recipFrac): a sum scaled by a reciprocal with
/// recipFrac fraction bits (average pooling). The product can reach 2^63 at
/// the widest formats, so it is rounded in 128 bits.
inline int64_t scaleByReciprocal(int64_t sum, int64_t recip, int64_t recipFrac,
                                 int64_t width) {
  __int128 product = static_cast<__int128>(sum) * recip;
  __int128 quotient = product >> recipFrac;
  __int128 remainder = product - (quotient << recipFrac);
  __int128 half = static_cast<__int128>(1) << (recipFrac - 1);
  if (remainder > half || (remainder == half && (quotient & 1)))
    ++quotient;
  return saturate(static_cast<int64_t>(
                      std::clamp<__int128>(quotient, INT64_MIN, INT64_MAX)),
                  width);
}

/// The reciprocal's fraction bits of hardswish and hardsigmoid (their 1/6).
inline int64_t activationRecipFrac(FixedFormat format) {
  return std::min<int64_t>(30, format.width + 4);
}

/// relu6(x + 3) of a word of `format`, exact: clamp(x + 3 * 2^F, 0, 6 * 2^F).
inline int64_t hardRamp(int64_t word, FixedFormat format) {
  int64_t one = int64_t(1) << format.frac;
  return std::clamp<int64_t>(word + 3 * one, 0, 6 * one);
}

/// hardsigmoid: requant_W(t * R6, RF), t = hardRamp(x), R6 = 1/6 with RF
/// fraction bits (docs/Hardware.md).
inline int64_t hardsigmoidWord(int64_t word, FixedFormat format,
                               int64_t recipFrac) {
  return scaleByReciprocal(hardRamp(word, format), reciprocal(6, recipFrac),
                           recipFrac, format.width);
}

/// hardswish: requant_W(x * t * R6, F + RF), t = hardRamp(x).
inline int64_t hardswishWord(int64_t word, FixedFormat format,
                             int64_t recipFrac) {
  return scaleByReciprocal(word * hardRamp(word, format),
                           reciprocal(6, recipFrac), format.frac + recipFrac,
                           format.width);
}

/// "<width, frac>", as messages and comments write a format.
std::string formatFixed(FixedFormat format);

/// One word per line, as `width` bits of two's complement in hex (what
/// `$readmemh` reads): the ROMs and the simulation's stimuli.
std::string formatHexWords(llvm::ArrayRef<int64_t> words, int64_t width);

} // namespace mav

#endif // MAV_HARDWARE_FIXEDPOINT_H
