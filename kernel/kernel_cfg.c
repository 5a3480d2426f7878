/* kernel_cfg.c - running a kernel's bodies and its control flow: the ops of a block in order, regions
 * of several blocks, the moves of yields, branches and loop-carried values, and scf.if, scf.for,
 * scf.while, scf.execute_region, cf and llvm branches, terminators and func.call, each compiled
 * (kernel_compile_*) next to the function that runs it (x_*).
 *
 * Running. A block runs its body once with a mask of active threads (a sorted list). scf.if with a
 * varying condition runs each branch under the threads that take it (a branch that all active
 * threads take runs with the mask unchanged); scf.for with varying bounds iterates while any
 * thread still does, masked to those; scf.while likewise. Regions with several blocks (cf.br,
 * cf.cond_br) run with a per-thread next block: the lowest block any thread waits for runs next,
 * under the threads waiting there, which reconverges threads at the first block they share.
 * Ops that only compute run for every thread when the mask is full and for the active ones
 * otherwise; ops with effects (memory, printf, errors) only ever for active threads.
 *
 * The masks of nested divergent regions are taken from the frame's stack (push) and given back by
 * restoring KFrame.top. Each block's ops take steps from the frame's credit (budget.c) before they
 * run; a bound that runs out stops the launch at the first op it could not pay for
 * (kernel_budget_stop). Calls are compiled in place for each call site, their values analysed
 * anew from the call's arguments (kernel.c, kernel_place_callee). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <stdatomic.h>
#include <string.h>

#define EXIT_PC UINT32_MAX

/* ---- masks ---------------------------------------------------------------------------------- */

static uint32_t *push(KFrame *f) {
  if (f->top + f->n > f->cap)
    return NULL;
  uint32_t *p = f->stack + f->top;
  f->top += f->n;
  return p;
}

/* ---- running bodies ------------------------------------------------------------------------- */

/* Does the region load memory (a poll could be one of those)? */
static bool loads_memory(const Region *r) {
  for (const Block *b = r->first; b; b = b->next)
    for (const Op *o = b->first; o; o = o->next) {
      Str n = o->name;
      for (size_t i = 0; i + 4 <= n.len; i++)
        if (!memcmp(n.s + i, "load", 4) || (i + 6 <= n.len && !memcmp(n.s + i, "atomic", 6)) ||
            (i + 7 <= n.len && !memcmp(n.s + i, "cmpxchg", 7)))
          return true;
      for (uint32_t j = 0; j < o->nregions; j++)
        if (loads_memory(&o->regions[j]))
          return true;
    }
  return false;
}

/* The frame's credit ran out at the start of block b, cost steps: how many of its ops may run
 * (b->n: all; fewer: *why says why, kernel_budget_stop at the next). A batch is at least a few
 * blocks' worth of a full block, so that even blocks of 1024 threads take credit rarely. */
static uint32_t kernel_budget_block(KFrame *f, const KBlock *b, int64_t cost, int *why) {
  KHost *in = f->L_in;
  int64_t chunk = 64 * (int64_t)f->n > 65536 ? 64 * (int64_t)f->n : 65536;
  *why = kernel_budget_take(&in->budget, &f->credit, chunk);
  if (*why == BUDGET_OK)
    return b->n;
  int64_t left = *why == BUDGET_STEPS ? cost + f->credit : 0; /* the steps the pool still had */
  f->credit = 0;
  return f->nact ? (uint32_t)(left / f->nact) : 0;
}

