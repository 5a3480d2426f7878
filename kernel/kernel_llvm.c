/* kernel_llvm.c - kernels already lowered to llvm + nvvm: what `convert-gpu-to-nvvm` emits, an
 * llvm.func with the gpu.kernel attribute in a gpu.module, run by the kernel interpreter (kernel.c)
 * one op for all threads of a block like a gpu.func (kernel.c decides which values vary, and runs
 * llvm.br, llvm.cond_br and llvm.return as cf.br, cf.cond_br and gpu.return).
 *
 * The ops of its own here: the nvvm special registers (thread, block and grid ids and sizes, lane
 * id, warp size); nvvm.barrier0 (gpu.barrier's semantics: a divergent one is an error);
 * nvvm.shfl.sync (PTX shfl.sync with its clamp and segment mask, the valid flag of
 * return_value_and_is_valid; a thread outside the member mask is an error); llvm.load, llvm.store,
 * llvm.atomicrmw and llvm.cmpxchg through pointers; llvm.mlir.addressof of a global of address
 * space 3 in the kernel's gpu.module (a block's shared memory; a zero-sized one is the dynamic
 * shared memory) or of a constant string (a printf format); llvm.alloca of a constant count
 * (private memory); llvm.call of a device function of the gpu.module (compiled in place like
 * func.call), of vprintf (gpu.printf lowered) and of libdevice math (__nv_expf, ...: computed in
 * double like the host's math ops). llvm ops with an arith twin run the twin's lane loops
 * (kernel_arith.c); every other llvm op only computes (casts, insertvalue, extractvalue, constants,
 * getelementptr) and runs through its host implementation (llvm.c) once per thread.
 *
 * Memory. A lowered kernel receives each memref as its descriptor's words (convert-gpu-to-nvvm
 * expands them into arguments), and its accesses are plain pointers. The launch site
 * (kernel_llvm_bind) tells which arguments form each memref's descriptor; every access through a
 * pointer must then lie in the elements one of them describes, in the block's own memory (shared
 * and private), or (reads) in a constant global: otherwise it is an out-of-bounds error naming
 * the thread and the nearest memref. Accesses outside the block's memory are recorded for race
 * detection like the gpu.func path's, and accesses of shared memory are checked for races between
 * the block's threads (kernel_shared_check). An access of a kernel passed an unranked memref or a
 * raw pointer (no bounds known here) is checked against the device's memory table before it is
 * performed (be_kernel_access_check): memory the device does not know is an error too.
 *
 * The memory ops (loads, stores, atomics, addressof, alloca, and the affine addresses they take
 * apart) are kernel_llvm_mem.c's; what the two files share is llvm_internal.h. */
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

#define WARP 32

/* ---- which ops ------------------------------------------------------------------------------- */

static bool prefix(Str s, const char *p) {
  size_t n = strlen(p);
  return s.len >= n && !memcmp(s.s, p, n);
}

bool kernel_is_llvm(const Op *op) { return prefix(op->name, "llvm.") || prefix(op->name, "nvvm."); }

bool kernel_llvm_varies(const Op *op) {
  return prefix(op->name, "nvvm.read.ptx.sreg.tid.") || ir_str_eq(op->name, "nvvm.read.ptx.sreg.laneid") ||
         ir_str_eq(op->name, "nvvm.shfl.sync") || ir_str_eq(op->name, "llvm.atomicrmw") ||
         ir_str_eq(op->name, "llvm.alloca") || ir_str_eq(op->name, "llvm.cmpxchg") || ir_str_eq(op->name, "llvm.call");
}

/* ---- special registers ----------------------------------------------------------------------- */

/* k->a: 0 tid, 1 ntid, 2 ctaid, 3 nctaid, 4 laneid, 5 warpsize; k->b: the dimension */
static int x_sreg(KFrame *f, const KIns *k) {
  uint32_t d = k->b;
  if (!k->vout[0]) {
    int64_t v = k->a == 1 ? f->bdim[d] : k->a == 2 ? f->bid[d] : k->a == 3 ? f->gdim[d] : WARP;
    if (k->a == 0 || k->a == 4) /* uniform only in a block of one thread */
      v = 0;
    KOUT(f, k, 0)[0].i = v;
    return EX_NEXT;
  }
  Slot *o = KOUT(f, k, 0);
  KLANES(f, l, {
    int64_t v;
    switch (k->a) {
    case 0: v = d == 0 ? l % f->bdim[0] : d == 1 ? l / f->bdim[0] % f->bdim[1] : l / (f->bdim[0] * f->bdim[1]); break;
    case 1: v = f->bdim[d]; break;
    case 2: v = f->bid[d]; break;
    case 3: v = f->gdim[d]; break;
    case 4: v = l % WARP; break;
    default: v = WARP; break;
    }
    o[l].i = v;
  });
  return EX_NEXT;
}

