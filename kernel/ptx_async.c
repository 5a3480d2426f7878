/* ptx_async.c - PTX's asynchronous copies and barrier objects (kernel_ptx.c has the overview):
 * cp.async and its groups, cp.async.bulk, mbarrier objects in shared memory and their phases,
 * named barriers (bar.arrive, bar.sync with an id), what runs them and how they compile (PSync:
 * the kernel's state of them). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* ---- asynchronous copies, mbarriers, named barriers ---------------------------------------------
 *
 * cp.async copies at issue: the global read is checked and recorded there and the shared write
 * recorded as the issuing thread's (so another thread's read before a barrier races with it as
 * with a store). On hardware the bytes arrive at some time before the thread's cp.async.wait_group
 * (or wait_all) that completes the copy's group, so a read or write of them before that wait is a
 * bug that an early copy hides. Each copy stays pending in the thread's table (PAsyncTab, in its
 * private memory) until the wait, with a mark in the race shadow: its granules' last-read records
 * hold a reader no access writes (epoch MARK). Any access of the bytes in between replaces the mark
 * (or the last write), and the wait reports it, naming both instructions; a copy left pending when
 * the table is full, or by cp.async.mbarrier.arrive (which completes the thread's copies before the
 * mbarrier's phase can), is checked there. Nothing is checked when race checks are off.
 *
 * Waits that block. A thread waiting at an mbarrier (test_wait, try_wait) or at a named barrier
 * that other threads have not reached (bar.sync in a kernel that uses bar.arrive) is parked: its
 * next block is the kernel's last (x_resume), which therefore runs only once every other thread
 * has ended or is parked too. There each parked thread whose wait is now complete goes on after
 * its wait; when none is, the mbarrier waits return false (a try_wait may time out) and, should
 * that happen twice with no arrival in between, the block is deadlocked: an error, as is a named
 * barrier that no thread can complete. The completion of an mbarrier phase or a named barrier
 * orders, for the race checks, all that the block's threads did before it before all they do
 * after (as bar.sync does): a race of a thread that does not wait on it is not seen. */
#define ASYNC_MAX 16 /* pending copies per thread; one more completes the oldest first */

#define NBARS 16     /* named barriers per block */

#define MB_MARK (UINT64_C(0xffffffff) << 32) /* a shadow read record no access writes */

typedef struct PAsync {
  uint64_t w;       /* the shadow's write record of the copy, as it made it */
  const KIns *k;    /* the cp.async */
  uint32_t dst, group, bytes, pad;
} PAsync;

typedef struct PAsyncTab { /* a thread's pending copies, oldest first */
  uint32_t n, committed;   /* groups committed so far; a copy's group is the next one at issue */
  PAsync e[ASYNC_MAX];
} PAsyncTab;

enum { SW_MBAR_STATE, SW_MBAR_PARITY, SW_NBAR }; /* PIns.mode of a wait */

static void thread_xyz(const KFrame *f, uint32_t l, uint32_t xyz[3]) {
  uint32_t bx = f->bdim[0], by = f->bdim[1];
  xyz[0] = l % bx, xyz[1] = l / bx % by, xyz[2] = l / (bx * by);
}

/* Thread l's table (copied: private memory follows the dynamic shared memory, of any size) */
static char *async_tab(const KFrame *f, const PSync *sy, uint32_t l) { return f->priv + l * f->priv_stride + sy->apend; }

/* The block's state starts anew: no named barrier arrivals, no pending copies. */
static int x_sync_reset(KFrame *f, const KIns *k) {
  const PSync *sy = ((const PIns *)k->aux)->sync;
  for (uint32_t i = 0; i < 2 * NBARS + 2; i++)
    f->u[sy->bars + i].u = 0;
  memset(f->v + (size_t)sy->park * f->n, 0, sizeof(Slot) * f->n);
  if (sy->async)
    for (uint32_t l = 0; l < f->n; l++)
      memset(async_tab(f, sy, l), 0, sizeof(PAsyncTab));
  return EX_NEXT;
}

/* The block's threads synchronized (a phase or a named barrier completed): for the race checks,
 * what each did before is ordered before what every one does after. */
static void sync_point(KFrame *f, const PSync *sy) {
  f->base = ++f->epoch;
  f->split = false;
  f->u[sy->bars + 2 * NBARS].u++;
}

/* Thread l's copy e is complete (at its wait k): reports an access of its bytes since it was
 * issued, else leaves the shadow as if the copy had read them when it wrote them. */
static bool async_complete(KFrame *f, const KIns *k, uint32_t l, const PAsync *e) {
  if (!f->shadow)
    return true;
  size_t j0 = e->dst >> f->gshift, j1 = (e->dst + e->bytes - 1) >> f->gshift;
  uint64_t op = (e->w >> 16) & KSH_OPS, mark = MB_MARK | op << 17 | l;
  for (size_t j = j0; j <= j1; j++) {
    uint64_t R = f->sh.r[j], W = f->sh.w[j];
    if (R == mark && W == e->w)
      continue;
    bool wrote = W != e->w;
    uint64_t rec = wrote ? W : R;
    uint32_t who = (uint16_t)rec, xyz[3];
    bool several = wrote ? (rec & (1ull << 31)) : (rec & (1ull << 16));
    const char *at = f->sh.loc[wrote ? (rec >> 16) & KSH_OPS : (rec >> 17) & KSH_OPS];
    char by[64] = "other threads";
    if (!several && who < f->n) {
      thread_xyz(f, who, xyz);
      snprintf(by, sizeof by, "thread (%u, %u, %u)", xyz[0], xyz[1], xyz[2]);
    }
    kernel_error(f, k, l, "data race in shared memory: %s %s bytes [%u, %u) at '%s' while the copy of the cp.async "
                 "at '%s' into them was in flight (it completes at this wait)", by, wrote ? "wrote" : "read",
                 e->dst, e->dst + e->bytes, at, e->k->loc);
    return false;
  }
  for (size_t j = j0; j <= j1; j++)
    f->sh.r[j] = (e->w >> 32) << 32 | op << 17 | l;
  return true;
}

