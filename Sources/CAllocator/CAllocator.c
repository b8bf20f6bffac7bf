#include "CAllocator.h"

#include <malloc.h>

int hvt_malloc_set_mmap_threshold(size_t bytes) { return mallopt(M_MMAP_THRESHOLD, (int)bytes); }

int hvt_malloc_trim(void) { return malloc_trim(0); }
