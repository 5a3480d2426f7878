/* fakecuda.c — a fake CUDA driver library for the tests of the cuda backend (backends/cuda.c).
 *
 * Built as $b/tests/fakes/libfakecuda.so; gpuinterp loads it with --cuda-lib=PATH (or
 * GPUINTERP_CUDA_LIB). It exports the functions of backends/cuda_api.h under the names the real
 * libcuda.so.1 exports (cuMemAlloc_v2, cuStreamDestroy_v2, ...), with the same prototypes, and
 * implements them on host memory: one device, streams and events that complete at once (every
 * copy and memset is done when it is enqueued), modules that keep their image, and launches that
 * run nothing. It checks what a driver checks (handles of the right kind and alive, a context
 * made current, copies inside the allocations it handed out, frees of what it allocated) and
 * returns the driver's error codes for what is wrong.
 *
 * Environment:
 *   FAKECUDA_LOG=PATH         append one line per call: `name(args) -> RESULT [outputs]`.
 *                             Handles and device memory are named by what the fake handed out, in
 *                             order (s1, e2, d1+16, m1 for host-shared memory, mod1, kernels by
 *                             name); other host pointers are `host`, so logs do not change from
 *                             run to run. A launch shows its parameters as the kernel's PTX
 *                             declares them (device pointers named, integers in decimal, floats
 *                             as their bits in hex), a PTX module load the names of its
 *                             .entry kernels.
 *   FAKECUDA_FAIL=NAME:N[:CODE][,...]  the Nth call of NAME returns CODE (a number or a
 *                             CUDA_ERROR_* name; default CUDA_ERROR_OUT_OF_MEMORY for
 *                             allocations, CUDA_ERROR_NO_DEVICE for cuInit, else
 *                             CUDA_ERROR_UNKNOWN) and does nothing else.
 *   FAKECUDA_CORRUPT=NAME:N[,...]  the Nth call of NAME (a copy or memset) succeeds but flips
 *                             every bit of the first byte it wrote, and its log line says
 *                             "(corrupted)": a wrong result for the differential checks to find.
 *   FAKECUDA_DEVICES=N        devices cuDeviceGetCount reports (default 1).
 * Event timing (cuEventElapsedTime_v2) follows a device clock that a copy advances by 0.25 ms, a
 * memset by 0.125 ms and a launch by 1 ms, so timed traces are the same on every run.
 *   FAKECUDA_UVA=0            the devices have no unified addressing.
 *
 * Device memory is never given back before exit (a freed allocation stays known, so a later use
 * of it is CUDA_ERROR_INVALID_VALUE, not a wild access). One host thread, as the backend; a lock
 * anyway, since it costs nothing here.
 */
#include "backends/cuda_api.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROTO(name, params) CuResult name params;
CUDA_FUNCTIONS(PROTO)
#undef PROTO
CuResult cuEventElapsedTime_v2(float *ms, CuEvent start, CuEvent end);

/* ---- error names ---- */

static const struct {
    CuResult code;
    const char *name;
} errors[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {999, "CUDA_ERROR_UNKNOWN"},
};
enum { E_VALUE = 1, E_OOM = 2, E_NOT_INIT = 3, E_NO_DEVICE = 100, E_DEVICE = 101, E_IMAGE = 200,
       E_CONTEXT = 201, E_HANDLE = 400, E_NOT_FOUND = 500, E_REGISTERED = 712, E_NOT_REGISTERED = 713,
       E_UNKNOWN = 999 };

static const char *name_of(CuResult r)
{
    for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
        if (errors[i].code == r)
            return errors[i].name;
    return NULL;
}

/* ---- state ---- */

enum { K_CTX = 1, K_STREAM, K_EVENT, K_MODULE, K_FUNCTION };

typedef struct Obj Obj;
struct Obj {
    Obj *next;
    int kind;
    unsigned id;
    bool live;
    int refs;        /* a context: primary retains */
    char *image;     /* a module: its image, NUL-terminated */
    size_t image_len;
    Obj *module;     /* a function */
    char name[128];  /* a function */
    double t;        /* an event: the device clock when it was last recorded */
    bool recorded;
};

