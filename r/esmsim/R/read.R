#' Read a results folder
#'
#' Reads the tables an `esmsim run` wrote (`docs/outputs.md` describes every
#' column) into tibbles with proper types: times as POSIXct, counts and indices
#' as integers, 0/1 flags as logicals, the rest as numbers or text; an empty
#' field is `NA`.
#'
#' Times are the participant's clock times as esmsim writes them (without a
#' zone); they are read as UTC so that the clock reads the same. The
#' participant's zone is `participants$time_zone`.
#'
#' @param folder The results folder.
#' @return A list of class `esm_results` with `summary` (every metric with its
#'   intervals) and, where the run wrote them, `prompts`, `participants`,
#'   `coverage` and `coverage_summary`; `manifest` (the run's manifest, a list)
#'   and `folder`.
#' @export
esm_read <- function(folder) {
  if (!dir.exists(folder)) {
    esm_abort(sprintf("esmsim: no results folder %s", folder), "esmsim_run_error")
  }
  tables <- list(
    summary = "summary.csv", prompts = "prompts.csv", participants = "participants.csv",
    coverage = "coverage.csv", coverage_summary = "coverage_summary.csv"
  )
  out <- list()
  for (name in names(tables)) {
    path <- file.path(folder, tables[[name]])
    if (file.exists(path)) out[[name]] <- read_table(path, schemas[[name]])
  }
  manifest <- file.path(folder, "manifest.json")
  out$manifest <- if (file.exists(manifest)) jsonlite::read_json(manifest) else NULL
  out$folder <- normalizePath(folder)
  structure(out, class = "esm_results")
}

#' @export
print.esm_results <- function(x, ...) {
  cat("esmsim results in", x$folder, "\n")
  for (name in c("summary", "prompts", "participants", "coverage", "coverage_summary")) {
    if (!is.null(x[[name]])) cat(sprintf("  $%-17s %d rows x %d columns\n", name, nrow(x[[name]]), ncol(x[[name]])))
  }
  invisible(x)
}

# Column types by table; a column not named here (a questionnaire's item, a
# later addition) is typed by its values.
schemas <- list(
  summary = list(
    character = c("variant", "metric"),
    integer = c("n"),
    double = c("mean", "sd", "ci_low", "ci_high", "participant_ci_low", "participant_ci_high")
  ),
  prompts = list(
    character = c("variant", "questionnaire", "status", "reason", "context"),
    integer = c("replication", "participant", "prompt", "day"),
    time = c("scheduled", "delivered", "noticed", "opened", "submitted"),
    double = c("latency_s", "true_state", "reported_state", "due_state"),
    logical = c("received", "volunteered", "with_others", "due_with_others")
  ),
  participants = list(
    character = c("variant", "device", "os", "time_zone"),
    integer = c("replication", "participant", "scheduled", "signals", "completed", "volunteered"),
    double = c("response_rate", "median_response_s", "reported_mean", "true_mean", "bias"),
    logical = c("dropped_out")
  ),
  coverage = list(
    character = c("variant", "device", "os", "sensor", "status"),
    integer = c("replication", "participant", "day", "hour", "expected", "collected", "received")
  ),
  coverage_summary = list(
    character = c("variant", "device", "sensor"),
    double = c("comp", "incomp", "loss")
  )
)

time_pattern <- "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$"

read_table <- function(path, schema) {
  raw <- utils::read.csv(
    path, colClasses = "character", na.strings = character(), check.names = FALSE,
    stringsAsFactors = FALSE, encoding = "UTF-8"
  )
  typed <- lapply(names(raw), function(column) {
    type <- "guess"
    for (t in names(schema)) if (column %in% schema[[t]]) type <- t
    convert(raw[[column]], type, column, path)
  })
  names(typed) <- names(raw)
  tibble::as_tibble(typed)
}

convert <- function(x, type, column, path) {
  missing <- x == ""
  value <- x
  value[missing] <- NA
  if (type == "guess") {
    present <- value[!missing]
    type <- if (!length(present)) {
      "character"
    } else if (all(grepl(time_pattern, present))) {
      "time"
    } else if (all(grepl("^-?[0-9]+$", present)) && all(abs(as.numeric(present)) < .Machine$integer.max)) {
      "integer"
    } else if (!anyNA(suppressWarnings(as.numeric(present)))) {
      "double"
    } else {
      "character"
    }
  }
  out <- switch(type,
    character = value,
    integer = suppressWarnings(as.integer(value)),
    double = suppressWarnings(as.numeric(value)),
    logical = suppressWarnings(as.integer(value)) == 1L,
    time = as.POSIXct(value, format = "%Y-%m-%dT%H:%M:%OS", tz = "UTC")
  )
  bad <- !missing & is.na(out)
  if (any(bad)) {
    esm_abort(
      sprintf("esmsim: %s: column %s: '%s' is not a valid %s", path, column, x[bad][[1]], type),
      "esmsim_read_error"
    )
  }
  out
}