/* Completes thread l's pending copies of groups up to `group` (all with UINT32_MAX). */
static bool async_wait(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, uint32_t group) {
  PAsyncTab t;
  memcpy(&t, async_tab(f, sy, l), sizeof t);
  uint32_t keep = 0;
  for (uint32_t i = 0; i < t.n; i++) {
    if (group != UINT32_MAX && t.e[i].group > group) {
      t.e[keep++] = t.e[i];
      continue;
    }
    if (!async_complete(f, k, l, &t.e[i]))
      return false;
  }
  t.n = keep;
  memcpy(async_tab(f, sy, l), &t, sizeof t);
  return true;
}

/* cp.async.ca/.cg.shared.global [d], [s], size[, src-size | ignore-src]: s[0] + s[4] the shared
 * destination, s[1] + off the source, s[2] the bytes to read (the rest zero), s[3] a predicate
 * that reads none */
static int x_cp_async(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  uint32_t cp = p->bytes;
  size_t smem = (size_t)(f->priv - f->lo);
  PRun run = {0, 0};
  f->sh.keep = true; /* the waits read the shadow's records (kernel_shruns.c) */
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t d = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + p->s[4].imm;
    if (d > smem || cp > smem - d)
      return kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the block's shared memory (%zu "
                          "bytes)", cp, (long long)d, smem);
    if (d % cp)
      return kernel_error(f, k, l, "cp.async of %u bytes to shared offset %llu, which is not a multiple of %u", cp,
                          (unsigned long long)d, cp);
    uint64_t n = p->s[2].kind ? wmask(rd(f, &p->s[2], l), 32) : cp;
    if (p->s[3].kind && (rd(f, &p->s[3], l) & 1))
      n = 0;
    if (n > cp)
      return kernel_error(f, k, l, "cp.async reads %llu bytes, more than the %u it copies", (unsigned long long)n, cp);
    char *src = (char *)(uintptr_t)((p->s[1].kind ? rd(f, &p->s[1], l) : 0) + (uint64_t)p->off), *dst = f->lo + d;
    int where = W_GLOBAL;
    if (n && !ptx_access_ok(f, k, p, l, src, (uint32_t)n, false, &where))
      return EX_ERROR;
    if (where != W_GLOBAL)
      return kernel_error(f, k, l, "cp.async from %s memory: its source must be global memory",
                          where == W_SHARED ? "shared" : "local");
    uint32_t g = f->shadow ? 1u << f->gshift : cp;
    for (uint32_t o = 0; o < cp; o += g < cp ? g : cp)
      if (!kernel_shared_check(f, k, p->memo, l, dst + o, g < cp ? g : cp, true, NULL, NULL))
        return EX_ERROR;
    memcpy(dst, src, n);
    memset(dst + n, 0, cp - n);
    if (n)
      ptx_run_note(f, k, p, &run, src, (uint32_t)n, false);
    if (!f->shadow)
      continue;
    PAsyncTab t;
    memcpy(&t, async_tab(f, sy, l), sizeof t);
    if (t.n == ASYNC_MAX) { /* the oldest completes now */
      if (!async_complete(f, k, l, &t.e[0]))
        return EX_ERROR;
      memmove(t.e, t.e + 1, (ASYNC_MAX - 1) * sizeof *t.e);
      t.n--;
    }
    size_t j0 = d >> f->gshift, j1 = (d + cp - 1) >> f->gshift;
    uint64_t w = f->sh.w[j0], op = (w >> 16) & KSH_OPS;
    for (size_t j = j0; j <= j1; j++)
      f->sh.r[j] = MB_MARK | op << 17 | l;
    t.e[t.n++] = (PAsync){.w = w, .k = k, .dst = (uint32_t)d, .group = t.committed + 1, .bytes = cp};
    memcpy(async_tab(f, sy, l), &t, sizeof t);
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

enum { CPG_COMMIT, CPG_WAIT, CPG_WAIT_ALL, CPG_ALL };

/* Thread by thread: commit (CPG_COMMIT), or complete the groups but the last s[0] (CPG_WAIT), every
 * committed one after committing (CPG_WAIT_ALL), or every copy (CPG_ALL). */
static int async_groups(KFrame *f, const KIns *k, const PIns *p, unsigned how) {
  const PSync *sy = p->sync;
  if (!f->shadow)
    return EX_NEXT;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *tab = async_tab(f, sy, l);
    uint32_t committed;
    memcpy(&committed, tab + offsetof(PAsyncTab, committed), 4);
    committed += how == CPG_COMMIT || how == CPG_WAIT_ALL;
    memcpy(tab + offsetof(PAsyncTab, committed), &committed, 4);
    if (how == CPG_COMMIT)
      continue;
    uint64_t keep = how == CPG_WAIT ? rd(f, &p->s[0], l) : 0;
    uint32_t upto = how == CPG_ALL ? UINT32_MAX : keep >= committed ? 0 : committed - (uint32_t)keep;
    if (!async_wait(f, k, sy, l, upto))
      return EX_ERROR;
  }
  return EX_NEXT;
}

