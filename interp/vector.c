/* vector.c - the vector dialect on the host, for fixed-size vectors.
 *
 * A vector<AxBxT> value is A*B words in row-major order, one element per word held as arith.c
 * holds scalars (integers sign-extended from their width, f32 and narrower in Slot.f32). Ops here
 * move words: print, broadcast, from_elements, extract/insert (static or dynamic positions),
 * shape_cast, reduction, load/store of contiguous memory, transfer_read/write, fma. Elementwise
 * arith and math on vectors are in arith.c.
 *
 * vector.print writes what upstream's lowering (--convert-vector-to-llvm and the runner utils)
 * writes: "( 1, 2 )" with nested parentheses per dimension, floats as %g, index, i1 and unsigned
 * integers unsigned, other integers signed; then the punctuation (a newline by default; none
 * after a string). */
#include "interp/internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The address of element off (in elements) of descriptor d, checked: the arithmetic, and the
 * memory table for the n elements from there (a view outside the memory the program owns is an
 * error, not a wild access). NULL after a located error. */
static char *velem(Frame *fr, const Ins *ins, const Slot *d, int64_t off, uint32_t esize, uint32_t n) {
  int64_t b = 0;
  if (!interp_madd(&b, off, (int64_t)esize)) {
    interp_error(fr, ins, "the element's offset %lld overflows", (long long)off);
    return NULL;
  }
  char *p = (char *)((uintptr_t)d[1].p + (uintptr_t)b);
  return interp_mem_owned(fr, ins, p, (uint64_t)esize * n, "access") ? p : NULL;
}

static int overflows(Frame *fr, const Ins *ins) {
  return interp_error(fr, ins, "index arithmetic overflows (an offset, index or stride too large)");
}

static bool fixed_vector(const Type *t) {
  if (t->kind != TY_VECTOR)
    return false;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.scalable && t->u.sh.scalable[i])
      return false;
  return true;
}

static Type *elem_of(Type *t) { return t->kind == TY_VECTOR ? t->u.sh.elem : t; }

/* row-major index of idx in shape */
static uint32_t linear(const int64_t *shape, const int64_t *idx, uint32_t rank) {
  uint64_t off = 0;
  for (uint32_t d = 0; d < rank; d++)
    off = off * (uint64_t)shape[d] + (uint64_t)idx[d];
  return (uint32_t)off;
}

static void unlinear(const int64_t *shape, uint32_t rank, uint32_t i, int64_t *idx) {
  for (uint32_t d = rank; d-- > 0;) {
    idx[d] = i % (uint32_t)shape[d];
    i /= (uint32_t)shape[d];
  }
}

static bool all_fixed(Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type->kind == TY_VECTOR && (!fixed_vector(op->operands[i]->type) ||
                                                     op->operands[i]->type->u.sh.rank > 16))
      return false;
  for (uint32_t i = 0; i < op->nresults; i++)
    if (op->results[i].type->kind == TY_VECTOR && (!fixed_vector(op->results[i].type) ||
                                                   op->results[i].type->u.sh.rank > 16))
      return false;
  return true;
}

static int64_t *i64_list(Op *op, const char *name, uint32_t *n) {
  Attr *a = ir_op_attr(op, name);
  if (a && a->kind == ATTR_DENSE_ARRAY && (a->u.darr.ivals || !a->u.darr.n)) {
    *n = a->u.darr.n;
    return a->u.darr.ivals;
  }
  return NULL;
}

/* offsets = [0, 1] (an array of integer attributes) as numbers */
static bool int_array(Comp *c, Op *op, const char *name, int64_t **out, uint32_t *n) {
  Attr *a = ir_op_attr(op, name);
  if (!a || a->kind != ATTR_ARRAY)
    return false;
  *n = a->u.arr.n;
  *out = ir_alloc(c->in->ctx, (*n + 1) * sizeof **out);
  for (uint32_t i = 0; i < *n; i++) {
    if (a->u.arr.elems[i]->kind != ATTR_INT)
      return false;
    (*out)[i] = a->u.arr.elems[i]->u.i.v;
  }
  return true;
}

/* ---- vector.print --------------------------------------------------------------------------- */

typedef struct Print {
  Type *type;     /* the printed value's type, NULL for a string */
  const char *punct; /* what follows: "\n", ", ", "( ", " )" or "" */
  Str text;          /* stringLiteral */
  bool is_str;
} Print;

static void print_scalar(FILE *out, const Type *t, const Slot *s) {
  if (t->kind == TY_FLOAT) {
    fprintf(out, "%g", t->u.f == F_F64 ? s->f : (double)s->f32);
    return;
  }
  uint32_t w = interp_int_width(t);
  if (t->kind == TY_INDEX || w == 1 || (t->kind == TY_INT && t->u.i.sign == UNSIGNED))
    fprintf(out, "%" PRIu64, interp_zext(s->i, w));
  else
    fprintf(out, "%" PRId64, s->i);
}

static void print_dims(FILE *out, const Type *t, const Slot *s, uint32_t dim, uint64_t *k) {
  fputs("( ", out);
  int64_t n = t->u.sh.rank ? t->u.sh.shape[dim] : 1;
  for (int64_t i = 0; i < n; i++) {
    if (i)
      fputs(", ", out);
    if (dim + 1 < t->u.sh.rank)
      print_dims(out, t, s, dim + 1, k);
    else
      print_scalar(out, t->u.sh.elem, &s[(*k)++]);
  }
  fputs(" )", out);
}

static int x_print(Frame *fr, const Ins *ins) {
  const Print *p = ins->aux;
  FILE *out = fr->in->out;
  if (p->is_str) {
    fwrite(p->text.s, 1, p->text.len, out); /* upstream adds no punctuation to a string */
    return EX_NEXT;
  }
  if (!p->type) {
    /* punctuation alone */
  } else if (p->type->kind == TY_VECTOR) {
    uint64_t k = 0;
    print_dims(out, p->type, &fr->s[ins->in[0]], 0, &k);
  } else {
    print_scalar(out, p->type, &fr->s[ins->in[0]]);
  }
  fputs(p->punct, out);
  return EX_NEXT;
}

static bool printable(const Type *t) {
  t = elem_of((Type *)t);
  if (t->kind == TY_FLOAT)
    return t->u.f == F_F64 || t->u.f == F_F32 || t->u.f == F_F16 || t->u.f == F_BF16;
  return (t->kind == TY_INT && t->u.i.width <= 64) || t->kind == TY_INDEX;
}

bool c_vector_print(Comp *c, Op *op, Ins *ins) {
  static const struct {
    const char *name, *text;
  } puncts[] = {{"newline", "\n"}, {"no_punctuation", ""}, {"comma", ", "}, {"open", "( "}, {"close", " )"}};
  Print *p = ir_alloc(c->in->ctx, sizeof *p);
  Attr *pu = ir_op_attr(op, "punctuation");
  Attr *str = ir_op_attr(op, "stringLiteral");
  p->punct = "\n";
  if (pu) {
    p->punct = NULL;
    for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
      char want[64];
      snprintf(want, sizeof want, "#vector.punctuation<%s>", puncts[i].name);
      if (pu->kind == ATTR_OPAQUE && ir_str_eq(pu->u.str, want))
        p->punct = puncts[i].text;
    }
    if (!p->punct)
      return interp_unsupported(c, op, "this punctuation");
  }
  if (str && str->kind == ATTR_STRING) {
    p->text = str->u.str;
    p->is_str = true;
  } else if (op->noperands == 1) {
    p->type = op->operands[0]->type;
    if ((p->type->kind == TY_VECTOR && !fixed_vector(p->type)) || !printable(p->type))
      return interp_unsupported(c, op, "printing a value of this type");
  } else if (op->noperands) {
    return interp_unsupported(c, op, "this form of vector.print");
  }
  ins->aux = p;
  ins->fn = x_print;
  return true;
}

/* ---- moving words --------------------------------------------------------------------------- */

/* Every op below is a list of word copies decided at compile time where positions are static;
 * dynamic positions are added at run time. */
typedef struct Move {
  uint32_t n;          /* words to copy */
  uint32_t src_words;  /* words of the source vector */
  int64_t *pos;        /* extract/insert: static position, IR_DYNAMIC for operands */
  uint32_t npos, first_dyn;
  int64_t *shape;      /* the source (extract) or destination (insert) shape */
  uint32_t rank;
} Move;

