/* verify_ops.c - the checks of op semantics MLIR's verifiers make for memref, arith, scf and
 * func ops (llvm ops: verify_llvm.c; vector ops: verify_vector.c) that the interpreter runs: index counts against memref ranks, dynamic
 * sizes against `?` dimensions, positions, permutations and slices against vector shapes, and
 * types that must agree. Each is one that, left out, would have the interpreter read the wrong
 * memory or the wrong value (or print what mlir-opt rejects). gpu.* ops, gpu.alloc's sizes
 * included, are verify_gpu.c's. ir_verify (verify.c) calls ir_verify_ops on every known
 * op; the checks table below maps op names to their check, and each check reports in mlir-opt's
 * words, on the op, and returns at its first problem as MLIR's verifiers do. */
#include "ir/internal.h"
#include "ir/verify_check.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>



static uint32_t dynamic_dims(const Type *t) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    n += t->u.sh.shape[i] == IR_DYNAMIC;
  return n;
}


uint32_t ir_bit_width(const Type *t) {
  switch (t->kind) {
  case TY_INT: return t->u.i.width;
  case TY_FLOAT: return ir_float_width(t->u.f);
  default: return 0;
  }
}

/* ---- memref -------------------------------------------------------------------------------- */


/* How many comma-separated entries the list at q (after its opening bracket) has before the
 * closing bracket at its depth; *q ends past it. */
static uint32_t list_entries(const char **q, const char *end, char close) {
  uint32_t n = 0, depth = 0;
  bool any = false;
  for (; *q < end; (*q)++) {
    char ch = **q;
    if (ch == '(' || ch == '[')
      depth++;
    else if ((ch == ')' || ch == ']') && depth)
      depth--;
    else if (ch == close && !depth) {
      (*q)++;
      return n + any;
    } else if (ch == ',' && !depth)
      n++;
    else if (ch != ' ')
      any = true;
  }
  return n + any;
}

bool ir_map_shape(Str text, MapShape *m) {
  const char *q = text.s, *end = text.s + text.len;
  while (q < end && *q != '(')
    q++;
  if (q == end)
    return false;
  q++;
  m->ndims = list_entries(&q, end, ')');
  m->nsyms = 0;
  if (q < end && *q == '[') {
    q++;
    m->nsyms = list_entries(&q, end, ']');
  }
  while (q < end && *q != '(')
    q++;
  if (q == end)
    return false;
  q++;
  m->nres = 0;
  while (q < end && *q != ')') {
    while (q < end && *q == ' ')
      q++;
    const char *start = q;
    uint32_t depth = 0;
    for (; q < end && (depth || (*q != ',' && *q != ')')); q++)
      if (*q == '(')
        depth++;
      else if (*q == ')')
        depth--;
    const char *stop = q;
    while (stop > start && stop[-1] == ' ')
      stop--;
    if (stop == start || m->nres == MAX_RANK)
      return false;
    int64_t kind = MAP_OTHER;
    if (stop - start == 1 && *start == '0') {
      kind = MAP_ZERO;
    } else if (*start == 'd' && stop - start > 1 && stop - start < 8) {
      int64_t d = 0;
      const char *k = start + 1;
      while (k < stop && *k >= '0' && *k <= '9')
        d = 10 * d + (*k++ - '0');
      if (k == stop)
        kind = d;
    }
    m->res[m->nres++] = kind;
    if (q < end && *q == ',')
      q++;
  }
  return q < end;
}


/* The rank of operand `base` when it is a ranked memref or tensor that takes other than nidx
 * indices, else -1. */
int ir_wrong_indices(Check *c, uint32_t base, int64_t nidx) {
  if (base >= c->op->noperands || nidx < 0)
    return -1;
  int rank = shaped_rank(c->op->operands[base]->type);
  return rank >= 0 && nidx != rank ? rank : -1;
}

static void memref_load(Check *c) {
  int64_t n = (int64_t)c->op->noperands - 1;
  int rank = ir_wrong_indices(c, 0, n);
  if (rank >= 0)
    op_fail(c, "incorrect number of indices for load, expected %d but got %lld", rank, (long long)n);
  else if (n >= 0 && c->op->nresults == 1 && c->op->operands[0]->type->kind == TY_MEMREF &&
           c->op->results[0].type != c->op->operands[0]->type->u.sh.elem)
    op_fail(c, "failed to verify that result type matches element type of 'memref'");
}

static void memref_store(Check *c) {
  if (ir_wrong_indices(c, 1, (int64_t)c->op->noperands - 2) >= 0)
    op_fail(c, "store index operand count not equal to memref rank");
  else if (c->op->noperands >= 2 && c->op->operands[1]->type->kind == TY_MEMREF &&
           c->op->operands[0]->type != c->op->operands[1]->type->u.sh.elem)
    op_fail(c, "failed to verify that type of 'value' matches element type of 'memref'");
}

static void memref_atomic_rmw(Check *c) {
  if (c->op->noperands >= 2 && c->op->operands[1]->type->kind == TY_MEMREF &&
      c->op->operands[0]->type != c->op->operands[1]->type->u.sh.elem)
    op_fail(c, "failed to verify that value type matches element type of memref");
  else if (ir_wrong_indices(c, 1, (int64_t)c->op->noperands - 2) >= 0)
    op_fail(c, "expects the number of subscripts to be equal to memref rank");
}

/* The `?` dimensions of the memref result take one size operand each. */
static void dynamic_sizes(Check *c, int64_t given) {
  const Type *t = c->op->nresults ? c->op->results[0].type : NULL;
  if (!t || t->kind != TY_MEMREF || given < 0)
    return;
  uint32_t want = dynamic_dims(t);
  if (given != want)
    op_fail(c, "incorrect number of dynamic sizes, has %lld, expected %u", (long long)given, want);
}

static void memref_alloc(Check *c) {
  int64_t seg[2];
  Attr *align = ir_op_attr(c->op, "alignment");
  if (align && !ir_alignment_ok(align)) {
    op_fail(c, IR_ALIGNMENT_CONSTRAINT);
    return;
  }
  if (!ir_op_segments(c->op, seg, 2))
    return;
  dynamic_sizes(c, seg[0]);
  const Type *t = c->op->nresults ? c->op->results[0].type : NULL;
  if (c->errors || !t || t->kind != TY_MEMREF)
    return;
  /* a layout takes one operand per symbol of its map; the identity none */
  MapShape m = {0};
  const Attr *layout = t->u.sh.layout;
  if (layout && layout->kind == ATTR_AFFINE_MAP && !ir_map_shape(layout->u.str, &m))
    return;
  if (layout && layout->kind == ATTR_STRIDED) { /* its map has a symbol per `?` */
    m.nsyms = layout->u.strided.has_offset && layout->u.strided.offset == IR_DYNAMIC;
    for (uint32_t i = 0; i < layout->u.strided.n; i++)
      m.nsyms += layout->u.strided.strides[i] == IR_DYNAMIC;
  }
  if (seg[1] != m.nsyms)
    op_fail(c, "symbol operand count does not equal memref symbol count: expected %u, got %lld", m.nsyms,
            (long long)seg[1]);
}

