//===- HostTaskRuntime.cpp - the async runtime dispatches call ------------===//

#include "core/codegen/HostTaskRuntime.h"
#include "core/codegen/TaskMemoryPool.h"
#include "core/support/FlushDenormals.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace dispatchlab {

namespace {
using CoroHandle = void *;
using CoroResume = void (*)(void *);

/// How long an idle thread spins before it sleeps: longer than the host's
/// work between two dispatches, far shorter than a scheduler slice.
constexpr std::chrono::microseconds kSpinTime(200);

void pauseBriefly() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// A suspended coroutine to resume.
struct Task {
  CoroHandle handle = nullptr;
  CoroResume resume = nullptr;
};

/// The process's workers and their queue.
class TaskPool {
public:
  static TaskPool &get() {
    static TaskPool pool;
    return pool;
  }
  ~TaskPool() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    for (std::thread &worker : workers)
      worker.join();
  }

  void reserve(unsigned count) {
    std::lock_guard<std::mutex> lock(mutex);
    while (workers.size() < count)
      workers.emplace_back([this] { work(); });
  }
  int64_t size() {
    std::lock_guard<std::mutex> lock(mutex);
    return int64_t(workers.size());
  }

  void push(Task task) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(task);
      queued.fetch_add(1);
    }
    // A worker about to sleep counts itself under the mutex, then checks
    // the queue: it either sees this task or is counted here.
    if (sleepers.load() > 0)
      wake.notify_one();
  }

  /// Spins until `done()`, running queued tasks meanwhile; false once
  /// kSpinTime passed without a task to run and without `done()`.
  template <typename Done> bool spinUntil(Done done) {
    auto start = std::chrono::steady_clock::now();
    for (unsigned spins = 1;; ++spins) {
      if (done())
        return true;
      if (runOne()) {
        start = std::chrono::steady_clock::now();
        continue;
      }
      pauseBriefly();
      if (spins % 64 == 0 &&
          std::chrono::steady_clock::now() - start > kSpinTime)
        return done();
    }
  }

private:
  TaskPool() = default;

  /// Runs one queued task; false when there was none.
  bool runOne() {
    if (queued.load(std::memory_order_acquire) == 0)
      return false;
    Task task;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (queue.empty())
        return false;
      task = queue.front();
      queue.pop_front();
      queued.fetch_sub(1);
    }
    task.resume(task.handle);
    return true;
  }

  void work() {
    flushDenormalsOnThisThread();
    while (!stopping.load()) {
      if (runOne() || spinUntil([this] {
            return queued.load(std::memory_order_acquire) > 0 ||
                   stopping.load();
          }))
        continue;
      std::unique_lock<std::mutex> lock(mutex);
      sleepers.fetch_add(1);
      wake.wait(lock, [this] { return !queue.empty() || stopping.load(); });
      sleepers.fetch_sub(1);
    }
  }

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Task> queue;
  std::atomic<int64_t> queued = 0;
  std::atomic<int> sleepers = 0;
  std::atomic<bool> stopping = false;
  std::vector<std::thread> workers;
};

class RefCounted {
public:
  explicit RefCounted(int64_t references) : references(references) {}
  /// A worker often drops the last reference to what the caller created.
  static void *operator new(size_t bytes) {
    return allocateTaskMemory(bytes, alignof(std::max_align_t));
  }
  static void operator delete(void *pointer) { freeTaskMemory(pointer); }
  virtual ~RefCounted() = default;
  void addRef(int64_t count) { references.fetch_add(count); }
  void dropRef(int64_t count) {
    if (references.fetch_sub(count) == count)
      delete this;
  }

private:
  std::atomic<int64_t> references;
};

/// What tokens, values and groups share: a state that becomes terminal
/// once, and the awaiters to run then.
class Awaitable : public RefCounted {
public:
  enum State : int { Pending, Available, Error };
  using RefCounted::RefCounted;

  bool isReady() const { return state.load() != Pending; }
  bool isError() const { return state.load() == Error; }

  /// Runs `awaiter` now when ready, else on the thread that makes it so.
  void onReady(std::function<void()> awaiter) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!isReady()) {
        awaiters.push_back(std::move(awaiter));
        return;
      }
    }
    awaiter();
  }

  /// Blocks until ready, running the pool's queued tasks meanwhile.
  void await() {
    if (TaskPool::get().spinUntil([this] { return isReady(); }))
      return;
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [this] { return isReady(); });
  }

  /// The caller holds a reference across it: a waiter may drop the last
  /// other one as soon as it sees the state.
  void complete(State terminal) {
    llvm::SmallVector<std::function<void()>, 1> pending;
    {
      std::lock_guard<std::mutex> lock(mutex);
      state.store(terminal);
      pending.swap(awaiters);
      ready.notify_all();
    }
    for (std::function<void()> &awaiter : pending)
      awaiter();
  }

private:
  std::atomic<int> state = Pending;
  std::mutex mutex;
  std::condition_variable ready;
  llvm::SmallVector<std::function<void()>, 1> awaiters;
};

/// One reference for the caller of async.execute, one for the task that
/// emplaces it.
struct AsyncToken : Awaitable {
  AsyncToken() : Awaitable(2) {}
};

struct AsyncValue : Awaitable {
  explicit AsyncValue(int64_t bytes) : Awaitable(2), storage(bytes) {}
  std::vector<std::byte> storage;
};

/// Ready once `size` tokens added to it are.
struct AsyncGroup : Awaitable {
  explicit AsyncGroup(int64_t size) : Awaitable(1), pendingTokens(size) {
    if (size == 0)
      complete(Available);
  }
  std::atomic<int64_t> pendingTokens, rank = 0, errors = 0;
};

