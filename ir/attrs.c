/* attrs.c - the attribute constructors, and the parsing of attributes into canonical form.
 *
 *   attr ::= int (: T)? | float (: T)? | true | false | "str" (: T)? | unit | [attr, ...]
 *          | {name = attr, ...} | array<T: v, ...> | dense<...> : T | sparse<...> : T
 *          | @sym(::@sym)* | affine_map<...> | affine_set<...> | strided<[...], offset: n>
 *          | type | loc(...) | #alias | #dialect.name<body>
 *
 * Canonical means that two spellings MLIR takes as the same attribute read into the same value,
 * so they print the same: floats are rounded to their type, dense and sparse elements are read
 * into values (a splat when all are equal), affine maps are rebuilt as MLIR builds them (affine.c),
 * flag sets are put in MLIR's order. Other dialect attributes keep their normalized text.
 */
#include "ir/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static bool parse_distinct(Parser *p, Attr **out);
static bool parse_dense(Parser *p, Type *expected, Attr **out);

/* ---- Attribute constructors ----------------------------------------------------------------- */

static Attr *new_attr(IrCtx *ctx, AttrKind k) {
  Attr *a = ir_alloc(ctx, sizeof *a);
  a->kind = k;
  return a;
}

Attr *ir_attr_int(IrCtx *ctx, Type *type, int64_t v) {
  Attr *a = new_attr(ctx, ATTR_INT);
  a->type = type;
  a->u.i.v = v;
  return a;
}

Attr *ir_attr_bool(IrCtx *ctx, bool v) {
  Attr *a = new_attr(ctx, ATTR_BOOL);
  a->u.b = v;
  a->type = ir_type_int(ctx, 1, SIGNLESS);
  return a;
}

Attr *ir_attr_unit(IrCtx *ctx) { return new_attr(ctx, ATTR_UNIT); }

Attr *ir_attr_string(IrCtx *ctx, const char *s, size_t len) {
  Attr *a = new_attr(ctx, ATTR_STRING);
  a->u.str = ir_intern(ctx, s, len);
  return a;
}

Attr *ir_attr_type(IrCtx *ctx, Type *t) {
  Attr *a = new_attr(ctx, ATTR_TYPE);
  a->type = t;
  return a;
}

Attr *ir_attr_symref(IrCtx *ctx, Str *path, uint32_t n) {
  Attr *a = new_attr(ctx, ATTR_SYMREF);
  a->u.sym.path = ir_dup(ctx, path, n * sizeof *path);
  a->u.sym.n = n;
  return a;
}

Attr *ir_attr_array(IrCtx *ctx, Attr **elems, uint32_t n) {
  Attr *a = new_attr(ctx, ATTR_ARRAY);
  a->u.arr.elems = ir_dup(ctx, elems, n * sizeof *elems);
  a->u.arr.n = n;
  return a;
}

static int cmp_str(Str a, Str b) {
  int c = memcmp(a.s, b.s, a.len < b.len ? a.len : b.len);
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

Attr *ir_attr_dict(IrCtx *ctx, NamedAttr *entries, uint32_t n) {
  NamedAttr *e = ir_dup(ctx, entries, n * sizeof *entries);
  /* insertion sort: dictionaries are small; keep the last of equal names */
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    NamedAttr x = e[i];
    uint32_t j = m;
    while (j > 0 && cmp_str(e[j - 1].name, x.name) > 0)
      j--;
    if (j > 0 && cmp_str(e[j - 1].name, x.name) == 0) {
      e[j - 1] = x;
      continue;
    }
    memmove(&e[j + 1], &e[j], (m - j) * sizeof *e);
    e[j] = x;
    m++;
  }
  Attr *a = new_attr(ctx, ATTR_DICT);
  a->u.dict.entries = e;
  a->u.dict.n = m;
  return a;
}

Attr *ir_attr_dense_i32(IrCtx *ctx, const int64_t *vals, uint32_t n) {
  Attr *a = new_attr(ctx, ATTR_DENSE_ARRAY);
  a->type = ir_type_int(ctx, 32, SIGNLESS);
  a->u.darr.ivals = ir_dup(ctx, vals, n * sizeof *vals);
  a->u.darr.n = n;
  return a;
}

Attr *ir_attr_dense_i64(IrCtx *ctx, const int64_t *vals, uint32_t n) {
  Attr *a = new_attr(ctx, ATTR_DENSE_ARRAY);
  a->type = ir_type_int(ctx, 64, SIGNLESS);
  a->u.darr.ivals = ir_alloc(ctx, n * sizeof *vals + 1); /* never empty, never read past vals */
  if (n)
    memcpy(a->u.darr.ivals, vals, n * sizeof *vals);
  a->u.darr.n = n;
  return a;
}

bool ir_attr_is_dense_i64(const Attr *a) {
  return a && a->kind == ATTR_DENSE_ARRAY && ir_type_is_integer(a->type, 64) && !a->u.darr.fvals;
}

Attr *ir_dict_get(const Attr *dict, const char *name) {
  if (!dict || dict->kind != ATTR_DICT)
    return NULL;
  for (uint32_t i = 0; i < dict->u.dict.n; i++)
    if (ir_str_eq(dict->u.dict.entries[i].name, name))
      return dict->u.dict.entries[i].value;
  return NULL;
}

Attr *ir_dict_set(IrCtx *ctx, Attr *dict, Str name, Attr *value) {
  uint32_t n = dict ? dict->u.dict.n : 0;
  NamedAttr *e = ir_alloc(ctx, (n + 1) * sizeof *e);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (cmp_str(dict->u.dict.entries[i].name, name) != 0)
      e[m++] = dict->u.dict.entries[i];
  if (value)
    e[m++] = (NamedAttr){name, value};
  return ir_attr_dict(ctx, e, m);
}

static bool loc_equal(const Loc *a, const Loc *b);

bool ir_attr_equal(const Attr *a, const Attr *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || a->type != b->type)
    return false;
  switch (a->kind) {
  case ATTR_INT:
    if (a->u.i.big || b->u.i.big)
      return a->u.i.big && b->u.i.big && strcmp(a->u.i.big, b->u.i.big) == 0;
    return a->u.i.v == b->u.i.v;
  case ATTR_FLOAT:
    if (a->u.f.has_bits || b->u.f.has_bits)
      return a->u.f.has_bits == b->u.f.has_bits && a->u.f.bits == b->u.f.bits;
    return memcmp(&a->u.f.v, &b->u.f.v, sizeof(double)) == 0;
  case ATTR_BOOL: return a->u.b == b->u.b;
  case ATTR_UNIT: return true;
  case ATTR_STRING: case ATTR_DENSE: case ATTR_AFFINE_MAP: case ATTR_INTEGER_SET:
  case ATTR_OPAQUE: case ATTR_DENSE_RESOURCE: case ATTR_SPARSE:
    return a->u.str.s == b->u.str.s;
  case ATTR_ARRAY:
    if (a->u.arr.n != b->u.arr.n)
      return false;
    for (uint32_t i = 0; i < a->u.arr.n; i++)
      if (!ir_attr_equal(a->u.arr.elems[i], b->u.arr.elems[i]))
        return false;
    return true;
  case ATTR_DICT:
    if (a->u.dict.n != b->u.dict.n)
      return false;
    for (uint32_t i = 0; i < a->u.dict.n; i++)
      if (a->u.dict.entries[i].name.s != b->u.dict.entries[i].name.s ||
          !ir_attr_equal(a->u.dict.entries[i].value, b->u.dict.entries[i].value))
        return false;
    return true;
  case ATTR_DENSE_ARRAY:
    if (a->u.darr.n != b->u.darr.n)
      return false;
    for (uint32_t i = 0; i < a->u.darr.n; i++) {
      if (a->u.darr.ivals && a->u.darr.ivals[i] != b->u.darr.ivals[i])
        return false;
      if (a->u.darr.fvals && memcmp(&a->u.darr.fvals[i], &b->u.darr.fvals[i], sizeof(double)))
        return false;
    }
    return true;
  case ATTR_TYPE: return true;
  case ATTR_SYMREF:
    if (a->u.sym.n != b->u.sym.n)
      return false;
    for (uint32_t i = 0; i < a->u.sym.n; i++)
      if (a->u.sym.path[i].s != b->u.sym.path[i].s)
        return false;
    return true;
  case ATTR_STRIDED:
    if (a->u.strided.n != b->u.strided.n || a->u.strided.offset != b->u.strided.offset ||
        a->u.strided.has_offset != b->u.strided.has_offset)
      return false;
    return memcmp(a->u.strided.strides, b->u.strided.strides, a->u.strided.n * sizeof(int64_t)) == 0;
  case ATTR_LOC: return loc_equal(a->u.loc, b->u.loc);
  }
  return false;
}

