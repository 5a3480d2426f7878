/* arith.c - the arith, index and math dialects on scalars.
 *
 * Integers live in a word sign-extended from their width (interp_sext), so signed ops read them
 * as they are and unsigned ops zero-extend first (interp_zext); every result is brought back to
 * its width. index is a 64-bit integer. Floats: f64 in Slot.f; f32, f16 and bf16 in Slot.f32,
 * the narrow ones rounded to their precision after every op (ir_float_round), which is what the
 * hardware does for a storage type computed in f32.
 *
 * Each compile function picks a specialized exec function by op name once, so running an op is a
 * single indirect call and a switch-free body. Elementwise ops on vectors (a vector<NxT> value is N
 * words) compile to N scalar instructions, one per lane, run in a row (lanes()). */
#include "interp/internal.h"

#include <math.h>
#include <string.h>

static bool scalar(const Type *t) {
  if (t->kind == TY_VECTOR) {
    for (uint32_t i = 0; i < t->u.sh.rank; i++)
      if (t->u.sh.scalable && t->u.sh.scalable[i])
        return false;
    t = t->u.sh.elem;
  }
  return t->kind == TY_INT || t->kind == TY_INDEX || t->kind == TY_FLOAT;
}

/* the element type of a vector, or t */
static Type *el(Type *t) { return t->kind == TY_VECTOR ? t->u.sh.elem : t; }

/* Lanes of an elementwise op: the element count of its vector operands or results, or 1. */
static uint32_t lane_count(const Op *op) {
  for (uint32_t i = 0; i < op->nresults; i++)
    if (op->results[i].type->kind == TY_VECTOR)
      return interp_words(op->results[i].type);
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type->kind == TY_VECTOR)
      return interp_words(op->operands[i]->type);
  return 1;
}

typedef struct Lanes {
  uint32_t n;
  Ins *lane;
} Lanes;

static int x_lanes(Frame *fr, const Ins *ins) {
  const Lanes *l = ins->aux;
  for (uint32_t i = 0; i < l->n; i++)
    if (l->lane[i].fn(fr, &l->lane[i]) == EX_ERROR)
      return EX_ERROR;
  return EX_NEXT;
}

/* Turns ins, compiled for one lane, into one instruction per lane: lane i reads and writes word i
 * of every vector value (scalar operands, such as a select's i1 condition, stay as they are). */
static bool lanes(Comp *c, Op *op, Ins *ins, bool ok) {
  uint32_t n = lane_count(op);
  if (!ok || n <= 1)
    return ok;
  Lanes *l = ir_alloc(c->in->ctx, sizeof *l);
  l->n = n;
  l->lane = ir_alloc(c->in->ctx, n * sizeof *l->lane);
  for (uint32_t i = 0; i < n; i++) {
    Ins *li = &l->lane[i];
    *li = *ins;
    li->in = ir_alloc(c->in->ctx, (ins->nin + 1) * sizeof *li->in);
    li->out = ir_alloc(c->in->ctx, (ins->nout + 1) * sizeof *li->out);
    for (uint32_t k = 0; k < ins->nin; k++)
      li->in[k] = ins->in[k] + (op->operands[k]->type->kind == TY_VECTOR ? i : 0);
    for (uint32_t k = 0; k < ins->nout; k++)
      li->out[k] = ins->out[k] + (op->results[k].type->kind == TY_VECTOR ? i : 0);
  }
  ins->aux = l;
  ins->fn = x_lanes;
  return true;
}

static bool all_scalar(Comp *c, Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++)
    if (!scalar(op->operands[i]->type))
      return interp_unsupported(c, op, "a vector or tensor operand");
  for (uint32_t i = 0; i < op->nresults; i++)
    if (!scalar(op->results[i].type))
      return interp_unsupported(c, op, "a vector or tensor result");
  return true;
}

static inline double getf(const Slot *s, bool wide) { return wide ? s->f : (double)s->f32; }

static inline void setf(Slot *s, double v, FloatKind fk) {
  if (fk == F_F64)
    s->f = v;
  else
    s->f32 = (float)(fk == F_F32 ? v : ir_float_round(fk, v));
}

/* ---- constants ------------------------------------------------------------------------------ */

static int x_constant(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = ins->imm.i;
  return EX_NEXT;
}

static int x_vconstant(Frame *fr, const Ins *ins) {
  memcpy(&fr->s[ins->out[0]], ins->aux, ins->a * sizeof(Slot));
  return EX_NEXT;
}

