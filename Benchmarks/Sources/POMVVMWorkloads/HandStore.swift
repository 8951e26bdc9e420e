/// The baseline for the array workloads: the store one would write by hand
/// for exactly these rows and these observers.
///
/// An array of structs, an `[id: index]` dictionary, closure lists of
/// observers and a count kept up to date by hand. It does only what the
/// workloads ask of it: no removal, no diff, no cells.
@MainActor
package final class HandStore {
  private(set) var rows: [Row]
  private var indexes: [Int: Int]
  /// How many rows are on, kept by every write.
  private(set) var openCount: Int
  /// Called with the index of every changed row.
  private var listObservers: [@MainActor (Int) -> Void] = []
  private var countObservers: [@MainActor (Int) -> Void] = []
  private var onObservers: [Int: [@MainActor (Bool) -> Void]] = [:]
  private var titleObservers: [Int: [@MainActor (String) -> Void]] = [:]

  package init(_ rows: [Row]) {
    self.rows = rows
    var indexes: [Int: Int] = [:]
    indexes.reserveCapacity(rows.count)
    for (index, row) in rows.enumerated() { indexes[row.id] = index }
    self.indexes = indexes
    openCount = rows.count { $0.on }
  }

  package func observeList(_ observer: @escaping @MainActor (Int) -> Void) {
    listObservers.append(observer)
  }

  package func observeCount(_ observer: @escaping @MainActor (Int) -> Void) {
    countObservers.append(observer)
  }

  package func observeOn(of id: Int, _ observer: @escaping @MainActor (Bool) -> Void) {
    onObservers[id, default: []].append(observer)
  }

  package func observeTitle(of id: Int, _ observer: @escaping @MainActor (String) -> Void) {
    titleObservers[id, default: []].append(observer)
  }

  /// Changes the row with `id` in place and tells whoever is concerned.
  package func modify(id: Int, _ body: (inout Row) -> Void) {
    guard let index = indexes[id] else { return }
    let old = rows[index]
    body(&rows[index])
    let new = rows[index]
    guard old != new else { return }
    if old.on != new.on {
      openCount += new.on ? 1 : -1
    }
    for observer in listObservers { observer(index) }
    if old.on != new.on {
      for observer in countObservers { observer(openCount) }
      if let observers = onObservers[id] {
        for observer in observers { observer(new.on) }
      }
    }
    if old.title != new.title, let observers = titleObservers[id] {
      for observer in observers { observer(new.title) }
    }
  }
}
