// SPDX-License-Identifier: MIT
// First-solution search: depth-first on bitboards with a table of failed positions. The engine
// alone; solve() (solve.cpp) calls it through dfs.hpp.
#include "dfs.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../census/memory.hpp"
#include "../core/control_access.hpp"
#include "../core/geometry.hpp"
#include "../core/layout.hpp"
#include "../core/pagodas.hpp"
#include "../core/symmetry.hpp"
#include "../core/widths.hpp"
#include "pegsol/invariants.hpp"

namespace pegsol {

namespace solve_detail {

// A memo's contents at its board's width (MemoOf below).
struct DfsMemo::State {
  virtual ~State() = default;
  virtual std::size_t size() const = 0;
};

DfsMemo::DfsMemo(std::size_t max_bytes) : max_bytes_(max_bytes) {}

DfsMemo::~DfsMemo() = default;

std::size_t DfsMemo::size() const {
  return state ? state->size() : 0;
}

}  // namespace solve_detail

namespace {

using Clock = std::chrono::steady_clock;

// Set of canonical positions known not to reach the goal.
//
// Open addressing over a power-of-two array of W-bit slots; a slot holds the position itself, so
// a hit is exact (a hash-only key could prune a solvable position and turn a solvable problem
// into a false "impossible"). The all-zero slot is empty: a searched position always has a peg.
// Probes stay within a run of 8 slots. The table doubles while under its memory budget; at the
// budget a full run overwrites one of its slots, which only costs re-searching that position.
// Its own probe rather than core/probe.hpp's, which runs to the first empty slot: the bounded
// run is what lets a full table at the budget overwrite instead of growing. The slots are in huge
// pages where the kernel gives them (census_detail::TableAllocator): nearly every probe of a
// large table is a miss of the caches, and with 4 KiB pages of the TLB as well.
template <int W>
class FailTable {
 public:
  using Pos = Bits<W>;
  explicit FailTable(std::size_t max_bytes)
      : max_slots_(std::max<std::size_t>(std::bit_floor(max_bytes / sizeof(Pos)), kRun)) {
    slots_.assign(std::min<std::size_t>(std::size_t{1} << 12, max_slots_), Pos{});
  }
  bool contains(const Pos& p) const {
    std::size_t mask = slots_.size() - 1, i = p.digest() & mask;
    for (std::size_t k = 0; k < kRun; ++k) {
      const Pos& s = slots_[(i + k) & mask];
      if (s == p) return true;
      if (s.none()) return false;
    }
    return false;
  }
  // Asks the cache for the slots contains(p) reads first (a hint, no effect on the contents).
  void prefetch(const Pos& p) const {
    __builtin_prefetch(&slots_[p.digest() & (slots_.size() - 1)]);
  }
  void insert(const Pos& p) {
    if (2 * (used_ + 1) > slots_.size() && slots_.size() * 2 <= max_slots_) grow();
    place(p);
  }
  std::size_t size() const { return used_; }

 private:
  static constexpr std::size_t kRun = 8;
  void place(const Pos& p) {
    std::uint64_t d = p.digest();
    std::size_t mask = slots_.size() - 1, i = d & mask;
    for (std::size_t k = 0; k < kRun; ++k) {
      Pos& s = slots_[(i + k) & mask];
      if (s == p) return;
      if (s.none()) {
        s = p;
        ++used_;
        return;
      }
    }
    slots_[(i + ((d >> 40) & (kRun - 1))) & mask] = p;  // replace: the table is at its budget
  }
  using Slots = std::vector<Pos, census_detail::TableAllocator<Pos>>;
  void grow() {
    Slots old(slots_.size() * 2, Pos{});
    old.swap(slots_);
    used_ = 0;
    for (const Pos& p : old)
      if (p.any()) place(p);
  }
  std::size_t max_slots_;
  Slots slots_;
  std::size_t used_ = 0;
};

// The goal as the search sees it: either an exact position, or one peg on any of `allowed`.
template <int W>
struct Target {
  Bits<W> exact, allowed;
  bool is_exact = true;
  int pegs = 1;
};

// A pagoda function over the layout's bits, summed a byte at a time: a position worth less than
// `least` (the target's value) cannot reach the target.
template <int W>
class PagodaCheck {
 public:
  PagodaCheck(const Board& b, const Pagoda& pg, long long least)
      : table_(static_cast<std::size_t>(kBytes) * 256, 0), least_(least) {
    for (int h = 0; h < b.size(); ++h) {
      const int bit = layout(b).bit(h);
      const long long w = pg.weight[static_cast<std::size_t>(h)];
      std::int32_t* t = &table_[static_cast<std::size_t>(bit / 8) * 256];
      for (int v = 0; v < 256; ++v)
        if ((v >> (bit % 8)) & 1) t[v] += static_cast<std::int32_t>(w);
    }
    for (const Jump& j : b.jumps()) change_.push_back(-pg.loss(j));
  }
  long long value(const Bits<W>& p) const {
    long long v = 0;
    for (int k = 0; k < Bits<W>::kWords; ++k) {
      std::uint64_t x = p.w[static_cast<std::size_t>(k)];
      for (int byte = 0; x; ++byte, x >>= 8)
        v += table_[static_cast<std::size_t>(k * 8 + byte) * 256 + (x & 0xff)];
    }
    return v;
  }
  bool loses(const Bits<W>& p) const { return value(p) < least_; }
  long long least() const { return least_; }
  // The value's change by jump j (board().jumps()'s index): the searches' children are valued
  // from their parent's value, without a sum.
  long long change(int j) const { return change_[static_cast<std::size_t>(j)]; }

