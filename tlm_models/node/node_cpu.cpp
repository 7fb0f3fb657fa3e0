#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "tlm_models/node/node_cpu.h"

#include "tlm_models/common/device_fault.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace starfish::node {

static_assert(HW_IRQ_LINES <= 32, "interrupt lines are kept in a 32-bit mask");

uint64_t CpuStats::activity_ps(const std::string &name) const {
    for (const auto &a : activities) {
        if (a.name == name) {
            return a.ps;
        }
    }
    return 0;
}

nlohmann::json CpuStats::to_json() const {
    nlohmann::json busy_ps = nlohmann::json::object();
    nlohmann::json busy_cycles = nlohmann::json::object();
    for (size_t i = 1; i < activities.size(); ++i) {
        busy_ps[activities[i].name] = activities[i].ps;
        busy_cycles[activities[i].name] =
            static_cast<double>(activities[i].ps) / static_cast<double>(cycle_ps);
    }
    return nlohmann::json{
        {"cycle_ps", cycle_ps},
        {"elapsed_ps", elapsed_ps},
        {"idle_ps", idle_ps()},
        {"busy_ps", busy_ps},
        {"elapsed_cycles", static_cast<double>(elapsed_ps) / static_cast<double>(cycle_ps)},
        {"idle_cycles", static_cast<double>(idle_ps()) / static_cast<double>(cycle_ps)},
        {"busy_cycles", busy_cycles},
        {"interrupts", interrupts},
        {"context_switches", context_switches},
        {"threads_created", threads_created},
        {"wakeups", wakeups}};
}

// A firmware thread. The process waits on `wake` whenever it does not hold the CPU.
struct NodeCpu::Thread {
    uint32_t id = 0;
    size_t activity = 0;
    sc_core::sc_event wake;
    bool finished = false;
    Thread *next_waiter = nullptr; // behind it in its semaphore's queue
    uint64_t timed_since_ps = 0;   // in a sleep or a wait with a timeout (reports only)
    uint64_t timed_until_ps = 0;
};

std::vector<std::string> NodeCpu::live_thread_names() const {
    std::vector<std::string> names;
    for (const auto &[id, t] : threads_) {
        if (!t->finished) {
            names.push_back(activities_[t->activity].name);
        }
    }
    return names;
}

NodeCpu::NodeCpu(sc_core::sc_module_name name, const NodeCpuParams &params, int node_id)
    : sc_core::sc_module(name), irq("irq", HW_IRQ_LINES), params_(params), node_id_(node_id),
      handlers_(HW_IRQ_LINES) {
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS)) {
        throw std::logic_error("NodeCpu keeps integer picoseconds: the SystemC time "
                               "resolution must be 1 ps");
    }
    activities_.push_back({"idle", 0});
    activity_by_name_["idle"] = 0;
    for (unsigned line = 0; line < HW_IRQ_LINES; ++line) {
        irq_activity_.push_back(activity_index("irq:" + std::to_string(line)));
    }
    SC_THREAD(dispatcher);
    SC_METHOD(on_irq_rise);
    for (auto &line : irq) {
        sensitive << line.pos();
    }
    dont_initialize();
}

NodeCpu::~NodeCpu() = default;

void NodeCpu::start(Body main, const std::string &name) {
    boot_ = std::move(main);
    boot_name_ = name;
}

// ---- accounting --------------------------------------------------------------

size_t NodeCpu::activity_index(const std::string &name) {
    auto it = activity_by_name_.find(name);
    if (it != activity_by_name_.end()) {
        return it->second;
    }
    activities_.push_back({name, 0});
    activity_by_name_[name] = activities_.size() - 1;
    return activities_.size() - 1;
}

void NodeCpu::set_activity(size_t activity) {
    if (hub_ != nullptr && activity != activity_) {
        trace_activity(activity);
    }
    uint64_t now = now_ps();
    if (now > activity_since_ps_) {
        activities_[activity_].ps += now - activity_since_ps_;
        if (trace_on_) {
            if (!trace_.empty() && trace_.back().activity == activity_ &&
                trace_.back().end_ps == activity_since_ps_) {
                trace_.back().end_ps = now;
            } else {
                trace_.push_back({activity_, activity_since_ps_, now});
            }
        }
    }
    activity_since_ps_ = now;
    activity_ = activity;
}

