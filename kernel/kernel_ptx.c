/* kernel_ptx.c - PTX kernels: a `.entry` of a gpu.binary's PTX text (ptx/ reads it) compiled into
 * the kernel engine's executable form (kernel.h), so that it runs like a gpu.func: one KIns per PTX
 * instruction, run for all threads of a block at once, with the engine's masks, reconvergence,
 * barriers, bounds checks and race recording. This file is the compiler's driver: the compile state
 * (PComp), diagnostics, the module's .global and .const variables, a body's blocks and the order
 * they run in, and the entry points of kernel.h (kernel_ptx_load, kernel_of_ptx, kernel_ptx_bind,
 * kernel_ptx_params). The rest lies by idea in the ptx_*.c files, which share ptx_internal.h:
 *
 *   ptx_ins.c     what the instructions do: operands, guards and branches, moves, compares, integer,
 *                 float, half, bit and conversion arithmetic, warp-level instructions, bar.sync
 *   ptx_lower.c   compiling one instruction: operands, modifiers, each family's checks
 *   ptx_mem.c     loads, stores and atomics: access checks, shaped global accesses, accesses through
 *                 affine address registers, guards at a cut, loads taking turns along rows,
 *                 fused streams (two loads, an f32 op and a store in one pass)
 *   ptx_macc.c    multiply-accumulate steps (two loads, an f32 mul and add in one pass)
 *   ptx_affine.c  uniform and affine registers, the once-per-frame instructions, branches over one
 *                 block, and the analyses that find them
 *   ptx_async.c   cp.async, cp.async.bulk, mbarriers and named barriers
 *   ptx_calls.c   calls: inlining a .func, indirect calls, vprintf and __assertfail
 *
 * Registers. PTX registers are mutable, so each gets fixed words: one varying column (a word per
 * thread) per register, numbered as the front end numbers them. A column holds the register's
 * bits zero-extended from its declared width (a predicate is 0 or 1; an f32 its IEEE bits); every
 * write masks to that width. A .v2/.v4 vector register has a column per component. Halves (f16,
 * bf16) are 16-bit values, pairs (f16x2, bf16x2) two in a word, the first in its low half; their
 * arithmetic and every float conversion round by kernel_fp.c, bit for bit. The carry flag of the
 * carry chain (add.cc, addc, ...) is one more column, made when an instruction first uses it.
 * Parameters are the kernel's inputs, one uniform word each, read by ld.param as the bytes of the
 * host's value.
 *
 * Control flow. The body is cut into basic blocks at labels and after branches, ret and exit;
 * the function runs as a multi-block region of the engine (kernel_cfg.c, run_cfg): each thread has a
 * next block and the lowest block any thread waits for runs next, under the threads waiting
 * there, which reconverges threads at the first block they share. `bra` sets the active threads'
 * next block, `@p bra` each thread's by its predicate, `ret` and `exit` end the thread; a block
 * that ends without one goes on to the next. Any other instruction under a guard `@p` / `@!p`
 * runs under the active mask narrowed to the threads whose predicate holds (ptx_x_guard).
 *
 * Memory: see ptx_mem.c. The module's .global and .const variables are one block of host memory
 * per gpu.binary, filled with their initializers and registered with the device (be_mem_register,
 * unregistered at the end with the program's registrations), so that their accesses are device
 * accesses like the others.
 *
 * Diagnostics. The PTX text is kept as a source buffer named "@BINARY.ptx", and each instruction
 * has an op of its own located there (named as written, e.g. 'ld.global.f32'), so that runtime
 * errors and races are reported at the instruction with the thread and block, as the gpu.func
 * form reports them; an instruction or modifier the engine does not run is a compile error at its
 * place, naming it, with a note at the launch. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* ---- compiling ---------------------------------------------------------------------------------- */

bool ptx_perr(PComp *pc, uint32_t line, uint32_t col, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  IrCtx *ctx = pc->h->ctx;
  ir_diag(ctx, DIAG_ERROR, ptx_loc(pc, line, col), "%s", msg);
  if (pc->site)
    ir_diag(ctx, DIAG_NOTE, ir_op_loc(pc->site), "in the kernel launched here");
  pc->h->errors++;
  pc->failed = true;
  return false;
}

bool ptx_unsupported(PComp *pc, const char *what) {
  char name[160];
  insn_name(pc->insn, name, sizeof name);
  if (what)
    return ptx_perr(pc, pc->insn->line, pc->insn->col, "'%s': %s is not supported by the PTX kernel engine yet", name,
                    what);
  return ptx_perr(pc, pc->insn->line, pc->insn->col, "'%s' is not supported by the PTX kernel engine yet", name);
}

