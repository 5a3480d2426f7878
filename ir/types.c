/* types.c - the type constructors and interning, and the parsing of types.
 *
 * Builtin types and the LLVM dialect's types are parsed into structured Types (the interpreter
 * needs their shapes); any other dialect type is kept as its text, with the body's whitespace
 * normalized so that text from different printers compares equal. Types are interned: two equal
 * types are the same pointer.
 *
 *   type ::= iN | siN | uiN | index | f16 | bf16 | f32 | f64 | ... | none
 *          | `(` type-list? `)` `->` result-types          function type
 *          | tuple<...> | complex<T> | vector<dims x T> | tensor<dims x T (, enc)?> | tensor<*xT>
 *          | memref<dims x T (, layout)? (, memspace)?> | memref<*xT (, memspace)?>
 *          | !alias | !dialect.name<body>
 * Inside an llvm type body the nested llvm types drop their `!llvm.` prefix.
 */
#include "ir/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ---- Type interning ------------------------------------------------------------------------- */

static uint32_t type_hash(const Type *t) {
  uint32_t h = ir_hash_mix(17, t->kind);
  switch (t->kind) {
  case TY_INT: h = ir_hash_mix(ir_hash_mix(h, t->u.i.width), t->u.i.sign); break;
  case TY_FLOAT: h = ir_hash_mix(h, t->u.f); break;
  case TY_FUNC:
    for (uint32_t i = 0; i < t->u.fn.nin; i++)
      h = ir_hash_mix(h, (uintptr_t)t->u.fn.in[i]);
    h = ir_hash_mix(h, 0xabc);
    for (uint32_t i = 0; i < t->u.fn.nout; i++)
      h = ir_hash_mix(h, (uintptr_t)t->u.fn.out[i]);
    break;
  case TY_TUPLE: case TY_LLVM_STRUCT:
    for (uint32_t i = 0; i < t->u.agg.n; i++)
      h = ir_hash_mix(h, (uintptr_t)t->u.agg.elems[i]);
    h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, t->u.agg.packed), t->u.agg.opaque), t->u.agg.named);
    h = ir_hash_mix(h, (uintptr_t)t->u.agg.name.s);
    break;
  case TY_VECTOR: case TY_TENSOR: case TY_MEMREF: case TY_UNRANKED_MEMREF:
    for (uint32_t i = 0; i < t->u.sh.rank; i++)
      h = ir_hash_mix(ir_hash_mix(h, (uint64_t)t->u.sh.shape[i]), t->u.sh.scalable ? t->u.sh.scalable[i] : 0);
    h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, t->u.sh.unranked), (uintptr_t)t->u.sh.elem), t->u.sh.rank);
    h = ir_hash_mix(h, ir_attr_hash(t->u.sh.layout));
    h = ir_hash_mix(h, ir_attr_hash(t->u.sh.memspace));
    break;
  case TY_LLVM_ARRAY: case TY_COMPLEX: case TY_ASYNC_VALUE:
    h = ir_hash_mix(ir_hash_mix(h, (uintptr_t)t->u.arr.elem), t->u.arr.count);
    break;
  case TY_LLVM_PTR: h = ir_hash_mix(h, t->u.ptr.addrspace); break;
  case TY_LLVM_FUNC:
    h = ir_hash_mix(ir_hash_mix(h, (uintptr_t)t->u.lfn.ret), t->u.lfn.vararg);
    for (uint32_t i = 0; i < t->u.lfn.nparams; i++)
      h = ir_hash_mix(h, (uintptr_t)t->u.lfn.params[i]);
    break;
  case TY_OPAQUE: h = ir_hash_mix(ir_hash_mix(h, (uintptr_t)t->u.opq.dialect.s), (uintptr_t)t->u.opq.body.s); break;
  default: break;
  }
  return h;
}

