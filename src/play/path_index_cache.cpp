// SPDX-License-Identifier: MIT
// The cache of solution-path indexes (include/pegsol/path_index.hpp): one entry per problem,
// built in a background thread (or in the caller's), and how far each build is.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../core/checks.hpp"
#include "../core/control_access.hpp"
#include "pegsol/error.hpp"
#include "pegsol/path_index.hpp"

namespace pegsol {

namespace census_detail {
std::size_t default_memory_limit();  // the census's own default (src/census/memory.cpp)
}  // namespace census_detail

namespace {

constexpr std::size_t kMaxSlots = 256;  // problems the cache remembers (built or failed)
// Share of a build's time the census takes (the rest is the backward pass): a progress estimate.
constexpr double kCensusShare = 0.8;

}  // namespace

const char* lookup_state_name(LookupStatus::State s) {
  switch (s) {
    case LookupStatus::State::None:
      return "none";
    case LookupStatus::State::Queued:
      return "queued";
    case LookupStatus::State::Building:
      return "building";
    case LookupStatus::State::Ready:
      return "ready";
    case LookupStatus::State::Failed:
      return "failed";
  }
  return "none";
}

// One problem's entry: its index once built, or why it could not be, and while it is being
// built how far it is.
struct PathIndexCache::Slot {
  Problem problem;
  std::string key;
  enum class State { Queued, Building, Built, Failed } state = State::Queued;
  std::shared_ptr<const PathIndex> index;
  std::string failed;
  std::uint64_t used = 0;  // tick of the last get()
  // While building (under the cache's mutex): the phase, level and fraction last reported.
  std::string phase;
  int level = -1;
  double fraction = 0;
  Control::Clock::time_point started{};
};

PathIndexCache::PathIndexCache(Options o) : opt_(o) {
  checks::seconds(opt_.build_seconds, "PathIndexCache::Options::build_seconds");
  checks::threads(opt_.build_threads, "PathIndexCache::Options::build_threads");
  if (opt_.build_memory == 0)
    opt_.build_memory = std::clamp(census_detail::default_memory_limit() / 4,
                                   std::size_t{512} << 20, std::size_t{4} << 30);
  if (opt_.background) worker_ = std::thread([this] { run(); });
}

PathIndexCache::~PathIndexCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cancel_ = true;
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

std::shared_ptr<PathIndexCache::Slot> PathIndexCache::slot_for(const Problem& p) {
  std::string key = problem_key(p);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    it->second->used = ++tick_;
    return it->second;
  }
  if (slots_.size() >= kMaxSlots) {
    // The least recent entry that no build holds goes (a failure is then tried again).
    auto oldest = slots_.end();
    for (auto i = slots_.begin(); i != slots_.end(); ++i)
      if ((i->second->state == Slot::State::Built || i->second->state == Slot::State::Failed) &&
          (oldest == slots_.end() || i->second->used < oldest->second->used))
        oldest = i;
    if (oldest != slots_.end()) slots_.erase(oldest);
  }
  auto s = std::make_shared<Slot>();
  s->problem = p;
  s->key = key;
  s->used = ++tick_;
  slots_.emplace(std::move(key), s);
  return s;
}

namespace {
std::string note_of(const std::string& failed) {
  return "no census look-up: " + failed;
}
constexpr const char* kTooWide = "the board's layout is wider than 64 bits";

// The indexes a game of p needs: p's own, and one peg anywhere's when p's does not answer it.
std::vector<Problem> needed(const Problem& p) {
  std::vector<Problem> out{p};
  if (!PathIndex::answers_one_peg(p)) out.push_back(Problem{p.board, p.start, Goal{}});
  return out;
}
}  // namespace

std::shared_ptr<const PathIndex> PathIndexCache::get(const Problem& p, std::string* note) {
  if (p.board->width() != 64) {
    if (note) *note = note_of(kTooWide);
    return nullptr;
  }
  if (!opt_.background) return wait(p, note);
  std::lock_guard lock(mutex_);
  return get_locked(p, note);
}

