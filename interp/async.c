/* async.c - what convert-async-to-llvm leaves of the async dialect: LLVM's switched-resume
 * coroutines, run before CoroSplit (the llvm.intr.coro.* ops as they stand in the function), and
 * the mlirAsyncRuntime* functions they call (MLIR's AsyncRuntime.cpp), with a deterministic
 * executor in place of its thread pool.
 *
 * Coroutines. A function that calls llvm.intr.coro.begin is a coroutine; its first call is the
 * ramp. coro.begin makes a Coro keyed by the frame memory it was given (the program's handle:
 * coro.free gives it back, the program frees it); the frame itself lives here. coro.suspend
 * saves the function's slots (the first time, a copy of the ramp's frame; later the Coro's own)
 * and where to go on: the instruction after it, whose result a resume sets to 0 (LLVM: 0 resume,
 * 1 destroy, -1 suspended). The suspend itself yields -1, so the flow that reached it takes the
 * suspend path to coro.end: in the ramp coro.end is a no-op (the ramp returns its results), in a
 * resumed run it ends the run, as the return of CoroSplit's resume function. llvm.intr.coro.resume
 * runs the saved frame from the saved place. A coroutine that reaches coro.end without being
 * suspended has finished and its Coro is freed. Suspends must be at the function's top level (an
 * llvm.func's body has no nested regions): the run loop of that body is the only C frame to
 * leave and re-enter. llvm.alloca in a coroutine takes heap blocks that belong to the Coro, so
 * that they outlive the ramp's return and stay valid across suspends until the coroutine ends.
 *
 * The runtime. Tokens, values and groups are reference counted as upstream's (created with two
 * references, emplacing drops one); their handles are small tagged numbers, not addresses, so a
 * stale or wrong handle is a located error and never followed. A value's storage is host memory
 * the memory table knows (kind R_ASYNC), so the program's loads and stores through
 * GetValueStorage are checked like any others and free() of it is refused. The thread pool is a
 * FIFO queue of (handle, resume function) tasks: mlirAsyncRuntimeExecute and every awaiter whose
 * object became ready append to it (upstream resumes a ready awaiter at once, which the
 * pre-split form cannot: the coroutine has not reached its suspend yet), and the queue is run
 * by a blocking await until what it waits for is ready, and to its end after the entry function
 * returned (upstream's runtime waits for its pool at exit). A blocking await that the queue
 * cannot satisfy is a deadlock, reported at the await. One thread runs it all, so the order is
 * the same in every run. */
#include "interp/llvm.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- coroutines ----------------------------------------------------------------------------- */

enum { CO_RUNNING, CO_SUSPENDED, CO_DONE };

typedef struct Coro {
  void *hdl;             /* the frame memory coro.begin was given */
  const Func *fn;
  Slot *slots;           /* the frame, from the first suspend on (fn->nslots words) */
  uint32_t bi, ii, res;  /* where a resume goes on: block, instruction, the suspend's result slot */
  int state;
  bool final;            /* suspended at a final suspend point: only destroy may follow */
  bool active;           /* a resumed run is using slots */
  void *allocas;         /* llvm.alloca blocks of the coroutine (memref.c's list form) */
  struct Coro *next;
} Coro;

typedef struct Task {
  void *hdl;
  const Func *resume;
} Task;

enum { A_TOKEN, A_VALUE, A_GROUP };
enum { S_UNAVAILABLE, S_AVAILABLE, S_ERROR };

/* What runs when an object becomes ready: a coroutine to resume (queued), or a group's count. */
typedef struct Waiter {
  void *hdl;
  const Func *resume; /* NULL: a group's token; group is its index */
  size_t group;
} Waiter;

typedef struct AObj {
  int kind, state;
  int64_t refs;
  char *storage;      /* a value's payload */
  uint64_t size;      /* its bytes; a group's number of tokens */
  int64_t pending, errors, rank; /* a group's */
  Waiter *w;
  size_t nw, capw;
  const char *loc;    /* the call that made it */
} AObj;

