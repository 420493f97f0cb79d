test_that("the option comes before the environment variable", {
  skip_without_esmsim()
  real <- esmsim_path()
  withr::local_envvar(ESMSIM = file.path(tempdir(), "no-such-esmsim"))
  withr::local_options(esmsim.path = real)
  expect_equal(esmsim_path(), real)
  expect_s3_class(esm_version(), "package_version")
  expect_true(esm_version() >= "0.1.0")
})

test_that("the quickstart returns typed tibbles, written only under tempdir()", {
  skip_without_esmsim()
  r <- esm_run(repository_file("scenarios", "quickstart.yaml"), participants = 20, duration = "3d", quiet = TRUE)
  expect_s3_class(r, "esm_results")
  expect_true(startsWith(r$folder, normalizePath(tempdir())))
  for (t in c("summary", "prompts", "participants", "coverage_summary")) expect_s3_class(r[[t]], "tbl_df")
  p <- r$prompts
  expect_s3_class(p$scheduled, "POSIXct")
  expect_s3_class(p$submitted, "POSIXct")
  expect_type(p$participant, "integer")
  expect_type(p$day, "integer")
  expect_type(p$received, "logical")
  expect_type(p$reported_state, "double")
  # Two variants x 2 replications x 20 participants x 3 days x 5 prompts.
  expect_equal(nrow(p), 2 * 2 * 20 * 3 * 5)
  expect_true(all(p$status %in% c("answered", "dismissed", "expired", "ignored", "undelivered", "dropped_out")))
  # Answered prompts have their times in order; the others have no submission.
  a <- p[p$status == "answered", ]
  expect_true(all(a$scheduled <= a$delivered & a$delivered <= a$noticed & a$noticed <= a$submitted))
  expect_true(all(is.na(p$submitted[p$status != "answered"])))
  expect_type(r$participants$completed, "integer")
  expect_type(r$participants$dropped_out, "logical")
  # The participants' answers add up to the prompts answered.
  expect_equal(sum(r$participants$completed), sum(p$status == "answered" & !p$volunteered))
  expect_type(r$summary$mean, "double")
  expect_true("compliance" %in% r$summary$metric)
})

test_that("output of NA, or of two names, is refused by name, and no folder named NA is made", {
  skip_without_esmsim()
  q <- repository_file("scenarios", "quickstart.yaml")
  dir <- withr::local_tempdir()
  withr::local_dir(dir)
  expect_error(esm_run(q, output = NA), "output is one file or folder name", class = "esmsim_run_error")
  expect_error(esm_run(q, output = c("a", "b")), "output is one file or folder name", class = "esmsim_run_error")
  expect_false(file.exists(file.path(dir, "NA")))
})

test_that("a scenario given as a list runs, with the overrides applied", {
  skip_without_esmsim()
  r <- esm_run(small_study(), quiet = TRUE)
  expect_equal(length(unique(r$participants$participant)), 30)
  expect_equal(nrow(r$prompts), 30 * 3 * 4)
  r2 <- esm_run(small_study(), participants = 10, seed = 99, quiet = TRUE)
  expect_equal(nrow(r2$participants), 10)
  expect_false(identical(r$folder, r2$folder))
  # A round number is passed in decimal: as.character(1e5) is "1e+05", which esmsim refused.
  r3 <- esm_run(small_study(), participants = 10, seed = 1e5, quiet = TRUE)
  expect_equal(r3$manifest$seed, 100000)
  expect_equal(arg_text(c(1e5, 2.5, 1e15)), c("100000", "2.5", "1000000000000000"))
  # A vector of one is written as a single value (jsonlite's auto_unbox): a list of one to esmsim
  # ("expected a list, found a single value" before).
  one <- small_study(protocol = list(schedule = list(algorithm = "fixed-times", per_day = NULL, times = c("09:00"),
                                                     weekdays = c("mon"))))
  r4 <- esm_run(one, quiet = TRUE)
  expect_equal(nrow(r4$prompts[!r4$prompts$volunteered, ]), 30)
})

test_that("a malformed list raises esmsim_scenario_error naming the key and the list element", {
  skip_without_esmsim()
  e <- expect_error(esm_run(small_study(population = list(size = -5)), quiet = TRUE), class = "esmsim_scenario_error")
  expect_s3_class(e, "esmsim_error")
  expect_equal(e$key, "population.size")
  expect_equal(e$element, "scenario$population$size")
  expect_true(is.na(e$file))
  expect_match(conditionMessage(e), "scenario\\$population\\$size: must be between")
  bad_variant <- small_study(variants = list(list(name = "base"), list(name = "late", protocol = list(expiry = "soon"))))
  e <- expect_error(esm_run(bad_variant, quiet = TRUE), class = "esmsim_scenario_error")
  expect_equal(e$key, "variants[late].protocol.expiry")
  expect_equal(e$element, "scenario$variants[[2]]$protocol$expiry")
})

