"""Results files: what a record must hold (`check_shape`, a small notation of JSON shapes) and
reading one (`read_results`), so that a figure, a merge or a resume refuses a damaged or foreign
file in one line naming it and the place in it, before any work starts.
"""
import json
from pathlib import Path

from la.runs.cli import shown

NUMBER = (int, float)                 # a JSON number
MAYBE = (int, float, type(None))      # a JSON number or null (a mean over no runs)
_JSON = {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "an integer",
         float: "a number", type(None): "null"}


def _json_type(value) -> str:
    return _JSON.get(type(value), type(value).__name__)


def check_shape(value, shape, file: str, where: str = "") -> None:
    """Raise ValueError, naming `file` and the place in it, unless `value` (parsed JSON) has
    `shape`.

    A shape is a type or a tuple of types; a dict of keys to shapes, where a key ending in '?' may
    be absent (other keys are allowed); `[shape]`, a non-empty list of them; or `[shape, ...]`, a
    list of them, perhaps empty.
    """
    name = where or "the record"
    if isinstance(shape, dict):
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


def read_results(path, experiment: str, shape: dict) -> dict:
    """The results record an experiment wrote to `path`, checked against `shape`; ValueError names
    the file."""
    file = shown(str(path))
    try:
        record = json.loads(Path(path).read_bytes().decode("utf-8"))
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
        raise ValueError(f"{file}: not a results file (JSON nested too deeply)") from None
    if not isinstance(record, dict):
        raise ValueError(f"{file}: expected a JSON object of {experiment} results, "
                         f"got {_json_type(record)}")
    if "experiment" not in record:
        raise ValueError(f"{file}: not {experiment!r} results (it names no experiment)")
    if record["experiment"] != experiment:
        raise ValueError(f"{file}: holds {record.get('experiment')!r} results, not {experiment!r}")
    check_shape(record, shape, file)
    return record
