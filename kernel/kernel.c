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
 * of a block is its own and is not reported; instead, accesses of a block's threads to its shared
 * memory are checked against each other between barriers (kernel_ops.c: two threads, one element,
 * one write, no barrier in between is a race). Atomics on global memory are reported as atomic
 * accesses (kernel_note_atomic, BE_ACC_ATOMIC): they race with plain accesses of other launches
 * and the host, never with other atomics.
 *
 * The ops themselves (ids, barriers, shuffles, reductions, gpu.printf, memory) are in
 * kernel_ops.c, arith, index and math in kernel_arith.c.
 *
 * Threads: a launch is a few runs (one per RUN_THREADS threads, at most MAX_RUNS) spread over the
 * backend's workers (be_kernel_parallel_for); each run takes blocks a share at a time until none is
 * left (blocks_take), in a frame of its own that it takes from the interpreter's cache of idle
 * frames and gives back (frame_take), so that a launch costs its blocks' work plus a few
 * microseconds, whatever its number of blocks. Launches of small one-row blocks of a kernel whose
 * threads never meet run several blocks per frame (block_wise). A kernel without loops that could
 * wait is bounded (BeLaunch.bounded): the threads scheduler may run it on the host's thread when
 * nothing else runs. Diagnostics and gpu.printf output take the
 * interpreter's gpu mutex; the first error of a launch stops its other blocks and fails the
 * device (be_launch_failed): the host stops at its next synchronization (gpu.c, llvm_extern.c). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_PC UINT32_MAX
#define MAX_BLOCK_THREADS 1024
#define MAX_SHARED_BYTES (228u * 1024u)

struct Kernel {
  KHost *in;
  Op *op;
  const char *loc;
  KBody body;
  uint32_t nu, nv;
  /* inputs: the gpu.func's arguments, or the host values a gpu.launch body uses */
  uint32_t ninputs, input_words;
  uint32_t *in_word, *in_words;
  Type **in_types; /* gpu.launch: the type of each input (kernel_input_type) */
  /* gpu.launch body arguments: block ids, thread ids, grid sizes, block sizes */
  bool is_launch;
  uint32_t ids[12];
  bool ids_vary[12];
  KAttr *attrs;
  uint32_t nattrs;
  size_t shared_bytes, private_bytes;
  uint32_t depth;   /* deepest nesting of regions */
  uint32_t maxmove; /* most words one move carries */
  uint32_t nmemo;   /* memory ops (KFrame.memo) */
  uint32_t minaccess; /* bytes of the smallest access of those, 0 if none */
  uint32_t nonce;   /* ops with a KFrame.once flag */
  void *llvm;       /* kernel_llvm.c: what it knows of an llvm.func kernel's arguments */
  /* the same kernel compiled to run several small blocks as one frame (block_wise), or NULL */
  struct Kernel *wide;
  bool is_wide;     /* this is such a variant: block ids vary, thread ids carry no KV_TID flags */
  bool bounded;     /* no loop but scf.for, no call: it ends without waiting (BeLaunch.bounded) */
};

typedef struct Launch {
  struct Launch *next;
  Kernel *k;
  const Kernel *rk; /* what runs: k, or k->wide running `group` blocks per frame */
  uint32_t group;
  KHost *in;
  Slot *inputs;
  uint32_t grid[3], block[3];
  size_t smem, nblocks, nruns;
  _Atomic size_t next_block; /* the first block no run has taken yet (blocks_take) */
  BeToken tok;      /* a reference of its own (released when the launch is forgotten) */
  atomic_int failed, done;
  const char *loc;  /* the launch op's, and its number in the run: for InterpOptions.device_print */
  uint64_t seq;
  uint8_t *told;    /* per memory op (KMem.memo): a benign hazard of it was reported (gpu mutex) */
  Op *site;         /* the launch op */
  KGList *gruns;    /* per run of blocks: its records for inter-block race checks (kernel_race.c) */
  /* kernel_race_check's replay (replay_blocks): the blocks to run again, the next one, and what
   * their frames read their writes into */
  const size_t *replay;
  size_t nreplay, ireplay;
  KGCap *gcap;
} Launch;

/* ---- the host's state ---- */

GpuState *kernel_gpu(KHost *in) {
  if (!in->gpu) {
    GpuState *gs = calloc(1, sizeof *gs);
    if (!gs)
      abort();
    pthread_mutex_init(&gs->mu, NULL);
    atomic_init(&gs->errors, 0);
    in->gpu = gs;
  }
  return in->gpu;
}

/* ---- diagnostics ---------------------------------------------------------------------------- */

void kernel_print(KFrame *f, const char *text, size_t len) {
  if (f->gcap)
    return; /* a replay prints nothing: the launch did */
  KHost *in = f->L_in;
  GpuState *gs = kernel_gpu(in);
  pthread_mutex_lock(&gs->mu);
  if (in->device_print)
    in->device_print(in->hook_user, f->L->loc, f->L->seq, text, len);
  else
    fwrite(text, 1, len, in->out);
  pthread_mutex_unlock(&gs->mu);
}

/* After a kernel error: where the device functions it happened in were called (innermost first),
 * then the launch. */
void kernel_error_notes(const KFrame *f) {
  IrCtx *ctx = f->L->in->ctx;
  uint32_t n = f->ncalls < sizeof f->calls / sizeof f->calls[0] ? f->ncalls : sizeof f->calls / sizeof f->calls[0];
  for (uint32_t i = n; i-- > 0;) {
    Attr *callee = ir_op_attr(f->calls[i], "callee");
    Str name = callee && callee->kind == ATTR_SYMREF && callee->u.sym.n ? callee->u.sym.path[callee->u.sym.n - 1]
                                                                          : (Str){"?", 1};
    ir_diag(ctx, DIAG_NOTE, ir_op_loc(f->calls[i]), "in '@%.*s', called from here", (int)name.len, name.s);
  }
  if (f->L->site)
    ir_diag(ctx, DIAG_NOTE, ir_op_loc(f->L->site), "in the kernel launched here");
  else if (f->L->loc) { /* a runtime call's launch (mgpuLaunchKernel): named by its site */
    Loc at = {.kind = LOC_NAME, .file = {f->L->loc, strlen(f->L->loc)}};
    ir_diag(ctx, DIAG_NOTE, &at, "in the kernel launched here");
  }
}

int kernel_error(KFrame *f, const KIns *k, uint32_t lane, const char *fmt, ...) {
  Launch *L = f->L;
  if (atomic_exchange(&L->failed, 1))
    return EX_ERROR;
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  uint32_t t, bid[3];
  kernel_lane_block(f, lane == UINT32_MAX ? 0 : lane, &t, bid);
  uint32_t x = t % f->bdim[0], y = t / f->bdim[0] % f->bdim[1], z = t / (f->bdim[0] * f->bdim[1]);
  GpuState *gs = kernel_gpu(L->in);
  pthread_mutex_lock(&gs->mu);
  if (lane == UINT32_MAX)
    ir_op_error(L->in->ctx, k->op, "%s (block (%u, %u, %u))", msg, bid[0], bid[1], bid[2]);
  else
    ir_op_error(L->in->ctx, k->op, "%s (thread (%u, %u, %u) of block (%u, %u, %u))", msg, x, y, z, bid[0], bid[1],
                bid[2]);
  kernel_error_notes(f);
  pthread_mutex_unlock(&gs->mu);
  kernel_failed(f);
  return EX_ERROR;
}

void kernel_failed(KFrame *f) {
  Launch *L = f->L;
  atomic_store(&L->failed, 1);
  atomic_fetch_add(&kernel_gpu(L->in)->errors, 1);
  be_launch_failed(L->in->be, L->loc);
}

