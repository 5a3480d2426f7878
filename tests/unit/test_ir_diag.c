/* test_ir_diag.c - diagnostics: `file:line:col: error: msg`, the source line and a caret. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct Fixture {
  IrCtx *ctx;
  FILE *out; /* tmpfile the diagnostics go to */
} Fixture;

static int setup(void **state) {
  Fixture *f = calloc(1, sizeof *f);
  f->ctx = ir_ctx_create();
  ir_ctx_allow_unregistered(f->ctx, true); /* the tests' ops are t.* */
  f->out = tmpfile();
  ir_diag_set_stream(f->ctx, f->out);
  *state = f;
  return f->out ? 0 : -1;
}

static int teardown(void **state) {
  Fixture *f = *state;
  ir_ctx_destroy(f->ctx);
  fclose(f->out);
  free(f);
  return 0;
}

/* Everything written to the diagnostics stream so far, as a static string. */
static const char *diag_text(Fixture *f) {
  static char buf[8192];
  fflush(f->out);
  rewind(f->out);
  size_t n = fread(buf, 1, sizeof buf - 1, f->out);
  buf[n] = 0;
  return buf;
}

static void test_ir_parse_error_has_location_line_and_caret(void **state) {
  Fixture *f = *state;
  const char *src = "func.func @f() {\n  %0 = arith.constant 256 : i8\n  return\n}\n";
  assert_null(ir_parse(f->ctx, "prog.mlir", src, strlen(src)));
  assert_int_equal(ir_error_count(f->ctx), 1);
  assert_string_equal(diag_text(f),
                      "prog.mlir:2:23: error: integer constant out of range for attribute\n"
                      "  %0 = arith.constant 256 : i8\n"
                      "                      ^\n");
}

static void test_ir_parse_error_caret_keeps_tabs(void **state) {
  Fixture *f = *state;
  const char *src = "\t\"t.op\"() : () -> (i32, %)\n";
  assert_null(ir_parse(f->ctx, "tab.mlir", src, strlen(src)));
  const char *d = diag_text(f);
  assert_memory_equal(d, "tab.mlir:1:25: error: ", 22);
  /* the source line is quoted, and the caret line starts with the same tab */
  assert_non_null(strstr(d, "\n\t\"t.op\"() : () -> (i32, %)\n\t                       ^\n"));
}

static void test_ir_parse_error_last_line_without_newline(void **state) {
  Fixture *f = *state;
  const char *src = "func.func @f() {\n  return";
  assert_null(ir_parse(f->ctx, "eof.mlir", src, strlen(src)));
  const char *d = diag_text(f);
  assert_memory_equal(d, "eof.mlir:2:", 11);
  assert_non_null(strstr(d, "\n  return\n"));
  assert_non_null(strstr(d, "^\n"));
}

static void test_ir_verify_error_has_note(void **state) {
  Fixture *f = *state;
  const char *src = "func.func @f() {\n  \"t.use\"(%0) : (i32) -> ()\n"
                    "  %0 = \"t.def\"() : () -> i32\n  return\n}\n";
  Op *top = ir_parse(f->ctx, "dom.mlir", src, strlen(src));
  assert_non_null(top);
  assert_int_equal(ir_verify(f->ctx, top), 1);
  assert_int_equal(ir_error_count(f->ctx), 1);
  const char *d = diag_text(f);
  assert_string_equal(d, "dom.mlir:2:3: error: operand #0 does not dominate this use\n"
                         "  \"t.use\"(%0) : (i32) -> ()\n"
                         "  ^\n"
                         "dom.mlir:3:8: note: operand defined here\n"
                         "  %0 = \"t.def\"() : () -> i32\n"
                         "       ^\n");
}

static void test_ir_diag_without_location(void **state) {
  Fixture *f = *state;
  ir_diag(f->ctx, DIAG_WARNING, NULL, "just %s", "text");
  assert_string_equal(diag_text(f), "gpuinterp: warning: just text\n");
  assert_int_equal(ir_error_count(f->ctx), 0);
}

