// The compact census engine: every board whose layout fits 64 bits.
//
// Level k (the positions with k pegs, in canonical form under the census group) is split by a
// residue, a linear function of the pegs that the census group leaves unchanged:
//
//      residue(x) = sum over the pegs h of x of w[h]  (mod 2^16),   w constant on each orbit
//
// so a jump changes the residue by a constant of its own, delta(j) = w[to] - w[from] - w[over]:
// the children of residue r through jump j all have residue r + delta(j). A level is stored
// sorted by residue, and level k-1 is built a range of residues [a, b) at a time (a work item):
// its positions come only from the parents in [a - delta, b - delta) for each jump class (the
// jumps sharing a delta; 12 on the English board). Each work item fills one hash table sized to
// stay in the worker's cache, then writes its positions out sorted by residue. No position is
// ever sent anywhere but to the table of its own residue range, so a work item needs no locks
// and no buffers beyond one batch of children, and the same split can put residue ranges on other
// machines.
//
// Tried and lost, each measured on the English census: scattering every child into per-range
// buffers (one read of each parent, but 24 bytes per edge written and read back, and the
// buffers of a whole level do not fit 256 MB); a weighting whose deltas are small, so that a
// window of parent ranges could stay cached across consecutive work items (the window held about
// half of each large level); sub-tables per range filled from a partitioned buffer (slower than
// one table); 2-slot and 3-slot buckets holding keys and values in one line (more probing);
// branch-free inserts (a store per insert made the memory-dependence predictor serialise them,
// 40% slower).
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>

#include "compact_memory.hpp"
#include "engine.hpp"
#include "kernels.hpp"
#include "paths.hpp"
#include "pegsol/census.hpp"
#include "target.hpp"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Everything below is compiled for the includer's instruction set (PEGSOL_CENSUS_TARGET, or the
// baseline when it is empty) in a namespace of its own, so that nothing of it is shared with the
// other instruction sets' copies; the standard library's templates, included above, stay baseline.
#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_BEGIN(PEGSOL_CENSUS_TARGET)
#endif
#include "kernels_grid.hpp"
#if PEGSOL_AVX512
#include "kernels_avx512.hpp"
#elif PEGSOL_AVX2
#include "kernels_avx2.hpp"
#endif

namespace pegsol::census_detail::PEGSOL_CENSUS_ISA {
namespace {

using u64 = std::uint64_t;
using u32 = std::uint32_t;
using u128 = unsigned __int128;

constexpr int kResidueBits = 16;
constexpr u32 kResidues = u32{1} << kResidueBits;
constexpr u32 kResidueMask = kResidues - 1;
// Children gathered before they are canonicalised and inserted (and a margin for one vector).
constexpr std::size_t kBatch = 1024;
// What each stored position carries: its key alone (a table pass), its path count, or its path
// count and the random player's chance of passing through its orbit. Zero means keys alone, so
// `if constexpr (kCounts != kKeys)` reads as "when counting".
enum Carry : int { kKeys = 0, kPaths = 1, kChance = 2 };
// Positions a work item aims at: its table (at most 80% full) then fits the 1 MiB second-level
// cache of the machines this was measured on. 16,000 with 24-byte slots (key, count, chance);
// 24,000 with 16-byte slots (key, count): 4% faster than 16,000 on the English census without
// chances, and 32,000 the same as 24,000.
template <Carry kCounts>
constexpr double kItemPositions = kCounts == kPaths ? 24000 : 16000;
// Levels expected to hold fewer positions than this take their arrays from the heap.
constexpr double kSmallLevel = 200000;

#include "compact_levels.ipp"
#include "compact_tables.ipp"

// Per-worker figures of one level, one cache line each (two workers' counters on one line cost
// a quarter of the time in line transfers, measured on the previous engine).
struct alignas(64) Tally {
  u64 raw = 0, sym = 0;
  u128 games = 0;  // complete games ending in this level
  u128 paths = 0;  // sum of count x jumps: every path leaving the level
  bool paths_overflow = false;
  u64 join_raw = 0, join_sym = 0;  // solution-path positions found by the complement join
};

template <class Kernel, bool kVec>
class Engine {
 public:
  using Pos = Bits<64>;

  // twist: the board symmetry of the complement trick (complement_twist), or -1.
  Engine(const Problem& p, const CensusOptions& o, Kernel kernel, std::vector<int> syms, int twist)
      : p_(p),
        o_(o),
        b_(*p.board),
        g_(*p.board),
        kern_(std::move(kernel)),
        syms_(std::move(syms)),
        run_(o),
        mem_(memory_limit_of(o)),
        workers_(threads_of(o)),
        team_(workers_) {
    n_ = b_.size();

    for (int h = 0; h < n_; ++h) layout_to_key_[static_cast<std::size_t>(b_.bit(h))] = kern_.bit(h);
    start_ = to_key(g_.to_bits(p.start));
    goal_pegs_ = goal_pegs(p);
    if (p.goal.kind == Goal::Kind::Position) goal_ = to_key(g_.to_bits(p.goal.position));
    if (p.goal.kind == Goal::Kind::Hole) goal_ = kern_.bit(p.goal.hole);
    complementary_ = twist >= 0;
    build_residues(twist);
    t0_ = Clock::now();
  }

  // wide_counts: 128-bit counts from the first level (tests), not from the level that needs them.
  CensusResult run(bool wide_counts) {
    CensusResult r;
    r.group_size = kern_.group_size();
    r.width = 64;
    r.threads = workers_;
    r.levels.assign(static_cast<std::size_t>(n_ + 1), CensusLevel{});
    r.solutions_by_hole.assign(static_cast<std::size_t>(n_), 0);
    r.p_by_hole.assign(static_cast<std::size_t>(n_), 0.0);
    k0_ = std::popcount(start_);
    paths_.assign(static_cast<std::size_t>(n_ + 1), {});
    units_ = 1000 * static_cast<u64>(std::max(0, k0_ - 1));
    if (o_.counts && o_.on_path && !complementary_ && goal_pegs_ < k0_)
      units_ += 1000 * static_cast<u64>(k0_ - goal_pegs_);
    try {
      body(r, wide_counts);
    } catch (const Stopped& s) {
      r.stop = s.reason;
    } catch (const MemoryExceeded& e) {
      r.stop = StopReason::Memory;
      r.stop_note = e.what();
    }
    if (r.stop == StopReason::None) report("done", 1, positions_, units_, true);
    stored_.clear();
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
  // The census's passes, in order; run() turns a stop into the result's reason.
  void body(CensusResult& r, bool wide_counts) {
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
    } else if (o_.counts && wide_counts) {
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
      if (o_.keep_paths) export_paths(r);
    }
    if (o_.counts) {
      r.solutions_up_to_symmetry =
          solutions_up_to_symmetry(g_, syms_, g_.to_bits(p_.start), goal_pegs_, r.solutions,
                                   [&](const Pos& x) { return is_goal(x); });
      if (o_.distinct) distinct(r);
    }
  }

  // ---- keys ----
  u64 to_key(const Pos& x) const {
    u64 k = 0;
    for_each_bit(x, [&](int b) { k |= layout_to_key_[static_cast<std::size_t>(b)]; });
    return k;
  }
  bool is_goal(const Pos& x) const {
    return p_.goal.kind == Goal::Kind::Any ? x.count() == 1 : to_key(x) == goal_;
  }
  u32 residue(u64 x) const {
    u32 s = 0;
    for (const auto& [mask, w] : classes_) s += w * static_cast<u32>(std::popcount(x & mask));
    return s & kResidueMask;
  }
  // Residues of the 8 keys at x.
  void residue8(const u64* x, u32* out) const {
#if PEGSOL_AVX512
    if constexpr (kVec) {
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
    }
#endif
    for (int i = 0; i < 8; ++i) out[i] = residue(x[i]);
  }
  void check_cancel() const {
    run_.control.throw_if_stopped();
  }
  // Progress: the control's report (done in thousandths of a level: the forward pass's levels,
  // then the backward pass's) and the options' callback.
  void report(std::string_view phase, int level, u64 positions, u64 done, bool force = false) {
    ProgressReport pr;
    pr.done = done;
    pr.total = units_;
    pr.phase = phase;
    pr.positions = positions;
    pr.memory_bytes = mem_.used();
    pr.level = level;
    run_.control.report(pr, force);
    if (!o_.progress) return;
    const auto now = Clock::now();
    if (now - last_report_ < std::chrono::milliseconds(500)) return;
    last_report_ = now;
    o_.progress(CensusProgress{level, positions, std::chrono::duration<double>(now - t0_).count(),
                               mem_.used()});
  }

