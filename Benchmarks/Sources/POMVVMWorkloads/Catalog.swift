import POMVVM

/// Every comparison, in the order of the ratio table.
///
/// Each workload is written once, here; the ratio table (`pomvvm-benchmarks`)
/// and the package-benchmark suite (`KitBenchmarks`) both run these.
package let catalog: [Comparison] =
  arrayComparisons + cellComparisons + memoryComparisons + listComparisons + timeComparisons
  + queryComparisons + sectionedListComparisons + navigationComparisons + scaleComparisons
  + spreadComparisons

/// The hand-written store the array rows are compared with.
private let handStore = "hand store: [Row] + [id: index] + closure lists + count"

private let arrayComparisons: [Comparison] =
  [
    Comparison(
      "array/toggle via element cell, count + list observer, n = 100,000",
      target: .ratioAtMost(10), baselineName: handStore,
      kit: { kitToggle(size: 100_000, projections: false) },
      baseline: { handToggle(size: 100_000, projections: false) }),
    Comparison(
      "array/toggle via element cell, + row and detail projections observed, n = 100,000",
      target: .ratioAtMost(10), baselineName: handStore + " + field observers",
      kit: { kitToggle(size: 100_000, projections: true) },
      baseline: { handToggle(size: 100_000, projections: true) }),
    Comparison(
      "array/toggle via element cell, tracked by an UndoHistory (merged), n = 100,000",
      target: .ratioAtMost(1.5), baselineName: "the same toggle, untracked",
      kit: { kitTrackedToggle(size: 100_000, stepEach: false) },
      baseline: { kitToggle(size: 100_000, projections: false) }),
    Comparison(
      "array/toggle via element cell, tracked, a new undo step each, n = 100,000",
      target: .ratioAtMost(1.5), baselineName: "the same toggle, untracked",
      kit: { kitTrackedToggle(size: 100_000, stepEach: true) },
      baseline: { kitToggle(size: 100_000, projections: false) }),
    Comparison(
      "array/remove(atOffsets:) of 3 rows, n = 100,000", target: .ratioAtMost(2),
      baselineName: "three remove(id:) of the same rows", maxBatch: 1_000,
      kit: { RemoveThreeRows(atOffsets: true) }, baseline: { RemoveThreeRows(atOffsets: false) }),
    Comparison(
      "array/undo + redo of one toggle, n = 100,000", target: .ratioAtMost(1.5),
      baselineName: "the same at n = 1,000",
      kit: { kitUndoRedoToggle(size: 100_000) }, baseline: { kitUndoRedoToggle(size: 1_000) }),
  ]
  + [1_000, 10_000, 100_000].map { size in
    Comparison(
      "array/3 inserts at top + toggle via element cell, n = \(grouped(size))",
      target: .ratioAtMost(3),
      baselineName: "[Row]: insert(at: 0) + firstIndex(where:) + write",
      maxBatch: max(1, size / 30), perSample: 1,
      kit: { KitInsertThenToggle(size: size) },
      baseline: { PlainInsertThenToggle(size: size) })
  } + [
    Comparison(
      "array/replaceAll, n = 100,000, one appended then removed",
      target: .none, baselineName: "one O(n) prefix/suffix pass over both arrays", perSample: 1,
      kit: { kitReplaceAllRoundTrip(100_000) },
      baseline: {
        let (rows, appended) = appendedPair(100_000)
        return Loop { iterations in
          for _ in 0..<iterations {
            sharedSink.total &+= plainPass(rows, appended)
            sharedSink.total &+= plainPass(appended, rows)
          }
        }
      }),
    Comparison(
      "array/replaceAll, n = 100,000, one appended then removed, vs article 002",
      target: .none, baselineName: "article 002's Set-based diff", perSample: 1,
      kit: { kitReplaceAllRoundTrip(100_000) },
      baseline: {
        let (rows, appended) = appendedPair(100_000)
        let old = rows.map { ArticleItem(id: $0.id, title: $0.title) }
        let new = appended.map { ArticleItem(id: $0.id, title: $0.title) }
        return Loop { iterations in
          for _ in 0..<iterations {
            blackHole(articleDiff(original: old, now: new))
            blackHole(articleDiff(original: new, now: old))
          }
        }
      }),
    Comparison(
      "array/replaceAll, n = 10,000, 1,000 replaced",
      target: .none, baselineName: "stdlib difference(from:)", perSample: 1,
      kit: {
        let (rows, replaced) = replacedPair(10_000, replaced: 1_000)
        let items = ObservableArray(rows)
        return Loop(keeping: items) { iterations in
          for _ in 0..<iterations {
            items.replaceAll(with: replaced)
            items.replaceAll(with: rows)
          }
        }
      },
      baseline: {
        let (rows, replaced) = replacedPair(10_000, replaced: 1_000)
        return Loop { iterations in
          for _ in 0..<iterations {
            blackHole(replaced.difference(from: rows))
            blackHole(rows.difference(from: replaced))
          }
        }
      }),
  ]

