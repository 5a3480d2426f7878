/* interp.c - compiling functions to slots and instructions, the run loop, calls, and the
 * structured and unstructured control flow of func, cf and scf.
 *
 * Compiling a function is two walks over its body: the first gives every value its slots (block
 * arguments and op results, through all nested regions that are not isolated from above), the
 * second turns each op into an Ins through the compile function ops.def names for it. Two walks,
 * because a use may come before its definition in block order (cf branches).
 *
 * Terminators write where their values go, decided when compiling: func.return into the caller's
 * result words, cf.br into the target block's argument slots, scf.yield into the parent's result
 * slots or loop-carried arguments. Copies that feed block arguments go through a temporary, since
 * a branch may permute them (`cf.br ^bb1(%b, %a)`). */
#include "interp/internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Host calls nest in C (interp_call, an op's exec, interp_run_body, and again for every nested
 * region), so the call-depth limit only holds if the C stack outlasts it: the program runs on a
 * thread of its own with RUN_STACK bytes of stack (pages are only used once touched), and every
 * call also checks the stack it has left (STACK_MARGIN: room for the deepest native function and
 * a diagnostic), whatever a frame costs under this build's sanitizers. */
#define MAX_CALL_DEPTH 4096
#define RUN_STACK ((size_t)1 << 30)
#define STACK_MARGIN ((size_t)256 << 10)

/* ---- Types and slots ------------------------------------------------------------------------ */

uint32_t interp_slot(const Value *v) { return v->id; }

void interp_copy(Slot *dst, const Slot *src, uint32_t words) {
  if (dst != src)
    memmove(dst, src, words * sizeof(Slot));
}

static uint32_t alloc_slots(Comp *c, const Type *t) {
  uint32_t s = c->nslots;
  c->nslots += interp_words(t);
  return s;
}

static void assign_region(Comp *c, Region *r);

static void assign_op(Comp *c, Op *op) {
  for (uint32_t i = 0; i < op->nresults; i++)
    op->results[i].id = alloc_slots(c, op->results[i].type);
  if (op->info && (op->info->flags & OPF_ISOLATED))
    return;
  for (uint32_t i = 0; i < op->nregions; i++)
    assign_region(c, &op->regions[i]);
}

static void assign_region(Comp *c, Region *r) {
  for (Block *b = r->first; b; b = b->next) {
    for (uint32_t i = 0; i < b->nargs; i++)
      b->args[i].id = alloc_slots(c, b->args[i].type);
    for (Op *o = b->first; o; o = o->next)
      assign_op(c, o);
  }
}

/* ---- Compiling ------------------------------------------------------------------------------ */

bool interp_unsupported(Comp *c, Op *op, const char *what) {
  ir_op_error(c->in->ctx, op, "%s is not supported by the interpreter yet", what);
  c->in->errors++;
  return false;
}

static uint32_t *slots_of(Comp *c, Value **vs, uint32_t n) {
  uint32_t *s = ir_alloc(c->in->ctx, n * sizeof *s + 1);
  for (uint32_t i = 0; i < n; i++)
    s[i] = vs[i]->id;
  return s;
}

static bool compile_op(Comp *c, Op *op, Ins *ins) {
  ins->op = op;
  ins->nin = op->noperands;
  ins->in = slots_of(c, op->operands, op->noperands);
  ins->nout = op->nresults;
  ins->out = ir_alloc(c->in->ctx, op->nresults * sizeof *ins->out + 1);
  for (uint32_t i = 0; i < op->nresults; i++)
    ins->out[i] = op->results[i].id;
  CompileFn fn = interp_compile_fn(op->name);
  if (!fn) {
    char what[160];
    snprintf(what, sizeof what, "'%.*s'", (int)op->name.len, op->name.s);
    return interp_unsupported(c, op, what);
  }
  return fn(c, op, ins);
}