static bool same_types(Type *const *a, Type *const *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static bool type_equal(const Type *a, const Type *b) {
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_INT: return a->u.i.width == b->u.i.width && a->u.i.sign == b->u.i.sign;
  case TY_FLOAT: return a->u.f == b->u.f;
  case TY_FUNC:
    return a->u.fn.nin == b->u.fn.nin && a->u.fn.nout == b->u.fn.nout &&
           same_types(a->u.fn.in, b->u.fn.in, a->u.fn.nin) &&
           same_types(a->u.fn.out, b->u.fn.out, a->u.fn.nout);
  case TY_TUPLE: case TY_LLVM_STRUCT:
    return a->u.agg.n == b->u.agg.n && a->u.agg.packed == b->u.agg.packed &&
           a->u.agg.opaque == b->u.agg.opaque && a->u.agg.named == b->u.agg.named &&
           a->u.agg.name.s == b->u.agg.name.s && same_types(a->u.agg.elems, b->u.agg.elems, a->u.agg.n);
  case TY_VECTOR: case TY_TENSOR: case TY_MEMREF: case TY_UNRANKED_MEMREF:
    if (a->u.sh.rank != b->u.sh.rank || a->u.sh.unranked != b->u.sh.unranked ||
        a->u.sh.elem != b->u.sh.elem)
      return false;
    for (uint32_t i = 0; i < a->u.sh.rank; i++) {
      if (a->u.sh.shape[i] != b->u.sh.shape[i])
        return false;
      bool sa = a->u.sh.scalable && a->u.sh.scalable[i], sb = b->u.sh.scalable && b->u.sh.scalable[i];
      if (sa != sb)
        return false;
    }
    return ir_attr_equal(a->u.sh.layout, b->u.sh.layout) &&
           ir_attr_equal(a->u.sh.memspace, b->u.sh.memspace);
  case TY_LLVM_ARRAY: case TY_COMPLEX: case TY_ASYNC_VALUE:
    return a->u.arr.elem == b->u.arr.elem && a->u.arr.count == b->u.arr.count;
  case TY_LLVM_PTR: return a->u.ptr.addrspace == b->u.ptr.addrspace;
  case TY_LLVM_FUNC:
    return a->u.lfn.ret == b->u.lfn.ret && a->u.lfn.vararg == b->u.lfn.vararg &&
           a->u.lfn.nparams == b->u.lfn.nparams &&
           same_types(a->u.lfn.params, b->u.lfn.params, a->u.lfn.nparams);
  case TY_OPAQUE: return a->u.opq.dialect.s == b->u.opq.dialect.s && a->u.opq.body.s == b->u.opq.body.s;
  default: return true;
  }
}

/* Interns a type whose arrays may live anywhere: the interned copy owns arena copies. */
Type *ir_type_intern(IrCtx *ctx, const Type *proto) {
  uint32_t h = type_hash(proto);
  if (ctx->ntype * 2 >= ctx->typecap) {
    uint32_t ncap = ctx->typecap ? ctx->typecap * 2 : 256;
    Type **tab = calloc(ncap, sizeof *tab);
    if (!tab)
      abort();
    for (uint32_t i = 0; i < ctx->typecap; i++) {
      Type *e = ctx->typetab[i];
      if (!e)
        continue;
      uint32_t j = e->hash & (ncap - 1);
      while (tab[j])
        j = (j + 1) & (ncap - 1);
      tab[j] = e;
    }
    free(ctx->typetab);
    ctx->typetab = tab;
    ctx->typecap = ncap;
  }
  uint32_t mask = ctx->typecap - 1;
  uint32_t j = h & mask;
  for (; ctx->typetab[j]; j = (j + 1) & mask)
    if (ctx->typetab[j]->hash == h && type_equal(ctx->typetab[j], proto))
      return ctx->typetab[j];
  Type *t = ir_dup(ctx, proto, sizeof *t);
  t->hash = h;
  switch (t->kind) {
  case TY_FUNC:
    t->u.fn.in = ir_dup(ctx, proto->u.fn.in, t->u.fn.nin * sizeof(Type *));
    t->u.fn.out = ir_dup(ctx, proto->u.fn.out, t->u.fn.nout * sizeof(Type *));
    break;
  case TY_TUPLE: case TY_LLVM_STRUCT:
    t->u.agg.elems = ir_dup(ctx, proto->u.agg.elems, t->u.agg.n * sizeof(Type *));
    break;
  case TY_VECTOR: case TY_TENSOR: case TY_MEMREF: case TY_UNRANKED_MEMREF:
    t->u.sh.shape = ir_dup(ctx, proto->u.sh.shape, t->u.sh.rank * sizeof(int64_t));
    if (proto->u.sh.scalable)
      t->u.sh.scalable = ir_dup(ctx, proto->u.sh.scalable, t->u.sh.rank * sizeof(bool));
    break;
  case TY_LLVM_FUNC:
    t->u.lfn.params = ir_dup(ctx, proto->u.lfn.params, t->u.lfn.nparams * sizeof(Type *));
    break;
  default: break;
  }
  ctx->typetab[j] = t;
  ctx->ntype++;
  return t;
}

Type *ir_type_int(IrCtx *ctx, uint32_t width, Signedness sign) {
  Type t = {.kind = TY_INT};
  t.u.i.width = width;
  t.u.i.sign = sign;
  return ir_type_intern(ctx, &t);
}

Type *ir_type_index(IrCtx *ctx) { return ir_type_simple(ctx, TY_INDEX); }

Type *ir_type_float(IrCtx *ctx, FloatKind fk) {
  Type t = {.kind = TY_FLOAT};
  t.u.f = fk;
  return ir_type_intern(ctx, &t);
}

Type *ir_type_simple(IrCtx *ctx, TypeKind kind) {
  Type t = {.kind = kind};
  return ir_type_intern(ctx, &t);
}

