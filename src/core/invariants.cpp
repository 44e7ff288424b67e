// SPDX-License-Identifier: MIT
#include "pegsol/invariants.hpp"

#include <cmath>
#include <limits>
#include <set>

#include "pagodas.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

std::vector<bool> position_class(const Board& board, const HoleSet& pegs) {
  check_position(board, pegs, "pegs");
  std::vector<bool> cls;
  for (const HoleSet& inv : board.class_invariants()) {
    int c = 0;
    for (int h : inv.members()) c += pegs.test(h);
    cls.push_back(c & 1);
  }
  return cls;
}

HoleSet admissible_finals(const Board& board, const HoleSet& start) {
  check_position(board, start, "start");
  HoleSet ok(board.size());
  std::vector<bool> cls = position_class(board, start);
  std::vector<int> type_pegs(static_cast<std::size_t>(board.peg_type_count()), 0);
  for (int h : start.members()) ++type_pegs[static_cast<std::size_t>(board.peg_type(h))];
  for (int h = 0; h < board.size(); ++h) {
    if (type_pegs[static_cast<std::size_t>(board.peg_type(h))] == 0) continue;
    HoleSet one(board.size());
    one.set(h);
    if (position_class(board, one) == cls) ok.set(h);
  }
  return ok;
}

void Pagoda::no_weight(int hole) const {
  throw InputError("j", "hole " + std::to_string(hole) + " has no weight (the pagoda has " +
                            std::to_string(weight.size()) + ")");
}

long long Pagoda::value(const HoleSet& pegs) const {
  if (static_cast<std::size_t>(pegs.size()) != weight.size())
    throw InputError("pegs", "a position of " + std::to_string(pegs.size()) +
                                 " holes; the pagoda has " + std::to_string(weight.size()) +
                                 " weights");
  long long v = 0;
  for (int h : pegs.members()) v += weight[static_cast<std::size_t>(h)];
  return v;
}

bool is_pagoda(const Board& board, const Pagoda& p) {
  if (static_cast<int>(p.weight.size()) != board.size()) return false;
  for (const Jump& j : board.jumps())
    if (p.loss(j) < 0) return false;
  return true;
}

namespace {

// Dense simplex for: maximise c.x subject to A x <= b, x >= 0, with b >= 0 (so the slack basis is
// feasible). Returns x at the optimum, or nullopt when unbounded or (`spent` set) past `budget`
// pivots, or when `control` (if given) says to stop (`spent` clear). Exact: Bland's rule, which
// cannot cycle on the many degenerate (b = 0) rows. Perturbed: the pivots run on b with each entry
// raised by its own amount below 2e-7, so that those rows do not stall them, by Dantzig's rule
// (Bland's after a run of degenerate pivots); the same pivots carry the exact b beside it, and x is
// the final basis's vertex of the exact problem.
std::optional<std::vector<double>> simplex_run(const std::vector<std::vector<double>>& A,
                                               const std::vector<double>& b,
                                               const std::vector<double>& c, bool perturbed,
                                               int budget, bool& spent, const Control* control) {
  spent = false;
  const std::size_t m = A.size(), n = c.size(), vars = n + m, rhs = vars, exact = vars + 1;
  const std::size_t cols = vars + 2;
  std::vector<double> T((m + 1) * cols, 0.0);
  auto at = [&](std::size_t r, std::size_t k) -> double& { return T[r * cols + k]; };
  std::vector<std::size_t> basis(m);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t k = 0; k < n; ++k) at(i, k) = A[i][k];
    at(i, n + i) = 1;
    at(i, rhs) =
        b[i] + (perturbed ? 1e-7 * (1.0 + static_cast<double>((i * 37) % 101) / 101.0) : 0);
    at(i, exact) = b[i];
    basis[i] = n + i;
  }
  for (std::size_t k = 0; k < n; ++k) at(m, k) = -c[k];
  const double eps = 1e-9;
  const int dantzig = perturbed ? 50 : 0;  // degenerate pivots in a row before Bland's rule
  int stalled = 0;
  for (int iter = 0; iter < budget; ++iter) {
    if (control && (iter & 15) == 0 && control->should_stop()) return std::nullopt;
    std::size_t enter = vars;
    double most = -eps;
    for (std::size_t k = 0; k < vars; ++k)
      if (at(m, k) < most) {
        enter = k;
        if (stalled >= dantzig) break;
        most = at(m, k);
      }
    if (enter == vars) {
      std::vector<double> x(n, 0.0);
      for (std::size_t i = 0; i < m; ++i)
        if (basis[i] < n) x[basis[i]] = perturbed ? std::max(0.0, at(i, exact)) : at(i, exact);
      return x;
    }
    std::size_t leave = m;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m; ++i) {
      double a = at(i, enter);
      if (a > eps) {
        double ratio = at(i, rhs) / a;
        if (ratio < best - eps || (ratio < best + eps && leave < m && basis[i] < basis[leave])) {
          best = ratio;
          leave = i;
        }
      }
    }
    if (leave == m) return std::nullopt;
    stalled = best > eps ? 0 : stalled + 1;
    double piv = at(leave, enter);
    for (std::size_t k = 0; k < cols; ++k) at(leave, k) /= piv;
    for (std::size_t i = 0; i <= m; ++i) {
      if (i == leave) continue;
      double f = at(i, enter);
      if (std::fabs(f) < 1e-15) continue;
      for (std::size_t k = 0; k < cols; ++k) at(i, k) -= f * at(leave, k);
    }
    basis[leave] = enter;
  }
  spent = true;
  return std::nullopt;
}

