import TextUI

/// Interactive mode: a feature as a full-screen terminal application, with
/// a help line that is always visible at the bottom.
///
/// The shell draws the feature's ``DemoFeature/body(size:)`` in every row
/// but the last, and the feature's ``DemoFeature/keyHelp`` in the last row;
/// ``TextUI/FullScreenSession`` runs it and redraws only the lines that
/// changed.
@MainActor
public final class InteractiveShell<Feature: DemoFeature>: TerminalApplication {
  /// The feature on screen.
  public let feature: Feature

  /// Creates a shell for a feature.
  ///
  /// - Parameter feature: The feature to show.
  public init(feature: Feature) {
    self.feature = feature
  }

  /// The feature's screen above its help line.
  ///
  /// - Parameter size: The terminal's size.
  /// - Returns: The frame: the body, blank rows, then the help line.
  public func frame(size: TerminalSize) -> Frame {
    let bodyHeight = max(size.height - 1, 0)
    var frame = feature.body(size: TerminalSize(width: size.width, height: bodyHeight))
    if frame.lines.count > bodyHeight {
      frame.lines.removeLast(frame.lines.count - bodyHeight)
    }
    frame.lines += Array(repeating: Frame.Line(""), count: bodyHeight - frame.lines.count)
    if size.height > 0 {
      frame.lines.append(Frame.Line(feature.keyHelp, style: .dim))
    }
    return frame
  }

  /// Passes a key to the feature.
  ///
  /// - Parameter key: The key.
  /// - Returns: The feature's response.
  public func handle(_ key: Key) -> KeyResponse {
    feature.handle(key)
  }

  /// Whether the feature's work is still under way.
  public var hasPendingWork: Bool { feature.hasPendingWork }
}
