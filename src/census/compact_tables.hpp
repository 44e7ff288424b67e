// SPDX-License-Identifier: MIT
// The compact census engine's hash tables (compiled per CPU tier: compact_common.hpp): bucket
// probes, the key set of the solution-path passes, the work item's table of keys and values.
// Their home buckets come from core/hash.hpp's golden_hash; they do not probe with
// core/probe.hpp: a probe here compares a whole 64-byte line of eight keys at once (one vector
// compare), which a slot-by-slot probe would undo.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "../core/hash.hpp"
#include "compact_common.hpp"
#include "compact_memory.hpp"
#include "memory.hpp"
#include "simd_x86.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pegsol::census_detail {
namespace {

// The lanes of the eight keys at b (32-byte aligned) equal to k, as bits.
template <class Tier>
inline unsigned equal8(const u64* b, u64 k) {
#if defined(__x86_64__)
  if constexpr (Tier::avx2) {
    const __m256i kk = _mm256_set1_epi64x(static_cast<long long>(k));
    const __m256i lo =
        _mm256_cmpeq_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(b)), kk);
    const __m256i hi =
        _mm256_cmpeq_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(b + 4)), kk);
    return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(lo)) |
                                 _mm256_movemask_pd(_mm256_castsi256_pd(hi)) << 4);
  }
#elif defined(__wasm_simd128__)
  {
    const v128_t kk = wasm_i64x2_splat(static_cast<std::int64_t>(k));
    unsigned m = 0;
    for (unsigned e = 0; e < 8; e += 2)
      m |= static_cast<unsigned>(wasm_i64x2_bitmask(wasm_i64x2_eq(wasm_v128_load(b + e), kk))) << e;
    return m;
  }
#endif
  unsigned m = 0;
  for (unsigned e = 0; e < 8; ++e) m |= static_cast<unsigned>(b[e] == k) << e;
  return m;
}

// The lanes of the eight-key bucket at b (64-byte aligned) holding k, and those empty (0).
template <class Tier>
std::pair<unsigned, unsigned> bucket_masks(const u64* b, u64 k) {
#if defined(__x86_64__)
  if constexpr (Tier::avx512) {
    const __m512i v = _mm512_load_si512(b);
    return {_mm512_cmpeq_epu64_mask(v, _mm512_set1_epi64(static_cast<long long>(k))),
            _mm512_testn_epi64_mask(v, v)};
  }
#endif
  return {equal8<Tier>(b, k), equal8<Tier>(b, 0)};
}

// An open set of keys (0 = empty) in buckets of eight: the solution-path passes' membership
// tests. contains() answers without a branch on the answer (about half the lookups of the
// complement trick hit).
class KeySet {
 public:
  // Empties the set, sized for about n keys (it grows past them).
  void reset(std::size_t n) {
    std::size_t cap = 64;
    while (cap < 2 * n) cap *= 2;
    place(cap);
  }
  // Adds k, which is not in the set, without growing past the size given to reset().
  void insert_new(u64 k) {
    for (std::size_t i = home(k);; i = (i + 8) & (cap_ - 1))
      for (std::size_t e = 0; e < 8; ++e)
        if (keys_[i + e] == 0) {
          keys_[i + e] = k;
          ++n_;
          return;
        }
  }
  // Adds k (if new).
  void insert(u64 k) {
    if (2 * (n_ + 1) > cap_) grow();
    for (std::size_t i = home(k);; i = (i + 8) & (cap_ - 1))
      for (std::size_t e = 0; e < 8; ++e) {
        if (keys_[i + e] == k) return;
        if (keys_[i + e] == 0) {
          keys_[i + e] = k;
          ++n_;
          return;
        }
      }
  }
  template <class Tier>
  bool contains(u64 k) const {
    for (std::size_t i = home(k);; i = (i + 8) & (cap_ - 1)) {
      const auto [found, free] = bucket_masks<Tier>(keys_ + i, k);
      if (found | free) return found != 0;
    }
  }

 private:
  void place(std::size_t cap) {
    if (store_.size() < cap + 8) store_.assign(cap + 8, 0);
    keys_ = store_.data() + (8 - (reinterpret_cast<std::uintptr_t>(store_.data()) / 8) % 8) % 8;
    cap_ = cap;
    n_ = 0;
    std::fill(keys_, keys_ + cap, 0);
  }
  void grow() {
    std::vector<u64> old(keys_, keys_ + cap_);
    place(2 * cap_);
    for (u64 k : old)
      if (k) insert(k);
  }
  std::size_t home(u64 k) const {
    return static_cast<std::size_t>(golden_hash(k, 40)) & (cap_ - 8);
  }
  std::vector<u64> store_;
  u64* keys_ = nullptr;
  std::size_t cap_ = 0, n_ = 0;
};

// What a table slot holds beside its key: the path count, and with kChance the chance (a table
// of keys alone holds no values).
template <class C, Carry kCounts>
struct SlotValue {
  C count;
  double chance;
};
template <class C>
struct SlotValue<C, kPaths> {
  C count;
};

