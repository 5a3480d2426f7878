/* kernel_mem.c - the memory ops of kernels: memref.load, memref.store, memref.atomic_rmw,
 * memref.alloca, gpu.dynamic_shared_memory and memref.view, with the bounds checks and access
 * records of every access and the race checks of shared memory; and for kernel_fuse.c, the rows
 * of accesses its fused streams take.
 *
 * Every op runs once for the block (see kernel.c): a uniform result once, a varying one for each
 * active thread. A thread's element is bounds-checked index by index (address); the common
 * shapes (a uniform descriptor indexed by consecutive threads, or by a block's rows and columns)
 * are checked once for the whole row or tile and then run in lane loops.
 *
 * Access records: a load or store merges what consecutive threads touch into runs, and runs into
 * the frame's ranges (note(): a range that ends where a new access starts grows; kept in a small
 * map by end address); the ranges are sorted and merged when the list fills, and reported to the
 * backend with be_kernel_access when the frame's run of blocks ends. Accesses of a block's shared
 * memory are instead checked against the other threads' since the last barrier (the shadow, see
 * "Races between the threads of a block" below). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32

static int cmp_range(const void *a, const void *b) {
  const KRange *x = a, *y = b;
  if (x->write != y->write)
    return x->write ? 1 : -1;
  if (x->atomic != y->atomic)
    return x->atomic ? 1 : -1;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static bool report_accesses(KFrame *f);

/* Merges the ranges that overlap, and those that touch when one op made both: two ops' ranges
 * that only touch may lie in two allocations side by side (host memory a driver was handed
 * carries no gap), and the backend checks each range it is told of as one access. */
static void compact(KFrame *f) {
  if (f->nacc < 2)
    return;
  qsort(f->acc, f->nacc, sizeof *f->acc, cmp_range);
  size_t j = 0;
  for (size_t i = 1; i < f->nacc; i++) {
    KRange *c = &f->acc[j], *r = &f->acc[i];
    if (r->write == c->write && r->atomic == c->atomic && (r->lo < c->hi || (r->lo == c->hi && r->loc == c->loc))) {
      if (r->hi > c->hi)
        c->hi = r->hi;
    } else {
      f->acc[++j] = *r;
    }
  }
  f->nacc = j + 1;
}

/* The slot of the range that ends at `end` in the frame's small map from end addresses to
 * ranges (a cache: a miss only costs a range that compact() merges later). */
static inline uint32_t end_slot(uintptr_t end, bool write) {
  return (uint32_t)((((uint64_t)end >> 2) * 0x9E3779B97F4A7C15ull + write) >> 52) & (KHASH - 1);
}

/* Room for one more range in f->acc: merges what is there, grows the array, or, with no memory
 * left, reports what it holds and starts over. False when there is no room at all. */
static bool acc_room(KFrame *f) {
  if (f->nacc < f->capacc)
    return true;
  compact(f);
  memset(f->hash, 0xff, KHASH * sizeof *f->hash);
  if (f->nacc * 4 >= f->capacc * 3) {
    size_t cap = f->capacc ? f->capacc * 2 : 1024;
    KRange *r = realloc(f->acc, cap * sizeof *r);
    if (!r) { /* no room: report what we have, then start over */
      report_accesses(f);
      return f->capacc != 0;
    }
    f->acc = r;
    f->capacc = cap;
  }
  return true;
}

/* Records [lo, hi): extends the range of the same op that ends at lo, or drops what a range with
 * the same end already covers, or adds a range. */
static void note(KFrame *f, uintptr_t lo, uintptr_t hi, bool write, const char *loc) {
  uint32_t i = f->hash[end_slot(lo, write)];
  if (i < f->nacc && f->acc[i].write == write && !f->acc[i].atomic && f->acc[i].hi == lo && f->acc[i].loc == loc) {
    f->acc[i].hi = hi;
    f->hash[end_slot(hi, write)] = i;
    return;
  }
  uint32_t h = end_slot(hi, write);
  i = f->hash[h];
  if (i < f->nacc && f->acc[i].write == write && !f->acc[i].atomic && f->acc[i].hi == hi && f->acc[i].lo <= lo)
    return;
  if (!acc_room(f))
    return;
  f->hash[h] = (uint32_t)f->nacc;
  f->acc[f->nacc++] = (KRange){lo, hi, loc, write, false};
}

void kernel_note_atomic(KFrame *f, uintptr_t lo, uintptr_t hi, const char *loc) {
  if ((char *)lo >= f->lo && (char *)lo < f->hi)
    return;
  kernel_glog(f, lo, hi, BE_ACC_ATOMIC, loc);
  KRange *last = f->nacc ? &f->acc[f->nacc - 1] : NULL;
  if (last && last->atomic && lo >= last->lo && hi <= last->hi)
    return; /* threads updating one counter */
  if (last && last->atomic && lo == last->hi && last->loc == loc) {
    last->hi = hi;
    return;
  }
  if (!acc_room(f))
    return;
  f->acc[f->nacc++] = (KRange){lo, hi, loc, true, true};
}

/* Consecutive threads' accesses, merged while they stay contiguous. In a block-wise frame checked
 * between blocks (kernel_race.c), a run holds one block's threads only: its block is the frame's
 * blk-th, and the block's threads end at thread `end`. */
typedef struct Run {
  uintptr_t lo, hi;
  uint32_t blk, end;
} Run;

static inline Run run_new(const KFrame *f) { return (Run){0, 0, 0, f->wide && f->gon ? 0 : UINT32_MAX}; }

static inline void run_log(KFrame *f, const Run *r, bool write, const char *loc) {
  note(f, r->lo, r->hi, write, loc);
  if (f->gon)
    kernel_glog_blocks(f, r->lo, r->hi - r->lo, f->blin + r->blk, 1, write, loc);
}

/* Thread l's access of [p, p + bytes) (threads come in ascending order). */
static inline void run_add(KFrame *f, Run *r, uint32_t l, const void *p, size_t bytes, bool write, const char *loc) {
  uintptr_t a = (uintptr_t)p;
  if ((char *)p >= f->lo && (char *)p < f->hi)
    return;
  if (l >= r->end) { /* the next block of a block-wise frame: a run of its own */
    if (r->hi)
      run_log(f, r, write, loc);
    r->hi = 0;
    r->blk = l / f->wide;
    r->end = (r->blk + 1) * f->wide;
  }
  if (a >= r->lo && a + bytes <= r->hi)
    return;
  if (a == r->hi && r->hi) {
    r->hi += bytes;
    return;
  }
  if (r->hi)
    run_log(f, r, write, loc);
  r->lo = a;
  r->hi = a + bytes;
}

static inline void run_end(KFrame *f, Run *r, bool write, const char *loc) {
  if (r->hi)
    run_log(f, r, write, loc);
}

/* In a block-wise frame checked between blocks, the memory ops log each block's part of what
 * they touch as they run (memos are the frame's, not a block's); in any other frame nothing.
 * glog_lanes: threads l0 .. l0 + m - 1 touch the m consecutive elements of es bytes from p, thread
 * l0 + i the i-th, one record for the whole blocks among them. A write's are logged after it stored
 * (kernel_race.c keeps a small write's bytes). */
static void glog_lanes(KFrame *f, uintptr_t p, size_t es, uint32_t l0, uint32_t m, bool write, const char *loc) {
  uint32_t w = f->wide;
  for (uint32_t l = l0, e = l0 + m; l < e;) {
    uint32_t j = l / w, nb = 1, n = ((j + 1) * w < e ? (j + 1) * w : e) - l;
    if (l == j * w && e - l >= w) /* whole blocks */
      nb = (e - l) / w;
    kernel_glog_blocks(f, p + (uintptr_t)(l - l0) * es, n * es, f->blin + j, nb, write, loc);
    l += nb * n;
  }
}

/* The frame's blocks (all active: every block of a full frame) touch rows ranges [lo, lo + len) + r
 * * stride, block r the r-th (stride 0: the same range); stride len: one record. */
