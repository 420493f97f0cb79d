#' Find the smallest design that reaches an answers target
#'
#' Runs `esmsim design`: the scenario (one variant) at the designs given by
#' `days`, `per_day` and `participants`, and for each number of participants
#' and prompts a day the fewest days that reach the target, with the figure's
#' 95 % interval from the simulation. Answers grow with days and prompts a day,
#' so days are searched by bisection, and a design is replicated only until its
#' interval clears the target. Every design uses the scenario's seed: the same
#' simulated people in each (common random numbers).
#'
#' @param scenario A scenario file, or the scenario as an R list (see [esm_run()]).
#' @param target `"answers:N@S"` (a share S of participants give at least N
#'   answers, for example `"answers:30@0.9"`) or `"p10:N"` (the tenth
#'   percentile of answers per participant is at least N).
#' @param days,per_day,participants The values to try (integer vectors); `NULL`
#'   keeps the scenario's. The share reaching a target does not depend on the
#'   number of participants (only how far one study lands from it, the
#'   `one_study_*` columns), so vary participants to see that, not to search.
#' @param variant The scenario's variant to design (default: the first).
#' @param cost `"participant-days"` or `"prompts"`: what makes a design cheaper.
#' @param replications The most replications of a design (1 to 50): each design is
#'   replicated until its interval clears the target or this many ran; one that
#'   still straddles it is decided on its estimate (print says so), and more
#'   replications may move the frontier by a day or more.
#' @param threads Worker threads (results do not depend on it).
#' @return An `esm_design` list: `designs` (a tibble, one row per design tried:
#'   participants, days, per_day, value, low, high, replications, reaches,
#'   clear, one_study_low, one_study_high, participant_days, prompts),
#'   `frontier` (the fewest days for each participants and per_day; `NA` when
#'   none within `days` reaches the target), `cheapest` (a one-row tibble, or
#'   `NULL`), `skipped` (participants and prompts a day the scenario cannot
#'   run, such as 6 a day for Mappiness, with the reason: not searched),
#'   `searched` (the participants, days, prompts a day, most replications and
#'   seed searched), `target`, `figure`, `level`, `cost` and `variant`. A field the search does
#'   not compute for the target (the one-study range of a percentile) is `NA`.
#'   `between_studies_points`: where the scenario's people are esmsim's default people, how
#'   far a real study's answered share lies from theirs 95 % of the time (percentage points;
#'   `NULL` for people of the scenario's own: a preset, a calibration's block or a compliance
#'   key of its own): the designs assume the default people's level, so size for a lower
#'   `answer_probability` or a pilot's fit ([esm_calibrate()]) when the sample may answer less
#'   (docs/validation.md, real studies). It prints the fewest days per prompts a day and the
#'   cheapest design (and that spread); `summary()` gives the frontier; `plot()` draws the
#'   curve ([plot.esm_design()]).
#' @examples
#' \dontrun{
#' d <- esm_design("scenarios/quickstart.yaml", "answers:30@0.9",
#'                 days = 5:21, per_day = 3:5, participants = 100)
#' d
#' plot(d)
#' }
#' @export
esm_design <- function(scenario, target, days = NULL, per_day = NULL, participants = NULL, variant = NULL,
                       cost = "participant-days", replications = 5, threads = NULL) {
  source <- scenario_file(scenario)
  output <- tempfile("esmsim-design-", fileext = ".json")
  on.exit(unlink(output), add = TRUE)
  args <- c("design", source$file, "--target", target, "--cost", cost, "--replications", arg_text(replications),
            "--output", output)
  vary <- function(name, values) {
    if (is.null(values)) return()
    if (!is.numeric(values) || anyNA(values) || any(!is.finite(values)) || any(values != round(values))) {
      esm_abort(sprintf("esmsim: %s is a vector of whole numbers", name), "esmsim_run_error")
    }
    args <<- c(args, "--vary", paste0(name, "=", paste(as.integer(values), collapse = ",")))
  }
  vary("days", days)
  vary("per_day", per_day)
  vary("participants", participants)
  if (!is.null(variant)) args <- c(args, "--variant", variant)
  if (!is.null(threads)) args <- c(args, "--threads", arg_text(threads))
  esm_exec(args, scenario = source, call = sys.call())
  json <- jsonlite::fromJSON(output, simplifyDataFrame = TRUE)
  designs <- design_table(json$designs)
  frontier <- design_table(json$frontier)
  if (!"days" %in% names(frontier)) frontier$days <- rep(NA_integer_, nrow(frontier))
  # Whole days, also when no design reached the target (all NA read as logical).
  frontier$days <- as.integer(frontier$days)
  structure(list(
    designs = designs,
    frontier = frontier,
    cheapest = if (is.null(json$cheapest)) NULL else design_table(list(json$cheapest)),
    target = json$target, figure = json$figure, level = json$level, cost = json$cost,
    variant = json$variant, scenario = json$scenario,
    skipped = design_table(json$skipped),
    searched = json$searched,
    between_studies_points = json$between_studies_points
  ), class = "esm_design")
}

# A list of designs from the JSON (a data frame, or a list of records) as a tibble: a field
# JSON gives as null (a figure not computed for this target, such as the one-study range of a
# percentile) is NA, typed as the column's other values.
design_table <- function(x) {
  if (is.null(x) || length(x) == 0) return(tibble::tibble(participants = integer(), per_day = integer()))
  if (is.data.frame(x)) return(tibble::as_tibble(x))
  names <- unique(unlist(lapply(x, names)))
  columns <- lapply(names, function(n) {
    values <- lapply(x, function(r) if (is.null(r[[n]])) NA else r[[n]])
    unlist(values)
  })
  tibble::as_tibble(stats::setNames(columns, names))
}