static bool l_sreg(KComp *kc, Op *op, KIns *k) {
  static const char *const regs[] = {"tid", "ntid", "ctaid", "nctaid", "laneid", "warpsize", NULL};
  Str s = op->name;
  s.s += strlen("nvvm.read.ptx.sreg.");
  s.len -= strlen("nvvm.read.ptx.sreg.");
  for (uint32_t i = 0; regs[i]; i++) {
    size_t n = strlen(regs[i]);
    if (s.len < n || memcmp(s.s, regs[i], n))
      continue;
    if (i >= 4 && s.len == n) {
      k->a = i;
      k->fn = x_sreg;
      return true;
    }
    if (i < 4 && s.len == n + 2 && s.s[n] == '.' && s.s[n + 1] >= 'x' && s.s[n + 1] <= 'z') {
      k->a = i;
      k->b = (uint32_t)(s.s[n + 1] - 'x');
      k->fn = x_sreg;
      return true;
    }
  }
  return kernel_unsupported(kc, op, "this special register");
}

/* ---- shuffles ------------------------------------------------------------------------------ */

/* PTX shfl.sync: k->a the mode (0 bfly, 1 up, 2 down, 3 idx), k->b 1 with the valid flag. */
static int x_shfl(KFrame *f, const KIns *k) {
  const Slot *M = KIN(f, k, 0), *V = KIN(f, k, 1), *B = KIN(f, k, 2), *C = KIN(f, k, 3);
  size_t sm = k->vin[0], sv = k->vin[1], sb = k->vin[2], sc = k->vin[3];
  Slot *O = KOUT(f, k, 0), *P = k->b ? kw(f, k->out[0] + 1, true) : NULL;
  for (uint32_t i = 0; i < f->nact; i++) { /* PTX: a thread outside the member mask is undefined */
    uint32_t l = f->act[i];
    if (!((M[l * sm].u >> (l % WARP)) & 1))
      return kernel_error(f, k, l, "a thread outside the shuffle's member mask 0x%08x executes it",
                          (unsigned)M[l * sm].u);
  }
  KLANES(f, l, {
    int64_t lane = l % WARP, base = (int64_t)l - lane, b = B[l * sb].i & 31, c = C[l * sc].i;
    int64_t cval = c & 31, seg = (c >> 8) & 31;
    int64_t maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j;
    bool ok;
    switch (k->a) {
    case 0: j = lane ^ b; ok = j <= maxl; break;
    case 1: j = lane - b; ok = j >= maxl; break;
    case 2: j = lane + b; ok = j <= maxl; break;
    default: j = minl | (b & ~seg); ok = j <= maxl; break;
    }
    ok = ok && j >= 0 && j < WARP && base + j < (int64_t)f->n;
    O[l] = V[(ok ? (size_t)(base + j) : l) * sv];
    if (P)
      P[l].i = ok ? -1 : 0;
  });
  kernel_warp_sync(f);
  return EX_NEXT;
}

static bool l_shfl(KComp *kc, Op *op, KIns *k) {
  static const char *const kinds[] = {"bfly", "up", "down", "idx"};
  Attr *a = ir_op_attr(op, "kind");
  int m = -1;
  if (a && a->kind == ATTR_OPAQUE && a->u.str.len > 1) {
    const char *end = a->u.str.s + a->u.str.len - 1, *p = end;
    while (p > a->u.str.s && p[-1] != ' ' && p[-1] != '<')
      p--;
    for (int i = 0; i < 4; i++)
      if ((size_t)(end - p) == strlen(kinds[i]) && !memcmp(p, kinds[i], (size_t)(end - p)))
        m = i;
  }
  bool valid = ir_op_attr(op, "return_value_and_is_valid") != NULL;
  if (m < 0 || op->noperands != 4 || kernel_words(op->operands[1]->type) != 1 ||
      k->wout[0] != (valid ? 2u : 1u))
    return kernel_unsupported(kc, op, "this form of nvvm.shfl.sync");
  if (!k->vout[0])
    return kernel_unsupported(kc, op, "a shuffle with a uniform result");
  k->a = (uint32_t)m;
  k->b = valid;
  k->fn = x_shfl;
  return true;
}

/* ---- vprintf (gpu.printf lowered) -------------------------------------------------------------- */

/* llvm.call @vprintf(format, args): args points to a struct of the values (an llvm.alloca). */
typedef struct LPrintf {
  uint32_t n;
  Type **ft;
  uint64_t *off;
} LPrintf;

static const struct LConst *const_at(const KFrame *f, const char *p) {
  const LInfo *in = info(f);
  for (uint32_t i = 0; in && i < in->nconsts; i++)
    if (p >= in->consts[i].p && p < in->consts[i].p + in->consts[i].bytes)
      return &in->consts[i];
  return NULL;
}

