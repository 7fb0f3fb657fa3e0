// Forked trial processes: results come back in order, failures are reported.
#include "sim/runner/isolated_run.h"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

using namespace starfish::sim;
using nlohmann::json;

BOOST_AUTO_TEST_SUITE(isolated_run)

BOOST_AUTO_TEST_CASE(child_result_returns_to_parent) {
    int parent_pid = ::getpid();
    json r = run_isolated([] { return json{{"pid", ::getpid()}, {"value", 42}}; });
    BOOST_TEST(r["value"].get<int>() == 42);
    BOOST_TEST(r["pid"].get<int>() != parent_pid);
}

BOOST_AUTO_TEST_CASE(child_state_does_not_leak_into_the_parent) {
    static int counter = 0;
    run_isolated([] {
        counter = 99;
        return json();
    });
    BOOST_TEST(counter == 0);
}

BOOST_AUTO_TEST_CASE(exceptions_and_crashes_are_reported) {
    try {
        run_isolated([]() -> json { throw std::runtime_error("data mismatch at byte 7"); });
        BOOST_FAIL("no error");
    } catch (const IsolatedRunError &e) {
        BOOST_TEST(std::string(e.what()) == "data mismatch at byte 7");
    }
    try {
        run_isolated([]() -> json { std::abort(); });
        BOOST_FAIL("no error");
    } catch (const IsolatedRunError &e) {
        BOOST_TEST(std::string(e.what()).find("signal") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(parallel_jobs_keep_their_order_and_report_progress) {
    std::vector<IsolatedJob> jobs;
    for (int i = 0; i < 7; ++i) {
        jobs.push_back([i] {
            ::usleep(static_cast<useconds_t>((7 - i) * 2000)); // finish out of order
            return json(i * i);
        });
    }
    std::vector<size_t> done;
    auto results = run_isolated_all(jobs, 3, [&](size_t i, const json &) { done.push_back(i); });
    BOOST_REQUIRE(results.size() == 7u);
    for (int i = 0; i < 7; ++i) {
        BOOST_TEST(results[i].get<int>() == i * i);
    }
    BOOST_TEST(done.size() == 7u);
}

BOOST_AUTO_TEST_CASE(large_results_pass_through_the_pipe) {
    json r = run_isolated([] {
        json a = json::array();
        for (int i = 0; i < 100000; ++i) {
            a.push_back(i);
        }
        return a;
    });
    BOOST_TEST(r.size() == 100000u);
    BOOST_TEST(r[99999].get<int>() == 99999);
}

BOOST_AUTO_TEST_SUITE_END()
