/* cuda_check.c — proves at compile time that backends/cuda_api.h declares the real driver API.
 *
 * Where cuda.h is on the include path (the build adds /usr/local/cuda/include), every function of
 * CUDA_FUNCTIONS must have exactly cuda.h's prototype under the same symbol name, or this file
 * does not compile and the build stops. Without cuda.h it compiles to nothing; the lit test
 * tests/lit/cuda/prototypes.test then says it skipped. The object is built by every tree and
 * linked into nothing.
 *
 * CUDA_CHECK_REQUIRE_HEADER: fail when cuda.h is missing (what the lit test compiles with).
 * CUDA_CHECK_BROKEN: check one deliberately wrong declaration, so a test can see the check fail.
 */
#include "backends/cuda_api.h"

#if __has_include(<cuda.h>)
#include <cuda.h>

#define SAME(name, params)                                                                       \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), cu_##name##_fn),              \
                   #name " in backends/cuda_api.h differs from the prototype in cuda.h");
CUDA_FUNCTIONS(SAME)
#undef SAME

#ifdef cuEventElapsedTime /* the header maps it to cuEventElapsedTime_v2 */
_Static_assert(__builtin_types_compatible_p(__typeof__(&cuEventElapsedTime_v2), cu_event_elapsed_fn),
               "cu_event_elapsed_fn in backends/cuda_api.h differs from cuEventElapsedTime_v2 in cuda.h");
#else
_Static_assert(__builtin_types_compatible_p(__typeof__(&cuEventElapsedTime), cu_event_elapsed_fn),
               "cu_event_elapsed_fn in backends/cuda_api.h differs from cuEventElapsedTime in cuda.h");
#endif

/* The handles must be cuda.h's own types, and the constants its values. */
_Static_assert(__builtin_types_compatible_p(CUstream, CuStream), "CuStream is CUstream");
_Static_assert(__builtin_types_compatible_p(CUdeviceptr, CuDevPtr), "CuDevPtr is CUdeviceptr");
#define EQ(a, b) ((int)(a) == (int)(b))
_Static_assert(EQ(CU_OK, CUDA_SUCCESS) && EQ(CU_ERROR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY) &&
               EQ(CU_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE) &&
               EQ(CU_ERROR_NOT_INITIALIZED, CUDA_ERROR_NOT_INITIALIZED) &&
               EQ(CU_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE) &&
               EQ(CU_ERROR_INVALID_HANDLE, CUDA_ERROR_INVALID_HANDLE) &&
               EQ(CU_ERROR_NOT_READY, CUDA_ERROR_NOT_READY), "CUresult values");
_Static_assert(EQ(CU_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_ADDRESS) &&
               EQ(CU_ERROR_LAUNCH_TIMEOUT, CUDA_ERROR_LAUNCH_TIMEOUT) && EQ(CU_ERROR_ASSERT, CUDA_ERROR_ASSERT) &&
               EQ(CU_ERROR_HARDWARE_STACK_ERROR, CUDA_ERROR_HARDWARE_STACK_ERROR) &&
               EQ(CU_ERROR_ILLEGAL_INSTRUCTION, CUDA_ERROR_ILLEGAL_INSTRUCTION) &&
               EQ(CU_ERROR_MISALIGNED_ADDRESS, CUDA_ERROR_MISALIGNED_ADDRESS) &&
               EQ(CU_ERROR_INVALID_ADDRESS_SPACE, CUDA_ERROR_INVALID_ADDRESS_SPACE) &&
               EQ(CU_ERROR_INVALID_PC, CUDA_ERROR_INVALID_PC) && EQ(CU_ERROR_LAUNCH_FAILED, CUDA_ERROR_LAUNCH_FAILED),
               "CUresult values of failed kernels");
_Static_assert(EQ(CU_ATTR_UNIFIED_ADDRESSING, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) &&
               EQ(CU_STREAM_NON_BLOCKING_FLAG, CU_STREAM_NON_BLOCKING) &&
               EQ(CU_EVENT_DEFAULT_FLAG, CU_EVENT_DEFAULT) &&
               EQ(CU_MEM_ATTACH_GLOBAL_FLAG, CU_MEM_ATTACH_GLOBAL), "flag values");
#undef EQ

#ifdef CUDA_CHECK_BROKEN
typedef CuResult (*broken_fn)(CuDevPtr *ptr, unsigned int bytes); /* cuMemAlloc's legacy ABI */
_Static_assert(__builtin_types_compatible_p(__typeof__(&cuMemAlloc_v2), broken_fn),
               "cuMemAlloc_v2 with a 32-bit size differs from the prototype in cuda.h");
#endif

/* Something to compile into, so the object is never empty. */
extern const int cuda_check_functions;
#define ONE(name, params) +1
const int cuda_check_functions = 0 CUDA_FUNCTIONS(ONE);
#undef ONE

#elif defined CUDA_CHECK_REQUIRE_HEADER
#error "cuda.h not found: the driver prototypes cannot be checked"
#else
extern const int cuda_check_functions;
const int cuda_check_functions = 0; /* no cuda.h here: nothing to check */
#endif
