/* Reference for divergent.cu: Collatz step counts of 1..40, on 2 blocks of 32 threads. */
#include "ref.h"

enum { N = 40 };

static void collatz(void) {
  static int32_t in[N], steps[N];
  for (int i = 0; i < N; i++)
    in[i] = i + 1;
  ref_launch(2, 32);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("steps", "i32", N, REF_OUT, steps);
  ref_i32(N);
  for (int i = 0; i < N; i++) {
    uint32_t x = (uint32_t)in[i], k = 0;
    while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      k++;
    }
    steps[i] = (int32_t)k;
  }
}

REF_MAIN({"collatz", collatz})
