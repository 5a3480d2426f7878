/* kernel_race.c - races between the blocks of one launch in global memory.
 *
 * Blocks of one launch are never ordered with each other (a barrier orders the threads of one
 * block only), so two accesses of the same bytes by different blocks race when one of them writes,
 * unless both are atomic (be_access_conflict, the simulator's rule). The backend compares launches
 * and the host with each other; this file compares the blocks of one launch.
 *
 * Records (KGRec: blocks b0 .. b0 + nb - 1, block b0 + i touching [lo + i * len, lo + (i + 1) *
 * len)). Each block logs the global byte ranges it touches (from the same runs and memos that
 * feed be_kernel_access, so the log costs one entry per run, not per access). At the block's end
 * the i-th range of its log continues the run's record from the i-th range of the block before it
 * when it starts where that one ends, has its length and its blocks follow: the same code ran,
 * and a streaming kernel's op is one record for all the blocks of a run. Nothing is sorted per
 * block. A block-wise frame (kernel.c: several one-row blocks side by side) logs as its memory ops
 * run, each of its blocks' part on its own (kernel_ops.c: its memos merge the blocks' ranges):
 * the frame's whole blocks among consecutive threads as one range of nb blocks, a partial block
 * as one of its own; its log then goes on as one block's would, frame after frame.
 *
 * Loads that take turns along rows (KMemoGroup: a k loop unrolled by mlir-opt's NVPTX back end)
 * log one record per row for all of them (KGRec.grp), which continues nothing and which nothing
 * continues; a race report finds the load whose element holds the byte (loc_at) and names it and
 * that element's bytes, as that load's own record would.
 *
 * Check. When every block ran, the writes and atomics are sorted by start and swept: each is
 * compared with the earlier ones that still overlap it. Each read is then looked up among them (a
 * binary search, and a running maximum of their ends). Two records that overlap where their
 * blocks differ and whose kinds conflict race. Reads are usually most records and are never
 * sorted; past KG_MAX records the launch is not checked.
 *
 * Grading: a small write (8 bytes or less) keeps the bytes it stored, read right after the op.
 * Two blocks that stored the same bytes there are a benign hazard, as in shared memory (a note, a
 * warning with --race-check=strict, reported once per launch); otherwise, or when either write is
 * larger, a write-write overlap is an error. Under --sched=threads another block may store between
 * the op and that read: a race of two different values can then read as benign. Under serial and
 * random schedules blocks of one launch run one after another; those of a block-wise frame run
 * each op in turn, and each block's part is read before another block of the frame stores there.
 * A plain read against another block's atomics is graded benign too when the reading block
 * updates the same bytes atomically itself: the first read of a compare-and-swap loop (upstream's
 * lowering of memref.generic_atomic_rmw), whose value the cmpxchg then checks.
 */
#include "kernel/internal.h"

#include <stdlib.h>
#include <string.h>

#define KG_MAX ((size_t)1 << 22)

/* Small writes of several blocks: each block's bytes kept apart (KGRec.snap). */
static __attribute__((noinline)) void glog_each(KFrame *f, uintptr_t lo, uintptr_t len, size_t b0, size_t nb,
                                                const char *loc) {
  for (size_t i = 0; i < nb; i++)
    kernel_glog_blocks(f, lo + i * len, len, b0 + i, 1, BE_ACC_WRITE, loc);
}

static void glog_add(KFrame *f, uintptr_t lo, uintptr_t len, size_t b0, size_t nb, uint32_t kind, const char *loc,
                     const KMemoGroup *grp, uint32_t phase);

void kernel_glog_blocks(KFrame *f, uintptr_t lo, uintptr_t len, size_t b0, size_t nb, uint32_t kind, const char *loc) {
  glog_add(f, lo, len, b0, nb, kind, loc, NULL, 0);
}

/* kernel_glog_blocks; grp: a group's reads (phase: the op of the element at lo), a record of
 * their own, which no other continues. */
