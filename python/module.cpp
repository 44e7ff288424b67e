// SPDX-License-Identifier: MIT
// `import pegsol`: the module's definition, its exceptions and its parts.
#include <exception>
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
  // Their messages name the module's keywords, not the library's fields
  // ("CensusOptions::threads": "threads"; python_words).
  static py::exception<pegsol::Error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<pegsol::InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<pegsol::InternalError> internal_error(m, "InternalError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pegsol::InputError& e) {
      PyErr_SetString(input_error.ptr(), pegsol::python::python_words(e.what()).c_str());
    } catch (const pegsol::InternalError& e) {
      PyErr_SetString(internal_error.ptr(), pegsol::python::python_words(e.what()).c_str());
    } catch (const pegsol::Error& e) {
      PyErr_SetString(error.ptr(), pegsol::python::python_words(e.what()).c_str());
    }
  });
  m.attr("CensusError") = m.attr("InternalError");
  m.attr("__version__") = py::str(std::string(pegsol::version()));
  pegsol::python::bind_play(m);
  pegsol::python::bind_compute(m);
  pegsol::python::bind_analysis(m);
}
