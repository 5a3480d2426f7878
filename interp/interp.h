/* interp.h - the reference interpreter: runs a parsed and verified module.
 *
 * Host code (func, arith, math, index, cf, scf, memref, llvm, async and the gpu host ops) runs on
 * the calling thread; device work goes to a backend (backends/backend.h): high-level gpu.* async
 * ops as token-ordered ops, lowered `llvm.call @mgpu*` sequences through the mgpu ABI, kernels as
 * one device op per launch. Runtime errors are reported as located diagnostics on the op at
 * fault (mlir-opt style) and end the run; the backend reports what it finds itself (races,
 * misuse). Only main decides the exit status.
 */
#ifndef INTERP_INTERP_H
#define INTERP_INTERP_H

#include <stdio.h>

#include "backends/backend.h"
#include "ir/ir.h"

typedef struct Interp Interp;

typedef struct InterpOptions {
  Backend *be; /* the device for gpu ops (not owned) */
  FILE *out;   /* where the program's output (runner utils, gpu.printf) goes; NULL: stdout */
  bool no_race_check; /* kernels: do not check their threads' shared-memory accesses for races */
  bool race_strict;   /* kernels: threads writing the same value unordered are a warning, not a
                         note (neither is an error) */
  /* Bounds of the run (0: none): ops executed (a host op counts one, a kernel op one per thread it
   * runs for) and wall-clock seconds. Hitting one ends the run with a located error. */
  uint64_t max_steps;
  double timeout;
  /* For the differential checker (tools/diff.c), which compares two runs by what they leave
   * behind; NULL in every other use. host_buffer gets the final bytes of each host buffer the
   * program made (memref.alloc/realloc, memref.global, malloc, llvm.mlir.global) when it is
   * freed or, for those still live, when the interpreter is destroyed, with the location of the
   * op that made it and seq, the allocation's number in this run (0 for globals), so that
   * buffers of two runs can be matched by site and occurrence. device_print, when set, gets
   * gpu.printf output instead of out: one call per block's lines, with the launch op's location
   * and the launch's number in this run; calls may come from several workers, one at a time. */
  void (*host_buffer)(void *user, const char *alloc_loc, uint64_t seq, const void *bytes,
                      size_t size);
  void (*device_print)(void *user, const char *launch_loc, uint64_t launch, const char *text,
                       size_t len);
  void *hook_user;
  /* On a backend that runs device code (cuda, hip): the mlir-opt that compiles a launched
   * gpu.module to PTX or an AMD code object; NULL: $GPUINTERP_MLIR_OPT, else /usr/lib/llvm-22/bin/mlir-opt, else mlir-opt on PATH. */
  const char *mlir_opt;
} InterpOptions;

/* Prepares module (parsed and verified, owned by ctx) for running. NULL after a diagnostic when
 * the module holds something the interpreter cannot run. */
Interp *interp_create(IrCtx *ctx, Op *module, const InterpOptions *opts);

/* Runs the function named entry (func.func or llvm.func without arguments). Returns the number
 * of errors the interpreter reported (the backend counts its own: be_error_count). */
unsigned interp_run(Interp *in, const char *entry);

void interp_destroy(Interp *in);

#endif
