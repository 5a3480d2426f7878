/* kernel_llvm_mem.c - memory of the llvm + nvvm kernels (kernel_llvm.c): llvm.load, llvm.store,
 * llvm.atomicrmw and llvm.cmpxchg through pointers, llvm.mlir.addressof of a shared or constant
 * global, llvm.alloca of a constant count. Every access is checked against the memrefs the launch
 * bound (kernel_llvm_bind), the block's own memory or a constant global; the common one, every
 * active thread's address in one range in a regular shape, is checked and performed for the
 * whole lane vector at once, from an address the compiler found affine in the thread ids. The
 * rules are those at the top of kernel_llvm.c ("Memory"). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/llvm_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory ---------------------------------------------------------------------------------- */


static int64_t ref_extent(const KFrame *f, const LRef *r) { /* elements from the aligned pointer */
  int64_t hi = f->u[r->words[0]].i + 1;
  for (uint32_t i = 0; i < r->rank; i++) {
    int64_t sz = f->u[r->words[1 + i]].i, st = f->u[r->words[1 + r->rank + i]].i;
    if (sz <= 0)
      return 0;
    hi += (sz - 1) * (st < 0 ? 0 : st);
  }
  return hi;
}

/* Whether thread l may touch [p, p + bytes); reports why not. */
static bool check(KFrame *f, const KIns *k, const LMem *m, uint32_t l, char *p) {
  if (p >= f->lo && p + m->bytes <= (m->local ? f->priv : f->hi))
    return true;
  if (m->local) {
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the block's shared memory (%zu bytes)",
                 m->bytes, (long long)(p - f->lo), (size_t)(f->priv - f->lo));
    return false;
  }
  const LInfo *in = info(f);
  for (uint32_t i = 0; in && i < in->nconsts; i++)
    if (p >= in->consts[i].p && p + m->bytes <= in->consts[i].p + in->consts[i].bytes) {
      if (!m->write)
        return true;
      kernel_error(f, k, l, "writes a constant global");
      return false;
    }
  if (!in || !in->bound || in->unchecked) { /* no bounds known: the device's memory table decides, before the access */
    BeStatus st = be_kernel_access_check(f->ctx, p, m->bytes, m->write, k->loc);
    if (st == BE_OK)
      return true;
    if (st == BE_ERR_MEMORY)
      kernel_failed(f); /* the device said why */
    else
      kernel_error(f, k, l, "out-of-bounds access: %u bytes at %p, in no memory the device knows", m->bytes, (void *)p);
    return false;
  }
  const LRef *near = NULL;
  uintptr_t best = UINTPTR_MAX;
  for (uint32_t i = 0; i < in->n; i++) {
    const LRef *r = &in->refs[i];
    char *base = f->u[r->aligned].p;
    int64_t n = ref_extent(f, r);
    char *lo = base + f->u[r->words[0]].i * (int64_t)r->esize, *hi = base + n * (int64_t)r->esize;
    if (p >= lo && p + m->bytes <= hi)
      return true;
    uintptr_t d = p < lo ? (uintptr_t)(lo - p) : (uintptr_t)(p - hi);
    if (d < best) {
      best = d;
      near = r;
    }
  }
  if (!near)
    return kernel_error(f, k, l, "out-of-bounds access: %u bytes at %p, in no memref passed to the kernel", m->bytes,
                        (void *)p),
           false;
  char *lo = (char *)f->u[near->aligned].p + f->u[near->words[0]].i * (int64_t)near->esize;
  int64_t n = ref_extent(f, near) - f->u[near->words[0]].i;
  ptrdiff_t d = p - lo;
  bool atomic = ir_str_eq(k->op->name, "llvm.atomicrmw") || ir_str_eq(k->op->name, "llvm.cmpxchg");
  kernel_error(f, k, l,
               "out-of-bounds %s: bytes [%lld, %lld) of the memref passed as kernel operand %u: element %lld is not in "
               "[0, %lld)", atomic ? "access" : m->write ? "store" : "load", (long long)d, (long long)d + m->bytes,
               near->arg, (long long)(d >= 0 ? d / near->esize : -((-d + near->esize - 1) / near->esize)),
               (long long)(n < 0 ? 0 : n));
  return false;
}

/* The byte ranges of the memrefs passed to the kernel, computed once per op run: most accesses
 * lie in the range the previous one did. */
#define LB_MAX 16
typedef struct LBounds {
  const Slot *r;       /* range i: [r[2 * i].p, r[2 * i + 1].p): the frame's cached words, or own */
  uint32_t n, last;
  Slot own[2 * LB_MAX];
} LBounds;

/* Computed once per frame (the launch's arguments decide them), kept in uniform words: bounds_of
 * takes them from there, bounds_fill computes them. */
static __attribute__((noinline)) void bounds_fill(const KFrame *f, LBounds *b) {
  const LInfo *in = info(f);
  b->last = 0;
  Slot *keep = in && in->cached ? f->u + in->bwords : NULL;
  Slot *r = keep ? keep : b->own;
  b->n = 0;
  for (uint32_t i = 0; in && in->bound && i < in->n && i < LB_MAX; i++) {
    const LRef *x = &in->refs[i];
    char *base = f->u[x->aligned].p;
    r[2 * b->n].p = base + f->u[x->words[0]].i * (int64_t)x->esize;
    r[2 * b->n++ + 1].p = base + ref_extent(f, x) * (int64_t)x->esize;
  }
  b->r = r;
  if (keep) {
    keep[2 * LB_MAX].u = b->n;
    f->once[in->bonce] = 1;
  }
}

static inline void bounds_of(const KFrame *f, LBounds *b) {
  const LInfo *in = info(f);
  if (in && in->cached && f->once[in->bonce]) {
    const Slot *keep = f->u + in->bwords;
    b->last = 0;
    b->n = (uint32_t)keep[2 * LB_MAX].u;
    b->r = keep;
    return;
  }
  bounds_fill(f, b);
}

/* check(), answering at once for an access in one of b's ranges */
static inline bool check_fast(KFrame *f, const KIns *k, const LMem *m, uint32_t l, char *p, LBounds *b) {
  if (b->n && p >= (char *)b->r[2 * b->last].p && p + m->bytes <= (char *)b->r[2 * b->last + 1].p)
    return true;
  for (uint32_t i = 0; i < b->n; i++)
    if (p >= (char *)b->r[2 * i].p && p + m->bytes <= (char *)b->r[2 * i + 1].p) {
      b->last = i;
      return true;
    }
  return check(f, k, m, l, p);
}

/* Records [p, p + bytes) for race detection: consecutive threads' accesses merge. */
typedef struct LRun {
  uintptr_t lo, hi;
} LRun;

static void flush_run(KFrame *f, LRun *r, bool write, const char *loc) {
  if (!r->hi)
    return;
  kernel_glog(f, r->lo, r->hi, write, loc);
  if (f->nacc == f->capacc) {
    if (f->capacc >= (1u << 16))
      kernel_flush_accesses(f);
    if (f->nacc == f->capacc) {
      size_t cap = f->capacc ? f->capacc * 2 : 1024;
      KRange *n = realloc(f->acc, cap * sizeof *n);
      if (!n)
        abort();
      f->acc = n;
      f->capacc = cap;
    }
  }
  f->acc[f->nacc++] = (KRange){r->lo, r->hi, loc, write, false};
  r->hi = 0;
}

