/* custom_vector.c - custom assembly forms of the vector dialect:
 *   print, extract, insert, load, store, from_elements, to_elements, reduction, step, shuffle,
 *   constant_mask, create_mask, maskedload/maskedstore, gather/scatter, expandload/compressstore,
 *   interleave/deinterleave, transpose, extract/insert_strided_slice, scalable.insert/extract,
 *   vscale, multi_reduction, scan, outerproduct, contract, transfer_read/transfer_write, mask
 * (broadcast, bitcast, shape_cast and type_cast use custom.c's cast_like, yield its return_like,
 * fma custom_arith.c's ternary).
 *
 * As everywhere in ir/, parse_X fills the OpState with what `mlir-opt --mlir-print-op-generic`
 * shows, and print_X declines (returns false before writing) when the op has a shape its custom
 * form cannot carry. Defaults MLIR always sets are set here too and left out when printing:
 * vector.print's `#vector.punctuation<newline>`, outerproduct's `#vector.kind<add>`, and the
 * transfers' permutation map (the minor identity) and in_bounds (all false); a transfer's mask
 * type is inferred from its map. (`#arith.fastmath<none>` is the exception: parser.c drops it,
 * so an absent fastmath means the default.) */
#include "ir/internal.h"

#include <string.h>

/* ---- Small shared pieces -------------------------------------------------------------------- */

static Attr *prop(const Op *op, const char *name) { return ir_dict_get(op->props, name); }

static bool plain(const Op *op) { return !op->nregions && !op->nsuccs && ir_op_props_inherent(op); }

static Attr *opaque(IrCtx *ctx, const char *text, size_t len) {
  Attr *a = ir_alloc(ctx, sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern(ctx, text, len);
  return a;
}

/* (`kw` `<` ... `>`)? into the property prop_name as `#prefix<...>` */
static bool parse_opt_flags(Parser *p, OpState *st, const char *kw, const char *prop_name,
                            const char *prefix) {
  if (!p_is_kw(p, kw))
    return true;
  Attr *a;
  if (!p_flags_attr(p, prefix, &a))
    return false;
  st_add_prop(p, st, prop_name, a);
  return true;
}

static bool parse_opt_fastmath(Parser *p, OpState *st) {
  return parse_opt_flags(p, st, "fastmath", "fastmath", "arith.fastmath");
}

/* ---- vector.print -------------------------------------------------------------------------- */

static const char newline_punct[] = "#vector.punctuation<newline>";

/* Whether the %name at the parser's position starts the results of the next op (`%r = `,
 * `%r, %s = `, `%r:2 = `) rather than being an operand. */
static bool at_next_results(Parser *p) {
  if (!p_is(p, TOK_PERCENT))
    return false;
  const char *c = p->lx.cur, *end = p->lx.end;
  if (c < end && *c == ':' && c + 1 < end && c[1] >= '0' && c[1] <= '9')
    for (c++; c < end && *c >= '0' && *c <= '9'; c++)
      ;
  while (c < end && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
    c++;
  return c < end && (*c == '=' || *c == ',');
}

/* print ::= (%source `:` type)? (`str` string | `punctuation` `<` kind `>`)* attr-dict
 * The punctuation defaults to newline; MLIR always sets it. A bare `vector.print` before a line
 * `%r = ...` reads `%r` as its source in MLIR; here it does not. */
bool parse_vector_print(Parser *p, OpState *st) {
  OperandRef src;
  if (!at_next_results(p) && p_opt_operand(p, &src)) {
    Type *t;
    if (!p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) || !p_resolve_onto(p, st, &src, 1, &t, 1))
      return false;
  } else if (p_failed(p)) {
    return false;
  }
  bool have_str = false, have_punct = false;
  for (;;) {
    if (!have_str && p_opt_kw(p, "str")) {
      Str s;
      if (!p_string(p, &s))
        return false;
      st_add_prop(p, st, "stringLiteral", ir_attr_string(p_ctx(p), s.s, s.len));
      have_str = true;
    } else if (!have_punct && p_is_kw(p, "punctuation")) {
      Attr *a;
      if (!p_flags_attr(p, "vector.punctuation", &a))
        return false;
      st_add_prop(p, st, "punctuation", a);
      have_punct = true;
    } else {
      break;
    }
  }
  if (!have_punct)
    st_add_prop(p, st, "punctuation", opaque(p_ctx(p), newline_punct, sizeof newline_punct - 1));
  return p_opt_attr_dict(p, st);
}

bool print_vector_print(Printer *pr, Op *op) {
  static const char *const elide[] = {"stringLiteral", "punctuation", NULL};
  Attr *s = prop(op, "stringLiteral"), *punct = prop(op, "punctuation");
  if (op->noperands > 1 || op->nresults || !plain(op) || (s && s->kind != ATTR_STRING) ||
      !pr_flags_fit(punct, "vector.punctuation"))
    return false;
  bool wrote = false;
  if (op->noperands) {
    pr_char(pr, ' ');
    pr_value(pr, op->operands[0]);
    pr_strn(pr, " : ", 3);
    pr_type(pr, op->operands[0]->type);
    wrote = true;
  }
  if (s) {
    pr_str(pr, " str ");
    pr_string(pr, s->u.str);
    wrote = true;
  }
  bool newline = !punct || ir_str_eq(punct->u.str, newline_punct);
  /* A bare `vector.print` would take the first result of a next line `%r = ...` as its source,
   * so the default punctuation is spelled out there. */
  const Op *next = op->next;
  bool ambiguous = !wrote && next && next->nresults && !op->attrs && !pr_locations(pr);
  if (punct && (!newline || ambiguous))
    pr_flags(pr, punct, "vector.punctuation", "punctuation ");
  else if (ambiguous)
    pr_str(pr, " punctuation <newline>");
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* position ::= `[` (%v | integer) (`,` ...)* `]` into the static_position property (IR_DYNAMIC
 * where an index value stands); the values are returned in dyn[0..*ndyn), to resolve after the
 * operands that precede them */
static bool parse_position(Parser *p, OpState *st, OperandRef *dyn, uint32_t *ndyn) {
  int64_t vals[64];
  uint32_t n = 0;
  *ndyn = 0;
  if (!p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  if (!p_opt(p, TOK_RSQUARE)) {
    do {
      if (n == 64)
        return p_error(p, "too many positions");
      if (p_is(p, TOK_PERCENT)) {
        if (!p_operand(p, &dyn[(*ndyn)++]))
          return false;
        vals[n++] = IR_DYNAMIC;
      } else if (!p_int(p, &vals[n++])) {
        return false;
      }
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RSQUARE, "']'"))
      return false;
  }
  st_add_prop(p, st, "static_position", ir_attr_dense_i64(p_ctx(p), vals, n));
  return true;
}

/* Whether static_position matches the dynamic operands dyn[0..ndyn), all of type index. */
static bool position_fits(const Op *op, Value *const *dyn, uint32_t ndyn) {
  const Attr *a = prop(op, "static_position");
  if (!a || a->kind != ATTR_DENSE_ARRAY || !ir_type_is_integer(a->type, 64) || a->u.darr.fvals)
    return false;
  uint32_t k = 0;
  for (uint32_t i = 0; i < a->u.darr.n; i++)
    k += a->u.darr.ivals[i] == IR_DYNAMIC;
  for (uint32_t i = 0; i < ndyn; i++)
    if (dyn[i]->type->kind != TY_INDEX)
      return false;
  return k == ndyn;
}

static void print_position(Printer *pr, const Op *op, Value *const *dyn) {
  const Attr *a = prop(op, "static_position");
  uint32_t k = 0;
  pr_char(pr, '[');
  for (uint32_t i = 0; i < a->u.darr.n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    if (a->u.darr.ivals[i] == IR_DYNAMIC)
      pr_value(pr, dyn[k++]);
    else
      pr_fmt(pr, "%lld", (long long)a->u.darr.ivals[i]);
  }
  pr_char(pr, ']');
}

/* extract ::= %vector position attr-dict `:` type `from` type */
bool parse_vector_extract(Parser *p, OpState *st) {
  OperandRef v, dyn[64];
  uint32_t ndyn;
  Type *res, *vt, *index = ir_type_index(p_ctx(p));
  if (!p_operand(p, &v) || !parse_position(p, st, dyn, &ndyn) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &res) || !p_kw(p, "from") || !p_type(p, &vt))
    return false;
  st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, &v, 1, &vt, 1) && p_resolve_onto(p, st, dyn, ndyn, &index, 1);
}

