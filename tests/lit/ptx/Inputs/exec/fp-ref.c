/* fp-ref.c - the CPU reference of tests/lit/ptx/exec-fp.mlir (the PTX in fp.ptx): what each thread
 * of each kernel stores, printed as printMemrefI32 prints its data line. It computes by other means
 * than the engine (kernel/kernel_fp.c): f16 by the host's _Float16 conversions under fesetround,
 * bf16 by the bits of an f32 rounded to odd, f16/bf16 arithmetic as an fma rounded to odd in double,
 * the directed roundings of f32/f64 under fesetround, the carries with unsigned __int128.
 *   cc -std=gnu11 -O1 -frounding-math -o fp-ref fp-ref.c -lm && ./fp-ref */
#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* the tables of fp.ptx */
static const uint32_t f32tab[32] = {
    0x3F800000, 0x3F801000, 0x3F803000, 0xBF801000, 0x477FE000, 0x477FEFFF, 0x477FF000, 0xC77FF000,
    0x33000000, 0x33400000, 0x33800000, 0x387BA882, 0x322BCC77, 0xB22BCC77, 0x7FC00000, 0xFF800000,
    0x7F800000, 0x80000000, 0x40490FDB, 0xC02DF854, 0x501502F9, 0xC2F6E979, 0x3DCCCCCD, 0x3F808000,
    0x3F818000, 0x3F808001, 0x7F7FFFFF, 0x00000001, 0x807FFFFF, 0x3F000800, 0x42C90000, 0xBF400000,
};
static const int32_t itab[32] = {
    0, 1, -1, 2047, 2049, 2051, 4097, -4099,
    65504, 65519, 65520, 70000, -70000, 2147483647, -2147483648, 16777217,
    -16777217, 257, 259, 12345, -54321, 1000000, 33554435, -33554433,
    7, -7, 100, 255, 256, 511, 65535, 131071,
};
static const uint32_t hptab[32] = {
    0x03FF3C00, 0x7BFFBC00, 0x3C010001, 0x700003FF, 0xC0008200, 0xFC007C00, 0x4248FC00, 0x2E667E00,
    0x94008000, 0x00010000, 0x00007BFF, 0x3800FBFF, 0x3A003555, 0x7FC04248, 0x7C00C170, 0x35555640,
    0x84003800, 0x14003C01, 0xBC000400, 0x80008400, 0x56402E66, 0xCA004900, 0x7F80CA00, 0x82003A00,
    0xFBFF7000, 0x04006000, 0x60001400, 0x3C009400, 0x7E003BFF, 0xC1707F80, 0x49007FC0, 0x3BFFC000,
};

enum { RN, RZ, RM, RP };
static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

static void print_row(const uint32_t *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++)
    printf("%s%d", i ? ",  " : "", (int32_t)v[i]);
  printf("]\n");
}

static float f32of(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
static uint32_t bits32(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return isnan(x) ? 0x7fffffffu : b;
}
static uint64_t bits64(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return isnan(x) ? UINT64_C(0x7fffffffffffffff) : b;
}

/* f16: the host's _Float16 */
static uint16_t hbits(_Float16 h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return isnan((float)h) ? 0x7fff : b;
}
static double hval(uint16_t b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return (double)h;
}
static uint16_t h_of_f(float x, int m) {
  fesetround(fe[m]);
  volatile float v = x;
  _Float16 h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static uint16_t h_of_d(double x, int m) {
  fesetround(fe[m]);
  volatile double v = x;
  _Float16 h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}
static uint16_t h_of_i(int64_t i, int m) {
  fesetround(fe[m]);
  volatile int64_t v = i;
  _Float16 h = (_Float16)v;
  fesetround(FE_TONEAREST);
  return hbits(h);
}

/* bf16: the top half of an f32, rounded by its low half */
static uint16_t bf_of_f(float x, int m) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if (isnan(x))
    return 0x7fff;
  uint32_t t = b >> 16, lo = b & 0xffff, neg = b >> 31;
  if (m == RN)
    t = (b + 0x7fff + ((b >> 16) & 1)) >> 16;
  else if ((m == RM && lo && neg) || (m == RP && lo && !neg))
    t++;
  return (uint16_t)t;
}
static double bfval(uint16_t b) { return f32of((uint32_t)b << 16); }
/* an f32 rounded to odd: toward zero, the last bit set when inexact (exact for a later rounding to
 * fewer than 22 bits) */
static float odd_f(double x) {
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  volatile float f = (float)x;
  int inexact = fetestexcept(FE_INEXACT);
  fesetround(FE_TONEAREST);
  uint32_t b;
  memcpy(&b, (const float *)&f, 4);
  if (inexact && !isinf(f))
    b |= 1;
  return f32of(b);
}
static uint16_t bf_of_d(double x, int m) { return isnan(x) ? 0x7fff : bf_of_f(odd_f(x), m); }
/* a * b + c rounded to odd in double */
static double odd_fma(double a, double b, double c) {
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_INEXACT);
  volatile double r = fma(a, b, c);
  int inexact = fetestexcept(FE_INEXACT);
  fesetround(FE_TONEAREST);
  uint64_t w;
  memcpy(&w, (const double *)&r, 8);
  if (inexact && !isinf(r))
    w |= 1;
  double d;
  memcpy(&d, &w, 8);
  return d;
}

