/* bench/launch - what a kernel launch costs as it grows, each figure against a peer measured in the
 * same run; every figure is the median of RUNS rounds, and each round runs the peer and then the
 * programs, so load from elsewhere on the machine weighs on both sides alike.
 *
 *   vector add     c[i] = a[i] + b[i] (f32) over 2^10, 2^16, 2^20 and 2^24 elements, in blocks of
 *                  32, 128, 256 and 1024 threads. Peer: the same loop in C, compiled with this file
 *                  (-O2). Target: within 3x at 2^16 elements for every block size.
 *   fixed cost     the same kernel over 1, 256 and 4096 blocks of 32 threads (32 to 131072
 *                  elements): a launch's time minus its elements times the time per element of
 *                  the 2^24-element launch of the same block size, i.e. what a launch costs beyond
 *                  its work. Target: <= 10 us at every block count.
 *   schedulers     the sim's `threads` scheduler against `serial`: the 2^24-element launch in blocks
 *                  of 256 threads (its blocks can run on every core: target >= 1.7x on 2 cores in
 *                  wall time), and a program of async ops (memset, small kernel, copy, each waiting
 *                  for the one before) in one chain (nothing to run in parallel: target >= 1x) and
 *                  in two independent chains (target > 1x), and two chains whose kernels take some
 *                  tens of microseconds each (target > 1x). Each round runs every program under both
 *                  schedulers back to back, in turns serial first and threads first, and the figure
 *                  is the median over rounds of the pair's ratio (SCHED_RUNS rounds), so that a
 *                  burst of load from elsewhere falls on both sides of one pair; the load average at
 *                  the end is printed with it. Where other work keeps the CPUs busy, wall time shows
 *                  that work: `chrt -f 1 build/bench/launch sched` makes it wait while this runs.
 *
 * A launch's time is that of a program that sets up its buffers and launches the kernel REPS times,
 * minus the time of the same program without the launches, over REPS (REPS grows as the launch
 * shrinks, so that each program runs for some milliseconds). Times are the CPU time of the process
 * (every thread), steadier than wall time on a shared machine; the scheduler figures print wall
 * time too, since only wall time can show work spread over cores, and wall time on a loaded
 * machine shows it only when a core is free. Race detection is on, as gpuinterp runs by default.
 *
 * Usage: bench/launch [quick|sched [ROUNDS]]   (quick: one round and fewer sizes, for a smoke test;
 *        sched: the schedulers alone at 2^24, ROUNDS pairs of rounds, SCHED_RUNS unless given)
 */
#include "bench/bench.h"
#include "backends/backend.h"
#include "interp/interp.h"
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { RUNS = 5, SCHED_RUNS = 11, RUNS_MAX = 41 };
static int runs = RUNS, sched_runs = SCHED_RUNS;

static double median(const double *v, int n) {
  double t[RUNS_MAX];
  memcpy(t, v, (size_t)n * sizeof *t);
  return bench_median(t, n);
}

/* ---- programs ---------------------------------------------------------------------------------- */

static const char vadd_kernel[] =
    BENCH_VADD_KERNEL;

/* The same signature, a kernel of about a hundred microseconds in blocks of 64 threads: each thread
 * adds b[i] to a[i] 4000 times. */
static const char long_kernel[] =
    "  gpu.module @k {\n"
    "    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {\n"
    "      %bx = gpu.block_id x\n"
    "      %bd = gpu.block_dim x\n"
    "      %tx = gpu.thread_id x\n"
    "      %i0 = arith.muli %bx, %bd : index\n"
    "      %i = arith.addi %i0, %tx : index\n"
    "      %ok = arith.cmpi slt, %i, %n : index\n"
    "      scf.if %ok {\n"
    "        %x = memref.load %a[%i] : memref<?xf32>\n"
    "        %y = memref.load %b[%i] : memref<?xf32>\n"
    "        %z0 = arith.constant 0 : index\n"
    "        %z1 = arith.constant 1 : index\n"
    "        %zn = arith.constant 4000 : index\n"
    "        %s = scf.for %j = %z0 to %zn step %z1 iter_args(%acc = %x) -> (f32) {\n"
    "          %t = arith.addf %acc, %y : f32\n"
    "          scf.yield %t : f32\n"
    "        }\n"
    "        memref.store %s, %c[%i] : memref<?xf32>\n"
    "      }\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n";

