# sat - 2D SAT collision for Lua, with a C core.
#   make              build the Lua module for LUA (lua5.4; luajit, lua5.1 or lua5.3 too)
#   make test         install missing tools, build, run every suite, print the total
#   make test-pure    the busted specs on the pure backend under every Lua (the busted-pure suite)
#   make demo         run the scripted demo scene
#   make bench        optimised benchmarks (JSON=1 for one JSON object per line)
#   make fuzz         the libFuzzer target (FUZZ_SECONDS=60; an input slower than
#                     FUZZ_TIMEOUT=10 seconds fails), then the differential fuzzer as long
#   make soak         the world's re-entrancy fuzzer, long (SOAK_SECONDS=600; SOAK_SEED=)
#   make chaos        the chaos build under its fuzzer, long (CHAOS_SECONDS=600 or CHAOS_OPS=; CHAOS_SEED=)
#   make pure-chaos   the pure backend under a debug hook that changes everything mid-call
#   make love-demo    run the LÖVE demo
#   make explorer     the SAT explorer (LÖVE): sat.explain drawn live on two shapes
#   make repl         Lua 5.4 (or LUA=luajit) with sat required as the global sat
#   make dist         dist/sat/, the folder a game ships, and dist/sat-<version>.zip
#   make windows      sat/core.dll for Windows x64 (LuaJIT, Lua 5.4), cross-built with mingw-w64
#   make macos        on a Mac: the module per architecture (arm64, x86_64); untested here
#   make install      PREFIX=/usr/local DESTDIR=
#   make clean
# Every other build is a target here too, which the suites (spec/suites) and bench/run.sh call:
#   make module-san   the module with ASan + UBSan: build/asan-$(LUA)/sat/core.so
#   make module-chaos the same, with a hostile call at every allocation: build/chaos-$(LUA)/
#   make c-tests      the C core's tests: build/c/tests (c-tests-san: with ASan + UBSan)
#   make fuzz-build   the libFuzzer target: build/fuzz/fuzz_pairs (fuzz-probe: can clang link one?)
#   make bench-build  what make bench runs, optimised, in build/bench
#   make sources      the module's C sources, one a line (the rockspec lists the same)
#   make objects      one object per source: build/obj/$(LUA)/{core,lua}/*.o
#   make test-helpers the specs' helper modules (spec/helpers), next to the module, and the
#                     native files the loader must refuse (loader-fixtures: build/fixtures/)
#   make math-ulps    the own sin, cos, atan2, hypot: ulps against long double, ns per call

LUA      ?= lua5.4
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
SOAK_SECONDS ?= 600
CHAOS_SECONDS ?= 600

WARN     := -std=c99 -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wpointer-arith
OPT      ?= -O2 -g
# No fused multiply-add anywhere (a compiler may fuse a * b + c on aarch64 and others, which
# changes bits): every recipe below says so, for the same bits on every platform
# (docs/design.md, "Determinism"). The build suite checks each recipe passes it.
FP       := -ffp-contract=off
CFLAGS   ?=
BUILD    := build

# Lua headers: pkg-config first, Debian's include dir otherwise.
ifeq ($(LUA),luajit)
  LUA_PC := luajit
  LUA_VERSION_DIR := 5.1
else
  LUA_PC := $(LUA)
  LUA_VERSION_DIR := $(patsubst lua%,%,$(LUA))
endif
LUA_INC  ?= $(shell pkg-config --cflags $(LUA_PC) 2>/dev/null || echo -I/usr/include/$(LUA))

