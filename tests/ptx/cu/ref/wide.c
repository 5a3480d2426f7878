/* References for wide.cu. wide_madd: unsigned __int128, 40 elements on 2 blocks of 32 threads.
 * half2_fma: 64 halves (32 pairs) on 1 block of 32 threads; the fma is a * b + c in double rounded
 * once to half (exact in double: a product of halves has 22 bits, and these sums span fewer than 53), the
 * product and the difference _Float16 operations (GCC computes them in float, exact for a product
 * of halves, and rounds once). */
#include "ref.h"

enum { N = 40, H = 64 };

static void wide_madd(void) {
  static int32_t a[4 * N], b[4 * N], y[4 * N];
  uint32_t s = 2463534242u;
  for (int i = 0; i < 4 * N; i++) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    a[i] = (int32_t)s;
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    b[i] = (int32_t)(i % 5 == 0 ? 0xffffffffu : s);
  }
  ref_launch(2, 32);
  ref_buf("a", "i32", 4 * N, REF_IN, a);
  ref_buf("b", "i32", 4 * N, REF_IN, b);
  ref_buf("y", "i32", 4 * N, REF_OUT, y);
  ref_i32(N);
  for (int i = 0; i < N; i++) {
    unsigned __int128 x = 0, z = 0;
    for (int j = 3; j >= 0; j--) {
      x = x << 32 | (uint32_t)a[4 * i + j];
      z = z << 32 | (uint32_t)b[4 * i + j];
    }
    unsigned __int128 r = x * z + (x >> 7) - z;
    for (int j = 0; j < 4; j++)
      y[4 * i + j] = (int32_t)(uint32_t)(r >> (32 * j));
  }
}

static void half2_fma(void) {
  static _Float16 a[H], b[H], c[H];
  static float y[H];
  for (int i = 0; i < H; i++) {
    a[i] = (_Float16)(0.0625f * (float)(i + 3) - 1.5f);
    b[i] = (_Float16)(1.0f + 0.03f * (float)(i % 11));
    c[i] = (_Float16)(7.0f - 0.37f * (float)i);
  }
  ref_launch(1, 32);
  ref_buf("a", "f16", H, REF_IN, a);
  ref_buf("b", "f16", H, REF_IN, b);
  ref_buf("c", "f16", H, REF_IN, c);
  ref_buf("y", "f32", H, REF_OUT, y);
  ref_i32(H);
  for (int i = 0; i < H; i++) {
    _Float16 f = (_Float16)((double)a[i] * (double)b[i] + (double)c[i]);
    _Float16 p = a[i] * c[i];
    _Float16 r = f - p;
    y[i] = (float)r;
  }
}

REF_MAIN({"wide_madd", wide_madd}, {"half2_fma", half2_fma})
