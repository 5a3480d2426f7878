/* verify_gpu.c - what mlir-opt 22's verifier checks of the gpu dialect's ops, in its words.
 *
 * verify.c calls ir_verify_gpu_op for every known gpu.* op, after the operand and result counts
 * and dominance; the op's regions are verified after it (only when it passed, as in MLIR).
 * Each op is checked in MLIR's order (parent and operand-count traits, then the generated
 * attribute and type constraints, then the op's own verifier, then its region verifier), and
 * the first failure is the only one reported for that op. verify.c also calls it for a
 * builtin.module, for what MLIR checks through the gpu.container_module attribute before it looks
 * inside the module: that each gpu.launch_func names a kernel of a gpu.module and passes it
 * operands of its parameter types (at any depth here, where MLIR looks only at the launches
 * directly in the module's functions). */
#include "ir/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct Check {
  IrCtx *ctx;
  Op *op;
} Check;

/* "'name' op ..." at the op, as emitOpError, and the message alone at an op, as emitError; each
 * gives 1, the error count. */
#define op_fail(c, ...) (ir_op_error((c)->ctx, (c)->op, __VA_ARGS__), 1u)
#define fail_at(c, op, ...) (ir_op_diag((c)->ctx, DIAG_ERROR, (op), __VA_ARGS__), 1u)

static void note_at(Check *c, const Op *op, const char *msg) { ir_op_diag(c->ctx, DIAG_NOTE, op, "%s", msg); }

static const char *ty(Check *c, const Type *t) { return ir_type_str(c->ctx, t); }

static bool named(const Op *op, const char *name) { return op && ir_str_eq(op->name, name); }

/* The dense i32 array operandSegmentSizes; its length in *n. */
static const int64_t *segment_sizes(const Op *op, uint32_t *n) {
  Attr *a = ir_op_attr(op, "operandSegmentSizes");
  if (!a || a->kind != ATTR_DENSE_ARRAY || !a->u.darr.ivals) {
    *n = 0;
    return NULL;
  }
  *n = a->u.darr.n;
  return a->u.darr.ivals;
}

/* AtLeastNOperands and AttrSizedOperandSegments. An array of another length than the op has
 * segments reads as all zeros, as MLIR 22's property conversion leaves it. */
static unsigned check_segments(Check *c, uint32_t at_least, uint32_t nseg) {
  Op *op = c->op;
  if (op->noperands < at_least)
    return op_fail(c, "expected %u or more operands, but found %u", at_least, op->noperands);
  uint32_t n;
  const int64_t *seg = segment_sizes(op, &n);
  if (!seg)
    return op_fail(c, "requires attribute 'operandSegmentSizes'");
  int64_t total = 0;
  for (uint32_t i = 0; n == nseg && i < n; i++) {
    if (seg[i] < 0)
      return op_fail(c, "'operandSegmentSizes' attribute cannot have negative elements");
    total += seg[i];
  }
  if (total != (int64_t)op->noperands)
    return op_fail(c, "operand count (%u) does not match with the total size (%lld) specified in attribute 'operandSegmentSizes'",
                   op->noperands, (long long)total);
  return 0;
}

/* "workgroup", "private", "global" for a #gpu.address_space<...> memory space, else NULL. */
static const char *address_space(const Type *t, char *buf, size_t cap) {
  if (t->kind != TY_MEMREF || !t->u.sh.memspace || t->u.sh.memspace->kind != ATTR_OPAQUE)
    return NULL;
  Str s = t->u.sh.memspace->u.str;
  static const char prefix[] = "#gpu.address_space<";
  size_t n = sizeof prefix - 1;
  if (s.len <= n + 1 || memcmp(s.s, prefix, n) || s.s[s.len - 1] != '>' || s.len - n - 1 >= cap)
    return NULL;
  memcpy(buf, s.s + n, s.len - n - 1);
  buf[s.len - n - 1] = 0;
  return buf;
}

/* verifyAttributions: memrefs, in the given space when it is a gpu address space. */
static unsigned check_attributions(Check *c, Block *b, uint32_t first, uint32_t n, const char *space) {
  for (uint32_t i = first; b && i < first + n && i < b->nargs; i++) {
    const Type *t = b->args[i].type;
    char buf[32];
    if (t->kind != TY_MEMREF || t->u.sh.unranked)
      return op_fail(c, "expected memref type in attribution");
    const char *s = address_space(t, buf, sizeof buf);
    if (s && strcmp(s, space))
      return op_fail(c, "expected memory space %s in attribution", space);
  }
  return 0;
}

