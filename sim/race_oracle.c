/* race_oracle.c - an exact happens-before reference that race.c is checked against.
 *
 * With GPUINTERP_RACE_ORACLE=1 (or =stats, which also prints how many accesses were compared when
 * the device is destroyed) in the environment when a device is created, every op, host
 * synchronization and access that race.c sees is also fed here, where nothing is dropped: each
 * op gets a full vector clock over a chain decomposition whose chains are never reused (an op
 * extends the chain of a dependency that is that chain's last op, else starts a new one; the host
 * is chain 0), and every access of an allocation is kept with the clock it was made at until the
 * allocation is given back. An access races iff it conflicts (race_conflict: race.c's own
 * predicate) with an overlapping earlier access and neither of the two is ordered before the
 * other, both directions asked of every pair: the textbook vector-clock detector.
 *
 * race.c hands over its own verdict for each access (does it race with an earlier one?); where
 * the two differ, both are printed to stderr and the process aborts, so any test run under the
 * oracle fails at the first access the pruned detector gets wrong. Costs O(ops x chains) memory
 * and O(accesses^2) time: for tests only.
 *
 * Locking: all with dev->mu held, like race.c.
 */
#include "sim/simint.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct RaceOracle RaceOracle;

typedef struct OVc {
  uint32_t n;
  uint32_t c[];
} OVc;

typedef struct OOp {   /* an op, by id */
  uint32_t chain, seq;
  const OVc *vc;
} OOp;

typedef struct ORec {  /* an access: race.c's record (range, kind, loc, op) at the oracle's epoch */
  Rec r;
  uint32_t chain, seq;
  const OVc *vc;       /* what the access was ordered after */
} ORec;

typedef struct OAlloc {
  ORec *recs;
  size_t n, cap;
} OAlloc;

struct RaceOracle {
  OOp *ops;            /* by op id */
  size_t capops;
  uint64_t *tail;      /* per chain: id of its last op */
  uint32_t *seq;       /* per chain: last seq */
  uint32_t nchains;
  size_t captail, capseq;
  uint32_t *host;      /* the host's clock, nchains entries */
  size_t caphost;
  const OVc *host_snap;/* a copy of it, until it changes */
  OAlloc *allocs;      /* by allocation id */
  size_t capallocs;
  OVc **clocks;        /* every clock made (freed with the oracle) */
  size_t nclocks, capclocks;
  bool stats;          /* GPUINTERP_RACE_ORACLE=stats */
  uint64_t naccesses, nraces;
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  void *q = xrealloc_array(p, cap, need, elem);
  if (!q) {
    fputs("sim: race oracle: out of memory\n", stderr);
    abort();
  }
  return q;
}

/* Grow an array indexed by id to hold index i, zeroing what is new. */
static void *grow_zero(void *p, size_t *cap, size_t i, size_t elem) {
  size_t old = *cap;
  if (i < old)
    return p;
  p = grow(p, cap, i + 1, elem);
  memset((char *)p + old * elem, 0, (*cap - old) * elem);
  return p;
}

static OVc *clock_new(RaceOracle *o, uint32_t n) {
  OVc *v = calloc(1, sizeof *v + n * sizeof v->c[0]);
  if (!v) {
    fputs("sim: race oracle: out of memory\n", stderr);
    abort();
  }
  v->n = n;
  o->clocks = grow(o->clocks, &o->capclocks, o->nclocks + 1, sizeof *o->clocks);
  o->clocks[o->nclocks++] = v;
  return v;
}

static uint32_t at(const OVc *v, uint32_t c) { return v && c < v->n ? v->c[c] : 0; }

static void join(OVc *v, const OVc *w) {
  for (uint32_t k = 0; w && k < w->n && k < v->n; k++)
    if (w->c[k] > v->c[k])
      v->c[k] = w->c[k];
}

static const OVc *host_clock(RaceOracle *o) {
  if (!o->host_snap) {
    OVc *v = clock_new(o, o->nchains);
    memcpy(v->c, o->host, o->nchains * sizeof v->c[0]);
    o->host_snap = v;
  }
  return o->host_snap;
}

