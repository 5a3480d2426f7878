/* ptx_mem.c - PTX loads, stores and atomics (kernel_ptx.c has the overview).
 *
 * Generic and .global addresses are the device's pointers: each access is checked against the
 * device's memory table before it is performed (be_kernel_access_check: memory no live allocation
 * holds is an error naming the thread) and recorded for race detection (kernel_note_rows,
 * kernel_note_atomic). A block's shared memory is the engine's (static .shared variables at their
 * offsets, then the dynamic shared memory of an unsized .extern .shared array); a .shared address
 * is an offset in it, cvta.shared turns it into a generic pointer and back, and shared accesses
 * are bounds-checked and checked for races between the block's threads (kernel_shared_check). A
 * body's .local variables take each thread's private memory (KFrame.priv, kernel_reserve_private):
 * a .local address is an offset in the thread's part, cvta.local turns it into a generic pointer
 * and back, and an access outside the thread's own part is an error.
 *
 * Besides the access of each thread on its own, this file holds the shapes accesses take: global
 * accesses in rows and grids, accesses through address registers affine in the thread id, guards
 * at a cut of the thread ids, loads of an unrolled loop taking turns along rows, and fused streams
 * (a vector add's two loads, add and store in one pass over memory). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* ---- memory ------------------------------------------------------------------------------------- */

/* Thread l's address for p: a pointer into the block's shared memory (.shared: an offset in it),
 * into the thread's private memory (.local: an offset in it) or a device pointer. */
static inline char *addr_of(const KFrame *f, const PIns *p, const POpd *base, uint32_t l) {
  uint64_t a = (base->kind ? rd(f, base, l) : 0) + (uint64_t)p->off;
  if (p->space == PTX_SPACE_LOCAL)
    return f->priv + l * f->priv_stride + a;
  return p->space == PTX_SPACE_SHARED ? f->lo + a : (char *)(uintptr_t)a;
}

/* Thread l's access of [q, q + bytes), which no memory the device holds admits, when the launch
 * passed memrefs: reported against the nearest of them as the llvm form reports its pointers
 * (kernel_llvm.c), the bytes from the memref's first element; false when none was passed. */
static __attribute__((noinline, cold)) bool memref_oob(KFrame *f, const KIns *k, uint32_t l, char *q, uint32_t bytes,
                                                       bool write) {
  const PInfo *in = *kernel_llvm_ext(f->k);
  const PRef *near = NULL;
  uintptr_t best = UINTPTR_MAX;
  char *nlo = NULL;
  int64_t nn = 0;
  for (uint32_t i = 0; in && i < in->nrefs; i++) {
    const PRef *r = &in->refs[i];
    const Slot *u = f->u;
    char *base = (char *)(uintptr_t)u[in->pword[r->param + D_ALIGNED]].u;
    int64_t off = u[in->pword[r->param + D_OFFSET]].i, hi = off + 1; /* elements from base */
    for (uint32_t j = 0; j < r->rank; j++) {
      int64_t sz = u[in->pword[r->param + D_SIZES + j]].i, st = u[in->pword[r->param + D_SIZES + r->rank + j]].i;
      hi = sz <= 0 ? off : hi + (sz - 1) * (st < 0 ? 0 : st);
      if (sz <= 0)
        break;
    }
    char *lo = base + off * (int64_t)r->esize, *end = base + hi * (int64_t)r->esize;
    uintptr_t d = q < lo ? (uintptr_t)(lo - q) : q + bytes > end ? (uintptr_t)(q + bytes - end) : 0;
    if (d < best) {
      best = d;
      near = r;
      nlo = lo;
      nn = hi - off;
    }
  }
  if (!near)
    return false;
  ptrdiff_t d = q - nlo;
  int64_t es = near->esize;
  kernel_error(f, k, l, "out-of-bounds %s: bytes [%lld, %lld) of the memref passed as kernel operand %u: element "
               "%lld is not in [0, %lld)", write ? "store" : "load", (long long)d, (long long)d + bytes, near->arg,
               (long long)(d >= 0 ? d / es : -((-d + es - 1) / es)), (long long)(nn < 0 ? 0 : nn));
  return true;
}

/* Whether thread l may access [q, q + bytes): in the block's shared memory (W_SHARED), in its own
 * private memory (W_LOCAL), or in memory the device holds for the kernel; reports why not. */
bool ptx_access_ok(KFrame *f, const KIns *k, const PIns *p, uint32_t l, char *q, uint32_t bytes, bool write,
                   int *where) {
  char *end = f->priv; /* the shared memory: static, then dynamic */
  if (p->space == PTX_SPACE_LOCAL || (q >= f->priv && q < f->hi)) {
    *where = W_LOCAL;
    char *mine = f->priv + l * f->priv_stride;
    if (q >= mine && q <= mine + f->priv_stride && bytes <= (size_t)(mine + f->priv_stride - q))
      return true;
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the thread's local memory (%zu bytes)",
                 bytes, (long long)(q - mine), f->priv_stride);
    return false;
  }
  *where = p->space == PTX_SPACE_SHARED || (q >= f->lo && q < f->hi) ? W_SHARED : W_GLOBAL;
  if (*where == W_SHARED) {
    if (q >= f->lo && q <= end && bytes <= (size_t)(end - q))
      return true;
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at offset %lld of the block's shared memory (%zu bytes)",
                 bytes, (long long)(q - f->lo), (size_t)(end - f->lo));
    return false;
  }
  if (be_kernel_access_probe(f->ctx, q, bytes))
    return true;
  if (memref_oob(f, k, l, q, bytes, write))
    return false;
  BeStatus st = be_kernel_access_check(f->ctx, q, bytes, write, k->loc);
  if (st == BE_OK)
    return true;
  if (st == BE_ERR_MEMORY) { /* the device said why; which thread, here */
    uint32_t t, bid[3];
    kernel_lane_block(f, l, &t, bid);
    GpuState *gs = kernel_gpu(f->L_in);
    pthread_mutex_lock(&gs->mu);
    ir_diag(f->L_in->ctx, DIAG_NOTE, ir_op_loc(k->op), "the access of thread (%u, %u, %u) of block (%u, %u, %u)",
            t % f->bdim[0], t / f->bdim[0] % f->bdim[1], t / (f->bdim[0] * f->bdim[1]), bid[0], bid[1], bid[2]);
    kernel_error_notes(f);
    pthread_mutex_unlock(&gs->mu);
    kernel_failed(f);
  } else
    kernel_error(f, k, l, "out-of-bounds access: %u bytes at %p, in no memory the device holds", bytes, (void *)q);
  return false;
}

void ptx_run_note(KFrame *f, const KIns *k, const PIns *p, PRun *r, char *q, uint32_t bytes, bool write) {
  uintptr_t a = (uintptr_t)q;
  if (r->hi && a >= r->lo && a + bytes <= r->hi)
    return;
  if (r->hi && a == r->hi) {
    r->hi += bytes;
    return;
  }
  if (r->hi)
    kernel_note_rows(f, k, p->memo, r->lo, r->hi - r->lo, 0, 1, write);
  r->lo = a;
  r->hi = a + bytes;
}

static inline uint64_t load_bytes(const char *q, uint32_t bytes, bool s) {
  uint64_t v = 0;
  memcpy(&v, q, bytes);
  return s ? (uint64_t)sext(v, bytes * 8) : v;
}

/* ld.param: the bytes of a parameter's word (p->s[0].word, from p->off) */
int ptx_x_ld_param(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  uint64_t v = load_bytes((const char *)&f->u[p->s[0].word] + p->off, p->bytes, is_signed(p->t));
  KLANES(f, l, { wr(f, &p->d[0], l, v); });
  return EX_NEXT;
}

/* ---- shaped global accesses ------------------------------------------------------------------- */

/* Whether column b's n words step by `step` from b[0] (word i is b[0] + i * step, modulo 2^64): one
 * pass with no early exit, so that it runs as a vector loop. */
KLANEFN static bool lanes_step(const Slot *restrict b, uint32_t n, uint64_t step) {
  uint64_t bad = 0, want = b[0].u;
  for (uint32_t i = 0; i < n; i++, want += step)
    bad |= b[i].u ^ want;
  return !bad;
}

/* Whether word y * bx + x of column b is b[0] + x * sx + y * sy (modulo 2^64) for every x < bx,
 * y < rows. */
static inline __attribute__((always_inline)) uint64_t grid_bad(const Slot *restrict b, uint32_t bx, uint32_t rows,
                                                               uint64_t sx, uint64_t sy) {
  uint64_t bad = 0, r = b[0].u;
  for (uint32_t y = 0; y < rows; y++, r += sy) {
    const Slot *R = b + (size_t)y * bx;
    uint64_t v = r;
    for (uint32_t x = 0; x < bx; x++, v += sx)
      bad |= R[x].u ^ v;
  }
  return bad;
}

