#!/usr/bin/env bash
# Installs what esmsim needs to build (and, with the argument `test`, to run every test:
# headless Chromium for the report test, Python with venv for the notebooks, R with the R
# package's imports and testthat), and nothing when
# it is all there. Idempotent and quiet when nothing is missing. Debian/Ubuntu: apt-get;
# elsewhere it says what to install and stops.
set -euo pipefail

need_pkgs=()
for_tests=false
[ "${1:-}" = "test" ] && for_tests=true

if ! command -v swift >/dev/null 2>&1; then
  echo "esmsim needs Swift 6 (https://www.swift.org/install/); 'swift' is not on PATH." >&2
  exit 1
fi
command -v pkg-config >/dev/null 2>&1 || need_pkgs+=(pkg-config)
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists gsl; then
  need_pkgs+=(libgsl-dev)
fi
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists sqlite3; then
  need_pkgs+=(libsqlite3-dev)
fi

if $for_tests; then
  command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || need_pkgs+=(chromium-driver)
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    need_pkgs+=(python3 python3-venv)
  fi
  # R and the packages r/esmsim imports and tests with (Debian's builds: CRAN is not needed).
  r_pkgs=(processx jsonlite tibble testthat withr pkgload lme4 lmerTest ggplot2 yaml)
  if ! command -v Rscript >/dev/null 2>&1; then
    need_pkgs+=(r-base-core)
    for p in "${r_pkgs[@]}"; do need_pkgs+=("r-cran-${p,,}"); done
  else
    for p in "${r_pkgs[@]}"; do
      Rscript -e "quit(status = !requireNamespace('$p', quietly = TRUE))" >/dev/null 2>&1 || need_pkgs+=("r-cran-${p,,}")
    done
  fi
fi

if ((${#need_pkgs[@]} == 0)); then
  exit 0
fi

if [ "$(uname -s)" = "Darwin" ]; then
  # macOS (not built or tested by this project: README): Homebrew's GSL, SQLite and pkg-config;
  # Homebrew's sqlite is keg-only, so pkg-config must be told where its .pc file is.
  echo "esmsim needs GSL, SQLite and pkg-config on macOS: brew install gsl sqlite pkg-config, then" >&2
  echo "  export PKG_CONFIG_PATH=\"\$(brew --prefix sqlite)/lib/pkgconfig:\$PKG_CONFIG_PATH\" and run make again." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "esmsim needs: ${need_pkgs[*]} (GNU GSL and SQLite development files). Install them with your package manager, then run make again." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "esmsim needs: ${need_pkgs[*]}; run as root or install them: apt-get install ${need_pkgs[*]}" >&2
    exit 1
  fi
fi

echo "Installing ${need_pkgs[*]} with apt-get…" >&2
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