Type *ir_type_func(IrCtx *ctx, Type **in, uint32_t nin, Type **out, uint32_t nout) {
  Type t = {.kind = TY_FUNC};
  t.u.fn.in = in;
  t.u.fn.nin = nin;
  t.u.fn.out = out;
  t.u.fn.nout = nout;
  return ir_type_intern(ctx, &t);
}

Type *ir_type_llvm_ptr(IrCtx *ctx, uint32_t addrspace) {
  Type t = {.kind = TY_LLVM_PTR};
  t.u.ptr.addrspace = addrspace;
  return ir_type_intern(ctx, &t);
}

bool ir_type_is_integer(const Type *t, uint32_t width) {
  return t && t->kind == TY_INT && t->u.i.sign == SIGNLESS && (width == 0 || t->u.i.width == width);
}

bool ir_type_is_float(const Type *t) { return t && t->kind == TY_FLOAT; }

static const struct { const char *name; uint32_t width; } float_kinds[] = {
  [F_F16] = {"f16", 16}, [F_BF16] = {"bf16", 16}, [F_F32] = {"f32", 32}, [F_F64] = {"f64", 64},
  [F_F80] = {"f80", 80}, [F_F128] = {"f128", 128}, [F_TF32] = {"tf32", 19},
  [F_F8E5M2] = {"f8E5M2", 8}, [F_F8E4M3FN] = {"f8E4M3FN", 8}, [F_F8E5M2FNUZ] = {"f8E5M2FNUZ", 8},
  [F_F8E4M3FNUZ] = {"f8E4M3FNUZ", 8}, [F_F8E4M3B11FNUZ] = {"f8E4M3B11FNUZ", 8},
  [F_F8E4M3] = {"f8E4M3", 8}, [F_F8E3M4] = {"f8E3M4", 8}, [F_F8E8M0FNU] = {"f8E8M0FNU", 8},
  [F_F6E2M3FN] = {"f6E2M3FN", 6}, [F_F6E3M2FN] = {"f6E3M2FN", 6}, [F_F4E2M1FN] = {"f4E2M1FN", 4},
};

uint32_t ir_float_width(FloatKind fk) { return float_kinds[fk].width; }

/* Rounds v to the nearest value of a float type with `man` mantissa bits and exponent range
 * [emin, emax] (IEEE style, with subnormals; ties to even), saturating to infinity. */
static double round_to(double v, int man, int emin, int emax) {
  if (v == 0 || isnan(v) || isinf(v))
    return v;
  int e;
  frexp(v, &e); /* v = f * 2^e, 0.5 <= |f| < 1 */
  int exp = e - 1;
  if (exp < emin)
    exp = emin; /* subnormal: fixed quantum */
  double q = ldexp(1.0, exp - man);
  double r = nearbyint(v / q) * q; /* the default rounding mode is to nearest, ties to even */
  if (fabs(r) >= ldexp(2.0, emax))
    return v < 0 ? -INFINITY : INFINITY;
  return r;
}

double ir_float_round(FloatKind fk, double v) {
  switch (fk) {
  case F_F64: return v;
  case F_F32: return (float)v;
  case F_F16: return round_to(v, 10, -14, 15);
  case F_BF16: return round_to(v, 7, -126, 127);
  case F_TF32: return round_to(v, 10, -126, 127);
  default: return v;
  }
}
const char *ir_float_name(FloatKind fk) { return float_kinds[fk].name; }

/* ---- Types ---------------------------------------------------------------------------------- */

static bool parse_llvm_type_body(Parser *p, Str name, Type **out);

static bool kw_int_type(const char *s, uint32_t len, Signedness *sign, uint32_t *width) {
  uint32_t pre;
  if (len > 1 && s[0] == 'i')
    *sign = SIGNLESS, pre = 1;
  else if (len > 2 && s[0] == 's' && s[1] == 'i')
    *sign = SIGNED, pre = 2;
  else if (len > 2 && s[0] == 'u' && s[1] == 'i')
    *sign = UNSIGNED, pre = 2;
  else
    return false;
  uint64_t w = 0;
  for (uint32_t i = pre; i < len; i++) {
    if (!isdigit((unsigned char)s[i]))
      return false;
    w = w * 10 + (uint64_t)(s[i] - '0');
    if (w > (1u << 24))
      w = (1u << 24) + 1;
  }
  *width = (uint32_t)w;
  return true;
}

/* Reads `dim x dim x ...` from the raw text after a `<` (MLIR lexes shapes this way: `4x8xf32`
 * is one run of characters). Stops before the element type. */
