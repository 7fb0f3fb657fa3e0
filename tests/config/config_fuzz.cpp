#include "tests/config/config_fuzz.h"

#include "hw/config/config_error.h"
#include "hw/config/json_text.h"
#include "hw/config/loader.h"
#include "sim/study/study.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace starfish::testing {

using nlohmann::json;

namespace {

uint64_t below(hw_rng *r, uint64_t n) {
    return n == 0 ? 0 : hw_rng_below(r, n);
}

bool chance(hw_rng *r, double p) {
    return hw_rng_unit(r) < p;
}

template <class T> const T &pick(hw_rng *r, const std::vector<T> &v) {
    return v[below(r, v.size())];
}

std::string random_bytes(hw_rng *r, size_t max_len, bool ascii) {
    std::string s(below(r, max_len + 1), ' ');
    for (auto &c : s) {
        c = static_cast<char>(ascii ? 0x20 + below(r, 95) : below(r, 256));
    }
    return s;
}

std::string number_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Keys that keep a run of `small` tiny whatever value they take from their range.
const char *const kSmallRunKeys[] = {
    "workload.pattern", "workload.layout",   "workload.cols",    "fs.kind",
    "fs.presort",       "ddio.prefetch",     "ddio.stagger",     "ddio.buffers_per_disk",
    "spfs.outstanding", "machine.placement", "machine.cp_count", "machine.iop_count",
    "twophase.overlap", "workload.seed",     "spfs.groups",      "ddio.queued"};

} // namespace

std::string FuzzInput::describe() const {
    std::string out = "input " + std::to_string(index) + ":";
    for (const auto &l : layers) {
        const char *kind = l.kind == FuzzLayer::Kind::Set    ? "--set "
                           : l.kind == FuzzLayer::Kind::File ? "file "
                                                             : "study ";
        out += std::string("\n  ") + kind + l.origin + (l.origin.empty() ? "" : ": ") +
               config::printable(l.text, 400);
    }
    return out;
}

ConfigFuzzer::ConfigFuzzer(const config::Registry &registry, uint64_t seed)
    : registry_(registry), seed_(seed) {
    for (const auto &[key, spec] : registry.all()) {
        specs_.push_back(&spec);
    }
    for (const char *k : kSmallRunKeys) {
        if (const config::ParamSpec *s = registry.find(k)) {
            small_specs_.push_back(s);
        }
    }
}

std::string ConfigFuzzer::key(hw_rng *r, const config::ParamSpec **spec, bool small_run) {
    const auto &pool = small_run ? small_specs_ : specs_;
    *spec = pick(r, pool);
    std::string k = (*spec)->key;
    if (small_run || chance(r, 0.75)) {
        return k;
    }
    *spec = nullptr; // a key the registry does not know
    switch (below(r, 10)) {
    case 0: // a typo
        k[below(r, k.size())] = static_cast<char>('a' + below(r, 26));
        return k;
    case 1:
        return k.substr(0, k.find('.')); // a group name alone
    case 2:
        return k + "." + random_bytes(r, 6, true);
    case 3:
        return "." + k;
    case 4: {
        std::string upper = k;
        for (auto &c : upper) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        return upper;
    }
    case 5:
        return random_bytes(r, 12, false); // any bytes at all
    case 6:
        return std::string(1000 + below(r, 20000), 'k');
    case 7:
        return "";
    case 8:
        return k.substr(0, k.find('.')) + ".." + k.substr(k.find('.') + 1);
    default:
        return random_bytes(r, 20, true);
    }
}

