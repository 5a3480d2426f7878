/* gpuinterp - runs MLIR programs that use the GPU dialect, with or without a GPU.
 *
 * This file is only the command line: it parses options, reads and verifies the program with
 * ir/, and prints it (--emit=mlir). Exit status: 0 ok, 1 a program or runtime error or a
 * violation found, 2 a usage, parse or verification error. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VERSION "0.1.0"

static const char usage_text[] =
    "usage: gpuinterp [options] prog.mlir|-\n"
    "\n"
    "Runs an MLIR program that uses the GPU dialect, in its high-level (gpu.*) or lowered\n"
    "(llvm.call @mgpu*) form.\n"
    "\n"
    "options:\n"
    "  --backend=sim|cuda|hip     device to run on (default: sim, the CPU simulator)\n"
    "  -e NAME                    entry function (default: main)\n"
    "  --sched=threads|serial|random:SEED\n"
    "                             simulator scheduler (default: threads)\n"
    "  --trace=FILE               write a trace of the run\n"
    "  --trace-format=text|chrome trace format (default: text)\n"
    "  --no-race-check            do not check for data races\n"
    "  --emit=mlir                parse, verify and print the program instead of running it\n"
    "  --print-generic            with --emit=mlir: print every op in the generic form\n"
    "  --print-locations          with --emit=mlir: print loc(...) for every op\n"
    "  --no-verify                with --emit=mlir: skip the verifier\n"
    "  --help                     show this text\n"
    "  --version                  show the version\n"
    "\n"
    "exit status: 0 ok; 1 program or runtime error, or a violation found; 2 usage, parse or\n"
    "verification error.\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("gpuinterp: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'gpuinterp --help' for more information.\n", stderr);
  return 2;
}

int main(int argc, char **argv) {
  const char *input = NULL, *emit = NULL, *backend = "sim", *entry = "main";
  PrintOptions popts = {0};
  bool verify = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("gpuinterp %s\n", VERSION);
      return 0;
    } else if (!strncmp(a, "--emit=", 7)) {
      emit = a + 7;
      if (strcmp(emit, "mlir"))
        return usage_error("unknown --emit kind '%s' (expected: mlir)", emit);
    } else if (!strcmp(a, "--print-generic")) {
      popts.generic = true;
    } else if (!strcmp(a, "--print-locations")) {
      popts.locations = true;
    } else if (!strcmp(a, "--no-verify")) {
      verify = false;
    } else if (!strncmp(a, "--backend=", 10)) {
      backend = a + 10;
      if (strcmp(backend, "sim") && strcmp(backend, "cuda") && strcmp(backend, "hip"))
        return usage_error("unknown backend '%s' (expected: sim, cuda or hip)", backend);
    } else if (!strcmp(a, "-e")) {
      if (++i == argc)
        return usage_error("%s needs a function name", a);
      entry = argv[i];
    } else if (!strncmp(a, "--sched=", 8) || !strncmp(a, "--trace=", 8) ||
               !strncmp(a, "--trace-format=", 15) || !strcmp(a, "--no-race-check")) {
      /* accepted here; they matter only when running, which reports its own absence below */
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else if (input) {
      return usage_error("more than one input file ('%s')", a);
    } else {
      input = a;
    }
  }
  if (!input)
    return usage_error("%s", "no input file (use - for standard input)");

  IrCtx *ctx = ir_ctx_create();
  if (!ctx)
    return 1;
  int status = 0;
  Op *top = ir_parse_file(ctx, input);
  if (!top || (verify && ir_verify(ctx, top))) {
    status = 2;
    goto done;
  }
  if (emit) {
    ir_print(ctx, stdout, top, &popts);
    goto done;
  }
  (void)entry;
  fprintf(stderr,
          "gpuinterp: error: running programs on the '%s' backend is not implemented yet; "
          "--emit=mlir parses, verifies and prints the program\n",
          backend);
  status = 1;
done:
  if (fflush(stdout) != 0 && status == 0)
    status = 1;
  ir_ctx_destroy(ctx);
  return status;
}
