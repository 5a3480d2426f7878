/* kernel_arith.c - arith, index and math ops in kernels, one op for all threads of a block.
 *
 * The ops a kernel runs most (integer and float arithmetic, comparisons, selects, casts) have
 * lane loops of their own here: a uniform result is computed once, a varying one for every active
 * thread, reading each operand with a stride of 1 (varying) or 0 (uniform). Every other op of
 * these dialects runs through the host's implementation (KHost.ops: the interpreter's arith.c),
 * called once per thread on a small scratch frame, so kernels and host code share one definition
 * of each op's semantics.
 * Ops that can fail (division by zero) have lane loops of their own, so the error names the
 * thread. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

/* ---- host implementations, once per thread ----------------------------------------------- */

#define HOST_WORDS 64

typedef struct HostOp {
  const void *host;  /* compiled by the host (KHostOps.compile) for the scratch words */
  uint32_t *out;     /* each result's first scratch word */
  uint32_t nwords;
} HostOp;

/* A host op's error: reported by the host implementation (whose error count is its own), counted
 * with the kernels' errors. */
static int host_failed(KFrame *f) {
  kernel_failed(f);
  return EX_ERROR;
}

static int x_host(KFrame *f, const KIns *k) {
  const HostOp *h = k->aux;
  const KHostOps *ops = f->L_in->ops;
  Slot s[HOST_WORDS];
  bool vary = k->nout && k->vout[0];
  if (!vary) {
    uint32_t w = 0;
    for (uint32_t j = 0; j < k->nin; j++)
      for (uint32_t x = 0; x < k->win[j]; x++)
        s[w++] = *kw(f, k->in[j] + x, false);
    if (ops->run(f->L_in, h->host, s) == EX_ERROR)
      return host_failed(f);
    for (uint32_t j = 0; j < k->nout; j++)
      for (uint32_t x = 0; x < k->wout[j]; x++)
        *kw(f, k->out[j] + x, false) = s[h->out[j] + x];
    return EX_NEXT;
  }
  int r = EX_NEXT;
  KLANES(f, l, {
    uint32_t w = 0;
    for (uint32_t j = 0; j < k->nin; j++)
      for (uint32_t x = 0; x < k->win[j]; x++)
        s[w++] = kw(f, k->in[j] + x, k->vin[j])[k->vin[j] ? l : 0];
    if (ops->run(f->L_in, h->host, s) == EX_ERROR) {
      r = host_failed(f);
      break;
    }
    for (uint32_t j = 0; j < k->nout; j++)
      for (uint32_t x = 0; x < k->wout[j]; x++)
        kw(f, k->out[j] + x, true)[l] = s[h->out[j] + x];
  });
  return r;
}

static bool host_op(KHost *in, Op *op, KIns *k) {
  if (!in->ops || !in->ops->knows(op->name))
    return false;
  HostOp *h = ir_alloc(in->ctx, sizeof *h);
  uint32_t w = 0;
  uint32_t *ins = ir_alloc(in->ctx, (op->noperands + 1) * sizeof(uint32_t));
  h->out = ir_alloc(in->ctx, (op->nresults + 1) * sizeof(uint32_t));
  for (uint32_t j = 0; j < op->noperands; j++) {
    ins[j] = w;
    w += k->win[j];
  }
  for (uint32_t j = 0; j < op->nresults; j++) {
    h->out[j] = w;
    w += k->wout[j];
  }
  if (w > HOST_WORDS) {
    ir_op_error(in->ctx, op, "values of more than %d words are not supported in kernels yet", HOST_WORDS);
    in->errors++;
    return false;
  }
  h->nwords = w;
  if (!(h->host = in->ops->compile(in, op, ins, h->out, w)))
    return false;
  k->aux = h;
  k->fn = x_host;
  return true;
}

/* ---- lane loops ------------------------------------------------------------------------------ */

/* Two operands, one result: expr over a and b (Slot values) gives the result Slot field. With the
 * mask full, the loops over varying and uniform operands are split so the compiler can vectorize
 * them. */
/* A Slot holding x (an f32 in the low half, the high half zero), built so that loops of them
 * vectorize. */
