/* printer.c - writes IR back as MLIR text that mlir-opt 22 accepts.
 *
 * Output is canonical: every attribute carries its type, floats use the shortest decimal that
 * reads back to the same value, SSA values are renamed (%N for results, %argN for block
 * arguments, numbered on into isolated-from-above regions, each starting where the names around it
 * end, as mlir-opt numbers; ^bbN for blocks per region). So
 * two inputs that differ only in spelling print the same text, which is what the round-trip
 * tests compare. Ops with a custom form (ops.def) print it unless the generic form is asked for;
 * a custom printer declines (returns false, before writing anything) when an op does not fit its
 * syntax, and the generic form is used.
 *
 * Output is buffered here and written with fwrite in large pieces. */
#include "ir/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct Printer {
  IrCtx *ctx;
  FILE *out;
  char *buf;
  size_t len, cap;
  int indent;
  PrintOptions opts;
};

static void flush(Printer *pr) {
  if (pr->len)
    fwrite(pr->buf, 1, pr->len, pr->out);
  pr->len = 0;
}

static inline void reserve(Printer *pr, size_t n) {
  if (pr->len + n > pr->cap) {
    flush(pr);
    if (n > pr->cap) {
      free(pr->buf);
      pr->cap = n * 2;
      pr->buf = malloc(pr->cap);
      if (!pr->buf)
        abort();
    }
  }
}

void pr_strn(Printer *pr, const char *s, size_t n) {
  reserve(pr, n);
  memcpy(pr->buf + pr->len, s, n);
  pr->len += n;
}

void pr_str(Printer *pr, const char *s) { pr_strn(pr, s, strlen(s)); }

void pr_char(Printer *pr, char c) {
  reserve(pr, 1);
  pr->buf[pr->len++] = c;
}

void pr_fmt(Printer *pr, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < (int)sizeof small) {
    pr_strn(pr, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big)
    abort();
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  pr_strn(pr, big, (size_t)n);
  free(big);
}

static void pr_u64(Printer *pr, uint64_t v) {
  char b[24];
  int i = 24;
  do {
    b[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  pr_strn(pr, b + i, (size_t)(24 - i));
}

static void pr_i64(Printer *pr, int64_t v) {
  if (v < 0) {
    pr_char(pr, '-');
    pr_u64(pr, (uint64_t)0 - (uint64_t)v);
  } else {
    pr_u64(pr, (uint64_t)v);
  }
}

bool pr_locations(Printer *pr) { return pr->opts.locations; }

static void newline(Printer *pr) {
  pr_char(pr, '\n');
  for (int i = 0; i < pr->indent; i++)
    pr_strn(pr, "  ", 2);
}

/* ---- Strings and identifiers ---------------------------------------------------------------- */

void pr_string(Printer *pr, Str s) {
  static const char hex[] = "0123456789ABCDEF";
  pr_char(pr, '"');
  for (uint32_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.s[i];
    uint32_t run = i; /* the longest run that needs no escape goes out at once */
    while (run < s.len && (unsigned char)s.s[run] >= 0x20 && (unsigned char)s.s[run] < 0x7f &&
           s.s[run] != '"' && s.s[run] != '\\')
      run++;
    if (run > i) {
      pr_strn(pr, s.s + i, run - i);
      i = run - 1;
      continue;
    }
    if (c == '"' || c == '\\') {
      pr_char(pr, '\\');
      pr_char(pr, (char)c);
    } else if (c >= 0x20 && c < 0x7f) {
      pr_char(pr, (char)c);
    } else {
      pr_char(pr, '\\');
      pr_char(pr, hex[c >> 4]);
      pr_char(pr, hex[c & 15]);
    }
  }
  pr_char(pr, '"');
}

static bool is_bare_id(Str s, bool allow_dot) {
  if (!s.len)
    return false;
  char c = s.s[0];
  if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
    return false;
  for (uint32_t i = 1; i < s.len; i++) {
    c = s.s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '$' || (allow_dot && c == '.')))
      return false;
  }
  return true;
}

