/* verify.c - structural verification, as far as the front end can judge without op semantics:
 *
 *   - operand and result counts of known ops (ops.def);
 *   - every block of a region that needs terminators ends with a terminator, and terminators
 *     appear only last;
 *   - every use is dominated by its definition: same block and earlier, or an enclosing block
 *     earlier, or a block that dominates the user's block (dominators by the iterative
 *     Cooper-Harvey-Kennedy method over reverse post-order). Graph regions (modules) are exempt;
 *   - a value defined above an isolated-from-above op is not used inside it.
 * Each problem is reported on the op at fault; verification goes on to report them all, except
 * inside an op that failed its own checks, which is not looked into (as in MLIR). The gpu ops'
 * checks are in verify_gpu.c. */
#include "ir/internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Symbols by (symbol table region, interned name), so that checking N references against a
 * table of M symbols costs N + M rather than N * M. A region's first block is indexed whole on
 * its first lookup (where ir_symbol_lookup looks); the IR does not change while it is verified. */
typedef struct SymEntry {
  const Region *table;
  const char *name; /* interned: pointer equality */
  Op *op;           /* NULL in the entry that marks `table` as indexed */
} SymEntry;

typedef struct Verifier {
  IrCtx *ctx;
  unsigned errors;
  SymEntry *syms; /* open addressing, cap a power of two */
  size_t nsyms, cap;
  struct Doms *doms; /* dominator trees by region (doms_of), open addressing */
  size_t ndoms, domcap;
} Verifier;

static void verify_region(Verifier *v, Region *r, bool graph);

#define where ir_op_loc

/* An error in mlir-opt's words, at op, without the "'name' op" prefix. */
#define fail(v, op, ...) (ir_op_diag((v)->ctx, DIAG_ERROR, (op), __VA_ARGS__), (v)->errors++)

/* The same with the "'name' op" prefix, as MLIR's emitOpError writes it. */
#define op_fail(v, op, ...) (ir_op_error((v)->ctx, (op), __VA_ARGS__), (v)->errors++)

static const char *ty(Verifier *v, const Type *t) { return ir_type_str(v->ctx, t); }

static Op *enclosing(const Op *op, const char *name) {
  for (Op *o = ir_op_parent_op(op); o; o = ir_op_parent_op(o))
    if (ir_str_eq(o->name, name))
      return o;
  return NULL;
}

static Type *func_type_of(const Op *fn) {
  Attr *ft = ir_op_attr(fn, "function_type");
  return ft && ft->kind == ATTR_TYPE && ft->type->kind == TY_FUNC ? ft->type : NULL;
}

static SymEntry *sym_slot(Verifier *v, const Region *table, const char *name) {
  size_t h = ((uintptr_t)table * 0x9E3779B97F4A7C15u) ^ ((uintptr_t)name * 0xC2B2AE3D27D4EB4Fu);
  for (size_t i = (h >> 7) & (v->cap - 1);; i = (i + 1) & (v->cap - 1))
    if (!v->syms[i].table || (v->syms[i].table == table && v->syms[i].name == name))
      return &v->syms[i];
}

static void sym_put(Verifier *v, const Region *table, const char *name, Op *op) {
  if (2 * (v->nsyms + 1) > v->cap) {
    SymEntry *old = v->syms;
    size_t oldcap = v->cap;
    v->cap = oldcap ? 2 * oldcap : 64;
    v->syms = calloc(v->cap, sizeof *v->syms);
    if (!v->syms)
      abort();
    for (size_t i = 0; i < oldcap; i++)
      if (old[i].table)
        *sym_slot(v, old[i].table, old[i].name) = old[i];
    free(old);
  }
  SymEntry *e = sym_slot(v, table, name);
  if (e->table)
    return; /* the first definition wins, as in ir_symbol_lookup */
  *e = (SymEntry){table, name, op};
  v->nsyms++;
}

/* The first op in r's first block with sym_name == name, or NULL. */
static Op *lookup_in(Verifier *v, const Region *table, Str name) {
  if (!table->first)
    return NULL;
  if (!v->cap || !sym_slot(v, table, NULL)->table) {
    sym_put(v, table, NULL, NULL);
    for (Op *o = table->first->first; o; o = o->next) {
      Attr *s = ir_op_attr(o, "sym_name");
      if (s && s->kind == ATTR_STRING)
        sym_put(v, table, s->u.str.s, o);
    }
  }
  SymEntry *e = sym_slot(v, table, name.s);
  return e->table ? e->op : NULL;
}