/* the word offset of position pos in shape, or -1 when out of range (reported by the caller) */
static int64_t offset_of(Frame *fr, const Ins *ins, const Move *m, int64_t *bad) {
  int64_t off = 0;
  uint32_t k = m->first_dyn;
  for (uint32_t d = 0; d < m->rank; d++) {
    int64_t x = 0;
    if (d < m->npos)
      x = m->pos[d] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : m->pos[d];
    if (x < 0 || x >= m->shape[d]) {
      *bad = x;
      return -1 - (int64_t)d;
    }
    off = off * m->shape[d] + x;
  }
  return off;
}

static int x_extract(Frame *fr, const Ins *ins) {
  const Move *m = ins->aux;
  int64_t bad = 0, off = offset_of(fr, ins, m, &bad);
  if (off < 0)
    return interp_error(fr, ins, "position %lld is out of range in dimension %lld", (long long)bad,
                        (long long)(-1 - off));
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[0] + (uint32_t)off], m->n);
  return EX_NEXT;
}

static int x_insert(Frame *fr, const Ins *ins) {
  const Move *m = ins->aux;
  int64_t bad = 0, off = offset_of(fr, ins, m, &bad);
  if (off < 0)
    return interp_error(fr, ins, "position %lld is out of range in dimension %lld", (long long)bad,
                        (long long)(-1 - off));
  Slot tmp[64];
  Slot *v = m->n <= 64 ? tmp : malloc(m->n * sizeof(Slot));
  if (!v)
    return interp_error(fr, ins, "out of memory");
  interp_copy(v, &fr->s[ins->in[0]], m->n);
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[1]], m->src_words);
  interp_copy(&fr->s[ins->out[0] + (uint32_t)off], v, m->n);
  if (v != tmp)
    free(v);
  return EX_NEXT;
}

/* positions select the leading dimensions; the words of one element of what is left */
static Move *position(Comp *c, Op *op, Type *vec, Type *part) {
  Attr *sp = ir_op_attr(op, "static_position");
  if (!fixed_vector(vec) || !sp || sp->kind != ATTR_DENSE_ARRAY || sp->u.darr.n > vec->u.sh.rank ||
      (sp->u.darr.n && !sp->u.darr.ivals))
    return NULL;
  Move *m = ir_alloc(c->in->ctx, sizeof *m);
  m->pos = sp->u.darr.ivals;
  m->npos = sp->u.darr.n;
  m->shape = vec->u.sh.shape;
  m->rank = vec->u.sh.rank;
  m->src_words = interp_words(vec);
  m->n = interp_words(part);
  /* offset_of walks every dimension: positions beyond npos count as 0, so the offset is in
   * elements; a part of several words starts at that element */
  return m;
}

bool c_vector_extract(Comp *c, Op *op, Ins *ins) {
  Move *m = position(c, op, op->operands[0]->type, op->results[0].type);
  if (!m)
    return interp_unsupported(c, op, "this vector.extract");
  m->first_dyn = 1;
  ins->aux = m;
  ins->fn = x_extract;
  return true;
}

bool c_vector_insert(Comp *c, Op *op, Ins *ins) {
  Move *m = position(c, op, op->operands[1]->type, op->operands[0]->type);
  if (!m)
    return interp_unsupported(c, op, "this vector.insert");
  m->first_dyn = 2;
  ins->aux = m;
  ins->fn = x_insert;
  return true;
}

/* broadcast: the source's words repeated to fill the result (a scalar, or a vector matching the
 * result's trailing dimensions, possibly with unit dimensions stretched) */
typedef struct Bcast {
  uint32_t n;
  uint32_t *from; /* source word of each result word */
} Bcast;

static int x_broadcast(Frame *fr, const Ins *ins) {
  const Bcast *b = ins->aux;
  Slot tmp[256];
  Slot *src = &fr->s[ins->in[0]];
  if (ins->in[0] < ins->out[0] + b->n && ins->out[0] < ins->in[0] + ins->a) {
    interp_copy(tmp, src, ins->a <= 256 ? ins->a : 256);
    src = tmp;
  }
  for (uint32_t i = 0; i < b->n; i++)
    fr->s[ins->out[0] + i] = src[b->from[i]];
  return EX_NEXT;
}

bool c_vector_broadcast(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  if (!fixed_vector(rt) || (st->kind == TY_VECTOR && !fixed_vector(st)) || interp_words(st) > 256)
    return interp_unsupported(c, op, "this broadcast");
  Bcast *b = ir_alloc(c->in->ctx, sizeof *b);
  b->n = interp_words(rt);
  b->from = ir_alloc(c->in->ctx, b->n * sizeof *b->from);
  uint32_t srank = st->kind == TY_VECTOR ? st->u.sh.rank : 0, rrank = rt->u.sh.rank;
  if (srank > rrank)
    return interp_unsupported(c, op, "this broadcast");
  for (uint32_t i = 0; i < b->n; i++) {
    /* the result index of word i, mapped onto the source's trailing dimensions */
    uint32_t rem = i, from = 0, mul = 1;
    for (uint32_t d = rrank; d-- > 0;) {
      uint32_t x = rem % (uint32_t)rt->u.sh.shape[d];
      rem /= (uint32_t)rt->u.sh.shape[d];
      if (d + srank >= rrank) {
        uint32_t sd = d + srank - rrank, n = (uint32_t)st->u.sh.shape[sd];
        from += (n == 1 ? 0 : x) * mul;
        mul *= n;
      }
    }
    b->from[i] = from;
  }
  ins->a = interp_words(st);
  ins->aux = b;
  ins->fn = x_broadcast;
  return true;
}

/* from_elements, shape_cast: words in order */
static int x_gather(Frame *fr, const Ins *ins) {
  for (uint32_t i = 0; i < ins->nin; i++)
    fr->s[ins->out[0] + i] = fr->s[ins->in[i]];
  return EX_NEXT;
}

bool c_vector_from_elements(Comp *c, Op *op, Ins *ins) {
  if (!fixed_vector(op->results[0].type) || interp_words(op->results[0].type) != op->noperands)
    return interp_unsupported(c, op, "this from_elements");
  ins->fn = x_gather;
  return true;
}

static int x_copy_words(Frame *fr, const Ins *ins) {
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[0]], ins->a);
  return EX_NEXT;
}

bool c_vector_shape_cast(Comp *c, Op *op, Ins *ins) {
  if (!fixed_vector(op->results[0].type) || !fixed_vector(op->operands[0]->type))
    return interp_unsupported(c, op, "this shape_cast");
  ins->a = interp_words(op->results[0].type);
  ins->fn = x_copy_words;
  return true;
}

/* ---- vector.reduction ----------------------------------------------------------------------- */

enum { R_ADD, R_MUL, R_MINUI, R_MINSI, R_MINNUMF, R_MAXUI, R_MAXSI, R_MAXNUMF, R_AND, R_OR, R_XOR,
       R_MINIMUMF, R_MAXIMUMF, R_NKINDS };
static const char *const red_names[] = {"add",  "mul",     "minui", "minsi",    "minnumf",  "maxui", "maxsi",
                                        "maxnumf", "and",   "or",    "xor",      "minimumf", "maximumf"};

typedef struct Red {
  Type *et;
  uint32_t n, kind, width;
  bool acc; /* an accumulator operand */
} Red;

static double getf(const Type *t, const Slot *s) { return t->u.f == F_F64 ? s->f : (double)s->f32; }

static void setf(const Type *t, Slot *s, double v) {
  if (t->u.f == F_F64)
    s->f = v;
  else
    s->f32 = (float)(t->u.f == F_F32 ? v : ir_float_round(t->u.f, v));
}

static Slot combine(const Red *r, Slot a, Slot b) {
  Slot o = {0};
  if (r->et->kind == TY_FLOAT) {
    double x = getf(r->et, &a), y = getf(r->et, &b), v;
    switch (r->kind) {
    case R_ADD: v = x + y; break;
    case R_MUL: v = x * y; break;
    case R_MINNUMF: v = fmin(x, y); break;
    case R_MAXNUMF: v = fmax(x, y); break;
    case R_MINIMUMF: v = isnan(x) || isnan(y) ? NAN : x == y ? (signbit(x) ? x : y) : x < y ? x : y; break;
    default: v = isnan(x) || isnan(y) ? NAN : x == y ? (signbit(x) ? y : x) : x > y ? x : y; break;
    }
    setf(r->et, &o, v);
    return o;
  }
  uint64_t ua = interp_zext(a.i, r->width), ub = interp_zext(b.i, r->width);
  switch (r->kind) {
  case R_ADD: o.i = interp_sext(ua + ub, r->width); break;
  case R_MUL: o.i = interp_sext(ua * ub, r->width); break;
  case R_MINUI: o = ua < ub ? a : b; break;
  case R_MAXUI: o = ua > ub ? a : b; break;
  case R_MINSI: o = a.i < b.i ? a : b; break;
  case R_MAXSI: o = a.i > b.i ? a : b; break;
  case R_AND: o.i = a.i & b.i; break;
  case R_OR: o.i = a.i | b.i; break;
  default: o.i = a.i ^ b.i; break;
  }
  return o;
}

