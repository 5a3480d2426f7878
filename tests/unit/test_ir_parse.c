/* test_ir_parse.c - the parser's bookkeeping: forward references to values and blocks, nested
 * symbol references, location aliases defined after use, the implicit top-level module, names
 * that hash alike, interned strings across the table's growth, and where ops are laid out. */
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
  char *diag;
  size_t diag_len;
  FILE *diag_out;
} Fixture;

static int setup(void **state) {
  Fixture *f = calloc(1, sizeof *f);
  f->ctx = ir_ctx_create();
  ir_ctx_allow_unregistered(f->ctx, true); /* the tests' ops are t.* */
  f->diag_out = open_memstream(&f->diag, &f->diag_len);
  ir_diag_set_stream(f->ctx, f->diag_out);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  Fixture *f = *state;
  ir_ctx_destroy(f->ctx);
  fclose(f->diag_out);
  free(f->diag);
  free(f);
  return 0;
}

static Op *parse(Fixture *f, const char *src) {
  return ir_parse(f->ctx, "t.mlir", src, strlen(src));
}

static char *print(Fixture *f, Op *top, bool generic, bool locations) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  PrintOptions o = {.generic = generic, .locations = locations};
  ir_print(f->ctx, out, top, &o);
  fclose(out);
  return buf;
}

static Op *nth_op(Block *b, int n) {
  Op *op = b->first;
  while (n-- > 0 && op)
    op = op->next;
  return op;
}

static void test_ir_parse_ssa_forward_reference(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "func.func @f(%a: i32) -> i32 {\n"
                     "  cf.br ^bb2\n"
                     "^bb1:\n"
                     "  %r = arith.addi %b, %b : i32\n"
                     "  return %r : i32\n"
                     "^bb2:\n"
                     "  %b = arith.addi %a, %a : i32\n"
                     "  cf.br ^bb1\n"
                     "}\n");
  assert_non_null(top);
  assert_int_equal(ir_verify(f->ctx, top), 0);
  Region *body = &top->regions[0].first->first->regions[0];
  Block *bb1 = body->first->next, *bb2 = bb1->next;
  Op *use = bb1->first, *def = bb2->first;
  assert_true(ir_str_eq(def->name, "arith.addi"));
  assert_ptr_equal(use->operands[0], &def->results[0]);
  assert_ptr_equal(use->operands[1], &def->results[0]);
  /* both uses are on the definition's use list */
  int uses = 0;
  for (Use *u = def->results[0].uses; u; u = u->next) {
    assert_ptr_equal(u->user, use);
    uses++;
  }
  assert_int_equal(uses, 2);
}

static void test_ir_parse_ssa_forward_reference_undefined(void **state) {
  Fixture *f = *state;
  assert_null(parse(f, "func.func @f() {\n  \"t.use\"(%nope) : (i32) -> ()\n  return\n}\n"));
  fflush(f->diag_out);
  assert_non_null(strstr(f->diag, "use of undeclared SSA value name"));
}

static void test_ir_parse_ssa_forward_reference_type_mismatch(void **state) {
  Fixture *f = *state;
  assert_null(parse(f, "func.func @f() {\n  \"t.use\"(%x) : (i32) -> ()\n"
                       "  %x = \"t.def\"() : () -> i64\n  return\n}\n"));
  assert_true(ir_error_count(f->ctx) >= 1);
}

static void test_ir_parse_block_forward_reference(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "func.func @f(%c: i1) {\n"
                     "  cf.cond_br %c, ^exit, ^loop\n"
                     "^loop:\n"
                     "  cf.br ^exit\n"
                     "^exit:\n"
                     "  return\n"
                     "}\n");
  assert_non_null(top);
  assert_int_equal(ir_verify(f->ctx, top), 0);
  Region *body = &top->regions[0].first->first->regions[0];
  Block *entry = body->first, *loop = entry->next, *exit = loop->next;
  assert_null(exit->next);
  Op *br = entry->first;
  assert_int_equal(br->nsuccs, 2);
  assert_ptr_equal(br->succs[0], exit);
  assert_ptr_equal(br->succs[1], loop);
  assert_ptr_equal(loop->first->succs[0], exit);
}

