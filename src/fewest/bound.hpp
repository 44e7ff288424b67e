// SPDX-License-Identifier: MIT
// The fewest-moves search's admissible bound: Merson regions, peg types, pagodas and pattern
// tables.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

#include "keys.hpp"
#include "pegsol/board.hpp"
#include "pegsol/holeset.hpp"
#include "pegsol/invariants.hpp"

namespace pegsol::fewest_detail {

// Admissible move bounds from Merson regions. A region is a set of holes such that a jump over
// one of its holes starts or ends in it. While a region is full, no jump can land in it nor take
// a peg out of it from outside, so the first jump that changes it is made by one of its own pegs,
// which has not moved since the region was last full. Disjoint regions give distinct pegs, hence
// distinct moves:
//   forward, from P: every region full in P and not full at the end costs a move, but for the one
//     whose peg continues the move that landed on P (a hole of L in it);
//   backward, to Q: every region full at the start and not full in Q cost a move on the way to Q,
//     and the last of those moves may go on after Q as the first move out of it.
// Any disjoint family of such regions bounds the moves, so each position packs its own: greedily,
// smallest regions first, among every connected region of up to four holes. A child keeps its
// parent's family but for the regions the jump changed, and adds one through the hole that
// changed the other way. The peg types (build_types) add the moves that a type of peg must make
// and no region's peg nor the move under way can. A position whose cost plus its bound exceeds
// the search's limit is dropped: no solution within the limit passes through it.
template <int W>
class Bound {
 public:
  static constexpr std::size_t kMaxPagodas = 4;  // tight and pruning pagodas (build_pagodas)
  static constexpr int kMaxTypes = 6;            // peg types (build_types)
  static constexpr int kMaxPatterns = 8;         // pattern tables (build_patterns)
  static constexpr int kPatternHoles = 12;       // the most holes a pattern holds
  // pagoda_jumps, pattern_jumps: FewestOptions'.
  Bound(const Board& b, const std::vector<Bits<W>>& starts, const std::vector<Bits<W>>& goals,
        int pagoda_jumps, int pattern_jumps = -1) {
    const std::vector<Bits<W>> all = candidates(b);
    // Forward, a region holding a smaller one is never worth more: full, so is the smaller one.
    std::vector<Bits<W>> minimal;
    for (Bits<W> r : all) {
      bool holds = false;
      for (Bits<W> q : all) holds = holds || (q != r && (q & r) == q);
      if (!holds) minimal.push_back(r);
    }
    fwd_.build(minimal, b.size(), [&](Bits<W> r) {
      for (Bits<W> g : goals)
        if ((g & r) == r) return true;
      return false;
    });
    bwd_.build(all, b.size(), [&](Bits<W> r) {
      for (Bits<W> s : starts)
        if ((s & r) != r) return true;
      return false;
    });
    // Regions that may be full at the end need no move, but at most as many as one goal holds
    // full, disjoint: no more than its regions full there, nor than its pegs. Likewise regions
    // that may be not full at the start need none on the way, at most one per empty hole.
    for (Bits<W> g : goals) {
      int full = 0;
      for (Bits<W> r : minimal) full += (g & r) == r;
      max_exempt_end_ = std::max(max_exempt_end_, std::min(full, g.count()));
    }
    for (Bits<W> s : starts) {
      int open = 0;
      for (Bits<W> r : all) open += (s & r) != r;
      max_exempt_start_ = std::max(max_exempt_start_, std::min(open, b.size() - s.count()));
    }
    build_types(b, starts, goals);
    loss_.assign(b.jumps().size(), 0);
    build_pagodas(b, starts, goals, pagoda_jumps);
    build_patterns(b, starts, goals, pattern_jumps);
  }

  // child() for a position on no solution (a tight pagoda rules it out): dropped, not counted.
  static constexpr int kDead = 1 << 20;

  // The bytes the bound's tables hold (the pattern tables; a search books them).
  std::size_t bytes() const {
    std::size_t b = jump_px_.size() * sizeof(std::uint16_t);
    for (int d = 0; d < 2; ++d) b += zero_[d].size() + gen_[d].size();
    return b;
  }

