// Configuration files and overrides: overlay order and error messages.
#include "hw/config/config_error.h"
#include "hw/config/input_file.h"
#include "hw/config/json_text.h"
#include "hw/config/loader.h"
#include "tests/support/starfish_cli.h"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace starfish::config;
using nlohmann::json;
using starfish::testing::contains;

namespace {
// This test's own registry: a few keys spelt like the simulator's.
const IntKey cp_count{"machine.cp_count"};
const IntKey iop_count{"machine.iop_count"};
const RealKey rpm{"disk.rpm"};
const BoolKey presort{"fs.presort"};

Registry sample_registry() {
    Registry reg;
    reg.add_int(cp_count, 16, "nodes", {1, 4096}, "CPs", "given");
    reg.add_int(iop_count, 16, "nodes", {1, 4096}, "IOPs", "given");
    reg.add_real(rpm, 4002, "RPM", {100, 20000}, "spindle speed", "given");
    reg.add_bool(presort, true, "sort", "given");
    return reg;
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const ConfigError &e) {
        return e.what();
    }
    return "";
}

struct TempFile {
    std::string path;
    explicit TempFile(const std::string &text) {
        char name[] = "/tmp/starfish_cfg_XXXXXX";
        int fd = ::mkstemp(name);
        ::close(fd);
        path = name;
        std::ofstream(path) << text;
    }
    ~TempFile() { std::remove(path.c_str()); }
};
} // namespace

BOOST_AUTO_TEST_SUITE(loader)

BOOST_AUTO_TEST_CASE(nested_and_dotted_keys_are_equivalent) {
    Registry reg = sample_registry();
    Config a(reg), b(reg);
    apply_json_text(a, R"({"machine": {"cp_count": 8}, "disk": {"rpm": 5400}})", "a");
    apply_json_text(b, R"({"machine.cp_count": 8, "disk.rpm": 5400})", "b");
    BOOST_TEST(a.to_flat_json() == b.to_flat_json());
    BOOST_TEST(a.get_int(cp_count) == 8);
}

BOOST_AUTO_TEST_CASE(later_layers_override_earlier_ones) {
    Registry reg = sample_registry();
    Config cfg(reg);
    TempFile base(R"({"machine": {"cp_count": 8, "iop_count": 4}, "disk": {"rpm": 5000}})");
    TempFile over(R"({"machine": {"cp_count": 2}})");
    apply_file(cfg, base.path);
    apply_file(cfg, over.path);
    apply_override(cfg, "disk.rpm=7200");
    apply_override(cfg, "disk.rpm=7201");
    BOOST_TEST(cfg.get_int(cp_count) == 2);  // second file wins
    BOOST_TEST(cfg.get_int(iop_count) == 4); // first file survives
    BOOST_TEST(cfg.get_real(rpm) == 7201.0); // last --set wins over files
    BOOST_TEST(cfg.get_bool(presort));       // default survives
    BOOST_TEST(cfg.source("machine.cp_count") == over.path);
    BOOST_TEST(cfg.source("disk.rpm") == "--set disk.rpm");
    BOOST_TEST(cfg.source("fs.presort") == "default");
}

BOOST_AUTO_TEST_CASE(malformed_json_names_file_line_and_column) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e = error_of([&] {
        apply_json_text(cfg, "{\n  \"machine\": {\n    \"cp_count\": 8,\n  }\n}", "f.json");
    });
    BOOST_TEST(contains(e, "f.json:4:"));
    BOOST_TEST(contains(e, "malformed JSON"));
    e = error_of([&] { apply_json_text(cfg, "[1, 2]", "g.json"); });
    BOOST_TEST(contains(e, "g.json"));
    BOOST_TEST(contains(e, "JSON object"));
    e = error_of([&] { apply_json_text(cfg, "", "empty.json"); });
    BOOST_TEST(contains(e, "empty.json:"));
}

