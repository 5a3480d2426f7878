/* custom_scf.c - custom assembly forms of the structured control flow, cf, index and select ops:
 *   scf     for, if, while/condition, parallel/reduce/reduce.return, execute_region,
 *           index_switch, forall/forall.in_parallel (scf.yield is return_like in custom.c)
 *   cf      cond_br, switch, assert
 *   arith.select, index constant/bool.constant/cmp/sizeof (index binary ops and
 *   casts use custom.c's index_binary and cast_like)
 *
 * Each parse_X fills the OpState with what `mlir-opt --mlir-print-op-generic` shows: inherent
 * attributes as properties, operandSegmentSizes where the op has them, default-valued properties
 * MLIR always sets, and the implicit terminators MLIR inserts into loop
 * and branch bodies (scf.yield, scf.reduce, scf.forall.in_parallel). Each print_X declines
 * (returns false before writing) when the op has a shape the custom form cannot carry, such as a
 * region terminator it would have to leave out but that holds attributes. */
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
static bool is_i1(const Type *t) { return ir_type_is_integer(t, 1); }

/* `(` %a `=` %init (`,` ...)* `)`: region arguments and the operands that initialize them */
static bool parse_assignments(Parser *p, RegionArg **args, OperandRef **inits, uint32_t *n) {
  RegionArg as[64];
  OperandRef is[64];
  uint32_t k = 0;
  if (!p_expect(p, TOK_LPAREN, "'('"))
    return false;
  if (!p_opt(p, TOK_RPAREN)) {
    do {
      if (k == 64)
        return p_error(p, "too many iteration arguments");
      memset(&as[k], 0, sizeof as[k]);
      if (!p_operand(p, &as[k].ref) || !p_expect(p, TOK_EQUAL, "'='") || !p_operand(p, &is[k]))
        return false;
      k++;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RPAREN, "')'"))
      return false;
  }
  *args = ir_dup(p_ctx(p), as, k * sizeof *as);
  *inits = ir_dup(p_ctx(p), is, k * sizeof *is);
  *n = k;
  return true;
}

static void print_assignments(Printer *pr, Value *args, Value *const *inits, uint32_t n) {
  pr_char(pr, '(');
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &args[i]);
    pr_strn(pr, " = ", 3);
    pr_value(pr, inits[i]);
  }
  pr_char(pr, ')');
}

static void print_type_list_paren(Printer *pr, Value *vs, uint32_t n) {
  pr_char(pr, '(');
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_type(pr, vs[i].type);
  }
  pr_char(pr, ')');
}

/* ---- scf ------------------------------------------------------------------------------------ */

/* for ::= `unsigned`? %iv `=` %lb `to` %ub `step` %step
 *         (`iter_args` `(` %a `=` %init, ... `)` `->` `(` types `)`)? (`:` type)? region attr-dict
 * The body gets an implicit scf.yield when it has no terminator. */
bool parse_scf_for(Parser *p, OpState *st) {
  bool is_unsigned = p_opt_kw(p, "unsigned");
  RegionArg iv = {0};
  OperandRef b[3];
  if (!p_operand(p, &iv.ref) || !p_expect(p, TOK_EQUAL, "'='") || !p_operand(p, &b[0]) ||
      !p_kw(p, "to") || !p_operand(p, &b[1]) || !p_kw(p, "step") || !p_operand(p, &b[2]))
    return false;
  RegionArg *iters = NULL;
  OperandRef *inits = NULL;
  Type **types = NULL;
  uint32_t n = 0, nt = 0;
  if (p_opt_kw(p, "iter_args")) {
    if (!parse_assignments(p, &iters, &inits, &n) || !p_expect(p, TOK_ARROW, "'->'") ||
        !p_paren_type_list(p, &types, &nt))
      return false;
    if (nt != n)
      return p_error(p, "mismatch in number of loop-carried values and defined values");
  }
  iv.type = ir_type_index(p_ctx(p));
  if (p_opt(p, TOK_COLON) && !p_type(p, &iv.type))
    return false;
  if (is_unsigned)
    st_add_prop(p, st, "unsignedCmp", ir_attr_unit(p_ctx(p)));
  if (!p_resolve_onto(p, st, b, 3, &iv.type, 1) || !p_resolve_onto(p, st, inits, n, types, n))
    return false;
  RegionArg *args = ir_alloc(p_ctx(p), (n + 1) * sizeof *args);
  args[0] = iv;
  for (uint32_t i = 0; i < n; i++) {
    args[i + 1] = iters[i];
    args[i + 1].type = types[i];
    st_add_result_type(p, st, types[i]);
  }
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, args, n + 1, false))
    return false;
  p_ensure_terminator(p, r, "scf.yield", st->src);
  return p_opt_attr_dict(p, st);
}