void pr_symbol(Printer *pr, Str name) {
  pr_char(pr, '@');
  if (is_bare_id(name, true))
    pr_strn(pr, name.s, name.len);
  else
    pr_string(pr, name);
}

/* ---- Types ---------------------------------------------------------------------------------- */

static void print_type(Printer *pr, const Type *t, bool in_llvm);
static void print_attr(Printer *pr, const Attr *a, bool with_type);

static void print_type_list(Printer *pr, Type *const *ts, uint32_t n, bool in_llvm) {
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    print_type(pr, ts[i], in_llvm);
  }
}

static void print_dims(Printer *pr, const Type *t) {
  for (uint32_t i = 0; i < t->u.sh.rank; i++) {
    bool sc = t->u.sh.scalable && t->u.sh.scalable[i];
    if (sc)
      pr_char(pr, '[');
    if (t->u.sh.shape[i] == IR_DYNAMIC)
      pr_char(pr, '?');
    else
      pr_i64(pr, t->u.sh.shape[i]);
    if (sc)
      pr_char(pr, ']');
    pr_char(pr, 'x');
  }
}

static void print_type(Printer *pr, const Type *t, bool in_llvm) {
  const char *llvm = in_llvm ? "" : "!llvm.";
  switch (t->kind) {
  case TY_INT:
    pr_str(pr, t->u.i.sign == SIGNED ? "si" : t->u.i.sign == UNSIGNED ? "ui" : "i");
    pr_u64(pr, t->u.i.width);
    return;
  case TY_INDEX: pr_str(pr, "index"); return;
  case TY_FLOAT: pr_str(pr, ir_float_name(t->u.f)); return;
  case TY_NONE: pr_str(pr, "none"); return;
  case TY_FUNC:
    pr_char(pr, '(');
    print_type_list(pr, t->u.fn.in, t->u.fn.nin, false);
    pr_strn(pr, ") -> ", 5);
    if (t->u.fn.nout == 1 && t->u.fn.out[0]->kind != TY_FUNC) {
      print_type(pr, t->u.fn.out[0], false);
    } else {
      pr_char(pr, '(');
      print_type_list(pr, t->u.fn.out, t->u.fn.nout, false);
      pr_char(pr, ')');
    }
    return;
  case TY_TUPLE:
    pr_str(pr, "tuple<");
    print_type_list(pr, t->u.agg.elems, t->u.agg.n, false);
    pr_char(pr, '>');
    return;
  case TY_COMPLEX:
    pr_str(pr, "complex<");
    print_type(pr, t->u.arr.elem, false);
    pr_char(pr, '>');
    return;
  case TY_VECTOR: case TY_TENSOR: case TY_MEMREF: case TY_UNRANKED_MEMREF:
    pr_str(pr, t->kind == TY_VECTOR ? "vector<" : t->kind == TY_TENSOR ? "tensor<" : "memref<");
    if (t->u.sh.unranked)
      pr_strn(pr, "*x", 2);
    else
      print_dims(pr, t);
    print_type(pr, t->u.sh.elem, false);
    if (t->u.sh.layout) {
      pr_strn(pr, ", ", 2);
      pr_attr(pr, t->u.sh.layout);
    }
    if (t->u.sh.memspace) {
      /* a memref's memory space leaves out an i64 type, as MLIR prints it (`memref<4xf32, 3>`) */
      const Attr *ms = t->u.sh.memspace;
      bool i64 = (t->kind == TY_MEMREF || t->kind == TY_UNRANKED_MEMREF) && ms->kind == ATTR_INT && ms->type && ms->type->kind == TY_INT &&
                 ms->type->u.i.width == 64 && ms->type->u.i.sign == SIGNLESS;
      pr_strn(pr, ", ", 2);
      if (i64)
        print_attr(pr, ms, false);
      else
        pr_attr(pr, ms);
    }
    pr_char(pr, '>');
    return;
  case TY_GPU_TOKEN: pr_str(pr, "!gpu.async.token"); return;
  case TY_ASYNC_TOKEN: pr_str(pr, "!async.token"); return;
  case TY_ASYNC_GROUP: pr_str(pr, "!async.group"); return;
  case TY_ASYNC_VALUE:
    pr_str(pr, "!async.value<");
    print_type(pr, t->u.arr.elem, false);
    pr_char(pr, '>');
    return;
  case TY_LLVM_PTR:
    pr_str(pr, llvm);
    pr_str(pr, "ptr");
    if (t->u.ptr.addrspace) {
      pr_char(pr, '<');
      pr_u64(pr, t->u.ptr.addrspace);
      pr_char(pr, '>');
    }
    return;
  case TY_LLVM_VOID: pr_str(pr, llvm); pr_str(pr, "void"); return;
  case TY_LLVM_TOKEN: pr_str(pr, llvm); pr_str(pr, "token"); return;
  case TY_LLVM_ARRAY:
    pr_str(pr, llvm);
    pr_str(pr, "array<");
    pr_u64(pr, t->u.arr.count);
    pr_strn(pr, " x ", 3);
    print_type(pr, t->u.arr.elem, true);
    pr_char(pr, '>');
    return;
  case TY_LLVM_STRUCT:
    pr_str(pr, llvm);
    pr_str(pr, "struct<");
    if (t->u.agg.named) {
      pr_string(pr, t->u.agg.name);
      pr_strn(pr, ", ", 2);
      if (t->u.agg.opaque) {
        pr_str(pr, "opaque>");
        return;
      }
    }
    if (t->u.agg.packed)
      pr_str(pr, "packed ");
    pr_char(pr, '(');
    print_type_list(pr, t->u.agg.elems, t->u.agg.n, true);
    pr_strn(pr, ")>", 2);
    return;
  case TY_LLVM_FUNC:
    pr_str(pr, llvm);
    pr_str(pr, "func<");
    print_type(pr, t->u.lfn.ret, true);
    pr_strn(pr, " (", 2);
    print_type_list(pr, t->u.lfn.params, t->u.lfn.nparams, true);
    if (t->u.lfn.vararg)
      pr_str(pr, t->u.lfn.nparams ? ", ..." : "...");
    pr_strn(pr, ")>", 2);
    return;
  case TY_OPAQUE:
    if (in_llvm && ir_str_eq(t->u.opq.dialect, "llvm")) {
      pr_strn(pr, t->u.opq.body.s, t->u.opq.body.len);
      return;
    }
    pr_char(pr, '!');
    if (ir_str_eq(t->u.opq.dialect, "llvm"))
      pr_str(pr, "llvm.");
    pr_strn(pr, t->u.opq.body.s, t->u.opq.body.len);
    return;
  }
}

