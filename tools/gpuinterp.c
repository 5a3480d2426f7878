/* gpuinterp - runs MLIR programs that use the GPU dialect, with or without a GPU.
 *
 * This file is only the command line: it parses options, reads and verifies the program with
 * ir/, then prints it (--emit=mlir) or runs it with interp/ on a backend (backends/), writing a
 * trace when asked; --diff hands over to the differential checker (diff.c). Exit status: 0 ok, 1 a program or runtime error or a violation found, 2 a
 * usage, parse or verification error. */
#include "backends/backend.h"
#include "interp/interp.h"
#include "lower/lower.h"
#include "ir/ir.h"
#include "tools/diff.h"
#include "tools/sites.h"
#include "traces/traces.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VERSION "0.1.0"

static const char usage_text[] =
    "usage: gpuinterp [options] prog.mlir|-\n"
    "\n"
    "Runs an MLIR program that uses the GPU dialect, in its high-level (gpu.*) or lowered\n"
    "(llvm.call @mgpu*) form.\n"
    "\n"
    "options:\n"
    "  --backend=sim|cuda|hip     device to run on (default: sim, the CPU simulator)\n"
    "  --cuda-lib=PATH            with --backend=cuda (or --diff --against-backend=cuda): the\n"
    "                             driver library to load (default: $GPUINTERP_CUDA_LIB, else\n"
    "                             libcuda.so.1)\n"
    "  --mlir-opt=PATH            on a backend that runs device code (cuda, hip): the mlir-opt\n"
    "                             that compiles a launched gpu.module to PTX or an AMD code\n"
    "                             object (default: $GPUINTERP_MLIR_OPT, else\n"
    "                             /usr/lib/llvm-22/bin/mlir-opt, else mlir-opt on PATH)\n"
    "  --hip-lib=PATH             with --backend=hip: the HIP runtime library to load (default:\n"
    "                             $GPUINTERP_HIP_LIB, else libamdhip64.so, .so.6, .so.5)\n"
    "  -e NAME                    entry function (default: main)\n"
    "  --sched=threads|serial|random:SEED\n"
    "                             simulator scheduler (default: threads)\n"
    "  --workers=N                threads scheduler: worker threads (default 0: one per CPU)\n"
    "  --trace=FILE               write a trace of the run to FILE, checked before the run; '-':\n"
    "                             standard output, after the program's output\n"
    "                             (with --diff: FILE.high and FILE.lowered, before FILE's\n"
    "                             extension, the witness runs' traces)\n"
    "  --trace-format=text|chrome trace format (default: chrome for a FILE ending in .json, else\n"
    "                             text)\n"
    "  --race-check=off|on|strict data races (default: on): threads of one launch writing the\n"
    "                             same value unordered are a note, or a warning with strict;\n"
    "                             other races are errors. --no-race-check: off\n"
    "  --max-steps=N              stop the run with an error after N ops (a host op counts one, a\n"
    "                             kernel op one per thread it runs for); with --diff, per run\n"
    "  --timeout=SECONDS          stop the run with an error after SECONDS of wall-clock time\n"
    "                             (decimals allowed: 0.5); with --diff, per run\n"
    "  --emit=mlir                parse, verify and print the program instead of running it\n"
    "  --lower                    lower the gpu host ops to mgpu* runtime calls and print the\n"
    "                             result, with every op's location, instead of running it\n"
    "  -o FILE                    with --emit=mlir or --lower: write to FILE instead of stdout\n"
    "  --lower-mutate=KIND[:SITE] testing only: inject a lowering bug into --lower, or into the\n"
    "                             lowering --diff makes (see docs/design.md)\n"
    "  --print-generic            with --emit=mlir or --lower: print every op in the generic form\n"
    "  --print-locations          with --emit=mlir: print loc(...) for every op\n"
    "  --no-verify                with --emit=mlir: skip the verifier\n"
    "  --allow-unregistered-dialect\n"
    "                             accept ops, types and attributes of dialects MLIR does not\n"
    "                             have, as mlir-opt's flag does (an op of one is reported when\n"
    "                             it would run)\n"
    "  --split-input-file         split the input at lines '// -----' and handle each part as a\n"
    "                             program of its own (diagnostics keep the file's line numbers;\n"
    "                             --emit=mlir and --lower print the parts separated by '// -----')\n"
    "  --verify-diagnostics       check that parsing and verifying (and --lower) give exactly the\n"
    "                             diagnostics that 'expected-error@+1 {{text}}' comments expect, as\n"
    "                             mlir-opt does; runs nothing; exit 1 on a mismatch\n"
    "  --diff                     run the program and a lowering of it (ours, or --against's) under\n"
    "                             serial, threads and --seeds random schedules and report where\n"
    "                             they differ: output, final host buffers, violations, lost\n"
    "                             ordering of conflicting accesses, lost concurrency (a warning);\n"
    "                             prints nothing on stdout\n"
    "  --against FILE             with --diff: compare with this lowered file (e.g. the output of\n"
    "                             mlir-opt --gpu-to-llvm -mlir-print-debuginfo)\n"
    "  --against-backend=cuda     with --diff: instead of a lowering, run the program (or\n"
    "                             --against's file) once on that backend and compare its output\n"
    "                             and final host buffers with the simulator's (serial)\n"
    "  --seeds N                  with --diff: random schedules to try (default: 8)\n"
    "  --diff-strict              with --diff: lost concurrency is a difference, not a warning\n"
    "  --leak-check=off|warn|error  streams, events and memory left at exit (with --diff: leaks\n"
    "                             only the lowered form has): not reported, warnings (default)\n"
    "                             or errors\n"
    "  --help                     show this text\n"
    "  --version                  show the version\n"
    "  --                         end of options: what follows is the input file\n"
    "\n"
    "An option that does nothing in the mode given (e.g. --print-generic without --emit=mlir) is a\n"
    "usage error.\n"
    "\n"
    "libmgpusim.so, the mgpu* runtime on the simulator for mlir-runner, reads the same settings\n"
    "from the environment (a value it does not understand is an error of the run):\n"
    "  MGPUSIM_BACKEND=sim|cuda|hip  device to run on (cuda: the driver library\n"
    "                             GPUINTERP_CUDA_LIB names, else libcuda.so.1; hip: the runtime\n"
    "                             GPUINTERP_HIP_LIB names, else libamdhip64.so)\n"
    "  MGPUSIM_SCHED=threads|serial|random:SEED\n"
    "  MGPUSIM_WORKERS=N          as --workers\n"
    "  MGPUSIM_RACE_CHECK=0|1     0: race checks off\n"
    "  MGPUSIM_TRACE=FILE         as --trace, written at exit ('-': standard output)\n"
    "  MGPUSIM_TRACE_FORMAT=text|chrome  as --trace-format\n"
    "  MGPUSIM_LEAK_CHECK=off|warn|error as --leak-check\n"
    "\n"
    "exit status: 0 ok; 1 program or runtime error, or a violation found (--diff: a difference);\n"
    "2 usage, parse or verification error.\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("gpuinterp: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'gpuinterp --help' for more information.\n", stderr);
  return 2;
}

