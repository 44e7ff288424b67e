// SPDX-License-Identifier: MIT
// The fewest-moves engine for one key width, included by fewest.cpp once per width inside a
// namespace that defines `Bits` (an unsigned integer of kWidth bits), kWidth, kHoles (the most
// holes a board may have), kPacked (the cost packed above the landing set), pop(), ctz() and
// fold() (a 64-bit digest of a key).

Bits bit(int h) {
  return Bits{1} << h;
}

// One stored position. key: the pegs (bit h = hole h, canonical under the search's group; 0 marks
// an empty slot, never a position with pegs). land(): the state's L in the key's frame; cost():
// its moves. Packed (kPacked: boards of at most kHoles = kWidth - 6 holes, costs below 64), 16
// bytes on 64-bit keys:
//   | key (kWidth) | cost (6) | land (kWidth - 6) |
// otherwise 48 bytes on 128-bit keys:
//   | key (kWidth) | land (kWidth) | cost (32) | pad |
// (Before 2026-11-27 the 64-bit keys' entries had the second layout too, 24 bytes.)
struct PackedEntry {
  static constexpr int kLandBits = kWidth - 6;
  Bits key = 0;
  Bits state = 0;  // cost << kLandBits | land
  Bits land() const { return state & ((Bits{1} << kLandBits) - 1); }
  std::uint32_t cost() const { return static_cast<std::uint32_t>(state >> kLandBits); }
  void set(std::uint32_t cost, Bits land) { state = Bits{cost} << kLandBits | land; }
  void add_land(Bits land) { state |= land; }
  static PackedEntry make(Bits key, std::uint32_t cost, Bits land) {
    PackedEntry e;
    e.key = key;
    e.set(cost, land);
    return e;
  }
};
struct WideEntry {
  Bits key = 0;
  Bits land_ = 0;
  std::uint32_t cost_ = 0;
  Bits land() const { return land_; }
  std::uint32_t cost() const { return cost_; }
  void set(std::uint32_t cost, Bits land) {
    cost_ = cost;
    land_ = land;
  }
  void add_land(Bits land) { land_ |= land; }
  static WideEntry make(Bits key, std::uint32_t cost, Bits land) { return {key, land, cost}; }
};
using Entry = std::conditional_t<kPacked, PackedEntry, WideEntry>;
static_assert(!kPacked || sizeof(Entry) == 2 * sizeof(Bits));

// The fixed hash of a position (core/hash.hpp's mixer): its low bits pick a slot, its top bits a
// shard. Neither the answer nor the solution found depends on it: a level's content is a set,
// and every choice among its entries (the meeting, a path's step, a beam's cut) goes by key.
// (Before 2026-11-27 it had a mixer of its own; the level files of a checkpoint say which.)
inline std::uint64_t mix(Bits key) {
  return mix64(fold(key));
}

// An empty slot of a LevelMap.
inline bool vacant(const Entry& e) {
  return e.key == 0;
}

// A hash table from positions to states, open addressing with linear probing, a fixed hash so
// runs repeat. Grows at 5/8 load; the owner's budget is checked before each growth.
class LevelMap {
 public:
  LevelMap() = default;

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.bytes() + sorted_.bytes(); }

  // The entry of `key` into `out`; false when the table does not hold it.
  bool find(Bits key, Entry& out) const {
    if (!sorted_.empty()) {
      const Entry* it = std::lower_bound(sorted_.begin(), sorted_.end(), key,
                                         [](const Entry& e, Bits k) { return e.key < k; });
      if (it == sorted_.end() || it->key != key) return false;
      out = *it;
      return true;
    }
    if (file_) {  // a binary search of the file, one read a probe
      std::size_t lo = 0, hi = size_;
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        Entry e;
        file_->read(offset_ + mid * sizeof(Entry), &e, sizeof(Entry));
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
    const Entry& e = slots_[probe_slot(slots_.data(), mask_, mix(key), vacant,
                                       [&](const Entry& x) { return x.key == key; })];
    if (e.key == 0) return false;
    out = e;
    return true;
  }

  // Keeps the cheaper state; at equal cost the union of the landing sets.
  template <class Grow>
  void merge(Bits key, std::uint32_t cost, Bits land, Grow&& grow) {
    if ((size_ + 1) * 8 > slots_.size() * 5)
      rehash(std::max<std::size_t>(64, slots_.size() * 2), grow);
    Entry& e = slots_[probe_slot(slots_.data(), mask_, mix(key), vacant,
                                 [&](const Entry& x) { return x.key == key; })];
    if (e.key == 0) {
      e = Entry::make(key, cost, land);
      ++size_;
    } else if (cost < e.cost()) {
      e.set(cost, land);
    } else if (cost == e.cost()) {
      e.add_land(land);
    }
  }

  // Brings the key's first slot into cache before merge() needs it.
  void prefetch(Bits key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[mix(key) & mask_]);
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
    for (const Entry& e : slots_)
      if (e.key != 0) f(e);
    for (const Entry& e : sorted_) f(e);
    if (file_) {
      std::vector<Entry> buf;
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
    grow(size_ * sizeof(Entry));
    sorted_ = MappedArray<Entry>(size_);
    std::size_t k = 0;
    for (const Entry& e : slots_)
      if (e.key != 0) sorted_[k++] = e;
    std::sort(sorted_.begin(), sorted_.end(),
              [](const Entry& a, const Entry& b) { return a.key < b.key; });
    slots_.reset();
    mask_ = 0;
    return true;
  }

  // The entries in the order they are stored, for walking a range of them: the slots (the
  // empty ones skipped), or the sorted array, or the file (read into `buf`).
  std::size_t capacity() const { return !slots_.empty() ? slots_.size() : size_; }
  template <class F>
  void for_range(std::size_t begin, std::size_t end, F&& f, std::vector<Entry>& buf) const {
    if (!slots_.empty()) {
      for (std::size_t i = begin; i < end; ++i)
        if (slots_[i].key != 0) f(slots_[i]);
    } else if (!sorted_.empty()) {
      for (std::size_t i = begin; i < end; ++i) f(sorted_[i]);
    } else if (file_ && end > begin) {
      buf.resize(end - begin);
      file_->read(offset_ + begin * sizeof(Entry), buf.data(), buf.size() * sizeof(Entry));
      for (const Entry& e : buf) f(e);
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
    grow(n * sizeof(Entry));
    MappedArray<Entry> old = std::move(slots_);
    slots_ = MappedArray<Entry>(n);  // zero-filled: every slot empty
    mask_ = n - 1;
    rehash_into(
        old.data(), old.size(), slots_.data(), mask_, vacant,
        [](const Entry& e) { return mix(e.key); }, [] {});
  }

  MappedArray<Entry> slots_;
  MappedArray<Entry> sorted_;  // after compact(): the entries by key, and no slots
  // After spill(): the entries by key at offset_ in the level's file, and nothing in memory.
  std::shared_ptr<SpillFile> file_;
  std::uint64_t offset_ = 0;
  std::size_t size_ = 0, mask_ = 0;
};

// A level: positions split into a fixed number of shards by the top bits of their hash, so that
// threads can fill the shards apart. The content does not depend on the thread count.
class Level {
 public:
  static constexpr int kShardBits = 4, kShards = 1 << kShardBits;
  Level() : shards_(kShards) {}

  static std::size_t shard_of(Bits key) {
    return static_cast<std::size_t>(mix(key) >> (64 - kShardBits));
  }
  LevelMap& shard(std::size_t i) { return shards_[i]; }
  const LevelMap& shard(std::size_t i) const { return shards_[i]; }
  std::size_t size() const {
    std::size_t n = 0;
    for (const LevelMap& m : shards_) n += m.size();
    return n;
  }
  std::size_t bytes() const {
    std::size_t n = 0;
    for (const LevelMap& m : shards_) n += m.bytes();
    return n;
  }
  bool find(Bits key, Entry& out) const { return shards_[shard_of(key)].find(key, out); }
  // Writes every sorted shard held in memory to the level's spill file (made in `dir` when
  // first needed) and frees it. Returns the bytes freed.
  std::size_t spill(const std::string& dir, SpillLedger& ledger) {
    std::size_t freed = 0;
    for (LevelMap& m : shards_) {
      if (!m.sorted() || m.on_disk() || m.size() == 0) continue;
      if (!file_) file_ = std::make_shared<SpillFile>(dir, ledger);
      const std::size_t before = m.bytes();
      m.spill(file_);
      freed += before - m.bytes();
    }
    return freed;
  }
  template <class F>
  void for_each(F&& f) const {
    for (const LevelMap& m : shards_) m.for_each(f);
  }
  void clear() {
    for (LevelMap& m : shards_) m.clear();
    file_.reset();
  }
  // The level's spill file, made in `dir` when it has none.
  const std::shared_ptr<SpillFile>& file(const std::string& dir, SpillLedger& ledger) {
    if (!file_) file_ = std::make_shared<SpillFile>(dir, ledger);
    return file_;
  }

 private:
  std::vector<LevelMap> shards_;
  std::shared_ptr<SpillFile> file_;  // the shards written to disk (spill())
};

// Walks a sorted table's entries in key order (in memory or on disk), a chunk at a time.
class SortedReader {
 public:
  explicit SortedReader(const LevelMap& m) : m_(m) { load(); }
  const Entry* peek() const { return i_ < buf_.size() ? &buf_[i_] : nullptr; }
  void next() {
    if (++i_ == buf_.size()) load();
  }

 private:
  void load() {
    buf_.clear();
    i_ = 0;
    if (pos_ >= m_.size()) return;
    const std::size_t end = std::min(m_.size(), pos_ + LevelMap::kChunk);
    m_.for_range(
        pos_, end, [&](const Entry& e) { buf_.push_back(e); }, read_);
    pos_ = end;
  }
  const LevelMap& m_;
  std::vector<Entry> buf_, read_;
  std::size_t pos_ = 0, i_ = 0;
};

// The board as kWidth-bit masks and the symmetry group the search keeps, as byte tables.
struct Geometry {
  int n = 0;
  std::vector<Jump> jumps;
  std::vector<Bits> fo, t, all;             // per jump: from|over, to, from|over|to
  std::vector<std::vector<int>> perm, inv;  // group elements and their inverses (perm[0]: identity)
  // table[g][b * 256 + v]: image under g of byte b holding v.
  std::vector<std::vector<Bits>> table, inv_table;
  int bytes = 0;
  // Images of each jump's three holes and of each hole: a jump's child has the images
  // image(g, parent) ^ jump_image[g * jumps + j], eight XORs instead of a table walk per child.
  std::vector<Bits> jump_image, hole_image;  // [g * jumps.size() + j], [g * kWidth + h]
  // The jumps landing on each hole: into[into_begin[h] .. into_begin[h + 1]).
  std::vector<int> into, into_begin;
  Bits full = 0;  // every hole

  Geometry(const Board& b, const std::vector<std::vector<int>>& group) : n(b.size()) {
    if (n > kHoles)
      throw std::logic_error("fewest moves: board " + b.name() + " is wider than its keys");
    jumps = b.jumps();
    for (const Jump& j : jumps) {
      fo.push_back(bit(j.from) | bit(j.over));
      t.push_back(bit(j.to));
      all.push_back(bit(j.from) | bit(j.over) | bit(j.to));
    }
    perm = group;
    bytes = (n + 7) / 8;
    for (const auto& p : perm) {
      std::vector<int> q(p.size());
      for (std::size_t h = 0; h < p.size(); ++h)
        q[static_cast<std::size_t>(p[h])] = static_cast<int>(h);
      inv.push_back(q);
    }
    auto build = [&](const std::vector<int>& p) {
      std::vector<Bits> tab(static_cast<std::size_t>(bytes) * 256, 0);
      byte_images(bytes, n, tab.data(), [&](int h) { return bit(p[static_cast<std::size_t>(h)]); });
      return tab;
    };
    for (std::size_t g = 0; g < perm.size(); ++g) {
      table.push_back(build(perm[g]));
      inv_table.push_back(build(inv[g]));
    }
    full = n == kWidth ? ~Bits{0} : bit(n) - 1;
    into_begin.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int h = 0; h < n; ++h) {
      into_begin[static_cast<std::size_t>(h)] = static_cast<int>(into.size());
      for (std::size_t j = 0; j < jumps.size(); ++j)
        if (jumps[j].to == h) into.push_back(static_cast<int>(j));
    }
    into_begin[static_cast<std::size_t>(n)] = static_cast<int>(into.size());
    hole_image.assign(perm.size() * kWidth, 0);
    for (std::size_t g = 0; g < perm.size(); ++g) {
      for (const Jump& j : jumps)
        jump_image.push_back(bit(perm[g][static_cast<std::size_t>(j.from)]) |
                             bit(perm[g][static_cast<std::size_t>(j.over)]) |
                             bit(perm[g][static_cast<std::size_t>(j.to)]));
      for (int h = 0; h < n; ++h)
        hole_image[g * kWidth + static_cast<std::size_t>(h)] =
            bit(perm[g][static_cast<std::size_t>(h)]);
    }
  }

  int group_size() const { return static_cast<int>(perm.size()); }

  static Bits apply(const std::vector<Bits>& tab, int bytes, Bits x) {
    Bits r = 0;
    for (int by = 0; by < bytes; ++by)
      r |= tab[static_cast<std::size_t>(by * 256 + static_cast<int>((x >> (8 * by)) & 255))];
    return r;
  }
  Bits image(int g, Bits x) const { return apply(table[static_cast<std::size_t>(g)], bytes, x); }
  Bits preimage(int g, Bits x) const {
    return apply(inv_table[static_cast<std::size_t>(g)], bytes, x);
  }

  // The canonical form of (pegs, land): the least image of the pegs, and the union of the landing
  // sets' images under every element giving it (so the stored L is closed under the key's own
  // symmetries: a symmetric path reaches the same key with the mirrored L).
  std::pair<Bits, Bits> canonical(Bits pegs, Bits land) const {
    if (perm.size() == 1) return {pegs, land};
    std::array<Bits, 48> img{};
    Bits best = pegs;
    for (int g = 0; g < group_size(); ++g) {
      img[static_cast<std::size_t>(g)] = g == 0 ? pegs : image(g, pegs);
      best = std::min(best, img[static_cast<std::size_t>(g)]);
    }
    Bits l = 0;
    for (int g = 0; g < group_size(); ++g)
      if (img[static_cast<std::size_t>(g)] == best) l |= g == 0 ? land : image(g, land);
    return {best, l};
  }

  // The canonical key of `pegs` and an element g with image(g, pegs) == key.
  std::pair<Bits, int> canonical_key(Bits pegs) const {
    Bits best = pegs;
    int arg = 0;
    for (int g = 1; g < group_size(); ++g) {
      Bits i = image(g, pegs);
      if (i < best) {
        best = i;
        arg = g;
      }
    }
    return {best, arg};
  }
};

