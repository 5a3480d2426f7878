/* kernel_ops.c - the ops of kernels beside control flow, memory and arith: thread and block ids,
 * barriers, shuffles, reductions and gpu.printf (memory ops are in kernel_mem.c, control flow in
 * kernel_cfg.c).
 *
 * Every op runs once for the block (see kernel.c): a uniform result once, a varying one for each
 * active thread. Barriers and gpu.all_reduce need every thread of the block (a full mask). */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32

/* "(x, y, z), (x, y, z)" for up to 8 threads of list, then how many more */
static void thread_list(const KFrame *f, const uint32_t *list, uint32_t n, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < n && i < 8 && len < cap; i++) {
    uint32_t l = list[i];
    len += (size_t)snprintf(buf + len, cap - len, "%s(%u, %u, %u)", i ? ", " : "", l % f->bdim[0],
                            l / f->bdim[0] % f->bdim[1], l / (f->bdim[0] * f->bdim[1]));
  }
  if (n > 8 && len < cap)
    snprintf(buf + len, cap - len, " and %u more", n - 8);
}

/* An op all threads of the block must reach together, reached under a partial mask. */
static int divergent(KFrame *f, const KIns *k, const char *what) {
  uint32_t *missing = malloc(f->n * sizeof *missing);
  uint32_t nm = 0, j = 0;
  if (!missing)
    return kernel_error(f, k, f->act[0], "%s reached by only some threads", what);
  for (uint32_t l = 0; l < f->n; l++) {
    if (j < f->nact && f->act[j] == l)
      j++;
    else
      missing[nm++] = l;
  }
  char a[256], b[256];
  thread_list(f, f->act, f->nact, a, sizeof a);
  thread_list(f, missing, nm, b, sizeof b);
  free(missing);
  return kernel_error(f, k, UINT32_MAX, "divergent %s: %u of %u threads reached it: %s; %u did not: %s", what,
                      f->nact, f->n, a, nm, b);
}

/* ---- ids and sizes ---------------------------------------------------------------------------- */

static uint32_t dim_of(Op *op) {
  Attr *a = ir_op_attr(op, "dimension");
  if (a && a->kind == ATTR_OPAQUE && a->u.str.len >= 2) {
    char c = a->u.str.s[a->u.str.len - 2];
    return c == 'z' ? 2 : c == 'y' ? 1 : 0;
  }
  return 0;
}

/* The same in every block of the launch: the whole column is filled once per frame (k->b: its
 * KFrame.once flag). Every thread's row is written, also under a partial mask: the column holds
 * only this value. */
static int x_thread_id(KFrame *f, const KIns *k) {
  if (f->once[k->b])
    return EX_NEXT;
  f->once[k->b] = 1;
  Slot *O = KOUT(f, k, 0);
  uint32_t bx = f->bdim[0], by = f->bdim[1], n = f->n, w = f->wide ? f->wide : n;
  for (uint32_t g = 0; g < n; g += w) { /* each block of the frame */
    Slot *o = O + g;
    if (k->a == 0 && bx == w) /* one row */
      for (uint32_t t = 0; t < w; t++)
        o[t].i = t;
    else
      for (uint32_t t = 0; t < w; t++)
        o[t].i = k->a == 0 ? t % bx : k->a == 1 ? t / bx % by : t / (bx * by);
  }
  return EX_NEXT;
}

/* A block id in a block-wise frame (KFrame.wide): its blocks' ids, wide threads each. Every row is
 * written, also under a partial mask. */
static void wide_block_ids(KFrame *f, uint32_t d, bool global, Slot *O) {
  uint32_t w = f->wide, bx = f->bdim[0], by = f->bdim[1], t0, id[3];
  kernel_lane_block(f, 0, &t0, id); /* the first block's ids; the next ones count up from them */
  for (uint32_t g = 0; g * w < f->n; g++) {
    if (g && ++id[0] == f->gdim[0]) {
      id[0] = 0;
      if (++id[1] == f->gdim[1]) {
        id[1] = 0;
        id[2]++;
      }
    }
    int64_t v = id[d];
    Slot *o = O + (size_t)g * w;
    if (!global)
      for (uint32_t t = 0; t < w; t++)
        o[t].i = v;
    else
      for (uint32_t t = 0; t < w; t++)
        o[t].i = v * f->bdim[d] + (d == 0 ? t % bx : d == 1 ? t / bx % by : t / (bx * by));
  }
}

