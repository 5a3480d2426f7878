/* runner.c - MLIR's runner utils (libmlir_runner_utils, libmlir_c_runner_utils), built in: the
 * external functions upstream integration tests declare and call to print and check results.
 *
 * Output is byte for byte what upstream prints, so upstream CHECK lines pass:
 *   Unranked Memref base@ = 0x... rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
 *   [[1,   2,   3],
 *    [4,   5,   6]]
 * Upstream's data printer writes the first element of a dimension after "[", then ", " (and a
 * newline when more dimensions follow) and, for every further element, one space per nesting
 * level below the outermost before it; the last one closes with "]". A rank-0 memref prints its
 * element in brackets. Elements print as a C++ stream would: floats as %g (f16 and bf16 widened
 * to float), integers in decimal, index unsigned, complex numbers as (re,im) and i8 as the raw
 * character (upstream streams an int8_t, which is a char). One deliberate difference: upstream
 * prints one element of an empty dimension anyway (reading outside the buffer); we print "[]".
 *
 * The data these functions read is host memory the device may be writing: every element read is
 * reported to the backend (be_host_access, at the call's location) before it is read, as a
 * memref.load of it would be, so a print of a buffer an un-awaited copy still writes is a race,
 * and a print of device memory is refused. Runs of adjacent elements go as one access. The
 * string printString and printCString print is reported the same way, its NUL included.
 *
 * verifyMemRef* compares element-wise (floats within a relative 1e-6 (f32) or 1e-12 (f64), NaN
 * and infinities never equal; everything else bit for bit), writes up to ten
 * "actual != expected offset = N" lines to stderr and returns the number of differences, or -1
 * after printing both descriptors to stderr when the shapes differ.
 *
 * Each memref function is known under its plain name (argument: the unranked memref's words,
 * or rank and descriptor pointer in lowered code) and its `_mlir_ciface_` name (argument: a
 * pointer to the {rank, descriptor pointer} pair in memory). The ranked printMemref<N>d<T> ones
 * take a ranked descriptor and print "Memref " instead of "Unranked Memref ". */
#include "interp/internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum ElemKind { E_F32, E_F64, E_I8, E_I16, E_I32, E_I64, E_IND, E_F16, E_BF16, E_C32, E_C64 } ElemKind;

static const uint32_t elem_bytes[] = {[E_F32] = 4, [E_F64] = 8, [E_I8] = 1,   [E_I16] = 2,
                                      [E_I32] = 4, [E_I64] = 8, [E_IND] = 8,  [E_F16] = 2,
                                      [E_BF16] = 2, [E_C32] = 8, [E_C64] = 16};

static float narrow_float(ElemKind k, const char *p) {
  Slot s;
  Type t = {.kind = TY_FLOAT};
  t.u.f = k == E_F16 ? F_F16 : F_BF16;
  interp_load_elem(&t, p, &s);
  return s.f32;
}

static void print_elem(FILE *out, ElemKind k, const char *p) {
  float f[2];
  double d[2];
  switch (k) {
  case E_F32: memcpy(f, p, 4); fprintf(out, "%g", f[0]); return;
  case E_F64: memcpy(d, p, 8); fprintf(out, "%g", d[0]); return;
  case E_F16: case E_BF16: fprintf(out, "%g", narrow_float(k, p)); return;
  case E_C32: memcpy(f, p, 8); fprintf(out, "(%g,%g)", f[0], f[1]); return;
  case E_C64: memcpy(d, p, 16); fprintf(out, "(%g,%g)", d[0], d[1]); return;
  case E_I8: fputc(*p, out); return;
  case E_I16: {
    int16_t v;
    memcpy(&v, p, 2);
    fprintf(out, "%d", v);
    return;
  }
  case E_I32: {
    int32_t v;
    memcpy(&v, p, 4);
    fprintf(out, "%" PRId32, v);
    return;
  }
  case E_I64: {
    int64_t v;
    memcpy(&v, p, 8);
    fprintf(out, "%" PRId64, v);
    return;
  }
  case E_IND: {
    uint64_t v;
    memcpy(&v, p, 8);
    fprintf(out, "%" PRIu64, v);
    return;
  }
  }
}

