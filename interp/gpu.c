/* gpu.c - the gpu dialect's host ops, run through the backend's token door (backend.h "tokens").
 *
 * A !gpu.async.token value is one word holding a BeToken. An async op is submitted with the
 * tokens of its dependency operands and its result is the op's token; nothing else orders it, so
 * two ops that no chain of tokens (or host wait) orders may run at once on the device, and their
 * conflicting accesses are races. A synchronous op (no `async`) is submitted the same way and then
 * waited for. gpu.wait without `async` waits for its dependencies; with it, it joins them into one
 * token.
 *
 * Token lifetime: a token value may be copied to any slot (iter_args, yields, branch arguments),
 * so no single slot owns it then. Where it is not copied, its slot does: when a function is
 * compiled, a token result that only gpu ops read as a dependency (in its own block, or in the
 * scf regions of that block's ops, which run before their op returns) is released right after
 * the op of its block that uses it last (gpu_own_tokens), so a long program holds only the tokens
 * it can still name and the device frees each op once it is done (a launch keeps a reference of
 * its own, kernel_launch.c, for the wait at the end of the run). An scf.for owns the tokens it carries
 * where nothing else copies them ("tokens carried by scf.for" below). Every other token a run
 * makes is kept in the run's list and released when the interpreter is destroyed; a token a
 * synchronous op made and waited for is released at once.
 *
 * Memrefs passed to these ops are descriptors; byte counts come from their sizes and element type
 * and must describe contiguous (identity-layout) memory. Kernels (kernel.c) run as one device op
 * per launch; their errors are counted when the host next waits for them, and a synchronous point
 * that finds a failed kernel ends the run (gpu_sync_point: failed launches are sticky). */
#include "interp/internal.h"
#include "interp/llvm.h"
#include "mgpu/mgpu.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- state ---------------------------------------------------------------------------------- */

void gpu_keep_token(Interp *in, BeToken t) {
  if (!t)
    return;
  GpuState *gs = interp_gpu(in);
  if (gs->ntoks == gs->captoks) {
    gs->captoks = gs->captoks ? gs->captoks * 2 : 64;
    BeToken *p = realloc(gs->toks, gs->captoks * sizeof *p);
    if (!p)
      abort();
    gs->toks = p;
  }
  gs->toks[gs->ntoks++] = t;
}

void gpu_fold_errors(Interp *in) {
  if (in->gpu)
    in->errors += atomic_exchange(&in->gpu->errors, 0);
}

int gpu_sync_point(Frame *fr, const Ins *ins) {
  Interp *in = fr->in;
  unsigned before = in->errors;
  gpu_fold_errors(in);
  const char *failed = be_failure(in->be);
  if (!failed && in->errors == before)
    return EX_NEXT;
  const Op *op = ins->op;
  ir_diag(in->ctx, DIAG_NOTE, ir_op_loc(op),
          "the program ends at this synchronization: the kernel launched at '%s' failed, and a failed "
          "launch is sticky",
          failed ? failed : "?");
  return EX_ERROR;
}

void interp_gpu_finish(Interp *in) {
  if (!in->gpu)
    return;
  kernel_wait_all(&in->host);
  gpu_fold_errors(in);
}

static void unregister(Interp *in, size_t i, const char *loc);

void interp_gpu_free(Interp *in) {
  GpuState *gs = in->gpu;
  mgpu_host_gone(&in->host); /* PTX modules the program loaded through the mgpu* ABI */
  if (!gs)
    return;
  kernel_free_all(&in->host);
  while (gs->nregs)
    unregister(in, gs->nregs - 1, "exit");
  free(gs->regs);
  for (size_t i = 0; i < gs->ntoks && in->be; i++)
    be_token_release(in->be, gs->toks[i]);
  free(gs->toks);
  free(gs->kernels);
  pthread_mutex_destroy(&gs->mu);
  free(gs);
  in->gpu = NULL;
}

/* ---- shared pieces -------------------------------------------------------------------------- */

typedef struct GOp {                  /* pointers first, then the narrow fields: no padding */
  const char *loc;
  Type *type;                         /* the memref operated on */
  Kernel *k;
  Offload *off;                       /* gpu.launch_func on a device that runs device code */
  uint32_t *in_slots, *in_words;      /* gpu.launch: host values the body uses */
  const char *label;                  /* the op as traces name it: "gpu.memcpy", "gpu.launch_func
                                         @kernels::@vadd" (be_trace_label) */
  ExecFn run;                         /* what labelled() runs */
  const Value *kargs;                 /* gpu.launch_func of a gpu.func whose argument types are the
                                         operands': its arguments, which x_launch_func reads for
                                         their types instead of the op (one kernel's, in cache) */
  uint32_t ndeps;
  uint32_t rank, esize;
  uint32_t nin;
  uint32_t first_arg, nargs;          /* gpu.launch_func: kernel operands */
  int smem;                           /* operand of the dynamic shared memory size, or -1 */
  int stream;                         /* gpu.launch_func <%stream>: its operand, or -1 */
  bool async;                         /* has a token result (the last result) */
  bool host_shared;
  bool owned;                         /* its token result is released at its last use */
  bool to_loop;                       /* its token result goes to an scf.for's carried argument,
                                         which owns it then (gpu_loop_tokens) */
} GOp;

