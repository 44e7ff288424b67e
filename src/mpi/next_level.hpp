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
// on the number of ranks). A bucket is pieces of the pool's memory written in order, which past
// half the memory limit are its spill file's (Pool::spill_to), their pages dropped by shed().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../census/compact_memory.hpp"
#include "../census/compact_tables.hpp"
#include "../census/engine.hpp"
#include "../census/memory.hpp"
#include "../census/wide_table.hpp"
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

// The compact tables' instructions a rank uses: the baseline's (pegsol-mpi is not built per CPU).
struct BaselineTier {
  static constexpr bool avx512 = false, avx2 = false, bmi2 = false;
};

class NextLevel {
 public:
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  // A child with its count and chance (the round's sum of its shares, or a sum over rounds).
  using Entry = census_detail::wide::Entry<64>;
  using Table = census_detail::Table<Words, census_detail::kChance>;

  // A table's bytes a slot (key and value), at most 80% of them used.
  static constexpr std::size_t kSlotBytes = sizeof(u64) + sizeof(Table::Value);

  NextLevel(census_detail::Pool& p, census_detail::Memory& m)
      : buckets_(p, m), sorted_(m), which_(m), stage_key_(m), stage_count_(m), stage_share_(m) {}
  NextLevel(const NextLevel&) = delete;
  NextLevel& operator=(const NextLevel&) = delete;

  // Empty, over the residues [lo, hi), for about `expect` positions in tables of about `start`
  // positions in all; `spill`: a range whose table would pass the memory limit goes to a bucket.
  void begin(u32 lo, u32 hi, std::size_t expect, std::size_t start, bool spill) {
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
    width_ = static_cast<u32>((hi - lo + m - 1) / m);
    ranges_.reserve((hi - lo + width_ - 1) / width_);
    for (u32 a = lo; a < hi; a += width_) {
      Range& r = ranges_.emplace_back(mem());
      r.lo = a;
      r.hi = std::min(hi, a + width_);
      r.table.reset(start / m);
    }
    bucket_.begin(buckets_, false);
  }

  // Adds the round's entries, each(f) calling f(const Entry&) for each of the n children once
  // (twice over, in the same order), keeping `spare` bytes of the memory limit free for the
  // rounds' buffers when a table grows; residue(key) is in the ranges' residues. The order of a
  // round's adds does not matter: a child gets one per round.
  template <class Each, class Residue>
  void add_round(std::size_t n, Each&& each, std::size_t spare, Residue&& residue) {
    // The round's entries by range (a counting sort), one array a field.
    which_.clear();
    which_.reserve(n);
    std::vector<u32> first(ranges_.size() + 1, 0);
    each([&](const Entry& e) {
      const u32 g = (residue(e.key.w[0]) - lo_) / width_;
      which_.vec().push_back(g);
      ++first[g + 1];
    });
    for (std::size_t g = 0; g < ranges_.size(); ++g) first[g + 1] += first[g];
    stage_key_.reserve(n);
    stage_count_.reserve(n);
    stage_share_.reserve(n);
    stage_key_.vec().resize(n);
    stage_count_.vec().resize(n);
    stage_share_.vec().resize(n);
    {
      std::vector<u32> put(first.begin(), first.end() - 1);
      std::size_t i = 0;
      each([&](const Entry& e) {
        const u32 at = put[which_[i++]]++;
        stage_key_[at] = e.key.w[0];
        stage_count_[at] = Words{e.lo, e.hi};
        stage_share_[at] = e.prob;
      });
    }
    for (std::size_t g = 0; g < ranges_.size(); ++g)
      for (u32 q = first[g]; q < first[g + 1];) {
        const std::size_t nc = std::min<std::size_t>(first[g + 1] - q, census_detail::kBatch);
        add(ranges_[g], stage_key_.vec().data() + q, stage_count_.vec().data() + q,
            stage_share_.vec().data() + q, nc, spare);
        q += static_cast<u32>(nc);
      }
  }

