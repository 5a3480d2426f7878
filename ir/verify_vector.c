/* verify_vector.c - the checks of op semantics MLIR's verifiers make for vector ops: indices
 * against memref ranks, positions, permutations, slices and masks against vector shapes, element
 * types that must agree. verify_ops.c calls ir_verify_vector for every vector.* op; each check
 * reports in mlir-opt's words, on the op, and returns at its first problem as MLIR's verifiers do. */
#include "ir/verify_check.h"

#include <stdio.h>

static bool any_scalable(const Type *v) {
  for (uint32_t i = 0; v->u.sh.scalable && i < v->u.sh.rank; i++)
    if (v->u.sh.scalable[i])
      return true;
  return false;
}

static void vector_indices(Check *c, uint32_t base, int64_t nidx) {
  int rank = ir_wrong_indices(c, base, nidx);
  if (rank >= 0)
    op_fail(c, "requires %d indices", rank);
}

/* A scalar memref's element type is the vector's (a memref of vectors must hold the vector type). */
static bool elements_differ(const Type *base, const Type *v) {
  const Type *e = base->kind == TY_MEMREF ? base->u.sh.elem : NULL;
  return e && v && v->kind == TY_VECTOR && e->kind != TY_VECTOR && e != v->u.sh.elem;
}

static void vector_load(Check *c) {
  int64_t n = (int64_t)c->op->noperands - 1;
  if (ir_wrong_indices(c, 0, n) >= 0)
    vector_indices(c, 0, n);
  else if (n >= 0 && c->op->nresults == 1 && elements_differ(c->op->operands[0]->type, c->op->results[0].type))
    op_fail(c, "base and result element types should match");
}

static void vector_store(Check *c) {
  int64_t n = (int64_t)c->op->noperands - 2;
  if (ir_wrong_indices(c, 1, n) >= 0)
    vector_indices(c, 1, n);
  else if (n >= 0 && elements_differ(c->op->operands[1]->type, c->op->operands[0]->type))
    op_fail(c, "base and valueToStore element type should match");
}
/* maskedload, expandload: base, indices, mask, pass_thru; maskedstore, compressstore: base,
 * indices, mask, value */
/* vector.mask: its results are those of the op it masks. */
static void vector_mask(Check *c) {
  Block *b = c->op->nregions ? c->op->regions[0].first : NULL;
  Op *m = b ? b->first : NULL;
  if (m && m != b->last && m->next != b->last) {
    op_fail(c, "expects only one operation to mask");
    return;
  }
  if (!m || m == b->last) /* empty: a terminator alone */
    return;
  if (m->nresults != c->op->nresults) {
    op_fail(c, "expects number of results to match maskable operation number of results");
    return;
  }
  for (uint32_t i = 0; i < m->nresults; i++)
    if (m->results[i].type != c->op->results[i].type) {
      op_fail(c, "expects result type to match maskable operation result type");
      return;
    }
}

static void vector_masked(Check *c) { vector_indices(c, 0, (int64_t)c->op->noperands - 3); }
/* gather: base, offsets, index vector, mask, pass_thru; scatter: ..., value */
static void vector_gather(Check *c) { vector_indices(c, 0, (int64_t)c->op->noperands - 4); }

/* Bits of a scalar as MLIR's default data layout has them (index: 64), 0 when unknown. */
static uint32_t layout_bits(const Type *t) { return t->kind == TY_INDEX ? 64 : ir_bit_width(t); }

/* MLIR's verifyTransferOp and verifyPermutationMap, after the index count: the source, the map's
 * dimensions, symbols and results against the source and vector types, in_bounds one per result,
 * and each result a distinct dimension or the constant 0. */
