#' Calibrate the compliance model to a pilot, and check how well it predicts
#'
#' Runs `esmsim calibrate` on a pilot's per-prompt records: esmsim simulates the
#' pilot's protocol (as its records show it, or `scenario`) and sets each
#' compliance parameter so that the simulation shows what the pilot shows. With
#' `holdout`, it also fits on part of the pilot and compares the other part with
#' what that fit predicts (`docs/calibration.md`).
#'
#' @param files The pilot's files, or the pilot as a data frame (a row per
#'   prompt, read as `format = "csv"`: columns named by role or mapped with
#'   `columns`; POSIXct columns are passed as instants, their clock from
#'   `time_zone`, else from the column's own time zone attribute; a column
#'   without one, as `as.POSIXct()` makes by default, is on the session's clock,
#'   `Sys.timezone()`, as R prints it).
#' @param format `"aware"` (AWARE esms rows), `"beiwe"` (Beiwe iOS survey
#'   timings), `"mpath"` (m-Path's per-beep export), `"esmira"` (ESMira's
#'   events.csv with its questionnaire files) or `"csv"` (any platform's
#'   per-prompt table; the default, as in Python's `calibrate()`).
#' @param scenario The pilot's scenario (protocol, phones, population): a file,
#'   or a list as [esm_run()] takes.
#'   By default the protocol the records show, on phones in ordinary use.
#' @param holdout `NULL`, `"days:N"` (fit on each participant's first N days,
#'   check the rest) or `"participants:F"` (check a share F of the participants).
#' @param kept_at_least `NULL` (the records hold every participant), a share
#'   (the records hold only the participants who answered at least this share of
#'   their prompts, as a study that left out those who answered less) or
#'   `"lowest"` (the pilot's lowest participant share, of those with 5 or more
#'   prompts). Each simulation of the pilot keeps the same participants; a share
#'   above a participant's in the pilot is refused.
#' @param columns For `format = "csv"`: a named character vector mapping roles to
#'   the file's columns, for example `c(participant = "pid", scheduled = "planned")`
#'   (roles: participant, questionnaire, scheduled, delivered, opened, submitted).
#' @param time_zone,utc_offset The participants' clock (Beiwe, csv): an IANA
#'   zone such as `"Europe/Brussels"`, or minutes east of UTC.
#' @param seed Master seed of the simulations.
#' @param people Participants in each simulation of the pilot (more: less
#'   simulation noise, slower; for the fit you plan with, two seeds:
#'   docs/calibration.md).
#' @param bootstrap Bootstrap resamples of the pilot's participants for its
#'   moments' covariance (the intervals).
#' @param evaluations Simulations each fit's search may spend (`NULL`: esmsim's
#'   default).
#' @param progress Draw a progress bar from esmsim's progress (the fit, the fit
#'   on the part kept, the predictions).
#' @param threads Worker threads (results do not depend on it).
#' @param output Where to write the block (YAML); the JSON and the page are
#'   written beside it. By default a temporary file.
#' @return An `esm_calibration` list: `estimates` (a tibble: parameter, value,
#'   low, high, standard_error, at_bound, reason: all parameters estimated
#'   together, by simulated moments), `moments` (the pilot's and the
#'   simulation's at the estimate), `holdout` (the holdout asked for, or `NULL`),
#'   `check` (a tibble: figure, unit, observed, predicted, low, high, inside; or
#'   `NULL` without a holdout), `check_fit` (with a holdout, the fit on the part
#'   kept that the predictions draw from: its `estimates` and `moments` as
#'   tibbles and its `not_identified`; `NULL` without), `not_identified`, `protocol` (the scenario
#'   simulated, when proposed from the records, and what the records showed),
#'   `pilot` (participants, prompts, days, answered, kept_at_least, kept_share_simulated, left_out), `block` (the
#'   `population.compliance` block to paste into a scenario) and `files` (the
#'   block, JSON and page written).
#' @section Errors: a malformed pilot file raises `esmsim_scenario_error` with
#'   its `file`, `key` (the column), `line` and `column`; a malformed data frame
#'   with `row` (its row name), `key` (the column) and `file` NA.
#' @examples
#' \dontrun{
#' # esmsim's example pilot (a simulated one); an m-Path export: format = "mpath"
#' cal <- esm_calibrate(esm_example("pilot.csv"), holdout = "days:7")
#' cal$estimates
#' cal$check[which(!cal$check$inside), ]
#' browseURL(cal$files$page)
#' }
#' @export
esm_calibrate <- function(files, format = "csv", scenario = NULL, holdout = NULL, columns = NULL, time_zone = NULL,
                          utc_offset = NULL, seed = 1, people = 300, bootstrap = 200, evaluations = NULL, threads = NULL,
                          output = NULL, progress = interactive(), kept_at_least = NULL) {
  frame <- NULL
  for (name in c("format", "holdout", "time_zone", "utc_offset", "seed", "people", "bootstrap", "evaluations",
                 "threads", "kept_at_least")) {
    value <- get(name)
    if (!is.null(value)) one_value(name, value)
  }
  if (!is.null(output)) one_path("output", output)
  # A scenario given as a list is written to a file, as esm_run() writes one (its errors said
  # of the list).
  source <- NULL
  if (!is.null(scenario)) {
    source <- scenario_file(scenario)
    if (!is.null(source$list)) on.exit(unlink(source$file), add = TRUE)
    scenario <- source$file
  }
  if (is.data.frame(files)) {
    if (!identical(format, "csv")) esm_abort("esmsim: a data frame is read as format = \"csv\"", "esmsim_run_error")
    pilot <- pilot_csv(files)
    on.exit(unlink(pilot$file), add = TRUE)
    frame <- files
    files <- pilot$file
    if (is.null(time_zone) && is.null(utc_offset) && !is.null(pilot$time_zone)) time_zone <- pilot$time_zone
  }
  if (is.null(output)) output <- tempfile("esmsim-calibration-", fileext = ".yaml")
  args <- c("calibrate", files, "--format", format, "--seed", arg_text(seed), "--people", arg_text(people),
            "--bootstrap", arg_text(bootstrap),
            "--output", output)
  add <- function(flag, value) if (!is.null(value)) args <<- c(args, flag, arg_text(value))
  add("--scenario", scenario)
  add("--holdout", holdout)
  add("--time-zone", time_zone)
  add("--utc-offset", utc_offset)
  add("--threads", threads)
  add("--evaluations", evaluations)
  if (!is.null(kept_at_least)) args <- c(args, paste0("--kept-at-least=", arg_text(kept_at_least)))
  if (!is.null(columns)) {
    if (is.null(names(columns)) || any(names(columns) == "")) {
      esm_abort("esmsim: columns is a named vector, role = column", "esmsim_run_error")
    }
    for (role in names(columns)) args <- c(args, "--column", paste0(role, "=", columns[[role]]))
  }
  tryCatch(esm_exec(args, scenario = source, call = sys.call(), progress = progress), esmsim_scenario_error = function(e) {
    if (is.null(frame) || !identical(e$file, pilot$file)) stop(e)
    # Located in the data frame (its row, as row.names names it), not in the deleted temporary copy.
    row <- if (!is.na(e$line) && e$line >= 2 && e$line - 1 <= nrow(frame)) row.names(frame)[[e$line - 1]] else NA
    where <- if (is.na(row)) "the data frame" else sprintf("row %s of the data frame", row)
    column <- if (!is.na(e$key) && nzchar(e$key)) sprintf(", column %s", e$key) else ""
    esm_abort(sprintf("esmsim: %s%s: %s", where, column, e$problem), "esmsim_scenario_error",
              file = NA_character_, key = e$key, line = NA_integer_, column = NA_integer_, row = row,
              element = NA_character_, problem = e$problem, status = e$status, stderr = e$stderr, call = e$call)
  })
  stem <- sub("\\.(yaml|yml)$", "", output)
  json <- jsonlite::fromJSON(paste0(stem, ".json"), simplifyDataFrame = TRUE)
  numeric_columns <- function(df, columns) {
    for (column in columns) df[[column]] <- as.numeric(df[[column]])
    df
  }
  estimates <- numeric_columns(as.data.frame(json$estimates),
    c("value", "low", "high", "standard_error"))
  check <- NULL
  if (!is.null(json$check)) {
    check <- numeric_columns(as.data.frame(json$check$figures), c("observed", "predicted", "low", "high"))
    check$inside <- as.logical(check$inside)
    check <- tibble::as_tibble(check)
  }
  check_fit <- NULL
  if (!is.null(json$check$fit)) {
    check_fit <- list(
      estimates = tibble::as_tibble(numeric_columns(as.data.frame(json$check$fit$estimates),
        c("value", "low", "high", "standard_error"))),
      moments = tibble::as_tibble(as.data.frame(json$check$fit$moments)),
      not_identified = as.character(json$check$fit$not_identified))
  }
  structure(list(
    estimates = tibble::as_tibble(estimates),
    moments = if (is.null(json$moments)) NULL else tibble::as_tibble(as.data.frame(json$moments)),
    check = check,
    check_fit = check_fit,
    not_identified = as.character(json$not_identified),
    protocol = json$protocol,
    pilot = json$pilot,
    holdout = if (is.null(json$check)) NULL else json$check$holdout,
    block = json$block,
    files = list(block = output, json = paste0(stem, ".json"), page = paste0(stem, ".html"))
  ), class = "esm_calibration")
}

