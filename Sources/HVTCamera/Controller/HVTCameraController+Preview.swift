import HVTGStreamer

extension HVTCameraController {
  /// Where the live preview goes (default `.preset`: the preset's sink). Changing it on a presented camera
  /// swaps the preview branch behind the tee — the source, photos and recordings go on — and announces
  /// ``HVTCameraEvent/previewChanged(_:)``; an output that cannot be shown (no display, say) is reported
  /// to the delegate and the previous preview stays.
  public var previewOutput: HVTPreviewOutput {
    get { read(\.settings.previewOutput) }
    set { changePreview(\.previewOutput, to: newValue) }
  }

  /// Whether the front camera's preview is mirrored, as camera apps show it (default true). Photos and
  /// movies are never mirrored. Done by `videoflip method=horizontal-flip` in the preview branch of a
  /// window, embedded or frames output.
  public var mirrorsFrontPreview: Bool {
    get { read(\.settings.mirrorsFrontPreview) }
    set { changePreview(\.mirrorsFrontPreview, to: newValue) }
  }

  /// Confines an embedded preview to a rectangle of the app's window, after the widget it shows in moved
  /// or was resized; `nil` fills the window (the default). Kept across restarts. Wraps
  /// `gst_video_overlay_set_render_rectangle`.
  public func setPreviewRectangle(_ rectangle: HVTPreviewRectangle?) {
    shared.withLock { $0.settings.previewRectangle = rectangle }
    worker.async { [weak self] in self?.read(\.session)?.preview.sink.setRenderRectangle(rectangle) }
  }

  /// Redraws an embedded preview's last frame, after the app's window was exposed (uncovered or
  /// resized). Wraps `gst_video_overlay_expose`.
  public func exposePreview() {
    worker.async { [weak self] in self?.read(\.session)?.preview.sink.expose() }
  }

  /// Changes a preview setting and, when presented, rebuilds the preview branch with it.
  private func changePreview<Value>(_ setting: WritableKeyPath<Settings, Value>, to value: Value)
  where Value: Equatable {
    shared.withLock { shared in
      guard shared.settings[keyPath: setting] != value else { return }
      shared.settings[keyPath: setting] = value
      guard shared.isPresented else { return }
      let settings = shared.settings
      queue.async { self.switchPreview(to: settings) }
    }
  }

  /// Swaps the running session's preview branch for one built from `settings` (on the queue; the work
  /// is done on the worker, where sessions start and stop, so it follows a start in progress).
  private func switchPreview(to settings: Settings) {
    guard let session = state.session, state.phase == .starting || state.phase == .running else { return }
    worker.async {
      do {
        let model = try session.model.showingPreview(
          settings.previewOutput, preset: settings.preset, mirrorsFront: settings.mirrorsFrontPreview)
        try session.replacePreview(model: model, output: settings.previewOutput)
        session.preview.sink.setRenderRectangle(settings.previewRectangle)
        self.queue.async { self.publish(.previewChanged(settings.previewOutput)) }
      } catch {
        self.queue.async { self.fail(error) }
      }
    }
  }
}

extension Element {
  /// Confines a video overlay's picture to `rectangle`, or lets it fill the window (`nil`).
  func setRenderRectangle(_ rectangle: HVTPreviewRectangle?) {
    guard let rectangle else {
      setRenderRectangle(x: 0, y: 0, width: -1, height: -1)
      return
    }
    setRenderRectangle(x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
  }
}
