/* memref.c - the memref dialect on the host.
 *
 * A ranked memref value is MLIR's descriptor in consecutive words: allocated pointer, aligned
 * pointer, offset, sizes[rank], strides[rank] (all in elements), so it is byte-compatible with
 * what lowered code and the runner utils expect. An unranked memref is [rank, descriptor pointer]
 * followed by room for the descriptor itself, which a cast to unranked fills in and points to.
 *
 * Every load and store is bounds-checked (a located error names the index and the dimension),
 * and reported to the backend as a host access, so host reads and writes take part in the race
 * detection against device copies and kernels; so are memref.copy's reads and writes (by runs of
 * adjacent elements), the atomics' (as writes) and what realloc reads of the old buffer. Allocations are made known to the backend too.
 *
 * Memory has clear owners: memref.alloc goes on the interpreter's heap list until dealloc (a
 * dealloc of anything else is a located error), memref.alloca on its call's list until the call
 * or the enclosing alloca_scope ends, globals live as long as the interpreter. View ops
 * (subview, reinterpret_cast, view, expand/collapse_shape, transpose) only compute a new
 * descriptor over the same buffer. Host atomics are a load, the op and a store: the host runs one
 * thread of the program. */
#include "interp/internal.h"
#include "interp/llvm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define D_ALLOC 0
#define D_ALIGNED 1
#define D_OFFSET 2
#define D_SIZES 3

static inline int64_t *sizes(Slot *d) { return &d[D_SIZES].i; }
static inline int64_t *strides(Slot *d, uint32_t rank) { return &d[D_SIZES + rank].i; }

/* "file:line:col" of an op, kept with the context: the backend names ops by it. */
const char *interp_loc(Comp *c, Op *op) {
  char buf[512];
  interp_site(op, buf, sizeof buf);
  return ir_intern_cstr(c->in->ctx, buf).s;
}

/* The same string, copied into the context without interning, for an op compiled once (a gpu op's
 * GOp): what reads it compares sites by their text, and interning each op's distinct site only
 * grew the intern table with the program, every op probing it at a random place. */
const char *interp_loc_once(Comp *c, Op *op) {
  char buf[512];
  interp_site(op, buf, sizeof buf);
  size_t n = strlen(buf) + 1;
  return memcpy(ir_alloc(c->in->ctx, n), buf, n);
}

/* ---- alloc and dealloc ---------------------------------------------------------------------- */

/* Every block of host memory the program sizes (memref.alloc and alloca, realloc, globals, malloc
 * and friends in lowered code) comes from here: zeroed, aligned to align (a power of two, at least
 * the size of a pointer), NULL when it cannot be had. A request past the machine's memory is
 * refused before the allocator sees it: a sanitizing allocator aborts on some such sizes instead
 * of failing, and zeroing one would exhaust the machine. */
void *interp_host_alloc(uint64_t bytes, uint64_t align) {
  static uint64_t limit;
  if (!limit) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    limit = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)1 << 40;
    if (limit > (uint64_t)1 << 40)
      limit = (uint64_t)1 << 40;
  }
  void *p = NULL;
  if (bytes > limit || posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, bytes ? bytes : 1))
    return NULL;
  memset(p, 0, bytes ? bytes : 1);
  return p;
}

typedef struct Shape {
  Type *type;
  uint32_t rank, esize;
  uint32_t align; /* alloc: bytes, at least 64 */
  const char *loc;
  bool stack;
} Shape;

/* The program's host memory: what it does not free is freed when the interpreter is destroyed
 * (MLIR programs often leave that to the process's end). Frees search from the newest. */
/* memref.alloc's blocks are known to the lowered form's memory table too, so that pointers taken
 * from memrefs (a lowering's mgpuMemcpy arguments) are memory the program owns. */
static void heap_add(Interp *in, void *p, uint64_t bytes, const char *loc) {
  interp_low_block_add(in, p, bytes, R_MEMREF, loc);
  if (in->nheap == in->capheap) {
    in->capheap = in->capheap ? in->capheap * 2 : 64;
    HeapBlock *h = realloc(in->heap, in->capheap * sizeof *h);
    if (!h)
      abort();
    in->heap = h;
  }
  in->heap[in->nheap++] = (HeapBlock){p, bytes, ++in->nallocs, loc};
}

/* The block's last bytes go to the differential checker's hook first, while they still exist. */
static bool heap_remove(Interp *in, void *p) {
  for (size_t i = in->nheap; i-- > 0;) {
    if (in->heap[i].p == p) {
      if (in->host_buffer)
        in->host_buffer(in->hook_user, in->heap[i].loc, in->heap[i].seq, p, in->heap[i].bytes);
      in->heap[i] = in->heap[--in->nheap];
      interp_low_block_remove(in, p);
      return true;
    }
  }
  return false;
}

void interp_free_heap(Interp *in) {
  for (size_t i = 0; i < in->nheap; i++) {
    HeapBlock *h = &in->heap[i];
    if (in->host_buffer)
      in->host_buffer(in->hook_user, h->loc, h->seq, h->p, h->bytes);
    if (in->be)
      be_host_remove(in->be, h->p, "exit");
    free(h->p);
  }
  free(in->heap);
}

static int x_alloc(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  Slot *d = &fr->s[ins->out[0]];
  uint64_t n = 1;
  uint32_t dyn = 0;
  for (uint32_t i = 0; i < sh->rank; i++) {
    int64_t sz = sh->type->u.sh.shape[i];
    if (sz == IR_DYNAMIC) {
      sz = fr->s[ins->in[dyn++]].i;
      if (sz < 0)
        return interp_error(fr, ins, "negative size %lld for dimension %u", (long long)sz, i);
    }
    sizes(d)[i] = sz;
    if (__builtin_mul_overflow(n, (uint64_t)sz, &n))
      return interp_error(fr, ins, "allocation size overflows");
  }
  int64_t st = 1;
  for (uint32_t i = sh->rank; i-- > 0;) {
    strides(d, sh->rank)[i] = st;
    if (__builtin_mul_overflow(st, sizes(d)[i], &st))
      return interp_error(fr, ins, "allocation size overflows");
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(n, (uint64_t)sh->esize, &bytes) || bytes > INT64_MAX)
    return interp_error(fr, ins, "allocation size overflows");
  void *p = NULL;
  if (sh->stack) {
    /* alloca: a 64-byte header links it into the frame's list, freed when the function (or the
     * enclosing alloca_scope) ends */
    void *blk = bytes <= UINT64_MAX - 64 ? interp_host_alloc(64 + bytes, 64) : NULL;
    if (!blk)
      return interp_error(fr, ins, "out of memory: cannot allocate %llu bytes", (unsigned long long)bytes);
    *(void **)blk = fr->allocas;
    fr->allocas = blk;
    p = (char *)blk + 64;
    interp_low_block_add(fr->in, p, bytes, R_MEMREF, sh->loc);
  } else if (bytes) {
    if (!(p = interp_host_alloc(bytes, sh->align)))
      return interp_error(fr, ins, "out of memory: cannot allocate %llu bytes", (unsigned long long)bytes);
    heap_add(fr->in, p, bytes, sh->loc);
  }
  d[D_ALLOC].p = p;
  d[D_ALIGNED].p = p;
  d[D_OFFSET].i = 0;
  be_trace_label(ins->op->name.s); /* traces name the call by the op */
  BeStatus added = p && fr->in->be ? be_host_add(fr->in->be, p, bytes, sh->loc) : BE_OK;
  be_trace_label(NULL);
  if (added != BE_OK)
    return EX_ERROR;
  return EX_NEXT;
}

