/* test_ptx.c - the PTX front end (ptx/): real nvcc and mlir-opt output parses to the expected
 * declarations, statements and operand shapes and survives print -> parse -> print unchanged;
 * hand-written inputs cover each operand and declaration form; malformed inputs give the expected
 * located first error. The corpus is read from tests/ptx/parse/ (run from the repository root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

#define CORPUS "tests/ptx/parse/"

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "test_ptx: cannot open %s (run from the repository root)\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf)
    buf[n] = 0;
  *len = (size_t)n;
  return buf;
}

/* Parses a corpus file; fails the test with the error when it does not parse. */
static PtxModule *parse_corpus(const char *name) {
  char path[256];
  snprintf(path, sizeof path, CORPUS "%s", name);
  size_t len = 0;
  char *text = read_file(path, &len);
  assert_non_null(text);
  PtxError err;
  PtxModule *m = ptx_parse(name, text, len, &err);
  free(text);
  if (!m) {
    char msg[400];
    ptx_error_format(&err, msg, sizeof msg);
    fail_msg("%s", msg);
  }
  return m;
}

static PtxModule *parse_str(const char *text) {
  PtxError err;
  PtxModule *m = ptx_parse("@test.ptx", text, strlen(text), &err);
  if (!m) {
    char msg[400];
    ptx_error_format(&err, msg, sizeof msg);
    fail_msg("%s", msg);
  }
  return m;
}

static char *print_module(const PtxModule *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(ptx_print(f, m), 0);
  fclose(f);
  return buf;
}

static unsigned count_op(const PtxFunc *fn, PtxOpcode op) {
  unsigned n = 0;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    if (fn->stmts[i].kind == PTX_STMT_INSN && fn->stmts[i].insn.op == op)
      n++;
  return n;
}

static unsigned count_kind(const PtxFunc *fn, PtxStmtKind kind) {
  unsigned n = 0;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    n += fn->stmts[i].kind == kind;
  return n;
}

/* The nth instruction with opcode op (0-based), or fails. */
static const PtxInsn *nth_insn(const PtxFunc *fn, PtxOpcode op, unsigned nth) {
  for (uint32_t i = 0; i < fn->nstmts; i++)
    if (fn->stmts[i].kind == PTX_STMT_INSN && fn->stmts[i].insn.op == op && !nth--)
      return &fn->stmts[i].insn;
  fail_msg("no instruction %s", ptx_opcode_name(op));
  return NULL;
}

/* Modifiers joined by dots, "global.f32", into a static buffer. */
static const char *mods_of(const PtxInsn *in) {
  static char buf[256];
  buf[0] = 0;
  for (unsigned i = 0; i < in->nmods; i++) {
    strcat(buf, i ? "." : "");
    strcat(buf, in->mods[i].name);
  }
  return buf;
}

static void expect_error(const char *text, const char *want) {
  PtxError err;
  PtxModule *m = ptx_parse("@kernels.ptx", text, strlen(text), &err);
  if (m) {
    ptx_module_destroy(m);
    fail_msg("parsed, but expected: %s", want);
  }
  char got[400];
  ptx_error_format(&err, got, sizeof got);
  if (strcmp(got, want))
    fail_msg("got:  %s\nwant: %s", got, want);
}

/* --- the corpus --- */

static const char *const corpus[] = {
    "nvcc_sm90_vadd.ptx",        "nvcc_sm90_vadd_debug.ptx", "nvcc_sm90_reduce.ptx", "nvcc_sm90_warp.ptx",
    "nvcc_sm90_atomics.ptx",     "nvcc_sm90_call.ptx",       "nvcc_sm90_half.ptx",   "nvcc_sm90_loop.ptx",
    "nvcc_sm90_loop_lineinfo.ptx", "mlir_sm50_kernels.ptx",  "mlir_sm90_kernels.ptx", "mlir_sm80_calls.ptx",
    "nvcc_sm90_wmma.ptx",
};

/* parse -> print -> parse -> print: both prints equal, for every corpus file. */
static void test_ptx_corpus_round_trip(void **state) {
  for (size_t i = 0; i < sizeof corpus / sizeof *corpus; i++) {
    PtxModule *m = parse_corpus(corpus[i]);
    char *once = print_module(m);
    PtxModule *m2 = parse_str(once);
    char *twice = print_module(m2);
    if (strcmp(once, twice))
      fail_msg("%s: the print of the print differs", corpus[i]);
    /* the same instruction count both times */
    assert_int_equal(m->ndecls, m2->ndecls);
    free(once);
    free(twice);
    ptx_module_destroy(m);
    ptx_module_destroy(m2);
  }
}

