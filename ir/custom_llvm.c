/* custom_llvm.c - custom assembly forms of the LLVM dialect ops that host code lowered by
 * `mlir-opt --gpu-to-llvm` and the usual *-to-llvm passes is made of.
 *
 * The LLVM dialect stores many properties with default values that its custom syntax never shows
 * (`fastmathFlags = #llvm.fastmath<none>`, `ordering = 0 : i64`, a function's `CConv`, `linkage`,
 * `unnamed_addr` and `visibility_`, ...), yet mlir-opt's generic form always lists them. So each
 * form names its defaults in a table: the parser adds them before reading the attribute
 * dictionary (an inherent attribute written there comes later and wins), and the printer elides a
 * property only while it holds its default. Any other inherent property the syntax has no place
 * for is printed in the attribute dictionary, which is how mlir-opt prints them too; a property
 * the op table does not list as inherent makes the printer fall back to the generic form. */
#include "ir/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Shared pieces -------------------------------------------------------------------------- */

static Attr *prop(const Op *op, const char *name) { return ir_dict_get(op->props, name); }

/* A property with a default: an opaque #llvm.* attribute (text), or the integer v : i<width>. */
typedef struct Default {
  const char *name;
  const char *text;
  int64_t v;
  uint32_t width;
} Default;

static const Default fm_defaults[] = {{"fastmathFlags", "#llvm.fastmath<none>", 0, 0}, {NULL, NULL, 0, 0}};
static const Default func_defaults[] = {
    {"CConv", "#llvm.cconv<ccc>", 0, 0}, {"linkage", "#llvm.linkage<external>", 0, 0},
    {"unnamed_addr", NULL, 0, 64}, {"visibility_", NULL, 0, 64}, {NULL, NULL, 0, 0}};
static const Default global_defaults[] = {
    {"addr_space", NULL, 0, 32}, {"linkage", "#llvm.linkage<external>", 0, 0},
    {"unnamed_addr", NULL, 0, 64}, {"visibility_", NULL, 0, 64}, {NULL, NULL, 0, 0}};
static const Default call_defaults[] = {
    {"CConv", "#llvm.cconv<ccc>", 0, 0}, {"TailCallKind", "#llvm.tailcallkind<none>", 0, 0},
    {"fastmathFlags", "#llvm.fastmath<none>", 0, 0}, {NULL, NULL, 0, 0}};

static Attr *opaque_attr(IrCtx *ctx, const char *text) {
  Attr *a = ir_alloc(ctx, sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern_cstr(ctx, text);
  return a;
}

static Attr *int_attr(IrCtx *ctx, uint32_t width, int64_t v) {
  return ir_attr_int(ctx, ir_type_int(ctx, width, SIGNLESS), v);
}

static bool is_int(const Attr *a, uint32_t width, int64_t v) {
  return a && a->kind == ATTR_INT && !a->u.i.big && ir_type_is_integer(a->type, width) && a->u.i.v == v;
}

static bool is_opaque(const Attr *a, const char *text) {
  return a && a->kind == ATTR_OPAQUE && ir_str_eq(a->u.str, text);
}

static bool holds_default(const Op *op, const Default *d) {
  Attr *a = prop(op, d->name);
  return d->text ? is_opaque(a, d->text) : is_int(a, d->width, d->v);
}

static void add_defaults(Parser *p, OpState *st, const Default *d) {
  for (; d && d->name; d++)
    st_add_prop(p, st, d->name,
                d->text ? opaque_attr(p_ctx(p), d->text) : int_attr(p_ctx(p), d->width, d->v));
}

/* Whether name is in the op's inherent list of ops.def. */
static bool is_inherent(const Op *op, Str name) {
  const char *s = op->info ? op->info->inherent : NULL;
  while (s && *s) {
    const char *e = strchr(s, ' ');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (name.len == n && memcmp(name.s, s, n) == 0)
      return true;
    s += n + (e != NULL);
  }
  return false;
}

/* The names the attribute dictionary must leave out: those the syntax shows (shown, NULL-ended)
 * and the defaults the op still holds. False when a default is missing (the form cannot be
 * printed) or a property is neither shown nor inherent. out must hold 32 names. */
static bool elide_list(const Op *op, const char *const *shown, const Default *defs, const char **out) {
  uint32_t n = 0;
  if (op->props && op->props->kind != ATTR_DICT)
    return false;
  for (; shown && *shown; shown++)
    out[n++] = *shown;
  for (; defs && defs->name; defs++) {
    if (!prop(op, defs->name))
      return false;
    if (holds_default(op, defs))
      out[n++] = defs->name;
  }
  out[n] = NULL;
  for (uint32_t i = 0; op->props && i < op->props->u.dict.n; i++) {
    Str name = op->props->u.dict.entries[i].name;
    bool listed = false;
    for (uint32_t j = 0; j < n && !listed; j++)
      listed = ir_str_eq(name, out[j]);
    if (!listed && !is_inherent(op, name))
      return false;
  }
  return true;
}

static bool is_dense_int(const Attr *a, uint32_t width) {
  return a && a->kind == ATTR_DENSE_ARRAY && !a->u.darr.fvals && ir_type_is_integer(a->type, width);
}

static void print_int_list(Printer *pr, const int64_t *v, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    pr_fmt(pr, i ? ", %lld" : "%lld", (long long)v[i]);
}

static Type *i1_like(IrCtx *ctx, Type *t) {
  Type *i1 = ir_type_int(ctx, 1, SIGNLESS);
  if (t->kind == TY_VECTOR) {
    Type s = *t;
    s.u.sh.elem = i1;
    return ir_type_intern(ctx, &s);
  }
  return i1;
}

/* `overflow<nsw, nuw>` -> bit 1 nsw, bit 2 nuw */
static bool parse_overflow(Parser *p, int64_t *flags) {
  *flags = 0;
  if (!p_opt_kw(p, "overflow"))
    return true;
  if (!p_expect(p, TOK_LESS, "'<'"))
    return false;
  do {
    if (p_opt_kw(p, "nsw"))
      *flags |= 1;
    else if (p_opt_kw(p, "nuw"))
      *flags |= 2;
    else
      return p_error(p, "expected 'nsw' or 'nuw'");
  } while (p_opt(p, TOK_COMMA));
  return p_expect(p, TOK_GREATER, "'>'");
}

static bool overflow_fits(const Attr *a) {
  return a && a->kind == ATTR_INT && !a->u.i.big && ir_type_is_integer(a->type, 32) && a->u.i.v >= 0 &&
         a->u.i.v <= 3;
}

static void print_overflow(Printer *pr, const Attr *a) {
  static const char *const text[] = {"", " overflow<nsw>", " overflow<nuw>", " overflow<nsw, nuw>"};
  pr_str(pr, text[a->u.i.v]);
}

/* ---- Constants and symbols ------------------------------------------------------------------ */

/* constant ::= `(` attr `)` attr-dict `:` type */
bool parse_llvm_constant(Parser *p, OpState *st) {
  Attr *v;
  Type *t;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_attr(p, NULL, &v) || !p_expect(p, TOK_RPAREN, "')'") ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_prop(p, st, "value", v);
  st_add_result_type(p, st, t);
  return true;
}

bool print_llvm_constant(Printer *pr, Op *op) {
  static const char *const shown[] = {"value", NULL};
  const char *elide[32];
  Attr *v = prop(op, "value");
  if (!v || op->noperands || op->nresults != 1 || op->nregions || op->nsuccs ||
      !elide_list(op, shown, NULL, elide))
    return false;
  pr_strn(pr, "(", 1);
  pr_attr(pr, v);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* nullary ::= attr-dict `:` type   (llvm.mlir.zero, poison, undef) */
bool parse_llvm_nullary(Parser *p, OpState *st) {
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return true;
}

bool print_llvm_nullary(Printer *pr, Op *op) {
  if (op->props || op->noperands || op->nresults != 1 || op->nregions || op->nsuccs)
    return false;
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* addressof ::= @global attr-dict `:` type */
bool parse_llvm_addressof(Parser *p, OpState *st) {
  Str name;
  Type *t;
  if (!p_symbol(p, &name) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_prop(p, st, "global_name", ir_attr_symref(p_ctx(p), &name, 1));
  st_add_result_type(p, st, t);
  return true;
}

bool print_llvm_addressof(Printer *pr, Op *op) {
  static const char *const shown[] = {"global_name", NULL};
  const char *elide[32];
  Attr *g = prop(op, "global_name");
  if (!g || g->kind != ATTR_SYMREF || g->u.sym.n != 1 || op->noperands || op->nresults != 1 ||
      op->nregions || !elide_list(op, shown, NULL, elide))
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, g->u.sym.path[0]);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- Arithmetic ----------------------------------------------------------------------------- */

static bool same_types(const Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type != op->results[0].type)
      return false;
  return true;
}

/* binary ::= (`exact` | `disjoint`)? %a `,` %b overflow? attr-dict `:` type */
static bool parse_bin(Parser *p, OpState *st, const Default *defs, bool ovf) {
  if (p_opt_kw(p, "exact"))
    st_add_prop(p, st, "isExact", ir_attr_unit(p_ctx(p)));
  else if (p_opt_kw(p, "disjoint"))
    st_add_prop(p, st, "isDisjoint", ir_attr_unit(p_ctx(p)));
  OperandRef r[2];
  int64_t flags = 0;
  Type *t;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      (ovf && !parse_overflow(p, &flags)))
    return false;
  if (ovf)
    st_add_prop(p, st, "overflowFlags", int_attr(p_ctx(p), 32, flags));
  add_defaults(p, st, defs);
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

static bool print_bin(Printer *pr, Op *op, const Default *defs, bool ovf) {
  static const char *const shown_ovf[] = {"overflowFlags", "isExact", "isDisjoint", NULL};
  const char *elide[32];
  Attr *exact = prop(op, "isExact"), *disjoint = prop(op, "isDisjoint");
  Attr *flags = prop(op, "overflowFlags");
  if (op->noperands != 2 || op->nresults != 1 || op->nregions || op->nsuccs || !same_types(op) ||
      (exact && exact->kind != ATTR_UNIT) || (disjoint && disjoint->kind != ATTR_UNIT) ||
      (exact && disjoint) || (ovf && !overflow_fits(flags)) ||
      !elide_list(op, ovf ? shown_ovf : shown_ovf + 1, defs, elide))
    return false;
  if (exact)
    pr_str(pr, " exact");
  if (disjoint)
    pr_str(pr, " disjoint");
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  if (ovf)
    print_overflow(pr, flags);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_llvm_binary(Parser *p, OpState *st) { return parse_bin(p, st, NULL, false); }
bool print_llvm_binary(Printer *pr, Op *op) { return print_bin(pr, op, NULL, false); }
bool parse_llvm_binary_ovf(Parser *p, OpState *st) { return parse_bin(p, st, NULL, true); }
bool print_llvm_binary_ovf(Printer *pr, Op *op) { return print_bin(pr, op, NULL, true); }
bool parse_llvm_binary_fm(Parser *p, OpState *st) { return parse_bin(p, st, fm_defaults, false); }
bool print_llvm_binary_fm(Printer *pr, Op *op) { return print_bin(pr, op, fm_defaults, false); }

/* fneg ::= %a attr-dict `:` type */
bool parse_llvm_unary_fm(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r))
    return false;
  add_defaults(p, st, fm_defaults);
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_llvm_unary_fm(Printer *pr, Op *op) {
  const char *elide[32];
  if (op->noperands != 1 || op->nresults != 1 || op->nregions || !same_types(op) ||
      !elide_list(op, NULL, fm_defaults, elide))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* cast ::= `nneg`? %a overflow? attr-dict `:` type `to` type
 * (trunc always holds overflowFlags; zext and uitofp may hold nonNeg) */
static bool parse_cast(Parser *p, OpState *st, bool ovf) {
  if (p_opt_kw(p, "nneg"))
    st_add_prop(p, st, "nonNeg", ir_attr_unit(p_ctx(p)));
  OperandRef r;
  int64_t flags = 0;
  Type *in, *out;
  if (!p_operand(p, &r) || (ovf && !parse_overflow(p, &flags)))
    return false;
  if (ovf)
    st_add_prop(p, st, "overflowFlags", int_attr(p_ctx(p), 32, flags));
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &in) || !p_kw(p, "to") ||
      !p_type(p, &out))
    return false;
  st_add_result_type(p, st, out);
  return p_resolve_onto(p, st, &r, 1, &in, 1);
}

static bool print_cast(Printer *pr, Op *op, bool ovf) {
  static const char *const shown[] = {"overflowFlags", "nonNeg", NULL};
  const char *elide[32];
  Attr *nneg = prop(op, "nonNeg"), *flags = prop(op, "overflowFlags");
  if (op->noperands != 1 || op->nresults != 1 || op->nregions || op->nsuccs ||
      (nneg && nneg->kind != ATTR_UNIT) || (ovf && !overflow_fits(flags)) ||
      !elide_list(op, ovf ? shown : shown + 1, NULL, elide))
    return false;
  if (nneg)
    pr_str(pr, " nneg");
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (ovf)
    print_overflow(pr, flags);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_str(pr, " to ");
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_llvm_cast(Parser *p, OpState *st) { return parse_cast(p, st, false); }
bool print_llvm_cast(Printer *pr, Op *op) { return print_cast(pr, op, false); }
bool parse_llvm_trunc(Parser *p, OpState *st) { return parse_cast(p, st, true); }
bool print_llvm_trunc(Printer *pr, Op *op) { return print_cast(pr, op, true); }

/* icmp ::= `"` predicate `"` %a `,` %b attr-dict `:` type ; fcmp likewise, with fastmathFlags */
static const char *const icmp_preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL};
static const char *const fcmp_preds[] = {"_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                                         "ugt", "uge", "ult", "ule", "une", "uno", "_true", NULL};

static bool parse_cmp(Parser *p, OpState *st, const char *const *preds, const Default *defs) {
  Str s;
  const char *pos = p_tok(p)->text;
  if (!p_string(p, &s))
    return false;
  int64_t pred = -1;
  for (int i = 0; preds[i] && pred < 0; i++)
    if (s.len == strlen(preds[i]) && memcmp(s.s, preds[i], s.len) == 0)
      pred = i;
  if (pred < 0)
    return p_error_at(p, pos, "unknown comparison predicate \"%.*s\"", (int)s.len, s.s);
  OperandRef r[2];
  Type *t;
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]))
    return false;
  st_add_prop(p, st, "predicate", int_attr(p_ctx(p), 64, pred));
  add_defaults(p, st, defs);
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, i1_like(p_ctx(p), t));
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