/* in order from the accumulator, as LLVM's ordered reductions do (it matters for float sums) */
static int x_reduction(Frame *fr, const Ins *ins) {
  const Red *r = ins->aux;
  const Slot *v = &fr->s[ins->in[0]];
  Slot acc = r->acc ? combine(r, fr->s[ins->in[1]], v[0]) : v[0];
  for (uint32_t i = 1; i < r->n; i++)
    acc = combine(r, acc, v[i]);
  fr->s[ins->out[0]] = acc;
  return EX_NEXT;
}

static Red *red_kind(Comp *c, Op *op, Type *vt) {
  Attr *k = ir_op_attr(op, "kind");
  if (!fixed_vector(vt) || !interp_words(vt) || !k || k->kind != ATTR_OPAQUE) {
    interp_unsupported(c, op, "this reduction");
    return NULL;
  }
  Red *r = ir_alloc(c->in->ctx, sizeof *r);
  r->kind = R_NKINDS;
  for (uint32_t i = 0; i < R_NKINDS; i++) {
    char want[64];
    snprintf(want, sizeof want, "#vector.kind<%s>", red_names[i]);
    if (ir_str_eq(k->u.str, want))
      r->kind = i;
  }
  r->et = vt->u.sh.elem;
  r->n = interp_words(vt);
  r->width = interp_int_width(r->et);
  r->acc = op->noperands > 1;
  bool fk = r->kind == R_MINNUMF || r->kind == R_MAXNUMF || r->kind == R_MINIMUMF || r->kind == R_MAXIMUMF;
  bool fits = r->et->kind == TY_FLOAT ? fk || r->kind == R_ADD || r->kind == R_MUL : !fk;
  if (r->kind == R_NKINDS || !fits ||
      (r->et->kind == TY_FLOAT && r->et->u.f != F_F64 && r->et->u.f != F_F32 && r->et->u.f != F_F16 &&
       r->et->u.f != F_BF16) || (r->et->kind != TY_FLOAT && !r->width)) {
    interp_unsupported(c, op, "this reduction kind or element type");
    return NULL;
  }
  return r;
}

bool c_vector_reduction(Comp *c, Op *op, Ins *ins) {
  Red *r = red_kind(c, op, op->operands[0]->type);
  if (!r)
    return false;
  ins->aux = r;
  ins->fn = x_reduction;
  return true;
}

/* multi_reduction: every source word folds, in order, into the accumulator word of its kept
 * dimensions (a scalar when all are reduced) */
typedef struct MultiRed {
  Red *r;
  uint32_t nacc;
  uint32_t *to; /* accumulator word of each source word */
} MultiRed;

static int x_multi_reduction(Frame *fr, const Ins *ins) {
  const MultiRed *m = ins->aux;
  Slot acc[256];
  interp_copy(acc, &fr->s[ins->in[1]], m->nacc);
  const Slot *v = &fr->s[ins->in[0]];
  for (uint32_t i = 0; i < m->r->n; i++)
    acc[m->to[i]] = combine(m->r, acc[m->to[i]], v[i]);
  interp_copy(&fr->s[ins->out[0]], acc, m->nacc);
  return EX_NEXT;
}

bool c_multi_reduction(Comp *c, Op *op, Ins *ins) {
  Type *vt = op->operands[0]->type;
  uint32_t nd;
  int64_t *dims = i64_list(op, "reduction_dims", &nd);
  Red *r = red_kind(c, op, vt);
  if (!r)
    return false;
  if (!dims || vt->u.sh.rank > 16 || interp_words(op->operands[1]->type) > 256)
    return interp_unsupported(c, op, "this multi_reduction");
  MultiRed *m = ir_alloc(c->in->ctx, sizeof *m);
  m->r = r;
  m->nacc = interp_words(op->operands[1]->type);
  m->to = ir_alloc(c->in->ctx, (r->n + 1) * sizeof *m->to);
  bool reduced[16] = {false};
  for (uint32_t i = 0; i < nd; i++)
    if (dims[i] >= 0 && dims[i] < (int64_t)vt->u.sh.rank)
      reduced[dims[i]] = true;
  int64_t idx[16];
  for (uint32_t i = 0; i < r->n; i++) {
    unlinear(vt->u.sh.shape, vt->u.sh.rank, i, idx);
    uint64_t t = 0;
    for (uint32_t d = 0; d < vt->u.sh.rank; d++)
      if (!reduced[d])
        t = t * (uint64_t)vt->u.sh.shape[d] + (uint64_t)idx[d];
    m->to[i] = (uint32_t)t;
  }
  ins->aux = m;
  ins->fn = x_multi_reduction;
  return true;
}

/* outerproduct: lhs[i] * rhs[j] (or * a scalar rhs), folded into the accumulator with the kind;
 * a float add with an accumulator is an fma, as upstream lowers it */
typedef struct Outer {
  Red *r;
  uint32_t m, n; /* n == 0: scalar rhs */
  bool acc;
} Outer;

static int x_outerproduct(Frame *fr, const Ins *ins) {
  const Outer *o = ins->aux;
  const Red *r = o->r;
  const Slot *x = &fr->s[ins->in[0]], *y = &fr->s[ins->in[1]];
  const Slot *acc = o->acc ? &fr->s[ins->in[2]] : NULL;
  uint32_t n = o->n ? o->n : 1;
  Slot *out = &fr->s[ins->out[0]];
  for (uint32_t i = 0; i < o->m; i++)
    for (uint32_t j = 0; j < n; j++) {
      Slot p = {0}, a = o->acc ? acc[i * n + j] : (Slot){0};
      if (r->et->kind == TY_FLOAT) {
        double xv = getf(r->et, &x[i]), yv = getf(r->et, &y[o->n ? j : 0]);
        if (o->acc && r->kind == R_ADD) {
          setf(r->et, &out[i * n + j], fma(xv, yv, getf(r->et, &a)));
          continue;
        }
        setf(r->et, &p, xv * yv);
      } else {
        p.i = interp_sext(interp_zext(x[i].i, r->width) * interp_zext(y[o->n ? j : 0].i, r->width), r->width);
      }
      out[i * n + j] = o->acc ? combine(r, a, p) : p;
    }
  return EX_NEXT;
}

bool c_outerproduct(Comp *c, Op *op, Ins *ins) {
  Type *xt = op->operands[0]->type, *yt = op->operands[1]->type;
  Red *r = red_kind(c, op, xt);
  if (!r)
    return false;
  Outer *o = ir_alloc(c->in->ctx, sizeof *o);
  o->r = r;
  o->m = interp_words(xt);
  o->n = yt->kind == TY_VECTOR ? interp_words(yt) : 0;
  o->acc = op->noperands > 2;
  if (xt->u.sh.rank != 1 || (yt->kind == TY_VECTOR && (!fixed_vector(yt) || yt->u.sh.rank != 1)))
    return interp_unsupported(c, op, "this outerproduct");
  ins->aux = o;
  ins->fn = x_outerproduct;
  return true;
}

/* ---- vector.fma ----------------------------------------------------------------------------- */

static int x_vfma(Frame *fr, const Ins *ins) {
  const Type *et = ins->aux;
  for (uint32_t i = 0; i < ins->a; i++) {
    Slot *o = &fr->s[ins->out[0] + i];
    setf(et, o, fma(getf(et, &fr->s[ins->in[0] + i]), getf(et, &fr->s[ins->in[1] + i]),
                    getf(et, &fr->s[ins->in[2] + i])));
  }
  return EX_NEXT;
}

