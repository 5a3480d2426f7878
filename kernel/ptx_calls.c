/* ptx_calls.c - PTX calls (kernel_ptx.c has the overview). A call of a .func compiles the
 * callee's body in place, between the call's block and the block after it (PLayout says how its
 * registers and variables are kept); an indirect call is a choice among the functions whose address
 * the module takes; vprintf and __assertfail are instructions of their own (x_vprintf,
 * ptx_x_assertfail), as are trap and a call nested deeper than the engine inlines. */
/* Lane loops are the interpreter's inner loops: let gcc vectorize them (as kernel_llvm.c does). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "kernel/ptx_internal.h"

/* ---- calls ----------------------------------------------------------------------------------- */

static uint64_t priv_word(const KFrame *f, uint32_t l, size_t off, unsigned bytes) {
  uint64_t v = 0;
  memcpy(&v, f->priv + l * f->priv_stride + off, bytes);
  return v;
}

static const PIns generic_access; /* an access of a generic address (ptx_access_ok) */

/* Thread l reads bytes of memory at a generic address for vprintf or __assertfail: checked as its
 * loads are. False after the error. */
static bool read_mem(KFrame *f, const KIns *k, uint32_t l, uint64_t a, void *dst, uint32_t bytes) {
  char *q = (char *)(uintptr_t)a;
  int where;
  if (!ptx_access_ok(f, k, &generic_access, l, q, bytes, false, &where))
    return false;
  memcpy(dst, q, bytes);
  return true;
}

#define STR_MAX 4096

/* A NUL-terminated string of thread l at a (at most STR_MAX bytes, NUL included) into s. */
static bool read_str(KFrame *f, const KIns *k, uint32_t l, uint64_t a, char *s) {
  for (uint32_t i = 0; i < STR_MAX; i++) {
    if (!read_mem(f, k, l, a + i, s + i, 1))
      return false;
    if (!s[i])
      return true;
  }
  kernel_error(f, k, l, "a string of more than %d bytes", STR_MAX - 1);
  return false;
}

static bool vprintf_one(KFrame *f, const KIns *k, uint32_t l, uint64_t fmt, uint64_t args, KBuf *out,
                        uint32_t *nargs) {
  char *text = malloc(2 * STR_MAX);
  if (!text)
    return kernel_error(f, k, l, "out of memory"), false;
  char *str = text + STR_MAX;
  bool ok = read_str(f, k, l, fmt, text);
  const char *s = text, *end = text + (ok ? strlen(text) : 0);
  uint64_t off = 0;
  *nargs = 0;
  while (ok && s < end) {
    const char *pct = strchr(s, '%');
    if (!pct) {
      kernel_buf_add(out, s, (size_t)(end - s));
      break;
    }
    kernel_buf_add(out, s, (size_t)(pct - s));
    const char *q = pct + 1;
    if (*q == '%') {
      kernel_buf_add(out, "%", 1);
      s = q + 1;
      continue;
    }
    char spec[48];
    size_t n = 0;
    spec[n++] = '%';
    while (*q && strchr("-+ #0", *q) && n < 20)
      spec[n++] = *q++;
    while (*q && ((*q >= '0' && *q <= '9') || *q == '.') && n < 40)
      spec[n++] = *q++;
    unsigned size = 4, half = 0; /* half: 1 for h, 2 for hh */
    while (*q && strchr("hlLzjt", *q)) {
      if (*q == 'h')
        half++;
      else if (*q != 'L')
        size = 8;
      q++;
    }
    char conv = *q;
    if (!conv || !strchr("diuxXocfFeEgGaAps", conv)) { /* not a conversion: printed as written */
      kernel_buf_add(out, pct, (size_t)(q - pct) + (conv != 0));
      s = q + (conv != 0);
      continue;
    }
    s = q + 1;
    if (strchr("fFeEgGaAps", conv))
      size = 8;
    off = (off + size - 1) / size * size;
    uint64_t v = 0;
    if (!read_mem(f, k, l, args + off, &v, size)) {
      ok = false;
      break;
    }
    off += size;
    ++*nargs;
    char tmp[160];
    int len = 0;
    switch (conv) {
    case 'd': case 'i': {
      int64_t x = size == 8 ? (int64_t)v : (int64_t)(int32_t)v;
      x = half == 1 ? (int16_t)x : half > 1 ? (int8_t)x : x;
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (long long)x);
      break;
    }
    case 'u': case 'x': case 'X': case 'o': {
      uint64_t x = half == 1 ? (uint16_t)v : half > 1 ? (uint8_t)v : v;
      spec[n++] = 'l', spec[n++] = 'l', spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (unsigned long long)x);
      break;
    }
    case 'c':
      spec[n++] = 'c', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (int)(uint8_t)v);
      break;
    case 'p':
      spec[n++] = 'p', spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, (void *)(uintptr_t)v);
      break;
    case 's':
      if (v && !read_str(f, k, l, v, str)) {
        ok = false;
        break;
      }
      spec[n++] = 's', spec[n] = 0;
      {
        int m = snprintf(NULL, 0, spec, v ? str : "(null)");
        char *w = m >= 0 ? malloc((size_t)m + 1) : NULL;
        if (w) {
          snprintf(w, (size_t)m + 1, spec, v ? str : "(null)");
          kernel_buf_add(out, w, (size_t)m);
          free(w);
        }
      }
      break;
    default: {
      double x;
      memcpy(&x, &v, 8);
      spec[n++] = conv, spec[n] = 0;
      len = snprintf(tmp, sizeof tmp, spec, x);
      break;
    }
    }
    if (len > 0)
      kernel_buf_add(out, tmp, (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1);
  }
  free(text);
  return ok;
}