/* a dense vector constant: its words, made once */
static bool vector_constant(Comp *c, Op *op, Ins *ins, Attr *v) {
  Type *t = op->results[0].type, *et = t->u.sh.elem;
  uint32_t n = interp_words(t);
  if (v->kind != ATTR_DENSE || (!v->u.dense.ivals && !v->u.dense.fvals) || (!v->u.dense.splat && v->u.dense.n != n))
    return interp_unsupported(c, op, "this vector constant");
  Slot *w = ir_alloc(c->in->ctx, n * sizeof *w);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = v->u.dense.splat ? 0 : i;
    if (et->kind == TY_FLOAT && v->u.dense.fvals)
      setf(&w[i], v->u.dense.fvals[k], et->u.f);
    else if (et->kind == TY_FLOAT)
      return interp_unsupported(c, op, "this vector constant");
    else
      w[i].i = interp_sext((uint64_t)v->u.dense.ivals[k], interp_int_width(et));
  }
  ins->a = n;
  ins->aux = w;
  ins->fn = x_vconstant;
  return true;
}

bool c_constant(Comp *c, Op *op, Ins *ins) {
  Attr *v = ir_op_attr(op, "value");
  Type *t = op->results[0].type;
  if (!v || !all_scalar(c, op))
    return v ? false : interp_unsupported(c, op, "a constant without a value");
  if (t->kind == TY_VECTOR)
    return vector_constant(c, op, ins, v);
  Slot s = {0};
  if (v->kind == ATTR_BOOL)
    s.i = v->u.b ? -1 : 0; /* i1 true is all ones, sign-extended */
  else if (v->kind == ATTR_INT && !v->u.i.big)
    s.i = interp_sext((uint64_t)v->u.i.v, interp_int_width(t));
  else if (v->kind == ATTR_FLOAT && t->kind == TY_FLOAT && !v->u.f.has_bits)
    setf(&s, v->u.f.v, t->u.f);
  else if (v->kind == ATTR_FLOAT && t->kind == TY_FLOAT && v->u.f.has_bits && t->u.f == F_F64)
    s.u = v->u.f.bits;
  else if (v->kind == ATTR_FLOAT && t->kind == TY_FLOAT && v->u.f.has_bits && t->u.f == F_F32)
    s.u = 0, memcpy(&s.f32, &(uint32_t){(uint32_t)v->u.f.bits}, 4);
  else if (v->kind == ATTR_FLOAT && t->kind == TY_FLOAT)
    setf(&s, v->u.f.v, t->u.f);
  else
    return interp_unsupported(c, op, "this constant");
  ins->imm.i = s.i;
  ins->fn = x_constant;
  return true;
}

/* ---- integer binary ops --------------------------------------------------------------------- */

#define S(k) fr->s[ins->in[k]].i
#define U(k) interp_zext(fr->s[ins->in[k]].i, ins->a)
#define OUT(v) (fr->s[ins->out[0]].i = interp_sext((uint64_t)(v), ins->a))

static int x_addi(Frame *fr, const Ins *ins) { OUT((uint64_t)S(0) + (uint64_t)S(1)); return EX_NEXT; }
static int x_subi(Frame *fr, const Ins *ins) { OUT((uint64_t)S(0) - (uint64_t)S(1)); return EX_NEXT; }
static int x_muli(Frame *fr, const Ins *ins) { OUT((uint64_t)S(0) * (uint64_t)S(1)); return EX_NEXT; }
static int x_andi(Frame *fr, const Ins *ins) { OUT(S(0) & S(1)); return EX_NEXT; }
static int x_ori(Frame *fr, const Ins *ins) { OUT(S(0) | S(1)); return EX_NEXT; }
static int x_xori(Frame *fr, const Ins *ins) { OUT(S(0) ^ S(1)); return EX_NEXT; }
static int x_maxsi(Frame *fr, const Ins *ins) { OUT(S(0) > S(1) ? S(0) : S(1)); return EX_NEXT; }
static int x_minsi(Frame *fr, const Ins *ins) { OUT(S(0) < S(1) ? S(0) : S(1)); return EX_NEXT; }
static int x_maxui(Frame *fr, const Ins *ins) { OUT(U(0) > U(1) ? U(0) : U(1)); return EX_NEXT; }
static int x_minui(Frame *fr, const Ins *ins) { OUT(U(0) < U(1) ? U(0) : U(1)); return EX_NEXT; }

