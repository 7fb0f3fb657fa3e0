// The parameter registry and typed values: declaration, type and range checks.
#include "hw/config/config.h"
#include "hw/config/config_error.h"
#include "hw/config/registry.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

using namespace starfish::config;
using nlohmann::json;
using starfish::testing::contains;

namespace {
// This test's own registry: keys spelt like the simulator's, and one of its own.
const IntKey cylinders{"disk.cylinders"};
const RealKey rpm{"disk.rpm"};
const BoolKey presort{"fs.presort"};
const StringKey fs_kind{"fs.kind"};
const StringKey label{"out.label"};

Registry sample_registry() {
    Registry reg;
    reg.add_int(cylinders, 1962, "cylinders", {1, 100000}, "cylinders per disk", "given");
    reg.add_real(rpm, 4002, "RPM", {100, 20000}, "spindle speed", "given");
    reg.add_bool(presort, true, "sort the block list", "given");
    reg.add_string(fs_kind, "ddio", {"ddio", "spfs"}, "file system", "given");
    reg.add_string(label, "x", {}, "free text", "convention");
    return reg;
}

// Whether cfg.get_int(key) and the other getters compile for a key of type K.
template <typename K, typename = void> struct reads_int : std::false_type {};
template <typename K>
struct reads_int<K, std::void_t<decltype(std::declval<Config>().get_int(std::declval<K>()))>>
    : std::true_type {};
template <typename K, typename = void> struct reads_real : std::false_type {};
template <typename K>
struct reads_real<K, std::void_t<decltype(std::declval<Config>().get_real(std::declval<K>()))>>
    : std::true_type {};
template <typename K, typename = void> struct declares_int : std::false_type {};
template <typename K>
struct declares_int<K, std::void_t<decltype(std::declval<Registry>().add_int(
                           std::declval<K>(), 1, "", {0, 1}, "", ""))>> : std::true_type {};

template <typename F> std::string error_of(F f) {
    try {
        f();
    } catch (const ConfigError &e) {
        return e.what();
    }
    return "";
}
} // namespace

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(defaults_are_the_initial_values) {
    Registry reg = sample_registry();
    Config cfg(reg);
    BOOST_TEST(cfg.get_int(cylinders) == 1962);
    BOOST_TEST(cfg.get_real(rpm) == 4002.0);
    BOOST_TEST(cfg.get_bool(presort));
    BOOST_TEST(cfg.get_string(fs_kind) == "ddio");
    BOOST_TEST(cfg.source("disk.rpm") == "default");
}

// A key is read and declared as its own type only: the wrong type, or a bare
// string, does not compile; an Int read as a number is converted at the site.
static_assert(reads_int<IntKey>::value && !reads_int<RealKey>::value);
static_assert(!reads_int<const char *>::value && !reads_int<std::string>::value);
static_assert(reads_real<RealKey>::value && !reads_real<IntKey>::value);
static_assert(declares_int<IntKey>::value && !declares_int<BoolKey>::value);
static_assert(!declares_int<const char *>::value);

BOOST_AUTO_TEST_CASE(typed_keys_read_and_set_their_own_type) {
    Registry reg = sample_registry();
    Config cfg(reg);
    BOOST_TEST(static_cast<double>(cfg.get_int(cylinders)) == 1962.0);
    cfg.set(cylinders, 100, "t");
    cfg.set(rpm, 5400.5, "t");
    cfg.set(presort, false, "t");
    cfg.set(fs_kind, "spfs", "t");
    BOOST_TEST(cfg.get_int(cylinders) == 100);
    BOOST_TEST(cfg.get_real(rpm) == 5400.5);
    BOOST_TEST(!cfg.get_bool(presort));
    BOOST_TEST(cfg.get_string(fs_kind) == "spfs");
    BOOST_TEST(cfg.source("disk.rpm") == "t");
    // Still range-checked.
    BOOST_CHECK_THROW(cfg.set(rpm, 50.0, "t"), ConfigError);
    BOOST_CHECK_THROW(cfg.set(fs_kind, "zfs", "t"), ConfigError);
    // A key built from a name known only at run time (the firmware HAL's) is
    // checked when read: unknown, or of another type than registered.
    BOOST_CHECK_THROW(cfg.get_int(IntKey{"disk.cylindres"}), ConfigError);
    BOOST_CHECK_THROW(cfg.get_real(RealKey{"disk.cylinders"}), std::logic_error);
    BOOST_CHECK_THROW(cfg.get_string(StringKey{"fs.presort"}), std::logic_error);
}

BOOST_AUTO_TEST_CASE(declaring_a_bad_default_or_a_duplicate_is_a_programming_error) {
    Registry reg = sample_registry();
    BOOST_CHECK_THROW(reg.add_int(cylinders, 1, "", {1, 2}, "again", "x"), std::logic_error);
    BOOST_CHECK_THROW(reg.add_int(IntKey{"x.bad"}, 5, "", {1, 2}, "out of its own range", "x"),
                      ConfigError);
}

BOOST_AUTO_TEST_CASE(wrong_types_are_rejected_naming_the_key) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e = error_of([&] { cfg.set("disk.cylinders", json("many"), "t"); });
    BOOST_TEST(contains(e, "'disk.cylinders'"));
    BOOST_TEST(contains(e, "integer"));
    BOOST_TEST(
        contains(error_of([&] { cfg.set("disk.cylinders", json(3.5), "t"); }), "disk.cylinders"));
    BOOST_TEST(contains(error_of([&] { cfg.set("fs.presort", json(1), "t"); }), "boolean"));
    BOOST_TEST(contains(error_of([&] { cfg.set("disk.rpm", json(true), "t"); }), "disk.rpm"));
    BOOST_TEST(contains(error_of([&] { cfg.set("fs.kind", json(3), "t"); }), "fs.kind"));
    // A whole number written as 3.0 is still a valid integer.
    cfg.set("disk.cylinders", json(3.0), "t");
    BOOST_TEST(cfg.get_int(cylinders) == 3);
}