/* ---- halves ---- */
enum { F16, BF16 };
static bool sub16(uint16_t b) { return !(b & 0x7c00) && (b & 0x3ff); }
static bool subbf(uint16_t b) { return !(b & 0x7f80) && (b & 0x7f); }
static double val(uint16_t b, int fmt) { return fmt == F16 ? hval(b) : bfval(b); }
static uint16_t flush(uint16_t b, int fmt) { return (fmt == F16 ? sub16(b) : subbf(b)) ? b & 0x8000 : b; }
static uint16_t rnd(double r, int fmt) { return fmt == F16 ? h_of_d(r, RN) : bf_of_d(r, RN); }

enum { ADD, SUB, MUL, FMA };
/* an f16/bf16 operation: .ftz (f), .sat (s), .relu (u) */
static uint16_t harith(int op, uint16_t a, uint16_t b, uint16_t c, int fmt, int f, int s, int u) {
  if (f)
    a = flush(a, fmt), b = flush(b, fmt), c = flush(c, fmt);
  double x = val(a, fmt), y = val(b, fmt), z = val(c, fmt), r;
  switch (op) {
  case ADD: r = odd_fma(x, 1.0, y); break;
  case SUB: r = odd_fma(x, 1.0, -y); break;
  case MUL: r = odd_fma(x, y, -0.0); break;
  default: r = odd_fma(x, y, z); break;
  }
  uint16_t h = rnd(r, fmt);
  if (h == 0x7fff)
    return s ? 0 : h;
  if (f)
    h = flush(h, fmt);
  double v = val(h, fmt);
  if ((s || u) && v < 0)
    h = 0;
  if (s && v > 1)
    h = fmt == F16 ? 0x3c00 : 0x3f80;
  return h;
}
static uint16_t hminmax(uint16_t a, uint16_t b, int fmt, int max, int nan, int f) {
  if (f)
    a = flush(a, fmt), b = flush(b, fmt);
  double x = val(a, fmt), y = val(b, fmt);
  if ((isnan(x) && isnan(y)) || (nan && (isnan(x) || isnan(y))))
    return 0x7fff;
  if (isnan(x))
    return b;
  if (isnan(y))
    return a;
  if (x == 0 && y == 0 && signbit(x) != signbit(y))
    return (max ? !signbit(x) : signbit(x)) ? a : b;
  if (x == y)
    return a;
  return (max ? x > y : x < y) ? a : b;
}
/* each half of a pair */
#define PAIR(expr_lo, expr_hi) ((uint32_t)(expr_lo) | (uint32_t)(expr_hi) << 16)
static uint16_t lo(uint32_t w) { return (uint16_t)w; }
static uint16_t hi(uint32_t w) { return (uint16_t)(w >> 16); }
static uint32_t pair_arith(int op, uint32_t a, uint32_t b, uint32_t c, int fmt, int f, int s, int u) {
  return PAIR(harith(op, lo(a), lo(b), lo(c), fmt, f, s, u), harith(op, hi(a), hi(b), hi(c), fmt, f, s, u));
}
static uint32_t pair_minmax(uint32_t a, uint32_t b, int fmt, int max, int nan, int f) {
  return PAIR(hminmax(lo(a), lo(b), fmt, max, nan, f), hminmax(hi(a), hi(b), fmt, max, nan, f));
}
static uint16_t hfun(uint16_t a, int fmt, int tanh_, int f) {
  if (f)
    a = flush(a, fmt);
  double x = val(a, fmt);
  uint16_t h = rnd(tanh_ ? tanh(x) : exp2(x), fmt);
  return f ? flush(h, fmt) : h;
}