# A pilot data frame written as the csv reader reads it: POSIXct columns as milliseconds since
# 1970 (instants), other columns as they are, NA empty. Returns the file and the time zone of
# the first POSIXct column that names one; a column without one (as.POSIXct's default) is on
# the session's clock, Sys.timezone(), as R prints it (it was read as UTC: hours moved).
pilot_csv <- function(d) {
  zone <- NULL
  local <- FALSE
  for (column in names(d)) {
    x <- d[[column]]
    if (inherits(x, "POSIXt")) {
      tz <- attr(as.POSIXct(x), "tzone")
      if (is.null(zone) && length(tz) && nzchar(tz[[1]])) zone <- tz[[1]]
      if (!length(tz) || !nzchar(tz[[1]])) local <- TRUE
      d[[column]] <- ifelse(is.na(x), NA, sprintf("%.0f", as.numeric(as.POSIXct(x)) * 1000))
    } else if (is.factor(x)) {
      d[[column]] <- as.character(x)
    }
  }
  if (is.null(zone) && local) {
    # TZ first: Sys.timezone() keeps the zone it found first in a session, which TZ set since
    # (as R prints the times) does not change.
    zone <- Sys.getenv("TZ")
    if (!nzchar(zone)) zone <- Sys.timezone()
    if (is.na(zone) || !nzchar(zone)) zone <- NULL
  }
  file <- tempfile("esmsim-pilot-", fileext = ".csv")
  utils::write.csv(d, file, row.names = FALSE, na = "")
  list(file = file, time_zone = zone)
}