static bool parse_dims(Parser *p, Vec *dims, bool allow_scalable, bool **scalable_out, uint32_t *rank,
                       bool *unranked) {
  const char *c = p->lx.cur;
  bool scal[64] = {0};
  uint32_t n = 0;
  bool any_scal = false;
  *unranked = false;
  while (*c == ' ' || *c == '\t' || *c == '\n')
    c++;
  if (*c == '*' && c[1] == 'x') {
    *unranked = true;
    c += 2;
  } else {
    for (;;) {
      const char *d = c;
      bool is_scal = false;
      if (allow_scalable && *d == '[') {
        is_scal = true;
        d++;
      }
      int64_t v;
      const char *e = d;
      if (*d == '?') {
        v = IR_DYNAMIC;
        e = d + 1;
      } else if (isdigit((unsigned char)*d)) {
        v = 0;
        while (isdigit((unsigned char)*e)) {
          v = v * 10 + (*e - '0');
          if (v > ((int64_t)1 << 50))
            return p_error_at(p, d, "dimension too large");
          e++;
        }
      } else {
        break;
      }
      if (is_scal) {
        if (*e != ']')
          break;
        e++;
      }
      if (*e != 'x')
        break; /* a number not followed by x: it is not a dimension */
      if (n == 64)
        return p_error_at(p, d, "too many dimensions");
      scal[n] = is_scal;
      any_scal |= is_scal;
      n++;
      ir_vec_push(dims, (void *)(intptr_t)v);
      c = e + 1;
    }
  }
  p->lx.cur = c;
  p_next(p);
  *rank = n;
  *scalable_out = NULL;
  if (any_scal) {
    *scalable_out = ir_dup(p->ctx, scal, n * sizeof(bool));
  }
  return true;
}

static bool parse_shaped(Parser *p, TypeKind kind, Type **out) {
  const char *kw_pos = p->tok.text;
  /* current token is the keyword; the raw text continues with `<` */
  if (!p_expect_raw_less(p))
    return false;
  Vec dims = {0};
  Type t = {.kind = kind};
  bool unranked;
  if (!parse_dims(p, &dims, kind == TY_VECTOR, &t.u.sh.scalable, &t.u.sh.rank, &unranked))
    goto fail;
  int64_t shape[64];
  for (uint32_t i = 0; i < t.u.sh.rank; i++)
    shape[i] = (int64_t)(intptr_t)dims.v[i];
  free(dims.v);
  dims.v = NULL;
  /* Every static size is at most 2^50 (parse_dims) and so is their product: element and byte
   * counts of a static shape then fit in int64_t wherever they are computed. */
  uint64_t count = 1;
  bool empty = false;
  for (uint32_t i = 0; i < t.u.sh.rank; i++)
    empty |= shape[i] == 0;
  for (uint32_t i = 0; i < t.u.sh.rank; i++) {
    if (kind == TY_VECTOR && shape[i] == 0)
      return p_error_at(p, kw_pos, "vector types must have positive constant sizes but got 0");
    if (!empty && shape[i] != IR_DYNAMIC &&
        (__builtin_mul_overflow(count, (uint64_t)shape[i], &count) || count > ((uint64_t)1 << 50)))
      return p_error_at(p, kw_pos, "shape has too many elements (more than 2^50)");
  }
  t.u.sh.shape = shape;
  if (unranked) {
    if (kind == TY_VECTOR)
      return p_error(p, "vector types must have a rank");
    if (kind == TY_MEMREF)
      t.kind = TY_UNRANKED_MEMREF;
    t.u.sh.unranked = true;
  }
  if (!p_type(p, &t.u.sh.elem))
    return false;
  if (kind == TY_MEMREF && !unranked) {
    if (p_opt(p, TOK_COMMA)) {
      Attr *a;
      if (!p_attr(p, NULL, &a))
        return false;
      if (a->kind == ATTR_STRIDED || a->kind == ATTR_AFFINE_MAP) {
        if (a->kind == ATTR_STRIDED && a->u.strided.n != t.u.sh.rank)
          return p_error_at(p, kw_pos, "expected the number of strides to match the rank");
        t.u.sh.layout = a;
        if (p_opt(p, TOK_COMMA) && !p_attr(p, NULL, &t.u.sh.memspace))
          return false;
      } else {
        t.u.sh.memspace = a;
      }
    }
  } else if ((kind == TY_MEMREF || kind == TY_TENSOR) && p_opt(p, TOK_COMMA)) {
    if (!p_attr(p, NULL, &t.u.sh.memspace))
      return false;
  }
  if (t.u.sh.memspace && t.u.sh.memspace->kind == ATTR_INT && t.u.sh.memspace->u.i.v == 0 &&
      t.u.sh.memspace->type && ir_type_is_integer(t.u.sh.memspace->type, 64))
    t.u.sh.memspace = NULL; /* memory space 0 is the default and is not printed */
  if (t.u.sh.layout && t.u.sh.layout->kind == ATTR_AFFINE_MAP) {
    /* the identity map is the default layout */
    char buf[256];
    int o = 0;
    o += snprintf(buf + o, sizeof buf - o, "affine_map<(");
    for (uint32_t i = 0; i < t.u.sh.rank && o < 200; i++)
      o += snprintf(buf + o, sizeof buf - o, "%sd%u", i ? ", " : "", i);
    o += snprintf(buf + o, sizeof buf - o, ") -> (");
    for (uint32_t i = 0; i < t.u.sh.rank && o < 230; i++)
      o += snprintf(buf + o, sizeof buf - o, "%sd%u", i ? ", " : "", i);
    snprintf(buf + o, sizeof buf - o, ")>");
    if (ir_str_eq(t.u.sh.layout->u.str, buf))
      t.u.sh.layout = NULL;
  }
  if (!p_expect(p, TOK_GREATER, "'>'"))
    return false;
  *out = ir_type_intern(p->ctx, &t);
  return true;
fail:
  free(dims.v);
  return false;
}

