/* race.c - happens-before and race detection.
 *
 * Happens-before is reachability in the op graph plus the host's program order, tracked with
 * vector clocks over chains. A chain is a run of ops each ordered after the one before: the host
 * is chain 0; an op extends the chain of a dependency that is that chain's last op (so a
 * stream's next op extends its last op's chain), else it starts a chain. An op gets the epoch
 * chain@seq (seq = ++chain.seq) and the clock  vc = join(host clock at submit, deps' clocks),
 * vc[chain] = seq. An access at epoch c@s happens before op X iff X.vc[c] >= s: one load, as with
 * FastTrack's epochs (Flanagan and Freund, PLDI 2009). Submitting is a host action, so every op
 * includes the host's clock: host accesses before a submit are ordered before the op; the host's
 * seq then grows, so its later ones are not. A host wait joins the waited op's clock into the
 * host's.
 *
 * Access records. Per allocation, a list of byte ranges, each with its epoch, its kind (read,
 * write, atomic, free) and its location. A new access is checked against each overlapping record:
 * a conflict (race_conflict: one of the two writes, unless both are atomic) with neither ordered
 * before the other is a race. The check runs when the access becomes known: at submit for
 * memcpy/memset, at completion for kernels and host
 * callbacks ("late" ops, which report their accesses while they run). So a late op K may record
 * after an op C ordered after it was checked, and K's check must also ask whether C is after K:
 * C.vc[K.chain] >= K.seq, which takes C's clock.
 *
 * What is kept, and when it is dropped (this is what keeps the cost linear in the program):
 *   per op      its epoch and its clock, one entry per chain in use; later ops that depend on it
 *               join the clock, so it lives as long as the op.
 *   per chain   seq, last op and pins: the records and late ops in flight that name it. A chain
 *               without pins goes on a free list and the next op that starts a chain takes it
 *               (O(1)), its seq going on from where it was. That is exact: "c@s before X?" is
 *               only asked of a record or of a late op in flight, and those pin c, so never of an
 *               op of an earlier use of c; every seq of the new use exceeds every seq of the old
 *               one, so an entry X.vc[c] coming from the old use is below any epoch of the new.
 *               The number of chains, and so the size of every clock, is bounded by the records
 *               and late ops alive at one time, not by the length of the program.
 *   per record  range, epoch, kind, location, op id; the access's clock only while a late op that
 *               was in flight when it was recorded still is ("made"), since only such an op can
 *               be ordered before the record's access and record after it. Host accesses and
 *               late ops' own accesses never keep one (whatever is before them is done).
 *               A record O is dropped when a new access N covers it, O happens before N, and
 *               every access that conflicts with O conflicts with N (race_subsumes): a later
 *               access racing with O races with N too, unless it is ordered before N, which only
 *               a late op in flight can be. A record the host's clock covers is dropped as well:
 *               every later access (the host's, or an op's, which includes the host's clock) is
 *               ordered after it, again but for late ops in flight.
 *   per late op its index in submission order (lidx), in a ring: the first one in flight is the
 *               low-water mark. When late ops other than N's own are in flight, a dropped record
 *               moves to its allocation's stale list instead, stamped with the last lidx given
 *               out ("gone"); only late ops with an lidx up to that stamp still check it, and once
 *               the low-water mark passes the stamp it is freed, as are "made" clocks.
 * With the drops, the live records of a byte range are its last write and the reads since that
 * nothing orders (FastTrack's write epoch and read set), so an access costs O(1) in the common
 * case, and an op O(chains in use). An allocation's live records are skip lists by length class
 * with fingers (race_set.c), so an access finds the ones it overlaps in O(1) when it follows the
 * one before in offset order (a kernel's accesses do), else in the log of their number, however
 * many separate ranges earlier kernels left; the drop by the host's clock is tried on those, and
 * on all of the allocation's records once their number doubled since the last sweep
 * (rec_sweep). Under `serial` no late op is ever in flight at a submit, so
 * nothing goes stale; under `threads` the stale lists hold what the ops running meanwhile may
 * still race with.
 *
 * Exactness. Nothing is traded for memory: if an allocation fails, race checking stops with a
 * warning. With GPUINTERP_RACE_ORACLE=1 an exact reference runs alongside (race_oracle.c: full
 * clocks over chains never reused, every access kept) and the run aborts when its verdict on an
 * access differs from this one's. `--diff` does not read these clocks: tools/diff.c rebuilds
 * happens-before from the traces, whose edges and accesses do not depend on them, and skips the
 * conflicting pairs the reference does not order because the sim reports those as races, which
 * the verdicts here guarantee.
 *
 * Frees are the host's: a free sits at the host's point. A stream-ordered or token free
 * (mgpuMemFree, gpu.dealloc async) also waits for an op, and is ordered after it, but the host is
 * not: the sim waits for the op only so the memory outlives its users, and the program's host
 * never waited. Such a free is checked with the host's clock joined with the op's
 * (race_free_after). A kernel that touches memory freed before it ran still has that access
 * checked against the free.
 *
 * Locking: all with dev->mu held.
 */