/* memref.dim of a memref of rank 1 or more, or unranked, at an index, giving an index */
static void memref_dim(Check *c) {
  if (c->op->noperands != 2 || c->op->nresults != 1)
    return;
  const Type *src = c->op->operands[0]->type;
  if (!(src->kind == TY_UNRANKED_MEMREF || (src->kind == TY_MEMREF && (src->u.sh.unranked || src->u.sh.rank))))
    op_fail(c, "operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values, but got '%s'",
            ty(c, src));
  else if (c->op->operands[1]->type->kind != TY_INDEX)
    op_fail(c, "operand #1 must be index, but got '%s'", ty(c, c->op->operands[1]->type));
  else if (c->op->results[0].type->kind != TY_INDEX)
    op_fail(c, "result #0 must be index, but got '%s'", ty(c, c->op->results[0].type));
}

/* memref.global: a static memref type; an initial value that is unit (uninitialized) or elements
 * of the memref's element type and shape; a power-of-two alignment. */
static void memref_global(Check *c) {
  Attr *type = ir_op_attr(c->op, "type"), *init = ir_op_attr(c->op, "initial_value");
  Attr *align = ir_op_attr(c->op, "alignment");
  if (!type)
    return;
  if (type->kind != ATTR_TYPE || type->type->kind != TY_MEMREF || type->type->u.sh.unranked) {
    op_fail(c, "attribute 'type' failed to satisfy constraint: memref type attribute");
    return;
  }
  if (align && !ir_alignment_ok(align)) {
    op_fail(c, IR_ALIGNMENT_CONSTRAINT);
    return;
  }
  const Type *t = type->type;
  if (dynamic_dims(t)) {
    op_fail(c, "type should be static shaped memref, but got '%s'", ty(c, t));
    return;
  }
  if (!init || init->kind == ATTR_UNIT)
    return;
  if (init->kind != ATTR_DENSE && init->kind != ATTR_DENSE_RESOURCE && init->kind != ATTR_SPARSE) {
    op_fail(c, "initial value should be a unit or elements attribute, but got %s", ir_attr_str(c->ctx, init));
    return;
  }
  const Type *it = init->type;
  if (!it || it->kind != TY_TENSOR || it->u.sh.unranked)
    return; /* mlir-opt 22 takes only tensor-typed elements here (a vector one crashes it) */
  if (it->u.sh.elem != t->u.sh.elem) {
    op_fail(c, "initial value element expected to be of type '%s', but was of type '%s'", ty(c, t->u.sh.elem),
            ty(c, it->u.sh.elem));
    return;
  }
  bool same = it->u.sh.rank == t->u.sh.rank;
  for (uint32_t i = 0; same && i < t->u.sh.rank; i++)
    same = it->u.sh.shape[i] == t->u.sh.shape[i];
  if (same)
    return;
  char want[512], got[512];
  size_t kw = 0, kg = 0;
  want[0] = got[0] = 0;
  for (uint32_t i = 0; i < t->u.sh.rank && kw < sizeof want; i++)
    kw += (size_t)snprintf(want + kw, sizeof want - kw, "%s%lld", i ? ", " : "", (long long)t->u.sh.shape[i]);
  for (uint32_t i = 0; i < it->u.sh.rank && kg < sizeof got; i++)
    kg += (size_t)snprintf(got + kg, sizeof got - kg, "%s%lld", i ? ", " : "", (long long)it->u.sh.shape[i]);
  op_fail(c, "initial value shape expected to be %s but was %s", want, got);
}

static void memref_realloc(Check *c) {
  if (c->op->noperands < 1 || c->op->nresults != 1)
    return;
  const Type *src = c->op->operands[0]->type, *res = c->op->results[0].type;
  if (src->kind != TY_MEMREF || res->kind != TY_MEMREF)
    return;
  if (src->u.sh.elem != res->u.sh.elem)
    bare_fail(c, "different element types specified for source memref type '%s' and result memref type '%s'",
              ty(c, src), ty(c, res));
  else if (res->u.sh.rank == 1 && res->u.sh.shape[0] == IR_DYNAMIC && c->op->noperands < 2)
    bare_fail(c, "missing dimension operand for result type '%s'", ty(c, res));
}

static void memref_view(Check *c) { dynamic_sizes(c, (int64_t)c->op->noperands - 2); }

/* "dynamic" or the number, for messages. */
static const char *num(char *buf, size_t n, int64_t v) {
  if (v == IR_DYNAMIC)
    return "dynamic";
  snprintf(buf, n, "%lld", (long long)v);
  return buf;
}

/* memref.reinterpret_cast: the result type's static sizes, offset and strides are the op's. */
static void reinterpret_result(Check *c, const Type *res, int64_t off, const int64_t *sz, const int64_t *st) {
  char b[32];
  uint32_t rank = res->u.sh.rank;
  for (uint32_t i = 0; i < rank; i++)
    if (res->u.sh.shape[i] != IR_DYNAMIC && res->u.sh.shape[i] != sz[i]) {
      bare_fail(c, "expected result type with size = %s instead of %lld in dim = %u", num(b, sizeof b, sz[i]),
                (long long)res->u.sh.shape[i], i);
      return;
    }
  int64_t strides[MAX_RANK], offset = 0;
  const Attr *layout = res->u.sh.layout;
  if (layout && layout->kind == ATTR_STRIDED && layout->u.strided.n == rank) {
    memcpy(strides, layout->u.strided.strides, rank * sizeof *strides);
    offset = layout->u.strided.has_offset ? layout->u.strided.offset : 0;
  } else if (!layout) {
    int64_t acc = 1;
    for (uint32_t i = rank; i-- > 0;) {
      strides[i] = acc;
      acc = acc == IR_DYNAMIC || res->u.sh.shape[i] == IR_DYNAMIC ? IR_DYNAMIC : acc * res->u.sh.shape[i];
    }
  } else {
    return;
  }
  if (offset != IR_DYNAMIC && offset != off) {
    bare_fail(c, "expected result type with offset = %s instead of %lld", num(b, sizeof b, off), (long long)offset);
    return;
  }
  for (uint32_t i = 0; i < rank; i++)
    if (strides[i] != IR_DYNAMIC && strides[i] != st[i]) {
      bare_fail(c, "expected result type with stride = %s instead of %lld in dim = %u", num(b, sizeof b, st[i]),
                (long long)strides[i], i);
      return;
    }
}

