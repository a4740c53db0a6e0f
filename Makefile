# The two commands of the README. Each installs missing Debian packages, configures,
# builds and then runs. `make run` builds the tree users point their programs at
# (build/, no sanitizers: clinfo, Python and C++ programs load its ICD as they are);
# `make test` builds a second tree with AddressSanitizer and UBSan (build-test/) and
# runs every test there. `make bench` builds an optimised tree and prints benchmark
# tables. The client tests of `make test` (clinfo, C++, PyOpenCL) load build/'s ICD,
# as a user's programs do, so `make test` builds that ICD first.
BUILD       ?= build
TEST_BUILD  ?= build-test
BENCH_BUILD ?= build-release
JOBS        ?= 2

.PHONY: run test build deps bench clean tsan fuzz valgrind

deps:
	@tools/setup-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Debug -DCLHLS_SANITIZE=OFF
	cmake --build $(BUILD) -j $(JOBS)

run: build
	OCL_ICD_VENDORS=$(CURDIR)/$(BUILD)/clhls.icd CLHLS_CACHE_DIR=$(CURDIR)/$(BUILD)/cache \
	    CLHLS_VERBOSE=1 $(BUILD)/examples/vadd/vadd examples/vadd/vadd.cl

test: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Debug -DCLHLS_SANITIZE=OFF
	cmake --build $(BUILD) -j $(JOBS) --target clhls_icd
	cmake -S . -B $(TEST_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCLHLS_SANITIZE=ON \
	    -DCLHLS_USER_TREE=$(CURDIR)/$(BUILD)
	cmake --build $(TEST_BUILD) -j $(JOBS)
	cd $(TEST_BUILD) && ctest --output-on-failure -j $(JOBS)

bench: deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DCLHLS_SANITIZE=OFF
	cmake --build $(BENCH_BUILD) -j $(JOBS)
	cd $(BENCH_BUILD) && ./bench/clhls_bench_vadd
	cd $(BENCH_BUILD) && ./bench/clhls_bench_control
	cd $(BENCH_BUILD) && ./bench/clhls_bench_local
	cd $(BENCH_BUILD) && ./bench/clhls_bench_host
	cd $(BENCH_BUILD) && ./bench/clhls_bench_speed
	cd $(BENCH_BUILD) && ./bench/clhls_bench_synth
	cd $(BENCH_BUILD) && ./bench/clhls_bench_math
	cd $(BENCH_BUILD) && ./bench/clhls_bench_task
	cd $(BENCH_BUILD) && ./bench/clhls_bench_replicate
	cd $(BENCH_BUILD) && ./bench/clhls_bench_stream

# ThreadSanitizer: the runtime and its multi-threaded test (tests/runtime/test_threads.c)
# in build-tsan/ (CLHLS_TSAN=ON); any report fails it (suppressions: tests/runtime/tsan.supp).
tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLHLS_SANITIZE=OFF -DCLHLS_TSAN=ON
	cmake --build build-tsan -j $(JOBS) --target clhls_icd test_runtime_threads
	cd build-tsan && ctest --output-on-failure -R '^runtime_threads$$'

# valgrind: every example under memcheck against the ICD of the user tree (build/), at
# small sizes; any memcheck error or definitely lost block fails it (logs in
# build/valgrind/).
valgrind: build
	@tools/setup-deps.sh valgrind
	tools/valgrind-examples.sh $(BUILD)

# libFuzzer: the harnesses of the input parsers (tests/fuzz/libfuzzer/: program binaries,
# board files, build options, metadata.json) in build-fuzz/, built by clang-16 with
# coverage, ASan and UBSan, each run FUZZ_SECONDS (default 60) on a copy of its seed
# corpus; any crash, leak or sanitizer report fails it (inputs in build-fuzz/fuzz-artifacts/).
FUZZ_SECONDS ?= 60
fuzz:
	@tools/setup-deps.sh libclang-rt-16-dev
	cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang-16 \
	    -DCMAKE_CXX_COMPILER=clang++-16 -DCLHLS_SANITIZE=OFF -DCLHLS_FUZZERS=ON
	cmake --build build-fuzz -j $(JOBS) --target clhls_fuzzers
	tests/fuzz/libfuzzer/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(BENCH_BUILD)