static void transfer_map_check(Check *c, const Type *src, const Type *vec, bool has_mask) {
  Attr *map = ir_op_attr(c->op, "permutation_map"), *inb = ir_op_attr(c->op, "in_bounds");
  MapShape m;
  if (src->kind != TY_MEMREF && src->kind != TY_TENSOR) {
    op_fail(c, "requires source to be a memref or ranked tensor type");
    return;
  }
  if (!map || map->kind != ATTR_AFFINE_MAP || !ir_map_shape(map->u.str, &m) || src->u.sh.unranked)
    return;
  const Type *elem = src->u.sh.elem;
  uint32_t vrank = vec->u.sh.rank;
  int64_t minor = vrank ? vec->u.sh.shape[vrank - 1] : 1;
  if (elem->kind == TY_VECTOR) {
    uint32_t er = elem->u.sh.rank;
    uint64_t sbits = (uint64_t)layout_bits(elem->u.sh.elem) * (uint64_t)(er ? elem->u.sh.shape[er - 1] : 1);
    uint64_t rbits = (uint64_t)layout_bits(vec->u.sh.elem) * (uint64_t)minor;
    if (sbits && rbits % sbits) {
      op_fail(c, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the minor 1-D vector of the source");
      return;
    }
    if (er > vrank) {
      op_fail(c, "requires source vector element and vector result ranks to match.");
      return;
    }
    if (m.nres != vrank - er) {
      op_fail(c, "requires a permutation_map with result dims of the same rank as the vector type");
      return;
    }
    if (has_mask) {
      op_fail(c, "does not support masks with vector element type");
      return;
    }
  } else {
    uint64_t ebits = layout_bits(elem), rbits = (uint64_t)layout_bits(vec->u.sh.elem) * (uint64_t)minor;
    if (ebits && rbits % ebits) {
      op_fail(c, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the source element type");
      return;
    }
    if (m.nres != vrank) {
      op_fail(c, "requires a permutation_map with result dims of the same rank as the vector type");
      return;
    }
  }
  if (m.nsyms) {
    op_fail(c, "requires permutation_map without symbols");
    return;
  }
  if (m.ndims != src->u.sh.rank) {
    op_fail(c, "requires a permutation_map with input dims of the same rank as the source type");
    return;
  }
  if (inb && inb->kind == ATTR_ARRAY && inb->u.arr.n != m.nres) {
    op_fail(c, "expects the in_bounds attr of same rank as permutation_map results: %.*s vs inBounds of size: %u",
            (int)map->u.str.len, map->u.str.s, inb->u.arr.n);
    return;
  }
  if (c->op->name.s[16] == 'r' && c->op->noperands > 1) {
    int64_t seg[4];
    ir_op_segments(c->op, seg, 4);
    const Type *pad = c->op->operands[1 + seg[1]]->type;
    if (pad != elem) {
      op_fail(c, elem->kind == TY_VECTOR ? "requires source element type and padding type to match."
                                          : "requires formal padding and source of the same elemental type");
      return;
    }
  }
  bool seen[MAX_RANK] = {false};
  for (uint32_t i = 0; i < m.nres; i++) {
    if (m.res[i] == MAP_ZERO)
      continue;
    if (m.res[i] < 0 || m.res[i] >= MAX_RANK) {
      op_fail(c, "requires a projected permutation_map (at most one dim or the zero constant can appear in each result)");
      return;
    }
    if (seen[m.res[i]]) {
      op_fail(c, "requires a permutation_map that is a permutation (found one dim used more than once)");
      return;
    }
    seen[m.res[i]] = true;
  }
}

static void vector_transfer(Check *c) {
  int64_t seg[4];
  if (!ir_op_segments(c->op, seg, 4))
    return;
  bool read = c->op->name.s[16] == 'r'; /* vector.transfer_read: base, indices, padding, mask */
  vector_indices(c, read ? 0 : 1, read ? seg[1] : seg[2]);
  const Type *src = c->op->operands[read ? 0 : 1]->type;
  const Type *vec = read ? (c->op->nresults == 1 ? c->op->results[0].type : NULL) : c->op->operands[0]->type;
  if (c->errors || !vector_of(vec))
    return;
  Attr *map = ir_op_attr(c->op, "permutation_map");
  MapShape m;
  if (!read && map && map->kind == ATTR_AFFINE_MAP && ir_map_shape(map->u.str, &m))
    for (uint32_t i = 0; i < m.nres; i++)
      if (m.res[i] == MAP_ZERO) {
        op_fail(c, "should not have broadcast dimensions");
        return;
      }
  transfer_map_check(c, src, vec, seg[3] != 0);
}

static void vector_transpose(Check *c) {
  const Type *src = c->op->noperands == 1 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  int64_t perm[MAX_RANK];
  uint32_t n;
  if (!src || !res || !int_list(ir_op_attr(c->op, "permutation"), perm, &n))
    return;
  uint32_t rank = res->u.sh.rank;
  if (src->u.sh.rank != rank) {
    op_fail(c, "vector result rank mismatch: %u", rank);
    return;
  }
  if (n != rank) {
    op_fail(c, "transposition length mismatch: %u", n);
    return;
  }
  bool seen[MAX_RANK] = {false};
  for (uint32_t i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] >= (int64_t)rank) {
      op_fail(c, "transposition index out of range: %lld", (long long)perm[i]);
      return;
    }
    if (seen[perm[i]]) {
      op_fail(c, "duplicate position index: %lld", (long long)perm[i]);
      return;
    }
    seen[perm[i]] = true;
    if (res->u.sh.shape[i] != src->u.sh.shape[perm[i]]) {
      op_fail(c, "dimension size mismatch at: %lld", (long long)perm[i]);
      return;
    }
  }
}

