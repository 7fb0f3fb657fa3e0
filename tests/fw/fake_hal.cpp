#include "tests/fw/fake_hal.h"

#include "hw/config/config.h"
#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "sim/parameters.h"
#include "tlm_models/node/hal_cost_rules.h"
#include "tlm_models/node/ni_core.h"

#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <queue>
#include <vector>

namespace starfish::fwtest {

namespace {

struct Node;

using node::HalCharge;

struct Value {
    enum Type { Int, Real, String } type = Int;
    int64_t i = 0;
    double r = 0;
    std::string s;
};

enum class ThreadState { Ready, Running, Blocked, Done };

struct Thread {
    Node *node = nullptr;
    uint64_t id = 0; // 1, 2, ... on its node (0: none, for charges_context_switch)
    std::string name;
    hal_thread_fn fn = nullptr;
    void *arg = nullptr;
    std::function<void(hal_t *)> test_fn;
    bool spawned_by_test = false;
    ThreadState state = ThreadState::Ready;
    bool timed_out = false; // its hal_sem_wait_timeout ran out of time
    ucontext_t ctx{};
    std::unique_ptr<char[]> stack;
};

struct Message {
    unsigned src = 0;
    std::vector<uint8_t> hdr;
    std::vector<uint8_t> body;
};

// A node's network interface: the machine's own untimed core (registers, queues,
// ring, records, handles) with the fake's simple timing around it.
struct FakeNi final : node::NiCore::Client {
    Node *owner = nullptr;
    std::unique_ptr<node::NiCore> core;
    bool tx_active = false;
    uint64_t tx_next = 0;                                      // serial of the next send
    std::deque<Message> inbound;                               // held by the network
    std::deque<std::pair<uint32_t, node::NiFragment>> to_copy; // accepted body bytes

    void ni_fault(uint32_t code, const std::string &reg, const std::string &what) override;
    void ni_irqs_changed() override {} // the levels are read at synchronisation points
    void ni_tx_pushed() override;
    void ni_rx_space_returned() override {} // settle() admits held messages
    void ni_deposit(uint32_t handle, node::NiFragment &&fragment) override {
        to_copy.emplace_back(handle, std::move(fragment));
    }
    void ni_deposit_pending(uint32_t, uint32_t) override {}
    void ni_deposit_arrived(uint32_t handle, node::NiFragment &&fragment) override {
        to_copy.emplace_back(handle, std::move(fragment));
    }
};

struct Sem {
    std::deque<Thread *> waiters;
};

struct Handler {
    hal_irq_fn fn = nullptr;
    void *arg = nullptr;
};

} // namespace

} // namespace starfish::fwtest

// The HAL's opaque node handle.
struct hal {
    starfish::fwtest::Node *node;
};

namespace starfish::fwtest {

namespace {

struct Node {
    FakeMachine::Impl *m = nullptr;
    hal h{};
    unsigned id = 0;
    uint64_t now = 0;
    std::vector<uint8_t> mem;
    uint32_t brk = 64;                      // address 0 is never handed out
    std::map<uint32_t, uint32_t> allocated; // addr -> size
    std::map<uint32_t, uint32_t> free_blocks;
    std::vector<std::unique_ptr<Thread>> threads;
    std::deque<Thread *> ready;
    Thread *current = nullptr; // thread on the CPU (nullptr: dispatcher)
    uint64_t last_ran = 0;     // id of the last thread the CPU ran (0: none yet)
    ucontext_t disp_ctx{};
    std::unique_ptr<char[]> disp_stack;
    ucontext_t *running_ctx = nullptr;
    bool in_irq = false;
    bool idle = false;      // dispatcher parked in the scheduler
    bool scheduled = false; // a resume item is queued
    std::string activity;
    Handler handlers[HW_IRQ_LINES];
    uint64_t irq_count[HW_IRQ_LINES] = {};
    FakeNi ni;
    std::vector<Sem> sems{1}; // handle 0 is "not initialised"
    std::map<std::pair<std::string, std::string>, uint64_t> charges;
    std::map<std::string, uint64_t> exports;
    void *context = nullptr;
    bool observed = false;
    std::vector<FakeMachine::Probe> probes;
    std::vector<FakeMachine::Note> notes;
};

struct Item {
    uint64_t time;
    uint64_t seq;
    Node *resume; // nullptr: run event
    std::function<void()> event;
};

struct ItemLater {
    bool operator()(const Item *a, const Item *b) const {
        return a->time != b->time ? a->time > b->time : a->seq > b->seq;
    }
};

} // namespace

struct FakeMachine::Impl {
    FakeOptions opts;
    std::vector<std::unique_ptr<Node>> nodes;
    std::map<std::string, Value> config;
    node::HalCostRules costs; // which service charges what: the machine's rules
    bool costs_loaded = false;
    std::priority_queue<Item *, std::vector<Item *>, ItemLater> queue;
    uint64_t seq = 0;
    ucontext_t sched_ctx{};
    bool failed = false;
    std::string failure;
    uint64_t current_event_time = 0; // time of the event being run
    uint64_t delivered = 0, tx_full = 0, held = 0, bodies = 0;
    int corrupted_type = -1;

