/* mem.c - the allocation table: what memory exists, who may touch it, what was written.
 *
 * Device and host-shared memory come from one arena: a large private mapping reserved at
 * sim_create (MAP_NORESERVE, so only touched pages cost memory). Allocations are carved from it by
 * a bump pointer, 256-byte aligned with a 256-byte gap after each, and addresses are never handed
 * out twice. So any address inside the arena that is not inside a live allocation is certainly a
 * device pointer gone wrong: past the end of an allocation, or into a freed one (the dead
 * allocation is still known, so the message can say where it was allocated and freed). Freed
 * memory is given back to the system with madvise, but stays mapped: an op that still uses it
 * (a use-after-free race, reported) reads zeros, it does not crash.
 *
 * Host memory is known only when told: registered (sim_mem_register, like cuMemHostRegister) or
 * pageable memory the interpreter allocated (sim_mem_host_add). Other host addresses are
 * "untracked": copies may use them (unless strict_host), and nothing about them is checked.
 *
 * The table is an array of live allocations sorted by base (arena allocations arrive in address
 * order, so they append). Each allocation has its access records (race.c) and, for device and
 * host-shared memory, an init shadow: the sorted, disjoint byte ranges written so far. A read of a
 * byte outside them is a read of undefined memory (compute-sanitizer's initcheck). The shadow
 * is ranges, not bits, so a 256 MiB copy costs two interval operations, not 32 MiB of bitmap.
 *
 * Kernels report accesses one by one (sim_access) while they run, without the lock: the ctx keeps
 * the last allocation hit (base and size never change, allocations are never freed before
 * sim_destroy) and merges consecutive ranges; the ranges are checked and recorded when the kernel
 * completes. An access the ctx's allocation does not hold looks in the thread's cache of the
 * allocations its ops touched last (tcache: what the table said of them, and who may touch them),
 * which holds while dev->mem_epoch has not moved, and only on a miss takes the lock to look in the
 * table: a kernel on a worker then runs without the lock, as the host goes on submitting. A
 * kernel's silent probe of a span (sim_access_probe) looks in the same two places first. Kernels
 * report ranges their threads' accesses merged into, so a range that runs from an allocation into
 * one that begins where it ends (registered ranges side by side) is checked in parts, one per
 * allocation.
 *
 * Locking: everything with dev->mu held, except the sim_access fast path, which touches only its
 * ctx, its thread's tcache, the atomic mem_epoch and the immutable base/bytes of the cached
 * allocation.
 */
#include "sim/simint.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { ALIGN = 256, GAP = 256 };

typedef enum Where { W_IN, W_OOB, W_FREED, W_UNTRACKED } Where;

/* mem_epoch values: one sequence for every device, so that a thread's cache of one device's table
   never matches another's (a device created where a destroyed one was) */
static atomic_uint_fast64_t epochs;

/* dev's table changed in a way a tcache could hold: an allocation died, or who may touch one
   changed. mu held. */
static void epoch_move(SimDevice *dev) {
  atomic_store_explicit(&dev->mem_epoch, atomic_fetch_add(&epochs, 1) + 1, memory_order_release);
}

/* The allocations this thread's ops found last in the table, with whether kernels and host
   callbacks may touch them, as of epoch (a value of dev->mem_epoch). */
enum { TCACHE = 4 };
typedef struct TCache {
  uint_fast64_t epoch;
  unsigned next;
  struct { Alloc *a; uintptr_t lo, hi; bool kernel, host; } e[TCACHE];
} TCache;
static _Thread_local TCache tcache;

static bool tracks_init(const Alloc *a) {
  return a->kind == SIM_MEM_DEVICE || a->kind == SIM_MEM_HOST_SHARED;
}

static bool in_arena(const SimDevice *dev, uintptr_t p) {
  return dev->arena && p >= (uintptr_t)dev->arena && p < (uintptr_t)dev->arena + dev->arena_bytes;
}

bool mem_init(SimDevice *dev) {
  epoch_move(dev);  /* no thread's tcache holds this device's allocations */
  size_t sz = (size_t)64 << 30, least = (size_t)256 << 20;
  if (sizeof(size_t) < 8)
    sz = (size_t)1 << 30;
  if (dev->cfg.device_bytes) {
    long pg = sysconf(_SC_PAGESIZE);
    sz = least = (dev->cfg.device_bytes + (size_t)pg - 1) & ~((size_t)pg - 1);
  }
  for (; sz >= least; sz /= 2) {
    void *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p != MAP_FAILED) {
      dev->arena = p;
      dev->arena_bytes = sz;
      return true;
    }
  }
  return false;
}

/* ---- init shadow ---- */

/* First interval with hi > x (or n). */
static size_t iv_search(const Alloc *a, size_t x) {
  size_t l = 0, r = a->ninit;
  while (l < r) {
    size_t m = (l + r) / 2;
    if (a->init[m].hi > x)
      r = m;
    else
      l = m + 1;
  }
  return l;
}

/* Add [lo, hi) to the sorted disjoint intervals *v (*n of them, room for *cap), merging what
   overlaps or touches it. */
static void iv_add(Iv **v, size_t *n, size_t *cap, size_t lo, size_t hi) {
  size_t l = 0, r = *n;  /* first interval with hi >= lo */
  while (l < r) {
    size_t m = (l + r) / 2;
    if ((*v)[m].hi >= lo)
      r = m;
    else
      l = m + 1;
  }
  size_t i = l, j = i;
  while (j < *n && (*v)[j].lo <= hi)
    j++;
  if (i < j) {
    Iv m = {(*v)[i].lo < lo ? (*v)[i].lo : lo, (*v)[j - 1].hi > hi ? (*v)[j - 1].hi : hi};
    (*v)[i] = m;
    memmove(&(*v)[i + 1], &(*v)[j], (*n - j) * sizeof **v);
    *n -= j - i - 1;
    return;
  }
  void *p = xrealloc_array(*v, cap, *n + 1, sizeof **v);
  if (!p)
    return;
  *v = p;
  memmove(&(*v)[i + 1], &(*v)[i], (*n - i) * sizeof **v);
  (*v)[i] = (Iv){lo, hi};
  (*n)++;
}

