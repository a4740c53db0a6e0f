/* What the libFuzzer harnesses of tests/fuzz/libfuzzer share: the entry points
 * libFuzzer calls, and a scratch directory of the process (on /dev/shm when there is
 * one) for the parsers that read a file rather than bytes. The directory and
 * everything left in it are removed when the process exits. */
#ifndef CLHLS_FUZZ_COMMON_H
#define CLHLS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's scratch directory, created on first use; aborts when it cannot be. */
const char *fuzz_scratch_dir(void);

/* Writes size bytes to the file name in the scratch directory and returns its path
 * (static storage, valid until the next call); aborts when it cannot. */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

#endif