/* The `<` right after a keyword such as memref must be checked in raw text, because the dims
 * that follow are read raw too. */
bool p_expect_raw_less(Parser *p) {
  const char *c = p->lx.cur;
  while (*c == ' ' || *c == '\t' || *c == '\n')
    c++;
  if (*c != '<') {
    p_next(p);
    return p_error(p, "expected '<'");
  }
  p->lx.cur = c + 1;
  return true;
}

static bool parse_type_list_until(Parser *p, TokKind close, Vec *v) {
  if (p_opt(p, close))
    return true;
  do {
    Type *t;
    if (!p_type(p, &t))
      return false;
    ir_vec_push(v, t);
  } while (p_opt(p, TOK_COMMA));
  return p_expect(p, close, close == TOK_RPAREN ? "')'" : "'>'");
}

bool p_paren_type_list(Parser *p, Type ***out, uint32_t *n) {
  if (!p_expect(p, TOK_LPAREN, "'('"))
    return false;
  Vec v = {0};
  if (!parse_type_list_until(p, TOK_RPAREN, &v)) {
    free(v.v);
    return false;
  }
  *n = v.n;
  *out = (Type **)ir_vec_finish(p->ctx, &v);
  return true;
}

bool p_type_list(Parser *p, Type ***out, uint32_t *n) {
  Vec v = {0};
  do {
    Type *t;
    if (!p_type(p, &t)) {
      free(v.v);
      return false;
    }
    ir_vec_push(&v, t);
  } while (p_opt(p, TOK_COMMA));
  *n = v.n;
  *out = (Type **)ir_vec_finish(p->ctx, &v);
  return true;
}

bool p_result_types(Parser *p, Type ***out, uint32_t *n) {
  if (p_is(p, TOK_LPAREN)) {
    /* `(a, b)` is a result list, `(a) -> b` is a function type result */
    const char *save_cur = p->lx.cur;
    Token save_tok = p->tok;
    Type **ts;
    uint32_t nt;
    if (!p_paren_type_list(p, &ts, &nt))
      return false;
    if (!p_is(p, TOK_ARROW)) {
      *out = ts;
      *n = nt;
      return true;
    }
    p->lx.cur = save_cur;
    p->tok = save_tok;
  }
  Type *t;
  if (!p_type(p, &t))
    return false;
  *out = ir_dup(p->ctx, &t, sizeof t);
  *n = 1;
  return true;
}

static bool parse_func_type_rest(Parser *p, Type **in, uint32_t nin, Type **out) {
  if (!p_expect(p, TOK_ARROW, "'->'"))
    return false;
  Type **res;
  uint32_t nres;
  if (!p_result_types(p, &res, &nres))
    return false;
  *out = ir_type_func(p->ctx, in, nin, res, nres);
  return true;
}

static bool name_in_list(Str name, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (ir_str_eq(name, list[i]))
      return true;
  return false;
}

/* !dialect.name where the dialect is one MLIR has (gpu, async, nvgpu, llvm, and those without
 * types): a type it defines, or the error mlir-opt gives at the name. Other dialects' types are
 * kept as text, as their generic ops are. */
