// A non-inlined device function called from a kernel, and printf.
#include <cstdio>
__device__ __noinline__ float poly(float x, float a, float b) { return a * x * x + b * x + 1.0f; }
__device__ __noinline__ void pair(int *p, int a, int b) { p[0] = a; p[1] = b; }
extern "C" __global__ void call_kernel(float *y, int *q) {
  int i = threadIdx.x;
  y[i] = poly(y[i], 2.0f, -3.5f);
  pair(q + 2 * i, i, -i);
  if (i == 0)
    printf("block %d x=%f\n", blockIdx.x, y[0]);
}
