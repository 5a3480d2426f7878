/* kernel_ptx.c - PTX kernels: a `.entry` of a gpu.binary's PTX text (ptx/ reads it) compiled into
 * the kernel engine's executable form (kernel.h), so that it runs like a gpu.func: one KIns per PTX
 * instruction, run for all threads of a block at once, with the engine's masks, reconvergence,
 * barriers, bounds checks and race recording.
 *
 * Registers. PTX registers are mutable, so each gets fixed words: one varying column (a word per
 * thread) per register, numbered as the front end numbers them. A column holds the register's
 * bits zero-extended from its declared width (a predicate is 0 or 1; an f32 its IEEE bits); every
 * write masks to that width. A .v2/.v4 vector register has a column per component. Halves (f16,
 * bf16) are 16-bit values, pairs (f16x2, bf16x2) two in a word, the first in its low half; their
 * arithmetic and every float conversion round by kernel_fp.c, bit for bit. The carry flag of the
 * carry chain (add.cc, addc, ...) is one more column, made when an instruction first uses it.
 * Parameters are the kernel's inputs, one uniform word each, read by ld.param as the bytes of the
 * host's value.
 *
 * Control flow. The body is cut into basic blocks at labels and after branches, ret and exit;
 * the function runs as a multi-block region of the engine (kernel.c, run_cfg): each thread has a
 * next block and the lowest block any thread waits for runs next, under the threads waiting
 * there, which reconverges threads at the first block they share. `bra` sets the active threads'
 * next block, `@p bra` each thread's by its predicate, `ret` and `exit` end the thread; a block
 * that ends without one goes on to the next. Any other instruction under a guard `@p` / `@!p`
 * runs under the active mask narrowed to the threads whose predicate holds (x_guard).
 *
 * Memory. Generic and .global addresses are the device's pointers: each access is checked
 * against the device's memory table before it is performed (be_kernel_access_check: memory no
 * live allocation holds is an error naming the thread) and recorded for race detection
 * (kernel_note_rows, kernel_note_atomic). A block's shared memory is the engine's (static .shared
 * variables at their offsets, then the dynamic shared memory of an unsized .extern .shared array);
 * a .shared address is an offset in it, cvta.shared turns it into a generic pointer and back, and
 * shared accesses are bounds-checked and checked for races between the block's threads
 * (kernel_shared_check). A body's .local variables take each thread's private memory (KFrame.priv,
 * kernel_reserve_private): a .local address is an offset in the thread's part, cvta.local turns it
 * into a generic pointer and back, and an access outside the thread's own part is an error.
 * The module's .global and .const variables are one block of host memory per gpu.binary, filled
 * with their initializers and registered with the device (be_mem_register, unregistered at the end
 * with the program's registrations), so that their accesses are device accesses like the others.
 * bar.sync is gpu.barrier (kernel_ops.c: a divergent one is an error); a thread count must be the
 * whole block's (checked when it runs), and bar.red reduces over the block once all are there.
 *
 * Calls. A call of a .func compiles the callee's body in place, between the call's block and the
 * block after it (PLayout says how its registers and variables are kept); vprintf and __assertfail
 * are instructions of their own (x_vprintf, x_assertfail), as are trap and a call nested deeper
 * than the engine inlines.
 *
 * Diagnostics. The PTX text is kept as a source buffer named "@BINARY.ptx", and each instruction
 * has an op of its own located there (named as written, e.g. 'ld.global.f32'), so that runtime
 * errors and races are reported at the instruction with the thread and block, as the gpu.func
 * form reports them; an instruction or modifier this file does not run is a compile error at its
 * place, naming it, with a note at the launch. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"
#include "kernel/kernel_fp.h"
#include "ptx/ptx.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARP 32
#define EXIT_PC UINT32_MAX
#define MAXN 1024 /* threads of a block (kernel_launch's limit) */

/* ---- compiled instructions ---------------------------------------------------------------- */

enum { O_NONE, O_REG, O_IMM, O_SREG, O_UREG };

/* An operand: a register's column (width bits), a uniform register's word (O_UREG: see
 * "Uniform registers" below), an immediate, or a special register. */
typedef struct POpd {
  uint8_t kind, sreg, comp; /* comp 0..2: x, y, z */
  bool neg;                 /* !%p */
  uint8_t width;            /* a register's declared bits (O_REG) */
  uint32_t word;
  uint64_t imm;
} POpd;

typedef struct PIns {
  KFn run;          /* x_guard: what runs for the threads the guard lets through */
  POpd guard;
  uint8_t t, t2;    /* the first and second type modifiers */
  uint8_t space;    /* memory: PtxSpace */
  uint8_t mode;     /* what the instruction does: an M_* of its family */
  uint8_t combine;  /* setp .and/.or/.xor: 1, 2, 3 */
  bool ftz, sat;
  bool relu, satfinite, nan; /* float results: .relu, .satfinite; min/max: .NaN */
  uint8_t rnd;      /* float arithmetic and cvt: the rounding (KFP_*) + 1, 0 when the default */
  uint8_t fmt;      /* f16 and bf16 instructions: the format (KFP_F16, KFP_BF16) */
  uint8_t nd, ns;
  POpd d[4], s[5];  /* destinations (registers), sources */
  uint32_t bytes;   /* memory: bytes per element */
  int64_t off;      /* memory: the address's constant offset */
  uint32_t memo;
  uint32_t target, next; /* bra: the label's block, the next block */
  Type *ety;        /* memory: the element as an integer type (shared race value checks) */
  KFn then;         /* bar.sync with a thread count, bar.red: the engine's barrier */
  struct PCall *call; /* vprintf, __assertfail, a call past the depth the engine inlines */
  const KBlock *over; /* @p bra over one block (x_bra_over): that block */
  const struct PAffReg *abase; /* ld/st: the address register when it is affine (aff_ld, aff_st) */
  const struct PAff *aff;      /* an affine register's instruction (x_aff) */
  uint32_t cutword;            /* a setp at a cut and its branch (x_setp_cut): the cut's uniform word + 1 */
  uint32_t once;               /* x_uni_once: its KFrame.once flag */
  struct PSync *sync; /* cp.async, mbarrier, named barriers: the kernel's state of them */
  struct PICall *icall; /* an indirect call: its targets */
  int64_t off2;     /* cp.async.bulk: its mbarrier's address's constant offset (s[3] its base) */
  const KMemoGroup *grp; /* ld.global taking turns with others along rows (load_groups), or NULL: */
  uint32_t gmemo, gmember; /* the group's memo, and the load's index in it */
} PIns;

/* A memref the first launch passes (kernel_ptx_bind): its descriptor's first parameter, its rank
 * and element bytes, and the launch operand it is. */
typedef struct PRef {
  uint32_t param, rank, esize, arg;
} PRef;

/* The kernel's parameters, for kernel_ptx_bind. */
typedef struct PInfo {
  uint32_t nparams;
  uint8_t *ptype;   /* PtxType */
  uint32_t *pword;  /* per parameter: its uniform word */
  const char *bufname;
  uint32_t line, col;
  PRef *refs;       /* the first launch site's memrefs, written before that launch runs */
  uint32_t nrefs;
  bool bound;
} PInfo;

/* ---- operands --------------------------------------------------------------------------------- */

static inline uint64_t wmask(uint64_t v, unsigned w) { return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1); }
static inline int64_t sext(uint64_t v, unsigned w) {
  return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* %clock and %clock64: one count for the whole process, one more at each read, so that a thread's
 * later read is larger (a count of reads, not of cycles) */
static _Atomic uint64_t clock_count;

static uint64_t globaltimer(void) { /* %globaltimer: the host's monotonic clock in nanoseconds */
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t sreg(const KFrame *f, const POpd *o, uint32_t l) {
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

static inline uint64_t rd(const KFrame *f, const POpd *o, uint32_t l) {
  if (o->kind == O_REG)
    return f->v[(size_t)o->word * f->n + l].u ^ o->neg;
  if (o->kind == O_UREG)
    return f->u[o->word].u ^ o->neg;
  if (o->kind == O_IMM)
    return o->imm;
  return sreg(f, o, l);
}

static inline void wr(KFrame *f, const POpd *o, uint32_t l, uint64_t v) {
  if (o->kind == O_UREG)
    f->u[o->word].u = wmask(v, o->width);
  else
    f->v[(size_t)o->word * f->n + l].u = wmask(v, o->width);
}

/* Operand o as a column: thread l's bits at c[l * *st] (*st 0: one word for all threads, an
 * immediate or a uniform special register held in *one). NULL where it is neither (a varying
 * special register, a negated predicate): the caller then reads it lane by lane. */
static inline const Slot *col(const KFrame *f, const POpd *o, Slot *one, uint32_t *st) {
  if (o->neg)
    return NULL;
  switch (o->kind) {
  case O_REG: *st = 1; return f->v + (size_t)o->word * f->n;
  case O_UREG: *st = 0; return f->u + o->word;
  case O_IMM: *st = 0; one->u = o->imm; return one;
  case O_SREG:
    if (o->sreg != PTX_SREG_NTID && o->sreg != PTX_SREG_CTAID && o->sreg != PTX_SREG_NCTAID)
      return NULL;
    *st = 0;
    one->u = o->sreg == PTX_SREG_NTID ? f->bdim[o->comp] : o->sreg == PTX_SREG_CTAID ? f->bid[o->comp]
                                                                                       : f->gdim[o->comp];
    return one;
  default: return NULL;
  }
}

/* The destination column of p's first result (a varying register), or NULL. */
static inline Slot *dcol(const KFrame *f, const POpd *o) {
  return o->kind == O_REG ? f->v + (size_t)o->word * f->n : NULL;
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

static inline float f32of(uint64_t v) {
  uint32_t w = (uint32_t)v;
  float x;
  memcpy(&x, &w, 4);
  return x;
}
static inline uint64_t bitsf32(float x) {
  uint32_t w;
  memcpy(&w, &x, 4);
  return w;
}
static inline double f64of(uint64_t v) {
  double x;
  memcpy(&x, &v, 8);
  return x;
}
static inline uint64_t bitsf64(double x) {
  uint64_t w;
  memcpy(&w, &x, 8);
  return w;
}

static bool is_signed(unsigned t) { return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64; }
static bool is_float(unsigned t) { return t == PTX_T_F32 || t == PTX_T_F64; }
static inline float ftz32(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

/* f16, bf16 and their pairs: 16-bit values (two in a 32-bit word, the first in its low half) */
static bool is_half(unsigned t) {
  return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}
static bool is_pair(unsigned t) { return t == PTX_T_F16X2 || t == PTX_T_BF16X2; }
static unsigned half_fmt(unsigned t) { return t == PTX_T_BF16 || t == PTX_T_BF16X2 ? KFP_BF16 : KFP_F16; }
static bool is_int(unsigned t) {
  return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_U64) || is_signed(t);
}

/* ---- guards and control flow ----------------------------------------------------------------- */

/* @p / @!p: the instruction runs for the active threads whose predicate holds. */
static int x_guard(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t *act = f->act, nact = f->nact, m = 0;
  if (f->top + f->n > f->cap)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  uint32_t *sub = f->stack + f->top;
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    sub[m] = l;
    m += (uint32_t)(rd(f, &p->guard, l) & 1);
  }
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
static int x_bra(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (f->nact != f->pc_all)
    for (uint32_t i = 0; i < f->nact; i++)
      f->pc[f->act[i]] = p->target;
  f->pc_one = p->target, f->pc_n = f->nact;
  return EX_DONE;
}

static void cut_col(KFrame *f, const PIns *p);
static bool cut_count(const KFrame *f, const PIns *p, uint32_t *taken, uint32_t *turns, uint32_t *t0);

/* How many active threads' predicates (column g, 0 or 1) hold, and in *turns how often it changes
 * from one to the next in the mask's order. */
KLANEFN static uint32_t guard_count(const KFrame *f, const Slot *g, uint32_t *turns) {
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
static int x_cond_bra(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t taken = 0, turns, t0;
  if (f->nact == f->pc_all && p->cutword && cut_count(f, p, &taken, &turns, &t0) &&
      (taken == 0 || taken == f->nact)) { /* all one way by the setp's cut: no predicate column read */
    f->pc_one = taken ? p->target : p->next, f->pc_n = f->nact;
    return EX_DONE;
  }
  taken = 0;
  if (p->cutword)
    cut_col(f, p);
  if (f->nact == f->pc_all && p->guard.kind == O_REG && p->guard.width == 1) { /* all one way: no pc written */
    taken = guard_count(f, f->v + (size_t)p->guard.word * f->n, &turns);
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

static int x_mov(KFrame *f, const KIns *k) {
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
static int x_pack(KFrame *f, const KIns *k) {
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

static int x_selp(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, { wr(f, &p->d[0], l, (rd(f, &p->s[2], l) & 1) ? rd(f, &p->s[0], l) : rd(f, &p->s[1], l)); });
  return EX_NEXT;
}

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_LO, C_LS, C_HI, C_HS, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU,
       C_NUM, C_NAN };
static const char *const cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                        "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

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

static inline uint64_t combine(unsigned how, uint64_t r, uint64_t c) {
  return how == 1 ? (r & c) : how == 2 ? (r | c) : how == 3 ? (r ^ c) : r;
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

static int x_setp(KFrame *f, const KIns *k) {
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
static int x_set(KFrame *f, const KIns *k) {
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

enum { I_ADD, I_SUB, I_MUL_LO, I_MUL_HI, I_MUL_WIDE, I_MAD_LO, I_MAD_HI, I_MAD_WIDE, I_MIN, I_MAX, I_AND, I_OR,
       I_XOR, I_SHL, I_SHR, I_DIV, I_REM, I_NEG, I_ABS, I_NOT, I_POPC, I_CLZ, I_BREV, I_CNOT };

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

static int x_int(KFrame *f, const KIns *k) {
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

enum { K_ADD, K_SUB, K_MAD_LO, K_MAD_HI };

/* add.cc, addc[.cc], sub.cc, subc[.cc], mad.cc, madc[.cc] (.lo, .hi) on 32 or 64 bits: each
 * thread's carry flag (CC.CF) is a column of its own, p->s[3]; .cc writes it (p->d[1]), the c
 * forms add it in (sub: a borrow, subtracted). p->combine: 1 carry in, 2 carry out. */
static int x_carry(KFrame *f, const KIns *k) {
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

enum { F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_MIN, F_MAX, F_NEG, F_ABS, F_SQRT, F_RCP, F_RSQRT, F_EX2, F_LG2, F_SIN,
       F_COS, F_TANH };

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

/* f32 add, sub and mul (mode) of whole columns under the full mask, eight floats a vector: a
 * 32-bit register's Slot holds its bits in the low half and zeros above, so four Slots are eight
 * floats, and the high halves (0 op 0, never a NaN for these) stay zero. A NaN result becomes the
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
  if (p->mode <= F_MUL && f->nact == f->n && (!sa || p->s[0].width == 32) && (!sb || p->s[1].width == 32)) {
    f32_cols(d, a, sa, b, sb, f->n, p->mode);
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

static int x_f32(KFrame *f, const KIns *k) {
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

static int x_f64(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, {
    double a = f64of(rd(f, &p->s[0], l)), b = p->ns > 1 ? f64of(rd(f, &p->s[1], l)) : 0.0,
           c = p->ns > 2 ? f64of(rd(f, &p->s[2], l)) : 0.0, r = f64_op(p, a, b, c);
    wr(f, &p->d[0], l, isnan(r) ? UINT64_C(0x7fffffffffffffff) : bitsf64(r));
  });
  return EX_NEXT;
}

/* ---- f16 and bf16 -------------------------------------------------------------------------------- */

enum { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX, H_EX2, H_TANH };

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
static int x_half(KFrame *f, const KIns *k) {
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

enum { B_LOP3, B_SHF_L, B_SHF_R, B_PRMT, B_BFE, B_BFI, B_MUL24_LO, B_MUL24_HI, B_MAD24_LO, B_MAD24_HI, B_SAD,
       B_SLCT, B_COPYSIGN, B_TESTP, B_BFIND, B_DP4A, B_DP2A };
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

static int x_bits(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), b = p->ns > 1 ? rd(f, &p->s[1], l) : 0, c = p->ns > 2 ? rd(f, &p->s[2], l) : 0,
             d = p->ns > 3 ? rd(f, &p->s[3], l) : 0;
    wr(f, &p->d[0], l, bit_op(p, a, b, c, d));
  });
  return EX_NEXT;
}

/* lop3.or/and.b32 d|p, a, b, c, lut, q: d as lop3 (not written for _), p = (d != 0) or/and q */
static int x_lop3p(KFrame *f, const KIns *k) {
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
static int x_fns(KFrame *f, const KIns *k) {
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

enum { R_NONE, R_N, R_Z, R_M, R_P }; /* rounding of cvt: to nearest even, toward zero, down, up */

static double round_by(double x, unsigned r) {
  switch (r) {
  case R_Z: return trunc(x);
  case R_M: return floor(x);
  case R_P: return ceil(x);
  default: return nearbyint(x); /* the default rounding mode: to nearest even */
  }
}

/* The float format of a type (KFP_*), or -1 for the integers */
static int fmt_of(unsigned t) {
  switch (t) {
  case PTX_T_F16: case PTX_T_F16X2: return KFP_F16;
  case PTX_T_BF16: case PTX_T_BF16X2: return KFP_BF16;
  case PTX_T_TF32: return KFP_TF32;
  case PTX_T_F32: return KFP_F32;
  case PTX_T_F64: return KFP_F64;
  default: return -1;
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

static int x_cvt(KFrame *f, const KIns *k) {
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
static int x_cvta(KFrame *f, const KIns *k) {
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

/* ---- memory ------------------------------------------------------------------------------------- */

/* Thread l's address for p: a pointer into the block's shared memory (.shared: an offset in it),
 * into the thread's private memory (.local: an offset in it) or a device pointer. */
static inline char *addr_of(const KFrame *f, const PIns *p, const POpd *base, uint32_t l) {
  uint64_t a = (base->kind ? rd(f, base, l) : 0) + (uint64_t)p->off;
  if (p->space == PTX_SPACE_LOCAL)
    return f->priv + l * f->priv_stride + a;
  return p->space == PTX_SPACE_SHARED ? f->lo + a : (char *)(uintptr_t)a;
}

enum { W_GLOBAL, W_SHARED, W_LOCAL }; /* where an access lies (access_ok) */

/* Thread l's access of [q, q + bytes), which no memory the device holds admits, when the launch
 * passed memrefs: reported against the nearest of them as the llvm form reports its pointers
 * (kernel_llvm.c), the bytes from the memref's first element; false when none was passed. */
static __attribute__((noinline, cold)) bool memref_oob(KFrame *f, const KIns *k, uint32_t l, char *q, uint32_t bytes,
                                                       bool write) {
  const PInfo *in = *kernel_llvm_ext(f->k);
  const PRef *near = NULL;
  uintptr_t best = UINTPTR_MAX;
  char *nlo = NULL;
  int64_t nn = 0;
  for (uint32_t i = 0; in && i < in->nrefs; i++) {
    const PRef *r = &in->refs[i];
    const Slot *u = f->u;
    char *base = (char *)(uintptr_t)u[in->pword[r->param + D_ALIGNED]].u;
    int64_t off = u[in->pword[r->param + D_OFFSET]].i, hi = off + 1; /* elements from base */
    for (uint32_t j = 0; j < r->rank; j++) {
      int64_t sz = u[in->pword[r->param + D_SIZES + j]].i, st = u[in->pword[r->param + D_SIZES + r->rank + j]].i;
      hi = sz <= 0 ? off : hi + (sz - 1) * (st < 0 ? 0 : st);
      if (sz <= 0)
        break;
    }
    char *lo = base + off * (int64_t)r->esize, *end = base + hi * (int64_t)r->esize;
    uintptr_t d = q < lo ? (uintptr_t)(lo - q) : q + bytes > end ? (uintptr_t)(q + bytes - end) : 0;
    if (d < best) {
      best = d;
      near = r;
      nlo = lo;
      nn = hi - off;
    }
  }
  if (!near)
    return false;
  ptrdiff_t d = q - nlo;
  int64_t es = near->esize;
  kernel_error(f, k, l, "out-of-bounds %s: bytes [%lld, %lld) of the memref passed as kernel operand %u: element "
               "%lld is not in [0, %lld)", write ? "store" : "load", (long long)d, (long long)d + bytes, near->arg,
               (long long)(d >= 0 ? d / es : -((-d + es - 1) / es)), (long long)(nn < 0 ? 0 : nn));
  return true;
}

/* Whether thread l may access [q, q + bytes): in the block's shared memory (W_SHARED), in its own
 * private memory (W_LOCAL), or in memory the device holds for the kernel; reports why not. */
static bool access_ok(KFrame *f, const KIns *k, const PIns *p, uint32_t l, char *q, uint32_t bytes, bool write,
                      int *where) {
  char *end = f->priv; /* the shared memory: static, then dynamic */
  if (p->space == PTX_SPACE_LOCAL || (q >= f->priv && q < f->hi)) {
    *where = W_LOCAL;
    char *mine = f->priv + l * f->priv_stride;
    if (q >= mine && q <= mine + f->priv_stride && bytes <= (size_t)(mine + f->priv_stride - q))
      return true;
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the thread's local memory (%zu bytes)",
                 bytes, (long long)(q - mine), f->priv_stride);
    return false;
  }
  *where = p->space == PTX_SPACE_SHARED || (q >= f->lo && q < f->hi) ? W_SHARED : W_GLOBAL;
  if (*where == W_SHARED) {
    if (q >= f->lo && q <= end && bytes <= (size_t)(end - q))
      return true;
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the block's shared memory (%zu bytes)",
                 bytes, (long long)(q - f->lo), (size_t)(end - f->lo));
    return false;
  }
  if (be_kernel_access_probe(f->ctx, q, bytes))
    return true;
  if (memref_oob(f, k, l, q, bytes, write))
    return false;
  BeStatus st = be_kernel_access_check(f->ctx, q, bytes, write, k->loc);
  if (st == BE_OK)
    return true;
  if (st == BE_ERR_MEMORY) { /* the device said why; which thread, here */
    uint32_t t, bid[3];
    kernel_lane_block(f, l, &t, bid);
    GpuState *gs = kernel_gpu(f->L_in);
    pthread_mutex_lock(&gs->mu);
    ir_diag(f->L_in->ctx, DIAG_NOTE, ir_op_loc(k->op), "the access of thread (%u, %u, %u) of block (%u, %u, %u)",
            t % f->bdim[0], t / f->bdim[0] % f->bdim[1], t / (f->bdim[0] * f->bdim[1]), bid[0], bid[1], bid[2]);
    kernel_error_notes(f);
    pthread_mutex_unlock(&gs->mu);
    kernel_failed(f);
  } else
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at %p, in no memory the device holds", bytes, (void *)q);
  return false;
}

/* Consecutive threads' global accesses, merged while they stay contiguous, recorded as rows. */
typedef struct PRun {
  uintptr_t lo, hi;
} PRun;

static void run_note(KFrame *f, const KIns *k, const PIns *p, PRun *r, char *q, uint32_t bytes, bool write) {
  uintptr_t a = (uintptr_t)q;
  if (r->hi && a >= r->lo && a + bytes <= r->hi)
    return;
  if (r->hi && a == r->hi) {
    r->hi += bytes;
    return;
  }
  if (r->hi)
    kernel_note_rows(f, k, p->memo, r->lo, r->hi - r->lo, 0, 1, write);
  r->lo = a;
  r->hi = a + bytes;
}

static void run_flush(KFrame *f, const KIns *k, const PIns *p, PRun *r, bool write) {
  if (r->hi)
    kernel_note_rows(f, k, p->memo, r->lo, r->hi - r->lo, 0, 1, write);
  r->hi = 0;
}

static inline uint64_t load_bytes(const char *q, uint32_t bytes, bool s) {
  uint64_t v = 0;
  memcpy(&v, q, bytes);
  return s ? (uint64_t)sext(v, bytes * 8) : v;
}

/* ld.param: the bytes of a parameter's word (p->s[0].word, from p->off) */
static int x_ld_param(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint64_t v = load_bytes((const char *)&f->u[p->s[0].word] + p->off, p->bytes, is_signed(p->t));
  KLANES(f, l, { wr(f, &p->d[0], l, v); });
  return EX_NEXT;
}

/* ---- shaped global accesses ------------------------------------------------------------------- */

/* Whether column b's n words step by `step` from b[0] (word i is b[0] + i * step, modulo 2^64): one
 * pass with no early exit, so that it runs as a vector loop. */
KLANEFN static bool lanes_step(const Slot *restrict b, uint32_t n, uint64_t step) {
  uint64_t bad = 0, want = b[0].u;
  for (uint32_t i = 0; i < n; i++, want += step)
    bad |= b[i].u ^ want;
  return !bad;
}

/* Whether word y * bx + x of column b is b[0] + x * sx + y * sy (modulo 2^64) for every x < bx,
 * y < rows. */
static inline __attribute__((always_inline)) uint64_t grid_bad(const Slot *restrict b, uint32_t bx, uint32_t rows,
                                                               uint64_t sx, uint64_t sy) {
  uint64_t bad = 0, r = b[0].u;
  for (uint32_t y = 0; y < rows; y++, r += sy) {
    const Slot *R = b + (size_t)y * bx;
    uint64_t v = r;
    for (uint32_t x = 0; x < bx; x++, v += sx)
      bad |= R[x].u ^ v;
  }
  return bad;
}

KLANEFN static bool lanes_grid(const Slot *restrict b, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy) {
  if (bx == 16) /* rows of a constant length: their loops unrolled */
    return !grid_bad(b, 16, rows, sx, sy);
  if (bx == 32)
    return !grid_bad(b, 32, rows, sx, sy);
  return !grid_bad(b, bx, rows, sx, sy);
}

/* A global access whose addresses form a grid of the block's shape (global_grid): thread
 * y * bx + x's at q0 + x * sx + y * sy, sx 0 or the access's bytes, sy 0 or at least a row's
 * bytes (len), the bytes [lo, hi). */
typedef struct PGrid {
  uintptr_t q0, lo, hi, len;
  uint64_t sx, sy;
  uint32_t bx, rows;
} PGrid;

/* The fast path of a global (or generic) access under the full mask whose addresses are a grid
 * of the block's shape (rows of bdim.x threads, each at consecutive accesses or all at one, the
 * rows a constant distance apart, at least a row's bytes, or all at one: a matmul's loads and
 * stores), found in one pass with no address written per thread: what global_span admits and
 * span_note records as rows of the block's shape, with the same span and probe. False: global_span
 * decides. */
KLANEFN static bool global_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g) {
  uint32_t n = f->n, bx = f->bdim[0];
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || f->nact != n || n > MAXN || bx < 2 ||
      n % bx || p->s[0].kind != O_REG || p->s[0].neg)
    return false;
  uint32_t rows = n / bx;
  const Slot *b = f->v + (size_t)p->s[0].word * n;
  uint64_t sx = b[1].u - b[0].u, sy = rows > 1 ? b[bx].u - b[0].u : 0, len = sx ? (uint64_t)bx * total : total;
  if ((sx && sx != total) || (int64_t)sy < 0 || (sy && sy < len))
    return false;
  uint64_t a0 = b[0].u + (uint64_t)p->off, span;
  if (__builtin_mul_overflow((uint64_t)(rows - 1), sy, &span) || __builtin_add_overflow(span, len, &span) ||
      a0 > (uint64_t)UINTPTR_MAX - span || !lanes_grid(b, bx, rows, sx, sy))
    return false;
  if (a0 < (uintptr_t)f->hi && a0 + span > (uintptr_t)f->lo)
    return false;
  if (!be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)a0, (size_t)span))
    return false;
  *g = (PGrid){.q0 = (uintptr_t)a0, .lo = (uintptr_t)a0, .hi = (uintptr_t)(a0 + span), .len = (uintptr_t)len,
               .sx = sx, .sy = sy, .bx = bx, .rows = rows};
  return true;
}

/* d[y * bx + x] = the element of `bytes` (4 or 8; of 4, sign-extended when s) at
 * q0 + x * sx + y * sy, masked by m */
static inline __attribute__((always_inline)) void ld_rows(Slot *restrict d, uintptr_t q0, uint32_t bx, uint32_t rows,
                                                          uint64_t sx, uint64_t sy, uint32_t bytes, bool s, uint64_t m) {
  for (uint32_t y = 0; y < rows; y++) {
    const char *r = (const char *)(q0 + (uintptr_t)(y * sy));
    Slot *D = d + (size_t)y * bx;
    if (bytes == 4 && !sx) {
      uint32_t v;
      memcpy(&v, r, 4);
      uint64_t w = (s ? (uint64_t)(int64_t)(int32_t)v : v) & m;
      for (uint32_t x = 0; x < bx; x++)
        D[x].u = w;
    } else if (bytes == 4 && s) {
      for (uint32_t x = 0; x < bx; x++) {
        int32_t v;
        memcpy(&v, r + (size_t)x * 4, 4);
        D[x].u = (uint64_t)(int64_t)v & m;
      }
    } else if (bytes == 4) {
      for (uint32_t x = 0; x < bx; x++) {
        uint32_t v;
        memcpy(&v, r + (size_t)x * 4, 4);
        D[x].u = v & m;
      }
    } else if (!sx) {
      uint64_t v;
      memcpy(&v, r, 8);
      for (uint32_t x = 0; x < bx; x++)
        D[x].u = v & m;
    } else {
      for (uint32_t x = 0; x < bx; x++) {
        uint64_t v;
        memcpy(&v, r + (size_t)x * 8, 8);
        D[x].u = v & m;
      }
    }
  }
}

KLANEFN static void ld_grid(Slot *restrict d, uintptr_t q0, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy,
                            uint32_t bytes, bool s, uint64_t m) {
  if (bx == 16 && bytes == 4) /* rows of a constant length: their loops unrolled */
    ld_rows(d, q0, 16, rows, sx, sy, 4, s, m);
  else
    ld_rows(d, q0, bx, rows, sx, sy, bytes, s, m);
}

/* The element of `bytes` (4 or 8) of thread y * bx + x (v[(y * bx + x) * sv]) stored at
 * q0 + x * sx + y * sy, in the threads' order */
KLANEFN static void st_grid(uintptr_t q0, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy, uint32_t bytes,
                            const Slot *restrict v, uint32_t sv) {
  for (uint32_t y = 0; y < rows; y++) {
    char *r = (char *)(q0 + (uintptr_t)(y * sy));
    const Slot *V = v + (size_t)y * bx * sv;
    if (bytes == 4 && sx && sv)
      for (uint32_t x = 0; x < bx; x++) {
        uint32_t w = (uint32_t)V[x].u;
        memcpy(r + (size_t)x * 4, &w, 4);
      }
    else if (sx && sv)
      for (uint32_t x = 0; x < bx; x++)
        memcpy(r + (size_t)x * 8, &V[x].u, 8);
    else
      for (uint32_t x = 0; x < bx; x++) {
        uint64_t w = V[(size_t)x * sv].u;
        memcpy(r + (size_t)x * sx, &w, bytes);
      }
  }
}

/* ld of a grid (global_grid): d the destination column (one element), else NULL */
static void ld_grid_any(KFrame *f, const PIns *p, const PGrid *g, bool s) {
  Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
  uint64_t m = wmask(UINT64_MAX, p->d[0].width);
  if (d && (p->bytes == 4 || p->bytes == 8)) {
    ld_grid(d, g->q0, g->bx, g->rows, g->sx, g->sy, p->bytes, s, m);
    return;
  }
  for (uint32_t l = 0; l < f->n; l++) {
    const char *q = (const char *)(g->q0 + (uintptr_t)(l % g->bx * g->sx + l / g->bx * g->sy));
    for (uint32_t j = 0; j < p->nd; j++)
      wr(f, &p->d[j], l, load_bytes(q + j * p->bytes, p->bytes, s));
  }
}

static void st_grid_any(KFrame *f, const PIns *p, const PGrid *g) {
  uint32_t n = p->ns - 1;
  Slot one;
  uint32_t sv = 0;
  const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
  if (v && (p->bytes == 4 || p->bytes == 8)) {
    st_grid(g->q0, g->bx, g->rows, g->sx, g->sy, p->bytes, v, sv);
    return;
  }
  for (uint32_t l = 0; l < f->n; l++) {
    char *q = (char *)(g->q0 + (uintptr_t)(l % g->bx * g->sx + l / g->bx * g->sy));
    for (uint32_t j = 0; j < n; j++) {
      uint64_t x = rd(f, &p->s[1 + j], l);
      memcpy(q + j * p->bytes, &x, p->bytes);
    }
  }
}

/* The fast path of a global (or generic) access by the active threads: their addresses (q[l]) when
 * all lie outside the block's own memory and one probe of their span [*lo, *hi) admits it, which
 * the checks one by one would then all pass; *dense when thread act[i]'s is act[0]'s + i * total
 * (one row to record). False: the caller checks them one by one. */
static bool global_span(KFrame *f, const PIns *p, uint32_t total, char **q, uintptr_t *lo, uintptr_t *hi,
                        bool *dense) {
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || !f->nact || f->n > MAXN)
    return false;
  Slot one = {.u = 0};
  uint32_t sb = 0;
  const Slot *b = p->s[0].kind ? col(f, &p->s[0], &one, &sb) : &one;
  if (!b)
    return false;
  uintptr_t a0 = (uintptr_t)(b[f->act[0] * sb].u + (uint64_t)p->off), l0 = a0, h0 = a0;
  bool dn = true;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uintptr_t u = (uintptr_t)(b[l * sb].u + (uint64_t)p->off);
    q[l] = (char *)u;
    l0 = u < l0 ? u : l0;
    h0 = u > h0 ? u : h0;
    dn &= u == a0 + (uintptr_t)i * total;
  }
  if (h0 + total < h0 || (l0 < (uintptr_t)f->hi && h0 + total > (uintptr_t)f->lo))
    return false;
  if (!be_kernel_access_probe(f->ctx, (const void *)l0, h0 + total - l0))
    return false;
  *lo = l0, *hi = h0 + total, *dense = dn;
  return true;
}

/* The fastest path of a global (or generic) access: a contiguous run of active threads at
 * consecutive accesses of total bytes (thread l's at the result + (l - act[0]) * total), the span
 * [*lo, *hi) with no wrap, outside the block's own memory and admitted by one probe: what
 * global_span finds dense, found without writing each thread's address. NULL: global_span then
 * decides. */
KLANEFN static char *global_row(KFrame *f, const PIns *p, uint32_t total, uintptr_t *lo, uintptr_t *hi) {
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0;
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || n < 2 || f->n > MAXN ||
      f->act[n - 1] - l0 != n - 1 || p->s[0].kind != O_REG || p->s[0].neg)
    return NULL;
  const Slot *b = f->v + (size_t)p->s[0].word * f->n + l0;
  uint64_t a0 = b[0].u + (uint64_t)p->off;
  bool dn = b[n - 1].u + (uint64_t)p->off == a0 + (uint64_t)(n - 1) * total /* most others fail here */
            && lanes_step(b, n, total);
  uint64_t len = (uint64_t)n * total;
  if (!dn || a0 > (uint64_t)UINTPTR_MAX - len || (a0 < (uintptr_t)f->hi && a0 + len > (uintptr_t)f->lo))
    return NULL;
  if (!be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)a0, (size_t)len))
    return NULL;
  *lo = (uintptr_t)a0, *hi = (uintptr_t)(a0 + len);
  return (char *)(uintptr_t)a0;
}

/* The fast path of a .shared access of one element (es bytes) per thread by a contiguous run of
 * threads at consecutive elements: checked against the block's shared memory and for races and
 * recorded at once (kernel_shared_lanes); the first thread's address, or NULL (the caller then
 * checks them one by one, which reports what is wrong). */
KLANEFN static char *shared_run(KFrame *f, const KIns *k, const PIns *p, uint32_t es, bool write) {
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0;
  if (p->space != PTX_SPACE_SHARED || !n || f->act[n - 1] - l0 != n - 1 || !f->shadow)
    return NULL;
  Slot one = {.u = 0};
  uint32_t sb = 0;
  const Slot *b = p->s[0].kind ? col(f, &p->s[0], &one, &sb) : &one;
  if (!b || (!sb && n > 1))
    return NULL;
  uint64_t a0 = b[l0 * sb].u + (uint64_t)p->off, size = (uint64_t)(f->priv - f->lo);
  for (uint32_t i = 1; i < n; i++)
    if (b[(l0 + i) * sb].u + (uint64_t)p->off != a0 + (uint64_t)i * es)
      return NULL;
  if (a0 > size || (uint64_t)n * es > size - a0)
    return NULL;
  char *q = f->lo + a0;
  return kernel_shared_lanes(f, k, p->memo, q, l0, n, es, write) ? q : NULL;
}

/* Records the fast path's accesses for race detection: one row; rows of the block's shape (under
 * the full mask, each row of threads at consecutive accesses or all at one, the rows a constant
 * distance apart, as a matmul's loads are); else runs of contiguous threads. */
static void span_note(KFrame *f, const KIns *k, const PIns *p, char **q, uint32_t total, uintptr_t lo, uintptr_t hi,
                      bool dense, bool write) {
  if (dense) {
    kernel_note_rows(f, k, p->memo, lo, hi - lo, 0, 1, write);
    return;
  }
  uint32_t bx = f->bdim[0], n = f->n, by = bx ? n / bx : 0;
  if (f->nact == n && bx > 1 && by * bx == n) {
    intptr_t sx = q[1] - q[0], sy = by > 1 ? q[bx] - q[0] : 0;
    uintptr_t len = sx ? (uintptr_t)bx * total : total;
    bool ok = (sx == 0 || sx == (intptr_t)total) && (sy == 0 || (sy > 0 && (uintptr_t)sy >= len));
    for (uint32_t y = 0; y < by && ok; y++)
      for (uint32_t x = 0; x < bx && ok; x++)
        ok = q[y * bx + x] == q[0] + (intptr_t)x * sx + (intptr_t)y * sy;
    if (ok) {
      kernel_note_rows(f, k, p->memo, (uintptr_t)q[0], len, sy, sy ? by : 1, write);
      return;
    }
  }
  PRun run = {0, 0};
  for (uint32_t i = 0; i < f->nact; i++)
    run_note(f, k, p, &run, q[f->act[i]], total, write);
  run_flush(f, k, p, &run, write);
}

/* ---- registers affine in the thread id ----------------------------------------------------------- *
 *
 * A register with one write, unguarded, that dominates its reads, by an instruction that keeps
 * values affine in the thread's ids (mov of %tid.x or %tid.y, integer cvt, add, sub, mul.lo and
 * shl by a constant, mad.lo, mul.wide by a constant: affine_regs below) from immediates, uniform
 * registers and other such registers, holds in thread (x, y) the bits of u + cx * x + cy * y,
 * where cx and cy are known when the kernel is compiled and u, its value in thread (0, 0), is the
 * same in every thread: its instruction computes u alone, in a uniform word (x_aff), and the
 * column only where another instruction reads it (PAffReg.needed), from u and the steps in one
 * pass. A widening (cvt to more bits, mul.wide) keeps the steps only where the narrow values do
 * not wrap in the block, which is checked from u when it runs; where it does not hold (or a
 * %tid.y in a block of more than one layer), the instruction computes its column as before, its
 * affine sources' columns made first from their u (aff_col), and what it writes is not affine
 * for the rest of the frame (PAffReg's state word). An ld or st whose address is such a register
 * finds its threads' addresses from u and the steps (aff_ld, aff_st) with no column read or
 * compare, and records them as global_row and global_grid would; where no fast path applies, it
 * makes the address column and goes the usual way, which reports what is wrong. A register of
 * several writes (a loop's count, an address the loop moves on) is affine too where its first
 * write dominates the others and its reads and every write keeps the first's steps, as long as
 * each write runs for all of the frame's threads (loop_writes). */

enum { AS_AFF = 1, AS_COL = 2 }; /* a PAffReg's state: u holds (the steps hold), the column is written */

typedef struct PAffReg {
  uint32_t uword, sword; /* its value in thread (0, 0); its state (AS_*) */
  uint32_t colword;      /* its column */
  uint8_t width;
  bool needed;           /* read by an instruction that reads its column */
  uint64_t cx, cy;       /* its steps from one thread to the next in x and in y, modulo 2^64 */
} PAffReg;

/* Writes a's column from u and its steps, for every thread, once per value of the state. */
KLANEFN static void aff_fill(Slot *restrict c, uint64_t u, uint64_t cx, uint64_t cy, uint32_t bx, uint32_t rows,
                             uint64_t m) {
  for (uint32_t y = 0; y < rows; y++, u += cy) {
    Slot *R = c + (size_t)y * bx;
    uint64_t v = u;
    for (uint32_t x = 0; x < bx; x++, v += cx)
      R[x].u = v & m;
  }
}

static void aff_col(KFrame *f, const PAffReg *a) {
  uint64_t *st = &f->u[a->sword].u;
  if ((*st & (AS_AFF | AS_COL)) != AS_AFF)
    return;
  aff_fill(f->v + (size_t)a->colword * f->n, f->u[a->uword].u, a->cx, a->cy, f->bdim[0], f->n / f->bdim[0],
           wmask(UINT64_MAX, a->width));
  *st |= AS_COL;
}

/* The grid an affine address register gives the active threads' accesses of total bytes, as
 * global_row (*dense) or global_grid would find it from the column, with the same span, checks
 * and probe; false when neither would apply (the caller then makes the column). */
static bool aff_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g, bool *dense) {
  const PAffReg *a = p->abase;
  uint32_t n = f->n, nact = f->nact, bx = f->bdim[0], rows = n / bx, l0 = nact ? f->act[0] : 0;
  if (!(f->u[a->sword].u & AS_AFF) || a->width != 64 || p->space == PTX_SPACE_SHARED ||
      p->space == PTX_SPACE_LOCAL || nact < 2 || n > MAXN)
    return false;
  uint64_t u = f->u[a->uword].u + (uint64_t)p->off, cx = a->cx, cy = a->cy, span, len;
  if (nact == n && cx == total && (rows == 1 || cy == (uint64_t)bx * total)) {
    *dense = true; /* global_row's: consecutive accesses */
    g->q0 = (uintptr_t)u;
    g->sx = total, g->sy = 0, g->bx = n, g->rows = 1;
    span = len = (uint64_t)n * total;
  } else if (nact != n) {
    if (bx != n || f->act[nact - 1] - l0 != nact - 1 || cx != total)
      return false;
    *dense = true; /* a contiguous run of a block of one row */
    u += cx * l0;
    g->q0 = (uintptr_t)u;
    g->sx = total, g->sy = 0, g->bx = nact, g->rows = 1;
    span = len = (uint64_t)nact * total;
  } else {
    *dense = false; /* global_grid's */
    len = cx ? (uint64_t)bx * total : total;
    if (rows == 1)
      cy = 0;
    if (bx < 2 || (cx && cx != total) || (int64_t)cy < 0 || (cy && cy < len))
      return false;
    if (__builtin_mul_overflow((uint64_t)(rows - 1), cy, &span) || __builtin_add_overflow(span, len, &span))
      return false;
    g->q0 = (uintptr_t)u;
    g->sx = cx, g->sy = cy, g->bx = bx, g->rows = rows;
  }
  if (u > (uint64_t)UINTPTR_MAX - span || (u < (uintptr_t)f->hi && u + span > (uintptr_t)f->lo) ||
      !be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)u, (size_t)span))
    return false;
  g->lo = (uintptr_t)u, g->hi = (uintptr_t)(u + span), g->len = (uintptr_t)len;
  return true;
}

/* shared_run for an affine address register: the first thread's address from u, the rest
 * consecutive by the steps; NULL when shared_run would not apply (or may race). */
static char *aff_shared(KFrame *f, const KIns *k, const PIns *p, uint32_t es, bool write) {
  const PAffReg *a = p->abase;
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0, bx = f->bdim[0];
  if (p->space != PTX_SPACE_SHARED || !n || f->act[n - 1] - l0 != n - 1 || !f->shadow ||
      !(f->u[a->sword].u & AS_AFF) || a->width != 64 || a->cx != es || (bx != f->n && a->cy != (uint64_t)bx * es))
    return NULL;
  uint64_t a0 = f->u[a->uword].u + (uint64_t)p->off + a->cx * l0, size = (uint64_t)(f->priv - f->lo);
  if (a0 > size || (uint64_t)n * es > size - a0)
    return NULL;
  char *q = f->lo + a0;
  return kernel_shared_lanes(f, k, p->memo, q, l0, n, es, write) ? q : NULL;
}

/* Records a load's rows ranges [lo, lo + len) + r * stride as kernel_note_rows does; a load of a
 * group (load_groups) whose rows are one element each through the group's memo. */
static inline void ld_note(KFrame *f, const KIns *k, const PIns *p, uintptr_t lo, uintptr_t len, int64_t stride,
                           uint32_t rows) {
  if (p->grp && len == p->grp->esize)
    kernel_note_group(f, k, p->gmemo, p->grp, p->gmember, lo, len, stride, rows);
  else
    kernel_note_rows(f, k, p->memo, lo, len, stride, rows, false);
}

/* ld through an affine address register: true when done; else its column is made for the usual
 * path. */
static bool aff_ld(KFrame *f, const KIns *k, const PIns *p) {
  uint32_t total = p->bytes * p->nd;
  bool s = is_signed(p->t), dense;
  PGrid g;
  if (aff_grid(f, p, total, &g, &dense)) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint32_t l0 = f->act[0];
    if (dense)
      kernel_prefetch_next(f, (const char *)g.lo, g.hi - g.lo);
    if (dense && d && (p->bytes == 4 || p->bytes == 8))
      ld_grid(d + (f->nact == f->n ? 0 : l0), g.q0, g.bx, 1, total, 0, p->bytes, s, wmask(UINT64_MAX, p->d[0].width));
    else if (dense)
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes((const char *)g.q0 + (size_t)(l - l0) * total + j * p->bytes, p->bytes, s));
      });
    else
      ld_grid_any(f, p, &g, s);
    if (dense)
      ld_note(f, k, p, g.lo, g.hi - g.lo, 0, 1);
    else
      ld_note(f, k, p, g.lo, g.len, (int64_t)g.sy, g.sy ? g.rows : 1);
    return true;
  }
  char *sq = p->nd == 1 && (p->bytes == 4 || p->bytes == 8) ? aff_shared(f, k, p, total, false) : NULL;
  if (sq) {
    Slot *d = dcol(f, &p->d[0]);
    uint32_t l0 = f->act[0];
    if (d)
      ld_grid(d + l0, (uintptr_t)sq, f->nact, 1, total, 0, p->bytes, s, wmask(UINT64_MAX, p->d[0].width));
    else
      KLANES(f, l, { wr(f, &p->d[0], l, load_bytes(sq + (size_t)(l - l0) * p->bytes, p->bytes, s)); });
    return true;
  }
  aff_col(f, p->abase);
  return false;
}

