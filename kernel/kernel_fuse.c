/* kernel_fuse.c - fused streams: a block's two loads, f32 op and store in one pass over memory.
 *
 * A vector add's body, `%x = memref.load %a[%i]; %y = memref.load %b[%i]; %s = arith.addf %x, %y;
 * memref.store %s, %c[%i]` (or its llvm form: llvm.load through a getelementptr, llvm.fadd,
 * llvm.store), run one op at a time moves each element from memory to a column, to another column
 * and back: most of a small block's time. Where a block holds two loads of f32, an f32 add, sub or
 * mul of what they loaded and a store of its result, one after the other, all in global memory
 * by their types or all in another space (fused_shared: a tree reduction's step in shared
 * memory), and the loaded values and the result have no other use, the four run as one pass
 * (x_fused, in the first one's place, returns EX_SKIP3: the loop that runs the block passes over
 * the others, x_fused_rest, which do nothing after a fused first where they run). That needs each
 * access to take its op's own fast path for a contiguous row of the active threads
 * (kernel_mem_row: a uniform descriptor, consecutive indices in bounds, global memory;
 * kernel_llvm_row: an affine shape of consecutive elements inside one memref the launch passed),
 * the store's row apart from the loads' or at the same elements (then each element is read
 * before it is written, as the four would), and the frame's credit to cover the whole block (a
 * bound may stop a block between the four: `--max-steps`). The accesses are recorded as the ops
 * record them, in their order (the store after its bytes are written, as a store's benign-race
 * snapshot reads them), and the values' columns, which nothing reads, are not written. Anything
 * else runs the four as compiled, which reports what is wrong (tests/lit/interp/gpu-fused-streams.mlir).
 *
 * The PTX front end fuses its own form of the same four (kernel/ptx_mem.c, ptx_fuse_streams). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <string.h>

typedef struct KFuse {
  KIns ins[4];   /* the loads, the op and the store as compiled */
  uint32_t flag; /* a uniform word: 1 when the first ran all four for the block */
  int op;        /* '+', '-', '*' */
  bool swap;     /* the op's first operand is the second load's */
  bool llvm;     /* llvm.load and llvm.store (kernel_llvm.c), else memref.load and memref.store */
  bool shared;   /* memref.load and memref.store in a memory space other than global (workgroup) */
} KFuse;

typedef float FV8 __attribute__((vector_size(32)));

/* c[i] = x[i] op y[i], f32, for i < n; c is x, y or apart from both, so each group of eight is
 * read before it is written */
static inline __attribute__((always_inline)) void fuse_loop(char *c, const char *x, const char *y, uint32_t n,
                                                            int op) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    FV8 a, b, r;
    memcpy(&a, x + (size_t)i * 4, 32);
    memcpy(&b, y + (size_t)i * 4, 32);
    r = op == '+' ? a + b : op == '-' ? a - b : a * b;
    memcpy(c + (size_t)i * 4, &r, 32);
  }
  for (; i < n; i++) {
    float a, b, r;
    memcpy(&a, x + (size_t)i * 4, 4);
    memcpy(&b, y + (size_t)i * 4, 4);
    r = op == '+' ? a + b : op == '-' ? a - b : a * b;
    memcpy(c + (size_t)i * 4, &r, 4);
  }
}

KLANEFN static void fuse_f32(char *c, const char *x, const char *y, uint32_t n, int op) {
  if (op == '+')
    fuse_loop(c, x, y, n, '+');
  else if (op == '-')
    fuse_loop(c, x, y, n, '-');
  else
    fuse_loop(c, x, y, n, '*');
}

/* The row op i of the four takes, as its own fast path would find it */
static inline bool fuse_row(KFrame *f, const KFuse *fu, uint32_t i, KRow *r) {
  return fu->llvm ? kernel_llvm_row(f, &fu->ins[i], i == 3, r) : kernel_mem_row(f, &fu->ins[i], i == 3, r);
}

static inline void fuse_note(KFrame *f, const KFuse *fu, uint32_t i, const KRow *r) {
  if (fu->llvm)
    kernel_note_rows(f, &fu->ins[i], r->memo, (uintptr_t)r->p, r->len, r->stride, 1, i == 3);
  else
    kernel_mem_row_note(f, &fu->ins[i], r, i == 3);
}

/* The store's row s against a load's l: apart, or the same */
static inline bool fuse_apart(const KRow *s, const KRow *l) {
  return s->p + s->len <= l->p || l->p + l->len <= s->p || s->p == l->p;
}

/* The four in shared memory: each access kernel_mem_shared_row's row, the store's apart from the
 * loads' or at the same elements, and the three listed at once as the race check's runs
 * (kernel_shared_runs: as the three would list them one by one, else nothing is recorded). */
