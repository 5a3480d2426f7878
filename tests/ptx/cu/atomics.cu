// Atomics on global memory: an integer histogram, a float sum, and a maximum built from an
// atomicCAS loop. The float inputs are small integers, so the sum is exact in any order.
extern "C" __global__ void histogram(const int *in, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i] & 7], 1);
}

extern "C" __global__ void sum_f32(const float *in, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(sum, in[i]);
}

// atomicMax on int written as a compare-and-swap loop: retry until no other thread changed the
// value between our read and our swap.
extern "C" __global__ void cas_max(const int *in, int *best, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = in[i];
  int old = *best;
  while (old < v) {
    int seen = atomicCAS(best, old, v);
    if (seen == old)
      break;
    old = seen;
  }
}
