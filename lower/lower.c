/* lower.c - gpu host ops to `mgpu*` runtime calls, with one consistent meaning for tokens.
 *
 * The call shapes are those of MLIR 22's gpu-to-llvm (the ABI of mgpu/mgpu.c). What differs
 * is how tokens are represented, because that is where MLIR 22 goes wrong:
 *
 *   Every !gpu.async.token becomes an !llvm.ptr that is a *stream*, always: a function argument,
 *   an scf.for iter_arg, an scf.if result or a cf block argument is a stream like any other, so a
 *   callee never mistakes its caller's stream for an event.
 *
 *   Each token value *owns* its stream, and the lowering makes sure that every stream is
 *   destroyed exactly once. In the block that defines a token, its last use (the op of the block
 *   that is or contains it) either takes the stream over (a "move") or is followed by a
 *   StreamDestroy. A move is: an async op enqueuing on its dependency's stream (MLIR 22's chain
 *   form, so chains stay on one stream), a synchronous gpu.wait (synchronize, then destroy), or
 *   a terminator or loop init that hands the stream to a block argument or result. A use that
 *   cannot move (a use inside a nested region, a function call argument, which the callee only
 *   borrows, a second use in one terminator, a function argument's own stream) hands on a
 *   duplicate instead: a new stream that waits for the old one's work (what `gpu.wait async`
 *   lowers to).
 *
 *   A dependency that is not moved is waited for through an event recorded on its stream where
 *   the dependent op is lowered (MLIR 22 records right after the dependency's definition, which
 *   has no place for a block argument). Since a stream is only ever extended by the last use of
 *   the token that owns it, the stream's work at that point is exactly the dependency's work.
 *
 * Host memrefs stay memrefs: where a call needs a pointer or a size, the memref is cast to its
 * LLVM descriptor (builtin.unrealized_conversion_cast, which the standard conversions cancel) and
 * the fields are read with llvm.extractvalue. Every op made carries the location of the gpu op it
 * came from.
 *
 * Mutations (LowerOptions.mutate) inject the classic lowering bugs at numbered sites, for testing
 * the differential checker; see the table `kinds` below.
 */
#include "lower/lower.h"

#include <stdlib.h>
#include <string.h>

/* ---- mutations ------------------------------------------------------------------------------ */

#define MUTATIONS(X)                                                                             \
  X(M_DROP_WAIT, "drop-wait")             /* leave out one mgpuStreamWaitEvent */                \
  X(M_RECORD_EARLY, "record-early")       /* record the event before the dependency's work */     \
  X(M_RECORD_WRONG, "record-wrong-stream")/* record the event on the waiting stream */           \
  X(M_SYNC_WRONG, "sync-wrong-stream")    /* gpu.wait synchronizes a fresh stream instead */     \
  X(M_DESTROY_EARLY, "destroy-early")     /* destroy the event before the stream waits on it */  \
  X(M_SKIP_SYNC, "skip-sync")             /* gpu.wait does not synchronize */                    \
  X(M_MEMCPY_ELEMS, "memcpy-elements")    /* memcpy size in elements instead of bytes */         \
  X(M_MEMCPY_DIM0, "memcpy-dim0")         /* memcpy size from size[0] alone (dynamic, rank>1) */ \
  X(M_MEMSET_COUNT, "memset-count")       /* memset count in bytes instead of elements */        \
  X(M_LAUNCH_WRONG, "launch-wrong-stream")/* launch on a fresh stream that waited for nothing */ \
  X(M_STREAM_AS_EVENT, "stream-as-event") /* pass the dependency's stream as the event */

enum {
#define ENUM(id, name) id,
  MUTATIONS(ENUM)
#undef ENUM
  M_COUNT
};

static const char *const kinds[] = {
#define NAME(id, name) name,
    MUTATIONS(NAME)
#undef NAME
    NULL};

const char *const *lower_mutation_kinds(void) { return kinds; }

/* ---- state ---------------------------------------------------------------------------------- */

/* What the lowering knows of one token value of the input. */
typedef struct Plan {
  Value *tok;         /* the token value of the input */
  Value *stream;      /* the stream that stands for it in the output */
  Op *last;           /* its last use in the defining block (that op, or the op containing it) */
  const Use *mover;   /* the use that takes the stream over, or NULL: destroy after `last` */
  bool owned;         /* false: a function argument, whose stream belongs to the caller */
  Op *pre_work;       /* the first op of its work, for the record-early mutation, or NULL */
  struct Plan *next;  /* in the list of plans whose `last` is one op */
} Plan;

typedef struct Lower {
  IrCtx *ctx;
  Op *module;
  Type *ptr, *i64, *i32, *i16, *i8, *voidt;
  Plan *plans;        /* indexed by Value.id of each token value (from 1); malloc'd: */
  uint32_t nplans, capplans; /* no pointer into it is kept while it can grow */
  unsigned errors;
  /* where new ops go: before `at`, or at the end of `block` when at is NULL */
  Block *block;
  Op *at;
  Loc *loc;           /* location of the ops being made */
  /* functions called, to declare at the end in the symbol table of the calls (a module nested in
   * the file's one declares its own), with the properties of a call to each */
  Str *called;
  Op **called_in;
  Attr **call_props;
  uint32_t ncalled, capcalled;
  /* constants are made once per function, at the top of its entry block */
  Block *fn_entry;
  Op *fn_first;       /* the entry block's first op before lowering: constants go before it */
  struct { Type *t; int64_t v; Value *val; uint32_t gen; } *consts;
  uint32_t capconsts, nconsts, gen;
  int mutate;         /* M_* or -1 */
  long mutate_site;   /* -1: every site */
  unsigned sites;     /* sites of the mutation kind seen so far */
} Lower;

/* True when this site of kind is to be mutated (and counts the site). */
static bool mutant(Lower *l, int kind) {
  if (l->mutate != kind)
    return false;
  unsigned site = l->sites++;
  return l->mutate_site < 0 || (unsigned)l->mutate_site == site;
}

static void error(Lower *l, Op *op, const char *fmt, const char *arg) {
  ir_op_error(l->ctx, op, fmt, arg);
  l->errors++;
}

/* ---- making ops ----------------------------------------------------------------------------- */

static Op *emit(Lower *l, const char *name, Value *const *ops, uint32_t nops, Type *res,
                Attr *props) {
  Op *op = ir_op_new(l->ctx, name, l->loc, ops, nops, &res, res ? 1 : 0, props, 0);
  if (l->at)
    ir_op_insert_before(l->at, op);
  else
    ir_block_push_back(l->block, op);
  return op;
}

static Value *emit1(Lower *l, const char *name, Value *const *ops, uint32_t nops, Type *res,
                    Attr *props) {
  return &emit(l, name, ops, nops, res, props)->results[0];
}

static Attr *dict1(Lower *l, const char *name, Attr *v) {
  NamedAttr e = {ir_intern_cstr(l->ctx, name), v};
  return ir_attr_dict(l->ctx, &e, 1);
}

