#include "sim/trace/trace_session.h"

#include "sim/trace/timeline_writer.h"
#include "sim/trace/transaction_log.h"
#include "sim/trace/vcd_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace starfish::trace {

namespace {

TraceRequest g_request; // this process's request (a copy in each forked trial)

// "iop12" -> ("iop", 12); false unless prefix + digits.
bool numbered(const std::string &s, const std::string &prefix, int &n) {
    if (s.compare(0, prefix.size(), prefix) != 0 || s.size() == prefix.size()) {
        return false;
    }
    n = 0;
    for (size_t i = prefix.size(); i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9' || n > 100000) {
            return false;
        }
        n = n * 10 + (s[i] - '0');
    }
    return true;
}

bool valid_component(const std::string &name, const platform::MachineShape &shape) {
    size_t dot = name.find('.');
    std::string top = name.substr(0, dot);
    std::string sub = dot == std::string::npos ? "" : name.substr(dot + 1);
    int k = 0;
    if (top == "net") {
        // net, net.r<k> or net.r<k>.<port>
        size_t port_dot = sub.find('.');
        std::string port = port_dot == std::string::npos ? "" : sub.substr(port_dot + 1);
        bool port_ok = port.empty() || port == "E" || port == "W" || port == "N" || port == "S" ||
                       port == "inject" || port == "eject";
        return sub.empty() || (numbered(sub.substr(0, port_dot), "r", k) &&
                               k < shape.torus_width * shape.torus_height && port_ok);
    }
    bool cp = numbered(top, "cp", k) && k < shape.cp_count;
    bool iop = numbered(top, "iop", k) && k < shape.iop_count;
    if (!cp && !iop) {
        return false;
    }
    int t = 0;
    return sub.empty() || sub == "cpu" || sub == "ni" || sub == "fw" || (iop && sub == "fs") ||
           (iop && (sub == "scsi" || (numbered(sub, "disk", t) && t < shape.disks_per_iop)));
}

} // namespace

