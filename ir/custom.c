/* custom.c - custom assembly forms of the ops in ops.def, and the op table itself.
 *
 * Each form is a parse_X / print_X pair. parse_X reads what follows the op name and fills the
 * OpState with exactly what MLIR's generic form holds (inherent attributes as properties,
 * operandSegmentSizes where the op has them). print_X writes what follows the op name; it returns
 * false, before writing anything, when the op does not fit the form, and the generic form is used.
 * Many ops share a form (all binary arith ops, all casts), which is why ops.def names the form. */
#include "ir/internal.h"

#include <pthread.h>
#include <string.h>

/* ---- Small shared pieces -------------------------------------------------------------------- */

static Attr *prop(const Op *op, const char *name) { return ir_dict_get(op->props, name); }

static bool only_props(const Op *op, const char *const *allowed) {
  if (op->props && op->props->kind != ATTR_DICT)
    return false;
  if (!op->props)
    return true;
  for (uint32_t i = 0; i < op->props->u.dict.n; i++) {
    bool ok = false;
    for (const char *const *a = allowed; a && *a && !ok; a++)
      ok = ir_str_eq(op->props->u.dict.entries[i].name, *a);
    if (!ok)
      return false;
  }
  return true;
}

static bool all_types_equal(const Op *op) {
  Type *t = op->nresults ? op->results[0].type : NULL;
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type != t)
      return false;
  return t != NULL;
}

/* `kw<...>` read raw and kept as the dialect attribute `#dialect.kw<...>` */
bool p_flags_attr(Parser *p, const char *prefix, Attr **out) {
  const char *body;
  uint32_t blen;
  p->lx.cur = p->tok.text + p->tok.len;
  if (!p_balanced(p, &body, &blen, "expected '<'"))
    return false;
  char buf[512];
  int n = snprintf(buf, sizeof buf, "#%s%.*s", prefix, (int)blen, body);
  if (n >= (int)sizeof buf)
    return p_error(p, "attribute too long");
  Attr *a = ir_alloc(p->ctx, sizeof *a);
  a->kind = ATTR_OPAQUE;
  /* normalization: collapse blanks after commas the way syntax.c does */
  char norm[512];
  int o = 0;
  for (int i = 0; i < n && o < (int)sizeof norm - 2; i++) {
    if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\t')
      continue;
    norm[o++] = buf[i];
    if (buf[i] == ',')
      norm[o++] = ' ';
  }
  a->u.str = ir_canon_flags(p->ctx, ir_intern(p->ctx, norm, (size_t)o));
  p_next(p);
  *out = a;
  return true;
}

/* prints ` kw<...>` from a `#prefix<...>` attribute; false if it has another shape */
bool pr_flags(Printer *pr, const Attr *a, const char *prefix, const char *kw) {
  size_t n = strlen(prefix);
  if (!a || !pr_flags_fit(a, prefix))
    return false;
  pr_char(pr, ' ');
  pr_str(pr, kw);
  pr_strn(pr, a->u.str.s + 1 + n, a->u.str.len - 1 - n);
  return true;
}

bool pr_flags_fit(const Attr *a, const char *prefix) {
  size_t n = strlen(prefix);
  return !a || (a->kind == ATTR_OPAQUE && a->u.str.len > n + 2 && a->u.str.s[0] == '#' &&
                memcmp(a->u.str.s + 1, prefix, n) == 0 && a->u.str.s[n + 1] == '<');
}

/* ---- Checks several forms share ------------------------------------------------------------ */

bool ir_op_segments(const Op *op, int64_t *out, uint32_t n) {
  Attr *s = prop(op, "operandSegmentSizes");
  if (!s || s->kind != ATTR_DENSE_ARRAY || !ir_type_is_integer(s->type, 32) || s->u.darr.n != n ||
      s->u.darr.fvals)
    return false;
  int64_t sum = 0;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = s->u.darr.ivals[i];
    if (out[i] < 0)
      return false;
    sum += out[i];
  }
  return sum == op->noperands;
}