/* ir_symbol_lookup through the verifier's index. */
static Op *lookup(Verifier *v, const Op *table, Str name) {
  return table && table->nregions ? lookup_in(v, &table->regions[0], name) : NULL;
}

/* Finds a symbol by a (possibly nested) reference, from the closest symbol table above op. */
static Op *lookup_symref(Verifier *v, const Op *op, const Attr *ref) {
  if (!ref || ref->kind != ATTR_SYMREF)
    return NULL;
  for (Op *table = ir_op_parent_op(op); table; table = ir_op_parent_op(table)) {
    if (!table->info || !(table->info->flags & OPF_SYMBOL_TABLE))
      continue;
    Op *s = lookup(v, table, ref->u.sym.path[0]);
    for (uint32_t i = 1; s && i < ref->u.sym.n; i++)
      s = lookup(v, s, ref->u.sym.path[i]);
    return s;
  }
  return NULL;
}

/* Checks that need an op's meaning: signatures of returns and calls, branch operand counts,
 * region results, kernel references. */
/* memref.expand_shape and collapse_shape: the reassociation groups of the expanded shape must
 * match the collapsed one dimension by dimension, as MLIR's verifyCollapsedShape checks (several
 * dynamic dimensions in a group are allowed, as for memref). */
static void check_reshape(Verifier *v, Op *op, const Type *collapsed, const Type *expanded) {
  Attr *ra = ir_op_attr(op, "reassociation");
  if (collapsed->kind != TY_MEMREF || expanded->kind != TY_MEMREF || collapsed->u.sh.unranked ||
      expanded->u.sh.unranked || !ra || ra->kind != ATTR_ARRAY)
    return;
  const int64_t *cs = collapsed->u.sh.shape, *es = expanded->u.sh.shape;
  uint32_t crank = collapsed->u.sh.rank, erank = expanded->u.sh.rank;
  if (ra->u.arr.n != crank) {
    op_fail(v, op, "invalid number of reassociation groups: found %u, expected %u", ra->u.arr.n, crank);
    return;
  }
  int64_t next = 0;
  for (uint32_t g = 0; g < ra->u.arr.n; g++) {
    const Attr *group = ra->u.arr.elems[g];
    if (group->kind != ATTR_ARRAY)
      return;
    bool dynamic = false;
    int64_t size = 1;
    for (uint32_t k = 0; k < group->u.arr.n; k++) {
      const Attr *d = group->u.arr.elems[k];
      if (d->kind != ATTR_INT || d->u.i.big)
        return;
      if (d->u.i.v != next++) {
        op_fail(v, op, "reassociation indices must be contiguous");
        return;
      }
      if (d->u.i.v >= (int64_t)erank) {
        op_fail(v, op, "reassociation index %lld is out of bounds", (long long)d->u.i.v);
        return;
      }
      if (es[d->u.i.v] == IR_DYNAMIC)
        dynamic = true;
      else
        size *= es[d->u.i.v];
    }
    if ((cs[g] == IR_DYNAMIC) != dynamic) {
      op_fail(v, op, "collapsed dim (%u) must be dynamic if and only if reassociation group is dynamic", g);
      return;
    }
    if (!dynamic && size != cs[g]) {
      op_fail(v, op, "collapsed dim size (%lld) must equal reassociation group size (%lld)", (long long)cs[g],
              (long long)size);
      return;
    }
  }
  if (!crank) {
    for (uint32_t i = 0; i < erank; i++)
      if (es[i] != 1) {
        op_fail(v, op, "rank 0 memrefs can only be extended/collapsed with/from ones");
        return;
      }
  } else if (next != (int64_t)erank) {
    op_fail(v, op, "expanded rank (%u) inconsistent with number of reassociation indices (%lld)", erank,
            (long long)next);
  }
}

/* MLIR's SymbolOpInterface verifier: a public declaration is refused, and a symbol lives in a
 * symbol table (a module without a name is no symbol). */
