#' Power under simulated missingness
#'
#' Runs a grid of designs (participants x days x prompts a day x schedule), each
#' over `replications` simulated studies, and fits the within-person effect of
#' company on the state (`population.state.company`) with `lme4::lmer`
#' (`y ~ x + (1 + x | participant)`, x centred within person) three ways:
#'
#' - `answered`: the answers the simulated study got (`reported_state`,
#'   `with_others`);
#' - `complete`: every prompt up to a dropout answered (`due_state` plus report
#'   noise, `due_with_others`): the design without missingness;
#' - `mcar`: as many of the complete data's prompts as were answered, drawn at
#'   random in each replication: missing completely at random at the same count.
#'
#' Every design runs with the same seed: the same participants, days and truth
#' (common random numbers), so designs differ only by design.
#'
#' @param scenario A scenario file (YAML; needs the yaml package) or list with
#'   `population.state.company` set (a share and a slope).
#' @param participants,days,per_day Vectors of the designs' sizes; every
#'   combination is run.
#' @param schedule Schedule algorithms (`protocol.schedule.algorithm`); `NULL`
#'   keeps the scenario's. Both vary `protocol.schedule`: a scenario of
#'   `protocol.questionnaires` or an imported protocol is refused. Every design is checked (`esmsim validate`) before
#'   any runs: one the scenario cannot run (a `per_day` its schedule refuses)
#'   stops the call at once, naming the design.
#' @param replications Simulated studies per design.
#' @param alpha The test's level (two-sided).
#' @param model `NULL` (the default analysis above, a Wald z test), a formula
#'   for `lmer` over the analysed data's columns, or a function of that data
#'   frame returning its estimate and p-value (`c(estimate = , p_value = )`).
#'   The data's columns: `state` (the answer, or for the complete data the true
#'   state plus report noise), `company` (0/1), `company_within` (centred within
#'   person), `participant` (a factor), `day` and `prompt` (numbered from 1 per
#'   participant) and `hour` (of the prompt, local). With a formula the fixed
#'   effect `term` is tested: with Satterthwaite's degrees of freedom where the
#'   lmerTest package is installed, with a Wald z test otherwise (the `test`
#'   column says which).
#' @param term The formula's coefficient tested (default `company_within`).
#' @param family With `population.variables` and a formula: a `glm` family (for
#'   example `binomial`) to fit the formula with `lme4::glmer` (a binary variable
#'   or a yes/no item as outcome), tested with a Wald z test; `NULL`: `lmer`.
#' @param truth With `population.variables`: the tested coefficient's true value,
#'   for `bias` and `coverage` (`NA`: not reported); refused without variables
#'   (the planned slope is then `population.state.company$slope`).
#' @section Answers (`population.variables`): when the scenario declares
#'   variables and items (`docs/power.md`), the model is a formula or function
#'   over `answers.csv`'s columns, and the three data sets are its answered rows
#'   (`answered`), every prompt (`complete`: the variables' true values and the
#'   items' answers at each) and as many prompts as were answered drawn at
#'   random (`mcar`). Besides each variable's, item's and predictor's column the
#'   data have `participant` (a factor), `day`, `prompt`, `hour`, `questionnaire`
#'   (the questionnaire's name: a factor a model can use where there are two), and for each
#'   variable and item `<name>_within` (centred within person), `<name>_lag` and
#'   `<name>_lag_within` (the previous analysed row of the same participant and
#'   day, NA at a day's first) and `gap_hours` (the hours since it): lags are
#'   taken in the data analysed, so in the answered data they span the prompts
#'   missed, as in a real study. For example an AR(1) model
#'   `mood ~ mood_lag_within + (1 | participant)` with `term = "mood_lag_within"`,
#'   or a random slope `mood ~ stress_within + (1 + stress_within | participant)`.
#' @param seed Master seed, shared by every design.
#' @param cores Worker processes for the fits (a socket cluster; 1: none).
#' @param quiet Do not print progress.
#' @section Failed fits: a fit that fails (an error) or warns is counted, as
#'   simr counts them: `failed` and `warnings` per row, the first error's text
#'   in `first_error`, and the print says "(w warnings, e errors)". A row whose
#'   fits all failed has no power (`NA`) and a warning says why; when every fit
#'   of every design fails, the first error is raised. A formula naming a
#'   column the analysed data do not have fails at once, before any simulation,
#'   with R's message ("object 'mood' not found").
#' @return A tibble, one row per design and analysis: `power` (share of
#'   replications that reject at `alpha`, among the fits that succeeded) with its Monte Carlo 95 % interval
#'   (`power_low`, `power_high`, Wilson); `estimate` (mean fixed slope), `bias`
#'   (against the planned slope) with `bias_se`; `coverage` of the 95 % Wald
#'   interval with its interval; `answers` (mean prompts analysed per study);
#'   `singular` (share of fits with a singular random-effects matrix); `seconds`
#'   (the design's wall time, simulation and fits); `test` (how the p-value was
#'   found); `failed`, `warnings` and `first_error` (above). Attribute `slope`: the planned slope. It prints, and plots power
#'   against participants ([plot.esm_power()]).
#' @examples
#' \dontrun{
#' study <- list(
#'   name = "plan", duration = "14d",
#'   population = list(size = 50, state = list(company = list(share = 0.4, slope = 4, slope_sd = 2))),
#'   protocol = list(window = "08:00-22:00", expiry = "30m",
#'                   schedule = list(algorithm = "fixed-blocks", per_day = 5)))
#' esm_power(study, participants = c(30, 60), days = c(7, 14), replications = 100)
#' }
#' @export
esm_power <- function(scenario, participants, days, per_day = NULL, schedule = NULL, replications = 200,
                      alpha = 0.05, seed = 1, cores = 2, quiet = FALSE, model = NULL, term = "company_within",
                      truth = NA_real_, family = NULL) {
  if (!is.null(model) && !inherits(model, "formula") && !is.function(model)) {
    esm_abort("esmsim: model is NULL, a formula for lmer or a function of the data", "esmsim_run_error")
  }
  if (is.null(truth)) truth <- NA_real_
  if (!is.numeric(truth) || length(truth) != 1) {
    esm_abort("esmsim: truth is one number (or NA: not reported)", "esmsim_run_error", argument = "truth")
  }
  check_whole(participants, "participants")
  check_whole(days, "days")
  if (!is.null(per_day)) check_whole(per_day, "per_day")
  if (!is.null(schedule) && (!is.character(schedule) || !length(schedule) || anyNA(schedule) || !all(nzchar(schedule)))) {
    esm_abort("esmsim: schedule names schedule algorithms (text), such as c(\"fixed-blocks\", \"mappiness\")",
              "esmsim_run_error")
  }
  if (!is.numeric(alpha) || length(alpha) != 1 || !(alpha > 0 && alpha < 1)) {
    esm_abort("esmsim: alpha is the test's level, a number above 0 and below 1", "esmsim_run_error")
  }
  # The arguments every design runs with, said as arguments (not as the scenario's keys).
  for (a in list(list("seed", seed, 0, 2^53), list("replications", replications, 1, 100000))) {
    v <- a[[2]]
    if (!is.numeric(v) || length(v) != 1 || is.na(v) || v != round(v) || v < a[[3]] || v > a[[4]]) {
      esm_abort(sprintf("esmsim: the argument %s is a whole number from %s to %s, not %s", a[[1]],
                        format(a[[3]], scientific = FALSE), format(a[[4]], big.mark = "", scientific = FALSE),
                        paste(format(v), collapse = ", ")), "esmsim_run_error", argument = a[[1]])
    }
  }
  if (!requireNamespace("lme4", quietly = TRUE)) {
    esm_abort("esmsim: esm_power() needs the lme4 package", "esmsim_run_error")
  }
  # A file is checked as it stands first, so that a problem is said with its file and line.
  if (is.character(scenario) && length(scenario) == 1 && file.exists(scenario)) {
    esm_exec(c("validate", scenario), scenario = list(file = scenario, list = NULL))
  }
  base <- scenario_list(scenario)
  answers <- answer_names(base)
  if (is.null(answers) && !is.na(truth)) {
    esm_abort("esmsim: truth is the tested coefficient's true value with population.variables; without them the planned slope is population.state.company$slope",
              "esmsim_run_error", argument = "truth")
  }
  if (!is.null(per_day) || !is.null(schedule)) check_varied_schedule(base)
  if (!is.null(answers)) {
    if (is.null(model)) {
      esm_abort("esmsim: with population.variables, give model: a formula over your variables and items (or a function)",
                "esmsim_model_error")
    }
  }
  company <- base$population$state$company
  if (is.null(answers) && (is.null(company$share) || company$share <= 0 || company$share >= 1)) {
    esm_abort(
      "esmsim: esm_power() needs population.state.company with a share between 0 and 1 (and a slope)",
      "esmsim_scenario_error",
      key = "population.state.company", element = "scenario$population$state$company", file = NA_character_
    )
  }
  if (!is.null(base$variants)) {
    esm_abort(
      "esmsim: esm_power() runs one protocol: give a scenario without variants (call it once per variant)",
      "esmsim_scenario_error", key = "variants", element = "scenario$variants", file = NA_character_
    )
  }
  if (inherits(model, "formula")) check_model(model, term, if (is.null(answers)) analysis_template() else answers_template(answers))
  slope <- if (!is.null(answers)) truth else if (is.null(company$slope)) 0 else company$slope
  noise <- if (is.null(base$population$state$report_noise)) 5 else base$population$state$report_noise
  grid <- expand.grid(
    participants = as.integer(participants), days = as.integer(days),
    per_day = if (is.null(per_day)) NA else per_day,
    schedule = if (is.null(schedule)) NA_character_ else schedule,
    stringsAsFactors = FALSE
  )
  designs <- lapply(seq_len(nrow(grid)), function(g) {
    power_design(base, grid[g, ], seed, replications, answers)
  })
  # Every design is checked before any runs: one that cannot run (a per_day its schedule
  # refuses) is said at once, naming it, not after the designs before it have run.
  path <- if (is.character(scenario)) scenario else NULL
  for (g in seq_along(designs)) check_design(designs[[g]], grid[g, ], g, nrow(grid), path)
  fit_all <- fitter(cores)
  on.exit(fit_all(NULL), add = TRUE)
  rows <- list()
  for (g in seq_len(nrow(grid))) {
    d <- grid[g, ]
    started <- Sys.time()
    s <- designs[[g]]
    if (!quiet) message(sprintf("esm_power: design %d of %d (%s)", g, nrow(grid), design_label(d)))
    result <- if (is.null(answers)) esm_run_prompts(s, progress = !quiet && interactive()) else
      esm_run_answers(s, progress = !quiet && interactive())
    by_replication <- split(result, result$replication)
    tasks <- lapply(seq_along(by_replication), function(r) {
      list(prompts = by_replication[[r]], seed = task_seed(seed, r), noise = noise, model = model, term = term,
           answers = answers, family = family)
    })
    fits <- do.call(rbind, fit_all(tasks))
    seconds <- as.numeric(difftime(Sys.time(), started, units = "secs"))
    for (a in c("answered", "complete", "mcar")) {
      f <- fits[fits$analysis == a, ]
      rows[[length(rows) + 1]] <- summarise_fits(f, d, a, slope, alpha, seconds)
    }
  }
  out <- tibble::as_tibble(do.call(rbind, rows))
  if (all(out$replications == 0)) {
    esm_abort(sprintf("esmsim: every fit failed (%d of %d); the first error: %s", sum(out$failed),
                      sum(out$failed), out$first_error[!is.na(out$first_error)][1]), "esmsim_model_error")
  }
  for (i in which(out$replications == 0)) {
    warning(sprintf("esm_power: %s, %s data: no fit succeeded (%d errors; the first: %s)", design_label(out[i, ]),
                    out$analysis[i], out$failed[i], out$first_error[i]), call. = FALSE)
  }
  attr(out, "slope") <- slope
  attr(out, "alpha") <- alpha
  class(out) <- c("esm_power", class(out))
  out
}

