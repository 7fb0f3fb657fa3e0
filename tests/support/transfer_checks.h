#pragma once
// Checks every system test makes of a transfer trial (tests/support/transfer_cells.h):
// the trial ran, and every byte the CPs hold was verified against the pattern's
// reference.

#include "tests/support/transfer_cells.h"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace starfish::testing {

// The trial has no error and its check found every byte right: the file once, or
// once per CP for `ra`. Returns how many copies of the file the CPs hold.
inline uint64_t expect_bytes_verified(const Cell &c, const nlohmann::json &t) {
    BOOST_REQUIRE_MESSAGE(!t.contains("error"), t.value("error", ""));
    BOOST_TEST(t["verified"].get<bool>(), t["check"].value("first_error", ""));
    uint64_t file = t["file_bytes"].get<uint64_t>();
    uint64_t copies = c.get("workload.pattern", "") == "ra" ? t["cp_count"].get<uint64_t>() : 1;
    BOOST_TEST(t["check"]["checked_bytes"].get<uint64_t>() == file * copies);
    BOOST_TEST(t["check"]["bad_bytes"].get<uint64_t>() == 0u);
    return copies;
}

// Hands each cell and its trial document (in the cells' order) to `check`.
inline void check_each(const std::vector<Cell> &cells, const std::vector<nlohmann::json> &trials,
                       const std::function<void(const Cell &, const nlohmann::json &)> &check) {
    BOOST_REQUIRE(trials.size() == cells.size());
    for (size_t i = 0; i < cells.size(); ++i) {
        check(cells[i], trials[i]);
    }
}

} // namespace starfish::testing