/* MLIR's isIntegerArrayAttrConfinedToShape: each vals[i] in [lo, shape[i] + (closed ? 1 : 0)). */
static bool confined_to_shape(Check *c, const int64_t *vals, uint32_t n, const Type *v, const char *name,
                              bool closed, int64_t lo) {
  for (uint32_t i = 0; i < n; i++) {
    int64_t hi = v->u.sh.shape[i] + closed;
    if (vals[i] < lo || vals[i] >= hi) {
      op_fail(c, "expected %s dimension %u to be confined to [%lld, %lld)", name, i, (long long)lo, (long long)hi);
      return false;
    }
  }
  return true;
}

static bool strides_are_one(Check *c, const int64_t *st, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (st[i] != 1) {
      op_fail(c, "expected strides to be confined to [1, 2)");
      return false;
    }
  return true;
}

/* offsets[i] + sizes[i] within [0, shape[i]] (MLIR's isSumOfIntegerArrayAttrConfinedToShape). */
static bool sum_confined(Check *c, const int64_t *a, const int64_t *b, uint32_t n, const Type *v, const char *what) {
  for (uint32_t i = 0; i < n; i++) {
    int64_t hi = v->u.sh.shape[i] + 1;
    if (a[i] + b[i] < 0 || a[i] + b[i] >= hi) {
      op_fail(c, "expected sum(%s) dimension %u to be confined to [1, %lld)", what, i, (long long)hi);
      return false;
    }
  }
  return true;
}

static void extract_strided_slice(Check *c) {
  const Type *src = c->op->noperands == 1 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *res = c->op->nresults == 1 ? c->op->results[0].type : NULL;
  int64_t off[MAX_RANK], sz[MAX_RANK], st[MAX_RANK];
  uint32_t noff, nsz, nst;
  if (!src || !res || any_scalable(src) || !int_list(ir_op_attr(c->op, "offsets"), off, &noff) ||
      !int_list(ir_op_attr(c->op, "sizes"), sz, &nsz) || !int_list(ir_op_attr(c->op, "strides"), st, &nst))
    return;
  if (noff != nsz || noff != nst) {
    op_fail(c, "expected offsets, sizes and strides attributes of same size");
    return;
  }
  if (noff > src->u.sh.rank) {
    op_fail(c, "expected offsets attribute of rank no greater than vector rank");
    return;
  }
  if (!confined_to_shape(c, off, noff, src, "offsets", false, 0) ||
      !confined_to_shape(c, sz, nsz, src, "sizes", true, 1) || !strides_are_one(c, st, nst) ||
      !sum_confined(c, off, sz, noff, src, "offsets, sizes"))
    return;
  int64_t shape[MAX_RANK];
  for (uint32_t i = 0; i < src->u.sh.rank; i++)
    shape[i] = i < nsz ? sz[i] : src->u.sh.shape[i];
  Type want = {.kind = TY_VECTOR};
  want.u.sh.shape = shape;
  want.u.sh.rank = src->u.sh.rank;
  want.u.sh.elem = src->u.sh.elem;
  Type *w = ir_type_intern(c->ctx, &want);
  if (w != res)
    op_fail(c, "expected result type to be '%s'", ty(c, w));
}