# `per_day` and `schedule` vary `protocol.schedule`: a scenario that does not use it (its
# questionnaires' own schedules, an imported protocol) is refused as such.
check_varied_schedule <- function(base) {
  protocol <- base$protocol
  other <- if (length(protocol$questionnaires)) "protocol.questionnaires" else {
    used <- import_keys[vapply(import_keys, function(k) !is.null(protocol[[k]]), TRUE)]
    if (length(used)) paste0("protocol.", used[[1]]) else NULL
  }
  if (!is.null(other)) {
    esm_abort(sprintf("esmsim: per_day and schedule vary protocol.schedule, which this scenario does not use (it has %s): give per_day and schedule in the scenario, one call per design",
                      other), "esmsim_run_error")
  }
}

# A design's scenario: the scenario with the design's size, days, prompts a day and schedule.
power_design <- function(base, d, seed, replications, answers) {
  s <- base
  s$seed <- seed
  s$replications <- replications
  s$population$size <- d$participants
  s$duration <- paste0(d$days, "d")
  if (!is.na(d$per_day)) s$protocol$schedule$per_day <- d$per_day
  if (!is.na(d$schedule)) s$protocol$schedule$algorithm <- d$schedule
  s$outputs <- list(prompts = is.null(answers), participants = FALSE, coverage = FALSE, sqlite = FALSE, report = FALSE)
  if (!is.null(answers)) s$outputs$answers <- TRUE
  s
}

