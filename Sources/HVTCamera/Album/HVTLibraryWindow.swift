import Dispatch
import Foundation
import HVTGStreamer
import HVTSupport

/// A window to pick a photo or movie from a library, as `UIImagePickerController` shows one for its
/// library source types: a grid of the items' pictures (a photo's, or a movie's first frame), newest
/// first, twelve to a page, with a caption naming the selected one.
///
/// Worked by keyboard and mouse: the arrow keys move the selection (Page Up and Page Down, Home and End
/// by pages and to the ends), Return or space picks it, a click picks the item clicked, Escape cancels.
/// A pick or a cancel closes the window, then calls `onPick` or `onCancel`; so does closing the window
/// (a cancel). ``HVTCameraController/present()`` opens one for a library ``HVTCameraController/sourceType``
/// with a window preview, and delivers the pick as a capture.
///
/// With movie editing (a `movieTrimLimit`, which the controller passes with
/// ``HVTCameraController/allowsEditing``), a picked movie first goes to a trim screen, as
/// `UIImagePickerController` trims one: its frame at the playhead over its timeline, whose trim handles
/// span at most the limit, worked with the movie review's keys and clicks (Left and Right move the
/// playhead a second, `,` and `.` a frame, Home and End to the ends, `[` and `]` put the trim's start
/// and end at the playhead; a click on the timeline moves the playhead, a drag moves a handle). Return
/// or space chooses the movie with its trim (``Pick/trim``); Escape goes back to the grid.
///
/// Its pipeline: `appsrc ! imagefreeze allow-replace=true is-live=true ! video/x-raw,framerate=10/1 !
/// videoconvert ! textoverlay ! taginject ! <window sink>` (the sink chosen as for the camera's window:
/// `xvimagesink`, `ximagesink`, `glimagesink`, or `waylandsink` in a window of the engine's own,
/// `WaylandWindow`), into which each new picture of the grid is pushed as one RGBx frame, shown until
/// the next; the keys and clicks come back as navigation events at the sink's input. The pictures are decoded as pages are shown (`filesrc ! decodebin`), one at a time
/// once the window is up (which shows bare tiles until then), never on the window's streaming threads.
public final class HVTLibraryWindow: Sendable {
  /// The library shown.
  public let library: HVTMediaLibrary
  private let title: String
  /// The longest trim of a picked movie, with movie editing; `nil` without.
  private let movieTrimLimit: Double?
  private let onPick: @Sendable (Pick) -> Void
  private let onCancel: @Sendable () -> Void
  private let onSelect: @Sendable (Int, HVTAlbumItem) -> Void
  /// Where keys and clicks are acted on and pages drawn: never a GStreamer thread.
  private let queue = DispatchQueue(label: "hvtcamera.library-window")
  /// Marks ``queue``, so that ``close()`` called from a callback (which runs on it) does not wait on it.
  private static let onQueue = DispatchSpecificKey<Bool>()
  /// The grid's frames: RGBx at ``LibraryGrid/canvas``, square pixels, a still picture.
  private static let frameCaps: String = {
    let size = LibraryGrid.canvas
    return "video/x-raw,format=RGBx,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1,framerate=0/1"
  }()

  /// The running window's elements.
  private struct Shown: Sendable {
    let pipeline: Pipeline
    let source: Element
    let caption: Element
    /// ``frameCaps``, parsed once.
    let caps: Caps
  }

  private struct State: Sendable {
    var items: [HVTAlbumItem] = []
    var grid = LibraryGrid(count: 0)
    /// The trim screen, while a picked movie is on it.
    var trim: LibraryTrim?
    /// The trimmed movie's frame at the playhead, as shown.
    var trimPicture: LibraryCanvas.Picture?
    /// The trim handle the pointer drags.
    var grabbed: CameraControls.Handle?
    /// The number of the newest frame asked for at the playhead: older requests are dropped.
    var frameRequest: UInt64 = 0
    var pictures: [Int: LibraryCanvas.Picture] = [:]
    /// Items whose picture could not be decoded: their tiles stay bare.
    var failed: Set<Int> = []
    /// The freedesktop thumbnail cache of the environment the window was shown in.
    var thumbnails = ThumbnailCache(folder: nil)
    var shown: Shown?
  }

  private let state = Locked(State())

