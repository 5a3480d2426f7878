/* bench/kernels - how fast the interpreter runs kernels, each figure as a ratio against a peer
 * measured in the same run. Every figure is the median of RUNS runs.
 *
 *   vector add   c[i] = a[i] + b[i] over 16M f32 in blocks of 256 threads. Peer: the same loop
 *                in C, compiled with gcc -O2 here (source and flags printed). Target: <= 3x.
 *   matmul       512x512 f32, one thread per output element, 16x16 blocks, k loop in the kernel.
 *                Peer: the same triple loop in C. Target: <= 3x.
 *   reduction    sums of 4M f32 per block of 256 threads: a tree in workgroup memory with a
 *                gpu.barrier after each step. Peer: the same kernel without the barriers (which in
 *                lock step computes the same, but races: it runs with the shared-memory race
 *                checks off, the barrier variant with them on). Target: <= 1.5x. The C loop is
 *                printed for scale.
 *
 * A kernel's time is the time of a program that sets up its buffers and launches it LAUNCHES (4)
 * times, minus the time of the same program without the launches, over LAUNCHES (setting up
 * hundreds of MB costs page faults whose noise would otherwise swamp a single launch), the latter
 * run once untimed before both (prog_round); both run in this process, on the sim backend with
 * race detection on (as gpuinterp runs by default). Times are CPU time of the process (every
 * thread), on both sides: wall time swings with whatever else the machine runs, and the sim's
 * workers only add CPU time they spend. Each of the five rounds runs the peer once and
 * then every program, so load from elsewhere on the machine weighs on both sides alike.
 *
 * Usage: bench/kernels [sched]   (the sim's scheduler; default serial: one thread runs the kernel,
 *                                  as one thread runs the peer. With threads, a host that waits
 *                                  for a kernel spins a while, which CPU time counts.)
 *        bench/kernels nvvm [sched]   each kernel at three sizes against its llvm + nvvm form
 *                                  (section "nvvm" below; bench/scale-nvvm.sh runs it)
 *        bench/kernels ptx [sched]    each kernel at three sizes against its PTX form and the C
 *                                  peer (section "nvvm" below; bench/scale-ptx.sh runs it)
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

enum { RUNS = 5 };
/* @run launches the kernel this many times (on the same buffers), @base none: the difference over
 * LAUNCHES is one launch, with the noise of setting up the buffers (page faults of hundreds of MB)
 * divided by as much. */
#define LAUNCHES 4
#define STR_(x) #x
#define STR(x) STR_(x)
#define LAUNCHES_S STR(LAUNCHES)

/* ---- the kernels ------------------------------------------------------------------------------ */

/* @base sets up and frees the buffers; @run does the same around LAUNCHES launches. */
static const char vadd_src[] =
    "module attributes {gpu.container_module} {\n"
    BENCH_VADD_KERNEL
    "  func.func @body(%launches: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %n = arith.constant 16777216 : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %nb = arith.constant 65536 : index\n"
    "    %a = gpu.alloc (%n) : memref<?xf32>\n"
    "    %b = gpu.alloc (%n) : memref<?xf32>\n"
    "    %c = gpu.alloc (%n) : memref<?xf32>\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    gpu.memset %a, %one : memref<?xf32>, f32\n"
    "    gpu.memset %b, %one : memref<?xf32>, f32\n"
    "    gpu.memset %c, %one : memref<?xf32>, f32\n"
    "    %l0 = arith.constant 0 : index\n"
    "    %l1 = arith.constant 1 : index\n"
    "    scf.for %r = %l0 to %launches step %l1 {\n"
    "      gpu.launch_func @k::@vadd blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1)\n"
    "          args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)\n"
    "    }\n"
    "    gpu.dealloc %a : memref<?xf32>\n"
    "    gpu.dealloc %b : memref<?xf32>\n"
    "    gpu.dealloc %c : memref<?xf32>\n"
    "    return\n"
    "  }\n"
    "  func.func @base() {\n"
    "    %f = arith.constant 0 : index\n"
    "    call @body(%f) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @run() {\n"
    "    %t = arith.constant " LAUNCHES_S " : index\n"
    "    call @body(%t) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "}\n";