/* ---- Which option applies in which mode ----
 *
 * The tool does one of five things with its input: run it, print it (--emit=mlir), lower it
 * (--lower), check it against a lowering (--diff), or check its expected diagnostics
 * (--verify-diagnostics alone). Each option names the modes where it does something; given in any
 * other it is a usage error rather than silently ignored. */
enum { M_RUN = 1, M_EMIT = 2, M_LOWER = 4, M_DIFF = 8, M_CHECK = 16 };
static const char *const mode_names[] = {"a run", "--emit=mlir", "--lower", "--diff",
                                         "--verify-diagnostics"};
static const char *const mode_phrases[] = {"when running a program", "with --emit=mlir", "with --lower",
                                           "with --diff", "with --verify-diagnostics alone"};

/* X(id, name, modes): name is for the reader; the message quotes the argument as given. */
#define OPTIONS(X)                                                                               \
  X(O_BACKEND, "--backend", M_RUN)                                                               \
  X(O_CUDA_LIB, "--cuda-lib", M_RUN | M_DIFF)                                                    \
  X(O_MLIR_OPT, "--mlir-opt", M_RUN | M_DIFF)                                                    \
  X(O_HIP_LIB, "--hip-lib", M_RUN)                                                               \
  X(O_ENTRY, "-e", M_RUN | M_DIFF)                                                               \
  X(O_SCHED, "--sched", M_RUN)                                                                   \
  X(O_WORKERS, "--workers", M_RUN)                                                               \
  X(O_TRACE, "--trace", M_RUN | M_DIFF)                                                          \
  X(O_TRACE_FORMAT, "--trace-format", M_RUN | M_DIFF)                                            \
  X(O_RACE_CHECK, "--race-check", M_RUN)                                                         \
  X(O_LEAK_CHECK, "--leak-check", M_RUN | M_DIFF)                                                \
  X(O_MAX_STEPS, "--max-steps", M_RUN | M_DIFF)                                                  \
  X(O_TIMEOUT, "--timeout", M_RUN | M_DIFF)                                                      \
  X(O_OUTPUT, "-o", M_EMIT | M_LOWER)                                                            \
  X(O_MUTATE, "--lower-mutate", M_LOWER | M_DIFF)                                                \
  X(O_GENERIC, "--print-generic", M_EMIT | M_LOWER)                                              \
  X(O_LOCATIONS, "--print-locations", M_EMIT)                                                    \
  X(O_NO_VERIFY, "--no-verify", M_EMIT)                                                          \
  X(O_SPLIT, "--split-input-file", M_RUN | M_EMIT | M_LOWER | M_CHECK)                           \
  X(O_AGAINST, "--against", M_DIFF)                                                              \
  X(O_AGAINST_BACKEND, "--against-backend", M_DIFF)                                              \
  X(O_SEEDS, "--seeds", M_DIFF)                                                                  \
  X(O_DIFF_STRICT, "--diff-strict", M_DIFF)                                                      \
  X(O_UNREGISTERED, "--allow-unregistered-dialect", M_RUN | M_EMIT | M_LOWER | M_DIFF | M_CHECK)