  /// What the user picked in the window.
  public struct Pick: Sendable, Hashable {
    /// The photo or movie picked.
    public let item: HVTAlbumItem
    /// With movie editing, the stretch of the movie the trim screen kept, in seconds from its first
    /// frame, as ``HVTMovieTrim`` cuts it (the first frame at or after its start, the frames before its
    /// end): half a frame before each of the trim's handles, so that the frames kept are the ones the
    /// handles were put at. `nil` for a photo, without movie editing, or when the trim keeps the whole movie.
    public let trim: ClosedRange<Double>?
  }

  /// A window for `library`, titled `title`, without movie editing. `onPick` gets the item picked,
  /// `onCancel` is called when the user cancels or closes the window; `onSelect` each time the
  /// selection moves (with the item's index in ``items``). Each is called on a queue of the window's
  /// own, after it closed (`onSelect` while it is open).
  public convenience init(
    library: HVTMediaLibrary, title: String = "HVTCamera library",
    onPick: @escaping @Sendable (HVTAlbumItem) -> Void, onCancel: @escaping @Sendable () -> Void,
    onSelect: @escaping @Sendable (Int, HVTAlbumItem) -> Void = { _, _ in }
  ) {
    self.init(
      library: library, title: title, movieTrimLimit: nil, onPick: { onPick($0.item) }, onCancel: onCancel,
      onSelect: onSelect)
  }

  /// A window for `library`, titled `title`, whose picked movies go to the trim screen first when
  /// `movieTrimLimit` is given: their trim is at most that many seconds long
  /// (``HVTCameraController/videoMaximumDuration``). `onPick` gets the pick, with the trim; `onCancel`
  /// and `onSelect` are called as ``init(library:title:onPick:onCancel:onSelect:)`` says.
  public init(
    library: HVTMediaLibrary, title: String = "HVTCamera library", movieTrimLimit: Double?,
    onPick: @escaping @Sendable (Pick) -> Void, onCancel: @escaping @Sendable () -> Void,
    onSelect: @escaping @Sendable (Int, HVTAlbumItem) -> Void = { _, _ in }
  ) {
    self.library = library
    self.title = title
    self.movieTrimLimit = movieTrimLimit.map { $0.isFinite && $0 > 0 ? $0 : .greatestFiniteMagnitude }
    self.onPick = onPick
    self.onCancel = onCancel
    self.onSelect = onSelect
    queue.setSpecific(key: Self.onQueue, value: true)
  }

  /// The items shown, newest first (read when the window opened).
  public var items: [HVTAlbumItem] { state.withLock { $0.items } }

  /// The index in ``items`` of the selected item.
  public var selectedIndex: Int { state.withLock { $0.grid.selected } }

  /// Whether a picked movie is on the trim screen.
  public var isTrimming: Bool { state.withLock { $0.trim != nil } }

  /// Whether the window is open.
  public var isShown: Bool { state.withLock { $0.shown != nil } }

