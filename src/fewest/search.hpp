// SPDX-License-Identifier: MIT
// The fewest-moves level pass: the bidirectional search between starts and goals over
// (moves, landing holes) states, its beam, its meeting and its path, its level files. One class
// of one idea, large because its parts (the expansion by shards and threads, spilling, the level
// files, the join, the path walk) all work on its levels under its one memory budget.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../core/control_access.hpp"
#include "../core/pool.hpp"
#include "bound.hpp"
#include "key_geometry.hpp"
#include "keys.hpp"
#include "level_file.hpp"
#include "level_map.hpp"
#include "mapped.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "ranks.hpp"
#include "spill.hpp"
#include "state.hpp"

namespace pegsol::fewest_detail {

// The bytes a search's tables and buffers may hold: the control's memory budget (kFewestMemory
// when it has none) less what the process holds besides (its code, stacks and small allocations: a
// quarter of the budget, at most 32 MiB, and at least 16 MiB past a budget of 32 MiB, since the
// program and its libraries alone are some 10 MiB resident), so that the process keeps within
// the budget.
inline std::size_t tables_budget(const FewestOptions& o) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const std::size_t all =
      o.control && o.control->memory_budget() ? o.control->memory_budget() : kFewestMemory;
  std::size_t besides = std::min(all / 4, 32 * kMiB);
  if (all > 32 * kMiB) besides = std::max(besides, 16 * kMiB);
  return all - besides;
}

// The first word of a level file (Search::write_frontier): "PEGFEWL2", levels sharded by mix().
// "PEGFEWL1" marks the files of the mixer before 2026-11-27: their shards are not this build's,
// so a resume makes their pass again (the state's floor and best solution stand).
constexpr std::uint64_t kLevelTag = 0x324c574546474550ull;     // "PEGFEWL2"
constexpr std::uint64_t kOldLevelTag = 0x314c574546474550ull;  // "PEGFEWL1"

// Whether the file at `path` is a level file of the mixer before (kOldLevelTag).
inline bool old_level_file(const std::string& path) {
  std::uint64_t tag = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  const bool read = std::fread(&tag, sizeof tag, 1, f) == 1;
  std::fclose(f);
  return read && tag == kOldLevelTag;
}

// A state looked up in a level: its cost and L in the frame of the position asked for.
template <int W>
struct State {
  std::uint32_t cost = kNoCost;
  Bits<W> land;
};

// A child waiting for its merge.
template <int W>
struct alignas(W >= 128 ? 16 : 8) Child {  // 16: as the unsigned __int128 keys before
  Bits<W> key, land;
  std::uint32_t cost;
  std::uint32_t low;  // the low 32 bits of mix(key), made with the shard: the merge's slot
};
static_assert(sizeof(Child<64>) == 24 && sizeof(Child<128>) == 48);  // `low` fills the padding

// The bidirectional level pass between a set of starts (all with the same peg count) and a set of
// goals (all with the same peg count).
template <int W>
class Search {
 public:
  // With a bound, positions whose cost plus bound exceeds `limit` are dropped.
  Search(const KeyGeometry<W>& geo, const FewestOptions& o, const Bound<W>* bound = nullptr,
         std::uint32_t limit = kNoCost)
      : geo_(geo),
        o_(o),
        bound_(bound),
        limit_(bound ? limit : kNoCost),
        fwd_(static_cast<std::size_t>(geo.n + 1)),
        bwd_(static_cast<std::size_t>(geo.n + 1)),
        threads_(o.threads > 0 ? o.threads : default_threads()),
        out_(static_cast<std::size_t>(threads_),
             std::vector<std::vector<Child<W>>>(static_cast<std::size_t>(Level<W>::kShards))),
        away_(static_cast<std::size_t>(threads_)),
        read_(static_cast<std::size_t>(threads_)),
        dropped_(static_cast<std::size_t>(threads_), kNoCost) {
    // The bound's tables are held beside the search's, under the same budget.
    budget_ = tables_budget(o);
    if (bound) budget_ -= std::min(budget_ / 2, bound->bytes());
    ledger_.limit = o.spill_limit;
    if (geo.jumps.size() > kMaxJumps) throw std::logic_error("fewest moves: too many jumps");
  }

  // Spreads the pass's levels over `ranks` (before seed(); collective from then on): this
  // process holds the positions owner_of() gives it. A spread pass never releases or spills
  // its levels.
  void spread_over(FewestRanks* ranks) {
    if (!ranks || ranks->size() == 1) return;
    ranks_ = ranks;
    for (auto& a : away_) a.resize(static_cast<std::size_t>(ranks->size()));
  }

  void seed(const std::vector<Bits<W>>& starts, const std::vector<Bits<W>>& goals) {
    fl_ = starts.front().count();
    bh_ = goals.front().count();
    for (Bits<W> s : starts) insert(level(fwd_, fl_), s, 0, {});
    for (Bits<W> g : goals) insert(level(bwd_, bh_), g, 0, {});
    top_ = fl_;
    bottom_ = bh_;
  }

  // Runs the pass until the sides meet; returns the fewest moves, or -1 when no solution exists.
  int run() {
    may_release_ = !spread();
    while (fl_ > bh_) {
      const std::vector<std::array<std::size_t, 2>> sizes = gather(
          ranks(), std::array<std::size_t, 2>{level(fwd_, fl_).size(), level(bwd_, bh_).size()});
      std::size_t fs = 0, bs = 0;
      for (const auto& z : sizes) {
        fs += z[0];
        bs += z[1];
      }
      if (fs == 0 || bs == 0) {
        agree_dropped();
        return -1;
      }
      const bool backward = fs > bs;
      if (backward)
        expand_backward();
      else
        expand_forward();
      report(false);
      if (on_level && fl_ > bh_) on_level(backward);
    }
    return join();
  }

