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

test_that("a design that cannot run is refused before any design runs, naming it", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  study <- plan_study(4)
  study$protocol$schedule <- list(algorithm = "fixed-times", times = c("09:00", "13:00", "17:00"))
  said <- character()
  e <- withCallingHandlers(
    expect_error(esm_power(study, participants = 10, days = 2, per_day = c(3, 5), replications = 2),
                 "design 2 of 2 \\(10 participants, 2 days, 5 a day\\) cannot run"),
    message = function(m) {
      said <<- c(said, conditionMessage(m))
      invokeRestart("muffleMessage")
    }
  )
  # Design 1 (3 a day) can run, but did not: nothing was simulated before the refusal.
  expect_false(any(grepl("design 1 of 2", said)))
  expect_match(conditionMessage(e), "not 5")
})

test_that("esm_power says its own arguments; per_day and schedule vary protocol.schedule only", {
  for (a in list(list(seed = -1), list(replications = 0), list(replications = 2.5))) {
    e <- expect_error(do.call(esm_power, c(list(plan_study(4), participants = 10, days = 2), a)),
                      class = "esmsim_run_error")
    expect_match(conditionMessage(e), sprintf("the argument %s is a whole number", names(a)))
    expect_equal(e$argument, names(a))
  }
  expect_error(esm_power(plan_study(4), participants = 10, days = 2, per_day = integer(0)), "per_day are whole numbers")
  expect_error(esm_power(plan_study(4), participants = 10, days = 2, per_day = 2.5), "per_day are whole numbers")
  expect_error(esm_power(plan_study(4), participants = 10, days = 2, schedule = 3), "schedule names schedule algorithms")
  skip_if_not_installed("lme4")
  study <- plan_study(4)
  study$protocol <- list(window = "09:00-21:00", questionnaires = list(
    list(name = "a", expiry = "30m", schedule = list(algorithm = "fixed-blocks", per_day = 4))))
  expect_error(esm_power(study, participants = 10, days = 2, per_day = c(3, 5)),
               "which this scenario does not use \\(it has protocol.questionnaires\\)")
  # truth is for a model of one's own variables: without them it was ignored.
  expect_error(esm_power(plan_study(4), participants = 10, days = 2, truth = 4), "truth is the tested coefficient")
})

test_that("large seeds run (the fits' seeds overflowed R's integers from 2148 on); a file's design error names the file", {
  expect_equal(task_seed(1, 3), 1000006)   # as before for small seeds
  expect_true(task_seed(2^53, 200) < 2^31 - 1 && task_seed(5000, 1) == (5000 * 1000003 + 1) %% 2147483647)
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  r <- esm_power(plan_study(4), participants = 10, days = 2, replications = 2, seed = 20260101, quiet = TRUE, cores = 1,
                 truth = NULL)
  expect_equal(nrow(r), 3)
  expect_error(esm_power_curve(plan_study(4), along = "participants", values = c(10, 12), days = 2, per_day = c(3, 4)),
               "give one value of per_day")
  skip_if_not_installed("yaml")
  study <- plan_study(4)
  study$protocol$schedule <- list(algorithm = "fixed-times", times = c("09:00", "13:00", "17:00"))
  file <- tempfile(fileext = ".yaml")
  yaml::write_yaml(study, file)
  e <- expect_error(esm_power(file, participants = 10, days = 2, per_day = c(3, 5), replications = 2),
                    class = "esmsim_scenario_error")
  expect_equal(e$file, file)
  expect_true(is.na(e$element) && is.na(e$line))
  expect_match(conditionMessage(e), "design 2 of 2 .* cannot run: .*protocol.schedule.per_day: 3 clock times")
})

