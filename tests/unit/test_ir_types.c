/* test_ir_types.c - type interning and the small type queries of ir/ir.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ir/ir.h"

static int setup(void **state) {
  *state = ir_ctx_create();
  if (*state)
    ir_ctx_allow_unregistered(*state, true); /* the tests' ops are t.* */
  return *state ? 0 : -1;
}

static int teardown(void **state) {
  ir_ctx_destroy(*state);
  return 0;
}

/* The result type of the first op in the first func of src. */
static Type *first_result_type(IrCtx *ctx, const char *src) {
  Op *top = ir_parse(ctx, "t.mlir", src, strlen(src));
  assert_non_null(top);
  Op *fn = top->regions[0].first->first;
  Op *op = fn->regions[0].first->first;
  assert_true(op->nresults >= 1);
  return op->results[0].type;
}

static void test_ir_type_int_same_pointer(void **state) {
  IrCtx *ctx = *state;
  assert_ptr_equal(ir_type_int(ctx, 32, SIGNLESS), ir_type_int(ctx, 32, SIGNLESS));
  assert_ptr_not_equal(ir_type_int(ctx, 32, SIGNLESS), ir_type_int(ctx, 32, SIGNED));
  assert_ptr_not_equal(ir_type_int(ctx, 32, SIGNLESS), ir_type_int(ctx, 64, SIGNLESS));
  assert_ptr_equal(ir_type_index(ctx), ir_type_index(ctx));
  assert_ptr_equal(ir_type_float(ctx, F_BF16), ir_type_float(ctx, F_BF16));
  assert_ptr_not_equal(ir_type_float(ctx, F_F16), ir_type_float(ctx, F_BF16));
  assert_ptr_equal(ir_type_simple(ctx, TY_GPU_TOKEN), ir_type_simple(ctx, TY_GPU_TOKEN));
  assert_ptr_equal(ir_type_llvm_ptr(ctx, 1), ir_type_llvm_ptr(ctx, 1));
  assert_ptr_not_equal(ir_type_llvm_ptr(ctx, 0), ir_type_llvm_ptr(ctx, 1));
}

static void test_ir_type_func_same_pointer(void **state) {
  IrCtx *ctx = *state;
  Type *in1[] = {ir_type_int(ctx, 8, SIGNLESS), ir_type_index(ctx)};
  Type *in2[] = {ir_type_int(ctx, 8, SIGNLESS), ir_type_index(ctx)};
  Type *out[] = {ir_type_float(ctx, F_F32)};
  Type *a = ir_type_func(ctx, in1, 2, out, 1);
  Type *b = ir_type_func(ctx, in2, 2, out, 1);
  assert_ptr_equal(a, b);
  assert_ptr_not_equal(a, ir_type_func(ctx, in1, 2, NULL, 0));
  assert_ptr_not_equal(a, ir_type_func(ctx, out, 1, in1, 2));
}

static void test_ir_type_intern_parsed_same_pointer(void **state) {
  IrCtx *ctx = *state;
  Type *p = first_result_type(ctx, "func.func @f() {\n"
                                   "  %0 = \"t.a\"() : () -> i17\n"
                                   "  %1 = \"t.b\"() : () -> memref<4x?xf32>\n"
                                   "  %2 = \"t.c\"() : () -> memref<4x?xf32>\n"
                                   "  return\n}\n");
  assert_ptr_equal(p, ir_type_int(ctx, 17, SIGNLESS));
  const char *src = "func.func @g() {\n  %0 = \"t.b\"() : () -> memref<4x?xf32>\n  return\n}\n";
  Op *top = ir_parse(ctx, "u.mlir", src, strlen(src));
  assert_non_null(top);
  Type *m2 = top->regions[0].first->first->regions[0].first->first->results[0].type;
  assert_int_equal(m2->kind, TY_MEMREF);
  assert_int_equal(m2->u.sh.rank, 2);
  assert_int_equal(m2->u.sh.shape[0], 4);
  assert_true(m2->u.sh.shape[1] == IR_DYNAMIC);
  /* the same spelling in a second parse, same context: the same type */
  Op *top2 = ir_parse(ctx, "v.mlir", src, strlen(src));
  assert_non_null(top2);
  assert_ptr_equal(m2, top2->regions[0].first->first->regions[0].first->first->results[0].type);
}

static void test_ir_type_intern_proto_same_pointer(void **state) {
  IrCtx *ctx = *state;
  Type proto;
  memset(&proto, 0, sizeof proto);
  proto.kind = TY_INT;
  proto.u.i.width = 5;
  proto.u.i.sign = UNSIGNED;
  assert_ptr_equal(ir_type_intern(ctx, &proto), ir_type_int(ctx, 5, UNSIGNED));
}

static void test_ir_type_is_integer_width(void **state) {
  IrCtx *ctx = *state;
  assert_true(ir_type_is_integer(ir_type_int(ctx, 32, SIGNLESS), 32));
  assert_true(ir_type_is_integer(ir_type_int(ctx, 32, SIGNLESS), 0));
  assert_false(ir_type_is_integer(ir_type_int(ctx, 32, SIGNLESS), 64));
  assert_false(ir_type_is_integer(ir_type_int(ctx, 32, SIGNED), 32));
  assert_false(ir_type_is_integer(ir_type_index(ctx), 0));
  assert_true(ir_type_is_float(ir_type_float(ctx, F_F8E4M3FN)));
  assert_false(ir_type_is_float(ir_type_index(ctx)));
}

static void test_ir_float_width_known_kinds(void **state) {
  (void)state;
  assert_int_equal(ir_float_width(F_F16), 16);
  assert_int_equal(ir_float_width(F_BF16), 16);
  assert_int_equal(ir_float_width(F_F32), 32);
  assert_int_equal(ir_float_width(F_F64), 64);
  assert_int_equal(ir_float_width(F_F80), 80);
  assert_int_equal(ir_float_width(F_F128), 128);
  assert_int_equal(ir_float_width(F_F8E5M2), 8);
  assert_string_equal(ir_float_name(F_BF16), "bf16");
  assert_string_equal(ir_float_name(F_F8E4M3FN), "f8E4M3FN");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_ir_type_int_same_pointer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ir_type_func_same_pointer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ir_type_intern_parsed_same_pointer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ir_type_intern_proto_same_pointer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ir_type_is_integer_width, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ir_float_width_known_kinds, setup, teardown),
  };
  return cmocka_run_group_tests_name("ir_types", tests, NULL, NULL);
}