/* In a block-wise frame (one-row blocks of a one-row grid), block_id x * block_dim x + thread_id x
 * (kernel.c, frame_index) and global id x: the frame's first block times its blocks' threads plus
 * the frame's thread. */
KLANEFN static void count_up(Slot *O, int64_t base, uint32_t n) {
  for (uint32_t l = 0; l < n; l++)
    O[l].i = base + l;
}

static int x_frame_index(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  int64_t base = (int64_t)f->wfirst * f->wide;
  if (f->nact == f->n)
    count_up(O, base, f->n);
  else
    KLANES(f, l, { O[l].i = base + l; });
  return EX_NEXT;
}

bool c_kframe_index(KComp *kc, Op *op, KIns *k) {
  (void)kc;
  (void)op;
  k->fn = x_frame_index;
  return true;
}

static int x_global_id(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  uint32_t bx = f->bdim[0], by = f->bdim[1], d = k->a;
  if (f->wide && d == 0)
    return x_frame_index(f, k);
  if (f->wide) {
    wide_block_ids(f, d, true, O);
    return EX_NEXT;
  }
  int64_t base = (int64_t)f->bid[d] * f->bdim[d];
  KLANES(f, l, { O[l].i = base + (d == 0 ? l % bx : d == 1 ? l / bx % by : l / (bx * by)); });
  return EX_NEXT;
}

static int x_block_q(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  int64_t v;
  switch (k->b) {
  case 0: v = f->bid[k->a]; break;
  case 1: v = f->bdim[k->a]; break;
  case 2: v = f->gdim[k->a]; break;
  case 3: v = WARP; break;
  default: v = (f->n + WARP - 1) / WARP; break;
  }
  if (!k->vout[0]) {
    O[0].i = v;
    return EX_NEXT;
  }
  if (k->b == 0 && f->wide) {
    wide_block_ids(f, k->a, false, O);
    return EX_NEXT;
  }
  KLANES(f, l, { O[l].i = v; });
  return EX_NEXT;
}

static int x_lane_q(KFrame *f, const KIns *k) {
  Slot *O = KOUT(f, k, 0);
  if (k->b)
    KLANES(f, l, { O[l].i = l / WARP; });
  else
    KLANES(f, l, { O[l].i = l % WARP; });
  return EX_NEXT;
}

bool c_kid(KComp *kc, Op *op, KIns *k) {
  k->a = dim_of(op);
  if (ir_str_eq(op->name, "gpu.thread_id")) {
    k->fn = x_thread_id;
    k->b = kernel_new_once(kc);
  }
  else if (ir_str_eq(op->name, "gpu.global_id"))
    k->fn = x_global_id;
  else if (ir_str_eq(op->name, "gpu.lane_id") || ir_str_eq(op->name, "gpu.subgroup_id")) {
    k->b = ir_str_eq(op->name, "gpu.subgroup_id");
    k->fn = x_lane_q;
  } else {
    k->b = ir_str_eq(op->name, "gpu.block_id")        ? 0
           : ir_str_eq(op->name, "gpu.block_dim")     ? 1
           : ir_str_eq(op->name, "gpu.grid_dim")      ? 2
           : ir_str_eq(op->name, "gpu.subgroup_size") ? 3
                                                      : 4;
    k->fn = x_block_q;
  }
  return true;
}

/* ---- barriers, shuffles, reductions ---------------------------------------------------------- */

static int x_barrier(KFrame *f, const KIns *k) {
  if (f->nact != f->n)
    return divergent(f, k, "barrier");
  f->base = ++f->epoch;
  f->split = false;
  return EX_NEXT;
}

bool c_kbarrier(KComp *kc, Op *op, KIns *k) {
  (void)kc;
  (void)op;
  k->fn = x_barrier;
  return true;
}

