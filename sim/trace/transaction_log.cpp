#include "sim/trace/transaction_log.h"

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <stdexcept>

namespace starfish::trace {

const char *TransactionLog::line_regex() {
    return R"(^\[(NET|SCSI|DISK|CPU) (\d+\.\d{12})\] ([A-Za-z0-9_.]+) (>>|<<|--) ([A-Z]+))"
           R"(( id=0x[0-9a-f]+)?((?: [a-z_]+=[^ ]+)*)$)";
}

TransactionLog::TransactionLog(const std::string &path, ScopeFilter filter)
    : out_(path, "log"), filter_(std::move(filter)) {}

std::string TransactionLog::format(const Transaction &t) {
    char head[96];
    std::snprintf(head, sizeof head, "[%s %" PRIu64 ".%012" PRIu64 "] ", t.category,
                  t.t_ps / uint64_t(1000000000000), t.t_ps % uint64_t(1000000000000));
    std::string line = head + t.component;
    line += t.dir == Direction::Begin ? " >> " : t.dir == Direction::End ? " << " : " -- ";
    line += t.op;
    if (t.dir != Direction::Instant) {
        char id[32];
        std::snprintf(id, sizeof id, " id=0x%" PRIx64, t.id);
        line += id;
    }
    if (!t.fields.empty()) {
        line += ' ';
        // Fields are separated by single spaces; a value never holds one.
        for (size_t i = 0; i < t.fields.size(); ++i) {
            char c = t.fields[i];
            bool separator = c == ' ' && t.fields.find('=', i) < t.fields.find(' ', i + 1);
            line += c == ' ' && !separator ? '_' : c;
        }
    }
    return line;
}

void TransactionLog::transaction(const Transaction &t) {
    if (!filter_.selects(t.component)) {
        return;
    }
    std::string line = format(t);
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), out_.get());
}

void TransactionLog::finish(uint64_t) {
    out_.close();
}

} // namespace starfish::trace