struct AsyncRt {
  AObj *obj;
  size_t nobj, capobj;
  Task *q;
  size_t qhead, qtail, capq; /* ring buffer */
  Coro *coros;
};

/* Handles given to the program: an object's index, tagged, 16-byte aligned. */
#define HANDLE_BASE ((uintptr_t)0xa51c00000000ULL)

static const char *const kind_names[] = {"async token", "async value", "async group"};

static struct AsyncRt *rt(Interp *in) {
  if (!in->async && !(in->async = calloc(1, sizeof *in->async)))
    abort();
  return in->async;
}

static const char *call_loc(Frame *fr, const Ins *ins) {
  Comp c = {fr->in, NULL, 0};
  return interp_loc(&c, ins->op);
}

static Coro *coro_find(Interp *in, const void *hdl) {
  for (Coro *co = in->async ? in->async->coros : NULL; co; co = co->next)
    if (co->hdl == hdl)
      return co;
  return NULL;
}

static void coro_free(Interp *in, Coro *co) {
  struct AsyncRt *a = rt(in);
  for (Coro **pp = &a->coros; *pp; pp = &(*pp)->next)
    if (*pp == co) {
      *pp = co->next;
      break;
    }
  Frame tmp = {0};
  tmp.in = in;
  tmp.allocas = co->allocas;
  interp_free_allocas(&tmp, NULL);
  free(co->slots);
  free(co);
}

/* Where ins stands in fn's top-level body: block and index. */
static bool position_of(const Func *fn, const Ins *ins, uint32_t *bi, uint32_t *ii) {
  for (uint32_t b = 0; b < fn->body.nblocks; b++) {
    const Block1 *blk = &fn->body.blocks[b];
    if (ins >= blk->ins && ins < blk->ins + blk->n) {
      *bi = b;
      *ii = (uint32_t)(ins - blk->ins);
      return true;
    }
  }
  return false;
}

static bool top_level(Comp *c, Op *op) {
  Op *parent = ir_op_parent_op(op);
  return parent && parent == c->fn->op;
}

static int x_coro_id(Frame *fr, const Ins *ins) {
  for (uint32_t i = 1; i < 4; i++)
    if (fr->s[ins->in[i]].p)
      return interp_error(fr, ins, "coro.id with a %s is not supported by the interpreter yet",
                          i == 1 ? "promise" : i == 2 ? "coroutine address" : "function table");
  fr->s[ins->out[0]].u = 0;
  return EX_NEXT;
}

static int x_coro_const(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = ins->imm.i;
  return EX_NEXT;
}

static int x_coro_begin(Frame *fr, const Ins *ins) {
  void *mem = fr->s[ins->in[1]].p;
  if (fr->coro)
    return interp_error(fr, ins, "a second coro.begin in one call of a coroutine");
  if (!mem)
    return interp_error(fr, ins, "coro.begin without frame memory (an elided allocation) is not "
                                 "supported by the interpreter yet");
  Coro *old = coro_find(fr->in, mem);
  if (old && old->active)
    return interp_error(fr, ins, "coro.begin on the frame memory of a coroutine still running");
  if (old) /* its memory was freed and given out again: that coroutine cannot be resumed */
    coro_free(fr->in, old);
  Coro *co = calloc(1, sizeof *co);
  if (!co)
    return interp_error(fr, ins, "out of memory");
  co->hdl = mem;
  co->fn = fr->fn;
  co->state = CO_RUNNING;
  co->allocas = fr->allocas; /* allocas made before coro.begin belong to the frame too */
  fr->allocas = NULL;
  struct AsyncRt *a = rt(fr->in);
  co->next = a->coros;
  a->coros = co;
  fr->coro = co;
  fr->s[ins->out[0]].p = mem;
  return EX_NEXT;
}

static bool own_handle(Frame *fr, const Ins *ins, const void *hdl) {
  if (fr->coro && fr->coro->hdl == hdl)
    return true;
  interp_error(fr, ins, "names 0x%" PRIxPTR ", which is not the handle of this call's coroutine",
               (uintptr_t)hdl);
  return false;
}

