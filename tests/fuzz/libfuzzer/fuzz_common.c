/* The scratch directory of a harness process (fuzz_common.h): one directory made with
 * mkdtemp on /dev/shm (else $TMPDIR, else /tmp), removed with everything in it when
 * the process exits, so that the harnesses of parsers that take a path write each
 * input to a file without touching the disk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "fuzz_common.h"

static char scratch[4096];

static void remove_scratch(void)
{
    if (scratch[0])
        hls_remove_tree(scratch);
}

const char *fuzz_scratch_dir(void)
{
    if (scratch[0])
        return scratch;
    struct stat st;
    const char *tmp = getenv("TMPDIR");
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm"
                       : tmp && *tmp                                       ? tmp
                                                                           : "/tmp";
    snprintf(scratch, sizeof scratch, "%s/clhls-fuzz-XXXXXX", base);
    if (!mkdtemp(scratch)) {
        perror("clhls fuzz: mkdtemp");
        abort();
    }
    atexit(remove_scratch);
    return scratch;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", fuzz_scratch_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("clhls fuzz: writing the input");
        abort();
    }
    return path;
}
