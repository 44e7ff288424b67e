// SPDX-License-Identifier: MIT
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli.hpp"
#include "pegsol/catalogue.hpp"
#include "pegsol/json.hpp"
#include "pegsol/notation.hpp"
#include "pegsol/svg.hpp"
#include "text.hpp"

namespace pegsol::cli {

namespace {

// The whole of s as a double; nullopt when anything is left over. `tiny` is set when s is a
// number other than zero too small for a double (1e-999), which strtod reads as zero.
std::optional<double> to_number(const std::string& s, bool* tiny = nullptr) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (tiny) *tiny = v == 0 && errno == ERANGE;
  return v;
}

}  // namespace

int exit_status(Status s) {
  return s == Status::Solved ? kSolved : s == Status::Impossible ? kImpossible : kStopped;
}

std::string exit_status_help() {
  return "Exit status: 0 solved (or the computation completed), 1 proven impossible (no "
         "solution exists), 2 bad input, 3 internal error or output not written, 4 stopped before "
         "the answer (time or memory limit, an incomplete search), 128+N stopped by signal N "
         "(130 SIGINT, 143 SIGTERM, 129 SIGHUP) with the partial result, 141 the reader of the "
         "output went away.";
}

CLI::Validator seconds_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        bool tiny = false;
        auto v = to_number(s, &tiny);
        if (!v || std::isnan(*v) || *v < 0 || (tiny && std::signbit(*v)))
          return "expected a number of seconds >= 0 (0: no limit), got '" + s + "'";
        // Read as 0 it would mean no limit: refused rather than turned into its opposite.
        if (tiny)
          return "'" + s + "' seconds is a time limit too small to be told from 0 (0: no limit)";
        return "";
      },
      "SECONDS", "seconds");
}

CLI::Validator positive_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        bool tiny = false;
        auto v = to_number(s, &tiny);
        if (!v || std::isnan(*v) || *v <= 0)
          return "expected a number > 0, got '" + s + "'" +
                 (tiny && !std::signbit(*v) ? " (too small to be told from 0)" : "");
        return "";
      },
      "POSITIVE", "positive");
}

CLI::Validator whole_number_check(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const char* end = s.data() + s.size();
        auto [ptr, ec] = std::from_chars(s.data(), end, v);
        if (s.empty() || ec != std::errc() || ptr != end || v < lo || v > hi)
          return "expected a whole number from " + grouped(lo) + " to " + grouped(hi) + ", got '" +
                 s + "'";
        return "";
      },
      "INT in [" + grouped(lo) + " - " + grouped(hi) + "]", "whole number");
}

std::uint64_t max_threads() {
  return 4 * static_cast<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e) {
  std::string text = e.what();
  if (!dynamic_cast<const CLI::ExtrasError*>(&e)) return text;
  // "The following argument(s) was/were not expected: WORD ..." (CLI11 lists them reversed).
  const auto colon = text.rfind(": ");
  if (colon == std::string::npos) return text;
  const CLI::App* where = &app;
  for (const CLI::App* sub : app.get_subcommands())
    if (sub->parsed()) where = sub;
  std::vector<std::string> options, commands;
  for (const CLI::Option* opt : where->get_options())
    for (const std::string& n : opt->get_lnames()) options.push_back("--" + n);
  for (const CLI::App* sub : app.get_subcommands(nullptr)) commands.push_back(sub->get_name());
  std::vector<std::string> words;
  for (std::size_t b = colon + 2; b < text.size();) {
    const std::size_t sp = std::min(text.find(' ', b), text.size());
    words.push_back(text.substr(b, sp - b));
    b = sp + 1;
  }
  for (auto w = words.rbegin(); w != words.rend(); ++w) {
    const bool option = w->starts_with("-");
    const auto near =
        closest_name(option ? w->substr(0, w->find('=')) : *w, option ? options : commands);
    if (near) return text + " (did you mean '" + *near + "'?)";
  }
  return text;
}

std::size_t megabytes(double mb) {
  if (!(mb > 0)) return 0;
  // A positive amount is at least a byte: 0 would mean "no limit".
  return std::max<std::size_t>(
      1, static_cast<std::size_t>(std::min(mb, double(1 << 24)) * 1024 * 1024));
}

std::optional<std::string> create_checkpoint_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return std::nullopt;
  return "--checkpoint " + dir + ": " + ec.message();
}

