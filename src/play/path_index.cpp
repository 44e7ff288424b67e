// Solution-path indexes (include/pegsol/path_index.hpp): a census keeping its solution paths, and
// a cache that builds them one at a time in a background thread.
#include "pegsol/path_index.hpp"

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "../core/geometry.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

// The internals PathIndex keeps out of its public header.
struct PathIndex::Impl {
  explicit Impl(const Board& b) : geo(b) {}
  Geometry<64> geo;
};

namespace {
constexpr std::size_t kMaxSlots = 256;  // problems the cache remembers (built or failed)
}  // namespace

std::string problem_key(const Problem& p) {
  const Board& b = *p.board;
  std::string k = b.name() + '|' + std::to_string(static_cast<int>(b.lattice())) + '|';
  for (int h = 0; h < b.size(); ++h) {
    const Coord c = b.coord(h);
    k += std::to_string(c.r) + ',' + std::to_string(c.c) + ';';
  }
  k += '|';
  for (const Coord& d : b.directions()) k += std::to_string(d.r) + ',' + std::to_string(d.c) + ';';
  k += '|' + p.start.to_bits() + '|' + std::to_string(static_cast<int>(p.goal.kind)) + ',' +
       std::to_string(p.goal.hole);
  if (p.goal.kind == Goal::Kind::Position) k += ',' + p.goal.position.to_bits();
  return k;
}

PathIndex::PathIndex(const Problem& p, std::size_t memory, const Control* control, int threads)
    : problem_(p) {
  if (p.board->width() != 64)
    throw InputError("a solution-path index needs a board whose layout fits 64 bits; " +
                     p.board->name() + " needs " + std::to_string(p.board->width()));
  impl_ = std::make_unique<Impl>(*p.board);
  CensusOptions co;
  co.keep_paths = true;
  co.distinct = false;
  co.random_player = false;
  co.memory_limit = memory;
  co.threads = threads;
  co.control = control;
  try {
    CensusResult r = census(p, co);
    seconds_ = r.seconds;
    if (r.stop != StopReason::None)
      failed_ = "the census stopped (" + std::string(stop_reason_name(r.stop)) + ")" +
                (r.stop_note.empty() ? "" : ": " + r.stop_note);
    else if (!r.paths_kept)
      failed_ = "the census kept no solution paths";
    if (failed_.empty()) {
      syms_ = std::move(r.symmetries);
      levels_ = std::move(r.paths);
      positions_ = r.on_path_sym;
    }
  } catch (const std::exception& e) {
    failed_ = e.what();
  }
#ifdef __GLIBC__
  malloc_trim(0);  // the census's tables go back to the system
#endif
}

PathIndex::~PathIndex() = default;

bool PathIndex::on_path_bits(const std::uint64_t& layout) const {
  Bits<64> x;
  x.w[0] = layout;
  const auto k = static_cast<std::size_t>(x.count());
  if (k >= levels_.size()) return false;
  const std::uint64_t c = impl_->geo.canonical(x, syms_).w[0];
  return std::binary_search(levels_[k].begin(), levels_[k].end(), c);
}

bool PathIndex::on_path(const HoleSet& pegs) const {
  return ok() && on_path_bits(impl_->geo.to_bits(pegs).w[0]);
}

std::vector<Jump> PathIndex::solution_from(const HoleSet& pegs) const {
  std::vector<Jump> moves;
  Bits<64> x = impl_->geo.to_bits(pegs);
  HoleSet at = pegs;
  while (!goal_reached(problem_, at)) {
    int next = -1;
    impl_->geo.for_each_jump(x, [&](int j) {
      if (next < 0 && on_path_bits((x ^ impl_->geo.jump_mask(j)).w[0])) next = j;
    });
    if (next < 0) throw std::logic_error("path index: the solution paths lost their way");
    const Jump& j = problem_.board->jumps()[static_cast<std::size_t>(next)];
    moves.push_back(j);
    at.set(j.from, false);
    at.set(j.over, false);
    at.set(j.to);
    x ^= impl_->geo.jump_mask(next);
  }
  return moves;
}

std::size_t PathIndex::bytes() const {
  std::size_t n = sizeof(*this);
  for (const auto& l : levels_) n += l.capacity() * sizeof(std::uint64_t);
  return n;
}

// One problem's entry: its index once built, or why it could not be.
struct PathIndexCache::Slot {
  Problem problem;
  std::string key;
  enum class State { Queued, Building, Built, Failed } state = State::Queued;
  std::shared_ptr<const PathIndex> index;
  std::string failed;
  std::uint64_t used = 0;  // tick of the last get()
};

PathIndexCache::PathIndexCache(Options o) : opt_(o) {
  if (opt_.background) worker_ = std::thread([this] { run(); });
}

PathIndexCache::~PathIndexCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.cancel();
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
}  // namespace

std::shared_ptr<const PathIndex> PathIndexCache::get(const Problem& p, std::string* note) {
  if (p.board->width() != 64) {
    if (note) *note = note_of("the board's layout is wider than 64 bits");
    return nullptr;
  }
  if (!opt_.background) return wait(p, note);
  std::unique_lock lock(mutex_);
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

std::shared_ptr<const PathIndex> PathIndexCache::wait(const Problem& p, std::string* note) {
  if (p.board->width() != 64) {
    if (note) *note = note_of("the board's layout is wider than 64 bits");
    return nullptr;
  }
  std::unique_lock lock(mutex_);
  std::shared_ptr<Slot> s = slot_for(p);
  if (s->state == Slot::State::Queued) {
    // Built here: taken off the queue so that the worker does not build it too.
    queue_.erase(std::remove(queue_.begin(), queue_.end(), s), queue_.end());
    s->state = Slot::State::Building;
    lock.unlock();
    build(*s);
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

void PathIndexCache::build(Slot& s) {
  std::shared_ptr<PathIndex> index;
  std::string failed;
  try {
    Control c(&stop_);
    c.set_time_limit(opt_.build_seconds);
    index = std::make_shared<PathIndex>(s.problem, opt_.build_memory, &c, opt_.build_threads);
    if (!index->ok()) failed = index->failed();
  } catch (const std::exception& e) {
    failed = e.what();
  }
  std::lock_guard lock(mutex_);
  if (failed.empty()) {
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
    lock.unlock();
    build(*s);
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

}  // namespace pegsol
