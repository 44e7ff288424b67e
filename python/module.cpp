// SPDX-License-Identifier: MIT
// `import pegsol`: the module's definition, its exceptions and its parts.
#include <stdexcept>

#include "common.hpp"
#include "pegsol/error.hpp"
#include "pegsol/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(pegsol, m) {
  m.doc() =
      "pegsol: peg solitaire engine. Boards, positions, moves and games; solve, count (the exact "
      "census), table, fewest; the analysis of positions and games. Results convert with "
      "to_json() to what `pegsol ... --json` prints (docs/python.md).";
  // The library's errors with its messages: bad input as pegsol.InputError (a ValueError), a
  // failure of the library's own as pegsol.InternalError (CensusError, its former name, kept as
  // an alias), any other pegsol::Error as pegsol.Error (a RuntimeError).
  py::register_exception<pegsol::Error>(m, "Error", PyExc_RuntimeError);
  py::register_exception<pegsol::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<pegsol::InternalError>(m, "InternalError", m.attr("Error").ptr());
  m.attr("CensusError") = m.attr("InternalError");
  m.attr("__version__") = py::str(std::string(pegsol::version()));
  pegsol::python::bind_play(m);
  pegsol::python::bind_compute(m);
  pegsol::python::bind_analysis(m);
}
