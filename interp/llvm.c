/* llvm.c - the LLVM dialect on the host: what `mlir-opt --gpu-to-llvm --finalize-memref-to-llvm
 * --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm ...` leaves of a program's
 * host code, run as it is. The memory it may touch and the external functions it calls are
 * llvm_extern.c's.
 *
 * Values. A scalar (iN, fN, !llvm.ptr) takes one word, as in arith.c; an !llvm.struct or
 * !llvm.array takes its leaves' words in order (interp_words), so insertvalue and extractvalue are
 * word copies at an offset computed once; a 1-D vector one word per element. Memory holds values
 * in LLVM's data layout for x86-64: natural alignment, iN rounded up to a power-of-two number of
 * bytes, structs padded between fields and at the end (packed ones not), arrays as repeated
 * elements, vectors aligned to their size. A load or store of an aggregate walks its leaves
 * (word, byte offset, type), also computed once, after llvm_extern.c checked the whole range.
 *
 * Globals get their storage the first time an llvm.mlir.addressof names them, initialized from
 * their value (a string, dense elements, a scalar, an array of those) or by running their
 * initializer region once. Calls, returns and branches are func's and cf's compile functions.
 *
 * Ops that reuse arith.c: integer and float arithmetic, casts and intrinsics compile through
 * arith's compile functions under their arith name (llvm.add as arith.addi, llvm.intr.sqrt as
 * math.sqrt), icmp and fcmp as cmpi and cmpf (same predicate numbering), select as arith.select;
 * on vectors too, lane by lane. */
#include "interp/llvm.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- data layout ---------------------------------------------------------------------------- */

typedef struct Layout {
  uint64_t size, align; /* size 0: a type this file cannot place in memory */
} Layout;

static uint64_t pow2_at_least(uint64_t n) {
  uint64_t p = 1;
  while (p < n && p <= UINT64_MAX / 2)
    p *= 2;
  return p < n ? UINT64_MAX : p;
}

/* Sizes saturate: UINT64_MAX stands for a type too big for memory (its allocation fails). */
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static bool scalar_leaf(const Type *t) {
  if (t->kind == TY_FLOAT)
    return t->u.f == F_F16 || t->u.f == F_BF16 || t->u.f == F_F32 || t->u.f == F_F64;
  return (t->kind == TY_INT && t->u.i.width <= 64) || t->kind == TY_INDEX || t->kind == TY_LLVM_PTR;
}

static Layout layout_of(const Type *t) {
  switch (t->kind) {
  case TY_INT: {
    uint64_t b = t->u.i.width <= 8 ? 1 : pow2_at_least((t->u.i.width + 7) / 8);
    return (Layout){b, b > 16 ? 16 : b};
  }
  case TY_INDEX:
  case TY_LLVM_PTR: return (Layout){8, 8};
  case TY_FLOAT: {
    uint64_t b = t->u.f == F_F80 || t->u.f == F_F128 ? 16 : (ir_float_width(t->u.f) + 7) / 8;
    return (Layout){b, b};
  }
  case TY_LLVM_ARRAY: {
    Layout e = layout_of(t->u.arr.elem);
    return (Layout){sat_mul(e.size, t->u.arr.count), e.align ? e.align : 1};
  }
  case TY_VECTOR: { /* 1-D, fixed: aligned to its size rounded up to a power of two */
    if (t->u.sh.rank != 1 || (t->u.sh.scalable && t->u.sh.scalable[0]) ||
        !scalar_leaf(t->u.sh.elem) ||
        (t->u.sh.elem->kind == TY_INT && t->u.sh.elem->u.i.width == 1))
      return (Layout){0, 1};
    uint64_t a = pow2_at_least(sat_mul(layout_of(t->u.sh.elem).size, (uint64_t)t->u.sh.shape[0]));
    return (Layout){a, a == UINT64_MAX ? 1 : a};
  }
  case TY_LLVM_STRUCT: {
    if (t->u.agg.opaque)
      return (Layout){0, 1};
    uint64_t off = 0, align = 1;
    for (uint32_t i = 0; i < t->u.agg.n; i++) {
      Layout f = layout_of(t->u.agg.elems[i]);
      if (!f.size && !(t->u.agg.elems[i]->kind == TY_LLVM_STRUCT && !t->u.agg.elems[i]->u.agg.n))
        return (Layout){0, 1};
      uint64_t a = t->u.agg.packed ? 1 : f.align;
      off = sat_add(sat_add(off, a - 1) / a * a, f.size);
      align = a > align ? a : align;
    }
    off = off == UINT64_MAX ? off : sat_add(off, align - 1) / align * align;
    return (Layout){off, align};
  }
  default: return (Layout){0, 1};
  }
}

static uint64_t field_offset(const Type *st, uint32_t k) {
  uint64_t off = 0;
  for (uint32_t i = 0; i <= k && i < st->u.agg.n; i++) {
    Layout f = layout_of(st->u.agg.elems[i]);
    uint64_t a = st->u.agg.packed ? 1 : f.align;
    off = (off + a - 1) / a * a;
    if (i < k)
      off += f.size;
  }
  return off;
}

/* A value's leaves: where each scalar sits in the value's words and in memory. */
typedef struct Leaf {
  uint32_t word;
  uint64_t byte;
  const Type *t;
} Leaf;

typedef struct Leaves {
  Leaf *v;
  uint32_t n;
  uint64_t size; /* bytes in memory */
} Leaves;

static bool walk_leaves(const Type *t, uint32_t word, uint64_t byte, Leaves *out) {
  if (scalar_leaf(t)) {
    out->v[out->n++] = (Leaf){word, byte, t};
    return true;
  }
  if (t->kind == TY_LLVM_ARRAY) {
    uint64_t es = layout_of(t->u.arr.elem).size;
    uint32_t ew = interp_words(t->u.arr.elem);
    for (uint64_t i = 0; i < t->u.arr.count; i++)
      if (!walk_leaves(t->u.arr.elem, word + (uint32_t)i * ew, byte + i * es, out))
        return false;
    return true;
  }
  if (t->kind == TY_VECTOR && layout_of(t).size) {
    uint64_t es = layout_of(t->u.sh.elem).size;
    for (int64_t i = 0; i < t->u.sh.shape[0]; i++)
      out->v[out->n++] = (Leaf){word + (uint32_t)i, byte + (uint64_t)i * es, t->u.sh.elem};
    return true;
  }
  if (t->kind == TY_LLVM_STRUCT && !t->u.agg.opaque) {
    for (uint32_t i = 0; i < t->u.agg.n; i++) {
      if (!walk_leaves(t->u.agg.elems[i], word, byte + field_offset(t, i), out))
        return false;
      word += interp_words(t->u.agg.elems[i]);
    }
    return true;
  }
  return false;
}

