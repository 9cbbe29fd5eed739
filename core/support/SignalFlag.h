//===- SignalFlag.h - Ctrl-C as a flag for long-running commands -*- C++
//-*-===//

#ifndef DISPATCHLAB_CORE_SUPPORT_SIGNALFLAG_H
#define DISPATCHLAB_CORE_SUPPORT_SIGNALFLAG_H

#include <atomic>

namespace dispatchlab {

/// Makes SIGINT and SIGTERM set the returned flag instead of killing the
/// process, so sweeps, coordinators and workers can stop cleanly. A second
/// signal ends the process at once.
std::atomic<bool> &stopOnInterrupt();

} // namespace dispatchlab

#endif // DISPATCHLAB_CORE_SUPPORT_SIGNALFLAG_H
