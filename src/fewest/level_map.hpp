// SPDX-License-Identifier: MIT
// A level of the fewest-moves search: its entries (a position and its state), the shards of
// hash tables it is made in, and their sorted form in memory or on disk.
//
// A table of its own shape, probing as every engine's does (core/probe.hpp) and hashing with the
// one mixer (core/hash.hpp): its entries are what the level files hold (16 bytes on 64-bit keys,
// the cost packed in the landing set's top bits; 48 on 128-bit ones), and a level lives in three
// forms (slots, a sorted array, a sorted run on disk) that the join and the path walk read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../core/hash.hpp"
#include "../core/probe.hpp"
#include "entry.hpp"
#include "keys.hpp"
#include "level_codec.hpp"
#include "level_file.hpp"
#include "mapped.hpp"
#include "spill.hpp"

namespace pegsol::fewest_detail {

// A hash table from positions to states, open addressing with linear probing, a fixed hash so
// runs repeat. Grows at 5/8 load; the owner's budget is checked before each growth.
template <int W>
class LevelMap {
 public:
  LevelMap() = default;

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.bytes() + sorted_.bytes(); }

  // The entry of `key` into `out`; false when the table does not hold it.
  bool find(Bits<W> key, Entry<W>& out) const {
    if (!sorted_.empty()) {
      const Entry<W>* it = std::lower_bound(sorted_.begin(), sorted_.end(), key,
                                            [](const Entry<W>& e, Bits<W> k) { return e.key < k; });
      if (it == sorted_.end() || it->key != key) return false;
      out = *it;
      return true;
    }
    if (file_) {  // the chunk by its first key, then a binary search of the chunk
      auto c = std::upper_bound(chunks_.begin(), chunks_.end(), key,
                                [](Bits<W> k, const DiskChunk<W>& x) { return k < x.first; });
      if (c == chunks_.begin()) return false;
      std::vector<Entry<W>> buf;
      read_chunk(static_cast<std::size_t>(c - chunks_.begin() - 1), buf);
      const auto it = std::lower_bound(buf.begin(), buf.end(), key,
                                       [](const Entry<W>& e, Bits<W> k) { return e.key < k; });
      if (it == buf.end() || it->key != key) return false;
      out = *it;
      return true;
    }
    if (slots_.empty()) return false;
    const Entry<W>& e = slots_[probe_slot(slots_.data(), mask_, mix(key), vacant<W>,
                                          [&](const Entry<W>& x) { return x.key == key; })];
    if (e.key.none()) return false;
    out = e;
    return true;
  }

  // Keeps the cheaper state; at equal cost the union of the landing sets.
  // `low` is the low 32 bits of mix(key): the hash's bits that pick a slot while the table has
  // at most 2^32 slots (past that, mix(key) again).
  template <class Grow>
  void merge_hashed(Bits<W> key, std::uint32_t low, std::uint32_t cost, Bits<W> land, Grow&& grow) {
    if ((size_ + 1) * 8 > slots_.size() * 5)  // grows at 5/8 load
      rehash(std::max<std::size_t>(64, slots_.size() * 2), grow);
    Entry<W>& e =
        slots_[probe_slot(slots_.data(), mask_, std::uint64_t{mask_} >> 32 ? mix(key) : low,
                          vacant<W>, [&](const Entry<W>& x) { return x.key == key; })];
    if (e.key.none()) {
      e = Entry<W>::make(key, cost, land);
      ++size_;
    } else if (cost < e.cost()) {
      e.set(cost, land);
    } else if (cost == e.cost()) {
      e.add_land(land);
    }
  }

