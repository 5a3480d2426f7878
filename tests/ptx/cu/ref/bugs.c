/* References for the kernels that are wrong on purpose (bug_*.cu): what each launch must report.
 * The output is FileCheck patterns of the diagnostic, not data. */
#include "ref.h"

enum { BLOCK = 64 };

static void shift_left(void) {
  static int32_t in[BLOCK], out[BLOCK];
  for (int i = 0; i < BLOCK; i++)
    in[i] = i * 3;
  ref_launch(1, BLOCK);
  ref_check("error");
  ref_buf("in", "i32", BLOCK, REF_IN, in);
  ref_buf("out", "i32", BLOCK, REF_IN, out);
  if (!ref_spec_mode)
    printf("error: {{.*}}data race in shared memory\n");
}

static void copy_off_by_one(void) {
  static int32_t in[40], out[40];
  for (int i = 0; i < 40; i++)
    in[i] = 40 - i;
  ref_launch(2, 32);
  ref_check("error");
  ref_buf("in", "i32", 40, REF_IN, in);
  ref_buf("out", "i32", 40, REF_IN, out);
  ref_i32(40);
  if (!ref_spec_mode) {
    printf("error: {{.*}}bytes [160, 164) are out of bounds of the 160-byte device memory{{.*}}\n");
    printf("note: the access of thread (8, 0, 0) of block (1, 0, 0)\n");
  }
}

static void even_barrier(void) {
  static int32_t out[BLOCK];
  ref_launch(1, BLOCK);
  ref_check("error");
  ref_buf("out", "i32", BLOCK, REF_IN, out);
  if (!ref_spec_mode)
    printf("error: {{.*}}divergent barrier: 32 of 64 threads reached it\n");
}

REF_MAIN({"shift_left", shift_left}, {"copy_off_by_one", copy_off_by_one}, {"even_barrier", even_barrier})