static bool check_symbol(Verifier *v, Op *op) {
  if (!(op->info->flags & OPF_SYMBOL) || !ir_op_attr(op, "sym_name"))
    return true;
  Attr *vis = ir_op_attr(op, "sym_visibility");
  bool decl = op->nregions && !op->regions[0].first;
  if (decl && !strcmp(op->info->name, "func.func") &&
      (!vis || (vis->kind == ATTR_STRING && ir_str_eq(vis->u.str, "public")))) {
    op_fail(v, op, "symbol declaration cannot have public visibility");
    return false;
  }
  Op *parent = ir_op_parent_op(op);
  if (parent && parent->info && !(parent->info->flags & OPF_SYMBOL_TABLE)) {
    op_fail(v, op, "symbol's parent must have the SymbolTable trait");
    return false;
  }
  return true;
}

static void check_known(Verifier *v, Op *op) {
  const char *n = op->info->name;
  if (!check_symbol(v, op))
    return;
  v->errors += ir_verify_ops(v->ctx, op);
  if (!strncmp(n, "gpu.", 4) || !strcmp(n, "builtin.module")) {
    v->errors += ir_verify_gpu_op(v->ctx, op);
    return;
  }
  if (!strcmp(n, "func.return")) {
    Op *fn = enclosing(op, "func.func");
    Type *ft = fn ? func_type_of(fn) : NULL;
    if (!ft || ir_op_parent_op(op) != fn)
      return;
    Attr *name = ir_op_attr(fn, "sym_name");
    int nl = name && name->kind == ATTR_STRING ? (int)name->u.str.len : 0;
    const char *ns = nl ? name->u.str.s : "";
    if (op->noperands != ft->u.fn.nout) {
      op_fail(v, op, "has %u operands, but enclosing function (@%.*s) returns %u", op->noperands, nl, ns,
              ft->u.fn.nout);
      return;
    }
    for (uint32_t i = 0; i < op->noperands; i++)
      if (op->operands[i]->type != ft->u.fn.out[i])
        fail(v, op, "type of return operand %u ('%s') doesn't match function result type ('%s') in function @%.*s",
             i, ty(v, op->operands[i]->type), ty(v, ft->u.fn.out[i]), nl, ns);
  } else if (!strcmp(n, "func.call")) {
    Attr *callee = ir_op_attr(op, "callee");
    Op *fn = lookup_symref(v, op, callee);
    Type *ft = fn ? func_type_of(fn) : NULL;
    if (!fn || !ft || !ir_str_eq(fn->name, "func.func")) {
      if (callee && callee->kind == ATTR_SYMREF)
        op_fail(v, op, "'%.*s' does not reference a valid function", (int)callee->u.sym.path[0].len,
                callee->u.sym.path[0].s);
      return;
    }
    if (ft->u.fn.nin != op->noperands) {
      op_fail(v, op, "incorrect number of operands for callee");
      return;
    }
    for (uint32_t i = 0; i < op->noperands; i++)
      if (op->operands[i]->type != ft->u.fn.in[i]) {
        op_fail(v, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %u",
                ty(v, ft->u.fn.in[i]), ty(v, op->operands[i]->type), i);
        return;
      }
    if (ft->u.fn.nout != op->nresults) {
      op_fail(v, op, "incorrect number of results for callee");
      return;
    }
    for (uint32_t i = 0; i < op->nresults; i++)
      if (op->results[i].type != ft->u.fn.out[i]) {
        op_fail(v, op, "result type mismatch at index %u", i);
        return;
      }
  } else if (!strcmp(n, "cf.br") || !strcmp(n, "cf.cond_br")) {
    uint32_t first = 0, counts[2] = {op->noperands, 0};
    if (n[3] == 'c') {
      Attr *seg = ir_op_attr(op, "operandSegmentSizes");
      if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 3 || !seg->u.darr.ivals)
        return;
      first = 1;
      counts[0] = (uint32_t)seg->u.darr.ivals[1];
      counts[1] = (uint32_t)seg->u.darr.ivals[2];
    }
    for (uint32_t s = 0; s < op->nsuccs && s < 2; s++) {
      Block *b = op->succs[s];
      if (counts[s] != b->nargs) {
        fail(v, op, "branch has %u operands for successor #%u, but target block has %u", counts[s], s,
             b->nargs);
        continue;
      }
      for (uint32_t i = 0; i < counts[s]; i++) {
        Value *a = op->operands[first + i];
        if (a->type != b->args[i].type)
          fail(v, op, "type mismatch for bb argument #%u of successor #%u", i, s);
      }
      first += counts[s];
    }
  } else if (!strcmp(n, "scf.if")) {
    for (uint32_t r = 0; r < op->nregions; r++) {
      Block *b = op->regions[r].first;
      Op *t = b ? b->last : NULL;
      if (!t || !ir_str_eq(t->name, "scf.yield") || t->noperands == op->nresults)
        continue;
      op_fail(v, op, "along control flow edge from Operation scf.yield to parent: region branch point has %u operands, but region successor needs %u inputs",
              t->noperands, op->nresults);
    }
  } else if (!strcmp(n, "memref.expand_shape") || !strcmp(n, "memref.collapse_shape")) {
    if (op->noperands < 1 || op->nresults != 1)
      return;
    const Type *src = op->operands[0]->type, *res = op->results[0].type;
    bool expand = n[7] == 'e';
    if (src->kind == TY_MEMREF && res->kind == TY_MEMREF && !src->u.sh.unranked && !res->u.sh.unranked &&
        (expand ? src->u.sh.rank > res->u.sh.rank : src->u.sh.rank < res->u.sh.rank)) {
      op_fail(v, op, "has source rank %u and result rank %u. This is not %s (%u %c %u).", src->u.sh.rank,
              res->u.sh.rank, expand ? "an expansion" : "a collapse", src->u.sh.rank, expand ? '>' : '<',
              res->u.sh.rank);
      return;
    }
    uint32_t before = v->errors;
    if (expand)
      check_reshape(v, op, src, res);
    else
      check_reshape(v, op, res, src);
    /* expand_shape's output_shape: a bound per result dimension, equal to its static size, and
     * an operand per `?` */
    const Attr *shape = expand ? ir_op_attr(op, "static_output_shape") : NULL;
    if (v->errors == before && ir_attr_is_dense_i64(shape) && res->kind == TY_MEMREF && !res->u.sh.unranked) {
      if (shape->u.darr.n != res->u.sh.rank) {
        op_fail(v, op, "expected number of static shape bounds to be equal to the output rank (%u) but found %u inputs instead",
                res->u.sh.rank, shape->u.darr.n);
        return;
      }
      uint32_t dyn = 0;
      for (uint32_t i = 0; i < shape->u.darr.n; i++)
        dyn += shape->u.darr.ivals[i] == IR_DYNAMIC;
      if (dyn != op->noperands - 1) {
        op_fail(v, op, "mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has %u dynamic dims while output_shape has %u values",
                dyn, op->noperands - 1);
        return;
      }
      for (uint32_t i = 0; i < res->u.sh.rank; i++)
        if (res->u.sh.shape[i] != IR_DYNAMIC && res->u.sh.shape[i] != shape->u.darr.ivals[i]) {
          op_fail(v, op, "invalid output shape provided at pos %u", i);
          return;
        }
    }
  }
}

