#pragma once
// Wall-clock measurement of a run, for the host-speed line every run prints.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace starfish::sim {

class HostClock {
public:
    HostClock() : start_(std::chrono::steady_clock::now()) {}
    double elapsed_s() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// A wall time for progress lines: "1h02m", "3m07s", "12s".
inline std::string duration_text(double s) {
    long t = std::lround(std::max(s, 0.0));
    char buf[32];
    if (t >= 3600) {
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    } else if (t >= 60) {
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    } else {
        std::snprintf(buf, sizeof buf, "%lds", t);
    }
    return buf;
}

} // namespace starfish::sim