BOOST_AUTO_TEST_CASE(out_of_range_values_name_key_and_range) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e = error_of([&] { cfg.set("disk.rpm", json(50), "--set disk.rpm"); });
    BOOST_TEST(contains(e, "'disk.rpm'"));
    BOOST_TEST(contains(e, "[100, 20000]"));
    BOOST_TEST(contains(e, "--set disk.rpm"));
    e = error_of([&] { cfg.set("fs.kind", json("zfs"), "t"); });
    BOOST_TEST(contains(e, "one of ddio|spfs"));
    // Ranges are printed with every digit they have.
    Registry wide;
    wide.add_real(RealKey{"workload.file_mb"}, 10, "MB", {0.0001, 1048576}, "file size", "given");
    wide.add_real(RealKey{"x.fraction"}, 0.25, "", {0.125, 1.0 / 3.0}, "a fraction", "given");
    BOOST_TEST(wide.at("workload.file_mb").allowed_text() == "[0.0001, 1048576]");
    BOOST_TEST(wide.at("x.fraction").allowed_text() == "[0.125, 0.3333333333333333]");
    // The bounds themselves are allowed.
    cfg.set("disk.rpm", json(100), "t");
    cfg.set("disk.rpm", json(20000), "t");
    BOOST_TEST(cfg.get_real(rpm) == 20000.0);
}

BOOST_AUTO_TEST_CASE(unknown_keys_are_errors_with_a_hint) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e = error_of([&] { cfg.set("disk.rmp", json(1), "t"); });
    BOOST_TEST(contains(e, "unknown configuration key 'disk.rmp'"));
    BOOST_TEST(contains(e, "did you mean 'disk.rpm'"));
    e = error_of([&] { cfg.set("zzzzzzzzzzzzzzzzzz", json(1), "t"); });
    BOOST_TEST(!contains(e, "did you mean"));
}

BOOST_AUTO_TEST_CASE(text_values_parse_by_type) {
    Registry reg = sample_registry();
    Config cfg(reg);
    cfg.set_from_text("disk.cylinders", "100", "t");
    BOOST_TEST(cfg.get_int(cylinders) == 100);
    cfg.set_from_text("disk.cylinders", "1e3", "t");
    BOOST_TEST(cfg.get_int(cylinders) == 1000);
    BOOST_CHECK_THROW(cfg.set_from_text("disk.cylinders", "2.5", "t"), ConfigError);
    BOOST_CHECK_THROW(cfg.set_from_text("disk.cylinders", "12abc", "t"), ConfigError);
    BOOST_CHECK_THROW(cfg.set_from_text("disk.cylinders", "", "t"), ConfigError);
    cfg.set_from_text("disk.rpm", "5400.5", "t");
    BOOST_TEST(cfg.get_real(rpm) == 5400.5);
    // Plain decimal only: strtod would also take blanks before and hexadecimal.
    for (const char *bad : {"0x10", " 5", "5 ", "\t5", "0x1p3", "1e", ".", "+"}) {
        BOOST_CHECK_THROW(cfg.set_from_text("disk.cylinders", bad, "t"), ConfigError);
        BOOST_CHECK_THROW(cfg.set_from_text("disk.rpm", bad, "t"), ConfigError);
    }
    for (const char *good : {"+5000", "5000.", "5e3", "5E+3", "0.5e4"}) {
        cfg.set_from_text("disk.rpm", good, "t");
        BOOST_TEST(cfg.get_real(rpm) == 5000.0);
    }
    for (const char *t : {"false", "0", "no", "off"}) {
        cfg.set_from_text("fs.presort", "true", "t");
        cfg.set_from_text("fs.presort", t, "t");
        BOOST_TEST(!cfg.get_bool(presort));
    }
    BOOST_CHECK_THROW(cfg.set_from_text("fs.presort", "maybe", "t"), ConfigError);
    cfg.set_from_text("out.label", "any words at all", "t");
    BOOST_TEST(cfg.get_string(label) == "any words at all");
}

BOOST_AUTO_TEST_CASE(cross_checks_report_every_failure) {
    Registry reg = sample_registry();
    reg.add_check([](const Config &c) {
        return c.get_int(cylinders) > 5000 ? std::string("too many cylinders") : "";
    });
    reg.add_check([](const Config &c) {
        return c.get_string(fs_kind) == "spfs" ? std::string("spfs not built") : "";
    });
    Config cfg(reg);
    cfg.validate();
    cfg.set("disk.cylinders", json(6000), "t");
    cfg.set("fs.kind", json("spfs"), "t");
    std::string e = error_of([&] { cfg.validate(); });
    BOOST_TEST(contains(e, "too many cylinders"));
    BOOST_TEST(contains(e, "spfs not built"));
}

BOOST_AUTO_TEST_CASE(flat_and_nested_views) {
    Registry reg = sample_registry();
    Config cfg(reg);
    json flat = cfg.to_flat_json();
    BOOST_TEST(flat.size() == reg.all().size());
    BOOST_TEST(flat["disk.rpm"].get<double>() == 4002.0);
    json nested = cfg.to_nested_json();
    BOOST_TEST(nested["disk"]["cylinders"].get<int>() == 1962);
    BOOST_TEST(nested["fs"]["kind"].get<std::string>() == "ddio");
}

BOOST_AUTO_TEST_SUITE_END()
