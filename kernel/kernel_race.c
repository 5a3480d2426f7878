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
 * run, each of its blocks' part on its own (kernel_mem.c: its memos merge the blocks' ranges):
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
 * Grading: two blocks' writes of the same bytes with the same values are a benign hazard, as in
 * shared memory (a note, a warning with --race-check=strict, reported once per launch); a different
 * value is an error naming the first byte that differs. Overlapping write records are compared
 * over every stretch where their blocks differ (differ_from), each stretch one block of each; a
 * write that a later one covers to its end with the same values leaves the sweep (every later
 * write meets those values in the covering one), so that n blocks storing one row cost n
 * comparisons, not n * n. A small write (8 bytes or less) keeps the bytes it stored, read right after the op. A longer one
 * keeps nothing, so that a launch whose writes never overlap pays nothing for the grading: the
 * check makes a quiet pass first (Check.quiet), which only finds whether there is anything to
 * report and collects the stretches whose bytes no record holds (KGCap.u). The blocks that wrote
 * them are then replayed (replay_writers, through kernel_launch.c's replay_blocks: alone, in order, on
 * this thread, output and accesses dropped), each frame reading at its block's end what its writes
 * left there (capture), and the bytes the replayed blocks wrote are put back as the launch left
 * them; the second pass reports. A block is replayed only when it reads nothing that a write or
 * atomic of the launch touches and updates nothing atomically, so that it stores what it stored
 * the first time; an overlap of a block not replayed is an error saying the values were not
 * compared. Under --sched=threads another block may store between a small write's op and its read:
 * a race of two different values can then read as benign. Under serial and random schedules
 * blocks of one launch run one after another; those of a block-wise frame run each op in turn,
 * and each block's part is read before another block of the frame stores there.
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
    return; /* shared or private memory: checked per block (kernel_mem.c) */
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

static void capture(KFrame *f);

void kernel_race_block_end(KFrame *f) {
  if (!f->gon)
    return;
  if (!f->wide)
    kernel_glog_memos(f);
  if (f->gcap) { /* a replay: what the block's writes left is all it keeps */
    capture(f);
    f->nglog = 0;
    return;
  }
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
  if (!out) {
    free(f->grecs.r);
  } else {
    for (size_t i = 0; i < KG_OPEN; i++)
      if (f->gopen[i].hi)
        push(&f->grecs, &f->gopen[i]);
    *out = f->grecs;
    if (out->over) {
      free(out->r);
      out->r = NULL;
      out->n = 0;
    }
  }
  f->grecs = (KGList){0};
  memset(f->gopen, 0, sizeof f->gopen); /* the frame serves other runs and launches after this one */
  free(f->glog);
  f->glog = NULL;
  f->nglog = f->capglog = 0;
}

/* ---- the check ---------------------------------------------------------------------------------- */

typedef struct KGSpan {
  uintptr_t lo, hi;
} KGSpan;

/* Bytes [lo, hi) that block blk's writes left, at bytes + off (a replay's, KGCap). */
typedef struct KGPiece {
  size_t blk;
  uintptr_t lo, hi;
  size_t off;
} KGPiece;

/* The stretches of two blocks' writes that the first pass could not compare (u, sorted and
 * merged before the replay), the blocks that wrote them (blk, ascending, unique), and what the
 * replayed ones left there (pc, by block and start, disjoint per block). */
struct KGCap {
  KGSpan *u;
  size_t nu, capu;
  size_t *blk;
  size_t nblk, capblk;
  KGPiece *pc;
  size_t npc, cappc;
  uint8_t *bytes;
  size_t nbytes, capbytes;
  bool over; /* out of memory: nothing replayed */
};

/* Room for need elements of esz bytes at *pp (capacity *cap). */
static bool grow(void *pp, size_t *cap, size_t need, size_t esz) {
  void **p = pp;
  if (need <= *cap)
    return true;
  size_t c = *cap ? *cap : 16;
  while (c < need)
    c *= 2;
  void *q = realloc(*p, c * esz);
  if (!q)
    return false;
  *p = q;
  *cap = c;
  return true;
}