// A value as JSON text (as_text false) or as the right-hand side of --set.
std::string ConfigFuzzer::value_token(hw_rng *r, const config::ParamSpec *spec, bool as_text,
                                      double typed_share) {
    auto quoted = [&](const std::string &s) {
        return as_text ? s : json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    };
    if (spec && chance(r, typed_share)) {
        // Usually a value of the right type, often inside the range.
        switch (spec->type) {
        case config::ParamType::Int:
        case config::ParamType::Real: {
            double lo = spec->min.value_or(-1e6), hi = spec->max.value_or(1e6);
            double v = 0;
            switch (below(r, 6)) {
            case 0:
                v = lo;
                break;
            case 1:
                v = hi;
                break;
            case 2:
                v = lo - 1;
                break;
            case 3:
                v = hi + 1;
                break;
            default:
                v = lo + (hi - lo) * hw_rng_unit(r);
                if (chance(r, 0.5)) {
                    v = lo + std::pow(2.0, hw_rng_unit(r) * std::log2(hi - lo + 1)) - 1;
                }
            }
            if (spec->type == config::ParamType::Int && chance(r, 0.9)) {
                v = std::floor(v);
                return std::to_string(static_cast<long long>(v));
            }
            return number_text(v);
        }
        case config::ParamType::Bool:
            if (as_text) {
                return pick(r, std::vector<std::string>{"true", "false", "1", "0", "yes", "off",
                                                        "TRUE", "2", ""});
            }
            return pick(r, std::vector<std::string>{"true", "false", "1", "0", "2", "\"true\""});
        case config::ParamType::String:
            if (!spec->choices.empty() && chance(r, 0.8)) {
                return quoted(pick(r, spec->choices));
            }
            return quoted(spec->default_value.get<std::string>() +
                          (chance(r, 0.5) ? random_bytes(r, 3, true) : ""));
        }
    }
    // Anything: the corner cases of numbers, other types, odd text.
    static const std::vector<std::string> numbers = {"9e999",
                                                     "-9e999",
                                                     "1e308",
                                                     "1E+400",
                                                     "-0",
                                                     "0",
                                                     "1e-999",
                                                     "4.9e-324",
                                                     "0.5",
                                                     "3.0",
                                                     "-1",
                                                     "2147483648",
                                                     "4294967296",
                                                     "9007199254740993",
                                                     "9223372036854775807",
                                                     "9223372036854775808",
                                                     "18446744073709551615",
                                                     "18446744073709551616",
                                                     "123456789012345678901234567890",
                                                     "1.7976931348623157e308"};
    static const std::vector<std::string> texts = {"inf",  "nan",  "-inf", "0x10", " 5",
                                                   "5 ",   "+5",   "1e3",  "1,5",  "",
                                                   "true", "null", "[1]",  "{}",   "\t"};
    static const std::vector<std::string> jsons = {
        "null",       "true",     "[]",   "[1, 2]",      "{}",
        "{\"x\": 1}", "\"fast\"", "\"\"", "\"\\ud800\"", "\"caf\\u00e9\""};
    switch (below(r, 4)) {
    case 0:
        return pick(r, numbers);
    case 1:
        return as_text ? pick(r, texts) : pick(r, jsons);
    case 2:
        return as_text ? random_bytes(r, 8, chance(r, 0.5)) : json(random_bytes(r, 8, true)).dump();
    default:
        return as_text ? std::string(below(r, 400), '9') : "[" + pick(r, numbers) + "]";
    }
}

std::string ConfigFuzzer::file_text(hw_rng *r, bool small_run) {
    // Entries, each dotted or nested one level per group.
    std::string text = "{";
    size_t n = below(r, 6);
    for (size_t i = 0; i < n; ++i) {
        const config::ParamSpec *spec = nullptr;
        std::string k = key(r, &spec, small_run);
        std::string v = small_run && chance(r, 0.9) ? valid_value(r, spec, false)
                                                    : value_token(r, spec, false, 0.6);
        auto dot = k.find('.');
        std::string entry;
        if (dot != std::string::npos && chance(r, 0.4)) {
            entry = json(k.substr(0, dot)).dump(-1, ' ', false, json::error_handler_t::replace) +
                    ": {" +
                    json(k.substr(dot + 1)).dump(-1, ' ', false, json::error_handler_t::replace) +
                    ": " + v + "}";
        } else {
            entry = json(k).dump(-1, ' ', false, json::error_handler_t::replace) + ": " + v;
        }
        text += (i ? ",\n  " : "\n  ") + entry;
    }
    text += "\n}\n";
    if (!small_run && chance(r, 0.1)) {
        text = pick(r, std::vector<std::string>{"[]", "1", "\"x\"", "null", "", " ", "{}"});
    }
    return small_run ? text : mutate(r, text);
}

