/* A main() for the libFuzzer harnesses where there is no libFuzzer (the project's gcc
 * build trees): runs LLVMFuzzerTestOneInput once on every file named on the command
 * line, or on every file in a directory named there (in name order), with no
 * mutation. The ctest fuzz_seeds_* runs each harness over its seed corpus this way,
 * under the tree's sanitizers, so that `make test` proves the harnesses build and the
 * seeds pass. Prints "N passed, 0 failed" on stderr; a failing input ends the process
 * through the sanitizer or abort(). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    /* An exact-size copy, so that AddressSanitizer sees a read past the input's end. */
    unsigned char *input = malloc(len ? len : 1);
    if (!input) {
        free(buf);
        return -1;
    }
    memcpy(input, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(input, len);
    free(input);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file in dir; returns how many, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                abort();
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) != 0)
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int n = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? run_dir(argv[i])
                                                                : (run_file(argv[i]) ? -1 : 1);
        if (n < 0) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 1;
        }
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "no inputs\n");
        return 1;
    }
    /* On stderr: a harness may have sent stdout to /dev/null (fuzz_metadata). */
    fprintf(stderr, "%d passed, 0 failed\n", total);
    return 0;
}
