// SPDX-License-Identifier: MIT
// A part of the compact census engine (compact_engine.ipp): the count of solutions up to
// reordering of independent jumps, over the solution paths the other passes kept. Included by
// compact_engine.ipp alone, inside its per-tier namespace and target region, after
// compact_context.ipp (which declares every member defined here).

// Solutions up to reordering of independent jumps (paths.hpp), over the solution paths.
template <class Kernel, bool kVec>
inline void Engine<Kernel, kVec>::distinct(CensusResult& r) {
  count_distinct(
      r, o_, o_.on_path, g_, g_.to_bits(p_.start), goal_pegs_, k0_, mem_, run_.control,
      [&](const Pos& x, int k) {
        const auto& v = paths_[static_cast<std::size_t>(k)];
        return std::binary_search(v.begin(), v.end(), kern_.canon(to_key(x)));
      },
      [&](const Pos& x) { return is_goal(x); });
  paths_.clear();
}