static int x_coro_save(Frame *fr, const Ins *ins) {
  if (!own_handle(fr, ins, fr->s[ins->in[0]].p))
    return EX_ERROR;
  fr->s[ins->out[0]].u = 0;
  return EX_NEXT;
}

static int x_coro_suspend(Frame *fr, const Ins *ins) {
  Coro *co = fr->coro;
  uint32_t bi, ii;
  if (!co)
    return interp_error(fr, ins, "coro.suspend in a call that made no coroutine (no coro.begin)");
  if (co->state == CO_SUSPENDED)
    return interp_error(fr, ins, "a second suspend before the first one's suspend path reached "
                                 "coro.end");
  if (!position_of(fr->fn, ins, &bi, &ii))
    return interp_error(fr, ins, "coro.suspend outside the function's body");
  if (fr->s != co->slots) { /* the ramp: the frame moves to the heap */
    size_t n = fr->fn->nslots ? fr->fn->nslots : 1;
    Slot *s = co->slots ? co->slots : malloc(n * sizeof *s);
    if (!s)
      return interp_error(fr, ins, "out of memory for a coroutine frame of %zu words", n);
    memcpy(s, fr->s, fr->fn->nslots * sizeof *s);
    co->slots = s;
  }
  co->bi = bi;
  co->ii = ii + 1;
  co->res = ins->out[0];
  co->final = fr->s[ins->in[1]].i & 1;
  co->state = CO_SUSPENDED;
  fr->s[ins->out[0]].i = -1;
  return EX_NEXT;
}

static int x_coro_end(Frame *fr, const Ins *ins) {
  Coro *co = fr->coro;
  if (!own_handle(fr, ins, fr->s[ins->in[0]].p))
    return EX_ERROR;
  if (co->state == CO_RUNNING)
    co->state = CO_DONE; /* it ran to its end */
  if (fr->s == co->slots) { /* a resumed run ends here, as the resume function returns */
    fr->jump = -1;
    return EX_DONE;
  }
  fr->s[ins->out[0]].i = 0;
  if (co->state == CO_DONE) {
    coro_free(fr->in, co);
    fr->coro = NULL;
  }
  return EX_NEXT;
}

static int x_coro_free(Frame *fr, const Ins *ins) {
  void *hdl = fr->s[ins->in[1]].p;
  if (!own_handle(fr, ins, hdl))
    return EX_ERROR;
  fr->s[ins->out[0]].p = hdl;
  return EX_NEXT;
}

void interp_coro_left(Frame *fr) {
  Coro *co = fr->coro;
  if (co && co->state != CO_SUSPENDED && !co->active)
    coro_free(fr->in, co); /* returned without suspending or ending: nothing can resume it */
  fr->coro = NULL;
}

/* Runs coroutine hdl from its suspend point, the suspend yielding how (0 resume, 1 destroy). */
static int coro_run(Frame *fr, const Ins *ins, void *hdl, int how) {
  Interp *in = fr->in;
  Coro *co = coro_find(in, hdl);
  if (!co || co->state == CO_DONE)
    return interp_error(fr, ins, "resumes 0x%" PRIxPTR ", which is not the handle of a suspended "
                                 "coroutine", (uintptr_t)hdl);
  if (co->active || co->state != CO_SUSPENDED)
    return interp_error(fr, ins, "resumes a coroutine that is running (it has not reached its "
                                 "suspend point)");
  if (co->final && how == 0)
    return interp_error(fr, ins, "resumes a coroutine suspended at its final suspend point");
  if (in->depth >= 4096)
    return interp_error(fr, ins, "resumes nest more than 4096 deep");
  char here;
  if (in->stack_lo && (uintptr_t)&here < in->stack_lo)
    return interp_error(fr, ins, "resumes nest too deep for the interpreter's stack");
  Frame rf = {in, co->slots, co->fn, -1, NULL, NULL, co};
  co->slots[co->res].i = how;
  co->state = CO_RUNNING;
  co->active = true;
  in->depth++;
  size_t sp = in->sp;
  int r = interp_run_body_at(&rf, &co->fn->body, co->bi, co->ii);
  in->sp = sp;
  in->depth--;
  interp_free_allocas(&rf, NULL); /* memref.alloca blocks of this run (llvm.alloca's are co's) */
  co->active = false;
  if (r != EX_ERROR && co->state == CO_RUNNING)
    r = interp_error(fr, ins, "the resumed coroutine returned without reaching coro.end");
  if (co->state != CO_SUSPENDED)
    coro_free(in, co);
  return r == EX_ERROR ? EX_ERROR : EX_NEXT;
}

