/* race_set.c - an allocation's live access records, found by the bytes they cover.
 *
 * race.c asks three things of them: the records an access overlaps (in the order they were
 * recorded, so reports come out the same each run), to add one, to drop one. It asks them in
 * runs: a kernel's accesses of one allocation come sorted by offset (reads, then writes), and a
 * strided kernel leaves one record per row, over the rows the kernel before it left its own.
 *
 * Length classes. A record of length len is in class floor(log2(len)); the records of a class
 * are a skip list keyed by (lo, ord). A record of class c overlapping [lo, hi) starts in
 * (lo - 2^(c+1), hi), so an access asks each class that holds records for one run of keys, and no
 * node needs to know what lies below it (an interval tree's max-end, repaired on every change).
 * The few records a window holds that end before lo are passed over.
 *
 * Fingers. Each class keeps, on each level, the last node before the key it was last asked
 * about. A key after that one is sought from there, climbing only as far as the distance needs
 * (O(log d) expected for d nodes passed); a key before it from the head (O(log n)). Every change
 * of a list goes through a seek of its key, so the finger stays right. A query, which changes
 * nothing, first walks the bottom level on from a cursor of its own, the node its last window
 * started after, and seeks only if that is not a few steps away (a dropped cursor becomes its
 * predecessor). So a run of accesses in offset order costs O(1) each, after one seek from the
 * head per run, and an access elsewhere
 * O(log n): a kernel that replaces the previous kernel's records row by row costs the same per
 * row however many rows there are.
 *
 * Heights hash ord, so the lists have the same shape every run. Locking: all with dev->mu held,
 * by race.c; nothing here knows the device.
 */
#include "sim/simint.h"

#include <stdlib.h>

static inline uint32_t nxt(const Alloc *a, const RecClass *c, uint32_t x, int i) {
  return x ? race_set_rec(a, x)->nx[i] : c->head[i];
}

static inline void set_nxt(Alloc *a, RecClass *c, uint32_t x, int i, uint32_t to) {
  if (x)
    race_set_rec(a, x)->nx[i] = to;
  else
    c->head[i] = to;
}

/* Is the node t's key before (lo, ord)? (t = 0: the head, before everything.) */
static inline bool before(const Alloc *a, uint32_t t, size_t lo, uint64_t ord) {
  if (!t)
    return true;
  const Rec *r = race_set_rec(a, t);
  return r->lo < lo || (r->lo == lo && r->ord < ord);
}

static inline int len_class(size_t lo, size_t hi) {
  return 63 - __builtin_clzll((unsigned long long)(hi - lo));
}

/* Move c's finger to the key (lo, ord): on each level, the last node before it. */
static void seek(const Alloc *a, RecClass *c, size_t lo, uint64_t ord) {
  int l;
  if (lo < c->fin_lo || (lo == c->fin_lo && ord < c->fin_ord)) {  /* back: from the head */
    for (int i = 0; i < c->top; i++)
      c->fin[i] = 0;
    l = c->top - 1;
  } else {
    /* the levels whose next node is still before the key: the lowest ones (a level above one
       that need not move need not either) */
    l = -1;
    while (l + 1 < c->top) {
      uint32_t n = nxt(a, c, c->fin[l + 1], l + 1);
      if (!n || !before(a, n, lo, ord))
        break;
      l++;
    }
  }
  uint32_t x = 0;
  for (int i = l; i >= 0; i--) {
    if (c->fin[i] && before(a, x, race_set_rec(a, c->fin[i])->lo, race_set_rec(a, c->fin[i])->ord))
      x = c->fin[i];  /* the level's old finger is further on than the level above's */
    for (uint32_t n = nxt(a, c, x, i); n && before(a, n, lo, ord); n = nxt(a, c, x, i))
      x = n;
    c->fin[i] = x;
  }
  c->fin_lo = lo;
  c->fin_ord = ord;
}

/* a's class k, made (empty) if it is not there yet. NULL: out of memory. */
static RecClass *class_get(Alloc *a, int k) {
  if (a->clsmask >> k & 1) {
    for (RecClass *c = a->cls;; c++)
      if (c->cls == k)
        return c;
  }
  RecClass *p = realloc(a->cls, (a->ncls + 1) * sizeof *p);
  if (!p)
    return NULL;
  a->cls = p;
  a->clsmask |= 1ull << k;
  p[a->ncls] = (RecClass){.cls = (uint8_t)k};
  return &p[a->ncls++];
}