/* A .local (local) or .param variable of the function's body in scope: its offset in each thread's
 * private memory. A .func's parameters and returns are .param variables of its caller's. */
bool ptx_body_var(PComp *pc, const char *name, bool local, size_t *off) {
  const PInst *in = pc->inst;
  for (uint32_t i = pc->nbinds; in && i-- > in->bind0;)
    if (pc->binds[i].name == name && pc->binds[i].local == local) {
      *off = pc->binds[i].off;
      return true;
    }
  if (local || !in || in->fn->entry)
    return false;
  for (uint32_t i = 0; i < in->fn->sig.nparams; i++)
    if (in->fn->sig.params[i].name == name)
      return *off = in->arg_off[i], true;
  for (uint32_t i = 0; i < in->fn->sig.nrets; i++)
    if (in->fn->sig.rets[i].name == name)
      return *off = in->ret_off[i], true;
  return false;
}

const PtxVar *ptx_shared_var(PComp *pc, const char *name, size_t *off) {
  for (uint32_t i = 0; i < pc->nsvars; i++)
    if (pc->svars[i]->name == name) {
      *off = pc->svars[i]->unsized ? pc->dyn_off : pc->soff[i];
      return pc->svars[i];
    }
  return NULL;
}

/* ---- module variables (.global, .const) ---------------------------------------------------------- */

static bool var_bytes(const PtxVar *v, uint64_t *bytes, uint64_t *esize) {
  *esize = ptx_type_bits((PtxType)v->type) / 8;
  uint64_t n = v->vec ? v->vec : 1;
  for (uint32_t d = 0; d < v->ndims; d++)
    if (__builtin_mul_overflow(n, v->dims[d], &n))
      return false;
  return *esize && !__builtin_mul_overflow(n, *esize, bytes) && *bytes && *bytes <= (UINT64_C(1) << 30);
}

/* A function's address (for indirect calls): an address no memory has, FN_BASE + 16 * its place
 * among the module's declarations, the same in every kernel of the binary. */
#define FN_BASE UINT64_C(0xfff0000000000000)

bool ptx_func_addr(const PtxModule *m, const char *name, uint64_t *addr) {
  for (uint32_t i = 0; i < m->ndecls; i++)
    if (m->decls[i].kind == PTX_DECL_FUNC && !m->decls[i].func->entry && !strcmp(m->decls[i].func->name, name)) {
      *addr = FN_BASE + 16 * (uint64_t)i;
      return true;
    }
  return false;
}

static bool is_module_var(const PtxVar *v) { return v->space == PTX_SPACE_GLOBAL || v->space == PTX_SPACE_CONST; }

