/* control.c - the rest of host control flow: scf.parallel/reduce, scf.forall and
 * scf.index_switch, cf.switch, and the async dialect.
 *
 * The host runs these sequentially, which is one of the orders the program allows:
 *   - scf.parallel iterates its index space in row-major order; each scf.reduce combines the
 *     iteration's value into an accumulator kept in the op's result slot, through the reduce
 *     region (the accumulator is the region's left argument, the new value its right);
 *   - scf.forall on the host (memref form, no shared outputs) likewise;
 *   - async.execute runs its body in place when it is reached, after its dependencies (which,
 *     being earlier in program order, are complete): a token is then always ready and an
 *     !async.value holds its value's words. Awaiting is a no-op apart from unwrapping a value.
 *     The device work a body starts stays asynchronous on its stream, as on a real run.
 * Terminators write where their parent decided at compile time, like those in interp.c.
 * func.constant and func.call_indirect are here too: a function value is its Func pointer. */
#include "interp/internal.h"

#include <stdlib.h>
#include <string.h>

/* Copies operands [first, first+n) of ins to the slots dst[i] (words[i] each), through a
 * temporary since a destination may be another operand's slot. */
typedef struct Dests {
  uint32_t n, total;
  uint32_t *dst, *words;
} Dests;

static Dests *dests(Comp *c, Value **src, uint32_t n, const uint32_t *dst) {
  Dests *d = ir_alloc(c->in->ctx, sizeof *d);
  d->n = n;
  d->dst = ir_alloc(c->in->ctx, (n + 1) * sizeof *d->dst);
  d->words = ir_alloc(c->in->ctx, (n + 1) * sizeof *d->words);
  for (uint32_t i = 0; i < n; i++) {
    d->dst[i] = dst[i];
    d->words[i] = interp_words(src[i]->type);
    d->total += d->words[i];
  }
  return d;
}

static int send(Frame *fr, const Ins *ins, uint32_t first, const Dests *d) {
  Slot small[64];
  Slot *tmp = d->total <= 64 ? small : malloc(d->total * sizeof(Slot));
  if (!tmp)
    return interp_error(fr, ins, "out of memory");
  uint32_t w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    interp_copy(&tmp[w], &fr->s[ins->in[first + i]], d->words[i]);
    w += d->words[i];
  }
  w = 0;
  for (uint32_t i = 0; i < d->n; i++) {
    interp_copy(&fr->s[d->dst[i]], &tmp[w], d->words[i]);
    w += d->words[i];
  }
  if (tmp != small)
    free(tmp);
  return EX_NEXT;
}

static int64_t *dense_array(Op *op, const char *name, uint32_t n) {
  Attr *a = ir_op_attr(op, name);
  if (!a || a->kind != ATTR_DENSE_ARRAY || a->u.darr.n != n || (n && !a->u.darr.ivals))
    return NULL;
  return a->u.darr.ivals;
}

/* ---- scf.parallel, scf.reduce --------------------------------------------------------------- */

typedef struct Par {
  uint32_t n;          /* loop dimensions */
  uint32_t *iv;        /* slot of each induction variable */
  int64_t *lb, *ub, *step; /* scf.forall: static bounds, IR_DYNAMIC where an operand gives it */
  Body body;
  Dests *init;         /* inits -> result slots (the accumulators) */
  uint32_t first_init; /* operand index of the first init */
} Par;

/* Runs the body for every point of [lb, ub) step in row-major order. */
static int iterate(Frame *fr, const Ins *ins, const Par *p, const int64_t *lb, const int64_t *ub,
                   const int64_t *step) {
  int64_t iv[16];
  for (uint32_t d = 0; d < p->n; d++) {
    if (step[d] <= 0)
      return interp_error(fr, ins, "step %lld of dimension %u must be positive", (long long)step[d], d);
    if (lb[d] >= ub[d])
      return EX_NEXT;
    iv[d] = lb[d];
  }
  for (;;) {
    for (uint32_t d = 0; d < p->n; d++)
      fr->s[p->iv[d]].i = iv[d];
    if (interp_run_body(fr, &p->body) == EX_ERROR)
      return EX_ERROR;
    uint32_t d = p->n;
    while (d-- > 0) {
      iv[d] += step[d];
      if (iv[d] < ub[d])
        break;
      iv[d] = lb[d];
    }
    if (d == UINT32_MAX)
      return EX_NEXT;
  }
}

