// SPDX-License-Identifier: MIT
#include "pegsol/catalogue.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "bits.hpp"
#include "pegsol/error.hpp"
#include "pegsol/problem.hpp"
#include "pegsol/spec.hpp"

namespace pegsol {

namespace {

constexpr int kMaxTriangle = 44;  // 990 holes: the widest layout is 1024 bits
constexpr int kMaxHexagon = 18;   // 919 holes

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

template <class Pred>
std::vector<Coord> cells_where(int rows, int cols, Pred inside) {
  std::vector<Coord> cells;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (inside(r, c)) cells.push_back({r, c});
  return cells;
}

int iabs(int x) {
  return x < 0 ? -x : x;
}

}  // namespace

std::vector<CatalogueEntry> catalogue() {
  return {
      {"english", "English (British) cross, 33 holes"},
      {"french", "French (European) board, 37 holes"},
      {"diamond41", "9x9 diamond, rows of 1,3,5,7,9,7,5,3,1: 41 holes"},
      {"wiegleb", "Wiegleb's 9x9 cross, 45 holes"},
      {"triangle:5",
       "triangle:N, N rows on the triangular lattice (N = 3..44); :5 is Cracker Barrel"},
      {"hexagon:3", "hexagon:N, side N on the triangular lattice (N = 2..18)"},
      {"rect:4x5", "rect:RxC, R rows by C columns on the square lattice (R*C <= 1024)"},
  };
}

BoardPtr make_board(std::string_view spec, std::optional<Lattice> lattice) {
  std::string_view family = spec, arg;
  if (auto colon = spec.find(':'); colon != std::string_view::npos) {
    family = spec.substr(0, colon);
    arg = spec.substr(colon + 1);
  }
  auto lattice_for = [&](Lattice natural) {
    if (!lattice || *lattice == natural) return natural;
    if (natural == Lattice::Square && *lattice == Lattice::Square8) return Lattice::Square8;
    throw InputError("board '" + std::string(spec) + "' lies on the " +
                     std::string(lattice_name(natural)) + " lattice, not " +
                     std::string(lattice_name(*lattice)));
  };
  auto no_arg = [&] {
    if (!arg.empty())
      throw InputError("board '" + std::string(family) + "' takes no size (got '" +
                       std::string(spec) + "')");
  };
  auto named = [&](std::string base, Lattice l) {
    return l == Lattice::Square8 ? base + "+diagonals" : base;
  };
  if (family == "english") {
    no_arg();
    Lattice l = lattice_for(Lattice::Square);
    return std::make_shared<const Board>(
        named("english", l), l,
        cells_where(7, 7, [](int r, int c) { return (c >= 2 && c <= 4) || (r >= 2 && r <= 4); }));
  }
  if (family == "french") {
    no_arg();
    Lattice l = lattice_for(Lattice::Square);
    return std::make_shared<const Board>(named("french", l), l, cells_where(7, 7, [](int r, int c) {
                                           return iabs(r - 3) + iabs(c - 3) <= 4;
                                         }));
  }
  if (family == "diamond41" || family == "diamond") {
    no_arg();
    Lattice l = lattice_for(Lattice::Square);
    return std::make_shared<const Board>(
        named("diamond41", l), l,
        cells_where(9, 9, [](int r, int c) { return iabs(r - 4) + iabs(c - 4) <= 4; }));
  }
  if (family == "wiegleb") {
    no_arg();
    Lattice l = lattice_for(Lattice::Square);
    return std::make_shared<const Board>(
        named("wiegleb", l), l,
        cells_where(9, 9, [](int r, int c) { return (c >= 3 && c <= 5) || (r >= 3 && r <= 5); }));
  }
  if (family == "triangle" || family == "hexagon") {
    bool tri = family == "triangle";
    int lo = tri ? 3 : 2, hi = tri ? kMaxTriangle : kMaxHexagon;
    auto n = parse_int(arg);
    if (arg.empty() || !n || *n < lo || *n > hi)
      throw InputError("board '" + std::string(spec) + "': write " + std::string(family) +
                       ":N with N from " + std::to_string(lo) + " to " + std::to_string(hi));
    Lattice l = lattice_for(Lattice::Triangular);
    int N = *n;
    std::vector<Coord> cells =
        tri ? cells_where(N, N, [](int r, int k) { return k <= r; })
            : cells_where(2 * N - 1, 2 * N - 1, [N](int r, int k) {
                return iabs(r - k) <= N - 1;  // |dr|, |dk| <= N-1 hold by the loop bounds
              });
    return std::make_shared<const Board>(std::string(family) + ":" + std::to_string(N), l,
                                         std::move(cells));
  }
  if (family == "rect") {
    auto x = arg.find('x');
    std::optional<int> R, C;
    if (x != std::string_view::npos) {
      R = parse_int(arg.substr(0, x));
      C = parse_int(arg.substr(x + 1));
    }
    // Each side at most 1,024 before multiplying: R * C must not overflow (found by
    // fuzz_json_spec: rect:611111119x6).
    if (!R || !C || *R < 1 || *C < 1 || *R > 1024 || *C > 1024 || *R * *C > 1024 || *R * *C < 2)
      throw InputError("board '" + std::string(spec) +
                       "': write rect:RxC with R, C >= 1 and 2 <= R*C <= 1024");
    Lattice l = lattice_for(Lattice::Square);
    return std::make_shared<const Board>(
        named("rect:" + std::to_string(*R) + "x" + std::to_string(*C), l), l,
        cells_where(*R, *C, [](int, int) { return true; }));
  }
  std::vector<std::string> families{"triangle", "hexagon", "rect"};
  for (const CatalogueEntry& e : catalogue())
    if (e.spec.find(':') == std::string::npos) families.push_back(e.spec);
  const auto near = closest_name(family, families);
  throw InputError("unknown board '" + std::string(spec) + "'" +
                   (near ? " (did you mean '" + *near + "'?)" : "") +
                   " (catalogue() lists the boards; a drawn board is read with parse_drawing)");
}

namespace {

struct RawDrawing {
  Lattice lattice = Lattice::Square;
  std::vector<Coord> cells;  // in the order found
  std::vector<bool> peg;
  std::vector<std::pair<int, int>> where;  // (line, column), 1-based
};

// "byte 0x00"
std::string fmt_byte(unsigned char u) {
  const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

std::string at_text(std::string_view source, int line, int col) {
  return std::string(source) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
}

RawDrawing parse_raw(std::string_view text, std::string_view source,
                     std::optional<Lattice> lattice) {
  RawDrawing d;
  std::optional<Lattice> header;
  int header_line = 0;
  // A UTF-8 byte-order mark (as some editors write) is not part of the drawing.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = nl + 1;
  }
  int first_row = -1;  // line index of the first drawing row
  struct Row {
    int line;
    std::string_view text;
  };
  std::vector<Row> rows;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    std::string_view line = lines[static_cast<std::size_t>(i)];
    auto nonblank = line.find_first_not_of(' ');
    if (nonblank != std::string_view::npos && line[nonblank] == '#') continue;  // comment
    if (nonblank != std::string_view::npos && line.substr(nonblank).starts_with("lattice")) {
      if (first_row >= 0)
        throw InputError(at_text(source, i + 1, static_cast<int>(nonblank) + 1) +
                         "the lattice line must come before the drawing");
      if (header_line > 0)
        throw InputError(at_text(source, i + 1, static_cast<int>(nonblank) + 1) +
                         "a second lattice line (the first is line " + std::to_string(header_line) +
                         ")");
      header_line = i + 1;
      std::string_view rest = line.substr(nonblank + 7);
      while (!rest.empty() && (rest.front() == ':' || rest.front() == ' ' || rest.front() == '='))
        rest.remove_prefix(1);
      while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
      header = parse_lattice(rest);
      if (!header)
        throw InputError(at_text(source, i + 1, static_cast<int>(nonblank) + 1) +
                         "unknown lattice '" + std::string(rest) +
                         "' (square, square8 or triangular)");
      continue;
    }
    if (first_row < 0 && nonblank == std::string_view::npos) continue;  // leading blank lines
    if (first_row < 0) first_row = i;
    rows.push_back({i, line});
  }
  while (!rows.empty() && rows.back().text.find_first_not_of(' ') == std::string_view::npos)
    rows.pop_back();
  d.lattice = lattice ? *lattice : header.value_or(Lattice::Square);
  const bool tri = d.lattice == Lattice::Triangular;
  int parity = -1;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const Row& row = rows[y];
    bool prev_hole = false;
    for (std::size_t x = 0; x < row.text.size(); ++x) {
      char ch = row.text[x];
      int line = row.line + 1, col = static_cast<int>(x) + 1;
      if (ch == ' ') {
        prev_hole = false;
        continue;
      }
      if (ch != 'o' && ch != '.') {
        // Printable ASCII is quoted; anything else (a tab, NUL, a UTF-8 byte) is named by value
        // so that no control byte reaches the terminal.
        const auto u = static_cast<unsigned char>(ch);
        std::string shown = ch == '\t'              ? std::string("a tab")
                            : u >= 0x20 && u < 0x7f ? std::string{'\'', ch, '\''}
                                                    : fmt_byte(u);
        throw InputError(at_text(source, line, col) + "unexpected " + shown +
                         ": a drawing holds only 'o' (peg), '.' (empty hole) and spaces");
      }
      int yi = static_cast<int>(y), xi = static_cast<int>(x);
      if (tri) {
        if (prev_hole)
          throw InputError(at_text(source, line, col) +
                           "holes of a triangular drawing must be separated by a space");
        int p = (xi + yi) & 1;
        if (parity < 0) parity = p;
        if (p != parity)
          throw InputError(at_text(source, line, col) +
                           "ragged triangular drawing: this hole is off the staggered grid (each "
                           "row must be shifted by one column from the row above)");
        d.cells.push_back({yi, (xi + yi - parity) / 2});
      } else {
        d.cells.push_back({yi, xi});
      }
      if (d.cells.size() > static_cast<std::size_t>(kMaxWidth))
        throw InputError(at_text(source, line, col) + "the drawing has more than " +
                         std::to_string(kMaxWidth) + " holes (at most " +
                         std::to_string(kMaxWidth) + " are supported)");
      d.peg.push_back(ch == 'o');
      d.where.emplace_back(line, col);
      prev_hole = true;
    }
  }
  if (d.cells.empty())
    throw InputError(std::string(source) + ": the drawing has no holes ('o' or '.')");
  return d;
}

}  // namespace

