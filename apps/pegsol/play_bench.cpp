// SPDX-License-Identifier: MIT
// `pegsol bench --play`: the analysis a player sees after each move, along random games.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench.hpp"
#include "cli.hpp"
#include "pegsol/analysis.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"
#include "pegsol/path_index.hpp"
#include "pegsol/play.hpp"

namespace pegsol::cli {

namespace {

// One row of the bench: a problem whose games are played from its start, or with `edited`, games
// from random starts of `edited` pegs and more (a position a player drew in the editor).
struct PlayCase {
  std::string name;
  Problem problem;
  int edited = 0;
};

std::vector<PlayCase> play_cases() {
  std::vector<PlayCase> out;
  auto add = [&](const std::string& board, const std::string& start, const std::string& end) {
    BoardPtr b = make_board(board);
    Problem p = default_problem(b);
    if (!start.empty()) p.start = single_vacancy(*b, *b->find(start));
    if (end == "any")
      p.goal = Goal{};
    else if (!end.empty())
      p.goal = Goal{Goal::Kind::Hole, *b->find(end), {}};
    out.push_back({board + " " + (start.empty() ? "default" : start + " -> " + end), p});
  };
  add("english", "", "");
  add("english", "e4", "any");
  add("english", "c1", "any");
  add("french", "", "");
  add("diamond41", "", "");
  add("wiegleb", "", "");
  for (const char* t : {"triangle:5", "triangle:6", "triangle:7", "triangle:8"}) add(t, "", "");
  BoardPtr english = make_board("english");
  out.push_back({"english edited (18-26 pegs) -> any", Problem{english, HoleSet(33), Goal{}}, 18});
  return out;
}

// A random start of `least` to least + 8 pegs.
HoleSet random_start(const Board& b, int least, std::mt19937_64& rng) {
  std::vector<int> holes(static_cast<std::size_t>(b.size()));
  for (int h = 0; h < b.size(); ++h) holes[static_cast<std::size_t>(h)] = h;
  std::shuffle(holes.begin(), holes.end(), rng);
  const int pegs = least + static_cast<int>(rng() % 9);
  HoleSet s(b.size());
  for (int i = 0; i < pegs && i < b.size(); ++i) s.set(holes[static_cast<std::size_t>(i)]);
  return s;
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// The process's CPU time as a Control's clock: an analysis runs on one thread, so a budget of it
// buys the same work on a loaded machine as on an idle one, only later.
Control::Clock::time_point cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return Control::Clock::time_point(std::chrono::seconds(ts.tv_sec) +
                                    std::chrono::nanoseconds(ts.tv_nsec));
}

// Waits until p's look-ups are ready or cannot be (failed, or never to be built): the seconds
// it took, and the final status.
LookupStatus await_lookups(PathIndexCache& cache, const Problem& p, const Control& control,
                           double& seconds) {
  const auto t0 = std::chrono::steady_clock::now();
  LookupStatus st = cache.start(p);
  while ((st.state == LookupStatus::State::Queued || st.state == LookupStatus::State::Building) &&
         !control.should_stop()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    st = cache.status(p);
  }
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

}  // namespace

int run_play_bench(int games, double think, const std::string& only, const std::string& unknown_out,
                   std::size_t memo_bytes, const Control& control) {
  std::ofstream unknowns;
  if (!unknown_out.empty()) {
    unknowns.open(unknown_out);
    if (!unknowns) throw InputError("--unknown-out", "cannot write the file " + unknown_out);
  }
  // One line per verdict left unknown: `board start end verdict pegs`, the start as a 0/1 string
  // and the end as `pegsol solve` reads them.
  auto write_unknown = [&](const Problem& p, const Position& pos, const char* which) {
    if (!unknowns.is_open()) return;
    const Goal& g = p.goal;
    const std::string end = g.kind == Goal::Kind::Hole       ? p.board->hole_name(g.hole)
                            : g.kind == Goal::Kind::Position ? g.position.to_bits()
                                                             : "any";
    unknowns << p.board->name() << ' ' << pos.to_string() << ' ' << end << ' ' << which << ' '
             << pos.peg_count() << '\n';
    unknowns.flush();
  };
  fmt::print("{:<36} {:>6} {:>7} {:>22} {:>8} {:>8} {:>8} {:>7} {:>7} {:>7}\n", "game", "games",
             "moves", "look-ups (s, MiB)", "p50 ms", "p95 ms", "max ms", "unk%", "unk1%", "exact%");
  std::uint64_t seed = 20;
  for (const PlayCase& c : play_cases()) {
    ++seed;
    if (!only.empty() && c.name.find(only) == std::string::npos) continue;
    std::mt19937_64 rng(seed);
    PathIndexCache cache;  // the cache's defaults: what a front end keeps
    Analyzer an(c.problem.board, c.problem.goal, memo_bytes);
    std::vector<double> ms, builds;
    std::size_t moves = 0, unknown_goal = 0, unknown_one = 0, exact = 0;
    std::string lookups, inexact;  // the look-ups' figures; why a first answer was not exact
    for (int g = 0; g < games && !control.should_stop(); ++g) {
      Problem p = c.problem;
      if (c.edited) p.start = random_start(*p.board, c.edited, rng);
      // The game opens: its look-ups start; this bench plays once they are ready (or cannot be).
      double built = 0;
      const LookupStatus st = await_lookups(cache, p, control, built);
      if (st.state == LookupStatus::State::Ready) {
        builds.push_back(built);
        if (lookups.empty() || c.edited)
          lookups = fmt::format("{:.2f}, {:.1f}", percentile(builds, 0.5),
                                static_cast<double>(st.bytes) / (1 << 20));
      } else if (lookups.empty()) {
        lookups = st.state == LookupStatus::State::Failed ? "failed" : "none";
        if (!st.why.empty()) fmt::print("  {}: look-ups {}: {}\n", c.name, lookups, st.why);
      }
      Position pos(p.board, p.start);
      while (!control.should_stop()) {
        // The call's budget is CPU time, as with --positions (the look-ups are ready or failed
        // by now: no other thread of the process works meanwhile).
        Control cpu(cpu_now);
        AnalysisOptions o;
        o.control = &cpu;
        o.time_limit = think;
        o.start = p.start;
        o.paths = &cache;
        const auto t0 = std::chrono::steady_clock::now();
        const Analysis a = an.analyze(pos, o);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
        ++moves;
        unknown_goal += a.goal.verdict == Solvability::Unknown;
        unknown_one += a.one_peg.verdict == Solvability::Unknown;
        if (a.goal.verdict == Solvability::Unknown) write_unknown(p, pos, "goal");
        if (a.one_peg.verdict == Solvability::Unknown && p.goal.kind != Goal::Kind::Any)
          write_unknown(Problem{p.board, p.start, Goal{}}, pos, "one");
        exact += a.exact;
        if (!a.exact && inexact.empty() && st.state == LookupStatus::State::Ready)
          inexact = a.lookup_note;
        const std::vector<Jump> js = pos.legal_jumps();
        if (js.empty()) break;
        pos.apply(js[static_cast<std::size_t>(rng() % js.size())]);
      }
    }
    if (!inexact.empty())
      fmt::print("  {}: not exact with the look-ups ready: {}\n", c.name, inexact);
    const double n = static_cast<double>(std::max<std::size_t>(moves, 1));
    fmt::print("{:<36} {:>6} {:>7} {:>22} {:>8.3f} {:>8.3f} {:>8.1f} {:>7.2f} {:>7.2f} {:>7.1f}\n",
               c.name, games, moves, lookups, percentile(ms, 0.5), percentile(ms, 0.95),
               ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()),
               100.0 * static_cast<double>(unknown_goal) / n,
               100.0 * static_cast<double>(unknown_one) / n,
               100.0 * static_cast<double>(exact) / n);
    std::fflush(stdout);
  }
  return control.should_stop() ? kStopped : kSolved;
}

int run_play_positions(const std::string& file, double think, const std::string& only,
                       const std::string& unknown_out, std::size_t memo_bytes,
                       const Control& control) {
  std::ifstream in(file);
  if (!in) throw InputError("--positions", "cannot read the file " + file);
  std::ofstream unknowns;
  if (!unknown_out.empty()) {
    unknowns.open(unknown_out);
    if (!unknowns) throw InputError("--unknown-out", "cannot write the file " + unknown_out);
  }
  // One line: `board position end which pegs`; `end` a hole name or `any`, `which` goal or one.
  struct Line {
    std::string text, board, position, end, which;
  };
  std::vector<Line> lines;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    Line l;
    l.text = text;
    std::istringstream words(text);
    if (!(words >> l.board >> l.position >> l.end >> l.which)) {
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
      throw InputError("--positions",
                       file + ":" + std::to_string(n) + ": not `board position end which pegs`");
    }
    if (l.which != "goal" && l.which != "one")
      throw InputError("--positions", file + ":" + std::to_string(n) + ": `" + l.which +
                                          "` is neither goal nor one");
    if (only.empty() || l.board.find(only) != std::string::npos) lines.push_back(std::move(l));
  }
  struct Tally {
    int goal = 0, goal_settled = 0, one = 0, one_settled = 0, positions = 0;
    double cpu = 0, wall = 0;
  };
  std::map<std::string, Tally> tallies;
  std::vector<std::string> order;                              // boards in the file's order
  std::map<std::string, std::unique_ptr<Analyzer>> analyzers;  // by board and goal
  fmt::print("{:<12} {:>9} {:>14} {:>14} {:>8} {:>8}\n", "board", "positions", "goal settled",
             "one settled", "CPU s", "wall s");
  for (std::size_t i = 0; i < lines.size() && !control.should_stop();) {
    // The lines of one position (its goal's verdict and its one-peg verdict) share a call.
    std::size_t j = i + 1;
    while (j < lines.size() && lines[j].board == lines[i].board &&
           lines[j].position == lines[i].position)
      ++j;
    BoardPtr b = make_board(lines[i].board);
    Goal goal = default_problem(b).goal;
    for (std::size_t k = i; k < j; ++k)
      if (lines[k].which == "goal") {
        if (lines[k].end == "any") {
          goal = Goal{};
        } else {
          const auto hole = b->find(lines[k].end);
          if (!hole) throw InputError("--positions", lines[k].text + ": no hole " + lines[k].end);
          goal = Goal{Goal::Kind::Hole, *hole, {}};
        }
      }
    const std::string key =
        lines[i].board + " " + (goal.kind == Goal::Kind::Hole ? b->hole_name(goal.hole) : "any");
    auto& an = analyzers[key];
    if (!an) an = std::make_unique<Analyzer>(b, goal, memo_bytes);
    if (!tallies.count(lines[i].board)) order.push_back(lines[i].board);
    Tally& t = tallies[lines[i].board];
    const HoleSet pegs = HoleSet::from_bits(lines[i].position);
    if (pegs.size() != b->size())
      throw InputError("--positions", lines[i].text + ": the position has " +
                                          std::to_string(pegs.size()) + " holes, the board " +
                                          std::to_string(b->size()));
    const Position pos(b, pegs);
    // The call's time is the process's CPU time: the same work on a loaded machine as on an idle
    // one (the analysis runs on one thread).
    Control cpu(cpu_now);
    AnalysisOptions o;
    o.control = &cpu;
    o.time_limit = think;
    const std::clock_t c0 = std::clock();
    const auto t0 = std::chrono::steady_clock::now();
    const Analysis a = an->analyze(pos, o);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    t.wall += wall;
    t.cpu += cpu_s;
    ++t.positions;
    auto word = [](Solvability v) {
      return v == Solvability::Solvable ? "yes" : v == Solvability::NotSolvable ? "no" : "?";
    };
    fmt::print(
        "  {} {} {} pegs: goal {}, one peg {}; {:.2f} s CPU, {:.2f} s wall; searched {} + {}\n",
        lines[i].board, lines[i].position, pos.peg_count(), word(a.goal.verdict),
        word(a.one_peg.verdict), cpu_s, wall, a.goal.nodes, a.one_peg.nodes);
    std::fflush(stdout);
    for (std::size_t k = i; k < j; ++k) {
      const bool is_goal = lines[k].which == "goal";
      const bool settled = (is_goal ? a.goal.verdict : a.one_peg.verdict) != Solvability::Unknown;
      (is_goal ? t.goal : t.one) += 1;
      (is_goal ? t.goal_settled : t.one_settled) += settled;
      if (!settled && unknowns.is_open()) unknowns << lines[k].text << '\n';
    }
    i = j;
  }
  Tally all;
  auto row = [](const std::string& name, const Tally& t) {
    fmt::print("{:<12} {:>9} {:>14} {:>14} {:>8.1f} {:>8.1f}\n", name, t.positions,
               fmt::format("{}/{}", t.goal_settled, t.goal),
               fmt::format("{}/{}", t.one_settled, t.one), t.cpu, t.wall);
  };
  for (const std::string& name : order) {
    const Tally& t = tallies[name];
    row(name, t);
    all.goal += t.goal;
    all.goal_settled += t.goal_settled;
    all.one += t.one;
    all.one_settled += t.one_settled;
    all.positions += t.positions;
    all.cpu += t.cpu;
    all.wall += t.wall;
  }
  row("all", all);
  return control.should_stop() ? kStopped : kSolved;
}

}  // namespace pegsol::cli