// The worker's hash table for one work item: keys in buckets of eight (one 64-byte line), and
// when counting a value {count, chance} or {count} per slot in a parallel array:
//
//   keys:   | k0 k1 k2 k3 k4 k5 k6 k7 |  ...              (0 = empty slot)
//   values: | c0 p0 | c1 p1 | ... | c7 p7 |  ...           (8, 16 or 32 bytes a slot)
//
// Open addressing by bucket: a key lives in its home bucket or, when that is full, the next
// buckets. The table is never more than 80% full, so nearly every insert touches one key line
// and one value line. Tried and lost: one line holding 2 or 3 keys with their values (more
// probing), a branch-free insert (see the file comment).
template <class C, Carry kCounts>
class Table {
 public:
  using Value = SlotValue<C, kCounts>;

  explicit Table(Memory& m) : key_store_(m), value_store_(m) {}
  // A table whose keys and values are blocks of `b` (in memory, never spilled), not booked
  // vectors: for tables made anew level after level.
  Table(Memory& m, Blocks& b) : key_store_(m), value_store_(m), blocks_(&b) {}

  // Empties the table, sized for about `expect` keys.
  void reset(std::size_t expect) {
    std::size_t cap = 64;
    while (cap * 3 < expect * 4) cap *= 2;
    if (blocks_ && key_block_.size() != cap * sizeof(u64)) {
      key_block_.reset();
      value_block_.reset();
    }
    place(cap);
  }
  std::size_t size() const { return n_; }
  std::size_t capacity() const { return cap_; }
  const u64* keys() const { return keys_; }
  // Gives the storage back (reset() before the next add).
  void release() {
    key_store_.release();
    value_store_.release();
    key_block_.reset();
    value_block_.reset();
    keys_ = nullptr;
    values_ = nullptr;
    cap_ = n_ = 0;
    bits_ = 0;
  }
  const Value* values() const { return values_; }

  // Whether key k is in the table.
  template <class Tier>
  bool contains(u64 k) const {
    for (std::size_t i = home(k, 64 - bits_);; i = (i + 8) & (cap_ - 1)) {
      const auto [found, free] = bucket_masks<Tier>(keys_ + i, k);
      if (found | free) return found != 0;
    }
  }

