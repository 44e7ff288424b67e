// SPDX-License-Identifier: MIT
// Names of algorithms, beam methods, directions and table methods, and which go together.
#include <array>
#include <string>
#include <utility>

#include "pegsol/error.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

namespace {

// One table per enum: the value and its name, in the order the names are listed.
template <class E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<Algorithm, 4> kAlgorithms{{{Algorithm::Auto, "auto"},
                                           {Algorithm::Dfs, "dfs"},
                                           {Algorithm::Beam, "beam"},
                                           {Algorithm::BeamReport, "beam-report"}}};
constexpr Names<BeamMethod, 3> kBeamMethods{
    {{BeamMethod::Auto, "auto"}, {BeamMethod::Sweep, "sweep"}, {BeamMethod::Meet, "meet"}}};
constexpr Names<Direction, 2> kDirections{
    {{Direction::Forward, "forward"}, {Direction::Backward, "backward"}}};
constexpr Names<TableMethod, 2> kTableMethods{
    {{TableMethod::Auto, "auto"}, {TableMethod::Passes, "passes"}}};

template <class E, std::size_t N>
std::string_view name_of(const Names<E, N>& names, E e) {
  for (const auto& [v, n] : names)
    if (v == e) return n;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> parse(const Names<E, N>& names, std::string_view s) {
  for (const auto& [v, n] : names)
    if (n == s) return v;
  return std::nullopt;
}

template <class E, std::size_t N>
std::vector<std::string> list(const Names<E, N>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.emplace_back(entry.second);
  return out;
}

}  // namespace

std::string_view algorithm_name(Algorithm a) {
  return name_of(kAlgorithms, a);
}
std::optional<Algorithm> parse_algorithm(std::string_view name) {
  return parse(kAlgorithms, name);
}
const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names = list(kAlgorithms);
  return names;
}

std::string_view beam_method_name(BeamMethod m) {
  return name_of(kBeamMethods, m);
}
std::optional<BeamMethod> parse_beam_method(std::string_view name) {
  return parse(kBeamMethods, name);
}
const std::vector<std::string>& beam_method_names() {
  static const std::vector<std::string> names = list(kBeamMethods);
  return names;
}

std::string_view direction_name(Direction d) {
  return name_of(kDirections, d);
}
std::optional<Direction> parse_direction(std::string_view name) {
  return parse(kDirections, name);
}
const std::vector<std::string>& direction_names() {
  static const std::vector<std::string> names = list(kDirections);
  return names;
}

std::string_view table_method_name(TableMethod m) {
  return name_of(kTableMethods, m);
}
std::optional<TableMethod> parse_table_method(std::string_view name) {
  return parse(kTableMethods, name);
}
const std::vector<std::string>& table_method_names() {
  static const std::vector<std::string> names = list(kTableMethods);
  return names;
}

void check_solve_options(const SolveOptions& o) {
  if (o.beam_method != BeamMethod::Auto &&
      (o.algorithm == Algorithm::Dfs || o.algorithm == Algorithm::BeamReport))
    throw InputError("SolveOptions::beam_method",
                     std::string(beam_method_name(o.beam_method)) +
                         ": applies to SolveOptions::algorithm beam and auto only (beam-report "
                         "has its own rule)");
  if (o.capacity != 0 && o.algorithm == Algorithm::Dfs)
    throw InputError("SolveOptions::capacity",
                     std::to_string(o.capacity) +
                         ": the beam searches' positions per level; SolveOptions::algorithm dfs "
                         "runs no beam");
  if (o.direction == Direction::Backward &&
      (o.algorithm == Algorithm::Beam || o.algorithm == Algorithm::BeamReport))
    throw InputError("SolveOptions::direction",
                     "backward: SolveOptions::algorithm " +
                         std::string(algorithm_name(o.algorithm)) +
                         " searches forward only (the DFS, and Auto's DFS phases, go backward)");
}

}  // namespace pegsol
