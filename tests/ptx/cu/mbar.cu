// mbarrier and named barriers without __syncthreads between the parties.
// phases: a cuda::barrier of the whole block through four phases (its parity flips each time):
//   each phase every thread writes its element, arrives and waits, reads its neighbour's.
// handoff: warp 0 fills shared memory and arrives on a cuda::barrier without waiting; the other
//   warps arrive and wait (they may get there first: they must let warp 0 run), then read it.
// named: named barrier 1 of 64 threads: warp 0 writes and arrives (bar.arrive), warp 1 waits
//   for it (bar.sync 1, 64) and reads what warp 0 wrote; then barrier 2 the other way round.
#include <cuda/barrier>

extern "C" __global__ void phases(const int *in, int *out) {
  __shared__ int buf[96];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  int acc = in[blockIdx.x * n + t];
  for (int s = 0; s < 4; s++) {
    buf[t] = acc;
    bar.arrive_and_wait();
    acc += buf[(t + 1 + s) % n];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * n + t] = acc;
}

extern "C" __global__ void handoff(const int *in, int *out) {
  __shared__ int buf[32];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  if (t >= 32) {
    bar.wait(bar.arrive());
    out[blockIdx.x * n + t] = buf[t % 32] * (int)(t / 32);
  } else {
    buf[t] = in[blockIdx.x * 32 + t] + 5;
    (void)bar.arrive();
    out[blockIdx.x * n + t] = -1;
  }
}

extern "C" __global__ void named(const int *in, int *out) {
  __shared__ int buf[64];
  unsigned t = threadIdx.x;
  if (t < 32) {
    buf[t] = in[blockIdx.x * 64 + t] * 3;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    asm volatile("bar.sync 2, 64;" ::: "memory");
    out[blockIdx.x * 64 + t] = buf[63 - t];
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    buf[t] = buf[t - 32] + in[blockIdx.x * 64 + t];
    asm volatile("bar.arrive 2, 64;" ::: "memory");
    out[blockIdx.x * 64 + t] = buf[t - 32];
  }
}