static void glog_add(KFrame *f, uintptr_t lo, uintptr_t len, size_t b0, size_t nb, uint32_t kind, const char *loc,
                     const KMemoGroup *grp, uint32_t phase) {
  if (((char *)lo >= f->lo && (char *)lo < f->hi) || !len || !nb)
    return; /* shared or private memory: checked per block (kernel_ops.c) */
  if (kind == BE_ACC_WRITE && len <= sizeof f->glog->snap && nb > 1) {
    glog_each(f, lo, len, b0, nb, loc);
    return;
  }
  if (f->nglog && !grp) {
    KGRec *l = &f->glog[f->nglog - 1];
    if (l->kind == kind && l->loc == loc && !l->nsnap && !l->grp) {
      /* threads of the block repeating the last range (an atomic counter), or going on */
      if (nb == 1 && l->nb == 1 && l->b0 == b0 && lo >= l->lo && lo <= l->hi && kind != BE_ACC_WRITE) {
        if (lo + len > l->hi)
          l->hi = lo + len;
        l->len = l->hi - l->lo;
        return;
      }
      /* the blocks after the last range's, each going on where the one before ended (a block-wise frame) */
      if (l->hi == lo && l->len == len && l->b0 + l->nb == b0) {
        l->hi += nb * len;
        l->nb += nb;
        return;
      }
    }
  }
  if (f->nglog == f->capglog) {
    size_t cap = f->capglog ? 2 * f->capglog : 64;
    KGRec *g = realloc(f->glog, cap * sizeof *g);
    if (!g) {
      f->gon = false;
      f->grecs.over = true;
      return;
    }
    f->glog = g;
    f->capglog = cap;
  }
  KGRec *e = &f->glog[f->nglog++];
  *e = (KGRec){lo, lo + nb * len, len, b0, nb, loc, kind, 0, {0}, grp, phase};
  if (kind == BE_ACC_WRITE && len <= sizeof e->snap) { /* right after the op stored it */
    e->nsnap = (uint32_t)len;
    memcpy(e->snap, (const void *)lo, len);
  }
}

void kernel_glog_group(KFrame *f, uintptr_t lo, uintptr_t hi, const KMemoGroup *grp, uint32_t phase) {
  if (hi > lo)
    glog_add(f, lo, hi - lo, f->blin, 1, BE_ACC_READ, grp->locs[phase], grp, phase);
}

static bool push(KGList *l, const KGRec *r) {
  if (l->over)
    return false;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    KGRec *p = cap <= KG_MAX ? realloc(l->r, cap * sizeof *p) : NULL;
    if (!p) {
      l->over = true;
      return false;
    }
    l->r = p;
    l->cap = cap;
  }
  l->r[l->n++] = *r;
  return true;
}

void kernel_race_block_end(KFrame *f) {
  if (!f->gon)
    return;
  if (!f->wide)
    kernel_glog_memos(f);
  const KGRec *g = f->glog;
  for (size_t i = 0, n = f->nglog; i < n; i++) {
    KGRec *o = i < KG_OPEN ? &f->gopen[i] : NULL;
    /* the i-th range of a frame continues the i-th of the frame before it (the same code ran) */
    if (o && o->hi == g[i].lo && o->len == g[i].len && o->loc == g[i].loc && o->kind == g[i].kind && !o->nsnap &&
        !g[i].nsnap && !o->grp && !g[i].grp && o->b0 + o->nb == g[i].b0) {
      o->hi = g[i].hi;
      o->nb += g[i].nb;
      continue;
    }
    if (o) {
      if (o->hi && !push(&f->grecs, o))
        break;
      *o = g[i];
    } else if (!push(&f->grecs, &g[i])) {
      break;
    }
  }
  f->nglog = 0;
  if (f->grecs.over) {
    f->gon = false;
    free(f->glog);
    f->glog = NULL;
    f->capglog = 0;
  }
}