static bool print_cmp(Printer *pr, Op *op, const char *const *preds, int npreds, const Default *defs) {
  static const char *const shown[] = {"predicate", NULL};
  const char *elide[32];
  Attr *pred = prop(op, "predicate");
  if (!pred || pred->kind != ATTR_INT || pred->u.i.big || !ir_type_is_integer(pred->type, 64) ||
      pred->u.i.v < 0 || pred->u.i.v >= npreds || op->noperands != 2 || op->nresults != 1 ||
      op->operands[0]->type != op->operands[1]->type || op->nregions || !elide_list(op, shown, defs, elide))
    return false;
  pr_strn(pr, " \"", 2);
  pr_str(pr, preds[pred->u.i.v]);
  pr_strn(pr, "\" ", 2);
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

bool parse_llvm_icmp(Parser *p, OpState *st) { return parse_cmp(p, st, icmp_preds, NULL); }
bool print_llvm_icmp(Printer *pr, Op *op) { return print_cmp(pr, op, icmp_preds, 10, NULL); }
bool parse_llvm_fcmp(Parser *p, OpState *st) { return parse_cmp(p, st, fcmp_preds, fm_defaults); }
bool print_llvm_fcmp(Printer *pr, Op *op) { return print_cmp(pr, op, fcmp_preds, 16, fm_defaults); }

/* select ::= %c `,` %a `,` %b attr-dict `:` type `,` type */
bool parse_llvm_select(Parser *p, OpState *st) {
  OperandRef r[3];
  Type *t[3];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]))
    return false;
  add_defaults(p, st, fm_defaults);
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  t[2] = t[1];
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 3, t, 3);
}

bool print_llvm_select(Printer *pr, Op *op) {
  const char *elide[32];
  if (op->noperands != 3 || op->nresults != 1 || op->nregions ||
      op->operands[1]->type != op->results[0].type || op->operands[2]->type != op->results[0].type ||
      !elide_list(op, NULL, fm_defaults, elide))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 3);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- Memory --------------------------------------------------------------------------------- */

static bool opt_unit_kw(Parser *p, OpState *st, const char *kw, const char *name) {
  if (!p_opt_kw(p, kw))
    return false;
  st_add_prop(p, st, name, ir_attr_unit(p_ctx(p)));
  return true;
}

static bool unit_or_absent(const Op *op, const char *name) {
  Attr *a = prop(op, name);
  return !a || a->kind == ATTR_UNIT;
}

/* (`atomic` (`syncscope` `(` string `)`)? ordering)? as the properties ordering and syncscope */
static const char *const orderings[] = {"not_atomic", "unordered", "monotonic", NULL, "acquire", "release",
                                        "acq_rel", "seq_cst", NULL};

static bool parse_atomic(Parser *p, OpState *st) {
  int64_t ord = 0;
  if (p_opt_kw(p, "atomic")) {
    if (p_opt_kw(p, "syncscope")) {
      Str scope;
      if (!p_expect(p, TOK_LPAREN, "'('") || !p_string(p, &scope) || !p_expect(p, TOK_RPAREN, "')'"))
        return false;
      st_add_prop(p, st, "syncscope", ir_attr_string(p_ctx(p), scope.s, scope.len));
    }
    for (ord = 1; ord < 8; ord++)
      if (orderings[ord] && p_opt_kw(p, orderings[ord]))
        break;
    if (ord == 8)
      return p_error(p, "expected an atomic ordering");
  }
  st_add_prop(p, st, "ordering", int_attr(p_ctx(p), 64, ord));
  return true;
}