/* @base sets up and frees the buffers; @run does the same around `reps` launches of the kernel
 * over n elements in blocks of bs threads. */
static char *vadd_program(long n, long bs, long reps) {
  static const char fmt[] =
      "module attributes {gpu.container_module} {\n"
      "%s"
      "  func.func @body(%%reps: index) {\n"
      "    %%c1 = arith.constant 1 : index\n"
      "    %%n = arith.constant %ld : index\n"
      "    %%bs = arith.constant %ld : index\n"
      "    %%nb = arith.constant %ld : index\n"
      "    %%a = gpu.alloc (%%n) : memref<?xf32>\n"
      "    %%b = gpu.alloc (%%n) : memref<?xf32>\n"
      "    %%c = gpu.alloc (%%n) : memref<?xf32>\n"
      "    %%one = arith.constant 1.0 : f32\n"
      "    gpu.memset %%a, %%one : memref<?xf32>, f32\n"
      "    gpu.memset %%b, %%one : memref<?xf32>, f32\n"
      "    gpu.memset %%c, %%one : memref<?xf32>, f32\n"
      "    %%l0 = arith.constant 0 : index\n"
      "    scf.for %%r = %%l0 to %%reps step %%c1 {\n"
      "      gpu.launch_func @k::@vadd blocks in (%%nb, %%c1, %%c1) threads in (%%bs, %%c1, %%c1)\n"
      "          args(%%a : memref<?xf32>, %%b : memref<?xf32>, %%c : memref<?xf32>, %%n : index)\n"
      "    }\n"
      "    gpu.dealloc %%a : memref<?xf32>\n"
      "    gpu.dealloc %%b : memref<?xf32>\n"
      "    gpu.dealloc %%c : memref<?xf32>\n"
      "    return\n"
      "  }\n"
      "  func.func @base() {\n"
      "    %%f = arith.constant 0 : index\n"
      "    call @body(%%f) : (index) -> ()\n"
      "    return\n"
      "  }\n"
      "  func.func @run() {\n"
      "    %%t = arith.constant %ld : index\n"
      "    call @body(%%t) : (index) -> ()\n"
      "    return\n"
      "  }\n"
      "}\n";
  size_t cap = sizeof fmt + sizeof vadd_kernel + 128;
  char *s = malloc(cap);
  if (!s)
    exit(1);
  snprintf(s, cap, fmt, vadd_kernel, n, bs, (n + bs - 1) / bs, reps);
  return s;
}

/* Async ops in `chains` independent chains, each on buffers of its own: per step a memset, a
 * launch of `kernel`'s @k::@vadd in 2 blocks of 64 threads and a copy, each waiting for the one
 * before; one host wait at the end. @base runs no step. */