static int rec_cmp(const void *x, const void *y) {
  const KGRec *a = x, *b = y;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->b0 != b->b0)
    return a->b0 < b->b0 ? -1 : 1;
  return a->kind < b->kind ? -1 : a->kind > b->kind;
}

static inline size_t block_at(const KGRec *r, uintptr_t p) { return r->b0 + (p - r->lo) / r->len; }

/* The first byte at or after from of the overlap of a and b where their blocks differ, with the
 * end of that stretch in *end; 0 when there is none. A stretch has one block of each. */
static uintptr_t differ_from(const KGRec *a, const KGRec *b, uintptr_t from, uintptr_t *end) {
  uintptr_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
  if (lo >= hi)
    return 0;
  uintptr_t d = a->lo > b->lo ? a->lo - b->lo : b->lo - a->lo;
  if (a->len == b->len && d % a->len == 0 && block_at(a, lo) == block_at(b, lo))
    return 0; /* the same blocks byte for byte */
  for (uintptr_t p = lo > from ? lo : from; p < hi;) {
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

static uintptr_t differ(const KGRec *a, const KGRec *b, uintptr_t *end) { return differ_from(a, b, 0, end); }

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

/* The atomic records (indices into r, ascending start). */
typedef struct Atoms {
  const size_t *i;
  size_t n;
} Atoms;

/* One pass of the check. The first is quiet: it reports nothing, and finds whether there is
 * anything to report and which stretches of two blocks' writes it cannot compare (cap). */
typedef struct Check {
  KHost *in;
  const Op *kop;
  const uint32_t *grid;
  Atoms at;
  bool quiet, found, told; /* told: a benign hazard was reported */
  KGCap *cap;
} Check;

/* What a report says: a race (a read or an atomic in it), writes of the same values, a
 * compare-and-swap loop's plain read against atomics, writes of different values, writes whose
 * values could not be compared. */
enum { R_RACE, R_SAME, R_CAS, R_DIFF, R_UNSEEN };

/* Reports that x (the later record) races with y at [p, e) (how: R_*; q: R_DIFF's first byte
 * that differs). */
static void report(Check *ck, const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e, int how, uintptr_t q) {
  if (ck->quiet) {
    ck->found = true;
    return;
  }
  KHost *in = ck->in;
  uint32_t bx[3], by[3];
  block_ids(block_at(x, p), ck->grid, bx);
  block_ids(block_at(y, p), ck->grid, by);
  const char *xloc = loc_at(x, p, &e), *yloc = loc_at(y, p, &e);
  const Op *ox = op_at(ck->kop, xloc), *oy = op_at(ck->kop, yloc);
  if (!ox)
    ox = ck->kop;
  char where[64], why[160] = "";
  snprintf(where, sizeof where, "%zu bytes at %p", (size_t)(e - p), (void *)p);
  if (how == R_DIFF)
    snprintf(why, sizeof why, "; the values first differ at byte %zu (%p)", (size_t)(q - p), (void *)q);
  else if (how == R_UNSEEN)
    snprintf(why, sizeof why,
             "; the values were not compared (a block that wrote them reads memory the launch writes, or updates "
             "memory atomically)");
  GpuState *gs = kernel_gpu(in);
  pthread_mutex_lock(&gs->mu);
  if (how == R_CAS)
    ir_diag(in->ctx, in->race_strict ? DIAG_WARNING : DIAG_NOTE, ir_op_loc(ox),
            "'%.*s' op benign race in global memory: block (%u, %u, %u) %s %s, which block (%u, %u, %u) %s at '%s', "
            "and the reading block updates it atomically too (a compare-and-swap loop's first read); blocks of one "
            "launch are not ordered; reported once per launch",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], verb(x->kind), where, by[0], by[1], by[2],
            verb(y->kind), yloc);
  else if (how == R_SAME)
    ir_diag(in->ctx, in->race_strict ? DIAG_WARNING : DIAG_NOTE, ir_op_loc(ox),
            "'%.*s' op benign race in global memory: block (%u, %u, %u) writes %s with the value block (%u, %u, %u) "
            "wrote there at '%s'; blocks of one launch are not ordered; reported once per launch",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], where, by[0], by[1], by[2], yloc);
  else
    ir_diag(in->ctx, DIAG_ERROR, ir_op_loc(ox),
            "'%.*s' op data race in global memory: block (%u, %u, %u) %s%s %s, which block (%u, %u, %u) %s at '%s'; "
            "blocks of one launch are not ordered%s",
            (int)ox->name.len, ox->name.s, bx[0], bx[1], bx[2], verb(x->kind),
            how == R_DIFF ? " a different value to" : "", where, by[0], by[1], by[2], verb(y->kind), yloc, why);
  if ((how == R_RACE || how == R_DIFF || how == R_UNSEEN) && oy)
    ir_diag(in->ctx, DIAG_NOTE, ir_op_loc(oy), "the other access");
  pthread_mutex_unlock(&gs->mu);
}

