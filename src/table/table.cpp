// SPDX-License-Identifier: MIT
// The solvability matrix: which single survivors each single vacancy can reach. Pairs are
// settled by the cheapest proof that exists: the position class and peg types (impossible), the
// transpose (complement trick), a found and replayed solution or a search's proof (TableMethod::
// Auto), and otherwise a forward census pass from the start class, shared by all its pairs.
//
// Large because the table is one idea in three parts that share the matrix: the matrix itself, its
// checkpoint file (the matrix and its certificates on disk) and the run that settles its pairs
// (TableRun, one method a step).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include "../census/checkpoint.hpp"
#include "../core/checks.hpp"
#include "../core/control_access.hpp"
#include "../core/pool.hpp"
#include "pegsol/error.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/table.hpp"

namespace {

// The most open goals a forward pass prunes for (TableOptions::pagodas).
constexpr int kPruningGoals = 8;

// Hands the memory the searches freed back to the system before the census passes allocate
// theirs: glibc keeps a freed block in the arena of the worker thread that used it, so without
// this the passes' tables would come on top of it in the peak resident size.
void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

}  // namespace

namespace pegsol {
namespace {

using Clock = std::chrono::steady_clock;

// The matrix while it is being settled: each pair unknown, possible or impossible, kept closed
// under the board's symmetries and under transposition.
class Matrix {
 public:
  enum State : unsigned char { Open, Yes, No };

  explicit Matrix(const Board& b) : b_(b), n_(b.size()), s_(static_cast<std::size_t>(n_ * n_)) {}

  State at(int v, int h) const { return s_[idx(v, h)]; }

  // Sets (v, h) and every pair it implies: its images under the symmetries, and their transposes.
  void set(int v, int h, State x) {
    for (const auto& perm : b_.symmetries()) {
      const int pv = perm[static_cast<std::size_t>(v)], ph = perm[static_cast<std::size_t>(h)];
      s_[idx(pv, ph)] = x;
      s_[idx(ph, pv)] = x;
    }
  }

  int open_in_row(int v) const {
    int c = 0;
    for (int h = 0; h < n_; ++h) c += at(v, h) == Open;
    return c;
  }

  // The states row by row, as the checkpoint stores them.
  const std::vector<State>& cells() const { return s_; }
  void set_cells(std::vector<State> s) { s_ = std::move(s); }

 private:
  std::size_t idx(int v, int h) const { return static_cast<std::size_t>(v * n_ + h); }
  const Board& b_;
  int n_;
  std::vector<State> s_;
};

// The table's checkpoint (CensusOptions::checkpoint_dir given to solvability_table). In the
// directory:
//
//   table.state   the pairs settled and the figures so far, written after the searches and after
//                 each forward pass:
//                   "PEGTABL3", board fingerprint (u64), holes (i32), searches done (u8),
//                   passes, proved, searched, solved, impossible, half passes (i32 each),
//                   peak bytes, spill peak bytes (u64 each), the matrix (holes x holes, u8),
//                   certificates (u64 count; each vacancy, end (i32), solvable (u8),
//                   jumps (u64 count; from, over, to as i32 each), reason (u64 length, bytes)),
//                 then the checksum trailer of every checkpoint file (census/checkpoint.hpp).
//                 Formats 1 ("PEGTABL1", without half passes) and 2 ("PEGTABL2") have no
//                 trailer: refused as written by an older version.
//   pass.V/       the census checkpoint of the forward pass from vacancy V while it runs
//                 (CensusOptions::checkpoint_dir), removed once its pairs are in table.state
class TableCheckpoint {
 public:
  TableCheckpoint(const Board& b, std::string dir) : b_(b), dir_(std::move(dir)) {}

  std::string state_file() const { return dir_ + "/table.state"; }
  std::string pass_dir(int v) const { return dir_ + "/pass." + b_.hole_name(v); }
  bool has_pass(int v) const { return std::filesystem::exists(pass_dir(v) + "/census.state"); }

