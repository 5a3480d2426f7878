/* diff.c — compare two recordings through their text form.
 *
 * The text form is what golden tests keep and what a person reads, so a difference is shown as a
 * unified diff of it ("--- a", "+++ b", "@@ -l,n +l,n @@" hunks with three lines of context), like
 * `diff -u` on two written traces. The edit script comes from Myers' O(ND) algorithm: for each
 * number of edits d it records the furthest reaching path on every diagonal, then walks back from
 * the end. Keeping every round costs O(D^2) integers, so past MAX_EDITS the diff stops and reports
 * only where the first difference is.
 */
#include "traces/traces.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_EDITS = 2000, CONTEXT = 3 };

typedef struct Lines {
    char *text; /* the rendering, '\n' replaced by '\0' */
    char **line;
    size_t n;
} Lines;

static void lines_free(Lines *l)
{
    free(l->text);
    free(l->line);
}

static int lines_render(TraceRecorder *rec, Lines *l)
{
    size_t len = 0;
    memset(l, 0, sizeof *l);
    FILE *f = open_memstream(&l->text, &len);
    if (!f)
        return -1;
    int rc = trace_write_text(rec, f);
    if (fclose(f) != 0 || rc != 0)
        goto fail;
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += l->text[i] == '\n';
    l->line = malloc((n + 1) * sizeof *l->line);
    if (!l->line)
        goto fail;
    char *p = l->text;
    for (char *nl; (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = '\0';
        l->line[l->n++] = p;
    }
    return 0;
fail:
    lines_free(l);
    return -1;
}

static int same(const Lines *a, const Lines *b, size_t i, size_t j)
{
    return strcmp(a->line[i], b->line[j]) == 0;
}

/* One edit of the script: a line kept (' '), removed from a ('-') or added from b ('+'). */
typedef struct Edit {
    char op;
    size_t i, j; /* line in a, line in b */
} Edit;

/* Myers: v[d] holds, for diagonals k = -d..d (step 2), the furthest x reached with d edits.
 * Returns the number of edits, fills *script (kept lines included), or -1 when there are more than
 * MAX_EDITS or memory ran out. */
static long myers(const Lines *a, const Lines *b, Edit **script, size_t *n_script)
{
    long n = (long)a->n, m = (long)b->n, dmax = n + m < MAX_EDITS ? n + m : MAX_EDITS;
    long **v = calloc((size_t)dmax + 1, sizeof *v);
    long found = -1;
    if (!v)
        return -1;
    for (long d = 0; d <= dmax && found < 0; d++) {
        long *cur = malloc((2 * (size_t)d + 1) * sizeof *cur); /* index k + d */
        if (!cur)
            goto out;
        v[d] = cur;
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (d == 0)
                x = 0;
            else if (k == -d || (k != d && v[d - 1][k - 1 + d - 1] < v[d - 1][k + 1 + d - 1]))
                x = v[d - 1][k + 1 + d - 1]; /* down: a line of b inserted */
            else
                x = v[d - 1][k - 1 + d - 1] + 1; /* right: a line of a deleted */
            long y = x - k;
            while (x < n && y < m && same(a, b, (size_t)x, (size_t)y))
                x++, y++;
            cur[k + d] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
    }
    if (found < 0)
        goto out;
    /* Walk back from (n, m), collecting the script in reverse. */
    size_t cap = (size_t)(n + m) + 1, len = 0;
    Edit *s = malloc(cap * sizeof *s);
    if (!s) {
        found = -1;
        goto out;
    }
    long x = n, y = m;
    for (long d = found; d > 0; d--) {
        long k = x - y;
        const long *prev = v[d - 1] + (d - 1); /* prev[k]: furthest x on diagonal k after d-1 */
        int down = k == -d || (k != d && prev[k - 1] < prev[k + 1]);
        long pk = down ? k + 1 : k - 1, px = prev[pk], py = px - pk;
        long mx = down ? px : px + 1, my = mx - k; /* just after the edit */
        while (x > mx && y > my) {
            x--, y--;
            s[len++] = (Edit){' ', (size_t)x, (size_t)y};
        }
        s[len++] = (Edit){down ? '+' : '-', (size_t)px, (size_t)py};
        x = px, y = py;
    }
    while (x > 0 && y > 0) {
        x--, y--;
        s[len++] = (Edit){' ', (size_t)x, (size_t)y};
    }
    for (size_t i = 0; i < len / 2; i++) {
        Edit t = s[i];
        s[i] = s[len - 1 - i];
        s[len - 1 - i] = t;
    }
    *script = s;
    *n_script = len;
out:
    for (long d = 0; d <= dmax; d++)
        free(v[d]);
    free(v);
    return found;
}

/* Prints the hunks of a script: runs of edits with up to CONTEXT kept lines around them. */
static void hunks(FILE *out, const Lines *a, const Lines *b, const Edit *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i].op == ' ')
            i++;
        if (i == n)
            break;
        size_t start = i >= CONTEXT ? i - CONTEXT : 0, end = i;
        /* Extend while the next change is within 2*CONTEXT kept lines. */
        for (;;) {
            while (end < n && s[end].op != ' ')
                end++;
            size_t k = end;
            while (k < n && s[k].op == ' ' && k - end < 2 * CONTEXT)
                k++;
            if (k < n && s[k].op != ' ')
                end = k;
            else
                break;
        }
        size_t stop = end + CONTEXT < n ? end + CONTEXT : n;
        size_t la = 0, lb = 0;
        for (size_t k = start; k < stop; k++) {
            la += s[k].op != '+';
            lb += s[k].op != '-';
        }
        /* Line numbers are 1-based; an empty side names the line before it, as diff -u does. */
        size_t fa = la ? s[start].i + 1 : s[start].i, fb = lb ? s[start].j + 1 : s[start].j;
        fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", fa, la, fb, lb);
        for (size_t k = start; k < stop; k++) {
            const char *text = s[k].op == '+' ? b->line[s[k].j] : a->line[s[k].i];
            fprintf(out, "%c%s\n", s[k].op, text);
        }
        i = stop;
    }
}

int trace_diff(TraceRecorder *a, TraceRecorder *b, const char *a_name, const char *b_name,
               FILE *out)
{
    Lines la, lb;
    Edit *script = NULL;
    size_t n_script = 0;
    if (lines_render(a, &la))
        return -1;
    if (lines_render(b, &lb)) {
        lines_free(&la);
        return -1;
    }
    long d = myers(&la, &lb, &script, &n_script);
    if (d > 0 && out) {
        fprintf(out, "--- %s\n+++ %s\n", a_name ? a_name : "a", b_name ? b_name : "b");
        hunks(out, &la, &lb, script, n_script);
    } else if (d < 0) {
        /* Too different for a readable diff (or out of memory): say where they part. */
        size_t i = 0;
        while (i < la.n && i < lb.n && strcmp(la.line[i], lb.line[i]) == 0)
            i++;
        if (out)
            fprintf(out, "--- %s\n+++ %s\ntraces differ in more than %d lines, first at line %zu\n",
                    a_name ? a_name : "a", b_name ? b_name : "b", MAX_EDITS, i + 1);
        d = MAX_EDITS + 1;
    }
    free(script);
    lines_free(&la);
    lines_free(&lb);
    return (int)d;
}