/// The list adapter's rows: what a text list attached through it adds to a
/// toggle, what the translations cost, and a coalesced update.
private let listComparisons: [Comparison] = [
  Comparison(
    "list/toggle via element cell, + ListAdapter and a text list, n = 100,000",
    target: .ratioAtMost(1.5), baselineName: "the same toggle, no adapter or list",
    kit: { listToggle(size: 100_000, attached: true) },
    baseline: { listToggle(size: 100_000, attached: false) }),
  Comparison(
    "list/batchUpdate of a 4-change set, n = 100,000", target: .ratioAtMost(1.5),
    baselineName: "the same shape of change set at n = 100",
    kit: { listTranslation(size: 100_000, steps: false) },
    baseline: { listTranslation(size: 100, steps: false) }),
  Comparison(
    "list/steps of a 4-change set, n = 100,000", target: .ratioAtMost(1.5),
    baselineName: "the same shape of change set at n = 100",
    kit: { listTranslation(size: 100_000, steps: true) },
    baseline: { listTranslation(size: 100, steps: true) }),
  Comparison(
    "list/1,000 edits while not ready + one coalesced update, n = 100,000", target: .none,
    baselineName: "the 1,000 edits, no adapter", perSample: 1,
    kit: { coalescedUpdate(size: 100_000, attached: true) },
    baseline: { coalescedUpdate(size: 100_000, attached: false) }),
  Comparison(
    "memory/bytes per row kept by a ListAdapter", measure: .bytes, target: .bytesAtMost(16),
    baselineName: "", maxBatch: 100_000, kit: { AdapterAllocation() }, baseline: nil),
]

/// The kit's own set → 1 observer, the unit of the binding rows.
private let kitSetName = "POMVVM Observable set -> 1 observer"

private let cellComparisons: [Comparison] = [
  Comparison(
    "cell/set -> 1 observer", target: .ratioAtMost(2), baselineName: "a plain closure call",
    kit: { kitSet() }, baseline: { closureCall() }),
  Comparison(
    "cell/bidirectionalBind(to:), set a -> b's observer", target: .ratioAtMost(6),
    baselineName: kitSetName,
    kit: { kitBinding(bidirectional: true) }, baseline: { kitSet() }),
  Comparison(
    "cell/bind(to:), set a -> b's observer", target: .ratioAtMost(4),
    baselineName: kitSetName,
    kit: { kitBinding(bidirectional: false) }, baseline: { kitSet() }),
  Comparison(
    "cell/combine(.every) of 3, set one -> 1 observer", target: .ratioAtMost(6),
    baselineName: kitSetName,
    kit: { kitCombineThree() }, baseline: { kitSet() }),
  Comparison(
    "cell/diamond combine(.every, a.map, a.map), set a -> 1 observer", target: .none,
    baselineName: kitSetName,
    kit: { kitDiamond() }, baseline: { kitSet() }),
  Comparison(
    "cell/bind(to:), set a -> b's observer, vs OpenCombine", target: .kitFaster(8),
    baselineName: "OpenCombine CurrentValueSubject + sink { b.send($0) }",
    kit: { kitBinding(bidirectional: false) }, baseline: { combineBinding() }),
  Comparison(
    "cell/set -> 1 observer, vs OpenCombine", target: .none,
    baselineName: "OpenCombine CurrentValueSubject + removeDuplicates + sink",
    kit: { kitSet() }, baseline: { combineSet() }),
  Comparison(
    "cell/set -> 1 observer, vs Observation", target: .none,
    baselineName: "@Observable + withObservationTracking",
    kit: { kitSet() }, baseline: { trackedObservableModel() }),
  Comparison(
    "observation/kit set with a tracked reader vs without", target: .none,
    baselineName: kitSetName + ", never read through its getter",
    kit: { trackedKitCell() }, baseline: { kitSet() }),
  Comparison(
    "observation/kit set, read once, no tracker vs never read", target: .none,
    baselineName: kitSetName + ", never read through its getter",
    kit: { kitSetAfterARead() }, baseline: { kitSet() }),
  Comparison(
    "observation/kit set with a tracked reader vs @Observable tracked", target: .none,
    baselineName: "@Observable + re-registered withObservationTracking",
    kit: { trackedKitCell() }, baseline: { trackedObservableModel() }),
  Comparison(
    "observation/kit set -> 1 observer vs @Observable set, untracked", target: .none,
    baselineName: "hand-written @Observable class, property set",
    kit: { kitSet() }, baseline: { observableModelSet() }),
  Comparison(
    "cell/set -> 100 observers", target: .none, baselineName: "100 plain closure calls",
    kit: { kitSet(observers: 100) }, baseline: { closureCall(observers: 100) }),
  Comparison(
    "cell/subscribe + cancel, 100 observers present", target: .none,
    baselineName: "the same with 1 present",
    kit: { kitChurn(present: 100) }, baseline: { kitChurn(present: 1) }),
  Comparison(
    "cell/subscribe + cancel, 100 present, vs OpenCombine", target: .none,
    baselineName: "OpenCombine removeDuplicates + sink, cancel",
    kit: { kitChurn(present: 100) }, baseline: { combineChurn(present: 100) }),
]

