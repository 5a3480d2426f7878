/* race.c - happens-before and race detection.
 *
 * Happens-before is reachability in the op graph plus the host's program order. It is tracked with
 * vector clocks over chains: a chain is a totally ordered run of ops (a stream; a run of token ops
 * each depending on the previous; the host is chain 0). An op on chain c gets seq = ++chain[c].seq
 * and the clock  vc = join(host clock at submit, clocks of its deps), vc[c] = seq.  Access A (chain
 * c, seq s) happens before op X iff X.vc[c] >= s. Submitting is a host action, so every op includes
 * the host's clock: host accesses before a submit are ordered before the op; the host's seq then
 * grows, so its later accesses are not. A host wait joins the waited op's clock into the host's.
 *
 * Access records. Per allocation, a list of byte ranges with their chain, seq, clock and location.
 * A new access is checked against each overlapping record; a conflict (at least one write, a free
 * counting as a write; two atomics never: sim_access_conflict) with neither ordered before the
 * other is a race. The check runs when the access becomes known: at submit for memcpy/memset
 * (whose ranges are known), at completion for kernels and host callbacks (which report their
 * accesses while they run). Because of the latter a record may be added after an op that happens
 * after it was checked, so both directions are tested, which is why records keep their op's clock.
 *
 * Frees are the host's: a free sits at the host's point. A stream-ordered or token free (mgpuMemFree,
 * gpu.dealloc async) also waits for an op, and is ordered after it, but the host is not: the sim
 * waits for the op only so the memory outlives its users, and the program's host never waited.
 * Such a free's record keeps the host's clock joined with the op's (race_free_after). A kernel
 * that touches memory freed before it ran still has that access checked against the free.
 *
 * Keeping the lists short (what makes detection cheap):
 *   - a record O ordered before a new access N that covers it is dropped when N is a plain
 *     write, or when both are of one kind (reads, atomics): a later access racing with O races
 *     with N too, unless it is ordered before N, which only a kernel/host op still in flight
 *     (recording late) can be. So the drop also needs every such op X to be ordered after O, or
 *     not before N;
 *   - a record the host's clock covers is dropped once every op in flight that records late is
 *     ordered after it: every later access (a host one, or an op, which includes the host's
 *     clock) is ordered after it.
 * Chains are reused on the same ground: once the host's clock covers a chain's last seq and no
 * live stream owns it, a new run of ops can continue it (seq keeps growing).
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
    uint32_t cap = 8;
    while (cap < n)
      cap *= 2;
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
  vc->next = dev->free_vcs;
  dev->free_vcs = vc;
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
  dev->chains[0] = (Chain){.seq = 1, .owned = true};
  dev->host_vc->c[0] = 1;
}

uint32_t race_chain_new(SimDevice *dev, bool owned) {
  for (uint32_t k = 0; k + 1 < dev->nchains; k++) {
    uint32_t c = 1 + (dev->chain_cursor + k) % (dev->nchains - 1);
    Chain *ch = &dev->chains[c];
    if (!ch->owned && vc_get(dev->host_vc, c) >= ch->seq) {
      ch->owned = owned;
      ch->tail = 0;
      dev->chain_cursor = c;
      return c;
    }
  }
  if (dev->nchains == dev->capchains) {
    Chain *p = realloc(dev->chains, 2 * dev->capchains * sizeof *p);
    if (!p)
      return 0;  /* out of memory: share the host's chain (loses precision, not safety) */
    dev->chains = p;
    dev->capchains *= 2;
  }
  if (!host_vc_fit(dev, dev->nchains + 1))
    return 0;
  uint32_t c = dev->nchains++;
  dev->chains[c] = (Chain){.owned = owned};
  return c;
}

void race_chain_disown(SimDevice *dev, uint32_t chain) {
  if (chain)
    dev->chains[chain].owned = false;
}

void race_op_begin(SimDevice *dev, Op *op, Op *const *deps, size_t ndeps, Stream *s) {
  uint32_t c = UINT32_MAX;
  if (s) {
    c = s->chain;
  } else {
    for (size_t i = 0; i < ndeps && c == UINT32_MAX; i++) {
      const Op *d = deps[i];
      if (d && d->vc && d->chain && !dev->chains[d->chain].owned &&
          dev->chains[d->chain].tail == d->id)
        c = d->chain;
    }
    if (c == UINT32_MAX)
      c = race_chain_new(dev, false);
  }
  Vc *vc = vc_new(dev, dev->nchains);
  if (!vc)
    return;
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
  if (c == 0) {
    op->seq = vc->c[0];  /* out of memory fallback: the op sits at the host's point */
  } else {
    op->seq = ++ch->seq;
    ch->tail = op->id;
    vc->c[c] = op->seq;
  }
  op->chain = c;
  op->vc = vc;
}

