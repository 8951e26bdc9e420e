import Foundation
import POMVVM
import POMVVMTesting
import Testing

private enum Authorization: Sendable, Equatable {
  case notDetermined, denied, authorized
}

/// A client of several endpoints, as apps write them.
private struct SpeechClient: Sendable {
  var authorizationStatus: @Sendable () -> Authorization
  var requestAuthorization: @Sendable () async -> Authorization
  var transcribe: @Sendable (String) async throws -> String
  var stop: @Sendable () -> Void
}

/// Its test value is made of endpoints that fail when called unset.
private enum SpeechClientKey: DependencyKey {
  static let liveValue = SpeechClient(
    authorizationStatus: { .authorized }, requestAuthorization: { .authorized },
    transcribe: { "live \($0)" }, stop: {})
  static let transcribeLine = #line + 4
  static let testValue = SpeechClient(
    authorizationStatus: unimplemented("authorizationStatus", placeholder: .notDetermined),
    requestAuthorization: unimplemented("requestAuthorization", placeholder: .notDetermined),
    transcribe: unimplemented("transcribe"),
    stop: unimplemented("stop", placeholder: ()))
}

/// The same client, whose test value is a plain harmless one.
private enum PlainSpeechClientKey: DependencyKey {
  static let liveValue = SpeechClientKey.liveValue
  static let testValue = SpeechClient(
    authorizationStatus: { .notDetermined }, requestAuthorization: { .notDetermined },
    transcribe: { _ in "" }, stop: {})
}

extension DependencyValues {
  fileprivate var speech: SpeechClient {
    get { self[SpeechClientKey.self] }
    set { self[SpeechClientKey.self] = newValue }
  }

  fileprivate var plainSpeech: SpeechClient {
    get { self[PlainSpeechClientKey.self] }
    set { self[PlainSpeechClientKey.self] = newValue }
  }
}

@MainActor
private final class Recording {
  @Dependency(\.speech) var speech
  @Dependency(\.plainSpeech) var plainSpeech
}

/// The issues `body` records, each as its comment and its line.
@MainActor
private func failures(_ body: () async -> Void) async -> [(message: String, line: Int?)] {
  let log = _Locked<[(message: String, line: Int?)]>([])
  await withKnownIssue("not a bug: an endpoint called on purpose without an override") {
    await body()
  } matching: { issue in
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    log.withLock { $0.append((message, issue.sourceLocation?.line)) }
    return true
  }
  return log.withLock { $0 }
}

@MainActor
@Suite("Unimplemented endpoints")
struct UnimplementedEndpointTests {
  @Test func overridingOneEndpointOfAnUnsetDependencyIsNotAUse() {
    // Reading the client to change one endpoint reads its test value: that
    // read does not fail the test.
    let model = withDependencies {
      $0.plainSpeech.authorizationStatus = { .denied }
      $0.speech.authorizationStatus = { .denied }
    } operation: {
      Recording()
    }
    #expect(model.plainSpeech.authorizationStatus() == .denied)
    #expect(model.speech.authorizationStatus() == .denied)
  }

  @Test func callingAnEndpointThatWasNotSetFailsNamingIt() async {
    let model = withDependencies {
      $0.speech.authorizationStatus = { .denied }
    } operation: {
      Recording()
    }
    let found = await failures {
      #expect(model.speech.authorizationStatus() == .denied)
      #expect(await model.speech.requestAuthorization() == .notDetermined)
      model.speech.stop()
    }
    #expect(found.count == 2)
    #expect(
      found.map(\.line) == [SpeechClientKey.transcribeLine - 1, SpeechClientKey.transcribeLine + 1])
    let messages = found.map(\.message)
    #expect(
      messages.first?.contains("Unimplemented endpoint SpeechClient.requestAuthorization") == true)
    #expect(messages.last?.contains("Unimplemented endpoint SpeechClient.stop") == true)
    #expect(messages.first?.contains("called in a test that did not set it") == true)
  }

  @Test func aThrowingEndpointThatWasNotSetFailsAndThrows() async {
    let model = Recording()
    let found = await failures {
      await #expect(throws: (any Error).self) { try await model.speech.transcribe("hello") }
    }
    #expect(found.map(\.line) == [SpeechClientKey.transcribeLine])
    #expect(found.first?.message.contains("SpeechClient.transcribe") == true)
    #expect(found.first?.message.contains("it threw an error") == true)
  }

  @Test func readingAClientOfUnimplementedEndpointsIsNotAUse() {
    // No override at all: the read does not fail; only a call would.
    let model = Recording()
    let client = model.speech
    _ = client
  }

  @Test func readingAPlainClientWithNoOverrideStillFails() async {
    let model = Recording()
    let found = await failures {
      _ = model.plainSpeech.authorizationStatus()
    }
    #expect(found.count == 1)
    #expect(found.first?.message.contains("Unimplemented dependency PlainSpeechClientKey") == true)
  }

  @Test func aReadInTheUpdateThatIsNotSetAfterwardsFails() async {
    let found = await failures {
      withDependencies {
        _ = $0.plainSpeech.authorizationStatus()
      } operation: {
      }
    }
    #expect(found.count == 1)
    #expect(found.first?.message.contains("read by withDependencies at") == true)
  }

  @Test func anEndpointSetInTheTestIsCalledAndTheOthersKeepFailing() async {
    let model = withDependencies {
      $0.speech.transcribe = { "heard \($0)" }
    } operation: {
      Recording()
    }
    let heard = try? await model.speech.transcribe("hello")
    #expect(heard == "heard hello")
  }
}
