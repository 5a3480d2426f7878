/* kernel_fp.c - IEEE rounding for the PTX kernels (kernel_fp.h).
 *
 * One routine rounds: kernel_fp_round takes a double and the sign of what it leaves out, writes
 * its magnitude as an integer N of the target's quantum 2^q (the quantum of its binade, or of the
 * subnormals) with where the rest lies (none, below half a quantum, half, above), and rounds N by
 * the mode. A double holds every value of the narrow formats and f32 exactly, so their sums,
 * products and fmas are made exact first: the product exactly (11, 8 or 24 bits a side), the sum
 * as the double nearest it and its exact error (Knuth's two-sum), whose sign is all the rounding
 * needs. f32 division and square root do the same with the exact remainder of the double result
 * (fma(-q, b, a), fma(-s, s, a)). f64 has no wider format here: its directed roundings run under
 * the host's rounding mode, which is per thread (fesetround), set around one call the compiler
 * cannot see into or move, and restored. */
#include "kernel/kernel_fp.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

typedef struct Fmt {
  int p, emin, emax, bias; /* precision (with the implicit bit), exponents of the normals, bias */
  unsigned width, mfield;  /* bits in all, bits of the stored significand field */
} Fmt;

static const Fmt fmts[] = {
    [KFP_F16] = {11, -14, 15, 15, 16, 10},      [KFP_BF16] = {8, -126, 127, 127, 16, 7},
    [KFP_TF32] = {11, -126, 127, 127, 32, 23},  [KFP_F32] = {24, -126, 127, 127, 32, 23},
    [KFP_F64] = {53, -1022, 1023, 1023, 64, 52},
    [KFP_E4M3] = {4, -6, 8, 7, 8, 3},           [KFP_E5M2] = {3, -14, 15, 15, 8, 2},
};

unsigned kernel_fp_bits(unsigned fmt) { return fmts[fmt].width; }

static uint64_t exp_mask(const Fmt *f) {
  unsigned eb = f->width - 1 - f->mfield;
  return ((UINT64_C(1) << eb) - 1) << f->mfield;
}

uint64_t kernel_fp_nan(unsigned fmt) {
  const Fmt *f = &fmts[fmt];
  return fmt == KFP_F64 ? UINT64_C(0x7fffffffffffffff) : (UINT64_C(1) << (f->width - 1)) - 1;
}

bool kernel_fp_isnan(uint64_t bits, unsigned fmt) {
  const Fmt *f = &fmts[fmt];
  uint64_t em = exp_mask(f), mm = (UINT64_C(1) << f->mfield) - 1;
  return (bits & em) == em && (bits & mm);
}

bool kernel_fp_subnormal(uint64_t bits, unsigned fmt) {
  const Fmt *f = &fmts[fmt];
  return !(bits & exp_mask(f)) && (bits & ((UINT64_C(1) << f->mfield) - 1));
}

double kernel_fp_value(uint64_t bits, unsigned fmt) {
  if (fmt == KFP_F64) {
    double x;
    memcpy(&x, &bits, 8);
    return x;
  }
  if (fmt == KFP_F32 || fmt == KFP_TF32) {
    uint32_t w = (uint32_t)bits;
    float x;
    memcpy(&x, &w, 4);
    return x;
  }
  const Fmt *f = &fmts[fmt];
  bool neg = bits >> (f->width - 1) & 1;
  int e = (int)((bits & exp_mask(f)) >> f->mfield);
  uint64_t m = bits & ((UINT64_C(1) << f->mfield) - 1);
  double x;
  if (e == (int)(exp_mask(f) >> f->mfield))
    x = m ? NAN : INFINITY;
  else if (e == 0)
    x = ldexp((double)m, f->emin - f->mfield);
  else
    x = ldexp((double)(m | UINT64_C(1) << f->mfield), e - f->bias - (int)f->mfield);
  return neg ? -x : x;
}

enum { EXACT, BELOW, HALF, ABOVE }; /* where the magnitude lies past N quanta */

static uint64_t encode(const Fmt *f, bool neg, uint64_t n, int q) {
  uint64_t sign = (uint64_t)neg << (f->width - 1), top = UINT64_C(1) << (f->p - 1);
  if (n < top) /* zero or a subnormal (q is the subnormals' quantum) */
    return sign | n << (f->mfield - (unsigned)(f->p - 1));
  uint64_t biased = (uint64_t)(q + f->p - 1 + f->bias);
  return sign | biased << f->mfield | (n - top) << (f->mfield - (unsigned)(f->p - 1));
}

