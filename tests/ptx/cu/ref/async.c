/* References for async.cu: what each kernel stores, from its inputs. */
#include "ref.h"

static void cp_pipe(void) {
  enum { B = 2, T = 64, N = B * T * 4 };
  static int32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 29) % 83 - 40;
  ref_launch(B, T);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("out", "i32", N, REF_OUT, out);
  for (int b = 0; b < B; b++)
    for (int s = 0; s < 4; s++)
      for (int t = 0; t < T; t++)
        out[b * T * 4 + s * T + t] = in[b * T * 4 + s * T + (t + 1) % T] * 2 + s;
}

static void cp_zfill(void) {
  enum { T = 64, N = 40 };
  static int32_t in[4 * T], out[4 * T], buf[4 * T];
  for (int i = 0; i < 4 * T; i++)
    in[i] = i * 3 + 1;
  ref_launch(1, T);
  ref_buf("in", "i32", 4 * T, REF_IN, in);
  ref_buf("out", "i32", 4 * T, REF_OUT, out);
  ref_i32(N);
  for (int t = 0; t < T; t++)
    for (int j = 0; j < 4; j++)
      buf[4 * t + j] = t < N ? in[4 * t + j] : 0;
  for (int t = 0; t < T; t++) {
    const int32_t *v = &buf[4 * (T - 1 - t)];
    out[4 * t] = v[0] + 1, out[4 * t + 1] = v[1], out[4 * t + 2] = v[2], out[4 * t + 3] = v[3] - 1;
  }
}

static void bar_copy(void) {
  enum { B = 2, T = 128, N = B * T };
  static int32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * i) % 97;
  ref_launch(B, T);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("out", "i32", N, REF_OUT, out);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      out[b * T + t] = in[b * T + (t + 3) % T] - in[b * T + t];
}

static void bulk_copy(void) {
  enum { B = 2, T = 128 };
  static int32_t in[B * 256], out[B * T];
  for (int i = 0; i < B * 256; i++)
    in[i] = (i * 53) % 211 - 100;
  ref_launch(B, T);
  ref_buf("in", "i32", B * 256, REF_IN, in);
  ref_buf("out", "i32", B * T, REF_OUT, out);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      out[b * T + t] = in[b * 256 + (t * 7) % 256] + in[b * 256 + 255 - t];
}

REF_MAIN({"cp_pipe", cp_pipe}, {"cp_zfill", cp_zfill}, {"bar_copy", bar_copy}, {"bulk_copy", bulk_copy})
