/* bench.h - what the benchmarks share: clocks, the median, and the vector-add kernel they time. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stdlib.h>
#include <time.h>

static inline double bench_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the process (all its threads): steadier than wall time on a shared machine */
static inline double bench_cpu_s(void) { return bench_clock(CLOCK_PROCESS_CPUTIME_ID); }
static inline double bench_wall_s(void) { return bench_clock(CLOCK_MONOTONIC); }

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of v[0..n), sorting v. */
static inline double bench_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return v[n / 2];
}

/* The gpu.module of the vector add every kernel benchmark times: c[i] = a[i] + b[i] for i < n,
 * one thread per element, i = block_id x * block_dim x + thread_id x. */
#define BENCH_VADD_KERNEL \
  "  gpu.module @k {\n" \
  "    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {\n" \
  "      %bx = gpu.block_id x\n" \
  "      %bd = gpu.block_dim x\n" \
  "      %tx = gpu.thread_id x\n" \
  "      %i0 = arith.muli %bx, %bd : index\n" \
  "      %i = arith.addi %i0, %tx : index\n" \
  "      %ok = arith.cmpi slt, %i, %n : index\n" \
  "      scf.if %ok {\n" \
  "        %x = memref.load %a[%i] : memref<?xf32>\n" \
  "        %y = memref.load %b[%i] : memref<?xf32>\n" \
  "        %s = arith.addf %x, %y : f32\n" \
  "        memref.store %s, %c[%i] : memref<?xf32>\n" \
  "      }\n" \
  "      gpu.return\n" \
  "    }\n" \
  "  }\n"

#endif