CpuStats NodeCpu::stats() const {
    CpuStats s;
    s.cycle_ps = params_.cycle_ps;
    s.elapsed_ps = now_ps();
    s.activities = activities_;
    s.activities[activity_].ps += now_ps() - activity_since_ps_;
    s.interrupts = interrupts_;
    s.context_switches = context_switches_;
    s.threads_created = threads_created_;
    s.wakeups = wakeups_;
    return s;
}

// ---- time ----------------------------------------------------------------------

void NodeCpu::charge(uint64_t cycles) {
    pending_ps_ += cycles * params_.cycle_ps;
}

uint64_t NodeCpu::now_cycles() const {
    return (now_ps() + pending_ps_) / params_.cycle_ps;
}

void NodeCpu::wait_ps(uint64_t ps) {
    sc_core::wait(sc_core::sc_time::from_value(ps));
}

void NodeCpu::sync() {
    if (in_handler_) {
        // Handlers do not nest: their work is not interruptible.
        if (pending_ps_ > 0) {
            wait_ps(pending_ps_);
            pending_ps_ = 0;
        }
        shortcuts_.apply_handler_posted();
        return;
    }
    for (;;) {
        shortcuts_.apply_reached();
        serve_interrupts();
        if (pending_ps_ == 0) {
            return;
        }
        uint64_t start = now_ps();
        sc_core::wait(sc_core::sc_time::from_value(pending_ps_), irq_event_);
        uint64_t spent = std::min(now_ps() - start, pending_ps_);
        pending_ps_ -= spent;
        shortcuts_.work_done(spent);
    }
}

// ---- interrupts ----------------------------------------------------------------

void NodeCpu::on_irq_rise() {
    irq_event_.notify();
}

void NodeCpu::set_handler(unsigned line, Handler handler) {
    if (line >= HW_IRQ_LINES) {
        fail("hal_irq_register: no interrupt line " + std::to_string(line) + " (lines 0.." +
             std::to_string(HW_IRQ_LINES - 1) + ")");
    }
    if (handler) {
        enabled_mask_ |= 1u << line;
    } else {
        enabled_mask_ &= ~(1u << line);
    }
    // Shared so that a handler may replace itself while it runs.
    handlers_[line] = handler ? std::make_shared<const Handler>(std::move(handler)) : nullptr;
}

void NodeCpu::start_of_simulation() {
    irq_level_.clear();
    for (auto &line : irq) {
        irq_level_.push_back(&line->read());
    }
    if (hub_ != nullptr) {
        // Only while observed: a method that follows both edges of every line.
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.dont_initialize();
        for (auto &line : irq) {
            opts.set_sensitivity(&line->value_changed_event());
        }
        sc_core::sc_simcontext *sim = sc_core::sc_get_curr_simcontext();
        sim->hierarchy_push(this);
        sc_core::sc_spawn([this] { trace_irq_lines(); }, "trace_irq", &opts);
        sim->hierarchy_pop();
    }
}

int NodeCpu::first_raised_line() const {
    for (uint32_t m = enabled_mask_; m != 0; m &= m - 1) {
        int line = __builtin_ctz(m);
        if (*irq_level_[line]) {
            return line;
        }
    }
    return -1;
}

void NodeCpu::serve_interrupts() {
    if (enabled_mask_ == 0 || in_handler_) {
        return;
    }
    for (;;) {
        int line = first_raised_line();
        if (line < 0) {
            return;
        }
        if (device_access_delta_ == sc_core::sc_delta_count()) {
            // A register access in this delta may be lowering the line: let it settle.
            sc_core::wait(sc_core::SC_ZERO_TIME);
            continue;
        }
        dispatch(static_cast<unsigned>(line));
    }
}

void NodeCpu::dispatch(unsigned line) {
    uint64_t interrupted_pending = pending_ps_;
    size_t interrupted_activity = activity_;
    set_activity(irq_activity_[line]);
    ++interrupts_;
    in_handler_ = true;
    pending_ps_ = 0;
    charge(params_.costs.cycles(HalCharge::IrqEntry));
    std::shared_ptr<const Handler> handler = handlers_[line];
    (*handler)();
    charge(params_.costs.cycles(HalCharge::IrqExit));
    if (pending_ps_ > 0) {
        wait_ps(pending_ps_);
    }
    shortcuts_.apply_handler_posted();
    in_handler_ = false;
    set_activity(interrupted_activity);
    pending_ps_ = interrupted_pending;
}

