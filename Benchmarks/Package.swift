// swift-tools-version: 6.0
import PackageDescription

// A separate package, so that the kit itself keeps zero dependencies. Build it
// in release mode: `swift run -c release pomvvm-benchmarks`.
let package = Package(
  name: "POMVVMBenchmarks",
  dependencies: [
    .package(name: "POMVVM", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
  ],
  targets: [
    .executableTarget(
      name: "pomvvm-benchmarks",
      dependencies: [
        .product(name: "POMVVM", package: "POMVVM"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        "CHeapStats",
      ]
    ),
    .target(name: "CHeapStats"),
  ],
  swiftLanguageModes: [.v6]
)