void kernel_race_run_end(KFrame *f, KGList *out) {
  for (size_t i = 0; i < KG_OPEN; i++)
    if (f->gopen[i].hi)
      push(&f->grecs, &f->gopen[i]);
  *out = f->grecs;
  if (out->over) {
    free(out->r);
    out->r = NULL;
    out->n = 0;
  }
  f->grecs = (KGList){0};
  memset(f->gopen, 0, sizeof f->gopen); /* the frame serves other runs and launches after this one */
  free(f->glog);
  f->glog = NULL;
  f->nglog = f->capglog = 0;
}

/* ---- the check ---------------------------------------------------------------------------------- */

static int rec_cmp(const void *x, const void *y) {
  const KGRec *a = x, *b = y;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->b0 != b->b0)
    return a->b0 < b->b0 ? -1 : 1;
  return a->kind < b->kind ? -1 : a->kind > b->kind;
}

static inline size_t block_at(const KGRec *r, uintptr_t p) { return r->b0 + (p - r->lo) / r->len; }

/* The first byte of the overlap of a and b where their blocks differ, with the end of that
 * stretch in *end; 0 when there is none. */
static uintptr_t differ(const KGRec *a, const KGRec *b, uintptr_t *end) {
  uintptr_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
  if (lo >= hi)
    return 0;
  uintptr_t d = a->lo > b->lo ? a->lo - b->lo : b->lo - a->lo;
  if (a->len == b->len && d % a->len == 0 && block_at(a, lo) == block_at(b, lo))
    return 0; /* the same blocks byte for byte */
  for (uintptr_t p = lo; p < hi;) {
    size_t ba = block_at(a, p), bb = block_at(b, p);
    uintptr_t ea = a->lo + (ba - a->b0 + 1) * a->len, eb = b->lo + (bb - b->b0 + 1) * b->len;
    uintptr_t e = ea < eb ? ea : eb;
    if (e > hi)
      e = hi;
    if (ba != bb) {
      *end = e;
      return p;
    }
    p = e;
  }
  return 0;
}

static const char *verb(uint32_t kind) {
  return kind == BE_ACC_ATOMIC ? "updates atomically" : kind == BE_ACC_WRITE ? "writes" : "reads";
}

/* The kernel's op at loc (interp_loc's form), for the diagnostic. */
static const Op *op_at(const Op *op, const char *loc) {
  char buf[512];
  kernel_site(op, buf, sizeof buf);
  if (!strcmp(buf, loc))
    return op;
  for (uint32_t i = 0; i < op->nregions; i++)
    for (const Block *b = op->regions[i].first; b; b = b->next)
      for (const Op *o = b->first; o; o = o->next) {
        const Op *hit = op_at(o, loc);
        if (hit)
          return hit;
      }
  return NULL;
}

static void block_ids(size_t b, const uint32_t grid[3], uint32_t id[3]) {
  id[0] = (uint32_t)(b % grid[0]);
  id[1] = (uint32_t)(b / grid[0] % grid[1]);
  id[2] = (uint32_t)(b / ((size_t)grid[0] * grid[1]));
}

/* The op of r that touched byte p (a group's: the one whose element holds it, *e cut to that
 * element's end, as its own record would have been). */
static const char *loc_at(const KGRec *r, uintptr_t p, uintptr_t *e) {
  if (!r->grp)
    return r->loc;
  uintptr_t lo = r->lo + (block_at(r, p) - r->b0) * r->len, i = (p - lo) / r->grp->esize;
  uintptr_t end = lo + (i + 1) * r->grp->esize;
  if (*e > end)
    *e = end;
  return r->grp->locs[(r->phase + i) % r->grp->n];
}

/* Reports that x (the later record) races with y at [p, e); benign: same-value writes (1), or a
 * compare-and-swap loop's plain read against atomics (2). */
