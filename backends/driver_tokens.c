/* driver_tokens.c - the token door of the driver backends (driver.c): token ops run on a few
 * pool streams, each op's stream waits for the dependencies recorded on other streams, and an
 * event recorded after the op is its token; joins, waits, frees, references, and a token from a
 * stream or a stream waiting for one. The rules are at the top of driver.c ("Tokens"). */
#include "backends/driver_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- tokens ---- */

/* The live token slot behind h, or NULL after a report. */
static Slot *token_of(Drv *c, BeToken h, const char *loc)
{
    return be_drv_lookup(c, h, H_TOKEN, loc);
}

/* Runs an op of the token door: picks a pool stream, makes it wait for deps, lets `op` enqueue
 * (op NULL: a join), records the token's event. *out is the token even when a dep was bad or
 * the op failed (it then orders like the op would have); NULL only when no token could be made. */
typedef BeStatus (*TokenOp)(Drv *c, void *s, void *arg, const char *loc);

static BeStatus token_run(Drv *c, const BeToken *deps, size_t ndeps, TokenOp op, void *arg, BeToken *out,
                          const char *loc)
{
    *out = NULL;
    BeStatus st = BE_OK;
    int first = -1; /* the first live dep's slot */
    BeToken first_h = NULL;
    bool any_event = false;
    for (size_t i = 0; deps && i < ndeps; i++) {
        if (!deps[i])
            continue;
        Slot *t = token_of(c, deps[i], loc);
        if (!t) {
            st = BE_ERR_HANDLE;
            continue;
        }
        if (first < 0) {
            first = (int)be_drv_index_of(c, t);
            first_h = deps[i];
        }
        any_event |= t->u.tok.event != NULL;
    }
    void *h;
    BeStatus st2 = be_drv_slot_new(c, H_TOKEN, loc, &h);
    if (st2 != BE_OK)
        return st2;
    Slot *tok = &c->slot[(uint32_t)(uintptr_t)h - 1];
    tok->u.tok.refs = 1;
    tok->u.tok.pool = -1;
    *out = h;
    if (!op && !any_event)
        return st; /* a join of complete tokens is complete */
    /* Continue the first dep's chain when it is the last thing on its stream. */
    int p = -1;
    if (first >= 0) {
        int tp = c->slot[first].u.tok.pool;
        if (tp >= 0 && c->pool_last[tp] == first_h)
            p = tp;
    }
    if (p < 0)
        p = (int)(c->pool_next++ % POOL);
    if (!c->pool[p] && (st2 = CALL(c, loc, stream_create, &c->pool[p])) != BE_OK)
        return st2;
    void *s = c->pool[p];
    for (size_t i = 0; deps && i < ndeps; i++) {
        if (!be_drv_id_of(c, deps[i], H_TOKEN))
            continue;
        Slot *t = token_of(c, deps[i], loc);
        if (t->u.tok.event && t->u.tok.pool != p && (st2 = CALL(c, loc, stream_wait_event, s, t->u.tok.event)))
            st = st == BE_OK ? st2 : st;
    }
    c->token_op = c->slot[(uint32_t)(uintptr_t)h - 1].id;
    if (op && (st2 = op(c, s, arg, loc)) != BE_OK && st == BE_OK)
        st = st2;
    c->token_op = 0;
    void *ev = NULL;
    if ((st2 = CALL(c, loc, event_create, &ev)) != BE_OK)
        return st == BE_OK ? st2 : st;
    tok = &c->slot[(uint32_t)(uintptr_t)h - 1];
    tok->u.tok.event = ev;
    tok->u.tok.pool = p;
    c->pool_last[p] = h;
    if ((st2 = CALL(c, loc, event_record, ev, s)) != BE_OK && st == BE_OK)
        st = st2;
    return st;
}

typedef struct CopyArgs {
    void *dst;
    const void *src;
    size_t bytes;
    uint32_t value;
    unsigned width;
} CopyArgs;

static BeStatus op_memcpy(Drv *c, void *s, void *arg, const char *loc)
{
    CopyArgs *a = arg;
    return be_drv_enqueue_memcpy(c, a->dst, a->src, a->bytes, s, loc);
}

static BeStatus op_memset(Drv *c, void *s, void *arg, const char *loc)
{
    CopyArgs *a = arg;
    return be_drv_enqueue_memset(c, a->dst, a->value, a->width, a->bytes, s, loc);
}

static BeStatus token_memcpy(void *self, void *dst, const void *src, size_t bytes, const BeToken *deps,
                             size_t ndeps, BeToken *out, const char *loc)
{
    CopyArgs a = {.dst = dst, .src = src, .bytes = bytes};
    return token_run(self, deps, ndeps, op_memcpy, &a, out, loc);
}

static BeStatus token_memset(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                             const BeToken *deps, size_t ndeps, BeToken *out, const char *loc)
{
    CopyArgs a = {.dst = dst, .value = value, .width = width, .bytes = count};
    return token_run(self, deps, ndeps, op_memset, &a, out, loc);
}

static BeStatus token_join(void *self, const BeToken *deps, size_t ndeps, BeToken *out, const char *loc)
{
    return token_run(self, deps, ndeps, NULL, NULL, out, loc);
}