static const char matmul_src[] =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k {\n"
    "    gpu.func @mm(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) kernel {\n"
    "      %bx = gpu.block_id x\n"
    "      %by = gpu.block_id y\n"
    "      %tx = gpu.thread_id x\n"
    "      %ty = gpu.thread_id y\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %c1 = arith.constant 1 : index\n"
    "      %c16 = arith.constant 16 : index\n"
    "      %c512 = arith.constant 512 : index\n"
    "      %r0 = arith.muli %by, %c16 : index\n"
    "      %row = arith.addi %r0, %ty : index\n"
    "      %q0 = arith.muli %bx, %c16 : index\n"
    "      %col = arith.addi %q0, %tx : index\n"
    "      %z = arith.constant 0.0 : f32\n"
    "      %sum = scf.for %k = %c0 to %c512 step %c1 iter_args(%acc = %z) -> (f32) {\n"
    "        %x = memref.load %a[%row, %k] : memref<512x512xf32>\n"
    "        %y = memref.load %b[%k, %col] : memref<512x512xf32>\n"
    "        %p = arith.mulf %x, %y : f32\n"
    "        %s = arith.addf %acc, %p : f32\n"
    "        scf.yield %s : f32\n"
    "      }\n"
    "      memref.store %sum, %c[%row, %col] : memref<512x512xf32>\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  func.func @body(%launches: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c16 = arith.constant 16 : index\n"
    "    %c32 = arith.constant 32 : index\n"
    "    %a = gpu.alloc () : memref<512x512xf32>\n"
    "    %b = gpu.alloc () : memref<512x512xf32>\n"
    "    %c = gpu.alloc () : memref<512x512xf32>\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    gpu.memset %a, %one : memref<512x512xf32>, f32\n"
    "    gpu.memset %b, %one : memref<512x512xf32>, f32\n"
    "    %l0 = arith.constant 0 : index\n"
    "    %l1 = arith.constant 1 : index\n"
    "    scf.for %r = %l0 to %launches step %l1 {\n"
    "      gpu.launch_func @k::@mm blocks in (%c32, %c32, %c1) threads in (%c16, %c16, %c1)\n"
    "          args(%a : memref<512x512xf32>, %b : memref<512x512xf32>, %c : memref<512x512xf32>)\n"
    "    }\n"
    "    gpu.dealloc %a : memref<512x512xf32>\n"
    "    gpu.dealloc %b : memref<512x512xf32>\n"
    "    gpu.dealloc %c : memref<512x512xf32>\n"
    "    return\n"
    "  }\n"
    "  func.func @base() {\n"
    "    %f = arith.constant 0 : index\n"
    "    call @body(%f) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @run() {\n"
    "    %t = arith.constant " LAUNCHES_S " : index\n"
    "    call @body(%t) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "}\n";

/* %BARRIER% is replaced by gpu.barrier or by nothing */
static const char reduce_src[] =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k {\n"
    "    gpu.func @reduce(%in: memref<?xf32>, %out: memref<?xf32>)\n"
    "        workgroup(%sh: memref<256xf32, #gpu.address_space<workgroup>>) kernel {\n"
    "      %bx = gpu.block_id x\n"
    "      %tx = gpu.thread_id x\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %c2 = arith.constant 2 : index\n"
    "      %c128 = arith.constant 128 : index\n"
    "      %c256 = arith.constant 256 : index\n"
    "      %i0 = arith.muli %bx, %c256 : index\n"
    "      %i = arith.addi %i0, %tx : index\n"
    "      %v = memref.load %in[%i] : memref<?xf32>\n"
    "      memref.store %v, %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>\n"
    "      %BARRIER%\n"
    "      %r = scf.while (%s = %c128) : (index) -> index {\n"
    "        %go = arith.cmpi ugt, %s, %c0 : index\n"
    "        scf.condition(%go) %s : index\n"
    "      } do {\n"
    "      ^bb0(%s: index):\n"
    "        %lo = arith.cmpi ult, %tx, %s : index\n"
    "        scf.if %lo {\n"
    "          %j = arith.addi %tx, %s : index\n"
    "          %a = memref.load %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>\n"
    "          %b = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>\n"
    "          %t = arith.addf %a, %b : f32\n"
    "          memref.store %t, %sh[%tx] : memref<256xf32, #gpu.address_space<workgroup>>\n"
    "        }\n"
    "        %BARRIER%\n"
    "        %h = arith.divui %s, %c2 : index\n"
    "        scf.yield %h : index\n"
    "      }\n"
    "      %first = arith.cmpi eq, %tx, %c0 : index\n"
    "      scf.if %first {\n"
    "        %t = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>\n"
    "        memref.store %t, %out[%bx] : memref<?xf32>\n"
    "      }\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  func.func @body(%launches: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %n = arith.constant 4194304 : index\n"
    "    %nb = arith.constant 16384 : index\n"
    "    %in = gpu.alloc (%n) : memref<?xf32>\n"
    "    %out = gpu.alloc (%nb) : memref<?xf32>\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    gpu.memset %in, %one : memref<?xf32>, f32\n"
    "    %l0 = arith.constant 0 : index\n"
    "    %l1 = arith.constant 1 : index\n"
    "    scf.for %r = %l0 to %launches step %l1 {\n"
    "      gpu.launch_func @k::@reduce blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1)\n"
    "          args(%in : memref<?xf32>, %out : memref<?xf32>)\n"
    "    }\n"
    "    gpu.dealloc %in : memref<?xf32>\n"
    "    gpu.dealloc %out : memref<?xf32>\n"
    "    return\n"
    "  }\n"
    "  func.func @base() {\n"
    "    %f = arith.constant 0 : index\n"
    "    call @body(%f) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @run() {\n"
    "    %t = arith.constant " LAUNCHES_S " : index\n"
    "    call @body(%t) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "}\n";