static void test_ptx_vadd_shapes(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_vadd.ptx");
  assert_int_equal(m->version_major, 9);
  assert_int_equal(m->version_minor, 0);
  assert_string_equal(m->target, "sm_90");
  assert_int_equal(m->address_size, 64);
  assert_false(m->debug);
  assert_int_equal(m->ndecls, 1);
  const PtxFunc *fn = ptx_module_func(m, "vadd");
  assert_non_null(fn);
  assert_true(fn->entry);
  assert_true(fn->defined);
  assert_int_equal(fn->linkage, PTX_LINK_VISIBLE);
  assert_int_equal(fn->sig.nparams, 4);
  assert_int_equal(fn->sig.params[0].type, PTX_T_U64);
  assert_int_equal(fn->sig.params[3].type, PTX_T_U32);
  assert_string_equal(fn->sig.params[3].name, "vadd_param_3");
  assert_int_equal(count_kind(fn, PTX_STMT_REG), 4);
  assert_int_equal(count_kind(fn, PTX_STMT_INSN), 22);
  assert_int_equal(count_kind(fn, PTX_STMT_LABEL), 1);
  assert_int_equal(fn->nregs, 2 + 4 + 6 + 11);
  assert_int_equal(count_op(fn, PTX_OP_LD), 6);

  /* ld.param.u64 %rd1, [vadd_param_0]: %rd1 is number 12 + 1 (after %p<2>, %f<4>, %r<6>) */
  const PtxInsn *ld = nth_insn(fn, PTX_OP_LD, 0);
  assert_string_equal(mods_of(ld), "param.u64");
  assert_int_equal(ptx_insn_space(ld), PTX_SPACE_PARAM);
  assert_int_equal(ptx_insn_type(ld, 0), PTX_T_U64);
  assert_int_equal(ld->nopds, 2);
  assert_int_equal(ld->opds[0].kind, PTX_OPD_REG);
  assert_int_equal(ld->opds[0].n, 13);
  assert_string_equal(ld->opds[0].decl->name, "%rd");
  assert_int_equal(ld->opds[1].kind, PTX_OPD_ADDR);
  assert_int_equal(ld->opds[1].base->kind, PTX_OPD_SYM);
  assert_string_equal(ld->opds[1].base->name, "vadd_param_0");
  assert_int_equal(ld->opds[1].ival, 0);
  assert_int_equal(ld->line, 28);
  assert_int_equal(ld->col, 2);

  /* mov.u32 %r3, %ctaid.x */
  const PtxInsn *mov = nth_insn(fn, PTX_OP_MOV, 0);
  assert_int_equal(mov->opds[1].kind, PTX_OPD_SREG);
  assert_int_equal(mov->opds[1].sreg, PTX_SREG_CTAID);
  assert_int_equal(mov->opds[1].comp, 1);

  /* @%p1 bra $L__BB0_2 */
  const PtxInsn *bra = nth_insn(fn, PTX_OP_BRA, 0);
  assert_true(bra->has_guard);
  assert_false(bra->guard.neg);
  assert_int_equal(bra->guard.n, 1);
  assert_int_equal(bra->opds[0].kind, PTX_OPD_LABEL);
  assert_string_equal(bra->opds[0].name, "$L__BB0_2");
  assert_int_equal(fn->nlabels, 1);
  const PtxLabel *l = &fn->labels[bra->opds[0].label];
  assert_int_equal(fn->stmts[l->stmt].kind, PTX_STMT_LABEL);
  assert_int_equal(fn->stmts[l->stmt + 1].insn.op, PTX_OP_RET);

  /* mul.wide.s32 %rd5, %r1, 4 */
  const PtxInsn *mul = nth_insn(fn, PTX_OP_MUL, 0);
  assert_string_equal(mods_of(mul), "wide.s32");
  assert_int_equal(mul->opds[2].kind, PTX_OPD_INT);
  assert_int_equal(mul->opds[2].ival, 4);
  ptx_module_destroy(m);
}

static void test_ptx_reduce_shared(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_reduce.ptx");
  const PtxVar *dyn = ptx_module_var(m, "dbuf");
  assert_non_null(dyn);
  assert_int_equal(dyn->linkage, PTX_LINK_EXTERN);
  assert_int_equal(dyn->space, PTX_SPACE_SHARED);
  assert_int_equal(dyn->align, 16);
  assert_int_equal(dyn->type, PTX_T_B8);
  assert_true(dyn->unsized);
  assert_int_equal(dyn->ndims, 1);
  const PtxFunc *fn = ptx_module_func(m, "reduce");
  assert_non_null(fn);
  assert_int_equal(fn->perf.maxntid[0], 256);
  assert_int_equal(fn->perf.maxntid[1], 1);
  assert_int_equal(fn->perf.maxntid[2], 1);
  const PtxVar *buf = NULL;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    if (fn->stmts[i].kind == PTX_STMT_VAR)
      buf = fn->stmts[i].var;
  assert_non_null(buf);
  assert_string_equal(buf->name, "_ZZ6reduceE3buf");
  assert_int_equal(buf->dims[0], 1024);
  assert_int_equal(buf->space, PTX_SPACE_SHARED);
  assert_int_equal(count_op(fn, PTX_OP_BAR), 2);
  assert_string_equal(mods_of(nth_insn(fn, PTX_OP_BAR, 0)), "sync");
  assert_non_null(ptx_module_func(m, "reduce_dyn"));
  ptx_module_destroy(m);
}