std::string option_for(std::string_view field) {
  static const std::pair<std::string_view, std::string_view> renamed[] = {
      {"checkpoint_dir", "--checkpoint"},
      {"distinct_max_positions", "--distinct-limit"},
      {"level_checkpoint_seconds", "--checkpoint-seconds"},
  };
  for (std::string_view spec : {"start", "end", "goal", "board", "lattice", "preset"})
    if (field == spec) return "--" + std::string(field);
  if (field == "Control::memory_budget") return "--memory-limit";
  const auto colons = field.find("Options::");
  if (colons == std::string_view::npos || field.starts_with("PathIndex")) return {};
  const std::string_view name = field.substr(colons + 9);
  for (const auto& [from, to] : renamed)
    if (name == from) return std::string(to);
  std::string option = "--" + std::string(name);
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

std::string option_words(std::string text) {
  return rename_fields(text, option_for);
}

std::string input_error_text(const InputError& e) {
  std::string detail = option_words(e.detail());
  const std::string option = option_for(e.field());
  // The catalogue's pointer becomes the commands that list and read boards.
  const std::string catalogue =
      "(catalogue() lists the boards; a drawn board is read with parse_drawing)";
  if (auto at = detail.find(catalogue); at != std::string::npos)
    detail.replace(at, catalogue.size(), "(try `pegsol boards`, or @FILE for a drawing)");
  const std::string listed = "(presets() lists them)";
  if (auto at = detail.find(listed); at != std::string::npos)
    detail.replace(at, listed.size(), "(`pegsol presets` lists them)");
  // A hole name that is not on the board: `pegsol show` names them.
  const std::string no_hole = " has no hole named '";
  if (auto at = detail.find(no_hole); at != std::string::npos && detail.starts_with("board ")) {
    const std::string board = detail.substr(6, at - 6);
    detail += "; see `pegsol show --board " + board + "`";
  }
  if (e.field().empty()) return detail;
  if (option.empty()) return e.field() + ": " + detail;
  // A detail that starts with the value given ("@file: ...", "100: ...") follows the option.
  const auto colon = detail.find(": ");
  const bool value_first = colon != std::string::npos && colon > 0 && detail.find(' ') > colon;
  return option + (value_first ? " " : ": ") + detail;
}

int report_error(std::string_view kind, const std::string& raw, bool json) {
  // Messages quote user input (a hole name, a move, a file name): control bytes in it are
  // written as \xNN, so that none reaches the terminal.
  std::string message;
  for (const char ch : raw) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u == 0x7f)
      message += fmt::format("\\x{:02x}", u);
    else
      message.push_back(ch);
  }
  fmt::print(stderr, "pegsol: {}{}\n", kind == "internal" ? "internal error: " : "", message);
  if (json) fmt::print("{}\n", dump_json(error_json(kind, message)));
  return kind == "input" ? kBadInput : kInternal;
}

namespace {
// The errno of the first failed write to stdout (0: none seen); only the main thread writes.
int g_write_errno = 0;
}  // namespace

bool output_failed() {
  if (g_write_errno == 0 && std::ferror(stdout)) g_write_errno = errno ? errno : EIO;
  return g_write_errno != 0;
}

int finish_output(int rc) {
  errno = 0;
  if (std::fflush(stdout) != 0 && g_write_errno == 0) g_write_errno = errno ? errno : EIO;
  if (!output_failed()) return rc;
  if (g_write_errno == EPIPE) return 128 + SIGPIPE;
  fmt::print(stderr, "pegsol: cannot write the output: {}\n", std::strerror(g_write_errno));
  return kInternal;
}

void note_write_error(int err) {
  if (g_write_errno == 0) g_write_errno = err ? err : EIO;
}