static bool is_token(const Type *t) { return t->kind == TY_GPU_TOKEN; }

static GOp *gop(Comp *c, Op *op) {
  GOp *g = ir_alloc(c->in->ctx, sizeof *g);
  g->loc = interp_loc_once(c, op);
  while (g->ndeps < op->noperands && is_token(op->operands[g->ndeps]->type))
    g->ndeps++;
  g->async = op->nresults && is_token(op->results[op->nresults - 1].type);
  g->smem = -1;
  g->stream = -1;
  char name[200];
  snprintf(name, sizeof name, "%.*s", (int)op->name.len, op->name.s);
  g->label = ir_intern_cstr(c->in->ctx, name).s;
  return g;
}

/* Every gpu op runs through here, so that what it records in a trace is named by the op. */
static int labelled(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  be_trace_label(g->label);
  int r = g->run(fr, ins);
  be_trace_label(NULL);
  return r;
}

static void set_run(Ins *ins, ExecFn fn) {
  GOp *g = ins->aux;
  g->run = fn;
  ins->fn = labelled;
}

/* ---- token lifetime ------------------------------------------------------------------------- */

/* The tokens whose last use an op is: run the op, then release them. */
struct TokDrops {
  ExecFn fn;        /* the op's own */
  uint32_t n;
  uint32_t slot[];  /* token slots */
};

static int x_then_release(Frame *fr, const Ins *ins) {
  const struct TokDrops *t = ins->drops;
  int r = t->fn(fr, ins);
  for (uint32_t i = 0; i < t->n; i++) {
    BeToken tok = fr->s[t->slot[i]].p;
    fr->s[t->slot[i]].p = NULL;
    if (tok && fr->in->be)
      be_token_release(fr->in->be, tok);
  }
  return r;
}

/* Ops that read a token only to wait for it (as a dependency or in a host wait). */
static const char *const token_readers[] = {"gpu.wait", "gpu.memcpy", "gpu.memset", "gpu.alloc", "gpu.dealloc",
                                            "gpu.launch_func", "gpu.launch"};
/* Ops whose regions run, if at all, before the op returns. */
static const char *const inline_regions[] = {"scf.for", "scf.if", "scf.while", "scf.execute_region",
                                             "scf.index_switch"};

static bool named(const Op *op, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (ir_str_eq(op->name, names[i]))
      return true;
  return false;
}

#define NAMED(op, list) named(op, list, sizeof list / sizeof *list)
#define NOT_OWNED UINT32_MAX /* gpu_own_tokens: a token with a use that is not only a wait */

/* A loop-carried token of an scf.for: its body's argument slot, the slot the yield moves there
 * (the same slot where the yield passes the argument on unchanged), and the loop's result ri,
 * which gpu_own_tokens may find owned: only waited for in the loop's block, released after the
 * op `at` of that block (the loop then hands its reference to the result). The init operand of
 * such a token counts as a wait: the loop takes a reference of its own. */
typedef struct LoopTok {
  uint32_t arg, y, ri, at;
  bool pass, res_owned;
  bool to_loop; /* the result is what an enclosing scf.for's yield carries on (gpu_loop_tokens) */
} LoopTok;
struct LoopToks {
  uint32_t n;
  LoopTok t[];
};

/* The carried tokens an scf.for owns, where ins is its compiled op (also when drops wrap it). */
static LoopToks *for_tokens(const Ins *ins) {
  return ins->fn == x_then_release ? interp_for_tokens(ins->drops->fn, ins->aux) : interp_for_tokens(ins->fn, ins->aux);
}

/* The token of lt that the loop's result ri carries, or NULL. */
static LoopTok *carried(LoopToks *lt, uint32_t ri) {
  for (uint32_t i = 0; lt && i < lt->n; i++)
    if (lt->t[i].ri == ri)
      return &lt->t[i];
  return NULL;
}

/* Whether operand `index` of u, an op of the block whose compiled ops are ins, is the init of a
   token its loop owns. */
static bool loop_init(const Ins *ins, const Op *u, uint32_t index) {
  const Ins *li = &ins[u->order];
  return index >= 3 && li->op == u && carried(for_tokens(li), index - 3);
}

/* The op of b (its compiled ops: ins) that is user or holds it, if user only reads the token (at
   its operand index) and every op between holds regions that run inline; else NULL. */
static Op *holder_in(Block *b, const Ins *ins, Op *user, uint32_t index) {
  if (!NAMED(user, token_readers) && !(user->parent == b && loop_init(ins, user, index)))
    return NULL;
  Op *o = user;
  while (o->parent != b) {
    o = ir_op_parent_op(o);
    if (!o || !NAMED(o, inline_regions))
      return NULL;
  }
  return o;
}

/* An async gpu op of b (ins[k] compiled from b's k-th op), whose token may be owned. */
static GOp *async_gop(const Ins *ins, uint32_t k) {
  GOp *g = ins[k].fn == labelled ? ins[k].aux : NULL;
  return g && g->async ? g : NULL;
}

/* The uses in u, and in the ops nested in it, of the tokens of b's ops, u being held by b's k-th
   op (inl: every op between them holds regions that run inline), into last (by op of b: the
   last holder of its token, or NOT_OWNED). Where b is its region's only block, these are all the
   uses there are. */