static void record(KFrame *f, LRun *r, char *p, uint32_t bytes, bool write, const char *loc) {
  uintptr_t a = (uintptr_t)p;
  if (p >= f->lo && p < f->hi)
    return;
  if (r->hi && a >= r->lo && a + bytes <= r->hi)
    return;
  if (r->hi && a == r->hi) {
    r->hi += bytes;
    return;
  }
  flush_run(f, r, write, loc);
  r->lo = a;
  r->hi = a + bytes;
}

static inline void load_one(const LMem *m, const char *p, Slot *o) {
  if (m->bytes == 4 && m->t->kind == TY_FLOAT) {
    Slot r = {0};
    memcpy(&r.f32, p, 4);
    *o = r;
  } else if (m->bytes == 4 && m->t->kind == TY_INT && m->t->u.i.width == 32) {
    int32_t v;
    memcpy(&v, p, 4);
    o->i = v;
  } else if (m->bytes == 8) {
    memcpy(o, p, 8);
  } else {
    kernel_load_elem(m->t, p, o);
  }
}

static inline void store_one(const LMem *m, char *p, const Slot *v) {
  if (m->bytes == 4 && m->t->kind == TY_FLOAT)
    memcpy(p, &v->f32, 4);
  else if ((m->bytes == 4 && m->t->kind == TY_INT && m->t->u.i.width == 32) || m->bytes == 8)
    memcpy(p, v, m->bytes);
  else
    kernel_store_elem(m->t, p, v);
}

/* ---- whole lane vectors at once -----------------------------------------------------------------
 *
 * The common access is every active thread's address in one memref's range (or in the block's
 * own memory), often in a regular shape: consecutive threads at consecutive elements, the threads
 * of each row of the block at one element or at one row of elements. Thread l's address is
 * B + I[l] * s: for a pointer from a getelementptr %base[%i] of a uniform base just before the
 * access (LMem.gep), B the base, I the index column and s the element size; otherwise B = 0, s = 1
 * and I the pointer column itself. The shape is found from I in one pass; its bytes are checked
 * against the bounds at once, and the access then runs in lane loops and is recorded as rows.
 * When the bytes do not lie in one range the threads are checked one by one (check(), which
 * reports the first that is out of bounds), so what is reported does not change. */

typedef struct LShape {
  char *B;            /* the base */
  const Slot *I;      /* the index (or pointer) column */
  int64_t s;          /* bytes per index step */
  uint32_t l0, bx, rows; /* the threads, when affine: l0 + g * bx + t, g < rows, t < bx */
  bool affine;        /* I[l0 + g * bx + t] = I[l0] + g * dr + t * d1, modulo 2^64 */
  int64_t d1, dr;
  int64_t sb, rb;     /* affine: d1 * s and dr * s, the steps in bytes */
  uintptr_t p0;       /* affine: the first thread's address */
  uintptr_t lo, hi;   /* the bytes the active threads touch */
  uint64_t u;         /* I NULL (LMem.gaff): the index of thread (0, 0), thread l's aff_index */
} LShape;

enum { AT_NONE, AT_GLOBAL, AT_SHARED, AT_PRIVATE };

static uint64_t aff_run(const KFrame *f, const struct LAff *a);

/* The index of thread (0, 0) (modulo 2^64): the folded forms at once, else the program's run */
static inline uint64_t aff_base(const KFrame *f, const struct LAff *a) {
  if (a->form == A_WORD)
    return f->u[a->word].u + a->c;
  if (a->form == A_CONST)
    return a->c;
  return aff_run(f, a);
}

/* The index of thread l, from the index of thread (0, 0) (LMem.gaff) */
static inline uint64_t aff_index(const KFrame *f, const LMem *m, uint64_t u, uint32_t l) {
  return u + (uint64_t)m->gcx * (l % f->bdim[0]) + (uint64_t)m->gcy * (l / f->bdim[0] % f->bdim[1]);
}

static inline char *lane_ptr(const KFrame *f, const KIns *k, const LMem *m, uint32_t l) {
  if (m->gaff)
    return (char *)((uintptr_t)f->u[m->gbase].p + aff_index(f, m, aff_base(f, m->aff), l) * (uint64_t)m->gscale);
  if (m->gep)
    return (char *)((uintptr_t)f->u[m->gbase].p + (uint64_t)kw(f, m->gidx, true)[l].i * (uint64_t)m->gscale);
  return ptr_of(f, k, m->ptr, l);
}

/* Where bytes [lo, hi) lie: all in shared memory, in private memory, in one memref passed to the
 * kernel, or none of these (then each thread is checked on its own). */
static inline __attribute__((always_inline)) int where(const KFrame *f, const LMem *m, uintptr_t lo, uintptr_t hi,
                                                       LBounds *b) {
  if (hi <= lo)
    return AT_NONE;
  if (lo >= (uintptr_t)f->lo && hi <= (uintptr_t)f->priv)
    return AT_SHARED;
  if (m->local)
    return AT_NONE;
  if (lo >= (uintptr_t)f->priv && hi <= (uintptr_t)f->hi)
    return AT_PRIVATE;
  if (b->n == UINT32_MAX) /* not known yet */
    bounds_of(f, b);
  if (b->n && lo >= (uintptr_t)b->r[2 * b->last].p && hi <= (uintptr_t)b->r[2 * b->last + 1].p)
    return AT_GLOBAL;
  for (uint32_t i = 0; i < b->n; i++)
    if (lo >= (uintptr_t)b->r[2 * i].p && hi <= (uintptr_t)b->r[2 * i + 1].p) {
      b->last = i;
      return AT_GLOBAL;
    }
  return AT_NONE;
}

/* x + d * s as an address, false when it leaves the address space */
static inline bool offset_of(uintptr_t x, int64_t d, int64_t s, uintptr_t *out) {
  int64_t o;
  if (__builtin_mul_overflow(d, s, &o))
    return false;
  if (o < 0)
    return (uint64_t)-(o + 1) < x && ((*out = x - (uint64_t)-(o + 1) - 1), true);
  return !__builtin_add_overflow(x, (uint64_t)o, out);
}

/* shape_of under a full mask for an index known when compiled (LMem.gaff, in a block of one row
 * or one layer): thread (x, y) at the index of thread (0, 0) plus cx * x + cy * y, with no pass
 * over the threads. */
static inline bool shape_gaff(const KFrame *f, const LMem *m, LShape *S) {
  S->B = f->u[m->gbase].p;
  S->I = NULL;
  S->s = m->gscale;
  S->u = aff_base(f, m->aff);
  S->l0 = 0;
  S->bx = f->bdim[0];
  S->rows = f->n / S->bx;
  S->affine = true;
  S->d1 = m->gcx;
  S->dr = m->gcy;
  S->sb = m->gsb;
  S->rb = m->grb;
  int64_t t1, t2, dmin, dmax;
  if (__builtin_mul_overflow((int64_t)(S->bx - 1), S->d1, &t1) ||
      __builtin_mul_overflow((int64_t)(S->rows - 1), S->dr, &t2) ||
      __builtin_add_overflow(t1 < 0 ? t1 : 0, t2 < 0 ? t2 : 0, &dmin) ||
      __builtin_add_overflow(t1 > 0 ? t1 : 0, t2 > 0 ? t2 : 0, &dmax))
    return false;
  S->p0 = (uintptr_t)S->B + S->u * (uint64_t)S->s;
  return offset_of(S->p0, dmin, S->s, &S->lo) && offset_of(S->p0, dmax, S->s, &S->hi) &&
         !__builtin_add_overflow(S->hi, (uintptr_t)m->bytes, &S->hi);
}