Bits to_bits(const HoleSet& s) {
  Bits b = 0;
  for (int h : s.members()) b |= bit(h);
  return b;
}

// The symmetries of `b` that map each of the sets to itself.
std::vector<std::vector<int>> keeping(const Board& b, const std::vector<std::vector<Bits>>& sets,
                                      bool symmetry) {
  std::vector<std::vector<int>> out;
  for (const auto& p : b.symmetries()) {
    if (!out.empty() && !symmetry) break;
    Geometry one(b, {p});
    bool keeps = true;
    for (const auto& set : sets) {
      std::vector<Bits> img;
      for (Bits x : set) img.push_back(one.image(0, x));
      std::vector<Bits> a = set;
      std::sort(a.begin(), a.end());
      std::sort(img.begin(), img.end());
      keeps = keeps && a == img;
    }
    if (keeps) out.push_back(p);
  }
  return out;
}

// Admissible move bounds from Merson regions. A region is a set of holes such that a jump over
// one of its holes starts or ends in it. While a region is full, no jump can land in it nor take
// a peg out of it from outside, so the first jump that changes it is made by one of its own pegs,
// which has not moved since the region was last full. Disjoint regions give distinct pegs, hence
// distinct moves:
//   forward, from P: every region full in P and not full at the end costs a move, but for the one
//     whose peg continues the move that landed on P (a hole of L in it);
//   backward, to Q: every region full at the start and not full in Q cost a move on the way to Q,
//     and the last of those moves may go on after Q as the first move out of it.
// Any disjoint family of such regions bounds the moves, so each position packs its own: greedily,
// smallest regions first, among every connected region of up to four holes. A child keeps its
// parent's family but for the regions the jump changed, and adds one through the hole that
// changed the other way. The peg types (build_types) add the moves that a type of peg must make
// and no region's peg nor the move under way can. A position whose cost plus its bound exceeds
// the search's limit is dropped: no solution within the limit passes through it.
class Bound {
 public:
  static constexpr std::size_t kMaxPagodas = 4;  // tight pagodas (build_pagodas)
  // pagoda_jumps: FewestOptions::pagoda_jumps.
  Bound(const Board& b, const std::vector<Bits>& starts, const std::vector<Bits>& goals,
        int pagoda_jumps) {
    const std::vector<Bits> all = candidates(b);
    // Forward, a region holding a smaller one is never worth more: full, so is the smaller one.
    std::vector<Bits> minimal;
    for (Bits r : all) {
      bool holds = false;
      for (Bits q : all) holds = holds || (q != r && (q & r) == q);
      if (!holds) minimal.push_back(r);
    }
    fwd_.build(minimal, b.size(), [&](Bits r) {
      for (Bits g : goals)
        if ((g & r) == r) return true;
      return false;
    });
    bwd_.build(all, b.size(), [&](Bits r) {
      for (Bits s : starts)
        if ((s & r) != r) return true;
      return false;
    });
    // Regions that may be full at the end need no move, but at most as many as one goal holds
    // full, disjoint: no more than its regions full there, nor than its pegs. Likewise regions
    // that may be not full at the start need none on the way, at most one per empty hole.
    for (Bits g : goals) {
      int full = 0;
      for (Bits r : minimal) full += (g & r) == r;
      max_exempt_end_ = std::max(max_exempt_end_, std::min(full, pop(g)));
    }
    for (Bits s : starts) {
      int open = 0;
      for (Bits r : all) open += (s & r) != r;
      max_exempt_start_ = std::max(max_exempt_start_, std::min(open, b.size() - pop(s)));
    }
    build_types(b, starts, goals);
    build_pagodas(b, starts, goals, pagoda_jumps);
  }

  // child() for a position on no solution (a tight pagoda rules it out): dropped, not counted.
  static constexpr int kDead = 1 << 20;

  // A position's family: the regions counted (full ones forward, changed ones backward), how
  // many of them are exempt, and the region of each hole in it (-1: none).
  struct Pack {
    int n = 0, exempt = 0, count = 0;  // count: the position's pegs
    Bits used = 0;
    std::array<std::int16_t, kWidth> owner;
    std::array<int, kMaxPagodas> value{};  // each tight pagoda's value at the position
  };
  template <bool Backward>
  Pack pack(Bits pegs) const {
    const Regions& rs = Backward ? bwd_ : fwd_;
    Pack p;
    p.count = pop(pegs);
    p.owner.fill(-1);
    for (std::size_t k = 0; k < pagodas_; ++k)
      for (Bits x = pegs; x; x &= x - 1) p.value[k] += weight_[k][static_cast<std::size_t>(ctz(x))];
    for (std::size_t r = 0; r < rs.region.size(); ++r) {
      const Bits m = rs.region[r];
      if ((m & p.used) || !counted<Backward>(pegs, m)) continue;
      p.used |= m;
      ++p.n;
      p.exempt += rs.exempt[r];
      for (Bits x = m; x; x &= x - 1)
        p.owner[static_cast<std::size_t>(ctz(x))] = static_cast<std::int16_t>(r);
    }
    return p;
  }

  // The bound of `child`, made from `parent` (whose family is `p`) by the jump `jp`: the
  // parent's regions the jump changed leave, and a region through the hole that changed the
  // other way may join.
  template <bool Backward>
  int child(const Pack& p, Bits child, const Jump& jp) const {
    // Forward the child loses the jump's loss on each tight pagoda; taken back, it gains it.
    for (std::size_t k = 0; k < pagodas_; ++k) {
      const auto& w = weight_[k];
      const int loss = w[static_cast<std::size_t>(jp.from)] + w[static_cast<std::size_t>(jp.over)] -
                       w[static_cast<std::size_t>(jp.to)];
      if (Backward ? p.value[k] + loss > start_value_[k] : p.value[k] - loss < goal_value_[k])
        return kDead;
    }
    const Regions& rs = Backward ? bwd_ : fwd_;
    int n = p.n, exempt = p.exempt;
    Bits used = p.used;
    const std::int16_t a = p.owner[static_cast<std::size_t>(jp.from)];
    const std::int16_t c = p.owner[static_cast<std::size_t>(jp.over)];
    auto leave = [&](std::int16_t r) {  // a region of the jump's from or over holes
      if (r < 0) return;
      const Bits m = rs.region[static_cast<std::size_t>(r)];
      if (!(used & m) || counted<Backward>(child, m)) return;
      used &= ~m;
      --n;
      exempt -= rs.exempt[static_cast<std::size_t>(r)];
    };
    leave(a);
    leave(c);
    bool joined = false;
    const auto t = static_cast<std::size_t>(jp.to);
    for (int k = rs.at_begin[t]; k < rs.at_begin[t + 1]; ++k) {
      const auto r = static_cast<std::size_t>(rs.at[static_cast<std::size_t>(k)]);
      const Bits m = rs.region[r];
      if ((m & used) || !counted<Backward>(child, m)) continue;
      ++n;
      exempt += rs.exempt[r];
      used |= m;
      joined = true;
      break;
    }
    if (Backward)
      return std::max(0, n - std::min(exempt, max_exempt_start_) +
                             typed<true>(child, p.count + 1, used, 0) - 1);
    return std::max(0, n - std::min(exempt, max_exempt_end_) - (joined ? 1 : 0)) +
           typed<false>(child, p.count - 1, used, bit(jp.to));
  }

