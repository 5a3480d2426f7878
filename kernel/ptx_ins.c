/* ptx_ins.c - what PTX instructions do (kernel_ptx.c has the overview): the KFn each compiled
 * instruction runs for a block's threads at once. Operands (registers' columns, uniform words,
 * immediates, special registers), guards and branches, moves, selects and compares, integer
 * arithmetic and the carry chain, f32/f64 and f16/bf16 arithmetic (rounded by kernel_fp.c, bit for
 * bit), bit manipulation, conversions, and the warp-level instructions (shfl, vote, match, redux,
 * elect) with bar.sync's thread count and bar.red; ptx_lower.c compiles each into a PIns. bar.sync
 * is gpu.barrier (kernel_ops.c: a divergent one is an error); a thread count must be the whole
 * block's (checked when it runs), and bar.red reduces over the block once all are there. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* ---- operands --------------------------------------------------------------------------------- */

/* %clock and %clock64: one count for the whole process, one more at each read, so that a thread's
 * later read is larger (a count of reads, not of cycles) */
static _Atomic uint64_t clock_count;

static uint64_t globaltimer(void) { /* %globaltimer: the host's monotonic clock in nanoseconds */
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ptx_sreg(const KFrame *f, const POpd *o, uint32_t l) {
  uint32_t c = o->comp, bx = f->bdim[0], by = f->bdim[1];
  switch (o->sreg) {
  case PTX_SREG_CLOCK: case PTX_SREG_CLOCK64: return atomic_fetch_add_explicit(&clock_count, 1, memory_order_relaxed) + 1;
  case PTX_SREG_CLOCK_HI: return (atomic_fetch_add_explicit(&clock_count, 1, memory_order_relaxed) + 1) >> 32;
  case PTX_SREG_GLOBALTIMER: return globaltimer();
  case PTX_SREG_GLOBALTIMER_LO: return globaltimer() & 0xffffffffu;
  case PTX_SREG_GLOBALTIMER_HI: return globaltimer() >> 32;
  case PTX_SREG_SMID: case PTX_SREG_GRIDID: case PTX_SREG_CLUSTER_CTARANK: case PTX_SREG_IS_EXPLICIT_CLUSTER:
    return 0;
  case PTX_SREG_NSMID: case PTX_SREG_CLUSTER_NCTARANK: return 1;
  case PTX_SREG_CLUSTERID: case PTX_SREG_NCLUSTERID: { /* clusters of one block */
    uint32_t bid[3], t;
    kernel_lane_block(f, l, &t, bid);
    return o->sreg == PTX_SREG_CLUSTERID ? bid[c] : f->gdim[c];
  }
  case PTX_SREG_CLUSTER_CTAID: return 0;
  case PTX_SREG_CLUSTER_NCTAID: return 1;
  case PTX_SREG_TOTAL_SMEM_SIZE: case PTX_SREG_AGGR_SMEM_SIZE: return (uint64_t)(f->priv - f->lo);
  case PTX_SREG_TID: return c == 0 ? l % bx : c == 1 ? l / bx % by : l / (bx * by);
  case PTX_SREG_NTID: return f->bdim[c];
  case PTX_SREG_CTAID: return f->bid[c];
  case PTX_SREG_NCTAID: return f->gdim[c];
  case PTX_SREG_LANEID: return l % WARP;
  case PTX_SREG_WARPID: return l / WARP;
  case PTX_SREG_NWARPID: return (f->n + WARP - 1) / WARP;
  case PTX_SREG_LANEMASK_EQ: return UINT64_C(1) << (l % WARP);
  case PTX_SREG_LANEMASK_LT: return (UINT64_C(1) << (l % WARP)) - 1;
  case PTX_SREG_LANEMASK_LE: return (UINT64_C(2) << (l % WARP)) - 1;
  case PTX_SREG_LANEMASK_GT: return wmask(~((UINT64_C(2) << (l % WARP)) - 1), 32);
  case PTX_SREG_LANEMASK_GE: return wmask(~((UINT64_C(1) << (l % WARP)) - 1), 32);
  case PTX_SREG_DYNAMIC_SMEM_SIZE: return f->smem_bytes;
  default: return 0;
  }
}

/* dst[l] = EXPR masked to the destination's width, over the active threads; a and b the columns of
 * the first two sources (sa, sb their strides). */
#define PLANES(f, d, m, EXPR) KLANES(f, l, { d[l].u = (EXPR) & (m); })

/* dst[l] = EXPR of x and y, thread l's bits of columns a and b, a loop for each of the strides
 * (columns or one word), so that the compiler sees plain lane loops. */
#define PLANES2(f, d, m, a, sa, b, sb, EXPR)                                                       \
  do {                                                                                             \
    if ((sa) && (sb)) {                                                                            \
      KLANES(f, l, {                                                                               \
        uint64_t x = (a)[l].u, y = (b)[l].u;                                                       \
        d[l].u = (EXPR) & (m);                                                                     \
      });                                                                                          \
    } else if (sa) {                                                                               \
      uint64_t y = (b)[0].u;                                                                       \
      KLANES(f, l, {                                                                               \
        uint64_t x = (a)[l].u;                                                                     \
        d[l].u = (EXPR) & (m);                                                                     \
      });                                                                                          \
    } else if (sb) {                                                                               \
      uint64_t x = (a)[0].u;                                                                       \
      KLANES(f, l, {                                                                               \
        uint64_t y = (b)[l].u;                                                                     \
        d[l].u = (EXPR) & (m);                                                                     \
      });                                                                                          \
    } else {                                                                                       \
      uint64_t x = (a)[0].u, y = (b)[0].u;                                                         \
      KLANES(f, l, { d[l].u = (EXPR) & (m); });                                                    \
    }                                                                                              \
  } while (0)

static inline float ftz32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

/* ---- guards and control flow ----------------------------------------------------------------- */

/* @p / @!p: the instruction runs for the active threads whose predicate holds. */
int ptx_x_guard(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t *act = f->act, nact = f->nact, m, *sub;
  if (guard_sub(f, k, &p->guard, false, &sub, &m) == EX_ERROR)
    return EX_ERROR;
  if (!m)
    return EX_NEXT;
  f->top += f->n;
  f->act = sub;
  f->nact = m;
  int r = p->run(f, k);
  f->act = act;
  f->nact = nact;
  f->top -= f->n;
  return r;
}

/* bra (ret: to EXIT_PC). All of the region's threads to one block: run_cfg runs it next without
 * reading pc, and that block's end writes theirs again (a bra, @p bra, or the fall-through), so
 * pc is left as it is. */
int ptx_x_bra(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (f->nact != f->pc_all)
    for (uint32_t i = 0; i < f->nact; i++)
      f->pc[f->act[i]] = p->target;
  f->pc_one = p->target, f->pc_n = f->nact;
  return EX_DONE;
}

/* How many active threads' predicates (column g, 0 or 1) hold, and in *turns how often it changes
 * from one to the next in the mask's order. */
KLANEFN uint32_t ptx_guard_count(const KFrame *f, const Slot *g, uint32_t *turns) {
  uint64_t n = 0, c = 0;
  if (f->nact == f->n) {
    for (uint32_t l = 0; l < f->n; l++)
      n += g[l].u;
    for (uint32_t l = 1; l < f->n; l++)
      c += g[l].u ^ g[l - 1].u;
  } else
    for (uint32_t i = 0; i < f->nact; i++) {
      n += g[f->act[i]].u;
      c += i ? g[f->act[i]].u ^ g[f->act[i - 1]].u : 0;
    }
  *turns = (uint32_t)c;
  return (uint32_t)n;
}

/* @p bra: the threads whose predicate holds go to the label, the others to the next block. */
int ptx_x_cond_bra(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t taken = 0, turns, t0;
  if (f->nact == f->pc_all && p->cutword && ptx_cut_count(f, p, &taken, &turns, &t0) &&
      (taken == 0 || taken == f->nact)) { /* all one way by the setp's cut: no predicate column read */
    f->pc_one = taken ? p->target : p->next, f->pc_n = f->nact;
    return EX_DONE;
  }
  taken = 0;
  if (p->cutword)
    ptx_cut_col(f, p);
  if (f->nact == f->pc_all && p->guard.kind == O_REG && p->guard.width == 1) { /* all one way: no pc written */
    taken = ptx_guard_count(f, f->v + (size_t)p->guard.word * f->n, &turns);
    taken = p->guard.neg ? f->nact - taken : taken;
    if (taken == 0 || taken == f->nact) {
      f->pc_one = taken ? p->target : p->next, f->pc_n = f->nact;
      return EX_DONE;
    }
    taken = 0;
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], t = (uint32_t)(rd(f, &p->guard, l) & 1);
    f->pc[l] = t ? p->target : p->next;
    taken += t;
  }
  f->pc_one = taken ? p->target : p->next;
  f->pc_n = taken == 0 || taken == f->nact ? f->nact : 0;
  return EX_DONE;
}