/* A ranked memref type's offset and strides (IR_DYNAMIC where unknown): its strided layout, or
 * the identity's; false for other layouts. */
static bool layout_of(const Type *t, int64_t *offset, int64_t *strides) {
  uint32_t rank = t->u.sh.rank;
  const Attr *layout = t->u.sh.layout;
  if (layout && layout->kind == ATTR_STRIDED && layout->u.strided.n == rank) {
    memcpy(strides, layout->u.strided.strides, rank * sizeof *strides);
    *offset = layout->u.strided.has_offset ? layout->u.strided.offset : 0;
    return true;
  }
  if (layout)
    return false;
  int64_t acc = 1;
  for (uint32_t i = rank; i-- > 0;) {
    strides[i] = acc;
    if (acc == IR_DYNAMIC || t->u.sh.shape[i] == IR_DYNAMIC || __builtin_mul_overflow(acc, t->u.sh.shape[i], &acc))
      acc = IR_DYNAMIC;
  }
  *offset = 0;
  return true;
}

/* MLIR's SaturatedInteger: `?` (IR_DYNAMIC) absorbs all but a product with 0; *overflow is set
 * where the static result does not fit. */
static int64_t sat_mul(int64_t a, int64_t b, bool *overflow) {
  int64_t r;
  if (a == 0 || b == 0)
    return 0;
  if (a == IR_DYNAMIC || b == IR_DYNAMIC)
    return IR_DYNAMIC;
  *overflow |= __builtin_mul_overflow(a, b, &r);
  return r;
}

static int64_t sat_add(int64_t a, int64_t b, bool *overflow) {
  int64_t r;
  if (a == IR_DYNAMIC || b == IR_DYNAMIC)
    return IR_DYNAMIC;
  *overflow |= __builtin_add_overflow(a, b, &r);
  return r;
}

/* memref.subview without rank reduction: the result's layout is the source's offset moved by the
 * offsets and its strides scaled by the strides, as MLIR infers it (a `?` anywhere makes the
 * sum or product `?`), exactly: a `?` in the result matches only a `?`. An offset or stride that
 * overflows matches nothing. */
static void subview_layout(Check *c, const Type *src, const Type *res, const int64_t *off, const int64_t *sz,
                           const int64_t *st, uint32_t n) {
  int64_t soff, sst[MAX_RANK], roff, rst[MAX_RANK], woff, wst[MAX_RANK];
  if (src->kind != TY_MEMREF || src->u.sh.rank != n || res->u.sh.rank != n || !layout_of(src, &soff, sst) ||
      !layout_of(res, &roff, rst))
    return;
  bool overflow = false, differ = false;
  woff = soff;
  for (uint32_t i = 0; i < n; i++) {
    woff = sat_add(woff, sat_mul(off[i], sst[i], &overflow), &overflow);
    wst[i] = sat_mul(sst[i], st[i], &overflow);
  }
  for (uint32_t i = 0; i < n; i++)
    differ |= rst[i] != wst[i];
  differ |= roff != woff;
  if (!overflow && !differ)
    return;
  if (overflow) {
    for (uint32_t i = 0; i < n; i++)
      wst[i] = IR_DYNAMIC;
    woff = IR_DYNAMIC;
  }
  /* the type MLIR infers: the static sizes, the source's element type and memory space */
  Attr layout = {.kind = ATTR_STRIDED};
  layout.u.strided.strides = wst;
  layout.u.strided.n = n;
  layout.u.strided.offset = woff;
  layout.u.strided.has_offset = woff != 0;
  Type want = *src;
  want.u.sh.shape = (int64_t *)sz;
  want.u.sh.layout = &layout;
  bare_fail(c, "expected result type to be '%s' or a rank-reduced version. (mismatch of result layout), but got '%s'",
            ty(c, &want), ty(c, res));
}

/* A static offset or size below zero (other than the `?` marker), reported. */
static bool negative(Check *c, const char *what, const int64_t *vals, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (vals[i] < 0 && vals[i] != IR_DYNAMIC) {
      bare_fail(c, "expected %s to be non-negative, but got %lld", what, (long long)vals[i]);
      return true;
    }
  return false;
}

/* subview and reinterpret_cast: one offset, size and stride per result dimension (MLIR's
 * OffsetSizeAndStrideOpInterface). */
static void offsets_sizes_strides(Check *c) {
  int64_t off[MAX_RANK], sz[MAX_RANK], st[MAX_RANK];
  uint32_t noff, nsz, nst;
  if (!int_list(ir_op_attr(c->op, "static_offsets"), off, &noff) ||
      !int_list(ir_op_attr(c->op, "static_sizes"), sz, &nsz) ||
      !int_list(ir_op_attr(c->op, "static_strides"), st, &nst))
    return;
  /* a `?` (IR_DYNAMIC) per operand in each list, checked before the lists' lengths and in
   * mlir-opt's order: sizes, strides, offsets */
  int64_t seg[4];
  if (ir_op_segments(c->op, seg, 4)) {
    static const char *const names[3] = {"offsets", "sizes", "strides"};
    const int64_t *lists[3] = {off, sz, st};
    const uint32_t lens[3] = {noff, nsz, nst};
    for (int k = 1; k < 4; k++) {
      int l = k % 3;
      uint32_t dyn = 0;
      for (uint32_t i = 0; i < lens[l]; i++)
        dyn += lists[l][i] == IR_DYNAMIC;
      if (seg[1 + l] != (int64_t)dyn) {
        bare_fail(c, "expected the number of '%s' to match the number of dynamic entries in 'static_%s' (%lld vs %u)",
                  names[l], names[l], (long long)seg[1 + l], dyn);
        return;
      }
    }
  }
  bool subview = c->op->name.s[7] == 's';
  if (noff != nsz && (subview || noff != 1)) { /* reinterpret_cast: one offset, or one per size */
    bare_fail(c, "expected mixed offsets rank to match mixed sizes rank (%u vs %u) so the rank of the result type is well-formed.",
              noff, nsz);
  } else if (nsz != nst) {
    bare_fail(c, "expected mixed sizes rank to match mixed strides rank (%u vs %u) so the rank of the result type is well-formed.",
              nsz, nst);
  } else if (subview && c->op->noperands && shaped_rank(c->op->operands[0]->type) >= 0 &&
             (uint32_t)shaped_rank(c->op->operands[0]->type) != noff) {
    bare_fail(c, "expected %d offset values, got %u", shaped_rank(c->op->operands[0]->type), noff);
  } else if (!subview && c->op->nresults && shaped_rank(c->op->results[0].type) >= 0 &&
             (uint32_t)shaped_rank(c->op->results[0].type) != nsz) {
    bare_fail(c, "expected %d size values, got %u", shaped_rank(c->op->results[0].type), nsz);
  } else if (negative(c, "offsets", off, noff) || negative(c, "sizes", sz, nsz)) {
    /* reported */
  } else if (!subview && c->op->nresults) {
    if (shaped_rank(c->op->results[0].type) >= 0 && noff == 1)
      reinterpret_result(c, c->op->results[0].type, off[0], sz, st);
  } else if (subview && c->op->nresults) {
    const Type *res = c->op->results[0].type;
    int rank = shaped_rank(res);
    bool differ = false;
    for (uint32_t i = 0; rank == (int)nsz && i < nsz; i++)
      differ |= sz[i] != IR_DYNAMIC && res->u.sh.shape[i] != IR_DYNAMIC && sz[i] != res->u.sh.shape[i];
    if (differ) {
      /* the expected type's layout is the source's strides scaled, which only MLIR spells out */
      Type want = *res;
      int64_t shape[MAX_RANK];
      memcpy(shape, sz, nsz * sizeof *shape);
      want.u.sh.shape = shape;
      bare_fail(c, "expected result type to be '%s' or a rank-reduced version. (mismatch of result sizes), but got '%s'",
                ty(c, ir_type_intern(c->ctx, &want)), ty(c, res));
    } else if (rank == (int)nsz) {
      subview_layout(c, c->op->operands[0]->type, res, off, sz, st, nsz);
    }
  }
}

