#pragma once
// Interrupt batching of the network interface (speed.ni_irq_batching): an exact
// host speed-up. Inside an entry point (a register access, a packet or report
// from the network, the receive DMA's wake-up) NiCore may move the interrupt
// conditions several times; with batching on, the entry point's end writes the
// lines once, in the same evaluation phase as the NI's drive_irqs method would,
// without running it. Off, every change notifies that method at once, the
// straightforward way; the lines take the same values in the same update phase
// either way (docs/node.md, "Order within a cycle").

namespace starfish::node {

class NiIrqBatch {
public:
    // Who writes the lines at a batch's end (the NetworkInterface).
    class Driver {
    public:
        virtual ~Driver() = default;
        // An interrupt condition may have changed during the batch that just ended.
        virtual void irqs_changed_in_batch() = 0;
    };

    NiIrqBatch(bool enabled, Driver &driver) : enabled_(enabled), driver_(driver) {}
    NiIrqBatch(const NiIrqBatch &) = delete;
    NiIrqBatch &operator=(const NiIrqBatch &) = delete;

    // One entry point, for its lifetime (entry points may nest).
    class Scope {
    public:
        explicit Scope(NiIrqBatch &batch) : batch_(batch) { ++batch_.depth_; }
        ~Scope() {
            if (--batch_.depth_ == 0 && batch_.changed_) {
                batch_.end();
            }
        }
        Scope(const Scope &) = delete;
        Scope &operator=(const Scope &) = delete;

    private:
        NiIrqBatch &batch_;
    };

    // An interrupt condition may have changed: true if the change is left to the
    // current entry point's end; false when the caller must act on it now
    // (batching off, or no entry point open).
    bool defer_change() {
        if (!enabled_ || depth_ == 0) {
            return false;
        }
        changed_ = true;
        return true;
    }

private:
    void end();

    const bool enabled_;
    Driver &driver_;
    int depth_ = 0;
    bool changed_ = false;
};

} // namespace starfish::node