  void save(const SolvabilityTable& t, const Matrix& m, bool searches_done) const {
    census_detail::FileWriter f(state_file());
    f.write(kMagic, sizeof kMagic);
    f.put(fingerprint());
    f.put(static_cast<std::int32_t>(b_.size()));
    f.put(static_cast<std::uint8_t>(searches_done));
    for (int x : {t.passes, t.proved, t.searched, t.solved_by_search, t.impossible_by_search,
                  t.half_passes})
      f.put(static_cast<std::int32_t>(x));
    f.put(static_cast<std::uint64_t>(t.peak_bytes));
    f.put(static_cast<std::uint64_t>(t.spill_peak_bytes));
    f.write(m.cells().data(), m.cells().size());
    f.put(static_cast<std::uint64_t>(t.certificates.size()));
    for (const TableCertificate& c : t.certificates) {
      f.put(static_cast<std::int32_t>(c.vacancy));
      f.put(static_cast<std::int32_t>(c.end));
      f.put(static_cast<std::uint8_t>(c.solvable));
      f.put(static_cast<std::uint64_t>(c.moves.size()));
      for (const Jump& j : c.moves)
        for (int x : {j.from, j.over, j.to}) f.put(static_cast<std::int32_t>(x));
      f.put(static_cast<std::uint64_t>(c.reason.size()));
      f.write(c.reason.data(), c.reason.size());
    }
    f.commit();
  }

  // Loads table.state into t and m; returns whether the searches were done. InputError when
  // there is no state or it is of another board or damaged; a solution certificate must replay.
  bool load(SolvabilityTable& t, Matrix& m) const {
    try {
      return read(t, m);
    } catch (const CensusError& e) {  // unreadable, or cut short
      throw InputError("CensusOptions::resume", dir_ + ": " + e.what());
    }
  }

 private:
  static constexpr char kMagic[8] = {'P', 'E', 'G', 'T', 'A', 'B', 'L', '3'};

