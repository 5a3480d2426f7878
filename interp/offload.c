/* offload.c - gpu.launch_func on a device that runs device code (the cuda and hip backends), not
 * the interpreter's kernels.
 *
 * On the sim, a launch runs a kernel the interpreter compiled for its own engine (kernel.c). A
 * GPU cannot run that: what it runs is a module image loaded through the backend (be_module_load)
 * and a kernel of it launched with its arguments packed as cuLaunchKernel takes them. So when the
 * backend does not run host kernels (be_runs_host_kernels), gpu.c compiles a gpu.launch_func
 * here instead:
 *   - a kernel of a gpu.binary: the object the binary's handler selects, as it is (PTX text, a
 *     cubin, a fatbinary, an AMD code object; the driver says what it cannot load);
 *   - a kernel of a gpu.module: the module is printed alone in a container module and compiled
 *     by mlir-opt. For cuda with `-gpu-lower-to-nvvm-pipeline=cubin-format=isa`
 *     (convert-gpu-to-nvvm, nvvm-attach-target, gpu-module-to-binary format=isa), whose
 *     gpu.binary holds PTX that the driver JIT-compiles for the device; for hip on the ROCDL path
 *     (rocdl-attach-target and convert-gpu-to-rocdl for the device's chip, gpu-module-to-binary
 *     format=bin), whose gpu.binary holds an AMD code object, linked by an ld.lld and the ROCm
 *     device libraries found apart and laid out as the toolkit mlir-opt expects ("the ROCm
 *     toolchain" below). mlir-opt is InterpOptions.mlir_opt, else $GPUINTERP_MLIR_OPT, else
 *     /usr/lib/llvm-22/bin/mlir-opt, else mlir-opt on PATH; none, like any other missing tool, is
 *     an error at the launch saying how to get one.
 *   - a gpu.launch body: before anything is compiled (interp_offload_outline), each gpu.launch
 *     of the host code is outlined by lower/outline.c into a gpu.func kernel of a gpu.module of
 *     its own and a gpu.launch_func at its location, which is then compiled as above. The
 *     kernel's arguments are the host values the body uses, in the order of their first use in
 *     it as upstream's gpu-kernel-outlining finds them (a post-order walk: an op's nested
 *     regions before its own operands), so the launch packs them in that order; the workgroup
 *     and private attributions become the kernel's, and the dependencies, token, sizes and
 *     dynamic shared memory size stay the launch's. What is said about such a launch is said at its gpu.launch, in its words.
 *     A launch with cluster sizes is not outlined, and is refused at its op by name (the drivers'
 *     cuLaunchKernel and hipModuleLaunchKernel take no clusters).
 * Each image is made once per run (per gpu.binary or gpu.module op, however many launches name
 * it), loaded at its first launch and unloaded when the interpreter is destroyed, after the
 * device finished its work.
 *
 * Arguments are packed as upstream's gpu-to-llvm packs them for mgpuLaunchKernel, so a kernel
 * compiled by mlir-opt takes them as its PTX declares: a ranked memref is its descriptor's
 * fields, one 8-byte parameter each (allocated pointer, aligned pointer, offset, sizes[rank],
 * strides[rank]); a scalar is its own bytes (i1 and i8 one, i16 and f16 two, i32 and f32 four,
 * i64, index, f64 and !llvm.ptr eight). Where the image is PTX the ptx/ parser reads its .entry,
 * where it is an AMD code object backends/hsaco.c reads its kernel metadata (the explicit
 * arguments, each with its size), and a launch whose parameters do not match it in number or
 * size is an error at the launch, never a kernel reading past its arguments.
 *
 * Tokens, streams and failures are as for the interpreter's own kernels: an async launch is a
 * token op (be_token_launch), a launch with a stream operand runs on that stream after its
 * dependencies, and a launch that could not be made (no image, no function, a driver error) is a
 * failed launch (be_launch_failed): the program ends at its next synchronization. */
#include "interp/internal.h"
#include "lower/lower.h"
#include "ptx/ptx.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The chip mlir-opt compiles a gpu.module for: PTX for sm_70 (ISA 6.0) JIT-compiles on every
 * later device. */
#define OFFLOAD_CHIP "sm_70"

/* A module image of this run. */
typedef struct Image {
  const Op *key;        /* the gpu.binary or gpu.module */
  unsigned char *data;  /* NUL after len bytes */
  size_t len;
  PtxModule *ptx;       /* the image parsed, when it is PTX our parser reads; NULL otherwise */
  BeHsaco *hsaco;       /* what it says of its kernels, when it is an AMD code object; NULL otherwise */
  BeModule mod;
  bool tried;           /* the load was attempted (mod NULL: it failed, and was reported) */
} Image;

/* A gpu.launch outlined into launch_func (the launch erased, kept in the arena for its name and
 * location). */
typedef struct Outlined {
  const Op *launch_func;
  Op *launch;
} Outlined;

typedef struct OffloadState {
  Image *images;
  size_t n, cap;
  Outlined *outlined;
  size_t nout, capout;
  char chip[64];        /* hip: the chip gpu.modules are compiled for, once found */
} OffloadState;

/* One parameter of the launch: from word `word` of operand `arg` (`type`: the scalar's type, or
 * NULL for a descriptor field), `bytes` long. */