static void glog_rows(KFrame *f, uintptr_t lo, uintptr_t len, int64_t stride, uint32_t rows, bool write,
                      const char *loc) {
  if (stride == (int64_t)len) {
    kernel_glog_blocks(f, lo, len, f->blin, rows, write, loc);
    return;
  }
  for (uint32_t r = 0; r < rows; r++)
    kernel_glog_blocks(f, lo + (uintptr_t)((int64_t)r * stride), len, f->blin + r, 1, write, loc);
}

/* Every active thread's block touches [lo, lo + len) but that of thread skip (logged by its run). */
static void glog_active(KFrame *f, uintptr_t lo, uintptr_t len, uint32_t skip, bool write, const char *loc) {
  uint32_t w = f->wide, seen = skip / w;
  for (uint32_t i = 0; i < f->nact; i++)
    if (f->act[i] / w != seen) {
      seen = f->act[i] / w;
      kernel_glog_blocks(f, lo, len, f->blin + seen, 1, write, loc);
    }
}

static inline bool glog_wide(const KFrame *f) { return f->wide && f->gon; }

typedef struct KMem {
  Type *elem;
  uint32_t rank, esize;
  uint8_t tid[2]; /* index i is a uniform value plus the thread's x (1) or y (2) id (kernel_tid) */
  uint32_t first; /* first index operand */
  int kind;       /* atomic_rmw: the kind */
  uint32_t memo;  /* its KFrame.memo */
} KMem;

/* Logs what of g the running block touched (kernel_race.c). */
static void memo_glog(KFrame *f, KMemo *g) {
  uintptr_t lo = g->mark > g->lo ? g->mark : g->lo;
  if (lo < g->hi && g->grp) { /* a group's: each row's element at lo is the phase-th op's */
    uint32_t ph = (uint32_t)((g->phase + (lo - g->lo) / g->grp->esize) % g->grp->n);
    for (uint32_t r = 0; r < g->rows; r++)
      kernel_glog_group(f, lo + (uintptr_t)((int64_t)r * g->stride), g->hi + (uintptr_t)((int64_t)r * g->stride),
                        g->grp, ph);
  } else if (lo < g->hi)
    for (uint32_t r = 0; r < g->rows; r++)
      kernel_glog(f, lo + (uintptr_t)((int64_t)r * g->stride), g->hi + (uintptr_t)((int64_t)r * g->stride), g->write,
                  g->loc);
  g->mark = g->hi;
}

void kernel_glog_memos(KFrame *f) {
  for (uint32_t i = 0; i < f->nmemo; i++)
    if (f->memo[i].hi)
      memo_glog(f, &f->memo[i]);
}

static void memo_flush(KFrame *f, KMemo *g) {
  uintptr_t lo = g->lo, hi = g->hi;
  if (!hi)
    return;
  if (f->gon && !f->wide)
    memo_glog(f, g);
  g->hi = 0;
  for (uint32_t r = 0; r < g->rows; r++)
    note(f, lo + (uintptr_t)((int64_t)r * g->stride), hi + (uintptr_t)((int64_t)r * g->stride), g->write, g->loc);
}

/* Records rows ranges [lo, lo + len) + r * stride of memory op m, through its memo: a group that
 * continues the pending one (or lies in what the running block logs of it) costs no note. A group
 * in the part blocks before this one logged starts a new memo, so that this block logs it too. */
static inline void note_rows(KFrame *f, const KIns *k, const KMem *m, uintptr_t lo, uintptr_t len, int64_t stride,
                             uint32_t rows, bool write) {
  KMemo *g = &f->memo[m->memo];
  if (g->hi && !g->grp && g->rows == rows && g->write == write && (rows == 1 || g->stride == stride)) {
    if (g->hi == lo) {
      g->hi += len;
      return;
    }
    if (lo >= g->lo && lo + len <= g->hi && (lo >= g->mark || !f->gon))
      return;
  }
  memo_flush(f, g);
  *g = (KMemo){lo, lo + len, stride, rows, write, k->loc, 0, NULL, 0};
}

/* Reports what the frame recorded; false when the backend refused an access (reported). */
static bool report_accesses(KFrame *f);

bool kernel_flush_accesses(KFrame *f) {
  for (uint32_t i = 0; i < f->nmemo; i++)
    memo_flush(f, &f->memo[i]);
  return report_accesses(f);
}

static bool report_accesses(KFrame *f) {
  if (f->gcap) { /* a replay's (kernel_race_check): the launch reported them */
    f->nacc = 0;
    return true;
  }
  compact(f);
  bool ok = true;
  for (size_t i = 0; i < f->nacc && ok; i++)
    ok = be_kernel_access_kind(f->ctx, (void *)f->acc[i].lo, f->acc[i].hi - f->acc[i].lo,
                               f->acc[i].atomic ? BE_ACC_ATOMIC
                               : f->acc[i].write ? BE_ACC_WRITE
                                                 : BE_ACC_READ,
                               f->acc[i].loc) == BE_OK;
  f->nacc = 0; /* f->hash keeps its entries: note() checks each against the range it names */
  return ok;
}


/* What a memory op does to memory, for its diagnostics: "load", "store", or "access" (atomics). */
static const char *access_word(const Op *op) {
  return ir_str_eq(op->name, "memref.load") || ir_str_eq(op->name, "vector.load") ? "load"
         : ir_str_eq(op->name, "memref.store") || ir_str_eq(op->name, "vector.store") ? "store"
                                                                                     : "access";
}

/* Thread l's index x of dimension i is not in [0, n): the error names the bytes the access would
 * touch, from the memref's first element (its offset left out), as the llvm and PTX forms name
 * the bytes of their pointers (kernel_llvm.c, kernel_ptx.c). */
static __attribute__((noinline, cold)) void oob_index(KFrame *f, const KIns *k, const KMem *m, uint32_t dop,
                                                      uint32_t l, int64_t x, int64_t n, uint32_t i) {
  bool vd = k->vin[dop];
  uint32_t d = k->in[dop];
  size_t ld = vd ? l : 0;
  int64_t el = 0;
  bool ok = true;
  for (uint32_t j = 0; j < m->rank && ok; j++) {
    uint32_t o = m->first + j;
    ok = kernel_madd(&el, kw(f, k->in[o], k->vin[o])[k->vin[o] ? l : 0].i, kw(f, d + D_SIZES + m->rank + j, vd)[ld].i);
  }
  int64_t byte = 0;
  if (ok && kernel_madd(&byte, el, (int64_t)m->esize))
    kernel_error(f, k, l, "out-of-bounds %s: bytes [%lld, %lld) of the memref: index %lld is not in [0, %lld) in "
                 "dimension %u", access_word(k->op), (long long)byte, (long long)byte + m->esize, (long long)x,
                 (long long)n, i);
  else
    kernel_error(f, k, l, "out-of-bounds %s: index %lld is not in [0, %lld) in dimension %u", access_word(k->op),
                 (long long)x, (long long)n, i);
}

/* The address of the element thread l indexes, or NULL after an error. */
static inline char *address(KFrame *f, const KIns *k, const KMem *m, uint32_t dop, uint32_t l) {
  bool vd = k->vin[dop];
  uint32_t d = k->in[dop];
  size_t ld = vd ? l : 0;
  int64_t off = kw(f, d + D_OFFSET, vd)[ld].i;
  for (uint32_t i = 0; i < m->rank; i++) {
    uint32_t j = m->first + i;
    int64_t x = kw(f, k->in[j], k->vin[j])[k->vin[j] ? l : 0].i, n = kw(f, d + D_SIZES + i, vd)[ld].i;
    if (x < 0 || x >= n) {
      oob_index(f, k, m, dop, l, x, n, i);
      return NULL;
    }
    if (!kernel_madd(&off, x, kw(f, d + D_SIZES + m->rank + i, vd)[ld].i)) {
      kernel_error(f, k, l, "the element's offset overflows (index %lld in dimension %u)", (long long)x, i);
      return NULL;
    }
  }
  int64_t byte = 0;
  if (!kernel_madd(&byte, off, (int64_t)m->esize)) {
    kernel_error(f, k, l, "the element's offset %lld overflows", (long long)off);
    return NULL;
  }
  return (char *)((uintptr_t)kw(f, d + D_ALIGNED, vd)[ld].p + (uintptr_t)byte);
}