#include "sim/simint.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t vc_get(const Vc *v, uint32_t c) { return c < v->n ? v->c[c] : 0; }

static Vc *vc_new(SimDevice *dev, uint32_t n) {
  Vc *v = dev->free_vcs;
  if (v && v->cap >= n) {
    dev->free_vcs = v->next;
  } else {
    uint32_t cap = (n + 7) & ~7u;  /* clocks are many: no more than the chains in use */
    v = malloc(sizeof *v + cap * sizeof v->c[0]);
    if (!v)
      return NULL;
    v->cap = cap;
  }
  v->next = NULL;
  v->refs = 1;
  v->n = n;
  return v;
}

void vc_unref(SimDevice *dev, Vc *vc) {
  if (!vc || --vc->refs > 0)
    return;
  if (vc->cap < dev->nchains) {  /* too small for any new clock */
    free(vc);
    return;
  }
  vc->next = dev->free_vcs;
  dev->free_vcs = vc;
}

/* Race checking cannot go on soundly (out of memory): stop it, and say so. */
static void race_off(SimDevice *dev, const char *loc) {
  if (!dev->race)
    return;
  dev->race = false;
  SimDiag d = {.severity = SIM_SEV_WARNING, .kind = SIM_DIAG_OTHER, .loc = loc};
  diag_emit(dev, &d, "out of memory for race checking: races are not checked from here on");
}

/* Make room for chain index n-1 in the host's clock. */
static bool host_vc_fit(SimDevice *dev, uint32_t n) {
  Vc *h = dev->host_vc;
  if (h && h->cap >= n) {
    for (uint32_t i = h->n; i < n; i++)
      h->c[i] = 0;
    if (h->n < n)
      h->n = n;
    return true;
  }
  uint32_t cap = h ? h->cap * 2 : 8;
  while (cap < n)
    cap *= 2;
  Vc *v = realloc(h, sizeof *v + cap * sizeof v->c[0]);
  if (!v)
    return false;
  for (uint32_t i = h ? v->n : 0; i < n; i++)
    v->c[i] = 0;
  v->cap = cap;
  v->n = n;
  v->refs = 1;
  v->next = NULL;
  dev->host_vc = v;
  return true;
}

void race_init(SimDevice *dev) {
  if (!dev->race)
    return;
  dev->chains = malloc(8 * sizeof *dev->chains);
  if (!dev->chains || !host_vc_fit(dev, 1)) {
    dev->race = false;
    return;
  }
  dev->capchains = 8;
  dev->nchains = 1;
  dev->chains[0] = (Chain){.seq = 1};
  dev->host_vc->c[0] = 1;
  race_oracle_init(dev);
}

/* ---- chains ---- */