static void report(KHost *in, const Op *kop, const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e,
                   const uint32_t grid[3], int benign) {
  uint32_t bx[3], by[3];
  block_ids(block_at(x, p), grid, bx);
  block_ids(block_at(y, p), grid, by);
  const char *xloc = loc_at(x, p, &e), *yloc = loc_at(y, p, &e);
  const Op *ox = op_at(kop, xloc), *oy = op_at(kop, yloc);
  if (!ox)
    ox = kop;
  char where[64];
  snprintf(where, sizeof where, "%zu bytes at %p", (size_t)(e - p), (void *)p);
  GpuState *gs = kernel_gpu(in);
  pthread_mutex_lock(&gs->mu);
  if (benign == 2)
    ir_diag(in->ctx, in->race_strict ? DIAG_WARNING : DIAG_NOTE, ir_op_loc(ox),
            "'%.*s' op benign race in global memory: block (%u, %u, %u) %s %s, which block (%u, %u, %u) %s at '%s', "
            "and the reading block updates it atomically too (a compare-and-swap loop's first read); blocks of one "
            "launch are not ordered; reported once per launch",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], verb(x->kind), where, by[0], by[1], by[2],
            verb(y->kind), yloc);
  else if (benign)
    ir_diag(in->ctx, in->race_strict ? DIAG_WARNING : DIAG_NOTE, ir_op_loc(ox),
            "'%.*s' op benign race in global memory: block (%u, %u, %u) writes %s with the value block (%u, %u, %u) "
            "wrote there at '%s'; blocks of one launch are not ordered; reported once per launch",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], where, by[0], by[1], by[2], yloc);
  else
    ir_diag(in->ctx, DIAG_ERROR, ir_op_loc(ox),
            "'%.*s' op data race in global memory: block (%u, %u, %u) %s%s %s, which block (%u, %u, %u) %s at '%s'; "
            "blocks of one launch are not ordered",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], verb(x->kind),
            x->kind == BE_ACC_WRITE && y->kind == BE_ACC_WRITE ? " a different value to" : "", where, by[0], by[1],
            by[2], verb(y->kind), yloc);
  if (!benign && oy)
    ir_diag(in->ctx, DIAG_NOTE, ir_op_loc(oy), "the other access");
  pthread_mutex_unlock(&gs->mu);
}

/* Do the bytes both small writes left in [p, e) agree? */
static bool same_bytes(const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e) {
  if (!x->nsnap || !y->nsnap)
    return false;
  return !memcmp(x->snap + (p - x->lo), y->snap + (p - y->lo), e - p);
}

/* The atomic records (indices into r, ascending start). */
typedef struct Atoms {
  const size_t *i;
  size_t n;
} Atoms;