static void scan_uses(Block *b, const Ins *ins, const Op *u, uint32_t k, bool inl, uint32_t *last) {
  bool reader = inl && NAMED(u, token_readers);
  for (uint32_t i = 0; i < u->noperands; i++) {
    const Value *v = u->operands[i];
    const Op *d = v->def;
    if (!d || d->parent != b || v != &d->results[d->nresults - 1] || !async_gop(ins, d->order))
      continue;
    if (!reader && !(inl && u->parent == b && loop_init(ins, u, i)))
      last[d->order] = NOT_OWNED;
    else if (k > last[d->order] && last[d->order] != NOT_OWNED)
      last[d->order] = k;
  }
  if (!u->nregions)
    return;
  inl = inl && NAMED(u, inline_regions);
  for (uint32_t r = 0; r < u->nregions; r++)
    for (Block *nb = u->regions[r].first; nb; nb = nb->next)
      for (Op *o = nb->first; o; o = o->next)
        scan_uses(b, ins, o, k, inl, last);
}

/* Whether the result of loop (b's k-th op) that carried token t becomes only waits for, in b's
   ops or inline regions of theirs; then t->at: the op of b that uses it last. */
static bool loop_result_owned(Block *b, const Ins *ins, const Op *loop, uint32_t k, LoopTok *t) {
  t->at = k;
  for (Use *u = loop->results[t->ri].uses; u; u = u->next) {
    Op *h = holder_in(b, ins, u->user, u->index);
    if (!h)
      return t->res_owned = false;
    if (h->order > t->at)
      t->at = h->order;
  }
  return t->res_owned = true;
}

/* Adds token slot `slot` to what op `at` releases after it runs (room for count[at] of them). */
static void add_drop(Comp *c, const Ins *ins, struct TokDrops **d, const uint32_t *count, uint32_t at,
                     uint32_t slot) {
  if (!d[at]) {
    d[at] = ir_alloc(c->in->ctx, sizeof *d[at] + count[at] * sizeof d[at]->slot[0]);
    d[at]->fn = ins[at].fn;
  }
  d[at]->slot[d[at]->n++] = slot;
}

/* Which tokens of b's ops are owned (every use only waits for it, in b's ops or inline regions
   of theirs) and the op of b that uses each last. Where b is its region's only block, one walk
   forward over b's ops and their operands finds them: an op's operands lie by the op, where the
   compile just read them, and the ops they name came before. Elsewhere a use may be in another
   block, and each token's use list is walked: the uses lie by the later ops that make them,
   scattered over the program. The loops go by index (ins[k].op is b's k-th op), not down the
   ops' links, so that the loads of one op do not wait for those of the one before. */
bool gpu_own_tokens(Comp *c, Block *b, Ins *ins, uint32_t n) {
  bool any = false;
  for (uint32_t k = 0; k < n; k++) {
    ins[k].op->order = k;
    any = any || async_gop(ins, k) || for_tokens(&ins[k]);
  }
  if (!any)
    return true;
  uint32_t *last = malloc(n * sizeof *last), *count = calloc(n, sizeof *count);
  if (!last || !count) {
    free(last);
    free(count);
    return false;
  }
  for (uint32_t k = 0; k < n; k++)
    last[k] = k;
  if (b->parent && b->parent->first == b && !b->next) {
    for (uint32_t k = 0; k < n; k++)
      scan_uses(b, ins, ins[k].op, k, true, last);
  } else {
    for (uint32_t k = 0; k < n; k++) {
      if (!async_gop(ins, k))
        continue;
      Op *o = ins[k].op;
      for (Use *u = o->results[o->nresults - 1].uses; u && last[k] != NOT_OWNED; u = u->next) {
        Op *h = holder_in(b, ins, u->user, u->index);
        if (!h)
          last[k] = NOT_OWNED;
        else if (h->order > last[k])
          last[k] = h->order;
      }
    }
  }
  for (uint32_t k = 0; k < n; k++) {
    GOp *g = async_gop(ins, k);
    if (g && last[k] != NOT_OWNED) {
      count[last[k]]++;
      g->owned = true;
    }
    LoopToks *lt = for_tokens(&ins[k]);
    for (uint32_t i = 0; lt && i < lt->n; i++)
      if (loop_result_owned(b, ins, ins[k].op, k, &lt->t[i]))
        count[lt->t[i].at]++;
  }
  struct TokDrops **d = calloc(n, sizeof *d);
  if (!d) {
    free(last);
    free(count);
    return false;
  }
  for (uint32_t k = 0; k < n; k++) {
    Op *o = ins[k].op;
    GOp *g = ins[k].fn == labelled ? ins[k].aux : NULL;
    if (g && g->owned)
      add_drop(c, ins, d, count, last[k], o->results[o->nresults - 1].id);
    LoopToks *lt = for_tokens(&ins[k]);
    for (uint32_t i = 0; lt && i < lt->n; i++)
      if (lt->t[i].res_owned)
        add_drop(c, ins, d, count, lt->t[i].at, o->results[lt->t[i].ri].id);
  }
  for (uint32_t i = 0; i < n; i++)
    if (d[i]) {
      ins[i].drops = d[i];
      ins[i].fn = x_then_release;
    }
  free(d);
  free(last);
  free(count);
  return true;
}