/* NULL (after reporting) for types without a memory layout here: vectors, opaque structs, ... */
static Leaves *leaves_of(Comp *c, Op *op, const Type *t) {
  Layout l = layout_of(t);
  uint32_t words = interp_words(t);
  Leaves *lv = ir_alloc(c->in->ctx, sizeof *lv);
  lv->v = ir_alloc(c->in->ctx, (words + 1) * sizeof *lv->v);
  lv->size = l.size;
  if ((!l.size && !(t->kind == TY_LLVM_STRUCT && !t->u.agg.n)) || !walk_leaves(t, 0, 0, lv)) {
    char what[200];
    snprintf(what, sizeof what, "a value of type %s in memory", ir_type_str(c->in->ctx, t));
    interp_unsupported(c, op, what);
    return NULL;
  }
  return lv;
}

static void leaf_store(const Type *t, char *p, const Slot *v) {
  if (t->kind == TY_INT && t->u.i.width == 1) {
    *p = (char)(v->i & 1); /* LLVM stores i1 as a 0/1 byte */
    return;
  }
  interp_store_elem(t, p, v);
}

static void leaves_load(const Leaves *lv, const char *p, Slot *out) {
  for (uint32_t i = 0; i < lv->n; i++)
    interp_load_elem(lv->v[i].t, p + lv->v[i].byte, &out[lv->v[i].word]);
}

static void leaves_store(const Leaves *lv, char *p, const Slot *in) {
  for (uint32_t i = 0; i < lv->n; i++)
    leaf_store(lv->v[i].t, p + lv->v[i].byte, &in[lv->v[i].word]);
}

/* ---- constants and globals ------------------------------------------------------------------ */

/* Writes a scalar of type t at p from an attribute element: an integer or a float. */
static void put_scalar(const Type *t, char *p, bool is_float, int64_t iv, double fv) {
  Slot s = {0};
  if (t->kind == TY_FLOAT) {
    double v = is_float ? fv : (double)iv;
    if (t->u.f == F_F64)
      s.f = v;
    else
      s.f32 = (float)(t->u.f == F_F32 ? v : ir_float_round(t->u.f, v));
  } else {
    s.i = is_float ? (int64_t)fv : iv;
  }
  leaf_store(t, p, &s);
}

/* Fills dst (laid out as type t, zeroed) from an initializer attribute. false: not supported. */
static bool init_from_attr(const Type *t, const Attr *a, char *dst) {
  switch (a->kind) {
  case ATTR_STRING: {
    uint64_t n = layout_of(t).size;
    memcpy(dst, a->u.str.s, a->u.str.len < n ? a->u.str.len : n);
    return true;
  }
  case ATTR_INT:
  case ATTR_BOOL:
  case ATTR_FLOAT:
    if (!scalar_leaf(t) || (a->kind == ATTR_INT && a->u.i.big))
      return false;
    put_scalar(t, dst, a->kind == ATTR_FLOAT, a->kind == ATTR_BOOL ? a->u.b : a->u.i.v,
               a->kind == ATTR_FLOAT ? a->u.f.v : 0);
    return true;
  case ATTR_DENSE: {
    if (!a->u.dense.ivals && !a->u.dense.fvals)
      return false;
    uint32_t words = interp_words(t);
    Leaf *v = malloc((words + 1) * sizeof *v);
    if (!v)
      return false;
    Leaves lv = {v, 0, 0};
    bool ok = walk_leaves(t, 0, 0, &lv) && (a->u.dense.splat || a->u.dense.n >= lv.n);
    for (uint32_t i = 0; ok && i < lv.n; i++) {
      uint64_t k = a->u.dense.splat ? 0 : i;
      put_scalar(v[i].t, dst + v[i].byte, a->u.dense.fvals != NULL,
                 a->u.dense.ivals ? a->u.dense.ivals[k] : 0,
                 a->u.dense.fvals ? a->u.dense.fvals[k] : 0);
    }
    free(v);
    return ok;
  }
  case ATTR_ARRAY: /* [field, field, ...] of a struct or array */
    if (t->kind == TY_LLVM_STRUCT && a->u.arr.n == t->u.agg.n) {
      for (uint32_t i = 0; i < a->u.arr.n; i++)
        if (!init_from_attr(t->u.agg.elems[i], a->u.arr.elems[i], dst + field_offset(t, i)))
          return false;
      return true;
    }
    if (t->kind == TY_LLVM_ARRAY && a->u.arr.n == t->u.arr.count) {
      uint64_t es = layout_of(t->u.arr.elem).size;
      for (uint32_t i = 0; i < a->u.arr.n; i++)
        if (!init_from_attr(t->u.arr.elem, a->u.arr.elems[i], dst + i * es))
          return false;
      return true;
    }
    return false;
  default: return false;
  }
}

static int x_words(Frame *fr, const Ins *ins) {
  interp_copy(&fr->s[ins->out[0]], ins->aux, ins->a);
  return EX_NEXT;
}

static int x_zero(Frame *fr, const Ins *ins) {
  memset(&fr->s[ins->out[0]], 0, ins->a * sizeof(Slot));
  return EX_NEXT;
}

/* llvm.mlir.constant of an aggregate: its words, built once through its memory image. */
static bool constant_words(Comp *c, Op *op, Ins *ins, const Attr *v) {
  Type *t = op->results[0].type;
  Leaves *lv = leaves_of(c, op, t);
  if (!lv)
    return false;
  char *img = calloc(1, lv->size + 1);
  if (!img)
    abort();
  bool ok = init_from_attr(t, v, img);
  Slot *w = ir_alloc(c->in->ctx, (interp_words(t) + 1) * sizeof *w);
  if (ok)
    leaves_load(lv, img, w);
  free(img);
  if (!ok)
    return interp_unsupported(c, op, "this constant");
  ins->a = interp_words(t);
  ins->aux = w;
  ins->fn = x_words;
  return true;
}

bool c_llvm_constant(Comp *c, Op *op, Ins *ins) {
  Type *t = op->results[0].type;
  Attr *v = ir_op_attr(op, "value");
  if (!v)
    return interp_unsupported(c, op, "a constant without a value");
  if (((t->kind == TY_INT || t->kind == TY_FLOAT) && v->kind != ATTR_DENSE) || t->kind == TY_VECTOR)
    return c_constant(c, op, ins);
  return constant_words(c, op, ins, v);
}

/* llvm.mlir.zero, poison and undef: all words zero (a defined stand-in for poison). */
bool c_llvm_zero(Comp *c, Op *op, Ins *ins) {
  (void)c;
  ins->a = interp_words(op->results[0].type);
  ins->fn = x_zero;
  return true;
}

