/* custom_gpu.c - custom assembly forms of the gpu, nvvm and async ops (see custom.c for the
 * contract of a parse_X / print_X pair).
 *
 * The gpu dialect spells its enum attributes as bare keywords (`gpu.thread_id x`,
 * `gpu.shuffle xor ...`) that the generic form holds as `#gpu<dim x>`: kw_attr builds such an
 * attribute and attr_kw reads the keyword back, so both directions go through one spelling.
 * Host ops share the `async [%deps]` prefix: with `async` the op gets a !gpu.async.token result.
 * gpu.launch and gpu.func declare the arguments of their body in the op's syntax (the block and
 * thread ids, the workgroup and private attributions), so they build the entry block's argument
 * list before p_region reads the body. */
#include "ir/internal.h"

#include <stdio.h>
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

static Type *token_type(Parser *p) { return ir_type_simple(p_ctx(p), TY_GPU_TOKEN); }

static bool all_tokens(Value *const *vs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (vs[i]->type->kind != TY_GPU_TOKEN)
      return false;
  return true;
}

static bool is_index(const Type *t) { return t && t->kind == TY_INDEX; }

/* `#gpu<dim x>` from prefix "#gpu<dim" and keyword "x" */
static Attr *kw_attr(Parser *p, const char *prefix, Str kw) {
  char buf[256];
  int n = snprintf(buf, sizeof buf, "%s %.*s>", prefix, (int)kw.len, kw.s);
  Attr *a = ir_alloc(p_ctx(p), sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern(p_ctx(p), buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
  return a;
}

/* the keyword of a `prefix kw>` attribute, or false when a has another shape */
static bool attr_kw(const Attr *a, const char *prefix, const char *const *kws, Str *out) {
  size_t n = strlen(prefix);
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len < n + 3 || memcmp(a->u.str.s, prefix, n) != 0 ||
      a->u.str.s[n] != ' ' || a->u.str.s[a->u.str.len - 1] != '>')
    return false;
  Str kw = {a->u.str.s + n + 1, a->u.str.len - n - 2};
  for (const char *const *k = kws; *k; k++)
    if (strlen(*k) == kw.len && memcmp(*k, kw.s, kw.len) == 0) {
      *out = kw;
      return true;
    }
  return false;
}

/* one keyword of kws, made into `prefix kw>` */
static bool parse_kw_attr(Parser *p, const char *prefix, const char *const *kws, const char *what,
                          Attr **out) {
  for (const char *const *k = kws; *k; k++)
    if (p_is_kw(p, *k)) {
      Str kw;
      p_bare(p, &kw);
      *out = kw_attr(p, prefix, kw);
      return true;
    }
  return p_error(p, "expected %s", what);
}

static const char *const dims[] = {"x", "y", "z", NULL};
static const char *const shuffle_modes[] = {"xor", "up", "down", "idx", NULL};
static const char *const reduce_ops[] = {"add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi",
                                         "maxnumf", "and", "or", "xor", "minimumf", "maximumf", NULL};
static const char *const shfl_kinds[] = {"bfly", "up", "down", "idx", NULL};

/* (`upper_bound` int)? as the index attribute `upper_bound` */
static bool parse_upper_bound(Parser *p, OpState *st) {
  if (!p_opt_kw(p, "upper_bound"))
    return true;
  int64_t v;
  if (!p_int(p, &v))
    return false;
  st_add_prop(p, st, "upper_bound", ir_attr_int(p_ctx(p), ir_type_index(p_ctx(p)), v));
  return true;
}

static bool upper_bound_fits(const Attr *a) {
  return !a || (a->kind == ATTR_INT && !a->u.i.big && is_index(a->type));
}

static void print_upper_bound(Printer *pr, const Attr *a) {
  if (a)
    pr_fmt(pr, " upper_bound %lld", (long long)a->u.i.v);
}

/* async-deps ::= (`async`)? (`[` %tok (`,` %tok)* `]`)? */
static bool parse_deps(Parser *p, OpState *st, bool *is_async, uint32_t *ndeps) {
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
  Type *tok = token_type(p);
  *ndeps = n;
  return p_resolve_onto(p, st, refs, n, &tok, 1);
}

static void print_deps(Printer *pr, Op *op, uint32_t ndeps, bool is_async) {
  if (is_async)
    pr_str(pr, " async");
  if (ndeps) {
    pr_strn(pr, " [", 2);
    pr_values(pr, op->operands, ndeps);
    pr_char(pr, ']');
  }
}

/* the dense i32 array `name` with n entries, or NULL */
static const int64_t *segments(const Op *op, const char *name, uint32_t n) {
  Attr *a = prop(op, name);
  if (!a || a->kind != ATTR_DENSE_ARRAY || a->u.darr.n != n || !a->u.darr.ivals ||
      !ir_type_is_integer(a->type, 32))
    return NULL;
  return a->u.darr.ivals;
}

static bool plain_op(const Op *op) { return !op->nregions && !op->nsuccs; }

/* ---- Attribute-only ops: gpu.barrier, gpu.terminator, nvvm.barrier0 ------------------------- */

/* gpu_attr_only ::= attr-dict */
bool parse_gpu_attr_only(Parser *p, OpState *st) { return p_opt_attr_dict(p, st); }

bool print_gpu_attr_only(Printer *pr, Op *op) {
  if (op->props || op->noperands || op->nresults || !plain_op(op))
    return false;
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* ---- Device ids ----------------------------------------------------------------------------- */

/* gpu_dim ::= (`x` | `y` | `z`) (`upper_bound` int)? attr-dict   ; the result is index */
bool parse_gpu_dim(Parser *p, OpState *st) {
  Attr *d;
  if (!parse_kw_attr(p, "#gpu<dim", dims, "'x', 'y' or 'z'", &d))
    return false;
  st_add_prop(p, st, "dimension", d);
  if (!parse_upper_bound(p, st) || !p_opt_attr_dict(p, st))
    return false;
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return true;
}

bool print_gpu_dim(Printer *pr, Op *op) {
  static const char *const allowed[] = {"dimension", "upper_bound", NULL};
  Str kw;
  Attr *ub = prop(op, "upper_bound");
  if (op->noperands || op->nresults != 1 || !is_index(op->results[0].type) || !plain_op(op) ||
      !only_props(op, allowed) || !attr_kw(prop(op, "dimension"), "#gpu<dim", dims, &kw) ||
      !upper_bound_fits(ub))
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, kw.s, kw.len);
  print_upper_bound(pr, ub);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* gpu_lane_id ::= (`upper_bound` int)? attr-dict   ; the result is index */
bool parse_gpu_lane_id(Parser *p, OpState *st) {
  if (!parse_upper_bound(p, st) || !p_opt_attr_dict(p, st))
    return false;
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return true;
}

bool print_gpu_lane_id(Printer *pr, Op *op) {
  static const char *const allowed[] = {"upper_bound", NULL};
  Attr *ub = prop(op, "upper_bound");
  if (op->noperands || op->nresults != 1 || !is_index(op->results[0].type) || !plain_op(op) ||
      !only_props(op, allowed) || !upper_bound_fits(ub))
    return false;
  print_upper_bound(pr, ub);
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* gpu_subgroup_q ::= (`upper_bound` int)? attr-dict `:` type */
bool parse_gpu_subgroup_q(Parser *p, OpState *st) {
  Type *t;
  if (!parse_upper_bound(p, st) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") ||
      !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return true;
}

bool print_gpu_subgroup_q(Printer *pr, Op *op) {
  static const char *const allowed[] = {"upper_bound", NULL};
  Attr *ub = prop(op, "upper_bound");
  if (op->noperands || op->nresults != 1 || !plain_op(op) || !only_props(op, allowed) ||
      !upper_bound_fits(ub))
    return false;
  print_upper_bound(pr, ub);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- Device communication ------------------------------------------------------------------- */

/* gpu_shuffle ::= mode %value `,` %offset `,` %width attr-dict `:` type
 * results: (type, i1); offset and width are i32 */
bool parse_gpu_shuffle(Parser *p, OpState *st) {
  Attr *mode;
  OperandRef r[3];
  Type *t;
  if (!parse_kw_attr(p, "#gpu<shuffle_mode", shuffle_modes, "shuffle mode", &mode) ||
      !p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[2]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  IrCtx *ctx = p_ctx(p);
  Type *i32 = ir_type_int(ctx, 32, SIGNLESS);
  Type *types[3] = {t, i32, i32};
  st_add_prop(p, st, "mode", mode);
  st_add_result_type(p, st, t);
  st_add_result_type(p, st, ir_type_int(ctx, 1, SIGNLESS));
  return p_resolve_onto(p, st, r, 3, types, 3);
}

bool print_gpu_shuffle(Printer *pr, Op *op) {
  static const char *const allowed[] = {"mode", NULL};
  Str kw;
  if (op->noperands != 3 || op->nresults != 2 || !plain_op(op) || !only_props(op, allowed) ||
      !attr_kw(prop(op, "mode"), "#gpu<shuffle_mode", shuffle_modes, &kw) ||
      op->results[0].type != op->operands[0]->type || !ir_type_is_integer(op->results[1].type, 1) ||
      !ir_type_is_integer(op->operands[1]->type, 32) || !ir_type_is_integer(op->operands[2]->type, 32))
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, kw.s, kw.len);
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 3);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* `:` `(` type `)` `->` type, the functional type of a one-operand one-result op */
static bool parse_unary_fn_type(Parser *p, Type **in, Type **out) {
  const char *pos = p_tok(p)->text;
  Type *fn;
  if (!p_expect(p, TOK_COLON, "':'") || !p_type(p, &fn))
    return false;
  if (fn->kind != TY_FUNC || fn->u.fn.nin != 1 || fn->u.fn.nout != 1)
    return p_error_at(p, pos, "expected a function type with one input and one result");
  *in = fn->u.fn.in[0];
  *out = fn->u.fn.out[0];
  return true;
}

static void print_unary_fn_type(Printer *pr, Op *op) {
  pr_strn(pr, " : (", 4);
  pr_type(pr, op->operands[0]->type);
  pr_strn(pr, ") -> ", 5);
  if (op->results[0].type->kind == TY_FUNC)
    pr_char(pr, '(');
  pr_type(pr, op->results[0].type);
  if (op->results[0].type->kind == TY_FUNC)
    pr_char(pr, ')');
}

/* A bare word where a reduction kind goes that is none: mlir-opt's words. */
static bool bad_reduce_kind(Parser *p) {
  if (!p_is(p, TOK_BARE))
    return false;
  for (const char *const *k = reduce_ops; *k; k++)
    if (p_is_kw(p, *k))
      return false;
  return true;
}

/* gpu_all_reduce ::= op? %value (`uniform`)? region attr-dict `:` `(` type `)` `->` type */
bool parse_gpu_all_reduce(Parser *p, OpState *st) {
  if (bad_reduce_kind(p))
    return p_error(p, "invalid op kind");
  if (!p_is(p, TOK_PERCENT)) {
    Attr *op;
    if (!parse_kw_attr(p, "#gpu<all_reduce_op", reduce_ops, "reduction operation", &op))
      return false;
    st_add_prop(p, st, "op", op);
  }
  OperandRef r;
  if (!p_operand(p, &r))
    return false;
  if (p_opt_kw(p, "uniform"))
    st_add_prop(p, st, "uniform", ir_attr_unit(p_ctx(p)));
  Region *body = st_add_region(p, st);
  Type *in, *out;
  if (!p_region(p, body, NULL, 0, false) || !p_opt_attr_dict(p, st) || !parse_unary_fn_type(p, &in, &out))
    return false;
  st_add_result_type(p, st, out);
  return p_resolve_onto(p, st, &r, 1, &in, 1);
}

bool print_gpu_all_reduce(Printer *pr, Op *op) {
  static const char *const allowed[] = {"op", "uniform", NULL};
  Attr *rop = prop(op, "op"), *uni = prop(op, "uniform");
  Str kw;
  if (op->noperands != 1 || op->nresults != 1 || op->nregions != 1 || op->nsuccs ||
      !only_props(op, allowed) || (rop && !attr_kw(rop, "#gpu<all_reduce_op", reduce_ops, &kw)) ||
      (uni && uni->kind != ATTR_UNIT))
    return false;
  if (rop) {
    pr_char(pr, ' ');
    pr_strn(pr, kw.s, kw.len);
  }
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (uni)
    pr_str(pr, " uniform");
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], true, false);
  pr_attr_dict(pr, op, allowed, false);
  print_unary_fn_type(pr, op);
  return true;
}

/* gpu_subgroup_reduce ::= op %value (`uniform`)?
 *                         (`cluster` `(` `size` `=` int (`,` `stride` `=` int)? `)`)?
 *                         attr-dict `:` `(` type `)` `->` type
 * cluster_stride is always present in the properties (default 1 : i32). */
bool parse_gpu_subgroup_reduce(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  Type *i32 = ir_type_int(ctx, 32, SIGNLESS);
  Attr *rop;
  OperandRef r;
  if (bad_reduce_kind(p))
    return p_error(p, "invalid op kind");
  if (!parse_kw_attr(p, "#gpu<all_reduce_op", reduce_ops, "reduction operation", &rop) ||
      !p_operand(p, &r))
    return false;
  st_add_prop(p, st, "op", rop);
  if (p_opt_kw(p, "uniform"))
    st_add_prop(p, st, "uniform", ir_attr_unit(ctx));
  int64_t stride = 1;
  if (p_opt_kw(p, "cluster")) {
    int64_t size;
    if (!p_expect(p, TOK_LPAREN, "'('") || !p_kw(p, "size") || !p_expect(p, TOK_EQUAL, "'='") ||
        !p_int(p, &size))
      return false;
    if (p_opt(p, TOK_COMMA) &&
        (!p_kw(p, "stride") || !p_expect(p, TOK_EQUAL, "'='") || !p_int(p, &stride)))
      return false;
    if (!p_expect(p, TOK_RPAREN, "')'"))
      return false;
    st_add_prop(p, st, "cluster_size", ir_attr_int(ctx, i32, size));
  }
  st_add_prop(p, st, "cluster_stride", ir_attr_int(ctx, i32, stride));
  Type *in, *out;
  if (!p_opt_attr_dict(p, st) || !parse_unary_fn_type(p, &in, &out))
    return false;
  st_add_result_type(p, st, out);
  return p_resolve_onto(p, st, &r, 1, &in, 1);
}

static bool i32_attr(const Attr *a) {
  return a && a->kind == ATTR_INT && !a->u.i.big && ir_type_is_integer(a->type, 32);
}

bool print_gpu_subgroup_reduce(Printer *pr, Op *op) {
  static const char *const allowed[] = {"op", "uniform", "cluster_size", "cluster_stride", NULL};
  Attr *uni = prop(op, "uniform"), *size = prop(op, "cluster_size"), *stride = prop(op, "cluster_stride");
  Str kw;
  if (op->noperands != 1 || op->nresults != 1 || !plain_op(op) || !only_props(op, allowed) ||
      !attr_kw(prop(op, "op"), "#gpu<all_reduce_op", reduce_ops, &kw) || (uni && uni->kind != ATTR_UNIT) ||
      (size && !i32_attr(size)) || !i32_attr(stride) || (!size && stride->u.i.v != 1))
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, kw.s, kw.len);
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  if (uni)
    pr_str(pr, " uniform");
  if (size) {
    pr_fmt(pr, " cluster(size = %lld", (long long)size->u.i.v);
    if (stride->u.i.v != 1)
      pr_fmt(pr, ", stride = %lld", (long long)stride->u.i.v);
    pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, allowed, false);
  print_unary_fn_type(pr, op);
  return true;
}

/* gpu_printf ::= "format" attr-dict (operands `:` types)? */
bool parse_gpu_printf(Parser *p, OpState *st) {
  Str fmt;
  if (!p_string(p, &fmt))
    return false;
  st_add_prop(p, st, "format", ir_attr_string(p_ctx(p), fmt.s, fmt.len));
  if (!p_opt_attr_dict(p, st))
    return false;
  if (!p_opt(p, TOK_COMMA))
    return true;
  OperandRef *refs;
  uint32_t n;
  Type **types;
  uint32_t nt;
  if (!p_operand_list(p, &refs, &n) || !p_expect(p, TOK_COLON, "':'") || !p_type_list(p, &types, &nt))
    return false;
  if (nt != n)
    return p_error(p, "%u operands present, but expected %u", n, nt);
  return p_resolve_onto(p, st, refs, n, types, nt);
}

bool print_gpu_printf(Printer *pr, Op *op) {
  static const char *const allowed[] = {"format", NULL};
  Attr *fmt = prop(op, "format");
  if (op->nresults || !plain_op(op) || !only_props(op, allowed) || !fmt || fmt->kind != ATTR_STRING ||
      fmt->type)
    return false;
  pr_char(pr, ' ');
  pr_string(pr, fmt->u.str);
  pr_attr_dict(pr, op, allowed, false);
  if (op->noperands) {
    pr_strn(pr, ", ", 2);
    pr_values(pr, op->operands, op->noperands);
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, op->operands, op->noperands);
  }
  return true;
}

/* ---- Host memory ops ------------------------------------------------------------------------ */

/* gpu_alloc ::= async-deps `host_shared`? `(` dyn-sizes `)` (`[` symbols `]`)? attr-dict `:` type
 * results: the memref, then the token when async */
bool parse_gpu_alloc(Parser *p, OpState *st) {
  bool is_async;
  uint32_t seg[3] = {0, 0, 0};
  OperandRef *dyn, *sym = NULL;
  uint32_t nsym = 0;
  if (!parse_deps(p, st, &is_async, &seg[0]))
    return false;
  if (p_opt_kw(p, "host_shared"))
    st_add_prop(p, st, "hostShared", ir_attr_unit(p_ctx(p)));
  if (!p_expect(p, TOK_LPAREN, "'('") || !p_operand_list(p, &dyn, &seg[1]) ||
      !p_expect(p, TOK_RPAREN, "')'"))
    return false;
  if (p_opt(p, TOK_LSQUARE) && (!p_operand_list(p, &sym, &nsym) || !p_expect(p, TOK_RSQUARE, "']'")))
    return false;
  seg[2] = nsym;
  Type *t, *index = ir_type_index(p_ctx(p));
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  if (is_async)
    st_add_result_type(p, st, token_type(p));
  st_set_segments(p, st, seg, 3);
  return p_resolve_onto(p, st, dyn, seg[1], &index, 1) && p_resolve_onto(p, st, sym, nsym, &index, 1);
}

bool print_gpu_alloc(Printer *pr, Op *op) {
  static const char *const allowed[] = {"hostShared", "operandSegmentSizes", NULL};
  const int64_t *seg = segments(op, "operandSegmentSizes", 3);
  Attr *hs = prop(op, "hostShared");
  if (!seg || !only_props(op, allowed) || !plain_op(op) || (hs && hs->kind != ATTR_UNIT) ||
      seg[0] < 0 || seg[1] < 0 || seg[2] < 0 || seg[0] + seg[1] + seg[2] != op->noperands ||
      op->nresults < 1 || op->nresults > 2 ||
      (op->nresults == 2 && op->results[1].type->kind != TY_GPU_TOKEN) ||
      !all_tokens(op->operands, (uint32_t)seg[0]))
    return false;
  uint32_t nd = (uint32_t)seg[0], ns = (uint32_t)seg[1], nsym = (uint32_t)seg[2];
  for (uint32_t i = nd; i < op->noperands; i++)
    if (!is_index(op->operands[i]->type))
      return false;
  print_deps(pr, op, nd, op->nresults == 2);
  if (hs)
    pr_str(pr, " host_shared");
  pr_strn(pr, " (", 2);
  pr_values(pr, op->operands + nd, ns);
  pr_char(pr, ')');
  if (nsym) {
    pr_char(pr, '[');
    pr_values(pr, op->operands + nd + ns, nsym);
    pr_char(pr, ']');
  }
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* async-deps operands attr-dict `:` types, for dealloc (one operand) and memset (two) */
static bool parse_deps_values(Parser *p, OpState *st, uint32_t n) {
  bool is_async;
  uint32_t nd;
  OperandRef r[2];
  Type *t[2];
  if (!parse_deps(p, st, &is_async, &nd) || !p_operand(p, &r[0]))
    return false;
  if (n == 2 && (!p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1])))
    return false;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]))
    return false;
  if (n == 2 && (!p_expect(p, TOK_COMMA, "','") || !p_type(p, &t[1])))
    return false;
  if (is_async)
    st_add_result_type(p, st, token_type(p));
  return p_resolve_onto(p, st, r, n, t, n);
}