static void test_ptx_warp_pairs(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_warp.ptx");
  const PtxFunc *fn = ptx_module_func(m, "warp_ops");
  assert_non_null(fn);
  assert_int_equal(count_op(fn, PTX_OP_SHFL), 7);
  assert_int_equal(count_op(fn, PTX_OP_VOTE), 3);
  const PtxInsn *sh = nth_insn(fn, PTX_OP_SHFL, 0);
  assert_string_equal(mods_of(sh), "sync.down.b32");
  assert_int_equal(sh->nopds, 5);
  assert_int_equal(sh->opds[0].kind, PTX_OPD_PAIR);
  assert_int_equal(sh->opds[0].elems[0].kind, PTX_OPD_REG);
  assert_int_equal(sh->opds[0].elems[1].decl->type, PTX_T_PRED);
  const PtxInsn *vote = nth_insn(fn, PTX_OP_VOTE, 1);
  assert_string_equal(mods_of(vote), "sync.all.pred");
  ptx_module_destroy(m);
}

static void test_ptx_atomics_globals(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_atomics.ptx");
  const PtxVar *counter = ptx_module_var(m, "counter");
  assert_non_null(counter);
  assert_int_equal(counter->space, PTX_SPACE_GLOBAL);
  assert_int_equal(counter->type, PTX_T_U32);
  assert_int_equal(counter->ninit, 0);
  const PtxVar *table = ptx_module_var(m, "table");
  assert_non_null(table);
  assert_int_equal(table->space, PTX_SPACE_CONST);
  assert_int_equal(table->dims[0], 16);
  assert_int_equal(table->ninit, 13);
  assert_int_equal(table->init[4].ival, 2);
  assert_int_equal(table->init[12].ival, 5);
  const PtxFunc *fn = ptx_module_func(m, "atomics");
  assert_int_equal(count_op(fn, PTX_OP_ATOM), 8);
  const PtxInsn *cas = nth_insn(fn, PTX_OP_ATOM, 3);
  assert_string_equal(mods_of(cas), "global.cas.b32");
  assert_int_equal(ptx_insn_space(cas), PTX_SPACE_GLOBAL);
  assert_int_equal(ptx_insn_type(cas, 0), PTX_T_B32);
  assert_int_equal(cas->nopds, 4);
  const PtxInsn *shared = nth_insn(fn, PTX_OP_ATOM, 0);
  assert_int_equal(ptx_insn_space(shared), PTX_SPACE_SHARED);
  assert_true(ptx_insn_has_mod(shared, "add"));
  assert_false(ptx_insn_has_mod(shared, "cas"));
  ptx_module_destroy(m);
}

static void test_ptx_call_sequences(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_call.ptx");
  const PtxFunc *vp = ptx_module_func(m, "vprintf");
  assert_non_null(vp);
  assert_false(vp->defined);
  assert_int_equal(vp->linkage, PTX_LINK_EXTERN);
  assert_int_equal(vp->sig.nrets, 1);
  assert_int_equal(vp->sig.rets[0].type, PTX_T_B32);
  assert_int_equal(vp->sig.nparams, 2);
  const PtxVar *str = ptx_module_var(m, "$str");
  assert_int_equal(str->dims[0], 15);
  assert_int_equal(str->ninit, 14);
  assert_int_equal(str->init[0].ival, 'b');
  const PtxFunc *poly = ptx_module_func(m, "_Z4polyfff");
  assert_false(poly->entry);
  assert_int_equal(poly->sig.nrets, 1);
  const PtxInsn *fmul = nth_insn(poly, PTX_OP_MUL, 0);
  assert_int_equal(fmul->opds[2].kind, PTX_OPD_F32);
  assert_int_equal((uint32_t)fmul->opds[2].ival, 0xC0600000u);
  const PtxFunc *k = ptx_module_func(m, "call_kernel");
  assert_int_equal(count_op(k, PTX_OP_CALL), 3);
  assert_int_equal(count_kind(k, PTX_STMT_OPEN), 3);
  assert_int_equal(count_kind(k, PTX_STMT_CLOSE), 3);
  /* call.uni (retval0), _Z4polyfff, (param0) */
  const PtxInsn *c0 = nth_insn(k, PTX_OP_CALL, 0);
  assert_string_equal(mods_of(c0), "uni");
  assert_int_equal(c0->nopds, 3);
  assert_int_equal(c0->opds[0].kind, PTX_OPD_LIST);
  assert_int_equal(c0->opds[0].n, 1);
  assert_string_equal(c0->opds[0].elems[0].name, "retval0");
  assert_int_equal(c0->opds[1].kind, PTX_OPD_SYM);
  assert_string_equal(c0->opds[1].name, "_Z4polyfff");
  assert_int_equal(c0->opds[2].kind, PTX_OPD_LIST);
  /* call.uni _Z4pairPiii, (param0, param1, param2) */
  const PtxInsn *c1 = nth_insn(k, PTX_OP_CALL, 1);
  assert_int_equal(c1->nopds, 2);
  assert_int_equal(c1->opds[1].n, 3);
  ptx_module_destroy(m);
}

