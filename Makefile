# esmsim: the two commands a new user runs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
ESMSIM := .build/release/esmsim

.PHONY: all deps build release demo test bench bench-simpy clean

all: release

## deps: install what is missing (GNU GSL, SQLite, pkg-config); quiet when nothing is.
deps:
	@bash scripts/install-deps.sh

## release: build the esmsim command in release mode.
release: deps
	$(SWIFT) build -c release --product esmsim

## demo: build, then run the main job on a ready scenario and print the result.
demo: release
	@echo "== esmsim $$($(ESMSIM) --version): kernel benchmark (hold model, 10,000 entities x 100 events)"
	@$(ESMSIM) bench kernel --mode per-entity
	@$(ESMSIM) bench kernel --mode global

## test: every test (swift test).
test: deps
	$(SWIFT) test

## bench: the benchmarks, with figures printed.
bench: release
	$(ESMSIM) bench kernel --mode per-entity --entities 10000 --events-per-entity 100 --seed 1
	$(ESMSIM) bench kernel --mode global --entities 10000 --events-per-entity 100 --seed 1
	$(ESMSIM) bench random

clean:
	rm -rf .build

## bench-simpy: the same hold model in SimPy, for the comparison in the README.
bench-simpy:
	@test -x .venv-bench/bin/python || { python3 -m venv .venv-bench && .venv-bench/bin/pip install -q simpy==4.1.1; }
	.venv-bench/bin/python bench/simpy_hold.py