void race_host_submitted(SimDevice *dev) {
  dev->chains[0].seq = ++dev->host_vc->c[0];
}

void race_host_join(SimDevice *dev, const Op *op) {
  const Vc *v = op->vc;
  if (!v)
    return;
  for (uint32_t k = 0; k < v->n; k++)
    if (v->c[k] > dev->host_vc->c[k])
      dev->host_vc->c[k] = v->c[k];
}

void race_host_join_all(SimDevice *dev) {
  for (uint32_t k = 1; k < dev->nchains; k++)
    if (dev->chains[k].seq > dev->host_vc->c[k])
      dev->host_vc->c[k] = dev->chains[k].seq;
}

static const char *mem_kind_name(SimMemKind k) {
  switch (k) {
  case SIM_MEM_DEVICE: return "device memory";
  case SIM_MEM_HOST_SHARED: return "host-shared memory";
  case SIM_MEM_HOST_REGISTERED: return "registered host memory";
  default: return "host memory";
  }
}

bool sim_access_conflict(SimAccess a, SimAccess b) {
  return (a != SIM_ACC_READ || b != SIM_ACC_READ) && !(a == SIM_ACC_ATOMIC && b == SIM_ACC_ATOMIC);
}

static SimAccess rec_kind(const Rec *r) {
  return r->atomic ? SIM_ACC_ATOMIC : r->write ? SIM_ACC_WRITE : SIM_ACC_READ;
}

static const char *acc_verb(SimAccess k) {
  return k == SIM_ACC_ATOMIC ? "atomically updates" : k == SIM_ACC_WRITE ? "writes" : "reads";
}

static void report(SimDevice *dev, const Alloc *a, const Rec *r, size_t lo, size_t hi, SimAccess kind,
                   bool isfree, const Op *op, const char *loc) {
  bool write = kind != SIM_ACC_READ;
  size_t olo = lo > r->lo ? lo : r->lo, ohi = hi < r->hi ? hi : r->hi;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_RACE, .loc = loc, .loc2 = r->loc,
               .alloc_loc = a->loc, .op = op ? op->id : 0, .op2 = r->op, .offset = olo,
               .bytes = ohi - olo};
  const char *who = op ? "" : " (host)", *who2 = r->op ? "" : " (host)";
  if (isfree || r->isfree) {
    d.race = SIM_RACE_USE_AFTER_FREE;
    const char *fr = isfree ? loc : r->loc, *us = isfree ? r->loc : loc;
    bool uw = isfree ? r->write : write;
    diag_emit(dev, &d, "use after free: '%s' frees the %s allocated at '%s' while '%s' may still %s "
              "bytes [%zu, %zu) of it; nothing orders the two", LOC(fr), mem_kind_name(a->kind),
              LOC(a->loc), LOC(us), uw ? "write" : "read", olo, ohi);
    return;
  }
  d.race = write && r->write ? SIM_RACE_WRITE_WRITE : SIM_RACE_READ_WRITE;
  diag_emit(dev, &d, "data race (%s): '%s'%s %s and '%s'%s %s bytes [%zu, %zu) of the %s "
            "allocated at '%s'; nothing orders the two",
            d.race == SIM_RACE_WRITE_WRITE ? "write-write" : "read-write", LOC(loc), who,
            acc_verb(kind), LOC(r->loc), who2, acc_verb(rec_kind(r)), olo, ohi,
            mem_kind_name(a->kind), LOC(a->loc));
}

enum { LATE_MAX = 32 };  /* more late ops in flight than this: keep every record */

/* Is r ordered before every late op in flight that is ordered before the new access (clock nvc;
   NULL: every late op counts)? */
static bool late_safe(const SimDevice *dev, const Rec *r, const Vc *nvc) {
  if (dev->nlate > LATE_MAX)
    return false;
  for (size_t i = 0; i < dev->nlate; i++) {
    const Op *x = dev->late[i];
    if (!x->vc)
      return false;
    bool x_before_new = !nvc || vc_get(nvc, x->chain) >= x->seq;
    if (x_before_new && vc_get(x->vc, r->chain) < r->seq)
      return false;
  }
  return true;
}

/* Check the access [lo, hi) (offsets into a) by op (NULL: the host, at its current point) against
   a's records, then record it. mvc: what the access is ordered after; rv: the clock its record
   keeps (a new reference is taken), NULL for a plain host access. */
