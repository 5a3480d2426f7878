/* internal.h - private to kernel/: the engine's executable form, shared by its files and its
 * front ends (kernel.c: gpu.func and gpu.launch bodies; kernel_llvm.c and kernel_llvm_mem.c;
 * kernel_ptx.c). What the host sees is kernel.h.
 *
 * A kernel is compiled once. Running it is one backend op per launch: the callback spreads the
 * grid's blocks over the workers, and each block runs every op once for all of its threads. */
#ifndef KERNEL_INTERNAL_H
#define KERNEL_INTERNAL_H

#include "ir/internal.h"
#include "kernel/kernel.h"

#include <math.h>
#include <pthread.h>

/* "file:line:col" of an op, interned in the host's context (values.c) */
const char *kernel_loc(KHost *h, Op *op);

/* ---- the kernel interpreter's executable form ------------------------------------------------
 *
 * Every value of a kernel is either uniform (one word per value word, in KFrame.u) or varying (a
 * column of n words per value word, one per thread of the block, in KFrame.v); a compile-time
 * analysis decides which (kernel.c). An operand is its first word and a varying flag. */
typedef struct KFrame KFrame;
typedef struct KIns KIns;

/* A block's shared memory, per granule (KFrame.gshift): its last writer and readers
 * (kernel_mem.c), one word each, so that runs of granules are checked and updated in vector
 * loops. The op is a memory op's KMem.memo (ops past KSH_OPS share the last one). The interval
 * is the accessing thread's epoch (KFrame.epoch, or KFrame.lep once split). */
/* A run access not yet in the granules (kernel_shruns.c): threads l0 .. l0 + m - 1 at granules
 * j0 .. j0 + m - 1, thread l0 + i at the i-th. */
typedef struct KShRun {
  uint32_t j0, l0, m, op;
  bool write;
} KShRun;
#define KSH_RUNS 8
typedef struct KShadow {
  uint64_t *w;       /* last write: interval << 32 | several threads wrote the same value << 31 |
                        op << 16 | thread */
  uint64_t *r;       /* last read: interval << 32 | op << 17 | several threads read << 16 | thread */
  const char **loc;  /* per op: its location */
  uint32_t *lep;     /* per thread: its epoch, while split */
  /* kernel_shruns.c: the run accesses of interval run_epoch not applied to w and r yet; from an
   * older interval, ordered before every access now, so dropped */
  KShRun run[KSH_RUNS];
  uint32_t nrun, run_epoch;
  uint32_t gran_epoch; /* w and r hold records of this interval: its run accesses go by them too */
  bool keep;         /* every access goes by w and r (the PTX front end's pending copies read them) */
} KShadow;
#define KSH_OPS 0x7fffu
typedef int (*KFn)(KFrame *f, const KIns *k);

struct KIns {
  KFn fn;
  Op *op;
  const char *loc;
  uint32_t *in, *out;   /* first word of each operand / result */
  uint8_t *vin, *vout;  /* 1 when varying */
  uint32_t *win, *wout; /* words of each */
  uint32_t nin, nout;
  uint32_t a, b;
  int64_t imm;
  void *aux;
};

typedef struct KBlock {
  KIns *ins;
  uint32_t n;
} KBlock;

typedef struct KBody {
  KBlock *blocks;
  uint32_t nblocks;
  bool pc_lazy; /* a multi-block region whose every split writes all its threads' next blocks (and a
                   branch of all of them writes none): run_cfg need not set them first (PTX) */
} KBody;

/* Loads that take turns along the same rows (ptx_mem.c, load_groups): n ops, the i-th at the i-th of
 * n consecutive elements of esize bytes, the pattern repeating (a k loop unrolled n times reads
 * a row's elements k, k + 1, .. by its n loads). They share one memo, whose rows then grow
 * element after element as one op's do; what each byte's op is follows from where it lies, so
 * records and race reports still name the op that read it. */
typedef struct KMemoGroup {
  uint32_t n, esize;
  const char **locs; /* the i-th op's location */
} KMemoGroup;

/* One memory op's latest accesses, not recorded yet: rows ranges [lo, hi) + r * stride. The op's
 * next accesses that continue each row (the rows moved on by a loop) only grow hi. */
typedef struct KMemo {
  uintptr_t lo, hi; /* hi 0: none */
  int64_t stride;
  uint32_t rows;
  bool write;
  const char *loc;
  uintptr_t mark;   /* kernel_race.c: what of row 0 the blocks before this one touched ends here */
  const KMemoGroup *grp; /* the loads sharing the memo, or NULL: of each row's element at lo, */
  uint32_t phase;        /* the op's index in grp */
} KMemo;

