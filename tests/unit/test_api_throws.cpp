// SPDX-License-Identifier: MIT
// A caller who includes only the header of what it calls can catch what that throws.
#include <pegsol/catalogue.hpp>

#include <gtest/gtest.h>

namespace {

TEST(ApiThrows, CatalogueHeaderAloneCatchesInputError) {
  bool caught = false;
  try {
    pegsol::make_board("no-such-board");
  } catch (const pegsol::InputError& e) {
    caught = true;
    const pegsol::Error& base = e;  // one hierarchy under pegsol::Error
    EXPECT_NE(std::string(base.what()).find("no-such-board"), std::string::npos) << base.what();
  }
  EXPECT_TRUE(caught);
}

}  // namespace