/* A bound stops the launch at k: EX_ERROR, reported by the first thread of the run to find one. */
static int kernel_budget_stop(KFrame *f, const KIns *k, int why) {
  Launch *L = f->L;
  KHost *in = f->L_in;
  atomic_store(&L->failed, 1);
  atomic_store_explicit(&in->credit, 0, memory_order_relaxed); /* the host stops at its next op */
  if (why == BUDGET_STOPPED || !kernel_budget_first(&in->budget))
    return EX_ERROR;
  char msg[128];
  kernel_budget_message(&in->budget, why, msg, sizeof msg);
  uint32_t t, bid[3];
  kernel_lane_block(f, f->act[0], &t, bid);
  uint32_t x = t % f->bdim[0], y = t / f->bdim[0] % f->bdim[1], z = t / (f->bdim[0] * f->bdim[1]);
  GpuState *gs = kernel_gpu(in);
  pthread_mutex_lock(&gs->mu);
  ir_diag(in->ctx, DIAG_ERROR, ir_op_loc(k->op), "%s", msg);
  char more[64] = "";
  uint32_t others = 0; /* of the same block */
  for (uint32_t i = 1; i < f->nact; i++)
    others += !f->wide || f->act[i] / f->wide == f->act[0] / f->wide;
  if (others)
    snprintf(more, sizeof more, " and %u other thread%s", others, others > 1 ? "s" : "");
  ir_diag(in->ctx, DIAG_NOTE, L->site ? ir_op_loc(L->site) : NULL,
          "in thread (%u, %u, %u)%s of block (%u, %u, %u), running '%.*s' in the kernel launched here", x, y, z,
          more, bid[0], bid[1], bid[2], (int)k->op->name.len, k->op->name.s);
  if (in->lazy_sched && f->k->op->nregions && loads_memory(&f->k->op->regions[0]))
    ir_diag(in->ctx, DIAG_NOTE, NULL,
            "if the kernel waits for the host or for other device work: under --sched=%s it runs on the "
            "host's thread, from the launch or a wait, and nothing else runs until it ends (--sched=threads "
            "runs them side by side)",
            in->lazy_sched);
  pthread_mutex_unlock(&gs->mu);
  atomic_fetch_add(&gs->errors, 1);
  return EX_ERROR;
}

static int run_block(KFrame *f, const KBlock *b) {
  int64_t cost = (int64_t)b->n * f->nact;
  int why = BUDGET_OK;
  uint32_t n = (f->credit -= cost) >= 0 ? b->n : kernel_budget_block(f, b, cost, &why);
  for (uint32_t i = 0; i < n; i++) {
    int r = b->ins[i].fn(f, &b->ins[i]);
    if (r != EX_NEXT) {
      if (r == EX_ERROR)
        return EX_ERROR;
      if (r == EX_DONE)
        return EX_NEXT;
      i += 3; /* EX_SKIP3 */
    }
  }
  return n < b->n ? kernel_budget_stop(f, &b->ins[n], why) : EX_NEXT;
}

/* A multi-block region: each active thread has a next block; the lowest one runs next. */
static int run_cfg(KFrame *f, const KBody *b) {
  uint32_t *saved_act = f->act, saved_nact = f->nact, *saved_pc = f->pc;
  size_t saved_top = f->top;
  uint32_t *pc = push(f), *sub = push(f);
  int r = EX_NEXT;
  if (!pc || !sub)
    return kernel_error(f, b->blocks[0].ins, saved_act[0], "control flow nested too deeply");
  for (uint32_t i = 0; i < saved_nact && !b->pc_lazy; i++)
    pc[saved_act[i]] = 0;
  f->pc = pc;
  uint32_t saved_all = f->pc_all;
  f->pc_n = saved_nact; /* all of them at block 0 */
  f->pc_one = 0;
  for (;;) {
    uint32_t min = EXIT_PC, n = 0;
    if (f->pc_n == saved_nact) { /* the last terminator sent them all to one block */
      min = f->pc_one;
      n = saved_nact;
    } else /* one pass: the lowest next block and its threads (restarted at each lower one) */
      for (uint32_t i = 0; i < saved_nact; i++) {
        uint32_t t = pc[saved_act[i]];
        if (t < min) {
          min = t;
          n = 0;
        }
        sub[n] = saved_act[i];
        n += t == min;
      }
    f->pc_n = 0;
    if (min == EXIT_PC)
      break;
    /* all of them (the common case): the region's own list, which the block's ops only read */
    uint32_t *who = n == saved_nact ? saved_act : sub;
    f->act = who;
    f->nact = n;
    f->pc_all = n == saved_nact ? n : UINT32_MAX;
    const KBlock *blk = &b->blocks[min];
    int64_t cost = (int64_t)blk->n * n;
    int why = BUDGET_OK;
    uint32_t i = 0, nrun = (f->credit -= cost) >= 0 ? blk->n : kernel_budget_block(f, blk, cost, &why);
    int x = EX_NEXT;
    for (; i < nrun && x == EX_NEXT; i++)
      if ((x = blk->ins[i].fn(f, &blk->ins[i])) == EX_SKIP3) {
        x = EX_NEXT;
        i += 3;
      }
    if (nrun < blk->n && x == EX_NEXT)
      x = kernel_budget_stop(f, &blk->ins[nrun], why);
    if (x == EX_ERROR) {
      r = EX_ERROR;
      break;
    }
    if (x == EX_NEXT) { /* no terminator: leave */
      for (uint32_t j = 0; j < n; j++)
        pc[who[j]] = EXIT_PC;
      f->pc_n = 0;
    }
  }
  f->pc_n = 0; /* not the enclosing region's */
  f->pc_all = saved_all;
  f->act = saved_act;
  f->nact = saved_nact;
  f->pc = saved_pc;
  f->top = saved_top;
  return r;
}

