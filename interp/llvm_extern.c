/* llvm_extern.c - what the lowered form runs against: the memory it may touch and the external
 * functions it calls: the C allocator, libm, runner utils' memrefCopy and the mgpu* runtime.
 *
 * Memory. Lowered code does its own pointer arithmetic, so every load, store and intrinsic copy
 * is checked against the memory this file knows: blocks from malloc and friends, globals, the
 * alloca stack and what mgpuMemAlloc returned. An address in none of them, or a range that runs
 * past its block, is a located error instead of a crash; a store to a constant global too. Known
 * memory is then reported to the backend (be_host_access), so host accesses take part in race
 * detection and host loads of device memory are reported by the device. Heap blocks, globals and
 * the alloca stack are made known to the backend (be_host_add), so copies to and from them are
 * checked as well. llvm.alloca takes memory from one reserved stack, which interp_call unwinds on
 * return; the backend sees it as one block, so a copy still writing a frame that has returned
 * races with whatever the host puts there next. What realloc keeps of a block is a read of it.
 *
 * Calls. llvm.call is func.call's compile function: the callee is an llvm.func with a body, or a
 * declaration this file or runner.c provides. The mgpu* runtime functions go to the mgpu ABI of
 * mgpu/ (mgpu_bind): on the interpreter's device, each call named by the llvm.call's
 * location and the function ("prog.mlir:12:5 mgpuStreamWaitEvent"), so what the device finds
 * (a stream passed as an event, a race between two copies) points at the lowered op. Pointer
 * arguments the ABI will follow are checked first, like loads.
 *
 * Synchronizations. mgpuStreamSynchronize and mgpuEventSynchronize end the run when a launch
 * failed (gpu_sync_point), as the high-level form's waits do: failed launches are sticky.
 *
 * Kernels. Lowered programs keep their kernels as gpu.module (or gpu.binary) and launch them with
 * `gpu.launch_func <%stream : !llvm.ptr>`; those ops belong to the gpu host ops (gpu.c). A
 * gpu.binary's cubin or PTX cannot run on the sim; the backend says so when a module is loaded. */
#include "interp/llvm.h"
#include "mgpu/mgpu.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define STACK_BYTES ((size_t)64 << 20) /* reserved; pages are only used once touched */
#define STACK_LOC "the llvm.alloca stack"     /* how the backend names it */

/* ---- the memory the lowered form owns ------------------------------------------------------- */

typedef struct Block0 {
  uintptr_t lo, hi;
  int kind;
  const char *loc; /* where it was allocated */
  uint64_t bytes;  /* as allocated (hi - lo is at least 1) */
  uint64_t seq;    /* a heap block's allocation number (InterpOptions.host_buffer), 0 otherwise */
} Block0;

typedef struct LGlobal {
  Op *op;
  char *p;
} LGlobal;

typedef struct Lowered {
  Block0 *b; /* sorted by lo, never overlapping */
  size_t nb, capb;
  LGlobal *g;
  size_t ng, capg;
  char *stack; /* STACK_BYTES reserved; Interp.sp bytes in use */
} Lowered;

static Lowered *lowered(Interp *in) {
  if (!in->low && !(in->low = calloc(1, sizeof *in->low)))
    abort();
  return in->low;
}

