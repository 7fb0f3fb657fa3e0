#pragma once
// The demerit figure of Ruemmler & Wilkes (1994) for comparing a disk model's
// response times with measured ones (`starfish disk demerit`, docs/disk.md).

#include <vector>

namespace starfish::sim {

// Root-mean-square horizontal distance between the empirical cumulative
// distributions of a and b (in their unit): sqrt(integral over p in (0,1) of
// (Qa(p) - Qb(p))^2), Q the quantile functions. Both must be non-empty
// (std::invalid_argument otherwise).
double demerit(std::vector<double> a, std::vector<double> b);

} // namespace starfish::sim
