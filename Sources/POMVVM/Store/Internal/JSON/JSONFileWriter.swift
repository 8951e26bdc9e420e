import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The contents of a JSON store file after a change: a save writes the
/// last one submitted.
struct _JSONSnapshot<Element>: _SaveBurst {
  var elements: [Element]
  var nextSequenceNumber: Int?

  mutating func absorb(_ later: _JSONSnapshot) {
    self = later
  }
}

/// Writes a store's JSON file on the store's save thread: every save
/// writes the whole array, the last snapshot submitted, atomically.
final class _JSONFileWriter<Element: Encodable & Sendable>: _StoreSaving, @unchecked Sendable {
  private let file: _JSONFile
  private let loop: _SaveLoop<_JSONSnapshot<Element>>

  init(file: _JSONFile, delay: DispatchTimeInterval) {
    self.file = file
    loop = _SaveLoop(delay: delay) { [file] snapshot in
      do throws(StoreError) {
        try file.save(Self.encode(snapshot, path: file.path))
        return (nil, nil)
      } catch {
        return (error, nil)
      }
    }
  }

  /// Sets where the outcome of every background write goes (on the
  /// writer's thread); before the first change.
  func onOutcome(_ report: @escaping @Sendable (_SaveOutcome) -> Void) {
    loop.onOutcome(report)
  }

  /// Takes the contents after a change, with the store's sequence if it
  /// keeps one; they are written soon.
  func submit(_ elements: [Element], nextSequenceNumber: Int?, generation: Int) {
    loop.submit(
      _JSONSnapshot(elements: elements, nextSequenceNumber: nextSequenceNumber),
      generation: generation)
  }

  func flush() -> _SaveOutcome {
    loop.flush()
  }

  func close() {
    loop.close { file.unlock() }
  }

  var writeCount: Int { loop.writeCount }

  /// The file's contents: the array of elements, or, for a store that
  /// keeps a sequence, an object with the elements and the sequence's next
  /// number.
  private static func encode(_ snapshot: _JSONSnapshot<Element>, path: String) throws(StoreError)
    -> Data
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      if let nextSequenceNumber = snapshot.nextSequenceNumber {
        return try encoder.encode(
          _SequencedContents(elements: snapshot.elements, nextSequenceNumber: nextSequenceNumber))
      }
      return try encoder.encode(snapshot.elements)
    } catch {
      throw StoreError(.unwritable, path: path, reason: "\(error)")
    }
  }
}

/// A store file that keeps a sequence: its elements, and the number the
/// sequence hands out next.
struct _SequencedContents<Element> {
  var elements: [Element]
  var nextSequenceNumber: Int

  /// The fields of the file's top-level object.
  static var fields: Set<String> { ["elements", "nextSequenceNumber"] }
}

extension _SequencedContents: Encodable where Element: Encodable {}
extension _SequencedContents: Decodable where Element: Decodable {}
