/* hip_check.c — proves at compile time that backends/hip_api.h declares the real HIP API.
 *
 * Where hip/hip_runtime_api.h is on the include path (Debian's libamdhip64-dev puts it in
 * /usr/include), every function of HIP_FUNCTIONS must have exactly the header's prototype under
 * the same symbol name, or this file does not compile and the build stops. Without the header it
 * compiles to nothing; the lit test tests/lit/hip/prototypes.test then says it skipped. The
 * object is built by every tree and linked into nothing.
 *
 * HIP_CHECK_REQUIRE_HEADER: fail when the header is missing (what the lit test compiles with).
 * HIP_CHECK_BROKEN: check one deliberately wrong declaration, so a test can see the check fail.
 * HIP_CHECK_HIDE_HEADER: act as if the header were missing (the header lives in /usr/include, which
 * no compiler flag takes away), so a test can see what REQUIRE_HEADER says.
 */
#include "backends/hip_api.h"

#if __has_include(<hip/hip_runtime_api.h>) && !defined HIP_CHECK_HIDE_HEADER
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ /* the header serves AMD and NVIDIA; libamdhip64 is AMD's */
#endif
#include <hip/hip_runtime_api.h>

#define SAME(ret, name, params)                                                                  \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), hip_##name##_fn),             \
                   #name " in backends/hip_api.h differs from the prototype in hip_runtime_api.h");
HIP_FUNCTIONS(SAME)
#undef SAME

/* The handles must be the header's own types, and the constants its values. */
_Static_assert(__builtin_types_compatible_p(hipStream_t, HipStream), "HipStream is hipStream_t");
_Static_assert(__builtin_types_compatible_p(hipDeviceptr_t, HipDevPtr), "HipDevPtr is hipDeviceptr_t");
_Static_assert(__builtin_types_compatible_p(hipError_t, HipError), "HipError is hipError_t");
#define EQ(a, b) ((int)(a) == (int)(b))
_Static_assert(EQ(HIP_RES_OK, hipSuccess) && EQ(HIP_RES_OUT_OF_MEMORY, hipErrorOutOfMemory) &&
               EQ(HIP_RES_INVALID_VALUE, hipErrorInvalidValue) &&
               EQ(HIP_RES_NOT_INITIALIZED, hipErrorNotInitialized) &&
               EQ(HIP_RES_NO_DEVICE, hipErrorNoDevice) && EQ(HIP_RES_INVALID_HANDLE, hipErrorInvalidHandle) &&
               EQ(HIP_RES_NOT_READY, hipErrorNotReady) && EQ(HIP_RES_UNKNOWN, hipErrorUnknown),
               "hipError_t values");
_Static_assert(EQ(HIP_RES_ILLEGAL_ADDRESS, hipErrorIllegalAddress) && EQ(HIP_RES_LAUNCH_TIMEOUT, hipErrorLaunchTimeOut) &&
               EQ(HIP_RES_ASSERT, hipErrorAssert) && EQ(HIP_RES_LAUNCH_FAILURE, hipErrorLaunchFailure),
               "hipError_t values of failed kernels");
_Static_assert(EQ(HIP_FLAG_ATTR_UVA, hipDeviceAttributeUnifiedAddressing) &&
               EQ(HIP_FLAG_STREAM_NON_BLOCKING, hipStreamNonBlocking) &&
               EQ(HIP_FLAG_EVENT_DEFAULT, hipEventDefault) &&
               EQ(HIP_FLAG_EVENT_DISABLE_TIMING, hipEventDisableTiming) &&
               EQ(HIP_FLAG_MEM_ATTACH_GLOBAL, hipMemAttachGlobal) && EQ(HIP_FLAG_MEMCPY_DEFAULT, hipMemcpyDefault),
               "flag values");
#undef EQ

/* hipGetDeviceProperties (outside the table): the exported name takes the layout of before ROCm 6,
 * whose gcnArchName hip.c reads at its offset. */
#if HIP_VERSION_MAJOR >= 6
typedef hipDeviceProp_tR0000 HipPropLayout;
#else
typedef hipDeviceProp_t HipPropLayout;
_Static_assert(__builtin_types_compatible_p(__typeof__(&hipGetDeviceProperties),
                                            HipError (*)(hipDeviceProp_t *, int)),
               "hipGetDeviceProperties differs from the prototype in hip_runtime_api.h");
#endif
_Static_assert(__builtin_offsetof(HipPropLayout, gcnArchName) == HIP_PROP_ARCH_OFFSET &&
               sizeof(((HipPropLayout *)0)->gcnArchName) == HIP_PROP_ARCH_BYTES &&
               sizeof(HipPropLayout) <= HIP_PROP_BYTES,
               "gcnArchName of hipDeviceProp_t is not where backends/hip_api.h says");

#ifdef HIP_CHECK_BROKEN
typedef HipError (*broken_fn)(HipDevPtr dst, unsigned int value, size_t count, HipStream stream);
_Static_assert(__builtin_types_compatible_p(__typeof__(&hipMemsetD32Async), broken_fn),
               "hipMemsetD32Async with an unsigned value differs from the prototype in hip_runtime_api.h");
#endif

/* Something to compile into, so the object is never empty. */
extern const int hip_check_functions;
#define ONE(ret, name, params) +1
const int hip_check_functions = 0 HIP_FUNCTIONS(ONE);
#undef ONE

#elif defined HIP_CHECK_REQUIRE_HEADER
#error "hip/hip_runtime_api.h not found: the HIP prototypes cannot be checked"
#else
extern const int hip_check_functions;
const int hip_check_functions = 0; /* no HIP header here: nothing to check */
#endif