/* One thread's line into out; false after an error. */
static bool format_one(KFrame *f, const KIns *k, const LPrintf *pf, uint32_t l, FILE *out) {
  const char *fmt = ptr_of(f, k, 0, l), *args = ptr_of(f, k, 1, l);
  const struct LConst *fc = const_at(f, fmt);
  if (!fc)
    return kernel_error(f, k, l, "a vprintf format that is not a constant string"), false;
  if (pf->n && !(args >= f->lo && args < f->hi))
    return kernel_error(f, k, l, "vprintf arguments that are not in the thread's private memory"), false;
  const char *end = fc->p + fc->bytes;
  uint32_t next = 0;
  for (const char *c = fmt; c < end && *c; c++) {
    if (*c != '%') {
      fputc(*c, out);
      continue;
    }
    if (c[1] == '%') {
      fputc('%', out);
      c++;
      continue;
    }
    char spec[64];
    size_t n = 0;
    spec[n++] = '%';
    const char *q = c + 1;
    while (q < end && *q && strchr("-+ #0123456789.", *q) && n < 40)
      spec[n++] = *q++;
    while (q < end && *q && strchr("hlLqjzt", *q))
      q++;
    char conv = q < end ? *q : 0;
    if (!conv || !strchr("diouxXcsfFeEgGaAp", conv))
      return kernel_error(f, k, l, "a vprintf conversion that is not supported"), false;
    if (next >= pf->n)
      return kernel_error(f, k, l, "vprintf has fewer arguments than its format asks for"), false;
    const Type *t = pf->ft[next];
    Slot v = {0};
    kernel_load_elem(t, args + pf->off[next++], &v);
    if (strchr("fFeEgGaA", conv)) {
      spec[n++] = conv;
      spec[n] = 0;
      double d = t->kind == TY_FLOAT ? (t->u.f == F_F32 ? v.f32 : v.f) : (double)v.i;
      fprintf(out, spec, d);
    } else if (conv == 's') {
      const struct LConst *sc = const_at(f, v.p);
      if (!sc)
        return kernel_error(f, k, l, "a vprintf %%s argument that is not a constant string"), false;
      spec[n++] = '.';
      n += (size_t)snprintf(spec + n, 20, "%zu", (size_t)(sc->p + sc->bytes - (char *)v.p));
      spec[n++] = 's';
      spec[n] = 0;
      fprintf(out, spec, (const char *)v.p);
    } else if (conv == 'p') {
      spec[n++] = 'p';
      spec[n] = 0;
      fprintf(out, spec, v.p);
    } else {
      uint32_t w = t->kind == TY_INT ? t->u.i.width : 64;
      spec[n++] = 'l';
      spec[n++] = 'l';
      spec[n++] = conv;
      spec[n] = 0;
      if (conv == 'd' || conv == 'i' || conv == 'c')
        fprintf(out, spec, (long long)v.i);
      else
        fprintf(out, spec, (unsigned long long)kernel_zext(v.i, w));
    }
    c = q;
  }
  return true;
}

static int x_vprintf(KFrame *f, const KIns *k) {
  const LPrintf *pf = k->aux;
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (!out)
    return kernel_error(f, k, UINT32_MAX, "out of memory");
  bool ok = true;
  for (uint32_t i = 0; i < f->nact && ok; i++)
    ok = format_one(f, k, pf, f->act[i], out);
  fclose(out);
  if (ok && len)
    kernel_print(f, buf, len);
  free(buf);
  if (!ok)
    return EX_ERROR;
  if (k->nout) {
    Slot *o = KOUT(f, k, 0);
    if (!k->vout[0])
      o[0].i = 0;
    else
      KLANES(f, l, { o[l].i = 0; });
  }
  return EX_NEXT;
}

/* ---- libdevice math (__nv_*): computed in double like the host's math ops ------------------------ */

static double rsqrt_(double x) { return 1.0 / sqrt(x); }
static double exp10_(double x) { return pow(10.0, x); }

static const struct {
  const char *name;
  double (*f1)(double);
  double (*f2)(double, double);
} libdevice[] = {
  {"exp", exp, NULL},       {"exp2", exp2, NULL},     {"exp10", exp10_, NULL},  {"expm1", expm1, NULL},
  {"log", log, NULL},       {"log2", log2, NULL},     {"log10", log10, NULL},   {"log1p", log1p, NULL},
  {"sqrt", sqrt, NULL},     {"rsqrt", rsqrt_, NULL},  {"cbrt", cbrt, NULL},     {"sin", sin, NULL},
  {"cos", cos, NULL},       {"tan", tan, NULL},       {"asin", asin, NULL},     {"acos", acos, NULL},
  {"atan", atan, NULL},     {"sinh", sinh, NULL},     {"cosh", cosh, NULL},     {"tanh", tanh, NULL},
  {"asinh", asinh, NULL},   {"acosh", acosh, NULL},   {"atanh", atanh, NULL},   {"fabs", fabs, NULL},
  {"floor", floor, NULL},   {"ceil", ceil, NULL},     {"trunc", trunc, NULL},   {"round", round, NULL},
  {"rint", nearbyint, NULL}, {"erf", erf, NULL},      {"erfc", erfc, NULL},     {"pow", NULL, pow},
  {"atan2", NULL, atan2},   {"fmod", NULL, fmod},     {"fmin", NULL, fmin},     {"fmax", NULL, fmax},
  {"hypot", NULL, hypot},   {"copysign", NULL, copysign},
};

