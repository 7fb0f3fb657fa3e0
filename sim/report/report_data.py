"""Reading the results `starfish reproduce` wrote (docs/reproduce.md): the
manifest (reproduce.json) and each study's document (data/NAME.json, the format
of `starfish study --json`), with the few notions the report adds: a cell's
effective value of any key, its method label, and the per-trial figures plotted.
"""
import csv
import json

# The paper's order of patterns in its figures and tables.
PATTERN_ORDER = ["ra", "rn", "rb", "rc", "rnb", "rbb", "rcb", "rbc", "rcc", "rcn",
                 "wn", "wb", "wc", "wnb", "wbb", "wcb", "wbc", "wcc", "wcn"]
METHOD_ORDER = ["SPFS", "2PIO", "DDIO no sort", "DDIO sort"]
LAYOUT_ORDER = ["contiguous", "random-blocks", "random-tracks"]


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Cell:
    """One cell of a study: its varying values, summary and trial documents."""

    def __init__(self, doc_cell, study_set, base_config):
        self.overrides = doc_cell["overrides"]
        self.summary = doc_cell["summary"]
        self.trials = doc_cell["trials"]
        self._set = study_set
        self._config = base_config

    def value(self, key):
        """The cell's effective value: its own, else the study's `set`, else the
        base configuration's."""
        for layer in (self.overrides, self._set, self._config):
            if key in layer:
                return layer[key]
        raise KeyError(f"no configuration key {key!r}")

    @property
    def method(self):
        return method_label(self.value("fs.kind"), self.value("fs.presort"))

    @property
    def pattern(self):
        return self.value("workload.pattern")

    @property
    def record(self):
        return int(self.value("workload.record_bytes"))

    @property
    def layout(self):
        return self.value("workload.layout")

    def label(self):
        """"rbc 8 contiguous": pattern, record size, layout."""
        return f"{self.pattern} {self.record} {self.layout}"

    def metric(self, name):
        """The trials' values of a trial field; dotted names reach into nested
        objects ("disk.movements")."""
        out = []
        for t in self.trials:
            v = t
            for part in name.split("."):
                v = v[part]
            out.append(float(v))
        return out

    def plotted_mb_s(self):
        """Throughput as the paper's figures plot it: ra divided by the CPs."""
        if self.pattern == "ra":
            return [float(t.get("mb_s_per_cp", t["mb_s"])) for t in self.trials]
        return self.metric("mb_s")

    def plotted_published(self):
        """The published value as the figures plot it (ra divided by the CPs; the
        tables, like the papers', give ra undivided)."""
        cps = int(self.value("machine.cp_count")) if self.pattern == "ra" else 1
        return self.summary["published"] / cps


def cell_with(cells, key, value):
    """The first of `cells` whose `key` has `value`, or None. Numbers compare by
    value (4 and 4.0), everything else exactly (a bool is not the number 1)."""
    def same(a):
        if isinstance(a, (int, float)) and isinstance(value, (int, float)) and \
                not isinstance(a, bool) and not isinstance(value, bool):
            return float(a) == float(value)
        return a == value
    return next((c for c in cells if same(c.value(key))), None)


def method_label(kind, presort):
    if kind == "spfs":
        return "SPFS"
    if kind == "2pio":
        return "2PIO"
    if kind == "ddio":
        return "DDIO sort" if presort else "DDIO no sort"
    return kind


class Study:
    def __init__(self, path):
        self.path = path
        self.doc = load_json(path)
        definition = self.doc["study"]
        self.name = definition["name"]
        self.definition = definition
        self.report = definition.get("report", {})
        config = self.doc["config"]
        self.cells = [Cell(c, definition.get("set", {}), config) for c in self.doc["cells"]]

    def varying_keys(self):
        keys = []
        for c in self.cells:
            for k in c.overrides:
                if k not in keys:
                    keys.append(k)
        return keys


def order_index(value, order):
    """Where `value` stands in `order`; after every listed value when it is not listed."""
    return order.index(value) if value in order else len(order)


def cell_sort_key(cell):
    """Record size, then the paper's pattern order."""
    return (cell.record, order_index(cell.pattern, PATTERN_ORDER), cell.pattern)


def ordered(values, order):
    """The distinct values, in `order` first, the rest as they come."""
    distinct = list(dict.fromkeys(values))
    return [v for v in order if v in distinct] + [v for v in distinct if v not in order]
