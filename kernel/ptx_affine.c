/* ptx_affine.c - uniform and affine PTX registers (kernel_ptx.c has the overview): registers
 * whose value is one word per block (uniform words computed per block, and the entry's
 * once-per-frame instructions run as one), branches over one block, and registers affine in the
 * thread id (their instructions, x_aff, and the analysis over the body's blocks and dominators
 * that finds them); ptx_mem.c has the accesses through affine address registers. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

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
  if (run == ptx_x_mov && p->ns == 1)
    u->op = U_MOV;
  else if (run == ptx_x_cvt && p->ns == 1 && is_int(p->t) && is_int(p->t2))
    u->op = is_signed(p->t2) ? U_CVT_S : U_CVT_U, u->bits = (uint8_t)ptx_type_bits(p->t2);
  else if (run == ptx_x_int && p->ns == 3 && p->mode == I_MAD_LO)
    u->op = U_MAD;
  else if (run == ptx_x_int && p->ns == 2 && p->mode <= I_MUL_WIDE && p->mode != I_MUL_HI)
    u->op = p->mode == I_ADD ? U_ADD : p->mode == I_SUB ? U_SUB : p->mode == I_MUL_LO ? U_MUL
            : is_signed(p->t) ? U_WIDE_S : U_WIDE_U,
    u->bits = (uint8_t)ptx_type_bits(p->t);
  else if (run == ptx_x_int && p->ns == 2 && p->mode == I_SHL)
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

/* An entry instruction of uniform results in one of uop_run's forms (ptx_uop_ins, once the kernel's
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

void ptx_invariant_uni(PComp *pc, PBlock *b0, uint32_t nwords) {
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
    if (k->fn != x_uni || (p->run == ptx_x_cvta && p->mode != 0) ||
        (p->run == ptx_x_int && (p->mode == I_DIV || p->mode == I_REM)))
      continue;
    bool ok = true;
    for (uint32_t j = 0; j < p->ns && ok && p->run != ptx_x_ld_param; j++) {
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
void ptx_uop_ins(PComp *pc, PBlock *b0) {
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

void ptx_group_uni_once(PComp *pc, PBlock *b0) {
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
  return k->fn == ptx_x_mov || k->fn == ptx_x_int || k->fn == ptx_x_f32 || k->fn == ptx_x_f64 || k->fn == ptx_x_bits ||
         k->fn == ptx_x_cvt || k->fn == ptx_x_setp || k->fn == ptx_x_selp || k->fn == ptx_x_ld_param || k->fn == ptx_x_pack ||
         (k->fn == ptx_x_cvta && p->mode <= 2);
}

static bool uni_src(const POpd *o, const uint8_t *uni, uint32_t reg0, uint32_t nregs) {
  switch (o->kind) {
  case O_NONE: case O_IMM: return true;
  case O_SREG: return o->sreg == PTX_SREG_NTID || o->sreg == PTX_SREG_CTAID || o->sreg == PTX_SREG_NCTAID;
  case O_REG: return o->word - reg0 < nregs && uni[o->word - reg0] == 1;
  default: return false;
  }
}

void ptx_uniform_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs) {
  uint8_t *uni = calloc(nregs + 1, 1); /* per register: 0 not written yet, 1 uniform, 2 varying */
  uint32_t reg0 = pc->reg0;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      if (!p)
        continue;
      if ((k->fn == ptx_x_bra || k->fn == ptx_x_cond_bra) && p->target == 0)
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
 * region, it is ptx_x_cond_bra. */