bool print_scf_for(Printer *pr, Op *op) {
  static const char *const allowed[] = {"unsignedCmp", NULL};
  Attr *u = prop(op, "unsignedCmp");
  uint32_t n = op->nresults;
  if (op->noperands != n + 3 || op->nregions != 1 || op->nsuccs || !only_props(op, allowed) ||
      (u && u->kind != ATTR_UNIT))
    return false;
  Region *r = &op->regions[0];
  Type *iv = op->operands[0]->type;
  if (op->operands[1]->type != iv || op->operands[2]->type != iv || !r->first ||
      r->first != r->last || r->first->nargs != n + 1 || r->first->args[0].type != iv)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (op->operands[3 + i]->type != op->results[i].type ||
        r->first->args[1 + i].type != op->results[i].type)
      return false;
  if (!n && !ir_region_ends_in_bare(r, "scf.yield"))
    return false;
  if (u)
    pr_str(pr, " unsigned");
  pr_char(pr, ' ');
  pr_value(pr, &r->first->args[0]);
  pr_strn(pr, " = ", 3);
  pr_value(pr, op->operands[0]);
  pr_str(pr, " to ");
  pr_value(pr, op->operands[1]);
  pr_str(pr, " step ");
  pr_value(pr, op->operands[2]);
  if (n) {
    pr_str(pr, " iter_args");
    print_assignments(pr, r->first->args + 1, op->operands + 3, n);
    pr_str(pr, " -> ");
    print_type_list_paren(pr, op->results, n);
  }
  pr_char(pr, ' ');
  if (!is_index(iv)) {
    pr_str(pr, " : ");
    pr_type(pr, iv);
    pr_char(pr, ' ');
  }
  if (n)
    pr_region(pr, r, false, false);
  else
    pr_region_no_terminators(pr, r, false);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* if ::= %cond (`->` `(` types `)`)? region (`else` region)? attr-dict
 * Both regions get an implicit scf.yield; a missing else leaves the second region empty. */
bool parse_scf_if(Parser *p, OpState *st) {
  OperandRef c;
  if (!p_operand(p, &c))
    return false;
  if (p_opt(p, TOK_ARROW)) {
    Type **types;
    uint32_t n;
    if (!p_paren_type_list(p, &types, &n))
      return false;
    for (uint32_t i = 0; i < n; i++)
      st_add_result_type(p, st, types[i]);
  }
  Type *i1 = ir_type_int(p_ctx(p), 1, SIGNLESS);
  if (!p_resolve_onto(p, st, &c, 1, &i1, 1))
    return false;
  Region *then = st_add_region(p, st), *els = st_add_region(p, st);
  if (!p_region(p, then, NULL, 0, false))
    return false;
  p_ensure_terminator(p, then, "scf.yield", st->src);
  if (p_opt_kw(p, "else")) {
    if (!p_region(p, els, NULL, 0, false))
      return false;
    p_ensure_terminator(p, els, "scf.yield", st->src);
  }
  return p_opt_attr_dict(p, st);
}

static bool if_region_fits(const Region *r, bool results, bool may_be_empty) {
  if (!r->first)
    return may_be_empty;
  return r->first == r->last && !r->first->nargs &&
         (results || ir_region_ends_in_bare(r, "scf.yield"));
}

bool print_scf_if(Printer *pr, Op *op) {
  if (op->noperands != 1 || !is_i1(op->operands[0]->type) || op->nregions != 2 || op->nsuccs ||
      op->props || !if_region_fits(&op->regions[0], op->nresults, false) ||
      !if_region_fits(&op->regions[1], op->nresults, true))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (op->nresults) {
    pr_str(pr, " -> ");
    print_type_list_paren(pr, op->results, op->nresults);
  }
  pr_char(pr, ' ');
  if (op->nresults)
    pr_region(pr, &op->regions[0], false, false);
  else
    pr_region_no_terminators(pr, &op->regions[0], false);
  if (op->regions[1].first) {
    pr_str(pr, " else ");
    if (op->nresults)
      pr_region(pr, &op->regions[1], false, false);
    else
      pr_region_no_terminators(pr, &op->regions[1], false);
  }
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* while ::= (`(` %a `=` %init, ... `)`)? `:` function-type region `do` region
 *           attr-dict-with-keyword
 * The before region takes the assigned arguments; the after region spells out its own. */
bool parse_scf_while(Parser *p, OpState *st) {
  RegionArg *args = NULL;
  OperandRef *inits = NULL;
  uint32_t n = 0;
  Type *fn;
  if ((p_is(p, TOK_LPAREN) && !parse_assignments(p, &args, &inits, &n)) ||
      !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC)
    return p_error_at(p, pos, "expected function type");
  if (fn->u.fn.nin != n)
    return p_error_at(p, pos, "expected as many input types as operands (expected %u got %u)", n,
                      fn->u.fn.nin);
  if (!p_resolve_onto(p, st, inits, n, fn->u.fn.in, n))
    return false;
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  for (uint32_t i = 0; i < n; i++)
    args[i].type = fn->u.fn.in[i];
  Region *before = st_add_region(p, st), *after = st_add_region(p, st);
  return p_region(p, before, args, n, false) && p_kw(p, "do") &&
         p_region(p, after, NULL, 0, false) && p_opt_attr_dict_with_keyword(p, st);
}

bool print_scf_while(Printer *pr, Op *op) {
  if (op->nregions != 2 || op->nsuccs || op->props)
    return false;
  Region *before = &op->regions[0];
  if (!before->first || before->first->nargs != op->noperands || !op->regions[1].first)
    return false;
  for (uint32_t i = 0; i < op->noperands; i++)
    if (before->first->args[i].type != op->operands[i]->type)
      return false;
  if (op->noperands) {
    pr_char(pr, ' ');
    print_assignments(pr, before->first->args, op->operands, op->noperands);
  }
  pr_strn(pr, " : (", 4);
  pr_value_types(pr, op->operands, op->noperands);
  pr_strn(pr, ") -> ", 5);
  if (op->nresults == 1 && op->results[0].type->kind != TY_FUNC)
    pr_type(pr, op->results[0].type);
  else
    print_type_list_paren(pr, op->results, op->nresults);
  pr_char(pr, ' ');
  pr_region(pr, before, false, false);
  pr_str(pr, " do ");
  pr_region(pr, &op->regions[1], true, false);
  pr_attr_dict(pr, op, NULL, true);
  return true;
}

/* condition ::= `(` %cond `)` attr-dict (%args `:` types)? */
bool parse_scf_condition(Parser *p, OpState *st) {
  OperandRef c, *refs;
  uint32_t n;
  Type *i1 = ir_type_int(p_ctx(p), 1, SIGNLESS);
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand(p, &c) || !p_expect(p, TOK_RPAREN, "')'") ||
      !p_resolve_onto(p, st, &c, 1, &i1, 1) || !p_opt_attr_dict(p, st) ||
      !p_operand_list(p, &refs, &n))
    return false;
  if (!n)
    return true;
  Type **types;
  uint32_t nt;
  if (!p_expect(p, TOK_COLON, "':'") || !p_type_list(p, &types, &nt))
    return false;
  if (nt != n)
    return p_error(p, "%u operands present, but expected %u", n, nt);
  return p_resolve_onto(p, st, refs, n, types, nt);
}

bool print_scf_condition(Printer *pr, Op *op) {
  if (!op->noperands || !is_i1(op->operands[0]->type) || op->props || op->nresults ||
      op->nregions || op->nsuccs)
    return false;
  pr_char(pr, '(');
  pr_value(pr, op->operands[0]);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, NULL, false);
  if (op->noperands > 1) {
    pr_char(pr, ' ');
    pr_values(pr, op->operands + 1, op->noperands - 1);
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, op->operands + 1, op->noperands - 1);
  }
  return true;
}

