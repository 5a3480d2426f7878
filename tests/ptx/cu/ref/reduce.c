/* Reference for reduce.cu: 4 blocks of 64 threads, one sum per block. */
#include "ref.h"

enum { BLOCKS = 4, BLOCK = 64, N = BLOCKS * BLOCK };

static void block_sum(void) {
  static int32_t in[N], out[BLOCKS];
  for (int i = 0; i < N; i++)
    in[i] = (i * 37) % 101 - 50;
  ref_launch(BLOCKS, BLOCK);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("out", "i32", BLOCKS, REF_OUT, out);
  for (int b = 0; b < BLOCKS; b++) {
    out[b] = 0;
    for (int t = 0; t < BLOCK; t++)
      out[b] += in[b * BLOCK + t];
  }
}

REF_MAIN({"block_sum", block_sum})