static bool atomic_fits(const Op *op) {
  Attr *o = prop(op, "ordering"), *scope = prop(op, "syncscope");
  return o && o->kind == ATTR_INT && !o->u.i.big && ir_type_is_integer(o->type, 64) && o->u.i.v >= 0 &&
         o->u.i.v < 8 && orderings[o->u.i.v] && (!scope || (scope->kind == ATTR_STRING && !scope->type &&
                                                            o->u.i.v != 0));
}

static void print_atomic(Printer *pr, const Op *op) {
  Attr *o = prop(op, "ordering"), *scope = prop(op, "syncscope");
  if (!o->u.i.v)
    return;
  pr_str(pr, " atomic");
  if (scope) {
    pr_str(pr, " syncscope(");
    pr_string(pr, scope->u.str);
    pr_char(pr, ')');
  }
  pr_char(pr, ' ');
  pr_str(pr, orderings[o->u.i.v]);
}

/* load ::= `volatile`? %p atomic? `invariant`? `invariant_group`? attr-dict `:` ptr-type `->` type
 *          with (`atomic` (`syncscope` `(` string `)`)? ordering)? after %p */
bool parse_llvm_load(Parser *p, OpState *st) {
  OperandRef r;
  Type *pt, *t;
  opt_unit_kw(p, st, "volatile", "volatile_");
  if (!p_operand(p, &r) || !parse_atomic(p, st))
    return false;
  opt_unit_kw(p, st, "invariant", "invariant");
  opt_unit_kw(p, st, "invariant_group", "invariant_group");
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &pt) ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &r, 1, &pt, 1);
}

bool print_llvm_load(Printer *pr, Op *op) {
  static const char *const shown[] = {"volatile_", "invariant", "invariant_group", "ordering", "syncscope",
                                      NULL};
  const char *elide[32];
  if (op->noperands != 1 || op->nresults != 1 || op->nregions || !atomic_fits(op) ||
      !unit_or_absent(op, "volatile_") || !unit_or_absent(op, "invariant") ||
      !unit_or_absent(op, "invariant_group") || !elide_list(op, shown, NULL, elide))
    return false;
  if (prop(op, "volatile_"))
    pr_str(pr, " volatile");
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  print_atomic(pr, op);
  if (prop(op, "invariant"))
    pr_str(pr, " invariant");
  if (prop(op, "invariant_group"))
    pr_str(pr, " invariant_group");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, " -> ", 4);
  pr_type(pr, op->results[0].type);
  return true;
}

/* store ::= `volatile`? %v `,` %p atomic? `invariant_group`? attr-dict `:` type `,` ptr-type */
bool parse_llvm_store(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  opt_unit_kw(p, st, "volatile", "volatile_");
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_atomic(p, st))
    return false;
  opt_unit_kw(p, st, "invariant_group", "invariant_group");
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_llvm_store(Printer *pr, Op *op) {
  static const char *const shown[] = {"volatile_", "invariant_group", "ordering", "syncscope", NULL};
  const char *elide[32];
  if (op->noperands != 2 || op->nresults || op->nregions || !atomic_fits(op) ||
      !unit_or_absent(op, "volatile_") || !unit_or_absent(op, "invariant_group") ||
      !elide_list(op, shown, NULL, elide))
    return false;
  if (prop(op, "volatile_"))
    pr_str(pr, " volatile");
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  print_atomic(pr, op);
  if (prop(op, "invariant_group"))
    pr_str(pr, " invariant_group");
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

/* alloca ::= `inalloca`? %n `x` type attr-dict `:` `(` type `)` `->` type */
bool parse_llvm_alloca(Parser *p, OpState *st) {
  OperandRef r;
  Type *elem, *fn;
  opt_unit_kw(p, st, "inalloca", "inalloca");
  if (!p_operand(p, &r) || !p_kw(p, "x") || !p_type(p, &elem) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != 1 || fn->u.fn.nout != 1)
    return p_error_at(p, pos, "expected a function type with one input and one result");
  st_add_prop(p, st, "elem_type", ir_attr_type(p_ctx(p), elem));
  st_add_result_type(p, st, fn->u.fn.out[0]);
  return p_resolve_onto(p, st, &r, 1, fn->u.fn.in, 1);
}

bool print_llvm_alloca(Printer *pr, Op *op) {
  static const char *const shown[] = {"elem_type", "inalloca", NULL};
  const char *elide[32];
  Attr *et = prop(op, "elem_type");
  if (!et || et->kind != ATTR_TYPE || op->noperands != 1 || op->nresults != 1 || op->nregions ||
      !unit_or_absent(op, "inalloca") || !elide_list(op, shown, NULL, elide))
    return false;
  if (prop(op, "inalloca"))
    pr_str(pr, " inalloca");
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_str(pr, " x ");
  pr_type(pr, et->type);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : (", 4);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ") -> ", 5);
  pr_type(pr, op->results[0].type);
  return true;
}

/* gep ::= flags? %base `[` (int | %idx) (`,` ...)* `]` attr-dict `:` `(` types `)` `->` type `,` type
 * flags ::= `inbounds` | `nusw` | `nuw` joined by `|` (inbounds = 3 implies nusw = 2; nuw = 4) */
#define GEP_DYNAMIC INT32_MIN

bool parse_llvm_gep(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  int64_t flags = 0;
  while (p_is_kw(p, "inbounds") || p_is_kw(p, "nusw") || p_is_kw(p, "nuw")) {
    flags |= p_is_kw(p, "inbounds") ? 3 : p_is_kw(p, "nusw") ? 2 : 4;
    p_next(p);
    if (!p_opt(p, TOK_VBAR))
      break;
  }
  OperandRef base, dyn[64];
  int64_t raw[64];
  uint32_t nraw = 0, ndyn = 0;
  if (!p_operand(p, &base) || !p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  if (!p_is(p, TOK_RSQUARE)) {
    do {
      if (nraw == 64)
        return p_error(p, "too many indices");
      if (p_is(p, TOK_PERCENT)) {
        if (!p_operand(p, &dyn[ndyn++]))
          return false;
        raw[nraw++] = GEP_DYNAMIC;
      } else {
        const char *at = p_tok(p)->text;
        if (!p_int(p, &raw[nraw]))
          return false;
        if (raw[nraw] < INT32_MIN || raw[nraw] > INT32_MAX) /* the indices are i32 */
          return p_error_at(p, at, "custom op 'llvm.getelementptr' integer value too large");
        nraw++;
      }
    } while (p_opt(p, TOK_COMMA));
  }
  Type *fn, *elem;
  if (!p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn) || !p_expect(p, TOK_COMMA, "','") || !p_type(p, &elem))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != ndyn + 1 || fn->u.fn.nout != 1)
    return p_error_at(p, pos, "expected a function type from the base and %u dynamic indices to a pointer",
                      ndyn);
  st_add_prop(p, st, "elem_type", ir_attr_type(ctx, elem));
  st_add_prop(p, st, "noWrapFlags", int_attr(ctx, 32, flags));
  st_add_prop(p, st, "rawConstantIndices", ir_attr_dense_i32(ctx, raw, nraw));
  st_add_result_type(p, st, fn->u.fn.out[0]);
  return p_resolve_onto(p, st, &base, 1, fn->u.fn.in, 1) &&
         p_resolve_onto(p, st, dyn, ndyn, fn->u.fn.in + 1, ndyn);
}