typedef struct Param {
  uint32_t word;
  uint8_t bytes;
  const Type *type;
} Param;

struct Offload {
  Image *img;           /* in the run's OffloadState (index stable: images are never removed) */
  size_t img_index;
  const char *name;     /* the kernel's name (NUL-terminated) */
  Param *params;
  uint32_t nparams, nwords;
  BeFunction fn;        /* looked up at the first launch */
  bool failed;          /* the image or the function could not be had: launches are skipped */
};

static OffloadState *state(Interp *in) {
  if (!in->offload) {
    in->offload = calloc(1, sizeof *in->offload);
    if (!in->offload)
      abort();
  }
  return in->offload;
}

static Image *image_find(Interp *in, const Op *key, size_t *index) {
  OffloadState *st = state(in);
  for (size_t i = 0; i < st->n; i++)
    if (st->images[i].key == key) {
      *index = i;
      return &st->images[i];
    }
  return NULL;
}

static Image *image_add(Interp *in, const Op *key, unsigned char *data, size_t len, size_t *index) {
  OffloadState *st = state(in);
  if (st->n == st->cap) {
    size_t cap = st->cap ? 2 * st->cap : 4;
    Image *p = realloc(st->images, cap * sizeof *p);
    if (!p)
      abort();
    st->images = p;
    st->cap = cap;
  }
  Image *img = &st->images[st->n];
  *img = (Image){.key = key, .data = data, .len = len};
  if (be_blob_kind(data, len) == BE_BLOB_PTX) {
    PtxError err;
    img->ptx = ptx_parse("kernel image", (const char *)data, len, &err); /* NULL: not checked */
  } else if (be_blob_kind(data, len) == BE_BLOB_HSACO) {
    char err[256];
    img->hsaco = be_hsaco_read(data, len, err, sizeof err); /* NULL: not checked (HIP will say) */
  }
  *index = st->n++;
  return img;
}

void interp_offload_free(Interp *in) {
  OffloadState *st = in->offload;
  if (!st)
    return;
  bool loaded = false;
  for (size_t i = 0; i < st->n; i++)
    loaded |= st->images[i].mod != NULL;
  if (loaded && in->be) /* kernels may still run: the device finishes before their code goes */
    be_device_sync(in->be, "exit");
  for (size_t i = 0; i < st->n; i++) {
    Image *img = &st->images[i];
    if (img->mod && in->be)
      be_module_unload(in->be, img->mod, "exit");
    if (img->ptx)
      ptx_module_destroy(img->ptx);
    be_hsaco_free(img->hsaco);
    free(img->data);
  }
  free(st->images);
  free(st->outlined);
  free(st);
  in->offload = NULL;
}

/* ---- gpu.launch bodies ----------------------------------------------------------------------- */

static bool is_hip(const Interp *in) { return strcmp(be_name(in->be), "hip") == 0; }

/* Whether offload.c compiles gpu.modules for the backend (with mlir-opt: to PTX for cuda, to an
 * AMD code object for hip). */
static bool compiles_modules(const Interp *in) { return strcmp(be_name(in->be), "cuda") == 0 || is_hip(in); }

static void launches_in(Op *op, Op ***v, size_t *n, size_t *cap) {
  for (uint32_t r = 0; r < op->nregions; r++)
    for (Block *b = op->regions[r].first; b; b = b->next)
      for (Op *o = b->first; o; o = o->next) {
        if (ir_str_eq(o->name, "gpu.module") || ir_str_eq(o->name, "gpu.binary"))
          continue;
        if (!ir_str_eq(o->name, "gpu.launch")) {
          launches_in(o, v, n, cap);
          continue;
        }
        if (*n == *cap) {
          *cap = *cap ? 2 * *cap : 8;
          Op **p = realloc(*v, *cap * sizeof *p);
          if (!p)
            abort();
          *v = p;
        }
        (*v)[(*n)++] = o;
      }
}

static bool has_clusters(const Op *launch) {
  Attr *seg = ir_op_attr(launch, "operandSegmentSizes");
  return seg && seg->kind == ATTR_DENSE_ARRAY && seg->u.darr.n == 11 && seg->u.darr.ivals[7];
}

bool interp_offload_outline(Interp *in) {
  if (!compiles_modules(in))
    return true; /* c_gpu_launch refuses each launch by name */
  Op **v = NULL;
  size_t n = 0, cap = 0;
  launches_in(in->module, &v, &n, &cap);
  OffloadState *st = state(in);
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    if (has_clusters(v[i]))
      continue; /* refused where it is compiled */
    Op *lf = lower_outline_launch(in->ctx, in->module, v[i]);
    if (!lf) {
      in->errors++;
      ok = false;
      continue;
    }
    if (st->nout == st->capout) {
      st->capout = st->capout ? 2 * st->capout : 8;
      Outlined *p = realloc(st->outlined, st->capout * sizeof *p);
      if (!p)
        abort();
      st->outlined = p;
    }
    st->outlined[st->nout++] = (Outlined){lf, v[i]};
  }
  free(v);
  return ok;
}

Op *interp_offload_launch_of(Interp *in, const Op *launch_func) {
  OffloadState *st = in->offload;
  for (size_t i = 0; st && i < st->nout; i++)
    if (st->outlined[i].launch_func == launch_func)
      return st->outlined[i].launch;
  return NULL;
}