/* call (r), vprintf, (fmt, args): each active thread's line, in thread order, written at once
 * (kernel_print, as gpu.printf's); r gets the number of arguments the format took. */
static int x_vprintf(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PCall *c = p->call;
  KBuf b = {0};
  int r = EX_NEXT;
  for (uint32_t i = 0; i < f->nact && r == EX_NEXT; i++) {
    uint32_t l = f->act[i], nargs;
    if (!vprintf_one(f, k, l, priv_word(f, l, c->arg_off[0], 8), priv_word(f, l, c->arg_off[1], 8), &b, &nargs))
      r = EX_ERROR;
    else if (c->has_ret)
      memcpy(f->priv + l * f->priv_stride + c->ret_off, &nargs, 4);
  }
  if (r == EX_NEXT && b.n)
    kernel_print(f, b.s, b.n);
  free(b.s);
  return r;
}

/* __assertfail's strings (message, file, function: STR_MAX bytes each from s) and line for lane l */
static bool assert_args(KFrame *f, const KIns *k, const PCall *c, uint32_t l, char *s, unsigned *line) {
  *line = (unsigned)priv_word(f, l, c->arg_off[2], 4);
  return read_str(f, k, l, priv_word(f, l, c->arg_off[0], 8), s) &&
         read_str(f, k, l, priv_word(f, l, c->arg_off[1], 8), s + STR_MAX) &&
         read_str(f, k, l, priv_word(f, l, c->arg_off[3], 8), s + 2 * STR_MAX);
}

/* call __assertfail, (message, file, line, function, charsize): every active thread prints the
 * line CUDA's device runtime prints, in thread order, as device output; the first one's failed
 * assertion is the launch's error */
int ptx_x_assertfail(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PCall *c = p->call;
  char *s = malloc(3 * STR_MAX), *out = malloc(STR_MAX);
  unsigned line;
  if (!s || !out) {
    free(s);
    free(out);
    return kernel_error(f, k, f->act[0], "assertion failed");
  }
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], t, bid[3];
    if (!assert_args(f, k, c, l, s, &line)) {
      free(s);
      free(out);
      return EX_ERROR;
    }
    kernel_lane_block(f, l, &t, bid);
    int n = snprintf(out, STR_MAX,
                     "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", s + STR_MAX,
                     line, s + 2 * STR_MAX, bid[0], bid[1], bid[2], t % f->bdim[0], t / f->bdim[0] % f->bdim[1],
                     t / (f->bdim[0] * f->bdim[1]), s);
    kernel_print(f, out, n < 0 ? 0 : n >= STR_MAX ? STR_MAX - 1 : (size_t)n);
  }
  if (assert_args(f, k, c, f->act[0], s, &line))
    kernel_error(f, k, f->act[0], "assertion failed: %s (%s:%u, in %s)", s, s + STR_MAX, line, s + 2 * STR_MAX);
  free(s);
  free(out);
  return EX_ERROR;
}

