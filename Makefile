# simallreduce: one hand-written Makefile for everything.
#   make          build bin/simallreduce and the SMPI runner (and the MPI runner when mpicc exists)
#   make run      install what is missing, build, simulate the main job
#   make check    install what is missing, build, run every test
#   make deps     install the Debian packages that are missing
#   make calib    build bin/simcalib and its ping-pong programs (see the Calibration section)
#   make cuda     build bin/simcalib_cuda with nvcc, where nvcc is installed
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

B := build

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

HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
TARGETS    := bin/simallreduce bin/ar_runner $(if $(HAVE_MPICC),bin/ar_runner_mpi)

.PHONY: all deps run check test clean
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
	bin/simallreduce --platform $(MAIN_PLATFORM) --algo $(MAIN_ALGO) --phases

check: deps
	$(MAKE) all $(TEST_BIN)
	@tests/run_all.sh $(TEST_BIN)

test: check

bin/simallreduce: $(SIM_OBJ) $(B)/pure/ar_dtype.o $(B)/pure/tree_shape.o $(B)/pure/topk_select.o | bin
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

bin/ar_runner: $(ALGO_SMPI) | bin
	$(SMPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

bin/ar_runner_mpi: $(ALGO_MPI) | bin
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

bin $(B)/sim $(B)/smpi $(B)/mpi $(B)/pure $(B)/tests:
	mkdir -p $@

clean:
	rm -rf $(B) bin

# ---- Calibration: simcalib (calib/), its MPI ping-pong, the CUDA kernels, models/fit ----
# simcalib links the calib/ objects, models/fit and the driver's MPI-free helpers (sizes,
# paths, platform loading, smpirun launch); the ping-pong program is built twice from one
# source: mpicc to measure, smpicc (CAL_SMPI) to simulate it on a generated platform.
NVCC       ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NVCCFLAGS  ?= -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CAL_PP_SRC := calib/pingpong.c calib/pingpong_opts.c calib/measured.c calib/stats.c calib/textfile.c calib/cal_error.c
CAL_SRC    := $(filter-out calib/pingpong.c calib/pingpong_opts.c calib/main.c,$(wildcard calib/*.c))
CAL_OBJ    := $(sort $(CAL_SRC:calib/%.c=$(B)/calib/%.o))
MODEL_FIT  := $(B)/models/fit.o
CAL_PP_MPI := $(CAL_PP_SRC:calib/%.c=$(B)/calmpi/%.o) $(B)/calmpi/sizes.o
CAL_PP_SMPI := $(CAL_PP_SRC:calib/%.c=$(B)/calsmpi/%.o) $(B)/calsmpi/sizes.o
CAL_TARGETS := bin/simcalib bin/simcalib_pp_smpi $(if $(HAVE_MPICC),bin/simcalib_pp)

.PHONY: calib cuda
calib: $(CAL_TARGETS)
all: calib

bin/simcalib: $(B)/calib/main.o $(CAL_OBJ) $(MODEL_FIT) $(filter-out $(B)/sim/main.o,$(SIM_OBJ)) $(ALGO_PURE) | bin
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

bin/simcalib_pp: $(CAL_PP_MPI) | bin
	$(MPICC) $(CFLAGS) -o $@ $^ -lcjson $(shell pkg-config --libs gsl) -lm

bin/simcalib_pp_smpi: $(CAL_PP_SMPI) | bin
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
CAL_CUDA_O := $(addprefix $(B)/calib/,measured.o stats.o textfile.o cal_error.o)
ifneq ($(NVCC),)
cuda: bin/simcalib_cuda
else
cuda:
	@echo "make cuda: nvcc not found (install the CUDA toolkit or set NVCC=); skipping the CUDA kernels"
endif

bin/simcalib_cuda: $(CUDA_SRC) $(wildcard calib/cuda/*.h) $(CAL_CUDA_O) | bin
	$(NVCC) $(NVCCFLAGS) -I$(CUDA_HOME)/include -o $@ $(CUDA_SRC) $(CAL_CUDA_O) \
	  -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib -lnccl -lcjson $(shell pkg-config --libs gsl)

$(B)/calib $(B)/models $(B)/calmpi $(B)/calsmpi:
	mkdir -p $@

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
bin/bench_plain_allreduce: bench/plain_allreduce.c | bin
	$(SMPICC) $(CFLAGS) -o $@ $<
# ---- end of benchmark

# Keep intermediate objects: tests link some of them directly.
.SECONDARY:

-include $(wildcard $(B)/*/*.d)