  bool read(SolvabilityTable& t, Matrix& m) const {
    if (!std::filesystem::exists(state_file()))
      throw InputError("CensusOptions::resume",
                       dir_ + ": no table checkpoint there (" + state_file() + " is missing)");
    auto bad = [&](const std::string& what) {
      return InputError("CensusOptions::resume", dir_ + ": " + state_file() + " " + what);
    };
    const std::string head = census_detail::file_head(state_file(), sizeof kMagic);
    if (head == "PEGTABL1" || head == "PEGTABL2")
      throw bad("is in an earlier format (" + head.substr(7) +
                ", without checksums) written by an older version of pegsol, which this pegsol "
                "does not read; make the table again without resuming");
    census_detail::FileReader f(state_file());
    const int n = b_.size();
    char magic[sizeof kMagic];
    f.read(magic, sizeof magic);
    if (!std::equal(magic, magic + sizeof magic, kMagic)) throw bad("is not a table checkpoint");
    if (f.get<std::uint64_t>() != fingerprint() || f.get<std::int32_t>() != n)
      throw bad("is the table of another board, not " + b_.name());
    const bool searches_done = f.get<std::uint8_t>() != 0;
    for (int* x : {&t.passes, &t.proved, &t.searched, &t.solved_by_search, &t.impossible_by_search,
                   &t.half_passes}) {
      *x = f.get<std::int32_t>();
      if (*x < 0) throw bad("is damaged (a negative count)");
    }
    t.peak_bytes = f.get<std::uint64_t>();
    t.spill_peak_bytes = f.get<std::uint64_t>();
    std::vector<Matrix::State> cells(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    f.read(cells.data(), cells.size());
    for (Matrix::State c : cells)
      if (c > Matrix::No) throw bad("is damaged (a pair's state)");
    m.set_cells(std::move(cells));
    const std::uint64_t certs = f.get<std::uint64_t>();
    if (certs > static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(n))
      throw bad("is damaged (the certificates' count)");
    auto hole = [&] {
      const int h = f.get<std::int32_t>();
      if (h < 0 || h >= n) throw bad("is damaged (a hole out of range)");
      return h;
    };
    t.certificates.clear();
    for (std::uint64_t i = 0; i < certs; ++i) {
      TableCertificate c;
      c.vacancy = hole();
      c.end = hole();
      c.solvable = f.get<std::uint8_t>() != 0;
      const std::uint64_t jumps = f.get<std::uint64_t>();
      if (jumps >= static_cast<std::uint64_t>(n)) throw bad("is damaged (a solution's length)");
      for (std::uint64_t k = 0; k < jumps; ++k) {
        Jump j;
        j.from = hole();
        j.over = hole();
        j.to = hole();
        c.moves.push_back(j);
      }
      const std::uint64_t len = f.get<std::uint64_t>();
      if (len > f.size()) throw bad("is damaged (a reason's length)");
      c.reason.resize(len);
      f.read(c.reason.data(), len);
      if (c.solvable) {
        const Replay r = replay(b_, single_vacancy(b_, c.vacancy), c.moves);
        if (!r.ok || r.final.count() != 1 || !r.final.test(c.end))
          throw bad("holds a solution from " + b_.hole_name(c.vacancy) + " to " +
                    b_.hole_name(c.end) + " that does not replay");
      }
      t.certificates.push_back(std::move(c));
    }
    if (!f.at_end()) throw bad("is damaged (bytes left over)");
    return searches_done;
  }

  // A hash of the board: its name, holes, names and jumps.
  std::uint64_t fingerprint() const {
    census_detail::Fingerprint f;
    auto text = [&](const std::string& s) {
      f.chars(s);
      f.word(s.size());
    };
    text(b_.name());
    f.word(static_cast<std::uint64_t>(b_.size()));
    for (int q = 0; q < b_.size(); ++q) text(b_.hole_name(q));
    for (const Jump& j : b_.jumps())
      f.word(static_cast<std::uint64_t>(j.from) | static_cast<std::uint64_t>(j.over) << 20 |
             static_cast<std::uint64_t>(j.to) << 40);
    return f.value();
  }

  const Board& b_;
  std::string dir_;
};

// solve() of p under `parent`, for at most `seconds`, on `threads` threads, within `memory`
// bytes when not 0 (and the parent's budget): the table's pair searches and the half passes'
// solution searches.
SolveResult timed_solve(const Problem& p, const Control& parent, double seconds, int threads,
                        std::size_t memory) {
  Control c(&parent);
  c.set_time_limit(seconds);
  c.set_memory_budget(memory > 0 ? std::min(memory, kSolveMemory) : kSolveMemory);
  SolveOptions so;
  so.control = &c;
  so.threads = threads;
  return solve(p, so);
}

// A solution of v -> h through `witness`, a middle position on a solution path (the middle
// join's): the two halves searched apart, each for up to `seconds`, then joined and replayed.
// Empty when a half is not found in time (or within `memory` bytes, when not 0).
std::vector<Jump> meet_solution(const BoardPtr& board, int v, int h, const HoleSet& witness,
                                const Control& parent, double seconds, int threads,
                                std::size_t memory) {
  const Board& b = *board;
  const HoleSet start = single_vacancy(b, v);
  std::vector<Jump> moves;
  for (const Problem& half : {Problem{board, start, Goal{Goal::Kind::Position, -1, witness}},
                              Problem{board, witness, Goal{Goal::Kind::Hole, h, {}}}}) {
    SolveResult r = timed_solve(half, parent, seconds, threads, memory);
    if (r.status != Status::Solved) return {};
    moves.insert(moves.end(), r.moves.begin(), r.moves.end());
  }
  const Replay r = replay(b, start, moves);
  if (!r.ok || r.final.count() != 1 || !r.final.test(h)) return {};
  return moves;
}

// One run of solvability_table: the matrix and the figures while they are settled, in the order
// run() takes them: proofs, the checkpoint, the pair searches (Auto), the forward passes.
class TableRun {
 public:
  TableRun(const BoardPtr& board, const CensusOptions& options, const TableOptions& table)
      : board_(board),
        b_(*board),
        n_(b_.size()),
        options_(options),
        table_(table),
        m_(b_),
        ctl_(options.control) {
    // Progress in units of the whole table (a pair search is one unit, a pass a thousand), so
    // that its fraction only grows; the census passes' reports are rescaled, the searches' not.
    if (options.control && ControlAccess::wants_progress(*options.control))
      ctl_.set_progress(
          [this](const ProgressReport& r) {
            if (!in_passes_) return;
            ProgressReport q = r;
            q.total = units_;
            q.done = std::min(units_, units_done_ + static_cast<std::uint64_t>(r.fraction * 1000));
            q.table = figures_;
            options_.control->report(q);
          },
          0);
  }
  TableRun(const TableRun&) = delete;
  TableRun& operator=(const TableRun&) = delete;

  SolvabilityTable run() {
    settle_by_proofs();
    open_checkpoint();
    if (table_.method == TableMethod::Auto && !searches_done_) search_pairs();
    run_passes();
    return finish();
  }