#define OPT_ENUM(id, name, modes) id,
#define OPT_MODES(id, name, modes) modes,
enum { OPTIONS(OPT_ENUM) N_OPTIONS };
static const unsigned option_modes[N_OPTIONS] = {OPTIONS(OPT_MODES)};

/* given[o]: the argument that gave option o, or NULL. Returns 2 after a usage error for the first
 * option that does nothing in mode, else 0. */
static int check_modes(const char *const given[N_OPTIONS], unsigned mode) {
  int m = 0;
  while ((1u << m) != mode)
    m++;
  for (int o = 0; o < N_OPTIONS; o++) {
    if (!given[o] || (option_modes[o] & mode))
      continue;
    char where[160] = "";
    for (int k = 0; k < 5; k++)
      if (option_modes[o] & (1u << k))
        snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s", where[0] ? ", " : "",
                 mode_names[k]);
    fprintf(stderr, "gpuinterp: error: '%s' does nothing %s (it applies to: %s)\n", given[o],
            mode_phrases[m], where);
    fputs("Try 'gpuinterp --help' for more information.\n", stderr);
    return 2;
  }
  return 0;
}

/* A whole decimal number from 0 to max, nothing before or after it (no sign, no spaces); false
 * for anything else, an overflow included. */
static bool parse_count(const char *v, uint64_t max, uint64_t *out) {
  if (!v || !isdigit((unsigned char)v[0]))
    return false;
  char *end = NULL;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno == ERANGE || *end || n > max)
    return false;
  *out = n;
  return true;
}

/* --sched's value: threads, serial or random:SEED with SEED a whole number (64 bits). */
static bool parse_sched(const char *v) {
  uint64_t seed;
  return !strcmp(v, "threads") || !strcmp(v, "serial") ||
         (!strncmp(v, "random:", 7) && parse_count(v + 7, UINT64_MAX, &seed));
}

/* Checks that `-e`'s function (main by default) is one the interpreter can run: a func.func or
 * llvm.func with a body at the top of the module. Naming one that is not there is a usage error. */
static int check_entry(const Op *top, const char *entry) {
  Block *b = top && top->nregions ? top->regions[0].first : NULL;
  for (Op *o = b ? b->first : NULL; o; o = o->next) {
    if (!ir_str_eq(o->name, "func.func") && !ir_str_eq(o->name, "llvm.func"))
      continue;
    Attr *name = ir_op_attr(o, "sym_name");
    if (name && name->kind == ATTR_STRING && name->u.str.len == strlen(entry) &&
        !memcmp(name->u.str.s, entry, name->u.str.len) && o->nregions && o->regions[0].first)
      return 0;
  }
  fprintf(stderr, "gpuinterp: error: no function '@%s' with a body to run (-e names the entry point; "
                  "default: main)\n", entry);
  fputs("Try 'gpuinterp --help' for more information.\n", stderr);
  return 2;
}

/* Output files (-o) are written to a temporary file next to them and renamed over them only once
 * everything was written and the run succeeded, so a failure never leaves half a file. Only a
 * regular file (or a new one) is replaced so: anything else (/dev/null, a device, a pipe, a
 * symbolic link) is written in place, since renaming over it would replace it. */
typedef struct OutFile {
  FILE *f;
  const char *path; /* the file asked for; NULL: stdout */
  char *tmp;        /* the temporary file, until committed; NULL when writing in place */
} OutFile;

/* Opens -o's file ("-" or NULL: stdout); returns 0, or 1 after saying why. */
static int out_open(OutFile *o, const char *path) {
  *o = (OutFile){.f = stdout};
  if (!path || !strcmp(path, "-"))
    return 0;
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (!(o->f = fopen(path, "w"))) {
      fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", path, strerror(errno));
      return 1;
    }
    o->path = path;
    return 0;
  }
  size_t n = strlen(path);
  o->tmp = malloc(n + 16);
  if (!o->tmp)
    abort();
  snprintf(o->tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
    fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    o->f = NULL;
    return 1;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* as fopen would have made it */
  o->path = path;
  return 0;
}

/* Closes -o's file: renames the temporary file over it when ok, else removes it. Returns 1 when
 * writing or renaming failed (after saying why), else 0. */
static int finish_output(FILE *f, const char *name);
static int out_close(OutFile *o, bool ok) {
  if (!o->path)
    return 0;
  int bad = finish_output(o->f, o->path);
  if (!o->tmp)
    return bad;
  if (ok && !bad && rename(o->tmp, o->path) != 0) {
    fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", o->path, strerror(errno));
    bad = 1;
  }
  if (!ok || bad)
    unlink(o->tmp);
  free(o->tmp);
  o->tmp = NULL;
  return bad;
}

/* Opens --trace's file before the run ("-": stdout), so that a path that cannot be written fails
 * at once rather than after the program ran; NULL after saying why. It is opened to append, so a
 * file that was there keeps its bytes until a trace replaces them (trace_replace); *created says
 * whether opening made it, for removing it again when nothing ran. */
