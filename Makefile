# The two commands of the README's quick start, and the tasks behind them.
#   make demo   imports Samples/ into a demo store, shows it, exports it
#   make test   runs the style gate (make lint) and the whole test suite
#   make fuzz-smoke   a short libFuzzer run of every format's harness (docs/reliability.md)
#   make bench  the benchmark of docs/benchmarks.md (BENCH_SIZES=1000 for a smoke test)
SHELL := /bin/bash
SWIFT ?= swift
DEMO_STORE ?= $(CURDIR)/.build/demo/reminders.sqlite
FUZZ_SMOKE_SECONDS ?= 20

.PHONY: demo test build release deps test-deps migrations check-boundaries bench clean man fuzz-smoke lint format

deps:
	@./Scripts/bootstrap.sh

test-deps:
	@./Scripts/bootstrap.sh --test

build: deps
	$(SWIFT) build

# Test-only hooks are compiled out of release builds (docs/migrations.md, "Test hook").
release: deps
	$(SWIFT) build -c release
	@if grep -aq REMCONV_TEST_PAUSE_AT_STEP .build/release/remconv; then \
	  echo "error: the release binary contains the test hook REMCONV_TEST_PAUSE_AT_STEP" >&2; exit 1; fi

demo: release
	@./Scripts/demo.sh "$(DEMO_STORE)"

test: test-deps lint
	@./Scripts/check-boundaries.sh
	@./Scripts/embed-migrations.sh --check
	@./Scripts/make-fixture-stores.sh --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

fuzz-smoke: deps
	@set -e; for format in $$(./Scripts/fuzz.sh --formats); do \
	  ./Scripts/fuzz.sh "$$format" $(FUZZ_SMOKE_SECONDS); \
	done

# The style gate: swift format with the checked-in .swift-format; `make format` applies it.
SWIFT_SOURCES := Sources Tests Fuzz Package.swift

lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)

format:
	$(SWIFT) format format --in-place --recursive $(SWIFT_SOURCES)

migrations:
	./Scripts/embed-migrations.sh

# The man page, generated from the same command definitions as --help (a test checks it).
man: build
	$(SWIFT) run -q remconv man > docs/remconv.1

bench:
	@./Scripts/bootstrap.sh --bench
	@bench/run.sh
	@bench/sync-caldav.sh

check-boundaries:
	./Scripts/check-boundaries.sh

clean:
	rm -rf .build