/* ---- arith.select, math.fma ----------------------------------------------------------------- */

/* select ::= %c `,` %a `,` %b attr-dict `:` (cond-type `,`)? type */
bool parse_select(Parser *p, OpState *st) {
  OperandRef r[3];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]))
    return false;
  Type *cond = ir_type_int(p_ctx(p), 1, SIGNLESS), *ty = t[0];
  if (p_opt(p, TOK_COMMA)) {
    if (!p_type(p, &t[1]))
      return false;
    cond = t[0];
    ty = t[1];
  }
  st_add_result_type(p, st, ty);
  return p_resolve_onto(p, st, r, 1, &cond, 1) && p_resolve_onto(p, st, r + 1, 2, &ty, 1);
}

bool print_select(Printer *pr, Op *op) {
  if (op->noperands != 3 || op->nresults != 1 || op->props || op->nregions || op->nsuccs ||
      op->operands[1]->type != op->results[0].type || op->operands[2]->type != op->results[0].type)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 3);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  if (!is_i1(op->operands[0]->type)) {
    pr_type(pr, op->operands[0]->type);
    pr_strn(pr, ", ", 2);
  }
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- index.constant ------------------------------------------------------------------------- */

/* constant ::= attr-dict integer ; the value is an index attribute */
bool parse_index_constant(Parser *p, OpState *st) {
  int64_t v;
  if (!p_opt_attr_dict(p, st) || !p_int(p, &v))
    return false;
  Type *index = ir_type_index(p_ctx(p));
  st_add_prop(p, st, "value", ir_attr_int(p_ctx(p), index, v));
  st_add_result_type(p, st, index);
  return true;
}

bool print_index_constant(Printer *pr, Op *op) {
  static const char *const allowed[] = {"value", NULL};
  Attr *v = prop(op, "value");
  if (!v || v->kind != ATTR_INT || v->u.i.big || !v->type || !is_index(v->type) ||
      !only_props(op, allowed) || op->noperands || op->nresults != 1 ||
      !is_index(op->results[0].type) || op->nregions || op->nsuccs)
    return false;
  pr_attr_dict(pr, op, allowed, false);
  pr_fmt(pr, " %lld", (long long)v->u.i.v);
  return true;
}

/* ---- cf ------------------------------------------------------------------------------------- */

/* cond_br ::= %c (`weights` `(` `[` int `,` int `]` `)`)?
 *             `,` ^bb (`(` args `:` types `)`)? `,` ^bb (`(` args `:` types `)`)? attr-dict */