static FILE *open_trace(const char *path, bool *created) {
  *created = false;
  if (!strcmp(path, "-"))
    return stdout;
  struct stat st;
  *created = stat(path, &st) != 0;
  FILE *f = fopen(path, "a");
  if (!f) {
    fprintf(stderr, "gpuinterp: error: cannot open trace file '%s': %s\n", path, strerror(errno));
    fputs("Try 'gpuinterp --help' for more information.\n", stderr);
  }
  return f;
}

/* --diff writes FILE.high and FILE.lowered next to --trace's FILE: its folder must be writable. */
static int check_trace_folder(const char *path) {
  const char *slash = strrchr(path, '/');
  char dir[4096];
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else
    snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
  if (access(dir, W_OK) == 0)
    return 0;
  fprintf(stderr, "gpuinterp: error: cannot write trace files in '%s': %s\n", dir, strerror(errno));
  fputs("Try 'gpuinterp --help' for more information.\n", stderr);
  return 2;
}

/* --max-steps and --timeout: 0 when not given */
typedef struct Bounds {
  uint64_t max_steps;
  double timeout;
} Bounds;

/* Flushes f, closes it unless it is stdout, and reports a write error on it, met now or earlier
 * (ferror), as `cannot write to 'NAME': reason`; returns 1 then, else 0. */
static int finish_output(FILE *f, const char *name) {
  int bad = fflush(f) != 0 || ferror(f);
  int err = errno;
  if (f != stdout && fclose(f) != 0 && !bad) {
    bad = 1;
    err = errno;
  }
  if (!bad)
    return 0;
  fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", name, strerror(err ? err : EIO));
  return 1;
}

/* What a run takes besides the program and the options above. */
typedef struct RunSettings {
  int workers;            /* --workers: 0 = one per CPU */
  BeLeakCheck leak_check; /* --leak-check */
  FILE *trace_file;       /* --trace's file, opened before the run (stdout for "-"), or NULL */
  const char *cuda_lib;   /* --cuda-lib, or NULL */
  const char *mlir_opt;   /* --mlir-opt, or NULL */
  const char *hip_lib;    /* --hip-lib, or NULL */
} RunSettings;

/* Runs the program on a backend; returns the exit status. */
static int run(IrCtx *ctx, Op *top, const char *backend, const char *entry, const char *sched,
               bool no_race_check, bool race_strict, const char *trace_path, TraceFormat trace_format,
               Bounds bounds, const RunSettings *rs) {
  TraceRecorder *rec = trace_path ? trace_recorder_create() : NULL;
  /* the device's diagnostics go through the front end's printer, ops named (tools/sites.c) */
  Sites *sites = sites_create(ctx, top, entry);
  ir_diag_set_rewrite(ctx, sites ? sites_rewrite : NULL, sites);
  BeOptions bo = {.sink = sites ? sites_sink : NULL, .sink_user = sites};
  bo.sched = sched;
  bo.no_race_check = no_race_check;
  bo.workers = rs->workers;
  bo.leak_check = rs->leak_check;
  bo.driver_lib = rs->cuda_lib ? rs->cuda_lib : rs->hip_lib; /* at most one, for its backend */
  bo.trace = rec;
  Backend *be = NULL;
  char err[512] = "";
  int status = 0;
  if (be_open(backend, &bo, &be, err, sizeof err) != BE_OK) {
    fprintf(stderr, "gpuinterp: error: %s\n", err[0] ? err : "cannot open the backend");
    status = 1;
    goto done;
  }
  InterpOptions io = {.be = be, .out = stdout, .no_race_check = no_race_check, .race_strict = race_strict,
                      .max_steps = bounds.max_steps, .timeout = bounds.timeout, .mlir_opt = rs->mlir_opt};
  Interp *in = interp_create(ctx, top, &io);
  if (!in) {
    status = 1;
  } else {
    if (interp_run(in, entry))
      status = 1;
    interp_destroy(in);
  }
  BeSummary sum = {0};
  be_close(be, &sum);
  if (sum.errors)
    status = 1;
  if (rec && rs->trace_file) {
    fflush(stdout); /* the program's output comes first when the trace goes to stdout too */
    errno = 0;
    struct stat st;
    if (rs->trace_file != stdout && fstat(fileno(rs->trace_file), &st) == 0 && S_ISREG(st.st_mode) &&
        ftruncate(fileno(rs->trace_file), 0) != 0) { /* the trace replaces what the file held */
      fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", trace_path, strerror(errno));
      status = 1;
    } else if (trace_write(rec, trace_format, rs->trace_file) != 0 || fflush(rs->trace_file) != 0) {
      fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", trace_path,
              strerror(errno ? errno : EIO));
      status = 1;
    }
  }
done:
  trace_recorder_destroy(rec);
  ir_diag_set_rewrite(ctx, NULL, NULL);
  sites_destroy(sites);
  return status;
}