static void cvts(void) {
  static uint32_t o[32][32];
  for (int t = 0; t < 32; t++) {
    uint32_t *w = o[t];
    float x = f32of(f32tab[t]), y = f32of(f32tab[t ^ 1]);
    int32_t i = itab[t];
    for (int m = 0; m < 4; m++)
      w[m] = h_of_f(x, m);
    w[4] = bf_of_f(x, RN);
    w[5] = bf_of_f(x, RZ);
    volatile double X = (double)x * 0x1.0000000001p0;
    for (int m = 0; m < 4; m++)
      w[6 + m] = h_of_d(X, m);
    double h1 = hval((uint16_t)w[0]);
    w[10] = bits32((float)h1);
    w[11] = bits32((float)bfval((uint16_t)w[4]));
    double nr = nearbyint(h1);
    w[12] = isnan(h1) ? 0 : nr >= 2147483647.0 ? 0x7fffffffu
            : nr <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)nr;
    double tz = trunc(h1);
    w[13] = isnan(h1) || tz <= 0 ? 0 : tz >= 255 ? 255 : (uint32_t)tz;
    w[14] = h_of_i(i, RN);
    w[15] = h_of_i((uint32_t)i, RZ);
    w[16] = h_of_i(i, RM);
    w[17] = h_of_i(i, RP);
    w[18] = bf_of_f(odd_f((double)i), RN);
    uint64_t v = (uint64_t)(uint32_t)i << 32 | (uint32_t)((uint32_t)i * 2654435761u);
    volatile int64_t vs = (int64_t)v;
    volatile uint64_t vu = v;
    fesetround(FE_TOWARDZERO);
    volatile float f19 = (float)vs;
    volatile float f21 = (float)X;
    fesetround(FE_DOWNWARD);
    volatile float f20 = (float)vu;
    volatile float f24 = (float)X;
    fesetround(FE_UPWARD);
    volatile double d22 = (double)vs;
    volatile float f25 = (float)X;
    fesetround(FE_TONEAREST);
    w[19] = bits32(f19);
    w[20] = bits32(f20);
    w[21] = bits32(f21);
    w[22] = (uint32_t)bits64(d22);
    w[23] = (uint32_t)(bits64(d22) >> 32);
    w[24] = bits32(f24);
    w[25] = bits32(f25);
    w[26] = isnan(x) ? 0x7fffffffu : (f32tab[t] + 0x1000u) & ~0x1fffu;
    w[27] = (uint32_t)h_of_f(x, RN) << 16 | h_of_f(y, RN);
    uint16_t rx = bf_of_f(x, RN), ry = bf_of_f(y, RN);
    rx = rx != 0x7fff && bfval(rx) < 0 ? 0 : rx;
    ry = ry != 0x7fff && bfval(ry) < 0 ? 0 : ry;
    w[28] = (uint32_t)rx << 16 | ry;
    uint16_t sf = h_of_f(x, RN);
    w[29] = (sf & 0x7fff) == 0x7c00 ? (sf & 0x8000) | 0x7bff : sf;
    w[30] = isnan(h1) ? 0x7fff : bf_of_f((float)h1, RN);
    double fl = floor(h1);
    w[31] = isnan(h1) ? 0 : (uint32_t)(int32_t)(fl < -32768 ? -32768 : fl > 32767 ? 32767 : fl);
  }
  print_row(&o[0][0], 32 * 32);
}

static int lt_c(double x, double y) { return x < y; }