  // ---- residues and jump classes ----
  // The weights: constant on the orbits of the census group, or, when those give more than 24
  // jump classes (small groups), on the orbits of all the board's symmetries: fewer classes
  // (fewer scans of each parent) for a coarser split.
  void build_residues(int twist) {
    auto orbits_of = [&](const std::vector<std::vector<int>>& perms) {
      std::vector<int> orbit(static_cast<std::size_t>(n_), -1);
      int count = 0;
      for (int h = 0; h < n_; ++h) {
        if (orbit[static_cast<std::size_t>(h)] >= 0) continue;
        for (const auto& perm : perms)
          orbit[static_cast<std::size_t>(perm[static_cast<std::size_t>(h)])] = count;
        ++count;
      }
      return orbit;
    };
    // The census group, and the twist of the complement trick: the complement's residue is
    // then total - residue whatever the twist.
    std::vector<std::vector<int>> group, all = b_.symmetries();
    for (int s : syms_) group.push_back(b_.symmetries()[static_cast<std::size_t>(s)]);
    if (twist >= 0) {
      group.push_back(b_.symmetries()[static_cast<std::size_t>(twist)]);
      for (std::size_t i = 0; i < group.size(); ++i)  // closed under composition
        for (std::size_t j = 0; j <= i; ++j)
          for (const auto& [x, y] : {std::pair{i, j}, std::pair{j, i}}) {
            std::vector<int> c(static_cast<std::size_t>(n_));
            for (int h = 0; h < n_; ++h)
              c[static_cast<std::size_t>(h)] =
                  group[x][static_cast<std::size_t>(group[y][static_cast<std::size_t>(h)])];
            if (std::find(group.begin(), group.end(), c) == group.end()) group.push_back(c);
          }
    }
    std::vector<int> orbit = orbits_of(group);
    auto classes = [&](const std::vector<int>& orb) {
      std::vector<std::array<int, 3>> seen;
      for (const Jump& j : b_.jumps()) {
        std::array<int, 3> t{orb[static_cast<std::size_t>(j.from)],
                             orb[static_cast<std::size_t>(j.over)],
                             orb[static_cast<std::size_t>(j.to)]};
        if (std::find(seen.begin(), seen.end(), t) == seen.end()) seen.push_back(t);
      }
      return seen.size();
    };
    if (classes(orbit) > 24) orbit = orbits_of(all);
    const int norb = *std::max_element(orbit.begin(), orbit.end()) + 1;
    std::mt19937 rng(20261124);  // fixed: runs repeat
    std::vector<u32> w(static_cast<std::size_t>(norb));
    for (u32& x : w) x = static_cast<u32>(rng()) & kResidueMask;
    classes_.assign(static_cast<std::size_t>(norb), {0, 0});
    for (int h = 0; h < n_; ++h) {
      auto& c = classes_[static_cast<std::size_t>(orbit[static_cast<std::size_t>(h)])];
      c.first |= kern_.bit(h);
      c.second = w[static_cast<std::size_t>(orbit[static_cast<std::size_t>(h)])];
      total_weight_ += c.second;
    }
    total_weight_ &= kResidueMask;
    for (std::size_t j = 0; j < b_.jumps().size(); ++j) {
      const Jump& jp = b_.jumps()[j];
      auto wt = [&](int h) {
        return w[static_cast<std::size_t>(orbit[static_cast<std::size_t>(h)])];
      };
      const u32 delta = (wt(jp.to) - wt(jp.from) - wt(jp.over)) & kResidueMask;
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

  // ---- forward pass ----
  template <class C, Carry kCounts>
  void forward(CensusResult& r) {
    Level<C> cur(pool_, mem_);
    {
      Segment<C> s;
      const u64 x = kern_.canon(start_);
      Bump kb, vb;
      kb.begin(cur.keys, true);
      vb.begin(cur.values, true);
      s.lo = 0;
      s.hi = kResidues;
      s.n = 1;
      s.off = kb.alloc<u32>(kResidues + 1);
      const u32 res = residue(x);
      for (u32 q = 0; q <= kResidues; ++q) s.off[q] = q > res ? 1 : 0;
      s.key = kb.alloc<u64>(1);
      s.key[0] = x;
      alignas(64) u64 in[8] = {x, x, x, x, x, x, x, x};
      u32 orbit[8], moves[8];
      kern_.describe8(in, orbit, moves);
      CensusLevel& lv = r.levels[static_cast<std::size_t>(k0_)];
      lv.reachable_raw = orbit[0];
      lv.reachable_sym = 1;
      if constexpr (kCounts != kKeys) {
        s.count = vb.alloc<C>(1);
        s.count[0] = 1;
        if constexpr (kCounts == kChance) {
          s.share = vb.alloc<double>(1);
          s.share[0] = moves[0] ? 1.0 / moves[0] : 1.0;
        }
        paths_out_ = moves[0];
        if (!moves[0]) lv.games = 1;
        add_count(r.games, lv.games);
      }
      cur.seg.push_back(s);
    }
    run_levels<C, kCounts>(r, cur, k0_, true);
  }

  // Expands level k (its figures done when `fresh` is false) and every level below it.
  template <class C, Carry kCounts>
  void run_levels(CensusResult& r, Level<C>& cur, int k, bool fresh) {
    for (;; --k, fresh = true) {
      mem_.set_level(k);
      if (fresh) at_level<C, kCounts>(r, cur, k);
      if (k == 1 || cur.size() == 0) break;
      if constexpr (kCounts != kKeys && std::is_same_v<C, u64>) {
        if (paths_out_ >> 64) {  // level k-1's counts may pass 2^64: 128-bit counts from here
          Level<u128> wide = widen(cur);
          run_levels<u128, kCounts>(r, wide, k, false);
          return;
        }
      }
      Level<C> next = expand<C, kCounts>(r, cur, k);
      keep_or_release(cur, k);
      cur = std::move(next);
    }
    keep_or_release(cur, k);
  }

  // What a finished level k gives before it is expanded: the goal's count, the one-peg figures,
  // the solution-path counts of the complement trick.
  template <class C, Carry kCounts>
  void at_level(CensusResult& r, const Level<C>& cur, int k) {
    if constexpr (kCounts != kKeys) {
      if (k == goal_pegs_ && p_.goal.kind == Goal::Kind::Position && k > 1) {
        const u64 c = kern_.canon(goal_);
        find(cur, c, [&](const Segment<C>& s, std::size_t i) {
          alignas(64) u64 in[8] = {c, c, c, c, c, c, c, c};
          u32 orbit[8], moves[8];
          kern_.describe8(in, orbit, moves);
          r.solutions = static_cast<Count>(s.count[i]) / orbit[0];
          if constexpr (kCounts == kChance)
            r.p_goal = s.share[i] * std::max<u32>(moves[0], 1) / orbit[0];
        });
      }
    }
    if (k == 1) singles<C, kCounts>(r, cur);
    if (kCounts != kKeys && o_.on_path && complementary_ && 2 * k <= n_ && k >= goal_pegs_ &&
        joined_ != k)
      complement_join(r, cur, k);
  }

  // Whether level k will be stored for a solution-path pass, so that its compaction packs its
  // keys (the complement join of level n-k with level k as it is expanded needs no store).
  bool will_keep(int k) const {
    if (!o_.counts || !o_.on_path) return false;
    if (complementary_) return 2 * k > n_ && n_ - k >= goal_pegs_ && 2 * k != n_ + 1;
    return k >= goal_pegs_;
  }

  // Keeps level k's keys when a solution-path pass will need them; releases the rest.
  template <class C>
  void keep_or_release(Level<C>& lv, int k) {
    bool keep = false;
    if (o_.counts && o_.on_path) {
      if (complementary_)
        keep = 2 * k > n_ && n_ - k >= goal_pegs_ && joined_ != n_ - k;
      else
        keep = k >= goal_pegs_;
    }
    lv.values.clear();
    if (!keep) {
      lv.seg.clear();
      lv.keys.clear();
      lv.kept.clear();
      return;
    }
    // Kept with packed keys (5 bytes instead of 8 on the English board), usually packed by the
    // compaction already.
    Level<u64> s(pool_, mem_);
    if (lv.packed_ready) {
      for (const Segment<C>& seg : lv.seg) {
        Segment<u64> t = seg.template runs<u64>();
        t.packed = seg.packed_copy;
        s.seg.push_back(t);
      }
      s.keys = std::move(lv.kept);
      lv.seg.clear();
      lv.keys.clear();
      stored_[k] = std::move(s);
      return;
    }
    Bump b;
    b.begin(s.keys, lv.size() < kSmallLevel);
    const std::size_t w = static_cast<std::size_t>(kern_.packed_bytes());
    for (const Segment<C>& seg : lv.seg) {
      Segment<u64> t = seg.template runs<u64>();
      t.off = b.alloc<u32>(seg.hi - seg.lo + 1);
      std::copy(seg.off, seg.off + (seg.hi - seg.lo + 1), t.off);
      t.packed = b.alloc<std::uint8_t>(seg.n * w + 8);
      pack_keys(seg.key, seg.n, t.packed);
      s.seg.push_back(t);
    }
    lv.seg.clear();
    lv.keys.clear();
    stored_[k] = std::move(s);
  }

  // Keys [0, n) packed into packed_bytes() each at out (which has 8 bytes to spare).
  void pack_keys(const u64* keys, std::size_t n, std::uint8_t* out) const {
    const std::size_t w = static_cast<std::size_t>(kern_.packed_bytes());
    for (std::size_t i = 0; i < n; ++i) {
      const u64 d = kern_.pack(keys[i]);
      std::memcpy(out + i * w, &d, 8);  // the next key overwrites the excess
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

  Level<u128> widen(Level<u64>& cur) {
    Level<u128> w(pool_, mem_);
    Bump vb;
    vb.begin(w.values, cur.size() < kSmallLevel);
    for (const Segment<u64>& s : cur.seg) {
      Segment<u128> t = s.runs<u128>();
      t.key = s.key;
      t.packed_copy = s.packed_copy;
      t.count = vb.alloc<u128>(s.n);
      if (s.share) t.share = vb.alloc<double>(s.n);
      w.seg.push_back(t);
    }
    // Copied on every worker (serially, this took 2 ms of the English census).
    std::atomic<std::size_t> next{0};
    team_.run(cur.size() < 4096 ? 1 : workers_, [&](int) {
      for (std::size_t i; (i = next.fetch_add(1)) < w.seg.size();) {
        const Segment<u64>& s = cur.seg[i];
        std::copy(s.count, s.count + s.n, w.seg[i].count);
        if (s.share) std::copy(s.share, s.share + s.n, w.seg[i].share);
      }
    });
    w.keys = std::move(cur.keys);
    w.kept = std::move(cur.kept);
    w.packed_ready = cur.packed_ready;
    cur.seg.clear();
    cur.values.clear();
    return w;
  }

  // One peg left: counts and chances by hole, and the one-peg goals' solutions.
  template <class C, Carry kCounts>
  void singles(CensusResult& r, const Level<C>& cur) {
    for (const Segment<C>& s : cur.seg)
      for (std::size_t i = 0; i < s.size(); ++i) {
        std::vector<u64> im(static_cast<std::size_t>(kern_.group_size()));
        kern_.images(s.key[i], im.data());
        std::sort(im.begin(), im.end());
        const auto orbit = static_cast<u32>(std::unique(im.begin(), im.end()) - im.begin());
        for (u32 q = 0; q < orbit; ++q) {
          const auto h = static_cast<std::size_t>(kern_.hole_at(std::countr_zero(im[q])));
          if constexpr (kCounts != kKeys) {
            r.solutions_by_hole[h] = static_cast<Count>(s.count[i]) / orbit;
            if constexpr (kCounts == kChance) r.p_by_hole[h] = s.share[i] / orbit;
          } else {
            r.solutions_by_hole[h] = 1;
          }
        }
        if constexpr (kCounts == kChance) r.p_one_peg += s.share[i];
      }
    if constexpr (kCounts == kKeys) return;
    switch (p_.goal.kind) {
      case Goal::Kind::Any:
        r.solutions = 0;
        for (Count c : r.solutions_by_hole) add_count(r.solutions, c);
        r.p_goal = r.p_one_peg;
        break;
      case Goal::Kind::Hole:
        r.solutions = r.solutions_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        r.p_goal = r.p_by_hole[static_cast<std::size_t>(p_.goal.hole)];
        break;
      case Goal::Kind::Position:
        if (goal_pegs_ == 1) {
          const auto h = static_cast<std::size_t>(kern_.hole_at(std::countr_zero(goal_)));
          r.solutions = r.solutions_by_hole[h];
          r.p_goal = r.p_by_hole[h];
        }
        break;
    }
  }

  // A worker's scratch: one batch of children, and the table of its work item.
  template <class C, Carry kCounts>
  struct Worker {
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

  // The workers of one count type, kept from level to level with their tables and scratch (new
  // ones each level cost a fifth of the English census in the kernel zeroing fresh pages).
  template <class C, Carry kCounts>
  std::vector<std::unique_ptr<Worker<C, kCounts>>>& workers_for() {
    if constexpr (kCounts == kKeys)
      return sets_workers_;
    else if constexpr (std::is_same_v<C, u64>)
      return std::get<kCounts - 1>(narrow_workers_);
    else
      return std::get<kCounts - 1>(wide_workers_);
  }

  // e[i] += n * z[i] for i < len (a separate function, so that it vectorises).
  static void add_scaled(u64* __restrict e, const u32* __restrict z, std::size_t len, u64 n) {
    for (std::size_t i = 0; i < len; ++i) e[i] += n * z[i];
  }

  // Builds level k-1 from level k (whose figures are already in r).
  template <class C, Carry kCounts>
  Level<C> expand(CensusResult& r, Level<C>& par, int k) {
    // Work items: runs of residues expected to hold about kItemPositions positions each. The
    // estimate of residue r: for each class, its jumps times the parents of residue r - delta.
    const double per_est = ratio_;  // positions per unit of estimate, from the last level
    u64 jumps = 0;
    for (const Spec& sp : specs_) jumps += sp.n;
    const u64 total_est = static_cast<u64>(par.size()) * jumps;
    const u64 target = std::max<u64>(4, static_cast<u64>(kItemPositions<kCounts> / per_est));
    struct Item {
      u32 lo, hi;
      u64 est;
    };
    std::vector<Item> items;
    if (total_est < target / 4) {
      items.push_back({0, kResidues, total_est});  // what the loop below makes of it, sooner
    } else {
      // A sum of shifted copies of the parents' sizes, in integers so that it vectorises (with
      // a loop over the parents' residues in doubles, this took half a millisecond a level,
      // between the parallel parts).
      std::vector<u32>& size = est_size_;
      std::vector<u64>& est = est_;
      size.assign(kResidues, 0);
      est.assign(kResidues, 0);
      for (const Segment<C>& sg : par.seg)
        for (u32 r = sg.lo; r < sg.hi; ++r) size[r] = sg.off[r - sg.lo + 1] - sg.off[r - sg.lo];
      for (const Spec& sp : specs_) {
        const std::size_t d = sp.delta & kResidueMask;
        add_scaled(est.data() + d, size.data(), kResidues - d, sp.n);
        add_scaled(est.data(), size.data() + (kResidues - d), d, sp.n);
      }
      // The last tenth in items a quarter the size: the workers, taking items in order, then
      // finish the level within a small item of each other.
      const u64 tail = total_est - total_est / 10;
      u32 lo = 0;
      u64 acc = 0, done = 0;
      for (u32 c = 0; c < kResidues; ++c) {
        acc += est[c];
        done += est[c];
        if (acc >= (done > tail ? target / 4 : target) || c + 1 == kResidues) {
          items.push_back({lo, c + 1, acc});
          lo = c + 1;
          acc = 0;
        }
      }
    }
    const std::size_t total = par.size();
    const int nw = total < 4096 ? 1 : workers_;
    Level<C> next(pool_, mem_);
    next.seg.resize(items.size());
    std::vector<Tally> tally(static_cast<std::size_t>(nw));
    std::atomic<std::size_t> cursor{0};
    std::atomic<bool> failed{false};
    std::atomic<u64> made{0};
    auto& workers = workers_for<C, kCounts>();
    while (workers.size() < static_cast<std::size_t>(nw))
      workers.push_back(std::make_unique<Worker<C, kCounts>>(mem_));
    // The complement join of level k-1 (see complement_join), item by item against the item's
    // table while it is warm: the other level is the one being expanded or a stored one.
    const int kn = k - 1, ko = n_ - kn;
    const Level<u64>* join_stored = nullptr;
    bool join = false;
    if (kCounts != kKeys && o_.on_path && complementary_ && 2 * kn < n_ && kn >= goal_pegs_) {
      if (ko == k) {
        join = true;
      } else if (auto it = stored_.find(ko); it != stored_.end()) {
        join = true;
        join_stored = &it->second;
      }
    }
    const bool collect = join && want_paths(r);
    const bool pack = will_keep(kn);
    next.packed_ready = pack;
    for (int t = 0; t < nw; ++t) {
      workers[static_cast<std::size_t>(t)]->join_mine.clear();
      workers[static_cast<std::size_t>(t)]->join_theirs.clear();
    }
    std::atomic<std::size_t> finished{0};
    const u64 done0 = 1000 * static_cast<u64>(k0_ - k);
    team_.run(nw, [&](int t) {
      Worker<C, kCounts>* w = workers[static_cast<std::size_t>(t)].get();
      Tally& my = tally[static_cast<std::size_t>(t)];
      const bool small = static_cast<double>(total_est) * per_est < kSmallLevel;
      w->key_bump.begin(next.keys, small);
      w->value_bump.begin(next.values, small);
      w->kept_bump.begin(next.kept, small);
      try {
        for (;;) {
          const std::size_t it = cursor.fetch_add(1);
          if (it >= items.size() || failed.load(std::memory_order_relaxed)) break;
          check_cancel();
          const Item& item = items[it];
          Segment<C>& out = next.seg[it];
          out.lo = item.lo;
          out.hi = item.hi;
          if (item.est == 0) {
            out.off =
                (pack ? w->kept_bump : w->key_bump).template alloc<u32>(item.hi - item.lo + 1);
            std::fill(out.off, out.off + (item.hi - item.lo + 1), 0u);
            continue;
          }
          w->table.reset(static_cast<std::size_t>(static_cast<double>(item.est) * per_est * 1.3) +
                         16);
          for (const Spec& sp : specs_) {
            const u32 lo = (item.lo - sp.delta) & kResidueMask, len = item.hi - item.lo;
            auto scan_part = [&](const Segment<C>& s, std::size_t i0, std::size_t i1) {
              scan<C, kCounts>(*w, sp, s, i0, i1);
            };
            par.for_range(lo, std::min(lo + len, kResidues), scan_part);
            if (lo + len > kResidues) par.for_range(0, lo + len - kResidues, scan_part);
          }
          compact<C, kCounts>(*w, out, my, pack);
          if (join) {
            if (join_stored)
              join_item(*w, *join_stored, item.lo, item.hi, my, collect);
            else
              join_item(*w, par, item.lo, item.hi, my, collect);
          }
          made.fetch_add(out.size(), std::memory_order_relaxed);
          const std::size_t fin = finished.fetch_add(1, std::memory_order_relaxed) + 1;
          if (t == 0)
            report("forward", k - 1, positions_ + made.load(std::memory_order_relaxed),
                   done0 + 1000 * fin / items.size());
        }
      } catch (...) {
        failed.store(true);
        throw;
      }
    });
    CensusLevel& lv = r.levels[static_cast<std::size_t>(k - 1)];
    u128 paths = 0;
    u64 join_raw = 0, join_sym = 0;
    for (const Tally& x : tally) {
      lv.reachable_raw += x.raw;
      lv.reachable_sym += x.sym;
      if (join) {
        join_raw += x.join_raw;
        join_sym += x.join_sym;
      }
      if constexpr (kCounts != kKeys) {
        add_count(lv.games, x.games);
        if (x.paths_overflow || __builtin_add_overflow(paths, x.paths, &paths))
          throw CensusError(
              "a path count exceeded 2^128 (about 3.4e38); the census cannot count it");
      }
    }
    if constexpr (kCounts != kKeys) {
      add_count(r.games, lv.games);
      paths_out_ = paths;
    }
    if (join) {
      join_figures(r, kn, join_raw, join_sym);
      if (collect) {
        std::vector<u64>& mine = paths_[static_cast<std::size_t>(kn)];
        std::vector<u64>& theirs = paths_[static_cast<std::size_t>(ko)];
        for (int t = 0; t < nw; ++t) {
          const auto& w = *workers[static_cast<std::size_t>(t)];
          mine.insert(mine.end(), w.join_mine.begin(), w.join_mine.end());
          theirs.insert(theirs.end(), w.join_theirs.begin(), w.join_theirs.end());
        }
        std::sort(mine.begin(), mine.end());
        std::sort(theirs.begin(), theirs.end());
      }
      if (join_stored) stored_.erase(ko);
      joined_ = kn;
    }
    if (total_est > 0)
      ratio_ = static_cast<double>(lv.reachable_sym) / static_cast<double>(total_est);
    if (ratio_ <= 0) ratio_ = 0.1;
    positions_ += lv.reachable_sym;
    return next;
  }

  // Keys b[0, n) in canonical form, eight at a time (b has room to pad n to a multiple of 8).
  void canon_batch(u64* b, std::size_t n) const {
    for (std::size_t q = n; q % 8; ++q) b[q] = b[0];
    for (std::size_t q = 0; q < n; q += 8) kern_.canon8(b + q, b + q);
  }

  // Children of parents [i0, i1) of segment s through the jumps of class sp, into the table.
  template <class C, Carry kCounts>
  void scan(Worker<C, kCounts>& w, const Spec& sp, const Segment<C>& s, std::size_t i0,
            std::size_t i1) const {
    const u64* keys = s.key;
    u64* ck = w.child;
    u32* cp = w.parent;
    std::size_t nc = 0;
    // Counts and shares go into the batch beside the children (the vector path with 64-bit
    // counts) or are gathered by parent index at the flush.
    constexpr bool direct = kVec && kCounts != kKeys && std::is_same_v<C, u64>;
    auto flush = [&] {
      if (nc == 0) return;
      canon_batch(ck, nc);
      if constexpr (kCounts != kKeys) {
        if (!direct) {
          for (std::size_t q = 0; q < nc; ++q) {
            w.count[q] = s.count[cp[q]];
            if constexpr (kCounts == kChance) w.share[q] = s.share[cp[q]];
          }
        }
      }
      w.table.template add<kVec>(ck, nc, w.count, w.share);
      nc = 0;
    };
#if PEGSOL_AVX512
    if constexpr (kVec) {
      // One bit shuffle per selector tests every jump of the class in all eight lanes.
      alignas(64) u64 flips[8] = {};
      for (int j = 0; j < sp.n; ++j) flips[j] = sp.flip[static_cast<std::size_t>(j)];
      const __m512i sel1 = _mm512_set1_epi64(static_cast<long long>(sp.pegs1));
      const __m512i sel2 = _mm512_set1_epi64(static_cast<long long>(sp.pegs2));
      const __m512i sel3 = _mm512_set1_epi64(static_cast<long long>(sp.hole));
      const __m512i flipv = _mm512_load_si512(flips);
      const __m512i seven = _mm512_set1_epi64(7);
      alignas(64) std::uint8_t iota_bytes[64];
      for (int b = 0; b < 64; ++b) iota_bytes[b] = static_cast<std::uint8_t>(b);
      const __m512i iota = _mm512_load_si512(iota_bytes);
      for (std::size_t i = i0; i < i1; i += 8) {
        __builtin_prefetch(keys + i + 256);
        if constexpr (kCounts != kKeys) {
          __builtin_prefetch(s.count + i + 256);
          if constexpr (kCounts == kChance) __builtin_prefetch(s.share + i + 256);
        }
        const __mmask8 valid = i1 - i >= 8 ? 0xFF : static_cast<__mmask8>((1u << (i1 - i)) - 1);
        const __m512i x = _mm512_maskz_loadu_epi64(valid, keys + i);
        // Bit 8 * lane + j: jump j is legal in lane (lanes past the end hold no pegs).
        const __mmask64 legal = _kandn_mask64(_mm512_bitshuffle_epi64_mask(x, sel3),
                                              _kand_mask64(_mm512_bitshuffle_epi64_mask(x, sel1),
                                                           _mm512_bitshuffle_epi64_mask(x, sel2)));
        // The legal (lane, jump) pairs in order, as bytes 8 * lane + jump, eight at a time: the
        // children are the lanes' positions (one permute) with the jumps' holes flipped (another).
        // (A loop over each lane's lowest jump, as many rounds as the busiest lane has jumps,
        // mispredicted its exit about once a vector.)
        const u64 pairs = _cvtmask64_u64(legal);
        const int count = std::popcount(pairs);
        if (count == 0) continue;
        alignas(64) std::uint8_t code[64];
        _mm512_store_si512(code, _mm512_maskz_compress_epi8(legal, iota));
        __m512i pcv = _mm512_setzero_si512(), psv = _mm512_setzero_si512();
        if constexpr (direct) {
          pcv = _mm512_maskz_loadu_epi64(valid, s.count + i);
          if constexpr (kCounts == kChance) psv = _mm512_maskz_loadu_epi64(valid, s.share + i);
        }
        for (int at = 0; at < count; at += 8) {
          const __m512i c = _mm512_maskz_cvtepu8_epi64(
              0xFF, _mm_loadl_epi64(reinterpret_cast<const __m128i*>(code + at)));
          const __m512i lanes = vsrli(c, 3);
          const __m512i jumps = _mm512_and_si512(c, seven);
          _mm512_storeu_si512(
              ck + nc, _mm512_xor_si512(_mm512_mask_permutexvar_epi64(x, 0xFF, lanes, x),
                                        _mm512_mask_permutexvar_epi64(flipv, 0xFF, jumps, flipv)));
          if constexpr (direct) {
            _mm512_storeu_si512(w.count + nc, _mm512_mask_permutexvar_epi64(pcv, 0xFF, lanes, pcv));
            if constexpr (kCounts == kChance)
              _mm512_storeu_si512(w.share + nc,
                                  _mm512_mask_permutexvar_epi64(psv, 0xFF, lanes, psv));
          } else {
            _mm256_storeu_si256(
                reinterpret_cast<__m256i*>(cp + nc),
                _mm512_mask_cvtepi64_epi32(
                    _mm256_setzero_si256(), 0xFF,
                    _mm512_add_epi64(lanes, _mm512_set1_epi64(static_cast<long long>(i)))));
          }
          nc += static_cast<std::size_t>(std::min(8, count - at));
        }
        if (nc >= kBatch) flush();
      }
      flush();
      return;
    }
#endif
#if PEGSOL_AVX2
    if constexpr (!kVec) {
      // Each parent's eight jumps tested in two vectors (one when the class has at most four
      // jumps); the legal children are packed to the front of each by a permutation looked up
      // from the vector's legality bits, written, and kept by advancing the batch by their number.
      alignas(32) u64 need[8], have[8];
      for (int j = 0; j < 8; ++j) {
        need[j] = j < sp.n ? sp.need[static_cast<std::size_t>(j)] : 0;
        have[j] = j < sp.n ? sp.have[static_cast<std::size_t>(j)] : 1;  // never legal
      }
      const __m256i n0 = load4(need), n1 = load4(need + 4), h0 = load4(have), h1 = load4(have + 4);
      const __m256i f0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sp.flip.data()));
      const __m256i f1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sp.flip.data() + 4));
      auto run = [&]<bool kTwo>() {
        for (std::size_t i = i0; i < i1; ++i) {
          if ((i & 7) == 0) {
            __builtin_prefetch(keys + i + 256);
            if constexpr (kCounts != kKeys) {
              __builtin_prefetch(s.count + i + 256);
              if constexpr (kCounts == kChance) __builtin_prefetch(s.share + i + 256);
            }
          }
          const __m256i x = _mm256_set1_epi64x(static_cast<long long>(keys[i]));
          const unsigned m0 = legal4(x, n0, h0);
          const __m256i parent = _mm256_set1_epi32(static_cast<int>(i));
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(ck + nc),
                              _mm256_permutevar8x32_epi32(_mm256_xor_si256(x, f0), pack4(m0)));
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(cp + nc), parent);
          nc += static_cast<std::size_t>(std::popcount(m0));
          if constexpr (kTwo) {
            // (The parent's index went to all eight children at the first store.)
            const unsigned m1 = legal4(x, n1, h1);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(ck + nc),
                                _mm256_permutevar8x32_epi32(_mm256_xor_si256(x, f1), pack4(m1)));
            nc += static_cast<std::size_t>(std::popcount(m1));
          }
          if (nc >= kBatch) flush();
        }
      };
      if (sp.n > 4)
        run.template operator()<true>();
      else
        run.template operator()<false>();
      flush();
      return;
    }
#endif
    // Every jump's child is written and kept when legal (the batch has a margin past kBatch): a
    // branch on each jump's legality mispredicted about half the time.
    for (std::size_t i = i0; i < i1; ++i) {
      const u64 x = keys[i];
      for (int j = 0; j < sp.n; ++j) {
        ck[nc] = x ^ sp.flip[static_cast<std::size_t>(j)];
        cp[nc] = static_cast<u32>(i);
        nc += (x & sp.need[static_cast<std::size_t>(j)]) == sp.have[static_cast<std::size_t>(j)];
      }
      if (nc >= kBatch) flush();
    }
    flush();
  }

