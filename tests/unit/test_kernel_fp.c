/* test_kernel_fp.c - kernel/kernel_fp.c's rounding against the host's: every f16 value, the
 * f32 values at and beside each midpoint of two f16 values (and of two bf16 values) under each
 * rounding mode, integers, and f32 arithmetic rounded toward zero, down and up, compared bit for
 * bit with _Float16 conversions and f32 operations run under fesetround; the fp8 formats' values
 * and midpoints. */
#include "kernel/kernel_fp.h"

#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static const int fe[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

static float f32of(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
static uint32_t bits32(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

/* The host's conversion under mode m, out of the compiler's sight so that it runs under it. */
__attribute__((noipa)) static uint16_t host_f16(float x) {
  _Float16 h = (_Float16)x;
  uint16_t b;
  memcpy(&b, &h, 2);
  return isnan(x) ? 0x7fff : b;
}
__attribute__((noipa)) static uint16_t host_f16_of_int(int64_t v) {
  _Float16 h = (_Float16)v;
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
__attribute__((noipa)) static float host_f32_op(unsigned op, float a, float b, float c) {
  switch (op) {
  case KFP_OP_ADD: return a + b;
  case KFP_OP_SUB: return a - b;
  case KFP_OP_MUL: return a * b;
  case KFP_OP_FMA: return fmaf(a, b, c);
  case KFP_OP_DIV: return a / b;
  case KFP_OP_RCP: return 1.0f / a;
  default: return sqrtf(a);
  }
}

static uint16_t with_mode_f16(float x, int m) {
  fesetround(fe[m]);
  uint16_t r = host_f16(x);
  fesetround(FE_TONEAREST);
  return r;
}

/* the bf16 of an f32 by mode, from its bits */
static uint16_t bf16_of(float x, int m) {
  uint32_t b = bits32(x), t = b >> 16, lo = b & 0xffff, neg = b >> 31;
  if (isnan(x))
    return 0x7fff;
  if (m == KFP_RN)
    return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
  if ((m == KFP_RM && lo && neg) || (m == KFP_RP && lo && !neg))
    t++;
  return (uint16_t)t;
}

static void test_kernel_fp_value_every_f16(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 65536; h++) {
    _Float16 x;
    uint16_t b = (uint16_t)h;
    memcpy(&x, &b, 2);
    double v = kernel_fp_value(h, KFP_F16);
    if (isnan((double)x))
      assert_true(isnan(v));
    else
      assert_true(v == (double)x && signbit(v) == signbit((double)x));
    assert_int_equal(kernel_fp_isnan(h, KFP_F16), isnan((double)x));
  }
}

/* x and its two neighbours, in each mode, to f16 and to bf16 */
static void check_around(float x) {
  float xs[3] = {x, nextafterf(x, -INFINITY), nextafterf(x, INFINITY)};
  for (int i = 0; i < 3; i++)
    for (int m = KFP_RN; m <= KFP_RP; m++) {
      uint64_t got = kernel_fp_round(xs[i], 0, (unsigned)m, KFP_F16), want = with_mode_f16(xs[i], m);
      if (got != want)
        fail_msg("f16 of %a (0x%08x) in mode %d: 0x%04x, the host 0x%04x", (double)xs[i], bits32(xs[i]), m,
                 (unsigned)got, (unsigned)want);
      got = kernel_fp_round(xs[i], 0, (unsigned)m, KFP_BF16);
      want = bf16_of(xs[i], m);
      if (got != want)
        fail_msg("bf16 of %a in mode %d: 0x%04x, want 0x%04x", (double)xs[i], m, (unsigned)got, (unsigned)want);
    }
}

static void test_kernel_fp_round_f32_midpoints(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 0x7c00; h++) { /* the midpoints of two f16s, both signs */
    double a = kernel_fp_value(h, KFP_F16), b = kernel_fp_value(h + 1, KFP_F16);
    check_around((float)((a + b) / 2));
    check_around((float)-((a + b) / 2));
    check_around((float)a);
  }
  for (uint32_t h = 0; h < 0x7f80; h += 7) { /* the midpoints of two bf16s */
    float m = f32of(h << 16 | 0x8000);
    check_around(m);
    check_around(-m);
  }
  check_around(INFINITY);
  check_around(NAN);
}

static void test_kernel_fp_from_int_f16(void **state) {
  (void)state;
  for (int64_t v = -70000; v <= 70000; v += 3)
    for (int m = KFP_RN; m <= KFP_RP; m++) {
      fesetround(fe[m]);
      uint16_t want = host_f16_of_int(v);
      fesetround(FE_TONEAREST);
      assert_int_equal(kernel_fp_from_int((uint64_t)v, true, (unsigned)m, KFP_F16), want);
    }
  /* f32 from 64-bit integers: past 2^24 every rounding shows */
  for (uint64_t v = UINT64_C(0x123456789abcdef1); v > 1000; v = v / 3 * 2 + 1)
    for (int m = KFP_RN; m <= KFP_RP; m++) {
      fesetround(fe[m]);
      volatile int64_t s = (int64_t)v;
      volatile float want = (float)s;
      fesetround(FE_TONEAREST);
      assert_int_equal(kernel_fp_from_int(v, true, (unsigned)m, KFP_F32), bits32(want));
    }
}

static void test_kernel_fp_f32_directed(void **state) {
  (void)state;
  uint32_t seed = 12345;
  for (int i = 0; i < 20000; i++) {
    float v[3];
    for (int j = 0; j < 3; j++) {
      seed = seed * 1664525u + 1013904223u;
      /* exponents near 1 mostly, so that sums round; now and then anywhere */
      uint32_t b = seed;
      if (i % 8)
        b = (b & 0x807fffffu) | (uint32_t)(120 + (seed >> 8) % 16) << 23;
      v[j] = f32of(b);
    }
    for (unsigned op = KFP_OP_ADD; op <= KFP_OP_RCP; op++)
      for (int m = KFP_RZ; m <= KFP_RP; m++) {
        float a = op == KFP_OP_SQRT ? fabsf(v[0]) : v[0];
        fesetround(fe[m]);
        float want = host_f32_op(op, a, v[1], v[2]);
        fesetround(FE_TONEAREST);
        uint32_t got = kernel_fp_f32(op, (unsigned)m, a, v[1], v[2]);
        if (isnan(want))
          assert_int_equal(got, 0x7fffffffu);
        else if (got != bits32(want))
          fail_msg("op %u mode %d of %a %a %a: 0x%08x, the host 0x%08x", op, m, (double)a, (double)v[1],
                   (double)v[2], got, bits32(want));
      }
  }
}

/* The fp8 formats: every value's bits back from its value, and the midpoints between neighbours
 * rounded to the even one (E4M3's finite values to 448; E5M2's to 57344, past it infinity). */
static double fp8_value(unsigned c, unsigned fmt) { /* E4M3's top binade is finite (kernel_fp.h) */
  return fmt == KFP_E4M3 && (c & 0x78) == 0x78 ? ldexp(8 | (c & 7), 5) : kernel_fp_value(c, fmt);
}

static void test_kernel_fp_round_fp8(void **state) {
  (void)state;
  for (unsigned fmt = KFP_E4M3; fmt <= KFP_E5M2; fmt++) {
    unsigned top = fmt == KFP_E4M3 ? 0x7e : 0x7b;
    for (unsigned c = 0; c <= top; c++) {
      double v = fp8_value(c, fmt);
      assert_int_equal(kernel_fp_round(v, 0, KFP_RN, fmt), c);
      assert_int_equal(kernel_fp_round(-v, 0, KFP_RN, fmt), c | 0x80);
      if (c < top) {
        double mid = (v + fp8_value(c + 1, fmt)) / 2;
        assert_int_equal(kernel_fp_round(mid, 0, KFP_RN, fmt), c & 1 ? c + 1 : c);
        assert_int_equal(kernel_fp_round(mid, 0, KFP_RZ, fmt), c);
        assert_int_equal(kernel_fp_round(mid, 0, KFP_RP, fmt), c + 1);
      }
    }
  }
  assert_int_equal(kernel_fp_round(1.0, 0, KFP_RN, KFP_E4M3), 0x38);
  assert_int_equal(kernel_fp_round(448.0, 0, KFP_RN, KFP_E4M3), 0x7e);
  assert_int_equal(kernel_fp_round(ldexp(1, -9), 0, KFP_RN, KFP_E4M3), 0x01);
  assert_int_equal(kernel_fp_round(1.0, 0, KFP_RN, KFP_E5M2), 0x3c);
  assert_int_equal(kernel_fp_round(ldexp(1, -16), 0, KFP_RN, KFP_E5M2), 0x01);
  assert_int_equal(kernel_fp_round(61440.0, 0, KFP_RN, KFP_E5M2), 0x7c); /* the midpoint past 57344: infinity */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_fp_value_every_f16),
      cmocka_unit_test(test_kernel_fp_round_f32_midpoints),
      cmocka_unit_test(test_kernel_fp_from_int_f16),
      cmocka_unit_test(test_kernel_fp_f32_directed),
      cmocka_unit_test(test_kernel_fp_round_fp8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