static void access_at(SimDevice *dev, Alloc *a, size_t lo, size_t hi, bool write, bool isfree,
                      bool atomic, const Op *op, const Vc *mvc, Vc *rv, const char *loc) {
  SimAccess kind = atomic ? SIM_ACC_ATOMIC : write || isfree ? SIM_ACC_WRITE : SIM_ACC_READ;
  uint32_t mchain = op ? op->chain : 0, mseq = op ? op->seq : dev->host_vc->c[0];
  uint64_t told[8];  /* ops already reported against in this call (one report per pair) */
  size_t ntold = 0;
  size_t j = 0;
  for (size_t i = 0; i < a->nrecs; i++) {
    Rec *r = &a->recs[i];
    bool keep = true;
    if (r->lo < hi && lo < r->hi) {
      bool before = vc_get(mvc, r->chain) >= r->seq;
      bool after = op && r->vc && vc_get(r->vc, mchain) >= mseq;
      bool conflict = isfree || r->isfree || sim_access_conflict(kind, rec_kind(r));
      if (conflict && !before && !after) {
        size_t k = 0;
        while (k < ntold && told[k] != r->op)
          k++;
        if (k == ntold && ntold < 8) {
          told[ntold++] = r->op;
          report(dev, a, r, lo, hi, kind, isfree, op, loc);
        }
      }
      if (before && lo <= r->lo && r->hi <= hi && (kind == SIM_ACC_WRITE || kind == rec_kind(r)) &&
          (!dev->nlate || late_safe(dev, r, mvc)))
        keep = false;
    }
    if (keep && vc_get(dev->host_vc, r->chain) >= r->seq && (!dev->nlate || late_safe(dev, r, NULL)))
      keep = false;
    if (keep)
      a->recs[j++] = *r;
    else
      vc_unref(dev, r->vc);
  }
  a->nrecs = j;
  void *p = xrealloc_array(a->recs, &a->caprecs, a->nrecs + 1, sizeof *a->recs);
  if (!p)
    return;
  a->recs = p;
  if (rv)
    rv->refs++;
  a->recs[a->nrecs++] = (Rec){.lo = lo, .hi = hi, .chain = mchain, .seq = mseq, .vc = rv,
                              .loc = loc, .op = op ? op->id : 0, .write = write || isfree,
                              .isfree = isfree, .atomic = atomic};
}

void race_access(SimDevice *dev, Alloc *a, size_t lo, size_t hi, bool write, bool isfree,
                 const Op *op, const char *loc) {
  if (!dev->race || hi <= lo)
    return;
  const Vc *mvc = op ? op->vc : dev->host_vc;
  if (mvc)
    access_at(dev, a, lo, hi, write, isfree, false, op, mvc, op ? op->vc : NULL, loc);
}

void race_access_kind(SimDevice *dev, Alloc *a, size_t lo, size_t hi, SimAccess kind, const Op *op,
                      const char *loc) {
  if (kind != SIM_ACC_ATOMIC) {
    race_access(dev, a, lo, hi, kind == SIM_ACC_WRITE, false, op, loc);
    return;
  }
  if (!dev->race || hi <= lo)
    return;
  const Vc *mvc = op ? op->vc : dev->host_vc;
  if (mvc)
    access_at(dev, a, lo, hi, true, false, true, op, mvc, op ? op->vc : NULL, loc);
}

/* A free of all of a that waits for op: it sits at the host's current point (so everything the
   host does from here on, and every op it submits, is ordered after it) but is ordered after op
   too, which the host itself is not: its clock is the host's joined with op's. The host's chain
   and seq name it, since what is ordered after the host's point is ordered after the free; the
   record keeps the joined clock, so a kernel recording late learns it was ordered before the
   free when op was ordered after it. */
void race_free_after(SimDevice *dev, Alloc *a, const Op *op, const char *loc) {
  if (!dev->race || !a->bytes)
    return;
  if (!op->vc) {
    race_access(dev, a, 0, a->bytes, true, true, NULL, loc);
    return;
  }
  Vc *j = vc_new(dev, dev->nchains);
  if (!j)
    return;
  memcpy(j->c, dev->host_vc->c, dev->nchains * sizeof j->c[0]);
  for (uint32_t k = 0; k < op->vc->n; k++)
    if (op->vc->c[k] > j->c[k])
      j->c[k] = op->vc->c[k];
  access_at(dev, a, 0, a->bytes, true, true, false, NULL, j, j, loc);
  vc_unref(dev, j);
}

void race_recs_clear(SimDevice *dev, Alloc *a) {
  for (size_t i = 0; i < a->nrecs; i++)
    vc_unref(dev, a->recs[i].vc);
  free(a->recs);
  a->recs = NULL;
  a->nrecs = a->caprecs = 0;
}

void race_free_all(SimDevice *dev) {
  while (dev->free_vcs) {
    Vc *v = dev->free_vcs;
    dev->free_vcs = v->next;
    free(v);
  }
  free(dev->host_vc);
  dev->host_vc = NULL;
  free(dev->chains);
  dev->chains = NULL;
}