/* The shape of the active threads' addresses (a varying pointer); false when their bytes cannot
 * be bounded (arithmetic that leaves the address space). */
KLANEFN static bool shape_of(const KFrame *f, const KIns *k, const LMem *m, LShape *S) {
  if (m->gep) {
    S->B = f->u[m->gbase].p;
    S->I = m->gaff ? NULL : kw(f, m->gidx, true); /* gaff: from S->u, the column is not computed */
    S->s = m->gscale;
    if (m->gaff)
      S->u = aff_base(f, m->aff);
  } else {
    S->B = NULL;
    S->I = KIN(f, k, m->ptr);
    S->s = 1;
  }
  const Slot *I = S->I;
  uint32_t n = f->n, nact = f->nact;
  S->affine = false;
  if (nact == n) {
    S->l0 = 0;
    S->bx = f->bdim[0];
    S->rows = n / S->bx;
  } else if (f->act[nact - 1] - f->act[0] == nact - 1) {
    S->l0 = f->act[0];
    S->bx = nact;
    S->rows = 1;
  } else {
    S->bx = 0;
  }
  if (S->bx) {
    const Slot *J = I ? I + S->l0 : NULL;
    uint64_t i0 = J ? J[0].u : aff_index(f, m, S->u, S->l0), d1, dr, bad = 0;
    if (m->gaff && (nact == n ? !m->gcy || f->bdim[2] == 1 : f->bdim[0] == n)) {
      /* known when compiled (affine_tid): thread (x, y) at I[0] + cx * x + cy * y (a run of
       * threads of a block of one row: all at y 0) */
      d1 = (uint64_t)m->gcx;
      dr = (uint64_t)m->gcy;
    } else if (!J) {
      bad = 1; /* another shape of block or mask: bounded thread by thread below */
      d1 = dr = 0;
    } else {
      d1 = S->bx > 1 ? J[1].u - i0 : 0;
      dr = S->rows > 1 ? J[S->bx].u - i0 : 0;
      uint64_t r = i0;
      for (uint32_t g = 0; g < S->rows; g++, r += dr) {
        const Slot *R = J + (size_t)g * S->bx;
        uint64_t v = r; /* an induction, not a product: 64-bit lanes have no vector multiply here */
        for (uint32_t t = 0; t < S->bx; t++, v += d1)
          bad |= R[t].u ^ v;
      }
    }
    int64_t t1, t2, dmin, dmax;
    if (!bad && !__builtin_mul_overflow((int64_t)d1, S->s, &S->sb) &&
        !__builtin_mul_overflow((int64_t)dr, S->s, &S->rb)) {
      S->affine = true;
      S->d1 = (int64_t)d1;
      S->dr = (int64_t)dr;
      if (__builtin_mul_overflow((int64_t)(S->bx - 1), S->d1, &t1) ||
          __builtin_mul_overflow((int64_t)(S->rows - 1), S->dr, &t2) ||
          __builtin_add_overflow(t1 < 0 ? t1 : 0, t2 < 0 ? t2 : 0, &dmin) ||
          __builtin_add_overflow(t1 > 0 ? t1 : 0, t2 > 0 ? t2 : 0, &dmax))
        return false;
      S->p0 = (uintptr_t)S->B + i0 * (uint64_t)S->s;
      return offset_of(S->p0, dmin, S->s, &S->lo) && offset_of(S->p0, dmax, S->s, &S->hi) &&
             !__builtin_add_overflow(S->hi, (uintptr_t)m->bytes, &S->hi);
    }
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  KLANES(f, l, {
    int64_t x = I ? I[l].i : (int64_t)aff_index(f, m, S->u, l);
    lo = x < lo ? x : lo;
    hi = x > hi ? x : hi;
  });
  return offset_of((uintptr_t)S->B, lo, S->s, &S->lo) && offset_of((uintptr_t)S->B, hi, S->s, &S->hi) &&
         !__builtin_add_overflow(S->hi, (uintptr_t)m->bytes, &S->hi);
}

/* Records the active threads' accesses of global memory: as rows when the shape allows. */
static void record_shape(KFrame *f, const KIns *k, const LMem *m, const LShape *S, bool write) {
  int64_t es = m->bytes, stride = S->rb;
  if (S->affine && (S->sb == es || S->d1 == 0)) {
    uintptr_t len = S->d1 ? (uintptr_t)S->bx * (uintptr_t)es : (uintptr_t)es;
    uint32_t rows = S->rows;
    if (rows > 1 && S->d1 && stride == (int64_t)len) { /* the rows follow each other */
      len *= rows;
      rows = 1;
    } else if (rows > 1 && !stride) { /* every row the same */
      rows = 1;
    }
    kernel_note_rows(f, k, m->memo, S->p0, len, stride, rows, write);
    return;
  }
  LRun run = {0, 0};
  KLANES(f, l, { record(f, &run, lane_ptr(f, k, m, l), m->bytes, write, k->loc); });
  flush_run(f, &run, write, k->loc);
}

/* Loads for the active threads of shape S, in bounds: rows of consecutive elements copied, one
 * element per row broadcast, else one address per thread. */
KLANEFN static void load_shape(KFrame *f, const KIns *k, const LMem *m, const LShape *S, Slot *O) {
  bool f32 = m->bytes == 4 && m->t->kind == TY_FLOAT, i32 = m->bytes == 4 && m->t->kind == TY_INT && m->t->u.i.width == 32;
  if (S->affine && (f32 || i32) && (S->sb == 4 || S->d1 == 0)) {
    for (uint32_t g = 0; g < S->rows; g++) {
      const char *p = (const char *)(S->p0 + (uintptr_t)((int64_t)g * S->rb));
      Slot *o = O + S->l0 + (size_t)g * S->bx;
      if (g && !S->dr) {
        memcpy(o, O + S->l0, S->bx * sizeof *o);
        continue;
      }
      if (!S->d1) {
        Slot v;
        uint32_t w;
        memcpy(&w, p, 4);
        v.i = f32 ? (int64_t)w : (int64_t)(int32_t)w;
        for (uint32_t t = 0; t < S->bx; t++)
          o[t] = v;
      } else {
        const uint32_t *restrict q = (const uint32_t *)(const void *)p;
        const uint32_t bx = S->bx; /* a local: the stores below may not alias it */
        if (f32)
          for (uint32_t t = 0; t < bx; t++)
            o[t].u = q[t];
        else
          for (uint32_t t = 0; t < bx; t++)
            o[t].i = (int32_t)q[t];
      }
    }
    return;
  }
  char *B = S->B;
  const Slot *I = S->I;
  uint64_t s = (uint64_t)S->s;
  if (!I) {
    KLANES(f, l, { load_one(m, B + aff_index(f, m, S->u, l) * s, &O[l]); });
    return;
  }
  if (f32)
    KLANES(f, l, {
      uint32_t w;
      memcpy(&w, B + I[l].u * s, 4);
      O[l].u = w;
    });
  else if (i32)
    KLANES(f, l, {
      int32_t w;
      memcpy(&w, B + I[l].u * s, 4);
      O[l].i = w;
    });
  else if (m->bytes == 8)
    KLANES(f, l, { memcpy(&O[l], B + I[l].u * s, 8); });
  else
    KLANES(f, l, { load_one(m, B + I[l].u * s, &O[l]); });
}

KLANEFN static void store_shape(KFrame *f, const LMem *m, const LShape *S, const Slot *V, size_t sv) {
  if (S->affine && S->sb == 4 && m->bytes == 4 && sv && (m->t->kind == TY_FLOAT || m->t->u.i.width == 32)) {
    for (uint32_t g = 0; g < S->rows; g++) { /* rows of consecutive elements */
      uint32_t *restrict q = (uint32_t *)(S->p0 + (uintptr_t)((int64_t)g * S->rb));
      const Slot *restrict v = V + S->l0 + (size_t)g * S->bx;
      const uint32_t bx = S->bx; /* a local: the stores below may not alias it */
      for (uint32_t t = 0; t < bx; t++)
        q[t] = (uint32_t)v[t].u;
    }
    return;
  }
  char *B = S->B;
  const Slot *I = S->I;
  uint64_t s = (uint64_t)S->s;
  if (!I)
    KLANES(f, l, { store_one(m, B + aff_index(f, m, S->u, l) * s, &V[l * sv]); });
  else if (m->bytes == 4 && m->t->kind == TY_FLOAT)
    KLANES(f, l, { memcpy(B + I[l].u * s, &V[l * sv].f32, 4); });
  else if ((m->bytes == 4 && m->t->kind == TY_INT && m->t->u.i.width == 32) || m->bytes == 8)
    KLANES(f, l, { memcpy(B + I[l].u * s, &V[l * sv], m->bytes); });
  else
    KLANES(f, l, { store_one(m, B + I[l].u * s, &V[l * sv]); });
}

/* An access of shared memory in bounds, its threads checked for races one by one (which reports
 * the first thread that races) */
static __attribute__((noinline)) int shared_each(KFrame *f, const KIns *k, const LMem *m, bool write, Slot *O,
                                                 const Slot *V, size_t sv) {
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *p = lane_ptr(f, k, m, l);
    if (!kernel_shared_check(f, k, m->memo, l, p, m->bytes, write, write ? m->t : NULL, write ? &V[l * sv] : NULL))
      return EX_ERROR;
    if (write)
      store_one(m, p, &V[l * sv]);
    else
      load_one(m, p, &O[l]);
  }
  return EX_NEXT;
}