bool parse_cond_br(Parser *p, OpState *st) {
  OperandRef c;
  Type *i1 = ir_type_int(p_ctx(p), 1, SIGNLESS);
  uint32_t seg[3] = {1, 0, 0};
  if (!p_operand(p, &c) || !p_resolve_onto(p, st, &c, 1, &i1, 1))
    return false;
  if (p_opt_kw(p, "weights")) {
    int64_t w[2];
    if (!p_expect(p, TOK_LPAREN, "'('") || !p_expect(p, TOK_LSQUARE, "'['") || !p_int(p, &w[0]) ||
        !p_expect(p, TOK_COMMA, "','") || !p_int(p, &w[1]) || !p_expect(p, TOK_RSQUARE, "']'") ||
        !p_expect(p, TOK_RPAREN, "')'"))
      return false;
    st_add_prop(p, st, "branch_weights", ir_attr_dense_i32(p_ctx(p), w, 2));
  }
  if (!p_expect(p, TOK_COMMA, "','") || !p_successor_with_args(p, st, &seg[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_successor_with_args(p, st, &seg[2]))
    return false;
  st_set_segments(p, st, seg, 3);
  return p_opt_attr_dict(p, st);
}

bool print_cond_br(Printer *pr, Op *op) {
  static const char *const allowed[] = {"operandSegmentSizes", "branch_weights", NULL};
  int64_t seg[3];
  Attr *w = prop(op, "branch_weights");
  if (!ir_op_segments(op, seg, 3) || seg[0] != 1 || !only_props(op, allowed) || op->nsuccs != 2 ||
      op->nresults || op->nregions || !is_i1(op->operands[0]->type) ||
      (w && (w->kind != ATTR_DENSE_ARRAY || !ir_type_is_integer(w->type, 32) || w->u.darr.fvals ||
             w->u.darr.n != 2)))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (w)
    pr_fmt(pr, " weights([%lld, %lld])", (long long)w->u.darr.ivals[0],
           (long long)w->u.darr.ivals[1]);
  pr_strn(pr, ", ", 2);
  pr_successor(pr, op->succs[0], op->operands + 1, (uint32_t)seg[1]);
  pr_strn(pr, ", ", 2);
  pr_successor(pr, op->succs[1], op->operands + 1 + seg[1], (uint32_t)seg[2]);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* assert ::= %c `,` string attr-dict */
bool parse_assert(Parser *p, OpState *st) {
  OperandRef c;
  Str msg;
  Type *i1 = ir_type_int(p_ctx(p), 1, SIGNLESS);
  if (!p_operand(p, &c) || !p_expect(p, TOK_COMMA, "','") || !p_string(p, &msg))
    return false;
  st_add_prop(p, st, "msg", ir_attr_string(p_ctx(p), msg.s, msg.len));
  return p_opt_attr_dict(p, st) && p_resolve_onto(p, st, &c, 1, &i1, 1);
}

bool print_assert(Printer *pr, Op *op) {
  static const char *const allowed[] = {"msg", NULL};
  Attr *msg = prop(op, "msg");
  if (!msg || msg->kind != ATTR_STRING || msg->type || !only_props(op, allowed) ||
      op->noperands != 1 || !is_i1(op->operands[0]->type) || op->nresults || op->nregions ||
      op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, ", ", 2);
  pr_string(pr, msg->u.str);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* ---- scf.parallel, scf.reduce, scf.execute_region ------------------------------------------- */

/* `(` %a, ... `)`: names of region arguments, all of one type */
static bool parse_arg_names(Parser *p, RegionArg **args, uint32_t *n, Type *t) {
  OperandRef *refs;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &refs, n) ||
      !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  *args = ir_alloc(p_ctx(p), *n * sizeof **args + 1);
  for (uint32_t i = 0; i < *n; i++) {
    (*args)[i].ref = refs[i];
    (*args)[i].type = t;
  }
  return true;
}

/* `(` %a, ... `)` with exactly n operands of type t, resolved onto st */
static bool parse_paren_operands(Parser *p, OpState *st, uint32_t n, Type *t) {
  OperandRef *refs;
  uint32_t k;
  const char *pos = p_tok(p)->text;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &refs, &k) ||
      !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (k != n)
    return p_error_at(p, pos, "expected %u operands, got %u", n, k);
  return p_resolve_onto(p, st, refs, k, &t, 1);
}

/* `->` type | `->` `(` types `)` */
static bool parse_opt_arrow_types(Parser *p, Type ***types, uint32_t *n) {
  *n = 0;
  *types = NULL;
  if (!p_opt(p, TOK_ARROW))
    return true;
  return p_result_types(p, types, n);
}

static void print_arrow_types(Printer *pr, Value *vs, uint32_t n) {
  if (!n)
    return;
  pr_str(pr, " -> ");
  if (n == 1 && vs[0].type->kind != TY_FUNC)
    pr_type(pr, vs[0].type);
  else
    print_type_list_paren(pr, vs, n);
}

static void print_paren_values(Printer *pr, Value *const *vs, uint32_t n) {
  pr_char(pr, '(');
  pr_values(pr, vs, n);
  pr_char(pr, ')');
}

/* parallel ::= `(` ivs `)` `=` `(` lbs `)` `to` `(` ubs `)` `step` `(` steps `)`
 *              (`init` `(` inits `)`)? (`->` types)? region attr-dict
 * The body gets an implicit scf.reduce. */
bool parse_scf_parallel(Parser *p, OpState *st) {
  Type *index = ir_type_index(p_ctx(p));
  RegionArg *ivs;
  uint32_t n, seg[4] = {0, 0, 0, 0};
  if (!parse_arg_names(p, &ivs, &n, index) || !p_expect(p, TOK_EQUAL, "'='") ||
      !parse_paren_operands(p, st, n, index) || !p_kw(p, "to") ||
      !parse_paren_operands(p, st, n, index) || !p_kw(p, "step") ||
      !parse_paren_operands(p, st, n, index))
    return false;
  seg[0] = seg[1] = seg[2] = n;
  OperandRef *inits = NULL;
  uint32_t ninit = 0;
  if (p_opt_kw(p, "init") &&
      (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &inits, &ninit) ||
       !p_expect(p, TOK_RPAREN, "')'")))
    return false;
  Type **types;
  uint32_t nt;
  if (!parse_opt_arrow_types(p, &types, &nt))
    return false;
  if (nt != ninit)
    return p_error(p, "expects %u types for the init values, got %u", ninit, nt);
  if (!p_resolve_onto(p, st, inits, ninit, types, nt))
    return false;
  seg[3] = ninit;
  for (uint32_t i = 0; i < nt; i++)
    st_add_result_type(p, st, types[i]);
  st_set_segments(p, st, seg, 4);
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, ivs, n, false))
    return false;
  p_ensure_terminator(p, r, "scf.reduce", st->src);
  return p_opt_attr_dict(p, st);
}

bool print_scf_parallel(Printer *pr, Op *op) {
  static const char *const seg_only[] = {"operandSegmentSizes", NULL};
  int64_t seg[4];
  if (!ir_op_segments(op, seg, 4) || seg[0] != seg[1] || seg[0] != seg[2] || seg[3] != op->nresults ||
      !only_props(op, seg_only) || op->nregions != 1 || op->nsuccs)
    return false;
  uint32_t n = (uint32_t)seg[0];
  Region *r = &op->regions[0];
  if (!r->first || r->first != r->last || r->first->nargs != n || !ir_all_index(op->operands, 3 * n))
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (!is_index(r->first->args[i].type))
      return false;
  for (uint32_t i = 0; i < op->nresults; i++)
    if (op->operands[3 * n + i]->type != op->results[i].type)
      return false;
  pr_strn(pr, " (", 2);
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &r->first->args[i]);
  }
  pr_strn(pr, ") = ", 4);
  print_paren_values(pr, op->operands, n);
  pr_str(pr, " to ");
  print_paren_values(pr, op->operands + n, n);
  pr_str(pr, " step ");
  print_paren_values(pr, op->operands + 2 * n, n);
  if (op->nresults) {
    pr_str(pr, " init ");
    print_paren_values(pr, op->operands + 3 * n, op->nresults);
  }
  print_arrow_types(pr, op->results, op->nresults);
  pr_char(pr, ' ');
  pr_region(pr, r, false, false);
  pr_attr_dict(pr, op, seg_only, false);
  return true;
}

