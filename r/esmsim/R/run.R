#' Run a scenario
#'
#' Runs `esmsim run` on a scenario and reads its results folder ([esm_read()]).
#'
#' @param scenario A scenario file (YAML or JSON), or the scenario as an R list
#'   (written to a temporary JSON file, which esmsim reads): for example
#'   `list(name = "pilot", duration = "7d", population = list(size = 100))`.
#'   Files a list names (a PACO experiment, an AWARE schedule) are read from
#'   the working folder where their paths are relative.
#' @param output The results folder to create. By default a new folder in
#'   [tempdir()]: nothing is written elsewhere unless asked.
#' @param participants,duration,replications,seed Override the scenario's
#'   population size, length (for example `"7d"`), replications and master seed.
#' @param threads Worker threads (results do not depend on it).
#' @param force Replace `output` if it exists.
#' @param quiet Do not pass esmsim's output (its summary and warnings) through.
#' @param progress Draw a progress bar with the time left (by default in an
#'   interactive session), from the progress lines esmsim writes when asked
#'   (`ESMSIM_PROGRESS=json`).
#' @return An `esm_results` list of tibbles (see [esm_read()]).
#' @section Errors: a problem in the scenario raises a condition of class
#'   `esmsim_scenario_error` (and `esmsim_error`) with the fields `key` (the
#'   key path, for example `"population.size"`), `file`, `line`, `column`,
#'   and, for a list, `element` (for example `"scenario$population$size"`).
#'   Any other failure raises `esmsim_run_error`.
#' @examples
#' \dontrun{
#' r <- esm_run("scenarios/quickstart.yaml", participants = 50)
#' r$summary
#' table(r$prompts$status)
#' # esmsim's default protocol with people like a real study's (docs/model.md, People)
#' s <- list(name = "pilot", duration = "14d",
#'           population = list(size = 200, compliance = list(preset = "fisher2017_mood")))
#' esm_run(s)$summary
#' }
#' @export
esm_run <- function(scenario, output = NULL, participants = NULL, duration = NULL,
                    replications = NULL, seed = NULL, threads = NULL, force = FALSE,
                    quiet = FALSE, progress = interactive()) {
  source <- scenario_file(scenario)
  if (is.null(output)) output <- tempfile("esmsim-results-") else one_path("output", output)
  args <- run_args(source$file, output, participants, duration, replications, seed, threads)
  if (isTRUE(force)) args <- c(args, "--force")
  esm_exec(args, echo = !quiet, scenario = source, call = sys.call(), progress = progress)
  esm_read(output)
}

# A value as a command-line argument: a number in decimal, as esmsim reads it (as.character
# writes 100000 as "1e+05", which esmsim refuses), anything else as text.
arg_text <- function(x) {
  if (!is.numeric(x)) return(as.character(x))
  # Each on its own (format gives a vector one number of decimals: 2.5 made 100000 "100000.0").
  vapply(x, function(v) format(v, scientific = FALSE, trim = TRUE, digits = 15), "")
}

# The arguments of `esmsim run` for a scenario file, an output folder and the overrides given.
run_args <- function(file, output, participants = NULL, duration = NULL, replications = NULL, seed = NULL,
                     threads = NULL) {
  args <- c("run", file, "--output", output)
  add <- function(flag, value) {
    if (is.null(value)) return()
    one_value(sub("^--", "", flag), value)
    # flag=value: a negative number is the option's value, not another option.
    args <<- c(args, paste0(flag, "=", arg_text(value)))
  }
  add("--participants", participants)
  add("--duration", duration)
  add("--replications", replications)
  add("--seed", seed)
  add("--threads", threads)
  args
}

# Refuses an argument that is not one value (a vector gave esmsim's "Unexpected argument", or
# its second value was read as a file; NA was passed as the text "NA").
one_value <- function(name, value) {
  if (length(value) != 1 || (is.atomic(value) && is.na(value))) {
    esm_abort(sprintf("esmsim: %s takes one value, not %s", name,
                      if (length(value) != 1) length(value) else "NA"), "esmsim_run_error")
  }
  invisible(value)
}