int kernel_run_body(KFrame *f, const KBody *b) {
  if (!b->nblocks)
    return EX_NEXT;
  if (b->nblocks > 1)
    return run_cfg(f, b);
  uint32_t *pc = f->pc;
  f->pc = NULL;
  int r = run_block(f, &b->blocks[0]);
  f->pc = pc;
  return r;
}

/* ---- moves: yields, branches, loop-carried values ------------------------------------------ */

typedef struct KMoves {
  uint32_t n, total;
  uint32_t *src, *dst, *w;
  uint8_t *vsrc, *vdst;
} KMoves;

static void move_value(KFrame *f, const Slot *const *S, bool vs, Slot *D, bool vd) {
  if (!vd) {
    D[0] = S[0][vs ? f->act[0] : 0];
    return;
  }
  const Slot *s = S[0];
  if (vs)
    KLANES(f, l, { D[l] = s[l]; });
  else
    KLANES(f, l, { D[l] = s[0]; });
}

/* Copies the moves' sources to their destinations for the active threads, through f->tmp when
 * there are several (a branch may permute its block's arguments). */
static void run_moves(KFrame *f, const KMoves *m) {
  if (!m || !m->n)
    return;
  if (m->n == 1 && m->w[0] == 1 && !m->vdst[0]) { /* one uniform word: a loop's counter */
    f->u[m->dst[0]] = kw(f, m->src[0], m->vsrc[0])[m->vsrc[0] ? f->act[0] : 0];
    return;
  }
  if (m->n == 1) {
    for (uint32_t x = 0; x < m->w[0]; x++) {
      const Slot *s = kw(f, m->src[0] + x, m->vsrc[0]);
      move_value(f, &s, m->vsrc[0], kw(f, m->dst[0] + x, m->vdst[0]), m->vdst[0]);
    }
    return;
  }
  uint32_t t = 0;
  for (uint32_t i = 0; i < m->n; i++)
    for (uint32_t x = 0; x < m->w[i]; x++, t++) {
      const Slot *s = kw(f, m->src[i] + x, m->vsrc[i]);
      move_value(f, &s, m->vsrc[i], f->tmp + (size_t)t * f->n, m->vdst[i]);
    }
  t = 0;
  for (uint32_t i = 0; i < m->n; i++)
    for (uint32_t x = 0; x < m->w[i]; x++, t++) {
      const Slot *s = f->tmp + (size_t)t * f->n;
      move_value(f, &s, m->vdst[i], kw(f, m->dst[i] + x, m->vdst[i]), m->vdst[i]);
    }
}

