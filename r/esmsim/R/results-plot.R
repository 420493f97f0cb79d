#' Summarise and plot a run's results
#'
#' `summary()` gives, per variant, the figures a planner reads first (from
#' `summary.csv`: answers per participant, the share reaching the answers target,
#' delivered and answered shares) and, for esmsim's default people, where a real
#' study's answered share lies 95 % of the time around theirs (`real_study_low`,
#' `real_study_high`: real studies' people differ more than the simulation's
#' intervals say, docs/validation.md; `NA` for people of the scenario's own). `plot()` draws the answers per participant
#' (`what = "answers"`), what became of the prompts (`"fates"`) or the sensor
#' coverage by device (`"coverage"`, when the run wrote `coverage_summary.csv`);
#' with ggplot2 installed `ggplot2::autoplot()` returns the plot object.
#'
#' @param object,x An `esm_results` from [esm_run()] or [esm_read()].
#' @param what `"answers"`, `"fates"` or `"coverage"`.
#' @param target The answers target drawn on the answers plot: by default each
#'   variant's own (`protocol.answers_target`, from the run's manifest; 30 for
#'   results without one), the target `summary()`'s share counts.
#' @param ... Unused.
#' @return `summary()`: a tibble, one row per variant. `plot()`: the ggplot
#'   object (invisibly; with base graphics, `x`).
#' @export
summary.esm_results <- function(object, ...) {
  s <- object$summary
  metric <- function(name) {
    rows <- s[s$metric == name & s$variant %in% levels(factor(s$variant)), ]
    stats::setNames(rows$mean, as.character(rows$variant))
  }
  variants <- if (is.factor(s$variant)) levels(s$variant) else unique(s$variant)
  pick <- function(name) unname(metric(name)[variants])
  out <- tibble::tibble(
    variant = factor(variants, levels = variants),
    participants = pick("participants"),
    answers_median = pick("answers_per_participant_median"),
    answers_p10 = pick("answers_per_participant_p10"),
    answers_target = unname(answers_targets(object)[variants]),
    share_reaching_target = pick("share_reaching_answers_target"),
    delivered = pick("delivered_share"),
    answered = pick("compliance")
  )
  # esmsim's default people: where a real study's answered share lies 95 % of the time around
  # theirs (the manifest's between_studies_points, held within 0-1); NA for people of one's own.
  points <- between_studies_points(object)[variants]
  out$real_study_low <- pmax(0, out$answered - points / 100)
  out$real_study_high <- pmin(1, out$answered + points / 100)
  class(out) <- c("summary.esm_results", class(out))
  out
}

#' @export
print.summary.esm_results <- function(x, ...) {
  cat("esmsim results, by variant (the means over replications):\n")
  y <- x
  class(y) <- setdiff(class(y), "summary.esm_results")
  print(y, ...)
  invisible(x)
}

#' @rdname summary.esm_results
#' @export
plot.esm_results <- function(x, what = c("answers", "fates", "coverage"), target = NULL, ...) {
  what <- match.arg(what)
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    p <- autoplot.esm_results(x, what = what, target = target)
    print(p)
    return(invisible(p))
  }
  d <- results_plot_data(x, what, target)
  if (what == "answers") {
    graphics::hist(d$completed, breaks = 30, main = "", xlab = "answers per participant", ylab = "participants")
    graphics::abline(v = unique(d$target), lty = 2)
  } else if (what == "fates") {
    graphics::barplot(d$share, names.arg = paste(d$variant, d$status), las = 2, ylab = "share of prompts")
  } else {
    graphics::barplot(d$comp, names.arg = paste(d$variant, d$device), las = 2, ylab = "hours complete")
  }
  invisible(x)
}

#' @rdname summary.esm_results
#' @export
autoplot.esm_results <- function(object, what = c("answers", "fates", "coverage"), target = NULL, ...) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) stop("autoplot needs the ggplot2 package")
  what <- match.arg(what)
  .data <- ggplot2::.data
  d <- results_plot_data(object, what, target)
  targets <- if (what == "answers") unique(d[, c("variant", "target")]) else NULL
  switch(what,
    answers = ggplot2::ggplot(d, ggplot2::aes(x = .data$completed)) +
      ggplot2::geom_histogram(binwidth = 1) +
      ggplot2::geom_vline(data = targets, ggplot2::aes(xintercept = .data$target), linetype = "dashed") +
      ggplot2::facet_wrap(~variant) +
      ggplot2::labs(x = "answers per participant", y = "participants",
                    title = sprintf("Answers per participant (target %s)", paste(unique(targets$target), collapse = ", "))),
    fates = ggplot2::ggplot(d, ggplot2::aes(x = .data$status, y = .data$share, fill = .data$variant)) +
      ggplot2::geom_col(position = "dodge") +
      ggplot2::labs(x = NULL, y = "share of prompts", fill = "variant", title = "What became of the prompts"),
    coverage = ggplot2::ggplot(d, ggplot2::aes(x = .data$device, y = .data$comp, fill = .data$variant)) +
      ggplot2::geom_col(position = "dodge") +
      ggplot2::facet_wrap(~sensor) +
      ggplot2::labs(x = "device", y = "hours complete (comp)", fill = "variant", title = "Sensor coverage by device")
  )
}

# Each variant's answers target: the manifest's (protocol.answers_target), else 30 (results
# written before esmsim recorded it).
answers_targets <- function(x) {
  variants <- unique(as.character(x$summary$variant))
  known <- x$manifest$answers_target
  stats::setNames(vapply(variants, function(v) if (is.null(known[[v]])) 30 else as.numeric(known[[v]]), 0), variants)
}

# Each variant's spread between real studies in percentage points (the manifest's; NA for
# people of the scenario's own, and for results written before esmsim recorded it).
between_studies_points <- function(x) {
  variants <- unique(as.character(x$summary$variant))
  known <- x$manifest$between_studies_points
  stats::setNames(vapply(variants, function(v) if (is.null(known[[v]])) NA_real_ else as.numeric(known[[v]]), 0), variants)
}

results_plot_data <- function(x, what, target = NULL) {
  need <- c(answers = "participants", fates = "prompts", coverage = "coverage_summary")[[what]]
  if (is.null(x[[need]]) || nrow(x[[need]]) == 0) {
    esm_abort(sprintf("esmsim: plotting %s needs rows of %s, which this run did not write (outputs.%s%s)", what, need,
                      need, if (what == "coverage") ", or no sensors" else ""), "esmsim_run_error")
  }
  if (what == "answers") {
    d <- as.data.frame(x$participants)
    d$target <- if (is.null(target)) unname(answers_targets(x)[as.character(d$variant)]) else target
    return(d)
  }
  if (what == "coverage") return(as.data.frame(x$coverage_summary))
  p <- x$prompts[!x$prompts$volunteered, ]
  counts <- as.data.frame(table(variant = p$variant, status = p$status), stringsAsFactors = FALSE)
  totals <- tapply(counts$Freq, counts$variant, sum)
  counts$share <- counts$Freq / totals[counts$variant]
  counts$variant <- factor(counts$variant, levels = levels(factor(p$variant)))
  counts[counts$Freq > 0, ]
}