typedef struct Mem {
    struct Mem *next;
    unsigned char *base;
    size_t size;
    unsigned id;
    bool managed, registered, live;
} Mem;

typedef struct Fail {
    char name[48];
    unsigned long nth;
    CuResult code;
} Fail;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool started, inited;
static FILE *log_file;
static Fail fails[16];
static size_t n_fails;
static Fail corrupts[16]; /* FAKECUDA_CORRUPT: name and nth only */
static size_t n_corrupts;
static int n_devices = 1;
static bool uva = true;
static Obj *objs, *current;
static unsigned next_id[K_FUNCTION + 1];
static Mem *mems;
static unsigned next_mem;
/* The device's clock, in milliseconds: a copy takes 0.25, a memset 0.125, a launch 1, so event
 * timings (cuEventElapsedTime_v2) are the same on every run. */
static double device_ms;
static struct {
    char name[48];
    unsigned long n;
} counts[64];

static void parse_fail(const char *spec)
{
    while (spec && *spec && n_fails < sizeof fails / sizeof *fails) {
        Fail f = {.code = 0};
        const char *colon = strchr(spec, ':');
        if (!colon || (size_t)(colon - spec) >= sizeof f.name)
            break;
        memcpy(f.name, spec, (size_t)(colon - spec));
        char *end;
        f.nth = strtoul(colon + 1, &end, 10);
        if (*end == ':') {
            const char *code = end + 1;
            size_t len = strcspn(code, ",");
            if (isdigit((unsigned char)*code)) {
                f.code = (CuResult)strtoul(code, NULL, 10);
            } else {
                for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
                    if (strlen(errors[i].name) == len && strncmp(errors[i].name, code, len) == 0)
                        f.code = errors[i].code;
            }
            end = (char *)code + len;
        }
        if (!f.code)
            f.code = strstr(f.name, "MemAlloc") ? E_OOM : strcmp(f.name, "cuInit") == 0 ? E_NO_DEVICE : E_UNKNOWN;
        fails[n_fails++] = f;
        spec = *end == ',' ? end + 1 : NULL;
    }
}

static void start(void)
{
    if (started)
        return;
    started = true;
    const char *path = getenv("FAKECUDA_LOG");
    if (path && *path)
        log_file = fopen(path, "a");
    parse_fail(getenv("FAKECUDA_FAIL"));
    for (const char *c = getenv("FAKECUDA_CORRUPT"); c && *c && n_corrupts < sizeof corrupts / sizeof *corrupts;) {
        const char *colon = strchr(c, ':');
        if (!colon || (size_t)(colon - c) >= sizeof corrupts[0].name)
            break;
        Fail *f = &corrupts[n_corrupts++];
        memcpy(f->name, c, (size_t)(colon - c));
        char *end;
        f->nth = strtoul(colon + 1, &end, 10);
        c = *end == ',' ? end + 1 : NULL;
    }
    const char *n = getenv("FAKECUDA_DEVICES");
    if (n && *n)
        n_devices = atoi(n);
    const char *u = getenv("FAKECUDA_UVA");
    uva = !(u && strcmp(u, "0") == 0);
}

/* Counts a call of name; the injected error when this is the call to fail, else 0. */
static CuResult enter(const char *name)
{
    start();
    unsigned long n = 0;
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        if (!counts[i].name[0])
            snprintf(counts[i].name, sizeof counts[i].name, "%s", name);
        if (strcmp(counts[i].name, name) == 0) {
            n = ++counts[i].n;
            break;
        }
    }
    for (size_t i = 0; i < n_fails; i++)
        if (fails[i].nth == n && strcmp(fails[i].name, name) == 0)
            return fails[i].code;
    return 0;
}

/* Whether the call of name just counted is one FAKECUDA_CORRUPT names. */
static bool corrupt_now(const char *name)
{
    unsigned long n = 0;
    for (size_t i = 0; i < sizeof counts / sizeof *counts && counts[i].name[0]; i++)
        if (strcmp(counts[i].name, name) == 0)
            n = counts[i].n;
    for (size_t i = 0; i < n_corrupts; i++)
        if (corrupts[i].nth == n && strcmp(corrupts[i].name, name) == 0)
            return true;
    return false;
}