/* The access of a run of threads to a run of elements, found with no pass over the threads: an
 * index known when compiled to step one element per thread x id (LMem.grun), in a block of one
 * row (thread l at x l), its active threads l0 .. l0 + n - 1 (a full mask, or the prefix of `if
 * tid < s` in a tree reduction's later steps). Thread l0 + i touches the i-th element from p0, so
 * the bytes are [p0, p0 + n * bytes) when that does not leave the address space (the addresses
 * are computed modulo 2^64 as lane_ptr's). What it then does is what access_shape does with the
 * shape shape_of finds for it: the same checks, race records and copies, at less cost per op.
 * EX_NEXT when done, EX_ERROR after a race report, -1 when access_shape is to look. */
KLANEFN static int access_run(KFrame *f, const KIns *k, const LMem *m, LBounds *b, bool write, Slot *O,
                              const Slot *V, size_t sv) {
  uint32_t n = f->nact, l0 = n == f->n ? 0 : f->act[0];
  uintptr_t p0 = (uintptr_t)f->u[m->gbase].p + (aff_base(f, m->aff) + (uint64_t)m->gcx * l0) * (uint64_t)m->gscale,
            hi;
  if (__builtin_add_overflow(p0, (uintptr_t)n * m->bytes, &hi))
    return -1;
  int at = where(f, m, p0, hi, b);
  if (at == AT_NONE)
    return -1;
  if (at == AT_SHARED && !kernel_shared_lanes(f, k, m->memo, (const char *)p0, l0, n, m->bytes, write))
    return shared_each(f, k, m, write, O, V, sv);
  if (at == AT_GLOBAL)
    kernel_prefetch_next(f, (const char *)p0, (size_t)n * m->bytes);
  bool f32 = m->f32, i32 = m->i32;
  if (write) {
    const Slot *restrict v = V + (size_t)l0 * sv;
    if ((f32 || i32) && sv) {
      uint32_t *restrict q = (uint32_t *)p0;
      for (uint32_t t = 0; t < n; t++)
        q[t] = (uint32_t)v[t].u;
    } else {
      for (uint32_t t = 0; t < n; t++)
        store_one(m, (char *)p0 + (size_t)t * m->bytes, &v[t * sv]);
    }
  } else {
    Slot *restrict o = O + l0;
    const uint32_t *restrict q = (const uint32_t *)p0;
    if (f32)
      for (uint32_t t = 0; t < n; t++)
        o[t].u = q[t];
    else if (i32)
      for (uint32_t t = 0; t < n; t++)
        o[t].i = (int32_t)q[t];
    else
      for (uint32_t t = 0; t < n; t++)
        load_one(m, (const char *)p0 + (size_t)t * m->bytes, &o[t]);
  }
  if (at == AT_GLOBAL)
    kernel_note_rows(f, k, m->memo, p0, (uintptr_t)n * m->bytes, m->grb, 1, write);
  return EX_NEXT;
}

/* Whether access_run takes the access */
static inline bool run_case(const KFrame *f, const LMem *m) {
  uint32_t n = f->nact;
  return m->grun && f->bdim[0] == f->n && n && (n == f->n || f->act[n - 1] - f->act[0] == n - 1);
}

/* The fast path of a varying pointer's access: EX_NEXT when done, EX_ERROR after a race report,
 * -1 when the threads are to be taken one by one. */
static int access_shape(KFrame *f, const KIns *k, const LMem *m, LBounds *b, bool write, Slot *O, const Slot *V,
                        size_t sv) {
  LShape S = {0}; /* filled by shape_gaff or shape_of; zeroed for the compiler, which cannot see that */
  if (m->gfast && f->nact == f->n && (!m->gcy || f->bdim[2] == 1) ? !shape_gaff(f, m, &S)
                                                                  : !f->nact || !k->vin[m->ptr] || !shape_of(f, k, m, &S))
    return -1;
  int at = where(f, m, S.lo, S.hi, b);
  if (at == AT_NONE)
    return -1;
  if (at == AT_SHARED) {
    /* consecutive threads at consecutive elements are checked at once; else one by one */
    bool run = S.affine && S.sb == (int64_t)m->bytes && (S.rows == 1 || S.rb == (int64_t)S.bx * S.sb);
    if (!run || !kernel_shared_lanes(f, k, m->memo, (const char *)S.p0, S.l0, S.bx * S.rows, m->bytes, write))
      return shared_each(f, k, m, write, O, V, sv);
  }
  if (at == AT_GLOBAL && S.affine && S.sb == (int64_t)m->bytes && (S.rows == 1 || S.rb == (int64_t)S.bx * S.sb))
    kernel_prefetch_next(f, (const char *)S.p0, (size_t)S.bx * S.rows * m->bytes);
  if (write)
    store_shape(f, m, &S, V, sv);
  else
    load_shape(f, k, m, &S, O);
  if (at == AT_GLOBAL)
    record_shape(f, k, m, &S, write);
  return EX_NEXT;
}

/* Records the active threads' access through a uniform pointer (one address), outside the block's
 * memory, through the op's memo as the shapes' rows are (record_shape): the accesses of one
 * block after the other then merge (`out[block_id]`) instead of adding a range per block. */
static void note_one(KFrame *f, const KIns *k, const LMem *m, bool write) {
  char *p = ptr_of(f, k, m->ptr, 0);
  if (f->nact && !(p >= f->lo && p < f->hi))
    kernel_note_rows(f, k, m->memo, (uintptr_t)p, m->bytes, 0, 1, write);
}

