// Derives the register-map views that live outside C from the register tables of
// hw/ni_regs.h and hw/scsi_regs.h (hw/reg_table.h): the Verilog include
// rtl/include/hw_ni_regs.vh and the register tables of docs/node.md and
// docs/disk.md (between "hw_tables" markers); the NI's frame and receive-record
// formats (hw/ni_regs.h's layout tables) as rtl/include/hw_ni_frame.vh; and the
// packet format of hw/packet.h as rtl/include/hw_packet.vh.
//
//   hw_tables check  <repository>   exit 1 and say what differs if a committed
//                                   view is stale or a table is inconsistent
//   hw_tables update <repository>   rewrite the views
//   hw_tables print  <view>         print one view (ni.vh, ni.md, scsi.md, packet.vh,
//                                   frame.vh)
//
// The build runs `check` as the hw_tables_current test and `update` as the
// update_hw_tables target.

#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "hw/packet.h"
#include "hw/scsi_regs.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Device {
    const char *prefix; // "HW_NI"
    const char *header; // "hw/ni_regs.h"
    uint32_t window_bytes;
    const hw_reg_info_t *regs;
    size_t reg_count;
    const hw_field_info_t *fields;
    size_t field_count;
};

const Device kNi = {"HW_NI",
                    "hw/ni_regs.h",
                    HW_NI_SIZE,
                    hw_ni_register_table,
                    sizeof hw_ni_register_table / sizeof hw_ni_register_table[0],
                    hw_ni_field_table,
                    sizeof hw_ni_field_table / sizeof hw_ni_field_table[0]};
const Device kScsi = {"HW_SCSI",
                      "hw/scsi_regs.h",
                      HW_SCSI_STRIDE,
                      hw_scsi_register_table,
                      sizeof hw_scsi_register_table / sizeof hw_scsi_register_table[0],
                      hw_scsi_field_table,
                      sizeof hw_scsi_field_table / sizeof hw_scsi_field_table[0]};

const char *access_name(uint32_t access) {
    switch (access) {
    case HW_REG_ACCESS_RO:
        return "RO";
    case HW_REG_ACCESS_WO:
        return "WO";
    case HW_REG_ACCESS_RW:
        return "RW";
    default:
        return "??";
    }
}

std::string hex(uint64_t v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

unsigned lsb(uint32_t mask) {
    unsigned i = 0;
    while (i < 32 && !(mask >> i & 1u)) {
        ++i;
    }
    return i;
}

unsigned width(uint32_t mask) {
    return mask == 0 ? 0 : 32 - lsb(mask) - static_cast<unsigned>(__builtin_clz(mask));
}

std::string bits(uint32_t mask) {
    const unsigned lo = lsb(mask), hi = lo + width(mask) - 1;
    return hi == lo ? std::to_string(lo) : std::to_string(hi) + ":" + std::to_string(lo);
}

std::string md_escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        if (c == '|') {
            out += "\\|";
        } else {
            out += c;
        }
    }
    return out;
}

// Problems a C compiler cannot see: offsets, overlaps, order, field masks.
std::vector<std::string> inconsistencies(const Device &d) {
    std::vector<std::string> out;
    uint64_t next = 0;
    for (size_t i = 0; i < d.reg_count; ++i) {
        const hw_reg_info_t &r = d.regs[i];
        const std::string where = std::string(d.header) + " " + r.name + ": ";
        if (r.offset % 4 != 0) {
            out.push_back(where + "offset is not a multiple of 4");
        }
        if (r.offset < next) {
            out.push_back(where + "overlaps or precedes the register before it");
        }
        if (r.count == 0) {
            out.push_back(where + "count is 0");
        }
        next = uint64_t(r.offset) + 4 * uint64_t(r.count);
        if (next > d.window_bytes) {
            out.push_back(where + "lies outside the register window");
        }
        if (r.access != HW_REG_ACCESS_RO && r.access != HW_REG_ACCESS_WO &&
            r.access != HW_REG_ACCESS_RW) {
            out.push_back(where + "access is not RO, WO or RW");
        }
        if (r.access == HW_REG_ACCESS_WO && r.reset != 0) {
            out.push_back(where + "a write-only register must have reset 0");
        }
    }
    for (size_t i = 0; i < d.field_count; ++i) {
        const hw_field_info_t &f = d.fields[i];
        const std::string where = std::string(d.header) + " field " + f.reg + "." + f.name + ": ";
        bool found = false;
        for (size_t j = 0; j < d.reg_count; ++j) {
            found = found || std::string(d.regs[j].name) == f.reg;
        }
        if (!found) {
            out.push_back(where + "no such register");
        }
        const uint32_t run = f.mask >> lsb(f.mask);
        if (f.mask == 0 || (run & (run + 1)) != 0) {
            out.push_back(where + "mask " + hex(f.mask, 8) + " is not one run of bits");
        }
        for (size_t j = 0; j < i; ++j) {
            if (std::string(d.fields[j].reg) == f.reg && (d.fields[j].mask & f.mask) != 0) {
                out.push_back(where + "overlaps field " + d.fields[j].name);
            }
        }
    }
    return out;
}

