/* custom_arith.c - custom assembly forms of the rest of arith and math, and of func.constant and
 * func.call_indirect:
 *   arith   addui_extended, mulsi_extended/mului_extended, casts with flags (trunci overflow,
 *           extf fastmath, truncf rounding mode and fastmath, scaling_extf/scaling_truncf)
 *   math    fpowi, isnan/isinf/isfinite/isnormal, sincos, clampf, and `ternary` for fma (also
 *           vector.fma); the plain unary and binary math ops use custom.c's unary_fm, binary and
 *           binary_fm
 *   func    constant, call_indirect
 *
 * As everywhere in ir/, parse_X fills the OpState with what `mlir-opt --mlir-print-op-generic`
 * shows, and print_X declines (returns false before writing) when the op has a shape its custom
 * form cannot carry. `#arith.fastmath<none>` and `#arith.overflow<none>` are dropped when an op
 * is created (parser.c), so an absent flags property means the default and no clause is printed
 * for it. */
#include "ir/internal.h"

#include <string.h>

/* ---- Small shared pieces -------------------------------------------------------------------- */

static Attr *prop(const Op *op, const char *name) { return ir_dict_get(op->props, name); }

static bool plain(const Op *op) { return !op->nregions && !op->nsuccs && ir_op_props_inherent(op); }

static Type *i1_like(IrCtx *ctx, Type *t) {
  Type *i1 = ir_type_int(ctx, 1, SIGNLESS);
  if (t->kind == TY_VECTOR || t->kind == TY_TENSOR) {
    Type s = *t;
    s.u.sh.elem = i1;
    return ir_type_intern(ctx, &s);
  }
  return i1;
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

/* ---- arith ---------------------------------------------------------------------------------- */

/* addui_extended ::= %a `,` %b attr-dict `:` type `,` type   (sum and overflow types) */
bool parse_addui_extended(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *sum, *ovf;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &sum) ||
      !p_expect(p, TOK_COMMA, "','") || !p_type(p, &ovf))
    return false;
  st_add_result_type(p, st, sum);
  st_add_result_type(p, st, ovf);
  return p_resolve_onto(p, st, r, 2, &sum, 1);
}