bool c_vector_fma(Comp *c, Op *op, Ins *ins) {
  Type *t = op->results[0].type, *et = elem_of(t);
  if (!fixed_vector(t) || et->kind != TY_FLOAT ||
      (et->u.f != F_F64 && et->u.f != F_F32 && et->u.f != F_F16 && et->u.f != F_BF16))
    return interp_unsupported(c, op, "this fma");
  ins->a = interp_words(t);
  ins->aux = et;
  ins->fn = x_vfma;
  return true;
}

/* ---- reporting host accesses ---------------------------------------------------------------- */

/* The memory ops below go over their lanes twice: first to check every lane and report what
 * they will touch to the backend (a run of adjacent elements as one access, so a race names
 * exactly the bytes touched and is reported once per run), then, when nothing was refused, to
 * make the accesses. So an op with a bad lane touches nothing. */
typedef struct Lanes {
  Backend *be;
  const char *loc;
  uintptr_t lo, hi; /* the run not reported yet */
  bool write, ok;   /* ok: false once the backend refused an access */
} Lanes;

static void lanes_flush(Lanes *l) {
  if (l->ok && l->be && l->hi > l->lo &&
      be_host_access(l->be, (void *)l->lo, l->hi - l->lo, l->write, l->loc) != BE_OK)
    l->ok = false;
  l->lo = l->hi = 0;
}

static void lanes_add(Lanes *l, const char *p, uint32_t esize) {
  if (!l->hi || (uintptr_t)p != l->hi) {
    lanes_flush(l);
    l->lo = l->hi = (uintptr_t)p;
  }
  l->hi += esize;
}

/* ---- vector.load / vector.store ------------------------------------------------------------- */

/* A 1-D vector of n consecutive elements of the innermost dimension (which must have stride 1),
 * bounds-checked like memref.load and reported to the backend as one access. */
typedef struct VMem {
  Type *mt;       /* the memref type */
  uint32_t n, rank, esize;
  const char *loc;
  bool store;
} VMem;

static int x_vmem(Frame *fr, const Ins *ins) {
  const VMem *v = ins->aux;
  uint32_t mi = v->store ? 1 : 0;
  Slot *d = &fr->s[ins->in[mi]];
  int64_t off = d[2].i;
  const int64_t *sz = &d[3].i, *st = &d[3 + v->rank].i;
  for (uint32_t i = 0; i < v->rank; i++) {
    int64_t x = fr->s[ins->in[mi + 1 + i]].i;
    int64_t last = x;
    if (i + 1 == v->rank && __builtin_add_overflow(x, (int64_t)v->n - 1, &last))
      return overflows(fr, ins);
    if (x < 0 || last >= sz[i])
      return interp_error(fr, ins, "out-of-bounds access: indices [%lld, %lld] are not in [0, %lld) in dimension %u",
                          (long long)x, (long long)last, (long long)sz[i], i);
    if (!interp_madd(&off, x, st[i]))
      return overflows(fr, ins);
  }
  int64_t inner = st[v->rank - 1];
  if (inner != 1)
    return interp_error(fr, ins, "the innermost dimension has stride %lld, not 1", (long long)inner);
  const Type *et = v->mt->u.sh.elem;
  char *p0 = velem(fr, ins, d, off, v->esize, v->n); /* the n elements are in bounds of the last dimension */
  if (!p0 || (fr->in->be && be_host_access(fr->in->be, p0, (size_t)v->n * v->esize, v->store, v->loc) != BE_OK))
    return EX_ERROR;
  for (uint32_t e = 0; e < v->n; e++) {
    char *p = p0 + (size_t)e * v->esize;
    if (v->store)
      interp_store_elem(et, p, &fr->s[ins->in[0] + e]);
    else
      interp_load_elem(et, p, &fr->s[ins->out[0] + e]);
  }
  return EX_NEXT;
}

static bool vmem(Comp *c, Op *op, Ins *ins, Type *vt, Type *mt, bool store) {
  if (!fixed_vector(vt) || vt->u.sh.rank != 1 || mt->kind != TY_MEMREF || mt->u.sh.elem->kind == TY_VECTOR ||
      !interp_elem_bytes(mt->u.sh.elem))
    return interp_unsupported(c, op, "this vector memory access (1-D vectors of memref elements only)");
  VMem *v = ir_alloc(c->in->ctx, sizeof *v);
  v->mt = mt;
  v->n = interp_words(vt);
  v->rank = mt->u.sh.rank;
  v->esize = interp_elem_bytes(mt->u.sh.elem);
  v->loc = interp_loc(c, op);
  v->store = store;
  if (!v->rank)
    return interp_unsupported(c, op, "a vector access to a rank-0 memref");
  if (v->rank > 16)
    return interp_unsupported(c, op, "a vector access to a memref of rank above 16");
  Attr *lay = mt->u.sh.layout;
  if (lay && lay->kind == ATTR_STRIDED && lay->u.strided.n == v->rank &&
      lay->u.strided.strides[v->rank - 1] != 1 && lay->u.strided.strides[v->rank - 1] != IR_DYNAMIC) {
    ir_op_error(c->in->ctx, op, "most minor memref dim must have unit stride");
    c->in->errors++;
    return false;
  }
  ins->aux = v;
  ins->fn = x_vmem;
  return true;
}

bool c_vector_load(Comp *c, Op *op, Ins *ins) {
  return vmem(c, op, ins, op->results[0].type, op->operands[0]->type, false);
}

bool c_vector_store(Comp *c, Op *op, Ins *ins) {
  return vmem(c, op, ins, op->operands[0]->type, op->operands[1]->type, true);
}

/* ---- vector.transfer_read / transfer_write -------------------------------------------------- */

/* Vector dimension k walks memref dimension dim[k] (or none: a broadcast, for reads) from the base
 * indices, in the order the permutation map gives. Elements outside the memref read as the
 * padding value and are not written, except in an in_bounds dimension, where that is an error;
 * masked-off elements likewise. */
typedef struct Transfer {
  Type *mt, *vt;
  uint32_t mrank, vrank, n, esize;
  int32_t dim[16];     /* memref dimension of each vector dimension, -1 for a broadcast */
  bool in_bounds[16];
  bool write, mask;
  const char *loc;
} Transfer;

/* Where element e of a transfer lies: 1 (at *p), 0 when it touches no memory (outside the memref
 * or masked off), -1 after an error. */
static int transfer_at(Frame *fr, const Ins *ins, const Transfer *t, const Slot *d,
                       const int64_t *base, const Slot *mask, uint32_t e, char **p) {
  const int64_t *sz = &d[3].i, *st = &d[3 + t->mrank].i;
  int64_t idx[16] = {0}, at[16];
  /* idx: the vector index of element e, row-major */
  uint32_t rem = e;
  for (uint32_t k = t->vrank; k-- > 0;) {
    idx[k] = rem % (uint32_t)t->vt->u.sh.shape[k];
    rem /= (uint32_t)t->vt->u.sh.shape[k];
  }
  memcpy(at, base, t->mrank * sizeof *at);
  bool inside = true;
  for (uint32_t k = 0; k < t->vrank; k++) {
    if (t->dim[k] < 0)
      continue;
    if (__builtin_add_overflow(at[t->dim[k]], idx[k], &at[t->dim[k]])) {
      overflows(fr, ins);
      return -1;
    }
    int64_t x = at[t->dim[k]];
    if (x < 0 || x >= sz[t->dim[k]]) {
      if (t->in_bounds[k]) {
        interp_error(fr, ins, "index %lld is out of bounds [0, %lld) in dimension %d, which in_bounds says "
                     "it is not", (long long)x, (long long)sz[t->dim[k]], t->dim[k]);
        return -1;
      }
      inside = false;
    }
  }
  for (uint32_t i = 0; i < t->mrank && inside; i++)
    if (at[i] < 0 || at[i] >= sz[i])
      inside = false; /* a base index outside a dimension no vector dimension walks */
  if (!inside || (mask && !(mask[e].i & 1)))
    return 0;
  int64_t off = d[2].i;
  for (uint32_t i = 0; i < t->mrank; i++)
    if (!interp_madd(&off, at[i], st[i])) {
      overflows(fr, ins);
      return -1;
    }
  *p = velem(fr, ins, d, off, t->esize, 1);
  return *p ? 1 : -1;
}

