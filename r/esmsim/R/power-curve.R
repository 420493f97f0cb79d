#' A power curve, and the smallest design that reaches the target power
#'
#' Runs [esm_power()] along participants (or days) with the other held, and
#' finds the smallest value whose power on the answered data reaches `target`
#' (the point estimate; the Monte Carlo interval says how sure).
#'
#' @inheritParams esm_power
#' @param along `"participants"` or `"days"`: what the curve varies.
#' @param values The values along it (increasing).
#' @param participants,days The one held (a single value).
#' @param target The power to reach.
#' @param ... Further arguments of [esm_power()] (`per_day`, `model`, `term`,
#'   `alpha`, `cores`, `quiet`).
#' @return An `esm_power_curve` list: `curve` (the [esm_power()] rows),
#'   `smallest` (the smallest value reaching the target on the answered data,
#'   `NA` if none), `along`, `target`. It prints, summarises and plots;
#'   `as.data.frame()` gives the rows of `curve`.
#' @export
esm_power_curve <- function(scenario, along = c("participants", "days"), values, participants = NULL, days = NULL,
                            target = 0.8, replications = 200, seed = 1, ...) {
  along <- match.arg(along)
  if (!is.numeric(target) || length(target) != 1 || !(target > 0 && target < 1)) {
    esm_abort("esmsim: target is a power above 0 and below 1", "esmsim_run_error")
  }
  check_whole(values, "values")
  values <- sort(as.integer(values))
  held <- if (along == "participants") days else participants
  if (is.null(held) || length(held) != 1) {
    esm_abort(sprintf("esmsim: give one value of %s, held along the curve", if (along == "participants") "days" else "participants"),
              "esmsim_run_error")
  }
  check_whole(held, if (along == "participants") "days" else "participants")
  # One curve: prompts a day and the schedule held too (several gave each value's points mixed,
  # and the smallest reaching the target at none of them in particular).
  for (name in c("per_day", "schedule")) {
    if (length(list(...)[[name]]) > 1) {
      esm_abort(sprintf("esmsim: give one value of %s, held along the curve (one curve per value)", name),
                "esmsim_run_error")
    }
  }
  held <- as.integer(held)
  curve <- if (along == "participants") {
    esm_power(scenario, participants = values, days = held, replications = replications, seed = seed, ...)
  } else {
    esm_power(scenario, participants = held, days = values, replications = replications, seed = seed, ...)
  }
  answered <- as.data.frame(curve)[curve$analysis == "answered", ]
  reaching <- answered[[along]][answered$power >= target]
  structure(list(curve = curve, smallest = if (length(reaching)) min(reaching) else NA_integer_, along = along,
                 target = target, held = held),
            class = "esm_power_curve")
}

#' @export
print.esm_power_curve <- function(x, ...) {
  other <- if (x$along == "participants") "days" else "participants"
  cat(sprintf("esmsim power curve along %s (%s = %d), target power %.2f\n", x$along, other, x$held, x$target))
  a <- as.data.frame(x$curve)[x$curve$analysis == "answered", ]
  for (i in seq_len(nrow(a))) {
    cat(sprintf("  %s %4d: power %.2f [%.2f, %.2f], estimate %.2f\n", x$along, a[[x$along]][i], a$power[i],
                a$power_low[i], a$power_high[i], a$estimate[i]))
  }
  if (is.na(x$smallest)) cat("No value reaches the target.\n") else cat(sprintf("Smallest %s reaching %.2f: %d\n", x$along, x$target, x$smallest))
  invisible(x)
}

#' @export
summary.esm_power_curve <- function(object, ...) {
  s <- summary(object$curve)
  s$along <- object$along
  s$target <- object$target
  s$smallest <- object$smallest
  class(s) <- c("summary.esm_power_curve", class(s))
  s
}

#' @export
print.summary.esm_power_curve <- function(x, ...) {
  NextMethod()
  if (is.na(x$smallest)) cat(sprintf("No %s reaches %.2f.\n", x$along, x$target)) else
    cat(sprintf("Smallest %s reaching %.2f: %d\n", x$along, x$target, x$smallest))
  invisible(x)
}

# The curve's rows (the esm_power() result along it) as a data frame.
#' @export
as.data.frame.esm_power_curve <- function(x, row.names = NULL, optional = FALSE, ...) {
  as.data.frame(x$curve, row.names = row.names, optional = optional, ...)
}

#' @export
plot.esm_power_curve <- function(x, ...) {
  plot_power(x$curve, x$along, x$target, x_in = x)
}