static char *dag_program(const char *kernel, int chains, long steps) {
  size_t cap = 16384;
  char *s = malloc(cap);
  if (!s)
    exit(1);
  int o = snprintf(s, cap, "module attributes {gpu.container_module} {\n%s", kernel);
  o += snprintf(s + o, cap - (size_t)o,
                "  func.func @body(%%steps: index) {\n"
                "    %%c0 = arith.constant 0 : index\n"
                "    %%c1 = arith.constant 1 : index\n"
                "    %%c2 = arith.constant 2 : index\n"
                "    %%c64 = arith.constant 64 : index\n"
                "    %%n = arith.constant 128 : index\n"
                "    %%v = arith.constant 2.0 : f32\n");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o,
                  "    %%a%d = gpu.alloc (%%n) : memref<?xf32>\n"
                  "    %%b%d = gpu.alloc (%%n) : memref<?xf32>\n"
                  "    %%d%d = gpu.alloc (%%n) : memref<?xf32>\n"
                  "    gpu.memset %%b%d, %%v : memref<?xf32>, f32\n"
                  "    %%t%d = gpu.wait async\n",
                  c, c, c, c, c);
  o += snprintf(s + o, cap - (size_t)o, "    %%r:%d = scf.for %%i = %%c0 to %%steps step %%c1 iter_args(", chains);
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o, "%s%%p%d = %%t%d", c ? ", " : "", c, c);
  o += snprintf(s + o, cap - (size_t)o, ") -> (");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o, "%s!gpu.async.token", c ? ", " : "");
  o += snprintf(s + o, cap - (size_t)o, ") {\n");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o,
                  "      %%m%d = gpu.memset async [%%p%d] %%a%d, %%v : memref<?xf32>, f32\n"
                  "      %%k%d = gpu.launch_func async [%%m%d] @k::@vadd blocks in (%%c2, %%c1, %%c1)"
                  " threads in (%%c64, %%c1, %%c1)\n"
                  "          args(%%a%d : memref<?xf32>, %%b%d : memref<?xf32>, %%a%d : memref<?xf32>, %%n : index)\n"
                  "      %%y%d = gpu.memcpy async [%%k%d] %%d%d, %%a%d : memref<?xf32>, memref<?xf32>\n",
                  c, c, c, c, c, c, c, c, c, c, c, c);
  o += snprintf(s + o, cap - (size_t)o, "      scf.yield ");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o, "%s%%y%d", c ? ", " : "", c);
  o += snprintf(s + o, cap - (size_t)o, " : ");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o, "%s!gpu.async.token", c ? ", " : "");
  o += snprintf(s + o, cap - (size_t)o, "\n    }\n    gpu.wait [");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o, "%s%%r#%d", c ? ", " : "", c);
  o += snprintf(s + o, cap - (size_t)o, "]\n");
  for (int c = 0; c < chains; c++)
    o += snprintf(s + o, cap - (size_t)o,
                  "    gpu.dealloc %%a%d : memref<?xf32>\n    gpu.dealloc %%b%d : memref<?xf32>\n"
                  "    gpu.dealloc %%d%d : memref<?xf32>\n",
                  c, c, c);
  snprintf(s + o, cap - (size_t)o,
           "    return\n  }\n"
           "  func.func @base() {\n    %%f = arith.constant 0 : index\n"
           "    call @body(%%f) : (index) -> ()\n    return\n  }\n"
           "  func.func @run() {\n    %%t = arith.constant %ld : index\n"
           "    call @body(%%t) : (index) -> ()\n    return\n  }\n}\n",
           steps);
  return s;
}

/* ---- running them ------------------------------------------------------------------------------ */

typedef struct Prog {
  const char *name;
  Backend *be;
  IrCtx *ctx;
  Interp *in;
  long reps;
  double cpu[RUNS_MAX], wall[RUNS_MAX]; /* per rep: @run minus @base */
} Prog;

static Backend *backend(const char *sched) {
  BeOptions bo = {0};
  bo.sched = sched;
  Backend *be = NULL;
  char err[256];
  if (be_open("sim", &bo, &be, err, sizeof err) != BE_OK) {
    fprintf(stderr, "bench: %s\n", err);
    exit(1);
  }
  return be;
}

static void prog_open(Prog *p, Backend *be, const char *name, char *src, long reps) {
  p->name = name;
  p->be = be;
  p->reps = reps;
  p->ctx = ir_ctx_create();
  Op *top = ir_parse(p->ctx, name, src, strlen(src));
  if (!top || ir_verify(p->ctx, top)) {
    fprintf(stderr, "bench: %s does not parse\n", name);
    exit(1);
  }
  InterpOptions io = {.be = be, .out = stdout};
  p->in = interp_create(p->ctx, top, &io);
  if (!p->in) {
    fprintf(stderr, "bench: %s does not compile\n", name);
    exit(1);
  }
  free(src);
}

static void prog_round(Prog *p, int r) {
  double c0 = bench_cpu_s(), w0 = bench_wall_s();
  unsigned e1 = interp_run(p->in, "base");
  double c1 = bench_cpu_s(), w1 = bench_wall_s();
  unsigned e2 = interp_run(p->in, "run");
  double c2 = bench_cpu_s(), w2 = bench_wall_s();
  if (e1 || e2 || be_error_count(p->be)) {
    fprintf(stderr, "bench: %s failed\n", p->name);
    exit(1);
  }
  p->cpu[r] = ((c2 - c1) - (c1 - c0)) / (double)p->reps;
  p->wall[r] = ((w2 - w1) - (w1 - w0)) / (double)p->reps;
}

static void prog_close(Prog *p) {
  interp_destroy(p->in);
  ir_ctx_destroy(p->ctx);
}

static double prog_cpu(const Prog *p) {
  double t = median(p->cpu, runs);
  return t > 1e-12 ? t : 1e-12;
}

static double prog_wall(const Prog *p) {
  double t = median(p->wall, runs);
  return t > 1e-12 ? t : 1e-12;
}