/* An llvm.mlir.constant of type t, one per value and function (at the top of the function). */
static Value *const_int(Lower *l, Type *t, int64_t v) {
  if (!l->fn_entry)
    return emit1(l, "llvm.mlir.constant", NULL, 0, t, dict1(l, "value", ir_attr_int(l->ctx, t, v)));
  if (2 * (l->nconsts + 1) > l->capconsts) {
    uint32_t old = l->capconsts;
    void *prev = l->consts;
    l->capconsts = old ? 2 * old : 64;
    l->consts = calloc(l->capconsts, sizeof *l->consts);
    if (!l->consts)
      abort();
    l->nconsts = 0;
    for (uint32_t i = 0; i < old; i++) {
      __typeof__(l->consts) e = &((__typeof__(l->consts))prev)[i];
      if (e->gen != l->gen)
        continue;
      uint32_t j = (uint32_t)(((uintptr_t)e->t >> 4) ^ (uint64_t)e->v * 0x9e3779b97f4a7c15ull) & (l->capconsts - 1);
      while (l->consts[j].gen == l->gen)
        j = (j + 1) & (l->capconsts - 1);
      l->consts[j] = *e;
      l->nconsts++;
    }
    free(prev);
  }
  uint32_t j = (uint32_t)(((uintptr_t)t >> 4) ^ (uint64_t)v * 0x9e3779b97f4a7c15ull) & (l->capconsts - 1);
  for (; l->consts[j].gen == l->gen; j = (j + 1) & (l->capconsts - 1))
    if (l->consts[j].t == t && l->consts[j].v == v)
      return l->consts[j].val;
  Op *op = ir_op_new(l->ctx, "llvm.mlir.constant", l->loc, NULL, 0, &t, 1,
                     dict1(l, "value", ir_attr_int(l->ctx, t, v)), 0);
  if (l->fn_first)
    ir_op_insert_before(l->fn_first, op);
  else
    ir_block_push_back(l->fn_entry, op);
  l->consts[j].t = t;
  l->consts[j].v = v;
  l->consts[j].val = &op->results[0];
  l->consts[j].gen = l->gen;
  l->nconsts++;
  return &op->results[0];
}

/* The value of an llvm.mlir.constant this file made, in *v. */
static bool constant_of(const Value *x, int64_t *v) {
  if (!x->def || !ir_str_eq(x->def->name, "llvm.mlir.constant"))
    return false;
  Attr *a = ir_op_attr(x->def, "value");
  if (!a || a->kind != ATTR_INT)
    return false;
  *v = a->u.i.v;
  return true;
}

/* a * b in i64, folded when both are constants or one is 1 (sizes are mostly static). */
static Value *mul(Lower *l, Value *a, Value *b) {
  int64_t x, y;
  bool ca = constant_of(a, &x), cb = constant_of(b, &y);
  if (ca && cb && !__builtin_mul_overflow(x, y, &x))
    return const_int(l, l->i64, x);
  if (ca && x == 1)
    return b;
  if (cb && y == 1)
    return a;
  Value *ab[2] = {a, b};
  return emit1(l, "llvm.mul", ab, 2, l->i64,
               dict1(l, "overflowFlags", ir_attr_int(l->ctx, l->i32, 0)));
}

static Value *extract(Lower *l, Value *agg, Type *t, int64_t i, int64_t j) {
  int64_t pos[2] = {i, j};
  return emit1(l, "llvm.extractvalue", &agg, 1, t,
               dict1(l, "position", ir_attr_dense_i64(l->ctx, pos, j < 0 ? 1 : 2)));
}

static Value *insert(Lower *l, Value *agg, Value *v, int64_t i, int64_t j) {
  int64_t pos[2] = {i, j};
  Value *ops[2] = {agg, v};
  return emit1(l, "llvm.insertvalue", ops, 2, agg->type,
               dict1(l, "position", ir_attr_dense_i64(l->ctx, pos, j < 0 ? 1 : 2)));
}

static Value *cast(Lower *l, Value *v, Type *t) {
  return emit1(l, "builtin.unrealized_conversion_cast", &v, 1, t, NULL);
}


/* llvm.call @name(args) : (types) -> ret; ret NULL for none. Remembers name for the declaration. */
static Value *call(Lower *l, const char *name, Value *const *args, uint32_t n, Type *ret) {
  IrCtx *ctx = l->ctx;
  Op *table = l->block && l->block->parent ? l->block->parent->parent : NULL;
  while (table && !ir_str_eq(table->name, "builtin.module")) /* host code lives in modules */
    table = ir_op_parent_op(table);
  if (!table)
    table = l->module;
  uint32_t k = 0;
  while (k < l->ncalled && (strcmp(l->called[k].s, name) || l->called_in[k] != table))
    k++;
  if (k == l->ncalled) {
    if (l->ncalled == l->capcalled) {
      l->capcalled = l->capcalled ? 2 * l->capcalled : 16;
      Str *grown = ir_alloc(ctx, l->capcalled * sizeof *grown);
      Op **gi = ir_alloc(ctx, l->capcalled * sizeof *gi);
      Attr **gp = ir_alloc(ctx, l->capcalled * sizeof *gp);
      if (l->ncalled) {
        memcpy(grown, l->called, l->ncalled * sizeof *grown);
        memcpy(gi, l->called_in, l->ncalled * sizeof *gi);
        memcpy(gp, l->call_props, l->ncalled * sizeof *gp);
      }
      l->called = grown;
      l->called_in = gi;
      l->call_props = gp;
    }
    Str callee = ir_intern_cstr(ctx, name);
    int64_t seg[2] = {n, 0};
    NamedAttr p[6] = {
        {ir_intern_cstr(ctx, "CConv"), ir_attr_opaque(ctx, "#llvm.cconv<ccc>")},
        {ir_intern_cstr(ctx, "TailCallKind"), ir_attr_opaque(ctx, "#llvm.tailcallkind<none>")},
        {ir_intern_cstr(ctx, "callee"), ir_attr_symref(ctx, &callee, 1)},
        {ir_intern_cstr(ctx, "fastmathFlags"), ir_attr_opaque(ctx, "#llvm.fastmath<none>")},
        {ir_intern_cstr(ctx, "op_bundle_sizes"), ir_attr_dense_i32(ctx, NULL, 0)},
        {ir_intern_cstr(ctx, "operandSegmentSizes"), ir_attr_dense_i32(ctx, seg, 2)},
    };
    l->called[k] = callee;
    l->called_in[k] = table;
    l->call_props[k] = ir_attr_dict(ctx, p, 6); /* a function is always called with n arguments */
    l->ncalled++;
  }
  Op *op = emit(l, "llvm.call", args, n, ret, l->call_props[k]);
  return ret ? &op->results[0] : NULL;
}

