/* ptx_parse.c - parses one PTX file with the PTX front end (ptx/) REPEAT times (default 1), each
 * module freed before the next, and says what it read: the tool bench/ptx-parse.sh times against
 * ptxas (repeating so that the time is well above the clock's resolution). Exit status 1 with the
 * located error when it does not parse.
 *   ptx_parse FILE [REPEAT] */
#include <stdio.h>
#include <stdlib.h>

#include "ptx/ptx.h"

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fputs("usage: ptx_parse FILE [REPEAT]\n", stderr);
    return 2;
  }
  int repeat = argc == 3 ? atoi(argv[2]) : 1;
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *text = malloc(n > 0 ? (size_t)n : 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  fclose(f);
  PtxError err;
  for (int i = 1; i < repeat; i++)
    ptx_module_destroy(ptx_parse(argv[1], text, (size_t)n, &err));
  PtxModule *m = ptx_parse(argv[1], text, (size_t)n, &err);
  if (!m) {
    char msg[400];
    ptx_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return 1;
  }
  unsigned long funcs = 0, insns = 0;
  for (uint32_t i = 0; i < m->ndecls; i++)
    if (m->decls[i].kind == PTX_DECL_FUNC) {
      funcs++;
      for (uint32_t j = 0; j < m->decls[i].func->nstmts; j++)
        insns += m->decls[i].func->stmts[j].kind == PTX_STMT_INSN;
    }
  printf("%s: %ld bytes, %lu functions, %lu instructions\n", argv[1], n, funcs, insns);
  ptx_module_destroy(m);
  free(text);
  return 0;
}