/* Index of the block holding address p, or -1. */
static ptrdiff_t block_find(const Lowered *L, uintptr_t p) {
  size_t lo = 0, hi = L->nb;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (L->b[mid].lo <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && p < L->b[lo - 1].hi ? (ptrdiff_t)lo - 1 : -1;
}

void interp_low_block_add(Interp *in, void *p, uint64_t bytes, int kind, const char *loc) {
  Lowered *L = lowered(in);
  if (L->nb == L->capb) {
    L->capb = L->capb ? 2 * L->capb : 64;
    if (!(L->b = realloc(L->b, L->capb * sizeof *L->b)))
      abort();
  }
  uintptr_t lo = (uintptr_t)p;
  size_t i = L->nb;
  while (i && L->b[i - 1].lo > lo)
    i--;
  memmove(&L->b[i + 1], &L->b[i], (L->nb - i) * sizeof *L->b);
  L->b[i] = (Block0){lo, lo + (bytes ? bytes : 1), kind, loc, bytes,
                     kind == R_HEAP ? ++in->nallocs : 0};
  L->nb++;
}

void interp_low_block_remove(Interp *in, void *p) {
  Lowered *L = lowered(in);
  ptrdiff_t i = block_find(L, (uintptr_t)p);
  if (i >= 0 && L->b[i].lo == (uintptr_t)p) {
    memmove(&L->b[i], &L->b[i + 1], (L->nb - (size_t)i - 1) * sizeof *L->b);
    L->nb--;
  }
}

static bool block_remove(Interp *in, void *p, int kind) {
  Lowered *L = lowered(in);
  ptrdiff_t i = block_find(L, (uintptr_t)p);
  if (i < 0 || L->b[i].lo != (uintptr_t)p ||
      (interp_low_is_device(kind) ? !interp_low_is_device(L->b[i].kind) : L->b[i].kind != kind))
    return false;
  if (in->host_buffer && !interp_low_is_device(kind))
    in->host_buffer(in->hook_user, L->b[i].loc, L->b[i].seq, p, L->b[i].bytes);
  memmove(&L->b[i], &L->b[i + 1], (L->nb - (size_t)i - 1) * sizeof *L->b);
  L->nb--;
  return true;
}

void interp_low_device_remove(Interp *in, void *p) { block_remove(in, p, R_DEVICE); }

static const char *kind_name(int kind) {
  switch (kind) {
  case R_HEAP: return "heap block";
  case R_DEVICE: return "device allocation";
  case R_SHARED: return "host-shared allocation";
  case R_MEMREF: return "memref allocation";
  case R_ASYNC: return "async value's storage";
  default: return "global";
  }
}

/* Is [p, p+bytes) memory the program owns? Reports why not (on ins) and returns false. what:
 * "load", "store", "copy to", ... *blk (when not NULL) gets the block's index, -1 on the stack. */
static bool owned_in(Frame *fr, const Ins *ins, uintptr_t p, uint64_t bytes, const char *what,
                     ptrdiff_t *blk) {
  Lowered *L = lowered(fr->in);
  if (blk)
    *blk = -1;
  if (!bytes)
    return true;
  uintptr_t st = (uintptr_t)L->stack;
  if (L->stack && p >= st && p < st + STACK_BYTES) {
    if (p + bytes <= st + fr->in->sp && p + bytes > p)
      return true;
    interp_error(fr, ins,
                 "out-of-bounds %s of %" PRIu64 " bytes at 0x%" PRIxPTR
                 ": past the live stack (alloca) memory",
                 what, bytes, p);
    return false;
  }
  ptrdiff_t i = block_find(L, p);
  if (i < 0) {
    /* just past a block (by less than its size): most likely an index past its end */
    size_t lo = 0, hi = L->nb;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (L->b[mid].lo <= p)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo && p - L->b[lo - 1].hi < L->b[lo - 1].hi - L->b[lo - 1].lo)
      i = (ptrdiff_t)lo - 1;
  }
  if (i < 0) {
    interp_error(fr, ins,
                 "%s of %" PRIu64 " bytes at 0x%" PRIxPTR
                 ", which is no memory the program allocated (malloc, "
                 "alloca, a global or mgpuMemAlloc)",
                 what, bytes, p);
    return false;
  }
  const Block0 *b = &L->b[i];
  if (p + bytes > b->hi || p + bytes < p) {
    interp_error(fr, ins,
                 "out-of-bounds %s: bytes [%" PRIu64 ", %" PRIu64 ") of a %" PRIu64
                 "-byte %s allocated at '%s'",
                 what, (uint64_t)(p - b->lo), (uint64_t)(p - b->lo) + bytes,
                 (uint64_t)(b->hi - b->lo), kind_name(b->kind), b->loc);
    return false;
  }
  if (blk)
    *blk = i;
  return true;
}

static bool owned(Frame *fr, const Ins *ins, uintptr_t p, uint64_t bytes, const char *what) {
  return owned_in(fr, ins, p, bytes, what, NULL);
}

bool interp_mem_owned(Frame *fr, const Ins *ins, const void *p, uint64_t bytes, const char *what) {
  return owned(fr, ins, (uintptr_t)p, bytes, what);
}