void pr_type(Printer *pr, const Type *t) { print_type(pr, t, false); }
void pr_types(Printer *pr, Type *const *ts, uint32_t n) { print_type_list(pr, ts, n, false); }

/* ---- Attributes ----------------------------------------------------------------------------- */

/* The bit pattern of a non-finite value of an IEEE type (NaN payloads are not kept). */
static bool nonfinite_bits(FloatKind fk, double v, char *b, size_t n) {
  if (!isnan(v) && !isinf(v))
    return false;
  bool neg = signbit(v);
  uint64_t bits;
  int digits;
  switch (fk) {
  case F_F16: bits = isnan(v) ? 0x7E00 : 0x7C00 | (neg ? 0x8000 : 0); digits = 4; break;
  case F_BF16: bits = isnan(v) ? 0x7FC0 : 0x7F80 | (neg ? 0x8000 : 0); digits = 4; break;
  case F_F32: bits = isnan(v) ? 0x7FC00000 : 0x7F800000 | (neg ? 0x80000000u : 0); digits = 8; break;
  case F_F64:
    bits = isnan(v) ? 0x7FF8000000000000ULL : 0x7FF0000000000000ULL | (neg ? 1ULL << 63 : 0);
    digits = 16;
    break;
  default: return false;
  }
  snprintf(b, n, "0x%0*llX", digits, (unsigned long long)bits);
  return true;
}

void ir_format_float(char *b, size_t n, double v, FloatKind fk) {
  if (nonfinite_bits(fk, v, b, n)) /* MLIR has no decimal spelling for these */
    return;
  /* the fewest digits that read back to the same value at the type's precision */
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(b, n, "%.*e", prec, v);
    if (ir_float_round(fk, strtod(b, NULL)) == v)
      break;
  }
}