/* cp.async.commit_group, cp.async.wait_group n (s[0]: n), cp.async.wait_all: p->mode a CPG_* */
static int x_cp_group(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  return async_groups(f, k, p, p->mode);
}

static char *mbar_at(KFrame *f, const KIns *k, const PIns *p, uint32_t l);

static int mbar_tx(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, char *q, int64_t txn);

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], size, [mbar]: size
 * bytes (a multiple of 16, both addresses too) copied at issue, recorded as cp.async's are (a
 * global read, the issuing thread's shared write), then the mbarrier's transaction count lowered
 * by size (complete_tx). The copy is not kept pending: what waits for it is the mbarrier's phase. */
static int x_cp_bulk(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  size_t smem = (size_t)(f->priv - f->lo);
  PRun run = {0, 0};
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t d = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + p->s[4].imm, n = wmask(rd(f, &p->s[2], l), 32);
    uintptr_t a = (uintptr_t)((p->s[1].kind ? rd(f, &p->s[1], l) : 0) + (uint64_t)p->off);
    if (n % 16 || d % 16 || a % 16)
      return kernel_error(f, k, l, "cp.async.bulk of %llu bytes from %#llx to shared offset %llu: the size and both "
                          "addresses must be multiples of 16", (unsigned long long)n, (unsigned long long)a,
                          (unsigned long long)d);
    if (d > smem || n > smem - d)
      return kernel_error(f, k, l, "out-of-bounds access: %llu bytes at offset %lld of the block's shared memory (%zu "
                          "bytes)", (unsigned long long)n, (long long)d, smem);
    int where = W_GLOBAL;
    if (n && !ptx_access_ok(f, k, p, l, (char *)a, (uint32_t)n, false, &where))
      return EX_ERROR;
    if (where != W_GLOBAL)
      return kernel_error(f, k, l, "cp.async.bulk from %s memory: its source must be global memory",
                          where == W_SHARED ? "shared" : "local");
    uint32_t g = f->shadow ? 1u << f->gshift : 16;
    for (uint64_t o = 0; o < n; o += g)
      if (!kernel_shared_check(f, k, p->memo, l, f->lo + d + o, g, true, NULL, NULL))
        return EX_ERROR;
    memcpy(f->lo + d, (const char *)a, n);
    if (n)
      ptx_run_note(f, k, p, &run, (char *)a, (uint32_t)n, false);
    PIns mb = *p; /* the mbarrier's address: s[3] + off2 */
    mb.s[0] = p->s[3];
    mb.off = p->off2;
    mb.space = PTX_SPACE_SHARED;
    char *q = mbar_at(f, k, &mb, l);
    if (!q || mbar_tx(f, k, p->sync, l, q, -(int64_t)n) < 0)
      return EX_ERROR;
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

/* ---- mbarrier objects: 8 bytes of shared memory, here [0, 20) the arrivals pending in the current
 * phase, [20, 40) those expected in each phase, [40, 62) the pending transaction count (signed),
 * bit 63 the phase's parity. A state (what arrive returns) is the parity of the phase it arrived
 * in at bit 63 and the arrivals then pending below. */
#define MB_PEND(v) ((uint32_t)((v) & 0xfffff))

#define MB_EXP(v) ((uint32_t)((v) >> 20 & 0xfffff))

#define MB_TX(v) sext((v) >> 40 & 0x3fffff, 22)

#define MB_PHASE(v) ((v) >> 63)

#define MB_MAX 0xfffffu

static uint64_t mb_make(uint32_t pend, uint32_t exp, int64_t tx, uint64_t phase) {
  return (uint64_t)pend | (uint64_t)exp << 20 | ((uint64_t)tx & 0x3fffff) << 40 | phase << 63;
}

/* Thread l's mbarrier object (s[0] + off, in p's space), checked; NULL after the error. */
static char *mbar_at(KFrame *f, const KIns *k, const PIns *p, uint32_t l) {
  uint64_t a = (p->s[0].kind ? rd(f, &p->s[0], l) : 0) + (uint64_t)p->off;
  size_t smem = (size_t)(f->priv - f->lo);
  uint64_t off = p->space == PTX_SPACE_SHARED ? a : a - (uint64_t)(uintptr_t)f->lo;
  if (smem < 8 || off > smem - 8) {
    kernel_error(f, k, l, "an mbarrier object at %s %#llx, which is not 8 bytes of the block's shared memory (%zu "
                 "bytes)", p->space == PTX_SPACE_SHARED ? "shared offset" : "address", (unsigned long long)a, smem);
    return NULL;
  }
  if (off % 8) {
    kernel_error(f, k, l, "an mbarrier object at shared offset %llu, which is not a multiple of 8",
                 (unsigned long long)off);
    return NULL;
  }
  return f->lo + off;
}

/* Thread l adds txn to the transaction count of the mbarrier object at q; the phase completes when
 * that leaves nothing pending. 0, or -1 after an error. */
static void sync_point(KFrame *f, const PSync *sy);

static int mbar_tx(KFrame *f, const KIns *k, const PSync *sy, uint32_t l, char *q, int64_t txn) {
  uint64_t v;
  memcpy(&v, q, 8);
  uint32_t pend = MB_PEND(v), exp = MB_EXP(v);
  int64_t tx = MB_TX(v) + txn;
  uint64_t phase = MB_PHASE(v);
  if (!exp)
    return kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                        (size_t)(q - f->lo)), -1;
  if (tx < -(int64_t)MB_MAX || tx > (int64_t)MB_MAX)
    return kernel_error(f, k, l, "the mbarrier's transaction count %lld is not in [-%u, %u]", (long long)tx, MB_MAX,
                        MB_MAX), -1;
  f->u[sy->bars + 2 * NBARS].u++;
  if (!pend && !tx) {
    pend = exp;
    phase ^= 1;
    sync_point(f, sy);
  }
  v = mb_make(pend, exp, tx, phase);
  memcpy(q, &v, 8);
  return 0;
}

enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_DROP, MB_EXPECT_TX, MB_COMPLETE_TX, MB_PENDING, MB_CP_ARRIVE };

/* mbarrier.init / inval / arrive[_drop][.expect_tx][.noComplete] / expect_tx / complete_tx /
 * pending_count, and cp.async.mbarrier.arrive.noinc (its copies are done: an arrival). The active
 * threads in order, each an atomic update of its object. p->combine: .expect_tx on an arrive;
 * p->nan: .noComplete. s[1]: the count (arrivals or transaction bytes; init's, expect_tx's). */
static int x_mbar(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  if (p->mode == MB_CP_ARRIVE && sy->async && async_groups(f, k, p, CPG_ALL) == EX_ERROR)
    return EX_ERROR;
  if (p->mode == MB_CP_ARRIVE && !p->combine)
    return EX_NEXT; /* without .noinc: pending + 1, then the arrival, nothing in all */
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    if (p->mode == MB_PENDING) {
      wr(f, &p->d[0], l, MB_PEND(rd(f, &p->s[1], l)));
      continue;
    }
    char *q = mbar_at(f, k, p, l);
    if (!q)
      return EX_ERROR;
    uint64_t v, n = p->s[1].kind ? rd(f, &p->s[1], l) : 1;
    memcpy(&v, q, 8);
    if (p->mode == MB_INIT) {
      n = wmask(n, 32);
      if (n < 1 || n > MB_MAX)
        return kernel_error(f, k, l, "an mbarrier count of %llu is not in [1, %u]", (unsigned long long)n, MB_MAX);
      v = mb_make((uint32_t)n, (uint32_t)n, 0, 0);
      memcpy(q, &v, 8);
      continue;
    }
    if (p->mode == MB_INVAL) {
      memset(q, 0, 8);
      continue;
    }
    uint32_t pend = MB_PEND(v), exp = MB_EXP(v);
    int64_t tx = MB_TX(v);
    uint64_t phase = MB_PHASE(v);
    if (!exp)
      return kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                          (size_t)(q - f->lo));
    bool arrive = p->mode == MB_ARRIVE || p->mode == MB_DROP || p->mode == MB_CP_ARRIVE;
    int64_t txn = p->mode == MB_EXPECT_TX || p->mode == MB_COMPLETE_TX ? (int64_t)wmask(n, 32)
                  : p->combine && p->mode != MB_CP_ARRIVE ? (int64_t)wmask(rd(f, &p->s[2], l), 32) : 0;
    tx += p->mode == MB_COMPLETE_TX ? -txn : txn;
    if (tx < -(int64_t)MB_MAX || tx > (int64_t)MB_MAX)
      return kernel_error(f, k, l, "the mbarrier's transaction count %lld is not in [-%u, %u]", (long long)tx, MB_MAX,
                          MB_MAX);
    if (arrive) {
      uint64_t c = p->mode == MB_CP_ARRIVE || (p->combine && !p->s[1].kind) ? 1 : wmask(n, 32);
      if (c < 1 || c > pend)
        return kernel_error(f, k, l, "%llu arrivals on an mbarrier with %u pending in its phase",
                            (unsigned long long)c, pend);
      pend -= (uint32_t)c;
      if (p->mode == MB_DROP)
        exp -= (uint32_t)c;
      if (p->nd)
        wr(f, &p->d[0], l, phase << 63 | pend);
    }
    if (arrive || p->mode == MB_COMPLETE_TX)
      f->u[sy->bars + 2 * NBARS].u++;
    if (!pend && !tx && (arrive || p->mode == MB_COMPLETE_TX)) { /* the phase completes */
      if (p->nan)
        return kernel_error(f, k, l, "mbarrier.arrive.noComplete completes the mbarrier's phase");
      pend = exp;
      phase ^= 1;
      sync_point(f, sy);
    }
    v = mb_make(pend, exp, tx, phase);
    memcpy(q, &v, 8);
  }
  return EX_NEXT;
}

/* Whether thread l's wait k is complete: 1, 0 (not yet), -1 after an error. */
static int wait_done(KFrame *f, const KIns *k, uint32_t l) {
  const PIns *p = k->aux;
  const PSync *sy = p->sync;
  if (p->mode == SW_NBAR) {
    uint64_t id = rd(f, &p->s[0], l);
    return f->u[sy->bars + 2 * id + 1].u != f->v[(size_t)(sy->park + 1) * f->n + l].u;
  }
  char *q = mbar_at(f, k, p, l);
  if (!q)
    return -1;
  uint64_t v;
  memcpy(&v, q, 8);
  if (!MB_EXP(v)) {
    kernel_error(f, k, l, "the mbarrier object at shared offset %zu is not initialized (mbarrier.init)",
                 (size_t)(q - f->lo));
    return -1;
  }
  uint64_t s = rd(f, &p->s[1], l);
  return MB_PHASE(v) != (p->mode == SW_MBAR_PARITY ? s & 1 : s >> 63);
}