static void insert_strided_slice(Check *c) {
  const Type *src = c->op->noperands == 2 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *dst = c->op->noperands == 2 ? vector_of(c->op->operands[1]->type) : NULL;
  int64_t off[MAX_RANK], st[MAX_RANK];
  uint32_t noff, nst;
  if (!src || !dst || any_scalable(dst) || !int_list(ir_op_attr(c->op, "offsets"), off, &noff) ||
      !int_list(ir_op_attr(c->op, "strides"), st, &nst))
    return;
  if (c->op->nresults == 1 && c->op->results[0].type != dst) {
    op_fail(c, "failed to verify that all of {dest, res} have same type");
    return;
  }
  if (noff != dst->u.sh.rank) {
    op_fail(c, "expected offsets of same size as destination vector rank");
    return;
  }
  if (nst != src->u.sh.rank) {
    op_fail(c, "expected strides of same size as source vector rank");
    return;
  }
  if (src->u.sh.rank > dst->u.sh.rank) {
    op_fail(c, "expected source rank to be no greater than destination rank");
    return;
  }
  int64_t inner[MAX_RANK];
  uint32_t lead = dst->u.sh.rank - src->u.sh.rank;
  for (uint32_t i = 0; i < dst->u.sh.rank; i++)
    inner[i] = i < lead ? 0 : src->u.sh.shape[i - lead];
  if (!confined_to_shape(c, off, noff, dst, "offsets", false, 0) || !strides_are_one(c, st, nst))
    return;
  sum_confined(c, off, inner, noff, dst, "offsets, source vector shape");
}

static uint64_t elements(const Type *v) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < v->u.sh.rank; i++)
    n *= (uint64_t)v->u.sh.shape[i];
  return n;
}

static void vector_shape_cast(Check *c) {
  const Type *src = c->op->noperands == 1 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (!src || !res)
    return;
  if (src->u.sh.elem != res->u.sh.elem)
    op_fail(c, "has different source and result element types");
  else if (elements(src) != elements(res))
    op_fail(c, "has different number of elements at source (%llu) and result (%llu)",
            (unsigned long long)elements(src), (unsigned long long)elements(res));
}

/* vector.extract and vector.insert: static positions within the vector's dimensions, or poison
 * (-1); a dynamic one is IR_DYNAMIC. */
static void positions(Check *c, const Type *v, bool insert) {
  int64_t pos[MAX_RANK];
  uint32_t n;
  if (!v || !int_list(ir_op_attr(c->op, "static_position"), pos, &n))
    return;
  if (n > v->u.sh.rank) {
    op_fail(c, "expected position attribute of rank no greater than %svector rank", insert ? "dest " : "");
    return;
  }
  for (uint32_t i = 0; i < n; i++)
    if (pos[i] != IR_DYNAMIC && pos[i] != -1 && (pos[i] < 0 || pos[i] >= v->u.sh.shape[i])) {
      op_fail(c, "expected position attribute #%u to be a non-negative integer smaller than the corresponding %s", i + 1,
              insert ? "dest vector dimension" : "vector dimension or poison (-1)");
      return;
    }
}

/* vector<shape[from:]> of elem, with its scalable flags; elem itself when from == rank. */
static Type *vector_tail(IrCtx *ctx, const Type *v, uint32_t from) {
  if (from >= v->u.sh.rank)
    return v->u.sh.elem;
  Type t = {.kind = TY_VECTOR};
  t.u.sh.shape = v->u.sh.shape + from;
  t.u.sh.scalable = v->u.sh.scalable ? v->u.sh.scalable + from : NULL;
  t.u.sh.rank = v->u.sh.rank - from;
  t.u.sh.elem = v->u.sh.elem;
  return ir_type_intern(ctx, &t);
}