void kernel_benign(KFrame *f, const KIns *k, uint32_t memo, uint32_t lane, const char *fmt, ...) {
  Launch *L = f->L;
  GpuState *gs = kernel_gpu(L->in);
  pthread_mutex_lock(&gs->mu);
  if (L->told && memo <= f->k->nmemo && !L->told[memo]) {
    L->told[memo] = 1;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t t, bid[3];
    kernel_lane_block(f, lane, &t, bid);
    uint32_t x = t % f->bdim[0], y = t / f->bdim[0] % f->bdim[1], z = t / (f->bdim[0] * f->bdim[1]);
    const Op *op = k->op;
    ir_diag(L->in->ctx, L->in->race_strict ? DIAG_WARNING : DIAG_NOTE, ir_op_loc(op),
            "'%.*s' op %s (thread (%u, %u, %u) of block (%u, %u, %u)); reported once per op and launch",
            (int)op->name.len, op->name.s, msg, x, y, z, bid[0], bid[1], bid[2]);
  }
  pthread_mutex_unlock(&gs->mu);
}

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
  int64_t cost = (int64_t)b->n * f->nact;
  int why = BUDGET_OK;
  uint32_t n = (f->credit -= cost) >= 0 ? b->n : kernel_budget_block(f, b, cost, &why);
  for (uint32_t i = 0; i < n; i++) {
    int r = b->ins[i].fn(f, &b->ins[i]);
    if (r == EX_ERROR)
      return EX_ERROR;
    if (r == EX_DONE)
      return EX_NEXT;
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
      x = blk->ins[i].fn(f, &blk->ins[i]);
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

/* ---- compiling: which values vary ------------------------------------------------------------ */

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
                                          "memref.alloca", "scf.execute_region", "func.call", NULL};
static const char *const uniform_ops[] = {"gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.subgroup_size",
                                          "gpu.num_subgroups", "gpu.dynamic_shared_memory", "gpu.all_reduce", NULL};

static Op *terminator(Region *r) { return r->first ? r->first->last : NULL; }

static void mark_region(Region *r, bool *changed);

static void mark_op(Op *op, bool multi, bool *changed) {
  bool any = multi;
  for (uint32_t i = 0; i < op->noperands; i++)
    any = any || varies(op->operands[i]);
  if (name_in(op, varying_ops) || kernel_llvm_varies(op)) {
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
  } else if (ir_str_eq(op->name, "scf.while") && op->nregions == 2 && op->regions[0].first &&
             op->regions[1].first) {
    /* before's arguments: from the inits and after's yield; after's arguments and the results:
     * from scf.condition, all varying when its condition is (threads leave at different times) */
    Block *before = op->regions[0].first, *after = op->regions[1].first;
    Op *cond = before->last, *y = after->last;
    bool cv = multi || !cond || !cond->noperands || varies(cond->operands[0]);
    for (uint32_t i = 0; i < before->nargs; i++)
      if (multi || (i < op->noperands && varies(op->operands[i])) || !y || (i < y->noperands && varies(y->operands[i])))
        mark(&before->args[i], changed);
    for (uint32_t i = 0; i < after->nargs; i++)
      if (cv || (cond && i + 1 < cond->noperands && varies(cond->operands[i + 1]))) {
        mark(&after->args[i], changed);
        if (i < op->nresults)
          mark(&op->results[i], changed);
      }
    for (uint32_t i = after->nargs; i < op->nresults; i++)
      mark(&op->results[i], changed);
    any = false;
  } else if (ir_str_eq(op->name, "scf.if")) {
    Op *t = terminator(&op->regions[0]), *e = op->nregions > 1 ? terminator(&op->regions[1]) : NULL;
    for (uint32_t i = 0; i < op->nresults; i++)
      if (any || (t && i < t->noperands && varies(t->operands[i])) || (e && i < e->noperands && varies(e->operands[i])))
        mark(&op->results[i], changed);
    any = false;
  }
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
  uint32_t w = kernel_words(v->type);
  if (varies(v)) {
    v->id = KV_MINE | KV_VARY | k->nv;
    k->nv += w;
  } else {
    v->id = KV_MINE | k->nu;
    k->nu += w;
  }
}

/* Whether an op of ops (from `from` on, and their regions) uses v. */
static bool used_from(const Op *from, const Value *v) {
  for (const Op *o = from; o; o = o->next) {
    for (uint32_t i = 0; i < o->noperands; i++)
      if (o->operands[i] == v)
        return true;
    for (uint32_t i = 0; i < o->nregions; i++)
      for (Block *b = o->regions[i].first; b; b = b->next)
        if (used_from(b->first, v))
          return true;
  }
  return false;
}

/* Loop-carried values of scf.for that need no move: when the value a body yields for an
 * iteration argument is computed in the body's block after the last use of that argument, both
 * take the argument's slot, and the yield moves nothing. The op computing it may read the argument
 * itself only when it is lane-wise (arith, math, index: each thread's result from its own
 * operands); otherwise it must be such an op or a memref.load. Varying values only (uniform
 * moves are one word). */
static void coalesce_loops(Region *r) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      for (uint32_t i = 0; i < o->nregions; i++)
        coalesce_loops(&o->regions[i]);
      if (!ir_str_eq(o->name, "scf.for") || o->nregions != 1 || !o->regions[0].first ||
          o->regions[0].first->next)
        continue;
      Block *body = o->regions[0].first;
      Op *y = body->last;
      if (!y || !ir_str_eq(y->name, "scf.yield"))
        continue;
      for (uint32_t i = 0; i < y->noperands && i + 1 < body->nargs; i++) {
        Value *a = &body->args[i + 1], *v = y->operands[i];
        Op *d = v->def;
        bool once = true;
        for (uint32_t j = 0; j < y->noperands; j++)
          once = once && (j == i || y->operands[j] != v);
        if (!once || !d || d->parent != body || d->nregions || !varies(a) || !varies(v) ||
            kernel_words(a->type) != kernel_words(v->type) || used_from(d->next, a))
          continue;
        bool reads = false;
        for (uint32_t j = 0; j < d->noperands; j++)
          reads = reads || d->operands[j] == a;
        /* (not an op that writes its column once per frame, as gpu.thread_id: a move into
         * the argument's slot would overwrite it) */
        if ((reads || !ir_str_eq(d->name, "memref.load")) && !kernel_is_arith(d) && !kernel_llvm_lanewise(d))
          continue;
        v->id = a->id;
      }
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

/* Values that are a uniform value plus the thread's x (or y) id: gpu.thread_id and gpu.global_id
 * x and y, and index sums and differences of one such value and a uniform one. One pass in order
 * suffices: block arguments are never marked (but a gpu.launch body's thread ids). */
static uint32_t dim_flag(Op *op) {
  Attr *a = ir_op_attr(op, "dimension");
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len < 2)
    return 0;
  char c = a->u.str.s[a->u.str.len - 2];
  return c == 'x' ? KV_TIDX : c == 'y' ? KV_TIDY : 0;
}

int kernel_tid(const Value *v) {
  if (!(v->id & KV_MINE))
    return 0;
  return (v->id & KV_TIDX) ? 1 : (v->id & KV_TIDY) ? 2 : 0;
}

static uint32_t tid_flags(const Value *v) { return (v->id & KV_MINE) ? v->id & (KV_TIDX | KV_TIDY) : 0; }

/* The same for lowered kernels: nvvm's tid.x and tid.y, their sext and zext (they are below
 * 1024), i64 sums and differences as above, and casts between i64 and index. */