/* ---- moves, selects, compares ----------------------------------------------------------------- */

int ptx_x_mov(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  Slot ia;
  uint32_t sa = 0;
  const Slot *a = col(f, &p->s[0], &ia, &sa);
  Slot *d = dcol(f, &p->d[0]);
  uint64_t m = wmask(UINT64_MAX, p->d[0].width);
  if (d && a) {
    PLANES(f, d, m, a[l * sa].u);
    return EX_NEXT;
  }
  if (d && p->s[0].kind == O_SREG && p->s[0].sreg == PTX_SREG_TID && p->s[0].comp == 0 && f->bdim[0] == f->n) {
    PLANES(f, d, m, l); /* %tid.x of a block of one row */
    return EX_NEXT;
  }
  KLANES(f, l, { wr(f, &p->d[0], l, rd(f, &p->s[0], l)); });
  return EX_NEXT;
}

/* mov.b64 {a, b}, x (unpack, mode 1; a part may be _) and mov.b64 x, {a, b} (pack, mode 2): p->bytes
 * per part */
int ptx_x_pack(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  unsigned w = p->bytes * 8;
  if (p->mode == 1)
    KLANES(f, l, {
      uint64_t x = rd(f, &p->s[0], l);
      for (uint32_t j = 0; j < p->nd; j++)
        if (p->d[j].kind) /* not a sink (_) */
          wr(f, &p->d[j], l, x >> (w * j));
    });
  else
    KLANES(f, l, {
      uint64_t x = 0;
      for (uint32_t j = 0; j < p->ns; j++)
        x |= wmask(rd(f, &p->s[j], l), w) << (w * j);
      wr(f, &p->d[0], l, x);
    });
  return EX_NEXT;
}

int ptx_x_selp(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, { wr(f, &p->d[0], l, (rd(f, &p->s[2], l) & 1) ? rd(f, &p->s[0], l) : rd(f, &p->s[1], l)); });
  return EX_NEXT;
}

static bool cmp_float(unsigned mode, double x, double y) {
  bool un = isnan(x) || isnan(y);
  switch (mode) {
  case C_EQ: return !un && x == y;
  case C_NE: return !un && x != y;
  case C_LT: return !un && x < y;
  case C_LE: return !un && x <= y;
  case C_GT: return !un && x > y;
  case C_GE: return !un && x >= y;
  case C_EQU: return un || x == y;
  case C_NEU: return un || x != y;
  case C_LTU: return un || x < y;
  case C_LEU: return un || x <= y;
  case C_GTU: return un || x > y;
  case C_GEU: return un || x >= y;
  case C_NUM: return !un;
  default: return un;
  }
}

/* a half's value, flushed to zero first under .ftz */
static double half_val(const PIns *p, uint64_t h) {
  h &= 0xffff;
  if (p->ftz && kernel_fp_subnormal(h, p->fmt))
    h &= 0x8000;
  return kernel_fp_value(h, p->fmt);
}

/* the comparison of element j (0, or 1 for the high half of a pair) */
static bool compare_at(const PIns *p, uint64_t a, uint64_t b, unsigned j) {
  if (is_half(p->t))
    return cmp_float(p->mode, half_val(p, a >> (16 * j)), half_val(p, b >> (16 * j)));
  unsigned t = p->t, w = ptx_type_bits(t);
  if (is_float(t)) {
    double x = t == PTX_T_F32 ? f32of(a) : f64of(a), y = t == PTX_T_F32 ? f32of(b) : f64of(b);
    if (t == PTX_T_F32 && p->ftz)
      x = ftz32((float)x), y = ftz32((float)y);
    return cmp_float(p->mode, x, y);
  }
  if (is_signed(t) && p->mode <= C_GE) {
    int64_t x = sext(a, w), y = sext(b, w);
    switch (p->mode) {
    case C_EQ: return x == y;
    case C_NE: return x != y;
    case C_LT: return x < y;
    case C_LE: return x <= y;
    case C_GT: return x > y;
    default: return x >= y;
    }
  }
  uint64_t x = wmask(a, w), y = wmask(b, w);
  switch (p->mode) {
  case C_EQ: return x == y;
  case C_NE: return x != y;
  case C_LT: case C_LO: return x < y;
  case C_LE: case C_LS: return x <= y;
  case C_GT: case C_HI: return x > y;
  default: return x >= y;
  }
}

/* setp.cmp[.bool].t p[|q], a, b[, c]; of a pair (.f16x2, .bf16x2), p the low halves' result
 * and q the high halves' */
/* setp of integers, one result, no combining: the compare's lane loop of each type and predicate */
KLANEFN static bool setp_fast(KFrame *f, const PIns *p) {
  Slot ia, ib;
  uint32_t sa = 0, sb = 0;
  const Slot *a = col(f, &p->s[0], &ia, &sa), *b = col(f, &p->s[1], &ib, &sb);
  Slot *d = dcol(f, &p->d[0]);
  if (!a || !b || !d || p->nd != 1 || p->combine || !is_int(p->t) || p->mode > C_HS)
    return false;
  unsigned w = ptx_type_bits(p->t);
  if (is_signed(p->t) && p->mode <= C_GE) {
#define SCMP(OP)                                                                                   \
  do {                                                                                             \
    if (w == 64)                                                                                   \
      PLANES2(f, d, 1, a, sa, b, sb, (uint64_t)((int64_t)x OP (int64_t)y));                         \
    else if (w == 32)                                                                              \
      PLANES2(f, d, 1, a, sa, b, sb, (uint64_t)((int32_t)(uint32_t)x OP (int32_t)(uint32_t)y));       \
    else                                                                                           \
      PLANES2(f, d, 1, a, sa, b, sb, (uint64_t)(sext(x, w) OP sext(y, w)));                        \
  } while (0)
    switch (p->mode) {
    case C_EQ: SCMP(==); break;
    case C_NE: SCMP(!=); break;
    case C_LT: SCMP(<); break;
    case C_LE: SCMP(<=); break;
    case C_GT: SCMP(>); break;
    default: SCMP(>=); break;
    }
#undef SCMP
    return true;
  }
#define UCMP(OP) PLANES2(f, d, 1, a, sa, b, sb, (uint64_t)(wmask(x, w) OP wmask(y, w)))
  switch (p->mode) {
  case C_EQ: UCMP(==); break;
  case C_NE: UCMP(!=); break;
  case C_LT: case C_LO: UCMP(<); break;
  case C_LE: case C_LS: UCMP(<=); break;
  case C_GT: case C_HI: UCMP(>); break;
  default: UCMP(>=); break;
  }
#undef UCMP
  return true;
}

int ptx_x_setp(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (setp_fast(f, p))
    return EX_NEXT;
  bool pair = is_pair(p->t);
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = rd(f, &p->s[1], l);
    uint64_t r = compare_at(p, a, b, 0), c = p->combine ? rd(f, &p->s[2], l) & 1 : 0;
    wr(f, &p->d[0], l, combine(p->combine, r, c));
    if (p->nd > 1)
      wr(f, &p->d[1], l, combine(p->combine, pair ? compare_at(p, a, b, 1) : r ^ 1, c));
  });
  return EX_NEXT;
}

