#include "sim/trace/vcd_writer.h"

#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

namespace starfish::trace {

namespace {

// Identifier codes: printable ASCII from '!' in base 94.
std::string vcd_id(size_t n) {
    std::string id;
    do {
        id += static_cast<char>('!' + n % 94);
        n /= 94;
    } while (n != 0);
    return id;
}

std::vector<std::string> split(const std::string &scope) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t dot = scope.find('.', start);
        parts.push_back(scope.substr(start, dot - start));
        if (dot == std::string::npos) {
            return parts;
        }
        start = dot + 1;
    }
}

// The scope tree, children in order of first appearance.
struct ScopeNode {
    std::string name;
    std::vector<std::unique_ptr<ScopeNode>> children;
    std::vector<uint32_t> signals;
    ScopeNode *child(const std::string &n) {
        for (auto &c : children) {
            if (c->name == n) {
                return c.get();
            }
        }
        children.push_back(std::make_unique<ScopeNode>());
        children.back()->name = n;
        return children.back().get();
    }
};

} // namespace

VcdWriter::VcdWriter(const std::string &path, ScopeFilter filter)
    : out_(path, "VCD"), file_(out_.get()), filter_(std::move(filter)) {}

std::string VcdWriter::encode(const SignalInfo &info, const Value &value) {
    if (info.kind == SignalKind::Bit) {
        return value.number != 0 ? "1" : "0";
    }
    std::string bits = "b";
    if (info.kind == SignalKind::Text) {
        // Characters left to right, most significant first; leading NULs are
        // left out (a VCD vector is zero-extended on the left).
        std::string text = value.text.substr(0, info.width);
        for (unsigned char c : text) {
            for (int b = 7; b >= 0; --b) {
                bits += ((c >> b) & 1) ? '1' : '0';
            }
        }
    } else if (value.number == kNoValue) {
        return "bx";
    } else {
        uint64_t v = static_cast<uint64_t>(value.number);
        for (int b = static_cast<int>(info.width) - 1; b >= 0; --b) {
            bits += ((v >> b) & 1) ? '1' : '0';
        }
    }
    size_t first = bits.find('1', 1);
    return first == std::string::npos ? "b0" : "b" + bits.substr(first);
}

void VcdWriter::start(const std::vector<SignalInfo> &signals, const std::vector<Value> &values,
                      uint64_t from_ps) {
    signals_ = signals;
    ids_.assign(signals.size(), "");
    ScopeNode root;
    size_t next = 0;
    for (uint32_t i = 0; i < signals.size(); ++i) {
        if (!filter_.selects(signals[i].scope)) {
            continue;
        }
        ids_[i] = vcd_id(next++);
        ScopeNode *node = &root;
        for (const auto &part : split(signals[i].scope)) {
            node = node->child(part);
        }
        node->signals.push_back(i);
    }
    std::fprintf(file_, "$version starfish-sc observation layer (docs/observe.md) $end\n"
                        "$timescale 1ps $end\n");
    std::function<void(const ScopeNode &)> declare = [&](const ScopeNode &n) {
        std::fprintf(file_, "$scope module %s $end\n", n.name.c_str());
        for (uint32_t i : n.signals) {
            const SignalInfo &s = signals_[i];
            unsigned bits = s.kind == SignalKind::Text ? 8 * s.width : s.width;
            if (bits == 1) {
                std::fprintf(file_, "$var wire 1 %s %s $end\n", ids_[i].c_str(), s.name.c_str());
            } else {
                std::fprintf(file_, "$var wire %u %s %s [%u:0] $end\n", bits, ids_[i].c_str(),
                             s.name.c_str(), bits - 1);
            }
        }
        for (const auto &c : n.children) {
            declare(*c);
        }
        std::fprintf(file_, "$upscope $end\n");
    };
    for (const auto &c : root.children) {
        declare(*c);
    }
    std::fprintf(file_, "$enddefinitions $end\n#%llu\n$dumpvars\n",
                 static_cast<unsigned long long>(from_ps));
    for (uint32_t i = 0; i < signals_.size(); ++i) {
        if (!ids_[i].empty()) {
            write_value(i, values[i]);
        }
    }
    std::fprintf(file_, "$end\n");
    last_time_ = from_ps;
}

void VcdWriter::write_value(uint32_t signal, const Value &value) {
    std::string bits = encode(signals_[signal], value);
    if (bits[0] == 'b') {
        std::fprintf(file_, "%s %s\n", bits.c_str(), ids_[signal].c_str());
    } else {
        std::fprintf(file_, "%s%s\n", bits.c_str(), ids_[signal].c_str());
    }
}

void VcdWriter::change(uint64_t t_ps, uint32_t signal, const Value &value) {
    if (ids_[signal].empty()) {
        return;
    }
    if (t_ps != last_time_) {
        std::fprintf(file_, "#%llu\n", static_cast<unsigned long long>(t_ps));
        last_time_ = t_ps;
    }
    write_value(signal, value);
}

void VcdWriter::finish(uint64_t end_ps) {
    if (end_ps > last_time_) {
        std::fprintf(file_, "#%llu\n", static_cast<unsigned long long>(end_ps));
    }
    out_.close();
}

} // namespace starfish::trace
