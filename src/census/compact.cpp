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
// as unmix(shard << L | low) when its level is expanded. A kernel (kernels.hpp) computes symmetry
// images straight into dense keys, and a child's images are its parent's XOR the jump's images.
//
// A level under construction is one open-addressing table per shard. Building level k-1 runs in
// chunks of level-k parents (see engine.hpp): phase A expands a worker's slice of the chunk into
// per-shard buffers of child entries (low key; when counting, also the parent's index in the chunk,
// whose count and chance are written once per parent to a chunk-sized array: 8 bytes with 4-byte
// keys, 4 bytes for sets only), which stay in cache; phase B has each shard's
// owner insert its buffers, prefetching buckets a few entries ahead. Shards of level k are
// released as the chunks pass them, so a level and the next are seldom both whole in memory.
//
// Counts are 128-bit: the low word sits in the slot, the high word, needed by few positions (the
// English board's orbits pass 2^64 only a few jumps from the end), in a side table. Tried and lost:
// one table per level instead of per shard (every insert a cache miss, 2x slower); buffer entries
// naming the parent in its level's arrays (phase B then missed the cache on the parent's count once
// the tables outgrew it; the chunk's array of 512 KiB stays cached); 24-byte entries carrying the
// count and chance (phase A 40% slower, 7 MB more at the peak); sorting each shard's entries by
// bucket before inserting them (no faster: the inserts wait on DRAM either way).

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "engine.hpp"
#include "kernels.hpp"
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

template <class K, bool kCounts, class Kernel>
class Engine {
 public:
  using Pos = Bits<64>;
  // A phase-A buffer entry: the child's low key and (when counting) what it inherits from its
  // parent, so that phase B reads its buffers in order and touches only the table. (Entries of 8
  // bytes naming the parent, whose count and chance phase B then looked up, cost a cache miss
  // per insert once the tables crowded the parents' arrays out of the cache.)
  struct Ref {
    K low;
    std::uint32_t parent;  // chunk index of the parent, kBig set when its count passes 2^64
  };
  // What a chunk parent passes to each child: its count's low word and its chance per child.
  struct Share {
    std::uint64_t count;
    double prob;
  };
  static constexpr std::uint32_t kBig = 0x80000000u;
  using BufEntry = std::conditional_t<kCounts, Ref, K>;

  // Open addressing over one shard, by buckets of one cache line, probed linearly:
  //
  //   counting, 4-byte keys:  | key key key pad | count count count | prob prob prob |  64 bytes
  //   counting, 8-byte keys:  | key key | count count | prob prob | pad               |  64 bytes
  //   sets only:              | 16 keys (4-byte) or 8 keys (8-byte)                    |  64 bytes
  //
  // so an insert touches one line. Slots fill in order and are never freed: an empty slot ends a
  // search. The low keys are already mixed and uniform on L bits, so bucket = key * buckets >> L
  // spreads them over any bucket count (no power of two: a table is sized to its level, at most
  // 85% of its slots full, usually 70-80%). Tried and lost: keys apart from values (two lines
  // per insert, and the value line was the costlier miss), 24-byte slots not aligned to lines.
  class Table {
   public:
    static constexpr int kSlots =
        kCounts ? 64 / static_cast<int>(sizeof(K) + 16) : 64 / static_cast<int>(sizeof(K));
    struct alignas(64) CountBucket {
      K key[kSlots];
      std::uint64_t count[kSlots];  // low words; a nonzero high word is in high_
      double prob[kSlots];
    };
    struct alignas(64) KeyBucket {
      K key[kSlots];
    };
    using Bucket = std::conditional_t<kCounts, CountBucket, KeyBucket>;
    static_assert(sizeof(Bucket) == 64);