/* mbarrier.test_wait / try_wait[.parity] d, [a], state | parity: a wait that ends its block (p->next
 * after it). Threads whose phase completed get true and go on, the others park (x_resume); under a
 * guard, threads whose guard fails go on with d as it was. k->a: the wait's id. */
int ptx_x_wait(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t parked = 0;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    f->pc[l] = p->next;
    if (p->guard.kind && !(rd(f, &p->guard, l) & 1))
      continue;
    int r = wait_done(f, k, l);
    if (r < 0)
      return EX_ERROR;
    if (r)
      wr(f, &p->d[0], l, 1);
    else
      park(f, p, l, k->a), parked++;
  }
  f->pc_one = p->next;
  f->pc_n = parked ? 0 : f->nact;
  return EX_DONE;
}

/* The named barrier a thread names (s[0]) and the threads it waits for (s[1], or the block's),
 * the same for all active threads; UINT32_MAX after an error. */
static uint32_t nbar_of(KFrame *f, const KIns *k, const PIns *p, uint32_t *count) {
  uint32_t threads = f->bdim[0] * f->bdim[1] * f->bdim[2], whole = (threads + WARP - 1) / WARP * WARP;
  uint64_t id = 0, b = whole;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uint64_t a = wmask(rd(f, &p->s[0], l), 32), c = p->ns > 1 ? wmask(rd(f, &p->s[1], l), 32) : whole;
    if (i && (a != id || c != b))
      return kernel_error(f, k, l, "threads of one barrier instruction name different barriers or thread counts"),
             UINT32_MAX;
    id = a, b = c;
    if (a >= NBARS)
      return kernel_error(f, k, l, "barrier %llu is not in [0, %d)", (unsigned long long)a, NBARS), UINT32_MAX;
    if (!c || c % WARP || c > whole)
      return kernel_error(f, k, l, "a barrier of %llu threads in a block of %u (%u in whole warps): the count must be "
                          "a multiple of %d up to the block's", (unsigned long long)c, threads, whole, WARP),
             UINT32_MAX;
  }
  *count = b == whole ? threads : (uint32_t)b;
  return (uint32_t)id;
}

/* The active threads (those of list[0..n)) arrive at named barrier id, of count threads; true when
 * that completes it. */
static int nbar_arrive(KFrame *f, const KIns *k, const PSync *sy, uint32_t id, uint32_t count, uint32_t n,
                       uint32_t l0) {
  Slot *arr = &f->u[sy->bars + 2 * id];
  arr->u += n;
  f->u[sy->bars + 2 * NBARS].u++;
  if (arr->u > count)
    return kernel_error(f, k, l0, "%llu threads arrived at barrier %u of %u threads", (unsigned long long)arr->u, id,
                        count);
  if (arr->u < count)
    return 0;
  arr->u = 0;
  f->u[sy->bars + 2 * id + 1].u++;
  sync_point(f, sy);
  return 1;
}

/* bar.arrive a, b (and barrier.arrive): the active threads arrive and go on. */
static int x_nbar_arrive(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t count, id = nbar_of(f, k, p, &count);
  if (id == UINT32_MAX || nbar_arrive(f, k, p->sync, id, count, f->nact, f->act[0]) < 0)
    return EX_ERROR;
  return EX_NEXT;
}

/* bar.sync a[, b] in a kernel that uses bar.arrive: the threads whose guard holds arrive; when
 * that completes the barrier they go on, else they park until it does (x_resume). k->a: the
 * wait's id. */
int ptx_x_nbar_sync(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint32_t *act = f->act, nact = f->nact, m, *sub;
  if (guard_sub(f, k, &p->guard, !p->guard.kind, &sub, &m) == EX_ERROR)
    return EX_ERROR;
  for (uint32_t i = 0; i < nact; i++)
    f->pc[act[i]] = p->next;
  f->pc_one = p->next;
  f->pc_n = nact;
  if (!m)
    return EX_DONE;
  f->act = sub, f->nact = m;
  uint32_t count, id = nbar_of(f, k, p, &count);
  int r = id == UINT32_MAX ? -1 : nbar_arrive(f, k, p->sync, id, count, m, sub[0]);
  uint64_t gen = id == UINT32_MAX ? 0 : f->u[p->sync->bars + 2 * id + 1].u;
  f->act = act, f->nact = nact;
  if (r < 0)
    return EX_ERROR;
  if (r == 0) {
    for (uint32_t i = 0; i < m; i++) {
      f->v[(size_t)(p->sync->park + 1) * f->n + sub[i]].u = gen;
      park(f, p, sub[i], k->a);
    }
    f->pc_n = 0;
  }
  return EX_DONE;
}

/* The kernel's last block: the parked threads whose waits completed go on after them; when none
 * did, the mbarrier waits return false, and a second time with no arrival since is a deadlock. */