static void test_ptx_inline_asm_scopes(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_half.ptx");
  const PtxFunc *fn = ptx_module_func(m, "half_math");
  assert_non_null(fn);
  /* { .reg .b32 f; .reg .b16 r; ... } declares plain-named registers in an inner scope */
  bool found = false;
  for (uint32_t i = 0; i < fn->nstmts; i++) {
    const PtxStmt *s = &fn->stmts[i];
    if (s->kind == PTX_STMT_INSN && s->insn.op == PTX_OP_SQRT) {
      assert_int_equal(s->insn.opds[0].kind, PTX_OPD_REG);
      assert_string_equal(s->insn.opds[0].decl->name, "f");
      assert_false(s->insn.opds[0].decl->range);
      found = true;
    }
  }
  assert_true(found);
  const PtxInsn *fma = nth_insn(fn, PTX_OP_FMA, 0);
  assert_string_equal(mods_of(fma), "rn.f16");
  assert_int_equal(ptx_insn_type(fma, 0), PTX_T_F16);
  ptx_module_destroy(m);
}

static void test_ptx_debug_locations(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_vadd_debug.ptx");
  assert_true(m->debug);
  assert_true(m->nfiles >= 2);
  assert_string_equal(m->files[1], "vadd.cu");
  const PtxFunc *fn = ptx_module_func(m, "vadd");
  const PtxInsn *mov = nth_insn(fn, PTX_OP_MOV, 0); /* after .loc 1 3 3 */
  assert_int_equal(mov->loc_file, 1);
  assert_int_equal(mov->loc_line, 3);
  assert_int_equal(mov->loc_col, 3);
  const PtxInsn *ret = nth_insn(fn, PTX_OP_RET, 0); /* after .loc 1 6 1 */
  assert_int_equal(ret->loc_line, 6);
  ptx_module_destroy(m);

  m = parse_corpus("nvcc_sm90_loop_lineinfo.ptx");
  assert_false(m->debug);
  assert_string_equal(m->files[1], "loop.cu");
  ptx_module_destroy(m);
}

static void test_ptx_mlir_output(void **state) {
  PtxModule *m = parse_corpus("mlir_sm90_kernels.ptx");
  assert_int_equal(m->version_major, 8);
  const PtxFunc *fn = ptx_module_func(m, "scale");
  assert_int_equal(fn->sig.nparams, 7);
  assert_true(fn->sig.params[0].ptr);
  assert_int_equal(fn->sig.params[0].align, 1);
  assert_false(fn->sig.params[2].ptr);
  assert_int_equal(fn->sig.params[5].type, PTX_T_F32);
  const PtxFunc *ts = ptx_module_func(m, "tile_sum");
  const PtxInsn *ld4 = NULL;
  for (unsigned i = 0; i < 8 && !ld4; i++) {
    const PtxInsn *in = nth_insn(ts, PTX_OP_LD, i);
    if (ptx_insn_has_mod(in, "v4"))
      ld4 = in;
  }
  assert_non_null(ld4);
  assert_int_equal(ld4->opds[0].kind, PTX_OPD_VEC);
  assert_int_equal(ld4->opds[0].n, 4);
  assert_int_equal(ld4->mods[1].kind, PTX_MOD_VEC);
  assert_int_equal(ld4->mods[1].value, 4);
  ptx_module_destroy(m);
  m = parse_corpus("mlir_sm50_kernels.ptx");
  assert_string_equal(m->target, "sm_50");
  assert_int_equal(m->version_major, 6);
  ptx_module_destroy(m);
}

/* LLVM's call sequence: params declared in a { } block, call.uni on one line, printf as vprintf. */
static void test_ptx_mlir_calls(void **state) {
  PtxModule *m = parse_corpus("mlir_sm80_calls.ptx");
  assert_int_equal(m->version_major, 7);
  assert_string_equal(m->target, "sm_80");
  const PtxFunc *axpy = ptx_module_func(m, "axpy");
  assert_non_null(axpy);
  assert_false(axpy->entry);
  assert_int_equal(axpy->linkage, PTX_LINK_VISIBLE);
  assert_int_equal(axpy->sig.nrets, 1);
  assert_int_equal(axpy->sig.nparams, 3);
  assert_string_equal(mods_of(nth_insn(axpy, PTX_OP_MUL, 0)), "rn.f32");
  const PtxFunc *k = ptx_module_func(m, "calls_kernel");
  assert_int_equal(k->sig.nparams, 11);
  assert_int_equal(k->sig.params[10].type, PTX_T_F32);
  assert_int_equal(count_op(k, PTX_OP_CALL), 2);
  const PtxInsn *c1 = nth_insn(k, PTX_OP_CALL, 1);
  assert_string_equal(c1->opds[1].name, "vprintf");
  assert_int_equal(c1->opds[2].n, 2);
  /* shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1: a single result, immediates */
  const PtxInsn *sh = nth_insn(k, PTX_OP_SHFL, 0);
  assert_int_equal(sh->opds[0].kind, PTX_OPD_REG);
  assert_int_equal(sh->opds[4].kind, PTX_OPD_INT);
  assert_int_equal(sh->opds[4].ival, -1);
  const PtxVar *depot = k->stmts[0].var;
  assert_int_equal(k->stmts[0].kind, PTX_STMT_VAR);
  assert_int_equal(depot->space, PTX_SPACE_LOCAL);
  assert_int_equal(depot->dims[0], 16);
  assert_int_equal(ptx_module_var(m, "printfFormat_0")->ninit, 14);
  ptx_module_destroy(m);
}

