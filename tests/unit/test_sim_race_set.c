/* The records of an allocation (sim/race_set.c): adds, drops and overlap queries, checked against a
   plain list under random programs and under the strided runs the sim's kernels make; and the
   skip lists' own order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/simint.h"

/* ---- the reference: every record added, live or not ---- */

typedef struct Ref { size_t lo, hi; uint64_t ord; uint32_t t; bool live; } Ref;

typedef struct Model {
  Alloc a;
  Ref *refs;
  size_t n, cap;
  RecHit *hits;
  size_t caphits;
} Model;

static uint64_t rng_state;

static uint64_t rnd(void) {  /* xorshift64*: the same sequence for the same seed */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t below(size_t n) { return (size_t)(rnd() % n); }

static void model_free(Model *m) {
  race_set_clear(&m->a);
  free(m->refs);
  free(m->hits);
  memset(m, 0, sizeof *m);
}

static uint32_t add(Model *m, size_t lo, size_t hi) {
  Rec n = {.lo = lo, .hi = hi, .chain = 1, .seq = 2, .op = 7};
  uint32_t t = race_set_add(&m->a, &n);
  assert_int_not_equal(t, 0);
  if (m->n == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->refs = realloc(m->refs, m->cap * sizeof *m->refs);
    assert_non_null(m->refs);
  }
  const Rec *r = race_set_rec(&m->a, t);
  assert_int_equal(r->lo, lo);
  assert_int_equal(r->hi, hi);
  assert_int_equal(r->op, 7);
  if (m->n)
    assert_true(r->ord > m->refs[m->n - 1].ord);
  m->refs[m->n++] = (Ref){lo, hi, r->ord, t, true};
  return t;
}

static void drop(Model *m, size_t i) {
  assert_true(m->refs[i].live);
  race_set_remove(&m->a, m->refs[i].t);
  m->refs[i].live = false;
}

/* The live refs overlapping [lo, hi), in the order added, must be what the set finds. */
static void check_find(Model *m, size_t lo, size_t hi) {
  size_t nhits = 99;
  assert_true(race_set_find(&m->a, lo, hi, &m->hits, &m->caphits, &nhits));
  size_t k = 0;
  for (size_t i = 0; i < m->n; i++) {
    const Ref *f = &m->refs[i];
    if (!f->live || f->hi <= lo || hi <= f->lo)
      continue;
    assert_true(k < nhits);
    assert_int_equal(m->hits[k].ord, f->ord);
    assert_int_equal(m->hits[k].t, f->t);
    k++;
  }
  assert_int_equal(k, nhits);
}

/* Each class's lists are sorted by (lo, ord), each level a part of the one below, and the finger
   on each level is before its key; together they hold the live records. */
static void check_lists(const Model *m) {
  const Alloc *a = &m->a;
  size_t total = 0;
  assert_int_equal(__builtin_popcountll(a->clsmask), a->ncls);
  for (size_t k = 0; k < a->ncls; k++) {
    const RecClass *c = &a->cls[k];
    assert_true(a->clsmask >> c->cls & 1);
    uint32_t n = 0;
    for (int i = 0; i < c->top; i++) {
      size_t plo = 0;
      uint64_t pord = 0;
      uint32_t below_n = 0;
      for (uint32_t t = c->head[i]; t; t = race_set_rec(a, t)->nx[i]) {
        const Rec *r = race_set_rec(a, t);
        assert_int_not_equal(r->ord, 0);
        assert_int_equal(r->cls, k);
        assert_true((size_t)1 << c->cls <= r->hi - r->lo && (r->hi - r->lo) >> c->cls < 2);
        assert_true(r->height > i);
        assert_true(plo < r->lo || (plo == r->lo && pord < r->ord));
        plo = r->lo;
        pord = r->ord;
        below_n++;
      }
      if (i == 0)
        n = below_n;
      if (c->fin[i]) {
        const Rec *f = race_set_rec(a, c->fin[i]);
        assert_true(f->lo < c->fin_lo || (f->lo == c->fin_lo && f->ord < c->fin_ord));
      }
      uint32_t after = c->fin[i] ? race_set_rec(a, c->fin[i])->nx[i] : c->head[i];
      if (after) {  /* and the last such */
        const Rec *f = race_set_rec(a, after);
        assert_false(f->lo < c->fin_lo || (f->lo == c->fin_lo && f->ord < c->fin_ord));
      }
    }
    assert_int_equal(n, c->n);
    if (c->cur) {  /* the query cursor is a node of the class */
      const Rec *r = race_set_rec(a, c->cur);
      assert_int_not_equal(r->ord, 0);
      assert_int_equal(r->cls, k);
    }
    total += n;
  }
  assert_int_equal(total, a->nlive);
  size_t live = 0;
  for (size_t i = 0; i < m->n; i++)
    live += m->refs[i].live;
  assert_int_equal(live, total);
}

static size_t rand_len(size_t bytes) {
  switch (below(4)) {
  case 0: return 1 + below(4);
  case 1: return 1 + below(64);
  case 2: return 1 + below(bytes / 4);
  default: return 1 + below(bytes);
  }
}

/* A live ref picked at random (m->n if none is). */
static size_t rand_live(const Model *m) {
  if (!m->a.nlive)
    return m->n;
  for (;;) {
    size_t i = below(m->n);
    if (m->refs[i].live)
      return i;
  }
}

static void test_race_set_random_programs_match_a_plain_list(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    rng_state = seed * 0x9e3779b97f4a7c15ull;
    Model m = {0};
    size_t bytes = (size_t)8 << below(12);
    for (int step = 0; step < 600; step++) {
      size_t what = below(10);
      size_t lo = below(bytes), len = rand_len(bytes);
      size_t hi = lo + len > bytes ? bytes : lo + len;
      if (what < 4) {
        add(&m, lo, hi);
      } else if (what < 6) {
        size_t i = rand_live(&m);
        if (i < m.n)
          drop(&m, i);
      } else {
        check_find(&m, lo, hi);
      }
      if (step % 50 == 0)
        check_lists(&m);
    }
    check_lists(&m);
    for (size_t i = m.n; i-- > 0;)  /* drop all, newest first */
      if (m.refs[i].live)
        drop(&m, i);
    check_lists(&m);
    check_find(&m, 0, bytes);
    add(&m, 0, bytes);  /* the slots are reused */
    check_find(&m, 0, bytes);
    check_lists(&m);
    model_free(&m);
  }
}

