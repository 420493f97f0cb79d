import Foundation
import Scenarios
import Study
import Testing

@testable import Reporting

/// The size a run's estimate gives (what `esmsim validate` prints, and what the disk check and
/// --allow-large gate use) against the bytes the run writes, for studies with sensor files.
@Suite("Output size estimates")
struct OutputEstimateTests {
  static let studies = [
    "name: s1\nduration: 7d\npopulation: {size: 30, os: {ios: 0.5, android: 0.5}}\nprotocol: {sensors: {location: {every: 3m}}}\noutputs: {beiwe_sensors: true}\n",
    "name: s2\nduration: 5d\npopulation: {size: 20}\nprotocol: {sensors: {location: {every: 1m}, accelerometer: {every: 1s}}}\noutputs: {beiwe_sensors: true, beiwe: true}\n",
    "name: s3\nduration: 14d\nreplications: 2\npopulation: {size: 20, devices: {ideal: 0.25, non_controlled: 0.45, heavy: 0.15, low_power: 0.15}}\nprotocol: {sensors: {location: {every: 3m}, accelerometer: {every: 10s}, gyroscope: {every: 10s}, magnetometer: {every: 30s}}}\noutputs: {beiwe_sensors: true, sqlite: true, beiwe: true}\n",
    "name: s4\nduration: 28d\npopulation: {size: 200, person_predictors: [{name: trait}], variables: [{name: stress}, {name: mood, mean: 50, sd: 12, effects: {stress: -3}}]}\nprotocol: {schedule: {algorithm: fixed-blocks, per_day: 8}, items: [{name: happy, measures: mood, scale: slider, error_sd: 5}, {name: calm, measures: mood, scale: likert 1-7, intercept: 1, loading: 0.06, error_sd: 0.5}, {name: tense, measures: stress}]}\noutputs: {sqlite: false, report: false, participants: false}\n",
  ]

  @Test("the estimate lies within a factor of 1.5 of the bytes written", arguments: 0..<4)
  func withinOneAndAHalf(index: Int) throws {
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(Self.studies[index].utf8), file: "s.yaml"), file: "s.yaml")
    let estimate = WorkEstimate.run(scenario, threads: 2)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-estimate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try StudyRun.run(scenario, to: dir.path, options: .init(threads: 2), version: "test")
    var bytes = 0
    var files = 0
    let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])!
    for case let url as URL in walker {
      let v = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
      if v.isRegularFile == true {
        bytes += v.fileSize ?? 0
        files += 1
      }
    }
    let ratio = estimate.outputBytes / Double(bytes)
    #expect(ratio > 1 / 1.5 && ratio < 1.5, "estimate \(estimate.outputBytes), written \(bytes)")
    let fileRatio = estimate.outputFiles / Double(files)
    #expect(fileRatio > 1 / 1.5 && fileRatio < 1.5, "estimate \(estimate.outputFiles) files, written \(files)")
  }

  @Test("a study whose files would be very large needs --allow-large (L2: 1,000 participants x 28 days of sensor files)")
  func largeOutputsGated() throws {
    let text = "name: big\nduration: 28d\npopulation: {size: 1000}\nprotocol: {sensors: {location: {every: 1m}, accelerometer: {every: 100ms}}}\noutputs: {beiwe_sensors: true}\n"
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "b.yaml"), file: "b.yaml")
    let estimate = WorkEstimate.run(scenario, threads: 2)
    #expect(estimate.isLarge && estimate.participantDays < WorkEstimate.limit)
    #expect(estimate.seconds > 60, "writing \(estimate.outputBytes) bytes takes more than a minute")
  }
}