static int64_t int_attr(const Op *op, const char *name, int64_t dflt) {
  Attr *a = ir_op_attr(op, name);
  return a && a->kind == ATTR_INT && !a->u.i.big ? a->u.i.v : dflt;
}

/* ---- gpu.launch, gpu.launch_func ------------------------------------------------------------ */

static unsigned check_launch(Check *c) {
  Op *op = c->op;
  unsigned e = check_segments(c, 6, 11);
  if (e)
    return e;
  const int64_t *seg;
  uint32_t nseg;
  seg = segment_sizes(op, &nseg);
  Block *body = op->nregions ? op->regions[0].first : NULL;
  if (!body)
    return 0;
  uint32_t config = seg[7] ? 18 : 12;
  int64_t nw = int_attr(op, "workgroup_attributions", 0);
  if ((int64_t)body->nargs < config + nw)
    return op_fail(c, "unexpected number of region arguments");
  if ((e = check_attributions(c, body, config, (uint32_t)nw, "workgroup")) ||
      (e = check_attributions(c, body, config + (uint32_t)nw, body->nargs - config - (uint32_t)nw, "private")))
    return e;
  for (Block *b = body; b; b = b->next) {
    Op *t = b->last;
    if (!t || t->nsuccs || named(t, "gpu.terminator"))
      continue;
    (void)fail_at(c, t, "expected 'gpu.terminator' or a terminator with successors");
    note_at(c, op, "in 'gpu.launch' body region");
    return 1;
  }
  return 0;
}

static bool is_function(const Op *op) {
  return named(op, "gpu.func") || named(op, "func.func") || named(op, "llvm.func");
}

static unsigned check_launch_func(Check *c) {
  Op *op = c->op;
  unsigned e = check_segments(c, 6, 13);
  if (e)
    return e;
  Attr *kernel = ir_op_attr(op, "kernel");
  if (!kernel)
    return op_fail(c, "requires attribute 'kernel'");
  Op *mod = ir_op_parent_op(op);
  while (mod && !named(mod, "builtin.module"))
    mod = ir_op_parent_op(mod);
  if (!mod)
    return op_fail(c, "expected to belong to a module");
  if (!ir_op_attr(mod, "gpu.container_module"))
    return op_fail(c, "expected the closest surrounding module to have the 'gpu.container_module' attribute");
  return 0;
}

/* What the gpu.container_module attribute checks of a launch_func in the module: that its
 * kernel is a kernel function of a gpu.module, taking operands of the types passed. */
static unsigned check_kernel_ref(Check *c, Op *mod) {
  Op *op = c->op;
  Attr *kernel = ir_op_attr(op, "kernel");
  uint32_t nseg;
  const int64_t *seg = segment_sizes(op, &nseg);
  if (!kernel || kernel->kind != ATTR_SYMREF || kernel->u.sym.n != 2 || !seg || nseg != 13)
    return 0; /* the op's own checks report it */
  Str cname = kernel->u.sym.path[0], fname = kernel->u.sym.path[1];
  Op *container = ir_symbol_lookup(mod, cname);
  if (!container)
    return op_fail(c, "kernel container '%.*s' is undefined", (int)cname.len, cname.s);
  if (named(container, "gpu.binary"))
    return 0; /* the kernels are in a binary: nothing to look up */
  if (!named(container, "gpu.module"))
    return op_fail(c, "kernel module '%.*s' is undefined", (int)cname.len, cname.s);
  Op *fn = ir_symbol_lookup(container, fname);
  if (!fn)
    return op_fail(c, "kernel function '@%.*s::@%.*s' is undefined", (int)cname.len, cname.s, (int)fname.len,
                   fname.s);
  if (!is_function(fn)) {
    (void)op_fail(c, "referenced kernel '@%.*s::@%.*s' is not a function", (int)cname.len, cname.s, (int)fname.len,
            fname.s);
    note_at(c, fn, "see the kernel definition here");
    return 1;
  }
  if (!ir_op_attr(fn, "gpu.kernel"))
    return op_fail(c, "kernel function is missing the 'gpu.kernel' attribute");
  Attr *ft = ir_op_attr(fn, "function_type");
  if (!named(fn, "gpu.func") || !ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC)
    return 0;
  int64_t first = 0;
  for (uint32_t i = 0; i < 11; i++)
    first += seg[i];
  int64_t nargs = seg[11];
  if (first + nargs + seg[12] != (int64_t)op->noperands)
    return 0;
  const Type *fty = ft->type;
  if (nargs != fty->u.fn.nin)
    return op_fail(c, "got %lld kernel operands but expected %u", (long long)nargs, fty->u.fn.nin);
  for (uint32_t i = 0; i < nargs; i++)
    if (op->operands[first + i]->type != fty->u.fn.in[i])
      return op_fail(c, "type of function argument %u does not match", i);
  return 0;
}