bool interp_compile_body(Comp *c, Region *r, Body *out) {
  uint32_t nb = 0;
  for (Block *b = r->first; b; b = b->next)
    b->id = nb++; /* block index, for branches */
  out->nblocks = nb;
  out->blocks = ir_alloc(c->in->ctx, nb * sizeof *out->blocks + 1);
  bool ok = true;
  uint32_t bi = 0;
  for (Block *b = r->first; b; b = b->next, bi++) {
    Block1 *blk = &out->blocks[bi];
    blk->nargs = b->nargs;
    blk->args = ir_alloc(c->in->ctx, b->nargs * sizeof *blk->args + 1);
    blk->words = ir_alloc(c->in->ctx, b->nargs * sizeof *blk->words + 1);
    for (uint32_t i = 0; i < b->nargs; i++) {
      blk->args[i] = b->args[i].id;
      blk->words[i] = interp_words(b->args[i].type);
    }
    uint32_t n = 0;
    for (Op *o = b->first; o; o = o->next)
      n++;
    blk->ins = ir_alloc(c->in->ctx, n * sizeof *blk->ins + 1);
    blk->n = n;
    uint32_t k = 0;
    bool bok = true;
    for (Op *o = b->first; o; o = o->next)
      bok = compile_op(c, o, &blk->ins[k++]) && bok;
    ok = bok && ok;
    if (bok && c->in->be && !gpu_own_tokens(c, b, blk->ins, n))
      ok = false;
  }
  /* compile functions may renumber nested blocks: restore this region's indices */
  nb = 0;
  for (Block *b = r->first; b; b = b->next)
    b->id = nb++;
  return ok;
}

static uint32_t *words_of_types(IrCtx *ctx, Type **ts, uint32_t n) {
  uint32_t *w = ir_alloc(ctx, n * sizeof *w + 1);
  for (uint32_t i = 0; i < n; i++)
    w[i] = interp_words(ts[i]);
  return w;
}

bool interp_compile_func(Interp *in, Func *fn) {
  if (fn->compiled || fn->native)
    return true;
  if (fn->compiling)
    return true; /* recursion: the body is being compiled up the stack */
  fn->compiling = true;
  Comp c = {in, fn, 0};
  Region *r = &fn->op->regions[0];
  /* assign_region's walk, finding out on the way whether the body is a coroutine: one walk
   * over a long body's ops instead of two */
  for (Block *b = r->first; b; b = b->next) {
    for (uint32_t i = 0; i < b->nargs; i++)
      b->args[i].id = alloc_slots(&c, b->args[i].type);
    for (Op *o = b->first; o; o = o->next) {
      fn->coroutine = fn->coroutine || ir_str_eq(o->name, "llvm.intr.coro.begin");
      assign_op(&c, o);
    }
  }
  bool ok = interp_compile_body(&c, r, &fn->body);
  /* block ids were used as indices; values keep their slots */
  fn->nslots = c.nslots;
  fn->compiled = ok;
  fn->compiling = false;
  return ok;
}

Func *interp_func(Interp *in, Str name) {
  for (uint32_t i = 0; i < in->nfuncs; i++)
    if (in->funcs[i].name.s == name.s)
      return &in->funcs[i];
  return NULL;
}

/* ---- Running -------------------------------------------------------------------------------- */

int interp_error(Frame *fr, const Ins *ins, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ir_op_error(fr->in->ctx, ins->op, "%s", msg);
  fr->in->errors++;
  return EX_ERROR;
}

int interp_run_body(Frame *fr, const Body *body) { return interp_run_body_at(fr, body, 0, 0); }

int interp_run_body_at(Frame *fr, const Body *body, uint32_t bi, uint32_t first) {
  if (!body->nblocks)
    return EX_NEXT;
  for (;;) {
    const Block1 *b = &body->blocks[bi];
    int r = EX_NEXT, why;
    uint32_t i0 = first;
    first = 0;
    for (uint32_t i = i0; i < b->n && r == EX_NEXT; i++) {
      if (!interp_step(fr->in) && (why = interp_budget_more(fr->in)) != BUDGET_OK)
        return interp_budget_stop(fr, &b->ins[i], why);
      r = b->ins[i].fn(fr, &b->ins[i]);
    }
    if (r == EX_ERROR)
      return EX_ERROR;
    if (r == EX_NEXT) /* the verifier makes this rare: a region whose last op is unknown */
      return b->n ? interp_error(fr, &b->ins[b->n - 1], "block ended without a terminator") : EX_NEXT;
    if (fr->jump < 0)
      return EX_NEXT;
    bi = (uint32_t)fr->jump;
  }
}