/* The bytes the writes of r's block at p left from p to *hi: its own (a small write keeps them),
 * or its replay's; NULL when neither holds them. */
static const uint8_t *bytes_at(const Check *ck, const KGRec *r, uintptr_t p, uintptr_t *hi) {
  if (r->nsnap) {
    *hi = r->hi;
    return r->snap + (p - r->lo);
  }
  const KGCap *c = ck->cap;
  size_t b = block_at(r, p), lo = 0, n = c->npc;
  while (lo < n) { /* past the last piece at or before (b, p) */
    size_t mid = lo + (n - lo) / 2;
    if (c->pc[mid].blk < b || (c->pc[mid].blk == b && c->pc[mid].lo <= p))
      lo = mid + 1;
    else
      n = mid;
  }
  const KGPiece *pc = lo ? &c->pc[lo - 1] : NULL;
  if (!pc || pc->blk != b || pc->hi <= p)
    return NULL;
  *hi = pc->hi;
  return c->bytes + pc->off + (p - pc->lo);
}

enum { CMP_SAME, CMP_DIFF, CMP_UNSEEN };

/* Compares what the blocks of x and y at p (one each over the stretch) left in [p, e); CMP_DIFF
 * with the first byte that differs in *q. */
static int compare(const Check *ck, const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e, uintptr_t *q) {
  while (p < e) {
    uintptr_t hx = 0, hy = 0;
    const uint8_t *a = bytes_at(ck, x, p, &hx), *b = bytes_at(ck, y, p, &hy);
    if (!a || !b)
      return CMP_UNSEEN;
    uintptr_t t = hx < hy ? hx : hy;
    if (t > e)
      t = e;
    if (memcmp(a, b, t - p))
      for (size_t i = 0;; i++)
        if (a[i] != b[i]) {
          *q = p + i;
          return CMP_DIFF;
        }
    p = t;
  }
  return CMP_SAME;
}

/* The quiet pass: the stretch [p, e) of x's and y's writes is to be compared after a replay. */
static void want(Check *ck, const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e) {
  KGCap *c = ck->cap;
  ck->found = true;
  if (c->over)
    return;
  if (!grow(&c->u, &c->capu, c->nu + 1, sizeof *c->u) || !grow(&c->blk, &c->capblk, c->nblk + 2, sizeof *c->blk)) {
    c->over = true;
    return;
  }
  c->u[c->nu++] = (KGSpan){p, e};
  c->blk[c->nblk++] = block_at(x, p);
  c->blk[c->nblk++] = block_at(y, p);
}

/* Writes x (the later record) and y, overlapping where their blocks differ from the stretch
 * [p, e) on: every such stretch compared by value (a merged record's blocks each have their
 * own). The first that differs is an error; if all agree, a benign hazard. True after an error. */
