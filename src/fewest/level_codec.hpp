// SPDX-License-Identifier: MIT
// A level's entries in key order, compressed a chunk at a time: the form of the spill files and
// the level files of the fewest-moves search (src/fewest).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "entry.hpp"

namespace pegsol::fewest_detail {

// One chunk: at most kCodecChunk entries in strictly rising key order, alone (no chunk needs
// another to be read).
//
//   | bytes (u32) | count (u32) | first entry (sizeof(Entry<W>), raw) | k (u8) | cost bits (u8) |
//   | cost base (u32) | pegs (u8: every key's, 0 when they differ) | bit stream, little-endian
//   words, padded to a byte |
//
// Each entry after the first, in the bit stream (lowest bit first):
//   key delta d = key - previous key (>= 1), Rice coded: q = d >> k as q one bits and a zero,
//     then the low k bits of d; when d has bits past the first word or q >= kEscape, kEscape one
//     bits then d's W bits;
//   cost - cost base, in `cost bits` bits;
//   land: put_land() (the rank of its peg among the key's pegs, or a bit a peg).
// Sorted keys of a shard lie some 2^20 apart on triangle:9 (a 16th of the level, spread over
// 2^45 keys), so a key costs about k + 2 bits; an entry's cost and single landing hole some
// 11 more: about 4 bytes an entry instead of 16 (docs/fewest.md has the figures).
// Tried and lost: none yet.
inline constexpr std::size_t kCodecChunk = std::size_t{1} << 14;
inline constexpr int kEscape = 40;

template <int W>
struct Codec {
  static constexpr std::size_t kHead = 4 + 4 + sizeof(Entry<W>) + 1 + 1 + 4 + 1;

  // Appends the chunk of the `n` entries at `e` (1 <= n <= kCodecChunk) to `out`.
  static void encode(const Entry<W>* e, std::size_t n, std::vector<std::uint8_t>& out) {
    const std::size_t at = out.size();
    std::uint32_t lo = e[0].cost(), hi = lo;
    for (std::size_t i = 1; i < n; ++i) {
      lo = std::min(lo, e[i].cost());
      hi = std::max(hi, e[i].cost());
    }
    const int cost_bits = hi == lo ? 0 : std::bit_width(hi - lo);
    int pegs = e[0].key.count();  // a level's keys have one peg count: counted once a chunk
    for (std::size_t i = 1; i < n && pegs; ++i)
      if (e[i].key.count() != pegs) pegs = 0;
    // The Rice parameter from the mean gap (range / (n - 1)), in 64 bits when the range fits.
    int k = 0;
    if (n > 1) {
      const Bits<W> range = sub(e[n - 1].key, e[0].key);
      double r = 0;
      for (int w = Bits<W>::kWords - 1; w >= 0; --w) r = r * 18446744073709551616.0 + range.w[w];
      const double mean = r / static_cast<double>(n - 1);
      if (mean * 0.69 >= 2) k = std::min(62, static_cast<int>(std::floor(std::log2(mean * 0.69))));
    }
    out.resize(at + kHead);
    std::uint8_t* h = out.data() + at;
    const auto count = static_cast<std::uint32_t>(n);
    std::memcpy(h + 4, &count, 4);
    std::memcpy(h + 8, &e[0], sizeof(Entry<W>));
    h[8 + sizeof(Entry<W>)] = static_cast<std::uint8_t>(k);
    h[9 + sizeof(Entry<W>)] = static_cast<std::uint8_t>(cost_bits);
    std::memcpy(h + 10 + sizeof(Entry<W>), &lo, 4);
    h[14 + sizeof(Entry<W>)] = static_cast<std::uint8_t>(pegs);
    BitWriter bw(out);
    for (std::size_t i = 1; i < n; ++i) {
      const Bits<W> d = sub(e[i].key, e[i - 1].key);
      bool high = false;
      for (int w = 1; w < Bits<W>::kWords; ++w) high = high || d.w[w] != 0;
      const std::uint64_t q = high ? kEscape : d.w[0] >> k;
      if (q >= static_cast<std::uint64_t>(kEscape)) {
        bw.put(~std::uint64_t{0}, kEscape);
        for (int w = 0; w < Bits<W>::kWords; ++w) bw.put(d.w[w], 64);
      } else {
        bw.put(~std::uint64_t{0}, static_cast<int>(q));
        bw.put(0, 1);
        if (k) bw.put(d.w[0], k);
      }
      if (cost_bits) bw.put(e[i].cost() - lo, cost_bits);
      put_land(bw, e[i].key, e[i].land(), pegs ? pegs : e[i].key.count());
    }
    bw.flush();
    const auto bytes = static_cast<std::uint32_t>(out.size() - at);
    std::memcpy(out.data() + at, &bytes, 4);
  }