static KMoves *moves(KComp *kc, Value **src, uint32_t n, Value *const *dst) {
  IrCtx *ctx = kc->in->ctx;
  KMoves *m = ir_alloc(ctx, sizeof *m);
  m->n = n;
  m->src = ir_alloc(ctx, (n + 1) * sizeof *m->src);
  m->dst = ir_alloc(ctx, (n + 1) * sizeof *m->dst);
  m->w = ir_alloc(ctx, (n + 1) * sizeof *m->w);
  m->vsrc = ir_alloc(ctx, n + 1);
  m->vdst = ir_alloc(ctx, n + 1);
  uint32_t j = 0;
  for (uint32_t i = 0; i < n; i++) {
    kernel_operand(kc, src[i], &m->src[j], &m->vsrc[j]);
    kernel_operand(kc, dst[i], &m->dst[j], &m->vdst[j]);
    if (m->src[j] == m->dst[j] && m->vsrc[j] == m->vdst[j])
      continue; /* one slot (coalesce_loops): nothing to move */
    m->w[j] = kernel_words(src[i]->type);
    m->total += m->w[j++];
  }
  m->n = j;
  if (m->total > kc->k->maxmove)
    kc->k->maxmove = m->total;
  return m;
}

static Value **arg_ptrs(KComp *kc, Value *args, uint32_t n) {
  Value **p = ir_alloc(kc->in->ctx, (n + 1) * sizeof *p);
  for (uint32_t i = 0; i < n; i++)
    p[i] = &args[i];
  return p;
}

/* ---- control flow ----------------------------------------------------------------------------- */

typedef struct KCtl {
  KBody body, body2;
  KMoves *init, *results, *m2;
  uint32_t iv, cond;
  uint8_t iv_vary, cond_vary;
  int32_t target[2];
  int32_t tidx_pred; /* scf.if: its condition is a kernel_tidx_cmp compare of words tidx_a, tidx_b */
  uint32_t tidx_a, tidx_b;
} KCtl;

static int x_yield(KFrame *f, const KIns *k) {
  run_moves(f, k->aux);
  if (f->pc)
    for (uint32_t i = 0; i < f->nact; i++)
      f->pc[f->act[i]] = EXIT_PC;
  return EX_DONE;
}

bool kernel_compile_yield(KComp *kc, Op *op, KIns *k) {
  Op *parent = ir_op_parent_op(op);
  Value **dst = NULL;
  if (!parent)
    return kernel_unsupported(kc, op, "a yield outside an op");
  if (ir_str_eq(parent->name, "scf.for"))
    dst = arg_ptrs(kc, parent->regions[0].first->args + 1, op->noperands);
  else if (ir_str_eq(parent->name, "scf.while"))
    dst = arg_ptrs(kc, parent->regions[0].first->args, op->noperands);
  else if (ir_str_eq(parent->name, "scf.if") || ir_str_eq(parent->name, "scf.execute_region") ||
           ir_str_eq(parent->name, "gpu.all_reduce"))
    dst = arg_ptrs(kc, parent->results, op->noperands);
  else if (kc->call &&
           (ir_str_eq(parent->name, "func.func") || ir_str_eq(parent->name, "gpu.func") ||
            ir_str_eq(parent->name, "llvm.func")) &&
           op->noperands == kc->call->nresults)
    dst = op->noperands ? arg_ptrs(kc, kc->call->results, op->noperands) : NULL; /* a callee's return */
  else if (!op->noperands && (ir_str_eq(op->name, "gpu.return") || ir_str_eq(op->name, "gpu.terminator") ||
                                   ir_str_eq(op->name, "llvm.return")))
    dst = NULL;
  else
    return kernel_unsupported(kc, op, "this terminator");
  k->aux = dst ? moves(kc, op->operands, op->noperands, dst) : NULL;
  k->fn = x_yield;
  return true;
}

static int x_br(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  run_moves(f, c->init);
  for (uint32_t i = 0; i < f->nact; i++)
    f->pc[f->act[i]] = (uint32_t)c->target[0];
  return EX_DONE;
}

