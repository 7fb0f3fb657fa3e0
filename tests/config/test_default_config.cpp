// The shipped configuration: every parameter documented, the declared defaults are
// the docs/reference.md §2 machine, default.json repeats none of them, and every
// shipped file loads.
#include "fw/param_keys.h"
#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "hw/config/loader.h"
#include "hw/machine_keys.h"
#include "sim/cli/common.h"
#include "sim/parameters.h"

#include <boost/test/unit_test.hpp>

#include <dirent.h>

using namespace starfish;

BOOST_AUTO_TEST_SUITE(shipped_configuration)

BOOST_AUTO_TEST_CASE(every_parameter_has_meaning_provenance_and_a_valid_default) {
    const auto &reg = sim::parameter_registry();
    BOOST_TEST(reg.all().size() > 5u);
    for (const auto &[key, spec] : reg.all()) {
        BOOST_TEST_CONTEXT(key) {
            BOOST_TEST(!spec.meaning.empty());
            BOOST_TEST(!spec.provenance.empty());
            BOOST_TEST(key.find('.') != std::string::npos); // grouped: "group.name"
            if (spec.type == config::ParamType::Int || spec.type == config::ParamType::Real) {
                BOOST_TEST((spec.min.has_value() && spec.max.has_value()));
            }
        }
    }
    config::Config cfg(reg);
    cfg.validate();
}

BOOST_AUTO_TEST_CASE(the_defaults_describe_the_paper_machine) {
    sim::CommonOptions none;
    config::Config cfg = sim::load_config(none);
    BOOST_TEST(cfg.get_int(keys::machine_cp_count) == 16);
    BOOST_TEST(cfg.get_int(keys::machine_iop_count) == 16);
    BOOST_TEST(cfg.get_int(keys::machine_disks_per_iop) == 1);
    BOOST_TEST(cfg.get_int(keys::net_width) == 6);
    BOOST_TEST(cfg.get_int(keys::net_height) == 6);
    BOOST_TEST(cfg.get_real(keys::machine_cpu_mhz) == 50.0);
    BOOST_TEST(cfg.get_int(keys::fs_block_bytes) == 8192);
    BOOST_TEST(cfg.get_real(keys::workload_file_mb) == 10.0);
}

// A fact has one source: default.json (the base layer for site-wide changes,
// embedded in the binary) may change a declared default but not restate it.
BOOST_AUTO_TEST_CASE(default_json_repeats_no_declared_default) {
    const auto &reg = sim::parameter_registry();
    config::Config cfg(reg);
    config::apply_json_text(cfg, sim::default_config_text(), "default.json");
    for (const auto &[key, spec] : reg.all()) {
        if (cfg.source(key) == "default.json") {
            BOOST_TEST_CONTEXT(key) {
                BOOST_TEST(cfg.get(key) != spec.default_value,
                           "default.json sets " << key << " to its declared default");
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(every_shipped_config_file_loads_and_validates) {
    DIR *dir = ::opendir(sim::config_dir());
    BOOST_REQUIRE(dir != nullptr);
    int files = 0;
    while (dirent *e = ::readdir(dir)) {
        std::string name = e->d_name;
        if (name.size() < 5 || name.substr(name.size() - 5) != ".json") {
            continue;
        }
        BOOST_TEST_CONTEXT(name) {
            sim::CommonOptions opts;
            opts.config_files = {name};
            BOOST_CHECK_NO_THROW(sim::load_config(opts));
        }
        ++files;
    }
    ::closedir(dir);
    BOOST_TEST(files >= 2);
}

BOOST_AUTO_TEST_CASE(nodes_that_do_not_fit_the_torus_are_rejected) {
    sim::CommonOptions opts;
    opts.overrides = {"machine.cp_count=30", "machine.iop_count=10"};
    try {
        sim::load_config(opts);
        BOOST_FAIL("expected a configuration error");
    } catch (const config::ConfigError &e) {
        std::string what = e.what();
        BOOST_TEST(what.find("do not fit") != std::string::npos);
        BOOST_TEST(what.find("6x6") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(a_file_size_that_is_not_whole_bytes_names_the_nearest_ones) {
    sim::CommonOptions opts;
    opts.overrides = {"workload.file_mb=0.1"};
    try {
        sim::load_config(opts);
        BOOST_FAIL("expected a configuration error");
    } catch (const config::ConfigError &e) {
        std::string what = e.what();
        BOOST_TEST(what.find("0.1 is 104857.600000 bytes (MB = 2^20 bytes)") != std::string::npos,
                   what);
        // 104857 and 104858 bytes, as MB values that load again.
        BOOST_TEST(what.find("0.09999942779541016 MB (104857 bytes)") != std::string::npos, what);
        BOOST_TEST(what.find("(104858 bytes)") != std::string::npos, what);
    }
    opts.overrides = {"workload.file_mb=0.09999942779541016", "workload.record_bytes=1"};
    BOOST_CHECK_NO_THROW(sim::load_config(opts));
}

BOOST_AUTO_TEST_SUITE_END()