/* set.cmp[.bool].dtype.stype d, a, b[, c]: per element of d (two of a pair), all ones or 1.0 of
 * its type where the comparison (of the same element of a pair source) holds, else 0 */
int ptx_x_set(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  unsigned dt = p->t2, n = is_pair(dt) || (is_pair(p->t) && ptx_type_bits(dt) == 32) ? 2 : 1;
  unsigned ew = ptx_type_bits(dt) / n;
  uint64_t one = dt == PTX_T_F32 ? 0x3f800000u : half_fmt(dt) == KFP_BF16 && is_half(dt) ? 0x3f80
                 : is_half(dt)   ? 0x3c00 : wmask(UINT64_MAX, ew);
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = rd(f, &p->s[1], l), c = p->combine ? rd(f, &p->s[2], l) & 1 : 0, d = 0;
    for (unsigned j = 0; j < n; j++)
      if (combine(p->combine, compare_at(p, a, b, is_pair(p->t) ? j : 0), c))
        d |= one << (ew * j);
    wr(f, &p->d[0], l, d);
  });
  return EX_NEXT;
}

/* ---- integer arithmetic ------------------------------------------------------------------------- */

static uint64_t mul_hi(uint64_t a, uint64_t b, unsigned w, bool s) {
  if (w == 64)
    return s ? (uint64_t)(((__int128)(int64_t)a * (__int128)(int64_t)b) >> 64)
             : (uint64_t)(((unsigned __int128)a * b) >> 64);
  if (s)
    return (uint64_t)((sext(a, w) * sext(b, w)) >> w);
  return (wmask(a, w) * wmask(b, w)) >> w;
}

static uint64_t int_op(const PIns *p, uint64_t a, uint64_t b, uint64_t c) {
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t);
  switch (p->mode) {
  case I_ADD: {
    if (p->sat) { /* add.sat.s32 */
      int64_t r = sext(a, 32) + sext(b, 32);
      return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
    }
    return a + b;
  }
  case I_SUB: {
    if (p->sat) {
      int64_t r = sext(a, 32) - sext(b, 32);
      return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
    }
    return a - b;
  }
  case I_MUL_LO: return a * b;
  case I_MUL_HI: return mul_hi(a, b, w, s);
  case I_MUL_WIDE: return s ? (uint64_t)(sext(a, w) * sext(b, w)) : wmask(a, w) * wmask(b, w);
  case I_MAD_LO: return a * b + c;
  case I_MAD_HI: return mul_hi(a, b, w, s) + c;
  case I_MAD_WIDE: return (s ? (uint64_t)(sext(a, w) * sext(b, w)) : wmask(a, w) * wmask(b, w)) + c;
  case I_MIN: return s ? (sext(a, w) < sext(b, w) ? a : b) : (wmask(a, w) < wmask(b, w) ? a : b);
  case I_MAX: return s ? (sext(a, w) > sext(b, w) ? a : b) : (wmask(a, w) > wmask(b, w) ? a : b);
  case I_AND: return a & b;
  case I_OR: return a | b;
  case I_XOR: return a ^ b;
  case I_SHL: {
    uint64_t n = wmask(b, 32);
    return n >= w ? 0 : a << n;
  }
  case I_SHR: {
    uint64_t n = wmask(b, 32);
    if (s)
      return (uint64_t)(sext(a, w) >> (n >= w ? w - 1 : n));
    return n >= w ? 0 : wmask(a, w) >> n;
  }
  case I_DIV:
    if (s) {
      int64_t x = sext(a, w), y = sext(b, w);
      return y == -1 ? (uint64_t)0 - (uint64_t)x : (uint64_t)(x / y);
    }
    return wmask(a, w) / wmask(b, w);
  case I_REM:
    if (s) {
      int64_t x = sext(a, w), y = sext(b, w);
      return y == -1 ? 0 : (uint64_t)(x % y);
    }
    return wmask(a, w) % wmask(b, w);
  case I_NEG: return (uint64_t)0 - a;
  case I_ABS: return sext(a, w) < 0 ? (uint64_t)0 - a : a;
  case I_NOT: return ~a;
  case I_POPC: return (uint64_t)__builtin_popcountll(wmask(a, w));
  case I_CLZ: {
    uint64_t x = wmask(a, w);
    return x ? (uint64_t)(__builtin_clzll(x) - (64 - (int)w)) : w;
  }
  case I_BREV: {
    uint64_t x = wmask(a, w), r = 0;
    for (unsigned i = 0; i < w; i++)
      r |= ((x >> i) & 1) << (w - 1 - i);
    return r;
  }
  default: return wmask(a, w) == 0;
  }
}

/* The common integer forms as lane loops of their own (no switch per thread); false for the others. */
KLANEFN static bool int_fast(KFrame *f, const PIns *p) {
  Slot ia, ib, ic;
  uint32_t sa = 0, sb = 0, sc = 0;
  const Slot *a = col(f, &p->s[0], &ia, &sa), *b = p->ns > 1 ? col(f, &p->s[1], &ib, &sb) : NULL;
  const Slot *c = p->ns > 2 ? col(f, &p->s[2], &ic, &sc) : &ic;
  Slot *d = dcol(f, &p->d[0]);
  if (!a || !b || !c || !d || p->sat)
    return false;
  uint64_t m = wmask(UINT64_MAX, p->d[0].width);
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t);
  switch (p->mode) {
  case I_ADD: PLANES2(f, d, m, a, sa, b, sb, x + y); return true;
  case I_SUB: PLANES2(f, d, m, a, sa, b, sb, x - y); return true;
  case I_MUL_LO: PLANES2(f, d, m, a, sa, b, sb, x * y); return true;
  case I_MAD_LO: PLANES(f, d, m, a[l * sa].u * b[l * sb].u + c[l * sc].u); return true;
  case I_AND: PLANES2(f, d, m, a, sa, b, sb, x & y); return true;
  case I_OR: PLANES2(f, d, m, a, sa, b, sb, x | y); return true;
  case I_XOR: PLANES2(f, d, m, a, sa, b, sb, x ^ y); return true;
  case I_MUL_WIDE:
    if (s)
      PLANES2(f, d, m, a, sa, b, sb, (uint64_t)(sext(x, w) * sext(y, w)));
    else
      PLANES2(f, d, m, a, sa, b, sb, wmask(x, w) * wmask(y, w));
    return true;
  case I_SHL:
    PLANES2(f, d, m, a, sa, b, sb, wmask(y, 32) >= w ? 0 : x << wmask(y, 32));
    return true;
  case I_SHR:
    if (s)
      PLANES(f, d, m, (uint64_t)(sext(a[l * sa].u, w) >> (wmask(b[l * sb].u, 32) >= w ? w - 1 : wmask(b[l * sb].u, 32))));
    else
      PLANES(f, d, m, wmask(b[l * sb].u, 32) >= w ? 0 : wmask(a[l * sa].u, w) >> wmask(b[l * sb].u, 32));
    return true;
  default: return false;
  }
}

int ptx_x_int(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (int_fast(f, p))
    return EX_NEXT;
  if (p->mode == I_DIV || p->mode == I_REM) {
    unsigned w = ptx_type_bits(p->t);
    for (uint32_t i = 0; i < f->nact; i++) {
      uint32_t l = f->act[i];
      if (!wmask(rd(f, &p->s[1], l), w))
        return kernel_error(f, k, l, "integer division by zero");
    }
  }
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = p->ns > 1 ? rd(f, &p->s[1], l) : 0, c = p->ns > 2 ? rd(f, &p->s[2], l) : 0;
    wr(f, &p->d[0], l, int_op(p, a, b, c));
  });
  return EX_NEXT;
}

/* ---- the carry chain ------------------------------------------------------------------------------ */

