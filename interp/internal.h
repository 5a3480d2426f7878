/* internal.h - private to interp/: the executable form the interpreter runs.
 *
 * A function is compiled once into slots and instructions:
 *   - every SSA value gets a fixed run of 64-bit words ("slots") in the function's frame; a scalar
 *     takes one word, a ranked memref the words of MLIR's descriptor (allocated ptr, aligned ptr,
 *     offset, sizes[rank], strides[rank]), a vector one word per element, an llvm struct its
 *     fields' words in order. The value's first slot is kept in Value.id while compiling;
 *   - every op becomes an Ins: an exec function, the slots of its operands and results, and
 *     whatever the op needs precomputed (aux, a, b, imm). Regions become nested Bodies.
 * Running is then a loop over Ins calling exec; no value lookups, no attribute lookups.
 *
 * An exec function returns EX_NEXT to go on, EX_DONE when it ended its block (a terminator: it
 * has set fr->jump to the next block of the region, or to -1 to leave the region), or EX_ERROR
 * after reporting a located diagnostic (the run then unwinds and stops).
 *
 * Adding an op: a compile function in the file of its dialect, named in ops.def. */
#ifndef INTERP_INTERNAL_H
#define INTERP_INTERNAL_H

#include "interp/interp.h"
#include "ir/internal.h"
#include "kernel/kernel.h"

#include <stdatomic.h>
#include <stdint.h>

typedef struct Frame Frame;
typedef struct Ins Ins;
typedef struct Body Body;
typedef struct Func Func;
typedef struct Comp Comp;

typedef int (*ExecFn)(Frame *fr, const Ins *ins);

struct Ins {
  ExecFn fn;
  Op *op;
  uint32_t *in;   /* first slot of each operand */
  uint32_t *out;  /* first slot of each result */
  uint32_t nin, nout;
  uint32_t a, b;  /* small per-op numbers: widths, ranks, word counts, block indices */
  union {
    int64_t i;
    double f;
  } imm;
  void *aux;      /* per-op data: nested bodies, callee, constant words, ... */
  const struct TokDrops *drops; /* gpu.c: tokens whose last use this is (fn releases them after) */
};

typedef struct Block1 {
  Ins *ins;
  uint32_t n;
  uint32_t *args;   /* first slot of each argument */
  uint32_t *words;  /* word count of each argument */
  uint32_t nargs;
} Block1;

struct Body {
  Block1 *blocks;
  uint32_t nblocks;
};

/* A runner-utils or other host function implemented in C, called by name. */
typedef int (*NativeFn)(Frame *fr, const Ins *call, Slot *args, Slot *results);

struct Func {
  Op *op;
  Str name;
  Body body;
  uint32_t nslots;
  uint32_t nargs, nresults;
  uint32_t *arg_words, *res_words; /* words of each argument / result */
  NativeFn native;                 /* set for external functions the interpreter provides */
  bool compiled, compiling;
  bool coroutine;                  /* its body calls llvm.intr.coro.begin (async.c) */
};

/* A memref.alloc block on the interpreter's heap list (memref.c). */
typedef struct HeapBlock {
  void *p;
  uint64_t bytes, seq;
  const char *loc;
} HeapBlock;

/* The fields the kernel engine shares with the host (KHost, kernel/kernel.h) are the same storage
 * under both names: the interpreter uses them as its own members, and hands the engine &in->host. */
