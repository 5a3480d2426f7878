// Calls through function pointers (indirect calls with a .callprototype).
// apply: each thread calls the device function of a table (in device memory) chosen by its index,
//   so a warp's threads call three functions at once.
// fold: a loop over the table, each step calling one of the functions on the running value, the
//   one chosen by a thread's own data; threads with an odd index start at the table's end.
typedef int (*op_t)(int, int);
__device__ __noinline__ int add_op(int a, int b) { return a + b; }
__device__ __noinline__ int mul_op(int a, int b) { return a * b; }
__device__ __noinline__ int sub_op(int a, int b) { return a - b; }
__device__ op_t table[3] = {add_op, mul_op, sub_op};

extern "C" __global__ void apply(const int *a, const int *b, int *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = table[t % 3];
  out[t] = f(a[t], b[t]);
}

extern "C" __global__ void fold(const int *a, int *out, int steps) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[t];
  for (int s = 0; s < steps; s++) {
    unsigned k = (unsigned)(a[t] + s) % 3u;
    if (t & 1)
      k = 2 - k;
    v = table[k](v, s + 1) & 0xffff;
  }
  out[t] = v;
}
