#' Where the esmsim program is
#'
#' Looks in this order: the option `esmsim.path`, the environment variable
#' `ESMSIM`, `esmsim` on the `PATH`, then the self-contained build (`make dist`)
#' unpacked into `tools::R_user_dir("esmsim", "data")`.
#'
#' @return The program's path. An error of class `esmsim_not_found` when none
#'   of the three names an executable file.
#' @export
esmsim_path <- function() {
  candidates <- list(
    list(getOption("esmsim.path"), "option esmsim.path"),
    list(Sys.getenv("ESMSIM", unset = ""), "environment variable ESMSIM")
  )
  for (c in candidates) {
    path <- c[[1]]
    if (is.null(path) || !nzchar(path)) next
    if (!file.exists(path) || dir.exists(path) || file.access(path, 1) != 0) {
      esm_abort(
        sprintf("esmsim: %s is %s, which is not an executable file", c[[2]], path),
        "esmsim_not_found"
      )
    }
    return(normalizePath(path))
  }
  found <- Sys.which("esmsim")
  if (nzchar(found)) return(unname(found))
  # The self-contained build (make dist), unpacked into the user's data folder.
  unpacked <- Sys.glob(file.path(tools::R_user_dir("esmsim", "data"), "esmsim-*-linux-x86_64", "esmsim"))
  if (length(unpacked)) return(unpacked[[length(unpacked)]])
  esm_abort(
    paste(
      "esmsim: the esmsim program was not found.",
      "Build it (make release), then set options(esmsim.path = \"path/to/esmsim\")",
      "or the environment variable ESMSIM, or put it on the PATH."
    ),
    "esmsim_not_found"
  )
}

#' The esmsim program's version
#'
#' @return A [package_version], for example `0.1.0`.
#' @export
esm_version <- function() {
  out <- esm_exec(c("--version"))
  # "0.1.0 (built from source)": the version is the first word.
  package_version(strsplit(trimws(out$stdout), " ", fixed = TRUE)[[1]][[1]])
}

# Runs esmsim with `args`; on a non-zero exit raises the condition its error
# describes (see errors.R). `echo` passes its output through. esmsim is asked to
# write its errors as JSON (ESMSIM_ERROR_FORMAT), so nothing of its English is parsed.
esm_exec <- function(args, echo = FALSE, scenario = NULL, call = parent.frame()) {
  result <- processx::run(
    esmsim_path(), args,
    error_on_status = FALSE, echo = echo, spinner = FALSE,
    env = c(Sys.getenv(), ESMSIM_ERROR_FORMAT = "json")
  )
  if (result$status != 0) {
    esm_fail(result$stderr, result$status, scenario = scenario, call = call)
  }
  result
}
