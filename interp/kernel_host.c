/* kernel_host.c - the host ops kernels run once per thread (KHostOps, kernel/kernel.h).
 *
 * The engine has lane loops for the ops kernels run most; any other op of the dialects the host
 * interpreter knows runs through the host's own compile and exec functions, on a scratch frame
 * whose slots are the engine's scratch words, so kernels and host code share one definition of
 * each op's semantics. A run happens on a kernel worker: it reads the interpreter's context,
 * module, device and output through a private copy of the Interp, whose error count is its own
 * (the engine counts the failure with the kernel's errors). */
#include "interp/internal.h"

#include <stdlib.h>

static bool knows(Str name) { return interp_compile_fn(name) != NULL; }

static void *compile(KHost *h, Op *op, const uint32_t *in, const uint32_t *out, uint32_t nwords) {
  CompileFn fn = interp_compile_fn(op->name);
  if (!fn)
    return NULL;
  Interp *ip = interp_of_host(h);
  Ins *ins = ir_alloc(h->ctx, sizeof *ins);
  ins->op = op;
  ins->nin = op->noperands;
  ins->nout = op->nresults;
  ins->in = ir_alloc(h->ctx, (op->noperands + 1) * sizeof(uint32_t));
  ins->out = ir_alloc(h->ctx, (op->nresults + 1) * sizeof(uint32_t));
  for (uint32_t j = 0; j < op->noperands; j++)
    ins->in[j] = in[j];
  for (uint32_t j = 0; j < op->nresults; j++)
    ins->out[j] = out[j];
  Comp c = {ip, NULL, nwords};
  return fn(&c, op, ins) ? ins : NULL;
}

static int run(KHost *h, const void *op, Slot *s) {
  const Ins *ins = op;
  Interp copy = {0}; /* what a host op may read; errors are counted apart */
  copy.ctx = h->ctx;
  copy.module = h->module;
  copy.be = h->be;
  copy.out = h->out;
  Frame hf = {0};
  hf.s = s;
  hf.in = &copy;
  return ins->fn(&hf, ins);
}

const KHostOps interp_kernel_host_ops = {knows, compile, run};