static void spaces(FILE *out, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    fputc(' ', out);
}

/* dim: dimensions left to print (upstream's MemRefDataPrinter recursion) */
static void print_data(FILE *out, ElemKind k, const char *base, int64_t dim, int64_t rank, int64_t off,
                       const int64_t *sz, const int64_t *st) {
  if (dim == 0) {
    print_elem(out, k, base + off * elem_bytes[k]);
    return;
  }
  fputc('[', out);
  for (int64_t i = 0; i < sz[0]; i++) {
    if (i) {
      fputs(dim > 1 ? ", \n" : ", ", out);
      spaces(out, rank - dim + 1);
    }
    print_data(out, k, base, dim - 1, rank, off + i * st[0], sz + 1, st + 1);
  }
  fputc(']', out);
}

/* An unranked memref as the runner utils see it: rank and the ranked descriptor's words. */
typedef struct UMem {
  int64_t rank;
  const Slot *d;
} UMem;

static void print_meta(FILE *out, UMem m) {
  const int64_t *sz = &m.d[3].i, *st = &m.d[3 + m.rank].i;
  if (m.d[1].p)
    fprintf(out, "base@ = %p", m.d[1].p);
  else
    fputs("base@ = 0", out); /* what a C++ stream prints for a null pointer */
  fprintf(out, " rank = %" PRId64 " offset = %" PRId64 " sizes = [", m.rank, m.d[2].i);
  for (int64_t i = 0; i < m.rank; i++)
    fprintf(out, "%s%" PRId64, i ? ", " : "", sz[i]);
  fputs("] strides = [", out);
  for (int64_t i = 0; i < m.rank; i++)
    fprintf(out, "%s%" PRId64, i ? ", " : "", st[i]);
  fputc(']', out);
}

static void print_memref(FILE *out, ElemKind k, UMem m, const char *prefix) {
  fputs(prefix, out);
  print_meta(out, m);
  fputs(" data = \n", out);
  const int64_t *sz = &m.d[3].i, *st = &m.d[3 + m.rank].i;
  if (m.rank == 0)
    fputc('[', out);
  print_data(out, k, m.d[1].p, m.rank, m.rank, m.d[2].i, sz, st);
  if (m.rank == 0)
    fputc(']', out);
  fputc('\n', out);
}

/* ---- reporting the reads to the backend ----------------------------------------------------- */

typedef struct Reads {
  Frame *fr;
  const char *loc;
  uintptr_t lo, hi;  /* the run of adjacent bytes not reported yet */
  bool ok;           /* false once the backend refused an access */
} Reads;

static void reads_flush(Reads *r) {
  if (r->ok && r->hi > r->lo &&
      be_host_access(r->fr->in->be, (const void *)r->lo, r->hi - r->lo, false, r->loc) != BE_OK)
    r->ok = false;
  r->lo = r->hi = 0;
}

static void reads_walk(Reads *r, ElemKind k, const char *base, int64_t dim, int64_t off,
                       const int64_t *sz, const int64_t *st) {
  if (dim == 0) {
    uintptr_t p = (uintptr_t)(base + off * elem_bytes[k]);
    if (!r->hi || p != r->hi) {
      reads_flush(r);
      r->lo = p;
      r->hi = p;
    }
    r->hi += elem_bytes[k];
    return;
  }
  for (int64_t i = 0; i < sz[0] && r->ok; i++)
    reads_walk(r, k, base, dim - 1, off + i * st[0], sz + 1, st + 1);
}

/* Report the reads of every element of m; false (the backend said why) when they must not be
   performed. */
static bool report_reads(Frame *fr, const Ins *call, ElemKind k, UMem m) {
  if (!fr->in->be)
    return true;
  Comp c = {fr->in, NULL, 0};
  Reads r = {fr, interp_loc(&c, call->op), 0, 0, true};
  reads_walk(&r, k, m.d[1].p, m.rank, m.d[2].i, &m.d[3].i, &m.d[3 + m.rank].i);
  reads_flush(&r);
  return r.ok;
}