 private:
  static constexpr int kBytes = W / 8;
  std::vector<std::int32_t> table_;
  long long least_;
  std::vector<long long> change_;
};

// A DfsMemo's contents at width W: the failed positions towards `target`, its pruning pagodas
// (an exact target's; a one-peg target's per final bit, each found when first needed).
template <int W>
struct MemoOf final : solve_detail::DfsMemo::State {
  MemoOf(std::size_t bytes, const Target<W>& t) : table(bytes), target(t) {}
  std::size_t size() const override { return table.size(); }
  // Whether searches towards t may share this memo: the same exact goal, or both one peg.
  bool serves(const Target<W>& t) const {
    return t.is_exact == target.is_exact && (!t.is_exact || (t.exact == target.exact));
  }
  // Finds the pagodas `t` needs that are not known yet (linear programs, from `start`), while
  // `ctl` lets it: what its stop cut short is looked for again by the next search.
  void prepare(const Board& b, const Geometry<W>& g, const HoleSet& start, const Target<W>& t,
               const Control& ctl) {
    if (t.is_exact) {
      if (exact_done || ctl.should_stop()) return;
      const HoleSet goal = g.to_holes(t.exact);
      std::vector<PagodaCheck<W>> found;
      for (const Pagoda& pg : detail::find_pruning_pagodas(b, start, goal, 4, &ctl))
        found.emplace_back(b, pg, pg.value(goal));
      if (ctl.should_stop()) return;
      exact = std::move(found);
      exact_done = true;
      return;
    }
    for_each_bit(t.allowed, [&](int bit) {
      for (const auto& f : finals)
        if (f.first == bit) return;
      if (ctl.should_stop()) return;
      HoleSet one(b.size());
      one.set(layout(b).hole_at_bit(bit));
      std::vector<PagodaCheck<W>> checks;
      for (const Pagoda& pg : detail::find_pruning_pagodas(b, start, one, 4, &ctl))
        checks.emplace_back(b, pg, pg.value(one));
      if (!ctl.should_stop()) finals.emplace_back(bit, std::move(checks));
    });
  }
  FailTable<W> table;
  Target<W> target;
  bool exact_done = false;
  std::vector<PagodaCheck<W>> exact;
  std::vector<std::pair<int, std::vector<PagodaCheck<W>>>> finals;
  // Pagodas found tight towards single finals (final bit, pagodas) at the starts of earlier
  // searches: from a later start each is tight still (used as found), worth less than the final
  // (a proof the final is out of reach), or slack (left out).
  std::vector<std::pair<int, std::vector<Pagoda>>> tight;
};

template <int W>
class Dfs {
 public:
  using Pos = Bits<W>;