static bool writes_vs(Check *ck, const KGRec *x, const KGRec *y, uintptr_t p, uintptr_t e) {
  uintptr_t sp = 0, se = 0; /* the first stretch of the same values */
  for (; p; p = differ_from(x, y, e, &e)) {
    uintptr_t q = 0;
    int v = compare(ck, x, y, p, e, &q);
    if (v == CMP_SAME) {
      if (!sp)
        sp = p, se = e;
      continue;
    }
    if (v == CMP_UNSEEN && ck->quiet) {
      want(ck, x, y, p, e);
      continue;
    }
    report(ck, x, y, p, e, v == CMP_DIFF ? R_DIFF : R_UNSEEN, q);
    return true;
  }
  if (sp && !ck->told)
    report(ck, x, y, sp, se, R_SAME, 0);
  ck->told = ck->told || sp;
  return false;
}

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
 * conflicts with c where blocks differ? Reports the first. */
static bool scan(Check *ck, const KGRec *r, size_t *l, size_t *n, const KGRec *c) {
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
    if (c->kind == BE_ACC_WRITE && a->kind == BE_ACC_WRITE) {
      if (writes_vs(ck, c, a, p, e))
        return true;
      if (a->hi <= c->hi)
        j--; /* c covers a with its values: a later write meets them in c (blocks all storing one row) */
      continue;
    }
    const KGRec *rd = c->kind == BE_ACC_READ ? c : a, *other = rd == c ? a : c;
    if (other->kind == BE_ACC_ATOMIC && rd->kind == BE_ACC_READ && atomic_too(r, &ck->at, block_at(rd, p), p)) {
      if (!ck->told)
        report(ck, c, a, p, e, R_CAS, 0);
      ck->told = true;
      continue;
    }
    report(ck, c, a, p, e, R_RACE, 0);
    return true;
  }
  *n = j;
  return false;
}

/* The first record of W (nw, sorted by start) that starts at or after hi. */
static size_t first_from(const KGRec *W, size_t nw, uintptr_t hi) {
  size_t lo = 0;
  while (lo < nw) {
    size_t mid = lo + (nw - lo) / 2;
    if (W[mid].lo < hi)
      lo = mid + 1;
    else
      nw = mid;
  }
  return lo;
}

/* Does read record c race with a write or atomic of W (sorted by start; mx: running maximum of
 * their ends)? Reports the first. */
static bool read_vs_writes(Check *ck, const KGRec *c, const KGRec *W, const uintptr_t *mx, size_t nw) {
  for (size_t k = first_from(W, nw, c->hi); k > 0 && mx[k - 1] > c->lo; k--) {
    const KGRec *a = &W[k - 1];
    if (a->hi <= c->lo)
      continue;
    uintptr_t e = 0, p = differ(c, a, &e);
    if (!p)
      continue;
    if (a->kind == BE_ACC_ATOMIC && atomic_too(W, &ck->at, block_at(c, p), p)) {
      if (!ck->told)
        report(ck, c, a, p, e, R_CAS, 0);
      ck->told = true;
      continue;
    }
    report(ck, a, c, p, e, R_RACE, 0);
    return true;
  }
  return false;
}

/* Does any write or atomic of W touch [lo, hi)? */
static bool written(const KGRec *W, const uintptr_t *mx, size_t nw, uintptr_t lo, uintptr_t hi) {
  for (size_t k = first_from(W, nw, hi); k > 0 && mx[k - 1] > lo; k--)
    if (W[k - 1].hi > lo)
      return true;
  return false;
}

/* One pass over the records: writes and atomics against each other, then reads against them. */
static bool sweep(Check *ck, const KGList *runs, size_t nruns, const KGRec *W, const uintptr_t *mx, size_t nw,
                  size_t *act) {
  size_t nact = 0;
  bool raced = false;
  for (size_t i = 0; i < nw && !raced; i++) {
    raced = scan(ck, W, act, &nact, &W[i]);
    act[nact++] = i;
  }
  for (size_t i = 0; i < nruns && !raced; i++)
    for (size_t j = 0; j < runs[i].n && !raced; j++)
      if (runs[i].r[j].kind == BE_ACC_READ)
        raced = read_vs_writes(ck, &runs[i].r[j], W, mx, nw);
  return raced;
}