/* Symbols in one table must be unique. */
static void check_symbols(Verifier *v, Region *r) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      Attr *s = ir_op_attr(o, "sym_name");
      if (!s || s->kind != ATTR_STRING)
        continue;
      Op *q = lookup_in(v, r, (Str){s->u.str.s, s->u.str.len}); /* the first definition */
      if (q && q != o) {
        fail(v, o, "redefinition of symbol named '%.*s'", (int)s->u.str.len, s->u.str.s);
        ir_diag(v->ctx, DIAG_NOTE, where(q), "see existing symbol definition here");
      }
    }
}

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

/* Dominator tree of a region's blocks, computed once per region (the first use that needs it):
 * idom[i] is block i's immediate dominator (-1: unreachable), and tin/tout number the tree in
 * depth-first order, so that a dominates b iff tin[a] <= tin[b] and tout[b] <= tout[a]. Blocks are
 * found by a hash of their address, predecessors are listed once, and every walk is iterative, so
 * a region of N blocks costs O(N + edges) to set up (times the Cooper-Harvey-Kennedy passes, two
 * for reducible graphs) and O(1) per query, with no recursion a long chain of blocks could
 * overflow. */
typedef struct Doms {
  const Region *r;
  Block **blocks;
  uint32_t n, cap;   /* cap: slots of the block hash, a power of two */
  int *slot;         /* block index + 1 per hash slot, 0 empty */
  int *idom, *rpo_num, *tin, *tout;
} Doms;