bool ir_alignment_ok(const Attr *a) {
  return a->kind == ATTR_INT && ir_type_is_integer(a->type, 64) && !a->u.i.big && a->u.i.v > 0 &&
         !(a->u.i.v & (a->u.i.v - 1));
}

bool ir_region_ends_in_bare(const Region *r, const char *name) {
  if (!r->first || r->first != r->last || !r->last->last)
    return false;
  const Op *t = r->last->last;
  return ir_str_eq(t->name, name) && !t->noperands && !t->nresults && !t->props && !t->attrs &&
         !t->nregions && !t->nsuccs;
}

bool ir_all_index(Value *const *vs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (vs[i]->type->kind != TY_INDEX)
      return false;
  return true;
}

bool ir_values_typed(Value *const *vs, uint32_t n, const Type *t) {
  for (uint32_t i = 0; i < n; i++)
    if (vs[i]->type != t)
      return false;
  return true;
}

bool ir_op_info_inherent(const OpInfo *info, Str name) {
  for (const char *s = info && info->inherent ? info->inherent : ""; *s;) {
    const char *e = strchr(s, ' ');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n == name.len && memcmp(s, name.s, n) == 0)
      return true;
    s += n + (e != NULL);
  }
  return false;
}

bool ir_op_props_inherent(const Op *op) {
  if (!op->props)
    return true;
  if (op->props->kind != ATTR_DICT)
    return false;
  for (uint32_t i = 0; i < op->props->u.dict.n; i++)
    if (!ir_op_info_inherent(op->info, op->props->u.dict.entries[i].name))
      return false;
  return true;
}

/* ---- builtin.module ------------------------------------------------------------------------- */

/* module ::= `module` @name? (`attributes` dict)? region */
bool parse_module(Parser *p, OpState *st) {
  if (p_is(p, TOK_AT)) {
    Str name;
    if (!p_symbol(p, &name))
      return false;
    st_add_prop(p, st, "sym_name", ir_attr_string(p->ctx, name.s, name.len));
  }
  if (!p_opt_attr_dict_with_keyword(p, st))
    return false;
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, NULL, 0, true))
    return false;
  if (!r->first) {
    Block *b = ir_alloc(p->ctx, sizeof *b);
    b->parent = r;
    r->first = r->last = b;
  }
  return true;
}

bool print_module(Printer *pr, Op *op) {
  static const char *const allowed[] = {"sym_name", "sym_visibility", NULL};
  Attr *name = prop(op, "sym_name");
  if (!only_props(op, allowed) || op->nregions != 1 || op->noperands || op->nresults ||
      (name && name->kind != ATTR_STRING) || !op->regions[0].first || op->regions[0].first->next ||
      op->regions[0].first->nargs)
    return false;
  if (name) {
    pr_char(pr, ' ');
    pr_symbol(pr, name->u.str);
  }
  static const char *const elide[] = {"sym_name", NULL};
  pr_attr_dict(pr, op, elide, true);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  return true;
}

/* ---- func ----------------------------------------------------------------------------------- */

/* func ::= `func.func` visibility? @name `(` args `)` (`->` results)? (`attributes` dict)? region?
 * results ::= type | `(` type attr-dict? (`,` ...)* `)` */
