// BUG (deliberate): a shared-memory race. Each thread writes its slot and then reads its
// neighbour's, with no __syncthreads between the store and the load.
extern "C" __global__ void shift_left(const int *in, int *out) {
  __shared__ int buf[64];
  unsigned t = threadIdx.x;
  buf[t] = in[t];
  out[t] = buf[(t + 1) % blockDim.x];
}