/* add.cc, addc[.cc], sub.cc, subc[.cc], mad.cc, madc[.cc] (.lo, .hi) on 32 or 64 bits: each
 * thread's carry flag (CC.CF) is a column of its own, p->s[3]; .cc writes it (p->d[1]), the c
 * forms add it in (sub: a borrow, subtracted). p->combine: 1 carry in, 2 carry out. */
int ptx_x_carry(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t), cin = p->combine & 1, cout = p->combine & 2;
  KLANES(f, l, {
    unsigned __int128 a = wmask(rd(f, &p->s[0], l), w), b = wmask(rd(f, &p->s[1], l), w), r, x;
    unsigned __int128 cf = cin ? rd(f, &p->s[3], l) & 1 : 0, top = (unsigned __int128)1 << w;
    uint64_t flag;
    switch (p->mode) {
    case K_ADD:
      r = a + b + cf;
      flag = r >= top;
      break;
    case K_SUB:
      r = a - b - cf;
      flag = a < b + cf;
      break;
    default: { /* mad: the product's low or high half, plus c and the carry */
      uint64_t c = wmask(rd(f, &p->s[2], l), w);
      uint64_t part = p->mode == K_MAD_LO ? (uint64_t)(a * b) : mul_hi((uint64_t)a, (uint64_t)b, w, s);
      x = wmask(part, w);
      r = x + c + cf;
      flag = r >= top;
      break;
    }
    }
    wr(f, &p->d[0], l, wmask((uint64_t)r, w));
    if (cout)
      wr(f, &p->d[1], l, flag);
  });
  return EX_NEXT;
}

/* ---- floating point ----------------------------------------------------------------------------- */

/* The operations that round by a modifier other than to nearest (.rz, .rm, .rp): kernel_fp.c's */
static unsigned fp_op(unsigned mode) {
  switch (mode) {
  case F_ADD: return KFP_OP_ADD;
  case F_SUB: return KFP_OP_SUB;
  case F_MUL: return KFP_OP_MUL;
  case F_FMA: return KFP_OP_FMA;
  case F_DIV: return KFP_OP_DIV;
  case F_SQRT: return KFP_OP_SQRT;
  default: return KFP_OP_RCP;
  }
}

static float f32_op(const PIns *p, float a, float b, float c) {
  if (p->ftz)
    a = ftz32(a), b = ftz32(b), c = ftz32(c);
  float r;
  if (p->nan && (isnan(a) || isnan(b)))
    return f32of(0x7fffffff); /* min/max.NaN: the canonical NaN */
  switch (p->rnd ? 255 : p->mode) {
  case 255: r = f32of(kernel_fp_f32(fp_op(p->mode), p->rnd - 1u, a, b, c)); break;
  case F_ADD: r = a + b; break;
  case F_SUB: r = a - b; break;
  case F_MUL: r = a * b; break;
  case F_FMA: r = fmaf(a, b, c); break;
  case F_DIV: r = a / b; break;
  case F_MIN: r = fminf(a, b); break;
  case F_MAX: r = fmaxf(a, b); break;
  case F_NEG: r = -a; break;
  case F_ABS: r = fabsf(a); break;
  case F_SQRT: r = sqrtf(a); break;
  case F_RCP: r = 1.0f / a; break;
  case F_RSQRT: r = 1.0f / sqrtf(a); break;
  case F_EX2: r = exp2f(a); break;
  case F_LG2: r = log2f(a); break;
  case F_SIN: r = sinf(a); break;
  case F_TANH: r = tanhf(a); break;
  default: r = cosf(a); break;
  }
  if (p->sat)
    r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
  if (isnan(r)) /* the canonical NaN, as the hardware gives */
    return f32of(0x7fffffff);
  return p->ftz ? ftz32(r) : r;
}

static double f64_op(const PIns *p, double a, double b, double c) {
  if (p->nan && (isnan(a) || isnan(b)))
    return f64of(UINT64_C(0x7fffffffffffffff));
  if (p->rnd)
    return f64of(kernel_fp_f64(fp_op(p->mode), p->rnd - 1u, a, b, c));
  switch (p->mode) {
  case F_ADD: return a + b;
  case F_SUB: return a - b;
  case F_MUL: return a * b;
  case F_FMA: return fma(a, b, c);
  case F_DIV: return a / b;
  case F_MIN: return fmin(a, b);
  case F_MAX: return fmax(a, b);
  case F_NEG: return -a;
  case F_ABS: return fabs(a);
  case F_SQRT: return sqrt(a);
  case F_RCP: return 1.0 / a;
  case F_RSQRT: return 1.0 / sqrt(a);
  case F_EX2: return exp2(a);
  case F_LG2: return log2(a);
  case F_SIN: return sin(a);
  default: return cos(a);
  }
}

/* A f32 result's bits, a NaN the canonical NaN (as f32_op gives it). */
static inline uint64_t bitsf32c(float r) {
  return isnan(r) ? 0x7fffffffu : bitsf32(r);
}

/* f32 add, sub and mul (mode) of whole columns under the full mask or a range of its threads,
 * eight floats a vector: a 32-bit register's Slot holds its bits in the low half and zeros above,
 * so four Slots are eight floats, and the high halves (0 op 0, never a NaN for these) stay zero. A NaN result becomes the
 * canonical NaN, as bitsf32c makes it (a NaN lane's compare mask is all ones: with the sign bit
 * flipped, 0x7fffffff). a and b: columns (stride 1) or one word (stride 0). */
typedef float PV8F __attribute__((vector_size(32)));

typedef uint32_t PV8U __attribute__((vector_size(32)));

static inline float f32_mode(unsigned mode, float x, float y) {
  return mode == F_ADD ? x + y : mode == F_SUB ? x - y : x * y;
}

/* r = x op y with its NaNs canonical, for f32_loop */
#define F32_VEC(r, mode, x, y)                                                                     \
  do {                                                                                             \
    PV8F r_ = (mode) == F_ADD ? (x) + (y) : (mode) == F_SUB ? (x) - (y) : (x) * (y);               \
    PV8U nan_ = (PV8U)(r_ != r_);                                                                  \
    r = ((PV8U)r_ | nan_) ^ (nan_ & sign);                                                         \
  } while (0)

/* f32_cols for one mode and pair of strides, all known when it is inlined */
static inline __attribute__((always_inline)) void f32_loop(Slot *d, const Slot *a, const Slot *b, uint32_t n,
                                                           unsigned mode, bool sa, bool sb) {
  const PV8U sign = {0x80000000u, 0, 0x80000000u, 0, 0x80000000u, 0, 0x80000000u, 0};
  float ua = f32of(a[0].u), ub = f32of(b[0].u);
  const PV8F ba = {ua, 0, ua, 0, ua, 0, ua, 0}, bb = {ub, 0, ub, 0, ub, 0, ub, 0};
  uint32_t l = 0;
  for (; l + 8 <= n; l += 8) {
    PV8F x0 = ba, x1 = ba, y0 = bb, y1 = bb;
    PV8U r0, r1;
    if (sa)
      memcpy(&x0, a + l, 32), memcpy(&x1, a + l + 4, 32);
    if (sb)
      memcpy(&y0, b + l, 32), memcpy(&y1, b + l + 4, 32);
    F32_VEC(r0, mode, x0, y0);
    F32_VEC(r1, mode, x1, y1);
    memcpy(d + l, &r0, 32);
    memcpy(d + l + 4, &r1, 32);
  }
  for (; l < n; l++)
    d[l].u = bitsf32c(f32_mode(mode, f32of(a[sa ? l : 0].u), f32of(b[sb ? l : 0].u)));
}

KLANEFN static void f32_cols(Slot *d, const Slot *a, uint32_t sa, const Slot *b, uint32_t sb, uint32_t n,
                             unsigned mode) {
#define F32_STRIDES(mode)                                                                          \
  do {                                                                                             \
    if (sa && sb)                                                                                  \
      f32_loop(d, a, b, n, mode, true, true);                                                      \
    else if (sa)                                                                                   \
      f32_loop(d, a, b, n, mode, true, false);                                                     \
    else                                                                                           \
      f32_loop(d, a, b, n, mode, false, sb);                                                       \
  } while (0)
  if (mode == F_ADD)
    F32_STRIDES(F_ADD);
  else if (mode == F_SUB)
    F32_STRIDES(F_SUB);
  else
    F32_STRIDES(F_MUL);
#undef F32_STRIDES
}