int interp_call(Interp *in, const Func *fn, const Ins *site, Slot *args, Slot *res) {
  Frame fr = {in, NULL, fn, -1, res, NULL, NULL};
  if (fn->native)
    return fn->native(&fr, site, args, res);
  if (!fn->compiled && !interp_compile_func(in, (Func *)fn))
    return EX_ERROR;
  if (in->depth >= MAX_CALL_DEPTH) {
    fr.in = in;
    return interp_error(&fr, site, "call depth exceeds %d (runaway recursion?)", MAX_CALL_DEPTH);
  }
  char here;
  if (in->stack_lo && (uintptr_t)&here < in->stack_lo)
    return interp_error(&fr, site, "call depth %u exhausts the interpreter's stack (runaway recursion?)", in->depth);
  Slot small[256];
  Slot *s = fn->nslots <= 256 ? small : calloc(fn->nslots, sizeof(Slot));
  if (!s)
    return interp_error(&fr, site, "out of memory for a frame of %u words", fn->nslots);
  if (s == small)
    memset(small, 0, fn->nslots * sizeof(Slot));
  fr.s = s;
  const Block1 *entry = &fn->body.blocks[0];
  uint32_t w = 0;
  for (uint32_t i = 0; i < entry->nargs; i++) {
    interp_copy(&s[entry->args[i]], &args[w], entry->words[i]);
    w += entry->words[i];
  }
  in->depth++;
  size_t sp = in->sp; /* llvm.alloca memory lives until the call returns */
  int r = interp_run_body(&fr, &fn->body);
  in->sp = sp;
  in->depth--;
  if (fr.coro)
    interp_coro_left(&fr);
  interp_free_allocas(&fr, NULL);
  if (s != small)
    free(s);
  return r == EX_ERROR ? EX_ERROR : EX_NEXT;
}

/* ---- func ----------------------------------------------------------------------------------- */

/* Words of all operands of ins, gathered in order into buf (which must be large enough). */
static uint32_t gather(const Frame *fr, const Ins *ins, uint32_t first, uint32_t n, const uint32_t *words,
                       Slot *buf) {
  uint32_t w = 0;
  for (uint32_t i = 0; i < n; i++) {
    interp_copy(&buf[w], &fr->s[ins->in[first + i]], words[i]);
    w += words[i];
  }
  return w;
}

static void scatter(Frame *fr, const uint32_t *dst, const uint32_t *words, uint32_t n, const Slot *buf) {
  uint32_t w = 0;
  for (uint32_t i = 0; i < n; i++) {
    interp_copy(&fr->s[dst[i]], &buf[w], words[i]);
    w += words[i];
  }
}

typedef struct Moves {
  uint32_t *words; /* word count of each moved value */
  uint32_t *dst;   /* destination slot of each */
  uint32_t n, total;
} Moves;

static Moves *moves_for(Comp *c, Value **src, uint32_t n, const uint32_t *dst) {
  Moves *m = ir_alloc(c->in->ctx, sizeof *m);
  m->n = n;
  m->words = ir_alloc(c->in->ctx, n * sizeof *m->words + 1);
  m->dst = ir_alloc(c->in->ctx, n * sizeof *m->dst + 1);
  for (uint32_t i = 0; i < n; i++) {
    m->words[i] = interp_words(src[i]->type);
    m->dst[i] = dst[i];
    m->total += m->words[i];
  }
  return m;
}

/* Moves operands [first, first+m->n) of ins to m's destinations, through a temporary. */
static void move(Frame *fr, const Ins *ins, uint32_t first, const Moves *m) {
  Slot small[64];
  Slot *tmp = m->total <= 64 ? small : malloc(m->total * sizeof(Slot));
  if (!tmp)
    abort();
  gather(fr, ins, first, m->n, m->words, tmp);
  scatter(fr, m->dst, m->words, m->n, tmp);
  if (tmp != small)
    free(tmp);
}

static int x_return(Frame *fr, const Ins *ins) {
  const Moves *m = ins->aux;
  if (fr->ret)
    gather(fr, ins, 0, m->n, m->words, fr->ret);
  fr->jump = -1;
  return EX_DONE;
}

bool c_return(Comp *c, Op *op, Ins *ins) {
  ins->fn = x_return;
  ins->aux = moves_for(c, op->operands, op->noperands, ins->in);
  return true;
}

typedef struct CallInfo {
  Func *callee;
  uint32_t arg_words, res_words;
  uint32_t *in_words, *out_words;
} CallInfo;

static int x_call(Frame *fr, const Ins *ins) {
  const CallInfo *ci = ins->aux;
  Slot abuf[64], rbuf[64];
  Slot *args = ci->arg_words <= 64 ? abuf : malloc(ci->arg_words * sizeof(Slot));
  Slot *res = ci->res_words <= 64 ? rbuf : malloc(ci->res_words * sizeof(Slot));
  if (!args || !res)
    abort();
  gather(fr, ins, 0, ins->nin, ci->in_words, args);
  int r = interp_call(fr->in, ci->callee, ins, args, res);
  if (r != EX_ERROR)
    scatter(fr, ins->out, ci->out_words, ins->nout, res);
  if (args != abuf)
    free(args);
  if (res != rbuf)
    free(res);
  return r == EX_ERROR ? EX_ERROR : EX_NEXT;
}