uint32_t ir_attr_hash(const Attr *a) {
  if (!a)
    return 0;
  uint32_t h = ir_hash_mix(31, a->kind);
  h = ir_hash_mix(h, (uintptr_t)a->type);
  switch (a->kind) {
  case ATTR_INT: return ir_hash_mix(h, (uint64_t)a->u.i.v);
  case ATTR_STRING: case ATTR_OPAQUE: case ATTR_AFFINE_MAP: return ir_hash_mix(h, (uintptr_t)a->u.str.s);
  case ATTR_STRIDED:
    for (uint32_t i = 0; i < a->u.strided.n; i++)
      h = ir_hash_mix(h, (uint64_t)a->u.strided.strides[i]);
    return ir_hash_mix(h, (uint64_t)a->u.strided.offset);
  default: return h;
  }
}

static bool loc_equal(const Loc *a, const Loc *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind || a->n != b->n)
    return false;
  if (a->file.s != b->file.s || a->line != b->line || a->col != b->col ||
      a->end_line != b->end_line || a->end_col != b->end_col || !ir_attr_equal(a->metadata, b->metadata))
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!loc_equal(a->kids[i], b->kids[i]))
      return false;
  return true;
}

Loc *ir_loc_file(IrCtx *ctx, Str file, uint32_t line, uint32_t col) {
  Loc *l = ir_alloc(ctx, sizeof *l);
  l->kind = LOC_FILE;
  l->file = file;
  l->line = line;
  l->col = col;
  return l;
}

const Loc *ir_loc_file_of(const Loc *loc) {
  if (!loc)
    return NULL;
  if (loc->kind == LOC_FILE)
    return loc;
  for (uint32_t i = 0; i < loc->n; i++) {
    /* a callsite's callee comes first; that is where the op is */
    const Loc *f = ir_loc_file_of(loc->kids[i]);
    if (f)
      return f;
  }
  return NULL;
}

/* ---- Numbers -------------------------------------------------------------------------------- */

bool p_int(Parser *p, int64_t *out) {
  bool neg = p_opt(p, TOK_MINUS);
  if (!p_is(p, TOK_INT))
    return p_error(p, "expected integer value");
  errno = 0;
  char buf[80];
  uint32_t n = p->tok.len < sizeof buf - 1 ? p->tok.len : sizeof buf - 1;
  memcpy(buf, p->tok.text, n);
  buf[n] = 0;
  unsigned long long v = strtoull(buf, NULL, 0);
  if (errno)
    return p_error(p, "integer value too large");
  /* negate in unsigned arithmetic: -9223372036854775808 has no positive int64_t */
  *out = (int64_t)(neg ? 0 - (uint64_t)v : (uint64_t)v);
  p_next(p);
  return true;
}

bool p_string(Parser *p, Str *out) {
  if (!p_is(p, TOK_STRING))
    return p_error(p, "expected string");
  /* unescape */
  const char *s = p->tok.text + 1;
  uint32_t len = p->tok.len - 2;
  char small[256];
  char *buf = len < sizeof small ? small : malloc(len + 1);
  uint32_t o = 0;
  for (uint32_t i = 0; i < len; i++) {
    if (s[i] != '\\') {
      buf[o++] = s[i];
      continue;
    }
    char c = s[++i];
    if (c == 'n')
      buf[o++] = '\n';
    else if (c == 't')
      buf[o++] = '\t';
    else if (c == '"' || c == '\\')
      buf[o++] = c;
    else {
      char hex[3] = {s[i], s[i + 1], 0};
      buf[o++] = (char)strtol(hex, NULL, 16);
      i++;
    }
  }
  *out = ir_intern(p->ctx, buf, o);
  if (buf != small)
    free(buf);
  p_next(p);
  return true;
}

/* ---- Attributes ----------------------------------------------------------------------------- */

static bool parse_float_literal(Parser *p, bool neg, Type *type, Attr **out) {
  Attr *a = new_attr(p->ctx, ATTR_FLOAT);
  char buf[128];
  uint32_t n = p->tok.len < sizeof buf - 1 ? p->tok.len : sizeof buf - 1;
  memcpy(buf, p->tok.text, n);
  buf[n] = 0;
  a->u.f.v = strtod(buf, NULL);
  if (neg)
    a->u.f.v = -a->u.f.v;
  a->type = type;
  p_next(p);
  *out = a;
  return true;
}

/* Converts a hex bit pattern to the double it stands for, when the type is f16/bf16/f32/f64. */
static double bits_to_double(FloatKind fk, uint64_t bits, bool *ok) {
  *ok = true;
  if (fk == F_F64) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
  }
  if (fk == F_F32) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  if (fk == F_BF16) {
    uint32_t b = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  if (fk == F_F16) {
    uint32_t sign = (bits >> 15) & 1, exp = (bits >> 10) & 31, man = bits & 1023;
    double v;
    if (exp == 0)
      v = ldexp((double)man, -24);
    else if (exp == 31)
      v = man ? NAN : INFINITY;
    else
      v = ldexp((double)(man | 1024), (int)exp - 25);
    return sign ? -v : v;
  }
  *ok = false;
  return 0;
}

static bool parse_number_attr(Parser *p, Type *expected, Attr **out) {
  bool neg = p_opt(p, TOK_MINUS);
  if (p_is(p, TOK_FLOAT)) {
    Attr *a;
    if (!parse_float_literal(p, neg, NULL, &a))
      return false;
    Type *t = expected;
    if (!t && p_opt(p, TOK_COLON) && !p_type(p, &t))
      return false;
    if (!t)
      t = ir_type_float(p->ctx, F_F64);
    if (!ir_type_is_float(t))
      return p_error(p, "floating point value not valid for specified type");
    a->type = t;
    a->u.f.v = ir_float_round(t->u.f, a->u.f.v);
    *out = a;
    return true;
  }
  if (!p_is(p, TOK_INT))
    return p_error(p, "expected integer or float literal");
  Token tok = p->tok;
  p_next(p);
  Type *t = expected;
  if (!t && p_opt(p, TOK_COLON) && !p_type(p, &t))
    return false;
  if (!t)
    t = ir_type_int(p->ctx, 64, SIGNLESS);
  char buf[160];
  uint32_t n = tok.len < sizeof buf - 1 ? tok.len : sizeof buf - 1;
  memcpy(buf, tok.text, n);
  buf[n] = 0;
  bool hex = n > 2 && buf[1] == 'x';
  if (t->kind == TY_FLOAT) {
    if (!hex)
      return p_error_at(p, tok.text, "unexpected decimal integer literal for a floating point value");
    Attr *a = new_attr(p->ctx, ATTR_FLOAT);
    a->type = t;
    errno = 0;
    a->u.f.bits = strtoull(buf, NULL, 16);
    uint32_t fw = ir_float_width(t->u.f);
    if (fw <= 64 && (errno || (fw < 64 && a->u.f.bits >> fw)))
      return p_error_at(p, tok.text, "hexadecimal float constant out of range for type");
    a->u.f.has_bits = true;
    bool ok;
    a->u.f.v = bits_to_double(t->u.f, a->u.f.bits, &ok);
    if (ok && !isnan(a->u.f.v) && !isinf(a->u.f.v))
      a->u.f.has_bits = false; /* an ordinary value: print it as a decimal */
    *out = a;
    return true;
  }
  if (t->kind != TY_INT && t->kind != TY_INDEX)
    return p_error_at(p, tok.text, "integer literal not valid for specified type");
  Attr *a = new_attr(p->ctx, ATTR_INT);
  a->type = t;
  uint32_t width = t->kind == TY_INDEX ? 64 : t->u.i.width;
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, 0);
  if (errno || n > 20) {
    if (width <= 64)
      return p_error_at(p, tok.text, "integer constant out of range for attribute");
    char *big = ir_alloc(p->ctx, n + 2);
    snprintf(big, n + 2, "%s%s", neg ? "-" : "", buf);
    a->u.i.big = big;
  } else {
    int64_t sv = (int64_t)(neg ? 0 - v : v); /* v may be 2^63: negate unsigned */
    if (width < 64) {
      /* accept the signed or unsigned range of the width, store sign-extended */
      uint64_t mask = (1ULL << width) - 1;
      bool fits = neg ? (v <= (1ULL << (width - 1))) : (v <= mask);
      if (!fits)
        return p_error_at(p, tok.text, "integer constant out of range for attribute");
      if (width == 1) { /* i1 values read and print as true/false */
        *out = ir_attr_bool(p->ctx, (v & 1) != 0);
        return true;
      }
      uint64_t u = (uint64_t)sv & mask;
      if (t->u.i.sign != UNSIGNED && (u >> (width - 1)) & 1)
        u |= ~mask;
      sv = (int64_t)u;
    } else if (width == 64 && neg && v > (1ULL << 63)) {
      return p_error_at(p, tok.text, "integer constant out of range for attribute");
    }
    a->u.i.v = sv;
  }
  *out = a;
  return true;
}