/* Inter-block race checks in global memory (kernel_race.c). A record covers nb consecutive blocks
 * from b0 (by kind: BeAccess), block b0 + i the bytes [lo + i * len, lo + (i + 1) * len): what a
 * frame logs as it runs (KFrame.glog: one block's accesses, or in a block-wise frame those of its
 * blocks), and at the frame's end the run's records. */
typedef struct KGRec {
  uintptr_t lo, hi, len;
  size_t b0, nb;
  const char *loc;
  uint32_t kind;
  uint32_t nsnap;   /* one block's small write: the bytes it stored */
  uint8_t snap[8];
  const KMemoGroup *grp; /* reads of a group's loads (nb 1): the element at lo is its phase-th */
  uint32_t phase;        /* op's, the next the next op's, ..; loc the phase-th op's */
} KGRec;
typedef struct KGList {
  KGRec *r;
  size_t n, cap;
  bool over;        /* too many records: the launch is not checked */
} KGList;
#define KG_OPEN 16
/* kernel_race.c: what a replay of some blocks of a launch left where their writes overlap other
 * blocks' (kernel_race_check). */
typedef struct KGCap KGCap;

/* Accesses of a run of blocks, merged, reported to the backend at the end of the run. */
typedef struct KRange {
  uintptr_t lo, hi;
  const char *loc;
  bool write;
  bool atomic;          /* atomics (write is true too): kernel_note_atomic */
} KRange;

struct KFrame {
  const Kernel *k;
  struct Launch *L;
  KHost *L_in;         /* the launch's interpreter */
  BeKernelCtx *ctx;
  Slot *u, *v;
  uint32_t n;           /* threads of the block */
  uint32_t *act, nact;  /* active threads, ascending */
  uint32_t *stack;      /* storage for masks of nested divergent regions */
  size_t top, cap;
  uint32_t *pc;         /* in a multi-block region: each thread's next block */
  uint32_t pc_one, pc_n; /* a terminator that sent its pc_n threads all to block pc_one says so
                          * (run_cfg then needs no scan when they are all the region's); else
                          * pc_n is 0 */
  uint32_t pc_all;      /* the block now run has all of its region's pc_all threads (else
                          * UINT32_MAX): a branch of them all to one block need not write pc */
  uint32_t bid[3], bdim[3], gdim[3];
  char *lo, *hi;        /* block-local memory (shared, private): not reported */
  char *smem;           /* dynamic shared memory */
  size_t smem_bytes;
  char *priv;           /* private memory: priv_stride bytes per thread */
  size_t priv_stride;
  Slot *tmp;            /* room for moves */
  KRange *acc;
  size_t nacc, capacc;
  uint32_t *hash;       /* kernel_mem.c: ranges by their end address */
  KMemo *memo;          /* per memory op (KMem.memo): its pending accesses */
  uint32_t nmemo;
  uint8_t *once;        /* per op that computes a column once per frame (kernel_new_once): done */
  KShadow sh;           /* per granule of shared memory: who last wrote and read it, and when */
  void *shadow;         /* sh's storage; NULL: checks are off */
  uint32_t gshift;      /* a granule is 1 << gshift bytes: the smallest access of the kernel */
  uint32_t epoch;       /* barrier intervals of the frame: each block and each barrier starts one;
                           a warp-level sync (a shuffle) starts one per warp it syncs */
  uint32_t base;        /* the epoch the last block start or barrier began: older ones are ordered */
  bool split;           /* a warp-level sync since then: each thread's epoch is in sh.lep */
  int64_t credit;       /* steps taken from the run's budget and not run yet (budget.c) */
  /* a block-wise kernel's frame (kernel.c) runs several blocks at once: wide threads each, thread
   * l being thread l % wide of block wfirst + l / wide (blocks numbered x fastest); 0: one block */
  uint32_t wide;
  size_t wfirst;
  bool gon;             /* inter-block checks of global memory on (kernel_race.c) */
  size_t blin;          /* the block's linear id (a block-wise frame's: its first block's) */
  KGRec *glog;          /* the frame's global accesses since its blocks started */
  size_t nglog, capglog;
  KGList grecs;         /* the run's records */
  KGRec gopen[KG_OPEN]; /* records the next block may continue, by position in its sorted list */
  KGCap *gcap;          /* a replay's (kernel_race_check): its blocks' writes are read here; their
                           output and accesses are dropped. NULL: a launch's own run */
  const Op *calls[16];  /* the func.call / llvm.call ops being run, outermost first (diagnostics) */
  uint32_t ncalls;
};

/* Whether the frame's threads are one row, thread l being a KV_TIDX value's l (kernel_tid): a
 * block of one row, or a block-wise frame (kernel.c, mark_lanes). */
static inline bool kernel_one_row(const KFrame *f) { return f->wide || f->bdim[0] == f->n; }