  // With `memo`: its table (instead of one of the search's own) and its pagodas, which must
  // have been prepared for `t`.
  Dfs(const Geometry<W>& g, const Target<W>& t, const SolveOptions& o, const Control& ctl,
      Clock::time_point start, MemoOf<W>* memo = nullptr)
      : g_(g), t_(t), opt_(o), ctl_(ctl), start_(start) {
    if (memo) {
      table_ = &memo->table;
    } else {
      own_table_.emplace(table_bytes(o, ctl));
      table_ = &*own_table_;
    }
    // Table keys are canonical under the symmetries that fix the goal; a one-peg target with a
    // memo is reached from a position exactly when one peg anywhere is (the allowed holes are
    // the admissible finals), which every symmetry keeps: the whole group.
    const Board& b = g.board();
    for (int s = 0; s < g.symmetry_count(); ++s) {
      if (s != 0 && !o.symmetry) continue;
      bool fixes = t.is_exact ? g.apply(s, t.exact) == t.exact : g.apply(s, t.allowed) == t.allowed;
      if (fixes || (memo && !t.is_exact)) syms_.push_back(s);
    }
    if (memo && t.is_exact) {
      for (const PagodaCheck<W>& c : memo->exact) exact_pagodas_.push_back(&c);
    } else if (memo && t.allowed.count() <= 64) {
      // One entry per allowed final, in bit order: its pruning pagodas (none while the memo has
      // not found them: that final then dies of tight pagodas alone, or never).
      static const std::vector<PagodaCheck<W>> kNone;
      for_each_bit(t.allowed, [&](int bit) {
        const std::vector<PagodaCheck<W>>* checks = &kNone;
        for (const auto& [b2, c] : memo->finals)
          if (b2 == bit) checks = &c;
        final_pagodas_.push_back(checks);
      });
      for (const auto* checks : final_pagodas_) finals_die_ = finals_die_ || !checks->empty();
    }
    // The pagodas flat, exact ones first, then each final's, with their changes by jump; and the
    // images of the jumps under the table's symmetries: a child is valued and keyed from its
    // parent's values and images (symmetries permute holes, so they commute with XOR).
    for (const PagodaCheck<W>* c : exact_pagodas_) checks_.push_back(c);
    final_begin_.push_back(checks_.size());
    for (const auto* checks : final_pagodas_) {
      for (const PagodaCheck<W>& c : *checks) checks_.push_back(&c);
      final_begin_.push_back(checks_.size());
    }
    const std::size_t jumps = b.jumps().size();
    for (std::size_t j = 0; j < jumps; ++j) {
      for (const PagodaCheck<W>* c : checks_) change_.push_back(c->change(static_cast<int>(j)));
      for (int s : syms_) jump_images_.push_back(g.apply(s, g.jump_mask(static_cast<int>(j))));
    }
    for (const PagodaCheck<W>* c : checks_) least_.push_back(c->least());
    if (o.peg_types) {
      for (const Pos& m : g.type_masks()) {
        int need = t.is_exact ? (t.exact & m).count() : 0;
        if (need > 0) need_.push_back({m, need});
      }
      if (!t.is_exact) {
        for (const Pos& m : g.type_masks())
          if ((m & t.allowed).any()) any_type_ |= m;
      }
    }
    {
      double cr = 0, cc = 0;
      for (int h = 0; h < b.size(); ++h) {
        cr += b.coord(h).r;
        cc += b.coord(h).c;
      }
      cr /= b.size();
      cc /= b.size();
      auto d = [&](int h) {
        double x = b.coord(h).r - cr, y = b.coord(h).c - cc;
        if (b.lattice() == Lattice::Triangular) return x * x + y * y - x * y;
        return x * x + y * y;
      };
      // Static order: jumps that remove pegs far from the centre and land near it first.
      // Tried and lost (English central game, nodes to the first solution): natural order 2.8M,
      // landing nearest the centre 10M, from-to distance only 311k, this order 6.6k; adding a
      // penalty for isolated pegs helped the French board from d2 but cost 30x on English.
      for (const Jump& j : b.jumps()) {
        double sc = d(j.from) + d(j.over) - d(j.to);
        jump_score_.push_back(static_cast<int>(sc * 16));
      }
    }
    kids_.resize(std::max<std::size_t>(b.jumps().size(), 64) * 4);
    asleep_.assign(b.jumps().size(), 0);
  }

  // For a one-peg target with a memo: pagodas tight from the search's start towards single
  // finals (final bit, its pagodas). A jump that loses on one leaves the position worth less than
  // that final, so it can no longer end there (an absolute fact about the position, which keeps
  // the memo's table true); a position whose every final is out of reach is lost.
  void use_tight(const HoleSet& start,
                 const std::vector<std::pair<int, std::vector<Pagoda>>>& tight) {
    if (final_pagodas_.empty()) return;
    const Board& b = g_.board();
    kill_.assign(b.jumps().size(), 0);
    for (const auto& [bit, pagodas] : tight) {
      if (!t_.allowed.test(bit)) continue;
      const int i = (t_.allowed & Pos::low(bit)).count();  // its index among the finals
      HoleSet one(b.size());
      one.set(layout(b).hole_at_bit(bit));
      for (const Pagoda& pg : pagodas) {
        // Worth less than the final already (the linear program allows it): out of reach now.
        if (pg.value(start) < pg.value(one)) dead_ |= std::uint64_t{1} << i;
        for (std::size_t j = 0; j < kill_.size(); ++j)
          if (pg.loss(b.jumps()[j]) > 0) kill_[j] |= std::uint64_t{1} << i;
      }
    }
    finals_die_ = true;
  }