static void chain_pin(SimDevice *dev, uint32_t c) {
  if (c)
    dev->chains[c].pins++;
}

/* Put c on the free list if nothing pins it (it may still be extended meanwhile: harmless). */
static void chain_release(SimDevice *dev, uint32_t c) {
  Chain *ch = &dev->chains[c];
  if (!c || ch->pins || ch->free)
    return;
  void *p = xrealloc_array(dev->free_chains, &dev->capfree_chains, dev->nfree_chains + 1,
                           sizeof *dev->free_chains);
  if (!p)
    return;  /* out of memory: the chain is just not reused */
  dev->free_chains = p;
  dev->free_chains[dev->nfree_chains++] = c;
  ch->free = true;
}

static void chain_unpin(SimDevice *dev, uint32_t c) {
  if (c && --dev->chains[c].pins == 0)
    chain_release(dev, c);
}

/* A chain for a new run of ops: one nothing pins, else a new one. UINT32_MAX: out of memory. */
static uint32_t chain_new(SimDevice *dev) {
  while (dev->nfree_chains) {
    uint32_t c = dev->free_chains[--dev->nfree_chains];
    dev->chains[c].free = false;
    if (!dev->chains[c].pins)
      return c;
  }
  if (dev->nchains == dev->capchains) {
    Chain *p = realloc(dev->chains, 2 * dev->capchains * sizeof *p);
    if (!p)
      return UINT32_MAX;
    dev->chains = p;
    dev->capchains *= 2;
  }
  if (!host_vc_fit(dev, dev->nchains + 1))
    return UINT32_MAX;
  uint32_t c = dev->nchains++;
  dev->chains[c] = (Chain){0};
  return c;
}

void race_op_begin(SimDevice *dev, Op *op, Op *const *deps, size_t ndeps) {
  uint32_t c = UINT32_MAX;
  for (size_t i = 0; i < ndeps && c == UINT32_MAX; i++) {
    const Op *d = deps[i];
    if (d && d->vc && d->chain && dev->chains[d->chain].tail == d->id)
      c = d->chain;
  }
  if (c == UINT32_MAX)
    c = chain_new(dev);
  Vc *vc = c == UINT32_MAX ? NULL : vc_new(dev, dev->nchains);
  if (!vc) {
    race_off(dev, op->d.loc);
    return;
  }
  memcpy(vc->c, dev->host_vc->c, dev->nchains * sizeof vc->c[0]);
  for (size_t i = 0; i < ndeps; i++) {
    const Vc *dv = deps[i] ? deps[i]->vc : NULL;
    if (!dv)
      continue;
    for (uint32_t k = 0; k < dv->n; k++)
      if (dv->c[k] > vc->c[k])
        vc->c[k] = dv->c[k];
  }
  Chain *ch = &dev->chains[c];
  op->seq = ++ch->seq;
  ch->tail = op->id;
  vc->c[c] = op->seq;
  op->chain = c;
  op->vc = vc;
  op->lidx = 0;
  chain_release(dev, c);  /* until its records or its run pin it */
  race_oracle_op_begin(dev, op, deps, ndeps);
}

void race_host_submitted(SimDevice *dev) {
  dev->chains[0].seq = ++dev->host_vc->c[0];
  race_oracle_host_submitted(dev);
}

void race_host_join(SimDevice *dev, const Op *op) {
  const Vc *v = op->vc;
  if (!v)
    return;
  for (uint32_t k = 0; k < v->n; k++)
    if (v->c[k] > dev->host_vc->c[k])
      dev->host_vc->c[k] = v->c[k];
  race_oracle_host_join(dev, op);
}

void race_host_join_all(SimDevice *dev) {
  for (uint32_t k = 1; k < dev->nchains; k++)
    if (dev->chains[k].seq > dev->host_vc->c[k])
      dev->host_vc->c[k] = dev->chains[k].seq;
  race_oracle_host_join_all(dev);
}