/* k->a: the libdevice entry; k->b: 1 for f32 */
static int x_libdevice(KFrame *f, const KIns *k) {
  bool f32 = k->b, two = libdevice[k->a].f2 != NULL;
  const Slot *A = KIN(f, k, 0), *B = two ? KIN(f, k, 1) : A;
  size_t sa = k->vin[0], sb = two ? k->vin[1] : sa;
  Slot *o = KOUT(f, k, 0);
  if (!k->vout[0]) {
    double x = f32 ? A[0].f32 : A[0].f, y = f32 ? B[0].f32 : B[0].f;
    double r = two ? libdevice[k->a].f2(x, y) : libdevice[k->a].f1(x);
    o[0].u = 0;
    if (f32)
      o[0].f32 = (float)r;
    else
      o[0].f = r;
    return EX_NEXT;
  }
  KLANES(f, l, {
    double x = f32 ? A[l * sa].f32 : A[l * sa].f, y = f32 ? B[l * sb].f32 : B[l * sb].f;
    double r = two ? libdevice[k->a].f2(x, y) : libdevice[k->a].f1(x);
    o[l].u = 0;
    if (f32)
      o[l].f32 = (float)r;
    else
      o[l].f = r;
  });
  return EX_NEXT;
}

static bool l_libdevice(KComp *kc, Op *op, KIns *k, Str name) {
  Type *t = op->nresults == 1 ? op->results[0].type : NULL;
  bool f32 = t && t->kind == TY_FLOAT && t->u.f == F_F32, f64 = t && t->kind == TY_FLOAT && t->u.f == F_F64;
  Str base = {name.s + 5, name.len - 5};
  if (f32 && base.len && base.s[base.len - 1] == 'f')
    base.len--;
  for (uint32_t i = 0; (f32 || f64) && i < sizeof libdevice / sizeof libdevice[0]; i++) {
    if (strlen(libdevice[i].name) != base.len || memcmp(libdevice[i].name, base.s, base.len) ||
        op->noperands != (libdevice[i].f2 ? 2u : 1u))
      continue;
    for (uint32_t j = 0; j < op->noperands; j++)
      if (op->operands[j]->type != t)
        return kernel_unsupported(kc, op, "a libdevice call with these operand types");
    k->a = i;
    k->b = f32;
    k->fn = x_libdevice;
    return true;
  }
  char what[160];
  snprintf(what, sizeof what, "a call of '%.*s' in a kernel", (int)name.len, name.s);
  return kernel_unsupported(kc, op, what);
}

static bool l_call(KComp *kc, Op *op, KIns *k) {
  Attr *callee = ir_op_attr(op, "callee");
  if (callee && callee->kind == ATTR_SYMREF && callee->u.sym.n == 1 && prefix(callee->u.sym.path[0], "__nv_"))
    return l_libdevice(kc, op, k, callee->u.sym.path[0]);
  Op *mod = ir_op_parent_op(kc->root);
  Op *fn = callee && callee->kind == ATTR_SYMREF && callee->u.sym.n == 1 && mod
               ? ir_symbol_lookup(mod, callee->u.sym.path[0])
               : NULL;
  if (fn && ir_str_eq(fn->name, "llvm.func") && fn->nregions && fn->regions[0].first)
    return kernel_compile_call(kc, op, k); /* a device function of the kernel's module */
  if (!callee || callee->kind != ATTR_SYMREF || callee->u.sym.n != 1 || !ir_str_eq(callee->u.sym.path[0], "vprintf") ||
      op->noperands != 2)
    return kernel_unsupported(kc, op, "a call of a function without a body (other than vprintf and libdevice math)");
  LPrintf *pf = ir_alloc(kc->in->ctx, sizeof *pf);
  Op *d = op->operands[1]->def;
  Attr *et = d && ir_str_eq(d->name, "llvm.alloca") ? ir_op_attr(d, "elem_type") : NULL;
  if (et && et->kind == ATTR_TYPE && et->type->kind == TY_LLVM_STRUCT && !et->type->u.agg.packed) {
    const Type *st = et->type;
    pf->n = st->u.agg.n;
    pf->ft = ir_alloc(kc->in->ctx, (pf->n + 1) * sizeof *pf->ft);
    pf->off = ir_alloc(kc->in->ctx, (pf->n + 1) * sizeof *pf->off);
    uint64_t off = 0;
    for (uint32_t i = 0; i < pf->n; i++) {
      uint64_t a, sz = kernel_llvm_size_of(st->u.agg.elems[i], &a);
      Type *ft = st->u.agg.elems[i];
      if (!scalar(ft) || !sz)
        return kernel_unsupported(kc, op, "a vprintf argument of this type");
      off = (off + a - 1) / a * a;
      pf->ft[i] = ft;
      pf->off[i] = off;
      off += sz;
    }
  } else if (!d || !(ir_str_eq(d->name, "llvm.mlir.zero") || ir_str_eq(d->name, "llvm.mlir.null"))) {
    return kernel_unsupported(kc, op, "vprintf arguments that are not an llvm.alloca of a struct");
  }
  k->aux = pf;
  k->fn = x_vprintf;
  return true;
}

/* ---- fast paths: llvm ops with an arith twin, getelementptr ------------------------------------ */