static bool aff_st(KFrame *f, const KIns *k, const PIns *p) {
  uint32_t n = p->ns - 1, total = p->bytes * n;
  bool dense;
  PGrid g;
  if (aff_grid(f, p, total, &g, &dense)) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    uint32_t l0 = f->act[0];
    if (dense)
      kernel_prefetch_next(f, (const char *)g.lo, g.hi - g.lo);
    if (dense && v && (p->bytes == 4 || p->bytes == 8))
      st_grid(g.q0, g.bx, 1, total, 0, p->bytes, v + (size_t)(f->nact == f->n ? 0 : l0) * sv, sv);
    else if (dense)
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy((char *)g.q0 + (size_t)(l - l0) * total + j * p->bytes, &x, p->bytes);
        }
      });
    else
      st_grid_any(f, p, &g);
    if (dense)
      kernel_note_rows(f, k, p->memo, g.lo, g.hi - g.lo, 0, 1, true);
    else
      kernel_note_rows(f, k, p->memo, g.lo, g.len, (int64_t)g.sy, g.sy ? g.rows : 1, true);
    return true;
  }
  char *sq = n == 1 ? aff_shared(f, k, p, total, true) : NULL;
  if (sq) {
    uint32_t l0 = f->act[0], sv = 0;
    Slot one;
    const Slot *v = p->bytes == 4 || p->bytes == 8 ? col(f, &p->s[1], &one, &sv) : NULL;
    if (v) { /* the active threads are l0.. */
      st_grid((uintptr_t)sq, f->nact, 1, p->bytes, 0, p->bytes, v + (size_t)l0 * sv, sv);
      return true;
    }
    KLANES(f, l, {
      uint64_t x = rd(f, &p->s[1], l);
      memcpy(sq + (size_t)(l - l0) * p->bytes, &x, p->bytes);
    });
    return true;
  }
  aff_col(f, p->abase);
  return false;
}

/* ---- guards at a cut ------------------------------------------------------------------------------ *
 *
 * A setp of an affine register (above) against a value the same in every thread, whose predicate
 * only the branch that ends its block reads (`setp.ge.u32 %p, %r, %n; @%p bra L`), in a block of
 * one row: where the compared values do not wrap in the block, they rise or fall with the thread,
 * so the predicate holds for the threads below a cut or for those from it on. The setp writes the
 * cut (x_setp_cut: a uniform word, CUT_*) and no column, and the branch splits its threads there
 * (cut_count); where that does not apply the setp runs as before, and a branch that reads the
 * predicate's column (x_cond_bra) has it made from the cut first (cut_col). */

#define CUT_VALID (UINT64_C(1) << 63)
#define CUT_PREFIX (UINT64_C(1) << 62) /* it holds below the cut (else from it on) */
#define CUT_COL (UINT64_C(1) << 61)    /* the column is written */

/* The predicate of setp p for lane l of value v0 + cx * l (no wrap) against b */
static bool cut_at(const PIns *p, int64_t v0, int64_t cx, int64_t b, uint32_t l, bool s) {
  int64_t v = v0 + cx * (int64_t)l;
  switch (p->mode) {
  case C_LT: case C_LO: return s ? v < b : (uint64_t)v < (uint64_t)b;
  case C_LE: case C_LS: return s ? v <= b : (uint64_t)v <= (uint64_t)b;
  case C_GT: case C_HI: return s ? v > b : (uint64_t)v > (uint64_t)b;
  default: return s ? v >= b : (uint64_t)v >= (uint64_t)b;
  }
}

/* x_setp_cut of a register the same in every thread (its steps 0: a loop's induction), in a block
 * of any shape: its one predicate, held by all threads or by none; false when its other operand
 * is not one word. */
static bool uni_cut(KFrame *f, const PIns *p, const PAffReg *a, uint64_t *cw) {
  Slot one;
  uint32_t sb = 0;
  const Slot *bs = col(f, &p->s[1], &one, &sb);
  if (!bs || sb)
    return false;
  unsigned w = ptx_type_bits(p->t);
  uint64_t x = wmask(f->u[a->uword].u, w), y = wmask(bs[0].u, w);
  int64_t sx = sext(x, w), sy = sext(y, w);
  bool s = is_signed(p->t), holds;
  switch (p->mode) {
  case C_EQ: holds = x == y; break;
  case C_NE: holds = x != y; break;
  case C_LT: holds = s ? sx < sy : x < y; break;
  case C_LE: holds = s ? sx <= sy : x <= y; break;
  case C_GT: holds = s ? sx > sy : x > y; break;
  case C_GE: holds = s ? sx >= sy : x >= y; break;
  case C_LO: holds = x < y; break;
  case C_LS: holds = x <= y; break;
  case C_HI: holds = x > y; break;
  default: holds = x >= y; break; /* C_HS */
  }
  *cw = CUT_VALID | CUT_PREFIX | (holds ? f->n : 0);
  return true;
}

static int x_setp_cut(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PAffReg *a = p->abase;
  uint64_t *cw = &f->u[p->cutword - 1].u;
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t) && p->mode <= C_GE;
  uint32_t n = f->n;
  if (!a->cx && !a->cy && !f->wide && (f->u[a->sword].u & AS_AFF) && uni_cut(f, p, a, cw))
    return EX_NEXT;
  if (n == f->bdim[0] && !f->wide && (f->u[a->sword].u & AS_AFF)) {
    uint64_t u = wmask(f->u[a->uword].u, w);
    int64_t v0 = s ? sext(u, w) : (int64_t)u, cx = (int64_t)a->cx, t, hi, lo;
    int64_t min = s ? (w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1))) : 0;
    int64_t max = s        ? (w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1)
                  : w >= 63 ? INT64_MAX
                            : (int64_t)((UINT64_C(1) << w) - 1);
    Slot one;
    uint32_t sb = 0;
    const Slot *bs = col(f, &p->s[1], &one, &sb);
    if (bs && !sb && !__builtin_mul_overflow(cx, (int64_t)n - 1, &t) && !__builtin_add_overflow(v0, t, &hi)) {
      lo = t < 0 ? hi : v0, hi = t < 0 ? v0 : hi;
      if (lo >= min && hi <= max && (s || w < 63)) {
        int64_t b = s ? sext(bs[0].u, w) : (int64_t)wmask(bs[0].u, w);
        bool first = cut_at(p, v0, cx, b, 0, s), last = cut_at(p, v0, cx, b, n - 1, s);
        uint32_t c;
        if (first == last)
          c = first ? n : 0;
        else { /* the first thread where it changes */
          uint32_t l = 0, h = n - 1; /* at l it is first, at h not */
          while (h - l > 1) {
            uint32_t m = l + (h - l) / 2;
            if (cut_at(p, v0, cx, b, m, s) == first)
              l = m;
            else
              h = m;
          }
          c = h;
        }
        *cw = CUT_VALID | (first || first == last ? CUT_PREFIX : 0) | c;
        return EX_NEXT;
      }
    }
  }
  *cw = 0;
  aff_col(f, a);
  return x_setp(f, k);
}

/* The branch's predicate over the active threads from the cut: how many hold, whether they change
 * more than once in the mask's order (never), whether the first holds; false without a cut. */
static bool cut_count(const KFrame *f, const PIns *p, uint32_t *taken, uint32_t *turns, uint32_t *t0) {
  uint64_t e = f->u[p->cutword - 1].u;
  if (!(e & CUT_VALID))
    return false;
  uint32_t c = (uint32_t)e, nact = f->nact, k; /* k: the active threads below the cut */
  if (nact == f->n)
    k = c < nact ? c : nact;
  else {
    uint32_t l = 0, h = nact;
    while (l < h) {
      uint32_t m = l + (h - l) / 2;
      if (f->act[m] < c)
        l = m + 1;
      else
        h = m;
    }
    k = l;
  }
  bool prefix = e & CUT_PREFIX;
  *taken = prefix ? k : nact - k;
  *t0 = prefix ? k > 0 : k == 0;
  *turns = k > 0 && k < nact;
  if (p->guard.neg)
    *taken = nact - *taken, *t0 ^= 1;
  return true;
}

/* The predicate's column from the cut, for a branch that reads it. */
static void cut_col(KFrame *f, const PIns *p) {
  uint64_t *e = &f->u[p->cutword - 1].u;
  if ((*e & (CUT_VALID | CUT_COL)) != CUT_VALID)
    return;
  Slot *g = f->v + (size_t)p->guard.word * f->n;
  uint32_t c = (uint32_t)*e;
  uint64_t in = *e & CUT_PREFIX ? 1 : 0;
  for (uint32_t l = 0; l < f->n; l++)
    g[l].u = l < c ? in : in ^ 1;
  *e |= CUT_COL;
}

/* ld / st of .global, .shared or generic memory: p->nd (ld) or p->ns - 1 (st) elements of
 * p->bytes from the address s[0] (st: the values s[1]..) */
static int x_ld(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (p->abase && aff_ld(f, k, p))
    return EX_NEXT;
  PRun run = {0, 0};
  uint32_t total = p->bytes * p->nd;
  bool s = is_signed(p->t);
  char *q0[MAXN];
  uintptr_t lo, hi;
  bool dense;
  char *row = global_row(f, p, total, &lo, &hi);
  if (row) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    uint32_t l0 = f->act[0]; /* thread l's at row + (l - l0) * total: the active threads are l0.. */
    kernel_prefetch_next(f, row, hi - lo);
    if (d && (p->bytes == 4 || p->bytes == 8))
      ld_grid(d + l0, (uintptr_t)row, f->nact, 1, total, 0, p->bytes, s, m);
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes(row + (size_t)(l - l0) * total + j * p->bytes, p->bytes, s));
      });
    ld_note(f, k, p, lo, hi - lo, 0, 1);
    return EX_NEXT;
  }
  PGrid grid;
  if (global_grid(f, p, total, &grid)) {
    ld_grid_any(f, p, &grid, s);
    ld_note(f, k, p, grid.lo, grid.len, (int64_t)grid.sy, grid.sy ? grid.rows : 1);
    return EX_NEXT;
  }
  if (global_span(f, p, total, q0, &lo, &hi, &dense)) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    if (d && p->bytes == 4 && !s)
      KLANES(f, l, {
        uint32_t v;
        memcpy(&v, q0[l], 4);
        d[l].u = v & m;
      });
    else if (d && p->bytes == 8)
      KLANES(f, l, { memcpy(&d[l].u, q0[l], 8); });
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes(q0[l] + j * p->bytes, p->bytes, s));
      });
    span_note(f, k, p, q0, total, lo, hi, dense, false);
    return EX_NEXT;
  }
  char *sq = p->nd == 1 && (p->bytes == 4 || p->bytes == 8) ? shared_run(f, k, p, total, false) : NULL;
  Slot *sd = sq ? dcol(f, &p->d[0]) : NULL;
  if (sd) {
    uint32_t l0 = f->act[0];
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    if (p->bytes == 4)
      KLANES(f, l, {
        uint32_t v;
        memcpy(&v, sq + (size_t)(l - l0) * 4, 4);
        sd[l].u = (s ? (uint64_t)(int64_t)(int32_t)v : v) & m;
      });
    else
      KLANES(f, l, { memcpy(&sd[l].u, sq + (size_t)(l - l0) * 8, 8); });
    return EX_NEXT;
  }
  if (sq) /* checked and recorded: the loads alone */
    KLANES(f, l, { wr(f, &p->d[0], l, load_bytes(sq + (size_t)(l - f->act[0]) * p->bytes, p->bytes, s)); });
  if (sq)
    return EX_NEXT;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, &p->s[0], l);
    int where;
    if (!access_ok(f, k, p, l, q, total, false, &where))
      return EX_ERROR;
    if (where == W_SHARED && !kernel_shared_check(f, k, p->memo, l, q, total, false, NULL, NULL))
      return EX_ERROR;
    for (uint32_t j = 0; j < p->nd; j++)
      wr(f, &p->d[j], l, load_bytes(q + j * p->bytes, p->bytes, s));
    if (where == W_GLOBAL)
      run_note(f, k, p, &run, q, total, false);
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

static int x_st(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (p->abase && aff_st(f, k, p))
    return EX_NEXT;
  PRun run = {0, 0};
  uint32_t n = p->ns - 1, total = p->bytes * n;
  char *q0[MAXN];
  uintptr_t lo, hi;
  bool dense;
  char *row = global_row(f, p, total, &lo, &hi);
  if (row) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    uint32_t l0 = f->act[0]; /* thread l's at row + (l - l0) * total: the active threads are l0.. */
    kernel_prefetch_next(f, row, hi - lo);
    if (v && (p->bytes == 4 || p->bytes == 8))
      st_grid((uintptr_t)row, f->nact, 1, total, 0, p->bytes, v + (size_t)l0 * sv, sv);
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy(row + (size_t)(l - l0) * total + j * p->bytes, &x, p->bytes);
        }
      });
    kernel_note_rows(f, k, p->memo, lo, hi - lo, 0, 1, true);
    return EX_NEXT;
  }
  PGrid grid;
  if (global_grid(f, p, total, &grid)) {
    st_grid_any(f, p, &grid);
    kernel_note_rows(f, k, p->memo, grid.lo, grid.len, (int64_t)grid.sy, grid.sy ? grid.rows : 1, true);
    return EX_NEXT;
  }
  if (global_span(f, p, total, q0, &lo, &hi, &dense)) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    if (v && p->bytes == 4)
      KLANES(f, l, {
        uint32_t x = (uint32_t)v[l * sv].u;
        memcpy(q0[l], &x, 4);
      });
    else if (v && p->bytes == 8)
      KLANES(f, l, { memcpy(q0[l], &v[l * sv].u, 8); });
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy(q0[l] + j * p->bytes, &x, p->bytes);
        }
      });
    span_note(f, k, p, q0, total, lo, hi, dense, true);
    return EX_NEXT;
  }
  char *sq = n == 1 ? shared_run(f, k, p, total, true) : NULL;
  if (sq) {
    uint32_t l0 = f->act[0];
    KLANES(f, l, {
      uint64_t x = rd(f, &p->s[1], l);
      memcpy(sq + (size_t)(l - l0) * p->bytes, &x, p->bytes);
    });
    return EX_NEXT;
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, &p->s[0], l);
    int where;
    if (!access_ok(f, k, p, l, q, total, true, &where))
      return EX_ERROR;
    for (uint32_t j = 0; j < n; j++) {
      Slot v = {.u = rd(f, &p->s[1 + j], l)};
      if (where == W_SHARED && !kernel_shared_check(f, k, p->memo, l, q + j * p->bytes, p->bytes, true, p->ety, &v))
        return EX_ERROR;
      memcpy(q + j * p->bytes, &v.u, p->bytes);
    }
    if (where == W_GLOBAL)
      run_note(f, k, p, &run, q, total, true);
  }
  run_flush(f, k, p, &run, true);
  return EX_NEXT;
}

