# The esmsim program (make test sets ESMSIM to the freshly built one): the tests that
# run it are skipped, and reported as skipped, where it cannot be found.
skip_without_esmsim <- function() {
  found <- tryCatch({
    esmsim_path()
    TRUE
  }, esmsim_not_found = function(e) FALSE)
  skip_if_not(found, "esmsim not found: set ESMSIM or options(esmsim.path)")
}

# The repository's scenarios, when the package is tested from its place in the repository.
repository_file <- function(...) {
  path <- file.path(test_path(), "..", "..", "..", "..", ...)
  if (!file.exists(path)) skip(paste("not in the esmsim repository:", file.path(...)))
  normalizePath(path)
}

# A small study as an R list.
small_study <- function(...) {
  modifyList(list(
    name = "small", seed = 7, duration = "3d",
    population = list(size = 30),
    protocol = list(window = "08:00-22:00", schedule = list(algorithm = "fixed-blocks", per_day = 4), expiry = "30m")
  ), list(...))
}
