plan_study <- function(slope, slope_sd = 1) {
  list(
    name = "power test", duration = "7d",
    population = list(size = 20, state = list(company = list(share = 0.4, slope = slope, slope_sd = slope_sd))),
    protocol = list(window = "08:00-22:00", expiry = "30m", schedule = list(algorithm = "fixed-blocks", per_day = 5))
  )
}

test_that("esm_power needs company and one protocol: otherwise a classed error naming the key", {
  e <- expect_error(esm_power(small_study(), participants = 10, days = 3, replications = 2), class = "esmsim_scenario_error")
  expect_equal(e$key, "population.state.company")
  with_variants <- plan_study(3)
  with_variants$variants <- list(list(name = "a"))
  e <- expect_error(esm_power(with_variants, participants = 10, days = 3, replications = 2), class = "esmsim_scenario_error")
  expect_equal(e$key, "variants")
})

test_that("power rises with participants; complete data have more answers; MCAR has the answered count", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  r <- esm_power(plan_study(4), participants = c(8, 40), days = 7, replications = 40, quiet = TRUE, seed = 5)
  expect_equal(nrow(r), 6)
  expect_setequal(unique(r$analysis), c("answered", "complete", "mcar"))
  expect_true(all(r$power >= r$power_low & r$power <= r$power_high))
  answered <- r[r$analysis == "answered", ]
  # 8 against 40 participants: a slope of 4 (sd 1) against noise sd 13 is found far more often.
  expect_gt(answered$power[answered$participants == 40], answered$power_high[answered$participants == 8])
  for (n in c(8, 40)) {
    a <- r[r$participants == n, ]
    expect_gt(a$answers[a$analysis == "complete"], a$answers[a$analysis == "answered"])
    expect_equal(a$answers[a$analysis == "mcar"], a$answers[a$analysis == "answered"])
  }
  # The complete data's estimate is unbiased: within 3 Monte Carlo standard errors.
  complete <- r[r$analysis == "complete" & r$participants == 40, ]
  expect_lt(abs(complete$bias), 3 * complete$bias_se)
  expect_equal(attr(r, "slope"), 4)
})

test_that("without an effect the test rejects about alpha of the time", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  r <- esm_power(plan_study(0, 0), participants = 30, days = 7, replications = 60, quiet = TRUE, seed = 9)
  # At alpha 0.05, 60 replications: 9 or more rejections has probability under 0.01.
  expect_true(all(r$power < 9 / 60))
})

test_that("the results do not depend on the number of worker processes", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  one <- esm_power(plan_study(3), participants = 12, days = 5, replications = 6, quiet = TRUE, cores = 1)
  two <- esm_power(plan_study(3), participants = 12, days = 5, replications = 6, quiet = TRUE, cores = 2)
  columns <- setdiff(names(one), "seconds")
  expect_equal(one[, columns], two[, columns])
})
