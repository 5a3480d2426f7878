#include <cuda_fp16.h>

// 128-bit integers: each element four 32-bit words, lowest first; r = x * z + (x >> 7) - z, whose
// sums, difference and product nvcc builds from the carry chain (add.cc, addc, sub.cc, subc, mad.lo.cc).
extern "C" __global__ void wide_madd(const unsigned *a, const unsigned *b, unsigned *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned __int128 x = 0, z = 0;
    for (int j = 3; j >= 0; j--) {
      x = x << 32 | a[4 * i + j];
      z = z << 32 | b[4 * i + j];
    }
    unsigned __int128 r = x * z + (x >> 7) - z;
    for (int j = 0; j < 4; j++)
      y[4 * i + j] = (unsigned)(r >> (32 * j));
  }
}

// f16x2 arithmetic on pairs of halves: a fused multiply-add, less a product, widened to float.
extern "C" __global__ void half2_fma(const __half *a, const __half *b, const __half *c, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * i + 1 < n) {
    __half2 x = __halves2half2(a[2 * i], a[2 * i + 1]), w = __halves2half2(b[2 * i], b[2 * i + 1]);
    __half2 v = __halves2half2(c[2 * i], c[2 * i + 1]);
    __half2 r = __hsub2(__hfma2(x, w, v), __hmul2(x, v));
    float2 f = __half22float2(r);
    y[2 * i] = f.x;
    y[2 * i + 1] = f.y;
  }
}