static inline Slot mk_i(int64_t x) { return (Slot){.i = x}; }
static inline Slot mk_f(double x) { return (Slot){.f = x}; }
static inline Slot mk_f32(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return (Slot){.u = b};
}

#define BIN(name, field, T, expr)                                                                  \
  KLANEFN static int name(KFrame *f, const KIns *k) {                                              \
    const Slot *A = KIN(f, k, 0), *B = KIN(f, k, 1);                                               \
    Slot *O = KOUT(f, k, 0);                                                                       \
    uint32_t w = k->a;                                                                             \
    (void)w;                                                                                       \
    if (!k->vout[0]) {                                                                             \
      T a = A[0].field, b = B[0].field;                                                            \
      O[0] = mk_##field(expr);                                                                     \
      return EX_NEXT;                                                                              \
    }                                                                                              \
    size_t sa = k->vin[0], sb = k->vin[1];                                                         \
    uint32_t l0_ = f->nact ? f->act[0] : 0;                                                        \
    if (f->nact == f->n || (f->nact && f->act[f->nact - 1] - l0_ == f->nact - 1)) {                \
      uint32_t n = f->nact; /* all, or a range from l0_: the same loops from there */              \
      if (f->nact == f->n)                                                                         \
        l0_ = 0;                                                                                   \
      A += l0_ * sa, B += l0_ * sb, O += l0_;                                                      \
      if (sa && sb) {                                                                              \
        for (uint32_t l = 0; l < n; l++) {                                                         \
          T a = A[l].field, b = B[l].field;                                                        \
          O[l] = mk_##field(expr);                                                                 \
        }                                                                                          \
      } else if (sa) {                                                                             \
        T b = B[0].field;                                                                          \
        for (uint32_t l = 0; l < n; l++) {                                                         \
          T a = A[l].field;                                                                        \
          O[l] = mk_##field(expr);                                                                 \
        }                                                                                          \
      } else {                                                                                     \
        T a = A[0].field;                                                                          \
        for (uint32_t l = 0; l < n; l++) {                                                         \
          T b = B[l].field; /* the result varies: B does */                                        \
          O[l] = mk_##field(expr);                                                                 \
        }                                                                                          \
      }                                                                                            \
      return EX_NEXT;                                                                              \
    }                                                                                              \
    KLANES(f, l, {                                                                                 \
      T a = A[l * sa].field, b = B[l * sb].field;                                                  \
      O[l] = mk_##field(expr);                                                                     \
    });                                                                                            \
    return EX_NEXT;                                                                                \
  }

#define SX(v) kernel_sext((uint64_t)(v), w)
#define ZX(v) kernel_zext((v), w)

BIN(k_addi, i, int64_t, SX((uint64_t)a + (uint64_t)b))
BIN(k_subi, i, int64_t, SX((uint64_t)a - (uint64_t)b))
BIN(k_muli, i, int64_t, SX((uint64_t)a * (uint64_t)b))
BIN(k_addi64, i, int64_t, (int64_t)((uint64_t)a + (uint64_t)b))
BIN(k_subi64, i, int64_t, (int64_t)((uint64_t)a - (uint64_t)b))
BIN(k_muli64, i, int64_t, (int64_t)((uint64_t)a * (uint64_t)b))
BIN(k_addi32, i, int64_t, (int32_t)(uint32_t)((uint64_t)a + (uint64_t)b))
BIN(k_subi32, i, int64_t, (int32_t)(uint32_t)((uint64_t)a - (uint64_t)b))
BIN(k_muli32, i, int64_t, (int32_t)(uint32_t)((uint64_t)a * (uint64_t)b))
BIN(k_andi, i, int64_t, a & b)
BIN(k_ori, i, int64_t, a | b)
BIN(k_xori, i, int64_t, SX((uint64_t)(a ^ b)))
BIN(k_maxsi, i, int64_t, a > b ? a : b)
BIN(k_minsi, i, int64_t, a < b ? a : b)
BIN(k_maxui, i, int64_t, ZX(a) > ZX(b) ? a : b)
BIN(k_minui, i, int64_t, ZX(a) < ZX(b) ? a : b)
BIN(k_shli, i, int64_t, ZX(b) >= w ? 0 : SX((uint64_t)a << ZX(b)))
BIN(k_shrui, i, int64_t, ZX(b) >= w ? 0 : SX(ZX(a) >> ZX(b)))
BIN(k_shrsi, i, int64_t, ZX(b) >= w ? (a < 0 ? -1 : 0) : a >> ZX(b))
BIN(k_addf32_any, f32, float, a + b)
BIN(k_subf32_any, f32, float, a - b)
BIN(k_mulf32_any, f32, float, a * b)
BIN(k_divf32_any, f32, float, a / b)

