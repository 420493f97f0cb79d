# esmsim's errors as R conditions.
#
# Every error is of class `esmsim_error`. A problem in a scenario is also of class
# `esmsim_scenario_error`, with the fields esmsim names: `file`, `key` (the key path,
# for example "population.size" or "variants[often].protocol.expiry"), `line` and
# `column`; when the scenario was an R list, `element` is the list element the key
# path names (for example `scenario$population$size`) and `file` is NA.

esm_abort <- function(message, class, ..., call = NULL) {
  stop(structure(
    class = c(class, "esmsim_error", "error", "condition"),
    list(message = message, call = call, ...)
  ))
}

# Raises the error esmsim wrote on standard error: one JSON object on a line of its own
# (`{"esmsim_error": {"kind", "file", "key", "line", "column", "message", "exit"}}`; it
# writes them so when ESMSIM_ERROR_FORMAT is json, which esm_exec sets).
esm_fail <- function(stderr, status, scenario = NULL, call = NULL) {
  lines <- strsplit(stderr, "\n", fixed = TRUE)[[1]]
  reported <- lines[startsWith(lines, "{\"esmsim_error\"")]
  if (!length(reported)) {
    other <- lines[nzchar(trimws(lines)) & !startsWith(lines, "esmsim: warning:")]
    message <- if (length(other)) other[[length(other)]] else sprintf("esmsim exited with status %d", status)
    esm_abort(message, "esmsim_run_error", status = status, stderr = stderr, call = call)
  }
  e <- jsonlite::fromJSON(reported[[length(reported)]], simplifyVector = FALSE)$esmsim_error
  field <- function(x, na) if (is.null(x)) na else x
  file <- field(e$file, NA_character_)
  key <- field(e$key, NA_character_)
  # The command line's flag said as the function's argument (esm_run's force).
  problem <- sub("add --force to replace it", "give force = TRUE to replace it", e$message, fixed = TRUE)
  if (!identical(e$kind, "scenario")) {
    if (identical(e$kind, "usage")) problem <- as_argument(problem)
    where <- if (!is.na(file)) paste0(file, ": ") else ""
    esm_abort(paste0("esmsim: ", where, problem), "esmsim_run_error", status = status, stderr = stderr, call = call)
  }
  # A value of the function's own arguments (participants, duration, ...), which esmsim took from
  # its command line: said by the argument, not as the scenario file's key.
  if (isTRUE(e$given_on_command_line) && !is.na(key)) {
    argument <- c(population.size = "participants", duration = "duration", replications = "replications",
                  seed = "seed")[key]
    if (!is.na(argument)) {
      esm_abort(sprintf("esmsim: the argument %s: %s", argument, problem), "esmsim_run_error",
                key = key, argument = unname(argument), problem = problem, status = status, stderr = stderr, call = call)
    }
  }
  # A variant's own key: esmsim says "in variant 'NAME': " before the message.
  variant <- regmatches(problem, regexec("^in variant '(.*?)': (.*)$", problem, perl = TRUE))[[1]]
  if (length(variant) && !is.na(key)) {
    key <- sprintf("variants[%s].%s", variant[[2]], key)
    problem <- variant[[3]]
  }
  line <- as.integer(field(e$line, NA_integer_))
  column <- as.integer(field(e$column, NA_integer_))
  element <- NA_character_
  location <- if (!is.na(line)) sprintf(" (line %d, column %d)", line, column) else ""
  message <- sprintf("esmsim: %s%s%s: %s", file, if (!is.na(key)) paste0(": ", key) else "", location, problem)
  if (!is.null(scenario$list) && identical(file, scenario$file)) {
    file <- NA_character_
    if (!is.na(key)) element <- key_to_element(key, scenario$list)
    where <- if (!is.na(element)) element else "the scenario list"
    message <- sprintf("esmsim: %s: %s", where, problem)
  }
  esm_abort(
    message, "esmsim_scenario_error",
    file = file, key = key, line = line, column = column,
    element = element, problem = problem, status = status, stderr = stderr, call = call
  )
}

# "variants[often].protocol.expiry" -> "scenario$variants[[2]]$protocol$expiry" (the
# variant whose name is "often" being the second); a bracket that names no element
# stays as it is.
key_to_element <- function(key, scenario) {
  parts <- strsplit(key, ".", fixed = TRUE)[[1]]
  out <- "scenario"
  node <- scenario
  for (part in parts) {
    m <- regmatches(part, regexec("^([^[]+)(\\[(.*)\\])?$", part))[[1]]
    if (!length(m)) return(NA_character_)
    name <- m[[2]]
    out <- paste0(out, "$", name)
    node <- if (is.list(node)) node[[name]] else NULL
    if (nzchar(m[[3]])) {
      label <- m[[4]]
      index <- NA_integer_
      if (grepl("^[0-9]+$", label)) {
        index <- as.integer(label) + 1L
      } else if (is.list(node)) {
        names <- vapply(node, function(x) if (is.list(x) && !is.null(x$name)) as.character(x$name) else "", "")
        hit <- which(names == label)
        if (length(hit)) index <- hit[[1]]
      }
      if (is.na(index)) {
        out <- paste0(out, "[", label, "]")
        node <- NULL
      } else {
        out <- paste0(out, "[[", index, "]]")
        node <- if (is.list(node) && index <= length(node)) node[[index]] else NULL
      }
    }
  }
  out
}

# A usage error about a flag the function passed from its own argument of the same name (run's
# seed, calibrate's people), said of the argument: seed = -1 gave "The value '-1' is invalid
# for '--seed <seed>'".
as_argument <- function(problem) {
  flags <- paste0("participants|replications|seed|threads|people|bootstrap|evaluations|duration|target|cost|format|",
                  "holdout|kept-at-least|time-zone|utc-offset|column")
  problem <- gsub(sprintf("'--(%s) <[a-z-]+>'", flags), "the argument \\1", problem)
  problem <- sub(sprintf("^--(%s)([: ])", flags), "the argument \\1\\2", problem)
  # esm_design's days, per_day and participants go to esmsim as --vary NAME=VALUES.
  problem <- sub("^--vary (days|per_day|participants):", "the argument \\1:", problem)
  # The argument's own name: time_zone for --time-zone, columns for --column.
  own <- c("kept-at-least" = "kept_at_least", "time-zone" = "time_zone", "utc-offset" = "utc_offset", column = "columns")
  for (flag in names(own)) {
    problem <- gsub(sprintf("the argument %s\\b", flag), paste("the argument", own[[flag]]), problem, perl = TRUE)
  }
  problem
}
