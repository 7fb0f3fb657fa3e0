// Trial statistics: mean, CV, Student-t interval, ratio of means (Fieller).
#include "sim/report/statistics.h"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace starfish::sim;

BOOST_AUTO_TEST_SUITE(statistics)

BOOST_AUTO_TEST_CASE(summary_of_five_trials) {
    // mean 3, sample variance 2.5, stddev 1.5811; t(0.975, 4) = 2.776.
    Summary s = summarize({1, 2, 3, 4, 5});
    BOOST_TEST(s.n == 5);
    BOOST_TEST(s.mean == 3.0);
    BOOST_TEST(s.stddev == std::sqrt(2.5), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(s.cv == std::sqrt(2.5) / 3, boost::test_tools::tolerance(1e-12));
    double half = 2.776 * std::sqrt(2.5) / std::sqrt(5.0);
    BOOST_TEST(s.ci95_low == 3 - half, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(s.ci95_high == 3 + half, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(s.min == 1.0);
    BOOST_TEST(s.max == 5.0);
}

BOOST_AUTO_TEST_CASE(one_trial_has_no_spread) {
    Summary s = summarize({7.5});
    BOOST_TEST(s.mean == 7.5);
    BOOST_TEST(s.stddev == 0.0);
    BOOST_TEST(s.ci95_low == 7.5);
    BOOST_TEST(s.ci95_high == 7.5);
    BOOST_TEST(summarize({}).n == 0);
}

BOOST_AUTO_TEST_CASE(t_quantiles) {
    BOOST_TEST(student_t975(1) == 12.706);
    BOOST_TEST(student_t975(4) == 2.776);
    BOOST_TEST(student_t975(30) == 2.042);
    BOOST_TEST(student_t975(60) == 2.000, boost::test_tools::tolerance(0.002));
    BOOST_TEST(student_t975(1000) == 1.962, boost::test_tools::tolerance(0.001));
}

BOOST_AUTO_TEST_CASE(ratio_interval_and_significance) {
    Ratio same = ratio_of_means({10, 11, 9, 10, 10}, {10, 9, 11, 10, 10});
    BOOST_TEST(same.ratio == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(same.ci95_low < 1.0);
    BOOST_TEST(same.ci95_high > 1.0);
    BOOST_TEST(!same.significant);

    Ratio faster = ratio_of_means({31.0, 31.2, 31.4, 31.1, 31.3}, {15.0, 15.2, 15.1, 15.3, 14.9});
    BOOST_TEST(faster.ratio == 31.2 / 15.1, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(faster.ci95_low > 1.9);
    BOOST_TEST(faster.ci95_high < 2.25);
    BOOST_TEST(faster.ci95_low < faster.ratio);
    BOOST_TEST(faster.ci95_high > faster.ratio);
    BOOST_TEST(faster.significant);

    // Exact samples: the interval collapses to the ratio.
    Ratio exact = ratio_of_means({4, 4, 4}, {2, 2, 2});
    BOOST_TEST(exact.ci95_low == 2.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(exact.ci95_high == 2.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