bool c_call(Comp *c, Op *op, Ins *ins) {
  Attr *callee = ir_op_attr(op, "callee");
  if (!callee || callee->kind != ATTR_SYMREF || callee->u.sym.n != 1)
    return interp_unsupported(c, op, "a call without a flat callee symbol");
  Func *fn = interp_func(c->in, callee->u.sym.path[0]);
  if (!fn || (!fn->native && !fn->op->regions[0].first)) {
    ir_op_error(c->in->ctx, op, "calls '@%.*s', a function the interpreter does not provide",
                (int)callee->u.sym.path[0].len, callee->u.sym.path[0].s);
    c->in->errors++;
    return false;
  }
  CallInfo *ci = ir_alloc(c->in->ctx, sizeof *ci);
  ci->callee = fn;
  ci->in_words = ir_alloc(c->in->ctx, op->noperands * sizeof(uint32_t) + 1);
  ci->out_words = ir_alloc(c->in->ctx, op->nresults * sizeof(uint32_t) + 1);
  for (uint32_t i = 0; i < op->noperands; i++)
    ci->arg_words += ci->in_words[i] = interp_words(op->operands[i]->type);
  for (uint32_t i = 0; i < op->nresults; i++)
    ci->res_words += ci->out_words[i] = interp_words(op->results[i].type);
  ins->fn = x_call;
  ins->aux = ci;
  return true;
}

/* ---- cf ------------------------------------------------------------------------------------- */

typedef struct Branch {
  int32_t target[2];
  Moves *moves[2];
  uint32_t first[2]; /* first operand of each successor's arguments */
} Branch;

static Moves *moves_to_block(Comp *c, Op *op, uint32_t first, uint32_t n, Block *b) {
  uint32_t *dst = ir_alloc(c->in->ctx, n * sizeof *dst + 1);
  for (uint32_t i = 0; i < n && i < b->nargs; i++)
    dst[i] = b->args[i].id;
  return moves_for(c, op->operands + first, n, dst);
}

static int x_br(Frame *fr, const Ins *ins) {
  const Branch *br = ins->aux;
  move(fr, ins, br->first[0], br->moves[0]);
  fr->jump = br->target[0];
  return EX_DONE;
}

bool c_br(Comp *c, Op *op, Ins *ins) {
  if (op->nsuccs != 1)
    return interp_unsupported(c, op, "a branch without one successor");
  Branch *br = ir_alloc(c->in->ctx, sizeof *br);
  br->target[0] = (int32_t)op->succs[0]->id;
  br->moves[0] = moves_to_block(c, op, 0, op->noperands, op->succs[0]);
  ins->fn = x_br;
  ins->aux = br;
  return true;
}

static int x_cond_br(Frame *fr, const Ins *ins) {
  const Branch *br = ins->aux;
  int k = (fr->s[ins->in[0]].i & 1) ? 0 : 1;
  move(fr, ins, br->first[k], br->moves[k]);
  fr->jump = br->target[k];
  return EX_DONE;
}

bool c_cond_br(Comp *c, Op *op, Ins *ins) {
  Attr *seg = ir_op_attr(op, "operandSegmentSizes");
  if (op->nsuccs != 2 || !seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 3)
    return interp_unsupported(c, op, "this form of cf.cond_br");
  Branch *br = ir_alloc(c->in->ctx, sizeof *br);
  uint32_t nt = (uint32_t)seg->u.darr.ivals[1], nf = (uint32_t)seg->u.darr.ivals[2];
  br->first[0] = 1;
  br->first[1] = 1 + nt;
  for (int k = 0; k < 2; k++) {
    br->target[k] = (int32_t)op->succs[k]->id;
    br->moves[k] = moves_to_block(c, op, br->first[k], k ? nf : nt, op->succs[k]);
  }
  ins->fn = x_cond_br;
  ins->aux = br;
  return true;
}

static int x_assert(Frame *fr, const Ins *ins) {
  if (fr->s[ins->in[0]].i & 1)
    return EX_NEXT;
  Attr *msg = ir_op_attr(ins->op, "msg");
  return interp_error(fr, ins, "assertion failed: %.*s", msg && msg->kind == ATTR_STRING ? (int)msg->u.str.len : 0,
                      msg && msg->kind == ATTR_STRING ? msg->u.str.s : "");
}

bool c_assert(Comp *c, Op *op, Ins *ins) {
  (void)c;
  (void)op;
  ins->fn = x_assert;
  return true;
}

static int x_cast_words(Frame *fr, const Ins *ins) {
  for (uint32_t i = 0; i < ins->nout; i++)
    interp_copy(&fr->s[ins->out[i]], &fr->s[ins->in[i]], ((uint32_t *)ins->aux)[i]);
  return EX_NEXT;
}