Drawing parse_drawing(std::string_view text, std::string_view source,
                      std::optional<Lattice> lattice) {
  RawDrawing raw = parse_raw(text, source, lattice);
  std::string name = "@";  // not "@" + std::string(source): GCC 12 warns there (-Wrestrict)
  name += source;
  auto board = std::make_shared<const Board>(name, raw.lattice, raw.cells);
  HoleSet pegs(board->size());
  for (std::size_t i = 0; i < raw.cells.size(); ++i)
    if (raw.peg[i]) pegs.set(*board->at(raw.cells[i]));
  return {board, pegs};
}

HoleSet parse_position(const Board& board, std::string_view text, std::string_view source) {
  RawDrawing raw = parse_raw(text, source, board.lattice());
  Coord lo = raw.cells[0];
  for (const Coord& p : raw.cells) {
    lo.r = std::min(lo.r, p.r);
    lo.c = std::min(lo.c, p.c);
  }
  Coord bmin = board.min_coord();
  HoleSet pegs(board.size());
  std::vector<bool> seen(static_cast<std::size_t>(board.size()), false);
  for (std::size_t i = 0; i < raw.cells.size(); ++i) {
    auto h = board.at({raw.cells[i].r - lo.r + bmin.r, raw.cells[i].c - lo.c + bmin.c});
    if (!h)
      throw InputError(at_text(source, raw.where[i].first, raw.where[i].second) +
                       "this is not a hole of board " + board.name() +
                       " (the drawing must show exactly the board's holes)");
    seen[static_cast<std::size_t>(*h)] = true;
    pegs.set(*h, raw.peg[i]);
  }
  for (int h = 0; h < board.size(); ++h)
    if (!seen[static_cast<std::size_t>(h)])
      throw InputError(std::string(source) + ": hole " + board.hole_name(h) + " of board " +
                       board.name() + " is missing from the drawing");
  return pegs;
}

