// A divergent loop: each thread iterates its own number of times (Collatz steps), with break.
extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, double *dout) {
  unsigned n = in[threadIdx.x + blockIdx.x * blockDim.x];
  unsigned s = 0;
  double acc = 0.0;
  while (n != 1) {
    if (s > 1000)
      break;
    n = (n & 1) ? 3 * n + 1 : n / 2;
    acc += 1.0 / (double)(s + 1);
    s++;
  }
  steps[threadIdx.x] = s;
  dout[threadIdx.x] = sqrt(acc) * 0.5;
}