# Replication r's seed of the fits (MCAR draws, report noise): seed * 1000003 + r modulo
# 2^31 - 1, which set.seed takes (seed * 1000003 + r itself overflowed R's integers from seed
# 2148 on, after the first design had run); the same as before for smaller seeds.
task_seed <- function(seed, r) ((seed %% 2147483647) * 1000003 + r) %% 2147483647

# `esmsim validate` on a design's scenario; its error names the design, and the scenario file
# `path` (NULL for a list) where the problem is in the design's own scenario.
check_design <- function(s, d, g, n, path = NULL) {
  source <- scenario_file(s)
  on.exit(unlink(source$file), add = TRUE)
  tryCatch(
    esm_exec(c("validate", source$file), scenario = source),
    error = function(e) {
      body <- sub("^esmsim: ", "", conditionMessage(e))
      if (!is.null(path) && inherits(e, "esmsim_scenario_error") && is.na(e$file)) {
        e$file <- path
        e$element <- NA_character_
        e$line <- NA_integer_
        e$column <- NA_integer_
        body <- sprintf("%s: %s%s", path, if (!is.na(e$key)) paste0(e$key, ": ") else "", e$problem)
      }
      e$message <- sprintf("esm_power: design %d of %d (%s) cannot run: %s", g, n, design_label(d), body)
      stop(e)
    }
  )
  invisible()
}