uint32_t race_set_add(Alloc *a, const Rec *n) {
  RecClass *c = class_get(a, len_class(n->lo, n->hi));
  if (!c)
    return 0;
  uint32_t t = a->rec_free;
  if (t) {
    a->rec_free = race_set_rec(a, t)->nx[0];
  } else {
    void *p = xrealloc_array(a->recs, &a->caprecs, a->nrecs + 1, sizeof *a->recs);
    if (!p)
      return 0;
    a->recs = p;
    t = (uint32_t)++a->nrecs;
  }
  Rec *r = race_set_rec(a, t);
  *r = *n;
  r->ord = ++a->rec_ord;
  r->cls = (uint8_t)(c - a->cls);
  uint64_t h = r->ord * 0x9e3779b97f4a7c15u;  /* a fixed hash: the same shape every run */
  int height = 1 + __builtin_ctzll(h >> 32 | 1ull << 40) / 2;
  if (height > RACE_SET_LEVELS)
    height = RACE_SET_LEVELS;
  r->height = (uint8_t)height;
  seek(a, c, r->lo, r->ord);
  for (int i = c->top; i < height; i++)  /* new levels: the head is before everything */
    c->fin[i] = 0;
  if (height > c->top)
    c->top = (uint8_t)height;
  for (int i = 0; i < height; i++) {
    r->nx[i] = nxt(a, c, c->fin[i], i);
    set_nxt(a, c, c->fin[i], i, t);
  }
  c->n++;
  a->nlive++;
  return t;
}

void race_set_remove(Alloc *a, uint32_t t) {
  Rec *r = race_set_rec(a, t);
  RecClass *c = &a->cls[r->cls];
  seek(a, c, r->lo, r->ord);
  for (int i = 0; i < r->height; i++)
    set_nxt(a, c, c->fin[i], i, r->nx[i]);
  if (c->cur == t)
    c->cur = c->fin[0];
  while (c->top && !c->head[c->top - 1])
    c->top--;
  c->n--;
  r->ord = 0;
  r->nx[0] = a->rec_free;
  a->rec_free = t;
  a->nlive--;
}

static int hit_cmp(const void *x, const void *y) {
  uint64_t a = ((const RecHit *)x)->ord, b = ((const RecHit *)y)->ord;
  return a < b ? -1 : a > b;
}

/* The first node of c at or after (lo, 0). A few steps on from where the last query started
   (a node before it: the run of accesses goes on), else a seek. */
static uint32_t window(const Alloc *a, RecClass *c, size_t lo) {
  uint32_t x = c->cur;
  if (before(a, x, lo, 0)) {
    for (int k = 0; k < 16; k++) {
      uint32_t n = nxt(a, c, x, 0);
      if (!n || !before(a, n, lo, 0)) {
        c->cur = x;
        return n;
      }
      x = n;
    }
  }
  seek(a, c, lo, 0);
  c->cur = c->fin[0];
  return nxt(a, c, c->fin[0], 0);
}

bool race_set_find(Alloc *a, size_t lo, size_t hi, RecHit **hits, size_t *cap, size_t *nhits) {
  size_t n = 0;
  for (RecClass *c = a->cls, *e = a->cls + a->ncls; c < e; c++) {
    if (!c->n)
      continue;
    uint32_t t = c->head[0];  /* a few nodes: all of them */
    if (c->n > 8) {
      size_t span = c->cls >= 62 ? SIZE_MAX : (size_t)2 << c->cls;  /* longer than any of it */
      t = window(a, c, lo >= span ? lo - span + 1 : 0);
    }
    for (; t; t = race_set_rec(a, t)->nx[0]) {
      const Rec *r = race_set_rec(a, t);
      if (r->lo >= hi)
        break;
      if (r->hi <= lo)
        continue;
      if (n == *cap) {
        void *p = xrealloc_array(*hits, cap, n + 1, sizeof **hits);
        if (!p)
          return false;
        *hits = p;
      }
      (*hits)[n++] = (RecHit){r->ord, t};
    }
  }
  if (n > 16) {
    qsort(*hits, n, sizeof **hits, hit_cmp);
  } else {
    for (size_t i = 1; i < n; i++) {  /* a few: insertion sort */
      RecHit h = (*hits)[i];
      size_t j = i;
      for (; j && (*hits)[j - 1].ord > h.ord; j--)
        (*hits)[j] = (*hits)[j - 1];
      (*hits)[j] = h;
    }
  }
  *nhits = n;
  return true;
}

void race_set_clear(Alloc *a) {
  free(a->recs);
  free(a->cls);
  a->recs = NULL;
  a->cls = NULL;
  a->clsmask = 0;
  a->ncls = 0;
  a->nrecs = a->caprecs = 0;
  a->rec_free = 0;
  a->nlive = 0;
}
