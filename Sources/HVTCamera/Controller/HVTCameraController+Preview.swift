import HVTGStreamer

extension HVTCameraController {
  /// Where the live preview goes. The default, ``HVTPreviewOutput/automatic``, presents the camera
  /// interface — a window with the default controls — when the process has a display, and runs headless
  /// without one; tools, services and tests that want no window whatever the display set `.none`. Changing it on a presented camera
  /// swaps the preview branch behind the tee — the source, photos and recordings go on — and announces
  /// ``HVTCameraEvent/previewChanged(_:)``; an output that cannot be shown (no display, say) is reported
  /// to the delegate and the previous preview stays.
  public var previewOutput: HVTPreviewOutput {
    get { read(\.settings.previewOutput) }
    set { changePreview(\.previewOutput, to: newValue, rebuilding: true) }
  }

  /// Whether the front camera's preview is mirrored, as camera apps show it (default true). Photos and
  /// movies are never mirrored. Done by `videoflip video-direction=horiz` in the preview branch of a
  /// window, embedded or frames output, changed on the running branch.
  public var mirrorsFrontPreview: Bool {
    get { read(\.settings.mirrorsFrontPreview) }
    set { changePreview(\.mirrorsFrontPreview, to: newValue, rebuilding: false) }
  }

  /// The transform applied to the preview of a window, embedded or frames output (default identity),
  /// as the reference's `cameraViewTransform`: a scale of at least 1 zooms into the frame, a translation
  /// (in pixels of the preview) pans within it, rotations by multiples of 90° and flips turn it. The
  /// preview only: photos and movies show the whole frame, and overlays and controls are not moved. Set
  /// with ``setCameraViewTransform(_:)``.
  public var cameraViewTransform: HVTAffineTransform { read(\.settings.cameraViewTransform) }

  /// Sets ``cameraViewTransform``; on a presented camera the running preview changes at its next frame
  /// (`videocrop` and `videoscale` for zoom and pan, `videoflip` for turns). Throws
  /// ``HVTCameraError/unsupportedViewTransform(_:reason:)`` for a scale below 1, a shear or another
  /// angle, and keeps the previous transform.
  public func setCameraViewTransform(_ transform: HVTAffineTransform) throws {
    _ = try PreviewGeometry(transform: transform, mirrored: false, width: 2, height: 2)
    changePreview(\.cameraViewTransform, to: transform, rebuilding: false)
  }

  /// What is drawn on top of the preview (default none), in order: images with alpha and texts, as the
  /// reference's `cameraOverlayView`. Not moved by the view transform. Set with ``setCameraOverlays(_:)``.
  public var cameraOverlays: [HVTCameraOverlay] { read(\.settings.cameraOverlays) }

  /// Sets ``cameraOverlays``. On a presented camera the running overlays take the new pictures, texts and
  /// places between two frames when only those changed (an app animating its own RGBA overlay sets new
  /// pixels each time it draws); otherwise the preview branch is replaced, and the camera restarts when
  /// they are burned into captures. Throws ``HVTCameraError/invalidOverlay(reason:)`` for an unreadable
  /// image, pixels that do not match their size, or a value out of range, and keeps the previous
  /// overlays.
  public func setCameraOverlays(_ overlays: [HVTCameraOverlay]) throws {
    try overlays.forEach { try $0.validate() }
    let drawn = try overlayImages.resolve(overlays)
    send(
      .change(
        .init { settings in
          settings.cameraOverlays = overlays
          guard settings.drawnOverlays != drawn else { return ControllerMachine.SettingsChange.Consequence.none }
          settings.drawnOverlays = drawn
          return settings.overlayBurnsIntoCaptures.isEmpty ? .preview(rebuilding: false) : .restart
        }))
  }

  /// Which captures the overlays are also drawn into (default none: the preview only): `.photos`
  /// before the photo encoder, `.movies` before the movie encoder — a watermark. Changing it restarts a
  /// presented camera (a recording in progress is finalized and delivered first).
  public var overlayBurnsIntoCaptures: HVTOverlayTargets {
    get { read(\.settings.overlayBurnsIntoCaptures) }
    set { change(\.overlayBurnsIntoCaptures, to: newValue, then: .restart) }
  }

  /// Confines an embedded preview to a rectangle of the app's window, after the widget it shows in moved
  /// or was resized; `nil` fills the window (the default). Kept across restarts. Wraps
  /// `gst_video_overlay_set_render_rectangle`.
  public func setPreviewRectangle(_ rectangle: HVTRect?) {
    change(\.previewRectangle, to: rectangle)
    worker.async { [weak self] in self?.currentSession?.preview.sink.setRenderRectangle(rectangle) }
  }

  /// Redraws an embedded preview's last frame, after the app's window was exposed (uncovered or
  /// resized). Wraps `gst_video_overlay_expose`.
  public func exposePreview() {
    worker.async { [weak self] in self?.currentSession?.preview.sink.expose() }
  }

  /// Changes a preview setting; on a presented camera the running preview changes: `rebuilding` replaces
  /// its branch, otherwise only the properties of its adjustable elements change.
  func changePreview<Value: Equatable & Sendable>(
    _ setting: WritableKeyPath<Settings, Value> & Sendable, to value: Value, rebuilding: Bool
  ) {
    change(setting, to: value, then: .preview(rebuilding: rebuilding))
  }

  /// Changes session `id`'s running preview on the worker (where sessions start and stop, so it follows
  /// a start in progress), announcing ``HVTCameraEvent/previewChanged(_:)`` when the update says so.
  func updatePreview(of id: UInt64, _ update: ControllerMachine.PreviewUpdate) {
    guard let session = session(id) else { return }
    worker.async {
      do {
        // The same output keeps its sink: choosing one opens the display.
        let model = try session.model.showingPreview(
          update.preview, preset: update.preset, windowSink: update.rebuilding ? nil : session.preview.chain.last)
        if update.rebuilding || !session.preview.canAdopt(model.preview) {
          try session.replacePreview(model: model, output: update.preview.output)
          // A new sink fills its window until told otherwise (a Wayland one has its own rectangle).
          if let rectangle = update.rectangle { session.preview.sink.setRenderRectangle(rectangle) }
        } else {
          try session.adoptPreview(model: model)
        }
        if update.announcing { self.queue.async { self.publish(.previewChanged(update.preview.output)) } }
      } catch {
        self.queue.async { self.fail(error) }
      }
    }
  }
}

extension Element {
  /// Confines a video overlay's picture to `rectangle`, or lets it fill the window (`nil`).
  func setRenderRectangle(_ rectangle: HVTRect?) {
    guard let rectangle else {
      setRenderRectangle(x: 0, y: 0, width: -1, height: -1)
      return
    }
    setRenderRectangle(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
  }
}