static size_t block_hash(const Block *b) { return (size_t)(((uintptr_t)b * 0x9E3779B97F4A7C15u) >> 17); }

static int block_index(const Doms *d, const Block *b) {
  for (size_t h = block_hash(b) & (d->cap - 1);; h = (h + 1) & (d->cap - 1)) {
    int i = d->slot[h] - 1;
    if (i < 0 || d->blocks[i] == b)
      return i;
  }
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    abort();
  return p;
}

static void compute_doms(Doms *d, Region *r) {
  uint32_t n = 0;
  for (Block *b = r->first; b; b = b->next)
    n++;
  d->r = r;
  d->n = n;
  for (d->cap = 16; d->cap < 2 * (size_t)n; d->cap *= 2) {
  }
  d->blocks = xmalloc(n * sizeof *d->blocks);
  d->slot = calloc(d->cap, sizeof *d->slot);
  d->idom = xmalloc(n * sizeof *d->idom);
  d->rpo_num = xmalloc(n * sizeof *d->rpo_num);
  d->tin = xmalloc(n * sizeof *d->tin);
  d->tout = xmalloc(n * sizeof *d->tout);
  int *post = xmalloc(n * sizeof *post), *stack = xmalloc(n * sizeof *stack);
  uint32_t *next = calloc(n ? n : 1, sizeof *next), *npred = calloc(n + 1, sizeof *npred);
  if (!d->slot || !next || !npred)
    abort();
  n = 0;
  for (Block *b = r->first; b; b = b->next) {
    size_t h = block_hash(b) & (d->cap - 1);
    while (d->slot[h])
      h = (h + 1) & (d->cap - 1);
    d->slot[h] = (int)n + 1;
    d->blocks[n++] = b;
  }
  /* predecessors, as lists in one array: preds[npred[j] .. npred[j + 1]) */
  for (uint32_t i = 0; i < n; i++) {
    Op *t = d->blocks[i]->last;
    for (uint32_t s = 0; t && s < t->nsuccs; s++) {
      int j = block_index(d, t->succs[s]);
      if (j >= 0)
        npred[j + 1]++;
    }
  }
  for (uint32_t j = 0; j < n; j++)
    npred[j + 1] += npred[j];
  int *preds = xmalloc(npred[n] * sizeof *preds);
  uint32_t *fill = xmalloc(n * sizeof *fill);
  memcpy(fill, npred, n * sizeof *fill);
  for (uint32_t i = 0; i < n; i++) {
    Op *t = d->blocks[i]->last;
    for (uint32_t s = 0; t && s < t->nsuccs; s++) {
      int j = block_index(d, t->succs[s]);
      if (j >= 0)
        preds[fill[j]++] = (int)i;
    }
  }
  /* post-order of the blocks reachable from the entry, by an explicit stack */
  for (uint32_t i = 0; i < n; i++) {
    d->idom[i] = -1;
    d->rpo_num[i] = -1;
  }
  int k = 0, sp = 0;
  if (n) {
    stack[sp++] = 0;
    d->rpo_num[0] = -2; /* on the stack */
  }
  while (sp) {
    int i = stack[sp - 1];
    Op *t = d->blocks[i]->last;
    if (t && next[i] < t->nsuccs) {
      int j = block_index(d, t->succs[next[i]++]);
      if (j >= 0 && d->rpo_num[j] == -1) {
        d->rpo_num[j] = -2;
        stack[sp++] = j;
      }
      continue;
    }
    post[k++] = i;
    sp--;
  }
  for (int i = 0; i < k; i++)
    d->rpo_num[post[i]] = i; /* higher = earlier in reverse post-order */
  if (n)
    d->idom[0] = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (int oi = k - 2; oi >= 0; oi--) {
      int b = post[oi];
      int new_idom = -1;
      for (uint32_t q = npred[b]; q < npred[b + 1]; q++) {
        int p = preds[q];
        if (d->idom[p] < 0)
          continue;
        if (new_idom < 0) {
          new_idom = p;
          continue;
        }
        int a = p, c = new_idom;
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
  /* number the tree: children as lists (reusing the predecessor arrays), then a depth-first walk */
  memset(npred, 0, (n + 1) * sizeof *npred);
  for (uint32_t i = 1; i < n; i++)
    if (d->idom[i] >= 0)
      npred[d->idom[i] + 1]++;
  for (uint32_t j = 0; j < n; j++)
    npred[j + 1] += npred[j];
  int *kids = xmalloc((npred[n] ? npred[n] : 1) * sizeof *kids);
  memcpy(fill, npred, n * sizeof *fill);
  for (uint32_t i = 1; i < n; i++)
    if (d->idom[i] >= 0)
      kids[fill[d->idom[i]]++] = (int)i;
  for (uint32_t i = 0; i < n; i++) {
    d->tin[i] = d->tout[i] = -1;
    next[i] = npred[i];
  }
  int clock = 0;
  sp = 0;
  if (n) {
    stack[sp++] = 0;
    d->tin[0] = clock++;
  }
  while (sp) {
    int i = stack[sp - 1];
    if (next[i] < npred[i + 1]) {
      int j = kids[next[i]++];
      d->tin[j] = clock++;
      stack[sp++] = j;
      continue;
    }
    d->tout[i] = clock++;
    sp--;
  }
  free(kids);
  free(preds);
  free(fill);
  free(next);
  free(npred);
  free(post);
  free(stack);
}

static void free_doms(Doms *d) {
  free(d->blocks);
  free(d->slot);
  free(d->idom);
  free(d->rpo_num);
  free(d->tin);
  free(d->tout);
}

static bool dominates_block(const Doms *d, const Block *a, const Block *b) {
  int ia = block_index(d, a), ib = block_index(d, b);
  if (ia < 0 || ib < 0)
    return false;
  if (d->idom[ib] < 0)
    return true; /* unreachable blocks are dominated by everything, as in MLIR */
  return d->tin[ia] <= d->tin[ib] && d->tout[ib] <= d->tout[ia];
}

/* The dominator tree of region r, computed on first need and kept while the IR is verified. */
static const Doms *doms_of(Verifier *v, Region *r) {
  for (size_t h = ((uintptr_t)r * 0x9E3779B97F4A7C15u >> 17) & (v->domcap - 1); v->domcap; h = (h + 1) & (v->domcap - 1)) {
    if (!v->doms[h].r)
      break;
    if (v->doms[h].r == r)
      return &v->doms[h];
  }
  if (2 * (v->ndoms + 1) > v->domcap) {
    Doms *old = v->doms;
    size_t oldcap = v->domcap;
    v->domcap = oldcap ? 2 * oldcap : 16;
    v->doms = calloc(v->domcap, sizeof *v->doms);
    if (!v->doms)
      abort();
    for (size_t i = 0; i < oldcap; i++)
      if (old[i].r) {
        size_t h = ((uintptr_t)old[i].r * 0x9E3779B97F4A7C15u >> 17) & (v->domcap - 1);
        while (v->doms[h].r)
          h = (h + 1) & (v->domcap - 1);
        v->doms[h] = old[i];
      }
    free(old);
  }
  size_t h = ((uintptr_t)r * 0x9E3779B97F4A7C15u >> 17) & (v->domcap - 1);
  while (v->doms[h].r)
    h = (h + 1) & (v->domcap - 1);
  compute_doms(&v->doms[h], r);
  v->ndoms++;
  return &v->doms[h];
}

/* Is the definition of value visible and dominating at user? */
static bool properly_dominated(Verifier *v, Value *val, Op *user) {
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
  return dominates_block(doms_of(v, r), db, u->parent);
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

/* MLIR's AttrSizedOperandSegments: the groups' sizes, none negative, add up to the operands
 * (every group empty where the attribute is absent). One of another kind is the parser's; the
 * gpu launches, which also need a least number of operands, are verify_gpu.c's. */
static bool check_segments(Verifier *v, Op *op) {
  if (!op->info || !(op->info->flags & OPF_ATTR_SIZED))
    return true;
  Attr *s = ir_op_attr(op, "operandSegmentSizes");
  int64_t total = 0;
  if (s && (s->kind != ATTR_DENSE_ARRAY || !s->u.darr.ivals || !ir_type_is_integer(s->type, 32)))
    return true;
  for (uint32_t i = 0; s && i < s->u.darr.n; i++) {
    if (s->u.darr.ivals[i] < 0) {
      op_fail(v, op, "'operandSegmentSizes' attribute cannot have negative elements");
      return false;
    }
    total += s->u.darr.ivals[i];
  }
  if (total != (int64_t)op->noperands) {
    op_fail(v, op, "operand count (%u) does not match with the total size (%lld) specified in attribute 'operandSegmentSizes'",
            op->noperands, (long long)total);
    return false;
  }
  return true;
}

static const char *const upstream_ops[] = {
#define UPSTREAM_OP(name) name,
#include "ir/upstream_ops.def"
#undef UPSTREAM_OP
};

static int str_cmp(Str a, const char *b) {
  size_t n = strlen(b);
  int c = memcmp(a.s, b, a.len < n ? a.len : n);
  return c ? c : a.len < n ? -1 : a.len > n;
}

static bool has_prefix(const char *s, Str prefix) { return !strncmp(s, prefix.s, prefix.len); }

/* Is name, an op the front end does not know, one that its dialect does not have? True for a
 * dialect upstream_ops.def lists (those that allow no unknown ops) that registers no op of that
 * name: the list is sorted, so the ops of a dialect lie side by side, and a name of a listed
 * dialect falls among them. */
static bool unregistered_in_dialect(Str name) {
  const char *dot = memchr(name.s, '.', name.len);
  if (!dot)
    return false;
  Str dialect = {name.s, (uint32_t)(dot - name.s + 1)}; /* with its dot */
  size_t n = sizeof upstream_ops / sizeof *upstream_ops, lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = str_cmp(name, upstream_ops[mid]);
    if (!c)
      return false;
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return (lo < n && has_prefix(upstream_ops[lo], dialect)) || (lo > 0 && has_prefix(upstream_ops[lo - 1], dialect));
}

static void verify_op(Verifier *v, Op *op, bool graph) {
  const OpInfo *info = op->info;
  if (!info && unregistered_in_dialect(op->name)) { /* MLIR's verifier says so first, and looks no further */
    const char *dot = memchr(op->name.s, '.', op->name.len);
    fail(v, op, "unregistered operation '%.*s' found in dialect ('%.*s') that does not allow unknown operations",
         (int)op->name.len, op->name.s, (int)(dot - op->name.s), op->name.s);
    return;
  }
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
    if (!val->def && !val->block) {
      op_fail(v, op, "operand #%u is not defined", i);
    } else if (isolated_above(val, op)) {
      op_fail(v, op, "using value defined outside the region");
    } else if (!graph && !properly_dominated(v, val, op)) {
      fail(v, op, "operand #%u does not dominate this use", i);
      if (val->def)
        ir_diag(v->ctx, DIAG_NOTE, where(val->def), "operand defined here");
    }
  }
  unsigned before = v->errors;
  if (info && check_segments(v, op))
    check_known(v, op);
  if (v->errors != before)
    return; /* as in MLIR, an op that fails is not looked into */
  for (uint32_t i = 0; i < op->nregions; i++) {
    bool g = info && (info->flags & OPF_GRAPH);
    verify_region(v, &op->regions[i], g);
  }
}

static void verify_region(Verifier *v, Region *r, bool graph) {
  Op *owner = r->parent;
  bool needs_term = !(owner && owner->info && (owner->info->flags & OPF_NO_TERMINATOR));
  if (owner && owner->info && (owner->info->flags & OPF_SYMBOL_TABLE))
    check_symbols(v, r);
  for (Block *b = r->first; b; b = b->next) {
    Op *t = b->last;
    for (uint32_t s = 0; t && s < t->nsuccs; s++)
      if (t->succs[s] == r->first) {
        fail(v, owner ? owner : t, "entry block of region may not have predecessors");
        break;
      }
  }
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
          fail(v, last, "block with no terminator, has '%.*s'", (int)last->name.len, last->name.s);
        else
          op_fail(v, owner, "empty block: expect at least a terminator");
      }
    }
  }
}

unsigned ir_verify(IrCtx *ctx, Op *top) {
  Verifier v = {ctx, 0, NULL, 0, 0, NULL, 0, 0};
  top->order = 0;
  verify_op(&v, top, true);
  free(v.syms);
  for (size_t i = 0; i < v.domcap; i++)
    if (v.doms[i].r)
      free_doms(&v.doms[i]);
  free(v.doms);
  return v.errors;
}
