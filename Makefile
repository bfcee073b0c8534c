# simallreduce: one hand-written Makefile for everything.
#   make          build bin/simallreduce and the SMPI runner (and the MPI runner when mpicc exists)
#   make run      install what is missing, build, simulate the main job
#   make check    install what is missing, build, run every test
#   make deps     install the Debian packages that are missing
#   make plots    run the experiments whose results are missing, draw plots/out/*.png
#   make calib    build bin/simcalib and its ping-pong programs (see the Calibration section)
#   make cuda     build bin/simcalib_cuda with nvcc, where nvcc is installed
#   make validate as root: measure on an emulated cluster, calibrate, simulate, compare
#   make bench    build, then measure simulation speed (not a test; see README "Performance")

CC       ?= cc
SMPICC   ?= smpicc
MPICC    ?= mpicc
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN)
PKGS     := simgrid libcjson gsl
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

# Debian packages: SimGrid (SMPI), GSL, cJSON, gnuplot, Check, pkg-config, and an MPI for
# real measured runs.
DEB_PKGS := libsimgrid-dev libgsl-dev libcjson-dev gnuplot-nox check pkg-config libopenmpi-dev openmpi-bin

MAIN_PLATFORM ?= tencent16.xml
MAIN_ALGO     ?= hitopk

B   ?= build
BIN ?= bin