    ~Impl() {
        while (!queue.empty()) {
            delete queue.top();
            queue.pop();
        }
    }

    // ---- configuration ----
    const Value *find(Node &n, const char *key, const char *want) {
        auto it = config.find(key);
        if (it == config.end()) {
            fail(n, std::string("hal_config_") + want + ": unknown key \"" + key + "\"");
            return nullptr;
        }
        return &it->second;
    }

    uint32_t cost(const char *key) {
        auto it = config.find(key);
        return it == config.end() ? 0 : static_cast<uint32_t>(it->second.i);
    }

    void load_costs() {
        if (costs_loaded) {
            return;
        }
        costs_loaded = true;
        costs = node::HalCostRules::from([this](config::IntKey key) { return cost(key.name); });
    }

    // ---- scheduling ----
    void push(uint64_t time, Node *resume, std::function<void()> event) {
        queue.push(new Item{time, seq++, resume, std::move(event)});
    }

    void at(uint64_t time, std::function<void()> event) { push(time, nullptr, std::move(event)); }

    void schedule_resume(Node &n, uint64_t time) {
        if (!n.scheduled) {
            n.scheduled = true;
            push(time, &n, nullptr);
        }
    }

    // Something may have become runnable on an idle node (interrupt line, ready thread).
    void poke(Node &n, uint64_t time) {
        if (n.idle && (!n.ready.empty() || any_line(n) >= 0)) {
            schedule_resume(n, std::max(n.now, time));
        }
    }

    [[noreturn]] void park(Node &n) {
        swapcontext(n.running_ctx, &sched_ctx);
        std::abort(); // a failed run never resumes a node
    }

    [[noreturn]] void fail(Node &n, const std::string &why) {
        if (!failed) {
            failed = true;
            failure =
                "node " + std::to_string(n.id) + " at cycle " + std::to_string(n.now) + ": " + why;
        }
        park(n);
    }

    void charge(Node &n, const char *category, uint64_t cycles) {
        if (cycles == 0) {
            return;
        }
        n.now += cycles;
        n.charges[{n.activity, category}] += cycles;
    }

    // A HAL service's charge, under its name (node::hal_charge_name).
    void charge(Node &n, HalCharge what) {
        charge(n, node::hal_charge_name(what), costs.cycles(what));
    }

    // A synchronisation point of the running activity: give way to anything due
    // earlier, then take interrupts (in thread context).
    void sync(Node &n) {
        if (failed) {
            park(n);
        }
        if (!queue.empty() && queue.top()->time < n.now) {
            schedule_resume(n, n.now);
            swapcontext(n.running_ctx, &sched_ctx);
            if (failed) {
                park(n);
            }
        }
        if (!n.in_irq && n.current != nullptr) {
            take_interrupts(n);
        }
    }

    int any_line(Node &n) {
        for (unsigned line = 0; line < 2; ++line) {
            if (n.handlers[line].fn != nullptr && line_level(n, line)) {
                return static_cast<int>(line);
            }
        }
        return -1;
    }

    void take_interrupts(Node &n) {
        uint64_t guard = 0;
        for (int line; (line = any_line(n)) >= 0;) {
            if (++guard > 10000000) {
                fail(n, "interrupt line " + std::to_string(line) +
                            " stays asserted after its handler returns");
            }
            std::string saved = n.activity;
            n.in_irq = true;
            n.activity = "irq";
            n.irq_count[line]++;
            charge(n, HalCharge::IrqEntry);
            n.handlers[line].fn(&n.h, n.handlers[line].arg);
            charge(n, HalCharge::IrqExit);
            n.in_irq = false;
            n.activity = saved;
        }
    }