  // A beam down the forward side alone: each level cut to the `width` positions of least cost
  // plus bound. Returns the moves of the solution it finds (path() gives it), or -1.
  int run_beam(std::size_t width) {
    while (fl_ > bh_) {
      if (level(fwd_, fl_).size() == 0) return -1;
      expand_forward();
      Level<W>& lv = level(fwd_, fl_);
      if (lv.size() > width) {
        const std::size_t cut_bytes = lv.size() * sizeof(std::pair<std::uint32_t, Entry<W>>);
        grow(cut_bytes);  // the cut's array, booked while it lives
        struct Unbook {
          Search<W>& s;
          std::size_t n;
          ~Unbook() { s.bytes_ -= n; }
        } unbook{*this, cut_bytes};
        // Each shard's positions ranked into its own part of the array, on the threads.
        std::vector<std::pair<std::uint32_t, Entry<W>>> all(lv.size());
        std::array<std::size_t, Level<W>::kShards + 1> at{};
        for (std::size_t d = 0; d < Level<W>::kShards; ++d) at[d + 1] = at[d] + lv.shard(d).size();
        each_shard(threads_for(lv.size()), [&](std::size_t d) {
          std::size_t i = at[d];
          lv.shard(d).for_each([&](const Entry<W>& e) {
            all[i++] = {e.cost() + static_cast<std::uint32_t>(bound_->forward(e.key, e.land())), e};
          });
        });
        auto less = [](const auto& a, const auto& b) {
          return a.first != b.first ? a.first < b.first : a.second.key < b.second.key;
        };
        std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(width), all.end(),
                         less);
        release(lv);
        for (std::size_t i = 0; i < width; ++i) {
          const Entry<W>& e = all[i].second;
          merge(lv.shard(Level<W>::shard_of(e.key)), e.key, e.cost(), e.land());
        }
      }
      report(false);
    }
    return join();
  }

  // The least cost any solution has, from the levels done so far. Under a limit the levels
  // hold only the solutions within it; every other one costs more than the limit.
  int lower_bound() const {
    int f = fmin_, b = bmin_;
    int lb = std::max({f, b, f + b - 1});
    if (top_ > bottom_) lb = std::max(lb, 1);
    if (limit_ != kNoCost) lb = std::min(lb, static_cast<int>(limit_) + 1);
    return lb;
  }

  // The least cost plus bound of a dropped position (kNoCost: none was dropped). Every solution
  // the pass did not see costs at least this much.
  std::uint32_t dropped() const { return *std::min_element(dropped_.begin(), dropped_.end()); }

  std::uint64_t positions() const { return positions_; }
  std::uint64_t spill_peak() const { return ledger_.peak.load(); }

  // Whether the pass released levels it had expanded: its bounds stand, but path() cannot
  // walk a solution back.
  bool released() const { return released_; }
  // A position where run() found its answer (canonical form): one whose two sides' costs add up
  // to it when there is one, so that any fewest path to it and any from it join into a solution
  // with that many moves, and otherwise the answer's own (a move crosses it).
  Bits<W> meeting() const {
    const std::uint32_t best = meet_fcost_ + meet_bcost_ - (meet_hole_ >= 0 ? 1 : 0);
    return plain_cost_ == best ? plain_meet_ : meet_;
  }
  // Releases every level (the pass is over).
  void release_all() {
    for (Level<W>& lv : fwd_) release(lv);
    for (Level<W>& lv : bwd_) release(lv);
  }

  // Called after each level the pass makes (true: a backward one), for checkpoints.
  std::function<void(bool)> on_level;

  // Writes one side's last level to `path` (a level file, level_file.hpp), flushed to disk: made
  // as path's ".part" and renamed. A level made into that ".part" (groups of shards made with
  // checkpoints on) gets the blocks of the shards it lacks and its end; any other is written
  // whole, a shard at a time in key order (a shard still in slots sorted apart, booked).
  void write_frontier(bool backward, const std::string& path) {
    Level<W>& lv = backward ? level(bwd_, bh_) : level(fwd_, fl_);
    const std::string part = part_name(path);
    std::shared_ptr<SpillFile> f = lv.file();
    if (!f || f->path() != part) {  // a file of its own (never the ".part" a state may name)
      f = std::make_shared<SpillFile>(path + ".new", ledger_, SpillFile::Named{}, 0);
      write_file_head<W>(*f, Level<W>::kShards);
    }
    if (f == making_file_) sync_making_blocks(lv);
    std::vector<Entry<W>> buf;
    for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
      const LevelMap<W>& m = lv.shard(d);
      if (m.in_file(f.get())) continue;
      o_.control->throw_if_stopped();  // a stop leaves the file to the caller to remove
      BlockWriter<W> w(*f, d);
      if (m.sorted()) {
        for (std::size_t b = 0; b < m.size(); b += LevelMap<W>::kChunk) {
          o_.control->throw_if_stopped();
          m.for_range(
              b, std::min(m.size(), b + LevelMap<W>::kChunk), [&](const Entry<W>& e) { w.add(e); },
              buf);
        }
      } else {
        const std::size_t copy = m.size() * sizeof(Entry<W>);
        grow(copy);  // the shard's entries sorted apart, booked while they live
        struct Unbook {
          Search<W>& s;
          std::size_t n;
          ~Unbook() { s.bytes_ -= n; }
        } unbook{*this, copy};
        std::vector<Entry<W>> all;
        all.reserve(m.size());
        m.for_each([&](const Entry<W>& e) { all.push_back(e); });
        std::sort(all.begin(), all.end(),
                  [](const Entry<W>& a, const Entry<W>& b) { return a.key < b.key; });
        w.add(all.data(), all.size());
      }
      w.finish();
    }
    write_file_end(*f, Level<W>::kShards, lv.size());
    if (!f->sync() || !f->rename_to(path))
      throw InputError("checkpoint " + path + ": cannot write it (" + std::strerror(errno) + ")");
    if (f == making_file_) making_file_.reset();
  }

  // The ".part" beside a level file's name, where it is made.
  static std::string part_name(const std::string& level_path) {
    const std::string tail = ".level";
    if (level_path.size() > tail.size() &&
        level_path.compare(level_path.size() - tail.size(), tail.size(), tail) == 0)
      return level_path.substr(0, level_path.size() - tail.size()) + ".part";
    return level_path + ".part";
  }

  // Makes the levels of this pass into files of `dir` (a checkpoint directory) as they are made
  // in groups of shards (spilling), so that a level part made can be saved (sync_making()).
  void set_level_dir(const std::string& dir) { level_dir_ = dir; }

  // Called after each group of shards of a level made (true: a backward level), for
  // checkpoints inside a level (sync_making()).
  std::function<void(bool)> on_group;

  // The level part made, flushed to disk (its shards done as blocks of its file, the file
  // synced), for a state's `making` line; off when no level is being made into a file.
  MakingState sync_making() {
    MakingState mk;
    if (!making_file_ || done_ == 0) return mk;
    Level<W>& dst = making_backward_ ? level(bwd_, making_pegs_) : level(fwd_, making_pegs_);
    sync_making_blocks(dst);
    if (!making_file_->sync())
      throw InputError("checkpoint " + making_file_->path() + ": cannot flush it (" +
                       std::strerror(errno) + ")");
    mk.on = true;
    mk.backward = making_backward_;
    mk.pegs = making_pegs_;
    mk.done = done_;
    mk.groups = groups_;
    const std::string& path = making_file_->path();
    mk.file = path.substr(path.rfind('/') + 1);
    mk.bytes = making_file_->size();
    return mk;
  }

  // Takes up a level part made (after restore()): its shards done adopted from its file (read
  // in place when spilling, else into tables), the rest made by the next expansion. Throws
  // InputError naming the file when it is missing, short or damaged.
  void restore_making(const MakingState& mk, const std::string& dir) {
    const int want = mk.backward ? bh_ + 1 : fl_ - 1;
    if (mk.pegs != want || mk.done == 0 || mk.done > kAllShards)
      throw InputError("FewestOptions::resume",
                       dir + ": the state's level part made does not follow its pass");
    std::string path = dir + "/" + mk.file;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {  // made whole and renamed before the kill
      const std::string whole = path.substr(0, path.size() - 5) + ".level";
      if (path.size() > 5 && path.compare(path.size() - 5, 5, ".part") == 0 &&
          ::stat(whole.c_str(), &st) == 0)
        path = whole;
      else
        throw InputError("FewestOptions::resume", "the level file " + path + " is missing");
    }
    if (static_cast<std::uint64_t>(st.st_size) < mk.bytes)
      throw InputError("FewestOptions::resume",
                       "the level file " + path + " is cut short (" + std::to_string(st.st_size) +
                           " bytes, the state names " + std::to_string(mk.bytes) + ")");
    Level<W>& dst = mk.backward ? level(bwd_, mk.pegs) : level(fwd_, mk.pegs);
    std::shared_ptr<SpillFile> f =
        spilling() ? std::make_shared<SpillFile>(path, ledger_, SpillFile::Named{}, mk.bytes)
                   : std::make_shared<SpillFile>(path, ledger_, SpillFile::InPlace{});
    const std::uint64_t before = positions_;
    std::function<void(std::size_t, const Entry<W>&)> each;
    if (!spilling())
      each = [&](std::size_t d, const Entry<W>& e) {
        merge(dst.shard(d), e.key, e.cost(), e.land());
      };
    std::vector<FoundBlock<W>> blocks = read_blocks<W>(*f, path, Level<W>::kShards, mk.bytes, each,
                                                       [&] { o_.control->throw_if_stopped(); });
    for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
      const bool done = mk.done >> d & 1;
      if (done != blocks[d].found)
        throw InputError("FewestOptions::resume",
                         "the level file " + path + " does not hold the shards its state names");
      if (done && spilling())
        dst.shard(d).adopt(f, std::move(blocks[d].chunks), blocks[d].count, false);
    }
    positions_ = before;
    done_ = written_ = mk.done;
    groups_ = mk.groups;
    making_backward_ = mk.backward;
    making_pegs_ = mk.pegs;
    if (spilling()) {
      making_file_ = f;
      dst.set_file(f);
    }
  }

  // The pass part way, for a checkpoint (the file names are the caller's).
  PassState pass_state() const {
    PassState ps;
    ps.on = true;
    ps.limit = static_cast<int>(limit_);
    ps.fl = fl_;
    ps.bh = bh_;
    ps.fmin = fmin_;
    ps.bmin = bmin_;
    ps.dropped = dropped();
    ps.positions = positions_;
    return ps;
  }

  // Goes on with a pass saved part way (instead of seed()): its last levels read back from the
  // files `ps` names in `dir`. The levels before them are gone, so a meeting's solution is
  // rebuilt by searches of its own. Throws InputError when a file is missing or damaged.
  void restore(const PassState& ps, const std::string& dir) {
    may_release_ = !spread();  // as run() will: spilling() from here
    fl_ = top_ = ps.fl;
    bh_ = bottom_ = ps.bh;
    fmin_ = ps.fmin;
    bmin_ = ps.bmin;
    dropped_[0] = ps.dropped;
    read_frontier(level(fwd_, fl_), dir + "/" + ps.ffile);
    read_frontier(level(bwd_, bh_), dir + "/" + ps.bfile);
    positions_ = ps.positions;
    released_ = true;
  }

  // The moves of a solution known before the pass, for the progress reports.
  void set_best_found(int moves) { best_found_ = moves; }
  // A lower bound proven before the pass, for the progress reports.
  void set_floor(int moves) { floor_ = moves; }

  // The jumps of a solution of `best` moves through the meeting position found by run().
  std::vector<Jump> path() {
    std::vector<Jump> front = side_path<false>(meet_, meet_fcost_, meet_hole_);
    std::vector<Jump> back = side_path<true>(meet_, meet_bcost_, meet_hole_);
    front.insert(front.end(), back.begin(), back.end());
    return front;
  }

 private:
  // Reads a level file into `lv`: spilling, its shards stay in the file (in key order, read in
  // place: no copy, no memory), else into tables. Every chunk is read and the digests checked
  // either way; a stop ends the reading within a chunk. Reads the files before 2026-11-29
  // ("PEGFEWL2", plain entries) as well as the coded ones.
  void read_frontier(Level<W>& lv, const std::string& path) {
    if (::access(path.c_str(), F_OK) != 0)
      throw InputError("FewestOptions::resume", "the level file " + path + " is missing");
    auto f = std::make_shared<SpillFile>(path, ledger_, SpillFile::InPlace{});
    auto bad = [&](const std::string& why) {
      return InputError("FewestOptions::resume", "the level file " + path + " " + why);
    };
    std::uint64_t tag = 0;
    try {
      f->read(0, &tag, sizeof tag);
    } catch (const std::runtime_error&) {
      throw bad("is cut short");
    }
    if (tag == kLevelTag3) {
      std::function<void(std::size_t, const Entry<W>&)> each;
      if (!spilling())
        each = [&](std::size_t d, const Entry<W>& e) {
          merge(lv.shard(d), e.key, e.cost(), e.land());
        };
      std::vector<FoundBlock<W>> blocks = read_blocks<W>(*f, path, Level<W>::kShards, 0, each,
                                                         [&] { o_.control->throw_if_stopped(); });
      if (spilling())
        for (std::size_t d = 0; d < Level<W>::kShards; ++d)
          lv.shard(d).adopt(f, std::move(blocks[d].chunks), blocks[d].count, false);
      return;
    }
    std::uint64_t head[3 + Level<W>::kShards];
    try {
      f->read(0, head, sizeof head);
    } catch (const std::runtime_error&) {
      throw bad("is cut short");
    }
    if (head[0] != kLevelTag || head[1] != sizeof(Entry<W>) || head[2] != Level<W>::kShards)
      throw bad("is not a level of this build's search");
    std::uint64_t digest = 0, at = sizeof head;
    std::vector<Entry<W>> buf(LevelMap<W>::kChunk);
    for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
      LevelMap<W>& m = lv.shard(d);
      const std::size_t count = head[3 + d];
      std::vector<DiskChunk<W>> chunks;
      for (std::size_t done = 0; done < count;) {
        o_.control->throw_if_stopped();
        const std::size_t n = std::min(buf.size(), count - done);
        try {
          f->read(at, buf.data(), n * sizeof(Entry<W>));
        } catch (const std::runtime_error&) {
          throw bad("is cut short");
        }
        chunks.push_back({at, static_cast<std::uint32_t>(n * sizeof(Entry<W>)), buf[0].key});
        for (std::size_t k = 0; k < n; ++k) {
          digest = entry_digest<W>(digest, buf[k]);
          if (!spilling()) merge(m, buf[k].key, buf[k].cost(), buf[k].land());
        }
        done += n;
        at += n * sizeof(Entry<W>);
      }
      if (spilling()) m.adopt(f, std::move(chunks), count, true);
    }
    std::uint64_t stored = 0;
    try {
      f->read(at, &stored, sizeof stored);
    } catch (const std::runtime_error&) {
      throw bad("is cut short");
    }
    if (stored != digest) throw bad("does not match its digest (damaged)");
  }

  // The blocks of the making level's shards done that its file lacks (the empty ones too).
  void sync_making_blocks(Level<W>& lv) {
    for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
      if (!(done_ >> d & 1) || (written_ >> d & 1)) continue;
      LevelMap<W>& m = lv.shard(d);
      if (m.in_file(making_file_.get())) continue;
      if (m.size() > 0 && m.sorted() && !m.on_disk()) {
        const std::size_t before = m.bytes();
        m.spill(making_file_, d);
        bytes_ -= before - m.bytes();
        continue;
      }
      BlockWriter<W> w(*making_file_, d);
      std::vector<Entry<W>> buf;
      for (std::size_t b = 0; b < m.size(); b += LevelMap<W>::kChunk)
        m.for_range(
            b, std::min(m.size(), b + LevelMap<W>::kChunk), [&](const Entry<W>& e) { w.add(e); },
            buf);
      w.finish();
    }
    written_ |= done_;
  }

  static Level<W>& level(std::vector<Level<W>>& v, int k) { return v[static_cast<std::size_t>(k)]; }
  static const Level<W>& level(const std::vector<Level<W>>& v, int k) {
    return v[static_cast<std::size_t>(k)];
  }

  // Counts `more` bytes against the budget (from any thread).
  // f(t) for t in [0, threads): on the pool's threads, or on the calling thread alone for one.
  void on_threads(int threads, const std::function<void(int)>& f) {
    if (threads == 1)
      f(0);
    else
      pool_->run(threads, f);
  }
  // The threads for a job over `n` positions: the calling thread alone below
  // FewestOptions::shared_level, where waking the pool would cost more than it saves; under a
  // budget of kRoomyBudget or more, below a quarter of it (the first beam's levels are shared
  // then), since the second thread's own heap, a few MiB not booked against the budget, fits in
  // the room the budget leaves beside the tables (tables_budget()).
  int threads_for(std::size_t n) {
    const std::size_t least = budget_ >= kRoomyBudget ? o_.shared_level / 4 : o_.shared_level;
    if (threads_ == 1 || n < least) return 1;
    if (!pool_) pool_.emplace(threads_);
    return threads_;
  }
  // f(d) for every shard d, each thread its own shards (d = t, t + threads, ...).
  void each_shard(int threads, const std::function<void(std::size_t)>& f) {
    on_threads(threads, [&](int t) {
      for (auto d = static_cast<std::size_t>(t); d < Level<W>::kShards;
           d += static_cast<std::size_t>(threads))
        f(d);
    });
  }

  void grow(std::size_t more) {
    if (bytes_.fetch_add(more) + more > budget_) {
      bytes_ -= more;
      throw Stopped(StopReason::Memory);
    }
  }

  // Merges into one shard, keeping the byte and position counts.
  void merge(LevelMap<W>& m, Bits<W> key, std::uint32_t cost, Bits<W> land) {
    merge(m, Child<W>{key, land, cost, static_cast<std::uint32_t>(mix(key))});
  }
  void merge(LevelMap<W>& m, const Child<W>& c) {
    std::size_t before = m.size(), old_bytes = m.bytes();
    m.merge_hashed(c.key, c.low, c.cost, c.land, [&](std::size_t b) { grow(b); });
    if (m.bytes() != old_bytes) bytes_ -= old_bytes;
    positions_ += m.size() - before;
  }

  void insert(Level<W>& lv, Bits<W> pegs, std::uint32_t cost, Bits<W> land) {
    auto [key, l] = geo_.canonical(pegs, land);
    if (spread() && owner_of(mix(key), ranks_->size()) != ranks_->rank()) return;
    merge(lv.shard(Level<W>::shard_of(key)), key, cost, l);
  }

  // f(e) for every entry of `lv`, shard by shard, a chunk at a time (read from disk when
  // spilled): a stop ends the walk between chunks.
  template <class F>
  void for_each_entry(const Level<W>& lv, F&& f) const {
    std::vector<Entry<W>> buf;
    for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
      const LevelMap<W>& m = lv.shard(d);
      for (std::size_t b = 0; b < m.capacity(); b += LevelMap<W>::kChunk) {
        o_.control->throw_if_stopped();
        m.for_range(b, std::min(m.capacity(), b + LevelMap<W>::kChunk), f, buf);
      }
    }
  }

  // The least cost of a level (a walk of it, from disk when spilled).
  std::uint32_t min_cost(const Level<W>& lv) const {
    std::uint32_t c = kNoCost;
    for_each_entry(lv, [&](const Entry<W>& e) { c = std::min(c, e.cost()); });
    return c;
  }

  // Every child of the level `src` into `dst`: Backward takes jumps back. The parent's images
  // under the group are made once; each child's come from them by the jump's images. Rounds of
  // one slot range per thread: the threads make the children of their ranges, sorted by the
  // destination shard, then merge them, each thread its own shards.
  template <bool Backward>
  void expand(const Level<W>& src, Level<W>& dst) {
    made_least_.fill(kNoCost);
    made_whole_ = false;
    if (!spilling()) {
      expand_group<Backward>(src, dst, kAllShards);
      made_whole_ = true;
      const double r = static_cast<double>(dst.size()) / static_cast<double>(src.size() + 1);
      // The next level's growth: this one's, falling as it fell from the one before.
      grew_[Backward] = grown_[Backward] > 0 ? r * std::min(1.0, r / grown_[Backward]) : r;
      grown_[Backward] = r;
      return;
    }
    // Spilling: the destination's shards in groups, each made by a walk of the whole source,
    // sorted, and written to disk with every other sorted level once memory runs short. A
    // group that outgrows the budget is made again in two halves (the walks' children are the
    // same, so the level is too).
    if (o_.spill_always) groups_ = Level<W>::kShards;
    if (o_.spill_always || bytes_ > budget_ / 2) spill_all();
    const int pegs = Backward ? bh_ + 1 : fl_ - 1;
    if (done_ != 0 && (making_backward_ != Backward || making_pegs_ != pegs))
      throw std::logic_error("fewest moves: the level part made is not the level to make");
    if (!level_dir_.empty() &&
        (!making_file_ || making_pegs_ != pegs || making_backward_ != Backward)) {
      // Made into a file of the checkpoint directory (a level made again after a release goes
      // on in its file: a state may name its first bytes).
      const std::string path = level_dir_ + "/" + (Backward ? "b." : "f.") +
                               std::to_string(static_cast<int>(limit_)) + "." +
                               std::to_string(pegs) + ".part";
      making_file_ = std::make_shared<SpillFile>(path, ledger_, SpillFile::Named{}, 0);
      write_file_head<W>(*making_file_, Level<W>::kShards);
      written_ = 0;
      making_backward_ = Backward;
      making_pegs_ = pegs;
    }
    if (making_file_ && making_pegs_ == pegs && making_backward_ == Backward)
      dst.set_file(making_file_);
    std::vector<std::uint32_t> todo;
    const int per = Level<W>::kShards / groups_;
    for (int g = groups_ - 1; g >= 0; --g) {
      const std::uint32_t group = (((std::uint32_t{1} << per) - 1) << (g * per)) & ~done_;
      if (group) todo.push_back(group);
    }
    while (!todo.empty()) {
      const std::uint32_t group = todo.back();
      todo.pop_back();
      try {
        expand_group<Backward>(src, dst, group);
        for (std::size_t d = 0; d < Level<W>::kShards; ++d)
          if (group >> d & 1) compact(dst.shard(d));
      } catch (const Stopped& e) {
        if (e.reason != StopReason::Memory) throw;
        for (std::size_t d = 0; d < Level<W>::kShards; ++d)
          if (group >> d & 1) {
            positions_ -= dst.shard(d).size();
            bytes_ -= dst.shard(d).bytes();
            dst.shard(d).clear();
          }
        for (auto& t : out_)
          for (std::vector<Child<W>>& v : t) v.clear();
        if (spill_all() > 0) {  // room made on disk: the same group again
          todo.push_back(group);
          continue;
        }
        const int n = std::popcount(group);
        if (n == 1) throw;
        const std::uint32_t low = group & ~(group - 1);
        std::uint32_t half = 0;
        for (int k = 0; k < n / 2; ++k) half |= low << k;
        todo.push_back(group & ~half);
        todo.push_back(half);
        groups_ = std::max(groups_, Level<W>::kShards * 2 / n);
        continue;
      }
      if (o_.spill_always || bytes_ > budget_ / 2) spill_all();
      done_ |= group;
      if (on_group && done_ != kAllShards) on_group(Backward);
    }
    done_ = 0;  // the level is whole (its file, if any, is made whole by write_frontier())
  }

  static constexpr std::uint32_t kAllShards = (std::uint32_t{1} << Level<W>::kShards) - 1;
  // The tables' budget from which smaller levels are shared by the threads (threads_for()).
  static constexpr std::size_t kRoomyBudget = std::size_t{256} << 20;
  // The most jumps a board has (eight directions from each of at most 128 holes): room for a
  // parent's legal jumps in children().
  static constexpr std::size_t kMaxJumps = 8 * kWidestKeys;

  bool spilling() const { return may_release_ && !o_.spill_dir.empty(); }

  // Writes every sorted level held in memory to disk. Returns the bytes freed.
  // Writes every sorted level held in memory to disk. Returns the bytes freed. A stop ends it
  // between shards (each shard is whole in memory or on disk).
  std::size_t spill_all() {
    std::size_t freed = 0;
    const auto stop = [&] { return o_.control->should_stop(); };
    for (auto* side : {&fwd_, &bwd_})
      for (Level<W>& lv : *side) freed += lv.spill(o_.spill_dir, ledger_, stop);
    bytes_ -= freed;
    o_.control->throw_if_stopped();
    return freed;
  }

  // Expands `src` into the shards of `dst` in `group` (a bit per shard): children of the
  // other shards are made and dropped.
  template <bool Backward>
  void expand_group(const Level<W>& src, Level<W>& dst, std::uint32_t group) {
    // Small levels on the calling thread: waking the pool would cost more than it saves.
    const int threads = threads_for(src.size());
    // The shards' first room, on the threads (the system zeroes the pages as they are mapped):
    // for as many positions as the source holds, or, in memory under a roomy budget, as many
    // as the side's growth foretells (a table grown by doubling maps and fills each size on
    // the way, and fresh pages cost much in this VM).
    std::size_t expect = src.size();
    if (grew_[Backward] > 1 && !spilling() && budget_ >= kRoomyBudget) {
      const auto more = static_cast<std::size_t>(static_cast<double>(src.size()) * grew_[Backward]);
      // At most a quarter of the room left, at the tables' most sparse (5/16 full).
      if (more * sizeof(Entry<W>) * 16 / 5 <= (budget_ - std::min(budget_, bytes_.load())) / 4)
        expect = more;
    }
    guard([&] {
      each_shard(threads, [&](std::size_t d) {
        if (!(group >> d & 1)) return;
        LevelMap<W>& m = dst.shard(d);
        std::size_t old_bytes = m.bytes();
        m.reserve(expect / Level<W>::kShards + 1, [&](std::size_t b) { grow(b); });
        if (m.bytes() != old_bytes) bytes_ -= old_bytes;
      });
    });
    struct Unit {
      std::size_t shard, begin, end;
    };
    constexpr std::size_t kRange = std::size_t{1} << 14;
    std::vector<Unit> units;
    for (std::size_t sh = 0; sh < Level<W>::kShards; ++sh)
      for (std::size_t b = 0; b < src.shard(sh).capacity(); b += kRange)
        units.push_back({sh, b, std::min(src.shard(sh).capacity(), b + kRange)});
    const auto nt = static_cast<std::size_t>(threads);
    std::size_t rounds = (units.size() + nt - 1) / nt;
    if (spread()) {  // as many rounds on every process: each is an exchange
      agree();
      for (std::size_t n : gather(*ranks_, rounds)) rounds = std::max(rounds, n);
    }
    for (std::size_t u0 = 0; u0 < rounds * nt; u0 += nt) {
      guard([&] {
        on_threads(threads, [&](int t) {
          auto ut = static_cast<std::size_t>(t);
          if (u0 + ut >= units.size()) return;
          o_.control->throw_if_stopped();
          const Unit& u = units[u0 + ut];
          children<Backward>(src.shard(u.shard), u.begin, u.end, out_[ut], away_[ut], dropped_[ut],
                             read_[ut], group);
        });
        book_buffers();
      });
      if (spread()) send_away();
      guard([&] {
        if (spread()) book_buffers();  // with the children other processes sent
        merge_round(dst, group, nt);
      });
    }
    if (spread()) agree();
  }

  // Runs f; on a spread pass, keeps its exception (or the one before it) for the next agree(), so
  // that a process that fails still takes part in the collective steps the others wait in.
  template <class F>
  void guard(F&& f) {
    if (!spread()) {
      f();
      return;
    }
    if (failure_) return;
    try {
      f();
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  // Collective: throws on every process when one failed or is to stop (FewestRanks::agree).
  void agree() { ranks_->agree(std::exchange(failure_, nullptr)); }

  // Collective: every process's children of the round that others hold go to them; those it
  // receives join its own, by shard, in out_[0].
  void send_away() {
    agree();
    const auto k = static_cast<std::size_t>(ranks_->size());
    std::vector<std::span<const std::byte>> parts(k);
    for (std::size_t r = 0; r < k; ++r) {
      std::vector<Child<W>>& v = away_[0][r];
      for (std::size_t q = 1; q < away_.size(); ++q) {
        v.insert(v.end(), away_[q][r].begin(), away_[q][r].end());
        away_[q][r].clear();
      }
      parts[r] = std::as_bytes(std::span<const Child<W>>(v));
    }
    ranks_->all_to_all(parts, received_);
    for (auto& v : away_[0]) v.clear();
    // Copied out one by one: the bytes need not meet Child<W>'s alignment (16 for 128-bit keys,
    // more than operator new promises on 32-bit targets such as WebAssembly).
    static_assert(std::is_trivially_copyable_v<Child<W>>);
    for (std::size_t i = 0, n = received_.size() / sizeof(Child<W>); i < n; ++i) {
      Child<W> c;
      std::memcpy(&c, received_.data() + i * sizeof(Child<W>), sizeof(Child<W>));
      out_[0][Level<W>::shard_of(c.key)].push_back(c);
    }
  }

  // Merges the round's children into the shards of `dst` in `group`, each thread its own shards.
  // Each shard's least cost merged goes to made_least_[d]: the level's least cost once it is
  // made whole in memory (an entry keeps the least cost merged into it).
  void merge_round(Level<W>& dst, std::uint32_t group, std::size_t nt) {
    each_shard(static_cast<int>(nt), [&](std::size_t d) {
      if (!(group >> d & 1)) return;
      LevelMap<W>& m = dst.shard(d);
      std::uint32_t least = made_least_[d];
      for (std::size_t q = 0; q < nt; ++q) {
        std::vector<Child<W>>& v = out_[q][d];
        for (std::size_t k = 0; k < v.size(); ++k) {
          if (k + 8 < v.size()) m.prefetch(v[k + 8].low);
          least = std::min(least, v[k].cost);
          merge(m, v[k]);
        }
        v.clear();
      }
      made_least_[d] = least;
    });
  }

  // The children of the entries [begin, end) of `src` (read through `buf` from disk) for the
  // destination shards in `group`, by shard into `out`, or by process into `away` for those
  // another process holds.
  template <bool Backward>
  void children(const LevelMap<W>& src, std::size_t begin, std::size_t end,
                std::vector<std::vector<Child<W>>>& out, std::vector<std::vector<Child<W>>>& away,
                std::uint32_t& dropped, std::vector<Entry<W>>& buf, std::uint32_t group) const {
    const int ranks = spread() ? ranks_->size() : 1, me = spread() ? ranks_->rank() : 0;
    const std::size_t nj = geo_.jumps.size();
    const int gs = geo_.group_size();
    const Bits<W>* all = geo_.all.data();
    // A jump is legal when the position holds exactly this much of its three holes: its from
    // and over holes forward, its to hole taken back.
    const Bits<W>* want = Backward ? geo_.t.data() : geo_.fo.data();
    const Jump* jumps = geo_.jumps.data();
    const Bits<W>* jump_image = geo_.jump_image.data();
    const Bits<W>* hole_image = geo_.hole_image.data();
    const int* into = geo_.into.data();
    const Bits<W>* into_fo = geo_.into_fo.data();
    const int* into_begin = geo_.into_begin.data();
    const Bits<W> full = geo_.full;
    // The legal jumps are found by one branch-free walk of every jump when the holes a jump
    // can go into (forward the empty ones, taken back the pegs) are a quarter of the board or
    // more, else through the jumps into each of those holes (few there: near the start forward,
    // near the goal backward). The source level's pegs say which (every parent has as many).
    const int pegs_here = Backward ? bh_ : fl_;
    const bool walk_all = 4 * (Backward ? pegs_here : geo_.n - pegs_here) >= geo_.n;
    // Or, on boards whose bounding box has at most 128 cells, by shifts (JumpGrid).
    const JumpGrid<W>* const grid = geo_.grid.usable() ? &geo_.grid : nullptr;
    const Bound<W>* const bound = bound_;
    const std::uint32_t limit = limit_;
    std::array<Bits<W>, 48> parent{};
    std::array<std::uint16_t, kMaxJumps> legal{};
    // The tables by value and the entry copied: the children's stores cannot alias them, so they
    // stay in registers.
    src.for_range(
        begin, end,
        [&, nj, gs, all, want, jumps, jump_image, hole_image, into, into_fo, into_begin, full,
         walk_all, grid, bound, limit](const Entry<W>& entry) {
          const Entry<W> e = entry;
          bool imaged = false;
          // Without a limit (the beam) a child is dropped only when it is on no solution.
          const typename Bound<W>::Pack family = !bound ? typename Bound<W>::Pack{}
                                                 : limit == kNoCost
                                                     ? bound->template values<Backward>(e.key)
                                                     : bound->template pack<Backward>(e.key);
          // The legal jumps' numbers into `legal`, then their children.
          const Bits<W> pegs = e.key;
          std::size_t n = 0;
          if (walk_all && grid) {
            n = grid->template legal<Backward>(pegs, legal.data());
          } else if (walk_all) {
            // Every jump's number stored, the count moved on by the legal ones: no branch to
            // mispredict (three candidates in four fail).
            // Four jumps a step: the loop's own test and count a quarter as often.
            std::size_t j = 0;
            const auto take = [&](std::size_t i) {
              legal[n] = static_cast<std::uint16_t>(i);
              n += (pegs & all[i]) == want[i];
            };
            for (; j + 4 <= nj; j += 4) {
              take(j);
              take(j + 1);
              take(j + 2);
              take(j + 3);
            }
            for (; j < nj; ++j) take(j);
          } else {
            // The jumps into each empty hole (forward) or each peg (taken back).
            for (Bits<W> holes = Backward ? pegs : ~pegs & full; holes.any(); holes.pop_lowest()) {
              const int h = holes.lowest();
              for (int k = into_begin[h]; k < into_begin[h + 1]; ++k) {
                const Bits<W> m = into_fo[k];
                if (Backward ? (pegs & m).none() : (pegs & m) == m)
                  legal[n++] = static_cast<std::uint16_t>(into[k]);
              }
            }
          }
          for (std::size_t i = 0; i < n; ++i) {
            const std::size_t j = legal[i];
            const Jump& jp = jumps[j];
            const int start = Backward ? jp.to : jp.from, land = Backward ? jp.from : jp.to;
            const std::uint32_t c = e.cost() + (e.land().test(start) ? 0 : 1);
            Bits<W> key = e.key ^ all[j], l = Bits<W>::single(land);
            if (bound && limit == kNoCost) {
              if (bound->dead(family, j)) continue;
            } else if (bound) {  // on the child as made: any frame bounds the same cost
              // A part of the bound that reaches the least cost dropped drops the child
              // without the rest: the least stays as it is.
              const int enough = dropped == kNoCost
                                     ? Bound<W>::kDead
                                     : static_cast<int>(dropped - std::min(dropped, c));
              const int bc = bound->template child<Backward>(family, key, jp, j, enough);
              if (bc >= Bound<W>::kDead) continue;  // on no solution, at any limit
              const auto f = c + static_cast<std::uint32_t>(bc);
              if (f > limit) {
                dropped = std::min(dropped, f);
                continue;
              }
            }
            if (gs > 1) {
              if (!imaged) {
                for (int g = 0; g < gs; ++g)
                  parent[static_cast<std::size_t>(g)] = geo_.image(g, e.key);
                imaged = true;
              }
              // The least image and the union of the landing hole's images under the elements
              // giving it, in one walk (key and l start as the identity's: the child as made).
              for (int g = 1; g < gs; ++g) {
                auto ug = static_cast<std::size_t>(g);
                const Bits<W> im = parent[ug] ^ jump_image[ug * nj + j];
                const Bits<W> hi = hole_image[ug * W + static_cast<std::size_t>(land)];
                const bool less = im < key, same = im == key;
                l = less ? hi : same ? l | hi : l;
                key = less ? im : key;
              }
            }
            const std::uint64_t hash = mix(key);
            const std::size_t shard = Level<W>::shard_of_hash(hash);
            if (!(group >> shard & 1)) continue;
            const Child<W> child{key, l, c, static_cast<std::uint32_t>(hash)};
            const int owner = ranks > 1 ? owner_of(hash, ranks) : me;
            if (owner == me)
              out[shard].push_back(child);
            else
              away[static_cast<std::size_t>(owner)].push_back(child);
          }
        },
        buf);
  }

  // A level the pass has expanded takes no more positions: half the room as a sorted array (the
  // shards shared by the threads, as the level was made).
  void compact(Level<W>& lv) {
    const int threads = threads_for(lv.size());
    each_shard(threads, [&](std::size_t d) {
      o_.control->throw_if_stopped();  // a shard's sort at most after a stop
      compact(lv.shard(d));
    });
  }
  void compact(LevelMap<W>& m) {
    const std::size_t old_bytes = m.bytes();
    if (m.compact()) bytes_ -= old_bytes - m.bytes();  // in place: it only gives memory back
  }

  // Expands `src` into `dst`. When memory runs short and levels can be released, releases them
  // and expands again.
  template <bool Backward>
  void expand_or_release(const Level<W>& src, Level<W>& dst) {
    if (may_release_ && o_.release_levels) release_expanded();
    try {
      expand<Backward>(src, dst);
    } catch (const Stopped& e) {
      if (e.reason != StopReason::Memory || !may_release_ || !release_expanded()) throw;
      for (auto& t : out_)
        for (std::vector<Child<W>>& v : t) v.clear();
      positions_ -= dst.size();
      release(dst);
      done_ = written_ = 0;  // made again whole (its blocks so far stay in its file)
      expand<Backward>(src, dst);
    }
  }

  // An expanded level: a sorted array for walking a path back, or, once the pass releases
  // levels, nothing.
  void settle_expanded(Level<W>& lv) {
    if (!released_) {
      try {
        compact(lv);
        return;
      } catch (const Stopped& e) {
        if (e.reason != StopReason::Memory || !may_release_) throw;
        release_expanded();
      }
    }
    release(lv);
  }

  void release(Level<W>& lv) {
    bytes_ -= lv.bytes();
    lv.clear();
  }

  // Books the children's buffers against the budget as they grow (they keep their room from
  // round to round).
  void book_buffers() {
    std::size_t room = 0;
    for (const auto& t : out_)
      for (const std::vector<Child<W>>& v : t) room += v.capacity() * sizeof(Child<W>);
    for (const std::vector<Entry<W>>& v : read_) room += v.capacity() * sizeof(Entry<W>);
    for (const auto& t : away_)
      for (const std::vector<Child<W>>& v : t) room += v.capacity() * sizeof(Child<W>);
    room += received_.capacity();
    if (room > buffers_) {
      grow(room - buffers_);
      buffers_ = room;
    }
  }

  // Releases every expanded level (the sides' last levels stay). True when that freed anything.
  bool release_expanded() {
    bool freed = false;
    auto free = [&](Level<W>& lv) {
      freed |= lv.bytes() > 0;
      release(lv);
    };
    for (int k = fl_ + 1; k <= top_; ++k) free(level(fwd_, k));
    for (int k = bottom_; k < bh_; ++k) free(level(bwd_, k));
    released_ = released_ || freed || o_.release_levels;
    return freed;
  }

  // Gives the heap's free memory back once the tables hold a quarter of the budget. Below, what
  // it frees is a little of the room left and is taken again by the next level or search; each
  // trim costs a madvise a free run of pages and their faults when used again (English central
  // game: 13,262 calls for 4.2 GB, most of them in the shortening's small searches).
  void trim_if_tight() {
    if (bytes_ > budget_ / 4) trim_heap();
  }

  void expand_forward() {
    expand_or_release<false>(level(fwd_, fl_), level(fwd_, fl_ - 1));
    guard([&] { settle_expanded(level(fwd_, fl_)); });
    trim_if_tight();
    --fl_;
    std::uint32_t m = least_cost(level(fwd_, fl_));
    if (m != kNoCost) fmin_ = static_cast<int>(m);
  }

  void expand_backward() {
    expand_or_release<true>(level(bwd_, bh_), level(bwd_, bh_ + 1));
    guard([&] { settle_expanded(level(bwd_, bh_)); });
    trim_if_tight();
    ++bh_;
    std::uint32_t m = least_cost(level(bwd_, bh_));
    if (m != kNoCost) bmin_ = static_cast<int>(m);
  }

  // The least cost of the level just made over every process (collective; it agrees first):
  // from its merges when it was made whole in memory, else a walk of it.
  std::uint32_t least_cost(const Level<W>& lv) {
    const std::uint32_t mine =
        made_whole_ ? *std::min_element(made_least_.begin(), made_least_.end()) : min_cost(lv);
    if (!spread()) return mine;
    agree();
    const std::vector<std::uint32_t> all = gather(*ranks_, mine);
    return *std::min_element(all.begin(), all.end());
  }

  // Leaves the least dropped cost over every thread and process in dropped_[0] (collective).
  void agree_dropped() {
    const std::uint32_t mine = dropped();
    std::fill(dropped_.begin(), dropped_.end(), kNoCost);
    const std::vector<std::uint32_t> all = gather(ranks(), mine);
    dropped_[0] = *std::min_element(all.begin(), all.end());
  }

  bool spread() const { return ranks_ != nullptr; }
  FewestRanks& ranks() { return ranks_ ? *ranks_ : alone_; }

  int join() {
    const Level<W>& f = level(fwd_, fl_);
    const Level<W>& b = level(bwd_, bh_);
    const bool f_small = f.size() <= b.size();
    const Level<W>& scan = f_small ? f : b;
    const Level<W>& other = f_small ? b : f;
    std::uint32_t best = kNoCost;
    auto meet = [&](const Entry<W>& fe, const Entry<W>& be) {
      const Entry<W>& e = fe;
      Bits<W> shared = fe.land() & be.land();
      std::uint32_t c = fe.cost() + be.cost() - (shared.any() ? 1 : 0);
      const std::uint32_t plain = fe.cost() + be.cost();  // no move across the middle
      if (plain < plain_cost_ || (plain == plain_cost_ && e.key < plain_meet_)) {
        plain_cost_ = plain;
        plain_meet_ = e.key;
      }
      if (c < best ||
          (c == best && e.key < meet_)) {  // the least key: the same for any thread count
        best = c;
        meet_ = e.key;
        meet_fcost_ = fe.cost();
        meet_bcost_ = be.cost();
        meet_hole_ = shared.any() ? shared.lowest() : -1;
      }
    };
    bool sorted = true;
    for (std::size_t d = 0; d < Level<W>::kShards; ++d)
      sorted = sorted && f.shard(d).sorted() && b.shard(d).sorted();
    if (sorted && (f.size() > 0 && b.size() > 0)) {
      // Both in key order (spilled levels): one walk of each shard pair, a chunk at a time.
      for (std::size_t d = 0; d < Level<W>::kShards; ++d) {
        SortedReader<W> x(f.shard(d)), y(b.shard(d));
        for (std::size_t step = 0; x.peek() && y.peek(); ++step) {
          if (step % LevelMap<W>::kChunk == 0) o_.control->throw_if_stopped();
          if (x.peek()->key < y.peek()->key) {
            x.next();
          } else if (y.peek()->key < x.peek()->key) {
            y.next();
          } else {
            meet(*x.peek(), *y.peek());
            x.next();
            y.next();
          }
        }
      }
    } else {
      for_each_entry(scan, [&](const Entry<W>& e) {
        Entry<W> o;
        if (!other.find(e.key, o)) return;
        if (f_small)
          meet(e, o);
        else
          meet(o, e);
      });
    }
    // The meetings of every process: the least cost, then the least key, as one process's join.
    struct Meet {
      Bits<W> key, plain_key;
      std::uint32_t best, fcost, bcost, plain;
      int hole;
    };
    agree_dropped();
    const std::vector<Meet> all = gather(
        ranks(), Meet{meet_, plain_meet_, best, meet_fcost_, meet_bcost_, plain_cost_, meet_hole_});
    for (const Meet& m : all) {
      if (m.best < best || (m.best == best && m.key < meet_)) {
        best = m.best;
        meet_ = m.key;
        meet_fcost_ = m.fcost;
        meet_bcost_ = m.bcost;
        meet_hole_ = m.hole;
      }
      if (m.plain < plain_cost_ || (m.plain == plain_cost_ && m.plain_key < plain_meet_)) {
        plain_cost_ = m.plain;
        plain_meet_ = m.plain_key;
      }
    }
    return best == kNoCost ? -1 : static_cast<int>(best);
  }

  State<W> lookup(const Level<W>& m, Bits<W> pegs) const {
    auto [key, g] = geo_.canonical_key(pegs);
    Entry<W> e;
    if (!m.find(key, e)) return {};
    return {e.cost(), g == 0 ? e.land() : geo_.preimage(g, e.land())};
  }

  // Forward: jumps from a start to `pegs` with `cost` moves whose last jump lands on `hole`.
  // Backward: jumps from `pegs` to a goal with `cost` moves whose first jump starts from `hole`.
  // (-1: any.) Each step finds a jump to a neighbouring level's position whose state gives it.
  // On a spread pass each process looks up the neighbours it holds; the first jump any finds
  // (one gather a step) is the step every process takes.
  template <bool Backward>
  std::vector<Jump> side_path(Bits<W> pegs, std::uint32_t cost, int hole) {
    std::vector<Jump> out;
    for (int k = pegs.count(); Backward ? k > bottom_ : k < top_; k += Backward ? -1 : 1) {
      struct Step {
        std::size_t j;
        std::uint32_t cost;
        int hole;
      } step{geo_.jumps.size(), 0, -1};
      for (std::size_t j = 0; j < geo_.jumps.size() && step.j == geo_.jumps.size(); ++j) {
        const Jump& jp = geo_.jumps[j];
        // The hole the path's end of the jump stands on, and the one the neighbour's L holds.
        const int near = Backward ? jp.from : jp.to, far = Backward ? jp.to : jp.from;
        if (hole >= 0 && near != hole) continue;
        const bool legal = Backward ? (pegs & geo_.fo[j]) == geo_.fo[j] && (pegs & geo_.t[j]).none()
                                    : (pegs & geo_.t[j]).any() && (pegs & geo_.fo[j]).none();
        if (!legal) continue;
        const Bits<W> other = pegs ^ geo_.all[j];
        State<W> s = lookup(Backward ? level(bwd_, k - 1) : level(fwd_, k + 1), other);
        if (s.cost == kNoCost) continue;
        const bool chain = s.land.test(far);
        if (s.cost + (chain ? 0 : 1) != cost) continue;
        step = {j, s.cost, chain ? far : -1};
      }
      for (const Step& st : gather(ranks(), step))
        if (st.j < step.j) step = st;
      if (step.j == geo_.jumps.size())
        throw std::logic_error(std::string("fewest moves: the ") +
                               (Backward ? "backward" : "forward") + " path breaks off");
      out.push_back(geo_.jumps[step.j]);
      pegs = pegs ^ geo_.all[step.j];
      cost = step.cost;
      hole = step.hole;
    }
    if (!Backward) std::reverse(out.begin(), out.end());
    return out;
  }

  void report(bool force) {
    if (!o_.control || !ControlAccess::wants_progress(*o_.control)) return;
    ProgressReport pr;
    pr.phase = "fewest";
    pr.positions = positions_;
    FewestBounds& f = pr.fewest.emplace();
    f.lower_bound = std::max(floor_, lower_bound());
    f.best_found = best_found_;
    f.forward_level = fl_;
    f.backward_level = bh_;
    f.released = released_;
    o_.control->report(pr, force);
  }

  const KeyGeometry<W>& geo_;
  const FewestOptions& o_;
  const Bound<W>* bound_ = nullptr;
  std::uint32_t limit_ = kNoCost;
  std::vector<Level<W>> fwd_, bwd_;
  int fl_ = 0, bh_ = 0, top_ = 0, bottom_ = 0;
  int fmin_ = 0, bmin_ = 0;
  int threads_ = 1;
  std::optional<WorkerPool> pool_;  // made for the first level large enough to share
  std::vector<std::vector<std::vector<Child<W>>>> out_;   // [thread][destination shard]
  std::vector<std::vector<std::vector<Child<W>>>> away_;  // [thread][process]: spread passes
  std::vector<std::byte> received_;                       // the children other processes sent
  FewestRanks* ranks_ = nullptr;                          // null: one process
  OneProcess alone_;
  std::exception_ptr failure_;               // a spread pass's failure, kept until the next agree()
  std::vector<std::vector<Entry<W>>> read_;  // [thread]: entries read from disk
  SpillLedger ledger_;                       // the spill files' bytes on disk
  int groups_ = 1;         // groups of destination shards a level is made in (spilling)
  std::string level_dir_;  // the checkpoint directory: levels made in groups go to files there
  // The level being made into a file of level_dir_: its file, side and pegs, its shards done
  // and those whose blocks the file holds (for a state's `making` line).
  std::shared_ptr<SpillFile> making_file_;
  bool making_backward_ = false;
  int making_pegs_ = 0;
  std::uint32_t done_ = 0, written_ = 0;
  std::vector<std::uint32_t> dropped_;  // [thread]: least cost + bound dropped
  // [shard]: the least cost merged into the level being made (merge_round), and whether the
  // level was made whole by those merges (expand(): in memory, not in groups).
  std::array<std::uint32_t, Level<W>::kShards> made_least_{};
  bool made_whole_ = false;
  // [backward]: the last level made in memory over the level it was made from (0: none yet),
  // and the next one's foretold from it and the one before (expand_group's first room).
  std::array<double, 2> grown_{}, grew_{};
  std::atomic<std::size_t> bytes_{0};
  std::size_t budget_ = 0;
  std::size_t buffers_ = 0;  // bytes of out_'s buffers booked in bytes_
  std::atomic<std::uint64_t> positions_{0};
  int best_found_ = -1;  // moves of a solution known before the pass (progress only)
  int floor_ = 0;        // a lower bound proven before the pass (progress only)
  Bits<W> meet_;
  std::uint32_t meet_fcost_ = 0, meet_bcost_ = 0;
  int meet_hole_ = -1;
  std::uint32_t plain_cost_ = kNoCost;  // the least sum of a meeting's two costs,
  Bits<W> plain_meet_;                  // and its least position
  bool may_release_ = false;            // run(): a pass may release levels; run_beam(): not
  bool released_ = false;               // expanded levels were released (release_expanded)
};

}  // namespace pegsol::fewest_detail