/* The threads' private memory, zeroed where a kernel that calls vprintf starts: mlir-opt's lowering of
 * gpu.printf packs an i8 argument in one byte of the buffer, where vprintf reads an int's four. */
int ptx_x_zero_private(KFrame *f, const KIns *k) {
  (void)k;
  KLANES(f, l, { memset(f->priv + l * f->priv_stride, 0, f->priv_stride); });
  return EX_NEXT;
}

static int x_too_deep(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  return kernel_error(f, k, f->act[0], "the call of '%s' nests calls %u deep: the PTX kernel engine inlines calls "
                      "%d deep at most", p->call->name, p->call->depth, CALL_DEPTH);
}

/* The body of callee's function from the current block on (its layout's registers, its
 * parameters at callee's offsets), then a new current block where its ret goes. */
static bool inline_callee(PComp *pc, PInst *callee) {
  PInst *caller = pc->inst;
  uint32_t reg0 = pc->reg0, *vecword = pc->vecword;
  pc->inst = callee;
  pc->reg0 = callee->lay->reg0;
  pc->vecword = callee->lay->vecword;
  bool ok = ptx_emit_body(pc, callee);
  pc->inst = caller;
  pc->reg0 = reg0;
  pc->vecword = vecword;
  pc->nbinds = callee->bind0;
  if (!ok)
    return false;
  callee->lblk[callee->fn->nlabels] = ptx_new_block(pc);
  start_block(pc, callee->lblk[callee->fn->nlabels]);
  resolve_fixes(pc, callee);
  return true;
}

static bool c_ptx_icall(PComp *pc, KIns *k, PIns *p, const PtxOperand *rets, uint32_t ri, bool *inlined);

/* The caller's .param variables a call names, as offsets; false after a diagnostic. */
static bool call_vars(PComp *pc, const PtxOperand *list, size_t *off) {
  for (uint32_t i = 0; list && i < list->n; i++) {
    const PtxOperand *o = &list->elems[i];
    if (o->kind != PTX_OPD_SYM || !ptx_body_var(pc, o->name, false, &off[i]))
      return ptx_perr(pc, o->line, o->col,
                      "a call argument other than a .param variable is not supported by the PTX "
                      "kernel engine yet");
  }
  return true;
}

/* The offsets of a call's argument and return variables (call_vars; args, rets NULL: none), in
 * the compiler's arena; false after a diagnostic. */
static bool call_offsets(PComp *pc, const PtxOperand *args, const PtxOperand *rets, size_t **arg_off,
                         size_t **ret_off) {
  IrCtx *ctx = pc->h->ctx;
  uint32_t nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
  *arg_off = ir_alloc(ctx, (nargs + 1) * sizeof **arg_off);
  *ret_off = ir_alloc(ctx, (nrets + 1) * sizeof **ret_off);
  return call_vars(pc, args, *arg_off) && call_vars(pc, rets, *ret_off);
}

/* The activation of fn a call here inlines (*out): its storage at the level of recursion it is at
 * on the chain of calls (PLayout), the call's variables, the bindings and fixes from here on;
 * false after a diagnostic. */
static bool callee_of(PComp *pc, const PtxFunc *fn, size_t *arg_off, size_t *ret_off, uint32_t depth, PInst *out) {
  uint32_t level = 0;
  for (const PInst *u = pc->inst; u; u = u->up)
    level += u->fn == fn;
  const PLayout *lay = ptx_layout_of(pc, fn, level);
  if (!lay)
    return false;
  *out = (PInst){.fn = fn, .lay = lay, .arg_off = arg_off, .ret_off = ret_off, .bind0 = pc->nbinds,
                 .fix0 = pc->nfix, .depth = depth, .up = pc->inst};
  out->lblk = ir_alloc(pc->h->ctx, (fn->nlabels + 1) * sizeof *out->lblk);
  return true;
}