/* ---- late ops ---- */

/* A kernel or host op was submitted: it records its accesses when it completes. */
void race_late_begin(SimDevice *dev, Op *op) {
  if (!op->vc)
    return;
  if (dev->nlate == dev->caplate) {
    size_t cap = dev->caplate ? 2 * dev->caplate : 64;
    Op **p = malloc(cap * sizeof *p);
    if (!p) {
      race_off(dev, op->d.loc);
      return;
    }
    for (size_t i = 0; i < dev->nlate; i++)
      p[i] = dev->late[(dev->late_head + i) % dev->caplate];
    free(dev->late);
    dev->late = p;
    dev->late_head = 0;
    dev->caplate = cap;
  }
  op->lidx = ++dev->late_next;
  if (!dev->nlate)
    dev->late_base = op->lidx;
  dev->late[(dev->late_head + dev->nlate++) % dev->caplate] = op;
  dev->nlate_live++;
  chain_pin(dev, op->chain);
}

/* The late op completed and recorded its accesses. */
void race_late_end(SimDevice *dev, Op *op) {
  if (!op->lidx)
    return;
  dev->late[(dev->late_head + (op->lidx - dev->late_base)) % dev->caplate] = NULL;
  op->lidx = 0;
  dev->nlate_live--;
  chain_unpin(dev, op->chain);
  while (dev->nlate && !dev->late[dev->late_head]) {
    dev->late_head = (dev->late_head + 1) % dev->caplate;
    dev->nlate--;
    dev->late_base++;
  }
}

/* The lowest lidx of a late op in flight (one past the last given out if none). */
static uint64_t late_low(const SimDevice *dev) {
  return dev->nlate ? dev->late_base : dev->late_next + 1;
}

/* ---- access records ---- */

/* The one rule for every pair of unordered accesses: at least one writes, unless both are
   atomic (atomics of two unordered launches do not race, as on a GPU). */
bool sim_access_conflict(SimAccess a, SimAccess b) {
  return (a != SIM_ACC_READ || b != SIM_ACC_READ) && !(a == SIM_ACC_ATOMIC && b == SIM_ACC_ATOMIC);
}

static SimAccess rec_kind(const Rec *r) {
  return r->atomic ? SIM_ACC_ATOMIC : r->write || r->isfree ? SIM_ACC_WRITE : SIM_ACC_READ;
}

static const char *acc_verb(const Rec *r) {
  SimAccess k = rec_kind(r);
  return k == SIM_ACC_ATOMIC ? "atomically updates" : k == SIM_ACC_WRITE ? "writes" : "reads";
}

bool race_conflict(const Rec *x, const Rec *y) {
  return x->isfree || y->isfree || sim_access_conflict(rec_kind(x), rec_kind(y));
}

/* Does every access that conflicts with o conflict with n? (Ranges aside.) A plain write or a
   free conflicts with everything; otherwise only an access of o's own kind does. */
static bool race_subsumes(const Rec *n, const Rec *o) {
  return n->isfree || rec_kind(n) == SIM_ACC_WRITE || rec_kind(n) == rec_kind(o);
}

static const char *mem_kind_name(SimMemKind k) {
  switch (k) {
  case SIM_MEM_DEVICE: return "device memory";
  case SIM_MEM_HOST_SHARED: return "host-shared memory";
  case SIM_MEM_HOST_REGISTERED: return "registered host memory";
  default: return "host memory";
  }
}

