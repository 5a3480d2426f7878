/* ops-ref.c - the CPU reference of tests/lit/ptx/exec-ops.mlir (the PTX in ops.ptx): what each
 * thread of each kernel stores, printed as printMemrefI32/F32 print their data lines.
 *   cc -std=c11 -o ops-ref ops-ref.c -lm && ./ops-ref */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops-data.h"

static void print_i32(const int32_t *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++)
    printf("%s%d", i ? ",  " : "", v[i]);
  printf("]\n");
}

static void print_f32(const float *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++)
    printf("%s%g", i ? ",  " : "", v[i]);
  printf("]\n");
}

static uint32_t popc(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static uint32_t clz(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 32; }

/* bits: the PTX ISA's pseudocode of each instruction, on a = ints_in[t], b = ints_in[t ^ 7],
 * c = ints_in[t ^ 5] */
static uint32_t ref_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) {
    unsigned idx = ((a >> i & 1) << 2) | ((b >> i & 1) << 1) | (c >> i & 1);
    r |= (lut >> idx & 1) << i;
  }
  return r;
}

static uint32_t ref_shf(int left, int clamp, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t n = clamp ? (c < 32 ? c : 32) : c & 31;
  if (left)
    return n == 32 ? a : n == 0 ? b : (b << n) | (a >> (32 - n));
  return n == 32 ? b : n == 0 ? a : (b << (32 - n)) | (a >> n);
}

static uint32_t ref_prmt(const char *mode, uint32_t a, uint32_t b, uint32_t c) {
  uint8_t bytes[8];
  for (int i = 0; i < 4; i++)
    bytes[i] = (uint8_t)(a >> (8 * i)), bytes[4 + i] = (uint8_t)(b >> (8 * i));
  /* the tables of the PTX ISA, d.b3 d.b2 d.b1 d.b0 per c[1:0] */
  static const char *const f4e[] = {"3210", "4321", "5432", "6543"};
  static const char *const b4e[] = {"5670", "6701", "7012", "0123"};
  static const char *const rc8[] = {"0000", "1111", "2222", "3333"};
  static const char *const ecl[] = {"3210", "3211", "3222", "3333"};
  static const char *const ecr[] = {"0000", "1110", "2210", "3210"};
  static const char *const rc16[] = {"1010", "3232", "1010", "3232"};
  const char *const *tab = !strcmp(mode, "f4e")    ? f4e
                           : !strcmp(mode, "b4e")  ? b4e
                           : !strcmp(mode, "rc8")  ? rc8
                           : !strcmp(mode, "ecl")  ? ecl
                           : !strcmp(mode, "ecr")  ? ecr
                           : !strcmp(mode, "rc16") ? rc16
                                                   : NULL;
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) {
    uint8_t v;
    if (tab)
      v = bytes[tab[c & 3][3 - i] - '0'];
    else {
      unsigned s = c >> (4 * i) & 15;
      v = bytes[s & 7];
      if (s & 8)
        v = (v & 0x80) ? 0xff : 0x00;
    }
    r |= (uint32_t)v << (8 * i);
  }
  return r;
}