static int x_shli(Frame *fr, const Ins *ins) {
  uint64_t sh = U(1);
  OUT(sh >= ins->a ? 0 : (uint64_t)S(0) << sh); /* MLIR: poison; zero is a defined stand-in */
  return EX_NEXT;
}
static int x_shrsi(Frame *fr, const Ins *ins) {
  uint64_t sh = U(1);
  OUT(sh >= ins->a ? (S(0) < 0 ? -1 : 0) : S(0) >> sh);
  return EX_NEXT;
}
static int x_shrui(Frame *fr, const Ins *ins) {
  uint64_t sh = U(1);
  OUT(sh >= ins->a ? 0 : U(0) >> sh);
  return EX_NEXT;
}

static int div_error(Frame *fr, const Ins *ins) { return interp_error(fr, ins, "division by zero"); }

static bool signed_overflow(const Frame *fr, const Ins *ins) {
  int64_t min = interp_sext(1ULL << (ins->a - 1), ins->a);
  return S(0) == min && S(1) == -1;
}

static int x_divsi(Frame *fr, const Ins *ins) {
  if (!S(1))
    return div_error(fr, ins);
  if (signed_overflow(fr, ins))
    return interp_error(fr, ins, "signed division overflows");
  OUT(S(0) / S(1));
  return EX_NEXT;
}
static int x_remsi(Frame *fr, const Ins *ins) {
  if (!S(1))
    return div_error(fr, ins);
  OUT(signed_overflow(fr, ins) ? 0 : S(0) % S(1));
  return EX_NEXT;
}
static int x_divui(Frame *fr, const Ins *ins) {
  if (!U(1))
    return div_error(fr, ins);
  OUT(U(0) / U(1));
  return EX_NEXT;
}
static int x_remui(Frame *fr, const Ins *ins) {
  if (!U(1))
    return div_error(fr, ins);
  OUT(U(0) % U(1));
  return EX_NEXT;
}
static int x_ceildivsi(Frame *fr, const Ins *ins) {
  if (!S(1))
    return div_error(fr, ins);
  if (signed_overflow(fr, ins))
    return interp_error(fr, ins, "signed division overflows");
  int64_t q = S(0) / S(1), r = S(0) % S(1);
  OUT(q + (r != 0 && ((r > 0) == (S(1) > 0))));
  return EX_NEXT;
}
static int x_floordivsi(Frame *fr, const Ins *ins) {
  if (!S(1))
    return div_error(fr, ins);
  if (signed_overflow(fr, ins))
    return interp_error(fr, ins, "signed division overflows");
  int64_t q = S(0) / S(1), r = S(0) % S(1);
  OUT(q - (r != 0 && ((r < 0) != (S(1) < 0))));
  return EX_NEXT;
}
static int x_ceildivui(Frame *fr, const Ins *ins) {
  if (!U(1))
    return div_error(fr, ins);
  OUT(U(0) / U(1) + (U(0) % U(1) != 0));
  return EX_NEXT;
}

static const struct {
  const char *names[2]; /* arith name, index name */
  ExecFn fn;
} int_binaries[] = {
  {{"arith.addi", "index.add"}, x_addi},         {{"arith.subi", "index.sub"}, x_subi},
  {{"arith.muli", "index.mul"}, x_muli},         {{"arith.andi", "index.and"}, x_andi},
  {{"arith.ori", "index.or"}, x_ori},            {{"arith.xori", "index.xor"}, x_xori},
  {{"arith.maxsi", "index.maxs"}, x_maxsi},      {{"arith.minsi", "index.mins"}, x_minsi},
  {{"arith.maxui", "index.maxu"}, x_maxui},      {{"arith.minui", "index.minu"}, x_minui},
  {{"arith.shli", "index.shl"}, x_shli},         {{"arith.shrsi", "index.shrs"}, x_shrsi},
  {{"arith.shrui", "index.shru"}, x_shrui},      {{"arith.divsi", "index.divs"}, x_divsi},
  {{"arith.remsi", "index.rems"}, x_remsi},      {{"arith.divui", "index.divu"}, x_divui},
  {{"arith.remui", "index.remu"}, x_remui},      {{"arith.ceildivsi", "index.ceildivs"}, x_ceildivsi},
  {{"arith.floordivsi", "index.floordivs"}, x_floordivsi},
  {{"arith.ceildivui", "index.ceildivu"}, x_ceildivui},
};