enum { A_ADD, A_MIN, A_MAX, A_EXCH, A_CAS, A_AND, A_OR, A_XOR, A_INC, A_DEC };
static const char *const atom_names[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec"};

static uint64_t atom_new(const PIns *p, uint64_t old, uint64_t b, uint64_t c) {
  unsigned t = p->t, w = ptx_type_bits(t);
  switch (p->mode) {
  case A_ADD:
    if (t == PTX_T_F32)
      return bitsf32(f32of(old) + f32of(b));
    if (t == PTX_T_F64)
      return bitsf64(f64of(old) + f64of(b));
    return old + b;
  case A_MIN:
  case A_MAX: {
    bool lt = t == PTX_T_F32   ? f32of(b) < f32of(old)
              : t == PTX_T_F64 ? f64of(b) < f64of(old)
              : is_signed(t)   ? sext(b, w) < sext(old, w)
                               : wmask(b, w) < wmask(old, w);
    bool gt = t == PTX_T_F32   ? f32of(b) > f32of(old)
              : t == PTX_T_F64 ? f64of(b) > f64of(old)
              : is_signed(t)   ? sext(b, w) > sext(old, w)
                               : wmask(b, w) > wmask(old, w);
    return (p->mode == A_MIN ? lt : gt) ? b : old;
  }
  case A_EXCH: return b;
  case A_CAS: return wmask(old, w) == wmask(b, w) ? c : old;
  case A_AND: return old & b;
  case A_OR: return old | b;
  case A_XOR: return old ^ b;
  case A_INC: return wmask(old, w) >= wmask(b, w) ? 0 : old + 1;
  default: return (wmask(old, w) == 0 || wmask(old, w) > wmask(b, w)) ? b : old - 1;
  }
}

/* atom and red: a read-modify-write of 4 or 8 bytes, atomic against the other blocks' workers */
static int x_atom(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool red = p->nd == 0;
  const POpd *a = &p->s[0];
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, a, l);
    int where;
    if (!access_ok(f, k, p, l, q, p->bytes, true, &where))
      return EX_ERROR;
    if (where == W_LOCAL)
      return kernel_error(f, k, l, "an atomic access to local memory is not supported by the PTX kernel engine yet");
    if ((uintptr_t)q % p->bytes)
      return kernel_error(f, k, l, "an atomic access at %p is not aligned to %u bytes", (void *)q, p->bytes);
    uint64_t b = rd(f, &p->s[1], l), c = p->ns > 2 ? rd(f, &p->s[2], l) : 0, old;
    if (p->bytes == 4) {
      uint32_t *w = (uint32_t *)(void *)q, o = __atomic_load_n(w, __ATOMIC_RELAXED), n;
      do
        n = (uint32_t)atom_new(p, o, b, c);
      while (!__atomic_compare_exchange_n(w, &o, n, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
      old = o;
    } else {
      uint64_t *w = (uint64_t *)(void *)q, o = __atomic_load_n(w, __ATOMIC_RELAXED), n;
      do
        n = atom_new(p, o, b, c);
      while (!__atomic_compare_exchange_n(w, &o, n, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
      old = o;
    }
    if (!red)
      wr(f, &p->d[0], l, old);
    kernel_note_atomic(f, (uintptr_t)q, (uintptr_t)q + p->bytes, k->loc);
  }
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

enum { S_UP, S_DOWN, S_BFLY, S_IDX };
static const char *const shfl_names[] = {"up", "down", "bfly", "idx"};

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
static int x_shfl(KFrame *f, const KIns *k) {
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

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };
static const char *const vote_names[] = {"all", "any", "uni", "ballot"};

/* vote.sync.mode d, {!}a, membermask; activemask (mode V_BALLOT of 1 with no mask) */
static int x_vote(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool active = k->a; /* activemask.b32 */
  if (!active && warp_check(f, k, &p->s[1], "vote") == EX_ERROR)
    return EX_ERROR;
  for (uint32_t i = 0; i < f->nact;) { /* a warp's active threads at a time */
    uint32_t w = f->act[i] / WARP, e = i, ballot = 0;
    for (; e < f->nact && f->act[e] / WARP == w; e++)
      if (active || (rd(f, &p->s[0], f->act[e]) & 1))
        ballot |= UINT32_C(1) << (f->act[e] % WARP);
    uint32_t members = 0;
    for (uint32_t j = i; j < e; j++)
      members |= UINT32_C(1) << (f->act[j] % WARP);
    uint64_t r = p->mode == V_BALLOT ? ballot
                 : p->mode == V_ALL  ? ballot == members
                 : p->mode == V_ANY  ? ballot != 0
                                     : (ballot == members || ballot == 0);
    for (uint32_t j = i; j < e; j++)
      wr(f, &p->d[0], f->act[j], r);
    i = e;
  }
  if (!active)
    kernel_warp_sync(f);
  return EX_NEXT;
}

/* bar.warp.sync membermask */
static int x_warp_sync(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[0], "warp barrier") == EX_ERROR)
    return EX_ERROR;
  kernel_warp_sync(f);
  return EX_NEXT;
}

enum { X_ANY, X_ALL };

/* match.any.sync.t d, a, membermask: the threads of d's warp whose a equals this thread's;
 * match.all.sync.t d[|p], a, membermask: the member mask when all of them hold the same a, else 0 */
static int x_match(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[1], "match") == EX_ERROR)
    return EX_ERROR;
  unsigned w = ptx_type_bits((PtxType)p->t);
  for (uint32_t i = 0; i < f->nact;) { /* a warp's active threads (its member mask) at a time */
    uint32_t e = i, members = 0;
    for (; e < f->nact && f->act[e] / WARP == f->act[i] / WARP; e++)
      members |= UINT32_C(1) << (f->act[e] % WARP);
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
    i = e;
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

enum { RX_ADD, RX_MIN, RX_MAX, RX_AND, RX_OR, RX_XOR };
static const char *const redux_names[] = {"add", "min", "max", "and", "or", "xor"};

/* redux.sync.op.t d, a, membermask: d is op over a of the warp's threads of the mask */
static int x_redux(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[1], "redux") == EX_ERROR)
    return EX_ERROR;
  bool s = is_signed(p->t);
  for (uint32_t i = 0; i < f->nact;) {
    uint32_t e = i;
    uint64_t r = wmask(rd(f, &p->s[0], f->act[i]), 32);
    for (e = i + 1; e < f->nact && f->act[e] / WARP == f->act[i] / WARP; e++) {
      uint64_t a = wmask(rd(f, &p->s[0], f->act[e]), 32);
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
    i = e;
  }
  kernel_warp_sync(f);
  return EX_NEXT;
}

/* elect.sync d|p, membermask: the lowest thread of the mask is the leader; d its lane, p whether
 * this thread is it */
static int x_elect(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (warp_check(f, k, &p->s[0], "elect") == EX_ERROR)
    return EX_ERROR;
  for (uint32_t i = 0; i < f->nact;) {
    uint32_t e = i, leader = f->act[i];
    for (; e < f->nact && f->act[e] / WARP == leader / WARP; e++) {
      wr(f, &p->d[0], f->act[e], leader % WARP);
      if (p->nd > 1)
        wr(f, &p->d[1], f->act[e], f->act[e] == leader);
    }
    i = e;
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

static int x_bar_count(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (bar_count_ok(f, k, p) == EX_ERROR)
    return EX_ERROR;
  return p->then(f, k);
}

enum { BR_POPC, BR_AND, BR_OR };
static const char *const bar_red_names[] = {"popc", "and", "or"};

/* bar.red.popc.u32 d, a[, b], {!}c; bar.red.and/or.pred d, a[, b], {!}c: a barrier, then d of
 * every thread is the count of the block's threads whose c holds, or whether all / any hold
 * (s[2]: c) */
static int x_bar_red(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (bar_count_ok(f, k, p) == EX_ERROR || p->then(f, k) == EX_ERROR)
    return EX_ERROR;
  uint64_t n = 0;
  KLANES(f, l, { n += rd(f, &p->s[2], l) & 1; });
  uint64_t r = p->mode == BR_POPC ? n : p->mode == BR_AND ? n == f->nact : n != 0;
  KLANES(f, l, { wr(f, &p->d[0], l, r); });
  return EX_NEXT;
}

static int x_trap(KFrame *f, const KIns *k) { return kernel_error(f, k, f->act[0], "trap"); }

static int x_nop(KFrame *f, const KIns *k) {
  (void)f;
  (void)k;
  return EX_NEXT;
}

/* ---- asynchronous copies, mbarriers, named barriers ---------------------------------------------
 *
 * cp.async copies at issue: the global read is checked and recorded there and the shared write
 * recorded as the issuing thread's (so another thread's read before a barrier races with it as
 * with a store). On hardware the bytes arrive at some time before the thread's cp.async.wait_group
 * (or wait_all) that completes the copy's group, so a read or write of them before that wait is a
 * bug that an early copy hides. Each copy stays pending in the thread's table (PAsyncTab, in its
 * private memory) until the wait, with a mark in the race shadow: its granules' last-read records
 * hold a reader no access writes (epoch MARK). Any access of the bytes in between replaces the mark
 * (or the last write), and the wait reports it, naming both instructions; a copy left pending when
 * the table is full, or by cp.async.mbarrier.arrive (which completes the thread's copies before the
 * mbarrier's phase can), is checked there. Nothing is checked when race checks are off.
 *
 * Waits that block. A thread waiting at an mbarrier (test_wait, try_wait) or at a named barrier
 * that other threads have not reached (bar.sync in a kernel that uses bar.arrive) is parked: its
 * next block is the kernel's last (x_resume), which therefore runs only once every other thread
 * has ended or is parked too. There each parked thread whose wait is now complete goes on after
 * its wait; when none is, the mbarrier waits return false (a try_wait may time out) and, should
 * that happen twice with no arrival in between, the block is deadlocked: an error, as is a named
 * barrier that no thread can complete. The completion of an mbarrier phase or a named barrier
 * orders, for the race checks, all that the block's threads did before it before all they do
 * after (as bar.sync does): a race of a thread that does not wait on it is not seen. */
#define ASYNC_MAX 16 /* pending copies per thread; one more completes the oldest first */
#define NBARS 16     /* named barriers per block */
#define MB_MARK (UINT64_C(0xffffffff) << 32) /* a shadow read record no access writes */

typedef struct PAsync {
  uint64_t w;       /* the shadow's write record of the copy, as it made it */
  const KIns *k;    /* the cp.async */
  uint32_t dst, group, bytes, pad;
} PAsync;

typedef struct PAsyncTab { /* a thread's pending copies, oldest first */
  uint32_t n, committed;   /* groups committed so far; a copy's group is the next one at issue */
  PAsync e[ASYNC_MAX];
} PAsyncTab;

typedef struct PSync {
  uint32_t park;      /* varying words: 1 + the wait a thread is parked at (0: none); the generation
                         of the named barrier it waits for to pass */
  uint32_t bars;      /* uniform words: per named barrier its arrivals and generation; then the
                         block's arrivals of any kind, and their count at the last give-up + 1 */
  uint32_t resume;    /* the block of x_resume */
  const KIns **waits; /* by id: the waits threads park at (stable copies, for diagnostics) */
  uint32_t nwaits, capwaits;
  size_t apend;       /* each thread's PAsyncTab in its private memory */
  bool async;         /* the kernel has cp.async instructions: apend is reserved */
} PSync;

enum { SW_MBAR_STATE, SW_MBAR_PARITY, SW_NBAR }; /* PIns.mode of a wait */

static void thread_xyz(const KFrame *f, uint32_t l, uint32_t xyz[3]) {
  uint32_t bx = f->bdim[0], by = f->bdim[1];
  xyz[0] = l % bx, xyz[1] = l / bx % by, xyz[2] = l / (bx * by);
}

/* Thread l's table (copied: private memory follows the dynamic shared memory, of any size) */
static char *async_tab(const KFrame *f, const PSync *sy, uint32_t l) { return f->priv + l * f->priv_stride + sy->apend; }

/* The block's state starts anew: no named barrier arrivals, no pending copies. */
static int x_sync_reset(KFrame *f, const KIns *k) {
  const PSync *sy = ((const PIns *)k->aux)->sync;
  for (uint32_t i = 0; i < 2 * NBARS + 2; i++)
    f->u[sy->bars + i].u = 0;
  memset(f->v + (size_t)sy->park * f->n, 0, sizeof(Slot) * f->n);
  if (sy->async)
    for (uint32_t l = 0; l < f->n; l++)
      memset(async_tab(f, sy, l), 0, sizeof(PAsyncTab));
  return EX_NEXT;
}

/* The block's threads synchronized (a phase or a named barrier completed): for the race checks,
 * what each did before is ordered before what every one does after. */
static void sync_point(KFrame *f, const PSync *sy) {
  f->base = ++f->epoch;
  f->split = false;
  f->u[sy->bars + 2 * NBARS].u++;
}

/* Thread l's copy e is complete (at its wait k): reports an access of its bytes since it was
 * issued, else leaves the shadow as if the copy had read them when it wrote them. */
static bool async_complete(KFrame *f, const KIns *k, uint32_t l, const PAsync *e) {
  if (!f->shadow)
    return true;
  size_t j0 = e->dst >> f->gshift, j1 = (e->dst + e->bytes - 1) >> f->gshift;
  uint64_t op = (e->w >> 16) & KSH_OPS, mark = MB_MARK | op << 17 | l;
  for (size_t j = j0; j <= j1; j++) {
    uint64_t R = f->sh.r[j], W = f->sh.w[j];
    if (R == mark && W == e->w)
      continue;
    bool wrote = W != e->w;
    uint64_t rec = wrote ? W : R;
    uint32_t who = (uint16_t)rec, xyz[3];
    bool several = wrote ? (rec & (1ull << 31)) : (rec & (1ull << 16));
    const char *at = f->sh.loc[wrote ? (rec >> 16) & KSH_OPS : (rec >> 17) & KSH_OPS];
    char by[64] = "other threads";
    if (!several && who < f->n) {
      thread_xyz(f, who, xyz);
      snprintf(by, sizeof by, "thread (%u, %u, %u)", xyz[0], xyz[1], xyz[2]);
    }
    kernel_error(f, k, l, "data race in shared memory: %s %s bytes [%u, %u) at '%s' while the copy of the cp.async "
                 "at '%s' into them was in flight (it completes at this wait)", by, wrote ? "wrote" : "read",
                 e->dst, e->dst + e->bytes, at, e->k->loc);
    return false;
  }
  for (size_t j = j0; j <= j1; j++)
    f->sh.r[j] = (e->w >> 32) << 32 | op << 17 | l;
  return true;
}

/* Completes thread l's pending copies of groups up to `group` (all with UINT32_MAX). */
static bool async_wait(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, uint32_t group) {
  PAsyncTab t;
  memcpy(&t, async_tab(f, sy, l), sizeof t);
  uint32_t keep = 0;
  for (uint32_t i = 0; i < t.n; i++) {
    if (group != UINT32_MAX && t.e[i].group > group) {
      t.e[keep++] = t.e[i];
      continue;
    }
    if (!async_complete(f, k, l, &t.e[i]))
      return false;
  }
  t.n = keep;
  memcpy(async_tab(f, sy, l), &t, sizeof t);
  return true;
}

/* cp.async.ca/.cg.shared.global [d], [s], size[, src-size | ignore-src]: s[0] + s[4] the shared
 * destination, s[1] + off the source, s[2] the bytes to read (the rest zero), s[3] a predicate
 * that reads none */
static int x_cp_async(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  uint32_t cp = p->bytes;
  size_t smem = (size_t)(f->priv - f->lo);
  PRun run = {0, 0};
  f->sh.keep = true; /* the waits read the shadow's records (kernel_shruns.c) */
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t d = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + p->s[4].imm;
    if (d > smem || cp > smem - d)
      return kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the block's shared memory (%zu "
                          "bytes)", cp, (long long)d, smem);
    if (d % cp)
      return kernel_error(f, k, l, "cp.async of %u bytes to shared offset %llu, which is not a multiple of %u", cp,
                          (unsigned long long)d, cp);
    uint64_t n = p->s[2].kind ? wmask(rd(f, &p->s[2], l), 32) : cp;
    if (p->s[3].kind && (rd(f, &p->s[3], l) & 1))
      n = 0;
    if (n > cp)
      return kernel_error(f, k, l, "cp.async reads %llu bytes, more than the %u it copies", (unsigned long long)n, cp);
    char *src = (char *)(uintptr_t)((p->s[1].kind ? rd(f, &p->s[1], l) : 0) + (uint64_t)p->off), *dst = f->lo + d;
    int where = W_GLOBAL;
    if (n && !access_ok(f, k, p, l, src, (uint32_t)n, false, &where))
      return EX_ERROR;
    if (where != W_GLOBAL)
      return kernel_error(f, k, l, "cp.async from %s memory: its source must be global memory",
                          where == W_SHARED ? "shared" : "local");
    uint32_t g = f->shadow ? 1u << f->gshift : cp;
    for (uint32_t o = 0; o < cp; o += g < cp ? g : cp)
      if (!kernel_shared_check(f, k, p->memo, l, dst + o, g < cp ? g : cp, true, NULL, NULL))
        return EX_ERROR;
    memcpy(dst, src, n);
    memset(dst + n, 0, cp - n);
    if (n)
      run_note(f, k, p, &run, src, (uint32_t)n, false);
    if (!f->shadow)
      continue;
    PAsyncTab t;
    memcpy(&t, async_tab(f, sy, l), sizeof t);
    if (t.n == ASYNC_MAX) { /* the oldest completes now */
      if (!async_complete(f, k, l, &t.e[0]))
        return EX_ERROR;
      memmove(t.e, t.e + 1, (ASYNC_MAX - 1) * sizeof *t.e);
      t.n--;
    }
    size_t j0 = d >> f->gshift, j1 = (d + cp - 1) >> f->gshift;
    uint64_t w = f->sh.w[j0], op = (w >> 16) & KSH_OPS;
    for (size_t j = j0; j <= j1; j++)
      f->sh.r[j] = MB_MARK | op << 17 | l;
    t.e[t.n++] = (PAsync){.w = w, .k = k, .dst = (uint32_t)d, .group = t.committed + 1, .bytes = cp};
    memcpy(async_tab(f, sy, l), &t, sizeof t);
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

enum { CPG_COMMIT, CPG_WAIT, CPG_WAIT_ALL, CPG_ALL };

/* Thread by thread: commit (CPG_COMMIT), or complete the groups but the last s[0] (CPG_WAIT), every
 * committed one after committing (CPG_WAIT_ALL), or every copy (CPG_ALL). */
static int async_groups(KFrame *f, const KIns *k, const PIns *p, unsigned how) {
  const PSync *sy = p->sync;
  if (!f->shadow)
    return EX_NEXT;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *tab = async_tab(f, sy, l);
    uint32_t committed;
    memcpy(&committed, tab + offsetof(PAsyncTab, committed), 4);
    committed += how == CPG_COMMIT || how == CPG_WAIT_ALL;
    memcpy(tab + offsetof(PAsyncTab, committed), &committed, 4);
    if (how == CPG_COMMIT)
      continue;
    uint64_t keep = how == CPG_WAIT ? rd(f, &p->s[0], l) : 0;
    uint32_t upto = how == CPG_ALL ? UINT32_MAX : keep >= committed ? 0 : committed - (uint32_t)keep;
    if (!async_wait(f, k, sy, l, upto))
      return EX_ERROR;
  }
  return EX_NEXT;
}

/* cp.async.commit_group, cp.async.wait_group n (s[0]: n), cp.async.wait_all: p->mode a CPG_* */
static int x_cp_group(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  return async_groups(f, k, p, p->mode);
}

static char *mbar_at(KFrame *f, const KIns *k, const PIns *p, uint32_t l);
static int mbar_tx(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, char *q, int64_t txn);

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], size, [mbar]: size
 * bytes (a multiple of 16, both addresses too) copied at issue, recorded as cp.async's are (a
 * global read, the issuing thread's shared write), then the mbarrier's transaction count lowered
 * by size (complete_tx). The copy is not kept pending: what waits for it is the mbarrier's phase. */
static int x_cp_bulk(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  size_t smem = (size_t)(f->priv - f->lo);
  PRun run = {0, 0};
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t d = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + p->s[4].imm, n = wmask(rd(f, &p->s[2], l), 32);
    uintptr_t a = (uintptr_t)((p->s[1].kind ? rd(f, &p->s[1], l) : 0) + (uint64_t)p->off);
    if (n % 16 || d % 16 || a % 16)
      return kernel_error(f, k, l, "cp.async.bulk of %llu bytes from %#llx to shared offset %llu: the size and both "
                          "addresses must be multiples of 16", (unsigned long long)n, (unsigned long long)a,
                          (unsigned long long)d);
    if (d > smem || n > smem - d)
      return kernel_error(f, k, l, "out-of-bounds access: %llu bytes at offset %lld of the block's shared memory (%zu "
                          "bytes)", (unsigned long long)n, (long long)d, smem);
    int where = W_GLOBAL;
    if (n && !access_ok(f, k, p, l, (char *)a, (uint32_t)n, false, &where))
      return EX_ERROR;
    if (where != W_GLOBAL)
      return kernel_error(f, k, l, "cp.async.bulk from %s memory: its source must be global memory",
                          where == W_SHARED ? "shared" : "local");
    uint32_t g = f->shadow ? 1u << f->gshift : 16;
    for (uint64_t o = 0; o < n; o += g)
      if (!kernel_shared_check(f, k, p->memo, l, f->lo + d + o, g, true, NULL, NULL))
        return EX_ERROR;
    memcpy(f->lo + d, (const char *)a, n);
    if (n)
      run_note(f, k, p, &run, (char *)a, (uint32_t)n, false);
    PIns mb = *p; /* the mbarrier's address: s[3] + off2 */
    mb.s[0] = p->s[3];
    mb.off = p->off2;
    mb.space = PTX_SPACE_SHARED;
    char *q = mbar_at(f, k, &mb, l);
    if (!q || mbar_tx(f, k, p->sync, l, q, -(int64_t)n) < 0)
      return EX_ERROR;
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

/* ---- mbarrier objects: 8 bytes of shared memory, here [0, 20) the arrivals pending in the current
 * phase, [20, 40) those expected in each phase, [40, 62) the pending transaction count (signed),
 * bit 63 the phase's parity. A state (what arrive returns) is the parity of the phase it arrived
 * in at bit 63 and the arrivals then pending below. */
#define MB_PEND(v) ((uint32_t)((v) & 0xfffff))
#define MB_EXP(v) ((uint32_t)((v) >> 20 & 0xfffff))
#define MB_TX(v) sext((v) >> 40 & 0x3fffff, 22)
#define MB_PHASE(v) ((v) >> 63)
#define MB_MAX 0xfffffu

static uint64_t mb_make(uint32_t pend, uint32_t exp, int64_t tx, uint64_t phase) {
  return (uint64_t)pend | (uint64_t)exp << 20 | ((uint64_t)tx & 0x3fffff) << 40 | phase << 63;
}

/* Thread l's mbarrier object (s[0] + off, in p's space), checked; NULL after the error. */
static char *mbar_at(KFrame *f, const KIns *k, const PIns *p, uint32_t l) {
  uint64_t a = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + (uint64_t)p->off;
  size_t smem = (size_t)(f->priv - f->lo);
  uint64_t off = p->space == PTX_SPACE_SHARED ? a : a - (uint64_t)(uintptr_t)f->lo;
  if (smem < 8 || off > smem - 8) {
    kernel_error(f, k, l, "an mbarrier object at %s %#llx, which is not 8 bytes of the block's shared memory (%zu "
                 "bytes)", p->space == PTX_SPACE_SHARED ? "shared offset" : "address", (unsigned long long)a, smem);
    return NULL;
  }
  if (off % 8) {
    kernel_error(f, k, l, "an mbarrier object at shared offset %llu, which is not a multiple of 8",
                 (unsigned long long)off);
    return NULL;
  }
  return f->lo + off;
}

/* Thread l adds txn to the transaction count of the mbarrier object at q; the phase completes when
 * that leaves nothing pending. 0, or -1 after an error. */
static void sync_point(KFrame *f, const PSync *sy);
static int mbar_tx(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, char *q, int64_t txn) {
  uint64_t v;
  memcpy(&v, q, 8);
  uint32_t pend = MB_PEND(v), exp = MB_EXP(v);
  int64_t tx = MB_TX(v) + txn;
  uint64_t phase = MB_PHASE(v);
  if (!exp)
    return kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                        (size_t)(q - f->lo)), -1;
  if (tx < -(int64_t)MB_MAX || tx > (int64_t)MB_MAX)
    return kernel_error(f, k, l, "the mbarrier's transaction count %lld is not in [-%u, %u]", (long long)tx, MB_MAX,
                        MB_MAX), -1;
  f->u[sy->bars + 2 * NBARS].u++;
  if (!pend && !tx) {
    pend = exp;
    phase ^= 1;
    sync_point(f, sy);
  }
  v = mb_make(pend, exp, tx, phase);
  memcpy(q, &v, 8);
  return 0;
}

enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_DROP, MB_EXPECT_TX, MB_COMPLETE_TX, MB_PENDING, MB_CP_ARRIVE };

/* mbarrier.init / inval / arrive[_drop][.expect_tx][.noComplete] / expect_tx / complete_tx /
 * pending_count, and cp.async.mbarrier.arrive.noinc (its copies are done: an arrival). The active
 * threads in order, each an atomic update of its object. p->combine: .expect_tx on an arrive;
 * p->nan: .noComplete. s[1]: the count (arrivals or transaction bytes; init's, expect_tx's). */
static int x_mbar(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  if (p->mode == MB_CP_ARRIVE && sy->async && async_groups(f, k, p, CPG_ALL) == EX_ERROR)
    return EX_ERROR;
  if (p->mode == MB_CP_ARRIVE && !p->combine)
    return EX_NEXT; /* without .noinc: pending + 1, then the arrival, nothing in all */
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    if (p->mode == MB_PENDING) {
      wr(f, &p->d[0], l, MB_PEND(rd(f, &p->s[1], l)));
      continue;
    }
    char *q = mbar_at(f, k, p, l);
    if (!q)
      return EX_ERROR;
    uint64_t v, n = p->s[1].kind ? rd(f, &p->s[1], l) : 1;
    memcpy(&v, q, 8);
    if (p->mode == MB_INIT) {
      n = wmask(n, 32);
      if (n < 1 || n > MB_MAX)
        return kernel_error(f, k, l, "an mbarrier count of %llu is not in [1, %u]", (unsigned long long)n, MB_MAX);
      v = mb_make((uint32_t)n, (uint32_t)n, 0, 0);
      memcpy(q, &v, 8);
      continue;
    }
    if (p->mode == MB_INVAL) {
      memset(q, 0, 8);
      continue;
    }
    uint32_t pend = MB_PEND(v), exp = MB_EXP(v);
    int64_t tx = MB_TX(v);
    uint64_t phase = MB_PHASE(v);
    if (!exp)
      return kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                          (size_t)(q - f->lo));
    bool arrive = p->mode == MB_ARRIVE || p->mode == MB_DROP || p->mode == MB_CP_ARRIVE;
    int64_t txn = p->mode == MB_EXPECT_TX || p->mode == MB_COMPLETE_TX ? (int64_t)wmask(n, 32)
                  : p->combine && p->mode != MB_CP_ARRIVE ? (int64_t)wmask(rd(f, &p->s[2], l), 32) : 0;
    tx += p->mode == MB_COMPLETE_TX ? -txn : txn;
    if (tx < -(int64_t)MB_MAX || tx > (int64_t)MB_MAX)
      return kernel_error(f, k, l, "the mbarrier's transaction count %lld is not in [-%u, %u]", (long long)tx, MB_MAX,
                          MB_MAX);
    if (arrive) {
      uint64_t c = p->mode == MB_CP_ARRIVE || (p->combine && !p->s[1].kind) ? 1 : wmask(n, 32);
      if (c < 1 || c > pend)
        return kernel_error(f, k, l, "%llu arrivals on an mbarrier with %u pending in its phase",
                            (unsigned long long)c, pend);
      pend -= (uint32_t)c;
      if (p->mode == MB_DROP)
        exp -= (uint32_t)c;
      if (p->nd)
        wr(f, &p->d[0], l, phase << 63 | pend);
    }
    if (arrive || p->mode == MB_COMPLETE_TX)
      f->u[sy->bars + 2 * NBARS].u++;
    if (!pend && !tx && (arrive || p->mode == MB_COMPLETE_TX)) { /* the phase completes */
      if (p->nan)
        return kernel_error(f, k, l, "mbarrier.arrive.noComplete completes the mbarrier's phase");
      pend = exp;
      phase ^= 1;
      sync_point(f, sy);
    }
    v = mb_make(pend, exp, tx, phase);
    memcpy(q, &v, 8);
  }
  return EX_NEXT;
}

/* Whether thread l's wait k is complete: 1, 0 (not yet), -1 after an error. */
static int wait_done(KFrame *f, const KIns *k, uint32_t l) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  if (p->mode == SW_NBAR) {
    uint64_t id = rd(f, &p->s[0], l);
    return f->u[sy->bars + 2 * id + 1].u != f->v[(size_t)(sy->park + 1) * f->n + l].u;
  }
  char *q = mbar_at(f, k, p, l);
  if (!q)
    return -1;
  uint64_t v;
  memcpy(&v, q, 8);
  if (!MB_EXP(v)) {
    kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                 (size_t)(q - f->lo));
    return -1;
  }
  uint64_t s = rd(f, &p->s[1], l);
  return MB_PHASE(v) != (p->mode == SW_MBAR_PARITY ? s & 1 : s >> 63);
}

static void park(KFrame *f, const PIns *p, uint32_t l, uint32_t id) {
  f->v[(size_t)p->sync->park * f->n + l].u = id + 1;
  f->pc[l] = p->sync->resume;
}

/* mbarrier.test_wait / try_wait[.parity] d, [a], state | parity: a wait that ends its block (p->next
 * after it). Threads whose phase completed get true and go on, the others park (x_resume); under a
 * guard, threads whose guard fails go on with d as it was. k->a: the wait's id. */
static int x_wait(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t parked = 0;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    f->pc[l] = p->next;
    if (p->guard.kind && !(rd(f, &p->guard, l) & 1))
      continue;
    int r = wait_done(f, k, l);
    if (r < 0)
      return EX_ERROR;
    if (r)
      wr(f, &p->d[0], l, 1);
    else
      park(f, p, l, k->a), parked++;
  }
  f->pc_one = p->next;
  f->pc_n = parked ? 0 : f->nact;
  return EX_DONE;
}

/* The named barrier a thread names (s[0]) and the threads it waits for (s[1], or the block's),
 * the same for all active threads; UINT32_MAX after an error. */
static uint32_t nbar_of(KFrame *f, const KIns *k, const PIns *p, uint32_t *count) {
  uint32_t threads = f->bdim[0] * f->bdim[1] * f->bdim[2], whole = (threads + WARP - 1) / WARP * WARP;
  uint64_t id = 0, b = whole;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t a = wmask(rd(f, &p->s[0], l), 32), c = p->ns > 1 ? wmask(rd(f, &p->s[1], l), 32) : whole;
    if (i && (a != id || c != b))
      return kernel_error(f, k, l, "threads of one barrier instruction name different barriers or thread counts"),
             UINT32_MAX;
    id = a, b = c;
    if (a >= NBARS)
      return kernel_error(f, k, l, "barrier %llu is not in [0, %d)", (unsigned long long)a, NBARS), UINT32_MAX;
    if (!c || c % WARP || c > whole)
      return kernel_error(f, k, l, "a barrier of %llu threads in a block of %u (%u in whole warps): the count must be "
                          "a multiple of %d up to the block's", (unsigned long long)c, threads, whole, WARP),
             UINT32_MAX;
  }
  *count = b == whole ? threads : (uint32_t)b;
  return (uint32_t)id;
}

/* The active threads (those of list[0..n)) arrive at named barrier id, of count threads; true when
 * that completes it. */
static int nbar_arrive(KFrame *f, const KIns *k, const PSync *sy, uint32_t id, uint32_t count, uint32_t n,
                       uint32_t l0) {
  Slot *arr = &f->u[sy->bars + 2 * id];
  arr->u += n;
  f->u[sy->bars + 2 * NBARS].u++;
  if (arr->u > count)
    return kernel_error(f, k, l0, "%llu threads arrived at barrier %u of %u threads", (unsigned long long)arr->u, id,
                        count);
  if (arr->u < count)
    return 0;
  arr->u = 0;
  f->u[sy->bars + 2 * id + 1].u++;
  sync_point(f, sy);
  return 1;
}

/* bar.arrive a, b (and barrier.arrive): the active threads arrive and go on. */
static int x_nbar_arrive(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t count, id = nbar_of(f, k, p, &count);
  if (id == UINT32_MAX || nbar_arrive(f, k, p->sync, id, count, f->nact, f->act[0]) < 0)
    return EX_ERROR;
  return EX_NEXT;
}

/* bar.sync a[, b] in a kernel that uses bar.arrive: the threads whose guard holds arrive; when
 * that completes the barrier they go on, else they park until it does (x_resume). k->a: the
 * wait's id. */
static int x_nbar_sync(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t *act = f->act, nact = f->nact, m = 0;
  if (f->top + f->n > f->cap)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  uint32_t *sub = f->stack + f->top;
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    f->pc[l] = p->next;
    sub[m] = l;
    m += !p->guard.kind || (rd(f, &p->guard, l) & 1);
  }
  f->pc_one = p->next;
  f->pc_n = nact;
  if (!m)
    return EX_DONE;
  f->act = sub, f->nact = m;
  uint32_t count, id = nbar_of(f, k, p, &count);
  int r = id == UINT32_MAX ? -1 : nbar_arrive(f, k, p->sync, id, count, m, sub[0]);
  uint64_t gen = id == UINT32_MAX ? 0 : f->u[p->sync->bars + 2 * id + 1].u;
  f->act = act, f->nact = nact;
  if (r < 0)
    return EX_ERROR;
  if (r == 0) {
    for (uint32_t i = 0; i < m; i++) {
      f->v[(size_t)(p->sync->park + 1) * f->n + sub[i]].u = gen;
      park(f, p, sub[i], k->a);
    }
    f->pc_n = 0;
  }
  return EX_DONE;
}

/* The kernel's last block: the parked threads whose waits completed go on after them; when none
 * did, the mbarrier waits return false, and a second time with no arrival since is a deadlock. */
static int x_resume(KFrame *f, const KIns *k) {
  const PSync *sy = ((const PIns *)k->aux)->sync;
  uint32_t done = 0;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    Slot *pk = &f->v[(size_t)sy->park * f->n + l];
    const KIns *w = sy->waits[pk->u - 1];
    const PIns *p = w->aux;
    int r = wait_done(f, w, l);
    if (r < 0)
      return EX_ERROR;
    if (r) {
      if (p->mode != SW_NBAR)
        wr(f, &p->d[0], l, 1);
      f->pc[l] = p->next;
      pk->u = 0;
      done++;
    }
  }
  if (!done) {
    Slot *events = &f->u[sy->bars + 2 * NBARS], *last = events + 1;
    bool again = last->u == events->u + 1;
    for (uint32_t i = 0; i < f->nact && !again; i++) { /* the mbarrier waits time out */
      uint32_t l = f->act[i];
      Slot *pk = &f->v[(size_t)sy->park * f->n + l];
      const PIns *p = sy->waits[pk->u - 1]->aux;
      if (p->mode == SW_NBAR)
        continue;
      f->pc[l] = p->next;
      wr(f, &p->d[0], l, 0);
      pk->u = 0;
      done++;
    }
    last->u = events->u + 1;
    if (!done) { /* no thread can go on */
      uint32_t l = f->act[0];
      const KIns *w = sy->waits[f->v[(size_t)sy->park * f->n + l].u - 1];
      const PIns *p = w->aux;
      if (p->mode != SW_NBAR)
        return kernel_error(f, w, l, "deadlock: every thread of the block that has not ended waits, and no mbarrier "
                            "phase they wait for can complete");
      uint64_t id = rd(f, &p->s[0], l);
      uint32_t threads = f->bdim[0] * f->bdim[1] * f->bdim[2];
      uint64_t count = p->ns > 1 ? wmask(rd(f, &p->s[1], l), 32) : threads;
      return kernel_error(f, w, l, "deadlock: barrier %llu waits for %llu threads, %llu arrived, and no other thread "
                          "of the block can arrive (the others ended or wait elsewhere)", (unsigned long long)id,
                          (unsigned long long)count, (unsigned long long)f->u[sy->bars + 2 * id].u);
    }
  }
  f->pc_n = 0;
  return EX_DONE;
}

/* ---- compiling ---------------------------------------------------------------------------------- */

/* Device functions are inlined: each call compiles the callee's body in place, between the call's
 * block and the block after it (so that threads that skip the call wait for those that make it
 * where the call ends, as the engine reconverges). A function's registers and its body's .local and
 * .param variables are one storage per function and level of recursion (PLayout): non-recursive
 * activations of a function never overlap in a thread, so every call site shares it, and the k-th
 * activation of a function on the chain of calls has storage of its own. A .func's parameters and
 * returns are the caller's .param variables named in the call (the callee reads and writes them
 * in place). */
#define CALL_DEPTH 32       /* calls nested at most; a call deeper than this is an error when it runs */
#define INLINE_MAX 200000u  /* instructions the kernel and its inlined calls have at most */

typedef struct PLayout {
  const PtxFunc *fn;
  uint32_t level;           /* how many activations of fn are on the chain of calls to it */
  uint32_t reg0;            /* its registers' first varying word */
  uint32_t *vecword;        /* per register of a .v2/.v4 declaration: its first component's word */
  size_t *voff;             /* per statement: a .local or .param variable's offset in each thread's private memory */
  struct PLayout *next;
} PLayout;

typedef struct PBind {      /* a body's .local or .param variable in scope */
  const char *name;
  size_t off;
  bool local;
} PBind;

typedef struct PInst {      /* one inlined copy of a function being compiled (the kernel's own body too) */
  const PtxFunc *fn;
  const PLayout *lay;
  uint32_t *lblk;           /* per label: its block; [nlabels]: where ret goes (the block after the call) */
  const size_t *arg_off, *ret_off; /* a .func's parameters and returns: the caller's variables */
  uint32_t bind0, fix0, depth;
  const struct PInst *up;
} PInst;

typedef struct PFix {       /* a branch target to fill in when the instance's labels are all placed */
  uint32_t *slot;
  uint32_t label;
} PFix;

typedef struct PBlock {
  KIns *ins;
  uint32_t n, cap;
} PBlock;

/* vprintf, __assertfail and a call nested too deeply: the caller's .param variables they take */
typedef struct PCall {
  const char *name;
  uint32_t nargs, depth;
  size_t arg_off[5], ret_off;
  bool has_ret;
} PCall;

typedef struct PComp {
  KComp kc;
  KHost *h;
  Op *site;
  const PtxModule *m;
  const PtxFunc *fn;
  const char *bufname;
  uint32_t reg0;          /* the first register's varying word */
  uint32_t *param_word;   /* per parameter: its uniform word */
  const PtxVar **svars;   /* shared variables and their offsets */
  size_t *soff;
  uint32_t nsvars;
  size_t dyn_off;         /* the dynamic shared memory's offset (the static part's size) */
  const struct PGlobals *glob; /* the binary's .global and .const variables, NULL when none */
  uint32_t cc_word;       /* the carry flag's varying word + 1; 0 until an instruction uses it */
  uint32_t *vecword;      /* per register of a .v2/.v4 declaration: its first component's word */
  const PtxInsn *insn;    /* being compiled */
  bool failed;
  Block *iblk;            /* the kernel op's block: one op per instruction */
  PInst *inst;            /* the function copy being compiled */
  PBind *binds;           /* the variables in scope, innermost last */
  uint32_t nbinds, capbinds;
  PLayout *layouts;
  PBlock *bl;             /* the kernel's blocks so far, in the order they run */
  uint32_t nb, capb, cur; /* the block being filled */
  bool closed;            /* it ends with a branch, ret or exit */
  PFix *fix;
  uint32_t nfix, capfix;
  uint32_t ninsns;
  bool zero_private;      /* the kernel calls vprintf: its threads' private memory starts zeroed */
  struct PSync *sync;     /* cp.async, mbarrier, named barriers: made by the first that needs it */
  bool ends_block;        /* the instruction just compiled ends its block (a wait: x_wait, x_nbar_sync) */
  uint8_t bar_arrive;     /* 1: the kernel has bar.arrive (its barriers count arrivals), 2: not, 0: unknown */
} PComp;

static Loc *ptx_loc(PComp *pc, uint32_t line, uint32_t col) {
  return ir_loc_file(pc->h->ctx, ir_intern_cstr(pc->h->ctx, pc->bufname), line, col);
}