test_that("a questionnaire is a column a model of the answers can use", {
  skip_if_not_installed("lme4")
  cols <- list(variables = "mood", predictors = character(), items = character(), questionnaires = c("day", "evening"))
  d <- answers_template(cols)
  expect_setequal(unique(d$questionnaire), c("day", "evening"))
  expect_silent(check_model(mood ~ questionnaire + (1 | participant), "questionnaireevening", d))
  study <- list(population = list(variables = list(list(name = "mood"))),
                protocol = list(questionnaires = list(list(name = "day"), list(name = "evening"))))
  expect_equal(answer_names(study)$questionnaires, c("day", "evening"))
  expect_equal(answer_names(list(population = study$population))$questionnaires, "esm")
})

test_that("designs run in expand.grid's order and print with the prompts a day they vary", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  r <- esm_power(plan_study(4), participants = c(10, 12), days = 2, per_day = c(3, 4), replications = 3, quiet = TRUE,
                 cores = 1)
  designs <- unique(r[, c("participants", "per_day")])
  expect_equal(designs$participants, c(10, 12, 10, 12))
  expect_equal(designs$per_day, c(3, 3, 4, 4))
  printed <- paste(utils::capture.output(print(r)), collapse = "\n")
  expect_match(printed, "per_day")
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

# The same design simulated independently in R with lme4 alone: participants with a random
# intercept (sd 8) and their own slope of company (normal around `slope`, sd `slope_sd`),
# company on 40 % of 5 prompts a day, the state's noise sd 13 (esmsim's state sd 10 and
# report noise 5 and 8 within a day, taken as one: an approximation, so the check is loose
# by design: within 4 Monte Carlo standard errors of both and 0.12).
independent_power <- function(n, days, slope, slope_sd, replications, alpha = 0.05) {
  set.seed(11)
  rejections <- 0
  for (r in seq_len(replications)) {
    person <- rep(seq_len(n), each = days * 5)
    company <- stats::rbinom(length(person), 1, 0.4)
    b <- stats::rnorm(n, slope, slope_sd)[person]
    y <- stats::rnorm(n, 0, 8)[person] + b * company + stats::rnorm(length(person), 0, 13)
    d <- data.frame(y = y, x = company - stats::ave(company, person), person = factor(person))
    fit <- suppressMessages(suppressWarnings(lme4::lmer(y ~ x + (1 + x | person), d,
                                                        control = lme4::lmerControl(calc.derivs = FALSE))))
    est <- lme4::fixef(fit)[["x"]]
    se <- sqrt(stats::vcov(fit)[2, 2])
    rejections <- rejections + (2 * stats::pnorm(-abs(est / se)) < alpha)
  }
  rejections / replications
}

test_that("a formula model's power on complete data agrees with an independent lme4 simulation; state-dependent answers lose power", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  r <- esm_power(plan_study(3, 1), participants = 30, days = 7, replications = 60, quiet = TRUE, seed = 3,
                 model = state ~ company_within + (1 + company_within | participant), term = "company_within")
  expect_s3_class(r, "esm_power")
  expect_true(all(r$test %in% c("Satterthwaite t (lmerTest)", "Wald z")))
  if (requireNamespace("lmerTest", quietly = TRUE)) expect_equal(r$test[[1]], "Satterthwaite t (lmerTest)")
  complete <- r[r$analysis == "complete", ]
  independent <- independent_power(30, 7, 3, 1, 60)
  se <- sqrt(complete$power * (1 - complete$power) / 60 + independent * (1 - independent) / 60)
  expect_lt(abs(complete$power - independent), max(4 * se, 0.12))
  # Answering that depends on the state: the answered data's power falls below the complete data's.
  biased <- plan_study(3, 1)
  biased$population$compliance <- list(state_dependence = 2)
  b <- esm_power(biased, participants = 30, days = 7, replications = 60, quiet = TRUE, seed = 3,
                 model = state ~ company_within + (1 + company_within | participant))
  expect_lt(b$power[b$analysis == "answered"], b$power[b$analysis == "complete"])
  # A function model: estimate and p-value from the data frame.
  f <- esm_power(plan_study(3, 1), participants = 12, days = 4, replications = 4, quiet = TRUE, seed = 3,
                 model = function(d) {
                   fit <- stats::lm(state ~ company_within + participant, d)
                   c(estimate = unname(stats::coef(fit)[["company_within"]]),
                     p_value = summary(fit)$coefficients["company_within", 4])
                 })
  expect_equal(f$test[[1]], "the model's function")
  expect_true(all(is.finite(f$estimate)))
  expect_output(print(r), "esmsim power")
  expect_output(print(summary(r)), "^1 design; power on the answered data")
  skip_if_not_installed("ggplot2")
  expect_equal(nrow(ggplot2::ggplot_build(ggplot2::autoplot(r))$data[[1]]), nrow(r))
})