/* f32 arithmetic of whole columns under the full mask: an f32 Slot is the float in the low half
 * and zeros above, so four Slots are eight floats; the op runs on all eight and the high halves
 * are cleared again after (0 op 0 may be NaN). No shuffles between Slots and floats. */
typedef float KV8F __attribute__((vector_size(32)));
typedef uint32_t KV8U __attribute__((vector_size(32)));

#define F32COL(name, op)                                                                           \
  KLANEFN static int name(KFrame *f, const KIns *k) {                                              \
    /* the active threads all of them or a range from l0_ */                                      \
    uint32_t l0_ = f->nact == f->n || !f->nact ? 0 : f->act[0];                                    \
    if (!k->vout[0] || !f->nact || (f->nact != f->n && f->act[f->nact - 1] - l0_ != f->nact - 1))  \
      return name##_any(f, k);                                                                     \
    const Slot *A = KIN(f, k, 0), *B = KIN(f, k, 1);                                               \
    Slot *O = KOUT(f, k, 0) + l0_;                                                                 \
    const KV8U low = {~0u, 0, ~0u, 0, ~0u, 0, ~0u, 0};                                             \
    uint32_t n = f->nact, l = 0;                                                                   \
    bool va = k->vin[0], vb = k->vin[1];                                                           \
    A += va ? l0_ : 0, B += vb ? l0_ : 0;                                                          \
    float ua = A[0].f32, ub = B[0].f32;                                                            \
    KV8F sa = {ua, 0, ua, 0, ua, 0, ua, 0}, sb = {ub, 0, ub, 0, ub, 0, ub, 0};                     \
    for (; l + 4 <= n; l += 4) {                                                                   \
      KV8F a = sa, b = sb;                                                                         \
      if (va)                                                                                      \
        memcpy(&a, A + l, 32);                                                                     \
      if (vb)                                                                                      \
        memcpy(&b, B + l, 32);                                                                     \
      KV8U r = (KV8U)(a op b) & low;                                                               \
      memcpy(O + l, &r, 32);                                                                       \
    }                                                                                              \
    for (; l < n; l++)                                                                             \
      O[l] = mk_f32(A[va ? l : 0].f32 op B[vb ? l : 0].f32);                                       \
    return EX_NEXT;                                                                                \
  }

F32COL(k_addf32, +)
F32COL(k_subf32, -)
F32COL(k_mulf32, *)
F32COL(k_divf32, /)
BIN(k_maxnumf32, f32, float, fmaxf(a, b))
BIN(k_minnumf32, f32, float, fminf(a, b))
BIN(k_addf64, f, double, a + b)
BIN(k_subf64, f, double, a - b)
BIN(k_mulf64, f, double, a * b)
BIN(k_divf64, f, double, a / b)
BIN(k_maxnumf64, f, double, fmax(a, b))
BIN(k_minnumf64, f, double, fmin(a, b))

/* Divisions check the divisor of every active thread first. kind: 0 divsi, 1 divui, 2 remsi,
 * 3 remui, 4 ceildivsi, 5 floordivsi, 6 ceildivui */