static const PGlobals *module_globals(PComp *pc) {
  IrCtx *ctx = pc->h->ctx;
  uint32_t any = 0;
  for (uint32_t i = 0; i < pc->m->ndecls; i++)
    any += pc->m->decls[i].kind == PTX_DECL_VAR && is_module_var(pc->m->decls[i].var);
  if (!any)
    return NULL;
  const PtxModule *m = pc->m;
  PGlobals *g = ir_alloc(ctx, sizeof *g);
  g->names = ir_alloc(ctx, any * sizeof *g->names);
  g->off = ir_alloc(ctx, any * sizeof *g->off);
  uint64_t total = 0;
  for (uint32_t i = 0; i < m->ndecls; i++) {
    const PtxVar *v = m->decls[i].var;
    uint64_t bytes, esize;
    if (m->decls[i].kind != PTX_DECL_VAR || !is_module_var(v))
      continue;
    if (v->linkage == PTX_LINK_EXTERN || v->unsized)
      return ptx_perr(pc, v->line, v->col, "an %s .%s variable is not supported by the PTX kernel engine yet",
                      v->unsized ? "unsized" : "external", ptx_space_name((PtxSpace)v->space)),
             NULL;
    if (!var_bytes(v, &bytes, &esize))
      return ptx_perr(pc, v->line, v->col, "the size of '%s' is not supported by the PTX kernel engine", v->name), NULL;
    g->names[g->n] = ir_intern_cstr(ctx, v->name).s;
    g->off[g->n++] = (size_t)total;
    total += kernel_align16(bytes);
  }
  if (!pc->h->be)
    return ptx_perr(pc, 1, 1, "the .global and .const variables of the PTX need a device (no backend)"), NULL;
  char loc[320];
  snprintf(loc, sizeof loc, "%s: .global and .const variables", pc->bufname);
  const char *rloc = ir_intern_cstr(ctx, loc).s;
  GpuState *gs = kernel_gpu(pc->h);
  for (size_t i = 0; i < gs->nregs; i++)
    if (gs->regs[i].loc == rloc && gs->regs[i].bytes == total) { /* an earlier kernel of the binary's */
      g->base = gs->regs[i].ptr;
      return g;
    }
  g->base = ir_alloc(ctx, total ? (size_t)total : 16);
  /* the initializers: each constant one element of the variable's type; an address is of a
     variable of the block (or one byte of it, 0xFF00(name) style) */
  for (uint32_t i = 0, j = 0; i < m->ndecls; i++) {
    const PtxVar *v = m->decls[i].var;
    uint64_t bytes = 0, esize = 1;
    if (m->decls[i].kind != PTX_DECL_VAR || !is_module_var(v))
      continue;
    var_bytes(v, &bytes, &esize);
    char *q = g->base + g->off[j++];
    if (v->ninit > bytes / esize)
      return ptx_perr(pc, v->line, v->col, "'%s' has more initializers than elements", v->name), NULL;
    for (uint32_t e = 0; e < v->ninit; e++) {
      const PtxInit *it = &v->init[e];
      uint64_t x = (uint64_t)it->ival;
      if (it->kind == PTX_INIT_SYM || it->kind == PTX_INIT_GENERIC) {
        const char *nm = ir_intern_cstr(ctx, it->name).s;
        uint32_t t = 0;
        while (t < g->n && g->names[t] != nm)
          t++;
        if (t == g->n && !ptx_func_addr(m, it->name, &x))
          return ptx_perr(pc, v->line, v->col,
                          "an initializer with the address of '%s' is not supported by the PTX "
                          "kernel engine yet (only .global and .const variables and functions)",
                          it->name),
                 NULL;
        x = t == g->n ? x + (uint64_t)it->ival : (uint64_t)(uintptr_t)(g->base + g->off[t]) + (uint64_t)it->ival;
        if (it->mask) {
          unsigned k = (unsigned)__builtin_ctzll(it->mask) / 8;
          x = (x & it->mask) >> (8 * k);
        }
      } else if (it->kind == PTX_INIT_F32 && esize == 8) { /* an f32 constant of an f64 variable */
        x = bitsf64((double)f32of(x));
      } else if (it->kind == PTX_INIT_F64 && esize == 4) {
        x = bitsf32((float)f64of(x));
      }
      memcpy(q + e * esize, &x, esize);
    }
  }
  if (total && be_mem_register(pc->h->be, g->base, (size_t)total, rloc) != BE_OK)
    return ptx_perr(pc, 1, 1, "the device does not take the .global and .const variables of the PTX"), NULL;
  struct GpuReg *r = total ? realloc(gs->regs, (gs->nregs + 1) * sizeof *r) : NULL;
  if (total && !r) {
    be_mem_unregister(pc->h->be, g->base, rloc);
    return ptx_perr(pc, 1, 1, "out of memory"), NULL;
  }
  if (r) {
    gs->regs = r;
    gs->regs[gs->nregs++] = (struct GpuReg){g->base, (size_t)total, rloc};
  }
  return g;
}

char *ptx_global_var(PComp *pc, const char *name) {
  if (!pc->glob)
    return NULL;
  const char *nm = ir_intern_cstr(pc->h->ctx, name).s;
  for (uint32_t i = 0; i < pc->glob->n; i++)
    if (pc->glob->names[i] == nm)
      return pc->glob->base + pc->glob->off[i];
  return NULL;
}

/* Private memory for a variable of `bytes` in each thread: its offset. */
size_t ptx_reserve_private(PComp *pc, uint64_t bytes) {
  IrCtx *ctx = pc->h->ctx;
  int64_t shape[1] = {(int64_t)bytes};
  Type proto = {.kind = TY_MEMREF};
  proto.u.sh.shape = shape;
  proto.u.sh.rank = 1;
  proto.u.sh.elem = ir_type_int(ctx, 8, SIGNLESS);
  KAttr a = {.vary = true, .type = ir_type_intern(ctx, &proto)};
  kernel_reserve_private(&pc->kc, &a);
  return a.off;
}

/* The shared variables the kernel may name: the module's and its body's, at their offsets in the
 * block's static shared memory; an unsized one is the dynamic shared memory. (The body's .local
 * and .param variables are its layout's.) */