static bool print_deps_values(Printer *pr, Op *op, uint32_t n) {
  if (op->props || op->noperands < n || op->nresults > 1 || !plain_op(op) ||
      (op->nresults && op->results[0].type->kind != TY_GPU_TOKEN) ||
      !all_tokens(op->operands, op->noperands - n))
    return false;
  uint32_t nd = op->noperands - n;
  print_deps(pr, op, nd, op->nresults == 1);
  pr_char(pr, ' ');
  pr_values(pr, op->operands + nd, n);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_value_types(pr, op->operands + nd, n);
  return true;
}

/* gpu_dealloc ::= async-deps %memref attr-dict `:` type */
bool parse_gpu_dealloc(Parser *p, OpState *st) { return parse_deps_values(p, st, 1); }
bool print_gpu_dealloc(Printer *pr, Op *op) { return print_deps_values(pr, op, 1); }
/* gpu_memset ::= async-deps %dst `,` %value attr-dict `:` type `,` type */
bool parse_gpu_memset(Parser *p, OpState *st) { return parse_deps_values(p, st, 2); }
bool print_gpu_memset(Printer *pr, Op *op) { return print_deps_values(pr, op, 2); }

/* gpu_value_type ::= %value attr-dict `:` type   (gpu.host_register, gpu.host_unregister: an
 * unranked memref, as mlir-opt's parser wants; llvm.intr.stackrestore, nvvm.bar.warp.sync) */
