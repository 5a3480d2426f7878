// BUG (deliberate): a divergent barrier. Only the even threads reach __syncthreads.
extern "C" __global__ void even_barrier(int *out) {
  __shared__ int buf[64];
  unsigned t = threadIdx.x;
  buf[t] = (int)t;
  if ((t & 1) == 0)
    __syncthreads();
  out[t] = buf[(t + 2) % blockDim.x];
}