SIM_SRC    := $(wildcard sim/*.c)
SIM_OBJ    := $(SIM_SRC:sim/%.c=$(B)/sim/%.o)
# ---- Cost models (models/, pure C over GSL): the driver calls them, so whatever links the
# driver's objects links them too. models/fit.c is calibration's and linked on its own.
MODEL_SRC  := $(filter-out models/fit.c,$(wildcard models/*.c))
MODEL_OBJ  := $(MODEL_SRC:models/%.c=$(B)/models/%.o)
SIM_OBJ    += $(MODEL_OBJ)
# ---- end of cost models
ALGO_SRC   := $(wildcard algos/*.c)
ALGO_SMPI  := $(ALGO_SRC:algos/%.c=$(B)/smpi/%.o)
ALGO_MPI   := $(ALGO_SRC:algos/%.c=$(B)/mpi/%.o)
# Pieces of algos/ that need no MPI, for unit tests built with plain cc.
ALGO_PURE  := $(B)/pure/ar_dtype.o $(B)/pure/ar_verify.o $(B)/pure/topk_select.o $(B)/pure/tree_shape.o $(B)/pure/sparse_ref.o
TEST_SRC   := $(wildcard tests/check_*.c)
TEST_BIN   := $(TEST_SRC:tests/%.c=$(B)/tests/%)
# Helpers every test links: running the real CLI and reading its JSON.
TEST_HELP  := $(B)/tests/cli_run.o
# Shell tests (scripts that need no build), run next to the Check binaries.
TEST_SH    := $(wildcard tests/test_*.sh)

HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
TARGETS    := $(BIN)/simallreduce $(BIN)/ar_runner $(if $(HAVE_MPICC),$(BIN)/ar_runner_mpi)

.PHONY: all deps run check test clean experiments plots
all: $(TARGETS)

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

run: deps
	$(MAKE) all
	$(BIN)/simallreduce --platform $(MAIN_PLATFORM) --algo $(MAIN_ALGO) --phases

check: deps
	$(MAKE) all $(TEST_BIN)
	@tests/run_all.sh $(TEST_BIN) $(TEST_SH)

test: check

$(BIN)/simallreduce: $(SIM_OBJ) $(B)/pure/ar_dtype.o $(B)/pure/tree_shape.o $(B)/pure/topk_select.o | $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BIN)/ar_runner: $(ALGO_SMPI) | $(BIN)
	$(SMPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

$(BIN)/ar_runner_mpi: $(ALGO_MPI) | $(BIN)
	$(MPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

$(B)/sim/%.o: sim/%.c | $(B)/sim
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -c -o $@ $<

$(B)/smpi/%.o: algos/%.c | $(B)/smpi
	$(SMPICC) $(CFLAGS) -DAR_SMPI -MMD -c -o $@ $<

$(B)/mpi/%.o: algos/%.c | $(B)/mpi
	$(MPICC) $(CFLAGS) -MMD -c -o $@ $<

$(B)/pure/%.o: algos/%.c | $(B)/pure
	$(CC) $(CFLAGS) -MMD -c -o $@ $<

# Each test links the driver's objects it needs (all but main) and the MPI-free algos pieces.
$(B)/tests/%: tests/%.c $(filter-out $(B)/sim/main.o,$(SIM_OBJ)) $(ALGO_PURE) $(TEST_HELP) | $(B)/tests
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(PKG_LIBS) -lm

$(B)/tests/%.o: tests/%.c | $(B)/tests
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -c -o $@ $<

$(BIN) $(B)/sim $(B)/smpi $(B)/mpi $(B)/pure $(B)/tests:
	mkdir -p $@

# ---- Sanitizers: the driver, models, calibration and every test built with AddressSanitizer
# and UndefinedBehaviorSanitizer into build/san and bin/san, then run (the tests drive the
# sanitized binaries through SIMALLREDUCE_BIN and SIMCALIB_BIN; SMPI runs its usual runner).
SAN_CC   := $(CC) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_ENV  := SIMALLREDUCE_PLATFORMS=platforms SIMALLREDUCE_BIN=bin/san/simallreduce SIMCALIB_BIN=bin/san/simcalib \
	    ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_TESTS := $(TEST_SRC:tests/%.c=build/san/tests/%)
.PHONY: sanitize
sanitize: deps
	$(MAKE) B=build/san BIN=bin/san CC="$(SAN_CC)" bin/san/simallreduce bin/san/ar_runner bin/san/simcalib \
	  bin/san/simcalib_pp_smpi $(if $(HAVE_MPICC),bin/san/simcalib_pp) $(SAN_TESTS)
	@$(SAN_ENV) tests/run_all.sh $(SAN_TESTS)

# ---- Experiments and plots: experiments/defs/*.exp, run in parallel, drawn by gnuplot ----
experiments: deps
	$(MAKE) all
	experiments/run.sh $(basename $(notdir $(wildcard experiments/defs/*.exp)))

plots: deps
	$(MAKE) all
	plots/plot.sh

clean:
	rm -rf $(B) $(BIN)

# ---- Calibration: simcalib (calib/), its MPI ping-pong, the CUDA kernels, models/fit ----
# simcalib links the calib/ objects, models/fit and the driver's MPI-free helpers (sizes,
# paths, platform loading, smpirun launch); the ping-pong program is built twice from one
# source: mpicc to measure, smpicc (CAL_SMPI) to simulate it on a generated platform.
NVCC       ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NVCCFLAGS  ?= -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CAL_PP_SRC := calib/pingpong.c calib/pingpong_opts.c calib/measured.c calib/measured_json.c calib/measured_runs.c \
	      calib/stats.c calib/textfile.c calib/cal_error.c
CAL_SRC    := $(filter-out calib/pingpong.c calib/pingpong_opts.c calib/main.c,$(wildcard calib/*.c))
CAL_OBJ    := $(sort $(CAL_SRC:calib/%.c=$(B)/calib/%.o))
MODEL_FIT  := $(B)/models/fit.o
CAL_PP_MPI := $(CAL_PP_SRC:calib/%.c=$(B)/calmpi/%.o) $(B)/calmpi/sizes.o
CAL_PP_SMPI := $(CAL_PP_SRC:calib/%.c=$(B)/calsmpi/%.o) $(B)/calsmpi/sizes.o
CAL_TARGETS := $(BIN)/simcalib $(BIN)/simcalib_pp_smpi $(if $(HAVE_MPICC),$(BIN)/simcalib_pp)

.PHONY: calib cuda
calib: $(CAL_TARGETS)
all: calib

$(BIN)/simcalib: $(B)/calib/main.o $(CAL_OBJ) $(MODEL_FIT) $(filter-out $(B)/sim/main.o,$(SIM_OBJ)) $(ALGO_PURE) | $(BIN)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BIN)/simcalib_pp: $(CAL_PP_MPI) | $(BIN)
	$(MPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

$(BIN)/simcalib_pp_smpi: $(CAL_PP_SMPI) | $(BIN)
	$(SMPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

$(B)/calib/%.o: calib/%.c | $(B)/calib
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -c -o $@ $<

$(B)/models/%.o: models/%.c | $(B)/models
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -c -o $@ $<

$(B)/calmpi/%.o: calib/%.c | $(B)/calmpi
	$(MPICC) $(CFLAGS) -MMD -c -o $@ $<

$(B)/calmpi/sizes.o: sim/sizes.c | $(B)/calmpi
	$(MPICC) $(CFLAGS) -MMD -c -o $@ $<

$(B)/calsmpi/%.o: calib/%.c | $(B)/calsmpi
	$(SMPICC) $(CFLAGS) -DCAL_SMPI -MMD -c -o $@ $<

$(B)/calsmpi/sizes.o: sim/sizes.c | $(B)/calsmpi
	$(SMPICC) $(CFLAGS) -DCAL_SMPI -MMD -c -o $@ $<

# Calibration tests also link calib/ and models/fit (the more specific pattern wins).
$(B)/tests/check_calib%: tests/check_calib%.c $(filter-out $(B)/sim/main.o,$(SIM_OBJ)) $(ALGO_PURE) $(TEST_HELP) \
		$(CAL_OBJ) $(MODEL_FIT) | $(B)/tests
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(PKG_LIBS) -lm

# CUDA kernels and the NCCL allreduce sweep: one binary, the measured-data schema.
CUDA_SRC := $(wildcard calib/cuda/*.cu)
# the C objects the CUDA binary shares: the measured-data writer and the statistics
CAL_CUDA_O := $(addprefix $(B)/calib/,measured.o measured_json.o measured_runs.o stats.o textfile.o cal_error.o)
# the CUDA MSTopK shares the host one's threshold search
CAL_CUDA_O += $(B)/pure/topk_select.o $(B)/pure/ar_dtype.o
ifneq ($(NVCC),)
cuda: $(BIN)/simcalib_cuda
else
cuda:
	@echo "make cuda: nvcc not found (install the CUDA toolkit or set NVCC=); skipping the CUDA kernels"
endif

$(BIN)/simcalib_cuda: $(CUDA_SRC) $(wildcard calib/cuda/*.h) $(CAL_CUDA_O) | $(BIN)
	$(NVCC) $(NVCCFLAGS) -I$(CUDA_HOME)/include -o $@ $(CUDA_SRC) $(CAL_CUDA_O) \
	  -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib -lnccl -lcjson $(shell pkg-config --libs gsl)

$(B)/calib $(B)/models $(B)/calmpi $(B)/calsmpi:
	mkdir -p $@

# ---- Validation: the emulated cluster of experiments/testbed/ (root, a few minutes) ----
# Network namespaces on a bridge with rate-limited veths are the hosts; the real algorithms
# run there under Open MPI, simcalib calibrates on the same testbed, simallreduce simulates
# the same points, simcalib validate compares: results/validation.json and .csv,
# plots/out/validation.png. Not part of make check: it needs root and minutes.
.PHONY: validate
validate: deps
	$(MAKE) all
	experiments/testbed/validate.sh
# ---- Fuzzing: libFuzzer targets (tests/fuzz/fuzz_*.c) for every parser of outside input,
# built with clang into build/fuzz, each run FUZZ_SECONDS from its seed corpus
# (tests/fuzz/corpus/NAME); what they find to add goes to build/fuzz/corpus/NAME.
FUZZ_SECONDS ?= 30
FUZZ_CC      := clang -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_LINK    := clang -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer
FUZZ_NAMES   := $(basename $(notdir $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_OBJ     = $(filter-out build/fuzz/sim/main.o,$(SIM_OBJ:$(B)/%=build/fuzz/%)) $(ALGO_PURE:$(B)/%=build/fuzz/%) \
	       $(CAL_OBJ:$(B)/%=build/fuzz/%) build/fuzz/models/fit.o
.PHONY: fuzz fuzz-build
fuzz: deps
	@for p in clang libclang-rt-14-dev; do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || \
	  { SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; $$SUDO apt-get install -y -q $$p; }; done
	$(MAKE) B=build/fuzz BIN=bin/fuzz CC="$(FUZZ_CC)" fuzz-build
	@for t in $(FUZZ_NAMES); do \
	  name=$${t#fuzz_}; mkdir -p build/fuzz/corpus/$$name; \
	  echo "fuzzing $$name for $(FUZZ_SECONDS) s"; \
	  build/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
	    -artifact_prefix=build/fuzz/$$t- \
	    build/fuzz/corpus/$$name tests/fuzz/corpus/$$name 2>build/fuzz/$$t.log || \
	    { tail -n 40 build/fuzz/$$t.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::new_units_added" build/fuzz/$$t.log | tr '\n' ' '; echo; \
	done

fuzz-build: $(addprefix build/fuzz/,$(FUZZ_NAMES))

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_LINK) $(CFLAGS) -Wno-unused-command-line-argument $(PKG_CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# ---- Benchmark: simulation speed, measured side by side in one run (bench/bench.sh prints
# "name value" lines; BENCH_REPS, BENCH_REPS_1024 and BENCH_LIMIT_1024 tune it). Not part of
# make check: speed is measured here, never asserted by tests. /usr/bin/time (Debian's time
# package) reads peak memory.
DEB_PKGS += time

.PHONY: bench
bench: deps
	$(MAKE) all bin/bench_plain_allreduce
	bench/bench.sh

# the reference a user without simallreduce would run: one MPI_Allreduce in a plain program
$(BIN)/bench_plain_allreduce: bench/plain_allreduce.c | $(BIN)
	$(SMPICC) $(CFLAGS) -o $@ $<
# ---- end of benchmark

# Keep intermediate objects: tests link some of them directly.
.SECONDARY:

-include $(wildcard $(B)/*/*.d)
