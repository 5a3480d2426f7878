/* outline.c - gpu.launch bodies outlined into kernels, as MLIR's gpu-kernel-outlining does.
 *
 * Each `gpu.launch` of the host code becomes a `gpu.launch_func` of a new `gpu.func ... kernel`
 * in a new `gpu.module`, both named after the enclosing function (`@main_kernel::@main_kernel`,
 * or what the launch's `module`/`function` attributes say), placed at the end of the module. As
 * upstream's symbol table does, a module name in use gets `_0`, `_1`, ... (`@main_kernel_0::
 * @main_kernel`), and a kernel going into a module another launch named is renamed so in it. The
 * body's blocks move into the kernel unchanged: its twelve id and size arguments become
 * `gpu.block_id`, `gpu.thread_id`, `gpu.grid_dim` and `gpu.block_dim` ops at the top of the
 * kernel, every value of the host that the body uses becomes a kernel argument (in the order
 * upstream's outliner takes them: first uses in a post-order walk of the body, an op's nested
 * regions before its own operands), its workgroup and private attributions become the kernel's,
 * and `gpu.terminator` becomes `gpu.return`. The launch keeps its dependencies, sizes,
 * dynamic shared memory size and token, and every op made carries the launch's location.
 *
 * Not outlined (a located error): cluster sizes. */
#include "lower/lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A set of pointers in insertion order (values captured, launches found): small, so a scan. */
typedef struct Ptrs {
  void **v;
  uint32_t n, cap;
} Ptrs;

static void ptrs_add(Ptrs *vs, void *v) {
  for (uint32_t i = 0; i < vs->n; i++)
    if (vs->v[i] == v)
      return;
  if (vs->n == vs->cap) {
    vs->cap = vs->cap ? 2 * vs->cap : 16;
    if (!(vs->v = realloc(vs->v, vs->cap * sizeof *vs->v)))
      abort();
  }
  vs->v[vs->n++] = v;
}

/* Whether v is defined inside region r (at any depth). */
static bool defined_in(const Value *v, const Region *r) {
  const Block *b = v->def ? v->def->parent : v->block;
  while (b) {
    if (b->parent == r)
      return true;
    const Op *owner = b->parent ? b->parent->parent : NULL;
    b = owner ? owner->parent : NULL;
  }
  return false;
}

/* The values of r's ops defined outside outer, in upstream's order (getUsedValuesDefinedAbove: a
 * post-order walk, so an op's regions come before its own operands). */
static void captured(Region *outer, Region *r, Ptrs *out) {
  for (Block *b = r->first; b; b = b->next)
    for (Op *o = b->first; o; o = o->next) {
      for (uint32_t k = 0; k < o->nregions; k++)
        captured(outer, &o->regions[k], out);
      for (uint32_t i = 0; i < o->noperands; i++)
        if (!defined_in(o->operands[i], outer))
          ptrs_add(out, o->operands[i]);
    }
}

static bool inside(const Op *op, const Region *r) {
  for (const Op *o = op; o; o = ir_op_parent_op(o))
    if (o->parent && o->parent->parent == r)
      return true;
  return false;
}

static Attr *dict(IrCtx *ctx, const char *name, Attr *v) {
  NamedAttr e = {ir_intern_cstr(ctx, name), v};
  return ir_attr_dict(ctx, &e, 1);
}

/* A symbol name not yet used at the top of module: base, else base_0, base_1, ... (as upstream's
 * symbol table renames) */
static Str fresh_symbol(IrCtx *ctx, Op *module, const char *base) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", base);
  for (unsigned k = 0; ir_symbol_lookup(module, ir_intern_cstr(ctx, buf)); k++)
    snprintf(buf, sizeof buf, "%s_%u", base, k);
  return ir_intern_cstr(ctx, buf);
}

static const char *sym_of(const Op *op) {
  Attr *a = ir_op_attr(op, "sym_name");
  return a && a->kind == ATTR_STRING ? a->u.str.s : "kernel";
}

/* Outlines launch, an op of the top-level function fn; the gpu.launch_func made, or NULL after an
 * error. */