static void print_float(Printer *pr, double v, const Type *t) {
  char b[64];
  ir_format_float(b, sizeof b, v, t && t->kind == TY_FLOAT ? t->u.f : F_F64);
  pr_str(pr, b);
}

static void print_loc(Printer *pr, const Loc *l);

static void print_attr(Printer *pr, const Attr *a, bool with_type) {
  switch (a->kind) {
  case ATTR_INT:
    if (a->u.i.big)
      pr_str(pr, a->u.i.big);
    else if (a->type && a->type->kind == TY_INT && a->type->u.i.sign == UNSIGNED)
      pr_u64(pr, a->type->u.i.width < 64 ? (uint64_t)a->u.i.v & ((1ULL << a->type->u.i.width) - 1)
                                          : (uint64_t)a->u.i.v);
    else
      pr_i64(pr, a->u.i.v);
    if (with_type) {
      pr_strn(pr, " : ", 3);
      pr_type(pr, a->type);
    }
    return;
  case ATTR_FLOAT:
    if (a->u.f.has_bits) {
      uint32_t w = a->type && a->type->kind == TY_FLOAT ? ir_float_width(a->type->u.f) : 64;
      pr_fmt(pr, "0x%0*llX", (int)((w + 3) / 4), (unsigned long long)a->u.f.bits);
    } else {
      print_float(pr, a->u.f.v, a->type);
    }
    if (with_type) {
      pr_strn(pr, " : ", 3);
      pr_type(pr, a->type);
    }
    return;
  case ATTR_BOOL: pr_str(pr, a->u.b ? "true" : "false"); return;
  case ATTR_UNIT: pr_str(pr, "unit"); return;
  case ATTR_STRING:
    pr_string(pr, a->u.str);
    if (a->type) {
      pr_strn(pr, " : ", 3);
      pr_type(pr, a->type);
    }
    return;
  case ATTR_ARRAY:
    pr_char(pr, '[');
    for (uint32_t i = 0; i < a->u.arr.n; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      print_attr(pr, a->u.arr.elems[i], true);
    }
    pr_char(pr, ']');
    return;
  case ATTR_DICT:
    pr_char(pr, '{');
    for (uint32_t i = 0; i < a->u.dict.n; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      NamedAttr *e = &a->u.dict.entries[i];
      if (is_bare_id(e->name, true))
        pr_strn(pr, e->name.s, e->name.len);
      else
        pr_string(pr, e->name);
      if (e->value->kind != ATTR_UNIT) {
        pr_strn(pr, " = ", 3);
        print_attr(pr, e->value, true);
      }
    }
    pr_char(pr, '}');
    return;
  case ATTR_DENSE_ARRAY:
    pr_str(pr, "array<");
    pr_type(pr, a->type);
    for (uint32_t i = 0; i < a->u.darr.n; i++) {
      pr_str(pr, i ? ", " : ": ");
      if (a->u.darr.fvals)
        print_float(pr, a->u.darr.fvals[i], a->type);
      else if (ir_type_is_integer(a->type, 1))
        pr_str(pr, a->u.darr.ivals[i] ? "true" : "false");
      else
        pr_i64(pr, a->u.darr.ivals[i]);
    }
    pr_char(pr, '>');
    return;
  case ATTR_DENSE: case ATTR_DENSE_RESOURCE: case ATTR_SPARSE:
    pr_strn(pr, a->u.str.s, a->u.str.len);
    if (a->type) {
      pr_strn(pr, " : ", 3);
      pr_type(pr, a->type);
    }
    return;
  case ATTR_AFFINE_MAP: case ATTR_INTEGER_SET: case ATTR_OPAQUE:
    pr_strn(pr, a->u.str.s, a->u.str.len);
    if (a->kind == ATTR_OPAQUE && a->type && with_type) { /* an unregistered dialect's, typed */
      pr_strn(pr, " : ", 3);
      pr_type(pr, a->type);
    }
    return;
  case ATTR_TYPE: pr_type(pr, a->type); return;
  case ATTR_SYMREF:
    for (uint32_t i = 0; i < a->u.sym.n; i++) {
      if (i)
        pr_strn(pr, "::", 2);
      pr_symbol(pr, a->u.sym.path[i]);
    }
    return;
  case ATTR_STRIDED:
    pr_str(pr, "strided<[");
    for (uint32_t i = 0; i < a->u.strided.n; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      if (a->u.strided.strides[i] == IR_DYNAMIC)
        pr_char(pr, '?');
      else
        pr_i64(pr, a->u.strided.strides[i]);
    }
    pr_char(pr, ']');
    if (a->u.strided.has_offset) {
      pr_str(pr, ", offset: ");
      if (a->u.strided.offset == IR_DYNAMIC)
        pr_char(pr, '?');
      else
        pr_i64(pr, a->u.strided.offset);
    }
    pr_char(pr, '>');
    return;
  case ATTR_LOC:
    pr_str(pr, "loc(");
    print_loc(pr, a->u.loc);
    pr_char(pr, ')');
    return;
  }
}