std::string ConfigFuzzer::valid_value(hw_rng *r, const config::ParamSpec *spec, bool as_text) {
    switch (spec->type) {
    case config::ParamType::Int:
    case config::ParamType::Real: {
        double lo = spec->min.value_or(0), hi = spec->max.value_or(1e6);
        // Small values more often than large ones.
        double v = std::min(hi, lo + std::pow(2.0, hw_rng_unit(r) * std::log2(hi - lo + 1)) - 1);
        return spec->type == config::ParamType::Int
                   ? std::to_string(static_cast<long long>(std::floor(v)))
                   : number_text(v);
    }
    case config::ParamType::Bool:
        return chance(r, 0.5) ? "true" : "false";
    case config::ParamType::String:
        break;
    }
    std::string text =
        spec->choices.empty() ? spec->default_value.get<std::string>() : pick(r, spec->choices);
    return as_text ? text : json(text).dump();
}

// Byte-level damage to otherwise well-formed text, some of the time.
std::string ConfigFuzzer::mutate(hw_rng *r, std::string text) {
    if (!chance(r, 0.3)) {
        return text;
    }
    size_t at = below(r, text.size() + 1);
    switch (below(r, 9)) {
    case 0:
        if (!text.empty()) {
            text.erase(std::min(at, text.size() - 1), 1);
        }
        break;
    case 1:
        text.insert(at, 1, static_cast<char>(below(r, 256)));
        break;
    case 2:
        text.resize(at);
        break;
    case 3:
        text.insert(at, std::string(1 + below(r, 100000), chance(r, 0.5) ? '[' : '{'));
        break;
    case 4:
        text.insert(at, "9e999");
        break;
    case 5:
        text.insert(at, random_bytes(r, 6, false));
        break;
    case 6:
        text.insert(0, "\xef\xbb\xbf"); // a byte order mark
        break;
    case 7:
        text.insert(at, "// comment\n");
        break;
    default:
        if (!text.empty()) {
            text[std::min(at, text.size() - 1)] = "{}[]\":,\\"[below(r, 8)];
        }
    }
    return text;
}

std::string ConfigFuzzer::set_text(hw_rng *r, bool small_run) {
    const config::ParamSpec *spec = nullptr;
    std::string k = key(r, &spec, small_run);
    if (!small_run && chance(r, 0.03)) {
        return k; // no '='
    }
    return k + "=" +
           (small_run && chance(r, 0.9) ? valid_value(r, spec, true)
                                        : value_token(r, spec, true, 0.6));
}

std::string ConfigFuzzer::study_text(hw_rng *r) {
    json doc = json::object();
    auto axis_values = [&](const config::ParamSpec *spec) {
        json values = json::array();
        size_t n = below(r, 4);
        for (size_t i = 0; i < n; ++i) {
            json v = json::parse(value_token(r, spec, false, 0.6), nullptr, false);
            values.push_back(v.is_discarded() ? json("?") : v);
        }
        return values;
    };
    if (chance(r, 0.5)) {
        json set = json::object();
        const config::ParamSpec *spec = nullptr;
        std::string k = key(r, &spec, false);
        json v = json::parse(value_token(r, spec, false, 0.6), nullptr, false);
        set[config::printable(k)] = v.is_discarded() ? json(nullptr) : v;
        doc["set"] = set;
    }
    json vary = json::array();
    for (size_t a = below(r, 3); a > 0; --a) {
        const config::ParamSpec *spec = nullptr;
        std::string k = key(r, &spec, false);
        vary.push_back(json{{config::printable(k), axis_values(spec)}});
    }
    if (chance(r, 0.2)) {
        vary.push_back(json{{"cases", json::array({json{{"fs.kind", "spfs"}}, json(3)})}});
    }
    doc["vary"] = vary;
    if (chance(r, 0.2)) {
        doc[pick(r,
                 std::vector<std::string>{"skip", "metric", "description", "compare", "extra"})] =
            pick(r, std::vector<json>{json(1), json("x"), json::array(), json::object(),
                                      json::array({json::object()})});
    }
    return mutate(r, doc.dump(1));
}