private let memoryComparisons: [Comparison] = [
  Comparison(
    "memory/bytes per element cell", measure: .bytes, target: .bytesAtMost(200),
    baselineName: "", maxBatch: 100_000,
    kit: { CellAllocation(size: 100_000, projecting: false) }, baseline: nil),
  Comparison(
    "memory/bytes per field projection", measure: .bytes, target: .bytesAtMost(160),
    baselineName: "", maxBatch: 100_000,
    kit: { CellAllocation(size: 100_000, projecting: true) }, baseline: nil),
  Comparison(
    "memory/bytes per element cell, read once untracked", measure: .bytes, target: .none,
    baselineName: "", maxBatch: 100_000,
    kit: { CellAllocation(size: 100_000, projecting: false, reading: true) }, baseline: nil),
  Comparison(
    "memory/bytes per field projection, read once untracked", measure: .bytes, target: .none,
    baselineName: "", maxBatch: 100_000,
    kit: { CellAllocation(size: 100_000, projecting: true, reading: true) }, baseline: nil),
  Comparison(
    "memory/bytes per ObservableArray element", measure: .bytes, target: .ratioAtMost(1.3),
    baselineName: "[Row] of the same rows", maxBatch: 100_000,
    kit: { ArrayAllocation { ObservableArray($0) } },
    baseline: { ArrayAllocation { $0 } }),
  Comparison(
    "memory/cell + observer capturing one object", measure: .bytes, target: .none,
    baselineName: "OpenCombine subject + removeDuplicates + sink", maxBatch: 100_000,
    kit: { kitCellWithObserver(0) }, baseline: { combineCellWithObserver() }),
  Comparison(
    "memory/cell + observer capturing [weak owner]", measure: .bytes, target: .none,
    baselineName: "", maxBatch: 100_000, kit: { kitCellWithObserver(1) }, baseline: nil),
  Comparison(
    "memory/cell + observer capturing two values", measure: .bytes, target: .none,
    baselineName: "", maxBatch: 100_000, kit: { kitCellWithObserver(2) }, baseline: nil),
]