static int x_cond_br(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  const Slot *C = KIN(f, k, 0);
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *t = push(f), *e = push(f), nt = 0, ne = 0;
  if (!t || !e)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  if (!k->vin[0]) { /* uniform: every thread goes to one successor */
    bool x = C[0].i & 1;
    run_moves(f, x ? c->init : c->m2);
    for (uint32_t i = 0; i < nact; i++)
      f->pc[act[i]] = (uint32_t)c->target[x ? 0 : 1];
    f->top = top;
    return EX_DONE;
  }
  for (uint32_t i = 0; i < nact; i++) { /* branch-free split */
    uint32_t l = act[i], x = (uint32_t)(C[l].i & 1);
    t[nt] = l;
    e[ne] = l;
    nt += x;
    ne += 1 - x;
  }
  f->act = t;
  f->nact = nt;
  if (nt)
    run_moves(f, c->init);
  f->act = e;
  f->nact = ne;
  if (ne)
    run_moves(f, c->m2);
  for (uint32_t i = 0; i < nt; i++)
    f->pc[t[i]] = (uint32_t)c->target[0];
  for (uint32_t i = 0; i < ne; i++)
    f->pc[e[i]] = (uint32_t)c->target[1];
  f->act = act;
  f->nact = nact;
  f->top = top;
  return EX_DONE;
}

bool kernel_compile_br(KComp *kc, Op *op, KIns *k) {
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  if (ir_str_eq(op->name, "cf.br") || ir_str_eq(op->name, "llvm.br")) {
    c->target[0] = (int32_t)op->succs[0]->id;
    c->init = moves(kc, op->operands, op->noperands, arg_ptrs(kc, op->succs[0]->args, op->noperands));
    k->fn = x_br;
  } else {
    Attr *seg = ir_op_attr(op, "operandSegmentSizes");
    if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 3)
      return kernel_unsupported(kc, op, "this form of cf.cond_br");
    uint32_t nt = (uint32_t)seg->u.darr.ivals[1], ne = (uint32_t)seg->u.darr.ivals[2];
    c->target[0] = (int32_t)op->succs[0]->id;
    c->target[1] = (int32_t)op->succs[1]->id;
    c->init = moves(kc, op->operands + 1, nt, arg_ptrs(kc, op->succs[0]->args, nt));
    c->m2 = moves(kc, op->operands + 1 + nt, ne, arg_ptrs(kc, op->succs[1]->args, ne));
    k->fn = x_cond_br;
  }
  k->aux = c;
  return true;
}

static int x_if(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  const Slot *C = KIN(f, k, 0);
  if (!k->vin[0])
    return kernel_run_body(f, (C[0].i & 1) ? &c->body : &c->body2);
  if (f->nact == f->n) { /* the common case: every thread takes the same branch */
    uint32_t taken = 0, cut;
    bool prefix, known = false;
    if (c->tidx_pred >= 0 && kernel_tidx_cut(f, kw(f, c->tidx_a, true)[0].i, kw(f, c->tidx_b, false)[0].i,
                                             (uint32_t)c->tidx_pred, &cut, &prefix)) {
      taken = prefix ? cut : f->n - cut; /* known without looking at the condition */
      known = true;
      if (taken == f->n || !taken)
        return kernel_run_body(f, taken ? &c->body : &c->body2);
    } else {
      for (uint32_t l = 0; l < f->n; l++)
        taken += (uint32_t)(C[l].i & 1);
    }
    if (taken == f->n || !taken)
      return kernel_run_body(f, taken ? &c->body : &c->body2);
    /* threads below (or from) some thread take it, as `thread_id < bound` says: the full mask is
     * 0..n-1, so each branch's mask is a piece of it */
    uint32_t lo = 0, n = f->n, hi = 0;
    if (known) {
      lo = prefix ? taken : 0;
      hi = prefix ? 0 : taken;
    } else {
      for (uint32_t l = 0; l < taken; l++)
        lo += (uint32_t)(C[l].i & 1);
      if (lo != taken)
        for (uint32_t l = n - taken; l < n; l++)
          hi += (uint32_t)(C[l].i & 1);
    }
    if (lo == taken || hi == taken) {
      uint32_t *act = f->act;
      int r;
      f->act = lo == taken ? act : act + n - taken;
      f->nact = taken;
      r = kernel_run_body(f, &c->body);
      if (r != EX_ERROR) {
        f->act = lo == taken ? act + taken : act;
        f->nact = n - taken;
        r = kernel_run_body(f, &c->body2);
      }
      f->act = act;
      f->nact = n;
      return r;
    }
  }
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *t = push(f), *e = push(f), nt = 0, ne = 0;
  if (!t || !e)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  for (uint32_t i = 0; i < nact; i++) { /* branch-free split */
    uint32_t l = act[i], x = (uint32_t)(C[l].i & 1);
    t[nt] = l;
    e[ne] = l;
    nt += x;
    ne += 1 - x;
  }
  int r = EX_NEXT;
  if (!ne) {
    f->top = top;
    return kernel_run_body(f, &c->body);
  }
  if (!nt) {
    f->top = top;
    return kernel_run_body(f, &c->body2);
  }
  f->act = t;
  f->nact = nt;
  r = kernel_run_body(f, &c->body);
  if (r != EX_ERROR) {
    f->act = e;
    f->nact = ne;
    r = kernel_run_body(f, &c->body2);
  }
  f->act = act;
  f->nact = nact;
  f->top = top;
  return r;
}

