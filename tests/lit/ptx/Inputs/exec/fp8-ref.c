/* fp8-ref.c - the CPU reference of tests/lit/ptx/exec-fp8.mlir (the PTX in fp8.ptx): each
 * thread's eight words, as printMemrefI32 prints them. The roundings are found by search: of every
 * finite fp8 value, the nearest, a tie to the one whose last bit is 0; the formats' values from
 * their fields (E4M3: bias 7, no infinities, 0x7f its NaN, 448 its largest; E5M2: IEEE's, bias 15).
 *   cc -std=gnu11 -o fp8-ref fp8-ref.c -lm && ./fp8-ref */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 256 };

static double fp8_value(unsigned c, int e5) { /* c < 0x80, finite */
  unsigned mbits = e5 ? 2 : 3, bias = e5 ? 15 : 7, e = c >> mbits, m = c & ((1u << mbits) - 1);
  if (e == 0)
    return ldexp(m, 1 - (int)bias - (int)mbits);
  return ldexp((1u << mbits) | m, (int)e - (int)bias - (int)mbits);
}

static unsigned to_fp8(double x, int e5, int relu) {
  if (isnan(x))
    return 0x7f;
  if (relu && x < 0)
    return 0;
  unsigned top = e5 ? 0x7b : 0x7e, best = 0, sign = signbit(x) ? 0x80 : 0;
  double a = fabs(x), bd = INFINITY;
  if (a > fp8_value(top, e5))
    return sign | top;
  for (unsigned c = 0; c <= top; c++) {
    double d = fabs(fp8_value(c, e5) - a);
    if (d < bd || (d == bd && !(c & 1)))
      bd = d, best = c;
  }
  return sign | best;
}

static double half_value(unsigned h) {
  unsigned e = h >> 10 & 31, m = h & 1023;
  double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 | m, (int)e - 25) : ldexp(m, -24);
  return h & 0x8000 ? -v : v;
}

static unsigned half_bits(double v) { /* v a half's value, or NaN */
  if (isnan(v))
    return 0x7fff;
  _Float16 h = (_Float16)v;
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}

static unsigned from_fp8x2(unsigned b, int e5, int relu) {
  unsigned r = 0;
  for (int k = 0; k < 2; k++) {
    unsigned c = b >> (8 * k) & 0xff;
    double v;
    if (!e5 && (c & 0x7f) == 0x7f)
      v = NAN;
    else if (e5 && (c & 0x7c) == 0x7c)
      v = (c & 3) ? NAN : INFINITY;
    else
      v = fp8_value(c & 0x7f, e5);
    if (!isnan(v) && (c & 0x80))
      v = -v;
    if (relu && v < 0)
      v = 0;
    r |= half_bits(v) << (16 * k);
  }
  return r;
}

int main(void) {
  static const uint32_t specials[8] = {0x7fc00000, 0x7f800000, 0xff800000, 0x80000000,
                                       0x43e00000, 0x43e80000, 0x47600000, 0xc7700000};
  printf("[");
  for (uint32_t t = 0; t < N; t++) {
    uint32_t r2 = ((t * 2654435769u) ^ 1431655765u) * 1103515245u;
    uint32_t fa_bits = (((r2 >> 27) + 111) << 23) | (r2 & 8388607u) | (t & 1) << 31;
    if (t < 8)
      fa_bits = specials[t];
    float fa, fb = (float)((int32_t)t - 128) * 0.125f;
    memcpy(&fa, &fa_bits, 4);
    uint32_t h = r2 * 69069u + 12345u, b = (((t ^ 90u) << 8) | t) & 0xffff;
    double h1 = half_value(h >> 16), h0 = half_value(h & 0xffff);
    uint32_t w[8] = {
        to_fp8(fa, 0, 0) << 8 | to_fp8(fb, 0, 0),  to_fp8(fa, 1, 0) << 8 | to_fp8(fb, 1, 0),
        to_fp8(fa, 0, 1) << 8 | to_fp8(fb, 0, 1),  to_fp8(h1, 0, 0) << 8 | to_fp8(h0, 0, 0),
        to_fp8(h1, 1, 1) << 8 | to_fp8(h0, 1, 1),  from_fp8x2(b, 0, 0),
        from_fp8x2(b, 1, 0),                       from_fp8x2(b, 0, 1),
    };
    for (int i = 0; i < 8; i++)
      printf("%s%d", t || i ? ",  " : "", (int32_t)w[i]);
  }
  printf("]\n");
  return 0;
}
