/* lower.c - placeholder until the lowering lands: reports that it is not written yet. */
#include "lower/lower.h"

static const char *const kinds[] = {NULL};

const char *const *lower_mutation_kinds(void) { return kinds; }
unsigned lower_mutation_sites(void) { return 0; }

unsigned lower_module(IrCtx *ctx, Op *module, const LowerOptions *opts) {
  (void)opts;
  ir_diag(ctx, DIAG_ERROR, module->loc, "the lowering is not implemented yet");
  return 1;
}