static inline void load_elem(const KMem *m, const char *p, Slot *o) {
  if (m->esize == 4 && m->elem->kind == TY_FLOAT) {
    Slot r = {0};
    memcpy(&r.f32, p, 4);
    *o = r;
  } else if (m->esize == 4) {
    int32_t v;
    memcpy(&v, p, 4);
    o->i = m->elem->u.i.width == 32 ? v : kernel_sext((uint32_t)v, m->elem->u.i.width);
  } else if (m->esize == 8) {
    memcpy(o, p, 8);
  } else {
    kernel_load_elem(m->elem, p, o);
  }
}

static inline void store_elem(const KMem *m, char *p, const Slot *v) {
  if (m->esize == 4 && m->elem->kind == TY_FLOAT)
    memcpy(p, &v->f32, 4);
  else if (m->esize == 4 || m->esize == 8)
    memcpy(p, v, m->esize);
  else
    kernel_store_elem(m->elem, p, v);
}

/* The common case, a uniform descriptor of rank 1 or 2: its words read once per op. */
typedef struct Lin {
  char *base;     /* the element where the varying index is 0 */
  int64_t n, sb;  /* the varying index's size, and its stride in bytes */
  const Slot *i;  /* the varying (or only) index operand */
  size_t si;
  bool local;
  uint8_t tid;    /* the varying index is known to be uniform + thread x (1) or y (2) id */
} Lin;

/* The common case: a uniform descriptor of rank 1, or of rank 2 with one uniform index (checked
 * here), read once per op so that each thread's address is one multiply. */
static inline bool lin_of(KFrame *f, const KIns *k, const KMem *m, uint32_t dop, Lin *L) {
  if (k->vin[dop] || m->rank < 1 || m->rank > 2)
    return false;
  const Slot *d = f->u + k->in[dop];
  int64_t off = d[D_OFFSET].i;
  uint32_t v = 0; /* the dimension of the varying index */
  if (m->rank == 2) {
    bool v0 = k->vin[m->first], v1 = k->vin[m->first + 1];
    if (v0 && v1)
      return false;
    v = v1 ? 1 : 0;
    uint32_t u = 1 - v;
    int64_t x = KIN(f, k, m->first + u)[0].i;
    if (x < 0 || x >= d[D_SIZES + u].i)
      return false; /* address() reports it */
    if (!kernel_madd(&off, x, d[D_SIZES + 2 + u].i))
      return false; /* address() reports it */
  }
  int64_t byte = 0, span;
  L->n = d[D_SIZES + v].i;
  /* every in-bounds address is base + x * sb with x < n: when that arithmetic could overflow,
   * address() computes (and reports) each one checked */
  if (!kernel_madd(&byte, off, (int64_t)m->esize) ||
      __builtin_mul_overflow(d[D_SIZES + m->rank + v].i, (int64_t)m->esize, &L->sb) ||
      (L->n > 0 && __builtin_mul_overflow(L->n - 1, L->sb, &span)))
    return false;
  L->base = (char *)((uintptr_t)d[D_ALIGNED].p + (uintptr_t)byte);
  L->i = KIN(f, k, m->first + v);
  L->si = k->vin[m->first + v];
  L->local = L->base >= f->lo && L->base < f->hi;
  L->tid = v < 2 ? m->tid[v] : 0;
  return true;
}

/* With the mask full and thread l indexing x0 + l of a unit-stride line, x0 after checking that
 * the run is in bounds; -1 otherwise. */
KLANEFN static int64_t consecutive(const KFrame *f, const Lin *L, size_t es) {
  if (f->nact != f->n || !L->si || L->sb != (int64_t)es)
    return -1;
  int64_t x0 = L->i[0].i;
  if (x0 < 0 || x0 + (int64_t)f->n > L->n)
    return -1;
  if (L->tid == 1 && kernel_one_row(f)) /* known at compile time: no need to look */
    return x0;
  /* thread x ids repeat in every row, thread y ids in every column: not consecutive */
  if ((L->tid == 1 && f->bdim[0] < f->n) || (L->tid == 2 && f->bdim[0] > 1))
    return -1;
  if (f->n > 1 && (L->i[1].i != x0 + 1 || L->i[f->n - 1].i != x0 + (int64_t)f->n - 1))
    return -1;
  /* or-ing the differences vectorizes, a compare per thread does not */
  uint64_t bad = 0;
  const Slot *I = L->i;
  for (uint32_t l = 0, n = f->n; l < n; l++)
    bad |= ((uint64_t)I[l].i - (uint64_t)l) ^ (uint64_t)x0;
  return bad ? -1 : x0;
}

/* Blocks with several rows of threads (bx = block x size < n) often index by the thread's x (the
 * same bx elements in every row) or by its row (one element per row). With the mask full: 1 and
 * x0 when thread l indexes x0 + l % bx, 2 and x0 when it indexes x0 + l / bx, after checking the
 * bounds; 0 otherwise. */
static int tiled(const KFrame *f, const Lin *L, size_t es, int64_t *x0) {
  uint32_t bx = f->bdim[0], n = f->n, rows = n / bx;
  if (f->nact != n || !L->si || bx == n || n % bx)
    return 0;
  int64_t a = L->i[0].i;
  const Slot *I = L->i;
  uint32_t bad = 0;
  bool known_x = L->tid == 1 && !f->wide, known_y = L->tid == 2 && f->bdim[2] == 1 && !f->wide;
  if (known_x || (!known_y && bx > 1 && I[1].i == a + 1)) { /* x0 + l % bx, contiguous */
    if (a < 0 || a + bx > L->n || L->sb != (int64_t)es)
      return 0;
    *x0 = a;
    if (known_x)
      return 1;
    for (uint32_t g = 0; g < rows; g++, I += bx)
      for (uint32_t t = 0; t < bx; t++)
        bad |= (uint32_t)(I[t].i != a + (int64_t)t);
    *x0 = a;
    return bad ? 0 : 1;
  }
  if (a < 0 || a + (int64_t)rows > L->n) /* x0 + l / bx */
    return 0;
  *x0 = a;
  if (known_y)
    return 2;
  for (uint32_t g = 0; g < rows; g++, I += bx)
    for (uint32_t t = 0; t < bx; t++)
      bad |= (uint32_t)(I[t].i != a + (int64_t)g);
  *x0 = a;
  return bad ? 0 : 2;
}

/* Races between the threads of a block in shared memory: two threads touch the same element
 * between two barriers and one of them writes. The shadow keeps, per granule where an access
 * starts (granules the size of the kernel's smallest access: two accesses that start in one
 * overlap), the last writer and reader and the barrier interval (epoch) they were in; accesses
 * that overlap without starting in the same granule are not compared (KShadow is in kernel.h).
 *
 * Grading, as compute-sanitizer's racecheck does: a thread writing the value the memory already
 * holds, where another thread's unordered write put it, is a benign hazard (kernel_benign: a note,
 * or a warning with --race-check=strict): every order of the two writes leaves the same bytes.
 * The check compares the store's bytes with the memory, which holds the last write: the block runs
 * on one frame, in lock step, so nothing else wrote in between. The writers are then "several"
 * (a bit of the record), ordered only by the next barrier. A write of a different value, and a
 * read against a write, are errors.
 *
 * Warp-level syncs. A shuffle syncs the threads of a warp that execute it: what each did before
 * is ordered before what the others do after (upstream's gpu.all_reduce lowering relies on it:
 * the first lanes read the warp sums, shuffle, then each stores the total where lane 0 read). Each
 * thread then gets an epoch of its own (sh.lep, "split"): each warp's participants a new one.
 * An access (epoch e, thread a) is ordered before thread l's access when e predates the last
 * barrier (base), when a is l, or when a synced since (lep[a] != e) in the same sync as l's last
 * (lep[a] == lep[l]). This misses chains of syncs (a with b, then b with l), so it may report a
 * race that is none, never the other way round. Until the first sync after a barrier every
 * thread's epoch is f->epoch and the fast paths below apply.
 *
 * Run accesses (shared_lanes) while an interval has had no other kind are kept as a list instead
 * of in the granules (kernel_shruns.c); everything here that reads or writes the granules first
 * settles the list into them (kernel_shruns_settle), so the checks below see every access. */