/* add, sub, mul and fma of f32 rounded to nearest, without .ftz and .sat, as lane loops of their own */
KLANEFN static bool f32_fast(KFrame *f, const PIns *p) {
  Slot ia, ib, ic;
  uint32_t sa = 0, sb = 0, sc = 0;
  if (p->ftz || p->sat || p->rnd || p->nan || p->ns < 2 || p->mode > F_FMA)
    return false;
  const Slot *a = col(f, &p->s[0], &ia, &sa), *b = col(f, &p->s[1], &ib, &sb);
  const Slot *c = p->ns > 2 ? col(f, &p->s[2], &ic, &sc) : &ic;
  Slot *d = dcol(f, &p->d[0]);
  if (!a || !b || !c || !d)
    return false;
  uint32_t m = f->nact, l0 = m ? f->act[0] : 0;
  if (p->mode <= F_MUL && m && f->act[m - 1] - l0 == m - 1 && (!sa || p->s[0].width == 32) &&
      (!sb || p->s[1].width == 32)) { /* the full mask, or a range of it (`if (tid < s)`) */
    f32_cols(d + l0, a + (size_t)l0 * sa, sa, b + (size_t)l0 * sb, sb, m, p->mode);
    return true;
  }
  switch (p->mode) {
  case F_ADD: PLANES2(f, d, UINT32_MAX, a, sa, b, sb, bitsf32c(f32of(x) + f32of(y))); break;
  case F_SUB: PLANES2(f, d, UINT32_MAX, a, sa, b, sb, bitsf32c(f32of(x) - f32of(y))); break;
  case F_MUL: PLANES2(f, d, UINT32_MAX, a, sa, b, sb, bitsf32c(f32of(x) * f32of(y))); break;
  default: PLANES(f, d, UINT32_MAX, bitsf32c(fmaf(f32of(a[l * sa].u), f32of(b[l * sb].u), f32of(c[l * sc].u)))); break;
  }
  return true;
}

int ptx_x_f32(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (f32_fast(f, p))
    return EX_NEXT;
  KLANES(f, l, {
    float a = f32of(rd(f, &p->s[0], l)), b = p->ns > 1 ? f32of(rd(f, &p->s[1], l)) : 0.0f,
          c = p->ns > 2 ? f32of(rd(f, &p->s[2], l)) : 0.0f;
    wr(f, &p->d[0], l, bitsf32(f32_op(p, a, b, c)));
  });
  return EX_NEXT;
}

int ptx_x_f64(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, {
    double a = f64of(rd(f, &p->s[0], l)), b = p->ns > 1 ? f64of(rd(f, &p->s[1], l)) : 0.0,
           c = p->ns > 2 ? f64of(rd(f, &p->s[2], l)) : 0.0, r = f64_op(p, a, b, c);
    wr(f, &p->d[0], l, isnan(r) ? UINT64_C(0x7fffffffffffffff) : bitsf64(r));
  });
  return EX_NEXT;
}

/* ---- f16 and bf16 -------------------------------------------------------------------------------- */

/* One 16-bit element of an f16/bf16 instruction: the exact result rounded once to nearest
 * (kernel_fp.c), then .ftz, .sat and .relu; a NaN result is the canonical NaN. */
static uint64_t half_op(const PIns *p, uint64_t a, uint64_t b, uint64_t c) {
  unsigned fmt = p->fmt;
  a &= 0xffff, b &= 0xffff, c &= 0xffff;
  if (p->ftz) {
    a = kernel_fp_subnormal(a, fmt) ? a & 0x8000 : a;
    b = kernel_fp_subnormal(b, fmt) ? b & 0x8000 : b;
    c = kernel_fp_subnormal(c, fmt) ? c & 0x8000 : c;
  }
  double x = kernel_fp_value(a, fmt), y = kernel_fp_value(b, fmt), z = kernel_fp_value(c, fmt);
  uint64_t r;
  switch (p->mode) {
  case H_ADD: r = kernel_fp_add(x, y, KFP_RN, fmt); break;
  case H_SUB: r = kernel_fp_add(x, -y, KFP_RN, fmt); break;
  case H_MUL: r = kernel_fp_mul(x, y, KFP_RN, fmt); break;
  case H_FMA: r = kernel_fp_fma(x, y, z, KFP_RN, fmt); break;
  case H_NEG: return a ^ 0x8000;
  case H_ABS: return a & 0x7fff;
  case H_MIN:
  case H_MAX: {
    bool na = isnan(x), nb = isnan(y);
    if ((na && nb) || (p->nan && (na || nb)))
      return kernel_fp_nan(fmt);
    if (na || nb)
      return na ? b : a;
    bool lt = x < y || (x == y && signbit(x) && !signbit(y)); /* -0 below +0 */
    return (p->mode == H_MIN) == lt ? a : b;
  }
  case H_EX2: r = kernel_fp_round(exp2(x), 0, KFP_RN, fmt); break;
  default: r = kernel_fp_round(tanh(x), 0, KFP_RN, fmt); break;
  }
  if (kernel_fp_isnan(r, fmt))
    return p->sat ? 0 : kernel_fp_nan(fmt);
  if (p->ftz && kernel_fp_subnormal(r, fmt))
    r &= 0x8000;
  double v = kernel_fp_value(r, fmt);
  if ((p->sat || p->relu) && v < 0)
    r = 0;
  if (p->sat && v > 1)
    r = fmt == KFP_BF16 ? 0x3f80 : 0x3c00;
  return r;
}

/* an f16/bf16 instruction: one element, or each half of a pair */
int ptx_x_half(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  unsigned n = is_pair(p->t) ? 2 : 1;
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = p->ns > 1 ? rd(f, &p->s[1], l) : 0, c = p->ns > 2 ? rd(f, &p->s[2], l) : 0;
    uint64_t d = 0;
    for (unsigned j = 0; j < n; j++)
      d |= half_op(p, a >> (16 * j), b >> (16 * j), c >> (16 * j)) << (16 * j);
    wr(f, &p->d[0], l, d);
  });
  return EX_NEXT;
}

/* ---- bit manipulation --------------------------------------------------------------------------- */

enum { T_FINITE, T_INFINITE, T_NUMBER, T_NOTANUMBER, T_NORMAL, T_SUBNORMAL };

/* lop3: bit i of the result is bit (a_i b_i c_i) of the table, the union of its set minterms */
static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (unsigned m = 0; m < 8; m++)
    if (lut >> m & 1)
      r |= (m & 4 ? a : ~a) & (m & 2 ? b : ~b) & (m & 1 ? c : ~c);
  return r;
}

/* prmt: result byte i is byte sel of {b, a} (a the low four); mode 0 the default, 1..6 f4e b4e rc8 ecl ecr rc16 */
static uint32_t prmt(unsigned mode, uint32_t a, uint32_t b, uint32_t c) {
  uint64_t x = (uint64_t)b << 32 | a;
  uint32_t r = 0, s = c & 3;
  for (unsigned i = 0; i < 4; i++) {
    unsigned n = c >> (4 * i) & 15, sel;
    switch (mode) {
    case 1: sel = (s + i) & 7; break;               /* f4e */
    case 2: sel = (s - i) & 7; break;               /* b4e */
    case 3: sel = s; break;                         /* rc8 */
    case 4: sel = i > s ? i : s; break;             /* ecl */
    case 5: sel = i < s ? i : s; break;             /* ecr */
    case 6: sel = (s & 1) * 2 + (i & 1); break;     /* rc16 */
    default: sel = n & 7; break;
    }
    uint32_t byte = (uint32_t)(x >> (8 * sel)) & 0xff;
    if (!mode && (n & 8))
      byte = byte & 0x80 ? 0xff : 0; /* sign replicate */
    r |= byte << (8 * i);
  }
  return r;
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned w, bool s) {
  pos &= 0xff, len &= 0xff;
  uint64_t sbit = 0, r = 0;
  if (s && len)
    sbit = a >> (pos + len - 1 < w - 1 ? pos + len - 1 : w - 1) & 1;
  for (unsigned i = 0; i < w; i++)
    r |= (i < len && pos + i < w ? a >> (pos + i) & 1 : sbit) << i;
  return r;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned w) {
  pos &= 0xff, len &= 0xff;
  for (unsigned i = 0; i < len && pos + i < w; i++)
    b = (b & ~(UINT64_C(1) << (pos + i))) | (a >> i & 1) << (pos + i);
  return b;
}

