/* diff_values.c - `gpuinterp --diff` compares two runs by value and by violations: the host
 * output exactly, each launch's gpu.printf lines as a multiset (blocks print in any order), what a
 * device's kernels printed as one multiset against the program's launches, the final bytes of
 * every host buffer matched by allocation site and occurrence; then the errors of the reference
 * itself, and the races, misuse and leaks only the lowered form (or the device) has. The method
 * is described at the top of diff.c. */
#include "tools/diff_internal.h"

#include <inttypes.h>

/* ---- comparing values ---------------------------------------------------------------------- */

/* (site, occurrence) keys in sequence order for n items with site s[i] and order seq[i]. */
typedef struct Item {
  uint32_t site, occ;
  uint64_t seq;
  size_t idx;
} Item;

static int by_site_seq(const void *a, const void *b) {
  const Item *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return 0;
}

static void number(Item *it, size_t n) {
  qsort(it, n, sizeof *it, by_site_seq);
  for (size_t i = 0; i < n; i++)
    it[i].occ = i && it[i - 1].site == it[i].site ? it[i - 1].occ + 1 : 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One launch's printed lines, sorted. */
typedef struct Launch {
  uint32_t site, occ;
  char **lines;
  size_t n, cap;
} Launch;

static void launches_of(Run *r, Launch **out, size_t *nout) {
  Item *it = xrealloc(NULL, r->nprints * sizeof *it);
  for (size_t i = 0; i < r->nprints; i++)
    it[i] = (Item){r->prints[i].site, 0, r->prints[i].launch, i};
  qsort(it, r->nprints, sizeof *it, by_site_seq);
  Launch *L = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < r->nprints; i++) {
    bool same = n && L[n - 1].site == it[i].site && i && it[i - 1].seq == it[i].seq;
    if (!same) {
      uint32_t occ = n && L[n - 1].site == it[i].site ? L[n - 1].occ + 1 : 0;
      PUSH(L, n, cap, ((Launch){it[i].site, occ, NULL, 0, 0}));
    }
    Launch *l = &L[n - 1];
    for (char *t = r->prints[it[i].idx].text; *t;) {
      char *e = strchr(t, '\n');
      size_t len = e ? (size_t)(e - t) : strlen(t);
      char *line = xrealloc(NULL, len + 1);
      memcpy(line, t, len);
      line[len] = 0;
      PUSH(l->lines, l->n, l->cap, line);
      t += len + (e != NULL);
    }
  }
  for (size_t i = 0; i < n; i++)
    qsort(L[i].lines, L[i].n, sizeof *L[i].lines, cmp_str);
  free(it);
  *out = L;
  *nout = n;
}

static void launches_free(Launch *L, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < L[i].n; j++)
      free(L[i].lines[j]);
    free(L[i].lines);
  }
  free(L);
}

/* The first line where a and b differ (1-based), with both lines cut out. */
static size_t first_diff_line(const char *a, size_t na, const char *b, size_t nb, char *la, char *lb,
                              size_t cap) {
  size_t line = 1, i = 0;
  while (i < na && i < nb && a[i] == b[i]) {
    if (a[i] == '\n')
      line++;
    i++;
  }
  size_t s = i;
  while (s && a[s - 1] != '\n')
    s--;
  size_t ea = s, eb = s;
  while (ea < na && a[ea] != '\n')
    ea++;
  while (eb < nb && b[eb] != '\n')
    eb++;
  snprintf(la, cap, "%.*s", (int)(ea - s), a + s);
  snprintf(lb, cap, "%.*s", (int)(eb - s), b + s);
  if (s >= na)
    snprintf(la, cap, "(end of output)");
  if (s >= nb)
    snprintf(lb, cap, "(end of output)");
  return line;
}

static uint32_t entry_site(Checker *C) {
  Op *fn = ir_symbol_lookup(C->hi.top, ir_intern_cstr(C->hi.ctx, C->o->entry));
  const Loc *f = fn ? ir_loc_file_of(fn->loc) : NULL;
  if (!f)
    return UINT32_MAX;
  char buf[1200];
  snprintf(buf, sizeof buf, "%.*s:%u:%u", (int)f->file.len, f->file.s, f->line, f->col);
  return diff_site_of(&C->sites, buf, NULL);
}

/* The runner utils print a memref's base address ("base@ = 0x..."), which differs from run to
 * run: it is masked in place (both forms print it the same way) before outputs are compared. */
static void mask_addresses(char *s, size_t n) {
  static const char pat[] = "base@ = 0x";
  for (char *p = s; p && (size_t)(p - s) < n; p++) {
    p = memmem(p, n - (size_t)(p - s), pat, sizeof pat - 1);
    if (!p)
      break;
    for (char *q = p + sizeof pat - 1; q < s + n && strchr("0123456789abcdefABCDEF", *q) && *q; q++)
      *q = '?';
  }
}