static bool elem_equal(ElemKind k, const char *a, const char *b) {
  if (k == E_F32) {
    float x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return isfinite(x) && isfinite(y) && fabsf(x - y) <= 1e-6f * fabsf(y);
  }
  if (k == E_F64) {
    double x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return isfinite(x) && isfinite(y) && fabs(x - y) <= 1e-12 * fabs(y);
  }
  return !memcmp(a, b, elem_bytes[k]);
}

static int64_t verify_rec(FILE *err, ElemKind k, UMem a, UMem e, int64_t dim, int64_t off, int64_t *printed) {
  int64_t errors = 0;
  if (dim == a.rank) {
    const char *pa = (const char *)a.d[1].p + off * elem_bytes[k];
    const char *pe = (const char *)e.d[1].p + off * elem_bytes[k];
    if (elem_equal(k, pa, pe))
      return 0;
    if (*printed < 10) {
      print_elem(err, k, pa);
      fputs(" != ", err);
      print_elem(err, k, pe);
      fprintf(err, " offset = %" PRId64 "\n", off);
      ++*printed;
    }
    return 1;
  }
  for (int64_t i = 0; i < a.d[3 + dim].i; i++)
    errors += verify_rec(err, k, a, e, dim + 1, off + i * a.d[3 + a.rank + dim].i, printed);
  return errors;
}

static bool same_shape(UMem a, UMem e) {
  for (int64_t i = 0; i < a.rank; i++)
    if (e.rank != a.rank || a.d[2].i != e.d[2].i || a.d[3 + i].i != e.d[3 + i].i ||
        a.d[3 + a.rank + i].i != e.d[3 + a.rank + i].i)
      return false;
  return true;
}

static int64_t verify_memref(FILE *err, ElemKind k, UMem a, UMem e) {
  if (!same_shape(a, e)) {
    print_meta(err, a);
    print_meta(err, e);
    return -1;
  }
  int64_t printed = 0;
  return verify_rec(err, k, a, e, 0, a.d[2].i, &printed);
}

/* The k-th unranked memref argument. In func form an unranked memref is one value of many words
 * (rank, descriptor pointer, ...); in lowered code two values (rank, pointer); through the C
 * interface one pointer to the pair. */
static UMem unranked_arg(const Frame *fr, const Slot *args, uint32_t k, bool ciface) {
  UMem m;
  if (ciface) {
    const int64_t *pair = args[k].p;
    m.rank = pair[0];
    memcpy(&m.d, &pair[1], sizeof m.d);
    return m;
  }
  uint32_t w = 0, i = 0, n = 0;
  const Func *fn = fr->fn;
  while (fn && fn->arg_words && i < fn->nargs && n < k) {
    w += fn->arg_words[i] > 1 ? fn->arg_words[i] : 2;
    i += fn->arg_words[i] > 1 ? 1 : 2;
    n++;
  }
  if (!fn || !fn->arg_words)
    w = 2 * k;
  m.rank = args[w].i;
  m.d = args[w + 1].p;
  return m;
}

static bool rank_ok(Frame *fr, const Ins *call, UMem m) {
  if (m.rank >= 0 && m.rank <= 64 && m.d)
    return true;
  interp_error(fr, call, "passes an invalid unranked memref (rank %lld) to a runner util", (long long)m.rank);
  return false;
}

/* A descriptor the program made in memory (lowered code, the C interface) must lie in memory it
 * owns; one in the interpreter's own slots (func form) is the interpreter's. */
static bool desc_ok(Frame *fr, const Ins *call, UMem m, bool in_memory) {
  return !in_memory || interp_mem_owned(fr, call, m.d, (3 + 2 * (uint64_t)m.rank) * sizeof(Slot), "read");
}

/* Every element of m lies in memory the program owns (the memory table): the descriptor is
 * trusted no further than that, so a bad view or a freed buffer is an error, not a wild read. */
