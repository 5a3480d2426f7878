// Element-wise vector kernels: one thread per element, a bounds check for the grid's tail.
// Launched with more threads than elements, so the `i < n` guard matters.
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = alpha * x[i] + y[i];
}