void race_oracle_init(SimDevice *dev) {
  const char *e = getenv("GPUINTERP_RACE_ORACLE");
  if (!e || (strcmp(e, "1") && strcmp(e, "stats")))
    return;
  RaceOracle *o = calloc(1, sizeof *o);
  if (!o)
    return;
  o->stats = !strcmp(e, "stats");
  o->tail = grow_zero(NULL, &o->captail, 0, sizeof *o->tail);
  o->seq = grow_zero(NULL, &o->capseq, 0, sizeof *o->seq);
  o->host = grow_zero(NULL, &o->caphost, 0, sizeof *o->host);
  o->nchains = 1;
  o->seq[0] = o->host[0] = 1;
  dev->oracle = o;
}

void race_oracle_op_begin(SimDevice *dev, const Op *op, Op *const *deps, size_t ndeps) {
  RaceOracle *o = dev->oracle;
  if (!o)
    return;
  uint32_t c = UINT32_MAX;
  for (size_t i = 0; i < ndeps && c == UINT32_MAX; i++) {
    const Op *d = deps[i];
    if (d && d->id < o->capops && o->ops[d->id].vc && o->ops[d->id].chain &&
        o->tail[o->ops[d->id].chain] == d->id)
      c = o->ops[d->id].chain;
  }
  if (c == UINT32_MAX) {
    c = o->nchains++;
    o->tail = grow_zero(o->tail, &o->captail, c, sizeof *o->tail);
    o->seq = grow_zero(o->seq, &o->capseq, c, sizeof *o->seq);
    o->host = grow_zero(o->host, &o->caphost, c, sizeof *o->host);
  }
  OVc *v = clock_new(o, o->nchains);
  memcpy(v->c, o->host, o->nchains * sizeof v->c[0]);
  for (size_t i = 0; i < ndeps; i++)
    if (deps[i] && deps[i]->id < o->capops)
      join(v, o->ops[deps[i]->id].vc);
  v->c[c] = ++o->seq[c];
  o->tail[c] = op->id;
  o->ops = grow_zero(o->ops, &o->capops, op->id, sizeof *o->ops);
  o->ops[op->id] = (OOp){.chain = c, .seq = v->c[c], .vc = v};
  o->host_snap = NULL;  /* nchains may have grown */
}

void race_oracle_host_submitted(SimDevice *dev) {
  RaceOracle *o = dev->oracle;
  if (!o)
    return;
  o->seq[0] = ++o->host[0];
  o->host_snap = NULL;
}

void race_oracle_host_join(SimDevice *dev, const Op *op) {
  RaceOracle *o = dev->oracle;
  if (!o || op->id >= o->capops || !o->ops[op->id].vc)
    return;
  const OVc *w = o->ops[op->id].vc;
  for (uint32_t k = 0; k < w->n; k++)
    if (w->c[k] > o->host[k])
      o->host[k] = w->c[k];
  o->host_snap = NULL;
}

void race_oracle_host_join_all(SimDevice *dev) {
  RaceOracle *o = dev->oracle;
  if (!o)
    return;
  for (uint32_t k = 1; k < o->nchains; k++)
    if (o->seq[k] > o->host[k])
      o->host[k] = o->seq[k];
  o->host_snap = NULL;
}