bool interp_view_owned(Frame *fr, const Ins *ins, const Slot *d, uint32_t rank, uint32_t esize,
                       const char *what) {
  int64_t lo = d[2].i, hi = d[2].i;
  for (uint32_t i = 0; i < rank; i++) {
    int64_t n = d[3 + i].i, st = d[3 + rank + i].i, span;
    if (n < 0) {
      interp_error(fr, ins, "%s of a memref with the negative size %" PRId64 " in dimension %u", what, n, i);
      return false;
    }
    if (!n)
      return true; /* no elements: nothing is read or written */
    if (__builtin_mul_overflow(n - 1, st, &span) ||
        __builtin_add_overflow(st < 0 ? lo : hi, span, st < 0 ? &lo : &hi))
      goto overflow;
  }
  int64_t blo, bhi;
  uintptr_t a;
  if (__builtin_mul_overflow(lo, (int64_t)esize, &blo) || __builtin_mul_overflow(hi, (int64_t)esize, &bhi) ||
      __builtin_add_overflow(bhi, (int64_t)esize, &bhi) ||
      __builtin_add_overflow((uintptr_t)d[1].p, (uintptr_t)blo, &a) != (blo < 0))
    goto overflow;
  return owned(fr, ins, a, (uint64_t)bhi - (uint64_t)blo, what);
overflow:
  interp_error(fr, ins, "%s of a memref whose offset, sizes and strides run past the address space", what);
  return false;
}


/* May the host load (or store) [p, p+bytes)? Reports why not. */
static bool host_mem_ok(Frame *fr, const Ins *ins, uintptr_t p, uint64_t bytes, bool write) {
  ptrdiff_t i;
  if (!owned_in(fr, ins, p, bytes, write ? "store" : "load", &i))
    return false;
  Lowered *L = fr->in->low;
  if (i >= 0 && write && L->b[i].kind == R_CONST) {
    interp_error(fr, ins, "store to the constant global allocated at '%s'", L->b[i].loc);
    return false;
  }
  return true;
}

char *interp_low_host_mem(Frame *fr, const Ins *ins, uintptr_t p, uint64_t bytes, bool write,
                          const char *loc) {
  if (!host_mem_ok(fr, ins, p, bytes, write))
    return NULL;
  if (fr->in->be && be_host_access(fr->in->be, (void *)p, bytes, write, loc) != BE_OK)
    return NULL;
  return (char *)p;
}

/* A run of adjacent bytes the host will touch, reported to the backend as one access when the
 * next byte is elsewhere (span_add) or at the end (span_flush). false: the backend refused it. */
typedef struct Span {
  uintptr_t lo, hi;
  bool write;
} Span;

static bool span_flush(Frame *fr, Span *s, const char *loc) {
  bool ok = !fr->in->be || s->hi <= s->lo ||
            be_host_access(fr->in->be, (void *)s->lo, s->hi - s->lo, s->write, loc) == BE_OK;
  s->lo = s->hi = 0;
  return ok;
}

static bool span_add(Frame *fr, Span *s, uintptr_t p, uint64_t bytes, const char *loc) {
  bool ok = true;
  if (!s->hi || p != s->hi) {
    ok = span_flush(fr, s, loc);
    s->lo = s->hi = p;
  }
  s->hi += bytes;
  return ok;
}

char *interp_low_stack_alloc(Frame *fr, const Ins *ins, uint64_t bytes, uint64_t align) {
  Lowered *L = lowered(fr->in);
  if (!L->stack) {
    void *m = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      interp_error(fr, ins, "cannot reserve %zu bytes for the alloca stack", STACK_BYTES);
      return NULL;
    }
    L->stack = m;
    /* known to the backend as one block of host memory, so copies to and from allocas are
       checked and their accesses race-tracked like those of any other host memory */
    be_trace_label("llvm.alloca");
    BeStatus st = fr->in->be ? be_host_add(fr->in->be, m, STACK_BYTES, STACK_LOC) : BE_OK;
    be_trace_label(NULL);
    if (st != BE_OK)
      return NULL;
  }
  uint64_t at = (fr->in->sp + align - 1) / align * align;
  if (bytes > STACK_BYTES || at > STACK_BYTES - bytes) {
    interp_error(fr, ins, "stack overflow: allocas need more than %zu bytes", STACK_BYTES);
    return NULL;
  }
  fr->in->sp = (size_t)(at + bytes);
  memset(L->stack + at, 0, bytes); /* defined contents, so runs are repeatable */
  return L->stack + at;
}

char *interp_low_global(Interp *in, Op *g) {
  Lowered *L = lowered(in);
  for (size_t i = 0; i < L->ng; i++)
    if (L->g[i].op == g)
      return L->g[i].p;
  return NULL;
}

void interp_low_global_add(Interp *in, Op *g, char *p) {
  Lowered *L = lowered(in);
  if (L->ng == L->capg) {
    L->capg = L->capg ? 2 * L->capg : 16;
    if (!(L->g = realloc(L->g, L->capg * sizeof *L->g)))
      abort();
  }
  L->g[L->ng++] = (LGlobal){g, p};
}

