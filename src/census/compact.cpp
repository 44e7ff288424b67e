// The compact census engine: boards whose layout fits in 64 bits, path counts in 64 bits.
//
// A position is keyed densely (bit h = hole h, n = holes bits), in canonical form (the least key
// over the census group), and stored through a bijection h = mix(key) on n bits:
//
//      h = | shard (S bits) |        low (L = n - S bits)        |
//
// the top S bits choose the shard (2^S shards; a well-mixed h spreads the canonical forms, which
// a plain prefix would not: least images crowd the low keys) and only `low` is stored, in 4 bytes
// when L <= 31 (every board of up to 45 holes, the larger with more shards). The key comes back
// as unmix(shard << L | low) when its level is expanded. Symmetry images are computed straight
// into dense keys (byte tables), and a child's images are its parent's XOR the jump's images.
//
// A level under construction is one open-addressing table per shard. Building level k-1 runs in
// chunks of level-k parents (see engine.hpp): phase A expands a worker's slice of the chunk into
// per-shard buffers of (low, parent index) pairs, 8 bytes each, which stay in cache; phase B has
// each shard's owner insert its buffers, prefetching slots a few entries ahead. Shards of level k
// are released as the chunks pass them, so a level and the next are seldom both whole in memory.
//
// Counts are 128-bit: the low word sits in the slot, the high word, needed by few positions (the
// English board's orbits pass 2^64 only a few jumps from the end), in a side table. Tried and lost:
// one table per level instead of per shard (every insert a cache miss, 2x slower), 24-byte buffer
// entries carrying the count (phase A then writes three times as much).
#include <algorithm>
#include <array>
#include <cstring>
#ifdef __AVX2__
#include <immintrin.h>
#endif
#include <type_traits>
#include <unordered_map>

#include "engine.hpp"
#include "paths.hpp"
#include "pegsol/census.hpp"

namespace pegsol::census_detail {
namespace {

// A bijection on n-bit keys that spreads them: odd multiply, xorshift, odd multiply, every step
// invertible modulo 2^n. The top bits (the shard) depend on every key bit, and so do the low bits
// (the slot) through the xorshift. Two more xorshifts were tried: no better spread, 8% slower.
class KeyMix {
 public:
  explicit KeyMix(int n)
      : n_(n), r_(std::max(1, (n + 1) / 2)), mask_(n >= 64 ? ~0ull : (1ull << n) - 1) {
    inv1_ = inverse(kC1);
    inv2_ = inverse(kC2);
  }
  std::uint64_t mix(std::uint64_t x) const {
    x = (x * kC1) & mask_;
    x ^= x >> r_;
    return (x * kC2) & mask_;
  }
  std::uint64_t unmix(std::uint64_t h) const {
    h = (h * inv2_) & mask_;
    h = unshift(h);
    return (h * inv1_) & mask_;
  }

 private:
  static constexpr std::uint64_t kC1 = 0xff51afd7ed558ccdull, kC2 = 0xc4ceb9fe1a85ec53ull;
  // a^-1 mod 2^64 by Newton's iteration (3 correct bits to start, doubling each step).
  static std::uint64_t inverse(std::uint64_t a) {
    std::uint64_t x = a;
    for (int i = 0; i < 5; ++i) x *= 2 - a * x;
    return x;
  }
  // Undoes y = x ^ (x >> r): each round fixes r more bits from the top.
  std::uint64_t unshift(std::uint64_t y) const {
    std::uint64_t x = y;
    for (int i = r_; i < n_; i += r_) x = y ^ (x >> r_);
    return x;
  }
  int n_, r_;
  std::uint64_t mask_, inv1_ = 0, inv2_ = 0;
};

inline Bits<64> word(std::uint64_t x) {
  Bits<64> b;
  b.w[0] = x;
  return b;
}

// Sorts v, which is nearly sorted: insertion sort, or std::sort once that has moved keys more
// than a few places on average.
template <class V>
void sort_nearly_sorted(V& v) {
  std::size_t budget = 8 * v.size() + 64;
  for (std::size_t i = 1; i < v.size(); ++i) {
    auto x = v[i];
    std::size_t j = i;
    for (; j > 0 && x < v[j - 1]; --j) v[j] = v[j - 1];
    v[j] = x;
    if ((budget -= std::min(budget, i - j)) == 0) {
      std::sort(v.begin(), v.end());
      return;
    }
  }
}

template <class K>
inline constexpr K kEmpty = static_cast<K>(~K{0});

// One shard of a finished level: keys (sorted once the level is expanded, for the backward
// pass), and while it waits to be expanded, counts and chances in the same order.
template <class K>
struct Shard {
  explicit Shard(Memory& m) : keys(m), counts(m), probs(m) {}
  Booked<K> keys;
  Booked<std::uint64_t> counts;
  Booked<double> probs;
  std::unordered_map<K, std::uint64_t> high;  // counts' words above 2^64, by key (rare)
  // The full count of entry i.
  Count count(std::size_t i) const {
    Count c = counts[i];
    if (!high.empty()) {
      auto it = high.find(keys[i]);
      if (it != high.end()) c |= static_cast<Count>(it->second) << 64;
    }
    return c;
  }
};

template <class K, bool kCounts>
class Engine {
 public:
  using Pos = Bits<64>;
  // A phase-A buffer entry: the child's low key and (when counting) its parent's chunk index.
  struct Ref {
    K low;
    std::uint32_t parent;
  };
  using BufEntry = std::conditional_t<kCounts, Ref, K>;