bool c_cast_words(Comp *c, Op *op, Ins *ins) {
  if (op->noperands != op->nresults)
    return interp_unsupported(c, op, "a cast with different operand and result counts");
  uint32_t *w = ir_alloc(c->in->ctx, op->nresults * sizeof *w + 1);
  for (uint32_t i = 0; i < op->nresults; i++) {
    w[i] = interp_words(op->results[i].type);
    /* an unranked memref as its LLVM descriptor, !llvm.struct<(i64, ptr)>: its first two words */
    if (op->operands[i]->type->kind == TY_UNRANKED_MEMREF && w[i] == 2)
      continue;
    if (w[i] != interp_words(op->operands[i]->type))
      return interp_unsupported(c, op, "a cast between values of different sizes");
  }
  ins->fn = x_cast_words;
  ins->aux = w;
  return true;
}

/* ---- scf ------------------------------------------------------------------------------------ */

/* scf.yield and scf.condition move their operands where the parent op decided. */
static int x_yield(Frame *fr, const Ins *ins) {
  move(fr, ins, 0, ins->aux);
  fr->jump = -1;
  return EX_DONE;
}

bool c_yield(Comp *c, Op *op, Ins *ins) {
  Op *parent = ir_op_parent_op(op);
  uint32_t *dst = ir_alloc(c->in->ctx, op->noperands * sizeof *dst + 1);
  if (parent && ir_str_eq(parent->name, "scf.for")) {
    Block *body = parent->regions[0].first;
    for (uint32_t i = 0; i < op->noperands; i++)
      dst[i] = body->args[i + 1].id;
  } else if (parent && ir_str_eq(parent->name, "scf.while")) {
    Block *before = parent->regions[0].first;
    for (uint32_t i = 0; i < op->noperands; i++)
      dst[i] = before->args[i].id;
  } else if (parent && (ir_str_eq(parent->name, "scf.if") || ir_str_eq(parent->name, "scf.execute_region") ||
                     ir_str_eq(parent->name, "scf.index_switch"))) {
    for (uint32_t i = 0; i < op->noperands; i++)
      dst[i] = parent->results[i].id;
  } else {
    return interp_unsupported(c, op, "scf.yield in this parent");
  }
  ins->fn = x_yield;
  ins->aux = moves_for(c, op->operands, op->noperands, dst);
  return true;
}

typedef struct Loop {
  Body body, body2;
  Moves *init;      /* inits -> loop-carried arguments */
  Moves *results;   /* for scf.for: loop-carried arguments -> results */
  uint32_t iv;      /* slot of the induction variable */
  uint32_t width;   /* its integer width */
  bool is_unsigned;
  LoopToks *toks;   /* scf.for: the carried tokens it owns (gpu_loop_tokens), or NULL */
} Loop;

/* The yield of an scf.for that owns carried tokens: the arguments' tokens are dropped as the
 * yielded ones take their place. */
typedef struct YieldToks {
  const Moves *m;
  const LoopToks *toks;
} YieldToks;

static int x_yield_toks(Frame *fr, const Ins *ins) {
  const YieldToks *y = ins->aux;
  gpu_loop_release(fr, y->toks);
  move(fr, ins, 0, y->m);
  gpu_loop_moved(fr, y->toks);
  fr->jump = -1;
  return EX_DONE;
}

static int x_for(Frame *fr, const Ins *ins) {
  const Loop *l = ins->aux;
  Slot *s = fr->s;
  int64_t lb = s[ins->in[0]].i, ub = s[ins->in[1]].i, step = s[ins->in[2]].i;
  if (step <= 0 && !l->is_unsigned)
    return interp_error(fr, ins, "step must be positive, got %lld", (long long)step);
  move(fr, ins, 3, l->init);
  if (l->toks)
    gpu_loop_enter(fr, l->toks);
  for (int64_t iv = lb; l->is_unsigned ? (uint64_t)iv < (uint64_t)ub : iv < ub;) {
    s[l->iv].i = iv;
    if (interp_run_body(fr, &l->body) == EX_ERROR) {
      if (l->toks)
        gpu_loop_leave(fr, l->toks, true);
      return EX_ERROR;
    }
    int64_t next = interp_sext((uint64_t)iv + (uint64_t)step, l->width);
    if (l->is_unsigned ? (uint64_t)next <= (uint64_t)iv : next <= iv)
      break; /* wrapped around */
    iv = next;
  }
  /* the loop-carried values are the results */
  for (uint32_t i = 0; i < ins->nout; i++)
    interp_copy(&s[ins->out[i]], &s[l->results->dst[i]], l->results->words[i]);
  if (l->toks)
    gpu_loop_leave(fr, l->toks, false);
  return EX_NEXT;
}