KLANEFN static bool lanes_grid(const Slot *restrict b, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy) {
  if (bx == 16) /* rows of a constant length: their loops unrolled */
    return !grid_bad(b, 16, rows, sx, sy);
  if (bx == 32)
    return !grid_bad(b, 32, rows, sx, sy);
  return !grid_bad(b, bx, rows, sx, sy);
}

/* The fast path of a global (or generic) access under the full mask whose addresses are a grid
 * of the block's shape (rows of bdim.x threads, each at consecutive accesses or all at one, the
 * rows a constant distance apart, at least a row's bytes, or all at one: a matmul's loads and
 * stores), found in one pass with no address written per thread: what global_span admits and
 * span_note records as rows of the block's shape, with the same span and probe. False: global_span
 * decides. */
KLANEFN static bool global_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g) {
  uint32_t n = f->n, bx = f->bdim[0];
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || f->nact != n || n > MAXN || bx < 2 ||
      n % bx || p->s[0].kind != O_REG || p->s[0].neg)
    return false;
  uint32_t rows = n / bx;
  const Slot *b = f->v + (size_t)p->s[0].word * n;
  uint64_t sx = b[1].u - b[0].u, sy = rows > 1 ? b[bx].u - b[0].u : 0, len = sx ? (uint64_t)bx * total : total;
  if ((sx && sx != total) || (int64_t)sy < 0 || (sy && sy < len))
    return false;
  uint64_t a0 = b[0].u + (uint64_t)p->off, span;
  if (__builtin_mul_overflow((uint64_t)(rows - 1), sy, &span) || __builtin_add_overflow(span, len, &span) ||
      a0 > (uint64_t)UINTPTR_MAX - span || !lanes_grid(b, bx, rows, sx, sy))
    return false;
  if (a0 < (uintptr_t)f->hi && a0 + span > (uintptr_t)f->lo)
    return false;
  if (!be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)a0, (size_t)span))
    return false;
  *g = (PGrid){.q0 = (uintptr_t)a0, .lo = (uintptr_t)a0, .hi = (uintptr_t)(a0 + span), .len = (uintptr_t)len,
               .sx = sx, .sy = sy, .bx = bx, .rows = rows};
  return true;
}

/* d[y * bx + x] = the element of `bytes` (4 or 8; of 4, sign-extended when s) at
 * q0 + x * sx + y * sy, masked by m */
static inline __attribute__((always_inline)) void ld_rows(Slot *restrict d, uintptr_t q0, uint32_t bx, uint32_t rows,
                                                          uint64_t sx, uint64_t sy, uint32_t bytes, bool s, uint64_t m) {
  for (uint32_t y = 0; y < rows; y++) {
    const char *r = (const char *)(q0 + (uintptr_t)(y * sy));
    Slot *D = d + (size_t)y * bx;
    if (bytes == 4 && !sx) {
      uint32_t v;
      memcpy(&v, r, 4);
      uint64_t w = (s ? (uint64_t)(int64_t)(int32_t)v : v) & m;
      for (uint32_t x = 0; x < bx; x++)
        D[x].u = w;
    } else if (bytes == 4 && s) {
      for (uint32_t x = 0; x < bx; x++) {
        int32_t v;
        memcpy(&v, r + (size_t)x * 4, 4);
        D[x].u = (uint64_t)(int64_t)v & m;
      }
    } else if (bytes == 4) {
      for (uint32_t x = 0; x < bx; x++) {
        uint32_t v;
        memcpy(&v, r + (size_t)x * 4, 4);
        D[x].u = v & m;
      }
    } else if (!sx) {
      uint64_t v;
      memcpy(&v, r, 8);
      for (uint32_t x = 0; x < bx; x++)
        D[x].u = v & m;
    } else {
      for (uint32_t x = 0; x < bx; x++) {
        uint64_t v;
        memcpy(&v, r + (size_t)x * 8, 8);
        D[x].u = v & m;
      }
    }
  }
}

KLANEFN static void ld_grid(Slot *restrict d, uintptr_t q0, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy,
                            uint32_t bytes, bool s, uint64_t m) {
  if (bx == 16 && bytes == 4) /* rows of a constant length: their loops unrolled */
    ld_rows(d, q0, 16, rows, sx, sy, 4, s, m);
  else
    ld_rows(d, q0, bx, rows, sx, sy, bytes, s, m);
}

/* The element of `bytes` (4 or 8) of thread y * bx + x (v[(y * bx + x) * sv]) stored at
 * q0 + x * sx + y * sy, in the threads' order */
KLANEFN static void st_grid(uintptr_t q0, uint32_t bx, uint32_t rows, uint64_t sx, uint64_t sy, uint32_t bytes,
                            const Slot *restrict v, uint32_t sv) {
  for (uint32_t y = 0; y < rows; y++) {
    char *r = (char *)(q0 + (uintptr_t)(y * sy));
    const Slot *V = v + (size_t)y * bx * sv;
    if (bytes == 4 && sx && sv)
      for (uint32_t x = 0; x < bx; x++) {
        uint32_t w = (uint32_t)V[x].u;
        memcpy(r + (size_t)x * 4, &w, 4);
      }
    else if (sx && sv)
      for (uint32_t x = 0; x < bx; x++)
        memcpy(r + (size_t)x * 8, &V[x].u, 8);
    else
      for (uint32_t x = 0; x < bx; x++) {
        uint64_t w = V[(size_t)x * sv].u;
        memcpy(r + (size_t)x * sx, &w, bytes);
      }
  }
}

/* ld of a grid (global_grid): d the destination column (one element), else NULL */
static void ld_grid_any(KFrame *f, const PIns *p, const PGrid *g, bool s) {
  Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
  uint64_t m = wmask(UINT64_MAX, p->d[0].width);
  if (d && (p->bytes == 4 || p->bytes == 8)) {
    ld_grid(d, g->q0, g->bx, g->rows, g->sx, g->sy, p->bytes, s, m);
    return;
  }
  for (uint32_t l = 0; l < f->n; l++) {
    const char *q = (const char *)(g->q0 + (uintptr_t)(l % g->bx * g->sx + l / g->bx * g->sy));
    for (uint32_t j = 0; j < p->nd; j++)
      wr(f, &p->d[j], l, load_bytes(q + j * p->bytes, p->bytes, s));
  }
}

static void st_grid_any(KFrame *f, const PIns *p, const PGrid *g) {
  uint32_t n = p->ns - 1;
  Slot one;
  uint32_t sv = 0;
  const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
  if (v && (p->bytes == 4 || p->bytes == 8)) {
    st_grid(g->q0, g->bx, g->rows, g->sx, g->sy, p->bytes, v, sv);
    return;
  }
  for (uint32_t l = 0; l < f->n; l++) {
    char *q = (char *)(g->q0 + (uintptr_t)(l % g->bx * g->sx + l / g->bx * g->sy));
    for (uint32_t j = 0; j < n; j++) {
      uint64_t x = rd(f, &p->s[1 + j], l);
      memcpy(q + j * p->bytes, &x, p->bytes);
    }
  }
}

/* The fast path of a global (or generic) access by the active threads: their addresses (q[l]) when
 * all lie outside the block's own memory and one probe of their span [*lo, *hi) admits it, which
 * the checks one by one would then all pass; *dense when thread act[i]'s is act[0]'s + i * total
 * (one row to record). False: the caller checks them one by one. */
static bool global_span(KFrame *f, const PIns *p, uint32_t total, char **q, uintptr_t *lo, uintptr_t *hi,
                        bool *dense) {
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || !f->nact || f->n > MAXN)
    return false;
  Slot one = {.u = 0};
  uint32_t sb = 0;
  const Slot *b = p->s[0].kind ? col(f, &p->s[0], &one, &sb) : &one;
  if (!b)
    return false;
  uintptr_t a0 = (uintptr_t)(b[f->act[0] * sb].u + (uint64_t)p->off), l0 = a0, h0 = a0;
  bool dn = true;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    uintptr_t u = (uintptr_t)(b[l * sb].u + (uint64_t)p->off);
    q[l] = (char *)u;
    l0 = u < l0 ? u : l0;
    h0 = u > h0 ? u : h0;
    dn &= u == a0 + (uintptr_t)i * total;
  }
  if (h0 + total < h0 || (l0 < (uintptr_t)f->hi && h0 + total > (uintptr_t)f->lo))
    return false;
  if (!be_kernel_access_probe(f->ctx, (const void *)l0, h0 + total - l0))
    return false;
  *lo = l0, *hi = h0 + total, *dense = dn;
  return true;
}

/* The fastest path of a global (or generic) access: a contiguous run of active threads at
 * consecutive accesses of total bytes (thread l's at the result + (l - act[0]) * total), the span
 * [*lo, *hi) with no wrap, outside the block's own memory and admitted by one probe: what
 * global_span finds dense, found without writing each thread's address. NULL: global_span then
 * decides. */