/* What kernel_llvm_x_load does past access_run: the shapes, else thread by thread (bp: the bounds
 * access_run has found so far, or NULL) */
static __attribute__((noinline)) int load_lanes(KFrame *f, const KIns *k, LBounds *bp) {
  const LMem *m = k->aux;
  LRun run = {0, 0};
  bool vary = k->vout[0];
  Slot *o = KOUT(f, k, 0);
  LBounds own, *b = bp ? bp : &own;
  if (!bp)
    own.n = UINT32_MAX; /* computed when needed */
  if (vary) {
    int r = access_shape(f, k, m, b, false, o, NULL, 0);
    if (r >= 0)
      return r;
  }
  if (b->n == UINT32_MAX)
    bounds_of(f, b);
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *p = lane_ptr(f, k, m, l);
    if (!check_fast(f, k, m, l, p, b) ||
        (p >= f->lo && p < f->hi && !kernel_shared_check(f, k, m->memo, l, p, m->bytes, false, NULL, NULL)))
      return EX_ERROR;
    if (vary || i == 0) /* a uniform result: one address for all threads */
      load_one(m, p, &o[vary ? l : 0]);
    if (k->vin[m->ptr])
      record(f, &run, p, m->bytes, false, k->loc);
  }
  if (k->vin[m->ptr])
    flush_run(f, &run, false, k->loc);
  else
    note_one(f, k, m, false);
  return EX_NEXT;
}

/* What kernel_llvm_x_store does past access_run, as load_lanes */
static __attribute__((noinline)) int store_lanes(KFrame *f, const KIns *k, LBounds *bp) {
  const LMem *m = k->aux;
  LRun run = {0, 0};
  const Slot *v = KIN(f, k, 0);
  size_t sv = k->vin[0];
  LBounds own, *b = bp ? bp : &own;
  if (!bp)
    own.n = UINT32_MAX; /* computed when needed */
  int r = access_shape(f, k, m, b, true, NULL, v, sv);
  if (r >= 0)
    return r;
  if (b->n == UINT32_MAX)
    bounds_of(f, b);
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *p = lane_ptr(f, k, m, l);
    if (!check_fast(f, k, m, l, p, b) ||
        (p >= f->lo && p < f->hi && !kernel_shared_check(f, k, m->memo, l, p, m->bytes, true, m->t, &v[l * sv])))
      return EX_ERROR;
    store_one(m, p, &v[l * sv]);
    if (k->vin[m->ptr])
      record(f, &run, p, m->bytes, true, k->loc);
  }
  if (k->vin[m->ptr])
    flush_run(f, &run, true, k->loc);
  else
    note_one(f, k, m, true);
  return EX_NEXT;
}

/* The ops' entry points: access_run's case first, with as little around it as can be (a tree
 * reduction's later steps are mostly such ops' fixed cost). */
int kernel_llvm_x_load(KFrame *f, const KIns *k) {
  const LMem *m = k->aux;
  if (!k->vout[0] || !run_case(f, m))
    return load_lanes(f, k, NULL);
  LBounds b;
  b.n = UINT32_MAX; /* computed when needed */
  int r = access_run(f, k, m, &b, false, KOUT(f, k, 0), NULL, 0);
  return r >= 0 ? r : load_lanes(f, k, &b);
}

int kernel_llvm_x_store(KFrame *f, const KIns *k) {
  const LMem *m = k->aux;
  if (!run_case(f, m))
    return store_lanes(f, k, NULL);
  LBounds b;
  b.n = UINT32_MAX; /* computed when needed */
  int r = access_run(f, k, m, &b, true, NULL, KIN(f, k, 0), k->vin[0]);
  return r >= 0 ? r : store_lanes(f, k, &b);
}

static uint32_t bytes_of(const Type *t) {
  if (t->kind == TY_LLVM_PTR || t->kind == TY_INDEX)
    return 8;
  return kernel_elem_bytes(t);
}

/* getelementptr %p[%i] over a scalar element: its size, else 0 */
int64_t kernel_llvm_gep1_scale(const Op *op) {
  Attr *raw = ir_op_attr(op, "rawConstantIndices"), *et = ir_op_attr(op, "elem_type");
  if (!raw || raw->kind != ATTR_DENSE_ARRAY || raw->u.darr.n != 1 || raw->u.darr.ivals[0] != INT32_MIN ||
      op->noperands != 2 || op->operands[1]->type->kind != TY_INT || !et || et->kind != ATTR_TYPE ||
      !scalar(et->type) || op->operands[0]->type->kind != TY_LLVM_PTR)
    return 0;
  return bytes_of(et->type);
}

static bool is_i64(const Type *t) { return t->kind == TY_INDEX || (t->kind == TY_INT && t->u.i.width == 64); }

/* Folds a's program when it is a constant or one uniform word plus a constant (the common
 * `block_id * block_dim + thread_id` is the word of the uniform product plus 0): then the
 * index of thread (0, 0) costs an add, not a run of the program. */
static void aff_fold(LAff *a) {
  struct { uint8_t form; uint32_t word; uint64_t c; } st[LPROG];
  uint32_t sp = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    const LNode *x = &a->prog[i];
    if (x->op == N_WORD || x->op == N_CONST) {
      st[sp].form = x->op == N_WORD ? A_WORD : A_CONST;
      st[sp].word = x->word;
      st[sp++].c = x->op == N_WORD ? 0 : (uint64_t)x->c;
      continue;
    }
    if (sp < 2)
      return;
    sp--;
    __typeof__(st[0]) *l = &st[sp - 1], *r = &st[sp];
    if (l->form == A_PROG || r->form == A_PROG || (l->form == A_WORD && r->form == A_WORD) ||
        (x->op == N_SUB && r->form == A_WORD) || (x->op == N_MUL && (l->form == A_WORD || r->form == A_WORD))) {
      l->form = A_PROG;
      continue;
    }
    if (r->form == A_WORD) { /* const + word */
      l->form = A_WORD;
      l->word = r->word;
    }
    l->c = x->op == N_ADD ? l->c + r->c : x->op == N_SUB ? l->c - r->c : l->c * r->c;
  }
  if (sp == 1 && st[0].form != A_PROG) {
    a->form = st[0].form;
    a->word = st[0].word;
    a->c = st[0].c;
  }
}

static bool emit(LAff *a, uint8_t op, uint32_t word, int64_t c) {
  if (!a)
    return true;
  if (a->n == LPROG)
    return false;
  a->prog[a->n++] = (LNode){op, word, c};
  return true;
}

/* Whether v is, in every thread of a block, some uniform value plus *cx times the thread's x id
 * plus *cy times its y id, modulo 2^64 (then consecutive threads' values step evenly): the
 * thread ids (nvvm's tid.x and tid.y, and their sext or zext: they are below 1024), uniform
 * values, and i64 sums, differences, products with a constant and shifts by one of those, and
 * casts between i64 and index; false when not known. With a, the uniform value's program. */