static Op *outline(IrCtx *ctx, Op *module, Op *fn, Op *launch) {
  Attr *seg = ir_op_attr(launch, "operandSegmentSizes");
  if (!seg || seg->kind != ATTR_DENSE_ARRAY || seg->u.darr.n != 11) {
    ir_op_error(ctx, launch, "cannot outline a gpu.launch without its 11 operand segments");
    return NULL;
  }
  const int64_t *sg = seg->u.darr.ivals;
  Region *body = &launch->regions[0];
  Block *entry = body->first;
  Attr *wa = ir_op_attr(launch, "workgroup_attributions");
  int64_t nw = wa && wa->kind == ATTR_INT ? wa->u.i.v : 0;
  if (sg[7]) {
    ir_op_error(ctx, launch, "cannot outline a gpu.launch with cluster sizes yet");
    return NULL;
  }
  if (!entry || nw < 0 || entry->nargs < 12 + (uint64_t)nw) {
    ir_op_error(ctx, launch, "cannot outline a gpu.launch whose body does not take its 12 ids and sizes and "
                             "its attributions");
    return NULL;
  }
  uint32_t nattr = entry->nargs - 12; /* workgroup, then private attributions */
  Loc *loc = launch->loc;
  /* names: the launch's own module/function attributes, else <function>_kernel */
  char base[200];
  snprintf(base, sizeof base, "%s_kernel", sym_of(fn));
  Attr *ma = ir_op_attr(launch, "module"), *fa = ir_op_attr(launch, "function");
  Str fn_name = fa && fa->kind == ATTR_SYMREF ? fa->u.sym.path[0] : ir_intern_cstr(ctx, base);
  char mbase[200];
  snprintf(mbase, sizeof mbase, "%.*s", (int)fn_name.len, fn_name.s);
  Str mod_name = ma && ma->kind == ATTR_SYMREF ? ma->u.sym.path[0] : fresh_symbol(ctx, module, mbase);
  /* a module the launch names that is there already (another launch's): the kernel goes into it,
   * renamed if its name is taken there, as upstream's symbol table does */
  Op *into = ma && ma->kind == ATTR_SYMREF ? ir_symbol_lookup(module, mod_name) : NULL;
  if (into && (!ir_str_eq(into->name, "gpu.module") || into->nregions != 1 || !into->regions[0].first)) {
    ir_op_error(ctx, launch, "cannot outline into @%.*s: the module has a symbol of that name that is not a gpu.module",
                (int)mod_name.len, mod_name.s);
    return NULL;
  }
  if (into) {
    char fbase[200];
    snprintf(fbase, sizeof fbase, "%.*s", (int)fn_name.len, fn_name.s);
    fn_name = fresh_symbol(ctx, into, fbase);
  }

  Ptrs caps = {0};
  captured(body, body, &caps);

  /* the kernel: the body's blocks, with the host values it uses as its arguments */
  Type **ptypes = ir_alloc(ctx, (caps.n + 1) * sizeof *ptypes);
  for (uint32_t i = 0; i < caps.n; i++)
    ptypes[i] = ((Value *)caps.v[i])->type;
  Type *ft = ir_type_func(ctx, ptypes, caps.n, NULL, 0);
  Op *kfn = ir_op_new(ctx, "gpu.func", loc, NULL, 0, NULL, 0,
                      dict(ctx, "function_type", ir_attr_type(ctx, ft)), 1);
  NamedAttr ka[3] = {
      {ir_intern_cstr(ctx, "gpu.kernel"), ir_attr_unit(ctx)},
      {ir_intern_cstr(ctx, "sym_name"), ir_attr_string(ctx, fn_name.s, fn_name.len)},
      {ir_intern_cstr(ctx, "workgroup_attributions"),
       ir_attr_int(ctx, ir_type_int(ctx, 64, SIGNLESS), nw)},
  };
  kfn->attrs = ir_attr_dict(ctx, ka, 3);
  Region *kr = &kfn->regions[0];
  kr->first = body->first;
  kr->last = body->last;
  body->first = body->last = NULL;
  for (Block *b = kr->first; b; b = b->next)
    b->parent = kr;

  /* ids and sizes: ops at the top of the kernel, in the order of the body's arguments */
  static const char *const id_ops[4] = {"gpu.block_id", "gpu.thread_id", "gpu.grid_dim",
                                        "gpu.block_dim"};
  static const char *const dims[3] = {"#gpu<dim x>", "#gpu<dim y>", "#gpu<dim z>"};
  Type *index = ir_type_index(ctx);
  Op *first = entry->first;
  for (uint32_t i = 0; i < 12; i++) {
    Op *id = ir_op_new(ctx, id_ops[i / 3], loc, NULL, 0, &index, 1,
                       dict(ctx, "dimension", ir_attr_opaque(ctx, dims[i % 3])), 0);
    if (first)
      ir_op_insert_before(first, id);
    else
      ir_block_push_back(entry, id);
    ir_value_replace_uses(&entry->args[i], &id->results[0]);
  }
  /* the captured values, then the attributions, as the entry block's arguments */
  Value *params = ir_alloc(ctx, (caps.n + nattr + 1) * sizeof *params);
  for (uint32_t i = 0; i < nattr; i++) {
    Value *a = &params[caps.n + i];
    *a = entry->args[12 + i];
    a->uses = NULL;
    a->index = caps.n + i;
    ir_value_replace_uses(&entry->args[12 + i], a);
  }
  for (uint32_t i = 0; i < caps.n; i++) {
    Value *cap = caps.v[i];
    params[i].type = cap->type;
    params[i].block = entry;
    params[i].index = i;
    params[i].loc = loc;
    for (Use *u = cap->uses, *next; u; u = next) {
      next = u->next;
      if (inside(u->user, kr))
        ir_op_set_operand(u->user, u->index, &params[i]);
    }
  }
  entry->args = params;
  entry->nargs = caps.n + nattr;
  for (Block *b = kr->first; b; b = b->next)
    if (b->last && ir_str_eq(b->last->name, "gpu.terminator")) {
      Op *ret = ir_op_new(ctx, "gpu.return", b->last->loc, NULL, 0, NULL, 0, NULL, 0);
      Op *term = b->last;
      ir_op_insert_before(term, ret);
      ir_op_erase(term);
    }

  if (into) {
    ir_block_push_back(into->regions[0].first, kfn);
  } else {
    Op *gmod = ir_op_new(ctx, "gpu.module", loc, NULL, 0, NULL, 0,
                         dict(ctx, "sym_name", ir_attr_string(ctx, mod_name.s, mod_name.len)), 1);
    Block *gb = ir_alloc(ctx, sizeof *gb);
    gb->parent = &gmod->regions[0];
    gmod->regions[0].first = gmod->regions[0].last = gb;
    ir_block_push_back(gb, kfn);
    ir_block_push_back(module->regions[0].first, gmod);
  }

  /* the launch: deps, grid, block, shared memory size as before; the captured values as args */
  uint32_t nfixed = launch->noperands;
  uint32_t nops = nfixed + caps.n;
  Value **ops = ir_alloc(ctx, (nops + 1) * sizeof *ops);
  memcpy(ops, launch->operands, nfixed * sizeof *ops);
  if (caps.n)
    memcpy(ops + nfixed, caps.v, caps.n * sizeof *ops);
  int64_t segs[13] = {sg[0], sg[1], sg[2], sg[3], sg[4], sg[5], sg[6], 0, 0, 0, sg[10], caps.n, 0};
  Str path[2] = {mod_name, fn_name};
  NamedAttr la[2] = {
      {ir_intern_cstr(ctx, "kernel"), ir_attr_symref(ctx, path, 2)},
      {ir_intern_cstr(ctx, "operandSegmentSizes"), ir_attr_dense_i32(ctx, segs, 13)},
  };
  Type *tok = launch->nresults ? launch->results[0].type : NULL;
  Op *lf = ir_op_new(ctx, "gpu.launch_func", loc, ops, nops, &tok, tok ? 1 : 0,
                     ir_attr_dict(ctx, la, 2), 0);
  ir_op_insert_before(launch, lf);
  if (tok)
    ir_value_replace_uses(&launch->results[0], &lf->results[0]);
  ir_op_erase(launch);
  free(caps.v);
  return lf;
}