    static void dispatcher_entry(unsigned hi, unsigned lo) {
        Node *n = reinterpret_cast<Node *>((static_cast<uintptr_t>(hi) << 32) | lo);
        n->m->dispatcher(*n);
    }

    void dispatcher(Node &n) {
        for (;;) {
            n.current = nullptr;
            n.running_ctx = &n.disp_ctx;
            n.activity = "irq";
            take_interrupts(n);
            if (!n.ready.empty()) {
                Thread *t = n.ready.front();
                n.ready.pop_front();
                n.current = t;
                n.activity = t->name;
                t->state = ThreadState::Running;
                if (node::charges_context_switch(n.last_ran, t->id)) {
                    charge(n, HalCharge::ContextSwitch);
                }
                n.last_ran = t->id;
                n.running_ctx = &t->ctx;
                swapcontext(&n.disp_ctx, &t->ctx);
                continue;
            }
            n.idle = true;
            swapcontext(&n.disp_ctx, &sched_ctx);
            n.idle = false;
        }
    }

    // From a thread: give the CPU back to the dispatcher.
    void block(Node &n) {
        Thread *t = n.current;
        swapcontext(&t->ctx, &n.disp_ctx);
        if (failed) {
            park(n);
        }
    }

    static void thread_entry(unsigned hi, unsigned lo) {
        Thread *t = reinterpret_cast<Thread *>((static_cast<uintptr_t>(hi) << 32) | lo);
        if (t->test_fn) {
            t->test_fn(&t->node->h);
        } else {
            t->fn(&t->node->h, t->arg);
        }
        t->node->m->thread_exit(*t->node);
    }

    [[noreturn]] void thread_exit(Node &n) {
        charge(n, HalCharge::ThreadExit);
        n.current->state = ThreadState::Done;
        swapcontext(&n.current->ctx, &n.disp_ctx);
        std::abort();
    }

    Thread *make_thread(Node &n, const std::string &name) {
        auto t = std::make_unique<Thread>();
        t->node = &n;
        t->id = n.threads.size() + 1;
        t->name = name;
        t->stack.reset(new char[opts.stack_bytes]);
        getcontext(&t->ctx);
        t->ctx.uc_stack.ss_sp = t->stack.get();
        t->ctx.uc_stack.ss_size = opts.stack_bytes;
        t->ctx.uc_link = nullptr;
        uintptr_t p = reinterpret_cast<uintptr_t>(t.get());
        makecontext(&t->ctx, reinterpret_cast<void (*)()>(&thread_entry), 2,
                    static_cast<unsigned>(p >> 32), static_cast<unsigned>(p & 0xffffffffu));
        Thread *raw = t.get();
        n.threads.push_back(std::move(t));
        n.ready.push_back(raw);
        return raw;
    }

    bool run() {
        load_costs();
        for (auto &np : nodes) {
            Node &n = *np;
            n.disp_stack.reset(new char[opts.stack_bytes]);
            getcontext(&n.disp_ctx);
            n.disp_ctx.uc_stack.ss_sp = n.disp_stack.get();
            n.disp_ctx.uc_stack.ss_size = opts.stack_bytes;
            n.disp_ctx.uc_link = nullptr;
            uintptr_t p = reinterpret_cast<uintptr_t>(&n);
            makecontext(&n.disp_ctx, reinterpret_cast<void (*)()>(&dispatcher_entry), 2,
                        static_cast<unsigned>(p >> 32), static_cast<unsigned>(p & 0xffffffffu));
            n.running_ctx = &n.disp_ctx;
            schedule_resume(n, 0);
        }
        while (!failed && !queue.empty()) {
            Item *it = queue.top();
            queue.pop();
            if (it->time > opts.max_cycles) {
                failed = true;
                failure = "time limit of " + std::to_string(opts.max_cycles) + " cycles reached";
                delete it;
                break;
            }
            if (it->resume != nullptr) {
                Node &n = *it->resume;
                n.scheduled = false;
                n.now = std::max(n.now, it->time);
                delete it;
                swapcontext(&sched_ctx, n.running_ctx);
            } else {
                current_event_time = it->time;
                it->event();
                delete it;
            }
        }
        return !failed;
    }

