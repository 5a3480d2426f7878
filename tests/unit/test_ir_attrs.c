/* test_ir_attrs.c - attributes: dictionaries, string escapes, float and integer literals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct Fixture {
  IrCtx *ctx;
  char *diag;      /* what the diagnostics stream holds */
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

/* The printed form of top, malloc'ed. */
static char *print(Fixture *f, Op *top, bool generic) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  PrintOptions o = {.generic = generic};
  ir_print(f->ctx, out, top, &o);
  fclose(out);
  return buf;
}

/* The first op of the body of the first function in top. */
static Op *first_op(Op *top) {
  Op *fn = top->regions[0].first->first;
  return fn->regions[0].first->first;
}

/* The `value` of `arith.constant <lit> : <type>` parsed alone, or NULL on a parse error. */
static Attr *constant(Fixture *f, const char *lit, const char *type) {
  char src[256];
  snprintf(src, sizeof src, "func.func @f() {\n  %%0 = arith.constant %s : %s\n  return\n}\n", lit,
           type);
  Op *top = parse(f, src);
  return top ? ir_op_attr(first_op(top), "value") : NULL;
}

static NamedAttr named(IrCtx *ctx, const char *name, Attr *value) {
  return (NamedAttr){ir_intern_cstr(ctx, name), value};
}

static void test_ir_attr_dict_sorted_by_name(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  NamedAttr e[] = {named(ctx, "zeta", ir_attr_unit(ctx)), named(ctx, "alpha", ir_attr_bool(ctx, 1)),
                   named(ctx, "mid", ir_attr_bool(ctx, 0)), named(ctx, "alphabet", ir_attr_unit(ctx))};
  Attr *d = ir_attr_dict(ctx, e, 4);
  assert_int_equal(d->kind, ATTR_DICT);
  assert_int_equal(d->u.dict.n, 4);
  assert_true(ir_str_eq(d->u.dict.entries[0].name, "alpha"));
  assert_true(ir_str_eq(d->u.dict.entries[1].name, "alphabet"));
  assert_true(ir_str_eq(d->u.dict.entries[2].name, "mid"));
  assert_true(ir_str_eq(d->u.dict.entries[3].name, "zeta"));
}

static void test_ir_attr_dict_duplicate_last_wins(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  Type *i32 = ir_type_int(ctx, 32, SIGNLESS);
  NamedAttr e[] = {named(ctx, "k", ir_attr_int(ctx, i32, 1)), named(ctx, "a", ir_attr_unit(ctx)),
                   named(ctx, "k", ir_attr_int(ctx, i32, 2))};
  Attr *d = ir_attr_dict(ctx, e, 3);
  assert_int_equal(d->u.dict.n, 2);
  assert_int_equal(ir_dict_get(d, "k")->u.i.v, 2);
}

static void test_ir_dict_get_missing_is_null(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  NamedAttr e[] = {named(ctx, "b", ir_attr_unit(ctx))};
  Attr *d = ir_attr_dict(ctx, e, 1);
  assert_non_null(ir_dict_get(d, "b"));
  assert_null(ir_dict_get(d, "a"));
  assert_null(ir_dict_get(d, "c"));
  assert_null(ir_dict_get(d, "bb"));
  assert_null(ir_dict_get(ir_attr_dict(ctx, NULL, 0), "b"));
}

static void test_ir_dict_set_inserts_sorted_and_keeps_original(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  NamedAttr e[] = {named(ctx, "a", ir_attr_unit(ctx)), named(ctx, "c", ir_attr_unit(ctx))};
  Attr *d = ir_attr_dict(ctx, e, 2);
  Attr *d2 = ir_dict_set(ctx, d, ir_intern_cstr(ctx, "b"), ir_attr_bool(ctx, true));
  assert_int_equal(d->u.dict.n, 2);
  assert_null(ir_dict_get(d, "b"));
  assert_int_equal(d2->u.dict.n, 3);
  assert_true(ir_str_eq(d2->u.dict.entries[0].name, "a"));
  assert_true(ir_str_eq(d2->u.dict.entries[1].name, "b"));
  assert_true(ir_str_eq(d2->u.dict.entries[2].name, "c"));
  assert_true(ir_dict_get(d2, "b")->u.b);
}

static void test_ir_dict_set_replaces_existing(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  NamedAttr e[] = {named(ctx, "a", ir_attr_bool(ctx, false))};
  Attr *d = ir_dict_set(ctx, ir_attr_dict(ctx, e, 1), ir_intern_cstr(ctx, "a"), ir_attr_bool(ctx, true));
  assert_int_equal(d->u.dict.n, 1);
  assert_true(ir_dict_get(d, "a")->u.b);
}