bool kernel_llvm_affine_tid(KComp *kc, const Value *v, int64_t *cx, int64_t *cy, LAff *a, int depth) {
  *cx = *cy = 0;
  if ((v->id & (KV_MINE | KV_VARY)) != (KV_MINE | KV_VARY)) { /* uniform */
    uint32_t w;
    uint8_t vary;
    kernel_operand(kc, (Value *)v, &w, &vary);
    return !vary && kernel_words(v->type) == 1 && emit(a, N_WORD, w, 0);
  }
  const Op *d = v->def;
  if (!d || depth > 8 || d->nresults != 1)
    return false;
  if (ir_str_eq(d->name, "nvvm.read.ptx.sreg.tid.x") || ir_str_eq(d->name, "nvvm.read.ptx.sreg.tid.y")) {
    *(ir_str_eq(d->name, "nvvm.read.ptx.sreg.tid.x") ? cx : cy) = 1;
    return emit(a, N_CONST, 0, 0); /* 0 in thread (0, 0) */
  }
  if (ir_str_eq(d->name, "llvm.sext") || ir_str_eq(d->name, "llvm.zext")) {
    const Op *s = d->operands[0]->def;
    return s && (ir_str_eq(s->name, "nvvm.read.ptx.sreg.tid.x") || ir_str_eq(s->name, "nvvm.read.ptx.sreg.tid.y")) &&
           kernel_llvm_affine_tid(kc, d->operands[0], cx, cy, a, depth + 1);
  }
  if (!is_i64(v->type))
    return false;
  if (ir_str_eq(d->name, "builtin.unrealized_conversion_cast"))
    return d->noperands == 1 && is_i64(d->operands[0]->type) &&
           kernel_llvm_affine_tid(kc, d->operands[0], cx, cy, a, depth + 1);
  if (d->noperands != 2)
    return false;
  int64_t ax, ay, bx, by;
  bool add = ir_str_eq(d->name, "llvm.add"), sub = ir_str_eq(d->name, "llvm.sub");
  if (add || sub) {
    if (!kernel_llvm_affine_tid(kc, d->operands[0], &ax, &ay, a, depth + 1) ||
        !kernel_llvm_affine_tid(kc, d->operands[1], &bx, &by, a, depth + 1) || !emit(a, add ? N_ADD : N_SUB, 0, 0))
      return false;
    return add ? !__builtin_add_overflow(ax, bx, cx) && !__builtin_add_overflow(ay, by, cy)
               : !__builtin_sub_overflow(ax, bx, cx) && !__builtin_sub_overflow(ay, by, cy);
  }
  bool mul = ir_str_eq(d->name, "llvm.mul"), shl = ir_str_eq(d->name, "llvm.shl");
  if (!mul && !shl)
    return false;
  for (uint32_t j = 0; j < 2; j++) { /* j: the constant operand */
    const Op *c = d->operands[j]->def;
    Attr *at = c && ir_str_eq(c->name, "llvm.mlir.constant") ? ir_op_attr(c, "value") : NULL;
    if (!at || at->kind != ATTR_INT || (shl && j != 1))
      continue;
    int64_t f = at->u.i.v;
    if (shl && (f < 0 || f > 62))
      return false;
    if (shl)
      f = (int64_t)1 << f;
    return kernel_llvm_affine_tid(kc, d->operands[1 - j], &ax, &ay, a, depth + 1) && emit(a, N_CONST, 0, f) &&
           emit(a, N_MUL, 0, 0) && !__builtin_mul_overflow(ax, f, cx) && !__builtin_mul_overflow(ay, f, cy);
  }
  return false;
}

/* aff_base's program, run */
static __attribute__((noinline)) uint64_t aff_run(const KFrame *f, const LAff *a) {
  uint64_t st[LPROG];
  uint32_t sp = 0;
  for (uint32_t i = 0; i < a->n; i++) {
    const LNode *x = &a->prog[i];
    switch (x->op) {
    case N_WORD: st[sp++] = f->u[x->word].u; break;
    case N_CONST: st[sp++] = (uint64_t)x->c; break;
    case N_ADD: sp--; st[sp - 1] += st[sp]; break;
    case N_SUB: sp--; st[sp - 1] -= st[sp]; break;
    default: sp--; st[sp - 1] *= st[sp]; break;
    }
  }
  return sp ? st[0] : 0;
}

/* Whether memory op `use` takes the getelementptr its pointer (operand ptr) comes from apart,
 * addressing B + I[l] * s itself (LMem.gep, filled in when m is not NULL): a single-index one of
 * a uniform base and a varying index, just before it in its block (no op in between that may
 * take the index's slot for a loop-carried value: kernel.c's coalesce_loops). */
bool kernel_llvm_gep_split(KComp *kc, const Op *use, uint32_t ptr, LMem *m) {
  Op *g = use->operands[ptr]->def;
  int64_t s =
      g && ir_str_eq(g->name, "llvm.getelementptr") && g->parent == use->parent ? kernel_llvm_gep1_scale(g) : 0;
  if (!s)
    return false;
  const Op *o = g->next;
  for (; o && o != use; o = o->next)
    if (kernel_is_arith((Op *)o) || kernel_llvm_lanewise(o) || ir_str_eq(o->name, "memref.load"))
      return false;
  uint32_t wb, wi;
  uint8_t vb, vi;
  kernel_operand(kc, g->operands[0], &wb, &vb);
  kernel_operand(kc, g->operands[1], &wi, &vi);
  if (o != use || vb || !vi)
    return false;
  if (m) {
    m->gep = true;
    m->gbase = wb;
    m->gidx = wi;
    m->gscale = s;
    LAff aff = {0};
    m->gaff = kernel_llvm_affine_tid(kc, g->operands[1], &m->gcx, &m->gcy, &aff, 0);
    if (m->gaff) {
      m->gfast = !__builtin_mul_overflow(m->gcx, s, &m->gsb) && !__builtin_mul_overflow(m->gcy, s, &m->grb);
      m->grun = m->gfast && m->gsb == (int64_t)m->bytes;
      aff_fold(&aff);
      m->aff = ir_alloc(kc->in->ctx, sizeof *m->aff);
      *m->aff = aff;
    }
  }
  return true;
}

bool kernel_llvm_mem(KComp *kc, Op *op, KIns *k, uint32_t ptr, Type *t) {
  LMem *m = ir_alloc(kc->in->ctx, sizeof *m);
  Type *pt = op->operands[ptr]->type;
  if (!scalar(t) || !(m->bytes = bytes_of(t)) || pt->kind != TY_LLVM_PTR)
    return kernel_unsupported(kc, op, "an access of this type");
  if (pt->u.ptr.addrspace != 0 && pt->u.ptr.addrspace != 1 && pt->u.ptr.addrspace != 3)
    return kernel_unsupported(kc, op, "an access in this address space");
  if (t->kind == TY_INT && t->u.i.width % 8 && t->u.i.width != 1)
    return kernel_unsupported(kc, op, "an access of an integer of this width");
  m->t = t;
  m->f32 = m->bytes == 4 && t->kind == TY_FLOAT;
  m->i32 = m->bytes == 4 && t->kind == TY_INT && t->u.i.width == 32;
  m->local = pt->u.ptr.addrspace == 3;
  m->memo = kernel_new_memo(kc, m->bytes);
  m->ptr = ptr;
  LInfo *li = linfo(kc->in, kc->k);
  if (!li->cached && kc->root && ir_str_eq(kc->root->name, "llvm.func")) {
    li->cached = true;
    li->bwords = kernel_new_uniform(kc, 2 * LB_MAX + 1);
    li->bonce = kernel_new_once(kc);
  }
  if (k->vin[ptr])
    kernel_llvm_gep_split(kc, op, ptr, m);
  k->aux = m;
  return true;
}

/* ---- atomics ------------------------------------------------------------------------------- */