  // Only the jumps j with allowed[j] from now on (every jump when empty).
  void restrict_to(std::vector<char> allowed) { allowed_ = std::move(allowed); }

  // True when a solution was found (path() holds it); false when the search completed without
  // one or was stopped (stopped() tells which).
  bool run(const Pos& start) {
    path_.clear();
    top_ = 0;
    const std::size_t n = final_pagodas_.size();
    std::uint64_t alive = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    alive &= ~dead_;
    const int pegs = start.count();
    if (pegs == t_.pegs) return reached(start);
    if ((++nodes_ & 1023) == 0) check_stop();
    Pos key;
    if (stopped_ || ruled_out(start, alive, key) || table_->contains(key)) return false;
    start_pegs_ = pegs;
    const std::size_t levels = static_cast<std::size_t>(pegs) + 1;
    images_.assign(levels * syms_.size(), Pos{});
    values_.assign(levels * checks_.size(), 0);
    for (std::size_t k = 0; k < syms_.size(); ++k) images_[k] = g_.apply(syms_[k], start);
    for (std::size_t k = 0; k < checks_.size(); ++k) values_[k] = checks_[k]->value(start);
    sleep_.clear();
    return search(start, key, pegs, alive, 0);
  }
  const std::vector<int>& path() const { return path_; }
  bool stopped() const { return stopped_; }
  // Whether the control (not the node limit) stopped the search.
  bool stopped_by_control() const { return stopped_ && ctl_.stop_reason() != StopReason::None; }
  std::uint64_t nodes() const { return nodes_; }
  std::size_t table_size() const { return table_->size(); }

 private:
  // A child of the position being expanded: its jump and the jump's score, and once screened,
  // whether a proof rules it out, else its table key and the finals its pagodas leave alive.
  struct Child {
    Pos key;
    std::uint64_t alive;
    int jump;
    int score;
    bool out;
  };

  // The failed-position table's bytes: the control's budget, or kSolveMemory without one.
 public:
  static std::size_t table_bytes(const SolveOptions&, const Control& ctl) {
    const std::size_t budget = ctl.memory_budget();
    return budget ? budget : kSolveMemory;
  }

 private:
  bool prune(const Pos& p) const {
    for (const auto& [mask, need] : need_)
      if ((p & mask).count() < need) return true;
    if (!t_.is_exact && opt_.peg_types && (p & any_type_).none()) return true;
    return false;
  }

  void check_stop() {
    if (ctl_.checkpoint()) stopped_ = true;
    if (opt_.node_limit && nodes_ >= opt_.node_limit) stopped_ = true;
    if (report_) {
      ProgressReport pr;
      pr.phase = "dfs";
      pr.positions = nodes_;
      pr.table_entries = table_->size();
      ctl_.report(pr);
    }
  }

  // Whether the memo's pagodas show p lost: an exact target's, or for a one-peg target those of
  // every final (`alive`: the finals no ancestor's value ruled out, updated).
  bool pagoda_lost(const Pos& p, std::uint64_t& alive) const {
    for (const PagodaCheck<W>* c : exact_pagodas_)
      if (c->loses(p)) return true;
    if (!finals_die_) return false;
    for (std::uint64_t m = alive; m; m &= m - 1) {
      const int i = std::countr_zero(m);
      for (const PagodaCheck<W>& c : *final_pagodas_[static_cast<std::size_t>(i)])
        if (c.loses(p)) {
          alive &= ~(std::uint64_t{1} << i);
          break;
        }
    }
    return alive == 0;
  }

