import Foundation
import HVTSupport

@testable import HVTCamera

/// What reached the app in a ``MachineDriver``'s run: the events and errors, and, for every capture and
/// wait asked for (by number), how many times it was answered — which must be once.
final class Ledger: Sendable {
  private struct Books {
    var expected: [UInt64] = []
    var answers: [UInt64: Int] = [:]
    var events: [HVTCameraEvent] = []
    var errors: [HVTCameraError] = []
    var captures: [UInt64: Result<HVTCapture, HVTCameraError>] = [:]
    /// The files of the `startVideoCapture()` movies asked for, the delegate's results, and the files
    /// removed (a movie retaken, or its review closed by a stop).
    var delegateRecordings: [URL] = []
    var delegateResults: [Result<HVTCapture, HVTCameraError>] = []
    var removed: [URL] = []
    var trims: [ClosedRange<Double>] = []
  }

  private let books = Locked(Books())

  func expect(photo id: UInt64) { expect(id) }
  func expect(recording id: UInt64) { expect(id) }
  func expect(waiter id: UInt64) { expect(id) }

  private func expect(_ id: UInt64) {
    books.withLock { $0.expected.append(id) }
  }

  /// A `startVideoCapture()` movie asked for, to be written at `file`.
  func expect(delegateRecording file: URL) {
    books.withLock { $0.delegateRecordings.append(file) }
  }

  /// The delegate received a capture, or why there is none.
  func record(delegate result: Result<HVTCapture, HVTCameraError>) {
    books.withLock { $0.delegateResults.append(result) }
  }

  /// A file was removed.
  func record(removed url: URL) {
    books.withLock { $0.removed.append(url) }
  }

  /// A reviewed movie was cut to `span`.
  func record(trim span: ClosedRange<Double>) {
    books.withLock { $0.trims.append(span) }
  }

  /// The `startVideoCapture()` movies' files, the delegate's results, the files removed, and the spans
  /// reviewed movies were cut to, in order.
  var delegateRecordings: [URL] { books.withLock { $0.delegateRecordings } }
  var delegateResults: [Result<HVTCapture, HVTCameraError>] { books.withLock { $0.delegateResults } }
  var removed: [URL] { books.withLock { $0.removed } }
  var trims: [ClosedRange<Double>] { books.withLock { $0.trims } }

  /// Whether every `startVideoCapture()` movie was answered once: delivered (or its failure), or its
  /// file removed on the review screen.
  var delegateRecordingsAnswered: Bool {
    books.withLock { $0.delegateRecordings.count == $0.delegateResults.count + $0.removed.count }
  }

  /// Where capture `id` is delivered: its answer is recorded.
  func destination(for id: UInt64) -> ControllerMachine.Destination {
    .caller { [self] result in
      books.withLock { books in
        books.answers[id, default: 0] += 1
        books.captures[id] = result
      }
    }
  }

  /// Request `id` was answered at once (refused, or ignored as announced).
  func settle(_ id: UInt64) {
    books.withLock { $0.answers[id, default: 0] += 1 }
  }

  /// Waiter `id` was answered.
  func answer(waiter id: UInt64) {
    books.withLock { $0.answers[id, default: 0] += 1 }
  }

  func record(event: HVTCameraEvent) {
    books.withLock { $0.events.append(event) }
  }

  func record(error: HVTCameraError) {
    books.withLock { $0.errors.append(error) }
  }

  /// The requests answered other than once, with how many times.
  var misanswered: [(id: UInt64, answers: Int)] {
    books.withLock { books in
      books.expected.compactMap { id in
        let count = books.answers[id] ?? 0
        return count == 1 ? nil : (id, count)
      }
    }
  }

  /// The events, in order.
  var events: [HVTCameraEvent] { books.withLock { $0.events } }

  /// The errors reported to the delegate, in order.
  var errors: [HVTCameraError] { books.withLock { $0.errors } }

  /// What capture `id` was answered with.
  func capture(_ id: UInt64) -> Result<HVTCapture, HVTCameraError>? { books.withLock { $0.captures[id] } }
}