# The core sees only its own headers; the binding sees both.
CORE_SRC := $(sort $(wildcard src/core/*.c))
BIND_SRC := $(sort $(wildcard src/lua/*.c))
CORE_HDR := $(wildcard src/core/*.h)
HEADERS  := $(CORE_HDR) $(wildcard src/lua/*.h)
CORE_INC := -Isrc/core
BIND_INC := -Isrc/core -Isrc/lua

MODDIR   := $(BUILD)/$(LUA)
MODULE   := $(MODDIR)/sat/core.so
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all test-pure module-san module-chaos chaos sources objects c-tests c-tests-san fuzz-probe fuzz-build fuzz soak pure-chaos \
        bench-build bench deps test demo love-demo explorer install clean test-helpers

all: $(MODULE)

# ---- the Lua module -----------------------------------------------------------------------
# One shared object, the core and the binding, without -llua (the host provides the symbols).
# SAT_HIDDEN: it exports luaopen_sat_core alone, so its own calls are direct (src/core/sat.h).
# -fno-plt: its calls into Lua go through the GOT, not through a PLT stub.
# -z nodelete: never unloaded. Lua 5.1 and LuaJIT unload C modules at lua_close (the package
# library's finalizer of the library's handle) before the finalizers of objects made earlier,
# or made during the close, have run; one that calls into sat would call unmapped code
# (docs/design.md, "Finalizers and allocations"). The Windows DLL pins itself instead
# (lsat_module.c); the linker of macOS has no such flag.
MODFLAGS := -DSAT_HIDDEN
SHARED   := -fPIC -shared -fno-plt
NODELETE := $(if $(filter Darwin,$(shell uname -s)),,-Wl,-z,nodelete)
$(MODULE): $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(MODFLAGS) $(SHARED) $(NODELETE) $(BIND_INC) \
	  $(LUA_INC) -o $@ $(CORE_SRC) $(BIND_SRC) -lm

# The same with ASan + UBSan, for the valgrind suite, which preloads gcc's runtimes into the
# interpreter: so it is built by gcc whatever CC is.
SAN_CC     := gcc
SAN_MODULE := $(BUILD)/asan-$(LUA)/sat/core.so
module-san: $(SAN_MODULE)
$(SAN_MODULE): $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(WARN) $(FP) -O1 -g $(SAN) $(MODFLAGS) $(SHARED) $(NODELETE) $(BIND_INC) \
	  $(LUA_INC) -o $@ $(CORE_SRC) $(BIND_SRC) -lm

# The chaos build (src/lua/lsat.h): the sanitized module in which every Lua API call of the
# binding that can run the collector first calls the fuzzer's hostile function
# (spec/fuzz/chaos.lua; make chaos, spec/suites/chaos.sh).
CHAOS_MODULE := $(BUILD)/chaos-$(LUA)/sat/core.so
module-chaos: $(CHAOS_MODULE)
$(CHAOS_MODULE): $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(SAN_CC) $(WARN) $(FP) -O1 -g $(SAN) -DSAT_CHAOS $(MODFLAGS) $(SHARED) $(NODELETE) \
	  $(BIND_INC) $(LUA_INC) -o $@ $(CORE_SRC) $(BIND_SRC) -lm

sources:
	@printf '%s\n' $(CORE_SRC) $(BIND_SRC)

# One object per source, compiled as the module compiles them (the build suite reads which
# file uses which with nm).
OBJDIR  := $(BUILD)/obj/$(LUA)
OBJECTS := $(patsubst src/%.c,$(OBJDIR)/%.o,$(CORE_SRC) $(BIND_SRC))
objects: $(OBJECTS)
$(OBJDIR)/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(MODFLAGS) -fPIC $(BIND_INC) $(LUA_INC) -c -o $@ $<
# sat_collide_traced.c compiles sat_collide.c a second time (with its trace on)
$(OBJDIR)/core/sat_collide_traced.o: src/core/sat_collide.c

# ---- the C core's tests and fuzzing -------------------------------------------------------
CTEST_SRC := $(sort $(wildcard spec/c/test_*.c))
CTEST_HDR := $(wildcard spec/c/*.h)
CTEST_BIN := $(BUILD)/c/tests
CTEST_SAN := $(BUILD)/c/tests-san

c-tests: $(CTEST_BIN)
$(CTEST_BIN): $(CORE_SRC) $(CTEST_SRC) $(CORE_HDR) $(CTEST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(CORE_INC) -Ispec/c -o $@ $(CORE_SRC) $(CTEST_SRC) -lm

c-tests-san: $(CTEST_SAN)
$(CTEST_SAN): $(CORE_SRC) $(CTEST_SRC) $(CORE_HDR) $(CTEST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) -O1 -g $(SAN) $(CORE_INC) -Ispec/c -o $@ $(CORE_SRC) $(CTEST_SRC) -lm

FUZZ_CC    := clang
FUZZ_FLAGS := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BIN   := $(BUILD)/fuzz/fuzz_pairs

fuzz-build: $(FUZZ_BIN)
$(FUZZ_BIN): $(CORE_SRC) spec/c/fuzz_pairs.c $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FP) -O1 -g $(FUZZ_FLAGS) $(CORE_INC) -o $@ $(CORE_SRC) spec/c/fuzz_pairs.c -lm

# Succeeds when $(FUZZ_CC) can link a libFuzzer target at all (the fuzz suite skips if not).
fuzz-probe:
	@mkdir -p $(BUILD)/fuzz
	@printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
	  >$(BUILD)/fuzz/probe.c
	@$(FUZZ_CC) $(FUZZ_FLAGS) -o $(BUILD)/fuzz/probe $(BUILD)/fuzz/probe.c

# The world's re-entrancy fuzzer (spec/fuzz/world_reentrancy.lua) for SOAK_SECONDS in all,
# under lua5.4 and luajit (compiler on and off), with the module and its ASan + UBSan build;
# `make test` runs it short (spec/suites/world-fuzz.sh).
soak:
	SOAK_SECONDS=$(SOAK_SECONDS) sh spec/suites/world-fuzz.sh

# The chaos build (module-chaos) under its fuzzer (spec/fuzz/chaos.lua) for CHAOS_SECONDS in
# all, under lua5.4, lua5.1, lua5.3 and luajit (compiler on and off), or CHAOS_OPS operations
# per interpreter when given; `make test` runs it short (spec/suites/chaos.sh).
chaos:
	CHAOS_SECONDS=$(if $(CHAOS_OPS),,$(CHAOS_SECONDS)) CHAOS_OPS=$(CHAOS_OPS) sh spec/suites/chaos.sh

# The pure backend's chaos drive (spec/fuzz/pure_chaos.lua) in its full mode: a debug count
# hook moves, turns, scales, adds, removes, steps, queries every 20 to 300 instructions, from
# inside any call; PURE_CHAOS_SEEDS seeds (default 1-8) of PURE_CHAOS_OPS operations (default 300)
# under lua5.4 and luajit -joff, each shape's derived numbers checked after every operation
# (PURE_CHAOS_DERIVED=1). Seeds 1-20 x 2,000 on lua5.4: all but seed 9 pass; 1-10 x 300 on
# luajit -joff pass.
PURE_CHAOS_SEEDS ?= 1 2 3 4 5 6 7 8
PURE_CHAOS_OPS ?= 300
pure-chaos:
	@$(MAKE) --no-print-directory -s LUA=lua5.4 all
	@$(MAKE) --no-print-directory -s LUA=luajit all
	@for lua in lua5.4 "luajit -joff"; do for s in $(PURE_CHAOS_SEEDS); do \
	  PURE_CHAOS_DERIVED=1 LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH="build/$${lua%% *}/?.so;;" \
	    $$lua spec/fuzz/pure_chaos.lua $$s $(PURE_CHAOS_OPS) || exit 1; done; done

# libFuzzer on the C core, then the differential fuzzer (spec/fuzz/differential.lua: the
# native module against the pure backend, every Lua, random seeds; a failure prints its seed
# and the command that replays it), each for FUZZ_SECONDS.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -max_len=512 \
	  -artifact_prefix=$(BUILD)/fuzz/ \
	  $(BUILD)/fuzz/corpus
	DIFF_SECONDS=$(FUZZ_SECONDS) sh spec/suites/differential.sh

# ---- benchmarks ---------------------------------------------------------------------------
# In their own directory, -O2 without -g or CFLAGS, and rebuilt every time (-B), so that no
# object made with other flags is ever measured. bench_clock (the floor and the bound of the
# binding) is built as the module is.
BENCH_BUILD := $(BUILD)/bench
BENCH_LUAS  := lua5.4 luajit
BENCH_MAKE   = $(MAKE) --no-print-directory -B BUILD=$(BENCH_BUILD) OPT=-O2 CFLAGS=

bench-build:
	@$(BENCH_MAKE) $(BENCH_BUILD)/bench-core
	@for lua in $(BENCH_LUAS); do \
	  $(BENCH_MAKE) LUA=$$lua all $(BENCH_BUILD)/$$lua/bench_clock.so || exit 1; \
	done

$(BUILD)/bench-core: $(CORE_SRC) $(CORE_HDR) bench/core.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(CORE_INC) -o $@ $(CORE_SRC) bench/core.c -lm

# ---- the own maths' accuracy and cost -----------------------------------------------------
# make math-ulps: src/core/sat_math.c against glibc's long-double functions, ulps per range
# and ns per call against libm (tools/sat_math_ulps.c; MATH_SAMPLES per range); the figures
# of docs/design.md, "Determinism". Minutes of one core: not part of make test.
MATH_SAMPLES ?= 1000000
.PHONY: math-ulps
math-ulps: $(BUILD)/tools/sat_math_ulps
	$(BUILD)/tools/sat_math_ulps $(MATH_SAMPLES)
$(BUILD)/tools/sat_math_ulps: tools/sat_math_ulps.c src/core/sat_math.c src/core/sat_math.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) -D_GNU_SOURCE -O2 $(CORE_INC) -o $@ tools/sat_math_ulps.c src/core/sat_math.c -lm

# ---- helpers for the specs ----------------------------------------------------------------
# failalloc: a Lua allocator failing on demand (spec/helpers/failalloc.c), next to the module
# and to its ASan build, for the specs of out-of-memory paths. -z nodelete: lua_close unloads
# C modules before it frees the last objects, through that allocator.
# satmath: the core's own sin, cos, atan2 and hypot (src/core/sat_math.c) as a Lua module,
# for spec/math_spec.lua (the pure-Lua twin gives the same bits).
test-helpers: $(MODDIR)/failalloc.so $(BUILD)/asan-$(LUA)/failalloc.so $(MODDIR)/satmath.so \
  loader-fixtures $(MODDIR)/satprobe.so
$(MODDIR)/failalloc.so $(BUILD)/asan-$(LUA)/failalloc.so: spec/helpers/failalloc.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(SHARED) -Wl,-z,nodelete $(LUA_INC) -o $@ spec/helpers/failalloc.c
$(MODDIR)/satmath.so: spec/helpers/satmath.c src/core/sat_math.c src/core/sat_math.h src/core/sat.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(SHARED) $(CORE_INC) $(LUA_INC) -o $@ spec/helpers/satmath.c \
	  src/core/sat_math.c -lm

# satprobe: the C core's functions, raw (statuses, every field, a shape's internals), for the
# pure backend's spec (spec/pure_core_spec.lua): the core's sources and flags, as in the module.
$(MODDIR)/satprobe.so: spec/helpers/satprobe.c $(CORE_SRC) $(CORE_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(MODFLAGS) $(SHARED) $(CORE_INC) $(LUA_INC) -o $@ \
	  $(CORE_SRC) spec/helpers/satprobe.c -lm

$(MODDIR)/bench_clock.so: bench/lclock.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(SHARED) $(LUA_INC) -o $@ bench/lclock.c

bench:
	@sh tools/deps.sh bench
	@sh bench/run.sh

# ---- everything ---------------------------------------------------------------------------
deps:
	@sh tools/deps.sh test

test: deps
	@sh spec/run-tests.sh

# the busted specs on the pure backend under every Lua, JIT on and off (make test: the Luas
# that run it in games, spec/suites/busted-pure.sh)
test-pure: deps
	@BUSTED_PURE_RUNS=all sh spec/suites/busted-pure.sh

demo:
	@sh tools/deps.sh demo
	@$(MAKE) --no-print-directory LUA=lua5.4 all
	@LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='$(BUILD)/lua5.4/?.so;;' lua5.4 examples/demo.lua

love-demo:
	@sh tools/deps.sh love
	@$(MAKE) --no-print-directory LUA=luajit all
	@sh tools/love-run.sh examples/love

explorer:
	@sh tools/deps.sh love
	@$(MAKE) --no-print-directory LUA=luajit all
	@sh tools/love-run.sh examples/explorer

# ---- install ------------------------------------------------------------------------------
LUA_LMOD ?= $(PREFIX)/share/lua/$(LUA_VERSION_DIR)
LUA_CMOD ?= $(PREFIX)/lib/lua/$(LUA_VERSION_DIR)

install: $(MODULE)
	install -d $(DESTDIR)$(LUA_CMOD)/sat $(DESTDIR)$(LUA_LMOD)/sat $(DESTDIR)$(LUA_LMOD)/sat/pure
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_CMOD)/sat/core.so
	install -m 644 lua/sat/*.lua $(DESTDIR)$(LUA_LMOD)/sat/
	install -m 644 lua/sat/pure/*.lua $(DESTDIR)$(LUA_LMOD)/sat/pure/

clean:
	rm -rf $(BUILD) luacov.* *.rock

# ---- shipping: make dist ------------------------------------------------------------------
# dist/sat/ is the folder a game copies next to its main.lua (docs/love.md, "Shipping sat with
# a game"), and dist/sat-$(VERSION).zip holds it. In it: every lua/sat/*.lua, the pure-Lua
# backend (lua/sat/pure/*.lua, for where no native file fits), LICENSE, library/sat.lua
# (the LuaLS definitions, never loaded), a core.lua that hands require("sat.core") to
# sat/loader.lua, and native/<os>-<arch>-<abi>.<ext>:
# the module for each platform built here, for LuaJIT (what LÖVE runs: abi luajit) and
# Lua 5.4 (lua54). On Linux: linux-<arch> and, cross-built, windows-x64 (WINDOWS=no leaves it
# out); on a Mac: macos-arm64 and macos-x64. The folder is checked before it is zipped: every
# module its Lua files require loads from it alone (spec/dist/check.lua).
.PHONY: dist dist-folder windows windows-luas windows-helpers macos repl
VERSION   := $(shell sed -n 's/^.define SAT_VERSION "\(.*\)"$$/\1/p' src/core/sat.h)
DIST      := dist
DIST_SAT  := $(DIST)/sat
DIST_ZIP  := $(DIST)/sat-$(VERSION).zip
DIST_LUAS := luajit lua5.4
WINDOWS   ?= yes
HOST_OS   := $(shell uname -s)
# the system as sat/loader.lua names it (jit.os: Linux, BSD, ...)
HOST_SYS  := $(if $(filter %BSD,$(HOST_OS)),bsd,$(shell echo $(HOST_OS) | tr A-Z a-z))
# uname -m as jit.arch names it (what sat/loader.lua looks for)
arch_name  = $(patsubst x86_64,x64,$(patsubst amd64,x64,$(patsubst aarch64,arm64,$(1))))
HOST_ARCH := $(call arch_name,$(shell uname -m))
abi_name   = $(if $(filter luajit,$(1)),luajit,$(subst .,,$(1)))
# optimised, without -g, stripped (Apple's linker ignores -s, with a warning)
DIST_BUILD = $(MAKE) --no-print-directory BUILD=$(BUILD)/dist OPT=-O2 \
  CFLAGS=$(if $(filter Darwin,$(HOST_OS)),,-s)

dist:
	@sh tools/deps.sh $(if $(filter no,$(WINDOWS)),dist-linux,dist)
	@$(MAKE) --no-print-directory dist-folder

dist-folder:
	@rm -rf $(DIST_SAT) $(DIST_ZIP)
	@mkdir -p $(DIST_SAT)/native $(DIST_SAT)/pure $(DIST_SAT)/library
	cp lua/sat/*.lua LICENSE $(DIST_SAT)/
	cp lua/sat/pure/*.lua $(DIST_SAT)/pure/
	cp library/*.lua $(DIST_SAT)/library/
	printf '%s\n' '-- Made by make dist: require("sat.core") loads native/<platform> (sat/loader.lua).' \
	  'return require("sat.loader").load(...)' >$(DIST_SAT)/core.lua
ifeq ($(HOST_OS),Darwin)
	@for lua in $(DIST_LUAS); do \
	  $(DIST_BUILD) LUA=$$lua macos || exit 1; \
	  for arch in $(MACOS_ARCHS); do \
	    name=$$(echo $$arch | sed 's/^x86_64$$/x64/'); abi=$$(echo $$lua | sed 's/^lua5\./lua5/'); \
	    cp $(BUILD)/dist/macos-$$arch/$$lua/sat/core.so $(DIST_SAT)/native/macos-$$name-$$abi.so || exit 1; \
	  done; \
	done
else
	@$(foreach lua,$(DIST_LUAS),$(DIST_BUILD) LUA=$(lua) all && \
	  cp $(BUILD)/dist/$(lua)/sat/core.so \
	    $(DIST_SAT)/native/$(HOST_SYS)-$(HOST_ARCH)-$(call abi_name,$(lua)).so && ) true
endif
ifneq ($(WINDOWS),no)
	@$(MAKE) --no-print-directory windows
	@$(foreach lua,$(DIST_LUAS),cp $(WIN_OUT)/$(lua)/sat/core.dll \
	    $(DIST_SAT)/native/windows-x64-$(call abi_name,$(lua)).dll && ) true
endif
	@for lua in $(DIST_LUAS); do \
	  LUA_PATH='$(DIST)/?.lua;$(DIST)/?/init.lua' LUA_CPATH='' $$lua spec/dist/check.lua $(DIST_SAT) \
	    || exit 1; \
	done
	cd $(DIST) && zip -qrX $(notdir $(DIST_ZIP)) sat
	@echo "dist: $(DIST_SAT)/ and $(DIST_ZIP): $$(cd $(DIST_SAT) && ls native | tr '\n' ' ')"

# ---- Windows, cross-built with mingw-w64 --------------------------------------------------
# make windows: sat/core.dll for 64-bit Windows, build/windows-x64/<lua>/sat/core.dll, for
# LuaJIT 2.1 (importing lua51.dll, as LÖVE ships it) and Lua 5.4 (lua54.dll). Each links
# against a Windows build of that Lua (make windows-luas: luajit.exe + lua51.dll, lua.exe +
# lua54.dll under build/windows-x64/vm/), cross-built from Debian's source packages, which
# apt-get source fetches once (it needs a deb-src entry: tools/deps.sh windows adds it as
# root); the windows suite runs the specs with them under wine. Other source trees:
# WIN_LUAJIT_SRC=... WIN_LUA54_SRC=... The .def file exports luaopen_sat_core alone.
WIN_CROSS      ?= x86_64-w64-mingw32-
WIN_CC         := $(WIN_CROSS)gcc
WIN_OUT        := $(BUILD)/windows-x64
WIN_SRC        := $(WIN_OUT)/src
WIN_VM         := $(WIN_OUT)/vm
WIN_LUAJIT_SRC ?= $(WIN_SRC)/luajit
WIN_LUA54_SRC  ?= $(WIN_SRC)/lua5.4
WIN_LUADLL_luajit := lua51.dll
WIN_LUADLL_lua5.4 := lua54.dll
WIN_LUA_HDR    := lua.h lualib.h lauxlib.h luaconf.h

windows: $(WIN_OUT)/luajit/sat/core.dll $(WIN_OUT)/lua5.4/sat/core.dll
# The specs' helper (see test-helpers), for the windows suite.
windows-helpers: $(WIN_OUT)/luajit/failalloc.dll $(WIN_OUT)/lua5.4/failalloc.dll \
  $(WIN_OUT)/luajit/satmath.dll $(WIN_OUT)/lua5.4/satmath.dll
windows-luas: $(WIN_VM)/luajit/.built $(WIN_VM)/lua5.4/.built

$(WIN_OUT)/sat.def:
	@mkdir -p $(dir $@)
	printf 'EXPORTS\n    luaopen_sat_core\n' >$@

$(WIN_OUT)/%/sat/core.dll: $(CORE_SRC) $(BIND_SRC) $(HEADERS) $(WIN_VM)/%/.built $(WIN_OUT)/sat.def
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WARN) $(FP) -O2 $(MODFLAGS) -shared -s $(BIND_INC) -I$(WIN_VM)/$*/include -o $@ \
	  $(CORE_SRC) $(BIND_SRC) $(WIN_OUT)/sat.def $(WIN_VM)/$*/$(WIN_LUADLL_$*)

$(WIN_OUT)/%/failalloc.dll: spec/helpers/failalloc.c $(WIN_VM)/%/.built
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WARN) $(FP) -O2 -shared -s -I$(WIN_VM)/$*/include -o $@ spec/helpers/failalloc.c \
	  $(WIN_VM)/$*/$(WIN_LUADLL_$*)

$(WIN_OUT)/%/satmath.dll: spec/helpers/satmath.c src/core/sat_math.c $(CORE_HDR) $(WIN_VM)/%/.built
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WARN) $(FP) -O2 -shared -s $(CORE_INC) -I$(WIN_VM)/$*/include -o $@ \
	  spec/helpers/satmath.c src/core/sat_math.c $(WIN_VM)/$*/$(WIN_LUADLL_$*)