bool kernel_compile_if(KComp *kc, Op *op, KIns *k) {
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  Op *d = op->operands[0]->def;
  /* a compare just before in the same block: its operands still hold what it compared */
  c->tidx_pred = d && d->parent == op->parent ? kernel_tidx_cmp(d) : -1;
  if (c->tidx_pred >= 0) {
    uint8_t va, vb;
    kernel_operand(kc, d->operands[0], &c->tidx_a, &va);
    kernel_operand(kc, d->operands[1], &c->tidx_b, &vb);
    if (!va || vb)
      c->tidx_pred = -1;
  }
  k->aux = c;
  k->fn = x_if;
  return kernel_compile_body(kc, &op->regions[0], &c->body) &&
         (op->nregions < 2 || kernel_compile_body(kc, &op->regions[1], &c->body2));
}

static int x_for(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  run_moves(f, c->init);
  if (!c->iv_vary) {
    int64_t lb = KIN(f, k, 0)[0].i, ub = KIN(f, k, 1)[0].i, step = KIN(f, k, 2)[0].i;
    if (step <= 0)
      return kernel_error(f, k, f->act[0], "step must be positive, got %lld", (long long)step);
    Slot *iv = kw(f, c->iv, false);
    for (int64_t i = lb; i < ub;) {
      iv->i = i;
      if (kernel_run_body(f, &c->body) == EX_ERROR)
        return EX_ERROR;
      int64_t next = kernel_sext((uint64_t)i + (uint64_t)step, k->a);
      if (next <= i)
        break;
      i = next;
    }
  } else {
    const Slot *LB = KIN(f, k, 0), *UB = KIN(f, k, 1), *ST = KIN(f, k, 2);
    size_t sl = k->vin[0], su = k->vin[1], ss = k->vin[2];
    Slot *iv = kw(f, c->iv, true);
    uint32_t *act = f->act, nact = f->nact;
    size_t top = f->top;
    uint32_t *cur = push(f);
    if (!cur)
      return kernel_error(f, k, act[0], "control flow nested too deeply");
    for (uint32_t i = 0; i < nact; i++) {
      uint32_t l = act[i];
      if (ST[l * ss].i <= 0)
        return kernel_error(f, k, l, "step must be positive, got %lld", (long long)ST[l * ss].i);
      iv[l].i = LB[l * sl].i;
    }
    int r = EX_NEXT;
    for (;;) {
      uint32_t n = 0;
      for (uint32_t i = 0; i < nact; i++) {
        uint32_t l = act[i];
        if (iv[l].i < UB[l * su].i)
          cur[n++] = l;
      }
      if (!n)
        break;
      f->act = cur;
      f->nact = n;
      if ((r = kernel_run_body(f, &c->body)) == EX_ERROR)
        break;
      for (uint32_t i = 0; i < n; i++) {
        uint32_t l = cur[i];
        int64_t next = kernel_sext((uint64_t)iv[l].i + (uint64_t)ST[l * ss].i, k->a);
        iv[l].i = next <= iv[l].i ? UB[l * su].i : next;
      }
    }
    f->act = act;
    f->nact = nact;
    f->top = top;
    if (r == EX_ERROR)
      return r;
  }
  run_moves(f, c->results);
  return EX_NEXT;
}