bool parse_gpu_value_type(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'"))
    return false;
  const char *tpos = p_tok(p)->text;
  if (!p_type(p, &t))
    return false;
  bool host = ir_str_eq(st->name, "gpu.host_register") || ir_str_eq(st->name, "gpu.host_unregister");
  if (host && t->kind != TY_UNRANKED_MEMREF)
    return p_error_at(p, tpos, "custom op '%.*s' invalid kind of type specified: expected "
                      "builtin.unranked_memref, but found '%s'", (int)st->name.len, st->name.s,
                      ir_type_str(p_ctx(p), t));
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_gpu_value_type(Printer *pr, Op *op) {
  if (op->props || op->noperands != 1 || op->nresults || !plain_op(op))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* gpu_set_default_device ::= attr-dict %devIndex   (an i32) */
bool parse_gpu_set_default_device(Parser *p, OpState *st) {
  OperandRef r;
  Type *i32 = ir_type_int(p_ctx(p), 32, SIGNLESS);
  return p_opt_attr_dict(p, st) && p_operand(p, &r) && p_resolve_onto(p, st, &r, 1, &i32, 1);
}

bool print_gpu_set_default_device(Printer *pr, Op *op) {
  if (op->props || op->noperands != 1 || op->nresults || !plain_op(op) ||
      !ir_type_is_integer(op->operands[0]->type, 32))
    return false;
  pr_attr_dict(pr, op, NULL, false);
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  return true;
}

/* ---- Kernel launches ------------------------------------------------------------------------ */

/* `(` %a `,` %b `,` %c `)` */
static bool parse_triple(Parser *p, OperandRef r[3]) {
  return p_expect(p, TOK_LPAREN, "'('") && p_operand(p, &r[0]) && p_expect(p, TOK_COMMA, "','") &&
         p_operand(p, &r[1]) && p_expect(p, TOK_COMMA, "','") && p_operand(p, &r[2]) &&
         p_expect(p, TOK_RPAREN, "')'");
}

static void print_triple(Printer *pr, Value *const *vs) {
  pr_strn(pr, " (", 2);
  pr_values(pr, vs, 3);
  pr_char(pr, ')');
}

/* gpu_launch_func ::= async-deps (`<` %object `:` type `>`)? @kernel
 *     (`clusters` `in` triple)? `blocks` `in` triple `threads` `in` triple (`:` type)?
 *     (`dynamic_shared_memory_size` %i32)? (`args` `(` %a `:` type (`,` ...)* `)`)? attr-dict
 * operandSegmentSizes: deps, grid x y z, block x y z, cluster x y z, shared size, args, object */
bool parse_gpu_launch_func(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  bool is_async;
  uint32_t seg[13] = {0};
  OperandRef obj, cl[3], grid[3], blk[3], shm;
  Type *obj_type = NULL;
  bool has_obj = false, has_cl = false, has_shm = false;
  if (!parse_deps(p, st, &is_async, &seg[0]))
    return false;
  if (p_opt(p, TOK_LESS)) {
    if (!p_operand(p, &obj) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &obj_type) ||
        !p_expect(p, TOK_GREATER, "'>'"))
      return false;
    has_obj = true;
  }
  const char *kpos = p_tok(p)->text;
  Attr *kernel;
  if (!p_is(p, TOK_AT))
    return p_error(p, "custom op 'gpu.launch_func' invalid kind of attribute specified");
  if (!p_attr(p, NULL, &kernel))
    return false;
  if (kernel->kind != ATTR_SYMREF)
    return p_error_at(p, kpos, "expected kernel symbol");
  if (p_opt_kw(p, "clusters")) {
    if (!p_kw(p, "in") || !parse_triple(p, cl))
      return false;
    has_cl = true;
  }
  if (!p_kw(p, "blocks") || !p_kw(p, "in") || !parse_triple(p, grid) || !p_kw(p, "threads") ||
      !p_kw(p, "in") || !parse_triple(p, blk))
    return false;
  Type *dim = ir_type_index(ctx), *i32 = ir_type_int(ctx, 32, SIGNLESS);
  if (p_opt(p, TOK_COLON) && !p_type(p, &dim))
    return false;
  if (p_opt_kw(p, "dynamic_shared_memory_size")) {
    if (!p_operand(p, &shm))
      return false;
    has_shm = true;
  }
  OperandRef args[64];
  Type *arg_types[64];
  uint32_t nargs = 0;
  if (p_opt_kw(p, "args")) {
    if (!p_expect(p, TOK_LPAREN, "'('"))
      return false;
    if (!p_is(p, TOK_RPAREN)) {
      do {
        if (nargs == 64)
          return p_error(p, "too many kernel arguments");
        if (!p_operand(p, &args[nargs]) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &arg_types[nargs]))
          return false;
        nargs++;
      } while (p_opt(p, TOK_COMMA));
    }
    if (!p_expect(p, TOK_RPAREN, "')' in argument list"))
      return false;
  }
  if (!p_opt_attr_dict(p, st))
    return false;
  st_add_prop(p, st, "kernel", kernel);
  if (is_async)
    st_add_result_type(p, st, token_type(p));
  for (int i = 1; i <= 6; i++)
    seg[i] = 1;
  for (int i = 7; i <= 9; i++)
    seg[i] = has_cl;
  seg[10] = has_shm;
  seg[11] = nargs;
  seg[12] = has_obj;
  st_set_segments(p, st, seg, 13);
  return p_resolve_onto(p, st, grid, 3, &dim, 1) && p_resolve_onto(p, st, blk, 3, &dim, 1) &&
         (!has_cl || p_resolve_onto(p, st, cl, 3, &dim, 1)) &&
         (!has_shm || p_resolve_onto(p, st, &shm, 1, &i32, 1)) &&
         p_resolve_onto(p, st, args, nargs, arg_types, nargs) &&
         (!has_obj || p_resolve_onto(p, st, &obj, 1, &obj_type, 1));
}