/* Report the race of the new access n with the record r. */
static void report(SimDevice *dev, const Alloc *a, const Rec *r, const Rec *n) {
  size_t olo = n->lo > r->lo ? n->lo : r->lo, ohi = n->hi < r->hi ? n->hi : r->hi;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_RACE, .loc = n->loc, .loc2 = r->loc,
               .alloc_loc = a->loc, .op = n->op, .op2 = r->op, .offset = olo,
               .bytes = ohi - olo};
  const char *who = n->op ? "" : " (host)", *who2 = r->op ? "" : " (host)";
  if (n->isfree || r->isfree) {
    d.race = SIM_RACE_USE_AFTER_FREE;
    const char *fr = n->isfree ? n->loc : r->loc, *us = n->isfree ? r->loc : n->loc;
    bool uw = n->isfree ? r->write : n->write;
    diag_emit(dev, &d, "use after free: '%s' frees the %s allocated at '%s' while '%s' may still %s "
              "bytes [%zu, %zu) of it; nothing orders the two", LOC(fr), mem_kind_name(a->kind),
              LOC(a->loc), LOC(us), uw ? "write" : "read", olo, ohi);
    return;
  }
  d.race = n->write && r->write ? SIM_RACE_WRITE_WRITE : SIM_RACE_READ_WRITE;
  diag_emit(dev, &d, "data race (%s): '%s'%s %s and '%s'%s %s bytes [%zu, %zu) of the %s "
            "allocated at '%s'; nothing orders the two",
            d.race == SIM_RACE_WRITE_WRITE ? "write-write" : "read-write", LOC(n->loc), who,
            acc_verb(n), LOC(r->loc), who2, acc_verb(r), olo,
            ohi, mem_kind_name(a->kind), LOC(a->loc));
}

/* Report the race of n with r unless r's op was already reported against in this check (told:
   up to 8 ops, one report per pair). */
static void report_once(SimDevice *dev, const Alloc *a, const Rec *r, const Rec *n, uint64_t told[8],
                        size_t *ntold) {
  size_t k = 0;
  while (k < *ntold && told[k] != r->op)
    k++;
  if (k == *ntold && *ntold < 8) {
    told[(*ntold)++] = r->op;
    report(dev, a, r, n);
  }
}

static void rec_free(SimDevice *dev, Rec *r) {
  vc_unref(dev, r->vc);
  r->vc = NULL;
  chain_unpin(dev, r->chain);
}

/* Move a dropped record to a's stale list (late ops in flight may still race with it). */
static bool rec_stale(SimDevice *dev, Alloc *a, Rec *r) {
  if (a->stale_lo && a->stale_lo * 2 >= a->nstale) {  /* compact: the front is freed */
    memmove(a->stale, a->stale + a->stale_lo, (a->nstale - a->stale_lo) * sizeof *a->stale);
    a->nstale -= a->stale_lo;
    a->stale_lo = 0;
  }
  void *p = xrealloc_array(a->stale, &a->capstale, a->nstale + 1, sizeof *a->stale);
  if (!p)
    return false;
  a->stale = p;
  r->gone = dev->late_next;
  a->stale[a->nstale++] = *r;
  return true;
}

/* Does the new access n (clock nvc; late: by the late op `op` in flight, clock kept by records
   in r->vc) race with the record r? Ranges overlap. */
static bool races(const Rec *r, const Rec *n, const Vc *nvc, const Op *late, bool *before) {
  *before = vc_get(nvc, r->chain) >= r->seq;
  bool after = late && r->vc && vc_get(r->vc, late->chain) >= late->seq;
  return !*before && !after && race_conflict(r, n);
}

/* Drop the record in node t: free it, or (stale) move it to the stale list. False: out of memory
   for the stale list (it stays live, which is exact too). */
static bool rec_drop(SimDevice *dev, Alloc *a, uint32_t t, bool stale) {
  Rec *r = race_set_rec(a, t);
  if (stale && !rec_stale(dev, a, r))
    return false;
  if (!stale)
    rec_free(dev, r);
  race_set_remove(a, t);
  return true;
}

/* What every access used to do to all of a's records, done when their number doubled since the
   last time (so O(1) per record): give back the clocks no late op in flight can need, and drop
   the records the host's clock covers (any later access is ordered after them; late ops in
   flight may still race with them, so then they go stale). A record left meanwhile is checked
   by the accesses that overlap it, which is exact: what the host's clock covers is ordered
   before every later access but those of late ops already in flight, as a stale record is. */