static inline int64_t divide(int64_t a, int64_t b, uint32_t kind, uint32_t w) {
  uint64_t ua = kernel_zext(a, w), ub = kernel_zext(b, w);
  int64_t min = kernel_sext(1ULL << (w - 1), w);
  bool ovf = a == min && b == -1;
  switch (kind) {
  case 0: return ovf ? min : a / b;
  case 1: return kernel_sext(ua / ub, w);
  case 2: return ovf ? 0 : a % b;
  case 3: return kernel_sext(ua % ub, w);
  case 4: {
    if (ovf)
      return min;
    int64_t q = a / b, r = a % b;
    return q + (r != 0 && ((r > 0) == (b > 0)));
  }
  case 5: {
    if (ovf)
      return min;
    int64_t q = a / b, r = a % b;
    return q - (r != 0 && ((r < 0) != (b < 0)));
  }
  default: return kernel_sext(ua / ub + (ua % ub != 0), w);
  }
}

static int k_div(KFrame *f, const KIns *k) {
  const Slot *A = KIN(f, k, 0), *B = KIN(f, k, 1);
  Slot *O = KOUT(f, k, 0);
  uint32_t w = k->a;
  if (!k->vout[0]) {
    if (!kernel_zext(B[0].i, w))
      return kernel_error(f, k, f->act[0], "division by zero");
    O[0].i = divide(A[0].i, B[0].i, k->b, w);
    return EX_NEXT;
  }
  size_t sa = k->vin[0], sb = k->vin[1];
  int r = EX_NEXT;
  KLANES(f, l, {
    int64_t b = B[l * sb].i;
    if (!kernel_zext(b, w)) {
      r = kernel_error(f, k, l, "division by zero");
      break;
    }
    O[l].i = divide(A[l * sa].i, b, k->b, w);
  });
  return r;
}

/* predicates in arith.cmpi's order: eq ne slt sle sgt sge ult ule ugt uge */
static inline bool cmpi(int64_t a, int64_t b, uint32_t pred, uint32_t w) {
  uint64_t ua = kernel_zext(a, w), ub = kernel_zext(b, w);
  switch (pred) {
  case 0: return a == b;
  case 1: return a != b;
  case 2: return a < b;
  case 3: return a <= b;
  case 4: return a > b;
  case 5: return a >= b;
  case 6: return ua < ub;
  case 7: return ua <= ub;
  case 8: return ua > ub;
  default: return ua >= ub;
  }
}

/* cmpi by predicate, in arith.cmpi's order; unsigned ones compare under the mask of width w */
#define UM (w >= 64 ? ~0ull : (1ull << w) - 1)
BIN(k_cmp_eq, i, int64_t, a == b ? -1 : 0)
BIN(k_cmp_ne, i, int64_t, a != b ? -1 : 0)
BIN(k_cmp_slt, i, int64_t, a < b ? -1 : 0)
BIN(k_cmp_sle, i, int64_t, a <= b ? -1 : 0)
BIN(k_cmp_sgt, i, int64_t, a > b ? -1 : 0)
BIN(k_cmp_sge, i, int64_t, a >= b ? -1 : 0)
BIN(k_cmp_ult, i, int64_t, ((uint64_t)a & UM) < ((uint64_t)b & UM) ? -1 : 0)
BIN(k_cmp_ule, i, int64_t, ((uint64_t)a & UM) <= ((uint64_t)b & UM) ? -1 : 0)
BIN(k_cmp_ugt, i, int64_t, ((uint64_t)a & UM) > ((uint64_t)b & UM) ? -1 : 0)
BIN(k_cmp_uge, i, int64_t, ((uint64_t)a & UM) >= ((uint64_t)b & UM) ? -1 : 0)
#undef UM

static const KFn cmp_fns[10] = {k_cmp_eq,  k_cmp_ne,  k_cmp_slt, k_cmp_sle, k_cmp_sgt,
                                k_cmp_sge, k_cmp_ult, k_cmp_ule, k_cmp_ugt, k_cmp_uge};

bool kernel_tidx_cut(const KFrame *f, int64_t a0, int64_t b, uint32_t pred, uint32_t *cut, bool *prefix) {
  int64_t d, n = f->n;
  if (pred < 2 || pred > 9 || f->nact != f->n || !kernel_one_row(f))
    return false;
  if (pred >= 6) { /* unsigned: as signed when both sides are non-negative as signed values */
    if (a0 < 0 || b < 0 || a0 > INT64_MAX - n)
      return false;
    pred -= 4;
  }
  if (__builtin_sub_overflow(b, a0, &d) || d == INT64_MAX)
    return false;
  *prefix = pred == 2 || pred == 3; /* slt, sle: true below the cut; sgt, sge: from it on */
  int64_t c = pred == 3 || pred == 4 ? d + 1 : d;
  *cut = (uint32_t)(c < 0 ? 0 : c > n ? n : c);
  return true;
}