  // A position's family: the regions counted (full ones forward, changed ones backward), how
  // many of them are exempt, and the region of each hole in it (-1: none).
  struct Pack {
    int n = 0, exempt = 0, count = 0;  // count: the position's pegs
    Bits<W> used;
    std::array<std::int16_t, W> owner;
    // What each pagoda may still lose, its slack (forward: the value less the goal's;
    // backward: the start's less the value), as dead() reads it, 16 bits a pagoda k:
    //   bits 16k .. 16k+15  0x8000 + slack + 1: 0x8000 .. 0xc000, its top bit set; below
    //                       0x8000 (the top bit clear) for a position already past the slack
    // A pagoda not there holds 0x8000 and loses nothing.
    std::uint64_t slack = kHigh;
    // The peg types of which there are more pegs than a goal holds (forward) or more empty holes
    // than the start has (backward): typed()'s needs; need2: at least two more (a jump takes one).
    unsigned need = 0, need2 = 0;
    // Each pattern's pegs, its holes' bits in pattern order (build_patterns).
    std::array<std::uint16_t, kMaxPatterns> px{};
  };
  // Only the pagodas' slack: all that dead() reads (a search without a limit).
  template <bool Backward>
  Pack values(Bits<W> pegs) const {
    Pack p;
    p.slack = slack<Backward>(pegs);
    return p;
  }
  // The family and the pagodas' slack: all that child() reads.
  template <bool Backward>
  Pack pack(Bits<W> pegs) const {
    Pack p = family<Backward>(pegs);
    p.slack = slack<Backward>(pegs);
    return p;
  }
  // The family alone (Pack::slack as if there were no pagodas).
  template <bool Backward>
  Pack family(Bits<W> pegs) const {
    const Regions& rs = Backward ? bwd_ : fwd_;
    Pack p;
    p.count = pegs.count();
    p.owner.fill(-1);
    if (patterns_)
      for (Bits<W> x = pegs; x.any(); x.pop_lowest()) {
        const auto h = static_cast<std::size_t>(x.lowest());
        p.px[static_cast<std::size_t>(pat_of_[h])] |= static_cast<std::uint16_t>(1u << bit_of_[h]);
      }
    for (int t = 0; t < types_; ++t) {
      const auto ut = static_cast<std::size_t>(t);
      const int most = Backward ? start_empty_[ut] : goal_most_[ut];
      const Bits<W> x = (Backward ? ~pegs : pegs) & mask_[ut];
      if (more(x, most)) {
        p.need |= 1u << t;
        if (more(x, most + 1)) p.need2 |= 1u << t;
      }
    }
    for (std::size_t r = 0; r < rs.region.size(); ++r) {
      const Bits<W> m = rs.region[r];
      if ((m & p.used).any() || !counted<Backward>(pegs, m)) continue;
      p.used |= m;
      ++p.n;
      p.exempt += rs.exempt[r];
      for (Bits<W> x = m; x.any(); x.pop_lowest())
        p.owner[static_cast<std::size_t>(x.lowest())] = static_cast<std::int16_t>(r);
    }
    return p;
  }

  // The bound of `child`, made from `parent` (whose family is `p`) by the jump `jp`: the
  // parent's regions the jump changed leave, and a region through the hole that changed the
  // other way may join. When the regions alone give `enough` or more, that part (no more than
  // the bound) is returned without the peg types' moves.
  template <bool Backward>
  int child(const Pack& p, Bits<W> child, const Jump& jp, std::size_t j, int enough = kDead) const {
    if (dead(p, j)) return kDead;
    int tables = 0;  // the pattern tables' part
    if (patterns_) {
      tables = patterned<Backward>(p.px, &jump_px_[j * kMaxPatterns], Backward ? -1 : jp.to);
      if (tables >= enough) return tables;
    }
    const Regions& rs = Backward ? bwd_ : fwd_;
    int n = p.n, exempt = p.exempt;
    Bits<W> used = p.used;
    const std::int16_t a = p.owner[static_cast<std::size_t>(jp.from)];
    const std::int16_t c = p.owner[static_cast<std::size_t>(jp.over)];
    auto leave = [&](std::int16_t r) {  // a region of the jump's from or over holes
      if (r < 0) return;
      const Bits<W> m = rs.region[static_cast<std::size_t>(r)];
      if ((used & m).none() || counted<Backward>(child, m)) return;
      used &= ~m;
      --n;
      exempt -= rs.exempt[static_cast<std::size_t>(r)];
    };
    leave(a);
    leave(c);
    bool joined = false;
    const auto t = static_cast<std::size_t>(jp.to);
    for (int k = rs.at_begin[t]; k < rs.at_begin[t + 1]; ++k) {
      const auto r = static_cast<std::size_t>(rs.at[static_cast<std::size_t>(k)]);
      const Bits<W> m = rs.region[r];
      if ((m & used).any() || !counted<Backward>(child, m)) continue;
      ++n;
      exempt += rs.exempt[r];
      used |= m;
      joined = true;
      break;
    }
    const int regions = Backward
                            ? n - std::min(exempt, max_exempt_start_)
                            : std::max(0, n - std::min(exempt, max_exempt_end_) - (joined ? 1 : 0));
    if (const int part = Backward ? std::max(0, regions - 1) : regions; part >= enough) return part;
    // The jump takes one peg of the over hole's type (from and to have one type): forward one
    // peg of it fewer, backward one empty hole of it fewer.
    const unsigned o = 1u << type_of_[static_cast<std::size_t>(jp.over)];
    const unsigned need = (p.need & ~o) | (p.need2 & o);
    if (Backward)
      return std::max(tables,
                      std::max(0, regions + typed<true>(need, p.count + 1, used, Bits<W>{}) - 1));
    return std::max(tables,
                    regions + typed<false>(need, p.count - 1, used, Bits<W>::single(jp.to)));
  }

