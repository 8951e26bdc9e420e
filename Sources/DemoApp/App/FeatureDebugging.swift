import POMVVM

extension DemoFeature {
  /// The current screen's live binding graph, a line each: indented text,
  /// or Graphviz DOT.
  ///
  /// - Parameter dot: Whether to write DOT.
  /// - Returns: The lines.
  func graphLines(dot: Bool = false) -> [String] {
    let graph = BindingGraph(reachableFrom: graphRoots)
    return (dot ? graph.dot : graph.text).split(separator: "\n").map(String.init)
  }
}

/// The propagation steps that a feature's commands or keys cause while the
/// trace is on.
///
/// Script mode prints them after `trace on`; the terminal UI's graph pane
/// shows them. One line a step, starting with `trace: `.
@MainActor
final class TraceLog {
  /// Whether this log has the trace on.
  private(set) var isOn = false
  /// The lines of the steps since the last ``beginStep(of:)``.
  private(set) var lines: [String] = []

  func start() {
    isOn = true
    lines.removeAll()
    PropagationTrace.start { [weak self] in self?.lines.append("trace: \($0)") }
  }

  func stop() {
    if isOn {
      isOn = false
      PropagationTrace.stop()
    }
    lines.removeAll()
  }

  /// Starts the lines of a new command or key, after naming the cells the
  /// feature shows now by their property paths (rows made since the last
  /// one included), as the graph names them.
  ///
  /// - Parameter feature: The feature the command or key goes to.
  func beginStep(of feature: some DemoFeature) {
    guard isOn else { return }
    lines.removeAll()
    BindingGraph.labelByPropertyPath(feature.graphRoots)
  }
}