test_that("esm_missingness's mask applied to the complete data gives exactly the answered data", {
  skip_without_esmsim()
  study <- plan_study(3, 1)
  study$seed <- 4
  mask <- esm_missingness(study, participants = 10)
  expect_equal(min(mask$participant), 1L)
  expect_equal(unique(mask$replication), 1L)
  # Typed as esm_read() types prompts.csv.
  expect_s3_class(mask$scheduled, "POSIXct")
  expect_true(is.factor(mask$variant))
  expect_equal(min(mask$prompt), 1L)
  # The complete data: every prompt due, as esm_power's data numbers them.
  output <- tempfile()
  esm_run(study, output = output, participants = 10, quiet = TRUE)
  p <- utils::read.csv(file.path(output, "prompts.csv"), na.strings = "")
  p <- p[p$volunteered == 0, ]
  complete <- data.frame(participant = p$participant, prompt = p$prompt)
  answered <- complete[p$status == "answered", ]
  masked <- merge(complete, mask[mask$answered, c("participant", "prompt")])
  key <- function(d) sort(paste(d$participant, d$prompt))
  expect_equal(key(masked), key(answered))
  expect_equal(nrow(mask), nrow(complete))
})

test_that("a power curve finds the smallest participants reaching the target, and prints and plots", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  curve <- esm_power_curve(plan_study(4), along = "participants", values = c(6, 30), days = 7, target = 0.8,
                           replications = 20, quiet = TRUE, seed = 5)
  expect_s3_class(curve, "esm_power_curve")
  a <- as.data.frame(curve$curve)[curve$curve$analysis == "answered", ]
  reaching <- a$participants[a$power >= 0.8]
  expect_equal(curve$smallest, if (length(reaching)) min(reaching) else NA_integer_)
  expect_output(print(curve), "power curve along participants")
  # It summarises like esm_power's rows, with the smallest value; as.data.frame gives those rows.
  expect_equal(as.data.frame(curve), as.data.frame(curve$curve))
  s <- summary(curve)
  expect_s3_class(s, "summary.esm_power_curve")
  expect_equal(s$designs, 2)
  expect_output(print(s), "^2 designs; power on the answered data")
  expect_output(print(s), if (is.na(curve$smallest)) "No participants reaches" else "Smallest participants reaching 0.80")
  one <- structure(list(designs = 1, power = c(0.13, 0.13), bias = 0, test = "t", reaching_80 = data.frame()),
                   class = "summary.esm_power")
  expect_output(print(one), "^1 design; power on the answered data 0.13; ")
  skip_if_not_installed("ggplot2")
  built <- ggplot2::ggplot_build(ggplot2::autoplot(curve))
  expect_equal(nrow(built$data[[1]]), nrow(curve$curve))
})

test_that("a scenario file is read (with the yaml package) as the list it holds", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  skip_if_not_installed("yaml")
  path <- tempfile(fileext = ".yaml")
  on.exit(unlink(path), add = TRUE)
  writeLines(c("name: ar", "duration: 4d", "population:", "  size: 20", "  variables:",
               "    - {name: mood, mean: 50, person_sd: 10, sd: 12, reversion: 95m}",
               "protocol:", "  window: \"08:00-22:00\"", "  expiry: 30m",
               "  schedule: {algorithm: fixed-times, times: [\"09:00\", \"12:00\", \"15:00\", \"18:00\", \"21:00\"]}"), path)
  args <- list(participants = 8, days = 2, replications = 4, quiet = TRUE, seed = 3,
               model = mood ~ mood_lag_within + (1 | participant), term = "mood_lag_within")
  from_file <- do.call(esm_power, c(list(path), args))
  from_list <- do.call(esm_power, c(list(yaml::read_yaml(path)), args))
  expect_equal(from_file$estimate, from_list$estimate)
  expect_equal(from_file[from_file$analysis == "complete", "answers"][[1]], 8 * 2 * 5)
})