static uint64_t overflow(const Fmt *f, bool neg, unsigned mode) {
  uint64_t sign = (uint64_t)neg << (f->width - 1);
  bool inf = mode == KFP_RN || mode == KFP_RNA || (mode == KFP_RP && !neg) || (mode == KFP_RM && neg);
  if (inf)
    return sign | exp_mask(f);
  return encode(f, neg, (UINT64_C(1) << f->p) - 1, f->emax - (f->p - 1));
}

uint64_t kernel_fp_round(double x, int rsign, unsigned mode, unsigned fmt) {
  const Fmt *f = &fmts[fmt];
  if (isnan(x))
    return kernel_fp_nan(fmt);
  bool neg = signbit(x);
  if (isinf(x))
    return (uint64_t)neg << (f->width - 1) | exp_mask(f);
  int qmin = f->emin - (f->p - 1);
  if (x == 0) {
    if (!rsign)
      return (uint64_t)neg << (f->width - 1);
    neg = rsign < 0; /* a magnitude below the smallest subnormal */
    bool up = (mode == KFP_RP && !neg) || (mode == KFP_RM && neg);
    return encode(f, neg, up, qmin);
  }
  int e2;
  double fr = frexp(fabs(x), &e2);
  uint64_t m = (uint64_t)ldexp(fr, 53);
  int e = e2 - 53, E = e2 - 1;
  int q = (E > f->emin ? E : f->emin) - (f->p - 1);
  uint64_t n;
  int cls;
  if (e >= q) {
    n = m << (e - q);
    cls = EXACT;
  } else if (q - e > 60) {
    n = 0;
    cls = BELOW;
  } else {
    unsigned sh = (unsigned)(q - e);
    uint64_t rem = m & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    n = m >> sh;
    cls = rem == 0 ? EXACT : rem < half ? BELOW : rem == half ? HALF : ABOVE;
  }
  int eps = neg ? -rsign : rsign; /* what x leaves out, as a part of the magnitude */
  if (eps && cls == EXACT) {
    if (eps > 0)
      cls = BELOW;
    else {
      if (n == UINT64_C(1) << (f->p - 1) && q > qmin) /* the binade below has the finer quantum */
        n <<= 1, q--;
      n--;
      cls = ABOVE;
    }
  } else if (eps && cls == HALF)
    cls = eps > 0 ? ABOVE : BELOW;
  if (cls != EXACT) {
    bool up;
    switch (mode) {
    case KFP_RZ: up = false; break;
    case KFP_RP: up = !neg; break;
    case KFP_RM: up = neg; break;
    case KFP_RNA: up = cls >= HALF; break;
    default: up = cls == ABOVE || (cls == HALF && (n & 1)); break;
    }
    n += up;
  }
  if (n == UINT64_C(1) << f->p)
    n >>= 1, q++;
  if (n >= UINT64_C(1) << (f->p - 1) && q + f->p - 1 > f->emax)
    return overflow(f, neg, mode);
  return encode(f, neg, n, q);
}

uint64_t kernel_fp_from_int(uint64_t v, bool s, unsigned mode, unsigned fmt) {
  const Fmt *f = &fmts[fmt];
  bool neg = s && (int64_t)v < 0;
  uint64_t mag = neg ? (uint64_t)0 - v : v;
  if (!mag)
    return 0;
  int len = 64 - __builtin_clzll(mag);
  if (len > f->p) { /* round to p bits here; kernel_fp_round then only sees the format's range */
    unsigned sh = (unsigned)(len - f->p);
    uint64_t n = mag >> sh, rem = mag & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
    bool up = false;
    if (rem)
      switch (mode) {
      case KFP_RZ: break;
      case KFP_RP: up = !neg; break;
      case KFP_RM: up = neg; break;
      case KFP_RNA: up = rem >= half; break;
      default: up = rem > half || (rem == half && (n & 1)); break;
      }
    double x = ldexp((double)(n + up), (int)sh);
    return kernel_fp_round(neg ? -x : x, 0, mode, fmt);
  }
  double x = (double)mag;
  return kernel_fp_round(neg ? -x : x, 0, mode, fmt);
}