static uint32_t llvm_tid_flags(Op *o) {
  if (ir_str_eq(o->name, "nvvm.read.ptx.sreg.tid.x"))
    return KV_TIDX;
  if (ir_str_eq(o->name, "nvvm.read.ptx.sreg.tid.y"))
    return KV_TIDY;
  if (o->nresults != 1 || !o->noperands)
    return 0;
  const Type *t = o->results[0].type;
  bool i64 = t->kind == TY_INT && t->u.i.width == 64;
  Op *d = o->operands[0]->def;
  if ((ir_str_eq(o->name, "llvm.sext") || ir_str_eq(o->name, "llvm.zext")) && d &&
      (ir_str_eq(d->name, "nvvm.read.ptx.sreg.tid.x") || ir_str_eq(d->name, "nvvm.read.ptx.sreg.tid.y")))
    return tid_flags(o->operands[0]);
  if (ir_str_eq(o->name, "builtin.unrealized_conversion_cast") && o->noperands == 1 &&
      (i64 || t->kind == TY_INDEX) &&
      (o->operands[0]->type->kind == TY_INDEX ||
       (o->operands[0]->type->kind == TY_INT && o->operands[0]->type->u.i.width == 64)))
    return tid_flags(o->operands[0]);
  if (!i64 || o->noperands != 2)
    return 0;
  if (ir_str_eq(o->name, "llvm.add"))
    return !varies(o->operands[1]) ? tid_flags(o->operands[0]) : !varies(o->operands[0]) ? tid_flags(o->operands[1]) : 0;
  if (ir_str_eq(o->name, "llvm.sub"))
    return !varies(o->operands[1]) ? tid_flags(o->operands[0]) : 0;
  return 0;
}

static void mark_tids(Region *r) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      uint32_t t = 0;
      bool index = o->nresults == 1 && o->results[0].type->kind == TY_INDEX && o->noperands == 2;
      if (ir_str_eq(o->name, "gpu.thread_id") || ir_str_eq(o->name, "gpu.global_id"))
        t = dim_flag(o);
      else if (index && (ir_str_eq(o->name, "arith.addi") || ir_str_eq(o->name, "index.add")))
        t = !varies(o->operands[1]) ? tid_flags(o->operands[0]) : !varies(o->operands[0]) ? tid_flags(o->operands[1]) : 0;
      else if (index && (ir_str_eq(o->name, "arith.subi") || ir_str_eq(o->name, "index.sub")))
        t = !varies(o->operands[1]) ? tid_flags(o->operands[0]) : 0;
      else
        t = llvm_tid_flags(o);
      if (t && o->nresults == 1 && (o->results[0].id & KV_MINE))
        o->results[0].id |= t;
      for (uint32_t i = 0; i < o->nregions; i++)
        mark_tids(&o->regions[i]);
    }
}