    Table(Memory& m, int low_bits) : buckets_(m), shift_(low_bits) {}
    // Buckets for about n entries.
    static std::size_t buckets_for(std::size_t n) { return n * 133 / (100 * kSlots) + 4; }
    // Makes the empty table use nb buckets at `mem` (owned by the caller, who keeps it until
    // take()); the table moves to storage of its own if it outgrows them.
    void place(Bucket* mem, std::size_t nb) {
      std::fill(mem, mem + nb, empty_bucket());
      at_ = mem;
      nb_ = nb;
    }
    void prefetch(K key) const {
      if (nb_) __builtin_prefetch(&at_[home(key)], 1);
    }
    // Adds key with (count, prob), summing into an existing entry.
    void add(K key, Count count, double prob) {
      if ((size_ + 1) * 20 > slots() * 17) rehash(nb_ + nb_ / 2 + 4);
      std::size_t b = home(key);
      for (;;) {
        Bucket& B = at_[b];
        // Slots holding key or empty, found without branches (which slot is random: branching
        // on each mispredicted about once per insert).
        unsigned m = 0;
        for (int i = 0; i < kSlots; ++i)
          m |= static_cast<unsigned>((B.key[i] == key) | (B.key[i] == kEmpty<K>)) << i;
        if (m) {
          const int i = std::countr_zero(m);
          const bool fresh = B.key[i] != key;
          B.key[i] = key;
          size_ += fresh;
          if constexpr (kCounts) {
            B.count[i] = fresh ? 0 : B.count[i];
            B.prob[i] = fresh ? 0.0 : B.prob[i];
            sum(B, i, key, count, prob);
          }
          return;
        }
        if (++b == nb_) b = 0;
      }
    }
    std::size_t size() const { return size_; }
    // Moves the entries into `out` (keys, and counts and chances when counting); releases the
    // table.
    // The keys come out nearly sorted: a bucket's home is monotone in its key, so only keys of
    // one bucket or one run of full buckets can be out of order, once the scan starts after a
    // bucket with an empty slot (no run wraps). Tried and lost: sorting them by insertion, which
    // took three times radix_sort's share of the English census (runs of full buckets sent many
    // shards on to std::sort).
    void take(Shard<K>& out) {
      out.keys.reserve(size_);
      if constexpr (kCounts) {
        out.counts.reserve(size_);
        out.probs.reserve(size_);
      }
      std::size_t first = 0;
      while (first < nb_ && at_[first].key[kSlots - 1] != kEmpty<K>) ++first;
      for (std::size_t n = 0, b = first + 1; n < nb_; ++n, ++b) {
        if (b >= nb_) b -= nb_;
        const Bucket& B = at_[b];
        for (int i = 0; i < kSlots && B.key[i] != kEmpty<K>; ++i) {
          out.keys.push_back(B.key[i]);
          if constexpr (kCounts) {
            out.counts.push_back(B.count[i]);
            out.probs.push_back(B.prob[i]);
          }
        }
      }
      out.high = std::move(high_);
      high_.clear();
      buckets_.release();
      at_ = nullptr;
      nb_ = size_ = 0;
    }