static Shape *shape_of(Comp *c, Op *op, Type *t) {
  Shape *sh = ir_alloc(c->in->ctx, sizeof *sh);
  sh->type = t;
  sh->rank = t->u.sh.rank;
  sh->esize = interp_elem_bytes(t->u.sh.elem);
  sh->loc = interp_loc(c, op);
  return sh;
}

bool c_alloc(Comp *c, Op *op, Ins *ins) {
  Type *t = op->results[0].type;
  if (t->kind != TY_MEMREF || t->u.sh.layout)
    return interp_unsupported(c, op, "an allocation with a layout");
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  if (seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 2 && seg->u.darr.ivals[1])
    return interp_unsupported(c, op, "an allocation with symbol operands");
  Shape *sh = shape_of(c, op, t);
  if (!sh->esize)
    return interp_unsupported(c, op, "memory of this element type");
  sh->stack = ir_str_eq(op->name, "memref.alloca");
  Attr *al = ir_op_attr(op, "alignment");
  sh->align = 64;
  if (al && al->kind == ATTR_INT && al->u.i.v > 64 && !(al->u.i.v & (al->u.i.v - 1))) {
    if (sh->stack)
      return interp_unsupported(c, op, "an alloca aligned to more than 64 bytes");
    sh->align = (uint32_t)al->u.i.v;
  }
  ins->aux = sh;
  ins->fn = x_alloc;
  return true;
}

/* memref.realloc: a new buffer of the result's size holding the old contents (as far as they
 * fit; the rest zero); the old buffer is freed */
static int x_realloc(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  int64_t n = sh->type->u.sh.shape[0] == IR_DYNAMIC ? fr->s[ins->in[1]].i : sh->type->u.sh.shape[0];
  if (n < 0)
    return interp_error(fr, ins, "negative size %lld", (long long)n);
  void *old = s[D_ALLOC].p;
  uint64_t bytes, keep = (uint64_t)s[D_SIZES].i * sh->esize;
  if (__builtin_mul_overflow((uint64_t)n, (uint64_t)sh->esize, &bytes))
    return interp_error(fr, ins, "allocation size overflows");
  char *from = old ? (char *)s[D_ALIGNED].p + s[D_OFFSET].i * (int64_t)sh->esize : NULL;
  if (old && fr->in->be && be_host_access(fr->in->be, from, keep < bytes ? keep : bytes, false, sh->loc) != BE_OK)
    return EX_ERROR; /* the old contents are read before the old buffer is freed */
  if (old && !heap_remove(fr->in, old))
    return interp_error(fr, ins, "reallocates memory that is not a live allocation");
  void *p = NULL;
  if (bytes && !(p = interp_host_alloc(bytes, 64)))
    return interp_error(fr, ins, "out of memory: cannot allocate %llu bytes", (unsigned long long)bytes);
  if (p) {
    if (old)
      memcpy(p, from, keep < bytes ? keep : bytes);
    heap_add(fr->in, p, bytes, sh->loc);
  }
  if (old) {
    if (fr->in->be)
      be_host_remove(fr->in->be, old, sh->loc);
    free(old);
  }
  d[D_ALLOC].p = p;
  d[D_ALIGNED].p = p;
  d[D_OFFSET].i = 0;
  d[D_SIZES].i = n;
  d[D_SIZES + 1].i = 1;
  be_trace_label(ins->op->name.s); /* traces name the call by the op */
  BeStatus added = p && fr->in->be ? be_host_add(fr->in->be, p, bytes, sh->loc) : BE_OK;
  be_trace_label(NULL);
  if (added != BE_OK)
    return EX_ERROR;
  return EX_NEXT;
}

bool c_realloc(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *t = op->results[0].type;
  if (st->kind != TY_MEMREF || t->kind != TY_MEMREF || st->u.sh.rank != 1 || t->u.sh.rank != 1 ||
      st->u.sh.layout || t->u.sh.layout)
    return interp_unsupported(c, op, "this realloc (1-D memrefs without layout only)");
  Shape *sh = shape_of(c, op, t);
  if (!sh->esize)
    return interp_unsupported(c, op, "memory of this element type");
  ins->aux = sh;
  ins->fn = x_realloc;
  return true;
}

void interp_free_allocas(Frame *fr, void *until) {
  while (fr->allocas && fr->allocas != until) {
    void *blk = fr->allocas;
    fr->allocas = *(void **)blk;
    interp_low_block_remove(fr->in, (char *)blk + 64);
    if (fr->in->be)
      be_host_remove(fr->in->be, (char *)blk + 64, "alloca");
    free(blk);
  }
}

typedef struct Scope {
  Body body;
} Scope;

static int x_alloca_scope(Frame *fr, const Ins *ins) {
  void *mark = fr->allocas;
  int r = interp_run_body(fr, ins->aux);
  interp_free_allocas(fr, mark);
  return r;
}

bool c_alloca_scope(Comp *c, Op *op, Ins *ins) {
  Body *b = ir_alloc(c->in->ctx, sizeof *b);
  ins->aux = b;
  ins->fn = x_alloca_scope;
  return interp_compile_body(c, &op->regions[0], b);
}

static int x_alloca_scope_return(Frame *fr, const Ins *ins) {
  const uint32_t *dst = ins->aux;
  for (uint32_t i = 0; i < ins->nin; i++)
    interp_copy(&fr->s[dst[2 * i]], &fr->s[ins->in[i]], dst[2 * i + 1]);
  fr->jump = -1;
  return EX_DONE;
}

bool c_alloca_scope_return(Comp *c, Op *op, Ins *ins) {
  Op *parent = ir_op_parent_op(op);
  if (!parent || !ir_str_eq(parent->name, "memref.alloca_scope") || parent->nresults != op->noperands)
    return interp_unsupported(c, op, "alloca_scope.return outside alloca_scope");
  uint32_t *dst = ir_alloc(c->in->ctx, (2 * op->noperands + 1) * sizeof *dst);
  for (uint32_t i = 0; i < op->noperands; i++) {
    dst[2 * i] = parent->results[i].id;
    dst[2 * i + 1] = interp_words(parent->results[i].type);
  }
  ins->aux = dst;
  ins->fn = x_alloca_scope_return;
  return true;
}

