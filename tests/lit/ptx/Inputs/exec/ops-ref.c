/* ops-ref.c - the CPU reference of tests/lit/ptx/exec-ops.mlir (the PTX in ops.ptx): what each
 * thread of each kernel stores, printed as printMemrefI32/F32 print their data lines.
 *   cc -std=c11 -o ops-ref ops-ref.c -lm && ./ops-ref */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops-data.h"

static void print_i32(const int32_t *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++)
    printf("%s%d", i ? ",  " : "", v[i]);
  printf("]\n");
}

static void print_f32(const float *v, int n) {
  printf("[");
  for (int i = 0; i < n; i++)
    printf("%s%g", i ? ",  " : "", v[i]);
  printf("]\n");
}

static uint32_t popc(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static uint32_t clz(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 32; }

int main(void) {
  static int32_t out[17 * 32];
  for (int t = 0; t < 32; t++) {
    int32_t a = ints_in[t], b = t + 1;
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    out[0 * 32 + t] = a / b;
    out[1 * 32 + t] = a % b;
    out[2 * 32 + t] = (int32_t)(ua / ub);
    out[3 * 32 + t] = (int32_t)(ua % ub);
    out[4 * 32 + t] = (int32_t)((uint32_t)(a < b ? a : b) + (ua > ub ? ua : ub));
    out[5 * 32 + t] = (a >> 3) ^ (int32_t)(ua >> 29);
    int32_t hi = (int32_t)(((int64_t)a * 74565) >> 32), lo = (int32_t)(ua * (uint32_t)-7);
    out[6 * 32 + t] = (int32_t)((uint32_t)hi - (uint32_t)lo);
    out[7 * 32 + t] = (int32_t)((~(ua ^ ub) | 16u) & 65535u);
    int p1 = a < 0, even = (t & 1) == 0, p2 = even && p1, p3 = !even && p1;
    out[8 * 32 + t] = (p2 ? a : b) + (p3 ? 1000 : 0);
    out[9 * 32 + t] = (int32_t)(int8_t)(ua & 0xff) + (int32_t)(ua & 0xffff);
    out[10 * 32 + t] = (int32_t)(clz(ua) * 100 + popc(ua));
    out[11 * 32 + t] = (int32_t)((uint32_t)-ua * 3u + (uint32_t)(a < 0 ? -ua : ua));
    out[12 * 32 + t] = ints_in[t ^ 5];
    int up = t >= 2; /* shfl.up 2 with c = 0: lanes below 2 keep their own value, valid false */
    out[13 * 32 + t] = (int32_t)((uint32_t)ints_in[3] + (uint32_t)(up ? ints_in[t - 2] : a) + (up ? 1000000u : 0u));
    uint32_t ballot = 0;
    int all = 1;
    for (int j = 0; j < 32; j++) {
      int q = ints_in[j] > -100;
      ballot |= (uint32_t)q << j;
      all &= q;
    }
    int uni = ballot == 0 || ballot == 0xffffffffu;
    out[14 * 32 + t] = (int32_t)((uint32_t)(all + (uni ? 10 : 0)) ^ ballot);
    out[15 * 32 + t] = (t & 1) ? (int32_t)(7u + ua) : (int32_t)(7u << t);
    int64_t w = (int64_t)a * 1000003;
    out[16 * 32 + t] = (int32_t)((uint32_t)(uint64_t)w + (uint32_t)((uint64_t)w >> 32));
  }
  print_i32(out, 17 * 32);

  static float fo[8 * 32];
  const float k = FLOATS_K;
  for (int t = 0; t < 32; t++) {
    float x = floats_in[t], ft = (float)t;
    fo[0 * 32 + t] = fmaf(x, k, ft);
    fo[1 * 32 + t] = x / (ft + 1.0f);
    fo[2 * 32 + t] = sqrtf(fabsf(x));
    fo[3 * 32 + t] = fmaxf(x, ft) - fminf(x, k);
    float m = x * 3.0f;
    fo[4 * 32 + t] = (float)((int32_t)truncf(m) + (int32_t)floorf(m));
    double d = (double)x;
    fo[5 * 32 + t] = (float)fma(d * 0.1, d, d);
    fo[6 * 32 + t] = rintf(-x);
    fo[7 * 32 + t] = (x > k || isnan(x)) ? x : k;
  }
  print_f32(fo, 8 * 32);

  static int32_t mo[132];
  for (int t = 0; t < 32; t++) {
    int s = 31 - t; /* the thread whose tile row it reads: reversed, then words 2 and 3 of it */
    mo[t * 4 + 0] = mem_in[s * 4 + 1];
    mo[t * 4 + 1] = mem_in[s * 4 + 0];
    mo[t * 4 + 2] = 496; /* the sum of the thread ids */
    mo[t * 4 + 3] = t == 0 ? -1 : 0;
  }
  int32_t mx = 0;
  for (int t = 0; t < 32; t++)
    mx = mem_in[t * 4] > mx ? mem_in[t * 4] : mx;
  mo[128] = mx;
  mo[129] = 496;
  mo[130] = 77;
  mo[131] = 2; /* 32 increments wrapping after 9 */
  print_i32(mo, 132);
  return 0;
}
