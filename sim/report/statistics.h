#pragma once
// Summary statistics over trials (docs/reference.md §9): mean, coefficient of variation and
// the 95% confidence interval of the mean (Student's t), and the ratio of two
// means with its 95% interval for comparisons between file systems.

#include <vector>

namespace starfish::sim {

struct Summary {
    int n = 0;
    double mean = 0;
    double stddev = 0;   // sample standard deviation (n - 1)
    double cv = 0;       // stddev / mean
    double ci95_low = 0; // mean ± t(0.975, n-1) * stddev / sqrt(n)
    double ci95_high = 0;
    double min = 0;
    double max = 0;
};

Summary summarize(const std::vector<double> &values);

// Two-sided 97.5% quantile of Student's t distribution with `dof` degrees of
// freedom (exact table for 1..30, normal approximation with correction beyond).
double student_t975(int dof);

struct Ratio {
    double ratio = 0; // mean(a) / mean(b)
    double ci95_low = 0;
    double ci95_high = 0;
    bool significant = false; // the interval excludes 1
};

// Ratio of means with a 95% interval by Fieller's method for independent
// samples (falls back to an unbounded interval when mean(b) is not
// significantly different from 0).
Ratio ratio_of_means(const std::vector<double> &a, const std::vector<double> &b);

} // namespace starfish::sim
