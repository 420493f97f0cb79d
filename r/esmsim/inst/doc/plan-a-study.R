## ----setup, include = FALSE---------------------------------------------------
# The chunks run where the esmsim program is found (ESMSIM, the option esmsim.path or the
# PATH) and FULL_GRID is set: the full grid takes minutes. Otherwise the code is shown and
# the figures are those of docs/power.md (scripts/power-grid.R, the same code).
library(esmsim)
found <- tryCatch({ esmsim_path(); TRUE }, esmsim_error = function(e) FALSE)
knitr::opts_chunk$set(eval = found && nzchar(Sys.getenv("FULL_GRID")), collapse = TRUE, comment = "#>")


## ----study--------------------------------------------------------------------
study <- list(
  name = "plan a study", seed = 1,
  population = list(
    preset = "own_phones", size = 30,
    state = list(company = list(share = 0.4, slope = 2, slope_sd = 2))
  ),
  protocol = list(
    window = "09:00-21:00", expiry = "30m",
    schedule = list(algorithm = "fixed-blocks", per_day = 5, min_gap = "60m", gap_method = "truncation")
  )
)


## ----grid---------------------------------------------------------------------
grid <- esm_power(study, participants = c(30, 60, 90), days = c(7, 14, 21), replications = 200)
grid[grid$analysis == "answered", c("participants", "days", "power", "power_low", "power_high", "answers")]


## ----design-------------------------------------------------------------------
d <- esm_design(study, "answers:30@0.9", days = 5:30, per_day = 3:6)
d        # the fewest days per prompts a day, and the cheapest design
plot(d)  # the share against days, a line per prompts a day, the target dashed


## ----curve--------------------------------------------------------------------
curve <- esm_power_curve(study, along = "participants", values = c(30, 60, 90), days = 14,
                         target = 0.8, replications = 200,
                         model = state ~ company_within + hour + (1 + company_within | participant))
curve
plot(curve)


## ----state--------------------------------------------------------------------
feeling <- study
feeling$population$compliance <- list(state_dependence = 2)
biased <- esm_power(feeling, participants = c(30, 60, 90), days = c(7, 14, 21), replications = 200)
aggregate(estimate ~ analysis, biased, mean)

