// The exact census: forward pass with path counts, backward pass for solution paths, Burnside
// counts up to symmetry, and the count of solutions up to reordering of independent jumps.
#include "pegsol/census.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "../core/symmetry.hpp"
#include "../core/widths.hpp"
#include "engine.hpp"
#include "paths.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

std::string count_text(Count c) {
  if (c == 0) return "0";
  std::string s;
  while (c) {
    s.push_back(static_cast<char>('0' + static_cast<int>(c % 10)));
    c /= 10;
  }
  return {s.rbegin(), s.rend()};
}

namespace census_detail {

std::size_t default_memory_limit() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  std::size_t total = pages > 0 && page > 0
                          ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                          : std::size_t{4} << 30;
  std::size_t margin = std::max(total / 10, std::size_t{1} << 30);
  std::size_t limit = total > 2 * margin ? total - margin : total / 2;
  // An address-space limit (ulimit -v) caps it too: three quarters of it less 64 MiB per core,
  // the rest for the program, each thread's stack and the address space glibc reserves for each
  // thread's malloc arena (64 MiB); a quarter of it at least.
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::size_t space = static_cast<std::size_t>(as.rlim_cur);
    const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t reserve = space / 4 + threads * (std::size_t{64} << 20);
    limit = std::min(limit, std::max(space / 4, space > reserve ? space - reserve : 0));
  }
  return limit;
}

namespace {

// One stored position: canonical key, the number of jump sequences reaching its orbit (128 bits
// as two words, so the entry stays 8-byte aligned: 32 bytes at W = 64), and the chance that the
// random player passes through the orbit.
template <int W>
struct Entry {
  Bits<W> key;
  std::uint64_t lo = 0, hi = 0;
  double prob = 0;
  Count count() const { return (static_cast<Count>(hi) << 64) | lo; }
  void set_count(Count c) {
    lo = static_cast<std::uint64_t>(c);
    hi = static_cast<std::uint64_t>(c >> 64);
  }
};
static_assert(sizeof(Entry<64>) == 32);

// Word-by-word equality (the defaulted Bits::operator== compiles to a memcmp call here).
template <int W>
inline bool same(const Bits<W>& a, const Bits<W>& b) {
  std::uint64_t d = 0;
  for (int k = 0; k < Bits<W>::kWords; ++k) d |= a.w[k] ^ b.w[k];
  return d == 0;
}

template <int W>
int shard_of(std::uint64_t h) {
  return static_cast<int>(h >> (64 - kShardBits));
}

// Open addressing with linear probing; the empty key (no pegs) marks a free slot, since no level
// the engine builds contains the empty position. Load factor at most 0.7.
template <int W>
class Table {
 public:
  explicit Table(Memory& m) : mem_(&m), slots_(m) {}

  void add(const Entry<W>& e, std::uint64_t h) {
    if ((size_ + 1) * 10 > cap_ * 7) grow();
    auto& s = slots_.vec();
    std::size_t i = h & (cap_ - 1);
    while (true) {
      Entry<W>& x = s[i];
      if (x.key.none()) {
        x = e;
        ++size_;
        return;
      }
      if (same(x.key, e.key)) {
        Count c = x.count();
        add_count(c, e.count());
        x.set_count(c);
        x.prob += e.prob;
        return;
      }
      i = (i + 1) & (cap_ - 1);
    }
  }
  std::size_t size() const { return size_; }

  // The entries, densely, in slot order; the table is released.
  Booked<Entry<W>> take_entries() {
    Booked<Entry<W>> out(*mem_);
    out.reserve(size_);
    for (const Entry<W>& x : slots_.vec())
      if (x.key.any()) out.push_back(x);
    slots_.release();
    cap_ = size_ = 0;
    return out;
  }

 private:
  void grow() {
    std::size_t ncap = cap_ ? cap_ * 2 : 1024;
    Booked<Entry<W>> n(*mem_);
    n.assign(ncap, Entry<W>{});
    for (const Entry<W>& x : slots_.vec())
      if (x.key.any()) {
        std::size_t i = x.key.digest() & (ncap - 1);
        while (n[i].key.any()) i = (i + 1) & (ncap - 1);
        n[i] = x;
      }
    slots_ = std::move(n);
    cap_ = ncap;
  }

  Memory* mem_;
  Booked<Entry<W>> slots_;
  std::size_t cap_ = 0, size_ = 0;
};

template <int W>
class Engine {
 public:
  using Pos = Bits<W>;
  using E = Entry<W>;
  using Level = std::vector<Booked<E>>;