static bool testp(unsigned what, double x) {
  switch (what) {
  case T_FINITE: return isfinite(x);
  case T_INFINITE: return isinf(x);
  case T_NUMBER: return !isnan(x);
  case T_NOTANUMBER: return isnan(x);
  case T_NORMAL: return isnormal(x);
  default: return fpclassify(x) == FP_SUBNORMAL;
  }
}

static bool testp32(unsigned what, float x) { /* a float's own class: its subnormals are normal doubles */
  switch (what) {
  case T_FINITE: return isfinite(x);
  case T_INFINITE: return isinf(x);
  case T_NUMBER: return !isnan(x);
  case T_NOTANUMBER: return isnan(x);
  case T_NORMAL: return isnormal(x);
  default: return fpclassify(x) == FP_SUBNORMAL;
  }
}

static uint64_t bit_op(const PIns *p, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t);
  switch (p->mode) {
  case B_LOP3: return lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint32_t)d);
  case B_SHF_L:
  case B_SHF_R: {
    uint32_t n = (uint32_t)c;
    n = p->combine ? (n > 32 ? 32 : n) : n & 31; /* combine: .clamp */
    uint64_t x = b << 32 | wmask(a, 32);
    return p->mode == B_SHF_L ? (x << n) >> 32 : x >> n;
  }
  case B_PRMT: return prmt(p->combine, (uint32_t)a, (uint32_t)b, (uint32_t)c);
  case B_BFE: return bfe(wmask(a, w), (uint32_t)b, (uint32_t)c, w, s);
  case B_BFI: return bfi(a, b, (uint32_t)c, (uint32_t)d, w);
  case B_MUL24_LO: case B_MUL24_HI: case B_MAD24_LO: case B_MAD24_HI: {
    int64_t x = s ? sext(a, 24) : (int64_t)wmask(a, 24), y = s ? sext(b, 24) : (int64_t)wmask(b, 24);
    uint64_t m = (uint64_t)(x * y);
    m = p->mode == B_MUL24_HI || p->mode == B_MAD24_HI ? m >> 16 : m;
    if (p->sat) { /* mad24.hi.sat.s32: the sum clamped to s32 */
      int64_t r = sext(m, 32) + sext(c, 32);
      return (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
    }
    return p->mode >= B_MAD24_LO ? m + c : m;
  }
  case B_DP4A:
  case B_DP2A: { /* c plus the dot product of a's bytes (dp2a: halves) and b's bytes (dp2a: two of them) */
    bool sa = is_signed(p->t), sb = is_signed(p->t2), two = p->mode == B_DP2A;
    int64_t r = (int64_t)(uint32_t)c;
    for (unsigned i = 0; i < (two ? 2u : 4u); i++) {
      uint64_t ea = a >> (two ? 16 * i : 8 * i), eb = b >> (8 * (i + (two && p->combine ? 2 : 0)));
      int64_t x = sa ? sext(ea, two ? 16 : 8) : (int64_t)wmask(ea, two ? 16 : 8);
      int64_t y = sb ? sext(eb, 8) : (int64_t)wmask(eb, 8);
      r += x * y;
    }
    return (uint64_t)r;
  }
  case B_SAD: {
    bool gt = s ? sext(a, w) > sext(b, w) : wmask(a, w) > wmask(b, w);
    return c + (gt ? a - b : b - a);
  }
  case B_SLCT: {
    bool ge;
    if (p->t2 == PTX_T_F32) {
      float x = f32of(c);
      ge = (p->ftz ? ftz32(x) : x) >= 0.0f;
    } else
      ge = sext(c, 32) >= 0;
    return ge ? a : b;
  }
  case B_COPYSIGN: {
    uint64_t sign = UINT64_C(1) << (w - 1);
    return (b & ~sign) | (a & sign);
  }
  case B_TESTP: return p->t == PTX_T_F32 ? testp32(p->combine, f32of(a)) : testp(p->combine, f64of(a));
  default: { /* bfind: the most significant bit that differs from the sign (unsigned: the highest set) */
    uint64_t x = wmask(s && sext(a, w) < 0 ? ~a : a, w);
    if (!x)
      return 0xffffffffu;
    unsigned pos = 63 - (unsigned)__builtin_clzll(x);
    return p->combine ? w - 1 - pos : pos; /* combine: .shiftamt */
  }
  }
}

int ptx_x_bits(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = p->ns > 1 ? rd(f, &p->s[1], l) : 0, c = p->ns > 2 ? rd(f, &p->s[2], l) : 0,
             d = p->ns > 3 ? rd(f, &p->s[3], l) : 0;
    wr(f, &p->d[0], l, bit_op(p, a, b, c, d));
  });
  return EX_NEXT;
}

/* lop3.or/and.b32 d|p, a, b, c, lut, q: d as lop3 (not written for _), p = (d != 0) or/and q */
int ptx_x_lop3p(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, {
    uint32_t r = lop3((uint32_t)rd(f, &p->s[0], l), (uint32_t)rd(f, &p->s[1], l), (uint32_t)rd(f, &p->s[2], l),
                      (uint32_t)p->s[3].imm);
    if (p->d[0].kind)
      wr(f, &p->d[0], l, r);
    wr(f, &p->d[1], l, combine(p->combine, r != 0, rd(f, &p->s[4], l) & 1));
  });
  return EX_NEXT;
}

/* fns.b32 d, mask, base, offset: the position of the offset-th set bit of mask counted from bit
 * base (up for a positive offset, down for a negative one; offset 0: base itself when set), or
 * 0xffffffff; a base past 31 has no defined result and is an error */
int ptx_x_fns(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    if (wmask(rd(f, &p->s[1], l), 32) > 31)
      return kernel_error(f, k, l, "fns with a base of %llu (past bit 31)",
                          (unsigned long long)wmask(rd(f, &p->s[1], l), 32));
  }
  KLANES(f, l, {
    uint32_t mask = (uint32_t)rd(f, &p->s[0], l), d = 0xffffffffu;
    int32_t pos = (int32_t)wmask(rd(f, &p->s[1], l), 32), off = (int32_t)(uint32_t)rd(f, &p->s[2], l);
    if (off == 0) {
      if (mask >> pos & 1)
        d = (uint32_t)pos;
    } else {
      int64_t count = (off > 0 ? (int64_t)off : -(int64_t)off) - 1;
      for (int inc = off > 0 ? 1 : -1; pos >= 0 && pos < 32; pos += inc)
        if (mask >> pos & 1) {
          if (count == 0) {
            d = (uint32_t)pos;
            break;
          }
          count--;
        }
    }
    wr(f, &p->d[0], l, d);
  });
  return EX_NEXT;
}

/* ---- conversions ------------------------------------------------------------------------------- */

static double round_by(double x, unsigned r) {
  switch (r) {
  case R_Z: return trunc(x);
  case R_M: return floor(x);
  case R_P: return ceil(x);
  default: return nearbyint(x); /* the default rounding mode: to nearest even */
  }
}

/* A float result of cvt in format fmt: .relu (negative to +0), .satfinite (an infinity to the
 * largest finite value), .sat (to [0, 1], NaN to 0), .ftz (f32: a subnormal to zero) */