bool print_vector_extract(Printer *pr, Op *op) {
  static const char *const elide[] = {"static_position", NULL};
  if (op->noperands < 1 || op->nresults != 1 || !plain(op) ||
      !position_fits(op, op->operands + 1, op->noperands - 1))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  print_position(pr, op, op->operands + 1);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  pr_str(pr, " from ");
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* insert ::= %value `,` %dest position attr-dict `:` type `into` type */
bool parse_vector_insert(Parser *p, OpState *st) {
  OperandRef r[2], dyn[64];
  uint32_t ndyn;
  Type *t[2], *index = ir_type_index(p_ctx(p));
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_position(p, st, dyn, &ndyn) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_kw(p, "into") || !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 2, t, 2) && p_resolve_onto(p, st, dyn, ndyn, &index, 1);
}

bool print_vector_insert(Printer *pr, Op *op) {
  static const char *const elide[] = {"static_position", NULL};
  if (op->noperands < 2 || op->nresults != 1 || !plain(op) ||
      op->operands[1]->type != op->results[0].type ||
      !position_fits(op, op->operands + 2, op->noperands - 2))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_char(pr, ' ');
  print_position(pr, op, op->operands + 2);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " into ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* load ::= %base `[` indices `]` attr-dict `:` memref-type `,` vector-type
 * store ::= %value `,` %base `[` indices `]` attr-dict `:` memref-type `,` vector-type */
static bool parse_vector_access(Parser *p, OpState *st, bool store) {
  OperandRef v, m, *idx;
  uint32_t n;
  if ((store && (!p_operand(p, &v) || !p_expect(p, TOK_COMMA, "','"))) || !p_operand(p, &m) ||
      !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  Type *mt, *vt;
  if (!p_type(p, &mt) || !p_expect(p, TOK_COMMA, "','") || !p_type(p, &vt))
    return false;
  if (mt->kind != TY_MEMREF)
    return p_error_at(p, pos, "expected memref type");
  Type *index = ir_type_index(p_ctx(p));
  if (!store)
    st_add_result_type(p, st, vt);
  else if (!p_resolve_onto(p, st, &v, 1, &vt, 1))
    return false;
  return p_resolve_onto(p, st, &m, 1, &mt, 1) && p_resolve_onto(p, st, idx, n, &index, 1);
}

static bool print_vector_access(Printer *pr, Op *op, bool store) {
  uint32_t base = store ? 1 : 0;
  if (op->noperands < base + 1 || op->nresults != (store ? 0u : 1u) || !plain(op) ||
      op->operands[base]->type->kind != TY_MEMREF)
    return false;
  for (uint32_t i = base + 1; i < op->noperands; i++)
    if (op->operands[i]->type->kind != TY_INDEX)
      return false;
  pr_char(pr, ' ');
  if (store) {
    pr_value(pr, op->operands[0]);
    pr_strn(pr, ", ", 2);
  }
  pr_value(pr, op->operands[base]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + base + 1, op->noperands - base - 1);
  pr_char(pr, ']');
  /* `nontemporal = false` is the default, which MLIR leaves out of the custom form */
  static const char *const elide[] = {"nontemporal", NULL};
  const Attr *nt = prop(op, "nontemporal");
  pr_attr_dict(pr, op, nt && nt->kind == ATTR_BOOL && !nt->u.b ? elide : NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[base]->type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, store ? op->operands[0]->type : op->results[0].type);
  return true;
}

bool parse_vector_load(Parser *p, OpState *st) { return parse_vector_access(p, st, false); }
bool print_vector_load(Printer *pr, Op *op) { return print_vector_access(pr, op, false); }
bool parse_vector_store(Parser *p, OpState *st) { return parse_vector_access(p, st, true); }
bool print_vector_store(Printer *pr, Op *op) { return print_vector_access(pr, op, true); }

/* from_elements ::= operands attr-dict `:` vector-type   (one element operand per lane) */
bool parse_from_elements(Parser *p, OpState *st) {
  OperandRef *refs;
  uint32_t n;
  if (!p_operand_list(p, &refs, &n) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  Type *t;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_VECTOR)
    return p_error_at(p, pos, "expected vector type");
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, refs, n, &t->u.sh.elem, 1);
}

bool print_from_elements(Printer *pr, Op *op) {
  if (op->nresults != 1 || !plain(op) || op->results[0].type->kind != TY_VECTOR ||
      !ir_values_typed(op->operands, op->noperands, op->results[0].type->u.sh.elem))
    return false;
  if (op->noperands) {
    pr_char(pr, ' ');
    pr_values(pr, op->operands, op->noperands);
  }
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* `<` kind `>` into the property `kind` as `#vector.kind<...>` */
static bool parse_kind(Parser *p, OpState *st) {
  if (!p_is(p, TOK_LESS))
    return p_error(p, "expected '<'");
  const char *body;
  uint32_t blen;
  p->lx.cur = p->tok.text;
  if (!p_balanced(p, &body, &blen, "expected '<'"))
    return false;
  char buf[256];
  int o = snprintf(buf, sizeof buf, "#vector.kind%.*s", (int)blen, body);
  if (o >= (int)sizeof buf)
    return p_error(p, "combining kind too long");
  st_add_prop(p, st, "kind", opaque(p_ctx(p), buf, (size_t)o));
  p_next(p);
  return true;
}

/* ` <kind>` of a `#vector.kind<...>` property that pr_flags_fit accepted */
static void print_kind(Printer *pr, const Attr *kind) {
  size_t n = sizeof "#vector.kind" - 1;
  pr_char(pr, ' ');
  pr_strn(pr, kind->u.str.s + n, kind->u.str.len - n);
}

/* reduction ::= `<` kind `>` `,` %vector (`,` %acc)? (`fastmath` `<`...`>`)? attr-dict
 *               `:` type `into` type */
bool parse_vector_reduction(Parser *p, OpState *st) {
  if (!parse_kind(p, st))
    return false;
  OperandRef r[2];
  uint32_t n = 1;
  if (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[0]))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &r[1]))
      return false;
    n = 2;
  }
  Type *vt, *rt;
  if (!parse_opt_fastmath(p, st) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &vt) || !p_kw(p, "into") || !p_type(p, &rt))
    return false;
  st_add_result_type(p, st, rt);
  return p_resolve_onto(p, st, &r[0], 1, &vt, 1) && p_resolve_onto(p, st, &r[1], n - 1, &rt, 1);
}