    // ---- memory ----
    void *mem_alloc(Node &n, uint32_t bytes, uint32_t align) {
        charge(n, HalCharge::MemAlloc);
        if (align == 0) {
            align = 1;
        }
        if (bytes == 0) {
            bytes = 1;
        }
        for (auto it = n.free_blocks.begin(); it != n.free_blocks.end(); ++it) {
            uint32_t a = (it->first + align - 1) / align * align;
            if (a + bytes <= it->first + it->second) {
                uint32_t start = it->first, size = it->second;
                n.free_blocks.erase(it);
                if (a > start) {
                    n.free_blocks[start] = a - start;
                }
                if (a + bytes < start + size) {
                    n.free_blocks[a + bytes] = start + size - (a + bytes);
                }
                n.allocated[a] = bytes;
                return n.mem.data() + a;
            }
        }
        uint64_t a = (uint64_t(n.brk) + align - 1) / align * align;
        if (a + bytes > n.mem.size()) {
            return nullptr;
        }
        if (a > n.brk) {
            n.free_blocks[n.brk] = static_cast<uint32_t>(a - n.brk);
        }
        n.brk = static_cast<uint32_t>(a + bytes);
        n.allocated[static_cast<uint32_t>(a)] = bytes;
        return n.mem.data() + a;
    }

    void mem_free(Node &n, void *p) {
        if (p == nullptr) {
            return;
        }
        charge(n, HalCharge::MemAlloc);
        uint32_t a = mem_addr(n, p);
        auto it = n.allocated.find(a);
        if (it == n.allocated.end()) {
            fail(n, "hal_mem_free of a pointer hal_mem_alloc did not return");
        }
        n.free_blocks[a] = it->second;
        n.allocated.erase(it);
    }

    uint32_t mem_addr(Node &n, const void *p) {
        auto *b = static_cast<const uint8_t *>(p);
        if (b < n.mem.data() || b >= n.mem.data() + n.mem.size()) {
            fail(n, "hal_mem_addr of a pointer outside node memory");
        }
        return static_cast<uint32_t>(b - n.mem.data());
    }

    // ---- the fake NI ----

    bool line_level(Node &n, unsigned line) {
        if (line == HW_IRQ_NI_RX) {
            return n.ni.core->rx_irq();
        }
        if (line == HW_IRQ_NI_TX) {
            return n.ni.core->tx_irq();
        }
        return false;
    }

    // After the core acted: copy accepted bodies (the fake's DMA takes no time),
    // let held messages in, and wake the node if an interrupt line rose.
    void settle(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        while (!ni.to_copy.empty()) {
            auto [handle, fragment] = std::move(ni.to_copy.front());
            ni.to_copy.pop_front();
            ni.core->deposit(handle, fragment);
        }
        admit(n, time);
        poke(n, time);
    }

    // Moves messages the network holds into the NI while it can take them.
    void admit(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        node::NiCore &core = *ni.core;
        while (core.enabled() && core.ring_has_room() && !ni.inbound.empty()) {
            Message msg = std::move(ni.inbound.front());
            ni.inbound.pop_front();
            const auto body_bytes = static_cast<uint32_t>(msg.body.size());
            const bool delayed = body_bytes > 0 && opts.body_delay_cycles > 0;
            uint32_t handle =
                core.begin_message(msg.src, msg.hdr.data(), static_cast<uint32_t>(msg.hdr.size()),
                                   body_bytes, delayed ? body_bytes : 0);
            if (body_bytes == 0) {
                continue;
            }
            auto body = std::make_shared<node::NiFragment>();
            body->length = body_bytes;
            body->bytes = std::move(msg.body);
            if (!delayed) {
                core.fragment_arrived(handle, std::move(*body), false);
                continue;
            }
            Node *np = &n;
            at(time + opts.body_delay_cycles, [this, np, handle, body] {
                np->ni.core->fragment_arrived(handle, std::move(*body), true);
                settle(*np, current_event_time);
            });
        }
    }

    void start_tx(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        ni.tx_active = true;
        const node::NiTxDescriptor &d = ni.core->tx_descriptor(ni.tx_next);
        uint64_t bytes = HW_NI_FRAME_BYTES + d.header.size() + d.body_bytes;
        uint64_t done = time + (bytes + opts.bytes_per_cycle - 1) / opts.bytes_per_cycle;
        Node *np = &n;
        at(done, [this, np, done] { complete_tx(*np, done); });
    }

