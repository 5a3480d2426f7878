// Global and shared atomics of several kinds.
__device__ int counter;
__constant__ int table[4] = {1, 2, 3, 5};
extern "C" __global__ void atomics(int *hist, float *fsum, unsigned long long *u64, const int *in) {
  __shared__ int local[32];
  if (threadIdx.x < 32)
    local[threadIdx.x] = 0;
  __syncthreads();
  int v = in[threadIdx.x];
  atomicAdd(&local[v & 31], table[v & 3]);
  atomicAdd(fsum, (float)v);
  atomicMax(&hist[0], v);
  atomicCAS(&hist[1], 0, v);
  atomicExch(&hist[2], v);
  atomicAdd(u64, 1ull);
  atomicInc((unsigned *)&counter, 100u);
  __syncthreads();
  if (threadIdx.x < 32)
    atomicAdd(&hist[3 + threadIdx.x], local[threadIdx.x]);
}