bool print_vector_reduction(Printer *pr, Op *op) {
  static const char *const elide[] = {"kind", "fastmath", NULL};
  Attr *kind = prop(op, "kind"), *fm = prop(op, "fastmath");
  if (op->noperands < 1 || op->noperands > 2 || op->nresults != 1 || !plain(op) || !kind ||
      !pr_flags_fit(kind, "vector.kind") || !pr_flags_fit(fm, "arith.fastmath") ||
      (op->noperands == 2 && op->operands[1]->type != op->results[0].type))
    return false;
  print_kind(pr, kind);
  pr_strn(pr, ", ", 2);
  pr_values(pr, op->operands, op->noperands);
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " into ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* step ::= attr-dict `:` type */
bool parse_vector_step(Parser *p, OpState *st) {
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return true;
}

bool print_vector_step(Printer *pr, Op *op) {
  if (op->noperands || op->nresults != 1 || !plain(op))
    return false;
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* `[` integer (`,` integer)* `]` (possibly empty) into the dense i64 property prop_name */
static bool parse_int_list(Parser *p, OpState *st, const char *prop_name) {
  int64_t vals[64];
  uint32_t n = 0;
  if (!p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  if (!p_opt(p, TOK_RSQUARE)) {
    do {
      if (n == 64)
        return p_error(p, "too many integers");
      if (!p_int(p, &vals[n++]))
        return false;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RSQUARE, "']'"))
      return false;
  }
  st_add_prop(p, st, prop_name, ir_attr_dense_i64(p_ctx(p), vals, n));
  return true;
}

static void print_int_list(Printer *pr, const Attr *a) {
  pr_char(pr, '[');
  for (uint32_t i = 0; i < a->u.darr.n; i++)
    pr_fmt(pr, i ? ", %lld" : "%lld", (long long)a->u.darr.ivals[i]);
  pr_char(pr, ']');
}

/* The result of vector.shuffle: as many leading elements as the mask has, the trailing
 * dimensions of the first operand (a 0-d vector gives a 1-d result). */
static Type *shuffle_result(IrCtx *ctx, const Type *v1, uint32_t nmask) {
  Type t = *v1;
  int64_t shape[64];
  uint32_t rank = v1->u.sh.rank ? v1->u.sh.rank : 1;
  if (rank > 64)
    return NULL;
  shape[0] = nmask;
  for (uint32_t i = 1; i < rank; i++)
    shape[i] = v1->u.sh.shape[i];
  t.u.sh.shape = shape;
  t.u.sh.rank = rank;
  t.u.sh.scalable = NULL;
  return ir_type_intern(ctx, &t);
}

/* shuffle ::= %v1 `,` %v2 `[` integers `]` attr-dict `:` type `,` type */
bool parse_vector_shuffle(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_int_list(p, st, "mask") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  Attr *mask = NULL;
  for (uint32_t i = 0; i < st->nprops; i++)
    if (ir_str_eq(st->props[i].name, "mask"))
      mask = st->props[i].value;
  Type *res = t[0]->kind == TY_VECTOR ? shuffle_result(p_ctx(p), t[0], mask->u.darr.n) : NULL;
  if (!res)
    return p_error_at(p, pos, "expected vector type");
  st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_vector_shuffle(Printer *pr, Op *op) {
  static const char *const elide[] = {"mask", NULL};
  Attr *mask = prop(op, "mask");
  if (op->noperands != 2 || op->nresults != 1 || !plain(op) || !ir_attr_is_dense_i64(mask) ||
      op->operands[0]->type->kind != TY_VECTOR || op->operands[0]->type->u.sh.scalable ||
      op->results[0].type->kind != TY_VECTOR || op->results[0].type->u.sh.scalable)
    return false;
  /* the result is inferred; compare it without interning anything */
  const Type *v1 = op->operands[0]->type, *res = op->results[0].type;
  uint32_t rank = v1->u.sh.rank ? v1->u.sh.rank : 1;
  if (res->u.sh.elem != v1->u.sh.elem || res->u.sh.rank != rank ||
      res->u.sh.shape[0] != (int64_t)mask->u.darr.n)
    return false;
  for (uint32_t i = 1; i < rank; i++)
    if (res->u.sh.shape[i] != v1->u.sh.shape[i])
      return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_char(pr, ' ');
  print_int_list(pr, mask);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

/* constant-mask ::= `[` integers `]` attr-dict `:` type */
bool parse_constant_mask(Parser *p, OpState *st) {
  Type *t;
  if (!parse_int_list(p, st, "mask_dim_sizes") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return true;
}

bool print_constant_mask(Printer *pr, Op *op) {
  static const char *const elide[] = {"mask_dim_sizes", NULL};
  Attr *m = prop(op, "mask_dim_sizes");
  if (op->noperands || op->nresults != 1 || !plain(op) || !ir_attr_is_dense_i64(m))
    return false;
  pr_char(pr, ' ');
  print_int_list(pr, m);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* operands-of-type ::= operands attr-dict `:` type   (create_mask: index operands; to_elements:
 * one vector operand and a result per element; vscale: no operands, an index, no type) */
bool parse_create_mask(Parser *p, OpState *st) {
  OperandRef *refs;
  uint32_t n;
  Type *t, *index = ir_type_index(p_ctx(p));
  if (!p_operand_list(p, &refs, &n) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, refs, n, &index, 1);
}

bool print_create_mask(Printer *pr, Op *op) {
  if (op->nresults != 1 || !plain(op))
    return false;
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type->kind != TY_INDEX)
      return false;
  if (op->noperands) {
    pr_char(pr, ' ');
    pr_values(pr, op->operands, op->noperands);
  }
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

static uint64_t num_elements(const Type *v) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < v->u.sh.rank; i++)
    n *= v->u.sh.shape[i] < 0 ? 0 : (uint64_t)v->u.sh.shape[i];
  return n;
}

bool parse_to_elements(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_VECTOR || t->u.sh.scalable || num_elements(t) > 65536)
    return p_error_at(p, pos, "expected a fixed-size vector type");
  for (uint64_t i = num_elements(t); i > 0; i--)
    st_add_result_type(p, st, t->u.sh.elem);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_to_elements(Printer *pr, Op *op) {
  if (op->noperands != 1 || !plain(op))
    return false;
  const Type *t = op->operands[0]->type;
  if (t->kind != TY_VECTOR || t->u.sh.scalable || num_elements(t) != op->nresults)
    return false;
  for (uint32_t i = 0; i < op->nresults; i++)
    if (op->results[i].type != t->u.sh.elem)
      return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, t);
  return true;
}

bool parse_vector_vscale(Parser *p, OpState *st) {
  if (!p_opt_attr_dict(p, st))
    return false;
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return true;
}

bool print_vector_vscale(Printer *pr, Op *op) {
  if (op->noperands || op->nresults != 1 || op->results[0].type->kind != TY_INDEX || !plain(op))
    return false;
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* interleave ::= %a `,` %b attr-dict `:` type `->` type
 * deinterleave ::= %a attr-dict `:` type `->` type   (two results of the second type) */
static bool parse_leave(Parser *p, OpState *st, uint32_t nin, uint32_t nout) {
  OperandRef r[2];
  Type *t, *res;
  for (uint32_t i = 0; i < nin; i++)
    if ((i && !p_expect(p, TOK_COMMA, "','")) || !p_operand(p, &r[i]))
      return false;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &res))
    return false;
  for (uint32_t i = 0; i < nout; i++)
    st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, r, nin, &t, 1);
}

static bool print_leave(Printer *pr, Op *op, uint32_t nin, uint32_t nout) {
  if (op->noperands != nin || op->nresults != nout || !plain(op) ||
      !ir_values_typed(op->operands, nin, op->operands[0]->type) ||
      (nout == 2 && op->results[1].type != op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, nin);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " -> ");
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_interleave(Parser *p, OpState *st) { return parse_leave(p, st, 2, 1); }
bool print_interleave(Printer *pr, Op *op) { return print_leave(pr, op, 2, 1); }
bool parse_deinterleave(Parser *p, OpState *st) { return parse_leave(p, st, 1, 2); }
bool print_deinterleave(Printer *pr, Op *op) { return print_leave(pr, op, 1, 2); }

/* transpose ::= %v `,` `[` integers `]` attr-dict `:` type `to` type */
bool parse_vector_transpose(Parser *p, OpState *st) {
  OperandRef r;
  Type *t, *res;
  if (!p_operand(p, &r) || !p_expect(p, TOK_COMMA, "','") ||
      !parse_int_list(p, st, "permutation") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) || !p_kw(p, "to") || !p_type(p, &res))
    return false;
  st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_vector_transpose(Printer *pr, Op *op) {
  static const char *const elide[] = {"permutation", NULL};
  Attr *perm = prop(op, "permutation");
  if (op->noperands != 1 || op->nresults != 1 || !plain(op) || !ir_attr_is_dense_i64(perm))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, ", ", 2);
  print_int_list(pr, perm);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* strided-slice ::= %v attr-dict `:` type `to` type            (extract_strided_slice)
 *                 | %v `,` %dest attr-dict `:` type `into` type (insert_strided_slice)
 * offsets, sizes and strides are in the attribute dictionary. */
bool parse_strided_slice(Parser *p, OpState *st) {
  OperandRef r[2];
  uint32_t n = 1;
  if (!p_operand(p, &r[0]))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &r[1]))
      return false;
    n = 2;
  }
  Type *t[2];
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_kw(p, n == 2 ? "into" : "to") || !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, n, t, n);
}

