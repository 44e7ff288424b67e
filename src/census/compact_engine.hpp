// SPDX-License-Identifier: MIT
// The compact census engine's class (compiled per CPU tier: compact_common.hpp): Engine, on the
// census skeleton (skeleton.hpp: the problem, the group, control, memory, threads, progress and the
// run's result). It holds its run (run, body), keys, residues and jump classes, and the state of
// every pass; the passes' members are declared here and defined in headers of their own:
//
//   compact_forward.hpp     the forward pass: expand, scan, compact
//   compact_paths.hpp       the solution paths: complement join, backward pass, export
//   compact_distinct.hpp    the count up to reordering of independent jumps
//   compact_checkpoint.hpp  checkpoint and resume of the forward pass
//
// One class over several headers: the passes share the keys, residues, levels and workers, and
// the hot loops must inline as one piece in each tier's translation unit.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "access.hpp"
#include "checkpoint.hpp"
#include "compact_common.hpp"
#include "compact_levels.hpp"
#include "compact_memory.hpp"
#include "compact_tables.hpp"
#include "engine.hpp"
#include "kernels.hpp"
#include "kernels_grid.hpp"
#include "pegsol/board.hpp"
#include "pegsol/census.hpp"
#include "reach.hpp"
#include "residues.hpp"
#include "simd_x86.hpp"
#include "skeleton.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pegsol::census_detail {
namespace {

// Per-worker figures of one level, one cache line each (two workers' counters on one line cost
// a quarter of the time in line transfers, measured on the previous engine).
struct alignas(64) Tally {
  u64 raw = 0, sym = 0;
  u128 games = 0;  // complete games ending in this level
  u128 paths = 0;  // sum of count x jumps: every path leaving the level
  bool paths_overflow = false;
  u64 count_or = 0;                // the OR of the level's 64-bit counts
  u64 tabled = 0;                  // positions in the work items' tables (before the filter)
  u64 join_raw = 0, join_sym = 0;  // solution-path positions found by the complement join
};

// Tier: the CPU tier's traits (compact_tier.hpp); Kernel: its grid kernel or TableKernel.
template <class Tier, class Kernel>
class Engine : public Context<64> {
 public:
  // twist: the board symmetry of the complement trick (complement_twist), or -1.
  Engine(const Problem& p, const CensusOptions& o, Kernel kernel, std::vector<int> syms, int twist)
      : Context<64>(p, o, std::move(syms)), kern_(std::move(kernel)) {
    for (int h = 0; h < n_; ++h)
      layout_to_key_[static_cast<std::size_t>(layout(b_).bit(h))] = kern_.bit(h);
    start_ = to_key(start_pos_);
    goal_ = to_key(goal_pos_);
    complementary_ = twist >= 0;
    meet_ = o.meet && complementary_ && !o.counts;
    build_residues(twist);
    reach_ = ReachFilter<u64>(b_, syms_, o.reach, [&](int h) { return kern_.bit(h); });
    if (!o.spill_dir.empty()) pool_.spill_to(o.spill_dir);
    if (!o.checkpoint_dir.empty()) lock_ = std::make_unique<DirLock>(o.checkpoint_dir);
  }

  // count_bits: counts stay 64-bit while every count of the next level is sure to stay below
  // 2^count_bits (64; tests lower it to widen early, and 0 gives 128-bit counts from the start).
  CensusResult run(int count_bits) {
    count_bits_ = std::clamp(count_bits, 0, 64);
    k0_ = std::popcount(start_);
    paths_.assign(static_cast<std::size_t>(n_ + 1), {});
    u64 units = 1000 * static_cast<u64>(std::max(0, k0_ - 1));
    if (o_.counts && o_.on_path && !complementary_ && goal_pegs_ < k0_)
      units += 1000 * static_cast<u64>(k0_ - goal_pegs_);
    CensusResult r = run_engine(kern_.group_size(), units, [&](CensusResult& res) { body(res); });
    stored_.clear();
    r.spill_peak_bytes = pool_.spill_peak();
    return r;
  }

 private:
  // The census's passes, in order; run_engine() turns a stop into the result's reason.
  void body(CensusResult& r) {
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
    } else if (o_.counts && count_bits_ == 0) {
      if (o_.random_player)
        forward<u128, kChance>(r);
      else
        forward<u128, kPaths>(r);
    } else if (o_.counts && o_.random_player) {
      forward<u64, kChance>(r);
    } else if (o_.counts) {
      forward<u64, kPaths>(r);
    } else {
      forward<u64, kKeys>(r);
    }
    r.random_player = reports_chances(p_, o_);
    if (o_.counts && o_.on_path && k0_ > 0) {
      if (!complementary_) backward(r);
      r.on_path_done = true;
      if (CensusAccess::keep_paths(o_)) export_paths(r);
    }
    if (o_.counts) {
      up_to_symmetry(r);
      if (o_.distinct) distinct(r);
    }
  }