static void vector_extract(Check *c) {
  const Type *v = c->op->noperands >= 1 ? vector_of(c->op->operands[0]->type) : NULL;
  unsigned before = c->errors;
  Attr *pos = ir_op_attr(c->op, "static_position");
  /* a dynamic position operand per `?` (mlir-opt checks this for extract only, not insert) */
  if (pos && pos->kind == ATTR_DENSE_ARRAY && pos->u.darr.ivals && c->op->noperands >= 1) {
    uint32_t dyn = 0;
    for (uint32_t i = 0; i < pos->u.darr.n; i++)
      dyn += pos->u.darr.ivals[i] == IR_DYNAMIC;
    if (dyn != c->op->noperands - 1) {
      op_fail(c, "mismatch between dynamic and static positions (kDynamic marker but no corresponding dynamic position) -- this can only happen due to an incorrect fold/rewrite");
      return;
    }
  }
  positions(c, v, false);
  if (c->errors != before || !v || !pos || pos->kind != ATTR_DENSE_ARRAY || c->op->nresults != 1)
    return;
  Type *want = vector_tail(c->ctx, v, pos->u.darr.n);
  if (want != c->op->results[0].type) {
    op_fail(c, "inferred type(s) '%s' are incompatible with return type(s) of operation '%s'", ty(c, want),
            ty(c, c->op->results[0].type));
    op_fail(c, "failed to infer returned types"); /* MLIR reports both */
  }
}

static void vector_insert(Check *c) {
  if (c->op->noperands >= 2)
    positions(c, vector_of(c->op->operands[1]->type), true);
}

static void vector_shuffle(Check *c) {
  if (c->op->noperands != 2)
    return;
  const Type *a = c->op->operands[0]->type, *b = c->op->operands[1]->type;
  int64_t na = a->kind == TY_VECTOR && a->u.sh.rank ? a->u.sh.shape[0] : 1;
  int64_t nb = b->kind == TY_VECTOR && b->u.sh.rank ? b->u.sh.shape[0] : 1;
  Attr *mask = ir_op_attr(c->op, "mask");
  if (!mask || mask->kind != ATTR_DENSE_ARRAY || !mask->u.darr.ivals)
    return;
  for (uint32_t i = 0; i < mask->u.darr.n; i++) {
    int64_t m = mask->u.darr.ivals[i];
    if (m != -1 && (m < 0 || m >= na + nb)) {
      op_fail(c, "mask index #%u out of range", i + 1);
      return;
    }
  }
}

static void vector_shuffle_length(Check *c) {
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  Attr *mask = ir_op_attr(c->op, "mask");
  if (res && res->u.sh.rank && mask && mask->kind == ATTR_DENSE_ARRAY && res->u.sh.shape[0] != (int64_t)mask->u.darr.n)
    op_fail(c, "mask length mismatch");
  else
    vector_shuffle(c);
}

static void vector_from_elements(Check *c) {
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (!res || any_scalable(res))
    return;
  bool ok = elements(res) == c->op->noperands;
  for (uint32_t i = 0; ok && i < c->op->noperands; i++)
    ok = c->op->operands[i]->type == res->u.sh.elem;
  if (!ok)
    op_fail(c, "failed to verify that shaped type 'dest' matches 'elements' element count and types");
}

static void vector_constant_mask(Check *c) {
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  int64_t sz[MAX_RANK];
  uint32_t n;
  if (!res || !res->u.sh.rank || any_scalable(res) || !int_list(ir_op_attr(c->op, "mask_dim_sizes"), sz, &n))
    return;
  if (n != res->u.sh.rank) {
    op_fail(c, "must specify array attr of size equal vector result rank");
    return;
  }
  for (uint32_t i = 0; i < n; i++)
    if (sz[i] < 0 || sz[i] > res->u.sh.shape[i]) {
      op_fail(c, "array attr of size out of bounds of vector result dimension size");
      return;
    }
}

