// SPDX-License-Identifier: MIT
// Hostile input: files read within a bound whatever they are, checkpoint checksums, damaged
// checkpoints refused, impossible problems refused before the enumeration searches, and the
// library's messages in its own words (fields, never a front end's options).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "census/checkpoint.hpp"
#include "core/checksum.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/census.hpp"
#include "pegsol/error.hpp"
#include "pegsol/fewest.hpp"
#include "pegsol/invariants.hpp"
#include "pegsol/presets.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {
namespace {

namespace fs = std::filesystem;

// A fresh directory of its own under the system's temporary directory, removed at the end.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("pegsol-" + name + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The message of the InputError that f throws; a failure when it throws none.
template <class F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& c : v) c = static_cast<unsigned char>(rng());
  return v;
}

// ---- Checksum64 ----

// The two values the XXH64 specification gives for seed 0.
TEST(Checksum, SpecificationValues) {
  EXPECT_EQ(Checksum64::of("", 0), 0xEF46DB3751D8E999ull);
  EXPECT_EQ(Checksum64::of("abc", 3), 0x44BC2CF5AD770999ull);
}

// The reference library, where the system has it: every length from 0 to 300 (each branch of the
// tail), fed whole.
TEST(Checksum, AgainstTheReferenceLibrary) {
  void* lib = dlopen("libxxhash.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!lib) GTEST_SKIP() << "libxxhash.so.0 is not installed";
  using Fn = unsigned long long (*)(const void*, std::size_t, unsigned long long);
  auto ref = reinterpret_cast<Fn>(dlsym(lib, "XXH64"));
  ASSERT_NE(ref, nullptr);
  const std::vector<unsigned char> v = random_bytes(300, 7);
  for (std::size_t n = 0; n <= v.size(); ++n)
    EXPECT_EQ(Checksum64::of(v.data(), n), ref(v.data(), n, 0)) << n << " bytes";
  dlclose(lib);
}

// The value does not depend on how the stream is cut into pieces, and every single flipped bit
// changes it.
TEST(Checksum, PiecesAndFlippedBits) {
  const std::vector<unsigned char> v = random_bytes(200, 1);
  const std::uint64_t whole = Checksum64::of(v.data(), v.size());
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    Checksum64 c;
    for (std::size_t i = 0; i < v.size();) {
      const std::size_t k = std::min<std::size_t>(v.size() - i, rng() % 70);
      c.update(v.data() + i, k);
      i += k;
    }
    ASSERT_EQ(c.value(), whole);
    ASSERT_EQ(c.size(), v.size());
  }
  for (std::size_t bit = 0; bit < v.size() * 8; ++bit) {
    std::vector<unsigned char> w = v;
    w[bit / 8] ^= static_cast<unsigned char>(1u << (bit % 8));
    ASSERT_NE(Checksum64::of(w.data(), w.size()), whole) << "bit " << bit;
  }
}

// ---- read_file: bounded whatever the file is ----

TEST(ReadFile, RegularFilesUpToTheBound) {
  TempDir dir("read-file");
  const std::string text(1000, 'o');
  write_text(dir.path / "a.txt", text);
  EXPECT_EQ(read_file((dir.path / "a.txt").string(), "--board @a.txt", 1000), text);
  const std::string m =
      input_error([&] { read_file((dir.path / "a.txt").string(), "--board @a.txt", 999); });
  EXPECT_NE(m.find("--board @a.txt: "), std::string::npos) << m;
  EXPECT_NE(m.find("larger than 999 bytes"), std::string::npos) << m;
}

TEST(ReadFile, DevicesStopAtTheBound) {
  // /dev/zero never ends: the read stops one byte past the bound.
  const std::string m = input_error([] { read_file("/dev/zero", "--board @/dev/zero", 4096); });
  EXPECT_EQ(m, "--board @/dev/zero: larger than 4096 bytes, the most a drawing or a game may be");
  EXPECT_EQ(read_file("/dev/null", "--start @/dev/null"), "");
}

TEST(ReadFile, DirectoriesAndMissingFiles) {
  TempDir dir("read-dir");
  const std::string d = dir.path.string();
  EXPECT_EQ(input_error([&] { read_file(d, "--board @" + d); }),
            "--board @" + d + ": is a directory, not a file");
  const std::string m = input_error([&] { read_file(d + "/none.txt"); });
  EXPECT_NE(m.find("file '" + d + "/none.txt': cannot read file"), std::string::npos) << m;
}

