/* kernel.c - kernels: compiling gpu.func and gpu.launch bodies to the engine's executable form
 * (internal.h), the host's engine state, and the diagnostics of running kernels.
 *
 * Compiling. An analysis first decides which values are uniform (the same in every thread of a
 * block: constants, block ids and sizes, kernel arguments, and whatever only they feed) and which
 * vary (thread ids, shuffles, atomics, loads through varying addresses, results of control flow
 * that varying conditions steer, and every value of a multi-block region). A uniform value takes
 * one word per value word; a varying one a column of n words, n the threads of the block. Ops then
 * compile to KIns (kernel.h) as host ops compile to Ins.
 *
 * Running: a block runs its body once with a mask of active threads, control flow narrowing it
 * (kernel_cfg.c); a launch runs its blocks over the backend's workers (kernel_launch.c).
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
 * memory are checked against each other between barriers (kernel_mem.c: two threads, one element,
 * one write, no barrier in between is a race). Atomics on global memory are reported as atomic
 * accesses (kernel_note_atomic, BE_ACC_ATOMIC): they race with plain accesses of other launches
 * and the host, never with other atomics.
 *
 * The ops themselves: control flow and calls in kernel_cfg.c; ids, barriers, shuffles, reductions
 * and gpu.printf in kernel_ops.c; memory in kernel_mem.c; arith, index and math in kernel_arith.c.
 *
 * Diagnostics and gpu.printf output take the interpreter's gpu mutex; the first error of a launch
 * stops its other blocks and fails the device (be_launch_failed): the host stops at its next
 * synchronization (gpu.c, llvm_extern.c). */
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

bool kernel_unsupported(KComp *kc, Op *op, const char *what) {
  ir_op_error(kc->in->ctx, op, "%s is not supported in kernels yet", what);
  kc->in->errors++;
  return false;
}

/* Places the values of a callee compiled in place for one call: which vary (its entry block's
 * argument i when vary[i]), and their words in the kernel's. */
void kernel_place_callee(KComp *kc, Region *r, const uint8_t *vary) {
  Block *entry = r->first;
  claim_region(r);
  for (uint32_t i = 0; i < entry->nargs; i++)
    if (vary[i])
      entry->args[i].id |= KV_VARY;
  bool changed = true;
  while (changed) {
    changed = false;
    mark_region(r, &changed);
  }
  place_region(kc->k, r);
  mark_tids(r);
}

/* ---- compiling ops and bodies ---------------------------------------------------------------- */

typedef bool (*KCompileFn)(KComp *kc, Op *op, KIns *k);

static const struct {
  const char *name;
  KCompileFn fn;
} kops[] = {
  {"scf.for", kernel_compile_for},
  {"func.call", kernel_compile_call},
  {"func.return", kernel_compile_yield},
  {"scf.if", kernel_compile_if},
  {"scf.while", kernel_compile_while},
  {"scf.condition", kernel_compile_condition},
  {"scf.yield", kernel_compile_yield},
  {"scf.execute_region", kernel_compile_execute_region},
  {"cf.br", kernel_compile_br},
  {"cf.cond_br", kernel_compile_br},
  {"llvm.br", kernel_compile_br},
  {"llvm.cond_br", kernel_compile_br},
  {"llvm.return", kernel_compile_yield},
  {"gpu.return", kernel_compile_yield},
  {"gpu.terminator", kernel_compile_yield},
  {"gpu.yield", kernel_compile_yield},
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
