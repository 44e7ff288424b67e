// SPDX-License-Identifier: MIT
// Geometry<W>: a board's tables at one bitset width, built once per search.
//
// Move generation works a shift class at a time. For a class with offsets (mid, to) the legal
// from-bits of position P are
//
//   from_mask & P & (P >> mid) & (E >> to),  E = holes & ~P
//
// (">> s" meaning "bit i takes bit i+s", for either sign of s): three shifts and three ANDs for
// every jump of the class at once. A linear layout (layout.hpp) gives one class per direction.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "bits.hpp"
#include "byte_images.hpp"
#include "layout.hpp"
#include "pegsol/board.hpp"
#include "pegsol/holeset.hpp"

namespace pegsol {

template <int W>
class Geometry {
 public:
  using Pos = Bits<W>;

  struct Class {
    int mid = 0, to = 0;
    Pos from;                         // bits where a jump of this class can start
    std::vector<std::uint16_t> jump;  // jump index by from-bit (only meaningful on `from`)
  };

  explicit Geometry(const Board& board) : board_(&board), layout_(&layout(board)) {
    const auto& lay = *layout_;
    for (int h = 0; h < board.size(); ++h) holes_.set(lay.bit(h));
    for (const auto& sc : lay.shift_classes()) {
      Class c;
      c.mid = sc.mid;
      c.to = sc.to;
      c.jump.assign(W, 0);
      for (int j : sc.jumps) {
        int f = lay.bit(board.jumps()[static_cast<std::size_t>(j)].from);
        c.from.set(f);
        c.jump[static_cast<std::size_t>(f)] = static_cast<std::uint16_t>(j);
      }
      classes_.push_back(std::move(c));
    }
    for (const Jump& j : board.jumps()) {
      Pos m;
      m.set(lay.bit(j.from));
      m.set(lay.bit(j.over));
      m.set(lay.bit(j.to));
      jump_mask_.push_back(m);
    }
    for (int t = 0; t < board.peg_type_count(); ++t) {
      Pos m;
      for (int h = 0; h < board.size(); ++h)
        if (board.peg_type(h) == t) m.set(lay.bit(h));
      type_mask_.push_back(m);
    }
    build_symmetries();
  }

  const Board& board() const { return *board_; }
  const Pos& holes() const { return holes_; }
  const std::vector<Class>& classes() const { return classes_; }
  const Pos& jump_mask(int j) const { return jump_mask_[static_cast<std::size_t>(j)]; }
  const std::vector<Pos>& type_masks() const { return type_mask_; }

  // Legal from-bits of class c in position p.
  Pos movable(const Pos& p, const Class& c) const {
    Pos e = andnot(holes_, p);
    return c.from & p & p.shift_down(c.mid) & e.shift_down(c.to);
  }
  // Calls f(jump index) for every legal jump of p, class by class.
  template <class F>
  void for_each_jump(const Pos& p, F&& f) const {
    Pos e = andnot(holes_, p);
    for (const Class& c : classes_) {
      Pos m = c.from & p & p.shift_down(c.mid) & e.shift_down(c.to);
      for_each_bit(m, [&](int b) { f(static_cast<int>(c.jump[static_cast<std::size_t>(b)])); });
    }
  }
  bool has_jump(const Pos& p) const {
    Pos e = andnot(holes_, p);
    for (const Class& c : classes_)
      if ((c.from & p & p.shift_down(c.mid) & e.shift_down(c.to)).any()) return true;
    return false;
  }

  Pos to_bits(const HoleSet& s) const {
    Pos p;
    for (int h = 0; h < board_->size(); ++h)
      if (s.test(h)) p.set(layout_->bit(h));
    return p;
  }
  HoleSet to_holes(const Pos& p) const {
    HoleSet s(board_->size());
    for_each_bit(p, [&](int b) { s.set(layout_->hole_at_bit(b)); });
    return s;
  }
  Pos complement(const Pos& p) const { return andnot(holes_, p); }

  int symmetry_count() const { return static_cast<int>(sym_perm_.size()); }
  // Image of p under symmetry s (an index into board().symmetries()).
  [[gnu::always_inline]] Pos apply(int s, const Pos& p) const {
    if (s == 0) return p;
    Pos r;
    if (!sym_table_.empty()) {
      const Pos* t = &sym_table_[static_cast<std::size_t>(s) * kBytes * 256];
      for (int k = 0; k < Pos::kWords; ++k) {
        std::uint64_t x = p.w[static_cast<std::size_t>(k)];
        for (int byte = 0; byte < 8 && x; ++byte, x >>= 8)
          if (x & 0xff) r |= t[(k * 8 + byte) * 256 + static_cast<int>(x & 0xff)];
      }
      return r;
    }
    const auto& perm = sym_perm_[static_cast<std::size_t>(s)];
    for_each_bit(p, [&](int b) { r.set(perm[static_cast<std::size_t>(b)]); });
    return r;
  }
  // The least image of p over the symmetries listed (which must include 0, the identity).
  Pos canonical(const Pos& p, const std::vector<int>& syms) const {
    Pos best = p;
    for (int s : syms)
      if (s != 0) {
        Pos q = apply(s, p);
        if (q < best) best = q;
      }
    return best;
  }

 private:
  static constexpr int kBytes = W / 8;
  // Byte tables cost W/8 * 256 entries of W bits per symmetry: 128 KiB at W = 64 for the 8
  // symmetries of a square board, 512 KiB at 128. Wider boards apply the permutation bit by bit.
  static constexpr bool kUseTables = W <= 128;

  void build_symmetries() {
    const Board& b = *board_;
    for (const auto& hp : b.symmetries()) {
      std::vector<int> perm(W, 0);
      for (int h = 0; h < b.size(); ++h)
        perm[static_cast<std::size_t>(layout_->bit(h))] =
            layout_->bit(hp[static_cast<std::size_t>(h)]);
      sym_perm_.push_back(std::move(perm));
    }
    if (!kUseTables) return;
    sym_table_.assign(sym_perm_.size() * kBytes * 256, Pos{});
    for (std::size_t s = 0; s < sym_perm_.size(); ++s)
      byte_images(kBytes, W, &sym_table_[s * kBytes * 256], [&](int from) {
        Pos img;
        if (holes_.test(from)) img.set(sym_perm_[s][static_cast<std::size_t>(from)]);
        return img;
      });
  }

  const Board* board_;
  const layout_detail::Layout* layout_;
  Pos holes_;
  std::vector<Class> classes_;
  std::vector<Pos> jump_mask_;
  std::vector<Pos> type_mask_;
  std::vector<std::vector<int>> sym_perm_;
  std::vector<Pos> sym_table_;
};

}  // namespace pegsol