void interp_llvm_free(Interp *in) {
  Lowered *L = in->low;
  if (!L)
    return;
  for (size_t i = 0; i < L->nb; i++) {
    if (interp_low_is_device(L->b[i].kind) || L->b[i].kind == R_MEMREF)
      continue; /* the device's (reported as leaks when it closes), or memref.c's */
    if (in->host_buffer)
      in->host_buffer(in->hook_user, L->b[i].loc, L->b[i].seq, (void *)L->b[i].lo, L->b[i].bytes);
    if (in->be)
      be_host_remove(in->be, (void *)L->b[i].lo, "exit");
    free((void *)L->b[i].lo);
  }
  if (L->stack && in->be)
    be_host_remove(in->be, L->stack, "exit");
  if (L->stack)
    munmap(L->stack, STACK_BYTES);
  free(L->b);
  free(L->g);
  free(L);
  in->low = NULL;
}

/* "prog.mlir:12:5 name": an op's location and what it called, for the device's diagnostics. */
static const char *call_site(Interp *in, Op *op, const char *name) {
  Comp c = {in, NULL, 0};
  char buf[600];
  snprintf(buf, sizeof buf, "%s %s", interp_loc(&c, op), name);
  return ir_intern_cstr(in->ctx, buf).s;
}

/* ---- external functions: the C library ------------------------------------------------------ */

static const char *native_loc(Frame *fr, const Ins *call) {
  Comp c = {fr->in, NULL, 0};
  return interp_loc(&c, call->op);
}

/* "llvm.call @malloc": what traces name the device calls a C library call makes. */
static const char *call_label(Frame *fr, const Ins *call) {
  Attr *callee = ir_op_attr(call->op, "callee");
  char buf[200];
  if (callee && callee->kind == ATTR_SYMREF && callee->u.sym.n == 1)
    snprintf(buf, sizeof buf, "%.*s @%.*s", (int)call->op->name.len, call->op->name.s,
             (int)callee->u.sym.path[0].len, callee->u.sym.path[0].s);
  else
    snprintf(buf, sizeof buf, "%.*s", (int)call->op->name.len, call->op->name.s);
  return ir_intern_cstr(fr->in->ctx, buf).s;
}

static int heap_alloc(Frame *fr, const Ins *call, uint64_t bytes, uint64_t align, Slot *res) {
  void *p = NULL;
  align = align < 16 ? 16 : align;
  if ((align & (align - 1)) || !(p = interp_host_alloc(bytes, align))) /* zeroed, as memref.alloc gives */
    return interp_error(fr, call, "out of memory: cannot allocate %" PRIu64 " bytes aligned to %" PRIu64,
                        bytes, align);
  const char *loc = native_loc(fr, call);
  interp_low_block_add(fr->in, p, bytes, R_HEAP, loc);
  if (fr->in->be) {
    be_trace_label(call_label(fr, call));
    BeStatus st = be_host_add(fr->in->be, p, bytes ? bytes : 1, loc);
    be_trace_label(NULL);
    if (st != BE_OK)
      return EX_ERROR;
  }
  res[0].p = p;
  return EX_NEXT;
}

static int heap_free(Frame *fr, const Ins *call, void *p) {
  if (!p)
    return EX_NEXT;
  if (!block_remove(fr->in, p, R_HEAP))
    return interp_error(fr, call,
                        "frees 0x%" PRIxPTR ", which is not a live malloc block (double free?)",
                        (uintptr_t)p);
  if (fr->in->be)
    be_trace_label(call_label(fr, call));
  if (fr->in->be)
    be_host_remove(fr->in->be, p, native_loc(fr, call));
  be_trace_label(NULL);
  free(p);
  return EX_NEXT;
}