static void rec_sweep(SimDevice *dev, Alloc *a, uint64_t low) {
  for (size_t i = 0; i < a->nrecs; i++) {
    Rec *r = &a->recs[i];
    if (!r->ord)
      continue;
    if (r->vc && r->made < low) {
      vc_unref(dev, r->vc);
      r->vc = NULL;
    }
    if (vc_get(dev->host_vc, r->chain) >= r->seq)
      rec_drop(dev, a, (uint32_t)i + 1, dev->nlate_live > 0);
  }
  a->sweep_at = a->nlive * 2 > 64 ? a->nlive * 2 : 64;
}

/* Check the access n (range, kind, loc, op id) by op (NULL: the host, at its current point)
   against a's records, then record it. nvc: what the access is ordered after; rv: the clock its
   record may keep (non-late ops and race_free_after's joined clock), NULL for host accesses and
   late ops. with: race_free_after's op, for the oracle. The records overlapping n are taken in
   the order they were recorded, so reports come out in that order. */
static void access_at(SimDevice *dev, Alloc *a, Rec n, const Op *op, const Vc *nvc, Vc *rv,
                      const Op *with) {
  const Op *late = op && op->lidx ? op : NULL;
  uint64_t low = late_low(dev);
  bool others = dev->nlate_live > (late ? 1u : 0u);  /* late ops in flight besides op */
  bool raced = false;
  uint64_t told[8];  /* ops already reported against in this call (one report per pair) */
  size_t ntold = 0;
  if (late) {  /* first the stale records it was in flight for, from the newest back */
    for (size_t i = a->nstale; i-- > a->stale_lo && a->stale[i].gone >= late->lidx;) {
      Rec *r = &a->stale[i];
      bool before;
      if (r->lo < n.hi && n.lo < r->hi && races(r, &n, nvc, late, &before)) {
        raced = true;
        report_once(dev, a, r, &n, told, &ntold);
      }
    }
  }
  size_t nhits = 0;
  if (!race_set_find(a, n.lo, n.hi, &dev->hits, &dev->caphits, &nhits)) {
    race_off(dev, n.loc);
    return;
  }
  for (size_t i = 0; i < nhits; i++) {
    uint32_t t = dev->hits[i].t;
    Rec *r = race_set_rec(a, t);
    if (r->vc && r->made < low) {  /* every late op it could be after is done */
      vc_unref(dev, r->vc);
      r->vc = NULL;
    }
    bool drop = false, stale = false, before;
    if (races(r, &n, nvc, late, &before)) {
      raced = true;
      report_once(dev, a, r, &n, told, &ntold);
    }
    /* covered and subsumed: only a late op in flight ordered before n may still race with r,
       and there is none if n is late itself (whatever is before it is done) */
    if (before && n.lo <= r->lo && r->hi <= n.hi && race_subsumes(&n, r)) {
      drop = true;
      stale = !late && others;
    }
    /* covered by the host's clock: any late op in flight may still race with r, n's own too
       (its other accesses are still to come) */
    if (!drop && vc_get(dev->host_vc, r->chain) >= r->seq) {
      drop = true;
      stale = dev->nlate_live > 0;
    }
    if (drop)
      rec_drop(dev, a, t, stale);
  }
  if (a->nlive >= a->sweep_at)
    rec_sweep(dev, a, low);
  while (a->stale_lo < a->nstale && a->stale[a->stale_lo].gone < low)
    rec_free(dev, &a->stale[a->stale_lo++]);
  if (a->stale_lo == a->nstale)
    a->stale_lo = a->nstale = 0;
  if (dev->oracle)
    race_oracle_access(dev, a, &n, op, with, raced);
  if (rv && dev->nlate_live > 0) {
    rv->refs++;
    n.vc = rv;
    n.made = dev->late_next;
  }
  if (!race_set_add(a, &n)) {
    if (n.vc)
      vc_unref(dev, n.vc);
    race_off(dev, n.loc);
    return;
  }
  chain_pin(dev, n.chain);
}