static void find_launches(Op *op, Ptrs *out) {
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next) {
        if (ir_str_eq(o->name, "gpu.launch"))
          ptrs_add(out, o);
        else if (!ir_str_eq(o->name, "gpu.module"))
          find_launches(o, out);
      }
}

static void mark_container(IrCtx *ctx, Op *module) {
  if (!ir_op_attr(module, "gpu.container_module"))
    module->attrs = ir_dict_set(ctx, module->attrs, ir_intern_cstr(ctx, "gpu.container_module"),
                                ir_attr_unit(ctx));
}

Op *lower_outline_launch(IrCtx *ctx, Op *module, Op *launch) {
  Op *fn = launch;
  while (fn && ir_op_parent_op(fn) != module)
    fn = ir_op_parent_op(fn);
  if (!fn || fn == launch || ir_str_eq(fn->name, "gpu.module")) {
    ir_op_error(ctx, launch, "cannot outline a gpu.launch that is not in a function of the module");
    return NULL;
  }
  Op *lf = outline(ctx, module, fn, launch);
  if (lf)
    mark_container(ctx, module);
  return lf;
}

unsigned lower_outline(IrCtx *ctx, Op *module) {
  unsigned errors = 0;
  Block *top = module->regions[0].first;
  Op *last = top ? top->last : NULL;
  for (Op *fn = top ? top->first : NULL; fn; fn = fn == last ? NULL : fn->next) {
    if (ir_str_eq(fn->name, "gpu.module"))
      continue;
    Ptrs launches = {0};
    find_launches(fn, &launches);
    for (uint32_t i = 0; i < launches.n; i++)
      if (!outline(ctx, module, fn, launches.v[i]))
        errors++;
    free(launches.v);
  }
  if (!errors && last != (top ? top->last : NULL))
    mark_container(ctx, module);
  return errors;
}
