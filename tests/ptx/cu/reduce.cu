// Shared-memory tree reduction: each block sums its 64 elements into out[blockIdx.x].
// Every step halves the active threads; __syncthreads orders one step's stores before the next
// step's loads. The block size is fixed at 64 (the shared array's length).
extern "C" __global__ void block_sum(const int *in, int *out) {
  __shared__ int buf[64];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = buf[0];
}
