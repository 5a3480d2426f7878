/* verify_llvm.c - the checks of op semantics MLIR's verifiers make for llvm ops: positions in
 * aggregates, getelementptr indices, constants against their types, calls against their callees,
 * returns against their function, globals and their uses. verify_ops.c calls ir_verify_llvm for
 * every llvm.* op it has no check of its own for (branches and compares are its, as they share
 * cf's and arith's); each check reports in mlir-opt's words, on the op, and returns at its first
 * problem as MLIR's verifiers do. */
#include "ir/verify_check.h"

/* The type at position pos[0..n) inside an LLVM aggregate, or NULL after reporting. */
static const Type *aggregate_at(Check *c, const Type *t, const int64_t *pos, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (t->kind == TY_LLVM_ARRAY) {
      if (pos[i] < 0 || (uint64_t)pos[i] >= t->u.arr.count) {
        op_fail(c, "position out of bounds: %lld", (long long)pos[i]);
        return NULL;
      }
      t = t->u.arr.elem;
    } else if (t->kind == TY_LLVM_STRUCT && !t->u.agg.opaque) {
      if (pos[i] < 0 || (uint64_t)pos[i] >= t->u.agg.n) {
        op_fail(c, "position out of bounds: %lld", (long long)pos[i]);
        return NULL;
      }
      t = t->u.agg.elems[pos[i]];
    } else {
      op_fail(c, "expected LLVM IR structure/array type, got: '%s'", ty(c, t));
      return NULL;
    }
  }
  return t;
}

static void llvm_extractvalue(Check *c) {
  int64_t pos[MAX_RANK];
  uint32_t n;
  if (c->op->noperands != 1 || c->op->nresults != 1 || !int_list(ir_op_attr(c->op, "position"), pos, &n))
    return;
  const Type *agg = c->op->operands[0]->type, *t = aggregate_at(c, agg, pos, n);
  if (t && t != c->op->results[0].type)
    op_fail(c, "Type mismatch: extracting from '%s' should produce '%s' but this op returns '%s'", ty(c, agg),
            ty(c, t), ty(c, c->op->results[0].type));
}

static void llvm_insertvalue(Check *c) {
  int64_t pos[MAX_RANK];
  uint32_t n;
  if (c->op->noperands != 2 || !int_list(ir_op_attr(c->op, "position"), pos, &n))
    return;
  const Type *agg = c->op->operands[0]->type, *t = aggregate_at(c, agg, pos, n);
  if (t && t != c->op->operands[1]->type)
    op_fail(c, "Type mismatch: cannot insert '%s' into '%s'", ty(c, c->op->operands[1]->type), ty(c, agg));
}

#define GEP_DYNAMIC INT32_MIN

/* llvm.getelementptr: an index into a struct is a constant within the struct. */
static void llvm_gep(Check *c) {
  Attr *et = ir_op_attr(c->op, "elem_type"), *raw = ir_op_attr(c->op, "rawConstantIndices");
  if (!et || et->kind != ATTR_TYPE || !raw || raw->kind != ATTR_DENSE_ARRAY || !raw->u.darr.ivals)
    return;
  uint32_t ndyn = 0;
  for (uint32_t i = 0; i < raw->u.darr.n; i++)
    ndyn += raw->u.darr.ivals[i] == GEP_DYNAMIC;
  if (c->op->noperands && ndyn != c->op->noperands - 1) { /* a constant that reads as the marker */
    op_fail(c, "expected as many dynamic indices as specified in 'rawConstantIndices'");
    return;
  }
  const Type *t = et->type;
  for (uint32_t i = 1; i < raw->u.darr.n && t; i++) {
    int64_t k = raw->u.darr.ivals[i];
    if (t->kind == TY_LLVM_STRUCT && !t->u.agg.opaque) {
      if (k == GEP_DYNAMIC) {
        op_fail(c, "expected index %u indexing a struct to be constant", i);
        return;
      }
      if (k < 0 || (uint64_t)k >= t->u.agg.n) {
        op_fail(c, "index %u indexing a struct is out of bounds", i);
        return;
      }
      t = t->u.agg.elems[k];
    } else if (t->kind == TY_LLVM_ARRAY) {
      t = t->u.arr.elem;
    } else if (t->kind == TY_VECTOR) {
      t = t->u.sh.elem;
    } else {
      return;
    }
  }
}

/* The scalars of a vector, or of an llvm.array of them (nested), as MLIR counts a constant's
 * type; UINT64_MAX for any other type. */
static uint64_t llvm_const_elems(const Type *t) {
  uint64_t n = 1;
  bool array = false;
  for (; t && t->kind == TY_LLVM_ARRAY; t = t->u.arr.elem, array = true)
    n *= t->u.arr.count;
  if (t && array && (t->kind == TY_INT || t->kind == TY_FLOAT))
    return n;
  if (!t || t->kind != TY_VECTOR || t->u.sh.scalable)
    return UINT64_MAX;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    n *= (uint64_t)t->u.sh.shape[i];
  return n;
}

