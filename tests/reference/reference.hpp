// SPDX-License-Identifier: MIT
#pragma once
// Deliberately simple reference solvers the engine tests check against: plain loops over the
// board's jump list, positions as HoleSets keyed by one word, memoised recursion and breadth-first
// search, with no bit layout, symmetry reduction, invariant or pruning of the engines'. Boards of
// at most 64 holes (57 for fewest_moves()).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/problem.hpp"

namespace pegsol::reference {

// ---- Positions and jumps ----

// The problem of one vacancy at the hole named `start` on the catalogue board `spec`: to one peg
// anywhere, or on the hole named `end` when it is given.
inline Problem vacancy(const std::string& spec, const std::string& start,
                       const std::string& end = "") {
  BoardPtr b = make_board(spec);
  Problem p{b, single_vacancy(*b, *b->find(start)), Goal{}};
  if (!end.empty()) p.goal = Goal{Goal::Kind::Hole, *b->find(end), {}};
  return p;
}

// The position as one word, hole h as bit h.
inline std::uint64_t key(const HoleSet& s) {
  if (s.size() > 64) throw std::invalid_argument("reference: boards of at most 64 holes");
  std::uint64_t k = 0;
  for (int h : s.members()) k |= std::uint64_t{1} << h;
  return k;
}

// The indices in b.jumps() of the jumps legal in `pegs` (peg on from and over, to empty), in order.
inline std::vector<int> legal_jump_indices(const Board& b, const HoleSet& pegs) {
  std::vector<int> out;
  for (std::size_t j = 0; j < b.jumps().size(); ++j) {
    const Jump& J = b.jumps()[j];
    if (pegs.test(J.from) && pegs.test(J.over) && !pegs.test(J.to))
      out.push_back(static_cast<int>(j));
  }
  return out;
}

// The jumps legal in `pegs`, in the board's jump order.
inline std::vector<Jump> legal_jumps(const Board& b, const HoleSet& pegs) {
  std::vector<Jump> out;
  for (int j : legal_jump_indices(b, pegs)) out.push_back(b.jumps()[static_cast<std::size_t>(j)]);
  return out;
}

// The position after the jump `j` (assumed legal): from and over emptied, to filled.
inline HoleSet after(HoleSet pegs, const Jump& j) {
  pegs.set(j.from, false);
  pegs.set(j.over, false);
  pegs.set(j.to, true);
  return pegs;
}

// The index of `j` in b.jumps() (its size when `j` is not one of them).
inline int jump_index(const Board& b, const Jump& j) {
  const auto& js = b.jumps();
  return static_cast<int>(std::find(js.begin(), js.end(), j) - js.begin());
}

// ---- Reachability ----

// Every position reachable from `start` by legal jumps, `start` included, each once, in
// breadth-first order.
inline std::vector<HoleSet> reachable(const Board& b, const HoleSet& start) {
  std::unordered_set<std::uint64_t> seen{key(start)};
  std::vector<HoleSet> out{start};
  for (std::size_t i = 0; i < out.size(); ++i)
    for (const Jump& j : legal_jumps(b, out[i])) {
      HoleSet next = after(out[i], j);
      if (seen.insert(key(next)).second) out.push_back(next);
    }
  return out;
}

// The positions reachable from `start` (itself included) by their number of pegs, as
// HoleSet::to_bits() strings.
inline std::map<int, std::set<std::string>> reachable_by_pegs(const Board& b,
                                                              const HoleSet& start) {
  std::map<int, std::set<std::string>> out;
  for (const HoleSet& s : reachable(b, start)) out[s.count()].insert(s.to_bits());
  return out;
}

// The holes on which a single peg can be left from `start`: the one-peg positions reachable.
inline std::set<int> one_peg_holes(const Board& b, const HoleSet& start) {
  std::set<int> out;
  for (const HoleSet& s : reachable(b, start))
    if (s.count() == 1) out.insert(s.members()[0]);
  return out;
}

// For each single vacancy v of the board, the holes on which one peg can be left from it (what
// solvability_table() computes): searched from the least vacancy of each symmetry class, the
// others the images of theirs.
inline std::vector<HoleSet> one_peg_table(const Board& b) {
  const int n = b.size();
  std::vector<HoleSet> out(static_cast<std::size_t>(n), HoleSet(n));
  for (int v = 0; v < n; ++v) {
    if (std::any_of(b.symmetries().begin(), b.symmetries().end(),
                    [&](const std::vector<int>& s) { return s[static_cast<std::size_t>(v)] < v; }))
      continue;
    const std::set<int> ends = one_peg_holes(b, single_vacancy(b, v));
    for (const std::vector<int>& s : b.symmetries())
      for (int h : ends)
        out[static_cast<std::size_t>(s[static_cast<std::size_t>(v)])].set(
            s[static_cast<std::size_t>(h)]);
  }
  return out;
}

// Whether some sequence of legal jumps leads from p.start to a position meeting p.goal.
inline bool reaches(const Problem& p) {
  std::unordered_map<std::uint64_t, bool> memo;
  std::function<bool(const HoleSet&)> visit = [&](const HoleSet& pos) {
    if (goal_reached(p, pos)) return true;
    const std::uint64_t k = key(pos);
    if (auto it = memo.find(k); it != memo.end()) return it->second;
    bool ok = false;
    for (const Jump& j : legal_jumps(*p.board, pos))
      if ((ok = visit(after(pos, j)))) break;
    memo[k] = ok;
    return ok;
  };
  return visit(p.start);
}

// ---- Counts ----

// Jump sequences from a position counted by memoised recursion, for one board and goal. Not
// thread-safe while it fills its memos; reading what is already there is.
class Counts {
 public:
  explicit Counts(Problem p) : p_(std::move(p)), b_(*p_.board) {}