static bool parse_dense_array(Parser *p, Attr **out) {
  /* array<i32: 1, 2> | array<f32: 1.0> | array<i1: true> ; the `array` keyword is consumed */
  if (!p_expect(p, TOK_LESS, "'<'"))
    return false;
  Attr *a = new_attr(p->ctx, ATTR_DENSE_ARRAY);
  if (!p_type(p, &a->type))
    return false;
  bool fl = ir_type_is_float(a->type);
  if (!fl && a->type->kind != TY_INT)
    return p_error(p, "expected integer or float type");
  Vec v = {0};
  if (p_opt(p, TOK_COLON)) {
    do {
      Attr *e;
      if (p_is_kw(p, "true") || p_is_kw(p, "false")) {
        e = ir_attr_bool(p->ctx, p_is_kw(p, "true"));
        p_next(p);
      } else if (!parse_number_attr(p, a->type, &e)) {
        free(v.v);
        return false;
      }
      ir_vec_push(&v, e);
    } while (p_opt(p, TOK_COMMA));
  }
  if (!p_expect(p, TOK_GREATER, "'>'")) {
    free(v.v);
    return false;
  }
  a->u.darr.n = v.n;
  if (fl)
    a->u.darr.fvals = ir_alloc(p->ctx, v.n * sizeof(double) + 1);
  else
    a->u.darr.ivals = ir_alloc(p->ctx, v.n * sizeof(int64_t) + 1);
  for (uint32_t i = 0; i < v.n; i++) {
    Attr *e = v.v[i];
    if (fl)
      a->u.darr.fvals[i] = e->u.f.v;
    else
      a->u.darr.ivals[i] = e->kind == ATTR_BOOL ? e->u.b : e->u.i.v;
  }
  free(v.v);
  *out = a;
  return true;
}

static bool parse_strided(Parser *p, Attr **out) {
  /* strided<[1, ?], offset: ?> ; `strided` consumed */
  Attr *a = new_attr(p->ctx, ATTR_STRIDED);
  if (!p_expect(p, TOK_LESS, "'<'") || !p_expect(p, TOK_LSQUARE, "'['"))
    return false;
  int64_t st[64];
  uint32_t n = 0;
  if (!p_opt(p, TOK_RSQUARE)) {
    do {
      if (n == 64)
        return p_error(p, "too many strides");
      if (p_opt(p, TOK_QUESTION))
        st[n++] = IR_DYNAMIC;
      else if (!p_int(p, &st[n++]))
        return false;
    } while (p_opt(p, TOK_COMMA));
    if (!p_expect(p, TOK_RSQUARE, "']'"))
      return false;
  }
  if (p_opt(p, TOK_COMMA)) {
    if (!p_kw(p, "offset") || !p_expect(p, TOK_COLON, "':'"))
      return false;
    if (p_opt(p, TOK_QUESTION))
      a->u.strided.offset = IR_DYNAMIC;
    else if (!p_int(p, &a->u.strided.offset))
      return false;
    a->u.strided.has_offset = a->u.strided.offset != 0;
  }
  if (!p_expect(p, TOK_GREATER, "'>'"))
    return false;
  a->u.strided.strides = ir_dup(p->ctx, st, n * sizeof(int64_t));
  a->u.strided.n = n;
  *out = a;
  return true;
}

/* Keyword-introduced attributes whose body is kept as text: the keyword is current. */
/* MLIR names an affine map's dimensions d0, d1, ... and its symbols s0, s1, ... whatever the
 * source called them: `(i, j)[n] -> (j, i + n)` reads back as `(d0, d1)[s0] -> (d1, d0 + s0)`.
 * Renames the identifiers of the header in the whole text so both spellings compare equal. */
static Str rename_affine(IrCtx *ctx, Str text) {
  const char *s = text.s, *e = s + text.len;
  const char *lt = memchr(s, '<', text.len);
  if (!lt || lt + 1 >= e || lt[1] != '(')
    return text;
  const char *names[64];
  uint32_t lens[64], ndims = 0, nsyms = 0;
  const char *c = lt + 2;
  for (int list = 0; list < 2; list++) {
    char close = list ? ']' : ')';
    if (list) {
      if (c >= e || *c != '[')
        break;
      c++;
    }
    while (c < e && *c != close) {
      while (c < e && (*c == ' ' || *c == ','))
        c++;
      const char *id = c;
      while (c < e && (isalnum((unsigned char)*c) || *c == '_'))
        c++;
      if (c == id || ndims + nsyms == 64)
        return text;
      names[ndims + nsyms] = id;
      lens[ndims + nsyms] = (uint32_t)(c - id);
      if (list)
        nsyms++;
      else
        ndims++;
      while (c < e && *c == ' ')
        c++;
    }
    if (c < e)
      c++;
  }
  char *out = malloc(text.len * 2 + 16);
  if (!out)
    abort();
  size_t o = 0;
  for (const char *q = s; q < e;) {
    if (isalpha((unsigned char)*q) || *q == '_') {
      const char *id = q;
      while (q < e && (isalnum((unsigned char)*q) || *q == '_'))
        q++;
      uint32_t n = (uint32_t)(q - id), k;
      for (k = 0; k < ndims + nsyms; k++)
        if (lens[k] == n && !memcmp(names[k], id, n))
          break;
      if (k < ndims + nsyms && id > lt)
        o += (size_t)sprintf(out + o, "%c%u", k < ndims ? 'd' : 's', k < ndims ? k : k - ndims);
      else {
        memcpy(out + o, id, n);
        o += n;
      }
      continue;
    }
    out[o++] = *q++;
  }
  Str r = ir_intern(ctx, out, o);
  free(out);
  return r;
}

static Str canonical_sparse(IrCtx *ctx, Str text, const Type *t);
static bool sparse_check(Parser *p, const char *at, Str text, const Type *t, const char *raw, uint32_t rawlen);

/* An integer literal of an affine map or set that int64_t cannot hold: mlir-opt's error at it. */
static bool affine_literals_fit(Parser *p, const char *s, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!isdigit(c) || (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_' || s[i - 1] == '$')))
      continue;
    uint32_t j = i;
    bool hex = c == '0' && i + 2 < n && s[i + 1] == 'x' && isxdigit((unsigned char)s[i + 2]);
    uint64_t v = 0;
    bool big = false;
    for (j = hex ? i + 2 : i; j < n && (hex ? isxdigit((unsigned char)s[j]) : isdigit((unsigned char)s[j])); j++) {
      unsigned d = isdigit((unsigned char)s[j]) ? (unsigned)(s[j] - '0') : (unsigned)((s[j] | 0x20) - 'a' + 10);
      big |= v > ((uint64_t)INT64_MAX - d) / (hex ? 16 : 10);
      v = v * (hex ? 16 : 10) + d;
    }
    if (big)
      return p_error_at(p, s + i, "constant too large for index");
    i = j;
  }
  return true;
}

/* The elements of a ranked shape; 0 when a dimension is 0 or dynamic. */
static uint64_t shape_elems(const Type *t) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    n = t->u.sh.shape[i] < 0 ? 0 : n * (uint64_t)t->u.sh.shape[i];
  return n;
}

static bool parse_text_attr(Parser *p, AttrKind kind, bool typed, Attr **out) {
  const char *start = p->tok.text;
  const char *body;
  uint32_t blen;
  p->lx.cur = start + p->tok.len;
  if (!p_balanced(p, &body, &blen, "expected '<' with a balanced body"))
    return false;
  if ((kind == ATTR_AFFINE_MAP || kind == ATTR_INTEGER_SET) && !affine_literals_fit(p, body, blen))
    return false;
  char *buf = malloc(p->tok.len + blen + 1);
  if (!buf)
    abort();
  memcpy(buf, start, p->tok.len);
  memcpy(buf + p->tok.len, body, blen);
  Attr *a = new_attr(p->ctx, kind);
  a->u.str = ir_normalize_body(p->ctx, buf, p->tok.len + blen);
  free(buf);
  if (kind == ATTR_AFFINE_MAP || kind == ATTR_INTEGER_SET)
    a->u.str = ir_affine_canonicalize(p->ctx, rename_affine(p->ctx, a->u.str));
  p_next(p);
  if (typed && p_opt(p, TOK_COLON) && !p_type(p, &a->type))
    return false;
  if (kind == ATTR_SPARSE && !sparse_check(p, start, a->u.str, a->type, body, blen))
    return false;
  if (kind == ATTR_SPARSE)
    a->u.str = canonical_sparse(p->ctx, a->u.str, a->type);
  *out = a;
  return true;
}

/* Flag-set attributes print their flags in MLIR's bit order whatever order they were written in,
 * and all of fastmath's flags as `fast`: #arith.fastmath<afn, reassoc> reads back as
 * #arith.fastmath<reassoc, afn>. Other texts are returned as they are. */
