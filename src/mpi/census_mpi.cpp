// SPDX-License-Identifier: MIT
// The distributed census (census_mpi.hpp): forward pass with counts and chances, the
// solution-path pass by queries to the owners, and the figures on rank 0.
#include "census_mpi.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <csignal>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "../census/checkpoint.hpp"
#include "../census/engine.hpp"
#include "../census/paths.hpp"
#include "../census/residues.hpp"
#include "../census/skeleton.hpp"
#include "../census/wide_table.hpp"
#include "../core/geometry.hpp"
#include "../core/hash.hpp"
#include "../core/layout.hpp"
#include "../core/probe.hpp"
#include "../core/symmetry.hpp"
#include "checkpoint_files.hpp"
#include "exchange.hpp"
#include "next_level.hpp"
#include "pegsol/error.hpp"
#include "rank_level.hpp"
#include "spill_dir.hpp"

namespace pegsol::mpi {

namespace {

using census_detail::add_count;
using census_detail::Booked;
using census_detail::Memory;
using census_detail::MemoryExceeded;
using census_detail::wide::absorb;
using census_detail::wide::by_key;
using u64 = std::uint64_t;
using u32 = std::uint32_t;
using Pos = Bits<64>;

// A position of a level on its owner: the canonical key, the jump sequences reaching its orbit
// (128 bits as two words) and the random player's chance of passing through the orbit (prob):
// the wide engine's entry (census/wide_table.hpp).
using Entry = census_detail::wide::Entry<64>;

// A table's free slot (key 0: the empty position, which no level holds).
inline bool free_slot(const Entry& e) {
  return e.key.none();
}

// A child on its way to its owner. A rank sends a round's children in the order of their
// parents' (residue, key), and the ranks' residue ranges are in rank order, so the owner adds
// the shares of a child in that order by taking the senders' parts in rank order: the sums are
// the same for every number of ranks.
//
//   child key | count lo | count hi | share (the parent's chance / its jumps)
struct Edge {
  u64 child = 0, lo = 0, hi = 0;
  double share = 0;
};
static_assert(sizeof(Edge) == 32);

// Positions of one residue a round takes together, at most: a level's blocks (block() positions
// of a residue, in storage order) are dealt to the rounds by a hash of (residue, block), so a
// round reads the level in runs of consecutive positions (in memory or in the pool's spill file)
// rather than one position here and one there, and deals the same parents for any K. A block is
// at most a 256th of a round, so that the rounds' sizes stay even (blocks of 128 in the tests'
// rounds of 512 parents made rounds of 508 to 5,985 children, median 2,993).
constexpr std::uint32_t kBlock = 128;

// Solution-path positions turned into queries per round, over all ranks together (so that what
// a rank receives in a round stays far under the 2 GiB an exchange can carry).
constexpr u64 kRoundQueries = u64{1} << 17;

inline Pos pos(u64 key) {
  Pos p;
  p.w[0] = key;
  return p;
}

// The children of one round, each with its count and its shares added in the order they come
// (their parents' (residue, key) order): one entry per child, listed in the order of their first
// add. Sized for the round, never rehashed; its storage stays from round to round.
class RoundTable {
 public:
  explicit RoundTable(Memory& m) : slots_(m), used_(m) {}
  // Empty, with room for n children.
  void reset(std::size_t n) {
    std::size_t cap = 1024;
    while (cap * 7 < n * 10) cap *= 2;
    if (cap > slots_.size()) {
      slots_.release();
      slots_.assign(cap, Entry{});
    }
    mask_ = slots_.size() - 1;
    used_.clear();
    used_.reserve(n);
  }
  void prefetch(u64 key) const { __builtin_prefetch(&slots_.vec()[mix64(key) & mask_]); }
  // Adds the edge's count and share to its child's entry.
  void add(const Edge& e) {
    const std::size_t i = probe_slot(slots_.vec().data(), mask_, mix64(e.child), free_slot,
                                     [&](const Entry& x) { return x.key.w[0] == e.child; });
    Entry& x = slots_[i];
    const Entry y{pos(e.child), e.lo, e.hi, e.share};
    if (x.key.none()) {
      x = y;
      used_.vec().push_back(static_cast<std::uint32_t>(i));
      return;
    }
    absorb(x, y);
  }
  std::size_t size() const { return used_.size(); }
  std::size_t bytes() const {
    return slots_.vec().capacity() * sizeof(Entry) + used_.vec().capacity() * sizeof(std::uint32_t);
  }
  // Calls f(const Entry&) for every child: in slot order, one pass over the slots (in the order
  // of their first add, one slot here and one there, it cost a cache miss a child), unless the
  // slots, sized for the largest round so far, are mostly empty.
  template <class F>
  void each(F&& f) const {
    if (used_.size() * 8 < slots_.size()) {
      for (std::uint32_t i : used_.vec()) f(slots_[i]);
      return;
    }
    for (const Entry& x : slots_.vec())
      if (!x.key.none()) f(x);
  }
  // Empties the table (its storage stays).
  void clear() {
    for (std::uint32_t i : used_.vec()) slots_[i] = Entry{};
    used_.clear();
  }
  void release() {
    slots_.release();
    used_.release();
  }

