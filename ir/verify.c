/* verify.c - structural verification, as far as the front end can judge without op semantics:
 *
 *   - operand and result counts of known ops (ops.def);
 *   - every block of a region that needs terminators ends with a terminator, and terminators
 *     appear only last;
 *   - every use is dominated by its definition: same block and earlier, or an enclosing block
 *     earlier, or a block that dominates the user's block (dominators by the iterative
 *     Cooper-Harvey-Kennedy method over reverse post-order). Graph regions (modules) are exempt;
 *   - a value defined above an isolated-from-above op is not used inside it.
 * Each problem is reported on the op at fault; verification goes on to report them all. */
#include "ir/internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct Verifier {
  IrCtx *ctx;
  unsigned errors;
} Verifier;

static void verify_region(Verifier *v, Region *r, bool graph);

/* The op in block b that contains op (itself, or an ancestor), or NULL. */
static Op *ancestor_in(Block *b, Op *op) {
  while (op && op->parent != b) {
    Region *r = op->parent ? op->parent->parent : NULL;
    op = r ? r->parent : NULL;
  }
  return op;
}

static bool is_graph_region(Region *r) {
  Op *owner = r->parent;
  return !owner || (owner->info && (owner->info->flags & OPF_GRAPH));
}

/* Dominator tree of a region's blocks: idom[i] is the index of block i's immediate dominator. */
typedef struct Doms {
  Block **blocks;
  int *idom, *rpo_num;
  uint32_t n;
} Doms;

static int block_index(const Doms *d, const Block *b) {
  for (uint32_t i = 0; i < d->n; i++)
    if (d->blocks[i] == b)
      return (int)i;
  return -1;
}

static void dfs(const Doms *d, int i, bool *seen, int *order, int *k) {
  seen[i] = true;
  Op *t = d->blocks[i]->last;
  for (uint32_t s = 0; t && s < t->nsuccs; s++) {
    int j = block_index(d, t->succs[s]);
    if (j >= 0 && !seen[j])
      dfs(d, j, seen, order, k);
  }
  order[(*k)++] = i;
}

static void compute_doms(Doms *d, Region *r) {
  uint32_t n = 0;
  for (Block *b = r->first; b; b = b->next)
    n++;
  d->n = n;
  d->blocks = malloc(n * sizeof *d->blocks);
  d->idom = malloc(n * sizeof *d->idom);
  d->rpo_num = malloc(n * sizeof *d->rpo_num);
  bool *seen = calloc(n, 1);
  int *post = malloc(n * sizeof *post);
  if (!d->blocks || !d->idom || !d->rpo_num || !seen || !post)
    abort();
  n = 0;
  for (Block *b = r->first; b; b = b->next)
    d->blocks[n++] = b;
  int k = 0;
  dfs(d, 0, seen, post, &k);
  for (uint32_t i = 0; i < n; i++) {
    d->idom[i] = -1;
    d->rpo_num[i] = -1;
  }
  for (int i = 0; i < k; i++)
    d->rpo_num[post[i]] = i; /* higher = earlier in reverse post-order */
  d->idom[0] = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (int oi = k - 2; oi >= 0; oi--) {
      int b = post[oi];
      int new_idom = -1;
      for (uint32_t p = 0; p < n; p++) {
        Op *t = d->blocks[p]->last;
        bool is_pred = false;
        for (uint32_t s = 0; t && s < t->nsuccs; s++)
          is_pred |= t->succs[s] == d->blocks[b];
        if (!is_pred || d->idom[p] < 0)
          continue;
        if (new_idom < 0) {
          new_idom = (int)p;
          continue;
        }
        int a = (int)p, c = new_idom;
        while (a != c) {
          while (d->rpo_num[a] < d->rpo_num[c])
            a = d->idom[a];
          while (d->rpo_num[c] < d->rpo_num[a])
            c = d->idom[c];
        }
        new_idom = a;
      }
      if (new_idom >= 0 && d->idom[b] != new_idom) {
        d->idom[b] = new_idom;
        changed = true;
      }
    }
  }
  free(seen);
  free(post);
}

static bool dominates_block(const Doms *d, const Block *a, const Block *b) {
  int ia = block_index(d, a), ib = block_index(d, b);
  if (ia < 0 || ib < 0)
    return false;
  if (d->idom[ib] < 0)
    return true; /* unreachable blocks are dominated by everything, as in MLIR */
  while (ib != ia) {
    if (ib == 0)
      return false;
    ib = d->idom[ib];
  }
  return true;
}