static int x_dealloc(Frame *fr, const Ins *ins) {
  Slot *d = &fr->s[ins->in[0]];
  if (ins->a) /* unranked: [rank, descriptor pointer, ...] */
    d = d[1].p;
  if (!d[D_ALLOC].p)
    return EX_NEXT;
  if (!heap_remove(fr->in, d[D_ALLOC].p))
    return interp_error(fr, ins, "frees memory that is not a live allocation (double free?)");
  if (fr->in->be) {
    be_trace_label(ins->op->name.s);
    be_host_remove(fr->in->be, d[D_ALLOC].p, ins->aux);
    be_trace_label(NULL);
  }
  free(d[D_ALLOC].p);
  return EX_NEXT;
}

bool c_dealloc(Comp *c, Op *op, Ins *ins) {
  TypeKind k = op->operands[0]->type->kind;
  if (k != TY_MEMREF && k != TY_UNRANKED_MEMREF)
    return interp_unsupported(c, op, "dealloc of this type");
  ins->a = k == TY_UNRANKED_MEMREF;
  ins->aux = (void *)interp_loc(c, op);
  ins->fn = x_dealloc;
  return true;
}

/* ---- load and store ------------------------------------------------------------------------- */

/* The address of element idx (from operand `first` on) of descriptor d, or NULL after an error. */
static void *element(Frame *fr, const Ins *ins, const Shape *sh, Slot *d, uint32_t first) {
  int64_t off = d[D_OFFSET].i;
  for (uint32_t i = 0; i < sh->rank; i++) {
    int64_t x = fr->s[ins->in[first + i]].i, n = sizes(d)[i];
    if (x < 0 || x >= n) {
      interp_error(fr, ins, "out-of-bounds access: index %lld is not in [0, %lld) in dimension %u",
                   (long long)x, (long long)n, i);
      return NULL;
    }
    if (!interp_madd(&off, x, strides(d, sh->rank)[i])) {
      interp_error(fr, ins, "the element's offset overflows (offset %lld, stride %lld in dimension %u)",
                   (long long)d[D_OFFSET].i, (long long)strides(d, sh->rank)[i], i);
      return NULL;
    }
  }
  int64_t byte = 0;
  if (!interp_madd(&byte, off, (int64_t)sh->esize)) {
    interp_error(fr, ins, "the element's offset %lld overflows", (long long)off);
    return NULL;
  }
  /* the descriptor is trusted no further than the memory table: a bad view is an error here */
  char *p = (char *)((uintptr_t)d[D_ALIGNED].p + (uintptr_t)byte);
  return interp_mem_owned(fr, ins, p, sh->esize, "access") ? p : NULL;
}

static int x_load(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  void *p = element(fr, ins, sh, &fr->s[ins->in[0]], 1);
  if (!p)
    return EX_ERROR;
  if (fr->in->be && be_host_access(fr->in->be, p, sh->esize, false, sh->loc) != BE_OK)
    return EX_ERROR;
  interp_load_elem(sh->type->u.sh.elem, p, &fr->s[ins->out[0]]);
  return EX_NEXT;
}

static int x_store(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  void *p = element(fr, ins, sh, &fr->s[ins->in[1]], 2);
  if (!p)
    return EX_ERROR;
  if (fr->in->be && be_host_access(fr->in->be, p, sh->esize, true, sh->loc) != BE_OK)
    return EX_ERROR;
  interp_store_elem(sh->type->u.sh.elem, p, &fr->s[ins->in[0]]);
  return EX_NEXT;
}

static bool access_ok(Comp *c, Op *op, Type *t) {
  if (t->kind != TY_MEMREF)
    return interp_unsupported(c, op, "access through an unranked memref");
  if (!interp_elem_bytes(t->u.sh.elem) || t->u.sh.elem->kind == TY_VECTOR)
    return interp_unsupported(c, op, "memory of this element type");
  return true;
}

bool c_load(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (!access_ok(c, op, t))
    return false;
  ins->aux = shape_of(c, op, t);
  ins->fn = x_load;
  return true;
}

bool c_store(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[1]->type;
  if (!access_ok(c, op, t))
    return false;
  ins->aux = shape_of(c, op, t);
  ins->fn = x_store;
  return true;
}

/* ---- casts, dims, views --------------------------------------------------------------------- */

/* ins->a: source rank (ranked source) ; ins->b: 0 ranked->ranked, 1 ranked->unranked,
 * 2 unranked->ranked, 3 unranked->unranked */
static int x_memref_cast(Frame *fr, const Ins *ins) {
  Slot *src = &fr->s[ins->in[0]], *dst = &fr->s[ins->out[0]];
  const Type *rt = ins->aux;
  switch (ins->b) {
  case 0:
    interp_copy(dst, src, 3 + 2 * ins->a);
    break;
  case 1:
    if (ins->a > 8)
      return interp_error(fr, ins, "unranked memrefs of rank above 8 are not supported");
    interp_copy(&dst[2], src, 3 + 2 * ins->a);
    dst[0].i = ins->a;
    dst[1].p = &dst[2];
    break;
  case 2: {
    int64_t rank = src[0].i;
    if (rank != (int64_t)rt->u.sh.rank)
      return interp_error(fr, ins, "cast of a rank-%lld memref to rank %u", (long long)rank, rt->u.sh.rank);
    interp_copy(dst, src[1].p, 3 + 2 * (uint32_t)rank);
    src = dst;
    break;
  }
  default: {
    int64_t rank = src[0].i;
    if (rank < 0 || rank > 8)
      return interp_error(fr, ins, "unranked memrefs of rank above 8 are not supported");
    interp_copy(&dst[2], src[1].p, 3 + 2 * (uint32_t)rank);
    dst[0].i = rank;
    dst[1].p = &dst[2];
    return EX_NEXT;
  }
  }
  if (ins->b != 1 && rt->kind == TY_MEMREF) {
    Slot *d = ins->b == 2 ? dst : src;
    for (uint32_t i = 0; i < rt->u.sh.rank; i++)
      if (rt->u.sh.shape[i] != IR_DYNAMIC && rt->u.sh.shape[i] != sizes(d)[i])
        return interp_error(fr, ins, "size %lld of dimension %u does not match the static size %lld of the result",
                            (long long)sizes(d)[i], i, (long long)rt->u.sh.shape[i]);
  }
  return EX_NEXT;
}

bool c_memref_cast(Comp *c, Op *op, Ins *ins) {
  Type *a = op->operands[0]->type, *b = op->results[0].type;
  (void)c;
  ins->a = a->kind == TY_MEMREF ? a->u.sh.rank : 0;
  ins->b = (a->kind != TY_MEMREF) * 2 + (b->kind != TY_MEMREF);
  ins->aux = b;
  ins->fn = x_memref_cast;
  return true;
}

static int x_dim(Frame *fr, const Ins *ins) {
  Slot *d = &fr->s[ins->in[0]];
  int64_t rank = ins->a;
  if (ins->b) { /* unranked */
    rank = d[0].i;
    d = d[1].p;
  }
  int64_t i = fr->s[ins->in[1]].i;
  if (i < 0 || i >= rank)
    return interp_error(fr, ins, "dimension %lld is out of range for a rank-%lld memref", (long long)i,
                        (long long)rank);
  fr->s[ins->out[0]].i = sizes(d)[i];
  return EX_NEXT;
}