static const struct {
  const char *prefix;
  const char *flags[8];
  const char *all;
} flag_sets[] = {
  {"#arith.fastmath<", {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", NULL}, "fast"},
  {"#llvm.fastmath<", {"nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", NULL}, "fast"},
  {"#arith.overflow<", {"nsw", "nuw", NULL}, NULL},
  {"#llvm.overflow<", {"nsw", "nuw", NULL}, NULL},
};

Str ir_canon_flags(IrCtx *ctx, Str text) {
  for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
    size_t pl = strlen(flag_sets[k].prefix);
    if (text.len <= pl || memcmp(text.s, flag_sets[k].prefix, pl) || text.s[text.len - 1] != '>')
      continue;
    unsigned set = 0, nflags = 0;
    while (flag_sets[k].flags[nflags])
      nflags++;
    const char *c = text.s + pl, *e = text.s + text.len - 1;
    while (c < e) {
      while (c < e && (*c == ' ' || *c == ','))
        c++;
      const char *w = c;
      while (c < e && *c != ',' && *c != ' ')
        c++;
      size_t n = (size_t)(c - w);
      if (!n)
        break;
      unsigned bit = 0;
      for (unsigned i = 0; i < nflags && !bit; i++)
        if (strlen(flag_sets[k].flags[i]) == n && !memcmp(flag_sets[k].flags[i], w, n))
          bit = 1u << i;
      if (!bit && flag_sets[k].all && n == strlen(flag_sets[k].all) && !memcmp(flag_sets[k].all, w, n))
        bit = (1u << nflags) - 1;
      if (!bit && n == 4 && !memcmp(w, "none", 4))
        continue;
      if (!bit)
        return text; /* not a flag we know: keep the text */
      set |= bit;
    }
    char buf[256];
    size_t o = (size_t)snprintf(buf, sizeof buf, "%s", flag_sets[k].prefix);
    if (!set) {
      o += (size_t)snprintf(buf + o, sizeof buf - o, "none");
    } else if (flag_sets[k].all && set == (1u << nflags) - 1) {
      o += (size_t)snprintf(buf + o, sizeof buf - o, "%s", flag_sets[k].all);
    } else {
      bool first = true;
      for (unsigned i = 0; i < nflags; i++)
        if (set & (1u << i)) {
          o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", first ? "" : ", ", flag_sets[k].flags[i]);
          first = false;
        }
    }
    o += (size_t)snprintf(buf + o, sizeof buf - o, ">");
    return ir_intern(ctx, buf, o);
  }
  return text;
}

/* The error for #text of an unregistered dialect at pos, with its type when one follows (mlir-opt
 * names it); frees buf. */
static bool unregistered_attr(Parser *p, const char *pos, Str text, char *buf) {
  p_next(p);
  Type *t = NULL;
  if (p_is(p, TOK_COLON)) {
    p_next(p);
    if (!p_type(p, &t)) {
      free(buf);
      return false;
    }
  }
  bool ok = p_unregistered(p, pos, '#', text, t ? ir_type_str(p_ctx(p), t) : NULL);
  free(buf);
  return ok;
}

static bool parse_dialect_attr(Parser *p, Attr **out) {
  const char *s = p->tok.text;
  uint32_t len = p->tok.len;
  if (!memchr(s, '.', len) && *p->lx.cur != '<') {
    Attr *a = ir_alias_find(p->attr_alias, p->nattr_alias, s, len);
    if (!a) {
      /* a location alias, which MLIR prints at the end of the file, after its uses */
      a = new_attr(p->ctx, ATTR_LOC);
      a->u.loc = ir_alias_find(p->loc_alias, p->nloc_alias, s, len);
      if (!a->u.loc) {
        a->u.loc = p_loc_new(p, LOC_UNKNOWN);
        p_defer_loc_alias(p, a->u.loc, s, len);
      }
    }
    p_next(p);
    *out = a;
    return true;
  }
  const char *body = NULL;
  uint32_t blen = 0;
  p->lx.cur = s + len;
  if (*p->lx.cur == '<' && !p_balanced(p, &body, &blen, "unbalanced '<' in dialect attribute"))
    return false;
  char *buf = malloc(len + blen + 2);
  if (!buf)
    abort();
  buf[0] = '#';
  memcpy(buf + 1, s, len);
  if (blen)
    memcpy(buf + 1 + len, body, blen);
  const char *dot = memchr(s, '.', len);
  if (!p_ctx(p)->allow_unregistered && !p_dialect_registered((Str){s, dot ? (uint32_t)(dot - s) : len}))
    return unregistered_attr(p, dot ? dot + 1 : s - 1, (Str){buf + 1, len + blen}, buf);
  Attr *a = new_attr(p->ctx, ATTR_OPAQUE);
  a->u.str = ir_normalize_body(p->ctx, buf, 1 + len + blen);
  free(buf);
  a->u.str = ir_canon_flags(p->ctx, a->u.str);
  /* #gpu.object<T, fatbin = "..."> : a fat binary is the default format, which MLIR leaves out */
  if (a->u.str.len > 12 && !memcmp(a->u.str.s, "#gpu.object<", 12)) {
    const char *f = strstr(a->u.str.s, ", fatbin = \"");
    if (f) {
      size_t pre = (size_t)(f - a->u.str.s) + 2, skip = 9; /* keep ", ", drop "fatbin = " */
      char *nb = malloc(a->u.str.len);
      if (!nb)
        abort();
      memcpy(nb, a->u.str.s, pre);
      memcpy(nb + pre, f + 2 + skip, a->u.str.len - pre - skip);
      a->u.str = ir_intern(p->ctx, nb, a->u.str.len - skip);
      free(nb);
    }
  }
  /* #gpu.select_object<N>: an index into the binary's objects */
  if (a->u.str.len > 20 && !memcmp(a->u.str.s, "#gpu.select_object<-", 20) && isdigit((unsigned char)a->u.str.s[20])) {
    return p_error_at(p, body, "the object index must be positive");
  }
  /* #gpu.select_object<N> holds an integer attribute: MLIR prints its type */
  if (a->u.str.len > 20 && !memcmp(a->u.str.s, "#gpu.select_object<", 19) &&
      strspn(a->u.str.s + 19, "-0123456789") == a->u.str.len - 20) {
    char tb[64];
    int tn = snprintf(tb, sizeof tb, "%.*s : i64>", (int)(a->u.str.len - 1), a->u.str.s);
    if (tn > 0 && tn < (int)sizeof tb)
      a->u.str = ir_intern(p->ctx, tb, (size_t)tn);
  }
  p_next(p);
  /* an attribute of an unregistered dialect (allowed) takes a type after it, as MLIR reads one;
   * the registered dialects' attributes here take none */
  if (!p_dialect_registered((Str){s, dot ? (uint32_t)(dot - s) : len}) && p_is(p, TOK_COLON)) {
    p_next(p);
    if (!p_type(p, &a->type))
      return false;
  }
  *out = a;
  return true;
}

bool p_attr_dict(Parser *p, NamedAttr **out, uint32_t *n) {
  if (!p_expect(p, TOK_LBRACE, "'{'"))
    return false;
  NamedAttr small[16];
  NamedAttr *ents = small;
  uint32_t cnt = 0, cap = 16;
  bool ok = true;
  if (!p_opt(p, TOK_RBRACE)) {
    do {
      Str name;
      const char *key_pos = p->tok.text;
      if (p_is(p, TOK_STRING)) {
        if (!p_string(p, &name)) {
          ok = false;
          break;
        }
      } else if (p_is(p, TOK_BARE)) {
        name = ir_intern(p->ctx, p->tok.text, p->tok.len);
        p_next(p);
      } else {
        ok = p_error(p, "expected attribute name");
        break;
      }
      for (uint32_t i = 0; i < cnt; i++) {
        if (ents[i].name.s == name.s) {
          ok = p_error_at(p, key_pos, "duplicate key '%.*s' in dictionary attribute", (int)name.len, name.s);
          break;
        }
      }
      if (!ok)
        break;
      Attr *v;
      if (p_opt(p, TOK_EQUAL)) {
        if (!p_attr(p, NULL, &v)) {
          ok = false;
          break;
        }
      } else {
        v = ir_attr_unit(p->ctx);
      }
      if (cnt == cap) {
        NamedAttr *ne = malloc(cap * 2 * sizeof *ne);
        if (!ne)
          abort();
        memcpy(ne, ents, cnt * sizeof *ne);
        if (ents != small)
          free(ents);
        ents = ne;
        cap *= 2;
      }
      ents[cnt++] = (NamedAttr){name, v};
    } while (p_opt(p, TOK_COMMA));
    if (ok)
      ok = p_expect(p, TOK_RBRACE, "'}'");
  }
  if (ok) {
    *out = ir_dup(p->ctx, ents, cnt * sizeof *ents);
    *n = cnt;
  }
  if (ents != small)
    free(ents);
  return ok;
}

bool p_symbol(Parser *p, Str *out) {
  if (!p_is(p, TOK_AT))
    return p_error(p, "expected symbol name");
  if (p->tok.text[0] == '"') {
    Token t = p->tok;
    /* reuse the string unescaper on the quoted text */
    p->tok.kind = TOK_STRING;
    bool ok = p_string(p, out);
    (void)t;
    return ok;
  }
  *out = ir_intern(p->ctx, p->tok.text, p->tok.len);
  p_next(p);
  return true;
}

static bool parse_attr(Parser *p, Type *type, Attr **out);

bool p_attr(Parser *p, Type *type, Attr **out) {
  if (!p_nest_enter(p, "attributes"))
    return false;
  bool ok = parse_attr(p, type, out);
  p_nest_leave(p);
  return ok;
}

static bool parse_attr(Parser *p, Type *type, Attr **out) {
  IrCtx *ctx = p->ctx;
  switch (p->tok.kind) {
  case TOK_INT: case TOK_FLOAT: case TOK_MINUS:
    return parse_number_attr(p, type, out);
  case TOK_STRING: {
    Str s;
    if (!p_string(p, &s))
      return false;
    Attr *a = new_attr(ctx, ATTR_STRING);
    a->u.str = s;
    if (p_opt(p, TOK_COLON) && !p_type(p, &a->type))
      return false;
    *out = a;
    return true;
  }
  case TOK_LSQUARE: {
    p_next(p);
    Vec v = {0};
    if (!p_opt(p, TOK_RSQUARE)) {
      do {
        Attr *e;
        if (!p_attr(p, NULL, &e)) {
          free(v.v);
          return false;
        }
        ir_vec_push(&v, e);
      } while (p_opt(p, TOK_COMMA));
      if (!p_expect(p, TOK_RSQUARE, "']'")) {
        free(v.v);
        return false;
      }
    }
    *out = ir_attr_array(ctx, (Attr **)v.v, v.n);
    free(v.v);
    return true;
  }
  case TOK_LBRACE: {
    NamedAttr *e;
    uint32_t n;
    if (!p_attr_dict(p, &e, &n))
      return false;
    *out = ir_attr_dict(ctx, e, n);
    return true;
  }
  case TOK_AT: {
    Str path[32];
    uint32_t n = 0;
    if (!p_symbol(p, &path[n++]))
      return false;
    /* `::` lexes as two colons */
    while (p_is(p, TOK_COLON) && p->lx.cur[0] == ':' && p->lx.cur[1] == '@') {
      p_next(p);
      p_next(p);
      if (n == 32)
        return p_error(p, "symbol reference nested too deeply");
      if (!p_symbol(p, &path[n++]))
        return false;
    }
    *out = ir_attr_symref(ctx, path, n);
    return true;
  }
  case TOK_HASH:
    return parse_dialect_attr(p, out);
  case TOK_BANG: case TOK_LPAREN: {
    Type *t;
    if (!p_type(p, &t))
      return false;
    *out = ir_attr_type(ctx, t);
    return true;
  }
  case TOK_BARE: {
    Str kw = {p->tok.text, p->tok.len};
    if (ir_str_eq(kw, "true") || ir_str_eq(kw, "false")) {
      p_next(p);
      *out = ir_attr_bool(ctx, kw.s[0] == 't');
      if (p_opt(p, TOK_COLON)) {
        Type *t;
        if (!p_type(p, &t))
          return false;
      }
      return true;
    }
    if (ir_str_eq(kw, "unit")) {
      p_next(p);
      *out = ir_attr_unit(ctx);
      return true;
    }
    if (ir_str_eq(kw, "array") && *p->lx.cur == '<') {
      p_next(p);
      return parse_dense_array(p, out);
    }
    if (ir_str_eq(kw, "strided")) {
      p_next(p);
      return parse_strided(p, out);
    }
    if (ir_str_eq(kw, "dense"))
      return parse_dense(p, type, out);
    if (ir_str_eq(kw, "dense_resource"))
      return parse_text_attr(p, ATTR_DENSE_RESOURCE, true, out);
    if (ir_str_eq(kw, "sparse"))
      return parse_text_attr(p, ATTR_SPARSE, true, out);
    if (ir_str_eq(kw, "affine_map"))
      return parse_text_attr(p, ATTR_AFFINE_MAP, false, out);
    if (ir_str_eq(kw, "affine_set"))
      return parse_text_attr(p, ATTR_INTEGER_SET, false, out);
    if (ir_str_eq(kw, "distinct"))
      return parse_distinct(p, out);
    if (ir_str_eq(kw, "loc")) {
      Attr *a = new_attr(ctx, ATTR_LOC);
      if (!p_loc(p, &a->u.loc))
        return false;
      *out = a;
      return true;
    }
    Type *t;
    if (!p_type(p, &t))
      return false;
    *out = ir_attr_type(ctx, t);
    return true;
  }
  default:
    return p_error(p, "expected attribute value");
  }
}

/* distinct[N]<attr>: kept as text */
static bool parse_distinct(Parser *p, Attr **out) {
  const char *start = p->tok.text;
  const char *c = start + p->tok.len;
  while (*c == ' ')
    c++;
  if (*c != '[')
    return p_error(p, "expected '[' after distinct");
  while (*c && *c != ']')
    c++;
  if (!*c)
    return p_error(p, "expected ']'");
  p->lx.cur = c + 1;
  const char *body;
  uint32_t blen;
  if (!p_balanced(p, &body, &blen, "expected '<' after distinct[N]"))
    return false;
  Attr *a = new_attr(p->ctx, ATTR_OPAQUE);
  a->u.str = ir_normalize_body(p->ctx, start, (uint32_t)(body + blen - start));
  p_next(p);
  *out = a;
  return true;
}

/* ---- Dense elements ------------------------------------------------------------------------ */

/* dense ::= `dense` `<` literal? `>` (`:` shaped-type)?
 * literal ::= `[` (literal (`,` literal)*)? `]` | `-`? number | true | false | string | `(` a `,` b `)`
 * The literal is read into a tree first, since its element type comes after it. Integer and
 * float elements are then stored as values and the attribute's text is made canonical: a splat
 * when all elements are equal (as MLIR stores them), else nested lists in the type's shape, each
 * number spelled as the printer spells it. Other element kinds keep their text. */
typedef struct DLit {
  Token tok;  /* number, bool or string; kind TOK_LSQUARE for a list */
  bool neg;
  struct DLit **kids;
  uint32_t n;
} DLit;

static void dlit_free(DLit *d) {
  if (!d)
    return;
  for (uint32_t i = 0; i < d->n; i++)
    dlit_free(d->kids[i]);
  free(d->kids);
  free(d);
}

static bool dlit_parse(Parser *p, DLit **out, int depth) {
  DLit *d = calloc(1, sizeof *d);
  if (!d)
    abort();
  *out = d;
  if (depth > 32)
    return p_error(p, "elements literal nested too deeply");
  if (p_is(p, TOK_LSQUARE)) {
    d->tok = p->tok;
    p_next(p);
    if (p_opt(p, TOK_RSQUARE))
      return true;
    uint32_t cap = 0;
    do {
      if (d->n == cap) {
        cap = cap ? cap * 2 : 8;
        DLit **k = realloc(d->kids, cap * sizeof *k);
        if (!k)
          abort();
        d->kids = k;
      }
      d->kids[d->n] = NULL;
      if (!dlit_parse(p, &d->kids[d->n++], depth + 1))
        return false;
    } while (p_opt(p, TOK_COMMA));
    return p_expect(p, TOK_RSQUARE, "']'");
  }
  d->neg = p_opt(p, TOK_MINUS);
  if (p_is(p, TOK_INT) || p_is(p, TOK_FLOAT) || p_is(p, TOK_STRING) || p_is_kw(p, "true") ||
      p_is_kw(p, "false") || p_is(p, TOK_LPAREN)) {
    d->tok = p->tok;
    if (p_is(p, TOK_LPAREN)) { /* complex (re, im): kept as text */
      const char *s = p->tok.text;
      while (!p_is(p, TOK_RPAREN) && !p_is(p, TOK_EOF))
        p_next(p);
      d->tok.len = (uint32_t)(p->tok.text + 1 - s);
    }
    p_next(p);
    return true;
  }
  return p_error(p, "expected element literal of primitive type");
}

/* Shape of a literal tree: every list at one depth must have the same length. */
static bool dlit_shape(const DLit *d, int64_t *shape, uint32_t *rank, uint32_t depth) {
  if (d->tok.kind != TOK_LSQUARE)
    return true;
  if (depth >= 64)
    return false;
  if (depth == *rank) {
    shape[(*rank)++] = d->n;
  } else if (shape[depth] != (int64_t)d->n) {
    return false;
  }
  for (uint32_t i = 0; i < d->n; i++)
    if (!dlit_shape(d->kids[i], shape, rank, depth + 1) || (d->kids[i]->tok.kind == TOK_LSQUARE) != (d->kids[0]->tok.kind == TOK_LSQUARE))
      return false;
  return true;
}

static void dlit_leaves(const DLit *d, const DLit **out, uint64_t *n) {
  if (d->tok.kind != TOK_LSQUARE) {
    out[(*n)++] = d;
    return;
  }
  for (uint32_t i = 0; i < d->n; i++)
    dlit_leaves(d->kids[i], out, n);
}

typedef struct TextBuf {
  char *s;
  size_t len, cap;
} TextBuf;

static void tb_put(TextBuf *tb, const char *s, size_t n) {
  if (tb->len + n + 1 > tb->cap) {
    tb->cap = (tb->len + n + 1) * 2;
    char *ns = realloc(tb->s, tb->cap);
    if (!ns)
      abort();
    tb->s = ns;
  }
  memcpy(tb->s + tb->len, s, n);
  tb->len += n;
}

/* One element of a sparse literal as dense elements print it; et NULL: an index. */
static bool sparse_elem(const char *s, size_t n, const Type *et, char *b, size_t bn) {
  char tok[64];
  if (n == 0 || n >= sizeof tok)
    return false;
  memcpy(tok, s, n);
  tok[n] = 0;
  char *end;
  errno = 0;
  if (et && et->kind == TY_FLOAT) {
    if (strchr(tok, 'x') || strchr(tok, 'X'))
      return false; /* bit patterns keep their text */
    double v = ir_float_round(et->u.f, strtod(tok, &end));
    if (*end || !isfinite(v))
      return false;
    ir_format_float(b, bn, v, et->u.f);
    return true;
  }
  bool i1 = et && ir_type_is_integer(et, 1);
  long long v;
  if (i1 && (!strcmp(tok, "true") || !strcmp(tok, "false")))
    v = tok[0] == 't';
  else {
    bool neg = tok[0] == '-';
    unsigned long long u = strtoull(tok + neg, &end, 0);
    if (*end || errno || !isdigit((unsigned char)tok[neg]))
      return false;
    v = (long long)(neg ? 0 - u : u);
  }
  uint32_t w = !et || et->kind == TY_INDEX ? 64 : et->u.i.width;
  if (w < 64) { /* wrap to the width, as dense elements do */
    uint64_t mask = (1ULL << w) - 1, u = (uint64_t)v & mask;
    if (et->u.i.sign != UNSIGNED && w > 1 && ((u >> (w - 1)) & 1))
      u |= ~mask;
    v = (long long)u;
  }
  if (i1)
    snprintf(b, bn, "%s", v ? "true" : "false");
  else if (et && et->kind == TY_INT && et->u.i.sign == UNSIGNED)
    snprintf(b, bn, "%llu", (unsigned long long)v);
  else
    snprintf(b, bn, "%lld", v);
  return true;
}

/* A literal of sparse<...> between s and e: one value when all its elements are equal (a
 * splat, as mlir-opt prints it), else the nested lists with every element respelled. */
static bool sparse_list(TextBuf *tb, const char *s, const char *e, const Type *et) {
  char first[64] = "", b[64];
  bool splat = true;
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1 && splat && n) {
      tb_put(tb, first, strlen(first));
      return true;
    }
    for (const char *c = s; c < e;) {
      if (*c == ' ') {
        c++;
      } else if (*c == '[' || *c == ']') {
        if (pass)
          tb_put(tb, c, 1);
        c++;
      } else if (*c == ',') {
        if (pass)
          tb_put(tb, ", ", 2);
        c++;
      } else {
        const char *t = c;
        while (c < e && (isalnum((unsigned char)*c) || *c == '-' || *c == '+' || *c == '.'))
          c++;
        if (c == t || !sparse_elem(t, (size_t)(c - t), et, b, sizeof b))
          return false;
        if (pass)
          tb_put(tb, b, strlen(b));
        else if (n++ == 0)
          snprintf(first, sizeof first, "%s", b);
        else if (strcmp(first, b))
          splat = false;
      }
    }
  }
  return n > 0;
}

