#include "hw/config/json_text.h"

#include "hw/config/config_error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace starfish::config {

using nlohmann::json;

namespace {

// Builds the document from nlohmann's SAX events (the parser itself is iterative),
// refusing to nest deeper than kMaxJsonDepth and keeping the byte position of a
// parse error, which json::parse drops for number overflow (out_of_range.406).
class DomBuilder final : public nlohmann::json_sax<json> {
public:
    explicit DomBuilder(json &root) : root_(root) {}

    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t &) override { return put(json(v)); }
    bool string(string_t &v) override { return put(json(std::move(v))); }
    bool binary(binary_t &) override { return false; } // JSON text has no binary values
    bool start_object(std::size_t) override { return open(json::object()); }
    bool key(string_t &k) override {
        ++keys_;
        // nlohmann would keep the last of two equal keys without a word.
        if (stack_.back()->contains(k)) {
            duplicate_ = std::move(k);
            return false;
        }
        key_ = std::move(k);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &ex) override {
        error_position_ = position;
        error_ = ex.what();
        return false;
    }

    bool too_deep() const { return too_deep_; }
    // The key that appeared twice in one object ("" if none) and its number among
    // all keys of the text (1-based).
    const std::string &duplicate() const { return duplicate_; }
    size_t keys() const { return keys_; }
    size_t error_position() const { return error_position_; } // bytes read, 1-based
    const std::string &error() const { return error_; }

private:
    // Where a new value goes: the root, the end of the open array, or the open
    // object's member named by the last key. Pointers into an array stay valid
    // while the child is open: the array grows only after the child is closed.
    json *place(json v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        json &top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        json &slot = top[key_];
        slot = std::move(v);
        return &slot;
    }
    bool put(json v) {
        place(std::move(v));
        return true;
    }
    bool open(json v) {
        if (stack_.size() >= kMaxJsonDepth) {
            too_deep_ = true;
            return false;
        }
        stack_.push_back(place(std::move(v)));
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }

    json &root_;
    std::vector<json *> stack_;
    std::string key_;
    bool too_deep_ = false;
    std::string duplicate_;
    size_t keys_ = 0;
    size_t error_position_ = 0;
    std::string error_;
};

// Offset of the bracket that opens nesting level kMaxJsonDepth + 1 (the text up to
// it is valid JSON: the parser got there).
size_t too_deep_offset(const std::string &text) {
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > kMaxJsonDepth) {
                return i;
            }
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return text.size();
}

// Offset of the opening quote of the n-th (1-based) object key of the text: the
// n-th string followed by a colon (the text up to it is valid JSON).
size_t nth_key_offset(const std::string &text, size_t n) {
    size_t seen = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '"') {
            continue;
        }
        size_t start = i;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
            if (text[i] == '\\') {
                ++i;
            }
        }
        size_t after = text.find_first_not_of(" \t\r\n", i + 1);
        if (after != std::string::npos && text[after] == ':' && ++seen == n) {
            return start;
        }
    }
    return text.size();
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: what"
// without the prefixes (the caller names file, line and column).
std::string bare_message(const std::string &what) {
    std::string m = what;
    auto bracket = m.find("] ");
    if (m.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos) {
        m = m.substr(bracket + 2);
    }
    if (m.rfind("parse error at line ", 0) == 0) {
        auto colon = m.find(": ");
        if (colon != std::string::npos) {
            m = m.substr(colon + 2);
        }
    }
    return printable(m, 200);
}

// Length of the well-formed UTF-8 sequence starting at s[i], or 0.
size_t utf8_sequence(std::string_view s, size_t i) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b = byte(i);
    if (b < 0x80) {
        return 1;
    }
    size_t len = 0;
    unsigned cp = 0;
    if (b >= 0xc2 && b <= 0xdf) {
        len = 2;
        cp = b & 0x1fu;
    } else if (b >= 0xe0 && b <= 0xef) {
        len = 3;
        cp = b & 0x0fu;
    } else if (b >= 0xf0 && b <= 0xf4) {
        len = 4;
        cp = b & 0x07u;
    } else {
        return 0;
    }
    if (i + len > s.size()) {
        return 0;
    }
    for (size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xc0u) != 0x80u) {
            return 0;
        }
        cp = cp << 6 | (byte(i + k) & 0x3fu);
    }
    bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    bool surrogate = cp >= 0xd800 && cp <= 0xdfff;
    return overlong || surrogate || cp > 0x10ffff ? 0 : len;
}

} // namespace

std::string line_column(std::string_view text, size_t byte) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < text.size() && i < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return std::to_string(line) + ":" + std::to_string(col);
}

json parse_json_text(const std::string &text, const std::string &origin) {
    json doc;
    DomBuilder builder(doc);
    if (json::sax_parse(text, &builder)) {
        return doc;
    }
    if (!builder.duplicate().empty()) {
        throw ConfigError(origin + ":" + line_column(text, nth_key_offset(text, builder.keys())) +
                          ": key '" + printable(builder.duplicate()) +
                          "' appears twice in the same object (which value is meant?)");
    }
    if (builder.too_deep()) {
        throw ConfigError(origin + ":" + line_column(text, too_deep_offset(text)) +
                          ": nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
    }
    size_t at = builder.error_position() > 0 ? builder.error_position() - 1 : 0;
    throw ConfigError(origin + ":" + line_column(text, at) +
                      ": malformed JSON: " + bare_message(builder.error()));
}

bool is_valid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_sequence(s, i);
        if (n == 0) {
            return false;
        }
        i += n;
    }
    return true;
}

std::string printable(std::string_view s, size_t max_chars) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (out.size() >= max_chars) {
            out += "...";
            break;
        }
        size_t n = utf8_sequence(s, i);
        unsigned char b = static_cast<unsigned char>(s[i]);
        if (n == 0 || b < 0x20 || b == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", b);
            out += hex;
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string printable_json(const json &value, size_t max_chars) {
    return printable(value.dump(-1, ' ', false, json::error_handler_t::replace), max_chars);
}

std::string exact_number_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return std::to_string(static_cast<long long>(v));
    }
    char buf[40];
    for (int digits = 6; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) {
            break;
        }
    }
    return buf;
}

} // namespace starfish::config