static inline bool in_shared(const KFrame *f, const char *p) {
  return f->shadow && p >= f->lo && p < f->priv; /* no shadow: checks are off */
}

#define KSH_SEVERAL_W (1ull << 31)
#define KSH_SEVERAL_R (1ull << 16)

static inline uint32_t lane_epoch(const KFrame *f, uint32_t l) { return f->split ? f->sh.lep[l] : f->epoch; }

/* Is the access of thread a in epoch e (by several threads: sev) ordered before thread l's now? */
static inline bool sh_before(const KFrame *f, uint32_t e, uint32_t a, bool sev, uint32_t l) {
  if (e < f->base)
    return true;
  if (sev)
    return false;
  if (a == l)
    return true;
  return f->split && a < f->n && f->sh.lep[a] != e && f->sh.lep[a] == f->sh.lep[l];
}

/* Reports the race the shadow found against record rec (the last write when wrec, else the last
 * read); false. */
static __attribute__((noinline, cold)) bool shared_race(KFrame *f, const KIns *k, uint32_t l, const char *p,
                                                       size_t es, bool write, bool wrec, uint64_t rec) {
  uint32_t other;
  const char *what, *at;
  if (wrec) {
    other = (uint16_t)rec;
    what = "wrote";
    at = f->sh.loc[(rec >> 16) & KSH_OPS];
  } else {
    other = (uint16_t)rec != l ? (uint16_t)rec : UINT32_MAX;
    what = "read";
    at = f->sh.loc[(rec >> 17) & KSH_OPS];
  }
  const char *verb = !write ? "reads" : wrec ? "writes a different value to" : "writes";
  uint32_t bx = f->bdim[0], by = f->bdim[1];
  size_t off = (size_t)(p - f->lo);
  if (other == UINT32_MAX)
    kernel_error(f, k, l, "data race in shared memory: %s bytes [%zu, %zu), which other threads %s at '%s' with no gpu.barrier in between",
                 verb, off, off + es, what, at);
  else
    kernel_error(f, k, l, "data race in shared memory: %s bytes [%zu, %zu), which thread (%u, %u, %u) %s at '%s' with no gpu.barrier in between",
                 verb, off, off + es, other % bx, other / bx % by, other / (bx * by), what, at);
  return false;
}

/* The shadow's number for memory op m, its location noted. */
static inline uint64_t shadow_op(KFrame *f, const KIns *k, const KMem *m) {
  uint64_t op = m->memo < KSH_OPS ? m->memo : KSH_OPS;
  f->sh.loc[op] = k->loc;
  return op;
}

/* Does the store of v (es bytes of m's element type) leave the bytes at p as they are? */
static bool same_value(const KMem *m, const char *p, size_t es, const Slot *v) {
  char b[16] = {0};
  if (!v || !m->elem || es > sizeof b)
    return false;
  if (es == 4 && m->elem->kind == TY_FLOAT)
    memcpy(b, &v->f32, 4);
  else if (es == 4 || es == 8)
    memcpy(b, v, es);
  else
    kernel_store_elem(m->elem, b, v);
  return !memcmp(b, p, es);
}

/* The general check: shared_ok's conflicts, and every access while split. */
static __attribute__((noinline)) bool shared_slow(KFrame *f, const KIns *k, const KMem *m, uint32_t l,
                                                  const char *p, size_t es, bool write, const Slot *v) {
  size_t j = (size_t)(p - f->lo) >> f->gshift;
  uint64_t W = f->sh.w[j], R = f->sh.r[j], op = shadow_op(f, k, m), e = lane_epoch(f, l);
  bool benign = false;
  if (!sh_before(f, (uint32_t)(W >> 32), (uint16_t)W, W & KSH_SEVERAL_W, l)) {
    if (!write || !same_value(m, p, es, v))
      return shared_race(f, k, l, p, es, write, true, W);
    benign = true;
  }
  if (write) {
    if (!sh_before(f, (uint32_t)(R >> 32), (uint16_t)R, R & KSH_SEVERAL_R, l))
      return shared_race(f, k, l, p, es, write, false, R);
    if (benign) {
      uint32_t o = (uint16_t)W, bx = f->bdim[0], by = f->bdim[1];
      size_t off = (size_t)(p - f->lo);
      kernel_benign(f, k, m->memo, l,
                    "benign race in shared memory: writes bytes [%zu, %zu) with the value thread (%u, %u, %u) "
                    "wrote there at '%s' with no gpu.barrier in between",
                    off, off + es, o % bx, o / bx % by, o / (bx * by), f->sh.loc[(W >> 16) & KSH_OPS]);
    }
    f->sh.w[j] = e << 32 | (benign ? KSH_SEVERAL_W : 0) | op << 16 | l;
    return true;
  }
  uint32_t re = (uint32_t)(R >> 32), ra = (uint16_t)R;
  if (re < f->base || (!(R & KSH_SEVERAL_R) && sh_before(f, re, ra, false, l)))
    f->sh.r[j] = e << 32 | op << 17 | l;
  else
    f->sh.r[j] = R | KSH_SEVERAL_R;
  return true;
}

/* v: the value a store writes (NULL for a load, or an access that cannot be benign) */
static inline bool shared_ok(KFrame *f, const KIns *k, const KMem *m, uint32_t l, const char *p, size_t es,
                             bool write, const Slot *v) {
  kernel_shruns_settle(f);
  if (f->split)
    return shared_slow(f, k, m, l, p, es, write, v);
  size_t j = (size_t)(p - f->lo) >> f->gshift;
  uint64_t W = f->sh.w[j], R = f->sh.r[j], E = (uint64_t)f->epoch << 32, op = shadow_op(f, k, m);
  if ((W >> 32 << 32) == E && (W & (KSH_SEVERAL_W | 0xffff)) != l)
    return shared_slow(f, k, m, l, p, es, write, v);
  if (write) {
    if ((R >> 32 << 32) == E && (R & (KSH_SEVERAL_R | 0xffff)) != l)
      return shared_slow(f, k, m, l, p, es, write, v);
    f->sh.w[j] = E | op << 16 | l;
  } else if ((R >> 32 << 32) != E) {
    f->sh.r[j] = E | op << 17 | l;
  } else if ((uint16_t)R != l) {
    f->sh.r[j] = R | KSH_SEVERAL_R;
  }
  return true;
}

void kernel_warp_sync(KFrame *f) {
  if (!f->shadow || !f->nact)
    return;
  kernel_shruns_settle(f); /* the interval's listed runs are not ordered before what follows */
  if (f->nact == f->n && f->n <= WARP) { /* the whole block: a barrier, as far as memory goes */
    f->base = ++f->epoch;
    f->split = false;
    return;
  }
  if (!f->split) {
    for (uint32_t l = 0; l < f->n; l++)
      f->sh.lep[l] = f->epoch;
    f->split = true;
  }
  uint32_t w = UINT32_MAX;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    if (l / WARP != w) {
      w = l / WARP;
      f->epoch++;
    }
    f->sh.lep[l] = f->epoch;
  }
}

/* Threads l0 .. l0 + m - 1 access granules j0 .. j0 + m - 1, thread l0 + i the i-th: checked and
 * recorded in vector loops. False, with nothing recorded, when any of them races (the caller
 * then goes thread by thread, which reports the first). */