bool c_int_binary(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  ins->a = interp_int_width(el(op->results[0].type));
  for (size_t i = 0; i < sizeof int_binaries / sizeof int_binaries[0]; i++) {
    if (ir_str_eq(op->name, int_binaries[i].names[0]) || ir_str_eq(op->name, int_binaries[i].names[1])) {
      ins->fn = int_binaries[i].fn;
      return lanes(c, op, ins, true);
    }
  }
  return interp_unsupported(c, op, "this integer op");
}

/* ---- float ops ------------------------------------------------------------------------------ */

#define F(k) getf(&fr->s[ins->in[k]], ins->a == F_F64)
#define FOUT(v) setf(&fr->s[ins->out[0]], (v), (FloatKind)ins->a)

static int x_addf(Frame *fr, const Ins *ins) { FOUT(F(0) + F(1)); return EX_NEXT; }
static int x_subf(Frame *fr, const Ins *ins) { FOUT(F(0) - F(1)); return EX_NEXT; }
static int x_mulf(Frame *fr, const Ins *ins) { FOUT(F(0) * F(1)); return EX_NEXT; }
static int x_divf(Frame *fr, const Ins *ins) { FOUT(F(0) / F(1)); return EX_NEXT; }
static int x_remf(Frame *fr, const Ins *ins) { FOUT(fmod(F(0), F(1))); return EX_NEXT; }
static int x_powf(Frame *fr, const Ins *ins) { FOUT(pow(F(0), F(1))); return EX_NEXT; }
static int x_atan2(Frame *fr, const Ins *ins) { FOUT(atan2(F(0), F(1))); return EX_NEXT; }
static int x_copysign(Frame *fr, const Ins *ins) { FOUT(copysign(F(0), F(1))); return EX_NEXT; }
static int x_maxnumf(Frame *fr, const Ins *ins) { FOUT(fmax(F(0), F(1))); return EX_NEXT; }
static int x_minnumf(Frame *fr, const Ins *ins) { FOUT(fmin(F(0), F(1))); return EX_NEXT; }
/* maximumf/minimumf propagate NaN and order -0 below +0 */
static int x_maximumf(Frame *fr, const Ins *ins) {
  double a = F(0), b = F(1);
  FOUT(isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? b : a) : (a > b ? a : b)));
  return EX_NEXT;
}
static int x_minimumf(Frame *fr, const Ins *ins) {
  double a = F(0), b = F(1);
  FOUT(isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? a : b) : (a < b ? a : b)));
  return EX_NEXT;
}

static const struct {
  const char *name;
  ExecFn fn;
} float_binaries[] = {
  {"arith.addf", x_addf},         {"arith.subf", x_subf},         {"arith.mulf", x_mulf},
  {"arith.divf", x_divf},         {"arith.remf", x_remf},         {"math.powf", x_powf},
  {"math.atan2", x_atan2},        {"math.copysign", x_copysign},  {"arith.maxnumf", x_maxnumf},
  {"arith.minnumf", x_minnumf},   {"arith.maximumf", x_maximumf}, {"arith.minimumf", x_minimumf},
};

static bool float_result(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  if (el(op->results[0].type)->kind != TY_FLOAT)
    return interp_unsupported(c, op, "a non-float result");
  FloatKind fk = el(op->results[0].type)->u.f;
  if (fk != F_F64 && fk != F_F32 && fk != F_F16 && fk != F_BF16)
    return interp_unsupported(c, op, "this float type");
  ins->a = fk;
  return true;
}

bool c_float_binary(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  for (size_t i = 0; i < sizeof float_binaries / sizeof float_binaries[0]; i++)
    if (ir_str_eq(op->name, float_binaries[i].name)) {
      ins->fn = float_binaries[i].fn;
      return lanes(c, op, ins, true);
    }
  return interp_unsupported(c, op, "this float op");
}

static double rsqrt(double x) { return 1.0 / sqrt(x); }
static double neg(double x) { return -x; }

