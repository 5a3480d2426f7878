// Device function calls kept as calls in the PTX (__noinline__): a gcd loop called from a
// kernel, and a function that calls another.
__device__ __noinline__ int gcd(int a, int b) {
  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

__device__ __noinline__ int lcm(int a, int b) { return a / gcd(a, b) * b; }

extern "C" __global__ void gcd_lcm(const int *a, const int *b, int *g, int *l, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    g[i] = gcd(a[i], b[i]);
    l[i] = lcm(a[i], b[i]);
  }
}