static bool shared_vars(PComp *pc) {
  const PtxModule *m = pc->m;
  const PtxFunc *fn = pc->fn;
  uint32_t cap = 0;
  for (uint32_t i = 0; i < m->ndecls; i++)
    cap += m->decls[i].kind == PTX_DECL_VAR && m->decls[i].var->space == PTX_SPACE_SHARED;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    cap += fn->stmts[i].kind == PTX_STMT_VAR;
  IrCtx *ctx = pc->h->ctx;
  pc->svars = ir_alloc(ctx, (cap + 1) * sizeof *pc->svars);
  pc->soff = ir_alloc(ctx, (cap + 1) * sizeof *pc->soff);
  size_t total = 0;
  for (uint32_t pass = 0; pass < 2; pass++) {
    uint32_t n = pass ? fn->nstmts : m->ndecls;
    for (uint32_t i = 0; i < n; i++) {
      const PtxVar *v;
      if (pass == 0 && m->decls[i].kind == PTX_DECL_VAR)
        v = m->decls[i].var;
      else if (pass == 1 && fn->stmts[i].kind == PTX_STMT_VAR)
        v = fn->stmts[i].var;
      else
        continue;
      if (v->space != PTX_SPACE_SHARED)
        continue; /* module variables of other spaces: an error where one is used; the body's: ptx_layout_of */
      uint64_t bytes = ptx_type_bits((PtxType)v->type) / 8 * (v->vec ? v->vec : 1);
      for (uint32_t d = 0; d < v->ndims; d++)
        bytes *= v->dims[d] ? v->dims[d] : 1;
      if (v->unsized)
        bytes = 0;
      if (bytes > (1u << 20))
        return ptx_perr(pc, v->line, v->col, "shared variable '%s' of %llu bytes is too large", v->name,
                        (unsigned long long)bytes);
      pc->svars[pc->nsvars] = v;
      pc->soff[pc->nsvars++] = v->unsized ? 0 : kernel_reserve_shared(&pc->kc, bytes);
      total += v->unsized ? 0 : kernel_align16(bytes);
    }
  }
  pc->dyn_off = total;
  return true;
}

/* The storage of fn's level-th activation on a chain of calls: its registers, and its body's .local
 * and .param variables in each thread's private memory. NULL after a diagnostic. */
const PLayout *ptx_layout_of(PComp *pc, const PtxFunc *fn, uint32_t level) {
  for (const PLayout *l = pc->layouts; l; l = l->next)
    if (l->fn == fn && l->level == level)
      return l;
  IrCtx *ctx = pc->h->ctx;
  PLayout *lay = ir_alloc(ctx, sizeof *lay);
  lay->fn = fn;
  lay->level = level;
  lay->reg0 = kernel_new_varying(&pc->kc, fn->nregs + 1);
  lay->vecword = ir_alloc(ctx, (fn->nregs + 1) * sizeof *lay->vecword);
  for (uint32_t i = 0; i < fn->nstmts; i++) { /* vector registers: a column per component */
    const PtxRegDecl *d = fn->stmts[i].kind == PTX_STMT_REG ? fn->stmts[i].reg : NULL;
    for (uint32_t r = 0; d && d->vec && r < d->count && d->first + r < fn->nregs; r++)
      lay->vecword[d->first + r] = kernel_new_varying(&pc->kc, d->vec);
  }
  lay->voff = ir_alloc(ctx, (fn->nstmts + 1) * sizeof *lay->voff);
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    if (fn->stmts[i].kind != PTX_STMT_VAR)
      continue;
    const PtxVar *v = fn->stmts[i].var;
    if (v->space == PTX_SPACE_SHARED && fn->entry)
      continue; /* shared_vars */
    if (v->space != PTX_SPACE_LOCAL && v->space != PTX_SPACE_PARAM)
      return ptx_perr(pc, v->line, v->col, "a .%s variable in a %s is not supported by the PTX kernel engine yet",
                      ptx_space_name((PtxSpace)v->space), fn->entry ? "kernel" : "device function"),
             NULL;
    const char *what = v->space == PTX_SPACE_LOCAL ? "a .local" : "a .param";
    uint64_t bytes = 0, esize;
    if (v->unsized || !var_bytes(v, &bytes, &esize))
      return ptx_perr(pc, v->line, v->col, "%s variable without a size is not supported by the PTX kernel engine yet",
                      what),
             NULL;
    if (v->ninit || bytes > (1u << 20) || v->align > 16)
      return ptx_perr(pc, v->line, v->col, "%s variable %s is not supported by the PTX kernel engine yet", what,
                      v->ninit        ? "with an initializer"
                      : v->align > 16 ? "aligned to more than 16 bytes"
                                      : "of more than 1 MiB"),
             NULL;
    lay->voff[i] = ptx_reserve_private(pc, bytes);
  }
  lay->next = pc->layouts;
  pc->layouts = lay;
  return lay;
}