 private:
  Booked<Entry> slots_;
  Booked<std::uint32_t> used_;
  std::size_t mask_ = 0;
};

// One rank's part of a distributed census: it owns its share of every level and its tables.
class DistributedCensus : public census_detail::Context<64> {
 public:
  DistributedCensus(const Problem& p, const CensusOptions& o, MPI_Comm comm, RankLedger& ledger,
                    const Checkpoint& cp, const RankOptions& ro)
      : Context<64>(p, o, problem_symmetries(*p.board, p, o.symmetry), 1),
        spill_(ro.spill_dir),
        round_parents_(std::max<u64>(1, ro.round_parents)),
        wide_counts_(ro.wide_counts),
        cp_(cp),
        ex_(comm, ledger),
        ledger_(ledger),
        pool_(mem_),
        cur_(pool_, mem_),
        next_(std::make_unique<NextLevel>(mem_, pool_, spill_.path())) {
    // The pool's free chunks (the tables' memory between levels) go when the ledger is short.
    mem_.set_reclaim([this] { return pool_.release_free(); });
    for (const Pos& im : jump_images()) sym_jump_.push_back(im.w[0]);  // [symmetry][jump]
    // The compact engine's residues (its census group and complement twist), in layout bits: the
    // residue is linear in the pegs, so it is the sum of one look-up per byte of the key.
    const census_detail::ResidueWeights rw =
        census_detail::residue_weights(b_, syms_, census_detail::complement_twist(b_, p_));
    residue_classes_ = rw.classes([&](int h) { return u64{1} << layout(b_).bit(h); });
    for (const Jump& jp : b_.jumps()) {
      const u32 delta =
          (rw.of(jp.to) - rw.of(jp.from) - rw.of(jp.over)) & census_detail::kResidueMask;
      auto it = std::find_if(deltas_.begin(), deltas_.end(),
                             [&](const auto& d) { return d.first == delta; });
      if (it == deltas_.end())
        deltas_.emplace_back(delta, 1);
      else
        ++it->second;
    }
    // This rank's residues: those whose owner() is the rank.
    const auto first = [&](u64 r) {
      return static_cast<u32>((r * census_detail::kResidues + static_cast<u64>(ex_.size()) - 1) /
                              static_cast<u64>(ex_.size()));
    };
    res_lo_ = first(static_cast<u64>(ex_.rank()));
    res_hi_ = first(static_cast<u64>(ex_.rank()) + 1);
    for (int h = 0; h < b_.size(); ++h) {
      const int bit = layout(b_).bit(h);
      for (u32 v = 0; v < 256; ++v)
        if ((v >> (bit % 8)) & 1)
          residue_bytes_[static_cast<std::size_t>(bit / 8)][v] = static_cast<std::uint16_t>(
              residue_bytes_[static_cast<std::size_t>(bit / 8)][v] + rw.of(h));
    }
  }

  CensusResult run() {
    const bool store = o_.on_path || o_.distinct;
    CensusResult r = run_engine(
        static_cast<int>(syms_.size()), 0,
        [&](CensusResult& res) {
          forward(res, store);
          if (store) on_path(res);
          if (ex_.rank() == 0) ex_.guarded([&] { up_to_symmetry(res); });
          ex_.agree(run_.control);
          if (o_.distinct) distinct(res);
        },
        false);  // progress goes through progress(), collectively
    r.threads = ex_.size();
    r.random_player = census_detail::reports_chances(p_, o_);
    if (!r.random_player) {
      r.p_one_peg = r.p_goal = 0;
      std::fill(r.p_by_hole.begin(), r.p_by_hole.end(), 0.0);
    }
    ledger_.peak_bytes = mem_.peak();
    ledger_.spill_file_bytes = pool_.spill_peak();
    ledger_.bucket_ranges = next_->bucket_ranges();
    ledger_.bucket_bytes = next_->bucket_bytes();
    ledger_.seconds = r.seconds;
    r.peak_bytes = static_cast<std::size_t>(ex_.sum(static_cast<u64>(mem_.peak())));
    return r;
  }