// A format of little-endian words (hw/reg_table.h, "layouts").
struct Layout {
    const char *prefix; // "HW_NI_FRAME"
    const char *title;  // for comments and messages
    uint32_t bytes;     // the format's size
    const hw_layout_info_t *fields;
    size_t field_count;
};

const Layout kFrame = {"HW_NI_FRAME", "frame (HW_NI_FRAME_LAYOUT)", HW_NI_FRAME_BYTES,
                       hw_ni_frame_layout,
                       sizeof hw_ni_frame_layout / sizeof hw_ni_frame_layout[0]};
const Layout kRecord = {"HW_NI_RECORD", "receive record (HW_NI_RECORD_LAYOUT)",
                        HW_NI_RX_RECORD_BYTES, hw_ni_record_layout,
                        sizeof hw_ni_record_layout / sizeof hw_ni_record_layout[0]};

// Offsets, masks, overlaps and the size: a layout's fields lie inside the format,
// do not overlap, and reach its last word.
std::vector<std::string> inconsistencies(const Layout &l) {
    std::vector<std::string> out;
    uint32_t end = 0;
    for (size_t i = 0; i < l.field_count; ++i) {
        const hw_layout_info_t &f = l.fields[i];
        const std::string where = std::string("hw/ni_regs.h ") + l.title + " " + f.name + ": ";
        const uint32_t run = f.mask >> lsb(f.mask);
        if (f.offset % 4 != 0) {
            out.push_back(where + "offset is not a multiple of 4");
        }
        if (f.words == 0) {
            out.push_back(where + "words is 0");
        }
        if (f.mask == 0 || (run & (run + 1)) != 0) {
            out.push_back(where + "mask " + hex(f.mask, 8) + " is not one run of bits");
        }
        end = std::max(end, f.offset + 4 * f.words);
        for (size_t j = 0; j < i; ++j) {
            const hw_layout_info_t &g = l.fields[j];
            const bool share =
                f.offset < g.offset + 4 * g.words && g.offset < f.offset + 4 * f.words;
            if (share && (f.mask & g.mask) != 0) {
                out.push_back(where + "overlaps field " + g.name);
            }
        }
    }
    if (end != l.bytes) {
        out.push_back(std::string("hw/ni_regs.h ") + l.title + ": its fields end at byte " +
                      std::to_string(end) + ", the format has " + std::to_string(l.bytes));
    }
    return out;
}

// Field `_POS` (bit in the format as a vector, word k in [32k+31:32k]), `_WIDTH`
// (bits per word) and, for an array, `_WORDS`.
void layout_defines(std::ostringstream &o, const Layout &l) {
    for (size_t i = 0; i < l.field_count; ++i) {
        const hw_layout_info_t &f = l.fields[i];
        const std::string n = std::string("`define ") + l.prefix + "_" + f.name;
        o << n << "_POS " << 8 * f.offset + lsb(f.mask) << " // " << f.meaning << "\n";
        o << n << "_WIDTH " << width(f.mask) << "\n";
        if (f.words > 1) {
            o << n << "_WORDS " << f.words << "\n";
        }
    }
}