bool c_dim(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (t->kind != TY_MEMREF && t->kind != TY_UNRANKED_MEMREF)
    return interp_unsupported(c, op, "dim of a tensor");
  ins->a = t->kind == TY_MEMREF ? t->u.sh.rank : 0;
  ins->b = t->kind != TY_MEMREF;
  ins->fn = x_dim;
  return true;
}

/* The host's accesses of every element of a view, reported to the backend before they are made:
 * a run of adjacent elements as one access, so what is reported is exactly what is touched. */
typedef struct Run {
  Backend *be;
  const char *loc;
  uintptr_t lo, hi; /* the run not reported yet */
  bool write, ok;   /* ok: false once the backend refused an access */
} Run;

static void run_flush(Run *r) {
  if (r->ok && r->hi > r->lo && be_host_access(r->be, (void *)r->lo, r->hi - r->lo, r->write, r->loc) != BE_OK)
    r->ok = false;
  r->lo = r->hi = 0;
}

static void run_walk(Run *r, const Shape *sh, const Slot *d, uint32_t dim, int64_t off) {
  if (dim == sh->rank) {
    uintptr_t p = (uintptr_t)((char *)d[D_ALIGNED].p + off * (int64_t)sh->esize);
    if (!r->hi || p != r->hi) {
      run_flush(r);
      r->lo = r->hi = p;
    }
    r->hi += sh->esize;
    return;
  }
  for (int64_t i = 0; i < d[D_SIZES + dim].i && r->ok; i++)
    run_walk(r, sh, d, dim + 1, off + i * d[D_SIZES + sh->rank + dim].i);
}

static bool report_view(Frame *fr, const Shape *sh, const Slot *d, bool write) {
  if (!fr->in->be)
    return true;
  Run r = {fr->in->be, sh->loc, 0, 0, write, true};
  run_walk(&r, sh, d, 0, d[D_OFFSET].i);
  run_flush(&r);
  return r.ok;
}

static void copy_rec(const Shape *sh, Slot *s, Slot *d, uint32_t dim, int64_t so, int64_t dof) {
  if (dim == sh->rank) {
    memcpy((char *)d[D_ALIGNED].p + dof * sh->esize, (char *)s[D_ALIGNED].p + so * sh->esize, sh->esize);
    return;
  }
  for (int64_t i = 0; i < sizes(s)[dim]; i++)
    copy_rec(sh, s, d, dim + 1, so + i * strides(s, sh->rank)[dim], dof + i * strides(d, sh->rank)[dim]);
}

static int x_copy(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->in[1]];
  for (uint32_t i = 0; i < sh->rank; i++)
    if (sizes(s)[i] != sizes(d)[i])
      return interp_error(fr, ins, "source and target differ in dimension %u (%lld vs %lld)", i,
                          (long long)sizes(s)[i], (long long)sizes(d)[i]);
  /* both views in memory the program owns: then no element offset overflows either */
  if (!interp_view_owned(fr, ins, s, sh->rank, sh->esize, "copy") ||
      !interp_view_owned(fr, ins, d, sh->rank, sh->esize, "copy") ||
      !report_view(fr, sh, s, false) || !report_view(fr, sh, d, true))
    return EX_ERROR;
  copy_rec(sh, s, d, 0, s[D_OFFSET].i, d[D_OFFSET].i);
  return EX_NEXT;
}

bool c_copy(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (t->kind != TY_MEMREF || op->operands[1]->type->kind != TY_MEMREF)
    return interp_unsupported(c, op, "copy of unranked memrefs");
  ins->aux = shape_of(c, op, t);
  ins->fn = x_copy;
  return true;
}

typedef struct View {
  uint32_t src_rank, dst_rank;
  int64_t *offs, *szs, *strs; /* static values, IR_DYNAMIC for operands */
  bool *keep;                 /* source dims kept in the result */
} View;

static int x_subview(Frame *fr, const Ins *ins) {
  const View *v = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  uint32_t k = 1;
  int64_t off = s[D_OFFSET].i, nsz[16], nst[16];
  for (uint32_t i = 0; i < v->src_rank; i++) {
    int64_t o = v->offs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : v->offs[i];
    if (!interp_madd(&off, o, strides(s, v->src_rank)[i]))
      return interp_error(fr, ins, "the view's offset overflows (offset %lld in dimension %u)", (long long)o, i);
  }
  for (uint32_t i = 0; i < v->src_rank; i++)
    nsz[i] = v->szs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : v->szs[i];
  for (uint32_t i = 0; i < v->src_rank; i++) {
    int64_t st = v->strs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : v->strs[i];
    if (__builtin_mul_overflow(st, strides(s, v->src_rank)[i], &nst[i]))
      return interp_error(fr, ins, "the view's stride overflows (stride %lld in dimension %u)", (long long)st, i);
  }
  d[D_ALLOC] = s[D_ALLOC];
  d[D_ALIGNED] = s[D_ALIGNED];
  d[D_OFFSET].i = off;
  uint32_t j = 0;
  for (uint32_t i = 0; i < v->src_rank; i++) {
    if (!v->keep[i])
      continue;
    sizes(d)[j] = nsz[i];
    strides(d, v->dst_rank)[j] = nst[i];
    j++;
  }
  return EX_NEXT;
}

static int64_t *static_list(Comp *c, Op *op, const char *name, uint32_t n) {
  Attr *a = ir_op_attr(op, name);
  if (!a || a->kind != ATTR_DENSE_ARRAY || a->u.darr.n != n || !a->u.darr.ivals)
    return NULL;
  (void)c;
  return a->u.darr.ivals;
}

bool c_subview(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  if (st->kind != TY_MEMREF || rt->kind != TY_MEMREF || st->u.sh.rank > 16)
    return interp_unsupported(c, op, "this subview");
  View *v = ir_alloc(c->in->ctx, sizeof *v);
  v->src_rank = st->u.sh.rank;
  v->dst_rank = rt->u.sh.rank;
  v->offs = static_list(c, op, "static_offsets", v->src_rank);
  v->szs = static_list(c, op, "static_sizes", v->src_rank);
  v->strs = static_list(c, op, "static_strides", v->src_rank);
  if (!v->offs || !v->szs || !v->strs)
    return interp_unsupported(c, op, "a subview without static offset, size and stride lists");
  /* rank reduction drops unit dimensions, from the left, until the ranks agree */
  v->keep = ir_alloc(c->in->ctx, v->src_rank * sizeof(bool) + 1);
  uint32_t drop = v->src_rank - v->dst_rank;
  for (uint32_t i = 0; i < v->src_rank; i++) {
    v->keep[i] = true;
    if (drop && v->szs[i] == 1) {
      v->keep[i] = false;
      drop--;
    }
  }
  if (drop)
    return interp_unsupported(c, op, "this rank-reducing subview");
  ins->aux = v;
  ins->fn = x_subview;
  return true;
}