test_that("a malformed file raises esmsim_scenario_error naming the file, key and line; nothing is left behind", {
  skip_without_esmsim()
  out <- file.path(tempdir(), "never-written")
  e <- expect_error(esm_run(test_path("fixtures", "bad-ringer.yaml"), output = out, quiet = TRUE), class = "esmsim_scenario_error")
  expect_equal(e$key, "population.phones.ringer.silent")
  expect_equal(e$line, 5L)
  expect_equal(e$file, test_path("fixtures", "bad-ringer.yaml"))
  expect_false(file.exists(out))
})

test_that("an existing results folder is not replaced unless forced", {
  skip_without_esmsim()
  out <- tempfile("esmsim-kept-")
  esm_run(small_study(), output = out, quiet = TRUE)
  e <- expect_error(esm_run(small_study(), output = out, quiet = TRUE), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "already exists; choose another folder or give force = TRUE to replace it")
  expect_s3_class(esm_run(small_study(), output = out, force = TRUE, quiet = TRUE), "esm_results")
})

test_that("schedule comparison: one row per algorithm, measures as numbers", {
  skip_without_esmsim()
  s <- esm_compare_schedules(per_day = 5, window = "08:00-22:00", days = 30, min_gap = 60)
  expect_s3_class(s, "tbl_df")
  expect_true(all(c("mappiness", "fixed-blocks", "bernoulli") %in% s$algorithm))
  expect_type(s$ks_d, "double")
  expect_type(s$held_out_days, "integer")
  # Fixed blocks with a gap rule keep their signals an hour apart; the unconstrained ones need not.
  expect_gte(min(s$min_gap[s$algorithm == "fixed-blocks" & s$gap_method == "truncation"]), 60)
  e <- expect_error(esm_compare_schedules(per_day = 5, window = "25:00-26:00"), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "window")
  # What esmsim skips is said: a warning with its reason (Mappiness sends at most 5 a day),
  # an error when it can run none (they were dropped without a word: a 0-row tibble).
  said <- character()
  g <- withCallingHandlers(esm_compare_schedules(per_day = 6, window = "08:00-22:00", days = 7),
                           warning = function(w) {
                             said <<- c(said, conditionMessage(w))
                             invokeRestart("muffleWarning")
                           })
  expect_equal(length(said), 1)
  expect_match(said, "^mappiness skipped: --per-day")
  expect_false("mappiness" %in% g$algorithm)
  expect_true("fixed-blocks" %in% g$algorithm)
  expect_true(all(g$signals_per_day > 0))
  e <- expect_error(esm_compare_schedules(per_day = 2.5, window = "08:00-08:02"), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "mappiness: --per-day")
  # A vector of times is esmsim's comma-separated list ("Unexpected argument '17:00'" before);
  # format, output and unnamed extras are refused by name (a JSON parse error, or ignored).
  t <- esm_compare_schedules(per_day = 2, window = "08:00-22:00", days = 3, times = c("09:00", "17:00"))
  expect_true("fixed-times" %in% t$algorithm)
  expect_error(esm_compare_schedules(2, "08:00-22:00", format = "table"), "sets format itself", class = "esmsim_run_error")
  expect_error(esm_compare_schedules(5, "08:00-22:00", 3, NULL, 1, 10), "is named", class = "esmsim_run_error")
  e <- expect_error(esm_compare_schedules(per_day = -1, window = "08:00-22:00"), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "--per-day")
})

test_that("esm_read refuses a folder that is not a results folder; a column subset of power prints as a table", {
  # Not one name: said as such ("the condition has length > 1", "invalid filename argument" before).
  expect_error(esm_read(c("a", "b")), "takes one results folder", class = "esmsim_run_error")
  expect_error(esm_read(NULL), "takes one results folder", class = "esmsim_run_error")
  folder <- tempfile("not-results-")
  dir.create(folder)
  on.exit(unlink(folder, recursive = TRUE), add = TRUE)
  e <- expect_error(esm_read(folder), class = "esmsim_read_error")
  expect_match(conditionMessage(e), "not an esmsim results folder")
  pw <- structure(tibble::tibble(participants = 20L, days = 7L, analysis = "answered", power = 0.8, replications = 10L),
                  class = c("esm_power", "tbl_df", "tbl", "data.frame"))
  expect_output(print(pw), "1 design x 10 replications")
  expect_output(print(pw[, c("analysis", "power")]), "answered")
  expect_false(any(grepl("no fit succeeded", capture.output(print(pw[, c("analysis", "power")])))))
})