  // At least this many moves from `pegs` to a goal, where the last jump landed on a hole of
  // `land` (none: no move under way).
  int forward(Bits pegs, Bits land = 0) const {
    const Pack p = pack<false>(pegs);
    bool goes_on = false;
    for (Bits x = land; x; x &= x - 1)
      goes_on = goes_on || p.owner[static_cast<std::size_t>(ctz(x))] >= 0;
    return std::max(0, p.n - std::min(p.exempt, max_exempt_end_) - (goes_on ? 1 : 0)) +
           typed<false>(pegs, p.count, p.used, land);
  }

 private:
  // Regions in packing order, whether each is exempt, and those through each hole.
  struct Regions {
    std::vector<Bits> region;
    std::vector<char> exempt;
    std::vector<int> at, at_begin;  // at[at_begin[h] .. at_begin[h + 1]): regions holding h
    template <class Exempt>
    void build(const std::vector<Bits>& rs, int holes, Exempt&& is_exempt) {
      region = rs;
      for (Bits r : rs) exempt.push_back(is_exempt(r));
      at_begin.assign(static_cast<std::size_t>(holes) + 1, 0);
      for (int h = 0; h < holes; ++h) {
        at_begin[static_cast<std::size_t>(h)] = static_cast<int>(at.size());
        for (std::size_t r = 0; r < rs.size(); ++r)
          if (rs[r] >> h & 1) at.push_back(static_cast<int>(r));
      }
      at_begin[static_cast<std::size_t>(holes)] = static_cast<int>(at.size());
    }
  };

  // Every region of up to four holes connected along the jump lines, smallest first.
  static std::vector<Bits> candidates(const Board& b) {
    const std::vector<Jump>& jumps = b.jumps();
    std::vector<Bits> adjacent(static_cast<std::size_t>(b.size()), 0);
    for (const Jump& j : jumps) {
      adjacent[static_cast<std::size_t>(j.over)] |= bit(j.from) | bit(j.to);
      adjacent[static_cast<std::size_t>(j.from)] |= bit(j.over);
      adjacent[static_cast<std::size_t>(j.to)] |= bit(j.over);
    }
    auto closed = [&](Bits r) {
      for (const Jump& j : jumps)
        if ((r >> j.over & 1) && !(r >> j.from & 1) && !(r >> j.to & 1)) return false;
      return true;
    };
    std::vector<Bits> out, grow;
    for (int h = 0; h < b.size(); ++h) grow.push_back(bit(h));
    for (int size = 1; size <= 4; ++size) {
      std::sort(grow.begin(), grow.end());
      grow.erase(std::unique(grow.begin(), grow.end()), grow.end());
      for (Bits r : grow)
        if (closed(r)) out.push_back(r);
      std::vector<Bits> next;
      for (Bits r : grow) {
        Bits around = 0;
        for (Bits x = r; x; x &= x - 1) around |= adjacent[static_cast<std::size_t>(ctz(x))];
        for (Bits x = around & ~r; x; x &= x - 1) next.push_back(r | (x & -x));
      }
      grow.swap(next);
    }
    return out;
  }

  template <bool Backward>
  static bool counted(Bits pegs, Bits region) {
    return Backward ? (pegs & region) != region : (pegs & region) == region;
  }

  // Peg types (Board::peg_type: the classes of holes joined by a jump's from and to holes, on the
  // square lattice the four of (column, row) mod 2), so a peg keeps its type. A peg of type X
  // leaves only when jumped over by a peg of a type in remover[X]. Forward, when more pegs of type
  // X stand than any goal holds, some move is made by such a peg; backward, when fewer stand than
  // every start holds, some move was. The last move lands on a goal's peg, so it is made by a peg
  // of a goal peg's type; the first lands in a start's empty hole, made by a peg of that hole's
  // type. A region's move is made by one of its own pegs, and the move under way by the peg on a
  // hole of L, so a needed mover none of them can be costs a move of its own: the fewest types to
  // add so that every need meets a mover, extra_[direction][need][cover].
  static constexpr int kMaxTypes = 6;
  void build_types(const Board& b, const std::vector<Bits>& starts,
                   const std::vector<Bits>& goals) {
    const int n = b.size(), types = b.peg_type_count();
    if (types < 2 || types > kMaxTypes) return;  // no bound from types
    types_ = types;
    Bits full = 0;
    for (int h = 0; h < n; ++h) {
      mask_[static_cast<std::size_t>(b.peg_type(h))] |= bit(h);
      full |= bit(h);
    }
    std::array<unsigned, kMaxTypes + 1> remover{};  // [types]: the first or last move's
    for (const Jump& j : b.jumps())
      remover[static_cast<std::size_t>(b.peg_type(j.over))] |= 1u << b.peg_type(j.from);
    unsigned last = 0, first = 0;  // the types the last move's and the first move's peg may have
    for (int t = 0; t < types; ++t) {
      const auto ut = static_cast<std::size_t>(t);
      goal_most_[ut] = 0;
      for (Bits g : goals) {
        goal_most_[ut] = std::max(goal_most_[ut], pop(g & mask_[ut]));
        if (g & mask_[ut]) last |= 1u << t;
      }
      int least = kWidth;
      for (Bits st : starts) {
        least = std::min(least, pop(st & mask_[ut]));
        if (~st & full & mask_[ut]) first |= 1u << t;
      }
      start_empty_[ut] = pop(mask_[ut]) - least;
    }
    goal_pegs_ = pop(goals.front());
    start_pegs_ = pop(starts.front());
    const unsigned all = (1u << types) - 1;
    for (int dir = 0; dir < 2; ++dir) {
      remover[static_cast<std::size_t>(types)] = dir ? first : last;
      std::vector<std::uint8_t>& ex = extra_[static_cast<std::size_t>(dir)];
      ex.assign(std::size_t{1} << (2 * types + 1), 0);
      for (unsigned need = 0; need <= 2 * all + 1; ++need)
        for (unsigned cover = 0; cover <= all; ++cover) {
          int best = -1;  // a need no peg can meet (remover empty) gives nothing
          for (unsigned add = 0; add <= all; ++add) {
            if (add & cover) continue;
            bool meets = true;
            for (int t = 0; t <= types; ++t)
              if ((need >> t & 1) && remover[static_cast<std::size_t>(t)] &&
                  !(remover[static_cast<std::size_t>(t)] & (cover | add)))
                meets = false;
            const int k = std::popcount(add);
            if (meets && (best < 0 || k < best)) best = k;
          }
          ex[need << types | cover] = static_cast<std::uint8_t>(std::max(best, 0));
          most_[static_cast<std::size_t>(dir)][cover] =
              std::max(most_[static_cast<std::size_t>(dir)][cover], ex[need << types | cover]);
        }
    }
  }

  // The moves the peg types add to a family covering `used` (and the move under way from a hole
  // of `land`, forward) at `pegs`.
  template <bool Backward>
  int typed(Bits pegs, int count, Bits used, Bits land) const {
    if (!types_) return 0;
    // More than k bits in x; k is 0 or 1 for single-peg goals and single vacancies.
    auto more = [](Bits x, int k) {
      return k == 0 ? x != 0 : k == 1 ? (x & (x - 1)) != 0 : pop(x) > k;
    };
    unsigned need = 0, cover = 0;
    for (int t = 0; t < types_; ++t)
      if ((used | land) & mask_[static_cast<std::size_t>(t)]) cover |= 1u << t;
    if (!most_[Backward][cover]) return 0;  // no need can add a move to this cover
    for (int t = 0; t < types_; ++t) {
      const auto ut = static_cast<std::size_t>(t);
      // Backward: fewer pegs of the type than the start held, i.e. more of its holes empty.
      if (Backward ? more(~pegs & mask_[ut], start_empty_[ut])
                   : more(pegs & mask_[ut], goal_most_[ut]))
        need |= 1u << t;
    }
    if (Backward ? count < start_pegs_ : count > goal_pegs_) need |= 1u << types_;
    return extra_[Backward][need << types_ | cover];
  }

  // Tight pagodas (find_tight_pagodas): between one start and one goal, a pagoda whose value
  // at the start is no more than at the goal has the same value on every position of every
  // solution, so a position below the goal's value (forward) or above the start's (taken back)
  // is on none. Problems of fewer than `min_jumps` jumps (FewestOptions::pagoda_jumps) go
  // without.
  void build_pagodas(const Board& b, const std::vector<Bits>& starts,
                     const std::vector<Bits>& goals, int min_jumps) {
    if (min_jumps < 0 || starts.size() != 1 || goals.size() != 1) return;
    if (pop(starts.front()) - pop(goals.front()) < min_jumps) return;
    auto holes = [&](Bits x) {
      HoleSet h(b.size());
      for (; x; x &= x - 1) h.set(ctz(x));
      return h;
    };
    const HoleSet s = holes(starts.front()), g = holes(goals.front());
    for (const Pagoda& pg : find_tight_pagodas(b, s, g, static_cast<int>(kMaxPagodas))) {
      auto& w = weight_[pagodas_];
      w.fill(0);
      for (int h = 0; h < b.size(); ++h)
        w[static_cast<std::size_t>(h)] = static_cast<int>(pg.weight[static_cast<std::size_t>(h)]);
      start_value_[pagodas_] = static_cast<int>(pg.value(s));
      goal_value_[pagodas_] = static_cast<int>(pg.value(g));
      ++pagodas_;
    }
  }
  std::size_t pagodas_ = 0;
  std::array<std::array<int, kWidth>, kMaxPagodas> weight_{};
  std::array<int, kMaxPagodas> start_value_{}, goal_value_{};

  Regions fwd_, bwd_;
  int max_exempt_end_ = 0, max_exempt_start_ = 0;
  int types_ = 0, goal_pegs_ = 0, start_pegs_ = 0;
  std::array<Bits, kMaxTypes> mask_{};
  std::array<int, kMaxTypes> goal_most_{}, start_empty_{};
  std::array<std::vector<std::uint8_t>, 2> extra_;
  std::array<std::array<std::uint8_t, 1 << kMaxTypes>, 2> most_{};  // the most over the needs
};

// The bytes a search's tables and buffers may hold: the control's memory budget (8 GiB when it
// has none) less what the process holds besides (its code, stacks and small allocations: a
// quarter of the budget, at most 32 MiB), so that the process keeps within the budget.
std::size_t tables_budget(const FewestOptions& o) {
  const std::size_t all =
      o.control && o.control->memory_budget() ? o.control->memory_budget() : std::size_t{8} << 30;
  return all - std::min(all / 4, std::size_t{32} << 20);
}