/* A located error in the PTX, with a note at the launch. */
static bool perr(PComp *pc, uint32_t line, uint32_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool perr(PComp *pc, uint32_t line, uint32_t col, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  IrCtx *ctx = pc->h->ctx;
  ir_diag(ctx, DIAG_ERROR, ptx_loc(pc, line, col), "%s", msg);
  if (pc->site)
    ir_diag(ctx, DIAG_NOTE, ir_op_loc(pc->site), "in the kernel launched here");
  pc->h->errors++;
  pc->failed = true;
  return false;
}

/* The instruction as written: opcode and modifiers. */
static void insn_name(const PtxInsn *in, char *buf, size_t n) {
  size_t w = (size_t)snprintf(buf, n, "%s", ptx_opcode_name((PtxOpcode)in->op));
  for (uint32_t i = 0; i < in->nmods && w < n; i++)
    w += (size_t)snprintf(buf + w, n - w, ".%s", in->mods[i].name);
}

static bool unsupported(PComp *pc, const char *what) {
  char name[160];
  insn_name(pc->insn, name, sizeof name);
  if (what)
    return perr(pc, pc->insn->line, pc->insn->col, "'%s': %s is not supported by the PTX kernel engine yet", name,
                what);
  return perr(pc, pc->insn->line, pc->insn->col, "'%s' is not supported by the PTX kernel engine yet", name);
}

static bool bad_mod(PComp *pc, const PtxMod *m) {
  char name[160];
  insn_name(pc->insn, name, sizeof name);
  return perr(pc, pc->insn->line, pc->insn->col,
              "'%s': modifier '.%s' is not supported by the PTX kernel engine yet", name, m->name);
}

/* A .local (local) or .param variable of the function's body in scope: its offset in each thread's
 * private memory. A .func's parameters and returns are .param variables of its caller's. */
static bool body_var(PComp *pc, const char *name, bool local, size_t *off) {
  const PInst *in = pc->inst;
  for (uint32_t i = pc->nbinds; in && i-- > in->bind0;)
    if (pc->binds[i].name == name && pc->binds[i].local == local) {
      *off = pc->binds[i].off;
      return true;
    }
  if (local || !in || in->fn->entry)
    return false;
  for (uint32_t i = 0; i < in->fn->sig.nparams; i++)
    if (in->fn->sig.params[i].name == name)
      return *off = in->arg_off[i], true;
  for (uint32_t i = 0; i < in->fn->sig.nrets; i++)
    if (in->fn->sig.rets[i].name == name)
      return *off = in->ret_off[i], true;
  return false;
}

static bool local_var(PComp *pc, const char *name, size_t *off) { return body_var(pc, name, true, off); }

static const PtxVar *shared_var(PComp *pc, const char *name, size_t *off) {
  for (uint32_t i = 0; i < pc->nsvars; i++)
    if (pc->svars[i]->name == name) {
      *off = pc->svars[i]->unsized ? pc->dyn_off : pc->soff[i];
      return pc->svars[i];
    }
  return NULL;
}

/* ---- module variables (.global, .const) ---------------------------------------------------------- */

/* The .global and .const variables of one gpu.binary's PTX: one block of host memory made device
 * memory (be_mem_register) when its first kernel is compiled, so that every kernel of the binary
 * shares them and their accesses are checked and race-recorded as other device memory is. The
 * block is one of the program's registrations (GpuState.regs, unregistered at the end), found
 * again by its place string, which names the binary. */
typedef struct PGlobals {
  char *base;
  uint32_t n;
  const char **names; /* interned in the module: compared by text */
  size_t *off;
} PGlobals;

static bool var_bytes(const PtxVar *v, uint64_t *bytes, uint64_t *esize) {
  *esize = ptx_type_bits((PtxType)v->type) / 8;
  uint64_t n = v->vec ? v->vec : 1;
  for (uint32_t d = 0; d < v->ndims; d++)
    if (__builtin_mul_overflow(n, v->dims[d], &n))
      return false;
  return *esize && !__builtin_mul_overflow(n, *esize, bytes) && *bytes && *bytes <= (UINT64_C(1) << 30);
}

/* A function's address (for indirect calls): an address no memory has, FN_BASE + 16 * its place
 * among the module's declarations, the same in every kernel of the binary. */
#define FN_BASE UINT64_C(0xfff0000000000000)
static bool func_addr(const PtxModule *m, const char *name, uint64_t *addr) {
  for (uint32_t i = 0; i < m->ndecls; i++)
    if (m->decls[i].kind == PTX_DECL_FUNC && !m->decls[i].func->entry && !strcmp(m->decls[i].func->name, name)) {
      *addr = FN_BASE + 16 * (uint64_t)i;
      return true;
    }
  return false;
}

static bool is_module_var(const PtxVar *v) { return v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST; }

static const PGlobals *module_globals(PComp *pc) {
  IrCtx *ctx = pc->h->ctx;
  uint32_t any = 0;
  for (uint32_t i = 0; i < pc->m->ndecls; i++)
    any += pc->m->decls[i].kind == PTX_DECL_VAR && is_module_var(pc->m->decls[i].var);
  if (!any)
    return NULL;
  const PtxModule *m = pc->m;
  PGlobals *g = ir_alloc(ctx, sizeof *g);
  g->names = ir_alloc(ctx, any * sizeof *g->names);
  g->off = ir_alloc(ctx, any * sizeof *g->off);
  uint64_t total = 0;
  for (uint32_t i = 0; i < m->ndecls; i++) {
    const PtxVar *v = m->decls[i].var;
    uint64_t bytes, esize;
    if (m->decls[i].kind != PTX_DECL_VAR || !is_module_var(v))
      continue;
    if (v->linkage == PTX_LINK_EXTERN || v->unsized)
      return perr(pc, v->line, v->col, "an %s .%s variable is not supported by the PTX kernel engine yet",
                  v->unsized ? "unsized" : "external", ptx_space_name((PtxSpace)v->space)), NULL;
    if (!var_bytes(v, &bytes, &esize))
      return perr(pc, v->line, v->col, "the size of '%s' is not supported by the PTX kernel engine", v->name), NULL;
    g->names[g->n] = ir_intern_cstr(ctx, v->name).s;
    g->off[g->n++] = (size_t)total;
    total += kernel_align16(bytes);
  }
  if (!pc->h->be)
    return perr(pc, 1, 1, "the .global and .const variables of the PTX need a device (no backend)"), NULL;
  char loc[320];
  snprintf(loc, sizeof loc, "%s: .global and .const variables", pc->bufname);
  const char *rloc = ir_intern_cstr(ctx, loc).s;
  GpuState *gs = kernel_gpu(pc->h);
  for (size_t i = 0; i < gs->nregs; i++)
    if (gs->regs[i].loc == rloc && gs->regs[i].bytes == total) { /* an earlier kernel of the binary's */
      g->base = gs->regs[i].ptr;
      return g;
    }
  g->base = ir_alloc(ctx, total ? (size_t)total : 16);
  /* the initializers: each constant one element of the variable's type; an address is of a
     variable of the block (or one byte of it, 0xFF00(name) style) */
  for (uint32_t i = 0, j = 0; i < m->ndecls; i++) {
    const PtxVar *v = m->decls[i].var;
    uint64_t bytes = 0, esize = 1;
    if (m->decls[i].kind != PTX_DECL_VAR || !is_module_var(v))
      continue;
    var_bytes(v, &bytes, &esize);
    char *q = g->base + g->off[j++];
    if (v->ninit > bytes / esize)
      return perr(pc, v->line, v->col, "'%s' has more initializers than elements", v->name), NULL;
    for (uint32_t e = 0; e < v->ninit; e++) {
      const PtxInit *it = &v->init[e];
      uint64_t x = (uint64_t)it->ival;
      if (it->kind == PTX_INIT_SYM || it->kind == PTX_INIT_GENERIC) {
        const char *nm = ir_intern_cstr(ctx, it->name).s;
        uint32_t t = 0;
        while (t < g->n && g->names[t] != nm)
          t++;
        if (t == g->n && !func_addr(m, it->name, &x))
          return perr(pc, v->line, v->col, "an initializer with the address of '%s' is not supported by the PTX "
                      "kernel engine yet (only .global and .const variables and functions)", it->name), NULL;
        x = t == g->n ? x + (uint64_t)it->ival : (uint64_t)(uintptr_t)(g->base + g->off[t]) + (uint64_t)it->ival;
        if (it->mask) {
          unsigned k = (unsigned)__builtin_ctzll(it->mask) / 8;
          x = (x & it->mask) >> (8 * k);
        }
      } else if (it->kind == PTX_INIT_F32 && esize == 8) { /* an f32 constant of an f64 variable */
        x = bitsf64((double)f32of(x));
      } else if (it->kind == PTX_INIT_F64 && esize == 4) {
        x = bitsf32((float)f64of(x));
      }
      memcpy(q + e * esize, &x, esize);
    }
  }
  if (total && be_mem_register(pc->h->be, g->base, (size_t)total, rloc) != BE_OK)
    return perr(pc, 1, 1, "the device does not take the .global and .const variables of the PTX"), NULL;
  struct GpuReg *r = total ? realloc(gs->regs, (gs->nregs + 1) * sizeof *r) : NULL;
  if (total && !r) {
    be_mem_unregister(pc->h->be, g->base, rloc);
    return perr(pc, 1, 1, "out of memory"), NULL;
  }
  if (r) {
    gs->regs = r;
    gs->regs[gs->nregs++] = (struct GpuReg){NULL, g->base, (size_t)total, rloc};
  }
  return g;
}

static char *global_var(PComp *pc, const char *name) {
  if (!pc->glob)
    return NULL;
  const char *nm = ir_intern_cstr(pc->h->ctx, name).s;
  for (uint32_t i = 0; i < pc->glob->n; i++)
    if (pc->glob->names[i] == nm)
      return pc->glob->base + pc->glob->off[i];
  return NULL;
}

/* A source or destination operand; width: the bits the instruction reads (for immediates). */
static bool operand(PComp *pc, const PtxOperand *o, POpd *out) {
  memset(out, 0, sizeof *out);
  switch (o->kind) {
  case PTX_OPD_REG: {
    const PtxRegDecl *d = o->decl;
    if (d->vec || o->comp) { /* a component of a vector register: a column of its own */
      if (!d->vec)
        return perr(pc, o->line, o->col, "'%s' is not a vector register", d->name);
      if (!o->comp)
        return perr(pc, o->line, o->col, "a whole vector register as this operand is not supported by the PTX "
                    "kernel engine yet");
      if (o->comp > d->vec)
        return perr(pc, o->line, o->col, "component %u of a %u-element vector register does not exist",
                    (unsigned)o->comp, (unsigned)d->vec);
      out->kind = O_REG;
      out->word = pc->vecword[o->n] + o->comp - 1;
      out->width = (uint8_t)ptx_type_bits((PtxType)d->type);
      out->neg = o->neg;
      return true;
    }
    out->kind = O_REG;
    out->word = pc->reg0 + o->n;
    out->width = (uint8_t)(d->type == PTX_T_PRED ? 1 : ptx_type_bits((PtxType)d->type));
    out->neg = o->neg;
    if (!out->width || out->width > 64)
      return perr(pc, o->line, o->col, "registers of type .%s are not supported by the PTX kernel engine yet",
                  ptx_type_name((PtxType)d->type));
    return true;
  }
  case PTX_OPD_INT:
  case PTX_OPD_F64:
    out->kind = O_IMM;
    out->imm = (uint64_t)o->ival;
    return true;
  case PTX_OPD_F32:
    out->kind = O_IMM;
    out->imm = (uint64_t)o->ival & 0xffffffffu;
    return true;
  case PTX_OPD_SREG: {
    static const uint8_t ok[] = {PTX_SREG_TID,         PTX_SREG_NTID,        PTX_SREG_CTAID,       PTX_SREG_NCTAID,
                                 PTX_SREG_LANEID,      PTX_SREG_WARPID,      PTX_SREG_NWARPID,     PTX_SREG_LANEMASK_EQ,
                                 PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_GE, PTX_SREG_LANEMASK_GT,
                                 PTX_SREG_DYNAMIC_SMEM_SIZE, PTX_SREG_CLOCK, PTX_SREG_CLOCK_HI, PTX_SREG_CLOCK64,
                                 PTX_SREG_GLOBALTIMER, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI,
                                 PTX_SREG_SMID, PTX_SREG_NSMID, PTX_SREG_GRIDID, PTX_SREG_TOTAL_SMEM_SIZE,
                                 PTX_SREG_AGGR_SMEM_SIZE, PTX_SREG_CLUSTERID, PTX_SREG_NCLUSTERID,
                                 PTX_SREG_CLUSTER_CTAID, PTX_SREG_CLUSTER_NCTAID, PTX_SREG_CLUSTER_CTARANK,
                                 PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER};
    bool known = false;
    for (size_t i = 0; i < sizeof ok; i++)
      known |= o->sreg == ok[i];
    if (!known)
      return perr(pc, o->line, o->col, "special register %s is not supported by the PTX kernel engine yet",
                  ptx_sreg_name((PtxSreg)o->sreg));
    out->kind = O_SREG;
    out->sreg = o->sreg;
    out->comp = o->comp ? (uint8_t)(o->comp - 1) : 0;
    if (out->comp > 2)
      return perr(pc, o->line, o->col, "component .w of %s does not exist", ptx_sreg_name((PtxSreg)o->sreg));
    return true;
  }
  case PTX_OPD_SYM: {
    size_t off;
    if (shared_var(pc, o->name, &off) || local_var(pc, o->name, &off)) {
      out->kind = O_IMM;
      out->imm = off;
      return true;
    }
    char *g = global_var(pc, o->name);
    if (g) { /* a device pointer */
      out->kind = O_IMM;
      out->imm = (uint64_t)(uintptr_t)g;
      return true;
    }
    if (func_addr(pc->m, o->name, &out->imm)) { /* a function's, for indirect calls */
      out->kind = O_IMM;
      return true;
    }
    return perr(pc, o->line, o->col, "the address of '%s' is not supported by the PTX kernel engine yet (only .shared, "
                ".local, .global and .const variables and functions)", o->name);
  }
  default:
    return perr(pc, o->line, o->col, "this operand is not supported by the PTX kernel engine yet");
  }
}

static bool reg_operand(PComp *pc, const PtxOperand *o, POpd *out) {
  if (o->kind != PTX_OPD_REG)
    return perr(pc, o->line, o->col, "expected a register");
  return operand(pc, o, out);
}

/* The destination of setp and shfl: one register, or the pair a|b. */
static bool dest_operands(PComp *pc, const PtxOperand *d, PIns *p) {
  if (d->kind != PTX_OPD_PAIR) {
    p->nd = 1;
    return reg_operand(pc, d, &p->d[0]);
  }
  p->nd = 2;
  return reg_operand(pc, &d->elems[0], &p->d[0]) && reg_operand(pc, &d->elems[1], &p->d[1]);
}

/* The modifiers of the instruction: its types in p->t, p->t2; each other modifier must be one of
 * `allowed` (a NULL-terminated list; "*" after a name accepts anything starting with it), or it is
 * reported. The names found are flagged in `found` (by position in allowed). */
static bool mods(PComp *pc, PIns *p, const char *const *allowed, bool *found) {
  const PtxInsn *in = pc->insn;
  unsigned nt = 0;
  for (uint32_t i = 0; i < in->nmods; i++) {
    const PtxMod *m = &in->mods[i];
    if (m->kind == PTX_MOD_TYPE) {
      if (nt == 0)
        p->t = m->value;
      else if (nt == 1)
        p->t2 = m->value;
      else
        return bad_mod(pc, m);
      nt++;
      continue;
    }
    if (m->kind == PTX_MOD_SPACE) {
      p->space = m->value;
      continue;
    }
    bool ok = false;
    for (uint32_t j = 0; allowed && allowed[j] && !ok; j++) {
      if (!strcmp(allowed[j], "v*"))
        continue; /* the vector widths: by kind, below */
      size_t n = strlen(allowed[j]);
      if (n && allowed[j][n - 1] == '*' ? !strncmp(m->name, allowed[j], n - 1) : !strcmp(m->name, allowed[j])) {
        ok = true;
        if (found)
          found[j] = true;
      }
    }
    if (!ok && m->kind == PTX_MOD_VEC && allowed && allowed[0] && !strcmp(allowed[0], "v*"))
      ok = true;
    if (!ok)
      return bad_mod(pc, m);
  }
  return true;
}

static bool has(const PtxInsn *in, const char *name) { return ptx_insn_has_mod(in, name); }

static int name_index(const char *const *names, size_t n, const PtxInsn *in) {
  for (uint32_t i = 0; i < in->nmods; i++)
    for (size_t j = 0; j < n; j++)
      if (!strcmp(in->mods[i].name, names[j]))
        return (int)j;
  return -1;
}

static bool need_opds(PComp *pc, uint32_t lo, uint32_t hi) {
  if (pc->insn->nopds < lo || pc->insn->nopds > hi)
    return unsupported(pc, "this number of operands");
  return true;
}

/* Destination and sources of a plain `op.t d, a, b, ...` */
static bool plain(PComp *pc, PIns *p, uint32_t nsrc) {
  const PtxInsn *in = pc->insn;
  if (!need_opds(pc, nsrc + 1, nsrc + 1) || !reg_operand(pc, &in->opds[0], &p->d[0]))
    return false;
  p->nd = 1;
  p->ns = (uint8_t)nsrc;
  for (uint32_t i = 0; i < nsrc; i++)
    if (!operand(pc, &in->opds[1 + i], &p->s[i]))
      return false;
  return true;
}

static const char *const float_mods[] = {"rn", "ftz", "sat", "approx", "full", "rz", "rm", "rp", "NaN", NULL};

/* add sub mul fma neg abs min max ex2 tanh of .f16, .f16x2, .bf16, .bf16x2: x_half */
static bool c_half(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"rn", "ftz", "sat", "relu", "NaN", "approx", NULL};
  bool found[6] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  bool bf = half_fmt(p->t) == KFP_BF16;
  unsigned nsrc = 2;
  int mode = -1;
  switch (in->op) {
  case PTX_OP_ADD: mode = H_ADD; break;
  case PTX_OP_SUB: mode = H_SUB; break;
  case PTX_OP_MUL: mode = H_MUL; break;
  case PTX_OP_FMA: mode = H_FMA, nsrc = 3; break;
  case PTX_OP_NEG: mode = H_NEG, nsrc = 1; break;
  case PTX_OP_ABS: mode = H_ABS, nsrc = 1; break;
  case PTX_OP_MIN: mode = H_MIN; break;
  case PTX_OP_MAX: mode = H_MAX; break;
  case PTX_OP_EX2: mode = H_EX2, nsrc = 1; break;
  case PTX_OP_TANH: mode = H_TANH, nsrc = 1; break;
  default: break;
  }
  if (mode < 0)
    return unsupported(pc, "this f16/bf16 form");
  bool arith = mode <= H_FMA, approx = mode == H_EX2 || mode == H_TANH;
  if (found[0] && !arith)
    return unsupported(pc, ".rn of this instruction");
  if (mode == H_FMA && !found[0])
    return unsupported(pc, "an fma without .rn");
  if (found[1] && (bf ? mode != H_EX2 : mode == H_TANH))
    return unsupported(pc, ".ftz of this instruction");
  if (found[2] && (bf || !arith))
    return unsupported(pc, ".sat of this instruction");
  if (found[3] && (mode != H_FMA || found[2]))
    return unsupported(pc, ".relu of this instruction");
  if (found[4] && mode != H_MIN && mode != H_MAX)
    return unsupported(pc, ".NaN of this instruction");
  if (found[5] != approx)
    return unsupported(pc, approx ? "this instruction without .approx" : ".approx of this instruction");
  p->mode = (uint8_t)mode;
  p->fmt = (uint8_t)half_fmt(p->t);
  p->ftz = found[1];
  p->sat = found[2];
  p->relu = found[3];
  p->nan = found[4];
  if (!plain(pc, p, nsrc))
    return false;
  k->fn = x_half;
  return true;
}

/* The carry column: one word per thread, made for the first instruction that uses it. */
static POpd carry_flag(PComp *pc) {
  if (!pc->cc_word)
    pc->cc_word = kernel_new_varying(&pc->kc, 1) + 1;
  return (POpd){.kind = O_REG, .width = 1, .word = pc->cc_word - 1};
}

/* add.cc addc sub.cc subc mad.cc madc: x_carry */
static bool c_carry(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"cc", "lo", "hi", NULL};
  bool found[3] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  bool mad = in->op == PTX_OP_MAD || in->op == PTX_OP_MADC;
  bool cin = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC || in->op == PTX_OP_MADC;
  unsigned t = p->t;
  if (t != PTX_T_U32 && t != PTX_T_S32 && t != PTX_T_U64 && t != PTX_T_S64 && t != PTX_T_B32 && t != PTX_T_B64)
    return unsupported(pc, t ? "this type" : "an instruction without a type");
  if (mad ? found[1] == found[2] : found[1] || found[2])
    return unsupported(pc, mad ? "a mad.cc or madc without one of .lo, .hi" : NULL);
  p->mode = (uint8_t)(mad ? (found[2] ? K_MAD_HI : K_MAD_LO)
                          : in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC ? K_SUB : K_ADD);
  p->combine = (uint8_t)(cin | (found[0] ? 2 : 0));
  if (!plain(pc, p, mad ? 3 : 2))
    return false;
  p->d[1] = p->s[3] = carry_flag(pc);
  k->fn = x_carry;
  return true;
}

/* add sub mul mad fma div rem min max neg abs and or xor not shl shr popc clz brev cnot and the
 * float math: int_op / f32_op / f64_op by type */
static bool c_arith(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const int_mods[] = {"lo", "hi", "wide", "sat", "cc", NULL};
  bool found[10] = {0};
  PtxType t = ptx_insn_type(in, 0);
  bool fl = is_float(t);
  if (is_half(t))
    return c_half(pc, k, p);
  if (ptx_insn_has_mod(in, "cc") && !fl && (in->op == PTX_OP_ADD || in->op == PTX_OP_SUB || in->op == PTX_OP_MAD))
    return c_carry(pc, k, p);
  if (!mods(pc, p, fl ? float_mods : int_mods, found))
    return false;
  if (!fl && (t == PTX_T_PRED) && in->op != PTX_OP_AND && in->op != PTX_OP_OR && in->op != PTX_OP_XOR &&
      in->op != PTX_OP_NOT)
    return unsupported(pc, NULL);
  if (!fl && !is_int(t) && t != PTX_T_PRED)
    return unsupported(pc, t ? "this type" : "an instruction without a type");
  if (!fl && found[4])
    return unsupported(pc, "the carry flag (.cc)");
  p->ftz = fl && found[1];
  p->sat = found[fl ? 2 : 3];
  if (p->sat && !fl && t != PTX_T_S32)
    return unsupported(pc, ".sat of other than .s32");
  unsigned nsrc = 2;
  int mode = -1;
  switch (in->op) {
  case PTX_OP_ADD: mode = fl ? F_ADD : I_ADD; break;
  case PTX_OP_SUB: mode = fl ? F_SUB : I_SUB; break;
  case PTX_OP_MUL: mode = fl ? F_MUL : found[1] ? I_MUL_HI : found[2] ? I_MUL_WIDE : found[0] ? I_MUL_LO : -1; break;
  case PTX_OP_MAD:
  case PTX_OP_FMA:
    nsrc = 3;
    mode = fl ? F_FMA : found[1] ? I_MAD_HI : found[2] ? I_MAD_WIDE : found[0] ? I_MAD_LO : -1;
    if (in->op == PTX_OP_FMA && !fl)
      mode = -1;
    break;
  case PTX_OP_DIV: mode = fl ? F_DIV : I_DIV; break;
  case PTX_OP_REM: mode = fl ? -1 : I_REM; break;
  case PTX_OP_MIN: mode = fl ? F_MIN : I_MIN; break;
  case PTX_OP_MAX: mode = fl ? F_MAX : I_MAX; break;
  case PTX_OP_NEG: nsrc = 1, mode = fl ? F_NEG : I_NEG; break;
  case PTX_OP_ABS: nsrc = 1, mode = fl ? F_ABS : I_ABS; break;
  case PTX_OP_AND: mode = fl ? -1 : I_AND; break;
  case PTX_OP_OR: mode = fl ? -1 : I_OR; break;
  case PTX_OP_XOR: mode = fl ? -1 : I_XOR; break;
  case PTX_OP_NOT: nsrc = 1, mode = fl ? -1 : I_NOT; break;
  case PTX_OP_CNOT: nsrc = 1, mode = fl ? -1 : I_CNOT; break;
  case PTX_OP_SHL: mode = fl ? -1 : I_SHL; break;
  case PTX_OP_SHR: mode = fl ? -1 : I_SHR; break;
  case PTX_OP_POPC: nsrc = 1, mode = fl ? -1 : I_POPC; break;
  case PTX_OP_CLZ: nsrc = 1, mode = fl ? -1 : I_CLZ; break;
  case PTX_OP_BREV: nsrc = 1, mode = fl ? -1 : I_BREV; break;
  case PTX_OP_SQRT: nsrc = 1, mode = fl ? F_SQRT : -1; break;
  case PTX_OP_RCP: nsrc = 1, mode = fl ? F_RCP : -1; break;
  case PTX_OP_RSQRT: nsrc = 1, mode = fl ? F_RSQRT : -1; break;
  case PTX_OP_EX2: nsrc = 1, mode = fl ? F_EX2 : -1; break;
  case PTX_OP_LG2: nsrc = 1, mode = fl ? F_LG2 : -1; break;
  case PTX_OP_SIN: nsrc = 1, mode = fl ? F_SIN : -1; break;
  case PTX_OP_COS: nsrc = 1, mode = fl ? F_COS : -1; break;
  case PTX_OP_TANH: nsrc = 1, mode = t == PTX_T_F32 && found[3] ? F_TANH : -1; break;
  default: break;
  }
  if (mode < 0)
    return unsupported(pc, fl ? "this float form" : "this integer form");
  if (fl) { /* .rz .rm .rp: IEEE arithmetic rounded so (kernel_fp.c); .NaN: min and max */
    int r = found[5] ? KFP_RZ : found[6] ? KFP_RM : found[7] ? KFP_RP : -1;
    bool ieee = mode == F_ADD || mode == F_SUB || mode == F_MUL || mode == F_FMA || mode == F_DIV || mode == F_SQRT ||
                mode == F_RCP;
    if (found[0] + found[5] + found[6] + found[7] > 1)
      return unsupported(pc, "more than one rounding");
    if (r >= 0 && (!ieee || found[3]))
      return unsupported(pc, "this rounding of this instruction");
    if (found[8] && mode != F_MIN && mode != F_MAX)
      return unsupported(pc, ".NaN of this instruction");
    p->rnd = (uint8_t)(r + 1);
    p->nan = found[8];
  }
  if (!fl && (in->op == PTX_OP_MUL || in->op == PTX_OP_MAD) && (found[0] + found[1] + found[2]) != 1)
    return unsupported(pc, NULL);
  if (!fl && (mode == I_MUL_WIDE || mode == I_MAD_WIDE) && ptx_type_bits(t) > 32)
    return unsupported(pc, ".wide of 64-bit operands");
  if (!fl && (found[0] || found[1] || found[2]) && in->op != PTX_OP_MUL && in->op != PTX_OP_MAD)
    return unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!plain(pc, p, nsrc))
    return false;
  k->fn = fl ? (t == PTX_T_F32 ? x_f32 : x_f64) : x_int;
  return true;
}

/* lop3 shf prmt bfe bfi mul24 mad24 sad slct copysign testp bfind: bit_op */
static bool c_bits(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const shf_mods[] = {"l", "r", "wrap", "clamp", NULL};
  static const char *const lohi[] = {"lo", "hi", NULL};
  static const char *const lohi_sat[] = {"lo", "hi", "sat", NULL};
  static const char *const andor[] = {"and", "or", NULL};
  static const char *const ftz[] = {"ftz", NULL};
  static const char *const shiftamt[] = {"shiftamt", NULL};
  static const char *const prmt_mods[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL};
  static const char *const testp_mods[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal", NULL};
  bool found[8] = {0};
  const char *const *allowed = NULL;
  switch ((PtxOpcode)in->op) {
  case PTX_OP_SHF: allowed = shf_mods; break;
  case PTX_OP_PRMT: allowed = prmt_mods; break;
  case PTX_OP_MUL24: allowed = lohi; break;
  case PTX_OP_MAD24: allowed = lohi_sat; break;
  case PTX_OP_DP2A: allowed = lohi; break;
  case PTX_OP_LOP3: allowed = andor; break;
  case PTX_OP_SLCT: allowed = ftz; break;
  case PTX_OP_TESTP: allowed = testp_mods; break;
  case PTX_OP_BFIND: allowed = shiftamt; break;
  default: break;
  }
  if (!mods(pc, p, allowed, found))
    return false;
  int named = -1; /* prmt's mode, testp's test: at most one */
  for (int i = 0; allowed && (allowed == prmt_mods || allowed == testp_mods) && allowed[i]; i++)
    if (found[i]) {
      if (named >= 0)
        return unsupported(pc, "more than one mode");
      named = i;
    }
  unsigned t = p->t, w = ptx_type_bits((PtxType)t);
  bool i32 = t == PTX_T_U32 || t == PTX_T_S32, ints = t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64 ||
                                                        t == PTX_T_S64;
  unsigned nsrc = 3;
  const char *bad = NULL;
  switch ((PtxOpcode)in->op) {
  case PTX_OP_LOP3:
    p->mode = B_LOP3, nsrc = 4;
    p->combine = found[0] ? 1 : found[1] ? 2 : 0; /* lop3.and / lop3.or: the predicate result's */
    if (t != PTX_T_B32)
      bad = "this type";
    else if (found[0] && found[1])
      bad = "more than one operation";
    break;
  case PTX_OP_DP4A:
  case PTX_OP_DP2A: {
    bool two = in->op == PTX_OP_DP2A;
    p->mode = two ? B_DP2A : B_DP4A;
    p->combine = found[1]; /* dp2a.hi */
    bool ab = (t == PTX_T_U32 || t == PTX_T_S32) && (p->t2 == PTX_T_U32 || p->t2 == PTX_T_S32);
    if (!ab)
      bad = "this type";
    else if (two && found[0] == found[1])
      bad = "a dp2a without one of .lo, .hi";
    break;
  }
  case PTX_OP_FNS:
    p->mode = B_BFIND; /* its own run function below */
    if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_SHF:
    p->mode = found[0] ? B_SHF_L : B_SHF_R;
    p->combine = found[3];
    if (found[0] == found[1] || found[2] == found[3])
      bad = "a shf without one direction (.l, .r) and one mode (.wrap, .clamp)";
    else if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_PRMT:
    p->mode = B_PRMT;
    p->combine = (uint8_t)(named + 1);
    if (t != PTX_T_B32)
      bad = "this type";
    break;
  case PTX_OP_BFE:
    p->mode = B_BFE;
    if (!ints)
      bad = "this type";
    break;
  case PTX_OP_BFI:
    p->mode = B_BFI, nsrc = 4;
    if (t != PTX_T_B32 && t != PTX_T_B64)
      bad = "this type";
    break;
  case PTX_OP_MUL24:
  case PTX_OP_MAD24:
    nsrc = in->op == PTX_OP_MAD24 ? 3 : 2;
    p->mode = (uint8_t)((in->op == PTX_OP_MAD24 ? B_MAD24_LO : B_MUL24_LO) + found[1]);
    p->sat = in->op == PTX_OP_MAD24 && found[2];
    if (found[0] == found[1])
      bad = "a mul24 or mad24 without one of .lo, .hi";
    else if (!i32)
      bad = "this type";
    else if (p->sat && (!found[1] || t != PTX_T_S32))
      bad = ".sat of other than mad24.hi.s32";
    break;
  case PTX_OP_SAD:
    p->mode = B_SAD;
    if (!is_int(t) || w < 16 || !(is_signed(t) || (t >= PTX_T_U8 && t <= PTX_T_U64)))
      bad = "this type";
    break;
  case PTX_OP_SLCT:
    p->mode = B_SLCT;
    p->ftz = found[0];
    if (!(is_int(t) && w >= 16) && !is_float(t))
      bad = "this type";
    else if (p->t2 != PTX_T_S32 && p->t2 != PTX_T_F32)
      bad = "a selector of other than .s32 or .f32";
    else if (p->ftz && p->t2 != PTX_T_F32)
      bad = ".ftz of an integer selector";
    break;
  case PTX_OP_COPYSIGN:
    p->mode = B_COPYSIGN, nsrc = 2;
    if (!is_float(t))
      bad = "this type";
    break;
  case PTX_OP_TESTP:
    p->mode = B_TESTP, nsrc = 1;
    p->combine = (uint8_t)named;
    if (named < 0)
      bad = "a testp without a test";
    else if (!is_float(t))
      bad = "this type";
    break;
  default: /* bfind */
    p->mode = B_BFIND, nsrc = 1;
    p->combine = found[0];
    if (!ints)
      bad = "this type";
    break;
  }
  if (bad)
    return unsupported(pc, !t && !strcmp(bad, "this type") ? "an instruction without a type" : bad);
  if (p->mode == B_LOP3 && p->combine) { /* lop3.op.b32 d|p, a, b, c, lut, q (d may be _) */
    const PtxOperand *d = &in->opds[0];
    if (!need_opds(pc, 6, 6))
      return false;
    if (d->kind != PTX_OPD_PAIR)
      return perr(pc, d->line, d->col, "expected a destination pair d|p");
    if (d->elems[0].kind != PTX_OPD_SINK && !reg_operand(pc, &d->elems[0], &p->d[0]))
      return false;
    if (!reg_operand(pc, &d->elems[1], &p->d[1]))
      return false;
    p->nd = 2;
    p->ns = 5;
    for (uint32_t i = 0; i < 5; i++)
      if (!operand(pc, &in->opds[1 + i], &p->s[i]))
        return false;
    if (p->s[3].kind != O_IMM)
      return perr(pc, in->opds[4].line, in->opds[4].col, "the lookup table of lop3 must be an immediate");
    k->fn = x_lop3p;
    return true;
  }
  if (!plain(pc, p, nsrc))
    return false;
  if (p->mode == B_LOP3 && p->s[3].kind != O_IMM)
    return perr(pc, in->opds[4].line, in->opds[4].col, "the lookup table of lop3 must be an immediate");
  k->fn = in->op == PTX_OP_FNS ? x_fns : x_bits;
  return true;
}

static bool c_mov(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!mods(pc, p, NULL, NULL) || !need_opds(pc, 2, 2))
    return false;
  const PtxOperand *d = &in->opds[0], *s = &in->opds[1];
  if (d->kind == PTX_OPD_VEC || s->kind == PTX_OPD_VEC) { /* pack or unpack */
    const PtxOperand *v = d->kind == PTX_OPD_VEC ? d : s;
    unsigned w = ptx_type_bits((PtxType)p->t);
    if (!v->n || v->n > 4 || !w || w % v->n || (d->kind == PTX_OPD_VEC) == (s->kind == PTX_OPD_VEC))
      return unsupported(pc, "this vector form");
    p->bytes = w / v->n / 8;
    p->mode = d->kind == PTX_OPD_VEC ? 1 : 2;
    if (p->mode == 1) {
      p->nd = (uint8_t)v->n;
      p->ns = 1;
      for (uint32_t i = 0; i < v->n; i++)
        if (v->elems[i].kind != PTX_OPD_SINK && !reg_operand(pc, &v->elems[i], &p->d[i]))
          return false;
      if (!operand(pc, s, &p->s[0]))
        return false;
    } else {
      p->nd = 1;
      p->ns = (uint8_t)v->n;
      for (uint32_t i = 0; i < v->n; i++)
        if (!operand(pc, &v->elems[i], &p->s[i]))
          return false;
      if (!reg_operand(pc, d, &p->d[0]))
        return false;
    }
    k->fn = x_pack;
    return true;
  }
  if (!plain(pc, p, 1))
    return false;
  k->fn = x_mov;
  return true;
}