BOOST_AUTO_TEST_CASE(file_errors_name_the_file_and_key) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e =
        error_of([&] { apply_json_text(cfg, R"({"machine": {"cpcount": 8}})", "x.json"); });
    BOOST_TEST(contains(e, "x.json"));
    BOOST_TEST(contains(e, "'machine.cpcount'"));
    BOOST_TEST(contains(e, "did you mean 'machine.cp_count'"));
    e = error_of([&] { apply_json_text(cfg, R"({"disk": {"rpm": "fast"}})", "y.json"); });
    BOOST_TEST(contains(e, "'disk.rpm'"));
    BOOST_TEST(contains(e, "y.json"));
    e = error_of([&] { apply_json_text(cfg, R"({"machine": {"cp_count": 0}})", "z.json"); });
    BOOST_TEST(contains(e, "[1, 4096]"));
    BOOST_TEST(contains(error_of([&] { apply_file(cfg, "/nonexistent/file.json"); }),
                        "/nonexistent/file.json"));
}

BOOST_AUTO_TEST_CASE(a_failed_layer_reports_before_any_run) {
    Registry reg = sample_registry();
    Config cfg(reg);
    BOOST_TEST(contains(error_of([&] { apply_override(cfg, "machine.cp_count"); }), "key=value"));
    BOOST_TEST(contains(error_of([&] { apply_override(cfg, "=3"); }), "key=value"));
    BOOST_TEST(contains(error_of([&] { apply_override(cfg, "machine.cp_count=lots"); }),
                        "machine.cp_count"));
}

BOOST_AUTO_TEST_CASE(number_overflow_nesting_and_bad_bytes_name_file_and_line) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e =
        error_of([&] { apply_json_text(cfg, "{\n  \"disk\": {\"rpm\": 9e999}\n}", "o.json"); });
    BOOST_TEST(contains(e, "o.json:2:"), e);
    BOOST_TEST(contains(e, "9e999"), e);
    std::string deep = "{\"a\":" + std::string(kMaxJsonDepth + 5, '[') + "1" +
                       std::string(kMaxJsonDepth + 5, ']') + "}";
    e = error_of([&] { apply_json_text(cfg, deep, "d.json"); });
    BOOST_TEST(contains(e, "d.json:1:"), e);
    BOOST_TEST(contains(e, "nested more than"), e);
    // A million levels: no stack overflow, the same error.
    e = error_of([&] { apply_json_text(cfg, std::string(1000000, '['), "deep.json"); });
    BOOST_TEST(contains(e, "deep.json:1:"), e);
    e = error_of([&] { apply_json_text(cfg, "{\"disk.rpm\": \"\xff\xfe\"}", "u.json"); });
    BOOST_TEST(contains(e, "u.json:1:"), e);
    BOOST_TEST(is_valid_utf8(e), e);
    e = error_of([&] { apply_json_text(cfg, "{\"\xc3\x28\": 1}", "k.json"); });
    BOOST_TEST(contains(e, "k.json:1:"), e);
    // An integer beyond long long does not wrap around.
    e = error_of(
        [&] { apply_json_text(cfg, R"({"machine.cp_count": 18446744073709551615})", "i.json"); });
    BOOST_TEST(contains(e, "'machine.cp_count'"), e);
    e = error_of([&] { apply_json_text(cfg, R"({"machine.cp_count": 1e300})", "i.json"); });
    BOOST_TEST(contains(e, "out of range"), e);
}

BOOST_AUTO_TEST_CASE(overrides_reject_non_finite_numbers_and_bad_bytes) {
    Registry reg = sample_registry();
    Config cfg(reg);
    for (const char *text : {"disk.rpm=9e999", "disk.rpm=inf", "disk.rpm=nan", "disk.rpm=-1e400",
                             "machine.cp_count=9e999", "machine.cp_count=99999999999999999999"}) {
        std::string e = error_of([&] { apply_override(cfg, text); });
        BOOST_TEST_CONTEXT(text) {
            BOOST_TEST((contains(e, "'disk.rpm'") || contains(e, "'machine.cp_count'")), e);
        }
    }
    std::string e = error_of([&] { apply_override(cfg, std::string("disk.r\xffpm=1")); });
    BOOST_TEST(contains(e, "disk.r\\xffpm"), e);
    BOOST_TEST(is_valid_utf8(e));
    BOOST_TEST(cfg.get_real(rpm) == 4002.0); // nothing changed
}