/* llvm.mlir.constant: of an LLVM type, and of elements as many as its type holds. */
static void llvm_constant(Check *c) {
  const Type *rt = c->op->nresults == 1 ? c->op->results[0].type : NULL;
  if (rt && (rt->kind == TY_INDEX || rt->kind == TY_MEMREF || rt->kind == TY_UNRANKED_MEMREF ||
             rt->kind == TY_TENSOR || rt->kind == TY_COMPLEX)) { /* not an LLVM type */
    op_fail(c, "result #0 must be LLVM dialect-compatible type, but got '%s'", ty(c, rt));
    return;
  }
  Attr *v = ir_op_attr(c->op, "value");
  if (!v || v->kind != ATTR_DENSE || !v->type || v->type->kind == TY_MEMREF || v->type->u.sh.unranked ||
      c->op->nresults != 1)
    return;
  uint64_t want = llvm_const_elems(c->op->results[0].type), have = 1;
  for (uint32_t i = 0; i < v->type->u.sh.rank; i++)
    have *= (uint64_t)v->type->u.sh.shape[i];
  if (want != UINT64_MAX && want != have)
    op_fail(c, "type and attribute have a different number of elements: %llu vs. %llu", (unsigned long long)want,
            (unsigned long long)have);
}

static void llvm_extractelement(Check *c) {
  const Type *v = c->op->noperands == 2 ? vector_of(c->op->operands[0]->type) : NULL;
  if (v && c->op->nresults == 1 && c->op->results[0].type != v->u.sh.elem)
    op_fail(c, "failed to verify that result type matches vector element type");
}

static void llvm_select(Check *c) {
  if (c->op->noperands == 3 && c->op->nresults == 1 &&
      (c->op->operands[1]->type != c->op->operands[2]->type || c->op->operands[1]->type != c->op->results[0].type))
    op_fail(c, "failed to verify that all of {trueValue, falseValue, res} have same type");
}

/* llvm.zext and llvm.sext widen an integer (or a vector of them). */
static void llvm_extend(Check *c) {
  if (c->op->noperands != 1 || c->op->nresults != 1)
    return;
  const Type *a = elem_of(c->op->operands[0]->type), *b = elem_of(c->op->results[0].type);
  if (a->kind == TY_INT && b->kind == TY_INT && b->u.i.width <= a->u.i.width)
    bare_fail(c, "integer width of the output type is smaller or equal to the integer width of the input type");
}

static void llvm_load(Check *c) {
  if (c->op->noperands == 1 && c->op->operands[0]->type->kind != TY_LLVM_PTR)
    op_fail(c, "operand #0 must be LLVM pointer type, but got '%s'", ty(c, c->op->operands[0]->type));
}

static void llvm_store(Check *c) {
  if (c->op->noperands == 2 && c->op->operands[1]->type->kind != TY_LLVM_PTR)
    op_fail(c, "operand #1 must be LLVM pointer type, but got '%s'", ty(c, c->op->operands[1]->type));
}

static Op *symbol(const Op *from, const Attr *ref) {
  if (!ref || ref->kind != ATTR_SYMREF || ref->u.sym.n != 1)
    return NULL;
  for (Op *t = ir_op_parent_op(from); t; t = ir_op_parent_op(t))
    if (t->info && (t->info->flags & OPF_SYMBOL_TABLE))
      return ir_symbol_lookup(t, ref->u.sym.path[0]);
  return NULL;
}

static const Type *llvm_func_type(const Op *fn) {
  Attr *ft = fn ? ir_op_attr(fn, "function_type") : NULL;
  return ft && ft->kind == ATTR_TYPE && ft->type->kind == TY_LLVM_FUNC ? ft->type : NULL;
}

/* A direct llvm.call passes what its llvm.func callee takes. */
static void llvm_call(Check *c) {
  Attr *callee = ir_op_attr(c->op, "callee");
  Op *fn = symbol(c->op, callee);
  if (callee && callee->kind == ATTR_SYMREF && callee->u.sym.n == 1 && !fn) {
    op_fail(c, "'%.*s' does not reference a symbol in the current scope", (int)callee->u.sym.path[0].len,
            callee->u.sym.path[0].s);
    return;
  }
  if (fn && !ir_str_eq(fn->name, "llvm.func") && !ir_str_eq(fn->name, "llvm.mlir.ifunc")) {
    op_fail(c, "'%.*s' does not reference a valid LLVM function or IFunc", (int)callee->u.sym.path[0].len,
            callee->u.sym.path[0].s);
    return;
  }
  const Type *ft = fn && ir_str_eq(fn->name, "llvm.func") ? llvm_func_type(fn) : NULL;
  if (!ft)
    return;
  int64_t seg[2];
  uint32_t n = ir_op_segments(c->op, seg, 2) ? (uint32_t)seg[0] : c->op->noperands;
  uint32_t np = ft->u.lfn.nparams;
  if (ft->u.lfn.vararg ? n < np : n != np) {
    op_fail(c, "incorrect number of operands (%u) for callee (expecting: %u)", n, np);
    return;
  }
  for (uint32_t i = 0; i < np; i++)
    if (c->op->operands[i]->type != ft->u.lfn.params[i]) {
      op_fail(c, "operand type mismatch for operand %u: '%s' != '%s'", i, ty(c, c->op->operands[i]->type),
              ty(c, ft->u.lfn.params[i]));
      return;
    }
}