 private:
  // The compact engine's residue of a position (census/residues.hpp): the same for its orbit.
  u32 residue(u64 key) const {
    u32 s = 0;
    for (std::size_t i = 0; i < 8; ++i, key >>= 8) s += residue_bytes_[i][key & 0xff];
    return s & census_detail::kResidueMask;
  }
  // The rank that owns a position: rank r owns the residues [r, r + 1) * 2^16 / K.
  int owner(u64 key) const {
    return static_cast<int>((static_cast<u64>(residue(key)) * static_cast<u64>(ex_.size())) >>
                            census_detail::kResidueBits);
  }
  // With --spill-dir: drops the levels' pages in the pool's spill file from the process's memory
  // when it holds more than shed_at_: the memory limit less an eighth, or after a shed what it
  // held then and 16 MiB more (so that pages in use are not dropped at every call) but no more
  // than the limit, unless what it holds after a shed already passes the limit (the tests' limits
  // of a few MB: nothing to gain there). Not the pool's own policy (Pool::over: the limit less a
  // sixteenth, then 16 MiB more than after the last shed, limit or not): a rank's tables and
  // buffers come near that at a tight limit, and take memory by the megabyte between two calls
  // here (a level's tables, a round's buffers), and it went 2-14 MiB over its limit.
  // `now`: whatever the rank holds (before it takes memory at once: a level's tables).
  void shed(bool now = false) {
    if (!pool_.spilled() || (!now && census_detail::resident_bytes() <= shed_at_)) return;
    cur_.shed();
    for (const StoredKeys& s : stored_) s.shed();
    const std::size_t held = census_detail::resident_bytes() + (std::size_t{16} << 20);
    const std::size_t floor = mem_.limit() - mem_.limit() / 8;
    shed_at_ = held - (std::size_t{16} << 20) > mem_.limit()
                   ? held
                   : std::max(floor, std::min(held, mem_.limit()));
  }
  // Collective: the control gets the level, the positions so far and the most any rank holds.
  void progress(int level, u64 positions) {
    const u64 most = ex_.max(mem_.used());
    ProgressReport pr;
    pr.phase = "forward";
    pr.level = level;
    pr.positions = positions;
    pr.memory_bytes = static_cast<std::size_t>(most);
    run_.control.report(pr);
  }

  // Forward pass: every level from the start's down to one peg, each rank expanding its own
  // positions and receiving its children. Keeps each level's keys when the later passes need
  // them.
  void forward(CensusResult& r, bool store) {
    const int n = b_.size();
    r.levels.assign(static_cast<std::size_t>(n + 1), CensusLevel{});
    r.solutions_by_hole.assign(static_cast<std::size_t>(n), 0);
    r.p_by_hole.assign(static_cast<std::size_t>(n), 0.0);
    stored_.reserve(static_cast<std::size_t>(n + 1));
    for (int k = 0; k <= n; ++k) {
      stored_.emplace_back(pool_, mem_);
      path_.emplace_back(mem_);
    }
    // The levels' arrays to the pool's spill file in this rank's directory (Pool::spill_to) once
    // the rank's booked memory would pass half the limit.
    if (spill_.enabled()) {
      shed_at_ = mem_.limit() - mem_.limit() / 8;
      ex_.guarded([&] { pool_.spill_to(spill_.path()); });
      ex_.agree(run_.control);
    }
    k0_ = start_pos_.count();
    if (k0_ == 0) {
      r.levels[0] = {1, 1, 0, 0, 1};
      r.games = 1;
      return;
    }
    int from = k0_;
    if (cp_.resume) {
      from = resume(r, store);
    } else {
      const u64 s0 = canon(start_pos_).w[0];
      if (owner(s0) == ex_.rank())
        ex_.guarded([&] {
          cur_.build(
              res_lo_, res_hi_, [&](auto&& g) { g(s0); }, [&](auto&& f) { f(s0, Count{1}, 1.0); },
              [&](u64 key) { return residue(key); });
        });
    }
    for (int k = from; k >= 1; --k) {
      mem_.set_level(k);
      const u64 total = ex_.sum(static_cast<u64>(cur_.size()));
      if (total == 0) break;
      ledger_.stored += cur_.size();
      ledger_.largest_level = std::max<u64>(ledger_.largest_level, cur_.size());
      ex_.guarded([&] {
        if (!store) return;
        // Sorted by key (the level is by residue first) for the solution-path pass's searches.
        const std::size_t n = cur_.size();
        u64* keys = stored_[static_cast<std::size_t>(k)].assign(n);
        std::copy(cur_.keys(), cur_.keys() + n, keys);
        // The radix sort's copy from the tables' memory, unless it would take more than half
        // of what the memory limit leaves.
        const std::size_t held = mem_.used() - std::min(mem_.used(), next_->spare());
        census_detail::Blocks::Block copy;
        if (n >= 1024 && n * sizeof(u64) <= (mem_.limit() - std::min(mem_.limit(), held)) / 2)
          copy = census_detail::Blocks::Block(next_->blocks(), n * sizeof(u64));
        sort_keys(keys, n, reinterpret_cast<u64*>(copy.data()));
        shed();
      });
      ex_.agree(run_.control);
      if (!cp_.dir.empty() && !(cp_.resume && k == from)) save(r, k, store);
      at_level(r, k);
      expand(r, k, total);
      positions_ += total;
      progress(k - 1, positions_);
    }
  }

