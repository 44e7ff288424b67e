// SPDX-License-Identifier: MIT
// The level a rank is building (docs/mpi.md, "Forward pass"): its residues cut into ranges, the
// compact engine's work items, each summing its children in a compact engine table
// (census/compact_tables.hpp) while the rank's memory allows, else appending them to a bucket.
//
//   ranges:   [lo, lo + w)  [lo + w, lo + 2w)  ...  [.., hi)     (w residues each)
//   a range:  table (in memory)  |  bucket: the table's sums when it left memory, then one
//                                   entry per child and round, in round order
//
// A child gets one entry per round (the round table's sum of its shares), and a range adds them
// in round order, in its table or, replayed, from its bucket: a child's chance is the same fold
// of its round sums either way, so the chances' bits do not depend on where a range was built (or
// on the number of ranks). The buckets are pieces of one file of the rank's own (BucketFile),
// appended to with write() and read back with pread(): through the page cache, none of it mapped
// into the rank (buckets in the pool's mapped spill file, a page fault a page and resident until
// shed, took a rank at 200 MB to 232-245 MiB and 145 against 131 s: docs/mpi.md).
//
// A level whose path counts fit one word (the level expanded's counts times the jumps, over all
// ranks, under 2^64) sums them in tables of one-word counts (24-byte slots, not 32). The tables'
// keys and values are blocks carved from the rank's pool's chunks (census/compact_memory.hpp's
// Blocks), which come back level after level: pages zeroed once, in 2 MiB pages.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../census/compact_memory.hpp"
#include "../census/compact_tables.hpp"
#include "../census/engine.hpp"
#include "../census/memory.hpp"
#include "../census/wide_table.hpp"
#include "../core/fd_io.hpp"
#include "rank_level.hpp"

namespace pegsol::mpi {
// (Unnamed, as the compact tables it holds: only census_mpi.cpp includes it.)
namespace {

// A 128-bit count as two words, 8-byte aligned, for the tables' values: {count, chance} is 24
// bytes, three lines a bucket of eight, where unsigned __int128's 16-byte alignment made it 32
// (four lines, 8 bytes of padding a slot). Overflow wraps: NextLevel bounds the sums apart.
struct Words {
  std::uint64_t lo, hi;
  Words() = default;
  Words(std::uint64_t l, std::uint64_t h) : lo(l), hi(h) {}
  Count value() const { return static_cast<Count>(hi) << 64 | lo; }
  Words& operator+=(const Words& o) {
    lo += o.lo;
    hi += o.hi + (lo < o.lo);
    return *this;
  }
};

// An array of a level's scratch (a round's children by range, a range's children sorted) in a
// block of the tables' memory (Blocks): its pages come back level after level as the tables'
// do, where booked vectors took fresh ones each level (docs/mpi.md). Not cleared; its contents
// do not survive a larger reserve().
template <class T>
class Scratch {
 public:
  explicit Scratch(census_detail::Blocks& b) : blocks_(&b) {}
  // Room for n elements.
  T* reserve(std::size_t n) {
    if (n > cap_) {
      block_.reset();
      cap_ = std::max(n, cap_ + cap_ / 2);
      block_ = census_detail::Blocks::Block(*blocks_, cap_ * sizeof(T));
    }
    return data();
  }
  T* data() const { return reinterpret_cast<T*>(block_.data()); }
  void release() {
    block_.reset();
    cap_ = 0;
  }

 private:
  census_detail::Blocks* blocks_;
  census_detail::Blocks::Block block_;
  std::size_t cap_ = 0;
};

// The compact tables' instructions a rank uses: the baseline's (pegsol-mpi is not built per CPU).
struct BaselineTier {
  static constexpr bool avx512 = false, avx2 = false, bmi2 = false;
};

// The rank's buckets: one unnamed file in its spill directory (nothing is left there, even after
// kill -9), appended to and read back by offset; emptied after each level.
class BucketFile {
 public:
  using u64 = std::uint64_t;
  BucketFile() = default;
  BucketFile(const BucketFile&) = delete;
  BucketFile& operator=(const BucketFile&) = delete;
  ~BucketFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Creates the file in dir (once).
  void open(const std::string& dir) {
    if (fd_ >= 0) return;
    fd_ = census_detail::open_unnamed(dir);
    if (fd_ < 0) fail("cannot create a file in " + dir);
    dir_ = dir;
  }
  bool is_open() const { return fd_ >= 0; }
  // Appends `bytes` at the end; returns their offset.
  u64 append(const void* p, std::size_t bytes) {
    if (!io::write_all(fd_, p, bytes, static_cast<off_t>(end_))) fail("cannot write");
    const u64 at = end_;
    end_ += bytes;
    peak_ = std::max(peak_, end_);
    return at;
  }
  // Reads `bytes` at `offset`, all appended before.
  void read(u64 offset, void* p, std::size_t bytes) const {
    if (io::read_up_to(fd_, p, bytes, static_cast<off_t>(offset)) != static_cast<ssize_t>(bytes))
      fail("cannot read");
  }
  // Empties the file (its disk space freed).
  void clear() {
    if (fd_ >= 0 && end_ > 0 && ::ftruncate(fd_, 0) != 0) fail("cannot truncate");
    end_ = 0;
  }
  // The file at its largest, in bytes.
  u64 peak() const { return peak_; }

