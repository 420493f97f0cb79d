test_that("esmsim's JSON error becomes a classed condition with its file, key, line and column", {
  json <- function(...) paste0('{"esmsim_error":', jsonlite::toJSON(list(...), auto_unbox = TRUE, null = "null"), "}")
  stderr <- paste0("esmsim: warning: something\n", json(kind = "scenario", file = "s.yaml", key = "population.size",
    line = 4, column = 9, message = "must be between 1 and 10000000, not -5", exit = 1), "\n")
  e <- tryCatch(esmsim:::esm_fail(stderr, 1L, scenario = list(file = "s.yaml")), error = identity)
  expect_s3_class(e, "esmsim_scenario_error")
  expect_equal(c(e$key, e$file), c("population.size", "s.yaml"))
  expect_equal(c(e$line, e$column), c(4L, 9L))
  expect_equal(e$problem, "must be between 1 and 10000000, not -5")
  expect_equal(conditionMessage(e), "esmsim: s.yaml: population.size (line 4, column 9): must be between 1 and 10000000, not -5")
  # No location (a value given on the command line), a variant's key.
  e <- tryCatch(esmsim:::esm_fail(json(kind = "scenario", file = "s.yaml", key = "protocol.expiry", line = NULL, column = NULL,
    message = "in variant 'late': bad", exit = 1), 1L, scenario = list(file = "s.yaml")), error = identity)
  expect_true(is.na(e$line))
  expect_equal(e$key, "variants[late].protocol.expiry")
  expect_equal(e$problem, "bad")
  # Another kind is a run error, with esmsim's message.
  e <- tryCatch(esmsim:::esm_fail(json(kind = "output", message = "out already exists", exit = 1), 1L), error = identity)
  expect_s3_class(e, "esmsim_run_error")
  expect_match(conditionMessage(e), "out already exists")
  # Nothing in JSON (a crash): the last line, as a run error.
  e <- tryCatch(esmsim:::esm_fail("Illegal instruction\n", 132L), error = identity)
  expect_s3_class(e, "esmsim_run_error")
})

test_that("a key path names the list element, variants by their name", {
  s <- list(population = list(size = 5), variants = list(list(name = "a"), list(name = "late", protocol = list())))
  expect_equal(esmsim:::key_to_element("population.size", s), "scenario$population$size")
  expect_equal(esmsim:::key_to_element("variants[late].protocol.expiry", s), "scenario$variants[[2]]$protocol$expiry")
  expect_equal(esmsim:::key_to_element("protocol.schedules[1].per_day", s), "scenario$protocol$schedules[[2]]$per_day")
  expect_equal(esmsim:::key_to_element("variants[nope].x", s), "scenario$variants[nope]$x")
})

test_that("a missing or unusable program is an esmsim_not_found condition naming where it looked", {
  withr::local_options(esmsim.path = NULL)
  withr::local_envvar(ESMSIM = file.path(tempdir(), "no-such-esmsim"))
  e <- expect_error(esmsim_path(), class = "esmsim_not_found")
  expect_match(conditionMessage(e), "environment variable ESMSIM")
  withr::local_options(esmsim.path = tempdir())
  expect_error(esmsim_path(), "option esmsim.path", class = "esmsim_not_found")
})

test_that("with its output echoed, a failing run prints esmsim's warnings but not its JSON error line", {
  skip_without_esmsim()
  bad <- tempfile(fileext = ".yaml")
  writeLines("name: t\nprotocol: {expiry: forever}\n", bad)
  said <- c(
    capture.output(
      heard <- capture.output(
        e <- tryCatch(esmsim:::esm_exec(c("run", bad, "--output", tempfile()), echo = TRUE), error = identity),
        type = "message")),
    heard)
  expect_s3_class(e, "esmsim_scenario_error")
  expect_false(any(grepl("esmsim_error", said, fixed = TRUE)))
})
