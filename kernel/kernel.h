/* kernel.h - the kernel engine: kernels compiled once into a lane-wide executable form and run a
 * block at a time, one op for all threads of the block, and the host's way in.
 *
 * Three front ends compile into the engine: gpu.func and gpu.launch bodies (kernel.c, with the ops
 * of kernel_cfg.c, kernel_ops.c, kernel_mem.c and kernel_arith.c), llvm.func kernels lowered to the llvm and nvvm dialects
 * (kernel_llvm.c), and PTX .entry functions (kernel_ptx.c, over ptx/). Running one is one backend
 * op per launch: the callback spreads the grid's blocks over the workers. Launch inputs (a kernel's
 * arguments, or the host values a gpu.launch body uses) are copied into the launch when it is
 * submitted, so the host may go on and change its own slots.
 *
 * The engine knows the host only through KHost: where diagnostics go and how many there were, the
 * device, the run's options and bounds, the lock of the program's output, the registrations of
 * memory, and (KHostOps) the host's implementation of the ops the engine runs once per thread. The
 * host interpreter (interp/) embeds a KHost; the mgpu* ABI (mgpu/) keeps one of its own. The engine
 * includes headers of ir/, ptx/, backends/ and sim/ only: arrows point down (docs/design.md). */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include "backends/backend.h"
#include "ir/ir.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

/* ---- values --------------------------------------------------------------------------------- */

/* One word of a value, as the host interpreter and the engine both lay values out: a scalar takes
 * one word, a ranked memref the words of MLIR's descriptor (allocated ptr, aligned ptr, offset,
 * sizes[rank], strides[rank]), a vector one word per element, an llvm struct its fields' words. */
typedef union Slot {
  int64_t i;
  uint64_t u;
  double f;
  float f32;
  void *p;
} Slot;
/* The words of a ranked memref's descriptor: then sizes[rank], strides[rank]. */
#define D_ALLOC 0
#define D_ALIGNED 1
#define D_OFFSET 2
#define D_SIZES 3

/* What an executed op returns: go on, its block ended (a terminator), or an error was reported;
 * EX_SKIP3 (a kernel op of a fused stream): it did the work of the three ops after it in its
 * block too, which the loop that runs the block then passes over, as EX_NEXT after them. */
enum { EX_ERROR = -1, EX_NEXT = 0, EX_DONE = 1, EX_SKIP3 = 2 };

uint32_t kernel_words(const Type *t);     /* words a value of type t takes */
uint32_t kernel_int_width(const Type *t); /* iN: N; index: 64; 0 if not an integer */
/* Element sizes and conversions between memory and words. */
uint32_t kernel_elem_bytes(const Type *t);
void kernel_load_elem(const Type *t, const void *p, Slot *out);
void kernel_store_elem(const Type *t, void *p, const Slot *in);
/* An op's site as the backend names it: "file:line:col", or its name when it has no location. */
void kernel_site(const Op *op, char *buf, size_t n);

/* Integers live sign-extended from their width in a 64-bit word. */
static inline int64_t kernel_sext(uint64_t v, uint32_t w) {
  if (w >= 64)
    return (int64_t)v;
  uint64_t m = 1ULL << (w - 1);
  v &= (1ULL << w) - 1;
  return (int64_t)((v ^ m) - m);
}
static inline uint64_t kernel_zext(int64_t v, uint32_t w) {
  return w >= 64 ? (uint64_t)v : (uint64_t)v & ((1ULL << w) - 1);
}
/* *acc += x * y, false (and *acc unspecified) when that overflows: index and size arithmetic on
 * values the program chose is done with it, before any bounds check relies on the result. */
static inline bool kernel_madd(int64_t *acc, int64_t x, int64_t y) {
  int64_t t;
  return !__builtin_mul_overflow(x, y, &t) && !__builtin_add_overflow(*acc, t, acc);
}

/* ---- bounds of a run (budget.c) ------------------------------------------------------------- */