uint32_t ptx_new_block(PComp *pc) {
  if (pc->nb == pc->capb) {
    uint32_t cap = pc->capb ? 2 * pc->capb : 16;
    PBlock *b = realloc(pc->bl, cap * sizeof *b);
    if (!b)
      abort();
    pc->bl = b;
    pc->capb = cap;
  }
  memset(&pc->bl[pc->nb], 0, sizeof pc->bl[pc->nb]);
  return pc->nb++;
}

/* The target slot of a branch to label `label` of the instance (its nlabels: where ret goes),
 * filled in when the instance ends. */
void ptx_add_fix(PComp *pc, uint32_t *slot, uint32_t label) {
  if (pc->nfix == pc->capfix) {
    uint32_t cap = pc->capfix ? 2 * pc->capfix : 16;
    PFix *f = realloc(pc->fix, cap * sizeof *f);
    if (!f)
      abort();
    pc->fix = f;
    pc->capfix = cap;
  }
  pc->fix[pc->nfix++] = (PFix){slot, label};
}

/* A jump at the end of the current block (where threads fall through to the next one), at the
 * place of the block's last instruction (or of the function): to block `to`, or, with to
 * UINT32_MAX, to label `label` of the instance. */
void ptx_add_jump(PComp *pc, uint32_t to, uint32_t label) {
  IrCtx *ctx = pc->h->ctx;
  PBlock *b = &pc->bl[pc->cur];
  KIns *k = ptx_block_add(b);
  PIns *p = ir_alloc(ctx, sizeof *p);
  p->target = to;
  if (to == UINT32_MAX)
    ptx_add_fix(pc, &p->target, label);
  k->aux = p;
  k->fn = ptx_x_bra;
  if (b->n > 1) {
    k->op = b->ins[b->n - 2].op;
    k->loc = b->ins[b->n - 2].loc;
  } else {
    const PtxFunc *fn = pc->inst->fn;
    k->op = ir_op_new(ctx, "bra", ptx_loc(pc, fn->line, fn->col), NULL, 0, NULL, 0, NULL, 0);
    k->loc = kernel_loc(pc->h, k->op);
  }
}

/* ---- the order blocks run in -------------------------------------------------------------------
 * The engine runs the lowest block any thread waits for (run_cfg), which reconverges diverged
 * threads where they meet only if a block comes after every block that leads to it other than
 * through a loop's back edge. The PTX's own layout need not be so: LLVM places a loop's latch
 * (with the loop's bar.sync) before the header that branches around an if to it, and the threads
 * that skip the if would reach the bar.sync before the others. So the blocks are renumbered in a
 * topological order of the edges a depth-first search from the entry does not find closing a
 * loop (every such edge goes to a later block), the earliest in the layout first of those whose
 * predecessors all came: blocks no edge orders keep their layout's order (a loop's exit, after its
 * body); blocks no path reaches follow. A block with an unguarded trap or __assertfail leads
 * nowhere (its threads end the launch there). */
static uint32_t block_succs(const PComp *pc, uint32_t b, uint32_t *out, uint32_t cap) {
  const PBlock *bl = &pc->bl[b];
  if (!bl->n)
    return 0;
  for (uint32_t i = 0; i < bl->n; i++)
    if (bl->ins[i].fn == ptx_x_assertfail || bl->ins[i].fn == ptx_x_trap)
      return 0; /* its threads never go on: it orders nothing */
  const KIns *k = &bl->ins[bl->n - 1];
  const PIns *p = k->aux;
  uint32_t n = 0;
  if (k->fn == ptx_x_bra || k->fn == ptx_x_cond_bra || k->fn == ptx_x_wait || k->fn == ptx_x_nbar_sync) {
    if (k->fn != ptx_x_wait && k->fn != ptx_x_nbar_sync && p->target < pc->nb && n < cap)
      out[n++] = p->target;
    if (k->fn != ptx_x_bra && p->next < pc->nb && n < cap)
      out[n++] = p->next;
  } else if (k->fn == ptx_x_icall) {
    for (uint32_t i = 0; i < p->icall->n && n < cap; i++)
      out[n++] = p->icall->entry[i];
    if (n < cap)
      out[n++] = p->icall->after;
  }
  return n;
}

static void remap(uint32_t *b, const uint32_t *to, uint32_t nb) {
  if (*b < nb)
    *b = to[*b];
}

/* A min-heap of block numbers (their layout's order). */
static void heap_push(uint32_t *h, uint32_t *n, uint32_t v) {
  uint32_t i = (*n)++;
  for (; i && h[(i - 1) / 2] > v; i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n) {
  uint32_t top = h[0], v = h[--*n], i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= *n)
      break;
    if (c + 1 < *n && h[c + 1] < h[c])
      c++;
    if (h[c] >= v)
      break;
    h[i] = h[c];
    i = c;
  }
  if (*n)
    h[i] = v;
  return top;
}