static void llvm_return(Check *c) {
  Op *fn = ir_op_parent_op(c->op);
  const Type *ft = fn && ir_str_eq(fn->name, "llvm.func") ? llvm_func_type(fn) : NULL;
  if (!ft)
    return;
  bool is_void = ft->u.lfn.ret->kind == TY_LLVM_VOID;
  if (is_void && c->op->noperands)
    op_fail(c, "expected no operands");
  else if (!is_void && c->op->noperands != 1)
    op_fail(c, "expected 1 operand");
  else if (!is_void && c->op->operands[0]->type != ft->u.lfn.ret)
    op_fail(c, "mismatching result types");
  if (c->errors)
    note_on(c, fn, "when returning from function");
}

static void llvm_addressof(Check *c) {
  Attr *ref = ir_op_attr(c->op, "global_name");
  Op *g = symbol(c->op, ref);
  if (ref && ref->kind == ATTR_SYMREF && ref->u.sym.n == 1 &&
      (!g || !(ir_str_eq(g->name, "llvm.mlir.global") || ir_str_eq(g->name, "llvm.func") ||
               ir_str_eq(g->name, "llvm.mlir.alias") || ir_str_eq(g->name, "llvm.mlir.ifunc"))))
    op_fail(c, "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'");
  else if (g && c->op->nresults == 1 && c->op->results[0].type->kind == TY_LLVM_PTR &&
           (ir_str_eq(g->name, "llvm.mlir.global") || ir_str_eq(g->name, "llvm.mlir.alias"))) {
    /* a pointer to a global is in the global's address space (functions have none) */
    Attr *as = ir_op_attr(g, "addr_space");
    int64_t space = as && as->kind == ATTR_INT && !as->u.i.big ? as->u.i.v : 0;
    if (space != (int64_t)c->op->results[0].type->u.ptr.addrspace)
      op_fail(c, "pointer address space must match address space of the referenced global or alias");
  }
}

/* llvm.mlir.global: its address space is not negative, and a string initializer fills an array of
 * exactly as many 8-bit integers. */
static void llvm_global(Check *c) {
  Attr *as = ir_op_attr(c->op, "addr_space");
  if (as && as->kind == ATTR_INT && !as->u.i.big && (int32_t)as->u.i.v < 0) {
    op_fail(c, "attribute 'addr_space' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative");
    return;
  }
  Attr *val = ir_op_attr(c->op, "value"), *gt = ir_op_attr(c->op, "global_type");
  if (!val || val->kind != ATTR_STRING || !gt || gt->kind != ATTR_TYPE)
    return;
  const Type *t = gt->type;
  if (t->kind != TY_LLVM_ARRAY || t->u.arr.elem->kind != TY_INT || t->u.arr.elem->u.i.width != 8 ||
      t->u.arr.count != val->u.str.len)
    op_fail(c, "requires an i8 array type of the length equal to that of the string attribute");
}

static void llvm_insertelement(Check *c) {
  const Type *v = c->op->noperands == 3 ? vector_of(c->op->operands[0]->type) : NULL;
  if (v && c->op->operands[1]->type != v->u.sh.elem)
    op_fail(c, "failed to verify that argument type matches vector element type");
}

/* ---- the table ----------------------------------------------------------------------------- */

/* sorted by name, for ir_op_check_run */
static const OpCheck checks[] = {
    {"llvm.call", llvm_call},
    {"llvm.extractelement", llvm_extractelement},
    {"llvm.extractvalue", llvm_extractvalue},
    {"llvm.getelementptr", llvm_gep},
    {"llvm.insertelement", llvm_insertelement},
    {"llvm.insertvalue", llvm_insertvalue},
    {"llvm.load", llvm_load},
    {"llvm.mlir.addressof", llvm_addressof},
    {"llvm.mlir.constant", llvm_constant},
    {"llvm.mlir.global", llvm_global},
    {"llvm.return", llvm_return},
    {"llvm.select", llvm_select},
    {"llvm.sext", llvm_extend},
    {"llvm.store", llvm_store},
    {"llvm.zext", llvm_extend},
};

void ir_verify_llvm(Check *c) {
  ir_op_check_run(checks, sizeof checks / sizeof *checks, c);
}