bool ir_shapes_compatible(const Type *a, const Type *b) {
  if (a->u.sh.rank != b->u.sh.rank)
    return false;
  for (uint32_t i = 0; i < a->u.sh.rank; i++)
    if (a->u.sh.shape[i] != IR_DYNAMIC && b->u.sh.shape[i] != IR_DYNAMIC && a->u.sh.shape[i] != b->u.sh.shape[i])
      return false;
  return true;
}


static void memref_copy(Check *c) {
  if (c->op->noperands != 2)
    return;
  const Type *a = c->op->operands[0]->type, *b = c->op->operands[1]->type;
  if (elem_of(a) != elem_of(b))
    op_fail(c, "requires the same element type for all operands");
  else if (shaped_rank(a) >= 0 && shaped_rank(b) >= 0 && !ir_shapes_compatible(a, b))
    op_fail(c, "requires the same shape for all operands");
}

static void memref_cast(Check *c) {
  if (c->op->noperands != 1 || c->op->nresults != 1)
    return;
  const Type *a = c->op->operands[0]->type, *b = c->op->results[0].type;
  bool ok = true;
  if ((a->kind != TY_MEMREF && a->kind != TY_UNRANKED_MEMREF) || (b->kind != TY_MEMREF && b->kind != TY_UNRANKED_MEMREF))
    return;
  if (elem_of(a) != elem_of(b))
    ok = false;
  else if (a->kind == TY_UNRANKED_MEMREF && b->kind == TY_UNRANKED_MEMREF)
    ok = false;
  else if (a->kind == TY_MEMREF && b->kind == TY_MEMREF)
    ok = ir_shapes_compatible(a, b);
  if (!ok)
    op_fail(c, "operand type '%s' and result type '%s' are cast incompatible", ty(c, a), ty(c, b));
}

/* Reads an affine map's text "(d0, d1)[s0] -> (d1, d0)" as a permutation: the number of
 * dimensions, and perm[i] for each result; false when a result is not a bare dimension, repeats
 * one, or there are symbols. */
static bool permutation_map(Str text, uint32_t *ndims, int64_t *perm, uint32_t *nres) {
  const char *s = text.s, *end = text.s + text.len, *arrow = NULL;
  for (const char *q = s; q + 1 < end; q++)
    if (q[0] == '-' && q[1] == '>') {
      arrow = q;
      break;
    }
  if (!arrow)
    return false;
  uint32_t nd = 0;
  for (const char *q = s; q < arrow; q++) {
    if (*q == '[')
      return false;
    nd += *q == 'd';
  }
  bool seen[MAX_RANK] = {false};
  uint32_t n = 0;
  const char *q = arrow + 2;
  while (q < end && *q != '(')
    q++;
  for (q++; q < end && *q != ')';) {
    while (q < end && *q == ' ')
      q++;
    if (q < end && *q == ')')
      break;
    if (q >= end || *q != 'd' || n == MAX_RANK)
      return false;
    int64_t d = 0;
    const char *digits = ++q;
    while (q < end && *q >= '0' && *q <= '9')
      d = d * 10 + (*q++ - '0');
    while (q < end && *q == ' ')
      q++;
    if (q == digits || d >= nd || d >= MAX_RANK || seen[d] || (q < end && *q != ',' && *q != ')'))
      return false;
    seen[d] = true;
    perm[n++] = d;
    if (q < end && *q == ',')
      q++;
  }
  *ndims = nd;
  *nres = n;
  return n == nd;
}

/* The result of memref.transpose against the input's layout permuted: MLIR compares the two types
 * after canonicalizing their layouts. Checked where the input's layout is static and its strides
 * not negative, and the result's layout strided or the identity. The canonical type is named as
 * MLIR prints it, its layout an affine map. */
static void transpose_result(Check *c, const int64_t *perm, uint32_t rank) {
  const Type *in = c->op->operands[0]->type, *res = c->op->results[0].type;
  int64_t ioff, ist[MAX_RANK], roff, rst[MAX_RANK];
  if (in->kind != TY_MEMREF || res->kind != TY_MEMREF || rank > MAX_RANK || in->u.sh.rank != rank ||
      res->u.sh.rank != rank || !layout_of(in, &ioff, ist) || ioff == IR_DYNAMIC)
    return;
  for (uint32_t i = 0; i < rank; i++)
    if (ist[i] == IR_DYNAMIC || ist[i] < 0)
      return;
  bool same = res->u.sh.elem == in->u.sh.elem && res->u.sh.memspace == in->u.sh.memspace && layout_of(res, &roff, rst) &&
              roff == ioff;
  if (!res->u.sh.elem || res->u.sh.elem != in->u.sh.elem || (!same && !layout_of(res, &roff, rst)))
    return; /* an affine-map layout, or the element type's own check */
  for (uint32_t i = 0; i < rank && same; i++) {
    int64_t size = in->u.sh.shape[perm[i]];
    same = res->u.sh.shape[i] == size && rst[i] == ist[perm[i]];
  }
  if (same)
    return;
  char map[1024];
  size_t n = 0;
#define PUT(...) (n += n < sizeof map ? (size_t)snprintf(map + n, sizeof map - n, __VA_ARGS__) : 0)
  PUT("affine_map<(");
  for (uint32_t i = 0; i < rank; i++)
    PUT("%sd%u", i ? ", " : "", i);
  PUT(") -> (");
  bool any = false;
  for (uint32_t i = 0; i < rank; i++) {
    int64_t st = ist[perm[i]];
    if (!st)
      continue;
    PUT("%sd%u", any ? " + " : "", i);
    if (st != 1)
      PUT(" * %lld", (long long)st);
    any = true;
  }
  if (ioff || !any)
    PUT("%s%lld", any ? " + " : "", (long long)ioff);
  PUT(")>");
#undef PUT
  if (n >= sizeof map)
    return;
  Type t = *in;
  int64_t shape[MAX_RANK];
  for (uint32_t i = 0; i < rank; i++)
    shape[i] = in->u.sh.shape[perm[i]];
  t.u.sh.shape = shape;
  Attr *layout = ir_alloc(c->ctx, sizeof *layout);
  layout->kind = ATTR_AFFINE_MAP;
  layout->u.str = ir_intern_cstr(c->ctx, map);
  t.u.sh.layout = layout;
  op_fail(c, "result type '%s' is not equivalent to the canonical transposed input type '%s'", ty(c, res),
          ir_type_str(c->ctx, &t));
}