#' @export
print.esm_calibration <- function(x, ...) {
  cat(sprintf("esmsim calibration: %d participants, %d prompts over %d days; answered %.3f\n",
              x$pilot$participants, x$pilot$prompts, x$pilot$days, x$pilot$answered))
  est <- x$estimates
  for (i in seq_len(nrow(est))) {
    cat(sprintf("  %-24s %10.4g  [%.4g, %.4g]%s\n", est$parameter[i], est$value[i], est$low[i], est$high[i],
                if (isTRUE(est$at_bound[i])) "  (at the edge of its range)" else ""))
  }
  if (!is.null(x$check)) {
    seen <- !is.na(x$check$inside)
    cat(sprintf("predictive check (%s): %d of %d observed figures inside their 95 %% prediction interval\n",
                x$holdout, sum(x$check$inside[seen]), sum(seen)))
  }
  invisible(x)
}

#' Summarise and plot a calibration
#'
#' `summary()` gives the estimates and, with a holdout, how many held-out figures
#' lie in their prediction intervals; `plot()` draws the predictive check: each
#' figure's observed value against its predicted 95 % interval (ggplot2 when
#' installed, where `ggplot2::autoplot()` returns the plot; base graphics
#' otherwise).
#'
#' @param object,x An `esm_calibration` from [esm_calibrate()].
#' @param ... Unused.
#' @return `summary()`: an `summary.esm_calibration` list (estimates, inside,
#'   figures). `plot()`: the ggplot object (invisibly; with base graphics, `x`).
#' @export
summary.esm_calibration <- function(object, ...) {
  check <- object$check
  seen <- if (is.null(check)) logical() else !is.na(check$inside)
  structure(list(estimates = object$estimates, not_identified = object$not_identified,
                 inside = if (is.null(check)) NA_integer_ else sum(check$inside[seen]),
                 figures = if (is.null(check)) 0L else sum(seen), holdout = object$holdout),
            class = "summary.esm_calibration")
}

#' @export
print.summary.esm_calibration <- function(x, ...) {
  cat("esmsim calibration: estimates with 95 % bootstrap intervals\n")
  print(x$estimates[, c("parameter", "value", "low", "high")])
  if (x$figures > 0) {
    cat(sprintf("Predictive check (%s): %d of %d held-out figures inside their 95 %% prediction interval\n",
                x$holdout, x$inside, x$figures))
  }
  invisible(x)
}

#' @rdname summary.esm_calibration
#' @export
plot.esm_calibration <- function(x, ...) {
  if (is.null(x$check)) stop("no predictive check to plot: calibrate with a holdout")
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    p <- autoplot.esm_calibration(x)
    print(p)
    return(invisible(p))
  }
  d <- as.data.frame(x$check)
  n <- nrow(d)
  graphics::plot(d$observed, seq_len(n), xlim = range(c(d$low, d$high, d$observed), na.rm = TRUE), yaxt = "n",
                 pch = ifelse(d$inside, 19, 4), xlab = "observed (point) against predicted 95 % interval", ylab = "")
  graphics::segments(d$low, seq_len(n), d$high, seq_len(n))
  graphics::axis(2, at = seq_len(n), labels = d$figure, las = 1, cex.axis = 0.6)
  invisible(x)
}

#' @rdname summary.esm_calibration
#' @export
autoplot.esm_calibration <- function(object, ...) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) stop("autoplot needs the ggplot2 package")
  if (is.null(object$check)) stop("no predictive check to plot: calibrate with a holdout")
  .data <- ggplot2::.data
  d <- as.data.frame(object$check)
  d$figure <- factor(d$figure, levels = rev(d$figure))
  d$inside <- ifelse(is.na(d$inside), "not checked", ifelse(d$inside, "inside", "outside"))
  ggplot2::ggplot(d, ggplot2::aes(y = .data$figure)) +
    ggplot2::geom_errorbarh(ggplot2::aes(xmin = .data$low, xmax = .data$high), height = 0.3) +
    ggplot2::geom_point(ggplot2::aes(x = .data$observed, colour = .data$inside)) +
    ggplot2::facet_wrap(~unit, scales = "free_x") +
    ggplot2::labs(x = "observed (point) and the predicted 95 % interval", y = NULL, colour = NULL,
                  title = sprintf("Predictive check (%s)", object$holdout))
}
