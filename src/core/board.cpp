// SPDX-License-Identifier: MIT
#include "pegsol/board.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "bits.hpp"
#include "layout.hpp"
#include "pegsol/error.hpp"

namespace pegsol {

std::string_view lattice_name(Lattice l) {
  switch (l) {
    case Lattice::Square:
      return "square";
    case Lattice::Square8:
      return "square8";
    case Lattice::Triangular:
      return "triangular";
  }
  return "?";
}

std::optional<Lattice> parse_lattice(std::string_view s) {
  if (s == "square") return Lattice::Square;
  if (s == "square8") return Lattice::Square8;
  if (s == "triangular") return Lattice::Triangular;
  return std::nullopt;
}

namespace {

std::vector<Coord> lattice_directions(Lattice l) {
  switch (l) {
    case Lattice::Square:
      return {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    case Lattice::Square8:
      return {{0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    case Lattice::Triangular:
      return {{0, 1}, {1, 1}, {1, 0}, {0, -1}, {-1, -1}, {-1, 0}};
  }
  return {};
}

// 2x2 integer matrices [a b; c d] acting on (r, c): the point group of the lattice.
using Mat = std::array<int, 4>;

std::vector<Mat> point_group(Lattice l) {
  if (l != Lattice::Triangular)
    return {Mat{1, 0, 0, 1},  Mat{0, 1, -1, 0}, Mat{-1, 0, 0, -1}, Mat{0, -1, 1, 0},
            Mat{1, 0, 0, -1}, Mat{-1, 0, 0, 1}, Mat{0, 1, 1, 0},   Mat{0, -1, -1, 0}};
  // Rotation by 60 degrees in skewed coordinates: (r, k) -> (k, k - r); reflection: swap r and k.
  const Mat rot{0, 1, -1, 1};
  const Mat flip{0, 1, 1, 0};
  auto mul = [](const Mat& x, const Mat& y) {
    return Mat{x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
               x[2] * y[1] + x[3] * y[3]};
  };
  std::vector<Mat> g;
  Mat m{1, 0, 0, 1};
  for (int k = 0; k < 6; ++k) {
    g.push_back(m);
    m = mul(rot, m);
  }
  for (int k = 0; k < 6; ++k) g.push_back(mul(g[static_cast<std::size_t>(k)], flip));
  return g;
}

// Spreadsheet-style column letters: a..z, aa..az, ...
std::string column_letters(int j) {
  std::string s;
  for (++j; j > 0; j = (j - 1) / 26) s.push_back(static_cast<char>('a' + (j - 1) % 26));
  return {s.rbegin(), s.rend()};
}

}  // namespace

Board::Board(std::string name, Lattice lattice, std::vector<Coord> cells)
    : name_(std::move(name)), lattice_(lattice), cells_(std::move(cells)) {
  if (cells_.empty()) throw InputError("cells", "a board needs at least one hole");
  if (cells_.size() > static_cast<std::size_t>(kMaxWidth))
    throw InputError("cells", "a board of " + std::to_string(cells_.size()) + " holes; at most " +
                                  std::to_string(kMaxWidth) + " are supported");
  constexpr int kMaxCoord = 1 << 20;
  for (const Coord& p : cells_)
    if (p.r < -kMaxCoord || p.r > kMaxCoord || p.c < -kMaxCoord || p.c > kMaxCoord)
      throw InputError("cells", "coordinate (" + std::to_string(p.r) + ", " + std::to_string(p.c) +
                                    ") is beyond +-" + std::to_string(kMaxCoord));
  std::sort(cells_.begin(), cells_.end(),
            [](Coord a, Coord b) { return a.r != b.r ? a.r < b.r : a.c < b.c; });
  for (std::size_t i = 1; i < cells_.size(); ++i)
    if (cells_[i] == cells_[i - 1]) throw InputError("cells", "a hole is listed twice");
  min_ = max_ = cells_[0];
  for (const Coord& p : cells_) {
    min_.r = std::min(min_.r, p.r);
    min_.c = std::min(min_.c, p.c);
    max_.r = std::max(max_.r, p.r);
    max_.c = std::max(max_.c, p.c);
  }
  grid_cols_ = max_.c - min_.c + 1;
  // The look-up grid spans the bounding box: a few holes far apart would make it huge.
  constexpr std::int64_t kMaxCells = std::int64_t{1} << 22;
  if (std::int64_t{max_.r - min_.r + 1} * grid_cols_ > kMaxCells)
    throw InputError("cells", "the holes span " + std::to_string(max_.r - min_.r + 1) +
                                  " rows and " + std::to_string(grid_cols_) + " columns; at most " +
                                  std::to_string(kMaxCells) + " cells are supported");
  grid_.assign(static_cast<std::size_t>((max_.r - min_.r + 1) * grid_cols_), -1);
  for (int h = 0; h < size(); ++h) {
    const Coord& p = cells_[static_cast<std::size_t>(h)];
    grid_[static_cast<std::size_t>((p.r - min_.r) * grid_cols_ + (p.c - min_.c))] = h;
  }
  directions_ = lattice_directions(lattice_);
  build_names();
  build_jumps();
  build_symmetries();
  layout_ = std::make_shared<const layout_detail::Layout>(*this);
  width_ = layout_->width();
  build_invariants();
  build_peg_types();
}

void Board::out_of_range(int hole) const {
  throw InputError("hole", "hole " + std::to_string(hole) + " is not on board " + name_ +
                               " (0 to " + std::to_string(size() - 1) + ")");
}

bool Board::same_shape(const Board& o) const {
  if (lattice_ != o.lattice_ || cells_.size() != o.cells_.size()) return false;
  for (std::size_t i = 0; i < cells_.size(); ++i)
    if (cells_[i].r - min_.r != o.cells_[i].r - o.min_.r ||
        cells_[i].c - min_.c != o.cells_[i].c - o.min_.c)
      return false;
  return true;
}

std::optional<int> Board::at(Coord p) const {
  if (p.r < min_.r || p.r > max_.r || p.c < min_.c || p.c > max_.c) return std::nullopt;
  int h = grid_[static_cast<std::size_t>((p.r - min_.r) * grid_cols_ + (p.c - min_.c))];
  if (h < 0) return std::nullopt;
  return h;
}

std::optional<int> Board::find(std::string_view name) const {
  std::string key(name);
  for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (int h = 0; h < size(); ++h)
    if (names_[static_cast<std::size_t>(h)] == key) return h;
  return std::nullopt;
}

void Board::build_names() {
  names_.resize(cells_.size());
  for (int h = 0; h < size(); ++h) {
    const Coord& p = cells_[static_cast<std::size_t>(h)];
    names_[static_cast<std::size_t>(h)] =
        lattice_ == Lattice::Triangular
            ? std::to_string(h + 1)
            : column_letters(p.c - min_.c) + std::to_string(p.r - min_.r + 1);
  }
}

void Board::build_jumps() {
  for (int h = 0; h < size(); ++h) {
    Coord p = coord(h);
    for (const Coord& d : directions_) {
      auto over = at({p.r + d.r, p.c + d.c});
      auto to = at({p.r + 2 * d.r, p.c + 2 * d.c});
      if (over && to) jumps_.push_back({h, *over, *to});
    }
  }
}

void Board::build_symmetries() {
  for (const Mat& m : point_group(lattice_)) {
    std::vector<Coord> img(cells_.size());
    Coord lo{1 << 30, 1 << 30};
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      const Coord& p = cells_[i];
      img[i] = {m[0] * p.r + m[1] * p.c, m[2] * p.r + m[3] * p.c};
      lo.r = std::min(lo.r, img[i].r);
      lo.c = std::min(lo.c, img[i].c);
    }
    std::vector<int> perm(cells_.size());
    bool ok = true;
    for (std::size_t i = 0; i < cells_.size() && ok; ++i) {
      auto h = at({img[i].r - lo.r + min_.r, img[i].c - lo.c + min_.c});
      if (!h)
        ok = false;
      else
        perm[i] = *h;
    }
    if (ok && std::find(symmetries_.begin(), symmetries_.end(), perm) == symmetries_.end())
      symmetries_.push_back(std::move(perm));
  }
}

// Null space over GF(2) of the jump/hole incidence matrix (each jump is the set of its 3 holes).
void Board::build_invariants() {
  const int n = size();
  const std::size_t words = static_cast<std::size_t>((n + 63) / 64);
  std::vector<std::vector<std::uint64_t>> rows;
  for (const Jump& j : jumps_) {
    if (j.from > j.to) continue;  // the reverse jump has the same hole set
    std::vector<std::uint64_t> row(words, 0);
    for (int h : {j.from, j.over, j.to})
      row[static_cast<std::size_t>(h >> 6)] |= std::uint64_t{1} << (h & 63);
    rows.push_back(std::move(row));
  }
  std::vector<int> pivot_col;
  std::size_t rank = 0;
  for (int col = 0; col < n && rank < rows.size(); ++col) {
    auto w = static_cast<std::size_t>(col >> 6);
    std::uint64_t m = std::uint64_t{1} << (col & 63);
    std::size_t p = rank;
    while (p < rows.size() && !(rows[p][w] & m)) ++p;
    if (p == rows.size()) continue;
    std::swap(rows[p], rows[rank]);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i != rank && (rows[i][w] & m))
        for (std::size_t k = 0; k < words; ++k) rows[i][k] ^= rows[rank][k];
    pivot_col.push_back(col);
    ++rank;
  }
  std::vector<char> is_pivot(static_cast<std::size_t>(n), 0);
  for (int c : pivot_col) is_pivot[static_cast<std::size_t>(c)] = 1;
  for (int f = 0; f < n; ++f) {
    if (is_pivot[static_cast<std::size_t>(f)]) continue;
    HoleSet v(n);
    v.set(f);
    for (std::size_t i = 0; i < rank; ++i)
      if ((rows[i][static_cast<std::size_t>(f >> 6)] >> (f & 63)) & 1) v.set(pivot_col[i]);
    invariants_.push_back(std::move(v));
  }
}

void Board::build_peg_types() {
  std::vector<int> parent(static_cast<std::size_t>(size()));
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x)
      x = parent[static_cast<std::size_t>(x)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    return x;
  };
  for (const Jump& j : jumps_) parent[static_cast<std::size_t>(root(j.from))] = root(j.to);
  std::map<int, int> label;
  peg_types_.resize(static_cast<std::size_t>(size()));
  for (int h = 0; h < size(); ++h) {
    auto [it, fresh] = label.try_emplace(root(h), static_cast<int>(label.size()));
    peg_types_[static_cast<std::size_t>(h)] = it->second;
  }
  peg_type_count_ = static_cast<int>(label.size());
}

}  // namespace pegsol