bool print_gpu_launch_func(Printer *pr, Op *op) {
  static const char *const allowed[] = {"kernel", "operandSegmentSizes", NULL};
  const int64_t *seg = segments(op, "operandSegmentSizes", 13);
  Attr *kernel = prop(op, "kernel");
  if (!seg || !kernel || kernel->kind != ATTR_SYMREF || !only_props(op, allowed) || !plain_op(op) ||
      op->nresults > 1 || (op->nresults && op->results[0].type->kind != TY_GPU_TOKEN))
    return false;
  int64_t total = 0;
  for (int i = 0; i < 13; i++) {
    if (seg[i] < 0 || (i >= 1 && i != 11 && seg[i] > 1))
      return false;
    total += seg[i];
  }
  bool has_cl = seg[7] || seg[8] || seg[9];
  if (total != op->noperands || !seg[1] || !seg[2] || !seg[3] || !seg[4] || !seg[5] || !seg[6] ||
      (has_cl && !(seg[7] && seg[8] && seg[9])))
    return false;
  uint32_t nd = (uint32_t)seg[0];
  Value *const *grid = op->operands + nd, *const *cl = grid + 6;
  Value *const *shm = cl + (has_cl ? 3 : 0), *const *args = shm + seg[10];
  Value *const *obj = args + seg[11];
  Type *dim = grid[0]->type;
  for (int i = 0; i < (has_cl ? 9 : 6); i++)
    if (grid[i]->type != dim)
      return false;
  if (!all_tokens(op->operands, nd) || (seg[10] && !ir_type_is_integer(shm[0]->type, 32)))
    return false;
  print_deps(pr, op, nd, op->nresults == 1);
  if (seg[12]) {
    pr_strn(pr, " <", 2);
    pr_value(pr, obj[0]);
    pr_strn(pr, " : ", 3);
    pr_type(pr, obj[0]->type);
    pr_char(pr, '>');
  }
  pr_char(pr, ' ');
  pr_attr(pr, kernel);
  if (has_cl) {
    pr_str(pr, " clusters in");
    print_triple(pr, cl);
  }
  pr_str(pr, " blocks in");
  print_triple(pr, grid);
  pr_str(pr, " threads in");
  print_triple(pr, grid + 3);
  if (!is_index(dim)) {
    pr_strn(pr, " : ", 3);
    pr_type(pr, dim);
  }
  if (seg[10]) {
    pr_str(pr, " dynamic_shared_memory_size ");
    pr_value(pr, shm[0]);
  }
  if (seg[11]) {
    pr_str(pr, " args(");
    for (int64_t i = 0; i < seg[11]; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_value(pr, args[i]);
      pr_strn(pr, " : ", 3);
      pr_type(pr, args[i]->type);
    }
    pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, allowed, false);
  return true;
}

/* `(` %id `,` %id `,` %id `)` `in` `(` %size `=` %v (`,` ...)x3 `)`: the ids and sizes become
 * body arguments (ids[0..2], sizes[0..2]) and the values operands */
static bool parse_launch_dims(Parser *p, RegionArg ids[3], RegionArg sizes[3], OperandRef vals[3]) {
  Type *index = ir_type_index(p_ctx(p));
  if (!p_expect(p, TOK_LPAREN, "'('"))
    return false;
  for (int i = 0; i < 3; i++) {
    memset(&ids[i], 0, sizeof ids[i]);
    ids[i].type = index;
    if ((i && !p_expect(p, TOK_COMMA, "','")) || !p_operand(p, &ids[i].ref))
      return false;
  }
  if (!p_expect(p, TOK_RPAREN, "')'") || !p_kw(p, "in") || !p_expect(p, TOK_LPAREN, "'('"))
    return false;
  for (int i = 0; i < 3; i++) {
    memset(&sizes[i], 0, sizeof sizes[i]);
    sizes[i].type = index;
    if ((i && !p_expect(p, TOK_COMMA, "','")) || !p_operand(p, &sizes[i].ref) ||
        !p_expect(p, TOK_EQUAL, "'='") || !p_operand(p, &vals[i]))
      return false;
  }
  return p_expect(p, TOK_RPAREN, "')'");
}

/* `workgroup` or `private` `(` %a `:` type (`,` ...)* `)` appended to args */
static bool parse_attributions(Parser *p, const char *kw, RegionArg *args, uint32_t *n, uint32_t cap,
                               uint32_t *count) {
  *count = 0;
  if (!p_opt_kw(p, kw))
    return true;
  RegionArg *a;
  uint32_t na;
  if (!p_arg_list(p, &a, &na, NULL, NULL, false))
    return false;
  if (*n + na > cap)
    return p_error(p, "too many attributions");
  memcpy(args + *n, a, na * sizeof *a);
  *n += na;
  *count = na;
  return true;
}

/* workgroup_attributions = n : i64 among the discardable attributes, unless the source gave it */
static void set_attributions(Parser *p, OpState *st, uint32_t n) {
  IrCtx *ctx = p_ctx(p);
  for (uint32_t i = 0; i < st->nattrs; i++)
    if (ir_str_eq(st->attrs[i].name, "workgroup_attributions"))
      return;
  /* st->attrs grows only through p_opt_attr_dict: copy it with one more entry */
  NamedAttr *na = ir_alloc(ctx, (st->nattrs + 1) * sizeof *na);
  if (st->nattrs)
    memcpy(na, st->attrs, st->nattrs * sizeof *na);
  na[st->nattrs].name = ir_intern_cstr(ctx, "workgroup_attributions");
  na[st->nattrs].value = ir_attr_int(ctx, ir_type_int(ctx, 64, SIGNLESS), n);
  st->attrs = na;
  st->capattrs = ++st->nattrs;
}

