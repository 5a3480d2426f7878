/* custom_memref.c - custom assembly forms of the memref dialect:
 *   alloc/alloca, dealloc, copy, dim, rank, global, get_global, subview, reinterpret_cast, view,
 *   expand_shape/collapse_shape, transpose, atomic_rmw, generic_atomic_rmw/atomic_yield,
 *   assume_alignment, extract_strided_metadata, extract_aligned_pointer_as_index,
 *   alloca_scope/alloca_scope.return, realloc, memory_space_cast
 * (memref.load/store and memref.cast use custom.c's load, store and cast_like), and the
 * dynamic index lists `[%a, 4, %b]` that scf.forall shares with subview and friends.
 *
 * Each parse_X fills the OpState with what `mlir-opt --mlir-print-op-generic` shows: inherent
 * attributes as properties, operandSegmentSizes where the op has them, and the implicit
 * terminators MLIR inserts (memref.alloca_scope.return). Each print_X declines (returns false
 * before writing) when the op has a shape the custom form cannot carry. */
#include "ir/internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Small shared pieces -------------------------------------------------------------------- */

static Attr *prop(const Op *op, const char *name) { return ir_dict_get(op->props, name); }

static bool only_props(const Op *op, const char *const *allowed) {
  if (op->props && op->props->kind != ATTR_DICT)
    return false;
  for (uint32_t i = 0; op->props && i < op->props->u.dict.n; i++) {
    bool ok = false;
    for (const char *const *a = allowed; a && *a && !ok; a++)
      ok = ir_str_eq(op->props->u.dict.entries[i].name, *a);
    if (!ok)
      return false;
  }
  return true;
}

static bool is_index(const Type *t) { return t->kind == TY_INDEX; }

/* ---- memref --------------------------------------------------------------------------------- */

/* An attr-dict whose `alignment` MLIR checks as soon as it is read (its verifyInherentAttrs),
 * reported at the dict. */
static bool attr_dict_aligned(Parser *p, OpState *st) {
  const char *pos = p_tok(p)->text;
  uint32_t from = st->nattrs;
  if (!p_opt_attr_dict(p, st))
    return false;
  for (uint32_t i = from; i < st->nattrs; i++)
    if (ir_str_eq(st->attrs[i].name, "alignment") && !ir_alignment_ok(st->attrs[i].value))
      return p_error_at(p, pos, "custom op '%.*s' '%.*s' op " IR_ALIGNMENT_CONSTRAINT, (int)st->name.len,
                        st->name.s, (int)st->name.len, st->name.s);
  return true;
}

/* alloc ::= `(` dynamic-sizes `)` (`[` symbols `]`)? attr-dict `:` memref-type */
bool parse_alloc(Parser *p, OpState *st) {
  OperandRef *dyn, *sym = NULL;
  uint32_t seg[2] = {0, 0};
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &dyn, &seg[0]) ||
      !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (p_opt(p, TOK_LSQUARE) &&
      (!p_operand_list(p, &sym, &seg[1]) || !p_expect(p, TOK_RSQUARE, "']'")))
    return false;
  Type *t;
  if (!attr_dict_aligned(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_MEMREF)
    return p_error_at(p, pos, "expected memref type");
  Type *index = ir_type_index(p_ctx(p));
  st_add_result_type(p, st, t);
  st_set_segments(p, st, seg, 2);
  return p_resolve_onto(p, st, dyn, seg[0], &index, 1) &&
         p_resolve_onto(p, st, sym, seg[1], &index, 1);
}