/* cmpi (but eq, ne) of an index that is a uniform value plus the thread's x id against a uniform
 * one: in a block of one full row the result is true on a prefix or a suffix of the threads, found
 * with one subtraction (kernel_tidx_cut). */
KLANEFN static int k_cmp_tidx(KFrame *f, const KIns *k) {
  const Slot *A = KIN(f, k, 0), *B = KIN(f, k, 1);
  Slot *O = KOUT(f, k, 0);
  uint32_t cut, n = f->n;
  bool prefix;
  if (!kernel_tidx_cut(f, A[0].i, B[0].i, k->b, &cut, &prefix))
    return cmp_fns[k->b](f, k);
  if (k->imm) /* only the scf.if below reads it, and it finds the same cut itself */
    return EX_NEXT;
  for (uint32_t l = 0; l < cut; l++)
    O[l].i = prefix ? -1 : 0;
  for (uint32_t l = cut; l < n; l++)
    O[l].i = prefix ? 0 : -1;
  return EX_NEXT;
}

static int k_cmpi(KFrame *f, const KIns *k) {
  const Slot *A = KIN(f, k, 0), *B = KIN(f, k, 1);
  Slot *O = KOUT(f, k, 0);
  uint32_t w = k->a, pred = k->b;
  if (!k->vout[0]) {
    O[0].i = cmpi(A[0].i, B[0].i, pred, w) ? -1 : 0;
    return EX_NEXT;
  }
  size_t sa = k->vin[0], sb = k->vin[1];
  if (pred == 2) { /* slt: loop bounds and guards */
    KLANES(f, l, { O[l].i = A[l * sa].i < B[l * sb].i ? -1 : 0; });
    return EX_NEXT;
  }
  KLANES(f, l, { O[l].i = cmpi(A[l * sa].i, B[l * sb].i, pred, w) ? -1 : 0; });
  return EX_NEXT;
}

static int k_select(KFrame *f, const KIns *k) {
  const Slot *C = KIN(f, k, 0);
  size_t sc = k->vin[0];
  for (uint32_t x = 0; x < k->wout[0]; x++) {
    const Slot *A = kw(f, k->in[1] + x, k->vin[1]), *B = kw(f, k->in[2] + x, k->vin[2]);
    Slot *O = kw(f, k->out[0] + x, k->vout[0]);
    if (!k->vout[0]) {
      O[0] = (C[0].i & 1) ? A[0] : B[0];
      continue;
    }
    size_t sa = k->vin[1], sb = k->vin[2];
    KLANES(f, l, { O[l] = (C[l * sc].i & 1) ? A[l * sa] : B[l * sb]; });
  }
  return EX_NEXT;
}

/* integer casts: a source width, b result width, imm 1 when the source is zero-extended */
static int k_int_cast(KFrame *f, const KIns *k) {
  const Slot *A = KIN(f, k, 0);
  Slot *O = KOUT(f, k, 0);
  uint32_t w = k->a, to = k->b;
  bool z = k->imm;
  if (!k->vout[0]) {
    O[0].i = kernel_sext(z ? kernel_zext(A[0].i, w) : (uint64_t)A[0].i, to);
    return EX_NEXT;
  }
  size_t sa = k->vin[0];
  if (to == 64 && !z) {
    KLANES(f, l, { O[l].i = A[l * sa].i; });
    return EX_NEXT;
  }
  KLANES(f, l, { O[l].i = kernel_sext(z ? kernel_zext(A[l * sa].i, w) : (uint64_t)A[l * sa].i, to); });
  return EX_NEXT;
}

