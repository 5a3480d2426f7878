/* Reference for calls.cu: 48 pairs on 2 blocks of 32 threads. */
#include "ref.h"

enum { N = 48 };

static int gcd(int a, int b) {
  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static void gcd_lcm(void) {
  static int32_t a[N], b[N], g[N], l[N];
  for (int i = 0; i < N; i++) {
    a[i] = 6 * (i + 1);
    b[i] = 4 * (i % 9 + 1) + 2;
  }
  ref_launch(2, 32);
  ref_buf("a", "i32", N, REF_IN, a);
  ref_buf("b", "i32", N, REF_IN, b);
  ref_buf("g", "i32", N, REF_OUT, g);
  ref_buf("l", "i32", N, REF_OUT, l);
  ref_i32(N);
  for (int i = 0; i < N; i++) {
    g[i] = gcd(a[i], b[i]);
    l[i] = a[i] / g[i] * b[i];
  }
}

REF_MAIN({"gcd_lcm", gcd_lcm})