/* k->a: 0 xor, 1 up, 2 down, 3 idx */
static int x_shuffle(KFrame *f, const KIns *k) {
  const Slot *V = KIN(f, k, 0), *OFF = KIN(f, k, 1), *WID = KIN(f, k, 2);
  Slot *O = KOUT(f, k, 0), *VALID = KOUT(f, k, 1);
  size_t sv = k->vin[0], so = k->vin[1], sw = k->vin[2];
  int r = EX_NEXT;
  KLANES(f, l, {
    int64_t off = (int32_t)OFF[l * so].i, width = (int32_t)WID[l * sw].i;
    if (width <= 0 || width > WARP) {
      r = kernel_error(f, k, l, "shuffle width %lld is not in [1, %d]", (long long)width, WARP);
      break;
    }
    int64_t ln = l % WARP, base = (int64_t)l - ln, seg = ln / width * width, src;
    bool ok;
    switch (k->a) {
    case 0: src = ln ^ off; ok = src >= 0 && src / width == ln / width; break;
    case 1: src = ln - off; ok = src >= seg; break;
    case 2: src = ln + off; ok = src < seg + width; break;
    default: src = seg + off; ok = off >= 0 && src < seg + width; break;
    }
    ok = ok && src >= 0 && src < WARP && base + src < (int64_t)f->n;
    O[l] = V[(ok ? (size_t)(base + src) : l) * sv];
    VALID[l].i = ok ? -1 : 0;
  });
  kernel_warp_sync(f);
  return r;
}

static const char *const shuffle_modes[] = {"xor", "up", "down", "idx", NULL};
static const char *const reduce_kinds[] = {"add", "mul", "minsi", "minui", "minnumf", "maxsi", "maxui",
                                           "maxnumf", "and", "or", "xor", "minimumf", "maximumf", NULL};

/* the index in kws of the keyword of an opaque `#gpu<... kw>` attribute, or -1 */
static int enum_kw(Attr *a, const char *const *kws) {
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len < 2)
    return -1;
  const char *end = a->u.str.s + a->u.str.len - 1, *p = end;
  while (p > a->u.str.s && p[-1] != ' ')
    p--;
  for (int i = 0; kws[i]; i++)
    if ((size_t)(end - p) == strlen(kws[i]) && !memcmp(p, kws[i], (size_t)(end - p)))
      return i;
  return -1;
}

bool c_kshuffle(KComp *kc, Op *op, KIns *k) {
  int m = enum_kw(ir_op_attr(op, "mode"), shuffle_modes);
  if (m < 0 || kernel_words(op->operands[0]->type) != 1)
    return kernel_unsupported(kc, op, "this shuffle");
  k->a = (uint32_t)m;
  k->fn = x_shuffle;
  return true;
}

static int x_all_reduce(KFrame *f, const KIns *k) {
  const KReduce *r = k->aux;
  if (f->nact != f->n)
    return divergent(f, k, "gpu.all_reduce");
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Slot *O = KOUT(f, k, 0);
  if (r->kind >= 0) {
    Slot acc = V[0];
    for (uint32_t l = 1; l < f->n; l++)
      acc = kernel_reduce_combine(r, acc, V[l * sv]);
    O[0] = acc;
    return EX_NEXT;
  }
  Slot *lhs = kw(f, r->lhs, false), *rhs = kw(f, r->rhs, false);
  O[0] = V[0];
  for (uint32_t l = 1; l < f->n; l++) {
    *lhs = O[0];
    *rhs = V[l * sv];
    if (kernel_run_body(f, &r->body) == EX_ERROR)
      return EX_ERROR;
  }
  return EX_NEXT;
}

static int x_subgroup_reduce(KFrame *f, const KIns *k) {
  const KReduce *r = k->aux;
  const Slot *V = KIN(f, k, 0);
  size_t sv = k->vin[0];
  Slot *O = KOUT(f, k, 0);
  uint32_t cs = (uint32_t)r->cluster, st = (uint32_t)r->stride;
  KLANES(f, l, {
    uint32_t ln = l % WARP, base = l - ln, start = base + ln / (st * cs) * (st * cs) + ln % st;
    Slot acc = {0};
    bool first = true;
    for (uint32_t i = 0; i < cs; i++) {
      uint32_t m = start + i * st;
      if (m >= f->n)
        break;
      acc = first ? V[m * sv] : kernel_reduce_combine(r, acc, V[m * sv]);
      first = false;
    }
    O[l] = acc;
  });
  kernel_warp_sync(f);
  return EX_NEXT;
}