/* A line kernels printed: on the simulator with the site of its launch, on a device with the
 * site of the call it came out at; n: its place in the run's output. */
typedef struct DevLine {
  char *text;
  uint32_t site;
  size_t n;
} DevLine;

static int by_text_n(const void *a, const void *b) {
  const DevLine *x = a, *y = b;
  int c = strcmp(x->text, y->text);
  return c ? c : x->n < y->n ? -1 : x->n > y->n;
}

/* Cuts text[0, len) into lines (a last one without its newline too), each at site_at(its end). */
static void cut_lines(DevLine **v, size_t *n, size_t *cap, const char *text, size_t len, const Run *dev,
                      uint32_t site) {
  size_t d = 0;
  for (size_t i = 0; i < len;) {
    const char *e = memchr(text + i, '\n', len - i);
    size_t k = e ? (size_t)(e - (text + i)) : len - i;
    char *line = xrealloc(NULL, k + 1);
    memcpy(line, text + i, k);
    line[k] = 0;
    i += k + (e != NULL);
    if (dev) {
      while (d + 1 < dev->ndrains && dev->drains[d].end < i)
        d++;
      site = dev->ndrains ? dev->drains[d].site : UINT32_MAX;
    }
    PUSH(*v, *n, *cap, ((DevLine){line, site, *n}));
  }
}

/* --against-backend: every line the program's kernels printed against every line the device's
 * did, as multisets (a driver does not say which launch printed what). */
static void compare_device_lines(Checker *C, Run *h, Run *l, const char *sched) {
  DevLine *a = NULL, *b = NULL;
  size_t na = 0, nb = 0, capa = 0, capb = 0;
  for (size_t i = 0; i < h->nprints; i++)
    cut_lines(&a, &na, &capa, h->prints[i].text, strlen(h->prints[i].text), NULL, h->prints[i].site);
  cut_lines(&b, &nb, &capb, l->dev, l->ndev, l, UINT32_MAX);
  if (na)
    qsort(a, na, sizeof *a, by_text_n);
  if (nb)
    qsort(b, nb, sizeof *b, by_text_n);
  size_t differ = 0;
  /* what is named: the device's first line the program lacks, else the program's first line the
   * device lacks (each in its run's order), with the counts of its text in both runs */
  const DevLine *first = NULL;
  size_t fa = 0, fb = 0;
  for (size_t i = 0, j = 0; i < na || j < nb;) {
    int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i].text, b[j].text);
    const char *t = c <= 0 ? a[i].text : b[j].text;
    size_t ca = 0, cb = 0, i0 = i, j0 = j;
    while (i < na && !strcmp(a[i].text, t))
      i++, ca++;
    while (j < nb && !strcmp(b[j].text, t))
      j++, cb++;
    if (ca == cb)
      continue;
    differ++;
    const DevLine *x = cb > ca ? &b[j0 + ca] : &a[i0 + cb]; /* the first one the other run lacks */
    bool extra = cb > ca, first_extra = first && fb > fa;
    if (!first || (extra && !first_extra) || (extra == first_extra && x->n < first->n)) {
      first = x;
      fa = ca;
      fb = cb;
    }
  }
  if (first && diff_once(C, 12, 0, 0)) {
    char more[64] = "", nm[128];
    if (differ > 1)
      snprintf(more, sizeof more, "; %zu more line%s differ%s", differ - 1, differ > 2 ? "s" : "",
               differ > 2 ? "" : "s");
    if (fb > fa)
      diff_report(C, DIAG_ERROR, first->site,
                  "'%s' came out of the %s's kernels at this call: printed %zu time%s there, %zu by the program's "
                  "kernels%s",
                  first->text, C->lo.what, fb, fb == 1 ? "" : "s", fa, more);
    else
      diff_report(C, DIAG_ERROR, first->site, "%s printed '%s' %zu time%s in the program and %zu in the %s%s",
                  diff_op_name(C, first->site, nm, sizeof nm), first->text, fa, fa == 1 ? "" : "s", fb, C->lo.what,
                  more);
    diff_witness(C, sched);
  } else if (first) {
    C->errors++;
  }
  for (size_t i = 0; i < na; i++)
    free(a[i].text);
  for (size_t i = 0; i < nb; i++)
    free(b[i].text);
  free(a);
  free(b);
}