bool print_strided_slice(Printer *pr, Op *op) {
  if (op->noperands < 1 || op->noperands > 2 || op->nresults != 1 || !plain(op) ||
      (op->noperands == 2 && op->operands[1]->type != op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, op->noperands == 2 ? " into " : " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* masked ::= %base `[` indices `]` (`[` %index-vec `]`)? `,` %mask `,` %value attr-dict
 *            `:` types (`into` type)?
 * maskedload/gather read (`into` the result type), maskedstore/scatter write; gather and
 * scatter have the index vector. */
static bool parse_masked(Parser *p, OpState *st, bool gather, bool load) {
  OperandRef base, *idx, iv, mv[2];
  uint32_t n;
  if (!p_operand(p, &base) || !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'"))
    return false;
  if (gather &&
      (!p_expect(p, TOK_LSQUARE, "'['") || !p_operand(p, &iv) || !p_expect(p, TOK_RSQUARE, "']'")))
    return false;
  Type *t[4], *res = NULL, *index = ir_type_index(p_ctx(p));
  uint32_t nt = gather ? 4 : 3;
  if (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &mv[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_operand(p, &mv[1]) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  for (uint32_t i = 0; i < nt; i++)
    if ((i && !p_expect(p, TOK_COMMA, "','")) || !p_type(p, &t[i]))
      return false;
  if (load && (!p_kw(p, "into") || !p_type(p, &res)))
    return false;
  if (res)
    st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, &base, 1, &t[0], 1) && p_resolve_onto(p, st, idx, n, &index, 1) &&
         (!gather || p_resolve_onto(p, st, &iv, 1, &t[1], 1)) &&
         p_resolve_onto(p, st, mv, 2, &t[nt - 2], 2);
}

static bool print_masked(Printer *pr, Op *op, bool gather, bool load) {
  uint32_t fixed = gather ? 4 : 3; /* base, index vector, mask, value */
  if (op->noperands < fixed || op->nresults != (load ? 1u : 0u) || !plain(op))
    return false;
  uint32_t nidx = op->noperands - fixed;
  for (uint32_t i = 1; i <= nidx; i++)
    if (op->operands[i]->type->kind != TY_INDEX)
      return false;
  Value *const *tail = op->operands + 1 + nidx; /* index vector?, mask, value */
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + 1, nidx);
  pr_char(pr, ']');
  if (gather) {
    pr_strn(pr, " [", 2);
    pr_value(pr, tail[0]);
    pr_char(pr, ']');
  }
  pr_strn(pr, ", ", 2);
  pr_values(pr, tail + gather, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  for (uint32_t i = 0; i < fixed - 1; i++) {
    pr_strn(pr, ", ", 2);
    pr_type(pr, tail[i]->type);
  }
  if (load) {
    pr_str(pr, " into ");
    pr_type(pr, op->results[0].type);
  }
  return true;
}

bool parse_maskedload(Parser *p, OpState *st) { return parse_masked(p, st, false, true); }
bool print_maskedload(Printer *pr, Op *op) { return print_masked(pr, op, false, true); }
bool parse_maskedstore(Parser *p, OpState *st) { return parse_masked(p, st, false, false); }
bool print_maskedstore(Printer *pr, Op *op) { return print_masked(pr, op, false, false); }
bool parse_gather(Parser *p, OpState *st) { return parse_masked(p, st, true, true); }
bool print_gather(Printer *pr, Op *op) { return print_masked(pr, op, true, true); }
bool parse_scatter(Parser *p, OpState *st) { return parse_masked(p, st, true, false); }
bool print_scatter(Printer *pr, Op *op) { return print_masked(pr, op, true, false); }

/* ---- vector.transfer_read / transfer_write -------------------------------------------------- */

/* The results of a transfer's permutation map `affine_map<(d0, ...) -> (r, ...)>`: res[i] is the
 * dimension a result names, or -1 for a broadcast `0`. False for anything else. */
static bool transfer_map(const Attr *a, uint32_t *ndims, int32_t *res, uint32_t *nres) {
  static const char pre[] = "affine_map<(";
  if (!a || a->kind != ATTR_AFFINE_MAP || a->u.str.len < sizeof pre ||
      memcmp(a->u.str.s, pre, sizeof pre - 1) != 0)
    return false;
  const char *c = a->u.str.s + sizeof pre - 1, *end = a->u.str.s + a->u.str.len;
  *ndims = 0;
  *nres = 0;
  while (c < end && *c == 'd') {
    uint32_t k = 0;
    for (c++; c < end && *c >= '0' && *c <= '9'; c++)
      k = k * 10 + (uint32_t)(*c - '0');
    if (k != *ndims || *ndims == 64)
      return false;
    ++*ndims;
    if (c + 1 < end && c[0] == ',' && c[1] == ' ')
      c += 2;
  }
  if (end - c < 6 || memcmp(c, ") -> (", 6) != 0)
    return false;
  for (c += 6; c < end && *c != ')';) {
    if (*nres == 64)
      return false;
    if (*c == '0') {
      res[(*nres)++] = -1;
      c++;
    } else if (*c == 'd') {
      int32_t k = 0;
      for (c++; c < end && *c >= '0' && *c <= '9' && k < 100000; c++)
        k = k * 10 + (*c - '0');
      if ((uint32_t)k >= *ndims)
        return false;
      res[(*nres)++] = k;
    } else {
      return false;
    }
    if (c + 1 < end && c[0] == ',' && c[1] == ' ')
      c += 2;
  }
  return end - c == 2 && c[0] == ')' && c[1] == '>';
}

/* The number of results of an affine map's text, 0 if it has none or is not read. */
static uint32_t map_results(Str text) {
  const char *c = text.s, *end = text.s + text.len, *arrow = NULL;
  for (; c + 1 < end && !arrow; c++)
    if (c[0] == '-' && c[1] == '>')
      arrow = c;
  if (!arrow)
    return 0;
  for (c = arrow; c < end && *c != '('; c++)
    ;
  uint32_t n = 0, depth = 0;
  bool any = false;
  for (c++; c < end; c++) {
    if (*c == '(')
      depth++;
    else if (*c == ')' && !depth)
      return any ? n + 1 : 0;
    else if (*c == ')')
      depth--;
    else if (*c == ',' && !depth)
      n++;
    else if (*c != ' ')
      any = true;
  }
  return 0;
}

/* `affine_map<(d0, ..., dN-1) -> (dN-r, ..., dN-1)>`, what a transfer has when no map is given */
static Str minor_identity(IrCtx *ctx, uint32_t ndims, uint32_t nres) {
  char buf[1024];
  int o = snprintf(buf, sizeof buf, "affine_map<(");
  for (uint32_t i = 0; i < ndims && o < 900; i++)
    o += snprintf(buf + o, sizeof buf - (size_t)o, i ? ", d%u" : "d%u", i);
  o += snprintf(buf + o, sizeof buf - (size_t)o, ") -> (");
  for (uint32_t i = ndims - nres; i < ndims && o < 1000; i++)
    o += snprintf(buf + o, sizeof buf - (size_t)o, i > ndims - nres ? ", d%u" : "d%u", i);
  o += snprintf(buf + o, sizeof buf - (size_t)o, ")>");
  return ir_intern(ctx, buf, (size_t)o);
}

/* How many vector dimensions a transfer moves: those of the vector type less those of a vector
 * element type of the memref. */
static uint32_t transfer_rank(const Type *mem, const Type *vec) {
  const Type *e = mem->u.sh.elem;
  uint32_t er = e->kind == TY_VECTOR ? e->u.sh.rank : 0;
  return vec->u.sh.rank > er ? vec->u.sh.rank - er : 0;
}

/* The mask type MLIR infers for a transfer: the vector's dimensions that the map takes from the
 * memref, in the memref's dimension order, as i1 (broadcast dimensions take no mask). */
static Type *transfer_mask_type(IrCtx *ctx, const Type *vec, const int32_t *res, uint32_t nres) {
  int64_t shape[64];
  bool scal[64];
  uint32_t n = 0;
  for (int32_t d = 0; d < 64; d++)
    for (uint32_t i = 0; i < nres && i < vec->u.sh.rank; i++)
      if (res[i] == d) {
        shape[n] = vec->u.sh.shape[i];
        scal[n++] = vec->u.sh.scalable && vec->u.sh.scalable[i];
      }
  Type t = *vec;
  t.u.sh.shape = shape;
  t.u.sh.scalable = scal;
  t.u.sh.rank = n;
  t.u.sh.elem = ir_type_int(ctx, 1, SIGNLESS);
  return ir_type_intern(ctx, &t);
}

static Attr *st_attr(OpState *st, const char *name) {
  for (uint32_t i = 0; i < st->nattrs; i++)
    if (ir_str_eq(st->attrs[i].name, name))
      return st->attrs[i].value;
  return NULL;
}

/* transfer_read ::= %base `[` indices `]` `,` %padding (`,` %mask)? attr-dict `:` memref-type
 *                   `,` vector-type
 * transfer_write ::= %value `,` %base `[` indices `]` (`,` %mask)? attr-dict `:` vector-type
 *                    `,` memref-type
 * permutation_map defaults to the minor identity and in_bounds to all false; the operand
 * segments are (base or value, indices, padding or base, mask) in the generic order. */
static bool parse_transfer(Parser *p, OpState *st, bool write) {
  IrCtx *ctx = p_ctx(p);
  OperandRef first, base, *idx, mask;
  uint32_t n;
  bool has_mask = false;
  if (write && (!p_operand(p, &first) || !p_expect(p, TOK_COMMA, "','")))
    return false;
  if (!p_operand(p, &base) || !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'"))
    return false;
  if (!write && (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &first)))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &mask))
      return false;
    has_mask = true;
  }
  if (!p_opt_attr_dict(p, st))
    return false;
  const char *pos = p_tok(p)->text; /* where mlir-opt places errors about the types */
  Type *t[2];
  if (!p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_type(p, &t[1]))
    return false;
  Type *vec = t[write ? 0 : 1], *mem = t[write ? 1 : 0];
  if (vec->kind != TY_VECTOR || (mem->kind != TY_MEMREF && mem->kind != TY_TENSOR))
    return p_error_at(p, pos, "expected a shaped type and a vector type");
  Attr *map = st_attr(st, "permutation_map");
  uint32_t ndims, nres;
  int32_t res[64];
  if (!map) {
    nres = transfer_rank(mem, vec);
    if (nres > mem->u.sh.rank)
      return p_error_at(p, pos, "custom op '%.*s' expected a custom permutation_map when rank(source) != rank(destination)",
                        (int)st->name.len, st->name.s);
    Attr *a = ir_alloc(ctx, sizeof *a);
    a->kind = ATTR_AFFINE_MAP;
    a->u.str = minor_identity(ctx, mem->u.sh.rank, nres);
    st_add_prop(p, st, "permutation_map", a);
    for (uint32_t i = 0; i < nres; i++)
      res[i] = (int32_t)(mem->u.sh.rank - nres + i);
  } else if (!transfer_map(map, &ndims, res, &nres)) {
    /* A map of other results is the verifier's to reject, in mlir-opt's words; only the mask's
     * type, which follows from the map, needs one of dimensions and zeros here. */
    if (has_mask || map->kind != ATTR_AFFINE_MAP || !(nres = map_results(map->u.str)))
      return p_error_at(p, pos, "expected a permutation map of dimensions and zeros");
  }
  if (!st_attr(st, "in_bounds")) {
    Attr *f[64];
    for (uint32_t i = 0; i < nres; i++)
      f[i] = ir_attr_bool(ctx, false);
    st_add_prop(p, st, "in_bounds", ir_attr_array(ctx, f, nres));
  }
  uint32_t seg[4] = {1, write ? 1 : n, write ? n : 1, has_mask};
  st_set_segments(p, st, seg, 4);
  if (!write)
    st_add_result_type(p, st, vec);
  else if (mem->kind == TY_TENSOR)
    st_add_result_type(p, st, mem);
  Type *index = ir_type_index(ctx);
  Type *mask_type = has_mask ? transfer_mask_type(ctx, vec, res, nres) : NULL;
  if (write && !p_resolve_onto(p, st, &first, 1, &vec, 1))
    return false;
  if (!p_resolve_onto(p, st, &base, 1, &mem, 1) || !p_resolve_onto(p, st, idx, n, &index, 1))
    return false;
  if (!write && !p_resolve_onto(p, st, &first, 1, &mem->u.sh.elem, 1))
    return false;
  return p_resolve_onto(p, st, &mask, has_mask, &mask_type, 1);
}

static bool print_transfer(Printer *pr, Op *op, bool write) {
  Attr *seg = prop(op, "operandSegmentSizes"), *map = prop(op, "permutation_map");
  Attr *inb = prop(op, "in_bounds");
  if (op->noperands < 2 || op->nresults > 1 || !plain(op) || !seg ||
      seg->kind != ATTR_DENSE_ARRAY || !ir_type_is_integer(seg->type, 32) || seg->u.darr.fvals ||
      seg->u.darr.n != 4 || !map || !inb || inb->kind != ATTR_ARRAY)
    return false;
  /* segments: read (base, indices, padding, mask), write (value, base, indices, mask) */
  const int64_t *s = seg->u.darr.ivals;
  int64_t nidx64 = write ? s[2] : s[1], one = write ? s[1] : s[2];
  if (s[0] != 1 || one != 1 || nidx64 < 0 || nidx64 > 64 || s[3] < 0 || s[3] > 1 ||
      (uint64_t)(2 + nidx64 + s[3]) != op->noperands)
    return false;
  uint32_t nidx = (uint32_t)nidx64;
  bool has_mask = s[3] == 1;
  Value *vecv = write ? op->operands[0] : NULL, *base = op->operands[write ? 1 : 0];
  Value *const *idx = op->operands + (write ? 2 : 1);
  Value *pad = write ? NULL : op->operands[1 + nidx];
  const Type *mem = base->type;
  bool tensor = mem->kind == TY_TENSOR;
  /* a read gives the vector; a write to a tensor gives the new tensor */
  if ((!write || tensor) != (op->nresults == 1) || (write && tensor && op->results[0].type != mem))
    return false;
  const Type *vec = write ? vecv->type : op->results[0].type;
  if (vec->kind != TY_VECTOR || (mem->kind != TY_MEMREF && !tensor) || mem->u.sh.unranked ||
      (pad && pad->type != mem->u.sh.elem))
    return false;
  for (uint32_t i = 0; i < nidx; i++)
    if (idx[i]->type->kind != TY_INDEX)
      return false;
  uint32_t ndims, nres;
  int32_t res[64];
  if (!transfer_map(map, &ndims, res, &nres) || ndims != mem->u.sh.rank || inb->u.arr.n != nres)
    return false;
  bool all_false = true;
  for (uint32_t i = 0; i < inb->u.arr.n; i++) {
    if (inb->u.arr.elems[i]->kind != ATTR_BOOL)
      return false;
    all_false &= !inb->u.arr.elems[i]->u.b;
  }
  if (has_mask) {
    /* the mask type is inferred on parsing: it must be the one MLIR infers */
    const Type *m = op->operands[op->noperands - 1]->type;
    if (m->kind != TY_VECTOR || !ir_type_is_integer(m->u.sh.elem, 1))
      return false;
    uint32_t k = 0;
    for (int32_t d = 0; d < 64; d++)
      for (uint32_t i = 0; i < nres && i < vec->u.sh.rank; i++)
        if (res[i] == d) {
          bool sv = vec->u.sh.scalable && vec->u.sh.scalable[i];
          bool sm = m->u.sh.scalable && k < m->u.sh.rank && m->u.sh.scalable[k];
          if (k >= m->u.sh.rank || m->u.sh.shape[k] != vec->u.sh.shape[i] || sv != sm)
            return false;
          k++;
        }
    if (k != m->u.sh.rank)
      return false;
  }
  bool identity = nres <= ndims && nres == transfer_rank(mem, vec);
  for (uint32_t i = 0; identity && i < nres; i++)
    identity = res[i] == (int32_t)(ndims - nres + i);
  const char *elide[4] = {"operandSegmentSizes"};
  uint32_t ne = 1;
  if (identity)
    elide[ne++] = "permutation_map";
  if (all_false)
    elide[ne++] = "in_bounds";
  elide[ne] = NULL;
  pr_char(pr, ' ');
  if (write) {
    pr_value(pr, vecv);
    pr_strn(pr, ", ", 2);
  }
  pr_value(pr, base);
  pr_char(pr, '[');
  pr_values(pr, idx, nidx);
  pr_char(pr, ']');
  if (pad) {
    pr_strn(pr, ", ", 2);
    pr_value(pr, pad);
  }
  if (has_mask) {
    pr_strn(pr, ", ", 2);
    pr_value(pr, op->operands[op->noperands - 1]);
  }
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, write ? vec : mem);
  pr_strn(pr, ", ", 2);
  pr_type(pr, write ? mem : vec);
  return true;
}

bool parse_transfer_read(Parser *p, OpState *st) { return parse_transfer(p, st, false); }
bool print_transfer_read(Printer *pr, Op *op) { return print_transfer(pr, op, false); }
bool parse_transfer_write(Parser *p, OpState *st) { return parse_transfer(p, st, true); }
bool print_transfer_write(Printer *pr, Op *op) { return print_transfer(pr, op, true); }

/* ---- vector reductions, outer products, scalable subvectors --------------------------------- */

/* multi_reduction ::= `<` kind `>` `,` %source `,` %acc `[` dims `]` attr-dict
 *                     `:` type `to` type */
bool parse_multi_reduction(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!parse_kind(p, st) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_int_list(p, st, "reduction_dims") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_kw(p, "to") || !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_multi_reduction(Printer *pr, Op *op) {
  static const char *const elide[] = {"kind", "reduction_dims", NULL};
  Attr *kind = prop(op, "kind"), *dims = prop(op, "reduction_dims");
  if (op->noperands != 2 || op->nresults != 1 || !plain(op) || !kind ||
      !pr_flags_fit(kind, "vector.kind") || !ir_attr_is_dense_i64(dims) ||
      op->operands[1]->type != op->results[0].type)
    return false;
  print_kind(pr, kind);
  pr_strn(pr, ", ", 2);
  pr_values(pr, op->operands, 2);
  pr_char(pr, ' ');
  print_int_list(pr, dims);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* scan ::= `<` kind `>` `,` %source `,` %init attr-dict `:` type `,` type
 * (results: the scanned vector and the last accumulator, of the operand types) */
bool parse_vector_scan(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!parse_kind(p, st) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[0]);
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_vector_scan(Printer *pr, Op *op) {
  static const char *const elide[] = {"kind", NULL};
  Attr *kind = prop(op, "kind");
  if (op->noperands != 2 || op->nresults != 2 || !plain(op) || !kind ||
      !pr_flags_fit(kind, "vector.kind") || op->results[0].type != op->operands[0]->type ||
      op->results[1].type != op->operands[1]->type)
    return false;
  print_kind(pr, kind);
  pr_strn(pr, ", ", 2);
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

static const char kind_add[] = "#vector.kind<add>";

/* The result of vector.outerproduct: lhs x rhs for a vector rhs, lhs's type for a scalar. */
static Type *outer_result(IrCtx *ctx, Type *lhs, const Type *rhs) {
  if (lhs->kind != TY_VECTOR || lhs->u.sh.rank != 1)
    return NULL;
  if (rhs->kind != TY_VECTOR)
    return lhs;
  if (rhs->u.sh.rank != 1)
    return NULL;
  int64_t shape[2] = {lhs->u.sh.shape[0], rhs->u.sh.shape[0]};
  bool scal[2] = {lhs->u.sh.scalable && lhs->u.sh.scalable[0],
                  rhs->u.sh.scalable && rhs->u.sh.scalable[0]};
  Type t = *lhs;
  t.u.sh.shape = shape;
  t.u.sh.scalable = scal[0] || scal[1] ? scal : NULL;
  t.u.sh.rank = 2;
  return ir_type_intern(ctx, &t);
}

/* outerproduct ::= %lhs `,` %rhs (`,` %acc)? attr-dict `:` type `,` type
 * kind defaults to add, which MLIR always sets and leaves out of the custom form. */
bool parse_outerproduct(Parser *p, OpState *st) {
  OperandRef r[3];
  uint32_t n = 2;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &r[2]))
      return false;
    n = 3;
  }
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  Type *t[3];
  if (!p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  t[2] = outer_result(p_ctx(p), t[0], t[1]);
  if (!t[2])
    return p_error_at(p, pos, "expected a 1-D vector and a 1-D vector or scalar");
  if (!st_attr(st, "kind"))
    st_add_prop(p, st, "kind", opaque(p_ctx(p), kind_add, sizeof kind_add - 1));
  st_add_result_type(p, st, t[2]);
  return p_resolve_onto(p, st, r, n, t, n);
}

bool print_outerproduct(Printer *pr, Op *op) {
  static const char *const elide[] = {"kind", NULL};
  Attr *kind = prop(op, "kind");
  if (op->noperands < 2 || op->noperands > 3 || op->nresults != 1 || !plain(op) ||
      !pr_flags_fit(kind, "vector.kind") ||
      (op->noperands == 3 && op->operands[2]->type != op->results[0].type))
    return false;
  const Type *lhs = op->operands[0]->type, *rhs = op->operands[1]->type, *res = op->results[0].type;
  if (lhs->kind != TY_VECTOR || lhs->u.sh.rank != 1 || res->kind != TY_VECTOR)
    return false;
  if (rhs->kind != TY_VECTOR) {
    if (res != lhs) /* a scalar rhs scales lhs (AXPY) */
      return false;
  } else {
    bool ls = lhs->u.sh.scalable && lhs->u.sh.scalable[0];
    bool rs = rhs->u.sh.scalable && rhs->u.sh.scalable[0];
    if (rhs->u.sh.rank != 1 || res->u.sh.rank != 2 || res->u.sh.elem != lhs->u.sh.elem ||
        res->u.sh.shape[0] != lhs->u.sh.shape[0] || res->u.sh.shape[1] != rhs->u.sh.shape[0] ||
        (res->u.sh.scalable && res->u.sh.scalable[0]) != ls ||
        (res->u.sh.scalable && res->u.sh.scalable[1]) != rs)
      return false;
  }
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  pr_attr_dict(pr, op, kind && ir_str_eq(kind->u.str, kind_add) ? elide : NULL, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

/* scalable.insert ::= %value `,` %dest `[` pos `]` attr-dict `:` type `into` type
 * scalable.extract ::= %source `[` pos `]` attr-dict `:` type `from` type */
static bool parse_scalable(Parser *p, OpState *st, bool insert) {
  OperandRef r[2];
  int64_t pos;
  Type *t[2];
  if (!p_operand(p, &r[0]) ||
      (insert && (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]))) ||
      !p_expect(p, TOK_LSQUARE, "'['") || !p_int(p, &pos) || !p_expect(p, TOK_RSQUARE, "']'") ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_kw(p, insert ? "into" : "from") || !p_type(p, &t[1]))
    return false;
  st_add_prop(p, st, "pos", ir_attr_int(p_ctx(p), ir_type_int(p_ctx(p), 64, SIGNLESS), pos));
  st_add_result_type(p, st, insert ? t[1] : t[0]);
  return insert ? p_resolve_onto(p, st, r, 2, t, 2) : p_resolve_onto(p, st, r, 1, &t[1], 1);
}

static bool print_scalable(Printer *pr, Op *op, bool insert) {
  static const char *const elide[] = {"pos", NULL};
  Attr *pos = prop(op, "pos");
  if (op->noperands != (insert ? 2u : 1u) || op->nresults != 1 || !plain(op) || !pos ||
      pos->kind != ATTR_INT || pos->u.i.big || !ir_type_is_integer(pos->type, 64) ||
      (insert && op->operands[1]->type != op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  pr_fmt(pr, "[%lld]", (long long)pos->u.i.v);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, insert ? op->operands[0]->type : op->results[0].type);
  pr_str(pr, insert ? " into " : " from ");
  pr_type(pr, insert ? op->results[0].type : op->operands[0]->type);
  return true;
}

bool parse_scalable_insert(Parser *p, OpState *st) { return parse_scalable(p, st, true); }
bool print_scalable_insert(Printer *pr, Op *op) { return print_scalable(pr, op, true); }
bool parse_scalable_extract(Parser *p, OpState *st) { return parse_scalable(p, st, false); }
bool print_scalable_extract(Printer *pr, Op *op) { return print_scalable(pr, op, false); }

/* ---- vector.mask ---------------------------------------------------------------------------- */


/* mask ::= %mask (`,` %passthru)? region attr-dict `:` type (`->` types)?
 * The region holds one masked op; as in MLIR, its terminator is put in (or replaced) so that it
 * yields the masked op's results. */
bool parse_vector_mask(Parser *p, OpState *st) {
  OperandRef m, pt;
  bool has_pt = false;
  if (!p_operand(p, &m))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &pt))
      return false;
    has_pt = true;
  }
  Region *r = st_add_region(p, st);
  Type *mt, **res = NULL;
  uint32_t nres = 0;
  if (!p_region(p, r, NULL, 0, false) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &mt) ||
      (p_opt(p, TOK_ARROW) && !p_result_types(p, &res, &nres)))
    return false;
  if (has_pt && !nres)
    return p_error(p, "expects result type to match passthru type");
  p_ensure_terminator(p, r, "vector.yield", st->src);
  Block *b = r->first;
  if (b->first != b->last && b->first->next == b->last) {
    Op *masked = b->first;
    ir_op_erase(b->last); /* the implicit terminator, replaced below */
    Value *vals[64];
    uint32_t n = masked->nresults < 64 ? masked->nresults : 64;
    for (uint32_t i = 0; i < n; i++)
      vals[i] = &masked->results[i];
    p_append_op(p, b, "vector.yield", st->src, vals, n);
  }
  for (uint32_t i = 0; i < nres; i++)
    st_add_result_type(p, st, res[i]);
  return p_resolve_onto(p, st, &m, 1, &mt, 1) && p_resolve_onto(p, st, &pt, has_pt, res, 1);
}