TEST(ReadFile, PipesAndFifos) {
  // A pipe holding more than the bound (within the pipe's buffer: no writer waits).
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string data(3000, 'o');
  ASSERT_EQ(write(fds[1], data.data(), data.size()), static_cast<ssize_t>(data.size()));
  close(fds[1]);
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  const std::string m = input_error([&] { read_file(path, "--board @/dev/stdin", 1000); });
  EXPECT_NE(m.find("--board @/dev/stdin: larger than 1000 bytes"), std::string::npos) << m;
  close(fds[0]);
  // A FIFO: its writer opens it, writes and closes; the whole text when within the bound.
  TempDir dir("read-fifo");
  const std::string fifo = (dir.path / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (std::size_t bound : {std::size_t{5000}, std::size_t{2999}}) {
    std::thread writer([&] {
      const int fd = open(fifo.c_str(), O_WRONLY);
      if (fd < 0) return;
      [[maybe_unused]] const ssize_t w = write(fd, data.data(), data.size());
      close(fd);
    });
    if (bound >= data.size()) {
      EXPECT_EQ(read_file(fifo, "--board @fifo", bound), data);
    } else {
      const std::string e = input_error([&] { read_file(fifo, "--board @fifo", bound); });
      EXPECT_NE(e.find("larger than 2999 bytes"), std::string::npos) << e;
    }
    writer.join();
  }
}

// ---- Checkpoints: checked, and refused when damaged ----

Problem triangle_problem(int n) {
  return default_problem(make_board("triangle:" + std::to_string(n)));
}

// Flips one bit of `file` at `offset` bytes from its start.
void flip(const fs::path& file, std::size_t offset) {
  std::string s = read_text(file);
  ASSERT_LT(offset, s.size());
  s[offset] = static_cast<char>(s[offset] ^ 0x10);
  write_text(file, s);
}

// A census checkpoint resumes to the uninterrupted figures; a flipped bit in any of its files, a
// file cut short, a FIFO in a file's place and a state of the format before the checksums are
// each refused as bad input naming the file, never resumed.
TEST(Checkpoint, DamagedCensusFilesAreRefused) {
  TempDir dir("ck-census");
  const Problem p = triangle_problem(6);
  CensusOptions o;
  o.threads = 1;
  const CensusResult whole = census(p, o);
  o.checkpoint_dir = dir.path.string();
  ASSERT_EQ(census(p, o).solutions, whole.solutions);
  const fs::path state = dir.path / "census.state";
  ASSERT_TRUE(fs::exists(state));
  std::vector<fs::path> levels;
  for (const auto& e : fs::directory_iterator(dir.path))
    if (e.path().filename().string().rfind("census.level.", 0) == 0) levels.push_back(e.path());
  ASSERT_EQ(levels.size(), 1u);
  const fs::path level = levels[0];
  const std::string good_state = read_text(state), good_level = read_text(level);

  o.resume = true;
  const CensusResult resumed = census(p, o);
  ASSERT_EQ(resumed.stop, StopReason::None);
  EXPECT_EQ(resumed.solutions, whole.solutions);
  EXPECT_EQ(resumed.games, whole.games);
  EXPECT_EQ(resumed.p_one_peg, whole.p_one_peg);

  auto refused = [&](const fs::path& file, const std::string& why) {
    const std::string m = input_error([&] { census(p, o); });
    EXPECT_NE(m.find("CensusOptions::resume: " + dir.path.string()), std::string::npos) << m;
    EXPECT_NE(m.find(file.string()), std::string::npos) << m;
    EXPECT_NE(m.find(why), std::string::npos) << m;
    write_text(state, good_state);
    write_text(level, good_level);
  };
  for (const fs::path& file : {state, level}) {
    const std::size_t size = fs::file_size(file);
    // The payload's first byte, one in its middle, and the trailer's last (the checksum's).
    for (std::size_t at : {std::size_t{0}, (size - 24) / 2, size - 1}) {
      SCOPED_TRACE(file.string() + " at " + std::to_string(at));
      flip(file, at);
      refused(file, "is damaged (its checksum does not match)");
    }
  }
  write_text(level, good_level.substr(0, good_level.size() - 1));
  refused(level, "has no checksum");
  write_text(level, good_level.substr(0, good_level.size() / 2) +
                        good_level.substr(good_level.size() - 24));
  refused(level, "is damaged (its length is");
  fs::remove(level);
  ASSERT_EQ(mkfifo(level.c_str(), 0600), 0);
  const std::string m = input_error([&] { census(p, o); });
  EXPECT_NE(m.find(level.string() + " is not a regular file"), std::string::npos) << m;
  fs::remove(level);
  write_text(level, good_level);
  // A state of format 2 (before the checksums): refused as an older version's.
  write_text(state, "PEGCENS2" + good_state.substr(8, good_state.size() - 8 - 24));
  const std::string old = input_error([&] { census(p, o); });
  EXPECT_NE(old.find("written by an older version of pegsol"), std::string::npos) << old;
  write_text(state, good_state);
  EXPECT_EQ(census(p, o).solutions, whole.solutions);  // the files put back resume again
}

// The table's state: a flipped bit anywhere, or the format before the checksums, is refused.
TEST(Checkpoint, DamagedTableStateIsRefused) {
  TempDir dir("ck-table");
  const BoardPtr b = make_board("triangle:5");
  CensusOptions o;
  o.threads = 1;
  o.checkpoint_dir = dir.path.string();
  TableOptions to;
  to.method = TableMethod::Passes;
  const SolvabilityTable whole = solvability_table(b, o, to);
  ASSERT_TRUE(whole.complete());
  const fs::path state = dir.path / "table.state";
  const std::string good = read_text(state);
  o.resume = true;
  ASSERT_TRUE(solvability_table(b, o, to).complete());
  for (std::size_t at = 0; at < good.size(); at += 7) {
    flip(state, at);
    const std::string m = input_error([&] { solvability_table(b, o, to); });
    EXPECT_NE(m.find(state.string()), std::string::npos) << at << ": " << m;
    write_text(state, good);
  }
  write_text(state, "PEGTABL2" + good.substr(8, good.size() - 8 - 24));
  const std::string old = input_error([&] { solvability_table(b, o, to); });
  EXPECT_NE(old.find("written by an older version of pegsol"), std::string::npos) << old;
}

// ---- The library's words: fields, not options ----

// The InputError that f throws; a failure when it throws none.
template <class F>
InputError input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return InputError("");
}

