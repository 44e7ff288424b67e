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
#include "keys.hpp"
#include "mapped.hpp"
#include "spill.hpp"

namespace pegsol::fewest_detail {

// One stored position. key: the pegs (bit h = hole h, canonical under the search's group; 0 marks
// an empty slot, never a position with pegs). land(): the state's L in the key's frame; cost():
// its moves. Packed (kPacked: boards of at most kHoles = W - 6 holes, costs below 64), 16 bytes
// on 64-bit keys:
//   | key (W) | cost (6) | land (W - 6) |
// otherwise 48 bytes on 128-bit keys:
//   | key (W) | land (W) | cost (32) | pad |
// (Before 2026-11-27 the 64-bit keys' entries had the second layout too, 24 bytes.)
template <int W>
struct PackedEntry {
  static_assert(W == 64, "the cost packs into the top bits of one word");
  static constexpr int kLandBits = W - 6;
  static constexpr std::uint64_t kLandMask = (std::uint64_t{1} << kLandBits) - 1;
  Bits<W> key;
  std::uint64_t state = 0;  // cost << kLandBits | land
  Bits<W> land() const {
    Bits<W> l;
    l.w[0] = state & kLandMask;
    return l;
  }
  std::uint32_t cost() const { return static_cast<std::uint32_t>(state >> kLandBits); }
  void set(std::uint32_t cost, const Bits<W>& land) {
    state = std::uint64_t{cost} << kLandBits | land.w[0];
  }
  void add_land(const Bits<W>& land) { state |= land.w[0]; }
  static PackedEntry<W> make(const Bits<W>& key, std::uint32_t cost, const Bits<W>& land) {
    PackedEntry<W> e;
    e.key = key;
    e.set(cost, land);
    return e;
  }
};
// Aligned to 16 bytes as the unsigned __int128 keys before it were: 48 bytes on 128-bit keys, the
// size the level files and the memory budget count.
template <int W>
struct alignas(16) WideEntry {
  Bits<W> key;
  Bits<W> land_;
  std::uint32_t cost_ = 0;
  Bits<W> land() const { return land_; }
  std::uint32_t cost() const { return cost_; }
  void set(std::uint32_t cost, const Bits<W>& land) {
    cost_ = cost;
    land_ = land;
  }
  void add_land(const Bits<W>& land) { land_ |= land; }
  static WideEntry<W> make(const Bits<W>& key, std::uint32_t cost, const Bits<W>& land) {
    return {key, land, cost};
  }
};
template <int W>
using Entry = std::conditional_t<kPacked<W>, PackedEntry<W>, WideEntry<W>>;
static_assert(sizeof(Entry<64>) == 16 && sizeof(Entry<128>) == 48);

// The fixed hash of a position (core/hash.hpp's mixer): its low bits pick a slot, its top bits a
// shard. Neither the answer nor the solution found depends on it: a level's content is a set,
// and every choice among its entries (the meeting, a path's step, a beam's cut) goes by key.
// (Before 2026-11-27 it had a mixer of its own; the level files of a checkpoint say which.)
template <int W>
inline std::uint64_t mix(Bits<W> key) {
  return mix64(key.fold());
}

// An empty slot of a LevelMap.
template <int W>
inline bool vacant(const Entry<W>& e) {
  return e.key.none();
}

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
    if (file_) {  // a binary search of the file, one read a probe
      std::size_t lo = 0, hi = size_;
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        Entry<W> e;
        file_->read(offset_ + mid * sizeof(Entry<W>), &e, sizeof(Entry<W>));
        if (e.key == key) {
          out = e;
          return true;
        }
        if (e.key < key)
          lo = mid + 1;
        else
          hi = mid;
      }
      return false;
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
  static constexpr std::size_t kChunk = std::size_t{1} << 14;  // entries read from disk at once

  // Turns the table into a sorted array, full to the last slot: for a level that takes no more
  // positions (it is only looked up, walking a path back). `grow` is told of the array first.
  template <class Grow>
  bool compact(Grow&& grow) {
    if (!sorted_.empty() || file_) return false;
    if (size_ == 0) {  // nothing to keep: the slots go
      slots_.reset();
      mask_ = 0;
      return true;
    }
    grow(size_ * sizeof(Entry<W>));
    sorted_ = MappedArray<Entry<W>>(size_);
    std::size_t k = 0;
    for (const Entry<W>& e : slots_)
      if (e.key.any()) sorted_[k++] = e;
    std::sort(sorted_.begin(), sorted_.end(),
              [](const Entry<W>& a, const Entry<W>& b) { return a.key < b.key; });
    slots_.reset();
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
      buf.resize(end - begin);
      file_->read(offset_ + begin * sizeof(Entry<W>), buf.data(), buf.size() * sizeof(Entry<W>));
      for (const Entry<W>& e : buf) f(e);
    }
  }

  // Takes `count` entries in key order at `offset` of `file` as the table's content.
  void adopt(const std::shared_ptr<SpillFile>& file, std::uint64_t offset, std::size_t count) {
    clear();
    if (count == 0) return;
    file_ = file;
    offset_ = offset;
    size_ = count;
  }

  // Whether the entries are in key order (sorted in memory or on disk).
  bool sorted() const { return slots_.empty(); }
  bool on_disk() const { return file_ != nullptr; }

  // Writes the sorted array to `file` and frees it (after compact(); nothing else changes).
  void spill(const std::shared_ptr<SpillFile>& file) {
    if (sorted_.empty()) return;
    offset_ = file->append(sorted_.data(), sorted_.bytes());
    file_ = file;
    sorted_.reset();
  }

  void clear() {
    slots_.reset();
    sorted_.reset();
    file_.reset();
    offset_ = 0;
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
  std::shared_ptr<SpillFile> file_;
  std::uint64_t offset_ = 0;
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
      m.spill(file_);
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
  // The level's spill file, made in `dir` when it has none.
  const std::shared_ptr<SpillFile>& file(const std::string& dir, SpillLedger& ledger) {
    if (!file_) file_ = std::make_shared<SpillFile>(dir, ledger);
    return file_;
  }

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