design_label <- function(d) {
  parts <- c(sprintf("%d participants", d$participants), sprintf("%d days", d$days))
  if (!is.na(d$per_day)) parts <- c(parts, sprintf("%s a day", d$per_day))
  if (!is.na(d$schedule)) parts <- c(parts, d$schedule)
  paste(parts, collapse = ", ")
}

# A scenario as a list: a list as it is, a file read as YAML.
scenario_list <- function(scenario) {
  if (is.list(scenario)) return(scenario)
  if (!is.character(scenario) || length(scenario) != 1) {
    esm_abort("esmsim: a scenario is a file name or a list", "esmsim_run_error")
  }
  if (!file.exists(scenario)) esm_abort(sprintf("esmsim: no scenario file %s", scenario), "esmsim_run_error")
  if (!requireNamespace("yaml", quietly = TRUE)) {
    esm_abort("esmsim: reading a scenario file in R needs the yaml package; give the scenario as a list", "esmsim_run_error")
  }
  imports_from(yaml::read_yaml(scenario), dirname(normalizePath(scenario)))
}

# The keys whose value names a file to import (docs/scenario-reference.md): relative to the
# scenario file's folder.
import_keys <- c("aware_schedule", "esmira_study", "paco_experiment", "beiwe_study")

# A scenario read from a file with its import files' relative paths made absolute from the
# file's folder: the list is written again elsewhere (a temporary file), where they would not
# be found.
imports_from <- function(node, folder) {
  if (!is.list(node)) return(node)
  for (k in seq_along(node)) {
    key <- names(node)[k]
    value <- node[[k]]
    if (!is.null(key) && key %in% import_keys && is.character(value) && length(value) == 1 &&
        !grepl("^(/|[A-Za-z]:)", value)) {
      node[[k]] <- file.path(folder, value)
    } else if (is.list(value)) {
      node[[k]] <- imports_from(value, folder)
    }
  }
  node
}