static bool c_setp(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo", "ls", "hi",  "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", "and", "or",
                                        "xor", "ftz", NULL};
  bool found[24] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  int c = name_index(cmp_names, sizeof cmp_names / sizeof *cmp_names, in);
  if (c < 0)
    return unsupported(pc, "a setp without a comparison");
  if (in->op == PTX_OP_SET) { /* set.cmp.dtype.stype: p->t the source type, p->t2 the destination's */
    unsigned d = p->t;
    p->t = p->t2;
    p->t2 = (uint8_t)d;
    bool dok = d == PTX_T_U32 || d == PTX_T_S32 || d == PTX_T_F32 || d == PTX_T_U16 || d == PTX_T_S16 || is_half(d);
    if (!dok || (is_half(d) && !is_half(p->t)) || (is_pair(d) && !is_pair(p->t)) ||
        (is_pair(p->t) && !is_pair(d) && d != PTX_T_U32 && d != PTX_T_S32))
      return unsupported(pc, "a set of these types");
  }
  if (!is_int(p->t) && !is_float(p->t) && !is_half(p->t))
    return unsupported(pc, "this type");
  if (found[21] && p->t != PTX_T_F32 && half_fmt(p->t) != KFP_F16)
    return unsupported(pc, ".ftz of this type");
  p->mode = (uint8_t)c;
  p->ftz = found[21];
  p->fmt = (uint8_t)half_fmt(p->t);
  p->combine = found[18] ? 1 : found[19] ? 2 : found[20] ? 3 : 0;
  if (!need_opds(pc, p->combine ? 4 : 3, p->combine ? 4 : 3))
    return false;
  if (in->op == PTX_OP_SET) {
    p->nd = 1;
    if (!reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
  } else if (!dest_operands(pc, &in->opds[0], p))
    return false;
  p->ns = (uint8_t)(in->nopds - 1);
  for (uint32_t i = 1; i < in->nopds; i++)
    if (!operand(pc, &in->opds[i], &p->s[i - 1]))
      return false;
  k->fn = in->op == PTX_OP_SET ? x_set : x_setp;
  return true;
}

static bool c_selp(PComp *pc, KIns *k, PIns *p) {
  if (!mods(pc, p, NULL, NULL) || !plain(pc, p, 3))
    return false;
  k->fn = x_selp;
  return true;
}

/* ---- fp8: cvt to and from .e4m3x2 and .e5m2x2 (sm_89) --------------------------------------------
 * A pair is two bytes of a .b16, the first operand's (a's) the high one, as for f16x2. E5M2 is
 * IEEE's 8-bit layout (kernel_fp.c rounds it); E4M3 has no infinities, 0x7f/0xff its NaNs and 448
 * its largest value. To fp8 is .rn and .satfinite (PTX requires both): a NaN is 0x7f, a magnitude
 * past the largest finite value (an infinity too) that value of its sign; .relu makes negatives
 * +0. From fp8 to f16x2 is exact (a NaN the canonical one; .relu as to fp8). */
static bool is_fp8(unsigned t) { return t == PTX_T_E4M3X2 || t == PTX_T_E5M2X2 || t == PTX_T_E4M3 || t == PTX_T_E5M2; }

static uint64_t to_fp8(double x, bool e5, bool relu) {
  if (isnan(x))
    return 0x7f;
  if (relu && x < 0)
    return 0;
  uint64_t sign = signbit(x) ? 0x80 : 0;
  if (fabs(x) > (e5 ? 57344.0 : 448.0))
    return sign | (e5 ? 0x7b : 0x7e);
  return kernel_fp_round(x, 0, KFP_RN, e5 ? KFP_E5M2 : KFP_E4M3);
}

static double fp8_value(uint64_t b, bool e5) {
  b &= 0xff;
  if (e5 || (b & 0x78) != 0x78) /* E4M3 but its top binade: as IEEE's */
    return kernel_fp_value(b, e5 ? KFP_E5M2 : KFP_E4M3);
  if ((b & 0x7f) == 0x7f)
    return NAN;
  double v = ldexp((double)(8 | (b & 7)), 8 - 3);
  return b & 0x80 ? -v : v;
}

/* mode 0: fp8x2 from two f32s (s[0] high, s[1] low); 1: from an f16x2; 2: an f16x2 from fp8x2.
 * p->fmt: 1 for E5M2. */
static int x_cvt_fp8(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool e5 = p->fmt;
  KLANES(f, l, {
    uint64_t a = rd(f, &p->s[0], l), r;
    if (p->mode == 0)
      r = to_fp8(f32of(a), e5, p->relu) << 8 | to_fp8(f32of(rd(f, &p->s[1], l)), e5, p->relu);
    else if (p->mode == 1)
      r = to_fp8(kernel_fp_value(a >> 16 & 0xffff, KFP_F16), e5, p->relu) << 8 |
          to_fp8(kernel_fp_value(a & 0xffff, KFP_F16), e5, p->relu);
    else {
      r = 0;
      for (unsigned h = 0; h < 2; h++) {
        double v = fp8_value(a >> (8 * h), e5);
        uint64_t b = isnan(v) ? kernel_fp_nan(KFP_F16) : p->relu && v < 0 ? 0 : kernel_fp_round(v, 0, KFP_RN, KFP_F16);
        r |= b << (16 * h);
      }
    }
    wr(f, &p->d[0], l, r);
  });
  return EX_NEXT;
}

/* cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f32 d, a, b; ... .f16x2 d, a; cvt.rn{.relu}.f16x2.e4m3x2/
 * .e5m2x2 d, a (found: c_cvt's modifiers: rn, ..., relu at 11, satfinite at 12) */
static bool c_cvt_fp8(PComp *pc, KIns *k, PIns *p, const bool *found) {
  bool to = p->t == PTX_T_E4M3X2 || p->t == PTX_T_E5M2X2, from = p->t2 == PTX_T_E4M3X2 || p->t2 == PTX_T_E5M2X2;
  int others = 0;
  for (int i = 1; i < 11; i++)
    others += found[i];
  if (to == from || (to && p->t2 != PTX_T_F32 && p->t2 != PTX_T_F16X2) || (from && p->t != PTX_T_F16X2))
    return unsupported(pc, "a conversion of these types");
  if (!found[0] || others || found[12] != to)
    return unsupported(pc, to ? "a conversion to fp8 other than .rn.satfinite" : "a conversion from fp8 other than .rn");
  p->fmt = (uint8_t)((to ? p->t : p->t2) == PTX_T_E5M2X2);
  p->mode = (uint8_t)(to ? (p->t2 == PTX_T_F32 ? 0 : 1) : 2);
  p->relu = found[11];
  if (!plain(pc, p, p->mode == 0 ? 2 : 1))
    return false;
  k->fn = x_cvt_fp8;
  return true;
}

static bool c_cvt(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat",
                                        "rna", "relu", "satfinite", NULL};
  bool found[13] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  if (is_fp8(p->t) || is_fp8(p->t2))
    return c_cvt_fp8(pc, k, p, found);
  int df = fmt_of(p->t), sf = fmt_of(p->t2);
  bool dok = is_int(p->t) || df >= 0, sok = is_int(p->t2) || (sf >= 0 && sf != KFP_TF32);
  if (!dok || !sok || p->t == PTX_T_B8 || p->t2 == PTX_T_B8)
    return unsupported(pc, "a conversion of these types");
  bool fs = sf >= 0, fd = df >= 0;
  bool narrow = fd && (!fs || kernel_fp_bits((unsigned)df) < kernel_fp_bits((unsigned)sf) ||
                       (kernel_fp_bits((unsigned)df) == kernel_fp_bits((unsigned)sf) && df != sf));
  if (is_pair(p->t2) || (is_pair(p->t) && p->t2 != PTX_T_F32))
    return unsupported(pc, "a conversion of these types");
  int nr = found[0] + found[1] + found[2] + found[3] + found[10], ni = found[4] + found[5] + found[6] + found[7];
  if (nr + ni > 1)
    return unsupported(pc, "more than one rounding");
  unsigned r = found[0] || found[4] ? R_N : found[1] || found[5] ? R_Z : found[2] || found[6] ? R_M
               : found[3] || found[7]  ? R_P
                                       : R_NONE;
  bool irnd = ni > 0;
  if (fs && !fd && !irnd)
    return unsupported(pc, "a float to integer conversion without an integer rounding (.rni, .rzi, .rmi, .rpi)");
  if (irnd && !(fs && (!fd || p->t == p->t2)))
    return unsupported(pc, "an integer rounding of this conversion");
  if (fd && fs && p->t == p->t2 && !irnd && !found[8] && !found[9])
    return unsupported(pc, NULL); /* cvt.f32.f32 is a conversion for its .sat or .ftz only */
  if (nr && !narrow)
    return unsupported(pc, "a rounding of this widening conversion");
  if (found[10] != (df == KFP_TF32))
    return unsupported(pc, found[10] ? ".rna of other than a .tf32 result" : "a .tf32 result without .rna");
  if (found[9] && !fd && fs)
    return unsupported(pc, ".sat of this conversion");
  if ((found[11] || found[12]) && df != KFP_F16 && df != KFP_BF16)
    return unsupported(pc, found[11] ? ".relu of other than an f16 or bf16 result" : ".satfinite of this conversion");
  p->mode = (uint8_t)(irnd ? r : R_NONE);
  p->rnd = (uint8_t)(found[10] ? KFP_RNA + 1 : irnd || r == R_NONE ? 0 : r - R_N + KFP_RN + 1);
  p->ftz = found[8];
  p->sat = found[9];
  p->relu = found[11];
  p->satfinite = found[12];
  if (!plain(pc, p, is_pair(p->t) ? 2 : 1))
    return false;
  k->fn = x_cvt;
  return true;
}

static bool c_cvta(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"to", NULL};
  bool found[1] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  if (p->space == PTX_SPACE_GLOBAL)
    p->mode = 0;
  else if (p->space == PTX_SPACE_SHARED)
    p->mode = found[0] ? 2 : 1;
  else if (p->space == PTX_SPACE_LOCAL)
    p->mode = found[0] ? 4 : 3;
  else
    return unsupported(pc, "cvta of this state space");
  if (!plain(pc, p, 1))
    return false;
  k->fn = x_cvta;
  return true;
}

static const char *const mem_mods[] = {"v*",       "nc",      "ca",      "cg",          "cs",     "lu",     "cv",
                                       "wb",       "wt",      "volatile", "relaxed",    "weak",   "cta",    "gpu",
                                       "sys",      "L1::*",   "L2::*",   NULL};

/* Adds x to the address's constant offset, checked: PTX's offset is any 64-bit number. */
static bool add_off(PComp *pc, const PtxOperand *a, PIns *p, int64_t x) {
  if (__builtin_add_overflow(p->off, x, &p->off))
    return perr(pc, a->line, a->col, "an address whose offset does not fit in 64 bits");
  return true;
}

/* The address operand [base+off] of a memory instruction into p->s[si] and p->off; for .param,
 * the parameter's word. */
static bool address(PComp *pc, PIns *p, const PtxOperand *a, uint32_t si) {
  if (a->kind != PTX_OPD_ADDR)
    return perr(pc, a->line, a->col, "expected an address");
  p->off = a->ival;
  memset(&p->s[si], 0, sizeof p->s[si]);
  if (!a->base)
    return p->space == PTX_SPACE_PARAM ? perr(pc, a->line, a->col, "expected a parameter") : true;
  const PtxOperand *b = a->base;
  if (p->space == PTX_SPACE_PARAM) {
    size_t voff;
    if (b->kind == PTX_OPD_SYM && body_var(pc, b->name, false, &voff)) { /* in the thread's private memory */
      p->space = PTX_SPACE_LOCAL;
      return add_off(pc, a, p, (int64_t)voff);
    }
    for (uint32_t i = 0; b->kind == PTX_OPD_SYM && pc->inst->fn->entry && i < pc->fn->sig.nparams; i++)
      if (pc->fn->sig.params[i].name == b->name) {
        p->s[si].word = pc->param_word[i];
        if (p->off < 0 || p->off > 8 - (int64_t)p->bytes)
          return perr(pc, a->line, a->col, "a load of bytes %lld.. of parameter '%s' is not supported by the PTX "
                      "kernel engine yet", (long long)p->off, b->name);
        return true;
      }
    return perr(pc, a->line, a->col, "a .param access of other than a parameter or a .param variable is not "
                "supported by the PTX kernel engine yet");
  }
  if (b->kind == PTX_OPD_SYM) {
    size_t off;
    char *g = global_var(pc, b->name);
    if (g) {
      if (p->space != PTX_SPACE_GLOBAL && p->space != PTX_SPACE_CONST && p->space != PTX_SPACE_NONE)
        return perr(pc, b->line, b->col, "'%s' is a module variable, not in the instruction's state space", b->name);
      return add_off(pc, a, p, (int64_t)(uintptr_t)g);
    }
    bool local = local_var(pc, b->name, &off);
    if (!local && body_var(pc, b->name, false, &off))
      return perr(pc, b->line, b->col, "'%s' is a .param variable, not in the instruction's state space", b->name);
    if (!local && !shared_var(pc, b->name, &off))
      return perr(pc, b->line, b->col, "the address of '%s' is not supported by the PTX kernel engine yet (only "
                  ".shared, .local, .global and .const variables)", b->name);
    if (p->space != PTX_SPACE_NONE && (p->space == PTX_SPACE_LOCAL) != local)
      return perr(pc, b->line, b->col, "'%s' is a .%s variable, not in the instruction's state space", b->name,
                  local ? "local" : "shared");
    if (p->space == PTX_SPACE_NONE)
      return perr(pc, b->line, b->col, "a generic access of '%s' is not supported by the PTX kernel engine yet",
                  b->name);
    return add_off(pc, a, p, (int64_t)off);
  }
  return reg_operand(pc, b, &p->s[si]);
}

/* The spaces of ld (param: .param and .const too), st and atom (local: ld and st take .local too) */
static bool mem_space(PComp *pc, PIns *p, bool param, bool local) {
  if (p->space == PTX_SPACE_GLOBAL || p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_NONE ||
      (param && (p->space == PTX_SPACE_PARAM || p->space == PTX_SPACE_CONST)) ||
      (local && p->space == PTX_SPACE_LOCAL))
    return true;
  return unsupported(pc, "memory of this state space");
}

static bool mem_type(PComp *pc, PIns *p) {
  unsigned w = ptx_type_bits((PtxType)p->t);
  if (!(is_int(p->t) || is_float(p->t) || is_half(p->t)) || w < 8 || w > 64)
    return unsupported(pc, "memory of this type");
  p->bytes = w / 8;
  p->ety = ir_type_int(pc->h->ctx, w, SIGNLESS);
  return true;
}

/* A whole vector register (%v of .reg .v4 .f32 %v): its components are the elements of ld and st */
static bool whole_vec(const PtxOperand *o) { return o->kind == PTX_OPD_REG && o->decl->vec && !o->comp; }

static void vec_parts(PComp *pc, const PtxOperand *o, POpd *out) {
  for (uint32_t i = 0; i < o->decl->vec; i++)
    out[i] = (POpd){.kind = O_REG, .word = pc->vecword[o->n] + i,
                    .width = (uint8_t)ptx_type_bits((PtxType)o->decl->type)};
}

/* The .v2/.v4 width of a memory instruction (1 without one) must be its operand's element count. */
static bool vec_width(PComp *pc, const PtxOperand *o) {
  unsigned w = 1;
  for (uint32_t i = 0; i < pc->insn->nmods; i++)
    if (pc->insn->mods[i].kind == PTX_MOD_VEC)
      w = pc->insn->mods[i].value;
  if ((o->kind == PTX_OPD_VEC ? o->n : whole_vec(o) ? o->decl->vec : 1) != w)
    return unsupported(pc, "a vector width other than its operand's");
  return true;
}

static bool c_ld(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!mods(pc, p, mem_mods, NULL) || !mem_space(pc, p, true, true) || !mem_type(pc, p) || !need_opds(pc, 2, 2))
    return false;
  const PtxOperand *d = &in->opds[0];
  if (!vec_width(pc, d))
    return false;
  if (d->kind == PTX_OPD_VEC) {
    if (d->n > 4)
      return unsupported(pc, "this vector load");
    p->nd = (uint8_t)d->n;
    for (uint32_t i = 0; i < d->n; i++)
      if (!reg_operand(pc, &d->elems[i], &p->d[i]))
        return false;
  } else if (whole_vec(d) && p->space != PTX_SPACE_PARAM) {
    if (d->decl->vec > 4)
      return unsupported(pc, "this vector load");
    p->nd = d->decl->vec;
    vec_parts(pc, d, p->d);
  } else {
    p->nd = 1;
    if (!reg_operand(pc, d, &p->d[0]))
      return false;
  }
  p->ns = 1;
  if (!address(pc, p, &in->opds[1], 0))
    return false;
  if (p->space == PTX_SPACE_PARAM) { /* a kernel parameter (a .param variable's access is a .local one now) */
    if (p->nd > 1)
      return unsupported(pc, "a vector load of a kernel parameter");
    k->fn = x_ld_param;
    return true;
  }
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = x_ld;
  return true;
}

static bool c_st(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!mods(pc, p, mem_mods, NULL) || !mem_space(pc, p, p->space == PTX_SPACE_PARAM, true) || !mem_type(pc, p) ||
      !need_opds(pc, 2, 2))
    return false;
  if (p->space == PTX_SPACE_CONST)
    return unsupported(pc, "memory of this state space");
  if (!address(pc, p, &in->opds[0], 0))
    return false;
  if (p->space == PTX_SPACE_PARAM)
    return unsupported(pc, "a store to a kernel parameter");
  const PtxOperand *v = &in->opds[1];
  if (!vec_width(pc, v))
    return false;
  if (v->kind == PTX_OPD_VEC) {
    if (v->n > 4)
      return unsupported(pc, "this vector store");
    p->ns = (uint8_t)(1 + v->n);
    for (uint32_t i = 0; i < v->n; i++)
      if (!operand(pc, &v->elems[i], &p->s[1 + i]))
        return false;
  } else if (whole_vec(v)) {
    if (v->decl->vec > 4)
      return unsupported(pc, "this vector store");
    p->ns = (uint8_t)(1 + v->decl->vec);
    vec_parts(pc, v, p->s + 1);
  } else {
    p->ns = 2;
    if (!operand(pc, v, &p->s[1]))
      return false;
  }
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = x_st;
  return true;
}

static bool c_atom(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor", "inc", "dec",
                                        "relaxed", "acquire", "release", "acq_rel", "cta", "gpu", "sys", NULL};
  if (!mods(pc, p, allowed, NULL) || !mem_space(pc, p, false, false))
    return false;
  int op = name_index(atom_names, sizeof atom_names / sizeof *atom_names, in);
  if (op < 0)
    return unsupported(pc, "an atomic without an operation");
  unsigned w = ptx_type_bits((PtxType)p->t);
  if (!(is_int(p->t) || is_float(p->t)) || (w != 32 && w != 64))
    return unsupported(pc, "an atomic of this type");
  if (is_float(p->t) && op != A_ADD && op != A_EXCH && op != A_MIN && op != A_MAX)
    return unsupported(pc, "this float atomic");
  p->mode = (uint8_t)op;
  p->bytes = w / 8;
  bool red = in->op == PTX_OP_RED;
  uint32_t nsrc = op == A_CAS ? 3 : 2;
  if (!need_opds(pc, nsrc + !red, nsrc + !red))
    return false;
  uint32_t i = 0;
  if (!red) {
    p->nd = 1;
    if (!reg_operand(pc, &in->opds[i++], &p->d[0]))
      return false;
  }
  if (!address(pc, p, &in->opds[i++], 0))
    return false;
  p->ns = (uint8_t)nsrc;
  for (uint32_t j = 1; j < nsrc; j++)
    if (!operand(pc, &in->opds[i++], &p->s[j]))
      return false;
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = x_atom;
  return true;
}

static bool module_bar_arrive(PComp *pc);
static bool c_nbar(PComp *pc, KIns *k, PIns *p, bool arrive);
static bool c_cp(PComp *pc, KIns *k, PIns *p);
static bool c_cp_bulk(PComp *pc, KIns *k, PIns *p);
static bool c_mbarrier(PComp *pc, KIns *k, PIns *p);

/* bar.sync / barrier.sync a[, b], bar.red, bar.warp.sync: the barrier id a is any (the engine has one
 * barrier per block); a thread count b must be the block's (checked when it runs) */
static bool c_bar(PComp *pc, Op *op, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "aligned", "warp", "red", "popc", "and", "or", "arrive", NULL};
  bool found[8] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  if (found[2]) { /* bar.warp.sync membermask */
    if (found[0] + found[3] + found[7] != 1 || !need_opds(pc, 1, 1) || !operand(pc, &in->opds[0], &p->s[0]))
      return found[0] + found[3] + found[7] != 1 ? unsupported(pc, NULL) : false;
    k->fn = x_warp_sync;
    return true;
  }
  if (found[7] || ((found[0] || found[3]) && module_bar_arrive(pc)))
    return c_nbar(pc, k, p, found[7]);
  if (found[3]) { /* bar.red.op.t d, a[, b], {!}c */
    int mode = name_index(bar_red_names, 3, in);
    if (found[0] || mode < 0 || (mode == BR_POPC) != (p->t == PTX_T_U32) || (mode != BR_POPC && p->t != PTX_T_PRED))
      return unsupported(pc, NULL);
    if (!need_opds(pc, 3, 4) || !reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
    p->nd = 1;
    p->mode = (uint8_t)mode;
    p->ns = (uint8_t)(in->nopds - 1);
    for (uint32_t i = 1; i < in->nopds; i++)
      if (!operand(pc, &in->opds[i], &p->s[i + 1u == in->nopds ? 2 : i - 1]))
        return false;
    if (in->nopds == 3) /* no thread count: s[1] unused */
      p->ns = 1;
    if (!c_kbarrier(&pc->kc, op, k))
      return false;
    p->then = k->fn;
    k->fn = x_bar_red;
    return true;
  }
  if (!found[0] && in->op == PTX_OP_BARRIER)
    return unsupported(pc, NULL);
  if (found[4] || found[5] || found[6] || !need_opds(pc, 1, 2))
    return found[4] || found[5] || found[6] ? unsupported(pc, NULL) : false;
  p->ns = (uint8_t)in->nopds;
  for (uint32_t i = 0; i < in->nopds; i++)
    if (!operand(pc, &in->opds[i], &p->s[i]))
      return false;
  if (!c_kbarrier(&pc->kc, op, k))
    return false;
  if (in->nopds > 1) {
    p->then = k->fn;
    k->fn = x_bar_count;
  }
  return true;
}

/* match.any.sync.t d, a, membermask; match.all.sync.t d[|p], a, membermask (t: .b32, .b64) */
static bool c_match(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "any", "all", NULL};
  bool found[3] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  if (!found[0] || found[1] == found[2] || (p->t != PTX_T_B32 && p->t != PTX_T_B64))
    return unsupported(pc, NULL);
  if (!need_opds(pc, 3, 3) || !dest_operands(pc, &in->opds[0], p))
    return false;
  if (found[1] && p->nd > 1)
    return unsupported(pc, "a predicate result of match.any");
  p->mode = found[1] ? X_ANY : X_ALL;
  p->ns = 2;
  if (!operand(pc, &in->opds[1], &p->s[0]) || !operand(pc, &in->opds[2], &p->s[1]))
    return false;
  k->fn = x_match;
  return true;
}

/* redux.sync.op.t d, a, membermask: add, min, max of .u32/.s32; and, or, xor of .b32 */
static bool c_redux(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "add", "min", "max", "and", "or", "xor", NULL};
  if (!mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(redux_names, 6, in);
  bool arith = mode >= RX_ADD && mode <= RX_MAX;
  if (!has(in, "sync") || mode < 0 || (arith ? p->t != PTX_T_U32 && p->t != PTX_T_S32 : p->t != PTX_T_B32))
    return unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!plain(pc, p, 2))
    return false;
  k->fn = x_redux;
  return true;
}

/* elect.sync d|p, membermask */
static bool c_elect(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", NULL};
  if (!mods(pc, p, allowed, NULL))
    return false;
  if (!has(in, "sync"))
    return unsupported(pc, NULL);
  if (!need_opds(pc, 2, 2) || !dest_operands(pc, &in->opds[0], p) || !operand(pc, &in->opds[1], &p->s[0]))
    return false;
  p->ns = 1;
  k->fn = x_elect;
  return true;
}

/* nanosleep.u32 t: the engine does not sleep (a thread's later instructions run after it anyway) */
static bool c_nanosleep(PComp *pc, KIns *k, PIns *p) {
  if (!mods(pc, p, NULL, NULL) || !need_opds(pc, 1, 1) || !operand(pc, &pc->insn->opds[0], &p->s[0]))
    return false;
  if (p->t != PTX_T_U32)
    return unsupported(pc, NULL);
  k->fn = x_nop;
  return true;
}

static bool c_trap(PComp *pc, KIns *k, PIns *p) {
  if (!mods(pc, p, NULL, NULL) || !need_opds(pc, 0, 0))
    return false;
  k->fn = x_trap;
  return true;
}

static bool c_shfl(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "up", "down", "bfly", "idx", NULL};
  if (!mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(shfl_names, 4, in);
  if (!has(in, "sync") || mode < 0 || ptx_type_bits((PtxType)p->t) != 32)
    return unsupported(pc, NULL);
  if (!need_opds(pc, 5, 5))
    return false;
  p->mode = (uint8_t)mode;
  if (!dest_operands(pc, &in->opds[0], p))
    return false;
  p->ns = 4;
  for (uint32_t i = 0; i < 4; i++)
    if (!operand(pc, &in->opds[1 + i], &p->s[i]))
      return false;
  k->fn = x_shfl;
  return true;
}

static bool c_vote(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"sync", "all", "any", "uni", "ballot", NULL};
  if (!mods(pc, p, allowed, NULL))
    return false;
  int mode = name_index(vote_names, 4, in);
  if (!has(in, "sync") || mode < 0 || (mode == V_BALLOT) != (p->t == PTX_T_B32) ||
      (mode != V_BALLOT && p->t != PTX_T_PRED))
    return unsupported(pc, NULL);
  p->mode = (uint8_t)mode;
  if (!plain(pc, p, 2))
    return false;
  k->fn = x_vote;
  return true;
}

static bool c_activemask(PComp *pc, KIns *k, PIns *p) {
  if (!mods(pc, p, NULL, NULL) || !need_opds(pc, 1, 1) || !reg_operand(pc, &pc->insn->opds[0], &p->d[0]))
    return false;
  p->nd = 1;
  p->mode = V_BALLOT;
  k->a = 1;
  k->fn = x_vote;
  return true;
}

/* membar and fence: blocks run their threads in lock step and each access is performed when it
 * runs, so ordering needs nothing more */
static bool c_fence(PComp *pc, KIns *k, PIns *p) {
  static const char *const allowed[] = {"cta", "gl", "gpu", "sys", "sc", "acq_rel", NULL};
  if (!mods(pc, p, allowed, NULL) || !need_opds(pc, 0, 0))
    return false;
  k->fn = x_nop;
  return true;
}

/* One instruction (not a branch, ret or exit) into k. */
static bool c_insn(PComp *pc, Op *op, KIns *k, PIns *p) {
  switch ((PtxOpcode)pc->insn->op) {
  case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_FMA: case PTX_OP_DIV:
  case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_AND:
  case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT: case PTX_OP_CNOT: case PTX_OP_SHL: case PTX_OP_SHR:
  case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT: case PTX_OP_RCP: case PTX_OP_RSQRT:
  case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS:
    return c_arith(pc, k, p);
  case PTX_OP_LOP3: case PTX_OP_SHF: case PTX_OP_PRMT: case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_MUL24:
  case PTX_OP_MAD24: case PTX_OP_SAD: case PTX_OP_SLCT: case PTX_OP_COPYSIGN: case PTX_OP_TESTP: case PTX_OP_BFIND:
  case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_FNS:
    return c_bits(pc, k, p);
  case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: return c_carry(pc, k, p);
  case PTX_OP_TANH: return c_arith(pc, k, p);
  case PTX_OP_SET: return c_setp(pc, k, p);
  case PTX_OP_MOV: return c_mov(pc, k, p);
  case PTX_OP_SETP: return c_setp(pc, k, p);
  case PTX_OP_SELP: return c_selp(pc, k, p);
  case PTX_OP_CVT: return c_cvt(pc, k, p);
  case PTX_OP_CVTA: return c_cvta(pc, k, p);
  case PTX_OP_LD: return c_ld(pc, k, p);
  case PTX_OP_ST: return c_st(pc, k, p);
  case PTX_OP_ATOM: case PTX_OP_RED: return c_atom(pc, k, p);
  case PTX_OP_BAR: case PTX_OP_BARRIER: return c_bar(pc, op, k, p);
  case PTX_OP_SHFL: return c_shfl(pc, k, p);
  case PTX_OP_VOTE: return c_vote(pc, k, p);
  case PTX_OP_ACTIVEMASK: return c_activemask(pc, k, p);
  case PTX_OP_MEMBAR: case PTX_OP_FENCE: return c_fence(pc, k, p);
  case PTX_OP_MATCH: return c_match(pc, k, p);
  case PTX_OP_REDUX: return c_redux(pc, k, p);
  case PTX_OP_ELECT: return c_elect(pc, k, p);
  case PTX_OP_NANOSLEEP: return c_nanosleep(pc, k, p);
  case PTX_OP_TRAP: return c_trap(pc, k, p);
  case PTX_OP_CP: return c_cp(pc, k, p);
  case PTX_OP_MBARRIER: return c_mbarrier(pc, k, p);
  default: return unsupported(pc, NULL);
  }
}

static KIns *block_add(PBlock *b) {
  if (b->n == b->cap) {
    uint32_t cap = b->cap ? 2 * b->cap : 16;
    KIns *p = realloc(b->ins, cap * sizeof *p);
    if (!p)
      abort();
    b->ins = p;
    b->cap = cap;
  }
  KIns *k = &b->ins[b->n++];
  memset(k, 0, sizeof *k);
  return k;
}

/* ---- uniform registers -------------------------------------------------------------------------- *
 *
 * A register whose every write is in the entry block (which all threads of a block run together,
 * once: no branch leads back to it), unguarded, by an instruction that only computes (mov, cvt,
 * arithmetic, setp, selp, ld.param, cvta of .global and .shared) from immediates, parameters,
 * %ntid, %ctaid, %nctaid and other such registers, holds the same bits in every thread: it gets
 * one uniform word (O_UREG) in place of a column, and an entry instruction whose results are all
 * such registers runs for one thread (x_uni). Mlir-opt's kernels compute their parameters' base
 * pointers, sizes and block offsets so. */

/* ---- uniform words computed per block ------------------------------------------------------- *
 *
 * What x_aff and x_uni compute for one thread, a word from uniform words, immediates and the
 * block's ids and sizes, in the forms entry code computes per block (mov, integer cvt, add, sub,
 * mul.lo, mad.lo, mul.wide, shl), is decided when the kernel is compiled (uop_compile): the
 * operation, the result's word and mask, and each source as a uniform word, an immediate or a
 * word of the frame (its offset in KFrame: bid, bdim, gdim), so that a block computes it with no
 * look at the instruction (uop_run), as the instruction's lane loops would for one thread. */
enum { U_NONE, U_MOV, U_CVT_U, U_CVT_S, U_ADD, U_SUB, U_MUL, U_WIDE_U, U_WIDE_S, U_SHL, U_MAD };
enum { US_WORD, US_IMM, US_FRAME };

typedef struct PUop {
  uint8_t op, bits;  /* bits: what a cvt or mul.wide reads of its sources, a shl's type */
  uint8_t kind[3];   /* per source: US_* */
  uint32_t d, w[3];  /* the result's word; a source's word, or its offset in KFrame */
  uint64_t m, imm[3];
} PUop;

static bool uop_src(const POpd *o, PUop *u, unsigned j) {
  if (o->kind == O_UREG && !o->neg)
    u->kind[j] = US_WORD, u->w[j] = o->word;
  else if (o->kind == O_IMM)
    u->kind[j] = US_IMM, u->imm[j] = o->imm;
  else if (o->kind == O_SREG && o->comp < 3 && (o->sreg == PTX_SREG_CTAID || o->sreg == PTX_SREG_NTID ||
                                                  o->sreg == PTX_SREG_NCTAID))
    u->kind[j] = US_FRAME, u->w[j] = (uint32_t)(o->sreg == PTX_SREG_CTAID   ? offsetof(KFrame, bid)
                                                : o->sreg == PTX_SREG_NTID ? offsetof(KFrame, bdim)
                                                                           : offsetof(KFrame, gdim)) +
                                     4u * o->comp;
  else
    return false;
  return true;
}

/* p (run: its instruction's function) as a PUop; false when it is none of the forms above. */
static bool uop_compile(const PIns *p, KFn run, PUop *u) {
  memset(u, 0, sizeof *u);
  if (p->nd != 1 || p->d[0].kind != O_UREG || !p->ns || p->sat)
    return false;
  if (run == x_mov && p->ns == 1)
    u->op = U_MOV;
  else if (run == x_cvt && p->ns == 1 && is_int(p->t) && is_int(p->t2))
    u->op = is_signed(p->t2) ? U_CVT_S : U_CVT_U, u->bits = (uint8_t)ptx_type_bits(p->t2);
  else if (run == x_int && p->ns == 3 && p->mode == I_MAD_LO)
    u->op = U_MAD;
  else if (run == x_int && p->ns == 2 && p->mode <= I_MUL_WIDE && p->mode != I_MUL_HI)
    u->op = p->mode == I_ADD ? U_ADD : p->mode == I_SUB ? U_SUB : p->mode == I_MUL_LO ? U_MUL
            : is_signed(p->t) ? U_WIDE_S : U_WIDE_U,
    u->bits = (uint8_t)ptx_type_bits(p->t);
  else if (run == x_int && p->ns == 2 && p->mode == I_SHL)
    u->op = U_SHL, u->bits = (uint8_t)ptx_type_bits(p->t);
  else
    return false;
  for (unsigned j = 0; j < p->ns; j++)
    if (!uop_src(&p->s[j], u, j))
      return u->op = U_NONE, false;
  u->d = p->d[0].word;
  u->m = wmask(UINT64_MAX, p->d[0].width);
  return true;
}

static inline uint64_t uop_rd(const KFrame *f, const PUop *u, unsigned j) {
  if (u->kind[j] == US_WORD)
    return f->u[u->w[j]].u;
  if (u->kind[j] == US_IMM)
    return u->imm[j];
  uint32_t v;
  memcpy(&v, (const char *)f + u->w[j], 4);
  return v;
}

static inline void uop_run(KFrame *f, const PUop *u) {
  uint64_t a = uop_rd(f, u, 0), b = u->op >= U_ADD ? uop_rd(f, u, 1) : 0, r;
  unsigned w = u->bits;
  switch (u->op) {
  case U_MOV: r = a; break;
  case U_CVT_U: r = wmask(a, w); break;
  case U_CVT_S: r = (uint64_t)sext(a, w); break;
  case U_ADD: r = a + b; break;
  case U_SUB: r = a - b; break;
  case U_MUL: r = a * b; break;
  case U_WIDE_U: r = wmask(a, w) * wmask(b, w); break;
  case U_WIDE_S: r = (uint64_t)(sext(a, w) * sext(b, w)); break;
  case U_SHL: r = wmask(b, 32) >= w ? 0 : a << wmask(b, 32); break;
  default: r = a * b + uop_rd(f, u, 2); break;
  }
  f->u[u->d].u = r & u->m;
}

/* An entry instruction of uniform results in one of uop_run's forms (uop_ins, once the kernel's
 * instructions are final): k->aux its PUop. */
static int x_uni_op(KFrame *f, const KIns *k) {
  uop_run(f, k->aux);
  return EX_NEXT;
}

