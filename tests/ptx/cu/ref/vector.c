/* References for vector.cu: 70 elements on 3 blocks of 32 threads, so the last block's tail is
 * guarded off. */
#include "ref.h"

enum { N = 70 };

static void vadd(void) {
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)(N - i);
  }
  ref_launch(3, 32);
  ref_buf("a", "f32", N, REF_IN, a);
  ref_buf("b", "f32", N, REF_IN, b);
  ref_buf("c", "f32", N, REF_OUT, c);
  ref_i32(N);
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];
}

static void saxpy(void) {
  static float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 7) - 3.0f;
    y[i] = 0.25f * (float)i;
  }
  ref_launch(3, 32);
  ref_f32(1.5f);
  ref_buf("x", "f32", N, REF_IN, x);
  ref_buf("y", "f32", N, REF_OUT, y);
  ref_i32(N);
  for (int i = 0; i < N; i++)
    y[i] = 1.5f * x[i] + y[i];
}

REF_MAIN({"vadd", vadd}, {"saxpy", saxpy})
