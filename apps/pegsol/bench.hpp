// SPDX-License-Identifier: MIT
// `pegsol bench`: its options, and the benches it runs on fixed problems (bench_cases.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "pegsol/control.hpp"

namespace pegsol::cli {

// `pegsol bench`: fixed problems, nodes and times, a signature line. Returns the exit status.
int run_bench(int repeats, bool json);
// `pegsol bench --beam`: the beam searches on fixed large-board problems with fixed seeds;
// pairs, positions, times and a signature line (total positions).
int run_beam_bench(int repeats, bool json);
// `pegsol bench --census`: census runs on fixed problems (English central game included), median
// seconds of `repeats` runs, peak table memory, and a signature line (positions counted).
int run_census_bench(int repeats, int threads, bool json);
// `pegsol bench --play`: along `games` random games (fixed seeds) of fixed problems, the whole
// analysis after each move (look-ups built first where they can be), `think` seconds each:
// look-up build time, p50/p95/max per move, share of unknown verdicts (play_bench.cpp). `only`:
// the rows whose name holds it. `unknown_out` (when not empty): a file that gets one line per
// verdict left unknown (the board, the position as a 0/1 string, the goal, which verdict).
// `memo_bytes`: each analyzer's search memo per verdict (Analyzer(board, goal, memo_bytes)).
int run_play_bench(int games, double think, const std::string& only, const std::string& unknown_out,
                   std::size_t memo_bytes, const Control& control);
// `pegsol bench --play --positions FILE`: the whole analysis, `think` seconds of CPU time each
// (the same work whatever the machine's load), of the
// positions of FILE (lines as --unknown-out writes them, in order: one analyzer per board and
// goal serves them all, as along a game); per board, the verdicts settled out of those asked and
// the CPU and wall seconds. `only`: the lines whose board holds it; `unknown_out` as above.
int run_play_positions(const std::string& file, double think, const std::string& only,
                       const std::string& unknown_out, std::size_t memo_bytes,
                       const Control& control);

// Registers `bench` on the app; after parsing, run() runs the bench chosen (the solve bench, or
// --beam, --census, --play) and returns its exit status (nullopt when `bench` was not chosen).
class BenchCommand {
 public:
  explicit BenchCommand(CLI::App& app);
  std::optional<int> run(const Control& control) const;
  // The bench chosen watches the control (a signal stops it with its partial table).
  bool stoppable() const { return play_; }

 private:
  CLI::App* cmd_ = nullptr;
  int repeats_ = 5;
  bool json_ = false;
  bool beam_ = false;
  bool census_ = false;
  int threads_ = 0;
  bool play_ = false;
  int games_ = 100;
  double think_ = 2;
  double memo_mb_ = kPlayMemoMegabytes;
  std::string only_, unknown_out_, positions_;
};

}  // namespace pegsol::cli
