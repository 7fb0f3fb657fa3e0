#include "tests/fw/fake_hal.h"

#include "hw/config/config.h"
#include "hw/ni_regs.h"
#include "hw/node_map.h"
#include "sim/parameters.h"

#include <ucontext.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <queue>
#include <vector>

namespace starfish::fwtest {

namespace {

struct Node;

// The HAL service costs the fake charges (cost.*, read from the configuration).
struct Costs {
    uint32_t reg_read, reg_write, irq_entry, irq_exit, context_switch, thread_create, thread_exit,
        sem_post, sem_wait, thread_wakeup, yield, mem_alloc;
};

struct Value {
    enum Type { Int, Real, String } type = Int;
    int64_t i = 0;
    double r = 0;
    std::string s;
};

enum class ThreadState { Ready, Running, Blocked, Done };

struct Thread {
    Node *node = nullptr;
    std::string name;
    hal_thread_fn fn = nullptr;
    void *arg = nullptr;
    std::function<void(hal_t *)> test_fn;
    bool spawned_by_test = false;
    ThreadState state = ThreadState::Ready;
    ucontext_t ctx{};
    std::unique_ptr<char[]> stack;
};

struct Message {
    unsigned src = 0;
    std::vector<uint8_t> hdr;
    std::vector<uint8_t> body;
};

struct Waiting {
    Message msg;
    bool arrived = false;
    bool answered = false;
    uint32_t op = 0;
    uint32_t addr = 0;
    uint32_t cookie = 0;
};

struct TxDesc {
    unsigned dest = 0;
    std::vector<uint8_t> hdr;
    uint32_t body_addr = 0;
    uint32_t body_bytes = 0;
    bool notify = false;
    uint32_t cookie = 0;
};

struct FakeNi {
    uint32_t ctrl = 0, error = 0;
    uint32_t tx_dest = 0, tx_hdr_addr = 0, tx_hdr_bytes = 0, tx_body_addr = 0, tx_body_bytes = 0,
             tx_cookie = 0;
    uint32_t ring_base = 0, ring_slots = 0, rx_index = 0, rx_count = 0, rx_body_addr = 0,
             rx_cookie = 0;
    std::deque<TxDesc> txq; // pushed and not yet completed (front is being sent)
    bool tx_active = false;
    std::deque<uint32_t> done_fifo;
    std::deque<Message> inbound;                   // held by the network
    std::deque<hw_ni_rx_record_t> pending_records; // DONE records waiting for a slot
    std::map<uint32_t, Waiting> waiting;
    uint32_t next_handle = 1;
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
    Thread *last_ran = nullptr;
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
    Costs costs{};
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
        costs = {cost("cost.reg_read_cycles"),       cost("cost.reg_write_cycles"),
                 cost("cost.irq_entry_cycles"),      cost("cost.irq_exit_cycles"),
                 cost("cost.context_switch_cycles"), cost("cost.thread_create_cycles"),
                 cost("cost.thread_exit_cycles"),    cost("cost.sem_post_cycles"),
                 cost("cost.sem_wait_cycles"),       cost("cost.thread_wakeup_cycles"),
                 cost("cost.yield_cycles"),          cost("cost.mem_alloc_cycles")};
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
            charge(n, "irq_entry", costs.irq_entry);
            n.handlers[line].fn(&n.h, n.handlers[line].arg);
            charge(n, "irq_exit", costs.irq_exit);
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
                if (n.last_ran != t) {
                    charge(n, "context_switch", costs.context_switch);
                }
                n.last_ran = t;
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
        charge(n, "thread_exit", costs.thread_exit);
        n.current->state = ThreadState::Done;
        swapcontext(&n.current->ctx, &n.disp_ctx);
        std::abort();
    }