/* Flips the first byte a copy or memset wrote, when this call is to be corrupted. */
static void maybe_corrupt(const char *name, CuDevPtr dst, size_t bytes, char *out, size_t cap)
{
    if (!bytes || !corrupt_now(name))
        return;
    *(unsigned char *)(uintptr_t)dst ^= 0xff;
    snprintf(out, cap, "(corrupted)");
}

static void say(const char *name, const char *args, CuResult r, bool injected, const char *out)
{
    if (!log_file)
        return;
    const char *rn = name_of(r);
    if (rn)
        fprintf(log_file, "%s(%s) -> %s", name, args, rn);
    else
        fprintf(log_file, "%s(%s) -> %u", name, args, r);
    if (injected)
        fputs(" (injected)", log_file);
    if (out && *out)
        fprintf(log_file, " %s", out);
    fputc('\n', log_file);
    fflush(log_file);
}

/* ---- naming and checking ---- */

static Obj *obj_find(const void *h, int kind)
{
    for (Obj *o = objs; o; o = o->next)
        if ((const void *)o == h && o->kind == kind)
            return o;
    return NULL;
}

static Obj *obj_new(int kind)
{
    Obj *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->kind = kind;
    o->id = ++next_id[kind];
    o->live = true;
    o->next = objs;
    objs = o;
    return o;
}

static Mem *mem_find(uintptr_t p)
{
    for (Mem *m = mems; m; m = m->next)
        if (p >= (uintptr_t)m->base && p - (uintptr_t)m->base < (m->size ? m->size : 1))
            return m;
    return NULL;
}

/* "d3", "d3+16", "m1" (host-shared), "host" or "0". */
static void ptr_name(char *buf, size_t cap, uintptr_t p)
{
    Mem *m = p ? mem_find(p) : NULL;
    if (!p)
        snprintf(buf, cap, "0");
    else if (!m || m->registered)
        snprintf(buf, cap, "host");
    else if (p == (uintptr_t)m->base)
        snprintf(buf, cap, "%c%u", m->managed ? 'm' : 'd', m->id);
    else
        snprintf(buf, cap, "%c%u+%zu", m->managed ? 'm' : 'd', m->id, (size_t)(p - (uintptr_t)m->base));
}

static void obj_name(char *buf, size_t cap, const void *h, int kind)
{
    Obj *o = obj_find(h, kind);
    static const char prefix[][4] = {"", "ctx", "s", "e", "mod", ""};
    if (!h)
        snprintf(buf, cap, "0");
    else if (!o)
        snprintf(buf, cap, "%p?", h);
    else if (kind == K_FUNCTION)
        snprintf(buf, cap, "%s", o->name);
    else
        snprintf(buf, cap, "%s%u", prefix[kind], o->id);
}

/* A live stream (NULL: the default stream) or 0, else the error. */
static CuResult need_stream(CuStream s)
{
    if (!s)
        return 0;
    Obj *o = obj_find(s, K_STREAM);
    return o && o->live ? 0 : E_HANDLE;
}

static CuResult need_event(CuEvent e)
{
    Obj *o = obj_find(e, K_EVENT);
    return o && o->live ? 0 : E_HANDLE;
}

static CuResult need_ctx(void)
{
    if (!inited)
        return E_NOT_INIT;
    return current && current->live ? 0 : E_CONTEXT;
}

/* [p, p+n) may be touched: inside a live allocation when it starts in one, else host memory. */
static CuResult need_range(uintptr_t p, size_t n)
{
    if (!p)
        return E_VALUE;
    Mem *m = mem_find(p);
    if (!m)
        return 0;
    if (!m->live || n > m->size - (p - (uintptr_t)m->base))
        return E_VALUE;
    return 0;
}

/* Every function follows one shape: count the call, format its arguments, fail if told to, do
 * the work, log. */