  // Writes the work item's table into segment `out`, sorted by residue, with the level's figures.
  template <class C, Carry kCounts>
  void compact(Worker<C, kCounts>& w, Segment<C>& out, Tally& my, bool pack) const {
    const std::size_t m = w.table.size();
    w.scratch_key.vec().resize(m + 8);
    w.scratch_res.vec().resize(m + 8);
    if constexpr (kCounts != kKeys) w.scratch_count.vec().resize(m + 8);
    if constexpr (kCounts == kChance) w.scratch_share.vec().resize(m + 8);
    u64* K = w.scratch_key.vec().data();
    u32* R = w.scratch_res.vec().data();
    C* Cn = kCounts != kKeys ? w.scratch_count.vec().data() : nullptr;
    double* S = kCounts == kChance ? w.scratch_share.vec().data() : nullptr;
#if PEGSOL_AVX512
    if constexpr (kVec && kCounts != kKeys && std::is_same_v<C, u64>) {
      compact_values(w, m, K, R, Cn, S, my);
    } else
#endif
    {
      compact_scalar(w, m, K, R, Cn, S, my);
    }
    sort_out(w, out, my, pack, m, K, R, Cn, S);
  }

#if PEGSOL_AVX512
  // compact()'s first passes with 64-bit counts, eight slots at a time: the occupied slots'
  // keys, counts and chances packed in table order (one pass over the table's lines), then
  // residues, orbits, jumps, shares and the level's figures.
  template <class C, Carry kCounts>
  void compact_values(Worker<C, kCounts>& w, std::size_t m, u64* K, u32* R, u64* Cn, double* S,
                      Tally& my) const {
    const auto& tab = w.table;
    const std::size_t cap = tab.capacity();
    // count, chance, count, ... (or counts alone)
    const auto* V = reinterpret_cast<const u64*>(tab.values());
    const __m512i even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
    const __m512i odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
    std::size_t n = 0;
    for (std::size_t b = 0; b < cap; b += 8) {
      const __m512i x = _mm512_load_si512(tab.keys() + b);
      const __mmask8 occ = _mm512_test_epi64_mask(x, x);
      if (!occ) continue;
      _mm512_storeu_si512(K + n, _mm512_maskz_compress_epi64(occ, x));
      if constexpr (kCounts == kChance) {
        const __m512i v0 = _mm512_load_si512(V + 2 * b), v1 = _mm512_load_si512(V + 2 * b + 8);
        _mm512_storeu_si512(
            Cn + n, _mm512_maskz_compress_epi64(occ, _mm512_permutex2var_epi64(v0, even, v1)));
        _mm512_storeu_si512(
            S + n, _mm512_maskz_compress_epi64(occ, _mm512_permutex2var_epi64(v0, odd, v1)));
      } else {
        _mm512_storeu_si512(Cn + n, _mm512_maskz_compress_epi64(occ, _mm512_load_si512(V + b)));
      }
      n += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(occ)));
    }
    for (std::size_t q = m; q < m + 8; ++q) {
      K[q] = m ? K[0] : 0;
      Cn[q] = 0;
      if constexpr (kCounts == kChance) S[q] = 0;
    }
    // Games (counts of dead ends) and paths (count x jumps) summed in 32-bit halves in 64-bit
    // lanes, folded into 128 bits every 4096 rounds (a half times a jump count stays below 2^42).
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFll);
    __m512i raw = _mm512_setzero_si512(), g_lo = raw, g_hi = raw, p_lo = raw, p_hi = raw;
    auto fold = [&] {
      const u128 g = static_cast<u128>(hsum(g_lo)) + (static_cast<u128>(hsum(g_hi)) << 32);
      const u128 p = static_cast<u128>(hsum(p_lo)) + (static_cast<u128>(hsum(p_hi)) << 32);
      my.games += g;
      if (__builtin_add_overflow(my.paths, p, &my.paths)) my.paths_overflow = true;
      g_lo = g_hi = p_lo = p_hi = _mm512_setzero_si512();
    };
    alignas(64) u32 o8[8], m8[8];
    std::size_t rounds = 0;
    for (std::size_t i = 0; i < m; i += 8) {
      residue8(K + i, R + i);
      kern_.describe8(K + i, o8, m8);
      const __mmask8 in = m - i >= 8 ? 0xFF : static_cast<__mmask8>((1u << (m - i)) - 1);
      const __m512i o =
          _mm512_maskz_cvtepu32_epi64(0xFF, _mm256_load_si256(reinterpret_cast<__m256i*>(o8)));
      const __m512i mv =
          _mm512_maskz_cvtepu32_epi64(0xFF, _mm256_load_si256(reinterpret_cast<__m256i*>(m8)));
      raw = _mm512_mask_add_epi64(raw, in, raw, o);
      const __mmask8 dead = _mm512_mask_testn_epi64_mask(in, mv, mv), live = in & ~dead;
      const __m512i c = _mm512_loadu_si512(Cn + i), hi = vsrli(c, 32);
      g_lo = _mm512_mask_add_epi64(g_lo, dead, g_lo, _mm512_and_si512(c, low32));
      g_hi = _mm512_mask_add_epi64(g_hi, dead, g_hi, hi);
      p_lo = _mm512_mask_add_epi64(p_lo, live, p_lo, _mm512_mask_mul_epu32(c, 0xFF, c, mv));
      p_hi = _mm512_mask_add_epi64(p_hi, live, p_hi, _mm512_mask_mul_epu32(hi, 0xFF, hi, mv));
      if constexpr (kCounts == kChance) {
        const __m512d ch = _mm512_loadu_pd(S + i);
        _mm512_storeu_pd(S + i, _mm512_mask_div_pd(ch, live, ch, _mm512_cvtepu64_pd(mv)));
      }
      if (++rounds == 4096) {
        fold();
        rounds = 0;
      }
    }
    fold();
    my.raw += hsum(raw);
  }