  // Sequences of legal jumps from `s` to a position meeting the goal (1 when `s` meets it).
  Count to_goal(const HoleSet& s) {
    if (goal_reached(p_, s)) return 1;
    const std::uint64_t k = key(s);
    if (auto it = goal_.find(k); it != goal_.end()) return it->second;
    Count c = 0;
    for (const Jump& j : legal_jumps(b_, s)) c += to_goal(after(s, j));
    return goal_[k] = c;
  }

  // Sequences of legal jumps from `s` to a position without one (1 when `s` has none): games.
  Count games(const HoleSet& s) {
    const std::uint64_t k = key(s);
    if (auto it = games_.find(k); it != games_.end()) return it->second;
    const std::vector<Jump> js = legal_jumps(b_, s);
    Count c = js.empty() ? 1 : 0;
    for (const Jump& j : js) c += games(after(s, j));
    return games_[k] = c;
  }

  // Sequences of legal jumps from `s` to one peg, by the hole of that peg.
  const std::vector<Count>& to_one_peg(const HoleSet& s) {
    const std::uint64_t k = key(s);
    if (auto it = ends_.find(k); it != ends_.end()) return it->second;
    std::vector<Count> c(static_cast<std::size_t>(b_.size()), 0);
    if (s.count() == 1) c[static_cast<std::size_t>(s.members()[0])] = 1;
    for (const Jump& j : legal_jumps(b_, s)) {
      const std::vector<Count>& d = to_one_peg(after(s, j));  // nodes stay where they are
      for (std::size_t h = 0; h < c.size(); ++h) c[h] += d[h];
    }
    return ends_.emplace(k, std::move(c)).first->second;
  }

  // The chance that a player choosing uniformly among the legal jumps from `s` ends with one peg.
  double one_peg_chance(const HoleSet& s) {
    const std::uint64_t k = key(s);
    if (auto it = chance_.find(k); it != chance_.end()) return it->second;
    const std::vector<Jump> js = legal_jumps(b_, s);
    double q = js.empty() && s.count() == 1 ? 1.0 : 0.0;
    for (const Jump& j : js) q += one_peg_chance(after(s, j)) / static_cast<double>(js.size());
    return chance_[k] = q;
  }

  // Every sequence of legal jumps from `s` to a position meeting the goal, as indices in the
  // board's jump list.
  std::vector<std::vector<int>> solutions(const HoleSet& s) {
    std::vector<std::vector<int>> out;
    std::vector<int> path;
    std::function<void(const HoleSet&)> walk = [&](const HoleSet& at) {
      if (goal_reached(p_, at)) {
        out.push_back(path);
        return;
      }
      if (to_goal(at) == 0) return;
      for (int j : legal_jump_indices(b_, at)) {
        path.push_back(j);
        walk(after(at, b_.jumps()[static_cast<std::size_t>(j)]));
        path.pop_back();
      }
    };
    walk(s);
    return out;
  }