static int x_coro_resume(Frame *fr, const Ins *ins) { return coro_run(fr, ins, fr->s[ins->in[0]].p, 0); }

typedef struct CoAlloca {
  uint64_t size, align;
  const char *loc;
} CoAlloca;

/* llvm.alloca in a coroutine: a heap block on the Coro's list (the frame's before coro.begin) */
static int x_coro_alloca(Frame *fr, const Ins *ins) {
  const CoAlloca *ca = ins->aux;
  int64_t n = fr->s[ins->in[0]].i;
  uint64_t bytes;
  if (n < 0 || __builtin_mul_overflow((uint64_t)n, ca->size, &bytes) || bytes > UINT64_MAX - 64)
    return interp_error(fr, ins, "alloca of %lld elements", (long long)n);
  void *blk = interp_host_alloc(64 + bytes, 64);
  if (!blk)
    return interp_error(fr, ins, "out of memory: cannot allocate %" PRIu64 " bytes", bytes);
  void **list = fr->coro ? &fr->coro->allocas : &fr->allocas;
  *(void **)blk = *list;
  *list = blk;
  char *p = (char *)blk + 64;
  interp_low_block_add(fr->in, p, bytes, R_MEMREF, ca->loc);
  if (fr->in->be && be_host_add(fr->in->be, p, bytes ? bytes : 1, ca->loc) != BE_OK)
    return EX_ERROR;
  fr->s[ins->out[0]].p = p;
  return EX_NEXT;
}

bool interp_coro_alloca(Comp *c, Op *op, Ins *ins, uint64_t size, uint64_t align) {
  if (align > 64)
    return interp_unsupported(c, op, "an alloca aligned to more than 64 bytes in a coroutine");
  CoAlloca *ca = ir_alloc(c->in->ctx, sizeof *ca);
  ca->size = size;
  ca->align = align;
  ca->loc = interp_loc(c, op);
  ins->aux = ca;
  ins->fn = x_coro_alloca;
  return true;
}

bool c_coro(Comp *c, Op *op, Ins *ins) {
  const char *n = op->name.s + strlen("llvm.intr.coro.");
  if (!c->fn || !c->fn->coroutine)
    return interp_unsupported(c, op, "a coroutine op in a function without llvm.intr.coro.begin");
  if (!top_level(c, op))
    return interp_unsupported(c, op, "a coroutine op inside a nested region");
  if (!strcmp(n, "id"))
    ins->fn = x_coro_id;
  else if (!strcmp(n, "begin"))
    ins->fn = x_coro_begin;
  else if (!strcmp(n, "size") || !strcmp(n, "align")) {
    /* the frame lives in the interpreter: the program's frame memory is only its handle */
    ins->imm.i = 16;
    ins->fn = x_coro_const;
  } else if (!strcmp(n, "save"))
    ins->fn = x_coro_save;
  else if (!strcmp(n, "suspend"))
    ins->fn = x_coro_suspend;
  else if (!strcmp(n, "end"))
    ins->fn = x_coro_end;
  else if (!strcmp(n, "free"))
    ins->fn = x_coro_free;
  else
    return interp_unsupported(c, op, "this coroutine op");
  return true;
}

/* coro.resume may be anywhere: CoroSplit turns it into a call through the frame */
bool c_coro_resume(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_coro_resume;
  return true;
}

/* ---- the runtime's objects ------------------------------------------------------------------ */

static void *handle_of(size_t i) { return (void *)(HANDLE_BASE + 16 * (i + 1)); }

