// The C seam between Swift and glibc's allocator settings.
//
// `<malloc.h>` is not part of Swift's Glibc module, so `mallopt` is reached through this function.
#ifndef HVT_CALLOCATOR_H
#define HVT_CALLOCATOR_H

#include <stddef.h>

/// Sets glibc's mmap threshold to `bytes` with `mallopt(M_MMAP_THRESHOLD, bytes)`. Setting it also stops
/// glibc from raising the threshold by itself each time a large mapped block is freed. Returns 1 on
/// success, 0 when glibc refused the value.
int hvt_malloc_set_mmap_threshold(size_t bytes);

/// Gives the free memory of every malloc arena back to the system with `malloc_trim(0)`. Returns 1 when
/// some was released, 0 when there was none to release.
int hvt_malloc_trim(void);

#endif