static void vector_bitcast(Check *c) {
  const Type *src = c->op->noperands == 1 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (!src || !res || !src->u.sh.rank || !res->u.sh.rank)
    return;
  uint32_t sw = ir_bit_width(src->u.sh.elem), rw = ir_bit_width(res->u.sh.elem);
  if (!sw || !rw)
    return;
  if (src->u.sh.rank != res->u.sh.rank) {
    op_fail(c, "failed to verify that all of {source, result} have same rank");
    return;
  }
  for (uint32_t i = 0; i + 1 < src->u.sh.rank; i++)
    if (src->u.sh.shape[i] != res->u.sh.shape[i]) {
      op_fail(c, "dimension size mismatch at: %u", i);
      return;
    }
  uint32_t last = src->u.sh.rank - 1;
  if ((uint64_t)sw * (uint64_t)src->u.sh.shape[last] != (uint64_t)rw * (uint64_t)res->u.sh.shape[last])
    op_fail(c, "source/result bitwidth of the minor 1-D vectors must be equal");
}

static void vector_broadcast(Check *c) {
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (!res || c->op->noperands != 1 || any_scalable(res))
    return;
  const Type *src = c->op->operands[0]->type;
  if (src->kind != TY_VECTOR) {
    if (src != res->u.sh.elem)
      op_fail(c, "failed to verify that source operand and result have same element type");
    return;
  }
  if (any_scalable(src))
    return;
  if (src->u.sh.elem != res->u.sh.elem) {
    op_fail(c, "failed to verify that source operand and result have same element type");
    return;
  }
  if (src->u.sh.rank > res->u.sh.rank) {
    op_fail(c, "source rank higher than destination rank");
    return;
  }
  uint32_t lead = res->u.sh.rank - src->u.sh.rank;
  for (uint32_t i = 0; i < src->u.sh.rank; i++) {
    int64_t s = src->u.sh.shape[i], d = res->u.sh.shape[lead + i];
    if (s != 1 && s != d) {
      op_fail(c, "dimension mismatch (%lld vs. %lld)", (long long)s, (long long)d);
      return;
    }
  }
}

static void vector_scan(Check *c) {
  const Type *src = c->op->noperands >= 1 ? vector_of(c->op->operands[0]->type) : NULL;
  Attr *dim = ir_op_attr(c->op, "reduction_dim");
  if (src && dim && dim->kind == ATTR_INT && (dim->u.i.v < 0 || dim->u.i.v >= (int64_t)src->u.sh.rank))
    op_fail(c, "reduction dimension %lld has to be less than %u", (long long)dim->u.i.v, src->u.sh.rank);
}

static void vector_multi_reduction(Check *c) {
  const Type *src = c->op->noperands == 2 ? vector_of(c->op->operands[0]->type) : NULL;
  int64_t dims[MAX_RANK];
  uint32_t n;
  if (!src || c->op->nresults != 1 || !int_list(ir_op_attr(c->op, "reduction_dims"), dims, &n))
    return;
  bool reduced[MAX_RANK] = {false};
  for (uint32_t i = 0; i < n; i++)
    if (dims[i] >= 0 && dims[i] < (int64_t)src->u.sh.rank)
      reduced[dims[i]] = true;
  int64_t shape[MAX_RANK];
  bool scal[MAX_RANK];
  uint32_t rank = 0;
  for (uint32_t i = 0; i < src->u.sh.rank; i++)
    if (!reduced[i]) {
      scal[rank] = src->u.sh.scalable && src->u.sh.scalable[i];
      shape[rank++] = src->u.sh.shape[i];
    }
  const Type *want = src->u.sh.elem;
  if (rank) {
    Type t = {.kind = TY_VECTOR};
    t.u.sh.shape = shape;
    t.u.sh.scalable = scal;
    t.u.sh.rank = rank;
    t.u.sh.elem = src->u.sh.elem;
    want = ir_type_intern(c->ctx, &t);
  }
  const Type *res = c->op->results[0].type;
  if (want != res)
    op_fail(c, "destination type '%s' is incompatible with source type '%s'", ty(c, res), ty(c, src));
}

static void vector_interleave(Check *c) {
  const Type *a = c->op->noperands == 2 ? vector_of(c->op->operands[0]->type) : NULL;
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (!a || !res || !a->u.sh.rank || a->u.sh.rank != res->u.sh.rank)
    return;
  uint32_t last = a->u.sh.rank - 1;
  if (res->u.sh.shape[last] != 2 * a->u.sh.shape[last])
    op_fail(c, "failed to verify that type of 'result' is double the width of the inputs");
}

