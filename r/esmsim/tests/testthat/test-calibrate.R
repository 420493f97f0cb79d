# A generic pilot: 10 participants, 5 days, prompts at 09, 13, 17 and 21 h (UTC); who answers
# follows a fixed rule, opening after a few minutes.
pilot_file <- function() {
  day0 <- 1740960000
  rows <- list()
  for (p in 0:9) for (d in 0:4) for (k in 0:3) {
    t <- day0 + d * 86400 + c(9, 13, 17, 21)[k + 1] * 3600
    answered <- (p + k + d) %% 3 != 0
    o <- t + (p + 1) * 60
    rows[[length(rows) + 1]] <- data.frame(pid = sprintf("p%d", p), planned = t,
      start = if (answered) o else NA, end = if (answered) o + 40 else NA)
  }
  file <- tempfile(fileext = ".csv")
  utils::write.csv(do.call(rbind, rows), file, row.names = FALSE, na = "")
  file
}

test_that("a bad value of a calibration argument is said as the argument, not as esmsim's flag", {
  skip_without_esmsim()
  e <- expect_error(esm_calibrate(pilot_file(), format = "csv", people = 0), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "^esmsim: the argument people: expected")
})

test_that("an argument of several values, NA or a mapped flag is refused by the argument's name, before esmsim runs", {
  skip_without_esmsim()
  # seed = c(1, 2) passed 2 as a pilot file ("2: does not exist").
  expect_error(esm_calibrate(pilot_file(), seed = c(1, 2)), "seed takes one value, not 2", class = "esmsim_run_error")
  expect_error(esm_calibrate(pilot_file(), utc_offset = NA), "utc_offset takes one value, not NA", class = "esmsim_run_error")
  expect_error(esm_calibrate(pilot_file(), output = NA), "output is one file or folder name", class = "esmsim_run_error")
  e <- expect_error(esm_calibrate(pilot_file(), holdout = "weeks:2"), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "the argument holdout: expected")
  e <- expect_error(esm_calibrate(pilot_file(), time_zone = "Mars/Olympus"), class = "esmsim_run_error")
  expect_match(conditionMessage(e), "the argument time_zone: ")
})

test_that("an error in a list scenario of esm_calibrate is said of the list, not of its temporary file", {
  skip_without_esmsim()
  e <- expect_error(esm_calibrate(pilot_file(), columns = c(participant = "pid", scheduled = "planned", submitted = "end"),
                                  scenario = list(name = "x", protocol = list(expiry = "-5m")), people = 20),
                    class = "esmsim_scenario_error")
  expect_identical(e$key, "protocol.expiry")
  expect_false(grepl("esmsim-scenario-", conditionMessage(e), fixed = TRUE))
})

test_that("a data frame's date-times without a time zone are on the session's clock (they were read as UTC)", {
  old <- Sys.getenv("TZ")
  on.exit(Sys.setenv(TZ = old), add = TRUE)
  Sys.setenv(TZ = "America/New_York")
  d <- data.frame(participant = "p1", scheduled = as.POSIXct("2025-03-03 09:00:00"))
  copy <- esmsim:::pilot_csv(d)
  on.exit(unlink(copy$file), add = TRUE)
  expect_identical(copy$time_zone, "America/New_York")
  # A column with its own zone keeps it.
  d$scheduled <- as.POSIXct("2025-03-03 09:00:00", tz = "Europe/Brussels")
  named <- esmsim:::pilot_csv(d)
  on.exit(unlink(named$file), add = TRUE)
  expect_identical(named$time_zone, "Europe/Brussels")
})