  // Makes the level `cur` (its residues [lo, hi), residue(key)): every range's children summed
  // and sorted by key, range by range, calling shed() after each (the spill file's pages it
  // touched may go); the tables and buckets are released.
  template <class Residue, class Shed>
  void build(RankLevel& cur, u32 lo, u32 hi, Residue&& residue, Shed&& shed) {
    // A bucket's range: its entries replayed in order into a table (the same sums as the
    // table's), then written back over the bucket sorted by key, one entry a child.
    for (Range& r : ranges_)
      if (r.in_bucket) {
        settle(r);
        shed();
      }
    cur.build(
        lo, hi,
        [&](auto&& g) {
          for (const Range& r : ranges_) {
            if (r.in_bucket) {
              r.each_piece([&](const Entry* p, std::size_t m) {
                for (std::size_t i = 0; i < m; ++i) g(p[i].key.w[0]);
              });
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
              r.each_piece([&](const Entry* p, std::size_t m) {
                for (std::size_t i = 0; i < m; ++i) f(p[i].key.w[0], p[i].count(), p[i].prob);
              });
              shed();
              continue;
            }
            sort_table(r.table);
            r.table.release();
            for (const Entry& e : sorted_.vec()) f(e.key.w[0], e.count(), e.prob);
          }
        },
        residue);
    release();
  }

  // Drops the buckets' pages in the pool's spill file from the process's memory.
  void shed() const { buckets_.shed(); }
  void release() {
    ranges_.clear();
    sorted_.release();
    which_.release();
    stage_key_.release();
    stage_count_.release();
    stage_share_.release();
    buckets_.clear();
    bucket_.begin(buckets_, false);
  }
  // Ranges built from buckets and the bytes appended to them, since the rank began.
  u64 bucket_ranges() const { return bucket_ranges_; }
  u64 bucket_bytes() const { return bucket_bytes_; }

 private:
  // Positions a range aims at, from the level's estimate: its table fits a cache of 1 MiB or
  // so, as the compact engine's work items' do (compact_common.hpp, kItemPositions); fewer
  // under a low memory limit with a spill directory (begin()).
  static constexpr std::size_t kRangePositions = 16000;
  // Entries a bucket's piece holds (64 KiB): a range's bucket is read piece by piece.
  static constexpr std::size_t kPiece = 2048;

  struct Range {
    explicit Range(census_detail::Memory& m) : table(m) {}
    u32 lo = 0, hi = 0;
    Table table;
    bool in_bucket = false;
    std::vector<std::pair<Entry*, std::size_t>> pieces;  // the bucket, in order
    Count added = 0;  // the counts added: a bound on any child's (no table add checks it)
    template <class F>
    void each_piece(F&& f) const {
      for (const auto& [p, m] : pieces) f(p, m);
    }
  };

  census_detail::Memory& mem() const { return sorted_.memory(); }

  // Adds the batch (key, count, share)[0, nc) to range r: to its table while it fits, else to
  // its bucket.
  void add(Range& r, const u64* key, const Words* count, const double* share, std::size_t nc,
           std::size_t spare) {
    for (std::size_t q = 0; q < nc; ++q) census_detail::add_count(r.added, count[q].value());
    if (!r.in_bucket && spill_) {
      const std::size_t cap = r.table.capacity();
      std::size_t grown = cap;
      while ((r.table.size() + nc) * 5 > grown * 4) grown *= 2;
      // The grown table's keys and values, the old ones copied aside meanwhile.
      const std::size_t need = grown > cap ? (grown + cap) * kSlotBytes : 0;
      if (need && mem().used() + need + spare > mem().limit()) to_bucket(r);
    }
    if (!r.in_bucket) {
      r.table.add<BaselineTier>(key, nc, count, share);
      return;
    }
    for (std::size_t q = 0; q < nc; ++q) {
      Entry e;
      e.key.w[0] = key[q];
      e.lo = count[q].lo;
      e.hi = count[q].hi;
      e.prob = share[q];
      append(r, e);
    }
  }

