// Block sum in shared memory (static and dynamic), with __syncthreads between halvings.
extern "C" __global__ void __launch_bounds__(256) reduce(const float *in, float *out, int n) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
extern "C" __global__ void reduce_dyn(const int *in, int *out) {
  extern __shared__ int dbuf[];
  dbuf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned k = 0; k < blockDim.x; k++)
      s += dbuf[k];
    *out = s;
  }
}
