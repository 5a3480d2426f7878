/* verify_check.h - private to ir/: what the op checks of verify_ops.c, verify_llvm.c and
 * verify_vector.c share: the check's state, how a check reports (in mlir-opt's words, on the
 * op), and small readers of types and attributes. */
#ifndef IR_VERIFY_CHECK_H
#define IR_VERIFY_CHECK_H

#include "ir/internal.h"

#include <string.h>

typedef struct Check {
  IrCtx *ctx;
  Op *op;
  unsigned errors;
} Check;

#define MAX_RANK 64

/* "'name' op " + message, on the op. */
#define op_fail(c, ...) (ir_op_error((c)->ctx, (c)->op, __VA_ARGS__), (c)->errors++)

/* A message without the op prefix (as MLIR's type inference writes some), on the op. */
#define bare_fail(c, ...) (ir_op_diag((c)->ctx, DIAG_ERROR, (c)->op, __VA_ARGS__), (c)->errors++)

/* A note on another op, after an error. */
static inline void note_on(Check *c, const Op *at, const char *msg) { ir_op_diag(c->ctx, DIAG_NOTE, at, "%s", msg); }

static inline const char *ty(Check *c, const Type *t) { return ir_type_str(c->ctx, t); }

/* The rank of a ranked memref or tensor, or -1. */
static inline int shaped_rank(const Type *t) {
  return t && (t->kind == TY_MEMREF || t->kind == TY_TENSOR) && !t->u.sh.unranked ? (int)t->u.sh.rank : -1;
}

static inline const Type *vector_of(const Type *t) { return t && t->kind == TY_VECTOR ? t : NULL; }

/* An integer attribute list: a dense i64 array (array<i64: ...>) or an array of integers. */
static inline bool int_list(const Attr *a, int64_t *out, uint32_t *n) {
  if (!a)
    return false;
  if (a->kind == ATTR_DENSE_ARRAY && a->u.darr.ivals && a->u.darr.n <= MAX_RANK) {
    memcpy(out, a->u.darr.ivals, a->u.darr.n * sizeof *out);
    *n = a->u.darr.n;
    return true;
  }
  if (a->kind != ATTR_ARRAY || a->u.arr.n > MAX_RANK)
    return false;
  for (uint32_t i = 0; i < a->u.arr.n; i++) {
    const Attr *e = a->u.arr.elems[i];
    if (e->kind != ATTR_INT || e->u.i.big)
      return false;
    out[i] = e->u.i.v;
  }
  *n = a->u.arr.n;
  return true;
}

static inline const Type *elem_of(const Type *t) {
  switch (t->kind) {
  case TY_MEMREF: case TY_TENSOR: case TY_VECTOR: case TY_UNRANKED_MEMREF: return t->u.sh.elem;
  default: return t;
  }
}

/* An affine map's text "affine_map<(d0, d1)[s0] -> (d1, 0, d0 + s0)>" read as MLIR's verifiers
 * look at it: the numbers of dimensions and symbols, and each result as a bare dimension (its
 * position), the constant 0, or anything else. */
enum { MAP_OTHER = -1, MAP_ZERO = -2 };
typedef struct MapShape {
  uint32_t ndims, nsyms, nres;
  int64_t res[MAX_RANK]; /* a position, MAP_ZERO or MAP_OTHER */
} MapShape;
bool ir_map_shape(Str text, MapShape *m);

/* The bits of an integer or float type; 0 for others. */
uint32_t ir_bit_width(const Type *t);

/* The rank of operand `base` when it is a ranked memref or tensor that takes other than nidx
 * indices, else -1. */
int ir_wrong_indices(Check *c, uint32_t base, int64_t nidx);

/* A table entry: an op name and its check. Tables are sorted by name. */
typedef struct OpCheck {
  const char *name;
  void (*fn)(Check *);
} OpCheck;

/* Runs the check table[0..n) has for c's op, if any; whether it had one. */
bool ir_op_check_run(const OpCheck *table, size_t n, Check *c);

/* The check of an llvm.* op that has one (verify_llvm.c). */
void ir_verify_llvm(Check *c);

/* The check of a vector.* op that has one (verify_vector.c). */
void ir_verify_vector(Check *c);

#endif
