/// How the study app reaches the participants' iPhones (AWARE-iOS, seed 004, Table 2): the
/// App Store, TestFlight (external or internal), Apple's Enterprise program, an ad-hoc
/// service such as DeployGate, or Xcode. TestFlight builds expire 90 days after upload, and
/// then the app no longer opens: its prompts are lost (`build_expired`) and it records
/// nothing. Each method also has a largest number of testers (Table 2's "study scale").
public enum Distribution: String, Sendable, Equatable, CaseIterable {
  case appStore = "app_store"
  case testflight
  case testflightInternal = "testflight_internal"
  case enterprise
  case adHoc = "ad_hoc"
  case xcode

  /// Days a build can be used after its upload (nil: it does not expire).
  public var buildLifeDays: Int? {
    switch self {
    case .testflight, .testflightInternal: return 90
    default: return nil
    }
  }

  /// The most participants (devices) the method serves (nil: no limit).
  public var mostParticipants: Int? {
    switch self {
    case .appStore: return nil
    case .testflight: return 10_000
    case .testflightInternal, .enterprise, .adHoc, .xcode: return 100
    }
  }
}