bool interp_offload_refuse_launch(Comp *c, Op *launch) {
  Interp *in = c->in;
  if (has_clusters(launch) && compiles_modules(in))
    ir_op_error(in->ctx, launch, "with cluster sizes cannot run on the %s backend: its launches (%s) "
                "take no thread block clusters", be_name(in->be), is_hip(in) ? "hipModuleLaunchKernel" : "cuLaunchKernel");
  else
    ir_op_error(in->ctx, launch, "compiling a gpu.launch body for the %s backend is not supported: give it a "
                "gpu.binary it can load (outline the body with -gpu-kernel-outlining and compile its gpu.module)",
                be_name(in->be));
  in->errors++;
  return false;
}

/* ---- compiling a gpu.module with mlir-opt ---------------------------------------------------- */

static bool executable(const char *path) {
  struct stat sb;
  return path && *path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

/* The first of the names (n of them) that is an executable in a folder of PATH, in buf; NULL when
 * none is. */
static const char *find_on_path(char *buf, size_t cap, const char *const *names, size_t n) {
  const char *path = getenv("PATH");
  for (size_t k = 0; path && k < n; k++)
    for (const char *p = path; *p;) {
      size_t len = strcspn(p, ":");
      if (len && snprintf(buf, cap, "%.*s/%s", (int)len, p, names[k]) < (int)cap && executable(buf))
        return buf;
      p += len + (p[len] == ':');
    }
  return NULL;
}

/* The mlir-opt to run (buf holds a path found on PATH), or NULL. */
static const char *find_mlir_opt(Interp *in, char *buf, size_t cap) {
  if (in->mlir_opt && *in->mlir_opt)
    return in->mlir_opt;
  const char *env = getenv("GPUINTERP_MLIR_OPT");
  if (env && *env)
    return env;
  if (executable("/usr/lib/llvm-22/bin/mlir-opt"))
    return "/usr/lib/llvm-22/bin/mlir-opt";
  static const char *const names[] = {"mlir-opt", "mlir-opt-22"};
  return find_on_path(buf, cap, names, sizeof names / sizeof *names);
}

static int temp_file(char *path, size_t cap, const char *suffix) {
  const char *dir = getenv("TMPDIR");
  snprintf(path, cap, "%s/gpuinterp-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
  return mkstemps(path, (int)strlen(suffix));
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    char *p = realloc(buf, 2 * cap + 1);
    if (!p) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = p;
    cap *= 2;
  }
  fclose(f);
  if (buf)
    buf[n] = '\0';
  *len = n;
  return buf;
}

/* Notes with mlir-opt's own first message, as it printed it (the file it names is gone). */
static void note_output(Interp *in, const char *text) {
  int lines = 0;
  for (const char *p = text; p && *p && lines < 6; lines++) {
    size_t n = strcspn(p, "\n");
    if (n)
      ir_diag(in->ctx, DIAG_NOTE, NULL, "mlir-opt said: %.*s", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

/* ---- the ROCm toolchain (hip) ------------------------------------------------------------------
 *
 * mlir-opt's ROCDL target (gpu-module-to-binary) links the code object with the ld.lld of its
 * `toolkit` (TOOLKIT/llvm/bin/ld.lld, as a ROCm installation lays it out) and, only for a module
 * that calls ROCm's device library functions (math ops become __ocml_* calls, gpu.printf __ockl_*
 * ones), links the bitcode of TOOLKIT/amdgcn/bitcode (ocml.bc, ockl.bc, ...), failing when it is
 * not there. So gpuinterp finds the two apart and lays them out for it in a temporary folder of
 * links: ld.lld is $GPUINTERP_LLD, else ROCm's ($ROCM_PATH, else /opt/rocm: llvm/bin/ld.lld), else
 * LLVM 22's (/usr/lib/llvm-22/bin/ld.lld, Debian's lld-22), else ld.lld-22 or ld.lld on PATH; the
 * device libraries are $GPUINTERP_ROCM_DEVICE_LIBS, else the amdgcn/bitcode folder of $ROCM_PATH,
 * /opt/rocm or /usr/lib/x86_64-linux-gnu (Debian's rocm-device-libs), the first holding ocml.bc. */

static bool lld_at(char *buf, size_t cap, const char *dir, const char *rel) {
  return dir && *dir && snprintf(buf, cap, "%s/%s", dir, rel) < (int)cap && executable(buf);
}

/* The ld.lld to link with (in buf), or NULL; *named: the GPUINTERP_LLD that is no executable. */
static const char *find_lld(char *buf, size_t cap, const char **named) {
  *named = NULL;
  const char *env = getenv("GPUINTERP_LLD");
  if (env && *env) {
    if (executable(env))
      return env;
    *named = env;
    return NULL;
  }
  if (lld_at(buf, cap, getenv("ROCM_PATH"), "llvm/bin/ld.lld") || lld_at(buf, cap, "/opt/rocm", "llvm/bin/ld.lld") ||
      lld_at(buf, cap, "/usr/lib/llvm-22/bin", "ld.lld"))
    return buf;
  static const char *const names[] = {"ld.lld-22", "ld.lld"};
  return find_on_path(buf, cap, names, sizeof names / sizeof *names);
}

static bool libs_at(char *buf, size_t cap, const char *dir, const char *rel) {
  char probe[4200];
  struct stat sb;
  return dir && *dir && snprintf(buf, cap, "%s%s", dir, rel) < (int)cap &&
         snprintf(probe, sizeof probe, "%s/ocml.bc", buf) < (int)sizeof probe && stat(probe, &sb) == 0 &&
         S_ISREG(sb.st_mode);
}

/* The folder of ROCm's device library bitcode (in buf), or NULL. */
static const char *find_device_libs(char *buf, size_t cap) {
  const char *env = getenv("GPUINTERP_ROCM_DEVICE_LIBS");
  if (env && *env)
    return libs_at(buf, cap, env, "") ? buf : NULL;
  if (libs_at(buf, cap, getenv("ROCM_PATH"), "/amdgcn/bitcode") || libs_at(buf, cap, "/opt/rocm", "/amdgcn/bitcode") ||
      libs_at(buf, cap, "/usr/lib/x86_64-linux-gnu", "/amdgcn/bitcode"))
    return buf;
  return NULL;
}

/* The chip to compile for: $GPUINTERP_HIP_CHIP, else the device's gcnArchName without its feature
 * suffix ("gfx90a" of "gfx90a:sramecc+:xnack-"); NULL after an error at site. */
static const char *hip_chip(Comp *c, Op *site, const char *what) {
  Interp *in = c->in;
  OffloadState *st = state(in);
  if (st->chip[0])
    return st->chip;
  char arch[256] = "";
  const char *env = getenv("GPUINTERP_HIP_CHIP"), *from = "GPUINTERP_HIP_CHIP";
  if (env && *env) {
    snprintf(arch, sizeof arch, "%s", env);
  } else {
    from = "hipGetDeviceProperties' gcnArchName";
    if (be_device_arch(in->be, arch, sizeof arch, interp_loc(c, site)) != BE_OK) {
      ir_op_error(in->ctx, site, "cannot tell which AMD GPU to compile %s for: the HIP runtime did not say "
                  "(name the chip with GPUINTERP_HIP_CHIP, e.g. gfx90a)", what);
      in->errors++;
      return NULL;
    }
  }
  size_t n = strcspn(arch, ":");
  bool ok = n > 3 && n < sizeof st->chip && strncmp(arch, "gfx", 3) == 0;
  for (size_t i = 0; ok && i < n; i++)
    ok = (arch[i] >= 'a' && arch[i] <= 'z') || (arch[i] >= '0' && arch[i] <= '9');
  if (!ok) {
    ir_op_error(in->ctx, site, "cannot compile %s for the AMD GPU '%s' (from %s): that is no gfx chip name such as "
                "gfx90a", what, arch, from);
    in->errors++;
    return NULL;
  }
  memcpy(st->chip, arch, n);
  st->chip[n] = '\0';
  return st->chip;
}

/* A temporary folder laid out as a ROCm toolkit for mlir-opt: llvm/bin/ld.lld and, when there are
 * device libraries, amdgcn/bitcode, both links. false (after an error at site) when it cannot be
 * made; toolkit_remove takes it away. */
static bool toolkit_make(Interp *in, Op *site, char *dir, size_t cap, const char *lld, const char *libs) {
  const char *tmp = getenv("TMPDIR");
  char p[4400];
  snprintf(dir, cap, "%s/gpuinterp-rocm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  bool ok = mkdtemp(dir) != NULL;
  if (ok) {
    snprintf(p, sizeof p, "%s/llvm", dir);
    ok = mkdir(p, 0700) == 0;
    snprintf(p, sizeof p, "%s/llvm/bin", dir);
    ok = ok && mkdir(p, 0700) == 0;
    snprintf(p, sizeof p, "%s/llvm/bin/ld.lld", dir);
    ok = ok && symlink(lld, p) == 0;
    if (ok && libs) {
      snprintf(p, sizeof p, "%s/amdgcn", dir);
      ok = mkdir(p, 0700) == 0;
      snprintf(p, sizeof p, "%s/amdgcn/bitcode", dir);
      ok = ok && symlink(libs, p) == 0;
    }
  }
  if (!ok) {
    ir_op_error(in->ctx, site, "cannot make a temporary folder of links to ld.lld for mlir-opt: %s", strerror(errno));
    in->errors++;
  }
  return ok;
}

static void toolkit_remove(const char *dir) {
  static const char *const parts[] = {"/amdgcn/bitcode", "/amdgcn", "/llvm/bin/ld.lld", "/llvm/bin", "/llvm", ""};
  char p[4400];
  for (size_t i = 0; dir[0] && i < sizeof parts / sizeof *parts; i++) {
    snprintf(p, sizeof p, "%s%s", dir, parts[i]);
    if (unlink(p) != 0)
      rmdir(p);
  }
}

/* ---- compiling a gpu.module with mlir-opt ---------------------------------------------------- */

/* What a hip compile needs besides mlir-opt. */
typedef struct Rocm {
  const char *chip;
  char lld[4096], libs[4096];
  const char *libs_at; /* libs, or NULL when none were found */
  char toolkit[4200];
  char pipeline[9000];
} Rocm;

/* The toolchain of a hip compile, found (or an error at site naming what is missing). */
static bool rocm_find(Comp *c, Op *site, const char *what, Rocm *r) {
  Interp *in = c->in;
  const char *named, *lld = find_lld(r->lld, sizeof r->lld, &named);
  if (!lld) {
    if (named)
      ir_op_error(in->ctx, site, "compiling %s for the hip backend needs ld.lld, LLVM's linker, to link the AMD code "
                  "object: GPUINTERP_LLD names '%s', which is no executable file", what, named);
    else
      ir_op_error(in->ctx, site, "compiling %s for the hip backend needs ld.lld, LLVM's linker, to link the AMD code "
                  "object, which is neither in $ROCM_PATH/llvm/bin, /opt/rocm/llvm/bin, /usr/lib/llvm-22/bin nor on "
                  "PATH: install Debian's lld-22 (./x installs it where apt offers it) or ROCm, or name it with "
                  "GPUINTERP_LLD", what);
    in->errors++;
    return false;
  }
  if (lld != r->lld)
    snprintf(r->lld, sizeof r->lld, "%s", lld);
  r->libs_at = find_device_libs(r->libs, sizeof r->libs);
  if (!(r->chip = hip_chip(c, site, what)))
    return false;
  return true;
}

/* mlir-opt's output about a hip compile it failed, as a located error saying what is missing. */
static void rocm_failed(Interp *in, Op *site, const char *tool, const char *what, const Rocm *r, const char *errs,
                        const char *how) {
  if (errs && strstr(errs, "bitcode")) {
    if (r->libs_at)
      ir_op_error(in->ctx, site, "%s calls ROCm device library functions (math ops and gpu.printf become "
                  "__ocml_* and __ockl_* calls), and the device libraries at '%s' lack one it needs for %s", what,
                  r->libs_at, r->chip);
    else
      ir_op_error(in->ctx, site, "%s calls ROCm device library functions (math ops and gpu.printf become "
                  "__ocml_* and __ockl_* calls), and no ROCm device libraries (ocml.bc in an amdgcn/bitcode folder of "
                  "$ROCM_PATH, /opt/rocm or /usr/lib/x86_64-linux-gnu) were found: install Debian's rocm-device-libs "
                  "(./x installs it where apt offers it) or ROCm, or name the folder with GPUINTERP_ROCM_DEVICE_LIBS",
                  what);
  } else if (errs && strstr(errs, "lld invocation failed")) {
    ir_op_error(in->ctx, site, "ld.lld ('%s') could not link the AMD code object of %s (an ld.lld older than LLVM 22 "
                "may not know the code object version mlir-opt 22 makes: install lld-22, or name another with "
                "GPUINTERP_LLD)", r->lld, what);
  } else {
    ir_op_error(in->ctx, site, "mlir-opt ('%s') could not compile %s to an AMD code object for %s (%s)", tool, what,
                r->chip, how);
  }
}

/* The image of gpu.module mod, compiled by mlir-opt (malloc'd, *len bytes), or NULL after an error
 * at site: PTX for the cuda backend, an AMD code object for the hip backend. body: mod is a
 * gpu.launch body outlined (site is the gpu.launch), and is so named. */
static unsigned char *compile_module(Comp *c, Op *site, Op *mod, bool body, size_t *len) {
  Interp *in = c->in;
  bool hip = is_hip(in);
  Attr *name = ir_op_attr(mod, "sym_name");
  int nl = name && name->kind == ATTR_STRING ? (int)name->u.str.len : 1;
  const char *ns = name && name->kind == ATTR_STRING ? name->u.str.s : "?";
  char what[300];
  snprintf(what, sizeof what, body ? "the gpu.launch body (outlined as gpu.module @%.*s)" : "gpu.module @%.*s", nl,
           ns);
  char found[4096];
  const char *tool = find_mlir_opt(in, found, sizeof found);
  if (!tool) {
    ir_op_error(in->ctx, site,
                "compiling %s for the %s backend needs mlir-opt, which is neither in /usr/lib/llvm-22/bin nor on "
                "PATH: name it with --mlir-opt=PATH or GPUINTERP_MLIR_OPT, or compile %s to a gpu.binary first "
                "(%s%s)",
                what, be_name(in->be), body ? "the body" : "the module", body ? "-gpu-kernel-outlining, " : "",
                hip ? "convert-gpu-to-rocdl, rocdl-attach-target, gpu-module-to-binary" :
                      "-gpu-lower-to-nvvm-pipeline=\"cubin-format=isa\"");
    in->errors++;
    return NULL;
  }
  Rocm *r = NULL;
  if (hip) {
    if (!(r = calloc(1, sizeof *r)))
      abort();
    if (!rocm_find(c, site, what, r)) {
      free(r);
      return NULL;
    }
    if (!toolkit_make(in, site, r->toolkit, sizeof r->toolkit, r->lld, r->libs_at)) {
      toolkit_remove(r->toolkit); /* what was made of it */
      free(r);
      return NULL;
    }
    snprintf(r->pipeline, sizeof r->pipeline,
             "--pass-pipeline=builtin.module(rocdl-attach-target{chip=%s},gpu.module(convert-scf-to-cf,"
             "convert-gpu-to-rocdl{chipset=%s index-bitwidth=64 runtime=HIP},reconcile-unrealized-casts),"
             "gpu-module-to-binary{format=bin toolkit=%s})",
             r->chip, r->chip, r->toolkit);
  }
  char pin[512], pout[512], perr[512];
  int fin = temp_file(pin, sizeof pin, ".mlir"), fout = temp_file(pout, sizeof pout, ".mlir"),
      ferr = temp_file(perr, sizeof perr, ".txt");
  unsigned char *data = NULL;
  char *text = NULL, *errs = NULL;
  const char *image = hip ? "an AMD code object" : "PTX";
  FILE *f = fin >= 0 ? fdopen(fin, "w") : NULL;
  if (!f || fout < 0 || ferr < 0) {
    ir_op_error(in->ctx, site, "cannot make a temporary file to compile %s: %s", what, strerror(errno));
    in->errors++;
    if (fin >= 0 && !f)
      close(fin);
    goto done;
  }
  fputs("module attributes {gpu.container_module} {\n", f);
  ir_print(in->ctx, f, mod, NULL);
  fputs("}\n", f);
  if (fclose(f) != 0) {
    ir_op_error(in->ctx, site, "cannot write %s for mlir-opt: %s", what, strerror(errno));
    in->errors++;
    goto done;
  }
  char *argv[] = {(char *)tool, pin,
                  hip ? r->pipeline : "-gpu-lower-to-nvvm-pipeline=cubin-format=isa cubin-chip=" OFFLOAD_CHIP, "-o",
                  pout, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, ferr, 1);
  posix_spawn_file_actions_adddup2(&fa, ferr, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ), status = 0;
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    ir_op_error(in->ctx, site, "cannot run mlir-opt ('%s') to compile %s: %s", tool, what, strerror(rc));
    in->errors++;
    goto done;
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  size_t elen = 0, tlen = 0;
  errs = read_all(perr, &elen);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char how[64];
    snprintf(how, sizeof how, "%s %d", WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    if (hip)
      rocm_failed(in, site, tool, what, r, errs, how);
    else
      ir_op_error(in->ctx, site, "mlir-opt ('%s') could not compile %s to PTX (%s)", tool, what, how);
    note_output(in, errs);
    in->errors++;
    goto done;
  }
  text = read_all(pout, &tlen);
  Op *top = text ? ir_parse(in->ctx, "mlir-opt output", text, tlen) : NULL;
  Op *bin = top && name ? ir_symbol_lookup(top, name->u.str) : NULL;
  if (!bin || !ir_str_eq(bin->name, "gpu.binary") || !(data = interp_binary_object(bin, len)) ||
      be_blob_kind(data, *len) != (hip ? BE_BLOB_HSACO : BE_BLOB_PTX)) {
    free(data);
    data = NULL;
    ir_op_error(in->ctx, site, "mlir-opt ('%s') made no gpu.binary @%.*s of %s from %s", tool, nl, ns, image, what);
    in->errors++;
    goto done;
  }
  if (hip) { /* a code object that calls what nothing defines would fail when it loads, if not worse */
    char why[256];
    BeHsaco *h = be_hsaco_read(data, *len, why, sizeof why);
    if (!h || h->nundefined) {
      if (h)
        ir_op_error(in->ctx, site, "the AMD code object mlir-opt made of %s leaves '%s'%s undefined, which no HIP "
                    "runtime can resolve", what, h->undefined[0], h->nundefined > 1 ? " and others" : "");
      else
        ir_op_error(in->ctx, site, "mlir-opt ('%s') made of %s what is %s", tool, what, why);
      in->errors++;
      free(data);
      data = NULL;
    }
    be_hsaco_free(h);
  }
done:
  free(text);
  free(errs);
  if (fout >= 0)
    close(fout);
  if (ferr >= 0)
    close(ferr);
  unlink(pin);
  unlink(pout);
  unlink(perr);
  if (r)
    toolkit_remove(r->toolkit);
  free(r);
  return data;
}

/* ---- compiling a launch ---------------------------------------------------------------------- */

/* Bytes of a scalar kernel argument of type t, 0 when it cannot be one. */
static uint8_t scalar_bytes(const Type *t) {
  if (t->kind == TY_LLVM_PTR)
    return 8;
  if (t->kind != TY_INT && t->kind != TY_INDEX && t->kind != TY_FLOAT)
    return 0;
  uint32_t b = interp_elem_bytes(t);
  return b == 1 || b == 2 || b == 4 || b == 8 ? (uint8_t)b : 0;
}

static uint32_t ptx_param_bytes(const PtxVar *v) {
  uint64_t n = (ptx_type_bits((PtxType)v->type) + 7) / 8 * (v->vec ? v->vec : 1);
  for (unsigned d = 0; d < v->ndims; d++)
    n *= v->dims[d];
  return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* The launch's parameters against the kernel's entry in an AMD code object's metadata: a kernel
 * descriptor `name.kd`, and its explicit arguments (those not hidden_*, which HIP fills) the
 * same number and each the size the launch passes. */
static bool check_code_object(Comp *c, Op *site, const Offload *o, const char *sym) {
  Interp *in = c->in;
  const BeHsacoKernel *k = be_hsaco_kernel(o->img->hsaco, o->name);
  if (!k || !be_hsaco_has_kd(o->img->hsaco, o->name)) {
    ir_op_error(in->ctx, site, "%s: the AMD code object has no kernel %s (%s)", sym, o->name,
                k ? "no kernel descriptor of that name" : "not in its amdhsa.kernels metadata");
    in->errors++;
    return false;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < k->nargs; i++)
    n += !k->args[i].hidden;
  if (n != o->nparams) {
    ir_op_error(in->ctx, site,
                "%s: the launch passes %u parameters (each memref as its descriptor's 3 + 2 x rank fields) to "
                "a kernel whose code object takes %u",
                sym, o->nparams, n);
    in->errors++;
    return false;
  }
  for (uint32_t i = 0, p = 0; i < k->nargs; i++) {
    if (k->args[i].hidden)
      continue;
    if (k->args[i].size != o->params[p].bytes) {
      ir_op_error(in->ctx, site, "%s: parameter %u is %u bytes, but the kernel's code object reads %u (at offset "
                  "%u of its kernel arguments)", sym, p, o->params[p].bytes, k->args[i].size, k->args[i].offset);
      in->errors++;
      return false;
    }
    p++;
  }
  return true;
}

/* The launch's parameters against the .entry of the PTX image: the same number, each as large as
 * the kernel reads it; or against an AMD code object's metadata. */
static bool check_entry(Comp *c, Op *site, const Offload *o, const char *sym) {
  if (o->img->hsaco)
    return check_code_object(c, site, o, sym);
  if (!o->img->ptx)
    return true;
  const PtxFunc *f = ptx_module_func(o->img->ptx, o->name);
  if (!f || !f->entry) {
    ir_op_error(c->in->ctx, site, "%s: the kernel's PTX has no .entry %s", sym, o->name);
    c->in->errors++;
    return false;
  }
  if (f->sig.nparams != o->nparams) {
    ir_op_error(c->in->ctx, site,
                "%s: the launch passes %u parameters (each memref as its descriptor's 3 + 2 x rank fields) to "
                "a kernel whose PTX takes %u",
                sym, o->nparams, f->sig.nparams);
    c->in->errors++;
    return false;
  }
  for (uint32_t i = 0; i < o->nparams; i++) {
    uint32_t want = ptx_param_bytes(&f->sig.params[i]);
    if (want != o->params[i].bytes) {
      ir_op_error(c->in->ctx, site, "%s: parameter %u is %u bytes, but the kernel's PTX reads %u (%s)", sym, i,
                  o->params[i].bytes, want, f->sig.params[i].name);
      c->in->errors++;
      return false;
    }
  }
  return true;
}

Offload *interp_offload_of(Comp *c, Op *op, Op *mod, Attr *kernel, uint32_t first_arg, uint32_t nargs) {
  Interp *in = c->in;
  char sym[300];
  snprintf(sym, sizeof sym, "@%.*s::@%.*s", (int)kernel->u.sym.path[0].len, kernel->u.sym.path[0].s,
           (int)kernel->u.sym.path[1].len, kernel->u.sym.path[1].s);
  bool binary = ir_str_eq(mod->name, "gpu.binary");
  Op *launch = interp_offload_launch_of(in, op), *site = launch ? launch : op;
  if (!binary) {
    Op *fn = ir_symbol_lookup(mod, kernel->u.sym.path[1]);
    if (!fn || !(ir_str_eq(fn->name, "gpu.func") || ir_str_eq(fn->name, "llvm.func"))) {
      interp_unsupported(c, op, "a kernel that is not a gpu.func or llvm.func in a gpu.module of this module");
      return NULL;
    }
    if (!compiles_modules(in)) {
      ir_op_error(in->ctx, op, "%s: compiling a gpu.module for the %s backend is not supported: give it a "
                  "gpu.binary it can load", sym, be_name(in->be));
      in->errors++;
      return NULL;
    }
  }
  /* the parameters first: a launch that cannot be packed needs no image */
  Offload *o = ir_alloc(in->ctx, sizeof *o);
  o->name = ir_intern(in->ctx, kernel->u.sym.path[1].s, kernel->u.sym.path[1].len).s;
  uint32_t n = 0;
  for (uint32_t i = 0; i < nargs; i++) {
    const Type *t = op->operands[first_arg + i]->type;
    n += t->kind == TY_MEMREF ? 3 + 2 * t->u.sh.rank : 1;
  }
  o->params = ir_alloc(in->ctx, (n + 1) * sizeof *o->params);
  uint32_t w = 0;
  for (uint32_t i = 0; i < nargs; i++) {
    const Type *t = op->operands[first_arg + i]->type;
    if (t->kind == TY_MEMREF) {
      for (uint32_t k = 0; k < 3 + 2 * t->u.sh.rank; k++)
        o->params[o->nparams++] = (Param){.word = w + k, .bytes = 8};
    } else {
      uint8_t b = scalar_bytes(t);
      if ((!b || interp_words(t) != 1) && launch) {
        const Value *v = op->operands[first_arg + i];
        ir_op_error(in->ctx, launch,
                    "the body uses a value of type %s defined outside it, which cannot be passed to a kernel on the "
                    "%s backend (only ranked memrefs, integers, floats, index and !llvm.ptr can)",
                    ir_type_str(in->ctx, t), be_name(in->be));
        ir_diag(in->ctx, DIAG_NOTE, v->def ? ir_op_loc(v->def) : v->loc, "the value is defined here");
        in->errors++;
        return NULL;
      }
      if (!b || interp_words(t) != 1) {
        ir_op_error(in->ctx, op, "%s: argument %u of type %s cannot be passed to a kernel on the %s backend", sym, i,
                    ir_type_str(in->ctx, t), be_name(in->be));
        in->errors++;
        return NULL;
      }
      o->params[o->nparams++] = (Param){.word = w, .bytes = b, .type = t};
    }
    w += interp_words(t);
  }
  o->nwords = w;
  size_t index;
  Image *img = image_find(in, mod, &index);
  if (!img) {
    size_t len = 0;
    unsigned char *data = binary ? interp_binary_object(mod, &len) : compile_module(c, site, mod, launch, &len);
    if (!data) {
      if (binary) {
        ir_op_error(in->ctx, op, "%s: the gpu.binary has no object its handler selects", sym);
        in->errors++;
      }
      return NULL;
    }
    img = image_add(in, mod, data, len, &index);
  }
  o->img_index = index;
  o->img = img;
  if (!check_entry(c, site, o, sym))
    return NULL;
  o->img = NULL; /* the table may move: launches find it by index */
  return o;
}

uint32_t interp_offload_words(const Offload *o) { return o->nwords; }

/* ---- launching -------------------------------------------------------------------------------- */

/* The kernel function, loading its image at the first launch; NULL when it cannot be had (said
 * once, at the launch that found out). */
static BeFunction function_of(Interp *in, Offload *o, const char *loc) {
  if (o->fn || o->failed)
    return o->fn;
  Image *img = &in->offload->images[o->img_index];
  if (!img->tried) {
    img->tried = true;
    if (be_module_load(in->be, img->data, img->len, &img->mod, loc) != BE_OK && img->mod) {
      be_module_unload(in->be, img->mod, loc);
      img->mod = NULL;
    }
  }
  if (!img->mod || be_module_function(in->be, img->mod, o->name, &o->fn, loc) != BE_OK)
    o->fn = NULL;
  o->failed = !o->fn;
  return o->fn;
}

int interp_offload_launch(Frame *fr, const Ins *ins, Offload *o, const int64_t grid[3], const int64_t block[3],
                          int64_t smem, const Slot *inputs, const BeToken *deps, size_t ndeps, BeToken *tok,
                          const BeStream *stream, const char *loc) {
  Interp *in = fr->in;
  *tok = NULL;
  BeLaunch bl = {.smem = (uint32_t)smem};
  for (int d = 0; d < 3; d++) {
    if (grid[d] < 1 || grid[d] > UINT32_MAX)
      return interp_error(fr, ins, "grid size %lld in dimension %c is not in [1, 2^32)", (long long)grid[d], "xyz"[d]);
    if (block[d] < 1 || block[d] > UINT32_MAX)
      return interp_error(fr, ins, "block size %lld in dimension %c is not in [1, 2^32)", (long long)block[d],
                          "xyz"[d]);
    bl.grid[d] = (uint32_t)grid[d];
    bl.block[d] = (uint32_t)block[d];
  }
  if (smem < 0 || smem > UINT32_MAX)
    return interp_error(fr, ins, "%lld bytes of dynamic shared memory", (long long)smem);
  uint64_t small[64];
  void *ptrs_small[64];
  uint64_t *vals = o->nparams <= 64 ? small : calloc(o->nparams, sizeof *vals);
  void **ptrs = o->nparams <= 64 ? ptrs_small : calloc(o->nparams, sizeof *ptrs);
  if (!vals || !ptrs) {
    if (vals != small)
      free(vals);
    return interp_error(fr, ins, "out of memory for a launch");
  }
  for (uint32_t i = 0; i < o->nparams; i++) {
    const Param *p = &o->params[i];
    vals[i] = 0;
    if (p->type)
      interp_store_elem(p->type, &vals[i], &inputs[p->word]);
    else
      vals[i] = inputs[p->word].u;
    ptrs[i] = &vals[i];
  }
  bl.params = ptrs;
  bl.n_params = o->nparams;
  BeFunction fn = function_of(in, o, loc);
  BeStatus st;
  if (stream) { /* on the stream after the tokens; the token stands for the stream's work */
    for (size_t i = 0; i < ndeps; i++)
      if (deps[i])
        be_stream_wait_token(in->be, *stream, deps[i], loc);
    st = fn ? be_launch(in->be, fn, &bl, *stream, loc) : BE_ERR_UNSUPPORTED;
    be_token_from_stream(in->be, *stream, tok, loc);
  } else if (fn) {
    st = be_token_launch(in->be, fn, &bl, deps, ndeps, tok, loc);
  } else {
    be_token_join(in->be, deps, ndeps, tok, loc);
    st = BE_ERR_UNSUPPORTED;
  }
  if (st != BE_OK) /* it did not run: what it should have written is not there */
    be_launch_failed(in->be, loc);
  if (vals != small)
    free(vals);
  if (ptrs != ptrs_small)
    free(ptrs);
  if (!*tok)
    return interp_error(fr, ins, "the device could not take the launch");
  return EX_NEXT;
}
