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
/// (the study's own hours of day) and what the records could not fit (break-offs: none of the
/// five records an opened survey left), which stay esmsim's defaults.
///
/// Provenance: `make validate-real` on 2026-11-27 with `reaction_seconds` fitted (`--seed 1`;
/// `docs/validation.md`, its table of fitted compliance; the three studies that record no
/// openings fit as at 5d1156b), each study's entry in `docs/sources.md` ([@corpus-bosley2020_gad],
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
        answer_probability: 0.9223
        classes:
          - {name: "engaged", share: 0.9483, level: 0.987, spread: 1.092, weekly_change: -0.126, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.0517, level: 0.73, spread: 1.634, weekly_change: -0.326, weekly_change_sd: 0.4}
        first_days_change: -0.3843
        miss_persistence: 0.1397
        looks_per_hour: 6.245
        alert_odds: 0.8482
        at_once: 0.5596
        at_once_weekly_change: -0.4076
        at_once_seconds: 13.79
        busy: 0.09659
        deferral_shape: 2.394
        """),
    // Fisher et al. 2017: 40 patients with depression and/or generalised anxiety, 4 a day
    // for about a month, until the next; answered 85.3 %, few who stop (the most even people
    // of the five).
    Entry(
      name: "fisher2017_mood", label: "like Fisher et al. 2017's patients (85 % in theirs, the most even)",
      keys: """
        answer_probability: 0.969
        classes:
          - {name: "engaged", share: 0.9767, level: 0.987, spread: 0.5705, weekly_change: -0.05862, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.02326, level: 0.73, spread: 0.8539, weekly_change: -0.2586, weekly_change_sd: 0.4}
        first_days_change: 0.03706
        miss_persistence: 0.06561
        looks_per_hour: 8.415
        alert_odds: 0.7286
        at_once: 0.5293
        at_once_weekly_change: -0.1045
        at_once_seconds: 13.86
        busy: 0.09712
        deferral_shape: 2.871
        """),
    // Johannes et al. 2021: 77 Dutch undergraduates, an app that also logged phone use, 8 a
    // day on 5 weekdays, 5 minutes to answer; answered 59.5 % (the authors left out some
    // participants for low compliance before sharing the data: biased upwards).
    Entry(
      name: "johannes2021_vigilance", label: "like Johannes et al. 2021's students (60 % in theirs, 5 minutes to answer)",
      keys: """
        answer_probability: 0.9391
        classes:
          - {name: "engaged", share: 0.797, level: 0.987, spread: 2.119, weekly_change: -0.1404, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.203, level: 0.73, spread: 3.171, weekly_change: -0.3404, weekly_change_sd: 0.4}
        first_days_change: -1.077
        miss_persistence: 0.2982
        looks_per_hour: 5.248
        alert_odds: 1.896
        at_once: 0.4423
        at_once_weekly_change: -0.379
        at_once_seconds: 3.703
        reaction_seconds: 5.807
        busy: 0.07797
        deferral_shape: 1.302
        """),
    // m-Path's example study (the mpathr package): 20 people, 10 a day and one in the
    // evening for 10 days, 30 and 170 minutes to answer; answered 63.3 %, the most uneven
    // people of the five.
    Entry(
      name: "mpathr_example", label: "like m-Path's example study's people (63 % in theirs, the most uneven)",
      keys: """
        answer_probability: 0.8663
        classes:
          - {name: "engaged", share: 0.8408, level: 0.987, spread: 2.32, weekly_change: -0.1088, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.1592, level: 0.73, spread: 3.473, weekly_change: -0.3088, weekly_change_sd: 0.4}
        first_days_change: -0.7374
        miss_persistence: 0.2878
        looks_per_hour: 6.078
        alert_odds: 1.123
        at_once: 0.4954
        at_once_weekly_change: 0.09501
        at_once_seconds: 8.641
        reaction_seconds: 10.02
        busy: 0.09549
        deferral_shape: 2.041
        """),
    // Soyster et al. 2022: 33 adults who drink alcohol, 8 a day for 17 days, until the next;
    // answered 81.3 %, falling over the weeks.
    Entry(
      name: "soyster2022_alcohol", label: "like Soyster et al. 2022's drinkers (81 % in theirs, falling)",
      keys: """
        answer_probability: 0.9664
        classes:
          - {name: "engaged", share: 0.8626, level: 0.987, spread: 1.238, weekly_change: -0.2456, weekly_change_sd: 0.2}
          - {name: "less engaged", share: 0.1374, level: 0.73, spread: 1.852, weekly_change: -0.4456, weekly_change_sd: 0.4}
        first_days_change: -1.61
        miss_persistence: 0.2528
        looks_per_hour: 11.38
        alert_odds: 0.9414
        at_once: 0.6015
        at_once_weekly_change: -0.05362
        at_once_seconds: 21.83
        busy: 0.1009
        deferral_shape: 3.314
        """),
  ]
}