  // The bytes and the count of the chunk at `p` (at least kHead bytes there).
  static std::uint32_t bytes_of(const std::uint8_t* p) {
    std::uint32_t b;
    std::memcpy(&b, p, 4);
    return b;
  }
  static std::uint32_t count_of(const std::uint8_t* p) {
    std::uint32_t c;
    std::memcpy(&c, p + 4, 4);
    return c;
  }
  static Bits<W> first_key(const std::uint8_t* p) {
    Entry<W> e;
    std::memcpy(&e, p + 8, sizeof e);
    return e.key;
  }

  // Decodes the chunk of `bytes` bytes at `p` into `out` (resized to its count). False when the
  // bytes are not a whole chunk (a damaged file): never a read past them.
  static bool decode(const std::uint8_t* p, std::size_t bytes, std::vector<Entry<W>>& out) {
    if (bytes < kHead || bytes_of(p) != bytes) return false;
    const std::uint32_t n = count_of(p);
    if (n == 0 || n > kCodecChunk) return false;
    out.resize(n);
    std::memcpy(&out[0], p + 8, sizeof(Entry<W>));
    const int k = p[8 + sizeof(Entry<W>)], cost_bits = p[9 + sizeof(Entry<W>)];
    std::uint32_t lo;
    std::memcpy(&lo, p + 10 + sizeof(Entry<W>), 4);
    const int pegs = p[14 + sizeof(Entry<W>)];
    if (k > 62 || cost_bits > 32 || pegs > W) return false;
    BitReader br(p + kHead, bytes - kHead);
    Bits<W> key = out[0].key;
    for (std::uint32_t i = 1; i < n; ++i) {
      const int q = br.unary(kEscape);
      Bits<W> d;
      if (q == kEscape) {
        for (int w = 0; w < Bits<W>::kWords; ++w) d.w[w] = br.get(64);
      } else {
        d.w[0] = (std::uint64_t{static_cast<std::uint64_t>(q)} << k) | (k ? br.get(k) : 0);
      }
      key = add(key, d);
      const std::uint32_t cost = lo + static_cast<std::uint32_t>(cost_bits ? br.get(cost_bits) : 0);
      const Bits<W> land = get_land(br, key, pegs ? pegs : key.count());
      if (br.over() || !(out[i - 1].key < key)) return false;
      out[i] = Entry<W>::make(key, cost, land);
    }
    return !br.over();
  }

 private:
  // The landing set: within the key's pegs (an image of a peg is a peg of the image), a single
  // peg as its rank among them, more as a bit a peg; else (never seen) its kHoles<W> bits.
  //   0 rank (bit_width(pegs - 1) bits) | 10 a bit a peg | 11 the holes' bits
  template <class Writer>
  static void put_land(Writer& bw, const Bits<W>& key, const Bits<W>& land, int pegs) {
    if ((land & ~key).none() && land.any()) {
      Bits<W> rest = land;
      rest.pop_lowest();
      if (rest.none()) {  // one peg
        bw.put(0, 1);
        bw.put(static_cast<std::uint64_t>(rank(key, land.lowest())),
               std::bit_width(static_cast<unsigned>(pegs - 1)));
        return;
      }
      bw.put(1, 2);
      Bits<W> m;  // bit r: the key's r-th peg (from the lowest hole) is in the set
      for (Bits<W> l = land; l.any(); l.pop_lowest()) m.set(rank(key, l.lowest()) & (W - 1));
      for (int b = 0; b < pegs; b += 64) bw.put(m.w[b / 64], std::min(64, pegs - b));
      return;
    }
    bw.put(3, 2);
    for (int b = 0; b < kHoles<W>; b += 64) bw.put(land.w[b / 64], std::min(64, kHoles<W> - b));
  }
  template <class Reader>
  static Bits<W> get_land(Reader& br, const Bits<W>& key, int pegs) {
    Bits<W> land;
    if (br.bit() == 0) {
      Bits<W> k = key;
      for (auto r = br.get(std::bit_width(static_cast<unsigned>(pegs - 1))); r > 0 && k.any(); --r)
        k.pop_lowest();
      // (the mask: for the compiler's bounds; a rank past the pegs, from a damaged chunk, gives
      // an empty set that its digest tells)
      return k.any() ? Bits<W>::single(k.lowest() & (W - 1)) : land;
    }
    if (br.bit() == 0) {
      Bits<W> m;
      for (int b = 0; b < pegs; b += 64) m.w[b / 64] = br.get(std::min(64, pegs - b));
      Bits<W> k = key;
      for (int at = 0; m.any() && k.any(); m.pop_lowest()) {
        for (const int r = m.lowest(); at < r && k.any(); ++at) k.pop_lowest();
        if (k.any()) land.set(k.lowest() & (W - 1));
      }
      return land;
    }
    for (int b = 0; b < kHoles<W>; b += 64) land.w[b / 64] = br.get(std::min(64, kHoles<W> - b));
    return land;
  }
  // The pegs of `key` below hole h.
  static int rank(const Bits<W>& key, int h) { return (key & Bits<W>::low(h)).count(); }