# Days as a range when they run on by one (5-30), else listed.
design_span <- function(v) {
  if (length(v) > 2 && max(v) - min(v) == length(v) - 1) sprintf("%d-%d", min(v), max(v)) else paste(v, collapse = ", ")
}

design_figure <- function(x, value) {
  if (grepl("^answers:", x$target)) sprintf("%.1f %%", 100 * value) else sprintf("%.1f", value)
}

#' @export
print.esm_design <- function(x, ...) {
  cat(sprintf("esmsim design (%s, variant %s): %s >= %s\n", basename(x$scenario), x$variant, x$figure,
              design_figure(x, x$level)))
  if (!is.null(x$searched)) {
    s <- x$searched
    cat(sprintf("searched: participants %s, days %s, %s a day; each design up to %d replications (seed %s)\n",
                paste(s$participants, collapse = ", "), design_span(s$days), paste(s$per_day, collapse = ", "),
                as.integer(s$replications), s$seed))
  }
  cat(sprintf("%d designs tried; fewest days that reach the target:\n", nrow(x$designs)))
  for (i in seq_len(nrow(x$frontier))) {
    f <- x$frontier[i, ]
    if (is.na(f$days)) {
      cat(sprintf("  %d participants, %d a day: not within the days given\n", f$participants, f$per_day))
    } else {
      d <- x$designs[x$designs$participants == f$participants & x$designs$per_day == f$per_day &
                       x$designs$days == f$days, ]
      one_study <- if (!is.null(d$one_study_low) && !is.na(d$one_study_low)) {
        sprintf("; one study of %d: %s-%s", f$participants, design_figure(x, d$one_study_low),
                design_figure(x, d$one_study_high))
      } else {
        ""
      }
      cat(sprintf("  %d participants, %d a day: %d days (%s [%s, %s]%s)%s\n", f$participants, f$per_day, f$days,
                  design_figure(x, d$value), design_figure(x, d$low), design_figure(x, d$high), one_study,
                  if (isFALSE(d$clear)) ": the interval straddles the target" else ""))
    }
  }
  for (i in seq_len(nrow(x$skipped))) {
    k <- x$skipped[i, ]
    cat(sprintf("  %d participants, %d a day: skipped, the scenario cannot run it (%s)\n", k$participants, k$per_day,
                k$reason))
  }
  if (is.null(x$cheapest)) {
    cat("No design within the ranges reaches the target.\n")
  } else {
    c <- x$cheapest
    cat(sprintf("Cheapest in %s: %d participants x %d days x %d a day\n", x$cost, c$participants, c$days, c$per_day))
  }
  if (!is.null(x$between_studies_points)) {
    cat(sprintf(paste0("esmsim's default people: a real study's answered share (prompts answered) lies within +-%.1f ",
                       "percentage points of theirs 95 %% of the time,\nand the designs assume their level: to size for ",
                       "a sample that answers less, lower population$compliance$answer_probability,\nor fit a pilot ",
                       "(esm_calibrate())\n"),
                x$between_studies_points))
  }
  invisible(x)
}

#' @export
summary.esm_design <- function(object, ...) {
  structure(list(target = object$target, figure = object$figure, level = object$level, cost = object$cost,
                 designs = nrow(object$designs), frontier = object$frontier, cheapest = object$cheapest),
            class = "summary.esm_design")
}

#' @export
print.summary.esm_design <- function(x, ...) {
  cat(sprintf("Design search for %s >= %s (%d designs tried)\n", x$figure, x$level, x$designs))
  print(x$frontier)
  invisible(x)
}

#' Plot a design search
#'
#' The figure against days, a line per prompts a day (and panel per number of
#' participants), with the 95 % intervals and the target as a dashed line.
#' Uses ggplot2 when installed (then `ggplot2::autoplot()` gives the plot
#' object), base graphics otherwise.
#'
#' @param x An `esm_design` from [esm_design()].
#' @param ... Unused.
#' @return The ggplot object (invisibly, when drawn with base graphics: `x`).
#' @export
plot.esm_design <- function(x, ...) {
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    p <- autoplot.esm_design(x)
    print(p)
    return(invisible(p))
  }
  d <- x$designs[order(x$designs$per_day, x$designs$days), ]
  graphics::plot(d$days, d$value, type = "n", xlab = "days", ylab = x$figure, ylim = range(c(d$low, d$high, x$level)))
  for (k in unique(d$per_day)) {
    s <- d[d$per_day == k, ]
    graphics::lines(s$days, s$value, type = "b", col = k)
    graphics::arrows(s$days, s$low, s$days, s$high, angle = 90, code = 3, length = 0.03, col = k)
  }
  graphics::abline(h = x$level, lty = 2)
  graphics::legend("bottomright", legend = paste(unique(d$per_day), "a day"), col = unique(d$per_day), lty = 1)
  invisible(x)
}

#' @rdname plot.esm_design
#' @param object An `esm_design`.
#' @export
autoplot.esm_design <- function(object, ...) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) stop("autoplot needs the ggplot2 package")
  .data <- ggplot2::.data
  d <- object$designs
  d$prompts_a_day <- factor(d$per_day)
  ggplot2::ggplot(d, ggplot2::aes(x = .data$days, y = .data$value, colour = .data$prompts_a_day)) +
    ggplot2::geom_hline(yintercept = object$level, linetype = "dashed") +
    ggplot2::geom_pointrange(ggplot2::aes(ymin = .data$low, ymax = .data$high)) +
    ggplot2::geom_line() +
    ggplot2::facet_wrap(~participants, labeller = ggplot2::label_both) +
    ggplot2::labs(x = "days", y = object$figure, colour = "prompts a day",
                  title = sprintf("%s >= %s", object$figure, design_figure(object, object$level)))
}
