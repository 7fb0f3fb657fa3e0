#pragma once
// Wall-clock measurement of a run, for the host-speed line every run prints.

#include <chrono>

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

} // namespace starfish::sim
