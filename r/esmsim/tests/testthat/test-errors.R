test_that("an error line is split into key, line, column and message", {
  p <- esmsim:::parse_scenario_error(
    "esmsim: s.yaml: population.size (line 4, column 9): must be between 1 and 10000000, not -5", "s.yaml")
  expect_equal(p$key, "population.size")
  expect_equal(c(p$line, p$column), c(4L, 9L))
  expect_equal(p$message, "must be between 1 and 10000000, not -5")
  # No location, and a message with colons in it.
  p <- esmsim:::parse_scenario_error("esmsim: s.yaml: protocol.window: expected HH:MM-HH:MM, found '8'", "s.yaml")
  expect_equal(p$key, "protocol.window")
  expect_true(is.na(p$line))
  expect_equal(p$message, "expected HH:MM-HH:MM, found '8'")
  # No key.
  p <- esmsim:::parse_scenario_error("esmsim: s.yaml: the file is empty", "s.yaml")
  expect_true(is.na(p$key))
  expect_equal(p$message, "the file is empty")
  # A variant's key.
  p <- esmsim:::parse_scenario_error("esmsim: s.yaml: protocol.expiry (line 9, column 3): in variant 'late': bad", "s.yaml")
  expect_equal(p$key, "variants[late].protocol.expiry")
  # Another file's error is not this scenario's.
  expect_null(esmsim:::parse_scenario_error("esmsim: other.json: x: y", "s.yaml"))
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
