// The firmware's parameters (fw/src/params.c, registered by sim/platform/fw_params.cpp):
// documented, valid defaults, configuration errors that name the key, the names the
// firmware reads all registered, and a fake HAL that starts from the full registry.
#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "sim/parameters.h"
#include "sim/platform/fw_params.h"
#include "tests/fw/fw_test_support.h"

#include "fw/param_keys.h"
#include "fw/params.h"

#include <boost/test/unit_test.hpp>

#include <iostream>
#include <map>
#include <sstream>
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

// What `body` writes to std::cerr.
template <typename Body> std::string cerr_of(Body body) {
    std::ostringstream captured;
    std::streambuf *old = std::cerr.rdbuf(captured.rdbuf());
    try {
        body();
    } catch (...) {
        std::cerr.rdbuf(old);
        throw;
    }
    std::cerr.rdbuf(old);
    return captured.str();
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
            bool grouped = false;
            for (const char *group : {"cost.", "msg.", "commtest.", "fs.", "ddio.", "spfs.",
                                      "twophase.", "workload.", "scsi.", "lu."}) {
                grouped = grouped || key.rfind(group, 0) == 0;
            }
            BOOST_TEST(grouped);
            costs += key.rfind("cost.msg_", 0) == 0;
            // The full registry holds the same declaration.
            BOOST_TEST(sim::parameter_registry().at(key).default_value == spec.default_value);
        }
    }
    BOOST_TEST(costs >= 15);
    size_t count = 0;
    fw_param_decls(&count);
    BOOST_TEST(reg.all().size() == count);
    config::Config cfg(reg);
    BOOST_CHECK_NO_THROW(cfg.validate());
    // The derived costs say what they are derived from.
    BOOST_TEST(reg.at(FW_KEY_COST_MEMPUT_CALL).provenance.find("46-56") != std::string::npos);
    BOOST_TEST(reg.at(FW_KEY_COST_DEPOSIT_WORD).provenance.find("given") == 0u);
}

BOOST_AUTO_TEST_CASE(keys_read_by_the_firmware_from_other_components_are_registered) {
    const auto &reg = sim::parameter_registry();
    const std::pair<const char *, config::ParamType> keys[] = {
        {FW_KEY_WORKLOAD_SEED, config::ParamType::Int}, // read with hal_config_int
        {FW_KEY_DISK_SECTOR_BYTES, config::ParamType::Int},
        {FW_KEY_DISK_SECTORS_PER_TRACK, config::ParamType::Int},
        {FW_KEY_DISK_CYLINDERS, config::ParamType::Int},
        {FW_KEY_DISK_HEADS, config::ParamType::Int},
        {FW_KEY_MACHINE_CPU_MHZ, config::ParamType::Real}}; // hal_config_real
    for (const auto &[key, type] : keys) {
        BOOST_TEST_CONTEXT(key) {
            BOOST_TEST(fwtest::fw_registry().find(key) == nullptr);
            BOOST_REQUIRE(reg.find(key) != nullptr);
            BOOST_TEST((reg.at(key).type == type));
        }
    }
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
    e = validate_error("fs.block_bytes", 4000);
    BOOST_TEST(e.find("fs.block_bytes") != std::string::npos, e);
    BOOST_TEST(validate_error("fs.block_bytes", 4096).empty());
    // The firmware keeps at most FW_COMMTEST_MAX_SWEEP_SIZES sizes.
    std::string sizes = "1";
    for (unsigned i = 1; i < FW_COMMTEST_MAX_SWEEP_SIZES; ++i) {
        sizes += "," + std::to_string(i + 1);
    }
    BOOST_TEST(validate_error("commtest.sweep_words", sizes).empty());
    e = validate_error("commtest.sweep_words", sizes + ",7");
    BOOST_TEST(e.find("commtest.sweep_words") != std::string::npos, e);
    // Ranges the firmware used to re-check itself are the registry's now.
    config::Config cfg(fwtest::fw_registry());
    BOOST_CHECK_THROW(cfg.set("msg.server_threads", 0, "test"), config::ConfigError);
    BOOST_CHECK_THROW(cfg.set("cost.msg_memput_call_cycles", 100001, "test"), config::ConfigError);
    BOOST_CHECK_THROW(cfg.set("commtest.queued_max_bytes", 0, "test"), config::ConfigError);
}

BOOST_AUTO_TEST_CASE(stagger_is_a_boolean_that_still_accepts_0_and_1) {
    config::Config cfg(fwtest::fw_registry());
    const config::ParamSpec &spec = cfg.registry().at(FW_KEY_DDIO_STAGGER);
    BOOST_TEST((spec.type == config::ParamType::Bool));
    BOOST_TEST(!cfg.get_bool(keys::ddio_stagger));
    std::string warning = cerr_of([&] { cfg.set(FW_KEY_DDIO_STAGGER, 1, "old.json"); });
    BOOST_TEST(cfg.get_bool(keys::ddio_stagger));
    BOOST_TEST(warning.find("'ddio.stagger'") != std::string::npos, warning);
    BOOST_TEST(warning.find("old.json") != std::string::npos, warning);
    cerr_of([&] { cfg.set(FW_KEY_DDIO_STAGGER, 0, "old.json"); });
    BOOST_TEST(!cfg.get_bool(keys::ddio_stagger));
    BOOST_TEST(cerr_of([&] { cfg.set(FW_KEY_DDIO_STAGGER, true, "new.json"); }).empty());
    BOOST_TEST(cfg.get_bool(keys::ddio_stagger));
    BOOST_CHECK_THROW(cfg.set(FW_KEY_DDIO_STAGGER, 2, "test"), config::ConfigError);
    BOOST_CHECK_THROW(cfg.set(FW_KEY_DDIO_STAGGER, 1.5, "test"), config::ConfigError);
    // Its siblings never were integers.
    BOOST_CHECK_THROW(cfg.set(FW_KEY_DDIO_PREFETCH, 1, "test"), config::ConfigError);
}

BOOST_AUTO_TEST_CASE(the_fake_hal_starts_from_every_registered_default) {
    fwtest::FakeMachine fm;
    std::map<std::string, int64_t> seen;
    std::string pattern;
    fm.spawn(
        0,
        [&](hal_t *h) {
            for (const char *key :
                 {"cost.reg_read_cycles", "cost.irq_entry_cycles", "cost.mem_alloc_cycles",
                  FW_KEY_COST_MEMPUT_CALL, FW_KEY_FS_BLOCK_BYTES, FW_KEY_DISK_CYLINDERS,
                  FW_KEY_DDIO_STAGGER, "ni.tx_queue_depth"}) {
                seen[key] = hal_config_int(h, key);
            }
            pattern = hal_config_string(h, FW_KEY_WORKLOAD_PATTERN);
        },
        "reader");
    BOOST_REQUIRE(fm.run());
    const auto &reg = sim::parameter_registry();
    for (const auto &[key, value] : seen) {
        BOOST_TEST_CONTEXT(key) {
            const nlohmann::json &def = reg.at(key).default_value;
            BOOST_TEST(value == (def.is_boolean() ? int64_t(def.get<bool>()) : def.get<int64_t>()));
        }
    }
    BOOST_TEST(pattern == reg.at(FW_KEY_WORKLOAD_PATTERN).default_value.get<std::string>());
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