/* gpu_launch ::= async-deps (`clusters` dims)? `blocks` dims `threads` dims
 *     (`dynamic_shared_memory_size` %i32)? (`module` `(` @m `)`)? (`function` `(` @f `)`)?
 *     (`workgroup` `(` args `)`)? (`private` `(` args `)`)? region attr-dict
 * body arguments: block ids, thread ids, grid sizes, block sizes, (cluster ids, cluster sizes)?,
 * workgroup attributions, private attributions */
bool parse_gpu_launch(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  bool is_async;
  uint32_t seg[11] = {0};
  RegionArg args[18 + 64];
  OperandRef cl[3], grid[3], blk[3], shm;
  bool has_cl = false, has_shm = false;
  if (!parse_deps(p, st, &is_async, &seg[0]))
    return false;
  if (p_opt_kw(p, "clusters")) {
    if (!parse_launch_dims(p, args + 12, args + 15, cl))
      return false;
    has_cl = true;
  }
  if (!p_kw(p, "blocks") || !parse_launch_dims(p, args + 0, args + 6, grid) || !p_kw(p, "threads") ||
      !parse_launch_dims(p, args + 3, args + 9, blk))
    return false;
  if (p_opt_kw(p, "dynamic_shared_memory_size")) {
    if (!p_operand(p, &shm))
      return false;
    has_shm = true;
  }
  for (int k = 0; k < 2; k++) {
    const char *kw = k ? "function" : "module";
    if (p_opt_kw(p, kw)) {
      Str sym;
      if (!p_expect(p, TOK_LPAREN, "'('") || !p_symbol(p, &sym) || !p_expect(p, TOK_RPAREN, "')'"))
        return false;
      st_add_prop(p, st, kw, ir_attr_symref(ctx, &sym, 1));
    }
  }
  uint32_t n = has_cl ? 18 : 12, nw, np;
  if (!parse_attributions(p, "workgroup", args, &n, 18 + 64, &nw) ||
      !parse_attributions(p, "private", args, &n, 18 + 64, &np))
    return false;
  Type *index = ir_type_index(ctx), *i32 = ir_type_int(ctx, 32, SIGNLESS);
  for (int i = 1; i <= 6; i++)
    seg[i] = 1;
  for (int i = 7; i <= 9; i++)
    seg[i] = has_cl;
  seg[10] = has_shm;
  if (!p_resolve_onto(p, st, grid, 3, &index, 1) || !p_resolve_onto(p, st, blk, 3, &index, 1) ||
      (has_cl && !p_resolve_onto(p, st, cl, 3, &index, 1)) ||
      (has_shm && !p_resolve_onto(p, st, &shm, 1, &i32, 1)))
    return false;
  st_set_segments(p, st, seg, 11);
  if (is_async)
    st_add_result_type(p, st, token_type(p));
  Region *body = st_add_region(p, st);
  if (!p_region(p, body, args, n, false) || !p_opt_attr_dict(p, st))
    return false;
  set_attributions(p, st, nw);
  (void)np;
  return true;
}

/* the count in workgroup_attributions (a discardable i64), or -1 */
static int64_t attributions(const Op *op) {
  Attr *a = ir_dict_get(op->attrs, "workgroup_attributions");
  if (!a || a->kind != ATTR_INT || a->u.i.big || !ir_type_is_integer(a->type, 64) || a->u.i.v < 0)
    return -1;
  return a->u.i.v;
}

static void print_launch_dims(Printer *pr, const char *kw, Value *ids, Value *sizes, Value *const *vals) {
  pr_char(pr, ' ');
  pr_str(pr, kw);
  pr_char(pr, '(');
  for (int i = 0; i < 3; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &ids[i]);
  }
  pr_str(pr, ") in (");
  for (int i = 0; i < 3; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &sizes[i]);
    pr_strn(pr, " = ", 3);
    pr_value(pr, vals[i]);
  }
  pr_char(pr, ')');
}

static void print_attribution_list(Printer *pr, const char *kw, Value *args, uint32_t n) {
  if (!n)
    return;
  pr_char(pr, ' ');
  pr_str(pr, kw);
  pr_char(pr, '(');
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &args[i]);
    pr_strn(pr, " : ", 3);
    pr_type(pr, args[i].type);
  }
  pr_char(pr, ')');
}

bool print_gpu_launch(Printer *pr, Op *op) {
  static const char *const allowed[] = {"operandSegmentSizes", "module", "function", NULL};
  static const char *const elide[] = {"operandSegmentSizes", "module", "function",
                                      "workgroup_attributions", NULL};
  const int64_t *seg = segments(op, "operandSegmentSizes", 11);
  Attr *km = prop(op, "module"), *kf = prop(op, "function");
  int64_t nw = attributions(op);
  if (!seg || !only_props(op, allowed) || op->nregions != 1 || op->nsuccs || op->nresults > 1 ||
      (op->nresults && op->results[0].type->kind != TY_GPU_TOKEN) || nw < 0 ||
      (km && (km->kind != ATTR_SYMREF || km->u.sym.n != 1)) ||
      (kf && (kf->kind != ATTR_SYMREF || kf->u.sym.n != 1)))
    return false;
  int64_t total = 0;
  for (int i = 0; i < 11; i++) {
    if (seg[i] < 0 || (i >= 1 && seg[i] > 1))
      return false;
    total += seg[i];
  }
  bool has_cl = seg[7] && seg[8] && seg[9];
  if (total != op->noperands || !(seg[1] && seg[2] && seg[3] && seg[4] && seg[5] && seg[6]) ||
      (!has_cl && (seg[7] || seg[8] || seg[9])))
    return false;
  uint32_t nd = (uint32_t)seg[0], nids = has_cl ? 18 : 12;
  Value *const *vals = op->operands + nd;
  for (uint32_t i = 0; i < (has_cl ? 9u : 6u); i++)
    if (!is_index(vals[i]->type))
      return false;
  if (!all_tokens(op->operands, nd) || (seg[10] && !ir_type_is_integer(vals[has_cl ? 9 : 6]->type, 32)))
    return false;
  Block *entry = op->regions[0].first;
  if (!entry || entry->nargs < nids + (uint64_t)nw)
    return false;
  for (uint32_t i = 0; i < nids; i++)
    if (!is_index(entry->args[i].type))
      return false;
  Value *a = entry->args;
  print_deps(pr, op, nd, op->nresults == 1);
  if (has_cl)
    print_launch_dims(pr, "clusters", a + 12, a + 15, vals + 6);
  print_launch_dims(pr, "blocks", a + 0, a + 6, vals);
  print_launch_dims(pr, "threads", a + 3, a + 9, vals + 3);
  if (seg[10]) {
    pr_str(pr, " dynamic_shared_memory_size ");
    pr_value(pr, vals[has_cl ? 9 : 6]);
  }
  if (km) {
    pr_str(pr, " module(");
    pr_symbol(pr, km->u.sym.path[0]);
    pr_char(pr, ')');
  }
  if (kf) {
    pr_str(pr, " function(");
    pr_symbol(pr, kf->u.sym.path[0]);
    pr_char(pr, ')');
  }
  print_attribution_list(pr, "workgroup", a + nids, (uint32_t)nw);
  print_attribution_list(pr, "private", a + nids + nw, entry->nargs - nids - (uint32_t)nw);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  pr_attr_dict(pr, op, elide, false);
  return true;
}

/* ---- gpu.func and gpu.binary ---------------------------------------------------------------- */

/* an array of n dictionaries from per-argument attribute lists, or NULL when none has one */
static Attr *dict_array(IrCtx *ctx, NamedAttr **attrs, uint32_t n) {
  if (!attrs)
    return NULL;
  Attr **a = ir_alloc(ctx, n * sizeof(Attr *) + 1);
  for (uint32_t i = 0; i < n; i++)
    a[i] = attrs[i] ? attrs[i]->value : ir_attr_dict(ctx, NULL, 0);
  return ir_attr_array(ctx, a, n);
}

/* gpu_func ::= @name `(` args `)` (`->` results)? (`workgroup` `(` args `)`)?
 *              (`private` `(` args `)`)? `kernel`? (`attributes` dict)? region
 * sym_name, workgroup_attributions and gpu.kernel are discardable attributes of gpu.func */