static void reorder_blocks(PComp *pc) {
  uint32_t nb = pc->nb, total = 0;
  uint32_t *first = malloc((nb + 1) * sizeof *first);
  if (!first)
    abort();
  for (uint32_t b = 0; b < nb; b++) { /* the successors, b's at succ[first[b] .. first[b + 1]) */
    const PBlock *bl = &pc->bl[b];
    const PIns *p = bl->n ? bl->ins[bl->n - 1].aux : NULL;
    first[b] = total;
    total += bl->n && bl->ins[bl->n - 1].fn == ptx_x_icall ? p->icall->n + 1 : 2;
  }
  first[nb] = total;
  uint32_t *succ = malloc((total + 1) * sizeof *succ), *nsucc = calloc(nb + 1, sizeof *nsucc);
  uint8_t *back = calloc(total + 1, 1), *state = calloc(nb + 1, 1); /* state: 1 on the search's path, 2 done */
  uint32_t *stk = malloc((nb + 1) * sizeof *stk), *pos = calloc(nb + 1, sizeof *pos);
  uint32_t *indeg = calloc(nb + 1, sizeof *indeg), *heap = malloc((nb + 1) * sizeof *heap);
  uint32_t *order = malloc((nb + 1) * sizeof *order), *to = malloc((nb + 1) * sizeof *to);
  if (!succ || !nsucc || !back || !state || !stk || !pos || !indeg || !heap || !order || !to)
    abort();
  for (uint32_t b = 0; b < nb; b++)
    nsucc[b] = block_succs(pc, b, succ + first[b], first[b + 1] - first[b]);
  /* a depth-first search from the entry: the edges back to a block on its path close loops */
  uint32_t top = 0;
  stk[top++] = 0;
  state[0] = 1;
  while (top) {
    uint32_t b = stk[top - 1];
    if (pos[b] == nsucc[b]) {
      state[b] = 2;
      top--;
      continue;
    }
    uint32_t e = first[b] + pos[b]++, c = succ[e];
    if (state[c] == 1)
      back[e] = 1;
    else if (!state[c]) {
      state[c] = 1;
      stk[top++] = c;
    }
  }
  /* the other edges in order: of the blocks all of whose predecessors came, the earliest in the
     layout first */
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t e = first[b]; state[b] && e < first[b] + nsucc[b]; e++)
      indeg[succ[e]] += !back[e];
  uint32_t nh = 0, n = 0;
  heap_push(heap, &nh, 0);
  while (nh) {
    uint32_t b = heap_pop(heap, &nh);
    order[n++] = b;
    for (uint32_t e = first[b]; e < first[b] + nsucc[b]; e++)
      if (!back[e] && !--indeg[succ[e]])
        heap_push(heap, &nh, succ[e]);
  }
  for (uint32_t b = 0; b < nb; b++)
    if (!state[b])
      order[n++] = b;
  for (uint32_t i = 0; i < nb; i++)
    to[order[i]] = i;
  PBlock *nbl = malloc((size_t)pc->capb * sizeof *nbl);
  if (!nbl)
    abort();
  for (uint32_t i = 0; i < nb; i++)
    nbl[i] = pc->bl[order[i]];
  free(pc->bl);
  pc->bl = nbl;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t i = 0; i < pc->bl[b].n; i++) {
      KIns *k = &pc->bl[b].ins[i];
      PIns *p = k->aux;
      if (k->fn == ptx_x_bra || k->fn == ptx_x_cond_bra || k->fn == ptx_x_wait || k->fn == ptx_x_nbar_sync) {
        remap(&p->target, to, nb);
        remap(&p->next, to, nb);
      } else if (k->fn == ptx_x_icall) {
        for (uint32_t j = 0; j < p->icall->n; j++)
          remap(&p->icall->entry[j], to, nb);
        remap(&p->icall->after, to, nb);
      }
    }
  free(first), free(succ), free(nsucc), free(back), free(state), free(stk), free(pos);
  free(indeg), free(heap), free(order), free(to);
}