/* src with every %BARRIER% replaced by with (malloc'ed) */
static char *substitute(const char *src, const char *with) {
  size_t n = strlen(src) + 16 * strlen(with) + 1;
  char *out = malloc(n), *o = out;
  const char *key = "%BARRIER%";
  for (const char *s = src; *s;) {
    if (!strncmp(s, key, strlen(key))) {
      o += sprintf(o, "%s", with);
      s += strlen(key);
    } else {
      *o++ = *s++;
    }
  }
  *o = 0;
  return out;
}

static const char *sched = "serial";

/* One kernel's program, ready to run: @base and @run, timed per round. */
typedef struct Prog {
  const char *name;
  IrCtx *ctx;
  Backend *be; /* shared by all programs: one pool of workers */
  Interp *in;
  double base[RUNS], run[RUNS];
} Prog;

static void prog_open(Prog *p, Backend *be, const char *name, const char *src, bool no_race_check) {
  p->name = name;
  p->be = be;
  p->ctx = ir_ctx_create();
  Op *top = ir_parse(p->ctx, name, src, strlen(src));
  if (!top || ir_verify(p->ctx, top)) {
    fprintf(stderr, "bench: %s does not parse\n", name);
    exit(1);
  }
  InterpOptions io = {.be = p->be, .out = stdout, .no_race_check = no_race_check};
  p->in = interp_create(p->ctx, top, &io);
  if (!p->in) {
    fprintf(stderr, "bench: %s does not compile\n", name);
    exit(1);
  }
}

/* One round: @base untimed (so that both timed runs start as warm as each other: the first program
 * a round runs after another one pays, in its first run, for memory the last program left behind:
 * its @base measured up to twice its own second run, 430-570 us against 250 at 64K, which the
 * launches' difference then lost), then @base and @run timed. */
static void prog_round(Prog *p, int r) {
  unsigned e0 = interp_run(p->in, "base");
  double t0 = bench_cpu_s();
  unsigned e1 = interp_run(p->in, "base");
  double t1 = bench_cpu_s();
  unsigned e2 = interp_run(p->in, "run");
  double t2 = bench_cpu_s();
  if (e0 || e1 || e2 || be_error_count(p->be)) {
    fprintf(stderr, "bench: %s failed\n", p->name);
    exit(1);
  }
  p->base[r] = t1 - t0;
  p->run[r] = t2 - t1;
}

/* Median seconds of one launch: @run minus @base, over the launches @run makes. */
static double prog_close_n(Prog *p, int launches) {
  interp_destroy(p->in);
  ir_ctx_destroy(p->ctx);
  double t = (bench_median(p->run, RUNS) - bench_median(p->base, RUNS)) / launches;
  return t > 1e-9 ? t : 1e-9;
}

static double prog_close(Prog *p) { return prog_close_n(p, LAUNCHES); }

/* ---- the peers in C ----------------------------------------------------------------------------- */

