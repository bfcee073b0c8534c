# simallreduce: one hand-written Makefile for everything.
#   make          build bin/simallreduce, the SMPI runner (and the MPI runner when mpicc exists), bin/simcalib,
#                 their manual pages (build/man/)
#   make run      install what is missing, build, simulate the main job
#   make check    install what is missing, build, run every test
#   make deps     install the Debian packages that are missing (nothing when all is present)
#   make sanitize the tests again on binaries built with ASan and UBSan
#   make plots    run the experiments whose results are missing, draw plots/out/*.png
#   make cuda     build bin/simcalib_cuda with nvcc, where nvcc is installed
#   make validate as root: measure on an emulated cluster, calibrate, simulate, compare
#   make bench    build, then measure simulation speed (not a test; see docs/performance.md)
#   make fuzz     run every libFuzzer target for FUZZ_SECONDS
#   make tuner    build the NCCL tuner plugin (part of make; docs/tuner.md)
#   make install  install the programs, their helpers, the platforms and the manual pages under
#                 $(DESTDIR)$(PREFIX) (PREFIX defaults to /usr/local)
#   make uninstall  remove what make install put there, and the folders it made that are left empty
#
# The tree: one folder, one build unit, in the layers layers.conf declares (docs/layout.md).

# the goal of a plain `make`, whatever rule comes first (the per-folder library rules below do)
.DEFAULT_GOAL := all

CC       ?= cc
SMPICC   ?= smpicc
SMPICXX  ?= smpicxx
MPICC    ?= mpicc
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN)
# the runner's C++ files, where what it needs of SimGrid exists only in its C++ interface: the
# link accounting (runner/runner_links.cpp) and the NCCL pipeline's waits (algos/ar_activity.cpp)
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=c++17 -Wall -Wextra -Werror -Wshadow -Wmissing-declarations
# every include names its directory from the top ("platform/platform.h"), or none in its own
CPPFLAGS += -I. -MMD -MP
PKGS     := simgrid libcjson gsl libcrypto
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)
MPI_LIBS   = -lcjson $(shell pkg-config --libs gsl 2>/dev/null) -lm

MAIN_PLATFORM ?= tencent16.xml
MAIN_ALGO     ?= hitopk

# make install's prefix and the folders under it (see "Manual pages and installation")
PREFIX      ?= /usr/local
DESTDIR     ?=
LIBEXEC_REL := libexec/simallreduce
LIB_REL     := lib/simallreduce
DATA_REL    := share/simallreduce
MAN_REL     := share/man/man1

B   ?= build
BIN ?= bin

# ---- Dependencies: Debian packages by name. What the build and tests need is probed first
# (pkg-config modules, commands), so that a machine that has it all, Debian or not, never
# reaches apt-get.
# the allocator simulations run on (platform/launch.c), where the loader finds it
TCMALLOC  := $(shell /sbin/ldconfig -p 2>/dev/null | awk '/libtcmalloc_minimal\.so\.4 /{print $$NF; exit}')
DEB_PKGS  := libsimgrid-dev libgsl-dev libcjson-dev libssl-dev gnuplot-nox check pkg-config libopenmpi-dev openmpi-bin \
	     time bsdutils jq libtcmalloc-minimal4 man-db
DEPS_HAVE := pkg-config --exists simgrid libcjson gsl libcrypto check && command -v smpicc && command -v smpirun && \
	     command -v gnuplot && command -v mpicc && test -x /usr/bin/time && command -v script && \
	     command -v jq && test -n "$(TCMALLOC)" && command -v man && command -v groff