static Value *call0(Lower *l, const char *name, Type *ret) { return call(l, name, NULL, 0, ret); }
static void call1(Lower *l, const char *name, Value *a) { call(l, name, &a, 1, NULL); }
static void call2(Lower *l, const char *name, Value *a, Value *b) {
  Value *ab[2] = {a, b};
  call(l, name, ab, 2, NULL);
}

/* The declarations of every function called, in first-call order, after the last op of the
 * module that holds the calls, as MLIR 22 places them; a function it already declares is left
 * alone. */
static void declare_called(Lower *l) {
  IrCtx *ctx = l->ctx;
  for (uint32_t c = 0; c < l->ncalled; c++) {
    Op *table = l->called_in[c];
    Block *top = table->regions[0].first;
    if (!top || ir_symbol_lookup(table, l->called[c]))
      continue;
    const char *name = l->called[c].s;
    Type *params[4];
    uint32_t n = 0;
    Type *ret = l->voidt;
    if (!strcmp(name, "mgpuStreamCreate") || !strcmp(name, "mgpuEventCreate")) {
      ret = l->ptr;
    } else if (!strcmp(name, "mgpuMemAlloc")) {
      params[n++] = l->i64, params[n++] = l->ptr, params[n++] = l->i8;
      ret = l->ptr;
    } else if (!strcmp(name, "mgpuMemcpy")) {
      params[n++] = l->ptr, params[n++] = l->ptr, params[n++] = l->i64, params[n++] = l->ptr;
    } else if (!strcmp(name, "mgpuMemset32") || !strcmp(name, "mgpuMemset16")) {
      params[n++] = l->ptr, params[n++] = name[10] == '3' ? l->i32 : l->i16;
      params[n++] = l->i64, params[n++] = l->ptr;
    } else if (!strcmp(name, "mgpuEventRecord") || !strcmp(name, "mgpuStreamWaitEvent") ||
               !strcmp(name, "mgpuMemFree")) {
      params[n++] = l->ptr, params[n++] = l->ptr;
    } else if (!strcmp(name, "mgpuMemHostRegisterMemRef") ||
               !strcmp(name, "mgpuMemHostUnregisterMemRef")) {
      params[n++] = l->i64, params[n++] = l->ptr, params[n++] = l->i64;
    } else if (!strcmp(name, "mgpuSetDefaultDevice")) {
      params[n++] = l->i32;
    } else { /* StreamDestroy, StreamSynchronize, EventDestroy, EventSynchronize */
      params[n++] = l->ptr;
    }
    NamedAttr p[6] = {
        {ir_intern_cstr(ctx, "CConv"), ir_attr_opaque(ctx, "#llvm.cconv<ccc>")},
        {ir_intern_cstr(ctx, "function_type"),
         ir_attr_type(ctx, ir_type_llvm_func(ctx, ret, params, n))},
        {ir_intern_cstr(ctx, "linkage"), ir_attr_opaque(ctx, "#llvm.linkage<external>")},
        {ir_intern_cstr(ctx, "sym_name"), ir_attr_string(ctx, name, l->called[c].len)},
        {ir_intern_cstr(ctx, "unnamed_addr"), ir_attr_int(ctx, l->i64, 0)},
        {ir_intern_cstr(ctx, "visibility_"), ir_attr_int(ctx, l->i64, 0)},
    };
    Op *decl = ir_op_new(ctx, "llvm.func", table->loc, NULL, 0, NULL, 0,
                         ir_attr_dict(ctx, p, 6), 1);
    ir_block_push_back(top, decl);
  }
}

/* ---- memrefs as descriptors ------------------------------------------------------------------ */

static uint32_t addrspace(const Type *m) {
  const Attr *ms = m->u.sh.memspace;
  return ms && ms->kind == ATTR_INT && ms->u.i.v > 0 ? (uint32_t)ms->u.i.v : 0;
}

/* (ptr, ptr, i64, array<r x i64>, array<r x i64>), as finalize-memref-to-llvm converts m. */
static Type *descriptor_type(Lower *l, const Type *m) {
  Type *p = ir_type_llvm_ptr(l->ctx, addrspace(m));
  Type *f[5] = {p, p, l->i64, NULL, NULL};
  uint32_t rank = m->u.sh.rank;
  if (rank)
    f[3] = f[4] = ir_type_llvm_array(l->ctx, l->i64, rank);
  return ir_type_llvm_struct(l->ctx, f, rank ? 5 : 3);
}

/* Bytes of one element; 0 when the lowering does not know the type. */
static uint64_t elem_bytes(const Type *t) {
  switch (t->kind) {
  case TY_INT: return (t->u.i.width + 7) / 8;
  case TY_INDEX: return 8;
  case TY_FLOAT: {
    uint32_t w = ir_float_width(t->u.f);
    return w == 80 ? 16 : (w + 7) / 8;
  }
  case TY_VECTOR: {
    uint64_t n = elem_bytes(t->u.sh.elem);
    for (uint32_t i = 0; i < t->u.sh.rank; i++)
      n *= t->u.sh.scalable && t->u.sh.scalable[i] ? 0 : (uint64_t)t->u.sh.shape[i];
    return n;
  }
  case TY_COMPLEX: return 2 * elem_bytes(t->u.arr.elem);
  default: return 0;
  }
}

/* Whether m's elements are one contiguous block from its aligned pointer plus offset: an identity
 * layout, or strides that are the row-major ones of a static shape. */
static bool contiguous(const Type *m) {
  const Attr *lay = m->u.sh.layout;
  if (!lay)
    return true;
  if (lay->kind == ATTR_AFFINE_MAP) {
    /* the identity map of the right rank is what `memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>`
     * means; anything else is a view the lowering will not flatten */
    char want[256];
    size_t n = 0;
    n += (size_t)snprintf(want + n, sizeof want - n, "affine_map<(");
    for (uint32_t i = 0; i < m->u.sh.rank && n < 200; i++)
      n += (size_t)snprintf(want + n, sizeof want - n, "%sd%u", i ? ", " : "", i);
    n += (size_t)snprintf(want + n, sizeof want - n, ") -> (");
    for (uint32_t i = 0; i < m->u.sh.rank && n < 240; i++)
      n += (size_t)snprintf(want + n, sizeof want - n, "%sd%u", i ? ", " : "", i);
    snprintf(want + n, sizeof want - n, ")>");
    return ir_str_eq(lay->u.str, want);
  }
  if (lay->kind != ATTR_STRIDED || lay->u.strided.n != m->u.sh.rank)
    return false;
  int64_t expect = 1;
  for (uint32_t i = m->u.sh.rank; i-- > 0;) {
    if (lay->u.strided.strides[i] != expect)
      return false;
    if (i && m->u.sh.shape[i] == IR_DYNAMIC)
      return false;
    expect *= m->u.sh.shape[i];
  }
  return true;
}

