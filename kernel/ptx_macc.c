/* ptx_macc.c - multiply-accumulate steps: a k loop's two loads, f32 mul and add in one pass.
 *
 * A matmul's k loop as mlir-opt's NVPTX back end writes it, `ld.global.b32 %r8, [%rd16];
 * ld.global.b32 %r9, [%rd21]; mul.rn.f32 %r10, %r8, %r9; add.rn.f32 %r11, %r15, %r10`, run one
 * instruction at a time writes three columns per step that only the next instruction reads: the
 * two loaded ones (an element of a row of A for each row of threads, a row of B the same for
 * every row of threads) and the product. Where two loads of 4 bytes, an f32 mul of what they
 * loaded and an f32 add of the product to another register follow each other in a block,
 * unguarded, the loads' addresses affine registers (ptx_aff_grid), and the loaded registers and
 * the product are written once and read nowhere in the kernel but by the mul and the add, the four
 * run as one pass over the block's threads (ptx_x_macc, in the first's place; the others,
 * ptx_x_macc_rest, then do nothing): the add's result column, acc + x * y, is all they write.
 * That needs the full mask, each load's addresses aff_grid's grid or dense row (the same span,
 * checks and probe as the load's own), and the frame's credit to cover the whole block (a bound
 * may stop a block between the four: `--max-steps`). The loads are recorded as their own fast path
 * records them (ptx_ld_note: through a load group's memo where they take turns), in their order.
 * Each product is rounded to f32 before the add, as mul.rn then add.rn round; a NaN product is a
 * NaN the add turns into the canonical NaN as ptx_x_f32 makes it (a NaN result, 0x7fffffff), so
 * the product's own canonical form never shows. Anything else runs the four as compiled
 * (tests/lit/ptx/exec-macc.mlir). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

typedef struct PMacc {
  KIns ins[4];   /* the loads, the mul and the add as compiled */
  uint32_t flag; /* a uniform word: 1 when the first ran all four for the block */
  bool acc1;     /* the add's accumulator is its second source (the product its first) */
} PMacc;

/* Eight floats, as f32_cols (ptx_ins.c) sees four Slots of 32-bit registers */
typedef float PMF8 __attribute__((vector_size(32)));
typedef uint32_t PMU8 __attribute__((vector_size(32)));
typedef uint32_t PMU4 __attribute__((vector_size(16)));
typedef uint64_t PMQ4 __attribute__((vector_size(32)));

/* *r = the four f32 at p as four Slots (each in a low half, zeros above) seen as eight floats */
static inline __attribute__((always_inline)) void widen4(PMF8 *r, const char *p) {
  PMU4 w;
  memcpy(&w, p, 16);
  PMQ4 q = __builtin_convertvector(w, PMQ4);
  memcpy(r, &q, 32);
}

/* d[0..4) = a[0..4) + x * y (eight floats: four Slots, whose high halves, 0 + 0 * 0, stay zero),
 * its NaN lanes added to *nan (a compare mask: all ones) */
static inline __attribute__((always_inline)) void macc4(Slot *d, const Slot *a, const PMF8 *x, const PMF8 *y,
                                                        PMU8 *nan) {
  PMF8 r;
  memcpy(&r, a, 32);
  r += *x * *y;
  *nan |= (PMU8)(r != r);
  memcpy(d, &r, 32);
}

/* One thread's d = a + x * y, a NaN the canonical NaN */
static inline uint64_t macc1(const Slot *a, const char *x, const char *y) {
  float u, v, r;
  memcpy(&u, x, 4);
  memcpy(&v, y, 4);
  r = f32of(a->u) + u * v;
  return isnan(r) ? 0x7fffffffu : bitsf32(r);
}

/* One row of bx threads: d[i] = a[i] + x_i * y_i, x_i at x + i * sx (sx 0 or 4), y_i likewise;
 * NaN results (left as they came) added to *nan */
