/* References for funcptr.cu: 2 blocks of 48 threads (a warp and a part of one). */
#include "ref.h"

enum { B = 2, T = 48, N = B * T };

static int op(unsigned k, int a, int b) { return k == 0 ? a + b : k == 1 ? a * b : a - b; }

static void apply(void) {
  static int32_t a[N], b[N], out[N];
  for (int i = 0; i < N; i++)
    a[i] = i * 5 - 90, b[i] = (i * 7) % 13 - 6;
  ref_launch(B, T);
  ref_buf("a", "i32", N, REF_IN, a);
  ref_buf("b", "i32", N, REF_IN, b);
  ref_buf("out", "i32", N, REF_OUT, out);
  for (int t = 0; t < N; t++)
    out[t] = op((unsigned)t % 3, a[t], b[t]);
}

static void fold(void) {
  static int32_t a[N], out[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 37) % 50;
  ref_launch(B, T);
  ref_buf("a", "i32", N, REF_IN, a);
  ref_buf("out", "i32", N, REF_OUT, out);
  ref_i32(5);
  for (int t = 0; t < N; t++) {
    int v = a[t];
    for (int s = 0; s < 5; s++) {
      unsigned k = (unsigned)(a[t] + s) % 3u;
      if (t & 1)
        k = 2 - k;
      v = op(k, v, s + 1) & 0xffff;
    }
    out[t] = v;
  }
}

REF_MAIN({"apply", apply}, {"fold", fold})