/* reduce ::= (`(` operands `:` types `)`)? (region (`,` region)*)? attr-dict */
bool parse_scf_reduce(Parser *p, OpState *st) {
  if (p_opt(p, TOK_LPAREN)) {
    OperandRef *refs;
    uint32_t n, nt;
    Type **types;
    if (!p_operand_list(p, &refs, &n) || !p_expect(p, TOK_COLON, "':'") ||
        !p_type_list(p, &types, &nt) || !p_expect(p, TOK_RPAREN, "')'"))
      return false;
    if (nt != n)
      return p_error(p, "%u operands present, but expected %u", n, nt);
    if (!p_resolve_onto(p, st, refs, n, types, nt))
      return false;
  }
  if (p_is(p, TOK_LBRACE)) {
    do {
      Region *r = st_add_region(p, st);
      if (!p_region(p, r, NULL, 0, false))
        return false;
    } while (p_opt(p, TOK_COMMA));
  }
  return p_opt_attr_dict(p, st);
}

bool print_scf_reduce(Printer *pr, Op *op) {
  if (op->props || op->nresults || op->nsuccs || op->nregions != op->noperands)
    return false;
  for (uint32_t i = 0; i < op->nregions; i++)
    if (!op->regions[i].first)
      return false;
  if (op->noperands) {
    pr_char(pr, '(');
    pr_values(pr, op->operands, op->noperands);
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, op->operands, op->noperands);
    pr_char(pr, ')');
  }
  for (uint32_t i = 0; i < op->nregions; i++) {
    pr_str(pr, i ? ", " : " ");
    pr_region(pr, &op->regions[i], true, false);
  }
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* reduce.return ::= %v attr-dict `:` type */
bool parse_scf_reduce_return(Parser *p, OpState *st) {
  OperandRef v;
  Type *t;
  return p_operand(p, &v) && p_opt_attr_dict(p, st) && p_expect(p, TOK_COLON, "':'") &&
         p_type(p, &t) && p_resolve_onto(p, st, &v, 1, &t, 1);
}