/* signed integer to f32 / f64 (imm: 1 for f64) */
static int k_sitofp(KFrame *f, const KIns *k) {
  const Slot *A = KIN(f, k, 0);
  Slot *O = KOUT(f, k, 0);
  uint32_t n = k->vout[0] ? 1 : 0;
  size_t sa = k->vin[0];
  if (!n) {
    Slot r = {0};
    if (k->imm)
      r.f = (double)A[0].i;
    else
      r.f32 = (float)A[0].i;
    O[0] = r;
    return EX_NEXT;
  }
  if (k->imm)
    KLANES(f, l, { O[l].f = (double)A[l * sa].i; });
  else
    KLANES(f, l, {
      Slot r = {0};
      r.f32 = (float)A[l * sa].i;
      O[l] = r;
    });
  return EX_NEXT;
}

/* ---- choosing ------------------------------------------------------------------------------ */

static const struct {
  const char *names[2];
  KFn fn;
} int_ops[] = {
  {{"arith.addi", "index.add"}, k_addi},   {{"arith.subi", "index.sub"}, k_subi},
  {{"arith.muli", "index.mul"}, k_muli},   {{"arith.andi", "index.and"}, k_andi},
  {{"arith.ori", "index.or"}, k_ori},      {{"arith.xori", "index.xor"}, k_xori},
  {{"arith.maxsi", "index.maxs"}, k_maxsi}, {{"arith.minsi", "index.mins"}, k_minsi},
  {{"arith.maxui", "index.maxu"}, k_maxui}, {{"arith.minui", "index.minu"}, k_minui},
  {{"arith.shli", "index.shl"}, k_shli},   {{"arith.shrui", "index.shru"}, k_shrui},
  {{"arith.shrsi", "index.shrs"}, k_shrsi},
};

static const char *const div_ops[][2] = {
  {"arith.divsi", "index.divs"},         {"arith.divui", "index.divu"},         {"arith.remsi", "index.rems"},
  {"arith.remui", "index.remu"},         {"arith.ceildivsi", "index.ceildivs"}, {"arith.floordivsi", "index.floordivs"},
  {"arith.ceildivui", "index.ceildivu"},
};

static const struct {
  const char *name;
  KFn f32, f64;
} float_ops[] = {
  {"arith.addf", k_addf32, k_addf64},         {"arith.subf", k_subf32, k_subf64},
  {"arith.mulf", k_mulf32, k_mulf64},         {"arith.divf", k_divf32, k_divf64},
  {"arith.maxnumf", k_maxnumf32, k_maxnumf64}, {"arith.minnumf", k_minnumf32, k_minnumf64},
};

static bool is_scalar(const Type *t) { return t->kind == TY_INT || t->kind == TY_INDEX || t->kind == TY_FLOAT; }

bool kernel_is_arith(Op *op) {
  Str n = op->name;
  return (n.len > 6 && !memcmp(n.s, "arith.", 6)) || (n.len > 5 && !memcmp(n.s, "math.", 5)) ||
         (n.len > 6 && !memcmp(n.s, "index.", 6));
}

int kernel_tidx_cmp(const Op *op) {
  const Type *t = op->noperands == 2 ? op->operands[0]->type : NULL;
  /* i64: a lowered kernel's (only its ops mark i64 values, kernel.c) */
  if (!(ir_str_eq(op->name, "arith.cmpi") || ir_str_eq(op->name, "index.cmp") || ir_str_eq(op->name, "llvm.icmp")) ||
      !t || !(t->kind == TY_INDEX || (t->kind == TY_INT && t->u.i.width == 64)) || kernel_tid(op->operands[0]) != 1 ||
      !(op->operands[0]->id & KV_VARY) ||
      (op->operands[1]->id & KV_VARY))
    return -1;
  Attr *pred = ir_op_attr(op, "predicate");
  return pred && pred->kind == ATTR_INT && pred->u.i.v >= 2 && pred->u.i.v <= 9 ? (int)pred->u.i.v : -1;
}