 private:
  // A full disk is an I/O error, status 3 on every rank (as the pool's spill file's).
  [[noreturn]] void fail(const std::string& what) const {
    throw CensusError("spill: " + what + " the buckets' file in " + dir_ + " (" +
                      std::strerror(errno) + ")");
  }
  int fd_ = -1;
  std::string dir_;
  u64 end_ = 0, peak_ = 0;
};

// The part of the next level each of a rank's residues [lo, hi) is expected to hold, as the
// compact engine's work items estimate it: for each jump class, its jumps times the level's
// positions (over all ranks) of the residue its delta back. Its arrays stay from level to level,
// zero between calls: a level costs the residues its parents reach, not the 2^16 residues (two
// arrays of them cleared and scanned a level were a fixed cost that small problems felt,
// docs/mpi.md).
class Expected {
 public:
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  // The residues of [lo, hi) (the same at every call) the parents reach, ascending, each with
  // its part: `parents` the level's (residue, positions) over all ranks, ascending by residue,
  // `classes` the (delta, jumps) of each jump class.
  const std::vector<std::pair<u32, u64>>& of(u32 lo, u32 hi,
                                             const std::vector<std::pair<u32, u32>>& parents,
                                             const std::vector<std::pair<u32, u32>>& classes) {
    if (w_.size() != hi - lo) {
      w_.assign(hi - lo, 0);
      touched_.assign((hi - lo + 63) / 64, 0);
    }
    lo_ = lo;
    const u32 len = hi - lo;
    // Adds the parents of residues [a, b) (of 2^16) to the residues their class's delta on.
    auto add = [&](u32 a, u32 b, u32 delta, u64 n) {
      auto p = std::lower_bound(parents.begin(), parents.end(), std::pair<u32, u32>{a, 0});
      for (; p != parents.end() && p->first < b; ++p) {
        const u32 i = ((p->first + delta) & census_detail::kResidueMask) - lo_;
        touched_[i / 64] |= u64{1} << (i % 64);
        w_[i] += n * p->second;
      }
    };
    for (const auto& [delta, n] : classes) {
      const u32 a = (lo_ - delta) & census_detail::kResidueMask;
      if (a + len <= census_detail::kResidues) {
        add(a, a + len, delta, n);
      } else {
        add(a, census_detail::kResidues, delta, n);
        add(0, a + len - census_detail::kResidues, delta, n);
      }
    }
    out_.clear();
    for (std::size_t t = 0; t < touched_.size(); ++t)
      for (u64 bits = std::exchange(touched_[t], 0); bits; bits &= bits - 1) {
        const std::size_t i = t * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        out_.emplace_back(lo_ + static_cast<u32>(i), std::exchange(w_[i], 0));
      }
    return out_;
  }

 private:
  u32 lo_ = 0;
  std::vector<u64> w_;        // [residue - lo]: its part (zero between calls)
  std::vector<u64> touched_;  // a bit a residue: its part is not zero (zero between calls)
  std::vector<std::pair<u32, u64>> out_;
};

// What a table of the level being built counts its paths in: one word (a level whose counts fit
// 64 bits, NextLevel::fits) or two.
template <class W>
struct CountWord;
template <>
struct CountWord<std::uint64_t> {
  static std::uint64_t of(std::uint64_t lo, std::uint64_t) { return lo; }
  static std::uint64_t lo(std::uint64_t w) { return w; }
  static std::uint64_t hi(std::uint64_t) { return 0; }
};
template <>
struct CountWord<Words> {
  static Words of(std::uint64_t lo, std::uint64_t hi) { return Words{lo, hi}; }
  static std::uint64_t lo(const Words& w) { return w.lo; }
  static std::uint64_t hi(const Words& w) { return w.hi; }
};

template <class W>
class NextLevelOf {
 public:
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  // A child with its count and chance (the round's sum of its shares, or a sum over rounds).
  using Entry = census_detail::wide::Entry<64>;
  using Table = census_detail::Table<W, census_detail::kChance>;