  // Whether a pagoda rules out the child made from a position whose family (or values()) is
  // `p` by the jump numbered `j` (Board::jumps): forward the child loses the jump's loss on each
  // pagoda, taken back it gains it; either way past the slack is on no solution. One
  // subtraction for every pagoda (Pack::slack less the jump's losses plus one, lane by lane:
  // a lane's top bit is cleared by a loss past its slack, and no lane borrows from the next).
  bool dead(const Pack& p, std::size_t j) const { return ((p.slack - loss_[j]) & kHigh) != kHigh; }

  // At least this many moves from `pegs` to a goal, where the last jump landed on a hole of
  // `land` (none: no move under way).
  int forward(Bits<W> pegs, Bits<W> land = {}) const {
    const Pack p = family<false>(pegs);
    bool goes_on = false;
    for (Bits<W> x = land; x.any(); x.pop_lowest())
      goes_on = goes_on || p.owner[static_cast<std::size_t>(x.lowest())] >= 0;
    int b = std::max(0, p.n - std::min(p.exempt, max_exempt_end_) - (goes_on ? 1 : 0)) +
            typed<false>(p.need, p.count, p.used, land);
    if (patterns_) {  // the least over the holes the move under way may go on from
      static constexpr std::array<std::uint16_t, kMaxPatterns> kNone{};
      int t = patterned<false>(p.px, kNone.data(), -1);
      for (Bits<W> x = land; x.any(); x.pop_lowest())
        t = std::min(t, patterned<false>(p.px, kNone.data(), x.lowest()));
      if (t < kDead) b = std::max(b, t);
    }
    return b;
  }

 private:
  static constexpr std::uint64_t kHigh = 0x8000800080008000ull;  // the lanes' top bits
  static constexpr long long kLane = 0x3fff;  // the most a pagoda's weights add up to, in size

  // Pack::slack at `pegs`: every pagoda's value at once, 16 bits a pagoda (Pack::slack), from a
  // table look-up a byte of the key, each lane its value plus the least any position has.
  template <bool Backward>
  std::uint64_t slack(Bits<W> pegs) const {
    if (!pagodas_) return kHigh;
    std::uint64_t v = base_;
    const std::uint64_t* t = byte_value_.data();
    for (int i = 0; i < key_bytes_; ++i, t += 256)
      v += t[pegs.w[static_cast<std::size_t>(i >> 3)] >> ((i & 7) * 8) & 0xff];
    return Backward ? (start_lanes_ | kHigh) - v : (v | kHigh) - goal_lanes_;
  }

  // Regions in packing order, whether each is exempt, and those through each hole.
  struct Regions {
    std::vector<Bits<W>> region;
    std::vector<char> exempt;
    std::vector<int> at, at_begin;  // at[at_begin[h] .. at_begin[h + 1]): regions holding h
    template <class Exempt>
    void build(const std::vector<Bits<W>>& rs, int holes, Exempt&& is_exempt) {
      region = rs;
      for (Bits<W> r : rs) exempt.push_back(is_exempt(r));
      at_begin.assign(static_cast<std::size_t>(holes) + 1, 0);
      for (int h = 0; h < holes; ++h) {
        at_begin[static_cast<std::size_t>(h)] = static_cast<int>(at.size());
        for (std::size_t r = 0; r < rs.size(); ++r)
          if (rs[r].test(h)) at.push_back(static_cast<int>(r));
      }
      at_begin[static_cast<std::size_t>(holes)] = static_cast<int>(at.size());
    }
  };

  // Every region of up to four holes connected along the jump lines, smallest first.
  static std::vector<Bits<W>> candidates(const Board& b) {
    const std::vector<Jump>& jumps = b.jumps();
    std::vector<Bits<W>> adjacent(static_cast<std::size_t>(b.size()));
    for (const Jump& j : jumps) {
      adjacent[static_cast<std::size_t>(j.over)] |= Bits<W>::single(j.from) | Bits<W>::single(j.to);
      adjacent[static_cast<std::size_t>(j.from)] |= Bits<W>::single(j.over);
      adjacent[static_cast<std::size_t>(j.to)] |= Bits<W>::single(j.over);
    }
    auto closed = [&](Bits<W> r) {
      for (const Jump& j : jumps)
        if (r.test(j.over) && !r.test(j.from) && !r.test(j.to)) return false;
      return true;
    };
    std::vector<Bits<W>> out, grow;
    for (int h = 0; h < b.size(); ++h) grow.push_back(Bits<W>::single(h));
    for (int size = 1; size <= 4; ++size) {
      std::sort(grow.begin(), grow.end());
      grow.erase(std::unique(grow.begin(), grow.end()), grow.end());
      for (Bits<W> r : grow)
        if (closed(r)) out.push_back(r);
      std::vector<Bits<W>> next;
      for (Bits<W> r : grow) {
        Bits<W> around;
        for (Bits<W> x = r; x.any(); x.pop_lowest())
          around |= adjacent[static_cast<std::size_t>(x.lowest())];
        for (Bits<W> x = around & ~r; x.any(); x.pop_lowest())
          next.push_back(r | Bits<W>::single(x.lowest()));
      }
      grow.swap(next);
    }
    return out;
  }