  Engine(const Problem& p, const CensusOptions& o)
      : p_(p),
        o_(o),
        b_(*p.board),
        g_(*p.board),
        run_(o),
        mem_(memory_limit_of(o)),
        workers_(threads_of(o)),
        team_(workers_) {
    syms_ = problem_symmetries(b_, p_, o.symmetry);
    start_ = g_.to_bits(p.start);
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(b_.bit(p.goal.hole));
    // Images of every jump under every symmetry of the group: a permutation of bits is linear
    // over XOR, so image(x ^ jump) = image(x) ^ image(jump), and a child's images cost one XOR
    // each once its parent's images are known.
    const std::size_t nj = b_.jumps().size();
    sym_jump_.resize(syms_.size() * nj);
    for (std::size_t s = 0; s < syms_.size(); ++s)
      for (std::size_t j = 0; j < nj; ++j)
        sym_jump_[s * nj + j] = g_.apply(syms_[s], g_.jump_mask(static_cast<int>(j)));
    progress_.start();
  }

  CensusResult run() {
    CensusResult r;
    r.group_size = static_cast<int>(syms_.size());
    r.width = W;
    r.threads = workers_;
    bool store = o_.on_path || o_.distinct;
    std::uint64_t units = 1000 * static_cast<std::uint64_t>(start_.count());
    if (store && goal_pegs_ < start_.count())
      units += 1000 * static_cast<std::uint64_t>(start_.count() - goal_pegs_);
    progress_.set_units(units);
    run_passes(r, [&] {
      forward(r, store);
      if (store) on_path(r);
      up_to_symmetry(r);
      if (o_.distinct) distinct(r);
    });
    if (r.stop == StopReason::None) report("done", 1, positions_, units, true);
    total_result(r, progress_, mem_);
    return r;
  }

 private:
  Pos canon(const Pos& x) const { return syms_.size() > 1 ? g_.canonical(x, syms_) : x; }
  int orbit_size(const Pos& c) const {
    if (syms_.size() == 1) return 1;
    int stab = 0;
    for (int s : syms_) stab += g_.apply(s, c) == c;
    return static_cast<int>(syms_.size()) / stab;
  }
  bool is_goal(const Pos& x) const {
    return p_.goal.kind == Goal::Kind::Any ? x.count() == 1 : x == goal_pos_;
  }
  void check_cancel() const { run_.control.throw_if_stopped(); }
  // Progress (engine.hpp's Progress: the control's report and the options' callback).
  void report(std::string_view phase, int level, std::uint64_t positions, std::uint64_t done,
              bool force = false) {
    progress_.report(phase, level, positions, done, force);
  }

  // Forward pass: every level from the start's down to one peg. Stores each level's sorted
  // canonical keys when the backward pass needs them.
  void forward(CensusResult& r, bool store) {
    const int n = b_.size();
    r.levels.assign(static_cast<std::size_t>(n + 1), CensusLevel{});
    r.solutions_by_hole.assign(static_cast<std::size_t>(n), 0);
    r.p_by_hole.assign(static_cast<std::size_t>(n), 0.0);
    stored_.clear();
    for (int k = 0; k <= n; ++k) stored_.emplace_back(mem_);
    k0_ = start_.count();
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
      return;
    }
    Level cur;
    for (int s = 0; s < kShards; ++s) cur.emplace_back(mem_);
    E s0;
    s0.key = canon(start_);
    s0.set_count(1);
    s0.prob = 1;
    cur[static_cast<std::size_t>(shard_of<W>(s0.key.digest()))].push_back(s0);
    for (int k = k0_; k >= 1; --k) {
      mem_.set_level(k);
      std::size_t size = 0;
      for (const auto& sh : cur) size += sh.size();
      if (size == 0) break;
      if (store) {
        Booked<Pos>& keys = stored_[static_cast<std::size_t>(k)];
        keys.reserve(size);
        for (const auto& sh : cur)
          for (const E& x : sh.vec()) keys.push_back(x.key);
        std::sort(keys.vec().begin(), keys.vec().end());
      }
      if (k == goal_pegs_ && p_.goal.kind == Goal::Kind::Position && k > 1) {
        Pos c = canon(goal_pos_);
        for (const E& x : cur[static_cast<std::size_t>(shard_of<W>(c.digest()))].vec())
          if (x.key == c) {
            int orb = orbit_size(c);
            r.solutions = x.count() / static_cast<Count>(orb);
            r.p_goal = x.prob / orb;
          }
      }
      if (k == 1) singles(r, cur);
      Level next = expand(cur, k, r);
      cur = std::move(next);
      positions_ += r.levels[static_cast<std::size_t>(k)].reachable_sym;
    }
  }