static int x_aligned_pointer(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = (int64_t)(intptr_t)fr->s[ins->in[0] + D_ALIGNED].p;
  return EX_NEXT;
}

bool c_aligned_pointer(Comp *c, Op *op, Ins *ins) {
  if (op->operands[0]->type->kind != TY_MEMREF)
    return interp_unsupported(c, op, "an unranked memref");
  ins->fn = x_aligned_pointer;
  return true;
}

/* ---- globals -------------------------------------------------------------------------------- */

/* memref.global's memory is made on first use and lives as long as the interpreter. */
typedef struct Global {
  Shape sh;
  Op *decl;
  void *mem;
  uint64_t bytes;
} Global;

static bool fill_global(Global *g) {
  Attr *init = ir_op_attr(g->decl, "initial_value");
  uint64_t n = g->bytes / (g->sh.esize ? g->sh.esize : 1);
  if (!init || init->kind == ATTR_UNIT)
    return true;
  if (init->kind != ATTR_DENSE || (!init->u.dense.ivals && !init->u.dense.fvals))
    return false;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t k = init->u.dense.splat ? 0 : i;
    if (k >= init->u.dense.n)
      return false;
    Slot s = {0};
    Type *et = g->sh.type->u.sh.elem;
    if (init->u.dense.fvals) {
      if (et->kind != TY_FLOAT)
        return false;
      if (et->u.f == F_F64)
        s.f = init->u.dense.fvals[k];
      else
        s.f32 = (float)init->u.dense.fvals[k];
    } else {
      s.i = init->u.dense.ivals[k];
    }
    interp_store_elem(et, (char *)g->mem + i * g->sh.esize, &s);
  }
  return true;
}

static int x_get_global(Frame *fr, const Ins *ins) {
  Global *g = ins->aux;
  Slot *d = &fr->s[ins->out[0]];
  if (!g->mem && g->bytes) {
    if (g->bytes == UINT64_MAX)
      return interp_error(fr, ins, "out of memory: the global's size overflows 64 bits");
    if (!(g->mem = interp_host_alloc(g->bytes, 64)))
      return interp_error(fr, ins, "out of memory: cannot allocate %llu bytes for the global",
                          (unsigned long long)g->bytes);
    if (!fill_global(g))
      return interp_error(fr, ins, "the global's initial value is not supported by the interpreter yet");
    interp_low_block_add(fr->in, g->mem, g->bytes, R_MEMREF, g->sh.loc);
    if (fr->in->be && be_host_add(fr->in->be, g->mem, g->bytes, g->sh.loc) != BE_OK)
      return EX_ERROR;
  }
  d[D_ALLOC].p = g->mem;
  d[D_ALIGNED].p = g->mem;
  d[D_OFFSET].i = 0;
  int64_t st = 1;
  for (uint32_t i = g->sh.rank; i-- > 0;) {
    sizes(d)[i] = g->sh.type->u.sh.shape[i];
    strides(d, g->sh.rank)[i] = st;
    st *= g->sh.type->u.sh.shape[i];
  }
  return EX_NEXT;
}

bool c_get_global(Comp *c, Op *op, Ins *ins) {
  Attr *name = ir_op_attr(op, "name");
  Type *t = op->results[0].type;
  Op *decl = name && name->kind == ATTR_SYMREF ? ir_symbol_lookup(c->in->module, name->u.sym.path[0]) : NULL;
  if (!decl || !ir_str_eq(decl->name, "memref.global"))
    return interp_unsupported(c, op, "a global that is not a memref.global of this module");
  if (t->kind != TY_MEMREF || t->u.sh.layout)
    return interp_unsupported(c, op, "a global with a layout");
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.shape[i] == IR_DYNAMIC)
      return interp_unsupported(c, op, "a global of dynamic shape");
  /* one Global per declaration, shared by every get_global of it */
  Global *g = NULL;
  for (uint32_t i = 0; i < c->in->nglobals; i++)
    if (c->in->globals[i]->decl == decl)
      g = c->in->globals[i];
  if (!g || g->decl != decl) {
    g = ir_alloc(c->in->ctx, sizeof *g);
    g->sh = *shape_of(c, decl, t);
    g->decl = decl;
    g->bytes = g->sh.esize;
    for (uint32_t i = 0; i < t->u.sh.rank; i++) /* UINT64_MAX: too big to allocate */
      if (__builtin_mul_overflow(g->bytes, (uint64_t)t->u.sh.shape[i], &g->bytes))
        g->bytes = UINT64_MAX;
    Global **ng = realloc(c->in->globals, (c->in->nglobals + 1) * sizeof *ng);
    if (!ng)
      abort();
    c->in->globals = ng;
    ng[c->in->nglobals++] = g;
  }
  ins->aux = g;
  ins->fn = x_get_global;
  return true;
}

void interp_free_globals(Interp *in) {
  for (uint32_t i = 0; i < in->nglobals; i++) {
    Global *g = in->globals[i];
    if (g->mem && in->host_buffer)
      in->host_buffer(in->hook_user, g->sh.loc, 0, g->mem, g->bytes);
    if (g->mem && in->be)
      be_host_remove(in->be, g->mem, g->sh.loc);
    free(g->mem);
  }
  free(in->globals);
}

/* ---- reshaping views ------------------------------------------------------------------------ */

/* A view op's result descriptor is computed from the source's: the buffer pointers stay, offset,
 * sizes and strides change. Dynamic values come from operands in the order of the static lists. */
typedef struct Reshape {
  uint32_t src_rank, dst_rank;
  uint32_t *group;     /* collapse/expand: the source (collapse) or result (expand) group of each dim */
  int64_t *offs, *szs, *strs; /* reinterpret_cast: static lists; expand: szs is the output shape */
  uint32_t *perm;      /* transpose: result dim i is source dim perm[i] */
  uint32_t esize;
} Reshape;

/* reassociation = [[0, 1], [2]]: group[i] of every dim i of the larger rank */
static uint32_t *groups_of(Comp *c, Op *op, uint32_t big, uint32_t small) {
  Attr *re = ir_op_attr(op, "reassociation");
  if (!re || re->kind != ATTR_ARRAY || re->u.arr.n != small)
    return NULL;
  uint32_t *g = ir_alloc(c->in->ctx, (big + 1) * sizeof *g);
  uint32_t k = 0;
  for (uint32_t i = 0; i < small; i++) {
    Attr *grp = re->u.arr.elems[i];
    if (grp->kind != ATTR_ARRAY)
      return NULL;
    for (uint32_t j = 0; j < grp->u.arr.n; j++) {
      if (k >= big || grp->u.arr.elems[j]->kind != ATTR_INT || grp->u.arr.elems[j]->u.i.v != k)
        return NULL;
      g[k++] = i;
    }
  }
  return k == big ? g : NULL;
}

