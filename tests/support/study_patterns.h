#pragma once
// Shared by the firmware and system tests: the study's 19 access patterns, and a
// check for hot loops that costs a plain comparison and reports through Boost only
// on failure (sweeps make millions of checks; include Boost.Test first).

namespace starfish::testing {

inline constexpr const char *kAllPatterns[] = {"ra",  "rn",  "rb",  "rc",  "rnb", "rbb", "rcb",
                                               "rbc", "rcc", "rcn", "wn",  "wb",  "wc",  "wnb",
                                               "wbb", "wcb", "wbc", "wcc", "wcn"};

} // namespace starfish::testing

#define REQUIRE(cond, msg)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            BOOST_TEST_REQUIRE((cond), msg);                                                       \
        }                                                                                          \
    } while (0)