/* The storage of an llvm.mlir.global, made (and initialized) the first time it is addressed. */
static char *global_storage(Comp *c, Op *g, Ins *site) {
  Interp *in = c->in;
  char *have = interp_low_global(in, g);
  if (have)
    return have;
  Attr *gt = ir_op_attr(g, "global_type");
  Type *t = gt && gt->kind == ATTR_TYPE ? gt->type : NULL;
  Layout l = t ? layout_of(t) : (Layout){0, 1};
  if (!l.size && !(t && t->kind == TY_LLVM_STRUCT)) {
    interp_unsupported(c, g, "a global of this type");
    return NULL;
  }
  Attr *al = ir_op_attr(g, "alignment");
  uint64_t align = al && al->kind == ATTR_INT && al->u.i.v > 0 ? (uint64_t)al->u.i.v : l.align;
  align = pow2_at_least(align < 16 ? 16 : align);
  void *p = l.size == UINT64_MAX ? NULL : interp_host_alloc(l.size, align);
  if (!p) {
    if (l.size == UINT64_MAX)
      ir_op_error(in->ctx, g, "out of memory: the global's size overflows 64 bits");
    else
      ir_op_error(in->ctx, g, "out of memory: cannot allocate %llu bytes for this global", (unsigned long long)l.size);
    in->errors++;
    return NULL;
  }
  const char *loc = interp_loc(c, g);
  interp_low_block_add(in, p, l.size, ir_op_attr(g, "constant") ? R_CONST : R_GLOBAL, loc);
  if (in->be)
    be_host_add(in->be, p, l.size ? l.size : 1, loc);
  interp_low_global_add(in, g, p);
  Attr *v = ir_op_attr(g, "value");
  if (v && !init_from_attr(t, v, p)) {
    interp_unsupported(c, g, "this global initializer");
    return NULL;
  }
  if (!v && g->nregions && g->regions[0].first) {
    /* an initializer region: run it once, like a function without arguments */
    Func *f = ir_alloc(in->ctx, sizeof *f);
    f->op = g;
    f->nresults = 1;
    Leaves *lv = leaves_of(c, g, t);
    if (!lv || !interp_compile_func(in, f))
      return NULL;
    uint32_t words = interp_words(t);
    Slot *w = calloc(words + 1, sizeof *w);
    if (!w)
      abort();
    int r = interp_call(in, f, site, NULL, w);
    if (r != EX_ERROR)
      leaves_store(lv, p, w);
    free(w);
    if (r == EX_ERROR)
      return NULL;
  }
  return p;
}

bool c_addressof(Comp *c, Op *op, Ins *ins) {
  Attr *name = ir_op_attr(op, "global_name");
  if (!name || name->kind != ATTR_SYMREF || name->u.sym.n != 1)
    return interp_unsupported(c, op, "this form of llvm.mlir.addressof");
  Op *g = ir_symbol_lookup(c->in->module, name->u.sym.path[0]);
  Func *fn = g && !ir_str_eq(g->name, "llvm.mlir.global") ? interp_func(c->in, name->u.sym.path[0]) : NULL;
  if (fn) { /* a function's address is its Func: what the async runtime calls back (async.c) */
    Slot *w = ir_alloc(c->in->ctx, sizeof *w);
    w->p = fn;
    ins->a = 1;
    ins->aux = w;
    ins->fn = x_words;
    return true;
  }
  if (!g || !ir_str_eq(g->name, "llvm.mlir.global"))
    return interp_unsupported(c, op,
                              g ? "the address of this symbol" : "the address of an unknown symbol");
  char *p = global_storage(c, g, ins);
  if (!p)
    return false;
  Slot *w = ir_alloc(c->in->ctx, sizeof *w);
  w->p = p;
  ins->a = 1;
  ins->aux = w;
  ins->fn = x_words;
  return true;
}

/* ---- aggregates ----------------------------------------------------------------------------- */

/* Word offset of position pos in a value of type t; *leaf gets the type there. */
static bool position(Comp *c, Op *op, const Type *t, uint32_t *word, const Type **leaf) {
  Attr *pos = ir_op_attr(op, "position");
  if (!pos || pos->kind != ATTR_DENSE_ARRAY)
    return interp_unsupported(c, op, "a position that is not an array of integers");
  uint32_t w = 0;
  for (uint32_t k = 0; k < pos->u.darr.n; k++) {
    int64_t i = pos->u.darr.ivals[k];
    if (t->kind == TY_LLVM_STRUCT && i >= 0 && i < t->u.agg.n) {
      for (int64_t j = 0; j < i; j++)
        w += interp_words(t->u.agg.elems[j]);
      t = t->u.agg.elems[i];
    } else if (t->kind == TY_LLVM_ARRAY && i >= 0 && (uint64_t)i < t->u.arr.count) {
      w += (uint32_t)i * interp_words(t->u.arr.elem);
      t = t->u.arr.elem;
    } else {
      return interp_unsupported(c, op, "a position outside the aggregate");
    }
  }
  *word = w;
  *leaf = t;
  return true;
}

static int x_extractvalue(Frame *fr, const Ins *ins) {
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[0] + (uint32_t)ins->imm.i], ins->a);
  return EX_NEXT;
}

bool c_extractvalue(Comp *c, Op *op, Ins *ins) {
  uint32_t w;
  const Type *t;
  if (!position(c, op, op->operands[0]->type, &w, &t))
    return false;
  ins->imm.i = w;
  ins->a = interp_words(t);
  ins->fn = x_extractvalue;
  return true;
}

static int x_insertvalue(Frame *fr, const Ins *ins) {
  Slot *out = &fr->s[ins->out[0]];
  interp_copy(out, &fr->s[ins->in[0]], ins->b);
  interp_copy(out + ins->imm.i, &fr->s[ins->in[1]], ins->a);
  return EX_NEXT;
}

bool c_insertvalue(Comp *c, Op *op, Ins *ins) {
  uint32_t w;
  const Type *t;
  if (!position(c, op, op->operands[0]->type, &w, &t))
    return false;
  ins->imm.i = w;
  ins->a = interp_words(t);
  ins->b = interp_words(op->operands[0]->type);
  ins->fn = x_insertvalue;
  return true;
}

/* ---- pointers: getelementptr, alloca, load, store ------------------------------------------- */

#define GEP_DYNAMIC INT32_MIN /* rawConstantIndices: take the next operand */

typedef struct Gep {
  int64_t off; /* the constant part, in bytes */
  uint32_t n;  /* dynamic indices */
  uint32_t *slot;
  int64_t *scale;
} Gep;

static int x_gep(Frame *fr, const Ins *ins) {
  const Gep *g = ins->aux;
  uint64_t p = fr->s[ins->in[0]].u + (uint64_t)g->off;
  for (uint32_t i = 0; i < g->n; i++)
    p += (uint64_t)fr->s[g->slot[i]].i * (uint64_t)g->scale[i];
  fr->s[ins->out[0]].u = p;
  return EX_NEXT;
}