std::shared_ptr<const PathIndex> PathIndexCache::get_locked(const Problem& p, std::string* note) {
  const bool known = slots_.count(problem_key(p)) != 0;
  if (!known && queue_.size() >= opt_.max_queued) {
    if (note) *note = note_of("other look-ups are being built");
    return nullptr;
  }
  std::shared_ptr<Slot> s = slot_for(p);
  switch (s->state) {
    case Slot::State::Built:
      return s->index;
    case Slot::State::Failed:
      if (note) *note = note_of(s->failed);
      return nullptr;
    case Slot::State::Building:
      if (note) *note = note_of("being built");
      return nullptr;
    case Slot::State::Queued:
      if (!known) {
        queue_.push_back(s);
        changed_.notify_all();
      }
      if (note) *note = note_of("queued to be built");
      return nullptr;
  }
  return nullptr;
}

std::shared_ptr<const PathIndex> PathIndexCache::wait(const Problem& p, std::string* note,
                                                      const Control* control) {
  if (p.board->width() != 64) {
    if (note) *note = note_of(kTooWide);
    return nullptr;
  }
  std::unique_lock lock(mutex_);
  std::shared_ptr<Slot> s = slot_for(p);
  if (s->state == Slot::State::Queued) {
    // Built here: taken off the queue so that the worker does not build it too.
    queue_.erase(std::remove(queue_.begin(), queue_.end(), s), queue_.end());
    s->state = Slot::State::Building;
    s->started = Control::Clock::now();
    lock.unlock();
    build(*s, control);
    lock.lock();
    changed_.notify_all();
  }
  changed_.wait(lock, [&] {
    return stopping_ || s->state == Slot::State::Built || s->state == Slot::State::Failed;
  });
  if (s->state == Slot::State::Built) return s->index;
  if (note) *note = note_of(s->state == Slot::State::Failed ? s->failed : "the cache stopped");
  return nullptr;
}

std::shared_ptr<const PathIndex> PathIndexCache::await(const Problem& p, const Control& control,
                                                       std::string* note) {
  std::unique_lock lock(mutex_);
  auto it = slots_.find(problem_key(p));
  if (it == slots_.end()) return nullptr;
  std::shared_ptr<Slot> s = it->second;
  auto pending = [&] {
    return !stopping_ && (s->state == Slot::State::Queued || s->state == Slot::State::Building);
  };
  if (s->state == Slot::State::Queued && std::find(queue_.begin(), queue_.end(), s) == queue_.end())
    return nullptr;  // known but not queued (the queue was full): nothing to wait for
  while (pending() && !control.should_stop())
    changed_.wait_for(lock, std::chrono::milliseconds(20));
  if (s->state == Slot::State::Built) {
    s->used = ++tick_;
    return s->index;
  }
  if (note) *note = note_of(s->state == Slot::State::Failed ? s->failed : "being built");
  return nullptr;
}

void PathIndexCache::build(Slot& s, const Control* caller) {
  std::shared_ptr<PathIndex> index;
  std::string failed;
  bool forget = false;  // the caller stopped it: not a failure to remember
  {
    // Stopped by the caller's control (when given), the cache's destructor, or the cache's time.
    Control c(caller);
    c.watch(&cancel_);
    c.set_time_limit(opt_.build_seconds);
    // Progress: the census's reports, then the pass's, as a fraction of the whole build.
    c.set_progress(
        [&](const ProgressReport& r) {
          double f = kCensusShare;
          if (r.phase == "ways")
            f = kCensusShare + (1 - kCensusShare) * r.fraction;
          else if (r.phase != "done")
            f = kCensusShare * r.fraction;
          double now = 0;
          {
            std::lock_guard lock(mutex_);
            s.phase = std::string(r.phase == "done" ? "ways" : r.phase);
            s.level = r.level;
            s.fraction = std::max(s.fraction, std::min(1.0, f));
            now = s.fraction;
          }
          if (caller && ControlAccess::wants_progress(*caller)) {
            ProgressReport out = r;
            out.fraction = now;
            out.done = static_cast<std::uint64_t>(now * 1000);
            out.total = 1000;
            caller->report(out);
          }
        },
        0.1);
    try {
      PathIndex::Options po;
      po.memory = opt_.build_memory;
      po.control = &c;
      po.threads = opt_.build_threads;
      index = std::make_shared<PathIndex>(s.problem, po);
      if (!index->ok()) failed = index->failed();
    } catch (const std::exception& e) {
      failed = e.what();
    }
    forget = !failed.empty() && caller && caller->should_stop();
  }
  std::lock_guard lock(mutex_);
  if (forget) {
    s.failed = "stopped by its caller";
    s.state = Slot::State::Failed;
    slots_.erase(s.key);  // the caller holds the slot
  } else if (failed.empty()) {
    s.index = std::move(index);
    s.state = Slot::State::Built;
    trim();
  } else {
    s.failed = std::move(failed);
    s.state = Slot::State::Failed;
  }
}

