// Tensor-core wmma, cp.async through the pipeline primitives, a tile reduce, __ldg and clock64.
#include <mma.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void wmma_k(const half *a, const half *b, float *c, const float *g, float *o) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  __shared__ float s[128];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  float v = cg::reduce(t, s[threadIdx.x], cg::plus<float>());
  o[threadIdx.x] = v + __ldg(&g[0]) + (float)clock64();
}