static int n_malloc(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  return heap_alloc(fr, call, a[0].u, 16, r);
}
static int n_aligned_alloc(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  return heap_alloc(fr, call, a[1].u, a[0].u, r);
}
static int n_calloc(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  if (a[1].u && a[0].u > UINT64_MAX / a[1].u)
    return interp_error(fr, call, "calloc size overflows");
  return heap_alloc(fr, call, a[0].u * a[1].u, 16, r);
}
static int n_free(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  (void)r;
  return heap_free(fr, call, a[0].p);
}
static int n_realloc(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  void *old = a[0].p;
  ptrdiff_t i = old ? block_find(lowered(fr->in), (uintptr_t)old) : -1;
  if (old && (i < 0 || fr->in->low->b[i].lo != (uintptr_t)old || fr->in->low->b[i].kind != R_HEAP))
    return interp_error(fr, call, "reallocates 0x%" PRIxPTR ", which is not a live malloc block",
                        (uintptr_t)old);
  uint64_t oldn = old ? fr->in->low->b[i].hi - fr->in->low->b[i].lo : 0;
  if (old && fr->in->be && be_host_access(fr->in->be, old, oldn < a[1].u ? oldn : a[1].u, false,
                                          native_loc(fr, call)) != BE_OK)
    return EX_ERROR; /* what is kept of the old block is read before it is freed */
  if (heap_alloc(fr, call, a[1].u, 16, r) == EX_ERROR)
    return EX_ERROR;
  if (old)
    memcpy(r[0].p, old, oldn < a[1].u ? oldn : a[1].u);
  return heap_free(fr, call, old);
}

/* ---- external functions: libm --------------------------------------------------------------- */

/* What math lowered to library calls (convert-math-to-libm, convert-math-to-funcs) calls: the f64
 * function and its f32 twin (name + "f"), both computed in double and rounded to the result. */
static const struct {
  const char *name;
  double (*f1)(double);
  double (*f2)(double, double);
} libm[] = {
    {"sin", sin, NULL},
    {"cos", cos, NULL},
    {"tan", tan, NULL},
    {"asin", asin, NULL},
    {"acos", acos, NULL},
    {"atan", atan, NULL},
    {"sinh", sinh, NULL},
    {"cosh", cosh, NULL},
    {"tanh", tanh, NULL},
    {"asinh", asinh, NULL},
    {"acosh", acosh, NULL},
    {"atanh", atanh, NULL},
    {"exp", exp, NULL},
    {"exp2", exp2, NULL},
    {"expm1", expm1, NULL},
    {"log", log, NULL},
    {"log2", log2, NULL},
    {"log10", log10, NULL},
    {"log1p", log1p, NULL},
    {"sqrt", sqrt, NULL},
    {"cbrt", cbrt, NULL},
    {"erf", erf, NULL},
    {"erfc", erfc, NULL},
    {"round", round, NULL},
    {"roundeven", nearbyint, NULL},
    {"trunc", trunc, NULL},
    {"floor", floor, NULL},
    {"ceil", ceil, NULL},
    {"fabs", fabs, NULL},
    {"pow", NULL, pow},
    {"atan2", NULL, atan2},
    {"fmod", NULL, fmod},
    {"copysign", NULL, copysign},
    {"hypot", NULL, hypot},
    {"fmin", NULL, fmin},
    {"fmax", NULL, fmax},
};

/* The libm entry for name and whether it is the f32 variant, or -1. */
static int libm_find(Str name, bool *f32) {
  for (size_t i = 0; i < sizeof libm / sizeof libm[0]; i++) {
    size_t n = strlen(libm[i].name);
    if (name.len >= n && name.len <= n + 1 && !memcmp(name.s, libm[i].name, n) &&
        (name.len == n || name.s[n] == 'f')) {
      *f32 = name.len > n;
      return (int)i;
    }
  }
  return -1;
}

/* fr->fn is the declaration being called: its name says which function. */
static int n_libm(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  bool f32;
  int i = libm_find(fr->fn->name, &f32);
  if (i < 0 || (libm[i].f1 ? fr->fn->nargs != 1 : fr->fn->nargs != 2) || fr->fn->nresults != 1)
    return interp_error(fr, call, "'%.*s' is called with a signature libm does not have",
                        (int)fr->fn->name.len, fr->fn->name.s);
  double x = f32 ? a[0].f32 : a[0].f, y = f32 ? a[1].f32 : a[1].f;
  double v = libm[i].f1 ? libm[i].f1(x) : libm[i].f2(x, y);
  r[0].u = 0;
  if (f32)
    r[0].f32 = (float)v;
  else
    r[0].f = v;
  return EX_NEXT;
}

/* ---- external functions: runner utils -------------------------------------------------------- */

/* memrefCopy(elemSize, UnrankedMemRefType *src, UnrankedMemRefType *dst): what memref.copy of a
 * non-contiguous memref lowers to. */