static const char *const twins[][2] = {
  {"llvm.add", "arith.addi"},     {"llvm.sub", "arith.subi"},     {"llvm.mul", "arith.muli"},
  {"llvm.and", "arith.andi"},     {"llvm.or", "arith.ori"},       {"llvm.xor", "arith.xori"},
  {"llvm.shl", "arith.shli"},     {"llvm.lshr", "arith.shrui"},   {"llvm.ashr", "arith.shrsi"},
  {"llvm.sdiv", "arith.divsi"},   {"llvm.udiv", "arith.divui"},   {"llvm.srem", "arith.remsi"},
  {"llvm.urem", "arith.remui"},   {"llvm.fadd", "arith.addf"},    {"llvm.fsub", "arith.subf"},
  {"llvm.fmul", "arith.mulf"},    {"llvm.fdiv", "arith.divf"},    {"llvm.icmp", "arith.cmpi"},
  {"llvm.sext", "arith.extsi"},   {"llvm.zext", "arith.extui"},   {"llvm.trunc", "arith.trunci"},
  {"llvm.sitofp", "arith.sitofp"}, {"llvm.select", "arith.select"},
  {"llvm.intr.smax", "arith.maxsi"}, {"llvm.intr.smin", "arith.minsi"}, {"llvm.intr.umax", "arith.maxui"},
  {"llvm.intr.umin", "arith.minui"},
};

bool kernel_llvm_lanewise(const Op *op) {
  for (uint32_t i = 0; i < sizeof twins / sizeof twins[0]; i++)
    if (ir_str_eq(op->name, twins[i][0]))
      return true;
  return false;
}

/* The lane loop kernel_arith.c has for op's arith twin (the same semantics on the same words),
 * compiled on a copy of op named as the twin; false when it would run the twin's host
 * implementation instead (then op runs through its own). */
static bool twin_lanes(KComp *kc, Op *op, KIns *k) {
  for (uint32_t i = 0; i < sizeof twins / sizeof twins[0]; i++) {
    if (!ir_str_eq(op->name, twins[i][0]))
      continue;
    for (uint32_t j = 0; j < op->noperands; j++)
      if (op->operands[j]->type->kind != TY_INT && op->operands[j]->type->kind != TY_FLOAT)
        return false;
    Op *twin = ir_alloc(kc->in->ctx, sizeof *twin);
    *twin = *op;
    twin->name = ir_intern_cstr(kc->in->ctx, twins[i][1]);
    KIns t = *k;
    t.aux = NULL;
    if (!kernel_compile_arith(kc->in, twin, &t) || t.aux) /* aux: its host implementation */
      return false;
    *k = t;
    k->op = op;
    return true;
  }
  return false;
}

/* llvm.getelementptr %p[%i] over a scalar element: p + i * k->imm. */
KLANEFN static int x_gep1(KFrame *f, const KIns *k) {
  const Slot *P = KIN(f, k, 0), *I = KIN(f, k, 1);
  size_t sp = k->vin[0], si = k->vin[1];
  Slot *o = KOUT(f, k, 0);
  if (!k->vout[0]) {
    o[0].u = P[0].u + (uint64_t)I[0].i * (uint64_t)k->imm;
    return EX_NEXT;
  }
  KLANES(f, l, { o[l].u = P[l * sp].u + (uint64_t)I[l * si].i * (uint64_t)k->imm; });
  return EX_NEXT;
}

/* An op whose value no thread needs: every use computes it itself (gep_split, unneeded()). */
static int x_unneeded(KFrame *f, const KIns *k) {
  (void)f;
  (void)k;
  return EX_NEXT;
}

/* Whether every use of getelementptr op takes it apart (gep_split): no thread's pointer is needed */
static bool gep_all_split(KComp *kc, const Op *op) {
  bool all = kernel_llvm_gep1_scale(op) && op->results[0].uses != NULL;
  for (Use *u = op->results[0].uses; u && all; u = u->next)
    all = ((ir_str_eq(u->user->name, "llvm.load") && u->index == 0) ||
           (ir_str_eq(u->user->name, "llvm.store") && u->index == 1)) &&
          kernel_llvm_gep_split(kc, u->user, u->index, NULL);
  return all;
}

static bool gep_lanes(KComp *kc, Op *op, KIns *k) {
  if (!(k->imm = kernel_llvm_gep1_scale(op)))
    return false;
  k->fn = gep_all_split(kc, op) ? x_unneeded : x_gep1;
  return true;
}

/* Whether no thread needs v's value: a varying index (affine_tid) that only indices of the same
 * kind and getelementptrs taken apart by all their uses use; those accesses compute the index
 * themselves from its uniform part (LMem.aff). */
static bool unneeded(KComp *kc, const Value *v, int depth) {
  int64_t cx, cy;
  LAff a = {0}; /* as gep_split's program: it may not be too long */
  if (depth > 8 || !v->uses || (v->id & (KV_MINE | KV_VARY)) != (KV_MINE | KV_VARY) ||
      !kernel_llvm_affine_tid(kc, v, &cx, &cy, &a, 0))
    return false;
  for (Use *u = v->uses; u; u = u->next) {
    const Op *o = u->user;
    if (ir_str_eq(o->name, "llvm.getelementptr") && u->index == 1 && o->noperands == 2 && gep_all_split(kc, o))
      continue;
    if (o->nresults != 1 || !(ir_str_eq(o->name, "llvm.add") || ir_str_eq(o->name, "llvm.sub") ||
                              ir_str_eq(o->name, "llvm.mul") || ir_str_eq(o->name, "llvm.shl") ||
                              ir_str_eq(o->name, "llvm.sext") || ir_str_eq(o->name, "llvm.zext") ||
                              ir_str_eq(o->name, "builtin.unrealized_conversion_cast")) ||
        !unneeded(kc, &o->results[0], depth + 1))
      return false;
  }
  return true;
}