KLANEFN static char *global_row(KFrame *f, const PIns *p, uint32_t total, uintptr_t *lo, uintptr_t *hi) {
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0;
  if (p->space == PTX_SPACE_SHARED || p->space == PTX_SPACE_LOCAL || n < 2 || f->n > MAXN ||
      f->act[n - 1] - l0 != n - 1 || p->s[0].kind != O_REG || p->s[0].neg)
    return NULL;
  const Slot *b = f->v + (size_t)p->s[0].word * f->n + l0;
  uint64_t a0 = b[0].u + (uint64_t)p->off;
  bool dn = b[n - 1].u + (uint64_t)p->off == a0 + (uint64_t)(n - 1) * total /* most others fail here */
            && lanes_step(b, n, total);
  uint64_t len = (uint64_t)n * total;
  if (!dn || a0 > (uint64_t)UINTPTR_MAX - len || (a0 < (uintptr_t)f->hi && a0 + len > (uintptr_t)f->lo))
    return NULL;
  if (!be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)a0, (size_t)len))
    return NULL;
  *lo = (uintptr_t)a0, *hi = (uintptr_t)(a0 + len);
  return (char *)(uintptr_t)a0;
}

/* The fast path of a .shared access of one element (es bytes) per thread by a contiguous run of
 * threads at consecutive elements: checked against the block's shared memory and for races and
 * recorded at once (kernel_shared_lanes); the first thread's address, or NULL (the caller then
 * checks them one by one, which reports what is wrong). */
KLANEFN static char *shared_run(KFrame *f, const KIns *k, const PIns *p, uint32_t es, bool write) {
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0;
  if (p->space != PTX_SPACE_SHARED || !n || f->act[n - 1] - l0 != n - 1)
    return NULL;
  Slot one = {.u = 0};
  uint32_t sb = 0;
  const Slot *b = p->s[0].kind ? col(f, &p->s[0], &one, &sb) : &one;
  if (!b || (!sb && n > 1))
    return NULL;
  uint64_t a0 = b[l0 * sb].u + (uint64_t)p->off, size = (uint64_t)(f->priv - f->lo);
  for (uint32_t i = 1; i < n; i++)
    if (b[(l0 + i) * sb].u + (uint64_t)p->off != a0 + (uint64_t)i * es)
      return NULL;
  if (a0 > size || (uint64_t)n * es > size - a0)
    return NULL;
  char *q = f->lo + a0;
  return kernel_shared_lanes(f, k, p->memo, q, l0, n, es, write) ? q : NULL;
}

/* Records the fast path's accesses for race detection: one row; rows of the block's shape (under
 * the full mask, each row of threads at consecutive accesses or all at one, the rows a constant
 * distance apart, as a matmul's loads are); else runs of contiguous threads. */
static void span_note(KFrame *f, const KIns *k, const PIns *p, char **q, uint32_t total, uintptr_t lo, uintptr_t hi,
                      bool dense, bool write) {
  if (dense) {
    kernel_note_rows(f, k, p->memo, lo, hi - lo, 0, 1, write);
    return;
  }
  uint32_t bx = f->bdim[0], n = f->n, by = bx ? n / bx : 0;
  if (f->nact == n && bx > 1 && by * bx == n) {
    intptr_t sx = q[1] - q[0], sy = by > 1 ? q[bx] - q[0] : 0;
    uintptr_t len = sx ? (uintptr_t)bx * total : total;
    bool ok = (sx == 0 || sx == (intptr_t)total) && (sy == 0 || (sy > 0 && (uintptr_t)sy >= len));
    for (uint32_t y = 0; y < by && ok; y++)
      for (uint32_t x = 0; x < bx && ok; x++)
        ok = q[y * bx + x] == q[0] + (intptr_t)x * sx + (intptr_t)y * sy;
    if (ok) {
      kernel_note_rows(f, k, p->memo, (uintptr_t)q[0], len, sy, sy ? by : 1, write);
      return;
    }
  }
  PRun run = {0, 0};
  for (uint32_t i = 0; i < f->nact; i++)
    ptx_run_note(f, k, p, &run, q[f->act[i]], total, write);
  run_flush(f, k, p, &run, write);
}

/* ---- registers affine in the thread id ----------------------------------------------------------- *
 *
 * A register with one write, unguarded, that dominates its reads, by an instruction that keeps
 * values affine in the thread's ids (mov of %tid.x or %tid.y, integer cvt, add, sub, mul.lo and
 * shl by a constant, mad.lo, mul.wide by a constant: ptx_affine_regs) from immediates, uniform
 * registers and other such registers, holds in thread (x, y) the bits of u + cx * x + cy * y,
 * where cx and cy are known when the kernel is compiled and u, its value in thread (0, 0), is the
 * same in every thread: its instruction computes u alone, in a uniform word (x_aff), and the
 * column only where another instruction reads it (PAffReg.needed), from u and the steps in one
 * pass. A widening (cvt to more bits, mul.wide) keeps the steps only where the narrow values do
 * not wrap in the block, which is checked from u when it runs; where it does not hold (or a
 * %tid.y in a block of more than one layer), the instruction computes its column as before, its
 * affine sources' columns made first from their u (ptx_aff_col), and what it writes is not affine
 * for the rest of the frame (PAffReg's state word). An ld or st whose address is such a register
 * finds its threads' addresses from u and the steps (aff_ld, aff_st) with no column read or
 * compare, and records them as global_row and global_grid would; where no fast path applies, it
 * makes the address column and goes the usual way, which reports what is wrong. A register of
 * several writes (a loop's count, an address the loop moves on) is affine too where its first
 * write dominates the others and its reads and every write keeps the first's steps, as long as
 * each write runs for all of the frame's threads (loop_writes). */

/* Writes a's column from u and its steps, for every thread, once per value of the state. */
KLANEFN static void aff_fill(Slot *restrict c, uint64_t u, uint64_t cx, uint64_t cy, uint32_t bx, uint32_t rows,
                             uint64_t m) {
  for (uint32_t y = 0; y < rows; y++, u += cy) {
    Slot *R = c + (size_t)y * bx;
    uint64_t v = u;
    for (uint32_t x = 0; x < bx; x++, v += cx)
      R[x].u = v & m;
  }
}

void ptx_aff_col(KFrame *f, const PAffReg *a) {
  uint64_t *st = &f->u[a->sword].u;
  if ((*st & (AS_AFF | AS_COL)) != AS_AFF)
    return;
  aff_fill(f->v + (size_t)a->colword * f->n, f->u[a->uword].u, a->cx, a->cy, f->bdim[0], f->n / f->bdim[0],
           wmask(UINT64_MAX, a->width));
  *st |= AS_COL;
}

/* The address register's words of the active threads alone, for an ld or st that goes the usual
 * way (which reads no other), when they are few: the column is not marked written. */
static void aff_col_act(KFrame *f, const PAffReg *a) {
  uint32_t nact = f->nact, bx = f->bdim[0];
  if ((f->u[a->sword].u & (AS_AFF | AS_COL)) != AS_AFF || nact * 8 > f->n) {
    ptx_aff_col(f, a);
    return;
  }
  Slot *c = f->v + (size_t)a->colword * f->n;
  uint64_t u = f->u[a->uword].u, m = wmask(UINT64_MAX, a->width);
  for (uint32_t i = 0; i < nact; i++) {
    uint32_t l = f->act[i];
    c[l].u = (u + a->cx * (l % bx) + a->cy * (l / bx)) & m;
  }
}

/* The grid an affine address register gives the active threads' accesses of total bytes, as
 * global_row (*dense) or global_grid would find it from the column, with the same span, checks
 * and probe; false when neither would apply (the caller then makes the column). */
static bool aff_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g, bool *dense) {
  const PAffReg *a = p->abase;
  uint32_t n = f->n, nact = f->nact, bx = f->bdim[0], rows = n / bx, l0 = nact ? f->act[0] : 0;
  if (!(f->u[a->sword].u & AS_AFF) || a->width != 64 || p->space == PTX_SPACE_SHARED ||
      p->space == PTX_SPACE_LOCAL || nact < 2 || n > MAXN)
    return false;
  uint64_t u = f->u[a->uword].u + (uint64_t)p->off, cx = a->cx, cy = a->cy, span, len;
  if (nact == n && cx == total && (rows == 1 || cy == (uint64_t)bx * total)) {
    *dense = true; /* global_row's: consecutive accesses */
    g->q0 = (uintptr_t)u;
    g->sx = total, g->sy = 0, g->bx = n, g->rows = 1;
    span = len = (uint64_t)n * total;
  } else if (nact != n) {
    if (bx != n || f->act[nact - 1] - l0 != nact - 1 || cx != total)
      return false;
    *dense = true; /* a contiguous run of a block of one row */
    u += cx * l0;
    g->q0 = (uintptr_t)u;
    g->sx = total, g->sy = 0, g->bx = nact, g->rows = 1;
    span = len = (uint64_t)nact * total;
  } else {
    *dense = false; /* global_grid's */
    len = cx ? (uint64_t)bx * total : total;
    if (rows == 1)
      cy = 0;
    if (bx < 2 || (cx && cx != total) || (int64_t)cy < 0 || (cy && cy < len))
      return false;
    if (__builtin_mul_overflow((uint64_t)(rows - 1), cy, &span) || __builtin_add_overflow(span, len, &span))
      return false;
    g->q0 = (uintptr_t)u;
    g->sx = cx, g->sy = cy, g->bx = bx, g->rows = rows;
  }
  if (u > (uint64_t)UINTPTR_MAX - span || (u < (uintptr_t)f->hi && u + span > (uintptr_t)f->lo) ||
      !be_kernel_access_probe(f->ctx, (const void *)(uintptr_t)u, (size_t)span))
    return false;
  g->lo = (uintptr_t)u, g->hi = (uintptr_t)(u + span), g->len = (uintptr_t)len;
  return true;
}