bool c_kreduce(KComp *kc, Op *op, KIns *k) {
  KReduce *r = ir_alloc(kc->in->ctx, sizeof *r);
  Type *t = op->operands[0]->type;
  r->kind = enum_kw(ir_op_attr(op, "op"), reduce_kinds);
  r->is_float = t->kind == TY_FLOAT;
  r->f64 = r->is_float && t->u.f == F_F64;
  r->w = kernel_int_width(t);
  if ((r->is_float && t->u.f != F_F32 && t->u.f != F_F64) || (!r->is_float && !r->w))
    return kernel_unsupported(kc, op, "a reduction of this type");
  static const bool float_kind[] = {1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1};
  static const bool int_kind[] = {1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0};
  if (r->kind >= 0 && !(r->is_float ? float_kind : int_kind)[r->kind])
    return kernel_unsupported(kc, op, "this reduction on this type");
  k->aux = r;
  if (ir_str_eq(op->name, "gpu.subgroup_reduce")) {
    Attr *cs = ir_op_attr(op, "cluster_size"), *st = ir_op_attr(op, "cluster_stride");
    r->cluster = cs && cs->kind == ATTR_INT ? (int32_t)cs->u.i.v : WARP;
    r->stride = st && st->kind == ATTR_INT ? (int32_t)st->u.i.v : 1;
    if (r->cluster <= 0 || r->stride <= 0 || r->cluster * r->stride > WARP)
      return kernel_unsupported(kc, op, "this cluster size and stride");
    k->fn = x_subgroup_reduce;
    return true;
  }
  k->fn = x_all_reduce;
  if (r->kind >= 0)
    return true;
  Block *b = op->regions[0].first;
  if (!b || b->nargs != 2)
    return kernel_unsupported(kc, op, "a gpu.all_reduce without an op or a two-argument region");
  uint8_t v1, v2;
  kernel_operand(kc, &b->args[0], &r->lhs, &v1);
  kernel_operand(kc, &b->args[1], &r->rhs, &v2);
  if (v1 || v2)
    return kernel_unsupported(kc, op, "a gpu.all_reduce region with varying arguments");
  return kernel_compile_body(kc, &op->regions[0], &r->body);
}

/* ---- gpu.printf --------------------------------------------------------------------------------- */

typedef struct KPrintf {
  Str fmt;
  Type **types;
} KPrintf;

/* internal.h */
void kernel_buf_add(KBuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->n + n + 1) * 2;
    char *p = realloc(b->s, cap);
    if (!p)
      return;
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void format_one(const KFrame *f, const KIns *k, const KPrintf *p, uint32_t l, KBuf *out) {
  const char *s = p->fmt.s, *end = s + p->fmt.len;
  uint32_t arg = 0;
  while (s < end) {
    const char *pct = memchr(s, '%', (size_t)(end - s));
    if (!pct) {
      kernel_buf_add(out, s, (size_t)(end - s));
      break;
    }
    kernel_buf_add(out, s, (size_t)(pct - s));
    const char *q = pct + 1;
    if (q < end && *q == '%') {
      kernel_buf_add(out, "%", 1);
      s = q + 1;
      continue;
    }
    char spec[48];
    size_t n = 0;
    spec[n++] = '%';
    while (q < end && strchr("-+ #0", *q) && n < 20)
      spec[n++] = *q++;
    while (q < end && ((*q >= '0' && *q <= '9') || *q == '.') && n < 40)
      spec[n++] = *q++;
    while (q < end && strchr("hlLzjt", *q))
      q++;
    if (q >= end)
      break;
    char conv = *q++;
    s = q;
    char tmp[128];
    if (arg >= k->nin) {
      kernel_buf_add(out, pct, (size_t)(q - pct));
      continue;
    }
    Slot v = kw(f, k->in[arg], k->vin[arg])[k->vin[arg] ? l : 0];
    Type *t = p->types[arg++];
    bool fl = t->kind == TY_FLOAT;
    double dv = fl ? (t->u.f == F_F64 ? v.f : (double)v.f32) : (double)v.i;
    uint32_t w = fl ? 64 : kernel_int_width(t);
    int len;
    switch (conv) {
    case 'd': case 'i':
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? (long long)dv : (long long)v.i);
      break;
    case 'u': case 'x': case 'X': case 'o':
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? (unsigned long long)dv : (unsigned long long)kernel_zext(v.i, w));
      break;
    case 'c':
      spec[n++] = 'c', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (int)v.i);
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, fl ? dv : (double)v.i);
      break;
    case 'p':
      len = snprintf(tmp, sizeof tmp, "%p", v.p);
      break;
    default:
      len = snprintf(tmp, sizeof tmp, "%.*s", (int)(q - pct), pct);
      break;
    }
    if (len > 0)
      kernel_buf_add(out, tmp, (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1);
  }
}