  // A fingerprint of what the checkpoint files depend on: the problem, the options that change
  // what is stored, and the number of ranks (which decides every position's owner).
  u64 fingerprint(bool store) const {
    census_detail::Fingerprint f;
    auto add = [&](u64 x) { f.word(x); };
    add(start_pos_.w[0]);
    add(static_cast<u64>(b_.size()));
    for (char c : b_.name()) add(static_cast<u64>(static_cast<unsigned char>(c)));
    add(static_cast<u64>(p_.goal.kind));
    add(goal_pos_.w[0]);
    add(static_cast<u64>(syms_.size()));
    add(store);
    add(census_detail::reports_chances(p_, o_));
    add(static_cast<u64>(ex_.size()));
    add(round_parents_);
    for (const auto& [mask, w] : residue_classes_) add(mask ^ (u64{w} << 40));
    return f.value();
  }

  // Writes this rank's part of level k (complete, not yet expanded, its keys stored when the
  // later passes need them) and the figures so far, then commits level k once every rank has,
  // and drops the files of level k+1.
  void save(const CensusResult& r, int k, bool store) {
    namespace ck = checkpoint;
    const int me = ex_.rank();
    ex_.guarded([&] {
      census_detail::FileWriter level(ck::path(cp_.dir, me, k, "level"));
      cur_.write_to(level);
      level.commit();
      if (store) {
        const StoredKeys& keys = stored_[static_cast<std::size_t>(k)];
        ck::write_file(ck::path(cp_.dir, me, k, "keys"), keys.begin(), keys.size() * sizeof(u64));
      }
      census_detail::FileWriter f(ck::path(cp_.dir, me, k, "state"));
      f.write(ck::kMagic, sizeof ck::kMagic);
      for (u64 x : {fingerprint(store), static_cast<u64>(ex_.size()), static_cast<u64>(me),
                    static_cast<u64>(k), last_total_, positions_})
        f.put(x);
      census_detail::put_figures(f, r);
      f.commit();
    });
    ex_.agree(run_.control);
    if (me == 0) ex_.guarded([&] { ck::write_committed(cp_.dir, k); });
    ex_.agree(run_.control);
    std::remove(ck::path(cp_.dir, me, k + 1, "level").c_str());
    std::remove(ck::path(cp_.dir, me, k + 1, "state").c_str());
    if (cp_.crash_after_level == k) std::raise(SIGKILL);
  }

  // Loads this rank's part of the last committed level, the keys of the levels above it and
  // the figures so far; returns the level.
  int resume(CensusResult& r, bool store) {
    namespace ck = checkpoint;
    const int me = ex_.rank();
    int k = 0;
    if (me == 0) ex_.guarded([&] { k = ck::read_committed(cp_.dir); });
    ex_.agree(run_.control);
    MPI_Bcast(&k, 1, MPI_INT, 0, ex_.comm());
    ex_.guarded([&] {
      const std::string file = ck::path(cp_.dir, me, k, "state");
      // An earlier format, told by its magic before its checksum is checked.
      const std::string head = census_detail::file_head(file, sizeof ck::kMagic);
      for (const ck::Earlier& e : ck::kEarlier)
        if (head == std::string_view(e.magic, sizeof e.magic))
          throw CensusError("checkpoint: " + file + " is in an earlier format (" + e.what +
                            ") written by an older pegsol-mpi, which this one does not read; "
                            "run the census again without --resume");
      census_detail::FileReader f(file);
      char magic[sizeof ck::kMagic];
      f.read(magic, sizeof magic);
      if (std::memcmp(magic, ck::kMagic, sizeof magic) != 0)
        throw CensusError("checkpoint: " + file + " is not a census state");
      const u64 print = f.get<u64>(), ranks = f.get<u64>(), rank = f.get<u64>(),
                level = f.get<u64>();
      if (print != fingerprint(store) || ranks != static_cast<u64>(ex_.size()) ||
          rank != static_cast<u64>(me) || level != static_cast<u64>(k))
        throw CensusError("checkpoint: " + cp_.dir +
                          " was written by another census (another problem, other options or "
                          "another number of ranks: resume with the same command and -np)");
      last_total_ = f.get<u64>();
      positions_ = f.get<u64>();
      census_detail::get_figures(f, r);
      if (!f.at_end()) throw CensusError("checkpoint: " + file + " is damaged (bytes left over)");
      census_detail::FileReader g(ck::path(cp_.dir, me, k, "level"));
      cur_.read_from(g);
      if (!g.at_end())
        throw CensusError("checkpoint: " + g.name() + " is damaged (bytes left over)");
      if (store)
        for (int j = k + 1; j <= k0_; ++j)
          ck::read_records<u64>(ck::path(cp_.dir, me, j, "keys"), [&](std::size_t m) {
            return stored_[static_cast<std::size_t>(j)].assign(m);
          });
    });
    ex_.agree(run_.control);
    return k;
  }