static void memref_transpose(Check *c) {
  Attr *map = ir_op_attr(c->op, "permutation");
  int64_t perm[MAX_RANK];
  uint32_t nd, nres;
  if (!map || map->kind != ATTR_AFFINE_MAP || c->op->noperands != 1)
    return;
  if (!permutation_map(map->u.str, &nd, perm, &nres)) {
    op_fail(c, "expected a permutation map");
    return;
  }
  int rank = shaped_rank(c->op->operands[0]->type);
  if (rank >= 0 && (uint32_t)rank != nd) {
    op_fail(c, "expected a permutation map of same rank as the input");
    return;
  }
  transpose_result(c, perm, nd);
}

static void memref_get_global(Check *c) {
  Attr *name = ir_op_attr(c->op, "name");
  if (!name || name->kind != ATTR_SYMREF || name->u.sym.n != 1 || c->op->nresults != 1)
    return;
  Op *table = ir_op_parent_op(c->op);
  while (table && !(table->info && (table->info->flags & OPF_SYMBOL_TABLE)))
    table = ir_op_parent_op(table);
  Op *g = table ? ir_symbol_lookup(table, name->u.sym.path[0]) : NULL;
  if (!g || !ir_str_eq(g->name, "memref.global")) {
    op_fail(c, "'%.*s' does not reference a valid global memref", (int)name->u.sym.path[0].len,
            name->u.sym.path[0].s);
    return;
  }
  Attr *gt = ir_op_attr(g, "type");
  if (gt && gt->kind == ATTR_TYPE && gt->type != c->op->results[0].type)
    op_fail(c, "result type '%s' does not match type '%s' of the global memref @%.*s",
            ty(c, c->op->results[0].type), ty(c, gt->type), (int)name->u.sym.path[0].len, name->u.sym.path[0].s);
}

/* ---- arith, math, index: types that must agree ------------------------------------------- */

/* Ops of the elementwise forms (binary, unary, ternary) take and give one type. */
static void same_types(Check *c) {
  const Type *t = c->op->noperands ? c->op->operands[0]->type : c->op->nresults ? c->op->results[0].type : NULL;
  for (uint32_t i = 0; i < c->op->noperands; i++)
    if (c->op->operands[i]->type != t) {
      op_fail(c, "requires the same type for all operands and results");
      return;
    }
  for (uint32_t i = 0; i < c->op->nresults; i++)
    if (c->op->results[i].type != t) {
      op_fail(c, "requires the same type for all operands and results");
      return;
    }
}

static bool is_i1(const Type *t) { return t->kind == TY_INT && t->u.i.width == 1 && t->u.i.sign == SIGNLESS; }

/* Do two types have the same vector shape (both scalars, or vectors of one shape)? */
static bool same_shape(const Type *a, const Type *b) {
  if ((a->kind == TY_VECTOR) != (b->kind == TY_VECTOR))
    return false;
  if (a->kind != TY_VECTOR)
    return true;
  if (a->u.sh.rank != b->u.sh.rank)
    return false;
  for (uint32_t i = 0; i < a->u.sh.rank; i++)
    if (a->u.sh.shape[i] != b->u.sh.shape[i])
      return false;
  return true;
}

static void compare(Check *c, bool llvm) {
  if (c->op->noperands != 2 || c->op->nresults != 1)
    return;
  const Type *res = c->op->results[0].type;
  if (c->op->operands[0]->type != c->op->operands[1]->type) {
    op_fail(c, "requires all operands to have the same type");
  } else if (!is_i1(elem_of(res)) || !same_shape(res, c->op->operands[0]->type)) {
    if (llvm)
      op_fail(c, "result #0 must be 1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer, but got '%s'",
              ty(c, res));
    else
      op_fail(c, "result #0 must be bool-like, but got '%s'", ty(c, res));
  }
}

static void arith_compare(Check *c) { compare(c, false); }
static void llvm_compare(Check *c) { compare(c, true); }

/* arith's casts: the element types must convert as the op says, elementwise on one shape. */
static void arith_cast(Check *c) {
  if (c->op->noperands < 1 || c->op->nresults != 1)
    return;
  const Type *a = c->op->operands[0]->type, *b = c->op->results[0].type;
  const Type *ea = elem_of(a), *eb = elem_of(b);
  const char *n = c->op->info->name + 6; /* after "arith." */
  bool ok;
  uint32_t wa = ir_bit_width(ea), wb = ir_bit_width(eb);
  bool ia = ea->kind == TY_INT, ib = eb->kind == TY_INT, fa = ea->kind == TY_FLOAT, fb = eb->kind == TY_FLOAT;
  if (!strcmp(n, "extsi") || !strcmp(n, "extui"))
    ok = ia && ib && wb > wa;
  else if (!strcmp(n, "trunci"))
    ok = ia && ib && wb < wa;
  else if (!strcmp(n, "extf"))
    ok = fa && fb && wb > wa;
  else if (!strcmp(n, "truncf"))
    ok = fa && fb && wb < wa;
  else if (!strcmp(n, "index_cast") || !strcmp(n, "index_castui"))
    ok = (ea->kind == TY_INDEX && ib) || (ia && eb->kind == TY_INDEX);
  else if (!strcmp(n, "bitcast"))
    ok = (ia || fa) && (ib || fb) && wa == wb;
  else if (!strcmp(n, "sitofp") || !strcmp(n, "uitofp") || !strcmp(n, "fptosi") || !strcmp(n, "fptoui")) {
    bool to_fp = n[0] != 'f'; /* [su]itofp, not fpto[su]i */
    const char *in_kind = to_fp ? "signless-fixed-width-integer-like" : "floating-point-like";
    const char *out_kind = to_fp ? "floating-point-like" : "signless-fixed-width-integer-like";
    if (!(to_fp ? ia && ea->u.i.sign == SIGNLESS : fa))
      op_fail(c, "operand #0 must be %s, but got '%s'", in_kind, ty(c, a));
    else if (!(to_fp ? fb : ib && eb->u.i.sign == SIGNLESS))
      op_fail(c, "result #0 must be %s, but got '%s'", out_kind, ty(c, b));
    else if (!same_shape(a, b))
      op_fail(c, "operand type '%s' and result type '%s' are cast incompatible", ty(c, a), ty(c, b));
    return;
  } else
    return;
  if (!ok || !same_shape(a, b))
    op_fail(c, "operand type '%s' and result type '%s' are cast incompatible", ty(c, a), ty(c, b));
}