static int x_transfer(Frame *fr, const Ins *ins) {
  const Transfer *t = ins->aux;
  /* operands: read (memref, indices, padding, mask?), write (vector, memref, indices, mask?) */
  uint32_t mi = t->write ? 1 : 0;
  const Slot *d = &fr->s[ins->in[mi]];
  int64_t base[16];
  for (uint32_t i = 0; i < t->mrank; i++)
    base[i] = fr->s[ins->in[mi + 1 + i]].i;
  uint32_t after = mi + 1 + t->mrank;
  const Slot *pad = t->write ? NULL : &fr->s[ins->in[after++]];
  const Slot *mask = t->mask ? &fr->s[ins->in[after]] : NULL;
  Slot *vec = t->write ? &fr->s[ins->in[0]] : &fr->s[ins->out[0]];
  const Type *et = t->mt->u.sh.elem;
  Lanes lanes = {fr->in->be, t->loc, 0, 0, t->write, true};
  char *p = NULL;
  for (uint32_t e = 0; e < t->n; e++) {
    int r = transfer_at(fr, ins, t, d, base, mask, e, &p);
    if (r < 0)
      return EX_ERROR;
    if (r)
      lanes_add(&lanes, p, t->esize);
  }
  lanes_flush(&lanes);
  if (!lanes.ok)
    return EX_ERROR;
  for (uint32_t e = 0; e < t->n; e++) {
    if (!transfer_at(fr, ins, t, d, base, mask, e, &p)) {
      if (!t->write)
        vec[e] = *pad;
    } else if (t->write) {
      interp_store_elem(et, p, &vec[e]);
    } else {
      interp_load_elem(et, p, &vec[e]);
    }
  }
  return EX_NEXT;
}

/* permutation_map = affine_map<(d0, d1) -> (d1)>: the results after the arrow, dN or 0 */
static bool transfer_map(Op *op, Transfer *t) {
  Attr *pm = ir_op_attr(op, "permutation_map");
  if (!pm || pm->kind != ATTR_AFFINE_MAP)
    return false;
  const char *s = strstr(pm->u.str.s, "->"), *end = pm->u.str.s + pm->u.str.len;
  uint32_t k = 0;
  if (!s)
    return false;
  for (s += 2; s < end; s++) {
    if (*s == 'd') {
      char *e;
      unsigned long v = strtoul(s + 1, &e, 10);
      if (k >= t->vrank || v >= t->mrank)
        return false;
      t->dim[k++] = (int32_t)v;
      s = e - 1;
    } else if (*s == '0' && (s[-1] == '(' || s[-1] == ' ')) {
      if (k >= t->vrank || t->write)
        return false;
      t->dim[k++] = -1;
    } else if (*s != ' ' && *s != ',' && *s != '(' && *s != ')' && *s != '>') {
      return false;
    }
  }
  return k == t->vrank;
}

static bool transfer(Comp *c, Op *op, Ins *ins, bool write) {
  Transfer *t = ir_alloc(c->in->ctx, sizeof *t);
  t->write = write;
  t->vt = write ? op->operands[0]->type : op->results[0].type;
  t->mt = op->operands[write ? 1 : 0]->type;
  if (!fixed_vector(t->vt) || t->mt->kind != TY_MEMREF || t->vt->u.sh.rank > 16 || t->mt->u.sh.rank > 16 ||
      t->mt->u.sh.elem->kind == TY_VECTOR || !interp_elem_bytes(t->mt->u.sh.elem))
    return interp_unsupported(c, op, "this transfer (fixed vectors of memref elements only)");
  t->vrank = t->vt->u.sh.rank;
  t->mrank = t->mt->u.sh.rank;
  t->n = interp_words(t->vt);
  t->esize = interp_elem_bytes(t->mt->u.sh.elem);
  t->loc = interp_loc(c, op);
  if (!transfer_map(op, t))
    return interp_unsupported(c, op, "this permutation map");
  Attr *ib = ir_op_attr(op, "in_bounds");
  for (uint32_t k = 0; ib && ib->kind == ATTR_ARRAY && k < ib->u.arr.n && k < t->vrank; k++)
    t->in_bounds[k] = ib->u.arr.elems[k]->kind == ATTR_BOOL && ib->u.arr.elems[k]->u.b;
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  t->mask = seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 4 && seg->u.darr.ivals[3];
  if (t->mask) {
    /* a mask has the vector's shape when the map is a minor identity without broadcasts */
    for (uint32_t k = 0; k < t->vrank; k++)
      if (t->dim[k] != (int32_t)(t->mrank - t->vrank + k))
        return interp_unsupported(c, op, "a mask with this permutation map");
  }
  ins->aux = t;
  ins->fn = x_transfer;
  return true;
}

bool c_transfer_read(Comp *c, Op *op, Ins *ins) { return transfer(c, op, ins, false); }
bool c_transfer_write(Comp *c, Op *op, Ins *ins) { return transfer(c, op, ins, true); }

/* ---- static rearrangements: shuffle, transpose, strided slices ------------------------------ */

/* Result word i is word from[i] of operand op_of[i]: a table made once per op. */
typedef struct Perm {
  uint32_t n;
  uint32_t *from;
  uint8_t *op_of;
} Perm;

static int x_permute(Frame *fr, const Ins *ins) {
  const Perm *p = ins->aux;
  for (uint32_t i = 0; i < p->n; i++)
    fr->s[ins->out[0] + i] = fr->s[ins->in[p->op_of[i]] + p->from[i]];
  return EX_NEXT;
}

static Perm *perm_new(Comp *c, uint32_t n) {
  Perm *p = ir_alloc(c->in->ctx, sizeof *p);
  p->n = n;
  p->from = ir_alloc(c->in->ctx, (n + 1) * sizeof *p->from);
  p->op_of = ir_alloc(c->in->ctx, n + 1);
  return p;
}

/* shuffle: the mask picks leading-dimension slices of the two operands, concatenated */
bool c_vector_shuffle(Comp *c, Op *op, Ins *ins) {
  Type *a = op->operands[0]->type, *b = op->operands[1]->type, *rt = op->results[0].type;
  uint32_t nm;
  int64_t *mask = i64_list(op, "mask", &nm);
  if (!all_fixed(op) || !mask)
    return interp_unsupported(c, op, "this shuffle");
  uint32_t na = a->kind == TY_VECTOR ? (uint32_t)a->u.sh.shape[0] : 1;
  uint32_t nb = b->kind == TY_VECTOR ? (uint32_t)b->u.sh.shape[0] : 1;
  uint32_t inner = interp_words(rt) / (nm ? nm : 1);
  Perm *p = perm_new(c, interp_words(rt));
  for (uint32_t i = 0; i < nm; i++) {
    if (mask[i] < 0 || mask[i] >= (int64_t)(na + nb))
      return interp_unsupported(c, op, "a poison shuffle index");
    for (uint32_t w = 0; w < inner; w++) {
      bool first = mask[i] < (int64_t)na;
      p->op_of[i * inner + w] = first ? 0 : 1;
      p->from[i * inner + w] = (uint32_t)(first ? mask[i] : mask[i] - na) * inner + w;
    }
  }
  ins->aux = p;
  ins->fn = x_permute;
  return true;
}

bool c_vector_transpose(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  uint32_t np;
  int64_t *perm = i64_list(op, "permutation", &np);
  if (!all_fixed(op) || !perm || np != rt->u.sh.rank || np != st->u.sh.rank)
    return interp_unsupported(c, op, "this transpose");
  Perm *p = perm_new(c, interp_words(rt));
  int64_t ri[16], si[16];
  for (uint32_t i = 0; i < p->n; i++) {
    unlinear(rt->u.sh.shape, np, i, ri);
    for (uint32_t d = 0; d < np; d++)
      si[perm[d]] = ri[d];
    p->from[i] = linear(st->u.sh.shape, si, np);
  }
  ins->aux = p;
  ins->fn = x_permute;
  return true;
}

bool c_extract_strided_slice(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  int64_t *offs, *szs, *strs;
  uint32_t no, ns, nt;
  if (!all_fixed(op) || !int_array(c, op, "offsets", &offs, &no) || !int_array(c, op, "sizes", &szs, &ns) ||
      !int_array(c, op, "strides", &strs, &nt) || no != ns || ns != nt || no > st->u.sh.rank)
    return interp_unsupported(c, op, "this extract_strided_slice");
  uint32_t rank = st->u.sh.rank;
  Perm *p = perm_new(c, interp_words(rt));
  int64_t ri[16], si[16];
  for (uint32_t i = 0; i < p->n; i++) {
    unlinear(rt->u.sh.shape, rank, i, ri);
    for (uint32_t d = 0; d < rank; d++)
      si[d] = d < no ? offs[d] + ri[d] * strs[d] : ri[d];
    p->from[i] = linear(st->u.sh.shape, si, rank);
  }
  ins->aux = p;
  ins->fn = x_permute;
  return true;
}

