/* mgpu.h - MLIR's mgpu* runtime ABI (mgpu.c), on the device API (backends/backend.h) and, for
 * modules of PTX, the kernel engine (kernel/kernel.h); exported by libmgpusim.so.
 *
 * MLIR's GPU runtime wrapper functions, with upstream's C signatures: what `mlir-opt --gpu-to-llvm`
 * lowered host code calls. They run on a process-wide backend opened on the first call (see mgpu.c
 * for the environment variables) and closed at exit. */
#ifndef MGPU_MGPU_H
#define MGPU_MGPU_H

#include "backends/backend.h"
#include "kernel/kernel.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MLIR's StridedMemRefType<char, 1> read as a ranked descriptor of any rank: sizes[rank] and then
 * strides[rank] follow the offset. */
typedef struct BeMemRef {
    char *base;
    char *data;
    int64_t offset;
    int64_t sizes_strides[];
} BeMemRef;

void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
/* 0 bytes gives NULL. The stream is not used: allocation is immediate, as cuMemAlloc. */
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
/* Frees after the work already on stream (stream-ordered). NULL is ignored. */
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostRegisterMemRef(int64_t rank, BeMemRef *descriptor, int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, BeMemRef *descriptor, int64_t elementSizeBytes);
void mgpuSetDefaultDevice(int32_t device);
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params,
                      void **extra, size_t paramsCount);

/* For a host that runs lowered code itself (the interpreter): the mgpu* calls that follow run on
 * host->be (not owned), PTX modules on host's kernel engine, and are named loc in diagnostics and
 * traces, until the next bind; mgpu_bind(NULL, NULL) goes back to the process-wide device. Not
 * exported by libmgpusim.so. */
void mgpu_bind(KHost *host, const char *loc);
/* The host's end: forgets the PTX modules loaded on its engine (their handles are then none). */
void mgpu_host_gone(KHost *host);
/* For a stand-in of a GPU driver that runs the PTX it is given on the engine (tests/fakes/), while
 * a host on the sim is bound: the module of PTX text, named `name` in diagnostics (and keying its
 * .global variables: "@cuModuleLoadData#1.ptx"), NULL after a located diagnostic; it is then used
 * as mgpuModuleLoadJIT's. The parameter count of one of its kernels (mgpuModuleGetFunction's), as
 * mgpuLaunchKernel takes it; 0 for anything else. */
void *mgpu_ptx_load(const void *text, size_t size, const char *name);
uint32_t mgpu_ptx_params(void *function);

#endif
