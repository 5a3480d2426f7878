/* kernel.c - kernels: compiling gpu.func and gpu.launch bodies, and running them a block at a time,
 * one op for all threads of the block.
 *
 * Compiling. An analysis first decides which values are uniform (the same in every thread of a
 * block: constants, block ids and sizes, kernel arguments, and whatever only they feed) and which
 * vary (thread ids, shuffles, atomics, loads through varying addresses, results of control flow
 * that varying conditions steer, and every value of a multi-block region). A uniform value takes
 * one word per value word; a varying one a column of n words, n the threads of the block. Ops then
 * compile to KIns (kernel.h) as host ops compile to Ins.
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
 * gpu.barrier, gpu.all_reduce: in lock step every thread reaches a barrier together, so a barrier
 * is satisfied exactly when the mask is full; under a partial mask it is a divergent barrier, an
 * error naming the threads that reached it and those that did not.
 *
 * Memory: loads and stores are bounds-checked per thread (the error names the op, the index, the
 * thread and the block). The byte ranges they touch are merged (per op across threads, then per
 * run of blocks) and reported to the backend with be_kernel_access when the run of blocks ends, so
 * race detection sees every address the kernel touched at little cost. Shared and private memory
 * of a block is its own and is not reported. Atomics are not reported: they do not race with each
 * other, and the backend has no notion of an atomic access yet.
 *
 * Threads: a launch's blocks are cut into runs spread over the backend's workers
 * (be_kernel_parallel_for); each run has its own frame. Diagnostics and gpu.printf output take the
 * interpreter's gpu mutex; the first error of a launch stops its other blocks. */
#include "interp/kernel.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_PC UINT32_MAX
#define WARP 32
#define MAX_BLOCK_THREADS 1024
#define MAX_SHARED_BYTES (228u * 1024u)

typedef struct KAttr {
  uint32_t word;    /* the descriptor's first word */
  bool vary;        /* private (per thread) or shared (per block) */
  Type *type;
  size_t off;       /* in the block's shared memory, or in each thread's private memory */
} KAttr;

struct Kernel {
  Interp *in;
  Op *op;
  const char *loc;
  KBody body;
  uint32_t nu, nv;
  /* inputs: the gpu.func's arguments, or the host values a gpu.launch body uses */
  uint32_t ninputs, input_words;
  uint32_t *in_word, *in_words;
  /* gpu.launch body arguments: block ids, thread ids, grid sizes, block sizes */
  bool is_launch;
  uint32_t ids[12];
  bool ids_vary[12];
  KAttr *attrs;
  uint32_t nattrs;
  size_t shared_bytes, private_bytes;
  uint32_t depth;   /* deepest nesting of regions */
  uint32_t maxmove; /* most words one move carries */
};

typedef struct Launch {
  struct Launch *next;
  Kernel *k;
  Interp *in;
  Slot *inputs;
  uint32_t grid[3], block[3];
  size_t smem, nblocks, nruns;
  BeToken tok;
  atomic_int failed, done;
} Launch;

/* ---- diagnostics ---------------------------------------------------------------------------- */

int kernel_error(KFrame *f, const KIns *k, uint32_t lane, const char *fmt, ...) {
  Launch *L = f->L;
  if (atomic_exchange(&L->failed, 1))
    return EX_ERROR;
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  uint32_t x = lane % f->bdim[0], y = lane / f->bdim[0] % f->bdim[1], z = lane / (f->bdim[0] * f->bdim[1]);
  GpuState *gs = interp_gpu(L->in);
  pthread_mutex_lock(&gs->mu);
  if (lane == UINT32_MAX)
    ir_op_error(L->in->ctx, k->op, "%s (block (%u, %u, %u))", msg, f->bid[0], f->bid[1], f->bid[2]);
  else
    ir_op_error(L->in->ctx, k->op, "%s (thread (%u, %u, %u) of block (%u, %u, %u))", msg, x, y, z, f->bid[0],
                f->bid[1], f->bid[2]);
  pthread_mutex_unlock(&gs->mu);
  atomic_fetch_add(&gs->errors, 1);
  return EX_ERROR;
}

/* "(x, y, z), (x, y, z)" for up to 8 threads of list, then how many more */
static void thread_list(const KFrame *f, const uint32_t *list, uint32_t n, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < n && i < 8 && len < cap; i++) {
    uint32_t l = list[i];
    len += (size_t)snprintf(buf + len, cap - len, "%s(%u, %u, %u)", i ? ", " : "", l % f->bdim[0],
                            l / f->bdim[0] % f->bdim[1], l / (f->bdim[0] * f->bdim[1]));
  }
  if (n > 8 && len < cap)
    snprintf(buf + len, cap - len, " and %u more", n - 8);
}

/* An op all threads of the block must reach together, reached under a partial mask. */
static int divergent(KFrame *f, const KIns *k, const char *what) {
  uint32_t *missing = malloc(f->n * sizeof *missing);
  uint32_t nm = 0, j = 0;
  if (!missing)
    return kernel_error(f, k, f->act[0], "%s reached by only some threads", what);
  for (uint32_t l = 0; l < f->n; l++) {
    if (j < f->nact && f->act[j] == l)
      j++;
    else
      missing[nm++] = l;
  }
  char a[256], b[256];
  thread_list(f, f->act, f->nact, a, sizeof a);
  thread_list(f, missing, nm, b, sizeof b);
  free(missing);
  return kernel_error(f, k, UINT32_MAX, "divergent %s: %u of %u threads reached it: %s; %u did not: %s", what,
                      f->nact, f->n, a, nm, b);
}

/* ---- masks ---------------------------------------------------------------------------------- */

static uint32_t *push(KFrame *f) {
  if (f->top + f->n > f->cap)
    return NULL;
  uint32_t *p = f->stack + f->top;
  f->top += f->n;
  return p;
}

/* ---- running bodies ------------------------------------------------------------------------- */

static int run_block(KFrame *f, const KBlock *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    int r = b->ins[i].fn(f, &b->ins[i]);
    if (r == EX_ERROR)
      return EX_ERROR;
    if (r == EX_DONE)
      return EX_NEXT;
  }
  return EX_NEXT;
}

/* A multi-block region: each active thread has a next block; the lowest one runs next. */
static int run_cfg(KFrame *f, const KBody *b) {
  uint32_t *saved_act = f->act, saved_nact = f->nact, *saved_pc = f->pc;
  size_t saved_top = f->top;
  uint32_t *pc = push(f), *sub = push(f);
  int r = EX_NEXT;
  if (!pc || !sub)
    return kernel_error(f, b->blocks[0].ins, saved_act[0], "control flow nested too deeply");
  for (uint32_t i = 0; i < saved_nact; i++)
    pc[saved_act[i]] = 0;
  f->pc = pc;
  for (;;) {
    uint32_t min = EXIT_PC, n = 0;
    for (uint32_t i = 0; i < saved_nact; i++)
      if (pc[saved_act[i]] < min)
        min = pc[saved_act[i]];
    if (min == EXIT_PC)
      break;
    for (uint32_t i = 0; i < saved_nact; i++)
      if (pc[saved_act[i]] == min)
        sub[n++] = saved_act[i];
    f->act = sub;
    f->nact = n;
    const KBlock *blk = &b->blocks[min];
    uint32_t i = 0;
    int x = EX_NEXT;
    for (; i < blk->n && x == EX_NEXT; i++)
      x = blk->ins[i].fn(f, &blk->ins[i]);
    if (x == EX_ERROR) {
      r = EX_ERROR;
      break;
    }
    if (x == EX_NEXT) /* no terminator: leave */
      for (uint32_t j = 0; j < n; j++)
        pc[sub[j]] = EXIT_PC;
  }
  f->act = saved_act;
  f->nact = saved_nact;
  f->pc = saved_pc;
  f->top = saved_top;
  return r;
}