bool c_gep(Comp *c, Op *op, Ins *ins) {
  Attr *raw = ir_op_attr(op, "rawConstantIndices");
  Attr *et = ir_op_attr(op, "elem_type");
  if (!raw || raw->kind != ATTR_DENSE_ARRAY || !et || et->kind != ATTR_TYPE ||
      op->operands[0]->type->kind != TY_LLVM_PTR)
    return interp_unsupported(c, op, "this form of llvm.getelementptr");
  Gep *g = ir_alloc(c->in->ctx, sizeof *g);
  g->slot = ir_alloc(c->in->ctx, (op->noperands + 1) * sizeof *g->slot);
  g->scale = ir_alloc(c->in->ctx, (op->noperands + 1) * sizeof *g->scale);
  const Type *t = et->type;
  uint32_t next = 1;
  for (uint32_t k = 0; k < raw->u.darr.n; k++) {
    bool dyn = raw->u.darr.ivals[k] == GEP_DYNAMIC;
    if (dyn && next >= op->noperands)
      return interp_unsupported(c, op, "a getelementptr with missing indices");
    if (dyn && op->operands[next]->type->kind != TY_INT)
      return interp_unsupported(c, op, "a getelementptr with vector indices");
    int64_t cidx = raw->u.darr.ivals[k];
    const Type *step; /* the type the index counts in */
    if (k == 0) {
      step = t;
    } else if (t->kind == TY_LLVM_STRUCT) {
      if (dyn || cidx < 0 || cidx >= t->u.agg.n)
        return interp_unsupported(c, op, "a struct index that is not a field number");
      g->off = (int64_t)((uint64_t)g->off + field_offset(t, (uint32_t)cidx));
      t = t->u.agg.elems[cidx];
      continue;
    } else if (t->kind == TY_LLVM_ARRAY) {
      step = t = t->u.arr.elem;
    } else {
      return interp_unsupported(c, op, "an index into a type that is not an aggregate");
    }
    Layout l = layout_of(step);
    if (!l.size && !(step->kind == TY_LLVM_STRUCT && !step->u.agg.n))
      return interp_unsupported(c, op, "a getelementptr over a type without a memory layout here");
    if (dyn) {
      g->slot[g->n] = ins->in[next++];
      g->scale[g->n++] = (int64_t)l.size;
    } else {
      g->off = (int64_t)((uint64_t)g->off + (uint64_t)cidx * l.size); /* wrapping, as x_gep's address */
    }
  }
  ins->aux = g;
  ins->fn = x_gep;
  return true;
}

static int x_alloca(Frame *fr, const Ins *ins) {
  int64_t n = fr->s[ins->in[0]].i;
  uint64_t size = (uint64_t)ins->imm.i;
  if (n < 0 || (size && (uint64_t)n > UINT64_MAX / size))
    return interp_error(fr, ins, "alloca of %lld elements", (long long)n);
  char *p = interp_low_stack_alloc(fr, ins, (uint64_t)n * size, ins->a);
  if (!p)
    return EX_ERROR;
  fr->s[ins->out[0]].p = p;
  return EX_NEXT;
}

bool c_llvm_alloca(Comp *c, Op *op, Ins *ins) {
  Attr *et = ir_op_attr(op, "elem_type");
  if (!et || et->kind != ATTR_TYPE || op->noperands != 1)
    return interp_unsupported(c, op, "this form of llvm.alloca");
  Layout l = layout_of(et->type);
  if (!l.size)
    return interp_unsupported(c, op, "an alloca of a type without a memory layout here");
  Attr *al = ir_op_attr(op, "alignment");
  uint64_t align = al && al->kind == ATTR_INT && al->u.i.v > 0 ? (uint64_t)al->u.i.v : l.align;
  if (align > ((uint64_t)1 << 16) || l.size > INT64_MAX)
    return interp_unsupported(c, op, "an alloca of more than 2^63 bytes an element or aligned to more than 64 KiB");
  ins->a = (uint32_t)pow2_at_least(align < 8 ? 8 : align);
  ins->imm.i = (int64_t)l.size;
  ins->fn = x_alloca;
  if (c->fn && c->fn->coroutine) /* the stack unwinds when the ramp returns: the heap, then */
    return interp_coro_alloca(c, op, ins, l.size, ins->a);
  return true;
}

typedef struct Access {
  Leaves *lv;
  const char *loc;
} Access;

static int x_llvm_load(Frame *fr, const Ins *ins) {
  const Access *ac = ins->aux;
  char *p = interp_low_host_mem(fr, ins, fr->s[ins->in[0]].u, ac->lv->size, false, ac->loc);
  if (!p)
    return EX_ERROR;
  leaves_load(ac->lv, p, &fr->s[ins->out[0]]);
  return EX_NEXT;
}

static int x_llvm_store(Frame *fr, const Ins *ins) {
  const Access *ac = ins->aux;
  char *p = interp_low_host_mem(fr, ins, fr->s[ins->in[1]].u, ac->lv->size, true, ac->loc);
  if (!p)
    return EX_ERROR;
  leaves_store(ac->lv, p, &fr->s[ins->in[0]]);
  return EX_NEXT;
}

static bool access(Comp *c, Op *op, Ins *ins, const Type *t, ExecFn fn) {
  Access *ac = ir_alloc(c->in->ctx, sizeof *ac);
  if (!(ac->lv = leaves_of(c, op, t)))
    return false;
  ac->loc = interp_loc(c, op);
  ins->aux = ac;
  ins->fn = fn;
  return true;
}

bool c_llvm_load(Comp *c, Op *op, Ins *ins) {
  return access(c, op, ins, op->results[0].type, x_llvm_load);
}
bool c_llvm_store(Comp *c, Op *op, Ins *ins) {
  return access(c, op, ins, op->operands[0]->type, x_llvm_store);
}

/* llvm.intr.memcpy / memmove (dst, src, len) and memset (dst, byte, len). */
static int x_memcpy(Frame *fr, const Ins *ins) {
  uint64_t n = fr->s[ins->in[2]].u;
  uintptr_t d = fr->s[ins->in[0]].u, s = fr->s[ins->in[1]].u;
  char *dp = interp_low_host_mem(fr, ins, d, n, true, ins->aux),
       *sp = dp ? interp_low_host_mem(fr, ins, s, n, false, ins->aux) : NULL;
  if (n && !sp)
    return EX_ERROR;
  if (n && ins->a && ((d < s && d + n > s) || (s < d && s + n > d)))
    return interp_error(fr, ins, "llvm.intr.memcpy of overlapping ranges");
  if (n)
    memmove(dp, sp, n);
  return EX_NEXT;
}

static int x_memset(Frame *fr, const Ins *ins) {
  uint64_t n = fr->s[ins->in[2]].u;
  char *dp = interp_low_host_mem(fr, ins, fr->s[ins->in[0]].u, n, true, ins->aux);
  if (n && !dp)
    return EX_ERROR;
  if (n)
    memset(dp, (int)(fr->s[ins->in[1]].i & 0xff), n);
  return EX_NEXT;
}

