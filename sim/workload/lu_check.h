#pragma once
// Host side of the out-of-core LU decomposition (docs/lu.md): the matrix file's
// bytes, the sequential reference decomposition and the verification of the file
// the machine leaves behind. No SystemC: the unit tests use it as it is.

#include "fw/lu.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starfish::sim {

// An N x N float matrix, column-major (element (row, col) at col * N + row).
struct LuMatrix {
    uint32_t n = 0;
    std::vector<float> a;

    float &at(uint32_t row, uint32_t col) { return a[static_cast<size_t>(col) * n + row]; }
    float at(uint32_t row, uint32_t col) const { return a[static_cast<size_t>(col) * n + row]; }
};

// The input matrix of (seed, N): fw_lu_matrix_element.
LuMatrix lu_input_matrix(uint64_t seed, uint32_t n);

// The sequential right-looking decomposition in place, with the firmware's kernels:
// what any correct out-of-core schedule must produce, bit for bit.
void lu_reference_decompose(LuMatrix &m);

// The file's bytes for a matrix (little-endian floats, column-major) and back.
std::vector<uint8_t> lu_matrix_bytes(const LuMatrix &m);
LuMatrix lu_matrix_from_bytes(const uint8_t *bytes, uint32_t n);

struct LuCheckResult {
    bool verified = true;
    uint64_t elements_differing = 0; // from the reference decomposition, bit for bit
    double max_backward_error = 0;   // max |A - L U| / max |A|
    double max_bound_ratio = 0;      // max |A - L U| / (gamma_N |L| |U|), elementwise; <= 1
    uint64_t guard_bytes_checked = 0;
    uint64_t guard_bytes_changed = 0;
    std::string first_error;

    nlohmann::json to_json() const;
};

// Checks the decomposed matrix `lu` against the original `a` and the reference:
// (1) every element equals the reference decomposition's bits; (2) L U reproduces A
// within Higham's backward-error bound |A - L U| <= gamma_N |L| |U| (elementwise,
// gamma_N = N u / (1 - N u), u = 2^-24; the sums are evaluated in double, whose own
// error is added to the bound). Fills the matrix part of the result.
void lu_check_decomposition(const LuMatrix &a, const LuMatrix &reference, const LuMatrix &lu,
                            LuCheckResult &out);

} // namespace starfish::sim
