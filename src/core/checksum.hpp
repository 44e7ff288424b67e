// SPDX-License-Identifier: MIT
// Checksum64: the XXH64 hash (seed 0) of a byte stream fed in pieces, for checkpoint files.
//
// XXH64 as its specification defines it (four 64-bit lanes over 32-byte stripes, then the tail
// in 8-, 4- and 1-byte steps and a final avalanche), words read little-endian: the same value as
// the reference library's XXH64(data, size, 0) for any split of the stream into pieces.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pegsol {

class Checksum64 {
 public:
  // Adds `bytes` bytes at `data` to the stream.
  void update(const void* data, std::size_t bytes) {
    if (bytes == 0) return;  // data may be null then (an empty vector's data())
    const auto* p = static_cast<const unsigned char*>(data);
    total_ += bytes;
    if (fill_ > 0) {  // complete the stripe held back from the last call first
      const std::size_t take = bytes < kStripe - fill_ ? bytes : kStripe - fill_;
      std::memcpy(buf_ + fill_, p, take);
      fill_ += take;
      p += take;
      bytes -= take;
      if (fill_ < kStripe) return;
      stripe(buf_);
      fill_ = 0;
    }
    for (; bytes >= kStripe; p += kStripe, bytes -= kStripe) stripe(p);
    std::memcpy(buf_, p, bytes);
    fill_ = bytes;
  }

  // The hash of everything added so far (the stream may go on after).
  std::uint64_t value() const {
    std::uint64_t h;
    if (total_ >= kStripe) {
      h = std::rotl(v_[0], 1) + std::rotl(v_[1], 7) + std::rotl(v_[2], 12) + std::rotl(v_[3], 18);
      for (std::uint64_t v : v_) h = (h ^ round(0, v)) * kP1 + kP4;
    } else {
      h = kP5;
    }
    h += total_;
    const unsigned char* p = buf_;
    std::size_t n = fill_;
    for (; n >= 8; p += 8, n -= 8) h = std::rotl(h ^ round(0, load64(p)), 27) * kP1 + kP4;
    if (n >= 4) {
      h = std::rotl(h ^ (load32(p) * kP1), 23) * kP2 + kP3;
      p += 4;
      n -= 4;
    }
    for (; n > 0; ++p, --n) h = std::rotl(h ^ (*p * kP5), 11) * kP1;
    h ^= h >> 33;
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
  }

  // Bytes added so far.
  std::uint64_t size() const { return total_; }

  // The hash of one buffer.
  static std::uint64_t of(const void* data, std::size_t bytes) {
    Checksum64 c;
    c.update(data, bytes);
    return c.value();
  }

 private:
  static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull;
  static constexpr std::uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
  static constexpr std::uint64_t kP3 = 0x165667B19E3779F9ull;
  static constexpr std::uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
  static constexpr std::uint64_t kP5 = 0x27D4EB2F165667C5ull;
  static constexpr std::size_t kStripe = 32;

  static std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
    return std::rotl(acc + input * kP2, 31) * kP1;
  }
  // Little-endian loads (every target of this library is little-endian).
  static std::uint64_t load64(const unsigned char* p) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
  }
  static std::uint64_t load32(const unsigned char* p) {
    std::uint32_t x;
    std::memcpy(&x, p, 4);
    return x;
  }
  void stripe(const unsigned char* p) {
    for (int i = 0; i < 4; ++i) v_[i] = round(v_[i], load64(p + 8 * i));
  }

  std::uint64_t v_[4] = {kP1 + kP2, kP2, 0, 0 - kP1};
  unsigned char buf_[kStripe] = {};
  std::size_t fill_ = 0;
  std::uint64_t total_ = 0;
};

static_assert(std::endian::native == std::endian::little, "Checksum64 reads words little-endian");

}  // namespace pegsol
