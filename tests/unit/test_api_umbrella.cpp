// SPDX-License-Identifier: MIT
// <pegsol/pegsol.hpp> alone gives the whole public API, and every error it throws is a
// pegsol::Error: bad input an InputError naming its field, a stop a Stopped keeping its reason.
#include <pegsol/pegsol.hpp>

#include <cmath>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

namespace {

static_assert(std::is_base_of_v<std::runtime_error, pegsol::Error>);
static_assert(std::is_base_of_v<pegsol::Error, pegsol::InputError>);
static_assert(std::is_base_of_v<pegsol::Error, pegsol::Stopped>);
static_assert(std::is_base_of_v<pegsol::Error, pegsol::InternalError>);
static_assert(std::is_same_v<pegsol::CensusError, pegsol::InternalError>);
static_assert(std::is_nothrow_copy_constructible_v<pegsol::InputError>);

// The field an InputError thrown by `f` names ("<none>" when f throws nothing of the kind).
template <class F>
std::string field_of(F f) {
  try {
    f();
  } catch (const pegsol::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              e.field().empty() ? e.detail() : e.field() + ": " + e.detail());
    return e.field();
  }
  return "<none>";
}

TEST(ApiUmbrella, FormerInvalidArgumentsAreInputErrors) {
  using namespace pegsol;
  EXPECT_EQ(field_of([] { Board("empty", Lattice::Square, {}); }), "cells");
  EXPECT_EQ(field_of([] { Board("twice", Lattice::Square, {{0, 0}, {0, 0}}); }), "cells");
  EXPECT_EQ(field_of([] { HoleSet::from_bits("0120"); }), "bits");
  EXPECT_EQ(field_of([] { Control().set_time_limit(std::nan("")); }), "seconds");
  BoardPtr b = make_board("triangle:5");
  EXPECT_EQ(field_of([&] { solve(Problem{b, HoleSet(14, true), {}}); }), "start");
}

TEST(ApiUmbrella, StoppedIsAnErrorWithItsReason) {
  pegsol::Control c;
  c.cancel(pegsol::StopReason::Time);
  try {
    c.throw_if_stopped();
    FAIL() << "not stopped";
  } catch (const pegsol::Error& e) {
    auto* s = dynamic_cast<const pegsol::Stopped*>(&e);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->reason, pegsol::StopReason::Time);
    EXPECT_STREQ(e.what(), "stopped: time limit");
  }
}

TEST(ApiUmbrella, InputErrorWithoutField) {
  pegsol::InputError e("drawing:3:7: no hole");
  EXPECT_EQ(e.field(), "");
  EXPECT_EQ(e.detail(), "drawing:3:7: no hole");
  pegsol::InputError f("hole", "99 is not a hole");
  pegsol::InputError copy = f;
  EXPECT_EQ(copy.field(), "hole");
  EXPECT_STREQ(copy.what(), "hole: 99 is not a hole");
}

}  // namespace
