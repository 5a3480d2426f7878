/* runner.c - MLIR's runner utils (libmlir_runner_utils, libmlir_c_runner_utils), built in: the
 * external functions upstream integration tests declare and call to print results.
 *
 * Output is byte for byte what upstream prints, so upstream CHECK lines pass:
 *   Unranked Memref base@ = 0x... rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
 *   [[1,   2,   3],
 *    [4,   5,   6]]
 * Elements are separated by ", " plus one space per nesting level below the outermost; rows by
 * ", \n" (with the trailing blank upstream prints) and the same indentation. Floats print as C++ streams do by default (%g), integers as
 * decimals. */
#include "interp/internal.h"

#include <inttypes.h>
#include <string.h>

typedef enum ElemKind { E_F32, E_F64, E_I8, E_I16, E_I32, E_I64, E_F16, E_BF16 } ElemKind;

static void print_elem(FILE *out, ElemKind k, const char *p) {
  switch (k) {
  case E_F32: {
    float v;
    memcpy(&v, p, 4);
    fprintf(out, "%g", v);
    return;
  }
  case E_F64: {
    double v;
    memcpy(&v, p, 8);
    fprintf(out, "%g", v);
    return;
  }
  case E_F16: case E_BF16: {
    Slot s;
    Type t = {.kind = TY_FLOAT};
    t.u.f = k == E_F16 ? F_F16 : F_BF16;
    interp_load_elem(&t, p, &s);
    fprintf(out, "%g", s.f32);
    return;
  }
  case E_I8: fprintf(out, "%d", (int)*(const int8_t *)p); return;
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
  }
}

static const uint32_t elem_bytes[] = {[E_F32] = 4, [E_F64] = 8, [E_I8] = 1, [E_I16] = 2,
                                      [E_I32] = 4, [E_I64] = 8, [E_F16] = 2, [E_BF16] = 2};

static void spaces(FILE *out, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    fputc(' ', out);
}

/* dim: dimensions left to print (the data printer's recursion) */
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

static int print_memref(Frame *fr, ElemKind k, Slot *args) {
  FILE *out = fr->in->out;
  int64_t rank = args[0].i;
  Slot *d = args[1].p;
  const int64_t *sz = &d[3].i, *st = &d[3 + rank].i;
  fprintf(out, "Unranked Memref base@ = %p rank = %" PRId64 " offset = %" PRId64 " sizes = [", d[1].p, rank, d[2].i);
  for (int64_t i = 0; i < rank; i++)
    fprintf(out, "%s%" PRId64, i ? ", " : "", sz[i]);
  fputs("] strides = [", out);
  for (int64_t i = 0; i < rank; i++)
    fprintf(out, "%s%" PRId64, i ? ", " : "", st[i]);
  fputs("] data = \n", out);
  print_data(out, k, d[1].p, rank, rank, d[2].i, sz, st);
  fputc('\n', out);
  return EX_NEXT;
}

#define PRINT_MEMREF(name, kind)                                                  \
  static int name(Frame *fr, const Ins *call, Slot *args, Slot *res) {            \
    (void)call;                                                                   \
    (void)res;                                                                    \
    return print_memref(fr, kind, args);                                          \
  }
PRINT_MEMREF(n_print_memref_f32, E_F32)
PRINT_MEMREF(n_print_memref_f64, E_F64)
PRINT_MEMREF(n_print_memref_f16, E_F16)
PRINT_MEMREF(n_print_memref_bf16, E_BF16)
PRINT_MEMREF(n_print_memref_i8, E_I8)
PRINT_MEMREF(n_print_memref_i16, E_I16)
PRINT_MEMREF(n_print_memref_i32, E_I32)
PRINT_MEMREF(n_print_memref_i64, E_I64)

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
  {"printMemrefF32", n_print_memref_f32},   {"printMemrefF64", n_print_memref_f64},
  {"printMemrefF16", n_print_memref_f16},   {"printMemrefBF16", n_print_memref_bf16},
  {"printMemrefI8", n_print_memref_i8},     {"printMemrefI16", n_print_memref_i16},
  {"printMemrefI32", n_print_memref_i32},   {"printMemrefI64", n_print_memref_i64},
  {"printMemrefInd", n_print_memref_i64},   {"printF32", n_print_f32},
  {"printF64", n_print_f64},                {"printI64", n_print_i64},
  {"printU64", n_print_u64},                {"printNewline", n_print_newline},
  {"printComma", n_print_comma},            {"printOpen", n_print_open},
  {"printClose", n_print_close},
};

NativeFn interp_native_fn(Str name) {
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++)
    if (ir_str_eq(name, natives[i].name))
      return natives[i].fn;
  return NULL;
}