static const struct {
  const char *name;
  double (*fn)(double);
} float_unaries[] = {
  {"arith.negf", neg},   {"math.sqrt", sqrt},     {"math.rsqrt", rsqrt},         {"math.exp", exp},
  {"math.exp2", exp2},   {"math.expm1", expm1},   {"math.log", log},             {"math.log2", log2},
  {"math.log10", log10}, {"math.log1p", log1p},   {"math.sin", sin},             {"math.cos", cos},
  {"math.tan", tan},     {"math.tanh", tanh},     {"math.atan", atan},           {"math.absf", fabs},
  {"math.floor", floor}, {"math.ceil", ceil},     {"math.round", round},         {"math.roundeven", nearbyint},
  {"math.trunc", trunc}, {"math.erf", erf},       {"math.cbrt", cbrt},           {"math.erfc", erfc},
  {"math.asin", asin},   {"math.acos", acos},     {"math.sinh", sinh},           {"math.cosh", cosh},
  {"math.asinh", asinh}, {"math.acosh", acosh},   {"math.atanh", atanh},
};

static int x_unary(Frame *fr, const Ins *ins) {
  double (*fn)(double) = (double (*)(double))(uintptr_t)ins->imm.i;
  FOUT(fn(F(0)));
  return EX_NEXT;
}

bool c_float_unary(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  for (size_t i = 0; i < sizeof float_unaries / sizeof float_unaries[0]; i++)
    if (ir_str_eq(op->name, float_unaries[i].name)) {
      ins->fn = x_unary;
      ins->imm.i = (int64_t)(uintptr_t)float_unaries[i].fn;
      return lanes(c, op, ins, true);
    }
  return interp_unsupported(c, op, "this float op");
}

static int x_fma(Frame *fr, const Ins *ins) {
  FOUT(fma(F(0), F(1), F(2)));
  return EX_NEXT;
}

bool c_fma(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  ins->fn = x_fma;
  return lanes(c, op, ins, true);
}

/* ---- comparisons and select ----------------------------------------------------------------- */

/* predicates in arith.cmpi's order: eq ne slt sle sgt sge ult ule ugt uge */
static int x_cmpi(Frame *fr, const Ins *ins) {
  int64_t a = S(0), b = S(1);
  uint64_t ua = U(0), ub = U(1);
  bool r;
  switch (ins->b) {
  case 0: r = a == b; break;
  case 1: r = a != b; break;
  case 2: r = a < b; break;
  case 3: r = a <= b; break;
  case 4: r = a > b; break;
  case 5: r = a >= b; break;
  case 6: r = ua < ub; break;
  case 7: r = ua <= ub; break;
  case 8: r = ua > ub; break;
  default: r = ua >= ub; break;
  }
  fr->s[ins->out[0]].i = r ? -1 : 0;
  return EX_NEXT;
}

bool c_cmpi(Comp *c, Op *op, Ins *ins) {
  Attr *pred = ir_op_attr(op, "predicate");
  if (!all_scalar(c, op))
    return false;
  if (!pred || pred->kind != ATTR_INT || pred->u.i.v < 0 || pred->u.i.v > 9)
    return interp_unsupported(c, op, "this predicate");
  ins->a = interp_int_width(el(op->operands[0]->type));
  ins->b = (uint32_t)pred->u.i.v;
  ins->fn = x_cmpi;
  return lanes(c, op, ins, true);
}

/* predicates in arith.cmpf's order: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true */
static int x_cmpf(Frame *fr, const Ins *ins) {
  double a = F(0), b = F(1);
  bool uno = isnan(a) || isnan(b), r;
  switch (ins->b) {
  case 0: r = false; break;
  case 1: r = !uno && a == b; break;
  case 2: r = !uno && a > b; break;
  case 3: r = !uno && a >= b; break;
  case 4: r = !uno && a < b; break;
  case 5: r = !uno && a <= b; break;
  case 6: r = !uno && a != b; break;
  case 7: r = !uno; break;
  case 8: r = uno || a == b; break;
  case 9: r = uno || a > b; break;
  case 10: r = uno || a >= b; break;
  case 11: r = uno || a < b; break;
  case 12: r = uno || a <= b; break;
  case 13: r = uno || a != b; break;
  case 14: r = uno; break;
  default: r = true; break;
  }
  fr->s[ins->out[0]].i = r ? -1 : 0;
  return EX_NEXT;
}

bool c_cmpf(Comp *c, Op *op, Ins *ins) {
  Attr *pred = ir_op_attr(op, "predicate");
  if (!all_scalar(c, op))
    return false;
  if (!pred || pred->kind != ATTR_INT || pred->u.i.v < 0 || pred->u.i.v > 15)
    return interp_unsupported(c, op, "this predicate");
  ins->a = el(op->operands[0]->type)->u.f;
  ins->b = (uint32_t)pred->u.i.v;
  ins->fn = x_cmpf;
  return lanes(c, op, ins, true);
}

