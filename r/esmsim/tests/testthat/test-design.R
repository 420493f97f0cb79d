# The quickstart's phones and window, 100 participants, one schedule.
quickstart_phones <- function() {
  list(
    name = "design on the quickstart's phones", seed = 1, duration = "14d",
    population = list(size = 100, devices = list(ideal = 0.25, non_controlled = 0.45, heavy = 0.15, low_power = 0.15),
                      os = list(ios = 0.6, android = 0.4)),
    protocol = list(window = "08:00-22:00", schedule = list(algorithm = "mappiness", per_day = 5), expiry = "30m")
  )
}

test_that("esm_design finds the fewest days per prompts a day, as esmsim design does, and prints, summarises and plots", {
  skip_without_esmsim()
  d <- esm_design(quickstart_phones(), "answers:30@0.9", days = 5:21, per_day = 3:5, replications = 3)
  expect_s3_class(d, "esm_design")
  expect_s3_class(d$designs, "tbl_df")
  expect_equal(d$frontier$per_day, 3:5)
  expect_true(all(d$designs$low <= d$designs$value & d$designs$value <= d$designs$high))
  # What was searched, as given.
  expect_equal(d$searched$days, 5:21)
  expect_type(d$frontier$days, "integer")
  expect_equal(d$searched$replications, 3)
  expect_output(print(d), "searched: participants 100, days 5-21, 3, 4, 5 a day; each design up to 3 replications")
  # Fewer designs than the 17 x 3 grid: the days are bisected.
  expect_lt(nrow(d$designs), 17 * 3)
  # The frontier: each reaching design's one fewer day (when tried) does not reach.
  for (i in seq_len(nrow(d$frontier))) {
    f <- d$frontier[i, ]
    if (is.na(f$days)) next
    below <- d$designs[d$designs$per_day == f$per_day & d$designs$days < f$days, ]
    expect_false(any(below$reaches))
  }
  # More prompts a day never need more days.
  found <- d$frontier$days[!is.na(d$frontier$days)]
  expect_equal(found, sort(found, decreasing = TRUE))
  # The same search from the command line gives the same cheapest design.
  file <- tempfile(fileext = ".json")
  jsonlite::write_json(quickstart_phones(), file, auto_unbox = TRUE)
  out <- tempfile(fileext = ".json")
  esmsim:::esm_exec(c("design", file, "--target", "answers:30@0.9", "--vary", "days=5..21", "--vary", "per_day=3..5",
                      "--replications", "3", "--output", out))
  cli <- jsonlite::fromJSON(out)
  expect_false(is.null(d$cheapest))
  expect_equal(c(cli$cheapest$days, cli$cheapest$per_day), c(d$cheapest$days, d$cheapest$per_day))
  expect_output(print(d), "Cheapest in participant-days")
  expect_output(print(summary(d)), "Design search")
  # esmsim's default people: the spread between real studies is said, and not for people of one's own.
  expect_equal(d$between_studies_points, cli$between_studies_points)
  expect_gt(d$between_studies_points, 0)
  expect_output(print(d), "a real study's answered share \\(prompts answered\\) lies within \\+-[0-9.]+ percentage points")
  own <- quickstart_phones()
  own$population$compliance <- list(answer_probability = 0.7)
  o <- esm_design(own, "answers:30@0.9", days = c(10, 14), per_day = 5, replications = 1)
  expect_null(o$between_studies_points)
  expect_false(any(grepl("real study", capture.output(print(o)))))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(d)
  built <- ggplot2::ggplot_build(p)
  expect_equal(nrow(built$data[[2]]), nrow(d$designs))
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_s3_class(plot(d), "ggplot")
})

test_that("a bad target or range is an error naming it", {
  skip_without_esmsim()
  expect_error(esm_design(quickstart_phones(), "answers:30"), "the argument target")
  # A value esmsim gets as --vary is said as the argument too.
  expect_error(esm_design(quickstart_phones(), "answers:30@0.9", days = 0:3), "the argument days: expected whole numbers")
  expect_error(esm_design(quickstart_phones(), "answers:30@0.9", days = c(2.5, 3)), "whole numbers")
  expect_error(esm_design(quickstart_phones(), "answers:30@0.9", days = c(5, NA)), "whole numbers")
})

test_that("a percentile target over several participant counts reads (no one-study range: NA), and prints its flags", {
  skip_without_esmsim()
  s <- quickstart_phones()
  s$population$size <- 40
  d <- esm_design(s, "p10:30", participants = c(20, 40), days = 5:21, per_day = 5, replications = 3)
  expect_equal(d$frontier$participants, c(20L, 40L))
  expect_true(all(is.na(d$designs$one_study_low)))
  expect_true(is.na(d$cheapest$one_study_low))
  expect_true(is.numeric(d$cheapest$value))
  out <- capture.output(print(d))
  straddles <- d$designs$reaches & !d$designs$clear
  frontier_straddles <- any(merge(d$frontier, d$designs[straddles, ], by = c("participants", "per_day", "days"))$reaches)
  expect_equal(any(grepl("the interval straddles the target", out)), frontier_straddles)
  # A share target prints the one-study range the command line prints.
  a <- esm_design(s, "answers:20@0.8", participants = 40, days = 5:30, per_day = 5, replications = 3)
  expect_match(paste(capture.output(print(a)), collapse = "\n"), "one study of 40: [0-9.]+ %-[0-9.]+ %")
})

test_that("a design the scheduler cannot run is skipped with its reason, the others searched", {
  skip_without_esmsim()
  s <- quickstart_phones()
  s$population$size <- 30
  d <- esm_design(s, "answers:30@0.9", days = 5:14, per_day = c(5, 6), replications = 2)
  expect_equal(d$skipped$per_day, 6L)
  expect_match(d$skipped$reason, "Mappiness sends 1 to 5 signals a day, not 6")
  expect_true(all(d$designs$per_day == 5))
  expect_output(print(d), "6 a day: skipped")
})

test_that("a search where no design reaches the target keeps whole days in its frontier (NA, integer)", {
  skip_without_esmsim()
  d <- esm_design(quickstart_phones(), "answers:500@0.9", days = 5:7, per_day = 3, replications = 1)
  expect_true(all(is.na(d$frontier$days)))
  expect_type(d$frontier$days, "integer")
  expect_output(print(d), "not within the days given")
})
