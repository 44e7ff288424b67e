// SPDX-License-Identifier: MIT
// The one builder of symmetry byte tables: a bit permutation's image of every value of every key
// byte, so that a key's image is one lookup per byte, ORed.
//
//   out[byte * 256 + v] = image(byte*8 + k0) | image(byte*8 + k1) | ...   (k0, k1, ...: v's set
//   bits)
//
// Built incrementally: each entry is the entry without its lowest bit, plus that bit's image.
#pragma once

#include <bit>
#include <cstddef>

namespace pegsol {

// Fills out[0 .. bytes * 256) as above; image(b) is the image of bit b alone, called only for
// b < bits (the bits above map to nothing).
template <class T, class Image>
void byte_images(int bytes, int bits, T* out, Image&& image) {
  for (int byte = 0; byte < bytes; ++byte) {
    T* t = out + static_cast<std::ptrdiff_t>(byte) * 256;
    t[0] = T{};
    for (int v = 1; v < 256; ++v) {
      const int b = byte * 8 + std::countr_zero(static_cast<unsigned>(v));
      t[v] = t[v & (v - 1)];
      if (b < bits) t[v] |= image(b);
    }
  }
}

}  // namespace pegsol
