/* The last run of each kernel, kept in the program's cache entry for `clhls report`
 * (last_run.c). */
#ifndef CLHLS_RT_LAST_RUN_H
#define CLHLS_RT_LAST_RUN_H

#include <stdint.h>

#include "device.h"

/* Records one NDRange of launch->name for <entry_dir>/last_run.json: its geometry,
 * the cycles simulated, whether it succeeded and its counters (names from the
 * launch, values in launch order). The file is written at the entry's first run,
 * then at most once a second, and at exit. Best effort: any failure leaves the file
 * as it was and the kernel's outcome untouched. entry_dir may be NULL (nothing
 * recorded). */
void rt_last_run_record(const char *entry_dir, const char *board, const rt_kernel_launch *launch,
                        const uint64_t *counter_values, uint64_t cycles, int ok);

/* Writes every recorded run not yet in its file (also run at exit). */
void rt_last_run_flush(void);

#endif