bool print_llvm_gep(Printer *pr, Op *op) {
  static const char *const shown[] = {"elem_type", "noWrapFlags", "rawConstantIndices", NULL};
  static const char *const flag_text[] = {"", NULL, " nusw", " inbounds", " nuw", NULL, " nusw|nuw",
                                          " inbounds|nuw"};
  const char *elide[32];
  Attr *et = prop(op, "elem_type"), *nw = prop(op, "noWrapFlags"), *raw = prop(op, "rawConstantIndices");
  if (!et || et->kind != ATTR_TYPE || !nw || nw->kind != ATTR_INT || nw->u.i.big ||
      !ir_type_is_integer(nw->type, 32) || nw->u.i.v < 0 || nw->u.i.v > 7 || !flag_text[nw->u.i.v] ||
      !is_dense_int(raw, 32) || !op->noperands || op->nresults != 1 || op->nregions ||
      !elide_list(op, shown, NULL, elide))
    return false;
  uint32_t ndyn = 0;
  for (uint32_t i = 0; i < raw->u.darr.n; i++)
    ndyn += raw->u.darr.ivals[i] == GEP_DYNAMIC;
  if (ndyn != op->noperands - 1)
    return false;
  pr_str(pr, flag_text[nw->u.i.v]);
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  for (uint32_t i = 0, d = 1; i < raw->u.darr.n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    if (raw->u.darr.ivals[i] == GEP_DYNAMIC)
      pr_value(pr, op->operands[d++]);
    else
      pr_fmt(pr, "%lld", (long long)raw->u.darr.ivals[i]);
  }
  pr_char(pr, ']');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : (", 4);
  pr_value_types(pr, op->operands, op->noperands);
  pr_strn(pr, ") -> ", 5);
  pr_type(pr, op->results[0].type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, et->type);
  return true;
}

/* The element of an LLVM struct or array at position pos, or NULL. */
static Type *aggregate_elem(Type *t, const int64_t *pos, uint32_t n) {
  for (uint32_t i = 0; i < n && t; i++) {
    if (t->kind == TY_LLVM_STRUCT && pos[i] >= 0 && (uint64_t)pos[i] < t->u.agg.n)
      t = t->u.agg.elems[pos[i]];
    else if (t->kind == TY_LLVM_ARRAY && pos[i] >= 0 && (uint64_t)pos[i] < t->u.arr.count)
      t = t->u.arr.elem;
    else
      t = NULL;
  }
  return t;
}

/* position ::= `[` int (`,` int)* `]` */
static bool parse_position(Parser *p, int64_t *pos, uint32_t *n) {
  *n = 0;
  if (!p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  do {
    if (*n == 32)
      return p_error(p, "position too deep");
    if (!p_int(p, &pos[(*n)++]))
      return false;
  } while (p_opt(p, TOK_COMMA));
  return p_expect(p, TOK_RSQUARE, "']'");
}

/* insertvalue ::= %v `,` %agg position attr-dict `:` agg-type
 * extractvalue ::= %agg position attr-dict `:` agg-type */
static bool parse_aggregate(Parser *p, OpState *st, bool insert) {
  OperandRef v, agg;
  int64_t pos[32];
  uint32_t n;
  Type *t;
  if ((insert && (!p_operand(p, &v) || !p_expect(p, TOK_COMMA, "','"))) || !p_operand(p, &agg) ||
      !parse_position(p, pos, &n) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *tpos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  Type *elem = aggregate_elem(t, pos, n);
  if (!elem)
    return p_error_at(p, tpos, "invalid position for this aggregate type");
  st_add_prop(p, st, "position", ir_attr_dense_i64(p_ctx(p), pos, n));
  if (!p_resolve_onto(p, st, &agg, 1, &t, 1))
    return false;
  if (insert) {
    st_add_result_type(p, st, t);
    return p_resolve_onto(p, st, &v, 1, &elem, 1);
  }
  st_add_result_type(p, st, elem);
  return true;
}

static bool print_aggregate(Printer *pr, Op *op, bool insert) {
  static const char *const shown[] = {"position", NULL};
  const char *elide[32];
  Attr *pos = prop(op, "position");
  if (!is_dense_int(pos, 64) || !pos->u.darr.n || op->noperands != (insert ? 2u : 1u) ||
      op->nresults != 1 || op->nregions || !elide_list(op, shown, NULL, elide))
    return false;
  Type *agg = op->operands[0]->type;
  Type *elem = aggregate_elem(agg, pos->u.darr.ivals, pos->u.darr.n);
  if (!elem || elem != (insert ? op->operands[1]->type : op->results[0].type) ||
      (insert && op->results[0].type != agg))
    return false;
  pr_char(pr, ' ');
  if (insert)
    pr_value(pr, op->operands[1]), pr_strn(pr, ", ", 2);
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  print_int_list(pr, pos->u.darr.ivals, pos->u.darr.n);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, agg);
  return true;
}

bool parse_llvm_insertvalue(Parser *p, OpState *st) { return parse_aggregate(p, st, true); }
bool print_llvm_insertvalue(Printer *pr, Op *op) { return print_aggregate(pr, op, true); }
bool parse_llvm_extractvalue(Parser *p, OpState *st) { return parse_aggregate(p, st, false); }
bool print_llvm_extractvalue(Printer *pr, Op *op) { return print_aggregate(pr, op, false); }

/* ---- Vectors -------------------------------------------------------------------------------- */

/* The element type of a vector type, or NULL. */
static Type *vector_elem(const Type *t) { return t->kind == TY_VECTOR ? t->u.sh.elem : NULL; }

/* `[` %position `:` type `]` */
static bool parse_elem_position(Parser *p, OperandRef *pos, Type **t) {
  return p_expect(p, TOK_LSQUARE, "'['") && p_operand(p, pos) && p_expect(p, TOK_COLON, "':'") &&
         p_type(p, t) && p_expect(p, TOK_RSQUARE, "']'");
}

static void print_elem_position(Printer *pr, const Value *pos) {
  pr_char(pr, '[');
  pr_value(pr, pos);
  pr_strn(pr, " : ", 3);
  pr_type(pr, pos->type);
  pr_char(pr, ']');
}

/* extractelement ::= %vector `[` %position `:` type `]` attr-dict `:` vector-type
 * The result is the vector's element type. */
bool parse_llvm_extractelement(Parser *p, OpState *st) {
  OperandRef v, pos;
  Type *pt, *vt;
  if (!p_operand(p, &v) || !parse_elem_position(p, &pos, &pt) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *at = p_tok(p)->text;
  if (!p_type(p, &vt))
    return false;
  if (!vector_elem(vt))
    return p_error_at(p, at, "expected LLVM dialect-compatible vector type");
  st_add_result_type(p, st, vector_elem(vt));
  return p_resolve_onto(p, st, &v, 1, &vt, 1) && p_resolve_onto(p, st, &pos, 1, &pt, 1);
}

bool print_llvm_extractelement(Printer *pr, Op *op) {
  if (op->props || op->noperands != 2 || op->nresults != 1 || op->nregions || op->nsuccs ||
      vector_elem(op->operands[0]->type) != op->results[0].type)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  print_elem_position(pr, op->operands[1]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* insertelement ::= %value `,` %vector `[` %position `:` type `]` attr-dict `:` vector-type
 * The operands are (vector, value, position); the result has the vector's type. */
bool parse_llvm_insertelement(Parser *p, OpState *st) {
  OperandRef x, v, pos;
  Type *pt, *vt;
  if (!p_operand(p, &x) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &v) ||
      !parse_elem_position(p, &pos, &pt) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *at = p_tok(p)->text;
  if (!p_type(p, &vt))
    return false;
  Type *et = vector_elem(vt);
  if (!et)
    return p_error_at(p, at, "expected LLVM dialect-compatible vector type");
  st_add_result_type(p, st, vt);
  return p_resolve_onto(p, st, &v, 1, &vt, 1) && p_resolve_onto(p, st, &x, 1, &et, 1) &&
         p_resolve_onto(p, st, &pos, 1, &pt, 1);
}

bool print_llvm_insertelement(Printer *pr, Op *op) {
  if (op->props || op->noperands != 3 || op->nresults != 1 || op->nregions || op->nsuccs ||
      op->results[0].type != op->operands[0]->type ||
      vector_elem(op->operands[0]->type) != op->operands[1]->type)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[1]);
  pr_strn(pr, ", ", 2);
  pr_value(pr, op->operands[0]);
  print_elem_position(pr, op->operands[2]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* The result type of a shufflevector of v1 by an n-element mask: a vector of n elements
 * (scalable when v1 is). */
static Type *shuffle_type(IrCtx *ctx, const Type *v1, uint32_t n) {
  Type t = *v1;
  int64_t shape = n;
  t.u.sh.shape = &shape;
  t.u.sh.rank = 1;
  return ir_type_intern(ctx, &t);
}

static bool is_shuffle_type(const Type *r, const Type *v1, uint32_t n) {
  bool s1 = v1->u.sh.scalable && v1->u.sh.scalable[0], sr;
  if (r->kind != TY_VECTOR || r->u.sh.rank != 1 || r->u.sh.shape[0] != (int64_t)n ||
      r->u.sh.elem != v1->u.sh.elem)
    return false;
  sr = r->u.sh.scalable && r->u.sh.scalable[0];
  return sr == s1;
}

/* shufflevector ::= %v1 `,` %v2 `[` integer (`,` integer)* `]` attr-dict `:` vector-type
 * The mask becomes the array<i32> property mask; the result has as many elements. */
bool parse_llvm_shufflevector(Parser *p, OpState *st) {
  OperandRef v[2];
  Type *vt;
  int64_t mask[1024];
  uint32_t n = 0;
  if (!p_operand(p, &v[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &v[1]) ||
      !p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  if (!p_opt(p, TOK_RSQUARE)) {
    do {
      if (n == 1024)
        return p_error(p, "mask too long");
      if (!p_int(p, &mask[n++]))
        return false;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RSQUARE, "']'"))
      return false;
  }
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *at = p_tok(p)->text;
  if (!p_type(p, &vt))
    return false;
  if (!vector_elem(vt) || vt->u.sh.rank != 1)
    return p_error_at(p, at, "expected LLVM IR dialect vector type");
  st_add_prop(p, st, "mask", ir_attr_dense_i32(p_ctx(p), mask, n));
  st_add_result_type(p, st, shuffle_type(p_ctx(p), vt, n));
  return p_resolve_onto(p, st, v, 2, &vt, 1);
}

bool print_llvm_shufflevector(Printer *pr, Op *op) {
  static const char *const shown[] = {"mask", NULL};
  const char *elide[32];
  Attr *mask = prop(op, "mask");
  const Type *t = op->noperands == 2 ? op->operands[0]->type : NULL;
  if (!t || op->nresults != 1 || op->nregions || op->nsuccs || !is_dense_int(mask, 32) ||
      !vector_elem(t) || t->u.sh.rank != 1 || op->operands[1]->type != t ||
      !is_shuffle_type(op->results[0].type, t, mask->u.darr.n) ||
      !elide_list(op, shown, NULL, elide))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_strn(pr, " [", 2);
  print_int_list(pr, mask->u.darr.ivals, mask->u.darr.n);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, t);
  return true;
}

/* ---- Calls and functions -------------------------------------------------------------------- */

/* The keywords before a symbol's name: visibility (`hidden` 1, `protected` 2: visibility_),
 * `thread_local` (thread_local_), unnamed_addr (`local_unnamed_addr` 1, `unnamed_addr` 2) and,
 * for functions and calls, a calling convention (any other bare word: CConv). Each is added as a
 * property after the defaults, so it wins over them. */
static void parse_visibility(Parser *p, OpState *st) {
  if (p_opt_kw(p, "hidden"))
    st_add_prop(p, st, "visibility_", int_attr(p_ctx(p), 64, 1));
  else if (p_opt_kw(p, "protected"))
    st_add_prop(p, st, "visibility_", int_attr(p_ctx(p), 64, 2));
  else
    p_opt_kw(p, "default");
}

static void parse_unnamed_addr(Parser *p, OpState *st) {
  if (p_opt_kw(p, "local_unnamed_addr"))
    st_add_prop(p, st, "unnamed_addr", int_attr(p_ctx(p), 64, 1));
  else if (p_opt_kw(p, "unnamed_addr"))
    st_add_prop(p, st, "unnamed_addr", int_attr(p_ctx(p), 64, 2));
}

static bool parse_cconv(Parser *p, OpState *st) {
  if (p->tok.kind != TOK_BARE)
    return true;
  char buf[96];
  if (p->tok.len > 64)
    return p_error(p, "calling convention too long");
  snprintf(buf, sizeof buf, "#llvm.cconv<%.*s>", (int)p->tok.len, p->tok.text);
  p_next(p);
  st_add_prop(p, st, "CConv", opaque_attr(p_ctx(p), buf));
  return true;
}

/* ` hidden`, ` protected` and the unnamed_addr keywords; false when a value has no keyword */
static bool prefix_fits(const Op *op) {
  Attr *v = prop(op, "visibility_"), *u = prop(op, "unnamed_addr");
  return v && v->kind == ATTR_INT && !v->u.i.big && ir_type_is_integer(v->type, 64) && v->u.i.v >= 0 &&
         v->u.i.v <= 2 && u && u->kind == ATTR_INT && !u->u.i.big && ir_type_is_integer(u->type, 64) &&
         u->u.i.v >= 0 && u->u.i.v <= 2;
}

static void print_visibility(Printer *pr, const Op *op) {
  static const char *const text[] = {"", " hidden", " protected"};
  pr_str(pr, text[prop(op, "visibility_")->u.i.v]);
}

static void print_unnamed_addr(Printer *pr, const Op *op) {
  static const char *const text[] = {"", " local_unnamed_addr", " unnamed_addr"};
  pr_str(pr, text[prop(op, "unnamed_addr")->u.i.v]);
}

/* the X of #llvm.cconv<X>, or false */
static bool cconv_name(const Attr *a, Str *out) {
  static const char pre[] = "#llvm.cconv<";
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len <= sizeof pre || memcmp(a->u.str.s, pre, sizeof pre - 1) ||
      a->u.str.s[a->u.str.len - 1] != '>')
    return false;
  out->s = a->u.str.s + sizeof pre - 1;
  out->len = a->u.str.len - (uint32_t)sizeof pre;
  for (uint32_t i = 0; i < out->len; i++)
    if (!(out->s[i] == '_' || (out->s[i] >= 'a' && out->s[i] <= 'z') || (out->s[i] >= '0' && out->s[i] <= '9')))
      return false;
  return out->len > 0;
}

static void print_cconv(Printer *pr, const Attr *a) {
  Str c;
  if (cconv_name(a, &c) && !(c.len == 3 && memcmp(c.s, "ccc", 3) == 0))
    pr_char(pr, ' '), pr_strn(pr, c.s, c.len);
}

/* call ::= cconv? (`tail` | `musttail` | `notail`)? (@callee | %fn) `(` operands `)` (`vararg` `(` type `)`)? attr-dict
 *          `:` (ptr-type `,`)? `(` types `)` `->` (type | `(` `)`) */
bool parse_llvm_call(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  Str callee = {0};
  OperandRef fnref, *refs;
  uint32_t n;
  static const char *const tails[] = {"tail", "musttail", "notail", NULL};
  const char *tail = NULL;
  Attr *cconv = NULL;
  if (p->tok.kind == TOK_BARE && !p_is_kw(p, "tail") && !p_is_kw(p, "musttail") && !p_is_kw(p, "notail")) {
    char buf[96];
    if (p->tok.len > 64)
      return p_error(p, "calling convention too long");
    snprintf(buf, sizeof buf, "#llvm.cconv<%.*s>", (int)p->tok.len, p->tok.text);
    p_next(p);
    cconv = opaque_attr(ctx, buf);
  }
  for (int i = 0; tails[i] && !tail; i++)
    if (p_opt_kw(p, tails[i]))
      tail = tails[i];
  bool direct = p_is(p, TOK_AT);
  if (direct ? !p_symbol(p, &callee) : !p_operand(p, &fnref))
    return false;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &refs, &n) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (p_opt_kw(p, "vararg")) {
    Type *vt;
    if (!p_expect(p, TOK_LPAREN, "'('") || !p_type(p, &vt) || !p_expect(p, TOK_RPAREN, "')'"))
      return false;
    st_add_prop(p, st, "var_callee_type", ir_attr_type(ctx, vt));
  }
  add_defaults(p, st, call_defaults);
  if (cconv)
    st_add_prop(p, st, "CConv", cconv);
  if (tail) {
    char buf[64];
    snprintf(buf, sizeof buf, "#llvm.tailcallkind<%s>", tail);
    st_add_prop(p, st, "TailCallKind", opaque_attr(ctx, buf));
  }
  if (direct)
    st_add_prop(p, st, "callee", ir_attr_symref(ctx, &callee, 1));
  st_add_prop(p, st, "op_bundle_sizes", ir_attr_dense_i32(ctx, NULL, 0));
  Type *fnptr = NULL, *fn;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || (!direct && !p_type(p, &fnptr)) ||
      (!direct && !p_expect(p, TOK_COMMA, "','")))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != n || fn->u.fn.nout > 1)
    return p_error_at(p, pos, "expected a function type with %u inputs and at most one result", n);
  int64_t seg[2] = {n + !direct, 0};
  st_add_prop(p, st, "operandSegmentSizes", ir_attr_dense_i32(ctx, seg, 2));
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  return (direct || p_resolve_onto(p, st, &fnref, 1, &fnptr, 1)) &&
         p_resolve_onto(p, st, refs, n, fn->u.fn.in, n);
}

bool print_llvm_call(Printer *pr, Op *op) {
  static const char *const shown[] = {"callee", "var_callee_type", "op_bundle_sizes", "operandSegmentSizes",
                                      "TailCallKind", "CConv", NULL};
  const char *elide[32];
  Attr *callee = prop(op, "callee"), *vt = prop(op, "var_callee_type");
  Attr *bundles = prop(op, "op_bundle_sizes"), *seg = prop(op, "operandSegmentSizes");
  Str cc;
  bool direct = callee != NULL;
  if ((callee && (callee->kind != ATTR_SYMREF || callee->u.sym.n != 1)) || (vt && vt->kind != ATTR_TYPE) ||
      !is_dense_int(bundles, 32) || bundles->u.darr.n || !is_dense_int(seg, 32) || seg->u.darr.n != 2 ||
      seg->u.darr.ivals[1] != 0 || seg->u.darr.ivals[0] != op->noperands || (!direct && !op->noperands) ||
      op->nresults > 1 || op->nregions || op->nsuccs || !cconv_name(prop(op, "CConv"), &cc) ||
      !elide_list(op, shown, call_defaults, elide))
    return false;
  static const char *const tails[] = {"#llvm.tailcallkind<none>", "#llvm.tailcallkind<tail>",
                                      "#llvm.tailcallkind<musttail>", "#llvm.tailcallkind<notail>", NULL};
  int tail = -1;
  for (int i = 0; tails[i] && tail < 0; i++)
    if (is_opaque(prop(op, "TailCallKind"), tails[i]))
      tail = i;
  if (tail < 0)
    return false;
  uint32_t first = direct ? 0 : 1;
  print_cconv(pr, prop(op, "CConv"));
  if (tail)
    pr_char(pr, ' '), pr_strn(pr, tails[tail] + 19, strlen(tails[tail]) - 20);
  pr_char(pr, ' ');
  if (direct)
    pr_symbol(pr, callee->u.sym.path[0]);
  else
    pr_value(pr, op->operands[0]);
  pr_char(pr, '(');
  pr_values(pr, op->operands + first, op->noperands - first);
  pr_char(pr, ')');
  if (vt) {
    pr_str(pr, " vararg(");
    pr_type(pr, vt->type);
    pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  if (!direct) {
    pr_type(pr, op->operands[0]->type);
    pr_strn(pr, ", ", 2);
  }
  pr_char(pr, '(');
  pr_value_types(pr, op->operands + first, op->noperands - first);
  pr_strn(pr, ") -> ", 5);
  if (op->nresults)
    pr_type(pr, op->results[0].type);
  else
    pr_strn(pr, "()", 2);
  return true;
}

static const char *const linkages[] = {"private", "internal", "available_externally", "linkonce", "weak",
                                       "common", "appending", "extern_weak", "linkonce_odr", "weak_odr",
                                       "external", NULL};

/* linkage keyword, if any, as the property `linkage` (otherwise the default external follows) */
static void parse_linkage(Parser *p, OpState *st) {
  for (int i = 0; linkages[i]; i++) {
    if (p_is_kw(p, linkages[i])) {
      char buf[64];
      snprintf(buf, sizeof buf, "#llvm.linkage<%s>", linkages[i]);
      p_next(p);
      st_add_prop(p, st, "linkage", opaque_attr(p_ctx(p), buf));
      return;
    }
  }
}

/* ` kw` for a non-external linkage; false when the attribute is not a linkage */
static bool print_linkage(Printer *pr, const Attr *a, bool always) {
  for (int i = 0; linkages[i]; i++) {
    char buf[64];
    snprintf(buf, sizeof buf, "#llvm.linkage<%s>", linkages[i]);
    if (is_opaque(a, buf)) {
      if (always || strcmp(linkages[i], "external") != 0)
        pr_char(pr, ' '), pr_str(pr, linkages[i]);
      return true;
    }
  }
  return false;
}

static bool linkage_ok(const Attr *a) {
  static const char pre[] = "#llvm.linkage<";
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len <= sizeof pre || memcmp(a->u.str.s, pre, sizeof pre - 1))
    return false;
  for (int i = 0; linkages[i]; i++)
    if (a->u.str.len == sizeof pre + strlen(linkages[i]) &&
        memcmp(a->u.str.s + sizeof pre - 1, linkages[i], strlen(linkages[i])) == 0)
      return true;
  return false;
}

/* func ::= `llvm.func` linkage? visibility? unnamed-addr? cconv? @name `(` args `...`? `)` (`->` type | `->` `(` type attrs `)`)?
 *          (`attributes` dict)? region? */
bool parse_llvm_func(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  add_defaults(p, st, func_defaults);
  parse_linkage(p, st);
  parse_visibility(p, st);
  parse_unnamed_addr(p, st);
  if (!parse_cconv(p, st))
    return false;
  Str name;
  RegionArg *args;
  uint32_t nargs;
  NamedAttr **arg_attrs;
  bool vararg;
  if (!p_symbol(p, &name) || !p_arg_list(p, &args, &nargs, &arg_attrs, &vararg, true))
    return false;
  Type *ret = ir_type_simple(ctx, TY_LLVM_VOID);
  Attr *res_attrs = NULL;
  if (p_opt(p, TOK_ARROW)) {
    if (p_is(p, TOK_LPAREN)) {
      RegionArg *rs;
      NamedAttr **rattrs;
      uint32_t nres;
      if (!p_arg_list(p, &rs, &nres, &rattrs, NULL, true))
        return false;
      if (nres != 1)
        return p_error(p, "expected exactly one result type");
      ret = rs[0].type;
      if (rattrs && rattrs[0]) {
        Attr *d = rattrs[0]->value;
        res_attrs = ir_attr_array(ctx, &d, 1);
      }
    } else if (!p_type(p, &ret)) {
      return false;
    }
  }
  Type proto = {.kind = TY_LLVM_FUNC};
  proto.u.lfn.ret = ret;
  proto.u.lfn.params = ir_alloc(ctx, nargs * sizeof(Type *) + 1);
  proto.u.lfn.nparams = nargs;
  proto.u.lfn.vararg = vararg;
  for (uint32_t i = 0; i < nargs; i++)
    proto.u.lfn.params[i] = args[i].type;
  st_add_prop(p, st, "sym_name", ir_attr_string(ctx, name.s, name.len));
  st_add_prop(p, st, "function_type", ir_attr_type(ctx, ir_type_intern(ctx, &proto)));
  if (arg_attrs) {
    Attr **a = ir_alloc(ctx, nargs * sizeof(Attr *) + 1);
    for (uint32_t i = 0; i < nargs; i++)
      a[i] = arg_attrs[i] ? arg_attrs[i]->value : ir_attr_dict(ctx, NULL, 0);
    st_add_prop(p, st, "arg_attrs", ir_attr_array(ctx, a, nargs));
  }
  if (res_attrs)
    st_add_prop(p, st, "res_attrs", res_attrs);
  if (!p_opt_attr_dict_with_keyword(p, st))
    return false;
  Region *r = st_add_region(p, st);
  if (p_is(p, TOK_LBRACE)) {
    for (uint32_t i = 0; i < nargs; i++)
      if (!args[i].ref.name)
        return p_error(p, "expected SSA identifiers for the arguments of a function with a body");
    return p_region(p, r, args, nargs, true);
  }
  return true;
}

static void print_dict_suffix(Printer *pr, const Attr *arr, uint32_t i) {
  if (!arr || i >= arr->u.arr.n)
    return;
  const Attr *d = arr->u.arr.elems[i];
  if (d->kind == ATTR_DICT && d->u.dict.n) {
    pr_char(pr, ' ');
    pr_attr(pr, d);
  }
}

bool print_llvm_func(Printer *pr, Op *op) {
  static const char *const shown[] = {"sym_name", "function_type", "linkage", "arg_attrs", "res_attrs",
                                      "CConv", "visibility_", "unnamed_addr", NULL};
  const char *elide[32];
  Attr *name = prop(op, "sym_name"), *ft = prop(op, "function_type"), *link = prop(op, "linkage");
  Attr *aa = prop(op, "arg_attrs"), *ra = prop(op, "res_attrs");
  Str cc;
  if (!name || name->kind != ATTR_STRING || !ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_LLVM_FUNC ||
      !linkage_ok(link) || op->nregions != 1 || op->noperands || op->nresults || op->nsuccs ||
      !cconv_name(prop(op, "CConv"), &cc) || !prefix_fits(op) || !elide_list(op, shown, func_defaults, elide))
    return false;
  const Type *fn = ft->type;
  bool is_void = fn->u.lfn.ret->kind == TY_LLVM_VOID;
  if ((aa && (aa->kind != ATTR_ARRAY || aa->u.arr.n != fn->u.lfn.nparams)) ||
      (ra && (ra->kind != ATTR_ARRAY || ra->u.arr.n != 1 || is_void)))
    return false;
  Block *entry = op->regions[0].first;
  if (entry && entry->nargs != fn->u.lfn.nparams)
    return false;
  for (uint32_t i = 0; entry && i < entry->nargs; i++)
    if (entry->args[i].type != fn->u.lfn.params[i])
      return false;
  print_linkage(pr, link, false);
  print_visibility(pr, op);
  print_unnamed_addr(pr, op);
  print_cconv(pr, prop(op, "CConv"));
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  pr_char(pr, '(');
  for (uint32_t i = 0; i < fn->u.lfn.nparams; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    if (entry)
      pr_value(pr, &entry->args[i]), pr_strn(pr, ": ", 2);
    pr_type(pr, fn->u.lfn.params[i]);
    print_dict_suffix(pr, aa, i);
    if (entry)
      pr_loc_suffix(pr, entry->args[i].loc);
  }
  if (fn->u.lfn.vararg)
    pr_str(pr, fn->u.lfn.nparams ? ", ..." : "...");
  pr_char(pr, ')');
  if (!is_void) {
    pr_str(pr, " -> ");
    if (ra)
      pr_char(pr, '(');
    pr_type(pr, fn->u.lfn.ret);
    print_dict_suffix(pr, ra, 0);
    if (ra)
      pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, elide, true);
  if (entry) {
    pr_char(pr, ' ');
    pr_region(pr, &op->regions[0], false, false);
  }
  return true;
}

/* global ::= `llvm.mlir.global` linkage? visibility? `thread_local`? unnamed-addr? `constant`? @name `(` attr? `)` attr-dict (`:` type)? region?
 * A string value without a type gives !llvm.array<len x i8>. */
bool parse_llvm_global(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  add_defaults(p, st, global_defaults);
  parse_linkage(p, st);
  parse_visibility(p, st);
  opt_unit_kw(p, st, "thread_local", "thread_local_");
  parse_unnamed_addr(p, st);
  opt_unit_kw(p, st, "constant", "constant");
  Str name;
  Attr *value = NULL;
  if (!p_symbol(p, &name) || !p_expect(p, TOK_LPAREN, "'('"))
    return false;
  if (!p_is(p, TOK_RPAREN) && !p_attr(p, NULL, &value))
    return false;
  if (!p_expect(p, TOK_RPAREN, "')'"))
    return false;
  st_add_prop(p, st, "sym_name", ir_attr_string(ctx, name.s, name.len));
  if (value)
    st_add_prop(p, st, "value", value);
  if (!p_opt_attr_dict(p, st))
    return false;
  Type *t = NULL;
  if (p_opt(p, TOK_COLON)) {
    if (!p_type(p, &t))
      return false;
  } else if (value && value->kind == ATTR_STRING && !value->type) {
    Type proto = {.kind = TY_LLVM_ARRAY};
    proto.u.arr.elem = ir_type_int(ctx, 8, SIGNLESS);
    proto.u.arr.count = value->u.str.len;
    t = ir_type_intern(ctx, &proto);
  } else {
    return p_error(p, "expected ':' and the global's type");
  }
  st_add_prop(p, st, "global_type", ir_attr_type(ctx, t));
  Region *r = st_add_region(p, st);
  if (p_is(p, TOK_LBRACE))
    return p_region(p, r, NULL, 0, true);
  return true;
}

bool print_llvm_global(Printer *pr, Op *op) {
  static const char *const shown[] = {"sym_name", "global_type", "linkage", "constant", "value",
                                      "visibility_", "thread_local_", "unnamed_addr", NULL};
  const char *elide[32];
  Attr *name = prop(op, "sym_name"), *gt = prop(op, "global_type"), *link = prop(op, "linkage");
  Attr *value = prop(op, "value");
  if (!name || name->kind != ATTR_STRING || !gt || gt->kind != ATTR_TYPE || !linkage_ok(link) ||
      !unit_or_absent(op, "constant") || !unit_or_absent(op, "thread_local_") || op->nregions != 1 ||
      op->noperands || op->nresults || !prefix_fits(op) ||
      !elide_list(op, shown, global_defaults, elide) || (value && value->kind == ATTR_UNIT))
    return false;
  print_linkage(pr, link, true);
  print_visibility(pr, op);
  if (prop(op, "thread_local_"))
    pr_str(pr, " thread_local");
  print_unnamed_addr(pr, op);
  if (prop(op, "constant"))
    pr_str(pr, " constant");
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  pr_char(pr, '(');
  if (value)
    pr_attr(pr, value);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, gt->type);
  if (op->regions[0].first) {
    pr_char(pr, ' ');
    pr_region(pr, &op->regions[0], false, false);
  }
  return true;
}

/* ---- Control flow --------------------------------------------------------------------------- */

/* cond_br ::= %c (`weights` `(` `[` int `,` int `]` `)`)? `,` ^bb (`(` args `)`)? `,` ^bb (`(` args `)`)? attr-dict */
bool parse_llvm_cond_br(Parser *p, OpState *st) {
  OperandRef c;
  uint32_t n1, n2;
  Type *i1 = ir_type_int(p_ctx(p), 1, SIGNLESS);
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
  if (!p_expect(p, TOK_COMMA, "','") ||
      !p_successor_with_args(p, st, &n1) || !p_expect(p, TOK_COMMA, "','") ||
      !p_successor_with_args(p, st, &n2) || !p_opt_attr_dict(p, st))
    return false;
  uint32_t seg[3] = {1, n1, n2};
  st_set_segments(p, st, seg, 3);
  return true;
}

bool print_llvm_cond_br(Printer *pr, Op *op) {
  static const char *const shown[] = {"operandSegmentSizes", "branch_weights", NULL};
  const char *elide[32];
  Attr *seg = prop(op, "operandSegmentSizes"), *w = prop(op, "branch_weights");
  if (op->nsuccs != 2 || op->nresults || op->nregions || !is_dense_int(seg, 32) || seg->u.darr.n != 3 ||
      seg->u.darr.ivals[0] != 1 || seg->u.darr.ivals[1] < 0 || seg->u.darr.ivals[2] < 0 ||
      1 + seg->u.darr.ivals[1] + seg->u.darr.ivals[2] != op->noperands ||
      !ir_type_is_integer(op->operands[0]->type, 1) || (w && (!is_dense_int(w, 32) || w->u.darr.n != 2)) ||
      !elide_list(op, shown, NULL, elide))
    return false;
  uint32_t n1 = (uint32_t)seg->u.darr.ivals[1], n2 = (uint32_t)seg->u.darr.ivals[2];
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (w) {
    pr_str(pr, " weights([");
    print_int_list(pr, w->u.darr.ivals, 2);
    pr_str(pr, "])");
  }
  pr_strn(pr, ", ", 2);
  pr_successor(pr, op->succs[0], op->operands + 1, n1);
  pr_strn(pr, ", ", 2);
  pr_successor(pr, op->succs[1], op->operands + 1 + n1, n2);
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* switch ::= %v `:` type `,` ^default (`(` args `)`)? `[` (int `:` ^bb (`(` args `)`)?)* `]` attr-dict
 * case_values is dense<[v, ...]> : vector<N x type> (dense<v> when all are equal, absent without
 * cases); case_operand_segments counts each case's arguments. */
bool parse_llvm_switch(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  OperandRef v;
  Type *t;
  uint32_t ndef, nargs[256], ncases = 0, total = 0;
  int64_t vals[256];
  if (!p_operand(p, &v) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) ||
      !p_resolve_onto(p, st, &v, 1, &t, 1) || !p_expect(p, TOK_COMMA, "','") ||
      !p_successor_with_args(p, st, &ndef) || !p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  if (!p_is(p, TOK_RSQUARE)) {
    do {
      if (ncases == 256)
        return p_error(p, "too many cases");
      if (!p_int(p, &vals[ncases]) || !p_expect(p, TOK_COLON, "':'") ||
          !p_successor_with_args(p, st, &nargs[ncases]))
        return false;
      total += nargs[ncases++];
    } while (p_opt(p, TOK_COMMA));
  }
  if (!p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st))
    return false;
  int64_t segs[256];
  for (uint32_t i = 0; i < ncases; i++)
    segs[i] = nargs[i];
  st_add_prop(p, st, "case_operand_segments", ir_attr_dense_i32(ctx, segs, ncases));
  if (ncases) {
    Type proto = {.kind = TY_VECTOR};
    int64_t shape = ncases;
    proto.u.sh.shape = &shape;
    proto.u.sh.rank = 1;
    proto.u.sh.elem = t;
    st_add_prop(p, st, "case_values", ir_attr_dense_ints(ctx, ir_type_intern(ctx, &proto), vals, ncases));
  }
  uint32_t seg[3] = {1, ndef, total};
  st_set_segments(p, st, seg, 3);
  return true;
}

/* The n values of a case_values attribute (see parse_llvm_switch), or false. */
static bool case_values(const Attr *a, uint32_t n, int64_t *out) {
  if (!a || a->kind != ATTR_DENSE || !a->type || a->type->kind != TY_VECTOR || a->type->u.sh.rank != 1 ||
      a->type->u.sh.shape[0] != (int64_t)n || !a->u.dense.ivals || (!a->u.dense.splat && a->u.dense.n != n))
    return false;
  for (uint32_t i = 0; i < n; i++)
    out[i] = a->u.dense.ivals[a->u.dense.splat ? 0 : i];
  return true;
}

bool print_llvm_switch(Printer *pr, Op *op) {
  static const char *const shown[] = {"case_values", "case_operand_segments", "operandSegmentSizes", NULL};
  const char *elide[32];
  Attr *segs = prop(op, "case_operand_segments"), *seg = prop(op, "operandSegmentSizes");
  int64_t vals[256];
  if (!op->nsuccs || op->nsuccs > 257 || op->nresults || op->nregions || !is_dense_int(segs, 32) ||
      segs->u.darr.n != op->nsuccs - 1 || !is_dense_int(seg, 32) || seg->u.darr.n != 3 ||
      seg->u.darr.ivals[0] != 1 || !elide_list(op, shown, NULL, elide))
    return false;
  uint32_t ncases = op->nsuccs - 1;
  int64_t total = 0;
  for (uint32_t i = 0; i < ncases; i++)
    total += segs->u.darr.ivals[i] < 0 ? 1 << 30 : segs->u.darr.ivals[i];
  if (seg->u.darr.ivals[1] < 0 || seg->u.darr.ivals[2] != total ||
      1 + seg->u.darr.ivals[1] + total != op->noperands ||
      (ncases ? !case_values(prop(op, "case_values"), ncases, vals) : prop(op, "case_values") != NULL))
    return false;
  uint32_t at = 1 + (uint32_t)seg->u.darr.ivals[1];
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ", ", 2);
  pr_successor(pr, op->succs[0], op->operands + 1, at - 1);
  pr_strn(pr, " [", 2);
  for (uint32_t i = 0; i < ncases; i++) {
    uint32_t n = (uint32_t)segs->u.darr.ivals[i];
    pr_fmt(pr, i ? ", %lld: " : "%lld: ", (long long)vals[i]);
    pr_successor(pr, op->succs[i + 1], op->operands + at, n);
    at += n;
  }
  pr_char(pr, ']');
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* ---- Atomics and intrinsics ----------------------------------------------------------------- */

static const char *const rmw_ops[] = {"xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min",
                                      "umax", "umin", "fadd", "fsub", "fmax", "fmin", "uinc_wrap",
                                      "udec_wrap", "usub_cond", "usub_sat", "fmaximum", "fminimum", NULL};

/* `syncscope` `(` string `)` as the property syncscope, if present */
static bool parse_syncscope(Parser *p, OpState *st) {
  Str scope;
  if (!p_opt_kw(p, "syncscope"))
    return true;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_string(p, &scope) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  st_add_prop(p, st, "syncscope", ir_attr_string(p_ctx(p), scope.s, scope.len));
  return true;
}

static bool print_syncscope(Printer *pr, const Op *op) {
  Attr *scope = prop(op, "syncscope");
  if (scope && (scope->kind != ATTR_STRING || scope->type))
    return false;
  if (scope) {
    pr_str(pr, " syncscope(");
    pr_string(pr, scope->u.str);
    pr_char(pr, ')');
  }
  return true;
}

/* an ordering keyword other than not_atomic, as the integer property name */
static bool parse_ordering(Parser *p, OpState *st, const char *name) {
  for (int64_t i = 1; i < 8; i++) {
    if (orderings[i] && p_opt_kw(p, orderings[i])) {
      st_add_prop(p, st, name, int_attr(p_ctx(p), 64, i));
      return true;
    }
  }
  return p_error(p, "expected an atomic ordering");
}

static const char *ordering_of(const Op *op, const char *name) {
  Attr *o = prop(op, name);
  if (!o || o->kind != ATTR_INT || o->u.i.big || !ir_type_is_integer(o->type, 64) || o->u.i.v < 1 ||
      o->u.i.v > 7)
    return NULL;
  return orderings[o->u.i.v];
}

/* atomicrmw ::= `volatile`? op %p `,` %v syncscope? ordering attr-dict `:` ptr-type `,` type */
bool parse_llvm_atomicrmw(Parser *p, OpState *st) {
  opt_unit_kw(p, st, "volatile", "volatile_");
  int64_t bin = -1;
  for (int i = 0; rmw_ops[i] && bin < 0; i++)
    if (p_opt_kw(p, rmw_ops[i]))
      bin = i;
  if (bin < 0)
    return p_error(p, "expected an atomicrmw operation");
  st_add_prop(p, st, "bin_op", int_attr(p_ctx(p), 64, bin));
  OperandRef r[2];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !parse_syncscope(p, st) || !parse_ordering(p, st, "ordering") || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_type(p, &t[1]))
    return false;
  st_add_result_type(p, st, t[1]);
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_llvm_atomicrmw(Printer *pr, Op *op) {
  static const char *const shown[] = {"volatile_", "bin_op", "syncscope", "ordering", NULL};
  const char *elide[32];
  Attr *bin = prop(op, "bin_op");
  const char *ord = ordering_of(op, "ordering");
  if (!bin || bin->kind != ATTR_INT || bin->u.i.big || !ir_type_is_integer(bin->type, 64) || bin->u.i.v < 0 ||
      bin->u.i.v > 20 || !ord || op->noperands != 2 || op->nresults != 1 ||
      op->results[0].type != op->operands[1]->type || !unit_or_absent(op, "volatile_") ||
      !elide_list(op, shown, NULL, elide))
    return false;
  Attr *scope = prop(op, "syncscope");
  if (scope && (scope->kind != ATTR_STRING || scope->type))
    return false;
  if (prop(op, "volatile_"))
    pr_str(pr, " volatile");
  pr_char(pr, ' ');
  pr_str(pr, rmw_ops[bin->u.i.v]);
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  print_syncscope(pr, op);
  pr_char(pr, ' ');
  pr_str(pr, ord);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands, 2);
  return true;
}

