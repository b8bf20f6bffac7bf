import CGStreamer
import HVTGLib

extension Element {
  /// Takes the element, and every element inside it, to NULL, and returns those that did not get there.
  ///
  /// `gst_element_set_state(NULL)` on a bin stops at the first child that fails its state change and
  /// leaves the children after it as they were: a `queue` among them keeps its streaming thread, which
  /// outlives the queue once the last reference is dropped. So each element inside (a bin's, at any depth:
  /// `gst_bin_iterate_recurse`) that is not in NULL afterwards is set to NULL by itself. Returns the
  /// elements still not in NULL, as `path (STATE)`; empty when every one stopped. An element in that list
  /// must not be released (GStreamer requires NULL first).
  public func stopCompletely() -> [String] {
    setState(.null)
    guard hvt_gst_is_bin(pointer) != 0 else {
      return currentState == .null ? [] : ["\(path) (\(currentState))"]
    }
    let inside = Bin.elements(inside: hvt_gst_bin_cast(pointer))
    for element in inside where element.currentState != .null { element.setState(.null) }
    return ([self] + inside).filter { $0.currentState != .null }.map { "\($0.path) (\($0.currentState))" }
  }
}

extension Bin {
  /// Every element inside `bin`, at any depth, each with a reference of its own. Wraps
  /// `gst_bin_iterate_recurse`; a resync (the bin changed meanwhile) starts the walk again.
  static func elements(inside bin: UnsafeMutablePointer<GstBin>) -> [Element] {
    guard let iterator = gst_bin_iterate_recurse(bin) else { return [] }
    defer { gst_iterator_free(iterator) }
    var found: [Element] = []
    var item = GValue()
    defer { g_value_unset(&item) }
    while true {
      switch gst_iterator_next(iterator, &item) {
      case GST_ITERATOR_OK:
        if let object = g_value_get_object(&item) {
          found.append(Element(retaining: hvt_gst_element_cast(object)))
        }
        g_value_reset(&item)
      case GST_ITERATOR_RESYNC:
        found.removeAll()
        gst_iterator_resync(iterator)
      default:
        return found
      }
    }
  }
}