static void access_kind(SimDevice *dev, Alloc *a, size_t lo, size_t hi, bool write, bool isfree,
                        bool atomic, const Op *op, const char *loc) {
  if (!dev->race || hi <= lo)
    return;
  const Vc *nvc = op ? op->vc : dev->host_vc;
  if (!nvc)
    return;
  Rec n = {.lo = lo, .hi = hi, .chain = op ? op->chain : 0,
           .seq = op ? op->seq : dev->host_vc->c[0], .loc = loc, .op = op ? op->id : 0,
           .write = write || isfree || atomic, .isfree = isfree, .atomic = atomic};
  access_at(dev, a, n, op, nvc, op && !op->lidx ? op->vc : NULL, NULL);
}

void race_access(SimDevice *dev, Alloc *a, size_t lo, size_t hi, bool write, bool isfree,
                 const Op *op, const char *loc) {
  access_kind(dev, a, lo, hi, write, isfree, false, op, loc);
}

void race_access_kind(SimDevice *dev, Alloc *a, size_t lo, size_t hi, SimAccess kind, const Op *op,
                      const char *loc) {
  access_kind(dev, a, lo, hi, kind == SIM_ACC_WRITE, false, kind == SIM_ACC_ATOMIC, op, loc);
}

/* A free of all of a that waits for op: it sits at the host's current point (so everything the
   host does from here on, and every op it submits, is ordered after it) but is ordered after op
   too, which the host itself is not: its clock is the host's joined with op's. The host's chain
   and seq name it, since what is ordered after the host's point is ordered after the free; the
   record keeps the joined clock while late ops are in flight, so one recording late learns it
   was ordered before the free when op was ordered after it. */
void race_free_after(SimDevice *dev, Alloc *a, const Op *op, const char *loc) {
  if (!dev->race || !a->bytes)
    return;
  if (!op->vc) {
    race_access(dev, a, 0, a->bytes, true, true, NULL, loc);
    return;
  }
  Vc *j = vc_new(dev, dev->nchains);
  if (!j) {
    race_off(dev, loc);
    return;
  }
  memcpy(j->c, dev->host_vc->c, dev->nchains * sizeof j->c[0]);
  for (uint32_t k = 0; k < op->vc->n; k++)
    if (op->vc->c[k] > j->c[k])
      j->c[k] = op->vc->c[k];
  Rec n = {.lo = 0, .hi = a->bytes, .chain = 0, .seq = dev->host_vc->c[0], .loc = loc,
           .write = true, .isfree = true};
  access_at(dev, a, n, NULL, j, j, op);
  vc_unref(dev, j);
}

void race_recs_clear(SimDevice *dev, Alloc *a) {
  for (size_t i = 0; i < a->nrecs; i++)
    if (a->recs[i].ord)
      rec_free(dev, &a->recs[i]);
  for (size_t i = a->stale_lo; i < a->nstale; i++)
    rec_free(dev, &a->stale[i]);
  race_set_clear(a);
  free(a->stale);
  a->stale = NULL;
  a->stale_lo = a->nstale = a->capstale = 0;
  a->sweep_at = 0;
  race_oracle_recs_clear(dev, a);
}

void race_free_all(SimDevice *dev) {
  race_oracle_free(dev);
  while (dev->free_vcs) {
    Vc *v = dev->free_vcs;
    dev->free_vcs = v->next;
    free(v);
  }
  free(dev->host_vc);
  dev->host_vc = NULL;
  free(dev->chains);
  dev->chains = NULL;
  free(dev->free_chains);
  dev->free_chains = NULL;
  free(dev->late);
  dev->late = NULL;
  free(dev->hits);
  dev->hits = NULL;
}