bool kernel_compile_arith(KHost *in, Op *op, KIns *k) {
  bool scalars = true;
  for (uint32_t j = 0; j < op->noperands; j++)
    scalars = scalars && is_scalar(op->operands[j]->type);
  for (uint32_t j = 0; j < op->nresults; j++)
    scalars = scalars && is_scalar(op->results[j].type);
  if (scalars && op->nresults == 1) {
    Type *rt = op->results[0].type;
    uint32_t w = kernel_int_width(rt);
    for (size_t i = 0; w && i < sizeof int_ops / sizeof int_ops[0]; i++)
      if (ir_str_eq(op->name, int_ops[i].names[0]) || ir_str_eq(op->name, int_ops[i].names[1])) {
        static const KFn by_width[][3] = {{k_addi, k_addi64, k_addi32}, {k_subi, k_subi64, k_subi32},
                                          {k_muli, k_muli64, k_muli32}};
        k->a = w;
        k->fn = int_ops[i].fn;
        if (i < 3 && (w == 64 || w == 32))
          k->fn = by_width[i][w == 64 ? 1 : 2];
        return true;
      }
    for (uint32_t i = 0; w && i < sizeof div_ops / sizeof div_ops[0]; i++)
      if (ir_str_eq(op->name, div_ops[i][0]) || ir_str_eq(op->name, div_ops[i][1])) {
        k->a = w;
        k->b = i;
        k->fn = k_div;
        return true;
      }
    bool f32 = rt->kind == TY_FLOAT && rt->u.f == F_F32, f64 = rt->kind == TY_FLOAT && rt->u.f == F_F64;
    for (size_t i = 0; (f32 || f64) && i < sizeof float_ops / sizeof float_ops[0]; i++)
      if (ir_str_eq(op->name, float_ops[i].name)) {
        k->fn = f32 ? float_ops[i].f32 : float_ops[i].f64;
        return true;
      }
    if (ir_str_eq(op->name, "arith.cmpi") || ir_str_eq(op->name, "index.cmp")) {
      Attr *pred = ir_op_attr(op, "predicate");
      if (pred && pred->kind == ATTR_INT && pred->u.i.v >= 0 && pred->u.i.v <= 9) {
        k->a = kernel_int_width(op->operands[0]->type);
        k->b = (uint32_t)pred->u.i.v;
        k->fn = k->a ? cmp_fns[k->b] : k_cmpi;
        if (kernel_tidx_cmp(op) >= 0 && k->vin[0] && !k->vin[1]) {
          Use *u = op->results[0].uses;
          k->fn = k_cmp_tidx;
          /* the condition of an scf.if of the same block, and nothing else: see c_kif */
          k->imm = u && !u->next && u->index == 0 && ir_str_eq(u->user->name, "scf.if") && u->user->parent == op->parent;
        }
        return true;
      }
    }
    if (ir_str_eq(op->name, "arith.index_cast") || ir_str_eq(op->name, "arith.index_castui") ||
        ir_str_eq(op->name, "arith.extsi") || ir_str_eq(op->name, "arith.extui") ||
        ir_str_eq(op->name, "arith.trunci") || ir_str_eq(op->name, "index.casts") ||
        ir_str_eq(op->name, "index.castu")) {
      k->a = kernel_int_width(op->operands[0]->type);
      k->b = w;
      k->imm = ir_str_eq(op->name, "arith.extui") || ir_str_eq(op->name, "arith.index_castui") ||
               ir_str_eq(op->name, "index.castu");
      if (k->a && k->b) {
        k->fn = k_int_cast;
        return true;
      }
    }
    if (ir_str_eq(op->name, "arith.sitofp") && (f32 || f64) && kernel_int_width(op->operands[0]->type)) {
      k->imm = f64;
      k->fn = k_sitofp;
      return true;
    }
  }
  if (ir_str_eq(op->name, "arith.select") && op->operands[0]->type->kind == TY_INT) {
    k->fn = k_select;
    return true;
  }
  return host_op(in, op, k);
}

bool kernel_compile_host(KHost *in, Op *op, KIns *k) { return host_op(in, op, k); }

/* The table's pointers as the compile functions stored them: the address of a function of two
 * clones (KLANEFN) written in code is its PLT entry, which gcc folds in, not what the table holds. */
int kernel_f32_binop(const KIns *k) {
  static const int ops[] = {'+', '-', '*'};
  for (int i = 0; i < 3; i++)
    if (k->fn == *(const volatile KFn *)&float_ops[i].f32)
      return ops[i];
  return 0;
}
