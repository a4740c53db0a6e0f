# The two commands of the README. Each installs missing Debian packages, configures,
# builds and then runs. `make bench` builds an optimised tree and prints benchmark tables.
BUILD      ?= build
BENCH_BUILD ?= build-release
JOBS       ?= 2

.PHONY: run test build deps bench clean

deps:
	@tools/setup-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Debug -DCLHLS_SANITIZE=ON

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	OCL_ICD_VENDORS=$(CURDIR)/$(BUILD)/clhls.icd CLHLS_CACHE_DIR=$(CURDIR)/$(BUILD)/cache \
	    CLHLS_VERBOSE=1 $(BUILD)/examples/vadd/vadd examples/vadd/vadd.cl

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: deps
	cmake -S . -B $(BENCH_BUILD) -DCMAKE_BUILD_TYPE=Release -DCLHLS_SANITIZE=OFF
	cmake --build $(BENCH_BUILD) -j $(JOBS)
	cd $(BENCH_BUILD) && ./bench/clhls_bench_vadd
	cd $(BENCH_BUILD) && ./bench/clhls_bench_control

clean:
	rm -rf $(BUILD) $(BENCH_BUILD)