  /// Reads the library, opens the window on the display of `environment` and draws the first page, whose
  /// pictures then fill in (from the freedesktop thumbnail cache `environment` names, when it holds them:
  /// `$XDG_CACHE_HOME/thumbnails/large`). Blocks while the library is read (`GstDiscoverer`) and the display answers:
  /// call it off the main thread. Throws ``HVTCameraError/libraryEmpty(_:)`` when
  /// there is nothing to show, ``HVTCameraError/noDisplay(reason:)`` without a display, and GStreamer's
  /// errors. Does nothing when the window is open.
  public func show(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
    guard !isShown else { return }
    let items = library.items
    guard !items.isEmpty else { throw HVTCameraError.libraryEmpty(library.source) }
    let sink = try WindowSink.choose(environment: environment)
    let caps = try Caps(Self.frameCaps)
    let pipeline = Pipeline(named: "hvtcamera-library")
    let chain: ElementChain
    do {
      chain = try ElementChain(
        [
          HVTElementDescription(
            "appsrc", name: "grid",
            [
              "format": "time", "block": "false", "caps": Self.frameCaps,
            ]),
          // The grid shown again ten times a second, so that the window is drawn again after it is
          // mapped, uncovered or resized (a still frame shown once would leave it black).
          HVTElementDescription("imagefreeze", name: "still", ["allow-replace": "true", "is-live": "true"]),
          .capsFilter("video/x-raw,framerate=10/1", name: "redraw-rate"),
          HVTElementDescription("videoconvert", name: "convert"),
          HVTElementDescription(
            "textoverlay", name: "caption",
            [
              "valignment": "bottom", "halignment": "left", "font-desc": "Sans 10", "shaded-background": "false",
              "ypad": "8", "xpad": "12",
            ]),
          HVTElementDescription(
            "taginject", name: "title", ["tags": "title=\(LaunchQuoting.structureString(title))"]),
          HVTElementDescription(sink, name: "window"),
        ], in: pipeline)
    } catch {
      throw HVTCameraError(error)
    }
    chain.last.staticPad("sink")?.addProbe(.eventUpstream) { [weak self] _, info in
      guard let event = info.navigationEvent, let self else { return .ok }
      queue.async { self.handle(event) }
      return .ok
    }
    pipeline.bus.setSyncHandler { [weak self] message in
      // The window closed by its title bar's button, or the display gone: a cancel.
      if case .error(let report) = message {
        debugLog.log(.info, "library window: \(report.message); closing it")
        guard let self else { return }
        queue.async { self.finish(picking: nil) }
      }
    }
    state.withLock { state in
      state.items = items
      state.grid = LibraryGrid(count: items.count)
      state.pictures = [:]
      state.failed = []
      state.trim = nil
      state.trimPicture = nil
      state.grabbed = nil
      state.thumbnails = ThumbnailCache(environment: environment)
    }
    // On Wayland, a window of the engine's own, titled and taking the keys and clicks (the sink keeps it).
    if chain.last.factoryName == "waylandsink" {
      try WaylandWindow.open(title: title, size: LibraryGrid.canvas, sink: chain.last)
    }
    let shown = Shown(pipeline: pipeline, source: chain.first, caption: chain.elements[4], caps: caps)
    guard pipeline.setState(.playing) != .failure else {
      Teardown.stop(pipeline, what: "the library window")
      pipeline.bus.removeSyncHandler()
      throw HVTCameraError.pipelineSetupFailed(.stateChangeFailed(element: pipeline.name, target: .playing))
    }
    state.withLock { $0.shown = shown }
    do {
      try queue.sync { try draw() }
    } catch {
      close()
      throw error
    }
    queue.async { self.loadPictures() }
  }

  /// Closes the window without calling `onPick` or `onCancel`, and returns once it has closed (also when
  /// called from one of the window's callbacks). Does nothing when it is not open.
  public func close() {
    if DispatchQueue.getSpecific(key: Self.onQueue) == true {
      _ = takeDown()
    } else {
      queue.sync { _ = takeDown() }
    }
  }

  /// Acts on a key or click (on the queue).
  private func handle(_ event: NavigationEvent) {
    if let trim = state.withLock({ $0.trim }) { return handle(event, trimming: trim) }
    let grid = state.withLock { $0.grid }
    let action: LibraryGrid.Action?
    switch event {
    case .keyPress(let key): action = grid.action(key: key)
    case .mouseButtonPress(1, let x, let y): action = grid.action(clickAtX: x, y: y)
    default: action = nil
    }
    switch action {
    case .select(let index):
      state.withLock { $0.grid.selected = index }
      do { try draw() } catch { debugLog.log(.warning, "library window: \(error)") }
      if let item = state.withLock({ $0.items.indices.contains(index) ? $0.items[index] : nil }) {
        onSelect(index, item)
      }
      // A new page's pictures, after the selection is announced.
      loadPictures()
    case .pick(let index):
      pick(index)
    case .cancel:
      finish(picking: nil)
    case nil:
      break
    }
  }

  /// Picks item `index`: a movie with movie editing goes to the trim screen, anything else is delivered.
  private func pick(_ index: Int) {
    let item = state.withLock { $0.items.indices.contains(index) ? $0.items[index] : nil }
    guard let item, item.mediaType == .movie, let limit = movieTrimLimit else { return finish(picking: index) }
    do {
      // The first frame, shown at once.
      let (picture, frameInterval) = try Self.trimPicture(of: item.url)
      state.withLock { state in
        state.trim = LibraryTrim(
          index: index, duration: item.duration ?? frameInterval, frameInterval: frameInterval, limit: limit)
        state.trimPicture = picture
      }
      try draw()
    } catch {
      // A movie that cannot be shown is picked as it is: the controller cuts it to the limit if it can.
      debugLog.log(.warning, "library window: no trim screen for \(item.url.path): \(error)")
      state.withLock { $0.trim = nil }
      finish(picking: index)
    }
  }