/* aff_grid, for the steps of ptx_macc.c */
bool ptx_aff_grid(KFrame *f, const PIns *p, uint32_t total, PGrid *g, bool *dense) {
  return aff_grid(f, p, total, g, dense);
}

/* The first active thread's element of a .shared access of es bytes a thread through an affine
 * address register, when the active threads are a contiguous run at consecutive elements in the
 * block's shared memory (what shared_run checks from the column); NULL otherwise. */
static char *aff_shared_row(const KFrame *f, const PIns *p, uint32_t es) {
  const PAffReg *a = p->abase;
  uint32_t n = f->nact, l0 = n ? f->act[0] : 0, bx = f->bdim[0];
  if (p->space != PTX_SPACE_SHARED || !n || f->act[n - 1] - l0 != n - 1 || !(f->u[a->sword].u & AS_AFF) ||
      a->width != 64 || a->cx != es || (bx != f->n && a->cy != (uint64_t)bx * es))
    return NULL;
  uint64_t a0 = f->u[a->uword].u + (uint64_t)p->off + a->cx * l0, size = (uint64_t)(f->priv - f->lo);
  if (a0 > size || (uint64_t)n * es > size - a0)
    return NULL;
  return f->lo + a0;
}

/* shared_run for an affine address register: the first thread's address from u, the rest
 * consecutive by the steps; NULL when shared_run would not apply (or may race). */
static char *aff_shared(KFrame *f, const KIns *k, const PIns *p, uint32_t es, bool write) {
  char *q = aff_shared_row(f, p, es);
  return q && kernel_shared_lanes(f, k, p->memo, q, f->act[0], f->nact, es, write) ? q : NULL;
}

/* Records a load's rows ranges [lo, lo + len) + r * stride as kernel_note_rows does; a load of a
 * group (ptx_load_groups) whose rows are one element each through the group's memo. */
static inline void ld_note(KFrame *f, const KIns *k, const PIns *p, uintptr_t lo, uintptr_t len, int64_t stride,
                           uint32_t rows) {
  if (p->grp && len == p->grp->esize)
    kernel_note_group(f, k, p->gmemo, p->grp, p->gmember, lo, len, stride, rows);
  else
    kernel_note_rows(f, k, p->memo, lo, len, stride, rows, false);
}

/* ld_note, for the steps of ptx_macc.c */
void ptx_ld_note(KFrame *f, const KIns *k, const PIns *p, uintptr_t lo, uintptr_t len, int64_t stride,
                 uint32_t rows) {
  ld_note(f, k, p, lo, len, stride, rows);
}

/* ld through an affine address register: true when done; else its column is made for the usual
 * path. */
static bool aff_ld(KFrame *f, const KIns *k, const PIns *p) {
  uint32_t total = p->bytes * p->nd;
  bool s = is_signed(p->t), dense;
  PGrid g;
  if (aff_grid(f, p, total, &g, &dense)) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint32_t l0 = f->act[0];
    if (dense)
      kernel_prefetch_next(f, (const char *)g.lo, g.hi - g.lo);
    if (dense && d && (p->bytes == 4 || p->bytes == 8))
      ld_grid(d + (f->nact == f->n ? 0 : l0), g.q0, g.bx, 1, total, 0, p->bytes, s, wmask(UINT64_MAX, p->d[0].width));
    else if (dense)
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes((const char *)g.q0 + (size_t)(l - l0) * total + j * p->bytes, p->bytes, s));
      });
    else
      ld_grid_any(f, p, &g, s);
    if (dense)
      ld_note(f, k, p, g.lo, g.hi - g.lo, 0, 1);
    else
      ld_note(f, k, p, g.lo, g.len, (int64_t)g.sy, g.sy ? g.rows : 1);
    return true;
  }
  char *sq = p->nd == 1 && (p->bytes == 4 || p->bytes == 8) ? aff_shared(f, k, p, total, false) : NULL;
  if (sq) {
    Slot *d = dcol(f, &p->d[0]);
    uint32_t l0 = f->act[0];
    if (d)
      ld_grid(d + l0, (uintptr_t)sq, f->nact, 1, total, 0, p->bytes, s, wmask(UINT64_MAX, p->d[0].width));
    else
      KLANES(f, l, { wr(f, &p->d[0], l, load_bytes(sq + (size_t)(l - l0) * p->bytes, p->bytes, s)); });
    return true;
  }
  aff_col_act(f, p->abase);
  return false;
}

static bool aff_st(KFrame *f, const KIns *k, const PIns *p) {
  uint32_t n = p->ns - 1, total = p->bytes * n;
  bool dense;
  PGrid g;
  if (aff_grid(f, p, total, &g, &dense)) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    uint32_t l0 = f->act[0];
    if (dense)
      kernel_prefetch_next(f, (const char *)g.lo, g.hi - g.lo);
    if (dense && v && (p->bytes == 4 || p->bytes == 8))
      st_grid(g.q0, g.bx, 1, total, 0, p->bytes, v + (size_t)(f->nact == f->n ? 0 : l0) * sv, sv);
    else if (dense)
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy((char *)g.q0 + (size_t)(l - l0) * total + j * p->bytes, &x, p->bytes);
        }
      });
    else
      st_grid_any(f, p, &g);
    if (dense)
      kernel_note_rows(f, k, p->memo, g.lo, g.hi - g.lo, 0, 1, true);
    else
      kernel_note_rows(f, k, p->memo, g.lo, g.len, (int64_t)g.sy, g.sy ? g.rows : 1, true);
    return true;
  }
  char *sq = n == 1 ? aff_shared(f, k, p, total, true) : NULL;
  if (sq) {
    uint32_t l0 = f->act[0], sv = 0;
    Slot one;
    const Slot *v = p->bytes == 4 || p->bytes == 8 ? col(f, &p->s[1], &one, &sv) : NULL;
    if (v) { /* the active threads are l0.. */
      st_grid((uintptr_t)sq, f->nact, 1, p->bytes, 0, p->bytes, v + (size_t)l0 * sv, sv);
      return true;
    }
    KLANES(f, l, {
      uint64_t x = rd(f, &p->s[1], l);
      memcpy(sq + (size_t)(l - l0) * p->bytes, &x, p->bytes);
    });
    return true;
  }
  aff_col_act(f, p->abase);
  return false;
}

/* ---- guards at a cut ------------------------------------------------------------------------------ *
 *
 * A setp of an affine register (above) against a value the same in every thread, whose predicate
 * only the branch that ends its block reads (`setp.ge.u32 %p, %r, %n; @%p bra L`), in a block of
 * one row: where the compared values do not wrap in the block, they rise or fall with the thread,
 * so the predicate holds for the threads below a cut or for those from it on. The setp writes the
 * cut (ptx_x_setp_cut: a uniform word, CUT_*) and no column, and the branch splits its threads there
 * (ptx_cut_count); where that does not apply the setp runs as before, and a branch that reads the
 * predicate's column (ptx_x_cond_bra) has it made from the cut first (ptx_cut_col). */

#define CUT_VALID (UINT64_C(1) << 63)

#define CUT_PREFIX (UINT64_C(1) << 62) /* it holds below the cut (else from it on) */

#define CUT_COL (UINT64_C(1) << 61)    /* the column is written */

/* The predicate of setp p for lane l of value v0 + cx * l (no wrap) against b */
static inline bool cut_at(const PIns *p, int64_t v0, int64_t cx, int64_t b, uint32_t l, bool s) {
  int64_t v = v0 + cx * (int64_t)l;
  switch (p->mode) {
  case C_EQ: return v == b;
  case C_NE: return v != b;
  case C_LT: case C_LO: return s ? v < b : (uint64_t)v < (uint64_t)b;
  case C_LE: case C_LS: return s ? v <= b : (uint64_t)v <= (uint64_t)b;
  case C_GT: case C_HI: return s ? v > b : (uint64_t)v > (uint64_t)b;
  default: return s ? v >= b : (uint64_t)v >= (uint64_t)b;
  }
}