static int x_parallel(Frame *fr, const Ins *ins) {
  const Par *p = ins->aux;
  int64_t lb[16], ub[16], step[16];
  for (uint32_t d = 0; d < p->n; d++) {
    lb[d] = fr->s[ins->in[d]].i;
    ub[d] = fr->s[ins->in[p->n + d]].i;
    step[d] = fr->s[ins->in[2 * p->n + d]].i;
  }
  if (send(fr, ins, p->first_init, p->init) == EX_ERROR)
    return EX_ERROR;
  return iterate(fr, ins, p, lb, ub, step);
}

static Par *par_common(Comp *c, Op *op, uint32_t n) {
  Block *b = op->regions[0].first;
  if (!b || b->nargs < n || n > 16) {
    interp_unsupported(c, op, "this loop form");
    return NULL;
  }
  Par *p = ir_alloc(c->in->ctx, sizeof *p);
  p->n = n;
  p->iv = ir_alloc(c->in->ctx, (n + 1) * sizeof *p->iv);
  for (uint32_t d = 0; d < n; d++)
    p->iv[d] = b->args[d].id;
  return p;
}

bool c_parallel(Comp *c, Op *op, Ins *ins) {
  int64_t *seg = dense_array(op, "operandSegmentSizes", 4);
  if (!seg || seg[0] != seg[1] || seg[0] != seg[2] || seg[3] != (int64_t)op->nresults)
    return interp_unsupported(c, op, "this form of scf.parallel");
  Par *p = par_common(c, op, (uint32_t)seg[0]);
  if (!p)
    return false;
  p->first_init = 3 * p->n;
  uint32_t *dst = ir_alloc(c->in->ctx, (op->nresults + 1) * sizeof *dst);
  for (uint32_t i = 0; i < op->nresults; i++)
    dst[i] = op->results[i].id;
  p->init = dests(c, op->operands + p->first_init, op->nresults, dst);
  ins->aux = p;
  ins->fn = x_parallel;
  return interp_compile_body(c, &op->regions[0], &p->body);
}

typedef struct Reduce {
  uint32_t n;
  uint32_t *lhs, *rhs, *acc, *words;
  Body *bodies;
} Reduce;

static int x_reduce(Frame *fr, const Ins *ins) {
  const Reduce *r = ins->aux;
  for (uint32_t i = 0; i < r->n; i++) {
    interp_copy(&fr->s[r->lhs[i]], &fr->s[r->acc[i]], r->words[i]);
    interp_copy(&fr->s[r->rhs[i]], &fr->s[ins->in[i]], r->words[i]);
    if (interp_run_body(fr, &r->bodies[i]) == EX_ERROR)
      return EX_ERROR;
  }
  fr->jump = -1;
  return EX_DONE;
}

bool c_reduce(Comp *c, Op *op, Ins *ins) {
  Op *par = ir_op_parent_op(op);
  if (!par || !ir_str_eq(par->name, "scf.parallel") || par->nresults != op->noperands ||
      op->nregions != op->noperands)
    return interp_unsupported(c, op, "scf.reduce outside scf.parallel");
  Reduce *r = ir_alloc(c->in->ctx, sizeof *r);
  uint32_t n = op->noperands;
  r->n = n;
  r->lhs = ir_alloc(c->in->ctx, (n + 1) * sizeof(uint32_t));
  r->rhs = ir_alloc(c->in->ctx, (n + 1) * sizeof(uint32_t));
  r->acc = ir_alloc(c->in->ctx, (n + 1) * sizeof(uint32_t));
  r->words = ir_alloc(c->in->ctx, (n + 1) * sizeof(uint32_t));
  r->bodies = ir_alloc(c->in->ctx, (n + 1) * sizeof(Body));
  for (uint32_t i = 0; i < n; i++) {
    Block *b = op->regions[i].first;
    if (!b || b->nargs != 2)
      return interp_unsupported(c, op, "a reduce region without two arguments");
    r->lhs[i] = b->args[0].id;
    r->rhs[i] = b->args[1].id;
    r->acc[i] = par->results[i].id;
    r->words[i] = interp_words(par->results[i].type);
    if (!interp_compile_body(c, &op->regions[i], &r->bodies[i]))
      return false;
  }
  ins->aux = r;
  ins->fn = x_reduce;
  return true;
}