void NodeCpu::dispatcher() {
    if (boot_) {
        spawn_thread(std::move(boot_), boot_name_);
    }
    for (;;) {
        sc_core::wait(irq_event_);
        if (running_ != nullptr || dispatcher_busy_ || first_raised_line() < 0) {
            continue; // the thread holding the CPU takes it at its next synchronisation
        }
        dispatcher_busy_ = true;
        serve_interrupts();
        dispatcher_busy_ = false;
        grant_next();
    }
}

// ---- threads -------------------------------------------------------------------

void NodeCpu::require_thread(const char *service) {
    if (in_handler_) {
        fail(std::string(service) +
             " called from an interrupt handler (handlers run to completion and must not "
             "block)");
    }
    if (running_ == nullptr) {
        fail(std::string(service) + " called outside a firmware thread");
    }
}

void NodeCpu::grant_next() {
    if (ready_.empty()) {
        set_activity(0);
        return;
    }
    Thread *t = ready_.front();
    ready_.pop_front();
    if (hub_ != nullptr) {
        trace_ready();
    }
    running_ = t;
    if (charges_context_switch(last_thread_id_, t->id)) {
        charge(params_.costs.cycles(HalCharge::ContextSwitch));
        ++context_switches_;
    }
    last_thread_id_ = t->id;
    set_activity(t->activity);
    t->wake.notify();
}

void NodeCpu::release() {
    running_ = nullptr;
    if (!dispatcher_busy_) {
        grant_next();
    }
}

void NodeCpu::wait_for_cpu(Thread *t) {
    while (running_ != t) {
        sc_core::wait(t->wake);
    }
    // Interrupts raised while this thread waited are served before it resumes.
    serve_interrupts();
}

void NodeCpu::acquire(Thread *t) {
    ready_.push_back(t);
    if (hub_ != nullptr) {
        trace_ready();
    }
    if (running_ == nullptr && !dispatcher_busy_) {
        grant_next();
    }
    wait_for_cpu(t);
}

void NodeCpu::spawn_thread(Body body, const std::string &name) {
    auto t = std::make_shared<Thread>();
    t->id = next_thread_id_++;
    t->activity = activity_index("thread:" + name);
    threads_[t->id] = t;
    ++live_threads_;
    ++threads_created_;
    sc_core::sc_spawn_options opts;
    opts.set_stack_size(static_cast<int>(params_.stack_bytes));
    // The new process belongs to this module, not to the thread (or interrupt
    // handler) that spawns it: otherwise threads that spawn threads (a thread per
    // request) build a parent chain as long as the run, whose recursive clean-up
    // overflows the host stack.
    sc_core::sc_simcontext *sim = sc_core::sc_get_curr_simcontext();
    sim->hierarchy_push(this);
    sc_core::sc_spawn([this, t, body = std::move(body)] { thread_main(t, body); },
                      sc_core::sc_gen_unique_name("fw_thread"), &opts);
    sim->hierarchy_pop();
    ready_.push_back(t.get());
    if (hub_ != nullptr) {
        trace_ready();
    }
    if (running_ == nullptr && !dispatcher_busy_) {
        grant_next();
    }
}

void NodeCpu::thread_main(const std::shared_ptr<Thread> &t, const Body &body) {
    wait_for_cpu(t.get());
    try {
        body();
    } catch (const ThreadExit &) {
        return; // exit_thread() already gave the CPU away
    }
    finish_current_thread();
}

void NodeCpu::finish_current_thread() {
    charge(params_.costs.cycles(HalCharge::ThreadExit));
    sync();
    Thread *self = running_;
    self->finished = true;
    --live_threads_;
    auto keep = threads_[self->id]; // the process still runs on this object until it returns
    threads_.erase(self->id);
    release();
}

bool NodeCpu::spawn(Body body, const std::string &name) {
    charge(params_.costs.cycles(HalCharge::ThreadCreate));
    sync_unless_quiet();
    if (live_threads_ >= params_.thread_limit) {
        return false;
    }
    spawn_thread(std::move(body), name);
    return true;
}

void NodeCpu::exit_thread() {
    require_thread("hal_thread_exit");
    finish_current_thread();
    throw ThreadExit{};
}

void NodeCpu::yield() {
    require_thread("hal_yield");
    charge(params_.costs.cycles(HalCharge::Yield));
    if (ready_.empty()) {
        sync_unless_quiet(); // left out when quiet: no other thread can become ready
    } else {
        sync();
    }
    if (ready_.empty()) {
        return;
    }
    Thread *self = running_;
    ready_.push_back(self);
    if (hub_ != nullptr) {
        trace_ready();
    }
    release();
    wait_for_cpu(self);
}

