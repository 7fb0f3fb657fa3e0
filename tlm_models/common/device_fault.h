#pragma once
// The one way a device model fails (docs/node.md, "When a device fails"). A device
// that finds a programming error, or a state it cannot go on from, reports a
// DeviceFault through its DeviceFaultPort. The report
//   * stops the simulation (sc_stop, once: several faults may meet in one delta),
//   * reaches the DeviceFaultSink the port is bound to (each Node has one, and the
//     machine's failure report reads them), naming node, device and register.
// A fault raised by a register access also makes that access fail: the device
// answers it with a TLM error response, so the firmware activity that made it
// stops right there (the HAL binding parks it). Nothing is thrown: the register
// access came from firmware written in C, and no C++ exception may unwind
// through C frames.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starfish::common {

struct DeviceFault {
    static constexpr int kNoNode = -1;

    int node = kNoNode; // node id of the device (kNoNode: a bench without nodes, no "node N: ")
    std::string device; // "network interface", "SCSI adapter 0"
    bool in_register_access = false;
    uint32_t offset = 0;  // of the register in the device window (register accesses only)
    std::string reg;      // the register's name, "" when the offset names none
    std::string code;     // the device's ERROR value by name ("HW_NI_ERR_TX_SIZE"), or ""
    std::string message;  // what went wrong, for a person
    uint64_t time_ps = 0; // simulated time of the report

    // "node 0: network interface register TX_PUSH (0x028): TX_DEST = 99 names no
    // node (32 nodes) (HW_NI_ERR_TX_DEST)"; without a register access
    // "node 0: network interface: malformed packet from node 3".
    std::string text() const;
};

// Collects the faults of several devices (a node's), in the order reported.
class DeviceFaultSink {
public:
    void report(const DeviceFault &fault) { faults_.push_back(fault); }
    bool empty() const { return faults_.empty(); }
    const std::vector<DeviceFault> &faults() const { return faults_; }
    // text() of the first fault, or "".
    std::string failure() const;

private:
    std::vector<DeviceFault> faults_;
};

// A device's side of the fault path: names the device in every fault, keeps the
// device's first fault, forwards each one to the bound sink and stops the
// simulation. An unbound port (a bench of one device) only keeps and stops.
class DeviceFaultPort {
public:
    DeviceFaultPort(int node, std::string device);
    DeviceFaultPort(const DeviceFaultPort &) = delete;
    DeviceFaultPort &operator=(const DeviceFaultPort &) = delete;

    // Before the run (binding again replaces the sink).
    void bind(DeviceFaultSink &sink) { sink_ = &sink; }

    // A register access at `offset` failed; reg is its name ("" if none). The
    // caller answers the access with a TLM error response.
    void register_fault(uint32_t offset, const std::string &reg, const std::string &code,
                        const std::string &message);
    // A state the device cannot go on from, not caused by the access being served
    // (a model invariant broken); the caller leaves the state as it is.
    void fault(const std::string &message);

    bool failed() const { return first_.has_value(); }
    const std::optional<DeviceFault> &first() const { return first_; }
    // first()->text(), or "".
    std::string failure() const;

private:
    void report(DeviceFault fault);

    const int node_;
    const std::string device_;
    DeviceFaultSink *sink_ = nullptr;
    std::optional<DeviceFault> first_;
};

// sc_stop unless the simulation is already stopping (SC_SIM_USER_STOP): a second
// sc_stop in the same delta would only warn.
void stop_simulation();

} // namespace starfish::common