/* scf.reduce.return: its value becomes the accumulator of its region's result */
static int x_to_slot(Frame *fr, const Ins *ins) {
  interp_copy(&fr->s[ins->a], &fr->s[ins->in[0]], ins->b);
  fr->jump = -1;
  return EX_DONE;
}

bool c_reduce_return(Comp *c, Op *op, Ins *ins) {
  Op *red = ir_op_parent_op(op);
  Op *par = red ? ir_op_parent_op(red) : NULL;
  if (!par || !ir_str_eq(red->name, "scf.reduce") || !ir_str_eq(par->name, "scf.parallel") || op->noperands != 1)
    return interp_unsupported(c, op, "scf.reduce.return outside scf.reduce");
  uint32_t k = 0;
  while (k < red->nregions && &red->regions[k] != op->parent->parent)
    k++;
  if (k >= par->nresults)
    return interp_unsupported(c, op, "scf.reduce.return outside scf.reduce");
  ins->a = par->results[k].id;
  ins->b = interp_words(par->results[k].type);
  ins->fn = x_to_slot;
  return true;
}

/* ---- scf.forall (host) ---------------------------------------------------------------------- */

static int x_forall(Frame *fr, const Ins *ins) {
  const Par *p = ins->aux;
  int64_t b[3][16];
  const int64_t *st[3] = {p->lb, p->ub, p->step};
  uint32_t k = 0;
  for (int l = 0; l < 3; l++)
    for (uint32_t d = 0; d < p->n; d++)
      b[l][d] = st[l][d] == IR_DYNAMIC ? fr->s[ins->in[k++]].i : st[l][d];
  return iterate(fr, ins, p, b[0], b[1], b[2]);
}

bool c_forall(Comp *c, Op *op, Ins *ins) {
  if (op->nresults)
    return interp_unsupported(c, op, "scf.forall with shared outputs (tensors)");
  Block *b = op->regions[0].first;
  uint32_t n = b ? b->nargs : 0;
  Par *p = par_common(c, op, n);
  if (!p)
    return false;
  p->lb = dense_array(op, "staticLowerBound", n);
  p->ub = dense_array(op, "staticUpperBound", n);
  p->step = dense_array(op, "staticStep", n);
  if (!p->lb || !p->ub || !p->step)
    return interp_unsupported(c, op, "this form of scf.forall");
  ins->aux = p;
  ins->fn = x_forall;
  return interp_compile_body(c, &op->regions[0], &p->body);
}

static int x_leave(Frame *fr, const Ins *ins) {
  (void)ins;
  fr->jump = -1;
  return EX_DONE;
}

bool c_in_parallel(Comp *c, Op *op, Ins *ins) {
  Block *b = op->nregions ? op->regions[0].first : NULL;
  if (b && b->first)
    return interp_unsupported(c, op, "parallel_insert_slice (tensors)");
  ins->fn = x_leave;
  return true;
}

/* ---- scf.index_switch ----------------------------------------------------------------------- */

typedef struct Switch {
  uint32_t n;
  int64_t *cases;
  Body *bodies; /* bodies[0] the default, bodies[1 + i] case i (scf) */
  int32_t *target; /* cf.switch: block of the default, then of each case */
  Dests **moves;
  uint32_t *first;
} Switch;