bool print_scf_reduce_return(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->props || op->nresults || op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* execute_region ::= (`->` types)? `no_inline`? region attr-dict */
bool parse_scf_execute_region(Parser *p, OpState *st) {
  Type **types;
  uint32_t n;
  if (!parse_opt_arrow_types(p, &types, &n))
    return false;
  for (uint32_t i = 0; i < n; i++)
    st_add_result_type(p, st, types[i]);
  if (p_opt_kw(p, "no_inline"))
    st_add_prop(p, st, "no_inline", ir_attr_unit(p_ctx(p)));
  Region *r = st_add_region(p, st);
  return p_region(p, r, NULL, 0, false) && p_opt_attr_dict(p, st);
}

bool print_scf_execute_region(Printer *pr, Op *op) {
  static const char *const allowed[] = {"no_inline", NULL};
  Attr *ni = prop(op, "no_inline");
  if (op->noperands || op->nregions != 1 || op->nsuccs || !only_props(op, allowed) ||
      (ni && ni->kind != ATTR_UNIT) || !op->regions[0].first || op->regions[0].first->nargs)
    return false;
  print_arrow_types(pr, op->results, op->nresults);
  if (ni)
    pr_str(pr, " no_inline");
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* ---- cf.switch ------------------------------------------------------------------------------ */

static Type *vector_of(IrCtx *ctx, Type *elem, int64_t n) {
  Type vt = {.kind = TY_VECTOR};
  vt.u.sh.shape = &n;
  vt.u.sh.rank = 1;
  vt.u.sh.elem = elem;
  return ir_type_intern(ctx, &vt);
}

/* switch ::= %flag `:` type `,` `[` `default` `:` successor (`,` integer `:` successor)* `]`
 *            attr-dict
 * The case values become `dense<...> : vector<Nx type>` (a splat when all are equal, as MLIR
 * stores them), the operand counts of the cases case_operand_segments. */
bool parse_switch(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  OperandRef flag;
  Type *t;
  if (!p_operand(p, &flag) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) ||
      !p_resolve_onto(p, st, &flag, 1, &t, 1) || !p_expect(p, TOK_COMMA, "','") ||
      !p_expect(p, TOK_LSQUARE, "'['") || !p_kw(p, "default") || !p_expect(p, TOK_COLON, "':'"))
    return false;
  uint32_t seg[3] = {1, 0, 0};
  if (!p_successor_with_args(p, st, &seg[1]))
    return false;
  int64_t vals[256], counts[256];
  uint32_t n = 0;
  while (p_opt(p, TOK_COMMA)) {
    if (n == 256)
      return p_error(p, "too many cases");
    uint32_t k;
    if (!p_int(p, &vals[n]) || !p_expect(p, TOK_COLON, "':'") || !p_successor_with_args(p, st, &k))
      return false;
    /* MLIR prints case values zero-extended: keep them as the flag's width reads them signed */
    uint32_t w = t->kind == TY_INT ? t->u.i.width : 64;
    if (w < 64 && w > 0) {
      uint64_t m = (uint64_t)vals[n] & ((1ull << w) - 1);
      vals[n] = (m >> (w - 1)) ? (int64_t)(m | ~((1ull << w) - 1)) : (int64_t)m;
    }
    counts[n++] = k;
    seg[2] += k;
  }
  if (!p_expect(p, TOK_RSQUARE, "']'"))
    return false;
  st_add_prop(p, st, "case_operand_segments", ir_attr_dense_i32(ctx, counts, n));
  if (n)
    st_add_prop(p, st, "case_values", ir_attr_dense_ints(ctx, vector_of(ctx, t, n), vals, n));
  st_set_segments(p, st, seg, 3);
  return p_opt_attr_dict(p, st);
}

/* The n case values of a dense integer attribute (one value for a splat). */
static bool case_values(const Attr *a, int64_t *out, uint32_t n) {
  if (!a || a->kind != ATTR_DENSE || !a->type || a->type->kind != TY_VECTOR ||
      a->type->u.sh.rank != 1 || a->type->u.sh.shape[0] != (int64_t)n || !a->u.dense.ivals ||
      (!a->u.dense.splat && a->u.dense.n != n))
    return false;
  for (uint32_t i = 0; i < n; i++)
    out[i] = a->u.dense.ivals[a->u.dense.splat ? 0 : i];
  return true;
}

bool print_switch(Printer *pr, Op *op) {
  static const char *const allowed[] = {"operandSegmentSizes", "case_operand_segments",
                                        "case_values", NULL};
  int64_t seg[3], vals[256];
  Attr *cs = prop(op, "case_operand_segments"), *cv = prop(op, "case_values");
  if (!ir_op_segments(op, seg, 3) || seg[0] != 1 || !only_props(op, allowed) || op->nresults ||
      op->nregions || !op->nsuccs || op->nsuccs > 257 || !cs || cs->kind != ATTR_DENSE_ARRAY ||
      !ir_type_is_integer(cs->type, 32) || cs->u.darr.fvals || cs->u.darr.n != op->nsuccs - 1 ||
      (op->nsuccs > 1
           ? !case_values(cv, vals, op->nsuccs - 1) || cv->type->u.sh.elem != op->operands[0]->type
           : cv != NULL))
    return false;
  int64_t sum = 0;
  for (uint32_t i = 0; i < cs->u.darr.n; i++)
    sum += cs->u.darr.ivals[i] < 0 ? -(1ll << 40) : cs->u.darr.ivals[i];
  if (sum != seg[2])
    return false;
  uint32_t w = op->operands[0]->type->kind == TY_INT ? op->operands[0]->type->u.i.width : 64;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, ", [default: ");
  pr_successor(pr, op->succs[0], op->operands + 1, (uint32_t)seg[1]);
  Value *const *args = op->operands + 1 + seg[1];
  for (uint32_t i = 0; i + 1 < op->nsuccs; i++) {
    if (w > 0 && w < 64) /* zero-extended, as MLIR prints (which at 64 bits it cannot read back) */
      pr_fmt(pr, ", %llu: ", (unsigned long long)vals[i] & ((1ull << w) - 1));
    else
      pr_fmt(pr, ", %lld: ", (long long)vals[i]);
    pr_successor(pr, op->succs[i + 1], args, (uint32_t)cs->u.darr.ivals[i]);
    args += cs->u.darr.ivals[i];
  }
  pr_char(pr, ']');
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* ---- index.bool.constant, index.cmp, index.sizeof ------------------------------------------- */

/* bool.constant ::= attr-dict (`true` | `false`) */
bool parse_index_bool_constant(Parser *p, OpState *st) {
  if (!p_opt_attr_dict(p, st))
    return false;
  bool v = p_is_kw(p, "true");
  if (!v && !p_is_kw(p, "false"))
    return p_error(p, "expected 'true' or 'false'");
  p_next(p);
  st_add_prop(p, st, "value", ir_attr_bool(p_ctx(p), v));
  st_add_result_type(p, st, ir_type_int(p_ctx(p), 1, SIGNLESS));
  return true;
}

bool print_index_bool_constant(Printer *pr, Op *op) {
  static const char *const allowed[] = {"value", NULL};
  Attr *v = prop(op, "value");
  if (!v || v->kind != ATTR_BOOL || !only_props(op, allowed) || op->noperands ||
      op->nresults != 1 || !is_i1(op->results[0].type) || op->nregions || op->nsuccs)
    return false;
  pr_attr_dict(pr, op, allowed, false);
  pr_str(pr, v->u.b ? " true" : " false");
  return true;
}

static const char *const index_preds[] = {"eq",  "ne",  "slt", "sle", "sgt", "sge",
                                          "ult", "ule", "ugt", "uge", NULL};

/* cmp ::= predicate `(` %a `,` %b `)` attr-dict ; pred is `#index<cmp_predicate P>` */
bool parse_index_cmp(Parser *p, OpState *st) {
  int pred = -1;
  for (int i = 0; index_preds[i]; i++)
    if (p_is_kw(p, index_preds[i]))
      pred = i;
  if (pred < 0)
    return p_error(p, "expected comparison predicate");
  p_next(p);
  OperandRef r[2];
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_operand(p, &r[1]) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  char buf[64];
  int n = snprintf(buf, sizeof buf, "#index<cmp_predicate %s>", index_preds[pred]);
  Attr *a = ir_alloc(p_ctx(p), sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern(p_ctx(p), buf, (size_t)n);
  st_add_prop(p, st, "pred", a);
  Type *index = ir_type_index(p_ctx(p));
  st_add_result_type(p, st, ir_type_int(p_ctx(p), 1, SIGNLESS));
  return p_resolve_onto(p, st, r, 2, &index, 1) && p_opt_attr_dict(p, st);
}

bool print_index_cmp(Printer *pr, Op *op) {
  static const char *const allowed[] = {"pred", NULL};
  static const char pre[] = "#index<cmp_predicate ";
  Attr *a = prop(op, "pred");
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len <= sizeof pre ||
      memcmp(a->u.str.s, pre, sizeof pre - 1) != 0 || a->u.str.s[a->u.str.len - 1] != '>' ||
      !only_props(op, allowed) || op->noperands != 2 || !ir_all_index(op->operands, 2) ||
      op->nresults != 1 || !is_i1(op->results[0].type) || op->nregions || op->nsuccs)
    return false;
  Str p = {a->u.str.s + sizeof pre - 1, a->u.str.len - (uint32_t)sizeof pre};
  bool known = false;
  for (int i = 0; index_preds[i] && !known; i++)
    known = strlen(index_preds[i]) == p.len && memcmp(index_preds[i], p.s, p.len) == 0;
  if (!known)
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, p.s, p.len);
  pr_char(pr, '(');
  pr_values(pr, op->operands, 2);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* sizeof ::= attr-dict ; the result is an index */
bool parse_index_sizeof(Parser *p, OpState *st) {
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return p_opt_attr_dict(p, st);
}

bool print_index_sizeof(Printer *pr, Op *op) {
  if (op->props || op->noperands || op->nresults != 1 || !is_index(op->results[0].type) ||
      op->nregions || op->nsuccs)
    return false;
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* ---- scf.index_switch ----------------------------------------------------------------------- */

/* index_switch ::= %arg attr-dict (`->` types)? (`case` integer region)* `default` region
 * The default region comes first among the op's regions and gets an implicit scf.yield (and
 * leaves out a bare one when printed); case regions are printed and parsed as they are. */
bool parse_index_switch(Parser *p, OpState *st) {
  OperandRef a;
  Type *index = ir_type_index(p_ctx(p));
  Type **types;
  uint32_t nt;
  nt = 0;
  if (!p_operand(p, &a) || !p_resolve_onto(p, st, &a, 1, &index, 1) || !p_opt_attr_dict(p, st) ||
      (p_opt(p, TOK_ARROW) && !p_type_list(p, &types, &nt)))
    return false;
  for (uint32_t i = 0; i < nt; i++)
    st_add_result_type(p, st, types[i]);
  Region *def = st_add_region(p, st);
  int64_t cases[256];
  uint32_t n = 0;
  while (p_opt_kw(p, "case")) {
    if (n == 256)
      return p_error(p, "too many cases");
    Region *r = st_add_region(p, st);
    if (!p_int(p, &cases[n++]) || !p_region(p, r, NULL, 0, false))
      return false;
  }
  if (!p_kw(p, "default") || !p_region(p, def, NULL, 0, false))
    return false;
  p_ensure_terminator(p, def, "scf.yield", st->src);
  st_add_prop(p, st, "cases", ir_attr_dense_i64(p_ctx(p), cases, n));
  return true;
}

bool print_index_switch(Printer *pr, Op *op) {
  static const char *const allowed[] = {"cases", NULL};
  Attr *c = prop(op, "cases");
  if (!ir_attr_is_dense_i64(c) || c->u.darr.n + 1 != op->nregions || !only_props(op, allowed) ||
      op->noperands != 1 || !is_index(op->operands[0]->type) || op->nsuccs)
    return false;
  Region *def = &op->regions[0];
  if (!def->first || def->first != def->last || def->first->nargs || !def->last->last ||
      !def->last->last->info || !(def->last->last->info->flags & OPF_TERMINATOR))
    return false;
  for (uint32_t i = 1; i < op->nregions; i++)
    if (op->regions[i].first && op->regions[i].first->nargs)
      return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, allowed, false);
  if (op->nresults) {
    pr_str(pr, " -> ");
    for (uint32_t i = 0; i < op->nresults; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_type(pr, op->results[i].type);
    }
  }
  for (uint32_t i = 0; i <= c->u.darr.n; i++) {
    Region *r = &op->regions[i == c->u.darr.n ? 0 : i + 1];
    if (i == c->u.darr.n)
      pr_str(pr, " default ");
    else
      pr_fmt(pr, " case %lld ", (long long)c->u.darr.ivals[i]);
    if (r == def && ir_region_ends_in_bare(r, "scf.yield"))
      pr_region_no_terminators(pr, r, false);
    else
      pr_region(pr, r, false, false);
  }
  return true;
}

/* ---- scf.forall, scf.forall.in_parallel ----------------------------------------------------- */

/* forall ::= `(` ivs `)` (`in` `(` ubs `)` | `=` `(` lbs `)` `to` `(` ubs `)` `step` `(` steps `)`)
 *            (`shared_outs` `(` %o `=` %init, ... `)`)? (`->` `(` types `)`)? region attr-dict
 * Bounds are dynamic-index-lists in parentheses; `in` means lower bounds 0 and steps 1. The body
 * gets an implicit scf.forall.in_parallel holding one empty block. */
bool parse_scf_forall(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  Type *index = ir_type_index(ctx);
  RegionArg *ivs;
  uint32_t n, seg[4] = {0, 0, 0, 0};
  if (!parse_arg_names(p, &ivs, &n, index))
    return false;
  OpState idx = {0};
  if (p_opt_kw(p, "in")) {
    if (!p_dynamic_index_list(p, &idx, "staticUpperBound", &seg[1], true))
      return false;
    int64_t *zeros = ir_alloc(ctx, n * sizeof *zeros + 1),
            *ones = ir_alloc(ctx, n * sizeof *ones + 1);
    for (uint32_t i = 0; i < n; i++)
      ones[i] = 1;
    st_add_prop(p, st, "staticLowerBound", ir_attr_dense_i64(ctx, zeros, n));
    st_add_prop(p, st, "staticStep", ir_attr_dense_i64(ctx, ones, n));
  } else {
    /* operands must come lower bounds, upper bounds, steps: read each list into its own state */
    OpState lb = {0}, ub = {0}, step = {0};
    if (!p_expect(p, TOK_EQUAL, "'='") ||
        !p_dynamic_index_list(p, &lb, "staticLowerBound", &seg[0], true) || !p_kw(p, "to") ||
        !p_dynamic_index_list(p, &ub, "staticUpperBound", &seg[1], true) || !p_kw(p, "step") ||
        !p_dynamic_index_list(p, &step, "staticStep", &seg[2], true))
      return false;
    OpState *parts[3] = {&lb, &ub, &step};
    for (int k = 0; k < 3; k++) {
      for (uint32_t i = 0; i < parts[k]->noperands; i++)
        st_add_operand(p, st, parts[k]->operands[i]);
      st_add_prop(p, st, parts[k]->props[0].name.s, parts[k]->props[0].value);
    }
  }
  for (uint32_t i = 0; i < idx.noperands; i++)
    st_add_operand(p, st, idx.operands[i]);
  for (uint32_t i = 0; i < idx.nprops; i++)
    st_add_prop(p, st, idx.props[i].name.s, idx.props[i].value);
  RegionArg *outs = NULL;
  OperandRef *inits = NULL;
  uint32_t nout = 0;
  Type **types = NULL;
  uint32_t nt = 0;
  if (p_opt_kw(p, "shared_outs") && !parse_assignments(p, &outs, &inits, &nout))
    return false;
  if (p_opt(p, TOK_ARROW) && !p_paren_type_list(p, &types, &nt))
    return false;
  if (nt != nout)
    return p_error(p, "expected %u result types, got %u", nout, nt);
  if (!p_resolve_onto(p, st, inits, nout, types, nt))
    return false;
  seg[3] = nout;
  st_set_segments(p, st, seg, 4);
  RegionArg *args = ir_alloc(ctx, (n + nout) * sizeof *args + 1);
  for (uint32_t i = 0; i < n; i++)
    args[i] = ivs[i];
  for (uint32_t i = 0; i < nout; i++) {
    args[n + i] = outs[i];
    args[n + i].type = types[i];
    st_add_result_type(p, st, types[i]);
  }
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, args, n + nout, false))
    return false;
  Op *last = r->last ? r->last->last : NULL;
  p_ensure_terminator(p, r, "scf.forall.in_parallel", st->src);
  Op *t = r->last->last;
  if (t != last && !t->nregions) {
    /* the inserted terminator holds one empty block, as MLIR builds it */
    t->regions = ir_alloc(ctx, sizeof(Region));
    t->nregions = 1;
    t->regions[0].parent = t;
    Block *b = ir_alloc(ctx, sizeof *b);
    b->parent = &t->regions[0];
    t->regions[0].first = t->regions[0].last = b;
  }
  return p_opt_attr_dict(p, st);
}

