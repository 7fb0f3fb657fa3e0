#include "sim/workload/disk_trace.h"

#include "hw/scsi_regs.h"
#include "sim/report/csv.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace starfish::sim {

namespace {

[[noreturn]] void input_error(const std::string &path, int line, const std::string &what) {
    throw DiskInputError(path + ":" + std::to_string(line) + ": " + what);
}

// The table, with CSV errors reported as bad input (exit status 2).
CsvTable read_table(const std::string &path) {
    try {
        return read_csv_file(path);
    } catch (const CsvError &e) {
        throw DiskInputError(e.what());
    }
}

size_t required_column(const CsvTable &table, const std::string &name) {
    try {
        return table.required_column(name);
    } catch (const CsvError &e) {
        throw DiskInputError(e.what());
    }
}

double parse_number(const std::string &path, int line, const std::string &column,
                    const std::string &text) {
    char *end = nullptr;
    errno = 0;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v)) {
        input_error(path, line, "column '" + column + "': '" + text + "' is not a number");
    }
    return v;
}

uint64_t parse_count(const std::string &path, int line, const std::string &column,
                     const std::string &text, uint64_t max) {
    double v = parse_number(path, line, column, text);
    if (v < 0 || v != std::floor(v) || v > static_cast<double>(max)) {
        input_error(path, line,
                    "column '" + column + "': '" + text + "' is not an integer in [0, " +
                        std::to_string(max) + "]");
    }
    return static_cast<uint64_t>(v);
}

std::string format_ms(uint64_t ps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6f", ps * 1e-9);
    return buf;
}

} // namespace

DiskTrace read_disk_trace(const std::string &path, uint32_t disks, uint64_t capacity) {
    CsvTable f = read_table(path);
    DiskTrace t;
    t.path = path;
    t.header = f.header;
    size_t c_time = required_column(f, "time_ms");
    size_t c_disk = required_column(f, "disk");
    size_t c_lba = required_column(f, "lba");
    size_t c_sectors = required_column(f, "sectors");
    size_t c_op = required_column(f, "op");
    t.response_column = f.column("response_ms");
    for (auto &[line, fields] : f.rows) {
        DiskTraceRequest r;
        r.line = line;
        double ms = parse_number(path, line, "time_ms", fields[c_time]);
        if (ms < 0) {
            input_error(path, line, "column 'time_ms': negative time " + fields[c_time]);
        }
        if (ms > kMaxTraceTimeMs) {
            input_error(path, line,
                        "column 'time_ms': " + fields[c_time] +
                            " is beyond the latest time a request may have (9e9 ms, about 104 "
                            "days: simulated time is kept in 64-bit picoseconds)");
        }
        r.time_ps = static_cast<uint64_t>(std::llround(ms * 1e9));
        r.disk = static_cast<uint32_t>(
            parse_count(path, line, "disk", fields[c_disk], HW_SCSI_MAX_TARGETS * 1024u));
        if (disks > 0 && r.disk >= disks) {
            input_error(path, line,
                        "disk index " + fields[c_disk] + " out of range (" + std::to_string(disks) +
                            " disk(s): 0.." + std::to_string(disks - 1) + ")");
        }
        r.lba = static_cast<uint32_t>(parse_count(path, line, "lba", fields[c_lba], 0xffffffffu));
        r.sectors = static_cast<uint32_t>(
            parse_count(path, line, "sectors", fields[c_sectors], HW_SCSI_MAX_BLOCKS10));
        if (r.sectors == 0) {
            input_error(path, line, "column 'sectors': a request needs at least one sector");
        }
        if (capacity > 0 && static_cast<uint64_t>(r.lba) + r.sectors > capacity) {
            input_error(path, line,
                        "sectors [" + fields[c_lba] + ", +" + fields[c_sectors] +
                            ") beyond the disk's " + std::to_string(capacity) + " sectors");
        }
        const std::string &op = fields[c_op];
        if (op == "R" || op == "r") {
            r.write = false;
        } else if (op == "W" || op == "w") {
            r.write = true;
        } else {
            input_error(path, line, "column 'op': '" + op + "' is not R or W");
        }
        t.requests.push_back(r);
        t.rows.push_back(std::move(fields));
    }
    return t;
}

void write_trace_with_responses(const OutputTarget &out, const DiskTrace &trace,
                                const std::vector<uint64_t> &response_ps) {
    std::ostringstream csv;
    std::vector<std::string> header = trace.header;
    if (trace.response_column < 0) {
        header.push_back("response_ms");
    }
    write_csv_row(csv, header);
    for (size_t i = 0; i < trace.rows.size(); ++i) {
        std::vector<std::string> row = trace.rows[i];
        std::string ms = format_ms(response_ps[i]);
        if (trace.response_column < 0) {
            row.push_back(ms);
        } else {
            row[trace.response_column] = ms;
        }
        write_csv_row(csv, row);
    }
    write_output(out, csv.str());
}

std::vector<double> read_response_column(const std::string &path) {
    CsvTable f = read_table(path);
    size_t c = required_column(f, "response_ms");
    std::vector<double> out;
    out.reserve(f.rows.size());
    for (auto &[line, fields] : f.rows) {
        double v = parse_number(path, line, "response_ms", fields[c]);
        if (v < 0) {
            input_error(path, line, "column 'response_ms': negative time " + fields[c]);
        }
        out.push_back(v);
    }
    if (out.empty()) {
        input_error(path, 2, "no rows");
    }
    return out;
}

} // namespace starfish::sim