static int run_body(KFrame *f, const KBody *b) {
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

/* ---- compiling: which values vary ------------------------------------------------------------ */

typedef struct KComp {
  Interp *in;
  Kernel *k;
  Op *root;
  Value **caps;
  uint32_t *cap_word;
  uint32_t ncap, capcap;
  uint32_t depth;
} KComp;

static bool varies(const Value *v) { return (v->id & (KV_MINE | KV_VARY)) == (KV_MINE | KV_VARY); }

static void mark(Value *v, bool *changed) {
  if ((v->id & KV_MINE) && !(v->id & KV_VARY)) {
    v->id |= KV_VARY;
    *changed = true;
  }
}

static void claim_region(Region *r) {
  for (Block *b = r->first; b; b = b->next) {
    for (uint32_t i = 0; i < b->nargs; i++)
      b->args[i].id = KV_MINE;
    for (Op *o = b->first; o; o = o->next) {
      for (uint32_t i = 0; i < o->nresults; i++)
        o->results[i].id = KV_MINE;
      for (uint32_t i = 0; i < o->nregions; i++)
        claim_region(&o->regions[i]);
    }
  }
}

static bool name_in(Op *op, const char *const *names) {
  for (; *names; names++)
    if (ir_str_eq(op->name, *names))
      return true;
  return false;
}

static const char *const varying_ops[] = {"gpu.thread_id", "gpu.lane_id", "gpu.subgroup_id", "gpu.global_id",
                                          "gpu.shuffle", "gpu.subgroup_reduce", "memref.atomic_rmw",
                                          "memref.alloca", "scf.while", "scf.execute_region", NULL};
static const char *const uniform_ops[] = {"gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.subgroup_size",
                                          "gpu.num_subgroups", "gpu.dynamic_shared_memory", "gpu.all_reduce", NULL};

static Op *terminator(Region *r) { return r->first ? r->first->last : NULL; }

static void mark_region(Region *r, bool *changed);

static void mark_op(Op *op, bool multi, bool *changed) {
  bool any = multi;
  for (uint32_t i = 0; i < op->noperands; i++)
    any = any || varies(op->operands[i]);
  if (name_in(op, varying_ops)) {
    any = true;
  } else if (name_in(op, uniform_ops)) {
    any = multi;
  } else if (ir_str_eq(op->name, "scf.for") && op->regions[0].first) {
    Block *body = op->regions[0].first;
    Op *y = terminator(&op->regions[0]);
    bool bounds = varies(op->operands[0]) || varies(op->operands[1]) || varies(op->operands[2]);
    if (bounds && body->nargs)
      mark(&body->args[0], changed);
    for (uint32_t i = 0; i + 1 < body->nargs && i < op->nresults; i++) {
      if (bounds || multi || varies(op->operands[3 + i]) || (y && i < y->noperands && varies(y->operands[i])) ||
          varies(&body->args[i + 1]) || varies(&op->results[i])) {
        mark(&body->args[i + 1], changed);
        mark(&op->results[i], changed);
      }
    }
    any = false;
  } else if (ir_str_eq(op->name, "scf.if")) {
    Op *t = terminator(&op->regions[0]), *e = op->nregions > 1 ? terminator(&op->regions[1]) : NULL;
    for (uint32_t i = 0; i < op->nresults; i++)
      if (any || (t && i < t->noperands && varies(t->operands[i])) || (e && i < e->noperands && varies(e->operands[i])))
        mark(&op->results[i], changed);
    any = false;
  }
  if (ir_str_eq(op->name, "scf.while"))
    for (uint32_t k = 0; k < op->nregions; k++)
      for (Block *b = op->regions[k].first; b; b = b->next)
        for (uint32_t i = 0; i < b->nargs; i++)
          mark(&b->args[i], changed);
  if (any)
    for (uint32_t i = 0; i < op->nresults; i++)
      mark(&op->results[i], changed);
  for (uint32_t i = 0; i < op->nregions; i++)
    mark_region(&op->regions[i], changed);
}

static void mark_region(Region *r, bool *changed) {
  bool multi = r->first && r->first->next;
  for (Block *b = r->first; b; b = b->next) {
    if (multi && b != r->first)
      for (uint32_t i = 0; i < b->nargs; i++)
        mark(&b->args[i], changed);
    for (Op *o = b->first; o; o = o->next)
      mark_op(o, multi, changed);
  }
}

static void place(Kernel *k, Value *v) {
  uint32_t w = interp_words(v->type);
  if (varies(v)) {
    v->id = KV_MINE | KV_VARY | k->nv;
    k->nv += w;
  } else {
    v->id = KV_MINE | k->nu;
    k->nu += w;
  }
}

static void place_region(Kernel *k, Region *r) {
  for (Block *b = r->first; b; b = b->next) {
    for (uint32_t i = 0; i < b->nargs; i++)
      place(k, &b->args[i]);
    for (Op *o = b->first; o; o = o->next) {
      for (uint32_t i = 0; i < o->nresults; i++)
        place(k, &o->results[i]);
      for (uint32_t i = 0; i < o->nregions; i++)
        place_region(k, &o->regions[i]);
    }
  }
}

/* The word and variance of v; a value from outside a gpu.launch body becomes an input. */
static void operand(KComp *kc, Value *v, uint32_t *word, uint8_t *vary) {
  if (v->id & KV_MINE) {
    *word = v->id & KV_INDEX;
    *vary = (v->id & KV_VARY) != 0;
    return;
  }
  *vary = 0;
  for (uint32_t i = 0; i < kc->ncap; i++)
    if (kc->caps[i] == v) {
      *word = kc->cap_word[i];
      return;
    }
  if (kc->ncap == kc->capcap) {
    kc->capcap = kc->capcap ? kc->capcap * 2 : 16;
    Value **c = ir_alloc(kc->in->ctx, kc->capcap * sizeof *c);
    uint32_t *w = ir_alloc(kc->in->ctx, kc->capcap * sizeof *w);
    if (kc->ncap) {
      memcpy(c, kc->caps, kc->ncap * sizeof *c);
      memcpy(w, kc->cap_word, kc->ncap * sizeof *w);
    }
    kc->caps = c;
    kc->cap_word = w;
  }
  kc->caps[kc->ncap] = v;
  *word = kc->cap_word[kc->ncap++] = kc->k->nu;
  kc->k->nu += interp_words(v->type);
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
  for (uint32_t i = 0; i < n; i++) {
    operand(kc, src[i], &m->src[i], &m->vsrc[i]);
    operand(kc, dst[i], &m->dst[i], &m->vdst[i]);
    m->w[i] = interp_words(src[i]->type);
    m->total += m->w[i];
  }
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

static bool kunsupported(KComp *kc, Op *op, const char *what) {
  ir_op_error(kc->in->ctx, op, "%s is not supported in kernels yet", what);
  kc->in->errors++;
  return false;
}

static bool compile_body(KComp *kc, Region *r, KBody *out);

/* ---- control flow ----------------------------------------------------------------------------- */

typedef struct KCtl {
  KBody body, body2;
  KMoves *init, *results, *m2;
  uint32_t iv, cond;
  uint8_t iv_vary, cond_vary;
  int32_t target[2];
} KCtl;

static int x_yield(KFrame *f, const KIns *k) {
  run_moves(f, k->aux);
  if (f->pc)
    for (uint32_t i = 0; i < f->nact; i++)
      f->pc[f->act[i]] = EXIT_PC;
  return EX_DONE;
}

static bool c_kyield(KComp *kc, Op *op, KIns *k) {
  Op *parent = ir_op_parent_op(op);
  Value **dst = NULL;
  if (!parent)
    return kunsupported(kc, op, "a yield outside an op");
  if (ir_str_eq(parent->name, "scf.for"))
    dst = arg_ptrs(kc, parent->regions[0].first->args + 1, op->noperands);
  else if (ir_str_eq(parent->name, "scf.while"))
    dst = arg_ptrs(kc, parent->regions[0].first->args, op->noperands);
  else if (ir_str_eq(parent->name, "scf.if") || ir_str_eq(parent->name, "scf.execute_region") ||
           ir_str_eq(parent->name, "gpu.all_reduce"))
    dst = arg_ptrs(kc, parent->results, op->noperands);
  else if (!op->noperands && (ir_str_eq(op->name, "gpu.return") || ir_str_eq(op->name, "gpu.terminator")))
    dst = NULL;
  else
    return kunsupported(kc, op, "this terminator");
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
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    if (C[k->vin[0] ? l : 0].i & 1)
      t[nt++] = l;
    else
      e[ne++] = l;
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

static bool c_kbr(KComp *kc, Op *op, KIns *k) {
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  if (ir_str_eq(op->name, "cf.br")) {
    c->target[0] = (int32_t)op->succs[0]->id;
    c->init = moves(kc, op->operands, op->noperands, arg_ptrs(kc, op->succs[0]->args, op->noperands));
    k->fn = x_br;
  } else {
    Attr *seg = ir_op_attr(op, "operandSegmentSizes");
    if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 3)
      return kunsupported(kc, op, "this form of cf.cond_br");
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
    return run_body(f, (C[0].i & 1) ? &c->body : &c->body2);
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *t = push(f), *e = push(f), nt = 0, ne = 0;
  if (!t || !e)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    if (C[l].i & 1)
      t[nt++] = l;
    else
      e[ne++] = l;
  }
  int r = EX_NEXT;
  if (!ne) {
    f->top = top;
    return run_body(f, &c->body);
  }
  if (!nt) {
    f->top = top;
    return run_body(f, &c->body2);
  }
  f->act = t;
  f->nact = nt;
  r = run_body(f, &c->body);
  if (r != EX_ERROR) {
    f->act = e;
    f->nact = ne;
    r = run_body(f, &c->body2);
  }
  f->act = act;
  f->nact = nact;
  f->top = top;
  return r;
}

static bool c_kif(KComp *kc, Op *op, KIns *k) {
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  k->aux = c;
  k->fn = x_if;
  return compile_body(kc, &op->regions[0], &c->body) &&
         (op->nregions < 2 || compile_body(kc, &op->regions[1], &c->body2));
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
      if (run_body(f, &c->body) == EX_ERROR)
        return EX_ERROR;
      int64_t next = interp_sext((uint64_t)i + (uint64_t)step, k->a);
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
      if ((r = run_body(f, &c->body)) == EX_ERROR)
        break;
      for (uint32_t i = 0; i < n; i++) {
        uint32_t l = cur[i];
        int64_t next = interp_sext((uint64_t)iv[l].i + (uint64_t)ST[l * ss].i, k->a);
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

static bool c_kfor(KComp *kc, Op *op, KIns *k) {
  Block *body = op->regions[0].first;
  if (!body || body->nargs != op->noperands - 2 || ir_op_attr(op, "unsignedCmp"))
    return kunsupported(kc, op, "this form of scf.for");
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  operand(kc, &body->args[0], &c->iv, &c->iv_vary);
  uint32_t n = op->noperands - 3;
  c->init = moves(kc, op->operands + 3, n, arg_ptrs(kc, body->args + 1, n));
  c->results = moves(kc, arg_ptrs(kc, body->args + 1, n), n, arg_ptrs(kc, op->results, n));
  k->a = interp_int_width(body->args[0].type);
  k->aux = c;
  k->fn = x_for;
  return compile_body(kc, &op->regions[0], &c->body);
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
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = act[i];
    if (C[k->vin[0] ? l : 0].i & 1)
      t[nt++] = l;
    else
      e[ne++] = l;
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

static bool c_kcondition(KComp *kc, Op *op, KIns *k) {
  Op *w = ir_op_parent_op(op);
  if (!w || !ir_str_eq(w->name, "scf.while") || !w->regions[1].first)
    return kunsupported(kc, op, "scf.condition outside scf.while");
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
  uint32_t *act = f->act, nact = f->nact;
  size_t top = f->top;
  uint32_t *cur = push(f), n = nact;
  if (!cur)
    return kernel_error(f, k, act[0], "control flow nested too deeply");
  memcpy(cur, act, nact * sizeof *cur);
  int r = EX_NEXT;
  while (n) {
    f->act = cur;
    f->nact = n;
    if ((r = run_body(f, &c->body)) == EX_ERROR)
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
    if ((r = run_body(f, &c->body2)) == EX_ERROR)
      break;
  }
  f->act = act;
  f->nact = nact;
  f->top = top;
  return r;
}

static bool c_kwhile(KComp *kc, Op *op, KIns *k) {
  Block *before = op->regions[0].first;
  Op *cond = before ? before->last : NULL;
  if (!cond || !ir_str_eq(cond->name, "scf.condition") || before->next)
    return kunsupported(kc, op, "this form of scf.while");
  KCtl *c = ir_alloc(kc->in->ctx, sizeof *c);
  c->init = moves(kc, op->operands, op->noperands, arg_ptrs(kc, before->args, op->noperands));
  operand(kc, cond->operands[0], &c->cond, &c->cond_vary);
  k->aux = c;
  k->fn = x_while;
  return compile_body(kc, &op->regions[0], &c->body) && compile_body(kc, &op->regions[1], &c->body2);
}

static int x_execute_region(KFrame *f, const KIns *k) { return run_body(f, k->aux); }

static bool c_kexecute_region(KComp *kc, Op *op, KIns *k) {
  KBody *b = ir_alloc(kc->in->ctx, sizeof *b);
  k->aux = b;
  k->fn = x_execute_region;
  return compile_body(kc, &op->regions[0], b);
}

/* ---- ids and sizes ---------------------------------------------------------------------------- */

static uint32_t dim_of(Op *op) {
  Attr *a = ir_op_attr(op, "dimension");
  if (a && a->kind == ATTR_OPAQUE && a->u.str.len >= 2) {
    char c = a->u.str.s[a->u.str.len - 2];
    return c == 'z' ? 2 : c == 'y' ? 1 : 0;
  }
  return 0;
}

static int x_thread_id(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  uint32_t bx = f->bdim[0], by = f->bdim[1];
  switch (k->a) {
  case 0:
    if (bx == f->n)
      KLANES(f, l, { O[l].i = l; });
    else
      KLANES(f, l, { O[l].i = l % bx; });
    break;
  case 1: KLANES(f, l, { O[l].i = l / bx % by; }); break;
  default: KLANES(f, l, { O[l].i = l / (bx * by); }); break;
  }
  return EX_NEXT;
}

static int x_global_id(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  uint32_t bx = f->bdim[0], by = f->bdim[1], d = k->a;
  int64_t base = (int64_t)f->bid[d] * f->bdim[d];
  KLANES(f, l, { O[l].i = base + (d == 0 ? l % bx : d == 1 ? l / bx % by : l / (bx * by)); });
  return EX_NEXT;
}

static int x_block_q(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  int64_t v;
  switch (k->b) {
  case 0: v = f->bid[k->a]; break;
  case 1: v = f->bdim[k->a]; break;
  case 2: v = f->gdim[k->a]; break;
  case 3: v = WARP; break;
  default: v = (f->n + WARP - 1) / WARP; break;
  }
  if (!k->vout[0]) {
    O[0].i = v;
    return EX_NEXT;
  }
  KLANES(f, l, { O[l].i = v; });
  return EX_NEXT;
}

static int x_lane_q(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  if (k->b)
    KLANES(f, l, { O[l].i = l / WARP; });
  else
    KLANES(f, l, { O[l].i = l % WARP; });
  return EX_NEXT;
}

static bool c_kid(KComp *kc, Op *op, KIns *k) {
  (void)kc;
  k->a = dim_of(op);
  if (ir_str_eq(op->name, "gpu.thread_id"))
    k->fn = x_thread_id;
  else if (ir_str_eq(op->name, "gpu.global_id"))
    k->fn = x_global_id;
  else if (ir_str_eq(op->name, "gpu.lane_id") || ir_str_eq(op->name, "gpu.subgroup_id")) {
    k->b = ir_str_eq(op->name, "gpu.subgroup_id");
    k->fn = x_lane_q;
  } else {
    k->b = ir_str_eq(op->name, "gpu.block_id")        ? 0
           : ir_str_eq(op->name, "gpu.block_dim")     ? 1
           : ir_str_eq(op->name, "gpu.grid_dim")      ? 2
           : ir_str_eq(op->name, "gpu.subgroup_size") ? 3
                                                      : 4;
    k->fn = x_block_q;
  }
  return true;
}

/* ---- barriers, shuffles, reductions ---------------------------------------------------------- */

static int x_barrier(KFrame *f, const KIns *k) {
  if (f->nact != f->n)
    return divergent(f, k, "barrier");
  return EX_NEXT;
}

static bool c_kbarrier(KComp *kc, Op *op, KIns *k) {
  (void)kc;
  (void)op;
  k->fn = x_barrier;
  return true;
}

/* k->a: 0 xor, 1 up, 2 down, 3 idx */
static int x_shuffle(KFrame *f, const KIns *k) {
  const Slot *V = KIN(f, k, 0), *OFF = KIN(f, k, 1), *WID = KIN(f, k, 2);
  Slot *O = KOUT(f, k, 0), *VALID = KOUT(f, k, 1);
  size_t sv = k->vin[0], so = k->vin[1], sw = k->vin[2];
  int r = EX_NEXT;
  KLANES(f, l, {
    int64_t off = (int32_t)OFF[l * so].i, width = (int32_t)WID[l * sw].i;
    if (width <= 0 || width > WARP) {
      r = kernel_error(f, k, l, "shuffle width %lld is not in [1, %d]", (long long)width, WARP);
      break;
    }
    int64_t ln = l % WARP, base = (int64_t)l - ln, seg = ln / width * width, src;
    bool ok;
    switch (k->a) {
    case 0: src = ln ^ off; ok = src >= 0 && src / width == ln / width; break;
    case 1: src = ln - off; ok = src >= seg; break;
    case 2: src = ln + off; ok = src < seg + width; break;
    default: src = seg + off; ok = off >= 0 && src < seg + width; break;
    }
    ok = ok && src >= 0 && src < WARP && base + src < (int64_t)f->n;
    O[l] = V[(ok ? (size_t)(base + src) : l) * sv];
    VALID[l].i = ok ? -1 : 0;
  });
  return r;
}

static const char *const shuffle_modes[] = {"xor", "up", "down", "idx", NULL};
static const char *const reduce_kinds[] = {"add", "mul", "minsi", "minui", "minnumf", "maxsi", "maxui",
                                           "maxnumf", "and", "or", "xor", "minimumf", "maximumf", NULL};

/* the index in kws of the keyword of an opaque `#gpu<... kw>` attribute, or -1 */
static int enum_kw(Attr *a, const char *const *kws) {
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len < 2)
    return -1;
  const char *end = a->u.str.s + a->u.str.len - 1, *p = end;
  while (p > a->u.str.s && p[-1] != ' ')
    p--;
  for (int i = 0; kws[i]; i++)
    if ((size_t)(end - p) == strlen(kws[i]) && !memcmp(p, kws[i], (size_t)(end - p)))
      return i;
  return -1;
}

static bool c_kshuffle(KComp *kc, Op *op, KIns *k) {
  int m = enum_kw(ir_op_attr(op, "mode"), shuffle_modes);
  if (m < 0 || interp_words(op->operands[0]->type) != 1)
    return kunsupported(kc, op, "this shuffle");
  k->a = (uint32_t)m;
  k->fn = x_shuffle;
  return true;
}

typedef struct KReduce {
  int kind;          /* index in reduce_kinds, or -1 for the region form */
  bool is_float, f64;
  uint32_t w;
  KBody body;
  uint32_t lhs, rhs; /* region arguments (uniform) */
  int32_t cluster, stride;
} KReduce;

static Slot combine(const KReduce *r, Slot a, Slot b) {
  Slot o = {0};
  if (r->is_float) {
    double x = r->f64 ? a.f : a.f32, y = r->f64 ? b.f : b.f32, z;
    switch (r->kind) {
    case 0: z = x + y; break;
    case 1: z = x * y; break;
    case 4: case 2: case 3: z = fmin(x, y); break;
    case 7: case 5: case 6: z = fmax(x, y); break;
    case 11: z = (x != x || y != y) ? x + y : (x == y ? (signbit(x) ? x : y) : (x < y ? x : y)); break;
    case 12: z = (x != x || y != y) ? x + y : (x == y ? (signbit(x) ? y : x) : (x > y ? x : y)); break;
    default: z = x; break;
    }
    if (r->f64)
      o.f = z;
    else if (r->kind == 0)
      o.f32 = a.f32 + b.f32;
    else if (r->kind == 1)
      o.f32 = a.f32 * b.f32;
    else
      o.f32 = (float)z;
    return o;
  }
  int64_t x = a.i, y = b.i;
  uint64_t ux = interp_zext(x, r->w), uy = interp_zext(y, r->w);
  int64_t z;
  switch (r->kind) {
  case 0: z = (int64_t)((uint64_t)x + (uint64_t)y); break;
  case 1: z = (int64_t)((uint64_t)x * (uint64_t)y); break;
  case 2: z = x < y ? x : y; break;
  case 3: z = ux < uy ? x : y; break;
  case 5: z = x > y ? x : y; break;
  case 6: z = ux > uy ? x : y; break;
  case 8: z = x & y; break;
  case 9: z = x | y; break;
  case 10: z = x ^ y; break;
  default: z = x; break;
  }
  o.i = interp_sext((uint64_t)z, r->w);
  return o;
}

static int x_all_reduce(KFrame *f, const KIns *k) {
  const KReduce *r = k->aux;
  if (f->nact != f->n)
    return divergent(f, k, "gpu.all_reduce");
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Slot *O = KOUT(f, k, 0);
  if (r->kind >= 0) {
    Slot acc = V[0];
    for (uint32_t l = 1; l < f->n; l++)
      acc = combine(r, acc, V[l * sv]);
    O[0] = acc;
    return EX_NEXT;
  }
  Slot *lhs = kw(f, r->lhs, false), *rhs = kw(f, r->rhs, false);
  O[0] = V[0];
  for (uint32_t l = 1; l < f->n; l++) {
    *lhs = O[0];
    *rhs = V[l * sv];
    if (run_body(f, &r->body) == EX_ERROR)
      return EX_ERROR;
  }
  return EX_NEXT;
}

static int x_subgroup_reduce(KFrame *f, const KIns *k) {
  const KReduce *r = k->aux;
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Slot *O = KOUT(f, k, 0);
  uint32_t cs = (uint32_t)r->cluster, st = (uint32_t)r->stride;
  KLANES(f, l, {
    uint32_t ln = l % WARP, base = l - ln, start = base + ln / (st * cs) * (st * cs) + ln % st;
    Slot acc = {0};
    bool first = true;
    for (uint32_t i = 0; i < cs; i++) {
      uint32_t m = start + i * st;
      if (m >= f->n)
        break;
      acc = first ? V[m * sv] : combine(r, acc, V[m * sv]);
      first = false;
    }
    O[l] = acc;
  });
  return EX_NEXT;
}

static bool c_kreduce(KComp *kc, Op *op, KIns *k) {
  KReduce *r = ir_alloc(kc->in->ctx, sizeof *r);
  Type *t = op->operands[0]->type;
  r->kind = enum_kw(ir_op_attr(op, "op"), reduce_kinds);
  r->is_float = t->kind == TY_FLOAT;
  r->f64 = r->is_float && t->u.f == F_F64;
  r->w = interp_int_width(t);
  if ((r->is_float && t->u.f != F_F32 && t->u.f != F_F64) || (!r->is_float && !r->w))
    return kunsupported(kc, op, "a reduction of this type");
  static const bool float_kind[] = {1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1};
  static const bool int_kind[] = {1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0};
  if (r->kind >= 0 && !(r->is_float ? float_kind : int_kind)[r->kind])
    return kunsupported(kc, op, "this reduction on this type");
  k->aux = r;
  if (ir_str_eq(op->name, "gpu.subgroup_reduce")) {
    Attr *cs = ir_op_attr(op, "cluster_size"), *st = ir_op_attr(op, "cluster_stride");
    r->cluster = cs && cs->kind == ATTR_INT ? (int32_t)cs->u.i.v : WARP;
    r->stride = st && st->kind == ATTR_INT ? (int32_t)st->u.i.v : 1;
    if (r->cluster <= 0 || r->stride <= 0 || r->cluster * r->stride > WARP)
      return kunsupported(kc, op, "this cluster size and stride");
    k->fn = x_subgroup_reduce;
    return true;
  }
  k->fn = x_all_reduce;
  if (r->kind >= 0)
    return true;
  Block *b = op->regions[0].first;
  if (!b || b->nargs != 2)
    return kunsupported(kc, op, "a gpu.all_reduce without an op or a two-argument region");
  uint8_t v1, v2;
  operand(kc, &b->args[0], &r->lhs, &v1);
  operand(kc, &b->args[1], &r->rhs, &v2);
  if (v1 || v2)
    return kunsupported(kc, op, "a gpu.all_reduce region with varying arguments");
  return compile_body(kc, &op->regions[0], &r->body);
}

/* ---- gpu.printf --------------------------------------------------------------------------------- */

typedef struct KPrintf {
  Str fmt;
  Type **types;
} KPrintf;

typedef struct Buf {
  char *s;
  size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *p = realloc(b->s, cap);
    if (!p)
      return;
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

/* One thread's line: the format with each conversion taking the next argument (printf's rules,
 * as CUDA's vprintf: floats are passed as double, integers by their width). */
static void format_one(const KFrame *f, const KIns *k, const KPrintf *p, uint32_t l, Buf *out) {
  const char *s = p->fmt.s, *end = s + p->fmt.len;
  uint32_t arg = 0;
  while (s < end) {
    const char *pct = memchr(s, '%', (size_t)(end - s));
    if (!pct) {
      buf_add(out, s, (size_t)(end - s));
      break;
    }
    buf_add(out, s, (size_t)(pct - s));
    const char *q = pct + 1;
    if (q < end && *q == '%') {
      buf_add(out, "%", 1);
      s = q + 1;
      continue;
    }
    char spec[48];
    size_t n = 0;
    spec[n++] = '%';
    while (q < end && strchr("-+ #0", *q) && n < 20)
      spec[n++] = *q++;
    while (q < end && ((*q >= '0' && *q <= '9') || *q == '.') && n < 40)
      spec[n++] = *q++;
    while (q < end && strchr("hlLzjt", *q))
      q++;
    if (q >= end)
      break;
    char conv = *q++;
    s = q;
    char tmp[128];
    if (arg >= k->nin) {
      buf_add(out, pct, (size_t)(q - pct));
      continue;
    }
    Slot v = kw(f, k->in[arg], k->vin[arg])[k->vin[arg] ? l : 0];
    Type *t = p->types[arg++];
    bool fl = t->kind == TY_FLOAT;
    double dv = fl ? (t->u.f == F_F64 ? v.f : (double)v.f32) : (double)v.i;
    uint32_t w = fl ? 64 : interp_int_width(t);
    int len;
    switch (conv) {
    case 'd': case 'i':
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? (long long)dv : (long long)v.i);
      break;
    case 'u': case 'x': case 'X': case 'o':
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? (unsigned long long)dv : (unsigned long long)interp_zext(v.i, w));
      break;
    case 'c':
      spec[n++] = 'c', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (int)v.i);
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? dv : (double)v.i);
      break;
    case 'p':
      len = snprintf(tmp, sizeof tmp, "%p", v.p);
      break;
    default:
      len = snprintf(tmp, sizeof tmp, "%.*s", (int)(q - pct), pct);
      break;
    }
    if (len > 0)
      buf_add(out, tmp, (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1);
  }
}

static int x_printf(KFrame *f, const KIns *k) {
  const KPrintf *p = k->aux;
  Buf b = {0};
  KLANES(f, l, { format_one(f, k, p, l, &b); });
  if (b.n) {
    GpuState *gs = interp_gpu(f->L->in);
    pthread_mutex_lock(&gs->mu);
    fwrite(b.s, 1, b.n, f->L->in->out);
    pthread_mutex_unlock(&gs->mu);
  }
  free(b.s);
  return EX_NEXT;
}

static bool c_kprintf(KComp *kc, Op *op, KIns *k) {
  Attr *fmt = ir_op_attr(op, "format");
  if (!fmt || fmt->kind != ATTR_STRING)
    return kunsupported(kc, op, "a gpu.printf without a format");
  KPrintf *p = ir_alloc(kc->in->ctx, sizeof *p);
  p->fmt = fmt->u.str;
  p->types = ir_alloc(kc->in->ctx, (op->noperands + 1) * sizeof *p->types);
  for (uint32_t i = 0; i < op->noperands; i++) {
    p->types[i] = op->operands[i]->type;
    if (interp_words(p->types[i]) != 1)
      return kunsupported(kc, op, "a gpu.printf argument of this type");
  }
  k->aux = p;
  k->fn = x_printf;
  return true;
}

/* ---- memory ------------------------------------------------------------------------------------ */

#define D_ALLOC 0
#define D_ALIGNED 1
#define D_OFFSET 2
#define D_SIZES 3

static int cmp_range(const void *a, const void *b) {
  const KRange *x = a, *y = b;
  if (x->write != y->write)
    return x->write ? 1 : -1;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void compact(KFrame *f) {
  if (f->nacc < 2)
    return;
  qsort(f->acc, f->nacc, sizeof *f->acc, cmp_range);
  size_t j = 0;
  for (size_t i = 1; i < f->nacc; i++) {
    KRange *c = &f->acc[j], *r = &f->acc[i];
    if (r->write == c->write && r->lo <= c->hi) {
      if (r->hi > c->hi)
        c->hi = r->hi;
    } else {
      f->acc[++j] = *r;
    }
  }
  f->nacc = j + 1;
}

static void note(KFrame *f, uintptr_t lo, uintptr_t hi, bool write, const char *loc) {
  if (f->nacc == f->capacc) {
    compact(f);
    if (f->nacc * 4 >= f->capacc * 3) {
      size_t cap = f->capacc ? f->capacc * 2 : 1024;
      KRange *r = realloc(f->acc, cap * sizeof *r);
      if (!r)
        return; /* lose the record, not the access */
      f->acc = r;
      f->capacc = cap;
    }
  }
  f->acc[f->nacc++] = (KRange){lo, hi, loc, write};
}

/* Consecutive threads' accesses, merged while they stay contiguous. */
typedef struct Run {
  uintptr_t lo, hi;
} Run;

static inline void run_add(KFrame *f, Run *r, const void *p, size_t bytes, bool write, const char *loc) {
  uintptr_t a = (uintptr_t)p;
  if ((char *)p >= f->lo && (char *)p < f->hi)
    return;
  if (a >= r->lo && a + bytes <= r->hi)
    return;
  if (a == r->hi && r->hi) {
    r->hi += bytes;
    return;
  }
  if (r->hi)
    note(f, r->lo, r->hi, write, loc);
  r->lo = a;
  r->hi = a + bytes;
}

static inline void run_end(KFrame *f, Run *r, bool write, const char *loc) {
  if (r->hi)
    note(f, r->lo, r->hi, write, loc);
}

/* Reports what the frame recorded; false when the backend refused an access (reported). */
static bool flush_accesses(KFrame *f) {
  compact(f);
  bool ok = true;
  for (size_t i = 0; i < f->nacc && ok; i++)
    ok = be_kernel_access(f->ctx, (void *)f->acc[i].lo, f->acc[i].hi - f->acc[i].lo, f->acc[i].write,
                          f->acc[i].loc) == BE_OK;
  f->nacc = 0;
  return ok;
}

typedef struct KMem {
  Type *elem;
  uint32_t rank, esize;
  uint32_t first; /* first index operand */
  int kind;       /* atomic_rmw: the kind */
} KMem;

/* The address of the element thread l indexes, or NULL after an error. */
static inline char *address(KFrame *f, const KIns *k, const KMem *m, uint32_t dop, uint32_t l) {
  bool vd = k->vin[dop];
  uint32_t d = k->in[dop];
  size_t ld = vd ? l : 0;
  int64_t off = kw(f, d + D_OFFSET, vd)[ld].i;
  for (uint32_t i = 0; i < m->rank; i++) {
    uint32_t j = m->first + i;
    int64_t x = kw(f, k->in[j], k->vin[j])[k->vin[j] ? l : 0].i, n = kw(f, d + D_SIZES + i, vd)[ld].i;
    if (x < 0 || x >= n) {
      kernel_error(f, k, l, "out-of-bounds access: index %lld is not in [0, %lld) in dimension %u", (long long)x,
                   (long long)n, i);
      return NULL;
    }
    off += x * kw(f, d + D_SIZES + m->rank + i, vd)[ld].i;
  }
  return (char *)kw(f, d + D_ALIGNED, vd)[ld].p + off * (int64_t)m->esize;
}

static inline void load_elem(const KMem *m, const char *p, Slot *o) {
  if (m->esize == 4 && m->elem->kind == TY_FLOAT) {
    Slot r = {0};
    memcpy(&r.f32, p, 4);
    *o = r;
  } else if (m->esize == 4) {
    int32_t v;
    memcpy(&v, p, 4);
    o->i = m->elem->u.i.width == 32 ? v : interp_sext((uint32_t)v, m->elem->u.i.width);
  } else if (m->esize == 8) {
    memcpy(o, p, 8);
  } else {
    interp_load_elem(m->elem, p, o);
  }
}

static inline void store_elem(const KMem *m, char *p, const Slot *v) {
  if (m->esize == 4 && m->elem->kind == TY_FLOAT)
    memcpy(p, &v->f32, 4);
  else if (m->esize == 4 || m->esize == 8)
    memcpy(p, v, m->esize);
  else
    interp_store_elem(m->elem, p, v);
}

static int x_load(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  Slot *O = KOUT(f, k, 0);
  Run r = {0, 0};
  if (!k->vout[0]) {
    char *p = address(f, k, m, 0, f->act[0]);
    if (!p)
      return EX_ERROR;
    run_add(f, &r, p, m->esize, false, k->loc);
    run_end(f, &r, false, k->loc);
    load_elem(m, p, O);
    return EX_NEXT;
  }
  int res = EX_NEXT;
  KLANES(f, l, {
    char *p = address(f, k, m, 0, l);
    if (!p) {
      res = EX_ERROR;
      break;
    }
    run_add(f, &r, p, m->esize, false, k->loc);
    load_elem(m, p, &O[l]);
  });
  run_end(f, &r, false, k->loc);
  return res;
}

static int x_store(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Run r = {0, 0};
  int res = EX_NEXT;
  KLANES(f, l, {
    char *p = address(f, k, m, 1, l);
    if (!p) {
      res = EX_ERROR;
      break;
    }
    run_add(f, &r, p, m->esize, true, k->loc);
    store_elem(m, p, &V[l * sv]);
  });
  run_end(f, &r, true, k->loc);
  return res;
}

/* atomic_rmw kinds, in arith's order: addf addi andi assign maximumf maxnumf maxs maxu minimumf
 * minnumf mins minu mulf muli ori xori */
static Slot rmw(const KMem *m, int kind, Slot old, Slot v) {
  KReduce r = {0};
  static const int as_reduce[] = {0, 0, 8, -1, 12, 7, 5, 6, 11, 4, 2, 3, 1, 1, 9, 10};
  if (kind == 3)
    return v;
  r.kind = as_reduce[kind];
  r.is_float = m->elem->kind == TY_FLOAT;
  r.f64 = r.is_float && m->elem->u.f == F_F64;
  r.w = interp_int_width(m->elem);
  return combine(&r, old, v);
}

static int x_atomic(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  const Slot *V = KIN(f, k, 0);
  Slot *O = KOUT(f, k, 0);
  size_t sv = k->vin[0];
  int res = EX_NEXT;
  KLANES(f, l, {
    char *p = address(f, k, m, 1, l);
    if (!p) {
      res = EX_ERROR;
      break;
    }
    if (m->esize == 4) {
      uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST), nw;
      Slot o, n;
      do {
        uint64_t buf = 0, ob = old;
        load_elem(m, (const char *)&ob, &o);
        n = rmw(m, m->kind, o, V[l * sv]);
        store_elem(m, (char *)&buf, &n);
        memcpy(&nw, &buf, 4);
      } while (!__atomic_compare_exchange_n((uint32_t *)p, &old, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
      O[l] = o;
    } else {
      uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST), nw;
      Slot o, n;
      do {
        load_elem(m, (const char *)&old, &o);
        n = rmw(m, m->kind, o, V[l * sv]);
        store_elem(m, (char *)&nw, &n);
      } while (!__atomic_compare_exchange_n((uint64_t *)p, &old, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
      O[l] = o;
    }
  });
  return res;
}

static bool c_kmem(KComp *kc, Op *op, KIns *k) {
  bool load = ir_str_eq(op->name, "memref.load"), atomic = ir_str_eq(op->name, "memref.atomic_rmw");
  uint32_t dop = load ? 0 : 1;
  Type *t = op->operands[dop]->type;
  if (t->kind != TY_MEMREF)
    return kunsupported(kc, op, "access through an unranked memref");
  KMem *m = ir_alloc(kc->in->ctx, sizeof *m);
  m->elem = t->u.sh.elem;
  m->rank = t->u.sh.rank;
  m->esize = interp_elem_bytes(m->elem);
  m->first = dop + 1;
  if (!m->esize || m->elem->kind == TY_VECTOR)
    return kunsupported(kc, op, "memory of this element type");
  if (atomic) {
    Attr *kind = ir_op_attr(op, "kind");
    if (!kind || kind->kind != ATTR_INT || kind->u.i.v < 0 || kind->u.i.v > 15 || (m->esize != 4 && m->esize != 8))
      return kunsupported(kc, op, "this atomic");
    m->kind = (int)kind->u.i.v;
  }
  k->aux = m;
  k->fn = load ? x_load : atomic ? x_atomic : x_store;
  return true;
}

/* Row-major descriptor words for a memref of type t at base (sizes: static, or from dyn). */
static void describe(Slot *d, size_t stride, const Type *t, char *base, const int64_t *dyn) {
  uint32_t rank = t->u.sh.rank, nd = 0;
  d[D_ALLOC * stride].p = base;
  d[D_ALIGNED * stride].p = base;
  d[D_OFFSET * stride].i = 0;
  int64_t st = 1;
  int64_t sizes[16];
  for (uint32_t i = 0; i < rank && i < 16; i++)
    sizes[i] = t->u.sh.shape[i] == IR_DYNAMIC ? dyn[nd++] : t->u.sh.shape[i];
  for (uint32_t i = rank; i-- > 0;) {
    d[(D_SIZES + i) * stride].i = sizes[i];
    d[(D_SIZES + rank + i) * stride].i = st;
    st *= sizes[i];
  }
}

static size_t static_bytes(const Type *t) {
  size_t n = interp_elem_bytes(t->u.sh.elem);
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    n *= (size_t)t->u.sh.shape[i];
  return n;
}

static bool static_memref(const Type *t) {
  if (t->kind != TY_MEMREF || t->u.sh.layout || t->u.sh.rank > 16 || !interp_elem_bytes(t->u.sh.elem))
    return false;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.shape[i] == IR_DYNAMIC)
      return false;
  return true;
}

/* memref.alloca in a kernel: private memory of each thread. */
static int x_alloca(KFrame *f, const KIns *k) {
  const KAttr *a = k->aux;
  KLANES(f, l, {
    Slot *d = kw(f, k->out[0], true) + l;
    describe(d, f->n, a->type, f->priv + l * f->priv_stride + a->off, NULL);
  });
  return EX_NEXT;
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

static bool c_kalloca(KComp *kc, Op *op, KIns *k) {
  Type *t = op->results[0].type;
  if (!static_memref(t) || op->noperands)
    return kunsupported(kc, op, "a memref.alloca of dynamic shape or with a layout");
  KAttr *a = ir_alloc(kc->in->ctx, sizeof *a);
  a->type = t;
  a->vary = true;
  a->off = kc->k->private_bytes;
  kc->k->private_bytes += align16(static_bytes(t));
  k->aux = a;
  k->fn = x_alloca;
  return true;
}

static int x_dynamic_shared(KFrame *f, const KIns *k) {
  int64_t n = (int64_t)f->smem_bytes;
  describe(KOUT(f, k, 0), 1, k->aux, f->smem, &n);
  return EX_NEXT;
}

static bool c_kdynamic_shared(KComp *kc, Op *op, KIns *k) {
  Type *t = op->results[0].type;
  if (t->kind != TY_MEMREF || t->u.sh.rank != 1 || interp_elem_bytes(t->u.sh.elem) != 1)
    return kunsupported(kc, op, "dynamic shared memory of this type");
  k->aux = t;
  k->fn = x_dynamic_shared;
  return true;
}

/* memref.view %src[%byte_shift][%sizes]: a contiguous memref over i8 memory */
static int x_view(KFrame *f, const KIns *k) {
  const Type *t = k->aux;
  uint32_t nd = k->nin - 2;
  int64_t dyn[16];
  int r = EX_NEXT;
  bool vary = k->vout[0];
  uint32_t n = vary ? f->nact : 1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = vary ? f->act[i] : f->act[0];
    size_t ls = vary ? l : 0;
    bool vs = k->vin[0];
    Slot *S = kw(f, k->in[0], vs);
    size_t sl = vs ? l : 0;
    int64_t shift = KIN(f, k, 1)[k->vin[1] ? l : 0].i, total = S[(D_SIZES)*(vs ? f->n : 1) + sl].i;
    for (uint32_t j = 0; j < nd && j < 16; j++)
      dyn[j] = KIN(f, k, 2 + j)[k->vin[2 + j] ? l : 0].i;
    char *base = (char *)S[D_ALIGNED * (vs ? f->n : 1) + sl].p + S[D_OFFSET * (vs ? f->n : 1) + sl].i;
    Slot *D = KOUT(f, k, 0) + ls;
    describe(D, vary ? f->n : 1, t, base + shift, dyn);
    D[D_ALLOC * (vary ? f->n : 1)].p = S[D_ALLOC * (vs ? f->n : 1) + sl].p;
    int64_t bytes = interp_elem_bytes(t->u.sh.elem);
    for (uint32_t j = 0; j < t->u.sh.rank; j++)
      bytes *= D[(D_SIZES + j) * (vary ? f->n : 1)].i;
    if (shift < 0 || shift + bytes > total) {
      r = kernel_error(f, k, l, "the view [%lld, %lld) is outside its source of %lld bytes", (long long)shift,
                       (long long)(shift + bytes), (long long)total);
      break;
    }
  }
  return r;
}

static bool c_kview(KComp *kc, Op *op, KIns *k) {
  Type *s = op->operands[0]->type, *t = op->results[0].type;
  if (s->kind != TY_MEMREF || s->u.sh.rank != 1 || t->kind != TY_MEMREF || t->u.sh.layout || t->u.sh.rank > 16)
    return kunsupported(kc, op, "this memref.view");
  k->aux = t;
  k->fn = x_view;
  return true;
}

/* ---- compiling ops and bodies ---------------------------------------------------------------- */

typedef bool (*KCompileFn)(KComp *kc, Op *op, KIns *k);

static const struct {
  const char *name;
  KCompileFn fn;
} kops[] = {
  {"scf.for", c_kfor},
  {"scf.if", c_kif},
  {"scf.while", c_kwhile},
  {"scf.condition", c_kcondition},
  {"scf.yield", c_kyield},
  {"scf.execute_region", c_kexecute_region},
  {"cf.br", c_kbr},
  {"cf.cond_br", c_kbr},
  {"gpu.return", c_kyield},
  {"gpu.terminator", c_kyield},
  {"gpu.yield", c_kyield},
  {"gpu.thread_id", c_kid},
  {"gpu.block_id", c_kid},
  {"gpu.block_dim", c_kid},
  {"gpu.grid_dim", c_kid},
  {"gpu.global_id", c_kid},
  {"gpu.lane_id", c_kid},
  {"gpu.subgroup_id", c_kid},
  {"gpu.subgroup_size", c_kid},
  {"gpu.num_subgroups", c_kid},
  {"gpu.barrier", c_kbarrier},
  {"gpu.shuffle", c_kshuffle},
  {"gpu.all_reduce", c_kreduce},
  {"gpu.subgroup_reduce", c_kreduce},
  {"gpu.printf", c_kprintf},
  {"gpu.dynamic_shared_memory", c_kdynamic_shared},
  {"memref.load", c_kmem},
  {"memref.store", c_kmem},
  {"memref.atomic_rmw", c_kmem},
  {"memref.alloca", c_kalloca},
  {"memref.view", c_kview},
};

static const char *const host_ops[] = {"memref.dim", "memref.cast", "memref.subview",
                                       "memref.extract_aligned_pointer_as_index",
                                       "builtin.unrealized_conversion_cast", NULL};

static bool compile_op(KComp *kc, Op *op, KIns *k) {
  IrCtx *ctx = kc->in->ctx;
  k->op = op;
  k->loc = interp_loc(&(Comp){kc->in, NULL, 0}, op);
  k->nin = op->noperands;
  k->nout = op->nresults;
  k->in = ir_alloc(ctx, (k->nin + 1) * sizeof *k->in);
  k->win = ir_alloc(ctx, (k->nin + 1) * sizeof *k->win);
  k->vin = ir_alloc(ctx, k->nin + 1);
  k->out = ir_alloc(ctx, (k->nout + 1) * sizeof *k->out);
  k->wout = ir_alloc(ctx, (k->nout + 1) * sizeof *k->wout);
  k->vout = ir_alloc(ctx, k->nout + 1);
  for (uint32_t i = 0; i < k->nin; i++) {
    operand(kc, op->operands[i], &k->in[i], &k->vin[i]);
    k->win[i] = interp_words(op->operands[i]->type);
  }
  for (uint32_t i = 0; i < k->nout; i++) {
    operand(kc, &op->results[i], &k->out[i], &k->vout[i]);
    k->wout[i] = interp_words(op->results[i].type);
  }
  for (size_t i = 0; i < sizeof kops / sizeof kops[0]; i++)
    if (ir_str_eq(op->name, kops[i].name))
      return kops[i].fn(kc, op, k);
  if (kernel_is_arith(op))
    return kernel_compile_arith(kc->in, op, k);
  if (name_in(op, host_ops))
    return kernel_compile_host(kc->in, op, k);
  char what[160];
  snprintf(what, sizeof what, "'%.*s'", (int)op->name.len, op->name.s);
  return kunsupported(kc, op, what);
}

static bool compile_body(KComp *kc, Region *r, KBody *out) {
  IrCtx *ctx = kc->in->ctx;
  uint32_t nb = 0;
  for (Block *b = r->first; b; b = b->next)
    b->id = nb++;
  out->nblocks = nb;
  out->blocks = ir_alloc(ctx, (nb + 1) * sizeof *out->blocks);
  if (++kc->depth > kc->k->depth)
    kc->k->depth = kc->depth;
  bool ok = true;
  uint32_t bi = 0;
  for (Block *b = r->first; b; b = b->next, bi++) {
    KBlock *kb = &out->blocks[bi];
    uint32_t n = 0;
    for (Op *o = b->first; o; o = o->next)
      n++;
    kb->ins = ir_alloc(ctx, (n + 1) * sizeof *kb->ins);
    kb->n = n;
    uint32_t i = 0;
    for (Op *o = b->first; o; o = o->next)
      ok = compile_op(kc, o, &kb->ins[i++]) && ok;
  }
  kc->depth--;
  nb = 0;
  for (Block *b = r->first; b; b = b->next)
    b->id = nb++;
  return ok;
}

/* Analysis, placement and compilation of a kernel's region. args: the entry block's arguments
 * that vary (seeded before the analysis). */
static bool compile_kernel(KComp *kc, Region *r, const bool *vary_args, uint32_t nargs) {
  Kernel *k = kc->k;
  claim_region(r);
  Block *entry = r->first;
  for (uint32_t i = 0; i < nargs && i < entry->nargs; i++)
    if (vary_args[i])
      entry->args[i].id |= KV_VARY;
  bool changed = true;
  while (changed) {
    changed = false;
    mark_region(r, &changed);
  }
  place_region(k, r);
  return compile_body(kc, r, &k->body);
}

/* attributions: entry arguments [first, first+n), shared or private */
static bool attributions(KComp *kc, Op *op, Block *entry, uint32_t first, uint32_t nw, uint32_t np) {
  Kernel *k = kc->k;
  k->attrs = ir_alloc(kc->in->ctx, (nw + np + 1) * sizeof *k->attrs);
  for (uint32_t i = 0; i < nw + np; i++) {
    Value *v = &entry->args[first + i];
    KAttr *a = &k->attrs[k->nattrs++];
    if (!static_memref(v->type))
      return kunsupported(kc, op, "an attribution of dynamic shape or with a layout");
    uint8_t vary;
    operand(kc, v, &a->word, &vary);
    a->vary = i >= nw;
    a->type = v->type;
    size_t *total = a->vary ? &k->private_bytes : &k->shared_bytes;
    a->off = *total;
    *total += align16(static_bytes(v->type));
  }
  return true;
}

static Kernel *new_kernel(Comp *c, Op *op) {
  Kernel *k = ir_alloc(c->in->ctx, sizeof *k);
  k->in = c->in;
  k->op = op;
  k->loc = interp_loc(c, op);
  for (int i = 0; i < 12; i++)
    k->ids[i] = UINT32_MAX;
  return k;
}

static int64_t attr_count(Op *op) {
  Attr *a = ir_op_attr(op, "workgroup_attributions");
  return a && a->kind == ATTR_INT ? a->u.i.v : 0;
}

Kernel *kernel_of_func(Comp *c, Op *site, Op *fn) {
  GpuState *gs = interp_gpu(c->in);
  for (uint32_t i = 0; i < gs->nkernels; i++)
    if (gs->kernels[i].op == fn)
      return gs->kernels[i].k;
  if (!ir_op_attr(fn, "gpu.kernel")) {
    ir_op_error(c->in->ctx, site, "launches a gpu.func that is not a kernel");
    c->in->errors++;
    return NULL;
  }
  Kernel *k = new_kernel(c, fn);
  KComp kc = {c->in, k, fn, NULL, NULL, 0, 0, 0};
  Attr *ft = ir_op_attr(fn, "function_type");
  Block *entry = fn->regions[0].first;
  if (!ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC || !entry) {
    ir_op_error(c->in->ctx, fn, "a kernel needs a function type and a body");
    c->in->errors++;
    return NULL;
  }
  uint32_t nparams = ft->type->u.fn.nin, nw = (uint32_t)attr_count(fn);
  if (nparams + nw > entry->nargs) {
    ir_op_error(c->in->ctx, fn, "the kernel's attributions do not match its arguments");
    c->in->errors++;
    return NULL;
  }
  uint32_t np = entry->nargs - nparams - nw;
  bool *vary = ir_alloc(c->in->ctx, entry->nargs + 1);
  for (uint32_t i = nparams + nw; i < entry->nargs; i++)
    vary[i] = true;
  bool ok = compile_kernel(&kc, &fn->regions[0], vary, entry->nargs);
  k->ninputs = nparams;
  k->in_word = ir_alloc(c->in->ctx, (nparams + 1) * sizeof *k->in_word);
  k->in_words = ir_alloc(c->in->ctx, (nparams + 1) * sizeof *k->in_words);
  for (uint32_t i = 0; i < nparams; i++) {
    uint8_t v;
    operand(&kc, &entry->args[i], &k->in_word[i], &v);
    k->in_words[i] = interp_words(entry->args[i].type);
    k->input_words += k->in_words[i];
  }
  ok = ok && attributions(&kc, fn, entry, nparams, nw, np);
  if (!ok)
    return NULL;
  GpuState *g = interp_gpu(c->in);
  void *p = realloc(g->kernels, (g->nkernels + 1) * sizeof *g->kernels);
  if (!p)
    abort();
  g->kernels = p;
  g->kernels[g->nkernels].op = fn;
  g->kernels[g->nkernels++].k = k;
  return k;
}

Kernel *kernel_of_launch(Comp *c, Op *launch, uint32_t **in_slots, uint32_t **in_words, uint32_t *nin) {
  Kernel *k = new_kernel(c, launch);
  KComp kc = {c->in, k, launch, NULL, NULL, 0, 0, 0};
  Region *r = &launch->regions[0];
  Block *entry = r->first;
  uint32_t nw = (uint32_t)attr_count(launch);
  if (!entry || entry->nargs < 12 + nw)
    return kunsupported(&kc, launch, "this form of gpu.launch") ? NULL : NULL;
  uint32_t np = entry->nargs - 12 - nw;
  bool *vary = ir_alloc(c->in->ctx, entry->nargs + 1);
  vary[3] = vary[4] = vary[5] = true;
  for (uint32_t i = 12 + nw; i < entry->nargs; i++)
    vary[i] = true;
  bool ok = compile_kernel(&kc, r, vary, entry->nargs);
  k->is_launch = true;
  for (int i = 0; i < 12; i++) {
    uint8_t v;
    operand(&kc, &entry->args[i], &k->ids[i], &v);
    k->ids_vary[i] = v;
  }
  ok = ok && attributions(&kc, launch, entry, 12, nw, np);
  if (!ok)
    return NULL;
  k->ninputs = kc.ncap;
  k->in_word = kc.cap_word;
  k->in_words = ir_alloc(c->in->ctx, (kc.ncap + 1) * sizeof *k->in_words);
  *in_slots = ir_alloc(c->in->ctx, (kc.ncap + 1) * sizeof **in_slots);
  for (uint32_t i = 0; i < kc.ncap; i++) {
    k->in_words[i] = interp_words(kc.caps[i]->type);
    k->input_words += k->in_words[i];
    (*in_slots)[i] = kc.caps[i]->id;
  }
  *in_words = k->in_words;
  *nin = kc.ncap;
  return k;
}

uint32_t kernel_input_words(const Kernel *k) { return k->input_words; }

/* ---- running a launch -------------------------------------------------------------------------- */

static void run_blocks(BeKernelCtx *ctx, size_t run, void *user) {
  Launch *L = user;
  const Kernel *k = L->k;
  size_t first = run * L->nblocks / L->nruns, last = (run + 1) * L->nblocks / L->nruns;
  uint32_t n = L->block[0] * L->block[1] * L->block[2];
  KFrame f = {0};
  f.k = k;
  f.L = L;
  f.L_in = L->in;
  f.ctx = ctx;
  f.n = n;
  f.cap = (size_t)(4 * k->depth + 8) * n;
  size_t priv_stride = align16(k->private_bytes), local = align16(k->shared_bytes) + L->smem + priv_stride * n;
  f.u = calloc(k->nu + 1, sizeof *f.u);
  f.v = calloc((size_t)k->nv * n + 1, sizeof *f.v);
  f.stack = malloc((f.cap + n) * sizeof *f.stack);
  f.tmp = calloc((size_t)k->maxmove * n + 1, sizeof *f.tmp);
  f.lo = malloc(local + 16);
  uint32_t *ident = f.stack ? f.stack + f.cap : NULL;
  if (!f.u || !f.v || !f.stack || !f.tmp || !f.lo) {
    if (!atomic_exchange(&L->failed, 1)) {
      GpuState *gs = interp_gpu(L->in);
      pthread_mutex_lock(&gs->mu);
      ir_op_error(L->in->ctx, k->op, "out of memory for a block of %u threads", n);
      pthread_mutex_unlock(&gs->mu);
      atomic_fetch_add(&gs->errors, 1);
    }
    goto done;
  }
  f.hi = f.lo + local;
  f.smem = f.lo + align16(k->shared_bytes);
  f.smem_bytes = L->smem;
  f.priv = f.smem + L->smem;
  f.priv_stride = priv_stride;
  for (uint32_t d = 0; d < 3; d++) {
    f.bdim[d] = L->block[d];
    f.gdim[d] = L->grid[d];
  }
  for (uint32_t l = 0; l < n; l++)
    ident[l] = l;
  /* inputs and attribution descriptors: the same for every block of the run */
  uint32_t w = 0;
  for (uint32_t i = 0; i < k->ninputs; i++) {
    memcpy(&f.u[k->in_word[i]], &L->inputs[w], k->in_words[i] * sizeof(Slot));
    w += k->in_words[i];
  }
  for (uint32_t i = 0; i < k->nattrs; i++) {
    const KAttr *a = &k->attrs[i];
    if (!a->vary)
      describe(&f.u[a->word], 1, a->type, f.lo + a->off, NULL);
    else
      for (uint32_t l = 0; l < n; l++)
        describe(kw(&f, a->word, true) + l, n, a->type, f.priv + l * priv_stride + a->off, NULL);
  }
  for (size_t b = first; b < last && !atomic_load(&L->failed); b++) {
    f.bid[0] = (uint32_t)(b % L->grid[0]);
    f.bid[1] = (uint32_t)(b / L->grid[0] % L->grid[1]);
    f.bid[2] = (uint32_t)(b / ((size_t)L->grid[0] * L->grid[1]));
    memset(f.lo, 0, (size_t)(f.priv - f.lo));
    if (k->is_launch) {
      for (int i = 0; i < 12; i++) {
        uint32_t d = (uint32_t)i % 3;
        if (k->ids[i] == UINT32_MAX)
          continue;
        if (i >= 3 && i < 6) {
          Slot *col = kw(&f, k->ids[i], true);
          for (uint32_t l = 0; l < n; l++)
            col[l].i = d == 0 ? l % f.bdim[0] : d == 1 ? l / f.bdim[0] % f.bdim[1] : l / (f.bdim[0] * f.bdim[1]);
        } else {
          f.u[k->ids[i]].i = i < 3 ? f.bid[d] : i < 9 ? f.gdim[d] : f.bdim[d];
        }
      }
    }
    f.act = ident;
    f.nact = n;
    f.top = 0;
    f.pc = NULL;
    if (run_body(&f, &k->body) == EX_ERROR)
      break;
  }
  if (!flush_accesses(&f))
    atomic_store(&L->failed, 1);
done:
  free(f.u);
  free(f.v);
  free(f.stack);
  free(f.tmp);
  free(f.lo);
  free(f.acc);
}

static void kernel_run(BeKernelCtx *ctx, const BeLaunch *bl, void *user) {
  Launch *L = user;
  (void)bl;
  L->nruns = L->nblocks < 256 ? L->nblocks : 256;
  be_kernel_parallel_for(ctx, L->nruns, run_blocks, L);
  atomic_store(&L->done, 1);
}

int kernel_launch(Frame *fr, const Ins *ins, Kernel *k, const int64_t grid[3], const int64_t block[3],
                  int64_t smem, const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok,
                  const char *loc) {
  Interp *in = fr->in;
  *tok = NULL;
  int64_t threads = 1, blocks = 1;
  for (int d = 0; d < 3; d++) {
    if (grid[d] < 1 || grid[d] > INT32_MAX)
      return interp_error(fr, ins, "grid size %lld in dimension %c is not positive", (long long)grid[d], "xyz"[d]);
    if (block[d] < 1 || block[d] > MAX_BLOCK_THREADS)
      return interp_error(fr, ins, "block size %lld in dimension %c is not in [1, %d]", (long long)block[d], "xyz"[d],
                          MAX_BLOCK_THREADS);
    threads *= block[d];
    blocks *= grid[d];
  }
  if (threads > MAX_BLOCK_THREADS)
    return interp_error(fr, ins, "a block of %lld threads exceeds the limit of %d", (long long)threads,
                        MAX_BLOCK_THREADS);
  if (smem < 0 || (uint64_t)smem + k->shared_bytes > MAX_SHARED_BYTES)
    return interp_error(fr, ins, "%lld bytes of dynamic shared memory (and %zu static) exceed the limit of %u",
                        (long long)smem, k->shared_bytes, MAX_SHARED_BYTES);
  if (!in->be)
    return interp_error(fr, ins, "a launch needs a device");
  Launch *L = calloc(1, sizeof *L);
  Slot *copy = calloc(k->input_words + 1, sizeof *copy);
  if (!L || !copy) {
    free(L);
    free(copy);
    return interp_error(fr, ins, "out of memory for a launch");
  }
  if (k->input_words)
    memcpy(copy, inputs, k->input_words * sizeof *copy);
  L->k = k;
  L->in = in;
  L->inputs = copy;
  for (int d = 0; d < 3; d++) {
    L->grid[d] = (uint32_t)grid[d];
    L->block[d] = (uint32_t)block[d];
  }
  L->smem = (size_t)smem;
  L->nblocks = (size_t)blocks;
  GpuState *gs = interp_gpu(in);
  L->next = gs->launches;
  gs->launches = L;
  BeLaunch bl = {{L->grid[0], L->grid[1], L->grid[2]}, {L->block[0], L->block[1], L->block[2]}, (uint32_t)smem, NULL, 0};
  be_token_launch_host(in->be, kernel_run, L, &bl, deps, ndeps, &L->tok, loc);
  if (!L->tok) {
    atomic_store(&L->done, 1);
    return interp_error(fr, ins, "the device could not take the launch");
  }
  *tok = L->tok;
  return EX_NEXT;
}

void kernel_wait_all(Interp *in) {
  GpuState *gs = in->gpu;
  if (!gs)
    return;
  size_t n = 0;
  for (Launch *L = gs->launches; L; L = L->next)
    n += !atomic_load(&L->done);
  if (n && in->be) {
    BeToken *toks = calloc(n, sizeof *toks);
    size_t i = 0;
    for (Launch *L = gs->launches; L && toks; L = L->next)
      if (!atomic_load(&L->done))
        toks[i++] = L->tok;
    if (toks)
      be_token_wait(in->be, toks, i, "exit");
    free(toks);
  }
}

void kernel_free_all(Interp *in) {
  GpuState *gs = in->gpu;
  if (!gs)
    return;
  kernel_wait_all(in);
  for (Launch *L = gs->launches, *next; L; L = next) {
    next = L->next;
    free(L->inputs);
    free(L);
  }
  gs->launches = NULL;
}