void pr_attr(Printer *pr, const Attr *a) { print_attr(pr, a, true); }
void pr_attr_no_type(Printer *pr, const Attr *a) { print_attr(pr, a, false); }

/* ---- Locations ------------------------------------------------------------------------------ */

static void print_loc(Printer *pr, const Loc *l) {
  switch (l->kind) {
  case LOC_UNKNOWN: pr_str(pr, "unknown"); return;
  case LOC_FILE:
    pr_string(pr, l->file);
    pr_char(pr, ':');
    pr_u64(pr, l->line);
    pr_char(pr, ':');
    pr_u64(pr, l->col);
    if (l->end_line)
      pr_fmt(pr, " to %u:%u", l->end_line, l->end_col);
    return;
  case LOC_NAME:
    pr_string(pr, l->file);
    if (l->n) {
      pr_char(pr, '(');
      print_loc(pr, l->kids[0]);
      pr_char(pr, ')');
    }
    return;
  case LOC_CALLSITE:
    pr_str(pr, "callsite(");
    print_loc(pr, l->kids[0]);
    pr_str(pr, " at ");
    print_loc(pr, l->kids[1]);
    pr_char(pr, ')');
    return;
  case LOC_FUSED:
    pr_str(pr, "fused");
    if (l->metadata) {
      pr_char(pr, '<');
      pr_attr(pr, l->metadata);
      pr_char(pr, '>');
    }
    pr_char(pr, '[');
    for (uint32_t i = 0; i < l->n; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      print_loc(pr, l->kids[i]);
    }
    pr_char(pr, ']');
    return;
  case LOC_OPAQUE: pr_str(pr, "unknown"); return;
  }
}

void pr_loc_suffix(Printer *pr, Loc *loc) {
  if (!pr->opts.locations || !loc)
    return;
  pr_str(pr, " loc(");
  print_loc(pr, loc);
  pr_char(pr, ')');
}

/* ---- Values and naming ---------------------------------------------------------------------- */

#define ARG_BIT 0x80000000u

/* Numbers the values of one isolated scope: results %N, block arguments %argN, blocks ^bbN. */
typedef struct Namer {
  uint32_t next_value, next_arg;
} Namer;

static void name_region(Namer *nm, Region *r);

static void name_op(Namer *nm, Op *op) {
  if (op->nresults) {
    uint32_t id = nm->next_value++;
    for (uint32_t i = 0; i < op->nresults; i++)
      op->results[i].id = id;
  }
  bool iso = op->info && (op->info->flags & OPF_ISOLATED);
  for (uint32_t i = 0; i < op->nregions; i++) {
    if (iso) { /* numbered on from the names above, which stay visible, and again from there for
                  the next region: as mlir-opt numbers */
      Namer inner = *nm;
      name_region(&inner, &op->regions[i]);
    } else {
      name_region(nm, &op->regions[i]);
    }
  }
}