static void test_ir_diag_location_without_source(void **state) {
  Fixture *f = *state;
  Loc *l = ir_loc_file(f->ctx, ir_intern_cstr(f->ctx, "other.mlir"), 7, 3);
  ir_diag(f->ctx, DIAG_ERROR, l, "bad %d", 42);
  ir_diag(f->ctx, DIAG_NOTE, l, "see here");
  assert_string_equal(diag_text(f), "other.mlir:7:3: error: bad 42\nother.mlir:7:3: note: see here\n");
  assert_int_equal(ir_error_count(f->ctx), 1);
}

static void test_ir_parse_explicit_loc_used_for_verify_error(void **state) {
  Fixture *f = *state;
  /* the op's own loc(...) names a file the context has not read: no source line */
  const char *src = "func.func @f() {\n  \"t.use\"(%0) : (i32) -> () loc(\"gen.mlir\":40:2)\n"
                    "  %0 = \"t.def\"() : () -> i32\n  return\n}\n";
  Op *top = ir_parse(f->ctx, "src.mlir", src, strlen(src));
  assert_non_null(top);
  assert_int_equal(ir_verify(f->ctx, top), 1);
  assert_string_equal(diag_text(f), "gen.mlir:40:2: error: operand #0 does not dominate this use\n"
                                    "src.mlir:3:8: note: operand defined here\n"
                                    "  %0 = \"t.def\"() : () -> i32\n"
                                    "       ^\n");
}

/* Verifies src (which must parse) and returns the number of errors. */
static unsigned verify_src(Fixture *f, const char *src) {
  Op *top = ir_parse(f->ctx, "sym.mlir", src, strlen(src));
  assert_non_null(top);
  return ir_verify(f->ctx, top);
}

static void test_ir_verify_symbol_redefinition_reports_first(void **state) {
  Fixture *f = *state;
  assert_int_equal(verify_src(f, "func.func private @a()\nfunc.func private @b()\n"
                                 "func.func private @a()\nfunc.func private @a()\n"),
                   2);
  assert_string_equal(diag_text(f), "sym.mlir:3:1: error: redefinition of symbol named 'a'\n"
                                    "func.func private @a()\n^\n"
                                    "sym.mlir:1:1: note: see existing symbol definition here\n"
                                    "func.func private @a()\n^\n"
                                    "sym.mlir:4:1: error: redefinition of symbol named 'a'\n"
                                    "func.func private @a()\n^\n"
                                    "sym.mlir:1:1: note: see existing symbol definition here\n"
                                    "func.func private @a()\n^\n");
}

static void test_ir_verify_symbol_same_name_in_nested_table(void **state) {
  Fixture *f = *state;
  /* @k in the module and @k in the gpu.module are different symbols */
  assert_int_equal(verify_src(f, "module attributes {gpu.container_module} {\n"
                                 "  func.func private @k()\n"
                                 "  gpu.module @kernels {\n"
                                 "    gpu.func @k() kernel {\n      gpu.return\n    }\n"
                                 "  }\n"
                                 "  func.func @main() {\n"
                                 "    %c1 = arith.constant 1 : index\n"
                                 "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) "
                                 "threads in (%c1, %c1, %c1)\n"
                                 "    call @k() : () -> ()\n"
                                 "    return\n  }\n}\n"),
                   0);
  assert_string_equal(diag_text(f), "");
}

