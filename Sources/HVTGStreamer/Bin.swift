import CGStreamer
import HVTGLib

/// An owned `GstBin`: a container element whose children share its state.
///
/// `@unchecked Sendable`: as ``Element``: a counted reference to a `GstBin`, which locks itself.
public class Bin: Element, @unchecked Sendable {
  /// Makes an empty bin. Wraps `gst_bin_new`.
  public convenience init(name: String) {
    GStreamer.initialize()
    self.init(sinking: gst_bin_new(name))
  }

  var bin: UnsafeMutablePointer<GstBin> { hvt_gst_bin_cast(pointer) }

  /// Adds a child; the bin takes its own reference. Wraps `gst_bin_add`.
  public func add(_ element: Element) throws {
    guard gst_bin_add(bin, element.pointer) != 0 else {
      throw GStreamerError.linkFailed(from: element.name, to: name)
    }
  }

  /// Removes a child (set it to NULL first). Wraps `gst_bin_remove`.
  public func remove(_ element: Element) {
    gst_bin_remove(bin, element.pointer)
  }

  /// Finds a child by name, searching nested bins. Wraps `gst_bin_get_by_name` (a full reference).
  public func element(named name: String) -> Element? {
    gst_bin_get_by_name(bin, name).map(Element.init(adopting:))
  }

  /// Adds a ghost pad that exposes a child's pad on the bin. Wraps `gst_ghost_pad_new` and `gst_element_add_pad`.
  public func addGhostPad(_ name: String, target: Pad) throws {
    guard let ghost = gst_ghost_pad_new(name, target.pointer) else {
      throw GStreamerError.linkFailed(from: target.name, to: "\(self.name):\(name)")
    }
    gst_object_ref_sink(ghost)
    defer { gst_object_unref(ghost) }
    guard gst_element_add_pad(pointer, ghost) != 0 else {
      throw GStreamerError.linkFailed(from: target.name, to: "\(self.name):\(name)")
    }
  }

  /// Brings every child to the bin's state (children added to a running bin start in NULL). Returns
  /// whether every one got there. Wraps `gst_bin_sync_children_states`.
  public func syncChildrenStates() -> Bool {
    gst_bin_sync_children_states(bin) != 0
  }

  /// Removes a pad of the bin's own (a ghost pad) it no longer exposes. Wraps `gst_element_remove_pad`.
  public func removePad(_ pad: Pad) {
    gst_element_remove_pad(pointer, pad.pointer)
  }

  /// GStreamer's own DOT description of the bin and its children, with caps and properties.
  /// Wraps `gst_debug_bin_to_dot_data` with `GST_DEBUG_GRAPH_SHOW_ALL`.
  public func dotGraph() -> String {
    String(ownedCString: gst_debug_bin_to_dot_data(bin, GST_DEBUG_GRAPH_SHOW_ALL))
  }
}

/// An owned `GstPipeline`: a top-level bin with a clock and a bus.
///
/// `@unchecked Sendable`: as ``Element``: a counted reference to a `GstPipeline`, which locks itself.
public final class Pipeline: Bin, @unchecked Sendable {
  /// Makes an empty pipeline. Wraps `gst_pipeline_new`.
  public convenience init(named name: String) {
    GStreamer.initialize()
    self.init(sinking: gst_pipeline_new(name))
  }

  /// Builds the pipeline a `gst-launch-1.0` description gives (without the command and its options), in
  /// NULL. Throws GStreamer's own message for a description it cannot build (an unknown element, a bad
  /// property, a link that fails). Wraps `gst_parse_launch_full` with `GST_PARSE_FLAG_FATAL_ERRORS`.
  public convenience init(launch description: String) throws {
    GStreamer.initialize()
    var error: UnsafeMutablePointer<GError>?
    let element = gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
    if error != nil {
      let report = GStreamerError.report(from: error, debug: nil, source: description)
      g_clear_error(&error)
      if let element { gst_object_unref(element) }
      throw GStreamerError.reported(report)
    }
    guard let element, hvt_gst_is_bin(element) != 0 else {
      if let element { gst_object_unref(element) }
      throw GStreamerError.reported(
        MessageReport(domain: "", code: 0, message: "not a pipeline", debug: nil, source: description))
    }
    self.init(sinking: element)
  }

  /// The pipeline's bus, where its elements post messages. Wraps `gst_element_get_bus`.
  public var bus: Bus { Bus(adopting: gst_element_get_bus(pointer)) }
}