/* ---- tokens carried by scf.for ------------------------------------------------------------ */


/* The GOp of a compiled gpu op, also where its last-use drops wrap it (gpu_own_tokens). */
static GOp *ins_gop(const Ins *ins) {
  ExecFn fn = ins->fn == x_then_release ? ins->drops->fn : ins->fn;
  return fn == labelled ? ins->aux : NULL;
}

/* Whether every use of v in b (but the yield y's, at its operand i) only waits for it, in b's
   ops or the inline regions of theirs; and y uses v once, at i, if at all. */
static bool waited_only(Block *b, const Ins *ins, const Value *v, const Op *y, uint32_t i) {
  for (uint32_t j = 0; j < y->noperands; j++)
    if (j != i && y->operands[j] == v)
      return false;
  for (Use *u = v->uses; u; u = u->next)
    if (u->user != y && !holder_in(b, ins, u->user, u->index))
      return false;
  return true;
}

LoopToks *gpu_loop_tokens(Comp *c, Op *op, Body *body) {
  Block *b = op->regions[0].first;
  Op *y = b ? b->last : NULL;
  if (!c->in->be || !b || b->next || body->nblocks != 1 || !y || !ir_str_eq(y->name, "scf.yield") ||
      y->noperands + 1 != b->nargs)
    return NULL;
  const Block1 *blk = &body->blocks[0];
  LoopToks *lt = NULL;
  for (uint32_t i = 0; i < y->noperands; i++) {
    Value *arg = &b->args[i + 1], *v = y->operands[i];
    if (!is_token(arg->type) || !waited_only(b, blk->ins, arg, y, i))
      continue;
    GOp *g = NULL;
    LoopTok *inner = NULL;
    if (v != arg) { /* a token of an op of the body that only waits read else: the last result of an
                       async gpu op, or a token an scf.for of the body carried */
      Op *d = v->def;
      if (!d || d->parent != b || d->order >= blk->n || blk->ins[d->order].op != d ||
          !waited_only(b, blk->ins, v, y, i))
        continue;
      const Ins *di = &blk->ins[d->order];
      g = ins_gop(di);
      if (g && (!g->async || g->owned || v != &d->results[d->nresults - 1]))
        continue;
      if (!g && (!(inner = carried(for_tokens(di), (uint32_t)(v - d->results))) || inner->res_owned))
        continue;
    }
    if (!lt) {
      lt = ir_alloc(c->in->ctx, sizeof *lt + y->noperands * sizeof lt->t[0]);
      lt->n = 0;
    }
    if (g)
      g->to_loop = true;
    if (inner)
      inner->to_loop = true;
    lt->t[lt->n++] = (LoopTok){arg->id, v->id, i, 0, v == arg, false, false};
  }
  return lt;
}

void gpu_loop_enter(Frame *fr, const LoopToks *lt) {
  for (uint32_t i = 0; i < lt->n; i++) {
    be_token_retain(fr->in->be, fr->s[lt->t[i].arg].p);
    if (!lt->t[i].pass)
      fr->s[lt->t[i].y].p = NULL;
  }
}

void gpu_loop_release(Frame *fr, const LoopToks *lt) {
  for (uint32_t i = 0; i < lt->n; i++)
    if (!lt->t[i].pass)
      be_token_release(fr->in->be, fr->s[lt->t[i].arg].p);
}

void gpu_loop_moved(Frame *fr, const LoopToks *lt) {
  for (uint32_t i = 0; i < lt->n; i++)
    if (!lt->t[i].pass)
      fr->s[lt->t[i].y].p = NULL;
}

void gpu_loop_leave(Frame *fr, const LoopToks *lt, bool failed) {
  for (uint32_t i = 0; i < lt->n; i++) {
    if (failed || (!lt->t[i].res_owned && !lt->t[i].to_loop))
      gpu_keep_token(fr->in, fr->s[lt->t[i].arg].p);
    if (!lt->t[i].pass)
      gpu_keep_token(fr->in, fr->s[lt->t[i].y].p);
  }
}

static bool no_device(Comp *c, Op *op) {
  if (c->in->be)
    return false;
  ir_op_error(c->in->ctx, op, "needs a device (no backend)");
  c->in->errors++;
  return true;
}

static bool memref_ok(Comp *c, Op *op, Type *t, GOp *g) {
  if (t->kind != TY_MEMREF && t->kind != TY_UNRANKED_MEMREF)
    return interp_unsupported(c, op, "an operand that is not a memref");
  g->type = t;
  g->rank = t->kind == TY_MEMREF ? t->u.sh.rank : 0;
  g->esize = interp_elem_bytes(t->u.sh.elem);
  if (!g->esize)
    return interp_unsupported(c, op, "memory of this element type");
  return true;
}

/* The ranked descriptor of operand i (through the pointer of an unranked one) and its rank. */
static Slot *descriptor(Frame *fr, const Ins *ins, uint32_t i, const GOp *g, uint32_t *rank) {
  Slot *d = &fr->s[ins->in[i]];
  if (g->type->kind == TY_UNRANKED_MEMREF) {
    *rank = (uint32_t)d[0].i;
    return d[1].p;
  }
  *rank = g->rank;
  return d;
}