/* Compares the values of one schedule's two runs; returns whether anything differed. */
bool diff_compare_values(Checker *C, Run *h, Run *l, const char *sched) {
  unsigned before = C->errors;
  char la[256], lb[256], nm[128];
  mask_addresses(h->out, h->nout);
  mask_addresses(l->out, l->nout);
  if (h->nout != l->nout || memcmp(h->out, l->out, h->nout)) {
    if (diff_once(C, 1, 0, 0)) {
      size_t line = first_diff_line(h->out, h->nout, l->out, l->nout, la, lb, sizeof la);
      diff_report(C, DIAG_ERROR, entry_site(C),
                  "the %s's output differs from the program's at line %zu: '%s' instead of '%s'", C->lo.what,
                  line, lb, la);
      diff_witness(C, sched);
    } else {
      C->errors++;
    }
  }
  Launch *hl, *ll;
  size_t nh, nl;
  if (C->o->against_backend)
    compare_device_lines(C, h, l, sched);
  hl = ll = NULL;
  nh = nl = 0;
  if (!C->o->against_backend) { /* a device's lines are not per launch: compared above */
    launches_of(h, &hl, &nh);
    launches_of(l, &ll, &nl);
  }
  /* both sorted by (site, occ): merge */
  for (size_t i = 0, j = 0; i < nh || j < nl;) {
    int c = i == nh ? 1 : j == nl ? -1
          : hl[i].site != ll[j].site ? (hl[i].site < ll[j].site ? -1 : 1)
          : hl[i].occ != ll[j].occ ? (hl[i].occ < ll[j].occ ? -1 : 1) : 0;
    Launch *a = c <= 0 ? &hl[i] : NULL, *m = c >= 0 ? &ll[j] : NULL;
    bool same = a && m && m->n == a->n;
    for (size_t k = 0; same && k < m->n; k++)
      same = !strcmp(m->lines[k], a->lines[k]);
    Launch *any = a ? a : m;
    if (!same && diff_once(C, 2, any->site, any->occ)) {
      if (a)
        diff_report(C, DIAG_ERROR, a->site,
                    "%s (occurrence %u) printed different lines in the %s: %zu in the program, %zu in the %s",
                    diff_op_name(C, a->site, nm, sizeof nm), a->occ + 1, C->lo.what, a->n, m ? m->n : 0, C->lo.what);
      else
        diff_report(C, DIAG_ERROR, m->site,
                    "the %s's launch here (occurrence %u) printed %zu lines the program does not print",
                    C->lo.what, m->occ + 1, m->n);
      diff_witness(C, sched);
    } else if (!same) {
      C->errors++;
    }
    i += c <= 0;
    j += c >= 0;
  }
  launches_free(hl, nh);
  launches_free(ll, nl);

  Item *hi = xrealloc(NULL, h->nbufs * sizeof *hi), *li = xrealloc(NULL, l->nbufs * sizeof *li);
  for (size_t i = 0; i < h->nbufs; i++)
    hi[i] = (Item){h->bufs[i].site, 0, h->bufs[i].seq, i};
  for (size_t i = 0; i < l->nbufs; i++)
    li[i] = (Item){l->bufs[i].site, 0, l->bufs[i].seq, i};
  number(hi, h->nbufs);
  number(li, l->nbufs);
  /* both sorted by (site, occ): merge */
  for (size_t i = 0, j = 0; i < h->nbufs && j < l->nbufs;) {
    if (hi[i].site != li[j].site || hi[i].occ != li[j].occ) {
      if (hi[i].site < li[j].site || (hi[i].site == li[j].site && hi[i].occ < li[j].occ))
        i++;
      else
        j++;
      continue;
    }
    HostBuf *a = &h->bufs[hi[i].idx], *b = &l->bufs[li[j].idx];
    size_t k = 0, n = a->size < b->size ? a->size : b->size;
    while (k < n && a->bytes[k] == b->bytes[k])
      k++;
    if (a->size != b->size || k < n) {
      if (diff_once(C, 3, a->site, hi[i].occ)) {
        if (a->size != b->size)
          diff_report(C, DIAG_ERROR, a->site,
                      "the buffer allocated here by %s (occurrence %u) has %zu bytes in the program and %zu in the %s",
                      diff_op_name(C, a->site, nm, sizeof nm), hi[i].occ + 1, a->size, b->size, C->lo.what);
        else
          diff_report(C, DIAG_ERROR, a->site,
                      "the final contents of the buffer allocated here by %s (occurrence %u) differ: byte %zu is 0x%02x in the program and 0x%02x in the %s",
                      diff_op_name(C, a->site, nm, sizeof nm), hi[i].occ + 1, k, a->bytes[k], b->bytes[k], C->lo.what);
        diff_witness(C, sched);
      } else {
        C->errors++;
      }
    }
    i++;
    j++;
  }
  free(hi);
  free(li);
  return C->errors != before;
}