static void test_ir_parse_block_forward_reference_undefined(void **state) {
  Fixture *f = *state;
  assert_null(parse(f, "func.func @f() {\n  cf.br ^nowhere\n}\n"));
  assert_true(ir_error_count(f->ctx) >= 1);
}

static void test_ir_parse_nested_symbol_ref(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "\"t.op\"() {callee = @outer::@mid::@inner, flat = @g} : () -> ()\n");
  assert_non_null(top);
  Op *op = top->regions[0].first->first;
  Attr *ref = ir_op_attr(op, "callee");
  assert_non_null(ref);
  assert_int_equal(ref->kind, ATTR_SYMREF);
  assert_int_equal(ref->u.sym.n, 3);
  assert_true(ir_str_eq(ref->u.sym.path[0], "outer"));
  assert_true(ir_str_eq(ref->u.sym.path[1], "mid"));
  assert_true(ir_str_eq(ref->u.sym.path[2], "inner"));
  Attr *flat = ir_op_attr(op, "flat");
  assert_int_equal(flat->u.sym.n, 1);
  char *text = print(f, top, true, false);
  assert_non_null(strstr(text, "callee = @outer::@mid::@inner"));
  free(text);
}

static void test_ir_parse_nested_symbol_ref_quoted(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "\"t.op\"() {r = @\"a b\"::@c} : () -> ()\n");
  assert_non_null(top);
  Attr *ref = ir_op_attr(top->regions[0].first->first, "r");
  assert_int_equal(ref->u.sym.n, 2);
  assert_true(ir_str_eq(ref->u.sym.path[0], "a b"));
  char *text = print(f, top, true, false);
  assert_non_null(strstr(text, "r = @\"a b\"::@c"));
  free(text);
}

static void test_ir_symbol_lookup_in_module(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "func.func private @a()\nfunc.func private @b()\n");
  assert_non_null(top);
  Op *b = ir_symbol_lookup(top, ir_intern_cstr(f->ctx, "b"));
  assert_non_null(b);
  assert_ptr_equal(b, top->regions[0].first->first->next);
  assert_null(ir_symbol_lookup(top, ir_intern_cstr(f->ctx, "c")));
}

static void test_ir_parse_loc_alias_defined_at_end(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "\"t.a\"() : () -> () loc(#l0)\n"
                     "\"t.b\"() : () -> () loc(#l1)\n"
                     "#l0 = loc(\"gen.py\":12:5)\n"
                     "#l1 = loc(\"named\"(#l0))\n");
  assert_non_null(top);
  Block *b = top->regions[0].first;
  Op *a = nth_op(b, 0), *bop = nth_op(b, 1);
  assert_non_null(bop);
  assert_null(bop->next);
  assert_int_equal(a->loc->kind, LOC_FILE);
  assert_true(ir_str_eq(a->loc->file, "gen.py"));
  assert_int_equal(a->loc->line, 12);
  assert_int_equal(a->loc->col, 5);
  assert_int_equal(bop->loc->kind, LOC_NAME);
  assert_true(ir_str_eq(bop->loc->file, "named"));
  const Loc *inner = ir_loc_file_of(bop->loc);
  assert_non_null(inner);
  assert_int_equal(inner->line, 12);
  /* the source position stays where the op was written */
  assert_int_equal(ir_loc_file_of(a->src)->line, 1);
}

static void test_ir_parse_loc_alias_undefined(void **state) {
  Fixture *f = *state;
  assert_null(parse(f, "\"t.a\"() : () -> () loc(#missing)\n"));
  assert_true(ir_error_count(f->ctx) >= 1);
}

static void test_ir_parse_implicit_module_wraps_ops(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "func.func private @a()\n\"t.x\"() : () -> ()\n");
  assert_non_null(top);
  assert_true(ir_str_eq(top->name, "builtin.module"));
  assert_int_equal(top->nregions, 1);
  Block *b = top->regions[0].first;
  assert_true(ir_str_eq(nth_op(b, 0)->name, "func.func"));
  assert_true(ir_str_eq(nth_op(b, 1)->name, "t.x"));
  assert_null(nth_op(b, 2));
  assert_ptr_equal(ir_op_parent_op(nth_op(b, 1)), top);
}