static bool data_ok(Frame *fr, const Ins *call, ElemKind k, UMem m) {
  return interp_view_owned(fr, call, m.d, (uint32_t)m.rank, elem_bytes[k], "read");
}

/* One native per (function, element kind, calling convention): kind and convention come from the
 * table entry, found again by the callee's name. */
typedef enum Util { U_PRINT, U_SHAPE, U_VERIFY, U_PRINT_RANKED } Util;

typedef struct Entry {
  const char *name;
  Util util;
  ElemKind kind;
  int rank; /* U_PRINT_RANKED: the rank of the ranked memref it takes */
} Entry;

static const Entry memref_utils[] = {
  {"printMemrefF32", U_PRINT, E_F32, 0},   {"printMemrefF64", U_PRINT, E_F64, 0},
  {"printMemrefF16", U_PRINT, E_F16, 0},   {"printMemrefBF16", U_PRINT, E_BF16, 0},
  {"printMemrefI8", U_PRINT, E_I8, 0},     {"printMemrefI16", U_PRINT, E_I16, 0},
  {"printMemrefI32", U_PRINT, E_I32, 0},   {"printMemrefI64", U_PRINT, E_I64, 0},
  {"printMemrefInd", U_PRINT, E_IND, 0},   {"printMemrefC32", U_PRINT, E_C32, 0},
  {"printMemrefC64", U_PRINT, E_C64, 0},   {"printMemrefShapeI8", U_SHAPE, E_I8, 0},
  {"printMemrefShapeI32", U_SHAPE, E_I32, 0}, {"printMemrefShapeI64", U_SHAPE, E_I64, 0},
  {"printMemrefShapeF32", U_SHAPE, E_F32, 0}, {"printMemrefShapeF64", U_SHAPE, E_F64, 0},
  {"printMemrefShapeInd", U_SHAPE, E_IND, 0}, {"printMemrefShapeC32", U_SHAPE, E_C32, 0},
  {"printMemrefShapeC64", U_SHAPE, E_C64, 0}, {"verifyMemRefI8", U_VERIFY, E_I8, 0},
  {"verifyMemRefI16", U_VERIFY, E_I16, 0}, {"verifyMemRefI32", U_VERIFY, E_I32, 0},
  {"verifyMemRefI64", U_VERIFY, E_I64, 0}, {"verifyMemRefF16", U_VERIFY, E_F16, 0},
  {"verifyMemRefBF16", U_VERIFY, E_BF16, 0}, {"verifyMemRefF32", U_VERIFY, E_F32, 0},
  {"verifyMemRefF64", U_VERIFY, E_F64, 0}, {"verifyMemRefInd", U_VERIFY, E_IND, 0},
  {"verifyMemRefC32", U_VERIFY, E_C32, 0}, {"verifyMemRefC64", U_VERIFY, E_C64, 0},
  /* ranked, through the C interface only: print "Memref base@ = ..." */
  {"printMemref0dF32", U_PRINT_RANKED, E_F32, 0}, {"printMemref1dF32", U_PRINT_RANKED, E_F32, 1},
  {"printMemref2dF32", U_PRINT_RANKED, E_F32, 2}, {"printMemref3dF32", U_PRINT_RANKED, E_F32, 3},
  {"printMemref4dF32", U_PRINT_RANKED, E_F32, 4}, {"printMemref1dI8", U_PRINT_RANKED, E_I8, 1},
  {"printMemref1dI32", U_PRINT_RANKED, E_I32, 1}, {"printMemref1dI64", U_PRINT_RANKED, E_I64, 1},
  {"printMemref1dF64", U_PRINT_RANKED, E_F64, 1}, {"printMemref1dInd", U_PRINT_RANKED, E_IND, 1},
  {"printMemref1dC32", U_PRINT_RANKED, E_C32, 1}, {"printMemref1dC64", U_PRINT_RANKED, E_C64, 1},
};

#define CIFACE "_mlir_ciface_"

