// The C seam for drawing: cairo, and Pango's cairo backend for text (pango/pangocairo.h includes cairo.h).
//
// Swift imports every function HVTCairo calls as it is; no helper is needed, and none is added until a
// macro stands in the way.
#ifndef HVT_CPANGOCAIRO_SHIM_H
#define HVT_CPANGOCAIRO_SHIM_H

#include <pango/pangocairo.h>

#endif