static int x_index_switch(Frame *fr, const Ins *ins) {
  const Switch *s = ins->aux;
  int64_t v = fr->s[ins->in[0]].i;
  for (uint32_t i = 0; i < s->n; i++)
    if (s->cases[i] == v)
      return interp_run_body(fr, &s->bodies[1 + i]);
  return interp_run_body(fr, &s->bodies[0]);
}

bool c_index_switch(Comp *c, Op *op, Ins *ins) {
  Attr *cs = ir_op_attr(op, "cases");
  if (!cs || cs->kind != ATTR_DENSE_ARRAY || cs->u.darr.n + 1 != op->nregions || (cs->u.darr.n && !cs->u.darr.ivals))
    return interp_unsupported(c, op, "this form of scf.index_switch");
  Switch *s = ir_alloc(c->in->ctx, sizeof *s);
  s->n = cs->u.darr.n;
  s->cases = cs->u.darr.ivals;
  s->bodies = ir_alloc(c->in->ctx, op->nregions * sizeof *s->bodies);
  for (uint32_t i = 0; i < op->nregions; i++)
    if (!interp_compile_body(c, &op->regions[i], &s->bodies[i]))
      return false;
  ins->aux = s;
  ins->fn = x_index_switch;
  return true;
}

/* ---- cf.switch ------------------------------------------------------------------------------ */

static int x_cf_switch(Frame *fr, const Ins *ins) {
  const Switch *s = ins->aux;
  int64_t v = fr->s[ins->in[0]].i;
  uint32_t k = 0;
  for (uint32_t i = 0; i < s->n; i++)
    if (s->cases[i] == v) {
      k = 1 + i;
      break;
    }
  if (send(fr, ins, s->first[k], s->moves[k]) == EX_ERROR)
    return EX_ERROR;
  fr->jump = s->target[k];
  return EX_DONE;
}

/* The integers of a dense attribute: its values, or (when the front end kept only the text, as
 * for `dense<[-1, 7]> : vector<2xi8>`) those read back from the text. */
static bool dense_ints(const Attr *a, uint32_t n, int64_t *out) {
  if (a->u.dense.ivals) {
    if (!a->u.dense.splat && a->u.dense.n != n)
      return false;
    for (uint32_t i = 0; i < n; i++)
      out[i] = a->u.dense.ivals[a->u.dense.splat ? 0 : i];
    return true;
  }
  const char *p = a->u.dense.text.s, *end = p + a->u.dense.text.len;
  const char *lt = memchr(p, '<', a->u.dense.text.len);
  uint32_t k = 0;
  for (p = lt ? lt + 1 : end; p < end && *p != '>';) {
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      char *e;
      long long v = strtoll(p, &e, 10);
      if (k >= n)
        return false;
      out[k++] = v;
      p = e;
    } else if (*p == '[' || *p == ']' || *p == ',' || *p == ' ') {
      p++;
    } else {
      return false;
    }
  }
  for (uint32_t i = k; k == 1 && i < n; i++)
    out[i] = out[0]; /* a splat */
  return k == n || k == 1;
}