void NodeCpu::sleep(uint64_t cycles) {
    require_thread("hal_sleep_cycles");
    sync();
    Thread *self = running_;
    release();
    self->timed_since_ps = now_ps();
    self->timed_until_ps = now_ps() + cycles * params_.cycle_ps;
    sc_core::wait(sc_core::sc_time::from_value(cycles * params_.cycle_ps));
    self->timed_since_ps = self->timed_until_ps = 0;
    ++timers_expired_;
    acquire(self);
}

// ---- semaphores ----------------------------------------------------------------

uint32_t NodeCpu::new_semaphore() {
    if (next_sem_ == 0xffffffffu) {
        fail("hal_sem_init: semaphore handles exhausted");
    }
    sem_waiters_.emplace_back();
    return next_sem_++;
}

void NodeCpu::sem_wait(uint32_t handle, uint32_t &count) {
    require_thread("hal_sem_wait");
    if (handle == 0 || handle >= next_sem_) {
        fail("hal_sem_wait on a semaphore that hal_sem_init never initialised");
    }
    charge(params_.costs.cycles(HalCharge::SemWait));
    if (count > 0) {
        --count;
        return;
    }
    sync();
    // A handler served during the synchronisation may have posted.
    if (count > 0) {
        --count;
        return;
    }
    Thread *self = running_;
    WaitQueue &q = sem_waiters_[handle];
    self->next_waiter = nullptr;
    (q.tail != nullptr ? q.tail->next_waiter : q.head) = self;
    q.tail = self;
    release();
    wait_for_cpu(self); // the post that wakes us hands over its unit
}

void NodeCpu::sem_post(uint32_t handle, uint32_t &count) {
    if (handle == 0 || handle >= next_sem_) {
        fail("hal_sem_post on a semaphore that hal_sem_init never initialised");
    }
    charge(params_.costs.cycles(HalCharge::SemPost));
    WaitQueue &q = sem_waiters_[handle];
    if (q.head != nullptr) {
        Thread *t = q.head;
        q.head = t->next_waiter;
        if (q.head == nullptr) {
            q.tail = nullptr;
        }
        charge(params_.costs.cycles(HalCharge::ThreadWakeup));
        ++wakeups_;
        ready_.push_back(t);
        if (hub_ != nullptr) {
            trace_ready();
        }
    } else {
        if (count == 0xffffffffu) {
            fail("hal_sem_post: semaphore count overflow");
        }
        ++count;
    }
    sync_unless_quiet();
}

void NodeCpu::enqueue_waiter(uint32_t handle, Thread *t) {
    WaitQueue &q = sem_waiters_[handle];
    t->next_waiter = nullptr;
    (q.tail != nullptr ? q.tail->next_waiter : q.head) = t;
    q.tail = t;
}

bool NodeCpu::remove_waiter(uint32_t handle, Thread *t) {
    WaitQueue &q = sem_waiters_[handle];
    Thread *prev = nullptr;
    for (Thread *w = q.head; w != nullptr; prev = w, w = w->next_waiter) {
        if (w == t) {
            (prev != nullptr ? prev->next_waiter : q.head) = w->next_waiter;
            if (q.tail == w) {
                q.tail = prev;
            }
            return true;
        }
    }
    return false;
}

bool NodeCpu::sem_wait_for(uint32_t handle, uint32_t &count, uint64_t cycles) {
    // As sem_wait, with a timer: the same charges and the same queue, so a wait
    // that ends by a post is indistinguishable from sem_wait's.
    require_thread("hal_sem_wait_timeout");
    if (handle == 0 || handle >= next_sem_) {
        fail("hal_sem_wait_timeout on a semaphore that hal_sem_init never initialised");
    }
    charge(params_.costs.cycles(HalCharge::SemWait));
    if (count > 0) {
        --count;
        return true;
    }
    sync();
    if (count > 0) {
        --count;
        return true;
    }
    Thread *self = running_;
    enqueue_waiter(handle, self);
    release();
    self->timed_since_ps = now_ps();
    self->timed_until_ps = now_ps() + cycles * params_.cycle_ps;
    while (running_ != self) {
        uint64_t now = now_ps();
        if (now < self->timed_until_ps) {
            sc_core::wait(sc_core::sc_time::from_value(self->timed_until_ps - now), self->wake);
        } else if (remove_waiter(handle, self)) {
            self->timed_since_ps = self->timed_until_ps = 0;
            ++timers_expired_;
            acquire(self); // timed out: back in line for the CPU
            return false;
        } else {
            sc_core::wait(self->wake); // posted at the deadline: the unit is ours
        }
    }
    self->timed_since_ps = self->timed_until_ps = 0;
    serve_interrupts();
    return true;
}