static const Entry *memref_util(Str name, bool *ciface) {
  *ciface = name.len > strlen(CIFACE) && !memcmp(name.s, CIFACE, strlen(CIFACE));
  if (*ciface)
    name = (Str){name.s + strlen(CIFACE), name.len - (uint32_t)strlen(CIFACE)};
  for (size_t i = 0; i < sizeof memref_utils / sizeof memref_utils[0]; i++)
    if (ir_str_eq(name, memref_utils[i].name))
      return &memref_utils[i];
  return NULL;
}

static int n_memref_util(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  bool ciface;
  const Entry *e = memref_util(fr->fn->name, &ciface);
  FILE *out = fr->in->out;
  if (e->util == U_PRINT_RANKED) {
    /* the descriptor's words in func form, a pointer to them through the C interface */
    bool ptr = ciface || (fr->fn->arg_words && fr->fn->arg_words[0] == 1);
    UMem r = {e->rank, ptr ? args[0].p : args};
    if (!r.d)
      return interp_error(fr, call, "passes a null memref descriptor to a runner util");
    if (!ptr && fr->fn->arg_words && fr->fn->arg_words[0] != 3 + 2 * (uint32_t)e->rank)
      return interp_error(fr, call, "passes a memref of another rank than %d to a runner util", e->rank);
    if (!desc_ok(fr, call, r, ptr) || !data_ok(fr, call, e->kind, r) || !report_reads(fr, call, e->kind, r))
      return EX_ERROR;
    print_memref(out, e->kind, r, "Memref ");
    fflush(out);
    return EX_NEXT;
  }
  if (ciface && (!interp_mem_owned(fr, call, args[0].p, 2 * sizeof(Slot), "read") ||
                 (e->util == U_VERIFY && !interp_mem_owned(fr, call, args[1].p, 2 * sizeof(Slot), "read"))))
    return EX_ERROR;
  /* lowered code passes (rank, descriptor pointer) as two values */
  bool in_memory = ciface || (fr->fn->arg_words && fr->fn->arg_words[0] == 1);
  UMem a = unranked_arg(fr, args, 0, ciface);
  if (!rank_ok(fr, call, a) || !desc_ok(fr, call, a, in_memory))
    return EX_ERROR;
  switch (e->util) {
  case U_PRINT:
  case U_PRINT_RANKED:
    if (!data_ok(fr, call, e->kind, a) || !report_reads(fr, call, e->kind, a))
      return EX_ERROR;
    print_memref(out, e->kind, a, "Unranked Memref ");
    break;
  case U_SHAPE:
    fputs("Unranked Memref ", out);
    print_meta(out, a);
    fputc('\n', out);
    break;
  case U_VERIFY: {
    UMem b;
    if (!ciface && fr->fn->nargs == 3 && fr->fn->arg_words && fr->fn->arg_words[0] == 1) {
      b = a; /* lowered verifyMemRef*(rank, actual, expected) */
      memcpy(&b.d, &args[2].p, sizeof b.d);
    } else {
      b = unranked_arg(fr, args, 1, ciface);
    }
    if (!rank_ok(fr, call, b) || !desc_ok(fr, call, b, in_memory))
      return EX_ERROR;
    if (same_shape(a, b) && (!data_ok(fr, call, e->kind, a) || !data_ok(fr, call, e->kind, b) ||
                             !report_reads(fr, call, e->kind, a) || !report_reads(fr, call, e->kind, b)))
      return EX_ERROR;  /* shapes that differ: verify_memref reads no data */
    fflush(out);
    res[0].i = verify_memref(stderr, e->kind, a, b);
    fflush(stderr);
    break;
  }
  }
  fflush(out);
  return EX_NEXT;
}

/* ---- scalars (libmlir_c_runner_utils) -------------------------------------------------------- */