bool print_vector_mask(Printer *pr, Op *op) {
  if (op->noperands < 1 || op->noperands > 2 || op->nregions != 1 || op->nsuccs ||
      !ir_op_props_inherent(op) ||
      (op->noperands == 2 && (!op->nresults || op->operands[1]->type != op->results[0].type)))
    return false;
  Region *r = &op->regions[0];
  Block *b = r->first;
  if (!b || b->next || b->nargs || !b->last || !ir_str_eq(b->last->name, "vector.yield") ||
      b->last->props || b->last->attrs)
    return false;
  /* [yield]: printed as it is; [masked op, yield of its results]: the yield is implied */
  Op *masked = b->first, *y = b->last;
  bool implied = masked != y && masked->next == y && y->noperands == masked->nresults;
  for (uint32_t i = 0; implied && i < y->noperands; i++)
    implied = y->operands[i] == &masked->results[i];
  if (masked != y && !implied)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  pr_char(pr, ' ');
  if (implied)
    pr_region_no_terminators(pr, r, false);
  else
    pr_region(pr, r, false, false);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  if (op->nresults) {
    pr_str(pr, " -> ");
    if (op->nresults > 1)
      pr_char(pr, '(');
    for (uint32_t i = 0; i < op->nresults; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_type(pr, op->results[i].type);
    }
    if (op->nresults > 1)
      pr_char(pr, ')');
  }
  return true;
}