KLANEFN static bool shared_run(KFrame *f, const KIns *k, const KMem *mem, size_t j0, uint32_t l0, uint32_t m,
                               bool write) {
  if (f->split)
    return false;
  uint64_t *w = f->sh.w + j0, *r = f->sh.r + j0, E = (uint64_t)f->epoch << 32, op = shadow_op(f, k, mem);
  uint64_t bad = 0;
  if (write) {
    for (uint32_t i = 0; i < m; i++) {
      uint64_t l = l0 + i, W = w[i], R = r[i];
      bad |= (uint64_t)(((W >> 32 << 32) == E) & ((W & (KSH_SEVERAL_W | 0xffff)) != l)) |
             (uint64_t)(((R >> 32 << 32) == E) & ((R & 0x1ffff) != l)); /* another reader, or several */
    }
    if (bad)
      return false;
    for (uint32_t i = 0; i < m; i++)
      w[i] = E | op << 16 | (l0 + i);
    return true;
  }
  for (uint32_t i = 0; i < m; i++) {
    uint64_t W = w[i];
    bad |= (uint64_t)(((W >> 32 << 32) == E) & ((W & (KSH_SEVERAL_W | 0xffff)) != (uint64_t)(l0 + i)));
  }
  if (bad)
    return false;
  for (uint32_t i = 0; i < m; i++) {
    uint64_t R = r[i], l = l0 + i;
    bool fresh = (R >> 32 << 32) != E;
    r[i] = fresh ? E | op << 17 | l : R | (uint64_t)((R & 0xffff) != l) << 16;
  }
  return true;
}

/* shared_run, but first as one of the interval's listed runs when it can be (kernel_shruns.c:
 * while the interval's accesses are all runs, they are checked against each other as runs). */
static inline bool shared_lanes(KFrame *f, const KIns *k, const KMem *mem, size_t j0, uint32_t l0, uint32_t m,
                                bool write) {
  if (!f->split && kernel_shruns_add(f, (uint32_t)j0, l0, m, write, (uint32_t)shadow_op(f, k, mem)))
    return true;
  return shared_run(f, k, mem, j0, l0, m, write);
}

/* The active threads are l0 .. l0 + m - 1 and thread l0 + i indexes x0 + i of a unit-stride line,
 * in bounds: their first element's index, else -1. */
static inline __attribute__((always_inline)) int64_t contiguous_run(const KFrame *f, const Lin *L, size_t es,
                                                                   uint32_t *l0) {
  uint32_t m = f->nact, a = f->act[0];
  if (!L->si || L->sb != (int64_t)es || f->act[m - 1] != a + m - 1)
    return -1;
  int64_t x0 = L->i[a].i;
  if (x0 < 0 || x0 + (int64_t)m > L->n)
    return -1;
  *l0 = a;
  if (L->tid == 1 && kernel_one_row(f))
    return x0;
  const Slot *I = L->i + a;
  uint32_t bad = 0;
  for (uint32_t i = 0; i < m; i++)
    bad |= (uint32_t)(I[i].i != x0 + (int64_t)i);
  return bad ? -1 : x0;
}

/* The loop over active threads of such an access; BODY uses p (the element) and l. On a bad
 * index, address() reports it. */
#define LIN_LOOP(write, val, BODY)                                                                  \
  KLANES(f, l, {                                                                                   \
    int64_t x = L.i[l * L.si].i;                                                                   \
    if ((uint64_t)x >= (uint64_t)L.n) {                                                            \
      address(f, k, m, dop, l);                                                                    \
      res = EX_ERROR;                                                                              \
      break;                                                                                       \
    }                                                                                              \
    char *p = L.base + x * L.sb;                                                                   \
    if (!L.local) {                                                                                \
      run_add(f, &r, l, p, es, write, k->loc);                                                     \
    } else if (shared && !shared_ok(f, k, m, l, p, es, write, val)) {                               \
      res = EX_ERROR;                                                                              \
      break;                                                                                       \
    }                                                                                              \
    BODY                                                                                           \
  })

KLANEFN static int x_load(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  Slot *O = KOUT(f, k, 0);
  Run r;
  const uint32_t dop = 0;
  int res = EX_NEXT;
  Lin L;
  if (!k->vout[0]) {
    char *p = address(f, k, m, 0, f->act[0]);
    if (!p || (in_shared(f, p) && !shared_ok(f, k, m, f->act[0], p, m->esize, false, NULL)))
      return EX_ERROR;
    r = run_new(f);
    run_add(f, &r, f->act[0], p, m->esize, false, k->loc);
    run_end(f, &r, false, k->loc);
    if (glog_wide(f) && r.hi) /* every block of the frame reads it */
      glog_active(f, (uintptr_t)p, m->esize, f->act[0], false, k->loc);
    load_elem(m, p, O);
    return EX_NEXT;
  }
  if (lin_of(f, k, m, dop, &L)) {
    const size_t es = m->esize;
    bool shared = in_shared(f, L.base);
    uint32_t l0;
    int64_t c0;
    /* a run of threads reading a run of elements (a partial mask, as in `if thread_id < s`, or
     * shared memory under any mask) */
    if ((shared ? es == (size_t)1 << f->gshift : f->nact != f->n) && (c0 = contiguous_run(f, &L, es, &l0)) >= 0) {
      const char *p = L.base + c0 * (int64_t)es;
      if (shared ? shared_lanes(f, k, m, (size_t)(p - f->lo) >> f->gshift, l0, f->nact, false) : true) {
        uint32_t nl = f->nact;
        if (!L.local)
          note_rows(f, k, m, (uintptr_t)p, (uintptr_t)nl * es, 0, 1, false);
        if (!L.local && glog_wide(f))
          glog_lanes(f, (uintptr_t)p, es, l0, nl, false, k->loc);
        Slot *o = O + l0;
        const uint32_t *q = (const uint32_t *)(const void *)p;
        if (es == 4 && m->elem->kind == TY_FLOAT)
          for (uint32_t i = 0; i < nl; i++)
            o[i].u = q[i];
        else if (es == 4 && m->elem->u.i.width == 32)
          for (uint32_t i = 0; i < nl; i++)
            o[i].i = (int32_t)q[i];
        else
          for (uint32_t i = 0; i < nl; i++)
            load_elem(m, p + i * es, &o[i]);
        return EX_NEXT;
      }
    }
    int64_t first = shared ? -1 : consecutive(f, &L, es);
    if (first >= 0 && es == 4) {
      const char *p = L.base + first * 4;
      const uint32_t nl = f->n; /* a local: the stores below may not alias it */
      if (!L.local)
        note_rows(f, k, m, (uintptr_t)p, 4 * (uintptr_t)f->n, 0, 1, false);
      if (!L.local && glog_wide(f))
        glog_lanes(f, (uintptr_t)p, 4, 0, f->n, false, k->loc);
      kernel_prefetch_next(f, p, 4 * (size_t)f->n);
      if (m->elem->kind == TY_FLOAT) { /* the f32's bits, zero-extended: a Slot with f32 set */
        const uint32_t *q = (const uint32_t *)(const void *)p;
        for (uint32_t l = 0; l < nl; l++)
          O[l].u = q[l];
      } else {
        const int32_t *q = (const int32_t *)(const void *)p;
        for (uint32_t l = 0; l < nl; l++)
          O[l].i = q[l];
      }
      return EX_NEXT;
    }
    int64_t x0;
    int tile = es == 4 && !shared ? tiled(f, &L, es, &x0) : 0;
    if (tile) { /* one row of bx values (tile 1) or one value per row (tile 2), copied out */
      uint32_t bx = f->bdim[0], rows = f->n / bx;
      bool fl = m->elem->kind == TY_FLOAT;
      if (tile == 1) {
        const char *p = L.base + x0 * L.sb;
        if (!L.local)
          note_rows(f, k, m, (uintptr_t)p, 4 * (uintptr_t)bx, 0, 1, false);
        if (!L.local && glog_wide(f)) /* every block the same row */
          glog_rows(f, (uintptr_t)p, 4 * (uintptr_t)bx, 0, rows, false, k->loc);
        const uint32_t *q = (const uint32_t *)(const void *)p;
        if (fl)
          for (uint32_t t = 0; t < bx; t++)
            O[t].u = q[t];
        else
          for (uint32_t t = 0; t < bx; t++)
            O[t].i = (int32_t)q[t];
        for (uint32_t g = 1; g < rows; g++)
          memcpy(O + (size_t)g * bx, O, bx * sizeof *O);
        return EX_NEXT;
      }
      if (!L.local)
        note_rows(f, k, m, (uintptr_t)(L.base + x0 * L.sb), 4, L.sb, rows, false);
      if (!L.local && glog_wide(f)) /* a block per row */
        glog_rows(f, (uintptr_t)(L.base + x0 * L.sb), 4, L.sb, rows, false, k->loc);
      for (uint32_t g = 0; g < rows; g++) {
        const char *p = L.base + (x0 + g) * L.sb;
        uint32_t w;
        memcpy(&w, p, 4);
        Slot v;
        v.i = fl ? (int64_t)w : (int64_t)(int32_t)w;
        Slot *o = O + (size_t)g * bx;
        for (uint32_t t = 0; t < bx; t++)
          o[t] = v;
      }
      return EX_NEXT;
    }
    r = run_new(f);
    if (es == 4 && m->elem->kind == TY_FLOAT)
      LIN_LOOP(false, NULL, {
        Slot v = {0};
        memcpy(&v.f32, p, 4);
        O[l] = v;
      });
    else if (es == 4 && m->elem->u.i.width == 32)
      LIN_LOOP(false, NULL, {
        int32_t v;
        memcpy(&v, p, 4);
        O[l].i = v;
      });
    else if (es == 8)
      LIN_LOOP(false, NULL, { memcpy(&O[l], p, 8); });
    else
      LIN_LOOP(false, NULL, { load_elem(m, p, &O[l]); });
    run_end(f, &r, false, k->loc);
    return res;
  }
  r = run_new(f);
  KLANES(f, l, {
    char *p = address(f, k, m, 0, l);
    if (!p || (in_shared(f, p) && !shared_ok(f, k, m, l, p, m->esize, false, NULL))) {
      res = EX_ERROR;
      break;
    }
    run_add(f, &r, l, p, m->esize, false, k->loc);
    load_elem(m, p, &O[l]);
  });
  run_end(f, &r, false, k->loc);
  return res;
}