void PathIndexCache::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::shared_ptr<Slot> s = queue_.front();
    queue_.pop_front();
    if (s->state != Slot::State::Queued) continue;
    s->state = Slot::State::Building;
    s->started = Control::Clock::now();
    lock.unlock();
    build(*s, nullptr);
    lock.lock();
    changed_.notify_all();
  }
}

void PathIndexCache::trim() {
  for (;;) {
    std::size_t total = 0;
    std::shared_ptr<Slot> oldest;
    for (auto& [key, s] : slots_) {
      if (s->state != Slot::State::Built) continue;
      total += s->index->bytes();
      if (!oldest || s->used < oldest->used) oldest = s;
    }
    if (total <= opt_.keep_bytes || !oldest) return;
    // The least recent goes (callers holding it keep their copy); the newest always stays.
    std::size_t built = 0;
    for (auto& [key, s] : slots_) built += s->state == Slot::State::Built;
    if (built <= 1) return;
    slots_.erase(oldest->key);
  }
}

std::size_t PathIndexCache::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [key, s] : slots_)
    if (s->state == Slot::State::Built) total += s->index->bytes();
  return total;
}

LookupStatus PathIndexCache::slot_status(const Problem& p) const {
  LookupStatus st;
  if (p.board->width() != 64) {
    st.why = kTooWide;
    return st;
  }
  auto it = slots_.find(problem_key(p));
  if (it == slots_.end()) return st;
  const Slot& s = *it->second;
  switch (s.state) {
    case Slot::State::Queued:
      if (std::find(queue_.begin(), queue_.end(), it->second) != queue_.end())
        st.state = LookupStatus::State::Queued;
      break;
    case Slot::State::Building:
      st.state = LookupStatus::State::Building;
      st.phase = s.phase.empty() ? "forward" : s.phase;
      st.level = s.level;
      st.fraction = s.fraction;
      st.seconds = std::chrono::duration<double>(Control::Clock::now() - s.started).count();
      break;
    case Slot::State::Built:
      st.state = LookupStatus::State::Ready;
      st.fraction = 1;
      st.seconds = s.index->seconds();
      st.bytes = s.index->bytes();
      break;
    case Slot::State::Failed:
      st.state = LookupStatus::State::Failed;
      st.why = s.failed;
      break;
  }
  return st;
}

LookupStatus PathIndexCache::status(const Problem& p) const {
  std::lock_guard lock(mutex_);
  const std::vector<Problem> ps = needed(p);
  LookupStatus out;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    LookupStatus st = slot_status(ps[i]);
    if (i == 0) {
      out = st;
      continue;
    }
    // The less advanced state leads (a failure first), the fractions average, the rest adds up.
    auto rank = [](LookupStatus::State s) {
      switch (s) {
        case LookupStatus::State::Failed:
          return 0;
        case LookupStatus::State::None:
          return 1;
        case LookupStatus::State::Queued:
          return 2;
        case LookupStatus::State::Building:
          return 3;
        case LookupStatus::State::Ready:
          return 4;
      }
      return 1;
    };
    const double fraction = (out.fraction + st.fraction) / 2;
    const std::size_t bytes = out.bytes + st.bytes;
    const double seconds = out.seconds + st.seconds;
    if (rank(st.state) < rank(out.state) ||
        (st.state == LookupStatus::State::Building && out.state != LookupStatus::State::Building))
      out = st;
    out.fraction = fraction;
    out.bytes = bytes;
    out.seconds = seconds;
  }
  out.censuses = static_cast<int>(ps.size());
  return out;
}

LookupStatus PathIndexCache::start(const Problem& p, const Control* control) {
  if (p.board->width() == 64) {
    for (const Problem& q : needed(p)) {
      if (opt_.background) {
        std::lock_guard lock(mutex_);
        get_locked(q, nullptr);
        continue;
      }
      std::unique_lock lock(mutex_);
      std::shared_ptr<Slot> s = slot_for(q);
      if (s->state != Slot::State::Queued) continue;  // built, failed, or being built elsewhere
      s->state = Slot::State::Building;
      s->started = Control::Clock::now();
      s->fraction = 0;
      lock.unlock();
      build(*s, control);
      lock.lock();
      changed_.notify_all();
      if (control && control->should_stop()) break;
    }
  }
  return status(p);
}

}  // namespace pegsol