static bool known_dialect_type(Parser *p, Str dialect, Str name, const char *at) {
  static const char *const gpu[] = {"async.token", "mma_matrix", "sparse.dntensor_handle",
                                    "sparse.spmat_handle", "sparse.spgemmop_handle", NULL};
  static const char *const async[] = {"token", "value", "group", "coro.id", "coro.handle", "coro.state", NULL};
  static const char *const nvgpu[] = {"device.async.token", "mbarrier.group", "mbarrier.token",
                                      "warpgroup.accumulator", "warpgroup.descriptor", "tensormap.descriptor", NULL};
  static const char *const llvm[] = {"ptr", "void", "token", "array", "struct", "func", "label", "metadata",
                                     "x86_amx", "target", "vec", "ppc_fp128", NULL};
  static const char *const typeless[] = {"arith", "func", "scf", "cf", "math", "index", "memref", "vector",
                                         "nvvm", "rocdl", "affine", "linalg", "tensor", "complex",
                                         "bufferization", "builtin", NULL};
  if (name.len && name.s[0] == '.') /* `!gpu..x`: the lexer reads `..` as the start of `...` */
    return p_error_at(p, at + 1, "expected three consecutive dots for an ellipsis");
  if (ir_str_eq(dialect, "gpu") && !name_in_list(name, gpu))
    return p_error_at(p, at, "unknown gpu type: %.*s", (int)name.len, name.s);
  if ((ir_str_eq(dialect, "async") && !name_in_list(name, async)) || (ir_str_eq(dialect, "nvgpu") && !name_in_list(name, nvgpu)))
    return p_error_at(p, at, "unknown  type `%.*s` in dialect `%.*s`", (int)name.len, name.s, (int)dialect.len,
                      dialect.s);
  if (ir_str_eq(dialect, "llvm") && !name_in_list(name, llvm))
    return p_error_at(p, at, "unknown LLVM type: %.*s", (int)name.len, name.s);
  for (int i = 0; typeless[i]; i++)
    if (ir_str_eq(dialect, typeless[i]))
      return p_error_at(p, at, "dialect '%s' provides no type parsing hook", typeless[i]);
  return true;
}

static bool parse_dialect_type(Parser *p, Type **out) {
  /* p->tok is TOK_BANG with text dialect.name or an alias */
  const char *s = p->tok.text;
  uint32_t len = p->tok.len;
  const char *dot = memchr(s, '.', len);
  if (!dot) {
    Type *t = ir_alias_find(p->type_alias, p->ntype_alias, s, len);
    if (t) {
      p_next(p);
      *out = t;
      return true;
    }
    if (!(*p->lx.cur == '<')) {
      p_next(p);
      return p_error(p, "undefined symbol alias id '%.*s'", (int)len, s);
    }
  }
  Str dialect = ir_intern(p->ctx, s, dot ? (uint32_t)(dot - s) : len);
  Str name = ir_intern(p->ctx, dot ? dot + 1 : s + len, dot ? (uint32_t)(s + len - dot - 1) : 0);
  if (dot && !known_dialect_type(p, dialect, name, dot + 1))
    return false;
  if (ir_str_eq(dialect, "llvm")) {
    p_next(p);
    return parse_llvm_type_body(p, name, out);
  }
  Type t = {.kind = TY_OPAQUE};
  t.u.opq.dialect = dialect;
  if (ir_str_eq(dialect, "gpu") && ir_str_eq(name, "async.token") && *p->lx.cur != '<') {
    p_next(p);
    *out = ir_type_simple(p->ctx, TY_GPU_TOKEN);
    return true;
  }
  if (ir_str_eq(dialect, "async") && *p->lx.cur != '<') {
    TypeKind k = ir_str_eq(name, "token") ? TY_ASYNC_TOKEN : ir_str_eq(name, "group") ? TY_ASYNC_GROUP : TY_NONE;
    if (k != TY_NONE) {
      p_next(p);
      *out = ir_type_simple(p->ctx, k);
      return true;
    }
  }
  if (ir_str_eq(dialect, "async") && ir_str_eq(name, "value") && *p->lx.cur == '<') {
    p->lx.cur++;
    p_next(p);
    Type v = {.kind = TY_ASYNC_VALUE};
    if (!p_type(p, &v.u.arr.elem) || !p_expect(p, TOK_GREATER, "'>'"))
      return false;
    *out = ir_type_intern(p->ctx, &v);
    return true;
  }
  /* anything else: the name plus the raw balanced body, normalized */
  const char *body = NULL;
  uint32_t blen = 0;
  p->lx.cur = s + len;
  if (*p->lx.cur == '<' && !p_balanced(p, &body, &blen, "unbalanced '<' in dialect type"))
    return false;
  size_t total = len + blen;
  char *buf = malloc(total + 1);
  if (!buf)
    abort();
  memcpy(buf, s, len);
  if (blen)
    memcpy(buf + len, body, blen);
  if (!p_dialect_registered(dialect) &&
      !p_unregistered(p, dot ? dot + 1 : s - 1, '!', (Str){buf, (uint32_t)total}, NULL)) {
    free(buf);
    return false;
  }
  t.u.opq.body = ir_normalize_body(p->ctx, buf, (uint32_t)total);
  t.u.opq.dialect = dialect;
  free(buf);
  p_next(p);
  *out = ir_type_intern(p->ctx, &t);
  return true;
}

static bool parse_type(Parser *p, Type **out);

bool p_type(Parser *p, Type **out) {
  if (!p_nest_enter(p, "types"))
    return false;
  bool ok = parse_type(p, out);
  p_nest_leave(p);
  return ok;
}