# Runs a scenario and reads only the columns an analysis needs from prompts.csv.
esm_run_prompts <- function(scenario, progress = FALSE) {
  source <- scenario_file(scenario)
  output <- tempfile("esmsim-power-")
  on.exit(unlink(output, recursive = TRUE), add = TRUE)
  esm_exec(c("run", source$file, "--output", output), scenario = source, call = sys.call(-1), progress = progress)
  path <- file.path(output, "prompts.csv")
  header <- names(utils::read.csv(path, nrows = 1, check.names = FALSE))
  keep <- c(
    replication = "integer", participant = "integer", prompt = "integer", day = "integer", scheduled = "character",
    status = "character", volunteered = "integer", reported_state = "numeric", with_others = "integer",
    due_state = "numeric", due_with_others = "integer"
  )
  missing <- setdiff(names(keep), header)
  if (length(missing)) {
    esm_abort(sprintf("esmsim: %s has no column %s: is company recorded?", path, missing[[1]]), "esmsim_read_error")
  }
  classes <- ifelse(header %in% names(keep), keep[header], "NULL")
  utils::read.csv(path, colClasses = unname(classes), na.strings = "")
}

# A function that fits a list of tasks (a replication's prompts, its seed and the report
# noise) on `cores` worker processes (a socket cluster: forked children would clash with
# processx's handling of child processes), in order; called with NULL it stops them. Each
# task seeds R's generator, so the results do not depend on the number of workers.
fitter <- function(cores) {
  env <- new.env(parent = globalenv())
  for (name in c("fit_replication", "fit_slope", "fit_model", "analysis_data", "fit_row", "counting_warnings",
                 "fit_answers", "answers_data", "within_day_lag")) {
    f <- get(name)
    environment(f) <- env
    assign(name, f, envir = env)
  }
  job <- function(task) {
    set.seed(task$seed)
    if (!is.null(task$answers)) return(fit_answers(task$prompts, task$answers, task$model, task$term, task$family))
    fit_replication(task$prompts, task$noise, task$model, task$term)
  }
  environment(job) <- env
  cluster <- NULL
  function(tasks) {
    if (is.null(tasks)) {
      if (!is.null(cluster)) parallel::stopCluster(cluster)
      cluster <<- NULL
      return(invisible(NULL))
    }
    if (cores <= 1) return(lapply(tasks, job))
    if (is.null(cluster)) cluster <<- parallel::makePSOCKcluster(cores)
    parallel::parLapply(cluster, tasks, job)
  }
}

# The three analyses of one replication's prompts: estimate, its standard error, p-value,
# rows used, whether the fit was singular and how the p-value was found.
fit_replication <- function(p, noise, model = NULL, term = "company_within") {
  answered <- p[p$status == "answered" & p$volunteered == 0 & !is.na(p$with_others), ]
  complete <- p[!is.na(p$due_state) & !is.na(p$due_with_others), ]
  complete_y <- complete$due_state + stats::rnorm(nrow(complete), sd = noise)
  take <- sample.int(nrow(complete), min(nrow(answered), nrow(complete)))
  sets <- list(
    answered = analysis_data(answered, answered$reported_state, answered$with_others),
    complete = analysis_data(complete, complete_y, complete$due_with_others),
    mcar = analysis_data(complete[take, ], complete_y[take], complete$due_with_others[take])
  )
  do.call(rbind, lapply(names(sets), function(a) {
    d <- sets[[a]]
    if (is.null(model)) fit_slope(d$state, d$company, d$participant, a) else fit_model(d, model, term, a)
  }))
}