// The NI's frame and receive-record formats of hw/ni_regs.h for Verilog
// (rtl/include/hw_ni_frame.vh).
std::string frame_verilog() {
    std::ostringstream o;
    o << "// Frame and receive-record formats of hw/ni_regs.h for Verilog: `include it\n"
      << "// anywhere (macros, so a module pays nothing for the fields it does not use).\n"
      << "// Generated by hw/tools/hw_tables.cpp from the header's layout tables\n"
      << "// (HW_NI_FRAME_LAYOUT, HW_NI_RECORD_LAYOUT, HW_NI_REC_KINDS); do not edit.\n"
      << "// Regenerate with: cmake --build build --target update_hw_tables\n"
      << "// A format is a vector of little-endian 32-bit words, word k in bits\n"
      << "// [32k+31:32k] (the packet payload, the record in memory). A field is\n"
      << "// [`<field>_POS +: `<field>_WIDTH]; an array field has `<field>_WORDS words,\n"
      << "// word i at `<field>_POS + 32 i.\n\n";
    o << "`ifndef HW_NI_FRAME_VH\n`define HW_NI_FRAME_VH\n\n";
    o << "`define HW_NI_HDR_MAX_BYTES " << HW_NI_HDR_MAX_BYTES
      << " // most software header bytes\n";
    o << "`define HW_NI_FRAME_BYTES " << HW_NI_FRAME_BYTES
      << " // frame at the head of every packet's payload\n";
    o << "`define HW_NI_RX_RECORD_BYTES " << HW_NI_RX_RECORD_BYTES << " // receive record\n";
    o << "\n// Frame fields: `HW_NI_FRAME_<field>_POS and _WIDTH.\n";
    layout_defines(o, kFrame);
    o << "\n// Receive-record fields (hw_ni_rx_record_t): `HW_NI_RECORD_<field>_POS, _WIDTH\n"
      << "// and _WORDS.\n";
    layout_defines(o, kRecord);
    o << "\n// Record kinds (the KIND field): `HW_NI_REC_<kind>.\n";
    for (const hw_value_info_t &k : hw_ni_record_kinds) {
        o << "`define HW_NI_REC_" << k.name << " " << k.value << " // " << k.meaning << "\n";
    }
    o << "\n`endif\n";
    return o.str();
}

std::string markdown(const Device &d) {
    std::ostringstream o;
    o << "| Offset | Register | Access | Reset | Meaning |\n";
    o << "|---|---|---|---|---|\n";
    for (size_t i = 0; i < d.reg_count; ++i) {
        const hw_reg_info_t &r = d.regs[i];
        std::string offset = hex(r.offset, 3), name = r.name;
        if (r.count > 1) {
            offset += " + 4 t";
            name += "(t)";
        }
        std::string reset = r.access == HW_REG_ACCESS_WO       ? "—"
                            : r.reset == HW_REG_RESET_INSTANCE ? "instance"
                            : r.reset == 0                     ? "0"
                                                               : hex(r.reset, 8);
        std::string meaning = r.meaning;
        if (r.count > 1) {
            meaning += "; t < " + std::to_string(r.count);
        }
        o << "| " << offset << " | `" << name << "` | " << access_name(r.access) << " | " << reset
          << " | " << md_escape(meaning) << " |\n";
    }
    if (d.field_count > 0) {
        o << "\n| Register | Field | Bits | Meaning |\n";
        o << "|---|---|---|---|\n";
        for (size_t i = 0; i < d.field_count; ++i) {
            const hw_field_info_t &f = d.fields[i];
            o << "| `" << f.reg << "` | `" << f.name << "` | " << bits(f.mask) << " | "
              << md_escape(f.meaning) << " |\n";
        }
    }
    return o.str();
}