  // A table's bytes a slot (key and value), at most 80% of them used.
  static constexpr std::size_t kSlotBytes = sizeof(u64) + sizeof(typename Table::Value);

  NextLevelOf(census_detail::Memory& m, BucketFile& f, census_detail::Blocks& b)
      : file_(f),
        blocks_(b),
        mem_(m),
        sorted_(b),
        which_(b),
        stage_key_(b),
        stage_count_(b),
        stage_share_(b),
        io_(m) {}
  NextLevelOf(const NextLevelOf&) = delete;
  NextLevelOf& operator=(const NextLevelOf&) = delete;

  // Empty, over the residues [lo, hi), for about `expect` positions, `weight` the residues of
  // [lo, hi) expected to hold some, ascending, each with its part of them (in any unit; none:
  // even parts), in tables of about `start` positions in all; `spill`: a range whose table would
  // pass the memory limit goes to a bucket (in the file, open).
  void begin(u32 lo, u32 hi, const std::vector<std::pair<u32, u64>>& weight, std::size_t expect,
             std::size_t start, bool spill) {
    release();
    lo_ = lo;
    spill_ = spill;
    // Spilling, a bucket's range is summed in a table at the end, in the memory the rounds'
    // buffers left: a range aims at a 4,096th of the limit in positions (some 85 bytes each then,
    // the table and its sorted copy: a 48th of the limit, room for a range several times the
    // average).
    const std::size_t per =
        spill ? std::clamp<std::size_t>(mem().limit() / 4096, 256, kRangePositions)
              : kRangePositions;
    const std::size_t m = std::clamp<std::size_t>((expect + per - 1) / per, 1, hi - lo);
    // The ranges: runs of residues of about a m-th of the weights each, each table sized for its
    // part of `start` and a tenth more (the weights are estimates). Each range's residues are
    // filled at once, and the cut walks the residues with weight alone (not all of [lo, hi): a
    // fixed cost a level that a small problem felt, docs/mpi.md).
    u64 total = 0;
    for (const auto& x : weight) total += x.second;
    range_of_.resize(hi - lo);
    ranges_.reserve(m + 1);
    // Adds the range [a, b), which holds acc of the weights' all.
    auto cut = [&](u32 a, u32 b, double acc, double all) {
      std::fill(range_of_.begin() + (a - lo), range_of_.begin() + (b - lo),
                static_cast<u32>(ranges_.size()));
      Range& r = ranges_.emplace_back(mem(), blocks_);
      r.lo = a;
      r.hi = b;
      r.table.reset(static_cast<std::size_t>(static_cast<double>(start) * acc / all * 1.1));
    };
    if (total == 0) {
      // Even parts: a range ends at the first residue where its width reaches the part.
      const double part = static_cast<double>(hi - lo) / static_cast<double>(m);
      const auto w = std::max<u32>(1, static_cast<u32>(std::ceil(part)));
      for (u32 a = lo, b = lo; a < hi; a = b) {
        b = hi - a > w ? a + w : hi;
        cut(a, b, static_cast<double>(b - a), static_cast<double>(hi - lo));
      }
      return;
    }
    // A range ends at the first residue where its weights reach the part, or at hi (the weights
    // are integers, exact in doubles).
    const double part = static_cast<double>(total) / static_cast<double>(m);
    u32 a = lo;
    u64 acc = 0;
    for (const auto& [c, x] : weight) {
      acc += x;
      if (static_cast<double>(acc) < part && c + 1 < hi) continue;
      cut(a, c + 1, static_cast<double>(acc), static_cast<double>(total));
      a = c + 1;
      acc = 0;
    }
    if (a < hi) cut(a, hi, static_cast<double>(acc), static_cast<double>(total));
  }