static uint64_t cvt_finish(const PIns *p, uint64_t r, unsigned fmt) {
  unsigned w = kernel_fp_bits(fmt);
  uint64_t sign = UINT64_C(1) << (w - 1);
  if (kernel_fp_isnan(r, fmt))
    return p->sat ? 0 : p->relu || p->satfinite ? kernel_fp_nan(fmt) : r;
  double v = kernel_fp_value(r, fmt);
  if ((p->relu || p->sat) && v < 0)
    r = 0;
  if (p->satfinite && isinf(v))
    r = kernel_fp_round(copysign(DBL_MAX, v), 0, KFP_RZ, fmt); /* the largest finite value of its sign */
  if (p->sat && v > 1)
    r = kernel_fp_round(1.0, 0, KFP_RN, fmt);
  if (p->ftz && fmt == KFP_F32 && kernel_fp_subnormal(r, fmt))
    r &= sign;
  return r;
}

/* cvt.d.a: p->t the destination type, p->t2 the source's; p->mode the integer rounding (.rni
 * and friends, R_*), p->rnd the float rounding (KFP_* + 1; none: to nearest). A float source is
 * its exact value as a double; an integer source is rounded once into a float destination. */
static uint64_t convert(const PIns *p, uint64_t a) {
  unsigned dt = p->t, st = p->t2, dw = ptx_type_bits(dt), sw = ptx_type_bits(st);
  int sf = fmt_of(st), df = fmt_of(dt);
  unsigned rnd = p->rnd ? p->rnd - 1u : KFP_RN;
  if (sf >= 0) {
    uint64_t bits = wmask(a, kernel_fp_bits((unsigned)sf));
    if (p->ftz && (sf == KFP_F32 || sf == KFP_F16) && kernel_fp_subnormal(bits, (unsigned)sf))
      bits &= UINT64_C(1) << (kernel_fp_bits((unsigned)sf) - 1);
    double x = kernel_fp_value(bits, (unsigned)sf);
    if (df >= 0) {
      if (p->mode && dt == st)
        x = round_by(x, p->mode); /* cvt.rni.f32.f32 */
      if (df == KFP_F64)
        return cvt_finish(p, bitsf64(x), KFP_F64);
      return cvt_finish(p, kernel_fp_round(x, 0, rnd, (unsigned)df), (unsigned)df);
    }
    if (isnan(x))
      return 0;
    x = round_by(x, p->mode);
    if (is_signed(dt)) { /* float to int saturates */
      double lo = -ldexp(1.0, (int)dw - 1), hi = ldexp(1.0, (int)dw - 1);
      return x < lo ? (uint64_t)(int64_t)lo : x >= hi ? (UINT64_C(1) << (dw - 1)) - 1 : (uint64_t)(int64_t)x;
    }
    double hi = ldexp(1.0, (int)dw);
    return x <= 0 ? 0 : x >= hi ? wmask(UINT64_MAX, dw) : (uint64_t)x;
  }
  if (df >= 0) {
    uint64_t v = is_signed(st) ? (uint64_t)sext(a, sw) : wmask(a, sw);
    return cvt_finish(p, kernel_fp_from_int(v, is_signed(st), rnd, (unsigned)df), (unsigned)df);
  }
  int64_t v = is_signed(st) ? sext(a, sw) : (int64_t)wmask(a, sw);
  if (p->sat) { /* clamp to the destination's range */
    if (is_signed(dt)) {
      int64_t lo = dw >= 64 ? INT64_MIN : -(INT64_C(1) << (dw - 1)), hi = dw >= 64 ? INT64_MAX : (INT64_C(1) << (dw - 1)) - 1;
      if (!is_signed(st) && sw == 64 && (uint64_t)v > (uint64_t)INT64_MAX)
        return (uint64_t)hi;
      v = v < lo ? lo : v > hi ? hi : v;
    } else if (is_signed(st) && v < 0) {
      v = 0;
    } else if (dw < 64 && (uint64_t)v > wmask(UINT64_MAX, dw)) {
      return wmask(UINT64_MAX, dw);
    }
  }
  return (uint64_t)v; /* an integer cvt sign- or zero-extends from the source */
}

int ptx_x_cvt(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  Slot ia;
  uint32_t sa = 0;
  const Slot *a = col(f, &p->s[0], &ia, &sa);
  Slot *d = dcol(f, &p->d[0]);
  if (p->ns == 2) { /* cvt.f16x2.f32 d, a, b: a into the high half, b the low */
    KLANES(f, l, {
      wr(f, &p->d[0], l, convert(p, rd(f, &p->s[0], l)) << 16 | convert(p, rd(f, &p->s[1], l)));
    });
    return EX_NEXT;
  }
  if (a && d && is_int(p->t) && is_int(p->t2) && !p->sat) { /* an integer cvt: extend or truncate */
    unsigned sw = ptx_type_bits(p->t2);
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    if (is_signed(p->t2))
      PLANES(f, d, m, (uint64_t)sext(a[l * sa].u, sw));
    else
      PLANES(f, d, m, wmask(a[l * sa].u, sw));
    return EX_NEXT;
  }
  KLANES(f, l, { wr(f, &p->d[0], l, convert(p, rd(f, &p->s[0], l))); });
  return EX_NEXT;
}

/* cvta: p->mode 0 to or from .global (the same pointer), 1 .shared to generic, 2 generic to .shared */
int ptx_x_cvta(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uintptr_t lo = (uintptr_t)f->lo;
  if (p->mode == 1)
    KLANES(f, l, { wr(f, &p->d[0], l, lo + rd(f, &p->s[0], l)); });
  else if (p->mode == 2)
    KLANES(f, l, { wr(f, &p->d[0], l, rd(f, &p->s[0], l) - lo); });
  else if (p->mode == 3) /* .local: the thread's private memory */
    KLANES(f, l, { wr(f, &p->d[0], l, (uintptr_t)(f->priv + l * f->priv_stride) + rd(f, &p->s[0], l)); });
  else if (p->mode == 4)
    KLANES(f, l, { wr(f, &p->d[0], l, rd(f, &p->s[0], l) - (uintptr_t)(f->priv + l * f->priv_stride)); });
  else
    KLANES(f, l, { wr(f, &p->d[0], l, rd(f, &p->s[0], l)); });
  return EX_NEXT;
}

/* ---- warp-level instructions ------------------------------------------------------------------ */

/* The active threads must each be in their warp's member mask (s[mi]), and every thread of the
 * block the mask names must be active: otherwise the instruction has no defined result. */
static int warp_check(KFrame *f, const KIns *k, const POpd *mask, const char *what) {
  uint32_t j = 0;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], m = (uint32_t)rd(f, mask, l);
    if (!((m >> (l % WARP)) & 1))
      return kernel_error(f, k, l, "a thread outside the %s's member mask 0x%08x executes it", what, (unsigned)m);
    uint32_t base = l - l % WARP;
    for (uint32_t b = 0; b < WARP && base + b < f->n; b++) { /* the mask's threads are all here */
      if (!((m >> b) & 1))
        continue;
      uint32_t t = base + b;
      while (j < f->nact && f->act[j] < t)
        j++;
      if (j == f->nact || f->act[j] != t)
        return kernel_error(f, k, l, "thread %u of the %s's member mask 0x%08x does not execute it", (unsigned)b,
                            what, (unsigned)m);
    }
    j = 0;
  }
  return EX_NEXT;
}

/* The active threads of one warp: act[i .. end) are those of act[i]'s warp (act is in thread
 * order), and *members their lanes as a mask. The warp instructions go over the active threads a
 * warp at a time: for (i = 0; i < f->nact; i = e) { e = warp_end(f, i, &members); ... }. */
static inline uint32_t warp_end(const KFrame *f, uint32_t i, uint32_t *members) {
  uint32_t w = f->act[i] / WARP, e = i, m = 0;
  for (; e < f->nact && f->act[e] / WARP == w; e++)
    m |= UINT32_C(1) << (f->act[e] % WARP);
  *members = m;
  return e;
}