/* The cut of an ordered compare whose predicate is `first` at lane 0 and not at lane n - 1: the
 * first lane where it changes. It changes once (the values rise or fall with the lane), next to
 * (b - v0) / cx: the lanes there are tried first, then a binary search. */
static uint32_t cut_find(const PIns *p, int64_t v0, int64_t cx, int64_t b, uint32_t n, bool s, bool first) {
  int64_t d;
  if (!__builtin_sub_overflow(b, v0, &d))
    for (int64_t h = d / cx - 1; h <= d / cx + 2; h++)
      if (h >= 1 && h < (int64_t)n && cut_at(p, v0, cx, b, (uint32_t)h - 1, s) == first &&
          cut_at(p, v0, cx, b, (uint32_t)h, s) != first)
        return (uint32_t)h;
  uint32_t l = 0, h = n - 1; /* at l it is first, at h not */
  while (h - l > 1) {
    uint32_t m = l + (h - l) / 2;
    if (cut_at(p, v0, cx, b, m, s) == first)
      l = m;
    else
      h = m;
  }
  return h;
}

/* The cut word of eq / ne, where the values equal b at one lane at most (or at all when cx is 0): the predicate
 * holds at that lane alone (eq) or at all others (ne), a cut when the lane is the first or the
 * last or none; 0 when it lies between. */
static uint64_t cut_point(const PIns *p, int64_t v0, int64_t cx, int64_t b, uint32_t n) {
  int64_t d;
  bool eq = p->mode == C_EQ;
  if (!cx)
    return CUT_VALID | CUT_PREFIX | ((v0 == b) == eq ? n : 0);
  if (__builtin_sub_overflow(b, v0, &d) || d % cx || d / cx < 0 || d / cx >= (int64_t)n)
    return CUT_VALID | CUT_PREFIX | (eq ? 0 : n); /* equal nowhere */
  int64_t at = d / cx;
  if (at == 0)
    return CUT_VALID | (eq ? CUT_PREFIX : 0) | 1;
  if (at == (int64_t)n - 1)
    return CUT_VALID | (eq ? 0 : CUT_PREFIX) | (n - 1);
  return 0;
}

/* ptx_x_setp_cut of a register the same in every thread (its steps 0: a loop's induction), in a block
 * of any shape: its one predicate, held by all threads or by none; false when its other operand
 * is not one word. */
static bool uni_cut(KFrame *f, const PIns *p, const PAffReg *a, uint64_t *cw) {
  Slot one;
  uint32_t sb = 0;
  const Slot *bs = col(f, &p->s[1], &one, &sb);
  if (!bs || sb)
    return false;
  unsigned w = ptx_type_bits(p->t);
  uint64_t x = wmask(f->u[a->uword].u, w), y = wmask(bs[0].u, w);
  int64_t sx = sext(x, w), sy = sext(y, w);
  bool s = is_signed(p->t), holds;
  switch (p->mode) {
  case C_EQ: holds = x == y; break;
  case C_NE: holds = x != y; break;
  case C_LT: holds = s ? sx < sy : x < y; break;
  case C_LE: holds = s ? sx <= sy : x <= y; break;
  case C_GT: holds = s ? sx > sy : x > y; break;
  case C_GE: holds = s ? sx >= sy : x >= y; break;
  case C_LO: holds = x < y; break;
  case C_LS: holds = x <= y; break;
  case C_HI: holds = x > y; break;
  default: holds = x >= y; break; /* C_HS */
  }
  *cw = CUT_VALID | CUT_PREFIX | (holds ? f->n : 0);
  return true;
}

/* Writes predicate column g from cut word e, for every thread. */
static void cut_fill(KFrame *f, uint64_t e, Slot *g) {
  uint32_t c = (uint32_t)e, n = f->n;
  uint64_t in = e & CUT_PREFIX ? 1 : 0;
  for (uint32_t l = 0; l < n; l++)
    g[l].u = l < c ? in : in ^ 1;
}

static bool cut_make(KFrame *f, const PIns *p, const PAffReg *a, uint64_t bw, uint64_t *cw);

/* A cut is made of the register's u, the other operand's word and the block's shape; the last
 * one made (cw[1..4]: u, the word, the shape, the cut) is taken again for the same three, as the
 * same block of each launch gives them. */
int ptx_x_setp_cut(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PAffReg *a = p->abase;
  uint64_t *cw = &f->u[p->cutword - 1].u;
  uint32_t n = f->n;
  if (p->cutfull && f->nact != n) { /* the cut would hold only for the threads here */
    if ((*cw & (CUT_VALID | CUT_COL)) == CUT_VALID) /* the other threads' predicates, from the last cut */
      cut_fill(f, *cw, f->v + (size_t)p->d[0].word * n);
    *cw = 0;
    ptx_aff_col(f, a);
    return ptx_x_setp(f, k);
  }
  Slot one;
  uint32_t sb = 0;
  const Slot *bs = col(f, &p->s[1], &one, &sb);
  uint64_t shape = (uint64_t)f->bdim[0] << 32 | n, u0 = f->u[a->uword].u;
  if (f->wide || !(f->u[a->sword].u & AS_AFF) || !bs || sb) {
    *cw = 0;
    ptx_aff_col(f, a);
    return ptx_x_setp(f, k);
  }
  if (cw[3] == shape && cw[1] == u0 && cw[2] == bs[0].u) {
    *cw = cw[4];
    return EX_NEXT;
  }
  if (cut_make(f, p, a, bs[0].u, cw)) {
    cw[1] = u0, cw[2] = bs[0].u, cw[3] = shape, cw[4] = *cw;
    return EX_NEXT;
  }
  *cw = 0;
  ptx_aff_col(f, a);
  return ptx_x_setp(f, k);
}

/* ptx_x_setp_cut's cut from u and the other operand's word bw, in *cw; false when none applies. */
static bool cut_make(KFrame *f, const PIns *p, const PAffReg *a, uint64_t bw, uint64_t *cw) {
  unsigned w = ptx_type_bits(p->t);
  bool s = is_signed(p->t) && p->mode <= C_GE;
  uint32_t n = f->n;
  if (!a->cx && !a->cy && uni_cut(f, p, a, cw))
    return true;
  if (n == f->bdim[0]) {
    uint64_t u = wmask(f->u[a->uword].u, w);
    int64_t v0 = s ? sext(u, w) : (int64_t)u, cx = (int64_t)a->cx, t, hi, lo;
    int64_t min = s ? (w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1))) : 0;
    int64_t max = s        ? (w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1)
                  : w >= 63 ? INT64_MAX
                            : (int64_t)((UINT64_C(1) << w) - 1);
    if (!__builtin_mul_overflow(cx, (int64_t)n - 1, &t) && !__builtin_add_overflow(v0, t, &hi)) {
      lo = t < 0 ? hi : v0, hi = t < 0 ? v0 : hi;
      if (lo >= min && hi <= max && (s || w < 63)) {
        int64_t b = s ? sext(bw, w) : (int64_t)wmask(bw, w);
        if (p->mode == C_EQ || p->mode == C_NE) {
          *cw = cut_point(p, v0, cx, b, n);
          return *cw != 0;
        }
        bool first = cut_at(p, v0, cx, b, 0, s), last = cut_at(p, v0, cx, b, n - 1, s);
        uint32_t c = first == last ? (first ? n : 0) : cut_find(p, v0, cx, b, n, s, first);
        *cw = CUT_VALID | (first || first == last ? CUT_PREFIX : 0) | c;
        return true;
      }
    }
  }
  return false;
}

/* The branch's predicate over the active threads from the cut: how many hold, whether they change
 * more than once in the mask's order (never), whether the first holds; false without a cut. */
bool ptx_cut_count(const KFrame *f, const PIns *p, uint32_t *taken, uint32_t *turns, uint32_t *t0) {
  uint64_t e = f->u[p->cutword - 1].u;
  if (!(e & CUT_VALID))
    return false;
  uint32_t c = (uint32_t)e, nact = f->nact, k; /* k: the active threads below the cut */
  if (nact == f->n)
    k = c < nact ? c : nact;
  else {
    uint32_t l = 0, h = nact;
    while (l < h) {
      uint32_t m = l + (h - l) / 2;
      if (f->act[m] < c)
        l = m + 1;
      else
        h = m;
    }
    k = l;
  }
  bool prefix = e & CUT_PREFIX;
  *taken = prefix ? k : nact - k;
  *t0 = prefix ? k > 0 : k == 0;
  *turns = k > 0 && k < nact;
  if (p->guard.neg)
    *taken = nact - *taken, *t0 ^= 1;
  return true;
}

/* The predicate's column from the cut, for a branch that reads it. */
void ptx_cut_col(KFrame *f, const PIns *p) {
  uint64_t *e = &f->u[p->cutword - 1].u;
  if ((*e & (CUT_VALID | CUT_COL)) != CUT_VALID)
    return;
  cut_fill(f, *e, f->v + (size_t)p->guard.word * f->n);
  *e |= CUT_COL;
}

