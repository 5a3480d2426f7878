/* References for atomics.cu: 200 elements on 4 blocks of 64 threads (the tail is guarded off).
 * Every result is independent of the order the atomics land in. */
#include "ref.h"

#include <limits.h>

enum { N = 200 };

static void histogram(void) {
  static int32_t in[N], bins[8];
  for (int i = 0; i < N; i++)
    in[i] = (i * i + 3 * i) % 23;
  ref_launch(4, 64);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("bins", "i32", 8, REF_OUT, bins);
  ref_i32(N);
  for (int i = 0; i < N; i++)
    bins[in[i] & 7]++;
}

static void sum_f32(void) {
  static float in[N], sum[1];
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 11) - 2.0f;
  ref_launch(4, 64);
  ref_buf("in", "f32", N, REF_IN, in);
  ref_buf("sum", "f32", 1, REF_OUT, sum);
  ref_i32(N);
  for (int i = 0; i < N; i++)
    sum[0] += in[i];
}

static void cas_max(void) {
  static int32_t in[N], best[1] = {INT_MIN};
  for (int i = 0; i < N; i++)
    in[i] = (i * 7919) % 1009 - 500;
  ref_launch(4, 64);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("best", "i32", 1, REF_OUT, best);
  ref_i32(N);
  for (int i = 0; i < N; i++)
    best[0] = in[i] > best[0] ? in[i] : best[0];
}

REF_MAIN({"histogram", histogram}, {"sum_f32", sum_f32}, {"cas_max", cas_max})