  // pagoda_lost for the child of a position by jump j, from the position's values `v`.
  bool child_pagoda_lost(const long long* v, int j, std::uint64_t& alive) const {
    const std::size_t n = checks_.size();
    if (n == 0) return false;
    const long long* d = &change_[static_cast<std::size_t>(j) * n];
    for (std::size_t k = 0; k < final_begin_[0]; ++k)
      if (v[k] + d[k] < least_[k]) return true;
    if (!finals_die_) return false;
    for (std::uint64_t m = alive; m; m &= m - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(m));
      for (std::size_t k = final_begin_[i]; k < final_begin_[i + 1]; ++k)
        if (v[k] + d[k] < least_[k]) {
          alive &= ~(std::uint64_t{1} << i);
          break;
        }
    }
    return alive == 0;
  }

  bool reached(const Pos& p) const { return t_.is_exact ? p == t_.exact : (p & t_.allowed).any(); }

  // Whether the peg types or the pagodas rule p out (`alive` updated); else its table key, whose
  // slot is asked of the cache at once.
  bool ruled_out(const Pos& p, std::uint64_t& alive, Pos& key) const {
    if (prune(p) || pagoda_lost(p, alive)) return true;
    key = g_.canonical(p, syms_);
    table_->prefetch(key);
    return false;
  }

  // ruled_out for the child q of a position by jump j, from the position's values `v` and
  // images `img` (the same answer and key).
  bool child_ruled_out(const Pos& q, const long long* v, const Pos* img, int j,
                       std::uint64_t& alive, Pos& key) const {
    if (prune(q) || child_pagoda_lost(v, j, alive)) return true;
    const std::size_t n = syms_.size();
    const Pos* ji = &jump_images_[static_cast<std::size_t>(j) * n];
    key = q;
    for (std::size_t k = 1; k < n; ++k) {
      const Pos x = img[k] ^ ji[k];
      if (x < key) key = x;
    }
    table_->prefetch(key);
    return false;
  }

  // Searches p (`key` its table key: not in the table) with `pegs` pegs, above the target's.
  // The children are screened first, all of them, so that their table probes, nearly all cache
  // misses, overlap (one probe at a time, each child's when its turn came, spent about half of the
  // search's time waiting on memory); then taken in order, each counted as a position as it comes
  // (the counts are those of one child screened at a time).
  //
  // Sleep sets (partial-order reduction): sleep_[sleep_at, end) holds jumps s such that p + s is
  // known lost (an elder sibling of p, or of an ancestor, with s and the jumps since disjoint),
  // so p + s, a descendant of a lost position, is lost and not taken. A child by jump j sleeps
  // on its elder siblings' jumps and p's sleeping jumps that share no hole with j: jumps on
  // disjoint holes commute, and each of those siblings is lost by the time j is taken. Every
  // position skipped is lost, so a position whose children all fail is lost and its entry in
  // the table, kept across searches, stays true.
  bool search(const Pos& p, const Pos& key, int pegs, std::uint64_t alive, std::size_t sleep_at) {
    // Children in the static order of jump_score_ (highest first), on the stack of children.
    const std::size_t base = top_;
    const std::size_t sleep_end = sleep_.size();
    for (std::size_t k = sleep_at; k < sleep_end; ++k) asleep_[sleep_[k]] = 1;
    std::size_t n = 0;
    g_.for_each_jump(p, [&](int j) {
      if (!allowed_.empty() && !allowed_[static_cast<std::size_t>(j)]) return;
      if (asleep_[static_cast<std::size_t>(j)]) return;
      if (base + n == kids_.size()) kids_.resize(2 * kids_.size());
      Child& c = kids_[base + n++];
      c.jump = j;
      c.score = jump_score_[static_cast<std::size_t>(j)];
    });
    for (std::size_t k = sleep_at; k < sleep_end; ++k) asleep_[sleep_[k]] = 0;
    Child* kids = &kids_[base];
    for (std::size_t i = 1; i < n; ++i) {
      Child c = kids[i];
      std::size_t k = i;
      for (; k > 0 && kids[k - 1].score < c.score; --k) kids[k] = kids[k - 1];
      kids[k] = c;
    }
    if (pegs - 1 == t_.pegs) {
      for (std::size_t i = 0; i < n; ++i)
        if (reached(p ^ g_.jump_mask(kids[i].jump))) {
          path_.push_back(kids[i].jump);
          return true;
        }
      table_->insert(key);
      return false;
    }
    const auto level = static_cast<std::size_t>(start_pegs_ - pegs);
    const std::size_t ns = syms_.size(), nc = checks_.size();
    const Pos* img = &images_[level * ns];
    const long long* v = nc ? &values_[level * nc] : nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      Child& c = kids[i];
      c.alive = kill_.empty() ? alive : alive & ~kill_[static_cast<std::size_t>(c.jump)];
      c.out = child_ruled_out(p ^ g_.jump_mask(c.jump), v, img, c.jump, c.alive, c.key);
    }
    // The probes, while the slots asked for above are on their way (by a child's turn, after its
    // elder siblings' subtrees, its slot has mostly left the cache again): a child found failed
    // now is skipped then, even if a full run of the table has overwritten it meanwhile; the
    // others are probed again at their turn, a sibling's subtree may have failed them.
    for (std::size_t i = 0; i < n; ++i)
      if (!kids[i].out && table_->contains(kids[i].key)) kids[i].out = true;
    top_ = base + n;
    for (std::size_t i = 0; i < n; ++i) {
      if ((++nodes_ & 1023) == 0) check_stop();
      if (stopped_) break;
      const Child c = kids_[base + i];  // a copy: the stack may grow below
      if (c.out || table_->contains(c.key)) continue;
      {  // the child's images and values, at the next level
        const auto j = static_cast<std::size_t>(c.jump);
        Pos* ci = &images_[(level + 1) * ns];
        for (std::size_t k = 0; k < ns; ++k) ci[k] = img[k] ^ jump_images_[j * ns + k];
        if (nc) {
          long long* cv = &values_[(level + 1) * nc];
          for (std::size_t k = 0; k < nc; ++k) cv[k] = v[k] + change_[j * nc + k];
        }
      }
      {  // the child's sleeping jumps, above p's on the stack
        const Pos& m = g_.jump_mask(c.jump);
        sleep_.resize(sleep_end);
        for (std::size_t k = sleep_at; k < sleep_end; ++k)
          if ((g_.jump_mask(static_cast<int>(sleep_[k])) & m).none()) sleep_.push_back(sleep_[k]);
        for (std::size_t k = 0; k < i; ++k) {
          const int s = kids_[base + k].jump;
          if ((g_.jump_mask(s) & m).none()) sleep_.push_back(static_cast<std::uint32_t>(s));
        }
      }
      if (search(p ^ g_.jump_mask(c.jump), c.key, pegs - 1, c.alive, sleep_end)) {
        path_.push_back(c.jump);
        top_ = base;
        sleep_.resize(sleep_end);
        return true;
      }
      if (stopped_) break;
    }
    top_ = base;
    sleep_.resize(sleep_end);
    if (stopped_) return false;
    table_->insert(key);
    return false;
  }

