/// People a planner can start from: `population.compliance: {preset: NAME}` fills in the
/// people fitted to one training study of the real-study corpus (`esmsim calibrate` on all
/// its records), and the file's own compliance keys override them (`esmsim show` prints the
/// result). esmsim's default people were set from these five fits and held to the published
/// typical study where they disagree (`docs/sources.md`); a planner who knows which study their
/// sample resembles starts from it, and one who does not runs all five to see the spread between
/// studies (`docs/validation.md`, real studies: "Which people predict
/// which study").
///
/// Each preset holds the keys the fit estimated: the level (`answer_probability`, moving the
/// classes), the classes with their spread and weekly change, the first days' change,
/// clustering, looks, alerts, the reaction to an alert heard and the pace of opening (the
/// reaction is fitted only where the records time the openings: Johannes et al. and m-Path;
/// the three others keep esmsim's 15 s). Not carried over: the fit's `hour_odds`
/// (the study's own hours of day), what the records could not fit (break-offs: none of the
/// five records an opened survey left) and how often the phones were left unplugged
/// (`charge_nightly`, fitted 0.94–0.97: the device profiles' 0.95 stays), which stay esmsim's
/// defaults.
///
/// Provenance: `make validate-real` on 2026-11-30 (m-Path's example refitted on 2026-12-02,
/// once the simulated apps topped up their notification plans in the background), the fits
/// matching the days with nothing answered and the phones' charging with them, the first
/// days' change beginning after `first_days_onset` (`--seed 1`; `docs/validation.md`, its table of fitted compliance;
/// Johannes et al.'s 5 days are too few to fit the first days' change, which stays esmsim's),
/// each study's entry in `docs/sources.md` ([@corpus-bosley2020_gad],
/// [@corpus-fisher2017_mood], [@corpus-johannes2021_vigilance], [@corpus-mpathr_example],
/// [@corpus-soyster2022_alcohol]). Derived figures only, no records. `make validate-real`
/// says whether a run's fits still match these (its "People presets" line). `default` names
/// esmsim's own people (a variant goes back to them from the scenario's preset).
enum PeoplePresets {
  /// One preset: its name, its plain label (the planner's form) and its keys.
  struct Entry {
    let name, label, keys: String
  }

  /// Where a scenario names them.
  static let section = "population.compliance"
  /// The presets' names, in order.
  static let names = fitted.map(\.name)
  /// The keys of each preset by name, and `default`: none, esmsim's own people (in a variant,
  /// back to them from the scenario's preset).
  static let text = Dictionary(uniqueKeysWithValues: fitted.map { ($0.name, $0.keys) } + [("default", "{}")])
  /// A preset in plain words, for the planner's form (the name itself for an unknown one).
  static func label(_ name: String) -> String { fitted.first { $0.name == name }?.label ?? name }

  /// `tree` with its `population.compliance.preset` expanded (``Presets``). The preset's level
  /// goes with its classes: classes of the file's own keep their own level (the preset's
  /// `answer_probability` is left out unless the file gives one).
  static func expand(_ tree: ScenarioValue, reader r: Reader) throws(ScenarioError) -> ScenarioValue {
    try Presets.expand(tree, section: section, texts: text, reader: r) { own in
      own["classes"] != nil && own["answer_probability"] == nil ? ["answer_probability"] : []
    }
  }