static int n_memref_copy(Frame *fr, const Ins *call, Slot *a, Slot *r) {
  (void)r;
  int64_t es = a[0].i;
  if (!owned(fr, call, a[1].u, 16, "load") || !owned(fr, call, a[2].u, 16, "load"))
    return EX_ERROR;
  const Slot *su = a[1].p, *du = a[2].p;
  int64_t rank = su[0].i;
  if (rank != du[0].i || rank < 0 || rank > 16 || es <= 0)
    return interp_error(fr, call, "memrefCopy of a rank-%lld memref into a rank-%lld one",
                        (long long)rank, (long long)du[0].i);
  if (!owned(fr, call, su[1].u, 24 + 16 * (uint64_t)rank, "load") ||
      !owned(fr, call, du[1].u, 24 + 16 * (uint64_t)rank, "load"))
    return EX_ERROR;
  if (es > 65536)
    return interp_error(fr, call, "memrefCopy of elements of %lld bytes", (long long)es);
  const Slot *sd = su[1].p, *dd = du[1].p;
  int64_t idx[16] = {0}, n = 1;
  for (int64_t i = 0; i < rank; i++) {
    if (sd[3 + i].i != dd[3 + i].i)
      return interp_error(fr, call, "memrefCopy between memrefs of different sizes");
    if (__builtin_mul_overflow(n, sd[3 + i].i, &n))
      return interp_error(fr, call, "memrefCopy of more than 2^63 elements");
  }
  /* both views lie in memory the program owns, so no element offset below overflows */
  if (n && (!interp_view_owned(fr, call, sd, (uint32_t)rank, (uint32_t)es, "load") ||
            !interp_view_owned(fr, call, dd, (uint32_t)rank, (uint32_t)es, "store")))
    return EX_ERROR;
  /* Twice over the elements: first check them all and report the runs each side touches, then
     copy. */
  const char *loc = native_loc(fr, call);
  Span rd = {0, 0, false}, wr = {0, 0, true};
  for (int pass = 0; pass < 2; pass++) {
    for (int64_t k = 0; k < n; k++) {
      int64_t so = sd[2].i, d = dd[2].i;
      for (int64_t i = 0; i < rank; i++) {
        so += idx[i] * sd[3 + rank + i].i;
        d += idx[i] * dd[3 + rank + i].i;
      }
      uintptr_t sp = sd[1].u + (uint64_t)(so * es), dp = dd[1].u + (uint64_t)(d * es);
      if (pass)
        memmove((void *)dp, (const void *)sp, (size_t)es);
      else if (!host_mem_ok(fr, call, sp, (uint64_t)es, false) ||
               !host_mem_ok(fr, call, dp, (uint64_t)es, true) ||
               !span_add(fr, &rd, sp, (uint64_t)es, loc) || !span_add(fr, &wr, dp, (uint64_t)es, loc))
        return EX_ERROR;
      for (int64_t i = rank - 1; i >= 0 && ++idx[i] == sd[3 + i].i; i--)
        idx[i] = 0;
    }
    if (!pass && (!span_flush(fr, &rd, loc) || !span_flush(fr, &wr, loc)))
      return EX_ERROR;
  }
  return EX_NEXT;
}

/* ---- external functions: the mgpu* runtime, on the interpreter's device --------------------- */

/* Lends the device to the ABI for one call, named by the call's location. */
static bool bind(Frame *fr, const Ins *call, const char *name) {
  if (!fr->in->be) {
    interp_error(fr, call, "%s needs a device, and the interpreter has none", name);
    return false;
  }
  mgpu_bind(&fr->in->host, call_site(fr->in, call->op, name));
  char label[200];
  snprintf(label, sizeof label, "llvm.call @%s", name);
  be_trace_label(ir_intern_cstr(fr->in->ctx, label).s); /* traces name the call as the program does */
  return true;
}

static int unbind(void) {
  mgpu_bind(NULL, NULL);
  be_trace_label(NULL);
  return EX_NEXT;
}