/* The launch_funcs of the module (not of modules nested in it), first to last. */
static unsigned check_launches_in(IrCtx *ctx, Op *mod, Region *r) {
  unsigned e = 0;
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      if (named(o, "builtin.module"))
        continue;
      if (named(o, "gpu.launch_func")) {
        Check c = {ctx, o};
        e += check_kernel_ref(&c, mod);
      }
      for (uint32_t i = 0; i < o->nregions; i++)
        e += check_launches_in(ctx, mod, &o->regions[i]);
    }
  return e;
}

/* ---- gpu.func, gpu.return ------------------------------------------------------------------- */

static unsigned check_launch_size_attr(Check *c, const char *name) {
  Attr *a = ir_op_attr(c->op, name);
  if (!a)
    return 0;
  if (a->kind != ATTR_DENSE_ARRAY || !ir_type_is_integer(a->type, 32))
    return op_fail(c, "%s must be a dense i32 array", name);
  if (a->u.darr.n != 3)
    return op_fail(c, "%s must contain exactly 3 elements", name);
  return 0;
}

static unsigned check_func(Check *c) {
  Op *op = c->op;
  if (!named(ir_op_parent_op(op), "gpu.module"))
    return op_fail(c, "expects parent op 'gpu.module'");
  Attr *ft = ir_op_attr(op, "function_type");
  if (!ft)
    return op_fail(c, "requires attribute 'function_type'");
  if (ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC)
    return op_fail(c, "attribute 'function_type' failed to satisfy constraint: type attribute of function type");
  const Type *fty = ft->type;
  unsigned e;
  if (ir_op_attr(op, "gpu.kernel") && fty->u.fn.nout)
    return op_fail(c, "expected void return type for kernel function");
  if ((e = check_launch_size_attr(c, "gpu.known_block_size")) || (e = check_launch_size_attr(c, "gpu.known_grid_size")))
    return e;
  Block *body = op->nregions ? op->regions[0].first : NULL;
  if (!body)
    return op_fail(c, "expected body with at least one block");
  /* MLIR reads the count as a 32-bit int */
  int64_t nw = (int32_t)(uint32_t)int_attr(op, "workgroup_attributions", 0);
  uint32_t nin = fty->u.fn.nin;
  if ((int64_t)body->nargs < nin + nw)
    return op_fail(c, "expected at least %lld arguments to body region", (long long)(nin + nw));
  if (nw < 0)
    return op_fail(c, "expected a count of workgroup attributions that is not negative, not %lld", (long long)nw);
  for (uint32_t i = 0; i < nin; i++)
    if (body->args[i].type != fty->u.fn.in[i])
      return op_fail(c, "expected body region argument #%u to be of type '%s', got '%s'", i, ty(c, fty->u.fn.in[i]),
                     ty(c, body->args[i].type));
  if ((e = check_attributions(c, body, nin, (uint32_t)nw, "workgroup")))
    return e;
  return check_attributions(c, body, nin + (uint32_t)nw, body->nargs - nin - (uint32_t)nw, "private");
}

static unsigned check_return(Check *c) {
  Op *op = c->op, *fn = ir_op_parent_op(op);
  if (!named(fn, "gpu.func"))
    return 0;
  Attr *ft = ir_op_attr(fn, "function_type");
  if (!ft || ft->kind != ATTR_TYPE || ft->type->kind != TY_FUNC)
    return 0;
  const Type *fty = ft->type;
  if (fty->u.fn.nout != op->noperands) {
    (void)op_fail(c, "expected %u result operands", fty->u.fn.nout);
    note_at(c, fn, "return type declared here");
    return 1;
  }
  for (uint32_t i = 0; i < op->noperands; i++)
    if (op->operands[i]->type != fty->u.fn.out[i])
      return op_fail(c, "unexpected type `'%s'' for operand #%u", ty(c, op->operands[i]->type), i);
  return 0;
}

/* ---- Reductions and shuffles ---------------------------------------------------------------- */