/* Elements of a descriptor; false when its strides are not the identity layout's. */
static bool contiguous(const Slot *d, uint32_t rank, uint64_t *n) {
  int64_t st = 1;
  *n = 1;
  for (uint32_t i = rank; i-- > 0;) {
    int64_t sz = d[D_SIZES + i].i;
    if (sz != 1 && d[D_SIZES + rank + i].i != st)
      return false;
    if (sz < 0 || __builtin_mul_overflow(st, sz, &st))
      return false; /* no memory holds it: not the identity layout of anything */
    *n *= (uint64_t)sz;
  }
  return true;
}

/* The address of the first element; wrapping, as the address of a bad view may (the device
 * refuses an access outside the memory it knows). */
static char *data_of(const Slot *d, uint32_t esize) {
  return (char *)((uintptr_t)d[D_ALIGNED].p + (uintptr_t)d[D_OFFSET].i * esize);
}

static const BeToken *deps_of(Frame *fr, const Ins *ins, uint32_t n, BeToken *buf) {
  for (uint32_t i = 0; i < n; i++)
    buf[i] = fr->s[ins->in[i]].p;
  return buf;
}

/* After an op made tok: an async op gives it to its result; a synchronous one waits for it.
 * EX_ERROR when a kernel the wait covered failed. */
static int finish(Frame *fr, const Ins *ins, const GOp *g, BeToken tok) {
  Interp *in = fr->in;
  if (g->async) {
    if (!g->owned && !g->to_loop)
      gpu_keep_token(in, tok);
    fr->s[ins->out[ins->nout - 1]].p = tok;
    return EX_NEXT;
  }
  if (tok) {
    be_token_wait(in->be, &tok, 1, g->loc);
    be_token_release(in->be, tok);
  }
  return gpu_sync_point(fr, ins);
}

/* ---- gpu.wait ------------------------------------------------------------------------------- */

static int x_wait(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  BeToken buf[64], *deps = ins->nin <= 64 ? buf : calloc(ins->nin, sizeof *deps);
  if (!deps)
    return interp_error(fr, ins, "out of memory");
  deps_of(fr, ins, ins->nin, deps);
  int r = EX_NEXT;
  if (g->async) {
    BeToken tok = NULL;
    be_token_join(fr->in->be, deps, ins->nin, &tok, g->loc);
    r = finish(fr, ins, g, tok);
  } else if (ins->nin) {
    be_token_wait(fr->in->be, deps, ins->nin, g->loc);
    r = gpu_sync_point(fr, ins);
  }
  if (deps != buf)
    free(deps);
  return r;
}

bool c_gpu_wait(Comp *c, Op *op, Ins *ins) {
  if (no_device(c, op))
    return false;
  ins->aux = gop(c, op);
  set_run(ins, x_wait);
  return true;
}

/* ---- memory --------------------------------------------------------------------------------- */

static int x_alloc(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  BeToken deps[64];
  Slot *d = &fr->s[ins->out[0]];
  uint32_t dyn = g->ndeps;
  uint64_t n = 1;
  for (uint32_t i = 0; i < g->rank; i++) {
    int64_t sz = g->type->u.sh.shape[i];
    if (sz == IR_DYNAMIC && (sz = fr->s[ins->in[dyn++]].i) < 0)
      return interp_error(fr, ins, "negative size %lld for dimension %u", (long long)sz, i);
    d[D_SIZES + i].i = sz;
    if (__builtin_mul_overflow(n, (uint64_t)sz, &n))
      return interp_error(fr, ins, "allocation size overflows");
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(n, (uint64_t)g->esize, &bytes) || bytes > INT64_MAX)
    return interp_error(fr, ins, "allocation size overflows");
  int64_t st = 1;
  for (uint32_t i = g->rank; i-- > 0;) {
    d[D_SIZES + g->rank + i].i = st;
    if (__builtin_mul_overflow(st, d[D_SIZES + i].i, &st))
      return interp_error(fr, ins, "allocation size overflows");
  }
  void *p = NULL;
  BeToken tok = NULL;
  if (be_token_alloc(fr->in->be, bytes, g->host_shared, deps_of(fr, ins, g->ndeps, deps), g->ndeps, &p, &tok,
                     g->loc) == BE_ERR_MEMORY && n)
    return interp_error(fr, ins, "out of memory: cannot allocate %llu bytes on the device", (unsigned long long)bytes);
  d[D_ALLOC].p = p;
  d[D_ALIGNED].p = p;
  d[D_OFFSET].i = 0;
  if (p) /* in the memory table, so that views of it are known memory (runner utils, launches) */
    interp_low_block_add(fr->in, p, bytes, g->host_shared ? R_SHARED : R_DEVICE, g->loc);
  return finish(fr, ins, g, tok);
}

bool c_gpu_alloc(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  if (no_device(c, op) || !memref_ok(c, op, op->results[0].type, g))
    return false;
  if (g->type->kind != TY_MEMREF || g->type->u.sh.layout)
    return interp_unsupported(c, op, "an unranked allocation or one with a layout");
  if (seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 3 && seg->u.darr.ivals[2])
    return interp_unsupported(c, op, "an allocation with symbol operands");
  if (g->ndeps > 64)
    return interp_unsupported(c, op, "more than 64 dependencies");
  g->host_shared = ir_op_attr(op, "hostShared") != NULL;
  ins->aux = g;
  set_run(ins, x_alloc);
  return true;
}