bool parse_func(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  if (p_is_kw(p, "private") || p_is_kw(p, "public") || p_is_kw(p, "nested")) {
    Str vis;
    p_bare(p, &vis);
    st_add_prop(p, st, "sym_visibility", ir_attr_string(ctx, vis.s, vis.len));
  }
  Str name;
  if (!p_symbol(p, &name))
    return false;
  RegionArg *args;
  uint32_t nargs;
  NamedAttr **arg_attrs;
  if (!p_arg_list(p, &args, &nargs, &arg_attrs, NULL, true))
    return false;
  Type **res = NULL;
  uint32_t nres = 0;
  Attr **res_attrs = NULL;
  if (p_opt(p, TOK_ARROW)) {
    if (p_is(p, TOK_LPAREN)) {
      /* `(a, b)`, possibly with attribute dictionaries, or a function type result */
      RegionArg *rs;
      NamedAttr **rattrs;
      const char *save_cur = p->lx.cur;
      Token save_tok = p->tok;
      if (!p_arg_list(p, &rs, &nres, &rattrs, NULL, true))
        return false;
      if (p_is(p, TOK_ARROW)) {
        p->lx.cur = save_cur;
        p->tok = save_tok;
        nres = 1;
        res = ir_alloc(ctx, sizeof(Type *));
        if (!p_type(p, &res[0]))
          return false;
      } else {
        res = ir_alloc(ctx, nres * sizeof(Type *) + 1);
        for (uint32_t i = 0; i < nres; i++)
          res[i] = rs[i].type;
        if (rattrs) {
          res_attrs = ir_alloc(ctx, nres * sizeof(Attr *) + 1);
          for (uint32_t i = 0; i < nres; i++)
            res_attrs[i] = rattrs[i] ? rattrs[i]->value : ir_attr_dict(ctx, NULL, 0);
        }
      }
    } else {
      nres = 1;
      res = ir_alloc(ctx, sizeof(Type *));
      if (!p_type(p, &res[0]))
        return false;
    }
  }
  Type **in = ir_alloc(ctx, nargs * sizeof(Type *) + 1);
  for (uint32_t i = 0; i < nargs; i++)
    in[i] = args[i].type;
  st_add_prop(p, st, "sym_name", ir_attr_string(ctx, name.s, name.len));
  st_add_prop(p, st, "function_type", ir_attr_type(ctx, ir_type_func(ctx, in, nargs, res, nres)));
  if (arg_attrs) {
    Attr **a = ir_alloc(ctx, nargs * sizeof(Attr *) + 1);
    for (uint32_t i = 0; i < nargs; i++)
      a[i] = arg_attrs[i] ? arg_attrs[i]->value : ir_attr_dict(ctx, NULL, 0);
    st_add_prop(p, st, "arg_attrs", ir_attr_array(ctx, a, nargs));
  }
  if (res_attrs)
    st_add_prop(p, st, "res_attrs", ir_attr_array(ctx, res_attrs, nres));
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

static void print_arg_attrs(Printer *pr, const Attr *arr, uint32_t i) {
  if (!arr || arr->kind != ATTR_ARRAY || i >= arr->u.arr.n)
    return;
  const Attr *d = arr->u.arr.elems[i];
  if (d->kind == ATTR_DICT && d->u.dict.n) {
    pr_char(pr, ' ');
    pr_attr(pr, d);
  }
}

bool print_func(Printer *pr, Op *op) {
  static const char *const allowed[] = {"sym_name", "function_type", "sym_visibility", "arg_attrs",
                                        "res_attrs", NULL};
  Attr *name = prop(op, "sym_name"), *ft = prop(op, "function_type"), *vis = prop(op, "sym_visibility");
  Attr *aa = prop(op, "arg_attrs"), *ra = prop(op, "res_attrs");
  if (!only_props(op, allowed) || !name || name->kind != ATTR_STRING || !ft || ft->kind != ATTR_TYPE ||
      ft->type->kind != TY_FUNC || (vis && vis->kind != ATTR_STRING) || op->nregions != 1 ||
      (aa && (aa->kind != ATTR_ARRAY || aa->u.arr.n != ft->type->u.fn.nin)) ||
      (ra && (ra->kind != ATTR_ARRAY || ra->u.arr.n != ft->type->u.fn.nout)))
    return false;
  const Type *fn = ft->type;
  Block *entry = op->regions[0].first;
  if (entry && entry->nargs != fn->u.fn.nin)
    return false;
  if (entry) {
    for (uint32_t i = 0; i < entry->nargs; i++)
      if (entry->args[i].type != fn->u.fn.in[i])
        return false;
  }
  if (vis) {
    pr_char(pr, ' ');
    pr_strn(pr, vis->u.str.s, vis->u.str.len);
  }
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  pr_char(pr, '(');
  for (uint32_t i = 0; i < fn->u.fn.nin; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    if (entry)
      pr_value(pr, &entry->args[i]), pr_strn(pr, ": ", 2);
    pr_type(pr, fn->u.fn.in[i]);
    print_arg_attrs(pr, aa, i);
    if (entry)
      pr_loc_suffix(pr, entry->args[i].loc);
  }
  pr_char(pr, ')');
  if (fn->u.fn.nout) {
    pr_str(pr, " -> ");
    bool paren = fn->u.fn.nout > 1 || ra || fn->u.fn.out[0]->kind == TY_FUNC;
    if (paren)
      pr_char(pr, '(');
    for (uint32_t i = 0; i < fn->u.fn.nout; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_type(pr, fn->u.fn.out[i]);
      print_arg_attrs(pr, ra, i);
    }
    if (paren)
      pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, allowed, true);
  if (entry) {
    pr_char(pr, ' ');
    pr_region(pr, &op->regions[0], false, false);
  }
  return true;
}

/* return-like ::= name attr-dict (operands `:` types)? */
bool parse_return_like(Parser *p, OpState *st) {
  if (!p_opt_attr_dict(p, st))
    return false;
  OperandRef *refs;
  uint32_t n;
  if (!p_operand_list(p, &refs, &n))
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

bool print_return_like(Printer *pr, Op *op) {
  if (op->props || op->nresults || op->nregions || op->nsuccs)
    return false;
  pr_attr_dict(pr, op, NULL, false);
  if (op->noperands) {
    pr_char(pr, ' ');
    pr_values(pr, op->operands, op->noperands);
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, op->operands, op->noperands);
  }
  return true;
}

/* call ::= `func.call` @callee `(` operands `)` attr-dict `:` function-type */
bool parse_call(Parser *p, OpState *st) {
  Str callee;
  if (!p_symbol(p, &callee))
    return false;
  OperandRef *refs;
  uint32_t n;
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &refs, &n) || !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  Type *fn;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC)
    return p_error_at(p, pos, "expected function type");
  if (fn->u.fn.nin != n)
    return p_error_at(p, pos, "%u operands present, but expected %u", n, fn->u.fn.nin);
  st_add_prop(p, st, "callee", ir_attr_symref(p_ctx(p), &callee, 1));
  for (uint32_t i = 0; i < fn->u.fn.nout; i++)
    st_add_result_type(p, st, fn->u.fn.out[i]);
  return p_resolve_onto(p, st, refs, n, fn->u.fn.in, n);
}