/* cmpxchg ::= `weak`? `volatile`? %p `,` %cmp `,` %v syncscope? ordering ordering attr-dict
 *             `:` ptr-type `,` type ; the result is !llvm.struct<(type, i1)> */
bool parse_llvm_cmpxchg(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  opt_unit_kw(p, st, "weak", "weak");
  opt_unit_kw(p, st, "volatile", "volatile_");
  OperandRef r[3];
  Type *t[3];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) || !parse_syncscope(p, st) ||
      !parse_ordering(p, st, "success_ordering") || !parse_ordering(p, st, "failure_ordering") ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1]))
    return false;
  t[2] = t[1];
  Type *elems[2] = {t[1], ir_type_int(ctx, 1, SIGNLESS)};
  Type proto = {.kind = TY_LLVM_STRUCT};
  proto.u.agg.elems = elems;
  proto.u.agg.n = 2;
  st_add_result_type(p, st, ir_type_intern(ctx, &proto));
  return p_resolve_onto(p, st, r, 3, t, 3);
}

bool print_llvm_cmpxchg(Printer *pr, Op *op) {
  static const char *const shown[] = {"weak", "volatile_", "syncscope", "success_ordering", "failure_ordering",
                                      NULL};
  const char *elide[32];
  const char *succ = ordering_of(op, "success_ordering"), *fail = ordering_of(op, "failure_ordering");
  Attr *scope = prop(op, "syncscope");
  if (!succ || !fail || op->noperands != 3 || op->nresults != 1 ||
      op->operands[1]->type != op->operands[2]->type || !unit_or_absent(op, "weak") ||
      !unit_or_absent(op, "volatile_") || (scope && (scope->kind != ATTR_STRING || scope->type)) ||
      !elide_list(op, shown, NULL, elide))
    return false;
  Type *res = op->results[0].type;
  if (res->kind != TY_LLVM_STRUCT || res->u.agg.named || res->u.agg.packed || res->u.agg.n != 2 ||
      res->u.agg.elems[0] != op->operands[1]->type || !ir_type_is_integer(res->u.agg.elems[1], 1))
    return false;
  if (prop(op, "weak"))
    pr_str(pr, " weak");
  if (prop(op, "volatile_"))
    pr_str(pr, " volatile");
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 3);
  print_syncscope(pr, op);
  pr_char(pr, ' ');
  pr_str(pr, succ);
  pr_char(pr, ' ');
  pr_str(pr, fail);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ", ", 2);
  pr_type(pr, op->operands[1]->type);
  return true;
}