enum { S_UP, S_DOWN, S_BFLY, S_IDX };

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
int ptx_x_shfl(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (f->n > MAXN || warp_check(f, k, &p->s[3], "shuffle") == EX_ERROR)
    return EX_ERROR;
  uint64_t tmp[MAXN];
  uint8_t ok[MAXN];
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], lane = l % WARP, base = l - lane;
    uint32_t b = (uint32_t)rd(f, &p->s[1], l) & 31, c = (uint32_t)rd(f, &p->s[2], l);
    uint32_t cval = c & 31, seg = (c >> 8) & 31, maxl = (lane & seg) | (cval & ~seg), minl = lane & seg;
    int64_t j;
    bool in;
    switch (p->mode) {
    case S_UP: j = (int64_t)lane - b; in = j >= (int64_t)maxl; break;
    case S_DOWN: j = lane + b; in = j <= (int64_t)maxl; break;
    case S_BFLY: j = lane ^ b; in = j <= (int64_t)maxl; break;
    default: j = minl | (b & ~seg); in = j <= (int64_t)maxl; break;
    }
    in = in && j >= 0 && base + j < f->n;
    uint32_t src = in ? base + (uint32_t)j : l;
    tmp[l] = p->s[0].kind == O_REG ? f->v[(size_t)p->s[0].word * f->n + src].u : rd(f, &p->s[0], src);
    ok[l] = in;
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    wr(f, &p->d[0], l, tmp[l]);
    if (p->nd > 1)
      wr(f, &p->d[1], l, ok[l]);
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* vote.sync.mode d, {!}a, membermask; activemask (mode V_BALLOT of 1 with no mask) */
int ptx_x_vote(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool active = k->a; /* activemask.b32 */
  if (!active && warp_check(f, k, &p->s[1], "vote") == EX_ERROR)
    return EX_ERROR;
  for (uint32_t i = 0, e, members; i < f->nact; i = e) {
    e = warp_end(f, i, &members);
    uint32_t ballot = 0;
    for (uint32_t j = i; j < e; j++)
      if (active || (rd(f, &p->s[0], f->act[j]) & 1))
        ballot |= UINT32_C(1) << (f->act[j] % WARP);
    uint64_t r = p->mode == V_BALLOT ? ballot
                 : p->mode == V_ALL  ? ballot == members
                 : p->mode == V_ANY  ? ballot != 0
                                     : (ballot == members || ballot == 0);
    for (uint32_t j = i; j < e; j++)
      wr(f, &p->d[0], f->act[j], r);
  }
  if (!active)
    kernel_warp_sync(f);
  return EX_NEXT;
}

/* bar.warp.sync membermask */
int ptx_x_warp_sync(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[0], "warp barrier") == EX_ERROR)
    return EX_ERROR;
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* match.any.sync.t d, a, membermask: the threads of d's warp whose a equals this thread's;
 * match.all.sync.t d[|p], a, membermask: the member mask when all of them hold the same a, else 0 */
int ptx_x_match(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[1], "match") == EX_ERROR)
    return EX_ERROR;
  unsigned w = ptx_type_bits((PtxType)p->t);
  for (uint32_t i = 0, e, members; i < f->nact; i = e) {
    e = warp_end(f, i, &members);
    uint64_t first = wmask(rd(f, &p->s[0], f->act[i]), w);
    bool same = true;
    for (uint32_t j = i; j < e; j++)
      same = same && wmask(rd(f, &p->s[0], f->act[j]), w) == first;
    uint32_t eq[WARP];
    for (uint32_t j = i; j < e; j++) {
      uint64_t a = wmask(rd(f, &p->s[0], f->act[j]), w);
      eq[j - i] = 0;
      for (uint32_t q = i; q < e; q++)
        if (wmask(rd(f, &p->s[0], f->act[q]), w) == a)
          eq[j - i] |= UINT32_C(1) << (f->act[q] % WARP);
    }
    for (uint32_t j = i; j < e; j++) {
      uint32_t l = f->act[j];
      wr(f, &p->d[0], l, p->mode == X_ANY ? eq[j - i] : same ? members : 0);
      if (p->nd > 1)
        wr(f, &p->d[1], l, same);
    }
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* redux.sync.op.t d, a, membermask: d is op over a of the warp's threads of the mask */
int ptx_x_redux(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[1], "redux") == EX_ERROR)
    return EX_ERROR;
  bool s = is_signed(p->t);
  for (uint32_t i = 0, e, members; i < f->nact; i = e) {
    e = warp_end(f, i, &members);
    uint64_t r = wmask(rd(f, &p->s[0], f->act[i]), 32);
    for (uint32_t j = i + 1; j < e; j++) {
      uint64_t a = wmask(rd(f, &p->s[0], f->act[j]), 32);
      switch (p->mode) {
      case RX_ADD: r = wmask(r + a, 32); break;
      case RX_MIN: r = (s ? sext(a, 32) < sext(r, 32) : a < r) ? a : r; break;
      case RX_MAX: r = (s ? sext(a, 32) > sext(r, 32) : a > r) ? a : r; break;
      case RX_AND: r &= a; break;
      case RX_OR: r |= a; break;
      default: r ^= a; break;
      }
    }
    for (uint32_t j = i; j < e; j++)
      wr(f, &p->d[0], f->act[j], r);
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* elect.sync d|p, membermask: the lowest thread of the mask is the leader; d its lane, p whether
 * this thread is it */
int ptx_x_elect(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[0], "elect") == EX_ERROR)
    return EX_ERROR;
  for (uint32_t i = 0, e, members; i < f->nact; i = e) {
    e = warp_end(f, i, &members);
    uint32_t leader = f->act[i];
    for (uint32_t j = i; j < e; j++) {
      wr(f, &p->d[0], f->act[j], leader % WARP);
      if (p->nd > 1)
        wr(f, &p->d[1], f->act[j], f->act[j] == leader);
    }
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* bar.sync / barrier.sync a, b and bar.red: the engine's barrier is the whole block's, so the
 * thread count b (s[1] when p->ns > 1) must be the block's threads (rounded up to whole warps). */
static int bar_count_ok(KFrame *f, const KIns *k, const PIns *p) {
  if (p->ns < 2)
    return EX_NEXT;
  uint32_t threads = f->bdim[0] * f->bdim[1] * f->bdim[2], whole = (threads + WARP - 1) / WARP * WARP;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint64_t b = wmask(rd(f, &p->s[1], f->act[i]), 32);
    if (b != whole)
      return kernel_error(f, k, f->act[i], "a barrier of %llu threads in a block of %u (%u in whole warps) is not "
                          "supported by the PTX kernel engine yet: its barrier is the whole block's",
                          (unsigned long long)b, threads, whole);
  }
  return EX_NEXT;
}

int ptx_x_bar_count(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (bar_count_ok(f, k, p) == EX_ERROR)
    return EX_ERROR;
  return p->then(f, k);
}

/* bar.red.popc.u32 d, a[, b], {!}c; bar.red.and/or.pred d, a[, b], {!}c: a barrier, then d of
 * every thread is the count of the block's threads whose c holds, or whether all / any hold
 * (s[2]: c) */
int ptx_x_bar_red(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (bar_count_ok(f, k, p) == EX_ERROR || p->then(f, k) == EX_ERROR)
    return EX_ERROR;
  uint64_t n = 0;
  KLANES(f, l, { n += rd(f, &p->s[2], l) & 1; });
  uint64_t r = p->mode == BR_POPC ? n : p->mode == BR_AND ? n == f->nact : n != 0;
  KLANES(f, l, { wr(f, &p->d[0], l, r); });
  return EX_NEXT;
}

int ptx_x_trap(KFrame *f, const KIns *k) { return kernel_error(f, k, f->act[0], "trap"); }

int ptx_x_nop(KFrame *f, const KIns *k) {
  (void)f;
  (void)k;
  return EX_NEXT;
}
