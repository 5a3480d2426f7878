/* sync-ref.c - the CPU reference of tests/lit/ptx/exec-sync.mlir (the PTX in sync.ptx): what each
 * thread of kernel @sync stores, as printMemrefI32 prints its data line. A block has 48 threads:
 * a warp of 32 and one of 16, each warp's member mask all of its threads.
 *   cc -std=c11 -o sync-ref sync-ref.c && ./sync-ref */
#include <stdint.h>
#include <stdio.h>

#define N 48
#define W 18

int main(void) {
  static int32_t out[2 * N * W];
  for (int b = 0; b < 2; b++)
    for (uint32_t t = 0; t < N; t++) {
      int32_t *o = out + W * (N * b + t);
      uint32_t w0 = t / 32 * 32, w1 = w0 + 32 < N ? w0 + 32 : N, lane = t % 32;
      uint32_t add = 0, and_ = ~0u, or_ = 0, xor_ = 0, max = 0, any5 = 0, any4 = 0;
      int32_t min = INT32_MAX;
      for (uint32_t u = w0; u < w1; u++) {
        add += 3 * u + 1;
        int32_t m = ((int32_t)u - 20) * ((int32_t)(u % 3) - 1);
        min = m < min ? m : min;
        uint32_t x = u * 7919 % 1000;
        max = x > max ? x : max;
        and_ &= ~(1u << (u % 8));
        or_ |= 1u << (u % 16);
        xor_ ^= u * 0x01010101u;
        if (u % 5 == t % 5)
          any5 |= 1u << (u - w0);
        if (u / 4 == t / 4)
          any4 |= 1u << (u - w0);
      }
      uint32_t members = w1 - w0 == 32 ? ~0u : (1u << (w1 - w0)) - 1;
      o[0] = (int32_t)add;
      o[1] = min;
      o[2] = (int32_t)max;
      o[3] = (int32_t)and_;
      o[4] = (int32_t)or_;
      o[5] = (int32_t)xor_;
      o[6] = (int32_t)any5;
      o[7] = (int32_t)members; /* match.all of 42 */
      o[8] = 1;
      o[9] = 0;                /* match.all of t % 2: not all equal, d 0 and p 0 */
      o[10] = (int32_t)any4;
      o[11] = lane >= 3 ? 3 + (lane == 3 ? 100 : 0) : 7;
      o[12] = N / 3;           /* popc of t % 3 == 0 */
      o[13] = 1 + 2;           /* all below 100, one is 47; not all below 40, none is 1000 */
      o[14] = (int32_t)((N - 1 - t) * (N - 1 - t));
      o[15] = N * 4;           /* the static shared memory: sh */
      o[16] = 0 + 10 * 1 + 100 * b + 1000 * 2 + 0 + 10000 * 1 + 100000 * 1 + 0 + 0;
      o[17] = 1 + 2 + 4;
    }
  printf("[");
  for (int i = 0; i < 2 * N * W; i++)
    printf("%s%d", i ? ",  " : "", out[i]);
  printf("]\n");
  return 0;
}