/* What a strided kernel does, row by row in offset order: find what an access overlaps, drop the
   ones it covers, add it; then the next kernel over the same rows. A whole-buffer record stays
   live all along, as a first memset's does. */
static void test_race_set_strided_runs_match_a_plain_list(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 6; seed++) {
    rng_state = seed;
    Model m = {0};
    size_t rows = 16 << below(4), bytes = 16 * rows;
    add(&m, 0, bytes);
    for (int kernel = 0; kernel < 30; kernel++) {
      for (int pass = 0; pass < 2; pass++) {  /* reads, then writes */
        size_t off = pass ? (size_t)(kernel % 2) * 4 : 0, len = pass ? 4 : 8;
        for (size_t r = 0; r < rows; r++) {
          if (below(8) == 0)
            continue;  /* a row this kernel skips */
          size_t lo = 16 * r + off, hi = lo + len;
          check_find(&m, lo, hi);
          for (size_t i = 1; i < m.n; i++)
            if (m.refs[i].live && lo <= m.refs[i].lo && m.refs[i].hi <= hi)
              drop(&m, i);
          add(&m, lo, hi);
        }
        check_lists(&m);
      }
      if (kernel % 7 == 6) {  /* a sweep: drops out of offset order */
        for (size_t i = 1; i < m.n; i++)
          if (m.refs[i].live && below(3) == 0)
            drop(&m, i);
        check_lists(&m);
        check_find(&m, 0, bytes);
      }
    }
    model_free(&m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_race_set_random_programs_match_a_plain_list),
    cmocka_unit_test(test_race_set_strided_runs_match_a_plain_list),
  };
  return cmocka_run_group_tests_name("sim_race_set", tests, NULL, NULL);
}