/* insert_strided_slice: the destination's words, with the source's at offsets (strides on the
 * source's dimensions, which are the destination's trailing ones) */
bool c_insert_strided_slice(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *dt = op->operands[1]->type;
  int64_t *offs, *strs;
  uint32_t no, nt;
  if (!all_fixed(op) || !int_array(c, op, "offsets", &offs, &no) || !int_array(c, op, "strides", &strs, &nt) ||
      no != dt->u.sh.rank || nt != st->u.sh.rank)
    return interp_unsupported(c, op, "this insert_strided_slice");
  uint32_t drank = dt->u.sh.rank, srank = st->u.sh.rank, lead = drank - srank;
  Perm *p = perm_new(c, interp_words(dt));
  for (uint32_t i = 0; i < p->n; i++) {
    p->op_of[i] = 1;
    p->from[i] = i;
  }
  int64_t si[16], di[16];
  for (uint32_t j = 0; j < interp_words(st); j++) {
    unlinear(st->u.sh.shape, srank, j, si);
    for (uint32_t d = 0; d < drank; d++)
      di[d] = d < lead ? offs[d] : offs[d] + si[d - lead] * strs[d - lead];
    uint32_t k = linear(dt->u.sh.shape, di, drank);
    p->op_of[k] = 0;
    p->from[k] = j;
  }
  ins->aux = p;
  ins->fn = x_permute;
  return true;
}

/* to_elements: one scalar result per word */
static int x_to_elements(Frame *fr, const Ins *ins) {
  for (uint32_t i = 0; i < ins->nout; i++)
    fr->s[ins->out[i]] = fr->s[ins->in[0] + i];
  return EX_NEXT;
}

bool c_vector_to_elements(Comp *c, Op *op, Ins *ins) {
  if (!all_fixed(op) || interp_words(op->operands[0]->type) != op->nresults)
    return interp_unsupported(c, op, "this to_elements");
  ins->fn = x_to_elements;
  return true;
}

/* ---- masks, step, bitcast ------------------------------------------------------------------- */

static int x_words(Frame *fr, const Ins *ins) {
  memcpy(&fr->s[ins->out[0]], ins->aux, ins->a * sizeof(Slot));
  return EX_NEXT;
}

/* constant_mask: lanes below mask_dim_sizes in every dimension; step: 0, 1, 2, ... */
bool c_constant_mask(Comp *c, Op *op, Ins *ins) {
  Type *rt = op->results[0].type;
  uint32_t nd;
  int64_t *lim = i64_list(op, "mask_dim_sizes", &nd);
  if (!all_fixed(op) || !lim || nd != rt->u.sh.rank)
    return interp_unsupported(c, op, "this constant_mask");
  ins->a = interp_words(rt);
  Slot *w = ir_alloc(c->in->ctx, (ins->a + 1) * sizeof *w);
  int64_t idx[16];
  for (uint32_t i = 0; i < ins->a; i++) {
    unlinear(rt->u.sh.shape, nd, i, idx);
    bool on = true;
    for (uint32_t d = 0; d < nd; d++)
      on = on && idx[d] < lim[d];
    w[i].i = on ? -1 : 0;
  }
  ins->aux = w;
  ins->fn = x_words;
  return true;
}

bool c_vector_step(Comp *c, Op *op, Ins *ins) {
  Type *rt = op->results[0].type;
  if (!all_fixed(op) || rt->u.sh.rank != 1)
    return interp_unsupported(c, op, "this step");
  ins->a = interp_words(rt);
  Slot *w = ir_alloc(c->in->ctx, (ins->a + 1) * sizeof *w);
  for (uint32_t i = 0; i < ins->a; i++)
    w[i].i = interp_sext(i, interp_int_width(rt->u.sh.elem));
  ins->aux = w;
  ins->fn = x_words;
  return true;
}

static int x_create_mask(Frame *fr, const Ins *ins) {
  const Type *rt = ins->aux;
  int64_t idx[16];
  for (uint32_t i = 0; i < ins->a; i++) {
    unlinear(rt->u.sh.shape, rt->u.sh.rank, i, idx);
    bool on = true;
    for (uint32_t d = 0; d < rt->u.sh.rank; d++)
      on = on && idx[d] < fr->s[ins->in[d]].i;
    fr->s[ins->out[0] + i].i = on ? -1 : 0;
  }
  return EX_NEXT;
}

bool c_create_mask(Comp *c, Op *op, Ins *ins) {
  Type *rt = op->results[0].type;
  if (!all_fixed(op) || op->noperands != rt->u.sh.rank)
    return interp_unsupported(c, op, "this create_mask");
  ins->a = interp_words(rt);
  ins->aux = rt;
  ins->fn = x_create_mask;
  return true;
}

/* bitcast: the source elements' bytes, read back as the result's elements */
static int x_vbitcast(Frame *fr, const Ins *ins) {
  Type *const *t = ins->aux; /* source element, result element */
  unsigned char buf[8 * 256];
  uint32_t sb = interp_elem_bytes(t[0]), rb = interp_elem_bytes(t[1]);
  for (uint32_t i = 0; i < ins->a; i++)
    interp_store_elem(t[0], buf + i * sb, &fr->s[ins->in[0] + i]);
  for (uint32_t i = 0; i < ins->b; i++)
    interp_load_elem(t[1], buf + i * rb, &fr->s[ins->out[0] + i]);
  return EX_NEXT;
}

bool c_vector_bitcast(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type, *rt = op->results[0].type;
  if (!all_fixed(op) || interp_words(st) * interp_elem_bytes(st->u.sh.elem) > sizeof(Slot) * 256 ||
      interp_elem_bytes(st->u.sh.elem) * 8 != (st->u.sh.elem->kind == TY_FLOAT ? ir_float_width(st->u.sh.elem->u.f)
                                                                              : interp_int_width(st->u.sh.elem)) ||
      interp_elem_bytes(rt->u.sh.elem) * 8 != (rt->u.sh.elem->kind == TY_FLOAT ? ir_float_width(rt->u.sh.elem->u.f)
                                                                              : interp_int_width(rt->u.sh.elem)))
    return interp_unsupported(c, op, "this bitcast (whole-byte elements only)");
  Type **t = ir_alloc(c->in->ctx, 2 * sizeof *t);
  t[0] = st->u.sh.elem;
  t[1] = rt->u.sh.elem;
  ins->a = interp_words(st);
  ins->b = interp_words(rt);
  ins->aux = t;
  ins->fn = x_vbitcast;
  return true;
}

/* ---- maskedload / maskedstore --------------------------------------------------------------- */

/* 1-D: lanes whose mask bit is set are loaded or stored and must be inside the memref; a masked
 * load's other lanes take the pass-through value */
static int x_masked(Frame *fr, const Ins *ins) {
  const VMem *v = ins->aux;
  /* load: memref, indices, mask, pass_thru; store: memref, indices, mask, value */
  Slot *d = &fr->s[ins->in[0]];
  const int64_t *sz = &d[3].i, *st = &d[3 + v->rank].i;
  const Slot *mask = &fr->s[ins->in[1 + v->rank]], *val = &fr->s[ins->in[2 + v->rank]];
  int64_t off = d[2].i, base[16];
  for (uint32_t i = 0; i < v->rank; i++) {
    base[i] = fr->s[ins->in[1 + i]].i;
    if (!interp_madd(&off, base[i], st[i]))
      return overflows(fr, ins);
  }
  const Type *et = v->mt->u.sh.elem;
  Lanes lanes = {fr->in->be, v->loc, 0, 0, v->store, true};
  for (uint32_t e = 0; e < v->n; e++) {
    if (!(mask[e].i & 1))
      continue;
    for (uint32_t i = 0; i < v->rank; i++) {
      int64_t x;
      if (__builtin_add_overflow(base[i], (int64_t)(i + 1 == v->rank ? e : 0), &x))
        return overflows(fr, ins);
      if (x < 0 || x >= sz[i])
        return interp_error(fr, ins, "out-of-bounds access: lane %u at index %lld is not in [0, %lld) in dimension %u",
                            e, (long long)x, (long long)sz[i], i);
    }
    int64_t at = off;
    if (!interp_madd(&at, e, st[v->rank - 1]))
      return overflows(fr, ins);
    char *p = velem(fr, ins, d, at, v->esize, 1);
    if (!p)
      return EX_ERROR;
    lanes_add(&lanes, p, v->esize);
  }
  lanes_flush(&lanes);
  if (!lanes.ok)
    return EX_ERROR;
  for (uint32_t e = 0; e < v->n; e++) {
    if (!(mask[e].i & 1)) {
      if (!v->store)
        fr->s[ins->out[0] + e] = val[e];
      continue;
    }
    char *p = (char *)d[1].p + (off + (int64_t)e * st[v->rank - 1]) * (int64_t)v->esize; /* checked above */
    if (v->store)
      interp_store_elem(et, p, &val[e]);
    else
      interp_load_elem(et, p, &fr->s[ins->out[0] + e]);
  }
  return EX_NEXT;
}

