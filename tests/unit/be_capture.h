/* be_capture.h - what the backends' CMocka tests share: a fixture whose diagnostic sink keeps
 * what it got (thread-safe: kernels report from workers), and readers for it. */
#ifndef TESTS_UNIT_BE_CAPTURE_H
#define TESTS_UNIT_BE_CAPTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "backends/backend.h"

enum { MAX_DIAGS = 32 };

typedef struct Seen {
    bool error;
    char kind[32], loc[64], loc2[64], message[512];
} Seen;

typedef struct Fixture {
    Backend *be;
    TraceRecorder *trace;
    pthread_mutex_t lock;
    Seen diags[MAX_DIAGS];
    size_t n;
} Fixture;

static inline void capture(const BeDiag *d, void *user)
{
    Fixture *fx = user;
    pthread_mutex_lock(&fx->lock);
    if (fx->n < MAX_DIAGS) {
        Seen *s = &fx->diags[fx->n];
        s->error = d->error;
        snprintf(s->kind, sizeof s->kind, "%s", d->kind ? d->kind : "");
        snprintf(s->loc, sizeof s->loc, "%s", d->loc ? d->loc : "");
        snprintf(s->loc2, sizeof s->loc2, "%s", d->loc2 ? d->loc2 : "");
        snprintf(s->message, sizeof s->message, "%s", d->message ? d->message : "");
    }
    fx->n++;
    pthread_mutex_unlock(&fx->lock);
}

static inline size_t n_diags(Fixture *fx)
{
    pthread_mutex_lock(&fx->lock);
    size_t n = fx->n;
    pthread_mutex_unlock(&fx->lock);
    return n;
}

static inline Seen diag(Fixture *fx, size_t i)
{
    pthread_mutex_lock(&fx->lock);
    Seen s = fx->diags[i];
    pthread_mutex_unlock(&fx->lock);
    return s;
}

#endif