/* fence ::= syncscope? ordering attr-dict */
bool parse_llvm_fence(Parser *p, OpState *st) {
  return parse_syncscope(p, st) && parse_ordering(p, st, "ordering") && p_opt_attr_dict(p, st);
}

bool print_llvm_fence(Printer *pr, Op *op) {
  static const char *const shown[] = {"syncscope", "ordering", NULL};
  const char *elide[32];
  const char *ord = ordering_of(op, "ordering");
  Attr *scope = prop(op, "syncscope");
  if (!ord || op->noperands || op->nresults || op->nregions ||
      (scope && (scope->kind != ATTR_STRING || scope->type)) || !elide_list(op, shown, NULL, elide))
    return false;
  print_syncscope(pr, op);
  pr_char(pr, ' ');
  pr_str(pr, ord);
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* intrinsic ::= `(` operands `)` attr-dict `:` function-type   (llvm.intr.sqrt, smax, ...) */
static bool parse_intr(Parser *p, OpState *st, const Default *defs) {
  OperandRef *refs;
  uint32_t n;
  Type *fn;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &refs, &n) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  add_defaults(p, st, defs);
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != n)
    return p_error_at(p, pos, "expected a function type with %u inputs", n);
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  return p_resolve_onto(p, st, refs, n, fn->u.fn.in, n);
}