bool print_alloc(Printer *pr, Op *op) {
  static const char *const allowed[] = {"operandSegmentSizes", "alignment", NULL};
  int64_t seg[2];
  if (!ir_op_segments(op, seg, 2) || !only_props(op, allowed) || op->nresults != 1 ||
      op->results[0].type->kind != TY_MEMREF || op->nregions || op->nsuccs ||
      !ir_all_index(op->operands, op->noperands))
    return false;
  pr_char(pr, '(');
  pr_values(pr, op->operands, (uint32_t)seg[0]);
  pr_char(pr, ')');
  if (seg[1]) {
    pr_char(pr, '[');
    pr_values(pr, op->operands + seg[0], (uint32_t)seg[1]);
    pr_char(pr, ']');
  }
  static const char *const elide[] = {"operandSegmentSizes", NULL};
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* unary-memref ::= %m attr-dict `:` type   (dealloc) */
bool parse_dealloc(Parser *p, OpState *st) {
  OperandRef m;
  Type *t;
  return p_operand(p, &m) && p_opt_attr_dict(p, st) && p_expect(p, TOK_COLON, "':'") &&
         p_type(p, &t) && p_resolve_onto(p, st, &m, 1, &t, 1);
}

bool print_dealloc(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->nresults || op->props || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* copy ::= %src `,` %dst attr-dict `:` type `to` type */
bool parse_memref_copy(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  return p_operand(p, &r[0]) && p_expect(p, TOK_COMMA, "','") && p_operand(p, &r[1]) &&
         p_opt_attr_dict(p, st) && p_expect(p, TOK_COLON, "':'") && p_type(p, &t[0]) &&
         p_kw(p, "to") && p_type(p, &t[1]) && p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_memref_copy(Printer *pr, Op *op) {
  if (op->noperands != 2 || op->nresults || op->props || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->operands[1]->type);
  return true;
}

/* dim ::= %m `,` %i attr-dict `:` type ; the result is an index */
bool parse_dim(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]))
    return false;
  t[1] = ir_type_index(p_ctx(p));
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_dim(Printer *pr, Op *op) {
  if (op->noperands != 2 || op->nresults != 1 || !is_index(op->operands[1]->type) ||
      !is_index(op->results[0].type) || op->props || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* extract_aligned_pointer_as_index ::= %m attr-dict `:` type `->` type */
bool parse_extract_ptr(Parser *p, OpState *st) {
  OperandRef m;
  Type *t, *r;
  if (!p_operand(p, &m) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t) || !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &r))
    return false;
  st_add_result_type(p, st, r);
  return p_resolve_onto(p, st, &m, 1, &t, 1);
}

bool print_extract_ptr(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->nresults != 1 || op->props || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " -> ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* get_global ::= @name attr-dict `:` type */
bool parse_get_global(Parser *p, OpState *st) {
  Str name;
  Type *t;
  if (!p_symbol(p, &name) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_prop(p, st, "name", ir_attr_symref(p_ctx(p), &name, 1));
  st_add_result_type(p, st, t);
  return true;
}

bool print_get_global(Printer *pr, Op *op) {
  static const char *const allowed[] = {"name", NULL};
  Attr *name = prop(op, "name");
  if (!name || name->kind != ATTR_SYMREF || name->u.sym.n != 1 || !only_props(op, allowed) ||
      op->noperands || op->nresults != 1 || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.sym.path[0]);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* The tensor type with a memref type's shape and element type: what a global's initial value
 * is typed with. */
static Type *tensor_of(IrCtx *ctx, const Type *memref) {
  Type t = {0};
  t.kind = TY_TENSOR;
  t.u.sh.shape = memref->u.sh.shape;
  t.u.sh.rank = memref->u.sh.rank;
  t.u.sh.elem = memref->u.sh.elem;
  return ir_type_intern(ctx, &t);
}

static bool is_tensor_of(const Type *t, const Type *memref) {
  if (!t || t->kind != TY_TENSOR || t->u.sh.unranked || t->u.sh.memspace ||
      t->u.sh.elem != memref->u.sh.elem || t->u.sh.rank != memref->u.sh.rank)
    return false;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.shape[i] != memref->u.sh.shape[i])
      return false;
  return true;
}

/* global ::= (`"private"` | `"public"` | `"nested"`)? `constant`? @name `:` memref-type
 *            (`=` (`uninitialized` | elements-attr))? attr-dict */
bool parse_memref_global(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  if (p_is(p, TOK_STRING)) {
    Str vis;
    if (!p_string(p, &vis))
      return false;
    st_add_prop(p, st, "sym_visibility", ir_attr_string(ctx, vis.s, vis.len));
  }
  if (p_opt_kw(p, "constant"))
    st_add_prop(p, st, "constant", ir_attr_unit(ctx));
  Str name;
  Type *t;
  if (!p_symbol(p, &name) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  if (!p_type(p, &t))
    return false;
  bool is_static = t->kind == TY_MEMREF && !t->u.sh.unranked;
  for (uint32_t i = 0; is_static && i < t->u.sh.rank; i++)
    is_static = t->u.sh.shape[i] != IR_DYNAMIC;
  if (!is_static)
    return p_error_at(p, st->at, "custom op 'memref.global' type should be static shaped memref, but got '%s'",
                      ir_type_str(ctx, t));
  st_add_prop(p, st, "sym_name", ir_attr_string(ctx, name.s, name.len));
  st_add_prop(p, st, "type", ir_attr_type(ctx, t));
  if (p_opt(p, TOK_EQUAL)) {
    Attr *init;
    if (p_opt_kw(p, "uninitialized"))
      init = ir_attr_unit(ctx);
    else if (!p_attr(p, tensor_of(ctx, t), &init))
      return false;
    else if (init->kind != ATTR_DENSE && init->kind != ATTR_DENSE_RESOURCE && init->kind != ATTR_SPARSE)
      return p_error_at(p, st->at, "custom op 'memref.global' initial value should be a unit or elements attribute");
    else if (init->kind == ATTR_DENSE && !init->type)
      init->type = tensor_of(ctx, t); /* `= dense<...>` takes the memref's shape as a tensor */
    st_add_prop(p, st, "initial_value", init);
  }
  return attr_dict_aligned(p, st);
}

bool print_memref_global(Printer *pr, Op *op) {
  static const char *const allowed[] = {"sym_visibility", "constant",  "sym_name", "type",
                                        "initial_value",  "alignment", NULL};
  static const char *const elide[] = {"sym_visibility", "constant",      "sym_name",
                                      "type",           "initial_value", NULL};
  Attr *vis = prop(op, "sym_visibility"), *c = prop(op, "constant"), *name = prop(op, "sym_name");
  Attr *type = prop(op, "type"), *init = prop(op, "initial_value");
  if (!only_props(op, allowed) || !name || name->kind != ATTR_STRING || !type ||
      type->kind != ATTR_TYPE || type->type->kind != TY_MEMREF ||
      (vis && vis->kind != ATTR_STRING) || (c && c->kind != ATTR_UNIT) || op->noperands ||
      op->nresults || op->nregions || op->nsuccs)
    return false;
  if (init && init->kind != ATTR_UNIT &&
      !(init->kind == ATTR_DENSE && is_tensor_of(init->type, type->type)))
    return false;
  if (vis) {
    pr_char(pr, ' ');
    pr_string(pr, vis->u.str);
  }
  if (c)
    pr_str(pr, " constant");
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  pr_strn(pr, " : ", 3);
  pr_type(pr, type->type);
  if (init && init->kind == ATTR_UNIT) {
    pr_str(pr, " = uninitialized");
  } else if (init) {
    pr_strn(pr, " = ", 3);
    pr_strn(pr, init->u.str.s, init->u.str.len);
  }
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* ---- memref views: subview, reinterpret_cast, view, expand/collapse_shape ------------------- */

/* dynamic-index-list ::= `[` (%v | integer) (`,` ...)* `]`: static values into the named prop
 * (IR_DYNAMIC where a value stands), values resolved onto st; *ndyn counts them */
bool p_dynamic_index_list(Parser *p, OpState *st, const char *prop_name, uint32_t *ndyn,
                                bool parens) {
  TokKind close = parens ? TOK_RPAREN : TOK_RSQUARE;
  int64_t vals[64];
  uint32_t n = 0;
  *ndyn = 0;
  if (!p_expect(p, parens ? TOK_LPAREN : TOK_LSQUARE, parens ? "'('" : "'['"))
    return false;
  Type *index = ir_type_index(p_ctx(p));
  if (!p_opt(p, close)) {
    do {
      if (n == 64)
        return p_error(p, "too many indices");
      if (p_is(p, TOK_PERCENT)) {
        OperandRef r;
        if (!p_operand(p, &r) || !p_resolve_onto(p, st, &r, 1, &index, 1))
          return false;
        vals[n++] = IR_DYNAMIC;
        ++*ndyn;
      } else if (!p_int(p, &vals[n++])) {
        return false;
      }
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, close, parens ? "')'" : "']'"))
      return false;
  }
  st_add_prop(p, st, prop_name, ir_attr_dense_i64(p_ctx(p), vals, n));
  return true;
}

static bool parse_index_list(Parser *p, OpState *st, const char *prop_name, uint32_t *ndyn) {
  return p_dynamic_index_list(p, st, prop_name, ndyn, false);
}

/* Prints `[...]` (or `(...)`) from a static array and its dynamic operands; false if they
 * disagree. Checks only (prints nothing) when check is true. */
bool pr_dynamic_index_list(Printer *pr, const Attr *a, Value *const *dyn, uint32_t ndyn, bool check,
                          bool parens) {
  if (!ir_attr_is_dense_i64(a))
    return false;
  uint32_t k = 0;
  for (uint32_t i = 0; i < a->u.darr.n; i++)
    k += a->u.darr.ivals[i] == IR_DYNAMIC;
  if (k != ndyn || !ir_all_index(dyn, ndyn))
    return false;
  if (check)
    return true;
  pr_char(pr, parens ? '(' : '[');
  k = 0;
  for (uint32_t i = 0; i < a->u.darr.n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    if (a->u.darr.ivals[i] == IR_DYNAMIC)
      pr_value(pr, dyn[k++]);
    else
      pr_fmt(pr, "%lld", (long long)a->u.darr.ivals[i]);
  }
  pr_char(pr, parens ? ')' : ']');
  return true;
}

static bool index_list(Printer *pr, const Attr *a, Value *const *dyn, uint32_t ndyn, bool check) {
  return pr_dynamic_index_list(pr, a, dyn, ndyn, check, false);
}

/* subview ::= %src offsets sizes strides attr-dict `:` type `to` type
 * (offsets, sizes and strides are dynamic-index-lists) */
bool parse_subview(Parser *p, OpState *st) {
  OperandRef src;
  uint32_t seg[4] = {1, 0, 0, 0};
  Type *t[2];
  if (!p_operand(p, &src))
    return false;
  /* the source first: resolve later, after the index operands would be misplaced; so read
   * the index lists into a scratch state and splice */
  OpState idx = {0};
  if (!parse_index_list(p, &idx, "static_offsets", &seg[1]) ||
      !parse_index_list(p, &idx, "static_sizes", &seg[2]) ||
      !parse_index_list(p, &idx, "static_strides", &seg[3]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_kw(p, "to") || !p_type(p, &t[1]))
    return false;
  if (!p_resolve_onto(p, st, &src, 1, &t[0], 1))
    return false;
  for (uint32_t i = 0; i < idx.noperands; i++)
    st_add_operand(p, st, idx.operands[i]);
  for (uint32_t i = 0; i < idx.nprops; i++)
    st_add_prop(p, st, idx.props[i].name.s, idx.props[i].value);
  st_set_segments(p, st, seg, 4);
  st_add_result_type(p, st, t[1]);
  return true;
}

static bool offsets_sizes_strides_fit(const Op *op, int64_t *seg) {
  static const char *const allowed[] = {"operandSegmentSizes", "static_offsets", "static_sizes",
                                        "static_strides", NULL};
  if (!ir_op_segments(op, seg, 4) || seg[0] != 1 || !only_props(op, allowed) || op->nresults != 1 ||
      op->nregions || op->nsuccs)
    return false;
  Value *const *d = op->operands + 1;
  return index_list(NULL, prop(op, "static_offsets"), d, (uint32_t)seg[1], true) &&
         index_list(NULL, prop(op, "static_sizes"), d + seg[1], (uint32_t)seg[2], true) &&
         index_list(NULL, prop(op, "static_strides"), d + seg[1] + seg[2], (uint32_t)seg[3], true);
}

static const char *const oss_elide[] = {"operandSegmentSizes", "static_offsets", "static_sizes",
                                        "static_strides", NULL};

bool print_subview(Printer *pr, Op *op) {
  int64_t seg[4];
  if (!offsets_sizes_strides_fit(op, seg))
    return false;
  Value *const *d = op->operands + 1;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  index_list(pr, prop(op, "static_offsets"), d, (uint32_t)seg[1], false);
  pr_char(pr, ' ');
  index_list(pr, prop(op, "static_sizes"), d + seg[1], (uint32_t)seg[2], false);
  pr_char(pr, ' ');
  index_list(pr, prop(op, "static_strides"), d + seg[1] + seg[2], (uint32_t)seg[3], false);
  pr_attr_dict(pr, op, oss_elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* reinterpret_cast ::= %src `to` `offset:` list `,` `sizes:` list `,` `strides:` list attr-dict
 *                      `:` type `to` type */
bool parse_reinterpret_cast(Parser *p, OpState *st) {
  OperandRef src;
  uint32_t seg[4] = {1, 0, 0, 0};
  Type *t[2];
  OpState idx = {0};
  if (!p_operand(p, &src) || !p_kw(p, "to") || !p_kw(p, "offset") ||
      !p_expect(p, TOK_COLON, "':'") || !parse_index_list(p, &idx, "static_offsets", &seg[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_kw(p, "sizes") || !p_expect(p, TOK_COLON, "':'") ||
      !parse_index_list(p, &idx, "static_sizes", &seg[2]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_kw(p, "strides") || !p_expect(p, TOK_COLON, "':'") ||
      !parse_index_list(p, &idx, "static_strides", &seg[3]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_kw(p, "to") || !p_type(p, &t[1]))
    return false;
  if (!p_resolve_onto(p, st, &src, 1, &t[0], 1))
    return false;
  for (uint32_t i = 0; i < idx.noperands; i++)
    st_add_operand(p, st, idx.operands[i]);
  for (uint32_t i = 0; i < idx.nprops; i++)
    st_add_prop(p, st, idx.props[i].name.s, idx.props[i].value);
  st_set_segments(p, st, seg, 4);
  st_add_result_type(p, st, t[1]);
  return true;
}

bool print_reinterpret_cast(Printer *pr, Op *op) {
  int64_t seg[4];
  if (!offsets_sizes_strides_fit(op, seg))
    return false;
  Value *const *d = op->operands + 1;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_str(pr, " to offset: ");
  index_list(pr, prop(op, "static_offsets"), d, (uint32_t)seg[1], false);
  pr_str(pr, ", sizes: ");
  index_list(pr, prop(op, "static_sizes"), d + seg[1], (uint32_t)seg[2], false);
  pr_str(pr, ", strides: ");
  index_list(pr, prop(op, "static_strides"), d + seg[1] + seg[2], (uint32_t)seg[3], false);
  pr_attr_dict(pr, op, oss_elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* view ::= %src `[` %byte_shift `]` `[` sizes `]` attr-dict `:` type `to` type */
bool parse_view(Parser *p, OpState *st) {
  OperandRef src, shift, *sizes;
  uint32_t n;
  Type *t[2];
  if (!p_operand(p, &src) || !p_expect(p, TOK_LSQUARE, "'['") || !p_operand(p, &shift) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_expect(p, TOK_LSQUARE, "'['") ||
      !p_operand_list(p, &sizes, &n) || !p_expect(p, TOK_RSQUARE, "']'") ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_kw(p, "to") || !p_type(p, &t[1]))
    return false;
  Type *index = ir_type_index(p_ctx(p));
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, &src, 1, &t[0], 1) && p_resolve_onto(p, st, &shift, 1, &index, 1) &&
         p_resolve_onto(p, st, sizes, n, &index, 1);
}

bool print_view(Printer *pr, Op *op) {
  if (op->noperands < 2 || op->nresults != 1 || op->props || op->nregions || op->nsuccs ||
      !ir_all_index(op->operands + 1, op->noperands - 1))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  pr_value(pr, op->operands[1]);
  pr_strn(pr, "][", 2);
  pr_values(pr, op->operands + 2, op->noperands - 2);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* reassociation ::= `[` `[` integer, ... `]`, ... `]`, kept as an array of arrays of i64 */
static bool reassociation_fits(const Attr *a) {
  if (!a || a->kind != ATTR_ARRAY)
    return false;
  for (uint32_t i = 0; i < a->u.arr.n; i++) {
    const Attr *g = a->u.arr.elems[i];
    if (g->kind != ATTR_ARRAY)
      return false;
    for (uint32_t j = 0; j < g->u.arr.n; j++)
      if (g->u.arr.elems[j]->kind != ATTR_INT || g->u.arr.elems[j]->u.i.big ||
          !ir_type_is_integer(g->u.arr.elems[j]->type, 64))
        return false;
  }
  return true;
}

static void print_reassociation(Printer *pr, const Attr *a) {
  pr_strn(pr, " [", 2);
  for (uint32_t i = 0; i < a->u.arr.n; i++) {
    const Attr *g = a->u.arr.elems[i];
    pr_str(pr, i ? ", [" : "[");
    for (uint32_t j = 0; j < g->u.arr.n; j++)
      pr_fmt(pr, j ? ", %lld" : "%lld", (long long)g->u.arr.elems[j]->u.i.v);
    pr_char(pr, ']');
  }
  pr_char(pr, ']');
}

/* collapse_shape ::= %src reassociation attr-dict `:` type `into` type
 * expand_shape   ::= %src reassociation `output_shape` dynamic-index-list attr-dict
 *                    `:` type `into` type */
static bool parse_reshape(Parser *p, OpState *st, bool expand) {
  OperandRef src;
  Attr *re;
  Type *t[2];
  OpState idx = {0};
  uint32_t ndyn = 0;
  if (!p_operand(p, &src) || !p_attr(p, NULL, &re))
    return false;
  if (!reassociation_fits(re))
    return p_error(p, "expected a reassociation list");
  if (expand &&
      (!p_kw(p, "output_shape") || !parse_index_list(p, &idx, "static_output_shape", &ndyn)))
    return false;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_kw(p, "into") || !p_type(p, &t[1]) || !p_resolve_onto(p, st, &src, 1, &t[0], 1))
    return false;
  st_add_prop(p, st, "reassociation", re);
  for (uint32_t i = 0; i < idx.noperands; i++)
    st_add_operand(p, st, idx.operands[i]);
  for (uint32_t i = 0; i < idx.nprops; i++)
    st_add_prop(p, st, idx.props[i].name.s, idx.props[i].value);
  st_add_result_type(p, st, t[1]);
  return true;
}

static bool print_reshape(Printer *pr, Op *op, bool expand) {
  static const char *const allowed[] = {"reassociation", "static_output_shape", NULL};
  Attr *re = prop(op, "reassociation"), *shape = prop(op, "static_output_shape");
  if (!op->noperands || op->nresults != 1 || op->nregions || op->nsuccs ||
      !only_props(op, allowed) || !reassociation_fits(re) || (expand != (shape != NULL)) ||
      (!expand && op->noperands != 1) ||
      (expand && !index_list(NULL, shape, op->operands + 1, op->noperands - 1, true)))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  print_reassociation(pr, re);
  if (expand) {
    pr_str(pr, " output_shape ");
    index_list(pr, shape, op->operands + 1, op->noperands - 1, false);
  }
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " into ");
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_collapse_shape(Parser *p, OpState *st) { return parse_reshape(p, st, false); }
bool print_collapse_shape(Printer *pr, Op *op) { return print_reshape(pr, op, false); }
bool parse_expand_shape(Parser *p, OpState *st) { return parse_reshape(p, st, true); }
bool print_expand_shape(Printer *pr, Op *op) { return print_reshape(pr, op, true); }

/* ---- memref.atomic_rmw ---------------------------------------------------------------------- */

/* arith's AtomicRMWKind, in the order of its values */
static const char *const rmw_kinds[] = {
    "addf",    "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf",
    "minnumf", "mins", "minu", "mulf",   "muli",     "ori",     "xori", NULL};

/* atomic_rmw ::= kind %v `,` %m `[` indices `]` attr-dict `:` `(` type `,` memref-type `)`
 *                `->` type */
bool parse_atomic_rmw(Parser *p, OpState *st) {
  int64_t kind = -1;
  for (int i = 0; rmw_kinds[i]; i++)
    if (p_is_kw(p, rmw_kinds[i]))
      kind = i;
  if (kind < 0)
    return p_error(p, "expected atomic rmw kind");
  p_next(p);
  OperandRef v, m, *idx;
  uint32_t n;
  Type *vt, *mt, *rt;
  if (!p_operand(p, &v) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &m) ||
      !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_expect(p, TOK_LPAREN, "'('") || !p_type(p, &vt) ||
      !p_expect(p, TOK_COMMA, "','") || !p_type(p, &mt) || !p_expect(p, TOK_RPAREN, "')'") ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &rt))
    return false;
  Type *index = ir_type_index(p_ctx(p));
  st_add_prop(p, st, "kind", ir_attr_int(p_ctx(p), ir_type_int(p_ctx(p), 64, SIGNLESS), kind));
  st_add_result_type(p, st, rt);
  return p_resolve_onto(p, st, &v, 1, &vt, 1) && p_resolve_onto(p, st, &m, 1, &mt, 1) &&
         p_resolve_onto(p, st, idx, n, &index, 1);
}

bool print_atomic_rmw(Printer *pr, Op *op) {
  static const char *const allowed[] = {"kind", NULL};
  Attr *k = prop(op, "kind");
  if (!k || k->kind != ATTR_INT || k->u.i.big || k->u.i.v < 0 || k->u.i.v > 15 ||
      !ir_type_is_integer(k->type, 64) || !only_props(op, allowed) || op->noperands < 2 ||
      op->nresults != 1 || op->nregions || op->nsuccs ||
      !ir_all_index(op->operands + 2, op->noperands - 2))
    return false;
  pr_char(pr, ' ');
  pr_str(pr, rmw_kinds[k->u.i.v]);
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, ", ", 2);
  pr_value(pr, op->operands[1]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + 2, op->noperands - 2);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : (", 4);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, op->operands[1]->type);
  pr_strn(pr, ") -> ", 5);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- memref.rank, assume_alignment, extract_strided_metadata, generic_atomic_rmw ------------ */

/* rank ::= %m attr-dict `:` type ; the result is an index */
bool parse_memref_rank(Parser *p, OpState *st) {
  OperandRef m;
  Type *t;
  if (!p_operand(p, &m) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return p_resolve_onto(p, st, &m, 1, &t, 1);
}

bool print_memref_rank(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->nresults != 1 || !is_index(op->results[0].type) || op->props ||
      op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* assume_alignment ::= %m `,` integer attr-dict `:` type ; the result has the operand's type */
bool parse_assume_alignment(Parser *p, OpState *st) {
  OperandRef m;
  int64_t a;
  Type *t;
  if (!p_operand(p, &m) || !p_expect(p, TOK_COMMA, "','") || !p_int(p, &a) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_prop(p, st, "alignment", ir_attr_int(p_ctx(p), ir_type_int(p_ctx(p), 32, SIGNLESS), a));
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &m, 1, &t, 1);
}

bool print_assume_alignment(Printer *pr, Op *op) {
  static const char *const allowed[] = {"alignment", NULL};
  Attr *a = prop(op, "alignment");
  if (!a || a->kind != ATTR_INT || a->u.i.big || !ir_type_is_integer(a->type, 32) ||
      !only_props(op, allowed) || op->noperands != 1 || op->nresults != 1 ||
      op->results[0].type != op->operands[0]->type || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_fmt(pr, ", %lld", (long long)a->u.i.v);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* extract_strided_metadata ::= %m `:` type `->` types attr-dict */
bool parse_strided_metadata(Parser *p, OpState *st) {
  OperandRef m;
  Type *t, **rs;
  uint32_t n;
  if (!p_operand(p, &m) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type_list(p, &rs, &n) || !p_opt_attr_dict(p, st))
    return false;
  for (uint32_t i = 0; i < n; i++)
    st_add_result_type(p, st, rs[i]);
  return p_resolve_onto(p, st, &m, 1, &t, 1);
}

bool print_strided_metadata(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->nresults < 2 || op->props || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " -> ");
  for (uint32_t i = 0; i < op->nresults; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_type(pr, op->results[i].type);
  }
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* generic_atomic_rmw ::= %m `[` indices `]` `:` memref-type region attr-dict
 * The region spells out its block argument; the result is the element type. */
bool parse_generic_atomic_rmw(Parser *p, OpState *st) {
  OperandRef m, *idx;
  uint32_t n;
  Type *t;
  if (!p_operand(p, &m) || !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_MEMREF)
    return p_error_at(p, pos, "expected memref type");
  Type *index = ir_type_index(p_ctx(p));
  if (!p_resolve_onto(p, st, &m, 1, &t, 1) || !p_resolve_onto(p, st, idx, n, &index, 1))
    return false;
  st_add_result_type(p, st, t->u.sh.elem);
  Region *r = st_add_region(p, st);
  return p_region(p, r, NULL, 0, false) && p_opt_attr_dict(p, st);
}

bool print_generic_atomic_rmw(Printer *pr, Op *op) {
  if (!op->noperands || op->operands[0]->type->kind != TY_MEMREF || op->nresults != 1 ||
      op->results[0].type != op->operands[0]->type->u.sh.elem || op->props || op->nregions != 1 ||
      op->nsuccs || !op->regions[0].first || !ir_all_index(op->operands + 1, op->noperands - 1))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + 1, op->noperands - 1);
  pr_strn(pr, "] : ", 4);
  pr_type(pr, op->operands[0]->type);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], true, false);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* ---- memref.transpose ----------------------------------------------------------------------- */

/* transpose ::= %m `(` dims `)` `->` `(` dims `)` attr-dict `:` type `to` type
 * The permutation is written with any dimension names; it is kept as the affine map
 * `affine_map<(d0, ...) -> (dK, ...)>`. */
bool parse_transpose(Parser *p, OpState *st) {
  OperandRef m;
  Str names[32];
  uint32_t n = 0, perm[32], np = 0;
  if (!p_operand(p, &m) || !p_expect(p, TOK_LPAREN, "'('"))
    return false;
  if (!p_is(p, TOK_RPAREN)) {
    do {
      if (n == 32)
        return p_error(p, "too many dimensions");
      if (!p_bare(p, &names[n++]))
        return false;
    } while (p_opt(p, TOK_COMMA));
  }
  if (!p_expect(p, TOK_RPAREN, "')'") || !p_expect(p, TOK_ARROW, "'->'") ||
      !p_expect(p, TOK_LPAREN, "'('"))
    return false;
  if (!p_is(p, TOK_RPAREN)) {
    do {
      Str d;
      const char *pos = p_tok(p)->text;
      if (np == 32 || !p_bare(p, &d))
        return np == 32 ? p_error(p, "too many results") : false;
      uint32_t k = 0;
      while (k < n && !(names[k].len == d.len && memcmp(names[k].s, d.s, d.len) == 0))
        k++;
      if (k == n)
        return p_error_at(p, pos, "expected a permutation of the dimensions");
      perm[np++] = k;
    } while (p_opt(p, TOK_COMMA));
  }
  Type *t[2];
  if (!p_expect(p, TOK_RPAREN, "')'") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_kw(p, "to") || !p_type(p, &t[1]))
    return false;
  char buf[1024];
  int o = snprintf(buf, sizeof buf, "affine_map<(");
  for (uint32_t i = 0; i < n; i++)
    o += snprintf(buf + o, sizeof buf - (size_t)o, i ? ", d%u" : "d%u", i);
  o += snprintf(buf + o, sizeof buf - (size_t)o, ") -> (");
  for (uint32_t i = 0; i < np; i++)
    o += snprintf(buf + o, sizeof buf - (size_t)o, i ? ", d%u" : "d%u", perm[i]);
  o += snprintf(buf + o, sizeof buf - (size_t)o, ")>");
  Attr *a = ir_alloc(p_ctx(p), sizeof *a);
  a->kind = ATTR_AFFINE_MAP;
  a->u.str = ir_intern(p_ctx(p), buf, (size_t)o);
  st_add_prop(p, st, "permutation", a);
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, &m, 1, &t[0], 1);
}

/* The map body `(d0, ...) -> (...)` of an `affine_map<...>` whose dimensions are d0..dN-1 and
 * whose results are plain dimensions, or false. */
static bool plain_dim_map(const Attr *a, Str *body) {
  static const char pre[] = "affine_map<(";
  if (!a || a->kind != ATTR_AFFINE_MAP || a->u.str.len < sizeof pre + 1 ||
      memcmp(a->u.str.s, pre, sizeof pre - 1) != 0 || a->u.str.s[a->u.str.len - 1] != '>')
    return false;
  const char *s = a->u.str.s + sizeof pre - 2, *end = a->u.str.s + a->u.str.len - 1;
  *body = (Str){s, (uint32_t)(end - s)};
  /* only d<digits>, commas, spaces, parens and one arrow */
  for (const char *c = s; c < end; c++)
    if (!(*c == 'd' || (*c >= '0' && *c <= '9') || *c == ',' || *c == ' ' || *c == '(' ||
          *c == ')' || (*c == '-' && c + 1 < end && c[1] == '>') ||
          (*c == '>' && c > s && c[-1] == '-')))
      return false;
  return true;
}

bool print_transpose(Printer *pr, Op *op) {
  static const char *const allowed[] = {"permutation", NULL};
  Str body;
  if (!plain_dim_map(prop(op, "permutation"), &body) || !only_props(op, allowed) ||
      op->noperands != 1 || op->nresults != 1 || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, ' ');
  pr_strn(pr, body.s, body.len);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}


/* ---- memref.alloca_scope, realloc --------------------------------------------------------- */

/* alloca_scope ::= (`->` `(` types `)`)? region attr-dict
 * An empty memref.alloca_scope.return ends the body when the source leaves it out; the printer
 * leaves it out when the scope has no results, as MLIR does. */
bool parse_alloca_scope(Parser *p, OpState *st) {
  if (p_opt(p, TOK_ARROW)) {
    Type **types;
    uint32_t n;
    if (!p_result_types(p, &types, &n))
      return false;
    for (uint32_t i = 0; i < n; i++)
      st_add_result_type(p, st, types[i]);
  }
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, NULL, 0, false))
    return false;
  p_ensure_terminator(p, r, "memref.alloca_scope.return", st->src);
  return p_opt_attr_dict(p, st);
}

bool print_alloca_scope(Printer *pr, Op *op) {
  Region *r = op->nregions == 1 ? &op->regions[0] : NULL;
  if (op->noperands || op->props || op->nsuccs || !r || !r->first || r->first->nargs ||
      (!op->nresults && !ir_region_ends_in_bare(r, "memref.alloca_scope.return")))
    return false;
  if (op->nresults) {
    pr_str(pr, " -> (");
    for (uint32_t i = 0; i < op->nresults; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_type(pr, op->results[i].type);
    }
    pr_strn(pr, ") ", 2);
    pr_region(pr, r, false, false);
  } else {
    pr_char(pr, ' ');
    pr_region_no_terminators(pr, r, false);
  }
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* realloc ::= %src (`(` %size `)`)? attr-dict `:` memref-type `to` memref-type */
bool parse_realloc(Parser *p, OpState *st) {
  OperandRef src, size;
  bool sized = false;
  Type *from, *to, *index = ir_type_index(p_ctx(p));
  if (!p_operand(p, &src))
    return false;
  if (p_opt(p, TOK_LPAREN)) {
    if (!p_operand(p, &size) || !p_expect(p, TOK_RPAREN, "')'"))
      return false;
    sized = true;
  }
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &from) ||
      !p_kw(p, "to") || !p_type(p, &to))
    return false;
  st_add_result_type(p, st, to);
  return p_resolve_onto(p, st, &src, 1, &from, 1) &&
         (!sized || p_resolve_onto(p, st, &size, 1, &index, 1));
}

bool print_realloc(Printer *pr, Op *op) {
  static const char *const allowed[] = {"alignment", NULL};
  if (op->noperands < 1 || op->noperands > 2 || op->nresults != 1 || op->nregions || op->nsuccs ||
      !only_props(op, allowed) || (op->noperands == 2 && !is_index(op->operands[1]->type)))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (op->noperands == 2) {
    pr_char(pr, '(');
    pr_value(pr, op->operands[1]);
    pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}