struct Interp {
  union {
    struct {
      KHOST_FIELDS
    };
    KHost host;
  };
  Func *funcs;
  uint32_t nfuncs;
  uint32_t depth; /* call depth, to stop runaway recursion with a diagnostic */
  uintptr_t stack_lo; /* interp.c: a call whose frame lies below this would exhaust the C stack */
  struct Global **globals; /* memref.global memory, made on first use */
  uint32_t nglobals;
  HeapBlock *heap;         /* host memory the program allocated and has not freed */
  size_t nheap, capheap;
  struct Lowered *low;     /* llvm.c: the lowered form's memory (globals, malloc, alloca stack) */
  size_t sp;               /* alloca stack depth: interp_call restores it when a call returns */
  /* InterpOptions' hook for the differential checker, and the allocation counter that numbers
   * what it reports (the launch counter and device_print are KHost's) */
  void (*host_buffer)(void *user, const char *alloc_loc, uint64_t seq, const void *bytes,
                      size_t size);
  uint64_t nallocs;
  const char *mlir_opt;    /* InterpOptions.mlir_opt */
  struct OffloadState *offload; /* offload.c: device images loaded for launches on a GPU */
  struct AsyncRt *async;   /* async.c: coroutines, the async runtime's objects and task queue */
};

/* The interpreter that embeds host h (the engine's KHost of an Interp). */
static inline Interp *interp_of_host(KHost *h) { return (Interp *)((char *)h - offsetof(Interp, host)); }

struct Frame {
  Interp *in;
  Slot *s;
  const Func *fn;
  int32_t jump;   /* set by terminators: next block of the region, or -1 to leave it */
  Slot *ret;      /* where func.return writes the results */
  void *allocas;  /* memref.alloca blocks of this call, newest first (memref.c) */
  struct Coro *coro; /* the coroutine this call began, or the one a resume runs (async.c) */
};

/* ---- compiling ------------------------------------------------------------------------------ */

struct Comp {
  Interp *in;
  Func *fn;
  uint32_t nslots;
};

typedef bool (*CompileFn)(Comp *c, Op *op, Ins *ins);

static inline uint32_t interp_words(const Type *t) { return kernel_words(t); } /* slots of a t */
uint32_t interp_slot(const Value *v);           /* first slot of v (after compiling its def) */
bool interp_compile_body(Comp *c, Region *r, Body *out);
Func *interp_func(Interp *in, Str name);         /* NULL if no such function */
bool interp_compile_func(Interp *in, Func *fn);
bool interp_unsupported(Comp *c, Op *op, const char *what);

/* ---- running -------------------------------------------------------------------------------- */

/* Runs a region's blocks from its entry until a terminator leaves it. EX_ERROR or EX_NEXT.
 * interp_run_body_at: from instruction ii of block bi (a resumed coroutine). */