/* Does block b update byte p atomically too? (A compare-and-swap loop reads plainly first.) */
static bool atomic_too(const KGRec *r, const Atoms *at, size_t b, uintptr_t p) {
  size_t lo = 0, hi = at->n;
  while (lo < hi) { /* the first atomic starting after p */
    size_t mid = lo + (hi - lo) / 2;
    if (r[at->i[mid]].lo <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t k = lo, seen = 0; k > 0 && seen < 256; k--, seen++) {
    const KGRec *a = &r[at->i[k - 1]];
    if (a->hi > p && block_at(a, p) == b)
      return true;
  }
  return false;
}

/* Is there an active record in l (indices into r, pruned of those ending at or before lo) that
 * conflicts with c where blocks differ? Reports the first; *told: a benign hazard was reported. */
static bool scan(KHost *in, const Op *kop, const KGRec *r, size_t *l, size_t *n, const KGRec *c,
                 const uint32_t grid[3], bool *told, const Atoms *at) {
  size_t j = 0;
  for (size_t i = 0; i < *n; i++) {
    const KGRec *a = &r[l[i]];
    if (a->hi <= c->lo)
      continue;
    l[j++] = l[i];
    if (!be_access_conflict((BeAccess)a->kind, (BeAccess)c->kind))
      continue;
    uintptr_t e = 0, p = differ(c, a, &e);
    if (!p)
      continue;
    if (c->kind == BE_ACC_WRITE && a->kind == BE_ACC_WRITE && same_bytes(c, a, p, e)) {
      if (!*told)
        report(in, kop, c, a, p, e, grid, 1);
      *told = true;
      continue;
    }
    const KGRec *rd = c->kind == BE_ACC_READ ? c : a, *other = rd == c ? a : c;
    if (other->kind == BE_ACC_ATOMIC && rd->kind == BE_ACC_READ && atomic_too(r, at, block_at(rd, p), p)) {
      if (!*told)
        report(in, kop, c, a, p, e, grid, 2);
      *told = true;
      continue;
    }
    report(in, kop, c, a, p, e, grid, 0);
    return true;
  }
  *n = j;
  return false;
}

/* Does read record c race with a write or atomic of W (sorted by start; mx: running maximum of
 * their ends)? Reports the first. */
static bool read_vs_writes(KHost *in, const Op *kop, const KGRec *c, const KGRec *W, const uintptr_t *mx, size_t nw,
                           const uint32_t grid[3], bool *told, const Atoms *at) {
  size_t lo = 0, hi = nw;
  while (lo < hi) { /* the first write starting at or after c's end */
    size_t mid = lo + (hi - lo) / 2;
    if (W[mid].lo < c->hi)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t k = lo; k > 0 && mx[k - 1] > c->lo; k--) {
    const KGRec *a = &W[k - 1];
    if (a->hi <= c->lo)
      continue;
    uintptr_t e = 0, p = differ(c, a, &e);
    if (!p)
      continue;
    if (a->kind == BE_ACC_ATOMIC && atomic_too(W, at, block_at(c, p), p)) {
      if (!*told)
        report(in, kop, c, a, p, e, grid, 2);
      *told = true;
      continue;
    }
    report(in, kop, a, c, p, e, grid, 0);
    return true;
  }
  return false;
}

bool kernel_race_check(KHost *in, KGList *runs, size_t nruns, const uint32_t grid[3], const Op *kop) {
  size_t n = 0, nw = 0;
  for (size_t i = 0; i < nruns; i++) {
    if (runs[i].over)
      return false;
    n += runs[i].n;
    for (size_t j = 0; j < runs[i].n; j++)
      nw += runs[i].r[j].kind != BE_ACC_READ;
  }
  if (n < 2 || !nw || n > KG_MAX)
    return false;
  KGRec *W = malloc(nw * sizeof *W);
  uintptr_t *mx = malloc(nw * sizeof *mx);
  size_t *act = malloc(nw * sizeof *act), *at_i = malloc(nw * sizeof *at_i);
  bool raced = false, told = false;
  if (!W || !mx || !act || !at_i)
    goto done;
  size_t k = 0;
  for (size_t i = 0; i < nruns; i++)
    for (size_t j = 0; j < runs[i].n; j++)
      if (runs[i].r[j].kind != BE_ACC_READ)
        W[k++] = runs[i].r[j];
  qsort(W, nw, sizeof *W, rec_cmp);
  size_t nat = 0;
  for (size_t i = 0; i < nw; i++) {
    mx[i] = i && mx[i - 1] > W[i].hi ? mx[i - 1] : W[i].hi;
    if (W[i].kind == BE_ACC_ATOMIC)
      at_i[nat++] = i;
  }
  Atoms at = {at_i, nat};
  size_t nact = 0;
  for (size_t i = 0; i < nw && !raced; i++) { /* writes and atomics against each other */
    raced = scan(in, kop, W, act, &nact, &W[i], grid, &told, &at);
    act[nact++] = i;
  }
  for (size_t i = 0; i < nruns && !raced; i++) /* reads against them */
    for (size_t j = 0; j < runs[i].n && !raced; j++)
      if (runs[i].r[j].kind == BE_ACC_READ)
        raced = read_vs_writes(in, kop, &runs[i].r[j], W, mx, nw, grid, &told, &at);
done:
  free(W);
  free(mx);
  free(act);
  free(at_i);
  return raced;
}