/* Thread `lane` of the frame: its thread index in its block (*t) and its block's ids. */
static inline void kernel_lane_block(const KFrame *f, uint32_t lane, uint32_t *t, uint32_t bid[3]) {
  if (!f->wide) {
    *t = lane;
    bid[0] = f->bid[0], bid[1] = f->bid[1], bid[2] = f->bid[2];
    return;
  }
  size_t b = f->wfirst + lane / f->wide;
  *t = lane % f->wide;
  bid[0] = (uint32_t)(b % f->gdim[0]);
  bid[1] = (uint32_t)(b / f->gdim[0] % f->gdim[1]);
  bid[2] = (uint32_t)(b / ((size_t)f->gdim[0] * f->gdim[1]));
}

#define KV_MINE 0x40000000u
#define KV_VARY 0x20000000u
#define KV_TIDX 0x10000000u /* a uniform value plus the thread's x id (kernel_tid) */
#define KV_TIDY 0x08000000u /* a uniform value plus the thread's y id */
#define KV_INDEX 0x07ffffffu
#define KV_INV 0x80000000u  /* the same in every block of the launch (kernel_llvm.c, once computed) */

/* A value word's storage: the word of a uniform value, or lane 0 of a varying one. */
static inline Slot *kw(const KFrame *f, uint32_t word, bool vary) {
  return vary ? f->v + (size_t)word * f->n : f->u + word;
}
#define KIN(f, k, j) kw((f), (k)->in[j], (k)->vin[j])
#define KOUT(f, k, j) kw((f), (k)->out[j], (k)->vout[j])

/* Lane loops worth a second copy for AVX2 machines (chosen when the program loads; the plain x86-64
 * build only has SSE2's two 64-bit lanes). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) &&            \
    !defined(__SANITIZE_THREAD__)
#define KLANEFN __attribute__((target_clones("avx2", "default")))
#else
#define KLANEFN
#endif

/* The next block of the launch most likely touches the `bytes` after [p, p + bytes) (a streaming
 * kernel's rows of consecutive elements): ask for them early, so that it waits less for memory.
 * Not where such rows of the whole grid come to less than KPREFETCH_MIN bytes: they stay in the
 * cache from one launch to the next, and the asking costs more than it saves. */
#define KPREFETCH_MIN ((size_t)1 << 20)
static inline void kernel_prefetch_next(const KFrame *f, const char *p, size_t bytes) {
  if (bytes * f->gdim[0] * f->gdim[1] * f->gdim[2] < KPREFETCH_MIN)
    return;
  for (size_t i = 0; i < bytes; i += 64)
    __builtin_prefetch(p + 2 * bytes + i);
}

/* Runs body over the active threads (all n when the mask is full, a range when they are one:
 * the list is ascending, so its ends tell); l names the thread. */
#define KLANES(f, l, ...)                                                                          \
  do {                                                                                             \
    if ((f)->nact == (f)->n) {                                                                     \
      for (uint32_t l = 0; l < (f)->n; l++) {                                                      \
        __VA_ARGS__                                                                                \
      }                                                                                            \
    } else if ((f)->nact && (f)->act[(f)->nact - 1] - (f)->act[0] == (f)->nact - 1) {              \
      for (uint32_t l = (f)->act[0], e_ = l + (f)->nact; l < e_; l++) {                            \
        __VA_ARGS__                                                                                \
      }                                                                                            \
    } else {                                                                                       \
      for (uint32_t i_ = 0; i_ < (f)->nact; i_++) {                                                \
        uint32_t l = (f)->act[i_];                                                                 \
        __VA_ARGS__                                                                                \
      }                                                                                            \
    }                                                                                              \
  } while (0)

/* Writes a block's gpu.printf lines to the program's output, or to InterpOptions.device_print
 * with the launch's location and number; takes the gpu mutex. */
void kernel_print(KFrame *f, const char *text, size_t len);
/* A growing NUL-terminated text (gpu.printf's and vprintf's output of one thread); on allocation
 * failure the text stays as it was. */
typedef struct KBuf {
  char *s;
  size_t n, cap;
} KBuf;
void kernel_buf_add(KBuf *b, const char *s, size_t n);
/* Notes after a kernel error: the device function calls it happened in, innermost first, then
 * the launch site. */
void kernel_error_notes(const KFrame *f);
/* Reports a kernel runtime error at k's op for thread `lane` of the block (UINT32_MAX: the block as
 * a whole). Only a launch's first error is reported; returns EX_ERROR. */
