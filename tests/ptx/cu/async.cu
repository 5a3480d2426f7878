// Asynchronous copies and the barriers that wait for them (sm_80+, sm_90 here).
// cp_pipe: a two-stage pipeline of __pipeline_memcpy_async (cp.async.ca, 4 bytes) with
//   __pipeline_commit / __pipeline_wait_prior(1) (cp.async.commit_group / wait_group 1): each
//   thread copies stage s + 1 while the block reads stage s, a neighbour's element.
// cp_zfill: 16-byte copies (cp.async.cg) whose source size is 0 past n: the rest zero-filled.
// bar_copy: cuda::memcpy_async into shared memory completed through a cuda::barrier (cp.async,
//   cp.async.mbarrier.arrive, mbarrier.arrive and a try_wait loop), then a neighbour's element.
// bulk_copy: thread 0 copies the block's 1 KiB with one cuda::memcpy_async of a 16-byte aligned
//   size (cp.async.bulk completing its bytes on the barrier, mbarrier.expect_tx after it); all wait.
#include <cuda/barrier>
#include <cuda_pipeline.h>

extern "C" __global__ void cp_pipe(const int *in, int *out) {
  __shared__ int buf[2][64];
  unsigned t = threadIdx.x, n = blockDim.x;
  const int *src = in + blockIdx.x * n * 4;
  int *dst = out + blockIdx.x * n * 4;
  __pipeline_memcpy_async(&buf[0][t], &src[t], 4);
  __pipeline_commit();
  for (unsigned s = 0; s < 4; s++) {
    if (s + 1 < 4)
      __pipeline_memcpy_async(&buf[(s + 1) & 1][t], &src[(s + 1) * n + t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    dst[s * n + t] = buf[s & 1][(t + 1) % n] * 2 + (int)s;
    __syncthreads();
  }
}

extern "C" __global__ void cp_zfill(const int4 *in, int4 *out, int n) {
  __shared__ int4 buf[64];
  unsigned t = threadIdx.x;
  __pipeline_memcpy_async(&buf[t], &in[t], 16, t < (unsigned)n ? 0 : 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  int4 v = buf[63 - t];
  out[t] = make_int4(v.x + 1, v.y, v.z, v.w - 1);
}

extern "C" __global__ void bar_copy(const int *in, int *out) {
  __shared__ int buf[128];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  cuda::memcpy_async(&buf[t], &in[blockIdx.x * n + t], sizeof(int), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * n + t] = buf[(t + 3) % n] - buf[t];
}

extern "C" __global__ void bulk_copy(const int *in, int *out) {
  __shared__ alignas(16) int buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0)
    init(&bar, n);
  __syncthreads();
  if (t == 0)
    cuda::memcpy_async(buf, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(buf)), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * n + t] = buf[(t * 7) % 256] + buf[255 - t];
}