/* ---- ops that only move words: casts, extractvalue, insertvalue, poison -------------------------- */

/* k->aux: per result word, the operand word it copies (operand << 16 | word), or -1 for zero */
static int x_words(KFrame *f, const KIns *k) {
  const int32_t *src = k->aux;
  for (uint32_t x = 0; x < k->wout[0]; x++) {
    Slot *O = kw(f, k->out[0] + x, k->vout[0]);
    if (src[x] < 0) {
      if (!k->vout[0])
        O[0].u = 0;
      else
        KLANES(f, l, { O[l].u = 0; });
      continue;
    }
    uint32_t j = (uint32_t)src[x] >> 16, w = (uint32_t)src[x] & 0xffff;
    const Slot *I = kw(f, k->in[j] + w, k->vin[j]);
    if (!k->vout[0])
      O[0] = I[0];
    else if (k->vin[j])
      KLANES(f, l, { O[l] = I[l]; });
    else
      KLANES(f, l, { O[l] = I[0]; });
  }
  return EX_NEXT;
}

/* x_words of one uniform word from a uniform operand (a loop's index cast between i64 and index,
 * a field of a uniform descriptor): k->a the word it copies */
static int x_word1(KFrame *f, const KIns *k) {
  f->u[k->out[0]] = f->u[k->a];
  return EX_NEXT;
}

/* The word offset of op's position attribute in a value of type t, or -1. */
static int64_t position_word(const Op *op, const Type *t, const Type **leaf) {
  Attr *pos = ir_op_attr(op, "position");
  if (!pos || pos->kind != ATTR_DENSE_ARRAY)
    return -1;
  uint32_t w = 0;
  for (uint32_t i = 0; i < pos->u.darr.n; i++) {
    int64_t p = pos->u.darr.ivals[i];
    if (t->kind == TY_LLVM_STRUCT && p >= 0 && p < t->u.agg.n) {
      for (int64_t j = 0; j < p; j++)
        w += kernel_words(t->u.agg.elems[j]);
      t = t->u.agg.elems[p];
    } else if (t->kind == TY_LLVM_ARRAY && p >= 0 && (uint64_t)p < t->u.arr.count) {
      w += (uint32_t)p * kernel_words(t->u.arr.elem);
      t = t->u.arr.elem;
    } else {
      return -1;
    }
  }
  *leaf = t;
  return w;
}

static bool is_ptr(const Type *t) { return t->kind == TY_LLVM_PTR; }

/* op as word moves, when it is one (else false, and op compiles as it did) */
static bool l_words(KComp *kc, Op *op, KIns *k) {
  if (op->nresults != 1 || k->wout[0] > 0xffff)
    return false;
  uint32_t n = k->wout[0];
  int32_t *src = ir_alloc(kc->in->ctx, (n + 1) * sizeof *src);
  Str name = op->name;
  const Type *leaf;
  if (ir_str_eq(name, "llvm.mlir.poison") || ir_str_eq(name, "llvm.mlir.undef") || ir_str_eq(name, "llvm.mlir.zero")) {
    if (op->noperands)
      return false;
    for (uint32_t x = 0; x < n; x++)
      src[x] = -1;
  } else if ((ir_str_eq(name, "builtin.unrealized_conversion_cast") &&
              op->noperands == 1 && k->win[0] == n && op->operands[0]->type->kind != TY_UNRANKED_MEMREF) ||
             ((ir_str_eq(name, "llvm.bitcast") || ir_str_eq(name, "llvm.addrspacecast")) && op->noperands == 1 &&
              is_ptr(op->operands[0]->type) && is_ptr(op->results[0].type))) {
    for (uint32_t x = 0; x < n; x++)
      src[x] = (int32_t)x;
  } else if (ir_str_eq(name, "llvm.extractvalue") && op->noperands == 1) {
    int64_t w = position_word(op, op->operands[0]->type, &leaf);
    if (w < 0 || kernel_words(leaf) != n || w + n > k->win[0])
      return false;
    for (uint32_t x = 0; x < n; x++)
      src[x] = (int32_t)(w + x);
  } else if (ir_str_eq(name, "llvm.insertvalue") && op->noperands == 2) {
    int64_t w = position_word(op, op->operands[0]->type, &leaf);
    if (w < 0 || kernel_words(leaf) != k->win[1] || w + k->win[1] > n || k->win[0] != n)
      return false;
    for (uint32_t x = 0; x < n; x++)
      src[x] = x >= w && x < w + k->win[1] ? (int32_t)(1u << 16 | (uint32_t)(x - w)) : (int32_t)x;
  } else {
    return false;
  }
  k->aux = src;
  k->fn = x_words;
  if (n == 1 && src[0] >= 0 && !k->vout[0] && !k->vin[(uint32_t)src[0] >> 16]) {
    k->a = k->in[(uint32_t)src[0] >> 16] + ((uint32_t)src[0] & 0xffff);
    k->fn = x_word1;
  }
  return true;
}