/* ld / st of .global, .shared or generic memory: p->nd (ld) or p->ns - 1 (st) elements of
 * p->bytes from the address s[0] (st: the values s[1]..) */
int ptx_x_ld(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (p->abase && aff_ld(f, k, p))
    return EX_NEXT;
  PRun run = {0, 0};
  uint32_t total = p->bytes * p->nd;
  bool s = is_signed(p->t);
  char *q0[MAXN];
  uintptr_t lo, hi;
  bool dense;
  char *row = global_row(f, p, total, &lo, &hi);
  if (row) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    uint32_t l0 = f->act[0]; /* thread l's at row + (l - l0) * total: the active threads are l0.. */
    kernel_prefetch_next(f, row, hi - lo);
    if (d && (p->bytes == 4 || p->bytes == 8))
      ld_grid(d + l0, (uintptr_t)row, f->nact, 1, total, 0, p->bytes, s, m);
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes(row + (size_t)(l - l0) * total + j * p->bytes, p->bytes, s));
      });
    ld_note(f, k, p, lo, hi - lo, 0, 1);
    return EX_NEXT;
  }
  PGrid grid;
  if (global_grid(f, p, total, &grid)) {
    ld_grid_any(f, p, &grid, s);
    ld_note(f, k, p, grid.lo, grid.len, (int64_t)grid.sy, grid.sy ? grid.rows : 1);
    return EX_NEXT;
  }
  if (global_span(f, p, total, q0, &lo, &hi, &dense)) {
    Slot *d = p->nd == 1 ? dcol(f, &p->d[0]) : NULL;
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    if (d && p->bytes == 4 && !s)
      KLANES(f, l, {
        uint32_t v;
        memcpy(&v, q0[l], 4);
        d[l].u = v & m;
      });
    else if (d && p->bytes == 8)
      KLANES(f, l, { memcpy(&d[l].u, q0[l], 8); });
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < p->nd; j++)
          wr(f, &p->d[j], l, load_bytes(q0[l] + j * p->bytes, p->bytes, s));
      });
    span_note(f, k, p, q0, total, lo, hi, dense, false);
    return EX_NEXT;
  }
  char *sq = p->nd == 1 && (p->bytes == 4 || p->bytes == 8) ? shared_run(f, k, p, total, false) : NULL;
  Slot *sd = sq ? dcol(f, &p->d[0]) : NULL;
  if (sd) {
    uint32_t l0 = f->act[0];
    uint64_t m = wmask(UINT64_MAX, p->d[0].width);
    if (p->bytes == 4)
      KLANES(f, l, {
        uint32_t v;
        memcpy(&v, sq + (size_t)(l - l0) * 4, 4);
        sd[l].u = (s ? (uint64_t)(int64_t)(int32_t)v : v) & m;
      });
    else
      KLANES(f, l, { memcpy(&sd[l].u, sq + (size_t)(l - l0) * 8, 8); });
    return EX_NEXT;
  }
  if (sq) /* checked and recorded: the loads alone */
    KLANES(f, l, { wr(f, &p->d[0], l, load_bytes(sq + (size_t)(l - f->act[0]) * p->bytes, p->bytes, s)); });
  if (sq)
    return EX_NEXT;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, &p->s[0], l);
    int where;
    if (!ptx_access_ok(f, k, p, l, q, total, false, &where))
      return EX_ERROR;
    if (where == W_SHARED && !kernel_shared_check(f, k, p->memo, l, q, total, false, NULL, NULL))
      return EX_ERROR;
    for (uint32_t j = 0; j < p->nd; j++)
      wr(f, &p->d[j], l, load_bytes(q + j * p->bytes, p->bytes, s));
    if (where == W_GLOBAL)
      ptx_run_note(f, k, p, &run, q, total, false);
  }
  run_flush(f, k, p, &run, false);
  return EX_NEXT;
}

int ptx_x_st(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  if (p->abase && aff_st(f, k, p))
    return EX_NEXT;
  PRun run = {0, 0};
  uint32_t n = p->ns - 1, total = p->bytes * n;
  char *q0[MAXN];
  uintptr_t lo, hi;
  bool dense;
  char *row = global_row(f, p, total, &lo, &hi);
  if (row) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    uint32_t l0 = f->act[0]; /* thread l's at row + (l - l0) * total: the active threads are l0.. */
    kernel_prefetch_next(f, row, hi - lo);
    if (v && (p->bytes == 4 || p->bytes == 8))
      st_grid((uintptr_t)row, f->nact, 1, total, 0, p->bytes, v + (size_t)l0 * sv, sv);
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy(row + (size_t)(l - l0) * total + j * p->bytes, &x, p->bytes);
        }
      });
    kernel_note_rows(f, k, p->memo, lo, hi - lo, 0, 1, true);
    return EX_NEXT;
  }
  PGrid grid;
  if (global_grid(f, p, total, &grid)) {
    st_grid_any(f, p, &grid);
    kernel_note_rows(f, k, p->memo, grid.lo, grid.len, (int64_t)grid.sy, grid.sy ? grid.rows : 1, true);
    return EX_NEXT;
  }
  if (global_span(f, p, total, q0, &lo, &hi, &dense)) {
    Slot one;
    uint32_t sv = 0;
    const Slot *v = n == 1 ? col(f, &p->s[1], &one, &sv) : NULL;
    if (v && p->bytes == 4)
      KLANES(f, l, {
        uint32_t x = (uint32_t)v[l * sv].u;
        memcpy(q0[l], &x, 4);
      });
    else if (v && p->bytes == 8)
      KLANES(f, l, { memcpy(q0[l], &v[l * sv].u, 8); });
    else
      KLANES(f, l, {
        for (uint32_t j = 0; j < n; j++) {
          uint64_t x = rd(f, &p->s[1 + j], l);
          memcpy(q0[l] + j * p->bytes, &x, p->bytes);
        }
      });
    span_note(f, k, p, q0, total, lo, hi, dense, true);
    return EX_NEXT;
  }
  char *sq = n == 1 ? shared_run(f, k, p, total, true) : NULL;
  if (sq) {
    uint32_t l0 = f->act[0];
    KLANES(f, l, {
      uint64_t x = rd(f, &p->s[1], l);
      memcpy(sq + (size_t)(l - l0) * p->bytes, &x, p->bytes);
    });
    return EX_NEXT;
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, &p->s[0], l);
    int where;
    if (!ptx_access_ok(f, k, p, l, q, total, true, &where))
      return EX_ERROR;
    for (uint32_t j = 0; j < n; j++) {
      Slot v = {.u = rd(f, &p->s[1 + j], l)};
      if (where == W_SHARED && !kernel_shared_check(f, k, p->memo, l, q + j * p->bytes, p->bytes, true, p->ety, &v))
        return EX_ERROR;
      memcpy(q + j * p->bytes, &v.u, p->bytes);
    }
    if (where == W_GLOBAL)
      ptx_run_note(f, k, p, &run, q, total, true);
  }
  run_flush(f, k, p, &run, true);
  return EX_NEXT;
}

static uint64_t atom_new(const PIns *p, uint64_t old, uint64_t b, uint64_t c) {
  unsigned t = p->t, w = ptx_type_bits(t);
  switch (p->mode) {
  case A_ADD:
    if (t == PTX_T_F32)
      return bitsf32(f32of(old) + f32of(b));
    if (t == PTX_T_F64)
      return bitsf64(f64of(old) + f64of(b));
    return old + b;
  case A_MIN:
  case A_MAX: {
    bool lt = t == PTX_T_F32   ? f32of(b) < f32of(old)
              : t == PTX_T_F64 ? f64of(b) < f64of(old)
              : is_signed(t)   ? sext(b, w) < sext(old, w)
                               : wmask(b, w) < wmask(old, w);
    bool gt = t == PTX_T_F32   ? f32of(b) > f32of(old)
              : t == PTX_T_F64 ? f64of(b) > f64of(old)
              : is_signed(t)   ? sext(b, w) > sext(old, w)
                               : wmask(b, w) > wmask(old, w);
    return (p->mode == A_MIN ? lt : gt) ? b : old;
  }
  case A_EXCH: return b;
  case A_CAS: return wmask(old, w) == wmask(b, w) ? c : old;
  case A_AND: return old & b;
  case A_OR: return old | b;
  case A_XOR: return old ^ b;
  case A_INC: return wmask(old, w) >= wmask(b, w) ? 0 : old + 1;
  default: return (wmask(old, w) == 0 || wmask(old, w) > wmask(b, w)) ? b : old - 1;
  }
}