/* sparse<indices, values> : T spelled as dense elements are: ir_format_float for floats,
 * decimal integers, true/false, and a list of equal elements as one. Anything else (hex bit
 * patterns, strings, complex or wide elements, no type) keeps its text. */
/* The shape of the literal list in [s, e) (its first element at each depth; the list is taken
 * to be rectangular) and, when ints is given, its integers in order; false when it holds more
 * than it can keep. A literal that is not a list has shape []. */
typedef struct SpList { uint32_t rank, n; int64_t shape[8]; int64_t *ints; } SpList;

static bool sp_list(const char *s, const char *e, SpList *l, bool ints) {
  uint32_t depth = 0, seen[8] = {0};
  bool done[8] = {0}, item = false;
  l->rank = 0;
  l->n = 0;
  l->ints = NULL;
  uint32_t cap = 0;
  for (const char *c = s; c < e; c++) {
    if (*c == '(') { /* a complex element: one item */
      for (int k = 0; c < e && (k += *c == '(' ? 1 : *c == ')' ? -1 : 0) > 0; c++)
        ;
      item = true;
      continue;
    }
    if (*c == '[') {
      if (depth == 8)
        return false;
      if (depth == l->rank)
        l->rank++;
      seen[depth] = 0;
      item = false;
      depth++;
    } else if (*c == ']' || *c == ',') {
      if (depth && (item || *c == ','))
        seen[depth - 1]++;
      if (*c == ']' && depth) {
        if (!done[depth - 1])
          l->shape[depth - 1] = seen[depth - 1], done[depth - 1] = true;
        depth--;
        item = true;
      } else {
        item = false;
      }
    } else if (!isspace((unsigned char)*c)) {
      if (ints && (isdigit((unsigned char)*c) || *c == '-') && !item) {
        if (l->n == cap) {
          cap = cap ? cap * 2 : 16;
          int64_t *g = realloc(l->ints, cap * sizeof *g);
          if (!g)
            abort();
          l->ints = g;
        }
        const char *d = c + (*c == '-');
        bool hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X'); /* else decimal, leading zeros too */
        l->ints[l->n++] = strtoll(c, NULL, hex ? 16 : 10);
      }
      item = true;
    }
  }
  return true;
}

