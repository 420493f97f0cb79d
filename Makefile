# esmsim: the two commands a new user runs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
ESMSIM := .build/release/esmsim
# The CPU the release build's Swift code is compiled for: this machine's x86-64-v3 level when
# it has one (about 6 % faster, same results bit for bit: scripts/cpu-target.sh); `CPU=` for
# the compiler's baseline, which runs on any x86-64.
CPU ?= $(shell bash scripts/cpu-target.sh)
# Link-time optimisation across the modules and no frame pointers: 4.5 % fewer instructions
# on the city study's workload; the Swift runtime and Foundation linked into the binary
# (--static-swift-stdlib): no symbol lookups of the dynamic linker at every start, 2.1 % fewer.
# The optimisation is LLVM's thin mode, which links on every core: its link takes 250 s where
# the full mode's took 340 s, for 1.4 % more instructions (docs/performance.md, 2026-11-30),
# so that `make demo` stays within 10 minutes on a fresh 2-core machine.
# The results are the same bit for bit (docs/performance.md); `OPTIMIZE=` builds without them.
OPTIMIZE ?= --experimental-lto-mode=thin --omit-frame-pointers --static-swift-stdlib
RELEASE_FLAGS := $(if $(CPU),-Xswiftc -target-cpu -Xswiftc $(CPU)) $(OPTIMIZE)

.PHONY: validate-real test-validate-real examples all deps deps-test build release demo serve dist test-dist test test-swift test-clients test-r test-python test-browser power test-slurm fuzz sanitize notebooks check-darwin-branches validate check-validate bench bench-simpy clean
VENV := .venv

all: release

## deps: install what is missing (GNU GSL, SQLite, pkg-config); quiet when nothing is.
deps:
	@bash scripts/install-deps.sh

## deps-test: also headless Chromium (report test), Python with venv (notebooks), R and its packages (r/esmsim).
deps-test:
	@bash scripts/install-deps.sh test

## release: build the esmsim command in release mode.
release: deps
	$(SWIFT) build -c release --product esmsim $(RELEASE_FLAGS)

## demo: build, then run the quickstart study and print its summary (results in demo-results/).
demo: release
	$(ESMSIM) run scenarios/quickstart.yaml --output demo-results --force

## serve: the interactive planner in the browser (prints its URL; Ctrl-C stops it).
serve: release
	$(ESMSIM) serve

## dist: a self-contained esmsim (static Swift runtime, GSL, SQLite; x86-64 baseline) in dist/.
dist: deps
	bash scripts/dist.sh

## test-dist: the dist tarball in a bare Debian root: outputs byte-identical to the ordinary build's.
test-dist: dist release
	bash scripts/test-dist.sh

## test: every test: swift test, the R package's tests, the planner in a browser, then the notebooks, headless, in .venv/.
test: test-swift
	$(MAKE) --no-print-directory test-clients

## test-swift: swift test in its own build folder (.build/tests), apart from the release build in .build.
test-swift: deps-test
	$(SWIFT) test --build-path .build/tests

## test-clients: the tests that run the release build from outside: the R and Python packages, the corpus script, the planner in a browser, the notebooks.
test-clients: release
	$(MAKE) --no-print-directory test-r
	$(MAKE) --no-print-directory test-python
	$(MAKE) --no-print-directory test-validate-real
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory notebooks

## test-python: the Python package (python/) installed into a fresh venv, then its tests against this build.
test-python: release
	rm -rf $(VENV)-python && python3 -m venv $(VENV)-python
	$(VENV)-python/bin/pip install -q --disable-pip-version-check ./python[test]
	cd python && ESMSIM=$(CURDIR)/$(ESMSIM) $(CURDIR)/$(VENV)-python/bin/python -m pytest -q tests

## test-browser: `esmsim serve` in headless Chromium (Selenium, chromium-driver): the form, the export, errors, hostile requests, screenshots.
test-browser: release $(VENV)/.browser
	ESMSIM=$(CURDIR)/$(ESMSIM) $(VENV)/bin/python Tests/Browser/test_planner.py

$(VENV)/.browser: Tests/Browser/requirements.txt
	test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/Browser/requirements.txt
	touch $@

## test-r: the R package's testthat suite (r/esmsim) against the release build.
test-r: release
	ESMSIM=$(CURDIR)/$(ESMSIM) Rscript -e 'testthat::test_local("r/esmsim", stop_on_failure = TRUE)'

## power: the power grid of docs/power.md (9 designs x 200 replications, twice; minutes), printed.
power: release
	ESMSIM=$(CURDIR)/$(ESMSIM) Rscript scripts/power-grid.R