/* Tensor-core fragments are vector operands of 8; cp.async, ld.global.nc and %clock64 parse. */
static void test_ptx_wmma_and_async_copies(void **state) {
  PtxModule *m = parse_corpus("nvcc_sm90_wmma.ptx");
  const PtxFunc *fn = ptx_module_func(m, "_Z6wmma_kPK6__halfS1_PfPKfS2_");
  assert_non_null(fn);
  assert_int_equal(count_op(fn, PTX_OP_WMMA), 4);
  const PtxInsn *mma = nth_insn(fn, PTX_OP_WMMA, 2);
  assert_string_equal(mods_of(mma), "mma.sync.aligned.row.col.m16n16k16.f32.f32");
  assert_int_equal(mma->nopds, 4);
  for (unsigned i = 0; i < 4; i++) {
    assert_int_equal(mma->opds[i].kind, PTX_OPD_VEC);
    assert_int_equal(mma->opds[i].n, 8);
  }
  assert_int_equal(count_op(fn, PTX_OP_CP), 3);
  const PtxInsn *cp = nth_insn(fn, PTX_OP_CP, 0);
  assert_string_equal(mods_of(cp), "async.ca.shared.global");
  assert_int_equal(cp->opds[0].kind, PTX_OPD_ADDR);
  assert_int_equal(cp->opds[1].kind, PTX_OPD_ADDR);
  bool clock = false;
  for (uint32_t i = 0; i < fn->nstmts; i++)
    if (fn->stmts[i].kind == PTX_STMT_INSN && fn->stmts[i].insn.op == PTX_OP_MOV &&
        fn->stmts[i].insn.opds[1].kind == PTX_OPD_SREG && fn->stmts[i].insn.opds[1].sreg == PTX_SREG_CLOCK64)
      clock = true;
  assert_true(clock);
  ptx_module_destroy(m);
}

/* --- hand-written forms --- */

static const char head[] = ".version 7.8\n.target sm_80\n.address_size 64\n";

static void test_ptx_immediates_and_addresses(void **state) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s.visible .entry k(.param .u64 p)\n{\n"
           "  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<3>;\n  .reg .f64 %%fd1;\n  .reg .pred %%p;\n"
           "  mov.b32 %%r1, 0x7fffffff;\n"   /* hex */
           "  mov.b32 %%r2, 017;\n"          /* octal */
           "  mov.b32 %%r3, 0b101;\n"        /* binary */
           "  mov.b32 %%r0, -1;\n"           /* negative */
           "  mov.b32 %%r0, 42U;\n"          /* unsigned suffix */
           "  mov.f64 %%fd1, 0d3FF0000000000000;\n"
           "  mov.f64 %%fd1, 1.5;\n"         /* decimal: f64 bits */
           "  ld.global.u32 %%r0, [%%rd1+-8];\n"
           "  ld.global.u32 %%r0, [%%rd1-16];\n"
           "  ld.global.u32 %%r0, [%%rd2+4];\n"
           "  ld.global.u32 %%r0, [64];\n"
           "  @!%%p st.global.u32 [%%rd1], %%r0;\n"
           "  selp.b32 %%r0, 1, 0, !%%p;\n"
           "  ret;\n}\n",
           head);
  PtxModule *m = parse_str(text);
  const PtxFunc *fn = ptx_module_func(m, "k");
  assert_int_equal(fn->nregs, 4 + 3 + 1 + 1);
  int64_t ints[] = {0x7fffffff, 15, 5, -1, 42};
  for (unsigned i = 0; i < 5; i++) {
    const PtxInsn *in = nth_insn(fn, PTX_OP_MOV, i);
    assert_int_equal(in->opds[1].kind, PTX_OPD_INT);
    assert_int_equal(in->opds[1].ival, ints[i]);
  }
  const PtxInsn *d0 = nth_insn(fn, PTX_OP_MOV, 5), *d1 = nth_insn(fn, PTX_OP_MOV, 6);
  assert_int_equal(d0->opds[1].kind, PTX_OPD_F64);
  assert_int_equal((uint64_t)d0->opds[1].ival, 0x3FF0000000000000ull);
  assert_int_equal(d1->opds[1].kind, PTX_OPD_F64);
  assert_int_equal((uint64_t)d1->opds[1].ival, 0x3FF8000000000000ull);
  int64_t offs[] = {-8, -16, 4, 64};
  for (unsigned i = 0; i < 4; i++) {
    const PtxInsn *in = nth_insn(fn, PTX_OP_LD, i);
    assert_int_equal(in->opds[1].kind, PTX_OPD_ADDR);
    assert_int_equal(in->opds[1].ival, offs[i]);
    if (i < 3)
      assert_int_equal(in->opds[1].base->kind, PTX_OPD_REG);
    else
      assert_null(in->opds[1].base);
  }
  const PtxInsn *st = nth_insn(fn, PTX_OP_ST, 0);
  assert_true(st->has_guard);
  assert_true(st->guard.neg);
  const PtxInsn *selp = nth_insn(fn, PTX_OP_SELP, 0);
  assert_true(selp->opds[3].neg);
  assert_int_equal(selp->opds[3].kind, PTX_OPD_REG);
  char *printed = print_module(m);
  assert_non_null(strstr(printed, "\tld.global.u32 %r0, [%rd1+-8];\n"));
  assert_non_null(strstr(printed, "\t@!%p st.global.u32 [%rd1], %r0;\n"));
  assert_non_null(strstr(printed, "\tmov.f64 %fd1, 0d3FF8000000000000;\n"));
  free(printed);
  ptx_module_destroy(m);
}