static bool has_offset(const Type *m) {
  const Attr *lay = m->u.sh.layout;
  return lay && lay->kind == ATTR_STRIDED && lay->u.strided.has_offset && lay->u.strided.offset;
}

static Value *to_i64(Lower *l, Value *v) {
  if (v->type == l->i64)
    return v;
  return emit1(l, "arith.index_cast", &v, 1, l->i64, NULL);
}

/* What a call needs of a memref: the pointer to its first element, as an !llvm.ptr, and the
 * number of its elements (dim0: only size[0], the mutation). NULL after an error. */
typedef struct MemrefInfo {
  Value *desc, *ptr, *count;
  uint64_t esize;
} MemrefInfo;

static bool memref_info(Lower *l, Op *op, Value *m, MemrefInfo *mi, bool count, bool dim0) {
  const Type *t = m->type;
  if (t->kind != TY_MEMREF) {
    error(l, op, "cannot lower '%s' of a memref that is not ranked", op->name.s);
    return false;
  }
  mi->esize = elem_bytes(t->u.sh.elem);
  if (!mi->esize) {
    error(l, op, "cannot lower '%s': element type of unknown size", op->name.s);
    return false;
  }
  if (!contiguous(t)) {
    error(l, op, "cannot lower '%s': the memref's layout is not one contiguous block of memory "
                 "(copy through a contiguous buffer first)", op->name.s);
    return false;
  }
  Type *dt = descriptor_type(l, t);
  mi->desc = cast(l, m, dt);
  Value *p = extract(l, mi->desc, dt->u.agg.elems[1], 1, -1);
  if (has_offset(t)) {
    Value *off = mul(l, extract(l, mi->desc, l->i64, 2, -1), const_int(l, l->i64, (int64_t)mi->esize));
    Value *po[2] = {p, off};
    int64_t dyn = INT32_MIN;
    NamedAttr g[3] = {
        {ir_intern_cstr(l->ctx, "elem_type"), ir_attr_type(l->ctx, l->i8)},
        {ir_intern_cstr(l->ctx, "noWrapFlags"), ir_attr_int(l->ctx, l->i32, 0)},
        {ir_intern_cstr(l->ctx, "rawConstantIndices"), ir_attr_dense_i32(l->ctx, &dyn, 1)},
    };
    p = emit1(l, "llvm.getelementptr", po, 2, p->type, ir_attr_dict(l->ctx, g, 3));
  }
  if (p->type != l->ptr)
    p = emit1(l, "llvm.addrspacecast", &p, 1, l->ptr, NULL);
  mi->ptr = p;
  mi->count = NULL;
  if (!count)
    return true;
  /* the number of elements: the static shape, or the product of the descriptor's sizes (for an
   * identity layout that is also stride[0] * size[0], MLIR's first formula) */
  int64_t fixed = 1;
  Value *n = NULL;
  uint32_t rank = dim0 && t->u.sh.rank ? 1 : t->u.sh.rank;
  for (uint32_t i = 0; i < rank; i++) {
    if (t->u.sh.shape[i] != IR_DYNAMIC) {
      fixed *= t->u.sh.shape[i];
      continue;
    }
    Value *sz = extract(l, mi->desc, l->i64, 3, i);
    n = n ? mul(l, n, sz) : sz;
  }
  mi->count = n ? mul(l, n, const_int(l, l->i64, fixed)) : const_int(l, l->i64, fixed);
  return true;
}

/* A memref of rank 2 or more with a dynamic size: where size[0] alone is the wrong count. */
static bool dynamic_multi_dim(const Type *t) {
  if (t->kind != TY_MEMREF || t->u.sh.rank < 2)
    return false;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.shape[i] == IR_DYNAMIC)
      return true;
  return false;
}

/* ---- token plans ---------------------------------------------------------------------------- */

static bool is_token(const Value *v) { return v->type->kind == TY_GPU_TOKEN; }

static Plan *plan_of(Lower *l, const Value *v) {
  return is_token(v) && v->id && v->id < l->nplans && l->plans[v->id].tok == v ? &l->plans[v->id]
                                                                                : NULL;
}

static bool name_in(const Op *op, const char *const *names) {
  for (; *names; names++)
    if (ir_str_eq(op->name, *names))
      return true;
  return false;
}

static const char *const terminators[] = {"scf.yield", "scf.condition", "func.return", "cf.br",
                                          "cf.cond_br", "cf.switch", "async.yield", NULL};
static const char *const gpu_async_ops[] = {"gpu.wait", "gpu.memcpy", "gpu.memset", "gpu.alloc",
                                            "gpu.dealloc", "gpu.launch_func", NULL};

/* How many of a gpu op's leading operands are its async dependencies. */
static uint32_t ndeps_of(const Op *op) {
  if (ir_str_eq(op->name, "gpu.wait"))
    return op->noperands;
  if (ir_str_eq(op->name, "gpu.alloc") || ir_str_eq(op->name, "gpu.launch_func")) {
    Attr *seg = ir_op_attr(op, "operandSegmentSizes");
    return seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n ? (uint32_t)seg->u.darr.ivals[0] : 0;
  }
  if (ir_str_eq(op->name, "gpu.dealloc"))
    return op->noperands - 1;
  if (ir_str_eq(op->name, "gpu.memcpy") || ir_str_eq(op->name, "gpu.memset"))
    return op->noperands - 2;
  return 0;
}

/* A use that may take the stream over when it is the token's last. */
static bool can_move(const Use *u) {
  const Op *op = u->user;
  if (name_in(op, terminators))
    return true;
  if (name_in(op, gpu_async_ops))
    return u->index < ndeps_of(op);
  if (ir_str_eq(op->name, "scf.for"))
    return u->index >= 3;
  return ir_str_eq(op->name, "scf.while");
}

/* Ops whose results stand for one of their operands: they own nothing of their own. */
static const char *const aliasing[] = {"arith.select", "builtin.unrealized_conversion_cast", NULL};

static void new_plan(Lower *l, Value *v, bool owned) {
  if (l->nplans == l->capplans) {
    l->capplans = l->capplans ? 2 * l->capplans : 256;
    if (!(l->plans = realloc(l->plans, l->capplans * sizeof *l->plans)))
      abort();
  }
  Plan *p = &l->plans[l->nplans];
  memset(p, 0, sizeof *p);
  p->tok = p->stream = v;
  p->owned = owned;
  v->id = l->nplans++;
}

/* Gives every token of the host code a plan (Value.id is its index). */
static void number_tokens(Lower *l, Op *op) {
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next) {
      bool fn_entry = b == op->regions[r].first && ir_str_eq(op->name, "func.func");
      for (uint32_t i = 0; i < b->nargs; i++)
        if (is_token(&b->args[i]))
          new_plan(l, &b->args[i], !fn_entry);
      for (Op *o = b->first; o; o = o->next) {
        for (uint32_t i = 0; i < o->nresults; i++)
          if (is_token(&o->results[i]))
            new_plan(l, &o->results[i], !name_in(o, aliasing));
        if (!ir_str_eq(o->name, "gpu.module"))
          number_tokens(l, o);
      }
    }
}