  /// Acts on a key or click on the trim screen (on the queue).
  private func handle(_ event: NavigationEvent, trimming trim: LibraryTrim) {
    let action: LibraryTrim.Action?
    switch event {
    case .keyPress(let key):
      action = trim.action(key: key)
    case .mouseButtonPress(1, let x, let y):
      action = trim.action(pressAtX: x, y: y)
      if case .grab(let handle) = action { drag(handle, toX: x) }
    case .mouseMove(let x, _):
      return dragGrabbed(toX: x)
    case .mouseButtonRelease(1, let x, _):
      // Sinks may report the pointer's motion before the press: the release's place counts too.
      dragGrabbed(toX: x)
      state.withLock { $0.grabbed = nil }
      return
    default:
      action = nil
    }
    switch action {
    case .timeline(let change):
      changeTimeline { $0.timeline.apply(change) }
    case .grab:
      break
    case .choose:
      finish(picking: trim.index, trim: trim.timeline.cut)
    case .back:
      state.withLock { state in
        state.trim = nil
        state.trimPicture = nil
        state.grabbed = nil
      }
      do { try draw() } catch { debugLog.log(.warning, "library window: \(error)") }
    case nil:
      break
    }
  }

  /// Grabs `handle` and drags it to the canvas's place `x`.
  private func drag(_ handle: CameraControls.Handle, toX x: Double) {
    state.withLock { $0.grabbed = handle }
    changeTimeline { $0.drag(handle, toX: x) }
  }

  /// Drags the grabbed handle, if one is, to the canvas's place `x`.
  private func dragGrabbed(toX x: Double) {
    guard let handle = state.withLock({ $0.grabbed }) else { return }
    changeTimeline { $0.drag(handle, toX: x) }
  }

  /// Changes the trim screen and draws it; a move of the playhead asks for its frame, decoded after the
  /// keys and clicks already queued (which drop it when they move the playhead again).
  private func changeTimeline(_ change: (inout LibraryTrim) -> Void) {
    let (before, after, request) = state.withLock { state -> (LibraryTrim?, LibraryTrim?, UInt64) in
      let before = state.trim
      if var trim = state.trim {
        change(&trim)
        state.trim = trim
        if trim.timeline.playhead != before?.timeline.playhead { state.frameRequest &+= 1 }
      }
      return (before, state.trim, state.frameRequest)
    }
    guard let after, after != before else { return }
    do { try draw() } catch { debugLog.log(.warning, "library window: \(error)") }
    if after.timeline.playhead != before?.timeline.playhead { queue.async { self.showFrame(request: request) } }
  }

  /// Decodes and shows the trimmed movie's frame at the playhead — the one shown half a frame after it,
  /// the frame nearest to it, as the movie review shows — unless a newer request overtook this one.
  private func showFrame(request: UInt64) {
    let asked = state.withLock { state -> (URL, Double)? in
      guard state.frameRequest == request, state.shown != nil, let trim = state.trim else { return nil }
      return (state.items[trim.index].url, trim.timeline.playhead + trim.timeline.frameInterval / 2)
    }
    guard let (url, time) = asked else { return }
    do {
      let (picture, _) = try Self.trimPicture(of: url, at: time)
      guard state.withLock({ $0.frameRequest == request }) else { return }
      state.withLock { $0.trimPicture = picture }
      try draw()
    } catch {
      debugLog.log(.warning, "library window: no frame of \(url.path) at \(time) s: \(error)")
    }
  }

  /// The frame of the movie at `url` shown `seconds` after its first (``FileThumbnail/decodedFrame(of:at:)``),
  /// scaled to the trim screen's picture, and the time between its frames, which its caps' frame rate
  /// says (1/30 s when they say none).
  private static func trimPicture(of url: URL, at seconds: Double = 0) throws -> (
    picture: LibraryCanvas.Picture, frameInterval: Double
  ) {
    let (frame, caps) = try FileThumbnail.decodedFrame(of: url, at: seconds)
    let rate = caps.structure(at: 0).fraction("framerate").map { HVTFrameRate($0.numerator, $0.denominator) }
    let perSecond = rate?.framesPerSecond ?? 0
    return (
      try FileThumbnail.scaled(frame, caps: caps, fitting: LibraryTrim.pictureBox),
      perSecond > 0 && perSecond.isFinite ? 1 / perSecond : 1.0 / 30
    )
  }