void init_mark(Alloc *a, size_t lo, size_t hi) {
  if (tracks_init(a) && hi > lo)
    iv_add(&a->init, &a->ninit, &a->capinit, lo, hi);
}

/* The first gap [glo, ghi) of [lo, hi) not yet written; false if all of it was written. */
bool init_find_gap(const Alloc *a, size_t lo, size_t hi, size_t *glo, size_t *ghi) {
  if (!tracks_init(a) || hi <= lo)
    return false;
  size_t i = iv_search(a, lo);
  if (i == a->ninit || a->init[i].lo > lo) {
    *glo = lo;
    *ghi = i < a->ninit && a->init[i].lo < hi ? a->init[i].lo : hi;
    return true;
  }
  if (a->init[i].hi >= hi)
    return false;
  *glo = a->init[i].hi;
  *ghi = i + 1 < a->ninit && a->init[i + 1].lo < hi ? a->init[i + 1].lo : hi;
  return true;
}

static void check_init(SimDevice *dev, Alloc *a, size_t lo, size_t hi, const Op *op,
                       const char *loc) {
  size_t glo, ghi;
  if (!init_find_gap(a, lo, hi, &glo, &ghi))
    return;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_UNINIT, .loc = loc, .alloc_loc = a->loc,
               .op = op ? op->id : 0, .offset = glo, .bytes = ghi - glo};
  diag_emit(dev, &d, "'%s' reads bytes [%zu, %zu) of the %s allocated at '%s' before anything "
            "wrote them", LOC(loc), glo, ghi,
            a->kind == SIM_MEM_DEVICE ? "device memory" : "host-shared memory", LOC(a->loc));
  init_mark(a, lo, hi);  /* once per range is enough */
}

/* ---- the table ---- */

/* Index of the last live allocation with base <= p, or SIZE_MAX. */
static size_t find(const SimDevice *dev, uintptr_t p) {
  size_t l = 0, r = dev->nallocs;
  while (l < r) {
    size_t m = (l + r) / 2;
    if (dev->allocs[m]->base <= p)
      l = m + 1;
    else
      r = m;
  }
  return l ? l - 1 : SIZE_MAX;
}

static Alloc *find_dead(const SimDevice *dev, uintptr_t p) {
  for (Alloc *a = dev->dead; a; a = a->next_dead)
    if (p >= a->base && p < a->base + (a->bytes ? a->bytes : 1))
      return a;
  return NULL;
}

/* Where is [p, p+n)? *out gets the allocation involved (IN, OOB: the one it starts in or runs
   into, or NULL; FREED: the dead one). */
static Where where(const SimDevice *dev, uintptr_t p, size_t n, Alloc **out) {
  *out = NULL;
  size_t i = find(dev, p);
  if (i != SIZE_MAX) {
    Alloc *a = dev->allocs[i];
    if (p < a->base + a->bytes) {
      *out = a;
      return p + n <= a->base + a->bytes && p + n >= p ? W_IN : W_OOB;
    }
  }
  size_t nx = i == SIZE_MAX ? 0 : i + 1;
  if (nx < dev->nallocs && dev->allocs[nx]->base < p + n) {
    *out = dev->allocs[nx];
    return W_OOB;
  }
  if (in_arena(dev, p)) {
    Alloc *d = find_dead(dev, p);
    if (d) {
      *out = d;
      return W_FREED;
    }
    if (i != SIZE_MAX)
      *out = dev->allocs[i];
    return W_OOB;
  }
  return W_UNTRACKED;
}

static bool table_insert(SimDevice *dev, Alloc *a) {
  void *p = xrealloc_array(dev->allocs, &dev->capallocs, dev->nallocs + 1, sizeof *dev->allocs);
  if (!p)
    return false;
  dev->allocs = p;
  size_t i = find(dev, a->base);
  i = i == SIZE_MAX ? 0 : i + 1;
  memmove(&dev->allocs[i + 1], &dev->allocs[i], (dev->nallocs - i) * sizeof *dev->allocs);
  dev->allocs[i] = a;
  dev->nallocs++;
  return true;
}

static void table_remove(SimDevice *dev, Alloc *a) {
  size_t i = find(dev, a->base);
  if (i == SIZE_MAX || dev->allocs[i] != a)
    return;
  memmove(&dev->allocs[i], &dev->allocs[i + 1], (dev->nallocs - i - 1) * sizeof *dev->allocs);
  dev->nallocs--;
}