static const char native_src[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <time.h>\n"
    "static double now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);\n"
    "  return t.tv_sec + t.tv_nsec * 1e-9; }\n"
    "__attribute__((noinline)) static void vadd(const float *a, const float *b, float *c, long n) {\n"
    "  for (long i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n"
    "__attribute__((noinline)) static void mm(const float *a, const float *b, float *c, int n) {\n"
    "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { float s = 0;\n"
    "    for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j]; c[i * n + j] = s; } }\n"
    "__attribute__((noinline)) static void reduce(const float *in, float *out, long blocks) {\n"
    "  float sh[256];\n"
    "  for (long b = 0; b < blocks; b++) { for (int t = 0; t < 256; t++) sh[t] = in[b * 256 + t];\n"
    "    for (int s = 128; s > 0; s /= 2) for (int t = 0; t < s; t++) sh[t] += sh[t + s];\n"
    "    out[b] = sh[0]; } }\n"
    "/* argv: the vector add's n, the matmul's m, the reduction's rn, and how often each runs */\n"
    "int main(int argc, char **argv) {\n"
    "  long n = 16777216, rn = 4194304; int m = 512, rv = 1, rm = 1, rr = 1;\n"
    "  if (argc == 7) { n = atol(argv[1]); m = atoi(argv[2]); rn = atol(argv[3]);\n"
    "    rv = atoi(argv[4]); rm = atoi(argv[5]); rr = atoi(argv[6]); }\n"
    "  long sz = n > (long)m * m ? n : (long)m * m; sz = sz > rn ? sz : rn;\n"
    "  float *a = malloc(sz * 4), *b = malloc(sz * 4), *c = malloc(sz * 4), *o = malloc(rn / 256 * 4);\n"
    "  for (long i = 0; i < sz; i++) a[i] = b[i] = c[i] = 1;\n"
    "  double t0 = now(); for (int r = 0; r < rv; r++) vadd(a, b, c, n);\n"
    "  double t1 = now(); for (int r = 0; r < rm; r++) mm(a, b, c, m);\n"
    "  double t2 = now(); for (int r = 0; r < rr; r++) reduce(a, o, rn / 256);\n"
    "  double t3 = now();\n"
    "  printf(\"%.9f %.9f %.9f %f\\n\", (t1 - t0) / rv, (t2 - t1) / rm, (t3 - t2) / rr, c[5] + o[3]);\n"
    "  return 0; }\n";

static const char native_flags[] = "gcc -O2";

/* Builds the peer in a temporary folder; runs it once per call. */
static char peer_dir[] = "/tmp/gpuinterp-bench-XXXXXX";
static char peer_exe[128];

static bool peer_build(void) {
  char src[128], cmd[512];
  if (!mkdtemp(peer_dir))
    return false;
  snprintf(src, sizeof src, "%s/peer.c", peer_dir);
  snprintf(peer_exe, sizeof peer_exe, "%s/peer", peer_dir);
  FILE *f = fopen(src, "w");
  if (!f)
    return false;
  fputs(native_src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s -o %s %s", native_flags, peer_exe, src);
  bool ok = system(cmd) == 0;
  remove(src);
  return ok;
}

/* args: "" (the sizes above, once each) or "N M RN RV RM RR" (sizes, then repetitions) */
static bool peer_run(double out[3], const char *args) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "%s %s", peer_exe, args);
  FILE *p = popen(cmd, "r");
  bool ok = p && fscanf(p, "%lf %lf %lf", &out[0], &out[1], &out[2]) == 3;
  if (p)
    pclose(p);
  return ok;
}

static void peer_remove(void) {
  remove(peer_exe);
  remove(peer_dir);
}

/* ---- nvvm: the kernels in llvm + nvvm form against the same kernels as gpu.func ---------------- *
 *
 * `bench/kernels nvvm [sched]`: each kernel above at three sizes (small, about 10x and about 100x
 * the work), as written (gpu.func) and as upstream lowers its gpu.module, made here by
 *   mlir-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))'
 * (mlir-opt 22, $MLIR_OPT or /usr/lib/llvm-22/bin/mlir-opt): llvm.func kernels with nvvm special
 * registers, getelementptr, llvm.load/store and llvm.br/cond_br. Both forms of one program run in
 * the same rounds, timed as above (median of RUNS, launches minus the same program without them);
 * printed: each form's time per launch and nvvm / gpu.func (target: <= 1.5x).
 *
 * `bench/kernels ptx [sched]`: the same, the second form being PTX: the gpu.binary that
 *   mlir-opt -gpu-lower-to-nvvm-pipeline="cubin-format=isa"
 * makes of the program, put in place of its gpu.module (the host part stays as written). Each
 * round also runs the C peer at each size, every kernel as often as the programs launch it;
 * printed: the three times and ptx / gpu.func (target: <= 1.5x), ptx / C and gpu.func / C
 * (target: <= 3x). Both modes also run the second form with the race checks off (--no-race-check)
 * and print it against the checked run (off/nvvm, off/ptx: at most 1x; a fast path that needed the
 * checks' shadow once left PTX shared stores to a per-thread path, 4x slower unchecked than
 * checked). Without mlir-opt both modes say SKIPPED and exit 0. */

/* src with each "%KEY%" of keys replaced by the matching vals (malloc'ed) */
static char *subst(const char *src, const char *const *keys, const long long *vals, int n) {
  size_t cap = strlen(src) * 2 + 256, len = 0;
  char *out = malloc(cap);
  for (const char *s = src; *s;) {
    int hit = -1;
    for (int i = 0; i < n && hit < 0; i++)
      if (*s == '%' && !strncmp(s + 1, keys[i], strlen(keys[i])) && s[1 + strlen(keys[i])] == '%')
        hit = i;
    if (len + 32 > cap)
      out = realloc(out, cap *= 2);
    if (hit >= 0) {
      len += (size_t)sprintf(out + len, "%lld", vals[hit]);
      s += strlen(keys[hit]) + 2;
    } else {
      out[len++] = *s++;
    }
  }
  out[len] = 0;
  return out;
}