  /// Closes the window, then calls `onPick` with item `index` (and its `trim`), or `onCancel` (on the
  /// queue). Does nothing when it has closed already.
  private func finish(picking index: Int?, trim: ClosedRange<Double>? = nil) {
    guard let items = takeDown() else { return }
    if let index, items.indices.contains(index) {
      onPick(Pick(item: items[index], trim: trim))
    } else {
      onCancel()
    }
  }

  /// Stops the pipeline (on the queue); returns the items, or `nil` when it was not running.
  private func takeDown() -> [HVTAlbumItem]? {
    guard let (shown, items) = state.withLock({ state in state.shown.map { ($0, state.items) } }) else { return nil }
    state.withLock { $0.shown = nil }
    Teardown.stop(shown.pipeline, what: "the library window")
    shown.pipeline.bus.removeSyncHandler()
    return items
  }

  /// Pushes the grid as it is now, with the pictures decoded so far, or the trim screen, and its
  /// caption (on the queue).
  private func draw() throws {
    let (grid, items, pictures, shown, trim, trimPicture) = state.withLock {
      ($0.grid, $0.items, $0.pictures, $0.shown, $0.trim, $0.trimPicture)
    }
    guard let shown else { return }
    let canvas: Data
    if let trim {
      try shown.caption.set("text", Self.caption(trimming: items[trim.index], trim))
      canvas = LibraryCanvas.render(trim, picture: trimPicture)
    } else {
      try shown.caption.set("text", Self.caption(for: items[grid.selected], index: grid.selected, of: grid))
      canvas = LibraryCanvas.render(grid, pictures: pictures)
    }
    try shown.source.pushSample(Sample(buffer: Buffer(copying: canvas), caps: shown.caps))
  }

  /// Decodes the pictures of the page shown that are not decoded yet, one at a time, drawing the grid
  /// again after each (on the queue): the window shows at once, and its pictures fill in. Each is read
  /// from the freedesktop thumbnail cache when it holds a current one (`ThumbnailCache`, `large`), and
  /// written there when the file had to be decoded.
  private func loadPictures() {
    while let (index, url, thumbnails) = state.withLock({ state -> (Int, URL, ThumbnailCache)? in
      guard state.shown != nil else { return nil }
      return state.grid.visible.first { state.pictures[$0] == nil && !state.failed.contains($0) }
        .map { ($0, state.items[$0].url, state.thumbnails) }
    }) {
      do {
        let picture = try FileThumbnail.picture(of: url, fitting: LibraryGrid.pictureBox, cache: thumbnails)
        state.withLock { $0.pictures[index] = picture }
        try draw()
      } catch {
        debugLog.log(.warning, "library window: no picture of \(url.path): \(error)")
        state.withLock { _ = $0.failed.insert(index) }
      }
    }
  }

  /// The trim screen's caption: `MOV_….mp4 · 0:01.20–0:03.40 (2.20 s of 5.00 s) · playhead 0:01.20 ·
  /// [ ] trim · Return chooses · Escape back`.
  static func caption(trimming item: HVTAlbumItem, _ trim: LibraryTrim) -> String {
    "\(item.url.lastPathComponent) · \(trim.summary) · [ ] trim · Return chooses · Escape back"
  }

  /// The caption of the selected item: `3 of 14 · IMG_….jpg · photo 640x480 · page 1 of 2`.
  static func caption(for item: HVTAlbumItem, index: Int, of grid: LibraryGrid) -> String {
    let kind =
      switch item.mediaType {
      case .movie: "movie" + (item.duration.map { String(format: " %.1f s", $0) } ?? "")
      default: "photo"
      }
    let size = item.width.flatMap { width in item.height.map { " \(width)x\($0)" } } ?? ""
    return "\(index + 1) of \(grid.count) · \(item.url.lastPathComponent) · \(kind)\(size) · page \(grid.page + 1) "
      + "of \(grid.pages) · Return picks, Escape cancels"
  }
}