static void name_region(Namer *nm, Region *r) {
  uint32_t bb = 0;
  for (Block *b = r->first; b; b = b->next) {
    b->id = bb++;
    for (uint32_t i = 0; i < b->nargs; i++)
      b->args[i].id = ARG_BIT | nm->next_arg++;
    for (Op *o = b->first; o; o = o->next)
      name_op(nm, o);
  }
}

void pr_value(Printer *pr, const Value *v) {
  if (v->index == UINT32_MAX) {
    pr_str(pr, "%<<undefined>>");
    return;
  }
  if (!v->def) {
    pr_strn(pr, "%arg", 4);
    pr_u64(pr, v->id & ~ARG_BIT);
    return;
  }
  pr_char(pr, '%');
  pr_u64(pr, v->id);
  if (v->def->nresults > 1) {
    pr_char(pr, '#');
    pr_u64(pr, v->index);
  }
}

void pr_values(Printer *pr, Value *const *vs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_value(pr, vs[i]);
  }
}

void pr_value_types(Printer *pr, Value *const *vs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (i)
      pr_strn(pr, ", ", 2);
    pr_type(pr, vs[i]->type);
  }
}

void pr_block_arg_decl(Printer *pr, Value *v) {
  pr_value(pr, v);
  pr_strn(pr, ": ", 2);
  pr_type(pr, v->type);
  pr_loc_suffix(pr, v->loc);
}

void pr_successor(Printer *pr, Block *b, Value *const *args, uint32_t nargs) {
  pr_strn(pr, "^bb", 3);
  pr_u64(pr, b->id);
  if (nargs) {
    pr_char(pr, '(');
    pr_values(pr, args, nargs);
    pr_strn(pr, " : ", 3);
    pr_value_types(pr, args, nargs);
    pr_char(pr, ')');
  }
}

/* ---- Attribute dictionaries ----------------------------------------------------------------- */

static bool elided(Str name, const char *const *elide) {
  for (; elide && *elide; elide++)
    if (ir_str_eq(name, *elide))
      return true;
  return false;
}

void pr_attr_dict(Printer *pr, const Op *op, const char *const *elide, bool with_keyword) {
  uint32_t n = 0;
  const Attr *dicts[2] = {op->props && op->props->kind == ATTR_DICT ? op->props : NULL, op->attrs};
  for (int d = 0; d < 2; d++)
    if (dicts[d])
      for (uint32_t i = 0; i < dicts[d]->u.dict.n; i++)
        n += !elided(dicts[d]->u.dict.entries[i].name, elide);
  if (!n)
    return;
  pr_str(pr, with_keyword ? " attributes {" : " {");
  bool first = true;
  for (int d = 0; d < 2; d++) {
    if (!dicts[d])
      continue;
    for (uint32_t i = 0; i < dicts[d]->u.dict.n; i++) {
      NamedAttr *e = &dicts[d]->u.dict.entries[i];
      if (elided(e->name, elide))
        continue;
      if (!first)
        pr_strn(pr, ", ", 2);
      first = false;
      if (is_bare_id(e->name, true))
        pr_strn(pr, e->name.s, e->name.len);
      else
        pr_string(pr, e->name);
      if (e->value->kind != ATTR_UNIT) {
        pr_strn(pr, " = ", 3);
        pr_attr(pr, e->value);
      }
    }
  }
  pr_char(pr, '}');
}

/* ---- Ops and regions ------------------------------------------------------------------------ */

static void print_op(Printer *pr, Op *op);

static void region(Printer *pr, Region *r, bool print_entry_args, bool print_empty_block,
                   bool print_terminators);

void pr_region(Printer *pr, Region *r, bool print_entry_args, bool print_empty_block) {
  region(pr, r, print_entry_args, print_empty_block, true);
}

void pr_region_no_terminators(Printer *pr, Region *r, bool print_entry_args) {
  region(pr, r, print_entry_args, false, false);
}

