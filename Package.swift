// swift-tools-version:6.1
//
// esmsim: a discrete-event simulator of experience-sampling (ESM/EMA) studies.
// Copyright (C) 2026 the esmsim authors. Licensed GPL-3.0-or-later (GNU GSL is GPL).
import PackageDescription

/// Debug builds (the tests) compiled optimised, every check kept.
let optimisedDebug: SwiftSetting = .unsafeFlags(["-O"], .when(configuration: .debug))

/// The build settings of the simulation's own modules (the clock and random streams, the
/// schedulers, the model, the measures, the runner):
/// - release builds compile them without Swift's run-time checks (`-Ounchecked`: overflow,
///   bounds and precondition checks go; 11 % fewer instructions on the city study's workload,
///   the results the same bit for bit: docs/performance.md). Their inputs are what the
///   scenario's resolver has already checked key by key; the readers of files, the command
///   line and the server keep every check;
/// - debug builds (the tests) keep every check and compile them optimised (`-O`): `swift test`
///   runs about twice as fast for a few minutes more of compiling (docs/performance.md).
let simulationSettings: [SwiftSetting] = [
  .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
  optimisedDebug,
]

/// The calibration keeps every check in release builds too; debug builds compile it optimised,
/// since its recovery tests compute a pilot's moments thousands of times (docs/performance.md,
/// 2026-11-30).
let calibrationSettings: [SwiftSetting] = [optimisedDebug]

let package = Package(
  name: "esmsim",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "esmsim", targets: ["esmsim"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    // No traits: the planner uses neither swift-configuration (ConfigurationSupport) nor the
    // DateFormatter of URL-encoded forms (FullFoundation), and with both on, SwiftPM wrote their
    // -D flags in an order drawn anew whenever it planned a build, so that a build with nothing
    // to do recompiled Hummingbird and relinked esmsim half the time after another build folder's
    // (swiftlang/swift-package-manager issue 10525; docs/performance.md).
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
  ],
  targets: [
    // MARK: - C libraries of the system

    /// GNU GSL: distributions (`gsl_ran_*`) and distribution functions (`gsl_cdf_*`).
    .systemLibrary(
      name: "CGSL",
      path: "Sources/CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]
    ),

    /// SQLite, for results.sqlite.
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),

    // MARK: - Simulation

    /// Integer clock, event queue, run loop, counter-based random streams, distributions.
    .target(name: "SimKernel", dependencies: ["CGSL", "CPhilox"], swiftSettings: simulationSettings),
    /// Philox4x32-10 sixteen blocks at a time with AVX2 (C intrinsics), used where the CPU has it.
    .target(name: "CPhilox"),
    /// Signal-scheduling algorithms of real ESM systems: window + parameters + stream → times.
    .target(name: "Schedules", dependencies: ["SimKernel"], swiftSettings: simulationSettings),
    /// Participants, phones, operating systems, delivery, sensing, compliance, ground truth.
    .target(name: "StudyModel", dependencies: ["SimKernel", "Schedules"], swiftSettings: simulationSettings),
    /// Uniformity, predictability, coverage, compliance and sampling bias.
    .target(name: "Measures", dependencies: ["SimKernel", "Schedules", "StudyModel"], swiftSettings: simulationSettings),
    /// The scenario format (YAML or JSON): schema, defaults, validation, variants, imports.
    .target(
      name: "Scenarios",
      dependencies: ["SimKernel", "Schedules", "StudyModel", .product(name: "Yams", package: "Yams")]),
    /// A study run and measured: the threaded runner, every variant and replication simulated,
    /// the typed results (metrics by `Metric`), the work estimate. What every presenter shows.
    .target(name: "Study", dependencies: ["Measures", "Scenarios", "StudyModel", "Schedules", "SimKernel"], swiftSettings: simulationSettings),
    /// The compliance model estimated from a pilot's records (`esmsim calibrate`).
    .target(name: "Calibration", dependencies: ["SimKernel", "StudyModel", "Scenarios", "Study"], swiftSettings: calibrationSettings),
    /// Showing results: HTML and SVG charts (report.html and the planner), numbers as text, JSON.
    .target(name: "Presentation", dependencies: ["Study", "Calibration", "Scenarios", "Measures", "StudyModel", "Schedules", "SimKernel"]),
    /// Writers of files: CSV, SQLite, the results folder, sweeps; files written atomically.
    .target(
      name: "Reporting",
      dependencies: ["Study", "Presentation", "Measures", "Scenarios", "StudyModel", "Schedules", "SimKernel", "CSQLite"]),

    /// The interactive planner's work: a scenario's text in, its figures and calendar out (in memory).
    .target(name: "Planner", dependencies: ["Study", "Presentation", "Scenarios", "StudyModel", "Measures", "Schedules", "SimKernel"]),
    /// `esmsim serve`: the planner's local web server (Hummingbird) and its page, served offline.
    .target(
      name: "Server",
      dependencies: ["Planner", "Reporting", "Presentation", "Study", .product(name: "Hummingbird", package: "hummingbird")]),

    // MARK: - Tools

    /// Benchmarks printed by `esmsim bench` (figures, never timed tests).
    .target(name: "Benchmarks", dependencies: ["SimKernel", "Schedules", "Measures"]),
    /// The command line: thin, no model logic.
    .executableTarget(
      name: "esmsim",
      dependencies: [
        "SimKernel", "Schedules", "StudyModel", "Measures", "Scenarios", "Study", "Presentation", "Reporting", "Benchmarks",
        "Calibration", "Planner", "Server",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: - Tests

    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel", "CGSL", "CPhilox"]),
    .testTarget(name: "SchedulesTests", dependencies: ["Schedules", "Measures", "SimKernel"]),
    // Fixtures are read from the source tree (#filePath), not bundled as resources.
    .testTarget(
      name: "MeasuresTests", dependencies: ["Measures", "Schedules", "SimKernel", "StudyModel"], exclude: ["Fixtures"]),
    .testTarget(name: "StudyModelTests", dependencies: ["StudyModel", "Schedules", "SimKernel"]),
    .testTarget(
      name: "ScenariosTests", dependencies: ["Scenarios", "StudyModel", "Schedules", "SimKernel"], exclude: ["Fixtures"]),
    .testTarget(name: "StudyTests", dependencies: ["Study", "Measures", "Scenarios", "StudyModel", "SimKernel"]),
    .testTarget(
      name: "ReportingTests", dependencies: ["Reporting", "Study", "Presentation", "Measures", "Scenarios", "StudyModel", "Calibration", "CSQLite"]),
    .testTarget(name: "CLITests", dependencies: ["SimKernel"]),
    .testTarget(name: "PlannerTests", dependencies: ["Planner", "Study", "Presentation", "Scenarios", "Reporting", "Schedules"]),
    .testTarget(name: "ServerTests", dependencies: ["Server", "Planner"]),
  ]
)