static bool parse_type(Parser *p, Type **out) {
  Token *t = &p->tok;
  if (t->kind == TOK_BANG)
    return parse_dialect_type(p, out);
  if (t->kind == TOK_LPAREN) {
    Type **in;
    uint32_t nin;
    if (!p_paren_type_list(p, &in, &nin))
      return false;
    return parse_func_type_rest(p, in, nin, out);
  }
  if (t->kind != TOK_BARE)
    return p_error(p, "expected non-function type");
  const char *s = t->text;
  uint32_t len = t->len;
  Signedness sign;
  uint32_t width;
  if (kw_int_type(s, len, &sign, &width)) {
    if (width > (1u << 24) - 1)
      return p_error(p, "integer bitwidth is limited to 16777215 bits");
    if (width == 0)
      return p_error(p, "invalid integer width");
    p_next(p);
    *out = ir_type_int(p->ctx, width, sign);
    return true;
  }
  for (uint32_t k = 0; k < sizeof float_kinds / sizeof float_kinds[0]; k++) {
    if (strlen(float_kinds[k].name) == len && memcmp(float_kinds[k].name, s, len) == 0) {
      p_next(p);
      *out = ir_type_float(p->ctx, (FloatKind)k);
      return true;
    }
  }
  Str kw = {s, len};
  if (ir_str_eq(kw, "index")) {
    p_next(p);
    *out = ir_type_index(p->ctx);
    return true;
  }
  if (ir_str_eq(kw, "none")) {
    p_next(p);
    *out = ir_type_simple(p->ctx, TY_NONE);
    return true;
  }
  if (ir_str_eq(kw, "memref"))
    return parse_shaped(p, TY_MEMREF, out);
  if (ir_str_eq(kw, "tensor"))
    return parse_shaped(p, TY_TENSOR, out);
  if (ir_str_eq(kw, "vector"))
    return parse_shaped(p, TY_VECTOR, out);
  if (ir_str_eq(kw, "tuple") || ir_str_eq(kw, "complex")) {
    bool tuple = kw.s[0] == 't';
    p_next(p);
    if (!p_expect(p, TOK_LESS, "'<'"))
      return false;
    Vec v = {0};
    if (!parse_type_list_until(p, TOK_GREATER, &v)) {
      free(v.v);
      return false;
    }
    Type ty = {.kind = tuple ? TY_TUPLE : TY_COMPLEX};
    if (tuple) {
      ty.u.agg.elems = (Type **)v.v;
      ty.u.agg.n = v.n;
    } else {
      if (v.n != 1) {
        free(v.v);
        return p_error(p, "complex type takes one element type");
      }
      ty.u.arr.elem = v.v[0];
    }
    *out = ir_type_intern(p->ctx, &ty);
    free(v.v);
    return true;
  }
  return p_error(p, "expected non-function type");
}

/* LLVM dialect types. Inside an llvm type body the nested llvm types drop their `!llvm.` prefix:
 *   !llvm.ptr | !llvm.ptr<3> | !llvm.void | !llvm.token | !llvm.array<4 x i32>
 *   !llvm.struct<(i32, ptr)> | !llvm.struct<packed (...)> | !llvm.struct<"name", (...)>
 *   !llvm.struct<"name", opaque> | !llvm.func<i32 (ptr, ...)> */
static bool parse_llvm_nested(Parser *p, Type **out) {
  if (p_is(p, TOK_BARE)) {
    static const char *const names[] = {"ptr", "void", "token", "array", "struct", "func", "label",
                                        "metadata", "x86_amx", "target", NULL};
    for (int i = 0; names[i]; i++) {
      if (p_is_kw(p, names[i])) {
        Str n = ir_intern_cstr(p->ctx, names[i]);
        if (!p_nest_enter(p, "types"))
          return false;
        p_next(p);
        bool ok = parse_llvm_type_body(p, n, out);
        p_nest_leave(p);
        return ok;
      }
    }
  }
  return p_type(p, out);
}