/* The live object of that kind behind handle p (kind -1: any); NULL after a located error. */
static AObj *obj_of(Frame *fr, const Ins *call, const void *p, int kind) {
  struct AsyncRt *a = rt(fr->in);
  uintptr_t u = (uintptr_t)p;
  size_t i = (u - HANDLE_BASE) / 16 - 1;
  if (u <= HANDLE_BASE || (u - HANDLE_BASE) % 16 || i >= a->nobj) {
    interp_error(fr, call, "passes 0x%" PRIxPTR ", which is no %s", u,
                 kind < 0 ? "async runtime object" : kind_names[kind]);
    return NULL;
  }
  AObj *o = &a->obj[i];
  if (kind >= 0 && o->kind != kind) {
    interp_error(fr, call, "passes the %s made at %s where an %s is expected", kind_names[o->kind], o->loc,
                 kind_names[kind]);
    return NULL;
  }
  if (o->refs <= 0) {
    interp_error(fr, call, "uses the %s made at %s after its last reference was dropped",
                 kind_names[o->kind], o->loc);
    return NULL;
  }
  return o;
}

static AObj *obj_new(Frame *fr, const Ins *call, int kind, int64_t refs, size_t *idx) {
  struct AsyncRt *a = rt(fr->in);
  if (a->nobj == a->capobj) {
    a->capobj = a->capobj ? 2 * a->capobj : 64;
    if (!(a->obj = realloc(a->obj, a->capobj * sizeof *a->obj)))
      abort();
  }
  *idx = a->nobj;
  AObj *o = &a->obj[a->nobj++];
  memset(o, 0, sizeof *o);
  o->kind = kind;
  o->refs = refs;
  o->loc = call_loc(fr, call);
  return o;
}

static void obj_release(Interp *in, AObj *o) {
  if (o->storage) {
    interp_low_block_remove(in, o->storage);
    if (in->be)
      be_host_remove(in->be, o->storage, o->loc);
    free(o->storage);
    o->storage = NULL;
  }
  free(o->w);
  o->w = NULL;
  o->nw = o->capw = 0;
}

static int drop_ref(Frame *fr, const Ins *call, AObj *o, int64_t n) {
  if (n < 0 || n > o->refs)
    return interp_error(fr, call, "drops %" PRId64 " references of the %s made at %s, which has %" PRId64,
                        n, kind_names[o->kind], o->loc, o->refs);
  o->refs -= n;
  if (!o->refs)
    obj_release(fr->in, o);
  return EX_NEXT;
}

static void enqueue(Interp *in, void *hdl, const Func *resume) {
  struct AsyncRt *a = rt(in);
  size_t n = a->qtail - a->qhead;
  if (n == a->capq) {
    size_t cap = a->capq ? 2 * a->capq : 64;
    Task *q = malloc(cap * sizeof *q);
    if (!q)
      abort();
    for (size_t i = 0; i < n; i++)
      q[i] = a->q[(a->qhead + i) % a->capq];
    free(a->q);
    a->q = q;
    a->capq = cap;
    a->qhead = 0;
    a->qtail = n;
  }
  a->q[a->qtail++ % a->capq] = (Task){hdl, resume};
}

static bool add_waiter(AObj *o, Waiter w) {
  if (o->nw == o->capw) {
    o->capw = o->capw ? 2 * o->capw : 4;
    if (!(o->w = realloc(o->w, o->capw * sizeof *o->w)))
      abort();
  }
  o->w[o->nw++] = w;
  return true;
}

/* a token of group g became ready (or failed): the last one wakes the group's awaiters */
static void group_token_ready(Interp *in, size_t g, bool error) {
  AObj *o = &in->async->obj[g];
  o->errors += error;
  if (o->pending > 0 && --o->pending == 0) {
    for (size_t i = 0; i < o->nw; i++)
      enqueue(in, o->w[i].hdl, o->w[i].resume);
    o->nw = 0;
  }
}

/* An object's terminal state: its awaiters run (queued), and the reference made for the task that
 * was to make it ready is dropped. */
