// Warp-level primitives: a shuffle-down sum per warp, and votes over a per-lane predicate.
extern "C" __global__ void warp_sum(const float *in, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

// For each warp: the ballot of lanes whose input is odd, and whether any lane's input exceeds 100.
extern "C" __global__ void warp_vote(const int *in, unsigned *ballot, int *any) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  unsigned b = __ballot_sync(0xffffffffu, x & 1);
  int a = __any_sync(0xffffffffu, x > 100);
  if ((threadIdx.x & 31) == 0) {
    ballot[i / 32] = b;
    any[i / 32] = a;
  }
}
