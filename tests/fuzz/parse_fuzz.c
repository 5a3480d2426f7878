/* parse_fuzz.c - libFuzzer harness for the MLIR text front end.
 *
 * Each input is a whole file: a fresh context parses it; when the parse succeeds the module is
 * verified and printed (custom and generic forms) to /dev/null, so the verifier and the printer
 * see every tree the parser can build; a module that verifies is then lowered (lower/), verified
 * and printed again, so the lowering sees every valid program too. Diagnostics go to /dev/null too. Errors are expected;
 * crashes, sanitizer reports and leaks are the findings. Built and run by tests/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"
#include "lower/lower.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull)
    devnull = fopen("/dev/null", "w");
  IrCtx *ctx = ir_ctx_create();
  ir_diag_set_stream(ctx, devnull);
  Op *top = ir_parse(ctx, "fuzz.mlir", (const char *)data, size);
  if (top) {
    unsigned errors = ir_verify(ctx, top);
    PrintOptions custom = {.generic = false, .locations = true};
    PrintOptions generic = {.generic = true, .locations = false};
    ir_print(ctx, devnull, top, &custom);
    ir_print(ctx, devnull, top, &generic);
    LowerOptions lo = {0};
    if (!errors && !lower_module(ctx, top, &lo)) {
      if (ir_verify(ctx, top))
        __builtin_trap(); /* the lowering made a module that does not verify */
      ir_print(ctx, devnull, top, &custom);
    }
  }
  ir_ctx_destroy(ctx);
  return 0;
}