// maximise c.x subject to A x <= b, x >= 0 (b >= 0): x at the optimum, or nullopt when
// unbounded, out of pivots or stopped by `control`. The exact simplex first, with 5,000 pivots (the
// LPs of the 33- to 45-hole boards' tables took at most about 1,700), then the perturbed one, which
// answers the 66-hole triangle's LPs in a few hundred (Bland's rule ran through 50,000 there
// without an answer). Not the perturbed one first: its optimal vertices gave the Diamond 41 table's
// passes weaker pruning pagodas, which doubled that table's time.
std::optional<std::vector<double>> simplex(const std::vector<std::vector<double>>& A,
                                           const std::vector<double>& b,
                                           const std::vector<double>& c, const Control* control) {
  bool spent = false;
  if (auto x = simplex_run(A, b, c, false, 5000, spent, control); x || !spent) return x;
  return simplex_run(A, b, c, true, 50000, spent, control);
}

constexpr int kPagodaLpMaxHoles = 100;

std::string names_of(const Board& board, const std::vector<int>& holes) {
  std::string s;
  for (int h : holes) s += (s.empty() ? "" : " ") + board.hole_name(h);
  return s;
}

}  // namespace

std::string pagoda_text(const Board& board, const Pagoda& p) {
  if (static_cast<int>(p.weight.size()) != board.size())
    throw InputError("p", "a pagoda of " + std::to_string(p.weight.size()) + " weights; board " +
                              board.name() + " has " + std::to_string(board.size()) + " holes");
  std::string s;
  for (int h = 0; h < board.size(); ++h)
    if (p.weight[static_cast<std::size_t>(h)] != 0)
      s += (s.empty() ? "" : " ") + board.hole_name(h) + "=" +
           std::to_string(p.weight[static_cast<std::size_t>(h)]);
  return s;
}

namespace {

HoleSet single(const Board& board, int hole) {
  HoleSet s(board.size());
  s.set(hole);
  return s;
}

// The LP vertex `w` scaled and rounded to the first exact pagoda that `accept` takes, or
// nullopt. Vertices of these LPs have small denominators.
template <class Accept>
std::optional<Pagoda> rounded(const Board& board, const std::vector<double>& w, Accept&& accept) {
  for (int d : {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 30, 32, 48, 60, 64, 120, 128, 256}) {
    Pagoda p;
    for (double v : w) p.weight.push_back(std::llround(v * d));
    if (is_pagoda(board, p) && accept(p)) return p;
  }
  return std::nullopt;
}

// The distinct rows of w(to) - w(from) - w(over) over the board's jumps, one weight per hole.
std::vector<std::vector<double>> jump_rows(const Board& board) {
  std::set<std::vector<double>> rows;
  for (const Jump& j : board.jumps()) {
    std::vector<double> row(static_cast<std::size_t>(board.size()), 0.0);
    row[static_cast<std::size_t>(j.to)] += 1;
    row[static_cast<std::size_t>(j.from)] -= 1;
    row[static_cast<std::size_t>(j.over)] -= 1;
    rows.insert(row);
  }
  return {rows.begin(), rows.end()};
}

}  // namespace

std::optional<Pagoda> find_separating_pagoda(const Board& board, const HoleSet& start,
                                             const HoleSet& target) {
  return detail::find_separating_pagoda(board, start, target, nullptr);
}