 private:
  // One vacancy per class under the board's symmetries. Pairs the position class and peg types
  // forbid are settled first; a class with no admissible final needs nothing more.
  void settle_by_proofs() {
    std::vector<bool> seen(static_cast<std::size_t>(n_), false);
    for (int v = 0; v < n_; ++v) {
      if (seen[static_cast<std::size_t>(v)]) continue;
      reps_.push_back(v);
      for (const auto& perm : b_.symmetries())
        seen[static_cast<std::size_t>(perm[static_cast<std::size_t>(v)])] = true;
    }
    for (int v : reps_) {
      const HoleSet ok = admissible_finals(b_, single_vacancy(b_, v));
      t_.proved += ok.count() == 0;
      for (int h = 0; h < n_; ++h)
        if (!ok.test(h)) m_.set(v, h, Matrix::No);
    }
  }

  // The checkpoint: a resumed table starts from the pairs its state holds; a pass directory
  // whose pairs are all settled (a kill between the state and the clean-up) goes.
  void open_checkpoint() {
    if (options_.checkpoint_dir.empty()) return;
    lock_ = std::make_unique<census_detail::DirLock>(options_.checkpoint_dir);
    ck_ = std::make_unique<TableCheckpoint>(b_, options_.checkpoint_dir);
    if (options_.resume) {
      searches_done_ = ck_->load(t_, m_);
      for (int v : reps_)
        if (std::error_code ec; m_.open_in_row(v) == 0)
          std::filesystem::remove_all(ck_->pass_dir(v), ec);
    } else {
      save(false);
    }
  }

  // Writes the table's state when it has a checkpoint; a failure stops the passes.
  void save(bool searches) {
    if (!ck_) return;
    try {
      ck_->save(t_, m_, searches);
    } catch (const CensusError& e) {
      save_failed_ = true;
      t_.stopped = e.what();
    }
  }

  void stop_here(StopReason why) {
    t_.stop = why;
    t_.stopped = "stopped (" + std::string(stop_reason_name(why)) + ")";
  }

  // The start class whose pass settles the most open pairs of `mat`, or -1 when none is open.
  int busiest(const Matrix& mat) const {
    int best = -1, most = 0;
    for (int v : reps_)
      if (int c = mat.open_in_row(v); c > most) best = v, most = c;
    return best;
  }

  // The forward passes the open pairs of `plan` need.
  int passes_for(Matrix plan) const {
    int planned = 0;
    for (;; ++planned) {
      const int v = busiest(plan);
      if (v < 0) break;
      for (int h = 0; h < n_; ++h) plan.set(v, h, Matrix::Yes);
    }
    return planned;
  }

  // The open pairs, one per class under symmetry and transposition, each given a short search.
  // The searches are independent: the workers take pairs in turn, one thread each, and the
  // results are applied in the list's order. A stop leaves the pairs not searched open.
  void search_pairs() {
    std::vector<std::pair<int, int>> pairs;
    {
      Matrix mark = m_;
      for (int v : reps_)
        for (int h = 0; h < n_; ++h)
          if (mark.at(v, h) == Matrix::Open &&
              (table_.max_searches < 0 || static_cast<int>(pairs.size()) < table_.max_searches)) {
            pairs.emplace_back(v, h);
            mark.set(v, h, Matrix::Yes);
          }
    }
    const int workers =
        std::max(1, std::min(static_cast<int>(pairs.size()),
                             options_.threads > 0 ? options_.threads : default_threads()));
    std::vector<SolveResult> results(pairs.size());
    std::atomic<std::size_t> done{0};
    // Units: one per pair search, a thousand per forward pass the open pairs may need.
    units_ = pairs.size() + 1000 * static_cast<std::uint64_t>(passes_for(m_));
    WorkerPool pool(workers);
    pool.parallel_for(workers, pairs.size(), [&](std::size_t i, int w) {
      if (ctl_.checkpoint()) return;
      const auto [v, h] = pairs[i];
      results[i] = timed_solve(
          Problem{board_, single_vacancy(b_, v), Goal{Goal::Kind::Hole, h, {}}}, ctl_,
          table_.search_seconds, workers > 1 ? 1 : options_.threads,
          // The searches running at once share the control's budget.
          ctl_.memory_budget() > 0
              ? std::max<std::size_t>(1, ctl_.memory_budget() / static_cast<std::size_t>(workers))
              : 0);
      const std::size_t d = done.fetch_add(1) + 1;
      if (w == 0) {
        ProgressReport pr;
        pr.done = d;
        pr.total = units_;
        pr.phase = "search";
        pr.table = TableProgress{0, 0, static_cast<int>(d), static_cast<int>(pairs.size())};
        if (options_.control) options_.control->report(pr);
      }
    });
    units_done_ = pairs.size();
    release_free_memory();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto [v, h] = pairs[i];
      SolveResult& r = results[i];
      ++t_.searched;
      if (r.status == Status::Solved) {
        ++t_.solved_by_search;
        m_.set(v, h, Matrix::Yes);
        t_.certificates.push_back({v, h, true, std::move(r.moves), {}});
      } else if (r.status == Status::Impossible) {
        ++t_.impossible_by_search;
        m_.set(v, h, Matrix::No);
        t_.certificates.push_back({v, h, false, {}, std::move(r.reason)});
      }
    }
    if (const StopReason why = ctl_.stop_reason(); why != StopReason::None) stop_here(why);
    save(t_.stop == StopReason::None);
  }