LoopToks *interp_for_tokens(ExecFn fn, void *aux) { return fn == x_for ? ((const Loop *)aux)->toks : NULL; }

bool c_for(Comp *c, Op *op, Ins *ins) {
  Loop *l = ir_alloc(c->in->ctx, sizeof *l);
  Block *body = op->regions[0].first;
  if (!body || body->nargs != op->noperands - 2)
    return interp_unsupported(c, op, "this form of scf.for");
  l->iv = body->args[0].id;
  l->width = interp_int_width(body->args[0].type);
  l->is_unsigned = ir_op_attr(op, "unsignedCmp") != NULL;
  uint32_t *dst = ir_alloc(c->in->ctx, (op->noperands - 3) * sizeof *dst + 1);
  for (uint32_t i = 0; i + 3 < op->noperands; i++)
    dst[i] = body->args[i + 1].id;
  l->init = moves_for(c, op->operands + 3, op->noperands - 3, dst);
  l->results = l->init;
  ins->fn = x_for;
  ins->aux = l;
  if (!interp_compile_body(c, &op->regions[0], &l->body))
    return false;
  Ins *y = l->body.nblocks == 1 && l->body.blocks[0].n ? &l->body.blocks[0].ins[l->body.blocks[0].n - 1] : NULL;
  l->toks = y && y->fn == x_yield ? gpu_loop_tokens(c, op, &l->body) : NULL;
  if (l->toks) {
    YieldToks *yt = ir_alloc(c->in->ctx, sizeof *yt);
    yt->m = y->aux;
    yt->toks = l->toks;
    y->fn = x_yield_toks;
    y->aux = yt;
  }
  return true;
}

static int x_if(Frame *fr, const Ins *ins) {
  const Loop *l = ins->aux;
  return interp_run_body(fr, (fr->s[ins->in[0]].i & 1) ? &l->body : &l->body2);
}

bool c_if(Comp *c, Op *op, Ins *ins) {
  Loop *l = ir_alloc(c->in->ctx, sizeof *l);
  ins->fn = x_if;
  ins->aux = l;
  return interp_compile_body(c, &op->regions[0], &l->body) &&
         (op->nregions < 2 || interp_compile_body(c, &op->regions[1], &l->body2));
}

/* scf.while: `before` ends in scf.condition(%c) args: when %c holds, args go to `after`'s block
 * arguments, else to the results. */
typedef struct Cond {
  Moves *to_after, *to_results;
} Cond;

static int x_condition(Frame *fr, const Ins *ins) {
  const Cond *cd = ins->aux;
  bool go = fr->s[ins->in[0]].i & 1;
  move(fr, ins, 1, go ? cd->to_after : cd->to_results);
  fr->jump = -1;
  return EX_DONE;
}

bool c_condition(Comp *c, Op *op, Ins *ins) {
  Op *w = ir_op_parent_op(op);
  if (!w || !ir_str_eq(w->name, "scf.while") || w->nregions != 2 || !w->regions[1].first)
    return interp_unsupported(c, op, "scf.condition outside scf.while");
  Cond *cd = ir_alloc(c->in->ctx, sizeof *cd);
  uint32_t n = op->noperands - 1;
  uint32_t *to_after = ir_alloc(c->in->ctx, n * sizeof *to_after + 1);
  uint32_t *to_res = ir_alloc(c->in->ctx, n * sizeof *to_res + 1);
  for (uint32_t i = 0; i < n; i++) {
    to_after[i] = w->regions[1].first->args[i].id;
    to_res[i] = w->results[i].id;
  }
  cd->to_after = moves_for(c, op->operands + 1, n, to_after);
  cd->to_results = moves_for(c, op->operands + 1, n, to_res);
  ins->fn = x_condition;
  ins->aux = cd;
  return true;
}

static int x_while(Frame *fr, const Ins *ins) {
  const Loop *l = ins->aux;
  move(fr, ins, 0, l->init);
  for (;;) {
    /* the condition's value is re-read from its slot after `before` ran */
    if (interp_run_body(fr, &l->body) == EX_ERROR)
      return EX_ERROR;
    if (!(fr->s[l->iv].i & 1))
      return EX_NEXT;
    if (interp_run_body(fr, &l->body2) == EX_ERROR)
      return EX_ERROR;
  }
}