static Op *anchor_in(Op *user, const Block *b) {
  for (Op *o = user; o; o = ir_op_parent_op(o))
    if (o->parent == b)
      return o;
  return NULL;
}

/* Fills p->last and p->mover for a token defined in b; false after an error. */
static bool plan_token(Lower *l, Plan *p, Block *b) {
  Value *v = p->tok;
  p->last = NULL;
  p->mover = NULL;
  for (Use *u = v->uses; u; u = u->next) {
    Op *a = anchor_in(u->user, b);
    if (!a) {
      error(l, u->user, "cannot lower a use of a token in a block other than the one that defines "
                        "it; pass it as a block argument ('%s')", u->user->name.s);
      return false;
    }
    if (!p->last || a->order > p->last->order)
      p->last = a;
  }
  if (!p->last)
    return true;
  if (!p->owned)
    return true;
  for (Use *u = v->uses; u; u = u->next) {
    if (anchor_in(u->user, b) != p->last)
      continue;
    if (u->user != p->last) {
      p->mover = NULL; /* a use nested in the last op: it cannot take the stream */
      return true;
    }
    if (can_move(u) && (!p->mover || u->index < p->mover->index))
      p->mover = u;
  }
  return true;
}

/* ---- streams and events --------------------------------------------------------------------- */

static Value *stream_create(Lower *l) { return call0(l, "mgpuStreamCreate", l->ptr); }
static void stream_destroy(Lower *l, Value *s) { call1(l, "mgpuStreamDestroy", s); }

/* Waiting for a token's work takes an event: created and recorded on the token's stream, waited
 * for by the waiting stream, destroyed (CUDA keeps the wait). As MLIR 22 orders the calls, every
 * event of an op is recorded before its stream is created, and destroyed after all the waits. */
typedef struct Dep {
  Plan *p;
  Value *ev;
  bool consume; /* the op takes the token's stream over without running on it: destroy it */
  bool gone;    /* the event was destroyed already (the destroy-early mutation) */
} Dep;

static void record(Lower *l, Dep *d, Value *waiting) {
  Plan *p = d->p;
  if (p->pre_work && mutant(l, M_RECORD_EARLY)) {
    Block *b = l->block;
    Op *at = l->at;
    l->block = p->pre_work->parent;
    l->at = p->pre_work;
    d->ev = call0(l, "mgpuEventCreate", l->ptr);
    call2(l, "mgpuEventRecord", d->ev, p->stream);
    l->block = b;
    l->at = at;
    return;
  }
  d->ev = call0(l, "mgpuEventCreate", l->ptr);
  bool wrong = waiting && mutant(l, M_RECORD_WRONG);
  call2(l, "mgpuEventRecord", d->ev, wrong ? waiting : p->stream);
}

/* Stream s (NULL: a new one) waits for every dependency of deps: the stream it returns. */
static Value *wait_all(Lower *l, Value *s, Dep *deps, uint32_t n) {
  /* the record-wrong-stream mutant records on the waiting stream: make it first, where one of
   * these records is the site mutated */
  if (!s && n && l->mutate == M_RECORD_WRONG &&
      (l->mutate_site < 0 || ((unsigned)l->mutate_site >= l->sites &&
                              (unsigned)l->mutate_site < l->sites + n)))
    s = stream_create(l);
  for (uint32_t i = 0; i < n; i++)
    record(l, &deps[i], s);
  if (!s)
    s = stream_create(l);
  for (uint32_t i = 0; i < n; i++) {
    if (mutant(l, M_DESTROY_EARLY)) {
      call1(l, "mgpuEventDestroy", deps[i].ev);
      deps[i].gone = true;
    }
    if (!mutant(l, M_DROP_WAIT))
      call2(l, "mgpuStreamWaitEvent", s,
            mutant(l, M_STREAM_AS_EVENT) ? deps[i].p->stream : deps[i].ev);
  }
  for (uint32_t i = 0; i < n; i++)
    if (!deps[i].gone)
      call1(l, "mgpuEventDestroy", deps[i].ev);
  for (uint32_t i = 0; i < n; i++)
    if (deps[i].consume)
      stream_destroy(l, deps[i].p->stream);
  return s;
}

/* A new stream that waits for p's work: what a use that cannot take p's stream gets instead. */
static Value *dup_stream(Lower *l, Plan *p) {
  Dep d = {p, NULL, false, false};
  return wait_all(l, NULL, &d, 1);
}

static bool repeated(const Op *g, uint32_t i) {
  for (uint32_t j = 0; j < i; j++)
    if (g->operands[j] == g->operands[i])
      return true;
  return false;
}

/* The stream for gpu op g whose first n operands are its dependencies: a dependency's own stream
 * when g takes it over (may_reuse), else a new one; it waits for every other dependency, and the
 * streams g takes over without running on them are destroyed once waited for. */
static Value *op_stream(Lower *l, Op *g, uint32_t n, bool may_reuse) {
  Plan *reuse = NULL;
  for (uint32_t i = 0; i < n && may_reuse && !reuse; i++) {
    Plan *p = plan_of(l, g->operands[i]);
    if (p && p->mover == &g->operand_uses[i])
      reuse = p;
  }
  Dep *deps = calloc(n + 1, sizeof *deps);
  if (!deps)
    abort();
  uint32_t nd = 0;
  for (uint32_t i = 0; i < n; i++) {
    Plan *p = plan_of(l, g->operands[i]);
    if (p && p != reuse && !repeated(g, i))
      deps[nd++] = (Dep){p, NULL, p->mover == &g->operand_uses[i], false};
  }
  Value *s = reuse ? reuse->stream : NULL;
  s = nd || !s ? wait_all(l, s, deps, nd) : s;
  free(deps);
  return s;
}

/* After g's work went on stream s: the token result stands for s; without one, g was
 * synchronous: the host waits for s, which then goes. */
static void finish(Lower *l, Op *g, Value *s, Op *work) {
  Value *tok = NULL;
  for (uint32_t i = 0; i < g->nresults; i++)
    if (is_token(&g->results[i]))
      tok = &g->results[i];
  Plan *p = tok ? plan_of(l, tok) : NULL;
  if (p) {
    p->stream = s;
    p->pre_work = work;
    return;
  }
  call1(l, "mgpuStreamSynchronize", s);
  stream_destroy(l, s);
}

/* Each lowering makes what replaces gpu op g before it and returns true, or returns false when g
 * stays as it is (then it makes nothing). */
typedef bool (*LowerFn)(Lower *l, Op *g);

/* ---- the gpu host ops ----------------------------------------------------------------------- */