  // Adds the round's entries, each(f) calling f(const Entry&) for each of the n children once
  // (twice over, in the same order), keeping `spare` bytes of the memory limit free for the
  // rounds' buffers when a table grows; residue(key) is in the ranges' residues. The order of a
  // round's adds does not matter: a child gets one per round.
  template <class Each, class Residue>
  void add_round(std::size_t n, Each&& each, std::size_t spare, Residue&& residue) {
    // The round's entries by range (a counting sort), one array a field.
    u32* which = which_.reserve(n);
    std::vector<u32> first(ranges_.size() + 1, 0);
    std::size_t i = 0;
    each([&](const Entry& e) {
      const u32 g = range_of_[residue(e.key.w[0]) - lo_];
      which[i++] = g;
      ++first[g + 1];
    });
    for (std::size_t g = 0; g < ranges_.size(); ++g) first[g + 1] += first[g];
    u64* key = stage_key_.reserve(n);
    W* count = stage_count_.reserve(n);
    double* share = stage_share_.reserve(n);
    {
      std::vector<u32> put(first.begin(), first.end() - 1);
      i = 0;
      each([&](const Entry& e) {
        const u32 at = put[which[i++]]++;
        key[at] = e.key.w[0];
        count[at] = CountWord<W>::of(e.lo, e.hi);
        share[at] = e.prob;
      });
    }
    for (std::size_t g = 0; g < ranges_.size(); ++g)
      for (u32 q = first[g]; q < first[g + 1];) {
        const std::size_t nc = std::min<std::size_t>(first[g + 1] - q, census_detail::kBatch);
        add(ranges_[g], key + q, count + q, share + q, nc, spare);
        q += static_cast<u32>(nc);
      }
  }

  // Makes the level `cur` (its residues [lo, hi), residue(key)): every range's children summed
  // and sorted by key, range by range, calling shed() after each (the pool's spill file's pages
  // of the level it wrote may go); the tables and buckets are released.
  template <class Residue, class Shed>
  void build(RankLevel& cur, u32 lo, u32 hi, Residue&& residue, Shed&& shed) {
    // A bucket's range: its entries replayed in order into a table (the same sums as the
    // table's), then appended to the file again sorted by key, one entry a child.
    for (Range& r : ranges_)
      if (r.in_bucket) settle(r);

    cur.build(
        lo, hi,
        [&](auto&& g) {
          for (const Range& r : ranges_) {
            if (r.in_bucket) {
              each_entry(r, [&](const Entry& e) { g(e.key.w[0]); });
              continue;
            }
            const u64* k = r.table.keys();
            for (std::size_t s = 0; s < r.table.capacity(); ++s)
              if (k[s]) g(k[s]);
          }
        },
        [&](auto&& f) {
          for (Range& r : ranges_) {
            if (r.in_bucket) {
              each_entry(r, [&](const Entry& e) { f(e.key.w[0], e.count(), e.prob); });
            } else {
              const std::size_t m = sort_table(r.table);
              r.table.release();
              for (const Entry* e = sorted_.data(); e != sorted_.data() + m; ++e)
                f(e->key.w[0], e->count(), e->prob);
            }
            shed();
          }
        },
        residue);
    release();
  }

  // Ends the level: its tables and buffers go, the tables' blocks back to the rank's pool for
  // the next level (Blocks: pages zeroed once, in 2 MiB pages). (Tried and lost: fresh heap
  // pages for the tables level after level, 2-3 s more system time on the English census on 2
  // ranks than the wide table took; every range's table kept for the next level's ranges, 305
  // MiB of tables at the peak against 262.)
  void release() {
    ranges_.clear();
    sorted_.release();
    which_.release();
    stage_key_.release();
    stage_count_.release();
    stage_share_.release();
    io_.release();
    if (file_.is_open()) file_.clear();
  }
  // Ranges built from buckets and the bytes appended to them, since the rank began.
  u64 bucket_ranges() const { return bucket_ranges_; }
  u64 bucket_bytes() const { return bucket_bytes_; }

 private:
  // Positions a range aims at, from the level's estimate: its table fits a cache of 1 MiB or
  // so, as the compact engine's work items' do (compact_common.hpp, kItemPositions); fewer
  // under a low memory limit with a spill directory (begin()).
  static constexpr std::size_t kRangePositions = 16000;
  // Entries a bucket is written and read by at most (64 KiB).
  static constexpr std::size_t kPiece = 2048;

  struct Range {
    Range(census_detail::Memory& m, census_detail::Blocks& b) : table(m, b) {}
    u32 lo = 0, hi = 0;
    Table table;
    bool in_bucket = false;
    // The bucket: (offset, entries) in the file, in order (consecutive appends joined).
    std::vector<std::pair<u64, std::size_t>> pieces;
    Count added = 0;  // the counts added: a bound on any child's (no table add checks it)
  };

