/* References for mbar.cu: what each kernel stores, from its inputs. */
#include "ref.h"

static void phases(void) {
  enum { B = 2, T = 96, N = B * T };
  static int32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 13) % 31 - 15;
  ref_launch(B, T);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("out", "i32", N, REF_OUT, out);
  for (int b = 0; b < B; b++) {
    int32_t acc[T], buf[T];
    for (int t = 0; t < T; t++)
      acc[t] = in[b * T + t];
    for (int s = 0; s < 4; s++) {
      for (int t = 0; t < T; t++)
        buf[t] = acc[t];
      for (int t = 0; t < T; t++)
        acc[t] += buf[(t + 1 + s) % T];
    }
    for (int t = 0; t < T; t++)
      out[b * T + t] = acc[t];
  }
}

static void handoff(void) {
  enum { B = 2, T = 128 };
  static int32_t in[B * 32], out[B * T];
  for (int i = 0; i < B * 32; i++)
    in[i] = i * 7 - 100;
  ref_launch(B, T);
  ref_buf("in", "i32", B * 32, REF_IN, in);
  ref_buf("out", "i32", B * T, REF_OUT, out);
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      out[b * T + t] = t >= 32 ? (in[b * 32 + t % 32] + 5) * (t / 32) : -1;
}

static void named(void) {
  enum { B = 2, T = 64, N = B * T };
  static int32_t in[N], out[N];
  for (int i = 0; i < N; i++)
    in[i] = (i * 11) % 37;
  ref_launch(B, T);
  ref_buf("in", "i32", N, REF_IN, in);
  ref_buf("out", "i32", N, REF_OUT, out);
  for (int b = 0; b < B; b++) {
    int32_t buf[T];
    for (int t = 0; t < 32; t++)
      buf[t] = in[b * T + t] * 3;
    for (int t = 32; t < T; t++)
      buf[t] = buf[t - 32] + in[b * T + t];
    for (int t = 0; t < T; t++)
      out[b * T + t] = t < 32 ? buf[63 - t] : buf[t - 32];
  }
}

REF_MAIN({"phases", phases}, {"handoff", handoff}, {"named", named})