static void sp_shape(char *b, size_t n, const int64_t *shape, uint32_t rank) {
  size_t o = (size_t)snprintf(b, n, "[");
  for (uint32_t i = 0; i < rank && o < n; i++)
    o += (size_t)snprintf(b + o, n - o, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (o < n)
    snprintf(b + o, n - o, "]");
}

/* sparse<indices, values> : T as mlir-opt checks it: N indices of T's rank ([N, rank], or [N] or
 * one integer for rank 1), N values or one (a splat), and each index inside T's shape. */
/* Whether an integer literal of magnitude v (big: past 64 bits), negative when neg, fits an element
 * of width w, as MLIR reads one: the signed or the unsigned range of the width, and no negative
 * value of an unsigned type. NULL when it fits, else mlir-opt's words. */
static const char *int_elem_misfit(uint64_t v, bool big, bool neg, uint32_t w, bool uns) {
  if (uns && neg)
    return "expected unsigned integer elements, but parsed negative value";
  uint64_t max = neg ? 1ULL << (w - 1) : w == 64 ? UINT64_MAX : (1ULL << w) - 1;
  return big || v > max ? "integer constant out of range for type" : NULL;
}

/* The integer values [s, e) of a sparse literal against its element type et, as dense<> checks
 * them: mlir-opt's error at the first that does not fit. */
static bool sparse_values_fit(Parser *p, const char *s, const char *e, const Type *et) {
  if (!et || (et->kind != TY_INT && et->kind != TY_INDEX))
    return true;
  uint32_t w = et->kind == TY_INDEX ? 64 : et->u.i.width;
  bool uns = et->kind == TY_INT && et->u.i.sign == UNSIGNED;
  if (w > 64 || w == 0)
    return true;
  for (const char *c = s; c < e; c++) {
    if (!isdigit((unsigned char)*c) || (c > s && (isalnum((unsigned char)c[-1]) || c[-1] == '.')))
      continue;
    const char *q = c;
    bool neg = false;
    for (const char *b = c; b > s && (b[-1] == ' ' || b[-1] == '-'); b--)
      neg |= b[-1] == '-';
    bool hex = c[0] == '0' && c + 2 < e && (c[1] == 'x' || c[1] == 'X');
    uint64_t v = 0;
    bool big = false;
    for (q = hex ? c + 2 : c; q < e && (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)); q++) {
      unsigned d = isdigit((unsigned char)*q) ? (unsigned)(*q - '0') : (unsigned)((*q | 0x20) - 'a' + 10);
      big |= v > (UINT64_MAX - d) / (hex ? 16 : 10);
      v = v * (hex ? 16 : 10) + d;
    }
    if (q < e && (*q == '.' || *q == 'e' || *q == 'E'))
      return true; /* a float among integers: not what this checks */
    const char *misfit = int_elem_misfit(v, big, neg && v, w, uns);
    if (misfit)
      return p_error_at(p, c, "%s", misfit);
    c = q - 1;
  }
  return true;
}