// The first word of a level file (Search::write_frontier): "PEGFEWL2", levels sharded by mix().
// "PEGFEWL1" marks the files of the mixer before 2026-11-27: their shards are not this build's,
// so a resume makes their pass again (the state's floor and best solution stand).
constexpr std::uint64_t kLevelTag = 0x324c574546474550ull;     // "PEGFEWL2"
constexpr std::uint64_t kOldLevelTag = 0x314c574546474550ull;  // "PEGFEWL1"

// Whether the file at `path` is a level file of the mixer before (kOldLevelTag).
bool old_level_file(const std::string& path) {
  std::uint64_t tag = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  const bool read = std::fread(&tag, sizeof tag, 1, f) == 1;
  std::fclose(f);
  return read && tag == kOldLevelTag;
}

// A state looked up in a level: its cost and L in the frame of the position asked for.
struct State {
  std::uint32_t cost = kNoCost;
  Bits land = 0;
};

// A child waiting for its merge.
struct Child {
  Bits key, land;
  std::uint32_t cost;
};

// The bidirectional level pass between a set of starts (all with the same peg count) and a set of
// goals (all with the same peg count).
class Search {
 public:
  // With a bound, positions whose cost plus bound exceeds `limit` are dropped.
  Search(const Geometry& geo, const FewestOptions& o, const Bound* bound = nullptr,
         std::uint32_t limit = kNoCost)
      : geo_(geo),
        o_(o),
        bound_(bound),
        limit_(bound ? limit : kNoCost),
        fwd_(static_cast<std::size_t>(geo.n + 1)),
        bwd_(static_cast<std::size_t>(geo.n + 1)),
        threads_(o.threads > 0 ? o.threads : default_threads()),
        out_(static_cast<std::size_t>(threads_),
             std::vector<std::vector<Child>>(static_cast<std::size_t>(Level::kShards))),
        read_(static_cast<std::size_t>(threads_)),
        dropped_(static_cast<std::size_t>(threads_), kNoCost) {
    budget_ = tables_budget(o);
    ledger_.limit = o.spill_limit;
  }

  void seed(const std::vector<Bits>& starts, const std::vector<Bits>& goals) {
    fl_ = pop(starts.front());
    bh_ = pop(goals.front());
    for (Bits s : starts) insert(level(fwd_, fl_), s, 0, 0);
    for (Bits g : goals) insert(level(bwd_, bh_), g, 0, 0);
    top_ = fl_;
    bottom_ = bh_;
  }

  // Runs the pass until the sides meet; returns the fewest moves, or -1 when no solution exists.
  int run() {
    may_release_ = true;
    while (fl_ > bh_) {
      if (level(fwd_, fl_).size() == 0 || level(bwd_, bh_).size() == 0) return -1;
      const bool backward = level(fwd_, fl_).size() > level(bwd_, bh_).size();
      if (backward)
        expand_backward();
      else
        expand_forward();
      report(false);
      if (on_level && fl_ > bh_) on_level(backward);
    }
    return join();
  }