bool c_llvm_memcpy(Comp *c, Op *op, Ins *ins) {
  if (op->noperands < 3)
    return interp_unsupported(c, op, "this form of the intrinsic");
  ins->aux = (void *)interp_loc(c, op);
  ins->a = ir_str_eq(op->name, "llvm.intr.memcpy");
  ins->fn = ir_str_eq(op->name, "llvm.intr.memset") ? x_memset : x_memcpy;
  return true;
}

static int x_stacksave(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].u = fr->in->sp;
  return EX_NEXT;
}

static int x_stackrestore(Frame *fr, const Ins *ins) {
  uint64_t sp = fr->s[ins->in[0]].u;
  if (sp > fr->in->sp)
    return interp_error(fr, ins, "restores a stack pointer that was not saved in this call");
  fr->in->sp = (size_t)sp;
  return EX_NEXT;
}

bool c_stacksave(Comp *c, Op *op, Ins *ins) {
  (void)c;
  ins->fn = ir_str_eq(op->name, "llvm.intr.stacksave") ? x_stacksave : x_stackrestore;
  return true;
}

static int x_nothing(Frame *fr, const Ins *ins) {
  (void)fr, (void)ins;
  return EX_NEXT;
}

/* lifetime markers, assume, ...: no effect on what the program computes */
bool c_llvm_hint(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_nothing;
  return true;
}

/* ---- casts ---------------------------------------------------------------------------------- */

static int x_copy1(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]] = fr->s[ins->in[0]];
  return EX_NEXT;
}

static int x_ptrtoint(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = interp_sext(fr->s[ins->in[0]].u, ins->a);
  return EX_NEXT;
}

static int x_inttoptr(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].u = interp_zext(fr->s[ins->in[0]].i, ins->a);
  return EX_NEXT;
}

bool c_ptr_cast(Comp *c, Op *op, Ins *ins) {
  Type *a = op->operands[0]->type, *b = op->results[0].type;
  if (ir_str_eq(op->name, "llvm.ptrtoint") && a->kind == TY_LLVM_PTR && interp_int_width(b)) {
    ins->a = interp_int_width(b);
    ins->fn = x_ptrtoint;
  } else if (ir_str_eq(op->name, "llvm.inttoptr") && interp_int_width(a) &&
             b->kind == TY_LLVM_PTR) {
    ins->a = interp_int_width(a);
    ins->fn = x_inttoptr;
  } else if (a->kind == TY_LLVM_PTR && b->kind == TY_LLVM_PTR) {
    ins->fn = x_copy1;
  } else {
    return interp_unsupported(c, op, "a cast of vectors of pointers");
  }
  return true;
}

/* ---- arithmetic through arith.c ------------------------------------------------------------- */

static const struct {
  const char *llvm, *arith;
  CompileFn fn;
} as_arith[] = {
    {"llvm.add", "arith.addi", c_int_binary},
    {"llvm.sub", "arith.subi", c_int_binary},
    {"llvm.mul", "arith.muli", c_int_binary},
    {"llvm.sdiv", "arith.divsi", c_int_binary},
    {"llvm.udiv", "arith.divui", c_int_binary},
    {"llvm.srem", "arith.remsi", c_int_binary},
    {"llvm.urem", "arith.remui", c_int_binary},
    {"llvm.and", "arith.andi", c_int_binary},
    {"llvm.or", "arith.ori", c_int_binary},
    {"llvm.xor", "arith.xori", c_int_binary},
    {"llvm.shl", "arith.shli", c_int_binary},
    {"llvm.lshr", "arith.shrui", c_int_binary},
    {"llvm.ashr", "arith.shrsi", c_int_binary},
    {"llvm.intr.smax", "arith.maxsi", c_int_binary},
    {"llvm.intr.smin", "arith.minsi", c_int_binary},
    {"llvm.intr.umax", "arith.maxui", c_int_binary},
    {"llvm.intr.umin", "arith.minui", c_int_binary},
    {"llvm.fadd", "arith.addf", c_float_binary},
    {"llvm.fsub", "arith.subf", c_float_binary},
    {"llvm.fmul", "arith.mulf", c_float_binary},
    {"llvm.fdiv", "arith.divf", c_float_binary},
    {"llvm.frem", "arith.remf", c_float_binary},
    {"llvm.intr.pow", "math.powf", c_float_binary},
    {"llvm.intr.copysign", "math.copysign", c_float_binary},
    {"llvm.intr.maxnum", "arith.maxnumf", c_float_binary},
    {"llvm.intr.minnum", "arith.minnumf", c_float_binary},
    {"llvm.intr.maximum", "arith.maximumf", c_float_binary},
    {"llvm.intr.minimum", "arith.minimumf", c_float_binary},
    {"llvm.fneg", "arith.negf", c_float_unary},
    {"llvm.intr.sqrt", "math.sqrt", c_float_unary},
    {"llvm.intr.fabs", "math.absf", c_float_unary},
    {"llvm.intr.exp", "math.exp", c_float_unary},
    {"llvm.intr.exp2", "math.exp2", c_float_unary},
    {"llvm.intr.log", "math.log", c_float_unary},
    {"llvm.intr.log2", "math.log2", c_float_unary},
    {"llvm.intr.log10", "math.log10", c_float_unary},
    {"llvm.intr.sin", "math.sin", c_float_unary},
    {"llvm.intr.cos", "math.cos", c_float_unary},
    {"llvm.intr.tan", "math.tan", c_float_unary},
    {"llvm.intr.floor", "math.floor", c_float_unary},
    {"llvm.intr.ceil", "math.ceil", c_float_unary},
    {"llvm.intr.trunc", "math.trunc", c_float_unary},
    {"llvm.intr.round", "math.round", c_float_unary},
    {"llvm.intr.rint", "math.roundeven", c_float_unary},
    {"llvm.intr.roundeven", "math.roundeven", c_float_unary},
    {"llvm.intr.tanh", "math.tanh", c_float_unary},
    {"llvm.intr.atan", "math.atan", c_float_unary},
    {"llvm.intr.atan2", "math.atan2", c_float_binary},
    {"llvm.intr.fma", "math.fma", c_fma},
    {"llvm.intr.fmuladd", "math.fma", c_fma},
    {"llvm.icmp", "arith.cmpi", c_cmpi},
    {"llvm.fcmp", "arith.cmpf", c_cmpf},
    {"llvm.select", "arith.select", c_select},
    {"llvm.zext", "arith.extui", c_int_cast},
    {"llvm.sext", "arith.extsi", c_int_cast},
    {"llvm.trunc", "arith.trunci", c_int_cast},
    {"llvm.sitofp", "arith.sitofp", c_num_cast},
    {"llvm.uitofp", "arith.uitofp", c_num_cast},
    {"llvm.fptosi", "arith.fptosi", c_num_cast},
    {"llvm.fptoui", "arith.fptoui", c_num_cast},
    {"llvm.fpext", "arith.extf", c_num_cast},
    {"llvm.fptrunc", "arith.truncf", c_num_cast},
    {"llvm.bitcast", "arith.bitcast", c_num_cast},
};