static bool lower_wait(Lower *l, Op *g) {
  if (g->nresults) {
    finish(l, g, op_stream(l, g, g->noperands, false), NULL);
    return true;
  }
  if (!g->noperands) {
    /* `gpu.wait` without dependencies waits for nothing that a token names */
    return true;
  }
  /* each dependency synchronized, then destroyed when this wait takes its stream over */
  for (uint32_t i = 0; i < g->noperands; i++) {
    Plan *p = plan_of(l, g->operands[i]);
    if (!p || repeated(g, i))
      continue;
    if (mutant(l, M_SKIP_SYNC)) {
      /* the host goes on without waiting */
    } else if (mutant(l, M_SYNC_WRONG)) {
      Value *other = stream_create(l);
      call1(l, "mgpuStreamSynchronize", other);
      stream_destroy(l, other);
    } else {
      call1(l, "mgpuStreamSynchronize", p->stream);
    }
    if (p->mover == &g->operand_uses[i])
      stream_destroy(l, p->stream);
  }
  return true;
}

static bool lower_memcpy(Lower *l, Op *g) {
  uint32_t n = ndeps_of(g);
  Value *dst = g->operands[n], *src = g->operands[n + 1];
  MemrefInfo d, s;
  bool dim0 = dynamic_multi_dim(src->type) && mutant(l, M_MEMCPY_DIM0);
  if (!memref_info(l, g, dst, &d, false, false) || !memref_info(l, g, src, &s, true, dim0))
    return true;
  Value *bytes = mutant(l, M_MEMCPY_ELEMS) ? s.count
                                           : mul(l, s.count, const_int(l, l->i64, (int64_t)s.esize));
  Value *stream = op_stream(l, g, n, true);
  Value *args[4] = {d.ptr, s.ptr, bytes, stream};
  call(l, "mgpuMemcpy", args, 4, NULL);
  finish(l, g, stream, l->at->prev);
  return true;
}

static bool lower_memset(Lower *l, Op *g) {
  uint32_t n = ndeps_of(g);
  Value *dst = g->operands[n], *value = g->operands[n + 1];
  MemrefInfo d;
  uint64_t w = elem_bytes(value->type);
  if (w != 4 && w != 2) {
    error(l, g, "cannot lower '%s' of elements that are not 16 or 32 bits wide (the runtime has "
                "mgpuMemset16 and mgpuMemset32 only)", g->name.s);
    return true;
  }
  if (!memref_info(l, g, dst, &d, true, false))
    return true;
  Type *it = w == 4 ? l->i32 : l->i16;
  Value *bits = value->type == it ? value : emit1(l, "llvm.bitcast", &value, 1, it, NULL);
  Value *count = mutant(l, M_MEMSET_COUNT) ? mul(l, d.count, const_int(l, l->i64, (int64_t)w))
                                           : d.count;
  Value *stream = op_stream(l, g, n, true);
  Value *args[4] = {d.ptr, bits, count, stream};
  call(l, w == 4 ? "mgpuMemset32" : "mgpuMemset16", args, 4, NULL);
  finish(l, g, stream, l->at->prev);
  return true;
}

static bool lower_alloc(Lower *l, Op *g) {
  uint32_t n = ndeps_of(g);
  Type *mt = g->results[0].type;
  uint64_t esize = mt->kind == TY_MEMREF ? elem_bytes(mt->u.sh.elem) : 0;
  if (!esize || mt->u.sh.layout || mt->u.sh.rank > 16) {
    error(l, g, "cannot lower '%s' of this memref type (an identity layout and an element type "
                "of known size are needed)", g->name.s);
    return true;
  }
  uint32_t rank = mt->u.sh.rank;
  Value *sizes[16], *strides[16];
  uint32_t k = n;
  for (uint32_t i = 0; i < rank; i++)
    sizes[i] = mt->u.sh.shape[i] == IR_DYNAMIC ? to_i64(l, g->operands[k++])
                                               : const_int(l, l->i64, mt->u.sh.shape[i]);
  Value *count = const_int(l, l->i64, 1);
  for (uint32_t i = rank; i-- > 0;) {
    strides[i] = count;
    count = mul(l, count, sizes[i]);
  }
  Value *bytes = mul(l, count, const_int(l, l->i64, (int64_t)esize));
  Value *stream = op_stream(l, g, n, true);
  bool shared = ir_op_attr(g, "hostShared") != NULL;
  Value *args[3] = {bytes, stream, const_int(l, l->i8, shared)};
  Value *ptr = call(l, "mgpuMemAlloc", args, 3, l->ptr);
  Op *work = ptr->def;
  Type *dt = descriptor_type(l, mt);
  Value *p = ptr;
  if (dt->u.agg.elems[0] != l->ptr)
    p = emit1(l, "llvm.addrspacecast", &p, 1, dt->u.agg.elems[0], NULL);
  Value *desc = emit1(l, "llvm.mlir.poison", NULL, 0, dt, NULL);
  desc = insert(l, desc, p, 0, -1);
  desc = insert(l, desc, p, 1, -1);
  desc = insert(l, desc, const_int(l, l->i64, 0), 2, -1);
  for (uint32_t i = 0; i < rank; i++) {
    desc = insert(l, desc, sizes[i], 3, i);
    desc = insert(l, desc, strides[i], 4, i);
  }
  ir_value_replace_uses(&g->results[0], cast(l, desc, mt));
  finish(l, g, stream, work);
  return true;
}

static bool lower_dealloc(Lower *l, Op *g) {
  uint32_t n = ndeps_of(g);
  Value *m = g->operands[n];
  if (m->type->kind != TY_MEMREF) {
    error(l, g, "cannot lower '%s' of a memref that is not ranked", g->name.s);
    return true;
  }
  Type *dt = descriptor_type(l, m->type);
  Value *p = extract(l, cast(l, m, dt), dt->u.agg.elems[0], 0, -1);
  if (p->type != l->ptr)
    p = emit1(l, "llvm.addrspacecast", &p, 1, l->ptr, NULL);
  Value *stream = op_stream(l, g, n, true);
  call2(l, "mgpuMemFree", p, stream);
  finish(l, g, stream, l->at->prev);
  return true;
}

/* gpu.launch_func async [deps] ... becomes gpu.launch_func <%stream : !llvm.ptr> ..., MLIR 22's
 * stream form; a synchronous launch stays synchronous (after waiting for its dependencies). */