void addRef(void *object, int64_t count) {
  static_cast<RefCounted *>(object)->addRef(count);
}
void dropRef(void *object, int64_t count) {
  static_cast<RefCounted *>(object)->dropRef(count);
}
AsyncToken *createToken() { return new AsyncToken(); }
AsyncValue *createValue(int64_t bytes) { return new AsyncValue(bytes); }
AsyncGroup *createGroup(int64_t size) { return new AsyncGroup(size); }

int64_t addTokenToGroup(AsyncToken *token, AsyncGroup *group) {
  int64_t rank = group->rank.fetch_add(1);
  group->addRef(1);
  token->onReady([token, group] {
    if (token->isError())
      group->errors.fetch_add(1);
    if (group->pendingTokens.fetch_sub(1) == 1)
      group->complete(Awaitable::Available);
    group->dropRef(1);
  });
  return rank;
}

/// Emplacing drops the emplacing task's reference.
void finish(Awaitable *object, Awaitable::State state) {
  object->complete(state);
  object->dropRef(1);
}
void emplaceToken(AsyncToken *token) { finish(token, Awaitable::Available); }
void emplaceValue(AsyncValue *value) { finish(value, Awaitable::Available); }
void setTokenError(AsyncToken *token) { finish(token, Awaitable::Error); }
void setValueError(AsyncValue *value) { finish(value, Awaitable::Error); }
bool isTokenError(AsyncToken *token) { return token->isError(); }
bool isValueError(AsyncValue *value) { return value->isError(); }
bool isGroupError(AsyncGroup *group) { return group->errors.load() > 0; }

void awaitToken(AsyncToken *token) { token->await(); }
void awaitValue(AsyncValue *value) { value->await(); }
void awaitAllInGroup(AsyncGroup *group) { group->await(); }
std::byte *getValueStorage(AsyncValue *value) { return value->storage.data(); }

void execute(CoroHandle handle, CoroResume resume) {
  TaskPool::get().push({handle, resume});
}
void awaitAndExecute(Awaitable *object, CoroHandle handle, CoroResume resume) {
  object->onReady([handle, resume] { resume(handle); });
}
void awaitTokenAndExecute(AsyncToken *token, CoroHandle handle,
                          CoroResume resume) {
  awaitAndExecute(token, handle, resume);
}
void awaitValueAndExecute(AsyncValue *value, CoroHandle handle,
                          CoroResume resume) {
  awaitAndExecute(value, handle, resume);
}
void awaitAllInGroupAndExecute(AsyncGroup *group, CoroHandle handle,
                               CoroResume resume) {
  awaitAndExecute(group, handle, resume);
}
int64_t getNumWorkerThreads() { return TaskPool::get().size(); }

/// async-to-async-runtime's coroutine frames; free also gets the compiled
/// code's memref.deallocs, of malloc'd buffers, which freeTaskMemory passes
/// on to the C library.
void *allocateCoroutineFrame(size_t alignment, size_t bytes) {
  return allocateTaskMemory(bytes, alignment);
}
} // namespace

std::vector<std::pair<llvm::StringRef, void *>> getHostTaskRuntimeSymbols() {
  auto entry = [](llvm::StringRef name, auto *function) {
    return std::pair<llvm::StringRef, void *>(
        name, reinterpret_cast<void *>(function));
  };
  return {entry("mlirAsyncRuntimeAddRef", &addRef),
          entry("mlirAsyncRuntimeDropRef", &dropRef),
          entry("mlirAsyncRuntimeCreateToken", &createToken),
          entry("mlirAsyncRuntimeCreateValue", &createValue),
          entry("mlirAsyncRuntimeCreateGroup", &createGroup),
          entry("mlirAsyncRuntimeAddTokenToGroup", &addTokenToGroup),
          entry("mlirAsyncRuntimeEmplaceToken", &emplaceToken),
          entry("mlirAsyncRuntimeEmplaceValue", &emplaceValue),
          entry("mlirAsyncRuntimeSetTokenError", &setTokenError),
          entry("mlirAsyncRuntimeSetValueError", &setValueError),
          entry("mlirAsyncRuntimeIsTokenError", &isTokenError),
          entry("mlirAsyncRuntimeIsValueError", &isValueError),
          entry("mlirAsyncRuntimeIsGroupError", &isGroupError),
          entry("mlirAsyncRuntimeAwaitToken", &awaitToken),
          entry("mlirAsyncRuntimeAwaitValue", &awaitValue),
          entry("mlirAsyncRuntimeAwaitAllInGroup", &awaitAllInGroup),
          entry("mlirAsyncRuntimeGetValueStorage", &getValueStorage),
          entry("mlirAsyncRuntimeExecute", &execute),
          entry("mlirAsyncRuntimeAwaitTokenAndExecute", &awaitTokenAndExecute),
          entry("mlirAsyncRuntimeAwaitValueAndExecute", &awaitValueAndExecute),
          entry("mlirAsyncRuntimeAwaitAllInGroupAndExecute",
                &awaitAllInGroupAndExecute),
          entry("mlirAsyncRuntimGetNumWorkerThreads", &getNumWorkerThreads),
          entry("aligned_alloc", &allocateCoroutineFrame),
          entry("free", &freeTaskMemory)};
}

void reserveHostTaskWorkers(unsigned threads) {
  if (threads > 1)
    TaskPool::get().reserve(threads - 1);
}

} // namespace dispatchlab