bool c_cf_switch(Comp *c, Op *op, Ins *ins) {
  Attr *cv = ir_op_attr(op, "case_values");
  int64_t *seg = dense_array(op, "operandSegmentSizes", 3);
  uint32_t ncases = op->nsuccs ? op->nsuccs - 1 : 0;
  int64_t *cseg = dense_array(op, "case_operand_segments", ncases);
  Switch *s = ir_alloc(c->in->ctx, sizeof *s);
  s->n = ncases;
  s->cases = ir_alloc(c->in->ctx, (ncases + 1) * sizeof *s->cases);
  if (!op->nsuccs || !seg ||
      (ncases && (!cv || cv->kind != ATTR_DENSE || !cseg || !dense_ints(cv, ncases, s->cases))))
    return interp_unsupported(c, op, "this form of cf.switch");
  uint32_t width = interp_int_width(op->operands[0]->type);
  for (uint32_t i = 0; i < ncases; i++)
    s->cases[i] = interp_sext((uint64_t)s->cases[i], width ? width : 64);
  s->target = ir_alloc(c->in->ctx, (ncases + 1) * sizeof *s->target);
  s->moves = ir_alloc(c->in->ctx, (ncases + 1) * sizeof *s->moves);
  s->first = ir_alloc(c->in->ctx, (ncases + 1) * sizeof *s->first);
  uint32_t first = 1;
  for (uint32_t k = 0; k <= ncases; k++) {
    Block *b = op->succs[k];
    uint32_t n = k ? (uint32_t)cseg[k - 1] : (uint32_t)seg[1];
    if (n != b->nargs)
      return interp_unsupported(c, op, "a successor with a different argument count");
    uint32_t *dst = ir_alloc(c->in->ctx, (n + 1) * sizeof *dst);
    for (uint32_t i = 0; i < n; i++)
      dst[i] = b->args[i].id;
    s->target[k] = (int32_t)b->id;
    s->first[k] = first;
    s->moves[k] = dests(c, op->operands + first, n, dst);
    first += n;
  }
  ins->aux = s;
  ins->fn = x_cf_switch;
  return true;
}

/* ---- async ---------------------------------------------------------------------------------- */

/* async.execute [deps] (values as args) -> (!async.token, !async.value<T>...): the body runs now;
 * the value operands unwrap into the body's arguments, async.yield wraps the results. A token is
 * a word holding 1 (ready). */
typedef struct Exec {
  Body body;
  Dests *args;
  uint32_t first_value;
} Exec;

static int x_execute(Frame *fr, const Ins *ins) {
  const Exec *e = ins->aux;
  fr->s[ins->out[0]].i = 1;
  if (send(fr, ins, e->first_value, e->args) == EX_ERROR)
    return EX_ERROR;
  return interp_run_body(fr, &e->body);
}

bool c_execute(Comp *c, Op *op, Ins *ins) {
  int64_t *seg = dense_array(op, "operandSegmentSizes", 2);
  Block *b = op->regions[0].first;
  if (!seg || !b || b->nargs != (uint32_t)seg[1] || !op->nresults)
    return interp_unsupported(c, op, "this form of async.execute");
  Exec *e = ir_alloc(c->in->ctx, sizeof *e);
  e->first_value = (uint32_t)seg[0];
  uint32_t *dst = ir_alloc(c->in->ctx, (b->nargs + 1) * sizeof *dst);
  for (uint32_t i = 0; i < b->nargs; i++)
    dst[i] = b->args[i].id;
  e->args = dests(c, op->operands + e->first_value, b->nargs, dst);
  ins->aux = e;
  ins->fn = x_execute;
  return interp_compile_body(c, &op->regions[0], &e->body);
}

static int x_async_yield(Frame *fr, const Ins *ins) {
  if (send(fr, ins, 0, ins->aux) == EX_ERROR)
    return EX_ERROR;
  fr->jump = -1;
  return EX_DONE;
}

bool c_async_yield(Comp *c, Op *op, Ins *ins) {
  Op *ex = ir_op_parent_op(op);
  if (!ex || !ir_str_eq(ex->name, "async.execute") || ex->nresults != op->noperands + 1)
    return interp_unsupported(c, op, "async.yield outside async.execute");
  uint32_t *dst = ir_alloc(c->in->ctx, (op->noperands + 1) * sizeof *dst);
  for (uint32_t i = 0; i < op->noperands; i++)
    dst[i] = ex->results[1 + i].id;
  ins->aux = dests(c, op->operands, op->noperands, dst);
  ins->fn = x_async_yield;
  return true;
}

/* async.await of a token: nothing left to wait for; of a value: its words */
static int x_await(Frame *fr, const Ins *ins) {
  if (ins->nout)
    interp_copy(&fr->s[ins->out[0]], &fr->s[ins->in[0]], ins->a);
  return EX_NEXT;
}

