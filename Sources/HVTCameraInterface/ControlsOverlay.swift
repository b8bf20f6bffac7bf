import HVTCameraCore
import HVTGStreamer
import HVTSupport

/// The default controls on a running preview branch, drawn by its `overlaycomposition` element
/// (``CameraControls/elementName``). A ``ControlsPicture`` is rendered when it changes — a label, the
/// recording clock, the crop box, the picture's size — on the thread that shows it, never on the
/// streaming thread; the element's `draw` handler, called for every frame, only hands back the composition
/// rendered last (a new reference to it), so the frame's path does no drawing.
package final class ControlsOverlay: Sendable {
  private let shown: Locked<(picture: ControlsPicture, composition: OverlayComposition?)>

  /// Renders `picture` and has `element`, an `overlaycomposition`, draw it on every frame from now on.
  package init(element: Element, picture: ControlsPicture) {
    let shown = Locked((picture: picture, composition: picture.render()))
    self.shown = shown
    element.onDraw { shown.withLock { $0.composition } }
  }

  /// Shows `picture` from the next frame on, rendering it unless it is the one shown.
  package func show(_ picture: ControlsPicture) {
    guard shown.withLock({ $0.picture != picture }) else { return }
    let composition = picture.render()
    shown.withLock { $0 = (picture, composition) }
  }
}