test_that("a formula naming a column the data do not have fails at once, with R's message", {
  # No esmsim needed: the formula is checked before anything is simulated.
  skip_if_not_installed("lme4")
  e <- expect_error(esm_power(plan_study(3), participants = 30, days = 7, replications = 10,
                              model = mood ~ stress + (1 + stress | participant)),
                    class = "esmsim_model_error")
  expect_match(conditionMessage(e), "object 'mood' not found", fixed = TRUE)
  e <- expect_error(esm_power(plan_study(3), participants = 30, days = 7, replications = 10,
                              model = state ~ company + (1 | participant), term = "company_within"),
                    class = "esmsim_model_error")
  expect_match(conditionMessage(e), "no coefficient company_within")
})

test_that("failed fits are counted and reported; when every fit fails the first error is raised", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  expect_error(esm_power(plan_study(3), participants = 8, days = 3, replications = 3, quiet = TRUE, cores = 1,
                         model = function(d) stop("the analysis broke")),
               "every fit failed \\(9 of 9\\); the first error: the analysis broke")
  calls <- 0
  every_third_fails <- function(d) {
    calls <<- calls + 1
    if (calls %% 3 == 0) stop("third call")
    warning("a warning")
    c(estimate = 1, p_value = 0.01)
  }
  expect_warning(
    r <- esm_power(plan_study(3), participants = 8, days = 3, replications = 4, quiet = TRUE, cores = 1,
                   model = every_third_fails),
    "mcar data: no fit succeeded \\(4 errors; the first: third call\\)")
  # 12 fits (4 replications x 3 analyses, in order answered, complete, mcar): calls 3, 6, 9, 12 fail, all mcar.
  expect_equal(r$failed[r$analysis == "mcar"], 4L)
  expect_equal(sum(r$failed), 4L)
  expect_equal(r$replications[r$analysis == "answered"], 4L)
  expect_true(is.na(r$power[r$analysis == "mcar"]))
  expect_equal(sum(r$warnings), 8L)
  expect_output(print(r), "\\(8 warnings, 4 errors\\): the first error: third call")
  # A subset prints too.
  expect_output(print(r[r$analysis == "answered", ]), "esmsim power")
})

# A study with one variable, mood, answered at five fixed times three hours apart: its
# autocorrelation over a gap of three hours is exp(-180 / 95) = 0.150.
ar_study <- function() {
  list(
    name = "ar", seed = 11, duration = "4d",
    population = list(size = 20, variables = list(list(name = "mood", mean = 50, person_sd = 10, sd = 12,
                                                         reversion = "95m"))),
    protocol = list(window = "08:00-22:00", expiry = "30m",
                    schedule = list(algorithm = "fixed-times", times = c("09:00", "12:00", "15:00", "18:00", "21:00")))
  )
}

# The same design written with lme4 alone: person means N(50, 10), within each day an AR(1)
# with phi = exp(-180 / 95) and stationary sd 12 started from its stationary law (twelve
# hours overnight leave exp(-720 / 95) < 0.001 of the evening), the AR term centred within
# person and lagged within day, fitted as esm_power() fits it.
independent_ar <- function(n, days, replications, seed) {
  phi <- exp(-180 / 95)
  independent_fits(function() {
    rows <- do.call(rbind, lapply(seq_len(n), function(p) {
      mu <- stats::rnorm(1, 50, 10)
      do.call(rbind, lapply(seq_len(days), function(d) {
        x <- numeric(5)
        x[1] <- stats::rnorm(1, 0, 12)
        for (k in 2:5) x[k] <- phi * x[k - 1] + stats::rnorm(1, 0, 12 * sqrt(1 - phi^2))
        data.frame(participant = p, day = d, mood = mu + x)
      }))
    }))
    within <- rows$mood - stats::ave(rows$mood, rows$participant)
    rows$mood_lag_within <- ave(within, rows$participant, rows$day, FUN = function(v) c(NA, v[-length(v)]))
    rows
  }, mood ~ mood_lag_within + (1 | participant), "mood_lag_within", replications, seed)
}

