/* build.c - making and rewriting IR after parsing: what a lowering needs (MLIR's OpBuilder and
 * RewriterBase, reduced to their core).
 *
 * Ops made here are ordinary ops of the context's arena, exactly as the parser would make them
 * from the generic form: operands threaded into their values' use lists, results owned by the op,
 * properties a dictionary. Nothing is freed: an erased op is unlinked from its block and from the
 * use lists of its operands, and stays in the arena until the context dies. */
#include "ir/internal.h"

#include <string.h>

/* op's operands become vs, each threaded into its value's use list. */
static void set_operand_list(IrCtx *ctx, Op *op, Value *const *vs, uint32_t n) {
  op->noperands = n;
  op->operands = ir_alloc(ctx, n * sizeof(Value *) + 1);
  op->operand_uses = ir_alloc(ctx, n * sizeof(Use) + 1);
  for (uint32_t i = 0; i < n; i++) {
    Use *u = &op->operand_uses[i];
    u->user = op;
    u->index = i;
    op->operands[i] = vs[i];
    u->next = vs[i]->uses;
    vs[i]->uses = u;
  }
}

Op *ir_op_new(IrCtx *ctx, const char *name, Loc *loc, Value *const *operands, uint32_t noperands,
              Type *const *result_types, uint32_t nresults, Attr *props, uint32_t nregions) {
  Op *op = ir_alloc_op(ctx, nresults);
  op->name = ir_intern_cstr(ctx, name);
  op->info = ir_op_info(op->name);
  op->loc = op->src = loc;
  set_operand_list(ctx, op, operands, noperands);
  op->nresults = nresults;
  for (uint32_t i = 0; i < nresults; i++) {
    op->results[i].type = result_types[i];
    op->results[i].def = op;
    op->results[i].index = i;
  }
  op->nregions = nregions;
  op->regions = ir_alloc(ctx, nregions * sizeof(Region) + 1);
  for (uint32_t i = 0; i < nregions; i++)
    op->regions[i].parent = op;
  op->props = props;
  return op;
}

static void link_between(Block *b, Op *prev, Op *next, Op *op) {
  op->parent = b;
  op->prev = prev;
  op->next = next;
  if (prev)
    prev->next = op;
  else
    b->first = op;
  if (next)
    next->prev = op;
  else
    b->last = op;
}

void ir_op_insert_before(Op *at, Op *op) { link_between(at->parent, at->prev, at, op); }
void ir_op_insert_after(Op *at, Op *op) { link_between(at->parent, at, at->next, op); }
void ir_block_push_back(Block *b, Op *op) { link_between(b, b->last, NULL, op); }

static void unlink_use(Use *u, Value *v) {
  for (Use **p = &v->uses; *p; p = &(*p)->next)
    if (*p == u) {
      *p = u->next;
      u->next = NULL;
      return;
    }
}

void ir_op_set_operand(Op *op, uint32_t i, Value *v) {
  Use *u = &op->operand_uses[i];
  unlink_use(u, op->operands[i]);
  op->operands[i] = v;
  u->next = v->uses;
  v->uses = u;
}


void ir_value_replace_uses(Value *from, Value *to) {
  while (from->uses) {
    Use *u = from->uses;
    ir_op_set_operand(u->user, u->index, to);
  }
}

static void unlink_op(Op *op) {
  Block *b = op->parent;
  if (!b)
    return;
  if (op->prev)
    op->prev->next = op->next;
  else
    b->first = op->next;
  if (op->next)
    op->next->prev = op->prev;
  else
    b->last = op->prev;
  op->parent = NULL;
  op->prev = op->next = NULL;
}

static void drop_uses(Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++)
    unlink_use(&op->operand_uses[i], op->operands[i]);
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next)
        drop_uses(o);
}

void ir_op_erase(Op *op) {
  unlink_op(op);
  drop_uses(op);
}

/* Marks op's uses, and those of the ops nested in it, as dying (index UINT32_MAX). */
static void mark_uses(Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++)
    op->operand_uses[i].index = UINT32_MAX;
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next)
        mark_uses(o);
}

/* Takes every dying use off the lists of op's operands; a list is walked once, when the first of
 * its dying uses is met (a use taken off gets user NULL). */
static void sweep_uses(Op *op) {
  for (uint32_t i = 0; i < op->noperands; i++) {
    if (!op->operand_uses[i].user)
      continue;
    for (Use **p = &op->operands[i]->uses; *p;) {
      Use *u = *p;
      if (u->index == UINT32_MAX) {
        *p = u->next;
        u->next = NULL;
        u->user = NULL;
      } else {
        p = &u->next;
      }
    }
  }
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next)
        sweep_uses(o);
}

void ir_ops_erase(Op *const *ops, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unlink_op(ops[i]);
    mark_uses(ops[i]);
  }
  for (size_t i = 0; i < n; i++)
    sweep_uses(ops[i]);
}

Attr *ir_attr_opaque(IrCtx *ctx, const char *text) {
  Attr *a = ir_alloc(ctx, sizeof *a);
  a->kind = ATTR_OPAQUE;
  a->u.str = ir_intern_cstr(ctx, text);
  return a;
}

Type *ir_type_llvm_struct(IrCtx *ctx, Type **elems, uint32_t n) {
  Type t = {.kind = TY_LLVM_STRUCT};
  t.u.agg.elems = elems;
  t.u.agg.n = n;
  return ir_type_intern(ctx, &t);
}

Type *ir_type_llvm_array(IrCtx *ctx, Type *elem, uint64_t count) {
  Type t = {.kind = TY_LLVM_ARRAY};
  t.u.arr.elem = elem;
  t.u.arr.count = count;
  return ir_type_intern(ctx, &t);
}

Type *ir_type_llvm_func(IrCtx *ctx, Type *ret, Type **params, uint32_t n) {
  Type t = {.kind = TY_LLVM_FUNC};
  t.u.lfn.ret = ret;
  t.u.lfn.params = params;
  t.u.lfn.nparams = n;
  return ir_type_intern(ctx, &t);
}