static Kernel *compile(PComp *pc) {
  KHost *h = pc->h;
  IrCtx *ctx = h->ctx;
  const PtxFunc *fn = pc->fn;
  /* the kernel's op holds one op per instruction, so that reports that name an access's site
     (kernel_race.c) find its instruction */
  Op *kop = ir_op_new(ctx, fn->name, ptx_loc(pc, fn->line, fn->col), NULL, 0, NULL, 0, NULL, 1);
  Block *iblk = ir_alloc(ctx, sizeof *iblk);
  iblk->parent = &kop->regions[0];
  kop->regions[0].first = kop->regions[0].last = iblk;
  Kernel *k = kernel_new_front(h, kop);
  pc->kc = (KComp){.in = h, .k = k};
  pc->iblk = iblk;
  /* parameters: one uniform word each */
  uint32_t np = fn->sig.nparams;
  pc->param_word = ir_alloc(ctx, (np + 1) * sizeof *pc->param_word);
  PInfo *info = ir_alloc(ctx, sizeof *info);
  info->nparams = np;
  info->ptype = ir_alloc(ctx, np + 1);
  info->pword = pc->param_word;
  info->bufname = pc->bufname;
  info->line = fn->line;
  info->col = fn->col;
  for (uint32_t i = 0; i < np; i++) {
    const PtxVar *v = &fn->sig.params[i];
    unsigned bits = ptx_type_bits((PtxType)v->type) * (v->vec ? v->vec : 1);
    for (uint32_t d = 0; d < v->ndims; d++)
      bits *= (unsigned)v->dims[d];
    if (bits > 64 || v->ndims || v->vec)
      return ptx_perr(pc, v->line, v->col,
                      "parameter '%s': parameters of more than 8 bytes are not supported by the PTX "
                      "kernel engine yet",
                      v->name),
             NULL;
    pc->param_word[i] = kernel_new_uniform(&pc->kc, 1);
    info->ptype[i] = v->type;
  }
  *kernel_llvm_ext(k) = info;
  if (!shared_vars(pc))
    return NULL;
  const PLayout *lay = ptx_layout_of(pc, fn, 0);
  if (!lay)
    return NULL;
  pc->reg0 = lay->reg0;
  pc->vecword = lay->vecword;
  PInst entry = {.fn = fn, .lay = lay};
  entry.lblk = ir_alloc(ctx, (fn->nlabels + 1) * sizeof *entry.lblk);
  entry.lblk[fn->nlabels] = EXIT_PC; /* the kernel's ret ends the thread */
  pc->inst = &entry;
  pc->cur = ptx_new_block(pc);
  bool ok = ptx_emit_body(pc, &entry);
  Kernel *out = NULL;
  if (ok && !pc->failed) {
    resolve_fixes(pc, &entry);
    ptx_new_block(pc); /* an empty last block: where the threads leave */
    reorder_blocks(pc);
    if (pc->sync)
      ptx_sync_finish(pc);
    if (pc->zero_private) { /* first of all */
      PBlock *b0 = &pc->bl[0];
      ptx_block_add(b0);
      memmove(b0->ins + 1, b0->ins, (b0->n - 1) * sizeof *b0->ins);
      memset(b0->ins, 0, sizeof *b0->ins);
      b0->ins[0].fn = ptx_x_zero_private;
      b0->ins[0].op = b0->ins[1].op;
      b0->ins[0].loc = b0->ins[1].loc;
    }
    uint32_t nb = pc->nb;
    ptx_uniform_regs(pc, pc->bl, nb, pc->fn->nregs + 1);
    ptx_affine_regs(pc, pc->bl, nb, pc->fn->nregs + 1);
    ptx_load_groups(pc, pc->bl, nb);
    ptx_fuse_streams(pc, pc->bl, nb);
    ptx_macc_steps(pc, pc->bl, nb);
    ptx_invariant_uni(pc, &pc->bl[0], kernel_new_uniform(&pc->kc, 0)); /* the words so far */
    ptx_group_uni_once(pc, &pc->bl[0]);
    ptx_uop_ins(pc, &pc->bl[0]);
    ptx_once_affs(pc, pc->bl, nb);
    KBody body = {ir_alloc(ctx, nb * sizeof(KBlock)), nb, true}; /* ptx_x_bra, ptx_x_cond_bra, x_bra_over */
    for (uint32_t i = 0; i < nb; i++) {
      body.blocks[i].n = pc->bl[i].n;
      body.blocks[i].ins = ir_alloc(ctx, (pc->bl[i].n + 1) * sizeof(KIns));
      if (pc->bl[i].n)
        memcpy(body.blocks[i].ins, pc->bl[i].ins, pc->bl[i].n * sizeof(KIns));
    }
    ptx_bra_overs(&body);
    kernel_front_done(k, &body, 1, np, pc->param_word);
    out = k;
  }
  for (uint32_t i = 0; i < pc->nb; i++)
    free(pc->bl[i].ins);
  free(pc->bl);
  free(pc->binds);
  free(pc->fix);
  return out;
}

