/* devout.c — what kernels print on a GPU, brought to where the run's output goes (driver.h:
 * BeDevOut).
 *
 * A driver holds a kernel's printf output in a buffer on the device and writes it to the
 * process's stdout when the host synchronizes (CUDA: cuCtxSynchronize, cuStreamSynchronize,
 * cuEventSynchronize, a blocking copy, a module load or unload, the start of a launch, a
 * context's destruction), by fd 1 or by stdio's stdout. Two uses:
 *
 *   - A plain run prints to stdout itself. Nothing is redirected; stdout is flushed before every
 *     driver call (be_devout_before), so what the host printed is out before what the device
 *     prints during the call, and after it (be_devout_drain), so what a driver wrote through
 *     stdio is out before the host prints again. Both orders are then the device's own.
 *   - A run that captures its output (the differential checker's device run, BeOptions.device_out)
 *     points fd 1 at an unlinked temporary file for as long as the device is open. After each
 *     driver call what was appended to it is read (pread from the offset handed on so far, so the
 *     driver's writes are never disturbed) and handed to device_out with the call's location: the
 *     synchronization the device printed at. A temporary file, not a pipe: a driver writes its
 *     whole buffer during a call, and a pipe's capacity would block it there. be_devout_close
 *     drains what is left and restores fd 1, so nothing printed is lost when a run ends on an
 *     error (be_close is on every path that opened the device).
 *
 * One host thread makes driver calls (backend.h), so none of this takes a lock.
 */
#include "backends/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool be_devout_open(BeDevOut *o, const BeOptions *opt, char *err, size_t errlen)
{
    *o = (BeDevOut){.fd = -1, .saved = -1};
    if (!opt->device_out)
        return true;
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/gpuinterp-devout-XXXXXX", dir && *dir ? dir : "/tmp");
    fflush(stdout);
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot make a file for the device's output in '%s': %s", dir && *dir ? dir : "/tmp",
                 strerror(errno));
        return false;
    }
    unlink(path);
    int saved = dup(1);
    if (saved < 0 || dup2(fd, 1) < 0) {
        snprintf(err, errlen, "cannot point stdout at the device's output: %s", strerror(errno));
        if (saved >= 0)
            close(saved);
        close(fd);
        return false;
    }
    *o = (BeDevOut){.fn = opt->device_out, .user = opt->device_out_user, .fd = fd, .saved = saved};
    return true;
}

void be_devout_before(const BeDevOut *o)
{
    (void)o;
    fflush(stdout);
}

void be_devout_drain(BeDevOut *o, const char *loc)
{
    fflush(stdout); /* a driver that prints through stdio */
    if (o->fd < 0)
        return;
    char buf[8192];
    for (;;) {
        ssize_t n = pread(o->fd, buf, sizeof buf, o->done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        o->done += n;
        o->fn(o->user, loc, buf, (size_t)n);
    }
}

void be_devout_close(BeDevOut *o, const char *loc)
{
    if (o->fd < 0)
        return;
    be_devout_drain(o, loc);
    dup2(o->saved, 1);
    close(o->saved);
    close(o->fd);
    o->fd = o->saved = -1;
}