  // More than k bits in x; k is at most 2 for single-peg goals and single vacancies, where
  // popping bits costs less than a popcount (a library call on the portable build).
  static bool more(Bits<W> x, int k) {
    if (k > 2) return x.count() > k;
    for (; k > 0; --k) x.pop_lowest();
    return x.any();
  }

  template <bool Backward>
  static bool counted(Bits<W> pegs, Bits<W> region) {
    return Backward ? (pegs & region) != region : (pegs & region) == region;
  }

  // Peg types (Board::peg_type: the classes of holes joined by a jump's from and to holes, on the
  // square lattice the four of (column, row) mod 2), so a peg keeps its type. A peg of type X
  // leaves only when jumped over by a peg of a type in remover[X]. Forward, when more pegs of type
  // X stand than any goal holds, some move is made by such a peg; backward, when fewer stand than
  // every start holds, some move was. The last move lands on a goal's peg, so it is made by a peg
  // of a goal peg's type; the first lands in a start's empty hole, made by a peg of that hole's
  // type. A region's move is made by one of its own pegs, and the move under way by the peg on a
  // hole of L, so a needed mover none of them can be costs a move of its own: the fewest types to
  // add so that every need meets a mover, extra_[direction][need][cover].
  void build_types(const Board& b, const std::vector<Bits<W>>& starts,
                   const std::vector<Bits<W>>& goals) {
    const int n = b.size(), types = b.peg_type_count();
    if (types < 2 || types > kMaxTypes) return;  // no bound from types
    types_ = types;
    Bits<W> full;
    for (int h = 0; h < n; ++h) {
      mask_[static_cast<std::size_t>(b.peg_type(h))] |= Bits<W>::single(h);
      type_of_[static_cast<std::size_t>(h)] = static_cast<std::int8_t>(b.peg_type(h));
      full |= Bits<W>::single(h);
    }
    std::array<unsigned, kMaxTypes + 1> remover{};  // [types]: the first or last move's
    for (const Jump& j : b.jumps())
      remover[static_cast<std::size_t>(b.peg_type(j.over))] |= 1u << b.peg_type(j.from);
    unsigned last = 0, first = 0;  // the types the last move's and the first move's peg may have
    for (int t = 0; t < types; ++t) {
      const auto ut = static_cast<std::size_t>(t);
      goal_most_[ut] = 0;
      for (Bits<W> g : goals) {
        goal_most_[ut] = std::max(goal_most_[ut], (g & mask_[ut]).count());
        if ((g & mask_[ut]).any()) last |= 1u << t;
      }
      int least = W;
      for (Bits<W> st : starts) {
        least = std::min(least, (st & mask_[ut]).count());
        if ((~st & full & mask_[ut]).any()) first |= 1u << t;
      }
      start_empty_[ut] = mask_[ut].count() - least;
    }
    goal_pegs_ = goals.front().count();
    start_pegs_ = starts.front().count();
    const unsigned all = (1u << types) - 1;
    for (int dir = 0; dir < 2; ++dir) {
      remover[static_cast<std::size_t>(types)] = dir ? first : last;
      std::vector<std::uint8_t>& ex = extra_[static_cast<std::size_t>(dir)];
      ex.assign(std::size_t{1} << (2 * types + 1), 0);
      for (unsigned need = 0; need <= 2 * all + 1; ++need)
        for (unsigned cover = 0; cover <= all; ++cover) {
          int best = -1;  // a need no peg can meet (remover empty) gives nothing
          for (unsigned add = 0; add <= all; ++add) {
            if (add & cover) continue;
            bool meets = true;
            for (int t = 0; t <= types; ++t)
              if ((need >> t & 1) && remover[static_cast<std::size_t>(t)] &&
                  !(remover[static_cast<std::size_t>(t)] & (cover | add)))
                meets = false;
            const int k = std::popcount(add);
            if (meets && (best < 0 || k < best)) best = k;
          }
          ex[need << types | cover] = static_cast<std::uint8_t>(std::max(best, 0));
          most_[static_cast<std::size_t>(dir)][cover] =
              std::max(most_[static_cast<std::size_t>(dir)][cover], ex[need << types | cover]);
        }
    }
  }

  // The moves the peg types add to a family covering `used` (and the move under way from a hole
  // of `land`, forward) at a position of `count` pegs with the needs `need` (Pack::need).
  template <bool Backward>
  int typed(unsigned need, int count, Bits<W> used, Bits<W> land) const {
    if (!types_) return 0;
    unsigned cover = 0;
    // Every kMaxTypes mask, the unused ones empty: a loop of known length, unrolled.
    const Bits<W> at = used | land;
    for (int t = 0; t < kMaxTypes; ++t)
      if ((at & mask_[static_cast<std::size_t>(t)]).any()) cover |= 1u << t;
    if (!most_[Backward][cover]) return 0;  // no need can add a move to this cover
    if (Backward ? count < start_pegs_ : count > goal_pegs_) need |= 1u << types_;
    return extra_[Backward][need << types_ | cover];
  }

