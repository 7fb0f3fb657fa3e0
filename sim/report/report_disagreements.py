"""The cells the model is known to miss by more than 10%, and why (docs/reproduce.md,
"Cells outside 10%"): the report lists every cell whose mean is more than 10% off
its published value beside the docs/calibration.md item that explains it, so a
cell that leaves the band for a new reason shows as not known, and a known
disagreement that no longer applies shows too.

The table (sim/calibration/known_disagreements.csv) has one rule a row: `method`
(one of the report's labels SPFS, 2PIO, DDIO sort, DDIO no sort, or `*`),
`layout`, `record` and `pattern` (each a value, several separated by spaces, or
`*` for any); `item`, the docs/calibration.md section; `explanation`. A cell
takes the first rule that matches it. Pure Python, tested by tests/scripts/test_report_stats.py."""
import csv

FIELDS = ("method", "layout", "record", "pattern", "item", "explanation")
METHODS = ("SPFS", "2PIO", "DDIO sort", "DDIO no sort")
LIMIT_PCT = 10.0


def load_rules(path):
    """The rules of a known-disagreements CSV; a missing column, an empty field, an
    unknown method or a record size that is no number is an error naming the row."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [k for k in FIELDS if k not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
        rules = []
        for n, row in enumerate(reader, start=2):
            empty = [k for k in FIELDS if not (row[k] or "").strip()]
            if empty:
                raise ValueError(f"{path}, line {n}: empty {', '.join(empty)}")
            rule = {k: row[k].strip() for k in FIELDS}
            if rule["method"] not in METHODS + ("*",):
                raise ValueError(f"{path}, line {n}: unknown method {rule['method']!r} "
                                 f"(one of {', '.join(METHODS)}, or *)")
            rule["method"] = None if rule["method"] == "*" else {rule["method"]}
            for k in ("layout", "record", "pattern"):
                rule[k] = None if rule[k] == "*" else set(rule[k].split())
            if rule["record"] and not all(r.isdigit() for r in rule["record"]):
                raise ValueError(f"{path}, line {n}: record must be sizes in bytes or *, not "
                                 f"{row['record'].strip()!r}")
            rule["line"] = n
            rules.append(rule)
    return rules


def rule_for(rules, method, layout, record, pattern):
    """The first rule matching the cell, or None."""
    values = {"method": method, "layout": layout, "record": str(record), "pattern": pattern}
    for rule in rules:
        if all(rule[k] is None or v in rule[k] for k, v in values.items()):
            return rule
    return None


def outside(points, rules, limit=LIMIT_PCT):
    """`points`: dicts with method, layout, record, pattern, published, model and
    error_pct (as the report's published-points table). Returns the cells more than
    `limit` percent off, worst first, each with its rule (None when no rule knows
    it), and the rules that matched no such cell (by their line in the table)."""
    rows, used = [], set()
    for p in points:
        err = p.get("error_pct")
        if err is None or abs(float(err)) <= limit:
            continue
        rule = rule_for(rules, p["method"], p["layout"], p["record"], p["pattern"])
        if rule is not None:
            used.add(rule["line"])
        rows.append(dict(p, rule=rule))
    rows.sort(key=lambda r: -abs(float(r["error_pct"])))
    unused = [r for r in rules if r["line"] not in used]
    return rows, unused