static void test_ir_dict_set_null_removes(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  NamedAttr e[] = {named(ctx, "a", ir_attr_unit(ctx)), named(ctx, "b", ir_attr_unit(ctx))};
  Attr *d = ir_dict_set(ctx, ir_attr_dict(ctx, e, 2), ir_intern_cstr(ctx, "a"), NULL);
  assert_int_equal(d->u.dict.n, 1);
  assert_null(ir_dict_get(d, "a"));
  assert_non_null(ir_dict_get(d, "b"));
}

static void test_ir_attr_equal_structural(void **state) {
  IrCtx *ctx = ((Fixture *)*state)->ctx;
  Type *i32 = ir_type_int(ctx, 32, SIGNLESS), *i64 = ir_type_int(ctx, 64, SIGNLESS);
  assert_true(ir_attr_equal(ir_attr_int(ctx, i32, 7), ir_attr_int(ctx, i32, 7)));
  assert_false(ir_attr_equal(ir_attr_int(ctx, i32, 7), ir_attr_int(ctx, i64, 7)));
  assert_false(ir_attr_equal(ir_attr_int(ctx, i32, 7), ir_attr_int(ctx, i32, 8)));
  assert_true(ir_attr_equal(ir_attr_string(ctx, "a\0b", 3), ir_attr_string(ctx, "a\0b", 3)));
  assert_false(ir_attr_equal(ir_attr_string(ctx, "a\0b", 3), ir_attr_string(ctx, "a\0c", 3)));
  Attr *x[] = {ir_attr_unit(ctx), ir_attr_int(ctx, i32, 1)};
  Attr *y[] = {ir_attr_unit(ctx), ir_attr_int(ctx, i32, 1)};
  assert_true(ir_attr_equal(ir_attr_array(ctx, x, 2), ir_attr_array(ctx, y, 2)));
  assert_false(ir_attr_equal(ir_attr_array(ctx, x, 2), ir_attr_array(ctx, y, 1)));
}

static void test_ir_parse_attr_dict_prints_sorted(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "\"t.op\"() {zz = 1 : i32, aa = unit, mm = \"s\"} : () -> ()\n");
  assert_non_null(top);
  char *text = print(f, top, true);
  assert_non_null(strstr(text, "{aa, mm = \"s\", zz = 1 : i32}"));
  free(text);
}

static void test_ir_print_string_escapes_round_trip(void **state) {
  Fixture *f = *state;
  Op *top = parse(f, "\"t.op\"() {s = \"q\\\"b\\\\n\\n\\t\\01\\ff\\00z\"} : () -> ()\n");
  assert_non_null(top);
  Attr *s = ir_op_attr(top->regions[0].first->first, "s");
  assert_non_null(s);
  static const char want[] = "q\"b\\n\n\t\x01\xff\0z";
  assert_int_equal(s->u.str.len, sizeof want - 1);
  assert_memory_equal(s->u.str.s, want, sizeof want - 1);
  char *text = print(f, top, true);
  Op *again = ir_parse(f->ctx, "again.mlir", text, strlen(text));
  assert_non_null(again);
  assert_true(ir_attr_equal(s, ir_op_attr(again->regions[0].first->first, "s")));
  char *text2 = print(f, again, true);
  assert_string_equal(text, text2);
  free(text);
  free(text2);
}

static void test_ir_print_float_shortest_round_trip(void **state) {
  Fixture *f = *state;
  static const char *lits[] = {"0.1", "1.0e-7", "3.141592653589793", "0.3333333333333333",
                               "4.9406564584124654e-324", "1.7976931348623157e+308", "-0.0",
                               "123456789.0", "2.5"};
  for (size_t i = 0; i < sizeof lits / sizeof *lits; i++) {
    Attr *a = constant(f, lits[i], "f64");
    assert_non_null(a);
    double want = strtod(lits[i], NULL);
    assert_memory_equal(&a->u.f.v, &want, sizeof want);
    /* print, parse the printout, same bits */
    char src[256];
    snprintf(src, sizeof src, "func.func @f() {\n  %%0 = arith.constant %s : f64\n  return\n}\n",
             lits[i]);
    Op *top = parse(f, src);
    char *text = print(f, top, false);
    Op *again = ir_parse(f->ctx, "again.mlir", text, strlen(text));
    assert_non_null(again);
    Attr *b = ir_op_attr(first_op(again), "value");
    assert_memory_equal(&b->u.f.v, &want, sizeof want);
    free(text);
  }
  /* shortest: 0.1 prints with one digit, not 0.10000000000000001 */
  Op *top = parse(f, "func.func @f() {\n  %0 = arith.constant 0.1 : f64\n"
                     "  %1 = arith.constant 0.1 : f32\n  return\n}\n");
  char *text = print(f, top, false);
  assert_non_null(strstr(text, "arith.constant 1.0e-01 : f64"));
  assert_non_null(strstr(text, "arith.constant 1.0e-01 : f32"));
  free(text);
}