static void halves(void) {
  static uint32_t o[32][32];
  for (int t = 0; t < 32; t++) {
    uint32_t *w = o[t], x = hptab[t], y = hptab[(t + 5) % 32], z = hptab[t ^ 3];
    w[0] = harith(ADD, lo(x), lo(y), 0, F16, 0, 0, 0);
    w[1] = pair_arith(ADD, x, y, 0, F16, 0, 0, 0);
    w[2] = pair_arith(SUB, x, y, 0, F16, 0, 0, 0);
    w[3] = pair_arith(MUL, x, y, 0, F16, 0, 0, 0);
    w[4] = pair_arith(FMA, x, y, z, F16, 0, 0, 0);
    w[5] = pair_arith(ADD, x, y, 0, F16, 0, 1, 0);
    w[6] = pair_arith(MUL, x, y, 0, F16, 1, 0, 0);
    w[7] = pair_arith(FMA, x, y, z, F16, 0, 0, 1);
    w[8] = x ^ 0x80008000u;
    w[9] = PAIR(flush(lo(x), F16) & 0x7fff, flush(hi(x), F16) & 0x7fff);
    w[10] = pair_minmax(x, y, F16, 0, 0, 0);
    w[11] = pair_minmax(x, y, F16, 1, 1, 0);
    w[12] = pair_minmax(x, y, F16, 0, 1, 1);
    w[13] = pair_arith(ADD, x, y, 0, BF16, 0, 0, 0);
    w[14] = pair_arith(MUL, x, y, 0, BF16, 0, 0, 0);
    w[15] = pair_arith(FMA, x, y, z, BF16, 0, 0, 0);
    w[16] = pair_arith(FMA, x, y, z, BF16, 0, 0, 1);
    w[17] = pair_minmax(x, y, BF16, 0, 0, 0);
    w[18] = pair_minmax(x, y, BF16, 1, 1, 0);
    w[19] = x ^ 0x80008000u;
    w[20] = x & 0x7fff7fffu;
    w[21] = (uint32_t)lt_c(hval(lo(x)), hval(lo(y))) + 2u * (uint32_t)lt_c(hval(hi(x)), hval(hi(y)));
    double xl = hval(lo(x)), yl = hval(lo(y)), xh = hval(hi(x)), yh = hval(hi(y));
    w[22] = PAIR(isnan(xl) || isnan(yl) || xl > yl ? 0xffff : 0, isnan(xh) || isnan(yh) || xh > yh ? 0xffff : 0);
    w[23] = xl == yl ? 0x3c00 : 0;
    w[24] = harith(FMA, lo(x), lo(y), lo(z), F16, 0, 1, 0);
    w[25] = PAIR(hfun(lo(x), F16, 0, 0), hfun(hi(x), F16, 0, 0));
    w[26] = PAIR(hfun(lo(x), F16, 1, 0), hfun(hi(x), F16, 1, 0));
    double fx = hval(flush(lo(x), F16)), fy = hval(flush(lo(y), F16));
    w[27] = isnan(fx) || isnan(fy) || fx >= fy;
    double bx = bfval(hi(x)), by = bfval(hi(y));
    w[28] = !isnan(bx) && !isnan(by) && bx <= by ? 0xffffffffu : 0;
    w[29] = harith(SUB, hi(x), hi(y), 0, F16, 1, 1, 0);
    w[30] = PAIR(hfun(lo(x), BF16, 0, 1), hfun(hi(x), BF16, 0, 1));
    w[31] = (uint32_t)(isnan(bfval(lo(x))) || isnan(bfval(lo(y)))) +
            2u * (uint32_t)(isnan(bfval(hi(x))) || isnan(bfval(hi(y))));
  }
  print_row(&o[0][0], 32 * 32);
}

typedef unsigned __int128 u128;