bool want_colour() {
  const char* nc = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int terminal_columns() {
  if (const char* c = std::getenv("COLUMNS")) {
    int v = std::atoi(c);
    if (v >= 20) return v;
  }
  return 80;
}

namespace {

// One line of beam figures: the last attempt's method, complement pairs where the two sides met
// (the sweep has no second side), positions over all attempts, time, capacity, attempts.
std::string beam_line(const BeamStats& s, const SolveResult& r) {
  if (s.attempts == 0) return "beam: no attempt run\n";
  const std::string pairs = s.method == "sweep" ? std::string("no complement pairs (one side)")
                                                : fmt::format("{} complement pairs", s.pairs);
  return fmt::format("beam ({}): {}, {} positions, {:.2f} s, capacity {}, {} attempt{}\n", s.method,
                     pairs, r.nodes, r.seconds, s.capacity, s.attempts, s.attempts == 1 ? "" : "s");
}

}  // namespace

std::string format_solution(const Problem& p, const SolveResult& r, bool colour, int columns,
                            bool draw) {
  const Board& b = *p.board;
  std::string out = describe(p) + "\n";
  if (r.status != Status::Solved) {
    out += fmt::format("{}: {}\n", status_name(r.status), option_words(r.reason));
    out += fmt::format("({} positions searched, {:.3f} ms)\n", r.nodes, r.seconds * 1e3);
    if (r.beam) out += beam_line(*r.beam, r);
    return out;
  }
  out += fmt::format("solved in {} moves ({} positions searched, {:.3f} ms)\n", r.moves.size(),
                     r.nodes, r.seconds * 1e3);
  if (r.beam) out += beam_line(*r.beam, r);
  std::vector<std::string> numbered;
  for (std::size_t i = 0; i < r.moves.size(); ++i)
    numbered.push_back(fmt::format("{}.{}", i + 1, move_text(b, r.moves[i])));
  out += wrapped(numbered, columns);
  if (!draw) return out;
  // Positions side by side, each under its title: the start, then the position after each move.
  // The landing peg is highlighted; holes emptied by the move are marked.
  std::vector<std::vector<std::string>> frames;
  HoleSet pos = p.start;
  auto frame = [&](const std::string& title, const Jump* last) {
    frames.push_back({title});
    for (std::string& l : b.render([&](int h) {
           bool peg = pos.test(h);
           std::string g(1, peg ? 'o' : '.');
           if (!colour) return g;
           if (last && h == last->to) return "\x1b[1;33m" + g + "\x1b[0m";
           if (last && (h == last->from || h == last->over)) return "\x1b[31m" + g + "\x1b[0m";
           return peg ? "\x1b[32m" + g + "\x1b[0m" : "\x1b[2m" + g + "\x1b[0m";
         }))
      frames.back().push_back(std::move(l));
  };
  frame("start", nullptr);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const Jump& j = r.moves[i];
    pos.set(j.from, false);
    pos.set(j.over, false);
    pos.set(j.to, true);
    frame(fmt::format("{}.{}", i + 1, move_text(b, j)), &j);
  }
  // A blank line before each row of frames, none after the last.
  out += "\n" + side_by_side(frames, columns, GridWidth::Own);
  out.pop_back();
  return out;
}

void write_solution_svg(const std::string& path, const Problem& p, const std::vector<Jump>& moves) {
  const std::string svg = solution_svg(*p.board, p.start, moves);
  std::ofstream f(path);
  if (!(f << svg) || !(f.close(), f)) throw InputError("--svg: cannot write " + path);
}

int print_boards(bool json) {
  if (json) {
    fmt::print("{}\n", dump_json(catalogue_json()));
    return 0;
  }
  fmt::print("{:<12} {:>6} {:>6} {:>5}  {:<11} {}\n", "board", "holes", "jumps", "syms", "lattice",
             "description");
  for (const CatalogueEntry& e : catalogue()) {
    BoardPtr b = make_board(e.spec);
    fmt::print("{:<12} {:>6} {:>6} {:>5}  {:<11} {}\n", e.spec, b->size(), b->jumps().size(),
               b->symmetries().size(), lattice_name(b->lattice()), e.description);
  }
  return 0;
}

int print_show(const ProblemSpec& a, bool json) {
  BoardPtr b = build_board(a);
  if (json) {
    fmt::print("{}\n", dump_json(board_json(*b)));
    return 0;
  }
  std::size_t w = 0;
  for (int h = 0; h < b->size(); ++h) w = std::max(w, b->hole_name(h).size());
  int cell = static_cast<int>(w) + (b->lattice() == Lattice::Triangular ? 0 : 1);
  fmt::print(
      "{} ({} lattice): {} holes, {} jumps, {} symmetries, {} peg types, {} class "
      "invariants, {}-bit layout\n\n",
      b->name(), lattice_name(b->lattice()), b->size(), b->jumps().size(), b->symmetries().size(),
      b->peg_type_count(), b->class_invariants().size(), b->width());
  for (const std::string& line : b->render(
           [&](int h) {
             std::string n = b->hole_name(h);
             return std::string(static_cast<std::size_t>(cell) - n.size(), ' ') + n;
           },
           cell)) {
    std::string l = line;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    fmt::print("{}\n", l);
  }
  return 0;
}

}  // namespace pegsol::cli
