#include "sim/report/demerit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace starfish::sim {

double demerit(std::vector<double> a, std::vector<double> b) {
    if (a.empty() || b.empty()) {
        throw std::invalid_argument("demerit of an empty distribution");
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    // Both quantile functions are step functions of p: a[i] on (i/na, (i+1)/na].
    // Walk the merged breakpoints and integrate the squared difference exactly.
    const uint64_t na = a.size(), nb = b.size();
    uint64_t i = 0, j = 0;
    double p = 0, sum = 0;
    while (i < na && j < nb) {
        // Next breakpoint: (i+1)/na or (j+1)/nb, compared in integers.
        bool a_first = (i + 1) * nb <= (j + 1) * na;
        double next = a_first ? static_cast<double>(i + 1) / na : static_cast<double>(j + 1) / nb;
        double d = a[i] - b[j];
        sum += (next - p) * d * d;
        p = next;
        if ((i + 1) * nb == (j + 1) * na) {
            ++i;
            ++j;
        } else if (a_first) {
            ++i;
        } else {
            ++j;
        }
    }
    return std::sqrt(sum);
}

} // namespace starfish::sim