test_that("a run's results summarise and plot; variants in the scenario's order; numbering from 1", {
  skip_without_esmsim()
  s <- small_study(variants = list(list(name = "zeta"), list(name = "alpha", protocol = list(expiry = "10m"))))
  r <- esm_run(s, quiet = TRUE, progress = FALSE)
  expect_equal(levels(r$prompts$variant), c("zeta", "alpha"))
  expect_equal(min(r$prompts$participant), 1L)
  expect_equal(min(r$prompts$day), 1L)
  expect_equal(min(r$prompts$prompt), 1L)
  expect_equal(sort(unique(r$prompts$replication)), 1L)
  expect_equal(max(r$participants$participant), 30L)
  sm <- summary(r)
  expect_equal(as.character(sm$variant), c("zeta", "alpha"))
  expect_true(all(sm$answered > 0 & sm$answered < 1))
  # A shorter expiry answers less.
  expect_lt(sm$answered[2], sm$answered[1])
  expect_output(print(sm), "by variant")
  skip_if_not_installed("ggplot2")
  for (what in c("answers", "fates")) {
    built <- ggplot2::ggplot_build(ggplot2::autoplot(r, what = what))
    expect_gt(nrow(built$data[[1]]), 0)
  }
  expect_error(plot(r, what = "coverage"), "coverage_summary")
})

test_that("with progress, the bar is drawn from esmsim's progress lines and the results are the same", {
  skip_without_esmsim()
  s <- small_study()
  quiet <- esm_run(s, quiet = TRUE, progress = FALSE)
  drawn <- capture.output(with_bar <- esm_run(s, quiet = TRUE, progress = TRUE), type = "message")
  expect_true(any(grepl("left", drawn)))
  expect_equal(with_bar$summary, quiet$summary)
})

test_that("the answers plot draws each variant's own answers target, the one summary()'s share counts", {
  skip_without_esmsim()
  s <- small_study(protocol = list(window = "08:00-22:00", schedule = list(algorithm = "fixed-blocks", per_day = 4),
                                   expiry = "30m", answers_target = 7),
                   variants = list(list(name = "seven"), list(name = "five", protocol = list(answers_target = 5))))
  r <- esm_run(s, quiet = TRUE, progress = FALSE)
  sm <- summary(r)
  expect_equal(sm$answers_target, c(7, 5))
  # esmsim's default people: the range a real study's answered share lies in, around theirs.
  points <- r$manifest$between_studies_points$seven
  expect_gt(points, 0)
  expect_equal(sm$real_study_low, pmax(0, sm$answered - points / 100))
  expect_equal(sm$real_study_high, pmin(1, sm$answered + points / 100))
  own <- esm_run(small_study(population = list(size = 5, compliance = list(answer_probability = 0.7))),
                 quiet = TRUE, progress = FALSE)
  expect_true(all(is.na(summary(own)$real_study_low)))
  share <- tapply(r$participants$completed >= c(seven = 7, five = 5)[as.character(r$participants$variant)],
                  r$participants$variant, mean)
  expect_equal(unname(sm$share_reaching_target), as.vector(share[c("seven", "five")]))
  skip_if_not_installed("ggplot2")
  built <- ggplot2::ggplot_build(ggplot2::autoplot(r, what = "answers"))
  lines <- built$data[[2]]
  expect_setequal(lines$xintercept, c(7, 5))
  expect_match(built$plot$labels$title, "target 7, 5")
})

test_that("the example scenarios and pilot ship with the package, as the repository has them", {
  expect_true("quickstart.yaml" %in% esm_example())
  expect_true("pilot.csv" %in% esm_example())
  expect_error(esm_example("nope.yaml"), "no example 'nope.yaml'")
  shipped <- esm_example("quickstart.yaml")
  expect_true(file.exists(shipped))
  # The copies match the repository's (make examples copies them).
  for (name in setdiff(esm_example(), "pilot.csv")) {
    expect_equal(readLines(esm_example(name)), readLines(repository_file("scenarios", name)), info = name)
  }
  expect_equal(readLines(esm_example("pilot.csv")), readLines(repository_file("scenarios", "pilot-example.csv")))
  skip_without_esmsim()
  r <- esm_run(shipped, participants = 5, duration = "2d", quiet = TRUE, progress = FALSE)
  expect_gt(nrow(r$prompts), 0)
  cal <- esm_calibrate(esm_example("pilot.csv"), format = "csv", people = 20, bootstrap = 2)
  expect_equal(cal$pilot$participants, 24L)
})

