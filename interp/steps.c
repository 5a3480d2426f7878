/* steps.c - the host's side of the run's bounds (kernel/budget.c): the host takes credit per op
 * from the run's pool and reports a bound at the host op it was about to run. */
#include "interp/internal.h"

#include <stdlib.h>
#include <string.h>

enum { CHUNK_HOST = 4096 };

/* "file:line:col" as a location of ctx, or NULL */
static const Loc *loc_of_string(IrCtx *ctx, const char *s) {
  const char *c2 = s ? strrchr(s, ':') : NULL, *c1 = c2;
  while (c1 && c1 > s && c1[-1] != ':')
    c1--;
  if (!c2 || c1 <= s + 1 || c1 == c2)
    return NULL;
  char *end;
  unsigned long line = strtoul(c1, &end, 10), col = strtoul(c2 + 1, NULL, 10);
  if (end != c2 || !line)
    return NULL;
  return ir_loc_file(ctx, ir_intern(ctx, s, (size_t)(c1 - 1 - s)), (uint32_t)line, (uint32_t)col);
}

int interp_budget_more(Interp *in) {
  int64_t credit = atomic_load_explicit(&in->credit, memory_order_relaxed);
  int why = kernel_budget_take(&in->budget, &credit, CHUNK_HOST);
  /* after a bound, 0: every later op comes back here, and stops */
  atomic_store_explicit(&in->credit, why == BUDGET_OK ? credit : 0, memory_order_relaxed);
  return why;
}

int interp_budget_stop(Frame *fr, const Ins *ins, int why) {
  Interp *in = fr->in;
  if (why == BUDGET_STOPPED || !kernel_budget_first(&in->budget))
    return EX_ERROR; /* another thread found a bound and said so */
  char msg[128];
  kernel_budget_message(&in->budget, why, msg, sizeof msg);
  in->errors++;
  ir_diag(in->ctx, DIAG_ERROR, ir_op_loc(ins->op), "%s", msg);
  const Op *fn = fr->fn ? fr->fn->op : NULL;
  if (fn)
    ir_diag(in->ctx, DIAG_NOTE, ir_op_loc(fn), "on the host, running '%.*s' in '@%.*s'", (int)ins->op->name.len,
            ins->op->name.s, (int)fr->fn->name.len, fr->fn->name.s);
  else
    ir_diag(in->ctx, DIAG_NOTE, NULL, "on the host, running '%.*s'", (int)ins->op->name.len, ins->op->name.s);
  BeStall st = {0};
  if (in->be)
    be_stall(in->be, &st);
  if (st.sched && st.pending && st.polled)
    ir_diag(in->ctx, DIAG_NOTE, loc_of_string(in->ctx, st.first_loc),
            "the host appears to be spin-waiting on device work that has not run (%zu op%s pending, the "
            "first from here): under --sched=%s, device work runs only when the host submits work or waits "
            "for it, never while the host polls memory",
            st.pending, st.pending == 1 ? "" : "s", st.sched);
  return EX_ERROR;
}
