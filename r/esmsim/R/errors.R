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

# A key path: dotted names, each perhaps with a [label] (a variant's name or a list
# index); no spaces outside the brackets.
key_pattern <- "^[A-Za-z_][A-Za-z0-9_<>]*(\\[[^]]*\\])?(\\.[A-Za-z0-9_<>]+(\\[[^]]*\\])?)*$"

# Reads the error line of esmsim's standard error and raises it.
esm_fail <- function(stderr, status, scenario = NULL, call = NULL) {
  lines <- strsplit(stderr, "\n", fixed = TRUE)[[1]]
  lines <- lines[nzchar(trimws(lines)) & !startsWith(lines, "esmsim: warning:")]
  # The error line: the argument parser's ("Error: ..." before its usage lines), else the
  # last line esmsim wrote ("esmsim: ...").
  flagged <- lines[startsWith(lines, "Error: ")]
  line <- if (length(flagged)) {
    paste0("esmsim: ", substring(flagged[[1]], 8))
  } else if (length(lines)) {
    lines[[length(lines)]]
  } else {
    sprintf("esmsim exited with status %d", status)
  }
  parsed <- if (!is.null(scenario)) parse_scenario_error(line, scenario$file) else NULL
  if (is.null(parsed)) {
    esm_abort(line, "esmsim_run_error", status = status, stderr = stderr, call = call)
  }
  element <- NA_character_
  file <- scenario$file
  message <- line
  if (!is.null(scenario$list)) {
    file <- NA_character_
    if (!is.na(parsed$key)) element <- key_to_element(parsed$key, scenario$list)
    where <- if (!is.na(element)) element else "the scenario list"
    message <- sprintf("esmsim: %s: %s", where, parsed$message)
  }
  esm_abort(
    message, "esmsim_scenario_error",
    file = file, key = parsed$key, line = parsed$line, column = parsed$column,
    element = element, problem = parsed$message, status = status, stderr = stderr, call = call
  )
}

# "esmsim: FILE[: KEY][ (line L, column C)]: MESSAGE" -> its parts, or NULL when the
# line is not about `file`.
parse_scenario_error <- function(line, file) {
  prefix <- paste0("esmsim: ", file)
  if (!startsWith(line, prefix)) return(NULL)
  rest <- substring(line, nchar(prefix) + 1)
  key <- NA_character_
  where <- c(NA_integer_, NA_integer_)
  located <- regmatches(rest, regexec("^(: (.+?))? \\(line ([0-9]+), column ([0-9]+)\\): (.*)$", rest, perl = TRUE))[[1]]
  if (length(located)) {
    if (nzchar(located[[3]])) key <- located[[3]]
    where <- as.integer(located[4:5])
    message <- located[[6]]
  } else {
    if (!startsWith(rest, ": ")) return(NULL)
    rest <- substring(rest, 3)
    split <- regexpr(": ", rest, fixed = TRUE)
    if (split > 0 && grepl(key_pattern, substr(rest, 1, split - 1))) {
      key <- substr(rest, 1, split - 1)
      message <- substring(rest, split + 2)
    } else {
      message <- rest
    }
  }
  # A variant's own key: esmsim says "in variant 'NAME': " before the message.
  variant <- regmatches(message, regexec("^in variant '(.*?)': (.*)$", message, perl = TRUE))[[1]]
  if (length(variant) && !is.na(key)) key <- sprintf("variants[%s].%s", variant[[2]], key)
  list(key = key, line = where[[1]], column = where[[2]], message = message)
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
