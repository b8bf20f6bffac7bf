// HVTCamera is the engine — the controller, its pipelines, branches, devices, presets and the album — and
// the one module an app imports: it re-exports the parts it is built on, whose public types are its API.
@_exported import HVTCameraCore
@_exported import HVTCameraInterface
@_exported import HVTMediaTools