bool parse_gpu_func(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  Str name;
  RegionArg *args, *wg = NULL, *pv = NULL;
  uint32_t nargs, nres = 0, nw = 0, np = 0;
  NamedAttr **arg_attrs, **wg_attrs = NULL, **pv_attrs = NULL;
  Type **res = NULL;
  if (!p_symbol(p, &name))
    return false;
  const char *c = p_tok(p)->kind == TOK_LPAREN ? p_tok(p)->text + 1 : "%";
  while (*c == ' ' || *c == '\n' || *c == '\t' || *c == '\r')
    c++;
  if (*c != '%' && *c != ')')
    return p_error(p, "custom op 'gpu.func' gpu.func requires named arguments");
  if (!p_arg_list(p, &args, &nargs, &arg_attrs, NULL, false))
    return false;
  if (p_opt(p, TOK_ARROW) && !p_result_types(p, &res, &nres))
    return false;
  if (p_opt_kw(p, "workgroup") && !p_arg_list(p, &wg, &nw, &wg_attrs, NULL, false))
    return false;
  if (p_opt_kw(p, "private") && !p_arg_list(p, &pv, &np, &pv_attrs, NULL, false))
    return false;
  bool kernel = p_opt_kw(p, "kernel");
  Type **in = ir_alloc(ctx, nargs * sizeof(Type *) + 1);
  for (uint32_t i = 0; i < nargs; i++)
    in[i] = args[i].type;
  st_add_prop(p, st, "function_type", ir_attr_type(ctx, ir_type_func(ctx, in, nargs, res, nres)));
  Attr *aa = dict_array(ctx, arg_attrs, nargs), *wa = dict_array(ctx, wg_attrs, nw),
       *pa = dict_array(ctx, pv_attrs, np);
  if (aa)
    st_add_prop(p, st, "arg_attrs", aa);
  if (wa)
    st_add_prop(p, st, "workgroup_attrib_attrs", wa);
  if (pa)
    st_add_prop(p, st, "private_attrib_attrs", pa);
  if (!p_opt_attr_dict_with_keyword(p, st))
    return false;
  /* the discardable attributes the syntax implies, as one more dictionary */
  NamedAttr extra[3] = {{ir_intern_cstr(ctx, "sym_name"), ir_attr_string(ctx, name.s, name.len)},
                        {ir_intern_cstr(ctx, "gpu.kernel"), ir_attr_unit(ctx)}};
  NamedAttr *na = ir_alloc(ctx, (st->nattrs + 2) * sizeof *na);
  if (st->nattrs)
    memcpy(na, st->attrs, st->nattrs * sizeof *na);
  na[st->nattrs++] = extra[0];
  if (kernel)
    na[st->nattrs++] = extra[1];
  st->attrs = na;
  st->capattrs = st->nattrs;
  set_attributions(p, st, nw);
  RegionArg *all = ir_alloc(ctx, (nargs + nw + np) * sizeof *all + 1);
  memcpy(all, args, nargs * sizeof *all);
  if (nw)
    memcpy(all + nargs, wg, nw * sizeof *all);
  if (np)
    memcpy(all + nargs + nw, pv, np * sizeof *all);
  Region *r = st_add_region(p, st);
  return p_region(p, r, all, nargs + nw + np, true);
}

static void print_dict_of(Printer *pr, const Attr *arr, uint32_t i) {
  if (!arr || i >= arr->u.arr.n)
    return;
  const Attr *d = arr->u.arr.elems[i];
  if (d->kind == ATTR_DICT && d->u.dict.n) {
    pr_char(pr, ' ');
    pr_attr(pr, d);
  }
}

static bool dict_array_fits(const Attr *a, uint32_t n) {
  if (!a)
    return true;
  if (a->kind != ATTR_ARRAY || a->u.arr.n != n)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (a->u.arr.elems[i]->kind != ATTR_DICT)
      return false;
  return true;
}

/* MLIR spells function arguments `%a: T loc(...)` and attributions `%a : T`, without locations
 * (as it does for the ids of gpu.launch and the arguments of async.execute) */
static void print_arg_decls(Printer *pr, Value *args, uint32_t n, const Attr *attrs, bool with_locs) {
  const char *colon = with_locs ? ": " : " : ";
  pr_char(pr, '(');
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, &args[i]);
    pr_str(pr, colon);
    pr_type(pr, args[i].type);
    print_dict_of(pr, attrs, i);
    if (with_locs)
      pr_loc_suffix(pr, args[i].loc);
  }
  pr_char(pr, ')');
}

bool print_gpu_func(Printer *pr, Op *op) {
  static const char *const allowed[] = {"function_type", "arg_attrs", "workgroup_attrib_attrs",
                                        "private_attrib_attrs", "known_block_size", "known_grid_size",
                                        "known_cluster_size", NULL};
  static const char *const elide[] = {"function_type", "arg_attrs", "workgroup_attrib_attrs",
                                      "private_attrib_attrs", "sym_name", "gpu.kernel",
                                      "workgroup_attributions", NULL};
  Attr *ft = prop(op, "function_type"), *name = ir_dict_get(op->attrs, "sym_name");
  Attr *kernel = ir_dict_get(op->attrs, "gpu.kernel");
  int64_t nw = attributions(op);
  if (!only_props(op, allowed) || !ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC || !name ||
      name->kind != ATTR_STRING || name->type || (kernel && kernel->kind != ATTR_UNIT) || nw < 0 ||
      op->nregions != 1 || op->noperands || op->nresults || op->nsuccs)
    return false;
  const Type *fn = ft->type;
  Block *entry = op->regions[0].first;
  uint32_t nin = fn->u.fn.nin;
  if (!entry || entry->nargs < nin + (uint64_t)nw)
    return false;
  for (uint32_t i = 0; i < nin; i++)
    if (entry->args[i].type != fn->u.fn.in[i])
      return false;
  uint32_t np = entry->nargs - nin - (uint32_t)nw;
  Attr *aa = prop(op, "arg_attrs"), *wa = prop(op, "workgroup_attrib_attrs"),
       *pa = prop(op, "private_attrib_attrs");
  if (!dict_array_fits(aa, nin) || !dict_array_fits(wa, (uint32_t)nw) || !dict_array_fits(pa, np))
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  print_arg_decls(pr, entry->args, nin, aa, true);
  if (fn->u.fn.nout) {
    pr_str(pr, " -> ");
    bool paren = fn->u.fn.nout > 1 || fn->u.fn.out[0]->kind == TY_FUNC;
    if (paren)
      pr_char(pr, '(');
    pr_types(pr, fn->u.fn.out, fn->u.fn.nout);
    if (paren)
      pr_char(pr, ')');
  }
  if (nw) {
    pr_str(pr, " workgroup");
    print_arg_decls(pr, entry->args + nin, (uint32_t)nw, wa, false);
  }
  if (np) {
    pr_str(pr, " private");
    print_arg_decls(pr, entry->args + nin + nw, np, pa, false);
  }
  if (kernel)
    pr_str(pr, " kernel");
  pr_attr_dict(pr, op, elide, true);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  return true;
}

/* gpu_binary ::= @name (`<` handler `>`)? attr-dict `[` objects `]`
 * offloadingHandler is always present (default #gpu.select_object) */
bool parse_gpu_binary(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  Str name;
  Attr *handler = NULL, *objects;
  if (!p_symbol(p, &name))
    return false;
  if (p_opt(p, TOK_LESS) && (!p_attr(p, NULL, &handler) || !p_expect(p, TOK_GREATER, "'>'")))
    return false;
  if (!handler) {
    handler = ir_alloc(ctx, sizeof *handler);
    handler->kind = ATTR_OPAQUE;
    handler->u.str = ir_intern_cstr(ctx, "#gpu.select_object");
  }
  if (!p_opt_attr_dict(p, st) || !p_attr(p, NULL, &objects))
    return false;
  st_add_prop(p, st, "sym_name", ir_attr_string(ctx, name.s, name.len));
  st_add_prop(p, st, "offloadingHandler", handler);
  st_add_prop(p, st, "objects", objects);
  return true;
}