/* The kind of a #gpu<all_reduce_op KIND> attribute, in buf, or NULL. */
static const char *reduce_kind(const Attr *a, char *buf, size_t cap) {
  static const char prefix[] = "#gpu<all_reduce_op ";
  size_t n = sizeof prefix - 1;
  if (!a || a->kind != ATTR_OPAQUE || a->u.str.len <= n + 1 || memcmp(a->u.str.s, prefix, n) ||
      a->u.str.len - n - 1 >= cap)
    return NULL;
  memcpy(buf, a->u.str.s + n, a->u.str.len - n - 1);
  buf[a->u.str.len - n - 1] = 0;
  return buf;
}

/* verifyReduceOpAndType: float kinds want a float, integer kinds a (non-index) integer. */
static bool reduce_fits(const char *kind, const Type *t) {
  static const char *const fkinds[] = {"minnumf", "maxnumf", "minimumf", "maximumf", NULL};
  static const char *const ikinds[] = {"minsi", "minui", "maxsi", "maxui", "and", "or", "xor", NULL};
  for (const char *const *k = fkinds; *k; k++)
    if (!strcmp(kind, *k))
      return t->kind == TY_FLOAT;
  for (const char *const *k = ikinds; *k; k++)
    if (!strcmp(kind, *k))
      return t->kind == TY_INT;
  return true;
}

static unsigned check_all_reduce(Check *c) {
  Op *op = c->op;
  if (op->nresults != 1)
    return 0;
  Attr *kind = ir_op_attr(op, "op");
  Region *r = op->nregions ? &op->regions[0] : NULL;
  bool empty = !r || !r->first;
  if (empty == !kind)
    return fail_at(c, op, "expected either an op attribute or a non-empty body");
  Type *t = op->results[0].type;
  if (empty) {
    char buf[32];
    const char *k = reduce_kind(kind, buf, sizeof buf);
    if (k && !reduce_fits(k, t))
      return fail_at(c, op, "`%s` reduction operation is not compatible with type '%s'", k, ty(c, t));
    return 0;
  }
  Block *b = r->first;
  if (b->nargs != 2)
    return fail_at(c, op, "expected two region arguments");
  for (uint32_t i = 0; i < 2; i++)
    if (b->args[i].type != t)
      return fail_at(c, op, "incorrect region argument type");
  unsigned yields = 0;
  for (; b; b = b->next) {
    Op *y = b->last;
    if (!named(y, "gpu.yield"))
      continue;
    if (y->noperands != 1)
      return fail_at(c, op, "expected one gpu.yield operand");
    if (y->operands[0]->type != t)
      return fail_at(c, op, "incorrect gpu.yield type");
    yields++;
  }
  if (!yields)
    return fail_at(c, op, "expected gpu.yield op in region");
  return 0;
}

static unsigned check_subgroup_reduce(Check *c) {
  Op *op = c->op;
  if (op->nresults != 1)
    return 0;
  Type *t = op->results[0].type, *elem = t;
  if (t->kind == TY_VECTOR) {
    for (uint32_t i = 0; i < t->u.sh.rank; i++)
      if (t->u.sh.scalable && t->u.sh.scalable[i])
        return op_fail(c, "is not compatible with scalable vector types");
    elem = t->u.sh.elem;
  }
  char buf[32];
  const char *k = reduce_kind(ir_op_attr(op, "op"), buf, sizeof buf);
  if (k && !reduce_fits(k, elem))
    return fail_at(c, op, "`%s` reduction operation is not compatible with type '%s'", k, ty(c, t));
  /* i32 attributes, compared as MLIR's uint32_t */
  const Attr *size = ir_op_attr(op, "cluster_size"), *stride = ir_op_attr(op, "cluster_stride");
  uint32_t sz = size && size->kind == ATTR_INT ? (uint32_t)size->u.i.v : 0;
  uint32_t st = stride && stride->kind == ATTR_INT ? (uint32_t)stride->u.i.v : 1;
  if (size && size->kind == ATTR_INT && (sz & (sz - 1) || !sz))
    return op_fail(c, "cluster size %u is not a power of two", sz);
  if (st != 1 && !size)
    return op_fail(c, "cluster stride can only be specified if cluster size is specified");
  if (st & (st - 1) || !st)
    return op_fail(c, "cluster stride %u is not a power of two", st);
  return 0;
}

/* Integer or Float or fixed-length vector of Integer or Float values of ranks 1 */
static bool shuffle_value_type(const Type *t) {
  if (t->kind == TY_VECTOR)
    return t->u.sh.rank == 1 && !(t->u.sh.scalable && t->u.sh.scalable[0]) &&
           (t->u.sh.elem->kind == TY_INT || t->u.sh.elem->kind == TY_FLOAT);
  return t->kind == TY_INT || t->kind == TY_FLOAT;
}

