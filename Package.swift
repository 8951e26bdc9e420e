// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "POMVVM",
  // Isolated deinit needs the Swift 6.1 runtime; Observation (macOS 14) and the rest are older.
  platforms: [.macOS("15.4"), .iOS("18.4"), .tvOS("18.4"), .watchOS("11.4"), .visionOS("2.4")],
  products: [
    .library(name: "POMVVM", targets: ["POMVVM"]),
    .library(name: "POMVVMTesting", targets: ["POMVVMTesting"]),
    .executable(name: "pomvvm-demo", targets: ["pomvvm-demo"]),
  ],
  targets: [
    // The system's SQLite, for the store's database back end: on Linux,
    // `apt-get install libsqlite3-dev`; Apple's platforms ship it.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    // C helpers Swift has no spelling for (a cache prefetch hint, for the
    // queries' descents): inline functions in a header, behind a module
    // map, so that there is nothing to compile or link.
    .systemLibrary(name: "CPOMVVM"),
    // The READMEs state the invariants of the core and of each room's
    // internals, for contributors.
    .target(
      name: "POMVVM",
      dependencies: ["CSQLite", "CPOMVVM"],
      exclude: [
        "Core/README.md", "Arrays/Internal/README.md", "Queries/Internal/README.md",
        "Lists/Internal/README.md", "Time/Internal/README.md", "Store/README.md",
      ]),
    .target(name: "POMVVMTesting", dependencies: ["POMVVM"]),
    // The sample's view models and text views, shared by the demo app, the
    // tests and the playgrounds.
    .target(name: "MasterDetail", dependencies: ["POMVVM"]),
    .target(name: "Login", dependencies: ["POMVVM"]),
    .target(name: "ToDo", dependencies: ["POMVVM"]),
    .target(name: "Movies", dependencies: ["POMVVM"]),
    // Terminal primitives for the sample app: raw mode, keys, display width.
    .target(name: "TextUI"),
    // The sample app's screens and modes; the executable only starts it.
    .target(
      name: "DemoApp",
      dependencies: ["POMVVM", "MasterDetail", "Login", "ToDo", "Movies", "TextUI"]),
    .executableTarget(name: "pomvvm-demo", dependencies: ["DemoApp"]),
    // Helpers shared by the test targets: latches, recorders, a seeded generator.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // A process that keeps a database store, driven by the store's process
    // tests (several processes on one database, kills, a full disk).
    .executableTarget(
      name: "pomvvm-store-process", dependencies: ["POMVVM", "TestSupport", "CSQLite"],
      path: "Tests/StoreProcess"),
    .testTarget(name: "POMVVMTests", dependencies: ["POMVVM", "POMVVMTesting", "TestSupport"]),
    .testTarget(name: "MasterDetailTests", dependencies: ["MasterDetail", "POMVVMTesting"]),
    .testTarget(name: "POMVVMTestingTests", dependencies: ["POMVVMTesting", "MasterDetail"]),
    .testTarget(name: "LoginTests", dependencies: ["Login", "POMVVMTesting", "TestSupport"]),
    .testTarget(name: "ToDoTests", dependencies: ["ToDo", "POMVVMTesting"]),
    .testTarget(name: "MoviesTests", dependencies: ["Movies", "POMVVMTesting", "TestSupport"]),
    .testTarget(name: "TextUITests", dependencies: ["TextUI"]),
    .testTarget(
      name: "DemoAppTests",
      dependencies: [
        "DemoApp", "MasterDetail", "Login", "ToDo", "Movies", "TextUI", "POMVVMTesting",
        "TestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