static int x_uni(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t nact = f->nact;
  f->nact = 1; /* the first active thread, f->act[0] */
  int r = p->run(f, k);
  f->nact = nact;
  return r;
}

/* An entry instruction of uniform results whose sources are the same in every block of the launch
 * (immediates, parameters, %ntid, %nctaid, and registers of one write made so; not %ctaid), its
 * results registers of one write: the words it writes stay for the frame's later blocks, so it
 * runs once per frame. */
static int x_uni_once(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (f->once[p->once])
    return EX_NEXT;
  int r = x_uni(f, k);
  if (r == EX_NEXT)
    f->once[p->once] = 1;
  return r;
}

static void invariant_uni(PComp *pc, PBlock *b0, uint32_t nwords) {
  uint32_t *writes = calloc(nwords + 1, sizeof *writes);
  uint8_t *inv = calloc(nwords + 1, 1);
  if (!writes || !inv)
    abort();
  for (uint32_t i = 0; i < b0->n; i++) {
    const PIns *p = b0->ins[i].aux;
    for (uint32_t j = 0; p && j < p->nd; j++)
      if (p->d[j].kind == O_UREG && p->d[j].word < nwords)
        writes[p->d[j].word]++;
  }
  for (uint32_t i = 0; i < b0->n; i++) {
    KIns *k = &b0->ins[i];
    PIns *p = k->aux;
    if (k->fn != x_uni || (p->run == x_cvta && p->mode != 0) ||
        (p->run == x_int && (p->mode == I_DIV || p->mode == I_REM)))
      continue;
    bool ok = true;
    for (uint32_t j = 0; j < p->ns && ok && p->run != x_ld_param; j++) {
      const POpd *o = &p->s[j];
      ok = o->kind == O_IMM || (o->kind == O_SREG && (o->sreg == PTX_SREG_NTID || o->sreg == PTX_SREG_NCTAID)) ||
           (o->kind == O_UREG && o->word < nwords && inv[o->word]);
    }
    for (uint32_t j = 0; j < p->nd && ok; j++)
      ok = p->d[j].kind == O_UREG && p->d[j].word < nwords && writes[p->d[j].word] == 1;
    if (!ok)
      continue;
    for (uint32_t j = 0; j < p->nd; j++)
      inv[p->d[j].word] = 1;
    p->once = kernel_new_once(&pc->kc);
    k->fn = x_uni_once;
  }
  free(writes);
  free(inv);
}

/* The x_uni instructions of uop_run's forms as x_uni_op, once the kernel's instructions are final. */
static void uop_ins(PComp *pc, PBlock *b0) {
  for (uint32_t i = 0; i < b0->n; i++) {
    KIns *k = &b0->ins[i];
    PUop u;
    if (k->fn != x_uni || !uop_compile(k->aux, ((const PIns *)k->aux)->run, &u))
      continue;
    PUop *c = ir_alloc(pc->h->ctx, sizeof *c);
    *c = u;
    k->fn = x_uni_op;
    k->aux = c;
  }
}

/* ---- the entry's once-per-frame instructions as one ------------------------------------------- *
 *
 * Block 0's x_uni_once instructions read only immediates, parameters, %ntid, %nctaid and the
 * results of earlier ones, and their results are registers of one write: run together where the
 * first of them is, in order, they compute what they did in place, and the frame's later blocks
 * find all of them done with one flag (x_uni_group) rather than one dispatch and flag each. The
 * others leave the block, so --max-steps does not count them (as kernel_llvm.c's group). */
typedef struct PUniGroup {
  KIns *ins;
  uint32_t n, once;
} PUniGroup;

static int x_uni_group(KFrame *f, const KIns *k) {
  const PUniGroup *g = k->aux;
  if (f->once[g->once])
    return EX_NEXT;
  for (uint32_t i = 0; i < g->n; i++) {
    int r = x_uni(f, &g->ins[i]);
    if (r != EX_NEXT)
      return r;
  }
  f->once[g->once] = 1;
  return EX_NEXT;
}

static void group_uni_once(PComp *pc, PBlock *b0) {
  uint32_t n = 0, first = UINT32_MAX, j = 0;
  for (uint32_t i = 0; i < b0->n; i++)
    if (b0->ins[i].fn == x_uni_once) {
      n++;
      first = first == UINT32_MAX ? i : first;
    }
  if (n < 2)
    return;
  PUniGroup *g = ir_alloc(pc->h->ctx, sizeof *g);
  g->ins = ir_alloc(pc->h->ctx, n * sizeof *g->ins);
  g->once = kernel_new_once(&pc->kc);
  KIns head = b0->ins[first];
  for (uint32_t i = 0; i < b0->n; i++) {
    if (b0->ins[i].fn == x_uni_once)
      g->ins[g->n++] = b0->ins[i];
    if (b0->ins[i].fn != x_uni_once || i == first)
      b0->ins[j++] = b0->ins[i];
  }
  b0->n = j;
  head.fn = x_uni_group;
  head.aux = g;
  b0->ins[first] = head;
}

static bool uni_fn(const KIns *k) {
  const PIns *p = k->aux;
  return k->fn == x_mov || k->fn == x_int || k->fn == x_f32 || k->fn == x_f64 || k->fn == x_bits ||
         k->fn == x_cvt || k->fn == x_setp || k->fn == x_selp || k->fn == x_ld_param || k->fn == x_pack ||
         (k->fn == x_cvta && p->mode <= 2);
}

static bool uni_src(const POpd *o, const uint8_t *uni, uint32_t reg0, uint32_t nregs) {
  switch (o->kind) {
  case O_NONE: case O_IMM: return true;
  case O_SREG: return o->sreg == PTX_SREG_NTID || o->sreg == PTX_SREG_CTAID || o->sreg == PTX_SREG_NCTAID;
  case O_REG: return o->word - reg0 < nregs && uni[o->word - reg0] == 1;
  default: return false;
  }
}

static void uniform_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs) {
  uint8_t *uni = calloc(nregs + 1, 1); /* per register: 0 not written yet, 1 uniform, 2 varying */
  uint32_t reg0 = pc->reg0;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      if (!p)
        continue;
      if ((k->fn == x_bra || k->fn == x_cond_bra) && p->target == 0)
        goto done; /* the entry block is a loop's: nothing is uniform */
      for (uint32_t j = 0; b > 0 && j < p->nd; j++)
        if (p->d[j].kind == O_REG && p->d[j].word - reg0 < nregs)
          uni[p->d[j].word - reg0] = 2;
    }
  /* the entry block in order, until nothing changes: a register written there by a varying
     instruction varies (also where an earlier write was uniform) */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t r = 0; r < nregs; r++)
      uni[r] = uni[r] == 1 ? 0 : uni[r];
    for (uint32_t i = 0; i < bl[0].n; i++) {
      const KIns *k = &bl[0].ins[i];
      const PIns *p = k->aux;
      if (!p)
        continue;
      bool u = uni_fn(k);
      for (uint32_t j = 0; u && j < p->ns; j++)
        u = uni_src(&p->s[j], uni, reg0, nregs);
      for (uint32_t j = 0; j < p->nd; j++) {
        uint32_t r = p->d[j].word - reg0;
        if (p->d[j].kind != O_REG || r >= nregs || uni[r] == 2) /* a vector component, the carry flag or
                                                                       a device function's: a column */
          continue;
        if (u)
          uni[r] = 1;
        else
          uni[r] = 2, changed = true;
      }
    }
  }
  uint32_t *word = calloc(nregs + 1, sizeof *word);
  for (uint32_t r = 0; r < nregs; r++)
    if (uni[r] == 1)
      word[r] = kernel_new_uniform(&pc->kc, 1);
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *p = k->aux;
      if (!p)
        continue;
      POpd *os[] = {&p->guard, &p->d[0], &p->d[1], &p->d[2], &p->d[3], &p->s[0], &p->s[1], &p->s[2], &p->s[3],
                    &p->s[4]};
      bool all = p->nd > 0;
      for (uint32_t j = 0; j < sizeof os / sizeof *os; j++)
        if (os[j]->kind == O_REG && os[j]->word - reg0 < nregs && uni[os[j]->word - reg0] == 1) {
          os[j]->kind = O_UREG;
          os[j]->word = word[os[j]->word - reg0];
        }
      for (uint32_t j = 0; j < p->nd; j++)
        all &= p->d[j].kind == O_UREG;
      if (b == 0 && all && uni_fn(k)) {
        p->run = k->fn;
        k->fn = x_uni;
      }
    }
  free(word);
done:
  free(uni);
}

/* ---- branches over one block --------------------------------------------------------------------- *
 *
 * `@p bra L` whose next block falls through (or branches) to L and is reached from nowhere else
 * (a guard: `setp.ge %p, %i, %n; @%p bra L; ...; L:`) runs that block itself, for the threads
 * whose predicate fails, when all of the region's threads run the branch (KFrame.pc_all): then
 * run_cfg would run that block next, with those threads, and L after it with all of them, so
 * the order is the same, and no thread's next block is written or scanned for. The threads that
 * run the block are the branch's mask when none branches, and a prefix or a suffix of it when
 * they split so (a bounds guard of threads ids: those below a cut run it), else a list of their
 * own. When the frame's credit does not cover the block, or the branch runs under a part of the
 * region, it is x_cond_bra. */

static int x_bra_over(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t nact = f->nact, *act = f->act;
  const KBlock *b = p->over;
  if (nact != f->pc_all || f->top + f->n > f->cap)
    return x_cond_bra(f, k);
  uint32_t taken = 0, turns = 0, t0;
  if (p->cutword && cut_count(f, p, &taken, &turns, &t0)) {
  } else if (p->guard.kind == O_REG) {
    const Slot *g = f->v + (size_t)p->guard.word * f->n;
    t0 = (uint32_t)((g[act[0]].u ^ p->guard.neg) & 1);
    taken = guard_count(f, g, &turns);
    taken = p->guard.neg ? nact - taken : taken;
  } else {
    t0 = (uint32_t)(rd(f, &p->guard, act[0]) & 1);
    taken = t0 ? nact : 0;
  }
  uint32_t m = nact - taken, *sub = act;
  if (m) {
    int64_t cost = (int64_t)b->n * m;
    if (f->credit < cost)
      return x_cond_bra(f, k);
    if (turns > 1) { /* neither a prefix nor a suffix: the threads' own list */
      sub = f->stack + f->top;
      const Slot *g = f->v + (size_t)p->guard.word * f->n;
      uint32_t j = 0;
      for (uint32_t i = 0; i < nact; i++) {
        sub[j] = act[i];
        j += (uint32_t)(((g[act[i]].u ^ p->guard.neg) & 1) ^ 1);
      }
      f->top += f->n;
    } else if (t0) /* a suffix runs the block */
      sub = act + taken;
    f->credit -= cost;
    f->act = sub;
    f->nact = m;
    f->pc_all = m; /* its branch to L writes no thread's next block: all go there below */
    int r = EX_NEXT;
    for (uint32_t i = 0; i < b->n && r == EX_NEXT; i++)
      r = b->ins[i].fn(f, &b->ins[i]);
    f->act = act;
    f->nact = nact;
    f->pc_all = nact;
    if (turns > 1)
      f->top -= f->n;
    if (r == EX_ERROR)
      return EX_ERROR;
  }
  f->pc_one = p->target, f->pc_n = nact;
  return EX_DONE;
}

/* Marks the branches over one block (see above) once the kernel's blocks are final. */
static void bra_overs(KBody *body) {
  uint32_t nb = body->nblocks;
  uint32_t *entries = calloc(nb + 1, sizeof *entries); /* per block: the branches that lead there */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < body->blocks[b].n; i++) {
      const KIns *k = &body->blocks[b].ins[i];
      const PIns *p = k->aux;
      if (k->fn != x_bra && k->fn != x_cond_bra)
        continue;
      if (p->target < nb)
        entries[p->target]++;
      if (k->fn == x_cond_bra && p->next < nb)
        entries[p->next]++;
    }
  for (uint32_t b = 0; b + 1 < nb; b++) {
    KBlock *bl = &body->blocks[b], *over = &body->blocks[b + 1];
    KIns *k = bl->n ? &bl->ins[bl->n - 1] : NULL;
    PIns *p = k ? k->aux : NULL;
    if (!k || k->fn != x_cond_bra || p->next != b + 1 || p->target <= b + 1 || p->target >= nb ||
        entries[b + 1] != 1 || !over->n || (p->guard.kind == O_REG && p->guard.width != 1))
      continue;
    const KIns *e = &over->ins[over->n - 1];
    const PIns *q = e->aux;
    bool plain = e->fn == x_bra && q->target == p->target;
    for (uint32_t i = 0; i + 1 < over->n && plain; i++)
      plain = over->ins[i].fn != x_bra && over->ins[i].fn != x_cond_bra && over->ins[i].fn != x_bra_over;
    if (!plain)
      continue;
    p->over = over;
    k->fn = x_bra_over;
  }
  free(entries);
}

/* ---- affine registers: the instructions and the analysis ------------------------------------------ */

/* An affine register's instruction (x_aff): its sources' registers and how it computes u. */
typedef struct PAff {
  const PAffReg *d;
  const PAffReg *src[5]; /* its affine sources */
  uint32_t nsrc;
  const PAffReg *xs;     /* the source a widening reads (from xw bits, signed when xsigned), or NULL */
  uint8_t xw;
  bool xsigned;
  uint8_t root;          /* 1: mov of %tid.x, 2: of %tid.y (u is 0) */
  bool multi;            /* one of its register's several writes (loop_writes) */
  KIns uk;               /* the instruction over u words: its affine sources' and its result's */
  PIns up;
  PUop uop;              /* up as a PUop (uop.op U_NONE: none) */
  uint32_t once;         /* x_aff_once: its KFrame.once flag + 1 */
} PAff;

/* Whether the xw-bit values of affine register a (read as signed or not) do not wrap in the block:
 * then the widening of each is u widened plus the same steps. */
static bool aff_fits(const KFrame *f, const PAffReg *a, unsigned xw, bool xsigned) {
  uint64_t u = wmask(f->u[a->uword].u, xw);
  int64_t v0 = xsigned ? sext(u, xw) : (int64_t)u, bx = f->bdim[0], rows = f->n / f->bdim[0], tx, ty, lo, hi;
  if (__builtin_mul_overflow((int64_t)a->cx, bx - 1, &tx) || __builtin_mul_overflow((int64_t)a->cy, rows - 1, &ty) ||
      __builtin_add_overflow(v0, tx < 0 ? tx : 0, &lo) || __builtin_add_overflow(lo, ty < 0 ? ty : 0, &lo) ||
      __builtin_add_overflow(v0, tx > 0 ? tx : 0, &hi) || __builtin_add_overflow(hi, ty > 0 ? ty : 0, &hi))
    return false;
  int64_t min = xsigned ? -((int64_t)1 << (xw - 1)) : 0;
  int64_t max = xsigned ? ((int64_t)1 << (xw - 1)) - 1 : (int64_t)((UINT64_C(1) << xw) - 1);
  return lo >= min && hi <= max;
}

/* x_aff where its sources' steps do not hold (or its widening wraps, or a register of several
 * writes is written by some threads only): its column as before. */
static __attribute__((noinline)) int aff_fallback(KFrame *f, const KIns *k, const PIns *p, const PAff *a) {
  if (a->multi) /* the threads this write skips keep what the register held */
    aff_col(f, a->d);
  for (uint32_t j = 0; j < a->nsrc; j++)
    aff_col(f, a->src[j]);
  f->u[a->d->sword].u = 0;
  return p->run(f, k);
}

/* u by a->uk, for one thread; then the column where it is needed */
static __attribute__((noinline)) int aff_slow_u(KFrame *f, const PAff *a) {
  if (a->root)
    f->u[a->d->uword].u = 0;
  else if (a->uop.op)
    uop_run(f, &a->uop);
  else {
    uint32_t nact = f->nact;
    f->nact = 1; /* f->act[0]'s: the words are uniform */
    a->uk.fn(f, &a->uk);
    f->nact = nact;
  }
  f->u[a->d->sword].u = AS_AFF;
  if (a->d->needed)
    aff_col(f, a->d);
  return EX_NEXT;
}

static int x_aff(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PAff *a = p->aff;
  bool ok = !f->wide && (a->root != 2 || f->bdim[2] == 1) && (!a->multi || f->nact == f->n);
  for (uint32_t j = 0; j < a->nsrc && ok; j++)
    ok = f->u[a->src[j]->sword].u & AS_AFF;
  if (ok && a->xs)
    ok = aff_fits(f, a->xs, a->xw, a->xsigned);
  if (!ok) /* as before, over columns */
    return aff_fallback(f, k, p, a);
  if (a->d->needed)
    return aff_slow_u(f, a);
  if (a->root)
    f->u[a->d->uword].u = 0;
  else if (a->uop.op)
    uop_run(f, &a->uop);
  else
    return aff_slow_u(f, a);
  f->u[a->d->sword].u = AS_AFF;
  return EX_NEXT;
}

/* An affine register's instruction whose sources are the same in every block of the launch (see
 * once_affs): once its words (and its column, where it is needed) are made for a frame, they stay
 * for the frame's later blocks. A column made by the fallback, for the active threads alone, is
 * made again in the next block. */
static int x_aff_once(KFrame *f, const KIns *k) {
  const PAff *a = ((const PIns *)k->aux)->aff;
  if (f->once[a->once - 1])
    return EX_NEXT;
  int r = x_aff(f, k);
  if (r == EX_NEXT && (f->u[a->d->sword].u & AS_AFF))
    f->once[a->once - 1] = 1;
  return r;
}

/* An operand as an affine instruction reads it: 0 the same in every thread, 1 a register of the
 * kernel's own (*r), -1 neither. */
static int aff_class(const POpd *o, uint32_t reg0, uint32_t nregs, uint32_t *r) {
  switch (o->kind) {
  case O_IMM: case O_UREG: return o->neg ? -1 : 0;
  case O_SREG: return o->sreg == PTX_SREG_NTID || o->sreg == PTX_SREG_CTAID || o->sreg == PTX_SREG_NCTAID ? 0 : -1;
  case O_REG:
    if (o->neg || o->word - reg0 >= nregs)
      return -1;
    *r = o->word - reg0;
    return 1;
  default: return -1;
  }
}

/* The steps of the result of k (an instruction of one register result) from its sources' (sx, sy;
 * 0 for the uniform ones), and the widening it does (*xs: the source index, -1 none; *xw, *xsg);
 * false when k does not keep values affine. */
static bool aff_rule(const KIns *k, const PIns *p, const int *cls, const uint64_t *sx, const uint64_t *sy,
                     uint64_t *cx, uint64_t *cy, int *xs, uint8_t *xw, bool *xsg, uint8_t *root) {
  unsigned wd = p->d[0].width;
  *xs = -1, *root = 0;
  if (p->nd != 1 || p->d[0].kind != O_REG || (wd != 32 && wd != 64))
    return false;
  if (k->fn == x_mov && p->ns == 1 && p->s[0].kind == O_SREG && p->s[0].sreg == PTX_SREG_TID && p->s[0].comp < 2) {
    *root = (uint8_t)(p->s[0].comp + 1);
    *cx = p->s[0].comp == 0, *cy = p->s[0].comp == 1;
    return true;
  }
  for (uint32_t j = 0; j < p->ns; j++)
    if (cls[j] < 0)
      return false;
  bool wide_src = true; /* the affine sources hold at least wd bits */
  for (uint32_t j = 0; j < p->ns; j++)
    wide_src &= cls[j] == 0 || p->s[j].width >= wd;
  if (k->fn == x_mov && p->ns == 1 && wide_src) {
    *cx = sx[0], *cy = sy[0];
    return true;
  }
  if (k->fn == x_cvt && p->ns == 1 && is_int(p->t) && is_int(p->t2) && !p->sat) {
    unsigned sw = ptx_type_bits(p->t2);
    if (cls[0] == 1 && p->s[0].width < sw)
      return false;
    if (cls[0] == 1 && sw < wd)
      *xs = 0, *xw = (uint8_t)sw, *xsg = is_signed(p->t2);
    *cx = sx[0], *cy = sy[0];
    return true;
  }
  if (k->fn != x_int || p->sat)
    return false;
  unsigned w = ptx_type_bits(p->t);
  int imm0 = p->ns > 0 && p->s[0].kind == O_IMM, imm1 = p->ns > 1 && p->s[1].kind == O_IMM;
  switch (p->mode) {
  case I_ADD: case I_SUB:
    if (p->ns != 2 || !wide_src)
      return false;
    *cx = p->mode == I_ADD ? sx[0] + sx[1] : sx[0] - sx[1];
    *cy = p->mode == I_ADD ? sy[0] + sy[1] : sy[0] - sy[1];
    return true;
  case I_MUL_LO: case I_MAD_LO: {
    if (p->ns != (p->mode == I_MAD_LO ? 3u : 2u) || !wide_src)
      return false;
    uint64_t ax, ay;
    if (cls[0] == 0 && cls[1] == 0)
      ax = ay = 0;
    else if (imm1)
      ax = sx[0] * p->s[1].imm, ay = sy[0] * p->s[1].imm;
    else if (imm0)
      ax = sx[1] * p->s[0].imm, ay = sy[1] * p->s[0].imm;
    else
      return false;
    *cx = ax + (p->mode == I_MAD_LO ? sx[2] : 0), *cy = ay + (p->mode == I_MAD_LO ? sy[2] : 0);
    return true;
  }
  case I_SHL:
    if (p->ns != 2 || !imm1 || !wide_src || wmask(p->s[1].imm, 32) >= w || wmask(p->s[1].imm, 32) >= 64)
      return false;
    *cx = sx[0] << wmask(p->s[1].imm, 32), *cy = sy[0] << wmask(p->s[1].imm, 32);
    return true;
  case I_MUL_WIDE: {
    if (p->ns != 2 || w >= 64 || wd != 2 * w)
      return false;
    if (cls[0] == 0 && cls[1] == 0) {
      *cx = *cy = 0;
      return true;
    }
    int j = imm1 ? 0 : imm0 ? 1 : -1; /* the affine one */
    if (j < 0 || cls[j] != 1 || p->s[j].width < w)
      return false;
    uint64_t c = is_signed(p->t) ? (uint64_t)sext(p->s[1 - j].imm, w) : wmask(p->s[1 - j].imm, w);
    *cx = sx[j] * c, *cy = sy[j] * c;
    *xs = j, *xw = (uint8_t)w, *xsg = is_signed(p->t);
    return true;
  }
  default: return false;
  }
}

/* Dominators of the kernel's blocks (Cooper, Harvey and Kennedy): idom[b], or UINT32_MAX for a
 * block no path from the entry reaches. */
static uint32_t *dominators(const PBlock *bl, uint32_t nb) {
  uint32_t *succ = malloc(2 * (size_t)nb * sizeof *succ), *ns = calloc(nb, sizeof *ns);
  uint32_t *order = malloc(nb * sizeof *order), *rpo = malloc(nb * sizeof *rpo), *idom = malloc(nb * sizeof *idom);
  uint32_t *stack = malloc(nb * sizeof *stack), *next = calloc(nb, sizeof *next);
  uint32_t *npred = calloc(nb + 1, sizeof *npred), *pred = malloc(2 * (size_t)nb * sizeof *pred + 1);
  if (!succ || !ns || !order || !rpo || !idom || !stack || !next || !npred || !pred)
    abort();
  for (uint32_t b = 0; b < nb; b++) {
    const KIns *k = bl[b].n ? &bl[b].ins[bl[b].n - 1] : NULL;
    const PIns *p = k ? k->aux : NULL;
    if (k && (k->fn == x_bra || k->fn == x_cond_bra) && p->target < nb)
      succ[2 * b + ns[b]++] = p->target;
    if (k && k->fn == x_cond_bra && p->next < nb)
      succ[2 * b + ns[b]++] = p->next;
  }
  /* postorder by an explicit stack */
  uint32_t sp = 0, no = 0;
  for (uint32_t b = 0; b < nb; b++)
    rpo[b] = UINT32_MAX, idom[b] = UINT32_MAX;
  rpo[0] = 0;
  stack[sp++] = 0;
  while (sp) {
    uint32_t b = stack[sp - 1];
    if (next[b] < ns[b]) {
      uint32_t s = succ[2 * b + next[b]++];
      if (rpo[s] == UINT32_MAX) {
        rpo[s] = 0;
        stack[sp++] = s;
      }
      continue;
    }
    order[no++] = b; /* postorder */
    sp--;
  }
  for (uint32_t i = 0; i < no; i++)
    rpo[order[i]] = no - 1 - i; /* reverse postorder number */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t j = 0; j < ns[b]; j++)
      npred[succ[2 * b + j] + 1]++;
  for (uint32_t b = 0; b < nb; b++)
    npred[b + 1] += npred[b];
  uint32_t *fill = calloc(nb, sizeof *fill);
  if (!fill)
    abort();
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t j = 0; j < ns[b]; j++) {
      uint32_t s = succ[2 * b + j];
      pred[npred[s] + fill[s]++] = b;
    }
  idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = no; i-- > 0;) { /* reverse postorder */
      uint32_t b = order[i], nd = UINT32_MAX;
      if (b == 0)
        continue;
      for (uint32_t j = npred[b]; j < npred[b + 1]; j++) {
        uint32_t q = pred[j];
        if (idom[q] == UINT32_MAX || rpo[q] == UINT32_MAX)
          continue;
        if (nd == UINT32_MAX) {
          nd = q;
          continue;
        }
        uint32_t x = q, y = nd;
        while (x != y) {
          while (rpo[x] > rpo[y])
            x = idom[x];
          while (rpo[y] > rpo[x])
            y = idom[y];
        }
        nd = x;
      }
      if (nd != idom[b]) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  free(succ), free(ns), free(order), free(rpo), free(stack), free(next), free(npred), free(pred), free(fill);
  return idom;
}

static bool dominates(const uint32_t *idom, uint32_t a, uint32_t b) {
  if (idom[b] == UINT32_MAX)
    return false;
  while (b != a && b != 0)
    b = idom[b];
  return b == a;
}

/* ---- loads taking turns along rows ----------------------------------------------------------------
 *
 * A k loop unrolled n times reads each row's elements k, k + 1, .. k + n - 1 by n loads from one
 * address register at offsets o, o + e, .. o + (n - 1) * e, and the register moves on by n * e:
 * each load's own memo would then stop at every step (its next element is n elements on), and its
 * rows be recorded, and logged between blocks, once per step and load. The loads of one block of
 * the kernel whose offsets are so (.global, one element of e bytes, unguarded, the same base
 * register, no two at one offset) share a memo besides their own (kernel_note_group): a load's
 * rows of one element each grow it when they follow its rows and the element is the load's turn
 * (the i-th of the group's n after the memo's first); anything else starts it anew, and accesses
 * of other shapes go to the load's own memo. Each byte of the shared memo's rows was read by the
 * load whose turn its element was, which the records name (KMemo.grp, KGRec.grp). */
static void load_groups(PComp *pc, PBlock *bl, uint32_t nb) {
  enum { GMAX = 8 };
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *p = k->aux;
      if (k->fn != x_ld || !p || p->grp || p->space != PTX_SPACE_GLOBAL || p->nd != 1 || p->s[0].kind != O_REG ||
          p->s[0].neg || (p->bytes != 4 && p->bytes != 8))
        continue;
      KIns *mem[GMAX];
      uint32_t n = 0;
      bool ok = true;
      for (uint32_t j = i; j < bl[b].n && ok; j++) {
        KIns *kj = &bl[b].ins[j];
        PIns *q = kj->aux;
        if (!q)
          continue;
        if (kj->fn == x_ld && !q->grp && q->space == p->space && q->nd == 1 && q->s[0].kind == O_REG &&
            !q->s[0].neg && q->s[0].word == p->s[0].word && q->bytes == p->bytes)
          ok = n < GMAX ? (mem[n++] = kj, true) : false;
        for (uint32_t d = 0; d < q->nd; d++)
          if (q->d[d].kind == O_REG && q->d[d].word == p->s[0].word)
            j = bl[b].n; /* the base register changes: the group ends here */
      }
      if (!ok || n < 2)
        continue;
      int64_t o0 = ((PIns *)mem[0]->aux)->off;
      for (uint32_t j = 1; j < n; j++)
        if (((PIns *)mem[j]->aux)->off < o0)
          o0 = ((PIns *)mem[j]->aux)->off;
      KMemoGroup *g = ir_alloc(pc->h->ctx, sizeof *g);
      const char **locs = ir_alloc(pc->h->ctx, n * sizeof *locs);
      bool seen[GMAX] = {false};
      for (uint32_t j = 0; j < n && ok; j++) {
        int64_t d = ((PIns *)mem[j]->aux)->off - o0;
        uint64_t at = (uint64_t)d / p->bytes;
        ok = d % p->bytes == 0 && at < n && !seen[at];
        if (ok)
          seen[at] = true, locs[at] = mem[j]->loc;
      }
      if (!ok)
        continue;
      *g = (KMemoGroup){n, p->bytes, locs};
      uint32_t memo = kernel_new_memo(&pc->kc, p->bytes);
      for (uint32_t j = 0; j < n; j++) {
        PIns *q = mem[j]->aux;
        q->grp = g, q->gmemo = memo, q->gmember = (uint32_t)((q->off - o0) / p->bytes);
      }
    }
}

/* Registers affine in the thread id of several writes (a loop's induction, an address moved on by
 * a loop): the first write (defb, defi) dominates the others, and each of them keeps the steps the
 * first gives (an add or sub of a uniform value to the register itself, ...), from affine sources.
 * Then while every write runs for all of the frame's threads, they all hold u + cx * x + cy * y
 * with the same u, which each write updates (x_aff); a write under part of them (PAff.multi) makes
 * the register's column first, from u, and is not affine for the rest of the frame. Marks bad the
 * registers whose writes do not; true when it did (the analysis runs again). */
static bool loop_writes(const PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs, const uint32_t *writes,
                        const uint32_t *defb, const uint32_t *defi, const uint8_t *state, const uint64_t *cx,
                        const uint64_t *cy, bool *bad, const uint32_t *idom) {
  uint32_t reg0 = pc->reg0;
  bool marked = false;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      if (!p || p->nd != 1 || p->d[0].kind != O_REG || p->d[0].word - reg0 >= nregs)
        continue;
      uint32_t r = p->d[0].word - reg0;
      if (writes[r] < 2 || state[r] != 1 || bad[r] || (b == defb[r] && i == defi[r]))
        continue;
      bool ok = p->ns <= 5 && (b == defb[r] ? i > defi[r] : dominates(idom, defb[r], b));
      int cls[5];
      uint64_t sx[5] = {0}, sy[5] = {0}, ux = 0, uy = 0;
      for (uint32_t j = 0; j < p->ns && ok; j++) {
        uint32_t q = 0;
        cls[j] = aff_class(&p->s[j], reg0, nregs, &q);
        if (cls[j] == 1 && state[q] != 1)
          ok = false;
        else if (cls[j] == 1)
          sx[j] = cx[q], sy[j] = cy[q];
      }
      int xs;
      uint8_t xw, root;
      bool xsg;
      ok = ok && aff_rule(k, p, cls, sx, sy, &ux, &uy, &xs, &xw, &xsg, &root) && !root && ux == cx[r] && uy == cy[r];
      if (!ok)
        bad[r] = true, marked = true;
    }
  return marked;
}

/* Finds the affine registers (see above) and makes their instructions x_aff and the accesses
 * through them aware of it. */
