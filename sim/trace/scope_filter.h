#pragma once
// Which components a trace covers (--trace, --log-components): a list of scope
// names; a scope is selected when a name equals it or is one of its leading
// dot-separated parts ("iop0" selects "iop0.cpu", "iop0.disk1"; "net" every
// router). An empty list selects everything.

#include <string>
#include <vector>

namespace starfish::trace {

class ScopeFilter {
public:
    ScopeFilter() = default;
    explicit ScopeFilter(std::vector<std::string> names) : names_(std::move(names)) {}
    bool selects(const std::string &scope) const {
        if (names_.empty()) {
            return true;
        }
        for (const auto &n : names_) {
            if (scope.compare(0, n.size(), n) == 0 &&
                (scope.size() == n.size() || scope[n.size()] == '.')) {
                return true;
            }
        }
        return false;
    }
    const std::vector<std::string> &names() const { return names_; }

private:
    std::vector<std::string> names_;
};

} // namespace starfish::trace
