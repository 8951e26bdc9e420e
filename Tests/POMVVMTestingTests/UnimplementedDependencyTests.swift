import Foundation
import POMVVMTesting
import Testing

/// A view model that stamps new ids into a cell, now or in an effect.
@MainActor
final class StampViewModel: ViewModel {
  static let uuidLine = #line + 1
  @Dependency(\.uuid) private var uuid
  let last = Observable<UUID?>(nil)
  let effects = Effects()

  func stamp() {
    last.value = uuid()
  }

  func stampLater() {
    effects.run(id: "stamp") { [weak self] in self?.stamp() }
  }
}

/// The issues that `body` records, each as its comment and its line,
/// expected to fail (inside `withKnownIssue`).
@MainActor
private func issues(
  _ body: () async -> Void
) async -> [(message: String, line: Int?)] {
  let log = _Locked<[(message: String, line: Int?)]>([])
  await withKnownIssue("not a bug: a dependency read on purpose without an override") {
    await body()
  } matching: { issue in
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    log.withLock { $0.append((message, issue.sourceLocation?.line)) }
    return true
  }
  return log.withLock { $0 }
}

private let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

@MainActor
@Suite("Unimplemented dependencies")
struct UnimplementedDependencyTests {
  @Test func anUnoverriddenReadInAStepFailsThatStepNamingTheDependencyAndItsLine() async {
    let model = StampViewModel()
    let recorder = StateRecorder(of: model)
    var line = 0
    let found = await issues {
      line = #line + 1
      recorder.perform {
        model.stamp()
      } expecting: {
        $0.changed(\.last, to: zero)
      }
    }
    // One failure, at the step, listing the read: not a second one at the read.
    #expect(found.map(\.line) == [line])
    let message = found.first?.message ?? ""
    #expect(message.hasPrefix("StateRecorder found 1 problem in this step:\n"))
    #expect(
      message.contains(
        "Unimplemented dependency \\.uuid (UUIDGenerator) read by @Dependency at "
          + "POMVVMTestingTests/UnimplementedDependencyTests.swift:\(StampViewModel.uuidLine)"))
    recorder.finish()
  }

  @Test func anUnoverriddenReadInAnEffectAStepAwaitsFailsThatStep() async {
    let model = StampViewModel()
    let recorder = StateRecorder(of: model)
    var line = 0
    let found = await issues {
      line = #line + 1
      await recorder.perform {
        model.stampLater()
        await model.effects.waitUntilIdle()
      } expecting: {
        $0.changed(\.last, to: zero)
      }
    }
    #expect(found.map(\.line) == [line])
    #expect(found.first?.message.contains("Unimplemented dependency \\.uuid") == true)
    recorder.finish()
  }

  @Test func anUnoverriddenReadOutsideAnyStepFailsAtTheDependencysLine() async {
    let model = StampViewModel()
    let recorder = StateRecorder(of: model)
    recorder.perform {
    } expecting: { _ in
    }
    let found = await issues {
      model.stamp()
    }
    #expect(found.map(\.line) == [StampViewModel.uuidLine])
    recorder.perform {
    } expecting: {
      $0.changed(\.last, to: zero)
    }
    recorder.finish()
  }

  @Test func aStepWhoseReadsAreOverriddenPasses() {
    let model = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      StampViewModel()
    }
    let recorder = StateRecorder(of: model)
    recorder.perform {
      model.stamp()
    } expecting: {
      $0.changed(\.last, to: zero)
    }
    recorder.finish()
  }
}
