/* References for warp.cu: 2 blocks of 64 threads, 4 warps. The float inputs are small integers,
 * so the shuffle tree's sums are exact in any order. */
#include "ref.h"

enum { BLOCKS = 2, BLOCK = 64, N = BLOCKS * BLOCK, WARPS = N / 32 };

static void warp_sum(void) {
  static float in[N], out[WARPS];
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 9) - 4.0f + (float)(i / 32);
  ref_launch(BLOCKS, BLOCK);
  ref_buf("in", "f32", N, REF_IN, in);
  ref_buf("out", "f32", WARPS, REF_OUT, out);
  for (int w = 0; w < WARPS; w++) {
    out[w] = 0;
    for (int l = 0; l < 32; l++)
      out[w] += in[w * 32 + l];
  }
}

static void warp_vote(void) {
  static int32_t in[N], ballot[WARPS], any[WARPS];
  for (int i = 0; i < N; i++)
    in[i] = (i * 7) % 13 + (i >= 96 && i % 5 == 0 ? 200 : 0); /* only the last warp has x > 100 */
  ref_launch(BLOCKS, BLOCK);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("ballot", "i32", WARPS, REF_OUT, ballot);
  ref_buf("any", "i32", WARPS, REF_OUT, any);
  for (int w = 0; w < WARPS; w++) {
    uint32_t b = 0;
    int a = 0;
    for (int l = 0; l < 32; l++) {
      b |= (uint32_t)(in[w * 32 + l] & 1) << l;
      a |= in[w * 32 + l] > 100;
    }
    ballot[w] = (int32_t)b;
    any[w] = a;
  }
}

REF_MAIN({"warp_sum", warp_sum}, {"warp_vote", warp_vote})