#define BEGIN(name, ...)                                                                         \
    pthread_mutex_lock(&mu);                                                                     \
    CuResult r = enter(#name);                                                                   \
    bool injected = r != 0;                                                                      \
    char args[1024] = "", out[256] = "";                                                          \
    snprintf(args, sizeof args, __VA_ARGS__);                                                    \
    const char *fn_name = #name;                                                                 \
    if (!injected) {
#define END                                                                                      \
    }                                                                                            \
    say(fn_name, args, r, injected, out);                                                        \
    pthread_mutex_unlock(&mu);                                                                   \
    return r;

/* ---- initialization, devices, contexts ---- */

CuResult cuInit(unsigned int flags)
{
    BEGIN(cuInit, "%u", flags)
    if (flags)
        r = E_VALUE;
    else
        inited = true;
    END
}

CuResult cuGetErrorName(CuResult error, const char **name)
{
    BEGIN(cuGetErrorName, "%u", error)
    *name = name_of(error);
    if (!*name)
        r = E_VALUE;
    else
        snprintf(out, sizeof out, "%s", *name);
    END
}

CuResult cuDeviceGetCount(int *count)
{
    BEGIN(cuDeviceGetCount, "%s", "")
    if (!inited) {
        r = E_NOT_INIT;
    } else {
        *count = n_devices;
        snprintf(out, sizeof out, "%d", n_devices);
    }
    END
}

CuResult cuDeviceGet(CuDevice *device, int ordinal)
{
    BEGIN(cuDeviceGet, "%d", ordinal)
    if (!inited)
        r = E_NOT_INIT;
    else if (ordinal < 0 || ordinal >= n_devices)
        r = E_DEVICE;
    else
        *device = ordinal;
    END
}

CuResult cuDeviceGetName(char *name, int len, CuDevice device)
{
    BEGIN(cuDeviceGetName, "%d, %d", len, device)
    if (!inited)
        r = E_NOT_INIT;
    else if (device < 0 || device >= n_devices)
        r = E_DEVICE;
    else if (!name || len <= 0)
        r = E_VALUE;
    else
        snprintf(name, (size_t)len, "Fake CUDA Device %d", device);
    END
}

CuResult cuDeviceGetAttribute(int *value, CuDeviceAttr attrib, CuDevice device)
{
    BEGIN(cuDeviceGetAttribute, "%u, %d", attrib, device)
    if (!inited)
        r = E_NOT_INIT;
    else if (device < 0 || device >= n_devices)
        r = E_DEVICE;
    else
        *value = attrib == CU_ATTR_UNIFIED_ADDRESSING ? uva : 0;
    if (!r)
        snprintf(out, sizeof out, "%d", *value);
    END
}

static Obj *primary[8];

CuResult cuDevicePrimaryCtxRetain(CuContext *ctx, CuDevice device)
{
    BEGIN(cuDevicePrimaryCtxRetain, "%d", device)
    if (!inited) {
        r = E_NOT_INIT;
    } else if (device < 0 || device >= n_devices || device >= 8) {
        r = E_DEVICE;
    } else {
        if (!primary[device] && !(primary[device] = obj_new(K_CTX)))
            r = E_OOM;
        if (!r) {
            primary[device]->refs++;
            primary[device]->live = true;
            *ctx = (CuContext)primary[device];
            snprintf(out, sizeof out, "ctx%u", primary[device]->id);
        }
    }
    END
}

CuResult cuDevicePrimaryCtxRelease_v2(CuDevice device)
{
    BEGIN(cuDevicePrimaryCtxRelease_v2, "%d", device)
    if (!inited)
        r = E_NOT_INIT;
    else if (device < 0 || device >= n_devices || device >= 8 || !primary[device] || primary[device]->refs <= 0)
        r = E_DEVICE;
    else if (--primary[device]->refs == 0)
        primary[device]->live = false;
    END
}

CuResult cuCtxSetCurrent(CuContext ctx)
{
    char name[32];
    obj_name(name, sizeof name, ctx, K_CTX);
    BEGIN(cuCtxSetCurrent, "%s", name)
    Obj *o = ctx ? obj_find(ctx, K_CTX) : NULL;
    if (!inited)
        r = E_NOT_INIT;
    else if (ctx && (!o || !o->live))
        r = E_CONTEXT;
    else
        current = o;
    END
}

CuResult cuCtxSynchronize(void)
{
    BEGIN(cuCtxSynchronize, "%s", "")
    r = need_ctx();
    END
}

/* ---- streams and events ---- */

CuResult cuStreamCreate(CuStream *stream, unsigned int flags)
{
    BEGIN(cuStreamCreate, "%u", flags)
    Obj *o = NULL;
    if (!(r = need_ctx()) && !(o = obj_new(K_STREAM)))
        r = E_OOM;
    if (!r) {
        *stream = (CuStream)o;
        snprintf(out, sizeof out, "s%u", o->id);
    }
    END
}

static CuResult kill(const void *h, int kind)
{
    Obj *o = obj_find(h, kind);
    if (!o || !o->live)
        return E_HANDLE;
    o->live = false;
    return 0;
}

CuResult cuStreamDestroy_v2(CuStream stream)
{
    char name[32];
    obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(cuStreamDestroy_v2, "%s", name)
    if (!(r = need_ctx()))
        r = kill(stream, K_STREAM);
    END
}

CuResult cuStreamSynchronize(CuStream stream)
{
    char name[32];
    obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(cuStreamSynchronize, "%s", name)
    if (!(r = need_ctx()))
        r = need_stream(stream);
    END
}

CuResult cuStreamWaitEvent(CuStream stream, CuEvent event, unsigned int flags)
{
    char s[32], e[32];
    obj_name(s, sizeof s, stream, K_STREAM);
    obj_name(e, sizeof e, event, K_EVENT);
    BEGIN(cuStreamWaitEvent, "%s, %s, %u", s, e, flags)
    if (!(r = need_ctx()) && !(r = need_stream(stream)))
        r = need_event(event);
    END
}

CuResult cuEventCreate(CuEvent *event, unsigned int flags)
{
    BEGIN(cuEventCreate, "%u", flags)
    Obj *o = NULL;
    if (!(r = need_ctx()) && !(o = obj_new(K_EVENT)))
        r = E_OOM;
    if (!r) {
        *event = (CuEvent)o;
        snprintf(out, sizeof out, "e%u", o->id);
    }
    END
}

CuResult cuEventDestroy_v2(CuEvent event)
{
    char name[32];
    obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventDestroy_v2, "%s", name)
    if (!(r = need_ctx()))
        r = kill(event, K_EVENT);
    END
}