test_that("esm_calibrate reads a generic pilot, returns the estimates and the predictive check as tibbles", {
  skip_without_esmsim()
  cal <- esm_calibrate(pilot_file(), format = "csv",
    columns = c(participant = "pid", scheduled = "planned", opened = "start", submitted = "end"),
    holdout = "participants:0.5", people = 20, bootstrap = 3, evaluations = 60)
  expect_s3_class(cal, "esm_calibration")
  expect_s3_class(cal$estimates, "tbl_df")
  expect_true("answer_probability" %in% cal$estimates$parameter)
  expect_type(cal$estimates$value, "double")
  expect_true(all(cal$estimates$low <= cal$estimates$value + 1e-9, na.rm = TRUE))
  expect_equal(cal$pilot$participants, 10L)
  expect_equal(cal$pilot$prompts, 200L)
  expect_s3_class(cal$check, "tbl_df")
  expect_true("answered" %in% cal$check$figure)
  expect_type(cal$check$inside, "logical")
  # the fit on the part kept, which the predictions draw from: its own estimates and moments
  expect_s3_class(cal$check_fit$estimates, "tbl_df")
  expect_true("answer_probability" %in% cal$check_fit$estimates$parameter)
  expect_true("answered share" %in% cal$check_fit$moments$moment)
  expect_match(cal$block, "answer_probability")
  expect_true(file.exists(cal$files$page))
  expect_match(cal$protocol$scenario, "fixed-times")
  expect_output(print(cal), "predictive check")
  expect_output(print(summary(cal)), "held-out figures inside")
  skip_if_not_installed("ggplot2")
  built <- ggplot2::ggplot_build(ggplot2::autoplot(cal))
  expect_equal(nrow(built$data[[2]]), nrow(cal$check))
})

test_that("a malformed pilot file is an esmsim_scenario_error naming the file, column and line", {
  skip_without_esmsim()
  file <- tempfile(fileext = ".csv")
  writeLines(c("pid,planned", "p1,yesterday"), file)
  e <- expect_error(esm_calibrate(file, format = "csv", columns = c(participant = "pid", scheduled = "planned")),
                    class = "esmsim_scenario_error")
  expect_equal(e$key, "planned")
  expect_equal(e$line, 2L)
  expect_equal(e$file, file)
})

test_that("a malformed data frame's error names its row and column, not the deleted temporary file", {
  skip_without_esmsim()
  d <- data.frame(pid = c("p1", "p1", "p1"), planned = c("1740992400", "1740996000", "yesterday"))
  row.names(d) <- c("a", "b", "c")
  e <- expect_error(esm_calibrate(d, columns = c(participant = "pid", scheduled = "planned")),
                    class = "esmsim_scenario_error")
  expect_equal(e$row, "c")
  expect_equal(e$key, "planned")
  expect_true(is.na(e$file))
  expect_match(conditionMessage(e), "^esmsim: row c of the data frame, column planned: ")
  expect_false(grepl("esmsim-pilot-", conditionMessage(e), fixed = TRUE))
})

test_that("esm_calibrate takes a data frame: the same pilot as a file and as a data frame give the same estimates", {
  skip_without_esmsim()
  file <- pilot_file()
  d <- utils::read.csv(file)
  columns <- c(participant = "pid", scheduled = "planned", opened = "start", submitted = "end")
  from_file <- esm_calibrate(file, format = "csv", columns = columns, people = 20, bootstrap = 2, evaluations = 60)
  from_frame <- esm_calibrate(d, columns = columns, people = 20, bootstrap = 2, evaluations = 60)
  expect_equal(from_frame$estimates$value, from_file$estimates$value)
  # Times as POSIXct: instants, the clock from the column's own zone.
  for (column in c("planned", "start", "end")) d[[column]] <- as.POSIXct(d[[column]], origin = "1970-01-01", tz = "UTC")
  from_times <- esm_calibrate(d, columns = columns, people = 20, bootstrap = 2, evaluations = 60)
  expect_equal(from_times$estimates$value, from_file$estimates$value)
  expect_error(esm_calibrate(d, format = "mpath"), "data frame is read as format")
})

test_that("kept_at_least: the share the records kept is said, and one above a participant's refused", {
  skip_without_esmsim()
  file <- pilot_file()
  d <- utils::read.csv(file)
  lowest <- min(tapply(!is.na(d$end), d$pid, mean))
  columns <- c(participant = "pid", scheduled = "planned", opened = "start", submitted = "end")
  cal <- esm_calibrate(file, format = "csv", columns = columns, people = 20, bootstrap = 2, evaluations = 60,
                       kept_at_least = "lowest")
  expect_equal(cal$pilot$kept_at_least, lowest, tolerance = 1e-9)
  expect_true(cal$pilot$kept_share_simulated > 0 && cal$pilot$kept_share_simulated <= 1)
  expect_error(esm_calibrate(file, format = "csv", columns = columns, people = 20, bootstrap = 2, evaluations = 60,
                             kept_at_least = min(lowest + 0.05, 1)), "answered less")
})