static int x_icmp_ptr(Frame *fr, const Ins *ins) {
  uint64_t a = fr->s[ins->in[0]].u, b = fr->s[ins->in[1]].u;
  int64_t sa = (int64_t)a, sb = (int64_t)b;
  bool r;
  switch (ins->b) {
  case 0: r = a == b; break;
  case 1: r = a != b; break;
  case 2: r = sa < sb; break;
  case 3: r = sa <= sb; break;
  case 4: r = sa > sb; break;
  case 5: r = sa >= sb; break;
  case 6: r = a < b; break;
  case 7: r = a <= b; break;
  case 8: r = a > b; break;
  default: r = a >= b; break;
  }
  fr->s[ins->out[0]].i = r ? -1 : 0;
  return EX_NEXT;
}

/* An llvm op with an arith or math twin compiles as the twin; ptr comparisons and pointer
 * bitcasts are handled here. */
bool c_llvm_arith(Comp *c, Op *op, Ins *ins) {
  for (uint32_t i = 0; i < op->noperands; i++) {
    Type *t = op->operands[i]->type;
    bool sel_value = ir_str_eq(op->name, "llvm.select") && i > 0;
    if (t->kind == TY_LLVM_PTR && ir_str_eq(op->name, "llvm.icmp")) {
      Attr *pred = ir_op_attr(op, "predicate");
      if (!pred || pred->kind != ATTR_INT || pred->u.i.v < 0 || pred->u.i.v > 9)
        return interp_unsupported(c, op, "this predicate");
      ins->b = (uint32_t)pred->u.i.v;
      ins->fn = x_icmp_ptr;
      return true;
    }
    if (t->kind == TY_LLVM_PTR && ir_str_eq(op->name, "llvm.bitcast"))
      return c_ptr_cast(c, op, ins);
    Type *e =
        t->kind == TY_VECTOR && t->u.sh.rank == 1 && !(t->u.sh.scalable && t->u.sh.scalable[0])
            ? t->u.sh.elem
            : t;
    if (!sel_value && e->kind != TY_INT && e->kind != TY_FLOAT)
      return interp_unsupported(c, op, "an operand of this type");
  }
  for (size_t i = 0; i < sizeof as_arith / sizeof as_arith[0]; i++) {
    if (!ir_str_eq(op->name, as_arith[i].llvm))
      continue;
    Op twin = *op;
    twin.name = ir_intern_cstr(c->in->ctx, as_arith[i].arith);
    return as_arith[i].fn(c, &twin, ins);
  }
  return interp_unsupported(c, op, "this llvm op");
}

/* llvm.intr.ctpop / ctlz / cttz / bswap / bitreverse / abs: ins->a the width */
static int x_bits(Frame *fr, const Ins *ins) {
  uint32_t w = ins->a;
  uint64_t v = interp_zext(fr->s[ins->in[0]].i, w), r = 0;
  switch (ins->b) {
  case 0: r = (uint64_t)__builtin_popcountll(v); break;
  case 1: r = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)w)) : w; break;
  case 2: r = v ? (uint64_t)__builtin_ctzll(v) : w; break;
  case 3:
    for (uint32_t i = 0; i < w / 8; i++)
      r |= ((v >> (8 * i)) & 0xff) << (w - 8 - 8 * i);
    break;
  case 4:
    for (uint32_t i = 0; i < w; i++)
      r |= ((v >> i) & 1) << (w - 1 - i);
    break;
  default: {
    int64_t s = fr->s[ins->in[0]].i;
    r = (uint64_t)(s < 0 ? -(uint64_t)s : (uint64_t)s);
    break;
  }
  }
  fr->s[ins->out[0]].i = interp_sext(r, w);
  return EX_NEXT;
}

bool c_llvm_bits(Comp *c, Op *op, Ins *ins) {
  static const char *const names[] = {"llvm.intr.ctpop", "llvm.intr.ctlz",       "llvm.intr.cttz",
                                      "llvm.intr.bswap", "llvm.intr.bitreverse", "llvm.intr.abs"};
  uint32_t w = interp_int_width(op->operands[0]->type);
  if (!w || op->operands[0]->type->kind != TY_INT)
    return interp_unsupported(c, op, "a vector operand");
  for (uint32_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (ir_str_eq(op->name, names[i])) {
      if (i == 3 && w % 16)
        return interp_unsupported(c, op, "a byte swap of this width");
      ins->a = w;
      ins->b = i;
      ins->fn = x_bits;
      return true;
    }
  }
  return interp_unsupported(c, op, "this intrinsic");
}

/* llvm.intr.is.fpclass: is the float in one of the classes of the mask (bit 0 signaling NaN, 1
 * quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf). */
static int x_fpclass(Frame *fr, const Ins *ins) {
  const Slot *v = &fr->s[ins->in[0]];
  bool f64 = ins->b, neg, quiet = true;
  int cls;
  if (f64) {
    uint64_t bits;
    memcpy(&bits, &v->f, 8);
    cls = fpclassify(v->f), neg = signbit(v->f), quiet = (bits >> 51) & 1;
  } else {
    uint32_t bits;
    memcpy(&bits, &v->f32, 4);
    cls = fpclassify(v->f32), neg = signbit(v->f32), quiet = (bits >> 22) & 1;
  }
  int bit;
  switch (cls) {
  case FP_NAN: bit = quiet ? 1 : 0; break;
  case FP_INFINITE: bit = neg ? 2 : 9; break;
  case FP_NORMAL: bit = neg ? 3 : 8; break;
  case FP_SUBNORMAL: bit = neg ? 4 : 7; break;
  default: bit = neg ? 5 : 6; break;
  }
  fr->s[ins->out[0]].i = (ins->a >> bit) & 1 ? -1 : 0;
  return EX_NEXT;
}

bool c_fpclass(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  Attr *bit = ir_op_attr(op, "bit");
  if (t->kind != TY_FLOAT || (t->u.f != F_F32 && t->u.f != F_F64) || !bit || bit->kind != ATTR_INT)
    return interp_unsupported(c, op, "this form of llvm.intr.is.fpclass");
  ins->a = (uint32_t)bit->u.i.v;
  ins->b = t->u.f == F_F64;
  ins->fn = x_fpclass;
  return true;
}

