#' Simulated missingness as a mask for your own simulated data
#'
#' Runs a scenario and returns, for every prompt that fell due (answers given
#' without a prompt left out), whether it was answered and, if not, why: a
#' mask to apply to data simulated elsewhere (simr's `powerSim` on an `lmer`
#' model, mlmpower's custom missingness), so that their power reflects the
#' phones, schedules and people esmsim simulates. Participants, days and prompts
#' are numbered from 1, as in every table esmsim writes and the planner.
#'
#' @param scenario A scenario file, or the scenario as an R list (see [esm_run()]).
#' @param participants,duration,replications,seed Override the scenario's size,
#'   length (`"14d"`), replications and seed.
#' @return A tibble, one row per prompt due: `variant`, `replication`,
#'   `participant`, `day`, `prompt` (its number for the participant),
#'   `scheduled` (the participant's clock time, a POSIXct read as UTC, as
#'   [esm_read()] reads it), `answered` (logical), `status` and `reason` (as in
#'   prompts.csv); `variant` is a factor in the scenario's order, as in
#'   [esm_read()].
#' @examples
#' \dontrun{
#' mask <- esm_missingness("scenarios/quickstart.yaml", participants = 50)
#' one <- mask[mask$variant == levels(mask$variant)[1] & mask$replication == 1, ]  # one variant, one study
#' # my_data: your complete simulated data, a row per participant and prompt
#' my_data <- merge(my_data, one, by = c("participant", "prompt"))
#' my_data$y[!my_data$answered] <- NA
#' }
#' @export
esm_missingness <- function(scenario, participants = NULL, duration = NULL, replications = NULL, seed = NULL) {
  source <- scenario_file(scenario)
  output <- tempfile("esmsim-mask-")
  on.exit(unlink(output, recursive = TRUE), add = TRUE)
  esm_exec(run_args(source$file, output, participants, duration, replications, seed), scenario = source,
           call = sys.call())
  # Read as esm_read() reads prompts.csv: the same types (variant a factor in the scenario's
  # order, scheduled a POSIXct on the participant's clock).
  p <- esm_read(output)$prompts
  if (is.null(p)) {
    esm_abort("esmsim: the scenario writes no prompts.csv (outputs.prompts: false): the mask is read from it",
              "esmsim_run_error")
  }
  p <- p[!p$volunteered, ]
  tibble::tibble(
    variant = p$variant, replication = p$replication, participant = p$participant, day = p$day,
    prompt = p$prompt, scheduled = p$scheduled, answered = p$status == "answered", status = p$status,
    reason = ifelse(is.na(p$reason), "", p$reason)
  )
}
