/* ref.h - the frame of the corpus's CPU references: each ref/NAME.c computes, for every kernel of
 * NAME.cu, what the kernel computes, and says how the host program launches it.
 *
 * A reference is one function per kernel that fills the inputs, declares the kernel's arguments in
 * its parameter order (ref_buf, ref_i32, ref_f32), computes the outputs on the CPU and returns.
 * Run as `NAME KERNEL --spec`, the declarations print the launch (mkhost.py turns it into an MLIR
 * host program); run as `NAME KERNEL`, the buffers marked REF_OUT print after the kernel's
 * computation, in argument order, as the host program prints them (printMemrefF32/I32 data rows),
 * so that text is the expected output.
 *
 * Spec lines:
 *   grid GX / block BX            1-D launch shape
 *   buf NAME TYPE N in|out V...   a device buffer of N elements of TYPE (f32, i32, f16) holding
 *                                 V... before the launch; `out` ones are printed after it
 *   i32 V / f32 V                 a scalar argument
 *   check dag                     the output lines may come in any order (device printf)
 *   check error                   the kernel is wrong on purpose: the expected output is the
 *                                 diagnostic (FileCheck patterns the reference prints)
 * Every float is printed with %.9g, which reads back as the same float. */
#ifndef REF_H
#define REF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REF_IN, REF_OUT };

typedef struct {
  const char *type; /* "f32", "i32", "f16" */
  int n, dir;
  const void *data;
} RefBuf;

static int ref_spec_mode;
static RefBuf ref_bufs[16];
static int ref_nbufs;

static inline void ref_launch(int grid, int block) {
  if (ref_spec_mode)
    printf("grid %d\nblock %d\n", grid, block);
}

static inline void ref_check(const char *how) {
  if (ref_spec_mode)
    printf("check %s\n", how);
}

/* The buffer is printed as it is when the reference returns (REF_OUT) or before (its input). */
static inline void ref_buf(const char *name, const char *type, int n, int dir, const void *data) {
  if (ref_nbufs < 16)
    ref_bufs[ref_nbufs++] = (RefBuf){type, n, dir, data};
  if (!ref_spec_mode)
    return;
  printf("buf %s %s %d %s", name, type, n, dir == REF_OUT ? "out" : "in");
  for (int i = 0; i < n; i++) {
    if (!strcmp(type, "i32"))
      printf(" %d", ((const int32_t *)data)[i]);
    else if (!strcmp(type, "f32"))
      printf(" %.9g", (double)((const float *)data)[i]);
    else
      printf(" %.9g", (double)((const _Float16 *)data)[i]);
  }
  printf("\n");
}

static inline void ref_i32(int32_t v) {
  if (ref_spec_mode)
    printf("i32 %d\n", v);
}

static inline void ref_f32(float v) {
  if (ref_spec_mode)
    printf("f32 %.9g\n", (double)v);
}

/* As printMemrefF32/I32 print a rank-1 memref's data: `[a,  b,  c]`, floats as std::ostream does
 * (%g). */
static inline void ref_print(const RefBuf *b) {
  printf("[");
  for (int i = 0; i < b->n; i++) {
    if (i)
      printf(",  ");
    if (!strcmp(b->type, "i32"))
      printf("%d", ((const int32_t *)b->data)[i]);
    else
      printf("%g", (double)((const float *)b->data)[i]);
  }
  printf("]\n");
}

typedef struct {
  const char *kernel;
  void (*ref)(void);
} RefKernel;

/* main of every reference: NAME KERNEL [--spec] */
static inline int ref_main(int argc, char **argv, const RefKernel *ks, int nk) {
  if (argc < 2 || (argc == 3 && strcmp(argv[2], "--spec")) || argc > 3) {
    fprintf(stderr, "usage: %s KERNEL [--spec]\n", argv[0]);
    return 2;
  }
  ref_spec_mode = argc == 3;
  for (int i = 0; i < nk; i++) {
    if (strcmp(ks[i].kernel, argv[1]))
      continue;
    ks[i].ref();
    for (int j = 0; j < ref_nbufs && !ref_spec_mode; j++)
      if (ref_bufs[j].dir == REF_OUT)
        ref_print(&ref_bufs[j]);
    return 0;
  }
  fprintf(stderr, "%s: no kernel '%s'\n", argv[0], argv[1]);
  return 2;
}

#define REF_MAIN(...)                                                                              \
  int main(int argc, char **argv) {                                                                \
    static const RefKernel ks[] = {__VA_ARGS__};                                                   \
    return ref_main(argc, argv, ks, (int)(sizeof ks / sizeof ks[0]));                              \
  }

#endif
