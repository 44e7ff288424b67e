// SPDX-License-Identifier: MIT
// The compact census engine's jump classes, what a scan over a level tests (compiled per CPU tier:
// compact_common.hpp); the level's storage by residue is level_store.hpp, outside the tiers.
#pragma once

#include <array>
#include <cstdint>

#include "compact_common.hpp"
#include "level_store.hpp"

namespace pegsol::census_detail {
namespace {

// One jump class (at most 8 jumps sharing a delta): what a scan over parents tests.
struct Spec {
  u32 delta = 0;
  int n = 0;
  std::array<u64, 8> need{}, have{}, flip{};
  // Byte j: the key bits of jump j's two pegs and of its empty hole (unused bytes ask for bit 0
  // both set and clear: never legal), for the vector scan's bit shuffles.
  u64 pegs1 = 0, pegs2 = 0, hole = 0;
};

}  // namespace
}  // namespace pegsol::census_detail
