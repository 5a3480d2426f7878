// f16 arithmetic and conversions.
#include <cuda_fp16.h>
extern "C" __global__ void half_math(const __half *a, const __half *b, __half *c, __half2 *d, float *f) {
  int i = threadIdx.x;
  __half x = a[i], y = b[i];
  c[i] = __hfma(x, y, __float2half(1.5f));
  __half2 p = __halves2half2(x, y);
  d[i] = __hmul2(p, p);
  f[i] = __half2float(__hdiv(x, y)) + __half2float(hsqrt(__float2half(f[i])));
}