/* call through a register: each thread to the inlined copy of the function at its address; an
 * address of no target is an error; under a guard, threads whose guard fails go on after. */
int ptx_x_icall(KFrame *f, const KIns *k) {
  const PIns *p = k->aux;
  const PICall *c = p->icall;
  uint32_t one = UINT32_MAX;
  bool same = true;
  for (uint32_t i = 0; i < f->nact; i++) {
    uint32_t l = f->act[i], to = c->after;
    if (!p->guard.kind || (rd(f, &p->guard, l) & 1)) {
      uint64_t a = rd(f, &p->s[0], l);
      uint32_t j = 0;
      while (j < c->n && c->addr[j] != a)
        j++;
      if (j == c->n)
        return kernel_error(f, k, l, "an indirect call of %#llx, which is not the address of a device function of "
                            "the module with prototype '%s'", (unsigned long long)a, c->proto);
      to = c->entry[j];
    }
    f->pc[l] = to;
    same &= one == UINT32_MAX || one == to;
    one = to;
  }
  f->pc_one = one;
  f->pc_n = same ? f->nact : 0;
  return EX_DONE;
}

/* Whether the module takes the address of function `name` (an initializer, or an operand other
 * than a call's callee). */
static bool address_taken(const PtxModule *m, const char *name) {
  for (uint32_t d = 0; d < m->ndecls; d++) {
    if (m->decls[d].kind == PTX_DECL_VAR) {
      const PtxVar *v = m->decls[d].var;
      for (uint32_t e = 0; e < v->ninit; e++)
        if ((v->init[e].kind == PTX_INIT_SYM || v->init[e].kind == PTX_INIT_GENERIC) && !strcmp(v->init[e].name, name))
          return true;
      continue;
    }
    const PtxFunc *fn = m->decls[d].func;
    for (uint32_t i = 0; i < fn->nstmts; i++) {
      const PtxInsn *in = fn->stmts[i].kind == PTX_STMT_INSN ? &fn->stmts[i].insn : NULL;
      for (uint32_t j = 0; in && j < in->nopds; j++)
        if (in->opds[j].kind == PTX_OPD_SYM && !strcmp(in->opds[j].name, name) &&
            !(in->op == PTX_OP_CALL && (j == 0 || in->opds[j - 1].kind == PTX_OPD_LIST) &&
              (j == 0 || j == 1)))
          return true;
    }
  }
  return false;
}

static uint64_t param_bytes(const PtxVar *v) {
  uint64_t b = ptx_type_bits((PtxType)v->type) / 8 * (v->vec ? v->vec : 1);
  for (uint32_t d = 0; d < v->ndims; d++)
    b *= v->dims[d] ? v->dims[d] : 1;
  return b;
}

static bool same_sig(const PtxSig *a, const PtxSig *b) {
  if (a->nparams != b->nparams || a->nrets != b->nrets)
    return false;
  for (uint32_t i = 0; i < a->nparams; i++)
    if (param_bytes(&a->params[i]) != param_bytes(&b->params[i]))
      return false;
  for (uint32_t i = 0; i < a->nrets; i++)
    if (param_bytes(&a->rets[i]) != param_bytes(&b->rets[i]))
      return false;
  return true;
}

/* call[.uni] [(rets),] %r, [(args),] proto: the register opds[ri], the prototype last (a
 * .callprototype of the calling function's body). */
