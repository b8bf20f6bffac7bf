import Glibc

/// A Unix file descriptor this process owns: closed when the last reference goes. Whoever needs it for
/// longer (an element that keeps using it, as `pipewiresrc fd=` does) duplicates it.
public final class OwnedFileDescriptor: Sendable, Hashable {
  /// The descriptor's number, valid while this object lives.
  public let rawValue: Int32

  /// Takes over `rawValue`, which nothing else closes.
  public init(adopting rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Closes it. Wraps `close`.
  deinit {
    close(rawValue)
  }

  /// Two owners are equal when they are the same owner.
  public static func == (lhs: OwnedFileDescriptor, rhs: OwnedFileDescriptor) -> Bool { lhs === rhs }

  /// Hashes the owner's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