static const char nv_vadd[] =
    "module attributes {gpu.container_module} {\n"
    BENCH_VADD_KERNEL
    "  func.func @body(%launches: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %n = arith.constant %N% : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %nb = arith.constant %NB% : index\n"
    "    %a = gpu.alloc (%n) : memref<?xf32>\n"
    "    %b = gpu.alloc (%n) : memref<?xf32>\n"
    "    %c = gpu.alloc (%n) : memref<?xf32>\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    gpu.memset %a, %one : memref<?xf32>, f32\n"
    "    gpu.memset %b, %one : memref<?xf32>, f32\n"
    "    gpu.memset %c, %one : memref<?xf32>, f32\n"
    "    %l0 = arith.constant 0 : index\n"
    "    scf.for %r = %l0 to %launches step %c1 {\n"
    "      gpu.launch_func @k::@vadd blocks in (%nb, %c1, %c1) threads in (%c256, %c1, %c1)\n"
    "          args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)\n"
    "    }\n"
    "    gpu.dealloc %a : memref<?xf32>\n"
    "    gpu.dealloc %b : memref<?xf32>\n"
    "    gpu.dealloc %c : memref<?xf32>\n"
    "    return\n"
    "  }\n"
    "  func.func @base() {\n"
    "    %f = arith.constant 0 : index\n"
    "    call @body(%f) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @run() {\n"
    "    %t = arith.constant %L% : index\n"
    "    call @body(%t) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "}\n";