static int64_t rmw_int(int bin, int64_t old, int64_t v, uint32_t w) {
  uint64_t uo = kernel_zext(old, w), uv = kernel_zext(v, w);
  switch (bin) {
  case 0: return v;
  case 1: return old + v;
  case 2: return old - v;
  case 3: return old & v;
  case 4: return ~(old & v);
  case 5: return old | v;
  case 6: return old ^ v;
  case 7: return old > v ? old : v;
  case 8: return old < v ? old : v;
  case 9: return (int64_t)(uo > uv ? uo : uv);
  default: return (int64_t)(uo < uv ? uo : uv);
  }
}

static double rmw_float(int bin, double old, double v) {
  switch (bin) {
  case 0: return v;
  case 11: return old + v;
  case 12: return old - v;
  case 13: return old != old ? v : v != v ? old : old > v ? old : v;
  case 14: return old != old ? v : v != v ? old : old < v ? old : v;
  case 19: return old != old || v != v ? old + v : old == v ? (signbit(old) ? v : old) : old > v ? old : v;
  default: return old != old || v != v ? old + v : old == v ? (signbit(old) ? old : v) : old < v ? old : v;
  }
}

/* One atomic update of p (4 or 8 bytes) under a compare-and-swap loop; the old value in *old. */
static void atomic_update(const LMem *m, char *p, const Slot *v, const Slot *cmp, Slot *old, bool *swapped) {
  uint32_t w = m->t->kind == TY_INT ? m->t->u.i.width : 64;
  for (;;) {
    Slot o, n;
    if (m->bytes == 4) {
      uint32_t raw = __atomic_load_n((uint32_t *)(void *)p, __ATOMIC_SEQ_CST);
      kernel_load_elem(m->t, &raw, &o);
    } else {
      uint64_t raw = __atomic_load_n((uint64_t *)(void *)p, __ATOMIC_SEQ_CST);
      kernel_load_elem(m->t, &raw, &o);
    }
    bool is_float = m->t->kind == TY_FLOAT;
    if (cmp) {
      bool eq = is_float ? o.u == cmp->u : o.i == cmp->i;
      n = eq ? *v : o;
      *swapped = eq;
    } else if (is_float) {
      double x = m->bytes == 4 ? o.f32 : o.f, y = m->bytes == 4 ? v->f32 : v->f, z = rmw_float(m->bin, x, y);
      n.u = 0;
      if (m->bytes == 4)
        n.f32 = (float)z;
      else
        n.f = z;
    } else {
      n.i = kernel_sext((uint64_t)rmw_int(m->bin, o.i, v->i, w), w);
    }
    bool done;
    if (m->bytes == 4) {
      uint32_t eo, en;
      kernel_store_elem(m->t, &eo, &o);
      kernel_store_elem(m->t, &en, &n);
      done = __atomic_compare_exchange_n((uint32_t *)(void *)p, &eo, en, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    } else {
      uint64_t eo, en;
      kernel_store_elem(m->t, &eo, &o);
      kernel_store_elem(m->t, &en, &n);
      done = __atomic_compare_exchange_n((uint64_t *)(void *)p, &eo, en, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
    if (done) {
      *old = o;
      return;
    }
  }
}

static int x_atomic(KFrame *f, const KIns *k) {
  const LMem *m = k->aux;
  bool cx = k->nin == 3;
  const Slot *v = KIN(f, k, cx ? 2 : 1), *c = cx ? KIN(f, k, 1) : NULL;
  size_t sv = k->vin[cx ? 2 : 1], sc = cx ? k->vin[1] : 0;
  Slot *o = KOUT(f, k, 0), *ok = cx ? kw(f, k->out[0] + 1, true) : NULL;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *p = ptr_of(f, k, 0, l);
    if (!check(f, k, m, l, p))
      return EX_ERROR;
    if ((uintptr_t)p % m->bytes)
      return kernel_error(f, k, l, "an atomic access at %p is not aligned to %u bytes", (void *)p, m->bytes);
    bool sw = false;
    atomic_update(m, p, &v[l * sv], c ? &c[l * sc] : NULL, &o[l], &sw);
    kernel_note_atomic(f, (uintptr_t)p, (uintptr_t)p + m->bytes, k->loc);
    if (ok)
      ok[l].i = sw ? -1 : 0;
  }
  return EX_NEXT;
}

bool kernel_llvm_atomic(KComp *kc, Op *op, KIns *k) {
  bool cx = ir_str_eq(op->name, "llvm.cmpxchg");
  Type *t = op->operands[cx ? 2 : 1]->type;
  if (!kernel_llvm_mem(kc, op, k, 0, t))
    return false;
  LMem *m = k->aux;
  m->write = true;
  if (m->bytes != 4 && m->bytes != 8)
    return kernel_unsupported(kc, op, "an atomic access of other than 4 or 8 bytes");
  if (!k->vout[0])
    return kernel_unsupported(kc, op, "an atomic with a uniform result");
  if (!cx) {
    Attr *b = ir_op_attr(op, "bin_op");
    m->bin = b && b->kind == ATTR_INT ? (int)b->u.i.v : -1;
    bool fl = t->kind == TY_FLOAT;
    bool fok = m->bin == 0 || (m->bin >= 11 && m->bin <= 14) || m->bin == 19 || m->bin == 20;
    if (m->bin < 0 || (fl ? !fok : m->bin > 10))
      return kernel_unsupported(kc, op, "this llvm.atomicrmw operation");
  }
  k->fn = x_atomic;
  return true;
}

/* ---- shared memory globals ----------------------------------------------------------------- */

uint64_t kernel_llvm_size_of(const Type *t, uint64_t *align) {
  uint64_t s, a;
  switch (t->kind) {
  case TY_LLVM_ARRAY:
    s = t->u.arr.count * kernel_llvm_size_of(t->u.arr.elem, &a);
    break;
  case TY_LLVM_STRUCT: {
    s = 0;
    uint64_t ma = 1;
    for (uint32_t i = 0; i < t->u.agg.n; i++) {
      uint64_t ea, es = kernel_llvm_size_of(t->u.agg.elems[i], &ea);
      if (!t->u.agg.packed)
        s = (s + ea - 1) / ea * ea;
      s += es;
      ma = ea > ma ? ea : ma;
    }
    a = t->u.agg.packed ? 1 : ma;
    s = (s + a - 1) / a * a;
    break;
  }
  default:
    s = bytes_of(t);
    a = s ? s : 1;
    break;
  }
  *align = a ? a : 1;
  return s;
}

/* k->imm: the offset in the block's static shared memory; k->a 1: the dynamic shared memory */
static int x_shared(KFrame *f, const KIns *k) {
  char *p = k->a ? f->smem : f->lo + k->imm;
  if (!k->vout[0]) {
    KOUT(f, k, 0)[0].p = p;
    return EX_NEXT;
  }
  Slot *o = KOUT(f, k, 0);
  KLANES(f, l, { o[l].p = p; });
  return EX_NEXT;
}

/* A constant string global (a printf format): its bytes, made once, read-only to kernels. */
static int x_constant(KFrame *f, const KIns *k) {
  if (!k->vout[0]) {
    KOUT(f, k, 0)[0].p = k->aux;
    return EX_NEXT;
  }
  Slot *o = KOUT(f, k, 0);
  KLANES(f, l, { o[l].p = k->aux; });
  return EX_NEXT;
}

static bool l_constant(KComp *kc, Op *op, KIns *k, Op *g) {
  Attr *v = ir_op_attr(g, "value"), *gt = ir_op_attr(g, "global_type");
  uint64_t align, bytes = gt && gt->kind == ATTR_TYPE ? kernel_llvm_size_of(gt->type, &align) : 0;
  if (!v || v->kind != ATTR_STRING || !bytes)
    return kernel_unsupported(kc, op, "the address of a constant global that does not hold a string");
  LInfo *li = linfo(kc->in, kc->k);
  char *p = NULL;
  for (uint32_t i = 0; i < li->nconsts && !p; i++)
    if (li->consts[i].global == g)
      p = li->consts[i].p;
  if (!p) {
    if (li->nconsts == MAX_SHARED_GLOBALS)
      return kernel_unsupported(kc, op, "more than 64 constant globals");
    p = ir_alloc(kc->in->ctx, bytes + 1);
    memcpy(p, v->u.str.s, v->u.str.len < bytes ? v->u.str.len : bytes);
    li->consts[li->nconsts++] = (struct LConst){g, p, bytes};
  }
  k->aux = p;
  k->fn = x_constant;
  return true;
}

bool kernel_llvm_addressof(KComp *kc, Op *op, KIns *k) {
  Attr *name = ir_op_attr(op, "global_name");
  Op *mod = ir_op_parent_op(kc->root);
  Op *g = name && name->kind == ATTR_SYMREF && name->u.sym.n == 1 && mod ? ir_symbol_lookup(mod, name->u.sym.path[0])
                                                                          : NULL;
  Attr *as = g ? ir_op_attr(g, "addr_space") : NULL, *gt = g ? ir_op_attr(g, "global_type") : NULL;
  if (g && ir_str_eq(g->name, "llvm.mlir.global") && (!as || (as->kind == ATTR_INT && as->u.i.v == 0)) &&
      ir_op_attr(g, "constant"))
    return l_constant(kc, op, k, g);
  if (!g || !ir_str_eq(g->name, "llvm.mlir.global") || !as || as->kind != ATTR_INT || as->u.i.v != 3 || !gt ||
      gt->kind != ATTR_TYPE)
    return kernel_unsupported(kc, op, "the address of a global that is not a constant string or in shared memory");
  if (g->nregions && g->regions[0].first)
    return kernel_unsupported(kc, op, "a shared memory global with an initializer");
  uint64_t align, bytes = kernel_llvm_size_of(gt->type, &align);
  k->fn = x_shared;
  if (!bytes) { /* `external @__dynamic_shmem__N : !llvm.array<0 x i8>` */
    k->a = 1;
    return true;
  }
  LInfo *li = linfo(kc->in, kc->k);
  for (uint32_t i = 0; i < li->nshared; i++) /* one place per global, however many ops take its address */
    if (li->shared[i] == g) {
      k->imm = (int64_t)li->shared_off[i];
      return true;
    }
  if (li->nshared == MAX_SHARED_GLOBALS)
    return kernel_unsupported(kc, op, "more than 64 shared memory globals");
  li->shared[li->nshared] = g;
  li->shared_off[li->nshared++] = kernel_reserve_shared(kc, bytes);
  k->imm = (int64_t)li->shared_off[li->nshared - 1];
  return true;
}

/* ---- private memory: llvm.alloca of a constant count ----------------------------------------- */

static int x_alloca(KFrame *f, const KIns *k) {
  Slot *o = KOUT(f, k, 0);
  KLANES(f, l, { o[l].p = f->priv + (size_t)l * f->priv_stride + (size_t)k->imm; });
  return EX_NEXT;
}

bool kernel_llvm_alloca(KComp *kc, Op *op, KIns *k) {
  Attr *et = ir_op_attr(op, "elem_type");
  Op *d = op->noperands == 1 ? op->operands[0]->def : NULL;
  Attr *cv = d && ir_str_eq(d->name, "llvm.mlir.constant") ? ir_op_attr(d, "value") : NULL;
  if (!et || et->kind != ATTR_TYPE || !cv || cv->kind != ATTR_INT || cv->u.i.v < 0 || !k->vout[0] ||
      op->results[0].type->kind != TY_LLVM_PTR || op->results[0].type->u.ptr.addrspace != 0)
    return kernel_unsupported(kc, op, "an llvm.alloca whose count is not a constant");
  uint64_t align, bytes = kernel_llvm_size_of(et->type, &align) * (uint64_t)cv->u.i.v;
  if (!bytes || bytes > (1u << 20))
    return kernel_unsupported(kc, op, "an llvm.alloca of this size");
  /* the private memory of kernel_reserve_private, as bytes */
  int64_t shape[1] = {(int64_t)bytes};
  Type proto = {.kind = TY_MEMREF};
  proto.u.sh.shape = shape;
  proto.u.sh.rank = 1;
  proto.u.sh.elem = ir_type_int(kc->in->ctx, 8, SIGNLESS);
  KAttr a = {.vary = true, .type = ir_type_intern(kc->in->ctx, &proto)};
  kernel_reserve_private(kc, &a);
  k->imm = (int64_t)a.off;
  k->fn = x_alloca;
  return true;
}

/* ---- rows for fused streams (kernel_fuse.c) ---------------------------------------------------- */

bool kernel_llvm_is_load(const KIns *k) { return k->fn == kernel_llvm_x_load && k->vout[0]; }

bool kernel_llvm_is_store(const KIns *k) { return k->fn == kernel_llvm_x_store && k->vin[0]; }

/* kernel_llvm_row's row from the shape of the active threads' addresses */
static __attribute__((noinline)) bool row_shaped(KFrame *f, const KIns *k, const LMem *m, KRow *r) {
  LBounds b;
  b.n = UINT32_MAX;
  LShape S = {0};
  if (m->gfast && f->nact == f->n && (!m->gcy || f->bdim[2] == 1) ? !shape_gaff(f, m, &S)
                                                                  : !k->vin[m->ptr] || !shape_of(f, k, m, &S))
    return false;
  if (!S.affine || S.sb != 4 || (S.rows > 1 && S.rb != (int64_t)S.bx * 4) || where(f, m, S.lo, S.hi, &b) != AT_GLOBAL)
    return false;
  *r = (KRow){(char *)S.p0, (uintptr_t)S.bx * S.rows * 4, S.rb, m->memo};
  return true;
}

bool kernel_llvm_row(KFrame *f, const KIns *k, bool store, KRow *r) {
  const LMem *m = k->aux;
  (void)store;
  if (m->bytes != 4 || m->t->kind != TY_FLOAT || !f->nact)
    return false;
  /* the common row at once: an index known when compiled (shape_gaff's case) of consecutive
   * elements under a full mask, in a block of one row or of rows that follow each other, so the
   * threads touch [p0, p0 + 4 n) with no shape to work out */
  uint32_t bx = f->bdim[0];
  if (!m->gfast || m->gsb != 4 || f->nact != f->n ||
      (f->n != bx && (!m->gcy || f->bdim[2] != 1 || m->grb != (int64_t)bx * 4)))
    return row_shaped(f, k, m, r);
  uintptr_t p0 = (uintptr_t)f->u[m->gbase].p + aff_base(f, m->aff) * (uint64_t)m->gscale, hi;
  LBounds b;
  b.n = UINT32_MAX;
  if (__builtin_add_overflow(p0, (uintptr_t)f->n * 4, &hi) || where(f, m, p0, hi, &b) != AT_GLOBAL)
    return false;
  *r = (KRow){(char *)p0, (uintptr_t)f->n * 4, m->grb, m->memo};
  return true;
}