  // A beam down the forward side alone: each level cut to the `width` positions of least cost
  // plus bound. Returns the moves of the solution it finds (path() gives it), or -1.
  int run_beam(std::size_t width) {
    while (fl_ > bh_) {
      if (level(fwd_, fl_).size() == 0) return -1;
      expand_forward();
      Level& lv = level(fwd_, fl_);
      if (lv.size() > width) {
        const std::size_t cut_bytes = lv.size() * sizeof(std::pair<std::uint32_t, Entry>);
        grow(cut_bytes);  // the cut's array, booked while it lives
        struct Unbook {
          Search& s;
          std::size_t n;
          ~Unbook() { s.bytes_ -= n; }
        } unbook{*this, cut_bytes};
        std::vector<std::pair<std::uint32_t, Entry>> all;
        all.reserve(lv.size());
        lv.for_each([&](const Entry& e) {
          all.emplace_back(e.cost() + static_cast<std::uint32_t>(bound_->forward(e.key, e.land())),
                           e);
        });
        auto less = [](const auto& a, const auto& b) {
          return a.first != b.first ? a.first < b.first : a.second.key < b.second.key;
        };
        std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(width), all.end(),
                         less);
        release(lv);
        for (std::size_t i = 0; i < width; ++i) {
          const Entry& e = all[i].second;
          merge(lv.shard(Level::shard_of(e.key)), e.key, e.cost(), e.land());
        }
      }
      report(false);
    }
    return join();
  }

  // The least cost any solution has, from the levels done so far. Under a limit the levels
  // hold only the solutions within it; every other one costs more than the limit.
  int lower_bound() const {
    int f = fmin_, b = bmin_;
    int lb = std::max({f, b, f + b - 1});
    if (top_ > bottom_) lb = std::max(lb, 1);
    if (limit_ != kNoCost) lb = std::min(lb, static_cast<int>(limit_) + 1);
    return lb;
  }

  // The least cost plus bound of a dropped position (kNoCost: none was dropped). Every solution
  // the pass did not see costs at least this much.
  std::uint32_t dropped() const { return *std::min_element(dropped_.begin(), dropped_.end()); }

  std::uint64_t positions() const { return positions_; }
  std::uint64_t spill_peak() const { return ledger_.peak.load(); }

  // Whether the pass released levels it had expanded: its bounds stand, but path() cannot
  // walk a solution back.
  bool released() const { return released_; }
  // A position where run() found its answer (canonical form): one whose two sides' costs add up
  // to it when there is one, so that any fewest path to it and any from it join into a solution
  // with that many moves, and otherwise the answer's own (a move crosses it).
  Bits meeting() const {
    const std::uint32_t best = meet_fcost_ + meet_bcost_ - (meet_hole_ >= 0 ? 1 : 0);
    return plain_cost_ == best ? plain_meet_ : meet_;
  }
  // Releases every level (the pass is over).
  void release_all() {
    for (Level& lv : fwd_) release(lv);
    for (Level& lv : bwd_) release(lv);
  }

  // Called after each level the pass makes (true: a backward one), for checkpoints.
  std::function<void(bool)> on_level;

  // Writes one side's last level to `path`, a new file flushed to disk: a header (a tag, the
  // entry's bytes, the shards and each shard's count), each shard's entries in key order, and
  // a digest of the entries.
  void write_frontier(bool backward, const std::string& path) {
    const Level& lv = backward ? level(bwd_, bh_) : level(fwd_, fl_);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw InputError("checkpoint " + path + ": cannot create it");
    std::uint64_t head[3 + Level::kShards] = {kLevelTag, sizeof(Entry), Level::kShards};
    for (std::size_t d = 0; d < Level::kShards; ++d) head[3 + d] = lv.shard(d).size();
    bool ok = std::fwrite(head, sizeof head, 1, f) == 1;
    std::uint64_t digest = 0;
    std::vector<Entry> buf;
    for (std::size_t d = 0; d < Level::kShards && ok; ++d) {
      const LevelMap& m = lv.shard(d);
      auto put = [&](const Entry* e, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) digest = entry_digest(digest, e[k]);
        ok = ok && (n == 0 || std::fwrite(e, sizeof(Entry), n, f) == n);
      };
      if (m.sorted()) {
        for (std::size_t b = 0; b < m.size(); b += LevelMap::kChunk) {
          std::vector<Entry> chunk;
          m.for_range(
              b, std::min(m.size(), b + LevelMap::kChunk),
              [&](const Entry& e) { chunk.push_back(e); }, buf);
          put(chunk.data(), chunk.size());
        }
      } else {
        const std::size_t copy = m.size() * sizeof(Entry);
        grow(copy);  // the shard's entries sorted apart, booked while they live
        struct Unbook {
          Search& s;
          std::size_t n;
          ~Unbook() { s.bytes_ -= n; }
        } unbook{*this, copy};
        std::vector<Entry> all;
        all.reserve(m.size());
        m.for_each([&](const Entry& e) { all.push_back(e); });
        std::sort(all.begin(), all.end(),
                  [](const Entry& a, const Entry& b) { return a.key < b.key; });
        put(all.data(), all.size());
      }
    }
    ok = ok && std::fwrite(&digest, sizeof digest, 1, f) == 1 && std::fflush(f) == 0 &&
         ::fsync(fileno(f)) == 0;
    ok = std::fclose(f) == 0 && ok;
    if (!ok) throw InputError("checkpoint " + path + ": cannot write it");
  }

  // The pass part way, for a checkpoint (the file names are the caller's).
  PassState pass_state() const {
    PassState ps;
    ps.on = true;
    ps.limit = static_cast<int>(limit_);
    ps.fl = fl_;
    ps.bh = bh_;
    ps.fmin = fmin_;
    ps.bmin = bmin_;
    ps.dropped = dropped();
    ps.positions = positions_;
    return ps;
  }

  // Goes on with a pass saved part way (instead of seed()): its last levels read back from the
  // files `ps` names in `dir`. The levels before them are gone, so a meeting's solution is
  // rebuilt by searches of its own. Throws InputError when a file is missing or damaged.
  void restore(const PassState& ps, const std::string& dir) {
    fl_ = top_ = ps.fl;
    bh_ = bottom_ = ps.bh;
    fmin_ = ps.fmin;
    bmin_ = ps.bmin;
    dropped_[0] = ps.dropped;
    read_frontier(level(fwd_, fl_), dir + "/" + ps.ffile);
    read_frontier(level(bwd_, bh_), dir + "/" + ps.bfile);
    positions_ = ps.positions;
    released_ = true;
  }

  // The moves of a solution known before the pass, for the progress reports.
  void set_best_found(int moves) { best_found_ = moves; }
  // A lower bound proven before the pass, for the progress reports.
  void set_floor(int moves) { floor_ = moves; }

  // The jumps of a solution of `best` moves through the meeting position found by run().
  std::vector<Jump> path() const {
    std::vector<Jump> front = side_path<false>(meet_, meet_fcost_, meet_hole_);
    std::vector<Jump> back = side_path<true>(meet_, meet_bcost_, meet_hole_);
    front.insert(front.end(), back.begin(), back.end());
    return front;
  }

 private:
  static std::uint64_t entry_digest(std::uint64_t h, const Entry& e) {
    return (h ^ mix(e.key) ^ (fold(e.land()) * kGolden) ^ e.cost()) * 0x100000001b3ull;
  }

  // Reads a level write_frontier() wrote into `lv`: to disk when spilling, else into tables.
  void read_frontier(Level& lv, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError("--resume: the level file " + path + " is missing");
    auto bad = [&](const std::string& why) {
      std::fclose(f);
      return InputError("--resume: the level file " + path + " " + why);
    };
    std::uint64_t head[3 + Level::kShards];
    if (std::fread(head, sizeof head, 1, f) != 1 || head[0] != kLevelTag ||
        head[1] != sizeof(Entry) || head[2] != Level::kShards)
      throw bad("is not a level of this build's search");
    std::uint64_t digest = 0;
    std::vector<Entry> buf(LevelMap::kChunk);
    for (std::size_t d = 0; d < Level::kShards; ++d) {
      LevelMap& m = lv.shard(d);
      const std::size_t count = head[3 + d];
      std::uint64_t offset = 0;
      const std::shared_ptr<SpillFile>* file = nullptr;
      if (spilling() && count > 0) {
        file = &lv.file(o_.spill_dir, ledger_);
        offset = (*file)->size();
      }
      for (std::size_t done = 0; done < count;) {
        const std::size_t n = std::min(buf.size(), count - done);
        if (std::fread(buf.data(), sizeof(Entry), n, f) != n) throw bad("is cut short");
        for (std::size_t k = 0; k < n; ++k) {
          digest = entry_digest(digest, buf[k]);
          if (!file) merge(m, buf[k].key, buf[k].cost(), buf[k].land());
        }
        if (file) (*file)->append(buf.data(), n * sizeof(Entry));
        done += n;
      }
      if (file) m.adopt(*file, offset, count);
    }
    std::uint64_t stored = 0;
    if (std::fread(&stored, sizeof stored, 1, f) != 1 || stored != digest)
      throw bad("does not match its digest (damaged)");
    std::fclose(f);
  }

  static Level& level(std::vector<Level>& v, int k) { return v[static_cast<std::size_t>(k)]; }
  static const Level& level(const std::vector<Level>& v, int k) {
    return v[static_cast<std::size_t>(k)];
  }

  // Counts `more` bytes against the budget (from any thread).
  void grow(std::size_t more) {
    if (bytes_.fetch_add(more) + more > budget_) {
      bytes_ -= more;
      throw Stopped(StopReason::Memory);
    }
  }

  // Merges into one shard, keeping the byte and position counts.
  void merge(LevelMap& m, Bits key, std::uint32_t cost, Bits land) {
    std::size_t before = m.size(), old_bytes = m.bytes();
    m.merge(key, cost, land, [&](std::size_t b) { grow(b); });
    if (m.bytes() != old_bytes) bytes_ -= old_bytes;
    positions_ += m.size() - before;
  }

  void insert(Level& lv, Bits pegs, std::uint32_t cost, Bits land) {
    auto [key, l] = geo_.canonical(pegs, land);
    merge(lv.shard(Level::shard_of(key)), key, cost, l);
  }

  static std::uint32_t min_cost(const Level& m) {
    std::uint32_t c = kNoCost;
    m.for_each([&](const Entry& e) { c = std::min(c, e.cost()); });
    return c;
  }

  // Every child of the level `src` into `dst`: Backward takes jumps back. The parent's images
  // under the group are made once; each child's come from them by the jump's images. Rounds of
  // one slot range per thread: the threads make the children of their ranges, sorted by the
  // destination shard, then merge them, each thread its own shards.
  template <bool Backward>
  void expand(const Level& src, Level& dst) {
    if (!spilling()) {
      expand_group<Backward>(src, dst, kAllShards);
      return;
    }
    // Spilling: the destination's shards in groups, each made by a walk of the whole source,
    // sorted, and written to disk with every other sorted level once memory runs short. A
    // group that outgrows the budget is made again in two halves (the walks' children are the
    // same, so the level is too).
    if (o_.spill_always) groups_ = Level::kShards;
    if (o_.spill_always || bytes_ > budget_ / 2) spill_all();
    std::vector<std::uint32_t> todo;
    const int per = Level::kShards / groups_;
    for (int g = groups_ - 1; g >= 0; --g)
      todo.push_back(((std::uint32_t{1} << per) - 1) << (g * per));
    while (!todo.empty()) {
      const std::uint32_t group = todo.back();
      todo.pop_back();
      try {
        expand_group<Backward>(src, dst, group);
        for (std::size_t d = 0; d < Level::kShards; ++d)
          if (group >> d & 1) compact(dst.shard(d));
      } catch (const Stopped& e) {
        if (e.reason != StopReason::Memory) throw;
        for (std::size_t d = 0; d < Level::kShards; ++d)
          if (group >> d & 1) {
            positions_ -= dst.shard(d).size();
            bytes_ -= dst.shard(d).bytes();
            dst.shard(d).clear();
          }
        for (auto& t : out_)
          for (std::vector<Child>& v : t) v.clear();
        if (spill_all() > 0) {  // room made on disk: the same group again
          todo.push_back(group);
          continue;
        }
        const int n = std::popcount(group);
        if (n == 1) throw;
        const std::uint32_t low = group & ~(group - 1);
        std::uint32_t half = 0;
        for (int k = 0; k < n / 2; ++k) half |= low << k;
        todo.push_back(group & ~half);
        todo.push_back(half);
        groups_ = std::max(groups_, Level::kShards * 2 / n);
        continue;
      }
      if (o_.spill_always || bytes_ > budget_ / 2) spill_all();
    }
  }

  static constexpr std::uint32_t kAllShards = (std::uint32_t{1} << Level::kShards) - 1;

  bool spilling() const { return may_release_ && !o_.spill_dir.empty(); }

  // Writes every sorted level held in memory to disk. Returns the bytes freed.
  std::size_t spill_all() {
    std::size_t freed = 0;
    for (auto* side : {&fwd_, &bwd_})
      for (Level& lv : *side) freed += lv.spill(o_.spill_dir, ledger_);
    bytes_ -= freed;
    return freed;
  }

  // Expands `src` into the shards of `dst` in `group` (a bit per shard): children of the
  // other shards are made and dropped.
  template <bool Backward>
  void expand_group(const Level& src, Level& dst, std::uint32_t group) {
    for (std::size_t d = 0; d < Level::kShards; ++d) {
      if (!(group >> d & 1)) continue;
      LevelMap& m = dst.shard(d);
      std::size_t old_bytes = m.bytes();
      m.reserve(src.size() / Level::kShards + 1, [&](std::size_t b) { grow(b); });
      if (m.bytes() != old_bytes) bytes_ -= old_bytes;
    }
    struct Unit {
      std::size_t shard, begin, end;
    };
    constexpr std::size_t kRange = std::size_t{1} << 14;
    std::vector<Unit> units;
    for (std::size_t sh = 0; sh < Level::kShards; ++sh)
      for (std::size_t b = 0; b < src.shard(sh).capacity(); b += kRange)
        units.push_back({sh, b, std::min(src.shard(sh).capacity(), b + kRange)});
    // Small levels on the calling thread: waking the pool would cost more than it saves.
    const int threads = src.size() < o_.shared_level ? 1 : threads_;
    if (threads > 1 && !pool_) pool_.emplace(threads_);
    auto run = [&](const std::function<void(int)>& f) {
      if (threads == 1)
        f(0);
      else
        pool_->run(threads, f);
    };
    const auto nt = static_cast<std::size_t>(threads);
    for (std::size_t u0 = 0; u0 < units.size(); u0 += nt) {
      run([&](int t) {
        auto ut = static_cast<std::size_t>(t);
        if (u0 + ut >= units.size()) return;
        o_.control->throw_if_stopped();
        const Unit& u = units[u0 + ut];
        children<Backward>(src.shard(u.shard), u.begin, u.end, out_[ut], dropped_[ut], read_[ut],
                           group);
      });
      book_buffers();
      run([&](int t) {
        for (auto d = static_cast<std::size_t>(t); d < Level::kShards; d += nt) {
          if (!(group >> d & 1)) continue;
          LevelMap& m = dst.shard(d);
          for (std::size_t q = 0; q < nt; ++q) {
            std::vector<Child>& v = out_[q][d];
            for (std::size_t k = 0; k < v.size(); ++k) {
              if (k + 8 < v.size()) m.prefetch(v[k + 8].key);
              merge(m, v[k].key, v[k].cost, v[k].land);
            }
            v.clear();
          }
        }
      });
    }
  }

  // The children of the entries [begin, end) of `src` (read through `buf` from disk) for the
  // destination shards in `group`, by shard into `out`.
  template <bool Backward>
  void children(const LevelMap& src, std::size_t begin, std::size_t end,
                std::vector<std::vector<Child>>& out, std::uint32_t& dropped,
                std::vector<Entry>& buf, std::uint32_t group) const {
    const std::size_t nj = geo_.jumps.size();
    const int gs = geo_.group_size();
    const Bits* fo = geo_.fo.data();
    const Bits* all = geo_.all.data();
    const Jump* jumps = geo_.jumps.data();
    const Bits* jump_image = geo_.jump_image.data();
    const Bits* hole_image = geo_.hole_image.data();
    const int* into = geo_.into.data();
    const int* into_begin = geo_.into_begin.data();
    const Bits full = geo_.full;
    std::array<Bits, 48> parent{}, img{};
    src.for_range(
        begin, end,
        [&](const Entry& e) {
          bool imaged = false;
          const Bound::Pack family = bound_ ? bound_->pack<Backward>(e.key) : Bound::Pack{};
          // The jumps into each empty hole (forward) or each peg (taken back).
          for (Bits holes = Backward ? e.key : ~e.key & full; holes; holes &= holes - 1) {
            const int h = ctz(holes);
            for (int k = into_begin[h]; k < into_begin[h + 1]; ++k) {
              const auto j = static_cast<std::size_t>(into[k]);
              const bool legal = Backward ? !(e.key & fo[j]) : (e.key & fo[j]) == fo[j];
              if (!legal) continue;
              const Jump& jp = jumps[j];
              const int start = Backward ? jp.to : jp.from, land = Backward ? jp.from : jp.to;
              const std::uint32_t c = e.cost() + ((e.land() >> start & 1) ? 0 : 1);
              Bits key = e.key ^ all[j], l = bit(land);
              if (bound_) {  // on the child as made: any frame bounds the same cost
                const int bc = bound_->child<Backward>(family, key, jp);
                if (bc >= Bound::kDead) continue;  // on no solution, at any limit
                const auto f = c + static_cast<std::uint32_t>(bc);
                if (f > limit_) {
                  dropped = std::min(dropped, f);
                  continue;
                }
              }
              if (gs > 1) {
                if (!imaged) {
                  for (int g = 0; g < gs; ++g)
                    parent[static_cast<std::size_t>(g)] = geo_.image(g, e.key);
                  imaged = true;
                }
                for (int g = 0; g < gs; ++g) {
                  auto ug = static_cast<std::size_t>(g);
                  img[ug] = parent[ug] ^ jump_image[ug * nj + j];
                  key = std::min(key, img[ug]);
                }
                l = 0;
                for (int g = 0; g < gs; ++g) {
                  auto ug = static_cast<std::size_t>(g);
                  if (img[ug] == key) l |= hole_image[ug * kWidth + static_cast<std::size_t>(land)];
                }
              }
              const std::size_t shard = Level::shard_of(key);
              if (group >> shard & 1) out[shard].push_back(Child{key, l, c});
            }
          }
        },
        buf);
  }

  // A level the pass has expanded takes no more positions: half the room as a sorted array.
  void compact(Level& lv) {
    for (std::size_t d = 0; d < Level::kShards; ++d) compact(lv.shard(d));
  }
  void compact(LevelMap& m) {
    const std::size_t old_bytes = m.bytes();
    if (m.compact([&](std::size_t b) { grow(b); })) bytes_ -= old_bytes;
  }

  // Expands `src` into `dst`. When memory runs short and levels can be released, releases them
  // and expands again.
  template <bool Backward>
  void expand_or_release(const Level& src, Level& dst) {
    if (may_release_ && o_.release_levels) release_expanded();
    try {
      expand<Backward>(src, dst);
    } catch (const Stopped& e) {
      if (e.reason != StopReason::Memory || !may_release_ || !release_expanded()) throw;
      for (auto& t : out_)
        for (std::vector<Child>& v : t) v.clear();
      positions_ -= dst.size();
      release(dst);
      expand<Backward>(src, dst);
    }
  }

  // An expanded level: a sorted array for walking a path back, or, once the pass releases
  // levels, nothing.
  void settle_expanded(Level& lv) {
    if (!released_) {
      try {
        compact(lv);
        return;
      } catch (const Stopped& e) {
        if (e.reason != StopReason::Memory || !may_release_) throw;
        release_expanded();
      }
    }
    release(lv);
  }

  void release(Level& lv) {
    bytes_ -= lv.bytes();
    lv.clear();
  }

  // Books the children's buffers against the budget as they grow (they keep their room from
  // round to round).
  void book_buffers() {
    std::size_t room = 0;
    for (const auto& t : out_)
      for (const std::vector<Child>& v : t) room += v.capacity() * sizeof(Child);
    for (const std::vector<Entry>& v : read_) room += v.capacity() * sizeof(Entry);
    if (room > buffers_) {
      grow(room - buffers_);
      buffers_ = room;
    }
  }

  // Releases every expanded level (the sides' last levels stay). True when that freed anything.
  bool release_expanded() {
    bool freed = false;
    auto free = [&](Level& lv) {
      freed |= lv.bytes() > 0;
      release(lv);
    };
    for (int k = fl_ + 1; k <= top_; ++k) free(level(fwd_, k));
    for (int k = bottom_; k < bh_; ++k) free(level(bwd_, k));
    released_ = released_ || freed || o_.release_levels;
    return freed;
  }

  void expand_forward() {
    expand_or_release<false>(level(fwd_, fl_), level(fwd_, fl_ - 1));
    settle_expanded(level(fwd_, fl_));
    trim_heap();
    --fl_;
    std::uint32_t m = min_cost(level(fwd_, fl_));
    if (m != kNoCost) fmin_ = static_cast<int>(m);
  }

  void expand_backward() {
    expand_or_release<true>(level(bwd_, bh_), level(bwd_, bh_ + 1));
    settle_expanded(level(bwd_, bh_));
    trim_heap();
    ++bh_;
    std::uint32_t m = min_cost(level(bwd_, bh_));
    if (m != kNoCost) bmin_ = static_cast<int>(m);
  }

  int join() {
    const Level& f = level(fwd_, fl_);
    const Level& b = level(bwd_, bh_);
    const bool f_small = f.size() <= b.size();
    const Level& scan = f_small ? f : b;
    const Level& other = f_small ? b : f;
    std::uint32_t best = kNoCost;
    auto meet = [&](const Entry& fe, const Entry& be) {
      const Entry& e = fe;
      Bits shared = fe.land() & be.land();
      std::uint32_t c = fe.cost() + be.cost() - (shared ? 1 : 0);
      const std::uint32_t plain = fe.cost() + be.cost();  // no move across the middle
      if (plain < plain_cost_ || (plain == plain_cost_ && e.key < plain_meet_)) {
        plain_cost_ = plain;
        plain_meet_ = e.key;
      }
      if (c < best ||
          (c == best && e.key < meet_)) {  // the least key: the same for any thread count
        best = c;
        meet_ = e.key;
        meet_fcost_ = fe.cost();
        meet_bcost_ = be.cost();
        meet_hole_ = shared ? ctz(shared) : -1;
      }
    };
    bool sorted = true;
    for (std::size_t d = 0; d < Level::kShards; ++d)
      sorted = sorted && f.shard(d).sorted() && b.shard(d).sorted();
    if (sorted && (f.size() > 0 && b.size() > 0)) {
      // Both in key order (spilled levels): one walk of each shard pair, a chunk at a time.
      for (std::size_t d = 0; d < Level::kShards; ++d) {
        SortedReader x(f.shard(d)), y(b.shard(d));
        while (x.peek() && y.peek()) {
          if (x.peek()->key < y.peek()->key) {
            x.next();
          } else if (y.peek()->key < x.peek()->key) {
            y.next();
          } else {
            meet(*x.peek(), *y.peek());
            x.next();
            y.next();
          }
        }
      }
    } else {
      scan.for_each([&](const Entry& e) {
        Entry o;
        if (!other.find(e.key, o)) return;
        if (f_small)
          meet(e, o);
        else
          meet(o, e);
      });
    }
    return best == kNoCost ? -1 : static_cast<int>(best);
  }

  State lookup(const Level& m, Bits pegs) const {
    auto [key, g] = geo_.canonical_key(pegs);
    Entry e;
    if (!m.find(key, e)) return {};
    return {e.cost(), g == 0 ? e.land() : geo_.preimage(g, e.land())};
  }

  // Forward: jumps from a start to `pegs` with `cost` moves whose last jump lands on `hole`.
  // Backward: jumps from `pegs` to a goal with `cost` moves whose first jump starts from `hole`.
  // (-1: any.) Each step finds a jump to a neighbouring level's position whose state gives it.
  template <bool Backward>
  std::vector<Jump> side_path(Bits pegs, std::uint32_t cost, int hole) const {
    std::vector<Jump> out;
    for (int k = pop(pegs); Backward ? k > bottom_ : k < top_; k += Backward ? -1 : 1) {
      bool found = false;
      for (std::size_t j = 0; j < geo_.jumps.size() && !found; ++j) {
        const Jump& jp = geo_.jumps[j];
        // The hole the path's end of the jump stands on, and the one the neighbour's L holds.
        const int near = Backward ? jp.from : jp.to, far = Backward ? jp.to : jp.from;
        if (hole >= 0 && near != hole) continue;
        const bool legal = Backward ? (pegs & geo_.fo[j]) == geo_.fo[j] && !(pegs & geo_.t[j])
                                    : (pegs & geo_.t[j]) && !(pegs & geo_.fo[j]);
        if (!legal) continue;
        const Bits other = pegs ^ geo_.all[j];
        State s = lookup(Backward ? level(bwd_, k - 1) : level(fwd_, k + 1), other);
        if (s.cost == kNoCost) continue;
        const bool chain = s.land >> far & 1;
        if (s.cost + (chain ? 0 : 1) != cost) continue;
        out.push_back(jp);
        pegs = other;
        cost = s.cost;
        hole = chain ? far : -1;
        found = true;
      }
      if (!found)
        throw std::logic_error(std::string("fewest moves: the ") +
                               (Backward ? "backward" : "forward") + " path breaks off");
    }
    if (!Backward) std::reverse(out.begin(), out.end());
    return out;
  }

  void report(bool force) {
    if (!o_.progress || !o_.control) return;
    double now = o_.control->elapsed_seconds();
    if (!force && now < next_report_) return;
    next_report_ = now + 0.5;
    o_.progress(FewestProgress{now, positions_, std::max(floor_, lower_bound()), best_found_, fl_,
                               bh_, released_});
  }

  const Geometry& geo_;
  const FewestOptions& o_;
  const Bound* bound_ = nullptr;
  std::uint32_t limit_ = kNoCost;
  std::vector<Level> fwd_, bwd_;
  int fl_ = 0, bh_ = 0, top_ = 0, bottom_ = 0;
  int fmin_ = 0, bmin_ = 0;
  int threads_ = 1;
  std::optional<WorkerPool> pool_;  // made for the first level large enough to share
  std::vector<std::vector<std::vector<Child>>> out_;  // [thread][destination shard]
  std::vector<std::vector<Entry>> read_;              // [thread]: entries read from disk
  SpillLedger ledger_;                                // the spill files' bytes on disk
  int groups_ = 1;  // groups of destination shards a level is made in (spilling)
  std::vector<std::uint32_t> dropped_;  // [thread]: least cost + bound dropped
  std::atomic<std::size_t> bytes_{0};
  std::size_t budget_ = 0;
  std::size_t buffers_ = 0;  // bytes of out_'s buffers booked in bytes_
  std::atomic<std::uint64_t> positions_{0};
  double next_report_ = 0;
  int best_found_ = -1;  // moves of a solution known before the pass (progress only)
  int floor_ = 0;        // a lower bound proven before the pass (progress only)
  Bits meet_ = 0;
  std::uint32_t meet_fcost_ = 0, meet_bcost_ = 0;
  int meet_hole_ = -1;
  std::uint32_t plain_cost_ = kNoCost;  // the least sum of a meeting's two costs,
  Bits plain_meet_ = 0;                 // and its least position
  bool may_release_ = false;            // run(): a pass may release levels; run_beam(): not
  bool released_ = false;               // expanded levels were released (release_expanded)
};