static int x_printf(KFrame *f, const KIns *k) {
  const KPrintf *p = k->aux;
  KBuf b = {0};
  KLANES(f, l, { format_one(f, k, p, l, &b); });
  if (b.n)
    kernel_print(f, b.s, b.n);
  free(b.s);
  return EX_NEXT;
}

/* The format against the arguments, as a C compiler's -Wformat would have it: one argument per
 * conversion, integers (and index) for %d %i %u %x %X %o %c, floats for %f %e %g %a (and their
 * capitals), nothing else (no %s, %n: the op has no string or pointer arguments). mlir-opt
 * accepts any format, so this is not a verifier error: the launch fails, at the op. Returns
 * false after the error. */
static bool check_format(KComp *kc, Op *op, Str fmt) {
  const char *s = fmt.s, *end = s + fmt.len;
  uint32_t arg = 0;
  char why[256] = "";
  while (!why[0] && (s = memchr(s, '%', (size_t)(end - s)))) {
    const char *q = s + 1;
    if (q < end && *q == '%') {
      s = q + 1;
      continue;
    }
    while (q < end && (strchr("-+ #0", *q) || (*q >= '0' && *q <= '9') || *q == '.'))
      q++;
    while (q < end && strchr("hlLzjt", *q))
      q++;
    if (q >= end) {
      snprintf(why, sizeof why, "the format ends inside a conversion ('%.*s')", (int)(end - s), s);
      break;
    }
    char conv = *q++;
    int spec = (int)(q - s);
    bool want_int = strchr("diuxXoc", conv) != NULL, want_float = strchr("fFeEgGaA", conv) != NULL;
    if (!want_int && !want_float)
      snprintf(why, sizeof why, "conversion '%.*s' is not one gpu.printf can take", spec, s);
    else if (arg >= op->noperands)
      snprintf(why, sizeof why, "conversion '%.*s' has no argument: the format has more conversions than the %u argument%s",
               spec, s, op->noperands, op->noperands == 1 ? "" : "s");
    else {
      Type *t = op->operands[arg]->type;
      bool is_float = t->kind == TY_FLOAT, is_int = t->kind == TY_INT || t->kind == TY_INDEX;
      if ((want_int && !is_int) || (want_float && !is_float))
        snprintf(why, sizeof why, "conversion '%.*s' needs %s, but argument #%u is %s", spec, s,
                 want_int ? "an integer" : "a float", arg, is_float ? "a float" : "not a number");
      arg++;
    }
    s = q;
  }
  if (!why[0] && arg < op->noperands)
    snprintf(why, sizeof why, "the format has %u conversion%s for %u arguments", arg, arg == 1 ? "" : "s",
             op->noperands);
  if (!why[0])
    return true;
  ir_op_error(kc->in->ctx, op, "format does not match its arguments: %s", why);
  kc->in->errors++;
  return false;
}

bool c_kprintf(KComp *kc, Op *op, KIns *k) {
  Attr *fmt = ir_op_attr(op, "format");
  if (!fmt || fmt->kind != ATTR_STRING)
    return kernel_unsupported(kc, op, "a gpu.printf without a format");
  if (!check_format(kc, op, fmt->u.str))
    return false;
  KPrintf *p = ir_alloc(kc->in->ctx, sizeof *p);
  p->fmt = fmt->u.str;
  p->types = ir_alloc(kc->in->ctx, (op->noperands + 1) * sizeof *p->types);
  for (uint32_t i = 0; i < op->noperands; i++) {
    p->types[i] = op->operands[i]->type;
    if (kernel_words(p->types[i]) != 1)
      return kernel_unsupported(kc, op, "a gpu.printf argument of this type");
  }
  k->aux = p;
  k->fn = x_printf;
  return true;
}
