// SPDX-License-Identifier: MIT
// A fewest-moves search's checkpoint: what its completed passes proved, kept in a file
// (src/fewest).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../core/fd_io.hpp"
#include "pegsol/board.hpp"
#include "pegsol/error.hpp"

namespace pegsol::fewest_detail {

// One (start class, end class) search of a split board minimum.
struct PairState {
  int start = -1, end = -1;  // the classes' least holes
  int floor = 0;             // every solution of the pair has at least this many moves
  bool impossible = false;   // the pair's search completed without a solution
};

// A pass part way: its limit, the peg counts of its two last levels (kept in files in the
// checkpoint directory), the least costs there, the least cost plus bound it dropped and the
// positions it stored.
struct PassState {
  bool on = false;
  int limit = 0, fl = 0, bh = 0, fmin = 0, bmin = 0;
  std::uint32_t dropped = 0xffffffffu;
  std::uint64_t positions = 0;
  std::string ffile, bfile;  // names in the checkpoint directory
};

// A level part made (issue 46): the shards done of the level the pass was making when the state
// was written, in blocks in a file of the checkpoint directory (level_file.hpp), of which the
// first `bytes` are whole. A resume adopts them and makes the other shards.
struct MakingState {
  bool on = false;
  bool backward = false;
  int pegs = 0;
  std::uint32_t done = 0;  // a bit per shard
  int groups = 1;          // the groups of shards the level was being made in
  std::string file;        // a name in the checkpoint directory
  std::uint64_t bytes = 0;
};

// The state after a completed pass. The file, DIR/fewest.state, is text:
//   pegsol-fewest-state 2           (1: written before 2026-11-29, without `making`; read too)
//   problem <what the search is of: board, holes, jumps' digest, starts, goals, split>
//   floor <moves>            proven: every solution has at least this many
//   positions <n>  seconds <s>   stored and spent by the runs so far
//   best <jumps> <from over to>...   the best solution known (0: none)
//   pass <limit> <fl> <bh> <fmin> <bmin> <dropped> <positions> <ffile> <bfile>   (a pass part way)
//   making <f|b> <pegs> <done> <groups> <file> <bytes>   a level part made (after `pass`)
//   pair <start> <end> <floor> <impossible>   one line a pair (a split board minimum)
//   checksum <64-bit FNV-1a of every line above, in hex>
// It is written to a new file that then replaces the old one, so that a kill at any moment
// leaves one whole state or the one before.
struct FewestState {
  std::string problem;
  int floor = 0;
  std::uint64_t positions = 0;
  double seconds = 0;
  std::vector<Jump> best;
  PassState pass;
  MakingState making;
  std::vector<PairState> pairs;
};

inline std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

inline std::string state_path(const std::string& dir) {
  return dir + "/fewest.state";
}

// The text of `s` with its checksum line.
inline std::string state_text(const FewestState& s) {
  std::ostringstream o;
  o << "pegsol-fewest-state 2\n";
  o << "problem " << s.problem << "\n";
  o << "floor " << s.floor << "\n";
  o << "positions " << s.positions << " seconds " << s.seconds << "\n";
  o << "best " << s.best.size();
  for (const Jump& j : s.best) o << " " << j.from << " " << j.over << " " << j.to;
  o << "\n";
  if (s.pass.on)
    o << "pass " << s.pass.limit << " " << s.pass.fl << " " << s.pass.bh << " " << s.pass.fmin
      << " " << s.pass.bmin << " " << s.pass.dropped << " " << s.pass.positions << " "
      << s.pass.ffile << " " << s.pass.bfile << "\n";
  if (s.pass.on && s.making.on)
    o << "making " << (s.making.backward ? "b" : "f") << " " << s.making.pegs << " "
      << s.making.done << " " << s.making.groups << " " << s.making.file << " " << s.making.bytes
      << "\n";
  for (const PairState& p : s.pairs)
    o << "pair " << p.start << " " << p.end << " " << p.floor << " " << (p.impossible ? 1 : 0)
      << "\n";
  std::string body = o.str();
  char sum[32];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(fnv1a(body)));
  return body + "checksum " + sum + "\n";
}

// Writes `s` to DIR/fewest.state through a new file renamed over it (flushed to disk first).
// Throws InputError naming the file when it cannot be written.
inline void write_state(const std::string& dir, const FewestState& s) {
  const std::string path = state_path(dir), tmp = path + ".new";
  const std::string text = state_text(s);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  auto fail = [&](const char* what) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    throw InputError("checkpoint " + tmp + ": cannot " + what + " (" + std::strerror(e) + ")");
  };
  if (fd < 0) fail("create it");
  if (!io::write_all(fd, text.data(), text.size())) fail("write it");
  if (::fsync(fd) != 0) fail("flush it");
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    throw InputError("checkpoint " + path + ": cannot replace it (" + std::strerror(e) + ")");
  }
  const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d >= 0) {
    ::fsync(d);
    ::close(d);
  }
}

