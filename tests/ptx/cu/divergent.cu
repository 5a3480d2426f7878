// Divergent loops: each thread runs a data-dependent number of iterations (Collatz steps), so
// the lanes of a warp leave the loop at different times.
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = in[i], k = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    k++;
  }
  steps[i] = k;
}
