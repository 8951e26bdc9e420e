// swift-tools-version: 6.1
import PackageDescription

// A separate package, so that the kit itself keeps zero dependencies.
//
// Every workload is written once, in `POMVVMWorkloads`, as a kit variant and
// a baseline doing the same work. Two executables run them:
//
// - `pomvvm-benchmarks` runs each pair interleaved and prints the ratio table:
//   `swift run -c release --package-path Benchmarks pomvvm-benchmarks [--smoke]`.
// - `KitBenchmarks` is the package-benchmark suite (wall clock, instructions,
//   malloc counts, percentiles, baselines, thresholds):
//   `swift package --package-path Benchmarks benchmark`.
let package = Package(
  name: "POMVVMBenchmarks",
  dependencies: [
    .package(name: "POMVVM", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    // Listing the traits replaces the defaults, which leaves out the Swift
    // 6.3 ARC runtime interposer (and its package).
    .package(
      url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    .target(
      name: "POMVVMWorkloads",
      dependencies: [
        .product(name: "POMVVM", package: "POMVVM"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        "CSQLiteBench",
      ]
    ),
    // The system's SQLite, which the store rows' baselines call directly:
    // on Linux, `apt-get install libsqlite3-dev`; Apple's platforms ship it.
    .systemLibrary(
      name: "CSQLiteBench", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .executableTarget(
      name: "pomvvm-benchmarks",
      dependencies: ["POMVVMWorkloads", "CHeapStats"]
    ),
    .target(name: "CHeapStats"),
    .executableTarget(
      name: "KitBenchmarks",
      dependencies: [
        "POMVVMWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/KitBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