  // One peg left: per-hole counts, the one-peg chance, and the solutions of one-peg goals.
  void singles(CensusResult& r, const Level& cur) {
    for (const auto& sh : cur)
      for (const E& x : sh.vec()) {
        int orb = orbit_size(x.key);
        for (int s : syms_) {
          int h = b_.hole_at_bit(g_.apply(s, x.key).lowest());
          r.solutions_by_hole[static_cast<std::size_t>(h)] = x.count() / static_cast<Count>(orb);
          r.p_by_hole[static_cast<std::size_t>(h)] = x.prob / orb;
        }
        r.p_one_peg += x.prob;
      }
    switch (p_.goal.kind) {
      case Goal::Kind::Any:
        for (Count c : r.solutions_by_hole) add_count(r.solutions, c);
        r.p_goal = r.p_one_peg;
        break;
      case Goal::Kind::Hole:
        r.solutions = r.solutions_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        r.p_goal = r.p_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        break;
      case Goal::Kind::Position:
        if (goal_pegs_ == 1) {
          int h = b_.hole_at_bit(goal_pos_.lowest());
          r.solutions = r.solutions_by_hole[static_cast<std::size_t>(h)];
          r.p_goal = r.p_by_hole[static_cast<std::size_t>(h)];
        }
        break;
    }
  }