int interp_run_body(Frame *fr, const Body *b);
int interp_run_body_at(Frame *fr, const Body *b, uint32_t bi, uint32_t ii);
/* Calls fn with argument words args (in order) and result words res. */
int interp_call(Interp *in, const Func *fn, const Ins *site, Slot *args, Slot *res);
/* Reports a runtime error on the op of ins; returns EX_ERROR. */
int interp_error(Frame *fr, const Ins *ins, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void interp_copy(Slot *dst, const Slot *src, uint32_t words);

/* Integer helpers (kernel/kernel.h): values live sign-extended from their width in a 64-bit word;
 * interp_madd is a checked *acc += x * y. */
static inline int64_t interp_sext(uint64_t v, uint32_t w) { return kernel_sext(v, w); }
static inline uint64_t interp_zext(int64_t v, uint32_t w) { return kernel_zext(v, w); }
static inline uint32_t interp_int_width(const Type *t) { return kernel_int_width(t); }
static inline bool interp_madd(int64_t *acc, int64_t x, int64_t y) { return kernel_madd(acc, x, y); }

/* Element sizes and conversions between memory and slots (kernel/kernel.h); op locations as
 * strings (memref.c) */
static inline uint32_t interp_elem_bytes(const Type *t) { return kernel_elem_bytes(t); }
static inline void interp_load_elem(const Type *t, const void *p, Slot *out) { kernel_load_elem(t, p, out); }
static inline void interp_store_elem(const Type *t, void *p, const Slot *in) { kernel_store_elem(t, p, in); }
/* An op's site as the backend names it: "file:line:col", or its name when it has no location. */
static inline void interp_site(const Op *op, char *buf, size_t n) { kernel_site(op, buf, n); }
const char *interp_loc(Comp *c, Op *op);
const char *interp_loc_once(Comp *c, Op *op); /* interp_loc, not interned: an op compiled once */
void interp_free_globals(Interp *in);
/* Zeroed host memory for the program (align: a power of two); NULL when it cannot be had, a size
 * past the machine's memory included. */
void *interp_host_alloc(uint64_t bytes, uint64_t align);
void interp_free_heap(Interp *in);
void interp_free_allocas(Frame *fr, void *until); /* frees fr's allocas newer than until */

/* steps.c: --max-steps and --timeout on the host (the run's Budget: kernel/kernel.h, budget.c).
 * The host's credit ran out: BUDGET_OK with more, or why the run stops at the op about to run
 * (interp_budget_stop reports it, unless another thread did). The host counts per op, not per
 * block as kernels do: a kernel that stops may have run inside the host's last op (a launch or a
 * wait under serial), and zeroes the host's credit so that the host stops at its next op. */
int interp_budget_more(Interp *in);
int interp_budget_stop(Frame *fr, const Ins *ins, int why); /* EX_ERROR */
/* One host step: false when the credit is spent (then call interp_budget_more). */
static inline bool interp_step(Interp *in) {
  int64_t c = atomic_load_explicit(&in->credit, memory_order_relaxed) - 1;
  atomic_store_explicit(&in->credit, c, memory_order_relaxed);
  return c >= 0;
}
/* llvm_extern.c: the memory table (every block the program allocated: memref.alloc and alloca,
 * globals, malloc, device allocations). Whether [p, p + bytes) lies in one block; a located error
 * on ins otherwise (what: "load", "store", "print", ...). interp_view_owned: the same for every
 * element descriptor d (MLIR's words: allocated, aligned, offset, sizes, strides) describes. */
bool interp_mem_owned(Frame *fr, const Ins *ins, const void *p, uint64_t bytes, const char *what);
bool interp_view_owned(Frame *fr, const Ins *ins, const Slot *d, uint32_t rank, uint32_t esize,
                       const char *what);

/* ---- op table ------------------------------------------------------------------------------- */

/* After a host synchronization at ins (a wait, a synchronous gpu op, a stream or event sync):
 * EX_ERROR, after a note at ins, when a launch failed (be_failure) or a kernel error is counted:
 * failed launches are sticky, and the program ends at the first synchronization after one. */
int gpu_sync_point(Frame *fr, const Ins *ins);
/* The gpu ops' and kernels' state of the run (kernel/kernel.h: GpuState), made on first use. */
static inline GpuState *interp_gpu(Interp *in) { return kernel_gpu(&in->host); }
/* gpu.c: adds a token to the run's list (NULL is ignored); adds the kernels' errors to
 * in->errors (the host thread only). */
void gpu_keep_token(Interp *in, BeToken t);
void gpu_fold_errors(Interp *in);
/* gpu.c: the n compiled ops of block b: a token result that only gpu ops read, in b or in the
 * scf regions of b's ops, is released after the op of b that uses it last (gpu.c "token
 * lifetime"); false: out of memory */
bool gpu_own_tokens(Comp *c, Block *b, Ins *ins, uint32_t n);
/* gpu.c: the tokens an scf.for (op, its compiled body) carries from one iteration to the next
 * that the loop can own: each argument only waited for in the body, and the yield passing it on
 * or passing the token of an async gpu op of the body that only waits read else (that op then
 * neither keeps nor releases it); NULL where there are none. The loop holds a reference of each
 * (gpu_loop_enter, after its inits moved), drops the argument's before each yield moves
 * (gpu_loop_release), clears the moved slots after (gpu_loop_moved), and at its end hands what
 * it holds to its results, which gpu_own_tokens may release at their last use, or else keeps it
 * in the run's list, as at an error (gpu_loop_leave): the tokens of a long loop are not kept per
 * iteration, nor those of a loop run again and again. */
typedef struct LoopToks LoopToks;
LoopToks *gpu_loop_tokens(Comp *c, Op *op, Body *body);
void gpu_loop_enter(Frame *fr, const LoopToks *lt);
void gpu_loop_release(Frame *fr, const LoopToks *lt);
void gpu_loop_moved(Frame *fr, const LoopToks *lt);
void gpu_loop_leave(Frame *fr, const LoopToks *lt, bool failed);
/* interp.c: the carried tokens an scf.for compiled to fn and aux owns, NULL for any other op */
LoopToks *interp_for_tokens(ExecFn fn, void *aux);
/* kernel_host.c: the host ops kernels run once per thread (KHost.ops) */
extern const KHostOps interp_kernel_host_ops;
/* gpu.c: waits for kernels still running and counts their errors (the end of a run); frees
 * what the gpu ops kept (tokens, launches) */
void interp_gpu_finish(Interp *in);
void interp_gpu_free(Interp *in);
/* binary.c: compiles a gpu.launch_func of kernel (@binary::@name) in gpu.binary bin; today
 * every kind of object is refused with a located error, false */
struct Kernel;
bool interp_binary_kernel(Comp *c, Op *op, Op *bin, Attr *kernel, struct Kernel **out);
/* The payload of the object bin's handler selects, its escapes decoded, with a NUL after its
 * *len bytes (malloc'd); NULL when bin has no such object (or no memory). */
unsigned char *interp_binary_object(Op *bin, size_t *len);

/* offload.c: gpu.launch_func on a backend that runs device code, not host kernels (cuda, hip): the
 * kernel of gpu.binary or gpu.module `mod` (its image made once per run), NULL after an error at
 * op; its operands' words (what interp_offload_launch reads from inputs); the launch, as
 * kernel_launch's; the images unloaded at the end of the run. */
typedef struct Offload Offload;
Offload *interp_offload_of(Comp *c, Op *op, Op *mod, Attr *kernel, uint32_t first_arg, uint32_t nargs);
uint32_t interp_offload_words(const Offload *o);
int interp_offload_launch(Frame *fr, const Ins *ins, Offload *o, const int64_t grid[3], const int64_t block[3],
                          int64_t smem, const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok,
                          const BeStream *stream, const char *loc);
void interp_offload_free(Interp *in);
/* offload.c: on a backend that runs device code, outlines every gpu.launch of the module it can
 * compile into a gpu.launch_func of a kernel of its own (before anything is compiled); false
 * after an error. The gpu.launch a launch_func was outlined from, or NULL. A gpu.launch left
 * (clusters, a backend that compiles no gpu.module) refused at its op by name: false. */
bool interp_offload_outline(Interp *in);
Op *interp_offload_launch_of(Interp *in, const Op *launch_func);
bool interp_offload_refuse_launch(Comp *c, Op *launch);

CompileFn interp_compile_fn(Str name);
NativeFn interp_native_fn(Str name);
/* llvm.c: the lowered form's external functions (malloc, free, memrefCopy, mgpu*), and
 * freeing what it allocated */
NativeFn interp_llvm_native_fn(Str name);
void interp_llvm_free(Interp *in);
/* async.c: the mlirAsyncRuntime* functions (NULL for another name); llvm.alloca in a coroutine
 * (memory that outlives the ramp: size and align of an element); a call of a coroutine returns
 * (its Coro is freed unless suspended); the task queue run to its end after the entry returned
 * (EX_ERROR after a located error at site); freeing what is left at the end. */
NativeFn interp_async_native_fn(Str name);
bool interp_coro_alloca(Comp *c, Op *op, Ins *ins, uint64_t size, uint64_t align);
void interp_coro_left(Frame *fr);
int interp_async_drain(Interp *in, const Ins *site);
void interp_async_free(Interp *in);

#define IOP(name, fn) bool fn(Comp *c, Op *op, Ins *ins);
#include "interp/ops.def"
#undef IOP

#endif