/* llvm.intr.powi(x, n): x to an integer power. */
static int x_powi(Frame *fr, const Ins *ins) {
  const Slot *x = &fr->s[ins->in[0]];
  double n = (double)fr->s[ins->in[1]].i;
  Slot *out = &fr->s[ins->out[0]];
  if (ins->b) {
    out->f = pow(x->f, n);
  } else {
    out->u = 0;
    out->f32 = (float)pow(x->f32, n);
  }
  return EX_NEXT;
}

bool c_powi(Comp *c, Op *op, Ins *ins) {
  Type *t = op->operands[0]->type;
  if (t->kind != TY_FLOAT || (t->u.f != F_F32 && t->u.f != F_F64) ||
      op->operands[1]->type->kind != TY_INT)
    return interp_unsupported(c, op, "this form of llvm.intr.powi");
  ins->b = t->u.f == F_F64;
  ins->fn = x_powi;
  return true;
}

/* ---- vectors (1-D: a vector<NxT> value is N words) ------------------------------------------ */

static bool vector1(const Type *t) {
  return t->kind == TY_VECTOR && t->u.sh.rank == 1 && !(t->u.sh.scalable && t->u.sh.scalable[0]);
}

static int x_extractelement(Frame *fr, const Ins *ins) {
  uint64_t i = interp_zext(fr->s[ins->in[1]].i, ins->b);
  if (i >= ins->a)
    return interp_error(fr, ins, "extracts element %" PRIu64 " of a %u-element vector", i, ins->a);
  fr->s[ins->out[0]] = fr->s[ins->in[0] + (uint32_t)i];
  return EX_NEXT;
}

static int x_insertelement(Frame *fr, const Ins *ins) {
  uint64_t i = interp_zext(fr->s[ins->in[2]].i, ins->b);
  if (i >= ins->a)
    return interp_error(fr, ins, "inserts element %" PRIu64 " of a %u-element vector", i, ins->a);
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[0]], ins->a);
  fr->s[ins->out[0] + (uint32_t)i] = fr->s[ins->in[1]];
  return EX_NEXT;
}

bool c_llvm_element(Comp *c, Op *op, Ins *ins) {
  Type *v = op->operands[0]->type;
  Type *it = op->operands[op->noperands - 1]->type;
  if (!vector1(v) || !interp_int_width(it))
    return interp_unsupported(c, op, "this form of the element op");
  ins->a = (uint32_t)v->u.sh.shape[0];
  ins->b = interp_int_width(it);
  ins->fn = ir_str_eq(op->name, "llvm.extractelement") ? x_extractelement : x_insertelement;
  return true;
}

/* mask: the lanes of (v1, v2) each result lane takes; -1 (poison) gives 0 */
static int x_shufflevector(Frame *fr, const Ins *ins) {
  const int64_t *mask = ins->aux;
  Slot tmp[256];
  for (uint32_t i = 0; i < ins->b; i++) {
    int64_t m = mask[i];
    tmp[i].u = 0;
    if (m >= 0)
      tmp[i] = (uint64_t)m < ins->a ? fr->s[ins->in[0] + (uint32_t)m]
                                    : fr->s[ins->in[1] + (uint32_t)(m - ins->a)];
  }
  interp_copy(&fr->s[ins->out[0]], tmp, ins->b);
  return EX_NEXT;
}

bool c_shufflevector(Comp *c, Op *op, Ins *ins) {
  Attr *mask = ir_op_attr(op, "mask");
  Type *v = op->operands[0]->type, *r = op->results[0].type;
  if (!vector1(v) || !vector1(r) || !mask || mask->kind != ATTR_DENSE_ARRAY ||
      r->u.sh.shape[0] > 256 || mask->u.darr.n != (uint32_t)r->u.sh.shape[0])
    return interp_unsupported(c, op, "this form of llvm.shufflevector");
  ins->a = (uint32_t)v->u.sh.shape[0];
  ins->b = (uint32_t)r->u.sh.shape[0];
  for (uint32_t i = 0; i < ins->b; i++)
    if (mask->u.darr.ivals[i] >= 2 * (int64_t)ins->a)
      return interp_unsupported(c, op, "a shuffle mask past both vectors");
  ins->aux = mask->u.darr.ivals;
  ins->fn = x_shufflevector;
  return true;
}

/* llvm.intr.vector.reduce.*: ins->b the reduction, ins->a the lanes, imm.i the element width
 * (integers) or float kind; fadd and fmul start from an extra first operand. */
enum {
  RD_ADD,
  RD_MUL,
  RD_AND,
  RD_OR,
  RD_XOR,
  RD_SMAX,
  RD_SMIN,
  RD_UMAX,
  RD_UMIN,
  RD_FADD,
  RD_FMUL,
  RD_FMAX,
  RD_FMIN,
  RD_FMAXIMUM,
  RD_FMINIMUM
};

static int x_reduce(Frame *fr, const Ins *ins) {
  uint32_t n = ins->a, w = (uint32_t)ins->imm.i;
  if (ins->b >= RD_FADD) {
    bool f64 = w == F_F64;
    const Slot *v = &fr->s[ins->in[ins->nin - 1]];
    double acc = ins->b == RD_FADD || ins->b == RD_FMUL
                     ? (f64 ? fr->s[ins->in[0]].f : fr->s[ins->in[0]].f32)
                     : (f64 ? v[0].f : v[0].f32);
    for (uint32_t i = ins->b == RD_FADD || ins->b == RD_FMUL ? 0 : 1; i < n; i++) {
      double x = f64 ? v[i].f : v[i].f32;
      switch (ins->b) {
      case RD_FADD: acc += x; break;
      case RD_FMUL: acc *= x; break;
      case RD_FMAX: acc = fmax(acc, x); break;
      case RD_FMIN: acc = fmin(acc, x); break;
      case RD_FMAXIMUM:
        acc = isnan(acc) || isnan(x) ? NAN : (acc > x || (acc == x && !signbit(acc))) ? acc : x;
        break;
      default:
        acc = isnan(acc) || isnan(x) ? NAN : (acc < x || (acc == x && signbit(acc))) ? acc : x;
        break;
      }
      if (!f64)
        acc = (float)acc;
    }
    Slot *out = &fr->s[ins->out[0]];
    if (f64) {
      out->f = acc;
    } else {
      out->u = 0;
      out->f32 = (float)acc;
    }
    return EX_NEXT;
  }
  const Slot *v = &fr->s[ins->in[0]];
  int64_t acc = v[0].i;
  for (uint32_t i = 1; i < n; i++) {
    int64_t x = v[i].i;
    uint64_t ua = interp_zext(acc, w), ux = interp_zext(x, w);
    switch (ins->b) {
    case RD_ADD: acc = (int64_t)((uint64_t)acc + (uint64_t)x); break;
    case RD_MUL: acc = (int64_t)((uint64_t)acc * (uint64_t)x); break;
    case RD_AND: acc &= x; break;
    case RD_OR: acc |= x; break;
    case RD_XOR: acc ^= x; break;
    case RD_SMAX: acc = x > acc ? x : acc; break;
    case RD_SMIN: acc = x < acc ? x : acc; break;
    case RD_UMAX: acc = ux > ua ? x : acc; break;
    default: acc = ux < ua ? x : acc; break;
    }
    acc = interp_sext((uint64_t)acc, w);
  }
  fr->s[ins->out[0]].i = acc;
  return EX_NEXT;
}