static void test_ir_parse_single_module_not_wrapped(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "module @m attributes {x.y = 1 : i32} {\n  func.func private @a()\n}\n");
  assert_non_null(top);
  assert_true(ir_str_eq(top->name, "builtin.module"));
  assert_non_null(ir_op_attr(top, "x.y"));
  Op *fn = top->regions[0].first->first;
  assert_true(ir_str_eq(fn->name, "func.func"));
  assert_null(ir_op_parent_op(top));
}

static void test_ir_parse_two_modules_wrapped(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "module @a {\n}\nmodule @b {\n}\n");
  assert_non_null(top);
  Block *b = top->regions[0].first;
  assert_true(ir_str_eq(nth_op(b, 0)->name, "builtin.module"));
  assert_true(ir_str_eq(nth_op(b, 1)->name, "builtin.module"));
  assert_null(nth_op(b, 2));
}

static void test_ir_parse_empty_input_gives_empty_module(void **state) {
  Fixture *f = *state;
  Op *top = ir_parse(f->ctx, "empty.mlir", "", 0);
  assert_non_null(top);
  assert_true(ir_str_eq(top->name, "builtin.module"));
  assert_null(top->regions[0].first->first);
}

static void test_ir_parse_not_nul_terminated(void **state) {
  Fixture *f = *state;
  char buf[] = {'"', 't', '.', 'x', '"', '(', ')', ' ', ':', ' ', '(', ')', ' ', '-', '>', ' ', '(', ')'};
  Op *top = ir_parse(f->ctx, "raw.mlir", buf, sizeof buf);
  assert_non_null(top);
  assert_true(ir_str_eq(top->regions[0].first->first->name, "t.x"));
}

/* The name table hashes a name's trailing digits as a number: names that spell the same number,
   or the same last nine digits, must still be told apart by their text. */
static void test_ir_parse_names_with_equal_numbers(void **state) {
  Fixture *f = *state;
  const char *names[] = {"5", "x5", "x05", "x0005", "y5", "x50", "v12345678901", "v22345678901", "v2345678901"};
  enum { N = sizeof names / sizeof *names };
  char src[4096];
  int o = snprintf(src, sizeof src, "func.func @f() {\n");
  for (int i = 0; i < N; i++)
    o += snprintf(src + o, sizeof src - o, "  %%%s = \"t.def\"() {n = %d : i32} : () -> i32\n", names[i], i);
  for (int i = N - 1; i >= 0; i--)
    o += snprintf(src + o, sizeof src - o, "  \"t.use\"(%%%s) : (i32) -> ()\n", names[i]);
  snprintf(src + o, sizeof src - o, "  return\n}\n");
  Op *top = parse(f, src);
  assert_non_null(top);
  Block *b = top->regions[0].first->first->regions[0].first;
  for (int i = 0; i < N; i++) {
    Op *use = nth_op(b, N + (N - 1 - i));
    assert_ptr_equal(use->operands[0], &nth_op(b, i)->results[0]);
  }
}

/* Interning keeps each string's hash in the table: across the table's growth a string interned
   again is the same pointer, and distinct strings stay distinct. */
static void test_ir_intern_across_growth(void **state) {
  Fixture *f = *state;
  enum { N = 5000 };
  const char **first = calloc(N, sizeof *first);
  char buf[32];
  for (int i = 0; i < N; i++) {
    int n = snprintf(buf, sizeof buf, "s%d", i);
    first[i] = ir_intern(f->ctx, buf, (size_t)n).s;
  }
  for (int i = 0; i < N; i++) {
    int n = snprintf(buf, sizeof buf, "s%d", i);
    Str s = ir_intern(f->ctx, buf, (size_t)n);
    assert_ptr_equal(s.s, first[i]);
    assert_int_equal(s.len, n);
    assert_string_equal(s.s, buf);
  }
  assert_ptr_not_equal(first[1], first[10]);
  free(first);
}

/* Ops lie side by side in the order they were made, each with its results right after it, so a
   walk over a block's ops reads memory in sequence (ir/arena.c, ir_alloc_op). */