static int x_resume(KFrame *f, const KIns *k) {
  const PSync *sy = ((const PIns *)k->aux)->sync;
  uint32_t done = 0;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    Slot *pk = &f->v[(size_t)sy->park * f->n + l];
    const KIns *w = sy->waits[pk->u - 1];
    const PIns *p = w->aux;
    int r = wait_done(f, w, l);
    if (r < 0)
      return EX_ERROR;
    if (r) {
      if (p->mode != SW_NBAR)
        wr(f, &p->d[0], l, 1);
      f->pc[l] = p->next;
      pk->u = 0;
      done++;
    }
  }
  if (!done) {
    Slot *events = &f->u[sy->bars + 2 * NBARS], *last = events + 1;
    bool again = last->u == events->u + 1;
    for (uint32_t i = 0; i < f->nact && !again; i++) { /* the mbarrier waits time out */
      uint32_t l = f->act[i];
      Slot *pk = &f->v[(size_t)sy->park * f->n + l];
      const PIns *p = sy->waits[pk->u - 1]->aux;
      if (p->mode == SW_NBAR)
        continue;
      f->pc[l] = p->next;
      wr(f, &p->d[0], l, 0);
      pk->u = 0;
      done++;
    }
    last->u = events->u + 1;
    if (!done) { /* no thread can go on */
      uint32_t l = f->act[0];
      const KIns *w = sy->waits[f->v[(size_t)sy->park * f->n + l].u - 1];
      const PIns *p = w->aux;
      if (p->mode != SW_NBAR)
        return kernel_error(f, w, l, "deadlock: every thread of the block that has not ended waits, and no mbarrier "
                            "phase they wait for can complete");
      uint64_t id = rd(f, &p->s[0], l);
      uint32_t threads = f->bdim[0] * f->bdim[1] * f->bdim[2];
      uint64_t count = p->ns > 1 ? wmask(rd(f, &p->s[1], l), 32) : threads;
      return kernel_error(f, w, l, "deadlock: barrier %llu waits for %llu threads, %llu arrived, and no other thread "
                          "of the block can arrive (the others ended or wait elsewhere)", (unsigned long long)id,
                          (unsigned long long)count, (unsigned long long)f->u[sy->bars + 2 * id].u);
    }
  }
  f->pc_n = 0;
  return EX_DONE;
}

/* ---- cp.async, mbarrier, named barriers (see "asynchronous copies" above) -------------------------- */

static PSync *sync_of(PComp *pc) {
  if (!pc->sync) {
    PSync *sy = ir_alloc(pc->h->ctx, sizeof *sy);
    sy->park = kernel_new_varying(&pc->kc, 2);
    sy->bars = kernel_new_uniform(&pc->kc, 2 * NBARS + 2);
    pc->sync = sy;
  }
  return pc->sync;
}

/* k (its op, place and operands compiled) as a wait threads may park at: k->a its id. */
static void add_wait(PComp *pc, KIns *k) {
  PSync *sy = sync_of(pc);
  if (sy->nwaits == sy->capwaits) {
    uint32_t cap = sy->capwaits ? 2 * sy->capwaits : 8;
    const KIns **w = ir_alloc(pc->h->ctx, cap * sizeof *w);
    if (sy->nwaits)
      memcpy(w, sy->waits, sy->nwaits * sizeof *w);
    sy->waits = w;
    sy->capwaits = cap;
  }
  KIns *copy = ir_alloc(pc->h->ctx, sizeof *copy);
  *copy = *k;
  k->a = copy->a = sy->nwaits;
  sy->waits[sy->nwaits++] = copy;
  pc->ends_block = true;
}

/* The kernel's end, when it has any of these: the block of x_resume last of all (so that it runs
 * once no other thread can), and x_sync_reset first of all. */
void ptx_sync_finish(PComp *pc) {
  PSync *sy = pc->sync;
  IrCtx *ctx = pc->h->ctx;
  PIns *p = ir_alloc(ctx, sizeof *p);
  p->sync = sy;
  if (sy->nwaits) {
    sy->resume = ptx_new_block(pc);
    KIns *r = ptx_block_add(&pc->bl[sy->resume]);
    memset(r, 0, sizeof *r);
    r->fn = x_resume;
    r->aux = p;
    r->op = sy->waits[0]->op;
    r->loc = sy->waits[0]->loc;
  }
  PBlock *b0 = &pc->bl[0];
  ptx_block_add(b0);
  memmove(b0->ins + 1, b0->ins, (b0->n - 1) * sizeof *b0->ins);
  memset(b0->ins, 0, sizeof *b0->ins);
  b0->ins[0].fn = x_sync_reset;
  b0->ins[0].aux = p;
  b0->ins[0].op = b0->n > 1 ? b0->ins[1].op : sy->waits ? sy->waits[0]->op : NULL;
  b0->ins[0].loc = b0->n > 1 ? b0->ins[1].loc : sy->waits ? sy->waits[0]->loc : NULL;
}

/* The spaces an instruction names, in order (cp.async: .shared then .global). */
static uint32_t spaces_of(const PtxInsn *in, uint8_t *sp, uint32_t cap) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < in->nmods; i++)
    if (in->mods[i].kind == PTX_MOD_SPACE && n < cap)
      sp[n++] = in->mods[i].value;
  return n;
}

/* cp.async.ca/.cg.shared{::cta}.global{.L2::..} [d], [s], size{, src-size | ignore-src}{, policy};
 * cp.async.commit_group; cp.async.wait_group n; cp.async.wait_all;
 * cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [mbar] */
