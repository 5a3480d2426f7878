// Warp shuffles and votes.
extern "C" __global__ void warp_ops(const int *in, int *out, unsigned *votes) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  int x = __shfl_xor_sync(0xffffffffu, in[threadIdx.x], 1);
  int y = __shfl_sync(0xffffffffu, x, 0);
  unsigned b = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
  int all = __all_sync(0xffffffffu, in[threadIdx.x] != 0);
  int any = __any_sync(0xffffffffu, in[threadIdx.x] < 0);
  if ((threadIdx.x & 31) == 0) {
    out[threadIdx.x / 32] = v + y;
    votes[threadIdx.x / 32] = b ^ (all << 1) ^ any;
  }
}