  // Brings the first slot of the key whose mix(key) has these low 32 bits into cache before
  // merge_hashed() needs it.
  void prefetch(std::uint32_t low) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[low & mask_]);
  }

  // Room for `n` positions without growing.
  template <class Grow>
  void reserve(std::size_t n, Grow&& grow) {
    std::size_t want = 64;
    while (want * 5 < n * 8) want *= 2;
    if (want > slots_.size()) rehash(want, grow);
  }

  template <class F>
  void for_each(F&& f) const {
    for (const Entry<W>& e : slots_)
      if (e.key.any()) f(e);
    for (const Entry<W>& e : sorted_) f(e);
    if (file_) {
      std::vector<Entry<W>> buf;
      for (std::size_t b = 0; b < size_; b += kChunk)
        for_range(b, std::min(size_, b + kChunk), f, buf);
    }
  }
  static constexpr std::size_t kChunk = kCodecChunk;  // entries read from disk at once

  // Turns the table into a sorted array, full to the last slot: for a level that takes no more
  // positions (it is only looked up, walking a path back). A table in pages of its own is sorted
  // in place: the entries moved to its first slots, sorted there, and the pages past them given
  // back (until 2026-11-30 a new array, its pages zeroed by the system, took a copy: in this
  // VM a fresh page costs far more than the copy). Returns whether it changed.
  bool compact() {
    if (!sorted_.empty() || file_) return false;
    if (size_ == 0) {  // nothing to keep: the slots go
      slots_.reset();
      mask_ = 0;
      return true;
    }
    if (slots_.on_heap()) {  // small: a new array (the heap's room is reused anyway)
      sorted_ = MappedArray<Entry<W>>(size_);
      std::size_t k = 0;
      for (const Entry<W>& e : slots_)
        if (e.key.any()) sorted_[k++] = e;
      slots_.reset();
    } else {
      Entry<W>* e = slots_.data();
      std::size_t k = 0;
      for (std::size_t i = 0, n = slots_.size(); i < n; ++i)
        if (e[i].key.any()) e[k++] = e[i];
      slots_.shrink(size_);
      sorted_ = std::move(slots_);
    }
    std::sort(sorted_.begin(), sorted_.end(),
              [](const Entry<W>& a, const Entry<W>& b) { return a.key < b.key; });
    mask_ = 0;
    return true;
  }

  // The entries in the order they are stored, for walking a range of them: the slots (the
  // empty ones skipped), or the sorted array, or the file (read into `buf`).
  std::size_t capacity() const { return !slots_.empty() ? slots_.size() : size_; }
  template <class F>
  void for_range(std::size_t begin, std::size_t end, F&& f, std::vector<Entry<W>>& buf) const {
    if (!slots_.empty()) {
      for (std::size_t i = begin; i < end; ++i)
        if (slots_[i].key.any()) f(slots_[i]);
    } else if (!sorted_.empty()) {
      for (std::size_t i = begin; i < end; ++i) f(sorted_[i]);
    } else if (file_ && end > begin) {
      for (std::size_t c = begin / kChunk; c * kChunk < end; ++c) {
        read_chunk(c, buf);
        const std::size_t at = c * kChunk;
        for (std::size_t i = std::max(begin, at); i < std::min(end, at + buf.size()); ++i)
          f(buf[i - at]);
      }
    }
  }

  // Takes `count` entries in key order in `file` as the table's content: its chunks of kChunk
  // entries (the last may hold fewer), coded (level_codec.hpp) or, `raw`, as plain entries
  // (the level files before 2026-11-29).
  void adopt(const std::shared_ptr<SpillFile>& file, std::vector<DiskChunk<W>> chunks,
             std::size_t count, bool raw) {
    clear();
    if (count == 0) return;
    file_ = file;
    chunks_ = std::move(chunks);
    raw_ = raw;
    size_ = count;
  }
  // Whether the entries are on disk in `file`.
  bool in_file(const SpillFile* file) const { return file_ && file_.get() == file; }

  // Chunk `c`'s entries into `buf`; throws std::runtime_error naming the file when it cannot be
  // read or decoded.
  void read_chunk(std::size_t c, std::vector<Entry<W>>& buf) const {
    const DiskChunk<W>& d = chunks_[c];
    const std::size_t n = std::min(kChunk, size_ - c * kChunk);
    if (raw_) {
      buf.resize(n);
      file_->read(d.offset, buf.data(), n * sizeof(Entry<W>));
      return;
    }
    std::vector<std::uint8_t> bytes(d.bytes);
    file_->read(d.offset, bytes.data(), bytes.size());
    if (!Codec<W>::decode(bytes.data(), bytes.size(), buf) || buf.size() != n)
      throw std::runtime_error("fewest moves: " + file_->path() + " holds a damaged chunk at " +
                               std::to_string(d.offset));
  }

  // Whether the entries are in key order (sorted in memory or on disk).
  bool sorted() const { return slots_.empty(); }
  bool on_disk() const { return file_ != nullptr; }

  // Writes the sorted array to `file` as a block of shard `shard` (level_file.hpp) and frees
  // it (after compact(); nothing else changes).
  void spill(const std::shared_ptr<SpillFile>& file, std::size_t shard) {
    if (sorted_.empty()) return;
    BlockWriter<W> w(*file, shard);
    w.add(sorted_.data(), sorted_.size());
    w.finish();
    const std::size_t n = size_;
    sorted_.reset();
    adopt(file, w.take_chunks(), n, false);
  }

  void clear() {
    slots_.reset();
    sorted_.reset();
    file_.reset();
    chunks_.clear();
    raw_ = false;
    size_ = 0;
    mask_ = 0;
  }

 private:
  template <class Grow>
  void rehash(std::size_t n, Grow&& grow) {
    grow(n * sizeof(Entry<W>));
    MappedArray<Entry<W>> old = std::move(slots_);
    slots_ = MappedArray<Entry<W>>(n);  // zero-filled: every slot empty
    mask_ = n - 1;
    rehash_into(
        old.data(), old.size(), slots_.data(), mask_, vacant<W>,
        [](const Entry<W>& e) { return mix(e.key); }, [] {});
  }

  MappedArray<Entry<W>> slots_;
  MappedArray<Entry<W>> sorted_;  // after compact(): the entries by key, and no slots
  // After spill(): the entries by key at offset_ in the level's file, and nothing in memory.
  // After spill() or adopt(): the entries by key in chunks of the level's file, and nothing
  // in memory but where the chunks are.
  std::shared_ptr<SpillFile> file_;
  std::vector<DiskChunk<W>> chunks_;
  bool raw_ = false;
  std::size_t size_ = 0, mask_ = 0;
};

