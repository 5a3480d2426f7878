/* fakedrv.h — what the fake GPU drivers (fakecuda.c, fakehip.c) share: one fake device model.
 *
 * The CUDA Driver API and HIP keep the same error numbers and the same model, so one core serves
 * both fakes: objects (contexts or devices made current, streams, events, modules, functions)
 * named by what was handed out in order (s1, e2, mod1, kernels by name), device memory on host
 * memory (d1, m1 for host-shared, offsets as d1+16; other host pointers are `host`), the
 * checks a driver makes, the call counts that FAKE*_FAIL injects failures by, and the log.
 * Each fake gives its names (FakeDriver) and exports its entry points under the real names,
 * each of the one shape BEGIN ... END: count the call, format its arguments, fail if told to,
 * do the work, log `name(args) -> RESULT [outputs]`.
 *
 * Device memory is never given back before exit (a freed allocation stays known, so a later use
 * of it is an invalid value, not a wild access). One host thread, as the backends; a lock
 * anyway, since it costs nothing here.
 */
#ifndef TESTS_FAKES_FAKEDRV_H
#define TESTS_FAKES_FAKEDRV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef unsigned FakeResult;

/* The codes the fakes return themselves: the same numbers in cuda.h and hip_runtime_api.h. */
enum { E_VALUE = 1, E_OOM = 2, E_NOT_INIT = 3, E_NO_DEVICE = 100, E_DEVICE = 101, E_IMAGE = 200,
       E_CONTEXT = 201, E_HANDLE = 400, E_NOT_FOUND = 500, E_REGISTERED = 712, E_NOT_REGISTERED = 713,
       E_UNKNOWN = 999 };

typedef struct FakeError {
    FakeResult code;
    const char *name;
} FakeError;

/* What a fake defines once: the prefix of its environment variables ("FAKECUDA": FAKECUDA_LOG,
 * FAKECUDA_FAIL, FAKECUDA_DEVICES, FAKECUDA_UVA), its error names, and the code an injected
 * failure of a call returns unless the spec names one. */
typedef struct FakeDriver {
    const char *env;
    const FakeError *errors;
    size_t n_errors;
    FakeResult (*default_fail)(const char *call);
} FakeDriver;
extern const FakeDriver fake_driver;

enum { K_CTX = 1, K_STREAM, K_EVENT, K_MODULE, K_FUNCTION };

typedef struct Obj Obj;
struct Obj {
    Obj *next;
    int kind;
    unsigned id;
    bool live;
    int refs;       /* a context: primary retains */
    char *image;    /* a module: its image when it is PTX, NUL-terminated */
    Obj *module;    /* a function */
    char name[128]; /* a function */
    double t;       /* an event: the device clock when it was last recorded */
    bool recorded;
};

/* The state of the one process-wide device model. */
extern pthread_mutex_t fake_mu;
extern bool fake_inited;  /* the driver's init was called */
extern Obj *fake_current; /* the context (cuda) or device (hip) made current */
extern int fake_devices;  /* FAKE*_DEVICES, default 1 */
extern bool fake_uva;     /* FAKE*_UVA=0 turns it off */

/* Counts a call of name; the injected error when this is the call to fail, else 0. */
FakeResult fake_enter(const char *name);
void fake_say(const char *name, const char *args, FakeResult r, bool injected, const char *out);
/* The log line of a call that returns something else than a result code: `name(args) -> value`. */
void fake_say_value(const char *name, const char *args, const char *value);
const char *fake_error_name(FakeResult r); /* NULL when it has none */

#define BEGIN(name, ...)                                                                         \
    pthread_mutex_lock(&fake_mu);                                                                \
    FakeResult r = fake_enter(#name);                                                            \
    bool injected = r != 0;                                                                      \
    char args[1024] = "", out[256] = "";                                                          \
    snprintf(args, sizeof args, __VA_ARGS__);                                                    \
    const char *fn_name = #name;                                                                 \
    if (!injected) {
#define END                                                                                      \
    }                                                                                            \
    fake_say(fn_name, args, r, injected, out);                                                   \
    pthread_mutex_unlock(&fake_mu);                                                              \
    return r;

Obj *fake_obj_new(int kind);
Obj *fake_obj_find(const void *h, int kind);
void fake_obj_name(char *buf, size_t cap, const void *h, int kind); /* "s1", "my_kernel", "0" */
FakeResult fake_kill(const void *h, int kind);
/* Live handles (a NULL stream is the default stream), a current context, or the error. */
FakeResult fake_need_stream(const void *s);
FakeResult fake_need_event(const void *e);
FakeResult fake_need_ctx(void);
/* Checks shared by the device queries: init, an ordinal in range. */
FakeResult fake_need_device(int device);

/* Memory. */
FakeResult fake_mem_new(void **ptr, size_t bytes, bool managed, char *out, size_t cap);
FakeResult fake_mem_free(const void *ptr);
void fake_ptr_name(char *buf, size_t cap, uintptr_t p); /* "d3", "d3+16", "m1", "host" or "0" */
/* A copy or memset the environment's CORRUPT names flips the first byte it wrote and puts
 * "(corrupted)" in out. Each advances the device clock (events: fake_event_record). */
FakeResult fake_copy(void *dst, const void *src, size_t bytes, const void *stream, char *out, size_t cap);
FakeResult fake_fill(void *dst, const void *value, unsigned width, size_t count, const void *stream, char *out,
                     size_t cap);
FakeResult fake_register(void *ptr, size_t bytes);
FakeResult fake_unregister(void *ptr);

/* Modules. What an image is, for the log and for accepting it: "elf", "fatbin" (NVIDIA's),
 * "bundle" (clang's offload bundle), "ptx" (anything else: text that must hold `.version`), "0". */
const char *fake_image_kind(const void *image);
/* accepted: the kinds the driver loads ("elf fatbin ptx"); any other is an invalid image. */
FakeResult fake_module_load(void **module, const void *image, const char *accepted, char *out, size_t cap);
/* Appends " .entry NAME" to buf for each kernel a loaded PTX module defines, in order. */
void fake_add_entries(char *buf, size_t cap, const void *module);
FakeResult fake_module_function(void **function, const void *module, const char *name, char *out, size_t cap);
/* The launch's arguments for the log: ", [d1, 42]" as the kernel's PTX declares them, or
 * ", [params unknown]" without PTX. */
void fake_show_params(char *buf, size_t cap, const void *function, void **params);
/* Checks a launch as a driver does. */
/* Events follow a device clock that a copy advances by 0.25 ms, a memset by 0.125 ms and a
 * launch by 1 ms, so timings are the same on every run. record: the event takes the clock's
 * time; elapsed: milliseconds between two recorded events (shown in out). */
FakeResult fake_event_record(const void *event, const void *stream);
FakeResult fake_event_elapsed(float *ms, const void *start, const void *end, char *out, size_t cap);
FakeResult fake_launch(const void *function, const unsigned grid[3], const unsigned block[3], unsigned smem,
                       const void *stream);

#endif