static bool masked(Comp *c, Op *op, Ins *ins, bool store) {
  Type *mt = op->operands[0]->type;
  Type *vt = store ? op->operands[op->noperands - 1]->type : op->results[0].type;
  if (!vmem(c, op, ins, vt, mt, store))
    return false;
  ins->fn = x_masked;
  return true;
}

bool c_maskedload(Comp *c, Op *op, Ins *ins) { return masked(c, op, ins, false); }
bool c_maskedstore(Comp *c, Op *op, Ins *ins) { return masked(c, op, ins, true); }

/* interleave: the trailing dimension alternates between the operands; deinterleave undoes it */
bool c_vector_interleave(Comp *c, Op *op, Ins *ins) {
  Type *rt = op->results[0].type;
  if (!all_fixed(op) || rt->kind != TY_VECTOR || !rt->u.sh.rank)
    return interp_unsupported(c, op, "this interleave");
  uint32_t inner = (uint32_t)rt->u.sh.shape[rt->u.sh.rank - 1];
  Perm *p = perm_new(c, interp_words(rt));
  for (uint32_t i = 0; i < p->n; i++) {
    uint32_t row = i / inner, col = i % inner;
    p->op_of[i] = col & 1;
    p->from[i] = row * (inner / 2) + col / 2;
  }
  ins->aux = p;
  ins->fn = x_permute;
  return true;
}

static int x_deinterleave(Frame *fr, const Ins *ins) {
  uint32_t half = ins->a / 2, inner = ins->b;
  for (uint32_t i = 0; i < ins->a; i++) {
    uint32_t row = i / inner, col = i % inner;
    fr->s[ins->out[col & 1] + row * (inner / 2) + col / 2] = fr->s[ins->in[0] + i];
  }
  (void)half;
  return EX_NEXT;
}

bool c_vector_deinterleave(Comp *c, Op *op, Ins *ins) {
  Type *st = op->operands[0]->type;
  if (!all_fixed(op) || st->kind != TY_VECTOR || !st->u.sh.rank || op->nresults != 2)
    return interp_unsupported(c, op, "this deinterleave");
  ins->a = interp_words(st);
  ins->b = (uint32_t)st->u.sh.shape[st->u.sh.rank - 1];
  ins->fn = x_deinterleave;
  return true;
}

/* ---- gather, scatter, expandload, compressstore --------------------------------------------- */

/* What upstream's lowering (convert-vector-to-llvm) runs: the base indices give one element's
 * address, as for vector.load, and each lane's address is that address plus an offset counted in
 * elements of flat memory: idx[e] (gather and scatter, sign-extended from the index type), or the
 * number of set lanes before e (expandload and compressstore). So an offset may run past the end
 * of the innermost dimension into the next row, and a base index need not be inside its dimension;
 * only the address reached matters. Only lanes with their mask bit set touch memory (in lane
 * order: a later lane's store wins), and the element each addresses must be one of the memref's
 * (anything else is what upstream leaves undefined, reported here). Masked-off lanes of a load
 * take the pass-through value. Gather and scatter take vectors of any rank, lanes in row-major
 * order, and rank-0 memrefs; upstream lowers them only over memrefs whose innermost stride is 1. */
typedef enum { G_GATHER, G_SCATTER, G_EXPAND, G_COMPRESS } GKind;

typedef struct Gather {
  VMem v;
  GKind kind;
} Gather;

/* Is q (elements from the memref's offset) where one of its elements lies? Dimensions are taken
 * from the largest stride down, each with as many of its strides as fit: exact for the layouts
 * whose dimensions nest without overlapping (identity, subviews, transposes). With a negative
 * stride, the span between the first and the last element counts. */
static bool view_holds(const int64_t *sz, const int64_t *st, uint32_t rank, int64_t q) {
  uint32_t ord[16];
  int64_t lo = 0, hi = 0;
  bool neg = false;
  for (uint32_t i = 0; i < rank; i++) {
    if (sz[i] <= 0)
      return false;
    int64_t ext;
    if (__builtin_mul_overflow(sz[i] - 1, st[i], &ext) ||
        __builtin_add_overflow(st[i] < 0 ? lo : hi, ext, st[i] < 0 ? &lo : &hi))
      return false;
    neg |= st[i] < 0;
    uint32_t k = i;
    while (k > 0 && st[ord[k - 1]] < st[i]) {
      ord[k] = ord[k - 1];
      k--;
    }
    ord[k] = i;
  }
  if (neg || q < 0)
    return q >= lo && q <= hi;
  for (uint32_t k = 0; k < rank && q; k++) {
    int64_t s = st[ord[k]];
    if (s <= 0)
      continue;
    int64_t i = q / s < sz[ord[k]] ? q / s : sz[ord[k]] - 1;
    q -= i * s;
  }
  return q == 0;
}

static int x_gather_mem(Frame *fr, const Ins *ins) {
  const Gather *g = ins->aux;
  const VMem *v = &g->v;
  Slot *d = &fr->s[ins->in[0]];
  const int64_t *sz = &d[3].i, *st = &d[3 + v->rank].i;
  uint32_t k = 1 + v->rank;
  const Slot *idx = g->kind <= G_SCATTER ? &fr->s[ins->in[k++]] : NULL;
  const Slot *mask = &fr->s[ins->in[k++]], *val = &fr->s[ins->in[k]];
  bool store = g->kind == G_SCATTER || g->kind == G_COMPRESS;
  if (v->rank && st[v->rank - 1] != 1)
    return interp_error(fr, ins, "the innermost dimension has stride %lld, not 1",
                        (long long)st[v->rank - 1]);
  int64_t base = 0, next = 0;
  bool wild = false; /* the base indices' element is out of reach of the index type */
  for (uint32_t i = 0; i < v->rank; i++) {
    int64_t t;
    wild |= __builtin_mul_overflow(fr->s[ins->in[1 + i]].i, st[i], &t) ||
            __builtin_add_overflow(base, t, &base);
  }
  const Type *et = v->mt->u.sh.elem;
  Lanes lanes = {fr->in->be, v->loc, 0, 0, store, true};
  for (uint32_t e = 0; e < v->n; e++) {
    if (!(mask[e].i & 1))
      continue;
    int64_t by = idx ? idx[e].i : next++, q;
    if (wild || __builtin_add_overflow(base, by, &q) || !view_holds(sz, st, v->rank, q))
      return interp_error(fr, ins, "out-of-bounds access: lane %u, %lld elements from the base "
                          "indices, addresses no element of the memref", e, (long long)by);
    if (__builtin_add_overflow(d[2].i, q, &q))
      return overflows(fr, ins);
    char *p = velem(fr, ins, d, q, v->esize, 1);
    if (!p)
      return EX_ERROR;
    lanes_add(&lanes, p, v->esize);
  }
  lanes_flush(&lanes);
  if (!lanes.ok)
    return EX_ERROR;
  next = 0;
  for (uint32_t e = 0; e < v->n; e++) {
    if (!(mask[e].i & 1)) {
      if (!store)
        fr->s[ins->out[0] + e] = val[e];
      continue;
    }
    char *p = (char *)d[1].p + (d[2].i + base + (idx ? idx[e].i : next++)) * (int64_t)v->esize;
    if (store)
      interp_store_elem(et, p, &val[e]);
    else
      interp_load_elem(et, p, &fr->s[ins->out[0] + e]);
  }
  return EX_NEXT;
}