static bool c_ptx_icall(PComp *pc, KIns *k, PIns *p, const PtxOperand *rets, uint32_t ri, bool *inlined) {
  const PtxInsn *in = pc->insn;
  IrCtx *ctx = pc->h->ctx;
  const PtxOperand *args = ri + 1 < in->nopds && in->opds[ri + 1].kind == PTX_OPD_LIST ? &in->opds[ri + 1] : NULL;
  uint32_t pi = ri + 1 + (args != NULL);
  if (pi + 1 != in->nopds || in->opds[pi].kind != PTX_OPD_SYM)
    return ptx_unsupported(pc, "an indirect call without a .callprototype");
  const PtxOperand *po = &in->opds[pi];
  const PtxProto *proto = NULL;
  for (uint32_t i = 0; i < pc->inst->fn->nstmts && !proto; i++)
    if (pc->inst->fn->stmts[i].kind == PTX_STMT_PROTO && !strcmp(pc->inst->fn->stmts[i].proto->name, po->name))
      proto = pc->inst->fn->stmts[i].proto;
  if (!proto)
    return ptx_perr(pc, po->line, po->col, "'%s' is not a .callprototype of the function", po->name);
  uint32_t nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
  if (nargs != proto->sig.nparams || nrets != proto->sig.nrets)
    return ptx_perr(pc, in->line, in->col,
                    "the call passes %u argument%s and %u return%s for its prototype's %u and %u", nargs,
                    nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s", proto->sig.nparams, proto->sig.nrets);
  size_t *arg_off, *ret_off;
  if (!call_offsets(pc, args, rets, &arg_off, &ret_off) || !reg_operand(pc, &in->opds[ri], &p->s[0]))
    return false;
  p->ns = 1;
  PICall *c = ir_alloc(ctx, sizeof *c);
  c->proto = ir_intern_cstr(ctx, po->name).s;
  c->addr = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *c->addr);
  c->entry = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *c->entry);
  uint32_t **joins = ir_alloc(ctx, (pc->m->ndecls + 1) * sizeof *joins);
  p->icall = c;
  k->fn = ptx_x_icall;
  pc->closed = true;
  uint32_t depth = pc->inst->depth + 1;
  for (uint32_t d = 0; d < pc->m->ndecls; d++) {
    const PtxFunc *fn = pc->m->decls[d].kind == PTX_DECL_FUNC ? pc->m->decls[d].func : NULL;
    if (!fn || fn->entry || !fn->defined || !same_sig(&fn->sig, &proto->sig) || !address_taken(pc->m, fn->name))
      continue;
    if (depth > CALL_DEPTH)
      return ptx_perr(pc, in->line, in->col,
                      "an indirect call nested %u calls deep: the PTX kernel engine inlines calls "
                      "%d deep at most",
                      depth, CALL_DEPTH);
    PInst callee_in;
    if (!callee_of(pc, fn, arg_off, ret_off, depth, &callee_in))
      return false;
    ptx_func_addr(pc->m, fn->name, &c->addr[c->n]);
    c->entry[c->n] = ptx_new_block(pc);
    start_block(pc, c->entry[c->n]);
    if (!inline_callee(pc, &callee_in)) /* its ret: on to the block after every target */
      return false;
    ptx_add_jump(pc, 0, 0);
    joins[c->n++] = &((PIns *)pc->bl[pc->cur].ins[pc->bl[pc->cur].n - 1].aux)->target;
    pc->closed = true;
  }
  c->after = ptx_new_block(pc);
  start_block(pc, c->after);
  for (uint32_t i = 0; i < c->n; i++)
    *joins[i] = c->after;
  *inlined = true;
  return true;
}

/* call[.uni] [(rets),] fn[, (args)]: a device function inlined here (see PLayout), or vprintf,
 * __assertfail, a call nested too deeply as an instruction of their own in k. *inlined: whether
 * the callee's blocks were made (then the caller goes on in the block after them). */
