// SPDX-License-Identifier: MIT
// The preset problems: classic patterns written as the holes holding pegs, turned into the 0/1
// strings of ProblemSpec once.
#include "pegsol/presets.hpp"

#include <algorithm>
#include <sstream>

#include "pegsol/catalogue.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

namespace {

// A start written as the holes holding pegs ("d2 c3 d3"), as the 0/1 string of `board`.
std::string pegs_on(const std::string& board, const std::string& holes) {
  BoardPtr b = make_board(board);
  std::string bits(static_cast<std::size_t>(b->size()), '0');
  std::istringstream in(holes);
  for (std::string h; in >> h;) bits[static_cast<std::size_t>(*b->find(h))] = '1';
  return bits;
}

Preset make(std::string name, std::string title, std::string description, std::string board,
            std::string start, std::string end, int difficulty) {
  Preset p;
  p.name = std::move(name);
  p.title = std::move(title);
  p.description = std::move(description);
  p.spec.board = std::move(board);
  p.spec.start = std::move(start);
  p.spec.end = std::move(end);
  p.difficulty = difficulty;
  p.pegs = build_problem(p.spec).start.count();
  return p;
}

std::vector<Preset> build_presets() {
  const std::string e = "english";
  std::vector<Preset> v = {
      make("triangle-4", "Small triangle",
           "The 10-hole triangle less the second hole; finish anywhere", "triangle:4", "2", "any",
           1),
      make("latin-cross", "Latin cross", "Six pegs in a cross; finish in the centre", e,
           pegs_on(e, "d2 c3 d3 e3 d4 d5"), "d4", 1),
      make("cracker-barrel", "Cracker Barrel", "The 15-hole triangle from the top corner",
           "triangle:5", "1", "any", 1),
      make("plus", "Greek cross", "Nine pegs in a plus sign; finish in the centre", e,
           pegs_on(e, "d2 d3 b4 c4 d4 e4 f4 d5 d6"), "d4", 2),
      make("fireplace", "Fireplace", "The top arm filled; finish in the centre", e,
           pegs_on(e, "c1 d1 e1 c2 d2 e2 c3 d3 e3 c4 e4"), "d4", 2),
      make("triangle-top", "Triangle, back to the top",
           "The 15-hole triangle from the top corner; finish on the top corner", "triangle:5", "1",
           "1", 2),
      make("pyramid", "Pyramid", "Sixteen pegs in a pyramid; finish in the centre", e,
           pegs_on(e, "d2 c3 d3 e3 b4 c4 d4 e4 f4 a5 b5 c5 d5 e5 f5 g5"), "d4", 3),
      make("arrow", "Arrow", "Seventeen pegs in an arrow; finish in the centre", e,
           pegs_on(e, "d1 c2 d2 e2 b3 c3 d3 e3 f3 d4 d5 c6 d6 e6 c7 d7 e7"), "d4", 3),
      make("triangle-6", "Triangle of 21",
           "The 21-hole triangle from the top corner; finish anywhere", "triangle:6", "1", "any",
           3),
      make("diamond", "Diamond", "A diamond of 24 pegs around an empty centre; finish there", e,
           pegs_on(e, "d1 c2 d2 e2 b3 c3 d3 e3 f3 a4 b4 c4 e4 f4 g4 b5 c5 d5 e5 f5 c6 d6 e6 d7"),
           "d4", 4),
      make("english-corner", "English, corner game", "The full English board less c1; finish on c1",
           e, "c1", "c1", 4),
      make("french-classic", "French, d2 to d6", "The 37-hole French board less d2; finish on d6",
           "french", "d2", "d6", 5),
      make("central-game", "The central game",
           "The full English board less the centre; finish in the centre", e, "d4", "d4", 5),
      make("wiegleb-central", "Wiegleb's central game",
           "The 45-hole Wiegleb board less the centre; finish there", "wiegleb", "e5", "e5", 5),
  };
  std::stable_sort(v.begin(), v.end(),
                   [](const Preset& a, const Preset& b) { return a.difficulty < b.difficulty; });
  return v;
}

// Edit distance, for "did you mean".
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string_view difficulty_name(int difficulty) {
  static constexpr std::string_view names[] = {"easy", "moderate", "medium", "hard", "difficult"};
  return names[std::clamp(difficulty, 1, 5) - 1];
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> list = build_presets();
  return list;
}

const Preset* find_preset(std::string_view name) {
  for (const Preset& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

const Preset& preset(std::string_view name) {
  if (const Preset* p = find_preset(name)) return *p;
  const Preset* best = &presets().front();
  for (const Preset& p : presets())
    if (distance(name, p.name) < distance(name, best->name)) best = &p;
  throw InputError("preset", std::string(name) + ": no preset of that name; did you mean '" +
                                 best->name + "'? (presets() lists them)");
}

Problem preset_problem(const Preset& p) {
  return build_problem(p.spec);
}

}  // namespace pegsol