static int x_collapse(Frame *fr, const Ins *ins) {
  const Reshape *r = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  Slot tmp[3 + 2 * 16];
  interp_copy(tmp, s, 3);
  for (uint32_t j = 0; j < r->dst_rank; j++)
    sizes(tmp)[j] = 1;
  /* a group's size is the product of its sizes; its stride the result type's where static (what
   * upstream's lowering materializes), else that of its innermost dimension */
  for (uint32_t i = 0; i < r->src_rank; i++) {
    uint32_t j = r->group[i];
    if (__builtin_mul_overflow(sizes(tmp)[j], sizes(s)[i], &sizes(tmp)[j]))
      return interp_error(fr, ins, "the collapsed size of dimension %u overflows", j);
    strides(tmp, r->dst_rank)[j] = r->strs[j] != IR_DYNAMIC ? r->strs[j] : strides(s, r->src_rank)[i];
  }
  interp_copy(d, tmp, 3 + 2 * r->dst_rank);
  return EX_NEXT;
}

static int x_expand(Frame *fr, const Ins *ins) {
  const Reshape *r = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  Slot tmp[3 + 2 * 16];
  interp_copy(tmp, s, 3);
  uint32_t k = 1;
  for (uint32_t i = 0; i < r->dst_rank; i++)
    sizes(tmp)[i] = r->szs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : r->szs[i];
  for (uint32_t i = r->dst_rank; i-- > 0;) {
    uint32_t g = r->group[i];
    bool innermost = i + 1 == r->dst_rank || r->group[i + 1] != g;
    if (innermost)
      strides(tmp, r->dst_rank)[i] = strides(s, r->src_rank)[g];
    else if (__builtin_mul_overflow(strides(tmp, r->dst_rank)[i + 1], sizes(tmp)[i + 1], &strides(tmp, r->dst_rank)[i]))
      return interp_error(fr, ins, "the stride of result dimension %u overflows", i);
  }
  int64_t prod[16];
  for (uint32_t g = 0; g < r->src_rank; g++)
    prod[g] = 1;
  for (uint32_t i = 0; i < r->dst_rank; i++)
    if (__builtin_mul_overflow(prod[r->group[i]], sizes(tmp)[i], &prod[r->group[i]]))
      return interp_error(fr, ins, "the output shape's size overflows");
  for (uint32_t g = 0; g < r->src_rank; g++)
    if (prod[g] != sizes(s)[g])
      return interp_error(fr, ins, "the output shape does not cover dimension %u of the source (%lld elements vs %lld)",
                          g, (long long)prod[g], (long long)sizes(s)[g]);
  interp_copy(d, tmp, 3 + 2 * r->dst_rank);
  return EX_NEXT;
}

static bool reshape_types(Comp *c, Op *op, Reshape *r) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  if (st->kind != TY_MEMREF || rt->kind != TY_MEMREF || st->u.sh.rank > 16 || rt->u.sh.rank > 16)
    return interp_unsupported(c, op, "this view of an unranked memref or of rank above 16");
  r->src_rank = st->u.sh.rank;
  r->dst_rank = rt->u.sh.rank;
  r->esize = interp_elem_bytes(st->u.sh.elem);
  return true;
}

bool c_collapse_shape(Comp *c, Op *op, Ins *ins) {
  Reshape *r = ir_alloc(c->in->ctx, sizeof *r);
  if (!reshape_types(c, op, r))
    return false;
  r->group = groups_of(c, op, r->src_rank, r->dst_rank);
  if (!r->group)
    return interp_unsupported(c, op, "this reassociation");
  /* the result type's static strides: its strided layout, or the identity layout's */
  Type *rt = op->results[0].type;
  Attr *lay = rt->u.sh.layout;
  r->strs = ir_alloc(c->in->ctx, (r->dst_rank + 1) * sizeof *r->strs);
  if (lay && lay->kind == ATTR_STRIDED && lay->u.strided.n == r->dst_rank) {
    for (uint32_t j = 0; j < r->dst_rank; j++)
      r->strs[j] = lay->u.strided.strides[j];
  } else if (!lay) {
    int64_t st = 1;
    for (uint32_t j = r->dst_rank; j-- > 0;) {
      r->strs[j] = st;
      st = st == IR_DYNAMIC || rt->u.sh.shape[j] == IR_DYNAMIC ? IR_DYNAMIC : st * rt->u.sh.shape[j];
    }
  } else {
    return interp_unsupported(c, op, "a result with this layout");
  }
  ins->aux = r;
  ins->fn = x_collapse;
  return true;
}

bool c_expand_shape(Comp *c, Op *op, Ins *ins) {
  Reshape *r = ir_alloc(c->in->ctx, sizeof *r);
  if (!reshape_types(c, op, r))
    return false;
  r->group = groups_of(c, op, r->dst_rank, r->src_rank);
  r->szs = static_list(c, op, "static_output_shape", r->dst_rank);
  if (!r->group || !r->szs)
    return interp_unsupported(c, op, "this reassociation or output shape");
  ins->aux = r;
  ins->fn = x_expand;
  return true;
}

static int x_reinterpret_cast(Frame *fr, const Ins *ins) {
  const Reshape *r = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  uint32_t k = 1;
  void *alloc = s[D_ALLOC].p, *aligned = s[D_ALIGNED].p;
  d[D_ALLOC].p = alloc;
  d[D_ALIGNED].p = aligned;
  d[D_OFFSET].i = r->offs[0] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : r->offs[0];
  int64_t *sz = sizes(d), *st = strides(d, r->dst_rank);
  for (uint32_t i = 0; i < r->dst_rank; i++)
    sz[i] = r->szs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : r->szs[i];
  for (uint32_t i = 0; i < r->dst_rank; i++)
    st[i] = r->strs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : r->strs[i];
  return EX_NEXT;
}

bool c_reinterpret_cast(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  if ((st->kind != TY_MEMREF && st->kind != TY_UNRANKED_MEMREF) || rt->kind != TY_MEMREF)
    return interp_unsupported(c, op, "this reinterpret_cast");
  if (st->kind == TY_UNRANKED_MEMREF)
    return interp_unsupported(c, op, "a reinterpret_cast of an unranked memref");
  Reshape *r = ir_alloc(c->in->ctx, sizeof *r);
  r->dst_rank = rt->u.sh.rank;
  r->offs = static_list(c, op, "static_offsets", 1);
  r->szs = static_list(c, op, "static_sizes", r->dst_rank);
  r->strs = static_list(c, op, "static_strides", r->dst_rank);
  if (!r->offs || (r->dst_rank && (!r->szs || !r->strs)))
    return interp_unsupported(c, op, "a reinterpret_cast without static offset, size and stride lists");
  ins->aux = r;
  ins->fn = x_reinterpret_cast;
  return true;
}