/* A store of rank 2 whose two indices both vary as a block's rows and columns, thread (x, y)
 * storing at [r0 + y, c0 + x] of a uniform descriptor of unit inner stride (a matmul's result,
 * `memref.store %s, %c[%row, %col]`), under the full mask in a frame of one block of one layer:
 * checked in bounds and outside the block's own memory at once, then stored a row at a time and
 * recorded as the threads one by one would record it (their runs: one per row, or one for all
 * where the rows are contiguous, each after its bytes are stored). False: the caller goes thread
 * by thread, which reports what is wrong. */
KLANEFN static bool grid_store(KFrame *f, const KIns *k, const KMem *m, const Slot *V, size_t sv) {
  const uint32_t dop = 1, n = f->n, bx = f->bdim[0], rows = bx ? n / bx : 0;
  if (m->rank != 2 || k->vin[dop] || !k->vin[m->first] || !k->vin[m->first + 1] || f->nact != n || f->wide ||
      f->bdim[2] != 1 || bx < 2 || rows < 2 || rows * bx != n || (m->esize != 4 && m->esize != 8))
    return false;
  const Slot *d = f->u + k->in[dop], *I0 = KIN(f, k, m->first), *I1 = KIN(f, k, m->first + 1);
  int64_t r0 = I0[0].i, c0 = I1[0].i, n0 = d[D_SIZES].i, n1 = d[D_SIZES + 1].i, st0 = d[D_SIZES + 2].i;
  if (d[D_SIZES + 3].i != 1 || I0[bx].i != r0 + 1 || I1[1].i != c0 + 1 || r0 < 0 || c0 < 0 ||
      r0 > n0 - (int64_t)rows || c0 > n1 - (int64_t)bx || st0 < (int64_t)bx)
    return false;
  uint64_t bad = 0; /* or-ing the differences vectorizes */
  for (uint32_t y = 0; y < rows; y++)
    for (uint32_t x = 0; x < bx; x++)
      bad |= ((uint64_t)I0[y * bx + x].i - y - (uint64_t)r0) | ((uint64_t)I1[y * bx + x].i - x - (uint64_t)c0);
  int64_t off = d[D_OFFSET].i, es = (int64_t)m->esize, len = (int64_t)bx * es, first, row, span, last;
  /* every element's offset computed as the threads one by one would, without overflow */
  if (bad || !kernel_madd(&off, r0, st0) || !kernel_madd(&off, c0, 1) || __builtin_mul_overflow(off, es, &first) ||
      __builtin_mul_overflow(st0, es, &row) || __builtin_mul_overflow((int64_t)(rows - 1), row, &span) ||
      __builtin_add_overflow(span, len, &span) || __builtin_add_overflow(first, span, &last))
    return false;
  char *p = (char *)((uintptr_t)d[D_ALIGNED].p + (uintptr_t)first);
  if ((uintptr_t)p + (uintptr_t)span < (uintptr_t)p || (p < f->hi && p + span > f->lo))
    return false;
  bool one = row == len; /* the rows contiguous: the threads' accesses make one run */
  for (uint32_t y = 0; y < rows; y++) {
    char *q = p + (uintptr_t)y * (uintptr_t)row;
    const Slot *v = V + (size_t)y * bx * sv;
    if (es == 4 && sv)
      for (uint32_t x = 0; x < bx; x++) {
        uint32_t w = (uint32_t)v[x].u;
        memcpy(q + (size_t)x * 4, &w, 4);
      }
    else
      for (uint32_t x = 0; x < bx; x++)
        store_elem(m, q + (size_t)x * es, &v[x * sv]);
    if (!one) {
      Run r = {(uintptr_t)q, (uintptr_t)q + (uintptr_t)len, 0, UINT32_MAX};
      run_log(f, &r, true, k->loc);
    }
  }
  if (one) {
    Run r = {(uintptr_t)p, (uintptr_t)p + (uintptr_t)span, 0, UINT32_MAX};
    run_log(f, &r, true, k->loc);
  }
  return true;
}

