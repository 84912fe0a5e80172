"""Results files: what a record must hold (`check_shape`, a small notation of JSON shapes) and
reading one (`read_json`, `read_results`), so that a figure, a merge or a resume refuses a damaged
or foreign file in one line naming it and the place in it, before any work starts.

Every number a shape names is checked to be finite and within `BIG` (JSON allows 1e308 and integers
of any length; Python's reader also NaN and Infinity, which `read_json` refuses outright); `Range`,
`Is` and `Records` say more: the range of a value, the value itself, and a list of records with
unique ids among those expected, so that a resume appends only to records its unit could have
written (`la.runs.folder`), and the readers (`la.plots`, `la.experiments.merge`) draw and combine
only numbers that mean something.
"""
import json
import math
from pathlib import Path

from la.runs.cli import shown

NUMBER = (int, float)                 # a JSON number
MAYBE = (int, float, type(None))      # a JSON number or null (a mean over no runs)
BIG = 2**53           # beyond it a JSON number loses integers; no count, cost or time here nears it
_JSON = {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "an integer",
         float: "a number", type(None): "null"}


class Range:
    """A number within [lo, hi] (`whole`: an integer), or null too if `null`."""

    def __init__(self, lo=-BIG, hi=BIG, whole=False, null=False):
        self.lo, self.hi, self.whole, self.null = lo, hi, whole, null

    def check(self, value, file: str, name: str) -> None:
        if value is None and self.null:
            return
        check_shape(value, int if self.whole else NUMBER, file, name)
        if not self.lo <= value <= self.hi:
            raise ValueError(f"{file}: {name} is {_short(value)}, expected "
                             f"{'an integer' if self.whole else 'a number'} "
                             f"in {_short(self.lo)}..{_short(self.hi)}")


def whole(lo=0, hi=BIG, null=False) -> Range:
    """An integer in lo..hi (a count, a cost, an id: by default non-negative)."""
    return Range(lo, hi, whole=True, null=null)


FRACTION = Range(0, 1)                      # a share of tasks or states
PERCENT = Range(0, 100)                     # the same in %
SECONDS = Range(0)                          # a time
MAYBE_FRACTION, MAYBE_PERCENT = Range(0, 1, null=True), Range(0, 100, null=True)


class Nullable:
    """null, or a value of `shape`."""

    def __init__(self, shape):
        self.shape = shape

    def check(self, value, file: str, name: str) -> None:
        if value is not None:
            check_shape(value, self.shape, file, name)


class Is:
    """Exactly one of `values` (a unit's own row, run or name): a record of another unit is
    refused."""

    def __init__(self, *values):
        self.values = values

    def check(self, value, file: str, name: str) -> None:
        if not any(type(value) is type(v) and value == v for v in self.values):
            wanted = " or ".join(json.dumps(v) for v in self.values)
            raise ValueError(f"{file}: {name} is {_short(value)}, expected {wanted}")


class Where:
    """A value of `shape` for which `test(value)` holds, else "`name` `says`"; `test` sees a value
    already checked against `shape`."""

    def __init__(self, shape, test, says: str):
        self.shape, self.test, self.says = shape, test, says

    def check(self, value, file: str, name: str) -> None:
        check_shape(value, self.shape, file, name)
        if not self.test(value):
            raise ValueError(f"{file}: {name} {self.says}")


class Records:
    """A list of records of `shape`, each once: `key` (a field, or a tuple of them) unique, among
    `among` (if given); at most
    `most` of them, and exactly `most` if `complete` (a finished unit's tasks)."""

    def __init__(self, shape, key: str = "id", among=None, most: int | None = None,
                 complete: bool = False):
        self.shape, self.key, self.among, self.most, self.complete = (shape, key, among, most,
                                                                      complete)

    def check(self, value, file: str, name: str) -> None:
        check_shape(value, [self.shape, ...], file, name)
        seen = set()
        keys = self.key if isinstance(self.key, tuple) else (self.key,)
        for i, record in enumerate(value):
            key = tuple(record[k] for k in keys) if len(keys) > 1 else record[keys[0]]
            if key in seen:
                shown = "/".join(map(_short, key)) if len(keys) > 1 else _short(key)
                raise ValueError(f"{file}: {name}[{i}] comes twice "
                                 f"(its {'/'.join(keys)} {shown})")
            if self.among is not None and key not in self.among:
                raise ValueError(f"{file}: {name}[{i}].{keys[0]} {_short(key)} is not one of "
                                 f"this unit's")
            seen.add(key)
        if self.most is not None and (len(value) > self.most
                                      or self.complete and len(value) != self.most):
            raise ValueError(f"{file}: {name} holds {len(value)} records, expected "
                             f"{'' if self.complete else 'at most '}{self.most}")


def _json_type(value) -> str:
    return _JSON.get(type(value), type(value).__name__)


