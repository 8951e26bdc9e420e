import Testing
import TextUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal: the test plays the user at `controller`, the terminal
/// under test runs on `device`.
private struct PseudoTerminal: ~Copyable {
  let controller: Int32
  let device: Int32

  init() throws {
    // Glibc's module does not export the pseudo-terminal functions (they
    // need _XOPEN_SOURCE): look them up in the C library.
    let library = try #require(dlopen(nil, RTLD_NOW))
    defer { dlclose(library) }
    func function<Function>(_ name: String, as type: Function.Type) throws -> Function {
      unsafeBitCast(try #require(dlsym(library, name), "\(name)"), to: type)
    }
    typealias Call = @convention(c) (Int32) -> Int32
    let openController = try function("posix_openpt", as: Call.self)
    let grant = try function("grantpt", as: Call.self)
    let unlock = try function("unlockpt", as: Call.self)
    let name = try function(
      "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    let controller = openController(O_RDWR | O_NOCTTY)
    try #require(controller >= 0)
    try #require(grant(controller) == 0 && unlock(controller) == 0)
    let path = try #require(name(controller))
    let device = open(path, O_RDWR | O_NOCTTY)
    try #require(device >= 0)
    self.controller = controller
    self.device = device
  }

  deinit {
    close(device)
    close(controller)
  }

  /// Everything the terminal wrote so far.
  func output() -> String {
    var bytes: [UInt8] = []
    var request = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while poll(&request, 1, 50) > 0 {
      let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self).replacing("\u{1B}", with: "⎋")
  }

  /// Types bytes, as the user would.
  func type(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(controller, $0.baseAddress, $0.count) }
  }

  func attributes() -> termios {
    var attributes = termios()
    _ = tcgetattr(device, &attributes)
    return attributes
  }
}

/// The parts of the settings that raw mode changes, to compare whole.
private func settings(_ attributes: termios) -> [UInt64] {
  var attributes = attributes
  let controlCharacters = withUnsafeBytes(of: &attributes.c_cc) { $0.map(UInt64.init) }
  return [
    UInt64(attributes.c_iflag), UInt64(attributes.c_oflag), UInt64(attributes.c_cflag),
    UInt64(attributes.c_lflag),
  ] + controlCharacters
}

private func handler(of signal: Int32) -> Int {
  var action = sigaction()
  _ = sigaction(signal, nil, &action)
  #if canImport(Darwin)
  return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
  #else
  return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
  #endif
}

// Signal handlers belong to the whole process: these tests run one at a time.
@MainActor
@Suite("POSIX terminal", .serialized)
struct POSIXTerminalTests {
  @Test func knowsATerminalFromAPipe() throws {
    let pty = try PseudoTerminal()
    var pipeDescriptors: [Int32] = [0, 0]
    try #require(pipe(&pipeDescriptors) == 0)
    defer {
      for descriptor in pipeDescriptors { close(descriptor) }
    }
    #expect(POSIXTerminal.isTerminal(pty.device))
    #expect(!POSIXTerminal.isTerminal(pipeDescriptors[0]))
  }

  @Test func fullScreenModeIsRawAndLeavingItRestoresEverySetting() throws {
    let pty = try PseudoTerminal()
    let before = pty.attributes()
    let handlerBefore = handler(of: SIGTERM)
    let terminal = POSIXTerminal(input: pty.device, output: pty.device)

    try terminal.enterFullScreen()
    let raw = pty.attributes()
    #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
    #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
    #expect(raw.c_oflag & tcflag_t(OPOST) == 0)
    #expect(handler(of: SIGTERM) != handlerBefore, "a handler restores the terminal on SIGTERM")
    #expect(pty.output() == "⎋[?1049h⎋[?25l⎋[H⎋[2J")

    terminal.leaveFullScreen()
    #expect(settings(pty.attributes()) == settings(before))
    #expect(handler(of: SIGTERM) == handlerBefore)
    #expect(pty.output() == "⎋[0m⎋[?25h⎋[?1049l")

    terminal.leaveFullScreen()
    #expect(pty.output().isEmpty, "leaving twice writes nothing")
  }

  @Test func readsWhatIsTypedAndTimesOut() throws {
    let pty = try PseudoTerminal()
    let terminal = POSIXTerminal(input: pty.device, output: pty.device)
    try terminal.enterFullScreen()
    defer { terminal.leaveFullScreen() }
    #expect(try terminal.read(timeout: .milliseconds(10)) == .timedOut)
    pty.type("j\u{1B}[A")
    #expect(try terminal.read(timeout: .seconds(5)) == .bytes(Array("j\u{1B}[A".utf8)))
  }

  @Test func aResizeInterruptsTheWait() throws {
    let pty = try PseudoTerminal()
    let terminal = POSIXTerminal(input: pty.device, output: pty.device)
    try terminal.enterFullScreen()
    defer { terminal.leaveFullScreen() }
    var window = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(pty.controller, UInt(TIOCSWINSZ), &window) == 0)
    // The kernel sends SIGWINCH to the terminal's foreground process group,
    // which is not this process: send it the signal as the kernel would.
    _ = kill(getpid(), SIGWINCH)
    #expect(try terminal.read(timeout: .seconds(5)) == .resized)
    #expect(terminal.size() == TerminalSize(width: 100, height: 30))
  }

  @Test func writesAllOfALongText() throws {
    let pty = try PseudoTerminal()
    let terminal = POSIXTerminal(input: pty.device, output: pty.device)
    let text = String(repeating: "漢字 text ", count: 200)
    try terminal.write(text)
    #expect(pty.output() == text)
  }
}
