// BUG (deliberate): an out-of-bounds store. The guard is `i <= n`, so thread n writes one
// element past the end of out.
extern "C" __global__ void copy_off_by_one(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    out[i] = i < n ? in[i] : 0;
}