static void arith_select(Check *c) {
  if (c->op->noperands == 3 && c->op->nresults == 1 &&
      (c->op->operands[1]->type != c->op->operands[2]->type || c->op->operands[1]->type != c->op->results[0].type))
    op_fail(c, "failed to verify that all of {true_value, false_value, result} have same type");
}

static void arith_constant(Check *c) {
  Attr *v = ir_op_attr(c->op, "value");
  if (v && (v->kind == ATTR_INT || v->kind == ATTR_FLOAT || v->kind == ATTR_DENSE) && v->type &&
      c->op->nresults == 1 && v->type != c->op->results[0].type)
    op_fail(c, "failed to verify that all of {value, result} have same type");
}

/* ---- scf, cf: what regions and branches pass on ------------------------------------------ */

static Op *terminator(const Region *r) { return r->first && r->first->last ? r->first->last : NULL; }

static void scf_for(Check *c) {
  Op *op = c->op;
  if (op->noperands < 3)
    return;
  if (op->operands[0]->type != op->operands[1]->type || op->operands[0]->type != op->operands[2]->type) {
    op_fail(c, "failed to verify that all of {lowerBound, upperBound, step} have same type");
    return;
  }
  Block *body = op->nregions ? op->regions[0].first : NULL;
  if (body) { /* the induction variable, then one argument per init (the count as MLIR's size_t) */
    uint64_t iter = (uint64_t)body->nargs - 1;
    if (op->noperands - 3 != iter) {
      op_fail(c, "different number of inits and region iter_args: %u != %llu", op->noperands - 3,
              (unsigned long long)iter);
      return;
    }
    if (body->args[0].type != op->operands[0]->type) {
      op_fail(c, "expected induction variable to be same type as bounds and step");
      return;
    }
  }
  Op *y = op->nregions ? terminator(&op->regions[0]) : NULL;
  if (!y || !ir_str_eq(y->name, "scf.yield"))
    return;
  uint32_t ninit = op->noperands - 3;
  if (y->noperands != ninit) {
    op_fail(c, "along control flow edge from Operation scf.yield to Region #0: region branch point has %u operands, but region successor needs %u inputs",
            y->noperands, ninit);
    note_on(c, y, "region branch point");
    return;
  }
  for (uint32_t i = 0; i < ninit; i++)
    if (y->operands[i]->type != op->operands[3 + i]->type) {
      op_fail(c, "%u-th region iter_arg and %u-th yielded value have different type: '%s' != '%s'", i, i,
              ty(c, op->operands[3 + i]->type), ty(c, y->operands[i]->type));
      return;
    }
}

static void scf_if(Check *c) {
  for (uint32_t r = 0; r < c->op->nregions; r++) {
    Op *y = terminator(&c->op->regions[r]);
    if (!y || !ir_str_eq(y->name, "scf.yield") || y->noperands != c->op->nresults)
      continue; /* a count mismatch is verify.c's */
    for (uint32_t i = 0; i < y->noperands; i++)
      if (y->operands[i]->type != c->op->results[i].type) {
        op_fail(c, "along control flow edge from Operation scf.yield to parent: successor operand type #%u '%s' should match successor input type #%u '%s'",
                i, ty(c, y->operands[i]->type), i, ty(c, c->op->results[i].type));
        note_on(c, y, "region branch point");
        return;
      }
  }
}

/* One control-flow edge of a region-branch op, checked as MLIR's verifyTypesAlongControlFlowEdges
 * does: the n values that `point` passes (from `from`) match the inputs of `to` in number and
 * type. Returns false after reporting. */
static bool edge(Check *c, const char *from, const char *to, Value *const *src, uint32_t nsrc, const Value *dst,
                 uint32_t ndst, const Op *point) {
  if (nsrc != ndst) {
    op_fail(c, "along control flow edge from %s to %s: region branch point has %u operands, but region successor needs %u inputs",
            from, to, nsrc, ndst);
    note_on(c, point, "region branch point");
    return false;
  }
  for (uint32_t i = 0; i < nsrc; i++)
    if (src[i]->type != dst[i].type) {
      op_fail(c, "along control flow edge from %s to %s: successor operand type #%u '%s' should match successor input type #%u '%s'",
              from, to, i, ty(c, src[i]->type), i, ty(c, dst[i].type));
      note_on(c, point, "region branch point");
      return false;
    }
  return true;
}

/* scf.while: the before region ends in scf.condition and the after region in scf.yield; the
 * operands enter the before region, the condition's values leave as the results or enter the
 * after region, and the after region's yield goes back to the before region. */
static void scf_while(Check *c) {
  Op *op = c->op;
  if (op->nregions != 2 || !op->regions[0].first || !op->regions[1].first)
    return;
  Op *cond = terminator(&op->regions[0]), *y = terminator(&op->regions[1]);
  if (!cond || !ir_str_eq(cond->name, "scf.condition")) {
    op_fail(c, "expects the 'before' region to terminate with 'scf.condition'");
    if (cond)
      note_on(c, cond, "terminator here");
    return;
  }
  if (!y || !ir_str_eq(y->name, "scf.yield")) {
    op_fail(c, "expects the 'after' region to terminate with 'scf.yield'");
    if (y)
      note_on(c, y, "terminator here");
    return;
  }
  Block *before = op->regions[0].first, *after = op->regions[1].first;
  uint32_t nc = cond->noperands ? cond->noperands - 1 : 0;
  Value *const *cv = cond->operands + (cond->noperands ? 1 : 0);
  if (edge(c, "parent", "Region #0", op->operands, op->noperands, before->args, before->nargs, op) &&
      edge(c, "Operation scf.condition", "parent", cv, nc, op->results, op->nresults, cond) &&
      edge(c, "Operation scf.condition", "Region #1", cv, nc, after->args, after->nargs, cond))
    edge(c, "Operation scf.yield", "Region #0", y->operands, y->noperands, before->args, before->nargs, y);
}