static int x_select(Frame *fr, const Ins *ins) {
  interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[(fr->s[ins->in[0]].i & 1) ? 1 : 2]], ins->a);
  return EX_NEXT;
}

bool c_select(Comp *c, Op *op, Ins *ins) {
  ins->fn = x_select;
  if (op->operands[0]->type->kind != TY_VECTOR) {
    ins->a = interp_words(op->results[0].type); /* a scalar condition picks a whole value */
    return true;
  }
  if (!all_scalar(c, op))
    return false;
  ins->a = 1;
  return lanes(c, op, ins, true);
}

/* ---- casts ---------------------------------------------------------------------------------- */

/* ins->a: source width, ins->b: result width; imm.i: 1 when the source is zero-extended */
static int x_int_cast(Frame *fr, const Ins *ins) {
  int64_t v = ins->imm.i ? (int64_t)U(0) : S(0);
  fr->s[ins->out[0]].i = interp_sext((uint64_t)v, ins->b);
  return EX_NEXT;
}

bool c_int_cast(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  ins->a = interp_int_width(el(op->operands[0]->type));
  ins->b = interp_int_width(el(op->results[0].type));
  if (!ins->a || !ins->b)
    return interp_unsupported(c, op, "this cast");
  ins->imm.i = ir_str_eq(op->name, "arith.extui") || ir_str_eq(op->name, "arith.index_castui") ||
               ir_str_eq(op->name, "index.castu");
  ins->fn = x_int_cast;
  return lanes(c, op, ins, true);
}

/* int <-> float, float <-> float, bitcast: ins->a source kind, ins->b result kind */
typedef enum { K_SINT, K_UINT, K_FLOAT } NumKind;

typedef struct NumCast {
  NumKind from, to;
  uint32_t from_w, to_w;
  FloatKind from_f, to_f;
  bool bitcast;
} NumCast;

static int x_num_cast(Frame *fr, const Ins *ins) {
  const NumCast *nc = ins->aux;
  Slot *in = &fr->s[ins->in[0]], *out = &fr->s[ins->out[0]];
  if (nc->bitcast) {
    uint64_t bits;
    if (nc->from == K_FLOAT && nc->from_f == F_F64)
      memcpy(&bits, &in->f, 8);
    else if (nc->from == K_FLOAT) {
      uint32_t b32;
      memcpy(&b32, &in->f32, 4);
      bits = b32;
    } else
      bits = interp_zext(in->i, nc->from_w);
    if (nc->to == K_FLOAT && nc->to_f == F_F64)
      memcpy(&out->f, &bits, 8);
    else if (nc->to == K_FLOAT) {
      uint32_t b32 = (uint32_t)bits;
      memcpy(&out->f32, &b32, 4);
    } else
      out->i = interp_sext(bits, nc->to_w);
    return EX_NEXT;
  }
  double v;
  if (nc->from == K_FLOAT)
    v = getf(in, nc->from_f == F_F64);
  else if (nc->from == K_UINT)
    v = (double)interp_zext(in->i, nc->from_w);
  else
    v = (double)in->i;
  if (nc->to == K_FLOAT) {
    setf(out, v, nc->to_f);
  } else {
    /* out-of-range conversions are poison in MLIR; saturate as a defined stand-in */
    if (isnan(v))
      v = 0;
    if (nc->to == K_UINT)
      out->i = interp_sext(v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v, nc->to_w);
    else
      out->i = interp_sext((uint64_t)(v <= -9223372036854775808.0 ? INT64_MIN
                                      : v >= 9223372036854775807.0 ? INT64_MAX : (int64_t)v),
                           nc->to_w);
  }
  return EX_NEXT;
}