    void complete_tx(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        const uint64_t serial = ni.tx_next++;
        const node::NiTxDescriptor &d = ni.core->tx_descriptor(serial);
        Message msg;
        msg.src = n.id;
        msg.hdr.assign(d.header.begin(), d.header.end());
        // The body is read as it leaves: a sender that reuses it early sends garbage.
        msg.body.assign(n.mem.data() + d.body_addr, n.mem.data() + d.body_addr + d.body_bytes);
        if (!msg.body.empty() && ++bodies == opts.corrupt_body_nth) {
            for (uint8_t &b : msg.body) {
                b ^= 0x40;
            }
            corrupted_type = msg.hdr.empty() ? 0 : msg.hdr[0];
        }
        Node *dst = nodes[d.dest].get();
        ni.core->tx_finished(serial); // retires d
        auto shared = std::make_shared<Message>(std::move(msg));
        at(time + opts.latency_cycles, [this, dst, shared] {
            delivered++;
            const node::NiCore &core = *dst->ni.core;
            if (!core.enabled() || !core.ring_has_room() || !dst->ni.inbound.empty()) {
                held++;
            }
            dst->ni.inbound.push_back(std::move(*shared));
            settle(*dst, current_event_time);
        });
        if (ni.tx_next < ni.core->tx_pushed()) {
            start_tx(n, time);
        } else {
            ni.tx_active = false;
        }
        poke(n, time);
    }