  // What a finished level k gives before it is expanded: a whole goal's count and chance, and
  // on the one-peg level the figures by hole.
  void at_level(CensusResult& r, int k) {
    if (k == goal_pegs_ && p_.goal.kind == Goal::Kind::Position && k > 1) {
      Count c = 0;
      double chance = 0;
      const u64 key = canon(goal_pos_).w[0];
      const std::ptrdiff_t i = cur_.find(key, residue(key));
      if (i >= 0) {
        const auto d = static_cast<std::size_t>(i);
        const auto orbit = static_cast<unsigned>(orbit_size(pos(key)));
        int moves = 0;
        g_.for_each_jump(pos(key), [&](int) { ++moves; });
        // As the one-process engine forms it: the share times the jumps, over the orbit.
        const double share = moves ? cur_.chance(d) / moves : cur_.chance(d);
        c = cur_.count(d) / orbit;
        chance = share * std::max(moves, 1) / orbit;
      }
      ex_.from_owner(c, chance);
      r.solutions = c;
      r.p_goal = chance;
    }
    if (k == 1) singles(r);
  }

  // One peg left, on rank 0: counts and chances by hole (the one-peg chance summed in key
  // order), and the one-peg goals' solutions.
  void singles(CensusResult& r) {
    std::vector<Entry> mine(cur_.size());
    for (std::size_t d = 0; d < cur_.size(); ++d) {
      mine[d].key = pos(cur_.key(d));
      mine[d].set_count(cur_.count(d));
      mine[d].prob = cur_.chance(d);
    }
    std::vector<Entry> all = ex_.gather(std::move(mine));
    std::sort(all.begin(), all.end(), by_key<64>);
    for (const Entry& e : all) {
      const auto orbit = static_cast<unsigned>(orbit_size(e.key));
      for (int s : syms_) {
        const auto h =
            static_cast<std::size_t>(layout(b_).hole_at_bit(g_.apply(s, e.key).lowest()));
        r.solutions_by_hole[h] = e.count() / orbit;
        r.p_by_hole[h] = e.prob / orbit;
      }
      r.p_one_peg += e.prob;
    }
    goal_figures(r);
  }