    Thread *make_thread(Node &n, const std::string &name) {
        auto t = std::make_unique<Thread>();
        t->node = &n;
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
        charge(n, "mem_alloc", costs.mem_alloc);
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

    bool in_memory(Node &n, uint32_t addr, uint32_t len) {
        return len <= n.mem.size() && addr <= n.mem.size() - len;
    }

    // ---- the fake NI ----

    [[noreturn]] void ni_error(Node &n, uint32_t code, uint32_t off, const std::string &why) {
        if (n.ni.error == 0) {
            n.ni.error = code;
        }
        const char *reg = hw_ni_reg_name(off);
        fail(n, std::string("NI register ") + (reg != nullptr ? reg : "(undefined)") + ": " + why);
    }

    uint32_t tx_free(Node &n) {
        return opts.tx_queue_depth - static_cast<uint32_t>(n.ni.txq.size());
    }

    bool line_level(Node &n, unsigned line) {
        const FakeNi &ni = n.ni;
        if (line == HW_IRQ_NI_RX) {
            return ni.rx_count > 0 && (ni.ctrl & HW_NI_CTRL_RX_IRQ);
        }
        if (line == HW_IRQ_NI_TX) {
            return (!ni.done_fifo.empty() && (ni.ctrl & HW_NI_CTRL_TX_IRQ)) ||
                   (tx_free(n) > 0 && (ni.ctrl & HW_NI_CTRL_TX_SPACE_IRQ));
        }
        return false;
    }

    bool ring_ok(Node &n) {
        const FakeNi &ni = n.ni;
        uint32_t s = ni.ring_slots;
        return ni.ring_base % HW_NI_RX_RECORD_BYTES == 0 && s >= 2 && (s & (s - 1)) == 0 &&
               in_memory(n, ni.ring_base, s * HW_NI_RX_RECORD_BYTES);
    }

    void write_record(Node &n, const hw_ni_rx_record_t &rec) {
        FakeNi &ni = n.ni;
        uint32_t slot = (ni.rx_index + ni.rx_count) % ni.ring_slots;
        std::memcpy(n.mem.data() + ni.ring_base + slot * HW_NI_RX_RECORD_BYTES, &rec, sizeof rec);
        ni.rx_count++;
    }

    // Moves waiting DONE records and held messages into free ring slots.
    void admit(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        if (!(ni.ctrl & HW_NI_CTRL_ENABLE)) {
            return;
        }
        while (ni.rx_count < ni.ring_slots && !ni.pending_records.empty()) {
            write_record(n, ni.pending_records.front());
            ni.pending_records.pop_front();
        }
        while (ni.rx_count < ni.ring_slots && ni.pending_records.empty() && !ni.inbound.empty()) {
            Message msg = std::move(ni.inbound.front());
            ni.inbound.pop_front();
            hw_ni_rx_record_t rec;
            std::memset(&rec, 0, sizeof rec);
            rec.kind = HW_NI_REC_HEADER;
            rec.src_node = msg.src;
            rec.hdr_bytes = static_cast<uint32_t>(msg.hdr.size());
            rec.body_bytes = static_cast<uint32_t>(msg.body.size());
            std::memcpy(rec.header, msg.hdr.data(), msg.hdr.size());
            rec.handle = HW_NI_NONE;
            if (!msg.body.empty()) {
                uint32_t handle = ni.next_handle++ & 0x00ffffffu;
                rec.handle = handle;
                Waiting &w = ni.waiting[handle];
                w.msg = std::move(msg);
                w.arrived = opts.body_delay_cycles == 0;
                if (!w.arrived) {
                    Node *np = &n;
                    at(time + opts.body_delay_cycles, [this, np, handle] {
                        Waiting &ww = np->ni.waiting[handle];
                        ww.arrived = true;
                        if (ww.answered) {
                            deposit(*np, handle, current_event_time);
                        }
                    });
                }
            }
            write_record(n, rec);
        }
        poke(n, time);
    }

    void deposit(Node &n, uint32_t handle, uint64_t time) {
        FakeNi &ni = n.ni;
        auto it = ni.waiting.find(handle);
        Waiting &w = it->second;
        std::memcpy(n.mem.data() + w.addr, w.msg.body.data(), w.msg.body.size());
        if (w.op == HW_NI_RX_ACCEPT_NOTIFY) {
            hw_ni_rx_record_t rec;
            std::memset(&rec, 0, sizeof rec);
            rec.kind = HW_NI_REC_DONE;
            rec.src_node = w.msg.src;
            rec.handle = handle;
            rec.cookie = w.cookie;
            rec.body_bytes = static_cast<uint32_t>(w.msg.body.size());
            ni.pending_records.push_back(rec);
        }
        ni.waiting.erase(it);
        admit(n, time);
    }

    void start_tx(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        ni.tx_active = true;
        const TxDesc &d = ni.txq.front();
        uint64_t bytes = HW_NI_FRAME_BYTES + d.hdr.size() + d.body_bytes;
        uint64_t done = time + (bytes + opts.bytes_per_cycle - 1) / opts.bytes_per_cycle;
        Node *np = &n;
        at(done, [this, np, done] { complete_tx(*np, done); });
    }

    void complete_tx(Node &n, uint64_t time) {
        FakeNi &ni = n.ni;
        TxDesc d = std::move(ni.txq.front());
        ni.txq.pop_front();
        Message msg;
        msg.src = n.id;
        msg.hdr = std::move(d.hdr);
        // The body is read as it leaves: a sender that reuses it early sends garbage.
        msg.body.assign(n.mem.data() + d.body_addr, n.mem.data() + d.body_addr + d.body_bytes);
        if (!msg.body.empty() && ++bodies == opts.corrupt_body_nth) {
            for (uint8_t &b : msg.body) {
                b ^= 0x40;
            }
            corrupted_type = msg.hdr.empty() ? 0 : msg.hdr[0];
        }
        if (d.notify) {
            ni.done_fifo.push_back(d.cookie);
        }
        Node *dst = nodes[d.dest].get();
        auto shared = std::make_shared<Message>(std::move(msg));
        at(time + opts.latency_cycles, [this, dst, shared] {
            delivered++;
            bool blocked = !(dst->ni.ctrl & HW_NI_CTRL_ENABLE) ||
                           dst->ni.rx_count >= dst->ni.ring_slots || !dst->ni.inbound.empty();
            if (blocked) {
                held++;
            }
            dst->ni.inbound.push_back(std::move(*shared));
            admit(*dst, current_event_time);
        });
        if (!ni.txq.empty()) {
            start_tx(n, time);
        } else {
            ni.tx_active = false;
        }
        poke(n, time);
    }

    uint32_t ni_read(Node &n, uint32_t off) {
        FakeNi &ni = n.ni;
        switch (off) {
        case HW_NI_REG_ID:
            return HW_NI_ID_VALUE;
        case HW_NI_REG_NODE:
            return n.id;
        case HW_NI_REG_CTRL:
            return ni.ctrl;
        case HW_NI_REG_ERROR:
            return ni.error;
        case HW_NI_REG_TX_DEST:
            return ni.tx_dest;
        case HW_NI_REG_TX_HDR_ADDR:
            return ni.tx_hdr_addr;
        case HW_NI_REG_TX_HDR_BYTES:
            return ni.tx_hdr_bytes;
        case HW_NI_REG_TX_BODY_ADDR:
            return ni.tx_body_addr;
        case HW_NI_REG_TX_BODY_BYTES:
            return ni.tx_body_bytes;
        case HW_NI_REG_TX_COOKIE:
            return ni.tx_cookie;
        case HW_NI_REG_TX_FREE:
            return tx_free(n);
        case HW_NI_REG_TX_DONE: {
            if (ni.done_fifo.empty()) {
                return HW_NI_NONE;
            }
            uint32_t c = ni.done_fifo.front();
            ni.done_fifo.pop_front();
            return c;
        }
        case HW_NI_REG_RX_RING_BASE:
            return ni.ring_base;
        case HW_NI_REG_RX_RING_SLOTS:
            return ni.ring_slots;
        case HW_NI_REG_RX_COUNT:
            return ni.rx_count;
        case HW_NI_REG_RX_INDEX:
            return ni.rx_index;
        case HW_NI_REG_RX_BODY_ADDR:
            return ni.rx_body_addr;
        case HW_NI_REG_RX_COOKIE:
            return ni.rx_cookie;
        default:
            ni_error(n, HW_NI_ERR_REG, off, "read of an undefined or write-only register");
        }
        return 0;
    }

    void ni_write(Node &n, uint32_t off, uint32_t v) {
        FakeNi &ni = n.ni;
        char why[200];
        switch (off) {
        case HW_NI_REG_CTRL:
            if ((v & HW_NI_CTRL_ENABLE) && !(ni.ctrl & HW_NI_CTRL_ENABLE) && !ring_ok(n)) {
                std::snprintf(why, sizeof why,
                              "enabled with a bad receive ring (base 0x%x, %u slots)", ni.ring_base,
                              ni.ring_slots);
                ni_error(n, HW_NI_ERR_RX_RING, off, why);
            }
            ni.ctrl = v;
            admit(n, n.now);
            return;
        case HW_NI_REG_TX_DEST:
            ni.tx_dest = v;
            return;
        case HW_NI_REG_TX_HDR_ADDR:
            ni.tx_hdr_addr = v;
            return;
        case HW_NI_REG_TX_HDR_BYTES:
            ni.tx_hdr_bytes = v;
            return;
        case HW_NI_REG_TX_BODY_ADDR:
            ni.tx_body_addr = v;
            return;
        case HW_NI_REG_TX_BODY_BYTES:
            ni.tx_body_bytes = v;
            return;
        case HW_NI_REG_TX_COOKIE:
            ni.tx_cookie = v;
            return;
        case HW_NI_REG_TX_PUSH: {
            if (tx_free(n) == 0) {
                ni_error(n, HW_NI_ERR_TX_OVERFLOW, off, "push while TX_FREE is 0");
            }
            if (ni.tx_dest >= nodes.size()) {
                std::snprintf(why, sizeof why, "TX_DEST %u names no node", ni.tx_dest);
                ni_error(n, HW_NI_ERR_TX_DEST, off, why);
            }
            if (ni.tx_hdr_bytes > HW_NI_HDR_MAX_BYTES || ni.tx_hdr_bytes % 4 != 0 ||
                ni.tx_body_bytes > HW_NI_MAX_BODY_BYTES ||
                (ni.tx_hdr_bytes == 0 && ni.tx_body_bytes == 0)) {
                std::snprintf(why, sizeof why, "bad sizes: TX_HDR_BYTES %u, TX_BODY_BYTES %u",
                              ni.tx_hdr_bytes, ni.tx_body_bytes);
                ni_error(n, HW_NI_ERR_TX_SIZE, off, why);
            }
            if (!in_memory(n, ni.tx_hdr_addr, ni.tx_hdr_bytes) ||
                !in_memory(n, ni.tx_body_addr, ni.tx_body_bytes)) {
                std::snprintf(why, sizeof why, "header 0x%x+%u or body 0x%x+%u outside node memory",
                              ni.tx_hdr_addr, ni.tx_hdr_bytes, ni.tx_body_addr, ni.tx_body_bytes);
                ni_error(n, HW_NI_ERR_TX_ADDR, off, why);
            }
            TxDesc d;
            d.dest = ni.tx_dest;
            d.hdr.assign(n.mem.data() + ni.tx_hdr_addr,
                         n.mem.data() + ni.tx_hdr_addr + ni.tx_hdr_bytes);
            d.body_addr = ni.tx_body_addr;
            d.body_bytes = ni.tx_body_bytes;
            d.notify = (v & HW_NI_TX_NOTIFY) != 0;
            d.cookie = ni.tx_cookie;
            ni.txq.push_back(std::move(d));
            if (tx_free(n) == 0) {
                tx_full++;
            }
            if (!ni.tx_active) {
                start_tx(n, n.now);
            }
            return;
        }
        case HW_NI_REG_RX_RING_BASE:
        case HW_NI_REG_RX_RING_SLOTS:
            if (ni.ctrl & HW_NI_CTRL_ENABLE) {
                ni_error(n, HW_NI_ERR_RX_RING, off, "ring changed while CTRL.ENABLE is set");
            }
            (off == HW_NI_REG_RX_RING_BASE ? ni.ring_base : ni.ring_slots) = v;
            return;
        case HW_NI_REG_RX_POP:
            if (ni.rx_count == 0) {
                ni_error(n, HW_NI_ERR_RX_POP, off, "pop with no waiting record");
            }
            ni.rx_index = (ni.rx_index + 1) % ni.ring_slots;
            ni.rx_count--;
            admit(n, n.now);
            return;
        case HW_NI_REG_RX_BODY_ADDR:
            ni.rx_body_addr = v;
            return;
        case HW_NI_REG_RX_COOKIE:
            ni.rx_cookie = v;
            return;
        case HW_NI_REG_RX_CMD: {
            uint32_t handle = HW_NI_RX_CMD_HANDLE(v);
            unsigned op = HW_NI_RX_CMD_OP(v);
            auto it = ni.waiting.find(handle);
            if (it == ni.waiting.end() || it->second.answered) {
                std::snprintf(why, sizeof why, "handle %u names no waiting message", handle);
                ni_error(n, HW_NI_ERR_RX_HANDLE, off, why);
            }
            Waiting &w = it->second;
            if (op == HW_NI_RX_DISCARD) {
                ni.waiting.erase(it);
                return;
            }
            if (op != HW_NI_RX_ACCEPT && op != HW_NI_RX_ACCEPT_NOTIFY) {
                std::snprintf(why, sizeof why, "unknown op %u", op);
                ni_error(n, HW_NI_ERR_RX_CMD, off, why);
            }
            if (!in_memory(n, ni.rx_body_addr, static_cast<uint32_t>(w.msg.body.size()))) {
                std::snprintf(why, sizeof why,
                              "body of %zu bytes at RX_BODY_ADDR 0x%x is outside "
                              "node memory",
                              w.msg.body.size(), ni.rx_body_addr);
                ni_error(n, HW_NI_ERR_RX_ADDR, off, why);
            }
            w.answered = true;
            w.op = op;
            w.addr = ni.rx_body_addr;
            w.cookie = ni.rx_cookie;
            if (w.arrived) {
                deposit(n, handle, n.now);
            }
            return;
        }
        default:
            ni_error(n, HW_NI_ERR_REG, off, "write to an undefined or read-only register");
        }
    }

    uint32_t reg_access(Node &n, uint32_t addr, bool write, uint32_t value) {
        charge(n, write ? "reg_write" : "reg_read", write ? costs.reg_write : costs.reg_read);
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
        if (write) {
            ni_write(n, addr - HW_NI_BASE, value);
        } else {
            result = ni_read(n, addr - HW_NI_BASE);
        }
        if (opts.irq_after_access) {
            sync(n);
        }
        return result;
    }
};

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
    m.charge(n, "thread_create", m.costs.thread_create);
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
    m.charge(n, "yield", m.costs.yield);
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

void hal_sem_wait(hal_t *h, hal_sem_t *s) {
    Node &n = N(h);
    auto &m = M(h);
    if (n.current == nullptr || n.in_irq) {
        m.fail(n, "hal_sem_wait outside a thread");
    }
    m.charge(n, "sem_wait", m.costs.sem_wait);
    m.sync(n);
    if (s->count > 0) {
        s->count--;
        return;
    }
    sem_of(h, s).waiters.push_back(n.current);
    n.current->state = starfish::fwtest::ThreadState::Blocked;
    m.block(n);
}

void hal_sem_post(hal_t *h, hal_sem_t *s) {
    Node &n = N(h);
    auto &m = M(h);
    m.charge(n, "sem_post", m.costs.sem_post);
    auto &sem = sem_of(h, s);
    if (sem.waiters.empty()) {
        s->count++;
        return;
    }
    starfish::fwtest::Thread *t = sem.waiters.front();
    sem.waiters.pop_front();
    t->state = starfish::fwtest::ThreadState::Ready;
    // As on the node model (tlm_models/node/node_cpu.cpp): the poster pays the wakeup.
    m.charge(n, "thread_wakeup", m.costs.thread_wakeup);
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

void hal_export(hal_t *h, const char *name, uint64_t value) {
    N(h).exports[name] = value;
}

void hal_fail(hal_t *h, const char *message) {
    M(h).fail(N(h), std::string("hal_fail: ") + message);
}

} // extern "C"