  // Forward passes for the start classes with pairs still open, the class settling the most
  // open pairs (its row, and by transposition its column) first.
  void run_passes() {
    CensusOptions o = options_;
    o.on_path = false;
    o.distinct = false;
    o.counts = false;
    o.control = &ctl_;
    o.checkpoint_dir.clear();  // the table's; each pass gets its own below
    o.resume = false;
    compact_pass_ = b_.width() == 64 && options_.engine != CensusEngine::Wide;
    pass_checkpoints_ = ck_ && table_.level_checkpoints && compact_pass_;
    planned_ = passes_for(m_);
    units_ = units_done_ + 1000 * static_cast<std::uint64_t>(planned_);
    in_passes_ = true;
    while (t_.stop == StopReason::None && !save_failed_) {
      const int best = busiest(m_);
      if (best < 0 || !pass_from(best, o)) break;
    }
  }

  // Points o at the pass's own checkpoint directory (a fresh start without level checkpoints);
  // false (the table stopped) when it cannot be made.
  bool pass_checkpoint(int best, CensusOptions& o) {
    if (!ck_) return true;
    std::error_code ec;
    if (!pass_checkpoints_) {
      std::filesystem::remove_all(ck_->pass_dir(best), ec);  // the pass starts over
      return true;
    }
    o.checkpoint_dir = ck_->pass_dir(best);
    o.resume = ck_->has_pass(best);
    std::filesystem::create_directories(o.checkpoint_dir, ec);
    if (ec) {
      t_.stopped = "checkpoint: cannot make " + o.checkpoint_dir + ": " + ec.message();
      return false;
    }
    return true;
  }

  // The pass's open goals, each with its pruning pagodas, when they are few: none when a goal
  // has none (nothing could be dropped then). With many goals nearly every position can still
  // reach one, and the tests cost more than they save (docs/census.md, "Pruned passes").
  std::vector<CensusReach> pruning_goals(int best) const {
    std::vector<CensusReach> reach;
    if (!table_.pagodas || m_.open_in_row(best) > kPruningGoals) return reach;
    const HoleSet start = single_vacancy(b_, best);
    for (int h = 0; h < n_; ++h) {
      if (m_.at(best, h) != Matrix::Open) continue;
      HoleSet goal(n_);
      goal.set(h);
      std::vector<Pagoda> pg = find_pruning_pagodas(b_, start, goal);
      if (pg.empty()) return {};
      reach.push_back({goal, std::move(pg)});
    }
    return reach;
  }

  // A row with one open goal h whose problem is its own complement (h is the vacancy's image
  // under a symmetry that takes h back to it) needs only the half pass down to the middle: h,
  // or -1.
  int meet_goal(int best) const {
    int goal = -1;
    if (m_.open_in_row(best) == 1 && compact_pass_)
      for (int h = 0; h < n_; ++h)
        if (m_.at(best, h) == Matrix::Open &&
            complementary(Problem{board_, single_vacancy(b_, best), Goal{Goal::Kind::Hole, h, {}}}))
          goal = h;
    return goal;
  }

