#pragma once

namespace bs {

/// Lowers the calling thread's scheduling priority to that of background work (nice + 10 on
/// Linux, once per thread; elsewhere it does nothing). The workbench calls it on the threads that
/// simulate, so the GUI thread, and the threads Qt's raster engine paints with, get a core first
/// while a slider drag keeps both cores busy. A thread cannot raise its priority again without
/// privileges: call it only on threads that do background work for their whole life.
void lowerThisThreadPriority();

} // namespace bs
