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
  // Bad input: the library's InputError, and the std::invalid_argument some of its entries
  // throw, as pegsol.InputError (a ValueError) with the library's message.
  py::register_exception<pegsol::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<pegsol::CensusError>(m, "CensusError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::invalid_argument& e) {
      py::object type = py::module_::import("pegsol").attr("InputError");
      PyErr_SetString(type.ptr(), e.what());
    }
  });
  m.attr("__version__") = py::str(std::string(pegsol::version()));
  pegsol::python::bind_play(m);
  pegsol::python::bind_compute(m);
  pegsol::python::bind_analysis(m);
}
