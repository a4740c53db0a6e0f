/* The device timeline and the kernels' hardware counters written to files for the
 * user (trace.c): CLHLS_TRACE (a Chrome/Perfetto trace of every command) and
 * CLHLS_COUNTERS (every kernel run with its counters). */
#ifndef CLHLS_RT_TRACE_H
#define CLHLS_RT_TRACE_H

#include "rt.h"

/* Reads CLHLS_TRACE and CLHLS_COUNTERS once and, when either is set, registers the
 * files' writing at exit. Called when a device's worker starts (a host thread). */
void rt_trace_start(void);

/* Records a command that ran on d (or failed without running: engine RT_ENGINES) with
 * its final status, before that status is published: its event's times are set, a
 * kernel's counters too. lane: 0, or for a kernel that ran while others did, the lane
 * (1, 2, ...) that keeps it apart from the kernels it overlapped. Called by the
 * device's worker; does nothing unless a file was asked for. */
void rt_trace_command(cl_device_id d, const rt_command *c, rt_engine engine, unsigned lane,
                      cl_int status);

/* Writes the files asked for (also run at exit); later commands are not recorded. */
void rt_trace_flush(void);

#endif
