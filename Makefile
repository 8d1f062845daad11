# sat - 2D SAT collision for Lua, with a C core.
#   make              build the Lua 5.4 module (LUA=luajit | lua5.1 | lua5.3 for others)
#   make test         install missing tools, build, run every suite, print the total
#   make demo         run the scripted demo scene
#   make bench        optimised benchmarks (JSON=1 for one JSON object per line)
#   make fuzz         run the libFuzzer target (FUZZ_SECONDS=60)
#   make love-demo    run the LÖVE demo
#   make install      PREFIX=/usr/local DESTDIR=
#   make clean

LUA      ?= lua5.4
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
FUZZ_SECONDS ?= 60

WARN     := -std=c99 -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wpointer-arith
OPT      ?= -O2 -g
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

CORE_SRC := $(filter-out src/lsat%.c,$(wildcard src/*.c))
BIND_SRC := $(wildcard src/lsat*.c)
HEADERS  := $(wildcard src/*.h)

MODDIR   := $(BUILD)/$(LUA)
MODULE   := $(MODDIR)/sat/core.so

.PHONY: all test demo bench fuzz love-demo install clean deps check-c lint

all: $(MODULE)

# One shared object: the core and the binding, no -llua (the host provides the symbols).
# SAT_HIDDEN: it exports luaopen_sat_core alone, so its own calls are direct (src/sat.h).
# -fno-plt: its calls into Lua go through the GOT, not a PLT stub (sat.test makes 5 of them).
MODFLAGS := -DSAT_HIDDEN -fno-plt
$(MODULE): $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(MODFLAGS) -fPIC -shared $(LUA_INC) -o $@ $(CORE_SRC) $(BIND_SRC) -lm

# ---- C core tests -------------------------------------------------------------------------
CTEST_SRC := $(wildcard spec/c/test_*.c)
CTEST_BIN := $(BUILD)/c/tests
CTEST_SAN := $(BUILD)/c/tests-san
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(CTEST_BIN): $(CORE_SRC) $(CTEST_SRC) $(HEADERS) spec/c/ctest.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) -Isrc -Ispec/c -o $@ $(CORE_SRC) $(CTEST_SRC) -lm

$(CTEST_SAN): $(CORE_SRC) $(CTEST_SRC) $(HEADERS) spec/c/ctest.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g $(SAN) -Isrc -Ispec/c -o $@ $(CORE_SRC) $(CTEST_SRC) -lm

FUZZ_BIN := $(BUILD)/fuzz/fuzz_pairs
$(FUZZ_BIN): $(CORE_SRC) spec/c/fuzz_pairs.c $(HEADERS)
	@mkdir -p $(dir $@)
	clang $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -Isrc -o $@ $(CORE_SRC) spec/c/fuzz_pairs.c -lm

fuzz: $(FUZZ_BIN)
	@mkdir -p $(BUILD)/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=512 -artifact_prefix=$(BUILD)/fuzz/ \
	  $(BUILD)/fuzz/corpus

# ---- everything ---------------------------------------------------------------------------
deps:
	@sh tools/deps.sh test

test: deps
	@sh tools/run-tests.sh

demo:
	@sh tools/deps.sh demo
	@$(MAKE) --no-print-directory LUA=lua5.4 all
	@LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='$(BUILD)/lua5.4/?.so;;' lua5.4 examples/demo.lua

love-demo:
	@sh tools/deps.sh love
	@$(MAKE) --no-print-directory LUA=luajit all
	@sh tools/love-run.sh examples/love

bench:
	@sh tools/deps.sh bench
	@sh bench/run.sh

# ---- install ------------------------------------------------------------------------------
LUA_LMOD ?= $(PREFIX)/share/lua/$(LUA_VERSION_DIR)
LUA_CMOD ?= $(PREFIX)/lib/lua/$(LUA_VERSION_DIR)

install: $(MODULE)
	install -d $(DESTDIR)$(LUA_CMOD)/sat $(DESTDIR)$(LUA_LMOD)/sat
	install -m 755 $(MODULE) $(DESTDIR)$(LUA_CMOD)/sat/core.so
	install -m 644 lua/sat/*.lua $(DESTDIR)$(LUA_LMOD)/sat/

clean:
	rm -rf $(BUILD) luacov.* *.rock