test_that("the vignette is built into inst/doc from its current source, so vignette() finds it once installed", {
  source <- repository_file("r", "esmsim", "vignettes", "plan-a-study.Rmd")
  built <- repository_file("r", "esmsim", "inst", "doc", "plan-a-study.Rmd")
  expect_equal(readLines(built), readLines(source))
  expect_true(file.exists(repository_file("r", "esmsim", "inst", "doc", "plan-a-study.html")))
})

test_that("answers.csv is read typed: a row per prompt, the variables and items as numbers, flags as logicals", {
  skip_without_esmsim()
  s <- small_study()
  s$population$variables <- list(list(name = "mood", mean = 50, sd = 12))
  s$protocol$items <- list(list(name = "happy", measures = "mood", scale = "slider", error_sd = 5, shown = 0.5))
  r <- esm_run(s, quiet = TRUE)
  expect_equal(nrow(r$answers), nrow(r$prompts))
  expect_type(r$answers$mood, "double")
  expect_type(r$answers$answered, "logical")
  expect_equal(sum(r$answers$answered), sum(r$prompts$status == "answered"))
  # Each row names its prompt's questionnaire, as prompts.csv does (volunteered answers aside).
  expect_equal(r$answers$questionnaire, r$prompts$questionnaire[!r$prompts$volunteered])
  # Planned missingness: about half the items hidden (NA), the rest whole slider points.
  shown <- r$answers$happy[!is.na(r$answers$happy)]
  expect_true(length(shown) > 0.3 * nrow(r$answers) && length(shown) < 0.7 * nrow(r$answers))
  expect_true(all(shown == round(shown) & shown >= 0 & shown <= 100))
})

test_that("days.csv is read typed: a row per participant and day, its answers summing to participants.csv's", {
  skip_without_esmsim()
  s <- small_study()
  s$outputs <- list(days = TRUE)
  r <- esm_run(s, quiet = TRUE)
  expect_type(r$days$enrolled, "logical")
  expect_type(r$days$answered, "integer")
  expect_equal(nrow(r$days), nrow(r$participants) * max(r$days$day))
  by_person <- stats::aggregate(answered ~ variant + replication + participant, data = r$days, FUN = sum)
  joined <- merge(by_person, r$participants, by = c("variant", "replication", "participant"))
  expect_equal(nrow(joined), nrow(r$participants))
  expect_equal(joined$answered, joined$completed)
})

test_that("a scenario file's import paths stay its folder's when esm_power rewrites it; a mask needs prompts.csv", {
  read <- imports_from(list(name = "x", protocol = list(aware_schedule = "sub/a.json", expiry = "30m",
                                                         questionnaires = list(list(esmira_study = "/abs/s.json")))),
                       "/base")
  expect_equal(read$protocol$aware_schedule, file.path("/base", "sub/a.json"))
  expect_equal(read$protocol$expiry, "30m")
  expect_equal(read$protocol$questionnaires[[1]]$esmira_study, "/abs/s.json")
  skip_without_esmsim()
  e <- expect_error(esm_missingness(small_study(outputs = list(prompts = FALSE))), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "writes no prompts.csv")
})

test_that("arguments that cannot be run are said by name before anything runs", {
  e <- expect_error(esm_run(small_study(), participants = c(10, 20)), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "participants takes one value")
  # A bad value of an argument is said by the argument, not as the scenario file's key.
  e <- expect_error(esm_run(small_study(), duration = 2, quiet = TRUE), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "^esmsim: the argument duration: expected a duration with a unit")
  expect_equal(e$argument, "duration")
  # An argument esmsim reads as a command-line flag is said as the argument, not as the flag.
  e <- expect_error(esm_run(small_study(), seed = -1, quiet = TRUE), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "for the argument seed$")
  e <- expect_error(esm_run(small_study(), replications = 0, quiet = TRUE), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "^esmsim: the argument replications must be between 1 and")
  e <- expect_error(esm_power("no-such-study.yaml", participants = 10, days = 2), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "no scenario file no-such-study.yaml")
  e <- expect_error(esm_power(small_study(), participants = 10, days = 2, alpha = 2), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "alpha")
  # Fractional or missing participants and days are said by name (2.7 days ran 2 days; 2.5 days failed printing the curve).
  e <- expect_error(esm_power(small_study(), participants = 10, days = 2.7), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "days are whole numbers of at least 1, not 2.7")
  e <- expect_error(esm_power(small_study(), participants = NA, days = 2), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "^esmsim: participants are whole numbers")
  e <- expect_error(esm_power_curve(small_study(), values = 10, days = 2.5), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "days are whole numbers")
  e <- expect_error(esm_power_curve(small_study(), values = c(10, 20), days = 2, target = -1), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "target")
})