std::string verilog(const Device &d) {
    std::ostringstream o;
    const std::string p = d.prefix;
    o << "// Register map of " << d.header << " for Verilog: include it inside a module.\n"
      << "// Generated from its register and field tables by hw/tools/hw_tables.cpp; do not\n"
      << "// edit. Regenerate with: cmake --build build --target update_hw_tables\n"
      << "// Access: 1 read-only, 2 write-only, 3 read/write. Registers whose reset value\n"
      << "// the instance sets (node id, configuration) have no _RESET parameter.\n\n";
    o << "localparam [31:0] " << p << "_WINDOW_BYTES = 32'h" << std::hex << d.window_bytes
      << std::dec << ";\n";
    for (size_t i = 0; i < d.reg_count; ++i) {
        const hw_reg_info_t &r = d.regs[i];
        char line[256];
        o << "\n// " << r.name << (r.count > 1 ? "(t), t < " + std::to_string(r.count) : "") << ": "
          << r.meaning << "\n";
        std::snprintf(line, sizeof line, "localparam [31:0] %s_REG_%s = 32'h%03x;\n", d.prefix,
                      r.name, r.offset);
        o << line;
        std::snprintf(line, sizeof line, "localparam [1:0] %s_ACCESS_%s = 2'd%u; // %s\n", d.prefix,
                      r.name, r.access, access_name(r.access));
        o << line;
        if (r.count > 1) {
            std::snprintf(line, sizeof line, "localparam integer %s_COUNT_%s = %u;\n", d.prefix,
                          r.name, r.count);
            o << line;
        }
        if (r.reset != HW_REG_RESET_INSTANCE) {
            std::snprintf(line, sizeof line, "localparam [31:0] %s_RESET_%s = 32'h%08llx;\n",
                          d.prefix, r.name, static_cast<unsigned long long>(r.reset));
            o << line;
        }
    }
    if (d.field_count > 0) {
        o << "\n// Bit fields: <register>_<field>_LSB, _WIDTH and _MASK.\n";
    }
    for (size_t i = 0; i < d.field_count; ++i) {
        const hw_field_info_t &f = d.fields[i];
        char line[256];
        std::snprintf(line, sizeof line,
                      "localparam integer %s_%s_%s_LSB = %u;\n"
                      "localparam integer %s_%s_%s_WIDTH = %u;\n"
                      "localparam [31:0] %s_%s_%s_MASK = 32'h%08x; // %s\n",
                      d.prefix, f.reg, f.name, lsb(f.mask), d.prefix, f.reg, f.name, width(f.mask),
                      d.prefix, f.reg, f.name, f.mask, f.meaning);
        o << line;
    }
    return o.str();
}

// The packet format of hw/packet.h for Verilog (rtl/include/hw_packet.vh): each
// field's position is measured by applying the header's own macros to all-ones
// values, so a change of the header changes the include.
std::string packet_verilog() {
    struct Field {
        const char *name;
        uint32_t mask;
        const char *meaning;
    };
    const Field fields[] = {
        {"ROUTE_DEST_X", HW_ROUTE_FLIT(0xffu, 0, 0, 0), "route flit: destination x"},
        {"ROUTE_DEST_Y", HW_ROUTE_FLIT(0, 0xffu, 0, 0), "route flit: destination y"},
        {"ROUTE_SRC_X", HW_ROUTE_FLIT(0, 0, 0xffu, 0), "route flit: source x"},
        {"ROUTE_SRC_Y", HW_ROUTE_FLIT(0, 0, 0, 0xffu), "route flit: source y"},
        {"LENGTH_PAYLOAD", HW_LENGTH_FLIT(0xffffffffu), "length flit: payload bytes"},
        {"LENGTH_LANE", HW_LENGTH_FLIT_LANE(0, 0xffu), "length flit: VC lane within the class"},
    };
    std::ostringstream o;
    o << "// Packet and flit format of hw/packet.h for Verilog: `include it anywhere (macros,\n"
      << "// so a module pays nothing for the fields it does not use). Generated by\n"
      << "// hw/tools/hw_tables.cpp from the header's macros; do not edit. Regenerate with:\n"
      << "// cmake --build build --target update_hw_tables\n\n";
    o << "`ifndef HW_PACKET_VH\n`define HW_PACKET_VH\n\n";
    o << "`define HW_FLIT_BITS " << 8 * HW_FLIT_BYTES << "\n";
    o << "`define HW_PKT_HEAD_FLITS " << HW_PKT_HEAD_FLITS << "\n";
    o << "`define HW_PKT_MAX_LANES " << HW_PKT_MAX_LANES << "\n";
    o << "\n// Fields: `HW_<field>_LSB and _WIDTH.\n";
    for (const Field &f : fields) {
        o << "`define HW_" << f.name << "_LSB " << lsb(f.mask) << " // " << f.meaning << "\n";
        o << "`define HW_" << f.name << "_WIDTH " << width(f.mask) << "\n";
    }
    o << "\n`endif\n";
    return o.str();
}

