// The C seam between Swift and a Wayland compositor, for the preview window HVTCamera makes itself on
// Wayland: `waylandsink` draws into a surface of it, while the window takes the title, the keys and the
// pointer, which `waylandsink` has no way to (GStreamer 1.22 to 1.26: no title, no GstNavigation events).
//
// `xdg-shell-client-protocol.h` and `../xdg-shell-protocol.c` are generated, not written: wayland-scanner
// 1.21.0 on wayland-protocols 1.31's stable/xdg-shell/xdg-shell.xml (`wayland-scanner client-header` and
// `private-code`), the toplevel window protocol every desktop compositor speaks; generate them again the
// same way. Each `hvt_wl_*` helper below says why it exists; none holds logic of its own.
#ifndef HVT_CWAYLAND_H
#define HVT_CWAYLAND_H

#include <stddef.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>
#include "xdg-shell-client-protocol.h"

// Swift imports the protocols' interface descriptions as values, not addresses, and a proxy keeps the
// address it was bound with (`wl_registry_bind`).
static inline const struct wl_interface *hvt_wl_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *hvt_wl_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *hvt_wl_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *hvt_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }

/// `memfd_create(2)` sized to `size` bytes with `ftruncate(2)`, for a `wl_shm` pool: `<sys/mman.h>`
/// declares it only under `_GNU_SOURCE`, which Swift's Glibc module is not built with. Returns the file
/// descriptor (close-on-exec), or -1 with `errno`.
int hvt_wl_shared_memory(const char *name, size_t size);

#endif