## test-slurm: a sweep as a real Slurm job array on this machine (installs Slurm and munge).
test-slurm: release
	bash scripts/slurm-test.sh

## fuzz: every reader of outside input under libFuzzer and ASan, FUZZ_SECONDS (120) each.
fuzz: deps
	bash scripts/fuzz.sh

## sanitize: the test suite with the internal checks compiled in (ESMSIM_INTERNAL_CHECKS: the
## heap's invariants after every change), under the address sanitizer (leaks of the
## toolchain's own libraries suppressed: Tests/Support/lsan.supp), then the thread sanitizer.
sanitize: deps
	$(SWIFT) test --build-path .build/checks -Xswiftc -DESMSIM_INTERNAL_CHECKS
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Support/lsan.supp $(SWIFT) test --build-path .build/asan --sanitize=address
	$(SWIFT) test --build-path .build/tsan --sanitize=thread

## notebooks: execute the notebooks (each asserts on its results).
notebooks: release $(VENV)/.installed
	ESMSIM=$(CURDIR)/$(ESMSIM) $(VENV)/bin/python scripts/run_notebooks.py

$(VENV)/.installed: notebooks/requirements.txt python/pyproject.toml python/src/esmsim/__init__.py
	test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r notebooks/requirements.txt
	$(VENV)/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps ./python
	touch $@

## check-darwin-branches: compile the non-Linux branches of every `#if os(Linux)` on this machine
## (what a macOS build takes instead of /proc), in a build folder of its own. Not a macOS build.
check-darwin-branches:
	swift build -c release --build-path .build/check-darwin -Xswiftc -DESMSIM_CHECK_DARWIN

## validate: rerun the validation figures and rewrite docs/validation.md.
## (the document is rewritten either way; the target fails when a check FAILS)
validate: release
	python3 scripts/validate.py $(ESMSIM) > docs/validation.md.partial; status=$$?; \
	  mv docs/validation.md.partial docs/validation.md; exit $$status

## check-validate: the validation figures into a scratch file (docs/validation.md untouched); fails on any
## check that FAILS but those the document explains (listed here by name). CI runs it.
KNOWN_FAILS = --known-fail=rintala-day5
check-validate: release
	python3 scripts/validate.py $(ESMSIM) $(KNOWN_FAILS) > "$$(mktemp)"

## bench: the benchmarks, with figures printed and written to bench/results.json.
bench: release
	$(ESMSIM) bench kernel --mode per-entity --entities 10000 --events-per-entity 100 --seed 1 --results bench/results.json
	$(ESMSIM) bench kernel --mode global --entities 10000 --events-per-entity 100 --seed 1 --results bench/results.json
	$(ESMSIM) bench random
	$(ESMSIM) bench schedules
	$(ESMSIM) bench case-study --results bench/results.json
	$(ESMSIM) bench city --results bench/results.json
	$(ESMSIM) bench scaling --results bench/results.json
	$(ESMSIM) bench design --results bench/results.json
	$(ESMSIM) bench planner --results bench/results.json

clean:
	rm -rf .build

## bench-simpy: the same hold model in SimPy, for the comparison in the README.
bench-simpy:
	@test -x .venv-bench/bin/python || { python3 -m venv .venv-bench && .venv-bench/bin/pip install -q simpy==4.1.1; }
	.venv-bench/bin/python bench/simpy_hold.py

## validate-real: esmsim against real ESM studies (ESMSIM_CORPUS=/path make validate-real): each study's
## default prediction, its split-half check and the leave-one-study-out defaults; rewrites the table in
## docs/validation.md. The raw files are not in the repository (validation/real/README.md); without
## ESMSIM_CORPUS the script says so and checks nothing. VALIDATE_REAL_FLAGS passes options through.
VALIDATE_REAL_FLAGS ?=
validate-real: release
	python3 scripts/validate_real.py $(ESMSIM) --write $(VALIDATE_REAL_FLAGS)

## test-validate-real: the real-studies script's own tests (no corpus, no esmsim needed); part of make test.
test-validate-real:
	python3 -m unittest discover -s scripts -p 'test_validate_real.py'

## examples: copy the scenarios and the example pilot into the R and Python packages and the
## dist tarball's source (their copies are tracked; the packages' tests check they match).
examples:
	bash scripts/copy-examples.sh

## r-vignette: build the R package's vignette into r/esmsim/inst/doc (vignette() finds it once installed).
r-vignette:
	bash scripts/build-r-vignette.sh
