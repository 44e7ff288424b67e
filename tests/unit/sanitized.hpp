// SPDX-License-Identifier: MIT
#pragma once
// Whether the tests run under AddressSanitizer and UndefinedBehaviorSanitizer (the sanitize
// preset defines PEGSOL_TEST_SANITIZED): the heaviest reference comparisons then leave their
// largest boards to the Release run.
#ifdef PEGSOL_TEST_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
