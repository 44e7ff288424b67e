// SPDX-License-Identifier: MIT
// The fewest-moves search's admissible bound: Merson regions, peg types and tight pagodas.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
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
  static constexpr std::size_t kMaxPagodas = 4;  // tight pagodas (build_pagodas)
  static constexpr int kMaxTypes = 6;            // peg types (build_types)
  // pagoda_jumps: FewestOptions::pagoda_jumps.
  Bound(const Board& b, const std::vector<Bits<W>>& starts, const std::vector<Bits<W>>& goals,
        int pagoda_jumps) {
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
    build_pagodas(b, starts, goals, pagoda_jumps);
  }

  // child() for a position on no solution (a tight pagoda rules it out): dropped, not counted.
  static constexpr int kDead = 1 << 20;

  // A position's family: the regions counted (full ones forward, changed ones backward), how
  // many of them are exempt, and the region of each hole in it (-1: none).
  struct Pack {
    int n = 0, exempt = 0, count = 0;  // count: the position's pegs
    Bits<W> used;
    std::array<std::int16_t, W> owner;
    std::array<int, kMaxPagodas> value{};  // each tight pagoda's value at the position
    // The peg types of which there are more pegs than a goal holds (forward) or more empty holes
    // than the start has (backward): typed()'s needs; need2: at least two more (a jump takes one).
    unsigned need = 0, need2 = 0;
  };
  // Only the tight pagodas' values: all that dead() reads (a search without a limit).
  Pack values(Bits<W> pegs) const {
    Pack p;
    for (std::size_t k = 0; k < pagodas_; ++k)
      for (Bits<W> x = pegs; x.any(); x.pop_lowest())
        p.value[k] += weight_[k][static_cast<std::size_t>(x.lowest())];
    return p;
  }
  template <bool Backward>
  Pack pack(Bits<W> pegs) const {
    const Regions& rs = Backward ? bwd_ : fwd_;
    Pack p = values(pegs);
    p.count = pegs.count();
    p.owner.fill(-1);
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
  int child(const Pack& p, Bits<W> child, const Jump& jp, int enough = kDead) const {
    if (dead<Backward>(p, jp)) return kDead;
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
    if (Backward) return std::max(0, regions + typed<true>(need, p.count + 1, used, Bits<W>{}) - 1);
    return regions + typed<false>(need, p.count - 1, used, Bits<W>::single(jp.to));
  }

  // Whether a tight pagoda rules out the child made from a position whose family (or values())
  // is `p` by the jump `jp`: forward the child loses the jump's loss on each tight pagoda, taken
  // back it gains it.
  template <bool Backward>
  bool dead(const Pack& p, const Jump& jp) const {
    for (std::size_t k = 0; k < pagodas_; ++k) {
      const auto& w = weight_[k];
      const int loss = w[static_cast<std::size_t>(jp.from)] + w[static_cast<std::size_t>(jp.over)] -
                       w[static_cast<std::size_t>(jp.to)];
      if (Backward ? p.value[k] + loss > start_value_[k] : p.value[k] - loss < goal_value_[k])
        return true;
    }
    return false;
  }

  // At least this many moves from `pegs` to a goal, where the last jump landed on a hole of
  // `land` (none: no move under way).
  int forward(Bits<W> pegs, Bits<W> land = {}) const {
    const Pack p = pack<false>(pegs);
    bool goes_on = false;
    for (Bits<W> x = land; x.any(); x.pop_lowest())
      goes_on = goes_on || p.owner[static_cast<std::size_t>(x.lowest())] >= 0;
    return std::max(0, p.n - std::min(p.exempt, max_exempt_end_) - (goes_on ? 1 : 0)) +
           typed<false>(p.need, p.count, p.used, land);
  }

 private:
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
  // is on none. Problems of fewer than `min_jumps` jumps (FewestOptions::pagoda_jumps) go
  // without.
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
    for (const Pagoda& pg : find_tight_pagodas(b, s, g, static_cast<int>(kMaxPagodas))) {
      auto& w = weight_[pagodas_];
      w.fill(0);
      for (int h = 0; h < b.size(); ++h)
        w[static_cast<std::size_t>(h)] = static_cast<int>(pg.weight[static_cast<std::size_t>(h)]);
      start_value_[pagodas_] = static_cast<int>(pg.value(s));
      goal_value_[pagodas_] = static_cast<int>(pg.value(g));
      ++pagodas_;
    }
  }
  std::size_t pagodas_ = 0;
  std::array<std::array<int, W>, kMaxPagodas> weight_{};
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
