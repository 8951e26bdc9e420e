import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - The JSON file

extension Store {
  /// Creates a store kept in a JSON file: loads and locks the file now, and
  /// saves it in the background after changes.
  ///
  /// - Parameters:
  ///   - fileURL: The file; if it does not exist, the store starts empty
  ///     and creates it on the first save. A symbolic link is followed.
  ///   - fileID: The culprit's file in the reports of failed saves, and
  ///     where the store's cells were made for ``BindingGraph``; by
  ///     default, the caller's.
  ///   - line: The culprit's line in the reports of failed saves, and where
  ///     the store's cells were made; by default, the caller's.
  /// - Throws: ``StoreError`` if the file exists but cannot be read, is not
  ///   a valid store file (which includes two elements with the same id,
  ///   and a field the element type does not know), has more than one hard
  ///   link, or another store has it open; the file is left untouched.
  public convenience init(
    contentsOf fileURL: URL, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(StoreError)
  where Element: Codable & Sendable {
    try self.init(contentsOf: fileURL, saveDelay: Self.saveDelay, fileID: fileID, line: line)
  }

  /// Creates a store kept in a JSON file whose bursts of changes wait
  /// `saveDelay` for more before they are written (tests of coalescing use
  /// a long one, so that a slow run's burst is still one).
  convenience init(
    contentsOf fileURL: URL, saveDelay: DispatchTimeInterval, fileID: StaticString,
    line: UInt
  ) throws(StoreError)
  where Element: Codable & Sendable {
    let file = _JSONFile(path: fileURL.path)
    let (elements, nextSequenceNumber) = try Self.decode(file.load(), path: file.path)
    let writer = _JSONFileWriter<Element>(file: file, delay: saveDelay)
    self.init(
      elements, fileURL: fileURL, writer: writer, nextSequenceNumber: nextSequenceNumber,
      fileID: fileID, line: line)
    writer.onOutcome(reportOutcome)
    persistChanges { [weak self] change in
      guard let self else { return }
      let elements = change?.newElements ?? items.elements
      let (generation, nextSequenceNumber) = numberChange()
      writer.submit(elements, nextSequenceNumber: nextSequenceNumber, generation: generation)
    }
  }

  /// The elements of a file's contents, checked, and the next number of
  /// its sequence if it keeps one: a store file is a JSON array of elements
  /// whose ids are unique, and that hold no field the element type would
  /// drop when it is saved again; or an object with such an array as
  /// `elements` and the sequence's `nextSequenceNumber`, and no other field.
  nonisolated static func decode(_ data: Data?, path: String) throws(StoreError)
    -> (elements: [Element], nextSequenceNumber: Int?) where Element: Codable
  {
    guard let data else { return ([], nil) }
    let elements: [Element]
    var nextSequenceNumber: Int?
    let read: [_JSONShape]?
    do {
      switch try? JSONDecoder().decode(_JSONShape.self, from: data) {
      case .object(let fields):
        if let field = fields.keys.sorted().first(where: {
          !_SequencedContents<Element>.fields.contains($0)
        }) {
          throw StoreError(
            .corrupt, path: path,
            reason: "the file has the field '\(field)', which this version does not know, and "
              + "saving would drop it; open it with the version that wrote it")
        }
        let contents = try JSONDecoder().decode(_SequencedContents<Element>.self, from: data)
        guard contents.nextSequenceNumber >= 1 else {
          throw StoreError(
            .corrupt, path: path,
            reason: "nextSequenceNumber is \(contents.nextSequenceNumber); it must be 1 or more")
        }
        elements = contents.elements
        nextSequenceNumber = contents.nextSequenceNumber
        if case .array(let shapes) = fields["elements"] { read = shapes } else { read = nil }
      default:
        elements = try JSONDecoder().decode([Element].self, from: data)
        read = try? JSONDecoder().decode([_JSONShape].self, from: data)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.corrupt, path: path, reason: describe(error))
    }
    var ids = Set<Element.ID>(minimumCapacity: elements.count)
    for element in elements where !ids.insert(element.id).inserted {
      throw StoreError(
        .corrupt, path: path, reason: "more than one element has the id \(element.id)")
    }
    if let read, let (index, field) = firstUnknownField(in: read, of: elements) {
      throw StoreError(
        .corrupt, path: path,
        reason: "element \(index + 1) (id \(elements[index].id)) has the field '\(field)', which "
          + "this version does not know, and saving would drop it; open it with the version "
          + "that wrote it")
    }
    return (elements, nextSequenceNumber)
  }

  /// The first field of a file's elements (`read`, their shapes) that
  /// encoding the decoded elements again does not write, and its element's
  /// index: data that a save would lose, such as a field a newer version of
  /// the app added.
  nonisolated private static func firstUnknownField(in read: [_JSONShape], of elements: [Element])
    -> (index: Int, field: String)? where Element: Encodable
  {
    let decoder = JSONDecoder()
    guard let encoded = try? JSONEncoder().encode(elements),
      let written = try? decoder.decode([_JSONShape].self, from: encoded)
    else { return nil }
    for (index, (element, saved)) in zip(read, written).enumerated() {
      if let field = element.firstField(missingFrom: saved) {
        return (index, field)
      }
    }
    return nil
  }

  nonisolated private static func describe(_ error: any Error) -> String {
    switch error {
    case let error as DecodingError:
      switch error {
      case .dataCorrupted(let context): context.debugDescription
      case .keyNotFound(let key, _): "missing the field '\(key.stringValue)'"
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        context.debugDescription
      @unknown default: "\(error)"
      }
    default:
      "\(error)"
    }
  }
}