CuResult cuEventRecord(CuEvent event, CuStream stream)
{
    char s[32], e[32];
    obj_name(e, sizeof e, event, K_EVENT);
    obj_name(s, sizeof s, stream, K_STREAM);
    BEGIN(cuEventRecord, "%s, %s", e, s)
    if (!(r = need_ctx()) && !(r = need_event(event)) && !(r = need_stream(stream))) {
        Obj *o = obj_find(event, K_EVENT);
        o->t = device_ms;
        o->recorded = true;
    }
    END
}

CuResult cuEventElapsedTime_v2(float *ms, CuEvent start, CuEvent end)
{
    char a[32], b[32];
    obj_name(a, sizeof a, start, K_EVENT);
    obj_name(b, sizeof b, end, K_EVENT);
    BEGIN(cuEventElapsedTime_v2, "%s, %s", a, b)
    Obj *x = obj_find(start, K_EVENT), *y = obj_find(end, K_EVENT);
    if ((r = need_ctx()) || (r = need_event(start)) || (r = need_event(end))) {
    } else if (!ms) {
        r = E_VALUE;
    } else if (!x->recorded || !y->recorded) {
        r = E_HANDLE; /* as the driver says of an event never recorded */
    } else {
        *ms = (float)(y->t - x->t);
        snprintf(out, sizeof out, "%.3f", *ms);
    }
    END
}

CuResult cuEventSynchronize(CuEvent event)
{
    char name[32];
    obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventSynchronize, "%s", name)
    if (!(r = need_ctx()))
        r = need_event(event);
    END
}

CuResult cuEventQuery(CuEvent event)
{
    char name[32];
    obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventQuery, "%s", name)
    if (!(r = need_ctx()))
        r = need_event(event);
    END
}

/* ---- memory ---- */