static void test_ir_verify_symbol_lookup_misses(void **state) {
  Fixture *f = *state;
  assert_int_equal(verify_src(f, "module attributes {gpu.container_module} {\n"
                                 "  gpu.module @kernels {\n"
                                 "    gpu.func @k() kernel {\n      gpu.return\n    }\n"
                                 "  }\n"
                                 "  func.func @main() {\n"
                                 "    %c1 = arith.constant 1 : index\n"
                                 "    gpu.launch_func @kernels::@nope blocks in (%c1, %c1, %c1) "
                                 "threads in (%c1, %c1, %c1)\n"
                                 "    gpu.launch_func @nope::@k blocks in (%c1, %c1, %c1) "
                                 "threads in (%c1, %c1, %c1)\n"
                                 "    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) "
                                 "threads in (%c1, %c1, %c1)\n"
                                 "    return\n  }\n}\n"),
                   2);
  const char *d = diag_text(f);
  assert_non_null(strstr(d, "sym.mlir:9:5: error: 'gpu.launch_func' op kernel function "
                            "'@kernels::@nope' is undefined\n"));
  assert_non_null(strstr(d, "sym.mlir:10:5: error: 'gpu.launch_func' op kernel container "
                            "'nope' is undefined\n"));
}
static void test_ir_diag_source_read_from_disk(void **state) {
  Fixture *f = *state;
  char path[] = "/tmp/test_ir_diag_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *src = fdopen(fd, "w");
  fputs("first line\n  second line\n", src);
  fclose(src);
  Loc *l = ir_loc_file(f->ctx, ir_intern_cstr(f->ctx, path), 2, 3);
  ir_diag(f->ctx, DIAG_NOTE, l, "here");
  char want[256];
  snprintf(want, sizeof want, "%s:2:3: note: here\n  second line\n  ^\n", path);
  assert_string_equal(diag_text(f), want);
  size_t len = 0;
  const char *line = ir_diag_source_line(f->ctx, ir_intern_cstr(f->ctx, path), 1, &len);
  assert_non_null(line);
  assert_int_equal(len, 10);
  assert_memory_equal(line, "first line", 10);
  assert_null(ir_diag_source_line(f->ctx, ir_intern_cstr(f->ctx, path), 9, &len));
  remove(path);
}

static void test_ir_diag_summary_text_plurals(void **state) {
  (void)state;
  char b[64];
  ir_diag_summary_text(0, 0, b, sizeof b);
  assert_string_equal(b, "");
  ir_diag_summary_text(1, 0, b, sizeof b);
  assert_string_equal(b, "1 error");
  ir_diag_summary_text(0, 2, b, sizeof b);
  assert_string_equal(b, "2 warnings");
  ir_diag_summary_text(1, 2, b, sizeof b);
  assert_string_equal(b, "1 error, 2 warnings");
  ir_diag_summary_text(3, 1, b, sizeof b);
  assert_string_equal(b, "3 errors, 1 warning");
}

static char *shout(void *user, const Loc *loc, const char *msg) {
  (void)loc;
  ++*(int *)user;
  size_t n = strlen(msg);
  char *s = malloc(n + 2);
  memcpy(s, msg, n);
  memcpy(s + n, "!", 2);
  return s;
}

static void test_ir_diag_rewrite_hook_applies_to_every_message(void **state) {
  Fixture *f = *state;
  int calls = 0;
  ir_diag_set_rewrite(f->ctx, shout, &calls);
  ir_diag(f->ctx, DIAG_ERROR, NULL, "a");
  ir_diag(f->ctx, DIAG_NOTE, NULL, "b");
  ir_diag_set_rewrite(f->ctx, NULL, NULL);
  ir_diag(f->ctx, DIAG_NOTE, NULL, "c");
  assert_string_equal(diag_text(f), "gpuinterp: error: a!\ngpuinterp: note: b!\ngpuinterp: note: c\n");
  assert_int_equal(calls, 2);
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_ir_parse_error_has_location_line_and_caret),
      T(test_ir_parse_error_caret_keeps_tabs),
      T(test_ir_parse_error_last_line_without_newline),
      T(test_ir_verify_error_has_note),
      T(test_ir_diag_without_location),
      T(test_ir_diag_location_without_source),
      T(test_ir_parse_explicit_loc_used_for_verify_error),
      T(test_ir_verify_symbol_redefinition_reports_first),
      T(test_ir_verify_symbol_same_name_in_nested_table),
      T(test_ir_verify_symbol_lookup_misses),
      T(test_ir_diag_source_read_from_disk),
      T(test_ir_diag_summary_text_plurals),
      T(test_ir_diag_rewrite_hook_applies_to_every_message),
  };
#undef T
  return cmocka_run_group_tests_name("ir_diag", tests, NULL, NULL);
}