bool print_addui_extended(Printer *pr, Op *op) {
  if (op->noperands != 2 || op->nresults != 2 || !plain(op) ||
      !ir_values_typed(op->operands, 2, op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, op->results[1].type);
  return true;
}

/* mul-extended ::= %a `,` %b attr-dict `:` type   (low and high halves share the type) */
bool parse_mul_extended(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

bool print_mul_extended(Printer *pr, Op *op) {
  if (op->noperands != 2 || op->nresults != 2 || !plain(op) ||
      op->results[1].type != op->results[0].type ||
      !ir_values_typed(op->operands, 2, op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* The rounding modes of arith.truncf and arith.scaling_truncf, by their i32 value. */
static const char *const rounding_modes[] = {"to_nearest_even", "downward", "upward", "toward_zero",
                                             "to_nearest_away"};
#define NROUNDING (sizeof rounding_modes / sizeof rounding_modes[0])

/* arith-cast ::= %in (`,` %scale)? rounding-mode? (`overflow` `<`...`>`)? (`fastmath` `<`...`>`)?
 *                attr-dict `:` type (`,` type)? `to` type
 * Each op accepts only its own clauses in MLIR; trunci has overflow, extf fastmath, truncf and
 * scaling_truncf a rounding mode and fastmath, scaling_extf fastmath. */
bool parse_arith_cast(Parser *p, OpState *st) {
  OperandRef r[2];
  uint32_t n = 1;
  if (!p_operand(p, &r[0]))
    return false;
  if (p_opt(p, TOK_COMMA)) {
    if (!p_operand(p, &r[1]))
      return false;
    n = 2;
  }
  for (uint32_t i = 0; i < NROUNDING; i++)
    if (p_is_kw(p, rounding_modes[i])) {
      p_next(p);
      st_add_prop(p, st, "roundingmode",
                  ir_attr_int(p_ctx(p), ir_type_int(p_ctx(p), 32, SIGNLESS), i));
      break;
    }
  if (!parse_opt_flags(p, st, "overflow", "overflowFlags", "arith.overflow") ||
      !parse_opt_fastmath(p, st) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  Type *in[2], *out;
  if (!p_type(p, &in[0]) || (n == 2 && (!p_expect(p, TOK_COMMA, "','") || !p_type(p, &in[1]))) ||
      !p_kw(p, "to") || !p_type(p, &out))
    return false;
  st_add_result_type(p, st, out);
  return p_resolve_onto(p, st, r, n, in, n);
}

bool print_arith_cast(Printer *pr, Op *op) {
  static const char *const elide[] = {"roundingmode", "overflowFlags", "fastmath", NULL};
  Attr *rm = prop(op, "roundingmode"), *ovf = prop(op, "overflowFlags"), *fm = prop(op, "fastmath");
  if (op->noperands < 1 || op->noperands > 2 || op->nresults != 1 || !plain(op) ||
      !pr_flags_fit(ovf, "arith.overflow") || !pr_flags_fit(fm, "arith.fastmath") ||
      (rm && (rm->kind != ATTR_INT || rm->u.i.big || !ir_type_is_integer(rm->type, 32) ||
              rm->u.i.v < 0 || rm->u.i.v >= (int64_t)NROUNDING)))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  if (rm) {
    pr_char(pr, ' ');
    pr_str(pr, rounding_modes[rm->u.i.v]);
  }
  pr_flags(pr, ovf, "arith.overflow", "overflow");
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, op->noperands);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- math ----------------------------------------------------------------------------------- */

/* fpowi ::= %base `,` %power (`fastmath` `<`...`>`)? attr-dict `:` type `,` type */
bool parse_fpowi(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_opt_fastmath(p, st) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[0]);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_fpowi(Printer *pr, Op *op) {
  static const char *const elide[] = {"fastmath", NULL};
  Attr *fm = prop(op, "fastmath");
  if (op->noperands != 2 || op->nresults != 1 || !plain(op) || !pr_flags_fit(fm, "arith.fastmath") ||
      op->operands[0]->type != op->results[0].type)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

/* fp-class ::= %x attr-dict `:` type   (isnan, isinf, isfinite, isnormal: an i1 of x's shape;
 * their fastmath has no clause and stays in the attribute dictionary) */
bool parse_fp_class(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_result_type(p, st, i1_like(p_ctx(p), t));
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

/* Whether r is the i1 (or i1 vector or tensor of the same shape) that fp-class gives for x. */
static bool is_i1_like(const Type *x, const Type *r) {
  if (x->kind != TY_VECTOR && x->kind != TY_TENSOR)
    return ir_type_is_integer(r, 1);
  if (r->kind != x->kind || r->u.sh.rank != x->u.sh.rank || r->u.sh.unranked != x->u.sh.unranked ||
      r->u.sh.memspace != x->u.sh.memspace || !ir_type_is_integer(r->u.sh.elem, 1))
    return false;
  for (uint32_t i = 0; i < x->u.sh.rank; i++) {
    bool xs = x->u.sh.scalable && x->u.sh.scalable[i], rs = r->u.sh.scalable && r->u.sh.scalable[i];
    if (r->u.sh.shape[i] != x->u.sh.shape[i] || xs != rs)
      return false;
  }
  return true;
}

bool print_fp_class(Printer *pr, Op *op) {
  if (op->noperands != 1 || op->nresults != 1 || !plain(op) ||
      !is_i1_like(op->operands[0]->type, op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* sincos ::= %x (`fastmath` `<`...`>`)? attr-dict `:` type   (two results of x's type) */
bool parse_sincos(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r) || !parse_opt_fastmath(p, st) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_sincos(Printer *pr, Op *op) {
  static const char *const elide[] = {"fastmath", NULL};
  Attr *fm = prop(op, "fastmath");
  if (op->noperands != 1 || op->nresults != 2 || !plain(op) || !pr_flags_fit(fm, "arith.fastmath") ||
      op->results[0].type != op->operands[0]->type || op->results[1].type != op->operands[0]->type)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* clampf ::= %x `to` `[` %min `,` %max `]` (`fastmath` `<`...`>`)? attr-dict `:` type */
bool parse_clampf(Parser *p, OpState *st) {
  OperandRef r[3];
  Type *t;
  if (!p_operand(p, &r[0]) || !p_kw(p, "to") || !p_expect(p, TOK_LSQUARE, "'['") ||
      !p_operand(p, &r[1]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !parse_opt_fastmath(p, st) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 3, &t, 1);
}

bool print_clampf(Printer *pr, Op *op) {
  static const char *const elide[] = {"fastmath", NULL};
  Attr *fm = prop(op, "fastmath");
  if (op->noperands != 3 || op->nresults != 1 || !plain(op) || !pr_flags_fit(fm, "arith.fastmath") ||
      !ir_values_typed(op->operands, 3, op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, " to [", 5);
  pr_values(pr, op->operands + 1, 2);
  pr_char(pr, ']');
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ternary ::= %a `,` %b `,` %c (`fastmath` `<`...`>`)? attr-dict `:` type
 * (math.fma, and vector.fma, which has no fastmath) */
bool parse_ternary(Parser *p, OpState *st) {
  OperandRef r[3];
  Type *t;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) || !parse_opt_fastmath(p, st) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 3, &t, 1);
}

bool print_ternary(Printer *pr, Op *op) {
  static const char *const elide[] = {"fastmath", NULL};
  Attr *fm = prop(op, "fastmath");
  if (op->noperands != 3 || op->nresults != 1 || !plain(op) || !pr_flags_fit(fm, "arith.fastmath") ||
      !ir_values_typed(op->operands, 3, op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 3);
  pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- func.constant, func.call_indirect ------------------------------------------------------ */

/* func-constant ::= attr-dict @symbol `:` type */
bool parse_func_constant(Parser *p, OpState *st) {
  Str sym;
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_symbol(p, &sym) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_prop(p, st, "value", ir_attr_symref(p_ctx(p), &sym, 1));
  st_add_result_type(p, st, t);
  return true;
}

bool print_func_constant(Printer *pr, Op *op) {
  static const char *const elide[] = {"value", NULL};
  Attr *v = prop(op, "value");
  if (op->noperands || op->nresults != 1 || !plain(op) || !v || v->kind != ATTR_SYMREF ||
      v->u.sym.n != 1)
    return false;
  pr_attr_dict(pr, op, elide, false);
  pr_char(pr, ' ');
  pr_symbol(pr, v->u.sym.path[0]);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* call-indirect ::= %callee `(` operands `)` attr-dict `:` function-type */
bool parse_call_indirect(Parser *p, OpState *st) {
  OperandRef callee, *args;
  uint32_t n;
  if (!p_operand(p, &callee) || !p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &args, &n) ||
      !p_expect(p, TOK_RPAREN, "')'") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  Type *fn;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC)
    return p_error_at(p, pos, "expected function type");
  if (fn->u.fn.nin != n)
    return p_error_at(p, pos, "%u operands present, but expected %u", n, fn->u.fn.nin);
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  return p_resolve_onto(p, st, &callee, 1, &fn, 1) &&
         p_resolve_onto(p, st, args, n, fn->u.fn.in, n);
}

bool print_call_indirect(Printer *pr, Op *op) {
  if (!op->noperands || !plain(op))
    return false;
  const Type *fn = op->operands[0]->type;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != op->noperands - 1 || fn->u.fn.nout != op->nresults)
    return false;
  for (uint32_t i = 0; i < fn->u.fn.nin; i++)
    if (op->operands[i + 1]->type != fn->u.fn.in[i])
      return false;
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    if (op->results[i].type != fn->u.fn.out[i])
      return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '(');
  pr_values(pr, op->operands + 1, op->noperands - 1);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, fn);
  return true;
}