  // Tight pagodas (find_tight_pagodas): between one start and one goal, a pagoda whose value
  // at the start is no more than at the goal has the same value on every position of every
  // solution, so a position below the goal's value (forward) or above the start's (taken back)
  // is on none. Then, while there is room, pruning pagodas (find_pruning_pagodas): any pagoda
  // rules out a forward position worth less than the goal and a backward one worth more than
  // the start; these lose on the jumps the tight ones do not. Problems of fewer than
  // `min_jumps` jumps (FewestOptions::pagoda_jumps) go without.
  void build_pagodas(const Board& b, const std::vector<Bits<W>>& starts,
                     const std::vector<Bits<W>>& goals, int min_jumps) {
    if (min_jumps < 0 || starts.size() != 1 || goals.size() != 1) return;
    if (starts.front().count() - goals.front().count() < min_jumps) return;
    auto holes = [&](Bits<W> x) {
      HoleSet h(b.size());
      for (; x.any(); x.pop_lowest()) h.set(x.lowest());
      return h;
    };
    const HoleSet s = holes(starts.front()), g = holes(goals.front());
    auto take = [&](const std::vector<Pagoda>& found) {
      for (const Pagoda& pg : found) {
        if (pagodas_ == kMaxPagodas) return;
        long long sum = 0;  // every value and loss within a lane of Pack::slack
        for (long long x : pg.weight) sum += x < 0 ? -x : x;
        if (sum > kLane) continue;
        auto& w = weight_[pagodas_];
        w.fill(0);
        for (int h = 0; h < b.size(); ++h)
          w[static_cast<std::size_t>(h)] = static_cast<int>(pg.weight[static_cast<std::size_t>(h)]);
        start_value_[pagodas_] = static_cast<int>(pg.value(s));
        goal_value_[pagodas_] = static_cast<int>(pg.value(g));
        ++pagodas_;
      }
    };
    take(find_tight_pagodas(b, s, g, static_cast<int>(kMaxPagodas)));
    if (pagodas_ < kMaxPagodas)
      take(find_pruning_pagodas(b, s, g, static_cast<int>(kMaxPagodas - pagodas_)));
    // Each jump's losses plus one, as Pack::slack holds the slack (an absent pagoda: 0).
    for (std::size_t j = 0; j < b.jumps().size(); ++j) {
      const Jump& jp = b.jumps()[j];
      for (std::size_t k = 0; k < pagodas_; ++k) {
        const auto& w = weight_[k];
        const int loss = w[static_cast<std::size_t>(jp.from)] +
                         w[static_cast<std::size_t>(jp.over)] - w[static_cast<std::size_t>(jp.to)];
        loss_[j] |= static_cast<std::uint64_t>(loss + 1) << (16 * k);
      }
    }
    // byte_value_[i * 256 + x]: each pagoda k's weights summed over the bits of x in the key's
    // byte i, in bits 16k .. 16k+15 (negative sums borrow from the lane above; the lanes of the
    // whole sum, base_ added, are each within 0 .. kLane, so the borrows cancel).
    key_bytes_ = (b.size() + 7) / 8;
    byte_value_.assign(static_cast<std::size_t>(key_bytes_) * 256, 0);
    for (std::size_t k = 0; k < pagodas_; ++k) {
      long long least = 0;  // the least value: every negative weight
      for (int h = 0; h < b.size(); ++h)
        least += std::min(0, weight_[k][static_cast<std::size_t>(h)]);
      const unsigned shift = 16 * static_cast<unsigned>(k);
      base_ += static_cast<std::uint64_t>(-least) << shift;
      goal_lanes_ += static_cast<std::uint64_t>(goal_value_[k] - least - 1) << shift;
      start_lanes_ += static_cast<std::uint64_t>(start_value_[k] - least + 1) << shift;
      for (int i = 0; i < key_bytes_; ++i)
        for (int x = 0; x < 256; ++x) {
          long long v = 0;
          for (int bit = 0; bit < 8; ++bit)
            if (x >> bit & 1 && 8 * i + bit < W)
              v += weight_[k][static_cast<std::size_t>(8 * i + bit)];
          byte_value_[static_cast<std::size_t>(i * 256 + x)] += static_cast<std::uint64_t>(v)
                                                                << shift;
        }
    }
  }
  // Pattern tables. The holes are split into patterns of at most kPatternHoles, grown from the
  // holes fewest jumps pass over (the corners). A pattern's table holds, for each placement of
  // its pegs and hole the last jump landed on (or none), the fewest *move starts* in it (jumps
  // from its holes that do not leave the hole the jump before landed on) of any game in which
  // the holes outside it do whatever suits: every jump with a hole in it is allowed when its
  // holes in it agree. A real game seen through a pattern is such a game with no more starts,
  // and every move starts in one pattern, so the tables' values summed never exceed the moves
  // left (forward, to a goal's pegs in it) or made (backward, from a start's). A pattern that
  // cannot reach a goal's placement even so puts the position on no solution. Goals of at
  // most one peg leave one pattern that peg: the sum of the values to an empty pattern, less
  // the most that one pattern saves by ending on a goal's peg (starts of at most one empty
  // hole likewise, from full patterns). Triangular lattice only.
  void build_patterns(const Board& b, const std::vector<Bits<W>>& starts,
                      const std::vector<Bits<W>>& goals, int min_jumps) {
    if (min_jumps < 0 || b.lattice() != Lattice::Triangular) return;
    if (starts.front().count() - goals.front().count() < min_jumps) return;
    const int n = b.size();
    const std::vector<Jump>& jumps = b.jumps();
    std::vector<int> over(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(n));
    for (const Jump& j : jumps) {
      ++over[static_cast<std::size_t>(j.over)];
      for (int h : {j.from, j.to}) {
        adjacent[static_cast<std::size_t>(h)].push_back(j.over);
        adjacent[static_cast<std::size_t>(j.over)].push_back(h);
      }
    }
    for (auto& a : adjacent) {
      std::sort(a.begin(), a.end());
      a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    pat_of_.fill(-1);
    int made = 0;
    std::array<std::vector<int>, kMaxPatterns> holes;
    for (int placed = 0; placed < n;) {
      if (made == kMaxPatterns) return;  // too many patterns: none
      int seed = -1;
      for (int h = 0; h < n; ++h)
        if (pat_of_[static_cast<std::size_t>(h)] < 0 &&
            (seed < 0 || over[static_cast<std::size_t>(h)] < over[static_cast<std::size_t>(seed)]))
          seed = h;
      std::vector<int>& mine = holes[static_cast<std::size_t>(made)];
      std::deque<int> next{seed};
      pat_of_[static_cast<std::size_t>(seed)] = static_cast<std::int8_t>(made);
      while (!next.empty() && static_cast<int>(mine.size()) < kPatternHoles) {
        const int h = next.front();
        next.pop_front();
        mine.push_back(h);
        for (int a : adjacent[static_cast<std::size_t>(h)])
          if (pat_of_[static_cast<std::size_t>(a)] < 0) {
            pat_of_[static_cast<std::size_t>(a)] = static_cast<std::int8_t>(made);
            next.push_back(a);
          }
      }
      for (int h : next) pat_of_[static_cast<std::size_t>(h)] = -1;  // queued, not taken
      placed += static_cast<int>(mine.size());
      ++made;
    }
    patterns_ = made;
    jump_px_.assign(jumps.size() * kMaxPatterns, 0);
    std::size_t total = 0;
    for (int q = 0; q < made; ++q) {
      const auto uq = static_cast<std::size_t>(q);
      size_[uq] = static_cast<int>(holes[uq].size());
      offset_[uq] = total;
      total += (std::size_t{1} << size_[uq]) * static_cast<std::size_t>(size_[uq] + 1);
      for (int i = 0; i < size_[uq]; ++i)
        bit_of_[static_cast<std::size_t>(holes[uq][static_cast<std::size_t>(i)])] =
            static_cast<std::int8_t>(i);
    }
    for (std::size_t j = 0; j < jumps.size(); ++j)
      for (int h : {jumps[j].from, jumps[j].over, jumps[j].to})
        jump_px_[j * kMaxPatterns +
                 static_cast<std::size_t>(pat_of_[static_cast<std::size_t>(h)])] ^=
            static_cast<std::uint16_t>(1u << bit_of_[static_cast<std::size_t>(h)]);
    // The placements of the goals' and the starts' pegs in each pattern.
    auto local = [&](Bits<W> x, int q) {
      unsigned m = 0;
      for (; x.any(); x.pop_lowest())
        if (pat_of_[static_cast<std::size_t>(x.lowest())] == q)
          m |= 1u << bit_of_[static_cast<std::size_t>(x.lowest())];
      return m;
    };
    bool one_peg = true, one_empty = true;
    for (Bits<W> g : goals) one_peg = one_peg && g.count() <= 1;
    for (Bits<W> st : starts) one_empty = one_empty && n - st.count() <= 1;
    // The patterns that may hold a goal's peg (a start's empty hole): every one but with goals
    // of one peg (starts of one empty hole).
    const unsigned every = (1u << made) - 1;
    host_ = {one_peg ? 0u : every, one_empty ? 0u : every};
    for (Bits<W> g : goals) {
      if (g.none()) host_[0] = every;
      for (Bits<W> x = g; x.any(); x.pop_lowest())
        host_[0] |= 1u << pat_of_[static_cast<std::size_t>(x.lowest())];
    }
    Bits<W> all;
    for (int h = 0; h < n; ++h) all |= Bits<W>::single(h);
    for (Bits<W> st : starts) {
      if (st == all) host_[1] = every;
      for (Bits<W> x = andnot(all, st); x.any(); x.pop_lowest())
        host_[1] |= 1u << pat_of_[static_cast<std::size_t>(x.lowest())];
    }
    for (auto& t : zero_) t.assign(total, kNever);
    for (auto& t : gen_) t.assign(total, kNever);
    for (int q = 0; q < made; ++q) {
      const auto uq = static_cast<std::size_t>(q);
      const int sq = size_[uq];
      std::vector<LocalJump> js;
      for (const Jump& j : jumps) {
        auto at = [&](int h) {
          return pat_of_[static_cast<std::size_t>(h)] == q ? bit_of_[static_cast<std::size_t>(h)]
                                                           : -1;
        };
        const LocalJump lj{at(j.from), at(j.over), at(j.to)};
        if (lj.f >= 0 || lj.o >= 0 || lj.t >= 0) js.push_back(lj);
      }
      std::vector<unsigned> goal_x, start_x;
      for (Bits<W> g : goals) goal_x.push_back(local(g, q));
      for (Bits<W> st : starts) start_x.push_back(local(st, q));
      const unsigned full = (1u << sq) - 1;
      std::vector<std::uint16_t> fg = to_ends(js, sq, goal_x), bg = from_ends(js, sq, start_x);
      std::vector<std::uint16_t> fz = one_peg ? to_ends(js, sq, {0u}) : fg;
      std::vector<std::uint16_t> bz = one_empty ? from_ends(js, sq, {full}) : bg;
      auto put = [&](const std::vector<std::uint16_t>& from, std::vector<std::uint8_t>& to) {
        for (std::size_t i = 0; i < from.size(); ++i)
          to[offset_[uq] + i] = static_cast<std::uint8_t>(std::min<int>(from[i], kNever));
      };
      put(fz, zero_[0]);
      put(fg, gen_[0]);
      put(bz, zero_[1]);
      put(bg, gen_[1]);
    }
  }

  // A jump's holes in one pattern: their bits there, -1 for a hole outside it.
  struct LocalJump {
    int f, o, t;
  };
  static constexpr int kInf = 1000;  // a placement the pattern's games cannot reach
  // The tables' byte for kInf. Summed, a value of kNever or more means a pattern that cannot
  // reach its ends (no real sum comes near: at most 8 patterns of at most 12 pegs).
  static constexpr int kNever = 255;

  // One step of the 0-1 breadth-first search: state i reached at cost dv + c (c 0 or 1) if that
  // is less than its cost so far, queued at the front for a free step, at the back for a start.
  static void relax(std::vector<std::uint16_t>& d, std::deque<unsigned>& q, unsigned i, int dv,
                    int c) {
    if (dv + c >= d[i]) return;
    d[i] = static_cast<std::uint16_t>(dv + c);
    if (c)
      q.push_back(i);
    else
      q.push_front(i);
  }

  // The fewest move starts from each state (pegs x, landing hole l, none: s) of a pattern of s
  // holes to a placement in `ends` (a 0-1 breadth-first search over the jumps taken back).
  static std::vector<std::uint16_t> to_ends(const std::vector<LocalJump>& js, int s,
                                            const std::vector<unsigned>& ends) {
    const auto L = static_cast<unsigned>(s + 1);
    // The jumps by the state they lead to's landing hole (none: s).
    std::vector<std::vector<LocalJump>> landing(L);
    for (const LocalJump& j : js)
      landing[static_cast<std::size_t>(j.t >= 0 ? j.t : s)].push_back(j);
    std::vector<std::uint16_t> d((std::size_t{1} << s) * L, kInf);
    std::deque<unsigned> q;
    for (unsigned e : ends)
      for (unsigned l = 0; l < L; ++l)
        if (d[e * L + l] != 0) {
          d[e * L + l] = 0;
          q.push_back(e * L + l);
        }
    while (!q.empty()) {
      const unsigned st = q.front();
      q.pop_front();
      const unsigned x1 = st / L, l1 = st % L;
      const int dv = d[st];
      for (const LocalJump& j : landing[l1]) {
        // The state after j: from and over empty, to full.
        if ((j.f >= 0 && (x1 >> j.f & 1)) || (j.o >= 0 && (x1 >> j.o & 1)) ||
            (j.t >= 0 && !(x1 >> j.t & 1)))
          continue;
        unsigned x0 = x1;
        if (j.t >= 0) x0 &= ~(1u << j.t);
        if (j.f >= 0) x0 |= 1u << j.f;
        if (j.o >= 0) x0 |= 1u << j.o;
        for (unsigned l0 = 0; l0 < L; ++l0) {
          const int c = j.f >= 0 && l0 != static_cast<unsigned>(j.f) ? 1 : 0;
          const unsigned i = x0 * L + l0;
          relax(d, q, i, dv, c);
        }
      }
    }
    return d;
  }

  // The fewest move starts from a placement in `ends` (no move under way) to each placement of
  // a pattern of s holes, whatever the landing hole (the same for every l).
  static std::vector<std::uint16_t> from_ends(const std::vector<LocalJump>& js, int s,
                                              const std::vector<unsigned>& ends) {
    const auto L = static_cast<unsigned>(s + 1);
    std::vector<std::uint16_t> d((std::size_t{1} << s) * L, kInf);
    std::deque<unsigned> q;
    for (unsigned e : ends)
      if (d[e * L + static_cast<unsigned>(s)] != 0) {
        d[e * L + static_cast<unsigned>(s)] = 0;
        q.push_back(e * L + static_cast<unsigned>(s));
      }
    while (!q.empty()) {
      const unsigned st = q.front();
      q.pop_front();
      const unsigned x0 = st / L, l0 = st % L;
      const int dv = d[st];
      for (const LocalJump& j : js) {
        if ((j.f >= 0 && !(x0 >> j.f & 1)) || (j.o >= 0 && !(x0 >> j.o & 1)) ||
            (j.t >= 0 && (x0 >> j.t & 1)))
          continue;
        unsigned x1 = x0;
        if (j.f >= 0) x1 &= ~(1u << j.f);
        if (j.o >= 0) x1 &= ~(1u << j.o);
        if (j.t >= 0) x1 |= 1u << j.t;
        const unsigned l1 = static_cast<unsigned>(j.t >= 0 ? j.t : s);
        const int c = j.f >= 0 && l0 != static_cast<unsigned>(j.f) ? 1 : 0;
        const unsigned i = x1 * L + l1;
        relax(d, q, i, dv, c);
      }
    }
    for (std::size_t x = 0; x < (std::size_t{1} << s); ++x) {
      std::uint16_t least = kInf;
      for (unsigned l = 0; l < L; ++l) least = std::min(least, d[x * L + l]);
      for (unsigned l = 0; l < L; ++l) d[x * L + l] = least;
    }
    return d;
  }

  // The pattern tables' bound at the position whose patterns hold `px` xored with `flip` (a
  // jump's holes), the move under way going on from `land` (-1: none); kDead when a pattern
  // cannot reach a goal's (forward) or a start's (backward) placement. Backward, one less: the
  // last move made may go on past the position.
  template <bool Backward>
  int patterned(const std::array<std::uint16_t, kMaxPatterns>& px, const std::uint16_t* flip,
                int land) const {
    const std::uint8_t* zero = zero_[Backward].data();
    const std::uint8_t* gen = gen_[Backward].data();
    const int lp = land < 0 ? -1 : pat_of_[static_cast<std::size_t>(land)];
    const unsigned host = host_[Backward];
    int sum = 0, most = -kInf;
    for (int q = 0; q < patterns_; ++q) {
      const auto uq = static_cast<std::size_t>(q);
      const auto s = static_cast<unsigned>(size_[uq]);
      const unsigned x = static_cast<unsigned>(px[uq] ^ flip[uq]);
      const unsigned l =
          q == lp ? static_cast<unsigned>(bit_of_[static_cast<std::size_t>(land)]) : s;
      const std::size_t i = offset_[uq] + x * (s + 1) + l;
      const int z = zero[i];
      sum += z;
      if (host >> q & 1) most = std::max(most, z - static_cast<int>(gen[i]));
    }
    const int t = sum - most;
    if (t >= kNever) return kDead;
    return Backward ? std::max(0, t - 1) : t;
  }

  int patterns_ = 0;
  std::array<unsigned, 2> host_{};  // [forward, backward]: the patterns `most` runs over
  std::array<std::int8_t, W> pat_of_{}, bit_of_{};  // each hole's pattern and bit there
  std::array<int, kMaxPatterns> size_{};
  std::array<std::size_t, kMaxPatterns> offset_{};  // each pattern's first entry in the tables
  std::vector<std::uint16_t> jump_px_;  // [jump * kMaxPatterns + pattern]: its holes' bits
  // [0 forward, 1 backward][offset_ + pegs * (size + 1) + landing]: the fewest starts to an
  // empty pattern (forward) or from a full one (backward) when the goals hold at most one peg
  // (the starts at most one empty hole), else as gen_; gen_: to a goal's placement, from a
  // start's. The bound: zero_ summed, less the most a host pattern saves (zero_ less gen_).
  std::array<std::vector<std::uint8_t>, 2> zero_, gen_;

  std::size_t pagodas_ = 0;
  std::array<std::array<int, W>, kMaxPagodas> weight_{};
  std::vector<std::uint64_t> loss_;        // [jump]: each pagoda's loss + 1, 16 bits a pagoda
  int key_bytes_ = 0;                      // the key's bytes that hold holes
  std::vector<std::uint64_t> byte_value_;  // slack()'s tables (build_pagodas)
  // slack()'s constants, 16 bits a pagoda: the least value's negation (each lane of a value
  // plus base_ is within 0 .. kLane), the goal's lane less one, the start's lane plus one.
  std::uint64_t base_ = 0, goal_lanes_ = 0, start_lanes_ = 0;
  std::array<int, kMaxPagodas> start_value_{}, goal_value_{};

  Regions fwd_, bwd_;
  int max_exempt_end_ = 0, max_exempt_start_ = 0;
  int types_ = 0, goal_pegs_ = 0, start_pegs_ = 0;
  std::array<Bits<W>, kMaxTypes> mask_{};
  std::array<std::int8_t, W> type_of_{};  // each hole's peg type
  std::array<int, kMaxTypes> goal_most_{}, start_empty_{};
  std::array<std::vector<std::uint8_t>, 2> extra_;
  std::array<std::array<std::uint8_t, 1 << kMaxTypes>, 2> most_{};  // the most over the needs
};

}  // namespace pegsol::fewest_detail