static void carry(void) {
  static uint32_t o[32][32];
  for (int t = 0; t < 32; t++) {
    uint32_t *w = o[t];
    uint32_t a[4] = {(uint32_t)itab[t], (uint32_t)itab[t ^ 1], (uint32_t)itab[t ^ 2], f32tab[t]};
    uint32_t b[4] = {f32tab[t ^ 3], hptab[t], (uint32_t)itab[t ^ 7], hptab[t ^ 5]};
    u128 A = 0, B = 0;
    for (int j = 3; j >= 0; j--)
      A = A << 32 | a[j], B = B << 32 | b[j];
    u128 s = A + B, d = A - B;
    for (int j = 0; j < 4; j++) {
      w[j] = (uint32_t)(s >> (32 * j));
      w[5 + j] = (uint32_t)(d >> (32 * j));
    }
    w[4] = s < A;
    w[9] = A < B ? 0xffffffffu : 0;
    uint64_t m = (uint64_t)a[0] * b[0] + ((uint64_t)a[3] << 32 | a[2]);
    w[10] = (uint32_t)m, w[11] = (uint32_t)(m >> 32);
    u128 m2 = (u128)((uint64_t)a[1] * b[1]) + ((uint64_t)b[3] << 32 | b[2]);
    w[12] = (uint32_t)m2, w[13] = (uint32_t)(m2 >> 32), w[14] = (uint32_t)(m2 >> 64);
    uint64_t alo = (uint64_t)a[1] << 32 | a[0], ahi = (uint64_t)a[3] << 32 | a[2];
    uint64_t blo = (uint64_t)b[1] << 32 | b[0], bhi = (uint64_t)b[3] << 32 | b[2];
    u128 P = (u128)alo * blo;
    uint64_t plo = (uint64_t)P, phi = (uint64_t)(P >> 64);
    uint64_t d0 = plo + ahi;
    int cf = d0 < plo;
    uint64_t d1 = phi + bhi + (uint64_t)cf;
    uint64_t q[6] = {(uint64_t)s, (uint64_t)(s >> 64), (uint64_t)d, (uint64_t)(d >> 64), d0, d1};
    for (int j = 0; j < 6; j++)
      w[16 + 2 * j] = (uint32_t)q[j], w[17 + 2 * j] = (uint32_t)(q[j] >> 32);
    w[28] = a[1] * b[1] + a[0] + (uint32_t)cf;
    uint32_t h = (uint32_t)(((int64_t)(int32_t)a[1] * (int32_t)b[1]) >> 32);
    w[29] = h + a[2];
    w[30] = w[29] < h;
    int borrow = ahi < bhi;
    w[31] = a[3] - b[3] - (uint32_t)borrow;
  }
  print_row(&o[0][0], 32 * 32);
}