std::vector<ThreadInfo> NodeCpu::thread_infos() const {
    std::map<const Thread *, uint32_t> waiting;
    for (uint32_t handle = 1; handle < sem_waiters_.size(); ++handle) {
        for (const Thread *w = sem_waiters_[handle].head; w != nullptr; w = w->next_waiter) {
            waiting[w] = handle;
        }
    }
    std::vector<ThreadInfo> out;
    for (const auto &[id, t] : threads_) {
        if (t->finished) {
            continue;
        }
        ThreadInfo info;
        info.name = activities_[t->activity].name.substr(7); // without "thread:"
        info.timed_since_ps = t->timed_since_ps;
        info.timed_until_ps = t->timed_until_ps;
        auto w = waiting.find(t.get());
        if (running_ == t.get()) {
            info.state = ThreadInfo::State::Running;
        } else if (std::find(ready_.begin(), ready_.end(), t.get()) != ready_.end()) {
            info.state = ThreadInfo::State::Ready;
        } else if (w != waiting.end()) {
            info.state = ThreadInfo::State::Waiting;
            info.semaphore = w->second;
        } else {
            info.state = ThreadInfo::State::Sleeping;
        }
        out.push_back(info);
    }
    return out;
}

// ---- observation ---------------------------------------------------------------

void NodeCpu::observe(trace::TraceHub *hub, const std::string &scope) {
    hub_ = hub;
    scope_ = scope;
    using trace::SignalKind;
    using trace::TimelineRole;
    sig_activity_ = hub->signal(
        {scope, "activity", SignalKind::Text, 24, TimelineRole::Slices, "idle"}, {0, "idle"});
    sig_busy_ = hub->signal({scope, "busy", SignalKind::Bit, 1, TimelineRole::None, ""});
    sig_ready_ = hub->signal({scope, "ready", SignalKind::Int, 8, TimelineRole::Counter, ""});
    sig_irq_ = hub->signal({scope, "irq", SignalKind::Int, HW_IRQ_LINES, TimelineRole::None, ""});
}

void NodeCpu::trace_activity(size_t activity) {
    // Activity changes happen at synchronisation points, so the stretch of an
    // activity includes the charges it waited out (CpuStats counts the same).
    const std::string &name = activities_[activity].name;
    std::string shown = name.compare(0, 7, "thread:") == 0 ? name.substr(7) : name;
    uint64_t now = now_ps();
    hub_->set_text(sig_activity_, now, shown);
    hub_->set(sig_busy_, now, activity != 0 ? 1 : 0);
    hub_->log({now, "CPU", scope_, trace::Direction::Instant, "RUN", 0, "activity=" + shown});
}

void NodeCpu::trace_ready() {
    hub_->set(sig_ready_, now_ps(), static_cast<int64_t>(ready_.size()));
}

void NodeCpu::trace_irq_lines() {
    int64_t mask = 0;
    for (unsigned line = 0; line < irq.size(); ++line) {
        if (irq[line]->read()) {
            mask |= int64_t(1) << line;
        }
    }
    hub_->set(sig_irq_, now_ps(), mask);
}

// ---- failure -------------------------------------------------------------------

void NodeCpu::fail(const std::string &message) {
    if (failure_.empty()) {
        failure_ = "node " + std::to_string(node_id_) + ": " + message;
    }
    sc_core::sc_process_handle self = sc_core::sc_get_current_process_handle();
    if (!self.valid() || self.proc_kind() != sc_core::SC_THREAD_PROC_) {
        // Firmware runs only in this CPU's thread processes, so a HAL service
        // called elsewhere is a harness bug. Nothing can be parked, and nothing
        // may be thrown: C firmware frames may be on the stack.
        std::fprintf(stderr, "%s (a HAL service outside a firmware thread)\n", failure_.c_str());
        std::abort();
    }
    // The failure happens when the work charged before it is done.
    if (pending_ps_ > 0) {
        uint64_t ps = pending_ps_;
        pending_ps_ = 0;
        wait_ps(ps);
    }
    common::stop_simulation();
    for (;;) {
        sc_core::wait(never_); // parked: the run is over
    }
}

} // namespace starfish::node