// The problem of `board` with `hole` vacant (the spec's default end).
Problem words_problem(const std::string& board, const std::string& hole) {
  ProblemSpec s;
  s.board = board;
  s.start = hole;
  return build_problem(s);
}

// A library message names the argument or field at fault, never a command-line option: no
// "--" anywhere (issue 43), the field as InputError::field().
void expect_library_words(const InputError& e, const std::string& field) {
  EXPECT_EQ(e.field(), field) << e.what();
  EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << e.what();
}

// The checkpoint, resume and spill refusals of the census, the table and the fewest-moves search,
// and an unknown preset, each name their field.
TEST(LibraryWords, RefusalsNameTheFieldNotTheOption) {
  TempDir dir("words");
  write_text(dir.path / "file", "x");
  const std::string empty = dir.path.string(), under_file = (dir.path / "file" / "d").string();
  const Problem p = triangle_problem(5);
  CensusOptions o;
  o.threads = 1;
  o.checkpoint_dir = empty;
  o.resume = true;
  InputError e = input_error_of([&] { census(p, o); });
  expect_library_words(e, "CensusOptions::resume");
  EXPECT_EQ(e.detail().rfind(empty + ": no census checkpoint there", 0), 0u) << e.what();
  expect_library_words(input_error_of([&] { solvability_table(p.board, o); }),
                       "CensusOptions::resume");
  o.resume = false;
  o.checkpoint_dir = under_file;
  expect_library_words(input_error_of([&] { census(p, o); }), "CensusOptions::checkpoint_dir");
  o.checkpoint_dir.clear();
  o.spill_dir = under_file;
  Control spills;
  spills.set_memory_budget(1 << 20);  // small enough that the census spills
  o.control = &spills;
  expect_library_words(input_error_of([&] { census(words_problem("english", "d4"), o); }),
                       "CensusOptions::spill_dir");

  FewestOptions f;
  f.threads = 1;
  f.spill_dir = under_file;
  f.spill_always = true;
  expect_library_words(input_error_of([&] { fewest_solve(p, f); }), "FewestOptions::spill_dir");
  f.spill_dir.clear();
  f.spill_always = false;
  write_text(dir.path / "fewest.state", "not a state\n");
  f.checkpoint_dir = empty;
  f.resume = true;
  expect_library_words(input_error_of([&] { fewest_solve(p, f); }), "FewestOptions::resume");

  e = input_error_of([] { preset("latin-cros"); });
  expect_library_words(e, "preset");
  EXPECT_NE(e.detail().find("did you mean 'latin-cross'? (presets() lists them)"),
            std::string::npos)
      << e.what();
}