/* ---- comparing violations ------------------------------------------------------------------ */

static bool viol_is(const Viol *v, const char *kind) { return v->kind && !strcmp(v->kind, kind); }

/* The program's own errors: the reference must be clean. Returns whether it had any. */
bool diff_reference_errors(Checker *C, Run *h, const char *sched) {
  bool bad = h->interp_errors != 0;
  if (h->interp_errors && diff_once(C, 4, 0, 0)) {
    fwrite(h->diag, 1, h->ndiag, stderr);
    diff_report(C, DIAG_ERROR, entry_site(C),
                "the program itself fails under --sched=%s; the reference must run cleanly", sched);
  }
  for (size_t i = 0; i < h->nviols; i++) {
    Viol *v = &h->viols[i];
    if (!v->error)
      continue;
    bad = true;
    uint32_t a = diff_site_of(&C->sites, v->loc, NULL);
    uint32_t b = v->loc2 ? diff_site_of(&C->sites, v->loc2, NULL) : UINT32_MAX;
    if (!diff_once(C, 5, a, b)) {
      C->errors++;
      continue;
    }
    if (viol_is(v, "race"))
      diff_report(C, DIAG_ERROR, a, "the program has a race of its own: %s (the reference must be race-free)",
                  v->message);
    else
      diff_report(C, DIAG_ERROR, a, "the program itself has an error: %s [%s]", v->message, v->kind);
    if (b != UINT32_MAX)
      diff_report(C, DIAG_NOTE, b, "the other party");
    diff_witness(C, sched);
  }
  return bad;
}

/* Whether the reference run has a violation of the same kind at the same sites. */
static bool in_reference(Checker *C, Run *h, const Viol *v) {
  uint32_t a = diff_site_of(&C->sites, v->loc, NULL);
  uint32_t b = v->loc2 ? diff_site_of(&C->sites, v->loc2, NULL) : UINT32_MAX;
  for (size_t i = 0; i < h->nviols; i++) {
    const Viol *w = &h->viols[i];
    if (strcmp(w->kind ? w->kind : "", v->kind ? v->kind : ""))
      continue;
    uint32_t c = diff_site_of(&C->sites, w->loc, NULL);
    uint32_t d = w->loc2 ? diff_site_of(&C->sites, w->loc2, NULL) : UINT32_MAX;
    if ((a == c && b == d) || (a == d && b == c))
      return true;
  }
  return false;
}

void diff_lowered_violations(Checker *C, Run *h, Run *l, const char *sched) {
  if (l->interp_errors && !h->interp_errors && diff_once(C, 6, 0, 0)) {
    fwrite(l->diag, 1, l->ndiag, stderr);
    diff_report(C, DIAG_ERROR, entry_site(C), "the %s fails where the program does not", C->lo.what);
    diff_witness(C, sched);
  }
  for (size_t i = 0; i < l->nviols; i++) {
    Viol *v = &l->viols[i];
    if (in_reference(C, h, v))
      continue;
    const char *call = "", *call2 = "";
    uint32_t a = diff_site_of(&C->sites, v->loc, &call);
    uint32_t b = v->loc2 ? diff_site_of(&C->sites, v->loc2, &call2) : UINT32_MAX;
    bool leak = viol_is(v, "leak");
    if (leak && C->o->leak_check == DIFF_LEAK_OFF)
      continue;
    if (!v->error && !leak)
      continue;
    unsigned kind = leak ? 7 : viol_is(v, "race") ? 8 : 9;
    if (!diff_once(C, kind, a, b) || (kind == 8 && !diff_once(C, 8, b, a)))
      continue;
    if (leak) {
      diff_report(C, C->o->leak_check == DIFF_LEAK_ERROR ? DIAG_ERROR : DIAG_WARNING, a,
                  "the %s leaks where the program does not: %s%s%s", C->lo.what, v->message,
                  call[0] ? " at " : "", call);
    } else {
      if (kind == 8 || viol_is(v, "misuse"))
        diff_report(C, DIAG_ERROR, a, "the %s has a %s the program does not have: %s%s%s", C->lo.what,
                    kind == 8 ? "race" : "misuse", v->message, call[0] ? " at " : "", call);
      else
        diff_report(C, DIAG_ERROR, a, "the %s has an error the program does not have: %s%s%s [%s]", C->lo.what,
                    v->message, call[0] ? " at " : "", call, v->kind ? v->kind : "error");
      if (b != UINT32_MAX)
        diff_report(C, DIAG_NOTE, b, "%s%s%s", kind == 8 ? "the other access" : "the handle or memory involved",
                    call2[0] ? ": " : "", call2);
    }
    diff_witness(C, sched);
  }
}
