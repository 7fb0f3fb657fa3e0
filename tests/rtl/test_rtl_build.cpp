// Whether the build has the RTL engines (rtl/wrappers/rtl_build.h): this build says
// what CMake built, a build without them tells the user why and which command adds
// them, and a configuration that asks for them there is refused when it is loaded.
#include "rtl/wrappers/rtl_build.h"

#include "hw/config/config_error.h"
#include "sim/parameters.h"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace starfish::rtl;
using starfish::config::Config;
using starfish::config::ConfigError;

namespace {
bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}
} // namespace

BOOST_AUTO_TEST_SUITE(rtl_build_kind)

// STARFISH_TEST_RTL_ENGINES: whether tests/CMakeLists.txt saw the engines' targets.
BOOST_AUTO_TEST_CASE(this_build_reports_what_cmake_built) {
    BOOST_TEST((rtl_build() == RtlBuild::Included) == (STARFISH_TEST_RTL_ENGINES != 0));
}

// Each kind of build without the engines: the message starts with the setting,
// says why, and names the command that adds them.
BOOST_AUTO_TEST_CASE(a_build_without_them_says_why_and_names_the_command_that_adds_them) {
    struct Case {
        RtlBuild build;
        const char *setting;
        std::vector<std::string> parts;
    };
    const std::string add = "`bash scripts/build.sh -DSTARFISH_RTL=ON`";
    const Case cases[] = {
        {RtlBuild::ConfiguredOff,
         "ni.model = rtl",
         {"-DSTARFISH_RTL=OFF", "scripts/run-default.sh", add}},
        {RtlBuild::NoVerilator,
         "net.model = rtl",
         {"Verilator was not found", "scripts/install-deps.sh", add}},
    };
    for (const Case &c : cases) {
        const std::string m = rtl_missing_message(c.setting, c.build);
        BOOST_TEST(m.rfind(std::string(c.setting) + ": ", 0) == 0u, m);
        for (const std::string &part : c.parts) {
            BOOST_TEST(contains(m, part), m);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_configuration_asking_for_a_missing_engine_is_refused_with_that_message) {
    for (const char *key : {"net.model", "ni.model"}) {
        Config cfg(starfish::sim::parameter_registry());
        cfg.set(key, "rtl", "test");
        const std::string setting = std::string(key) + " = rtl";
        for (RtlBuild build : {RtlBuild::ConfiguredOff, RtlBuild::NoVerilator}) {
            try {
                require_rtl_engines(cfg, build);
                BOOST_FAIL(setting + " accepted by a build without the RTL engines");
            } catch (const ConfigError &e) {
                BOOST_TEST(e.what() == rtl_missing_message(setting, build));
            }
        }
        BOOST_CHECK_NO_THROW(require_rtl_engines(cfg, RtlBuild::Included));
    }
    const Config tlm(starfish::sim::parameter_registry()); // packet network, TLM NI
    BOOST_CHECK_NO_THROW(require_rtl_engines(tlm, RtlBuild::ConfiguredOff));
}

BOOST_AUTO_TEST_SUITE_END()