// A level: positions split into a fixed number of shards by the top bits of their hash, so that
// threads can fill the shards apart. The content does not depend on the thread count.
template <int W>
class Level {
 public:
  static constexpr int kShardBits = 4, kShards = 1 << kShardBits;
  Level() : shards_(kShards) {}

  static std::size_t shard_of(Bits<W> key) { return shard_of_hash(mix(key)); }
  // The shard of a key whose mix(key) is `hash`.
  static std::size_t shard_of_hash(std::uint64_t hash) {
    return static_cast<std::size_t>(hash >> (64 - kShardBits));
  }
  LevelMap<W>& shard(std::size_t i) { return shards_[i]; }
  const LevelMap<W>& shard(std::size_t i) const { return shards_[i]; }
  std::size_t size() const {
    std::size_t n = 0;
    for (const LevelMap<W>& m : shards_) n += m.size();
    return n;
  }
  std::size_t bytes() const {
    std::size_t n = 0;
    for (const LevelMap<W>& m : shards_) n += m.bytes();
    return n;
  }
  bool find(Bits<W> key, Entry<W>& out) const { return shards_[shard_of(key)].find(key, out); }
  // Writes every sorted shard held in memory to the level's spill file (made in `dir` when
  // first needed) and frees it, until stop() says to stop. Returns the bytes freed.
  template <class Stop>
  std::size_t spill(const std::string& dir, SpillLedger& ledger, Stop&& stop) {
    std::size_t freed = 0;
    for (LevelMap<W>& m : shards_) {
      if (!m.sorted() || m.on_disk() || m.size() == 0) continue;
      if (stop()) break;
      if (!file_) file_ = std::make_shared<SpillFile>(dir, ledger);
      const std::size_t before = m.bytes();
      m.spill(file_, static_cast<std::size_t>(&m - shards_.data()));
      freed += before - m.bytes();
    }
    return freed;
  }
  template <class F>
  void for_each(F&& f) const {
    for (const LevelMap<W>& m : shards_) m.for_each(f);
  }
  void clear() {
    for (LevelMap<W>& m : shards_) m.clear();
    file_.reset();
  }
  // The level's file (null: none yet); set_file() gives it one before it is spilled (a level
  // made into a file of the checkpoint directory).
  const std::shared_ptr<SpillFile>& file() const { return file_; }
  void set_file(std::shared_ptr<SpillFile> f) { file_ = std::move(f); }

 private:
  std::vector<LevelMap<W>> shards_;
  std::shared_ptr<SpillFile> file_;  // the shards written to disk (spill())
};

// Walks a sorted table's entries in key order (in memory or on disk), a chunk at a time.
template <int W>
class SortedReader {
 public:
  explicit SortedReader(const LevelMap<W>& m) : m_(m) { load(); }
  const Entry<W>* peek() const { return i_ < buf_.size() ? &buf_[i_] : nullptr; }
  void next() {
    if (++i_ == buf_.size()) load();
  }

 private:
  void load() {
    buf_.clear();
    i_ = 0;
    if (pos_ >= m_.size()) return;
    const std::size_t end = std::min(m_.size(), pos_ + LevelMap<W>::kChunk);
    m_.for_range(
        pos_, end, [&](const Entry<W>& e) { buf_.push_back(e); }, read_);
    pos_ = end;
  }
  const LevelMap<W>& m_;
  std::vector<Entry<W>> buf_, read_;
  std::size_t pos_ = 0, i_ = 0;
};

}  // namespace pegsol::fewest_detail