  census_detail::Memory& mem() const { return mem_; }
  // Room for kPiece entries on their way to or from the file.
  Entry* io() {
    if (io_.size() < kPiece) {
      io_.reserve(kPiece);
      io_.vec().resize(kPiece);
    }
    return io_.vec().data();
  }

  // Adds the batch (key, count, share)[0, nc) to range r: to its table while it fits, else to
  // its bucket.
  void add(Range& r, const u64* key, const W* count, const double* share, std::size_t nc,
           std::size_t spare) {
    // (Counts of one word fit by the level's bound, NextLevel::fits.)
    if constexpr (!std::is_same_v<W, u64>)
      for (std::size_t q = 0; q < nc; ++q) census_detail::add_count(r.added, count[q].value());
    if (!r.in_bucket && spill_) {
      const std::size_t cap = r.table.capacity();
      std::size_t grown = cap;
      while ((r.table.size() + nc) * 5 > grown * 4) grown *= 2;
      // The grown table's block, beside the old one (from free memory the ledger holds, when
      // some has room).
      const std::size_t need = grown > cap ? blocks_.fresh(grown * kSlotBytes) : 0;
      if (need && mem().used() + need + spare > mem().limit()) to_bucket(r);
    }
    if (!r.in_bucket) {
      r.table.template add<BaselineTier>(key, nc, count, share);
      return;
    }
    Entry* e = io();
    for (std::size_t q = 0; q < nc; ++q) e[q] = entry(key[q], count[q], share[q]);
    append(r, e, nc);
  }

  static Entry entry(u64 key, const W& count, double chance) {
    Entry e;
    e.key.w[0] = key;
    e.lo = CountWord<W>::lo(count);
    e.hi = CountWord<W>::hi(count);
    e.prob = chance;
    return e;
  }

  // Moves range r's table to its bucket (its sums so far, the bucket's first entries).
  void to_bucket(Range& r) {
    r.in_bucket = true;
    ++bucket_ranges_;
    Entry* e = io();
    std::size_t m = 0;
    const u64* k = r.table.keys();
    const typename Table::Value* v = r.table.values();
    for (std::size_t s = 0; s < r.table.capacity(); ++s)
      if (k[s]) {
        e[m++] = entry(k[s], v[s].count, v[s].chance);
        if (m == kPiece) {
          append(r, e, m);
          m = 0;
        }
      }
    if (m) append(r, e, m);
    r.table.release();
  }

  // Appends e[0, m) to range r's bucket.
  void append(Range& r, const Entry* e, std::size_t m) {
    const u64 at = file_.append(e, m * sizeof(Entry));
    if (!r.pieces.empty() && r.pieces.back().first + r.pieces.back().second * sizeof(Entry) == at)
      r.pieces.back().second += m;
    else
      r.pieces.emplace_back(at, m);
    bucket_bytes_ += m * sizeof(Entry);
  }

  // Calls f(const Entry&) for each entry of range r's bucket, in order, read kPiece at a time.
  template <class F>
  void each_entry(const Range& r, F&& f) {
    Entry* e = io();
    for (const auto& [at, n] : r.pieces)
      for (std::size_t i = 0; i < n; i += kPiece) {
        const std::size_t m = std::min(n - i, kPiece);
        file_.read(at + i * sizeof(Entry), e, m * sizeof(Entry));
        for (std::size_t q = 0; q < m; ++q) f(e[q]);
      }
  }

  // Sums range r's bucket in a table, in the bucket's order, and appends its children to the
  // file sorted by key: the range's bucket from then on.
  void settle(Range& r) {
    std::size_t n = 0;
    for (const auto& piece : r.pieces) n += piece.second;
    if (n == 0) return;
    r.table.reset(std::min<std::size_t>(n, 4 * kRangePositions));
    std::size_t nc = 0;
    auto flush = [&] {
      r.table.template add<BaselineTier>(key_, nc, count_, share_);
      nc = 0;
    };
    each_entry(r, [&](const Entry& e) {
      key_[nc] = e.key.w[0];
      count_[nc] = CountWord<W>::of(e.lo, e.hi);
      share_[nc] = e.prob;
      if (++nc == census_detail::kBatch) flush();
    });
    if (nc) flush();
    const std::size_t m = sort_table(r.table);
    r.table.release();
    r.pieces.clear();
    append(r, sorted_.data(), m);
    bucket_bytes_ -= m * sizeof(Entry);  // (not a bucket's entries)
  }

