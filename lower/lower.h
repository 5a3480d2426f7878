/* lower.h - the project's own lowering of gpu host ops to `mgpu*` runtime calls.
 *
 * lower_module rewrites a parsed and verified module in place: every gpu host op (gpu.wait,
 * gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset, gpu.host_register/unregister,
 * gpu.set_default_device, gpu.launch_func, gpu.launch after outlining) becomes a sequence of
 * `llvm.call @mgpu*` with MLIR 22's ABI (mgpu/mgpu.c), and every !gpu.async.token becomes an
 * !llvm.ptr stream. Every op it makes carries the location of the op it came from, so a lowered
 * call can be matched to its high-level op. Host memrefs stay memrefs. The design is in
 * docs/design.md ("Lowering").
 *
 * Errors (an op it cannot lower) are reported as located diagnostics through ctx; the return
 * value is their number. The module must not be run or printed after a failed lowering. */
#ifndef LOWER_LOWER_H
#define LOWER_LOWER_H

#include "ir/ir.h"

typedef struct LowerOptions {
  /* Testing only: inject one classic lowering bug, "KIND" or "KIND:SITE" (SITE counts the places
   * where KIND applies, from 0, in program order; without it every place). NULL: none. The kinds
   * are listed by lower_mutation_kinds. */
  const char *mutate;
  unsigned sites; /* out: how many sites of the mutation kind the lowering met */
} LowerOptions;

unsigned lower_module(IrCtx *ctx, Op *module, LowerOptions *opts);

/* Outlines every gpu.launch body of the host code into a gpu.func kernel of a new gpu.module and
 * launches it with gpu.launch_func (what lower_module does first). Returns the errors reported. */
unsigned lower_outline(IrCtx *ctx, Op *module);

/* Outlines one gpu.launch of a function of module the same way; the gpu.launch_func that takes its
 * place (at the launch's location), or NULL after a located error. The launch is erased: it stays
 * in ctx's arena, its body moved out. */
Op *lower_outline_launch(IrCtx *ctx, Op *module, Op *launch);

/* The names of the mutation kinds, NULL-terminated. */
const char *const *lower_mutation_kinds(void);

#endif
