/* binary.c - kernels of a gpu.binary: what its object holds, and what a launch of one does.
 *
 * A gpu.binary's objects are kept as their attribute text (#gpu.object<target, [properties =
 * {...},] [format =] "...">, an opaque attribute). The object the binary's handler selects
 * (#gpu.select_object: the first, or the N-th of #gpu.select_object<N>) is told apart by the
 * first bytes of its payload, decoded from the string's escapes, with the backend's be_blob_kind:
 * PTX, a cubin, a fatbinary, ... SASS (cubin, fatbinary) will never run on the simulator, so a
 * launch of one is refused with the way to get PTX; PTX is compiled for the kernel engine
 * (kernel_ptx.c). */
#include "interp/internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The first bytes (up to cap) of the payload of a #gpu.object<target, [properties = {...},]
 * [format =] "..."> attribute, its escapes decoded; the payload is the last top-level element.
 * Returns the number of bytes written, or -1 when the text has no payload string. */
static long object_head(Str obj, unsigned char *out, size_t cap) {
  const char *s = obj.s, *end = obj.s + obj.len, *last = NULL;
  int depth = 0;
  for (const char *q = s; q < end; q++) {
    if (*q == '"') {
      if (depth == 1)
        last = q;
      for (q++; q < end && *q != '"'; q++)
        q += *q == '\\';
    } else if (*q == '<' || *q == '{' || *q == '[' || *q == '(') {
      depth++;
    } else if (*q == '>' || *q == '}' || *q == ']' || *q == ')') {
      depth--;
    }
  }
  if (!last)
    return -1;
  size_t n = 0;
  for (const char *q = last + 1; q < end && *q != '"' && n < cap; q++) {
    if (*q != '\\' || q + 1 >= end) {
      out[n++] = (unsigned char)*q;
    } else if (isxdigit((unsigned char)q[1]) && q + 2 < end && isxdigit((unsigned char)q[2])) {
      char hex[3] = {q[1], q[2], 0};
      out[n++] = (unsigned char)strtoul(hex, NULL, 16);
      q += 2;
    } else {
      q++;
      out[n++] = (unsigned char)(*q == 'n' ? '\n' : *q == 't' ? '\t' : *q);
    }
  }
  return (long)n;
}

/* The object of gpu.binary bin that its handler (#gpu.select_object, or #gpu.select_object<N>)
 * selects, or NULL when it has none of that number. */
static Attr *selected_object(Op *bin) {
  Attr *objs = ir_op_attr(bin, "objects"), *h = ir_op_attr(bin, "offloadingHandler");
  uint32_t pick = 0;
  if (h && h->kind == ATTR_OPAQUE && h->u.str.len > 19 && !memcmp(h->u.str.s, "#gpu.select_object<", 19) &&
      isdigit((unsigned char)h->u.str.s[19]))
    pick = (uint32_t)strtoul(h->u.str.s + 19, NULL, 10);
  if (objs && objs->kind == ATTR_ARRAY && pick < objs->u.arr.n && objs->u.arr.elems[pick]->kind == ATTR_OPAQUE)
    return objs->u.arr.elems[pick];
  return NULL;
}

unsigned char *interp_binary_object(Op *bin, size_t *len) {
  Attr *obj = selected_object(bin);
  *len = 0;
  if (!obj)
    return NULL;
  unsigned char *data = malloc(obj->u.str.len + 1);
  if (!data)
    return NULL;
  long n = object_head(obj->u.str, data, obj->u.str.len);
  if (n < 0) {
    free(data);
    return NULL;
  }
  data[n] = '\0';
  *len = (size_t)n;
  return data;
}

/* A launch of a kernel in a gpu.binary: the object the default handler (#gpu.select_object, or
 * #gpu.select_object<N>) picks says what it holds, told from its whole payload (a PTX text may
 * open with comments of any length). SASS never runs here, so a cubin or fatbinary is refused
 * with the way to get PTX; PTX is compiled (*out). */
bool interp_binary_kernel(Comp *c, Op *op, Op *bin, Attr *kernel, struct Kernel **out) {
  size_t n = 0;
  unsigned char *data = interp_binary_object(bin, &n);
  BeBlobKind k = data ? be_blob_kind(data, n) : BE_BLOB_OTHER;
  int pl = (int)kernel->u.sym.path[0].len, fl = (int)kernel->u.sym.path[1].len;
  const char *ps = kernel->u.sym.path[0].s, *fs = kernel->u.sym.path[1].s;
  if (k == BE_BLOB_PTX) {
    Attr *sym = ir_op_attr(bin, "sym_name");
    char name[300];
    if (sym && sym->kind == ATTR_STRING)
      snprintf(name, sizeof name, "@%.*s.ptx", (int)sym->u.str.len, sym->u.str.s);
    else
      snprintf(name, sizeof name, "@binary.ptx");
    *out = kernel_of_ptx(&c->in->host, op, name, (const char *)data, n, kernel->u.sym.path[1]);
    free(data);
    return *out != NULL;
  }
  free(data);
  if (k == BE_BLOB_CUBIN || k == BE_BLOB_FATBIN)
    ir_op_error(c->in->ctx, op, "@%.*s::@%.*s: kernel binary is a %s, which the simulator cannot run; %s", pl, ps, fl,
                fs, be_blob_kind_name(k), BE_BLOB_USE_PTX);
  else if (k == BE_BLOB_EMPTY)
    ir_op_error(c->in->ctx, op, "@%.*s::@%.*s: kernel binary is empty", pl, ps, fl, fs);
  else
    ir_op_error(c->in->ctx, op, "@%.*s::@%.*s: kernel binary (%s) is not PTX, which the simulator needs", pl, ps, fl,
                fs, be_blob_kind_name(k));
  c->in->errors++;
  return false;
}