static bool print_intr(Printer *pr, Op *op, const Default *defs) {
  const char *elide[32];
  if (op->nregions || op->nsuccs || !elide_list(op, NULL, defs, elide))
    return false;
  pr_char(pr, '(');
  pr_values(pr, op->operands, op->noperands);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : (", 4);
  pr_value_types(pr, op->operands, op->noperands);
  pr_strn(pr, ") -> ", 5);
  if (op->nresults == 1)
    pr_type(pr, op->results[0].type);
  else {
    pr_char(pr, '(');
    for (uint32_t i = 0; i < op->nresults; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_type(pr, op->results[i].type);
    }
    pr_char(pr, ')');
  }
  return true;
}

/* fntype ::= operands attr-dict `:` function-type   (llvm.intr.coro.id, begin, save, free, end:
 * MLIR's `functional-type(operands, results)` without parentheses around the operands) */
bool parse_llvm_fntype(Parser *p, OpState *st) {
  OperandRef *refs;
  uint32_t n;
  Type *fn;
  if (!p_operand_list(p, &refs, &n) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != n)
    return p_error_at(p, pos, "expected a function type with %u inputs", n);
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  return p_resolve_onto(p, st, refs, n, fn->u.fn.in, n);
}

bool print_llvm_fntype(Printer *pr, Op *op) {
  if (op->props || op->nregions || op->nsuccs || !op->noperands || op->nresults != 1)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, op->noperands);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : (", 4);
  pr_value_types(pr, op->operands, op->noperands);
  pr_strn(pr, ") -> ", 5);
  pr_type(pr, op->results[0].type);
  return true;
}

/* coro_suspend ::= %save `,` %final attr-dict `:` type   (a !llvm.token and an i1; the result's
 * type) */
bool parse_llvm_coro_suspend(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t, *in[2] = {ir_type_simple(p_ctx(p), TY_LLVM_TOKEN), ir_type_int(p_ctx(p), 1, SIGNLESS)};
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 2, in, 2);
}

bool print_llvm_coro_suspend(Printer *pr, Op *op) {
  if (op->props || op->nregions || op->nsuccs || op->noperands != 2 || op->nresults != 1 ||
      op->operands[0]->type->kind != TY_LLVM_TOKEN || !ir_type_is_integer(op->operands[1]->type, 1))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_llvm_intr(Parser *p, OpState *st) { return parse_intr(p, st, NULL); }
bool print_llvm_intr(Printer *pr, Op *op) { return print_intr(pr, op, NULL); }
bool parse_llvm_intr_fm(Parser *p, OpState *st) { return parse_intr(p, st, fm_defaults); }
bool print_llvm_intr_fm(Printer *pr, Op *op) { return print_intr(pr, op, fm_defaults); }