// A generated view inside a larger file: a whole file, or the lines between two
// markers of a Markdown page.
struct View {
    std::string path; // relative to the repository
    std::string text;
    std::string tag; // empty: the whole file
};

std::string begin_marker(const std::string &tag) {
    return "<!-- hw_tables " + tag +
           ": generated from the register table, do not edit (cmake --build build --target "
           "update_hw_tables) -->\n";
}

std::string end_marker(const std::string &tag) {
    return "<!-- hw_tables " + tag + " end -->\n";
}

std::vector<View> views() {
    return {{"rtl/include/hw_ni_regs.vh", verilog(kNi), ""},
            {"rtl/include/hw_packet.vh", packet_verilog(), ""},
            {"rtl/include/hw_ni_frame.vh", frame_verilog(), ""},
            {"docs/node.md", markdown(kNi), "HW_NI_REGISTERS"},
            {"docs/disk.md", markdown(kScsi), "HW_SCSI_REGISTERS"}};
}

bool read_file(const std::string &path, std::string &out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return true;
}

// The file as it should be; false (with why) if the markers are missing.
bool expected(const View &v, const std::string &current, std::string &out, std::string &why) {
    if (v.tag.empty()) {
        out = v.text;
        return true;
    }
    const std::string begin = begin_marker(v.tag), end = end_marker(v.tag);
    const size_t b = current.find(begin);
    const size_t e = b == std::string::npos ? b : current.find(end, b);
    if (e == std::string::npos) {
        why = "has no \"" + begin.substr(0, begin.size() - 1) + "\" ... \"" +
              end.substr(0, end.size() - 1) + "\" block";
        return false;
    }
    out = current.substr(0, b + begin.size()) + v.text + current.substr(e);
    return true;
}

int run(const std::string &mode, const std::string &root) {
    int status = 0;
    for (const Device *d : {&kNi, &kScsi}) {
        for (const std::string &problem : inconsistencies(*d)) {
            std::cerr << problem << "\n";
            status = 1;
        }
    }
    for (const Layout *l : {&kFrame, &kRecord}) {
        for (const std::string &problem : inconsistencies(*l)) {
            std::cerr << problem << "\n";
            status = 1;
        }
    }
    for (const View &v : views()) {
        const std::string path = root + "/" + v.path;
        std::string current, want, why;
        if (!read_file(path, current) && !v.tag.empty()) {
            std::cerr << v.path << ": cannot read\n";
            status = 1;
            continue;
        }
        if (!expected(v, current, want, why)) {
            std::cerr << v.path << ": " << why << "\n";
            status = 1;
            continue;
        }
        if (want == current) {
            continue;
        }
        if (mode == "update") {
            std::ofstream(path, std::ios::binary) << want;
            std::cout << "updated " << v.path << "\n";
        } else {
            std::cerr << v.path << " disagrees with the hw/ tables; regenerate it with "
                      << "`cmake --build build --target update_hw_tables` (hw/reg_table.h)\n";
            status = 1;
        }
    }
    return status;
}

} // namespace

int main(int argc, char **argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (argc == 3 && (mode == "check" || mode == "update")) {
        return run(mode, argv[2]);
    }
    if (argc == 3 && mode == "print") {
        const std::string view = argv[2];
        if (view == "packet.vh") {
            std::cout << packet_verilog();
            return 0;
        }
        if (view == "frame.vh") {
            std::cout << frame_verilog();
            return 0;
        }
        if (view == "ni.vh" || view == "ni.md" || view == "scsi.md") {
            const Device &d = view.rfind("ni", 0) == 0 ? kNi : kScsi;
            std::cout << (view == "ni.vh" ? verilog(d) : markdown(d));
            return 0;
        }
    }
    std::cerr << "usage: hw_tables check|update <repository> | hw_tables print "
                 "ni.vh|ni.md|scsi.md|packet.vh|frame.vh\n";
    return 2;
}