static CuResult mem_new(CuDevPtr *ptr, size_t bytes, bool managed, char *out, size_t cap)
{
    if (!bytes)
        return E_VALUE;
    Mem *m = calloc(1, sizeof *m);
    size_t rounded = (bytes + 255) & ~(size_t)255;
    unsigned char *p = m ? aligned_alloc(256, rounded) : NULL;
    if (!p) {
        free(m);
        return E_OOM;
    }
    memset(p, 0xa5, rounded); /* device memory is not zeroed: a test must not read it unwritten */
    *m = (Mem){.next = mems, .base = p, .size = bytes, .id = ++next_mem, .managed = managed, .live = true};
    mems = m;
    *ptr = (CuDevPtr)(uintptr_t)p;
    snprintf(out, cap, "%c%u", managed ? 'm' : 'd', m->id);
    return 0;
}

CuResult cuMemAlloc_v2(CuDevPtr *ptr, size_t bytes)
{
    BEGIN(cuMemAlloc_v2, "%zu", bytes)
    if (!(r = need_ctx()))
        r = mem_new(ptr, bytes, false, out, sizeof out);
    END
}

CuResult cuMemAllocManaged(CuDevPtr *ptr, size_t bytes, unsigned int flags)
{
    BEGIN(cuMemAllocManaged, "%zu, %u", bytes, flags)
    if (!(r = need_ctx()))
        r = flags != CU_MEM_ATTACH_GLOBAL_FLAG && flags != 2 ? E_VALUE : mem_new(ptr, bytes, true, out, sizeof out);
    END
}

CuResult cuMemFree_v2(CuDevPtr ptr)
{
    char name[48];
    ptr_name(name, sizeof name, (uintptr_t)ptr);
    BEGIN(cuMemFree_v2, "%s", name)
    Mem *m = mem_find((uintptr_t)ptr);
    if (!(r = need_ctx())) {
        if (!m || m->registered || !m->live || (uintptr_t)m->base != (uintptr_t)ptr)
            r = E_VALUE;
        else
            m->live = false;
    }
    END
}

CuResult cuMemcpyAsync(CuDevPtr dst, CuDevPtr src, size_t bytes, CuStream stream)
{
    char d[48], s[48], st[32];
    ptr_name(d, sizeof d, (uintptr_t)dst);
    ptr_name(s, sizeof s, (uintptr_t)src);
    obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemcpyAsync, "%s, %s, %zu, %s", d, s, bytes, st)
    if (!(r = need_ctx()) && !(r = need_stream(stream)) && !(r = need_range((uintptr_t)dst, bytes)) &&
        !(r = need_range((uintptr_t)src, bytes)))
    {
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
        maybe_corrupt(fn_name, dst, bytes, out, sizeof out);
        device_ms += 0.25;
    }
    END
}

static CuResult fill(CuDevPtr dst, const void *value, unsigned width, size_t count, CuStream stream)
{
    CuResult r;
    if ((r = need_ctx()) || (r = need_stream(stream)))
        return r;
    if (count > SIZE_MAX / width || ((uintptr_t)dst % width) != 0)
        return E_VALUE;
    if ((r = need_range((uintptr_t)dst, count * width)))
        return r;
    unsigned char *p = (unsigned char *)(uintptr_t)dst;
    for (size_t i = 0; i < count; i++)
        memcpy(p + i * width, value, width);
    device_ms += 0.125;
    return 0;
}

CuResult cuMemsetD8Async(CuDevPtr dst, unsigned char value, size_t count, CuStream stream)
{
    char d[48], st[32];
    ptr_name(d, sizeof d, (uintptr_t)dst);
    obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD8Async, "%s, %u, %zu, %s", d, value, count, st)
    if (!(r = fill(dst, &value, 1, count, stream)))
        maybe_corrupt(fn_name, dst, count, out, sizeof out);
    END
}

CuResult cuMemsetD16Async(CuDevPtr dst, unsigned short value, size_t count, CuStream stream)
{
    char d[48], st[32];
    ptr_name(d, sizeof d, (uintptr_t)dst);
    obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD16Async, "%s, %u, %zu, %s", d, value, count, st)
    if (!(r = fill(dst, &value, 2, count, stream)))
        maybe_corrupt(fn_name, dst, count, out, sizeof out);
    END
}