static void test_ptx_variables_and_initializers(void **state) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s.global .align 8 .u64 tab[2][2] = {{1, 2}, {3, -4}};\n"
           ".global .f32 one = 0f3F800000;\n"
           ".global .u64 ptrs[4] = {tab, tab+8, generic(tab), generic(tab)+16};\n"
           ".weak .global .v4 .u32 vec;\n"
           ".global .align 1 .u8 bytes[4] = {12, 0xFF(generic(tab)+4), 0xFF00(generic(tab)+4), 0xFF0000(tab)};\n"
           ".const .b8 c1, c2[4];\n"
           ".entry k(.param .align 16 .b8 blob[32], .param .u64 .ptr .global .align 16 q)\n"
           ".reqntid 128\n.minnctapersm 2\n.maxnreg 64\n.pragma \"nounroll\";\n"
           "{ .pragma \"nounroll\"; ret; }\n",
           head);
  PtxModule *m = parse_str(text);
  const PtxVar *tab = ptx_module_var(m, "tab");
  assert_int_equal(tab->ndims, 2);
  assert_int_equal(tab->ninit, 4);
  assert_int_equal(tab->init[3].ival, -4);
  assert_int_equal(tab->align, 8);
  const PtxVar *one = ptx_module_var(m, "one");
  assert_int_equal(one->ninit, 1);
  assert_int_equal(one->init[0].kind, PTX_INIT_F32);
  const PtxVar *ptrs = ptx_module_var(m, "ptrs");
  assert_int_equal(ptrs->init[0].kind, PTX_INIT_SYM);
  assert_int_equal(ptrs->init[1].ival, 8);
  assert_int_equal(ptrs->init[2].kind, PTX_INIT_GENERIC);
  assert_string_equal(ptrs->init[2].name, "tab");
  assert_int_equal(ptrs->init[3].kind, PTX_INIT_GENERIC);
  assert_int_equal(ptrs->init[3].ival, 16);
  const PtxVar *bytes = ptx_module_var(m, "bytes");
  assert_int_equal(bytes->ninit, 4);
  assert_int_equal(bytes->init[0].mask, 0);
  assert_int_equal(bytes->init[1].kind, PTX_INIT_GENERIC);
  assert_int_equal(bytes->init[1].mask, 0xFF);
  assert_int_equal(bytes->init[1].ival, 4);
  assert_int_equal(bytes->init[2].mask, 0xFF00);
  assert_int_equal(bytes->init[3].kind, PTX_INIT_SYM);
  assert_int_equal(bytes->init[3].mask, 0xFF0000);
  const PtxVar *vec = ptx_module_var(m, "vec");
  assert_int_equal(vec->vec, 4);
  assert_int_equal(vec->linkage, PTX_LINK_WEAK);
  assert_int_equal(ptx_module_var(m, "c2")->dims[0], 4);
  assert_int_equal(ptx_module_var(m, "c1")->ndims, 0);
  const PtxFunc *fn = ptx_module_func(m, "k");
  assert_int_equal(fn->linkage, PTX_LINK_NONE);
  assert_int_equal(fn->sig.params[0].align, 16);
  assert_int_equal(fn->sig.params[0].dims[0], 32);
  assert_int_equal(fn->sig.params[1].ptr_space, PTX_SPACE_GLOBAL);
  assert_int_equal(fn->perf.reqntid[0], 128);
  assert_int_equal(fn->perf.reqntid[1], 1);
  assert_int_equal(fn->perf.minnctapersm, 2);
  assert_int_equal(fn->perf.maxnreg, 64);
  assert_int_equal(fn->npragmas, 1);
  assert_string_equal(fn->pragmas[0], "nounroll");
  assert_int_equal(fn->stmts[0].kind, PTX_STMT_PRAGMA);
  assert_string_equal(fn->stmts[0].pragma, "nounroll");
  /* the print parses back to the same print */
  char *once = print_module(m);
  PtxModule *m2 = parse_str(once);
  char *twice = print_module(m2);
  assert_string_equal(once, twice);
  assert_non_null(strstr(once, ".global .u64 ptrs[4] = {tab, tab+8, generic(tab), generic(tab)+16};"));
  free(once);
  free(twice);
  ptx_module_destroy(m2);
  ptx_module_destroy(m);
}