bool c_await(Comp *c, Op *op, Ins *ins) {
  (void)c;
  ins->a = op->nresults ? interp_words(op->results[0].type) : 0;
  ins->fn = x_await;
  return true;
}

/* a group is a counter of the tokens added; add_to_group returns the token's rank in it */
static int x_create_group(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = 0;
  return EX_NEXT;
}

bool c_create_group(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_create_group;
  return true;
}

static int x_add_to_group(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].i = fr->s[ins->in[1]].i++;
  return EX_NEXT;
}

bool c_add_to_group(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_add_to_group;
  return true;
}

static int x_nothing(Frame *fr, const Ins *ins) {
  (void)fr, (void)ins;
  return EX_NEXT;
}

bool c_await_all(Comp *c, Op *op, Ins *ins) {
  (void)c, (void)op;
  ins->fn = x_nothing;
  return true;
}

/* ---- func.constant, func.call_indirect ------------------------------------------------------ */

static int x_func_constant(Frame *fr, const Ins *ins) {
  fr->s[ins->out[0]].p = ins->aux;
  return EX_NEXT;
}

bool c_func_constant(Comp *c, Op *op, Ins *ins) {
  Attr *v = ir_op_attr(op, "value");
  Func *fn = v && v->kind == ATTR_SYMREF && v->u.sym.n == 1 ? interp_func(c->in, v->u.sym.path[0]) : NULL;
  if (!fn)
    return interp_unsupported(c, op, "a constant naming no function of this module");
  ins->aux = fn;
  ins->fn = x_func_constant;
  return true;
}

typedef struct Indirect {
  uint32_t arg_words, res_words;
  uint32_t *in_words, *out_words;
} Indirect;

static int x_call_indirect(Frame *fr, const Ins *ins) {
  const Indirect *ci = ins->aux;
  const Func *fn = fr->s[ins->in[0]].p;
  if (!fn)
    return interp_error(fr, ins, "calls a null function value");
  if (fn->native == NULL && !fn->op->regions[0].first)
    return interp_error(fr, ins, "calls a declaration the interpreter does not provide");
  Slot abuf[64], rbuf[64];
  Slot *args = ci->arg_words <= 64 ? abuf : malloc(ci->arg_words * sizeof(Slot));
  Slot *res = ci->res_words <= 64 ? rbuf : malloc(ci->res_words * sizeof(Slot));
  int r = EX_ERROR;
  if (!args || !res) {
    interp_error(fr, ins, "out of memory");
    goto done;
  }
  uint32_t w = 0;
  for (uint32_t i = 1; i < ins->nin; i++) {
    interp_copy(&args[w], &fr->s[ins->in[i]], ci->in_words[i]);
    w += ci->in_words[i];
  }
  r = interp_call(fr->in, fn, ins, args, res);
  if (r != EX_ERROR) {
    w = 0;
    for (uint32_t i = 0; i < ins->nout; i++) {
      interp_copy(&fr->s[ins->out[i]], &res[w], ci->out_words[i]);
      w += ci->out_words[i];
    }
  }
done:
  if (args && args != abuf)
    free(args);
  if (res && res != rbuf)
    free(res);
  return r == EX_ERROR ? EX_ERROR : EX_NEXT;
}

bool c_call_indirect(Comp *c, Op *op, Ins *ins) {
  Indirect *ci = ir_alloc(c->in->ctx, sizeof *ci);
  ci->in_words = ir_alloc(c->in->ctx, (op->noperands + 1) * sizeof(uint32_t));
  ci->out_words = ir_alloc(c->in->ctx, (op->nresults + 1) * sizeof(uint32_t));
  for (uint32_t i = 1; i < op->noperands; i++)
    ci->arg_words += ci->in_words[i] = interp_words(op->operands[i]->type);
  for (uint32_t i = 0; i < op->nresults; i++)
    ci->res_words += ci->out_words[i] = interp_words(op->results[i].type);
  ins->aux = ci;
  ins->fn = x_call_indirect;
  return true;
}