static bool lower_launch(Lower *l, Op *g) {
  Attr *seg = ir_op_attr(g, "operandSegmentSizes");
  if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 13) {
    error(l, g, "cannot lower '%s' without its 13 operand segments", g->name.s);
    return true;
  }
  uint32_t n = (uint32_t)seg->u.darr.ivals[0];
  if (seg->u.darr.ivals[12]) {
    if (n)
      error(l, g, "cannot lower '%s' with both a stream and dependencies", g->name.s);
    return false; /* already in the stream form */
  }
  bool async = g->nresults == 1;
  if (!async && !n)
    return false; /* synchronous without dependencies: MLIR 22 leaves it so */
  Value *stream = NULL;
  if (async) {
    stream = op_stream(l, g, n, true);
  } else {
    for (uint32_t i = 0; i < n; i++) {
      Plan *p = plan_of(l, g->operands[i]);
      if (p && !repeated(g, i))
        call1(l, "mgpuStreamSynchronize", p->stream);
    }
    for (uint32_t i = 0; i < n; i++) {
      Plan *p = plan_of(l, g->operands[i]);
      if (p && !repeated(g, i) && p->mover == &g->operand_uses[i])
        stream_destroy(l, p->stream);
    }
  }
  Value *on = stream;
  bool wrong = async && mutant(l, M_LAUNCH_WRONG);
  if (wrong)
    on = stream_create(l);
  uint32_t nops = g->noperands - n + (async ? 1 : 0);
  Value **ops = ir_alloc(l->ctx, nops * sizeof *ops + 1);
  memcpy(ops, g->operands + n, (g->noperands - n) * sizeof *ops);
  if (async)
    ops[nops - 1] = on;
  int64_t segs[13];
  for (int i = 0; i < 13; i++)
    segs[i] = seg->u.darr.ivals[i];
  segs[0] = 0;
  segs[12] = async ? 1 : 0;
  Attr *props = ir_dict_set(l->ctx, g->props, ir_intern_cstr(l->ctx, "operandSegmentSizes"),
                            ir_attr_dense_i32(l->ctx, segs, 13));
  Op *launch = emit(l, "gpu.launch_func", ops, nops, NULL, props);
  launch->attrs = g->attrs;
  if (wrong)
    stream_destroy(l, on);
  if (async)
    finish(l, g, stream, launch);
  return true;
}

/* gpu.host_register %u : memref<*xT> becomes mgpuMemHostRegisterMemRef(rank, &descriptor,
 * sizeof(T)) with the unranked memref's own rank and descriptor pointer; a ranked memref's
 * descriptor is stored on the stack for it. */
static bool lower_register(Lower *l, Op *g, const char *fn) {
  Value *m = g->operands[0];
  /* a memref.cast of a ranked memref: the ranked one, whose descriptor goes on the stack */
  if (m->type->kind == TY_UNRANKED_MEMREF && m->def && ir_str_eq(m->def->name, "memref.cast") &&
      m->def->operands[0]->type->kind == TY_MEMREF)
    m = m->def->operands[0];
  Type *t = m->type;
  Type *elem = t->u.sh.elem;
  uint64_t esize = t->kind == TY_MEMREF || t->kind == TY_UNRANKED_MEMREF ? elem_bytes(elem) : 0;
  if (!esize) {
    error(l, g, "cannot lower '%s': element type of unknown size", g->name.s);
    return true;
  }
  Value *rank, *desc;
  if (t->kind == TY_UNRANKED_MEMREF) {
    /* an unranked memref is (rank, pointer to the ranked descriptor), as MLIR lowers it */
    Type *f[2] = {l->i64, l->ptr};
    Value *u = cast(l, m, ir_type_llvm_struct(l->ctx, f, 2));
    rank = extract(l, u, l->i64, 0, -1);
    desc = extract(l, u, l->ptr, 1, -1);
  } else {
    Type *dt = descriptor_type(l, t);
    Value *d = cast(l, m, dt);
    Value *one = const_int(l, l->i64, 1);
    desc = emit1(l, "llvm.alloca", &one, 1, l->ptr, dict1(l, "elem_type", ir_attr_type(l->ctx, dt)));
    Value *st[2] = {d, desc};
    emit(l, "llvm.store", st, 2, NULL, dict1(l, "ordering", ir_attr_int(l->ctx, l->i64, 0)));
    rank = const_int(l, l->i64, t->u.sh.rank);
  }
  Value *args[3] = {rank, desc, const_int(l, l->i64, (int64_t)esize)};
  call(l, fn, args, 3, NULL);
  return true;
}

static bool lower_host_register(Lower *l, Op *g) {
  return lower_register(l, g, "mgpuMemHostRegisterMemRef");
}
static bool lower_host_unregister(Lower *l, Op *g) {
  return lower_register(l, g, "mgpuMemHostUnregisterMemRef");
}
static bool lower_set_device(Lower *l, Op *g) {
  call1(l, "mgpuSetDefaultDevice", g->operands[0]);
  return true;
}

/* One row per gpu host op: its name and how it is lowered. */
static const struct {
  const char *name;
  LowerFn fn;
} gpu_ops[] = {
    {"gpu.wait", lower_wait},
    {"gpu.memcpy", lower_memcpy},
    {"gpu.memset", lower_memset},
    {"gpu.alloc", lower_alloc},
    {"gpu.dealloc", lower_dealloc},
    {"gpu.launch_func", lower_launch},
    {"gpu.host_register", lower_host_register},
    {"gpu.host_unregister", lower_host_unregister},
    {"gpu.set_default_device", lower_set_device},
};

static LowerFn gpu_lowering(const Op *op) {
  for (size_t i = 0; i < sizeof gpu_ops / sizeof gpu_ops[0]; i++)
    if (ir_str_eq(op->name, gpu_ops[i].name))
      return gpu_ops[i].fn;
  return NULL;
}

/* ---- walking the host code ------------------------------------------------------------------ */

typedef struct Pending {
  Op **ops;
  uint32_t n, cap;
} Pending;

static void lower_block(Lower *l, Block *b, Pending *erase);

/* The ops of b, in order: plans for the tokens b defines, then each op lowered, its token
 * operands given their streams, and the streams whose last use it was destroyed after it. */