int kernel_error(KFrame *f, const KIns *k, uint32_t lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A kernel error reported elsewhere (a host op's, inside the kernel): counts it and fails the
 * launch as kernel_error does. */
void kernel_failed(KFrame *f);
/* Reports a benign hazard (threads writing the same value) at k's op for thread `lane`: a note, or
 * a warning under InterpOptions.race_strict; once per op (memo) and launch. Not an error. */
void kernel_benign(KFrame *f, const KIns *k, uint32_t memo, uint32_t lane, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* kernel_arith.c: arith, index and math ops lane-wise; false (after a diagnostic) when op is not
 * one of them or not supported. */
bool kernel_compile_arith(KHost *in, Op *op, KIns *k);
bool kernel_is_arith(Op *op);
/* For cmpi predicate pred (arith.cmpi's order) of a0 + thread x id against b, in a block of one
 * row under the full mask: the threads that hold are those below *cut (*prefix) or from it on.
 * False when that does not apply (another shape, a partial mask, eq or ne, overflow). */
bool kernel_tidx_cut(const KFrame *f, int64_t a0, int64_t b, uint32_t pred, uint32_t *cut, bool *prefix);
/* The predicate of cmpi op when kernel_tidx_cut applies to it (an index compare of a uniform value
 * plus the thread's x id against a uniform value), else -1. */
int kernel_tidx_cmp(const Op *op);
/* Any op through its host implementation, once per thread (pure ops on descriptors: memref.dim,
 * memref.cast, memref.subview, ...). */
bool kernel_compile_host(KHost *in, Op *op, KIns *k);

/* ---- compiling kernels (kernel.c), shared with the files of their ops ------------------------ */

#define KHASH 4096 /* slots of KFrame.hash */

/* A kernel being compiled: inputs found so far (values from outside a gpu.launch body). */
typedef struct KComp {
  KHost *in;
  Kernel *k;
  Op *root;
  Value **caps;
  uint32_t *cap_word;
  uint32_t ncap, capcap;
  uint32_t depth;
  Op *call;        /* the func.call whose callee is being compiled in place, or NULL */
  Op *inlined[16]; /* the callees being compiled, outermost first (no recursion) */
  uint32_t ninlined;
} KComp;

/* Workgroup and private memory: attributions and memref.alloca. */
typedef struct KAttr {
  uint32_t word;    /* the descriptor's first word */
  bool vary;        /* private (per thread) or shared (per block) */
  Type *type;
  size_t off;       /* in the block's shared memory, or in each thread's private memory */
} KAttr;

/* ---- kernels and launches (kernel.c compiles them, kernel_launch.c runs them) ----------------- */

/* A compiled kernel: its body and what a frame running it needs room for. */
struct Kernel {
  KHost *in;
  Op *op;
  const char *loc;
  KBody body;
  uint32_t nu, nv;
  /* inputs: the gpu.func's arguments, or the host values a gpu.launch body uses */
  uint32_t ninputs, input_words;
  uint32_t *in_word, *in_words;
  Type **in_types; /* gpu.launch: the type of each input (kernel_input_type) */
  /* gpu.launch body arguments: block ids, thread ids, grid sizes, block sizes */
  bool is_launch;
  uint32_t ids[12];
  bool ids_vary[12];
  KAttr *attrs;
  uint32_t nattrs;
  size_t shared_bytes, private_bytes;
  uint32_t depth;   /* deepest nesting of regions */
  uint32_t maxmove; /* most words one move carries */
  uint32_t nmemo;   /* memory ops (KFrame.memo) */
  uint32_t minaccess; /* bytes of the smallest access of those, 0 if none */
  uint32_t nonce;   /* ops with a KFrame.once flag */
  void *llvm;       /* kernel_llvm.c: what it knows of an llvm.func kernel's arguments */
  /* the same kernel compiled to run several small blocks as one frame (block_wise), or NULL */
  struct Kernel *wide;
  bool is_wide;     /* this is such a variant: block ids vary, thread ids carry no KV_TID flags */
  bool bounded;     /* no loop but scf.for, no call: it ends without waiting (BeLaunch.bounded) */
};

/* A launch being run or that ran: its sizes and inputs, and how its runs share its blocks. */
typedef struct Launch {
  struct Launch *next;
  Kernel *k;
  const Kernel *rk; /* what runs: k, or k->wide running `group` blocks per frame */
  uint32_t group;
  KHost *in;
  Slot *inputs;
  uint32_t grid[3], block[3];
  size_t smem, nblocks, nruns;
  _Atomic size_t next_block; /* the first block no run has taken yet (blocks_take) */
  BeToken tok;      /* a reference of its own (released when the launch is forgotten) */
  atomic_int failed, done;
  const char *loc;  /* the launch op's, and its number in the run: for InterpOptions.device_print */
  uint64_t seq;
  uint8_t *told;    /* per memory op (KMem.memo): a benign hazard of it was reported (gpu mutex) */
  Op *site;         /* the launch op */
  KGList *gruns;    /* per run of blocks: its records for inter-block race checks (kernel_race.c) */
  /* kernel_race_check's replay (replay_blocks): the blocks to run again, the next one, and what
   * their frames read their writes into */
  const size_t *replay;
  size_t nreplay, ireplay;
  KGCap *gcap;
} Launch;

void kernel_operand(KComp *kc, Value *v, uint32_t *word, uint8_t *vary);
/* 1 when v is known to be a uniform value plus gpu.thread_id x (then, in a block of one row,
 * consecutive threads hold consecutive values), 2 when plus gpu.thread_id y, else 0. */
int kernel_tid(const Value *v);
bool kernel_compile_body(KComp *kc, Region *r, KBody *out);
bool kernel_unsupported(KComp *kc, Op *op, const char *what);
/* Private memory a kernel's memref.alloca needs per thread (kernel_mem.c reserves it). */
void kernel_reserve_private(KComp *kc, KAttr *a);
/* Static shared memory a kernel needs per block; its offset from KFrame.lo. */
size_t kernel_reserve_shared(KComp *kc, size_t bytes);
/* A new memory op's index in KFrame.memo; esize: the bytes of its accesses. */
uint32_t kernel_new_memo(KComp *kc, uint32_t esize);
/* A new index in KFrame.once, for an op whose varying result is the same in every block of the
 * launch (gpu.thread_id): it fills the whole column once per frame. */
uint32_t kernel_new_once(KComp *kc);
/* n uniform words of the kernel's own (kept across the blocks of a frame) */
uint32_t kernel_new_uniform(KComp *kc, uint32_t n);
/* kernel.c, for calls compiled in place (kernel_cfg.c): decides which values of callee region r
 * vary (its entry block's argument i when vary[i]) and places them in the kernel's words. */
void kernel_place_callee(KComp *kc, Region *r, const uint8_t *vary);

/* kernel_cfg.c: runs body b under the frame's mask (EX_NEXT, or EX_ERROR after a diagnostic) */
int kernel_run_body(KFrame *f, const KBody *b);
/* kernel_cfg.c: compile functions of control flow (scf, cf and llvm branches, terminators) and
 * of func.call (compiled in place; kernel_llvm.c's llvm.call of a device function too) */
bool kernel_compile_for(KComp *kc, Op *op, KIns *k);
bool kernel_compile_if(KComp *kc, Op *op, KIns *k);
bool kernel_compile_while(KComp *kc, Op *op, KIns *k);
bool kernel_compile_condition(KComp *kc, Op *op, KIns *k);
bool kernel_compile_yield(KComp *kc, Op *op, KIns *k);
bool kernel_compile_execute_region(KComp *kc, Op *op, KIns *k);
bool kernel_compile_br(KComp *kc, Op *op, KIns *k);
bool kernel_compile_call(KComp *kc, Op *op, KIns *k);

/* A reduction as gpu.all_reduce and gpu.subgroup_reduce compile it (kernel_ops.c), and
 * memref.atomic_rmw's combining of the old value with its operand (kernel_mem.c): two values
 * combined; inline, as both call it in their loops over threads. */
typedef struct KReduce {
  int kind;          /* index in reduce_kinds, or -1 for the region form */
  bool is_float, f64;
  uint32_t w;
  KBody body;
  uint32_t lhs, rhs; /* region arguments (uniform) */
  int32_t cluster, stride;
} KReduce;

static inline Slot kernel_reduce_combine(const KReduce *r, Slot a, Slot b) {
  Slot o = {0};
  if (r->is_float) {
    double x = r->f64 ? a.f : a.f32, y = r->f64 ? b.f : b.f32, z;
    switch (r->kind) {
    case 0: z = x + y; break;
    case 1: z = x * y; break;
    case 4: case 2: case 3: z = fmin(x, y); break;
    case 7: case 5: case 6: z = fmax(x, y); break;
    case 11: z = (x != x || y != y) ? x + y : (x == y ? (signbit(x) ? x : y) : (x < y ? x : y)); break;
    case 12: z = (x != x || y != y) ? x + y : (x == y ? (signbit(x) ? y : x) : (x > y ? x : y)); break;
    default: z = x; break;
    }
    if (r->f64)
      o.f = z;
    else if (r->kind == 0)
      o.f32 = a.f32 + b.f32;
    else if (r->kind == 1)
      o.f32 = a.f32 * b.f32;
    else
      o.f32 = (float)z;
    return o;
  }
  int64_t x = a.i, y = b.i;
  uint64_t ux = kernel_zext(x, r->w), uy = kernel_zext(y, r->w);
  int64_t z;
  switch (r->kind) {
  case 0: z = (int64_t)((uint64_t)x + (uint64_t)y); break;
  case 1: z = (int64_t)((uint64_t)x * (uint64_t)y); break;
  case 2: z = x < y ? x : y; break;
  case 3: z = ux < uy ? x : y; break;
  case 5: z = x > y ? x : y; break;
  case 6: z = ux > uy ? x : y; break;
  case 8: z = x & y; break;
  case 9: z = x | y; break;
  case 10: z = x ^ y; break;
  default: z = x; break;
  }
  o.i = kernel_sext((uint64_t)z, r->w);
  return o;
}

/* kernel_ops.c and kernel_mem.c: compile functions of the ops they run, and memory helpers */
bool c_kid(KComp *kc, Op *op, KIns *k);
/* block_id x * block_dim x + thread_id x in a block-wise kernel (kernel.c, frame_index) */
bool c_kframe_index(KComp *kc, Op *op, KIns *k);
bool c_kbarrier(KComp *kc, Op *op, KIns *k);
bool c_kshuffle(KComp *kc, Op *op, KIns *k);
bool c_kreduce(KComp *kc, Op *op, KIns *k);
bool c_kprintf(KComp *kc, Op *op, KIns *k);
/* kernel_mem.c */
bool c_kdynamic_shared(KComp *kc, Op *op, KIns *k);
bool c_kmem(KComp *kc, Op *op, KIns *k);
bool c_kalloca(KComp *kc, Op *op, KIns *k);
bool c_kview(KComp *kc, Op *op, KIns *k);
/* Checks and records thread l's access of [p, p + bytes) against the other threads' accesses of
 * the block's shared memory since the last barrier (nothing when p is not in shared memory);
 * memo: the op's kernel_new_memo; v: the value a store writes (of type t), NULL for loads and
 * atomics. False after reporting a race. */
bool kernel_shared_check(KFrame *f, const KIns *k, uint32_t memo, uint32_t l, const char *p, size_t bytes,
                         bool write, const Type *t, const Slot *v);
/* kernel_shruns.c: the frame's run accesses of shared memory in the barrier interval, kept as a
 * list. kernel_shruns_add: threads l0 .. l0 + m - 1 access granules j0 .. j0 + m - 1 (op: the
 * shadow's op number), with no race among the interval's listed runs: listed; false when that may
 * not hold, the list is full or the interval goes by the granules, after kernel_shruns_settle (the
 * caller then checks the granules). kernel_shruns_settle: before anything reads or writes w and r,
 * the interval's listed runs applied to them, and the rest of the interval goes by them. The
 * common case is inline: the shared-memory lane loops call it for every run. */
bool kernel_shruns_refuse(KFrame *f);
void kernel_shruns_apply(KFrame *f);
static inline bool kernel_shruns_add(KFrame *f, uint32_t j0, uint32_t l0, uint32_t m, bool write, uint32_t op) {
  KShadow *s = &f->sh;
  if (s->gran_epoch == f->epoch || s->keep)
    return false;
  if (s->run_epoch != f->epoch) { /* a new interval: the list's runs are ordered before it */
    s->run_epoch = f->epoch;
    s->nrun = 0;
  }
  int64_t off = (int64_t)j0 - l0;
  uint32_t j1 = j0 + m;
  for (uint32_t i = 0; i < s->nrun; i++) {
    const KShRun *u = &s->run[i];
    if ((write || u->write) && u->j0 < j1 && j0 < u->j0 + u->m && (int64_t)u->j0 - u->l0 != off)
      return kernel_shruns_refuse(f); /* another thread's access of a granule: the granules tell */
  }
  if (s->nrun == KSH_RUNS)
    return kernel_shruns_refuse(f);
  s->run[s->nrun++] = (KShRun){j0, l0, m, op, write};
  return true;
}
static inline void kernel_shruns_settle(KFrame *f) {
  if (f->sh.nrun) {
    if (f->sh.run_epoch == f->epoch)
      kernel_shruns_apply(f);
    else
      f->sh.nrun = 0;
  }
  f->sh.gran_epoch = f->epoch;
}
/* Threads l0 .. l0 + m - 1 access the m consecutive elements of es bytes from p in the block's
 * shared memory, thread l0 + i the i-th: checked and recorded at once as kernel_shared_check would
 * one by one. False, with nothing recorded, when that does not apply or any of them may race
 * (the caller then checks them one by one, which reports the first). */
bool kernel_shared_lanes(KFrame *f, const KIns *k, uint32_t memo, const char *p, uint32_t l0, uint32_t m, size_t es,
                         bool write);
/* One access of kernel_shared_runs: op k (memo: its kernel_new_memo) reads or writes m consecutive
 * elements from p. */
typedef struct KShAccess {
  const KIns *k;
  const char *p;
  uint32_t memo;
  bool write;
} KShAccess;
/* The list of kernel_shruns.c: n run accesses of threads l0 .. l0 + m - 1 (elements of es bytes),
 * in this order, listed at once as n calls of kernel_shared_lanes would list them, when the
 * interval's list takes them all with no race among them and its runs: true. False, with nothing
 * recorded and the list and granules as they were (the caller then runs the accesses one by one).
 * Inline, as kernel_shruns_add: a fused step of a tree reduction calls it for every step. The new
 * runs go to the list's free entries as they are checked (a list of an older interval is dropped,
 * never applied, so its entries are free too) and count only once all are in. */
static inline bool kernel_shared_runs(KFrame *f, const KShAccess *a, uint32_t n, uint32_t l0, uint32_t m,
                                      size_t es) {
  if (!f->shadow)
    return true; /* checks are off */
  KShadow *s = &f->sh;
  if (f->split || s->gran_epoch == f->epoch || s->keep || !m || es != (size_t)1 << f->gshift)
    return false;
  uint32_t have = s->run_epoch == f->epoch ? s->nrun : 0; /* an older interval's list is empty now */
  if (n > KSH_RUNS - have)
    return false;
  size_t size = (size_t)(f->priv - f->lo), span = (size_t)m * es;
  for (uint32_t i = 0; i < n; i++) {
    size_t o = (size_t)(a[i].p - f->lo);
    if (a[i].p < f->lo || o > size || span > size - o || (o & (es - 1)))
      return false;
    uint32_t j0 = (uint32_t)(o >> f->gshift), j1 = j0 + m;
    int64_t off = (int64_t)j0 - l0;
    bool w = a[i].write;
    for (uint32_t x = 0; x < have + i; x++) { /* as kernel_shruns_add compares */
      const KShRun *u = &s->run[x];
      if ((w || u->write) && u->j0 < j1 && j0 < u->j0 + u->m && (int64_t)u->j0 - u->l0 != off)
        return false;
    }
    s->run[have + i] = (KShRun){j0, l0, m, a[i].memo < KSH_OPS ? a[i].memo : KSH_OPS, w};
  }
  s->run_epoch = f->epoch;
  s->nrun = have + n;
  for (uint32_t i = 0; i < n; i++)
    s->loc[s->run[have + i].op] = a[i].k->loc;
  return true;
}
/* Records rows ranges [lo, lo + len) + r * stride of global memory for race detection, through the
 * memory op's pending accesses (memo: its kernel_new_memo), as the memref ops record theirs. */
void kernel_note_rows(KFrame *f, const KIns *k, uint32_t memo, uintptr_t lo, uintptr_t len, int64_t stride,
                      uint32_t rows, bool write);
/* A contiguous row of f32 accesses of the active threads (thread act[0] + i's the i-th element
 * from p), as a memory op's fast path finds it, and the kernel_note_rows arguments it records
 * the row with (kernel_fuse.c). */
typedef struct KRow {
  char *p;
  uintptr_t len;
  int64_t stride;
  uint32_t memo;
} KRow;
/* kernel_mem.c, for kernel_fuse.c: whether k is a memref.load of varying result (a memref.store of
 * a varying value) as c_kmem compiles it; kernel_mem_row: the row of the active threads' accesses
 * where the op's own fast path would take one (a uniform descriptor, consecutive indices checked
 * in bounds, global memory), else false; kernel_mem_row_note: records it as that path does. */
bool kernel_is_load(const KIns *k);
bool kernel_is_store(const KIns *k);
bool kernel_mem_row(KFrame *f, const KIns *k, bool store, KRow *r);
void kernel_mem_row_note(KFrame *f, const KIns *k, const KRow *r, bool store);
/* kernel_mem_shared_row: the same row in the block's shared memory (the frame's own memory when the
 * checks are off), from the active threads' first on, where the op's own fast path would take one
 * (a uniform descriptor, consecutive indices checked in bounds); the caller lists it with
 * kernel_shared_runs, as that path lists it with kernel_shruns_add. */
bool kernel_mem_shared_row(KFrame *f, const KIns *k, bool store, KRow *r);
/* kernel_llvm_mem.c, the same for llvm.load and llvm.store (its fast path: an affine shape of
 * consecutive elements in one memref the launch passed; recorded with kernel_note_rows) */
bool kernel_llvm_is_load(const KIns *k);
bool kernel_llvm_is_store(const KIns *k);
bool kernel_llvm_row(KFrame *f, const KIns *k, bool store, KRow *r);
/* kernel_arith.c: '+', '-' or '*' when k is arith.addf, subf or mulf of f32 as compiled, else 0 */
int kernel_f32_binop(const KIns *k);
/* kernel_fuse.c: a block's loads, f32 op and store of one stream fused into one pass */
void kernel_fuse_block(KComp *kc, KBlock *b);
/* The active threads sync with the others of their warp (a shuffle): what each did before is
 * ordered before what the others of its warp do after. */
void kernel_warp_sync(KFrame *f);
/* Records thread accesses of [lo, hi) of global memory by an atomic (nothing for shared or
 * private memory): atomics race with plain accesses, not with each other. */
void kernel_note_atomic(KFrame *f, uintptr_t lo, uintptr_t hi, const char *loc);
/* kernel_race.c: logs global memory accesses of nb consecutive blocks from b0 (linear ids), block
 * b0 + i touching [lo + i * len, lo + (i + 1) * len) (kind: BeAccess). */
void kernel_glog_blocks(KFrame *f, uintptr_t lo, uintptr_t len, size_t b0, size_t nb, uint32_t kind, const char *loc);
/* The running block's access of [lo, hi) (not in a block-wise frame, whose blocks log their own). */
static inline void kernel_glog(KFrame *f, uintptr_t lo, uintptr_t hi, uint32_t kind, const char *loc) {
  if (f->gon)
    kernel_glog_blocks(f, lo, hi - lo, f->blin, 1, kind, loc);
}
/* kernel_race.c: logs reads [lo, hi) of the running block by the loads of grp taking turns, the
 * element at lo read by its phase-th. */
void kernel_glog_group(KFrame *f, uintptr_t lo, uintptr_t hi, const KMemoGroup *grp, uint32_t phase);
/* kernel_mem.c: records one load's rows of elements as kernel_note_rows does, for member `member`
 * of the loads of grp sharing memo (their kernel_new_memo): an element that follows the memo's
 * rows in the group's turn grows them. */
void kernel_note_group(KFrame *f, const KIns *k, uint32_t memo, const KMemoGroup *grp, uint32_t member, uintptr_t lo,
                       uintptr_t len, int64_t stride, uint32_t rows);
/* kernel_mem.c: logs the part of each memo's accesses the running block made (not in a block-wise
 * frame: its memory ops log each block's part as they run). */
void kernel_glog_memos(KFrame *f);
/* The frame's block (or blocks) ended: its log becomes the run's records. */
void kernel_race_block_end(KFrame *f);
/* The run ended: its records, moved to *out (NULL: a replay's, dropped). */
void kernel_race_run_end(KFrame *f, KGList *out);
/* Runs blocks (n of them, ascending) of the launch again on the calling thread, each frame's gcap
 * being cap; false when one failed. */
typedef bool (*KGReplay)(void *user, const size_t *blocks, size_t n, KGCap *cap);
/* After every block ran: checks the runs' records against each other (blocks of one launch are
 * not ordered) and reports the first race on op's kernel (and every benign hazard once); true
 * after an error. grid: the launch's grid; kop: the kernel. Writes of two blocks whose bytes the
 * records do not hold are compared by value through replay(user, ..). */
bool kernel_race_check(KHost *in, KGList *runs, size_t nruns, const uint32_t grid[3], const Op *kop,
                       KGReplay replay, void *user);
/* Reports (be_kernel_access) and forgets the frame's recorded accesses; false when the backend
 * refused one (it reported why). */
bool kernel_flush_accesses(KFrame *f);
/* Row-major descriptor words (stride apart: 1, or n for a varying value's lane) for a memref of
 * type t at base; dynamic sizes from dyn. */
void kernel_describe(Slot *d, size_t stride, const Type *t, char *base, const int64_t *dyn);
size_t kernel_static_bytes(const Type *t);
bool kernel_static_memref(const Type *t);
size_t kernel_align16(size_t n);

/* kernel_llvm.c: kernels already lowered to llvm + nvvm (an llvm.func with gpu.kernel) */
bool kernel_is_llvm(const Op *op);
bool kernel_llvm_varies(const Op *op);
/* An llvm op with an arith twin: each thread's result from its own operands, as arith's. */
bool kernel_llvm_lanewise(const Op *op);
bool kernel_compile_llvm(KComp *kc, Op *op, KIns *k);
/* builtin.unrealized_conversion_cast and other ops that only move words, as word moves (computed
 * once per frame where that applies); false when op is not one (it then compiles as before). */
bool kernel_llvm_words(KComp *kc, Op *op, KIns *k);
/* Drops from a compiled block the ops that do nothing there (run by the kernel's group of ops
 * computed once per frame, or needed by no thread); the ops left, in order, and their count. */
uint32_t kernel_llvm_compact(KIns *ins, uint32_t n);
void **kernel_llvm_ext(const Kernel *k); /* kernel.c: kernel_llvm.c's data of k */
/* kernel.c, for front ends that compile a KBody of their own (kernel_ptx.c): a new kernel of op
 * (its diagnostics' op), n varying words of it, and the end: its body, the nesting depth of its
 * regions, and its inputs (one word each, at uniform words in_word, ir-allocated). */
Kernel *kernel_new_front(KHost *h, Op *op);
uint32_t kernel_new_varying(KComp *kc, uint32_t n);
void kernel_front_done(Kernel *k, const KBody *body, uint32_t depth, uint32_t ninputs, uint32_t *in_word);

#endif
