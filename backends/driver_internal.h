/* driver_internal.h - what driver.c and driver_tokens.c share: the backend's state over a
 * driver (Drv), its handle table's slots and its memory table's entries, the checked driver call
 * (CALL), and the functions the token door calls in driver.c. Private to backends/; the design
 * is at the top of driver.c. */
#ifndef BACKENDS_DRIVER_INTERNAL_H
#define BACKENDS_DRIVER_INTERNAL_H

#include "backends/driver.h"

#include <stdint.h>

enum { H_STREAM = 1, H_EVENT, H_MODULE, H_FUNCTION, H_TOKEN, H_KINDS };

#define HANDLE_TAG 0xcdaull /* top 12 bits of a handle; the sim's use 0x51d and 0xbe7 */
enum { KEEP_FREE = 64 };    /* freed slots wait this long before reuse */
enum { POOL = 4 };          /* streams the token door runs on */

typedef struct Slot {
    uint8_t kind;
    bool live;
    uint16_t gen;
    uint32_t next_free; /* free list: index + 1 of the next free slot */
    uint64_t id;        /* per kind, from 1: what traces call it */
    const char *made, *gone;
    union {
        void *stream;
        void *event;
        void *module;
        struct {
            void *fn;
            uint32_t module; /* the module's slot index and generation */
            uint16_t module_gen;
            char *name;
        } fn;
        struct {
            void *event; /* NULL: complete when made */
            int pool;      /* the pool stream it was recorded on, -1: another stream or none */
            uint32_t refs;
        } tok;
    } u;
} Slot;

typedef enum AllocKind { A_DEVICE, A_MANAGED, A_REGISTERED, A_HOST } AllocKind;

typedef struct Alloc {
    uintptr_t base;
    size_t size;
    AllocKind kind;
    uint64_t id;
    const char *loc;
    const char *freed; /* device memory freed there; kept until the address comes back */
} Alloc;

/* A range of host memory (A_HOST: the interpreter's) registered with the driver in place. */
typedef struct HostReg {
    uintptr_t base;
    size_t size;
    const char *loc;
} HostReg;

typedef struct Drv {
    const BeDriverApi *api;
    BeOps ops; /* driver.c's table under the backend's name */
    void *drv; /* the driver file's state, passed to each operation */
    void *lib;
    int device;
    int ordinal;
    int held[8]; /* devices made current so far (CUDA: whose primary context we hold) */
    int n_held;
    char device_name[128];
    BeDiagFn sink;
    void *sink_user;
    size_t errors, warnings;
    bool quiet_leaks, leaks_are_errors;
    Slot *slot;
    uint32_t n_slot, cap_slot, free_head, free_tail, n_free;
    uint64_t next_id[H_KINDS];
    Alloc *alloc; /* sorted by base */
    size_t n_alloc, cap_alloc;
    HostReg *hreg; /* byte-disjoint, in no order */
    size_t n_hreg, cap_hreg;
    uint64_t next_buf;
    void *pool[POOL];
    BeToken pool_last[POOL]; /* the token last recorded on each pool stream */
    unsigned pool_next;
    /* event-timed ops, when a trace is recorded and the driver can time events */
    TraceRecorder *trace;
    void *t_base; /* an event recorded and waited for before the first timed op, at t_base_ns */
    uint64_t t_base_ns;
    struct Timed *timed;
    size_t n_timed, cap_timed;
    uint64_t token_op; /* the token op being enqueued (token_run): its trace id */
    BeDevOut out;            /* what kernels print */
    const char *last_launch; /* the loc of the last launch enqueued */
    const char *failed;      /* the launch a sticky kernel error was reported for, or NULL */
} Drv;

/* One operation of the driver's table, checked: CALL(c, loc, stream_sync, s). */
#define CALL(c, loc, op, ...)                                                                    \
    (be_devout_before(&(c)->out),                                                                \
     be_drv_checked((c), (loc), (c)->api->op.call, (c)->api->op.fn((c)->drv, __VA_ARGS__)))
#define CALL0(c, loc, op)                                                                        \
    (be_devout_before(&(c)->out), be_drv_checked((c), (loc), (c)->api->op.call, (c)->api->op.fn((c)->drv)))

/* A driver call's result: what the device printed during it is handed on, then an error
 * diagnostic at loc unless it succeeded; a kernel's error fails the last launch. */
BeStatus be_drv_checked(Drv *c, const char *loc, const char *fn, BeDrvResult r);
/* A new handle of kind in *out, its slot made at loc. */
BeStatus be_drv_slot_new(Drv *c, int kind, const char *loc, void **out);
/* Marks slot i dead; it goes to the end of the free list. */
void be_drv_slot_kill(Drv *c, uint32_t i, const char *loc);
/* The index of slot s in the handle table. */
uint32_t be_drv_index_of(Drv *c, const Slot *s);
/* The live slot of kind `want` behind h, or NULL after saying what h is (the sim's words). */
Slot *be_drv_lookup(Drv *c, const void *h, unsigned want, const char *loc);
/* A stream argument: NULL is the default stream. False after a report. */
bool be_drv_stream_of(Drv *c, BeStream h, void **out, const char *loc);
/* The id of h for traces when it is a live handle of this kind, else 0. */
uint64_t be_drv_id_of(Drv *c, const void *h, unsigned want);
/* BeOps.mem_alloc and BeOps.mem_free. */
BeStatus be_drv_mem_alloc(void *self, size_t bytes, bool host_shared, BeStream hs, void **out, const char *loc);
BeStatus be_drv_mem_free(void *self, void *ptr, BeStream hs, const char *loc);
/* A copy, a memset, a launch enqueued on driver stream s, timed when a trace is recorded. */
BeStatus be_drv_enqueue_memcpy(Drv *c, void *dst, const void *src, size_t bytes, void *s, const char *loc);
BeStatus be_drv_enqueue_memset(Drv *c, void *dst, uint32_t value, unsigned width, size_t count, void *s,
                               const char *loc);
BeStatus be_drv_enqueue_launch(Drv *c, void *fn, const BeLaunch *l, void *s, const char *loc);
/* The driver function behind h in *out, or an error after a report: not a kernel function, its
 * module unloaded, or its module a binary the backend refused (no driver function). */
BeStatus be_drv_function_of(Drv *c, BeFunction h, const char *loc, Slot **out);
/* The error for a kernel the interpreter runs itself (BeOps.launch_host): no GPU runs it. */
void be_drv_host_kernel_refused(Drv *c, const BeLaunch *l, const char *loc);

/* driver_tokens.c: the token door's entries of the table (BeOps.token_memcpy and the others). */
void be_drv_token_ops(BeOps *ops);

#endif