std::optional<Pagoda> detail::find_separating_pagoda(const Board& board, const HoleSet& start,
                                                     const HoleSet& target,
                                                     const Control* control) {
  check_position(board, start, "start");
  check_position(board, target, "target");
  const int n = board.size();
  if (n > kPagodaLpMaxHoles) return std::nullopt;
  const auto un = static_cast<std::size_t>(n);
  const std::vector<std::vector<double>> jumps = jump_rows(board);
  // First over pagodas with 0 <= w <= 1: maximise value(target) - value(start).
  std::vector<std::vector<double>> A = jumps;
  std::vector<double> b(A.size(), 0.0);
  for (int h = 0; h < n; ++h) {
    std::vector<double> row(un, 0.0);
    row[static_cast<std::size_t>(h)] = 1;
    A.push_back(row);
    b.push_back(1.0);
  }
  std::vector<double> c(un, 0.0);
  for (int h = 0; h < n; ++h) c[static_cast<std::size_t>(h)] = target.test(h) - start.test(h);
  auto separates = [&](const Pagoda& p) { return p.value(start) < p.value(target); };
  if (auto x = simplex(A, b, c, control))
    if (auto p = rounded(board, *x, separates)) return p;
  if (control && control->should_stop()) return std::nullopt;
  // Then with negative weights too (resource counts: a corner peg that must still be moved
  // costs), -1 <= w <= 1, as w = 1 - u with 0 <= u <= 2 so that the simplex starts feasible:
  // w(to) <= w(from) + w(over) is u(from) + u(over) - u(to) <= 1, and value(target) -
  // value(start) is a constant less sum (target - start) u.
  for (std::size_t r = 0; r < jumps.size(); ++r) {
    for (std::size_t k = 0; k < un; ++k) A[r][k] = -jumps[r][k];
    b[r] = 1.0;
  }
  for (std::size_t r = jumps.size(); r < A.size(); ++r) b[r] = 2.0;
  for (std::size_t k = 0; k < un; ++k) c[k] = -c[k];
  auto u = simplex(A, b, c, control);
  if (!u) return std::nullopt;
  std::vector<double> w(un);
  for (std::size_t k = 0; k < un; ++k) w[k] = 1.0 - (*u)[k];
  return rounded(board, w, separates);
}