static int set_state(Frame *fr, const Ins *call, AObj *o, size_t idx, int state) {
  if (o->state != S_UNAVAILABLE)
    return interp_error(fr, call, "the %s made at %s is already %s", kind_names[o->kind], o->loc,
                        o->state == S_ERROR ? "in the error state" : "available");
  o->state = state;
  size_t nw = o->nw;
  Waiter *w = o->w;
  o->w = NULL;
  o->nw = o->capw = 0;
  for (size_t i = 0; i < nw; i++) {
    if (w[i].resume) {
      enqueue(fr->in, w[i].hdl, w[i].resume);
    } else {
      group_token_ready(fr->in, w[i].group, state == S_ERROR);
      AObj *g = &fr->in->async->obj[w[i].group];
      if (drop_ref(fr, call, g, 1) == EX_ERROR) {
        free(w);
        return EX_ERROR;
      }
    }
  }
  free(w);
  return drop_ref(fr, call, &fr->in->async->obj[idx], 1);
}

/* The function a resume pointer names: one of the module's, taking a pointer. */
static const Func *resume_fn(Frame *fr, const Ins *call, const void *p) {
  Interp *in = fr->in;
  uintptr_t u = (uintptr_t)p, lo = (uintptr_t)in->funcs;
  if (u < lo || u >= lo + in->nfuncs * sizeof *in->funcs || (u - lo) % sizeof *in->funcs) {
    interp_error(fr, call, "passes 0x%" PRIxPTR " as a resume function, which is no function's address",
                 (uintptr_t)p);
    return NULL;
  }
  const Func *f = &in->funcs[(u - lo) / sizeof *in->funcs];
  if (f->nargs != 1 || f->arg_words[0] != 1 || f->nresults || (!f->native && !f->op->regions[0].first)) {
    interp_error(fr, call, "passes '@%.*s' as a resume function, which is not a defined function of "
                 "one pointer returning nothing", (int)f->name.len, f->name.s);
    return NULL;
  }
  return f;
}

/* Runs the queue's first task. */
static int run_task(Frame *fr, const Ins *call) {
  struct AsyncRt *a = fr->in->async;
  Task t = a->q[a->qhead++ % a->capq];
  Slot arg = {.p = t.hdl}, res[2];
  return interp_call(fr->in, t.resume, call, &arg, res);
}

static bool ready(const AObj *o) { return o->kind == A_GROUP ? o->pending <= 0 : o->state != S_UNAVAILABLE; }

/* A blocking await: runs tasks until the object behind handle p is ready. */
static int await_blocking(Frame *fr, const Ins *call, const void *p, int kind) {
  for (;;) {
    AObj *o = obj_of(fr, call, p, kind);
    if (!o)
      return EX_ERROR;
    if (ready(o))
      return EX_NEXT;
    struct AsyncRt *a = fr->in->async;
    if (a->qhead == a->qtail)
      return interp_error(fr, call, "waits for the %s made at %s, which no task left to run can make "
                          "ready (deadlock)", kind_names[kind], o->loc);
    if (run_task(fr, call) == EX_ERROR)
      return EX_ERROR;
  }
}

int interp_async_drain(Interp *in, const Ins *site) {
  Frame fr = {0};
  fr.in = in;
  while (in->async && in->async->qhead != in->async->qtail)
    if (run_task(&fr, site) == EX_ERROR)
      return EX_ERROR;
  return EX_NEXT;
}

void interp_async_free(Interp *in) {
  struct AsyncRt *a = in->async;
  if (!a)
    return;
  while (a->coros)
    coro_free(in, a->coros);
  for (size_t i = 0; i < a->nobj; i++)
    obj_release(in, &a->obj[i]);
  free(a->obj);
  free(a->q);
  free(a);
  in->async = NULL;
}

/* ---- the mlirAsyncRuntime* functions -------------------------------------------------------- */

#define RT(name) static int n_##name(Frame *fr, const Ins *call, Slot *a, Slot *r)
#define OBJ(var, p, kind)                                                                          \
  AObj *var = obj_of(fr, call, (p), (kind));                                                       \
  if (!var)                                                                                        \
  return EX_ERROR

static size_t index_of(Interp *in, const AObj *o) { return (size_t)(o - in->async->obj); }