    uint32_t reg_access(Node &n, uint32_t addr, bool write, uint32_t value) {
        charge(n, node::register_access_charge(write));
        if (!opts.irq_after_access) {
            sync(n);
        }
        uint32_t result = 0;
        if (addr < HW_NI_BASE || addr >= HW_NI_BASE + HW_NI_SIZE) {
            char why[100];
            std::snprintf(why, sizeof why, "%s of unmapped register address 0x%08x",
                          write ? "write" : "read", addr);
            fail(n, why);
        }
        common::RegisterBlock &regs = n.ni.core->registers();
        if (write) {
            regs.write(addr - HW_NI_BASE, value);
        } else {
            regs.read(addr - HW_NI_BASE, result);
        }
        settle(n, n.now);
        if (opts.irq_after_access) {
            sync(n);
        }
        return result;
    }
};

namespace {

void FakeNi::ni_fault(uint32_t, const std::string &reg, const std::string &what) {
    owner->m->fail(*owner, "NI register " + reg + ": " + what);
}

void FakeNi::ni_tx_pushed() {
    FakeMachine::Impl &m = *owner->m;
    if (core->tx_free() == 0) {
        m.tx_full++;
    }
    if (!tx_active) {
        m.start_tx(*owner, owner->now);
    }
}

} // namespace

// ---- FakeMachine -------------------------------------------------------------------------------

FakeMachine::FakeMachine(const FakeOptions &opts) : impl_(std::make_unique<Impl>()) {
    impl_->opts = opts;
    unsigned count = opts.cp_count + opts.iop_count;
    for (unsigned i = 0; i < count; ++i) {
        auto n = std::make_unique<Node>();
        n->m = impl_.get();
        n->h.node = n.get();
        n->id = i;
        n->mem.assign(opts.memory_bytes, 0);
        n->free_blocks.clear();
        n->ni.owner = n.get();
        node::NiCore::Config ni;
        ni.node_id = i;
        ni.node_count = count;
        ni.tx_queue_depth = opts.tx_queue_depth;
        ni.rx_buffer_bytes = UINT64_MAX; // the network holds whole messages instead
        n->ni.core = std::make_unique<node::NiCore>(ni, n->ni, n->mem.data(), opts.memory_bytes);
        impl_->nodes.push_back(std::move(n));
    }
    set_defaults(sim::parameter_registry());
}

FakeMachine::~FakeMachine() = default;

void FakeMachine::set_defaults(const config::Registry &registry) {
    for (const auto &[key, spec] : registry.all()) {
        switch (spec.type) {
        case config::ParamType::Int:
            set_int(key, spec.default_value.get<int64_t>());
            break;
        case config::ParamType::Bool:
            set_int(key, spec.default_value.get<bool>() ? 1 : 0);
            break;
        case config::ParamType::Real:
            set_real(key, spec.default_value.get<double>());
            break;
        case config::ParamType::String:
            set_string(key, spec.default_value.get<std::string>());
            break;
        }
    }
}

void FakeMachine::set_int(const std::string &key, int64_t value) {
    Value v;
    v.type = Value::Int;
    v.i = value;
    v.r = static_cast<double>(value);
    impl_->config[key] = v;
    impl_->costs_loaded = false;
}

void FakeMachine::set_real(const std::string &key, double value) {
    Value v;
    v.type = Value::Real;
    v.r = value;
    impl_->config[key] = v;
}

void FakeMachine::set_string(const std::string &key, const std::string &value) {
    Value v;
    v.type = Value::String;
    v.s = value;
    impl_->config[key] = v;
}

unsigned FakeMachine::node_count() const {
    return static_cast<unsigned>(impl_->nodes.size());
}
hal_t *FakeMachine::hal(unsigned node) {
    return &impl_->nodes.at(node)->h;
}

void FakeMachine::spawn(unsigned node, std::function<void(hal_t *)> fn, const std::string &name) {
    Thread *t = impl_->make_thread(*impl_->nodes.at(node), name);
    t->test_fn = std::move(fn);
    t->spawned_by_test = true;
}

bool FakeMachine::run() {
    return impl_->run();
}
const std::string &FakeMachine::failure() const {
    return impl_->failure;
}

bool FakeMachine::spawned_threads_finished() const {
    for (const auto &n : impl_->nodes) {
        for (const auto &t : n->threads) {
            if (t->spawned_by_test && t->state != ThreadState::Done) {
                return false;
            }
        }
    }
    return true;
}

uint64_t FakeMachine::now(unsigned node) const {
    return impl_->nodes.at(node)->now;
}

uint64_t FakeMachine::charged(unsigned node, const std::string &activity,
                              const std::string &category) const {
    uint64_t sum = 0;
    for (const auto &[key, cycles] : impl_->nodes.at(node)->charges) {
        if ((activity.empty() || key.first == activity) &&
            (category.empty() || key.second == category)) {
            sum += cycles;
        }
    }
    return sum;
}

std::map<std::string, uint64_t> FakeMachine::charges(unsigned node,
                                                     const std::string &activity) const {
    std::map<std::string, uint64_t> out;
    for (const auto &[key, cycles] : impl_->nodes.at(node)->charges) {
        if (activity.empty() || key.first == activity) {
            out[key.second] += cycles;
        }
    }
    return out;
}

const std::map<std::string, uint64_t> &FakeMachine::exports(unsigned node) const {
    return impl_->nodes.at(node)->exports;
}

void FakeMachine::set_observed(unsigned node, bool on) {
    impl_->nodes.at(node)->observed = on;
}

const std::vector<FakeMachine::Probe> &FakeMachine::probes(unsigned node) const {
    return impl_->nodes.at(node)->probes;
}

const std::vector<FakeMachine::Note> &FakeMachine::notes(unsigned node) const {
    return impl_->nodes.at(node)->notes;
}

uint8_t *FakeMachine::memory(unsigned node) {
    return impl_->nodes.at(node)->mem.data();
}

uint64_t FakeMachine::interrupts(unsigned node, unsigned line) const {
    return impl_->nodes.at(node)->irq_count[line];
}

uint64_t FakeMachine::messages_delivered() const {
    return impl_->delivered;
}
uint64_t FakeMachine::tx_queue_full_pushes() const {
    return impl_->tx_full;
}
uint64_t FakeMachine::held_messages() const {
    return impl_->held;
}
uint64_t FakeMachine::bodies_sent() const {
    return impl_->bodies;
}
int FakeMachine::corrupted_type() const {
    return impl_->corrupted_type;
}

} // namespace starfish::fwtest

// ---- the HAL ------------------------------------------------------------------------------------

using starfish::fwtest::Node;

namespace {
Node &N(hal_t *h) {
    return *h->node;
}
auto &M(hal_t *h) {
    return *h->node->m;
}
starfish::fwtest::Sem &sem_of(hal_t *h, hal_sem_t *s) {
    Node &n = N(h);
    if (s->handle == 0 || s->handle >= n.sems.size()) {
        M(h).fail(n, "semaphore used before hal_sem_init");
    }
    return n.sems[s->handle];
}
} // namespace