static int x_bra_over(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t nact = f->nact, *act = f->act;
  const KBlock *b = p->over;
  if (nact != f->pc_all || f->top + f->n > f->cap)
    return ptx_x_cond_bra(f, k);
  uint32_t taken = 0, turns = 0, t0;
  if (p->cutword && ptx_cut_count(f, p, &taken, &turns, &t0)) {
  } else if (p->guard.kind == O_REG) {
    const Slot *g = f->v + (size_t)p->guard.word * f->n;
    t0 = (uint32_t)((g[act[0]].u ^ p->guard.neg) & 1);
    taken = ptx_guard_count(f, g, &turns);
    taken = p->guard.neg ? nact - taken : taken;
  } else {
    t0 = (uint32_t)(rd(f, &p->guard, act[0]) & 1);
    taken = t0 ? nact : 0;
  }
  uint32_t m = nact - taken, *sub = act;
  if (m) {
    int64_t cost = (int64_t)b->n * m;
    if (f->credit < cost)
      return ptx_x_cond_bra(f, k);
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
      if ((r = b->ins[i].fn(f, &b->ins[i])) == EX_SKIP3) {
        r = EX_NEXT;
        i += 3;
      }
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
void ptx_bra_overs(KBody *body) {
  uint32_t nb = body->nblocks;
  uint32_t *entries = calloc(nb + 1, sizeof *entries); /* per block: the branches that lead there */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < body->blocks[b].n; i++) {
      const KIns *k = &body->blocks[b].ins[i];
      const PIns *p = k->aux;
      if (k->fn != ptx_x_bra && k->fn != ptx_x_cond_bra)
        continue;
      if (p->target < nb)
        entries[p->target]++;
      if (k->fn == ptx_x_cond_bra && p->next < nb)
        entries[p->next]++;
    }
  for (uint32_t b = 0; b + 1 < nb; b++) {
    KBlock *bl = &body->blocks[b], *over = &body->blocks[b + 1];
    KIns *k = bl->n ? &bl->ins[bl->n - 1] : NULL;
    PIns *p = k ? k->aux : NULL;
    if (!k || k->fn != ptx_x_cond_bra || p->next != b + 1 || p->target <= b + 1 || p->target >= nb ||
        entries[b + 1] != 1 || !over->n || (p->guard.kind == O_REG && p->guard.width != 1))
      continue;
    const KIns *e = &over->ins[over->n - 1];
    const PIns *q = e->aux;
    bool plain = e->fn == ptx_x_bra && q->target == p->target;
    for (uint32_t i = 0; i + 1 < over->n && plain; i++)
      plain = over->ins[i].fn != ptx_x_bra && over->ins[i].fn != ptx_x_cond_bra && over->ins[i].fn != x_bra_over;
    if (!plain)
      continue;
    p->over = over;
    k->fn = x_bra_over;
  }
  free(entries);
}

/* ---- affine registers: the instructions and the analysis ------------------------------------------ */

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
    ptx_aff_col(f, a->d);
  for (uint32_t j = 0; j < a->nsrc; j++)
    ptx_aff_col(f, a->src[j]);
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
    ptx_aff_col(f, a->d);
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
 * ptx_once_affs): once its words (and its column, where it is needed) are made for a frame, they stay
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
  if (k->fn == ptx_x_mov && p->ns == 1 && p->s[0].kind == O_SREG && p->s[0].sreg == PTX_SREG_TID && p->s[0].comp < 2) {
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
  if (k->fn == ptx_x_mov && p->ns == 1 && wide_src) {
    *cx = sx[0], *cy = sy[0];
    return true;
  }
  if (k->fn == ptx_x_cvt && p->ns == 1 && is_int(p->t) && is_int(p->t2) && !p->sat) {
    unsigned sw = ptx_type_bits(p->t2);
    if (cls[0] == 1 && p->s[0].width < sw)
      return false;
    if (cls[0] == 1 && sw < wd)
      *xs = 0, *xw = (uint8_t)sw, *xsg = is_signed(p->t2);
    *cx = sx[0], *cy = sy[0];
    return true;
  }
  if (k->fn != ptx_x_int || p->sat)
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
    if (k && (k->fn == ptx_x_bra || k->fn == ptx_x_cond_bra) && p->target < nb)
      succ[2 * b + ns[b]++] = p->target;
    if (k && k->fn == ptx_x_cond_bra && p->next < nb)
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

/* The classes of p's sources (aff_class; the first five) in cls, and in sx, sy the steps of
 * those that are registers in state 1 (affine); returns the states of the registers among them
 * as a set, 1 << state (0 unknown, 1 affine, 2 not). */
static unsigned aff_sources(const PIns *p, uint32_t reg0, uint32_t nregs, const uint8_t *state, const uint64_t *cx,
                            const uint64_t *cy, int *cls, uint64_t *sx, uint64_t *sy) {
  unsigned seen = 0;
  for (uint32_t j = 0; j < p->ns && j < 5; j++) {
    uint32_t q = 0;
    cls[j] = aff_class(&p->s[j], reg0, nregs, &q);
    if (cls[j] != 1)
      continue;
    seen |= 1u << state[q];
    if (state[q] == 1)
      sx[j] = cx[q], sy[j] = cy[q];
  }
  return seen;
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
      ok = ok && !(aff_sources(p, reg0, nregs, state, cx, cy, cls, sx, sy) & ~2u); /* all affine */
      int xs;
      uint8_t xw, root;
      bool xsg;
      ok = ok && aff_rule(k, p, cls, sx, sy, &ux, &uy, &xs, &xw, &xsg, &root) && !root && ux == cx[r] && uy == cy[r];
      if (!ok)
        bad[r] = true, marked = true;
    }
  return marked;
}