  // ---- keys ----
  u64 to_key(const Pos& x) const {
    u64 k = 0;
    for_each_bit(x, [&](int b) { k |= layout_to_key_[static_cast<std::size_t>(b)]; });
    return k;
  }
  u32 residue(u64 x) const {
    u32 s = 0;
    for (const auto& [mask, w] : classes_) s += w * static_cast<u32>(std::popcount(x & mask));
    return s & kResidueMask;
  }
  // Residues of the 8 keys at x.
  void residue8(const u64* x, u32* out) const {
#if defined(__x86_64__)
    if constexpr (Tier::avx512) {
      const __m512i v = _mm512_loadu_si512(x);
      __m512i s = _mm512_setzero_si512();
      for (const auto& [mask, w] : classes_) {
        const __m512i c = _mm512_popcnt_epi64(
            _mm512_and_si512(v, _mm512_set1_epi64(static_cast<long long>(mask))));
        s = _mm512_add_epi64(s, _mm512_mask_mul_epu32(c, 0xFF, c, _mm512_set1_epi64(w)));
      }
      _mm256_storeu_si256(
          reinterpret_cast<__m256i*>(out),
          _mm512_mask_cvtepi64_epi32(
              _mm256_setzero_si256(), 0xFF,
              _mm512_and_si512(s, _mm512_set1_epi64(static_cast<long long>(kResidueMask)))));
      return;
    } else if constexpr (Tier::avx2) {
      // Four keys a vector: each class's pegs counted by nibble look-ups summed per lane.
      const __m256i zero = _mm256_setzero_si256();
      for (int h = 0; h < 8; h += 4) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + h));
        __m256i sum = zero;
        for (const auto& [mask, w] : classes_) {
          const __m256i c = _mm256_sad_epu8(
              byte_popcounts(_mm256_and_si256(v, _mm256_set1_epi64x(static_cast<long long>(mask)))),
              zero);
          sum = _mm256_add_epi64(sum, _mm256_mul_epu32(c, _mm256_set1_epi64x(w)));
        }
        store_low32x4(out + h, _mm256_and_si256(
                                   sum, _mm256_set1_epi64x(static_cast<long long>(kResidueMask))));
      }
      return;
    }