  /// The five training studies' fitted people, in order.
  static let fitted: [Entry] = [
    // Bosley et al. 2020: 96 undergraduates with a GAD analogue, 4 prompts a day for about 8
    // days, answerable until the next; answered 80.2 %.
    Entry(
      name: "bosley2020_gad", label: "like Bosley et al. 2020's students (80 % answered in their study)",
      keys: """
        answer_probability: 0.9404
        classes:
          - {name: "engaged", share: 0.9429, level: 0.987, spread: 0.9798, weekly_change: -0.1134, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.05707, level: 0.73, spread: 1.467, weekly_change: -0.3134, weekly_change_sd: 0.4}
        first_days_change: -1.141
        miss_persistence: 0.135
        looks_per_hour: 5.965
        alert_odds: 0.8688
        at_once: 0.5633
        at_once_weekly_change: -0.4125
        at_once_seconds: 13.91
        busy: 0.1014
        deferral_shape: 2.308
        """),
    // Fisher et al. 2017: 40 patients with depression and/or generalised anxiety, 4 a day
    // for about a month, until the next; answered 85.3 %, few who stop (the most even people
    // of the five).
    Entry(
      name: "fisher2017_mood", label: "like Fisher et al. 2017's patients (85 % in theirs, the most even)",
      keys: """
        answer_probability: 0.9645
        classes:
          - {name: "engaged", share: 0.9685, level: 0.987, spread: 0.6344, weekly_change: -0.1283, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.03148, level: 0.73, spread: 0.9497, weekly_change: -0.3283, weekly_change_sd: 0.4}
        first_days_change: 0.4903
        miss_persistence: 0.07428
        looks_per_hour: 6.753
        alert_odds: 0.7605
        at_once: 0.5438
        at_once_weekly_change: -0.09037
        at_once_seconds: 13.9
        busy: 0.08838
        deferral_shape: 2.852
        """),
    // Johannes et al. 2021: 77 Dutch undergraduates, an app that also logged phone use, 8 a
    // day on 5 weekdays, 5 minutes to answer; answered 59.5 % (the authors left out some
    // participants for low compliance before sharing the data: biased upwards).
    Entry(
      name: "johannes2021_vigilance", label: "like Johannes et al. 2021's students (60 % in theirs, 5 minutes to answer)",
      keys: """
        answer_probability: 0.928
        classes:
          - {name: "engaged", share: 0.7956, level: 0.987, spread: 0.7927, weekly_change: -0.3068, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.2044, level: 0.73, spread: 1.187, weekly_change: -0.5068, weekly_change_sd: 0.4}
        miss_persistence: 0.2679
        looks_per_hour: 13.05
        alert_odds: 1.483
        at_once: 0.4413
        at_once_weekly_change: -0.3292
        at_once_seconds: 3.949
        reaction_seconds: 5.188
        busy: 0.08104
        deferral_shape: 1.446
        """),
    // m-Path's example study (the mpathr package): 20 people, 10 a day and one in the
    // evening for 10 days, 30 and 170 minutes to answer; answered 63.3 %, the most uneven
    // people of the five.
    Entry(
      name: "mpathr_example", label: "like m-Path's example study's people (63 % in theirs, the most uneven)",
      keys: """
        answer_probability: 0.852
        classes:
          - {name: "engaged", share: 0.8373, level: 0.987, spread: 2.175, weekly_change: -0.1373, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.1627, level: 0.73, spread: 3.256, weekly_change: -0.3373, weekly_change_sd: 0.4}
        first_days_change: -1.075
        miss_persistence: 0.2779
        looks_per_hour: 5.939
        alert_odds: 1.208
        at_once: 0.4997
        at_once_weekly_change: 0.1007
        at_once_seconds: 8.872
        reaction_seconds: 10.03
        busy: 0.08316
        deferral_shape: 1.994
        """),
    // Soyster et al. 2022: 33 adults who drink alcohol, 8 a day for 17 days, until the next;
    // answered 81.3 %, falling over the weeks.
    Entry(
      name: "soyster2022_alcohol", label: "like Soyster et al. 2022's drinkers (81 % in theirs, falling)",
      keys: """
        answer_probability: 0.9617
        classes:
          - {name: "engaged", share: 0.8324, level: 0.987, spread: 1.627, weekly_change: -0.2135, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.1676, level: 0.73, spread: 2.436, weekly_change: -0.4135, weekly_change_sd: 0.4}
        first_days_change: -1.614
        miss_persistence: 0.2736
        looks_per_hour: 10.29
        alert_odds: 0.8447
        at_once: 0.6226
        at_once_weekly_change: -0.04017
        at_once_seconds: 22.15
        busy: 0.0892
        deferral_shape: 3.265
        """),
  ]
}