# The data an analysis sees: the state, company, company centred within person, the
# participant, day and prompt numbered from 1, and the local hour of the prompt.
analysis_data <- function(rows, state, company) {
  data.frame(
    state = state, company = company, company_within = company - stats::ave(company, rows$participant),
    participant = factor(rows$participant), day = rows$day, prompt = rows$prompt,
    hour = as.integer(substr(rows$scheduled, 12, 13))
  )
}

# The columns every analysed data set has (analysis_data()), as a few rows to try a formula on.
analysis_template <- function() {
  analysis_data(data.frame(participant = c(1L, 1L, 2L, 2L, 3L, 3L), day = 1L, prompt = 1:6,
                           scheduled = "2026-01-05 09:00:00"),
                state = c(50, 52, 48, 51, 49, 53), company = c(0L, 1L, 0L, 1L, 1L, 0L))
}

# A formula's variables and its tested term checked on the analysed data's columns before
# anything is simulated: an unknown variable fails at once with R's own message.
check_model <- function(model, term, template = analysis_template()) {
  fixed <- tryCatch(stats::model.matrix(lme4::nobars(model), stats::model.frame(lme4::subbars(model), template)),
                    error = function(e) e)
  if (inherits(fixed, "error")) {
    esm_abort(sprintf("esmsim: the model %s: %s (the analysed data's columns: %s)", format(model),
                      conditionMessage(fixed), paste(names(template), collapse = ", ")), "esmsim_model_error")
  }
  if (!term %in% colnames(fixed)) {
    esm_abort(sprintf("esmsim: the model %s has no coefficient %s (it has %s)", format(model), term,
                      paste(colnames(fixed), collapse = ", ")), "esmsim_model_error")
  }
  invisible(TRUE)
}

# Runs `expr` keeping its warnings' count: the value (or the error as a condition) and how
# many warnings it gave.
counting_warnings <- function(expr) {
  warnings <- 0L
  value <- withCallingHandlers(
    tryCatch(suppressMessages(expr), error = function(e) e),
    warning = function(w) {
      warnings <<- warnings + 1L
      invokeRestart("muffleWarning")
    }
  )
  list(value = value, warnings = warnings)
}

# A fit's row: estimate, standard error, p-value, rows used, singular, the test, the error's
# text (NA when it succeeded) and the warnings it gave.
fit_row <- function(analysis, n, estimate = NA_real_, se = NA_real_, p = NA_real_, singular = NA, test = NA_character_,
                    error = NA_character_, warnings = 0L) {
  data.frame(analysis = analysis, estimate = estimate, se = se, p = p, n = n, singular = singular, test = test,
             error = error, warnings = warnings, stringsAsFactors = FALSE)
}

# A researcher's model: a formula fitted with lmer (lmerTest's Satterthwaite test where it is
# installed, a Wald z test otherwise) or a function returning estimate and p-value.
fit_model <- function(d, model, term, analysis, family = NULL) {
  if (length(unique(d$participant)) < 3) {
    return(fit_row(analysis, nrow(d), error = sprintf("%d participants answered: a mixed model needs 3",
                                                      length(unique(d$participant)))))
  }
  if (is.function(model)) {
    r <- counting_warnings(model(d))
    if (inherits(r$value, "error")) return(fit_row(analysis, nrow(d), error = conditionMessage(r$value), warnings = r$warnings))
    v <- unlist(r$value)
    return(fit_row(analysis, nrow(d), estimate = unname(v[["estimate"]]), p = unname(v[["p_value"]]),
                   test = "the model's function", warnings = r$warnings))
  }
  satterthwaite <- is.null(family) && requireNamespace("lmerTest", quietly = TRUE)
  r <- if (!is.null(family)) {
    counting_warnings(lme4::glmer(model, d, family = family))
  } else {
    fitter <- if (satterthwaite) lmerTest::lmer else lme4::lmer
    counting_warnings(fitter(model, d, control = lme4::lmerControl(calc.derivs = FALSE)))
  }
  if (inherits(r$value, "error")) return(fit_row(analysis, nrow(d), error = conditionMessage(r$value), warnings = r$warnings))
  fit <- r$value
  table <- stats::coef(summary(fit))
  if (!term %in% rownames(table)) {
    return(fit_row(analysis, nrow(d), error = sprintf("the model has no coefficient %s (it has %s)", term,
                                                      paste(rownames(table), collapse = ", ")), warnings = r$warnings))
  }
  estimate <- table[term, "Estimate"]
  se <- table[term, "Std. Error"]
  p <- if (satterthwaite) table[term, "Pr(>|t|)"] else 2 * stats::pnorm(-abs(estimate / se))
  test <- if (satterthwaite) "Satterthwaite t (lmerTest)" else if (!is.null(family)) "Wald z (glmer)" else "Wald z"
  fit_row(analysis, nrow(d), estimate = estimate, se = se, p = p, singular = lme4::isSingular(fit),
          test = test, warnings = r$warnings)
}