/* Give a dead allocation's memory and bookkeeping back, once nothing can still touch it. */
static void release(SimDevice *dev, Alloc *a) {
  if (a->released || a->pins > 0 || dev->late_inflight > 0)
    return;
  a->released = true;
  dev->nunreleased--;
  race_recs_clear(dev, a);
  free(a->init);
  a->init = NULL;
  a->ninit = a->capinit = 0;
  free(a->regs);
  a->regs = NULL;
  a->nregs = a->capregs = 0;
  if (in_arena(dev, a->base)) {
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (a->base + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
    uintptr_t hi = (a->base + a->bytes) & ~((uintptr_t)pg - 1);
    if (hi > lo)
      madvise((void *)lo, hi - lo, MADV_DONTNEED);
    size_t off = a->base - (uintptr_t)dev->arena;
    size_t end = (off + a->bytes + GAP + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    iv_add(&dev->spans, &dev->nspans, &dev->capspans, off, end < dev->arena_used ? end : dev->arena_used);
  }
}

/* Arena offset for a new allocation of bytes: from the bump pointer while it lasts, then first
   fit in the ranges given back (addresses are reused only then, so a use after free is caught
   until the arena wraps). SIZE_MAX if nothing fits. */
static size_t arena_take(SimDevice *dev, size_t bytes) {
  size_t need = ((bytes + ALIGN - 1) & ~(size_t)(ALIGN - 1)) + GAP;
  if (need < bytes)
    return SIZE_MAX;
  size_t base = (dev->arena_used + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  if (base <= dev->arena_bytes && dev->arena_bytes - base >= need) {
    dev->arena_used = base + need;
    return base;
  }
  for (size_t i = 0; i < dev->nspans; i++) {
    Iv *v = &dev->spans[i];
    if (v->hi - v->lo < need)
      continue;
    base = v->lo;
    v->lo += need;
    if (v->lo == v->hi) {
      memmove(v, v + 1, (dev->nspans - i - 1) * sizeof *v);
      dev->nspans--;
    }
    return base;
  }
  return SIZE_MAX;
}

static void bury(SimDevice *dev, Alloc *a, const char *loc) {
  epoch_move(dev);
  a->dead = true;
  dev->nunreleased++;
  a->free_loc = loc;
  table_remove(dev, a);
  a->next_dead = dev->dead;
  dev->dead = a;
  release(dev, a);
}

void mem_late_done(SimDevice *dev) {
  for (Alloc *a = dev->dead; a && dev->nunreleased; a = a->next_dead)
    release(dev, a);
}

static const char *kind_name(SimMemKind k) {
  switch (k) {
  case SIM_MEM_DEVICE: return "device memory";
  case SIM_MEM_HOST_SHARED: return "host-shared memory";
  case SIM_MEM_HOST_REGISTERED: return "registered host memory";
  default: return "host memory";
  }
}

/* Report a bad [p, p+n) access by `who` ("memcpy destination", ...) and say why. */
static void report_where(SimDevice *dev, Where w, Alloc *a, uintptr_t p, size_t n, const char *who,
                         const char *loc, uint64_t op) {
  SimDiag d = {.severity = SIM_SEV_ERROR, .loc = loc, .op = op};
  if (w == W_FREED) {
    d.kind = SIM_DIAG_MISUSE;
    d.alloc_loc = a->loc;
    d.loc2 = a->free_loc;
    d.offset = p - a->base;
    d.bytes = n;
    diag_emit(dev, &d, "%s: use after free: bytes [%zu, %zu) of the %s allocated at '%s' and "
              "freed at '%s'", who, (size_t)(p - a->base), (size_t)(p - a->base) + n,
              kind_name(a->kind), LOC(a->loc), LOC(a->free_loc));
  } else if (w == W_OOB && a && p >= a->base) {
    d.kind = SIM_DIAG_OOB;
    d.alloc_loc = a->loc;
    d.offset = p - a->base;
    d.bytes = n;
    diag_emit(dev, &d, "%s: bytes [%zu, %zu) are out of bounds of the %zu-byte %s allocated at "
              "'%s'", who, (size_t)(p - a->base), (size_t)(p - a->base) + n, a->bytes,
              kind_name(a->kind), LOC(a->loc));
  } else if (w == W_OOB && a) {
    d.kind = SIM_DIAG_OOB;
    d.alloc_loc = a->loc;
    d.bytes = n;
    diag_emit(dev, &d, "%s: %zu bytes starting %zu bytes before the %s allocated at '%s' are "
              "outside any allocation", who, n, (size_t)(a->base - p), kind_name(a->kind),
              LOC(a->loc));
  } else if (w == W_OOB) {
    d.kind = SIM_DIAG_OOB;
    d.bytes = n;
    diag_emit(dev, &d, "%s: %zu bytes at %p are outside any allocation", who, n, (void *)p);
  } else {
    d.kind = SIM_DIAG_MISUSE;
    d.bytes = n;
    diag_emit(dev, &d, "%s: %p is not in any allocation the device knows", who, (void *)p);
  }
}

/* ---- ops ---- */

/* Check a memcpy/memset against the table, pin what it uses and record its accesses. A bad op
   becomes a marker. */
SimStatus mem_check_op(SimDevice *dev, Op *op) {
  SimOpDesc *d = &op->d;
  if (d->kind != SIM_OP_MEMCPY && d->kind != SIM_OP_MEMSET)
    return SIM_OK;
  SimStatus st = SIM_OK;
  Alloc *ad = NULL, *as = NULL;
  if (d->kind == SIM_OP_MEMSET) {
    unsigned w = d->width ? d->width : 1;
    if ((w != 1 && w != 2 && w != 4) || d->bytes % w) {
      SimDiag dg = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = d->loc, .op = op->id};
      diag_emit(dev, &dg, "memset: width %u and size %zu bytes do not fit (width is 1, 2 or 4, "
                "size a multiple of it)", w, d->bytes);
      st = SIM_ERR_ARG;
      goto refuse;
    }
  }
  if (!d->bytes)
    goto refuse_quietly;
  uintptr_t dst = (uintptr_t)d->dst, src = (uintptr_t)d->src;
  Where wd = where(dev, dst, d->bytes, &ad);
  if (wd != W_IN && !(wd == W_UNTRACKED && !dev->cfg.strict_host)) {
    report_where(dev, wd, ad, dst, d->bytes, d->kind == SIM_OP_MEMCPY ? "memcpy destination" :
                 "memset destination", d->loc, op->id);
    st = SIM_ERR_MEMORY;
  }
  if (d->kind == SIM_OP_MEMCPY) {
    Where ws = where(dev, src, d->bytes, &as);
    if (ws != W_IN && !(ws == W_UNTRACKED && !dev->cfg.strict_host)) {
      report_where(dev, ws, as, src, d->bytes, "memcpy source", d->loc, op->id);
      st = SIM_ERR_MEMORY;
    }
    if (st == SIM_OK && dst < src + d->bytes && src < dst + d->bytes) {
      SimDiag dg = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = d->loc, .op = op->id,
                    .alloc_loc = ad ? ad->loc : NULL, .bytes = d->bytes};
      diag_emit(dev, &dg, "memcpy: source and destination overlap (%zu bytes, %td apart)",
                d->bytes, (ptrdiff_t)(dst - src));
      st = SIM_ERR_MEMORY;
    }
    if (ws != W_IN)
      as = NULL;
  }
  if (wd != W_IN)
    ad = NULL;
  if (st != SIM_OK)
    goto refuse;
  if (ad) {
    ad->pins++;
    op->a_dst = ad;
    race_access(dev, ad, dst - ad->base, dst - ad->base + d->bytes, true, false, op, d->loc);
  }
  if (as) {
    as->pins++;
    op->a_src = as;
    race_access(dev, as, src - as->base, src - as->base + d->bytes, false, false, op, d->loc);
  }
  return SIM_OK;
refuse:
  d->kind = SIM_OP_MARKER;
  return st;
refuse_quietly:
  d->kind = SIM_OP_MARKER;
  return SIM_OK;
}

/* The op is about to run: a copy's source must have been written. */
void mem_op_start(SimDevice *dev, Op *op) {
  Alloc *a = op->a_src;
  if (a && op->d.kind == SIM_OP_MEMCPY) {
    size_t lo = (uintptr_t)op->d.src - a->base;
    check_init(dev, a, lo, lo + op->d.bytes, op, op->d.loc);
  }
}

static int acc_cmp(const void *x, const void *y) {
  const Acc *a = x, *b = y;
  if (a->a != b->a)
    return a->a->id < b->a->id ? -1 : 1;
  if (a->write != b->write)
    return a->write ? 1 : -1;
  if (a->atomic != b->atomic)
    return a->atomic ? 1 : -1;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sort a ctx's accesses (by allocation, kind, offset: a stable order, so reports come out the
   same each run) and merge the overlapping or adjacent ones. */
static void acc_merge(SimCtx *ctx) {
  if (!ctx->nacc)
    return;
  qsort(ctx->acc, ctx->nacc, sizeof *ctx->acc, acc_cmp);
  size_t j = 0;
  for (size_t i = 0; i < ctx->nacc; i++) {
    Acc *c = &ctx->acc[i];
    if (j && ctx->acc[j - 1].a == c->a && ctx->acc[j - 1].write == c->write &&
        ctx->acc[j - 1].atomic == c->atomic && c->lo <= ctx->acc[j - 1].hi) {
      if (c->hi > ctx->acc[j - 1].hi)
        ctx->acc[j - 1].hi = c->hi;
    } else {
      ctx->acc[j++] = *c;
    }
  }
  ctx->nacc = j;
}

/* The op completed: mark what it wrote, check and record what a kernel touched, unpin. */
void mem_op_done(SimDevice *dev, Op *op) {
  if (op->a_dst) {
    size_t lo = (uintptr_t)op->d.dst - op->a_dst->base;
    init_mark(op->a_dst, lo, lo + op->d.bytes);
  }
  SimCtx *ctx = op->ctx;
  if (ctx) {
    acc_merge(ctx);
    size_t j = ctx->nacc;
    for (size_t i = 0; i < j; i++)  /* writes first: a kernel may read what it wrote */
      if (ctx->acc[i].write)
        init_mark(ctx->acc[i].a, ctx->acc[i].lo, ctx->acc[i].hi);
    for (size_t i = 0; i < j; i++) {
      Acc *c = &ctx->acc[i];
      if (!c->write)
        check_init(dev, c->a, c->lo, c->hi, op, op->d.loc);
      race_access_kind(dev, c->a, c->lo, c->hi,
                       c->atomic ? SIM_ACC_ATOMIC : c->write ? SIM_ACC_WRITE : SIM_ACC_READ, op,
                       op->d.loc);
    }
    dev->noacc = 0;
    void *p = dev->cfg.observer ? xrealloc_array(dev->oacc, &dev->capoacc, j, sizeof *dev->oacc) : NULL;
    if (p) {
      dev->oacc = p;
      for (size_t i = 0; i < j; i++)
        dev->oacc[i] = (SimObsAccess){ctx->acc[i].a->base + ctx->acc[i].lo, ctx->acc[i].hi - ctx->acc[i].lo,
                                      ctx->acc[i].write || ctx->acc[i].atomic, ctx->acc[i].atomic};
      dev->noacc = j;
    }
    free(ctx->acc);
    free(ctx);
    op->ctx = NULL;
  }
  if (op->late_access) {
    race_late_end(dev, op);
    op->late_access = false;
    if (--dev->late_inflight == 0)
      mem_late_done(dev);
  }
  Alloc *pins[2] = {op->a_dst, op->a_src};
  op->a_dst = op->a_src = NULL;
  for (int i = 0; i < 2; i++)
    if (pins[i] && --pins[i]->pins == 0 && pins[i]->dead)
      release(dev, pins[i]);
}

/* ---- API ---- */

SimStatus sim_mem_alloc(SimDevice *dev, size_t bytes, SimMemKind kind, void **out, const char *loc) {
  if (!dev || !out)
    return SIM_ERR_ARG;
  *out = NULL;
  if (kind != SIM_MEM_DEVICE && kind != SIM_MEM_HOST_SHARED)
    return SIM_ERR_ARG;
  if (!bytes)
    return SIM_OK;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Alloc *a = calloc(1, sizeof *a);
  size_t base = a ? arena_take(dev, bytes) : SIZE_MAX;
  if (base == SIZE_MAX) {
    free(a);
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc, .bytes = bytes};
    diag_emit(dev, &d, "out of device memory allocating %zu bytes", bytes);
    st = SIM_ERR_MEMORY;
    goto done;
  }
  a->id = ++dev->next_alloc_id;
  a->base = (uintptr_t)dev->arena + base;
  a->bytes = bytes;
  a->kind = kind;
  a->loc = loc;
  if (!table_insert(dev, a)) {
    free(a);
    st = SIM_ERR_MEMORY;
    goto done;
  }
  *out = (void *)a->base;
  if (dev->cfg.observer) {
    SimObs ev = {.kind = SIM_OBS_API, .name = "mem_alloc", .loc = loc, .dst = a->base,
                 .bytes = bytes, .worker = -1};
    obs_emit(dev, &ev);
  }
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

/* Find the live allocation starting exactly at p, of one of the kinds in `kinds` (bit 1 << kind);
   else report why p can't be released by `what` and return NULL. */
static Alloc *find_exact(SimDevice *dev, void *ptr, unsigned kinds, const char *what,
                         const char *loc) {
  uintptr_t p = (uintptr_t)ptr;
  size_t i = find(dev, p);
  Alloc *a = i == SIZE_MAX ? NULL : dev->allocs[i];
  if (a && a->base == p && (kinds >> a->kind & 1))
    return a;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
  Alloc *dead = find_dead(dev, p);
  if (a && a->base == p) {
    d.alloc_loc = a->loc;
    diag_emit(dev, &d, "%s of %s allocated at '%s'", what, kind_name(a->kind), LOC(a->loc));
  } else if (a && p < a->base + a->bytes) {
    d.alloc_loc = a->loc;
    diag_emit(dev, &d, "%s of a pointer %zu bytes into the %s allocated at '%s'", what,
              (size_t)(p - a->base), kind_name(a->kind), LOC(a->loc));
  } else if (dead && dead->base == p && (kinds >> dead->kind & 1)) {
    d.alloc_loc = dead->loc;
    d.loc2 = dead->free_loc;
    diag_emit(dev, &d, "%s twice: %s allocated at '%s' was already released at '%s'", what,
              kind_name(dead->kind), LOC(dead->loc), LOC(dead->free_loc));
  } else {
    diag_emit(dev, &d, "%s of %p, which is not an allocation the device knows", what, ptr);
  }
  return NULL;
}

/* Free ptr at the host's current point, ordered after `after` too (NULL: nothing more). mu held. */
static SimStatus mem_free(SimDevice *dev, void *ptr, const Op *after, const char *loc) {
  Alloc *a = find_exact(dev, ptr, 1u << SIM_MEM_DEVICE | 1u << SIM_MEM_HOST_SHARED, "free", loc);
  if (!a)
    return SIM_ERR_MEMORY;
  if (dev->cfg.observer) {
    SimObs ev = {.kind = SIM_OBS_API, .name = "mem_free", .loc = loc, .dst = a->base,
                 .bytes = a->bytes, .worker = -1};
    obs_emit(dev, &ev);
  }
  if (after)
    race_free_after(dev, a, after, loc);
  else
    race_access(dev, a, 0, a->bytes, true, true, NULL, loc);
  bury(dev, a, loc);
  return SIM_OK;
}

SimStatus sim_mem_free(SimDevice *dev, void *ptr, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  if (!ptr)
    return SIM_OK;
  pthread_mutex_lock(&dev->mu);
  SimStatus st = mem_free(dev, ptr, NULL, loc);
  pthread_mutex_unlock(&dev->mu);
  return st;
}

/* The free is ordered after op and after the host's point, while the host stays unordered with op.
   The host still waits for op, so that no op ordered before the free can see its memory vanish (a
   kernel would report it as a use of freed memory), but that wait is not a happens-before edge:
   the program's host did not wait, and had it learnt op's clock here, every later host action and
   op would be ordered after op's deps, hiding their races with those deps. */
SimStatus sim_mem_free_after(SimDevice *dev, void *ptr, SimOp *op, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  if (!op)
    return sim_mem_free(dev, ptr, loc);
  if (!ptr)
    return SIM_OK;
  pthread_mutex_lock(&dev->mu);
  SimStatus st = SIM_ERR_HANDLE;
  if (op_valid(dev, op, "free", loc)) {
    SimStatus ws = op_wait_unordered(dev, op, "free", loc);
    st = mem_free(dev, ptr, op, loc);  /* after a deadlock too: the op never runs before it */
    if (st == SIM_OK)
      st = ws;
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

/* Registration in place of host memory the device knows as pageable (the interpreter's): the
 * allocation keeps each registration's byte range, as a driver does. cuMemHostRegister pins whole
 * pages, but what it refuses (CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED) is a range that overlaps
 * one already registered: a range beside it, on the same page too, registers on its own. While
 * any range is registered, kernels may touch the allocation. mu held. */
static SimStatus reg_add(SimDevice *dev, Alloc *a, uintptr_t p, size_t bytes, const char *loc) {
  for (size_t i = 0; i < a->nregs; i++) {
    const struct HostReg *r = &a->regs[i];
    if (p < r->base + r->bytes && r->base < p + bytes) {
      SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc,
                   .alloc_loc = a->loc, .loc2 = r->loc};
      diag_emit(dev, &d, "host register of %zu bytes: the host memory allocated at '%s' is "
                "already registered at '%s' (%zu bytes at offset %zu)", bytes, LOC(a->loc),
                LOC(r->loc), r->bytes, (size_t)(r->base - a->base));
      return SIM_ERR_MEMORY;
    }
  }
  struct HostReg *n = xrealloc_array(a->regs, &a->capregs, a->nregs + 1, sizeof *a->regs);
  if (!n)
    return SIM_ERR_MEMORY;
  a->regs = n;
  a->regs[a->nregs++] = (struct HostReg){p, bytes, loc};
  if (a->nregs == 1)
    epoch_move(dev);  /* kernels may touch it now */
  return SIM_OK;
}

/* Unregister the range a registration in place began at p; false: none did. mu held. */
static bool reg_remove(SimDevice *dev, Alloc *a, uintptr_t p) {
  for (size_t i = 0; i < a->nregs; i++)
    if (a->regs[i].base == p) {
      a->regs[i] = a->regs[--a->nregs];
      if (!a->nregs)
        epoch_move(dev);
      return true;
    }
  return false;
}

static SimStatus host_add(SimDevice *dev, void *ptr, size_t bytes, SimMemKind kind,
                          const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  if (!ptr || !bytes)
    return SIM_OK;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  uintptr_t p = (uintptr_t)ptr;
  Alloc *a = NULL;
  Where w = where(dev, p, bytes, &a);
  if (w == W_IN && kind == SIM_MEM_HOST_REGISTERED && a->kind == SIM_MEM_HOST_PAGEABLE) {
    st = reg_add(dev, a, p, bytes, loc);  /* the interpreter's memory, registered in place */
    goto done;
  }
  if (w != W_UNTRACKED) {
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc,
                 .alloc_loc = a ? a->loc : NULL};
    if (a && !a->dead)
      diag_emit(dev, &d, "%s of %zu bytes overlaps the %s allocated at '%s'",
                kind == SIM_MEM_HOST_REGISTERED ? "host register" : "host memory", bytes,
                kind_name(a->kind), LOC(a->loc));
    else
      diag_emit(dev, &d, "%s of %zu bytes at %p: that is device memory",
                kind == SIM_MEM_HOST_REGISTERED ? "host register" : "host memory", bytes, ptr);
    st = SIM_ERR_MEMORY;
    goto done;
  }
  a = calloc(1, sizeof *a);
  if (!a) {
    st = SIM_ERR_MEMORY;
    goto done;
  }
  a->id = ++dev->next_alloc_id;
  a->base = p;
  a->bytes = bytes;
  a->kind = kind;
  a->loc = loc;
  if (!table_insert(dev, a)) {
    free(a);
    st = SIM_ERR_MEMORY;
  }
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

static SimStatus host_remove(SimDevice *dev, void *ptr, SimMemKind kind, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  if (!ptr)
    return SIM_OK;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  Alloc *a = NULL;
  if (kind == SIM_MEM_HOST_REGISTERED && where(dev, (uintptr_t)ptr, 1, &a) == W_IN &&
      a->kind == SIM_MEM_HOST_PAGEABLE && reg_remove(dev, a, (uintptr_t)ptr))
    goto done;
  a = find_exact(dev, ptr, 1u << kind,
                        kind == SIM_MEM_HOST_REGISTERED ? "host unregister" : "host memory removal",
                        loc);
  if (!a) {
    st = SIM_ERR_MEMORY;
  } else {
    /* The host frees this memory next. An op still running (a kernel's accesses are known only
     * when it completes) could write into it after that: let every op finish first, without
     * ordering anything, so the free's race with them is reported and nothing writes into
     * memory the host gave back. */
    exec_drain(dev, loc);
    race_access(dev, a, 0, a->bytes, true, true, NULL, loc);
    bury(dev, a, loc);
  }
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_mem_register(SimDevice *dev, void *ptr, size_t bytes, const char *loc) {
  return host_add(dev, ptr, bytes, SIM_MEM_HOST_REGISTERED, loc);
}

SimStatus sim_mem_unregister(SimDevice *dev, void *ptr, const char *loc) {
  return host_remove(dev, ptr, SIM_MEM_HOST_REGISTERED, loc);
}

SimStatus sim_mem_host_add(SimDevice *dev, void *ptr, size_t bytes, const char *loc) {
  return host_add(dev, ptr, bytes, SIM_MEM_HOST_PAGEABLE, loc);
}

SimStatus sim_mem_host_remove(SimDevice *dev, void *ptr, const char *loc) {
  return host_remove(dev, ptr, SIM_MEM_HOST_PAGEABLE, loc);
}

SimStatus sim_host_access(SimDevice *dev, const void *addr, size_t bytes, bool is_write,
                          const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  if (!bytes)
    return SIM_OK;
  if (sim_tls_ctx && sim_tls_ctx->dev == dev)  /* inside a host callback: the op's access */
    return sim_access(sim_tls_ctx, addr, bytes, is_write, loc);
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  uintptr_t p = (uintptr_t)addr;
  Alloc *a = NULL;
  Where w = where(dev, p, bytes, &a);
  if (w == W_UNTRACKED)
    goto done;
  if (w != W_IN) {
    report_where(dev, w, a, p, bytes, is_write ? "host store" : "host load", loc, 0);
    st = SIM_ERR_MEMORY;
    goto done;
  }
  if (a->kind == SIM_MEM_DEVICE) {
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc,
                 .alloc_loc = a->loc, .offset = p - a->base, .bytes = bytes};
    diag_emit(dev, &d, "host %s of device memory allocated at '%s' (bytes [%zu, %zu)); only "
              "host-shared memory is visible to the host", is_write ? "store" : "load",
              LOC(a->loc), (size_t)(p - a->base), (size_t)(p - a->base) + bytes);
    st = SIM_ERR_MEMORY;
    goto done;
  }
  size_t lo = p - a->base;
  if (!is_write)
    dev->host_polled = true;
  if (is_write)
    init_mark(a, lo, lo + bytes);
  else
    check_init(dev, a, lo, lo + bytes, NULL, loc);
  race_access(dev, a, lo, lo + bytes, is_write, false, NULL, loc);
done:
  pthread_mutex_unlock(&dev->mu);
  return st;
}

/* May the running op touch a? Kernels: not pageable host memory; host callbacks: not device. */
static bool may_touch(const Op *op, const Alloc *a) {
  if (op->d.kind == SIM_OP_HOST)
    return a->kind != SIM_MEM_DEVICE;
  return a->kind != SIM_MEM_HOST_PAGEABLE || a->nregs;
}

/* Keep [lo, hi) of a as ctx's access, merged with a recent one it touches. */
static void acc_add(SimCtx *ctx, Alloc *a, size_t lo, size_t hi, bool is_write, bool atomic) {
  for (size_t k = ctx->nacc, seen = 0; k > 0 && seen < 4; k--, seen++) {
    Acc *c = &ctx->acc[k - 1];
    if (c->a == a && c->write == is_write && c->atomic == atomic && lo <= c->hi && c->lo <= hi) {
      if (lo < c->lo)
        c->lo = lo;
      if (hi > c->hi)
        c->hi = hi;
      return;
    }
  }
  if (ctx->nacc == ctx->capacc && ctx->nacc >= 4096)
    acc_merge(ctx);  /* scattered accesses: merge before growing (often it frees most) */
  void *q = xrealloc_array(ctx->acc, &ctx->capacc, ctx->nacc + 1, sizeof *ctx->acc);
  if (!q)
    return;  /* lose the record, not the access */
  ctx->acc = q;
  ctx->acc[ctx->nacc++] = (Acc){a, lo, hi, is_write, atomic};
}

/* The allocation holding [p, p + bytes) that op may touch, from this thread's tcache; NULL when it
   does not know (then the table says). */
static Alloc *tcache_find(SimDevice *dev, const Op *op, uintptr_t p, size_t bytes) {
  if (tcache.epoch != atomic_load_explicit(&dev->mem_epoch, memory_order_acquire))
    return NULL;
  bool host = op->d.kind == SIM_OP_HOST;
  for (unsigned k = 0; k < TCACHE; k++)
    if (tcache.e[k].a && p >= tcache.e[k].lo && p < tcache.e[k].hi && bytes <= tcache.e[k].hi - p &&
        (host ? tcache.e[k].host : tcache.e[k].kernel))
      return tcache.e[k].a;
  return NULL;
}

/* The table found a, which op may touch: keep it in the tcache. mu held. */
static void tcache_add(SimDevice *dev, Alloc *a) {
  uint_fast64_t e = atomic_load_explicit(&dev->mem_epoch, memory_order_relaxed);
  if (tcache.epoch != e)
    tcache = (TCache){.epoch = e};
  unsigned k = tcache.next++ % TCACHE;
  tcache.e[k].a = a;
  tcache.e[k].lo = a->base;
  tcache.e[k].hi = a->base + a->bytes;
  tcache.e[k].kernel = a->kind != SIM_MEM_HOST_PAGEABLE || a->nregs;
  tcache.e[k].host = a->kind != SIM_MEM_DEVICE;
}

/* Whether the allocation after a in the table begins where a ends (host memory a driver was
   handed, registered range by range, has no gap between its ranges). mu held. */
static bool next_touches(const SimDevice *dev, const Alloc *a) {
  size_t i = find(dev, a->base);
  return i != SIZE_MAX && i + 1 < dev->nallocs && dev->allocs[i + 1]->base == a->base + a->bytes;
}

/* sim_access, and sim_access_check (check: untracked memory is an error too, nothing is reported
   or recorded) */
static SimStatus mem_access(SimCtx *ctx, const void *addr, size_t bytes, bool is_write, const char *loc,
                            bool check, bool atomic) {
  if (!ctx)
    return SIM_ERR_ARG;
  if (!bytes)
    return SIM_OK;
  uintptr_t p = (uintptr_t)addr;
  Alloc *a = ctx->cache;
  if ((!a || p < a->base || p + bytes > a->base + a->bytes || p + bytes < p) &&
      (p + bytes < p || !(a = tcache_find(ctx->dev, ctx->op, p, bytes)))) {
    SimDevice *dev = ctx->dev;
    SimStatus st = SIM_OK;
    const char *at = loc ? loc : ctx->op->d.loc;
    bool kernel = ctx->op->d.kind == SIM_OP_KERNEL;
    pthread_mutex_lock(&dev->mu);
    Where w = where(dev, p, bytes, &a);
    size_t first = w == W_OOB && a && p >= a->base && p < a->base + a->bytes ? a->base + a->bytes - p : 0;
    if (first && next_touches(dev, a)) {
      /* Past a's end, another allocation begins with no gap: the kernel's accesses of the two,
         side by side, merged into one range (kernels report ranges, not single accesses). Check
         it allocation by allocation, as the accesses were. */
      pthread_mutex_unlock(&dev->mu);
      st = mem_access(ctx, addr, first, is_write, loc, check, atomic);
      return st != SIM_OK ? st : mem_access(ctx, (const char *)addr + first, bytes - first, is_write, loc, check,
                                            atomic);
    }
    if (w == W_UNTRACKED && !dev->cfg.strict_host && !check) {
      a = NULL;
    } else if (check && w == W_UNTRACKED) {
      st = SIM_ERR_ARG;
    } else if (w != W_IN) {
      report_where(dev, w, a, p, bytes, kernel ? (is_write ? "kernel store" : "kernel load") :
                   (is_write ? "host callback store" : "host callback load"), at, ctx->op->id);
      st = SIM_ERR_MEMORY;
      /* Memory freed while the op ran, or before it began, by a free nothing orders with it: this
         schedule's witness of a use-after-free race, which the race check must still see, so the
         access is kept (the dead allocation keeps its records while late ops are in flight). */
      if (w == W_FREED && p + bytes <= a->base + a->bytes && p + bytes > p)
        acc_add(ctx, a, p - a->base, p - a->base + bytes, is_write, atomic);
    } else if (!may_touch(ctx->op, a)) {
      SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = at,
                   .op = ctx->op->id, .alloc_loc = a->loc, .offset = p - a->base, .bytes = bytes};
      diag_emit(dev, &d, "%s of %s allocated at '%s', which it cannot access",
                kernel ? "kernel access" : "host callback access", kind_name(a->kind),
                LOC(a->loc));
      st = SIM_ERR_MEMORY;
    } else {
      ctx->cache = a;
      tcache_add(dev, a);
    }
    pthread_mutex_unlock(&dev->mu);
    if (st != SIM_OK) {
      ctx->failed = !check;
      return st;
    }
    if (!a)
      return SIM_OK;  /* untracked host memory */
  }
  ctx->cache = a;
  if (!check)
    acc_add(ctx, a, p - a->base, p - a->base + bytes, is_write, atomic);
  return SIM_OK;
}

SimStatus sim_access(SimCtx *ctx, const void *addr, size_t bytes, bool is_write, const char *loc) {
  return mem_access(ctx, addr, bytes, is_write, loc, false, false);
}

SimStatus sim_access_kind(SimCtx *ctx, const void *addr, size_t bytes, SimAccess kind, const char *loc) {
  return mem_access(ctx, addr, bytes, kind != SIM_ACC_READ, loc, false, kind == SIM_ACC_ATOMIC);
}

SimStatus sim_access_check(SimCtx *ctx, const void *addr, size_t bytes, bool is_write, const char *loc) {
  return mem_access(ctx, addr, bytes, is_write, loc, true, false);
}

/* a the probe found: the first of ctx's probed allocations */
static void probed_add(SimCtx *ctx, Alloc *a) {
  enum { N = sizeof ctx->probed / sizeof *ctx->probed };
  memmove(ctx->probed + 1, ctx->probed, (N - 1) * sizeof *ctx->probed);
  ctx->probed[0] = a;
}

/* sim_access_probe of a span none of ctx's probed allocations holds */
static __attribute__((noinline)) bool probe_miss(SimCtx *ctx, uintptr_t p, size_t bytes) {
  Alloc *a = tcache_find(ctx->dev, ctx->op, p, bytes);
  if (a) {
    probed_add(ctx, a);
    return true;
  }
  SimDevice *dev = ctx->dev;
  pthread_mutex_lock(&dev->mu);
  bool ok = where(dev, p, bytes, &a) == W_IN && may_touch(ctx->op, a);
  if (ok) {
    probed_add(ctx, a);
    tcache_add(dev, a);
  }
  pthread_mutex_unlock(&dev->mu);
  return ok;
}

bool sim_access_probe(SimCtx *ctx, const void *addr, size_t bytes) {
  uintptr_t p = (uintptr_t)addr;
  if (!ctx || !bytes || p + bytes < p)
    return false;
  /* a kernel probing its buffers in turn (a vector add's three, block after block) finds each
     among the allocations it probed last, or in the tcache, as its accesses do, without the lock */
  for (unsigned k = 0; k < sizeof ctx->probed / sizeof *ctx->probed; k++) {
    const Alloc *a = ctx->probed[k];
    if (a && p >= a->base && p + bytes <= a->base + a->bytes)
      return true;
  }
  return probe_miss(ctx, p, bytes);
}

/* ---- the end ---- */

void mem_leaks(SimDevice *dev) {
  for (size_t i = 0; i < dev->nallocs; i++) {
    Alloc *a = dev->allocs[i];
    if (a->kind == SIM_MEM_HOST_PAGEABLE) {
      for (size_t k = 0; k < a->nregs; k++) {
        SimDiag d = {.severity = SIM_SEV_WARNING, .kind = SIM_DIAG_LEAK, .loc = a->regs[k].loc,
                     .alloc_loc = a->loc, .bytes = a->regs[k].bytes};
        diag_emit(dev, &d, "host memory allocated at '%s' and registered here was never "
                  "unregistered", LOC(a->loc));
      }
      continue;
    }
    SimDiag d = {.severity = SIM_SEV_WARNING, .kind = SIM_DIAG_LEAK, .loc = a->loc,
                 .alloc_loc = a->loc, .bytes = a->bytes};
    if (a->kind == SIM_MEM_HOST_REGISTERED)
      diag_emit(dev, &d, "host memory (%zu bytes) registered here was never unregistered",
                a->bytes);
    else
      diag_emit(dev, &d, "%s (%zu bytes) allocated here was never freed", kind_name(a->kind),
                a->bytes);
  }
}

void mem_free_all(SimDevice *dev) {
  for (size_t i = 0; i < dev->nallocs; i++) {
    Alloc *a = dev->allocs[i];
    race_recs_clear(dev, a);
    free(a->init);
    free(a->regs);
    free(a);
  }
  free(dev->allocs);
  dev->allocs = NULL;
  dev->nallocs = dev->capallocs = 0;
  while (dev->dead) {
    Alloc *a = dev->dead;
    dev->dead = a->next_dead;
    race_recs_clear(dev, a);
    free(a->init);
    free(a->regs);
    free(a);
  }
  free(dev->spans);
  dev->spans = NULL;
  if (dev->arena)
    munmap(dev->arena, dev->arena_bytes);
  dev->arena = NULL;
}