static bool all_equal(const Attr *a, int64_t v) {
  for (uint32_t i = 0; i < a->u.darr.n; i++)
    if (a->u.darr.ivals[i] != v)
      return false;
  return true;
}

/* an scf.forall.in_parallel whose region is one empty block: what parsing puts back */
static bool bare_in_parallel(const Region *r) {
  const Op *t = r->last ? r->last->last : NULL;
  return t && ir_str_eq(t->name, "scf.forall.in_parallel") && !t->noperands && !t->nresults &&
         !t->props && !t->attrs && !t->nsuccs && t->nregions == 1 && t->regions[0].first &&
         t->regions[0].first == t->regions[0].last && !t->regions[0].first->first &&
         !t->regions[0].first->nargs;
}

bool print_scf_forall(Printer *pr, Op *op) {
  static const char *const allowed[] = {
      "operandSegmentSizes", "staticLowerBound", "staticUpperBound", "staticStep", "mapping", NULL};
  static const char *const elide[] = {"operandSegmentSizes", "staticLowerBound", "staticUpperBound",
                                      "staticStep", NULL};
  int64_t seg[4];
  Attr *lb = prop(op, "staticLowerBound"), *ub = prop(op, "staticUpperBound"),
       *st = prop(op, "staticStep");
  if (!ir_op_segments(op, seg, 4) || !only_props(op, allowed) || !ir_attr_is_dense_i64(lb) || !ir_attr_is_dense_i64(ub) ||
      !ir_attr_is_dense_i64(st) || op->nregions != 1 || op->nsuccs || seg[3] != op->nresults)
    return false;
  uint32_t n = ub->u.darr.n;
  Region *r = &op->regions[0];
  Value *const *d = op->operands;
  if (lb->u.darr.n != n || st->u.darr.n != n || !r->first || r->first != r->last ||
      r->first->nargs != n + op->nresults ||
      !pr_dynamic_index_list(NULL, lb, d, (uint32_t)seg[0], true, true) ||
      !pr_dynamic_index_list(NULL, ub, d + seg[0], (uint32_t)seg[1], true, true) ||
      !pr_dynamic_index_list(NULL, st, d + seg[0] + seg[1], (uint32_t)seg[2], true, true))
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (!is_index(r->first->args[i].type))
      return false;
  Value *const *outs = d + seg[0] + seg[1] + seg[2];
  for (uint32_t i = 0; i < op->nresults; i++)
    if (outs[i]->type != op->results[i].type || r->first->args[n + i].type != op->results[i].type)
      return false;
  if (!op->nresults && !bare_in_parallel(r))
    return false;
  pr_strn(pr, " (", 2);
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &r->first->args[i]);
  }
  if (!seg[0] && !seg[2] && all_equal(lb, 0) && all_equal(st, 1)) {
    pr_str(pr, ") in ");
    pr_dynamic_index_list(pr, ub, d + seg[0], (uint32_t)seg[1], false, true);
  } else {
    pr_str(pr, ") = ");
    pr_dynamic_index_list(pr, lb, d, (uint32_t)seg[0], false, true);
    pr_str(pr, " to ");
    pr_dynamic_index_list(pr, ub, d + seg[0], (uint32_t)seg[1], false, true);
    pr_str(pr, " step ");
    pr_dynamic_index_list(pr, st, d + seg[0] + seg[1], (uint32_t)seg[2], false, true);
  }
  if (op->nresults) {
    pr_str(pr, " shared_outs");
    print_assignments(pr, r->first->args + n, outs, op->nresults);
    pr_str(pr, " -> ");
    print_type_list_paren(pr, op->results, op->nresults);
  }
  pr_char(pr, ' ');
  if (op->nresults)
    pr_region(pr, r, false, false);
  else
    pr_region_no_terminators(pr, r, false);
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* in_parallel ::= region attr-dict ; an empty region gets one empty block */
bool parse_scf_in_parallel(Parser *p, OpState *st) {
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, NULL, 0, false))
    return false;
  if (!r->first) {
    Block *b = ir_alloc(p_ctx(p), sizeof *b);
    b->parent = r;
    r->first = r->last = b;
  }
  return p_opt_attr_dict(p, st);
}

bool print_scf_in_parallel(Printer *pr, Op *op) {
  if (op->noperands || op->nresults || op->props || op->nsuccs || op->nregions != 1 ||
      !op->regions[0].first || op->regions[0].first != op->regions[0].last ||
      op->regions[0].first->nargs)
    return false;
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