static bool c_ptx_call(PComp *pc, KIns *k, PIns *p, bool *inlined) {
  const PtxInsn *in = pc->insn;
  static const char *const allowed[] = {"uni", NULL};
  *inlined = false;
  if (!ptx_mods(pc, p, allowed, NULL))
    return false;
  const PtxOperand *rets = NULL, *args = NULL, *callee = NULL;
  uint32_t i = 0;
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_LIST)
    rets = &in->opds[i++];
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_REG)
    return c_ptx_icall(pc, k, p, rets, i, inlined);
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_SYM)
    callee = &in->opds[i++];
  if (i < in->nopds && in->opds[i].kind == PTX_OPD_LIST)
    args = &in->opds[i++];
  if (!callee || i != in->nopds)
    return ptx_unsupported(pc, "an indirect call");
  const PtxFunc *fn = ptx_module_func(pc->m, callee->name);
  if (!fn || fn->entry)
    return ptx_perr(pc, callee->line, callee->col, "'%s' is not a device function (.func) of the module", callee->name);
  uint32_t nargs = args ? args->n : 0, nrets = rets ? rets->n : 0;
  if (nargs != fn->sig.nparams || nrets != fn->sig.nrets)
    return ptx_perr(pc, in->line, in->col,
                    "the call of '%s' passes %u argument%s and %u return%s for its %u parameter%s "
                    "and %u return%s",
                    fn->name, nargs, nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s", fn->sig.nparams,
                    fn->sig.nparams == 1 ? "" : "s", fn->sig.nrets, fn->sig.nrets == 1 ? "" : "s");
  IrCtx *ctx = pc->h->ctx;
  size_t *arg_off, *ret_off;
  if (!call_offsets(pc, args, rets, &arg_off, &ret_off))
    return false;
  bool printf_ = !strcmp(fn->name, "vprintf"), assert_ = !strcmp(fn->name, "__assertfail");
  if (!fn->defined && !printf_ && !assert_)
    return ptx_perr(pc, callee->line, callee->col,
                    "a call of the external function '%s' is not supported by the PTX "
                    "kernel engine yet (it runs vprintf and __assertfail)",
                    fn->name);
  uint32_t depth = pc->inst->depth + 1;
  if (!fn->defined || depth > CALL_DEPTH) {
    if (!fn->defined && (nargs != (printf_ ? 2u : 5u) || nrets > (printf_ ? 1u : 0u)))
      return ptx_perr(pc, in->line, in->col, "'%s' is declared with other parameters than CUDA's", fn->name);
    PCall *c = ir_alloc(ctx, sizeof *c);
    c->name = ir_intern_cstr(ctx, fn->name).s; /* the module dies after compiling */
    c->nargs = nargs;
    c->depth = depth;
    memcpy(c->arg_off, arg_off, (nargs < 5 ? nargs : 5) * sizeof *arg_off);
    c->has_ret = nrets > 0;
    c->ret_off = nrets ? ret_off[0] : 0;
    p->call = c;
    k->fn = !fn->defined ? (printf_ ? x_vprintf : ptx_x_assertfail) : x_too_deep;
    pc->zero_private |= printf_;
    return true;
  }
  PInst callee_in;
  if (!callee_of(pc, fn, arg_off, ret_off, depth, &callee_in))
    return false;
  /* the call's branch: to the callee's first block, or (guarded) there for the threads whose
     guard holds and to the block after the callee for the others */
  k->fn = in->has_guard ? ptx_x_cond_bra : ptx_x_bra;
  if (in->has_guard)
    ptx_add_fix(pc, &p->next, fn->nlabels);
  pc->closed = true;
  p->target = ptx_new_block(pc);
  start_block(pc, p->target);
  *inlined = true;
  return inline_callee(pc, &callee_in);
}

/* The statements of in's function into blocks from the current one on; at its end the threads go
 * where its ret goes. */