bool ptx_c_cp(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  if (!has(in, "async"))
    return ptx_unsupported(pc, NULL);
  if (has(in, "bulk"))
    return ptx_c_cp_bulk(pc, k, p);
  PSync *sy = sync_of(pc);
  p->sync = sy;
  if (!sy->async) {
    sy->async = true;
    sy->apend = ptx_reserve_private(pc, sizeof(PAsyncTab));
  }
  if (has(in, "commit_group") || has(in, "wait_group") || has(in, "wait_all")) {
    static const char *const allowed[] = {"async", "commit_group", "wait_group", "wait_all", NULL};
    bool wait = has(in, "wait_group");
    if (!ptx_mods(pc, p, allowed, NULL) || !need_opds(pc, wait, wait) || (wait && !ptx_operand(pc, &in->opds[0], &p->s[0])))
      return false;
    p->ns = wait;
    p->mode = wait ? CPG_WAIT : has(in, "wait_all") ? CPG_WAIT_ALL : CPG_COMMIT;
    k->fn = x_cp_group;
    return true;
  }
  if (has(in, "mbarrier")) {
    static const char *const allowed[] = {"async", "mbarrier", "arrive", "noinc", NULL};
    if (!ptx_mods(pc, p, allowed, NULL) || !has(in, "arrive") || p->t != PTX_T_B64 ||
        (p->space != PTX_SPACE_SHARED && p->space != PTX_SPACE_NONE))
      return pc->failed ? false : ptx_unsupported(pc, NULL);
    if (!need_opds(pc, 1, 1) || !ptx_address(pc, p, &in->opds[0], 0))
      return false;
    p->mode = MB_CP_ARRIVE;
    p->combine = has(in, "noinc");
    k->fn = x_mbar;
    return true;
  }
  static const char *const allowed[] = {"async", "ca", "cg", "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B",
                                        NULL};
  bool found[7] = {0};
  uint8_t sp[4];
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (found[1] == found[2] || p->t || spaces_of(in, sp, 4) != 2 || sp[0] != PTX_SPACE_SHARED ||
      sp[1] != PTX_SPACE_GLOBAL)
    return ptx_unsupported(pc, NULL);
  uint32_t nopds = in->nopds - found[3]; /* the cache policy last: a hint */
  if (!need_opds(pc, 3 + found[3], 4 + found[3]))
    return false;
  const PtxOperand *sz = &in->opds[2];
  if (sz->kind != PTX_OPD_INT || (sz->ival != 4 && sz->ival != 8 && sz->ival != 16) || (found[2] && sz->ival != 16))
    return ptx_perr(pc, sz->line, sz->col, "the size of cp.async.%s must be %s", found[2] ? "cg" : "ca",
                    found[2] ? "16" : "4, 8 or 16");
  p->bytes = (uint32_t)sz->ival;
  p->space = PTX_SPACE_SHARED;
  if (!ptx_address(pc, p, &in->opds[0], 0))
    return false;
  p->s[4] = (POpd){.kind = O_IMM, .imm = (uint64_t)p->off};
  p->space = PTX_SPACE_GLOBAL;
  if (!ptx_address(pc, p, &in->opds[1], 1))
    return false;
  if (nopds == 4) {
    const PtxOperand *o = &in->opds[3];
    bool pred = o->kind == PTX_OPD_REG && o->decl->type == PTX_T_PRED;
    if (!ptx_operand(pc, o, &p->s[pred ? 3 : 2]))
      return false;
  }
  p->ns = 5;
  p->memo = kernel_new_memo(&pc->kc, p->bytes);
  k->fn = x_cp_async;
  return true;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.L2::cache_hint} [d], [s], size,
 * [mbar]{, policy} (clusters are of one block: shared::cluster is the block's own) */
bool ptx_c_cp_bulk(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"async", "bulk", "mbarrier::complete_tx::bytes", "L2::cache_hint", NULL};
  bool found[4] = {0};
  uint8_t sp[4];
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  if (!found[2] || p->t || spaces_of(in, sp, 4) != 2 || sp[0] != PTX_SPACE_SHARED || sp[1] != PTX_SPACE_GLOBAL)
    return ptx_unsupported(pc, NULL);
  if (!need_opds(pc, 4 + found[3], 4 + found[3]))
    return false;
  p->sync = sync_of(pc);
  p->space = PTX_SPACE_SHARED;
  if (!ptx_address(pc, p, &in->opds[3], 3))
    return false;
  p->off2 = p->off;
  if (!ptx_address(pc, p, &in->opds[0], 0))
    return false;
  p->s[4] = (POpd){.kind = O_IMM, .imm = (uint64_t)p->off};
  p->space = PTX_SPACE_GLOBAL;
  if (!ptx_address(pc, p, &in->opds[1], 1) || !ptx_operand(pc, &in->opds[2], &p->s[2]))
    return false;
  p->ns = 5;
  p->memo = kernel_new_memo(&pc->kc, 16);
  k->fn = x_cp_bulk;
  return true;
}

static const char *const mbar_names[] = {"init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx",
                                         "pending_count", "test_wait", "try_wait"};

