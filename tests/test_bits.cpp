#include <gtest/gtest.h>

#include "pegsol/bits.hpp"

TEST(Bits, Placeholder) { EXPECT_EQ(pegsol::Bits<64>::single(3).count(), 1); }
