/* kernel_fp.h - private to kernel/: IEEE rounding for the PTX kernels (kernel_ptx.c): values of
 * the narrow float formats (f16, bf16, tf32) and f32 rounded by any of PTX's modes, and f32/f64
 * arithmetic rounded toward zero, down or up. Every result is the correctly rounded one, bit for
 * bit; nothing here depends on the host's rounding mode or on _Float16. */
#ifndef INTERP_KERNEL_FP_H
#define INTERP_KERNEL_FP_H

#include <stdbool.h>
#include <stdint.h>

/* Roundings: to nearest even, toward zero, down, up, to nearest with ties away from zero. */
enum { KFP_RN, KFP_RZ, KFP_RM, KFP_RP, KFP_RNA };
/* Formats: their bits in the low bits of a word (tf32 as the f32 it is stored as). E4M3 and E5M2
 * are the fp8 formats, both here with IEEE's meaning of the top exponent (infinities and NaNs):
 * right for E5M2; E4M3's (no infinities, one NaN, 448 its largest value) is its caller's
 * (kernel_ptx.c), which rounds nothing above 448 here. */
enum { KFP_F16, KFP_BF16, KFP_TF32, KFP_F32, KFP_F64, KFP_E4M3, KFP_E5M2 };

/* The value of a format's bits (exact: every format here fits a double). */
double kernel_fp_value(uint64_t bits, unsigned fmt);
/* x rounded to fmt by mode. rsign says what x leaves out: 0 none (x is exact), +1 or -1 a part
 * of that sign smaller than the last bit of x (what an exact sum or product keeps beside x).
 * A NaN gives the format's canonical NaN; overflow infinity or the largest finite value, by mode. */
uint64_t kernel_fp_round(double x, int rsign, unsigned mode, unsigned fmt);
/* An integer (s: of a signed type, its 64 bits sign-extended) rounded to fmt by mode. */
uint64_t kernel_fp_from_int(uint64_t v, bool s, unsigned mode, unsigned fmt);
/* Format facts: its bits' width, its canonical NaN, whether bits are a NaN or a subnormal. */
unsigned kernel_fp_bits(unsigned fmt);
uint64_t kernel_fp_nan(unsigned fmt);
bool kernel_fp_isnan(uint64_t bits, unsigned fmt);
bool kernel_fp_subnormal(uint64_t bits, unsigned fmt);

/* The exact sum, product, fma of values of a format narrower than double, rounded once to fmt
 * (a + b, a * b, a * b + c, computed without losing a bit). */
uint64_t kernel_fp_add(double a, double b, unsigned mode, unsigned fmt);
uint64_t kernel_fp_mul(double a, double b, unsigned mode, unsigned fmt);
uint64_t kernel_fp_fma(double a, double b, double c, unsigned mode, unsigned fmt);

/* f32 and f64 arithmetic by mode (op: one of KFP_OP_*; b, c unused where the op takes fewer):
 * the IEEE result's bits (a NaN the canonical one). f32 works exactly in double; f64 under the
 * thread's rounding mode, set and restored around the operation (each worker thread has its own). */
enum { KFP_OP_ADD, KFP_OP_SUB, KFP_OP_MUL, KFP_OP_FMA, KFP_OP_DIV, KFP_OP_SQRT, KFP_OP_RCP };
uint32_t kernel_fp_f32(unsigned op, unsigned mode, float a, float b, float c);
uint64_t kernel_fp_f64(unsigned op, unsigned mode, double a, double b, double c);

#endif