static int x_dealloc(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  BeToken deps[64], tok = NULL;
  uint32_t rank;
  Slot *d = descriptor(fr, ins, g->ndeps, g, &rank);
  interp_low_device_remove(fr->in, d[D_ALLOC].p);
  be_token_free(fr->in->be, d[D_ALLOC].p, deps_of(fr, ins, g->ndeps, deps), g->ndeps, &tok, g->loc);
  return finish(fr, ins, g, tok);
}

bool c_gpu_dealloc(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  if (no_device(c, op) || g->ndeps > 64 || !memref_ok(c, op, op->operands[g->ndeps]->type, g))
    return false;
  ins->aux = g;
  set_run(ins, x_dealloc);
  return true;
}

static int x_memcpy(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  BeToken deps[64], tok = NULL;
  uint32_t rd, rs;
  Slot *dst = descriptor(fr, ins, g->ndeps, g, &rd), *src = descriptor(fr, ins, g->ndeps + 1, g, &rs);
  uint64_t nd, ns;
  if (!contiguous(dst, rd, &nd) || !contiguous(src, rs, &ns))
    return interp_error(fr, ins, "copies a memref that is not contiguous");
  if (nd != ns)
    return interp_error(fr, ins, "the target has %llu elements and the source %llu", (unsigned long long)nd,
                        (unsigned long long)ns);
  /* both views in memory the program owns now: not freed, not past their blocks */
  if (!interp_view_owned(fr, ins, dst, rd, g->esize, "write") || !interp_view_owned(fr, ins, src, rs, g->esize, "read"))
    return EX_ERROR;
  be_token_memcpy(fr->in->be, data_of(dst, g->esize), data_of(src, g->esize), nd * g->esize,
                  deps_of(fr, ins, g->ndeps, deps), g->ndeps, &tok, g->loc);
  return finish(fr, ins, g, tok);
}

bool c_gpu_memcpy(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  if (no_device(c, op) || g->ndeps > 64 || op->noperands != g->ndeps + 2 ||
      !memref_ok(c, op, op->operands[g->ndeps + 1]->type, g) || !memref_ok(c, op, op->operands[g->ndeps]->type, g))
    return false;
  if (op->operands[g->ndeps]->type->kind != op->operands[g->ndeps + 1]->type->kind)
    return interp_unsupported(c, op, "a copy between a ranked and an unranked memref");
  if (interp_elem_bytes(op->operands[g->ndeps + 1]->type->u.sh.elem) != g->esize)
    return interp_unsupported(c, op, "a copy between element types of different sizes");
  ins->aux = g;
  set_run(ins, x_memcpy);
  return true;
}

static int x_memset(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  BeToken deps[64], tok = NULL;
  uint32_t rank;
  Slot *d = descriptor(fr, ins, g->ndeps, g, &rank);
  uint64_t n;
  if (!contiguous(d, rank, &n))
    return interp_error(fr, ins, "sets a memref that is not contiguous");
  if (!interp_view_owned(fr, ins, d, rank, g->esize, "write"))
    return EX_ERROR;
  uint32_t bits = 0;
  interp_store_elem(g->type->u.sh.elem, &bits, &fr->s[ins->in[g->ndeps + 1]]);
  be_token_memset(fr->in->be, data_of(d, g->esize), bits, g->esize, n, deps_of(fr, ins, g->ndeps, deps), g->ndeps,
                  &tok, g->loc);
  return finish(fr, ins, g, tok);
}

bool c_gpu_memset(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  if (no_device(c, op) || g->ndeps > 64 || !memref_ok(c, op, op->operands[g->ndeps]->type, g))
    return false;
  if (g->esize != 1 && g->esize != 2 && g->esize != 4)
    return interp_unsupported(c, op, "a memset of elements wider than 4 bytes");
  ins->aux = g;
  set_run(ins, x_memset);
  return true;
}

/* Registrations the interpreter made itself (a device binary's globals, kernel_ptx.c): ended at
 * the end. */
static void unregister(Interp *in, size_t i, const char *loc) {
  GpuState *gs = in->gpu;
  struct GpuReg r = gs->regs[i];
  gs->regs[i] = gs->regs[--gs->nregs];
  be_mem_unregister(in->be, r.ptr, loc);
}

/* Host memory the interpreter allocated (memref.alloc) is known to the backend as ordinary host
 * memory, which kernels may not touch. Registering a view of it registers the view's bytes in
 * place, as the lowered form's mgpuMemHostRegisterMemRef does on the same memory: the backend
 * keeps each registration's range, refuses one that overlaps a range already registered, and
 * lets kernels touch the allocation while any is. Freeing the memory (memref.dealloc, or at the
 * end) ends its registrations, in both forms. */
static int x_host_register(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  uint32_t rank;
  Slot *d = descriptor(fr, ins, 0, g, &rank);
  char *ptr = data_of(d, g->esize);
  uint64_t n = 1;
  for (uint32_t i = 0; i < rank; i++)
    n *= (uint64_t)d[D_SIZES + i].i;
  if (ins->a)
    be_mem_unregister(fr->in->be, ptr, g->loc);
  else if (n)
    be_mem_register(fr->in->be, ptr, n * g->esize, g->loc);
  return EX_NEXT;
}