static unsigned check_shuffle(Check *c) {
  Op *op = c->op;
  if (op->noperands != 3 || op->nresults != 2)
    return 0;
  const Type *v = op->operands[0]->type;
  if (!shuffle_value_type(v))
    return op_fail(c, "operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got '%s'",
                   ty(c, v));
  for (uint32_t i = 1; i < 3; i++)
    if (!ir_type_is_integer(op->operands[i]->type, 32))
      return op_fail(c, "operand #%u must be 32-bit signless integer, but got '%s'", i, ty(c, op->operands[i]->type));
  if (!shuffle_value_type(op->results[0].type))
    return op_fail(c, "result #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got '%s'",
                   ty(c, op->results[0].type));
  if (!ir_type_is_integer(op->results[1].type, 1))
    return op_fail(c, "result #1 must be 1-bit signless integer, but got '%s'", ty(c, op->results[1].type));
  if (op->results[0].type != v)
    return op_fail(c, "failed to verify that all of {value, shuffleResult} have same type");
  return 0;
}

/* ---- Host memory ops ------------------------------------------------------------------------ */

/* Symbols of a memref layout: those of an affine map, or the dynamic strides and offset of a
 * strided layout (which MLIR's map for it has as symbols). */
static uint32_t layout_symbols(const Attr *layout) {
  if (!layout)
    return 0;
  uint32_t n = 0;
  if (layout->kind == ATTR_STRIDED) {
    for (uint32_t i = 0; i < layout->u.strided.n; i++)
      n += layout->u.strided.strides[i] == IR_DYNAMIC;
    return n + (layout->u.strided.has_offset && layout->u.strided.offset == IR_DYNAMIC);
  }
  if (layout->kind != ATTR_AFFINE_MAP)
    return 0;
  const char *s = layout->u.str.s, *end = s + layout->u.str.len;
  const char *close = memchr(s, ')', (size_t)(end - s));
  if (!close || close + 1 >= end || close[1] != '[')
    return 0;
  for (const char *q = close + 2; q < end && *q != ']'; q++)
    if (*q != ' ' && (q == close + 2 || q[-1] == ',' || q[-1] == ' ') && *q != ',')
      n++;
  return n;
}

static unsigned check_alloc(Check *c) {
  Op *op = c->op;
  uint32_t nseg;
  const int64_t *seg = segment_sizes(op, &nseg);
  if (!seg || nseg != 3 || !op->nresults)
    return 0;
  const Type *t = op->results[0].type;
  if (t->kind != TY_MEMREF || t->u.sh.unranked)
    return op_fail(c, "result #0 must be memref of any type values, but got '%s'", ty(c, t));
  uint32_t ndyn = 0;
  for (uint32_t i = 0; i < t->u.sh.rank; i++)
    ndyn += t->u.sh.shape[i] == IR_DYNAMIC;
  if (seg[1] != ndyn)
    return op_fail(c, "incorrect number of dynamic sizes, has %lld, expected %u", (long long)seg[1], ndyn);
  if (seg[2] != layout_symbols(t->u.sh.layout))
    return op_fail(c, "symbol operand count does not equal memref symbol count");
  return 0;
}

static const Type *elem_of(const Type *t) {
  return t->kind == TY_MEMREF || t->kind == TY_UNRANKED_MEMREF ? t->u.sh.elem : t;
}

/* verifyCompatibleShape: equal ranks, and equal extents where both are static. */
static bool shapes_compatible(const Type *a, const Type *b) {
  if (a->kind != TY_MEMREF || b->kind != TY_MEMREF || a->u.sh.unranked || b->u.sh.unranked)
    return true;
  return ir_shapes_compatible(a, b);
}

static unsigned check_memcpy(Check *c) {
  Op *op = c->op;
  if (op->noperands < 2)
    return 0;
  const Type *dst = op->operands[op->noperands - 2]->type, *src = op->operands[op->noperands - 1]->type;
  if (elem_of(dst) != elem_of(src))
    return op_fail(c, "arguments have incompatible element type");
  if (!shapes_compatible(dst, src))
    return op_fail(c, "arguments have incompatible shape");
  return 0;
}