static void region(Printer *pr, Region *r, bool print_entry_args, bool print_empty_block,
                   bool print_terminators) {
  pr_char(pr, '{');
  pr->indent++;
  for (Block *b = r->first; b; b = b->next) {
    bool label = b != r->first || (print_entry_args && b->nargs) ||
                 (print_empty_block && !b->first && b == r->first && !b->next);
    if (label) {
      pr->indent--;
      newline(pr);
      pr_strn(pr, "^bb", 3);
      pr_u64(pr, b->id);
      if (b->nargs) {
        pr_char(pr, '(');
        for (uint32_t i = 0; i < b->nargs; i++) {
          if (i)
            pr_strn(pr, ", ", 2);
          pr_block_arg_decl(pr, &b->args[i]);
        }
        pr_char(pr, ')');
      }
      pr_char(pr, ':');
      pr->indent++;
    }
    for (Op *o = b->first; o; o = o->next) {
      if (!print_terminators && !o->next && o->info && (o->info->flags & OPF_TERMINATOR))
        break;
      newline(pr);
      print_op(pr, o);
    }
  }
  pr->indent--;
  newline(pr);
  pr_char(pr, '}');
}

static void print_generic(Printer *pr, Op *op) {
  pr_string(pr, op->name);
  pr_char(pr, '(');
  pr_values(pr, op->operands, op->noperands);
  pr_char(pr, ')');
  if (op->nsuccs) {
    pr_char(pr, '[');
    for (uint32_t i = 0; i < op->nsuccs; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_successor(pr, op->succs[i], NULL, 0);
    }
    pr_char(pr, ']');
  }
  if (op->props) {
    pr_strn(pr, " <", 2);
    pr_attr(pr, op->props);
    pr_char(pr, '>');
  }
  if (op->nregions) {
    pr_strn(pr, " (", 2);
    for (uint32_t i = 0; i < op->nregions; i++) {
      if (i)
        pr_strn(pr, ", ", 2);
      pr_region(pr, &op->regions[i], true, true);
    }
    pr_char(pr, ')');
  }
  if (op->attrs) {
    pr_char(pr, ' ');
    pr_attr(pr, op->attrs);
  }
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
}

static void print_op(Printer *pr, Op *op) {
  if (pr->len > (1u << 20))
    flush(pr);
  if (op->nresults) {
    pr_char(pr, '%');
    pr_u64(pr, op->results[0].id);
    if (op->nresults > 1) {
      pr_char(pr, ':');
      pr_u64(pr, op->nresults);
    }
    pr_strn(pr, " = ", 3);
  }
  bool done = false;
  if (!pr->opts.generic && op->info && op->info->print) {
    size_t mark = pr->len;
    pr_str(pr, op->info->name);
    done = op->info->print(pr, op);
    if (!done)
      pr->len = mark; /* printers decline before writing; see the note at the top */
  }
  if (!done)
    print_generic(pr, op);
  pr_loc_suffix(pr, op->loc);
}

void ir_print(IrCtx *ctx, FILE *out, Op *top, const PrintOptions *opts) {
  Printer pr = {0};
  pr.ctx = ctx;
  pr.out = out;
  pr.cap = 1 << 21;
  pr.buf = malloc(pr.cap);
  if (!pr.buf)
    abort();
  if (opts)
    pr.opts = *opts;
  Namer nm = {0, 0};
  name_op(&nm, top);
  print_op(&pr, top);
  pr_char(&pr, '\n');
  flush(&pr);
  free(pr.buf);
}

/* A type or an attribute as text, in the arena (for diagnostics). */
static const char *as_text(IrCtx *ctx, const Type *t, const Attr *a) {
  Printer pr = {0};
  pr.ctx = ctx;
  pr.cap = 256;
  pr.buf = malloc(pr.cap);
  if (!pr.buf)
    abort();
  char *out = NULL;
  size_t len = 0;
  pr.out = open_memstream(&out, &len);
  if (!pr.out)
    abort();
  if (t)
    pr_type(&pr, t);
  else
    pr_attr(&pr, a);
  flush(&pr);
  fclose(pr.out);
  free(pr.buf);
  char *s = ir_alloc(ctx, len + 1);
  memcpy(s, out, len);
  free(out);
  return s;
}

const char *ir_type_str(IrCtx *ctx, const Type *t) { return as_text(ctx, t, NULL); }
const char *ir_attr_str(IrCtx *ctx, const Attr *a) { return as_text(ctx, NULL, a); }