  // The forward pass from vacancy `best`, settling the open pairs of its row; false when the
  // table stops (the reason in t_).
  bool pass_from(int best, CensusOptions& o) {
    if (!pass_checkpoint(best, o)) return false;
    o.reach = pruning_goals(best);
    const int meet = meet_goal(best);
    o.meet = meet >= 0;
    figures_ = TableProgress{t_.passes + 1, planned_, 0, 0};
    CensusResult r;
    try {
      r = census(Problem{board_, single_vacancy(b_, best),
                         o.meet ? Goal{Goal::Kind::Hole, meet, {}} : Goal{}},
                 o);
    } catch (const CensusError& e) {
      t_.stopped = "the forward pass from " + b_.hole_name(best) + " stopped: " + e.what();
      return false;
    } catch (const InputError& e) {
      t_.stopped = std::string("no forward pass can run: ") + e.what();
      return false;
    }
    t_.peak_bytes = std::max(t_.peak_bytes, r.peak_bytes);
    t_.spill_peak_bytes = std::max(t_.spill_peak_bytes, r.spill_peak_bytes);
    if (r.stop == StopReason::Memory) {
      t_.stop = r.stop;
      t_.stopped = "the forward pass from " + b_.hole_name(best) + " stopped: " + r.stop_note;
      return false;
    }
    if (r.stop != StopReason::None) {
      stop_here(r.stop);
      return false;
    }
    ++t_.passes;
    t_.half_passes += r.met;
    units_done_ += 1000;
    if (o.meet && r.meet_reaches_goal && r.meet_witness) {
      std::vector<Jump> moves = meet_solution(board_, best, meet, *r.meet_witness, ctl_,
                                              table_.search_seconds, o.threads, 0);
      if (!moves.empty()) t_.certificates.push_back({best, meet, true, std::move(moves), {}});
    }
    // The open pairs of the row (a pruned pass is exact for those alone).
    for (int h = 0; h < n_; ++h)
      if (m_.at(best, h) == Matrix::Open)
        m_.set(best, h,
               r.solutions_by_hole[static_cast<std::size_t>(h)] > 0 ? Matrix::Yes : Matrix::No);
    save(true);
    if (std::error_code ec; pass_checkpoints_ && !save_failed_)
      std::filesystem::remove_all(o.checkpoint_dir, ec);
    return true;
  }

  // The matrix as finals and open holes, and the last progress report.
  SolvabilityTable finish() {
    t_.finals.assign(static_cast<std::size_t>(n_), HoleSet(n_));
    t_.open.assign(static_cast<std::size_t>(n_), HoleSet(n_));
    for (int v = 0; v < n_; ++v)
      for (int h = 0; h < n_; ++h) {
        if (m_.at(v, h) == Matrix::Yes) t_.finals[static_cast<std::size_t>(v)].set(h);
        if (m_.at(v, h) == Matrix::Open) t_.open[static_cast<std::size_t>(v)].set(h);
      }
    if (options_.control && t_.stop == StopReason::None && units_ > 0) {
      ProgressReport pr;
      pr.done = pr.total = units_;
      pr.phase = "done";
      options_.control->report(pr, true);
    }
    t_.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    return std::move(t_);
  }

  const BoardPtr& board_;
  const Board& b_;
  const int n_;
  const CensusOptions& options_;
  const TableOptions& table_;
  const Clock::time_point t0_ = Clock::now();
  SolvabilityTable t_;
  Matrix m_;
  Control ctl_;  // the caller's, reporting progress in the table's units
  std::uint64_t units_ = 0, units_done_ = 0;
  bool in_passes_ = false;
  TableProgress figures_;  // the pass running and the passes planned, for the reports
  std::vector<int> reps_;  // one vacancy per class under the symmetries
  std::unique_ptr<census_detail::DirLock> lock_;
  std::unique_ptr<TableCheckpoint> ck_;
  bool searches_done_ = false;
  bool save_failed_ = false;
  bool compact_pass_ = false;      // the passes run the compact engine (boards of up to 64 bits)
  bool pass_checkpoints_ = false;  // each pass checkpoints its levels
  int planned_ = 0;                // the passes planned when they began
};

}  // namespace

SolvabilityTable solvability_table(const BoardPtr& board, const CensusOptions& options,
                                   const TableOptions& table) {
  if (!board) throw InputError("board", "the board pointer is null");
  checks::census_options(options);
  checks::seconds(table.search_seconds, "TableOptions::search_seconds");
  if (table.max_searches < -1)
    throw InputError("TableOptions::max_searches",
                     std::to_string(table.max_searches) + "; -1 (every open pair) or more");
  return TableRun(board, options, table).run();
}

}  // namespace pegsol
