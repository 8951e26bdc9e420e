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
    // The sample's view models and text views, shared by the demo app, the
    // tests and the playgrounds.
    .target(name: "MasterDetail", dependencies: ["POMVVM"]),
    .executableTarget(name: "pomvvm-demo", dependencies: ["POMVVM", "MasterDetail"]),
    .testTarget(name: "POMVVMTests", dependencies: ["POMVVM", "POMVVMTesting"]),
    .testTarget(name: "MasterDetailTests", dependencies: ["MasterDetail", "POMVVMTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