/* What to do with each program of the input. */
typedef struct Job {
  const char *name; /* the file name diagnostics give */
  bool verify, verify_diags, lower, print, split, allow_unregistered;
  LowerOptions *lopts;
  PrintOptions popts;
  const char *backend, *entry, *sched, *trace_path;
  bool no_race_check, race_strict;
  Bounds bounds;
  TraceFormat trace_format;
  RunSettings rs;
  FILE *out; /* for --emit=mlir and --lower */
} Job;

/* Parses, verifies and then prints, lowers or runs one program, which starts at line:col of the
 * input; returns the exit status. */
static int one_program(const Job *job, const char *text, size_t len, uint32_t line, uint32_t col) {
  IrCtx *ctx = ir_ctx_create();
  if (!ctx)
    return 1;
  ir_ctx_allow_unregistered(ctx, job->allow_unregistered);
  IrExpect *expect = job->verify_diags ? ir_expect_begin_part(ctx, job->name, text, len, line, col) : NULL;
  int status = 0;
  Op *top = ir_parse_part(ctx, job->name, text, len, line, col);
  if (!top || (job->verify && ir_verify(ctx, top))) {
    status = 2;
    goto done;
  }
  PrintOptions popts = job->popts;
  if (job->lower) {
    if (lower_module(ctx, top, job->lopts) || ir_verify(ctx, top)) {
      status = 1;
      goto done;
    }
    popts.locations = true;
  }
  if (job->print) {
    ir_print(ctx, job->out, top, &popts);
    if (job->split)
      fputc('\n', job->out); /* mlir-opt ends each part with a blank line */
  } else if (!expect) {
    status = check_entry(top, job->entry);
    if (status == 0)
      status = run(ctx, top, job->backend, job->entry, job->sched, job->no_race_check, job->race_strict,
                   job->trace_path, job->trace_format, job->bounds, &job->rs);
  }
done:
  if (expect)
    status = ir_expect_end(expect) ? 1 : 0;
  ir_ctx_destroy(ctx);
  return status;
}

/* The next "// -----" in [s, end), or end. */
static const char *find_split_marker(const char *s, const char *end) {
  for (; end - s >= 8; s++)
    if (*s == '/' && !memcmp(s, "// -----", 8))
      return s;
  return end;
}

/* The whole input ("-": standard input), NUL-terminated, or NULL after saying why. A file that
 * cannot be opened or read (a directory, a closed standard input) is an error, not an empty
 * program. A regular file is read into a buffer of its size (the parser works in it, so this is
 * the one copy of the text a run keeps). */
static char *read_input(const char *path, size_t *len) {
  bool is_stdin = strcmp(path, "-") == 0;
  const char *name = is_stdin ? "<stdin>" : path;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "gpuinterp: error: cannot read '%s': %s\n", name, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && (uintmax_t)sb.st_size < SIZE_MAX / 2)
    cap = (size_t)sb.st_size + 1; /* + 1: the read that finds the end, and the NUL */
  char *buf = malloc(cap);
  int err = 0;
  for (size_t got = 1; buf && got;) {
    errno = 0;
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (!got && ferror(f))
      err = errno ? errno : EIO;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  if (f != stdin)
    fclose(f);
  if (!buf)
    abort();
  if (err) {
    fprintf(stderr, "gpuinterp: error: cannot read '%s': %s\n", name, strerror(err));
    free(buf);
    return NULL;
  }
  buf[n] = 0; /* n < cap: a full buffer has grown */
  *len = n;
  return buf;
}

/* The closing summary, the last line on stderr: "gpuinterp: 1 error, 2 warnings". */
static void summary(void) { ir_diag_summary(stderr, "gpuinterp"); }

