// SPDX-License-Identifier: MIT
// The wide census engine: layouts over 64 bits (boards of up to 64 holes whose layout needs
// 128 bits), and the engine the tests compare the compact one with. Built on the census skeleton
// (skeleton.hpp). A level is split into kShards shards by a hash of the position, each with one
// owner: the forward pass expands a chunk of parents into per-worker buffers by shard, then each
// worker merges its shards' buffers into their tables. The backward pass finds each level's
// solution-path positions among the stored level's sorted keys.
#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <mutex>

#include "../core/layout.hpp"
#include "../core/widths.hpp"
#include "engine.hpp"
#include "paths.hpp"
#include "reach.hpp"
#include "skeleton.hpp"
#include "wide_table.hpp"

namespace pegsol::census_detail {
namespace wide {
namespace {

template <int W>
class Engine : public Context<W> {
  using Base = Context<W>;
  using Base::b_, Base::g_, Base::p_, Base::o_, Base::syms_, Base::run_, Base::mem_, Base::workers_,
      Base::team_, Base::n_, Base::goal_pegs_, Base::k0_, Base::positions_, Base::start_pos_,
      Base::goal_pos_;
  using Base::check_cancel, Base::report, Base::is_goal, Base::canon, Base::orbit_size;

 public:
  using Pos = Bits<W>;
  using E = Entry<W>;
  using Level = std::vector<Booked<E>>;

  Engine(const Problem& p, const CensusOptions& o, std::vector<int> syms)
      : Base(p, o, std::move(syms)) {
    sym_jump_ = this->jump_images();
    reach_ =
        ReachFilter<Pos>(b_, syms_, o.reach, [&](int h) { return Pos::single(layout(b_).bit(h)); });
  }

  CensusResult run() {
    const bool store = o_.on_path || o_.distinct;
    std::uint64_t units = 1000 * static_cast<std::uint64_t>(start_pos_.count());
    if (store && goal_pegs_ < start_pos_.count())
      units += 1000 * static_cast<std::uint64_t>(start_pos_.count() - goal_pegs_);
    return this->run_engine(static_cast<int>(syms_.size()), units, [&](CensusResult& r) {
      forward(r, store);
      if (store) on_path(r);
      this->up_to_symmetry(r);
      if (o_.distinct) distinct(r);
    });
  }

 private:
  // Forward pass: every level from the start's down to one peg. Stores each level's sorted
  // canonical keys when the backward pass needs them.
  void forward(CensusResult& r, bool store) {
    stored_.clear();
    for (int k = 0; k <= n_; ++k) stored_.emplace_back(mem_);
    k0_ = start_pos_.count();
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
      return;
    }
    Level cur;
    for (int s = 0; s < kShards; ++s) cur.emplace_back(mem_);
    E s0;
    s0.key = canon(start_pos_);
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
          int h = layout(b_).hole_at_bit(g_.apply(s, x.key).lowest());
          r.solutions_by_hole[static_cast<std::size_t>(h)] = x.count() / static_cast<Count>(orb);
          r.p_by_hole[static_cast<std::size_t>(h)] = x.prob / orb;
        }
        r.p_one_peg += x.prob;
      }
    this->goal_figures(r);
  }

  // Builds level k-1 from level k (the two phases at the top of this file).
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
              if (!reach_.keep(best)) continue;  // in the parent's frame
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

  // Solutions up to reordering of independent jumps (paths.hpp), over the stored solution paths.
  void distinct(CensusResult& r) {
    // The backward pass always ran: the levels are stored whenever the count is asked for.
    count_distinct(
        r, o_, true, g_, start_pos_, goal_pegs_, k0_, mem_, run_.control,
        [&](const Pos& x, int k) {
          const auto& v = path_[static_cast<std::size_t>(k)].vec();
          return std::binary_search(v.begin(), v.end(), canon(x));
        },
        [&](const Pos& x) { return is_goal(x); });
  }

  std::vector<Pos> sym_jump_;  // [symmetry index in syms_][jump]
  ReachFilter<Pos> reach_;     // CensusOptions::reach
  std::vector<Booked<Pos>> stored_, path_;
};

}  // namespace

CensusResult census(const Problem& p, const CensusOptions& o, std::vector<int> syms) {
  CensusResult r = with_width<128>(p.board->width(), [&](auto w) {
    Engine<decltype(w)::value> e(p, o, std::move(syms));
    return e.run();
  });
  // The wide engine always carries the chance; it reports it only when asked.
  r.random_player = reports_chances(p, o);
  if (!r.random_player) {
    r.p_one_peg = r.p_goal = 0;
    std::fill(r.p_by_hole.begin(), r.p_by_hole.end(), 0.0);
  }
  return r;
}

}  // namespace wide
}  // namespace pegsol::census_detail