/* Finds the affine registers (see ptx_mem.c) and makes their instructions x_aff and the accesses
 * through them aware of it. */
/* Whether block b ends in an `@p bra` of predicate word w that reads w only as its guard. */
static bool cut_reader(const PBlock *b, uint32_t w) {
  const KIns *e = b->n ? &b->ins[b->n - 1] : NULL;
  const PIns *q = e ? e->aux : NULL;
  if (!e || e->fn != ptx_x_cond_bra || q->guard.kind != O_REG || q->guard.word != w)
    return false;
  for (uint32_t j = 0; j < q->ns; j++)
    if (q->s[j].kind == O_REG && q->s[j].word == w)
      return false;
  return true;
}

void ptx_affine_regs(PComp *pc, PBlock *bl, uint32_t nb, uint32_t nregs) {
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
          bad[r] |= k->fn == ptx_x_guard || k->fn == x_uni || p->nd != 1;
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
        unsigned seen = aff_sources(p, reg0, nregs, state, cx, cy, cls, sx, sy);
        bool wait = seen & 1u, no = seen & 4u;
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
      if (k->fn != ptx_x_setp || p->nd != 1 || p->ns != 2 || p->combine || !is_int(p->t) || p->mode > C_HS ||
          aff_class(&p->s[0], reg0, nregs, &a) != 1 || !state[a] || p->s[0].width < ptx_type_bits(p->t) ||
          aff_class(&p->s[1], reg0, nregs, &c) != 0 || p->d[0].kind != O_REG || p->d[0].width != 1 ||
          p->d[0].word - reg0 >= nregs || writes[p->d[0].word - reg0] != 1)
        continue;
      uint32_t pr = p->d[0].word - reg0, nr = reads[pr];
      if (nr == 1 && e->fn == ptx_x_cond_bra && q->guard.kind == O_REG && q->guard.word == p->d[0].word) {
        p->cutword = q->cutword = kernel_new_uniform(&pc->kc, PCUT_WORDS) + 1;
        continue;
      }
      /* read only by branches ending blocks the setp's dominates: a cut of the whole frame's threads */
      uint32_t found = 0;
      for (uint32_t b2 = 0; b2 < nb && nr > 1; b2++)
        found += cut_reader(&bl[b2], p->d[0].word) && (b2 == b || dominates(idom, b, b2));
      if (nr < 2 || found != nr)
        continue;
      p->cutword = kernel_new_uniform(&pc->kc, PCUT_WORDS) + 1;
      p->cutfull = true;
      for (uint32_t b2 = 0; b2 < nb; b2++)
        if (cut_reader(&bl[b2], p->d[0].word))
          ((PIns *)bl[b2].ins[bl[b2].n - 1].aux)->cutword = p->cutword;
    }
  free(reads);
  /* who reads the columns */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const KIns *k = &bl[b].ins[i];
      const PIns *p = k->aux;
      if (!p)
        continue;
      KFn fn = k->fn == ptx_x_guard ? p->run : k->fn;
      bool aff_def = p->nd == 1 && p->d[0].kind == O_REG && p->d[0].word - reg0 < nregs && state[p->d[0].word - reg0];
      for (uint32_t j = 0; j < p->ns + 1u; j++) {
        const POpd *o = j < p->ns ? &p->s[j] : &p->guard;
        uint32_t r = o->word - reg0;
        if (o->kind != O_REG || r >= nregs || !state[r])
          continue;
        bool addr = j == 0 && ((fn == ptx_x_ld || fn == ptx_x_st) || (fn == ptx_x_setp && p->cutword)) && o->kind == O_REG;
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
      KFn fn = k->fn == ptx_x_guard ? p->run : k->fn;
      if ((fn == ptx_x_ld || fn == ptx_x_st) && p->s[0].kind == O_REG && p->s[0].word - reg0 < nregs &&
          state[p->s[0].word - reg0])
        p->abase = &regs[p->s[0].word - reg0];
      if (k->fn == ptx_x_setp && p->cutword) {
        p->abase = &regs[p->s[0].word - reg0];
        p->run = ptx_x_setp;
        k->fn = ptx_x_setp_cut;
      }
      if (!(p->nd == 1 && p->d[0].kind == O_REG && p->d[0].word - reg0 < nregs && state[p->d[0].word - reg0]) ||
          k->fn == ptx_x_guard)
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
void ptx_once_affs(PComp *pc, PBlock *bl, uint32_t nb) {
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
      PAff *a = (PAff *)((PIns *)k->aux)->aff; /* ir_alloc'ed by ptx_affine_regs */
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