static unsigned check_memset(Check *c) {
  Op *op = c->op;
  if (op->noperands < 2)
    return 0;
  const Type *dst = op->operands[op->noperands - 2]->type, *val = op->operands[op->noperands - 1]->type;
  if (elem_of(dst) != val)
    return op_fail(c, "failed to verify that all of {dst, value} have same element type");
  return 0;
}

static unsigned check_host_register(Check *c) {
  if (c->op->noperands != 1)
    return 0;
  const Type *t = c->op->operands[0]->type;
  if (t->kind != TY_UNRANKED_MEMREF)
    return op_fail(c, "operand #0 must be unranked.memref of any type values, but got '%s'", ty(c, t));
  return 0;
}

static unsigned check_dynamic_shared_memory(Check *c) {
  if (c->op->nresults != 1)
    return 0;
  const Type *t = c->op->results[0].type;
  char buf[32];
  if (t->kind != TY_MEMREF || t->u.sh.unranked || t->u.sh.rank != 1 || !ir_type_is_integer(t->u.sh.elem, 8))
    return op_fail(c, "result #0 must be 1D memref of 8-bit signless integer values, but got '%s'", ty(c, t));
  const char *s = address_space(t, buf, sizeof buf);
  if (!s || strcmp(s, "workgroup"))
    return op_fail(c, "address space must be address_space<workgroup>");
  if (t->u.sh.shape[0] != IR_DYNAMIC)
    return op_fail(c, "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>");
  return 0;
}

/* ---- Containers ----------------------------------------------------------------------------- */

/* An array of at least one attribute of a dialect's kind (#nvvm.target<...>, #gpu.object<...>). */
static bool attr_array_of(const Attr *a, bool (*fits)(Str)) {
  if (!a || a->kind != ATTR_ARRAY || !a->u.arr.n)
    return false;
  for (uint32_t i = 0; i < a->u.arr.n; i++)
    if (a->u.arr.elems[i]->kind != ATTR_OPAQUE || !fits(a->u.arr.elems[i]->u.str))
      return false;
  return true;
}

static bool has_prefix(Str s, const char *p) { return s.len >= strlen(p) && !memcmp(s.s, p, strlen(p)); }

static bool is_target(Str s) {
  return has_prefix(s, "#nvvm.target") || has_prefix(s, "#rocdl.target") || has_prefix(s, "#xevm.target") ||
         has_prefix(s, "#spirv.target_env") || has_prefix(s, "#gpu.");
}

static bool is_object(Str s) { return has_prefix(s, "#gpu.object"); }

static unsigned check_module(Check *c) {
  Attr *targets = ir_op_attr(c->op, "targets");
  if (targets && !attr_array_of(targets, is_target))
    return op_fail(c, "attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements");
  return 0;
}

static unsigned check_binary(Check *c) {
  Attr *objects = ir_op_attr(c->op, "objects"), *handler = ir_op_attr(c->op, "offloadingHandler");
  if (!objects)
    return op_fail(c, "requires attribute 'objects'");
  if (!attr_array_of(objects, is_object))
    return op_fail(c, "attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements");
  if (handler && handler->kind != ATTR_OPAQUE)
    return op_fail(c, "attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.");
  return 0;
}

/* One line per op: name, then its checker. */
static const struct {
  const char *name;
  unsigned (*check)(Check *c);
} checks[] = {
    {"gpu.launch", check_launch},
    {"gpu.launch_func", check_launch_func},
    {"gpu.func", check_func},
    {"gpu.return", check_return},
    {"gpu.all_reduce", check_all_reduce},
    {"gpu.subgroup_reduce", check_subgroup_reduce},
    {"gpu.shuffle", check_shuffle},
    {"gpu.alloc", check_alloc},
    {"gpu.memcpy", check_memcpy},
    {"gpu.memset", check_memset},
    {"gpu.host_register", check_host_register},
    {"gpu.host_unregister", check_host_register},
    {"gpu.dynamic_shared_memory", check_dynamic_shared_memory},
    {"gpu.module", check_module},
    {"gpu.binary", check_binary},
};

unsigned ir_verify_gpu_op(IrCtx *ctx, Op *op) {
  if (named(op, "builtin.module")) {
    if (!ir_op_attr(op, "gpu.container_module"))
      return 0;
    unsigned e = 0;
    for (uint32_t i = 0; i < op->nregions; i++)
      e += check_launches_in(ctx, op, &op->regions[i]);
    return e;
  }
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
    if (ir_str_eq(op->name, checks[i].name)) {
      Check c = {ctx, op};
      return checks[i].check(&c);
    }
  return 0;
}
