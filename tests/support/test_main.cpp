// Entry point of the test executables that do not use SystemC.
#define BOOST_TEST_MODULE starfish
#include <boost/test/unit_test.hpp>