  // Builds level k-1 from level k (see engine.hpp for the two phases).
  Level expand(const Level& cur, int k, CensusResult& r) {
    constexpr std::size_t kChunk = std::size_t{1} << 17;
    // Chunks are ranges of the level's entries taken in shard order (prefix[s] = first index
    // of shard s), so each merge phase brings many entries to every shard table.
    std::vector<std::size_t> prefix(kShards + 1, 0);
    for (int s = 0; s < kShards; ++s)
      prefix[static_cast<std::size_t>(s) + 1] =
          prefix[static_cast<std::size_t>(s)] + cur[static_cast<std::size_t>(s)].size();
    const std::size_t total = prefix.back();
    struct Chunk {
      std::size_t begin, end;
    };
    std::vector<Chunk> chunks;
    for (std::size_t b = 0; b < total; b += kChunk)
      chunks.push_back({b, std::min(total, b + kChunk)});
    std::vector<Table<W>> tables;
    tables.reserve(kShards);
    for (int s = 0; s < kShards; ++s) tables.emplace_back(mem_);
    std::vector<std::vector<Booked<E>>> bufs(static_cast<std::size_t>(workers_));
    for (auto& b : bufs)
      for (int s = 0; s < kShards; ++s) b.emplace_back(mem_);
    struct alignas(64) Tally {  // one cache line per worker: counted per parent
      std::uint64_t raw = 0, sym = 0;
      Count games = 0;
    };
    std::vector<Tally> tally(static_cast<std::size_t>(workers_));
    std::barrier sync(workers_);
    std::atomic<bool> failed{false};
    std::exception_ptr err;
    std::mutex err_m;
    auto guard = [&](auto&& f) {
      if (failed.load()) return;
      try {
        f();
      } catch (...) {
        std::lock_guard<std::mutex> lock(err_m);
        if (!err) err = std::current_exception();
        failed.store(true);
      }
    };
    const std::size_t nj = b_.jumps().size();
    const std::uint64_t done0 = 1000 * static_cast<std::uint64_t>(k0_ - k);
    team_.run(workers_, [&](int t) {
      std::vector<int> kids(nj);
      std::vector<Pos> imgs(syms_.size());
      const std::size_t ns = syms_.size();
      auto& mybuf = bufs[static_cast<std::size_t>(t)];
      Tally& my = tally[static_cast<std::size_t>(t)];
      for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
        const Chunk& c = chunks[ci];
        guard([&] {
          if (t == 0) check_cancel();
          std::size_t len = c.end - c.begin;
          std::size_t lo = c.begin + len * static_cast<std::size_t>(t) / workers_;
          std::size_t hi = c.begin + len * static_cast<std::size_t>(t + 1) / workers_;
          std::size_t s = static_cast<std::size_t>(
              std::upper_bound(prefix.begin(), prefix.end(), lo) - prefix.begin() - 1);
          for (std::size_t i = lo; i < hi; ++i) {
            while (i >= prefix[s + 1]) ++s;
            const E& x = cur[s][i - prefix[s]];
            ++my.sym;
            int stab = 0;
            for (std::size_t q = 0; q < ns; ++q) {
              imgs[q] = g_.apply(syms_[q], x.key);
              stab += same(imgs[q], x.key);
            }
            my.raw += static_cast<std::uint64_t>(static_cast<int>(ns) / stab);
            std::size_t nk = 0;
            g_.for_each_jump(x.key, [&](int j) { kids[nk++] = j; });
            if (nk == 0) {
              add_count(my.games, x.count());
              continue;
            }
            E y;
            y.lo = x.lo;
            y.hi = x.hi;
            y.prob = x.prob / static_cast<double>(nk);
            for (std::size_t u = 0; u < nk; ++u) {
              const std::size_t j = static_cast<std::size_t>(kids[u]);
              Pos best = imgs[0] ^ sym_jump_[j];
              for (std::size_t q = 1; q < ns; ++q) {
                Pos v = imgs[q] ^ sym_jump_[q * nj + j];
                if (v < best) best = v;
              }
              y.key = best;
              mybuf[static_cast<std::size_t>(shard_of<W>(y.key.digest()))].push_back(y);
            }
          }
        });
        sync.arrive_and_wait();
        guard([&] {
          for (int s = t; s < kShards; s += workers_) {
            Table<W>& tab = tables[static_cast<std::size_t>(s)];
            for (auto& wb : bufs) {
              auto& b = wb[static_cast<std::size_t>(s)];
              for (const E& y : b.vec()) tab.add(y, y.key.digest());
              b.clear();
            }
          }
        });
        sync.arrive_and_wait();
        if (t == 0) {
          std::size_t made = 0;
          for (const auto& tab : tables) made += tab.size();
          report("forward", k - 1, positions_ + made, done0 + 1000 * (ci + 1) / chunks.size());
        }
      }
    });
    if (err) std::rethrow_exception(err);
    CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
    for (const Tally& x : tally) {
      lv.reachable_raw += x.raw;
      lv.reachable_sym += x.sym;
      add_count(lv.games, x.games);
    }
    add_count(r.games, lv.games);
    bufs.clear();
    Level next;
    for (auto& tab : tables) next.push_back(tab.take_entries());
    return next;
  }

  // Backward pass: the positions of each level with a child on a solution path, starting from
  // the goal positions. Parents of a position are its jumps on the complement, undone.
  void on_path(CensusResult& r) {
    path_.clear();
    for (int k = 0; k <= b_.size(); ++k) path_.emplace_back(mem_);
    if (goal_pegs_ > k0_ || k0_ == 0) {
      r.on_path_done = true;
      return;
    }
    auto& first = path_[static_cast<std::size_t>(goal_pegs_)];
    const auto& at_goal = stored_[static_cast<std::size_t>(goal_pegs_)].vec();
    if (p_.goal.kind == Goal::Kind::Any) {
      first.reserve(at_goal.size());
      for (const Pos& x : at_goal) first.push_back(x);
    } else {
      Pos c = canon(goal_pos_);
      if (std::binary_search(at_goal.begin(), at_goal.end(), c)) first.push_back(c);
    }
    for (int k = goal_pegs_ + 1; k <= k0_; ++k) {
      mem_.set_level(k);
      check_cancel();
      const auto& below = path_[static_cast<std::size_t>(k - 1)].vec();
      const auto& level = stored_[static_cast<std::size_t>(k)].vec();
      std::vector<Booked<Pos>> found;
      for (int t = 0; t < workers_; ++t) found.emplace_back(mem_);
      report("backward", k, positions_,
             1000 * static_cast<std::uint64_t>(k0_ + k - 1 - goal_pegs_));
      team_.run(workers_, [&](int t) {
        std::size_t lo = below.size() * static_cast<std::size_t>(t) / workers_;
        std::size_t hi = below.size() * static_cast<std::size_t>(t + 1) / workers_;
        auto& out = found[static_cast<std::size_t>(t)];
        for (std::size_t i = lo; i < hi; ++i) {
          const Pos& x = below[i];
          g_.for_each_jump(g_.complement(x), [&](int j) {
            Pos c = canon(x ^ g_.jump_mask(j));
            if (std::binary_search(level.begin(), level.end(), c)) out.push_back(c);
          });
        }
      });
      std::size_t total = 0;
      for (const auto& f : found) total += f.size();
      auto& mine = path_[static_cast<std::size_t>(k)];
      mine.reserve(total);
      for (auto& f : found) {
        for (const Pos& x : f.vec()) mine.push_back(x);
        f.release();
      }
      std::sort(mine.vec().begin(), mine.vec().end());
      mine.vec().erase(std::unique(mine.vec().begin(), mine.vec().end()), mine.vec().end());
    }
    for (int k = goal_pegs_; k <= k0_; ++k) {
      CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
      for (const Pos& x : path_[static_cast<std::size_t>(k)].vec()) {
        ++lv.on_path_sym;
        lv.on_path_raw += static_cast<std::uint64_t>(orbit_size(x));
      }
    }
    r.on_path_done = true;
  }

  // Solutions up to the census group (paths.hpp).
  void up_to_symmetry(CensusResult& r) {
    r.solutions_up_to_symmetry = solutions_up_to_symmetry(
        g_, syms_, start_, goal_pegs_, r.solutions, [&](const Pos& x) { return is_goal(x); });
  }

  // Solutions up to reordering of independent jumps (paths.hpp), over the stored solution paths.
  void distinct(CensusResult& r) {
    // The backward pass always ran: the levels are stored whenever the count is asked for.
    count_distinct(
        r, o_, true, g_, start_, goal_pegs_, k0_, mem_, run_.control,
        [&](const Pos& x, int k) {
          const auto& v = path_[static_cast<std::size_t>(k)].vec();
          return std::binary_search(v.begin(), v.end(), canon(x));
        },
        [&](const Pos& x) { return is_goal(x); });
  }

  const Problem& p_;
  const CensusOptions& o_;
  const Board& b_;
  Geometry<W> g_;
  RunControl run_;
  Memory mem_;
  int workers_ = 1;
  WorkerPool team_;  // the run's threads, for every level of both passes
  std::vector<int> syms_;
  std::vector<Pos> sym_jump_;  // [symmetry index in syms_][jump]
  Pos start_, goal_pos_;
  int goal_pegs_ = 1, k0_ = 0;
  std::vector<Booked<Pos>> stored_, path_;
  std::uint64_t positions_ = 0;
  Progress progress_{o_, run_.control, mem_};  // the run's clock and progress
};