static BeStatus token_alloc(void *self, size_t bytes, bool host_shared, const BeToken *deps, size_t ndeps,
                            void **ptr, BeToken *out, const char *loc)
{
    BeStatus st = be_drv_mem_alloc(self, bytes, host_shared, NULL, ptr, loc);
    BeStatus st2 = token_join(self, deps, ndeps, out, loc);
    return st != BE_OK ? st : st2;
}

static BeStatus token_wait(void *self, const BeToken *toks, size_t n, const char *loc)
{
    Drv *c = self;
    BeStatus st = BE_OK, st2;
    for (size_t i = 0; toks && i < n; i++) {
        if (!toks[i])
            continue;
        Slot *t = token_of(c, toks[i], loc);
        if (!t)
            st = BE_ERR_HANDLE;
        else if (t->u.tok.event && (st2 = CALL(c, loc, event_sync, t->u.tok.event)) != BE_OK && st == BE_OK)
            st = st2;
    }
    return st;
}

/* The host waits for deps, then frees: the memory goes after everything the deps ordered. */
static BeStatus token_free(void *self, void *ptr, const BeToken *deps, size_t ndeps, BeToken *out,
                           const char *loc)
{
    BeStatus st = token_wait(self, deps, ndeps, loc);
    BeStatus st2 = be_drv_mem_free(self, ptr, NULL, loc);
    BeStatus st3 = token_join(self, NULL, 0, out, loc);
    return st != BE_OK ? st : st2 != BE_OK ? st2 : st3;
}

static BeStatus token_launch_host(void *self, BeKernelFn fn, void *user, const BeLaunch *l, const BeToken *deps,
                                  size_t ndeps, BeToken *out, const char *loc)
{
    be_drv_host_kernel_refused(self, l, loc);
    token_join(self, deps, ndeps, out, loc);
    return BE_ERR_UNSUPPORTED;
}

typedef struct LaunchArgs {
    void *fn;
    const BeLaunch *launch;
} LaunchArgs;

static BeStatus op_launch(Drv *c, void *s, void *arg, const char *loc)
{
    LaunchArgs *a = arg;
    return be_drv_enqueue_launch(c, a->fn, a->launch, s, loc);
}

/* The interpreter's launch of a module's kernel: a token op like a copy. A function handle that
 * is wrong leaves a join in its place. */
static BeStatus token_launch(void *self, BeFunction h, const BeLaunch *l, const BeToken *deps, size_t ndeps,
                             BeToken *out, const char *loc)
{
    Drv *c = self;
    Slot *f;
    BeStatus st = be_drv_function_of(c, h, loc, &f);
    if (st != BE_OK) {
        token_join(self, deps, ndeps, out, loc);
        return st;
    }
    LaunchArgs a = {.fn = f->u.fn.fn, .launch = l};
    return token_run(c, deps, ndeps, op_launch, &a, out, loc);
}

static BeStatus token_ref(Drv *c, BeToken h, bool retain, const char *what)
{
    Slot *t = token_of(c, h, what);
    if (!t)
        return BE_ERR_HANDLE;
    if (retain) {
        t->u.tok.refs++;
        return BE_OK;
    }
    if (--t->u.tok.refs)
        return BE_OK;
    BeStatus st = BE_OK;
    if (t->u.tok.event)
        st = CALL(c, t->made, event_destroy, t->u.tok.event);
    if (t->u.tok.pool >= 0 && c->pool_last[t->u.tok.pool] == h)
        c->pool_last[t->u.tok.pool] = NULL;
    be_drv_slot_kill(c, be_drv_index_of(c, t), what);
    return st;
}

static BeStatus token_retain(void *self, BeToken h)
{
    return token_ref(self, h, true, "be_token_retain");
}

static BeStatus token_release(void *self, BeToken h)
{
    return token_ref(self, h, false, "be_token_release");
}

static BeStatus token_from_stream(void *self, BeStream hs, BeToken *out, const char *loc)
{
    Drv *c = self;
    *out = NULL;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    void *ev = NULL;
    BeStatus st = CALL(c, loc, event_create, &ev);
    if (st != BE_OK)
        return st;
    void *h;
    if ((st = be_drv_slot_new(c, H_TOKEN, loc, &h)) != BE_OK) {
        c->api->event_destroy.fn(c->drv, ev);
        return st;
    }
    Slot *t = &c->slot[(uint32_t)(uintptr_t)h - 1];
    t->u.tok.event = ev;
    t->u.tok.pool = -1;
    t->u.tok.refs = 1;
    *out = h;
    return CALL(c, loc, event_record, ev, s);
}

static BeStatus stream_wait_token(void *self, BeStream hs, BeToken ht, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    if (!ht)
        return BE_OK;
    Slot *t = token_of(c, ht, loc);
    if (!t)
        return BE_ERR_HANDLE;
    return t->u.tok.event ? CALL(c, loc, stream_wait_event, s, t->u.tok.event) : BE_OK;
}

void be_drv_token_ops(BeOps *ops)
{
    ops->token_memcpy = token_memcpy;
    ops->token_memset = token_memset;
    ops->token_alloc = token_alloc;
    ops->token_free = token_free;
    ops->token_launch_host = token_launch_host;
    ops->token_launch = token_launch;
    ops->token_join = token_join;
    ops->token_wait = token_wait;
    ops->token_retain = token_retain;
    ops->token_release = token_release;
    ops->token_from_stream = token_from_stream;
    ops->stream_wait_token = stream_wait_token;
}
