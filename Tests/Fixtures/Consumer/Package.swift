// swift-tools-version: 6.2
import PackageDescription

// A package outside the kit that uses POMVVMTesting the way an app does: its
// own view models and views, checked from its own test target, under Swift
// Testing and XCTest. scripts/test-consumer-fixture builds and tests it.
let package = Package(
  name: "Groceries",
  platforms: [.macOS("15.4"), .iOS("18.4"), .tvOS("18.4"), .watchOS("11.4"), .visionOS("2.4")],
  dependencies: [
    .package(name: "POMVVM", path: "../../..")
  ],
  targets: [
    .target(name: "Groceries", dependencies: [.product(name: "POMVVM", package: "POMVVM")]),
    .testTarget(
      name: "GroceriesTests",
      dependencies: ["Groceries", .product(name: "POMVVMTesting", package: "POMVVM")]),
  ],
  swiftLanguageModes: [.v6]
)