bool kernel_compile_for(KComp *kc, Op *op, KIns *k) {
  Block *body = op->regions[0].first;
  if (!body || body->nargs != op->noperands - 2 || ir_op_attr(op, "unsignedCmp"))
    return kernel_unsupported(kc, op, "this form of scf.for");
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  kernel_operand(kc, &body->args[0], &c->iv, &c->iv_vary);
  uint32_t n = op->noperands - 3;
  c->init = moves(kc, op->operands + 3, n, arg_ptrs(kc, body->args + 1, n));
  c->results = moves(kc, arg_ptrs(kc, body->args + 1, n), n, arg_ptrs(kc, op->results, n));
  k->a = kernel_int_width(body->args[0].type);
  k->aux = c;
  k->fn = x_for;
  return kernel_compile_body(kc, &op->regions[0], &c->body);
}

/* scf.while: `before` ends in scf.condition, which moves the values of the threads that go on to
 * `after`'s arguments and those of the threads that stop to the results. */
static int x_condition(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  const Slot *C = KIN(f, k, 0);
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *t = push(f), *e = push(f), nt = 0, ne = 0;
  if (!t || !e)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  if (!k->vin[0]) { /* uniform: every thread leaves or goes on */
    run_moves(f, (C[0].i & 1) ? c->init : c->results);
    f->top = top;
    return EX_DONE;
  }
  for (uint32_t i = 0; i < nact; i++) { /* branch-free split */
    uint32_t l = act[i], x = (uint32_t)(C[l].i & 1);
    t[nt] = l;
    e[ne] = l;
    nt += x;
    ne += 1 - x;
  }
  f->act = t;
  f->nact = nt;
  if (nt)
    run_moves(f, c->init);
  f->act = e;
  f->nact = ne;
  if (ne)
    run_moves(f, c->results);
  f->act = act;
  f->nact = nact;
  f->top = top;
  return EX_DONE;
}

bool kernel_compile_condition(KComp *kc, Op *op, KIns *k) {
  Op *w = ir_op_parent_op(op);
  if (!w || !ir_str_eq(w->name, "scf.while") || !w->regions[1].first)
    return kernel_unsupported(kc, op, "scf.condition outside scf.while");
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  uint32_t n = op->noperands - 1;
  c->init = moves(kc, op->operands + 1, n, arg_ptrs(kc, w->regions[1].first->args, n));
  c->results = moves(kc, op->operands + 1, n, arg_ptrs(kc, w->results, n));
  k->aux = c;
  k->fn = x_condition;
  return true;
}

static int x_while(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  run_moves(f, c->init);
  int r = EX_NEXT;
  if (!c->cond_vary) { /* a uniform condition: all threads iterate together, the mask unchanged */
    const Slot *C = kw(f, c->cond, false);
    while ((r = kernel_run_body(f, &c->body)) != EX_ERROR && (C[0].i & 1))
      if ((r = kernel_run_body(f, &c->body2)) == EX_ERROR)
        break;
    return r;
  }
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *cur = push(f), n = nact;
  if (!cur)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  memcpy(cur, act, nact * sizeof *cur);
  while (n) {
    f->act = cur;
    f->nact = n;
    if ((r = kernel_run_body(f, &c->body)) == EX_ERROR)
      break;
    const Slot *C = kw(f, c->cond, c->cond_vary);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
      if (C[c->cond_vary ? cur[i] : 0].i & 1)
        cur[m++] = cur[i];
    n = m;
    if (!n)
      break;
    f->nact = n;
    if ((r = kernel_run_body(f, &c->body2)) == EX_ERROR)
      break;
  }
  f->act = act;
  f->nact = nact;
  f->top = top;
  return r;
}