static void test_ir_parse_hex_float_attr(void **state) {
  Fixture *f = *state;
  Attr *one = constant(f, "0x3C00", "f16");
  assert_non_null(one);
  assert_int_equal(one->kind, ATTR_FLOAT);
  assert_true(one->u.f.v == 1.0);
  Attr *nan = constant(f, "0x7FC00001", "f32");
  assert_non_null(nan);
  assert_true(nan->u.f.has_bits);
  assert_int_equal(nan->u.f.bits, 0x7FC00001);
  Attr *inf = constant(f, "0x7FF0000000000000", "f64");
  assert_non_null(inf);
  assert_true(isinf(inf->u.f.v));
  Attr *half = constant(f, "0x3FE0000000000000", "f64");
  assert_non_null(half);
  assert_true(half->u.f.v == 0.5);
  Op *top = parse(f, "func.func @f() {\n  %0 = arith.constant 0x7FC00001 : f32\n  return\n}\n");
  char *text = print(f, top, false);
  assert_non_null(strstr(text, "arith.constant 0x7FC00001 : f32"));
  free(text);
  assert_int_equal(ir_error_count(f->ctx), 0);
}

static void test_ir_parse_hex_float_too_wide_error(void **state) {
  Fixture *f = *state;
  assert_null(constant(f, "0x7FC00000", "f16"));
  assert_int_equal(ir_error_count(f->ctx), 1);
}

static void test_ir_parse_integer_width_range(void **state) {
  Fixture *f = *state;
  assert_int_equal(constant(f, "255", "i8")->u.i.v, -1); /* stored sign-extended */
  assert_int_equal(constant(f, "-128", "i8")->u.i.v, -128);
  assert_int_equal(constant(f, "127", "si8")->u.i.v, 127);
  assert_int_equal(constant(f, "255", "ui8")->u.i.v, 255);
  assert_int_equal(constant(f, "-64", "i7")->u.i.v, -64);
  assert_int_equal(constant(f, "0xFFFF", "i16")->u.i.v, -1);
  assert_true(constant(f, "9223372036854775807", "i64")->u.i.v == INT64_MAX);
  assert_true(constant(f, "-9223372036854775808", "i64")->u.i.v == INT64_MIN);
  assert_true(constant(f, "-9223372036854775808", "index")->u.i.v == INT64_MIN);
  assert_true(constant(f, "0xFFFFFFFFFFFFFFFF", "i64")->u.i.v == -1);
  Attr *big = constant(f, "170141183460469231731687303715884105727", "i128");
  assert_non_null(big);
  assert_string_equal(big->u.i.big, "170141183460469231731687303715884105727");
  assert_int_equal(ir_error_count(f->ctx), 0);
}

static void test_ir_parse_integer_width_range_errors(void **state) {
  Fixture *f = *state;
  assert_null(constant(f, "256", "i8"));
  assert_null(constant(f, "-129", "i8"));
  assert_null(constant(f, "2", "i1"));
  assert_null(constant(f, "-65", "i7"));
  assert_null(constant(f, "18446744073709551616", "i64"));
  assert_null(constant(f, "-9223372036854775809", "i64"));
  assert_int_equal(ir_error_count(f->ctx), 6);
  fflush(f->diag_out);
  assert_non_null(strstr(f->diag, "integer constant out of range for attribute"));
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_ir_attr_dict_sorted_by_name),
      T(test_ir_attr_dict_duplicate_last_wins),
      T(test_ir_dict_get_missing_is_null),
      T(test_ir_dict_set_inserts_sorted_and_keeps_original),
      T(test_ir_dict_set_replaces_existing),
      T(test_ir_dict_set_null_removes),
      T(test_ir_attr_equal_structural),
      T(test_ir_parse_attr_dict_prints_sorted),
      T(test_ir_print_string_escapes_round_trip),
      T(test_ir_print_float_shortest_round_trip),
      T(test_ir_parse_hex_float_attr),
      T(test_ir_parse_hex_float_too_wide_error),
      T(test_ir_parse_integer_width_range),
      T(test_ir_parse_integer_width_range_errors),
  };
#undef T
  return cmocka_run_group_tests_name("ir_attrs", tests, NULL, NULL);
}