int main(int argc, char **argv) {
  atexit(summary);
  const char *input = NULL, *emit = NULL, *backend = "sim", *entry = "main";
  const char *sched = "threads", *trace_path = NULL, *out_path = NULL;
  bool lower = false;
  LowerOptions lopts = {0};
  TraceFormat trace_format = TRACE_FORMAT_TEXT;
  bool no_race_check = false, race_strict = false;
  PrintOptions popts = {0};
  bool verify = true;
  bool diff = false, diff_opt = false;
  DiffOptions dopts = {.seeds = 8, .leak_check = DIFF_LEAK_WARN};
  bool split = false, verify_diags = false, run_opt = false, allow_unregistered = false;
  Bounds bounds = {0};
  const char *given[N_OPTIONS] = {0};
  bool trace_format_given = false, options_ended = false;
  RunSettings rs = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options_ended || !strcmp(a, "-") || a[0] != '-') {
      if (input)
        return usage_error("more than one input file ('%s')", a);
      input = a;
    } else if (!strcmp(a, "--")) {
      options_ended = true; /* what follows is the input file, even if it starts with '-' */
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return finish_output(stdout, "<stdout>");
    } else if (!strcmp(a, "--version")) {
      printf("gpuinterp %s\n", VERSION);
      return finish_output(stdout, "<stdout>");
    } else if (!strncmp(a, "--emit=", 7)) {
      emit = a + 7;
      if (strcmp(emit, "mlir"))
        return usage_error("unknown --emit kind '%s' (expected: mlir)", emit);
    } else if (!strcmp(a, "--lower")) {
      lower = true;
    } else if (!strncmp(a, "--lower-mutate=", 15)) {
      lopts.mutate = a + 15;
      given[O_MUTATE] = a;
    } else if (!strcmp(a, "-o")) {
      if (++i == argc)
        return usage_error("%s needs a file name", a);
      out_path = argv[i];
      given[O_OUTPUT] = a;
    } else if (!strcmp(a, "--print-generic")) {
      popts.generic = true;
      given[O_GENERIC] = a;
    } else if (!strcmp(a, "--print-locations")) {
      popts.locations = true;
      given[O_LOCATIONS] = a;
    } else if (!strcmp(a, "--no-verify")) {
      verify = false;
      given[O_NO_VERIFY] = a;
    } else if (!strcmp(a, "--split-input-file")) {
      split = true;
      given[O_SPLIT] = a;
    } else if (!strcmp(a, "--verify-diagnostics")) {
      verify_diags = true;
    } else if (!strcmp(a, "--allow-unregistered-dialect")) {
      allow_unregistered = true;
      given[O_UNREGISTERED] = a;
    } else if (!strncmp(a, "--backend=", 10)) {
      backend = a + 10;
      run_opt = true;
      given[O_BACKEND] = a;
      if (strcmp(backend, "sim") && strcmp(backend, "cuda") && strcmp(backend, "hip"))
        return usage_error("unknown backend '%s' (expected: sim, cuda or hip)", backend);
    } else if (!strcmp(a, "-e")) {
      if (++i == argc)
        return usage_error("%s needs a function name", a);
      entry = argv[i];
      run_opt = true;
      given[O_ENTRY] = a;
    } else if (!strncmp(a, "--sched=", 8)) {
      sched = a + 8;
      run_opt = true;
      given[O_SCHED] = a;
      if (!parse_sched(sched))
        return usage_error("unknown scheduler '%s' (expected: threads, serial or random:SEED, SEED a "
                           "whole number below 2^64)", sched);
    } else if (!strncmp(a, "--cuda-lib=", 11)) {
      rs.cuda_lib = a + 11;
      run_opt = true;
      given[O_CUDA_LIB] = a;
      if (!rs.cuda_lib[0])
        return usage_error("%s", "--cuda-lib needs the path of a CUDA driver library");
    } else if (!strncmp(a, "--mlir-opt=", 11)) {
      rs.mlir_opt = a + 11;
      given[O_MLIR_OPT] = a;
      if (!rs.mlir_opt[0])
        return usage_error("%s", "--mlir-opt needs the path of mlir-opt");
    } else if (!strncmp(a, "--hip-lib=", 10)) {
      rs.hip_lib = a + 10;
      run_opt = true;
      given[O_HIP_LIB] = a;
      if (!rs.hip_lib[0])
        return usage_error("%s", "--hip-lib needs the path of a HIP runtime library");
    } else if (!strncmp(a, "--workers=", 10)) {
      uint64_t n;
      if (!parse_count(a + 10, 1024, &n))
        return usage_error("--workers needs a number of threads from 0 (one per CPU) to 1024, not '%s'",
                           a + 10);
      rs.workers = (int)n;
      run_opt = true;
      given[O_WORKERS] = a;
    } else if (!strncmp(a, "--trace=", 8)) {
      trace_path = a + 8;
      run_opt = true;
      given[O_TRACE] = a;
      if (!trace_path[0])
        return usage_error("%s", "--trace needs a file name (- for standard output)");
    } else if (!strncmp(a, "--trace-format=", 15)) {
      run_opt = true;
      trace_format_given = true;
      given[O_TRACE_FORMAT] = a;
      if (!strcmp(a + 15, "text"))
        trace_format = TRACE_FORMAT_TEXT;
      else if (!strcmp(a + 15, "chrome"))
        trace_format = TRACE_FORMAT_CHROME;
      else
        return usage_error("unknown trace format '%s' (expected: text or chrome)", a + 15);
    } else if (!strcmp(a, "--diff")) {
      diff = true;
    } else if (!strcmp(a, "--against") || !strncmp(a, "--against=", 10)) {
      if (a[9] == '=') {
        dopts.against = a + 10;
      } else if (++i == argc) {
        return usage_error("%s needs a file name", a);
      } else {
        dopts.against = argv[i];
      }
      if (!dopts.against[0])
        return usage_error("%s", "--against needs a file name");
      diff_opt = true;
      given[O_AGAINST] = a;
    } else if (!strncmp(a, "--against-backend=", 18)) {
      dopts.against_backend = a + 18;
      diff_opt = true;
      given[O_AGAINST_BACKEND] = a;
      if (strcmp(dopts.against_backend, "cuda") && strcmp(dopts.against_backend, "hip"))
        return usage_error("--against-backend names the device to compare the simulator with: cuda or hip, not "
                           "'%s'", dopts.against_backend);
    } else if (!strcmp(a, "--seeds") || !strncmp(a, "--seeds=", 8)) {
      const char *v = a[7] == '=' ? a + 8 : ++i < argc ? argv[i] : NULL;
      uint64_t n;
      if (!parse_count(v, 1000, &n))
        return usage_error("--seeds needs a number from 0 to 1000, not '%s'", v ? v : "");
      dopts.seeds = (unsigned)n;
      diff_opt = true;
      given[O_SEEDS] = a;
    } else if (!strcmp(a, "--diff-strict")) {
      dopts.strict = true;
      diff_opt = true;
      given[O_DIFF_STRICT] = a;
    } else if (!strncmp(a, "--leak-check=", 13)) {
      if (!strcmp(a + 13, "off"))
        dopts.leak_check = DIFF_LEAK_OFF;
      else if (!strcmp(a + 13, "warn"))
        dopts.leak_check = DIFF_LEAK_WARN;
      else if (!strcmp(a + 13, "error"))
        dopts.leak_check = DIFF_LEAK_ERROR;
      else
        return usage_error("unknown leak check '%s' (expected: off, warn or error)", a + 13);
      rs.leak_check = dopts.leak_check == DIFF_LEAK_OFF     ? BE_LEAK_OFF
                      : dopts.leak_check == DIFF_LEAK_ERROR ? BE_LEAK_ERROR
                                                            : BE_LEAK_WARN;
      given[O_LEAK_CHECK] = a;
    } else if (!strncmp(a, "--max-steps=", 12)) {
      const char *v = a + 12;
      uint64_t n;
      if (!parse_count(v, INT64_MAX, &n) || n == 0)
        return usage_error("--max-steps needs a positive whole number of steps, not '%s'", v);
      bounds.max_steps = n;
      run_opt = true;
      given[O_MAX_STEPS] = a;
    } else if (!strncmp(a, "--timeout=", 10)) {
      char *end = NULL;
      const char *v = a + 10;
      double t = strtod(v, &end);
      if (!*v || *end || !(t > 0) || t > 1e9)
        return usage_error("--timeout needs a positive number of seconds (e.g. 0.5), not '%s'", v);
      bounds.timeout = t;
      run_opt = true;
      given[O_TIMEOUT] = a;
    } else if (!strcmp(a, "--no-race-check") || !strcmp(a, "--race-check=off")) {
      no_race_check = true;
      race_strict = false;
      run_opt = true;
      given[O_RACE_CHECK] = a;
    } else if (!strcmp(a, "--race-check=on") || !strcmp(a, "--race-check=strict")) {
      no_race_check = false;
      race_strict = !strcmp(a + 13, "strict");
      run_opt = true;
      given[O_RACE_CHECK] = a;
    } else if (!strncmp(a, "--race-check=", 13)) {
      return usage_error("unknown race check '%s' (expected: off, on or strict)", a + 13);
    } else {
      return usage_error("unknown option '%s'", a);
    }
  }
  if (!input)
    return usage_error("%s", "no input file (use - for standard input)");
  if (lower && emit)
    return usage_error("%s", "--lower and --emit=mlir cannot be used together");
  if (out_path && !lower && !emit)
    return usage_error("%s", "-o needs --emit=mlir or --lower");
  if (lopts.mutate && !lower && (!diff || dopts.against))
    return usage_error("%s", "--lower-mutate needs --lower, or --diff without --against");
  if (lopts.mutate) {
    const char *const *k = lower_mutation_kinds();
    size_t len = strcspn(lopts.mutate, ":");
    while (*k && (strlen(*k) != len || strncmp(*k, lopts.mutate, len)))
      k++;
    if (!*k) {
      char list[512] = "";
      for (k = lower_mutation_kinds(); *k; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k == lower_mutation_kinds() ? "" : ", ", *k);
      fprintf(stderr, "gpuinterp: error: unknown lowering mutation '%.*s' (expected one of: %s)\n",
              (int)len, lopts.mutate, list);
      return 2;
    }
  }
  if (diff_opt && !diff)
    return usage_error("%s", "--against, --against-backend, --seeds and --diff-strict need --diff");
  if (dopts.against_backend && (given[O_SEEDS] || given[O_DIFF_STRICT] || given[O_MUTATE]))
    return usage_error("%s", "--against-backend runs the program once on the device and once on the simulator "
                             "under serial, comparing values: --seeds, --diff-strict and --lower-mutate do not apply");
  if (diff && (lower || emit || out_path))
    return usage_error("%s", "--diff cannot be used with --lower, --emit=mlir or -o");
  if (diff && (strcmp(backend, "sim") || strcmp(sched, "threads") || no_race_check))
    return usage_error("%s", "--diff runs on the simulator under its own schedules, with race "
                             "checks: --backend, --sched and --no-race-check do not apply");
  if (diff && (split || verify_diags))
    return usage_error("%s", "--diff cannot be used with --split-input-file or --verify-diagnostics");
  if (verify_diags && run_opt)
    return usage_error("%s", "--verify-diagnostics checks parsing and verification and runs nothing: "
                             "--backend, -e, --sched, --trace and --no-race-check do not apply");
  if (split && trace_path)
    return usage_error("%s", "--split-input-file runs several programs: --trace does not apply");
  if (diff && !strcmp(input, "-"))
    return usage_error("%s", "--diff needs the program in a file (its locations name it)");
  unsigned mode = diff ? M_DIFF : lower ? M_LOWER : emit ? M_EMIT : verify_diags ? M_CHECK : M_RUN;
  if (check_modes(given, mode))
    return 2;
  if (trace_format_given && !trace_path)
    return usage_error("%s", "--trace-format needs --trace=FILE");
  if (given[O_CUDA_LIB] && diff && (!dopts.against_backend || strcmp(dopts.against_backend, "cuda")))
    return usage_error("%s", "--cuda-lib names the CUDA driver library: with --diff it needs --against-backend=cuda");
  if (given[O_CUDA_LIB] && !diff && strcmp(backend, "cuda"))
    return usage_error("--cuda-lib names the CUDA driver library: it does nothing with --backend=%s", backend);
  if (given[O_MLIR_OPT] && ((diff && !dopts.against_backend) || (!diff && !strcmp(backend, "sim"))))
    return usage_error("%s", "--mlir-opt compiles gpu.modules for a device that runs device code: it needs "
                             "--backend=cuda or --backend=hip (with --diff, --against-backend=cuda)");
  if (given[O_HIP_LIB] && strcmp(backend, "hip"))
    return usage_error("--hip-lib names the HIP runtime library: it does nothing with --backend=%s", backend);
  if (strcmp(backend, "sim") && (given[O_SCHED] || given[O_WORKERS] || given[O_RACE_CHECK]))
    return usage_error("--sched, --workers and --race-check set the simulator's scheduler and race checks: they "
                       "do nothing with --backend=%s", backend);
  if (given[O_WORKERS] && strcmp(sched, "threads"))
    return usage_error("--workers sets the threads scheduler's worker count: it does nothing with "
                       "--sched=%s", sched);
  if (trace_path && !trace_format_given)
    trace_format = trace_format_for_path(trace_path);
  if (diff && trace_path && check_trace_folder(trace_path))
    return 2;
  if (diff) {
    dopts.input = input;
    dopts.entry = entry;
    dopts.trace_path = trace_path;
    dopts.trace_format = trace_format;
    dopts.mutate = lopts.mutate;
    dopts.max_steps = bounds.max_steps;
    dopts.timeout = bounds.timeout;
    dopts.cuda_lib = rs.cuda_lib;
    dopts.mlir_opt = rs.mlir_opt;
    dopts.allow_unregistered = allow_unregistered;
    return diff_run(&dopts);
  }

  size_t len = 0;
  char *text = read_input(input, &len);
  if (!text)
    return 2;
  const char *name = strcmp(input, "-") ? input : "<stdin>";
  bool trace_created = false;
  rs.trace_file = trace_path ? open_trace(trace_path, &trace_created) : NULL;
  if (trace_path && !rs.trace_file) {
    free(text);
    return 2;
  }
  Job job = {.name = name, .split = split, .allow_unregistered = allow_unregistered, .verify = verify, .verify_diags = verify_diags, .lower = lower,
             .print = emit || lower, .lopts = &lopts, .popts = popts, .backend = backend,
             .entry = entry, .sched = sched, .no_race_check = no_race_check, .race_strict = race_strict,
             .bounds = bounds,
             .trace_path = trace_path, .trace_format = trace_format, .rs = rs, .out = stdout};
  int status = 0;
  OutFile out;
  if (out_open(&out, out_path)) {
    free(text);
    return 1;
  }
  job.out = out.f;
  if (!split) {
    status = one_program(&job, text, len, 1, 1);
  } else {
    /* The input is split wherever "// -----" occurs, as mlir-opt splits it; each part is parsed
     * where it lies, told the line and column it starts at, so that its locations are the file's
     * and splitting stays linear in the input. */
    char *end = text + len, *part = text;
    const char *line_start = text;
    uint32_t line = 1;
    for (bool first = true;; first = false) {
      char *m = (char *)find_split_marker(part, end);
      if (!first && job.print)
        fputs("// -----\n", job.out);
      char at_m = *m; /* the part is parsed in place, NUL-terminated where it ends */
      *m = 0;
      int st = one_program(&job, part, (size_t)(m - part), line, (uint32_t)(part - line_start) + 1);
      *m = at_m;
      if (st > status)
        status = st;
      if (m == end)
        break;
      for (const char *c = part; c < m; c++)
        if (*c == '\n') {
          line++;
          line_start = c + 1;
        }
      part = m + 8;
    }
  }
  if (out_close(&out, status == 0) && status == 0)
    status = 1;
  if (rs.trace_file && rs.trace_file != stdout && fclose(rs.trace_file) != 0 && status == 0) {
    fprintf(stderr, "gpuinterp: error: cannot write to '%s': %s\n", trace_path, strerror(errno));
    status = 1;
  }
  if (trace_created && status == 2)
    unlink(trace_path); /* nothing ran: leave no empty trace behind */
  if (finish_output(stdout, "<stdout>") && status == 0)
    status = 1;
  if ((fflush(stderr) != 0 || ferror(stderr)) && status == 0)
    status = 1; /* nowhere left to say so */
  free(text);
  return status;
}