static void test_ir_ops_lie_in_sequence(void **state) {
  Fixture *f = *state;
  enum { N = 100 };
  char src[N * 64 + 64];
  int o = snprintf(src, sizeof src, "func.func @f(%%a: i32) {\n");
  for (int i = 0; i < N; i++)
    o += i % 3 == 2 ? snprintf(src + o, sizeof src - o, "  \"t.use\"(%%v%d) : (i32) -> ()\n", i - 1)
                    : snprintf(src + o, sizeof src - o, "  %%v%d = arith.addi %%a, %%a : i32\n", i);
  snprintf(src + o, sizeof src - o, "  return\n}\n");
  Op *top = parse(f, src);
  assert_non_null(top);
  Block *b = top->regions[0].first->first->regions[0].first;
  int n = 0;
  for (Op *op = b->first; op; op = op->next, n++) {
    if (op->nresults)
      assert_ptr_equal(op->results, (Value *)(op + 1));
    if (op->next)
      assert_ptr_equal((char *)op->next, (char *)(op + 1) + op->nresults * sizeof(Value));
  }
  assert_int_equal(n, N + 1);
  /* an op built later comes from the same chunks, its results after it too */
  Type *i32 = b->first->results[0].type;
  Op *made = ir_op_new(f->ctx, "t.made", NULL, NULL, 0, (Type *[]){i32, i32}, 2, NULL, 0);
  assert_ptr_equal(made->results, (Value *)(made + 1));
  assert_ptr_equal(made->results[1].def, made);
  assert_int_equal(made->results[1].index, 1);
  assert_ptr_equal(made->results[1].type, i32);
  Op *none = ir_op_new(f->ctx, "t.none", NULL, NULL, 0, NULL, 0, NULL, 0);
  assert_int_equal(none->nresults, 0);
  assert_ptr_equal(none->name.s, ir_intern_cstr(f->ctx, "t.none").s);
}

/* A fresh context refuses what no registered dialect defines; allowing it keeps the op as written. */
static void test_ir_parse_unregistered_dialect(void **state) {
  Fixture *f = *state;
  ir_ctx_allow_unregistered(f->ctx, false);
  assert_null(parse(f, "\"zz.op\"() : () -> ()\n"));
  fflush(f->diag_out);
  assert_non_null(strstr(f->diag, "t.mlir:1:8: error: operation being parsed with an unregistered dialect"));
  assert_null(parse(f, "func.func private @g(!zz.t)\n"));
  assert_null(parse(f, "func.func private @g() attributes {a = #zz.a}\n"));
  assert_non_null(parse(f, "\"test.op\"() : () -> ()\n"));
  ir_ctx_allow_unregistered(f->ctx, true);
  Op *top = parse(f, "\"zz.op\"() {a = #zz.a} : () -> !zz.t\n");
  assert_non_null(top);
  assert_true(ir_str_eq(top->regions[0].first->first->name, "zz.op"));
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_ir_parse_ssa_forward_reference),
      T(test_ir_parse_unregistered_dialect),
      T(test_ir_parse_ssa_forward_reference_undefined),
      T(test_ir_parse_ssa_forward_reference_type_mismatch),
      T(test_ir_parse_block_forward_reference),
      T(test_ir_parse_block_forward_reference_undefined),
      T(test_ir_parse_nested_symbol_ref),
      T(test_ir_parse_nested_symbol_ref_quoted),
      T(test_ir_symbol_lookup_in_module),
      T(test_ir_parse_loc_alias_defined_at_end),
      T(test_ir_parse_loc_alias_undefined),
      T(test_ir_parse_implicit_module_wraps_ops),
      T(test_ir_parse_single_module_not_wrapped),
      T(test_ir_parse_two_modules_wrapped),
      T(test_ir_parse_empty_input_gives_empty_module),
      T(test_ir_parse_not_nul_terminated),
      T(test_ir_parse_names_with_equal_numbers),
      T(test_ir_intern_across_growth),
      T(test_ir_ops_lie_in_sequence),
  };
#undef T
  return cmocka_run_group_tests_name("ir_parse", tests, NULL, NULL);
}