  // Moves range r's table to its bucket (its sums so far, the bucket's first entries).
  void to_bucket(Range& r) {
    r.in_bucket = true;
    ++bucket_ranges_;
    const u64* k = r.table.keys();
    const Table::Value* v = r.table.values();
    for (std::size_t s = 0; s < r.table.capacity(); ++s)
      if (k[s]) {
        Entry e;
        e.key.w[0] = k[s];
        e.lo = v[s].count.lo;
        e.hi = v[s].count.hi;
        e.prob = v[s].chance;
        append(r, e);
      }
    r.table.release();
  }

  void append(Range& r, const Entry& e) {
    if (r.pieces.empty() || r.pieces.back().second == kPiece) {
      StoredKeys::taking_chunks([&] { r.pieces.emplace_back(bucket_.alloc<Entry>(kPiece), 0); });
    }
    auto& [p, m] = r.pieces.back();
    p[m++] = e;
    bucket_bytes_ += sizeof(Entry);
  }

  // Sums range r's bucket in a table, in the bucket's order, and writes its children back over
  // the bucket, sorted by key.
  void settle(Range& r) {
    std::size_t n = 0;
    for (const auto& piece : r.pieces) n += piece.second;
    if (n == 0) return;
    r.table.reset(std::min<std::size_t>(n, 4 * kRangePositions));
    r.each_piece([&](const Entry* p, std::size_t m) {
      for (std::size_t i = 0; i < m; i += census_detail::kBatch) {
        const std::size_t nc = std::min(m - i, census_detail::kBatch);
        for (std::size_t q = 0; q < nc; ++q) {
          key_[q] = p[i + q].key.w[0];
          count_[q] = Words{p[i + q].lo, p[i + q].hi};
          share_[q] = p[i + q].prob;
        }
        r.table.add<BaselineTier>(key_, nc, count_, share_);
      }
    });
    sort_table(r.table);
    r.table.release();
    std::size_t piece = 0;
    for (auto& [p, m] : r.pieces) m = 0;
    for (const Entry& e : sorted_.vec()) {
      if (r.pieces[piece].second == kPiece) ++piece;
      auto& [p, m] = r.pieces[piece];
      p[m++] = e;
    }
    r.pieces.resize(piece + 1);
    sorted_.clear();
  }

  // The table's children, sorted by key, in sorted_.
  void sort_table(const Table& t) {
    sorted_.clear();
    sorted_.reserve(t.size());
    const u64* k = t.keys();
    const Table::Value* v = t.values();
    for (std::size_t s = 0; s < t.capacity(); ++s)
      if (k[s]) {
        Entry e;
        e.key.w[0] = k[s];
        e.lo = v[s].count.lo;
        e.hi = v[s].count.hi;
        e.prob = v[s].chance;
        sorted_.vec().push_back(e);
      }
    std::sort(sorted_.vec().begin(), sorted_.vec().end(), census_detail::wide::by_key<64>);
  }

  u32 lo_ = 0, width_ = 1;
  bool spill_ = false;
  std::vector<Range> ranges_;
  census_detail::Store buckets_;  // every range's bucket pieces
  census_detail::Bump bucket_;
  census_detail::Booked<Entry> sorted_;  // a range's children, sorted by key
  // A round's children by range: each one's range, then their fields in range order.
  census_detail::Booked<u32> which_;
  census_detail::Booked<u64> stage_key_;
  census_detail::Booked<Words> stage_count_;
  census_detail::Booked<double> stage_share_;
  // A batch of a bucket's children for a table.
  alignas(64) u64 key_[census_detail::kBatch + 64];
  alignas(64) Words count_[census_detail::kBatch + 64];
  alignas(64) double share_[census_detail::kBatch + 64];
  u64 bucket_ranges_ = 0, bucket_bytes_ = 0;
};

}  // namespace
}  // namespace pegsol::mpi
