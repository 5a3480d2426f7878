/* Reference for half.cu: _Float16 rounds each product and sum to half as __hmul and __hadd do
 * (GCC computes _Float16 in float and rounds at each assignment; float holds a half product
 * exactly, so that is the half operation). 50 elements on 2 blocks of 32 threads. */
#include "ref.h"

enum { N = 50 };

static void half_axpb(void) {
  static _Float16 a[N], b[N], c[N];
  static float y[N];
  for (int i = 0; i < N; i++) {
    a[i] = (_Float16)(0.125f * (float)(i + 1));
    b[i] = (_Float16)(1.0f + 0.1f * (float)(i % 7));
    c[i] = (_Float16)(100.0f - 3.0f * (float)i);
  }
  ref_launch(2, 32);
  ref_buf("a", "f16", N, REF_IN, a);
  ref_buf("b", "f16", N, REF_IN, b);
  ref_buf("c", "f16", N, REF_IN, c);
  ref_buf("y", "f32", N, REF_OUT, y);
  ref_i32(N);
  for (int i = 0; i < N; i++) {
    _Float16 p = a[i] * b[i];
    _Float16 s = p + c[i];
    y[i] = (float)s;
  }
}

REF_MAIN({"half_axpb", half_axpb})