bool c_num_cast(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  NumCast *nc = ir_alloc(c->in->ctx, sizeof *nc);
  Type *a = el(op->operands[0]->type), *b = el(op->results[0].type);
  bool uns = ir_str_eq(op->name, "arith.uitofp") || ir_str_eq(op->name, "arith.fptoui");
  nc->from = a->kind == TY_FLOAT ? K_FLOAT : uns ? K_UINT : K_SINT;
  nc->to = b->kind == TY_FLOAT ? K_FLOAT : uns ? K_UINT : K_SINT;
  nc->from_w = a->kind == TY_FLOAT ? ir_float_width(a->u.f) : interp_int_width(a);
  nc->to_w = b->kind == TY_FLOAT ? ir_float_width(b->u.f) : interp_int_width(b);
  nc->from_f = a->kind == TY_FLOAT ? a->u.f : F_F64;
  nc->to_f = b->kind == TY_FLOAT ? b->u.f : F_F64;
  nc->bitcast = ir_str_eq(op->name, "arith.bitcast");
  if (nc->bitcast && nc->from_w != nc->to_w)
    return interp_unsupported(c, op, "a bitcast between vectors of different element widths");
  if (nc->bitcast && ((nc->from == K_FLOAT && nc->from_f != F_F32 && nc->from_f != F_F64) ||
                      (nc->to == K_FLOAT && nc->to_f != F_F32 && nc->to_f != F_F64)))
    return interp_unsupported(c, op, "a bitcast of a 16-bit float");
  ins->aux = nc;
  ins->fn = x_num_cast;
  return lanes(c, op, ins, true);
}

/* ---- bit counting, integer powers, float classes (math) ------------------------------------- */

static int x_ctlz(Frame *fr, const Ins *ins) {
  uint64_t v = U(0);
  OUT(v ? (uint64_t)__builtin_clzll(v) - (64 - ins->a) : ins->a);
  return EX_NEXT;
}
static int x_cttz(Frame *fr, const Ins *ins) {
  uint64_t v = U(0);
  OUT(v ? (uint64_t)__builtin_ctzll(v) : ins->a);
  return EX_NEXT;
}
static int x_ctpop(Frame *fr, const Ins *ins) { OUT(__builtin_popcountll(U(0))); return EX_NEXT; }
/* absi wraps: the minimum value stays itself */
static int x_absi(Frame *fr, const Ins *ins) { OUT(S(0) < 0 ? 0 - (uint64_t)S(0) : (uint64_t)S(0)); return EX_NEXT; }

/* ipowi: a negative exponent gives 1/a^-b in integers: 0 unless a is 1 or -1; 0 to a negative
 * power divides by zero, as upstream's expansion does */
static int x_ipowi(Frame *fr, const Ins *ins) {
  int64_t a = S(0), b = S(1);
  if (b < 0) {
    if (a == 0)
      return div_error(fr, ins);
    OUT(a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0);
    return EX_NEXT;
  }
  uint64_t r = 1, x = (uint64_t)a;
  for (uint64_t e = (uint64_t)b; e; e >>= 1, x *= x)
    if (e & 1)
      r *= x;
  OUT(r);
  return EX_NEXT;
}

static const struct {
  const char *name;
  ExecFn fn;
} int_unaries[] = {
  {"math.ctlz", x_ctlz}, {"math.cttz", x_cttz}, {"math.ctpop", x_ctpop}, {"math.absi", x_absi},
  {"math.ipowi", x_ipowi},
};

bool c_int_math(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  ins->a = interp_int_width(el(op->results[0].type));
  if (!ins->a)
    return interp_unsupported(c, op, "a non-integer result");
  for (size_t i = 0; i < sizeof int_unaries / sizeof int_unaries[0]; i++)
    if (ir_str_eq(op->name, int_unaries[i].name)) {
      ins->fn = int_unaries[i].fn;
      return lanes(c, op, ins, true);
    }
  return interp_unsupported(c, op, "this integer op");
}

/* fpowi: float base, integer exponent (ins->b: its width) */
static int x_fpowi(Frame *fr, const Ins *ins) {
  FOUT(pow(F(0), (double)interp_sext((uint64_t)fr->s[ins->in[1]].i, ins->b)));
  return EX_NEXT;
}

bool c_fpowi(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  ins->b = interp_int_width(el(op->operands[1]->type));
  ins->fn = x_fpowi;
  return lanes(c, op, ins, true);
}

/* isnan, isinf, isfinite, isnormal: i1 results; ins->a the operand's float kind */
static int x_fclass(Frame *fr, const Ins *ins) {
  double v = F(0);
  bool r;
  switch (ins->b) {
  case 0: r = isnan(v); break;
  case 1: r = isinf(v); break;
  case 2: r = isfinite(v); break;
  default: {
    /* normal in the operand's own type: the narrow types have their own smallest normal */
    double tiny = ins->a == F_F64 ? 2.2250738585072014e-308 : ins->a == F_F32 ? 1.17549435e-38
                  : ins->a == F_F16 ? 6.103515625e-05 : 1.17549435e-38;
    r = isfinite(v) && fabs(v) >= tiny;
    break;
  }
  }
  fr->s[ins->out[0]].i = r ? -1 : 0;
  return EX_NEXT;
}