/* ---- values the same in every block: computed once per frame ------------------------------------ *
 *
 * A lowered kernel recomputes in every block what only its arguments, constants and the block's
 * shape decide: the descriptors it rebuilds from the expanded memref arguments, the special
 * registers but the block id, and what only they feed. Such an op (pure: no effects, no error)
 * runs once per frame (a run of blocks of one launch) and is skipped after: its slots keep its
 * results. A varying result is computed for every thread, so only ops in the kernel's entry block
 * (where the mask is full and no slot is shared with a loop-carried value) hoist a varying result.
 *
 * Such ops run together: the first in the entry block becomes the kernel's group (x_group), which
 * runs it and every later one, in order, once per frame; the later ones leave their blocks
 * (kernel_llvm_compact), so a block after the first costs one dispatch for all of them. A later op
 * may run early, at the group's place: its operands are arguments or the group's earlier results,
 * and its slots are its own (only varying values in loop bodies share slots). An op before the
 * group's first (in a region ahead of it) runs on its own, once per frame (x_once). */

typedef struct LOnce {
  KIns ins;      /* the op as compiled */
  uint32_t once; /* its KFrame.once flag (x_once) */
  struct LOnce *next; /* the group's next op (x_group) */
} LOnce;

typedef struct LGroup {
  LOnce *first, **tail;
  uint32_t once;
} LGroup;

static int x_group(KFrame *f, const KIns *k) {
  const LGroup *g = k->aux;
  if (f->once[g->once])
    return EX_NEXT;
  for (const LOnce *o = g->first; o; o = o->next) {
    int r = o->ins.fn(f, &o->ins);
    if (r != EX_NEXT)
      return r;
  }
  if (f->nact == f->n) /* varying results are whole */
    f->once[g->once] = 1;
  return EX_NEXT;
}

/* A group's later op, run by x_group: it leaves its block (kernel_llvm_compact). */
static int x_grouped(KFrame *f, const KIns *k) {
  (void)f;
  (void)k;
  return EX_NEXT;
}

static int x_unneeded(KFrame *f, const KIns *k);

uint32_t kernel_llvm_compact(KIns *ins, uint32_t n) {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (ins[i].fn != x_grouped && ins[i].fn != x_unneeded)
      ins[m++] = ins[i];
  return m;
}

static int x_once(KFrame *f, const KIns *k) {
  const LOnce *o = k->aux;
  if (f->once[o->once])
    return EX_NEXT;
  if (o->ins.nout && o->ins.vout[0] && f->nact != f->n)
    return o->ins.fn(f, &o->ins);
  f->once[o->once] = 1;
  return o->ins.fn(f, &o->ins);
}

static const char *const pure_ops[] = {
  "llvm.mlir.constant", "llvm.mlir.poison", "llvm.mlir.undef", "llvm.mlir.zero", "llvm.mlir.addressof",
  "llvm.extractvalue", "llvm.insertvalue", "builtin.unrealized_conversion_cast", "llvm.bitcast",
  "llvm.addrspacecast", "llvm.getelementptr", "llvm.add", "llvm.sub", "llvm.mul", "llvm.and", "llvm.or",
  "llvm.xor", "llvm.shl", "llvm.lshr", "llvm.ashr", "llvm.sext", "llvm.zext", "llvm.trunc", "llvm.icmp",
  "llvm.select", "llvm.sitofp", "llvm.fadd", "llvm.fsub", "llvm.fmul", "llvm.fdiv", "llvm.ptrtoint",
  "llvm.inttoptr", "llvm.intr.smax", "llvm.intr.smin", "llvm.intr.umax", "llvm.intr.umin", NULL};

static bool launch_invariant(KComp *kc, const Value *v) {
  if (v->id & KV_INV)
    return true;
  Block *entry = kc->root->regions[0].first;
  return !v->def && v->block == entry;
}

/* Joins k to the kernel's group (or wraps it in x_once) when op is such an op. */
static void hoist(KComp *kc, Op *op, KIns *k) {
  if (kc->ninlined || !kc->root || !ir_str_eq(kc->root->name, "llvm.func") || op->nresults != 1 || op->nregions)
    return;
  bool pure = false;
  if (prefix(op->name, "nvvm.read.ptx.sreg."))
    pure = !prefix(op->name, "nvvm.read.ptx.sreg.ctaid.");
  for (const char *const *p = pure_ops; *p && !pure; p++)
    pure = ir_str_eq(op->name, *p);
  for (uint32_t i = 0; i < op->noperands && pure; i++)
    pure = launch_invariant(kc, op->operands[i]);
  bool entry = op->parent == kc->root->regions[0].first;
  if (!pure || (k->vout[0] && !entry))
    return;
  op->results[0].id |= KV_INV;
  if (k->fn == x_unneeded)
    return;
  LOnce *o = ir_alloc(kc->in->ctx, sizeof *o);
  o->ins = *k;
  LInfo *li = linfo(kc->in, kc->k);
  if (li->group) { /* a later op: the group runs it */
    *li->group->tail = o;
    li->group->tail = &o->next;
    k->fn = x_grouped;
    k->aux = NULL;
  } else if (entry) { /* the first in the entry block: the group */
    LGroup *g = ir_alloc(kc->in->ctx, sizeof *g);
    g->first = o;
    g->tail = &o->next;
    g->once = kernel_new_once(kc);
    li->group = g;
    k->fn = x_group;
    k->aux = g;
  } else {
    o->once = kernel_new_once(kc);
    k->fn = x_once;
    k->aux = o;
  }
}