static inline __attribute__((always_inline)) void macc_row(Slot *d, const Slot *a, const char *x, uint64_t sx,
                                                           const char *y, uint64_t sy, uint32_t bx, PMU8 *nan) {
  uint32_t i = 0;
  if (!sx && sy) {
    float c;
    memcpy(&c, x, 4);
    const PMF8 vc = {c, 0, c, 0, c, 0, c, 0};
    for (; i + 4 <= bx; i += 4) {
      PMF8 v;
      widen4(&v, y + (size_t)i * 4);
      macc4(d + i, a + i, &vc, &v, nan);
    }
  } else if (sx && sy) {
    for (; i + 4 <= bx; i += 4) {
      PMF8 u, v;
      widen4(&u, x + (size_t)i * 4);
      widen4(&v, y + (size_t)i * 4);
      macc4(d + i, a + i, &u, &v, nan);
    }
  }
  for (; i < bx; i++)
    d[i].u = macc1(a + i, x + i * sx, y + i * sy);
}

/* d = a + x * y over rows rows of bx threads, x's and y's addresses their grids (swapped so that
 * x is the one the same along a row, where one is), NaN results the canonical NaN. A matmul's
 * step, an element of A per row against one row of B for every row, widens B's row once. */
KLANEFN static void macc_grid(Slot *d, const Slot *a, const PGrid *x, const PGrid *y, uint32_t bx, uint32_t rows) {
  if (x->sx && !y->sx) {
    const PGrid *t = x;
    x = y, y = t;
  }
  PMU8 nan = {0};
  if (!x->sx && y->sx && !y->sy && bx == 16) {
    PMF8 v[4];
    for (uint32_t j = 0; j < 4; j++)
      widen4(&v[j], (const char *)y->q0 + j * 16);
    for (uint32_t r = 0; r < rows; r++) {
      float c;
      memcpy(&c, (const char *)(x->q0 + (uintptr_t)(r * x->sy)), 4);
      const PMF8 vc = {c, 0, c, 0, c, 0, c, 0};
      for (uint32_t j = 0; j < 4; j++)
        macc4(d + (size_t)r * 16 + j * 4, a + (size_t)r * 16 + j * 4, &vc, &v[j], &nan);
    }
  } else
    for (uint32_t r = 0; r < rows; r++) {
      const char *xr = (const char *)(x->q0 + (uintptr_t)(r * x->sy)), *yr = (const char *)(y->q0 + (uintptr_t)(r * y->sy));
      if (bx == 16) /* rows of a constant length: their loops unrolled */
        macc_row(d + (size_t)r * bx, a + (size_t)r * bx, xr, x->sx, yr, y->sx, 16, &nan);
      else
        macc_row(d + (size_t)r * bx, a + (size_t)r * bx, xr, x->sx, yr, y->sx, bx, &nan);
    }
  uint32_t any = 0;
  for (uint32_t j = 0; j < 8; j++)
    any |= nan[j];
  if (!any)
    return;
  for (uint32_t l = 0; l < bx * rows; l++) /* rare: NaNs, made canonical (their high halves zero) */
    if ((d[l].u & 0x7fffffffu) > 0x7f800000u)
      d[l].u = 0x7fffffffu;
}

/* A load's grid for the full mask in the block's rows of bx threads: a dense row of the whole
 * block is rows of bx consecutive elements, each bx elements after the one before. */
static void as_rows(PGrid *g, bool dense, uint32_t bx, uint32_t rows) {
  if (dense)
    g->sx = 4, g->sy = (uint64_t)bx * 4;
  g->bx = bx, g->rows = rows;
}

int ptx_x_macc(KFrame *f, const KIns *k) {
  const PMacc *mc = ((const PIns *)k->aux)->macc;
  const PIns *px = mc->ins[0].aux, *py = mc->ins[1].aux, *padd = mc->ins[3].aux;
  uint64_t *flag = &f->u[mc->flag].u;
  PGrid x, y;
  bool dx = false, dy = false;
  if (f->credit <= 0 || f->nact != f->n || !ptx_aff_grid(f, px, 4, &x, &dx) || !ptx_aff_grid(f, py, 4, &y, &dy)) {
    *flag = 0;
    return mc->ins[0].fn(f, &mc->ins[0]);
  }
  *flag = 1;
  if (dx)
    kernel_prefetch_next(f, (const char *)x.lo, x.hi - x.lo);
  if (dy)
    kernel_prefetch_next(f, (const char *)y.lo, y.hi - y.lo);
  uint32_t bx = f->bdim[0], rows = f->n / bx;
  PGrid gx = x, gy = y;
  as_rows(&gx, dx, bx, rows);
  as_rows(&gy, dy, bx, rows);
  const Slot *a = f->v + (size_t)padd->s[mc->acc1].word * f->n;
  macc_grid(f->v + (size_t)padd->d[0].word * f->n, a, &gx, &gy, bx, rows);
  if (dx)
    ptx_ld_note(f, &mc->ins[0], px, x.lo, x.hi - x.lo, 0, 1);
  else
    ptx_ld_note(f, &mc->ins[0], px, x.lo, x.len, (int64_t)x.sy, x.sy ? x.rows : 1);
  if (dy)
    ptx_ld_note(f, &mc->ins[1], py, y.lo, y.hi - y.lo, 0, 1);
  else
    ptx_ld_note(f, &mc->ins[1], py, y.lo, y.len, (int64_t)y.sy, y.sy ? y.rows : 1);
  return EX_NEXT;
}