  // The table's children, sorted by key, in sorted_; returns how many.
  std::size_t sort_table(const Table& t) {
    Entry* out = sorted_.reserve(t.size());
    std::size_t m = 0;
    const u64* k = t.keys();
    const typename Table::Value* v = t.values();
    for (std::size_t s = 0; s < t.capacity(); ++s)
      if (k[s]) out[m++] = entry(k[s], v[s].count, v[s].chance);
    std::sort(out, out + m, census_detail::wide::by_key<64>);
    return m;
  }

  BucketFile& file_;
  census_detail::Blocks& blocks_;  // the tables' memory
  u32 lo_ = 0;
  std::vector<u32> range_of_;  // [residue - lo_]: its range
  bool spill_ = false;
  std::vector<Range> ranges_;
  census_detail::Memory& mem_;
  Scratch<Entry> sorted_;  // a range's children, sorted by key
  // A round's children by range: each one's range, then their fields in range order.
  Scratch<u32> which_;
  Scratch<u64> stage_key_;
  Scratch<W> stage_count_;
  Scratch<double> stage_share_;
  census_detail::Booked<Entry> io_;  // a bucket's entries on their way to or from the file
  // A batch of a bucket's children for a table.
  alignas(64) u64 key_[census_detail::kBatch + 64];
  alignas(64) W count_[census_detail::kBatch + 64];
  alignas(64) double share_[census_detail::kBatch + 64];
  u64 bucket_ranges_ = 0, bucket_bytes_ = 0;
};

// The level a rank is building, in tables of one-word counts when the level's counts fit
// (fits()), else two: the level's NextLevelOf, picked by begin().
class NextLevel {
 public:
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  NextLevel(census_detail::Memory& m, census_detail::Pool& p, const std::string& spill_dir)
      : blocks_(p, m), narrow_(m, file_, blocks_), wide_(m, file_, blocks_), dir_(spill_dir) {}

  // Whether every count of the level built from a level whose counts add up to at most `sum` on
  // each of `ranks` ranks, by positions of at most `jumps` jumps, fits one word: a child's count
  // is at most the sum of its parents' counts over their jumps.
  static bool fits(Count sum, std::size_t jumps, int ranks) {
    const Count bound = (Count{1} << 64) / static_cast<Count>(std::max<std::size_t>(1, jumps) *
                                                              static_cast<u64>(ranks));
    return sum < bound;
  }
  // A table slot's bytes (key and value) at most.
  static constexpr std::size_t kSlotBytes = NextLevelOf<Words>::kSlotBytes;

  // As NextLevelOf::begin, in one-word counts when `narrow`.
  void begin(bool narrow, u32 lo, u32 hi, const std::vector<std::pair<u32, u64>>& weight,
             std::size_t expect, std::size_t start, bool spill) {
    if (spill) file_.open(dir_);
    narrow_level_ = narrow;
    with([&](auto& n) { n.begin(lo, hi, weight, expect, start, spill); });
  }
  template <class Each, class Residue>
  void add_round(std::size_t n, Each&& each, std::size_t spare, Residue&& residue) {
    with([&](auto& l) { l.add_round(n, each, spare, residue); });
  }
  template <class Residue, class Shed>
  void build(RankLevel& cur, u32 lo, u32 hi, Residue&& residue, Shed&& shed) {
    with([&](auto& l) { l.build(cur, lo, hi, residue, shed); });
  }
  u64 bucket_ranges() const { return narrow_.bucket_ranges() + wide_.bucket_ranges(); }
  u64 bucket_bytes() const { return narrow_.bucket_bytes() + wide_.bucket_bytes(); }
  // The buckets' file at its largest, in bytes.
  u64 file_peak() const { return file_.peak(); }
  // Memory the ledger holds that is free for the tables (Blocks::spare), in bytes.
  std::size_t spare() { return blocks_.spare(); }
  // The tables' memory (for other scratch of the rank's).
  census_detail::Blocks& blocks() { return blocks_; }

 private:
  template <class F>
  void with(F&& f) {
    if (narrow_level_)
      f(narrow_);
    else
      f(wide_);
  }
  // (First: the levels' members refer to them.)
  BucketFile file_;
  census_detail::Blocks blocks_;  // the tables' memory, from the rank's pool
  NextLevelOf<u64> narrow_;
  NextLevelOf<Words> wide_;
  std::string dir_;
  bool narrow_level_ = false;
};

}  // namespace
}  // namespace pegsol::mpi