/* The first of the n ascending blocks at or after b. */
static size_t block_from(const size_t *blk, size_t n, size_t b) {
  size_t lo = 0;
  while (lo < n) {
    size_t mid = lo + (n - lo) / 2;
    if (blk[mid] < b)
      lo = mid + 1;
    else
      n = mid;
  }
  return lo;
}

static int span_cmp(const void *x, const void *y) {
  const KGSpan *a = x, *b = y;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int size_cmp(const void *x, const void *y) {
  size_t a = *(const size_t *)x, b = *(const size_t *)y;
  return a < b ? -1 : a > b;
}

static int piece_cmp(const void *x, const void *y) {
  const KGPiece *a = x, *b = y;
  if (a->blk != b->blk)
    return a->blk < b->blk ? -1 : 1;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts and merges n spans; their new count. */
static size_t spans_merge(KGSpan *s, size_t n) {
  if (!n)
    return 0;
  qsort(s, n, sizeof *s, span_cmp);
  size_t j = 0;
  for (size_t i = 1; i < n; i++)
    if (s[i].lo <= s[j].hi) {
      if (s[i].hi > s[j].hi)
        s[j].hi = s[i].hi;
    } else {
      s[++j] = s[i];
    }
  return j + 1;
}

/* A replay's block ended (kernel_race_block_end): keeps what its writes left where they meet the
 * stretches to compare. */
static void capture(KFrame *f) {
  KGCap *c = f->gcap;
  for (size_t i = 0; i < f->nglog && !c->over; i++) {
    const KGRec *g = &f->glog[i];
    if (g->kind != BE_ACC_WRITE)
      continue;
    for (size_t j = 0; j < g->nb && !c->over; j++) {
      uintptr_t lo = g->lo + j * g->len, hi = lo + g->len;
      size_t a = 0, n = c->nu;
      while (a < n) { /* the first stretch ending after lo */
        size_t mid = a + (n - a) / 2;
        if (c->u[mid].hi <= lo)
          a = mid + 1;
        else
          n = mid;
      }
      for (; a < c->nu && c->u[a].lo < hi; a++) {
        uintptr_t s = lo > c->u[a].lo ? lo : c->u[a].lo, t = hi < c->u[a].hi ? hi : c->u[a].hi;
        if (!grow(&c->pc, &c->cappc, c->npc + 1, sizeof *c->pc) ||
            !grow(&c->bytes, &c->capbytes, c->nbytes + (t - s), 1)) {
          c->over = true;
          break;
        }
        c->pc[c->npc++] = (KGPiece){g->b0 + j, s, t, c->nbytes};
        memcpy(c->bytes + c->nbytes, (const void *)s, t - s);
        c->nbytes += t - s;
      }
    }
  }
}

/* After the quiet pass: replays the blocks that wrote the stretches it could not compare, each
 * alone and in order, on this thread, so that what its writes left there can be read at its end
 * (capture). A block is replayed only when that gives what it wrote the first time: when it reads
 * nothing a write or atomic of the launch touches (its own included: what it read may have
 * changed since) and updates nothing atomically (that would do it twice). The bytes the replayed
 * blocks write are put back as the launch left them. */
static void replay_writers(Check *ck, const KGList *runs, size_t nruns, const KGRec *W, const uintptr_t *mx,
                           size_t nw, KGReplay replay, void *user) {
  KGCap *c = ck->cap;
  c->nu = spans_merge(c->u, c->nu);
  qsort(c->blk, c->nblk, sizeof *c->blk, size_cmp);
  size_t nb = 0;
  for (size_t i = 0; i < c->nblk; i++)
    if (!nb || c->blk[i] != c->blk[nb - 1])
      c->blk[nb++] = c->blk[i];
  c->nblk = nb;
  bool *bad = calloc(nb, 1);
  size_t *go = malloc(nb * sizeof *go), ngo = 0;
  KGSpan *foot = NULL;
  size_t nfoot = 0, capfoot = 0;
  uint8_t *saved = NULL;
  if (!bad || !go)
    goto done;
  for (size_t i = 0; i < nruns; i++)
    for (size_t j = 0; j < runs[i].n; j++) {
      const KGRec *r = &runs[i].r[j];
      if (r->kind == BE_ACC_WRITE || (r->kind == BE_ACC_READ && !written(W, mx, nw, r->lo, r->hi)))
        continue;
      for (size_t k = block_from(c->blk, nb, r->b0); k < nb && c->blk[k] < r->b0 + r->nb; k++) {
        uintptr_t lo = r->lo + (c->blk[k] - r->b0) * r->len;
        if (r->kind == BE_ACC_ATOMIC || written(W, mx, nw, lo, lo + r->len))
          bad[k] = true;
      }
    }
  for (size_t k = 0; k < nb; k++)
    if (!bad[k])
      go[ngo++] = c->blk[k];
  if (!ngo)
    goto done;
  for (size_t i = 0; i < nw; i++) /* what the replay writes */
    if (W[i].kind == BE_ACC_WRITE)
      for (size_t k = block_from(go, ngo, W[i].b0); k < ngo && go[k] < W[i].b0 + W[i].nb; k++) {
        if (!grow(&foot, &capfoot, nfoot + 1, sizeof *foot))
          goto done;
        uintptr_t lo = W[i].lo + (go[k] - W[i].b0) * W[i].len;
        foot[nfoot++] = (KGSpan){lo, lo + W[i].len};
      }
  nfoot = spans_merge(foot, nfoot);
  size_t total = 0;
  for (size_t i = 0; i < nfoot; i++)
    total += foot[i].hi - foot[i].lo;
  if (!(saved = malloc(total ? total : 1)))
    goto done;
  for (size_t i = 0, o = 0; i < nfoot; o += foot[i].hi - foot[i].lo, i++)
    memcpy(saved + o, (const void *)foot[i].lo, foot[i].hi - foot[i].lo);
  bool ok = replay(user, go, ngo, c);
  for (size_t i = 0, o = 0; i < nfoot; o += foot[i].hi - foot[i].lo, i++)
    memcpy((void *)foot[i].lo, saved + o, foot[i].hi - foot[i].lo);
  if (!ok || c->over) {
    c->npc = 0;
    goto done;
  }
  qsort(c->pc, c->npc, sizeof *c->pc, piece_cmp);
  size_t j = 0;
  for (size_t i = 0; i < c->npc; i++) { /* a block's pieces made disjoint (an overlap holds the same bytes) */
    KGPiece p = c->pc[i];
    if (j && c->pc[j - 1].blk == p.blk && p.lo < c->pc[j - 1].hi) {
      if (p.hi <= c->pc[j - 1].hi)
        continue;
      p.off += c->pc[j - 1].hi - p.lo;
      p.lo = c->pc[j - 1].hi;
    }
    c->pc[j++] = p;
  }
  c->npc = j;
done:
  free(bad);
  free(go);
  free(foot);
  free(saved);
}

bool kernel_race_check(KHost *in, KGList *runs, size_t nruns, const uint32_t grid[3], const Op *kop,
                       KGReplay replay, void *user) {
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
  KGCap cap = {0};
  bool raced = false;
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
  /* a quiet pass first: a launch with nothing to report is done; else the writes it could not
   * compare are replayed, and a second pass reports */
  Check ck = {in, kop, grid, {at_i, nat}, true, false, false, &cap};
  sweep(&ck, runs, nruns, W, mx, nw, act);
  if (!ck.found)
    goto done;
  if (cap.nu && !cap.over && replay)
    replay_writers(&ck, runs, nruns, W, mx, nw, replay, user);
  ck.quiet = false;
  ck.told = false;
  raced = sweep(&ck, runs, nruns, W, mx, nw, act);
done:
  free(W);
  free(mx);
  free(act);
  free(at_i);
  free(cap.u);
  free(cap.blk);
  free(cap.pc);
  free(cap.bytes);
  return raced;
}