/* The median over rounds of a / b, each round's pair apart (times floored as above). */
static double median_ratio(const double *a, const double *b, int n) {
  double q[RUNS_MAX];
  for (int r = 0; r < n; r++)
    q[r] = (a[r] > 1e-12 ? a[r] : 1e-12) / (b[r] > 1e-12 ? b[r] : 1e-12);
  return median(q, n);
}

/* ---- the peer ---------------------------------------------------------------------------------- */

__attribute__((noinline)) static void vadd_c(const float *a, const float *b, float *c, long n) {
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

/* CPU seconds per call of vadd_c over n elements, buffers touched beforehand (as the program's
 * memsets touch them), repeated like the launches. */
static double peer_vadd(long n, long reps) {
  float *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4), *c = malloc((size_t)n * 4);
  if (!a || !b || !c)
    exit(1);
  for (long i = 0; i < n; i++)
    a[i] = b[i] = c[i] = 1;
  double t0 = bench_cpu_s();
  for (long r = 0; r < reps; r++) {
    vadd_c(a, b, c, n);
    __asm__ __volatile__("" : : "r"(c) : "memory");
  }
  double t = (bench_cpu_s() - t0) / (double)reps;
  free(a);
  free(b);
  free(c);
  return t;
}

/* ---- main -------------------------------------------------------------------------------------- */

static const long sizes[] = {1L << 10, 1L << 16, 1L << 20, 1L << 24};
static const long bsizes[] = {32, 128, 256, 1024};
static const long fixed_blocks[] = {1, 256, 4096};
enum { NS = 4, NB = 4, NF = 3, NSCHED = 4 };

/* launches enough for some milliseconds of work at about 1 ns per element */
static long reps_for(long n) {
  long r = (1L << 23) / n;
  return r < 4 ? 4 : r > 2048 ? 2048 : r;
}

