#' Example scenarios and an example pilot, shipped with the package
#'
#' The repository's scenarios (`quickstart.yaml`, the AWARE-iOS case study, the
#' sampling-bias demo, ...) and a simulated pilot in the per-prompt csv format
#' (`pilot.csv`: 24 participants, six fixed blocks a day for ten days, its
#' generating scenario `scenarios/pilot-example.yaml`), to run and calibrate
#' without a clone of the repository.
#'
#' @param name A file name: `"quickstart.yaml"` (any scenario) or
#'   `"pilot.csv"`. `NULL` lists them.
#' @return The file's path (or, without `name`, the names available).
#' @examples
#' esm_example()
#' \dontrun{
#' r <- esm_run(esm_example("quickstart.yaml"))
#' cal <- esm_calibrate(esm_example("pilot.csv"), format = "csv")
#' }
#' @export
esm_example <- function(name = NULL) {
  root <- system.file("extdata", package = "esmsim")
  available <- c(sort(list.files(file.path(root, "scenarios"), pattern = "\\.yaml$")), "pilot.csv")
  if (is.null(name)) return(available)
  if (!is.character(name) || length(name) != 1 || !name %in% available) {
    esm_abort(sprintf("esmsim: no example '%s'; the examples: %s", paste(name, collapse = ", "),
                      paste(available, collapse = ", ")), "esmsim_run_error")
  }
  if (name == "pilot.csv") file.path(root, "pilot.csv") else file.path(root, "scenarios", name)
}