/* ---- vector.contract ------------------------------------------------------------------------ */

static const char iter_pre[] = "#vector.iterator_type<";

/* contract ::= `{` traits `}` %lhs `,` %rhs `,` %acc attr-dict `:` type `,` type `into` type
 * traits: indexing_maps, iterator_types (strings here, #vector.iterator_type<...> in the
 * properties) and kind (add when absent, which MLIR always sets and always prints). */
bool parse_contract(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  const char *pos = p_tok(p)->text;
  /* the traits are attributes like any other (the inherent ones move to the properties when the
   * op is made); only iterator_types changes its spelling */
  uint32_t first = st->nattrs;
  if (!p_is(p, TOK_LBRACE))
    return p_error(p, "expected '{'");
  if (!p_opt_attr_dict(p, st))
    return false;
  bool have_kind = false;
  for (uint32_t i = first; i < st->nattrs; i++) {
    Attr *v = st->attrs[i].value;
    have_kind |= ir_str_eq(st->attrs[i].name, "kind");
    if (!ir_str_eq(st->attrs[i].name, "iterator_types"))
      continue;
    if (v->kind != ATTR_ARRAY)
      return p_error_at(p, pos, "expected an array of iterator type strings");
    Attr **its = ir_alloc(ctx, v->u.arr.n * sizeof *its + 1);
    for (uint32_t k = 0; k < v->u.arr.n; k++) {
      const Attr *s = v->u.arr.elems[k];
      char buf[128];
      if (s->kind != ATTR_STRING || s->u.str.len > 64)
        return p_error_at(p, pos, "expected an array of iterator type strings");
      int o = snprintf(buf, sizeof buf, "%s%.*s>", iter_pre, (int)s->u.str.len, s->u.str.s);
      its[k] = opaque(ctx, buf, (size_t)o);
    }
    st->attrs[i].value = ir_attr_array(ctx, its, v->u.arr.n);
  }
  if (!have_kind)
    st_add_prop(p, st, "kind", opaque(ctx, kind_add, sizeof kind_add - 1));
  OperandRef r[3];
  Type *t[3];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_type(p, &t[1]) || !p_kw(p, "into") || !p_type(p, &t[2]))
    return false;
  st_add_result_type(p, st, t[2]);
  return p_resolve_onto(p, st, r, 3, t, 3);
}