/* atom and red: a read-modify-write of 4 or 8 bytes, atomic against the other blocks' workers */
int ptx_x_atom(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  bool red = p->nd == 0;
  const POpd *a = &p->s[0];
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i];
    char *q = addr_of(f, p, a, l);
    int where;
    if (!ptx_access_ok(f, k, p, l, q, p->bytes, true, &where))
      return EX_ERROR;
    if (where == W_LOCAL)
      return kernel_error(f, k, l, "an atomic access to local memory is not supported by the PTX kernel engine yet");
    if ((uintptr_t)q % p->bytes)
      return kernel_error(f, k, l, "an atomic access at %p is not aligned to %u bytes", (void *)q, p->bytes);
    uint64_t b = rd(f, &p->s[1], l), c = p->ns > 2 ? rd(f, &p->s[2], l) : 0, old;
    if (p->bytes == 4) {
      uint32_t *w = (uint32_t *)(void *)q, o = __atomic_load_n(w, __ATOMIC_RELAXED), n;
      do
        n = (uint32_t)atom_new(p, o, b, c);
      while (!__atomic_compare_exchange_n(w, &o, n, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
      old = o;
    } else {
      uint64_t *w = (uint64_t *)(void *)q, o = __atomic_load_n(w, __ATOMIC_RELAXED), n;
      do
        n = atom_new(p, o, b, c);
      while (!__atomic_compare_exchange_n(w, &o, n, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
      old = o;
    }
    if (!red)
      wr(f, &p->d[0], l, old);
    kernel_note_atomic(f, (uintptr_t)q, (uintptr_t)q + p->bytes, k->loc);
  }
  return EX_NEXT;
}

/* ---- loads taking turns along rows ----------------------------------------------------------------
 *
 * A k loop unrolled n times reads each row's elements k, k + 1, .. k + n - 1 by n loads from one
 * address register at offsets o, o + e, .. o + (n - 1) * e, and the register moves on by n * e:
 * each load's own memo would then stop at every step (its next element is n elements on), and its
 * rows be recorded, and logged between blocks, once per step and load. The loads of one block of
 * the kernel whose offsets are so (.global, one element of e bytes, unguarded, the same base
 * register, no two at one offset) share a memo besides their own (kernel_note_group): a load's
 * rows of one element each grow it when they follow its rows and the element is the load's turn
 * (the i-th of the group's n after the memo's first); anything else starts it anew, and accesses
 * of other shapes go to the load's own memo. Each byte of the shared memo's rows was read by the
 * load whose turn its element was, which the records name (KMemo.grp, KGRec.grp). */
void ptx_load_groups(PComp *pc, PBlock *bl, uint32_t nb) {
  enum { GMAX = 8 };
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *p = k->aux;
      if (k->fn != ptx_x_ld || !p || p->grp || p->space != PTX_SPACE_GLOBAL || p->nd != 1 || p->s[0].kind != O_REG ||
          p->s[0].neg || (p->bytes != 4 && p->bytes != 8))
        continue;
      KIns *mem[GMAX];
      uint32_t n = 0;
      bool ok = true;
      for (uint32_t j = i; j < bl[b].n && ok; j++) {
        KIns *kj = &bl[b].ins[j];
        PIns *q = kj->aux;
        if (!q)
          continue;
        if (kj->fn == ptx_x_ld && !q->grp && q->space == p->space && q->nd == 1 && q->s[0].kind == O_REG &&
            !q->s[0].neg && q->s[0].word == p->s[0].word && q->bytes == p->bytes)
          ok = n < GMAX ? (mem[n++] = kj, true) : false;
        for (uint32_t d = 0; d < q->nd; d++)
          if (q->d[d].kind == O_REG && q->d[d].word == p->s[0].word)
            j = bl[b].n; /* the base register changes: the group ends here */
      }
      if (!ok || n < 2)
        continue;
      int64_t o0 = ((PIns *)mem[0]->aux)->off;
      for (uint32_t j = 1; j < n; j++)
        if (((PIns *)mem[j]->aux)->off < o0)
          o0 = ((PIns *)mem[j]->aux)->off;
      KMemoGroup *g = ir_alloc(pc->h->ctx, sizeof *g);
      const char **locs = ir_alloc(pc->h->ctx, n * sizeof *locs);
      bool seen[GMAX] = {false};
      for (uint32_t j = 0; j < n && ok; j++) {
        int64_t d = ((PIns *)mem[j]->aux)->off - o0;
        uint64_t at = (uint64_t)d / p->bytes;
        ok = d % p->bytes == 0 && at < n && !seen[at];
        if (ok)
          seen[at] = true, locs[at] = mem[j]->loc;
      }
      if (!ok)
        continue;
      *g = (KMemoGroup){n, p->bytes, locs};
      uint32_t memo = kernel_new_memo(&pc->kc, p->bytes);
      for (uint32_t j = 0; j < n; j++) {
        PIns *q = mem[j]->aux;
        q->grp = g, q->gmemo = memo, q->gmember = (uint32_t)((q->off - o0) / p->bytes);
      }
    }
}

/* ---- fused streams ---------------------------------------------------------------------------------
 *
 * A vector add as mlir-opt's NVPTX back end writes it, `ld.global.b32 %r4, [%rd3]; ld.global.b32
 * %r5, [%rd2]; add.rn.f32 %r6, %r4, %r5; st.global.b32 [%rd1], %r6`, run one instruction at a
 * time moves each element from memory to a column, to another column and back: most of a small
 * block's time. Where two loads of 4 bytes, an f32 add, sub or mul of what they loaded and a store
 * of its result follow each other in a block, unguarded, their addresses affine registers
 * (aff_grid), and the three registers are written once and read nowhere in the kernel but by the
 * op and the store, the four run as one pass over memory (ptx_x_fused, in the first's place,
 * returns EX_SKIP3 and the block's loop passes over the others, ptx_x_fused_rest, which do
 * nothing after a fused first where they run). That needs each access to be aff_grid's dense row
 * of the active threads (the same span, checks and probe as the instruction's own), the store's
 * row apart from the loads' or at the same elements (then each element is read before it is
 * written, as the four would), and the frame's credit to cover the whole block (a bound may stop
 * a block between the four: `--max-steps`). The accesses are recorded as the four record them,
 * in their order, and the op's NaNs are the canonical NaN as ptx_x_f32 makes them; the registers'
 * columns, which nothing reads, are not written. Anything else runs the four as compiled
 * (tests/lit/ptx/exec-fused.mlir). The same four in shared memory (a tree reduction's step) fuse
 * too (fused_shared), their accesses listed at once as the race check's runs. */

typedef struct PFuse {
  KIns ins[4];   /* the loads, the op and the store as compiled */
  uint32_t flag; /* a uniform word: 1 when the first ran all four for the block */
  bool swap;     /* the op's first source is the second load's register */
  bool shared;   /* the three access .shared memory (else global or generic memory) */
  bool one_base; /* and through one address register */
} PFuse;

typedef float PFV8 __attribute__((vector_size(32)));

typedef uint32_t PUV8 __attribute__((vector_size(32)));

/* c[i] = x[i] mode y[i], f32, for i < n, a NaN result 0x7fffffff; c is x, y, or apart from both,
 * so each group of eight is read before it is written */
static inline __attribute__((always_inline)) void fuse_loop(char *c, const char *x, const char *y, uint32_t n,
                                                            unsigned mode) {
  const PUV8 canon = {0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu,
                      0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu};
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    PFV8 a, b, r;
    memcpy(&a, x + (size_t)i * 4, 32);
    memcpy(&b, y + (size_t)i * 4, 32);
    r = mode == F_ADD ? a + b : mode == F_SUB ? a - b : a * b;
    PUV8 nan = (PUV8)(r != r), o = ((PUV8)r & ~nan) | (canon & nan);
    memcpy(c + (size_t)i * 4, &o, 32);
  }
  for (; i < n; i++) {
    float a, b, r;
    memcpy(&a, x + (size_t)i * 4, 4);
    memcpy(&b, y + (size_t)i * 4, 4);
    r = mode == F_ADD ? a + b : mode == F_SUB ? a - b : a * b;
    uint32_t o = isnan(r) ? 0x7fffffffu : (uint32_t)bitsf32(r);
    memcpy(c + (size_t)i * 4, &o, 4);
  }
}

KLANEFN static void fuse_f32(char *c, const char *x, const char *y, uint32_t n, unsigned mode) {
  if (mode == F_ADD)
    fuse_loop(c, x, y, n, F_ADD);
  else if (mode == F_SUB)
    fuse_loop(c, x, y, n, F_SUB);
  else
    fuse_loop(c, x, y, n, F_MUL);
}

/* A store's row s against a load's l: apart, or at the same elements */
static inline bool fuse_apart(const PGrid *s, const PGrid *l) {
  return s->hi <= l->lo || l->hi <= s->lo || (s->lo == l->lo && s->hi == l->hi);
}

/* The four in shared memory: each access aff_shared_row's run of the active threads, the store's
 * apart from the loads' or at the same elements, and the three listed at once as the race check's
 * runs (kernel_shared_runs: as the three would list them one by one, else nothing is recorded). */