/* The run's bounds, shared by the host and the kernels' workers. */
typedef struct Budget {
  _Atomic int64_t pool;  /* steps not handed out yet (with a step limit) */
  atomic_int stop;       /* set once by whoever hits a bound first: everybody stops */
  uint64_t max_steps;    /* 0: none */
  double timeout;        /* seconds, 0: none */
  uint64_t deadline_ns;  /* CLOCK_MONOTONIC, 0: none */
  bool on;
} Budget;

/* A credit that went below 0 by the steps of the ops about to run takes more: BUDGET_OK, or the
 * reason to stop: BUDGET_STEPS (the credit then holds what the pool had left, still below 0),
 * BUDGET_TIME, or BUDGET_STOPPED when another thread found a bound. Whoever then wins
 * kernel_budget_first reports it. */
enum { BUDGET_OK, BUDGET_STOPPED, BUDGET_STEPS, BUDGET_TIME };
void kernel_budget_init(Budget *b, uint64_t max_steps, double timeout);
int64_t kernel_budget_credit(const Budget *b); /* a new credit: 0, or INT64_MAX without bounds */
int kernel_budget_take(Budget *b, int64_t *credit, int64_t chunk);
bool kernel_budget_first(Budget *b);
void kernel_budget_message(const Budget *b, int why, char *buf, size_t n);

/* ---- the host ------------------------------------------------------------------------------- */

typedef struct KHost KHost;

/* The host's own implementation of the ops the engine has no lane loop for (memref.dim,
 * memref.subview, rarer arith and math ops): run once per thread on a scratch array of words. */
typedef struct KHostOps {
  bool (*knows)(Str name); /* whether the host implements op `name` */
  /* op compiled for scratch words: operand j at in[j], result j at out[j], nwords in all; NULL
   * after a diagnostic (counted in KHost.errors) */
  void *(*compile)(KHost *h, Op *op, const uint32_t *in, const uint32_t *out, uint32_t nwords);
  /* runs it on scratch s; EX_ERROR after its diagnostic (counted by the caller, not here) */
  int (*run)(KHost *h, const void *op, Slot *s);
} KHostOps;

/* What the engine keeps per host: tokens made (released at the end: a token value may be copied
 * to any slot, so nothing finer knows when the last copy dies), compiled kernels, launches that
 * may still run, memory registered with the device, idle frames. mu serializes kernel diagnostics
 * and the program's output from kernels. */
typedef struct GpuState {
  BeToken *toks;
  size_t ntoks, captoks;
  struct { Op *op; struct Kernel *k; } *kernels;
  uint32_t nkernels;
  struct Launch *launches;
  size_t nlaunch_list, sweep_at; /* kernel_launch.c: launches in the list; sweep it for ended ones at this many */
  struct GpuReg { void *ptr; size_t bytes; const char *loc; } *regs; /* memory the interpreter registered (a binary's globals) */
  size_t nregs;
  pthread_mutex_t mu;
  _Atomic unsigned errors; /* reported by kernels, not yet added to KHost.errors */
  struct FrameBox *frames; /* kernel_launch.c: idle kernel frames, most recently used first (under mu) */
  uint32_t nframes;
} GpuState;

/* The host's fields, as one list so that a host can hold them as its own members and hand the
 * engine a KHost that names the same storage (interp/internal.h: struct Interp). */
#define KHOST_FIELDS                                                                               \
  IrCtx *ctx;         /* diagnostics, and the arena compiled kernels live in */                      \
  Op *module;         /* the program (symbols a kernel calls), or NULL */                            \
  Backend *be;        /* the device */                                                               \
  FILE *out;          /* the program's output (gpu.printf, vprintf) */                               \
  unsigned errors;    /* errors reported on the host's thread */                                     \
  struct GpuState *gpu;                                                                          \
  bool no_race_check; /* do not check threads' shared-memory accesses for races */                   \
  bool race_strict;   /* threads writing the same value unordered are a warning, not a note */       \
  /* gpu.printf output to this hook instead of out (one call per block's lines) */                 \
  void (*device_print)(void *user, const char *launch_loc, uint64_t launch, const char *text,    \
                       size_t len);                                                              \
  void *hook_user;                                                                               \
  uint64_t nlaunches;                                                                            \
  Budget budget;                                                                                 \
  /* the host's steps taken from budget and not run yet (a kernel that stops zeroes it) */        \
  _Atomic int64_t credit;                                                                        \
  const char *lazy_sched; /* "serial" or "random" when device work runs only when the host asks */ \
  const KHostOps *ops;    /* NULL: no host ops (a kernel needing one is refused by name) */