#' @export
print.esm_power <- function(x, ...) {
  d <- as.data.frame(x)
  # A subset of its columns (pw[, c("analysis", "power")]) is printed as the table it is.
  if (!all(c("analysis", "replications") %in% names(d))) {
    print(tibble::as_tibble(d), ...)
    return(invisible(x))
  }
  a <- d[d$analysis == "answered", , drop = FALSE]
  known <- function(v) if (is.null(v)) "?" else format(v)
  tests <- unique(stats::na.omit(d$test))
  cat(sprintf("esmsim power (%s, alpha %s, planned slope %s): %s x %s replications\n",
              if (length(tests)) tests[[1]] else "no fit succeeded", known(attr(x, "alpha")), known(attr(x, "slope")),
              designs_text(nrow(a)), if (nrow(a)) max(a$replications + if (is.null(a$failed)) 0 else a$failed) else 0))
  if (!is.null(d$failed) && (sum(d$failed) > 0 || sum(d$warnings) > 0)) {
    cat(sprintf("(%d warnings, %d errors)%s\n", sum(d$warnings), sum(d$failed),
                if (sum(d$failed)) paste0(": the first error: ", d$first_error[!is.na(d$first_error)][[1]]) else ""))
  }
  columns <- intersect(c("participants", "days", varied_columns(d), "analysis", "power", "power_low", "power_high", "estimate",
                         "answers", "failed"), names(d))
  print(tibble::as_tibble(d[, columns, drop = FALSE]), ...)
  invisible(x)
}

#' @export
summary.esm_power <- function(object, ...) {
  a <- as.data.frame(object)[object$analysis == "answered", ]
  structure(list(designs = nrow(a), power = range(a$power), bias = mean(a$bias), test = a$test[[1]],
                 reaching_80 = a[a$power >= 0.8, c("participants", "days", varied_columns(a))]),
            class = "summary.esm_power")
}

#' @export
print.summary.esm_power <- function(x, ...) {
  power <- if (isTRUE(all.equal(x$power[1], x$power[2]))) sprintf("%.2f", x$power[1]) else
    sprintf("%.2f to %.2f", x$power[1], x$power[2])
  cat(sprintf("%s; power on the answered data %s; mean bias %.3f (%s)\n", designs_text(x$designs), power, x$bias, x$test))
  cat("Designs reaching 0.8:\n")
  print(x$reaching_80)
  invisible(x)
}

# per_day and schedule where the call varied them (two designs of 12 x 3 were told apart by neither).
varied_columns <- function(d) Filter(function(n) n %in% names(d) && any(!is.na(d[[n]])), c("per_day", "schedule"))

# "1 design", "3 designs".
designs_text <- function(n) sprintf("%d design%s", n, if (n == 1) "" else "s")

#' Plot power
#'
#' Power against participants (a panel per days), a line per analysis, with
#' Monte Carlo intervals; ggplot2 when installed (`ggplot2::autoplot()` gives
#' the object), base graphics otherwise.
#'
#' @param x,object An `esm_power` result, or an `esm_power_curve`.
#' @param ... Unused.
#' @return The ggplot object, invisibly (base graphics: `x`).
#' @export
plot.esm_power <- function(x, ...) plot_power(x, "participants", NULL)

#' @rdname plot.esm_power
#' @export
autoplot.esm_power <- function(object, ...) power_ggplot(object, "participants", NULL)

#' @rdname plot.esm_power
#' @export
autoplot.esm_power_curve <- function(object, ...) power_ggplot(object$curve, object$along, object$target)

power_ggplot <- function(d, along, target) {
  if (!requireNamespace("ggplot2", quietly = TRUE)) stop("autoplot needs the ggplot2 package")
  .data <- ggplot2::.data
  d <- as.data.frame(d)
  d$x <- d[[along]]
  other <- if (along == "participants") "days" else "participants"
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$x, y = .data$power, colour = .data$analysis)) +
    ggplot2::geom_pointrange(ggplot2::aes(ymin = .data$power_low, ymax = .data$power_high)) +
    ggplot2::geom_line() +
    ggplot2::facet_wrap(stats::as.formula(paste("~", other)), labeller = ggplot2::label_both) +
    ggplot2::labs(x = along, y = "power", colour = "data")
  if (!is.null(target)) p <- p + ggplot2::geom_hline(yintercept = target, linetype = "dashed")
  p
}

plot_power <- function(d, along, target, x_in = d) {
  if (requireNamespace("ggplot2", quietly = TRUE)) {
    p <- power_ggplot(d, along, target)
    print(p)
    return(invisible(p))
  }
  d <- as.data.frame(d)
  graphics::plot(d[[along]], d$power, type = "n", ylim = c(0, 1), xlab = along, ylab = "power")
  analyses <- unique(d$analysis)
  for (i in seq_along(analyses)) {
    s <- d[d$analysis == analyses[i], ]
    s <- s[order(s[[along]]), ]
    graphics::lines(s[[along]], s$power, type = "b", col = i)
  }
  if (!is.null(target)) graphics::abline(h = target, lty = 2)
  graphics::legend("bottomright", legend = analyses, col = seq_along(analyses), lty = 1)
  invisible(x_in)
}