CuResult cuMemsetD32Async(CuDevPtr dst, unsigned int value, size_t count, CuStream stream)
{
    char d[48], st[32];
    ptr_name(d, sizeof d, (uintptr_t)dst);
    obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD32Async, "%s, %u, %zu, %s", d, value, count, st)
    if (!(r = fill(dst, &value, 4, count, stream)))
        maybe_corrupt(fn_name, dst, count, out, sizeof out);
    END
}

CuResult cuMemHostRegister_v2(void *ptr, size_t bytes, unsigned int flags)
{
    BEGIN(cuMemHostRegister_v2, "host, %zu, %u", bytes, flags)
    Mem *m = mem_find((uintptr_t)ptr);
    if ((r = need_ctx())) {
    } else if (!ptr || !bytes) {
        r = E_VALUE;
    } else if (m && m->registered && m->live) {
        r = E_REGISTERED;
    } else if (m && m->live) {
        r = E_VALUE; /* device memory */
    } else if (!(m = calloc(1, sizeof *m))) {
        r = E_OOM;
    } else {
        *m = (Mem){.next = mems, .base = ptr, .size = bytes, .registered = true, .live = true};
        mems = m;
    }
    END
}

CuResult cuMemHostUnregister(void *ptr)
{
    BEGIN(cuMemHostUnregister, "%s", ptr ? "host" : "0")
    Mem *m = mem_find((uintptr_t)ptr);
    if ((r = need_ctx())) {
    } else if (!m || !m->registered || !m->live || m->base != ptr) {
        r = E_NOT_REGISTERED;
    } else {
        m->live = false;
        m->size = 0; /* host memory: forget it, the address may come back from malloc */
        m->base = NULL;
    }
    END
}

/* ---- modules and launches ---- */

/* Appends " .entry NAME" for each kernel a PTX image defines, in order. */
static void add_entries(char *buf, size_t cap, const char *ptx)
{
    size_t n = strlen(buf);
    for (const char *p = ptx; (p = strstr(p, ".entry")) && n + 1 < cap; p += 6) {
        const char *q = p + 6;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        size_t len = 0;
        while (isalnum((unsigned char)q[len]) || q[len] == '_' || q[len] == '$')
            len++;
        snprintf(buf + n, cap - n, " .entry %.*s", (int)len, q);
        n = strlen(buf);
    }
}

CuResult cuModuleLoadData(CuModule *module, const void *image)
{
    const unsigned char *p = image;
    bool elf = p && memcmp(p, "\x7f" "ELF", 4) == 0;
    bool fatbin = p && memcmp(p, "\x50\xed\x55\xba", 4) == 0;
    BEGIN(cuModuleLoadData, "%s", !p ? "0" : elf ? "elf" : fatbin ? "fatbin" : "ptx")
    Obj *o = NULL;
    if ((r = need_ctx())) {
    } else if (!p) {
        r = E_VALUE;
    } else if (!elf && !fatbin && !strstr(image, ".version")) {
        r = E_IMAGE; /* neither a binary nor PTX text */
    } else if (!(o = obj_new(K_MODULE))) {
        r = E_OOM;
    } else {
        if (!elf && !fatbin) {
            o->image = strdup(image);
            o->image_len = o->image ? strlen(o->image) : 0;
        }
        *module = (CuModule)o;
        snprintf(out, sizeof out, "mod%u", o->id);
        if (o->image)
            add_entries(args, sizeof args, o->image);
    }
    END
}

/* The `.entry NAME (` of a PTX image, or NULL. */
static const char *ptx_entry(const char *ptx, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = ptx; (p = strstr(p, ".entry")); p += 6) {
        const char *q = p + 6;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, name, n) == 0 && (isspace((unsigned char)q[n]) || q[n] == '('))
            return q + n;
    }
    return NULL;
}