KLANEFN static int x_store(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Run r;
  const uint32_t dop = 1;
  int res = EX_NEXT;
  Lin L;
  if (lin_of(f, k, m, dop, &L)) {
    const size_t es = m->esize;
    bool shared = in_shared(f, L.base);
    uint32_t l0;
    int64_t c0;
    if ((shared ? es == (size_t)1 << f->gshift : f->nact != f->n) && (c0 = contiguous_run(f, &L, es, &l0)) >= 0) {
      char *p = L.base + c0 * (int64_t)es;
      if (shared ? shared_lanes(f, k, m, (size_t)(p - f->lo) >> f->gshift, l0, f->nact, true) : true) {
        uint32_t nl = f->nact;
        if (!L.local)
          note_rows(f, k, m, (uintptr_t)p, (uintptr_t)nl * es, 0, 1, true);
        const Slot *v = V + (size_t)l0 * sv;
        uint32_t *q = (uint32_t *)(void *)p;
        if (es == 4 && sv)
          for (uint32_t i = 0; i < nl; i++)
            q[i] = (uint32_t)v[i].u;
        else
          for (uint32_t i = 0; i < nl; i++)
            store_elem(m, p + i * es, &v[i * sv]);
        if (!L.local && glog_wide(f))
          glog_lanes(f, (uintptr_t)p, es, l0, nl, true, k->loc);
        return EX_NEXT;
      }
    }
    int64_t first = shared ? -1 : consecutive(f, &L, es);
    if (first >= 0 && es == 4 && sv) {
      char *p = L.base + first * 4;
      const uint32_t nl = f->n; /* a local: the stores below may not alias it */
      if (!L.local)
        note_rows(f, k, m, (uintptr_t)p, 4 * (uintptr_t)f->n, 0, 1, true);
      kernel_prefetch_next(f, p, 4 * (size_t)f->n);
      if (m->elem->kind == TY_FLOAT) {
        uint32_t *q = (uint32_t *)(void *)p;
        for (uint32_t l = 0; l < nl; l++)
          q[l] = (uint32_t)V[l].u;
      } else {
        int32_t *q = (int32_t *)(void *)p;
        for (uint32_t l = 0; l < nl; l++)
          q[l] = (int32_t)V[l].i;
      }
      if (!L.local && glog_wide(f))
        glog_lanes(f, (uintptr_t)p, 4, 0, nl, true, k->loc);
      return EX_NEXT;
    }
    r = run_new(f);
    if (es == 4 && m->elem->kind == TY_FLOAT)
      LIN_LOOP(true, &V[l * sv], { memcpy(p, &V[l * sv].f32, 4); });
    else if (es == 4 || es == 8)
      LIN_LOOP(true, &V[l * sv], { memcpy(p, &V[l * sv], es); });
    else
      LIN_LOOP(true, &V[l * sv], { store_elem(m, p, &V[l * sv]); });
    run_end(f, &r, true, k->loc);
    return res;
  }
  if (grid_store(f, k, m, V, sv))
    return EX_NEXT;
  r = run_new(f);
  KLANES(f, l, {
    char *p = address(f, k, m, 1, l);
    if (!p || (in_shared(f, p) && !shared_ok(f, k, m, l, p, m->esize, true, &V[l * sv]))) {
      res = EX_ERROR;
      break;
    }
    run_add(f, &r, l, p, m->esize, true, k->loc);
    store_elem(m, p, &V[l * sv]);
  });
  run_end(f, &r, true, k->loc);
  return res;
}

/* atomic_rmw kinds, in arith's order: addf addi andi assign maximumf maxnumf maxs maxu minimumf
 * minnumf mins minu mulf muli ori xori */
static Slot rmw(const KMem *m, int kind, Slot old, Slot v) {
  KReduce r = {0};
  static const int as_reduce[] = {0, 0, 8, -1, 12, 7, 5, 6, 11, 4, 2, 3, 1, 1, 9, 10};
  if (kind == 3)
    return v;
  r.kind = as_reduce[kind];
  r.is_float = m->elem->kind == TY_FLOAT;
  r.f64 = r.is_float && m->elem->u.f == F_F64;
  r.w = kernel_int_width(m->elem);
  return kernel_reduce_combine(&r, old, v);
}