bool print_gpu_binary(Printer *pr, Op *op) {
  static const char *const allowed[] = {"sym_name", "offloadingHandler", "objects", NULL};
  Attr *name = prop(op, "sym_name"), *h = prop(op, "offloadingHandler"), *objs = prop(op, "objects");
  if (!only_props(op, allowed) || !name || name->kind != ATTR_STRING || name->type || !objs ||
      objs->kind != ATTR_ARRAY || op->noperands || op->nresults || !plain_op(op))
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  if (h && !(h->kind == ATTR_OPAQUE && ir_str_eq(h->u.str, "#gpu.select_object"))) {
    pr_strn(pr, " <", 2);
    pr_attr(pr, h);
    pr_char(pr, '>');
  }
  pr_attr_dict(pr, op, allowed, false);
  pr_char(pr, ' ');
  pr_attr(pr, objs);
  return true;
}

/* ---- nvvm ----------------------------------------------------------------------------------- */

/* `range` `<` type `,` lo `,` hi `>` as #llvm.constant_range<...>, spelled the way syntax.c
 * keeps dialect attribute text: blanks dropped, one blank after each comma */
static bool parse_range(Parser *p, OpState *st) {
  if (!p_is_kw(p, "range"))
    return true;
  const char *body;
  uint32_t blen;
  p->lx.cur = p->tok.text + p->tok.len;
  if (!p_balanced(p, &body, &blen, "expected '<'"))
    return false;
  char buf[256];
  size_t o = (size_t)snprintf(buf, sizeof buf, "#llvm.constant_range");
  for (uint32_t i = 0; i < blen && o < sizeof buf - 2; i++) {
    if (body[i] == ' ' || body[i] == '\n' || body[i] == '\t')
      continue;
    buf[o++] = body[i];
    if (body[i] == ',')
      buf[o++] = ' ';
  }
  Attr *a = ir_alloc(p_ctx(p), sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern(p_ctx(p), buf, o);
  p_next(p);
  st_add_prop(p, st, "range", a);
  return true;
}

/* nvvm_sreg ::= (`range` `<` ... `>`)? attr-dict `:` type
 * (nvvm.read.ptx.sreg.*; also gpu.dynamic_shared_memory, which has no range) */
bool parse_nvvm_sreg(Parser *p, OpState *st) {
  Type *t;
  if (!parse_range(p, st) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return true;
}

bool print_nvvm_sreg(Printer *pr, Op *op) {
  static const char *const allowed[] = {"range", NULL};
  static const char *const prefix = "#llvm.constant_range<";
  Attr *range = prop(op, "range");
  if (!only_props(op, allowed) || op->noperands || op->nresults != 1 || !plain_op(op) ||
      (range && (range->kind != ATTR_OPAQUE || range->u.str.len <= strlen(prefix) ||
                 memcmp(range->u.str.s, prefix, strlen(prefix)) != 0)))
    return false;
  if (range) {
    pr_str(pr, " range ");
    pr_strn(pr, range->u.str.s + strlen(prefix) - 1, range->u.str.len - strlen(prefix) + 1);
  }
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* nvvm_shfl ::= kind %mask `,` %val `,` %offset `,` %clamp attr-dict `:` type `->` type
 * mask, offset and clamp are i32 */
bool parse_nvvm_shfl(Parser *p, OpState *st) {
  Attr *kind;
  OperandRef r[4];
  Type *t, *res;
  if (!parse_kw_attr(p, "#nvvm<shfl_kind", shfl_kinds, "shuffle kind", &kind))
    return false;
  for (int i = 0; i < 4; i++)
    if ((i && !p_expect(p, TOK_COMMA, "','")) || !p_operand(p, &r[i]))
      return false;
  if (!p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &res))
    return false;
  Type *i32 = ir_type_int(p_ctx(p), 32, SIGNLESS);
  Type *types[4] = {i32, t, i32, i32};
  st_add_prop(p, st, "kind", kind);
  st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, r, 4, types, 4);
}

bool print_nvvm_shfl(Printer *pr, Op *op) {
  static const char *const allowed[] = {"kind", "return_value_and_is_valid", NULL};
  static const char *const elide[] = {"kind", NULL};
  Str kw;
  if (op->noperands != 4 || op->nresults != 1 || !plain_op(op) || !only_props(op, allowed) ||
      !attr_kw(prop(op, "kind"), "#nvvm<shfl_kind", shfl_kinds, &kw) ||
      !ir_type_is_integer(op->operands[0]->type, 32) || !ir_type_is_integer(op->operands[2]->type, 32) ||
      !ir_type_is_integer(op->operands[3]->type, 32))
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, kw.s, kw.len);
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 4);
  pr_attr_dict(pr, op, elide, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[1]->type);
  pr_strn(pr, " -> ", 4);
  pr_type(pr, op->results[0].type);
  return true;
}

/* ---- async ---------------------------------------------------------------------------------- */

/* async_execute ::= (`[` %token (`,` ...)* `]`)? (`(` %value `as` %arg `:` type (`,` ...)* `)`)?
 *                   (`->` type (`,` type)*)? (`attributes` dict)? region
 * results: !async.token, then the listed !async.value types; the body receives each value's
 * element type; operandSegmentSizes: dependencies, body operands */
bool parse_async_execute(Parser *p, OpState *st) {
  IrCtx *ctx = p_ctx(p);
  uint32_t seg[2] = {0, 0};
  OperandRef *deps = NULL, vals[64];
  Type *val_types[64];
  RegionArg args[64];
  if (p_opt(p, TOK_LSQUARE) && (!p_operand_list(p, &deps, &seg[0]) || !p_expect(p, TOK_RSQUARE, "']'")))
    return false;
  if (p_opt(p, TOK_LPAREN)) {
    if (!p_is(p, TOK_RPAREN)) {
      do {
        uint32_t i = seg[1];
        if (i == 64)
          return p_error(p, "too many body operands");
        memset(&args[i], 0, sizeof args[i]);
        const char *pos = p_tok(p)->text;
        if (!p_operand(p, &vals[i]) || !p_kw(p, "as") || !p_operand(p, &args[i].ref) ||
            !p_expect(p, TOK_COLON, "':'") || !p_type(p, &val_types[i]))
          return false;
        if (val_types[i]->kind != TY_ASYNC_VALUE)
          return p_error_at(p, pos, "expected !async.value operand");
        args[i].type = val_types[i]->u.arr.elem;
        seg[1]++;
      } while (p_opt(p, TOK_COMMA));
    }
    if (!p_expect(p, TOK_RPAREN, "')'"))
      return false;
  }
  st_add_result_type(p, st, ir_type_simple(ctx, TY_ASYNC_TOKEN));
  if (p_opt(p, TOK_ARROW)) {
    Type **res;
    uint32_t nres;
    if (p_is(p, TOK_LPAREN) ? !p_paren_type_list(p, &res, &nres) : !p_type_list(p, &res, &nres))
      return false;
    for (uint32_t i = 0; i < nres; i++)
      st_add_result_type(p, st, res[i]);
  }
  Type *tok = ir_type_simple(ctx, TY_ASYNC_TOKEN);
  if (!p_resolve_onto(p, st, deps, seg[0], &tok, 1) || !p_resolve_onto(p, st, vals, seg[1], val_types, seg[1]))
    return false;
  st_set_segments(p, st, seg, 2);
  if (!p_opt_attr_dict_with_keyword(p, st))
    return false;
  Region *r = st_add_region(p, st);
  return p_region(p, r, seg[1] ? args : NULL, seg[1], false);
}

bool print_async_execute(Printer *pr, Op *op) {
  static const char *const allowed[] = {"operandSegmentSizes", NULL};
  const int64_t *seg = segments(op, "operandSegmentSizes", 2);
  if (!seg || !only_props(op, allowed) || op->nregions != 1 || op->nsuccs || seg[0] < 0 || seg[1] < 0 ||
      seg[0] + seg[1] != op->noperands || !op->nresults || op->results[0].type->kind != TY_ASYNC_TOKEN)
    return false;
  uint32_t nd = (uint32_t)seg[0], nv = (uint32_t)seg[1];
  Block *entry = op->regions[0].first;
  if (!entry || entry->nargs != nv)
    return false;
  for (uint32_t i = 0; i < nd; i++)
    if (op->operands[i]->type->kind != TY_ASYNC_TOKEN)
      return false;
  for (uint32_t i = 0; i < nv; i++) {
    Type *t = op->operands[nd + i]->type;
    if (t->kind != TY_ASYNC_VALUE || t->u.arr.elem != entry->args[i].type)
      return false;
  }
  for (uint32_t i = 1; i < op->nresults; i++)
    if (op->results[i].type->kind != TY_ASYNC_VALUE)
      return false;
  if (nd) {
    pr_strn(pr, " [", 2);
    pr_values(pr, op->operands, nd);
    pr_char(pr, ']');
  }
  if (nv) {
    pr_strn(pr, " (", 2);
    for (uint32_t i = 0; i < nv; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_value(pr, op->operands[nd + i]);
      pr_str(pr, " as ");
      pr_value(pr, &entry->args[i]);
      pr_strn(pr, ": ", 2);
      pr_type(pr, op->operands[nd + i]->type);
    }
    pr_char(pr, ')');
  }
  if (op->nresults > 1) {
    pr_str(pr, op->nresults > 2 ? " -> (" : " -> ");
    for (uint32_t i = 1; i < op->nresults; i++) {
      if (i > 1)
        pr_strn(pr, ", ", 2);
      pr_type(pr, op->results[i].type);
    }
    if (op->nresults > 2)
      pr_char(pr, ')');
  }
  pr_attr_dict(pr, op, allowed, true);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  return true;
}