CuResult cuModuleGetFunction(CuFunction *function, CuModule module, const char *name)
{
    char m[32];
    obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(cuModuleGetFunction, "%s, %s", m, name ? name : "0")
    Obj *mo = obj_find(module, K_MODULE), *o = NULL;
    if ((r = need_ctx())) {
    } else if (!mo || !mo->live) {
        r = E_HANDLE;
    } else if (!name || strlen(name) >= sizeof o->name) {
        r = E_VALUE;
    } else if (mo->image && !ptx_entry(mo->image, name)) {
        r = E_NOT_FOUND;
    } else if (!(o = obj_new(K_FUNCTION))) {
        r = E_OOM;
    } else {
        snprintf(o->name, sizeof o->name, "%s", name);
        o->module = mo;
        *function = (CuFunction)o;
        snprintf(out, sizeof out, "%s", name);
    }
    END
}

CuResult cuModuleUnload(CuModule module)
{
    char m[32];
    obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(cuModuleUnload, "%s", m)
    if (!(r = need_ctx()))
        r = kill(module, K_MODULE);
    END
}

/* Appends ", VALUE" for each parameter the kernel's PTX declares, read from params. */
static void show_params(char *buf, size_t cap, const Obj *f, void **params)
{
    size_t n = strlen(buf);
    const char *p = f->module && f->module->image ? ptx_entry(f->module->image, f->name) : NULL;
    if (!p) {
        snprintf(buf + n, cap - n, ", [params unknown]");
        return;
    }
    const char *end = strchr(p, ')');
    snprintf(buf + n, cap - n, ", [");
    n = strlen(buf);
    size_t i = 0;
    for (const char *q = p; (q = strstr(q, ".param")) && (!end || q < end); i++) {
        q += 6;
        /* .param [.align N] .TYPE name[[COUNT]] */
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, ".align", 6) == 0) {
            q += 6;
            while (isspace((unsigned char)*q) || isdigit((unsigned char)*q))
                q++;
        }
        size_t size = 0;
        bool is_float = q[0] == '.' && q[1] == 'f';
        if (*q == '.' && isalpha((unsigned char)q[1]))
            size = (size_t)atoi(q + 2) / 8;
        while (*q && !isspace((unsigned char)*q))
            q++;
        while (isspace((unsigned char)*q))
            q++;
        while (*q && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
            q++;
        size_t count = 1;
        if (*q == '[')
            count = (size_t)atoi(q + 1);
        size *= count;
        char v[64] = "?";
        if (!params || !params[i]) {
            snprintf(v, sizeof v, "null");
        } else if (is_float && (size == 8 || size == 4 || size == 2)) {
            uint64_t x = 0;
            memcpy(&x, params[i], size);
            snprintf(v, sizeof v, "f%zu:0x%0*" PRIx64, size * 8, (int)size * 2, x);
        } else if (size == 8) {
            uint64_t x;
            memcpy(&x, params[i], 8);
            if (mem_find((uintptr_t)x))
                ptr_name(v, sizeof v, (uintptr_t)x);
            else
                snprintf(v, sizeof v, "%" PRIu64, x);
        } else if (size == 4 || size == 2 || size == 1) {
            uint32_t x = 0;
            memcpy(&x, params[i], size);
            snprintf(v, sizeof v, "%" PRIu32, x);
        } else {
            snprintf(v, sizeof v, "%zu bytes", size);
        }
        snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", v);
        n = strlen(buf);
    }
    snprintf(buf + n, cap - n, "]");
}

CuResult cuLaunchKernel(CuFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                        unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int smem,
                        CuStream stream, void **params, void **extra)
{
    char fn[160], st[32];
    obj_name(fn, sizeof fn, f, K_FUNCTION);
    obj_name(st, sizeof st, stream, K_STREAM);
    Obj *fo = obj_find(f, K_FUNCTION);
    char shown[400] = "";
    if (fo)
        show_params(shown, sizeof shown, fo, params);
    BEGIN(cuLaunchKernel, "%s, %ux%ux%u, %ux%ux%u, %u, %s%s%s", fn, gridX, gridY, gridZ, blockX, blockY,
          blockZ, smem, st, shown, extra ? ", extra" : "")
    if ((r = need_ctx()) || (r = need_stream(stream))) {
    } else if (!fo || !fo->module || !fo->module->live) {
        r = E_HANDLE;
    } else if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
               (uint64_t)blockX * blockY * blockZ > 1024 || smem > 48 * 1024) {
        r = E_VALUE;
    } else {
        device_ms += 1.0;
    }
    END
}