// What a search takes from its caller beyond the problem: a floor proven before (a resumed run),
// a cap for a sweep (the split), and a report after each completed pass (a checkpoint).
struct PassHooks {
  int start_floor = 0;  // every solution has at least this many moves (passes start there)
  int cap = -1;         // >= 0: return (status Unknown, reason "capped") once the floor exceeds it
  // After each pass that raised the floor, and each better solution before the passes: the
  // floor, the best solution (empty: none) and the positions stored so far.
  std::function<void(int, const std::vector<Jump>&, std::uint64_t)> on_pass;
  // A pass saved part way (its last levels in files in level_dir): the pass at its limit
  // starts from there instead of the starts and goals.
  const PassState* resume_pass = nullptr;
  std::string level_dir;
  // After each level a pass makes (true: a backward one), with the positions of the passes
  // before it.
  std::function<void(Search&, bool, std::uint64_t)> on_level;
};

void search(const Board& b, const std::vector<Bits>& starts, const std::vector<Bits>& goals,
            const HoleSet* start, const FewestOptions& o, FewestResult& r,
            const std::vector<Jump>& known = {}, bool polish_known = true,
            const PassHooks* hooks = nullptr);

// The options of a search inside another (a window, a rebuild): no beam, no progress, and
// levels kept unless memory runs short, since its solution is what it is for.
FewestOptions inner(const FewestOptions& o) {
  FewestOptions so = o;
  so.beam = 0;
  so.progress = nullptr;
  so.release_levels = false;
  return so;
}