private let queryComparisons: [Comparison] = [
  Comparison(
    "query/one toggle in a filtered sorted query, n = 100,000", target: .kitFaster(1),
    baselineName: "re-filter + re-sort + identity diff on every change", perSample: 1,
    kit: { kitFlatQueryToggle(size: 100_000) },
    baseline: { handRequeryToggle(size: 100_000) }),
  Comparison(
    "query/toggle via element cell, + a sorted LiveQuery, the row stays, n = 100,000",
    target: .ratioAtMost(1.5), baselineName: "the same toggle, no query",
    kit: { kitToggle(size: 100_000, projections: false, sortedQuery: true) },
    baseline: { kitToggle(size: 100_000, projections: false) }),
  Comparison(
    "query/new predicate, filtered and sorted, n = 100,000", target: .ratioAtMost(2),
    baselineName: "filter + sorted of the same array", perSample: 1,
    kit: { kitNewPredicate(size: 100_000) }, baseline: { handNewPredicate(size: 100_000) }),
  Comparison(
    "query/edit in place + one reaction, sorted sectioned query, n = 100,000",
    target: .ratioAtMost(2), baselineName: "the same edit, no reaction",
    kit: { kitQueryEditWithReaction(size: 100_000, reaction: true) },
    baseline: { kitQueryEditWithReaction(size: 100_000, reaction: false) }),
  Comparison(
    "query/edit in place + one reaction, sorted sectioned query, vs the two edits made directly, "
      + "n = 100,000",
    target: .ratioAtMost(1.25), baselineName: "the edit and the reaction's edit, made in turn",
    kit: { kitQueryEditWithReaction(size: 100_000, reaction: true) },
    baseline: { kitQueryEditWithReaction(size: 100_000, reaction: false, direct: true) }),
  Comparison(
    "query/edit in place + one reaction, sorted sectioned query, vs no query, n = 100,000",
    target: .ratioAtMost(2), baselineName: "the same edit and reaction, the array alone",
    kit: { kitQueryEditWithReaction(size: 100_000, reaction: true) },
    baseline: { kitQueryEditWithReaction(size: 100_000, reaction: true, query: false) }),
  Comparison(
    "memory/bytes per row of a sorted LiveQuery", measure: .bytes, target: .bytesAtMost(48),
    baselineName: "", maxBatch: 100_000, kit: { QueryAllocation(sectioned: false) }, baseline: nil),
  Comparison(
    "memory/bytes per row of a sorted SectionedQuery", measure: .bytes, target: .bytesAtMost(48),
    baselineName: "", maxBatch: 100_000, kit: { QueryAllocation(sectioned: true) }, baseline: nil),
]

/// A sectioned query driving a view through a `SectionedListAdapter`.
private let sectionedListComparisons: [Comparison] = [
  Comparison(
    "query/edit in place, sectioned query + SectionedListAdapter, n = 100,000",
    target: .ratioAtMost(2), baselineName: "the same at n = 1,000",
    kit: { kitSectionedAdapterEdit(size: 100_000, across: false) },
    baseline: { kitSectionedAdapterEdit(size: 1_000, across: false) }),
  Comparison(
    "query/edit in place, sectioned query + SectionedListAdapter, vs no query, n = 100,000",
    target: .ratioAtMost(3), baselineName: "the same edit, a ListAdapter over the array",
    kit: { kitSectionedAdapterEdit(size: 100_000, across: false) },
    baseline: { kitPlainAdapterEdit(size: 100_000, across: false) }),
  Comparison(
    "query/toggle across sections, sectioned query + SectionedListAdapter, n = 100,000",
    target: .ratioAtMost(1.5), baselineName: "the same at n = 1,000",
    kit: { kitSectionedAdapterEdit(size: 100_000, across: true) },
    baseline: { kitSectionedAdapterEdit(size: 1_000, across: true) }),
  Comparison(
    "query/toggle across sections, sectioned query + SectionedListAdapter, vs no query, "
      + "n = 100,000",
    target: .ratioAtMost(3), baselineName: "the same toggle, a ListAdapter over the array",
    kit: { kitSectionedAdapterEdit(size: 100_000, across: true) },
    baseline: { kitPlainAdapterEdit(size: 100_000, across: true) }),
]

/// New items inserted one at a time at the top of the Master-Detail list,
/// with its search query attached, against a plain array doing the same:
/// the kit must add nothing that grows faster than the array's own shift.
private let scaleComparisons: [Comparison] =
  [10_000, 100_000].map { size in
    Comparison(
      "scale/insert at top, Master-Detail list + search query, next insert at n = \(grouped(size))",
      target: .ratioAtMost(1.5), baselineName: "[Row].insert(at: 0)",
      maxBatch: max(1, size / 30), perSample: 1,
      kit: { KitMasterDetailInserts(size: size, fromEmpty: false) },
      baseline: { PlainInserts(size: size, fromEmpty: false) })
  } + [
    Comparison(
      "scale/insert 10,000 one at a time at top, Master-Detail list + search query",
      target: .ratioAtMost(1.5), baselineName: "[Row].insert(at: 0), 10,000 times",
      perSample: 1,
      kit: { KitMasterDetailInserts(size: 10_000, fromEmpty: true) },
      baseline: { PlainInserts(size: 10_000, fromEmpty: true) })
  ]