// A census stopped by its memory limit says so in its note naming the field, and carries the
// field and the limit as data (CensusResult::stop_field, stop_limit) for a front end to name; the
// reordering count's skip names its field too.
TEST(LibraryWords, NotesNameTheFieldAndCarryTheLimit) {
  Control budget;
  budget.set_memory_budget(64 << 10);
  CensusOptions o;
  o.threads = 1;
  o.control = &budget;
  const CensusResult r = census(words_problem("triangle:6", "1"), o);
  ASSERT_EQ(r.stop, StopReason::Memory);
  EXPECT_EQ(r.stop_field, "Control::memory_budget");
  EXPECT_EQ(r.stop_limit, std::size_t{64} << 10);
  EXPECT_NE(r.stop_note.find("memory limit of 1 MiB (Control::memory_budget) reached"),
            std::string::npos)
      << r.stop_note;
  EXPECT_EQ(r.stop_note.find("--"), std::string::npos) << r.stop_note;
  o.control = nullptr;
  o.distinct_max_positions = 10;
  const CensusResult d = census(words_problem("triangle:5", "1"), o);
  EXPECT_EQ(d.stop, StopReason::None);
  EXPECT_TRUE(d.stop_field.empty());
  EXPECT_EQ(d.stop_limit, 0u);
  EXPECT_NE(d.distinct_note.find("(CensusOptions::distinct_max_positions)"), std::string::npos)
      << d.distinct_note;
  EXPECT_EQ(d.distinct_note.find("--"), std::string::npos) << d.distinct_note;
}

// rename_fields: every Type::field word given the front end's name, the rest untouched.
TEST(LibraryWords, RenameFields) {
  auto option = [](std::string_view f) -> std::string {
    if (f == "CensusOptions::memory_limit") return "--memory-limit";
    if (f == "PathIndex::Options::threads") return "--threads";
    return "";
  };
  EXPECT_EQ(rename_fields("memory limit of 1 MiB (CensusOptions::memory_limit) reached", option),
            "memory limit of 1 MiB (--memory-limit) reached");
  EXPECT_EQ(rename_fields("CensusOptions::memory_limit", option), "--memory-limit");
  EXPECT_EQ(rename_fields("(Control::memory_budget)",
                          [](std::string_view f) {
                            return f == "Control::memory_budget" ? std::string("--memory-limit")
                                                                 : std::string();
                          }),
            "(--memory-limit)");
  EXPECT_EQ(rename_fields("PathIndex::Options::threads: 2000", option), "--threads: 2000");
  // A field the front end does not name stays; so do qualified names that are no field.
  EXPECT_EQ(rename_fields("SolveOptions::capacity and pegsol::InputError", option),
            "SolveOptions::capacity and pegsol::InputError");
  EXPECT_EQ(rename_fields("Board::Kind, d4::e5, a::, ::b", option),
            "Board::Kind, d4::e5, a::, ::b");
  EXPECT_EQ(rename_fields("xCensusOptions::memory_limit", option), "xCensusOptions::memory_limit");
  EXPECT_EQ(rename_fields("", option), "");
  EXPECT_EQ(rename_fields("CensusOptions::memory_limit", {}), "CensusOptions::memory_limit");
}

// ---- solutions: proofs before the search ----

// An impossible problem that a proof shows so: no solution, no stop, and the proof (the same as
// impossibility()'s) in the result, before a single position is searched (a control already past
// its deadline would stop any search).
TEST(Enumerate, ImpossibleByProofBeforeTheSearch) {
  const Problem p = triangle_problem(7);
  const std::optional<std::string> why = impossibility(p);
  ASSERT_TRUE(why.has_value());
  Control stopped;
  stopped.cancel(StopReason::Time);
  EnumerateOptions o;
  o.control = &stopped;
  const EnumerateResult r = enumerate_solutions(p, o, [](const std::vector<Jump>&) {
    ADD_FAILURE() << "a solution of an impossible problem";
    return true;
  });
  EXPECT_EQ(r.emitted, 0u);
  EXPECT_EQ(r.stop, StopReason::None);
  EXPECT_EQ(r.reason, *why);
  // A solvable problem under the same control stops instead, with no reason.
  const EnumerateResult s =
      enumerate_solutions(triangle_problem(5), o, [](const std::vector<Jump>&) { return true; });
  EXPECT_NE(s.stop, StopReason::None);
  EXPECT_TRUE(s.reason.empty());
}

}  // namespace
}  // namespace pegsol