static bool sparse_check(Parser *p, const char *at, Str text, const Type *t, const char *raw, uint32_t rawlen) {
  if (!t || (t->kind != TY_TENSOR && t->kind != TY_VECTOR) || t->u.sh.unranked || !t->u.sh.rank ||
      t->u.sh.rank > 8 || text.len < 9 || memcmp(text.s, "sparse<", 7))
    return true;
  const char *s = text.s + 7, *e = text.s + text.len - 1, *comma = NULL;
  int depth = 0;
  for (const char *c = s; c < e && !comma; c++) {
    if (*c == '"')
      return true; /* strings (hex blobs): left as they are */
    depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
    if (*c == ',' && depth == 0)
      comma = c;
  }
  SpList ix, vs;
  if (!comma || memchr(comma, '"', (size_t)(e - comma)) || !sp_list(s, comma, &ix, true))
    return true;
  if (!sp_list(comma + 1, e, &vs, false)) {
    free(ix.ints);
    return true;
  }
  uint32_t rank = t->u.sh.rank;
  int64_t n = ix.rank == 2 ? ix.shape[0] : ix.rank == 1 ? ix.shape[0] : 1;
  bool ok = vs.rank <= 1;
  if (!ok) {
    free(ix.ints);
    return p_error_at(p, at, "expected 1-d tensor for sparse element values");
  }
  ok = (ix.rank == 2 && ix.shape[1] == (int64_t)rank) || (rank == 1 && ix.rank <= 1);
  ok = ok && (vs.rank == 0 || vs.shape[0] == n) && (uint64_t)ix.n == (uint64_t)n * rank;
  if (!ok) {
    char a[128], b[128], c[128];
    sp_shape(a, sizeof a, t->u.sh.shape, rank);
    sp_shape(b, sizeof b, ix.shape, ix.rank);
    sp_shape(c, sizeof c, vs.shape, vs.rank);
    free(ix.ints);
    if ((uint64_t)ix.n != (uint64_t)n * rank && ((ix.rank == 2 && ix.shape[1] == (int64_t)rank) ||
                                                  (rank == 1 && ix.rank <= 1)))
      return true; /* ragged: not what this checks */
    return p_error_at(p, at, "expected shape (%s); inferred shape of indices literal (%s); inferred shape of values literal (%s)",
                      a, b, c);
  }
  /* the values as written, for their places: after the source body's top-level comma */
  const char *rc = NULL, *re = raw + rawlen - 1;
  depth = 0;
  for (const char *c = raw + 1; c < re && !rc; c++) {
    depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
    if (*c == ',' && depth == 0)
      rc = c;
  }
  if (rc && !sparse_values_fit(p, rc + 1, re, t->u.sh.elem)) {
    free(ix.ints);
    return false;
  }
  for (int64_t k = 0; k < n; k++)
    for (uint32_t d = 0; d < rank; d++) {
      if ((uint64_t)ix.ints[k * rank + d] < (uint64_t)t->u.sh.shape[d])
        continue;
      char b[512];
      size_t o = (size_t)snprintf(b, sizeof b, "[");
      for (uint32_t j = 0; j < rank && o < sizeof b; j++)
        o += (size_t)snprintf(b + o, sizeof b - o, "%s%llu", j ? ", " : "", (unsigned long long)ix.ints[k * rank + j]);
      if (o < sizeof b)
        snprintf(b + o, sizeof b - o, "]");
      free(ix.ints);
      return p_error_at(p, at, "sparse index #%lld is not contained within the value shape, with index=%s, and type='%s'",
                        (long long)k, b, ir_type_str(p->ctx, t));
    }
  free(ix.ints);
  return true;
}

static Str canonical_sparse(IrCtx *ctx, Str text, const Type *t) {
  if (!t || (t->kind != TY_TENSOR && t->kind != TY_VECTOR) || text.len < 9 ||
      memcmp(text.s, "sparse<", 7) || text.s[text.len - 1] != '>')
    return text;
  const Type *et = t->u.sh.elem;
  if (et->kind != TY_FLOAT && et->kind != TY_INDEX && (et->kind != TY_INT || et->u.i.width > 64))
    return text;
  const char *s = text.s + 7, *e = text.s + text.len - 1, *comma = NULL;
  int depth = 0;
  for (const char *c = s; c < e && !comma; c++)
    if (*c == '[')
      depth++;
    else if (*c == ']')
      depth--;
    else if (*c == ',' && depth == 0)
      comma = c;
  if (!comma)
    return text;
  TextBuf tb = {0};
  tb_put(&tb, "sparse<", 7);
  bool ok = sparse_list(&tb, s, comma, NULL);
  if (ok) {
    tb_put(&tb, ", ", 2);
    ok = sparse_list(&tb, comma + 1, e, et);
  }
  tb_put(&tb, ">", 1);
  Str r = ok ? ir_intern(ctx, tb.s, tb.len) : text;
  free(tb.s);
  return r;
}

static void tb_elem(TextBuf *tb, const Attr *a, uint64_t i) {
  char b[64];
  if (a->u.dense.fvals)
    ir_format_float(b, sizeof b, a->u.dense.fvals[i], a->type->u.sh.elem->u.f);
  else if (ir_type_is_integer(a->type->u.sh.elem, 1))
    snprintf(b, sizeof b, "%s", a->u.dense.ivals[i] ? "true" : "false");
  else if (a->type->u.sh.elem->kind == TY_INT && a->type->u.sh.elem->u.i.sign == UNSIGNED)
    snprintf(b, sizeof b, "%llu", (unsigned long long)a->u.dense.ivals[i]);
  else
    snprintf(b, sizeof b, "%lld", (long long)a->u.dense.ivals[i]);
  tb_put(tb, b, strlen(b));
}

static void tb_nested(TextBuf *tb, const Attr *a, const int64_t *shape, uint32_t rank, uint64_t *i) {
  if (rank == 0) {
    tb_elem(tb, a, (*i)++);
    return;
  }
  tb_put(tb, "[", 1);
  for (int64_t k = 0; k < shape[0]; k++) {
    if (k)
      tb_put(tb, ", ", 2);
    tb_nested(tb, a, shape + 1, rank - 1, i);
  }
  tb_put(tb, "]", 1);
}

static bool dense_values(Parser *p, Attr *a, const DLit **leaves, uint64_t n, const char *pos) {
  Type *et = a->type->u.sh.elem;
  bool fl = et->kind == TY_FLOAT, in = et->kind == TY_INT || et->kind == TY_INDEX;
  if (!fl && !in)
    return true; /* other element types keep their text */
  for (uint64_t i = 0; i < n; i++)
    if (leaves[i]->tok.kind == TOK_STRING || leaves[i]->tok.kind == TOK_LPAREN)
      return true;
  if (fl)
    a->u.dense.fvals = ir_alloc(p->ctx, n * sizeof(double) + 1);
  else
    a->u.dense.ivals = ir_alloc(p->ctx, n * sizeof(int64_t) + 1);
  for (uint64_t i = 0; i < n; i++) {
    const DLit *d = leaves[i];
    char buf[128];
    uint32_t len = d->tok.len < sizeof buf - 1 ? d->tok.len : sizeof buf - 1;
    memcpy(buf, d->tok.text, len);
    buf[len] = 0;
    bool is_bool = d->tok.kind == TOK_BARE;
    if (fl) {
      double v;
      if (is_bool)
        return p_error_at(p, d->tok.text, "expected floating point elements, but parsed integer");
      if (d->tok.kind == TOK_INT && !(len > 2 && buf[1] == 'x')) {
        p_error_at(p, d->tok.text, "unexpected decimal integer literal for a floating point value");
        p_note_at(p, d->tok.text, "add a trailing dot to make the literal a float");
        return false;
      }
      if (d->tok.kind == TOK_INT) {
        bool ok;
        errno = 0;
        uint64_t bits = strtoull(buf, NULL, 16);
        uint32_t fw = ir_float_width(et->u.f);
        if (fw <= 64 && (errno || (fw < 64 && bits >> fw)))
          return p_error_at(p, d->tok.text, "hexadecimal float constant out of range for type");
        v = bits_to_double(et->u.f, bits, &ok);
        if (!ok)
          return true;
      } else {
        v = strtod(buf, NULL);
      }
      a->u.dense.fvals[i] = ir_float_round(et->u.f, d->neg ? -v : v);
    } else {
      if (d->tok.kind == TOK_FLOAT)
        return p_error_at(p, d->tok.text, "expected integer elements, but parsed floating-point");
      errno = 0;
      uint64_t v = is_bool ? (buf[0] == 't') : strtoull(buf, NULL, 0);
      uint32_t w = et->kind == TY_INDEX ? 64 : et->u.i.width;
      if (w > 64)
        return true; /* wide integers keep their text */
      bool uns = et->kind == TY_INT && et->u.i.sign == UNSIGNED;
      const char *misfit = int_elem_misfit(v, errno != 0, d->neg, w, uns);
      if (misfit)
        return p_error_at(p, d->tok.text, "%s", misfit);
      int64_t sv = (int64_t)(d->neg ? 0 - v : v); /* v may be 2^63: negate unsigned */
      if (w < 64) {
        uint64_t mask = (1ULL << w) - 1, u = (uint64_t)sv & mask;
        if (et->kind == TY_INT && et->u.i.sign != UNSIGNED && w > 1 && ((u >> (w - 1)) & 1))
          u |= ~mask;
        sv = (int64_t)u;
      }
      a->u.dense.ivals[i] = sv;
    }
  }
  (void)pos;
  return true;
}