static bool fused_shared(KFrame *f, const PFuse *fu) {
  const PIns *pa = fu->ins[0].aux, *pb = fu->ins[1].aux, *pop = fu->ins[2].aux, *pst = fu->ins[3].aux;
  uint32_t n = f->nact;
  size_t len = (size_t)n * 4;
  char *a, *b, *d;
  if (fu->one_base) { /* aff_shared_row's three rows, the register's words read once */
    const PAffReg *r = pa->abase;
    uint32_t l0 = n ? f->act[0] : 0, bx = f->bdim[0];
    if (!n || f->act[n - 1] - l0 != n - 1 || !(f->u[r->sword].u & AS_AFF) || r->width != 64 || r->cx != 4 ||
        (bx != f->n && r->cy != (uint64_t)bx * 4))
      return false;
    uint64_t a0 = f->u[r->uword].u + r->cx * l0, size = (uint64_t)(f->priv - f->lo);
    uint64_t qa = a0 + (uint64_t)pa->off, qb = a0 + (uint64_t)pb->off, qd = a0 + (uint64_t)pst->off;
    if (qa > size || len > size - qa || qb > size || len > size - qb || qd > size || len > size - qd)
      return false;
    a = f->lo + qa, b = f->lo + qb, d = f->lo + qd;
  } else {
    a = aff_shared_row(f, pa, 4), b = aff_shared_row(f, pb, 4), d = aff_shared_row(f, pst, 4);
    if (!a || !b || !d)
      return false;
  }
  if (!(d + len <= a || a + len <= d || a == d) || !(d + len <= b || b + len <= d || b == d))
    return false;
  KShAccess acc[3] = {{&fu->ins[0], a, pa->memo, false}, {&fu->ins[1], b, pb->memo, false},
                      {&fu->ins[3], d, pst->memo, true}};
  if (!kernel_shared_runs(f, acc, 3, f->act[0], n, 4))
    return false;
  fuse_f32(d, fu->swap ? b : a, fu->swap ? a : b, n, pop->mode);
  return true;
}

int ptx_x_fused(KFrame *f, const KIns *k) {
  const PFuse *fu = ((const PIns *)k->aux)->fuse;
  const PIns *pa = fu->ins[0].aux, *pb = fu->ins[1].aux, *pop = fu->ins[2].aux, *pst = fu->ins[3].aux;
  PGrid a, b, d;
  bool da = false, db = false, dd = false;
  uint64_t *flag = &f->u[fu->flag].u;
  if (fu->shared) {
    *flag = f->credit > 0 && fused_shared(f, fu);
    return *flag ? EX_SKIP3 : fu->ins[0].fn(f, &fu->ins[0]);
  }
  if (f->credit <= 0 || !aff_grid(f, pa, 4, &a, &da) || !da || !aff_grid(f, pb, 4, &b, &db) || !db ||
      !aff_grid(f, pst, 4, &d, &dd) || !dd || !fuse_apart(&d, &a) || !fuse_apart(&d, &b)) {
    *flag = 0;
    return fu->ins[0].fn(f, &fu->ins[0]);
  }
  *flag = 1;
  kernel_prefetch_next(f, (const char *)a.lo, a.hi - a.lo);
  kernel_prefetch_next(f, (const char *)b.lo, b.hi - b.lo);
  kernel_prefetch_next(f, (const char *)d.lo, d.hi - d.lo);
  const PGrid *x = fu->swap ? &b : &a, *y = fu->swap ? &a : &b;
  fuse_f32((char *)d.q0, (const char *)x->q0, (const char *)y->q0, (uint32_t)((d.hi - d.lo) / 4), pop->mode);
  kernel_note_rows(f, &fu->ins[0], pa->memo, a.lo, a.hi - a.lo, 0, 1, false);
  kernel_note_rows(f, &fu->ins[1], pb->memo, b.lo, b.hi - b.lo, 0, 1, false);
  kernel_note_rows(f, &fu->ins[3], pst->memo, d.lo, d.hi - d.lo, 0, 1, true);
  return EX_SKIP3;
}

int ptx_x_fused_rest(KFrame *f, const KIns *k) {
  const PFuse *fu = ((const PIns *)k->aux)->fuse;
  if (f->u[fu->flag].u)
    return EX_NEXT;
  const KIns *o = &fu->ins[1];
  while (o->aux != k->aux)
    o++;
  return o->fn(f, o);
}

/* A load a fused stream may take: 4 bytes of one register, through an affine register, unguarded */
static bool fuse_load(const KIns *k) {
  const PIns *p = k->aux;
  return k->fn == ptx_x_ld && p && !p->guard.kind && p->abase && !p->grp && p->nd == 1 && p->bytes == 4 &&
         p->d[0].kind == O_REG &&
         (p->space == PTX_SPACE_GLOBAL || p->space == PTX_SPACE_NONE || p->space == PTX_SPACE_SHARED);
}

static bool fuse_shared(const PIns *p) { return p->space == PTX_SPACE_SHARED; }

static void count_regs(const POpd *o, uint32_t n, uint32_t *c, uint32_t nw) {
  for (uint32_t i = 0; i < n; i++)
    if (o[i].kind == O_REG && o[i].word < nw)
      c[o[i].word]++;
}

bool ptx_reg_uses(const PBlock *bl, uint32_t nb, uint32_t **reads, uint32_t **writes) {
  uint32_t nw = 0; /* the varying words registers take, at most */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const PIns *p = bl[b].ins[i].aux;
      for (uint32_t j = 0; p && j < (uint32_t)p->nd + p->ns + 1; j++) {
        const POpd *o = j < p->nd ? &p->d[j] : j < p->nd + p->ns ? &p->s[j - p->nd] : &p->guard;
        if (o->kind == O_REG && o->word >= nw)
          nw = o->word + 1;
      }
    }
  *reads = calloc((size_t)nw + 1, sizeof **reads);
  *writes = calloc((size_t)nw + 1, sizeof **writes);
  if (!*reads || !*writes) {
    free(*reads);
    free(*writes);
    return false;
  }
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < bl[b].n; i++) {
      const PIns *p = bl[b].ins[i].aux;
      if (!p)
        continue;
      count_regs(p->d, p->nd, *writes, nw);
      count_regs(p->s, p->ns, *reads, nw);
      count_regs(&p->guard, 1, *reads, nw);
    }
  return true;
}

void ptx_fuse_streams(PComp *pc, PBlock *bl, uint32_t nb) {
  uint32_t *reads, *writes;
  if (!ptx_reg_uses(bl, nb, &reads, &writes))
    return;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i + 3 < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *pa = k[0].aux, *pb = k[1].aux, *pop = k[2].aux, *pst = k[3].aux;
      if (!fuse_load(&k[0]) || !fuse_load(&k[1]) || k[2].fn != ptx_x_f32 || k[3].fn != ptx_x_st)
        continue;
      uint32_t ra = pa->d[0].word, rb = pb->d[0].word;
      const POpd *s = pop->s;
      if (ra == rb || pop->guard.kind || pop->ftz || pop->sat || pop->rnd || pop->nan || pop->mode > F_MUL ||
          pop->ns != 2 || pop->nd != 1 || pop->d[0].kind != O_REG || s[0].kind != O_REG || s[1].kind != O_REG ||
          s[0].neg || s[1].neg || !((s[0].word == ra && s[1].word == rb) || (s[0].word == rb && s[1].word == ra)))
        continue;
      uint32_t rc = pop->d[0].word;
      if (pst->guard.kind || !pst->abase || pst->ns != 2 || pst->bytes != 4 || pst->s[1].kind != O_REG ||
          pst->s[1].neg || pst->s[1].word != rc ||
          (pst->space != PTX_SPACE_GLOBAL && pst->space != PTX_SPACE_NONE && pst->space != PTX_SPACE_SHARED) ||
          fuse_shared(pa) != fuse_shared(pst) || fuse_shared(pb) != fuse_shared(pst))
        continue;
      if (reads[ra] != 1 || reads[rb] != 1 || reads[rc] != 1 || writes[ra] != 1 || writes[rb] != 1 || writes[rc] != 1)
        continue;
      PFuse *fu = ir_alloc(pc->h->ctx, sizeof *fu);
      memcpy(fu->ins, k, sizeof fu->ins);
      fu->flag = kernel_new_uniform(&pc->kc, 1);
      fu->swap = s[0].word == rb;
      fu->shared = fuse_shared(pst);
      fu->one_base = pa->abase == pb->abase && pb->abase == pst->abase;
      pa->fuse = pb->fuse = pop->fuse = pst->fuse = fu;
      k[0].fn = ptx_x_fused;
      k[1].fn = k[2].fn = k[3].fn = ptx_x_fused_rest;
      i += 3;
    }
  free(reads);
  free(writes);
}
