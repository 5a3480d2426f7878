/* ptx_fuzz.c - libFuzzer harness for the PTX front end (ptx/).
 *
 * Each input is a whole PTX text, parsed from a buffer of exactly its size (no NUL after it, so a
 * read past the end is an ASan report). A module that parses is printed, and the print must parse
 * again and print the same: the printer and the parser agree on every module the parser can build.
 * An error must carry a place inside the text. Built and run by tests/fuzz/ptx_run.sh. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *print(const PtxModule *m, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f)
    abort();
  ptx_print(f, m);
  fclose(f);
  return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  PtxError err;
  PtxModule *m = ptx_parse("@fuzz.ptx", text, size, &err);
  if (!m) {
    uint32_t lines = 1;
    for (size_t i = 0; i < size; i++)
      lines += text[i] == '\n';
    if (!err.line || err.line > lines || !err.col || !err.msg[0])
      __builtin_trap(); /* an error outside the text, or without a message */
  } else {
    size_t len1, len2;
    char *once = print(m, &len1);
    PtxModule *m2 = ptx_parse("@print.ptx", once, len1, &err);
    if (!m2) {
      fprintf(stderr, "the print does not parse: %u:%u: %s\n%s", err.line, err.col, err.msg, once);
      __builtin_trap();
    }
    char *twice = print(m2, &len2);
    if (len1 != len2 || memcmp(once, twice, len1)) {
      fprintf(stderr, "the print of the print differs:\n%s\n----\n%s", once, twice);
      __builtin_trap();
    }
    free(once);
    free(twice);
    ptx_module_destroy(m2);
    ptx_module_destroy(m);
  }
  free(text);
  return 0;
}
