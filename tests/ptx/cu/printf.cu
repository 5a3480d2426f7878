#include <cstdio>

// Device printf with integer and float arguments (vprintf with a packed argument buffer).
extern "C" __global__ void hello(const float *x) {
  int t = threadIdx.x;
  printf("thread %d of block %d: x = %.2f\n", t, (int)blockIdx.x, x[blockIdx.x * blockDim.x + t]);
}