bool kernel_compile_while(KComp *kc, Op *op, KIns *k) {
  Block *before = op->regions[0].first;
  Op *cond = before ? before->last : NULL;
  if (!cond || !ir_str_eq(cond->name, "scf.condition") || before->next)
    return kernel_unsupported(kc, op, "this form of scf.while");
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  c->init = moves(kc, op->operands, op->noperands, arg_ptrs(kc, before->args, op->noperands));
  kernel_operand(kc, cond->operands[0], &c->cond, &c->cond_vary);
  k->aux = c;
  k->fn = x_while;
  return kernel_compile_body(kc, &op->regions[0], &c->body) && kernel_compile_body(kc, &op->regions[1], &c->body2);
}

static int x_execute_region(KFrame *f, const KIns *k) { return kernel_run_body(f, k->aux); }

bool kernel_compile_execute_region(KComp *kc, Op *op, KIns *k) {
  KBody *b = ir_alloc(kc->in->ctx, sizeof *b);
  k->aux = b;
  k->fn = x_execute_region;
  return kernel_compile_body(kc, &op->regions[0], b);
}

/* ---- calls -------------------------------------------------------------------------------------- */

/* func.call in a kernel: the callee (a func.func or gpu.func of the kernel's gpu.module, or of the
 * top module) is compiled in place for this call, its values placed anew and their variance
 * decided from this call's arguments. The results are taken as varying. */
static int x_call(KFrame *f, const KIns *k) {
  const KCtl *c = k->aux;
  run_moves(f, c->init);
  if (f->ncalls < sizeof f->calls / sizeof f->calls[0])
    f->calls[f->ncalls] = k->op;
  f->ncalls++;
  int r = kernel_run_body(f, &c->body);
  f->ncalls--;
  return r;
}

bool kernel_compile_call(KComp *kc, Op *op, KIns *k) {
  Attr *callee = ir_op_attr(op, "callee");
  if (!callee || callee->kind != ATTR_SYMREF || callee->u.sym.n != 1)
    return kernel_unsupported(kc, op, "a call without a flat callee symbol");
  Op *scope = ir_op_parent_op(kc->root), *fn = NULL;
  if (scope && ir_str_eq(scope->name, "gpu.module"))
    fn = ir_symbol_lookup(scope, callee->u.sym.path[0]);
  if (!fn)
    fn = ir_symbol_lookup(kc->in->module, callee->u.sym.path[0]);
  if (!fn || !fn->nregions || !fn->regions[0].first)
    return kernel_unsupported(kc, op, "a call of a function without a body in this module");
  for (uint32_t i = 0; i < kc->ninlined; i++)
    if (kc->inlined[i] == fn)
      return kernel_unsupported(kc, op, "a recursive call");
  if (kc->ninlined == sizeof kc->inlined / sizeof kc->inlined[0])
    return kernel_unsupported(kc, op, "calls nested this deep");
  Region *r = &fn->regions[0];
  Block *entry = r->first;
  if (entry->nargs != op->noperands)
    return kernel_unsupported(kc, op, "a call whose arguments do not match the callee");
  kernel_place_callee(kc, r, k->vin);
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  c->init = moves(kc, op->operands, op->noperands, arg_ptrs(kc, entry->args, entry->nargs));
  Op *saved = kc->call;
  kc->call = op;
  kc->inlined[kc->ninlined++] = fn;
  bool ok = kernel_compile_body(kc, r, &c->body);
  kc->ninlined--;
  kc->call = saved;
  k->aux = c;
  k->fn = x_call;
  return ok;
}
