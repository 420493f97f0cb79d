/// Populations a planner can pick and edit: `population: {preset: NAME}` fills in these keys,
/// and the file's own keys override them (`esmsim show` prints the result). Each names the
/// cohort it is calibrated to; `docs/populations.md` gives every value's source.
enum PopulationPresets {
  static let text: [String: String] = [
    // Participants' own phones in a general population, calibrated to Beukenhorst et al.
    // 2021 ([@Beukenhorst2021]: 9,665 UK participants' own phones, 2016–17): location
    // permissions, settings and habits are assumptions (D) fitted to its commonest patterns
    // (none 17.2 %, 2 of 24 hours 18.2 %, complete 16.3 %) and odds ratios (Android/iPhone
    // 22.9, night 0.37); the makers' shares are assumptions (D) for a European market.
    "own_phones": """
      os: {ios: 0.5, android: 0.5}
      devices: {non_controlled: 1}
      device_profiles:
        non_controlled: {charge_nightly: 0.8}
      phones:
        ios_location: {always: 0.3, while_using: 0.5, denied: 0.2}
        android_location: {always: 0.85, while_using: 0.05, denied: 0.1}
        background_refresh_off: 0.1
        low_power_habit: 0.1
        force_quitters: 0.15
        force_quits_per_day: 1
        app_removal_per_day: 0.005
        manufacturers: {samsung: 0.4, stock: 0.1, huawei: 0.15, xiaomi: 0.1, oneplus: 0.05, oppo: 0.05, other: 0.15}
        exact_alarms: 0.8
      """,
    // Study-provided phones set up by staff (the AWARE-iOS case study's, [@Nishiyama2020]):
    // every permission given, Background App Refresh on, no habits, stock Android.
    "study_phones": """
      devices: {non_controlled: 1}
      phones:
        ios_location: {always: 1}
        android_location: {always: 1}
        background_refresh_off: 0
        low_power_habit: 0
        force_quitters: 0
        app_removal_per_day: 0
        manufacturers: {stock: 1}
        exact_alarms: 1
      """,
  ]
}