/* memref.view: a contiguous memref over a 1-D i8 buffer, byte_shift bytes in */
static int x_view(Frame *fr, const Ins *ins) {
  const Reshape *r = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  int64_t shift = fr->s[ins->in[1]].i;
  uint32_t k = 2;
  Slot tmp[3 + 2 * 16];
  tmp[D_ALLOC] = s[D_ALLOC];
  tmp[D_ALIGNED].p = (char *)s[D_ALIGNED].p + s[D_OFFSET].i + shift;
  tmp[D_OFFSET].i = 0;
  for (uint32_t i = 0; i < r->dst_rank; i++)
    sizes(tmp)[i] = r->szs[i] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : r->szs[i];
  int64_t n = 1;
  for (uint32_t i = r->dst_rank; i-- > 0;) {
    strides(tmp, r->dst_rank)[i] = n;
    if (sizes(tmp)[i] < 0 || __builtin_mul_overflow(n, sizes(tmp)[i], &n))
      return interp_error(fr, ins, "the view's size overflows or is negative");
  }
  int64_t end = shift;
  if (!interp_madd(&end, n, (int64_t)r->esize))
    return interp_error(fr, ins, "a view of %lld elements at byte %lld overflows", (long long)n, (long long)shift);
  if (shift < 0 || end > sizes(s)[0])
    return interp_error(fr, ins, "a view of %lld bytes at byte %lld does not fit in the %lld-byte buffer",
                        (long long)(end - shift), (long long)shift, (long long)sizes(s)[0]);
  interp_copy(d, tmp, 3 + 2 * r->dst_rank);
  return EX_NEXT;
}

bool c_view(Comp *c, Op *op, Ins *ins) {
  Type *rt = op->results[0].type;
  if (rt->kind != TY_MEMREF || rt->u.sh.rank > 16 || op->operands[0]->type->kind != TY_MEMREF)
    return interp_unsupported(c, op, "this view");
  Reshape *r = ir_alloc(c->in->ctx, sizeof *r);
  r->dst_rank = rt->u.sh.rank;
  r->esize = interp_elem_bytes(rt->u.sh.elem);
  r->szs = rt->u.sh.shape;
  ins->aux = r;
  ins->fn = x_view;
  return true;
}

static int x_transpose(Frame *fr, const Ins *ins) {
  const Reshape *r = ins->aux;
  Slot *s = &fr->s[ins->in[0]], *d = &fr->s[ins->out[0]];
  Slot tmp[3 + 2 * 16];
  interp_copy(tmp, s, 3);
  for (uint32_t i = 0; i < r->dst_rank; i++) {
    sizes(tmp)[i] = sizes(s)[r->perm[i]];
    strides(tmp, r->dst_rank)[i] = strides(s, r->dst_rank)[r->perm[i]];
  }
  interp_copy(d, tmp, 3 + 2 * r->dst_rank);
  return EX_NEXT;
}

/* permutation = affine_map<(d0, d1) -> (d1, d0)>: the dimension numbers after the arrow */
bool c_transpose(Comp *c, Op *op, Ins *ins) {
  Reshape *r = ir_alloc(c->in->ctx, sizeof *r);
  if (!reshape_types(c, op, r))
    return false;
  Attr *pm = ir_op_attr(op, "permutation");
  const char *s = pm && pm->kind == ATTR_AFFINE_MAP ? strstr(pm->u.str.s, "->") : NULL;
  if (!s)
    return interp_unsupported(c, op, "this permutation");
  r->perm = ir_alloc(c->in->ctx, (r->dst_rank + 1) * sizeof *r->perm);
  uint32_t n = 0;
  uint32_t used = 0;
  for (const char *e = pm->u.str.s + pm->u.str.len; s < e; s++) {
    if (*s != 'd')
      continue;
    unsigned long v = strtoul(s + 1, NULL, 10);
    if (n >= r->dst_rank || v >= r->dst_rank || (used >> v & 1))
      return interp_unsupported(c, op, "this permutation");
    used |= 1u << v;
    r->perm[n++] = (uint32_t)v;
  }
  if (n != r->dst_rank)
    return interp_unsupported(c, op, "this permutation");
  ins->aux = r;
  ins->fn = x_transpose;
  return true;
}

static int x_rank(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = ins->b ? fr->s[ins->in[0]].i : ins->a;
  return EX_NEXT;
}

bool c_rank(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (t->kind != TY_MEMREF && t->kind != TY_UNRANKED_MEMREF)
    return interp_unsupported(c, op, "rank of a tensor");
  ins->a = t->kind == TY_MEMREF ? t->u.sh.rank : 0;
  ins->b = t->kind != TY_MEMREF;
  ins->fn = x_rank;
  return true;
}

static int x_nop(Frame *fr, const Ins *ins) {
  (void)fr, (void)ins;
  return EX_NEXT;
}

/* memref.assume_alignment: checked, since a wrong promise is a bug the program would not see */
static int x_assume_alignment(Frame *fr, const Ins *ins) {
  Slot *s = &fr->s[ins->in[0]];
  uintptr_t p = (uintptr_t)s[D_ALIGNED].p + (uintptr_t)(s[D_OFFSET].i * (int64_t)ins->b);
  if (ins->a && p % ins->a)
    return interp_error(fr, ins, "the memref is not aligned to %u bytes (address %p)", ins->a, (void *)p);
  if (ins->nout)
    interp_copy(&fr->s[ins->out[0]], s, interp_words(ins->op->results[0].type));
  return EX_NEXT;
}

bool c_assume_alignment(Comp *c, Op *op, Ins *ins) {
  Attr *al = ir_op_attr(op, "alignment");
  Type *t = op->operands[0]->type;
  if (t->kind != TY_MEMREF)
    return interp_unsupported(c, op, "this memref");
  ins->a = al && al->kind == ATTR_INT ? (uint32_t)al->u.i.v : 0;
  ins->b = interp_elem_bytes(t->u.sh.elem);
  ins->fn = ins->a ? x_assume_alignment : x_nop;
  if (op->nresults && !ins->a)
    ins->fn = x_assume_alignment;
  return true;
}

/* extract_strided_metadata: base buffer (rank 0, offset 0), offset, sizes..., strides... */
static int x_strided_metadata(Frame *fr, const Ins *ins) {
  Slot *s = &fr->s[ins->in[0]];
  uint32_t rank = ins->a;
  Slot *base = &fr->s[ins->out[0]];
  Slot d[3 + 2 * 16];
  interp_copy(d, s, 3 + 2 * rank);
  base[D_ALLOC] = d[D_ALLOC];
  base[D_ALIGNED] = d[D_ALIGNED];
  base[D_OFFSET].i = 0;
  fr->s[ins->out[1]].i = d[D_OFFSET].i;
  for (uint32_t i = 0; i < rank; i++) {
    fr->s[ins->out[2 + i]].i = sizes(d)[i];
    fr->s[ins->out[2 + rank + i]].i = strides(d, rank)[i];
  }
  return EX_NEXT;
}

bool c_strided_metadata(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (t->kind != TY_MEMREF || t->u.sh.rank > 16 || op->nresults != 2 + 2 * t->u.sh.rank)
    return interp_unsupported(c, op, "this extract_strided_metadata");
  ins->a = t->u.sh.rank;
  ins->fn = x_strided_metadata;
  return true;
}