  const Geometry<W>& g_;
  Target<W> t_;
  const SolveOptions& opt_;
  const Control& ctl_;
  bool report_ = ControlAccess::wants_progress(ctl_);
  std::optional<FailTable<W>> own_table_;
  FailTable<W>* table_ = nullptr;
  std::vector<const PagodaCheck<W>*> exact_pagodas_;
  std::vector<const std::vector<PagodaCheck<W>>*> final_pagodas_;  // by final (allowed's bits)
  bool finals_die_ = false;          // some final can be ruled out: final_pagodas_ or kill_
  std::vector<std::uint64_t> kill_;  // by jump: the finals it leaves out of reach (use_tight)
  std::uint64_t dead_ = 0;           // the finals out of reach from the start (use_tight)
  Clock::time_point start_;
  std::vector<int> syms_;
  std::vector<int> jump_score_;
  std::vector<char> allowed_;
  std::vector<std::pair<Pos, int>> need_;
  Pos any_type_;
  std::vector<Child> kids_;  // the children of the positions on the path, a stack
  // The sleeping jumps of the positions on the path, a stack (search()), and a mark by jump
  // while a position's children are generated.
  std::vector<std::uint32_t> sleep_;
  std::vector<char> asleep_;
  // The pagodas of exact_pagodas_ then of final_pagodas_, flat (final i's from final_begin_[i]
  // to final_begin_[i + 1]), their targets' values, and their changes by jump (jump * size + k).
  std::vector<const PagodaCheck<W>*> checks_;
  std::vector<std::size_t> final_begin_;
  std::vector<long long> least_, change_;
  std::vector<Pos> jump_images_;  // by jump * syms_.size() + k: the jump's image under syms_[k]
  // By level (pegs below the start), the position's values (checks_) and images (syms_).
  std::vector<long long> values_;
  std::vector<Pos> images_;
  int start_pegs_ = 0;
  std::size_t top_ = 0;
  std::vector<int> path_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
};

