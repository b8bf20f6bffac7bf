import Testing

@testable import HVTGStreamer

@Suite("BusMessage and errors")
struct BusMessageTests {
  @Test func everyMessageNamesItsSource() {
    let report = MessageReport(domain: "d", code: 1, message: "m", debug: nil, source: "/GstPipeline:p")
    let messages: [BusMessage] = [
      .error(report), .warning(report), .info(report), .endOfStream(source: "/GstPipeline:p"),
      .stateChanged(source: "/GstPipeline:p", old: .null, new: .ready, pending: .voidPending),
      .element(source: "/GstPipeline:p", name: "n", structure: "n;"),
      .other(type: "latency", source: "/GstPipeline:p", details: ""),
    ]
    #expect(messages.allSatisfy { $0.source == "/GstPipeline:p" })
  }

  @Test func reportsDescribeThemselves() {
    let withDebug = MessageReport(
      domain: "gst-resource-error-quark", code: 6, message: "Could not open file", debug: "gstfilesink.c(458)",
      source: "/GstPipeline:p/GstFileSink:sink")
    #expect(withDebug.description == "Could not open file (/GstPipeline:p/GstFileSink:sink)\ngstfilesink.c(458)")
    let withoutDebug = MessageReport(domain: "d", code: 1, message: "m", debug: "", source: "/s")
    #expect(withoutDebug.description == "m (/s)")
    #expect(GStreamerError.reported(withDebug).description == withDebug.description)
  }

  @Test func errorsDescribeThemselves() {
    #expect(
      GStreamerError.missingElement(factory: "x264enk", suggestion: "x264enc").description
        == "no element 'x264enk'; did you mean 'x264enc'? (is its GStreamer plugin installed? see gst-inspect-1.0)")
    #expect(
      GStreamerError.missingElement(factory: "zz", suggestion: nil).description
        == "no element 'zz' (is its GStreamer plugin installed? see gst-inspect-1.0)")
    #expect(
      GStreamerError.readOnlyProperty(element: "q", property: "current-level-buffers").description
        == "property 'current-level-buffers' of element 'q' is read-only")
    #expect(GStreamerError.invalidCaps("video/x-raw,").description == "invalid caps 'video/x-raw,'")
    #expect(
      GStreamerError.stateChangeFailed(element: "p", target: .playing).description
        == "'p' failed to change state to PLAYING")
    #expect(GStreamerError.timedOut("photo").description == "timed out: photo")
  }

  @Test func statesHaveGStreamerNames() {
    #expect(ElementState.allNames == ["VOID_PENDING", "NULL", "READY", "PAUSED", "PLAYING"])
  }
}

extension ElementState {
  static var allNames: [String] {
    [ElementState.voidPending, .null, .ready, .paused, .playing].map(\.description)
  }
}