   private:
    std::size_t slots() const { return nb_ * kSlots; }
    static Bucket empty_bucket() {
      Bucket e{};
      std::fill(std::begin(e.key), std::end(e.key), kEmpty<K>);
      return e;
    }
    void sum(Bucket& B, int i, K key, Count count, double prob) {
      B.prob[i] += prob;
      std::uint64_t carry =
          __builtin_add_overflow(B.count[i], static_cast<std::uint64_t>(count), &B.count[i]) ? 1
                                                                                             : 0;
      std::uint64_t hi = static_cast<std::uint64_t>(count >> 64);
      if (hi | carry) add_high(key, hi, carry);
    }
    void add_high(K key, std::uint64_t hi, std::uint64_t carry) {
      std::uint64_t& h = high_[key];
      if (__builtin_add_overflow(h, hi, &h) || __builtin_add_overflow(h, carry, &h))
        throw CensusError("a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
    }
    std::size_t home(K key) const {
      if constexpr (sizeof(K) == 4)  // key < 2^31 and buckets < 2^32: the product fits 64 bits
        return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * nb_) >> shift_);
      else
        return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * nb_) >> shift_);
    }
    void rehash(std::size_t nb) {
      Booked<Bucket> keep = std::move(buckets_);
      const Bucket* old = at_;
      const std::size_t onb = nb_;
      buckets_.assign(nb, empty_bucket());
      at_ = buckets_.vec().data();
      nb_ = nb;
      for (std::size_t ob = 0; ob < onb; ++ob)
        for (int i = 0; i < kSlots && old[ob].key[i] != kEmpty<K>; ++i) {
          std::size_t b = home(old[ob].key[i]);
          int at = 0;
          for (;;) {
            Bucket& B = at_[b];
            while (at < kSlots && B.key[at] != kEmpty<K>) ++at;
            if (at < kSlots) break;
            at = 0;
            if (++b == nb_) b = 0;
          }
          Bucket& B = at_[b];
          B.key[at] = old[ob].key[i];
          if constexpr (kCounts) {
            B.count[at] = old[ob].count[i];
            B.prob[at] = old[ob].prob[i];
          }
        }
    }
    Booked<Bucket> buckets_;  // own storage, once the table has outgrown what place() gave
    Bucket* at_ = nullptr;    // the buckets in use
    int shift_;
    std::size_t nb_ = 0, size_ = 0;
    std::unordered_map<K, std::uint64_t> high_;  // counts' words above 2^64 (rare: low levels)
  };
  using Level = std::vector<Shard<K>>;

  Engine(const Problem& p, const CensusOptions& o, int bits, const Geometry<64>& g,
         std::vector<int> syms, Kernel kernel)
      : p_(p),
        o_(o),
        b_(*p.board),
        g_(g),
        kern_(std::move(kernel)),
        syms_(std::move(syms)),
        mem_(o.memory_limit ? o.memory_limit : default_memory_limit()),
        mix_(bits) {
    workers_ = o.threads > 0 ? o.threads
                             : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    shard_bits_ = std::min(bits, 6);
    if (bits - shard_bits_ > 31 && bits - 31 <= 14) shard_bits_ = bits - 31;
    low_bits_ = bits - shard_bits_;
    shards_ = std::size_t{1} << shard_bits_;
    low_mask_ = low_bits_ >= 64 ? ~0ull : (1ull << low_bits_) - 1;
    start_ = g_.to_bits(p.start);
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_pos_ = g_.to_bits(p.goal.position);
    if (p.goal.kind == Goal::Kind::Hole) goal_pos_ = Pos::single(b_.bit(p.goal.hole));
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
  // Dense key (bit h = hole h) of layout position x.
  std::uint64_t dense(const Pos& x) const {
    std::uint64_t d = 0;
    for_each_bit(x, [&](int bit) { d |= std::uint64_t{1} << b_.hole_at_bit(bit); });
    return d;
  }
  std::size_t shard_of(std::uint64_t h) const { return static_cast<std::size_t>(h >> low_bits_); }
  K low_of(std::uint64_t h) const { return static_cast<K>(h & low_mask_); }
  // Dense key of the entry `low` of shard `shard`.
  std::uint64_t position(std::size_t shard, K low) const {
    return mix_.unmix((static_cast<std::uint64_t>(shard) << low_bits_) | low);
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
      std::uint64_t h = mix_.mix(kern_.canon(dense(start_)));
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
          std::uint64_t c = kern_.canon(dense(goal_pos_));
          long i = find(cur, c);
          if (i >= 0) {
            const Shard<K>& sh = cur[shard_of(mix_.mix(c))];
            typename Kernel::Imgs imgs;
            int orb = kern_.images(c, imgs);
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
    typename Kernel::Imgs imgs;
    for (std::size_t s = 0; s < shards_; ++s) {
      const Shard<K>& sh = cur[s];
      for (std::size_t i = 0; i < sh.keys.size(); ++i) {
        int orb = kern_.images(position(s, sh.keys[i]), imgs);
        kern_.for_each_image(imgs, [&](std::uint64_t d) {
          const auto h = static_cast<std::size_t>(std::countr_zero(d));
          if constexpr (kCounts) {
            r.solutions_by_hole[h] = sh.count(i) / orb;
            r.p_by_hole[h] = sh.probs[i] / orb;
          } else {
            r.solutions_by_hole[h] = 1;
          }
        });
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
    const std::size_t nbs = Table::buckets_for(expect);
    Arena<typename Table::Bucket> arena(mem_, nbs * shards_);
    std::vector<std::vector<Booked<BufEntry>>> bufs(static_cast<std::size_t>(nw));
    for (auto& b : bufs)
      for (std::size_t s = 0; s < shards_; ++s) b.emplace_back(mem_);
    Booked<Count> pcount(mem_);  // chunk parents' counts, read for those past 2^64
    Booked<Share> share(mem_);   // chunk parents' shares, by chunk index
    if constexpr (kCounts) {
      pcount.assign(std::min(total, kChunk), 0);
      share.assign(std::min(total, kChunk), Share{0, 0.0});
    }
    // One cache line per worker: counted per parent, and two workers' counters on one line cost
    // phase A a quarter of its time in line transfers.
    struct alignas(64) Tally {
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
      std::vector<std::uint64_t> canon(nj);
      typename Kernel::Imgs imgs;
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
            const std::uint64_t x = position(s, sh.keys[at]);
            ++my.sym;
            my.raw += static_cast<std::uint64_t>(kern_.images(x, imgs));
            std::size_t nk = 0;
            kern_.moves(x, [&](int j) { kids[nk++] = j; });
            if (nk == 0) {
              if constexpr (kCounts) add_count(my.games, sh.count(at));
              continue;
            }
            Ref ref{};
            if constexpr (kCounts) {
              const auto parent = static_cast<std::uint32_t>(i - begin);
              const Count c = sh.count(at);
              const bool big = (c >> 64) != 0;
              if (big) pcount[parent] = c;  // read by phase B only through kBig
              share[parent] =
                  Share{static_cast<std::uint64_t>(c), sh.probs[at] / static_cast<double>(nk)};
              ref.parent = parent | (big ? kBig : 0);
            }
            kern_.children(imgs, kids.data(), nk, canon.data());
            for (std::size_t u = 0; u < nk; ++u) {
              const std::uint64_t h = mix_.mix(canon[u]);
              if constexpr (kCounts) {
                ref.low = low_of(h);
                mybuf[shard_of(h)].push_back(ref);
              } else {
                mybuf[shard_of(h)].push_back(low_of(h));
              }
            }
          }
        });
        sync.arrive_and_wait();
        guard([&] {
          constexpr std::size_t kAhead = 16;
          if (begin == 0)
            for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += nw)
              tables[s].place(arena.data() + s * nbs, nbs);
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
                if constexpr (kCounts) {
                  const std::uint32_t q = b[e].parent;
                  const Share& from = share[q & ~kBig];
                  tab.add(b[e].low, (q & kBig) ? pcount[q & ~kBig] : Count{from.count}, from.prob);
                } else {
                  tab.add(b[e], Count{0}, 0.0);
                }
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
      Booked<K> scratch(mem_);
      for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += nw) {
        tables[s].take(next[s]);
        arena.discard(s * nbs, nbs);
        if (store) {
          scratch.reserve(cur[s].keys.size());
          radix_sort(cur[s].keys.vec(), scratch.vec(), low_bits_);
        }
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
        std::uint64_t h = mix_.mix(kern_.canon(dense(goal_pos_)));
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
        typename Kernel::Imgs imgs;
        auto& out = cand[static_cast<std::size_t>(t)];
        for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += workers_)
          for (K low : below[s].keys.vec()) {
            std::uint64_t x = position(s, low);
            kern_.images(x, imgs);
            kern_.unmoves(x, [&](int j) {
              std::uint64_t h = mix_.mix(kern_.child(imgs, static_cast<std::size_t>(j)));
              out[shard_of(h)].push_back(low_of(h));
            });
          }
      });
      std::vector<std::uint64_t> raw(static_cast<std::size_t>(workers_), 0),
          sym(static_cast<std::size_t>(workers_), 0);
      parallel(workers_, [&](int t) {
        typename Kernel::Imgs imgs;
        Booked<K> all(mem_), scratch(mem_);  // a shard's candidates, booked like the tables
        auto& c = all.vec();
        std::uint64_t my_raw = 0, my_sym = 0;
        for (std::size_t s = static_cast<std::size_t>(t); s < shards_; s += workers_) {
          std::size_t m = 0;
          for (auto& w : cand) m += w[s].size();
          all.clear();
          all.reserve(m);
          for (auto& w : cand) {
            c.insert(c.end(), w[s].vec().begin(), w[s].vec().end());
            w[s].release();
          }
          scratch.reserve(m);
          radix_sort(c, scratch.vec(), low_bits_);
          const auto& keys = level[s].keys.vec();
          auto& out = mine[s].keys;
          std::size_t a = 0;
          for (std::size_t i = 0; i < c.size(); ++i) {
            if (i > 0 && c[i] == c[i - 1]) continue;
            while (a < keys.size() && keys[a] < c[i]) ++a;
            if (a < keys.size() && keys[a] == c[i]) out.push_back(c[i]);
          }
          for (K low : out.vec()) {
            ++my_sym;
            my_raw += static_cast<std::uint64_t>(kern_.images(position(s, low), imgs));
          }
        }
        raw[static_cast<std::size_t>(t)] = my_raw;  // once: the workers' counters share a line
        sym[static_cast<std::size_t>(t)] = my_sym;
      });
      CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
      for (int t = 0; t < workers_; ++t) {
        lv.on_path_raw += raw[static_cast<std::size_t>(t)];
        lv.on_path_sym += sym[static_cast<std::size_t>(t)];
      }
      path_[static_cast<std::size_t>(k)] = std::move(mine);
    }
    {
      typename Kernel::Imgs imgs;
      CensusLevel& lv = r.levels[static_cast<std::size_t>(goal_pegs_)];
      for (std::size_t s = 0; s < shards_; ++s)
        for (K low : first[s].keys.vec()) {
          ++lv.on_path_sym;
          lv.on_path_raw += static_cast<std::uint64_t>(kern_.images(position(s, low), imgs));
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
            std::uint64_t h = mix_.mix(kern_.canon(dense(x)));
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
  const Geometry<64>& g_;
  Kernel kern_;
  std::vector<int> syms_;  // the census group: indices into the board's symmetries, 0 first
  Memory mem_;
  KeyMix mix_;
  int workers_ = 1;
  int shard_bits_ = 0, low_bits_ = 0;
  std::size_t shards_ = 1;
  std::uint64_t low_mask_ = 0;
  Pos start_, goal_pos_;
  int goal_pegs_ = 1, k0_ = 0;
  std::vector<Level> stored_, path_;  // by peg count: sorted keys of each level, of solution paths
  std::uint64_t positions_ = 0;
  double growth_ = 1;  // size of the last level built over its parent level's
  Clock::time_point t0_, last_report_;
};

template <class K, class Kernel>
CensusResult run(const Problem& p, const CensusOptions& o, int bits, const Geometry<64>& g,
                 std::vector<int> syms, Kernel kernel) {
  if (o.counts)
    return Engine<K, true, Kernel>(p, o, bits, g, std::move(syms), std::move(kernel)).run();
  return Engine<K, false, Kernel>(p, o, bits, g, std::move(syms), std::move(kernel)).run();
}

// Picks the kernel: the grid kernel where it applies (unless the portable engine is asked for).
template <class K>
CensusResult run(const Problem& p, const CensusOptions& o, int bits) {
  Geometry<64> g(*p.board);
  std::vector<int> syms;
  for (int s = 0; s < g.symmetry_count(); ++s)
    if (s == 0 || (o.symmetry && fixes_problem(*p.board, p, s))) syms.push_back(s);
#if PEGSOL_GRID_KERNEL
  if (o.engine != CensusEngine::CompactPortable)
    if (auto grid = GridKernel::make(*p.board, syms))
      return run<K>(p, o, bits, g, std::move(syms), std::move(*grid));
#endif
  TableKernel tables(*p.board, g, syms);
  return run<K>(p, o, bits, g, std::move(syms), std::move(tables));
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