/* scf.yield ends the regions of these ops only (scf.forall's body ends in scf.forall.in_parallel,
 * scf.parallel's in scf.reduce). */
static void scf_execute_region(Check *c) {
  if (c->op->nregions == 1 && !c->op->regions[0].first)
    op_fail(c, "region needs to have at least one block");
}

static void scf_yield(Check *c) {
  static const char *const parents[] = {"scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while"};
  Op *parent = ir_op_parent_op(c->op);
  if (!parent)
    return;
  for (size_t i = 0; i < sizeof parents / sizeof *parents; i++)
    if (ir_str_eq(parent->name, parents[i]))
      return;
  op_fail(c, "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'");
}

/* One of scf.forall's bound lists: one value per loop, a `?` (IR_DYNAMIC) per operand given
 * (MLIR's verifyListOfOperandsOrIntegers). */
static bool bound_list(Check *c, const char *name, uint32_t rank, const int64_t *vals, uint32_t n, int64_t given) {
  if (n != rank) {
    bare_fail(c, "expected %u %s values, got %u", rank, name, n);
    return false;
  }
  int64_t dyn = 0;
  for (uint32_t i = 0; i < n; i++)
    dyn += vals[i] == IR_DYNAMIC;
  if (dyn != given) {
    bare_fail(c, "expected %lld dynamic %s values", (long long)dyn, name);
    return false;
  }
  return true;
}

/* scf.forall: operands (lower bounds, upper bounds, steps, outputs); the body takes an index
 * per loop (as many as static lower bounds) and then each output; outputs are ranked tensors,
 * one per result, of its type; a mapping has one entry per loop. */
static void scf_forall(Check *c) {
  Op *op = c->op;
  int64_t seg[4], lb[MAX_RANK], ub[MAX_RANK], st[MAX_RANK];
  uint32_t nlb, nub, nst;
  Block *body = op->nregions ? op->regions[0].first : NULL;
  if (!ir_op_segments(op, seg, 4) || !body || !int_list(ir_op_attr(op, "staticLowerBound"), lb, &nlb) ||
      !int_list(ir_op_attr(op, "staticUpperBound"), ub, &nub) || !int_list(ir_op_attr(op, "staticStep"), st, &nst))
    return;
  uint32_t nout = (uint32_t)seg[3], out0 = (uint32_t)(seg[0] + seg[1] + seg[2]), rank = nlb;
  for (uint32_t i = 0; i < nout; i++) {
    const Type *t = op->operands[out0 + i]->type;
    if (t->kind != TY_TENSOR || t->u.sh.unranked) {
      op_fail(c, "operand #%u must be variadic of ranked tensor of any type values, but got '%s'", out0 + i, ty(c, t));
      return;
    }
  }
  if (op->nresults != nout) {
    op_fail(c, "produces %u results, but has only %u outputs", op->nresults, nout);
    return;
  }
  if (body->nargs != rank + nout) {
    op_fail(c, "region expects %u arguments", rank);
    return;
  }
  for (uint32_t i = 0; i < rank; i++)
    if (body->args[i].type->kind != TY_INDEX) {
      op_fail(c, "expects %u-th block argument to be an index", i);
      return;
    }
  for (uint32_t i = 0; i < nout; i++)
    if (body->args[rank + i].type != op->operands[out0 + i]->type) {
      op_fail(c, "type mismatch between %u-th output and corresponding block argument", i);
      return;
    }
  Attr *mapping = ir_op_attr(op, "mapping");
  if (mapping && mapping->kind == ATTR_ARRAY && mapping->u.arr.n && mapping->u.arr.n != rank) {
    op_fail(c, "mapping attribute size must match op rank");
    return;
  }
  if (!bound_list(c, "lower bound", rank, lb, nlb, seg[0]) || !bound_list(c, "upper bound", rank, ub, nub, seg[1]) ||
      !bound_list(c, "step", rank, st, nst, seg[2]))
    return;
  for (uint32_t i = 0; i < nout; i++)
    if (op->results[i].type != op->operands[out0 + i]->type) {
      op_fail(c, "expected type of operand #%u ('%s') to match type of corresponding result ('%s')", out0 + i,
              ty(c, op->operands[out0 + i]->type), ty(c, op->results[i].type));
      return;
    }
}

static void func_call_indirect(Check *c) {
  const Type *ft = c->op->noperands ? c->op->operands[0]->type : NULL;
  if (!ft || ft->kind != TY_FUNC)
    return;
  bool ok = ft->u.fn.nin == c->op->noperands - 1;
  for (uint32_t i = 0; ok && i < ft->u.fn.nin; i++)
    ok = ft->u.fn.in[i] == c->op->operands[i + 1]->type;
  if (!ok) {
    op_fail(c, "failed to verify that callee input types match argument types");
    return;
  }
  ok = ft->u.fn.nout == c->op->nresults;
  for (uint32_t i = 0; ok && i < ft->u.fn.nout; i++)
    ok = ft->u.fn.out[i] == c->op->results[i].type;
  if (!ok)
    op_fail(c, "failed to verify that callee result types match result types");
}

/* scf.condition, cf.cond_br, llvm.cond_br: the condition is an i1. */
static void condition(Check *c) {
  if (c->op->noperands && !is_i1(c->op->operands[0]->type))
    op_fail(c, "operand #0 must be 1-bit signless integer, but got '%s'", ty(c, c->op->operands[0]->type));
}

/* llvm.br and llvm.cond_br pass their operands to their successors' arguments. */
static void llvm_branch(Check *c) {
  Op *op = c->op;
  uint32_t first = 0, counts[2] = {op->noperands, 0};
  if (op->info->name[5] == 'c') {
    condition(c);
    int64_t seg[3];
    if (c->errors || !ir_op_segments(op, seg, 3))
      return;
    first = 1;
    counts[0] = (uint32_t)seg[1];
    counts[1] = (uint32_t)seg[2];
  }
  for (uint32_t s = 0; s < op->nsuccs && s < 2; s++) {
    Block *b = op->succs[s];
    if (counts[s] != b->nargs) {
      bare_fail(c, "branch has %u operands for successor #%u, but target block has %u", counts[s], s, b->nargs);
      return;
    }
    for (uint32_t i = 0; i < counts[s]; i++)
      if (op->operands[first + i]->type != b->args[i].type) {
        bare_fail(c, "type mismatch for bb argument #%u of successor #%u", i, s);
        return;
      }
    first += counts[s];
  }
}


