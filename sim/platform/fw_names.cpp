#include "sim/platform/fw_names.h"

namespace starfish::platform {

void FirmwareNames::name_semaphore(uint32_t handle, const char *name, bool work_queue) {
    semaphores_[handle] = Semaphore{name != nullptr ? name : "", work_queue};
}

const FirmwareNames::Semaphore *FirmwareNames::semaphore(uint32_t handle) const {
    auto it = semaphores_.find(handle);
    return it == semaphores_.end() ? nullptr : &it->second;
}

void FirmwareNames::add_reporter(hal_report_fn fn, void *arg) {
    if (fn != nullptr) {
        reporters_.emplace_back(fn, arg);
    }
}

std::vector<std::string> FirmwareNames::report(hal_t *h) {
    std::vector<std::string> lines;
    lines_ = &lines;
    for (const auto &[fn, arg] : reporters_) {
        fn(h, arg);
    }
    lines_ = nullptr;
    return lines;
}

void FirmwareNames::add_line(const char *text) {
    if (lines_ != nullptr && text != nullptr) {
        lines_->emplace_back(text);
    }
}

} // namespace starfish::platform