int main(int argc, char **argv) {
  bool quick = argc > 1 && !strcmp(argv[1], "quick"), only_sched = argc > 1 && !strcmp(argv[1], "sched");
  int ns = NS;
  if (quick) {
    runs = sched_runs = 1;
    ns = 3; /* up to 2^20 */
  }
  if (only_sched && argc > 2)
    sched_runs = atoi(argv[2]);
  if (sched_runs < 1 || sched_runs > RUNS_MAX) {
    fprintf(stderr, "bench: rounds must be in [1, %d]\n", RUNS_MAX);
    return 2;
  }
  Backend *serial = backend("serial"), *threads = backend("threads");
  static Prog va[NS][NB], fx[NF], sch[2][NSCHED];
  for (int i = 0; i < ns && !only_sched; i++)
    for (int j = 0; j < NB; j++)
      prog_open(&va[i][j], serial, "vadd.mlir", vadd_program(sizes[i], bsizes[j], reps_for(sizes[i])),
                reps_for(sizes[i]));
  for (int i = 0; i < NF && !only_sched; i++) {
    long n = fixed_blocks[i] * 32;
    prog_open(&fx[i], serial, "fixed.mlir", vadd_program(n, 32, reps_for(n)), reps_for(n));
  }
  long big = sizes[ns - 1], dsteps = quick ? 200 : 2000;
  for (int s = 0; s < 2; s++) {
    Backend *be = s ? threads : serial;
    prog_open(&sch[s][0], be, "vadd-big.mlir", vadd_program(big, 256, 8), 8);
    prog_open(&sch[s][1], be, "dag-chain.mlir", dag_program(vadd_kernel, 1, dsteps), dsteps);
    prog_open(&sch[s][2], be, "dag-two-chains.mlir", dag_program(vadd_kernel, 2, dsteps), dsteps);
    prog_open(&sch[s][3], be, "dag-two-long-chains.mlir", dag_program(long_kernel, 2, dsteps / 4), dsteps / 4);
  }
  double peer[NS][RUNS_MAX];
  for (int r = 0; r < runs; r++) {
    for (int i = 0; i < ns && !only_sched; i++)
      peer[i][r] = peer_vadd(sizes[i], reps_for(sizes[i]));
    for (int i = 0; i < ns && !only_sched; i++)
      for (int j = 0; j < NB; j++)
        prog_round(&va[i][j], r);
    for (int i = 0; i < NF && !only_sched; i++)
      prog_round(&fx[i], r);
  }
  for (int r = 0; r < sched_runs; r++)
    for (int i = 0; i < NSCHED; i++) /* a pair: serial then threads, then the other way round */
      for (int k = 0; k < 2; k++)
        prog_round(&sch[(r & 1) ^ k][i], r);

  if (!only_sched)
    printf("bench/launch: median of %d rounds, CPU time of the process unless marked wall; race detection on\n\n",
           runs);
  if (!only_sched) {
    printf("vector add, ns per element (interp / C peer = ratio; target <= 3x at 2^16)\n");
    printf("%10s %10s", "elements", "C peer");
    for (int j = 0; j < NB; j++)
      printf("      block %-4ld      ", bsizes[j]);
    printf("\n");
    for (int i = 0; i < ns; i++) {
      double pn = median(peer[i], runs) / (double)sizes[i] * 1e9;
      printf("%10ld %8.3fns", sizes[i], pn);
      for (int j = 0; j < NB; j++) {
        double t = prog_cpu(&va[i][j]) / (double)sizes[i] * 1e9;
        printf("   %8.3fns %6.2fx%s", t, t / pn, i == 1 ? (t / pn <= 3 ? " ok" : " NO") : "   ");
      }
      printf("\n");
    }

    int bi = 0; /* block 32 */
    double slope = prog_cpu(&va[ns - 1][bi]) / (double)sizes[ns - 1];
    printf("\nfixed cost per launch, blocks of 32 threads (launch - elements x %.3f ns; target <= 10 us)\n",
           slope * 1e9);
    printf("%10s %10s %12s %12s\n", "blocks", "elements", "launch", "fixed");
    for (int i = 0; i < NF; i++) {
      long n = fixed_blocks[i] * 32;
      double t = prog_cpu(&fx[i]), f = t - (double)n * slope;
      printf("%10ld %10ld %10.2fus %10.2fus %s\n", fixed_blocks[i], n, t * 1e6, f * 1e6, f <= 10e-6 ? "ok" : "NO");
    }
  }

  char big_what[40];
  snprintf(big_what, sizeof big_what, "vector add 2^%d, blocks of 256", __builtin_ctzl((unsigned long)big));
  const char *what[NSCHED] = {big_what, "async chain (nothing parallel)", "two independent async chains",
                              "two chains of long kernels"};
  static const char *target[NSCHED] = {">= 1.7x wall", ">= 1x wall", "> 1x wall", "> 1x wall"};
  runs = sched_runs;
  printf("\nschedulers, per launch or per step of 3 async ops; times: medians of %d rounds; speedup: median of\n"
         "the rounds' serial / threads, each round's pair run back to back; race detection on\n", runs);
  printf("%-32s %10s %10s %8s %10s %10s %8s  %s\n", "program", "serial", "threads", "cpu", "serial", "threads",
         "wall", "target");
  for (int i = 0; i < NSCHED; i++) {
    double cs = prog_cpu(&sch[0][i]), ct = prog_cpu(&sch[1][i]);
    double ws = prog_wall(&sch[0][i]), wt = prog_wall(&sch[1][i]);
    double cq = median_ratio(sch[0][i].cpu, sch[1][i].cpu, runs), wq = median_ratio(sch[0][i].wall, sch[1][i].wall, runs);
    double goal = i == 0 ? 1.7 : 1;
    bool met = i >= 2 ? wq > goal : wq >= goal;
    printf("%-32s %8.2fus %8.2fus %7.2fx %8.2fus %8.2fus %7.2fx  %-12s %s\n", what[i], cs * 1e6, ct * 1e6, cq,
           ws * 1e6, wt * 1e6, wq, target[i], met ? "ok" : "NO");
  }
  double la[3] = {0};
  FILE *lf = fopen("/proc/loadavg", "r");
  if (lf) {
    if (fscanf(lf, "%lf %lf %lf", &la[0], &la[1], &la[2]) != 3)
      la[0] = la[1] = la[2] = 0;
    fclose(lf);
  }
  printf("load average at the end: %.2f %.2f %.2f (on %ld CPUs)\n", la[0], la[1], la[2], sysconf(_SC_NPROCESSORS_ONLN));
  for (int i = 0; i < ns && !only_sched; i++)
    for (int j = 0; j < NB; j++)
      prog_close(&va[i][j]);
  for (int i = 0; i < NF && !only_sched; i++)
    prog_close(&fx[i]);
  for (int s = 0; s < 2; s++)
    for (int i = 0; i < NSCHED; i++)
      prog_close(&sch[s][i]);
  be_close(serial, NULL);
  be_close(threads, NULL);
  return 0;
}