static int x_atomic(KFrame *f, const KIns *k) {
  const KMem *m = k->aux;
  const Slot *V = KIN(f, k, 0);
  Slot *O = KOUT(f, k, 0);
  size_t sv = k->vin[0];
  int res = EX_NEXT;
  KLANES(f, l, {
    char *p = address(f, k, m, 1, l);
    if (!p) {
      res = EX_ERROR;
      break;
    }
    if (m->esize == 4) {
      uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_SEQ_CST), nw;
      Slot o, n;
      do {
        uint64_t buf = 0, ob = old;
        load_elem(m, (const char *)&ob, &o);
        n = rmw(m, m->kind, o, V[l * sv]);
        store_elem(m, (char *)&buf, &n);
        memcpy(&nw, &buf, 4);
      } while (!__atomic_compare_exchange_n((uint32_t *)p, &old, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
      O[l] = o;
    } else {
      uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_SEQ_CST), nw;
      Slot o, n;
      do {
        load_elem(m, (const char *)&old, &o);
        n = rmw(m, m->kind, o, V[l * sv]);
        store_elem(m, (char *)&nw, &n);
      } while (!__atomic_compare_exchange_n((uint64_t *)p, &old, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
      O[l] = o;
    }
    kernel_note_atomic(f, (uintptr_t)p, (uintptr_t)p + m->esize, k->loc);
  });
  return res;
}

bool c_kmem(KComp *kc, Op *op, KIns *k) {
  bool load = ir_str_eq(op->name, "memref.load"), atomic = ir_str_eq(op->name, "memref.atomic_rmw");
  uint32_t dop = load ? 0 : 1;
  Type *t = op->operands[dop]->type;
  if (t->kind != TY_MEMREF)
    return kernel_unsupported(kc, op, "access through an unranked memref");
  KMem *m = ir_alloc(kc->in->ctx, sizeof *m);
  m->elem = t->u.sh.elem;
  m->rank = t->u.sh.rank;
  m->esize = kernel_elem_bytes(m->elem);
  m->memo = kernel_new_memo(kc, m->esize);
  m->first = dop + 1;
  for (uint32_t i = 0; i < m->rank && i < 2; i++)
    m->tid[i] = (uint8_t)kernel_tid(op->operands[m->first + i]);
  if (!m->esize || m->elem->kind == TY_VECTOR)
    return kernel_unsupported(kc, op, "memory of this element type");
  if (atomic) {
    Attr *kind = ir_op_attr(op, "kind");
    if (!kind || kind->kind != ATTR_INT || kind->u.i.v < 0 || kind->u.i.v > 15 || (m->esize != 4 && m->esize != 8))
      return kernel_unsupported(kc, op, "this atomic");
    m->kind = (int)kind->u.i.v;
  }
  k->aux = m;
  k->fn = load ? x_load : atomic ? x_atomic : x_store;
  return true;
}

/* Row-major descriptor words for a memref of type t at base (sizes: static, or from dyn). */
void kernel_describe(Slot *d, size_t stride, const Type *t, char *base, const int64_t *dyn) {
  uint32_t rank = t->u.sh.rank, nd = 0;
  d[D_ALLOC * stride].p = base;
  d[D_ALIGNED * stride].p = base;
  d[D_OFFSET * stride].i = 0;
  int64_t st = 1;
  int64_t sizes[16];
  for (uint32_t i = 0; i < rank && i < 16; i++)
    sizes[i] = t->u.sh.shape[i] == IR_DYNAMIC ? dyn[nd++] : t->u.sh.shape[i];
  for (uint32_t i = rank; i-- > 0;) {
    d[(D_SIZES + i) * stride].i = sizes[i];
    d[(D_SIZES + rank + i) * stride].i = st;
    st *= sizes[i];
  }
}

size_t kernel_static_bytes(const Type *t) {
  size_t n = kernel_elem_bytes(t->u.sh.elem);
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    n *= (size_t)t->u.sh.shape[i];
  return n;
}

bool kernel_static_memref(const Type *t) {
  if (t->kind != TY_MEMREF || t->u.sh.layout || t->u.sh.rank > 16 || !kernel_elem_bytes(t->u.sh.elem))
    return false;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    if (t->u.sh.shape[i] == IR_DYNAMIC)
      return false;
  return true;
}

/* memref.alloca in a kernel: private memory of each thread. */
static int x_alloca(KFrame *f, const KIns *k) {
  const KAttr *a = k->aux;
  KLANES(f, l, {
    Slot *d = kw(f, k->out[0], true) + l;
    kernel_describe(d, f->n, a->type, f->priv + l * f->priv_stride + a->off, NULL);
  });
  return EX_NEXT;
}

size_t kernel_align16(size_t n) { return (n + 15) & ~(size_t)15; }

bool c_kalloca(KComp *kc, Op *op, KIns *k) {
  Type *t = op->results[0].type;
  if (!kernel_static_memref(t) || op->noperands)
    return kernel_unsupported(kc, op, "a memref.alloca of dynamic shape or with a layout");
  KAttr *a = ir_alloc(kc->in->ctx, sizeof *a);
  a->type = t;
  a->vary = true;
  kernel_reserve_private(kc, a);
  k->aux = a;
  k->fn = x_alloca;
  return true;
}

static int x_dynamic_shared(KFrame *f, const KIns *k) {
  int64_t n = (int64_t)f->smem_bytes;
  kernel_describe(KOUT(f, k, 0), 1, k->aux, f->smem, &n);
  return EX_NEXT;
}

bool c_kdynamic_shared(KComp *kc, Op *op, KIns *k) {
  Type *t = op->results[0].type;
  if (t->kind != TY_MEMREF || t->u.sh.rank != 1 || kernel_elem_bytes(t->u.sh.elem) != 1)
    return kernel_unsupported(kc, op, "dynamic shared memory of this type");
  k->aux = t;
  k->fn = x_dynamic_shared;
  return true;
}

/* memref.view %src[%byte_shift][%sizes]: a contiguous memref over i8 memory */
static int x_view(KFrame *f, const KIns *k) {
  const Type *t = k->aux;
  uint32_t nd = k->nin - 2;
  int64_t dyn[16];
  int r = EX_NEXT;
  bool vary = k->vout[0];
  uint32_t n = vary ? f->nact : 1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = vary ? f->act[i] : f->act[0];
    size_t ls = vary ? l : 0;
    bool vs = k->vin[0];
    Slot *S = kw(f, k->in[0], vs);
    size_t sl = vs ? l : 0;
    int64_t shift = KIN(f, k, 1)[k->vin[1] ? l : 0].i, total = S[(D_SIZES)*(vs ? f->n : 1) + sl].i;
    for (uint32_t j = 0; j < nd && j < 16; j++)
      dyn[j] = KIN(f, k, 2 + j)[k->vin[2 + j] ? l : 0].i;
    /* addresses in uintptr_t: a bad shift is refused below, before anything goes through it */
    uintptr_t base = (uintptr_t)S[D_ALIGNED * (vs ? f->n : 1) + sl].p + (uintptr_t)S[D_OFFSET * (vs ? f->n : 1) + sl].i;
    Slot *D = KOUT(f, k, 0) + ls;
    kernel_describe(D, vary ? f->n : 1, t, (char *)(base + (uintptr_t)shift), dyn);
    D[D_ALLOC * (vary ? f->n : 1)].p = S[D_ALLOC * (vs ? f->n : 1) + sl].p;
    int64_t bytes = kernel_elem_bytes(t->u.sh.elem), end = 0;
    bool over = false;
    for (uint32_t j = 0; j < t->u.sh.rank; j++)
      over |= __builtin_mul_overflow(bytes, D[(D_SIZES + j) * (vary ? f->n : 1)].i, &bytes);
    over |= __builtin_add_overflow(shift, bytes, &end);
    if (over) {
      r = kernel_error(f, k, l, "the view's size or shift overflows");
      break;
    }
    if (shift < 0 || end > total) {
      r = kernel_error(f, k, l, "the view [%lld, %lld) is outside its source of %lld bytes", (long long)shift,
                       (long long)end, (long long)total);
      break;
    }
  }
  return r;
}

bool c_kview(KComp *kc, Op *op, KIns *k) {
  Type *s = op->operands[0]->type, *t = op->results[0].type;
  if (s->kind != TY_MEMREF || s->u.sh.rank != 1 || t->kind != TY_MEMREF || t->u.sh.layout || t->u.sh.rank > 16)
    return kernel_unsupported(kc, op, "this memref.view");
  k->aux = t;
  k->fn = x_view;
  return true;
}


bool kernel_shared_check(KFrame *f, const KIns *k, uint32_t memo, uint32_t l, const char *p, size_t bytes,
                         bool write, const Type *t, const Slot *v) {
  if (!in_shared(f, p))
    return true;
  KMem m = {0};
  m.memo = memo;
  m.elem = (Type *)t;
  return shared_ok(f, k, &m, l, p, bytes, write, v);
}

bool kernel_shared_lanes(KFrame *f, const KIns *k, uint32_t memo, const char *p, uint32_t l0, uint32_t m, size_t es,
                         bool write) {
  if (!f->shadow)
    return true; /* checks are off */
  if (es != (size_t)1 << f->gshift || p < f->lo || p + (size_t)m * es > f->priv || ((size_t)(p - f->lo) & (es - 1)))
    return false;
  KMem mem = {0};
  mem.memo = memo;
  return shared_lanes(f, k, &mem, (size_t)(p - f->lo) >> f->gshift, l0, m, write);
}

void kernel_note_rows(KFrame *f, const KIns *k, uint32_t memo, uintptr_t lo, uintptr_t len, int64_t stride,
                      uint32_t rows, bool write) {
  KMem mem = {0};
  mem.memo = memo;
  note_rows(f, k, &mem, lo, len, stride, rows, write);
}

void kernel_note_group(KFrame *f, const KIns *k, uint32_t memo, const KMemoGroup *grp, uint32_t member, uintptr_t lo,
                       uintptr_t len, int64_t stride, uint32_t rows) {
  KMemo *g = &f->memo[memo];
  uint32_t es = grp->esize;
  if (len != es) { /* not one element a row: the op's own, as kernel_note_rows records it */
    if (g->grp)
      memo_flush(f, g);
    kernel_note_rows(f, k, memo, lo, len, stride, rows, false);
    return;
  }
  if (g->hi && g->grp == grp && g->rows == rows && (rows == 1 || g->stride == stride)) {
    if (g->hi == lo && (g->phase + (lo - g->lo) / es) % grp->n == member) { /* its turn next along the rows */
      g->hi += len;
      return;
    }
    /* an element the memo holds, this op's (a loop repeating it) */
    if (lo >= g->lo && lo + len <= g->hi && (lo - g->lo) % es == 0 &&
        (g->phase + (lo - g->lo) / es) % grp->n == member && (lo >= g->mark || !f->gon))
      return;
  }
  memo_flush(f, g);
  *g = (KMemo){lo, lo + len, stride, rows, false, grp->locs[member], 0, grp, member};
}

/* ---- rows for fused streams (kernel_fuse.c) ---------------------------------------------------- */

bool kernel_is_load(const KIns *k) { return k->fn == x_load && k->vout[0]; }

bool kernel_is_store(const KIns *k) { return k->fn == x_store && k->vin[0]; }

bool kernel_mem_row(KFrame *f, const KIns *k, bool store, KRow *r) {
  const KMem *m = k->aux;
  Lin L;
  uint32_t l0;
  if (!f->nact || m->esize != 4 || m->elem->kind != TY_FLOAT || !lin_of(f, k, m, store ? 1 : 0, &L) ||
      in_shared(f, L.base) || L.local)
    return false;
  int64_t c0 = f->nact == f->n ? consecutive(f, &L, 4) : contiguous_run(f, &L, 4, &l0);
  if (c0 < 0)
    return false;
  *r = (KRow){L.base + c0 * 4, (uintptr_t)f->nact * 4, 0, m->memo};
  return true;
}

bool kernel_mem_shared_row(KFrame *f, const KIns *k, bool store, KRow *r) {
  const KMem *m = k->aux;
  Lin L;
  uint32_t l0;
  if (!f->nact || m->esize != 4 || m->elem->kind != TY_FLOAT || !lin_of(f, k, m, store ? 1 : 0, &L) ||
      !(f->shadow ? in_shared(f, L.base) : L.local))
    return false;
  int64_t c0 = contiguous_run(f, &L, 4, &l0);
  if (c0 < 0)
    return false;
  *r = (KRow){L.base + c0 * 4, (uintptr_t)f->nact * 4, 0, m->memo};
  return true;
}

void kernel_mem_row_note(KFrame *f, const KIns *k, const KRow *r, bool store) {
  const KMem *m = k->aux;
  note_rows(f, k, m, (uintptr_t)r->p, r->len, 0, 1, store);
  if (glog_wide(f))
    glog_lanes(f, (uintptr_t)r->p, 4, f->act[0], f->nact, store, k->loc);
}