#endif
    for (int i = 0; i < 8; ++i) out[i] = residue(x[i]);
  }
  // Keys [0, n) packed into packed_bytes() each at out (which has 8 bytes to spare).
  void pack_keys(const u64* keys, std::size_t n, std::uint8_t* out) const {
    const std::size_t w = static_cast<std::size_t>(kern_.packed_bytes());
    for (std::size_t i = 0; i < n; ++i) {
      const u64 d = kern_.pack(keys[i]);
      std::memcpy(out + i * w, &d, 8);  // the next key overwrites the excess
    }
  }

  // The n keys packed at in (pack_keys's layout), unpacked to out.
  void unpack_keys(const std::uint8_t* in, std::size_t n, u64* out) const {
    const std::size_t w = static_cast<std::size_t>(kern_.packed_bytes());
    const u64 mask = w == 8 ? ~u64{0} : (u64{1} << (8 * w)) - 1;
    for (std::size_t i = 0; i < n; ++i) {
      u64 d = 0;
      std::memcpy(&d, in + i * w, w);
      out[i] = kern_.unpack(d & mask);
    }
  }

  // Key i of segment s, packed or not.
  template <class C>
  u64 key_at(const Segment<C>& s, std::size_t i) const {
    if (!s.packed) return s.key[i];
    const int w = kern_.packed_bytes();
    u64 d;
    std::memcpy(&d, s.packed + i * static_cast<std::size_t>(w), 8);
    return kern_.unpack(w == 8 ? d : d & ((u64{1} << (8 * w)) - 1));
  }

  template <class C, class F>
  void find(const Level<C>& lv, u64 c, F&& f) const {
    const u32 res = residue(c);
    lv.for_range(res, res + 1, [&](const Segment<C>& s, std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i)
        if (key_at(s, i) == c) f(s, i);
    });
  }

  // Keys b[0, n) in canonical form: by the kernel's batch call where it has one (four at a time),
  // else eight at a time (b has room to pad n to a multiple of 8).
  void canon_batch(u64* b, std::size_t n) const {
    if constexpr (requires { kern_.canon_many(b, n); }) {
      for (std::size_t q = n; q % 4; ++q) b[q] = b[0];
      kern_.canon_many(b, n);
    } else {
      for (std::size_t q = n; q % 8; ++q) b[q] = b[0];
      for (std::size_t q = 0; q < n; q += 8) kern_.canon8(b + q, b + q);
    }
  }

  // ---- residues and jump classes ----
  // The weights (residues.hpp, shared with the MPI census's owners) in the key layout, and the
  // jump classes they give.
  void build_residues(int twist) {
    const ResidueWeights rw = residue_weights(b_, syms_, twist);
    classes_ = rw.classes([&](int h) { return kern_.bit(h); });
    total_weight_ = rw.total(n_);
    for (std::size_t j = 0; j < b_.jumps().size(); ++j) {
      const Jump& jp = b_.jumps()[j];
      const u32 delta = (rw.of(jp.to) - rw.of(jp.from) - rw.of(jp.over)) & kResidueMask;
      auto it = std::find_if(specs_.begin(), specs_.end(),
                             [&](const Spec& s) { return s.delta == delta && s.n < 8; });
      if (it == specs_.end()) {
        specs_.push_back(Spec{});
        it = specs_.end() - 1;
        it->delta = delta;
      }
      const JumpMask& m = kern_.jumps()[j];
      it->need[static_cast<std::size_t>(it->n)] = m.need;
      it->have[static_cast<std::size_t>(it->n)] = m.have;
      it->flip[static_cast<std::size_t>(it->n)] = m.flip;
      const int shift = 8 * it->n;
      it->pegs1 |= static_cast<u64>(std::countr_zero(m.have)) << shift;
      it->pegs2 |= static_cast<u64>(std::countr_zero(m.have & (m.have - 1))) << shift;
      it->hole |= static_cast<u64>(std::countr_zero(m.need ^ m.have)) << shift;
      ++it->n;
    }
  }

  // ---- forward pass (compact_forward.hpp) ----
  template <class C, Carry kCounts>
  void forward(CensusResult& r);
  template <class C, Carry kCounts>
  void run_levels(CensusResult& r, Level<C>& cur, int k, bool fresh);
  template <class C, Carry kCounts>
  void at_level(CensusResult& r, const Level<C>& cur, int k);
  bool will_keep(int k) const;
  bool counts_may_pass() const;
  template <class C>
  void keep_or_release(Level<C>& lv, int k);
  Level<u128> widen(Level<u64>& cur);
  template <class C, Carry kCounts>
  void singles(CensusResult& r, const Level<C>& cur);
  template <class C, Carry kCounts>
  struct Worker;
  template <class C, Carry kCounts>
  std::vector<std::unique_ptr<Worker<C, kCounts>>>& workers_for();
  static void add_scaled(u64* __restrict e, const u32* __restrict z, std::size_t len, u64 n);
  template <class C, Carry kCounts>
  Level<C> expand(CensusResult& r, Level<C>& par, int k);
  template <class C, Carry kCounts>
  void scan(Worker<C, kCounts>& w, const Spec& sp, const Segment<C>& s, std::size_t i0,
            std::size_t i1) const;
  template <class C, Carry kCounts>
  void compact(Worker<C, kCounts>& w, Segment<C>& out, Tally& my, bool pack,
               bool discard = false) const;
  // (defined on x86-64 alone: the AVX-512 and AVX2 forms of compact_scalar's first passes)
  template <class C, Carry kCounts>
  void compact_values_avx512(Worker<C, kCounts>& w, std::size_t m, u64* K, u32* R, u64* Cn,
                             double* S, Tally& my) const;
  template <class C, Carry kCounts>
  void compact_values_avx2(Worker<C, kCounts>& w, std::size_t m, u64* K, u32* R, u64* Cn, double* S,
                           Tally& my) const;
  template <class C, Carry kCounts>
  std::size_t compact_scalar(Worker<C, kCounts>& w, std::size_t m, u64* K, u32* R, C* Cn, double* S,
                             Tally& my) const;
  template <class C, Carry kCounts>
  void sort_out(Worker<C, kCounts>& w, Segment<C>& out, Tally& my, bool pack, std::size_t m,
                const u64* K, const u32* R, const C* Cn, const double* S) const;

  // Spilling, when the process holds more than the limit allows: drops the spilled pages of the
  // finished levels (a level being expanded, the stored ones) from its memory; `all`, when no
  // thread writes, those of every level.
  template <class C>
  void shed(const Level<C>* finished, bool all) {
    if (!pool_.spilled() || !pool_.over()) return;
    if (all) {
      pool_.spill()->shed_all();
    } else {
      if (finished) finished->shed();
      for (const auto& [k, lv] : stored_) lv.shed();
    }
    pool_.shed_done();
  }

  // ---- checkpoint and resume (compact_checkpoint.hpp) ----
  u64 fingerprint() const;
  // What a level's file holds (level_file.hpp): packed keys, and counts and shares as carried.
  template <class C, Carry kCounts>
  LevelFileShape file_shape() const {
    return {static_cast<std::size_t>(kern_.packed_bytes()), kCounts != kKeys, kCounts == kChance};
  }
  template <class C, Carry kCounts>
  void save(const CensusResult& r, const Level<C>& cur, int k);
  template <class C, Carry kCounts>
  void load_level(FileReader& f, Level<C>& lv, bool stored);
  template <class C, Carry kCounts>
  void resume(CensusResult& r);

  // ---- solution paths (compact_paths.hpp) ----
  template <class C>
  void complement_join(CensusResult& r, const Level<C>& cur, int k);
  void join_figures(CensusResult& r, int k, u64 raw, u64 sym);
  void meet_figures(CensusResult& r, u64 sym, const u64* witness);
  template <class C, Carry kCounts, class L>
  void join_item(Worker<C, kCounts>& w, const L& other, u32 lo, u32 hi, Tally& my,
                 bool collect) const;
  bool want_paths(const CensusResult&) const;
  void backward(CensusResult& r);
  void record_path_level(CensusResult& r, const Level<u64>& lv, int k);
  void export_paths(CensusResult& r);

  // ---- distinct count (compact_distinct.hpp) ----
  void distinct(CensusResult& r);

  Kernel kern_;
  std::array<u64, 64> layout_to_key_{};
  u64 start_ = 0, goal_ = 0;
  bool complementary_ = false;
  bool meet_ = false;  // CensusOptions::meet: stop once the middle levels are joined
  bool met_ = false;   // and they are
  std::vector<std::pair<u64, u32>> classes_;  // weight classes: key mask, weight
  u32 total_weight_ = 0;                      // the residue of the full board
  std::vector<Spec> specs_;
  ReachFilter<u64> reach_;     // CensusOptions::reach: children no goal's pagodas allow are dropped
  double ratio_ = 0.1;         // positions per unit of the work-item estimate, from the last level
  std::vector<u32> est_size_;  // expand()'s parents per residue
  std::vector<u64> est_;       // and expected children
  u128 paths_out_ = 0;  // paths leaving the current level: a bound on the next level's counts
  u64 count_or_ = 1;    // the OR of the current level's counts, while they are 64-bit
  u64 path_raw_ = 0;    // raw solution-path positions found so far
  int joined_ = -1;     // the last level whose complement join ran while it was built

  Pool pool_{mem_};
  std::map<int, Level<u64>> stored_;  // levels kept (keys) for the solution-path passes
  std::set<int> saved_stored_;        // stored levels in the checkpoint directory
  std::unique_ptr<DirLock> lock_;     // the checkpoint directory's, while the run writes there
  int count_bits_ = 64;               // see run()
  template <class C>
  using WorkersOf = std::tuple<std::vector<std::unique_ptr<Worker<C, kPaths>>>,
                               std::vector<std::unique_ptr<Worker<C, kChance>>>>;
  std::vector<std::unique_ptr<Worker<u64, kKeys>>> sets_workers_;
  WorkersOf<u64> narrow_workers_;
  WorkersOf<u128> wide_workers_;
  std::vector<std::vector<u64>> paths_;  // solution-path keys by level, for the reordering count
};

// A worker's scratch: one batch of children, and the table of its work item.
template <class Tier, class Kernel>
template <class C, Carry kCounts>
struct Engine<Tier, Kernel>::Worker {
  explicit Worker(Memory& m)
      : table(m),
        scratch_key(m),
        scratch_res(m),
        scratch_slot(m),
        scratch_count(m),
        scratch_share(m) {}
  alignas(64) u64 child[kBatch + 64];
  alignas(64) u32 parent[kBatch + 64];
  alignas(64) C count[kBatch + 64];
  alignas(64) double share[kBatch + 64];
  std::size_t n = 0;
  Table<C, kCounts> table;
  Booked<u64> scratch_key;  // a work item's positions, residues, counts and shares
  Booked<u32> scratch_res;
  Booked<u32> scratch_slot;
  Booked<C> scratch_count;
  Booked<double> scratch_share;
  Bump key_bump, value_bump, kept_bump;     // into the level being built
  std::vector<u32> at;                      // the counting sort's cursors
  std::vector<u64> join_keys;               // the complement join's keys of the other level
  std::vector<u64> join_mine, join_theirs;  // its solution-path keys, when collected
};

}  // namespace
}  // namespace pegsol::census_detail
