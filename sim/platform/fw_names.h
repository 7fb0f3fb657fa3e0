#pragma once
// What a node's firmware tells its HAL for reports (fw/include/fw/hal.h, "names for
// reports"): semaphore names, which semaphores are queues of work, and functions
// that describe the firmware's state. The deadlock watchdog (sim/platform/watchdog.h)
// reads it; nothing here costs simulated time or runs during normal operation.

#include "fw/hal.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starfish::platform {

class FirmwareNames {
public:
    struct Semaphore {
        std::string name;
        bool work_queue = false;
    };

    void name_semaphore(uint32_t handle, const char *name, bool work_queue);
    // nullptr when the firmware did not name it.
    const Semaphore *semaphore(uint32_t handle) const;

    void add_reporter(hal_report_fn fn, void *arg);
    // Runs every reporter of the node (handle h) and returns the lines they wrote.
    std::vector<std::string> report(hal_t *h);
    // hal_report_line: appends a line to the report being written (ignored otherwise).
    void add_line(const char *text);

private:
    std::unordered_map<uint32_t, Semaphore> semaphores_;
    std::vector<std::pair<hal_report_fn, void *>> reporters_;
    std::vector<std::string> *lines_ = nullptr; // while report() runs
};

} // namespace starfish::platform