# Fits `model` (lmer, as esm_power() fits it: Satterthwaite where lmerTest is installed) to
# `replications` data sets made by `simulate()` after set.seed(seed): power at 0.05, the
# mean estimate of `term` and its sd.
independent_fits <- function(simulate, model, term, replications, seed) {
  set.seed(seed)
  satterthwaite <- requireNamespace("lmerTest", quietly = TRUE)
  fits <- t(vapply(seq_len(replications), function(r) {
    rows <- simulate()
    rows$participant <- factor(rows$participant)
    fit <- suppressMessages(suppressWarnings((if (satterthwaite) lmerTest::lmer else lme4::lmer)(
      model, rows, control = lme4::lmerControl(calc.derivs = FALSE))))
    table <- stats::coef(summary(fit))
    p <- if (satterthwaite) table[term, "Pr(>|t|)"] else 2 * stats::pnorm(-abs(table[term, "Estimate"] / table[term, "Std. Error"]))
    c(estimate = table[term, "Estimate"], p = p)
  }, c(estimate = 0, p = 0)))
  list(power = mean(fits[, "p"] < 0.05), estimate = mean(fits[, "estimate"]), sd = stats::sd(fits[, "estimate"]))
}

test_that("an AR(1) model of a simulated variable: complete-data power and estimate agree with lme4 alone; gaps lower the estimate", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  reps <- 200
  r <- esm_power(ar_study(), participants = 20, days = 4, replications = reps, quiet = TRUE, seed = 11,
                 model = mood ~ mood_lag_within + (1 | participant), term = "mood_lag_within", truth = exp(-180 / 95))
  complete <- r[r$analysis == "complete", ]
  expect_equal(complete$answers, 20 * 4 * 5)
  independent <- independent_ar(20, 4, reps, 12)
  se <- sqrt(complete$power * (1 - complete$power) / reps + independent$power * (1 - independent$power) / reps)
  expect_lt(abs(complete$power - independent$power), 4 * se)
  # The mean estimates (each with its Monte Carlo standard error sd / sqrt(reps)).
  expect_lt(abs(complete$estimate - independent$estimate), 4 * sqrt(2) * independent$sd / sqrt(reps))
  # Lags in the answered data span the prompts missed (six hours and more): the estimate falls.
  answered <- r[r$analysis == "answered", ]
  expect_lt(answered$answers, complete$answers)
  expect_lt(answered$estimate, complete$estimate)
  expect_true(is.finite(complete$bias) && is.finite(complete$coverage))
})

test_that("with variables, a formula naming an unknown column fails at once with R's message; a model is required", {
  skip_if_not_installed("lme4")
  expect_error(esm_power(ar_study(), participants = 5, days = 2, replications = 2, quiet = TRUE,
                         model = mood ~ stress_within + (1 | participant), term = "stress_within"),
               "object 'stress_within' not found", class = "esmsim_model_error")
  expect_error(esm_power(ar_study(), participants = 5, days = 2, replications = 2, quiet = TRUE),
               "give model", class = "esmsim_model_error")
})

# Mood and stress at five fixed times three hours apart; both fluctuate with a time constant
# of 30 minutes (autocorrelation exp(-6) = 0.002 between prompts: independent); mood falls by
# 1.5 (a person's own slope, sd 1.5) per unit of stress above the person's mean.
slope_study <- function() {
  list(
    name = "slope", seed = 13, duration = "4d",
    population = list(size = 20, variables = list(
      list(name = "stress", mean = 3, person_sd = 1, sd = 1, reversion = "30m"),
      list(name = "mood", mean = 50, person_sd = 10, sd = 12, reversion = "30m",
           effects = list(stress = list(slope = -1.5, slope_sd = 1.5)))
    )),
    protocol = list(window = "08:00-22:00", expiry = "30m",
                    schedule = list(algorithm = "fixed-times", times = c("09:00", "12:00", "15:00", "18:00", "21:00")))
  )
}