bool c_vector_reduce(Comp *c, Op *op, Ins *ins) {
  static const char *const names[] = {"add",  "mul",  "and",  "or",       "xor",
                                      "smax", "smin", "umax", "umin",     "fadd",
                                      "fmul", "fmax", "fmin", "fmaximum", "fminimum"};
  const char *kind = op->name.s + strlen("llvm.intr.vector.reduce.");
  Type *v = op->operands[op->noperands - 1]->type;
  if (!vector1(v))
    return interp_unsupported(c, op, "a reduction of this type");
  Type *e = v->u.sh.elem;
  for (uint32_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strlen(names[i]) != op->name.len - (size_t)(kind - op->name.s) ||
        strncmp(kind, names[i], strlen(names[i])))
      continue;
    bool fl = i >= RD_FADD;
    if (fl ? e->kind != TY_FLOAT || (e->u.f != F_F32 && e->u.f != F_F64) : !interp_int_width(e))
      return interp_unsupported(c, op, "a reduction of this element type");
    if ((i == RD_FADD || i == RD_FMUL) != (op->noperands == 2))
      return interp_unsupported(c, op, "this form of the reduction");
    ins->a = (uint32_t)v->u.sh.shape[0];
    ins->b = i;
    ins->imm.i = fl ? (int64_t)e->u.f : (int64_t)interp_int_width(e);
    ins->fn = x_reduce;
    return true;
  }
  return interp_unsupported(c, op, "this reduction");
}

/* ---- control flow --------------------------------------------------------------------------- */

typedef struct Arm {
  int64_t value;
  int32_t target;
  uint32_t first, n; /* operands moved to the target's arguments */
  uint32_t *dst, *words;
  uint32_t total;
} Arm;

typedef struct Switch {
  uint32_t width, narms; /* arms[0] is the default */
  Arm *arms;
} Switch;

static void arm_move(Frame *fr, const Ins *ins, const Arm *a) {
  Slot small[64];
  Slot *tmp = a->total <= 64 ? small : malloc(a->total * sizeof(Slot));
  if (!tmp)
    abort();
  uint32_t w = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    interp_copy(&tmp[w], &fr->s[ins->in[a->first + i]], a->words[i]);
    w += a->words[i];
  }
  w = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    interp_copy(&fr->s[a->dst[i]], &tmp[w], a->words[i]);
    w += a->words[i];
  }
  if (tmp != small)
    free(tmp);
}

static int x_switch(Frame *fr, const Ins *ins) {
  const Switch *sw = ins->aux;
  int64_t v = interp_sext(fr->s[ins->in[0]].u, sw->width);
  const Arm *a = &sw->arms[0];
  for (uint32_t i = 1; i < sw->narms; i++)
    if (sw->arms[i].value == v) {
      a = &sw->arms[i];
      break;
    }
  arm_move(fr, ins, a);
  fr->jump = a->target;
  return EX_DONE;
}

static bool arm_init(Comp *c, Op *op, Arm *a, Block *b, uint32_t first, uint32_t n) {
  if (n != b->nargs)
    return interp_unsupported(c, op, "a successor with a different number of arguments");
  a->target = (int32_t)b->id;
  a->first = first;
  a->n = n;
  a->dst = ir_alloc(c->in->ctx, (n + 1) * sizeof *a->dst);
  a->words = ir_alloc(c->in->ctx, (n + 1) * sizeof *a->words);
  for (uint32_t i = 0; i < n; i++) {
    a->dst[i] = b->args[i].id;
    a->total += a->words[i] = interp_words(b->args[i].type);
  }
  return true;
}

/* The integers of a dense attribute: its parsed values, or (for an attribute that kept only its
 * text) those read back from "dense<[1, 4]>". */
static bool dense_ints(IrCtx *ctx, const Attr *a, uint32_t n, int64_t **out) {
  if (!a || a->kind != ATTR_DENSE)
    return false;
  if (a->u.dense.ivals && (a->u.dense.n >= n || a->u.dense.splat)) {
    *out = ir_alloc(ctx, (n + 1) * sizeof **out);
    for (uint32_t i = 0; i < n; i++)
      (*out)[i] = a->u.dense.ivals[a->u.dense.splat ? 0 : i];
    return true;
  }
  const char *p = a->u.dense.text.s, *end = p + a->u.dense.text.len;
  *out = ir_alloc(ctx, (n + 1) * sizeof **out);
  uint32_t k = 0;
  while (p < end && *p != '>' && k < n) {
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      char *e;
      (*out)[k++] = strtoll(p, &e, 10);
      p = e;
    } else {
      p++;
    }
  }
  return k == n;
}

bool c_llvm_switch(Comp *c, Op *op, Ins *ins) {
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  Attr *cseg = ir_op_attr(op, "case_operand_segments");
  uint32_t ncases = op->nsuccs ? op->nsuccs - 1 : 0;
  int64_t *vals = NULL;
  if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 3 || !op->nsuccs ||
      (ncases && (!dense_ints(c->in->ctx, ir_op_attr(op, "case_values"), ncases, &vals) || !cseg ||
                  cseg->kind != ATTR_DENSE_ARRAY || cseg->u.darr.n != ncases)))
    return interp_unsupported(c, op, "this form of llvm.switch");
  Switch *sw = ir_alloc(c->in->ctx, sizeof *sw);
  sw->width = interp_int_width(op->operands[0]->type);
  sw->narms = 1 + ncases;
  sw->arms = ir_alloc(c->in->ctx, sw->narms * sizeof *sw->arms);
  uint32_t first = 1;
  if (!arm_init(c, op, &sw->arms[0], op->succs[0], first, (uint32_t)seg->u.darr.ivals[1]))
    return false;
  first += (uint32_t)seg->u.darr.ivals[1];
  for (uint32_t i = 0; i < ncases; i++) {
    Arm *a = &sw->arms[1 + i];
    a->value = interp_sext((uint64_t)vals[i], sw->width);
    if (!arm_init(c, op, a, op->succs[1 + i], first, (uint32_t)cseg->u.darr.ivals[i]))
      return false;
    first += (uint32_t)cseg->u.darr.ivals[i];
  }
  ins->aux = sw;
  ins->fn = x_switch;
  return true;
}

static int x_unreachable(Frame *fr, const Ins *ins) {
  return interp_error(fr, ins, "reached llvm.unreachable");
}

bool c_unreachable(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_unreachable;
  return true;
}