bool print_call(Printer *pr, Op *op) {
  static const char *const allowed[] = {"callee", NULL};
  Attr *callee = prop(op, "callee");
  if (!only_props(op, allowed) || !callee || callee->kind != ATTR_SYMREF || callee->u.sym.n != 1 ||
      op->nregions || op->nsuccs)
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, callee->u.sym.path[0]);
  pr_char(pr, '(');
  pr_values(pr, op->operands, op->noperands);
  pr_char(pr, ')');
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : (", 4);
  pr_value_types(pr, op->operands, op->noperands);
  pr_strn(pr, ") -> ", 5);
  if (op->nresults == 1 && op->results[0].type->kind != TY_FUNC) {
    pr_type(pr, op->results[0].type);
  } else {
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

/* ---- Elementwise arith and math ------------------------------------------------------------- */

/* binary ::= %a `,` %b flags? attr-dict `:` type   (operands and result share the type) */
static bool parse_binary_with(Parser *p, OpState *st, const char *kw, const char *prop_name,
                              const char *prefix) {
  OperandRef r[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]))
    return false;
  if (kw && p_is_kw(p, kw)) {
    Attr *a;
    if (!p_flags_attr(p, prefix, &a))
      return false;
    st_add_prop(p, st, prop_name, a);
  }
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

static bool print_binary_with(Printer *pr, Op *op, const char *prop_name, const char *prefix,
                              const char *kw) {
  const char *const allowed[] = {prop_name, NULL};
  Attr *flags = prop_name ? prop(op, prop_name) : NULL;
  if (op->noperands != 2 || op->nresults != 1 || !all_types_equal(op) || !only_props(op, allowed) ||
      op->nregions || (flags && !pr_flags_fit(flags, prefix)))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  if (flags)
    pr_flags(pr, flags, prefix, kw);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

bool parse_binary(Parser *p, OpState *st) { return parse_binary_with(p, st, NULL, NULL, NULL); }
bool print_binary(Printer *pr, Op *op) { return print_binary_with(pr, op, NULL, NULL, NULL); }
bool parse_binary_ovf(Parser *p, OpState *st) {
  return parse_binary_with(p, st, "overflow", "overflowFlags", "arith.overflow");
}
bool print_binary_ovf(Printer *pr, Op *op) {
  return print_binary_with(pr, op, "overflowFlags", "arith.overflow", "overflow");
}
bool parse_binary_fm(Parser *p, OpState *st) {
  return parse_binary_with(p, st, "fastmath", "fastmath", "arith.fastmath");
}
bool print_binary_fm(Printer *pr, Op *op) {
  return print_binary_with(pr, op, "fastmath", "arith.fastmath", "fastmath");
}

/* index-binary ::= %a `,` %b attr-dict ; operands and result are index */
bool parse_index_binary(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t = ir_type_index(p_ctx(p));
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

bool print_index_binary(Printer *pr, Op *op) {
  if (op->noperands != 2 || op->nresults != 1 || op->props || !all_types_equal(op) ||
      op->results[0].type->kind != TY_INDEX)
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* unary ::= %a (`fastmath` `<` flags `>`)? attr-dict `:` type */
bool parse_unary_fm(Parser *p, OpState *st) {
  OperandRef r;
  if (!p_operand(p, &r))
    return false;
  if (p_is_kw(p, "fastmath")) {
    Attr *a;
    if (!p_flags_attr(p, "arith.fastmath", &a))
      return false;
    st_add_prop(p, st, "fastmath", a);
  }
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_unary_fm(Printer *pr, Op *op) {
  static const char *const allowed[] = {"fastmath", NULL};
  Attr *flags = prop(op, "fastmath");
  if (op->noperands != 1 || op->nresults != 1 || !all_types_equal(op) || !only_props(op, allowed) ||
      op->nregions || !pr_flags_fit(flags, "arith.fastmath"))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (flags)
    pr_flags(pr, flags, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* cast ::= operands attr-dict `:` types `to` types */
bool parse_cast_like(Parser *p, OpState *st) {
  OperandRef *refs;
  uint32_t n;
  if (!p_operand_list(p, &refs, &n) || !p_opt_attr_dict(p, st))
    return false;
  Type **in = NULL, **out;
  uint32_t nin = 0, nout;
  if (n && (!p_expect(p, TOK_COLON, "':'") || !p_type_list(p, &in, &nin)))
    return false;
  if (!p_kw(p, "to") || !p_type_list(p, &out, &nout))
    return false;
  if (nin != n)
    return p_error(p, "%u operands present, but expected %u", n, nin);
  for (uint32_t i = 0; i < nout; i++)
    st_add_result_type(p, st, out[i]);
  return p_resolve_onto(p, st, refs, n, in, nin);
}

bool print_cast_like(Printer *pr, Op *op) {
  if (op->props || op->nregions || op->nsuccs || !op->nresults)
    return false;
  if (op->noperands) {
    pr_char(pr, ' ');
    pr_values(pr, op->operands, op->noperands);
  }
  pr_attr_dict(pr, op, NULL, false);
  if (op->noperands) {
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, op->operands, op->noperands);
  }
  pr_str(pr, " to ");
  for (uint32_t i = 0; i < op->nresults; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_type(pr, op->results[i].type);
  }
  return true;
}

/* constant ::= attr-dict typed-attr ; the result type is the attribute's type */
bool parse_constant(Parser *p, OpState *st) {
  if (!p_opt_attr_dict(p, st))
    return false;
  Attr *v;
  if (!p_attr(p, NULL, &v))
    return false;
  Type *t = v->type;
  if (v->kind == ATTR_BOOL)
    t = ir_type_int(p_ctx(p), 1, SIGNLESS);
  if (!t || v->kind == ATTR_TYPE || v->kind == ATTR_STRING)
    return p_error(p, "expected a typed attribute");
  st_add_prop(p, st, "value", v);
  st_add_result_type(p, st, t);
  return true;
}

bool print_constant(Printer *pr, Op *op) {
  static const char *const allowed[] = {"value", NULL};
  Attr *v = prop(op, "value");
  if (!v || !only_props(op, allowed) || op->nresults != 1 || op->noperands || op->nregions)
    return false;
  Type *t = v->kind == ATTR_BOOL ? NULL : v->type;
  if (v->kind == ATTR_BOOL ? !ir_type_is_integer(op->results[0].type, 1) : t != op->results[0].type)
    return false;
  if (v->kind != ATTR_INT && v->kind != ATTR_FLOAT && v->kind != ATTR_BOOL && v->kind != ATTR_DENSE)
    return false;
  pr_attr_dict(pr, op, allowed, false);
  pr_char(pr, ' ');
  pr_attr(pr, v);
  return true;
}

/* cmpi ::= predicate `,` %a `,` %b attr-dict `:` type ; result is i1 (or a vector/tensor of i1) */
static const char *const cmpi_preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL};
static const char *const cmpf_preds[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                                         "ugt", "uge", "ult", "ule", "une", "uno", "true", NULL};

static Type *i1_like(IrCtx *ctx, Type *t) {
  Type *i1 = ir_type_int(ctx, 1, SIGNLESS);
  if (t->kind == TY_VECTOR || t->kind == TY_TENSOR) {
    Type s = *t;
    s.u.sh.elem = i1;
    return ir_type_intern(ctx, &s);
  }
  return i1;
}

static bool parse_cmp(Parser *p, OpState *st, const char *const *preds, bool fm) {
  int64_t pred = -1;
  for (int i = 0; preds[i]; i++)
    if (p_is_kw(p, preds[i]))
      pred = i;
  if (pred < 0)
    return p_error(p, "expected comparison predicate");
  p_next(p);
  OperandRef r[2];
  if (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_operand(p, &r[1]))
    return false;
  if (fm && p_is_kw(p, "fastmath")) {
    Attr *a;
    if (!p_flags_attr(p, "arith.fastmath", &a))
      return false;
    st_add_prop(p, st, "fastmath", a);
  }
  Type *t;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_prop(p, st, "predicate", ir_attr_int(p_ctx(p), ir_type_int(p_ctx(p), 64, SIGNLESS), pred));
  st_add_result_type(p, st, i1_like(p_ctx(p), t));
  return p_resolve_onto(p, st, r, 2, &t, 1);
}

static bool print_cmp(Printer *pr, Op *op, const char *const *preds, int npreds) {
  static const char *const allowed[] = {"predicate", "fastmath", NULL};
  Attr *pred = prop(op, "predicate"), *fm = prop(op, "fastmath");
  if (!pred || pred->kind != ATTR_INT || pred->u.i.big || pred->u.i.v < 0 || pred->u.i.v >= npreds ||
      !ir_type_is_integer(pred->type, 64) || !only_props(op, allowed) || op->noperands != 2 ||
      op->nresults != 1 || op->operands[0]->type != op->operands[1]->type ||
      !pr_flags_fit(fm, "arith.fastmath"))
    return false;
  pr_char(pr, ' ');
  pr_str(pr, preds[pred->u.i.v]);
  pr_strn(pr, ", ", 2);
  pr_values(pr, op->operands, 2);
  if (fm)
    pr_flags(pr, fm, "arith.fastmath", "fastmath");
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

bool parse_cmpi(Parser *p, OpState *st) { return parse_cmp(p, st, cmpi_preds, false); }
bool print_cmpi(Printer *pr, Op *op) { return print_cmp(pr, op, cmpi_preds, 10); }
bool parse_cmpf(Parser *p, OpState *st) { return parse_cmp(p, st, cmpf_preds, true); }
bool print_cmpf(Printer *pr, Op *op) { return print_cmp(pr, op, cmpf_preds, 16); }

/* ---- memref --------------------------------------------------------------------------------- */

/* load ::= %m `[` indices `]` attr-dict `:` memref-type */
bool parse_load(Parser *p, OpState *st) {
  OperandRef m, *idx;
  uint32_t n;
  Type *t;
  if (!p_operand(p, &m) || !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_MEMREF)
    return p_error_at(p, pos, "expected memref type");
  Type *index = ir_type_index(p_ctx(p));
  st_add_result_type(p, st, t->u.sh.elem);
  return p_resolve_onto(p, st, &m, 1, &t, 1) && p_resolve_onto(p, st, idx, n, &index, 1);
}

bool print_load(Printer *pr, Op *op) {
  static const char *const allowed[] = {"nontemporal", "alignment", NULL};
  if (!op->noperands || op->nresults != 1 || op->operands[0]->type->kind != TY_MEMREF ||
      !only_props(op, allowed) || op->operands[0]->type->u.sh.elem != op->results[0].type)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + 1, op->noperands - 1);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* store ::= %v `,` %m `[` indices `]` attr-dict `:` memref-type */
bool parse_store(Parser *p, OpState *st) {
  OperandRef v, m, *idx;
  uint32_t n;
  Type *t;
  if (!p_operand(p, &v) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &m) ||
      !p_expect(p, TOK_LSQUARE, "'['") || !p_operand_list(p, &idx, &n) ||
      !p_expect(p, TOK_RSQUARE, "']'") || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *pos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  if (t->kind != TY_MEMREF)
    return p_error_at(p, pos, "expected memref type");
  Type *index = ir_type_index(p_ctx(p));
  return p_resolve_onto(p, st, &v, 1, &t->u.sh.elem, 1) && p_resolve_onto(p, st, &m, 1, &t, 1) &&
         p_resolve_onto(p, st, idx, n, &index, 1);
}

bool print_store(Printer *pr, Op *op) {
  static const char *const allowed[] = {"nontemporal", "alignment", NULL};
  if (op->noperands < 2 || op->nresults || op->operands[1]->type->kind != TY_MEMREF ||
      !only_props(op, allowed) || op->operands[1]->type->u.sh.elem != op->operands[0]->type)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, ", ", 2);
  pr_value(pr, op->operands[1]);
  pr_char(pr, '[');
  pr_values(pr, op->operands + 2, op->noperands - 2);
  pr_char(pr, ']');
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[1]->type);
  return true;
}

/* ---- cf ------------------------------------------------------------------------------------- */

/* br ::= `cf.br` ^bb (`(` operands `:` types `)`)? attr-dict */
bool parse_br(Parser *p, OpState *st) {
  uint32_t n;
  return p_successor_with_args(p, st, &n) && p_opt_attr_dict(p, st);
}

bool print_br(Printer *pr, Op *op) {
  if (op->nsuccs != 1 || op->props || op->nresults)
    return false;
  pr_char(pr, ' ');
  pr_successor(pr, op->succs[0], op->operands, op->noperands);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* ---- gpu host ops --------------------------------------------------------------------------- */

/* async-deps ::= (`async`)? (`[` %tok (`,` %tok)* `]`)? ; returns whether `async` was given */
static bool parse_async_deps(Parser *p, OpState *st, bool *is_async, uint32_t *ndeps) {
  const char *at = p_tok(p)->text;
  *is_async = p_opt_kw(p, "async");
  *ndeps = 0;
  if (*is_async && !st->num_results_expected)
    return p_error_at(p, at, "custom op '%.*s' needs to be named when marked 'async'", (int)st->name.len,
                      st->name.s);
  if (!p_opt(p, TOK_LSQUARE))
    return true;
  OperandRef *refs;
  uint32_t n;
  if (!p_operand_list(p, &refs, &n) || !p_expect(p, TOK_RSQUARE, "']'"))
    return false;
  Type *tok = ir_type_simple(p_ctx(p), TY_GPU_TOKEN);
  *ndeps = n;
  return p_resolve_onto(p, st, refs, n, &tok, 1);
}

static void print_async_deps(Printer *pr, Op *op, uint32_t ndeps, bool is_async) {
  if (is_async)
    pr_str(pr, " async");
  if (ndeps) {
    pr_strn(pr, " [", 2);
    pr_values(pr, op->operands, ndeps);
    pr_char(pr, ']');
  }
}

static bool all_tokens(Value *const *vs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (vs[i]->type->kind != TY_GPU_TOKEN)
      return false;
  return true;
}

/* wait ::= `gpu.wait` `async`? (`[` deps `]`)? attr-dict */
bool parse_wait(Parser *p, OpState *st) {
  bool is_async;
  uint32_t n;
  if (!parse_async_deps(p, st, &is_async, &n) || !p_opt_attr_dict(p, st))
    return false;
  if (is_async)
    st_add_result_type(p, st, ir_type_simple(p_ctx(p), TY_GPU_TOKEN));
  return true;
}

bool print_wait(Printer *pr, Op *op) {
  if (op->props || op->nresults > 1 || (op->nresults && op->results[0].type->kind != TY_GPU_TOKEN) ||
      !all_tokens(op->operands, op->noperands))
    return false;
  print_async_deps(pr, op, op->noperands, op->nresults == 1);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* memcpy ::= `gpu.memcpy` async-deps %dst `,` %src attr-dict `:` type `,` type */
bool parse_memcpy(Parser *p, OpState *st) {
  bool is_async;
  uint32_t n;
  OperandRef r[2];
  Type *t[2];
  if (!parse_async_deps(p, st, &is_async, &n) || !p_operand(p, &r[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]) || !p_expect(p, TOK_COMMA, "','") ||
      !p_type(p, &t[1]))
    return false;
  if (is_async)
    st_add_result_type(p, st, ir_type_simple(p_ctx(p), TY_GPU_TOKEN));
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_memcpy(Printer *pr, Op *op) {
  if (op->props || op->noperands < 2 || op->nresults > 1 ||
      (op->nresults && op->results[0].type->kind != TY_GPU_TOKEN) ||
      !all_tokens(op->operands, op->noperands - 2))
    return false;
  uint32_t nd = op->noperands - 2;
  print_async_deps(pr, op, nd, op->nresults == 1);
  pr_char(pr, ' ');
  pr_values(pr, op->operands + nd, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands + nd, 2);
  return true;
}

/* ---- The table ------------------------------------------------------------------------------ */

#define parse_none NULL
#define print_none NULL

static const OpInfo ops[] = {
#define OP(name, form, flags, nops, nres, dialect, inherent) \
  {name, parse_##form, print_##form, flags, nops, nres, dialect, inherent},
#include "ir/ops.def"
#undef OP
};

#define NOPS (sizeof ops / sizeof ops[0])
#define TABSZ 1024

static const OpInfo *table[TABSZ];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
  for (size_t i = 0; i < NOPS; i++) {
    uint32_t h = ir_hash_bytes(ops[i].name, strlen(ops[i].name)) & (TABSZ - 1);
    while (table[h])
      h = (h + 1) & (TABSZ - 1);
    table[h] = &ops[i];
  }
}

const OpInfo *ir_op_info(Str name) {
  pthread_once(&table_once, build_table);
  uint32_t h = ir_hash_bytes(name.s, name.len) & (TABSZ - 1);
  for (; table[h]; h = (h + 1) & (TABSZ - 1))
    if (strlen(table[h]->name) == name.len && memcmp(table[h]->name, name.s, name.len) == 0)
      return table[h];
  return NULL;
}
