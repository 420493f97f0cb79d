# The power grid of docs/power.md and the vignette "Plan a study in R": 9 designs
# (30/60/90 participants x 7/14/21 days, 5 prompts a day) x 200 replications, each analysed
# on the answers, on the complete data and MCAR at the same count; then the same grid with
# state-dependent non-response. Prints markdown tables and the timings.
#   ESMSIM=.build/release/esmsim Rscript scripts/power-grid.R > /tmp/power.md   (make power)
suppressMessages(pkgload::load_all("r/esmsim", quiet = TRUE))

study <- function(state_dependence = 0) {
  list(
    name = "plan a study", seed = 1,
    population = list(
      preset = "own_phones", size = 30,
      state = list(company = list(share = 0.4, slope = 2, slope_sd = 2)),
      compliance = list(state_dependence = state_dependence)
    ),
    protocol = list(
      window = "09:00-21:00", expiry = "30m",
      schedule = list(algorithm = "fixed-blocks", per_day = 5, min_gap = "60m", gap_method = "truncation")
    )
  )
}

table <- function(r) {
  cells <- function(a) {
    x <- r[r$analysis == a, ]
    sprintf("%.2f [%.2f, %.2f]", x$power, x$power_low, x$power_high)
  }
  d <- unique(r[, c("participants", "days")])
  body <- data.frame(
    participants = d$participants, days = d$days, answers = round(r$answers[r$analysis == "answered"]),
    answered = cells("answered"), complete = cells("complete"), mcar = cells("mcar"),
    estimate = sprintf("%.2f (%.2f)", r$estimate[r$analysis == "answered"], r$bias_se[r$analysis == "answered"]),
    coverage = sprintf("%.2f", r$coverage[r$analysis == "answered"])
  )
  header <- "| participants | days | answers | power, answered | complete | MCAR | slope (se), answered | 95 % coverage |"
  rows <- apply(body, 1, function(x) paste0("| ", paste(x, collapse = " | "), " |"))
  paste(c(header, "|---|---|---|---|---|---|---|---|", rows), collapse = "\n")
}

run <- function(label, s) {
  started <- Sys.time()
  r <- esm_power(s, participants = c(30, 60, 90), days = c(7, 14, 21), replications = 200, cores = 2, quiet = TRUE)
  minutes <- as.numeric(difftime(Sys.time(), started, units = "mins"))
  cat(sprintf("\n### %s\n\n", label))
  cat(table(r), "\n")
  cat(sprintf("\nThe grid took %.1f minutes on %d cores (%s).\n", minutes, 2, format(Sys.Date())))
  by <- split(r, r$analysis)
  cat(sprintf(
    "Mean estimate over the grid: answered %.2f, complete %.2f, MCAR %.2f (planned 2).\n",
    mean(by$answered$estimate), mean(by$complete$estimate), mean(by$mcar$estimate)
  ))
  invisible(r)
}

missing_at_random <- run("Non-response that ignores the state", study(0))
state_dependent <- run("State-dependent non-response (`state_dependence: 2`)", study(2))