// A solution through `meet`: the fewest moves from a start to it, then from it to a goal, each
// found by a search of its own (empty when either finds none). Adds their positions.
std::vector<Jump> through(const Board& b, const std::vector<Bits>& starts,
                          const std::vector<Bits>& goals, Bits meet, const FewestOptions& o,
                          std::uint64_t& positions) {
  // Each search is shorter than the whole, unless the sides met at an end.
  if (pop(meet) >= pop(starts.front()) || pop(meet) <= pop(goals.front())) return {};
  const FewestOptions so = inner(o);
  FewestResult to, from;
  search(b, starts, {meet}, nullptr, so, to);
  positions += to.positions;
  if (to.jumps.empty()) return {};
  search(b, {meet}, goals, nullptr, so, from);
  positions += from.positions;
  if (from.jumps.empty()) return {};
  to.jumps.insert(to.jumps.end(), from.jumps.begin(), from.jumps.end());
  return to.jumps;
}

HoleSet to_holes(const Board& b, Bits x) {
  HoleSet s(b.size());
  for (; x; x &= x - 1) s.set(ctz(x));
  return s;
}

// The fewest moves between the positions before move `a` and after move `a + span` of `sol`
// (from `start`), found by a search of its own under `budget` bytes: `sol` with that window
// replaced when that has fewer moves, else empty. `complete`: the window's search finished.
std::vector<Jump> rewindow(const Board& b, Bits start, const std::vector<Jump>& sol, std::size_t a,
                           std::size_t span, std::size_t budget, const FewestOptions& o,
                           bool& complete) {
  const std::vector<Move> moves = group_moves(sol);
  std::size_t i = 0;
  for (std::size_t m = 0; m < a; ++m) i += moves[m].jumps.size();
  std::size_t j = i;
  for (std::size_t m = a; m < a + span; ++m) j += moves[m].jumps.size();
  Bits from = start;
  for (std::size_t k = 0; k < i; ++k) from ^= bit(sol[k].from) | bit(sol[k].over) | bit(sol[k].to);
  Bits to = from;
  for (std::size_t k = i; k < j; ++k) to ^= bit(sol[k].from) | bit(sol[k].over) | bit(sol[k].to);
  Control window(o.control);
  window.set_memory_budget(budget);
  FewestOptions wo = inner(o);
  wo.control = &window;
  FewestResult wr;
  const HoleSet first = to_holes(b, from);
  const std::vector<Jump> part(sol.begin() + static_cast<std::ptrdiff_t>(i),
                               sol.begin() + static_cast<std::ptrdiff_t>(j));
  search(b, {from}, {to}, &first, wo, wr, part, false);
  complete = wr.status != Status::Unknown;
  if (wr.status != Status::Solved || wr.moves < 0 || static_cast<std::size_t>(wr.moves) >= span)
    return {};
  std::vector<Jump> next(sol.begin(), sol.begin() + static_cast<std::ptrdiff_t>(i));
  next.insert(next.end(), wr.jumps.begin(), wr.jumps.end());
  next.insert(next.end(), sol.begin() + static_cast<std::ptrdiff_t>(j), sol.end());
  if (count_moves(next) >= count_moves(sol)) return {};
  return next;
}

std::size_t budget_of(const FewestOptions& o) {
  return tables_budget(o);
}

// Shortens a solution from `start` window by window: the jumps of each run of consecutive moves
// give way to the fewest moves between the positions before and after them, found by a search
// of their own under a share of the memory budget (a window that budget stops stays as it was).
// Wider windows follow narrower ones; it ends when none improves or the control stops it.
std::vector<Jump> polish(const Board& b, Bits start, std::vector<Jump> sol,
                         const FewestOptions& o) {
  const std::size_t budget = std::max(std::size_t{32} << 20, budget_of(o) / 32);
  for (const std::size_t span : {4, 6, 8}) {
    for (std::size_t a = 0; a + span <= group_moves(sol).size();) {
      bool complete = false;
      std::vector<Jump> next = rewindow(b, start, sol, a, span, budget, o, complete);
      if (o.control->should_stop()) return sol;
      if (next.empty()) {
        ++a;
        continue;
      }
      sol = std::move(next);  // the same window start, over the new moves
    }
  }
  return sol;
}

// Shortens a solution by windows anchored at its ends, for when the passes cannot prove it:
// the last w moves (from the position before them to the final one) and then the first w (from
// the start), w growing a move at a time from 10 while a window's search finishes under half
// the memory budget and leaves at least 4 moves outside it. A window that improves starts its
// end again at 10, and then the fixed windows run again. The positions near the end hold few
// pegs, so a window there reaches far back for little: most of what this finds, it finds there.
std::vector<Jump> polish_ends(const Board& b, Bits start, std::vector<Jump> sol,
                              const FewestOptions& o, int lower) {
  const std::size_t budget = budget_of(o) / 2;
  for (bool improved = true; improved;) {
    improved = false;
    for (const bool tail : {true, false}) {
      for (std::size_t w = 10; w + 4 <= group_moves(sol).size();) {
        const std::size_t n = group_moves(sol).size();
        if (o.progress) {
          FewestProgress p;
          p.seconds = o.control->elapsed_seconds();
          p.lower_bound = lower;
          p.best_found = static_cast<int>(n);
          p.shortening = true;
          p.window = static_cast<int>(w);
          o.progress(p);
        }
        bool complete = false;
        std::vector<Jump> next = rewindow(b, start, sol, tail ? n - w : 0, w, budget, o, complete);
        if (o.control->should_stop()) return sol;
        if (!next.empty()) {
          sol = std::move(next);
          improved = true;
          w = 10;
        } else if (complete) {
          ++w;
        } else {
          break;
        }
      }
    }
    if (improved) sol = polish(b, start, std::move(sol), o);
  }
  return sol;
}

// Runs the search between `starts` and `goals` and fills `r`; `known` is a solution found before
// (may be empty). With pruning, passes run under a rising limit: each either finds a solution
// no dearer than every position it dropped (the fewest) or proves that every solution costs at
// least the least dropped cost, which is the next limit.
void search(const Board& b, const std::vector<Bits>& starts, const std::vector<Bits>& goals,
            const HoleSet* start, const FewestOptions& o, FewestResult& r,
            const std::vector<Jump>& known, bool polish_known, const PassHooks* hooks) {
  Geometry geo(b, keeping(b, {starts, goals}, o.symmetry));
  std::optional<Bound> bound;
  if (o.prune) bound.emplace(b, starts, goals, o.pagoda_jumps);
  const double t0 = o.control->elapsed_seconds();
  std::vector<Jump> best = known;  // the best solution found so far
  int best_moves = known.empty() ? -1 : count_moves(known);
  // No solution costs less than `floor`: at first the bound of the cheapest start.
  std::uint32_t floor = 0;
  if (bound) {
    floor = kNoCost;
    for (Bits s : starts) floor = std::min(floor, static_cast<std::uint32_t>(bound->forward(s)));
    if (hooks && hooks->start_floor > 0)  // proven by passes of an earlier run
      floor = std::max(floor, static_cast<std::uint32_t>(hooks->start_floor));
  }
  std::uint64_t positions = 0;
  // Tells the hooks of a settled floor or a better solution (a checkpoint).
  auto passed = [&](int best_count) {
    if (hooks && hooks->on_pass)
      hooks->on_pass(static_cast<int>(floor), best_count >= 0 ? best : std::vector<Jump>{},
                     positions);
  };
  auto settle = [&](Status status, int lower) {
    r.status = status;
    r.lower_bound = lower;
    r.jumps = best;
    r.moves = best_moves;
    r.proven = status == Status::Solved;
  };
  bool stopped = false;
  bool resumed = false;        // the pass saved part way has been taken up
  bool out_of_memory = false;  // a pass ran out of memory: the proof is out of reach
  int released_fewest = -1;    // the fewest, proven by a pass whose levels were released
  auto stop = [&](StopReason why, int lower) {
    stopped = true;
    r.stop = why;
    settle(Status::Unknown, lower);
    r.reason = std::string("stopped: ") + std::string(stop_reason_name(why));
    if (best_moves >= 0 && lower >= best_moves) {  // the stop came after the proof
      settle(Status::Solved, best_moves);
      r.reason.clear();
      r.stop = StopReason::None;
    }
  };
  // A beam first: a solution close to the fewest, cheaply. It is the best found when a stop
  // cuts the passes short, and it caps their limit.
  if (bound && o.beam > 0) {
    Search s(geo, o, &*bound, kNoCost);
    try {
      s.seed(starts, goals);
      const int found = s.run_beam(o.beam);
      positions += s.positions();
      if (found >= 0 && (best_moves < 0 || found < best_moves)) {
        best = s.path();
        best_moves = count_moves(best);
        if (best_moves != found) throw std::logic_error("fewest moves: the beam's path disagrees");
      }
    } catch (const Stopped& e) {
      positions += s.positions();
      stop(e.reason, static_cast<int>(floor));
      out_of_memory = e.reason == StopReason::Memory;
    }
  }
  // The best known shortened window by window, while the passes are still to prove it.
  if (polish_known && bound && !stopped && best_moves > static_cast<int>(floor)) {
    for (Bits s0 : starts) {
      if (!replay(b, to_holes(b, s0), best).ok) continue;
      std::vector<Jump> shorter = polish(b, s0, best, o);
      if (count_moves(shorter) < best_moves) {
        best = std::move(shorter);
        best_moves = count_moves(best);
        passed(best_moves);
      }
      break;
    }
    if (o.control->checkpoint()) stop(o.control->stop_reason(), static_cast<int>(floor));
  }
  while (!stopped) {
    if (best_moves >= 0 && floor >= static_cast<std::uint32_t>(best_moves)) {
      settle(Status::Solved, best_moves);
      break;
    }
    if (hooks && hooks->cap >= 0 && bound && floor > static_cast<std::uint32_t>(hooks->cap)) {
      settle(Status::Unknown, static_cast<int>(floor));  // the caller's sweep goes on from here
      r.reason = "capped";
      break;
    }
    // The limit: the floor. A pass's cost grows steeply with its limit, so a pass at the floor
    // that does not settle the question costs little beside one a move above it that would.
    // (Passes at the floor plus one once a solution was known lost to this when the bound took
    // the peg types; docs/fewest.md.)
    const std::uint32_t limit = bound ? floor : kNoCost;
    Search s(geo, o, bound ? &*bound : nullptr, limit);
    s.set_best_found(best_moves);
    s.set_floor(static_cast<int>(floor));
    int found = -1;
    try {
      if (hooks && hooks->resume_pass && !resumed && bound &&
          static_cast<int>(limit) == hooks->resume_pass->limit) {
        s.restore(*hooks->resume_pass, hooks->level_dir);
        resumed = true;
      } else {
        s.seed(starts, goals);
      }
      if (hooks && hooks->on_level)
        s.on_level = [&](bool backward) { hooks->on_level(s, backward, positions); };
      found = s.run();
    } catch (const Stopped& e) {
      positions += s.positions();
      r.spill_peak_bytes = std::max(r.spill_peak_bytes, s.spill_peak());
      stop(e.reason, std::max(static_cast<int>(floor), s.lower_bound()));
      out_of_memory = e.reason == StopReason::Memory;
      break;
    }
    positions += s.positions();
    r.spill_peak_bytes = std::max(r.spill_peak_bytes, s.spill_peak());
    const bool better = found >= 0 && (best_moves < 0 || found < best_moves);
    if (better && s.released()) {
      // The pass met at `found`, no more than its limit, the floor: that is the fewest. It
      // released the levels a solution is walked back through, so one is sought through the
      // meeting position by two searches of their own, to it and from it.
      const Bits meet = s.meeting();
      s.release_all();
      std::vector<Jump> joined = through(b, starts, goals, meet, o, positions);
      if (!joined.empty() && (best_moves < 0 || count_moves(joined) < best_moves)) {
        best = std::move(joined);
        best_moves = count_moves(best);
      }
      if (best_moves == found) {
        settle(Status::Solved, best_moves);
        break;
      }
      stop(o.control->checkpoint() ? o.control->stop_reason() : StopReason::Memory, found);
      out_of_memory = r.stop == StopReason::Memory;
      released_fewest = found;
      break;
    }
    if (better) {
      best = s.path();
      best_moves = count_moves(best);
      if (best_moves != found)
        throw std::logic_error("fewest moves: the path has " + std::to_string(best_moves) +
                               " moves, the pass " + std::to_string(found));
    }
    // Every solution the pass did not see costs at least `dropped`, and it saw every cheaper one.
    const std::uint32_t dropped = s.dropped();
    if (dropped == kNoCost) {
      if (best_moves < 0) {
        settle(Status::Impossible, 0);
        r.reason = "no solution: the completed level pass found no position both sides reach";
      } else {
        settle(Status::Solved, best_moves);
      }
      break;
    }
    if (dropped <= floor) throw std::logic_error("fewest moves: the limit does not rise");
    floor = dropped;
    if (found >= 0 && static_cast<std::uint32_t>(found) <= dropped) {
      settle(Status::Solved, best_moves);
      break;
    }
    passed(best_moves);
  }
  // Out of memory for the proof (its pass is gone, and its memory with it): what time is left
  // goes to the best solution, by windows anchored at its ends.
  if (out_of_memory && o.shorten_ends && polish_known && bound && best_moves > r.lower_bound) {
    const int lower = r.lower_bound;
    for (Bits s0 : starts) {
      if (!replay(b, to_holes(b, s0), best).ok) continue;
      std::vector<Jump> shorter = polish_ends(b, s0, best, o, lower);
      if (count_moves(shorter) < best_moves) {
        best = std::move(shorter);
        best_moves = count_moves(best);
      }
      break;
    }
    stop(StopReason::Memory, lower);
  }
  if (released_fewest >= 0 && best_moves > released_fewest)
    r.reason += " (the fewest is " + std::to_string(released_fewest) +
                " moves, but the levels to rebuild such a solution were released)";
  r.positions = positions;
  r.seconds = o.control->elapsed_seconds() - t0;
  if (start && !r.jumps.empty()) {
    Replay rep = replay(b, *start, r.jumps);
    if (!rep.ok) throw std::logic_error("fewest moves: the solution does not replay: " + rep.error);
  }
}