/* Gather and scatter: vectors of any rank with indices of the same shape, over memrefs of any
 * rank whose innermost stride may be 1 (a layout that says otherwise is not lowered upstream). */
static bool gather_nd(Comp *c, Op *op, Ins *ins, GKind kind) {
  Type *mt = op->operands[0]->type;
  Type *vt = kind == G_GATHER ? op->results[0].type : op->operands[op->noperands - 1]->type;
  if (!fixed_vector(vt) || vt->u.sh.rank > 16 || mt->kind != TY_MEMREF || mt->u.sh.rank > 16 ||
      mt->u.sh.elem->kind == TY_VECTOR || !interp_elem_bytes(mt->u.sh.elem))
    return interp_unsupported(c, op, "this vector memory access (fixed vectors of memref elements only)");
  Gather *g = ir_alloc(c->in->ctx, sizeof *g);
  g->v = (VMem){.mt = mt, .n = interp_words(vt), .rank = mt->u.sh.rank,
                .esize = interp_elem_bytes(mt->u.sh.elem), .loc = interp_loc(c, op),
                .store = kind == G_SCATTER};
  g->kind = kind;
  Type *it = op->operands[1 + g->v.rank]->type;
  if (!fixed_vector(it) || interp_words(it) != g->v.n)
    return interp_unsupported(c, op, "these indices");
  Attr *lay = mt->u.sh.layout;
  if (g->v.rank && lay && lay->kind == ATTR_STRIDED && lay->u.strided.n == g->v.rank &&
      lay->u.strided.strides[g->v.rank - 1] != 1 && lay->u.strided.strides[g->v.rank - 1] != IR_DYNAMIC)
    return interp_unsupported(c, op, "a gather or scatter over a memref whose innermost stride is not 1");
  ins->aux = g;
  ins->fn = x_gather_mem;
  return true;
}

static bool gather(Comp *c, Op *op, Ins *ins, GKind kind) {
  if (kind <= G_SCATTER)
    return gather_nd(c, op, ins, kind);
  Type *mt = op->operands[0]->type;
  Type *vt = op->nresults ? op->results[0].type : op->operands[op->noperands - 1]->type;
  Ins tmp = *ins;
  if (mt->kind == TY_MEMREF && mt->u.sh.rank > 16)
    return interp_unsupported(c, op, "a memref of rank above 16 here");
  if (!vmem(c, op, &tmp, vt, mt, kind == G_COMPRESS))
    return false;
  Gather *g = ir_alloc(c->in->ctx, sizeof *g);
  g->v = *(VMem *)tmp.aux;
  g->kind = kind;
  ins->aux = g;
  ins->fn = x_gather_mem;
  return true;
}

bool c_gather(Comp *c, Op *op, Ins *ins) { return gather(c, op, ins, G_GATHER); }
bool c_scatter(Comp *c, Op *op, Ins *ins) { return gather(c, op, ins, G_SCATTER); }
bool c_expandload(Comp *c, Op *op, Ins *ins) { return gather(c, op, ins, G_EXPAND); }
bool c_compressstore(Comp *c, Op *op, Ins *ins) { return gather(c, op, ins, G_COMPRESS); }

/* ---- vector.contract ------------------------------------------------------------------------ */

/* Every point of the iteration space (the dimensions of the indexing maps, sized from the
 * operands) adds lhs[map0(p)] * rhs[map1(p)] into acc[map2(p)], in row-major order of the points;
 * the word indices of each point are tabled once. Kinds other than add fold with the kind. */
typedef struct Contract {
  Red *r;
  uint32_t npts, nacc;
  uint32_t *li, *ri, *ai;
} Contract;

static int x_contract(Frame *fr, const Ins *ins) {
  const Contract *k = ins->aux;
  const Red *r = k->r;
  const Slot *a = &fr->s[ins->in[0]], *b = &fr->s[ins->in[1]];
  Slot acc[256];
  interp_copy(acc, &fr->s[ins->in[2]], k->nacc);
  for (uint32_t p = 0; p < k->npts; p++) {
    Slot prod = {0}, *o = &acc[k->ai[p]];
    if (r->et->kind == TY_FLOAT) {
      double x = getf(r->et, &a[k->li[p]]), y = getf(r->et, &b[k->ri[p]]);
      if (r->kind == R_ADD) {
        setf(r->et, o, getf(r->et, o) + x * y);
        continue;
      }
      setf(r->et, &prod, x * y);
    } else {
      prod.i = interp_sext(interp_zext(a[k->li[p]].i, r->width) * interp_zext(b[k->ri[p]].i, r->width), r->width);
    }
    *o = combine(r, *o, prod);
  }
  interp_copy(&fr->s[ins->out[0]], acc, k->nacc);
  return EX_NEXT;
}

/* the dimension numbers of a plain map's results: affine_map<(d0, d1, d2) -> (d0, d2)> */
static int map_dims(const Attr *m, uint32_t *ndims, uint32_t *res, uint32_t max) {
  if (!m || m->kind != ATTR_AFFINE_MAP)
    return -1;
  const char *s = m->u.str.s, *end = s + m->u.str.len, *arrow = strstr(s, "->");
  if (!arrow)
    return -1;
  *ndims = 0;
  for (const char *p = s; p < arrow; p++)
    if (*p == 'd')
      ++*ndims;
  int n = 0;
  for (const char *p = arrow + 2; p < end; p++) {
    if (*p == 'd') {
      char *e;
      unsigned long v = strtoul(p + 1, &e, 10);
      if ((uint32_t)n >= max || v >= *ndims)
        return -1;
      res[n++] = (uint32_t)v;
      p = e - 1;
    } else if (*p != ' ' && *p != ',' && *p != '(' && *p != ')' && *p != '>') {
      return -1;
    }
  }
  return n;
}

bool c_contract(Comp *c, Op *op, Ins *ins) {
  Attr *maps = ir_op_attr(op, "indexing_maps");
  Type *t[3] = {op->operands[0]->type, op->operands[1]->type, op->operands[2]->type};
  if (!all_fixed(op) || op->noperands != 3 || !maps || maps->kind != ATTR_ARRAY || maps->u.arr.n != 3 ||
      t[0]->kind != TY_VECTOR || t[1]->kind != TY_VECTOR)
    return interp_unsupported(c, op, "this contract (no masks, three plain indexing maps)");
  Red *r = red_kind(c, op, t[0]);
  if (!r)
    return false;
  uint32_t res[3][16], ndims = 0;
  int nres[3];
  int64_t size[16];
  for (uint32_t d = 0; d < 16; d++)
    size[d] = -1;
  for (int m = 0; m < 3; m++) {
    uint32_t nd;
    nres[m] = map_dims(maps->u.arr.elems[m], &nd, res[m], 16);
    uint32_t rank = t[m]->kind == TY_VECTOR ? t[m]->u.sh.rank : 0;
    if (nres[m] < 0 || (uint32_t)nres[m] != rank || nd > 16 || (m && nd != ndims))
      return interp_unsupported(c, op, "these indexing maps");
    ndims = nd;
    for (uint32_t i = 0; i < rank; i++)
      size[res[m][i]] = t[m]->u.sh.shape[i];
  }
  uint64_t npts = 1;
  for (uint32_t d = 0; d < ndims; d++) {
    if (size[d] < 0)
      return interp_unsupported(c, op, "a dimension no operand sizes");
    npts *= (uint64_t)size[d];
  }
  if (npts > (1u << 20) || interp_words(t[2]) > 256)
    return interp_unsupported(c, op, "a contraction this large");
  Contract *k = ir_alloc(c->in->ctx, sizeof *k);
  k->r = r;
  k->npts = (uint32_t)npts;
  k->nacc = interp_words(t[2]);
  uint32_t *w[3];
  for (int m = 0; m < 3; m++)
    w[m] = ir_alloc(c->in->ctx, (npts + 1) * sizeof(uint32_t));
  int64_t p[16], idx[16];
  for (uint32_t i = 0; i < npts; i++) {
    unlinear(size, ndims, i, p);
    for (int m = 0; m < 3; m++) {
      for (int j = 0; j < nres[m]; j++)
        idx[j] = p[res[m][j]];
      w[m][i] = nres[m] ? linear(t[m]->u.sh.shape, idx, (uint32_t)nres[m]) : 0;
    }
  }
  k->li = w[0];
  k->ri = w[1];
  k->ai = w[2];
  ins->aux = k;
  ins->fn = x_contract;
  return true;
}