/* mbarrier.OP{.sem}{.scope}{.shared{::cta}}.b64 (see x_mbar and ptx_x_wait for the forms) */
bool ptx_c_mbarrier(PComp *pc, KIns *k, PIns *p) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx",
                                        "pending_count", "test_wait", "try_wait", "parity", "noComplete", "release",
                                        "acquire", "relaxed", "cta", "cluster", NULL};
  bool found[16] = {0};
  if (!ptx_mods(pc, p, allowed, found))
    return false;
  int op = name_index(mbar_names, 9, in);
  if (op < 0 || p->t != PTX_T_B64 || p->t2 || (p->space != PTX_SPACE_SHARED && p->space != PTX_SPACE_NONE) ||
      (found[9] && op < 7) || (found[10] && op != 2 && op != 3) || (found[4] && op != 2 && op != 3 && op != 4))
    return ptx_unsupported(pc, NULL);
  p->sync = sync_of(pc);
  if (op == 6) { /* pending_count.b64 d, state */
    if (!need_opds(pc, 2, 2) || !reg_operand(pc, &in->opds[0], &p->d[0]) || !ptx_operand(pc, &in->opds[1], &p->s[1]))
      return false;
    p->nd = 1, p->ns = 2;
    p->mode = MB_PENDING;
    k->fn = x_mbar;
    return true;
  }
  if (op >= 7) { /* test_wait / try_wait{.parity} d, [a], state | parity{, time hint} */
    if (!need_opds(pc, 3, op == 8 ? 4 : 3) || !reg_operand(pc, &in->opds[0], &p->d[0]))
      return false;
    if (in->opds[0].decl->type != PTX_T_PRED)
      return ptx_perr(pc, in->opds[0].line, in->opds[0].col, "the result of mbarrier.%s must be a predicate",
                      mbar_names[op]);
    if (!ptx_address(pc, p, &in->opds[1], 0) || !ptx_operand(pc, &in->opds[2], &p->s[1]))
      return false;
    p->nd = 1, p->ns = 2;
    p->mode = found[9] ? SW_MBAR_PARITY : SW_MBAR_STATE;
    k->fn = ptx_x_wait;
    add_wait(pc, k);
    return true;
  }
  bool arrive = op == 2 || op == 3;
  uint32_t i = 0;
  if (arrive) { /* arrive{_drop}{.expect_tx}{.noComplete} d | _, [a]{, count | tx count} */
    if (!need_opds(pc, 2, 3))
      return false;
    if (in->opds[0].kind != PTX_OPD_SINK) {
      if (!reg_operand(pc, &in->opds[0], &p->d[0]))
        return false;
      p->nd = 1;
    }
    i = 1;
    p->combine = found[4];
    p->nan = found[10];
    if (p->nan && in->nopds != 3)
      return ptx_unsupported(pc, "noComplete without a count");
    if (p->combine && in->nopds != 3)
      return ptx_unsupported(pc, "expect_tx without a transaction count");
  } else if (!need_opds(pc, op == 1 ? 1 : 2, op == 1 ? 1 : 2))
    return false;
  if (!ptx_address(pc, p, &in->opds[i], 0))
    return false;
  if (i + 1u < in->nopds && !ptx_operand(pc, &in->opds[i + 1], &p->s[p->combine ? 2 : 1]))
    return false;
  p->ns = 3;
  p->mode = (uint8_t)(op == 0 ? MB_INIT : op == 1 ? MB_INVAL : op == 2 ? MB_ARRIVE : op == 3 ? MB_DROP
                      : op == 4 ? MB_EXPECT_TX : MB_COMPLETE_TX);
  k->fn = x_mbar;
  return true;
}

/* Whether fn or a function it calls has bar.arrive or barrier.arrive (seen: the functions looked
 * at, *nseen of 256). */
static bool calls_bar_arrive(const PtxModule *m, const PtxFunc *fn, const PtxFunc **seen, uint32_t *nseen) {
  for (uint32_t i = 0; i < *nseen; i++)
    if (seen[i] == fn)
      return false;
  if (*nseen == 256)
    return false;
  seen[(*nseen)++] = fn;
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    const PtxStmt *s = &fn->stmts[i];
    if (s->kind != PTX_STMT_INSN)
      continue;
    if ((s->insn.op == PTX_OP_BAR || s->insn.op == PTX_OP_BARRIER) && ptx_insn_has_mod(&s->insn, "arrive"))
      return true;
    for (uint32_t j = 0; s->insn.op == PTX_OP_CALL && j < s->insn.nopds; j++) {
      const PtxFunc *g = s->insn.opds[j].kind == PTX_OPD_SYM ? ptx_module_func(m, s->insn.opds[j].name) : NULL;
      if (g && g->defined && calls_bar_arrive(m, g, seen, nseen))
        return true;
    }
  }
  return false;
}

/* Whether the kernel has bar.arrive (or barrier.arrive, in it or a function it calls): then its
 * barriers count arrivals (ptx_c_nbar). */
bool ptx_module_bar_arrive(PComp *pc) {
  if (!pc->bar_arrive) {
    const PtxFunc *seen[256];
    uint32_t nseen = 0;
    pc->bar_arrive = calls_bar_arrive(pc->m, pc->fn, seen, &nseen) ? 1 : 2;
  }
  return pc->bar_arrive == 1;
}

/* bar.arrive a, b / bar.sync a[, b] (and barrier.*) in a module that uses bar.arrive: named barriers
 * that count arrivals (x_nbar_arrive, ptx_x_nbar_sync). */
bool ptx_c_nbar(PComp *pc, KIns *k, PIns *p, bool arrive) {
  const PtxInsn *in = pc->insn;
  if (has(in, "red"))
    return ptx_unsupported(pc, "bar.red in a module that uses bar.arrive");
  if (!need_opds(pc, arrive ? 2 : 1, 2))
    return false;
  p->ns = (uint8_t)in->nopds;
  for (uint32_t i = 0; i < in->nopds; i++)
    if (!ptx_operand(pc, &in->opds[i], &p->s[i]))
      return false;
  p->sync = sync_of(pc);
  if (arrive) {
    k->fn = x_nbar_arrive;
    return true;
  }
  p->mode = SW_NBAR;
  k->fn = ptx_x_nbar_sync;
  add_wait(pc, k);
  return true;
}