bool c_while(Comp *c, Op *op, Ins *ins) {
  Block *before = op->regions[0].first;
  Op *cond = before ? before->last : NULL;
  if (!cond || !ir_str_eq(cond->name, "scf.condition") || op->regions[0].first->next)
    return interp_unsupported(c, op, "this form of scf.while");
  Loop *l = ir_alloc(c->in->ctx, sizeof *l);
  uint32_t *dst = ir_alloc(c->in->ctx, op->noperands * sizeof *dst + 1);
  for (uint32_t i = 0; i < op->noperands; i++)
    dst[i] = before->args[i].id;
  l->init = moves_for(c, op->operands, op->noperands, dst);
  l->iv = cond->operands[0]->id; /* the condition's slot */
  ins->fn = x_while;
  ins->aux = l;
  return interp_compile_body(c, &op->regions[0], &l->body) &&
         interp_compile_body(c, &op->regions[1], &l->body2);
}

static int x_execute_region(Frame *fr, const Ins *ins) { return interp_run_body(fr, ins->aux); }

bool c_execute_region(Comp *c, Op *op, Ins *ins) {
  Body *b = ir_alloc(c->in->ctx, sizeof *b);
  ins->fn = x_execute_region;
  ins->aux = b;
  return interp_compile_body(c, &op->regions[0], b);
}

/* ---- The interpreter object ----------------------------------------------------------------- */

static const struct {
  const char *name;
  CompileFn fn;
} compile_table[] = {
#define IOP(name, fn) {name, fn},
#include "interp/ops.def"
#undef IOP
};

/* compile_table by name: an open-addressing hash of table indices (+1; 0 is empty), built once per
 * process, so that compiling an op costs one hash of its name and one compare, not a scan of every
 * name in the table. */
#define NCOMPILE (sizeof compile_table / sizeof compile_table[0])
#define COMPILE_SLOTS 1024 /* a power of two, at least twice NCOMPILE */
_Static_assert(COMPILE_SLOTS >= 2 * NCOMPILE, "compile_slots too small for ops.def");
static uint16_t compile_slots[COMPILE_SLOTS];
static pthread_once_t compile_once = PTHREAD_ONCE_INIT;

static uint32_t name_hash(const char *s, size_t len) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

static void compile_index(void) {
  for (size_t i = 0; i < NCOMPILE; i++) {
    const char *name = compile_table[i].name;
    uint32_t h = name_hash(name, strlen(name)) & (COMPILE_SLOTS - 1);
    while (compile_slots[h]) {
      if (!strcmp(compile_table[compile_slots[h] - 1].name, name))
        break; /* a name listed twice: the first entry wins, as the scan it replaces did */
      h = (h + 1) & (COMPILE_SLOTS - 1);
    }
    if (!compile_slots[h])
      compile_slots[h] = (uint16_t)(i + 1);
  }
}

CompileFn interp_compile_fn(Str name) {
  pthread_once(&compile_once, compile_index);
  for (uint32_t h = name_hash(name.s, name.len) & (COMPILE_SLOTS - 1); compile_slots[h];
       h = (h + 1) & (COMPILE_SLOTS - 1))
    if (ir_str_eq(name, compile_table[compile_slots[h] - 1].name))
      return compile_table[compile_slots[h] - 1].fn;
  return NULL;
}

