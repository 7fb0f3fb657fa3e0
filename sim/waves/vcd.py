"""A small reader for the VCD files of `starfish run --vcd` (docs/observe.md).

read_header(path) -> list of Signal (declared signals, in order)
read(path) -> Vcd: signals, changes per signal [(time_ps, value)], end time.
Values are strings as written ("1", "0", "101" for b101, "x").
"""

import dataclasses


@dataclasses.dataclass
class Signal:
    code: str
    scope: str  # "iop0.cpu"
    name: str  # "activity"
    width: int

    @property
    def full_name(self):
        """The name GTKWave shows: scope.name, with [msb:lsb] for vectors."""
        base = f"{self.scope}.{self.name}"
        return base if self.width == 1 else f"{base}[{self.width - 1}:0]"


@dataclasses.dataclass
class Vcd:
    signals: list
    changes: dict  # code -> [(t, value)]
    times: list  # every #time line, in file order
    end: int

    def by_name(self, scope, name):
        for s in self.signals:
            if s.scope == scope and s.name == name:
                return s
        raise KeyError(f"{scope}.{name}")


def _declarations(lines):
    scopes = []
    signals = []
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            scopes.append(words[2])
        elif words[0] == "$upscope":
            scopes.pop()
        elif words[0] == "$var":
            signals.append(Signal(words[3], ".".join(scopes), words[4], int(words[2])))
        elif words[0] == "$enddefinitions":
            return signals
    raise ValueError("no $enddefinitions")


def read_header(path):
    with open(path) as f:
        return _declarations(f)


def read(path):
    with open(path) as f:
        signals = _declarations(f)
        changes = {s.code: [] for s in signals}
        times = []
        t = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("$"):
                continue
            if line[0] == "#":
                t = int(line[1:])
                times.append(t)
            elif line[0] == "b":
                value, code = line[1:].split(" ")
                changes[code].append((t, value))
            else:
                changes[line[1:]].append((t, line[0]))
    return Vcd(signals, changes, times, times[-1] if times else 0)


def text(value):
    """The ASCII text of a Text signal's bits."""
    if value == "x":
        return None
    bits = value.zfill((len(value) + 7) // 8 * 8)
    return "".join(chr(int(bits[i:i + 8], 2)) for i in range(0, len(bits), 8)).lstrip("\0")


def durations(vcd, signal):
    """{value: total picoseconds} of a signal over the whole file."""
    out = {}
    ch = vcd.changes[signal.code]
    for i, (t, v) in enumerate(ch):
        end = ch[i + 1][0] if i + 1 < len(ch) else vcd.end
        out[v] = out.get(v, 0) + end - t
    return out


def value_at(vcd, signal, t):
    """The value a signal holds at time t (the last change at or before t)."""
    value = None
    for ct, v in vcd.changes[signal.code]:
        if ct > t:
            break
        value = v
    return value