def _short(value) -> str:
    """A value for a one-line message: a huge integer or a long string cut short."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > BIG:
        return "an integer beyond 2^53"
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else "?"
    return text if len(text) <= 40 else text[:37] + "..."


def check_shape(value, shape, file: str, where: str = "") -> None:
    """Raise ValueError, naming `file` and the place in it, unless `value` (parsed JSON) has
    `shape`.

    A shape is a type or a tuple of types (a number also finite and within ±`BIG`); a dict of keys
    to shapes, where a key ending in '?' may be absent (other keys are allowed); `[shape]`, a
    non-empty list of them; `[shape, ...]`, a list of them, perhaps empty; or a `Range`,
    `Nullable`, `Is`, `Where` or `Records`, which check values as they say.
    """
    name = where or "the record"
    if hasattr(shape, "check"):
        shape.check(value, file, name)
    elif isinstance(shape, dict):
        if not isinstance(value, dict):
            raise ValueError(f"{file}: {name} should be an object, got {_json_type(value)}")
        for key, inner in shape.items():
            key, optional = key.rstrip("?"), key.endswith("?")
            if key in value:
                check_shape(value[key], inner, file, f"{where}.{key}" if where else key)
            elif not optional:
                raise ValueError(f"{file}: {name} has no {key!r}")
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise ValueError(f"{file}: {name} should be a list, got {_json_type(value)}")
        if not value and len(shape) == 1:
            raise ValueError(f"{file}: {name} is empty")
        for i, item in enumerate(value):
            check_shape(item, shape[0], file, f"{where}[{i}]")
    else:
        types = shape if isinstance(shape, tuple) else (shape,)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            wanted = " or ".join(_JSON[t] for t in types if not (t is int and float in types))
            raise ValueError(f"{file}: {name} should be {wanted}, got {_json_type(value)}")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not (
                abs(value) <= BIG if isinstance(value, int) else math.isfinite(value)
                and abs(value) <= BIG):
            raise ValueError(f"{file}: {name} is {_short(value)}, not a number within ±2^53")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _no_twice(pairs: list) -> dict:
    record = dict(pairs)
    if len(record) < len(pairs):
        twice = next(k for i, (k, _) in enumerate(pairs) if k in dict(pairs[:i]))
        raise ValueError(f"the key {_short(twice)} comes twice in one object")
    return record


def read_json(path, what: str = "results file"):
    """The JSON value in the file at `path`, strictly: no NaN or Infinity, no key twice in an
    object; ValueError in one line naming the file otherwise."""
    file = shown(str(path))
    try:
        return json.loads(Path(path).read_bytes().decode("utf-8"), parse_constant=_refuse_constant,
                          object_pairs_hook=_no_twice)
    except OSError as error:
        raise ValueError(f"{file}: cannot read it ({error.strerror})") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{file}: not UTF-8 text (byte {error.object[error.start]:#04x} "
                         f"at offset {error.start})"
                         ) from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{file}: not JSON "
                         f"({error.msg}: line {error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise ValueError(f"{file}: not a {what} (JSON nested too deeply)") from None
    except ValueError as error:   # NaN, Infinity, a key twice, an integer of over 4,300 digits
        raise ValueError(f"{file}: not a {what} ({' '.join(str(error).split())[:80]})") from None


def read_results(path, experiment: str, shape: dict) -> dict:
    """The results record an experiment wrote to `path`, checked against `shape`; ValueError names
    the file."""
    file = shown(str(path))
    record = read_json(path, "results file")
    if not isinstance(record, dict):
        raise ValueError(f"{file}: expected a JSON object of {experiment} results, "
                         f"got {_json_type(record)}")
    if "experiment" not in record:
        raise ValueError(f"{file}: not {experiment!r} results (it names no experiment)")
    if record["experiment"] != experiment:
        raise ValueError(f"{file}: holds {str(record['experiment'])[:40]!r} results, "
                         f"not {experiment!r}")
    check_shape(record, shape, file)
    return record


# --- the records of a test unit: what `--resume` and the merge accept ---------------------------

def _plan_fits(record: dict) -> bool:
    """A solved task has a plan's cost, at least its optimal cost (h*: no plan is shorter); an
    unsolved one none."""
    return (record["cost"] is not None and record["cost"] >= record["optimal"]
            if record["solved"] else record["cost"] is None)


def search_record(node_limit: int | None = None, **more) -> Where:
    """One task's record of a search (`la.search.ida_star` and the best-first searches): id,
    optimal cost, solved, cost, generated nodes and seconds, and `more` fields. A search stops at
    the first node past its limit, so `generated` is at most `node_limit` + 1."""
    generated = whole() if node_limit is None else whole(0, node_limit + 1)
    return Where({"id": whole(), "optimal": whole(), "solved": bool, "cost": whole(null=True),
                  "generated": generated, "seconds": SECONDS, **more},
                 _plan_fits, "has a cost that does not fit it (below the optimal cost, or solved "
                             "without one, or unsolved with one)")


def tested(record, ids, summarize=None, ordered: bool = False, **identity) -> Where:
    """What a finished test unit holds: its `identity` (run, row, ...: `Is` each), the records of
    exactly the tasks `ids` (`record`: each one's shape; in this order if `ordered`) and, if
    `summarize` is given, the summary it makes of them (a tampered mean would otherwise enter the
    table)."""
    ids = list(ids)
    records = Records(record, among=set(ids), most=len(ids), complete=True)
    fields = {**{k: Is(v) for k, v in identity.items()}, "records": records}

    def agrees(unit: dict) -> bool:
        if ordered and [r["id"] for r in unit["records"]] != ids:
            return False
        made = summarize(unit["records"]) if summarize else {}
        return all(unit.get(k) == v for k, v in made.items())
    return Where(fields, agrees, "does not agree with its records (their order or their summary)")


def tasks_shape(unit_shape):
    """What a test unit's `tasks.json` (its records so far) must hold, from what its finished
    `unit.json` holds (`tested`): the same records, perhaps fewer; None for a unit without."""
    fields = unit_shape.shape if isinstance(unit_shape, Where) else unit_shape
    records = fields.get("records") if isinstance(fields, dict) else None
    if not isinstance(records, Records):
        return None
    return Records(records.shape, records.key, records.among, records.most)