static void vector_create_mask(Check *c) {
  const Type *res = c->op->nresults == 1 ? vector_of(c->op->results[0].type) : NULL;
  if (res && c->op->noperands != (res->u.sh.rank ? res->u.sh.rank : 1)) /* 0-D: one operand */
    op_fail(c, "must specify an operand for each result vector dimension");
}

/* vector.reduction: the result is the element type, and the kind one the element type has
 * (bitwise and integer min/max on integers, the float min/max on floats). */
static void vector_reduction(Check *c) {
  const Type *src = c->op->noperands >= 1 ? vector_of(c->op->operands[0]->type) : NULL;
  if (!src || c->op->nresults != 1)
    return;
  if (c->op->results[0].type != src->u.sh.elem) {
    op_fail(c, "failed to verify that source operand and result have same element type");
    return;
  }
  Attr *kind = ir_op_attr(c->op, "kind");
  const char *pre = "#vector.kind<";
  size_t np = strlen(pre);
  if (!kind || kind->kind != ATTR_OPAQUE || kind->u.str.len <= np + 1 || strncmp(kind->u.str.s, pre, np))
    return;
  char k[32];
  size_t n = kind->u.str.len - np - 1;
  if (n >= sizeof k)
    return;
  memcpy(k, kind->u.str.s + np, n);
  k[n] = 0;
  static const char *const int_kinds[] = {"and", "or", "xor", "minui", "minsi", "maxui", "maxsi", NULL};
  static const char *const float_kinds[] = {"minnumf", "maxnumf", "minimumf", "maximumf", NULL};
  const Type *e = src->u.sh.elem;
  bool is_int = e->kind == TY_INT || e->kind == TY_INDEX, ok = true;
  for (const char *const *q = int_kinds; *q; q++)
    if (!strcmp(k, *q))
      ok = is_int;
  for (const char *const *q = float_kinds; *q; q++)
    if (!strcmp(k, *q))
      ok = e->kind == TY_FLOAT;
  if (!ok)
    op_fail(c, "unsupported reduction type ''%s'' for kind '%s'", ty(c, e), k);
}

static void vector_step(Check *c) {
  const Type *res = c->op->nresults == 1 ? c->op->results[0].type : NULL;
  if (res && (res->kind != TY_VECTOR || res->u.sh.rank != 1 || res->u.sh.elem->kind != TY_INDEX))
    op_fail(c, "result #0 must be vector of index values of ranks 1, but got '%s'", ty(c, res));
}

/* ---- the table ----------------------------------------------------------------------------- */

/* sorted by name, for ir_op_check_run */
static const OpCheck checks[] = {
    {"vector.bitcast", vector_bitcast},
    {"vector.broadcast", vector_broadcast},
    {"vector.compressstore", vector_masked},
    {"vector.constant_mask", vector_constant_mask},
    {"vector.create_mask", vector_create_mask},
    {"vector.expandload", vector_masked},
    {"vector.extract", vector_extract},
    {"vector.extract_strided_slice", extract_strided_slice},
    {"vector.from_elements", vector_from_elements},
    {"vector.gather", vector_gather},
    {"vector.insert", vector_insert},
    {"vector.insert_strided_slice", insert_strided_slice},
    {"vector.interleave", vector_interleave},
    {"vector.load", vector_load},
    {"vector.mask", vector_mask},
    {"vector.maskedload", vector_masked},
    {"vector.maskedstore", vector_masked},
    {"vector.multi_reduction", vector_multi_reduction},
    {"vector.reduction", vector_reduction},
    {"vector.scan", vector_scan},
    {"vector.scatter", vector_gather},
    {"vector.shape_cast", vector_shape_cast},
    {"vector.shuffle", vector_shuffle_length},
    {"vector.step", vector_step},
    {"vector.store", vector_store},
    {"vector.transfer_read", vector_transfer},
    {"vector.transfer_write", vector_transfer},
    {"vector.transpose", vector_transpose},
};

void ir_verify_vector(Check *c) {
  ir_op_check_run(checks, sizeof checks / sizeof *checks, c);
}