static void affine_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs) {
  if (nb > 4096 || !nregs)
    return;
  uint32_t reg0 = pc->reg0, *writes = calloc(nregs, sizeof *writes), *defb = calloc(nregs, sizeof *defb);
  uint32_t *defi = calloc(nregs, sizeof *defi);
  uint8_t *state = calloc(nregs, 1); /* 0 unknown, 1 affine (steps known), 2 not */
  uint64_t *cx = calloc(nregs, sizeof *cx), *cy = calloc(nregs, sizeof *cy);
  bool *needed = calloc(nregs, sizeof *needed), *bad = calloc(nregs, sizeof *bad);
  if (!writes || !defb || !defi || !state || !cx || !cy || !needed || !bad)
    abort();
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      for (uint32_t j = 0; p && j < p->nd; j++)
        if (p->d[j].kind == O_REG && p->d[j].word - reg0 < nregs) {
          uint32_t r = p->d[j].word - reg0;
          if (!writes[r]++) /* the first write; a register of several: the one that must dominate */
            defb[r] = b, defi[r] = i;
          bad[r] |= k->fn == x_guard || k->fn == x_uni || p->nd != 1;
        }
    }
  uint32_t *idom = dominators(bl, nb);
  for (bool again = true; again;) {
    again = false;
    for (uint32_t r = 0; r < nregs; r++)
      state[r] = writes[r] >= 1 && !bad[r] ? 0 : 2;
    for (bool changed = true; changed;) { /* the steps, sources first */
      changed = false;
      for (uint32_t r = 0; r < nregs; r++) {
        if (state[r])
          continue;
        const KIns *k = &bl[defb[r]].ins[defi[r]];
        const PIns *p = k->aux;
        int cls[5];
        uint64_t sx[5] = {0}, sy[5] = {0};
        bool wait = false, no = false;
        for (uint32_t j = 0; j < p->ns && j < 5; j++) {
          uint32_t s = 0;
          cls[j] = aff_class(&p->s[j], reg0, nregs, &s);
          if (cls[j] == 1 && state[s] == 2)
            no = true;
          else if (cls[j] == 1 && state[s] == 0)
            wait = true;
          else if (cls[j] == 1)
            sx[j] = cx[s], sy[j] = cy[s];
        }
        int xs;
        uint8_t xw, root;
        bool xsg;
        if (!no && !wait && p->ns <= 5 && aff_rule(k, p, cls, sx, sy, &cx[r], &cy[r], &xs, &xw, &xsg, &root))
          state[r] = 1, changed = true;
        else if (no || (!wait && p->ns <= 5) || p->ns > 5)
          state[r] = 2, changed = true;
      }
    }
    again = loop_writes(pc, bl, nb, nregs, writes, defb, defi, state, cx, cy, bad, idom);
    /* every read after the write, which dominates it */
    for (uint32_t b = 0; b < nb; b++)
      for (uint32_t i = 0; i < bl[b].n; i++) {
        const PIns *p = bl[b].ins[i].aux;
        for (uint32_t j = 0; p && j < p->ns + 1u; j++) {
          const POpd *o = j < p->ns ? &p->s[j] : &p->guard;
          uint32_t r = o->word - reg0;
          if (o->kind != O_REG || r >= nregs || state[r] != 1)
            continue;
          if (b == defb[r] ? i > defi[r] : dominates(idom, defb[r], b))
            continue;
          bad[r] = true;
          again = true;
        }
      }
  }
  for (uint32_t r = 0; r < nregs; r++)
    state[r] = state[r] == 1 ? 1 : 0;
  /* setps at a cut: of an affine register against a uniform value, the predicate (one write) read
     only by the branch that ends the block */
  uint32_t *reads = calloc(nregs, sizeof *reads);
  if (!reads)
    abort();
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const PIns *p = bl[b].ins[i].aux;
      for (uint32_t j = 0; p && j < p->ns + 1u; j++) {
        const POpd *o = j < p->ns ? &p->s[j] : &p->guard;
        if (o->kind == O_REG && o->word - reg0 < nregs)
          reads[o->word - reg0]++;
      }
    }
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i + 1 < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i], *e = &bl[b].ins[bl[b].n - 1];
      PIns *p = k->aux, *q = e->aux;
      uint32_t a = 0, c = 0;
      if (k->fn != x_setp || e->fn != x_cond_bra || p->nd != 1 || p->ns != 2 || p->combine || !is_int(p->t) ||
          p->mode > C_HS || aff_class(&p->s[0], reg0, nregs, &a) != 1 || !state[a] ||
          ((p->mode == C_EQ || p->mode == C_NE) && (cx[a] || cy[a])) || p->s[0].width < ptx_type_bits(p->t) || aff_class(&p->s[1], reg0, nregs, &c) != 0 ||
          p->d[0].kind != O_REG || p->d[0].width != 1 || p->d[0].word - reg0 >= nregs ||
          writes[p->d[0].word - reg0] != 1 || reads[p->d[0].word - reg0] != 1 || q->guard.kind != O_REG ||
          q->guard.word != p->d[0].word)
        continue;
      p->cutword = q->cutword = kernel_new_uniform(&pc->kc, 1) + 1;
    }
  free(reads);
  /* who reads the columns */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      if (!p)
        continue;
      KFn fn = k->fn == x_guard ? p->run : k->fn;
      bool aff_def = p->nd == 1 && p->d[0].kind == O_REG && p->d[0].word - reg0 < nregs && state[p->d[0].word - reg0];
      for (uint32_t j = 0; j < p->ns + 1u; j++) {
        const POpd *o = j < p->ns ? &p->s[j] : &p->guard;
        uint32_t r = o->word - reg0;
        if (o->kind != O_REG || r >= nregs || !state[r])
          continue;
        bool addr = j == 0 && ((fn == x_ld || fn == x_st) || (fn == x_setp && p->cutword)) && o->kind == O_REG;
        needed[r] |= !(aff_def && j < p->ns) && !addr;
      }
    }
  PAffReg *regs = ir_alloc(pc->h->ctx, nregs * sizeof *regs);
  for (uint32_t r = 0; r < nregs; r++)
    if (state[r])
      regs[r] = (PAffReg){kernel_new_uniform(&pc->kc, 1), kernel_new_uniform(&pc->kc, 1), reg0 + r,
                          bl[defb[r]].ins[defi[r]].aux ? ((const PIns *)bl[defb[r]].ins[defi[r]].aux)->d[0].width : 0,
                          needed[r], cx[r], cy[r]};
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *p = k->aux;
      if (!p)
        continue;
      KFn fn = k->fn == x_guard ? p->run : k->fn;
      if ((fn == x_ld || fn == x_st) && p->s[0].kind == O_REG && p->s[0].word - reg0 < nregs &&
          state[p->s[0].word - reg0])
        p->abase = &regs[p->s[0].word - reg0];
      if (k->fn == x_setp && p->cutword) {
        p->abase = &regs[p->s[0].word - reg0];
        p->run = x_setp;
        k->fn = x_setp_cut;
      }
      if (!(p->nd == 1 && p->d[0].kind == O_REG && p->d[0].word - reg0 < nregs && state[p->d[0].word - reg0]) ||
          k->fn == x_guard)
        continue;
      uint32_t r = p->d[0].word - reg0;
      PAff *a = ir_alloc(pc->h->ctx, sizeof *a);
      int cls[5];
      uint64_t sx[5] = {0}, sy[5] = {0}, ux, uy;
      for (uint32_t j = 0; j < p->ns; j++) {
        uint32_t s = 0;
        cls[j] = aff_class(&p->s[j], reg0, nregs, &s);
        if (cls[j] == 1)
          sx[j] = cx[s], sy[j] = cy[s];
      }
      int xs;
      uint8_t xw = 0, root;
      bool xsg = false;
      aff_rule(k, p, cls, sx, sy, &ux, &uy, &xs, &xw, &xsg, &root);
      a->d = &regs[r];
      a->root = root;
      a->multi = writes[r] > 1;
      a->up = *p;
      a->up.d[0].kind = O_UREG;
      a->up.d[0].word = regs[r].uword;
      for (uint32_t j = 0; j < p->ns; j++) {
        uint32_t s = 0;
        if (aff_class(&p->s[j], reg0, nregs, &s) != 1)
          continue;
        a->src[a->nsrc++] = &regs[s];
        a->up.s[j].kind = O_UREG;
        a->up.s[j].word = regs[s].uword;
        if ((int)j == xs)
          a->xs = &regs[s], a->xw = xw, a->xsigned = xsg;
      }
      a->uk = *k;
      a->uk.aux = &a->up;
      uop_compile(&a->up, k->fn, &a->uop);
      p->aff = a;
      p->run = k->fn;
      k->fn = x_aff;
    }
  free(idom);
  free(writes), free(defb), free(defi), free(state), free(cx), free(cy), free(needed), free(bad);
}

/* The affine registers' instructions whose sources are the same in every block of the launch
 * (immediates, %ntid, %nctaid, the results of the entry's once-per-frame instructions and of such
 * affine instructions; the thread ids, of which u is 0) as x_aff_once, once the kernel's
 * instructions are final: the thread id and its widening, where the block offset is added after. */
static void once_affs(PComp *pc, PBlock *bl, uint32_t nb) {
  uint32_t nw = kernel_new_uniform(&pc->kc, 0);
  uint8_t *inv = calloc(nw + 1, 1);
  if (!inv)
    abort();
  for (uint32_t i = 0; i < bl[0].n; i++) {
    const KIns *k = &bl[0].ins[i];
    const PUniGroup *g = k->fn == x_uni_group ? k->aux : NULL;
    for (uint32_t j = 0; j < (g ? g->n : k->fn == x_uni_once); j++) {
      const PIns *p = g ? g->ins[j].aux : k->aux;
      for (uint32_t d = 0; d < p->nd; d++)
        if (p->d[d].kind == O_UREG && p->d[d].word < nw)
          inv[p->d[d].word] = 1;
    }
  }
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      if (k->fn != x_aff)
        continue;
      PAff *a = (PAff *)((PIns *)k->aux)->aff; /* ir_alloc'ed by affine_regs */
      bool ok = a->root || a->uop.op;
      for (uint32_t j = 0; j < a->up.ns && ok && !a->root; j++) {
        const POpd *o = &a->up.s[j];
        ok = o->kind == O_IMM || (o->kind == O_UREG && !o->neg && o->word < nw && inv[o->word]) ||
             (o->kind == O_SREG && (o->sreg == PTX_SREG_NTID || o->sreg == PTX_SREG_NCTAID));
      }
      if (!ok || a->multi || a->d->uword >= nw) /* a register of several writes changes in a block */
        continue;
      inv[a->d->uword] = 1;
      a->once = kernel_new_once(&pc->kc) + 1;
      k->fn = x_aff_once;
    }
  free(inv);
}

static bool is_term(const PtxInsn *in) {
  return in->op == PTX_OP_BRA || in->op == PTX_OP_RET || in->op == PTX_OP_EXIT;
}

/* Private memory for a variable of `bytes` in each thread: its offset. */
static size_t reserve_private(PComp *pc, uint64_t bytes) {
  IrCtx *ctx = pc->h->ctx;
  int64_t shape[1] = {(int64_t)bytes};
  Type proto = {.kind = TY_MEMREF};
  proto.u.sh.shape = shape;
  proto.u.sh.rank = 1;
  proto.u.sh.elem = ir_type_int(ctx, 8, SIGNLESS);
  KAttr a = {.vary = true, .type = ir_type_intern(ctx, &proto)};
  kernel_reserve_private(&pc->kc, &a);
  return a.off;
}

/* The shared variables the kernel may name: the module's and its body's, at their offsets in the
 * block's static shared memory; an unsized one is the dynamic shared memory. (The body's .local
 * and .param variables are its layout's.) */
static bool shared_vars(PComp *pc) {
  const PtxModule *m = pc->m;
  const PtxFunc *fn = pc->fn;
  uint32_t cap = 0;
  for (uint32_t i = 0; i < m->ndecls; i++)
    cap += m->decls[i].kind == PTX_DECL_VAR && m->decls[i].var->space == PTX_SPACE_SHARED;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    cap += fn->stmts[i].kind == PTX_STMT_VAR;
  IrCtx *ctx = pc->h->ctx;
  pc->svars = ir_alloc(ctx, (cap + 1) * sizeof *pc->svars);
  pc->soff = ir_alloc(ctx, (cap + 1) * sizeof *pc->soff);
  size_t total = 0;
  for (uint32_t pass = 0; pass < 2; pass++) {
    uint32_t n = pass ? fn->nstmts : m->ndecls;
    for (uint32_t i = 0; i < n; i++) {
      const PtxVar *v;
      if (pass == 0 && m->decls[i].kind == PTX_DECL_VAR)
        v = m->decls[i].var;
      else if (pass == 1 && fn->stmts[i].kind == PTX_STMT_VAR)
        v = fn->stmts[i].var;
      else
        continue;
      if (v->space != PTX_SPACE_SHARED)
        continue; /* module variables of other spaces: an error where one is used; the body's: layout_of */
      uint64_t bytes = ptx_type_bits((PtxType)v->type) / 8 * (v->vec ? v->vec : 1);
      for (uint32_t d = 0; d < v->ndims; d++)
        bytes *= v->dims[d] ? v->dims[d] : 1;
      if (v->unsized)
        bytes = 0;
      if (bytes > (1u << 20))
        return perr(pc, v->line, v->col, "shared variable '%s' of %llu bytes is too large", v->name,
                    (unsigned long long)bytes);
      pc->svars[pc->nsvars] = v;
      pc->soff[pc->nsvars++] = v->unsized ? 0 : kernel_reserve_shared(&pc->kc, bytes);
      total += v->unsized ? 0 : kernel_align16(bytes);
    }
  }
  pc->dyn_off = total;
  return true;
}

/* The storage of fn's level-th activation on a chain of calls: its registers, and its body's .local
 * and .param variables in each thread's private memory. NULL after a diagnostic. */
static const PLayout *layout_of(PComp *pc, const PtxFunc *fn, uint32_t level) {
  for (const PLayout *l = pc->layouts; l; l = l->next)
    if (l->fn == fn && l->level == level)
      return l;
  IrCtx *ctx = pc->h->ctx;
  PLayout *lay = ir_alloc(ctx, sizeof *lay);
  lay->fn = fn;
  lay->level = level;
  lay->reg0 = kernel_new_varying(&pc->kc, fn->nregs + 1);
  lay->vecword = ir_alloc(ctx, (fn->nregs + 1) * sizeof *lay->vecword);
  for (uint32_t i = 0; i < fn->nstmts; i++) { /* vector registers: a column per component */
    const PtxRegDecl *d = fn->stmts[i].kind == PTX_STMT_REG ? fn->stmts[i].reg : NULL;
    for (uint32_t r = 0; d && d->vec && r < d->count && d->first + r < fn->nregs; r++)
      lay->vecword[d->first + r] = kernel_new_varying(&pc->kc, d->vec);
  }
  lay->voff = ir_alloc(ctx, (fn->nstmts + 1) * sizeof *lay->voff);
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    if (fn->stmts[i].kind != PTX_STMT_VAR)
      continue;
    const PtxVar *v = fn->stmts[i].var;
    if (v->space == PTX_SPACE_SHARED && fn->entry)
      continue; /* shared_vars */
    if (v->space != PTX_SPACE_LOCAL && v->space != PTX_SPACE_PARAM)
      return perr(pc, v->line, v->col, "a .%s variable in a %s is not supported by the PTX kernel engine yet",
                  ptx_space_name((PtxSpace)v->space), fn->entry ? "kernel" : "device function"), NULL;
    const char *what = v->space == PTX_SPACE_LOCAL ? "a .local" : "a .param";
    uint64_t bytes = 0, esize;
    if (v->unsized || !var_bytes(v, &bytes, &esize))
      return perr(pc, v->line, v->col, "%s variable without a size is not supported by the PTX kernel engine yet",
                  what), NULL;
    if (v->ninit || bytes > (1u << 20) || v->align > 16)
      return perr(pc, v->line, v->col, "%s variable %s is not supported by the PTX kernel engine yet", what,
                  v->ninit ? "with an initializer" : v->align > 16 ? "aligned to more than 16 bytes"
                  : "of more than 1 MiB"), NULL;
    lay->voff[i] = reserve_private(pc, bytes);
  }
  lay->next = pc->layouts;
  pc->layouts = lay;
  return lay;
}

static uint32_t new_block(PComp *pc) {
  if (pc->nb == pc->capb) {
    uint32_t cap = pc->capb ? 2 * pc->capb : 16;
    PBlock *b = realloc(pc->bl, cap * sizeof *b);
    if (!b)
      abort();
    pc->bl = b;
    pc->capb = cap;
  }
  memset(&pc->bl[pc->nb], 0, sizeof pc->bl[pc->nb]);
  return pc->nb++;
}

/* The target slot of a branch to label `label` of the instance (its nlabels: where ret goes),
 * filled in when the instance ends. */
static void add_fix(PComp *pc, uint32_t *slot, uint32_t label) {
  if (pc->nfix == pc->capfix) {
    uint32_t cap = pc->capfix ? 2 * pc->capfix : 16;
    PFix *f = realloc(pc->fix, cap * sizeof *f);
    if (!f)
      abort();
    pc->fix = f;
    pc->capfix = cap;
  }
  pc->fix[pc->nfix++] = (PFix){slot, label};
}

static void resolve_fixes(PComp *pc, const PInst *in) {
  for (uint32_t i = in->fix0; i < pc->nfix; i++)
    *pc->fix[i].slot = in->lblk[pc->fix[i].label];
  pc->nfix = in->fix0;
}

/* A jump at the end of the current block (where threads fall through to the next one), at the
 * place of the block's last instruction (or of the function): to block `to`, or, with to
 * UINT32_MAX, to label `label` of the instance. */
static void add_jump(PComp *pc, uint32_t to, uint32_t label) {
  IrCtx *ctx = pc->h->ctx;
  PBlock *b = &pc->bl[pc->cur];
  KIns *k = block_add(b);
  PIns *p = ir_alloc(ctx, sizeof *p);
  p->target = to;
  if (to == UINT32_MAX)
    add_fix(pc, &p->target, label);
  k->aux = p;
  k->fn = x_bra;
  if (b->n > 1) {
    k->op = b->ins[b->n - 2].op;
    k->loc = b->ins[b->n - 2].loc;
  } else {
    const PtxFunc *fn = pc->inst->fn;
    k->op = ir_op_new(ctx, "bra", ptx_loc(pc, fn->line, fn->col), NULL, 0, NULL, 0, NULL, 0);
    k->loc = kernel_loc(pc->h, k->op);
  }
}

/* Goes on in block b (threads fall through to it unless the current block ended in a branch). */
static void start_block(PComp *pc, uint32_t b) {
  if (!pc->closed)
    add_jump(pc, b, 0);
  pc->cur = b;
  pc->closed = false;
}

/* ---- cp.async, mbarrier, named barriers (see "asynchronous copies" above) -------------------------- */

static PSync *sync_of(PComp *pc) {
  if (!pc->sync) {
    PSync *sy = ir_alloc(pc->h->ctx, sizeof *sy);
    sy->park = kernel_new_varying(&pc->kc, 2);
    sy->bars = kernel_new_uniform(&pc->kc, 2 * NBARS + 2);
    pc->sync = sy;
  }
  return pc->sync;
}

/* k (its op, place and operands compiled) as a wait threads may park at: k->a its id. */
static void add_wait(PComp *pc, KIns *k) {
  PSync *sy = sync_of(pc);
  if (sy->nwaits == sy->capwaits) {
    uint32_t cap = sy->capwaits ? 2 * sy->capwaits : 8;
    const KIns **w = ir_alloc(pc->h->ctx, cap * sizeof *w);
    if (sy->nwaits)
      memcpy(w, sy->waits, sy->nwaits * sizeof *w);
    sy->waits = w;
    sy->capwaits = cap;
  }
  KIns *copy = ir_alloc(pc->h->ctx, sizeof *copy);
  *copy = *k;
  k->a = copy->a = sy->nwaits;
  sy->waits[sy->nwaits++] = copy;
  pc->ends_block = true;
}

/* The kernel's end, when it has any of these: the block of x_resume last of all (so that it runs
 * once no other thread can), and x_sync_reset first of all. */
static void sync_finish(PComp *pc) {
  PSync *sy = pc->sync;
  IrCtx *ctx = pc->h->ctx;
  PIns *p = ir_alloc(ctx, sizeof *p);
  p->sync = sy;
  if (sy->nwaits) {
    sy->resume = new_block(pc);
    KIns *r = block_add(&pc->bl[sy->resume]);
    memset(r, 0, sizeof *r);
    r->fn = x_resume;
    r->aux = p;
    r->op = sy->waits[0]->op;
    r->loc = sy->waits[0]->loc;
  }
  PBlock *b0 = &pc->bl[0];
  block_add(b0);
  memmove(b0->ins + 1, b0->ins, (b0->n - 1) * sizeof *b0->ins);
  memset(b0->ins, 0, sizeof *b0->ins);
  b0->ins[0].fn = x_sync_reset;
  b0->ins[0].aux = p;
  b0->ins[0].op = b0->n > 1 ? b0->ins[1].op : sy->waits ? sy->waits[0]->op : NULL;
  b0->ins[0].loc = b0->n > 1 ? b0->ins[1].loc : sy->waits ? sy->waits[0]->loc : NULL;
}

/* The spaces an instruction names, in order (cp.async: .shared then .global). */
static uint32_t spaces_of(const PtxInsn *in, uint8_t *sp, uint32_t cap) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < in->nmods; i++)
    if (in->mods[i].kind == PTX_MOD_SPACE && n < cap)
      sp[n++] = in->mods[i].value;
  return n;
}

/* cp.async.ca/.cg.shared{::cta}.global{.L2::..} [d], [s], size{, src-size | ignore-src}{, policy};
 * cp.async.commit_group; cp.async.wait_group n; cp.async.wait_all;
 * cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [mbar] */
static bool c_cp(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!has(in, "async"))
    return unsupported(pc, NULL);
  if (has(in, "bulk"))
    return c_cp_bulk(pc, k, p);
  PSync *sy = sync_of(pc);
  p->sync = sy;
  if (!sy->async) {
    sy->async = true;
    sy->apend = reserve_private(pc, sizeof(PAsyncTab));
  }
  if (has(in, "commit_group") || has(in, "wait_group") || has(in, "wait_all")) {
    static const char *const allowed[] = {"async", "commit_group", "wait_group", "wait_all", NULL};
    bool wait = has(in, "wait_group");
    if (!mods(pc, p, allowed, NULL) || !need_opds(pc, wait, wait) || (wait && !operand(pc, &in->opds[0], &p->s[0])))
      return false;
    p->ns = wait;
    p->mode = wait ? CPG_WAIT : has(in, "wait_all") ? CPG_WAIT_ALL : CPG_COMMIT;
    k->fn = x_cp_group;
    return true;
  }
  if (has(in, "mbarrier")) {
    static const char *const allowed[] = {"async", "mbarrier", "arrive", "noinc", NULL};
    if (!mods(pc, p, allowed, NULL) || !has(in, "arrive") || p->t != PTX_T_B64 ||
        (p->space != PTX_SPACE_SHARED && p->space != PTX_SPACE_NONE))
      return pc->failed ? false : unsupported(pc, NULL);
    if (!need_opds(pc, 1, 1) || !address(pc, p, &in->opds[0], 0))
      return false;
    p->mode = MB_CP_ARRIVE;
    p->combine = has(in, "noinc");
    k->fn = x_mbar;
    return true;
  }
  static const char *const allowed[] = {"async", "ca", "cg", "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B",
                                        NULL};
  bool found[7] = {0};
  uint8_t sp[4];
  if (!mods(pc, p, allowed, found))
    return false;
  if (found[1] == found[2] || p->t || spaces_of(in, sp, 4) != 2 || sp[0] != PTX_SPACE_SHARED ||
      sp[1] != PTX_SPACE_GLOBAL)
    return unsupported(pc, NULL);
  uint32_t nopds = in->nopds - found[3]; /* the cache policy last: a hint */
  if (!need_opds(pc, 3 + found[3], 4 + found[3]))
    return false;
  const PtxOperand *sz = &in->opds[2];
  if (sz->kind != PTX_OPD_INT || (sz->ival != 4 && sz->ival != 8 && sz->ival != 16) || (found[2] && sz->ival != 16))
    return perr(pc, sz->line, sz->col, "the size of cp.async.%s must be %s", found[2] ? "cg" : "ca",
                found[2] ? "16" : "4, 8 or 16");
  p->bytes = (uint32_t)sz->ival;
  p->space = PTX_SPACE_SHARED;
  if (!address(pc, p, &in->opds[0], 0))
    return false;
  p->s[4] = (POpd){.kind = O_IMM, .imm = (uint64_t)p->off};
  p->space = PTX_SPACE_GLOBAL;
  if (!address(pc, p, &in->opds[1], 1))
    return false;
  if (nopds == 4) {
    const PtxOperand *o = &in->opds[3];
    bool pred = o->kind == PTX_OPD_REG && o->decl->type == PTX_T_PRED;
    if (!operand(pc, o, &p->s[pred ? 3 : 2]))
      return false;
  }
  p->ns = 5;
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = x_cp_async;
  return true;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.L2::cache_hint} [d], [s], size,
 * [mbar]{, policy} (clusters are of one block: shared::cluster is the block's own) */
static bool c_cp_bulk(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"async", "bulk", "mbarrier::complete_tx::bytes", "L2::cache_hint", NULL};
  bool found[4] = {0};
  uint8_t sp[4];
  if (!mods(pc, p, allowed, found))
    return false;
  if (!found[2] || p->t || spaces_of(in, sp, 4) != 2 || sp[0] != PTX_SPACE_SHARED || sp[1] != PTX_SPACE_GLOBAL)
    return unsupported(pc, NULL);
  if (!need_opds(pc, 4 + found[3], 4 + found[3]))
    return false;
  p->sync = sync_of(pc);
  p->space = PTX_SPACE_SHARED;
  if (!address(pc, p, &in->opds[3], 3))
    return false;
  p->off2 = p->off;
  if (!address(pc, p, &in->opds[0], 0))
    return false;
  p->s[4] = (POpd){.kind = O_IMM, .imm = (uint64_t)p->off};
  p->space = PTX_SPACE_GLOBAL;
  if (!address(pc, p, &in->opds[1], 1) || !operand(pc, &in->opds[2], &p->s[2]))
    return false;
  p->ns = 5;
  p->memo = kernel_new_memo(&pc->kc, 16);
  k->fn = x_cp_bulk;
  return true;
}

static const char *const mbar_names[] = {"init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx",
                                         "pending_count", "test_wait", "try_wait"};

/* mbarrier.OP{.sem}{.scope}{.shared{::cta}}.b64 (see x_mbar and x_wait for the forms) */
static bool c_mbarrier(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx",
                                        "pending_count", "test_wait", "try_wait", "parity", "noComplete", "release",
                                        "acquire", "relaxed", "cta", "cluster", NULL};
  bool found[16] = {0};
  if (!mods(pc, p, allowed, found))
    return false;
  int op = name_index(mbar_names, 9, in);
  if (op < 0 || p->t != PTX_T_B64 || p->t2 || (p->space != PTX_SPACE_SHARED && p->space != PTX_SPACE_NONE) ||
      (found[9] && op < 7) || (found[10] && op != 2 && op != 3) || (found[4] && op != 2 && op != 3 && op != 4))
    return unsupported(pc, NULL);
  p->sync = sync_of(pc);
  if (op == 6) { /* pending_count.b64 d, state */
    if (!need_opds(pc, 2, 2) || !reg_operand(pc, &in->opds[0], &p->d[0]) || !operand(pc, &in->opds[1], &p->s[1]))
      return false;
    p->nd = 1, p->ns = 2;
    p->mode = MB_PENDING;
    k->fn = x_mbar;
    return true;
  }
  if (op >= 7) { /* test_wait / try_wait{.parity} d, [a], state | parity{, time hint} */
    if (!need_opds(pc, 3, op == 8 ? 4 : 3) || !reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
    if (in->opds[0].decl->type != PTX_T_PRED)
      return perr(pc, in->opds[0].line, in->opds[0].col, "the result of mbarrier.%s must be a predicate",
                  mbar_names[op]);
    if (!address(pc, p, &in->opds[1], 0) || !operand(pc, &in->opds[2], &p->s[1]))
      return false;
    p->nd = 1, p->ns = 2;
    p->mode = found[9] ? SW_MBAR_PARITY : SW_MBAR_STATE;
    k->fn = x_wait;
    add_wait(pc, k);
    return true;
  }
  bool arrive = op == 2 || op == 3;
  uint32_t i = 0;
  if (arrive) { /* arrive{_drop}{.expect_tx}{.noComplete} d | _, [a]{, count | tx count} */
    if (!need_opds(pc, 2, 3))
      return false;
    if (in->opds[0].kind != PTX_OPD_SINK) {
      if (!reg_operand(pc, &in->opds[0], &p->d[0]))
        return false;
      p->nd = 1;
    }
    i = 1;
    p->combine = found[4];
    p->nan = found[10];
    if (p->nan && in->nopds != 3)
      return unsupported(pc, "noComplete without a count");
    if (p->combine && in->nopds != 3)
      return unsupported(pc, "expect_tx without a transaction count");
  } else if (!need_opds(pc, op == 1 ? 1 : 2, op == 1 ? 1 : 2))
    return false;
  if (!address(pc, p, &in->opds[i], 0))
    return false;
  if (i + 1u < in->nopds && !operand(pc, &in->opds[i + 1], &p->s[p->combine ? 2 : 1]))
    return false;
  p->ns = 3;
  p->mode = (uint8_t)(op == 0 ? MB_INIT : op == 1 ? MB_INVAL : op == 2 ? MB_ARRIVE : op == 3 ? MB_DROP
                      : op == 4 ? MB_EXPECT_TX : MB_COMPLETE_TX);
  k->fn = x_mbar;
  return true;
}

/* Whether fn or a function it calls has bar.arrive or barrier.arrive (seen: the functions looked
 * at, *nseen of 256). */
static bool calls_bar_arrive(const PtxModule *m, const PtxFunc *fn, const PtxFunc **seen, uint32_t *nseen) {
  for (uint32_t i = 0; i < *nseen; i++)
    if (seen[i] == fn)
      return false;
  if (*nseen == 256)
    return false;
  seen[(*nseen)++] = fn;
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    const PtxStmt *s = &fn->stmts[i];
    if (s->kind != PTX_STMT_INSN)
      continue;
    if ((s->insn.op == PTX_OP_BAR || s->insn.op == PTX_OP_BARRIER) && ptx_insn_has_mod(&s->insn, "arrive"))
      return true;
    for (uint32_t j = 0; s->insn.op == PTX_OP_CALL && j < s->insn.nopds; j++) {
      const PtxFunc *g = s->insn.opds[j].kind == PTX_OPD_SYM ? ptx_module_func(m, s->insn.opds[j].name) : NULL;
      if (g && g->defined && calls_bar_arrive(m, g, seen, nseen))
        return true;
    }
  }
  return false;
}

/* Whether the kernel has bar.arrive (or barrier.arrive, in it or a function it calls): then its
 * barriers count arrivals (c_nbar). */
static bool module_bar_arrive(PComp *pc) {
  if (!pc->bar_arrive) {
    const PtxFunc *seen[256];
    uint32_t nseen = 0;
    pc->bar_arrive = calls_bar_arrive(pc->m, pc->fn, seen, &nseen) ? 1 : 2;
  }
  return pc->bar_arrive == 1;
}

/* bar.arrive a, b / bar.sync a[, b] (and barrier.*) in a module that uses bar.arrive: named barriers
 * that count arrivals (x_nbar_arrive, x_nbar_sync). */
static bool c_nbar(PComp *pc, KIns *k, PIns *p, bool arrive) {
  const PtxInsn *in = pc->insn;
  if (has(in, "red"))
    return unsupported(pc, "bar.red in a module that uses bar.arrive");
  if (!need_opds(pc, arrive ? 2 : 1, 2))
    return false;
  p->ns = (uint8_t)in->nopds;
  for (uint32_t i = 0; i < in->nopds; i++)
    if (!operand(pc, &in->opds[i], &p->s[i]))
      return false;
  p->sync = sync_of(pc);
  if (arrive) {
    k->fn = x_nbar_arrive;
    return true;
  }
  p->mode = SW_NBAR;
  k->fn = x_nbar_sync;
  add_wait(pc, k);
  return true;
}

/* ---- calls ----------------------------------------------------------------------------------- */

static uint64_t priv_word(const KFrame *f, uint32_t l, size_t off, unsigned bytes) {
  uint64_t v = 0;
  memcpy(&v, f->priv + l * f->priv_stride + off, bytes);
  return v;
}

static const PIns generic_access; /* an access of a generic address (access_ok) */

/* Thread l reads bytes of memory at a generic address for vprintf or __assertfail: checked as its
 * loads are. False after the error. */
static bool read_mem(KFrame *f, const KIns *k, uint32_t l, uint64_t a, void *dst, uint32_t bytes) {
  char *q = (char *)(uintptr_t)a;
  int where;
  if (!access_ok(f, k, &generic_access, l, q, bytes, false, &where))
    return false;
  memcpy(dst, q, bytes);
  return true;
}

#define STR_MAX 4096

/* A NUL-terminated string of thread l at a (at most STR_MAX bytes, NUL included) into s. */
static bool read_str(KFrame *f, const KIns *k, uint32_t l, uint64_t a, char *s) {
  for (uint32_t i = 0; i < STR_MAX; i++) {
    if (!read_mem(f, k, l, a + i, s + i, 1))
      return false;
    if (!s[i])
      return true;
  }
  kernel_error(f, k, l, "a string of more than %d bytes", STR_MAX - 1);
  return false;
}

static bool vprintf_one(KFrame *f, const KIns *k, uint32_t l, uint64_t fmt, uint64_t args, KBuf *out,
                        uint32_t *nargs) {
  char *text = malloc(2 * STR_MAX);
  if (!text)
    return kernel_error(f, k, l, "out of memory"), false;
  char *str = text + STR_MAX;
  bool ok = read_str(f, k, l, fmt, text);
  const char *s = text, *end = text + (ok ? strlen(text) : 0);
  uint64_t off = 0;
  *nargs = 0;
  while (ok && s < end) {
    const char *pct = strchr(s, '%');
    if (!pct) {
      kernel_buf_add(out, s, (size_t)(end - s));
      break;
    }
    kernel_buf_add(out, s, (size_t)(pct - s));
    const char *q = pct + 1;
    if (*q == '%') {
      kernel_buf_add(out, "%", 1);
      s = q + 1;
      continue;
    }
    char spec[48];
    size_t n = 0;
    spec[n++] = '%';
    while (*q && strchr("-+ #0", *q) && n < 20)
      spec[n++] = *q++;
    while (*q && ((*q >= '0' && *q <= '9') || *q == '.') && n < 40)
      spec[n++] = *q++;
    unsigned size = 4, half = 0; /* half: 1 for h, 2 for hh */
    while (*q && strchr("hlLzjt", *q)) {
      if (*q == 'h')
        half++;
      else if (*q != 'L')
        size = 8;
      q++;
    }
    char conv = *q;
    if (!conv || !strchr("diuxXocfFeEgGaAps", conv)) { /* not a conversion: printed as written */
      kernel_buf_add(out, pct, (size_t)(q - pct) + (conv != 0));
      s = q + (conv != 0);
      continue;
    }
    s = q + 1;
    if (strchr("fFeEgGaAps", conv))
      size = 8;
    off = (off + size - 1) / size * size;
    uint64_t v = 0;
    if (!read_mem(f, k, l, args + off, &v, size)) {
      ok = false;
      break;
    }
    off += size;
    ++*nargs;
    char tmp[160];
    int len = 0;
    switch (conv) {
    case 'd': case 'i': {
      int64_t x = size == 8 ? (int64_t)v : (int64_t)(int32_t)v;
      x = half == 1 ? (int16_t)x : half > 1 ? (int8_t)x : x;
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (long long)x);
      break;
    }
    case 'u': case 'x': case 'X': case 'o': {
      uint64_t x = half == 1 ? (uint16_t)v : half > 1 ? (uint8_t)v : v;
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (unsigned long long)x);
      break;
    }
    case 'c':
      spec[n++] = 'c', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (int)(uint8_t)v);
      break;
    case 'p':
      spec[n++] = 'p', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (void *)(uintptr_t)v);
      break;
    case 's':
      if (v && !read_str(f, k, l, v, str)) {
        ok = false;
        break;
      }
      spec[n++] = 's', spec[n] = 0;
      {
        int m = snprintf(NULL, 0, spec, v ? str : "(null)");
        char *w = m >= 0 ? malloc((size_t)m + 1) : NULL;
        if (w) {
          snprintf(w, (size_t)m + 1, spec, v ? str : "(null)");
          kernel_buf_add(out, w, (size_t)m);
          free(w);
        }
      }
      break;
    default: {
      double x;
      memcpy(&x, &v, 8);
      spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, x);
      break;
    }
    }
    if (len > 0)
      kernel_buf_add(out, tmp, (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1);
  }
  free(text);
  return ok;
}

/* call (r), vprintf, (fmt, args): each active thread's line, in thread order, written at once
 * (kernel_print, as gpu.printf's); r gets the number of arguments the format took. */
static int x_vprintf(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PCall *c = p->call;
  KBuf b = {0};
  int r = EX_NEXT;
  for (uint32_t i = 0; i < f->nact && r == EX_NEXT; i++) {
    uint32_t l = f->act[i], nargs;
    if (!vprintf_one(f, k, l, priv_word(f, l, c->arg_off[0], 8), priv_word(f, l, c->arg_off[1], 8), &b, &nargs))
      r = EX_ERROR;
    else if (c->has_ret)
      memcpy(f->priv + l * f->priv_stride + c->ret_off, &nargs, 4);
  }
  if (r == EX_NEXT && b.n)
    kernel_print(f, b.s, b.n);
  free(b.s);
  return r;
}

/* __assertfail's strings (message, file, function: STR_MAX bytes each from s) and line for lane l */
static bool assert_args(KFrame *f, const KIns *k, const PCall *c, uint32_t l, char *s, unsigned *line) {
  *line = (unsigned)priv_word(f, l, c->arg_off[2], 4);
  return read_str(f, k, l, priv_word(f, l, c->arg_off[0], 8), s) &&
         read_str(f, k, l, priv_word(f, l, c->arg_off[1], 8), s + STR_MAX) &&
         read_str(f, k, l, priv_word(f, l, c->arg_off[3], 8), s + 2 * STR_MAX);
}