# Debian's source package, unpacked with its patches (dpkg-source keeps the files' dates).
$(WIN_SRC)/%/src/lua.h:
	@mkdir -p $(WIN_SRC)
	cd $(WIN_SRC) && rm -rf $* $*_* && apt-get source --download-only -qq $* && \
	  dpkg-source -q -x $*_*.dsc $*

# LuaJIT's own makefile cross-builds (its build tools for the host, the DLL for Windows), in a
# copy of the tree; MAKEFLAGS is emptied so that nothing of this make (CC=...) reaches it.
$(WIN_VM)/luajit/.built: $(WIN_LUAJIT_SRC)/src/lua.h
	rm -rf $(WIN_OUT)/luajit-build $(WIN_VM)/luajit
	mkdir -p $(WIN_VM)/luajit/include $(WIN_VM)/luajit/lua/jit
	cp -r $(WIN_LUAJIT_SRC) $(WIN_OUT)/luajit-build
	MAKEFLAGS= $(MAKE) -C $(WIN_OUT)/luajit-build -j2 HOST_CC=gcc CROSS=$(WIN_CROSS) \
	  TARGET_SYS=Windows BUILDMODE=dynamic CFLAGS= LDFLAGS= >$(WIN_OUT)/luajit-build.log 2>&1 \
	  || { tail -n 30 $(WIN_OUT)/luajit-build.log; exit 1; }
	cp $(WIN_OUT)/luajit-build/src/luajit.exe $(WIN_OUT)/luajit-build/src/lua51.dll $(WIN_VM)/luajit/
	cp $(addprefix $(WIN_OUT)/luajit-build/src/,$(WIN_LUA_HDR) luajit.h) $(WIN_VM)/luajit/include/
	cp $(WIN_OUT)/luajit-build/src/jit/*.lua $(WIN_VM)/luajit/lua/jit/
	touch $@

# Lua 5.4 as its makefile's mingw target builds it: lua54.dll, and lua.exe using it.
$(WIN_VM)/lua5.4/.built: $(WIN_LUA54_SRC)/src/lua.h
	rm -rf $(WIN_VM)/lua5.4
	mkdir -p $(WIN_VM)/lua5.4/include
	$(WIN_CC) -O2 -DLUA_COMPAT_5_3 -DLUA_BUILD_AS_DLL -shared -s -o $(WIN_VM)/lua5.4/lua54.dll \
	  $$(ls $(WIN_LUA54_SRC)/src/*.c | grep -v -e '/lua\.c$$' -e '/luac\.c$$')
	$(WIN_CC) -O2 -DLUA_COMPAT_5_3 -DLUA_BUILD_AS_DLL -s -o $(WIN_VM)/lua5.4/lua.exe \
	  $(WIN_LUA54_SRC)/src/lua.c $(WIN_VM)/lua5.4/lua54.dll
	cp $(addprefix $(WIN_LUA54_SRC)/src/,$(WIN_LUA_HDR)) $(WIN_VM)/lua5.4/include/
	touch $@

# ---- macOS (NOT tested here: this project has no Mac) -------------------------------------
# make macos, run on a Mac with Xcode's command line tools and the Lua's headers (Homebrew:
# brew install luajit lua pkg-config; or LUA_INC=-I...): one bundle per architecture,
# build/macos-<arch>/$(LUA)/sat/core.so. No Lua library is linked: -undefined dynamic_lookup
# leaves the Lua API to the program that loads it (LÖVE, lua, luajit). make dist on a Mac
# names them native/macos-arm64-<abi>.so and native/macos-x64-<abi>.so.
MACOS_ARCHS ?= arm64 x86_64
MACOS_CC    ?= clang

macos: $(foreach a,$(MACOS_ARCHS),$(BUILD)/macos-$(a)/$(LUA)/sat/core.so)

$(BUILD)/macos-%/$(LUA)/sat/core.so: $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(MACOS_CC) $(WARN) $(FP) $(OPT) $(CFLAGS) $(MODFLAGS) -fPIC -arch $* -bundle \
	  -undefined dynamic_lookup $(BIND_INC) $(LUA_INC) -o $@ $(CORE_SRC) $(BIND_SRC)

# ---- native files the dist loader must refuse ----------------------------------------------
# make loader-fixtures: build/fixtures/, for spec/loader_spec.lua and the dist suite: a
# library exporting luaopen_sat_core (spec/helpers/stub_module.c) cross-built for another
# machine (foreign.so: aarch64 here, x86-64 on an arm64 host) and for Windows
# (windows-x64.dll, mingw-w64). Each is skipped with a note when its compiler is missing;
# the specs then patch a copy of the module instead.
FIXTURES   := $(BUILD)/fixtures
FOREIGN_CC ?= $(if $(filter arm64,$(HOST_ARCH)),x86_64-linux-gnu-gcc,aarch64-linux-gnu-gcc)
.PHONY: loader-fixtures
loader-fixtures: $(FIXTURES)/foreign.so $(FIXTURES)/windows-x64.dll

$(FIXTURES)/foreign.so: spec/helpers/stub_module.c
	@mkdir -p $(dir $@)
	@if command -v $(FOREIGN_CC) >/dev/null 2>&1; then \
	  echo "$(FOREIGN_CC) ... -o $@"; \
	  $(FOREIGN_CC) $(WARN) -O2 $(SHARED) -o $@ spec/helpers/stub_module.c; \
	else echo "note: no $(FOREIGN_CC): $@ not built"; fi

$(FIXTURES)/windows-x64.dll: spec/helpers/stub_module.c
	@mkdir -p $(dir $@)
	@if command -v $(WIN_CC) >/dev/null 2>&1; then \
	  echo "$(WIN_CC) ... -o $@"; \
	  $(WIN_CC) $(WARN) -O2 -shared -s -o $@ spec/helpers/stub_module.c; \
	else echo "note: no $(WIN_CC): $@ not built"; fi

# ---- make repl ----------------------------------------------------------------------------
# $(LUA) (lua5.4 unless LUA=luajit, ...) interactive, with this checkout's sat on its paths and
# already required as the global sat; one line of hint first. The REPL prints with tostring.
REPL_INIT := sat = require("sat") \
  local eq = (jit or _VERSION == "Lua 5.1") and "=" or "" \
  print(sat._VERSION .. " is loaded as the global sat. Try: " .. eq .. \
    "sat.collide(sat.circle(0, 0, 1), sat.box(0.5, -1, 2, 2))  (API: README.md)")

repl:
	@sh tools/deps.sh lua $(LUA)
	@$(MAKE) --no-print-directory -s all
	@LUA_PATH='$(CURDIR)/lua/?.lua;$(CURDIR)/lua/?/init.lua;;' \
	  LUA_CPATH='$(CURDIR)/$(MODDIR)/?.so;;' $(LUA) -i -e '$(REPL_INIT)'