// The jumps a solution from `start` to the whole position `goal` can make, when the problem has
// tight pagodas (find_tight_pagodas): a tight pagoda keeps its value along every solution, so a
// jump that loses on it is in none. `why` says so for an "impossible". Empty: every jump.
struct JumpsAllowed {
  std::vector<char> allowed;
  std::string why;
};
JumpsAllowed tight_jumps(const Board& board, const HoleSet& start, const HoleSet& goal,
                         const SolveOptions& o) {
  JumpsAllowed a;
  if (o.pagoda_jumps < 0 || start.count() - goal.count() < o.pagoda_jumps) return a;
  const std::vector<Pagoda> tight = find_tight_pagodas(board, start, goal);
  if (tight.empty()) return a;
  a.allowed.assign(board.jumps().size(), 1);
  for (const Pagoda& pg : tight)
    for (std::size_t j = 0; j < a.allowed.size(); ++j)
      if (pg.loss(board.jumps()[j]) > 0) a.allowed[j] = 0;
  a.why = "over the jumps that keep the pagoda function " + pagoda_text(board, tight.front()) +
          " at its value (the start and the goal are both worth " +
          std::to_string(tight.front().value(start)) +
          ", and no jump gains, so a jump that loses is in no solution)";
  if (tight.size() > 1)
    a.why += " and " + std::to_string(tight.size() - 1) + " more such functions";
  return a;
}

// Runs one forward search of `start` towards `target` (both in reading-order holes), over the
// jumps `jumps` allows. A position it reaches has the tight pagodas' value, so it fails with
// those jumps exactly when it fails with every jump, and the failed-position table stays true.
template <int W>
SolveResult search_forward(const Board& board, const HoleSet& start, const Target<W>& target,
                           const SolveOptions& o, const Control& ctl, Clock::time_point t0,
                           const Geometry<W>& g, JumpsAllowed jumps = {}, MemoOf<W>* memo = nullptr,
                           const std::vector<std::pair<int, std::vector<Pagoda>>>& tight = {}) {
  SolveResult r;
  r.width = W;
  Dfs<W> dfs(g, target, o, ctl, t0, memo);
  if (!tight.empty()) dfs.use_tight(start, tight);
  const std::string restricted = jumps.why;
  if (!jumps.allowed.empty()) dfs.restrict_to(std::move(jumps.allowed));
  bool found = dfs.run(g.to_bits(start));
  r.nodes = dfs.nodes();
  if (found) {
    r.status = Status::Solved;
    const auto& path = dfs.path();
    for (auto it = path.rbegin(); it != path.rend(); ++it)
      r.moves.push_back(board.jumps()[static_cast<std::size_t>(*it)]);
  } else if (dfs.stopped()) {
    r.status = Status::Unknown;
    if (dfs.stopped_by_control()) r.stop = ctl.stop_reason();
  } else {
    r.status = Status::Impossible;
    if (!restricted.empty())
      r.reason = "exhaustive search " + restricted + ": no solution among " +
                 std::to_string(r.nodes) + " positions searched";
  }
  return r;
}