bool parse_time_ps(const std::string &text, uint64_t &ps) {
    static const struct {
        const char *suffix;
        double scale;
    } kUnits[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    double scale = 1e12;
    std::string number = text;
    for (const auto &u : kUnits) {
        size_t n = std::strlen(u.suffix);
        if (text.size() > n && text.compare(text.size() - n, n, u.suffix) == 0) {
            number = text.substr(0, text.size() - n);
            scale = u.scale;
            break;
        }
    }
    if (number.empty()) {
        return false;
    }
    char *end = nullptr;
    double v = std::strtod(number.c_str(), &end);
    if (end == nullptr || *end != '\0' || !(v >= 0) || v * scale > 1.8e19) {
        return false;
    }
    ps = static_cast<uint64_t>(v * scale + 0.5);
    return true;
}

void check_request(const TraceRequest &req, const platform::MachineShape &shape) {
    if (req.from_ps >= req.to_ps) {
        throw std::invalid_argument("--trace-from must be earlier than --trace-to");
    }
    for (const auto *list : {&req.components, &req.log_components}) {
        for (const auto &c : *list) {
            if (!valid_component(c, shape)) {
                throw std::invalid_argument(
                    "unknown component '" + c +
                    "' (expected cp<k>, iop<k>, net, with .cpu, .ni, .fw, .fs, .scsi, .disk<t> or "
                    "net.r<router>, within this machine's shape)");
            }
        }
    }
    const bool signals = !req.vcd_path.empty() || !req.timeline_path.empty();
    if (!req.components.empty() && !signals) {
        throw std::invalid_argument("--trace needs --vcd or --timeline (the log selects its "
                                    "components with --log-components)");
    }
    // The window bounds every sink, the transaction log included.
    if ((req.from_ps != 0 || req.to_ps != UINT64_MAX) && !signals && req.log_path.empty()) {
        throw std::invalid_argument("--trace-from and --trace-to need --vcd, --log or --timeline");
    }
    if (!req.log_components.empty() && req.log_path.empty()) {
        throw std::invalid_argument("--log-components needs --log");
    }
}

void set_request(const TraceRequest &req) {
    g_request = req;
}

const TraceRequest &request() {
    return g_request;
}

std::string rtl_fst_for_trial(int trial) {
    return trial == 0 && !g_request.rtl_fst_path.empty()
               ? g_request.write_path(g_request.rtl_fst_path)
               : std::string();
}

std::unique_ptr<TraceSession> TraceSession::attach_requested(platform::Machine &m, int trial) {
    if (trial != 0 || !g_request.any()) {
        return nullptr;
    }
    return std::make_unique<TraceSession>(m, g_request);
}

std::string run_traced(platform::Machine &m, int trial) {
    auto tracing = TraceSession::attach_requested(m, trial);
    std::string failure = m.run();
    if (tracing) {
        tracing->finish();
    }
    return failure;
}

TraceSession::TraceSession(platform::Machine &m, const TraceRequest &req)
    : hub_(req.from_ps, req.to_ps) {
    ScopeFilter shown(req.components), logged(req.log_components);
    if (!req.vcd_path.empty()) {
        hub_.add_sink(std::make_unique<VcdWriter>(req.write_path(req.vcd_path), shown));
    }
    if (!req.timeline_path.empty()) {
        hub_.add_sink(std::make_unique<TimelineWriter>(req.write_path(req.timeline_path), shown));
    }
    if (!req.log_path.empty()) {
        hub_.add_sink(std::make_unique<TransactionLog>(req.write_path(req.log_path), logged));
    }
    // A component is observed when any sink wants it.
    bool signals = !req.vcd_path.empty() || !req.timeline_path.empty();
    bool log = !req.log_path.empty();
    auto want = [&](const std::string &scope) {
        return (signals && shown.selects(scope)) || (log && logged.selects(scope));
    };
    for (int i = 0; i < m.node_count(); ++i) {
        platform::Node &n = m.node(i);
        std::string node = n.basename();
        if (!req.ni_dma_fst_path.empty()) {
            const std::string file = ni_dma_fst_file(req.ni_dma_fst_path, node);
            if (!n.ni().open_rtl_waves(req.write_path(file))) {
                throw std::invalid_argument("--ni-dma-fst: cannot write " + file +
                                            " (it needs ni.model = rtl)");
            }
            rtl_waves_.push_back(&n);
        }
        if (want(node + ".cpu")) {
            n.cpu().observe(&hub_, node + ".cpu");
        }
        if (want(node + ".ni")) {
            n.ni().observe(&hub_, node + ".ni");
        }
        if (want(node + ".fs") || want(node + ".fw")) {
            n.hal().observe(&hub_, node);
        }
    }
    for (int k = 0; k < m.shape().iop_count; ++k) {
        platform::ScsiChain &chain = m.scsi_chain(k);
        std::string iop = "iop" + std::to_string(k);
        if (want(iop + ".scsi")) {
            chain.bus().observe(&hub_, iop + ".scsi");
        }
        for (unsigned t = 0; t < chain.disk_count(); ++t) {
            std::string disk = iop + ".disk" + std::to_string(t);
            if (want(disk)) {
                chain.disk(t).observe(&hub_, disk);
            }
        }
    }
    bool any_port = false;
    const net::TorusTopology &topo = m.network().topology();
    for (int ch = 0; ch < topo.channel_count(); ++ch) {
        any_port = any_port || want("net." + topo.channel_name(ch));
    }
    if (any_port) {
        m.network().observe(&hub_, want);
    }
}

void TraceSession::finish() {
    hub_.finish(sc_core::sc_time_stamp().value());
    for (platform::Node *n : rtl_waves_) {
        n->ni().close_rtl_waves();
    }
}

std::string ni_dma_fst_file(const std::string &path, const std::string &node) {
    const std::string ext = ".fst";
    std::string stem = path;
    if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0) {
        stem.resize(stem.size() - ext.size());
    }
    return stem + "." + node + ext;
}

} // namespace starfish::trace