static bool fused_shared(KFrame *f, const KFuse *fu) {
  KRow a, b, d;
  if (f->credit <= 0 || !kernel_mem_shared_row(f, &fu->ins[0], false, &a) ||
      !kernel_mem_shared_row(f, &fu->ins[1], false, &b) || !kernel_mem_shared_row(f, &fu->ins[3], true, &d) ||
      !fuse_apart(&d, &a) || !fuse_apart(&d, &b))
    return false;
  KShAccess acc[3] = {{&fu->ins[0], a.p, a.memo, false}, {&fu->ins[1], b.p, b.memo, false},
                      {&fu->ins[3], d.p, d.memo, true}};
  if (!kernel_shared_runs(f, acc, 3, f->act[0], f->nact, 4))
    return false;
  fuse_f32(d.p, fu->swap ? b.p : a.p, fu->swap ? a.p : b.p, f->nact, fu->op);
  return true;
}

static int x_fused(KFrame *f, const KIns *k) {
  const KFuse *fu = k->aux;
  uint64_t *flag = &f->u[fu->flag].u;
  KRow a, b, d;
  if (fu->shared) {
    *flag = fused_shared(f, fu);
    return *flag ? EX_SKIP3 : fu->ins[0].fn(f, &fu->ins[0]);
  }
  if (f->credit <= 0 || !fuse_row(f, fu, 0, &a) || !fuse_row(f, fu, 1, &b) || !fuse_row(f, fu, 3, &d) ||
      !fuse_apart(&d, &a) || !fuse_apart(&d, &b)) {
    *flag = 0;
    return fu->ins[0].fn(f, &fu->ins[0]);
  }
  *flag = 1;
  fuse_note(f, fu, 0, &a);
  fuse_note(f, fu, 1, &b);
  kernel_prefetch_next(f, a.p, a.len);
  kernel_prefetch_next(f, b.p, b.len);
  kernel_prefetch_next(f, d.p, d.len);
  fuse_f32(d.p, fu->swap ? b.p : a.p, fu->swap ? a.p : b.p, f->nact, fu->op);
  fuse_note(f, fu, 3, &d);
  return EX_SKIP3;
}

static int x_fused_rest(KFrame *f, const KIns *k) {
  const KFuse *fu = k->aux;
  if (f->u[fu->flag].u)
    return EX_NEXT;
  return fu->ins[k->a].fn(f, &fu->ins[k->a]);
}

/* Whether a load's (store's) memref or pointer operand, at i, is in global memory by its type. */
static bool global_operand(const Op *op, uint32_t i) {
  const Type *t = i < op->noperands ? op->operands[i]->type : NULL;
  if (t && t->kind == TY_MEMREF)
    return !t->u.sh.memspace;
  return t && t->kind == TY_LLVM_PTR && (t->u.ptr.addrspace == 0 || t->u.ptr.addrspace == 1);
}

/* Whether a memref.load's (memref.store's) memref operand, at i, has a memory space other than
 * global: the four in such memory fuse as a tree reduction's step (fused_shared), which takes them
 * only in the block's shared memory. */
static bool spaced_operand(const Op *op, uint32_t i) {
  const Type *t = i < op->noperands ? op->operands[i]->type : NULL;
  return t && t->kind == TY_MEMREF && t->u.sh.memspace;
}

static bool one_use(const Value *v, const Op *user) {
  return v->uses && !v->uses->next && v->uses->user == user;
}

void kernel_fuse_block(KComp *kc, KBlock *b) {
  for (uint32_t i = 0; i + 3 < b->n; i++) {
    KIns *k = &b->ins[i];
    int op = kernel_f32_binop(&k[2]);
    bool mem = kernel_is_load(&k[0]) && kernel_is_load(&k[1]) && kernel_is_store(&k[3]);
    bool llvm = kernel_llvm_is_load(&k[0]) && kernel_llvm_is_load(&k[1]) && kernel_llvm_is_store(&k[3]);
    if (!op || (!mem && !llvm))
      continue;
    Op *la = k[0].op, *lb = k[1].op, *ar = k[2].op, *st = k[3].op;
    if (la->nresults != 1 || lb->nresults != 1 || ar->nresults != 1 || ar->noperands != 2 || st->noperands < 2)
      continue;
    bool shared = mem && spaced_operand(la, 0) && spaced_operand(lb, 0) && spaced_operand(st, 1);
    if (!shared && (!global_operand(la, 0) || !global_operand(lb, 0) || !global_operand(st, 1)))
      continue;
    Value *x = &la->results[0], *y = &lb->results[0], *s = &ar->results[0];
    bool straight = ar->operands[0] == x && ar->operands[1] == y, swap = ar->operands[0] == y && ar->operands[1] == x;
    if ((!straight && !swap) || !one_use(x, ar) || !one_use(y, ar) || !one_use(s, st) || st->operands[0] != s ||
        !k[2].vin[0] || !k[2].vin[1] || !k[2].vout[0])
      continue;
    KFuse *fu = ir_alloc(kc->in->ctx, sizeof *fu);
    memcpy(fu->ins, k, sizeof fu->ins);
    fu->flag = kernel_new_uniform(kc, 1);
    fu->op = op;
    fu->swap = swap;
    fu->llvm = llvm;
    fu->shared = shared;
    k[0].fn = x_fused;
    k[0].aux = fu;
    for (uint32_t j = 1; j < 4; j++) {
      k[j].fn = x_fused_rest;
      k[j].aux = fu;
      k[j].a = j;
    }
    i += 3;
  }
}
