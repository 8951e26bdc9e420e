import Foundation
import POMVVMTesting
import Testing

@Suite("UUIDGenerator.incrementing")
struct UUIDGeneratorIncrementingTests {
  @Test func givesZeroThenOneAndSoOnInHexadecimal() {
    let uuid = UUIDGenerator.incrementing
    let ids = (0..<257).map { _ in uuid().uuidString }
    #expect(
      [ids[0], ids[1], ids[2], ids[15], ids[16], ids[256]] == [
        "00000000-0000-0000-0000-000000000000",
        "00000000-0000-0000-0000-000000000001",
        "00000000-0000-0000-0000-000000000002",
        "00000000-0000-0000-0000-00000000000F",
        "00000000-0000-0000-0000-000000000010",
        "00000000-0000-0000-0000-000000000100",
      ])
  }

  @Test func eachUseOfIncrementingStartsAtZeroAndCopiesShareTheCount() {
    let first = UUIDGenerator.incrementing
    let copy = first
    _ = first()
    _ = copy()
    let second = UUIDGenerator.incrementing
    #expect(first().uuidString.hasSuffix("000000000002"))
    #expect(second().uuidString.hasSuffix("000000000000"))
  }

  @Test func concurrentTasksGetDistinctConsecutiveIds() async {
    let uuid = UUIDGenerator.incrementing
    let ids = await withTaskGroup(of: UUID.self) { group in
      for _ in 0..<200 {
        group.addTask { uuid() }
      }
      var ids: [UUID] = []
      for await id in group { ids.append(id) }
      return ids
    }
    let expected = Set((0..<200).map { UUIDGenerator.incrementing.nth($0) })
    #expect(Set(ids) == expected)
  }
}

extension UUIDGenerator {
  /// The `n`th id of this generator (counting from 0), skipping the others.
  fileprivate func nth(_ n: Int) -> UUID {
    for _ in 0..<n { _ = self() }
    return self()
  }
}
