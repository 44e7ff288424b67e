// SPDX-License-Identifier: MIT
// SVG pictures of positions and solutions (include/pegsol/svg.hpp).
#include "pegsol/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pegsol/error.hpp"
#include "pegsol/play.hpp"
#include "pegsol/problem.hpp"

namespace pegsol {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Hole centres relative to the board's top-left, and the board's drawn size. Square lattices: a
// grid; the triangular lattice: rows shifted by half a step, sqrt(3)/2 apart (as Board::render
// staggers them).
struct Layout {
  std::vector<double> x, y;
  double width = 0, height = 0;
};

Layout layout(const Board& b, double s) {
  Layout l;
  const bool tri = b.lattice() == Lattice::Triangular;
  double min_x = 1e300, max_x = -1e300, min_y = 1e300, max_y = -1e300;
  for (int h = 0; h < b.size(); ++h) {
    const Coord c = b.coord(h);
    const double x = tri ? (2 * c.c - c.r) * s / 2 : c.c * s;
    const double y = tri ? c.r * s * std::sqrt(3.0) / 2 : c.r * s;
    l.x.push_back(x);
    l.y.push_back(y);
    min_x = std::min(min_x, x);
    max_x = std::max(max_x, x);
    min_y = std::min(min_y, y);
    max_y = std::max(max_y, y);
  }
  for (double& x : l.x) x -= min_x - s / 2;
  for (double& y : l.y) y -= min_y - s / 2;
  l.width = max_x - min_x + s;
  l.height = max_y - min_y + s;
  return l;
}

const char* kStyle =
    "<style>.hole{fill:#e8e0d0;stroke:#8a7a60;stroke-width:1}.peg{fill:#2f5d8a}"
    ".landed{fill:#d08a10}.emptied{fill:#f3c6c0;stroke:#b04030}"
    "text{font-family:sans-serif;fill:#333}</style>\n";

// One frame's body: holes, pegs, marks; at (dx, dy).
std::string frame(const Board& b, const Layout& l, const HoleSet& pegs, double s, double dx,
                  double dy, const std::string& title, const Move* last, bool names) {
  std::string out = "<g class=\"frame\" transform=\"translate(" + num(dx) + "," + num(dy) + ")\">";
  double top = 0;
  if (!title.empty()) {
    out += "<text x=\"" + num(s / 4) + "\" y=\"" + num(s * 0.8) + "\" font-size=\"" +
           num(s * 0.75) + "\">" + escape(title) + "</text>";
    top = s;
  }
  const double r_hole = s * 0.32, r_peg = s * 0.27;
  for (int h = 0; h < b.size(); ++h) {
    const double x = l.x[static_cast<std::size_t>(h)], y = l.y[static_cast<std::size_t>(h)] + top;
    bool emptied = false;
    if (last)
      for (const Jump& j : last->jumps)
        if ((h == j.from || h == j.over) && !pegs.test(h)) emptied = true;
    out += "<circle class=\"" + std::string(emptied ? "hole emptied" : "hole") + "\" cx=\"" +
           num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r_hole) + "\"/>";
    if (pegs.test(h))
      out += "<circle class=\"" + std::string(last && h == last->to() ? "peg landed" : "peg") +
             "\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r_peg) + "\"/>";
    if (names)
      out += "<text x=\"" + num(x + r_hole) + "\" y=\"" + num(y - r_hole) + "\" font-size=\"" +
             num(s * 0.35) + "\">" + escape(b.hole_name(h)) + "</text>";
  }
  return out + "</g>\n";
}

std::string document(double width, double height, const std::string& body) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         num(width) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " +
         num(height) + "\">\n" + kStyle + body + "</svg>\n";
}

void check_fits(const Board& b, const HoleSet& pegs) {
  if (pegs.size() != b.size())
    throw InputError("pegs", "the position has " + std::to_string(pegs.size()) + " holes; board " +
                                 b.name() + " has " + std::to_string(b.size()));
}

void check_svg_options(const SvgOptions& o) {
  if (!(o.spacing > 0) || !std::isfinite(o.spacing) || o.spacing > 1e6)
    throw InputError("SvgOptions::spacing", "a distance above 0 and up to a million units");
  if (o.columns < 0 || o.columns > 100000)
    throw InputError("SvgOptions::columns", std::to_string(o.columns) +
                                                "; 0 (about the square "
                                                "root of the count) up to 100000");
}

}  // namespace

std::string position_svg(const Board& board, const HoleSet& pegs, const SvgOptions& o) {
  check_svg_options(o);
  check_fits(board, pegs);
  const Layout l = layout(board, o.spacing);
  return document(l.width, l.height, frame(board, l, pegs, o.spacing, 0, 0, "", nullptr, o.names));
}

std::string solution_svg(const Board& board, const HoleSet& start, const std::vector<Jump>& moves,
                         const SvgOptions& o) {
  check_svg_options(o);
  check_fits(board, start);
  Replay check = replay(board, start, moves);
  if (!check.ok) throw InputError("cannot draw the solution: " + check.error);
  const std::vector<Move> grouped = group_moves(moves);
  const std::size_t frames = grouped.size() + 1;
  const std::size_t cols =
      o.columns > 0 ? static_cast<std::size_t>(o.columns)
                    : std::max<std::size_t>(
                          1, static_cast<std::size_t>(std::ceil(std::sqrt(double(frames)))));
  const double s = o.spacing;
  const Layout l = layout(board, s);
  const double fw = l.width + s, fh = l.height + 2 * s;  // a frame, its title and a margin
  std::string body;
  HoleSet pos = start;
  for (std::size_t i = 0; i < frames; ++i) {
    const Move* last = nullptr;
    std::string title = "start";
    if (i > 0) {
      last = &grouped[i - 1];
      for (const Jump& j : last->jumps) {
        pos.set(j.from, false);
        pos.set(j.over, false);
        pos.set(j.to, true);
      }
      title = std::to_string(i) + ". " + move_chain_text(board, *last);
    }
    body += frame(board, l, pos, s, static_cast<double>(i % cols) * fw,
                  static_cast<double>(i / cols) * fh, title, last, false);
  }
  const std::size_t rows = (frames + cols - 1) / cols;
  return document(static_cast<double>(cols) * fw, static_cast<double>(rows) * fh, body);
}

}  // namespace pegsol