# ---- Build units: folders. layers.conf lists them bottom first, with their kind and what each
# may include; a library folder is every *.c in it (its main.c, where it has one, is its
# program), built into build/<flavor>/lib<folder>.a. Flavors: o (cc, the tools), smpi (smpicc
# with SA_SMPI, to simulate), mpi (mpicc, to measure), pic (cc -fPIC, for the platform loader).
LAYER_ORDER := $(shell awk '!/^\#/ && NF {print $$1}' layers.conf)
LIB_DIRS    := $(shell awk '!/^\#/ && $$2 == "lib" {print $$1}' layers.conf)
deps_of      = $(shell awk '$$1 == "$(1)" {for (i = 4; i <= NF && $$i != ":"; i++) print $$i}' layers.conf)
reverse      = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
# a set of folders in link order, upper layers first as the linker wants them
link_order   = $(call reverse,$(filter $(1),$(LAYER_ORDER)))
src_of       = $(filter-out $(1)/main.c,$(wildcard $(1)/*.c))
objs_of      = $(patsubst %.c,$(B)/$(1)/%.o,$(call src_of,$(2))) \
               $(if $(filter smpi,$(1)),$(patsubst %.cpp,$(B)/$(1)/%.o,$(wildcard $(2)/*.cpp)))
libs_of      = $(foreach d,$(call link_order,$(2)),$(B)/$(1)/lib$(d).a)
define archive
$(B)/$(1)/lib$(2).a: $(call objs_of,$(1),$(2))
endef
# the MPI programs: the runner (every file of runner/) and simcalib's ping-pong, over the
# libraries they may include, in the MPI flavors
RUNNER_LIBS := $(call deps_of,runner)
PP_LIBS     := $(call deps_of,measure/pingpong)
MPI_DIRS    := $(sort $(RUNNER_LIBS) $(PP_LIBS))
$(foreach d,$(LIB_DIRS),$(eval $(call archive,o,$(d))))
$(foreach f,smpi mpi,$(foreach d,$(MPI_DIRS),$(eval $(call archive,$(f),$(d)))))
$(foreach d,$(call deps_of,topo) topo,$(eval $(call archive,pic,$(d))))
LAYERS := $(call libs_of,o,$(LIB_DIRS))

# the manual pages, made from the programs' --help by man/man.sh
MAN_PAGES  := $(B)/man/simallreduce.1 $(B)/man/simcalib.1

HAVE_MPICC := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
TARGETS    := $(BIN)/simallreduce $(BIN)/ar_runner $(BIN)/platform_zone.so $(if $(HAVE_MPICC),$(BIN)/ar_runner_mpi) \
	      $(BIN)/simcalib $(BIN)/simcalib_pp_smpi $(if $(HAVE_MPICC),$(BIN)/simcalib_pp)

TEST_SRC := $(wildcard tests/check_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)
TEST_SH  := $(wildcard tests/test_*.sh)

.PHONY: all deps run check test clean experiments plots calib cuda sanitize validate bench fuzz fuzz-build tuner \
	install uninstall
all: $(TARGETS) $(MAN_PAGES)
calib: all

deps:
	@if ( $(DEPS_HAVE) ) >/dev/null 2>&1; then exit 0; fi; \
	if ! command -v dpkg-query >/dev/null 2>&1; then \
	  echo "make deps: missing build dependencies and no Debian package manager; install: $(DEB_PKGS)" >&2; exit 1; fi; \
	missing=""; for p in $(DEB_PKGS); do \
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

# ---- Libraries and objects, by flavor
$(B)/%.a:
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/o/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(B)/smpi/%.o: %.c
	@mkdir -p $(@D)
	$(SMPICC) $(CPPFLAGS) $(CFLAGS) -DSA_SMPI -c -o $@ $<

$(B)/smpi/%.o: %.cpp
	@mkdir -p $(@D)
	$(SMPICXX) $(CPPFLAGS) $(CXXFLAGS) -DSA_SMPI -c -o $@ $<

$(B)/mpi/%.o: %.c
	@mkdir -p $(@D)
	$(MPICC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# the platform loader's objects, built with the plain compiler whatever CC is (a sanitized
# object cannot load into the unsanitized simulator)
PIC_CC  ?= cc
PIC_CXX ?= $(CXX)
$(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(PIC_CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

# The tool's version for result files and --version: git describe at build time ("unknown"
# outside git). The header is rewritten only when the version changes, so that only what
# includes it is rebuilt.
VERSION_H := $(B)/gen/sa_version.h
.PHONY: FORCE
$(VERSION_H): FORCE
	@mkdir -p $(@D); \
	line="#define SA_VERSION \"$$(git describe --always --dirty 2>/dev/null || echo unknown)\""; \
	[ "$$(cat $@ 2>/dev/null)" = "$$line" ] || echo "$$line" >$@
$(B)/o/sim/provenance.o: $(VERSION_H)
$(B)/o/sim/provenance.o: CPPFLAGS += -I$(B)/gen
$(B)/o/platform/launch.o: CPPFLAGS += -DPLAT_TCMALLOC='"$(TCMALLOC)"'
# where an installed binary finds the rest (util/paths.c), in every flavor
%/util/paths.o: CPPFLAGS += -DUTIL_LIBEXEC_DIR='"$(LIBEXEC_REL)"' -DUTIL_LIB_DIR='"$(LIB_REL)"' \
	-DUTIL_DATA_DIR='"$(DATA_REL)"'

# ---- Programs: a folder's main.c over the libraries
$(BIN)/simallreduce: $(B)/o/sim/main.o $(LAYERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BIN)/simcalib: $(B)/o/calib/main.o $(LAYERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# The runner: every file of runner/ over the algorithms and what they use, built with smpicc
# to simulate (SA_SMPI: device time charged to the simulated clock; its C++ files account
# the links' traffic and wait on SimGrid's activities) and with mpicc to measure.
$(BIN)/ar_runner: $(call objs_of,smpi,runner) $(call libs_of,smpi,$(RUNNER_LIBS))
	@mkdir -p $(@D)
	$(SMPICXX) $(CXXFLAGS) -o $@ $^ $(MPI_LIBS)

$(BIN)/ar_runner_mpi: $(call objs_of,mpi,runner) $(call libs_of,mpi,$(RUNNER_LIBS))
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) -o $@ $^ $(MPI_LIBS)

# simcalib's ping-pong (measure/pingpong/): an MPI program of its own, with mpicc and smpicc
$(BIN)/simcalib_pp: $(call objs_of,mpi,measure/pingpong) $(call libs_of,mpi,$(PP_LIBS))
	@mkdir -p $(@D)
	$(MPICC) $(CFLAGS) -o $@ $^ $(MPI_LIBS)

$(BIN)/simcalib_pp_smpi: $(call objs_of,smpi,measure/pingpong) $(call libs_of,smpi,$(PP_LIBS))
	@mkdir -p $(@D)
	$(SMPICXX) $(CXXFLAGS) -o $@ $^ $(MPI_LIBS)

# The loader SimGrid runs in place of a generated platform file (topo/zone.cpp), over the
# generator's own code (topo/).
$(BIN)/platform_zone.so: topo/zone.cpp $(call libs_of,pic,topo $(call deps_of,topo))
	@mkdir -p $(@D) $(B)/pic/topo
	$(PIC_CXX) $(CPPFLAGS) -MF $(B)/pic/topo/zone.d -MT $@ $(CXXFLAGS) $(PKG_CFLAGS) -fPIC -shared \
	  -Wl,--no-undefined -o $@ $(filter-out %.h,$^) $(PKG_LIBS)

# ---- Tests: each a Check program linked against the layer libraries (it takes the objects
# it uses) and the helpers that run the real CLI.
$(B)/tests/%: $(B)/o/tests/%.o $(B)/o/tests/cli_run.o $(LAYERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) $(PKG_LIBS) -lm

clean:
	rm -rf $(B) $(BIN)

# ---- Sanitizers: the driver, simcalib and every test built with AddressSanitizer and
# UndefinedBehaviorSanitizer into build/san and bin/san, then run (the tests drive the
# sanitized binaries through SIMALLREDUCE_BIN and SIMCALIB_BIN; SMPI runs its usual runner).
SAN_CC   := $(CC) -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The tests' timeouts bound a hang of the plain build; the sanitized fits run about three times
# slower (NCCL's fits of L08 and L12, two tests at a time, ran past them), so Check's multiplier.
SAN_ENV  := SIMALLREDUCE_PLATFORMS=platforms SIMALLREDUCE_BIN=bin/san/simallreduce SIMCALIB_BIN=bin/san/simcalib \
	    ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    CK_TIMEOUT_MULTIPLIER=3
SAN_TESTS := $(TEST_SRC:tests/%.c=build/san/tests/%)
# the shell tests that drive the driver ($SIMALLREDUCE_BIN) through its signals, platforms and
# what it keeps of big ones
SAN_SH    := tests/test_foreign_platforms.sh tests/test_kill.sh tests/test_platform_cache.sh
# The plain build too: experiments/run.sh and the tuner tests' exports call bin/simallreduce,
# so that make sanitize alone on a fresh clone passes as it does after make check.
sanitize: deps
	$(MAKE) all
	$(MAKE) B=build/san BIN=bin/san CC="$(SAN_CC)" bin/san/simallreduce bin/san/ar_runner bin/san/platform_zone.so \
	  bin/san/simcalib \
	  bin/san/simcalib_pp_smpi $(if $(HAVE_MPICC),bin/san/simcalib_pp) $(SAN_TESTS)
	@$(SAN_ENV) tests/run_all.sh $(SAN_TESTS) $(SAN_SH)

# ---- Experiments and plots: experiments/defs/*.exp, run in parallel, drawn by gnuplot ----
experiments: deps
	$(MAKE) all
	experiments/run.sh $(basename $(notdir $(wildcard experiments/defs/*.exp)))

plots: deps
	$(MAKE) all
	plots/plot.sh

# ---- CUDA kernels and the NCCL allreduce sweep (measure/cuda/): one binary writing the
# measured-data schema, built where nvcc is installed.
NVCC       ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NVCCFLAGS  ?= -O2 -std=c++17 -Xcompiler -Wall,-Wextra,-Werror
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_SRC   := $(wildcard measure/cuda/*.cu)
# the libraries it links: the measured-data writer, statistics, MSTopK's threshold search
CUDA_LIBS  := $(call libs_of,o,$(call deps_of,measure/cuda))
ifneq ($(NVCC),)
cuda: $(BIN)/simcalib_cuda
else
cuda:
	@echo "make cuda: nvcc not found (install the CUDA toolkit or set NVCC=); skipping the CUDA kernels"
endif

$(BIN)/simcalib_cuda: $(CUDA_SRC) $(wildcard measure/cuda/*.h) $(CUDA_LIBS)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -I. -I$(CUDA_HOME)/include -o $@ $(CUDA_SRC) $(CUDA_LIBS) \
	  -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib -lnccl -lcjson $(shell pkg-config --libs gsl)

# ---- Validation: the emulated cluster of experiments/testbed/ (root, a few minutes) ----
# Network namespaces on a bridge with rate-limited veths are the hosts; the real algorithms
# run there under Open MPI, simcalib calibrates on the same testbed, simallreduce simulates
# the same points, simcalib validate compares: results/validation.json and .csv,
# plots/out/validation.png. Not part of make check: it needs root and minutes.
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

build/fuzz/fuzz_%: build/fuzz/o/tests/fuzz/fuzz_%.o $(LAYERS)
	$(FUZZ_LINK) $(CFLAGS) -Wno-unused-command-line-argument -o $@ $^ $(PKG_LIBS) -lm

# ---- Benchmark: simulation speed, measured side by side in one run (bench/bench.sh prints
# "name value" lines; BENCH_REPS, BENCH_REPS_1024 and BENCH_LIMIT_1024 tune it). Not part of
# make check: speed is measured here, never asserted by tests. /usr/bin/time (Debian's time
# package) reads peak memory.
bench: deps
	$(MAKE) all $(BIN)/bench_plain_allreduce
	bench/bench.sh

# the reference a user without simallreduce would run: one MPI_Allreduce in a plain program
$(BIN)/bench_plain_allreduce: bench/plain_allreduce.c
	@mkdir -p $(@D)
	$(SMPICC) $(CFLAGS) -o $@ $<

# ---- NCCL tuner plugin (tuner/, docs/tuner.md): the decision table simallreduce exports,
# and the shared library NCCL loads through NCCL_TUNER_PLUGIN to answer from it. Objects are
# built with -fPIC and hidden visibility, so the library exports only NCCL's symbols; it needs
# libc alone (the table writer, which needs libm, stays out of it). TUNER_OBJ (the table's
# reading, writing and index) links into the tests, the fuzz target, the bench program and
# the driver (--export-tuner).
TUNER_SO     := $(B)/tuner/libnccl-tuner-simallreduce.so
TUNER_OBJ    := $(patsubst tuner/%.c,$(B)/tuner/%.o,$(filter-out tuner/plugin.c,$(wildcard tuner/*.c)))
TUNER_SO_OBJ := $(filter-out $(B)/tuner/table_write.o,$(TUNER_OBJ)) $(B)/tuner/plugin.o
# what the table writer uses (util/outfile.c): linked beside it, never into the plugin
TUNER_LIBS   := $(call libs_of,o,$(call deps_of,tuner))
tuner: $(TUNER_SO)
all: tuner
$(BIN)/simallreduce: $(TUNER_OBJ)

$(TUNER_SO): $(TUNER_SO_OBJ)
	$(CC) $(CFLAGS) -shared -o $@ $^

$(B)/tuner/%.o: tuner/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# the table's tests call its code; the plugin's load the library as NCCL does (dlopen)
$(B)/tests/check_tuner_%: $(B)/o/tests/check_tuner_%.o $(TUNER_OBJ) $(TUNER_LIBS) | $(TUNER_SO)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) -ldl -lm
$(B)/o/tests/check_tuner_plugin.o: CPPFLAGS += -DTUNER_SO='"$(TUNER_SO)"'

build/fuzz/fuzz_tuner_table: build/fuzz/o/tests/fuzz/fuzz_tuner_table.o $(TUNER_OBJ) $(TUNER_LIBS)
	$(FUZZ_LINK) $(CFLAGS) -Wno-unused-command-line-argument -o $@ $^ -lm

# make bench: one query's cost (bench/tuner_query.c), next to the simulation timings
bench: $(BIN)/bench_tuner_query
$(BIN)/bench_tuner_query: bench/tuner_query.c $(TUNER_OBJ) $(TUNER_LIBS) | $(TUNER_SO)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -ldl -lm
# ---- end of NCCL tuner plugin

# ---- Manual pages and installation. The pages are made from the programs' --help (and
# simcalib's commands'), the sections it has no room for written in man/man.sh.
$(B)/man/%.1: $(BIN)/% man/man.sh
	@mkdir -p $(@D)
	man/man.sh $* $(BIN)/$* >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

# make install: the programs in bin/, the programs they start in libexec/simallreduce/, what
# they load in lib/simallreduce/, the platforms in share/simallreduce/platforms/, the pages
# in share/man/man1/. The installed programs find the rest relative to themselves
# (util/paths.c, which takes these folders from here), so that a DESTDIR stage or a moved
# prefix works as well. make uninstall removes the same files, then each folder install
# made under the prefix, where it is left empty (one holding other files stays).
INST_PROGS   := $(BIN)/simallreduce $(BIN)/simcalib
# the programs they start: those make builds here, and simcalib_cuda where make cuda built it
HELPERS      := ar_runner ar_runner_mpi simcalib_pp simcalib_pp_smpi simcalib_cuda
INST_HELPERS := $(filter $(addprefix $(BIN)/,$(HELPERS)),$(TARGETS)) $(wildcard $(BIN)/simcalib_cuda)
INST_LIBS    := $(BIN)/platform_zone.so $(TUNER_SO)
INST_PLATS   := $(wildcard platforms/*.xml)
# the folders, deepest first, that uninstall removes when empty (the prefix itself stays)
INST_DIRS    := $(MAN_REL) share/man $(DATA_REL)/platforms $(DATA_REL) share $(LIB_REL) lib $(LIBEXEC_REL) libexec bin
inst_root     = $(DESTDIR)$(PREFIX)

install: all
	@test -n "$(PREFIX)" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	install -d $(addprefix $(inst_root)/,bin $(LIBEXEC_REL) $(LIB_REL) $(DATA_REL)/platforms $(MAN_REL))
	install -m 755 $(INST_PROGS) $(inst_root)/bin
	install -m 755 $(INST_HELPERS) $(inst_root)/$(LIBEXEC_REL)
	install -m 644 $(INST_LIBS) $(inst_root)/$(LIB_REL)
	install -m 644 $(INST_PLATS) $(inst_root)/$(DATA_REL)/platforms
	install -m 644 $(MAN_PAGES) $(inst_root)/$(MAN_REL)

uninstall:
	@test -n "$(PREFIX)" || { echo "make uninstall: PREFIX is empty" >&2; exit 2; }
	rm -f $(addprefix $(inst_root)/bin/,$(notdir $(INST_PROGS))) \
	  $(addprefix $(inst_root)/$(LIBEXEC_REL)/,$(HELPERS)) \
	  $(addprefix $(inst_root)/$(LIB_REL)/,$(notdir $(INST_LIBS))) \
	  $(addprefix $(inst_root)/$(DATA_REL)/platforms/,$(notdir $(INST_PLATS))) \
	  $(addprefix $(inst_root)/$(MAN_REL)/,$(notdir $(MAN_PAGES)))
	@for d in $(INST_DIRS); do \
	  [ ! -d "$(inst_root)/$$d" ] || rmdir --ignore-fail-on-non-empty "$(inst_root)/$$d"; \
	done

# Keep intermediate objects.
.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