void race_oracle_access(SimDevice *dev, const Alloc *a, const Rec *n, const Op *op,
                        const Op *with, bool raced) {
  RaceOracle *o = dev->oracle;
  if (!o)
    return;
  uint32_t chain = 0, seq = o->host[0];
  const OVc *cur;
  if (op && op->id < o->capops && o->ops[op->id].vc) {
    chain = o->ops[op->id].chain;
    seq = o->ops[op->id].seq;
    cur = o->ops[op->id].vc;
  } else if (op) {
    fprintf(stderr, "sim: race oracle: op %" PRIu64 " at '%s' was never begun\n", op->id,
            LOC(n->loc));
    abort();
  } else if (with && with->id < o->capops && o->ops[with->id].vc) {
    OVc *v = clock_new(o, o->nchains);
    memcpy(v->c, o->host, o->nchains * sizeof v->c[0]);
    join(v, o->ops[with->id].vc);
    cur = v;
  } else {
    cur = host_clock(o);
  }
  o->allocs = grow_zero(o->allocs, &o->capallocs, a->id, sizeof *o->allocs);
  OAlloc *oa = &o->allocs[a->id];
  const ORec *hit = NULL;
  for (size_t i = 0; i < oa->n && !hit; i++) {
    const ORec *x = &oa->recs[i];
    if (x->r.lo >= n->hi || n->lo >= x->r.hi || !race_conflict(&x->r, n))
      continue;
    bool before = at(cur, x->chain) >= x->seq;
    bool after = at(x->vc, chain) >= seq;
    if (!before && !after)
      hit = x;
  }
  if ((hit != NULL) != raced) {
    fprintf(stderr, "sim: race oracle: the detector says the %s of bytes [%zu, %zu) at '%s' "
            "(op %" PRIu64 ") of the allocation made at '%s' %s, the exact reference says it %s",
            n->isfree ? "free" : n->atomic ? "atomic" : n->write ? "write" : "read", n->lo, n->hi, LOC(n->loc), n->op,
            LOC(a->loc), raced ? "races" : "does not race", hit ? "races" : "does not");
    if (hit)
      fprintf(stderr, " with the %s of bytes [%zu, %zu) at '%s' (op %" PRIu64 ")",
              hit->r.isfree ? "free" : hit->r.atomic ? "atomic" : hit->r.write ? "write" : "read", hit->r.lo, hit->r.hi,
              LOC(hit->r.loc), hit->r.op);
    fprintf(stderr, "\n  the access: epoch %" PRIu32 "@%" PRIu32 " here, %" PRIu32 "@%" PRIu32
            " in the detector%s\n", chain, seq, op ? op->chain : 0,
            op ? op->seq : dev->host_vc->c[0], op && op->lidx ? ", recording late" : "");
    if (hit)
      fprintf(stderr, "  the other: epoch %" PRIu32 "@%" PRIu32 " here\n", hit->chain, hit->seq);
    for (size_t i = 0; i < a->nrecs; i++)
      if (a->recs[i].ord)
        fprintf(stderr, "  detector record [%zu, %zu) '%s' op %" PRIu64 " %" PRIu32 "@%" PRIu32 "%s\n",
                a->recs[i].lo, a->recs[i].hi, LOC(a->recs[i].loc), a->recs[i].op,
                a->recs[i].chain, a->recs[i].seq, a->recs[i].vc ? " (clock)" : "");
    for (size_t i = a->stale_lo; i < a->nstale; i++)
      fprintf(stderr, "  detector stale [%zu, %zu) '%s' op %" PRIu64 " %" PRIu32 "@%" PRIu32
              " gone %" PRIu64 "\n", a->stale[i].lo, a->stale[i].hi, LOC(a->stale[i].loc),
              a->stale[i].op, a->stale[i].chain, a->stale[i].seq, a->stale[i].gone);
    abort();
  }
  o->naccesses++;
  o->nraces += raced;
  oa->recs = grow(oa->recs, &oa->cap, oa->n + 1, sizeof *oa->recs);
  oa->recs[oa->n++] = (ORec){.r = *n, .chain = chain, .seq = seq, .vc = cur};
  oa->recs[oa->n - 1].r.vc = NULL;
}

void race_oracle_recs_clear(SimDevice *dev, const Alloc *a) {
  RaceOracle *o = dev->oracle;
  if (!o || a->id >= o->capallocs)
    return;
  free(o->allocs[a->id].recs);
  o->allocs[a->id] = (OAlloc){0};
}

void race_oracle_free(SimDevice *dev) {
  RaceOracle *o = dev->oracle;
  if (!o)
    return;
  if (o->stats)
    fprintf(stderr, "sim: race oracle: %" PRIu64 " accesses checked, %" PRIu64 " racing, the "
            "detector agreed on all\n", o->naccesses, o->nraces);
  for (size_t i = 0; i < o->capallocs; i++)
    free(o->allocs[i].recs);
  for (size_t i = 0; i < o->nclocks; i++)
    free(o->clocks[i]);
  free(o->clocks);
  free(o->allocs);
  free(o->ops);
  free(o->tail);
  free(o->seq);
  free(o->host);
  free(o);
  dev->oracle = NULL;
}