/* dense<"0x...">: the raw little-endian bytes of every element (or of one, for a splat) */
static bool dense_hex(Parser *p, Attr *a, const DLit *lit, const char *pos) {
  Type *et = a->type->u.sh.elem;
  uint32_t w = et->kind == TY_INDEX ? 64 : et->kind == TY_INT ? et->u.i.width
             : et->kind == TY_FLOAT ? ir_float_width(et->u.f) : 0;
  if (w != 8 && w != 16 && w != 32 && w != 64)
    return true; /* kept as text */
  const char *hex = lit->tok.text + 3;
  uint64_t nbytes = (lit->tok.len - 4) / 2, eb = w / 8;
  uint64_t total = 1;
  for (uint32_t i = 0; i < a->type->u.sh.rank; i++)
    total *= a->type->u.sh.shape[i] < 0 ? 0 : (uint64_t)a->type->u.sh.shape[i];
  if ((lit->tok.len - 4) % 2 || (nbytes != eb && nbytes != eb * total))
    return p_error_at(p, pos, "elements hex data size is invalid for provided type");
  uint64_t n = nbytes / eb;
  bool fl = et->kind == TY_FLOAT;
  if (fl)
    a->u.dense.fvals = ir_alloc(p->ctx, n * sizeof(double) + 1);
  else
    a->u.dense.ivals = ir_alloc(p->ctx, n * sizeof(int64_t) + 1);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t bits = 0;
    for (uint64_t b = 0; b < eb; b++) {
      char h[3] = {hex[(i * eb + b) * 2], hex[(i * eb + b) * 2 + 1], 0};
      bits |= (uint64_t)strtoul(h, NULL, 16) << (8 * b);
    }
    if (fl) {
      bool ok;
      a->u.dense.fvals[i] = bits_to_double(et->u.f, bits, &ok);
    } else {
      if (w < 64 && !(et->kind == TY_INT && et->u.i.sign == UNSIGNED) && ((bits >> (w - 1)) & 1))
        bits |= ~((1ULL << w) - 1);
      a->u.dense.ivals[i] = (int64_t)bits;
    }
  }
  a->u.dense.n = n;
  a->u.dense.splat = n == 1;
  if (n > 1) {
    bool all = true;
    for (uint64_t i = 1; all && i < n; i++)
      all = fl ? memcmp(&a->u.dense.fvals[i], &a->u.dense.fvals[0], sizeof(double)) == 0
               : a->u.dense.ivals[i] == a->u.dense.ivals[0];
    if (all) {
      a->u.dense.splat = true;
      a->u.dense.n = 1;
    }
  }
  return true;
}

/* The canonical `dense<...>` text of a, whose values are parsed. */
static void dense_text(IrCtx *ctx, Attr *a) {
  TextBuf tb = {0};
  tb_put(&tb, "dense<", 6);
  uint64_t i = 0;
  if (a->u.dense.splat)
    tb_elem(&tb, a, 0);
  else
    tb_nested(&tb, a, a->type->u.sh.shape, a->type->u.sh.rank, &i);
  tb_put(&tb, ">", 1);
  a->u.dense.text = ir_intern(ctx, tb.s, tb.len);
  free(tb.s);
}

Attr *ir_attr_dense_ints(IrCtx *ctx, Type *t, const int64_t *vals, uint64_t n) {
  const Type *et = t->u.sh.elem;
  uint32_t w = et->kind == TY_INDEX ? 64 : et->u.i.width;
  Attr *a = new_attr(ctx, ATTR_DENSE);
  a->type = t;
  a->u.dense.ivals = ir_alloc(ctx, n * sizeof(int64_t) + 1);
  bool all = true;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t u = (uint64_t)vals[i];
    if (w < 64) {
      uint64_t mask = (1ULL << w) - 1;
      u &= mask;
      if (et->kind == TY_INT && et->u.i.sign != UNSIGNED && w > 1 && ((u >> (w - 1)) & 1))
        u |= ~mask;
    }
    a->u.dense.ivals[i] = (int64_t)u;
    all &= a->u.dense.ivals[i] == a->u.dense.ivals[0];
  }
  a->u.dense.splat = n > 0 && all;
  a->u.dense.n = a->u.dense.splat ? 1 : n;
  dense_text(ctx, a);
  return a;
}

static bool parse_dense(Parser *p, Type *expected, Attr **out) {
  const char *pos = p->tok.text;
  p_next(p);
  if (!p_expect(p, TOK_LESS, "'<'"))
    return false;
  DLit *root = NULL;
  const char *body = p->tok.text;
  if (!p_is(p, TOK_GREATER) && !dlit_parse(p, &root, 0)) {
    dlit_free(root);
    return false;
  }
  const char *body_end = p->tok.text;
  if (!p_expect(p, TOK_GREATER, "'>'")) {
    dlit_free(root);
    return false;
  }
  Type *t = expected;
  if ((!t || (t->kind != TY_VECTOR && t->kind != TY_TENSOR && t->kind != TY_MEMREF)) &&
      (!p_expect(p, TOK_COLON, "':'") || !p_type(p, &t))) {
    dlit_free(root);
    return false;
  }
  Attr *a = new_attr(p->ctx, ATTR_DENSE);
  a->type = t;
  bool ok = true;
  bool dynamic = false;
  for (uint32_t i = 0; (t->kind == TY_VECTOR || t->kind == TY_TENSOR || t->kind == TY_MEMREF) && i < t->u.sh.rank; i++)
    dynamic |= t->u.sh.shape[i] == IR_DYNAMIC;
  if (t->kind != TY_VECTOR && t->kind != TY_TENSOR && t->kind != TY_MEMREF) {
    ok = p_error_at(p, pos, "elements literal type must be a shaped type");
  } else if (t->u.sh.unranked || dynamic) {
    ok = p_error_at(p, pos, "elements literal type must have static shape");
  } else if (root && root->tok.kind == TOK_STRING && root->tok.len > 4 && root->tok.text[1] == '0' &&
             root->tok.text[2] == 'x') {
    ok = dense_hex(p, a, root, pos);
  } else if (!root && !t->u.sh.unranked && shape_elems(t)) {
    ok = p_error_at(p, pos, "parsed zero elements, but type ('%s') expected at least 1", ir_type_str(p->ctx, t));
  } else if (!root || root->tok.kind != TOK_LSQUARE) {
    /* a splat, or empty `dense<>` */
    a->u.dense.splat = root != NULL;
    if (root) {
      const DLit *leaf = root;
      ok = dense_values(p, a, &leaf, 1, pos);
    }
    a->u.dense.n = root ? 1 : 0;
  } else {
    int64_t shape[64];
    uint32_t rank = 0;
    uint64_t total = 1;
    if (!dlit_shape(root, shape, &rank, 0)) {
      ok = p_error_at(p, pos, "elements literal has an inconsistent shape");
    } else {
      bool same = rank == t->u.sh.rank;
      for (uint32_t i = 0; same && i < rank; i++)
        same = shape[i] == t->u.sh.shape[i];
      for (uint32_t i = 0; i < rank; i++)
        total *= (uint64_t)shape[i];
      if (!same) {
        char a1[256] = "", a2[256] = "";
        for (uint32_t i = 0; i < rank && strlen(a1) < 200; i++)
          snprintf(a1 + strlen(a1), sizeof a1 - strlen(a1), "%s%lld", i ? ", " : "", (long long)shape[i]);
        for (uint32_t i = 0; i < t->u.sh.rank && strlen(a2) < 200; i++)
          snprintf(a2 + strlen(a2), sizeof a2 - strlen(a2), "%s%lld", i ? ", " : "",
                   (long long)t->u.sh.shape[i]);
        ok = p_error_at(p, pos, "inferred shape of elements literal ([%s]) does not match type ([%s])", a1, a2);
      } else {
        const DLit **leaves = malloc((total + 1) * sizeof *leaves);
        if (!leaves)
          abort();
        uint64_t n = 0;
        dlit_leaves(root, leaves, &n);
        ok = dense_values(p, a, leaves, n, pos);
        a->u.dense.n = n;
        if (ok && n > 1 && (a->u.dense.ivals || a->u.dense.fvals)) {
          bool all = true;
          for (uint64_t i = 1; all && i < n; i++)
            all = a->u.dense.ivals ? a->u.dense.ivals[i] == a->u.dense.ivals[0]
                                   : memcmp(&a->u.dense.fvals[i], &a->u.dense.fvals[0], sizeof(double)) == 0;
          if (all) {
            a->u.dense.splat = true;
            a->u.dense.n = 1;
          }
        }
        free(leaves);
      }
    }
  }
  dlit_free(root);
  if (!ok)
    return false;
  if (a->u.dense.ivals || a->u.dense.fvals) {
    dense_text(p->ctx, a);
  } else {
    TextBuf tb = {0};
    tb_put(&tb, "dense<", 6);
    tb_put(&tb, body, (size_t)(body_end - body));
    tb_put(&tb, ">", 1);
    a->u.dense.text = ir_normalize_body(p->ctx, tb.s, (uint32_t)tb.len);
    free(tb.s);
  }
  *out = a;
  return true;
}
