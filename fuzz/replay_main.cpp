// SPDX-License-Identifier: MIT
// A driver for the fuzz targets without libFuzzer (any compiler, the test suites' sanitizers):
// runs every file of the given corpora through LLVMFuzzerTestOneInput, then, with --mutants N,
// N inputs made from them by seeded random edits (flips, inserts, deletes, splices), the same
// every run. A finding aborts as under libFuzzer and names the input's number; --save K writes
// input K (corpus inputs first, then mutants) to fuzz-finding.bin instead of running.
// Usage: pegsol_fuzz_replay_TARGET [--mutants N] [--save K] DIR_OR_FILE...
#include <unistd.h>
#include <algorithm>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#if PEGSOL_HAVE_SANITIZER_HOOKS  // built with the sanitizers (CMake sets it)
#include <sanitizer/common_interface_defs.h>
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Input = std::vector<std::uint8_t>;

Input read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return Input(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The number of the input being run, for the report of a finding.
volatile std::sig_atomic_t current = -1;

void say_which() {
  char msg[160];
  const int n = std::snprintf(msg, sizeof msg,
                              "fuzz replay: finding at input %ld; --save %ld writes it to "
                              "fuzz-finding.bin\n",
                              static_cast<long>(current), static_cast<long>(current));
  if (n > 0) (void)!write(2, msg, static_cast<std::size_t>(n));
}

void on_signal(int sig) {
  say_which();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// One seeded random edit of `in`, sometimes spliced with `other`.
Input mutate(Input in, const Input& other, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = in.empty() ? 0 : rng() % (in.size() + 1);
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (!in.empty()) in[at % in.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // a random byte
        in.insert(in.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng()));
        break;
      case 2:  // a byte the formats care about
      {
        static const char special[] = "\n\r\t .o-0123456789:,{}[]\"\\";
        in.insert(in.begin() + static_cast<std::ptrdiff_t>(at),
                  static_cast<std::uint8_t>(special[rng() % (sizeof special - 1)]));
        break;
      }
      case 3:  // delete a run
        if (!in.empty()) {
          const std::size_t from = at % in.size();
          const std::size_t n = std::min<std::size_t>(in.size() - from, 1 + rng() % 8);
          in.erase(in.begin() + static_cast<std::ptrdiff_t>(from),
                   in.begin() + static_cast<std::ptrdiff_t>(from + n));
        }
        break;
      case 4:  // repeat a run
        if (!in.empty() && in.size() < 4096) {
          const std::size_t from = at % in.size();
          const std::size_t n = std::min<std::size_t>(in.size() - from, 1 + rng() % 16);
          Input run(in.begin() + static_cast<std::ptrdiff_t>(from),
                    in.begin() + static_cast<std::ptrdiff_t>(from + n));
          in.insert(in.begin() + static_cast<std::ptrdiff_t>(from), run.begin(), run.end());
        }
        break;
      default:  // splice: a head of this input, a tail of another
        if (!other.empty()) {
          const std::size_t cut = rng() % (other.size() + 1);
          in.resize(std::min(in.size(), at));
          in.insert(in.end(), other.begin() + static_cast<std::ptrdiff_t>(cut), other.end());
        }
    }
  }
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  long mutants = 0, save = -1;
  std::vector<Input> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mutants" && i + 1 < argc) {
      mutants = std::strtol(argv[++i], nullptr, 10);
      continue;
    }
    if (a == "--save" && i + 1 < argc) {
      save = std::strtol(argv[++i], nullptr, 10);
      continue;
    }
    const std::filesystem::path p(a);
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) corpus.push_back(read(f));
    } else if (std::filesystem::is_regular_file(p)) {
      corpus.push_back(read(p));
    } else {
      std::fprintf(stderr, "%s: no such file or directory\n", a.c_str());
      return 2;
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "no inputs\n");
    return 2;
  }
  for (int sig : {SIGABRT, SIGSEGV, SIGFPE, SIGILL, SIGBUS}) std::signal(sig, on_signal);
#if PEGSOL_HAVE_SANITIZER_HOOKS
  __sanitizer_set_death_callback(say_which);
#endif
  // Input k: corpus[k] for k below the corpus's size, then the mutants in order.
  auto each = [&](long k, const Input& in) {
    if (save >= 0) {
      if (k != save) return;
      std::ofstream f("fuzz-finding.bin", std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(in.data()), static_cast<std::streamsize>(in.size()));
      f.close();
      std::printf("input %ld written to fuzz-finding.bin\n", k);
      std::exit(0);
    }
    current = static_cast<std::sig_atomic_t>(k);
    LLVMFuzzerTestOneInput(in.data(), in.size());
  };
  long k = 0;
  for (const Input& in : corpus) each(k++, in);
  std::mt19937_64 rng(20261125);
  for (long m = 0; m < mutants; ++m)
    each(k++, mutate(corpus[static_cast<std::size_t>(m) % corpus.size()],
                     corpus[rng() % corpus.size()], rng));
  if (save >= 0) {
    std::fprintf(stderr, "no input %ld (there are %ld)\n", save, k);
    return 2;
  }
  std::printf("%zu corpus inputs and %ld mutants, no finding\n", corpus.size(), mutants);
  return 0;
}
