import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new pseudo-terminal: its master's descriptor and its terminal's path.
func openPseudoTerminal() -> (master: Int32, terminal: String)? {
  #if os(Linux)
  // `posix_openpt` and friends are not in the Glibc module: the ioctls they
  // wrap, TIOCSPTLCK and TIOCGPTN, whose numbers the module lacks as well.
  let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
  guard master >= 0 else { return nil }
  var unlock: Int32 = 0
  var number: UInt32 = 0
  guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0
  else {
    close(master)
    return nil
  }
  return (master, "/dev/pts/\(number)")
  #else
  let master = posix_openpt(O_RDWR | O_NOCTTY)
  guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master)
  else { return nil }
  return (master, String(cString: name))
  #endif
}

/// Reads a pseudo-terminal's screen until it shows `text`, for 20 s at
/// most; whether it did.
func readScreen(of master: Int32, until text: String) -> Bool {
  readOutput(of: master, until: text).contains(text)
}

/// Reads a pseudo-terminal until what it read holds `text`, for 20 s at
/// most, or until the terminal's other side is closed; what it read.
///
/// A signal that interrupts the wait or the read (the `SIGCHLD` of a child
/// that stops or continues) is not the end: the read goes on.
func readOutput(of master: Int32, until text: String) -> String {
  var screen: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  let deadline = ContinuousClock.now + .seconds(20)
  while ContinuousClock.now < deadline {
    var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let polled = poll(&ready, 1, 100)
    if polled < 0 && errno == EINTR { continue }
    guard polled >= 0 else { break }
    guard ready.revents != 0 else { continue }
    let count = read(master, &buffer, buffer.count)
    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
    guard count > 0 else { break }
    screen += buffer[..<count]
    if String(decoding: screen, as: UTF8.self).contains(text) { break }
  }
  return String(decoding: screen, as: UTF8.self)
}
