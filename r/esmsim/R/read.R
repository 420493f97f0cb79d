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
#'   `coverage`, `coverage_summary` and `answers` (the variables' true values and
#'   the items' answers at every prompt, `population.variables`) and `days` (a row
#'   per participant and study day, `outputs.days`); `manifest` (the run's manifest, a list)
#'   and `folder`. `variant` columns are factors in the scenario's order;
#'   participants, prompts and days are numbered from 1. It prints, summarises
#'   and plots ([summary.esm_results()]).
#' @export
esm_read <- function(folder) {
  if (!is.character(folder) || length(folder) != 1 || is.na(folder)) {
    esm_abort("esmsim: esm_read takes one results folder's name", "esmsim_run_error")
  }
  if (!dir.exists(folder)) {
    esm_abort(sprintf("esmsim: no results folder %s", folder), "esmsim_run_error")
  }
  if (!file.exists(file.path(folder, "summary.csv"))) {
    esm_abort(sprintf("esmsim: %s has no summary.csv: not an esmsim results folder", folder), "esmsim_read_error")
  }
  manifest_path <- file.path(folder, "manifest.json")
  manifest <- if (file.exists(manifest_path)) jsonlite::read_json(manifest_path) else NULL
  tables <- list(
    summary = "summary.csv", prompts = "prompts.csv", participants = "participants.csv",
    coverage = "coverage.csv", coverage_summary = "coverage_summary.csv", answers = "answers.csv",
    days = "days.csv"
  )
  out <- list()
  for (name in names(tables)) {
    path <- file.path(folder, tables[[name]])
    if (file.exists(path)) out[[name]] <- read_table(path, manifest_schema(manifest, name))
    # Variants in the scenario's order (manifest.json lists them), not the alphabet's.
    order <- unlist(manifest$variants)
    if (!is.null(out[[name]]) && "variant" %in% names(out[[name]]) && length(order) &&
        all(out[[name]]$variant %in% order)) {
      out[[name]]$variant <- factor(out[[name]]$variant, levels = order)
    }
  }
  out$manifest <- manifest
  out$folder <- normalizePath(folder)
  structure(out, class = "esm_results")
}

#' @export
print.esm_results <- function(x, ...) {
  cat("esmsim results in", x$folder, "\n")
  for (name in c("summary", "prompts", "participants", "days", "coverage", "coverage_summary", "answers")) {
    if (!is.null(x[[name]])) cat(sprintf("  $%-17s %d rows x %d columns\n", name, nrow(x[[name]]), ncol(x[[name]])))
  }
  invisible(x)
}

# A table's column types as esmsim declares them in manifest.json (`tables`): the
# reader's type for each column, by name. A folder written before esmsim declared them
# (or a column it does not list) is typed by its values.
manifest_schema <- function(manifest, table) {
  columns <- manifest$tables[[table]]$columns
  if (is.null(columns)) return(list())
  types <- c(text = "character", integer = "integer", real = "double", flag = "logical", time = "time", unix_ms = "double")
  schema <- list()
  for (column in columns) {
    if (!isTRUE(column$type %in% names(types))) next  # a type this package does not know: by its values
    type <- types[[column$type]]
    schema[[type]] <- c(schema[[type]], column$name)
  }
  schema
}

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