static const char nv_matmul[] =
    "module attributes {gpu.container_module} {\n"
    "  gpu.module @k {\n"
    "    gpu.func @mm(%a: memref<%N%x%N%xf32>, %b: memref<%N%x%N%xf32>, %c: memref<%N%x%N%xf32>) kernel {\n"
    "      %bx = gpu.block_id x\n"
    "      %by = gpu.block_id y\n"
    "      %tx = gpu.thread_id x\n"
    "      %ty = gpu.thread_id y\n"
    "      %c0 = arith.constant 0 : index\n"
    "      %c1 = arith.constant 1 : index\n"
    "      %c16 = arith.constant 16 : index\n"
    "      %cn = arith.constant %N% : index\n"
    "      %r0 = arith.muli %by, %c16 : index\n"
    "      %row = arith.addi %r0, %ty : index\n"
    "      %q0 = arith.muli %bx, %c16 : index\n"
    "      %col = arith.addi %q0, %tx : index\n"
    "      %z = arith.constant 0.0 : f32\n"
    "      %sum = scf.for %k = %c0 to %cn step %c1 iter_args(%acc = %z) -> (f32) {\n"
    "        %x = memref.load %a[%row, %k] : memref<%N%x%N%xf32>\n"
    "        %y = memref.load %b[%k, %col] : memref<%N%x%N%xf32>\n"
    "        %p = arith.mulf %x, %y : f32\n"
    "        %s = arith.addf %acc, %p : f32\n"
    "        scf.yield %s : f32\n"
    "      }\n"
    "      memref.store %sum, %c[%row, %col] : memref<%N%x%N%xf32>\n"
    "      gpu.return\n"
    "    }\n"
    "  }\n"
    "  func.func @body(%launches: index) {\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c16 = arith.constant 16 : index\n"
    "    %nb = arith.constant %NB% : index\n"
    "    %a = gpu.alloc () : memref<%N%x%N%xf32>\n"
    "    %b = gpu.alloc () : memref<%N%x%N%xf32>\n"
    "    %c = gpu.alloc () : memref<%N%x%N%xf32>\n"
    "    %one = arith.constant 1.0 : f32\n"
    "    gpu.memset %a, %one : memref<%N%x%N%xf32>, f32\n"
    "    gpu.memset %b, %one : memref<%N%x%N%xf32>, f32\n"
    "    %l0 = arith.constant 0 : index\n"
    "    scf.for %r = %l0 to %launches step %c1 {\n"
    "      gpu.launch_func @k::@mm blocks in (%nb, %nb, %c1) threads in (%c16, %c16, %c1)\n"
    "          args(%a : memref<%N%x%N%xf32>, %b : memref<%N%x%N%xf32>, %c : memref<%N%x%N%xf32>)\n"
    "    }\n"
    "    gpu.dealloc %a : memref<%N%x%N%xf32>\n"
    "    gpu.dealloc %b : memref<%N%x%N%xf32>\n"
    "    gpu.dealloc %c : memref<%N%x%N%xf32>\n"
    "    return\n"
    "  }\n"
    "  func.func @base() {\n"
    "    %f = arith.constant 0 : index\n"
    "    call @body(%f) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "  func.func @run() {\n"
    "    %t = arith.constant %L% : index\n"
    "    call @body(%t) : (index) -> ()\n"
    "    return\n"
    "  }\n"
    "}\n";

static const char *mlir_opt(void) {
  return getenv("MLIR_OPT") ? getenv("MLIR_OPT") : "/usr/lib/llvm-22/bin/mlir-opt";
}

/* What `mlir-opt ARGS` prints for src (malloc'ed), or NULL after a message. */
static char *opt_output(const char *src, const char *args) {
  char in[] = "/tmp/gpuinterp-bench-nvvm-XXXXXX", cmd[512];
  int fd = mkstemp(in);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f)
    return NULL;
  fputs(src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s %s %s", mlir_opt(), args, in);
  FILE *p = popen(cmd, "r");
  size_t cap = 1 << 16, len = 0, got;
  char *out = malloc(cap);
  while (p && (got = fread(out + len, 1, cap - len - 1, p)) > 0)
    if ((len += got) + 1 == cap)
      out = realloc(out, cap *= 2);
  out[len] = 0;
  int st = p ? pclose(p) : -1;
  remove(in);
  if (st != 0 || !len) {
    fprintf(stderr, "bench: `%s` failed\n", cmd);
    free(out);
    return NULL;
  }
  return out;
}

/* The upstream lowering of src's gpu.module (malloc'ed), or NULL after a message. */
static char *nvvm_form(const char *src) {
  return opt_output(src, "--pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))'");
}

/* src with its gpu.module @k replaced by the gpu.binary of PTX that upstream's pipeline makes of
 * it (malloc'ed): the host part stays as written, so both forms run the same host ops. */
static char *ptx_form(const char *src) {
  char *low = opt_output(src, "-gpu-lower-to-nvvm-pipeline='cubin-format=isa'");
  if (!low)
    return NULL;
  const char *bin = strstr(low, "\n  gpu.binary @k "), *mod = strstr(src, "\n  gpu.module @k {\n");
  const char *end = mod ? strstr(mod + 1, "\n  }\n") : NULL; /* the module's own closing brace */
  const char *bend = bin ? strchr(bin + 1, '\n') : NULL;
  if (!bend || !end) {
    fprintf(stderr, "bench: no gpu.binary @k in %s's output, or no gpu.module @k in the program\n", mlir_opt());
    free(low);
    return NULL;
  }
  size_t pre = (size_t)(mod - src), blen = (size_t)(bend - bin);
  end += strlen("\n  }");
  char *out = malloc(pre + blen + strlen(end) + 1);
  memcpy(out, src, pre);
  memcpy(out + pre, bin, blen);
  strcpy(out + pre + blen, end);
  free(low);
  return out;
}

enum { NV_SIZES = 3, NV_KERNELS = 3 };
enum { FORM_NVVM, FORM_PTX };

/* `bench/kernels nvvm` (form FORM_NVVM) and `bench/kernels ptx` (FORM_PTX, with the C peer at the
 * same sizes, from the same rounds). */
static int forms_main(int form) {
  static const char *const keys[] = {"N", "NB", "L"};
  /* per kernel: its template (the reduction's: %BARRIER% becomes gpu.barrier), and per size its
   * N, NB (blocks: per dimension for the matmul) and launches; work grows 1x, about 10x, 100x.
   * The vector add launches often enough at its two larger sizes that its setup (three buffers
   * written once, whose page faults vary from one run to the next by more than two launches take)
   * weighs little against the launches: with 8 and 2 launches there, medians of 0.5 ms and 0.0x
   * came out of launches of 8 ms. */
  struct {
    const char *name, *src;
    long long v[NV_SIZES][3];
    const char *what[NV_SIZES];
  } ks[NV_KERNELS] = {
    {"vector add", nv_vadd, {{65536, 256, 32}, {655360, 2560, 32}, {6553600, 25600, 8}},
     {"64K f32", "640K f32", "6.4M f32"}},
    {"matmul", nv_matmul, {{64, 4, 32}, {144, 9, 4}, {304, 19, 1}},
     {"64x64 f32", "144x144", "304x304"}},
    {"tree reduction", NULL, {{65536, 256, 32}, {655360, 2560, 8}, {6553600, 25600, 2}},
     {"64K f32", "640K f32", "6.4M f32"}},
  };
  const char *fname = form == FORM_PTX ? "ptx" : "nvvm";
  if (access(mlir_opt(), X_OK) != 0) {
    printf("bench/kernels %s: SKIPPED: %s is not there (set MLIR_OPT): the %s forms are made by it\n", fname,
           mlir_opt(), fname);
    return 0;
  }
  if (form == FORM_PTX) {
    printf("bench/kernels ptx: the C peer is bench/kernels' own (`bench/kernels` prints it), built with `%s`\n",
           native_flags);
    if (!peer_build()) {
      fprintf(stderr, "bench: could not build the C peer\n");
      return 1;
    }
  }
  char *red = substitute(reduce_src, "gpu.barrier");
  /* the reduction's sizes: its template has them fixed, so they are put back as keys */
  char *red_t = red;
  {
    const char *from[] = {"constant 4194304 : index", "constant 16384 : index", "constant " LAUNCHES_S " : index"};
    const char *to[] = {"constant %N% : index", "constant %NB% : index", "constant %L% : index"};
    for (int i = 0; i < 3; i++) {
      char *at = strstr(red_t, from[i]);
      if (!at) {
        fprintf(stderr, "bench: the reduction's template changed\n");
        return 1;
      }
      size_t pre = (size_t)(at - red_t);
      char *n = malloc(strlen(red_t) + strlen(to[i]) + 1);
      memcpy(n, red_t, pre);
      strcpy(n + pre, to[i]);
      strcat(n, at + strlen(from[i]));
      free(red_t);
      red_t = n;
    }
  }
  ks[2].src = red_t;
  BeOptions bo = {0};
  bo.sched = sched;
  Backend *be = NULL;
  char err[256];
  if (be_open("sim", &bo, &be, err, sizeof err) != BE_OK) {
    fprintf(stderr, "bench: %s\n", err);
    return 1;
  }
  /* per kernel and size: gpu.func, the other form, and the other form with the race checks off */
  static Prog progs[NV_KERNELS][NV_SIZES][3];
  char *texts[NV_KERNELS][NV_SIZES][2];
  for (int i = 0; i < NV_KERNELS; i++)
    for (int s = 0; s < NV_SIZES; s++) {
      texts[i][s][0] = subst(ks[i].src, keys, ks[i].v[s], 3);
      texts[i][s][1] = form == FORM_PTX ? ptx_form(texts[i][s][0]) : nvvm_form(texts[i][s][0]);
      if (!texts[i][s][1])
        return 1;
      char name[64];
      snprintf(name, sizeof name, "%d-%d.mlir", i, s);
      prog_open(&progs[i][s][0], be, strdup(name), texts[i][s][0], false);
      snprintf(name, sizeof name, "%d-%d-%s.mlir", i, s, fname);
      prog_open(&progs[i][s][1], be, strdup(name), texts[i][s][1], false);
      snprintf(name, sizeof name, "%d-%d-%s-unchecked.mlir", i, s, fname);
      prog_open(&progs[i][s][2], be, strdup(name), texts[i][s][1], true);
    }
  if (form == FORM_PTX)
    printf("bench/kernels ptx (--sched=%s): gpu.func kernels against the PTX of "
           "-gpu-lower-to-nvvm-pipeline=\"cubin-format=isa\" and against C\n\n", sched);
  else
    printf("bench/kernels nvvm (--sched=%s): gpu.func kernels against their convert-gpu-to-nvvm form\n\n", sched);
  /* the C peer per size and round: each kernel as often as its programs launch it */
  double nat[NV_KERNELS][NV_SIZES][RUNS];
  for (int r = 0; r < RUNS; r++) {
    for (int s = 0; s < NV_SIZES && form == FORM_PTX; s++) {
      char args[160];
      double t[3];
      snprintf(args, sizeof args, "%lld %lld %lld %lld %lld %lld", ks[0].v[s][0], ks[1].v[s][0], ks[2].v[s][0],
               ks[0].v[s][2], ks[1].v[s][2], ks[2].v[s][2]);
      if (!peer_run(t, args)) {
        fprintf(stderr, "bench: could not run the C peer\n");
        return 1;
      }
      for (int i = 0; i < NV_KERNELS; i++)
        nat[i][s][r] = t[i];
    }
    for (int i = 0; i < NV_KERNELS; i++)
      for (int s = 0; s < NV_SIZES; s++)
        for (int fo = 0; fo < 3; fo++)
          prog_round(&progs[i][s][fo], r);
  }
  if (form == FORM_PTX) {
    peer_remove();
    printf("%-15s %-9s %10s %10s %10s %12s %10s %13s %10s\n", "kernel", "size", "gpu.func", "ptx", "C",
           "ptx/gpu.func", "ptx/C", "gpu.func/C", "off/ptx");
  } else {
    printf("%-16s %-10s %12s %12s %8s %8s %9s\n", "kernel", "size", "gpu.func", "nvvm", "ratio", "target", "off/nvvm");
  }
  for (int i = 0; i < NV_KERNELS; i++)
    for (int s = 0; s < NV_SIZES; s++) {
      double g = prog_close_n(&progs[i][s][0], (int)ks[i].v[s][2]);
      double v = prog_close_n(&progs[i][s][1], (int)ks[i].v[s][2]);
      double o = prog_close_n(&progs[i][s][2], (int)ks[i].v[s][2]);
      if (form == FORM_PTX) {
        double c = bench_median(nat[i][s], RUNS);
        printf("%-15s %-9s %8.3fms %8.3fms %8.3fms %11.2fx %9.2fx %12.2fx %9.2fx\n", ks[i].name, ks[i].what[s],
               g * 1e3, v * 1e3, c * 1e3, v / g, v / c, g / c, o / v);
      } else {
        printf("%-16s %-10s %10.3fms %10.3fms %7.2fx %8s %8.2fx\n", ks[i].name, ks[i].what[s], g * 1e3, v * 1e3,
               v / g, "<= 1.5x", o / v);
      }
      free(texts[i][s][0]);
      free(texts[i][s][1]);
    }
  if (form == FORM_PTX)
    printf("(median of %d rounds, CPU time per launch; targets: ptx/gpu.func <= 1.5x, ptx/C and gpu.func/C "
           "<= 3x;\n off/ptx: the PTX run with --no-race-check against the checked run, at most 1x: turning the\n"
           " checks off must not cost time)\n", RUNS);
  else
    printf("(median of %d rounds, CPU time per launch; off/nvvm: the nvvm run with --no-race-check against the\n"
           " checked run, at most 1x)\n", RUNS);
  be_close(be, NULL);
  free(red_t);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "nvvm") || !strcmp(argv[1], "ptx"))) {
    if (argc > 2)
      sched = argv[2];
    return forms_main(!strcmp(argv[1], "ptx") ? FORM_PTX : FORM_NVVM);
  }
  if (argc > 1)
    sched = argv[1];
  printf("bench/kernels (--sched=%s): the peer is this C, compiled with `%s`:\n\n%s\n", sched, native_flags,
         native_src);
  if (!peer_build()) {
    fprintf(stderr, "bench: could not build the C peer\n");
    return 1;
  }
  char *with = substitute(reduce_src, "gpu.barrier"), *without = substitute(reduce_src, "");
  BeOptions bo = {0};
  bo.sched = sched;
  Backend *be = NULL;
  char err[256];
  if (be_open("sim", &bo, &be, err, sizeof err) != BE_OK) {
    fprintf(stderr, "bench: %s\n", err);
    return 1;
  }
  Prog progs[4];
  prog_open(&progs[0], be, "vadd.mlir", vadd_src, false);
  prog_open(&progs[1], be, "matmul.mlir", matmul_src, false);
  prog_open(&progs[2], be, "reduce.mlir", with, false);
  /* without its barriers the kernel races in shared memory, which the interpreter reports: that
   * variant runs unchecked, so the ratio also carries the cost of checking the barrier variant */
  prog_open(&progs[3], be, "reduce-nobarrier.mlir", without, true);
  /* rounds interleave the peer and every program, so a busy machine slows both alike */
  double nat[3][RUNS];
  for (int r = 0; r < RUNS; r++) {
    double t[3];
    if (!peer_run(t, "")) {
      fprintf(stderr, "bench: could not run the C peer\n");
      return 1;
    }
    for (int k = 0; k < 3; k++)
      nat[k][r] = t[k];
    for (int k = 0; k < 4; k++)
      prog_round(&progs[k], r);
  }
  peer_remove();
  double vadd = prog_close(&progs[0]), mm = prog_close(&progs[1]);
  double red_b = prog_close(&progs[2]), red_nb = prog_close(&progs[3]);
  be_close(be, NULL);
  double nv = bench_median(nat[0], RUNS), nm = bench_median(nat[1], RUNS), nr = bench_median(nat[2], RUNS);
  free(with);
  free(without);
  printf("%-34s %10s %10s %8s %8s\n", "kernel (median of 5, CPU time)", "interp", "peer", "ratio", "target");
  printf("%-34s %8.2fms %8.2fms %7.2fx %8s\n", "vector add, 16M f32", vadd * 1e3, nv * 1e3, vadd / nv, "<= 3x");
  printf("%-34s %8.2fms %8.2fms %7.2fx %8s\n", "matmul 512x512 f32", mm * 1e3, nm * 1e3, mm / nm, "<= 3x");
  printf("%-34s %8.2fms %8.2fms %7.2fx %8s\n", "tree reduction: barriers vs none", red_b * 1e3, red_nb * 1e3,
         red_b / red_nb, "<= 1.5x");
  printf("%-34s %8.2fms %8.2fms %7.2fx %8s\n", "tree reduction vs C", red_b * 1e3, nr * 1e3, red_b / nr, "-");
  return 0;
}