int ptx_x_macc_rest(KFrame *f, const KIns *k) {
  const PMacc *mc = ((const PIns *)k->aux)->macc;
  if (f->u[mc->flag].u)
    return EX_NEXT;
  const KIns *o = &mc->ins[1];
  while (o->aux != k->aux)
    o++;
  return o->fn(f, o);
}

/* A load a step may take: 4 bytes of one register, through an affine register, unguarded */
static bool macc_load(const KIns *k) {
  const PIns *p = k->aux;
  return k->fn == ptx_x_ld && p && !p->guard.kind && p->abase && !p->fuse && !p->macc && p->nd == 1 &&
         p->bytes == 4 && p->d[0].kind == O_REG && (p->space == PTX_SPACE_GLOBAL || p->space == PTX_SPACE_NONE);
}

/* An f32 add or mul rounded to nearest, without .ftz and .sat, of two registers into a register */
static bool macc_op(const KIns *k, unsigned mode) {
  const PIns *p = k->aux;
  return k->fn == ptx_x_f32 && p && !p->guard.kind && !p->fuse && !p->macc && !p->ftz && !p->sat && !p->rnd &&
         !p->nan && p->mode == mode && p->ns == 2 && p->nd == 1 && p->d[0].kind == O_REG &&
         p->s[0].kind == O_REG && p->s[1].kind == O_REG && !p->s[0].neg && !p->s[1].neg;
}

void ptx_macc_steps(PComp *pc, PBlock *bl, uint32_t nb) {
  uint32_t *reads, *writes;
  if (!ptx_reg_uses(bl, nb, &reads, &writes))
    return;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i + 3 < bl[b].n; i++) {
      KIns *k = &bl[b].ins[i];
      PIns *px = k[0].aux, *py = k[1].aux, *pm = k[2].aux, *pa = k[3].aux;
      if (!macc_load(&k[0]) || !macc_load(&k[1]) || !macc_op(&k[2], F_MUL) || !macc_op(&k[3], F_ADD))
        continue;
      uint32_t rx = px->d[0].word, ry = py->d[0].word, rm = pm->d[0].word;
      const POpd *s = pm->s, *t = pa->s;
      if (rx == ry || px->d[0].width < 32 || py->d[0].width < 32 || pm->d[0].width < 32 ||
          !((s[0].word == rx && s[1].word == ry) || (s[0].word == ry && s[1].word == rx)))
        continue;
      bool acc1 = t[0].word == rm;
      const POpd *acc = &t[acc1], *d = &pa->d[0];
      if (t[!acc1].word != rm || acc->word == rm || acc->width != 32 || d->width != 32)
        continue;
      if (reads[rx] != 1 || reads[ry] != 1 || reads[rm] != 1 || writes[rx] != 1 || writes[ry] != 1 || writes[rm] != 1)
        continue;
      PMacc *mc = ir_alloc(pc->h->ctx, sizeof *mc);
      memcpy(mc->ins, k, sizeof mc->ins);
      mc->flag = kernel_new_uniform(&pc->kc, 1);
      mc->acc1 = acc1;
      px->macc = py->macc = pm->macc = pa->macc = mc;
      k[0].fn = ptx_x_macc;
      k[1].fn = k[2].fn = k[3].fn = ptx_x_macc_rest;
      i += 3;
    }
  free(reads);
  free(writes);
}