#define MGPU(name) static int n_##name(Frame *fr, const Ins *call, Slot *a, Slot *r)
#define BIND(name)                                                                                 \
  (void)a, (void)r;                                                                                \
  if (!bind(fr, call, #name))                                                                      \
  return EX_ERROR

/* A pointer argument that the ABI will read or write: memory the program owns (device memory
 * included), so a wild pointer is reported here and not followed. */
#define OWNED(p, n, what)                                                                          \
  if (!owned(fr, call, (uintptr_t)(p), (n), what))                                                 \
  return EX_ERROR

MGPU(mgpuStreamCreate) {
  BIND(mgpuStreamCreate);
  r[0].p = mgpuStreamCreate();
  return unbind();
}
MGPU(mgpuStreamDestroy) {
  BIND(mgpuStreamDestroy);
  mgpuStreamDestroy(a[0].p);
  return unbind();
}
MGPU(mgpuStreamSynchronize) {
  BIND(mgpuStreamSynchronize);
  mgpuStreamSynchronize(a[0].p);
  unbind();
  return gpu_sync_point(fr, call);
}
MGPU(mgpuStreamWaitEvent) {
  BIND(mgpuStreamWaitEvent);
  mgpuStreamWaitEvent(a[0].p, a[1].p);
  return unbind();
}
MGPU(mgpuEventCreate) {
  BIND(mgpuEventCreate);
  r[0].p = mgpuEventCreate();
  return unbind();
}
MGPU(mgpuEventDestroy) {
  BIND(mgpuEventDestroy);
  mgpuEventDestroy(a[0].p);
  return unbind();
}
MGPU(mgpuEventSynchronize) {
  BIND(mgpuEventSynchronize);
  mgpuEventSynchronize(a[0].p);
  unbind();
  return gpu_sync_point(fr, call);
}
MGPU(mgpuEventRecord) {
  BIND(mgpuEventRecord);
  mgpuEventRecord(a[0].p, a[1].p);
  return unbind();
}
MGPU(mgpuSetDefaultDevice) {
  BIND(mgpuSetDefaultDevice);
  mgpuSetDefaultDevice((int32_t)a[0].i);
  return unbind();
}

MGPU(mgpuMemAlloc) {
  BIND(mgpuMemAlloc);
  r[0].p = mgpuMemAlloc(a[0].u, a[1].p, a[2].i & 1);
  if (r[0].p)
    interp_low_block_add(fr->in, r[0].p, a[0].u, a[2].i & 1 ? R_SHARED : R_DEVICE,
                         call_site(fr->in, call->op, "mgpuMemAlloc"));
  return unbind();
}

MGPU(mgpuMemFree) {
  BIND(mgpuMemFree);
  mgpuMemFree(a[0].p, a[1].p);
  if (a[0].p)
    block_remove(fr->in, a[0].p, R_DEVICE);
  return unbind();
}

MGPU(mgpuMemcpy) {
  OWNED(a[0].p, a[2].u, "copy to");
  OWNED(a[1].p, a[2].u, "copy from");
  BIND(mgpuMemcpy);
  mgpuMemcpy(a[0].p, a[1].p, a[2].u, a[3].p);
  return unbind();
}

MGPU(mgpuMemset32) {
  if (a[2].u > UINT64_MAX / 4)
    return interp_error(fr, call, "memset of %" PRIu64 " elements: their bytes overflow 64 bits", a[2].u);
  OWNED(a[0].p, a[2].u * 4, "memset");
  BIND(mgpuMemset32);
  mgpuMemset32(a[0].p, (unsigned)a[1].i, a[2].u, a[3].p);
  return unbind();
}

MGPU(mgpuMemset16) {
  if (a[2].u > UINT64_MAX / 2)
    return interp_error(fr, call, "memset of %" PRIu64 " elements: their bytes overflow 64 bits", a[2].u);
  OWNED(a[0].p, a[2].u * 2, "memset");
  BIND(mgpuMemset16);
  mgpuMemset16(a[0].p, (unsigned short)a[1].i, a[2].u, a[3].p);
  return unbind();
}

/* A malloc block is known to the device as host memory, which kernels may not touch; registering
 * a range of it registers the range in place, as gpu.c's gpu.host_register does for memref.alloc
 * memory: the device keeps each range and refuses one that overlaps a range registered already.
 * Freeing the block ends its registrations. */
MGPU(mgpuMemHostRegister) {
  OWNED(a[0].p, a[1].u, "registration");
  BIND(mgpuMemHostRegister);
  mgpuMemHostRegister(a[0].p, a[1].u);
  return unbind();
}

MGPU(mgpuMemHostUnregister) {
  BIND(mgpuMemHostUnregister);
  mgpuMemHostUnregister(a[0].p);
  return unbind();
}

MGPU(mgpuMemHostRegisterMemRef) {
  OWNED(a[1].p, 24 + 16 * (uint64_t)(a[0].i < 0 ? 0 : a[0].i), "load");
  BIND(mgpuMemHostRegisterMemRef);
  mgpuMemHostRegisterMemRef(a[0].i, a[1].p, a[2].i);
  return unbind();
}

MGPU(mgpuMemHostUnregisterMemRef) {
  OWNED(a[1].p, 24 + 16 * (uint64_t)(a[0].i < 0 ? 0 : a[0].i), "load");
  BIND(mgpuMemHostUnregisterMemRef);
  mgpuMemHostUnregisterMemRef(a[0].i, a[1].p, a[2].i);
  return unbind();
}

MGPU(mgpuModuleLoad) {
  OWNED(a[0].p, a[1].u, "load");
  BIND(mgpuModuleLoad);
  r[0].p = mgpuModuleLoad(a[0].p, a[1].u);
  return unbind();
}

/* The NUL-terminated string at p lies in owned memory. */
static bool owned_string(Frame *fr, const Ins *call, const char *p) {
  if (!owned(fr, call, (uintptr_t)p, 1, "load"))
    return false;
  Lowered *L = fr->in->low;
  ptrdiff_t i = block_find(L, (uintptr_t)p);
  uintptr_t end = i >= 0 ? L->b[i].hi : (uintptr_t)L->stack + fr->in->sp;
  if (memchr(p, 0, end - (uintptr_t)p))
    return true;
  interp_error(fr, call, "the string at 0x%" PRIxPTR " runs past its memory", (uintptr_t)p);
  return false;
}

MGPU(mgpuModuleLoadJIT) {
  if (!owned_string(fr, call, a[0].p))
    return EX_ERROR;
  BIND(mgpuModuleLoadJIT);
  r[0].p = mgpuModuleLoadJIT(a[0].p, (int)a[1].i);
  return unbind();
}

MGPU(mgpuModuleUnload) {
  BIND(mgpuModuleUnload);
  mgpuModuleUnload(a[0].p);
  return unbind();
}

MGPU(mgpuModuleGetFunction) {
  if (!owned_string(fr, call, a[1].p))
    return EX_ERROR;
  BIND(mgpuModuleGetFunction);
  r[0].p = mgpuModuleGetFunction(a[0].p, a[1].p);
  return unbind();
}

MGPU(mgpuLaunchKernel) {
  OWNED(a[9].p, a[11].u * 8, "load");
  BIND(mgpuLaunchKernel);
  mgpuLaunchKernel(a[0].p, (intptr_t)a[1].i, (intptr_t)a[2].i, (intptr_t)a[3].i, (intptr_t)a[4].i,
                   (intptr_t)a[5].i, (intptr_t)a[6].i, (int32_t)a[7].i, a[8].p, a[9].p, a[10].p,
                   a[11].u);
  return unbind();
}

static const struct {
  const char *name;
  NativeFn fn;
} natives[] = {{"malloc", n_malloc},
               {"aligned_alloc", n_aligned_alloc},
               {"calloc", n_calloc},
               {"realloc", n_realloc},
               {"free", n_free},
               {"memrefCopy", n_memref_copy},
#define ENTRY(name) {#name, n_##name},
               ENTRY(mgpuStreamCreate) ENTRY(mgpuStreamDestroy) ENTRY(mgpuStreamSynchronize)
                   ENTRY(mgpuStreamWaitEvent) ENTRY(mgpuEventCreate) ENTRY(mgpuEventDestroy)
                       ENTRY(mgpuEventSynchronize) ENTRY(mgpuEventRecord) ENTRY(mgpuMemAlloc) ENTRY(
                           mgpuMemFree) ENTRY(mgpuMemcpy) ENTRY(mgpuMemset32) ENTRY(mgpuMemset16)
                           ENTRY(mgpuMemHostRegister) ENTRY(mgpuMemHostUnregister)
                               ENTRY(mgpuMemHostRegisterMemRef) ENTRY(mgpuMemHostUnregisterMemRef)
                                   ENTRY(mgpuSetDefaultDevice) ENTRY(mgpuModuleLoad)
                                       ENTRY(mgpuModuleLoadJIT) ENTRY(mgpuModuleUnload)
                                           ENTRY(mgpuModuleGetFunction) ENTRY(mgpuLaunchKernel)
#undef ENTRY
};

NativeFn interp_llvm_native_fn(Str name) {
  NativeFn async = interp_async_native_fn(name);
  if (async)
    return async;
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++)
    if (ir_str_eq(name, natives[i].name))
      return natives[i].fn;
  bool f32;
  return libm_find(name, &f32) >= 0 ? n_libm : NULL;
}