extern "C" {

unsigned hal_node_id(hal_t *h) {
    return N(h).id;
}
hal_role_t hal_role(hal_t *h) {
    return N(h).id < M(h).opts.cp_count ? HAL_ROLE_CP : HAL_ROLE_IOP;
}
unsigned hal_role_index(hal_t *h) {
    unsigned id = N(h).id;
    return id < M(h).opts.cp_count ? id : id - M(h).opts.cp_count;
}
unsigned hal_cp_count(hal_t *h) {
    return M(h).opts.cp_count;
}
unsigned hal_iop_count(hal_t *h) {
    return M(h).opts.iop_count;
}
unsigned hal_disks_per_iop(hal_t *h) {
    return M(h).opts.disks_per_iop;
}
unsigned hal_trial(hal_t *h) {
    return M(h).opts.trial;
}
unsigned hal_cp_node(hal_t *, unsigned k) {
    return k;
}
unsigned hal_iop_node(hal_t *h, unsigned k) {
    return M(h).opts.cp_count + k;
}

uint64_t hal_now_cycles(hal_t *h) {
    return N(h).now;
}
void hal_cycles(hal_t *h, uint32_t n) {
    M(h).charge(N(h), "fw", n);
    if (M(h).opts.sync_on_cycles) {
        M(h).sync(N(h));
    }
}

void hal_sleep_cycles(hal_t *h, uint64_t cycles) {
    Node &n = N(h);
    auto &m = M(h);
    if (n.current == nullptr || n.in_irq) {
        m.fail(n, "hal_sleep_cycles outside a thread");
    }
    starfish::fwtest::Thread *t = n.current;
    t->state = starfish::fwtest::ThreadState::Blocked;
    Node *np = &n;
    m.at(n.now + cycles, [&m, np, t] {
        t->state = starfish::fwtest::ThreadState::Ready;
        np->ready.push_back(t);
        m.poke(*np, m.current_event_time);
    });
    m.block(n);
}

int hal_thread_spawn(hal_t *h, hal_thread_fn fn, void *arg, const char *name) {
    Node &n = N(h);
    auto &m = M(h);
    m.charge(n, starfish::node::HalCharge::ThreadCreate);
    if (n.threads.size() >= m.opts.max_threads) {
        return -1;
    }
    starfish::fwtest::Thread *t = m.make_thread(n, name != nullptr ? name : "thread");
    t->fn = fn;
    t->arg = arg;
    return 0;
}

void hal_thread_exit(hal_t *h) {
    if (N(h).current == nullptr || N(h).in_irq) {
        M(h).fail(N(h), "hal_thread_exit outside a thread");
    }
    M(h).thread_exit(N(h));
}

void hal_yield(hal_t *h) {
    Node &n = N(h);
    auto &m = M(h);
    if (n.current == nullptr || n.in_irq) {
        m.fail(n, "hal_yield outside a thread");
    }
    m.charge(n, starfish::node::HalCharge::Yield);
    m.sync(n);
    n.current->state = starfish::fwtest::ThreadState::Ready;
    n.ready.push_back(n.current);
    m.block(n);
}

void hal_sem_init(hal_t *h, hal_sem_t *s, uint32_t initial) {
    Node &n = N(h);
    s->count = initial;
    s->handle = static_cast<uint32_t>(n.sems.size());
    n.sems.emplace_back();
}

// The common part of hal_sem_wait and hal_sem_wait_timeout: charges, takes a unit
// if there is one (true), else queues the calling thread (it must block next).
static bool take_or_queue(hal_t *h, hal_sem_t *s, const char *service) {
    Node &n = N(h);
    auto &m = M(h);
    if (n.current == nullptr || n.in_irq) {
        m.fail(n, std::string(service) + " outside a thread");
    }
    m.charge(n, starfish::node::HalCharge::SemWait);
    m.sync(n);
    if (s->count > 0) {
        s->count--;
        return true;
    }
    sem_of(h, s).waiters.push_back(n.current);
    n.current->state = starfish::fwtest::ThreadState::Blocked;
    return false;
}

void hal_sem_wait(hal_t *h, hal_sem_t *s) {
    if (!take_or_queue(h, s, "hal_sem_wait")) {
        M(h).block(N(h));
    }
}

int hal_sem_wait_timeout(hal_t *h, hal_sem_t *s, uint64_t cycles) {
    Node &n = N(h);
    auto &m = M(h);
    if (take_or_queue(h, s, "hal_sem_wait_timeout")) {
        return 0;
    }
    starfish::fwtest::Thread *t = n.current;
    t->timed_out = false;
    Node *np = &n;
    uint32_t handle = s->handle;
    m.at(n.now + cycles, [&m, np, t, handle] {
        auto &sem = np->sems[handle];
        auto it = std::find(sem.waiters.begin(), sem.waiters.end(), t);
        if (it == sem.waiters.end()) {
            return; // posted in time
        }
        sem.waiters.erase(it);
        t->timed_out = true;
        t->state = starfish::fwtest::ThreadState::Ready;
        np->ready.push_back(t);
        m.poke(*np, m.current_event_time);
    });
    m.block(n);
    return t->timed_out ? -1 : 0;
}

// Names and reports serve the node model's watchdog; the fake HAL has none.
void hal_sem_name(hal_t *, const hal_sem_t *, const char *, int) {}
void hal_report_register(hal_t *, hal_report_fn, void *) {}
void hal_report_line(hal_t *, const char *) {}

void hal_sem_post(hal_t *h, hal_sem_t *s) {
    Node &n = N(h);
    auto &m = M(h);
    m.charge(n, starfish::node::HalCharge::SemPost);
    auto &sem = sem_of(h, s);
    if (sem.waiters.empty()) {
        s->count++;
        return;
    }
    starfish::fwtest::Thread *t = sem.waiters.front();
    sem.waiters.pop_front();
    t->state = starfish::fwtest::ThreadState::Ready;
    m.charge(n, starfish::node::HalCharge::ThreadWakeup);
    n.ready.push_back(t);
}

void hal_irq_register(hal_t *h, unsigned line, hal_irq_fn fn, void *arg) {
    Node &n = N(h);
    if (line >= HW_IRQ_LINES) {
        M(h).fail(n, "hal_irq_register: no interrupt line " + std::to_string(line));
    }
    n.handlers[line].fn = fn;
    n.handlers[line].arg = arg;
}

void *hal_mem_alloc(hal_t *h, uint32_t bytes, uint32_t align) {
    return M(h).mem_alloc(N(h), bytes, align);
}
void hal_mem_free(hal_t *h, void *p) {
    M(h).mem_free(N(h), p);
}
uint32_t hal_mem_addr(hal_t *h, const void *p) {
    return M(h).mem_addr(N(h), p);
}
void *hal_mem_ptr(hal_t *h, uint32_t addr) {
    Node &n = N(h);
    return addr < n.mem.size() ? n.mem.data() + addr : nullptr;
}

uint32_t hal_reg_read(hal_t *h, uint32_t addr) {
    return M(h).reg_access(N(h), addr, false, 0);
}
void hal_reg_write(hal_t *h, uint32_t addr, uint32_t value) {
    M(h).reg_access(N(h), addr, true, value);
}

int64_t hal_config_int(hal_t *h, const char *key) {
    const starfish::fwtest::Value *v = M(h).find(N(h), key, "int");
    if (v->type != starfish::fwtest::Value::Int) {
        M(h).fail(N(h), std::string("hal_config_int: \"") + key + "\" is not an Int");
    }
    return v->i;
}

double hal_config_real(hal_t *h, const char *key) {
    const starfish::fwtest::Value *v = M(h).find(N(h), key, "real");
    if (v->type == starfish::fwtest::Value::String) {
        M(h).fail(N(h), std::string("hal_config_real: \"") + key + "\" is a String");
    }
    return v->type == starfish::fwtest::Value::Int ? static_cast<double>(v->i) : v->r;
}

const char *hal_config_string(hal_t *h, const char *key) {
    const starfish::fwtest::Value *v = M(h).find(N(h), key, "string");
    if (v->type != starfish::fwtest::Value::String) {
        M(h).fail(N(h), std::string("hal_config_string: \"") + key + "\" is not a String");
    }
    return v->s.c_str();
}

void hal_set_context(hal_t *h, void *ctx) {
    N(h).context = ctx;
}
void *hal_context(hal_t *h) {
    return N(h).context;
}

int hal_observed(hal_t *h) {
    return N(h).observed ? 1 : 0;
}

void hal_probe(hal_t *h, hal_probe_t probe, uint32_t index, int64_t value) {
    Node &n = N(h);
    if (n.observed) {
        n.probes.push_back({hal_now_cycles(h), probe, index, value});
    }
}

void hal_note(hal_t *h, const char *op, hal_note_dir_t dir, uint64_t id, const char *fields) {
    Node &n = N(h);
    if (n.observed) {
        n.notes.push_back({hal_now_cycles(h), op, dir, id, fields != nullptr ? fields : ""});
    }
}

void hal_export(hal_t *h, const char *name, uint64_t value) {
    N(h).exports[name] = value;
}

void hal_fail(hal_t *h, const char *message) {
    M(h).fail(N(h), std::string("hal_fail: ") + message);
}

} // extern "C"