  // Builds level k-1 from level k (`total` positions over all ranks) in rounds: round i expands
  // the blocks of group i (a hash of the residue and the block) in storage order, which is the
  // order of the parents' (residue, key), every child goes to its owner, and the owner adds each
  // round's children in that order of their parents.
  void expand(CensusResult& r, int k, u64 total) {
    const u64 groups = std::max<u64>(1, (total + round_parents_ - 1) / round_parents_);
    const auto size = static_cast<std::size_t>(ex_.size());
    // The level's blocks bucketed by group, each bucket in storage order: a block's first
    // position in `order`, its last one's bit set in `last` (4 bytes a block and a bit a
    // position: a block each of a sparse level's positions held twice the 4 bytes a position of
    // the order by key before, and the tests' spill limits stopped on it).
    Booked<u32> order(mem_);
    Booked<u64> last(mem_);
    // The end of the block that starts at d0.
    auto block_end = [&](std::size_t d0) {
      std::size_t w = d0 / 64;
      u64 bits = last[w] >> (d0 % 64);
      if (bits) return d0 + static_cast<std::size_t>(std::countr_zero(bits)) + 1;
      while (!(bits = last[++w])) {
      }
      return w * 64 + static_cast<std::size_t>(std::countr_zero(bits)) + 1;
    };
    std::vector<std::size_t> first(groups + 1, 0);
    auto group = [&](u32 res, u32 j) {
      return mix64((u64{res} << 32 | j) ^ 0x5851f42d4c957f2dull) % groups;
    };
    // Calls f(group, d0, d1) for each block of the level, in storage order.
    const auto block = static_cast<std::size_t>(std::clamp<u64>(round_parents_ / 256, 1, kBlock));
    auto each_block = [&](auto&& f) {
      cur_.for_each_residue([&](u32 res, std::size_t d0, std::size_t d1) {
        for (u32 j = 0; d0 < d1; ++j, d0 += block)
          f(group(res, j), static_cast<u32>(d0),
            static_cast<u32>(std::min<std::size_t>(d1, d0 + block)));
      });
    };
    ex_.guarded([&] {
      std::size_t blocks = 0;
      each_block([&](u64 g, u32, u32) {
        ++first[g + 1];
        ++blocks;
      });
      for (u64 i = 0; i < groups; ++i) first[i + 1] += first[i];
      order.reserve(blocks);
      order.vec().resize(blocks);
      last.assign((cur_.size() + 63) / 64, 0);
      std::vector<std::size_t> at(first.begin(), first.end() - 1);
      each_block([&](u64 g, u32 d0, u32 d1) {
        order[at[g]++] = d0;
        last[(d1 - 1) / 64] |= u64{1} << ((d1 - 1) % 64);
      });
    });
    // Whether the next level's counts fit one word on every rank (its tables' counts then do).
    const bool narrow =
        !wide_counts_ &&
        ex_.max(NextLevel::fits(cur_.count_sum(), b_.jumps().size(), ex_.size()) ? 0 : 1) == 0;
    CensusLevel lv;
    // Expected positions of the next level on this rank: this level's growth again; each
    // residue's part of them as the compact engine's work items estimate it (Expected), from the
    // level's positions by residue over all ranks (the ranks' residues are in rank order, so the
    // gathered list is ascending).
    const double growth = last_total_ ? static_cast<double>(total) / last_total_ : 1.0;
    std::vector<std::pair<u32, u32>> parents;
    cur_.for_each_residue([&](u32 res, std::size_t d0, std::size_t d1) {
      parents.emplace_back(res, static_cast<u32>(d1 - d0));
    });
    parents = ex_.all_gather(parents);
    const std::vector<std::pair<u32, u64>>& weight =
        expected_.of(res_lo_, res_hi_, parents, deltas_);
    RoundTable round(mem_);
    ex_.guarded([&] {
      // The level's pages written by its build drop before the tables take their memory.
      shed(true);
      const double expect = std::min(static_cast<double>(total) * growth * 1.05 / ex_.size(),
                                     static_cast<double>(total) * 16);
      // With a spill directory the tables start within a quarter of what is free (a range goes
      // to its bucket rather than growing past the limit).
      double start = expect;
      const std::size_t slot =
          narrow ? NextLevelOf<u64>::kSlotBytes : NextLevelOf<Words>::kSlotBytes;
      if (spill_.enabled()) {
        const std::size_t held = mem_.used() - std::min(mem_.used(), next_->spare());
        const std::size_t free = mem_.limit() > held ? mem_.limit() - held : 0;
        start = std::min(start, static_cast<double>(free / 4 / slot) * 0.8);
      }
      next_->begin(narrow, res_lo_, res_hi_, weight, static_cast<std::size_t>(expect),
                   static_cast<std::size_t>(start), spill_.enabled());
    });
    last_total_ = total;
    const std::size_t nj = b_.jumps().size(), ns = syms_.size();
    std::vector<u64> imgs(ns);
    std::vector<int> kids(nj);
    // Two sets of buffers: round i's records travel while round i+1 is generated.
    std::array<Booked<Edge>, 2> in{Booked<Edge>(mem_), Booked<Edge>(mem_)};
    std::array<std::vector<Booked<Edge>>, 2> out;
    for (auto& o : out)
      for (std::size_t d = 0; d < size; ++d) o.emplace_back(mem_);
    std::array<std::vector<std::size_t>, 2> from;
    std::array<Exchange::Pending, 2> pending;
    // Round gi's children into out[gi % 2], moving the exchange in flight (if any) on.
    auto generate = [&](u64 gi, Exchange::Pending* travelling) {
      std::vector<Booked<Edge>>& o = out[gi & 1];
      ex_.guarded([&] {
        std::size_t done = 0;
        for (std::size_t q = first[gi]; q < first[gi + 1]; ++q)
          for (std::size_t d = order[q], d1 = block_end(d); d < d1; ++d, ++done) {
            if ((done & 1023) == 0) {
              if (travelling) Exchange::progress(*travelling);
              shed();
            }
            if (d + 1 == d1 && q + 1 < first[gi + 1]) cur_.prefetch(order[q + 1]);
            const u64 key = cur_.key(d);
            const Count count = cur_.count(d);
            const auto lo = static_cast<u64>(count), hi = static_cast<u64>(count >> 64);
            int stab = 0;
            for (std::size_t s = 0; s < ns; ++s) {
              imgs[s] = g_.apply(syms_[s], pos(key)).w[0];
              stab += imgs[s] == key;
            }
            ++lv.reachable_sym;
            lv.reachable_raw += static_cast<u64>(static_cast<int>(ns) / stab);
            std::size_t nk = 0;
            g_.for_each_jump(pos(key), [&](int j) { kids[nk++] = j; });
            if (nk == 0) {
              add_count(lv.games, count);
              continue;
            }
            ledger_.edges += nk;
            const double share = cur_.chance(d) / static_cast<double>(nk);
            for (std::size_t u = 0; u < nk; ++u) {
              const auto j = static_cast<std::size_t>(kids[u]);
              u64 best = imgs[0] ^ sym_jump_[j];
              for (std::size_t s = 1; s < ns; ++s)
                best = std::min(best, imgs[s] ^ sym_jump_[s * nj + j]);
              o[static_cast<std::size_t>(owner(best))].push_back(Edge{best, lo, hi, share});
            }
          }
      });
    };
    // Round b's children, received, into the level, in the order of their parents' keys.
    auto fold = [&](std::size_t b) {
      ex_.guarded([&] {
        shed();  // (before the tables grow: nothing is checked while they do)
        round.reset(in[b].size());
        add_round(round, in[b]);
        // What the rounds' buffers hold, twice: room the table leaves them to grow into; and
        // spilling, an eighth of the limit for what the ledger does not see: the spill file's
        // pages the rank holds until it drops them (shed()), the program and MPI's buffers (a
        // sixteenth left the rank 2-4 MiB over its limit at 200 MB).
        std::size_t buffers = round.bytes();
        for (std::size_t c = 0; c < 2; ++c) {
          buffers += in[c].vec().capacity() * sizeof(Edge);
          for (const auto& o : out[c]) buffers += o.vec().capacity() * sizeof(Edge);
        }
        const std::size_t spare =
            std::max(2 * buffers, mem_.limit() / 8) + (spill_.enabled() ? mem_.limit() / 8 : 0);
        next_->add_round(
            round.size(), [&](auto&& f) { round.each(f); }, spare,
            [&](u64 key) { return residue(key); });
        round.clear();
        shed();
      });
    };
    generate(0, nullptr);
    ex_.start(out[0], in[0], from[0], run_.control, pending[0]);
    for (u64 gi = 1; gi <= groups; ++gi) {
      const std::size_t b = (gi - 1) & 1;  // the round in flight
      if (gi < groups) generate(gi, &pending[b]);
      ex_.finish(out[b], pending[b]);
      fold(b);
      if (gi < groups)
        ex_.start(out[gi & 1], in[gi & 1], from[gi & 1], run_.control, pending[gi & 1]);
    }
    for (auto& o : out) o.clear();
    for (auto& i : in) i.release();
    order.release();
    last.release();
    round.release();
    ex_.guarded([&] {
      cur_.clear();
      next_->build(
          cur_, res_lo_, res_hi_, [&](u64 key) { return residue(key); }, [&] { shed(); });
      shed();
    });
    ex_.agree(run_.control);
    CensusLevel& g = r.levels[static_cast<std::size_t>(k)];
    g.reachable_raw = ex_.sum(lv.reachable_raw);
    g.reachable_sym = ex_.sum(lv.reachable_sym);
    g.games = ex_.sum(lv.games);
    add_count(r.games, g.games);
  }