/* The text as a source buffer of the context (diagnostics show its lines), parsed; NULL after a
 * located error. */
static PtxModule *parse(PComp *pc, const char *text, size_t len) {
  IrCtx *ctx = pc->h->ctx;
  pc->bufname = ir_intern_cstr(ctx, pc->bufname).s;
  ir_ctx_add_source(ctx, pc->bufname, text, len, 1, 1, true);
  PtxError err;
  PtxModule *m = ptx_parse(pc->bufname, text, len, &err);
  if (!m)
    ptx_perr(pc, err.line, err.col, "%s", err.msg);
  return m;
}

bool kernel_ptx_load(KHost *h, const char *bufname, const char *text, size_t len) {
  PComp pc = {.h = h, .bufname = bufname};
  PtxModule *m = parse(&pc, text, len);
  ptx_module_destroy(m);
  return m != NULL;
}

Kernel *kernel_of_ptx(KHost *h, Op *site, const char *bufname, const char *text, size_t len, Str name) {
  IrCtx *ctx = h->ctx;
  PComp pc = {.h = h, .site = site, .bufname = bufname};
  PtxModule *m = parse(&pc, text, len);
  pc.m = m;
  if (!m)
    return NULL;
  bufname = pc.bufname;
  char fname[256];
  snprintf(fname, sizeof fname, "%.*s", (int)name.len, name.s);
  const PtxFunc *fn = ptx_module_func(m, fname);
  Kernel *k = NULL;
  if (!fn || !fn->entry || !fn->defined) {
    if (site)
      ir_op_error(ctx, site, "%s has no kernel (.entry) '%s'", bufname, fname);
    else
      ir_diag(ctx, DIAG_ERROR, ptx_loc(&pc, 1, 1), "no kernel (.entry) '%s' here", fname);
    h->errors++;
  } else {
    pc.fn = fn;
    pc.glob = module_globals(&pc);
    if (!pc.failed)
      k = compile(&pc);
  }
  ptx_module_destroy(m);
  return k;
}

bool kernel_ptx_bind(KHost *h, Op *site, Kernel *k, uint32_t first, uint32_t n) {
  PInfo *info = *kernel_llvm_ext(k);
  uint32_t w = 0; /* the parameter the operand's first word goes to */
  bool record = !info->bound; /* the first launch site's memrefs (as kernel_llvm_bind keeps its first view) */
  if (record)
    info->refs = ir_alloc(h->ctx, (n + 1) * sizeof *info->refs);
  for (uint32_t i = 0; i < n; i++) {
    const Type *t = site->operands[first + i]->type;
    uint32_t nw = kernel_words(t);
    if (record && t->kind == TY_MEMREF && w + nw <= info->nparams && t->u.sh.rank <= 8 &&
        kernel_elem_bytes(t->u.sh.elem))
      info->refs[info->nrefs++] = (PRef){w, t->u.sh.rank, kernel_elem_bytes(t->u.sh.elem), i};
    for (uint32_t j = 0; j < nw && w < info->nparams; j++, w++) {
      /* a memref passes its descriptor's words (pointers, offset, sizes, strides: 64 bits each),
         as mlir-opt's lowering of a kernel's memref arguments takes them */
      unsigned pt = info->ptype[w], bits = ptx_type_bits((PtxType)pt);
      bool mr = t->kind == TY_MEMREF;
      unsigned tb = t->kind == TY_LLVM_PTR || t->kind == TY_INDEX || mr ? 64
                    : t->kind == TY_INT || t->kind == TY_FLOAT    ? kernel_elem_bytes(t) * 8
                                                                  : 0;
      bool fl = t->kind == TY_FLOAT;
      if (!tb || tb != bits || fl != is_float(pt)) {
        ir_op_error(h->ctx, site, "passes %s as kernel operand %u to PTX kernel parameter %u of type .%s",
                    mr ? "a memref descriptor word" : t->kind == TY_LLVM_PTR ? "a pointer" : fl ? "a float"
                    : t->kind == TY_INT ? "an integer" : "a value", i, w, ptx_type_name((PtxType)pt));
        h->errors++;
        info->nrefs = 0;
        return false;
      }
    }
  }
  info->bound = true;
  return true;
}

uint32_t kernel_ptx_params(const Kernel *k, uint32_t *bytes, uint32_t cap) {
  const PInfo *info = *kernel_llvm_ext(k);
  for (uint32_t i = 0; i < info->nparams && i < cap; i++)
    bytes[i] = ptx_type_bits((PtxType)info->ptype[i]) / 8;
  return info->nparams;
}