bool c_gpu_host_register(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  if (no_device(c, op) || !memref_ok(c, op, op->operands[0]->type, g))
    return false;
  ins->a = ir_str_eq(op->name, "gpu.host_unregister");
  ins->aux = g;
  set_run(ins, x_host_register);
  return true;
}

static int x_set_default_device(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  be_device_set(fr->in->be, (int)fr->s[ins->in[0]].i, g->loc);
  return EX_NEXT;
}

bool c_gpu_set_default_device(Comp *c, Op *op, Ins *ins) {
  if (no_device(c, op))
    return false;
  ins->aux = gop(c, op);
  set_run(ins, x_set_default_device);
  return true;
}

/* ---- launches ------------------------------------------------------------------------------- */

/* grid sizes, block sizes (operands first..first+5), shared memory: then the kernel. */
static int launch(Frame *fr, const Ins *ins, const GOp *g, uint32_t first, const Slot *inputs) {
  int64_t grid[3], block[3], smem = 0;
  BeToken deps[64], tok = NULL;
  for (int d = 0; d < 3; d++) {
    grid[d] = fr->s[ins->in[first + d]].i;
    block[d] = fr->s[ins->in[first + 3 + d]].i;
  }
  if (g->smem >= 0)
    smem = (int32_t)fr->s[ins->in[g->smem]].i;
  BeStream stream = g->stream >= 0 ? (BeStream)fr->s[ins->in[g->stream]].p : NULL;
  if (g->off ? interp_offload_launch(fr, ins, g->off, grid, block, smem, inputs, deps_of(fr, ins, g->ndeps, deps),
                                     g->ndeps, &tok, g->stream >= 0 ? &stream : NULL, g->loc) == EX_ERROR
             : kernel_launch(&fr->in->host, ins->op, g->k, grid, block, smem, inputs,
                             deps_of(fr, ins, g->ndeps, deps), g->ndeps, &tok, g->stream >= 0 ? &stream : NULL,
                             g->loc) == EX_ERROR)
    return EX_ERROR;
  if (g->stream >= 0 && !g->async) { /* ordered on its stream, like the mgpu* calls around it */
    gpu_keep_token(fr->in, tok);
    return EX_NEXT;
  }
  return finish(fr, ins, g, tok);
}

/* The kernel trusts a memref input's descriptor as far as the memory table does: a view that runs
 * outside the memory the program owns is refused before any thread touches it. */
static bool view_ok(Frame *fr, const Ins *ins, const Type *t, const Slot *d) {
  return !t || t->kind != TY_MEMREF || !interp_elem_bytes(t->u.sh.elem) ||
         interp_view_owned(fr, ins, d, t->u.sh.rank, interp_elem_bytes(t->u.sh.elem), "kernel access");
}

static int x_launch_func(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  Slot small[64];
  uint32_t words = g->off ? interp_offload_words(g->off) : kernel_input_words(g->k);
  Slot *buf = words <= 64 ? small : calloc(words, sizeof *buf);
  if (!buf)
    return interp_error(fr, ins, "out of memory");
  uint32_t w = 0;
  for (uint32_t i = 0; i < g->nargs; i++) {
    uint32_t n = g->in_words[i];
    const Type *t = g->kargs ? g->kargs[i].type : ins->op->operands[g->first_arg + i]->type;
    if (!view_ok(fr, ins, t, &fr->s[ins->in[g->first_arg + i]])) {
      if (buf != small)
        free(buf);
      return EX_ERROR;
    }
    interp_copy(&buf[w], &fr->s[ins->in[g->first_arg + i]], n);
    w += n;
  }
  int r = launch(fr, ins, g, g->ndeps, buf);
  if (buf != small)
    free(buf);
  return r;
}

static bool sizes_of_launch(Comp *c, Op *op, GOp *g, const int64_t *seg) {
  if (seg[7] || seg[8] || seg[9])
    return interp_unsupported(c, op, "a launch with clusters");
  if (g->ndeps != (uint32_t)seg[0] || g->ndeps > 64)
    return interp_unsupported(c, op, "this form of launch");
  if (seg[10])
    g->smem = (int)(seg[0] + seg[1] + seg[2] + seg[3] + seg[4] + seg[5] + seg[6]);
  return true;
}

static void name_launch(Comp *c, Op *op, GOp *g, const Attr *kernel, const int64_t *s) {
  char label[300];
  snprintf(label, sizeof label, "gpu.launch_func @%.*s::@%.*s", (int)kernel->u.sym.path[0].len,
           kernel->u.sym.path[0].s, (int)kernel->u.sym.path[1].len, kernel->u.sym.path[1].s);
  g->label = ir_intern_cstr(c->in->ctx, label).s;
  g->first_arg = (uint32_t)(s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7] + s[8] + s[9] + s[10]);
  g->nargs = (uint32_t)s[11];
  g->in_words = ir_alloc(c->in->ctx, (g->nargs + 1) * sizeof *g->in_words);
  for (uint32_t i = 0; i < g->nargs; i++)
    g->in_words[i] = interp_words(op->operands[g->first_arg + i]->type);
}