// The state in DIR, checked: its checksum, its form, and that it is of `problem`. Throws
// InputError naming the file and what is wrong. `found` is false when there is no state file
// (a run killed before its first checkpoint: it starts from the beginning).
inline FewestState read_state(const std::string& dir, const std::string& problem, bool& found) {
  const std::string path = state_path(dir);
  std::ifstream in(path);
  found = static_cast<bool>(in);
  FewestState s;
  if (!found) return s;
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  auto bad = [&](const std::string& why) {
    return InputError("FewestOptions::resume", dir + ": " + path + " " + why);
  };
  const std::size_t at = text.rfind("checksum ");
  if (at == std::string::npos || (at > 0 && text[at - 1] != '\n'))
    throw bad("has no checksum line (not a whole checkpoint)");
  const std::string body = text.substr(0, at);
  char sum[32];
  std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(fnv1a(body)));
  if (text.compare(at + 9, 16, sum) != 0) throw bad("does not match its checksum (damaged)");
  std::istringstream lines(body);
  std::string line, word;
  int lineno = 0;
  auto expect = [&](const std::string& key) -> std::istringstream {
    ++lineno;
    if (!std::getline(lines, line)) throw bad("ends before its '" + key + "' line");
    std::istringstream l(line);
    if (!(l >> word) || word != key)
      throw bad("line " + std::to_string(lineno) + ": expected '" + key + "'");
    return l;
  };
  {
    auto l = expect("pegsol-fewest-state");
    int version = 0;
    if (!(l >> version) || (version != 1 && version != 2))
      throw bad("is of a version this build does not read");
  }
  {
    auto l = expect("problem");
    std::string rest;
    std::getline(l, rest);
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    if (rest != problem)
      throw bad("is of another problem: '" + rest + "', this run's is '" + problem + "'");
    s.problem = rest;
  }
  {
    auto l = expect("floor");
    if (!(l >> s.floor) || s.floor < 0) throw bad("line 3: the floor is not a count of moves");
  }
  {
    auto l = expect("positions");
    std::string sec;
    if (!(l >> s.positions >> sec >> s.seconds) || sec != "seconds")
      throw bad("line 4: expected 'positions N seconds S'");
  }
  {
    auto l = expect("best");
    std::size_t n = 0;
    if (!(l >> n) || n > 100000) throw bad("line 5: the solution's length is not a count");
    for (std::size_t k = 0; k < n; ++k) {
      Jump j;
      if (!(l >> j.from >> j.over >> j.to)) throw bad("line 5: a jump is cut short");
      s.best.push_back(j);
    }
  }
  while (std::getline(lines, line)) {
    ++lineno;
    std::istringstream l(line);
    if (line.rfind("pass ", 0) == 0) {
      PassState& ps = s.pass;
      l >> word;
      if (!(l >> ps.limit >> ps.fl >> ps.bh >> ps.fmin >> ps.bmin >> ps.dropped >> ps.positions >>
            ps.ffile >> ps.bfile) ||
          ps.ffile.find('/') != std::string::npos || ps.bfile.find('/') != std::string::npos)
        throw bad("line " + std::to_string(lineno) + ": expected 'pass' and its figures");
      ps.on = true;
      continue;
    }
    if (line.rfind("making ", 0) == 0) {
      MakingState& m = s.making;
      std::string side;
      l >> word;
      if (!(l >> side >> m.pegs >> m.done >> m.groups >> m.file >> m.bytes) ||
          (side != "f" && side != "b") || !s.pass.on || m.file.find('/') != std::string::npos ||
          m.groups < 1 || m.groups > 64)
        throw bad("line " + std::to_string(lineno) + ": expected 'making' and its figures");
      m.backward = side == "b";
      m.on = true;
      continue;
    }
    PairState p;
    int imp = 0;
    if (!(l >> word) || word != "pair" || !(l >> p.start >> p.end >> p.floor >> imp))
      throw bad("line " + std::to_string(lineno) + ": expected 'pair START END FLOOR 0|1'");
    p.impossible = imp != 0;
    s.pairs.push_back(p);
  }
  return s;
}

// What a board's search is of, for its state file: the board's name, holes and a digest of its
// jumps, then `what` (the starts and goals).
inline std::string problem_identity(const Board& b, const std::string& what) {
  std::string jumps;
  for (const Jump& j : b.jumps())
    jumps +=
        std::to_string(j.from) + "," + std::to_string(j.over) + "," + std::to_string(j.to) + ";";
  char digest[32];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(fnv1a(jumps)));
  std::string name = b.name();
  for (char& c : name)
    if (c == ' ' || c == '\n') c = '_';
  return name + " holes " + std::to_string(b.size()) + " jumps " + digest + " " + what;
}

// A search's checkpoints (FewestOptions::checkpoint_dir): the state read when it resumes, and
// written after each completed pass, with the positions and seconds of the runs before added.
class Checkpoints {
 public:
  Checkpoints(const std::string& dir, bool resume, const std::string& problem) : dir_(dir) {
    state_.problem = problem;
    if (dir_.empty() || !resume) return;
    bool found = false;
    FewestState s = read_state(dir_, problem, found);
    if (!found) return;
    state_ = std::move(s);
    base_positions_ = state_.positions;
    base_seconds_ = state_.seconds;
  }
  bool on() const { return !dir_.empty(); }
  FewestState& state() { return state_; }
  std::uint64_t base_positions() const { return base_positions_; }
  double base_seconds() const { return base_seconds_; }
  // Writes the state, with this run's positions and seconds so far.
  void save(std::uint64_t positions, double seconds) {
    if (!on()) return;
    state_.positions = base_positions_ + positions;
    state_.seconds = base_seconds_ + seconds;
    write_state(dir_, state_);
    if (after_save) after_save(state_.floor);
  }
  std::function<void(int)> after_save;  // called after each state written, with its floor

 private:
  std::string dir_;
  FewestState state_;
  std::uint64_t base_positions_ = 0;
  double base_seconds_ = 0;
};

}  // namespace pegsol::fewest_detail