 private:
  Problem p_;
  const Board& b_;
  std::unordered_map<std::uint64_t, Count> goal_, games_;
  std::unordered_map<std::uint64_t, std::vector<Count>> ends_;
  std::unordered_map<std::uint64_t, double> chance_;
};

// ---- Symmetry classes ----

// The image of a position under a permutation of the holes.
inline HoleSet image(const std::vector<int>& perm, const HoleSet& s) {
  HoleSet out(s.size());
  for (int h : s.members()) out.set(perm[static_cast<std::size_t>(h)]);
  return out;
}

// The board's symmetries that map p.start to itself and p.goal to itself (any goal is its own
// image), the identity among them.
inline std::vector<std::vector<int>> stabilizer(const Problem& p) {
  std::vector<std::vector<int>> out;
  for (const std::vector<int>& perm : p.board->symmetries()) {
    if (image(perm, p.start) != p.start) continue;
    if (p.goal.kind == Goal::Kind::Hole &&
        perm[static_cast<std::size_t>(p.goal.hole)] != p.goal.hole)
      continue;
    if (p.goal.kind == Goal::Kind::Position && image(perm, p.goal.position) != p.goal.position)
      continue;
    out.push_back(perm);
  }
  return out;
}

// The least HoleSet::to_bits() string among the images of `s` under `group`.
inline std::string least_image(const std::vector<std::vector<int>>& group, const HoleSet& s) {
  std::string best = s.to_bits();
  for (const std::vector<int>& perm : group) best = std::min(best, image(perm, s).to_bits());
  return best;
}

// The least, as a list of jump indices, of the images of a jump sequence under `group`.
inline std::vector<int> least_image(const Board& b, const std::vector<std::vector<int>>& group,
                                    const std::vector<int>& seq) {
  std::vector<int> best = seq;
  for (const std::vector<int>& perm : group) {
    std::vector<int> t;
    for (int j : seq) {
      const Jump& J = b.jumps()[static_cast<std::size_t>(j)];
      t.push_back(jump_index(
          b, {perm[static_cast<std::size_t>(J.from)], perm[static_cast<std::size_t>(J.over)],
              perm[static_cast<std::size_t>(J.to)]}));
    }
    best = std::min(best, t);
  }
  return best;
}

// One member of the class of a jump sequence under reordering of jumps that share no hole: the
// smallest jump index that no earlier remaining jump shares a hole with, taken repeatedly.
inline std::vector<int> reordering_normal_form(const Board& b, std::vector<int> seq) {
  auto touch = [&](int a, int c) {
    const Jump &A = b.jumps()[static_cast<std::size_t>(a)],
               &C = b.jumps()[static_cast<std::size_t>(c)];
    for (int x : {A.from, A.over, A.to})
      for (int y : {C.from, C.over, C.to})
        if (x == y) return true;
    return false;
  };
  std::vector<int> out;
  while (!seq.empty()) {
    std::size_t pick = seq.size();
    for (std::size_t i = 0; i < seq.size(); ++i) {
      bool free = true;
      for (std::size_t e = 0; e < i && free; ++e) free = !touch(seq[e], seq[i]);
      if (free && (pick == seq.size() || seq[i] < seq[pick])) pick = i;
    }
    out.push_back(seq[pick]);
    seq.erase(seq.begin() + static_cast<long>(pick));
  }
  return out;
}

// ---- Fewest moves ----

// The fewest moves from `start` to each position of `pegs_left` pegs reachable from it (position
// as key() -> moves), a move being a chain of jumps by one peg: breadth-first search with 0-1
// weights over (pegs, hole the last jump landed on or -1), where a jump from the last landing hole
// costs nothing and any other one move.
inline std::map<std::uint64_t, int> fewest_moves(const Board& b, std::uint64_t start,
                                                 int pegs_left) {
  using Mask = std::uint64_t;
  if (b.size() > 57) throw std::invalid_argument("reference: boards of at most 57 holes");
  // The state in one word: the landing hole plus one in the low 6 bits.
  auto state_of = [](Mask pegs, int last) { return pegs << 6 | static_cast<Mask>(last + 1); };
  std::unordered_map<Mask, int> dist;
  std::deque<Mask> queue;
  dist[state_of(start, -1)] = 0;
  queue.push_back(state_of(start, -1));
  std::map<Mask, int> out;
  while (!queue.empty()) {
    const Mask state = queue.front();
    queue.pop_front();
    const Mask pegs = state >> 6;
    const int last = static_cast<int>(state & 63) - 1;
    const int d = dist[state];
    if (std::popcount(pegs) == pegs_left) {
      auto it = out.find(pegs);
      if (it == out.end() || d < it->second) out[pegs] = d;
      continue;
    }
    for (const Jump& j : b.jumps()) {
      const Mask f = Mask{1} << j.from, o = Mask{1} << j.over, t = Mask{1} << j.to;
      if (!(pegs & f) || !(pegs & o) || (pegs & t)) continue;
      const Mask next = (pegs & ~f & ~o) | t;
      const int w = j.from == last ? 0 : 1;
      const Mask k = state_of(next, j.to);
      auto it = dist.find(k);
      if (it != dist.end() && it->second <= d + w) continue;
      dist[k] = d + w;
      if (w == 0)
        queue.push_front(k);
      else
        queue.push_back(k);
    }
  }
  return out;
}

}  // namespace pegsol::reference