/* ---- atomics on the host -------------------------------------------------------------------- */

/* The host runs one thread of the program, so a read-modify-write is a load, the op and a store,
 * reported to the backend as one write. Kinds in arith's AtomicRMWKind order. */
enum { K_ADDF, K_ADDI, K_ANDI, K_ASSIGN, K_MAXIMUMF, K_MAXNUMF, K_MAXS, K_MAXU, K_MINIMUMF, K_MINNUMF,
       K_MINS, K_MINU, K_MULF, K_MULI, K_ORI, K_XORI, K_NKINDS };

static double fget(const Type *t, const Slot *s) { return t->u.f == F_F64 ? s->f : (double)s->f32; }

static void fset(const Type *t, Slot *s, double v) {
  if (t->u.f == F_F64)
    s->f = v;
  else
    s->f32 = (float)(t->u.f == F_F32 ? v : ir_float_round(t->u.f, v));
}

static Slot rmw(uint32_t kind, const Type *t, Slot old, Slot v) {
  Slot r = {0};
  uint32_t w = interp_int_width(t);
  uint64_t uo = interp_zext(old.i, w ? w : 64), uv = interp_zext(v.i, w ? w : 64);
  double a = t->kind == TY_FLOAT ? fget(t, &old) : 0, b = t->kind == TY_FLOAT ? fget(t, &v) : 0;
  switch (kind) {
  case K_ADDF: fset(t, &r, a + b); break;
  case K_MULF: fset(t, &r, a * b); break;
  case K_MAXNUMF: fset(t, &r, fmax(a, b)); break;
  case K_MINNUMF: fset(t, &r, fmin(a, b)); break;
  case K_MAXIMUMF: fset(t, &r, isnan(a) || isnan(b) ? NAN : a == b ? (signbit(a) ? b : a) : a > b ? a : b); break;
  case K_MINIMUMF: fset(t, &r, isnan(a) || isnan(b) ? NAN : a == b ? (signbit(a) ? a : b) : a < b ? a : b); break;
  case K_ADDI: r.i = interp_sext(uo + uv, w); break;
  case K_MULI: r.i = interp_sext(uo * uv, w); break;
  case K_ANDI: r.i = old.i & v.i; break;
  case K_ORI: r.i = old.i | v.i; break;
  case K_XORI: r.i = old.i ^ v.i; break;
  case K_MAXS: r.i = old.i > v.i ? old.i : v.i; break;
  case K_MINS: r.i = old.i < v.i ? old.i : v.i; break;
  case K_MAXU: r.i = uo > uv ? old.i : v.i; break;
  case K_MINU: r.i = uo < uv ? old.i : v.i; break;
  default: r = v; break; /* assign */
  }
  return r;
}

static int x_atomic_rmw(Frame *fr, const Ins *ins) {
  const Shape *sh = ins->aux;
  void *p = element(fr, ins, sh, &fr->s[ins->in[1]], 2);
  if (!p)
    return EX_ERROR;
  if (fr->in->be && be_host_access(fr->in->be, p, sh->esize, true, sh->loc) != BE_OK)
    return EX_ERROR;
  const Type *et = sh->type->u.sh.elem;
  Slot old;
  interp_load_elem(et, p, &old);
  Slot nv = rmw(ins->a, et, old, fr->s[ins->in[0]]);
  interp_store_elem(et, p, &nv);
  fr->s[ins->out[0]] = old;
  return EX_NEXT;
}

bool c_atomic_rmw(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[1]->type;
  Attr *k = ir_op_attr(op, "kind");
  if (!access_ok(c, op, t))
    return false;
  if (!k || k->kind != ATTR_INT || k->u.i.v < 0 || k->u.i.v >= K_NKINDS)
    return interp_unsupported(c, op, "this atomic kind");
  bool fk = k->u.i.v == K_ADDF || k->u.i.v == K_MULF || k->u.i.v == K_MAXIMUMF || k->u.i.v == K_MAXNUMF ||
            k->u.i.v == K_MINIMUMF || k->u.i.v == K_MINNUMF;
  Type *et = t->u.sh.elem;
  if (fk != (et->kind == TY_FLOAT) && k->u.i.v != K_ASSIGN)
    return interp_unsupported(c, op, "an atomic kind that does not fit the element type");
  if (et->kind == TY_FLOAT && et->u.f != F_F64 && et->u.f != F_F32 && et->u.f != F_F16 && et->u.f != F_BF16)
    return interp_unsupported(c, op, "atomics on this float type");
  ins->a = (uint32_t)k->u.i.v;
  ins->aux = shape_of(c, op, t);
  ins->fn = x_atomic_rmw;
  return true;
}

/* generic_atomic_rmw: the body gets the current value and yields the new one; memref.atomic_yield
 * leaves it in the op's result slot, from where it is stored; the result is then the value before. */
typedef struct GenericRmw {
  Shape *sh;
  Body body;
  uint32_t arg; /* the body's argument slot */
} GenericRmw;

static int x_generic_rmw(Frame *fr, const Ins *ins) {
  const GenericRmw *g = ins->aux;
  void *p = element(fr, ins, g->sh, &fr->s[ins->in[0]], 1);
  if (!p)
    return EX_ERROR;
  if (fr->in->be && be_host_access(fr->in->be, p, g->sh->esize, true, g->sh->loc) != BE_OK)
    return EX_ERROR;
  const Type *et = g->sh->type->u.sh.elem;
  Slot old;
  interp_load_elem(et, p, &old);
  fr->s[g->arg] = old;
  if (interp_run_body(fr, &g->body) == EX_ERROR)
    return EX_ERROR;
  interp_store_elem(et, p, &fr->s[ins->out[0]]);
  fr->s[ins->out[0]] = old;
  return EX_NEXT;
}

bool c_generic_atomic_rmw(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  Block *b = op->nregions ? op->regions[0].first : NULL;
  if (!access_ok(c, op, t))
    return false;
  if (!b || b->nargs != 1 || b->next)
    return interp_unsupported(c, op, "this generic_atomic_rmw body");
  GenericRmw *g = ir_alloc(c->in->ctx, sizeof *g);
  g->sh = shape_of(c, op, t);
  g->arg = b->args[0].id;
  ins->aux = g;
  ins->fn = x_generic_rmw;
  return interp_compile_body(c, &op->regions[0], &g->body);
}

static int x_atomic_yield(Frame *fr, const Ins *ins) {
  fr->s[ins->a] = fr->s[ins->in[0]];
  fr->jump = -1;
  return EX_DONE;
}

bool c_atomic_yield(Comp *c, Op *op, Ins *ins) {
  Op *parent = ir_op_parent_op(op);
  if (!parent || !ir_str_eq(parent->name, "memref.generic_atomic_rmw") || op->noperands != 1)
    return interp_unsupported(c, op, "atomic_yield outside generic_atomic_rmw");
  ins->a = parent->results[0].id;
  ins->fn = x_atomic_yield;
  return true;
}