FuzzInput ConfigFuzzer::input(uint64_t index) {
    hw_rng r;
    hw_rng_seed(&r, hw_rng_stream_seed(seed_, index, 0, 0));
    FuzzInput in;
    in.index = index;
    size_t files = below(&r, 3), sets = below(&r, 4);
    for (size_t i = 0; i < files; ++i) {
        bool study = chance(&r, 0.1);
        FuzzLayer l;
        l.kind = study ? FuzzLayer::Kind::Study : FuzzLayer::Kind::File;
        l.origin = "fuzz" + std::to_string(i) + ".json";
        l.text = study ? study_text(&r) : file_text(&r, false);
        in.layers.push_back(l);
    }
    for (size_t i = 0; i < sets; ++i) {
        in.layers.push_back(FuzzLayer{FuzzLayer::Kind::Set, "", set_text(&r, false)});
    }
    return in;
}

FuzzInput ConfigFuzzer::small_run_input(uint64_t index) {
    hw_rng r;
    hw_rng_seed(&r, hw_rng_stream_seed(seed_, index, 1, 0));
    FuzzInput in;
    in.index = index;
    in.layers.push_back(FuzzLayer{FuzzLayer::Kind::File, "fuzz0.json", file_text(&r, true)});
    for (size_t i = below(&r, 3); i > 0; --i) {
        in.layers.push_back(FuzzLayer{FuzzLayer::Kind::Set, "", set_text(&r, true)});
    }
    return in;
}

FuzzOutcome load_fuzz_input(const config::Registry &registry, const std::string &default_text,
                            const FuzzInput &in) {
    FuzzOutcome out;
    try {
        config::Config cfg(registry);
        config::apply_json_text(cfg, default_text, "default.json");
        std::vector<sim::StudySpec> studies;
        for (const auto &l : in.layers) {
            if (l.kind == FuzzLayer::Kind::File) {
                config::apply_json_text(cfg, l.text, l.origin);
            } else if (l.kind == FuzzLayer::Kind::Study) {
                studies.push_back(
                    sim::parse_study(config::parse_json_text(l.text, l.origin), l.origin, "."));
                studies.back().name = l.origin;
            }
        }
        for (const auto &l : in.layers) {
            if (l.kind == FuzzLayer::Kind::Set) {
                config::apply_override(cfg, l.text);
            }
        }
        cfg.validate();
        for (const auto &spec : studies) {
            sim::expand_study(spec, cfg);
        }
        out.cfg.emplace(cfg);
    } catch (const config::ConfigError &e) {
        out.config_error = true;
        out.message = e.what();
    }
    return out;
}

namespace {

// "<name>.json:<line>:<column>: " somewhere in the message (std::regex recurses per
// character and overflows the stack on long messages).
bool names_file_and_line(const std::string &message) {
    for (size_t at = message.find(".json:"); at != std::string::npos;
         at = message.find(".json:", at + 1)) {
        size_t i = at + 6;
        auto digits = [&] {
            size_t start = i;
            while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]))) {
                ++i;
            }
            return i > start;
        };
        if (digits() && i < message.size() && message[i++] == ':' && digits() &&
            message.compare(i, 2, ": ") == 0) {
            return true;
        }
    }
    return false;
}

// A study file's structural error: "<name>.json: ... '<field>' ...".
bool names_study_field(const std::string &message) {
    if (message.find(".json: ") == std::string::npos) {
        return false;
    }
    for (const char *field : {"set", "vary", "skip", "cases", "compare", "metric", "description",
                              "file", "value", "columns"}) {
        if (message.find(std::string("'") + field + "'") != std::string::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

std::string unplaced_error(const config::Registry &registry, const std::string &message) {
    if (message.empty()) {
        return "the message is empty";
    }
    if (!config::is_valid_utf8(message)) {
        return "the message is not valid UTF-8";
    }
    if (names_file_and_line(message) || names_study_field(message) ||
        message.find("unknown configuration key '") != std::string::npos ||
        message.find("unknown study field '") != std::string::npos ||
        message.find("--set expects key=value") != std::string::npos ||
        // The command line's own usage errors name the option: `--set=` with nothing
        // after the '=' never reaches the loader (CLI11: "--set: 1 required TEXT
        // missing"); found by the 10^6-input run.
        message.rfind("--set: ", 0) == 0 || message.rfind("--config: ", 0) == 0) {
        return "";
    }
    for (const auto &[key, spec] : registry.all()) {
        if (message.find(key) != std::string::npos) {
            return "";
        }
    }
    return "it names no file and line and no key";
}

} // namespace starfish::testing