bool ptx_emit_body(PComp *pc, PInst *in) {
  IrCtx *ctx = pc->h->ctx;
  const PtxFunc *fn = in->fn;
  uint32_t marks[64], nmarks = 0; /* the bindings at each open scope */
  for (uint32_t i = 0; i < fn->nstmts && !pc->failed; i++) {
    const PtxStmt *s = &fn->stmts[i];
    if (s->kind == PTX_STMT_OPEN) {
      if (nmarks == 64)
        return ptx_perr(pc, fn->line, fn->col,
                        "scopes nested more than 64 deep are not supported by the PTX kernel "
                        "engine");
      marks[nmarks++] = pc->nbinds;
      continue;
    }
    if (s->kind == PTX_STMT_CLOSE) {
      if (nmarks)
        pc->nbinds = marks[--nmarks];
      continue;
    }
    if (s->kind == PTX_STMT_VAR && (s->var->space == PTX_SPACE_LOCAL || s->var->space == PTX_SPACE_PARAM)) {
      if (pc->nbinds == pc->capbinds) {
        uint32_t cap = pc->capbinds ? 2 * pc->capbinds : 32;
        PBind *b = realloc(pc->binds, cap * sizeof *b);
        if (!b)
          abort();
        pc->binds = b;
        pc->capbinds = cap;
      }
      pc->binds[pc->nbinds++] = (PBind){s->var->name, in->lay->voff[i], s->var->space == PTX_SPACE_LOCAL};
      continue;
    }
    if (s->kind == PTX_STMT_LABEL) { /* a block of its own, unless the current one is still empty (not
                                        the kernel's first: ptx_x_zero_private may go there) */
      if (pc->bl[pc->cur].n || pc->cur == 0) {
        in->lblk[s->label] = ptx_new_block(pc);
        start_block(pc, in->lblk[s->label]);
      } else
        in->lblk[s->label] = pc->cur;
      continue;
    }
    if (s->kind != PTX_STMT_INSN)
      continue;
    const PtxInsn *insn = &s->insn;
    pc->insn = insn;
    if (++pc->ninsns > INLINE_MAX)
      return ptx_perr(pc, insn->line, insn->col,
                      "the kernel with its calls inlined has more than %u instructions, more "
                      "than the PTX kernel engine compiles",
                      INLINE_MAX);
    char name[160];
    insn_name(insn, name, sizeof name);
    KIns *ki = ptx_block_add(&pc->bl[pc->cur]);
    PIns *p = ir_alloc(ctx, sizeof *p);
    ki->op = ir_op_new(ctx, name, ptx_loc(pc, insn->line, insn->col), NULL, 0, NULL, 0, NULL, 0);
    ir_block_push_back(pc->iblk, ki->op);
    ki->loc = kernel_loc(pc->h, ki->op);
    ki->aux = p;
    if (insn->has_guard && !reg_operand(pc, &insn->guard, &p->guard))
      return false;
    if (is_term(insn)) {
      static const char *const allowed[] = {"uni", NULL};
      if (!ptx_mods(pc, p, allowed, NULL) || !need_opds(pc, insn->op == PTX_OP_BRA ? 1 : 0, insn->op == PTX_OP_BRA ? 1 : 0))
        return false;
      if (insn->op == PTX_OP_BRA && insn->opds[0].kind != PTX_OPD_LABEL)
        return ptx_unsupported(pc, "a branch to other than a label");
      if (insn->op == PTX_OP_EXIT)
        p->target = EXIT_PC;
      else
        ptx_add_fix(pc, &p->target, insn->op == PTX_OP_BRA ? insn->opds[0].label : fn->nlabels);
      ki->fn = insn->has_guard ? ptx_x_cond_bra : ptx_x_bra;
      pc->closed = true;
      p->next = ptx_new_block(pc);
      start_block(pc, p->next);
      continue;
    }
    if (insn->op == PTX_OP_CALL) {
      bool inlined;
      if (!c_ptx_call(pc, ki, p, &inlined))
        return false;
      if (inlined)
        continue;
    } else if (!ptx_c_insn(pc, ki->op, ki, p))
      return false;
    if (pc->ends_block) { /* a wait: it takes its guard and sends its threads on itself */
      pc->ends_block = false;
      pc->closed = true;
      p->next = ptx_new_block(pc);
      start_block(pc, p->next);
      continue;
    }
    if (insn->has_guard) {
      p->run = ki->fn;
      ki->fn = ptx_x_guard;
    }
  }
  if (pc->failed)
    return false;
  if (!pc->closed) { /* the end of the body: a ret */
    ptx_add_jump(pc, UINT32_MAX, fn->nlabels);
    pc->closed = true;
  }
  return true;
}