fit_slope <- function(y, x, person, analysis) {
  if (length(unique(person)) < 3) {
    return(fit_row(analysis, length(y), test = "Wald z",
                   error = sprintf("%d participants answered: a mixed model needs 3", length(unique(person)))))
  }
  xc <- x - stats::ave(x, person)
  data <- data.frame(y = y, xc = xc, person = factor(person))
  r <- counting_warnings(lme4::lmer(y ~ xc + (1 + xc | person), data, control = lme4::lmerControl(calc.derivs = FALSE)))
  if (inherits(r$value, "error")) {
    return(fit_row(analysis, length(y), test = "Wald z", error = conditionMessage(r$value), warnings = r$warnings))
  }
  fit <- r$value
  estimate <- unname(lme4::fixef(fit)[["xc"]])
  se <- sqrt(as.matrix(stats::vcov(fit))["xc", "xc"])
  fit_row(analysis, length(y), estimate = estimate, se = se, p = 2 * stats::pnorm(-abs(estimate / se)),
          singular = lme4::isSingular(fit), test = "Wald z", warnings = r$warnings)
}

wilson <- function(k, n, z = 1.959964) {
  if (n == 0) return(c(NA_real_, NA_real_))
  p <- k / n
  centre <- (p + z^2 / (2 * n)) / (1 + z^2 / n)
  half <- z * sqrt(p * (1 - p) / n + z^2 / (4 * n^2)) / (1 + z^2 / n)
  c(centre - half, centre + half)
}

summarise_fits <- function(f, d, analysis, slope, alpha, seconds) {
  ok <- f[is.na(f$error) & !is.na(f$estimate) & !is.na(f$p), ]
  n <- nrow(ok)
  errors <- f$error[!is.na(f$error)]
  reject <- sum(ok$p < alpha)
  has_se <- !is.na(ok$se)
  if (is.na(slope)) has_se <- rep(FALSE, n)
  covered <- sum(abs(ok$estimate[has_se] - slope) <= stats::qnorm(0.975) * ok$se[has_se])
  p <- wilson(reject, n)
  c95 <- wilson(covered, sum(has_se))
  data.frame(
    participants = d$participants, days = d$days, per_day = d$per_day, schedule = d$schedule, analysis = analysis,
    replications = n, power = if (n) reject / n else NA_real_, power_low = p[[1]], power_high = p[[2]],
    estimate = if (n) mean(ok$estimate) else NA_real_, bias = if (n) mean(ok$estimate) - slope else NA_real_,
    bias_se = if (n > 1) stats::sd(ok$estimate) / sqrt(n) else NA_real_,
    coverage = if (sum(has_se)) covered / sum(has_se) else NA_real_, coverage_low = c95[[1]], coverage_high = c95[[2]],
    answers = mean(f$n), singular = if (n) mean(ok$singular) else NA_real_, seconds = seconds,
    test = if (n) ok$test[[1]] else NA_character_,
    failed = length(errors), warnings = sum(f$warnings), first_error = if (length(errors)) errors[[1]] else NA_character_,
    stringsAsFactors = FALSE
  )
}

# The answers' names a scenario declares (population.variables, person_predictors,
# protocol.items), NULL without variables.
answer_names <- function(scenario) {
  variables <- scenario$population$variables
  if (is.null(variables)) return(NULL)
  names_of <- function(list) vapply(list, function(x) as.character(x$name), "")
  # answers.csv's questionnaire column: the questionnaires' names, or the one survey's id.
  questionnaires <- names_of(scenario$protocol$questionnaires)
  if (!length(questionnaires)) {
    questionnaires <- if (is.null(scenario$protocol$survey$id)) "esm" else as.character(scenario$protocol$survey$id)
  }
  list(variables = names_of(variables), predictors = names_of(scenario$population$person_predictors),
       items = names_of(scenario$protocol$items), questionnaires = questionnaires)
}