  // Open addressing with linear probing over one shard. The low keys are already mixed and
  // uniform on L bits, so slot = key * capacity >> L spreads them over any capacity (no power of
  // two, so a table is sized to its level: at most 85% full, usually 70-80%). Keys and values
  // live apart: the probes walk 4-byte keys, sixteen to a cache line, and each insert then
  // touches one value. (24-byte slots holding key and value were 20% slower and 1.5x larger.)
  class Table {
   public:
    struct Value {
      std::uint64_t count;  // low word; the high word, when nonzero, is in high_
      double prob;
    };
    Table(Memory& m, int low_bits) : keys_(m), vals_(m), shift_(low_bits) {}
    // Makes room for about n entries.
    void expect(std::size_t n) {
      if (n * 4 > cap_ * 3) rehash(n * 4 / 3 + 16);
    }
    void prefetch(K key) const {
      if (!cap_) return;
      std::size_t i = home(key);
      __builtin_prefetch(&keys_[i], 1);
      if constexpr (kCounts) __builtin_prefetch(&vals_[i], 1);
    }
    // Adds key with (count, prob), summing into an existing entry.
    void add(K key, Count count, double prob) {
      if ((size_ + 1) * 20 > cap_ * 17) rehash(cap_ + cap_ / 2 + 16);
      std::size_t i = home(key);
      while (keys_[i] != key) {
        if (keys_[i] == kEmpty<K>) {
          keys_[i] = key;
          ++size_;
          if constexpr (kCounts) vals_[i] = Value{0, 0.0};
          break;
        }
        if (++i == cap_) i = 0;
      }
      if constexpr (kCounts) {
        Value& v = vals_[i];
        v.prob += prob;
        std::uint64_t carry =
            __builtin_add_overflow(v.count, static_cast<std::uint64_t>(count), &v.count) ? 1 : 0;
        std::uint64_t hi = static_cast<std::uint64_t>(count >> 64);
        if (hi | carry) add_high(key, hi, carry);
      }
    }
    std::size_t size() const { return size_; }
    // Moves the entries into `out` (keys, and counts and chances when counting); releases the
    // table.
    // The keys come out nearly sorted: a slot's home is monotone in its key, so only keys of one
    // cluster can be out of order, once the scan starts after an empty slot (no cluster wraps).
    void take(Shard<K>& out) {
      out.keys.reserve(size_);
      if constexpr (kCounts) {
        out.counts.reserve(size_);
        out.probs.reserve(size_);
      }
      std::size_t first = 0;
      while (first < cap_ && keys_[first] != kEmpty<K>) ++first;
      for (std::size_t n = 0, i = first; n < cap_; ++n, i = i + 1 == cap_ ? 0 : i + 1)
        if (keys_[i] != kEmpty<K>) {
          out.keys.push_back(keys_[i]);
          if constexpr (kCounts) {
            out.counts.push_back(vals_[i].count);
            out.probs.push_back(vals_[i].prob);
          }
        }
      out.high = std::move(high_);
      high_.clear();
      keys_.release();
      vals_.release();
      cap_ = size_ = 0;
    }