std::string format_drawing(const Board& board, const HoleSet& pegs) {
  check_position(board, pegs, "pegs");
  std::string out;
  if (board.lattice() != Lattice::Square)
    out += "lattice: " + std::string(lattice_name(board.lattice())) + "\n";
  for (const std::string& line :
       board.render([&](int h) { return std::string(1, pegs.test(h) ? 'o' : '.'); }))
    out += line + "\n";
  return out;
}

std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& names) {
  // Optimal string alignment distance, three rows.
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> p2(b.size() + 1), p1(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) p1[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t sub = a[i - 1] == b[j - 1] ? 0 : 1;
        cur[j] = std::min({p1[j] + 1, cur[j - 1] + 1, p1[j - 1] + sub});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          cur[j] = std::min(cur[j], p2[j - 2] + 1);
      }
      p2.swap(p1);
      p1.swap(cur);
    }
    return p1[b.size()];
  };
  if (word.empty() || word.size() > 64) return std::nullopt;
  const std::size_t allowed = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  std::optional<std::string> best;
  std::size_t best_d = allowed + 1;
  for (const std::string& n : names) {
    const std::size_t d = distance(word, n);
    if (d > 0 && d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

std::string read_file(const std::string& path, std::string_view what, std::size_t max_bytes) {
  const std::string who = what.empty() ? "file '" + path + "'" : std::string(what);
  auto mib = [](std::uintmax_t bytes) {
    return bytes % (1u << 20) == 0 ? std::to_string(bytes >> 20) + " MiB"
                                   : std::to_string(bytes) + " bytes";
  };
  const std::string larger =
      "larger than " + mib(max_bytes) + ", the most a drawing or a game may be";
  auto cannot = [&](int err) {
    return InputError(who + ": cannot read file '" + path + "' (" + std::strerror(err) + ")");
  };
  // Opening a FIFO waits for its writer, as reading one from the shell does.
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw cannot(errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw cannot(errno);
  if (S_ISDIR(st.st_mode)) throw InputError(who + ": is a directory, not a file");
  // A regular file says its size: refused without reading it.
  if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    throw InputError(who + ": " + std::to_string(st.st_size >> 20) + " MiB, " + larger);
  // Devices, pipes and FIFOs may not end: at most max_bytes + 1 bytes are read.
  std::string text;
  char buf[1 << 16];
  while (true) {
    const std::size_t want = std::min(sizeof buf, max_bytes + 1 - text.size());
    const ssize_t r = ::read(fd, buf, want);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      throw errno == EISDIR ? InputError(who + ": is a directory, not a file") : cannot(errno);
    if (r == 0) break;
    text.append(buf, static_cast<std::size_t>(r));
    if (text.size() > max_bytes) throw InputError(who + ": " + larger);
  }
  return text;
}

}  // namespace pegsol