RT(mlirAsyncRuntimeAddRef) {
  (void)r;
  OBJ(o, a[0].p, -1);
  if (a[1].i < 0)
    return interp_error(fr, call, "adds %" PRId64 " references", a[1].i);
  o->refs += a[1].i;
  return EX_NEXT;
}

RT(mlirAsyncRuntimeDropRef) {
  (void)r;
  OBJ(o, a[0].p, -1);
  return drop_ref(fr, call, o, a[1].i);
}

RT(mlirAsyncRuntimeCreateToken) {
  (void)a;
  size_t i;
  obj_new(fr, call, A_TOKEN, 2, &i);
  r[0].p = handle_of(i);
  return EX_NEXT;
}

RT(mlirAsyncRuntimeCreateValue) {
  int64_t size = a[0].i;
  if (size < 0)
    return interp_error(fr, call, "creates an async value of %" PRId64 " bytes", size);
  char *p = interp_host_alloc((uint64_t)size ? (uint64_t)size : 1, 16);
  if (!p)
    return interp_error(fr, call, "out of memory: cannot allocate %" PRId64 " bytes", size);
  size_t i;
  AObj *o = obj_new(fr, call, A_VALUE, 2, &i);
  o->storage = p;
  o->size = (uint64_t)size;
  interp_low_block_add(fr->in, p, (uint64_t)size, R_ASYNC, o->loc);
  if (fr->in->be && be_host_add(fr->in->be, p, size ? (uint64_t)size : 1, o->loc) != BE_OK)
    return EX_ERROR;
  r[0].p = handle_of(i);
  return EX_NEXT;
}

RT(mlirAsyncRuntimeCreateGroup) {
  if (a[0].i < 0)
    return interp_error(fr, call, "creates an async group of %" PRId64 " tokens", a[0].i);
  size_t i;
  AObj *o = obj_new(fr, call, A_GROUP, 1, &i);
  o->pending = a[0].i;
  o->size = (uint64_t)a[0].i;
  r[0].p = handle_of(i);
  return EX_NEXT;
}

RT(mlirAsyncRuntimeAddTokenToGroup) {
  OBJ(t, a[0].p, A_TOKEN);
  OBJ(g, a[1].p, A_GROUP);
  size_t gi = index_of(fr->in, g);
  if ((uint64_t)g->rank >= g->size)
    return interp_error(fr, call, "adds a token to the async group made at %s, which is full", g->loc);
  r[0].i = g->rank++;
  if (t->state != S_UNAVAILABLE) {
    group_token_ready(fr->in, gi, t->state == S_ERROR);
  } else {
    g->refs++; /* the group lives until the token is ready */
    add_waiter(t, (Waiter){NULL, NULL, gi});
  }
  return EX_NEXT;
}

RT(mlirAsyncRuntimeEmplaceToken) {
  (void)r;
  OBJ(o, a[0].p, A_TOKEN);
  return set_state(fr, call, o, index_of(fr->in, o), S_AVAILABLE);
}

RT(mlirAsyncRuntimeEmplaceValue) {
  (void)r;
  OBJ(o, a[0].p, A_VALUE);
  return set_state(fr, call, o, index_of(fr->in, o), S_AVAILABLE);
}

RT(mlirAsyncRuntimeSetTokenError) {
  (void)r;
  OBJ(o, a[0].p, A_TOKEN);
  return set_state(fr, call, o, index_of(fr->in, o), S_ERROR);
}

RT(mlirAsyncRuntimeSetValueError) {
  (void)r;
  OBJ(o, a[0].p, A_VALUE);
  return set_state(fr, call, o, index_of(fr->in, o), S_ERROR);
}

RT(mlirAsyncRuntimeIsTokenError) {
  OBJ(o, a[0].p, A_TOKEN);
  r[0].i = o->state == S_ERROR;
  return EX_NEXT;
}

RT(mlirAsyncRuntimeIsValueError) {
  OBJ(o, a[0].p, A_VALUE);
  r[0].i = o->state == S_ERROR;
  return EX_NEXT;
}

RT(mlirAsyncRuntimeIsGroupError) {
  OBJ(o, a[0].p, A_GROUP);
  r[0].i = o->errors > 0;
  return EX_NEXT;
}

