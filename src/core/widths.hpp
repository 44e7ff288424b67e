// SPDX-License-Identifier: MIT
// with_width: the one dispatch from a board's bitset width, known at run time, to the W of
// Bits<W>, Geometry<W> and the engines built on them, fixed at compile time. Every engine's entry
// point calls it once; below it everything runs at one width.
//
//   return with_width(board.width(), [&](auto w) { return engine<decltype(w)::value>(...); });
#pragma once

#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include "bits.hpp"

namespace pegsol {

namespace width_detail {

template <int W>
using Width = std::integral_constant<int, W>;

// f(Width<kWidths[I]>) if `width` is kWidths[I], else the next entry; throws past the last entry
// or past MaxW.
template <std::size_t I, int MaxW, class R, class F>
R dispatch(int width, F& f) {
  if constexpr (I == std::size(kWidths) || kWidths[I] > MaxW) {
    (void)width;
    (void)f;
    throw std::logic_error("unsupported bitset width");
  } else {
    static_assert(std::is_same_v<std::invoke_result_t<F&, Width<kWidths[I]>>, R>,
                  "with_width: f must return the same type at every width");
    if (width == kWidths[I]) return f(Width<kWidths[I]>{});
    return dispatch<I + 1, MaxW, R>(width, f);
  }
}

}  // namespace width_detail

// Calls f(std::integral_constant<int, W>{}) for the W of kWidths equal to `width` and returns its
// result (f returns one type at every width). Only the widths up to MaxW are instantiated: an
// engine built for the narrow layouts alone names its widest, and rejects a wider board itself
// with a message for the user before it calls here. Throws std::logic_error for a width not in
// kWidths or above MaxW (a board's width is always in kWidths: board.cpp picks it from there).
template <int MaxW = kMaxWidth, class F>
decltype(auto) with_width(int width, F&& f) {
  using R = std::invoke_result_t<F&, width_detail::Width<kWidths[0]>>;
  return width_detail::dispatch<0, MaxW, R>(width, f);
}

}  // namespace pegsol