/* A launch on a device that runs device code, not the interpreter's kernels (offload.c). */
static bool offload_launch_func(Comp *c, Op *op, Ins *ins, GOp *g, Attr *kernel, Op *mod, const int64_t *s) {
  name_launch(c, op, g, kernel, s);
  if (interp_offload_launch_of(c->in, op))
    g->label = "gpu.launch"; /* a gpu.launch body outlined: traces name the op of the program */
  if (!(g->off = interp_offload_of(c, op, mod, kernel, g->first_arg, g->nargs)))
    return false;
  ins->aux = g;
  set_run(ins, x_launch_func);
  return true;
}

bool c_gpu_launch_func(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  Attr *seg = ir_op_attr(op, "operandSegmentSizes"), *kernel = ir_op_attr(op, "kernel");
  if (no_device(c, op))
    return false;
  if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 13 || !kernel || kernel->kind != ATTR_SYMREF ||
      kernel->u.sym.n != 2)
    return interp_unsupported(c, op, "this form of gpu.launch_func");
  const int64_t *s = seg->u.darr.ivals;
  if (s[12]) {
    if (op->operands[op->noperands - 1]->type->kind != TY_LLVM_PTR)
      return interp_unsupported(c, op, "gpu.launch_func on an object that is not an !llvm.ptr stream");
    g->stream = (int)op->noperands - 1;
  }
  if (!sizes_of_launch(c, op, g, s))
    return false;
  Op *mod = ir_symbol_lookup(c->in->module, kernel->u.sym.path[0]);
  if (mod && (ir_str_eq(mod->name, "gpu.binary") || ir_str_eq(mod->name, "gpu.module")) &&
      !be_runs_host_kernels(c->in->be))
    return offload_launch_func(c, op, ins, g, kernel, mod, s);
  Op *fn = mod && ir_str_eq(mod->name, "gpu.module") ? ir_symbol_lookup(mod, kernel->u.sym.path[1]) : NULL;
  bool ptx = mod && ir_str_eq(mod->name, "gpu.binary");
  if (ptx && !interp_binary_kernel(c, op, mod, kernel, &g->k))
    return false;
  if (!ptx && (!fn || !(ir_str_eq(fn->name, "gpu.func") || ir_str_eq(fn->name, "llvm.func"))))
    return interp_unsupported(c, op, "a kernel that is not a gpu.func or llvm.func in a gpu.module of this module");
  if (!ptx && !(g->k = kernel_of_func(&c->in->host, op, fn)))
    return false;
  name_launch(c, op, g, kernel, s);
  uint32_t words = 0;
  for (uint32_t i = 0; i < g->nargs; i++)
    words += g->in_words[i];
  if (words != kernel_input_words(g->k)) {
    ir_op_error(c->in->ctx, op, "passes %u argument words to a kernel that takes %u", words,
                kernel_input_words(g->k));
    c->in->errors++;
    return false;
  }
  Block *entry = !ptx && ir_str_eq(fn->name, "gpu.func") && fn->nregions ? fn->regions[0].first : NULL;
  if (entry && entry->nargs >= g->nargs) {
    g->kargs = entry->args;
    for (uint32_t i = 0; i < g->nargs; i++)
      if (entry->args[i].type != op->operands[g->first_arg + i]->type)
        g->kargs = NULL;
  }
  if (ptx && !kernel_ptx_bind(&c->in->host, op, g->k, g->first_arg, g->nargs))
    return false;
  if (!ptx && ir_str_eq(fn->name, "llvm.func") && !kernel_llvm_bind(&c->in->host, op, fn, g->k, g->first_arg, g->nargs))
    return false;
  ins->aux = g;
  set_run(ins, x_launch_func);
  return true;
}

static int x_launch(Frame *fr, const Ins *ins) {
  const GOp *g = ins->aux;
  Slot small[64];
  uint32_t words = kernel_input_words(g->k);
  Slot *buf = words <= 64 ? small : calloc(words, sizeof *buf);
  if (!buf)
    return interp_error(fr, ins, "out of memory");
  uint32_t w = 0;
  for (uint32_t i = 0; i < g->nin; i++) {
    if (!view_ok(fr, ins, kernel_input_type(g->k, i), &fr->s[g->in_slots[i]])) {
      if (buf != small)
        free(buf);
      return EX_ERROR;
    }
    interp_copy(&buf[w], &fr->s[g->in_slots[i]], g->in_words[i]);
    w += g->in_words[i];
  }
  int r = launch(fr, ins, g, g->ndeps, buf);
  if (buf != small)
    free(buf);
  return r;
}

bool c_gpu_launch(Comp *c, Op *op, Ins *ins) {
  GOp *g = gop(c, op);
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  if (no_device(c, op))
    return false;
  if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 11)
    return interp_unsupported(c, op, "this form of gpu.launch");
  if (!be_runs_host_kernels(c->in->be)) /* what interp_offload_outline left: it cannot run there */
    return interp_offload_refuse_launch(c, op);
  if (!sizes_of_launch(c, op, g, seg->u.darr.ivals))
    return false;
  g->k = kernel_of_launch(&c->in->host, op, &g->in_slots, &g->in_words, &g->nin);
  if (!g->k)
    return false;
  ins->aux = g;
  set_run(ins, x_launch);
  return true;
}
