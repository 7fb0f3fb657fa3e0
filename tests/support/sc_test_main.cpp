// Entry point of SystemC bench executables: sc_main hands over to Boost.Test.
#include <boost/test/unit_test.hpp>
#include <systemc>

#include <cstdlib>

namespace {
bool init_unit_test() {
    boost::unit_test::framework::master_test_suite().p_name.value = "starfish";
    return true;
}
} // namespace

// The SystemC banner is printed before sc_main runs, so it is switched off by a
// static initialiser.
static const int kNoBanner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);

int sc_main(int argc, char *argv[]) {
    return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}