static bool parse_llvm_type_body(Parser *p, Str name, Type **out) {
  IrCtx *ctx = p->ctx;
  if (ir_str_eq(name, "ptr")) {
    uint32_t as = 0;
    if (p_opt(p, TOK_LESS)) {
      int64_t v;
      const char *vpos = p->tok.text;
      if (!p_int(p, &v))
        return false;
      if (v > (int64_t)UINT32_MAX || v < INT32_MIN)
        return p_error_at(p, vpos, "integer value too large");
      if (!p_expect(p, TOK_GREATER, "'>'"))
        return false;
      as = (uint32_t)v;
    }
    *out = ir_type_llvm_ptr(ctx, as);
    return true;
  }
  if (ir_str_eq(name, "void") || ir_str_eq(name, "token")) {
    *out = ir_type_simple(ctx, name.s[0] == 'v' ? TY_LLVM_VOID : TY_LLVM_TOKEN);
    return true;
  }
  if (ir_str_eq(name, "array")) {
    /* array<4 x i32>: `4` then a bare `x` */
    Type t = {.kind = TY_LLVM_ARRAY};
    int64_t n;
    if (!p_expect(p, TOK_LESS, "'<'"))
      return false;
    const char *npos = p->tok.text;
    if (!p_int(p, &n)) {
      if (p_is(p, TOK_INT)) { /* too large: mlir-opt names the parameter too, after the number */
        p_next(p);
        ir_diag(ctx, DIAG_ERROR, p_loc_here(p),
                "failed to parse LLVMArrayType parameter 'numElements' which is to be a `uint64_t`");
      }
      return false;
    }
    if (n < 0 || n > ((int64_t)1 << 50))
      return p_error_at(p, npos, "array has too many elements (more than 2^50)");
    if (!p_kw(p, "x") || !parse_llvm_nested(p, &t.u.arr.elem) || !p_expect(p, TOK_GREATER, "'>'"))
      return false;
    t.u.arr.count = (uint64_t)n;
    *out = ir_type_intern(ctx, &t);
    return true;
  }
  if (ir_str_eq(name, "struct")) {
    Type t = {.kind = TY_LLVM_STRUCT};
    if (!p_expect(p, TOK_LESS, "'<'"))
      return false;
    if (p_is(p, TOK_STRING)) {
      if (!p_string(p, &t.u.agg.name))
        return false;
      t.u.agg.named = true;
      if (!p_expect(p, TOK_COMMA, "','"))
        return false;
      if (p_opt_kw(p, "opaque")) {
        t.u.agg.opaque = true;
        if (!p_expect(p, TOK_GREATER, "'>'"))
          return false;
        *out = ir_type_intern(ctx, &t);
        return true;
      }
    }
    if (p_opt_kw(p, "packed"))
      t.u.agg.packed = true;
    if (!p_expect(p, TOK_LPAREN, "'('"))
      return false;
    Vec v = {0};
    if (!p_opt(p, TOK_RPAREN)) {
      do {
        Type *e;
        if (!parse_llvm_nested(p, &e)) {
          free(v.v);
          return false;
        }
        ir_vec_push(&v, e);
      } while (p_opt(p, TOK_COMMA));
      if (!p_expect(p, TOK_RPAREN, "')'")) {
        free(v.v);
        return false;
      }
    }
    t.u.agg.elems = (Type **)v.v;
    t.u.agg.n = v.n;
    bool ok = p_expect(p, TOK_GREATER, "'>'");
    if (ok)
      *out = ir_type_intern(ctx, &t);
    free(v.v);
    return ok;
  }
  if (ir_str_eq(name, "func")) {
    Type t = {.kind = TY_LLVM_FUNC};
    if (!p_expect(p, TOK_LESS, "'<'") || !parse_llvm_nested(p, &t.u.lfn.ret) ||
        !p_expect(p, TOK_LPAREN, "'('"))
      return false;
    Vec v = {0};
    if (!p_opt(p, TOK_RPAREN)) {
      do {
        if (p_opt(p, TOK_ELLIPSIS)) {
          t.u.lfn.vararg = true;
          break;
        }
        Type *e;
        if (!parse_llvm_nested(p, &e)) {
          free(v.v);
          return false;
        }
        ir_vec_push(&v, e);
      } while (p_opt(p, TOK_COMMA));
      if (!p_expect(p, TOK_RPAREN, "')'")) {
        free(v.v);
        return false;
      }
    }
    t.u.lfn.params = (Type **)v.v;
    t.u.lfn.nparams = v.n;
    bool ok = p_expect(p, TOK_GREATER, "'>'");
    if (ok)
      *out = ir_type_intern(ctx, &t);
    free(v.v);
    return ok;
  }
  /* other llvm types (label, metadata, target<...>, x86_amx): keep as text */
  Type t = {.kind = TY_OPAQUE};
  t.u.opq.dialect = ir_intern_cstr(ctx, "llvm");
  const char *body = NULL;
  uint32_t blen = 0;
  const char *save = p->lx.cur;
  p->lx.cur = p->tok.text;
  if (p_is(p, TOK_LESS) && !p_balanced(p, &body, &blen, "unbalanced '<' in llvm type"))
    return false;
  if (!blen)
    p->lx.cur = save;
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "%.*s%.*s", (int)name.len, name.s, (int)blen, body ? body : "");
  t.u.opq.body = ir_normalize_body(ctx, buf, n < (int)sizeof buf ? (uint32_t)n : sizeof buf - 1);
  if (blen)
    p_next(p);
  *out = ir_type_intern(ctx, &t);
  return true;
}