static void test_ptx_scopes_and_prototypes(void **state) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s.func (.param .b32 r) f(.param .b32 a) .noreturn { ret; }\n"
           ".entry k()\n{\n"
           "  .reg .b32 %%r<2>;\n  .reg .b64 %%rd1;\n"
           "  { .reg .b32 %%r<5>; mov.b32 %%r4, 1; }\n" /* an inner %%r<5> shadows %%r<2> */
           "  .reg .b32 %%r7;\n"
           "  { .reg .b32 %%r<8>; mov.b32 %%r7, 3; }\n" /* and the inner %%r<8> the outer %%r7 */
           "  mov.b32 %%r7, 4;\n"
           "  mov.b32 %%r1, 2;\n"
           "  mov.b64 %%rd1, f;\n"
           "  {\n  .param .b32 p0;\n  .param .b32 r0;\n"
           "  proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
           "  call (r0), %%rd1, (p0), proto;\n  }\n"
           "  ret;\n}\n",
           head);
  PtxModule *m = parse_str(text);
  const PtxFunc *f = ptx_module_func(m, "f");
  assert_true(f->noreturn);
  const PtxFunc *k = ptx_module_func(m, "k");
  assert_int_equal(k->nregs, 2 + 1 + 5 + 1 + 8);
  const PtxInsn *inner = nth_insn(k, PTX_OP_MOV, 0), *outer = nth_insn(k, PTX_OP_MOV, 3);
  assert_int_equal(inner->opds[0].n, 3 + 4);
  assert_int_equal(outer->opds[0].n, 1);
  assert_int_equal(nth_insn(k, PTX_OP_MOV, 1)->opds[0].n, 9 + 7); /* %r7 of the inner %r<8> */
  assert_int_equal(nth_insn(k, PTX_OP_MOV, 2)->opds[0].n, 8);     /* the outer %r7 */
  const PtxInsn *mf = nth_insn(k, PTX_OP_MOV, 4);
  assert_int_equal(mf->opds[1].kind, PTX_OPD_SYM);
  const PtxInsn *call = nth_insn(k, PTX_OP_CALL, 0);
  assert_int_equal(call->nopds, 4);
  assert_int_equal(call->opds[1].kind, PTX_OPD_REG);
  assert_string_equal(call->opds[3].name, "proto");
  assert_int_equal(count_kind(k, PTX_STMT_PROTO), 1);
  char *once = print_module(m);
  PtxModule *m2 = parse_str(once);
  char *twice = print_module(m2);
  assert_string_equal(once, twice);
  free(once);
  free(twice);
  ptx_module_destroy(m2);
  ptx_module_destroy(m);
}

/* The text need not end in NUL: only len bytes are read. */
static void test_ptx_length_bounded(void **state) {
  char text[256];
  int n = snprintf(text, sizeof text, "%s.entry k() { ret; }\nGARBAGE", head);
  PtxError err;
  PtxModule *m = ptx_parse("@t.ptx", text, (size_t)n - 8, &err);
  assert_non_null(m);
  ptx_module_destroy(m);
  m = ptx_parse("@t.ptx", text, (size_t)n, &err);
  assert_null(m);
  assert_int_equal(err.line, 5);
  assert_int_equal(err.col, 1);
  /* a C string's NUL (or several) at the end is no part of the text; one inside is an error */
  char z[256];
  n = snprintf(z, sizeof z, "%s.entry k() { ret; }\n", head);
  m = ptx_parse("@t.ptx", z, (size_t)n + 1, &err);
  assert_non_null(m);
  ptx_module_destroy(m);
  z[n - 3] = 0;
  assert_null(ptx_parse("@t.ptx", z, (size_t)n + 1, &err));
  assert_string_equal(err.msg, "unexpected byte 0x00");
}

/* --- errors: the first one, located --- */