static uint64_t ref_bfe(uint64_t a, uint32_t pos, uint32_t len, int w, int sgn) {
  pos &= 0xff, len &= 0xff;
  int msb = w - 1;
  uint64_t sbit = !sgn || len == 0 ? 0 : (a >> (pos + len - 1 > (uint32_t)msb ? (uint32_t)msb : pos + len - 1)) & 1;
  uint64_t d = 0;
  for (int i = 0; i <= msb; i++) {
    uint64_t bit = (uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb ? (a >> (pos + (uint32_t)i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int w) {
  pos &= 0xff, len &= 0xff;
  uint64_t f = b;
  for (uint32_t i = 0; i < len && pos + i <= (uint32_t)(w - 1); i++)
    f = (f & ~((uint64_t)1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
  return f;
}

static int32_t ref_mul24(int hi, int sgn, uint32_t a, uint32_t b) {
  int64_t x = sgn ? (int64_t)((int32_t)(a << 8) >> 8) : (int64_t)(a & 0xffffff);
  int64_t y = sgn ? (int64_t)((int32_t)(b << 8) >> 8) : (int64_t)(b & 0xffffff);
  int64_t p = x * y; /* 48 bits */
  return (int32_t)(uint32_t)(hi ? (uint64_t)p >> 16 : (uint64_t)p);
}

static uint32_t ref_testp(double x) {
  return (uint32_t)(isfinite(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (!isnan(x) ? 4 : 0) | (isnan(x) ? 8 : 0) |
         (isnormal(x) ? 16 : 0) | (fpclassify(x) == FP_SUBNORMAL ? 32 : 0);
}

static uint32_t ref_bfind(uint64_t a, int w, int sgn, int shiftamt) {
  if (sgn && (a >> (w - 1) & 1))
    a = ~a;
  if (w < 64)
    a &= ((uint64_t)1 << w) - 1;
  int d = -1;
  for (int i = w - 1; i >= 0; i--)
    if (a >> i & 1) {
      d = i;
      break;
    }
  if (d < 0)
    return 0xffffffffu;
  return (uint32_t)(shiftamt ? w - 1 - d : d);
}

static uint32_t ref_testp_f32(float x) { /* classified as a float: its subnormals are not double's */
  return (uint32_t)(isfinite(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (!isnan(x) ? 4 : 0) | (isnan(x) ? 8 : 0) |
         (isnormal(x) ? 16 : 0) | (fpclassify(x) == FP_SUBNORMAL ? 32 : 0);
}

static float f32_bits(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}

static void ref_bits(void) {
  static int32_t bo[46 * 32];
  for (int t = 0; t < 32; t++) {
    uint32_t a = (uint32_t)ints_in[t], b = (uint32_t)ints_in[t ^ 7], c = (uint32_t)ints_in[t ^ 5];
    uint32_t n = (uint32_t)t * 3, pos = (uint32_t)t * 2, len = ((uint32_t)t * 5 + 32) % 37;
    uint32_t *o = (uint32_t *)bo;
    int k = 0;
    static const uint32_t luts[] = {0xE8, 0x96, 0x01, 0xCA, 0xFF};
    for (int j = 0; j < 5; j++)
      o[k++ * 32 + t] = ref_lop3(a, b, c, luts[j]);
    o[k++ * 32 + t] = ref_shf(1, 0, a, b, n);
    o[k++ * 32 + t] = ref_shf(1, 1, a, b, n);
    o[k++ * 32 + t] = ref_shf(0, 0, a, b, n);
    o[k++ * 32 + t] = ref_shf(0, 1, a, b, n);
    o[k++ * 32 + t] = ref_prmt("", a, b, c);
    static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int j = 0; j < 6; j++)
      o[k++ * 32 + t] = ref_prmt(modes[j], a, b, (uint32_t)t);
    o[k++ * 32 + t] = (uint32_t)ref_bfe(a, pos, len, 32, 0);
    o[k++ * 32 + t] = (uint32_t)ref_bfe(a, pos, len, 32, 1);
    o[k++ * 32 + t] = (uint32_t)ref_bfi(a, b, pos, len, 32);
    o[k++ * 32 + t] = (uint32_t)ref_mul24(0, 1, a, b);
    o[k++ * 32 + t] = (uint32_t)ref_mul24(1, 1, a, b);
    o[k++ * 32 + t] = (uint32_t)ref_mul24(0, 0, a, b);
    o[k++ * 32 + t] = (uint32_t)ref_mul24(1, 0, a, b);
    o[k++ * 32 + t] = (uint32_t)ref_mul24(0, 1, a, b) + c;
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    o[k++ * 32 + t] = c + (sa > sb ? a - b : b - a);
    o[k++ * 32 + t] = c + (a > b ? a - b : b - a);
    o[k++ * 32 + t] = (int32_t)c >= 0 ? a : b;
    o[k++ * 32 + t] = (float)(int32_t)c >= 0.0f ? a : b;
    o[k++ * 32 + t] = (b & 0x7fffffffu) | (a & 0x80000000u); /* copysign: a's sign on b */
    uint32_t v3 = (a & 0x80000000u) | ((t & 1) ? 0x7f800000u : 0) | ((t & 2) ? (a & 0x7fffffu) : 0);
    o[k++ * 32 + t] = ref_testp_f32(f32_bits(a));
    o[k++ * 32 + t] = ref_testp_f32(f32_bits(v3));
    o[k++ * 32 + t] = ref_testp((double)f32_bits(v3));
    o[k++ * 32 + t] = ref_bfind(a, 32, 0, 0);
    o[k++ * 32 + t] = ref_bfind(a, 32, 1, 0);
    o[k++ * 32 + t] = ref_bfind(a, 32, 0, 1);
    o[k++ * 32 + t] = ref_bfind(a, 32, 1, 1);
    uint64_t x = (uint64_t)((int64_t)(int32_t)a * 1000003), y = (uint64_t)((int64_t)(int32_t)b * -77);
    uint32_t pos64 = (uint32_t)t * 3, len64 = ((uint32_t)t * 5 + 64) % 70;
    uint64_t w64[4] = {ref_bfe(x, pos64, len64, 64, 0), ref_bfe(x, pos64, len64, 64, 1),
                       ref_bfi(x, y, pos64, len64, 64),
                       (x & ~((uint64_t)1 << 63)) | (y & ((uint64_t)1 << 63))};
    for (int j = 0; j < 4; j++, k += 2) /* a u64 per thread over two columns */
      memcpy(&o[k * 32 + 2 * t], &w64[j], 8);
    o[k++ * 32 + t] = ref_bfind(x, 64, 1, 0);
    o[k++ * 32 + t] = ref_bfind(y, 64, 0, 1);
  }
  print_i32(bo, 46 * 32);
}

/* locals: each thread's 16 words of .local memory hold a * (j + 1); it reads word t & 15 back */
static void ref_locals(void) {
  static int32_t lo[128];
  for (int t = 0; t < 32; t++) {
    uint32_t a = (uint32_t)ints_in[t], w = a * (uint32_t)((t & 15) + 1);
    lo[t * 4 + 0] = (int32_t)w;
    lo[t * 4 + 1] = 2 * t;
    lo[t * 4 + 2] = (int32_t)a;
    lo[t * 4 + 3] = (int32_t)(2 * w);
  }
  print_i32(lo, 128);
}

/* globals: the module's .global and .const variables, launched twice: the second launch sees the
 * first one's atomic add to gcount (thread 0's last word) */
static void ref_globals(int launch) {
  static const int32_t gtab[8] = {1, -2, 3, -4, 5, -6, 7, -8};
  static const float cf[2] = {1.5f, 2.5f};
  static int32_t go[256];
  for (int t = 0; t < 32; t++) {
    go[t * 8 + 0] = gtab[t & 7];
    go[t * 8 + 1] = gtab[3];
    go[t * 8 + 2] = (int32_t)(2.5 * t);
    go[t * 8 + 3] = (int32_t)(cf[t & 1] * 4.0f);
    go[t * 8 + 4] = gtab[t & 7];
    go[t * 8 + 5] = gtab[2];
    go[t * 8 + 6] = 100 + 21; /* the address's two bytes match; then 1 + 2 * 10 */
    go[t * 8 + 7] = t == 0 ? 7 * launch : 3 * t;
  }
  print_i32(go, 256);
}

int main(void) {
  static int32_t out[17 * 32];
  for (int t = 0; t < 32; t++) {
    int32_t a = ints_in[t], b = t + 1;
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    out[0 * 32 + t] = a / b;
    out[1 * 32 + t] = a % b;
    out[2 * 32 + t] = (int32_t)(ua / ub);
    out[3 * 32 + t] = (int32_t)(ua % ub);
    out[4 * 32 + t] = (int32_t)((uint32_t)(a < b ? a : b) + (ua > ub ? ua : ub));
    out[5 * 32 + t] = (a >> 3) ^ (int32_t)(ua >> 29);
    int32_t hi = (int32_t)(((int64_t)a * 74565) >> 32), lo = (int32_t)(ua * (uint32_t)-7);
    out[6 * 32 + t] = (int32_t)((uint32_t)hi - (uint32_t)lo);
    out[7 * 32 + t] = (int32_t)((~(ua ^ ub) | 16u) & 65535u);
    int p1 = a < 0, even = (t & 1) == 0, p2 = even && p1, p3 = !even && p1;
    out[8 * 32 + t] = (p2 ? a : b) + (p3 ? 1000 : 0);
    out[9 * 32 + t] = (int32_t)(int8_t)(ua & 0xff) + (int32_t)(ua & 0xffff);
    out[10 * 32 + t] = (int32_t)(clz(ua) * 100 + popc(ua));
    out[11 * 32 + t] = (int32_t)((uint32_t)-ua * 3u + (uint32_t)(a < 0 ? -ua : ua));
    out[12 * 32 + t] = ints_in[t ^ 5];
    int up = t >= 2; /* shfl.up 2 with c = 0: lanes below 2 keep their own value, valid false */
    out[13 * 32 + t] = (int32_t)((uint32_t)ints_in[3] + (uint32_t)(up ? ints_in[t - 2] : a) + (up ? 1000000u : 0u));
    uint32_t ballot = 0;
    int all = 1;
    for (int j = 0; j < 32; j++) {
      int q = ints_in[j] > -100;
      ballot |= (uint32_t)q << j;
      all &= q;
    }
    int uni = ballot == 0 || ballot == 0xffffffffu;
    out[14 * 32 + t] = (int32_t)((uint32_t)(all + (uni ? 10 : 0)) ^ ballot);
    out[15 * 32 + t] = (t & 1) ? (int32_t)(7u + ua) : (int32_t)(7u << t);
    int64_t w = (int64_t)a * 1000003;
    out[16 * 32 + t] = (int32_t)((uint32_t)(uint64_t)w + (uint32_t)((uint64_t)w >> 32));
  }
  print_i32(out, 17 * 32);

  static float fo[8 * 32];
  const float k = FLOATS_K;
  for (int t = 0; t < 32; t++) {
    float x = floats_in[t], ft = (float)t;
    fo[0 * 32 + t] = fmaf(x, k, ft);
    fo[1 * 32 + t] = x / (ft + 1.0f);
    fo[2 * 32 + t] = sqrtf(fabsf(x));
    fo[3 * 32 + t] = fmaxf(x, ft) - fminf(x, k);
    float m = x * 3.0f;
    fo[4 * 32 + t] = (float)((int32_t)truncf(m) + (int32_t)floorf(m));
    double d = (double)x;
    fo[5 * 32 + t] = (float)fma(d * 0.1, d, d);
    fo[6 * 32 + t] = rintf(-x);
    fo[7 * 32 + t] = (x > k || isnan(x)) ? x : k;
  }
  print_f32(fo, 8 * 32);

  static int32_t mo[132];
  for (int t = 0; t < 32; t++) {
    int s = 31 - t; /* the thread whose tile row it reads: reversed, then words 2 and 3 of it */
    mo[t * 4 + 0] = mem_in[s * 4 + 1];
    mo[t * 4 + 1] = mem_in[s * 4 + 0];
    mo[t * 4 + 2] = 496; /* the sum of the thread ids */
    mo[t * 4 + 3] = t == 0 ? -1 : 0;
  }
  int32_t mx = 0;
  for (int t = 0; t < 32; t++)
    mx = mem_in[t * 4] > mx ? mem_in[t * 4] : mx;
  mo[128] = mx;
  mo[129] = 496;
  mo[130] = 77;
  mo[131] = 2; /* 32 increments wrapping after 9 */
  print_i32(mo, 132);
  ref_bits();
  ref_locals();
  ref_globals(0);
  ref_globals(1);
  return 0;
}
