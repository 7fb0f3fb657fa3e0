#include "sim/workload/lu_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace starfish::sim {

using nlohmann::json;

json LuCheckResult::to_json() const {
    json j{{"verified", verified},
           {"elements_differing", elements_differing},
           {"max_backward_error", max_backward_error},
           {"max_bound_ratio", max_bound_ratio},
           {"guard_bytes_checked", guard_bytes_checked},
           {"guard_bytes_changed", guard_bytes_changed}};
    if (!first_error.empty()) {
        j["first_error"] = first_error;
    }
    return j;
}

LuMatrix lu_input_matrix(uint64_t seed, uint32_t n) {
    LuMatrix m;
    m.n = n;
    m.a.resize(static_cast<size_t>(n) * n);
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = 0; r < n; ++r) {
            m.at(r, c) = fw_lu_matrix_element(seed, n, r, c);
        }
    }
    return m;
}

void lu_reference_decompose(LuMatrix &m) {
    uint32_t n = m.n;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        float *pivot_col = &m.a[static_cast<size_t>(i) * n];
        fw_lu_multipliers(pivot_col, n, i);
        for (uint32_t k = i + 1; k < n; ++k) {
            fw_lu_update(&m.a[static_cast<size_t>(k) * n], pivot_col, n, i);
        }
    }
}

std::vector<uint8_t> lu_matrix_bytes(const LuMatrix &m) {
    std::vector<uint8_t> out(m.a.size() * 4);
    for (size_t e = 0; e < m.a.size(); ++e) {
        uint32_t v;
        std::memcpy(&v, &m.a[e], 4);
        for (int b = 0; b < 4; ++b) {
            out[4 * e + b] = static_cast<uint8_t>(v >> (8 * b));
        }
    }
    return out;
}

LuMatrix lu_matrix_from_bytes(const uint8_t *bytes, uint32_t n) {
    LuMatrix m;
    m.n = n;
    m.a.resize(static_cast<size_t>(n) * n);
    for (size_t e = 0; e < m.a.size(); ++e) {
        uint32_t v = 0;
        for (int b = 0; b < 4; ++b) {
            v |= static_cast<uint32_t>(bytes[4 * e + b]) << (8 * b);
        }
        std::memcpy(&m.a[e], &v, 4);
    }
    return m;
}

void lu_check_decomposition(const LuMatrix &a, const LuMatrix &reference, const LuMatrix &lu,
                            LuCheckResult &out) {
    uint32_t n = a.n;
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = 0; r < n; ++r) {
            float want = reference.at(r, c), got = lu.at(r, c);
            if (std::memcmp(&want, &got, sizeof want) != 0) {
                if (out.elements_differing == 0) {
                    std::ostringstream os;
                    os << "element (" << r << ", " << c << "): reference " << want << ", file "
                       << got;
                    out.first_error = os.str();
                }
                ++out.elements_differing;
            }
        }
    }
    const double u = std::ldexp(1.0, -24), ud = std::ldexp(1.0, -53);
    const double gamma = n * u / (1 - n * u);
    const double gamma_double = 2.0 * (n + 1) * ud / (1 - 2.0 * (n + 1) * ud);
    double max_a = 0;
    for (float v : a.a) {
        max_a = std::max(max_a, static_cast<double>(std::fabs(v)));
    }
    double worst_error = 0, worst_ratio = 0;
    std::vector<double> sum(n), abs_sum(n);
    for (uint32_t c = 0; c < n; ++c) {
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
        // (L U)(:, c) = sum over k <= c of L(:, k) U(k, c), L unit lower triangular.
        for (uint32_t k = 0; k <= c && k < n; ++k) {
            double ukc = lu.at(k, c);
            sum[k] += ukc; // L(k, k) = 1
            abs_sum[k] += std::fabs(ukc);
            for (uint32_t r = k + 1; r < n; ++r) {
                double l = lu.at(r, k);
                sum[r] += l * ukc;
                abs_sum[r] += std::fabs(l * ukc);
            }
        }
        for (uint32_t r = 0; r < n; ++r) {
            double err = std::fabs(static_cast<double>(a.at(r, c)) - sum[r]);
            double bound = (gamma + gamma_double) * abs_sum[r];
            worst_error = std::max(worst_error, err);
            double ratio = bound > 0 ? err / bound : (err > 0 ? INFINITY : 0.0);
            if (ratio > worst_ratio) {
                worst_ratio = ratio;
                if (ratio > 1.0 && out.first_error.empty()) {
                    std::ostringstream os;
                    os << "(L U)(" << r << ", " << c << ") = " << sum[r]
                       << " against A = " << a.at(r, c) << ": error " << err
                       << " exceeds the bound " << bound;
                    out.first_error = os.str();
                }
            }
        }
    }
    out.max_backward_error = max_a > 0 ? worst_error / max_a : worst_error;
    out.max_bound_ratio = worst_ratio;
    out.verified = out.verified && out.elements_differing == 0 && worst_ratio <= 1.0;
}

} // namespace starfish::sim