template <int W>
CensusResult run_census(const Problem& p, const CensusOptions& o) {
  Engine<W> e(p, o);
  return e.run();
}

}  // namespace
}  // namespace census_detail

CensusResult census(const Problem& p, const CensusOptions& o) {
  const Board& b = *p.board;
  if (b.size() > 64)
    throw InputError("census: board " + b.name() + " has " + std::to_string(b.size()) +
                     " holes; the exact census handles boards of up to 64 holes");
  const bool compact = b.width() == 64 && o.engine != CensusEngine::Wide;
  if ((o.engine == CensusEngine::Compact || o.engine == CensusEngine::CompactPortable) && !compact)
    throw InputError("census: board " + b.name() + " needs a " + std::to_string(b.width()) +
                     "-bit layout; the compact engine takes layouts of up to 64 bits");
  if (!compact && b.width() != 64 && b.width() != 128)
    throw InputError("census: board " + b.name() + " needs a " + std::to_string(b.width()) +
                     "-bit layout; the census is built for layouts of up to 128 bits");
  CensusResult r;
  try {
    if (compact) return census_detail::compact_census(p, o);
    r = with_width<128>(
        b.width(), [&](auto w) { return census_detail::run_census<decltype(w)::value>(p, o); });
  } catch (const std::bad_alloc&) {
    // The machine (or `ulimit -v`) refused memory before the limit was reached: a memory stop
    // with nothing settled.
    CensusResult s;
    s.levels.resize(static_cast<std::size_t>(b.size()) + 1);
    s.solutions_by_hole.assign(static_cast<std::size_t>(b.size()), 0);
    s.p_by_hole.assign(static_cast<std::size_t>(b.size()), 0.0);
    s.width = b.width();
    s.stop = StopReason::Memory;
    s.stop_note = "an allocation failed before the memory limit was reached";
    return s;
  }
  // The wide engine always carries the chance; it reports it only when asked.
  r.random_player = census_detail::reports_chances(p, o);
  if (!r.random_player) {
    r.p_one_peg = r.p_goal = 0;
    std::fill(r.p_by_hole.begin(), r.p_by_hole.end(), 0.0);
  }
  return r;
}

}  // namespace pegsol
