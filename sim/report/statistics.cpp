#include "sim/report/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace starfish::sim {

double student_t975(int dof) {
    static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                   2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                   2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                   2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (dof < 1) {
        return std::numeric_limits<double>::infinity();
    }
    if (dof <= 30) {
        return table[dof];
    }
    // Cornish-Fisher expansion around the normal quantile.
    const double z = 1.959964;
    double n = dof;
    return z + (z * z * z + z) / (4 * n) +
           (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

Summary summarize(const std::vector<double> &values) {
    Summary s;
    s.n = static_cast<int>(values.size());
    if (values.empty()) {
        return s;
    }
    double sum = 0;
    for (double v : values) {
        sum += v;
    }
    s.mean = sum / s.n;
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    if (s.n > 1) {
        double ss = 0;
        for (double v : values) {
            ss += (v - s.mean) * (v - s.mean);
        }
        s.stddev = std::sqrt(ss / (s.n - 1));
    }
    s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
    double half = s.n > 1 ? student_t975(s.n - 1) * s.stddev / std::sqrt(double(s.n)) : 0;
    s.ci95_low = s.mean - half;
    s.ci95_high = s.mean + half;
    return s;
}

Ratio ratio_of_means(const std::vector<double> &a, const std::vector<double> &b) {
    Summary sa = summarize(a), sb = summarize(b);
    if (sa.n < 1 || sb.n < 1 || sb.mean == 0) {
        throw std::invalid_argument(
            "ratio_of_means needs non-empty samples and a non-zero divisor");
    }
    Ratio r;
    r.ratio = sa.mean / sb.mean;
    // Fieller: find q with (ma - q mb)^2 <= t^2 (va + q^2 vb), va/vb the variances
    // of the means; degrees of freedom by the smaller sample (conservative).
    double va = sa.n > 1 ? sa.stddev * sa.stddev / sa.n : 0;
    double vb = sb.n > 1 ? sb.stddev * sb.stddev / sb.n : 0;
    int dof = std::max(1, std::min(sa.n, sb.n) - 1);
    double t = (sa.n > 1 || sb.n > 1) ? student_t975(dof) : 0;
    double t2 = t * t;
    double A = sb.mean * sb.mean - t2 * vb;
    double B = -2 * sa.mean * sb.mean;
    double C = sa.mean * sa.mean - t2 * va;
    if (A <= 0) {
        r.ci95_low = -std::numeric_limits<double>::infinity();
        r.ci95_high = std::numeric_limits<double>::infinity();
        r.significant = false;
        return r;
    }
    double disc = std::max(0.0, B * B - 4 * A * C);
    r.ci95_low = (-B - std::sqrt(disc)) / (2 * A);
    r.ci95_high = (-B + std::sqrt(disc)) / (2 * A);
    r.significant = r.ci95_low > 1.0 || r.ci95_high < 1.0;
    return r;
}

} // namespace starfish::sim