RT(mlirAsyncRuntimeAwaitToken) {
  (void)r;
  return await_blocking(fr, call, a[0].p, A_TOKEN);
}

RT(mlirAsyncRuntimeAwaitValue) {
  (void)r;
  return await_blocking(fr, call, a[0].p, A_VALUE);
}

RT(mlirAsyncRuntimeAwaitAllInGroup) {
  (void)r;
  return await_blocking(fr, call, a[0].p, A_GROUP);
}

RT(mlirAsyncRuntimeGetValueStorage) {
  OBJ(o, a[0].p, A_VALUE);
  if (o->state == S_ERROR)
    return interp_error(fr, call, "reads the storage of the async value made at %s, which is in the "
                        "error state", o->loc);
  r[0].p = o->storage;
  return EX_NEXT;
}

RT(mlirAsyncRuntimeExecute) {
  (void)r;
  const Func *f = resume_fn(fr, call, a[1].p);
  if (!f)
    return EX_ERROR;
  enqueue(fr->in, a[0].p, f);
  return EX_NEXT;
}

static int await_and_execute(Frame *fr, const Ins *call, Slot *a, int kind) {
  OBJ(o, a[0].p, kind);
  const Func *f = resume_fn(fr, call, a[2].p);
  if (!f)
    return EX_ERROR;
  if (ready(o))
    enqueue(fr->in, a[1].p, f);
  else
    add_waiter(o, (Waiter){a[1].p, f, 0});
  return EX_NEXT;
}

RT(mlirAsyncRuntimeAwaitTokenAndExecute) {
  (void)r;
  return await_and_execute(fr, call, a, A_TOKEN);
}

RT(mlirAsyncRuntimeAwaitValueAndExecute) {
  (void)r;
  return await_and_execute(fr, call, a, A_VALUE);
}

RT(mlirAsyncRuntimeAwaitAllInGroupAndExecute) {
  (void)r;
  return await_and_execute(fr, call, a, A_GROUP);
}

/* upstream's spelling; the queue is one worker */
RT(mlirAsyncRuntimGetNumWorkerThreads) {
  (void)fr, (void)call, (void)a;
  r[0].i = 1;
  return EX_NEXT;
}

static const struct {
  const char *name;
  NativeFn fn;
} runtime[] = {
#define ENTRY(name) {#name, n_##name},
    ENTRY(mlirAsyncRuntimeAddRef) ENTRY(mlirAsyncRuntimeDropRef) ENTRY(mlirAsyncRuntimeCreateToken)
    ENTRY(mlirAsyncRuntimeCreateValue) ENTRY(mlirAsyncRuntimeCreateGroup)
    ENTRY(mlirAsyncRuntimeAddTokenToGroup) ENTRY(mlirAsyncRuntimeEmplaceToken)
    ENTRY(mlirAsyncRuntimeEmplaceValue) ENTRY(mlirAsyncRuntimeSetTokenError)
    ENTRY(mlirAsyncRuntimeSetValueError) ENTRY(mlirAsyncRuntimeIsTokenError)
    ENTRY(mlirAsyncRuntimeIsValueError) ENTRY(mlirAsyncRuntimeIsGroupError)
    ENTRY(mlirAsyncRuntimeAwaitToken) ENTRY(mlirAsyncRuntimeAwaitValue)
    ENTRY(mlirAsyncRuntimeAwaitAllInGroup) ENTRY(mlirAsyncRuntimeGetValueStorage)
    ENTRY(mlirAsyncRuntimeExecute) ENTRY(mlirAsyncRuntimeAwaitTokenAndExecute)
    ENTRY(mlirAsyncRuntimeAwaitValueAndExecute) ENTRY(mlirAsyncRuntimeAwaitAllInGroupAndExecute)
    ENTRY(mlirAsyncRuntimGetNumWorkerThreads)
#undef ENTRY
};

NativeFn interp_async_native_fn(Str name) {
  for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++)
    if (ir_str_eq(name, runtime[i].name))
      return runtime[i].fn;
  return NULL;
}