/* func.func: the entry block takes the signature's arguments. */
static void func_func(Check *c) {
  Attr *ft = ir_op_attr(c->op, "function_type");
  Block *entry = c->op->nregions ? c->op->regions[0].first : NULL;
  if (!entry || !ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC)
    return;
  const Type *f = ft->type;
  if (entry->nargs != f->u.fn.nin) {
    op_fail(c, "entry block must have %u arguments to match function signature", f->u.fn.nin);
    return;
  }
  for (uint32_t i = 0; i < entry->nargs; i++)
    if (entry->args[i].type != f->u.fn.in[i]) {
      op_fail(c, "type of entry block argument #%u('%s') must match the type of the corresponding argument in function signature('%s')",
              i, ty(c, entry->args[i].type), ty(c, f->u.fn.in[i]));
      return;
    }
}

/* scf.index_switch: region 0 is the default, then the cases; each yields the results. */
static void scf_index_switch(Check *c) {
  for (uint32_t r = 0; r < c->op->nregions; r++) {
    Op *y = terminator(&c->op->regions[r]);
    if (!y || !ir_str_eq(y->name, "scf.yield"))
      continue;
    char name[32], msg[1024];
    if (r)
      snprintf(name, sizeof name, "case region #%u", r - 1);
    else
      snprintf(name, sizeof name, "default region");
    if (y->noperands != c->op->nresults) {
      op_fail(c, "expected each region to return %u values, but %s returns %u", c->op->nresults, name, y->noperands);
      note_on(c, y, "see yield operation here");
      return;
    }
    for (uint32_t i = 0; i < y->noperands; i++)
      if (y->operands[i]->type != c->op->results[i].type) {
        op_fail(c, "expected result #%u of each region to be '%s'", i, ty(c, c->op->results[i].type));
        snprintf(msg, sizeof msg, "%s returns '%s' here", name, ty(c, y->operands[i]->type));
        note_on(c, y, msg);
        return;
      }
  }
}

/* An operand arith.constant defines as an integer (MLIR's getConstantIntValue). */
static bool constant_int(const Value *v, int64_t *out) {
  const Op *def = v->def;
  Attr *val = def && ir_str_eq(def->name, "arith.constant") ? ir_op_attr(def, "value") : NULL;
  if (!val || val->kind != ATTR_INT || val->u.i.big)
    return false;
  *out = val->u.i.v;
  return true;
}

/* scf.parallel: steps that are constants are positive; one induction variable per bound. */
static void scf_parallel(Check *c) {
  int64_t seg[4];
  Block *body = c->op->nregions ? c->op->regions[0].first : NULL;
  if (!ir_op_segments(c->op, seg, 4))
    return;
  for (int64_t i = 0; i < seg[2]; i++) {
    int64_t step;
    if (constant_int(c->op->operands[seg[0] + seg[1] + i], &step) && step <= 0) {
      op_fail(c, "constant step operand must be positive");
      return;
    }
  }
  if (!body)
    return;
  if (seg[0] != seg[1] || seg[0] != seg[2] || (int64_t)body->nargs != seg[0])
    op_fail(c, "expects the same number of induction variables: %u as bound and step values: %lld", body->nargs,
            (long long)(seg[0] != (int64_t)body->nargs ? seg[0] : seg[1] != (int64_t)body->nargs ? seg[1] : seg[2]));
}



/* ---- the table ----------------------------------------------------------------------------- */

/* sorted by name, for ir_op_check_run */
static const OpCheck checks[] = {
    {"arith.bitcast", arith_cast},
    {"arith.cmpf", arith_compare},
    {"arith.cmpi", arith_compare},
    {"arith.constant", arith_constant},
    {"arith.extf", arith_cast},
    {"arith.extsi", arith_cast},
    {"arith.extui", arith_cast},
    {"arith.fptosi", arith_cast},
    {"arith.fptoui", arith_cast},
    {"arith.index_cast", arith_cast},
    {"arith.index_castui", arith_cast},
    {"arith.select", arith_select},
    {"arith.sitofp", arith_cast},
    {"arith.truncf", arith_cast},
    {"arith.trunci", arith_cast},
    {"arith.uitofp", arith_cast},
    {"cf.cond_br", condition},
    {"func.call_indirect", func_call_indirect},
    {"func.func", func_func},
    {"llvm.br", llvm_branch},
    {"llvm.cond_br", llvm_branch},
    {"llvm.fcmp", llvm_compare},
    {"llvm.icmp", llvm_compare},
    {"memref.alloc", memref_alloc},
    {"memref.alloca", memref_alloc},
    {"memref.atomic_rmw", memref_atomic_rmw},
    {"memref.cast", memref_cast},
    {"memref.copy", memref_copy},
    {"memref.dim", memref_dim},
    {"memref.get_global", memref_get_global},
    {"memref.global", memref_global},
    {"memref.load", memref_load},
    {"memref.realloc", memref_realloc},
    {"memref.reinterpret_cast", offsets_sizes_strides},
    {"memref.store", memref_store},
    {"memref.subview", offsets_sizes_strides},
    {"memref.transpose", memref_transpose},
    {"memref.view", memref_view},
    {"scf.condition", condition},
    {"scf.execute_region", scf_execute_region},
    {"scf.for", scf_for},
    {"scf.forall", scf_forall},
    {"scf.if", scf_if},
    {"scf.index_switch", scf_index_switch},
    {"scf.parallel", scf_parallel},
    {"scf.while", scf_while},
    {"scf.yield", scf_yield},
};

static int by_name(const void *key, const void *elem) {
  return strcmp((const char *)key, ((const OpCheck *)elem)->name);
}

bool ir_op_check_run(const OpCheck *table, size_t n, Check *c) {
  const OpCheck *k = bsearch(c->op->info->name, table, n, sizeof *table, by_name);
  if (k)
    k->fn(c);
  return k != NULL;
}

unsigned ir_verify_ops(IrCtx *ctx, Op *op) {
  if (!op->info)
    return 0;
  Check c = {ctx, op, 0};
  ParseFn form = op->info->parse;
  if (form == parse_binary || form == parse_binary_ovf || form == parse_binary_fm || form == parse_unary_fm ||
      form == parse_index_binary || form == parse_ternary || form == parse_llvm_binary ||
      form == parse_llvm_binary_ovf || form == parse_llvm_binary_fm || form == parse_llvm_unary_fm)
    same_types(&c);
  if (c.errors || ir_op_check_run(checks, sizeof checks / sizeof *checks, &c))
    return c.errors;
  if (!strncmp(op->info->name, "llvm.", 5))
    ir_verify_llvm(&c);
  else if (!strncmp(op->info->name, "vector.", 7))
    ir_verify_vector(&c);
  return c.errors;
}