BOOST_AUTO_TEST_CASE(printable_escapes_what_a_terminal_should_not_see) {
    BOOST_TEST(printable("plain") == "plain");
    BOOST_TEST(printable("a\x01"
                         "b\xff"
                         "c") == "a\\x01b\\xffc");
    BOOST_TEST(printable("caf\xc3\xa9") == "caf\xc3\xa9");
    BOOST_TEST(printable(std::string(500, 'x'), size_t{10}) == "xxxxxxxxxx...");
    BOOST_TEST(!is_valid_utf8("\xed\xa0\x80")); // a surrogate
    BOOST_TEST(!is_valid_utf8("\xc0\xaf"));     // overlong
    BOOST_TEST(is_valid_utf8("\xf0\x9f\x90\x9f"));
    BOOST_TEST(line_column("ab\ncd", 4) == "2:2");
    BOOST_TEST(exact_number_text(1048576) == "1048576");
    BOOST_TEST(exact_number_text(0.1) == "0.1");
    BOOST_TEST(exact_number_text(104857.0 / 1048576.0) == "0.09999942779541016");
    BOOST_TEST(exact_number_text(-2.5) == "-2.5");
}

BOOST_AUTO_TEST_CASE(config_names_resolve_in_the_config_directory) {
    TempFile f("{}");
    BOOST_TEST(resolve_config_path(f.path, "/nowhere") == f.path);
    std::string dir = f.path.substr(0, f.path.rfind('/'));
    std::string base = f.path.substr(f.path.rfind('/') + 1);
    BOOST_TEST(resolve_config_path(base, dir) == dir + "/" + base);
    BOOST_CHECK_THROW(resolve_config_path("no-such-config", dir), ConfigError);
    // Something that is there but is no regular file is named as what it is.
    BOOST_TEST(contains(error_of([&] { resolve_config_path(dir, "/nowhere"); }), "is a directory"));
    BOOST_TEST(contains(error_of([&] { resolve_config_path("/dev/null", "/nowhere"); }),
                        "is a character device"));
}

BOOST_AUTO_TEST_CASE(a_key_given_twice_is_an_error_with_its_place) {
    Registry reg = sample_registry();
    Config cfg(reg);
    std::string e = error_of(
        [&] { apply_json_text(cfg, "{\"machine\": {\"cp_count\": 8,\n  \"cp_count\": 4}}", "f"); });
    BOOST_TEST(contains(e, "f:2:3: key 'cp_count' appears twice"), e);
    // A string value that looks like the key is not a key.
    BOOST_TEST(error_of([&] {
                   apply_json_text(cfg, R"({"machine.cp_count": 2, "disk.rpm": 5000})", "g");
               }).empty());
    e = error_of(
        [&] { apply_json_text(cfg, R"({"disk": {"rpm": 5000}, "disk.rpm": 5400})", "h"); });
    BOOST_TEST(contains(e, "h: key 'disk.rpm' is given twice (nested and dotted)"), e);
}

BOOST_AUTO_TEST_CASE(input_files_must_be_regular_files) {
    TempFile f("{\"machine.cp_count\": 2}");
    InputFile in = read_regular_file(f.path, 1 << 20);
    BOOST_TEST(in.ok);
    BOOST_TEST(in.text == "{\"machine.cp_count\": 2}");
    BOOST_TEST(read_regular_file(f.path, 4).problem == "is 23 bytes, more than the 4 allowed");
    BOOST_TEST(read_regular_file("/dev/zero", 1 << 20).problem ==
               "is a character device, not a regular file");
    BOOST_TEST(read_regular_file("/tmp", 1 << 20).problem == "is a directory, not a regular file");
    BOOST_TEST(read_regular_file("/no/such/file", 1 << 20).problem == "does not exist");
    BOOST_TEST(regular_file_problem(f.path).empty());
}

BOOST_AUTO_TEST_SUITE_END()