# Refuses a path argument that is not one name (NA made a folder named NA).
one_path <- function(name, value) {
  if (!is.character(value) || length(value) != 1 || is.na(value) || !nzchar(value)) {
    esm_abort(sprintf("esmsim: %s is one file or folder name", name), "esmsim_run_error")
  }
  invisible(value)
}

# A scenario given as a file stays one; a list is written as JSON to a temporary file.
scenario_file <- function(scenario) {
  if (is.character(scenario) && length(scenario) == 1) {
    if (!file.exists(scenario)) {
      esm_abort(sprintf("esmsim: no scenario file %s", scenario), "esmsim_run_error")
    }
    return(list(file = scenario, list = NULL))
  }
  if (!is.list(scenario)) {
    esm_abort("esmsim: a scenario is a file name or a list", "esmsim_run_error")
  }
  file <- tempfile("esmsim-scenario-", fileext = ".json")
  # A list has no folder of its own: its import files' relative paths are the working folder's
  # (they were read from the temporary file's folder, where they are not), as in Python.
  jsonlite::write_json(imports_from(scenario, getwd()), file, auto_unbox = TRUE, digits = NA, null = "null")
  list(file = file, list = scenario)
}

#' Compare signal schedules
#'
#' Runs `esmsim schedule compare`: every algorithm drawn on the same days and
#' measured (intensity, gaps, Kolmogorov-Smirnov against uniform, predictability).
#'
#' @param per_day Signals per day.
#' @param window The signalling window, `"HH:MM-HH:MM"`.
#' @param days Days to draw.
#' @param min_gap Fixed blocks: the minimum gap between signals, minutes.
#' @param seed Master seed.
#' @param ... Further options of `esmsim schedule compare`, by their names with
#'   `_` for `-` (for example `end_margin = 10`, `times = c("09:00", "17:00")`: a
#'   vector is passed as esmsim's comma-separated list); not `format` or `output`.
#' @return A tibble, one row per algorithm (and gap method).
#' @export
esm_compare_schedules <- function(per_day, window, days = 7, min_gap = NULL, seed = 1, ...) {
  extra <- list(...)
  if (length(extra) && (is.null(names(extra)) || any(names(extra) == ""))) {
    esm_abort("esmsim: every further option of esm_compare_schedules is named (for example times = c(\"09:00\", \"17:00\"))",
              "esmsim_run_error")
  }
  taken <- intersect(names(extra), c("format", "output"))
  if (length(taken)) {
    esm_abort(sprintf("esmsim: esm_compare_schedules sets %s itself (it reads the comparison as JSON)",
                      paste(taken, collapse = " and ")), "esmsim_run_error")
  }
  options <- c(list(per_day = per_day, window = window, days = days, min_gap = min_gap, seed = seed), extra)
  options <- options[!vapply(options, is.null, TRUE)]
  args <- c("schedule", "compare", "--format", "json")
  for (name in names(options)) {
    # A vector as esmsim's comma-separated list (times, weekdays); one value as it is.
    args <- c(args, paste0("--", gsub("_", "-", name)), paste(arg_text(options[[name]]), collapse = ","))
  }
  out <- esm_exec(args, call = sys.call())
  rows <- jsonlite::fromJSON(out$stdout, simplifyDataFrame = TRUE)
  # An algorithm esmsim skipped (it cannot take these options) is said with esmsim's reason,
  # as a warning; when every one is, esmsim refuses the options (an esmsim_run_error above).
  skipped <- sub("^esmsim: ", "", grep("skipped:", strsplit(out$stderr, "\n", fixed = TRUE)[[1]], value = TRUE))
  for (s in skipped) warning(s, call. = FALSE)
  # Measures are numbers even where every value is whole or missing.
  for (column in setdiff(names(rows), c("algorithm", "gap_method", "held_out_days", "predictability_stable"))) {
    rows[[column]] <- as.numeric(rows[[column]])
  }
  rows$held_out_days <- as.integer(rows$held_out_days)
  tibble::as_tibble(rows)
}
