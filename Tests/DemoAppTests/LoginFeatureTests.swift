import DemoApp
import POMVVMTesting
import Testing

@MainActor
@Suite("Login feature")
struct LoginFeatureTests {
  @Test func theFeatureReleasesItsViewAndViewModel() {
    checkNoLeaks {
      let feature = LoginFeature(environment: FeatureEnvironment())
      do {
        try feature.perform(ScriptCommand(word: "username", argument: "alice_w"))
        try feature.perform(ScriptCommand(word: "password", argument: "secret"))
        try feature.perform(ScriptCommand(word: "login"))
      } catch {
        Issue.record("the commands failed: \(error)")
      }
      _ = feature.handle(.character("x"))
      return [
        feature, feature.form, feature.view, feature.form.username, feature.view.usernameField,
      ]
    }
  }

  @Test func theFormIsTheOnlyScreen() {
    #expect(LoginFeature.screens.map(\.name) == ["login"])
    #expect(LoginFeature.name == "login")
  }
}