#endif

  // compact()'s first passes, a slot at a time where the vectors do not serve.
  template <class C, Carry kCounts>
  void compact_scalar(Worker<C, kCounts>& w, std::size_t m, u64* K, u32* R, C* Cn, double* S,
                      Tally& my) const {
    const auto& tab = w.table;
    const std::size_t cap = tab.capacity();
    // Pass 1: the occupied slots' keys and slot numbers, packed.
    w.scratch_slot.vec().resize(m + 8);
    u32* I = w.scratch_slot.vec().data();
    std::size_t n = 0;
    for (std::size_t b = 0; b < cap; b += 8) {
      const u64* kb = tab.keys() + b;
#if PEGSOL_AVX512
      if constexpr (kVec) {
        const __m512i x = _mm512_load_si512(kb);
        const __mmask8 occ = _mm512_test_epi64_mask(x, x);
        _mm512_storeu_si512(K + n, _mm512_maskz_compress_epi64(occ, x));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(I + n),
                            _mm256_maskz_compress_epi32(
                                occ, _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(b)),
                                                      _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
        n += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(occ)));
        continue;
      }
#endif
      for (u32 l = 0; l < 8; ++l) {
        K[n] = kb[l];
        I[n] = static_cast<u32>(b) + l;
        n += kb[l] != 0;
      }
    }
    for (std::size_t q = m; q < m + 8; ++q) K[q] = m ? K[0] : 0;
    // Pass 2, eight positions at a time: residues, orbits, jumps; shares (the chance over the
    // jumps, the chance itself for a dead end); the level's figures.
    u64 raw = 0;
    alignas(64) u32 o8[8], m8[8];
    for (std::size_t i = 0; i < m; i += 8) {
      residue8(K + i, R + i);
      kern_.describe8(K + i, o8, m8);
      const std::size_t e = std::min<std::size_t>(8, m - i);
      for (std::size_t u = 0; u < e; ++u) raw += o8[u];
      if constexpr (kCounts != kKeys) {
        for (std::size_t u = 0; u < e; ++u) {
          const auto& v = tab.values()[I[i + u]];
          const u32 mv = m8[u];
          Cn[i + u] = v.count;
          if constexpr (kCounts == kChance) S[i + u] = mv ? v.chance / mv : v.chance;
          if (!mv) {
            my.games += static_cast<u128>(v.count);
          } else if constexpr (std::is_same_v<C, u64>) {
            // A 64-bit count times a 32-bit jump count fits in 128 bits: one multiply.
            if (__builtin_add_overflow(my.paths, static_cast<u128>(v.count) * mv, &my.paths))
              my.paths_overflow = true;
          } else {
            u128 prod;
            if (__builtin_mul_overflow(static_cast<u128>(v.count), static_cast<u128>(mv), &prod) ||
                __builtin_add_overflow(my.paths, prod, &my.paths))
              my.paths_overflow = true;
          }
        }
      }
    }
    my.raw += raw;
  }

  // compact()'s last pass: the positions by residue into the segment (a counting sort), and
  // packed for storing when `pack`.
  template <class C, Carry kCounts>
  void sort_out(Worker<C, kCounts>& w, Segment<C>& out, Tally& my, bool pack, std::size_t m,
                const u64* K, const u32* R, const C* Cn, const double* S) const {
    const u32 len = out.hi - out.lo;
    out.n = m;
    out.off = (pack ? w.kept_bump : w.key_bump).template alloc<u32>(len + 1);
    u32* off = out.off;
    std::fill(off, off + len + 1, 0u);
    for (std::size_t i = 0; i < m; ++i) ++off[((R[i] - out.lo) & kResidueMask) + 1];
    for (u32 c = 0; c < len; ++c) off[c + 1] += off[c];
    out.key = w.key_bump.template alloc<u64>(m);
    if constexpr (kCounts != kKeys) {
      out.count = w.value_bump.template alloc<C>(m);
      if constexpr (kCounts == kChance) out.share = w.value_bump.template alloc<double>(m);
    }
    w.at.assign(off, off + len);
    u32* at = w.at.data();
    u64* ok = out.key;
    for (std::size_t i = 0; i < m; ++i) {
      const u32 p = at[(R[i] - out.lo) & kResidueMask]++;
      ok[p] = K[i];
      if constexpr (kCounts != kKeys) {
        out.count[p] = Cn[i];
        if constexpr (kCounts == kChance) out.share[p] = S[i];
      }
    }
    if (pack) {
      const std::size_t wb = static_cast<std::size_t>(kern_.packed_bytes());
      out.packed_copy = w.kept_bump.template alloc<std::uint8_t>(m * wb + 8);
      pack_keys(ok, m, out.packed_copy);
    }
    my.sym += m;
  }

  // ---- solution paths ----
  // Self-complementary problems (the goal is the start's complement, as in the central game): a
  // position x of level k lies on a solution path exactly when the complement of x is reachable
  // (reversed and complemented, a path from x to the goal is one from the start to the
  // complement). So level k's solution-path positions are those whose complement lies in the
  // stored level n-k, and their complements are level n-k's: both figures at once. The
  // complement's residue is total - residue(x), so each residue of level k meets one residue of
  // level n-k, joined through a small set.
  template <class C>
  void complement_join(CensusResult& r, const Level<C>& cur, int k) {
    const Level<u64>* other = nullptr;
    Level<u64> self;
    if (2 * k == n_) {
      other = nullptr;
    } else {
      auto it = stored_.find(n_ - k);
      if (it == stored_.end()) return;
      other = &it->second;
    }
    std::vector<const Segment<C>*> segs;
    for (const auto& s : cur.seg) segs.push_back(&s);
    std::vector<Tally> tally(static_cast<std::size_t>(workers_));
    std::vector<std::vector<u64>> found(static_cast<std::size_t>(workers_));
    const bool collect = want_paths(r);
    std::atomic<std::size_t> cursor{0};
    team_.run(cur.size() < 4096 ? 1 : workers_, [&](int t) {
      KeySet set;
      Tally& my = tally[static_cast<std::size_t>(t)];
      alignas(64) u64 q[8];
      alignas(64) u32 orbit[8];
      for (;;) {
        const std::size_t si = cursor.fetch_add(1);
        if (si >= segs.size()) break;
        const Segment<C>& s = *segs[si];
        for (u32 res = s.lo; res < s.hi; ++res) {
          const std::size_t i0 = s.off[res - s.lo], i1 = s.off[res - s.lo + 1];
          if (i0 == i1) continue;
          const u32 cres = (total_weight_ - res) & kResidueMask;
          std::size_t count = 0;
          auto each = [&](auto&& f) {
            auto body = [&](const auto& seg, std::size_t a, std::size_t b) {
              for (std::size_t i = a; i < b; ++i) f(key_at(seg, i));
            };
            if (other)
              other->for_range(cres, cres + 1, body);
            else
              cur.for_range(cres, cres + 1, body);
          };
          each([&](u64) { ++count; });
          if (count == 0) continue;
          set.reset(count);
          each([&](u64 x) { set.insert_new(x); });
          for (std::size_t i = i0; i < i1; i += 8) {
            const std::size_t e = std::min<std::size_t>(8, i1 - i);
            for (std::size_t u = 0; u < 8; ++u) q[u] = s.key[i + (u < e ? u : 0)];
            kern_.twist8(q, q, orbit);  // the twisted complement's orbit is the position's size
            for (std::size_t u = 0; u < e; ++u) {
              const bool hit = set.template contains<kVec>(q[u]);
              my.sym += hit;
              my.raw += hit ? orbit[u] : 0;
              if (collect && hit) found[static_cast<std::size_t>(t)].push_back(s.key[i + u]);
            }
          }
        }
      }
    });
    u64 raw = 0, sym = 0;
    for (const Tally& x : tally) {
      raw += x.raw;
      sym += x.sym;
    }
    join_figures(r, k, raw, sym);
    if (collect) {
      std::vector<u64>& mine = paths_[static_cast<std::size_t>(k)];
      for (auto& f : found) mine.insert(mine.end(), f.begin(), f.end());
      std::sort(mine.begin(), mine.end());
      if (2 * k != n_) {
        std::vector<u64>& theirs = paths_[static_cast<std::size_t>(n_ - k)];
        alignas(64) u64 q[8];
        u32 orbit[8];
        for (std::size_t i = 0; i < mine.size(); i += 8) {
          const std::size_t e = std::min<std::size_t>(8, mine.size() - i);
          for (std::size_t u = 0; u < 8; ++u) q[u] = mine[i + (u < e ? u : 0)];
          kern_.twist8(q, q, orbit);
          theirs.insert(theirs.end(), q, q + e);
        }
        std::sort(theirs.begin(), theirs.end());
      }
    }
    if (other) stored_.erase(n_ - k);
  }

  // Level k's solution-path figures from the complement join, and level n-k's (the same).
  void join_figures(CensusResult& r, int k, u64 raw, u64 sym) {
    r.levels[static_cast<std::size_t>(k)].on_path_raw = raw;
    r.levels[static_cast<std::size_t>(k)].on_path_sym = sym;
    r.levels[static_cast<std::size_t>(n_ - k)].on_path_raw = raw;
    r.levels[static_cast<std::size_t>(n_ - k)].on_path_sym = sym;
    path_raw_ += 2 * k == n_ ? raw : 2 * raw;
  }

  // The complement join for the work item [lo, hi) of the level being built, whose positions
  // are in the worker's table: the other level's positions of the complementary residues,
  // twisted and complemented, looked up there.
  template <class C, Carry kCounts, class L>
  void join_item(Worker<C, kCounts>& w, const L& other, u32 lo, u32 hi, Tally& my,
                 bool collect) const {
    std::vector<u64>& q = w.join_keys;
    q.clear();
    auto body = [&](const auto& seg, std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) q.push_back(key_at(seg, i));
    };
    const u32 a = (total_weight_ - (hi - 1)) & kResidueMask, len = hi - lo;
    other.for_range(a, std::min(a + len, kResidues), body);
    if (a + len > kResidues) other.for_range(0, a + len - kResidues, body);
    const std::size_t m = q.size();
    if (m == 0) return;
    for (std::size_t i = m; i % 8; ++i) q.push_back(q[0]);
    alignas(64) u64 z[8];
    alignas(64) u32 orbit[8];
    for (std::size_t i = 0; i < m; i += 8) {
      kern_.twist8(q.data() + i, z, orbit);  // the twisted complement's orbit is the position's
      const std::size_t e = std::min<std::size_t>(8, m - i);
      for (std::size_t u = 0; u < e; ++u) {
        const bool hit = w.table.template contains<kVec>(z[u]);
        my.join_sym += hit;
        my.join_raw += hit ? orbit[u] : 0;
        if (collect && hit) {
          w.join_mine.push_back(z[u]);
          w.join_theirs.push_back(q[i + u]);
        }
      }
    }
  }

  // Whether the solution-path sets should be kept for the reordering count: only while they
  // stay within its limit.
  bool want_paths(const CensusResult&) const {
    return o_.keep_paths || (o_.distinct && path_raw_ <= o_.distinct_max_positions);
  }

  // Any other problem: from the goal positions upward, each level's solution-path positions are
  // the stored level's positions with a child on a solution path. A run of residues of level k
  // at a time (the stored level's segments), like the forward pass: the parents of the level
  // below's solution-path positions (their complements' jumps, undone) can only come from
  // residues shifted by the jump classes' deltas; they go into a set, and the stored positions
  // found in it are the run's solution-path positions.
  void backward(CensusResult& r) {
    if (goal_pegs_ > k0_) return;
    auto it = stored_.find(goal_pegs_);
    if (it == stored_.end()) return;
    Level<u64> below(pool_, mem_);
    {
      Bump b;
      b.begin(below.keys, true);
      for (const Segment<u64>& s : it->second.seg) {
        Segment<u64> t;
        t.lo = s.lo;
        t.hi = s.hi;
        t.off = b.alloc<u32>(s.hi - s.lo + 1);
        t.key = b.alloc<u64>(s.n + 1);
        const u64 goal = kern_.canon(goal_);
        for (u32 res = s.lo; res < s.hi; ++res) {
          t.off[res - s.lo] = static_cast<u32>(t.n);
          for (std::size_t i = s.off[res - s.lo]; i < s.off[res - s.lo + 1]; ++i) {
            const u64 x = key_at(s, i);
            if (p_.goal.kind == Goal::Kind::Any || x == goal) t.key[t.n++] = x;
          }
        }
        t.off[s.hi - s.lo] = static_cast<u32>(t.n);
        below.seg.push_back(t);
      }
    }
    stored_.erase(goal_pegs_);
    record_path_level(r, below, goal_pegs_);
    for (int k = goal_pegs_ + 1; k <= k0_ && below.size() > 0; ++k) {
      mem_.set_level(k);
      check_cancel();
      auto up_it = stored_.find(k);
      if (up_it == stored_.end()) break;
      const Level<u64>& up = up_it->second;
      Level<u64> next(pool_, mem_);
      next.seg.resize(up.seg.size());
      std::atomic<std::size_t> cursor{0};
      const bool small = up.size() < kSmallLevel;
      report("backward", k, positions_, 1000 * static_cast<u64>(k0_ - 1 + k - 1 - goal_pegs_));
      team_.run(up.size() < 4096 ? 1 : workers_, [&](int) {
        KeySet cand;
        Bump b;
        b.begin(next.keys, small);
        alignas(64) u64 batch[kBatch + 64];
        std::size_t nb = 0;
        auto flush = [&] {
          canon_batch(batch, nb);
          for (std::size_t q = 0; q < nb; ++q) cand.insert(batch[q]);
          nb = 0;
        };
        for (;;) {
          const std::size_t si = cursor.fetch_add(1);
          if (si >= up.seg.size()) break;
          check_cancel();
          const Segment<u64>& s = up.seg[si];
          Segment<u64>& out = next.seg[si];
          out.lo = s.lo;
          out.hi = s.hi;
          out.off = b.alloc<u32>(s.hi - s.lo + 1);
          out.key = b.alloc<u64>(s.n + 1);
          cand.reset(s.n);
          for (const Spec& sp : specs_) {
            const u32 lo = (s.lo + sp.delta) & kResidueMask, len = s.hi - s.lo;
            auto gather = [&](const Segment<u64>& bs, std::size_t i0, std::size_t i1) {
              for (std::size_t i = i0; i < i1; ++i) {
                const u64 x = bs.key[i];
                for (int j = 0; j < sp.n; ++j) {
                  const std::size_t u = static_cast<std::size_t>(j);
                  // Undone: x holds the jump's landing peg and neither of the holes it left.
                  if ((x & sp.need[u]) == (sp.need[u] ^ sp.have[u])) batch[nb++] = x ^ sp.flip[u];
                }
                if (nb >= kBatch) flush();
              }
            };
            below.for_range(lo, std::min(lo + len, kResidues), gather);
            if (lo + len > kResidues) below.for_range(0, lo + len - kResidues, gather);
          }
          flush();
          for (u32 res = s.lo; res < s.hi; ++res) {
            out.off[res - s.lo] = static_cast<u32>(out.n);
            for (std::size_t i = s.off[res - s.lo]; i < s.off[res - s.lo + 1]; ++i) {
              const u64 x = key_at(s, i);
              if (cand.template contains<kVec>(x)) out.key[out.n++] = x;
            }
          }
          out.off[s.hi - s.lo] = static_cast<u32>(out.n);
        }
      });
      stored_.erase(k);
      record_path_level(r, next, k);
      below = std::move(next);
    }
    stored_.clear();
  }

  // Level k's solution-path figures from its positions (and the positions themselves, sorted,
  // while the reordering count may still run).
  void record_path_level(CensusResult& r, const Level<u64>& lv, int k) {
    CensusLevel& figures = r.levels[static_cast<std::size_t>(k)];
    figures.on_path_sym = lv.size();
    figures.on_path_raw = 0;
    alignas(64) u64 in[8];
    u32 orbit[8], moves[8];
    for (const Segment<u64>& s : lv.seg)
      for (std::size_t i = 0; i < s.n; i += 8) {
        const std::size_t e = std::min<std::size_t>(8, s.n - i);
        for (std::size_t u = 0; u < 8; ++u) in[u] = s.key[i + (u < e ? u : 0)];
        kern_.describe8(in, orbit, moves);
        for (std::size_t u = 0; u < e; ++u) figures.on_path_raw += orbit[u];
      }
    path_raw_ += figures.on_path_raw;
    if (want_paths(r)) {
      std::vector<u64>& keys = paths_[static_cast<std::size_t>(k)];
      for (const Segment<u64>& s : lv.seg) keys.insert(keys.end(), s.key, s.key + s.n);
      std::sort(keys.begin(), keys.end());
    }
  }

  // CensusResult::paths from the kept keys: layout bits, each the least of its orbit under the
  // census group by Geometry::canonical (the kernels' canonical form orders keys, not layouts).
  void export_paths(CensusResult& r) const {
    std::array<int, 64> key_to_layout{};
    for (int h = 0; h < n_; ++h)
      key_to_layout[static_cast<std::size_t>(std::countr_zero(kern_.bit(h)))] = b_.bit(h);
    r.symmetries = syms_;
    r.paths.assign(paths_.size(), {});
    for (std::size_t k = 0; k < paths_.size(); ++k) {
      std::vector<std::uint64_t>& out = r.paths[k];
      out.reserve(paths_[k].size());
      for (u64 key : paths_[k]) {
        Pos x;
        for (u64 m = key; m; m &= m - 1)
          x.set(key_to_layout[static_cast<std::size_t>(std::countr_zero(m))]);
        out.push_back(g_.canonical(x, syms_).w[0]);
      }
      std::sort(out.begin(), out.end());
    }
    r.paths_kept = true;
  }

  // Solutions up to reordering of independent jumps (paths.hpp), over the solution paths.
  void distinct(CensusResult& r) {
    if (goal_pegs_ > k0_ || k0_ == 0 || r.solutions == 0) {
      r.distinct_solutions = 0;
      return;
    }
    r.distinct_note = distinct_skip_reason(r.levels, o_);
    if (!r.distinct_note.empty() || !o_.on_path) {
      if (r.distinct_note.empty()) r.distinct_note = "skipped: the solution-path pass did not run";
      paths_.clear();
      return;
    }
    try {
      r.distinct_solutions = distinct_solutions(
          g_, g_.to_bits(p_.start), goal_pegs_, mem_, run_.control,
          [&](const Pos& x, int k) {
            const auto& v = paths_[static_cast<std::size_t>(k)];
            return std::binary_search(v.begin(), v.end(), kern_.canon(to_key(x)));
          },
          [&](const Pos& x) { return is_goal(x); });
    } catch (const CensusError& e) {
      r.distinct_note = e.what();
    }
    paths_.clear();
  }

  const Problem& p_;
  const CensusOptions& o_;
  const Board& b_;
  Geometry<64> g_;
  Kernel kern_;
  std::vector<int> syms_;
  RunControl run_;
  Memory mem_;
  int workers_ = 1, n_ = 0, k0_ = 0, goal_pegs_ = 1;
  WorkerPool team_;  // the run's threads, for every level of every pass
  u64 units_ = 0;    // progress units of the whole run
  std::array<u64, 64> layout_to_key_{};
  u64 start_ = 0, goal_ = 0;
  bool complementary_ = false;
  std::vector<std::pair<u64, u32>> classes_;  // weight classes: key mask, weight
  u32 total_weight_ = 0;                      // the residue of the full board
  std::vector<Spec> specs_;
  double ratio_ = 0.1;         // positions per unit of the work-item estimate, from the last level
  std::vector<u32> est_size_;  // expand()'s parents per residue
  std::vector<u64> est_;       // and expected children
  u128 paths_out_ = 0;  // paths leaving the current level: a bound on the next level's counts
  u64 positions_ = 0;
  u64 path_raw_ = 0;  // raw solution-path positions found so far
  int joined_ = -1;   // the last level whose complement join ran while it was built

  Pool pool_{mem_};
  std::map<int, Level<u64>> stored_;  // levels kept (keys) for the solution-path passes
  template <class C>
  using WorkersOf = std::tuple<std::vector<std::unique_ptr<Worker<C, kPaths>>>,
                               std::vector<std::unique_ptr<Worker<C, kChance>>>>;
  std::vector<std::unique_ptr<Worker<u64, kKeys>>> sets_workers_;
  WorkersOf<u64> narrow_workers_;
  WorkersOf<u128> wide_workers_;
  std::vector<std::vector<u64>> paths_;  // solution-path keys by level, for the reordering count
  Clock::time_point t0_, last_report_;
};