  // Adds the children of one round to its table in the order they came: the senders' parts in
  // rank order, which is the order of their parents' (residue, key).
  static void add_round(RoundTable& next, const Booked<Edge>& in) {
    const Edge* e = in.vec().data();
    const std::size_t n = in.size();
    // The table's lines are fetched this many adds ahead: the adds are bound by their misses.
    constexpr std::size_t kAhead = 16;
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) next.prefetch(e[i + kAhead].child);
      next.add(e[i]);
    }
  }

  // Solution paths, backward from the goal: the parents of a level's on-path positions are
  // sent to their owners, who keep those they stored.
  void on_path(CensusResult& r) {
    cur_.clear();
    if (goal_pegs_ > k0_ || k0_ == 0) {
      r.on_path_done = true;
      return;
    }
    const auto size = static_cast<std::size_t>(ex_.size());
    Booked<u64>& first = path_[static_cast<std::size_t>(goal_pegs_)];
    const StoredKeys& at_goal = stored_[static_cast<std::size_t>(goal_pegs_)];
    ex_.guarded([&] {
      if (p_.goal.kind == Goal::Kind::Any) {
        first.reserve(at_goal.size());
        first.vec().assign(at_goal.begin(), at_goal.end());
      } else {
        const u64 c = canon(goal_pos_).w[0];
        if (std::binary_search(at_goal.begin(), at_goal.end(), c)) first.push_back(c);
      }
    });
    Booked<u64> in(mem_);
    std::vector<Booked<u64>> out;
    for (std::size_t d = 0; d < size; ++d) out.emplace_back(mem_);
    std::vector<std::size_t> from;
    for (int k = goal_pegs_ + 1; k <= k0_; ++k) {
      mem_.set_level(k);
      const auto& below = path_[static_cast<std::size_t>(k - 1)].vec();
      const StoredKeys& level = stored_[static_cast<std::size_t>(k)];
      Booked<u64>& mine = path_[static_cast<std::size_t>(k)];
      const u64 per = std::max<u64>(1024, kRoundQueries / static_cast<u64>(ex_.size()));
      const u64 rounds = (ex_.max(below.size()) + per - 1) / per;
      for (u64 i = 0; i < rounds; ++i) {
        ex_.guarded([&] {
          const std::size_t lo = std::min<std::size_t>(below.size(), i * per);
          const std::size_t hi = std::min<std::size_t>(below.size(), lo + per);
          for (std::size_t q = lo; q < hi; ++q) {
            const Pos x = pos(below[q]);
            g_.for_each_jump(g_.complement(x), [&](int j) {
              const u64 c = canon(x ^ g_.jump_mask(j)).w[0];
              out[static_cast<std::size_t>(owner(c))].push_back(c);
            });
          }
          for (auto& o : out) {
            std::sort(o.vec().begin(), o.vec().end());
            o.vec().erase(std::unique(o.vec().begin(), o.vec().end()), o.vec().end());
          }
        });
        ex_.all_to_all(out, in, from, run_.control);
        ex_.guarded([&] {
          for (u64 c : in.vec())
            if (std::binary_search(level.begin(), level.end(), c)) mine.push_back(c);
          shed();
        });
      }
      ex_.guarded([&] {
        std::sort(mine.vec().begin(), mine.vec().end());
        mine.vec().erase(std::unique(mine.vec().begin(), mine.vec().end()), mine.vec().end());
      });
      ex_.agree(run_.control);
      if (!o_.distinct) stored_[static_cast<std::size_t>(k - 1)].release();
    }
    for (int k = goal_pegs_; k <= k0_; ++k) {
      u64 raw = 0, sym = 0;
      for (u64 x : path_[static_cast<std::size_t>(k)].vec()) {
        ++sym;
        raw += static_cast<u64>(orbit_size(pos(x)));
      }
      CensusLevel& lv = r.levels[static_cast<std::size_t>(k)];
      lv.on_path_raw = ex_.sum(raw);
      lv.on_path_sym = ex_.sum(sym);
    }
    r.on_path_done = true;
  }

