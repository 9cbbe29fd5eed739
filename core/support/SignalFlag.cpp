//===- SignalFlag.cpp - Ctrl-C as a flag for long-running commands --------===//

#include "core/support/SignalFlag.h"

#include <csignal>
#include <unistd.h>

namespace dispatchlab {

static std::atomic<bool> interrupted{false};

static void onSignal(int signal) {
  if (interrupted.exchange(true))
    _exit(128 + signal);
}

std::atomic<bool> &stopOnInterrupt() {
  struct sigaction action = {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  return interrupted;
}

} // namespace dispatchlab
