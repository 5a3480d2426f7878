/* diff.h - gpuinterp --diff: runs a program and a lowering of it (or the program on another
 * backend) and reports where they differ.
 *
 * The method is described at the top of diff.c. diff_run prints nothing on stdout (the programs'
 * output is compared, not shown); its diagnostics go to stderr in mlir-opt's shape. */
#ifndef TOOLS_DIFF_H
#define TOOLS_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "traces/traces.h"

typedef enum DiffLeakCheck {
  DIFF_LEAK_OFF,   /* leaks only the lowered form has are not reported */
  DIFF_LEAK_WARN,  /* ... are warnings (the default) */
  DIFF_LEAK_ERROR, /* ... are differences */
} DiffLeakCheck;

typedef struct DiffOptions {
  const char *input;      /* the high-level program */
  const char *against;    /* a lowered form of it (e.g. mlir-opt's), or NULL: lower_module */
  const char *entry;      /* the function both forms run */
  unsigned seeds;         /* random schedules, besides serial and threads */
  DiffLeakCheck leak_check;
  bool strict;            /* lost concurrency is a difference, not a warning */
  const char *trace_path; /* write both forms' witness traces (see diff.c for the names), or NULL */
  TraceFormat trace_format;
  const char *mutate;     /* testing: a --lower-mutate of our lowering (with against NULL) */
  uint64_t max_steps;     /* bounds of each run (InterpOptions), 0: none */
  double timeout;
  /* --against-backend: compare the program (or --against's file) run once on this backend
   * ("cuda") with the program on the simulator, by output and final host buffers; NULL: the
   * lowering on the simulator, as above */
  const char *against_backend;
  const char *cuda_lib;   /* the driver library of the cuda backend, or NULL */
  const char *mlir_opt;   /* InterpOptions.mlir_opt */
  bool allow_unregistered; /* ir_ctx_allow_unregistered for both forms */
} DiffOptions;

/* Returns the exit status: 0 both forms agree, 1 a difference (or the program itself is wrong), 2
 * a usage, parse or verification error, or a lowered file without the program's locations. */
int diff_run(const DiffOptions *opts);

#endif