bool c_fclass(Comp *c, Op *op, Ins *ins) {
  static const char *const names[] = {"math.isnan", "math.isinf", "math.isfinite", "math.isnormal"};
  if (!all_scalar(c, op))
    return false;
  Type *t = el(op->operands[0]->type);
  if (t->kind != TY_FLOAT || (t->u.f != F_F64 && t->u.f != F_F32 && t->u.f != F_F16 && t->u.f != F_BF16))
    return interp_unsupported(c, op, "this float type");
  ins->a = t->u.f;
  for (uint32_t i = 0; i < 4; i++)
    if (ir_str_eq(op->name, names[i]))
      ins->b = i;
  ins->fn = x_fclass;
  return lanes(c, op, ins, true);
}

/* ---- extended arithmetic: two results ------------------------------------------------------- */

/* addui_extended: sum and carry (i1) */
static int x_addui_extended(Frame *fr, const Ins *ins) {
  uint64_t a = U(0), b = U(1), m = interp_zext(-1, ins->a), sum = (a + b) & m;
  OUT(sum);
  fr->s[ins->out[1]].i = sum < a ? -1 : 0;
  return EX_NEXT;
}

/* mulsi_extended / mului_extended: low and high halves of the double-width product */
static int x_mul_extended(Frame *fr, const Ins *ins) {
  unsigned __int128 p;
  if (ins->b) /* signed */
    p = (unsigned __int128)((__int128)S(0) * (__int128)S(1));
  else
    p = (unsigned __int128)U(0) * (unsigned __int128)U(1);
  OUT((uint64_t)p);
  fr->s[ins->out[1]].i = interp_sext((uint64_t)(p >> ins->a), ins->a);
  if (ins->a == 64)
    fr->s[ins->out[1]].i = (int64_t)(uint64_t)(p >> 64);
  return EX_NEXT;
}

bool c_extended(Comp *c, Op *op, Ins *ins) {
  if (!all_scalar(c, op))
    return false;
  ins->a = interp_int_width(el(op->results[0].type));
  if (!ins->a)
    return interp_unsupported(c, op, "a non-integer result");
  if (ir_str_eq(op->name, "arith.addui_extended")) {
    ins->fn = x_addui_extended;
  } else {
    ins->fn = x_mul_extended;
    ins->b = ir_str_eq(op->name, "arith.mulsi_extended");
  }
  return lanes(c, op, ins, true);
}

/* ---- index leftovers ------------------------------------------------------------------------ */

bool c_index_bool_constant(Comp *c, Op *op, Ins *ins) {
  Attr *v = ir_op_attr(op, "value");
  (void)c;
  if (!v || (v->kind != ATTR_BOOL && v->kind != ATTR_INT))
    return interp_unsupported(c, op, "a constant without a value");
  ins->imm.i = (v->kind == ATTR_BOOL ? v->u.b : v->u.i.v != 0) ? -1 : 0;
  ins->fn = x_constant;
  return true;
}

/* index.sizeof: the host's index is 64 bits */
bool c_index_sizeof(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->imm.i = 64;
  ins->fn = x_constant;
  return true;
}

/* sincos: two results; clampf: the value clamped to [min, max] (NaN bounds propagate) */
static int x_sincos(Frame *fr, const Ins *ins) {
  double x = F(0);
  FOUT(sin(x));
  setf(&fr->s[ins->out[1]], cos(x), (FloatKind)ins->a);
  return EX_NEXT;
}

bool c_sincos(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  ins->fn = x_sincos;
  return lanes(c, op, ins, true);
}

static int x_clampf(Frame *fr, const Ins *ins) {
  double x = F(0), lo = F(1), hi = F(2);
  FOUT(isnan(x) || isnan(lo) || isnan(hi) ? NAN : x < lo ? lo : x > hi ? hi : x);
  return EX_NEXT;
}

bool c_clampf(Comp *c, Op *op, Ins *ins) {
  if (!float_result(c, op, ins))
    return false;
  ins->fn = x_clampf;
  return lanes(c, op, ins, true);
}
