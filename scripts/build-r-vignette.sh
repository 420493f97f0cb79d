#!/usr/bin/env bash
# Builds the R package's vignette into r/esmsim/inst/doc (the HTML, its R code and its source),
# where vignette(package = "esmsim") finds it in a package installed from the repository
# folder (R CMD INSTALL does not build vignettes; R CMD build would). Run after changing
# r/esmsim/vignettes/; the package's tests check that inst/doc holds the current source.
set -euo pipefail
cd "$(dirname "$0")/../r/esmsim"
lib=$(mktemp -d)
trap 'rm -rf "$lib"' EXIT
R CMD INSTALL -l "$lib" . >/dev/null
mkdir -p inst/doc
for rmd in vignettes/*.Rmd; do
  R_LIBS="$lib" Rscript -e "rmarkdown::render('$rmd', output_dir = 'inst/doc', quiet = TRUE); knitr::purl('$rmd', output = file.path('inst/doc', sub('Rmd\$', 'R', basename('$rmd'))), quiet = TRUE)"
  cp "$rmd" inst/doc/
done
echo "r vignettes: $(ls vignettes/*.Rmd | wc -l) built into r/esmsim/inst/doc"