/* Is the definition of value visible and dominating at user? */
static bool properly_dominated(Value *val, Op *user) {
  Block *db = val->def ? val->def->parent : val->block;
  if (!db)
    return false;
  Op *anc = ancestor_in(db, user);
  if (anc) {
    if (!val->def)
      return true;
    return val->def != anc && val->def->order < anc->order;
  }
  /* not nested: the user's block must be in the same region, dominated by db */
  Region *r = db->parent;
  Op *u = user;
  while (u && u->parent && u->parent->parent != r) {
    Region *ur = u->parent->parent;
    u = ur ? ur->parent : NULL;
  }
  if (!u || !u->parent)
    return false;
  if (is_graph_region(r))
    return true;
  Doms d;
  compute_doms(&d, r);
  bool ok = dominates_block(&d, db, u->parent);
  free(d.blocks);
  free(d.idom);
  free(d.rpo_num);
  return ok;
}

static bool isolated_above(Value *val, Op *user) {
  /* walk up from user; crossing an isolated op before reaching the value's block is an error */
  Block *db = val->def ? val->def->parent : val->block;
  for (Op *o = user; o; o = ir_op_parent_op(o)) {
    if (o->parent == db)
      return false;
    Op *parent = ir_op_parent_op(o);
    if (parent && parent->info && (parent->info->flags & OPF_ISOLATED)) {
      /* the value's block must lie inside parent's regions */
      for (Op *q = db && db->parent ? db->parent->parent : NULL; q; q = ir_op_parent_op(q))
        if (q == parent)
          return false;
      return true;
    }
  }
  return false;
}

static void verify_op(Verifier *v, Op *op, bool graph) {
  const OpInfo *info = op->info;
  if (info) {
    if (info->nops >= 0 && op->noperands != (uint32_t)info->nops) {
      ir_op_error(v->ctx, op, "requires %d operand%s, but found %u", info->nops,
                  info->nops == 1 ? "" : "s", op->noperands);
      v->errors++;
    }
    if (info->nres >= 0 && op->nresults != (uint32_t)info->nres) {
      ir_op_error(v->ctx, op, "requires %d result%s, but found %u", info->nres,
                  info->nres == 1 ? "" : "s", op->nresults);
      v->errors++;
    }
  }
  for (uint32_t i = 0; i < op->noperands; i++) {
    Value *val = op->operands[i];
    if (isolated_above(val, op)) {
      ir_op_error(v->ctx, op, "using value defined outside the region");
      v->errors++;
    } else if (!graph && !properly_dominated(val, op)) {
      ir_op_error(v->ctx, op, "operand #%u does not dominate this use", i);
      v->errors++;
    }
  }
  for (uint32_t i = 0; i < op->nregions; i++) {
    bool g = info && (info->flags & OPF_GRAPH);
    verify_region(v, &op->regions[i], g);
  }
}

static void verify_region(Verifier *v, Region *r, bool graph) {
  Op *owner = r->parent;
  bool needs_term = !(owner && owner->info && (owner->info->flags & OPF_NO_TERMINATOR));
  for (Block *b = r->first; b; b = b->next) {
    uint32_t order = 0;
    for (Op *o = b->first; o; o = o->next)
      o->order = order++;
  }
  for (Block *b = r->first; b; b = b->next) {
    for (Op *o = b->first; o; o = o->next) {
      if (o->info && (o->info->flags & OPF_TERMINATOR) && o->next) {
        ir_op_error(v->ctx, o, "must be the last operation in the parent block");
        v->errors++;
      }
      verify_op(v, o, graph);
    }
    /* a block's last op must be a terminator when the owner is known to need one */
    if (needs_term && owner && owner->info) {
      Op *last = b->last;
      bool unknown_last = last && !last->info;
      if (!last || (!unknown_last && !(last->info->flags & OPF_TERMINATOR))) {
        if (last)
          ir_op_error(v->ctx, last, "block with no terminator, has '%.*s'", (int)last->name.len,
                      last->name.s);
        else
          ir_op_error(v->ctx, owner, "empty block: expect at least a terminator");
        v->errors++;
      }
    }
  }
}

unsigned ir_verify(IrCtx *ctx, Op *top) {
  Verifier v = {ctx, 0};
  top->order = 0;
  verify_op(&v, top, true);
  return v.errors;
}