bool print_contract(Printer *pr, Op *op) {
  static const char *const elide[] = {"indexing_maps", "iterator_types", "kind", NULL};
  Attr *maps = prop(op, "indexing_maps"), *its = prop(op, "iterator_types"),
       *kind = prop(op, "kind");
  if (op->noperands != 3 || op->nresults != 1 || !plain(op) || !maps || maps->kind != ATTR_ARRAY ||
      !its || its->kind != ATTR_ARRAY || !kind || !pr_flags_fit(kind, "vector.kind") ||
      op->operands[2]->type != op->results[0].type)
    return false;
  for (uint32_t i = 0; i < its->u.arr.n; i++) {
    const Attr *a = its->u.arr.elems[i];
    if (a->kind != ATTR_OPAQUE || a->u.str.len <= sizeof iter_pre ||
        memcmp(a->u.str.s, iter_pre, sizeof iter_pre - 1) != 0 ||
        a->u.str.s[a->u.str.len - 1] != '>')
      return false;
    for (uint32_t k = sizeof iter_pre - 1; k < a->u.str.len - 1; k++)
      if (!((a->u.str.s[k] >= 'a' && a->u.str.s[k] <= 'z') || a->u.str.s[k] == '_'))
        return false;
  }
  pr_strn(pr, " {indexing_maps = ", 18);
  pr_attr(pr, maps);
  pr_str(pr, ", iterator_types = [");
  for (uint32_t i = 0; i < its->u.arr.n; i++) {
    const Attr *a = its->u.arr.elems[i];
    if (i)
      pr_strn(pr, ", ", 2);
    pr_char(pr, '"');
    pr_strn(pr, a->u.str.s + sizeof iter_pre - 1, a->u.str.len - sizeof iter_pre);
    pr_char(pr, '"');
  }
  pr_str(pr, "], kind = ");
  pr_attr(pr, kind);
  pr_strn(pr, "} ", 2);
  pr_values(pr, op->operands, 3);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  pr_str(pr, " into ");
  pr_type(pr, op->results[0].type);
  return true;
}