static int n_print_f32(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  fprintf(fr->in->out, "%g", args[0].f32);
  return EX_NEXT;
}
static int n_print_f64(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  fprintf(fr->in->out, "%g", args[0].f);
  return EX_NEXT;
}
static int n_print_i64(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  fprintf(fr->in->out, "%" PRId64, args[0].i);
  return EX_NEXT;
}
static int n_print_u64(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  fprintf(fr->in->out, "%" PRIu64, args[0].u);
  return EX_NEXT;
}
static int n_print_string(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)res;
  if (!args[0].p)
    return interp_error(fr, call, "prints a null string");
  /* the string must end with a NUL inside memory the program owns: read up to the end of its block */
  size_t n = 0;
  const char *p = args[0].p;
  for (;; n++) {
    if (!interp_mem_owned(fr, call, p + n, 1, "read"))
      return EX_ERROR;
    if (!p[n])
      break;
  }
  if (fr->in->be) { /* the string and its NUL are host memory the device may be writing */
    Comp c = {fr->in, NULL, 0};
    if (be_host_access(fr->in->be, p, n + 1, false, interp_loc(&c, call->op)) != BE_OK)
      return EX_ERROR;
  }
  fwrite(p, 1, n, fr->in->out);
  return EX_NEXT;
}
/* the C library's puts and abort, which cf.assert lowers to (convert-cf-to-llvm): the message
 * and a newline to the program's output, then the run ends with a located error */
static int n_puts(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  if (n_print_string(fr, call, args, res) == EX_ERROR)
    return EX_ERROR;
  fputc('\n', fr->in->out);
  res[0].i = 0;
  return EX_NEXT;
}
static int n_abort(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)args, (void)res;
  return interp_error(fr, call, "the program called abort()");
}
/* printF16 and printBF16 take the value's bits, as lowered vector.print passes them */
static int n_print_f16(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  uint16_t h = (uint16_t)args[0].u;
  fprintf(fr->in->out, "%g", narrow_float(E_F16, (const char *)&h));
  return EX_NEXT;
}
static int n_print_bf16(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  uint16_t h = (uint16_t)args[0].u;
  fprintf(fr->in->out, "%g", narrow_float(E_BF16, (const char *)&h));
  return EX_NEXT;
}
static int n_print_flops(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)call, (void)res;
  fflush(fr->in->out);
  fprintf(stderr, "%lf GFLOPS\n", args[0].f / 1.0E9);
  return EX_NEXT;
}
static int n_nano_time(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)fr, (void)call, (void)args;
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  res[0].i = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  return EX_NEXT;
}
static int n_rtclock(Frame *fr, const Ins *call, Slot *args, Slot *res) {
  (void)fr, (void)call, (void)args;
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  res[0].f = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
  return EX_NEXT;
}
#define PRINT_TEXT(name, text)                                                    \
  static int name(Frame *fr, const Ins *call, Slot *args, Slot *res) {            \
    (void)call, (void)args, (void)res;                                            \
    fputs(text, fr->in->out);                                                     \
    return EX_NEXT;                                                               \
  }
PRINT_TEXT(n_print_newline, "\n")
PRINT_TEXT(n_print_comma, ", ")
PRINT_TEXT(n_print_open, "( ")
PRINT_TEXT(n_print_close, " )")

static const struct {
  const char *name;
  NativeFn fn;
} natives[] = {
  {"printF32", n_print_f32},         {"printF64", n_print_f64},        {"printI64", n_print_i64},
  {"printU64", n_print_u64},         {"printNewline", n_print_newline}, {"printComma", n_print_comma},
  {"printOpen", n_print_open},       {"printClose", n_print_close},    {"printString", n_print_string},
  {"printCString", n_print_string},  {"rtclock", n_rtclock},           {"_mlir_ciface_nanoTime", n_nano_time},
  {"printF16", n_print_f16},         {"printBF16", n_print_bf16},      {"printFlops", n_print_flops},
  {"puts", n_puts},                  {"abort", n_abort},
};

NativeFn interp_native_fn(Str name) {
  bool ciface;
  if (memref_util(name, &ciface))
    return n_memref_util;
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++)
    if (ir_str_eq(name, natives[i].name))
      return natives[i].fn;
  return NULL;
}