# The same design with lme4 alone: independent prompts, stress = mu_s + N(0, 1), mood = mu_m +
# b (stress - mu_s) + N(0, 12), b ~ N(-1.5, 1.5), fitted as esm_power() fits it.
independent_slope <- function(n, days, replications, seed) {
  independent_fits(function() {
    rows <- do.call(rbind, lapply(seq_len(n), function(p) {
      k <- 5 * days
      ms <- stats::rnorm(1, 3, 1)
      b <- stats::rnorm(1, -1.5, 1.5)
      x <- stats::rnorm(k, 0, 1)
      data.frame(participant = p, stress = ms + x, mood = stats::rnorm(1, 50, 10) + b * x + stats::rnorm(k, 0, 12))
    }))
    rows$stress_within <- rows$stress - stats::ave(rows$stress, rows$participant)
    rows
  }, mood ~ stress_within + (1 + stress_within | participant), "stress_within", replications, seed)
}

test_that("a random-slope model of simulated variables: complete-data power and estimate agree with lme4 alone", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  reps <- 100
  r <- esm_power(slope_study(), participants = 20, days = 4, replications = reps, quiet = TRUE, seed = 13,
                 model = mood ~ stress_within + (1 + stress_within | participant), term = "stress_within", truth = -1.5)
  complete <- r[r$analysis == "complete", ]
  independent <- independent_slope(20, 4, reps, 14)
  se <- sqrt(complete$power * (1 - complete$power) / reps + independent$power * (1 - independent$power) / reps)
  expect_lt(abs(complete$power - independent$power), 4 * se)
  expect_lt(abs(complete$estimate - independent$estimate), 4 * sqrt(2) * independent$sd / sqrt(reps))
  expect_lt(abs(complete$bias), 4 * complete$bias_se)
})

test_that("a binary variable as outcome: glmer with a binomial family finds its effect", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  s <- slope_study()
  s$population$variables[[3]] <- list(name = "alone", kind = "binary", share = 0.4, reversion = "30m",
                                      effects = list(stress = 1))
  r <- esm_power(s, participants = 20, days = 4, replications = 10, quiet = TRUE, seed = 13, family = binomial,
                 model = alone ~ stress_within + (1 | participant), term = "stress_within")
  expect_true(all(r$test == "Wald z (glmer)"))
  # A probit slope of 1 per sd of stress (a logit slope near 1.7): found in every complete data set.
  complete <- r[r$analysis == "complete", ]
  expect_equal(complete$power, 1)
  expect_gt(complete$estimate, 1)
})

test_that("docs/power.md's own-simulation example runs on esmsim's mask: complete and answered fits, the answered rows the mask's", {
  skip_without_esmsim()
  skip_if_not_installed("lme4")
  lines <- readLines(repository_file("docs", "power.md"))
  start <- grep("^## Your own simulation with esmsim's gaps", lines)
  expect_length(start, 1)
  open <- start + which(lines[(start + 1):length(lines)] == "```r")[1]
  close <- open + which(lines[(open + 1):length(lines)] == "```")[1]
  code <- lines[(open + 1):(close - 1)]
  code <- sub("replications = 100", "replications = 10", code, fixed = TRUE)
  code <- code[code != "library(esmsim)"]
  env <- new.env()
  eval(parse(text = code), envir = env)
  runs <- env$runs
  expect_equal(nrow(runs), 10)
  answered <- tapply(env$mask$answered, env$mask$replication, sum)
  expect_equal(unname(runs[, "answers"]), unname(as.numeric(answered)))
  expect_true(all(runs[, "prompts"] == 60 * 7 * 5))
  expect_true(all(runs[, c("complete", "answered")] %in% c(0, 1)))
})