template <int W>
SolveResult solve_width(const Problem& p, const SolveOptions& o, const Control& ctl,
                        Clock::time_point t0, solve_detail::DfsMemo* memo, const HoleSet* aims) {
  const Board& board = *p.board;
  Geometry<W> g(board);
  auto exact_target = [&](const HoleSet& goal) {
    Target<W> t;
    t.exact = g.to_bits(goal);
    t.pegs = goal.count();
    return t;
  };
  auto single = [&](int h) {
    HoleSet s(board.size());
    s.set(h);
    return s;
  };
  if (o.direction == Direction::Forward) {
    Target<W> t;
    if (p.goal.kind == Goal::Kind::Any) {
      t.is_exact = false;
      t.allowed = g.to_bits(admissible_finals(board, p.start));
      t.pegs = 1;
      if (memo && aims) t.allowed &= g.to_bits(*aims);
    } else {
      t = exact_target(p.goal.kind == Goal::Kind::Hole ? single(p.goal.hole) : p.goal.position);
    }
    JumpsAllowed jumps;
    if (t.is_exact) jumps = tight_jumps(board, p.start, g.to_holes(t.exact), o);
    MemoOf<W>* m = nullptr;
    if (memo) {
      m = dynamic_cast<MemoOf<W>*>(memo->state.get());
      if (!m || !m->serves(t)) {
        auto fresh =
            std::make_unique<MemoOf<W>>(std::min(memo->max_bytes_, Dfs<W>::table_bytes(o, ctl)), t);
        m = fresh.get();
        memo->state = std::move(fresh);
      }
      m->prepare(board, g, p.start, t, ctl);
    }
    // Towards one peg anywhere with a memo (the analysis), a search to its end: each final's
    // tight pagodas from this start, as an exact goal's search has them (tight_jumps); the ones
    // earlier searches found, while one of them is tight still (a game's next positions: linear
    // programs cost about 10 ms each). Tried and lost: without them, the one search towards every
    // final took several times the time of one search per final.
    std::vector<std::pair<int, std::vector<Pagoda>>> tight;
    if (m && !t.is_exact && o.node_limit == 0 && t.allowed.count() <= 64 && o.pagoda_jumps >= 0 &&
        p.start.count() - 1 >= o.pagoda_jumps) {
      for_each_bit(t.allowed, [&](int bit) {
        if (ctl.should_stop()) return;
        const HoleSet one = single(layout(board).hole_at_bit(bit));
        std::vector<Pagoda>* pool = nullptr;
        for (auto& [b2, pgs] : m->tight)
          if (b2 == bit) pool = &pgs;
        if (!pool) pool = &m->tight.emplace_back(bit, std::vector<Pagoda>{}).second;
        std::vector<Pagoda> now;
        for (const Pagoda& pg : *pool) {
          const long long slack = pg.value(p.start) - pg.value(one);
          if (slack < 0) {
            t.allowed.reset(bit);  // out of reach: the pagoda proves it
            return;
          }
          if (slack == 0) now.push_back(pg);
        }
        if (now.empty()) {
          now = detail::find_tight_pagodas(board, p.start, one, 4, &ctl);
          if (pool->size() < 16) pool->insert(pool->end(), now.begin(), now.end());
        }
        tight.emplace_back(bit, std::move(now));
      });
      if (t.allowed.none()) {
        SolveResult r;
        r.width = W;
        r.status = Status::Impossible;
        r.reason =
            "pagoda functions: every hole the last peg could end on is worth more than "
            "this position on one of them";
        return r;
      }
    }
    return search_forward(board, p.start, t, o, ctl, t0, g, std::move(jumps), m, tight);
  }
  // Backward: forward searches on the complemented board, one per possible final position.
  std::vector<HoleSet> finals;
  if (p.goal.kind == Goal::Kind::Any) {
    // One final hole per orbit under the symmetries that fix the start.
    for (int h : final_holes(board, p.start)) finals.push_back(single(h));
  } else {
    finals.push_back(p.goal.kind == Goal::Kind::Hole ? single(p.goal.hole) : p.goal.position);
  }
  SolveResult total;
  total.width = W;
  total.status = Status::Impossible;
  for (const HoleSet& fin : finals) {
    SolveResult r = search_forward(board, fin.complement(), exact_target(p.start.complement()), o,
                                   ctl, t0, g, tight_jumps(board, p.start, fin, o));
    total.nodes += r.nodes;
    if (finals.size() == 1) total.reason = r.reason;
    if (r.status == Status::Unknown) {
      total.status = Status::Unknown;
      total.stop = r.stop;
    }
    if (r.status == Status::Solved) {
      total.status = Status::Solved;
      // A jump a-b-c on the complement takes ~X' (a, b empty; c a peg) back to X' (a, b pegs;
      // c empty), so forward in time it is the same jump a-b-c: only the order reverses.
      total.moves.assign(r.moves.rbegin(), r.moves.rend());
      return total;
    }
    if (r.status == Status::Unknown) break;
  }
  return total;
}

}  // namespace

namespace solve_detail {

SolveResult run_dfs(const Problem& p, const SolveOptions& o, const Control& ctl,
                    std::chrono::steady_clock::time_point t0, DfsMemo* memo,
                    const HoleSet* finals) {
  SolveResult r = with_width(p.board->width(), [&](auto w) {
    return solve_width<decltype(w)::value>(p, o, ctl, t0, memo, finals);
  });
  if (r.status == Status::Impossible && r.reason.empty())
    r.reason =
        "exhaustive search: no solution among " + std::to_string(r.nodes) + " positions searched";
  if (r.status == Status::Unknown)
    r.reason = "search stopped (" +
               std::string(r.stop == StopReason::None   ? "node limit"
                           : r.stop == StopReason::Time ? "time limit"
                                                        : stop_reason_name(r.stop)) +
               ") after " + std::to_string(r.nodes) + " positions; no solution found yet";
  return r;
}

}  // namespace solve_detail

}  // namespace pegsol
