/// The captions under the charts, one place for report.html and the planner, so that the
/// same chart is explained the same way on both pages.
public enum Captions {
  public static let answers =
    "Participants by the answers they gave (every replication's participants); the dashed line is the answers target (the answers each participant should give: protocol.answers_target in a scenario), bars below it in orange. The variants share both axes."
  public static let reaching =
    "The share of participants who have given the answers target by each study day: a study cut to day d reaches that share."
  public static let fate =
    "The share of prompts delivered to the phone, then each prompt scheduled answered or missed for one reason (docs/outputs.md lists the reasons), as shares of the prompts scheduled."
  public static let osSplit =
    "The same figures for each system's participants: how many answers they gave, the share reaching the answers target, and the shares of their prompts delivered and answered (prompts due, as in compliance)."
  public static let intensity =
    "Intensity by time of day across the signalling window: 1 means the schedule samples that moment as often as any other. The variants share the vertical axis."
  public static let compliance = "Answered share of delivered prompts."
  public static func predictability(stableDays: Int) -> String {
    "Predictability of each schedule, in bits per signal: how surprised, on average, someone who knows the schedule's rules and every earlier prompt is by each prompt's time (the information it carries); fewer bits means easier to anticipate. The forced share counts prompts that fell where that model, from the days it had seen, gave them more than 50 %. "
      + "The model is scored on held-out days; "
      + "with fewer than \(stableDays) of them it overfits and overstates the bits (marked *; docs/schedules.md)."
  }
  public static let bias =
    "Mean reported state minus the true waking-time mean, per participant, averaged, in points of the state's 0–100 scale; the dot is the estimate, the whisker its 95 % interval across replications, or over participants when there are fewer than three replications (the range the bias of a study like this one would fall in 95 times out of 100)."
  public static let coverage =
    "Shares of participant-hours as the AWARE-iOS paper counts them: Comp (complete: at least the samples expected in the hour), Incomp (incomplete: some, fewer than expected) and Loss (none)."
  /// Where the assumptions and the checks against published studies are: the documents that
  /// come with esmsim (no public address exists yet).
  public static let sources =
    "Every rate and default, with its source and grade of evidence: docs/model.md and docs/sources.md in esmsim's repository; esmsim's figures against published studies: docs/validation.md."
}