bool kernel_llvm_words(KComp *kc, Op *op, KIns *k) {
  if (!l_words(kc, op, k))
    return false;
  if (unneeded(kc, &op->results[0], 0))
    k->fn = x_unneeded;
  hoist(kc, op, k);
  return true;
}

/* ---- compiling ---------------------------------------------------------------------------- */

/* llvm ops with effects or control the host implementations do not cover in kernels */
static const char *const refused[] = {"llvm.call", "llvm.switch", "llvm.unreachable",
                                      "llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset",
                                      "llvm.intr.stacksave", "llvm.intr.stackrestore", "llvm.invoke",
                                      "llvm.indirectbr", "llvm.resume", "llvm.landingpad", NULL};

static bool compile_llvm(KComp *kc, Op *op, KIns *k);

bool kernel_compile_llvm(KComp *kc, Op *op, KIns *k) {
  if (!compile_llvm(kc, op, k))
    return false;
  if (op->nresults == 1 && !prefix(op->name, "nvvm.") && unneeded(kc, &op->results[0], 0))
    k->fn = x_unneeded;
  hoist(kc, op, k);
  return true;
}

static bool compile_llvm(KComp *kc, Op *op, KIns *k) {
  char what[160];
  if (prefix(op->name, "nvvm.read.ptx.sreg."))
    return l_sreg(kc, op, k);
  if (ir_str_eq(op->name, "nvvm.barrier0") || (ir_str_eq(op->name, "nvvm.barrier") && !op->noperands))
    return c_kbarrier(kc, op, k);
  if (ir_str_eq(op->name, "nvvm.shfl.sync"))
    return l_shfl(kc, op, k);
  if (ir_str_eq(op->name, "llvm.load")) {
    if (!kernel_llvm_mem(kc, op, k, 0, op->results[0].type))
      return false;
    k->fn = kernel_llvm_x_load;
    return true;
  }
  if (ir_str_eq(op->name, "llvm.store")) {
    if (!kernel_llvm_mem(kc, op, k, 1, op->operands[0]->type))
      return false;
    ((LMem *)k->aux)->write = true;
    k->fn = kernel_llvm_x_store;
    return true;
  }
  if (ir_str_eq(op->name, "llvm.atomicrmw") || ir_str_eq(op->name, "llvm.cmpxchg"))
    return kernel_llvm_atomic(kc, op, k);
  if (ir_str_eq(op->name, "llvm.mlir.addressof"))
    return kernel_llvm_addressof(kc, op, k);
  if (ir_str_eq(op->name, "llvm.alloca"))
    return kernel_llvm_alloca(kc, op, k);
  if (ir_str_eq(op->name, "llvm.call"))
    return l_call(kc, op, k);
  bool ok = !prefix(op->name, "nvvm.") && kc->in->ops && kc->in->ops->knows(op->name);
  for (uint32_t i = 0; ok && refused[i]; i++)
    ok = !ir_str_eq(op->name, refused[i]);
  if (ok && (twin_lanes(kc, op, k) || (ir_str_eq(op->name, "llvm.getelementptr") && gep_lanes(kc, op, k)) ||
             l_words(kc, op, k)))
    return true;
  if (ok)
    return kernel_compile_host(kc->in, op, k);
  snprintf(what, sizeof what, "'%.*s'", (int)op->name.len, op->name.s);
  return kernel_unsupported(kc, op, what);
}

/* ---- binding a launch's memrefs --------------------------------------------------------------- */

bool kernel_llvm_bind(KHost *h, Op *site, Op *fn, Kernel *k, uint32_t first, uint32_t n) {
  LInfo *li = linfo(h, k);
  if (li->bound)
    return true; /* the first launch site's view (the kernel's argument words are the same) */
  li->bound = true;
  Block *entry = fn->regions[0].first;
  li->refs = ir_alloc(h->ctx, (n + 1) * sizeof *li->refs);
  uint32_t arg = 0;
  for (uint32_t i = 0; i < n; i++) {
    Type *t = site->operands[first + i]->type;
    uint32_t w = kernel_words(t);
    if (t->kind == TY_UNRANKED_MEMREF || t->kind == TY_LLVM_PTR) {
      li->unchecked = true;
    } else if (t->kind == TY_MEMREF) {
      LRef *r = &li->refs[li->n];
      r->arg = i;
      r->rank = t->u.sh.rank;
      r->esize = kernel_elem_bytes(t->u.sh.elem);
      if (r->rank > 8 || !r->esize || arg + w > entry->nargs) {
        li->unchecked = true;
      } else {
        r->aligned = entry->args[arg + D_ALIGNED].id & KV_INDEX;
        for (uint32_t j = 0; j < 1 + 2 * r->rank; j++)
          r->words[j] = entry->args[arg + D_OFFSET + j].id & KV_INDEX;
        li->n++;
      }
    }
    arg += w;
  }
  return true;
}