static void test_ptx_errors_located(void **state) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "@kernels.ptx:1:1: error: a PTX module must start with .version"},
      {".version 5.0\n", "@kernels.ptx:1:10: error: PTX ISA version 5.0 is not supported (6.0 to 9.x are)"},
      {".version 8.0\n.address_size 64\n", "@kernels.ptx:3:1: error: a PTX module needs a .target"},
      {".version 8.0\n.version 8.1\n", "@kernels.ptx:2:1: error: second .version"},
      {".version 8.0\n.target sm_90\n.address_size 48\n", "@kernels.ptx:3:15: error: address size must be 32 or 64"},
      {".version 8.0\n.target sm_90, fast\n", "@kernels.ptx:2:16: error: unknown target 'fast'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  frob.u32 %r1;\n}\n",
       "@kernels.ptx:4:3: error: unknown instruction 'frob'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r<2>;\n  mov.u32 %r2, 0;\n}\n",
       "@kernels.ptx:5:11: error: use of undeclared register '%r2'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  bra $L_nowhere;\n}\n",
       "@kernels.ptx:4:7: error: use of undeclared identifier '$L_nowhere'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  mov.f32 %r1, 0f3F80;\n}\n",
       "@kernels.ptx:5:16: error: a 0f float needs exactly 8 hex digits"},
      {".version 8.0\n.target sm_90\n/* open\n", "@kernels.ptx:3:1: error: unterminated comment"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  ret\n}\n", "@kernels.ptx:5:1: error: expected ';', found '}'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  @%r1 ret;\n}\n",
       "@kernels.ptx:5:4: error: a guard must be a predicate register"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  .reg .b32 %r1;\n}\n",
       "@kernels.ptx:5:13: error: register '%r1' is already declared in this scope"},
      {".version 8.0\n.target sm_90\n.entry k() {\nL1:\nL1:\n  ret;\n}\n",
       "@kernels.ptx:5:1: error: label 'L1' is already defined at line 4"},
      {".version 8.0\n.target sm_90\n.func f(.reg .b32 x) { ret; }\n",
       "@kernels.ptx:3:9: error: '.reg' parameters are not supported (LLVM and nvcc write .param)"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  .reg .b64 %rd1;\n"
       "  tex.1d.v4.s32.s32 {%r1, %r1, %r1, %r1}, [%rd1, {%r1}];\n}\n",
       "@kernels.ptx:6:48: error: texture and surface addresses are not supported"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  ret;\n", "@kernels.ptx:3:12: error: function 'k' has no closing '}'"},
      {".version 8.0\n.target sm_90\n.global .u32 x = {1, 2\n", "@kernels.ptx:4:1: error: expected '}', found end of input"},
      {".version 8.0\n.target sm_90\n.global .u32 g;\n.global .u8 b[1] = {0xF0(g)};\n",
       "@kernels.ptx:4:21: error: an initializer mask must be 0xFF shifted by whole bytes"},
      {".version 8.0\n.target sm_90\n.shared .u32 s = 1;\n",
       "@kernels.ptx:3:14: error: only .global and .const variables may have initializers"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  mov.u32 %r1, %tid.q;\n}\n",
       "@kernels.ptx:4:11: error: use of undeclared register '%r1'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  mov.u32 %r1, %laneid.x;\n}\n",
       "@kernels.ptx:5:23: error: unexpected '.x' after '%laneid'"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r1;\n  mov.u32 %r1, 99999999999999999999;\n}\n",
       "@kernels.ptx:5:16: error: integer literal does not fit in 64 bits"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .reg .b32 %r<99999999>;\n}\n",
       "@kernels.ptx:4:16: error: register count 99999999 is too large"},
      {".version 8.0\n.target sm_90\n.entry k() .noreturn { ret; }\n",
       "@kernels.ptx:3:12: error: .noreturn applies to .func functions only"},
      {".version 8.0\n.target sm_90\n.entry k() { # }\n", "@kernels.ptx:3:14: error: unexpected character '#'"},
      {".version 8.0\n.target sm_90\n\x01\n", "@kernels.ptx:3:1: error: unexpected byte 0x01"},
      {".version 8.0\n.target sm_90\n.entry k() {\n  .branchtargets L1;\n}\n",
       "@kernels.ptx:4:3: error: unsupported directive '.branchtargets' in a function body"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    expect_error(cases[i].text, cases[i].want);
}

/* Deep nesting is refused by name, not by running out of stack. */
static void test_ptx_errors_nesting(void **state) {
  size_t n = 100000;
  char *text = malloc(n + 128);
  int k = snprintf(text, n + 128, "%s.entry k() {\n", head);
  memset(text + k, '{', n);
  text[k + n] = 0;
  PtxError err;
  assert_null(ptx_parse("@deep.ptx", text, strlen(text), &err));
  assert_string_equal(err.msg, "blocks nested more than 4096 deep");
  k = snprintf(text, n + 128, "%s.entry k() {\n  call ", head);
  memset(text + k, '(', n);
  text[k + n] = 0;
  assert_null(ptx_parse("@deep.ptx", text, strlen(text), &err));
  assert_string_equal(err.msg, "operands nested too deeply");
  k = snprintf(text, n + 128, "%s.global .u32 x[1] = ", head);
  memset(text + k, '{', n);
  text[k + n] = 0;
  assert_null(ptx_parse("@deep.ptx", text, strlen(text), &err));
  assert_string_equal(err.msg, "initializer nested too deeply");
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ptx_corpus_round_trip),
      cmocka_unit_test(test_ptx_vadd_shapes),
      cmocka_unit_test(test_ptx_reduce_shared),
      cmocka_unit_test(test_ptx_warp_pairs),
      cmocka_unit_test(test_ptx_atomics_globals),
      cmocka_unit_test(test_ptx_call_sequences),
      cmocka_unit_test(test_ptx_inline_asm_scopes),
      cmocka_unit_test(test_ptx_debug_locations),
      cmocka_unit_test(test_ptx_mlir_output),
      cmocka_unit_test(test_ptx_mlir_calls),
      cmocka_unit_test(test_ptx_wmma_and_async_copies),
      cmocka_unit_test(test_ptx_immediates_and_addresses),
      cmocka_unit_test(test_ptx_variables_and_initializers),
      cmocka_unit_test(test_ptx_scopes_and_prototypes),
      cmocka_unit_test(test_ptx_length_bounded),
      cmocka_unit_test(test_ptx_errors_located),
      cmocka_unit_test(test_ptx_errors_nesting),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