// Forgets the pass saved part way and removes its level files.
void end_pass(const std::string& dir, FewestState& st) {
  if (!st.pass.on) return;
  std::remove((dir + "/" + st.pass.ffile).c_str());
  std::remove((dir + "/" + st.pass.bfile).c_str());
  st.pass = PassState{};
}

// The hooks that keep `ck`'s state after each pass of a search (none when it is off), with the
// seconds counted from `t0`; `best_ok` says whether a solution belongs in the state.
PassHooks checkpoint_hooks(Checkpoints& ck, const FewestOptions& o, double t0) {
  PassHooks h;
  h.start_floor = ck.state().floor;
  if (!ck.on()) return h;
  h.on_pass = [&ck, &o, t0](int floor, const std::vector<Jump>& best, std::uint64_t positions) {
    FewestState& st = ck.state();
    if (st.pass.on && floor > st.pass.limit) end_pass(o.checkpoint_dir, st);
    st.floor = std::max(st.floor, floor);
    if (!best.empty() && (st.best.empty() || count_moves(best) < count_moves(st.best)))
      st.best = best;
    ck.save(positions, o.control->elapsed_seconds() - t0);
  };
  return h;
}

// The state's solution when it still solves the problem from `start` (one of `starts`, or any
// single vacancy when null) to a goal: else an InputError naming the checkpoint.
void check_state_solution(const Board& b, const FewestState& st, const std::vector<Bits>& starts,
                          const std::vector<Bits>& goals, const FewestOptions& o) {
  if (st.best.empty()) return;
  for (const Jump& j : st.best)
    if (j.from < 0 || j.over < 0 || j.to < 0 || j.from >= b.size() || j.over >= b.size() ||
        j.to >= b.size())
      throw InputError("--resume " + o.checkpoint_dir + ": the state's solution names a hole " +
                       "that is not on the board");
  for (Bits s0 : starts) {
    const Replay rep = replay(b, to_holes(b, s0), st.best);
    if (!rep.ok) continue;
    const Bits end = to_bits(rep.final);
    for (Bits g : goals)
      if (g == end) return;
  }
  throw InputError("--resume " + o.checkpoint_dir +
                   ": the state's solution does not solve this problem");
}

// Runs `search` with checkpoints: resumed from the state in o.checkpoint_dir when o.resume,
// the state written after each pass and at the end. The result's positions and seconds include
// the runs before.
void search_checkpointed(const Board& b, const std::vector<Bits>& starts,
                         const std::vector<Bits>& goals, const HoleSet* start,
                         const FewestOptions& o, FewestResult& r, std::vector<Jump> known,
                         const std::string& what) {
  Checkpoints ck(o.checkpoint_dir, o.resume, problem_identity(b, what));
  ck.after_save = o.checkpointed;
  FewestState& st = ck.state();
  check_state_solution(b, st, starts, goals, o);
  if (!st.best.empty() && (known.empty() || count_moves(st.best) < count_moves(known)))
    known = st.best;
  const double t0 = o.control->elapsed_seconds();
  FewestOptions so = o;
  so.checkpoint_dir.clear();
  so.resume = false;
  PassHooks h = checkpoint_hooks(ck, o, t0);
  if (st.pass.on && (old_level_file(o.checkpoint_dir + "/" + st.pass.ffile) ||
                     old_level_file(o.checkpoint_dir + "/" + st.pass.bfile)))
    end_pass(o.checkpoint_dir, st);  // levels of the mixer before: the pass is made again
  const PassState resume = st.pass;
  // Outlives the hooks: search() below calls on_level, which reads and sets it.
  double last_level_save = o.control->elapsed_seconds();
  if (ck.on()) {
    if (resume.on) h.resume_pass = &resume;
    h.level_dir = o.checkpoint_dir;
    // After each level: the side that changed written to a file of its own, then the state
    // naming it, then the file it replaces removed (a kill leaves the state and its files).
    h.on_level = [&](Search& s, bool, std::uint64_t before) {
      const double now = o.control->elapsed_seconds();
      if (now - last_level_save < o.level_checkpoint_seconds) return;
      last_level_save = now;
      PassState ps = s.pass_state();
      const bool same = st.pass.on && st.pass.limit == ps.limit;
      ps.ffile = same ? st.pass.ffile : std::string();
      ps.bfile = same ? st.pass.bfile : std::string();
      std::vector<std::string> written;
      for (const bool side : {false, true}) {
        std::string& name = side ? ps.bfile : ps.ffile;
        // A side whose last level is the one saved keeps its file.
        if (!name.empty() && (side ? ps.bh == st.pass.bh : ps.fl == st.pass.fl)) continue;
        name = std::string(side ? "b." : "f.") + std::to_string(ps.limit) + "." +
               std::to_string(side ? ps.bh : ps.fl) + ".level";
        written.push_back(o.checkpoint_dir + "/" + name);
        try {
          s.write_frontier(side, written.back());
        } catch (const Stopped& e) {  // no room to sort a shard apart: the next level saves
          if (e.reason != StopReason::Memory) throw;
          for (const std::string& f : written) std::remove(f.c_str());
          return;
        }
      }
      const PassState old = st.pass;
      st.pass = ps;
      ck.save(before + s.positions(), o.control->elapsed_seconds() - t0);
      for (const std::string& f : {old.ffile, old.bfile})
        if (old.on && f != ps.ffile && f != ps.bfile)
          std::remove((o.checkpoint_dir + "/" + f).c_str());
    };
  }
  search(b, starts, goals, start, so, r, known, true, &h);
  if (r.stop == StopReason::None) end_pass(o.checkpoint_dir, st);
  st.floor = std::max(st.floor, r.lower_bound);
  if (!r.jumps.empty()) st.best = r.jumps;
  ck.save(r.positions, o.control->elapsed_seconds() - t0);
  r.positions += ck.base_positions();
  r.seconds += ck.base_seconds();
}

// The search for one problem (already checked), seeded with a solution found before.
void run_problem(const Problem& p, const FewestOptions& o, FewestResult& r,
                 const std::vector<Jump>& known) {
  const Board& b = *p.board;
  std::vector<Bits> goals;
  std::string what =
      "start " + std::to_string(static_cast<unsigned long long>(fold(to_bits(p.start)))) + " goal ";
  switch (p.goal.kind) {
    case Goal::Kind::Hole:
      goals.push_back(bit(p.goal.hole));
      what += "hole " + std::to_string(p.goal.hole);
      break;
    case Goal::Kind::Any:
      for (int h = 0; h < b.size(); ++h) goals.push_back(bit(h));
      what += "any";
      break;
    case Goal::Kind::Position:
      goals.push_back(to_bits(p.goal.position));
      what += "position " + std::to_string(static_cast<unsigned long long>(fold(goals.back())));
      break;
  }
  search_checkpointed(b, {to_bits(p.start)}, goals, &p.start, o, r, known, what);
}

// Every single vacancy of `b` and every single peg.
void single_pegs(const Board& b, std::vector<Bits>& starts, std::vector<Bits>& goals) {
  const Bits full = b.size() == kWidth ? ~Bits{0} : bit(b.size()) - 1;
  for (int h = 0; h < b.size(); ++h) {
    starts.push_back(full & ~bit(h));
    goals.push_back(bit(h));
  }
}

// The search from every single vacancy to every single peg, seeded with a solution found before.
void run_board(const Board& b, const FewestOptions& o, FewestResult& r,
               const std::vector<Jump>& known) {
  std::vector<Bits> starts, goals;
  single_pegs(b, starts, goals);
  search_checkpointed(b, starts, goals, nullptr, o, r, known, "board");
}