# Runs a scenario and reads answers.csv.
esm_run_answers <- function(scenario, progress = FALSE) {
  source <- scenario_file(scenario)
  output <- tempfile("esmsim-power-")
  on.exit(unlink(output, recursive = TRUE), add = TRUE)
  esm_exec(c("run", source$file, "--output", output), scenario = source, call = sys.call(-1), progress = progress)
  utils::read.csv(file.path(output, "answers.csv"), na.strings = "", stringsAsFactors = FALSE)
}

# The previous row's value within a participant and day (NA at a day's first row); rows in
# time order.
within_day_lag <- function(x, participant, day) {
  n <- length(x)
  if (n == 0) return(x)
  previous <- c(NA, x[-n])
  same <- c(FALSE, participant[-1] == participant[-n] & day[-1] == day[-n])
  ifelse(same, previous, NA)
}

# The data an analysis of the answers sees: answers.csv's columns, the participant as a
# factor, the local hour, and for each variable and item its value centred within person
# (`_within`), the previous analysed row's value that day (`_lag`, `_lag_within`) and the
# hours since that row (`gap_hours`): lags are taken in the analysed data, so in the
# answered data they span the prompts missed.
answers_data <- function(rows, cols) {
  d <- rows
  d$participant <- factor(d$participant)
  time <- as.POSIXct(d$scheduled, format = "%Y-%m-%dT%H:%M:%OS", tz = "UTC")
  d$hour <- as.integer(format(time, "%H"))
  hours <- as.numeric(time) / 3600
  d$gap_hours <- hours - within_day_lag(hours, d$participant, d$day)
  for (n in c(cols$variables, cols$items)) {
    x <- d[[n]]
    within <- x - stats::ave(x, d$participant, FUN = function(v) mean(v, na.rm = TRUE))
    d[[paste0(n, "_within")]] <- within
    d[[paste0(n, "_lag")]] <- within_day_lag(x, d$participant, d$day)
    d[[paste0(n, "_lag_within")]] <- within_day_lag(within, d$participant, d$day)
  }
  d
}

# The answers' columns as a few rows to try a formula on.
answers_template <- function(cols) {
  rows <- data.frame(replication = 1L, participant = rep(1:3, each = 2), prompt = 1:6, day = 1L,
                     questionnaire = rep_len(cols$questionnaires, 6),
                     scheduled = "2026-01-05T09:00:00.000", status = "answered", answered = 1L, careless = 0L)
  for (n in c(cols$predictors, cols$variables, cols$items)) rows[[n]] <- c(1, 2, 3, 2, 1, 3)
  answers_data(rows, cols)
}

# The three analyses of one replication's answers: the answered rows, every prompt's
# (complete data), and as many of those as were answered drawn at random (MCAR), each in
# time order so that lags are those of the rows analysed.
fit_answers <- function(p, cols, model, term, family = NULL) {
  p <- p[order(p$participant, p$prompt), ]
  answered <- p[p$answered == 1, ]
  take <- sort(sample.int(nrow(p), min(nrow(answered), nrow(p))))
  sets <- list(answered = answered, complete = p, mcar = p[take, ])
  do.call(rbind, lapply(names(sets), function(a) fit_model(answers_data(sets[[a]], cols), model, term, a, family)))
}

# Participants or days: whole numbers of at least 1, each said by its argument's name (2.7 days
# ran 2 days without a word, NA was reported as the scenario's population.size).
check_whole <- function(x, name) {
  if (!is.numeric(x) || !length(x) || anyNA(x) || any(!is.finite(x)) || any(x != round(x)) || any(x < 1)) {
    esm_abort(sprintf("esmsim: %s are whole numbers of at least 1, not %s", name,
                      paste(format(x), collapse = ", ")), "esmsim_run_error")
  }
}