  // Solutions up to reordering (paths.hpp): the solution-path sets gathered on rank 0, which
  // runs the one-process count over them.
  void distinct(CensusResult& r) {
    Count solutions = r.solutions;
    ex_.broadcast(solutions);
    if (goal_pegs_ > k0_ || k0_ == 0 || solutions == 0) {
      r.distinct_solutions = 0;
      return;
    }
    r.distinct_note = census_detail::distinct_skip_reason(r.levels, o_);
    if (!r.distinct_note.empty()) return;
    std::vector<std::vector<u64>> sets(path_.size());
    for (int k = goal_pegs_; k <= k0_; ++k) {
      const auto& v = path_[static_cast<std::size_t>(k)].vec();
      sets[static_cast<std::size_t>(k)] = ex_.gather(std::vector<u64>(v.begin(), v.end()));
      std::sort(sets[static_cast<std::size_t>(k)].begin(), sets[static_cast<std::size_t>(k)].end());
    }
    if (ex_.rank() != 0) return;
    try {
      r.distinct_solutions = census_detail::distinct_solutions(
          g_, start_pos_, goal_pegs_, mem_, run_.control,
          [&](const Pos& x, int k) {
            const auto& v = sets[static_cast<std::size_t>(k)];
            return std::binary_search(v.begin(), v.end(), canon(x).w[0]);
          },
          [&](const Pos& x) { return is_goal(x); });
    } catch (const CensusError& e) {
      r.distinct_note = e.what();
    }
  }

  SpillDir spill_;  // this rank's spill directory (first: it outlives the tables)
  // Parents a level expands per round over all ranks: the same for any number of ranks, so that
  // the rounds (and with them the order of every sum) do not depend on it.
  u64 round_parents_;
  bool wide_counts_;  // every level's tables in two-word counts (RankOptions::wide_counts)
  const Checkpoint& cp_;
  Exchange ex_;
  RankLedger& ledger_;
  std::vector<u64> sym_jump_;                         // [symmetry index in syms_][jump]
  std::vector<std::pair<u64, u32>> residue_classes_;  // (layout mask, weight) per weight class
  std::vector<std::pair<u32, u32>> deltas_;           // (residue delta, jumps) per jump class
  // [byte of the key][its value]: the residue of those pegs (mod 2^16).
  std::array<std::array<std::uint16_t, 256>, 8> residue_bytes_{};
  u32 res_lo_ = 0, res_hi_ = 0;      // this rank's residues [res_lo_, res_hi_)
  census_detail::Pool pool_;         // the memory of its levels' larger arrays
  RankLevel cur_;                    // this rank's part of the level being expanded
  std::unique_ptr<NextLevel> next_;  // and of the level being built
  Expected expected_;                // the level being built's positions by residue, expected
  std::vector<StoredKeys> stored_;   // this rank's keys of each level (the pool's arrays)
  std::vector<Booked<u64>> path_;    // and of each level's solution-path positions
  u64 last_total_ = 0;               // positions of the level expanded last, over all ranks
  std::size_t shed_at_ = 0;          // shed()'s trigger: resident bytes
  // (Context's positions_: the positions of the levels expanded so far, over all ranks.)
};

}  // namespace

CensusResult distributed_census(const Problem& p, const CensusOptions& o, MPI_Comm comm,
                                RankLedger& ledger, const Checkpoint& checkpoint,
                                const RankOptions& ro) {
  const Board& b = *p.board;
  if (b.width() != 64)
    throw InputError("census: board " + b.name() + " needs a " + std::to_string(b.width()) +
                     "-bit layout; pegsol-mpi takes layouts of up to 64 bits");
  DistributedCensus c(p, o, comm, ledger, checkpoint, ro);
  return c.run();
}

}  // namespace pegsol::mpi