struct KHost {
  KHOST_FIELDS
};

/* The host's engine state, made on first use; kernel_gpu_free frees it (after kernel_free_all). */
GpuState *kernel_gpu(KHost *h);
void kernel_gpu_free(KHost *h);

/* ---- kernels -------------------------------------------------------------------------------- */

typedef struct Kernel Kernel;

/* The kernel of gpu.func (or llvm.func) `fn` (compiled on first use, kept with the host); NULL
 * after a diagnostic on `site` or in the kernel when it holds something the engine cannot run. */
Kernel *kernel_of_func(KHost *h, Op *site, Op *fn);
/* The kernel of a gpu.launch body. Its inputs are the host values the body uses: their host slots
 * and word counts are given back (ir-allocated) so the launch can copy them. */
Kernel *kernel_of_launch(KHost *h, Op *launch, uint32_t **in_slots, uint32_t **in_words, uint32_t *nin);
/* Words of the kernel's inputs, in order: what kernel_launch copies from `inputs`. */
uint32_t kernel_input_words(const Kernel *k);
/* The type of input i of a gpu.launch body's kernel (NULL for a gpu.func's). */
const Type *kernel_input_type(const Kernel *k, uint32_t i);
/* Records the memrefs launch_func op `site` passes (operands first..first+n) to llvm.func kernel
 * fn, for bounds checks; false after a diagnostic. */
bool kernel_llvm_bind(KHost *h, Op *site, Op *fn, Kernel *k, uint32_t first, uint32_t n);

/* The kernel `name` of the PTX text (len bytes, need not end in NUL), launched by site (NULL: by
 * a runtime call); NULL after a located diagnostic (at the PTX place, a note at site). bufname
 * names the text in diagnostics ("@kernels.ptx": "@kernels.ptx:3:5: error: ..."), and the
 * module's .global and .const variables, which every kernel of one bufname shares. */
Kernel *kernel_of_ptx(KHost *h, Op *site, const char *bufname, const char *text, size_t len, Str name);
/* Whether the PTX text parses; false after a located diagnostic (a module load's check). */
bool kernel_ptx_load(KHost *h, const char *bufname, const char *text, size_t len);
/* The PTX kernel's parameter count, and the bytes of each of the first cap (as .param declares
 * them: each is one word of the launch's inputs). */
uint32_t kernel_ptx_params(const Kernel *k, uint32_t *bytes, uint32_t cap);
/* Checks the launch operands first..first+n of site against the PTX kernel's parameters. */
bool kernel_ptx_bind(KHost *h, Op *site, Kernel *k, uint32_t first, uint32_t n);
/* Submits one launch: grid and block sizes, dynamic shared memory bytes, the input words (copied).
 * With deps/ndeps/tok as be_token_launch_host; with a stream (not NULL), on that stream after the
 * deps, tok then standing for the stream's work so far. Returns EX_NEXT, or EX_ERROR after a
 * diagnostic on site (bad sizes; site NULL: located at loc). The kernel's own errors are reported
 * while it runs (located, with the thread). */
int kernel_launch(KHost *h, Op *site, Kernel *k, const int64_t grid[3], const int64_t block[3], int64_t smem,
                  const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok, const BeStream *stream,
                  const char *loc);

/* Waits for the launches still running; kernel_free_all also frees what launches hold. */
void kernel_wait_all(KHost *h);
void kernel_free_all(KHost *h);

#endif