   private:
    void add_high(K key, std::uint64_t hi, std::uint64_t carry) {
      std::uint64_t& h = high_[key];
      if (__builtin_add_overflow(h, hi, &h) || __builtin_add_overflow(h, carry, &h))
        throw CensusError("a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
    }
    std::size_t home(K key) const {
      if constexpr (sizeof(K) == 4)  // key < 2^31 and cap < 2^32: the product fits 64 bits
        return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * cap_) >> shift_);
      else
        return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * cap_) >> shift_);
    }
    void rehash(std::size_t ncap) {
      Booked<K> ok = std::move(keys_);
      Booked<Value> ov = std::move(vals_);
      const std::size_t ocap = cap_;
      keys_.assign(ncap, kEmpty<K>);
      if constexpr (kCounts) vals_.assign(ncap, Value{0, 0.0});
      cap_ = ncap;
      for (std::size_t j = 0; j < ocap; ++j)
        if (ok[j] != kEmpty<K>) {
          std::size_t i = home(ok[j]);
          while (keys_[i] != kEmpty<K>)
            if (++i == cap_) i = 0;
          keys_[i] = ok[j];
          if constexpr (kCounts) vals_[i] = ov[j];
        }
    }
    Booked<K> keys_;
    Booked<Value> vals_;
    int shift_;
    std::size_t cap_ = 0, size_ = 0;
    std::unordered_map<K, std::uint64_t> high_;  // counts' words above 2^64 (rare: low levels)
  };
  using Level = std::vector<Shard<K>>;

  Engine(const Problem& p, const CensusOptions& o, int bits)
      : p_(p),
        o_(o),
        b_(*p.board),
        g_(*p.board),
        mem_(o.memory_limit ? o.memory_limit : default_memory_limit()),
        mix_(bits) {
    workers_ = o.threads > 0 ? o.threads
                             : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    shard_bits_ = std::min(bits, 6);
    if (bits - shard_bits_ > 31 && bits - 31 <= 14) shard_bits_ = bits - 31;
    low_bits_ = bits - shard_bits_;
    shards_ = std::size_t{1} << shard_bits_;
    low_mask_ = low_bits_ >= 64 ? ~0ull : (1ull << low_bits_) - 1;
    for (int s = 0; s < g_.symmetry_count(); ++s)
      if (s == 0 || (o.symmetry && fixes_problem(*p.board, p, s))) syms_.push_back(s);
    start_ = g_.to_bits(p.start);
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(b_.bit(p.goal.hole));
    // Layout bits -> dense keys (bit h = hole h): per symmetry and layout byte, the dense image
    // of every byte value; and dense bytes -> layout bits for the way back.
    const int n = b_.size();
    bytes_ = (b_.span() + 7) / 8;
    dense_bytes_ = (n + 7) / 8;
    auto dense = [&](const Pos& x) {
      std::uint64_t d = 0;
      for_each_bit(x, [&](int bit) { d |= std::uint64_t{1} << b_.hole_at_bit(bit); });
      return d;
    };
    byte_image_.assign(syms_.size() * static_cast<std::size_t>(bytes_) * 256, 0);
    for (std::size_t q = 0; q < syms_.size(); ++q)
      for (int i = 0; i < bytes_; ++i)
        for (int v = 0; v < 256; ++v) {
          Pos x = word((static_cast<std::uint64_t>(v) << (8 * i)) & g_.holes().w[0]);
          byte_image_[(q * static_cast<std::size_t>(bytes_) + static_cast<std::size_t>(i)) * 256 +
                      static_cast<std::size_t>(v)] = dense(g_.apply(syms_[q], x));
        }
    layout_byte_.assign(static_cast<std::size_t>(dense_bytes_) * 256, 0);
    for (int i = 0; i < dense_bytes_; ++i)
      for (int v = 0; v < 256; ++v)
        for (int k = 0; k < 8; ++k)
          if ((v >> k) & 1 && 8 * i + k < n)
            layout_byte_[static_cast<std::size_t>(i) * 256 + static_cast<std::size_t>(v)] |=
                std::uint64_t{1} << b_.bit(8 * i + k);
    const std::size_t nj = b_.jumps().size();
    ns_ = syms_.size();
    sym_jump_.resize(ns_ * nj);
    for (std::size_t q = 0; q < syms_.size(); ++q)
      for (std::size_t j = 0; j < nj; ++j)
        sym_jump_[j * ns_ + q] = dense(g_.apply(syms_[q], g_.jump_mask(static_cast<int>(j))));
    t0_ = Clock::now();
  }

  CensusResult run() {
    CensusResult r;
    r.group_size = static_cast<int>(syms_.size());
    r.width = 64;
    r.threads = workers_;
    const bool store = kCounts && (o_.on_path || o_.distinct);
    forward(r, store);
    if (store) on_path(r);
    if constexpr (kCounts) {
      r.solutions_up_to_symmetry = solutions_up_to_symmetry(
          g_, syms_, start_, goal_pegs_, r.solutions, [&](const Pos& x) { return is_goal(x); });
      if (o_.distinct) distinct(r);
    }
    for (const CensusLevel& l : r.levels) {
      r.reachable_raw += l.reachable_raw;
      r.reachable_sym += l.reachable_sym;
      r.on_path_raw += l.on_path_raw;
      r.on_path_sym += l.on_path_sym;
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
    r.peak_bytes = mem_.peak();
    return r;
  }

 private:
  // ---- keys ----
  // Canonical dense key of layout position x: the least dense image.
  std::uint64_t canon(std::uint64_t x) const {
    std::uint64_t best = apply(0, x);
    for (std::size_t q = 1; q < syms_.size(); ++q) best = std::min(best, apply(q, x));
    return best;
  }
  // Layout position of dense key d.
  std::uint64_t layout(std::uint64_t d) const {
    std::uint64_t x = 0;
    for (int i = 0; i < dense_bytes_; ++i, d >>= 8) x |= layout_byte_[i * 256 + (d & 0xff)];
    return x;
  }
  std::size_t shard_of(std::uint64_t h) const { return static_cast<std::size_t>(h >> low_bits_); }
  K low_of(std::uint64_t h) const { return static_cast<K>(h & low_mask_); }
  std::uint64_t position(std::size_t shard, K low) const {
    return mix_.unmix((static_cast<std::uint64_t>(shard) << low_bits_) | low);
  }
  // Dense key of the image of layout position x under syms_[q]: one table lookup per byte of the
  // layout, no branches.
  std::uint64_t apply(std::size_t q, std::uint64_t x) const {
    const std::uint64_t* t = &byte_image_[q * bytes_ * 256];
    std::uint64_t r = 0;
    for (int i = 0; i < bytes_; ++i, x >>= 8, t += 256) r |= t[x & 0xff];
    return r;
  }
  // Canonical key of the position jump j makes from the one whose images are imgs: images are
  // linear over XOR, so the child's images are the parent's XOR the jump's.
  std::uint64_t child_key(const std::uint64_t* imgs, std::size_t j) const {
    const std::uint64_t* sj = &sym_jump_[j * ns_];
#ifdef __AVX2__
    // The square boards' 8 images in two vectors. The signed compare orders keys below 2^63, so
    // a 64-hole board (rect:8x8) takes the plain loop.
    if (ns_ == 8 && b_.size() < 64) {
      auto ld = [](const std::uint64_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      };
      __m256i a = _mm256_xor_si256(ld(imgs), ld(sj));
      __m256i b = _mm256_xor_si256(ld(imgs + 4), ld(sj + 4));
      __m256i m = _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
      __m128i lo = _mm256_castsi256_si128(m), hi = _mm256_extracti128_si256(m, 1);
      __m128i m2 = _mm_blendv_epi8(lo, hi, _mm_cmpgt_epi64(lo, hi));
      __m128i sw = _mm_unpackhi_epi64(m2, m2);
      __m128i m1 = _mm_blendv_epi8(m2, sw, _mm_cmpgt_epi64(m2, sw));
      return static_cast<std::uint64_t>(_mm_cvtsi128_si64(m1));
    }
#endif
    std::uint64_t best = imgs[0] ^ sj[0];
    for (std::size_t q = 1; q < ns_; ++q) best = std::min(best, imgs[q] ^ sj[q]);
    return best;
  }
  // Dense keys of the images of layout position x under the group; returns the orbit size.
  int images(std::uint64_t x, std::uint64_t* imgs) const {
    const std::size_t ns = syms_.size();
    imgs[0] = apply(0, x);
    int stab = 1;
    for (std::size_t q = 1; q < ns; ++q) {
      imgs[q] = apply(q, x);
      stab += imgs[q] == imgs[0];
    }
    return static_cast<int>(ns) / stab;
  }
  bool is_goal(const Pos& x) const {
    return p_.goal.kind == Goal::Kind::Any ? x.count() == 1 : x == goal_pos_;
  }
  // Index of canonical position c in a level's shard, or -1.
  long find(const Level& lv, std::uint64_t c) const {
    std::uint64_t h = mix_.mix(c);
    const auto& keys = lv[shard_of(h)].keys.vec();
    auto it = std::find(keys.begin(), keys.end(), low_of(h));
    return it == keys.end() ? -1 : it - keys.begin();
  }
  void check_cancel() const {
    if (o_.cancel && o_.cancel->load(std::memory_order_relaxed)) throw CensusError("cancelled");
  }
  void report(int level, std::uint64_t positions) {
    if (!o_.progress) return;
    auto now = Clock::now();
    if (now - last_report_ < std::chrono::milliseconds(500)) return;
    last_report_ = now;
    o_.progress(CensusProgress{level, positions, std::chrono::duration<double>(now - t0_).count(),
                               mem_.used()});
  }
  Level new_level() {
    Level l;
    l.reserve(shards_);
    for (std::size_t s = 0; s < shards_; ++s) l.emplace_back(mem_);
    return l;
  }

  // ---- forward pass ----
  void forward(CensusResult& r, bool store) {
    const int n = b_.size();
    r.levels.assign(static_cast<std::size_t>(n + 1), CensusLevel{});
    r.solutions_by_hole.assign(static_cast<std::size_t>(n), 0);
    r.p_by_hole.assign(static_cast<std::size_t>(n), 0.0);
    k0_ = start_.count();
    stored_.clear();
    stored_.resize(static_cast<std::size_t>(n + 1));
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
      return;
    }
    Level cur = new_level();
    {
      std::uint64_t h = mix_.mix(canon(start_.w[0]));
      Shard<K>& sh = cur[shard_of(h)];
      sh.keys.push_back(low_of(h));
      sh.counts.push_back(1);
      sh.probs.push_back(1.0);
    }
    for (int k = k0_; k >= 1; --k) {
      mem_.set_level(k);
      std::size_t size = 0;
      for (const auto& sh : cur) size += sh.keys.size();
      if (size == 0) break;
      if constexpr (kCounts) {
        if (k == goal_pegs_ && p_.goal.kind == Goal::Kind::Position && k > 1) {
          std::uint64_t c = canon(goal_pos_.w[0]);
          long i = find(cur, c);
          if (i >= 0) {
            const Shard<K>& sh = cur[shard_of(mix_.mix(c))];
            std::uint64_t imgs[64];
            int orb = images(layout(c), imgs);
            r.solutions = sh.count(static_cast<std::size_t>(i)) / static_cast<unsigned>(orb);
            r.p_goal = sh.probs[static_cast<std::size_t>(i)] / orb;
          }
        }
      }
      if (k == 1) singles(r, cur);
      Level next = expand(cur, k, r, store);
      std::size_t made = 0;
      for (const auto& sh : next) made += sh.keys.size();
      growth_ = static_cast<double>(made) / static_cast<double>(size);
      if (store) stored_[static_cast<std::size_t>(k)] = std::move(cur);
      cur = std::move(next);
      positions_ += r.levels[static_cast<std::size_t>(k)].reachable_sym;
    }
  }

  // One peg left: per-hole counts (sets only: 1 marks a reachable hole), the one-peg chance, and
  // the solutions of one-peg goals.
  void singles(CensusResult& r, const Level& cur) {
    std::uint64_t imgs[64];
    for (std::size_t s = 0; s < shards_; ++s) {
      const Shard<K>& sh = cur[s];
      for (std::size_t i = 0; i < sh.keys.size(); ++i) {
        int orb = images(layout(position(s, sh.keys[i])), imgs);
        for (std::size_t q = 0; q < syms_.size(); ++q) {
          int h = std::countr_zero(imgs[q]);
          if constexpr (kCounts) {
            r.solutions_by_hole[static_cast<std::size_t>(h)] = sh.count(i) / orb;
            r.p_by_hole[static_cast<std::size_t>(h)] = sh.probs[i] / orb;
          } else {
            r.solutions_by_hole[static_cast<std::size_t>(h)] = 1;
          }
        }
        if constexpr (kCounts) r.p_one_peg += sh.probs[i];
      }
    }
    switch (p_.goal.kind) {
      case Goal::Kind::Any:
        for (Count c : r.solutions_by_hole) add_count(r.solutions, c);
        r.p_goal = r.p_one_peg;
        break;
      case Goal::Kind::Hole:
        r.solutions = r.solutions_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        r.p_goal = r.p_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        break;
      case Goal::Kind::Position:
        if (goal_pegs_ == 1) {
          int h = b_.hole_at_bit(goal_pos_.lowest());
          r.solutions = r.solutions_by_hole[static_cast<std::size_t>(h)];
          r.p_goal = r.p_by_hole[static_cast<std::size_t>(h)];
        }
        break;
    }
  }

  // Builds level k-1 from level k. Level k's counts (and, unless stored, keys) are released as
  // the chunks pass its shards; stored keys end sorted.
  Level expand(Level& cur, int k, CensusResult& r, bool store) {
    // 2^15 parents per chunk: their children's buffers (8 bytes each, about 2 MiB) stay in cache.
    constexpr std::size_t kChunk = std::size_t{1} << 15;
    std::vector<std::size_t> prefix(shards_ + 1, 0);
    for (std::size_t s = 0; s < shards_; ++s) prefix[s + 1] = prefix[s] + cur[s].keys.size();
    const std::size_t total = prefix.back();
    // Small levels run on one thread: waking the others costs more than they save.
    const int nw = total < 4096 ? 1 : workers_;
    Level next = new_level();
    std::vector<Table> tables;
    tables.reserve(shards_);
    for (std::size_t s = 0; s < shards_; ++s) tables.emplace_back(mem_, low_bits_);
    // Level sizes change slowly from one level to the next: size the tables for the last ratio.
    const std::size_t expect = static_cast<std::size_t>(
        static_cast<double>(total) * std::min(4.0, growth_) / static_cast<double>(shards_));
    std::vector<std::vector<Booked<BufEntry>>> bufs(static_cast<std::size_t>(nw));
    for (auto& b : bufs)
      for (std::size_t s = 0; s < shards_; ++s) b.emplace_back(mem_);
    Booked<Count> pcount(mem_);   // chunk parents' counts
    Booked<double> pshare(mem_);  // chunk parents' chance per child
    if constexpr (kCounts) {
      pcount.assign(std::min(total, kChunk), 0);
      pshare.assign(std::min(total, kChunk), 0.0);
    }
    struct Tally {
      std::uint64_t raw = 0, sym = 0;
      Count games = 0;
    };
    std::vector<Tally> tally(static_cast<std::size_t>(nw));
    std::barrier sync(nw);
    std::atomic<bool> failed{false};
    std::exception_ptr err;
    std::mutex err_m;
    auto guard = [&](auto&& f) {
      if (failed.load()) return;
      try {
        f();
      } catch (...) {
        std::lock_guard<std::mutex> lock(err_m);
        if (!err) err = std::current_exception();
        failed.store(true);
      }
    };
    const std::size_t nj = b_.jumps().size();
    std::size_t released = 0;  // shards of level k released so far
    parallel(nw, [&](int t) {
      std::vector<int> kids(nj);
      std::uint64_t imgs[64];
      auto& mybuf = bufs[static_cast<std::size_t>(t)];
      Tally& my = tally[static_cast<std::size_t>(t)];
      for (std::size_t begin = 0; begin < total; begin += kChunk) {
        const std::size_t end = std::min(total, begin + kChunk);
        guard([&] {
          if (t == 0) check_cancel();
          const std::size_t len = end - begin;
          const std::size_t lo = begin + len * static_cast<std::size_t>(t) / nw;
          const std::size_t hi = begin + len * static_cast<std::size_t>(t + 1) / nw;
          std::size_t s = static_cast<std::size_t>(
              std::upper_bound(prefix.begin(), prefix.end(), lo) - prefix.begin() - 1);
          for (std::size_t i = lo; i < hi; ++i) {
            while (i >= prefix[s + 1]) ++s;
            const Shard<K>& sh = cur[s];
            const std::size_t at = i - prefix[s];
            const std::uint64_t x = layout(position(s, sh.keys[at]));
            ++my.sym;
            my.raw += static_cast<std::uint64_t>(images(x, imgs));
            std::size_t nk = 0;
            g_.for_each_jump(word(x), [&](int j) { kids[nk++] = j; });
            if (nk == 0) {
              if constexpr (kCounts) add_count(my.games, sh.count(at));
              continue;
            }
            const auto parent = static_cast<std::uint32_t>(i - begin);
            if constexpr (kCounts) {
              pcount[parent] = sh.count(at);
              pshare[parent] = sh.probs[at] / static_cast<double>(nk);
            }
            for (std::size_t u = 0; u < nk; ++u) {
              const std::uint64_t h = mix_.mix(child_key(imgs, static_cast<std::size_t>(kids[u])));
              if constexpr (kCounts)
                mybuf[shard_of(h)].push_back(Ref{low_of(h), parent});
              else
                mybuf[shard_of(h)].push_back(low_of(h));
            }
          }
        });
        sync.arrive_and_wait();
        guard([&] {
          constexpr std::size_t kAhead = 16;
          if (begin == 0)
            for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += nw)
              tables[s].expect(expect);
          for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += nw) {
            Table& tab = tables[s];
            for (auto& wb : bufs) {
              auto& b = wb[s].vec();
              const std::size_t m = b.size();
              for (std::size_t e = 0; e < m; ++e) {
                if (e + kAhead < m) {
                  if constexpr (kCounts)
                    tab.prefetch(b[e + kAhead].low);
                  else
                    tab.prefetch(b[e + kAhead]);
                }
                if constexpr (kCounts)
                  tab.add(b[e].low, pcount[b[e].parent], pshare[b[e].parent]);
                else
                  tab.add(b[e], Count{0}, 0.0);
              }
              b.clear();
            }
          }
        });
        sync.arrive_and_wait();
        if (t == 0) {
          // Level k's shards wholly before the next chunk are done with.
          while (released < shards_ && prefix[released + 1] <= end) {
            Shard<K>& sh = cur[released++];
            sh.counts.release();
            sh.probs.release();
            sh.high.clear();
            if (!store) sh.keys.release();
          }
          std::size_t made = 0;
          for (const auto& tab : tables) made += tab.size();
          report(k - 1, positions_ + made);
        }
      }
    });
    if (err) std::rethrow_exception(err);
    for (auto& b : bufs) b.clear();
    CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
    for (const Tally& x : tally) {
      lv.reachable_raw += x.raw;
      lv.reachable_sym += x.sym;
      add_count(lv.games, x.games);
    }
    add_count(r.games, lv.games);
    parallel(nw, [&](int t) {
      for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += nw) {
        tables[s].take(next[s]);
        if (store) sort_nearly_sorted(cur[s].keys.vec());
      }
    });
    return next;
  }

  // ---- backward pass ----
  // The positions of each level with a child on a solution path, from the goal upward. A
  // position's parents are its complement's jumps undone; the candidates are gathered per shard,
  // sorted, and merged with the stored level.
  void on_path(CensusResult& r) {
    const int n = b_.size();
    path_.clear();
    path_.resize(static_cast<std::size_t>(n + 1));
    if (goal_pegs_ > k0_ || k0_ == 0) {
      r.on_path_done = true;
      return;
    }
    Level& first = path_[static_cast<std::size_t>(goal_pegs_)];
    first = new_level();
    const Level& at_goal = stored_[static_cast<std::size_t>(goal_pegs_)];
    if (!at_goal.empty()) {
      if (p_.goal.kind == Goal::Kind::Any) {
        for (std::size_t s = 0; s < shards_; ++s)
          for (K x : at_goal[s].keys.vec()) first[s].keys.push_back(x);
      } else {
        std::uint64_t h = mix_.mix(canon(goal_pos_.w[0]));
        const auto& keys = at_goal[shard_of(h)].keys.vec();
        if (std::binary_search(keys.begin(), keys.end(), low_of(h)))
          first[shard_of(h)].keys.push_back(low_of(h));
      }
    }
    for (int k = goal_pegs_ + 1; k <= k0_; ++k) {
      mem_.set_level(k);
      check_cancel();
      const Level& below = path_[static_cast<std::size_t>(k - 1)];
      const Level& level = stored_[static_cast<std::size_t>(k)];
      Level mine = new_level();
      if (level.empty()) {
        path_[static_cast<std::size_t>(k)] = std::move(mine);
        continue;
      }
      std::vector<std::vector<Booked<K>>> cand(static_cast<std::size_t>(workers_));
      for (auto& c : cand)
        for (std::size_t s = 0; s < shards_; ++s) c.emplace_back(mem_);
      parallel(workers_, [&](int t) {
        std::uint64_t imgs[64];
        auto& out = cand[static_cast<std::size_t>(t)];
        for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += workers_)
          for (K low : below[s].keys.vec()) {
            std::uint64_t x = layout(position(s, low));
            images(x, imgs);
            g_.for_each_jump(g_.complement(word(x)), [&](int j) {
              std::uint64_t h = mix_.mix(child_key(imgs, static_cast<std::size_t>(j)));
              out[shard_of(h)].push_back(low_of(h));
            });
          }
      });
      std::vector<std::uint64_t> raw(static_cast<std::size_t>(workers_), 0),
          sym(static_cast<std::size_t>(workers_), 0);
      parallel(workers_, [&](int t) {
        std::uint64_t imgs[64];
        std::vector<K> c;
        for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += workers_) {
          c.clear();
          for (auto& w : cand) {
            c.insert(c.end(), w[s].vec().begin(), w[s].vec().end());
            w[s].release();
          }
          std::sort(c.begin(), c.end());
          const auto& keys = level[s].keys.vec();
          auto& out = mine[s].keys;
          std::size_t a = 0;
          for (std::size_t i = 0; i < c.size(); ++i) {
            if (i > 0 && c[i] == c[i - 1]) continue;
            while (a < keys.size() && keys[a] < c[i]) ++a;
            if (a < keys.size() && keys[a] == c[i]) out.push_back(c[i]);
          }
          for (K low : out.vec()) {
            ++sym[static_cast<std::size_t>(t)];
            raw[static_cast<std::size_t>(t)] +=
                static_cast<std::uint64_t>(images(layout(position(s, low)), imgs));
          }
        }
      });
      CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
      for (int t = 0; t < workers_; ++t) {
        lv.on_path_raw += raw[static_cast<std::size_t>(t)];
        lv.on_path_sym += sym[static_cast<std::size_t>(t)];
      }
      path_[static_cast<std::size_t>(k)] = std::move(mine);
    }
    {
      std::uint64_t imgs[64];
      CensusLevel& lv = r.levels[static_cast<std::size_t>(goal_pegs_)];
      for (std::size_t s = 0; s < shards_; ++s)
        for (K low : first[s].keys.vec()) {
          ++lv.on_path_sym;
          lv.on_path_raw += static_cast<std::uint64_t>(images(layout(position(s, low)), imgs));
        }
    }
    if (!o_.distinct) {
      stored_.clear();
      path_.clear();
    }
    r.on_path_done = true;
  }

  // Solutions up to reordering of independent jumps (paths.hpp), over the solution paths.
  void distinct(CensusResult& r) {
    if (goal_pegs_ > k0_ || k0_ == 0 || r.solutions == 0) {
      r.distinct_solutions = 0;
      return;
    }
    r.distinct_note = distinct_skip_reason(r.levels, o_);
    if (!r.distinct_note.empty()) return;
    stored_.clear();
    try {
      r.distinct_solutions = distinct_solutions(
          g_, start_, goal_pegs_, mem_, o_.cancel,
          [&](const Pos& x, int k) {
            const Level& lv = path_[static_cast<std::size_t>(k)];
            if (lv.empty()) return false;
            std::uint64_t h = mix_.mix(canon(x.w[0]));
            const auto& keys = lv[shard_of(h)].keys.vec();
            return std::binary_search(keys.begin(), keys.end(), low_of(h));
          },
          [&](const Pos& x) { return is_goal(x); });
    } catch (const CensusError& e) {
      if (std::string(e.what()) == "cancelled") throw;
      r.distinct_note = e.what();
    }
    path_.clear();
  }

  const Problem& p_;
  const CensusOptions& o_;
  const Board& b_;
  Geometry<64> g_;
  Memory mem_;
  KeyMix mix_;
  int workers_ = 1;
  int shard_bits_ = 0, low_bits_ = 0;
  std::size_t shards_ = 1;
  std::uint64_t low_mask_ = 0;
  std::vector<int> syms_;
  std::size_t ns_ = 1;                      // symmetries in the group
  std::vector<std::uint64_t> sym_jump_;     // [jump][symmetry index in syms_]: dense image
  int bytes_ = 1, dense_bytes_ = 1;         // bytes of the layout, of a dense key
  std::vector<std::uint64_t> byte_image_;   // [symmetry in syms_][layout byte][value]: dense image
  std::vector<std::uint64_t> layout_byte_;  // [dense byte][value]: layout bits
  Pos start_, goal_pos_;
  int goal_pegs_ = 1, k0_ = 0;
  std::vector<Level> stored_, path_;  // by peg count: sorted keys of each level, of solution paths
  std::uint64_t positions_ = 0;
  double growth_ = 1;  // size of the last level built over its parent level's
  Clock::time_point t0_, last_report_;
};

template <class K>
CensusResult run(const Problem& p, const CensusOptions& o, int bits) {
  if (o.counts) return Engine<K, true>(p, o, bits).run();
  return Engine<K, false>(p, o, bits).run();
}

}  // namespace

CensusResult compact_census(const Problem& p, const CensusOptions& o) {
  const int bits = p.board->size();
  int shard_bits = std::min(bits, 6);
  if (bits - shard_bits > 31 && bits - 31 <= 14) shard_bits = bits - 31;
  if (bits - shard_bits <= 31) return run<std::uint32_t>(p, o, bits);
  return run<std::uint64_t>(p, o, bits);
}

}  // namespace pegsol::census_detail