Interp *interp_create(IrCtx *ctx, Op *module, const InterpOptions *opts) {
  Interp *in = calloc(1, sizeof *in);
  if (!in)
    return NULL;
  in->ctx = ctx;
  in->module = module;
  in->be = opts ? opts->be : NULL;
  in->out = opts && opts->out ? opts->out : stdout;
  in->no_race_check = opts && opts->no_race_check;
  in->race_strict = opts && opts->race_strict;
  in->mlir_opt = opts ? opts->mlir_opt : NULL;
  in->ops = &interp_kernel_host_ops;
  kernel_budget_init(&in->budget, opts ? opts->max_steps : 0, opts ? opts->timeout : 0);
  atomic_init(&in->credit, kernel_budget_credit(&in->budget));
  if (in->be) {
    BeStall st;
    be_stall(in->be, &st);
    in->lazy_sched = st.sched;
  }
  if (opts) {
    in->host_buffer = opts->host_buffer;
    in->device_print = opts->device_print;
    in->hook_user = opts->hook_user;
  }
  /* a device that runs device code gets the gpu.launch bodies as kernels of gpu.modules */
  if (in->be && !be_runs_host_kernels(in->be) && !interp_offload_outline(in)) {
    interp_destroy(in);
    return NULL;
  }
  Block *top = module->nregions ? module->regions[0].first : NULL;
  uint32_t n = 0;
  for (Op *o = top ? top->first : NULL; o; o = o->next)
    n += ir_str_eq(o->name, "func.func") || ir_str_eq(o->name, "llvm.func");
  in->funcs = calloc(n + 1, sizeof *in->funcs);
  if (!in->funcs) {
    free(in);
    return NULL;
  }
  for (Op *o = top ? top->first : NULL; o; o = o->next) {
    if (!ir_str_eq(o->name, "func.func") && !ir_str_eq(o->name, "llvm.func"))
      continue;
    Func *fn = &in->funcs[in->nfuncs++];
    Attr *name = ir_op_attr(o, "sym_name");
    Attr *ft = ir_op_attr(o, "function_type");
    fn->op = o;
    fn->name = name && name->kind == ATTR_STRING ? name->u.str : (Str){"", 0};
    if (ft && ft->kind == ATTR_TYPE && ft->type->kind == TY_FUNC) {
      fn->nargs = ft->type->u.fn.nin;
      fn->nresults = ft->type->u.fn.nout;
      fn->arg_words = words_of_types(ctx, ft->type->u.fn.in, fn->nargs);
      fn->res_words = words_of_types(ctx, ft->type->u.fn.out, fn->nresults);
    } else if (ft && ft->kind == ATTR_TYPE && ft->type->kind == TY_LLVM_FUNC) {
      Type *ret = ft->type->u.lfn.ret;
      fn->nargs = ft->type->u.lfn.nparams;
      fn->nresults = ret && ret->kind != TY_LLVM_VOID;
      fn->arg_words = words_of_types(ctx, ft->type->u.lfn.params, fn->nargs);
      fn->res_words = words_of_types(ctx, &ret, fn->nresults);
    }
    if (!o->regions[0].first) {
      fn->native = interp_native_fn(fn->name);
      if (!fn->native)
        fn->native = interp_llvm_native_fn(fn->name);
    }
  }
  /* compile everything up front, so an unsupported op is reported before anything runs */
  bool ok = true;
  for (uint32_t i = 0; i < in->nfuncs; i++) {
    Func *fn = &in->funcs[i];
    if (!fn->op->regions[0].first)
      continue; /* declarations: checked where they are called */
    ok = interp_compile_func(in, fn) && ok;
  }
  if (!ok) {
    interp_destroy(in);
    return NULL;
  }
  return in;
}

struct Run {
  Interp *in;
  Func *fn;
  Ins *site;
  Slot *res;
  int status; /* interp_call's */
};

static void *run_main(void *arg) {
  struct Run *r = arg;
  char top;
  r->in->stack_lo = (uintptr_t)&top - RUN_STACK + STACK_MARGIN;
  r->status = interp_call(r->in, r->fn, r->site, NULL, r->res);
  if (r->status != EX_ERROR) /* the async runtime's tasks still queued run, as its pool at exit */
    r->status = interp_async_drain(r->in, r->site);
  return NULL;
}

unsigned interp_run(Interp *in, const char *entry) {
  Func *fn = interp_func(in, ir_intern_cstr(in->ctx, entry));
  if (!fn || !fn->op->regions[0].first) {
    ir_diag(in->ctx, DIAG_ERROR, NULL, "no function '@%s' with a body to run (-e names the entry point)",
            entry);
    return ++in->errors;
  }
  if (fn->nargs) {
    ir_op_error(in->ctx, fn->op, "the entry function must take no arguments");
    return ++in->errors;
  }
  Slot res[64];
  if (fn->nresults > 0) {
    ir_op_error(in->ctx, fn->op, "the entry function must return nothing");
    return ++in->errors;
  }
  Ins site = {0};
  site.op = fn->op;
  struct Run r = {in, fn, &site, res, EX_NEXT};
  pthread_attr_t attr;
  pthread_t t;
  bool attr_ok = !pthread_attr_init(&attr);
  if (attr_ok && !pthread_attr_setstacksize(&attr, RUN_STACK) && !pthread_create(&t, &attr, run_main, &r))
    pthread_join(t, NULL);
  else /* no thread to be had: this thread's stack, with the depth limit alone */
    run_main(&r);
  if (attr_ok)
    pthread_attr_destroy(&attr);
  in->stack_lo = 0;
  if (r.status == EX_ERROR && in->be)
    be_quiet_leaks(in->be); /* it ended early: what it made and did not free is no news */
  interp_gpu_finish(in);
  fflush(in->out);
  return in->errors;
}

void interp_destroy(Interp *in) {
  if (!in)
    return;
  interp_offload_free(in);
  interp_gpu_free(in);
  interp_free_globals(in);
  interp_free_heap(in);
  interp_async_free(in);
  interp_llvm_free(in);
  free(in->funcs);
  free(in);
}