namespace {

// Pagodas with value(start) - value(goal) <= slack (weights in [-1, 1]), each losing on the most
// jumps, in total, that the earlier ones lose nothing on; at most max_count. With slack 0 each is
// also checked tight after rounding.
std::vector<Pagoda> lossy_pagodas(const Board& board, const HoleSet& start, const HoleSet& goal,
                                  int max_count, double slack, const Control* control = nullptr) {
  std::vector<Pagoda> out;
  const int n = board.size();
  if (n > kPagodaLpMaxHoles) return out;
  const auto un = static_cast<std::size_t>(n);
  const std::vector<std::vector<double>> jumps = jump_rows(board);
  // w = p - q with 0 <= p, q <= 1: every constraint but the box is homogeneous, so x = 0 is a
  // feasible start for the simplex. Rows: w(to) - w(from) - w(over) <= 0 for each jump,
  // value(start) - value(goal) <= slack, then the box.
  std::vector<std::vector<double>> A;
  std::vector<double> b;
  auto add = [&](const std::vector<double>& a, double rhs) {
    std::vector<double> row(2 * un);
    for (std::size_t k = 0; k < un; ++k) {
      row[k] = a[k];
      row[un + k] = -a[k];
    }
    A.push_back(std::move(row));
    b.push_back(rhs);
  };
  for (const auto& a : jumps) add(a, 0.0);
  std::vector<double> diff(un);
  for (int h = 0; h < n; ++h) diff[static_cast<std::size_t>(h)] = start.test(h) - goal.test(h);
  add(diff, slack);
  for (std::size_t k = 0; k < 2 * un; ++k) {
    std::vector<double> row(2 * un, 0.0);
    row[k] = 1;
    A.push_back(std::move(row));
    b.push_back(1.0);
  }
  std::vector<bool> open(jumps.size(), true);  // jumps no pagoda found yet loses on
  while (static_cast<int>(out.size()) < max_count) {
    // Maximise the loss, w(from) + w(over) - w(to), summed over the open jumps.
    std::vector<double> c(2 * un, 0.0);
    for (std::size_t r = 0; r < jumps.size(); ++r)
      if (open[r])
        for (std::size_t k = 0; k < un; ++k) {
          c[k] -= jumps[r][k];
          c[un + k] += jumps[r][k];
        }
    auto x = simplex(A, b, c, control);
    if (!x) break;
    std::vector<double> w(un);
    for (std::size_t k = 0; k < un; ++k) w[k] = (*x)[k] - (*x)[un + k];
    // Whether `p` loses on the jump of row r: w(from) + w(over) - w(to) > 0.
    auto loses = [&](const Pagoda& p, std::size_t r) {
      long long loss = 0;
      for (std::size_t k = 0; k < un; ++k)
        loss -= static_cast<long long>(jumps[r][k]) * p.weight[k];
      return loss > 0;
    };
    // Tight (when asked), and losing on a jump still open (a rounding to zero is no new pagoda).
    auto p = rounded(board, w, [&](const Pagoda& q) {
      if (slack == 0 && q.value(start) > q.value(goal)) return false;
      for (std::size_t r = 0; r < jumps.size(); ++r)
        if (open[r] && loses(q, r)) return true;
      return false;
    });
    if (!p) break;
    for (std::size_t r = 0; r < jumps.size(); ++r)
      if (loses(*p, r)) open[r] = false;
    out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace

std::vector<Pagoda> find_tight_pagodas(const Board& board, const HoleSet& start,
                                       const HoleSet& goal, int max_count) {
  return detail::find_tight_pagodas(board, start, goal, max_count, nullptr);
}

std::vector<Pagoda> detail::find_tight_pagodas(const Board& board, const HoleSet& start,
                                               const HoleSet& goal, int max_count,
                                               const Control* control) {
  check_position(board, start, "start");
  check_position(board, goal, "goal");
  return lossy_pagodas(board, start, goal, max_count, 0.0, control);
}

std::vector<Pagoda> find_pruning_pagodas(const Board& board, const HoleSet& start,
                                         const HoleSet& goal, int max_count) {
  return detail::find_pruning_pagodas(board, start, goal, max_count, nullptr);
}

std::vector<Pagoda> detail::find_pruning_pagodas(const Board& board, const HoleSet& start,
                                                 const HoleSet& goal, int max_count,
                                                 const Control* control) {
  check_position(board, start, "start");
  check_position(board, goal, "goal");
  return lossy_pagodas(board, start, goal, max_count, 1.0, control);
}

std::optional<std::string> impossibility(const Problem& p) {
  return detail::impossibility(p, nullptr);
}

std::optional<std::string> detail::impossibility(const Problem& p, const Control* control) {
  check_problem(p);
  const Board& board = *p.board;
  const int have = p.start.count(), need = goal_pegs(p);
  if (need > have)
    return "the goal has " + std::to_string(need) + " pegs and the start only " +
           std::to_string(have) + "; every jump removes a peg";
  if (need == have) {
    if (goal_reached(p, p.start)) return std::nullopt;
    return "the goal has as many pegs as the start but is a different position; every jump "
           "removes a peg";
  }
  if (p.goal.kind == Goal::Kind::Any) {
    HoleSet ok = admissible_finals(board, p.start);
    if (ok.count() == 0)
      return "position class and peg types: no hole can hold the last peg (for each hole, either "
             "the parities of the pegs on the board's class sets differ from the start's, or no "
             "peg of that hole's type is on the board)";
    // Pagoda proofs would need one linear program per admissible hole: left to the search.
    return std::nullopt;
  }
  HoleSet target =
      p.goal.kind == Goal::Kind::Position ? p.goal.position : single(board, p.goal.hole);
  const auto& invs = board.class_invariants();
  for (std::size_t i = 0; i < invs.size(); ++i) {
    int a = 0, g = 0;
    for (int h : invs[i].members()) {
      a += p.start.test(h);
      g += target.test(h);
    }
    if ((a & 1) != (g & 1))
      return "position class: every jump changes an even number of the holes {" +
             names_of(board, invs[i].members()) +
             "}, so the parity of the pegs on them never changes; the start has " +
             std::to_string(a) + " there, the goal " + std::to_string(g);
  }
  std::vector<int> type_have(static_cast<std::size_t>(board.peg_type_count()), 0),
      type_need = type_have;
  for (int h : p.start.members()) ++type_have[static_cast<std::size_t>(board.peg_type(h))];
  for (int h : target.members()) ++type_need[static_cast<std::size_t>(board.peg_type(h))];
  for (int t = 0; t < board.peg_type_count(); ++t)
    if (type_need[static_cast<std::size_t>(t)] > type_have[static_cast<std::size_t>(t)]) {
      std::vector<int> holes;
      for (int h = 0; h < board.size(); ++h)
        if (board.peg_type(h) == t) holes.push_back(h);
      return "peg types: a peg only ever moves among the holes {" + names_of(board, holes) +
             "}; the goal needs " + std::to_string(type_need[static_cast<std::size_t>(t)]) +
             " pegs there and the start has " +
             std::to_string(type_have[static_cast<std::size_t>(t)]);
    }
  if (auto pag = detail::find_separating_pagoda(board, p.start, target, control))
    return "pagoda function: with weights " + pagoda_text(board, *pag) +
           " (w(from)+w(over) >= w(to) for every jump, so the weighted peg sum never increases) "
           "the start is worth " +
           std::to_string(pag->value(p.start)) + " and the goal " +
           std::to_string(pag->value(target));
  return std::nullopt;
}

}  // namespace pegsol
