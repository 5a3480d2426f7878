/* values.c - how the host interpreter and the engine lay values out in words (kernel.h: Slot),
 * and element loads and stores between memory and words. */
#include "kernel/internal.h"

#include <string.h>

/* ---- words and widths ----------------------------------------------------------------------- */

uint32_t kernel_words(const Type *t) {
  switch (t->kind) {
  case TY_MEMREF: return 3 + 2 * t->u.sh.rank;
  case TY_UNRANKED_MEMREF: return 2 + 3 + 2 * 8; /* rank, descriptor ptr, room for a copy */
  case TY_VECTOR: {
    uint32_t n = 1;
    for (uint32_t i = 0; i < t->u.sh.rank; i++)
      n *= t->u.sh.shape[i] > 0 ? (uint32_t)t->u.sh.shape[i] : 1;
    return n;
  }
  case TY_LLVM_STRUCT: {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->u.agg.n; i++)
      n += kernel_words(t->u.agg.elems[i]);
    return n ? n : 1;
  }
  case TY_LLVM_ARRAY: return (uint32_t)t->u.arr.count * kernel_words(t->u.arr.elem);
  case TY_ASYNC_VALUE: return kernel_words(t->u.arr.elem);
  default: return 1;
  }
}

uint32_t kernel_int_width(const Type *t) {
  if (t->kind == TY_INDEX)
    return 64;
  return t->kind == TY_INT ? t->u.i.width : 0;
}

uint32_t kernel_elem_bytes(const Type *t) {
  switch (t->kind) {
  case TY_INT: return t->u.i.width <= 8 ? 1 : (t->u.i.width + 7) / 8;
  case TY_INDEX: return 8;
  case TY_FLOAT: return (ir_float_width(t->u.f) + 7) / 8;
  case TY_LLVM_PTR: return 8;
  default: return 0;
  }
}

void kernel_site(const Op *op, char *buf, size_t n) {
  const Loc *f = ir_loc_file_of(op->loc);
  if (!f)
    f = ir_loc_file_of(op->src);
  if (f)
    snprintf(buf, n, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
  else
    snprintf(buf, n, "%.*s", (int)op->name.len, op->name.s);
}

/* "file:line:col" of an op, kept with the context: the backend names ops by it. */
const char *kernel_loc(KHost *h, Op *op) {
  char buf[512];
  kernel_site(op, buf, sizeof buf);
  return ir_intern_cstr(h->ctx, buf).s;
}

/* ---- element access ------------------------------------------------------------------------- */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023, bits;
  if (exp == 0) {
    if (!man) {
      bits = sign;
    } else { /* subnormal: normalize */
      exp = 127 - 15 + 1;
      while (!(man & 1024)) {
        man <<= 1;
        exp--;
      }
      bits = sign | (exp << 23) | ((man & 1023) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | (man << 13);
  } else {
    bits = sign | ((exp - 15 + 127) << 23) | (man << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static uint16_t float_to_half(float f) {
  /* f is already rounded to half precision (ir_float_round), so this only re-encodes */
  uint32_t bits;
  memcpy(&bits, &f, 4);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  int32_t exp = (int32_t)((bits >> 23) & 255) - 127 + 15;
  uint32_t man = bits & 0x7FFFFF;
  if (((bits >> 23) & 255) == 255)
    return (uint16_t)(sign | 0x7C00 | (man ? 0x200 : 0));
  if (exp >= 31)
    return (uint16_t)(sign | 0x7C00);
  if (exp <= 0) {
    if (exp < -10)
      return sign;
    man |= 0x800000;
    return (uint16_t)(sign | (man >> (14 - exp)));
  }
  return (uint16_t)(sign | (exp << 10) | (man >> 13));
}

void kernel_load_elem(const Type *t, const void *p, Slot *out) {
  if (t->kind == TY_FLOAT) {
    switch (t->u.f) {
    case F_F64: memcpy(&out->f, p, 8); return;
    case F_F32: out->u = 0; memcpy(&out->f32, p, 4); return;
    case F_F16: {
      uint16_t h;
      memcpy(&h, p, 2);
      out->u = 0;
      out->f32 = half_to_float(h);
      return;
    }
    case F_BF16: {
      uint16_t h;
      memcpy(&h, p, 2);
      uint32_t b = (uint32_t)h << 16;
      out->u = 0;
      memcpy(&out->f32, &b, 4);
      return;
    }
    default: out->u = 0; return;
    }
  }
  if (t->kind == TY_LLVM_PTR) {
    memcpy(&out->p, p, 8);
    return;
  }
  uint32_t w = kernel_int_width(t);
  uint64_t v = 0;
  memcpy(&v, p, w <= 8 ? 1 : (w + 7) / 8 > 8 ? 8 : (w + 7) / 8);
  out->i = kernel_sext(v, w > 64 ? 64 : w);
}

void kernel_store_elem(const Type *t, void *p, const Slot *in) {
  if (t->kind == TY_FLOAT) {
    switch (t->u.f) {
    case F_F64: memcpy(p, &in->f, 8); return;
    case F_F32: memcpy(p, &in->f32, 4); return;
    case F_F16: {
      uint16_t h = float_to_half(in->f32);
      memcpy(p, &h, 2);
      return;
    }
    case F_BF16: {
      uint32_t b;
      memcpy(&b, &in->f32, 4);
      uint16_t h = (uint16_t)(b >> 16);
      memcpy(p, &h, 2);
      return;
    }
    default: return;
    }
  }
  if (t->kind == TY_LLVM_PTR) {
    memcpy(p, &in->p, 8);
    return;
  }
  uint32_t w = kernel_int_width(t);
  memcpy(p, &in->i, w <= 8 ? 1 : (w + 7) / 8 > 8 ? 8 : (w + 7) / 8);
}