/* The word and variance of v; a value from outside a gpu.launch body becomes an input. */
void kernel_operand(KComp *kc, Value *v, uint32_t *word, uint8_t *vary) {
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
  kc->k->nu += kernel_words(v->type);
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

bool kernel_unsupported(KComp *kc, Op *op, const char *what) {
  ir_op_error(kc->in->ctx, op, "%s is not supported in kernels yet", what);
  kc->in->errors++;
  return false;
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

static bool c_kyield(KComp *kc, Op *op, KIns *k) {
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

static bool c_kbr(KComp *kc, Op *op, KIns *k) {
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

static bool c_kif(KComp *kc, Op *op, KIns *k) {
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

static bool c_kfor(KComp *kc, Op *op, KIns *k) {
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

static bool c_kcondition(KComp *kc, Op *op, KIns *k) {
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

static bool c_kwhile(KComp *kc, Op *op, KIns *k) {
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

static bool c_kexecute_region(KComp *kc, Op *op, KIns *k) {
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

static void mark_tids(Region *r);

static bool c_kcall(KComp *kc, Op *op, KIns *k) {
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
  claim_region(r);
  for (uint32_t i = 0; i < entry->nargs; i++)
    if (k->vin[i])
      entry->args[i].id |= KV_VARY;
  bool changed = true;
  while (changed) {
    changed = false;
    mark_region(r, &changed);
  }
  place_region(kc->k, r);
  mark_tids(r);
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

bool kernel_compile_call(KComp *kc, Op *op, KIns *k) { return c_kcall(kc, op, k); }

/* ---- compiling ops and bodies ---------------------------------------------------------------- */

typedef bool (*KCompileFn)(KComp *kc, Op *op, KIns *k);

static const struct {
  const char *name;
  KCompileFn fn;
} kops[] = {
  {"scf.for", c_kfor},
  {"func.call", c_kcall},
  {"func.return", c_kyield},
  {"scf.if", c_kif},
  {"scf.while", c_kwhile},
  {"scf.condition", c_kcondition},
  {"scf.yield", c_kyield},
  {"scf.execute_region", c_kexecute_region},
  {"cf.br", c_kbr},
  {"cf.cond_br", c_kbr},
  {"llvm.br", c_kbr},
  {"llvm.cond_br", c_kbr},
  {"llvm.return", c_kyield},
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

/* Ops that only move words: their host implementations run per thread as they are. */
static const char *const host_ops[] = {"memref.dim", "memref.cast", "memref.subview",
                                       "memref.extract_aligned_pointer_as_index", "memref.memory_space_cast",
                                       "builtin.unrealized_conversion_cast", "vector.extract", "vector.insert",
                                       "vector.broadcast", "vector.from_elements", "vector.to_elements",
                                       "vector.shape_cast", "vector.reduction", "vector.fma", "vector.shuffle",
                                       "vector.transpose", "vector.extract_strided_slice",
                                       "vector.insert_strided_slice", "vector.constant_mask",
                                       "vector.create_mask", "vector.step", NULL};

static bool frame_index(const Op *o);
static bool frame_index_only(const Op *o);

static bool compile_op(KComp *kc, Op *op, KIns *k) {
  IrCtx *ctx = kc->in->ctx;
  k->op = op;
  k->loc = kernel_loc(kc->in, op);
  k->nin = op->noperands;
  k->nout = op->nresults;
  k->in = ir_alloc(ctx, (k->nin + 1) * sizeof *k->in);
  k->win = ir_alloc(ctx, (k->nin + 1) * sizeof *k->win);
  k->vin = ir_alloc(ctx, k->nin + 1);
  k->out = ir_alloc(ctx, (k->nout + 1) * sizeof *k->out);
  k->wout = ir_alloc(ctx, (k->nout + 1) * sizeof *k->wout);
  k->vout = ir_alloc(ctx, k->nout + 1);
  for (uint32_t i = 0; i < k->nin; i++) {
    kernel_operand(kc, op->operands[i], &k->in[i], &k->vin[i]);
    k->win[i] = kernel_words(op->operands[i]->type);
  }
  for (uint32_t i = 0; i < k->nout; i++) {
    kernel_operand(kc, &op->results[i], &k->out[i], &k->vout[i]);
    k->wout[i] = kernel_words(op->results[i].type);
  }
  if (kc->k->is_wide && k->vout[0] && frame_index(op))
    return c_kframe_index(kc, op, k);
  for (size_t i = 0; i < sizeof kops / sizeof kops[0]; i++)
    if (ir_str_eq(op->name, kops[i].name))
      return kops[i].fn(kc, op, k);
  if (kernel_is_arith(op))
    return kernel_compile_arith(kc->in, op, k);
  if (kernel_is_llvm(op))
    return kernel_compile_llvm(kc, op, k);
  if (ir_str_eq(op->name, "builtin.unrealized_conversion_cast") && kernel_llvm_words(kc, op, k))
    return true;
  if (name_in(op, host_ops))
    return kernel_compile_host(kc->in, op, k);
  char what[160];
  snprintf(what, sizeof what, "'%.*s'", (int)op->name.len, op->name.s);
  return kernel_unsupported(kc, op, what);
}

bool kernel_compile_body(KComp *kc, Region *r, KBody *out) {
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
    uint32_t i = 0;
    for (Op *o = b->first; o; o = o->next)
      if (!kc->k->is_wide || !frame_index_only(o))
        ok = compile_op(kc, o, &kb->ins[i++]) && ok;
    kb->n = kernel_llvm_compact(kb->ins, i);
    kernel_fuse_block(kc, kb);
  }
  kc->depth--;
  nb = 0;
  for (Block *b = r->first; b; b = b->next)
    b->id = nb++;
  return ok;
}

/* Analysis, placement and compilation of a kernel's region. args: the entry block's arguments
 * that vary (seeded before the analysis). */
static void vary_block_ids(Region *r);
static void mark_lanes(Region *r);
static bool bounded(const Region *r);

static bool compile_kernel(KComp *kc, Region *r, const bool *vary_args, uint32_t nargs) {
  Kernel *k = kc->k;
  claim_region(r);
  k->bounded = bounded(r);
  Block *entry = r->first;
  for (uint32_t i = 0; i < nargs && i < entry->nargs; i++)
    if (vary_args[i])
      entry->args[i].id |= KV_VARY;
  if (k->is_wide)
    vary_block_ids(r);
  bool changed = true;
  while (changed) {
    changed = false;
    mark_region(r, &changed);
  }
  place_region(k, r);
  coalesce_loops(r);
  if (k->is_wide) { /* thread l of the frame is not thread l of a block, but may be its index */
    mark_lanes(r);
    return kernel_compile_body(kc, r, &k->body);
  }
  /* the thread ids of a gpu.launch body are its arguments 3..5 */
  if (kc->root && ir_str_eq(kc->root->name, "gpu.launch") && entry->nargs > 4) {
    entry->args[3].id |= KV_TIDX;
    entry->args[4].id |= KV_TIDY;
  }
  mark_tids(r);
  return kernel_compile_body(kc, r, &k->body);
}

/* Block-wise kernels. A launch of small blocks spends most of its time starting blocks and
 * dispatching ops over few threads; when nothing in a kernel lets a block's threads see each other
 * (no shared memory, barriers, shuffles, reductions, lane or subgroup ids, atomics, printf, calls:
 * only the ops below), its blocks can run side by side as one frame of several blocks' threads,
 * thread l of the frame being thread l % n of block first + l / n (KFrame.wide): the same
 * computation, each thread's ops in the same order, and accesses to global memory that race
 * detection sees as the launch's either way. Such a kernel gets a second compilation in which
 * block ids vary like thread ids; launches of blocks smaller than WIDE_THREADS use it. */
static const char *const wide_ops[] = {
    "scf.for", "scf.if", "scf.yield", "scf.while", "scf.condition", "cf.br", "cf.cond_br", "gpu.return",
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id", "memref.load",
    "memref.store", "memref.dim", "memref.cast", "memref.subview", "memref.extract_aligned_pointer_as_index",
    NULL};

static bool block_wise(const Region *r) {
  for (const Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      Str n = o->name;
      bool ok = name_in(o, wide_ops) || (n.len > 6 && !memcmp(n.s, "arith.", 6)) ||
                (n.len > 6 && !memcmp(n.s, "index.", 6)) || (n.len > 5 && !memcmp(n.s, "math.", 5));
      if (!ok)
        return false;
      for (uint32_t i = 0; i < o->nregions; i++)
        if (!block_wise(&o->regions[i]))
          return false;
    }
  return true;
}

/* A block-wise frame runs only launches of one row of threads per block and one row of blocks
 * (kernel_run), so there its thread l is thread l % n of block first + l / n (n the threads of a
 * block), and a block's first global index plus its thread x id is first * n + l: a uniform
 * value plus the frame's thread, which KV_TIDX then means (the meaning it has in a block of one
 * row, kernel_tid). gpu.global_id x is such a value, and so is block_id x * block_dim x +
 * thread_id x; uniform values added or subtracted keep it so. */
static bool is_id(const Value *v, const char *name, uint32_t flag) {
  return v->def && ir_str_eq(v->def->name, name) && dim_flag(v->def) == flag;
}

static bool block_start(const Value *v) { /* block_id x * block_dim x */
  const Op *o = v->def;
  if (!o || o->noperands != 2 || !(ir_str_eq(o->name, "arith.muli") || ir_str_eq(o->name, "index.mul")))
    return false;
  return (is_id(o->operands[0], "gpu.block_id", KV_TIDX) && is_id(o->operands[1], "gpu.block_dim", KV_TIDX)) ||
         (is_id(o->operands[1], "gpu.block_id", KV_TIDX) && is_id(o->operands[0], "gpu.block_dim", KV_TIDX));
}

/* block_id x * block_dim x + thread_id x: in a block-wise frame, the frame's first block times n
 * plus the frame's thread, which c_kframe_index computes as such (reading no operand). */
static bool frame_index(const Op *o) {
  bool index = o->nresults == 1 && o->results[0].type->kind == TY_INDEX && o->noperands == 2;
  bool add = index && (ir_str_eq(o->name, "arith.addi") || ir_str_eq(o->name, "index.add"));
  return add && ((block_start(o->operands[0]) && is_id(o->operands[1], "gpu.thread_id", KV_TIDX)) ||
                 (block_start(o->operands[1]) && is_id(o->operands[0], "gpu.thread_id", KV_TIDX)));
}

/* An id op or block_start whose results only such sums use, directly or through others of its
 * kind: a block-wise frame need not run it (kernel_compile_body). */
static bool frame_index_only(const Op *o) {
  if (o->nresults != 1 || !(is_id(&o->results[0], "gpu.block_id", KV_TIDX) ||
                            is_id(&o->results[0], "gpu.block_dim", KV_TIDX) ||
                            is_id(&o->results[0], "gpu.thread_id", KV_TIDX) || block_start(&o->results[0])))
    return false;
  for (const Use *u = o->results[0].uses; u; u = u->next)
    if (!frame_index(u->user) && !frame_index_only(u->user))
      return false;
  return true;
}

static void mark_lanes(Region *r) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      uint32_t t = 0;
      bool index = o->nresults == 1 && o->results[0].type->kind == TY_INDEX && o->noperands == 2;
      bool add = index && (ir_str_eq(o->name, "arith.addi") || ir_str_eq(o->name, "index.add"));
      if (ir_str_eq(o->name, "gpu.global_id"))
        t = dim_flag(o) == KV_TIDX ? KV_TIDX : 0;
      else if (frame_index(o))
        t = KV_TIDX;
      else if (add)
        t = !varies(o->operands[1]) ? tid_flags(o->operands[0]) : !varies(o->operands[0]) ? tid_flags(o->operands[1]) : 0;
      else if (index && (ir_str_eq(o->name, "arith.subi") || ir_str_eq(o->name, "index.sub")))
        t = !varies(o->operands[1]) ? tid_flags(o->operands[0]) : 0;
      if (t && (o->results[0].id & KV_MINE))
        o->results[0].id |= t;
      for (uint32_t i = 0; i < o->nregions; i++)
        mark_lanes(&o->regions[i]);
    }
}

/* Whether a kernel body surely ends without other threads' help: a loop that could spin on
 * memory (scf.while, branches, calls that could hold either) could wait for another kernel or for
 * the host, and such a kernel must not run on the host's thread (BeLaunch.bounded). */
static bool bounded(const Region *r) {
  if (r->first && r->first->next)
    return false; /* branches between blocks */
  for (const Block *b = r->first; b; b = b->next)
    for (const Op *o = b->first; o; o = o->next) {
      if (ir_str_eq(o->name, "scf.while") || ir_str_eq(o->name, "func.call") || ir_str_eq(o->name, "llvm.call") ||
          ir_str_eq(o->name, "llvm.br") || ir_str_eq(o->name, "llvm.cond_br") || ir_str_eq(o->name, "llvm.switch") ||
          ir_str_eq(o->name, "cf.br") || ir_str_eq(o->name, "cf.cond_br") || ir_str_eq(o->name, "cf.switch"))
        return false;
      for (uint32_t i = 0; i < o->nregions; i++)
        if (!bounded(&o->regions[i]))
          return false;
    }
  return true;
}

static void vary_block_ids(Region *r) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      if (ir_str_eq(o->name, "gpu.block_id") && o->nresults == 1)
        o->results[0].id |= KV_VARY;
      for (uint32_t i = 0; i < o->nregions; i++)
        vary_block_ids(&o->regions[i]);
    }
}

/* attributions: entry arguments [first, first+n), shared or private */
static bool attributions(KComp *kc, Op *op, Block *entry, uint32_t first, uint32_t nw, uint32_t np) {
  Kernel *k = kc->k;
  k->attrs = ir_alloc(kc->in->ctx, (nw + np + 1) * sizeof *k->attrs);
  for (uint32_t i = 0; i < nw + np; i++) {
    Value *v = &entry->args[first + i];
    KAttr *a = &k->attrs[k->nattrs++];
    if (!kernel_static_memref(v->type))
      return kernel_unsupported(kc, op, "an attribution of dynamic shape or with a layout");
    uint8_t vary;
    kernel_operand(kc, v, &a->word, &vary);
    a->vary = i >= nw;
    a->type = v->type;
    size_t *total = a->vary ? &k->private_bytes : &k->shared_bytes;
    a->off = *total;
    *total += kernel_align16(kernel_static_bytes(v->type));
  }
  return true;
}

uint32_t kernel_new_memo(KComp *kc, uint32_t esize) {
  if (!kc->k->minaccess || esize < kc->k->minaccess)
    kc->k->minaccess = esize;
  return kc->k->nmemo++;
}
uint32_t kernel_new_once(KComp *kc) { return kc->k->nonce++; }

uint32_t kernel_new_uniform(KComp *kc, uint32_t n) {
  uint32_t w = kc->k->nu;
  kc->k->nu += n;
  return w;
}

size_t kernel_reserve_shared(KComp *kc, size_t bytes) {
  size_t off = kc->k->shared_bytes;
  kc->k->shared_bytes += kernel_align16(bytes);
  return off;
}

void kernel_reserve_private(KComp *kc, KAttr *a) {
  a->off = kc->k->private_bytes;
  kc->k->private_bytes += kernel_align16(kernel_static_bytes(a->type));
}

static Kernel *new_kernel(KHost *h, Op *op) {
  Kernel *k = ir_alloc(h->ctx, sizeof *k);
  k->in = h;
  k->op = op;
  k->loc = kernel_loc(h, op);
  for (int i = 0; i < 12; i++)
    k->ids[i] = UINT32_MAX;
  return k;
}

static int64_t attr_count(Op *op) {
  Attr *a = ir_op_attr(op, "workgroup_attributions");
  return a && a->kind == ATTR_INT ? a->u.i.v : 0;
}

static Kernel *compile_func(KHost *h, Op *site, Op *fn, bool wide);

Kernel *kernel_of_func(KHost *h, Op *site, Op *fn) {
  GpuState *gs = kernel_gpu(h);
  for (uint32_t i = 0; i < gs->nkernels; i++)
    if (gs->kernels[i].op == fn)
      return gs->kernels[i].k;
  if (!ir_op_attr(fn, "gpu.kernel")) {
    ir_op_error(h->ctx, site, "launches a gpu.func that is not a kernel");
    h->errors++;
    return NULL;
  }
  Kernel *k = compile_func(h, site, fn, false);
  if (!k)
    return NULL;
  /* the block-wise variant, compiled second: the values' ids are the first one's no more, and
   * nothing reads them once a kernel is compiled */
  if (!ir_str_eq(fn->name, "llvm.func") && !k->nattrs && !k->shared_bytes && !k->private_bytes &&
      block_wise(&fn->regions[0])) {
    unsigned errors = h->errors;
    k->wide = compile_func(h, site, fn, true);
    h->errors = errors; /* the first compilation reported what there was */
  }
  GpuState *g = kernel_gpu(h);
  void *p = realloc(g->kernels, (g->nkernels + 1) * sizeof *g->kernels);
  if (!p)
    abort();
  g->kernels = p;
  g->kernels[g->nkernels].op = fn;
  g->kernels[g->nkernels++].k = k;
  return k;
}

static Kernel *compile_func(KHost *h, Op *site, Op *fn, bool wide) {
  Kernel *k = new_kernel(h, fn);
  k->is_wide = wide;
  KComp kc = {.in = h, .k = k, .root = fn};
  bool llf = ir_str_eq(fn->name, "llvm.func");
  Attr *ft = ir_op_attr(fn, "function_type");
  Block *entry = fn->regions[0].first;
  if (!ft || ft->kind != ATTR_TYPE || ft->type->kind != (llf ? TY_LLVM_FUNC : TY_FUNC) || !entry) {
    ir_op_error(h->ctx, fn, "a kernel needs a function type and a body");
    h->errors++;
    return NULL;
  }
  uint32_t nparams = llf ? entry->nargs : ft->type->u.fn.nin, nw = (uint32_t)attr_count(fn);
  if (nparams + nw > entry->nargs) {
    ir_op_error(h->ctx, fn, "the kernel's attributions do not match its arguments");
    h->errors++;
    return NULL;
  }
  uint32_t np = entry->nargs - nparams - nw;
  bool *vary = ir_alloc(h->ctx, entry->nargs + 1);
  for (uint32_t i = nparams + nw; i < entry->nargs; i++)
    vary[i] = true;
  bool ok = compile_kernel(&kc, &fn->regions[0], vary, entry->nargs);
  k->ninputs = nparams;
  k->in_word = ir_alloc(h->ctx, (nparams + 1) * sizeof *k->in_word);
  k->in_words = ir_alloc(h->ctx, (nparams + 1) * sizeof *k->in_words);
  for (uint32_t i = 0; i < nparams; i++) {
    uint8_t v;
    kernel_operand(&kc, &entry->args[i], &k->in_word[i], &v);
    k->in_words[i] = kernel_words(entry->args[i].type);
    k->input_words += k->in_words[i];
  }
  ok = ok && attributions(&kc, fn, entry, nparams, nw, np);
  return ok ? k : NULL;
}

Kernel *kernel_of_launch(KHost *h, Op *launch, uint32_t **in_slots, uint32_t **in_words, uint32_t *nin) {
  Kernel *k = new_kernel(h, launch);
  KComp kc = {.in = h, .k = k, .root = launch};
  Region *r = &launch->regions[0];
  Block *entry = r->first;
  uint32_t nw = (uint32_t)attr_count(launch);
  if (!entry || entry->nargs < 12 + nw)
    return kernel_unsupported(&kc, launch, "this form of gpu.launch") ? NULL : NULL;
  uint32_t np = entry->nargs - 12 - nw;
  bool *vary = ir_alloc(h->ctx, entry->nargs + 1);
  vary[3] = vary[4] = vary[5] = true;
  for (uint32_t i = 12 + nw; i < entry->nargs; i++)
    vary[i] = true;
  bool ok = compile_kernel(&kc, r, vary, entry->nargs);
  k->is_launch = true;
  for (int i = 0; i < 12; i++) {
    uint8_t v;
    kernel_operand(&kc, &entry->args[i], &k->ids[i], &v);
    k->ids_vary[i] = v;
  }
  ok = ok && attributions(&kc, launch, entry, 12, nw, np);
  if (!ok)
    return NULL;
  k->ninputs = kc.ncap;
  k->in_word = kc.cap_word;
  k->in_words = ir_alloc(h->ctx, (kc.ncap + 1) * sizeof *k->in_words);
  *in_slots = ir_alloc(h->ctx, (kc.ncap + 1) * sizeof **in_slots);
  k->in_types = ir_alloc(h->ctx, (kc.ncap + 1) * sizeof *k->in_types);
  for (uint32_t i = 0; i < kc.ncap; i++) {
    k->in_types[i] = kc.caps[i]->type;
    k->in_words[i] = kernel_words(kc.caps[i]->type);
    k->input_words += k->in_words[i];
    (*in_slots)[i] = kc.caps[i]->id;
  }
  *in_words = k->in_words;
  *nin = kc.ncap;
  return k;
}

/* Kernels of another front end (kernel_ptx.c), which compiles its own KBody. */
Kernel *kernel_new_front(KHost *h, Op *op) { return new_kernel(h, op); }

uint32_t kernel_new_varying(KComp *kc, uint32_t n) {
  uint32_t w = kc->k->nv;
  kc->k->nv += n;
  return w;
}

void kernel_front_done(Kernel *k, const KBody *body, uint32_t depth, uint32_t ninputs, uint32_t *in_word) {
  k->body = *body;
  k->depth = depth;
  k->ninputs = k->input_words = ninputs;
  k->in_word = in_word;
  k->in_words = ir_alloc(k->in->ctx, (ninputs + 1) * sizeof *k->in_words);
  for (uint32_t i = 0; i < ninputs; i++)
    k->in_words[i] = 1;
}

uint32_t kernel_input_words(const Kernel *k) { return k->input_words; }
const Type *kernel_input_type(const Kernel *k, uint32_t i) { return k->in_types ? k->in_types[i] : NULL; }
void **kernel_llvm_ext(const Kernel *k) { return &((Kernel *)k)->llvm; }

/* ---- running a launch -------------------------------------------------------------------------- */

/* Frames. A frame's storage depends only on its kernel, the block's shape and the dynamic shared
 * memory, so frames outlive the runs that use them: a run takes a matching frame from the
 * interpreter's cache of idle frames (GpuState.frames, under the gpu mutex) or builds one, and gives
 * it back when it ends; the cache keeps the FRAME_CACHE most recently used. What a run must not
 * inherit is reset when it takes a frame: the once flags, the budget's credit, the shadow of
 * shared memory (only when the epochs near wrapping: older epochs than a block's own read as
 * ordered before it, so a reused shadow needs no clearing), and the inputs. The map of access
 * ranges (KFrame.hash) is never cleared: every entry is checked against the range it names
 * before it is used (kernel_ops.c), so a stale one only misses. */
enum { FRAME_CACHE = 16, EPOCH_RESET = 1u << 30 };

typedef struct FrameBox {
  struct FrameBox *next;
  const Kernel *k;
  uint32_t block[3], group;
  size_t smem, shadow_words;
  bool checks; /* the shadow exists */
  KFrame f;
} FrameBox;

static void frame_free(FrameBox *b) {
  KFrame *f = &b->f;
  free(f->u);
  free(f->v);
  free(f->stack);
  free(f->tmp);
  free(f->lo);
  free(f->acc);
  free(f->hash);
  free(f->memo);
  free(f->once);
  free(f->shadow);
  free(b);
}

static FrameBox *frame_new(const Launch *L) {
  const Kernel *k = L->rk;
  FrameBox *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  KFrame *f = &b->f;
  uint32_t n0 = L->block[0] * L->block[1] * L->block[2], n = n0 * L->group;
  b->k = k;
  b->group = L->group;
  f->wide = L->group > 1 ? n0 : 0;
  memcpy(b->block, L->block, sizeof b->block);
  b->smem = L->smem;
  f->k = k;
  f->n = n;
  f->cap = (size_t)(4 * k->depth + 8) * n;
  size_t priv_stride = kernel_align16(k->private_bytes), local = kernel_align16(k->shared_bytes) + L->smem + priv_stride * n;
  f->u = calloc(k->nu + 1, sizeof *f->u);
  /* the columns on a cache line's start: a lane loop's 32-byte vectors then never straddle two
   * lines (calloc's 16-byte alignment left it to what the heap held before: a matmul's launches
   * ran a tenth slower with its columns 16 bytes past a line than with them on one) */
  size_t vbytes = (((size_t)k->nv * n + 1) * sizeof *f->v + 63) & ~(size_t)63;
  f->v = aligned_alloc(64, vbytes);
  if (f->v)
    memset(f->v, 0, vbytes);
  f->stack = malloc((f->cap + n) * sizeof *f->stack);
  f->tmp = calloc((size_t)k->maxmove * n + 1, sizeof *f->tmp);
  f->lo = malloc(local + 16);
  f->hash = calloc(KHASH, sizeof *f->hash);
  f->memo = calloc(k->nmemo + 1, sizeof *f->memo);
  f->nmemo = k->nmemo;
  f->once = calloc(k->nonce + 1, 1);
  size_t shared = L->in->no_race_check ? 0 : kernel_align16(k->shared_bytes) + L->smem;
  /* two accesses that start in one granule of the smallest access's size overlap: comparing
   * them is right, and the shadow shrinks by that size */
  while (k->minaccess >> (f->gshift + 1) && f->gshift < 4)
    f->gshift++;
  size_t ng = (shared >> f->gshift) + 1;
  size_t nops = (k->nmemo < KSH_OPS ? k->nmemo : KSH_OPS) + 1;
  b->checks = shared != 0;
  b->shadow_words = 2 * ng + nops + n / 2 + 1;
  f->shadow = shared ? calloc(b->shadow_words, sizeof(uint64_t)) : NULL;
  if (f->shadow) {
    f->sh.w = f->shadow;
    f->sh.r = f->sh.w + ng;
    f->sh.loc = (const char **)(void *)(f->sh.r + ng);
    f->sh.lep = (uint32_t *)(void *)(f->sh.r + ng + nops);
  }
  if (!f->u || !f->v || !f->stack || !f->tmp || !f->lo || !f->hash || !f->memo || !f->once || (shared && !f->shadow)) {
    frame_free(b);
    return NULL;
  }
  f->hi = f->lo + local;
  f->smem = f->lo + kernel_align16(k->shared_bytes);
  f->smem_bytes = L->smem;
  f->priv = f->smem + L->smem;
  f->priv_stride = priv_stride;
  for (uint32_t d = 0; d < 3; d++)
    f->bdim[d] = L->block[d];
  uint32_t *ident = f->stack + f->cap;
  for (uint32_t l = 0; l < n; l++)
    ident[l] = l;
  return b;
}

/* A frame for a run of L's blocks: an idle one that fits, or a new one; NULL when out of memory. */
static FrameBox *frame_take(Launch *L, BeKernelCtx *ctx) {
  const Kernel *k = L->rk;
  GpuState *gs = kernel_gpu(L->in);
  bool checks = !L->in->no_race_check && kernel_align16(k->shared_bytes) + L->smem;
  FrameBox *b = NULL;
  pthread_mutex_lock(&gs->mu);
  for (FrameBox **pp = &gs->frames; *pp; pp = &(*pp)->next) {
    FrameBox *c = *pp;
    if (c->k == k && !memcmp(c->block, L->block, sizeof c->block) && c->group == L->group && c->smem == L->smem &&
        c->checks == checks) {
      *pp = c->next;
      gs->nframes--;
      b = c;
      break;
    }
  }
  pthread_mutex_unlock(&gs->mu);
  if (!b && !(b = frame_new(L)))
    return NULL;
  KFrame *f = &b->f;
  f->L = L;
  f->L_in = L->in;
  f->ctx = ctx;
  f->credit = kernel_budget_credit(&L->in->budget);
  f->gon = L->gruns != NULL;
  f->ncalls = 0;
  memset(f->once, 0, k->nonce + 1);
  if (f->shadow && f->epoch >= EPOCH_RESET) {
    memset(f->shadow, 0, b->shadow_words * sizeof(uint64_t));
    f->epoch = 0;
    f->sh.nrun = 0;
    f->sh.gran_epoch = 0;
  }
  for (uint32_t d = 0; d < 3; d++)
    f->gdim[d] = L->grid[d];
  /* inputs and attribution descriptors: the same for every block of the launch */
  uint32_t w = 0, n = f->n;
  for (uint32_t i = 0; i < k->ninputs; i++) {
    memcpy(&f->u[k->in_word[i]], &L->inputs[w], k->in_words[i] * sizeof(Slot));
    w += k->in_words[i];
  }
  for (uint32_t i = 0; i < k->nattrs; i++) {
    const KAttr *a = &k->attrs[i];
    if (!a->vary)
      kernel_describe(&f->u[a->word], 1, a->type, f->lo + a->off, NULL);
    else
      for (uint32_t l = 0; l < n; l++)
        kernel_describe(kw(f, a->word, true) + l, n, a->type, f->priv + l * f->priv_stride + a->off, NULL);
  }
  return b;
}

/* Gives a frame back to the cache, dropping the least recently used beyond FRAME_CACHE. */
static void frame_give(GpuState *gs, FrameBox *b) {
  b->f.L = NULL;
  b->f.ctx = NULL;
  FrameBox *drop = NULL;
  pthread_mutex_lock(&gs->mu);
  b->next = gs->frames;
  gs->frames = b;
  if (++gs->nframes > FRAME_CACHE) {
    FrameBox **pp = &gs->frames;
    while ((*pp)->next)
      pp = &(*pp)->next;
    drop = *pp;
    *pp = NULL;
    gs->nframes--;
  }
  pthread_mutex_unlock(&gs->mu);
  if (drop)
    frame_free(drop);
}

/* The next blocks for a run, [*first, *last): a share of what is left that shrinks as the launch
 * nears its end (a half of it over the runs, at least RUN_THREADS threads' worth), so that few
 * runs carry a big launch and the last ones even out between workers. False when none is left. */
enum { RUN_THREADS = 4096 };

static bool blocks_take(Launch *L, size_t *first, size_t *last) {
  if (L->gcap) { /* a replay: its blocks one at a time */
    if (L->ireplay == L->nreplay)
      return false;
    *first = L->replay[L->ireplay++];
    *last = *first + 1;
    return true;
  }
  size_t n = (size_t)L->block[0] * L->block[1] * L->block[2], g = L->group;
  size_t least = (RUN_THREADS + n - 1) / n;
  size_t b = atomic_load_explicit(&L->next_block, memory_order_relaxed);
  for (;;) {
    if (b >= L->nblocks)
      return false;
    size_t left = L->nblocks - b, take = left / (2 * L->nruns);
    if (take < least)
      take = least;
    take = (take + g - 1) / g * g; /* whole frames of blocks, but for the launch's last */
    if (take > left)
      take = left;
    if (atomic_compare_exchange_weak_explicit(&L->next_block, &b, b + take, memory_order_relaxed,
                                              memory_order_relaxed)) {
      *first = b;
      *last = b + take;
      return true;
    }
  }
}

static void run_blocks(BeKernelCtx *ctx, size_t run, void *user) {
  Launch *L = user;
  const Kernel *k = L->rk;
  size_t first, last;
  if (atomic_load(&L->failed) || !blocks_take(L, &first, &last))
    return; /* the other runs took every block */
  FrameBox *box = frame_take(L, ctx);
  if (!box) {
    if (!atomic_exchange(&L->failed, 1)) {
      GpuState *gs = kernel_gpu(L->in);
      pthread_mutex_lock(&gs->mu);
      ir_op_error(L->in->ctx, k->op, "out of memory for a block of %u threads",
                  L->block[0] * L->block[1] * L->block[2]);
      pthread_mutex_unlock(&gs->mu);
      atomic_fetch_add(&gs->errors, 1);
      be_launch_failed(L->in->be, L->loc);
    }
    return;
  }
  KFrame *f = &box->f;
  f->gcap = L->gcap;
  if (f->gcap)
    f->credit = INT64_MAX; /* the launch paid for these steps */
  uint32_t n = f->n, *ident = f->stack + f->cap, g = L->group;
  bool stop = false;
  do {
    for (size_t b = first; b < last && !(stop = atomic_load_explicit(&L->failed, memory_order_relaxed)); b += g) {
      f->wfirst = b;
      /* the last frame of a block-wise launch may hold fewer blocks: its other threads idle */
      n = last - b < g ? (uint32_t)(last - b) * f->wide : f->n;
      f->bid[0] = (uint32_t)(b % L->grid[0]);
      f->bid[1] = (uint32_t)(b / L->grid[0] % L->grid[1]);
      f->bid[2] = (uint32_t)(b / ((size_t)L->grid[0] * L->grid[1]));
      if (f->priv > f->lo)
        memset(f->lo, 0, (size_t)(f->priv - f->lo));
      if (k->is_launch) {
        for (int i = 0; i < 12; i++) {
          uint32_t d = (uint32_t)i % 3;
          if (k->ids[i] == UINT32_MAX)
            continue;
          if (i >= 3 && i < 6) {
            Slot *col = kw(f, k->ids[i], true);
            for (uint32_t l = 0; l < n; l++)
              col[l].i = d == 0 ? l % f->bdim[0] : d == 1 ? l / f->bdim[0] % f->bdim[1] : l / (f->bdim[0] * f->bdim[1]);
          } else {
            f->u[k->ids[i]].i = i < 3 ? f->bid[d] : i < 9 ? f->gdim[d] : f->bdim[d];
          }
        }
      }
      f->act = ident;
      f->nact = n;
      f->top = 0;
      f->epoch++; /* a block starts a barrier interval of its own */
      f->base = f->epoch;
      f->split = false;
      f->pc = NULL;
      f->pc_all = UINT32_MAX;
      f->blin = b;
      if (kernel_run_body(f, &k->body) == EX_ERROR) {
        stop = true;
        break;
      }
      kernel_race_block_end(f);
    }
  } while (!stop && blocks_take(L, &first, &last));
  if (!kernel_flush_accesses(f)) {
    atomic_store(&L->failed, 1);
    be_launch_failed(L->in->be, L->loc);
  }
  if (L->gruns)
    kernel_race_run_end(f, L->gcap ? NULL : &L->gruns[run]);
  f->gcap = NULL;
  frame_give(kernel_gpu(L->in), box);
}

/* kernel_race_check's replay: the blocks run again, one after another on this thread, as a run
 * of their own whose output and accesses are dropped; each frame's gcap reads what their writes
 * left. */
typedef struct Replay {
  Launch *L;
  BeKernelCtx *ctx;
} Replay;

static bool replay_blocks(void *user, const size_t *blocks, size_t n, KGCap *cap) {
  Replay *r = user;
  Launch *L = r->L;
  L->replay = blocks;
  L->nreplay = n;
  L->ireplay = 0;
  L->gcap = cap;
  run_blocks(r->ctx, 0, L);
  bool ok = L->ireplay == n && !atomic_load(&L->failed);
  L->gcap = NULL;
  return ok;
}

/* The runs of a launch: one per RUN_THREADS threads of it, at most MAX_RUNS, each taking blocks
 * until none is left (blocks_take). A launch too small to share runs as one run on the thread
 * that runs the launch, waking no worker; in a bigger one, a run that finds no blocks left costs
 * next to nothing, so the count need not match the backend's workers. */
enum { MAX_RUNS = 64, WIDE_THREADS = 256 };

static void kernel_run(BeKernelCtx *ctx, const BeLaunch *bl, void *user) {
  Launch *L = user;
  (void)bl;
  size_t threads = (size_t)L->block[0] * L->block[1] * L->block[2];
  size_t work = L->nblocks > SIZE_MAX / threads ? SIZE_MAX : L->nblocks * threads;
  L->rk = L->k;
  L->group = 1;
  /* blocks are compared with each other in global memory (kernel_race.c); a block-wise frame logs
     each of its blocks' accesses apart */
  bool between = L->nblocks > 1 && !L->in->no_race_check;
  if (L->k->wide && threads < WIDE_THREADS && L->nblocks > 1 && L->block[1] == 1 && L->block[2] == 1 &&
      L->grid[1] == 1 && L->grid[2] == 1) { /* block_wise, mark_lanes */
    L->rk = L->k->wide;
    L->group = (uint32_t)(WIDE_THREADS / threads);
    if (L->group > L->nblocks)
      L->group = (uint32_t)L->nblocks;
  }
  L->nruns = work / RUN_THREADS + (work % RUN_THREADS != 0);
  if (L->nruns > MAX_RUNS)
    L->nruns = MAX_RUNS;
  if (L->nruns > L->nblocks)
    L->nruns = L->nblocks;
  if (between)
    L->gruns = calloc(L->nruns, sizeof *L->gruns);
  be_kernel_parallel_for(ctx, L->nruns, run_blocks, L);
  if (L->gruns) {
    Replay rp = {L, ctx};
    if (!atomic_load(&L->failed) &&
        kernel_race_check(L->in, L->gruns, L->nruns, L->grid, L->k->op, replay_blocks, &rp)) {
      atomic_store(&L->failed, 1);
      atomic_fetch_add(&kernel_gpu(L->in)->errors, 1);
      be_launch_failed(L->in->be, L->loc);
    }
    for (size_t i = 0; i < L->nruns; i++)
      free(L->gruns[i].r);
    free(L->gruns);
    L->gruns = NULL;
  }
  atomic_store(&L->done, 1);
}

/* A launch refused before it started: an error at the launch op (or, without one, at loc). */
static int launch_error(KHost *in, Op *site, const char *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int launch_error(KHost *in, Op *site, const char *loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (site)
    ir_op_error(in->ctx, site, "%s", msg);
  else
    ir_diag(in->ctx, DIAG_ERROR, NULL, "%s: %s", loc, msg);
  in->errors++;
  return EX_ERROR;
}

int kernel_launch(KHost *in, Op *site, Kernel *k, const int64_t grid[3], const int64_t block[3], int64_t smem,
                  const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok, const BeStream *stream,
                  const char *loc) {
  *tok = NULL;
  int64_t threads = 1, blocks = 1;
  for (int d = 0; d < 3; d++) {
    if (grid[d] < 1 || grid[d] > INT32_MAX)
      return launch_error(in, site, loc, "grid size %lld in dimension %c is not positive", (long long)grid[d],
                          "xyz"[d]);
    if (block[d] < 1 || block[d] > MAX_BLOCK_THREADS)
      return launch_error(in, site, loc, "block size %lld in dimension %c is not in [1, %d]", (long long)block[d],
                          "xyz"[d], MAX_BLOCK_THREADS);
    threads *= block[d];
    if (__builtin_mul_overflow(blocks, grid[d], &blocks))
      return launch_error(in, site, loc, "a grid of more than 2^63 blocks");
  }
  if (threads > MAX_BLOCK_THREADS)
    return launch_error(in, site, loc, "a block of %lld threads exceeds the limit of %d", (long long)threads,
                        MAX_BLOCK_THREADS);
  if (smem < 0 || (uint64_t)smem + k->shared_bytes > MAX_SHARED_BYTES)
    return launch_error(in, site, loc, "%lld bytes of dynamic shared memory (and %zu static) exceed the limit of %u",
                        (long long)smem, k->shared_bytes, MAX_SHARED_BYTES);
  if (!in->be)
    return launch_error(in, site, loc, "a launch needs a device");
  Launch *L = calloc(1, sizeof *L);
  Slot *copy = calloc(k->input_words + 1, sizeof *copy);
  if (!L || !copy) {
    free(L);
    free(copy);
    return launch_error(in, site, loc, "out of memory for a launch");
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
  L->loc = loc;
  L->seq = in->nlaunches++;
  L->told = calloc((k->wide && k->wide->nmemo > k->nmemo ? k->wide->nmemo : k->nmemo) + 1, 1);
  L->site = site;
  GpuState *gs = kernel_gpu(in);
  /* forget launches that ended (their callback is done with them); only once the list has doubled
   * since the last sweep, so that launches a scheduler keeps queued cost O(1) each, not a walk */
  if (gs->nlaunch_list >= gs->sweep_at) {
    for (Launch **pp = &gs->launches; *pp;) {
      Launch *old = *pp;
      if (atomic_load(&old->done)) {
        *pp = old->next;
        if (old->tok)
          be_token_release(in->be, old->tok);
        free(old->inputs);
        free(old->told);
        free(old);
        gs->nlaunch_list--;
      } else {
        pp = &old->next;
      }
    }
    gs->sweep_at = 2 * gs->nlaunch_list + 8;
  }
  L->next = gs->launches;
  gs->launches = L;
  gs->nlaunch_list++;
  BeLaunch bl = {{L->grid[0], L->grid[1], L->grid[2]}, {L->block[0], L->block[1], L->block[2]}, (uint32_t)smem, NULL, 0,
                 k->bounded};
  if (stream) { /* stream-ordered, after the tokens too; the token stands for the stream's work */
    for (size_t i = 0; i < ndeps; i++)
      if (deps[i])
        be_stream_wait_token(in->be, *stream, deps[i], loc);
    if (be_launch_host(in->be, kernel_run, L, &bl, *stream, loc) == BE_OK)
      be_token_from_stream(in->be, *stream, &L->tok, loc);
  } else if (be_token_launch_host(in->be, kernel_run, L, &bl, deps, ndeps, &L->tok, loc) != BE_OK && L->tok) {
    atomic_store(&L->done, 1); /* refused (said): it never runs, and its token is a join of the deps */
  }
  if (!L->tok) {
    atomic_store(&L->done, 1);
    return launch_error(in, site, loc, "the device could not take the launch");
  }
  be_token_retain(in->be, L->tok); /* the launch's own: kernel_wait_all may wait for it after the
                                      program released its token */
  *tok = L->tok;
  return EX_NEXT;
}

void kernel_wait_all(KHost *in) {
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

void kernel_free_all(KHost *in) {
  GpuState *gs = in->gpu;
  if (!gs)
    return;
  kernel_wait_all(in);
  for (Launch *L = gs->launches, *next; L; L = next) {
    next = L->next;
    if (in->be && L->tok)
      be_token_release(in->be, L->tok);
    free(L->inputs);
    free(L->told);
    free(L);
  }
  gs->launches = NULL;
  gs->nlaunch_list = gs->sweep_at = 0;
  for (FrameBox *b = gs->frames, *next; b; b = next) {
    next = b->next;
    frame_free(b);
  }
  gs->frames = NULL;
  gs->nframes = 0;
}