static int sgn(double r) { return r > 0 ? 1 : r < 0 ? -1 : 0; }

/* a + b exactly: the double nearest and the sign of the error (two-sum), then rounded */
static uint64_t sum(double a, double b, unsigned mode, unsigned fmt) {
  double s = a + b;
  if (isnan(s))
    return kernel_fp_nan(fmt);
  if (isinf(s))
    return kernel_fp_round(s, 0, mode, fmt);
  double bb = s - a, err = (a - (s - bb)) + (b - bb);
  if (s == 0 && err == 0) { /* an exact zero: -0 only of two -0s, or of opposite signs rounding down */
    bool neg = signbit(a) == signbit(b) ? signbit(a) : mode == KFP_RM;
    return kernel_fp_round(neg ? -0.0 : 0.0, 0, mode, fmt);
  }
  return kernel_fp_round(s, sgn(err), mode, fmt);
}

uint64_t kernel_fp_add(double a, double b, unsigned mode, unsigned fmt) { return sum(a, b, mode, fmt); }

uint64_t kernel_fp_mul(double a, double b, unsigned mode, unsigned fmt) {
  return kernel_fp_round(a * b, 0, mode, fmt); /* exact: a product of two narrow values */
}

uint64_t kernel_fp_fma(double a, double b, double c, unsigned mode, unsigned fmt) {
  double p = a * b; /* exact */
  if (isnan(p) || isnan(c))
    return kernel_fp_nan(fmt);
  return sum(p, c, mode, fmt);
}

uint32_t kernel_fp_f32(unsigned op, unsigned mode, float fa, float fb, float fc) {
  double a = fa, b = fb, c = fc;
  switch (op) {
  case KFP_OP_ADD: return (uint32_t)sum(a, b, mode, KFP_F32);
  case KFP_OP_SUB: return (uint32_t)sum(a, -b, mode, KFP_F32);
  case KFP_OP_MUL: return (uint32_t)kernel_fp_mul(a, b, mode, KFP_F32);
  case KFP_OP_FMA: return (uint32_t)kernel_fp_fma(a, b, c, mode, KFP_F32);
  case KFP_OP_RCP: b = a, a = 1.0; /* fall through */
  case KFP_OP_DIV: {
    double qt = a / b;
    if (!isfinite(qt) || qt == 0 || !isfinite(a) || !isfinite(b))
      return (uint32_t)kernel_fp_round(qt, 0, mode, KFP_F32); /* exact: 0, an infinity or NaN */
    return (uint32_t)kernel_fp_round(qt, sgn(fma(-qt, b, a)) * sgn(b), mode, KFP_F32);
  }
  default: { /* sqrt */
    double s = sqrt(a);
    if (!isfinite(s) || s == 0)
      return (uint32_t)kernel_fp_round(s, 0, mode, KFP_F32);
    return (uint32_t)kernel_fp_round(s, sgn(fma(-s, s, a)), mode, KFP_F32);
  }
  }
}

/* One f64 operation, out of the compiler's sight so that it runs where the caller calls it,
 * under the rounding mode the caller set. */
__attribute__((noipa)) static double f64_op(unsigned op, double a, double b, double c) {
  switch (op) {
  case KFP_OP_ADD: return a + b;
  case KFP_OP_SUB: return a - b;
  case KFP_OP_MUL: return a * b;
  case KFP_OP_FMA: return fma(a, b, c);
  case KFP_OP_DIV: return a / b;
  case KFP_OP_RCP: return 1.0 / a;
  default: return sqrt(a);
  }
}

uint64_t kernel_fp_f64(unsigned op, unsigned mode, double a, double b, double c) {
  static const int modes[] = {[KFP_RN] = FE_TONEAREST, [KFP_RZ] = FE_TOWARDZERO, [KFP_RM] = FE_DOWNWARD,
                              [KFP_RP] = FE_UPWARD, [KFP_RNA] = FE_TONEAREST};
  int old = fegetround();
  fesetround(modes[mode]);
  double r = f64_op(op, a, b, c);
  fesetround(old);
  if (isnan(r))
    return kernel_fp_nan(KFP_F64);
  uint64_t w;
  memcpy(&w, &r, 8);
  return w;
}
