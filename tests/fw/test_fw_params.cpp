// The firmware's parameters (hw/platform/fw_params.cpp): documented, valid
// defaults, and configuration errors that name the key.
#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "hw/platform/fw_params.h"
#include "tests/fw/fw_test_support.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace starfish;

namespace {

std::string validate_error(const std::string &key, const nlohmann::json &value,
                           const std::string &key2 = "", const nlohmann::json &value2 = 0) {
    config::Config cfg(fwtest::fw_registry());
    cfg.set(key, value, "test");
    if (!key2.empty()) {
        cfg.set(key2, value2, "test");
    }
    try {
        cfg.validate();
    } catch (const config::ConfigError &e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_SUITE(fw_params)

BOOST_AUTO_TEST_CASE(every_firmware_parameter_is_documented_and_valid) {
    const auto &reg = fwtest::fw_registry();
    int costs = 0;
    for (const auto &[key, spec] : reg.all()) {
        BOOST_TEST_CONTEXT(key) {
            BOOST_TEST(!spec.meaning.empty());
            BOOST_TEST(!spec.provenance.empty());
            bool grouped = key.rfind("cost.", 0) == 0 || key.rfind("msg.", 0) == 0 ||
                           key.rfind("commtest.", 0) == 0;
            BOOST_TEST(grouped);
            costs += key.rfind("cost.msg_", 0) == 0;
        }
    }
    BOOST_TEST(costs >= 15);
    config::Config cfg(reg);
    BOOST_CHECK_NO_THROW(cfg.validate());
    // The derived costs say what they are derived from.
    BOOST_TEST(reg.at("cost.msg_memput_call_cycles").provenance.find("46-56") != std::string::npos);
    BOOST_TEST(reg.at("cost.msg_deposit_word_cycles").provenance.find("given") == 0u);
}

BOOST_AUTO_TEST_CASE(bad_values_are_rejected_by_name) {
    BOOST_TEST(validate_error("msg.rx_ring_slots", 48).find("msg.rx_ring_slots") !=
               std::string::npos);
    BOOST_TEST(validate_error("msg.rx_ring_slots", 64).empty());
    std::string e = validate_error("commtest.sweep_words", "1,,50");
    BOOST_TEST(e.find("commtest.sweep_words") != std::string::npos, e);
    BOOST_TEST(validate_error("commtest.sweep_words", "7").empty());
    BOOST_TEST(validate_error("commtest.queued_max_bytes", 4096).empty()); // = the slice
    e = validate_error("commtest.slice_bytes", 100, "commtest.queued_max_bytes", 101);
    BOOST_TEST(e.find("commtest.queued_max_bytes") != std::string::npos, e);
}

BOOST_AUTO_TEST_CASE(positive_list_parser) {
    std::vector<long long> v;
    std::string err;
    BOOST_TEST(platform::parse_positive_list("1,50,100", &v, &err));
    BOOST_TEST(v == (std::vector<long long>{1, 50, 100}), boost::test_tools::per_element());
    for (const char *bad : {"", "0", "1,", ",1", "1;2", "x", "-3", "300000", "1 2"}) {
        BOOST_TEST(!platform::parse_positive_list(bad, &v, &err), bad);
        BOOST_TEST(!err.empty());
    }
}

BOOST_AUTO_TEST_SUITE_END()