/* async_await ::= %operand `:` type attr-dict ; a value's element type is the result, a token
 * gives none */
bool parse_async_await(Parser *p, OpState *st) {
  OperandRef r;
  Type *t;
  if (!p_operand(p, &r) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t) || !p_opt_attr_dict(p, st))
    return false;
  if (t->kind == TY_ASYNC_VALUE)
    st_add_result_type(p, st, t->u.arr.elem);
  return p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_async_await(Printer *pr, Op *op) {
  if (op->props || op->noperands != 1 || !plain_op(op))
    return false;
  Type *t = op->operands[0]->type;
  if (t->kind == TY_ASYNC_VALUE ? op->nresults != 1 || op->results[0].type != t->u.arr.elem
                                : op->nresults != 0)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_strn(pr, " : ", 3);
  pr_type(pr, t);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

/* async_create_group ::= %size attr-dict `:` type   (size is an index) */
bool parse_async_create_group(Parser *p, OpState *st) {
  OperandRef r;
  Type *t, *index = ir_type_index(p_ctx(p));
  if (!p_operand(p, &r) || !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))
    return false;
  st_add_result_type(p, st, t);
  return p_resolve_onto(p, st, &r, 1, &index, 1);
}

bool print_async_create_group(Printer *pr, Op *op) {
  if (op->props || op->noperands != 1 || op->nresults != 1 || !plain_op(op) ||
      !is_index(op->operands[0]->type))
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->results[0].type);
  return true;
}

/* async_add_to_group ::= %operand `,` %group attr-dict `:` type   (the result is an index) */
bool parse_async_add_to_group(Parser *p, OpState *st) {
  OperandRef r[2];
  Type *t[2];
  if (!p_operand(p, &r[0]) || !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) ||
      !p_opt_attr_dict(p, st) || !p_expect(p, TOK_COLON, "':'") || !p_type(p, &t[0]))
    return false;
  t[1] = ir_type_simple(p_ctx(p), TY_ASYNC_GROUP);
  st_add_result_type(p, st, ir_type_index(p_ctx(p)));
  return p_resolve_onto(p, st, r, 2, t, 2);
}

bool print_async_add_to_group(Printer *pr, Op *op) {
  if (op->props || op->noperands != 2 || op->nresults != 1 || !plain_op(op) ||
      op->operands[1]->type->kind != TY_ASYNC_GROUP || !is_index(op->results[0].type))
    return false;
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, NULL, false);
  pr_strn(pr, " : ", 3);
  pr_type(pr, op->operands[0]->type);
  return true;
}

/* async_await_all ::= %group attr-dict */
bool parse_async_await_all(Parser *p, OpState *st) {
  OperandRef r;
  Type *t = ir_type_simple(p_ctx(p), TY_ASYNC_GROUP);
  return p_operand(p, &r) && p_opt_attr_dict(p, st) && p_resolve_onto(p, st, &r, 1, &t, 1);
}

bool print_async_await_all(Printer *pr, Op *op) {
  if (op->props || op->noperands != 1 || op->nresults || !plain_op(op) ||
      op->operands[0]->type->kind != TY_ASYNC_GROUP)
    return false;
  pr_char(pr, ' ');
  pr_value(pr, op->operands[0]);
  pr_attr_dict(pr, op, NULL, false);
  return true;
}

static const char *const vote_kinds[] = {"any", "all", "ballot", "uni", NULL};

/* nvvm_vote ::= kind %mask `,` %pred attr-dict `->` type   (mask i32, pred i1) */
bool parse_nvvm_vote(Parser *p, OpState *st) {
  Attr *kind;
  OperandRef r[2];
  Type *res;
  if (!parse_kw_attr(p, "#nvvm<vote_sync_kind", vote_kinds, "vote kind", &kind) || !p_operand(p, &r[0]) ||
      !p_expect(p, TOK_COMMA, "','") || !p_operand(p, &r[1]) || !p_opt_attr_dict(p, st) ||
      !p_expect(p, TOK_ARROW, "'->'") || !p_type(p, &res))
    return false;
  IrCtx *ctx = p_ctx(p);
  Type *types[2] = {ir_type_int(ctx, 32, SIGNLESS), ir_type_int(ctx, 1, SIGNLESS)};
  st_add_prop(p, st, "kind", kind);
  st_add_result_type(p, st, res);
  return p_resolve_onto(p, st, r, 2, types, 2);
}

bool print_nvvm_vote(Printer *pr, Op *op) {
  static const char *const allowed[] = {"kind", NULL};
  Str kw;
  if (op->noperands != 2 || op->nresults != 1 || !plain_op(op) || !only_props(op, allowed) ||
      !attr_kw(prop(op, "kind"), "#nvvm<vote_sync_kind", vote_kinds, &kw) ||
      !ir_type_is_integer(op->operands[0]->type, 32) || !ir_type_is_integer(op->operands[1]->type, 1))
    return false;
  pr_char(pr, ' ');
  pr_strn(pr, kw.s, kw.len);
  pr_char(pr, ' ');
  pr_values(pr, op->operands, 2);
  pr_attr_dict(pr, op, allowed, false);
  pr_strn(pr, " -> ", 4);
  pr_type(pr, op->results[0].type);
  return true;
}

/* gpu_module ::= @name (`<` handler `>`)? targets? (`attributes` dict)? region
 */
bool parse_gpu_module(Parser *p, OpState *st) {
  Str name;
  if (!p_symbol(p, &name))
    return false;
  st_add_prop(p, st, "sym_name", ir_attr_string(p_ctx(p), name.s, name.len));
  if (p_opt(p, TOK_LESS)) {
    Attr *h;
    if (!p_attr(p, NULL, &h) || !p_expect(p, TOK_GREATER, "'>'"))
      return false;
    st_add_prop(p, st, "offloadingHandler", h);
  }
  if (p_is(p, TOK_LSQUARE)) {
    Attr *targets;
    if (!p_attr(p, NULL, &targets))
      return false;
    st_add_prop(p, st, "targets", targets);
  }
  if (!p_opt_attr_dict_with_keyword(p, st))
    return false;
  Region *r = st_add_region(p, st);
  if (!p_region(p, r, NULL, 0, true))
    return false;
  if (!r->first) {
    Block *b = ir_alloc(p_ctx(p), sizeof *b);
    b->parent = r;
    r->first = r->last = b;
  }
  return true;
}

bool print_gpu_module(Printer *pr, Op *op) {
  static const char *const allowed[] = {"sym_name", "targets", "offloadingHandler", NULL};
  Attr *name = prop(op, "sym_name"), *targets = prop(op, "targets"), *h = prop(op, "offloadingHandler");
  if (!only_props(op, allowed) || !name || name->kind != ATTR_STRING || name->type || op->nregions != 1 ||
      !op->regions[0].first || op->regions[0].first->next || op->regions[0].first->nargs ||
      op->noperands || op->nresults || op->nsuccs || (targets && targets->kind != ATTR_ARRAY))
    return false;
  pr_char(pr, ' ');
  pr_symbol(pr, name->u.str);
  if (h) {
    pr_strn(pr, " <", 2);
    pr_attr(pr, h);
    pr_char(pr, '>');
  }
  if (targets) {
    pr_char(pr, ' ');
    pr_attr(pr, targets);
  }
  pr_attr_dict(pr, op, allowed, true);
  pr_char(pr, ' ');
  pr_region(pr, &op->regions[0], false, false);
  return true;
}