static void lower_block(Lower *l, Block *b, Pending *erase) {
  uint32_t nops = 0;
  for (Op *o = b->first; o; o = o->next)
    o->order = nops++;
  Plan **after = calloc(nops + 1, sizeof *after); /* plans to destroy after op #i */
  if (!after)
    abort();
  Op *saved_at = l->at;
  Block *saved_block = l->block;
  Loc *saved_loc = l->loc;
  Op *owner = b->parent ? b->parent->parent : NULL;
  if (owner && b == b->parent->first &&
      (ir_str_eq(owner->name, "func.func") || ir_str_eq(owner->name, "llvm.func"))) {
    l->fn_entry = b; /* a new function: a new set of constants */
    l->fn_first = b->first;
    l->gen++;
    l->nconsts = 0;
  }
  /* tokens of b: its arguments, then the results of its ops */
  for (uint32_t i = 0; i < b->nargs; i++) {
    Plan *p = plan_of(l, &b->args[i]);
    if (!p || !plan_token(l, p, b))
      continue;
    if (!p->owned || p->mover)
      continue;
    if (!p->last) { /* never used: destroyed at once */
      l->block = b;
      l->at = b->first;
      l->loc = p->tok->loc ? p->tok->loc : (b->first ? b->first->loc : NULL);
      stream_destroy(l, p->stream);
      continue;
    }
    p->next = after[p->last->order];
    after[p->last->order] = p;
  }
  for (Op *o = b->first; o; o = o->next)
    for (uint32_t i = 0; i < o->nresults; i++) {
      Plan *p = plan_of(l, &o->results[i]);
      if (!p || !plan_token(l, p, b) || !p->owned || p->mover)
        continue;
      Op *at = p->last ? p->last : o;
      p->next = after[at->order];
      after[at->order] = p;
    }
  for (Op *o = b->first, *next; o; o = next) {
    next = o->next;
    uint32_t order = o->order;
    l->block = b;
    l->at = o;
    l->loc = o->loc;
    LowerFn fn = gpu_lowering(o);
    if (fn && !fn(l, o)) {
      fn = NULL; /* left as it is */
    } else if (fn) {
      if (erase->n == erase->cap) {
        erase->cap = erase->cap ? 2 * erase->cap : 64;
        erase->ops = realloc(erase->ops, erase->cap * sizeof *erase->ops);
        if (!erase->ops)
          abort();
      }
      erase->ops[erase->n++] = o;
    } else {
      if (!ir_str_eq(o->name, "gpu.module"))
        for (uint32_t r = 0; r < o->nregions; r++)
          for (Block *nb = o->regions[r].first; nb; nb = nb->next)
            lower_block(l, nb, erase);
      l->block = b;
      l->at = o;
      l->loc = o->loc;
      for (uint32_t i = 0; i < o->noperands; i++) {
        Plan *p = plan_of(l, o->operands[i]);
        if (!p)
          continue;
        if (p->mover == &o->operand_uses[i] || !can_move(&o->operand_uses[i]))
          ir_op_set_operand(o, i, p->stream);
        else
          ir_op_set_operand(o, i, dup_stream(l, p));
      }
    }
    /* the streams whose last use this was: after it (after what replaces it, for a gpu op) */
    if (after[order]) {
      bool terminator = name_in(o, terminators);
      l->at = fn || terminator ? o : o->next;
      l->loc = o->loc;
      for (Plan *p = after[order]; p; p = p->next)
        stream_destroy(l, p->stream);
    }
  }
  free(after);
  l->at = saved_at;
  l->block = saved_block;
  l->loc = saved_loc;
}

/* !gpu.async.token becomes !llvm.ptr wherever it stands in t; t itself when none does. */
static Type *retype(Lower *l, Type *t) {
  if (t->kind == TY_GPU_TOKEN)
    return l->ptr;
  if (t->kind == TY_ASYNC_VALUE && t->u.arr.elem->kind == TY_GPU_TOKEN) {
    Type proto = *t;
    proto.u.arr.elem = l->ptr;
    return ir_type_intern(l->ctx, &proto);
  }
  if (t->kind == TY_FUNC) {
    uint32_t n = t->u.fn.nin + t->u.fn.nout;
    Type **ts = ir_alloc(l->ctx, (n + 1) * sizeof *ts);
    bool changed = false;
    for (uint32_t i = 0; i < n; i++) {
      Type *e = i < t->u.fn.nin ? t->u.fn.in[i] : t->u.fn.out[i - t->u.fn.nin];
      ts[i] = retype(l, e);
      changed |= ts[i] != e;
    }
    return changed ? ir_type_func(l->ctx, ts, t->u.fn.nin, ts + t->u.fn.nin, t->u.fn.nout) : t;
  }
  return t;
}

static void retype_all(Lower *l, Op *op) {
  for (uint32_t i = 0; i < op->nresults; i++)
    op->results[i].type = retype(l, op->results[i].type);
  if (ir_str_eq(op->name, "func.func")) {
    Attr *ft = ir_op_attr(op, "function_type");
    if (ft && ft->kind == ATTR_TYPE) {
      Type *nt = retype(l, ft->type);
      if (nt != ft->type)
        op->props = ir_dict_set(l->ctx, op->props, ir_intern_cstr(l->ctx, "function_type"),
                                ir_attr_type(l->ctx, nt));
    }
  }
  if (ir_str_eq(op->name, "gpu.module"))
    return;
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next) {
      for (uint32_t i = 0; i < b->nargs; i++)
        b->args[i].type = retype(l, b->args[i].type);
      for (Op *o = b->first; o; o = o->next)
        retype_all(l, o);
    }
}

static bool parse_mutation(Lower *l, Op *module, const char *spec) {
  l->mutate = -1;
  l->mutate_site = -1;
  if (!spec)
    return true;
  const char *colon = strchr(spec, ':');
  size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
  for (int k = 0; k < M_COUNT; k++)
    if (strlen(kinds[k]) == len && !strncmp(kinds[k], spec, len))
      l->mutate = k;
  if (l->mutate < 0) {
    ir_diag(l->ctx, DIAG_ERROR, module->loc, "unknown lowering mutation '%.*s'", (int)len, spec);
    return false;
  }
  if (colon) {
    char *end;
    long site = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || site < 0) {
      ir_diag(l->ctx, DIAG_ERROR, module->loc, "bad mutation site '%s' (expected KIND:N)", colon + 1);
      return false;
    }
    l->mutate_site = site;
  }
  return true;
}

unsigned lower_module(IrCtx *ctx, Op *module, LowerOptions *opts) {
  Lower l = {0};
  l.ctx = ctx;
  l.module = module;
  l.ptr = ir_type_llvm_ptr(ctx, 0);
  l.i64 = ir_type_int(ctx, 64, SIGNLESS);
  l.i32 = ir_type_int(ctx, 32, SIGNLESS);
  l.i16 = ir_type_int(ctx, 16, SIGNLESS);
  l.i8 = ir_type_int(ctx, 8, SIGNLESS);
  l.voidt = ir_type_simple(ctx, TY_LLVM_VOID);
  l.nplans = 1; /* plan 0: none */
  l.capplans = 256;
  if (!(l.plans = calloc(l.capplans, sizeof *l.plans)))
    abort();
  if (!parse_mutation(&l, module, opts ? opts->mutate : NULL)) {
    free(l.plans);
    return 1;
  }
  l.errors = lower_outline(ctx, module);
  if (l.errors) {
    free(l.plans);
    return l.errors;
  }
  number_tokens(&l, module);
  Pending erase = {0};
  for (Block *b = module->regions[0].first; b; b = b->next)
    lower_block(&l, b, &erase);
  if (!l.errors) {
    ir_ops_erase(erase.ops, erase.n);
    retype_all(&l, module);
    declare_called(&l);
  }
  free(erase.ops);
  free(l.plans);
  free(l.consts);
  if (opts)
    opts->sites = l.sites;
  if (!l.errors && l.mutate >= 0 && l.mutate_site >= 0 && (unsigned)l.mutate_site >= l.sites) {
    ir_diag(ctx, DIAG_ERROR, module->loc, "the lowering has no site %ld of mutation '%s' "
            "(it has %u)", l.mutate_site, kinds[l.mutate], l.sites);
    l.errors++;
  }
  return l.errors;
}
