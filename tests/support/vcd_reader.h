#pragma once
// Reads back what the observation layer's VCD sink (sim/trace/vcd_writer.h, the
// file of `starfish run --vcd`) wrote, for tests that check a component's signals:
// the changes of one signal, found by its dotted scope and name.

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace starfish::testing {

struct VcdChange {
    uint64_t t_ps = 0;
    std::string value; // "1", "0", "b101", "bx" (the VCD's bits, as written)
    bool operator==(const VcdChange &o) const { return t_ps == o.t_ps && value == o.value; }
};

class VcdFile {
public:
    explicit VcdFile(const std::string &path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        text_ = text.str();
    }
    const std::string &text() const { return text_; }

    // Whether `scope` ("net.r0.E") declares a signal `name` ("busy").
    bool declares(const std::string &scope, const std::string &name) const {
        return !id_of(scope, name).empty();
    }

    // The signal's values in time order, its initial value (at the start of the
    // dump) first; empty if the signal is not declared.
    std::vector<VcdChange> changes(const std::string &scope, const std::string &name) const {
        std::vector<VcdChange> out;
        const std::string id = id_of(scope, name);
        if (id.empty()) {
            return out;
        }
        std::istringstream in(text_.substr(text_.find("$enddefinitions")));
        std::string line;
        uint64_t t = 0;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '$') {
                continue;
            }
            if (line[0] == '#') {
                t = std::stoull(line.substr(1));
            } else if (line[0] == 'b') {
                size_t space = line.find(' ');
                if (line.substr(space + 1) == id) {
                    out.push_back({t, line.substr(0, space)});
                }
            } else if (line.substr(1) == id) {
                out.push_back({t, line.substr(0, 1)});
            }
        }
        return out;
    }

private:
    std::string id_of(const std::string &scope, const std::string &name) const {
        std::istringstream in(text_);
        std::string word;
        std::vector<std::string> path;
        auto joined = [&] {
            std::string s;
            for (const auto &p : path) {
                s += (s.empty() ? "" : ".") + p;
            }
            return s;
        };
        while (in >> word && word != "$enddefinitions") {
            if (word == "$scope") {
                std::string kind, scope_name;
                in >> kind >> scope_name;
                path.push_back(scope_name);
            } else if (word == "$upscope") {
                path.pop_back();
            } else if (word == "$var") {
                std::string kind, width, id, var;
                in >> kind >> width >> id >> var;
                if (var == name && joined() == scope) {
                    return id;
                }
            }
        }
        return "";
    }

    std::string text_;
};

} // namespace starfish::testing
