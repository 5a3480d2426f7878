/* sim_sink.h - what the sim's CMocka tests share: a diagnostic sink that keeps what it got, and
 * a device made with it (two workers, seed 7, the given scheduler). Include after cmocka.h. */
#ifndef TESTS_UNIT_SIM_SINK_H
#define TESTS_UNIT_SIM_SINK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

typedef struct Got { SimDiagKind kind; SimSeverity sev; SimRaceKind race; char msg[512]; } Got;
typedef struct Sink { Got got[64]; int n; } Sink;

static inline void sink_fn(const SimDiag *d, void *user) {
  Sink *s = user;
  if (s->n < 64) {
    s->got[s->n] = (Got){d->kind, d->severity, d->race, ""};
    snprintf(s->got[s->n].msg, sizeof s->got[s->n].msg, "%s: %s", d->loc ? d->loc : "?", d->message);
  }
  s->n++;
}

static inline int count(const Sink *s, SimDiagKind k) {
  int n = 0;
  for (int i = 0; i < s->n && i < 64; i++)
    n += s->got[i].kind == k;
  return n;
}

static inline bool has(const Sink *s, const char *text) {
  for (int i = 0; i < s->n && i < 64; i++)
    if (strstr(s->got[i].msg, text))
      return true;
  return false;
}

static inline SimDevice *make(Sink *s, SimSched sched) {
  memset(s, 0, sizeof *s);
  SimConfig cfg = {.sched = sched, .seed = 7, .workers = 2, .sink = sink_fn, .sink_user = s};
  SimDevice *dev = sim_create(&cfg);
  assert_non_null(dev);
  return dev;
}

#endif