  // Adds child ck[q] with the count and share of parent cp[q], for q < nc.
  template <class Tier>
  void add(const u64* ck, std::size_t nc, const C* pcount, const double* pshare) {
    while ((n_ + nc) * 5 > cap_ * 4) grow();
    u64* __restrict K = keys_;
    Value* __restrict V = values_;
    const std::size_t mask = cap_ - 1;
    const int sh = 64 - bits_;
    // The home buckets first (eight at a time where the vectors allow), so that the inserts'
    // chains of dependent instructions start from a load.
    u32* home_of = slot_.data();
    std::size_t q0 = 0;
#if defined(__x86_64__)
    if constexpr (Tier::avx512) {
      const __m512i mul = _mm512_set1_epi64(static_cast<long long>(kGolden));
      const __m512i low = _mm512_set1_epi64(~7ll);
      for (; q0 + 8 <= nc; q0 += 8) {
        const __m512i h = _mm512_and_si512(
            vsrli(_mm512_mullo_epi64(_mm512_loadu_si512(ck + q0), mul), static_cast<unsigned>(sh)),
            low);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(home_of + q0),
                            _mm512_mask_cvtepi64_epi32(_mm256_setzero_si256(), 0xFF, h));
      }
    }
#endif
    for (std::size_t q = q0; q < nc; ++q) home_of[q] = static_cast<u32>(home(ck[q], sh));
    std::size_t added = 0;
    // One insert: found-first (nearly all children of a level's middle are found again), the
    // free slots looked for only when the bucket lacks the key.
    auto insert = [&](std::size_t q) __attribute__((always_inline)) {
      const u64 k = ck[q];
      std::size_t i = home_of[q];
      for (;;) {
        // (AVX-512: the empty lanes come from the same load, wanted only when k is not found.)
        unsigned found, free = 0;
#if defined(__x86_64__)
        if constexpr (Tier::avx512) {
          const __m512i v = _mm512_load_si512(K + i);
          found = _mm512_cmpeq_epu64_mask(v, _mm512_set1_epi64(static_cast<long long>(k)));
          free = _mm512_testn_epi64_mask(v, v);
        } else
#endif
        {
          found = equal8<Tier>(K + i, k);
        }
        if (__builtin_expect(found != 0, 1)) {
          const std::size_t slot = i + static_cast<std::size_t>(std::countr_zero(found));
          if constexpr (kCounts != kKeys) V[slot].count += pcount[q];
          if constexpr (kCounts == kChance) V[slot].chance += pshare[q];
          return;
        }
        if constexpr (!Tier::avx512) free = equal8<Tier>(K + i, 0);
        if (free) {
          const std::size_t slot = i + static_cast<std::size_t>(std::countr_zero(free));
          K[slot] = k;
          if constexpr (kCounts == kChance)
            V[slot] = Value{pcount[q], pshare[q]};
          else if constexpr (kCounts != kKeys)
            V[slot] = Value{pcount[q]};
          ++added;
          return;
        }
        i = (i + 8) & mask;
      }
    };
    // The lines of the insert 16 ahead are fetched meanwhile (every value line of the bucket:
    // the slot is not known yet).
    constexpr std::size_t kAhead = 16;
    std::size_t q = 0;
    for (; q + kAhead < nc; ++q) {
      const std::size_t h = home_of[q + kAhead];
      __builtin_prefetch(K + h, 1);
      if constexpr (kCounts != kKeys) __builtin_prefetch(V + h, 1);
      if constexpr (kCounts != kKeys && sizeof(Value) > 8) __builtin_prefetch(V + h + 4, 1);
      if constexpr (kCounts != kKeys && sizeof(Value) > 16) {  // 32-byte values: four lines
        __builtin_prefetch(V + h + 2, 1);
        __builtin_prefetch(V + h + 6, 1);
      }
      insert(q);
    }
    for (; q < nc; ++q) insert(q);
    n_ += added;
  }

 private:
  static std::size_t home(u64 k, int sh) {
    return static_cast<std::size_t>(golden_hash(k, sh)) & ~std::size_t{7};
  }
  // Fresh empty storage of `cap` slots (a power of two, at least 64).
  void place(std::size_t cap) {
    if (blocks_) {
      // Keys and values in blocks of their own: sizes of a power of two (but 24-byte values),
      // which fill the pool's chunks (in one block of 24 bytes a slot, two tables of 32,768
      // slots filled three quarters of a chunk: docs/mpi.md).
      if (!key_block_.data()) {
        key_block_ = Blocks::Block(*blocks_, cap * sizeof(u64));
        if constexpr (kCounts != kKeys) value_block_ = Blocks::Block(*blocks_, cap * sizeof(Value));
      }
      keys_ = reinterpret_cast<u64*>(key_block_.data());
      std::memset(keys_, 0, cap * sizeof(u64));
      if constexpr (kCounts != kKeys) values_ = reinterpret_cast<Value*>(value_block_.data());
      cap_ = cap;
      bits_ = std::countr_zero(cap);
      n_ = 0;
      return;
    }
    if (key_store_.vec().capacity() < cap + 8) {
      key_store_.release();
      key_store_.reserve(cap + 8);
      if constexpr (kCounts != kKeys) {
        value_store_.release();
        value_store_.reserve(cap + kValueSlack);
      }
    }
    key_store_.vec().assign(cap + 8, 0);
    u64* base = key_store_.vec().data();
    keys_ = base + (8 - (reinterpret_cast<std::uintptr_t>(base) / 8) % 8) % 8;
    if constexpr (kCounts != kKeys) {
      // Aligned, so that a bucket's values fill whole lines; not cleared: a slot's value is
      // written when its key is (clearing cost a fiftieth of the English census).
      if (value_store_.vec().size() < cap + kValueSlack)
        value_store_.vec().resize(cap + kValueSlack);
      Value* v = value_store_.vec().data();
      values_ = v + (64 - reinterpret_cast<std::uintptr_t>(v) % 64) % 64 / sizeof(Value);
    }
    cap_ = cap;
    bits_ = std::countr_zero(cap);
    n_ = 0;
  }
  void grow() {
    if (blocks_) {
      // The old blocks stay until their entries are placed in the new ones.
      const Blocks::Block old_key_block = std::move(key_block_);
      const Blocks::Block old_value_block = std::move(value_block_);
      const std::size_t cap = cap_;
      const u64* old_keys = keys_;
      const Value* old_values = values_;
      place(cap * 2);
      rehash(old_keys, old_values, cap);
      return;
    }
    std::vector<u64> old_keys(keys_, keys_ + cap_);
    std::vector<Value> old_values;
    if constexpr (kCounts != kKeys) old_values.assign(values_, values_ + cap_);
    place(cap_ * 2);
    rehash(old_keys.data(), old_values.data(), old_keys.size());
  }
  // Places the entries of the old storage's `cap` slots into the (larger) table.
  void rehash(const u64* old_keys, const Value* old_values, std::size_t cap) {
    const int sh = 64 - bits_;
    for (std::size_t s = 0; s < cap; ++s) {
      if (!old_keys[s]) continue;
      std::size_t i = home(old_keys[s], sh);
      while (true) {
        std::size_t e = 0;
        while (e < 8 && keys_[i + e]) ++e;
        if (e < 8) {
          keys_[i + e] = old_keys[s];
          if constexpr (kCounts != kKeys) values_[i + e] = old_values[s];
          ++n_;
          break;
        }
        i = (i + 8) & (cap_ - 1);
      }
    }
  }

  static constexpr std::size_t kValueSlack = 64 / sizeof(Value);  // room to align to a line
  Booked<u64> key_store_;
  Booked<Value> value_store_;
  Blocks* blocks_ = nullptr;  // or the storage is two blocks of these
  Blocks::Block key_block_, value_block_;
  std::array<u32, kBatch + 64> slot_{};  // add()'s home buckets
  u64* keys_ = nullptr;
  Value* values_ = nullptr;
  std::size_t cap_ = 0, n_ = 0;
  int bits_ = 0;
};

}  // namespace
}  // namespace pegsol::census_detail