  static Bits<W> sub(const Bits<W>& a, const Bits<W>& b) {
    Bits<W> r;
    std::uint64_t borrow = 0;
    for (int w = 0; w < Bits<W>::kWords; ++w) {
      const std::uint64_t x = a.w[w] - b.w[w];
      const std::uint64_t y = x - borrow;
      borrow = (a.w[w] < b.w[w]) || (x < borrow) ? 1 : 0;
      r.w[w] = y;
    }
    return r;
  }
  static Bits<W> add(const Bits<W>& a, const Bits<W>& b) {
    Bits<W> r;
    std::uint64_t carry = 0;
    for (int w = 0; w < Bits<W>::kWords; ++w) {
      const std::uint64_t x = a.w[w] + b.w[w];
      const std::uint64_t y = x + carry;
      carry = (x < a.w[w]) || (y < x) ? 1 : 0;
      r.w[w] = y;
    }
    return r;
  }

  // Bits appended lowest first to a byte vector.
  class BitWriter {
   public:
    explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
    // The low `n` bits of v (0 <= n <= 64).
    void put(std::uint64_t v, int n) {
      if (n == 0) return;
      if (n < 64) v &= (std::uint64_t{1} << n) - 1;
      acc_ |= v << fill_;
      const int room = 64 - fill_;
      if (n >= room) {
        emit(acc_, 8);
        acc_ = room == 64 ? 0 : v >> room;
        fill_ = n - room;
      } else {
        fill_ += n;
      }
    }
    void flush() {
      emit(acc_, (fill_ + 7) / 8);
      acc_ = 0;
      fill_ = 0;
    }

   private:
    void emit(std::uint64_t v, int bytes) {  // little-endian, as the reader takes them
      const std::size_t at = out_.size();
      out_.resize(at + static_cast<std::size_t>(bytes));
      for (int b = 0; b < bytes; ++b)
        out_[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(v >> (8 * b));
    }
    std::vector<std::uint8_t>& out_;
    std::uint64_t acc_ = 0;
    int fill_ = 0;
  };

  // Bits read lowest first from `bytes` bytes; reading past them reads zeros and sets over().
  class BitReader {
   public:
    BitReader(const std::uint8_t* p, std::size_t bytes) : p_(p), bytes_(bytes) {}
    std::uint64_t bit() { return get(1); }
    std::uint64_t get(int n) {
      if (n < avail_) {  // the common case: within the word held
        const std::uint64_t v = acc_ & ((std::uint64_t{1} << n) - 1);
        acc_ >>= n;
        avail_ -= n;
        return v;
      }
      std::uint64_t v = 0;
      int got = 0;
      while (got < n) {
        if (avail_ == 0) refill();
        const int take = std::min(n - got, avail_);
        const std::uint64_t part = take == 64 ? acc_ : acc_ & ((std::uint64_t{1} << take) - 1);
        v |= part << got;
        acc_ = take == 64 ? 0 : acc_ >> take;
        avail_ -= take;
        got += take;
      }
      return v;
    }
    // q one bits and the zero after them, or `max` one bits: q, or max.
    int unary(int max) {
      int q = 0;
      for (;;) {
        if (avail_ == 0) refill();
        const std::uint64_t valid = avail_ == 64 ? acc_ : acc_ & ((std::uint64_t{1} << avail_) - 1);
        const int t = std::min(std::countr_one(valid), avail_);
        if (q + t >= max) {
          skip(max - q);
          return max;
        }
        if (t < avail_) {
          skip(t + 1);
          return q + t;
        }
        q += t;
        skip(t);
      }
    }
    bool over() const { return over_; }

   private:
    void skip(int n) {
      acc_ = n == 64 ? 0 : acc_ >> n;
      avail_ -= n;
    }
    void refill() {
      acc_ = 0;
      if (at_ + 8 <= bytes_) {
        std::memcpy(&acc_, p_ + at_, 8);
        at_ += 8;
        avail_ = 64;
        return;
      }
      if (at_ >= bytes_) {
        over_ = true;
        avail_ = 64;
        return;
      }
      const std::size_t n = bytes_ - at_;
      std::memcpy(&acc_, p_ + at_, n);
      at_ = bytes_;
      avail_ = static_cast<int>(8 * n);
    }
    const std::uint8_t* p_;
    std::size_t bytes_, at_ = 0;
    std::uint64_t acc_ = 0;
    int avail_ = 0;
    bool over_ = false;
  };
};

}  // namespace pegsol::fewest_detail