/* call __assertfail, (message, file, line, function, charsize): every active thread prints the
 * line CUDA's device runtime prints, in thread order, as device output; the first one's failed
 * assertion is the launch's error */
static int x_assertfail(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PCall *c = p->call;
  char *s = malloc(3 * STR_MAX), *out = malloc(STR_MAX);
  unsigned line;
  if (!s || !out) {
    free(s);
    free(out);
    return kernel_error(f, k, f->act[0], "assertion failed");
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], t, bid[3];
    if (!assert_args(f, k, c, l, s, &line)) {
      free(s);
      free(out);
      return EX_ERROR;
    }
    kernel_lane_block(f, l, &t, bid);
    int n = snprintf(out, STR_MAX,
                     "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", s + STR_MAX,
                     line, s + 2 * STR_MAX, bid[0], bid[1], bid[2], t % f->bdim[0], t / f->bdim[0] % f->bdim[1],
                     t / (f->bdim[0] * f->bdim[1]), s);
    kernel_print(f, out, n < 0 ? 0 : n >= STR_MAX ? STR_MAX - 1 : (size_t)n);
  }
  if (assert_args(f, k, c, f->act[0], s, &line))
    kernel_error(f, k, f->act[0], "assertion failed: %s (%s:%u, in %s)", s, s + STR_MAX, line, s + 2 * STR_MAX);
  free(s);
  free(out);
  return EX_ERROR;
}

/* The threads' private memory, zeroed where a kernel that calls vprintf starts: mlir-opt's lowering of
 * gpu.printf packs an i8 argument in one byte of the buffer, where vprintf reads an int's four. */
static int x_zero_private(KFrame *f, const KIns *k) {
  (void)k;
  KLANES(f, l, { memset(f->priv + l * f->priv_stride, 0, f->priv_stride); });
  return EX_NEXT;
}

static int x_too_deep(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  return kernel_error(f, k, f->act[0], "the call of '%s' nests calls %u deep: the PTX kernel engine inlines calls "
                      "%d deep at most", p->call->name, p->call->depth, CALL_DEPTH);
}

static bool emit_body(PComp *pc, PInst *in);

/* The body of callee's function from the current block on (its layout's registers, its
 * parameters at callee's offsets), then a new current block where its ret goes. */
static bool inline_callee(PComp *pc, PInst *callee) {
  PInst *caller = pc->inst;
  uint32_t reg0 = pc->reg0, *vecword = pc->vecword;
  pc->inst = callee;
  pc->reg0 = callee->lay->reg0;
  pc->vecword = callee->lay->vecword;
  bool ok = emit_body(pc, callee);
  pc->inst = caller;
  pc->reg0 = reg0;
  pc->vecword = vecword;
  pc->nbinds = callee->bind0;
  if (!ok)
    return false;
  callee->lblk[callee->fn->nlabels] = new_block(pc);
  start_block(pc, callee->lblk[callee->fn->nlabels]);
  resolve_fixes(pc, callee);
  return true;
}
static bool c_ptx_icall(PComp *pc, KIns *k, PIns *p, const PtxOperand *rets, uint32_t ri, bool *inlined);

/* The caller's .param variables a call names, as offsets; false after a diagnostic. */
static bool call_vars(PComp *pc, const PtxOperand *list, size_t *off) {
  for (uint32_t i = 0; list && i < list->n; i++) {
    const PtxOperand *o = &list->elems[i];
    if (o->kind != PTX_OPD_SYM || !body_var(pc, o->name, false, &off[i]))
      return perr(pc, o->line, o->col, "a call argument other than a .param variable is not supported by the PTX "
                  "kernel engine yet");
  }
  return true;
}

/* An indirect call's targets: the module's defined device functions with its prototype's
 * parameters and returns (their sizes) whose address the module takes, each inlined after the
 * call (entry[i] its first block), all going on at block `after`. */
typedef struct PICall {
  uint32_t n, after;
  uint64_t *addr;
  uint32_t *entry;
  const char *proto;
} PICall;

/* call through a register: each thread to the inlined copy of the function at its address; an
 * address of no target is an error; under a guard, threads whose guard fails go on after. */
static int x_icall(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PICall *c = p->icall;
  uint32_t one = UINT32_MAX;
  bool same = true;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], to = c->after;
    if (!p->guard.kind || (rd(f, &p->guard, l) & 1)) {
      uint64_t a = rd(f, &p->s[0], l);
      uint32_t j = 0;
      while (j < c->n && c->addr[j] != a)
        j++;
      if (j == c->n)
        return kernel_error(f, k, l, "an indirect call of %#llx, which is not the address of a device function of "
                            "the module with prototype '%s'", (unsigned long long)a, c->proto);
      to = c->entry[j];
    }
    f->pc[l] = to;
    same &= one == UINT32_MAX || one == to;
    one = to;
  }
  f->pc_one = one;
  f->pc_n = same ? f->nact : 0;
  return EX_DONE;
}

/* Whether the module takes the address of function `name` (an initializer, or an operand other
 * than a call's callee). */
static bool address_taken(const PtxModule *m, const char *name) {
  for (uint32_t d = 0; d < m->ndecls; d++) {
    if (m->decls[d].kind == PTX_DECL_VAR) {
      const PtxVar *v = m->decls[d].var;
      for (uint32_t e = 0; e < v->ninit; e++)
        if ((v->init[e].kind == PTX_INIT_SYM || v->init[e].kind == PTX_INIT_GENERIC) && !strcmp(v->init[e].name, name))
          return true;
      continue;
    }
    const PtxFunc *fn = m->decls[d].func;
    for (uint32_t i = 0; i < fn->nstmts; i++) {
      const PtxInsn *in = fn->stmts[i].kind == PTX_STMT_INSN ? &fn->stmts[i].insn : NULL;
      for (uint32_t j = 0; in && j < in->nopds; j++)
        if (in->opds[j].kind == PTX_OPD_SYM && !strcmp(in->opds[j].name, name) &&
            !(in->op == PTX_OP_CALL && (j == 0 || in->opds[j - 1].kind == PTX_OPD_LIST) &&
              (j == 0 || j == 1)))
          return true;
    }
  }
  return false;
}

static uint64_t param_bytes(const PtxVar *v) {
  uint64_t b = ptx_type_bits((PtxType)v->type) / 8 * (v->vec ? v->vec : 1);
  for (uint32_t d = 0; d < v->ndims; d++)
    b *= v->dims[d] ? v->dims[d] : 1;
  return b;
}

static bool same_sig(const PtxSig *a, const PtxSig *b) {
  if (a->nparams != b->nparams || a->nrets != b->nrets)
    return false;
  for (uint32_t i = 0; i < a->nparams; i++)
    if (param_bytes(&a->params[i]) != param_bytes(&b->params[i]))
      return false;
  for (uint32_t i = 0; i < a->nrets; i++)
    if (param_bytes(&a->rets[i]) != param_bytes(&b->rets[i]))
      return false;
  return true;
}

/* call[.uni] [(rets),] %r, [(args),] proto: the register opds[ri], the prototype last (a
 * .callprototype of the calling function's body). */
static bool c_ptx_icall(PComp *pc, KIns *k, PIns *p, const PtxOperand *rets, uint32_t ri, bool *inlined) {
  const PtxInsn *in = pc->insn;
  IrCtx *ctx = pc->h->ctx;
  const PtxOperand *args = ri + 1 < in->nopds && in->opds[ri + 1].kind == PTX_OPD_LIST ? &in->opds[ri + 1] : NULL;
  uint32_t pi = ri + 1 + (args != NULL);
  if (pi + 1 != in->nopds || in->opds[pi].kind != PTX_OPD_SYM)
    return unsupported(pc, "an indirect call without a .callprototype");
  const PtxOperand *po = &in->opds[pi];
  const PtxProto *proto = NULL;
  for (uint32_t i = 0; i < pc->inst->fn->nstmts && !proto; i++)
    if (pc->inst->fn->stmts[i].kind == PTX_STMT_PROTO && !strcmp(pc->inst->fn->stmts[i].proto->name, po->name))
      proto = pc->inst->fn->stmts[i].proto;
  if (!proto)
    return perr(pc, po->line, po->col, "'%s' is not a .callprototype of the function", po->name);
  uint32_t nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
  if (nargs != proto->sig.nparams || nrets != proto->sig.nrets)
    return perr(pc, in->line, in->col, "the call passes %u argument%s and %u return%s for its prototype's %u and %u",
                nargs, nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s", proto->sig.nparams, proto->sig.nrets);
  size_t *arg_off = ir_alloc(ctx, (nargs + 1) * sizeof *arg_off), *ret_off = ir_alloc(ctx, (nrets + 1) * sizeof *ret_off);
  if (!call_vars(pc, args, arg_off) || !call_vars(pc, rets, ret_off) || !reg_operand(pc, &in->opds[ri], &p->s[0]))
    return false;
  p->ns = 1;
  PICall *c = ir_alloc(ctx, sizeof *c);
  c->proto = ir_intern_cstr(ctx, po->name).s;
  c->addr = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *c->addr);
  c->entry = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *c->entry);
  uint32_t **joins = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *joins);
  p->icall = c;
  k->fn = x_icall;
  pc->closed = true;
  uint32_t depth = pc->inst->depth + 1;
  for (uint32_t d = 0; d < pc->m->ndecls; d++) {
    const PtxFunc *fn = pc->m->decls[d].kind == PTX_DECL_FUNC ? pc->m->decls[d].func : NULL;
    if (!fn || fn->entry || !fn->defined || !same_sig(&fn->sig, &proto->sig) || !address_taken(pc->m, fn->name))
      continue;
    if (depth > CALL_DEPTH)
      return perr(pc, in->line, in->col, "an indirect call nested %u calls deep: the PTX kernel engine inlines calls "
                  "%d deep at most", depth, CALL_DEPTH);
    uint32_t level = 0;
    for (const PInst *u = pc->inst; u; u = u->up)
      level += u->fn == fn;
    const PLayout *lay = layout_of(pc, fn, level);
    if (!lay)
      return false;
    func_addr(pc->m, fn->name, &c->addr[c->n]);
    PInst callee_in = {.fn = fn, .lay = lay, .arg_off = arg_off, .ret_off = ret_off, .bind0 = pc->nbinds,
                       .fix0 = pc->nfix, .depth = depth, .up = pc->inst};
    callee_in.lblk = ir_alloc(ctx, (fn->nlabels + 1) * sizeof *callee_in.lblk);
    c->entry[c->n] = new_block(pc);
    start_block(pc, c->entry[c->n]);
    if (!inline_callee(pc, &callee_in)) /* its ret: on to the block after every target */
      return false;
    add_jump(pc, 0, 0);
    joins[c->n++] = &((PIns *)pc->bl[pc->cur].ins[pc->bl[pc->cur].n - 1].aux)->target;
    pc->closed = true;
  }
  c->after = new_block(pc);
  start_block(pc, c->after);
  for (uint32_t i = 0; i < c->n; i++)
    *joins[i] = c->after;
  *inlined = true;
  return true;
}

/* call[.uni] [(rets),] fn[, (args)]: a device function inlined here (see PLayout), or vprintf,
 * __assertfail, a call nested too deeply as an instruction of their own in k. *inlined: whether
 * the callee's blocks were made (then the caller goes on in the block after them). */
static bool c_ptx_call(PComp *pc, KIns *k, PIns *p, bool *inlined) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"uni", NULL};
  *inlined = false;
  if (!mods(pc, p, allowed, NULL))
    return false;
  const PtxOperand *rets = NULL, *args = NULL, *callee = NULL;
  uint32_t i = 0;
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_LIST)
    rets = &in->opds[i++];
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_REG)
    return c_ptx_icall(pc, k, p, rets, i, inlined);
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_SYM)
    callee = &in->opds[i++];
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_LIST)
    args = &in->opds[i++];
  if (!callee || i != in->nopds)
    return unsupported(pc, "an indirect call");
  const PtxFunc *fn = ptx_module_func(pc->m, callee->name);
  if (!fn || fn->entry)
    return perr(pc, callee->line, callee->col, "'%s' is not a device function (.func) of the module", callee->name);
  uint32_t nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
  if (nargs != fn->sig.nparams || nrets != fn->sig.nrets)
    return perr(pc, in->line, in->col, "the call of '%s' passes %u argument%s and %u return%s for its %u parameter%s "
                "and %u return%s", fn->name, nargs, nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s",
                fn->sig.nparams, fn->sig.nparams == 1 ? "" : "s", fn->sig.nrets, fn->sig.nrets == 1 ? "" : "s");
  IrCtx *ctx = pc->h->ctx;
  size_t *arg_off = ir_alloc(ctx, (nargs + 1) * sizeof *arg_off), *ret_off = ir_alloc(ctx, (nrets + 1) * sizeof *ret_off);
  if (!call_vars(pc, args, arg_off) || !call_vars(pc, rets, ret_off))
    return false;
  bool printf_ = !strcmp(fn->name, "vprintf"), assert_ = !strcmp(fn->name, "__assertfail");
  if (!fn->defined && !printf_ && !assert_)
    return perr(pc, callee->line, callee->col, "a call of the external function '%s' is not supported by the PTX "
                "kernel engine yet (it runs vprintf and __assertfail)", fn->name);
  uint32_t depth = pc->inst->depth + 1;
  if (!fn->defined || depth > CALL_DEPTH) {
    if (!fn->defined && (nargs != (printf_ ? 2u : 5u) || nrets > (printf_ ? 1u : 0u)))
      return perr(pc, in->line, in->col, "'%s' is declared with other parameters than CUDA's", fn->name);
    PCall *c = ir_alloc(ctx, sizeof *c);
    c->name = ir_intern_cstr(ctx, fn->name).s; /* the module dies after compiling */
    c->nargs = nargs;
    c->depth = depth;
    memcpy(c->arg_off, arg_off, (nargs < 5 ? nargs : 5) * sizeof *arg_off);
    c->has_ret = nrets > 0;
    c->ret_off = nrets ? ret_off[0] : 0;
    p->call = c;
    k->fn = !fn->defined ? (printf_ ? x_vprintf : x_assertfail) : x_too_deep;
    pc->zero_private |= printf_;
    return true;
  }
  uint32_t level = 0;
  for (const PInst *u = pc->inst; u; u = u->up)
    level += u->fn == fn;
  const PLayout *lay = layout_of(pc, fn, level);
  if (!lay)
    return false;
  /* the call's branch: to the callee's first block, or (guarded) there for the threads whose
     guard holds and to the block after the callee for the others */
  PInst callee_in = {.fn = fn, .lay = lay, .arg_off = arg_off, .ret_off = ret_off, .bind0 = pc->nbinds,
                     .fix0 = pc->nfix, .depth = depth, .up = pc->inst};
  callee_in.lblk = ir_alloc(ctx, (fn->nlabels + 1) * sizeof *callee_in.lblk);
  k->fn = in->has_guard ? x_cond_bra : x_bra;
  if (in->has_guard)
    add_fix(pc, &p->next, fn->nlabels);
  pc->closed = true;
  p->target = new_block(pc);
  start_block(pc, p->target);
  *inlined = true;
  return inline_callee(pc, &callee_in);
}

/* The statements of in's function into blocks from the current one on; at its end the threads go
 * where its ret goes. */
static bool emit_body(PComp *pc, PInst *in) {
  IrCtx *ctx = pc->h->ctx;
  const PtxFunc *fn = in->fn;
  uint32_t marks[64], nmarks = 0; /* the bindings at each open scope */
  for (uint32_t i = 0; i < fn->nstmts && !pc->failed; i++) {
    const PtxStmt *s = &fn->stmts[i];
    if (s->kind == PTX_STMT_OPEN) {
      if (nmarks == 64)
        return perr(pc, fn->line, fn->col, "scopes nested more than 64 deep are not supported by the PTX kernel "
                    "engine");
      marks[nmarks++] = pc->nbinds;
      continue;
    }
    if (s->kind == PTX_STMT_CLOSE) {
      if (nmarks)
        pc->nbinds = marks[--nmarks];
      continue;
    }
    if (s->kind == PTX_STMT_VAR && (s->var->space == PTX_SPACE_LOCAL || s->var->space == PTX_SPACE_PARAM)) {
      if (pc->nbinds == pc->capbinds) {
        uint32_t cap = pc->capbinds ? 2 * pc->capbinds : 32;
        PBind *b = realloc(pc->binds, cap * sizeof *b);
        if (!b)
          abort();
        pc->binds = b;
        pc->capbinds = cap;
      }
      pc->binds[pc->nbinds++] = (PBind){s->var->name, in->lay->voff[i], s->var->space == PTX_SPACE_LOCAL};
      continue;
    }
    if (s->kind == PTX_STMT_LABEL) { /* a block of its own, unless the current one is still empty (not
                                        the kernel's first: x_zero_private may go there) */
      if (pc->bl[pc->cur].n || pc->cur == 0) {
        in->lblk[s->label] = new_block(pc);
        start_block(pc, in->lblk[s->label]);
      } else
        in->lblk[s->label] = pc->cur;
      continue;
    }
    if (s->kind != PTX_STMT_INSN)
      continue;
    const PtxInsn *insn = &s->insn;
    pc->insn = insn;
    if (++pc->ninsns > INLINE_MAX)
      return perr(pc, insn->line, insn->col, "the kernel with its calls inlined has more than %u instructions, more "
                  "than the PTX kernel engine compiles", INLINE_MAX);
    char name[160];
    insn_name(insn, name, sizeof name);
    KIns *ki = block_add(&pc->bl[pc->cur]);
    PIns *p = ir_alloc(ctx, sizeof *p);
    ki->op = ir_op_new(ctx, name, ptx_loc(pc, insn->line, insn->col), NULL, 0, NULL, 0, NULL, 0);
    ir_block_push_back(pc->iblk, ki->op);
    ki->loc = kernel_loc(pc->h, ki->op);
    ki->aux = p;
    if (insn->has_guard && !reg_operand(pc, &insn->guard, &p->guard))
      return false;
    if (is_term(insn)) {
      static const char *const allowed[] = {"uni", NULL};
      if (!mods(pc, p, allowed, NULL) || !need_opds(pc, insn->op == PTX_OP_BRA ? 1 : 0, insn->op == PTX_OP_BRA ? 1 : 0))
        return false;
      if (insn->op == PTX_OP_BRA && insn->opds[0].kind != PTX_OPD_LABEL)
        return unsupported(pc, "a branch to other than a label");
      if (insn->op == PTX_OP_EXIT)
        p->target = EXIT_PC;
      else
        add_fix(pc, &p->target, insn->op == PTX_OP_BRA ? insn->opds[0].label : fn->nlabels);
      ki->fn = insn->has_guard ? x_cond_bra : x_bra;
      pc->closed = true;
      p->next = new_block(pc);
      start_block(pc, p->next);
      continue;
    }
    if (insn->op == PTX_OP_CALL) {
      bool inlined;
      if (!c_ptx_call(pc, ki, p, &inlined))
        return false;
      if (inlined)
        continue;
    } else if (!c_insn(pc, ki->op, ki, p))
      return false;
    if (pc->ends_block) { /* a wait: it takes its guard and sends its threads on itself */
      pc->ends_block = false;
      pc->closed = true;
      p->next = new_block(pc);
      start_block(pc, p->next);
      continue;
    }
    if (insn->has_guard) {
      p->run = ki->fn;
      ki->fn = x_guard;
    }
  }
  if (pc->failed)
    return false;
  if (!pc->closed) { /* the end of the body: a ret */
    add_jump(pc, UINT32_MAX, fn->nlabels);
    pc->closed = true;
  }
  return true;
}

/* ---- the order blocks run in -------------------------------------------------------------------
 * The engine runs the lowest block any thread waits for (run_cfg), which reconverges diverged
 * threads where they meet only if a block comes after every block that leads to it other than
 * through a loop's back edge. The PTX's own layout need not be so: LLVM places a loop's latch
 * (with the loop's bar.sync) before the header that branches around an if to it, and the threads
 * that skip the if would reach the bar.sync before the others. So the blocks are renumbered in a
 * topological order of the edges a depth-first search from the entry does not find closing a
 * loop (every such edge goes to a later block), the earliest in the layout first of those whose
 * predecessors all came: blocks no edge orders keep their layout's order (a loop's exit, after its
 * body); blocks no path reaches follow. A block with an unguarded trap or __assertfail leads
 * nowhere (its threads end the launch there). */
static uint32_t block_succs(const PComp *pc, uint32_t b, uint32_t *out, uint32_t cap) {
  const PBlock *bl = &pc->bl[b];
  if (!bl->n)
    return 0;
  for (uint32_t i = 0; i < bl->n; i++)
    if (bl->ins[i].fn == x_assertfail || bl->ins[i].fn == x_trap)
      return 0; /* its threads never go on: it orders nothing */
  const KIns *k = &bl->ins[bl->n - 1];
  const PIns *p = k->aux;
  uint32_t n = 0;
  if (k->fn == x_bra || k->fn == x_cond_bra || k->fn == x_wait || k->fn == x_nbar_sync) {
    if (k->fn != x_wait && k->fn != x_nbar_sync && p->target < pc->nb && n < cap)
      out[n++] = p->target;
    if (k->fn != x_bra && p->next < pc->nb && n < cap)
      out[n++] = p->next;
  } else if (k->fn == x_icall) {
    for (uint32_t i = 0; i < p->icall->n && n < cap; i++)
      out[n++] = p->icall->entry[i];
    if (n < cap)
      out[n++] = p->icall->after;
  }
  return n;
}

static void remap(uint32_t *b, const uint32_t *to, uint32_t nb) {
  if (*b < nb)
    *b = to[*b];
}

/* A min-heap of block numbers (their layout's order). */
static void heap_push(uint32_t *h, uint32_t *n, uint32_t v) {
  uint32_t i = (*n)++;
  for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n) {
  uint32_t top = h[0], v = h[--*n], i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= *n)
      break;
    if (c + 1 < *n && h[c + 1] < h[c])
      c++;
    if (h[c] >= v)
      break;
    h[i] = h[c];
    i = c;
  }
  if (*n)
    h[i] = v;
  return top;
}

static void reorder_blocks(PComp *pc) {
  uint32_t nb = pc->nb, total = 0;
  uint32_t *first = malloc((nb + 1) * sizeof *first);
  if (!first)
    abort();
  for (uint32_t b = 0; b < nb; b++) { /* the successors, b's at succ[first[b] .. first[b + 1]) */
    const PBlock *bl = &pc->bl[b];
    const PIns *p = bl->n ? bl->ins[bl->n - 1].aux : NULL;
    first[b] = total;
    total += bl->n && bl->ins[bl->n - 1].fn == x_icall ? p->icall->n + 1 : 2;
  }
  first[nb] = total;
  uint32_t *succ = malloc((total + 1) * sizeof *succ), *nsucc = calloc(nb + 1, sizeof *nsucc);
  uint8_t *back = calloc(total + 1, 1), *state = calloc(nb + 1, 1); /* state: 1 on the search's path, 2 done */
  uint32_t *stk = malloc((nb + 1) * sizeof *stk), *pos = calloc(nb + 1, sizeof *pos);
  uint32_t *indeg = calloc(nb + 1, sizeof *indeg), *heap = malloc((nb + 1) * sizeof *heap);
  uint32_t *order = malloc((nb + 1) * sizeof *order), *to = malloc((nb + 1) * sizeof *to);
  if (!succ || !nsucc || !back || !state || !stk || !pos || !indeg || !heap || !order || !to)
    abort();
  for (uint32_t b = 0; b < nb; b++)
    nsucc[b] = block_succs(pc, b, succ + first[b], first[b + 1] - first[b]);
  /* a depth-first search from the entry: the edges back to a block on its path close loops */
  uint32_t top = 0;
  stk[top++] = 0;
  state[0] = 1;
  while (top) {
    uint32_t b = stk[top - 1];
    if (pos[b] == nsucc[b]) {
      state[b] = 2;
      top--;
      continue;
    }
    uint32_t e = first[b] + pos[b]++, c = succ[e];
    if (state[c] == 1)
      back[e] = 1;
    else if (!state[c]) {
      state[c] = 1;
      stk[top++] = c;
    }
  }
  /* the other edges in order: of the blocks all of whose predecessors came, the earliest in the
     layout first */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t e = first[b]; state[b] && e < first[b] + nsucc[b]; e++)
      indeg[succ[e]] += !back[e];
  uint32_t nh = 0, n = 0;
  heap_push(heap, &nh, 0);
  while (nh) {
    uint32_t b = heap_pop(heap, &nh);
    order[n++] = b;
    for (uint32_t e = first[b]; e < first[b] + nsucc[b]; e++)
      if (!back[e] && !--indeg[succ[e]])
        heap_push(heap, &nh, succ[e]);
  }
  for (uint32_t b = 0; b < nb; b++)
    if (!state[b])
      order[n++] = b;
  for (uint32_t i = 0; i < nb; i++)
    to[order[i]] = i;
  PBlock *nbl = malloc((size_t)pc->capb * sizeof *nbl);
  if (!nbl)
    abort();
  for (uint32_t i = 0; i < nb; i++)
    nbl[i] = pc->bl[order[i]];
  free(pc->bl);
  pc->bl = nbl;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < pc->bl[b].n; i++) {
      KIns *k = &pc->bl[b].ins[i];
      PIns *p = k->aux;
      if (k->fn == x_bra || k->fn == x_cond_bra || k->fn == x_wait || k->fn == x_nbar_sync) {
        remap(&p->target, to, nb);
        remap(&p->next, to, nb);
      } else if (k->fn == x_icall) {
        for (uint32_t j = 0; j < p->icall->n; j++)
          remap(&p->icall->entry[j], to, nb);
        remap(&p->icall->after, to, nb);
      }
    }
  free(first), free(succ), free(nsucc), free(back), free(state), free(stk), free(pos);
  free(indeg), free(heap), free(order), free(to);
}

static Kernel *compile(PComp *pc) {
  KHost *h = pc->h;
  IrCtx *ctx = h->ctx;
  const PtxFunc *fn = pc->fn;
  /* the kernel's op holds one op per instruction, so that reports that name an access's site
     (kernel_race.c) find its instruction */
  Op *kop = ir_op_new(ctx, fn->name, ptx_loc(pc, fn->line, fn->col), NULL, 0, NULL, 0, NULL, 1);
  Block *iblk = ir_alloc(ctx, sizeof *iblk);
  iblk->parent = &kop->regions[0];
  kop->regions[0].first = kop->regions[0].last = iblk;
  Kernel *k = kernel_new_front(h, kop);
  pc->kc = (KComp){.in = h, .k = k};
  pc->iblk = iblk;
  /* parameters: one uniform word each */
  uint32_t np = fn->sig.nparams;
  pc->param_word = ir_alloc(ctx, (np + 1) * sizeof *pc->param_word);
  PInfo *info = ir_alloc(ctx, sizeof *info);
  info->nparams = np;
  info->ptype = ir_alloc(ctx, np + 1);
  info->pword = pc->param_word;
  info->bufname = pc->bufname;
  info->line = fn->line;
  info->col = fn->col;
  for (uint32_t i = 0; i < np; i++) {
    const PtxVar *v = &fn->sig.params[i];
    unsigned bits = ptx_type_bits((PtxType)v->type) * (v->vec ? v->vec : 1);
    for (uint32_t d = 0; d < v->ndims; d++)
      bits *= (unsigned)v->dims[d];
    if (bits > 64 || v->ndims || v->vec)
      return perr(pc, v->line, v->col, "parameter '%s': parameters of more than 8 bytes are not supported by the PTX "
                  "kernel engine yet", v->name), NULL;
    pc->param_word[i] = kernel_new_uniform(&pc->kc, 1);
    info->ptype[i] = v->type;
  }
  *kernel_llvm_ext(k) = info;
  if (!shared_vars(pc))
    return NULL;
  const PLayout *lay = layout_of(pc, fn, 0);
  if (!lay)
    return NULL;
  pc->reg0 = lay->reg0;
  pc->vecword = lay->vecword;
  PInst entry = {.fn = fn, .lay = lay};
  entry.lblk = ir_alloc(ctx, (fn->nlabels + 1) * sizeof *entry.lblk);
  entry.lblk[fn->nlabels] = EXIT_PC; /* the kernel's ret ends the thread */
  pc->inst = &entry;
  pc->cur = new_block(pc);
  bool ok = emit_body(pc, &entry);
  Kernel *out = NULL;
  if (ok && !pc->failed) {
    resolve_fixes(pc, &entry);
    new_block(pc); /* an empty last block: where the threads leave */
    reorder_blocks(pc);
    if (pc->sync)
      sync_finish(pc);
    if (pc->zero_private) { /* first of all */
      PBlock *b0 = &pc->bl[0];
      block_add(b0);
      memmove(b0->ins + 1, b0->ins, (b0->n - 1) * sizeof *b0->ins);
      memset(b0->ins, 0, sizeof *b0->ins);
      b0->ins[0].fn = x_zero_private;
      b0->ins[0].op = b0->ins[1].op;
      b0->ins[0].loc = b0->ins[1].loc;
    }
    uint32_t nb = pc->nb;
    uniform_regs(pc, pc->bl, nb, pc->fn->nregs + 1);
    affine_regs(pc, pc->bl, nb, pc->fn->nregs + 1);
    load_groups(pc, pc->bl, nb);
    invariant_uni(pc, &pc->bl[0], kernel_new_uniform(&pc->kc, 0)); /* the words so far */
    group_uni_once(pc, &pc->bl[0]);
    uop_ins(pc, &pc->bl[0]);
    once_affs(pc, pc->bl, nb);
    KBody body = {ir_alloc(ctx, nb * sizeof(KBlock)), nb, true}; /* x_bra, x_cond_bra, x_bra_over */
    for (uint32_t i = 0; i < nb; i++) {
      body.blocks[i].n = pc->bl[i].n;
      body.blocks[i].ins = ir_alloc(ctx, (pc->bl[i].n + 1) * sizeof(KIns));
      if (pc->bl[i].n)
        memcpy(body.blocks[i].ins, pc->bl[i].ins, pc->bl[i].n * sizeof(KIns));
    }
    bra_overs(&body);
    kernel_front_done(k, &body, 1, np, pc->param_word);
    out = k;
  }
  for (uint32_t i = 0; i < pc->nb; i++)
    free(pc->bl[i].ins);
  free(pc->bl);
  free(pc->binds);
  free(pc->fix);
  return out;
}

/* The text as a source buffer of the context (diagnostics show its lines), parsed; NULL after a
 * located error. */
static PtxModule *parse(PComp *pc, const char *text, size_t len) {
  IrCtx *ctx = pc->h->ctx;
  pc->bufname = ir_intern_cstr(ctx, pc->bufname).s;
  ir_ctx_add_source(ctx, pc->bufname, text, len, 1, 1, true);
  PtxError err;
  PtxModule *m = ptx_parse(pc->bufname, text, len, &err);
  if (!m)
    perr(pc, err.line, err.col, "%s", err.msg);
  return m;
}

bool kernel_ptx_load(KHost *h, const char *bufname, const char *text, size_t len) {
  PComp pc = {.h = h, .bufname = bufname};
  PtxModule *m = parse(&pc, text, len);
  ptx_module_destroy(m);
  return m != NULL;
}

Kernel *kernel_of_ptx(KHost *h, Op *site, const char *bufname, const char *text, size_t len, Str name) {
  IrCtx *ctx = h->ctx;
  PComp pc = {.h = h, .site = site, .bufname = bufname};
  PtxModule *m = parse(&pc, text, len);
  pc.m = m;
  if (!m)
    return NULL;
  bufname = pc.bufname;
  char fname[256];
  snprintf(fname, sizeof fname, "%.*s", (int)name.len, name.s);
  const PtxFunc *fn = ptx_module_func(m, fname);
  Kernel *k = NULL;
  if (!fn || !fn->entry || !fn->defined) {
    if (site)
      ir_op_error(ctx, site, "%s has no kernel (.entry) '%s'", bufname, fname);
    else
      ir_diag(ctx, DIAG_ERROR, ptx_loc(&pc, 1, 1), "no kernel (.entry) '%s' here", fname);
    h->errors++;
  } else {
    pc.fn = fn;
    pc.glob = module_globals(&pc);
    if (!pc.failed)
      k = compile(&pc);
  }
  ptx_module_destroy(m);
  return k;
}

bool kernel_ptx_bind(KHost *h, Op *site, Kernel *k, uint32_t first, uint32_t n) {
  PInfo *info = *kernel_llvm_ext(k);
  uint32_t w = 0; /* the parameter the operand's first word goes to */
  bool record = !info->bound; /* the first launch site's memrefs (as kernel_llvm_bind keeps its first view) */
  if (record)
    info->refs = ir_alloc(h->ctx, (n + 1) * sizeof *info->refs);
  for (uint32_t i = 0; i < n; i++) {
    const Type *t = site->operands[first + i]->type;
    uint32_t nw = kernel_words(t);
    if (record && t->kind == TY_MEMREF && w + nw <= info->nparams && t->u.sh.rank <= 8 &&
        kernel_elem_bytes(t->u.sh.elem))
      info->refs[info->nrefs++] = (PRef){w, t->u.sh.rank, kernel_elem_bytes(t->u.sh.elem), i};
    for (uint32_t j = 0; j < nw && w < info->nparams; j++, w++) {
      /* a memref passes its descriptor's words (pointers, offset, sizes, strides: 64 bits each),
         as mlir-opt's lowering of a kernel's memref arguments takes them */
      unsigned pt = info->ptype[w], bits = ptx_type_bits((PtxType)pt);
      bool mr = t->kind == TY_MEMREF;
      unsigned tb = t->kind == TY_LLVM_PTR || t->kind == TY_INDEX || mr ? 64
                    : t->kind == TY_INT || t->kind == TY_FLOAT    ? kernel_elem_bytes(t) * 8
                                                                  : 0;
      bool fl = t->kind == TY_FLOAT;
      if (!tb || tb != bits || fl != is_float(pt)) {
        ir_op_error(h->ctx, site, "passes %s as kernel operand %u to PTX kernel parameter %u of type .%s",
                    mr ? "a memref descriptor word" : t->kind == TY_LLVM_PTR ? "a pointer" : fl ? "a float"
                    : t->kind == TY_INT ? "an integer" : "a value", i, w, ptx_type_name((PtxType)pt));
        h->errors++;
        info->nrefs = 0;
        return false;
      }
    }
  }
  info->bound = true;
  return true;
}

uint32_t kernel_ptx_params(const Kernel *k, uint32_t *bytes, uint32_t cap) {
  const PInfo *info = *kernel_llvm_ext(k);
  for (uint32_t i = 0; i < info->nparams && i < cap; i++)
    bytes[i] = ptx_type_bits((PtxType)info->ptype[i]) / 8;
  return info->nparams;
}
