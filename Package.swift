// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "POMVVM",
  products: [
    .library(name: "POMVVM", targets: ["POMVVM"]),
    .library(name: "POMVVMTesting", targets: ["POMVVMTesting"]),
    .executable(name: "pomvvm-demo", targets: ["pomvvm-demo"]),
  ],
  targets: [
    .target(name: "POMVVM"),
    .target(name: "POMVVMTesting", dependencies: ["POMVVM"]),
    .executableTarget(name: "pomvvm-demo", dependencies: ["POMVVM"]),
    .testTarget(name: "POMVVMTests", dependencies: ["POMVVM", "POMVVMTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