template <class Kernel, bool kVec>
CensusResult run(const Problem& p, const CensusOptions& o, Kernel kernel, std::vector<int> syms,
                 int twist, bool wide_counts) {
  return Engine<Kernel, kVec>(p, o, std::move(kernel), std::move(syms), twist).run(wide_counts);
}

}  // namespace

CensusResult compact_census_isa(const Problem& p, const CensusOptions& o,
                                const std::vector<int>& syms, int twist, bool wide_counts) {
  const Board& b = *p.board;
  const int t = std::max(twist, 0);
#if PEGSOL_AVX512
  if (auto grid = GridKernel::make(b, syms, t))
    return run<GridKernel, true>(p, o, std::move(*grid), syms, twist, wide_counts);
  return run<TableKernel, true>(p, o, TableKernel(b, syms, t), syms, twist, wide_counts);
#elif PEGSOL_AVX2
  if (auto grid = Avx2GridKernel::make(b, syms, t))
    return run<Avx2GridKernel, false>(p, o, std::move(*grid), syms, twist, wide_counts);
  return run<TableKernel, false>(p, o, TableKernel(b, syms, t), syms, twist, wide_counts);
#else
  if (auto grid = ScalarGridKernel::make(b, syms, t))
    return run<ScalarGridKernel, false>(p, o, std::move(*grid), syms, twist, wide_counts);
  return run<TableKernel, false>(p, o, TableKernel(b, syms, t), syms, twist, wide_counts);
#endif
}

}  // namespace pegsol::census_detail::PEGSOL_CENSUS_ISA

#ifdef PEGSOL_CENSUS_TARGET
PEGSOL_TARGET_END
#endif
