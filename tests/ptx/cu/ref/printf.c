/* Reference for printf.cu: 2 blocks of 4 threads each print one line; the order of the lines
 * between threads is not defined. */
#include "ref.h"

enum { BLOCKS = 2, BLOCK = 4, N = BLOCKS * BLOCK };

static void hello(void) {
  static float x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.25f * (float)i - 0.5f;
  ref_launch(BLOCKS, BLOCK);
  ref_check("dag");
  ref_buf("x", "f32", N, REF_IN, x);
  if (ref_spec_mode)
    return;
  for (int b = 0; b < BLOCKS; b++)
    for (int t = 0; t < BLOCK; t++)
      printf("thread %d of block %d: x = %.2f\n", t, b, (double)x[b * BLOCK + t]);
}

REF_MAIN({"hello", hello})
