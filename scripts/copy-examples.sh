#!/usr/bin/env bash
# Copies the example data (scenarios/*.yaml and the example pilot scenarios/pilot-example.csv)
# into the R package (inst/extdata) and the Python package (src/esmsim/data), where
# esm_example() and esmsim.example() find them once installed. The copies are tracked so that
# a package installed from a clone has them; the packages' tests fail when they differ from
# scenarios/ (run `make examples` after changing a scenario).
set -euo pipefail
cd "$(dirname "$0")/.."
for dest in r/esmsim/inst/extdata python/src/esmsim/data; do
  rm -rf "$dest/scenarios"
  mkdir -p "$dest/scenarios"
  cp scenarios/*.yaml "$dest/scenarios/"
  cp scenarios/pilot-example.csv "$dest/pilot.csv"
done
echo "examples: $(ls scenarios/*.yaml | wc -l) scenarios and the example pilot copied into the R and Python packages"
