import DemoApp
import Movies
import POMVVMTesting
import Testing

/// The movies feature's navigation: the detail is a screen of its stack.
@MainActor
@Suite("Movies navigation")
struct MoviesFeatureTests {
  @Test func theDetailIsPushedAndAPopReleasesIt() async throws {
    let feature = MoviesFeature(environment: FeatureEnvironment(latency: .zero))
    let navigation = HeadlessNavigationStack(feature.path)
    var output = ""
    var error = ""
    let status = await ScriptRunner().run(
      feature, lines: ["load", "open 2"], output: &output, error: &error)
    #expect(status == 0)
    #expect(feature.path.count == 1)
    #expect(feature.currentScreen == MoviesFeature.detailScreen)
    weak let detail = feature.path.last
    #expect(detail != nil)
    navigation.userPop()  // the platform's Back
    #expect(feature.path.isEmpty)
    #expect(detail == nil, "the popped detail is released")
    #expect(feature.currentScreen == MoviesFeature.listScreen)
    #expect(navigation.violations.isEmpty)
  }
}
