#' Summarise and plot a run's results
#'
#' `summary()` gives, per variant, the figures a planner reads first (from
#' `summary.csv`: answers per participant, the share reaching the answers target,
#' delivered and answered shares). `plot()` draws the answers per participant
#' (`what = "answers"`), what became of the prompts (`"fates"`) or the sensor
#' coverage by device (`"coverage"`, when the run wrote `coverage_summary.csv`);
#' with ggplot2 installed `ggplot2::autoplot()` returns the plot object.
#'
#' @param object,x An `esm_results` from [esm_run()] or [esm_read()].
#' @param what `"answers"`, `"fates"` or `"coverage"`.
#' @param target The answers target drawn on the answers plot.
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
    share_reaching_target = pick("share_reaching_answers_target"),
    delivered = pick("delivered_share"),
    answered = pick("compliance")
  )
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
plot.esm_results <- function(x, what = c("answers", "fates", "coverage"), target = 30, ...) {
  what <- match.arg(what)
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    p <- autoplot.esm_results(x, what = what, target = target)
    print(p)
    return(invisible(p))
  }
  d <- results_plot_data(x, what)
  if (what == "answers") {
    graphics::hist(d$completed, breaks = 30, main = "", xlab = "answers per participant", ylab = "participants")
    graphics::abline(v = target, lty = 2)
  } else if (what == "fates") {
    graphics::barplot(d$share, names.arg = paste(d$variant, d$status), las = 2, ylab = "share of prompts")
  } else {
    graphics::barplot(d$comp, names.arg = paste(d$variant, d$device), las = 2, ylab = "hours complete")
  }
  invisible(x)
}

#' @rdname summary.esm_results
#' @export
autoplot.esm_results <- function(object, what = c("answers", "fates", "coverage"), target = 30, ...) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) stop("autoplot needs the ggplot2 package")
  what <- match.arg(what)
  .data <- ggplot2::.data
  d <- results_plot_data(object, what)
  switch(what,
    answers = ggplot2::ggplot(d, ggplot2::aes(x = .data$completed)) +
      ggplot2::geom_histogram(binwidth = 1) +
      ggplot2::geom_vline(xintercept = target, linetype = "dashed") +
      ggplot2::facet_wrap(~variant) +
      ggplot2::labs(x = "answers per participant", y = "participants", title = sprintf("Answers per participant (target %d)", target)),
    fates = ggplot2::ggplot(d, ggplot2::aes(x = .data$status, y = .data$share, fill = .data$variant)) +
      ggplot2::geom_col(position = "dodge") +
      ggplot2::labs(x = NULL, y = "share of prompts", fill = "variant", title = "What became of the prompts"),
    coverage = ggplot2::ggplot(d, ggplot2::aes(x = .data$device, y = .data$comp, fill = .data$variant)) +
      ggplot2::geom_col(position = "dodge") +
      ggplot2::facet_wrap(~sensor) +
      ggplot2::labs(x = "device", y = "hours complete (comp)", fill = "variant", title = "Sensor coverage by device")
  )
}

results_plot_data <- function(x, what) {
  need <- c(answers = "participants", fates = "prompts", coverage = "coverage_summary")[[what]]
  if (is.null(x[[need]]) || nrow(x[[need]]) == 0) {
    esm_abort(sprintf("esmsim: plotting %s needs rows of %s, which this run did not write (outputs.%s%s)", what, need,
                      need, if (what == "coverage") ", or no sensors" else ""), "esmsim_run_error")
  }
  if (what == "answers") return(as.data.frame(x$participants))
  if (what == "coverage") return(as.data.frame(x$coverage_summary))
  p <- x$prompts[!x$prompts$volunteered, ]
  counts <- as.data.frame(table(variant = p$variant, status = p$status), stringsAsFactors = FALSE)
  totals <- tapply(counts$Freq, counts$variant, sum)
  counts$share <- counts$Freq / totals[counts$variant]
  counts$variant <- factor(counts$variant, levels = levels(factor(p$variant)))
  counts[counts$Freq > 0, ]
}