static float ftzf(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static float f32_op(int op, int m, float x, float y, float z) {
  fesetround(fe[m]);
  volatile float a = x, b = y, c = z, r;
  switch (op) {
  case 0: r = a + b; break;
  case 1: r = a - b; break;
  case 2: r = a * b; break;
  case 3: r = fmaf(a, b, c); break;
  case 4: r = a / b; break;
  case 5: r = sqrtf(a); break;
  default: r = 1.0f / a; break;
  }
  fesetround(FE_TONEAREST);
  return r;
}
static double f64_op(int op, int m, double x, double y, double z) {
  fesetround(fe[m]);
  volatile double a = x, b = y, c = z, r;
  switch (op) {
  case 0: r = a + b; break;
  case 2: r = a * b; break;
  case 3: r = fma(a, b, c); break;
  case 4: r = a / b; break;
  case 5: r = sqrt(a); break;
  default: r = 1.0 / a; break;
  }
  fesetround(FE_TONEAREST);
  return r;
}

static int64_t sext24(uint32_t v) { return (int64_t)((int32_t)(v << 8) >> 8); }

static uint32_t dot(uint32_t a, uint32_t b, uint32_t c, int sa, int sb, int two, int high) {
  int64_t r = c;
  for (int i = 0; i < (two ? 2 : 4); i++) {
    uint32_t ea = two ? a >> (16 * i) & 0xffff : a >> (8 * i) & 0xff, eb = b >> (8 * (i + (high ? 2 : 0))) & 0xff;
    int64_t x = sa ? (two ? (int16_t)ea : (int8_t)ea) : (int64_t)ea, y = sb ? (int8_t)eb : (int64_t)eb;
    r += x * y;
  }
  return (uint32_t)r;
}

static uint32_t fns(uint32_t mask, int base, int off) {
  if (off == 0)
    return mask >> base & 1 ? (uint32_t)base : 0xffffffffu;
  int count = (off > 0 ? off : -off) - 1, inc = off > 0 ? 1 : -1;
  for (int pos = base; pos >= 0 && pos < 32; pos += inc)
    if (mask >> pos & 1) {
      if (count == 0)
        return (uint32_t)pos;
      count--;
    }
  return 0xffffffffu;
}

static void misc(void) {
  static uint32_t o[32][64];
  for (int t = 0; t < 32; t++) {
    uint32_t *w = o[t];
    int u = (t + 11) & 31;
    float x = f32of(f32tab[t]), y = f32of(f32tab[u]), z = f32of(f32tab[t ^ 6]);
    uint32_t i10 = (uint32_t)itab[t], i11 = (uint32_t)itab[u], i12 = (uint32_t)itab[t ^ 6];
    static const int ops[][2] = {{0, RZ}, {0, RM}, {0, RP}, {1, RP}, {2, RZ}, {2, RM}, {2, RP}, {3, RZ}, {3, RM},
                                 {3, RP}, {4, RZ}, {4, RM}, {4, RP}, {5, RZ}, {5, RM}, {5, RP}, {6, RZ}, {6, RM},
                                 {6, RP}};
    for (int j = 0; j < 19; j++)
      w[j] = bits32(f32_op(ops[j][0], ops[j][1], x, y, z));
    w[19] = bits32(ftzf(f32_op(0, RZ, ftzf(x), ftzf(y), 0)));
    float r = f32_op(2, RP, ftzf(x), ftzf(y), 0);
    r = isnan(r) ? 0.0f : r < 0 ? 0.0f : r > 1 ? 1.0f : r;
    w[20] = bits32(ftzf(r));
    double X = x, Y = (double)y * 0.1, Z = z;
    uint64_t q[6] = {bits64(f64_op(0, RZ, X, Y, Z)), bits64(f64_op(2, RM, X, Y, Z)), bits64(f64_op(3, RP, X, Y, Z)),
                     bits64(f64_op(4, RZ, X, Y, Z)), bits64(f64_op(5, RM, X, Y, Z)), bits64(f64_op(6, RP, Y, 0, 0))};
    for (int j = 0; j < 6; j++)
      w[22 + 2 * j] = (uint32_t)q[j], w[23 + 2 * j] = (uint32_t)(q[j] >> 32);
    int64_t prod = sext24(i10) * sext24(i11);
    int64_t s = (int64_t)(int32_t)(uint32_t)((uint64_t)prod >> 16) + (int32_t)i12;
    w[34] = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
    w[35] = dot(i10, i11, i12, 1, 0, 0, 0);
    w[36] = dot(i10, i11, i12, 0, 1, 0, 0);
    w[37] = dot(i10, i11, i12, 1, 1, 0, 0);
    w[38] = dot(i10, i11, i12, 1, 0, 1, 0);
    w[39] = dot(i10, i11, i12, 0, 1, 1, 1);
    w[40] = fns(i10, t, t % 7 - 3);
    w[41] = i10 ^ i11 ^ i12;
    w[42] = w[41] != 0 || (int32_t)i10 < 0;
    w[43] = (i10 & i11 & i12) != 0;
    w[44] = bits32(tanhf(x));
    w[45] = bits32(ftzf(exp2f(ftzf(x))));
    w[46] = isnan(x) || isnan(y) ? 0x7fffffffu : bits32(fmaxf(x, y));
    w[47] = isnan(x) || isnan(y) ? 0x7fffffffu : bits32(fminf(x, y));
    w[48] = (uint32_t)(sext24(i10) * sext24(i11)) + i12;
    int b = t & 28;
    w[49] = (uint32_t)itab[b] + (uint32_t)itab[b + 3];
    w[50] = (uint32_t)itab[b + 2] - (uint32_t)itab[b + 1];
    w[52] = (uint32_t)itab[b], w[53] = (uint32_t)t, w[54] = (uint32_t)itab[b + 2], w[55] = (uint32_t)itab[b + 3];
    int e = t & 30;
    uint32_t h1 = hptab[e], h2 = hptab[e + 1];
    w[56] = pair_arith(ADD, h1, h2, 0, F16, 0, 0, 0);
    w[57] = h1;
    w[58] = (uint32_t)hi(h2) | (uint32_t)lo(h1) << 16;
    w[59] = harith(ADD, lo(hptab[t]), hi(hptab[t]), 0, F16, 0, 0, 0);
    w[60] = hi(hptab[t]);
    w[51] = hi(hptab[t]); /* mov.b32 {_, %h2} */
    double l5 = hval(lo(hptab[t])), h6 = hval(hi(hptab[t]));
    w[61] = isnan(l5) ? 0x7fff : h_of_d(nearbyint(l5), RN);
    w[62] = isnan(h6) ? 0x7fff : h_of_d(ceil(h6), RN);
    uint64_t v = (uint64_t)i11 << 32 | i10; /* toward zero: its top 8 bits */
    int top = 63 - __builtin_clzll(v);
    uint64_t kept = top >= 8 ? v >> (top - 7) << (top - 7) : v;
    w[63] = bf_of_f((float)kept, RZ);
  }
  print_row(&o[0][0], 32 * 64);
}

int main(void) {
  cvts();
  halves();
  carry();
  misc();
  return 0;
}
