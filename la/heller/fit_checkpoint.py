"""A supervised fit under way, saved every few epochs: Heller et al.'s classifiers and the FFNN and
WUNN of the confidence experiment (`la.experiments.confidence`), whose longest fits take most of an
hour on the 24-puzzle.

    keeper, seconds = restore(path, net, opt, rng, cfg,
                              identity)   # (None, 0.0) without a file; else net, opt,
    #                                       rng as saved and the fit's seconds so far
    on_epoch = saver(path, net, opt, rng, identity,
                     clock)               # after every EVERY-th epoch: one file, atomically
    history = train(..., on_epoch=on_epoch, keeper=keeper)

The file is a checkpoint of `la.runs.checkpoint`'s layout: the network and its optimiser as parts,
the best epoch's parameters under 'best/<name>', and in its metadata the epochs' history, the best
epoch, the training generator's state, the seconds the fit has taken (`clock()` at the save) and the
fit's `identity` (which network, its configuration, its data's size). The FFNN's dropout generator
is saved with the network (`la.runs.persist`). Everything a next epoch draws or reads is restored,
so a fit that is stopped and continued ends with the same network, bit for bit, as one that never
stopped; a file whose identity is not the fit's is refused.
"""
from dataclasses import asdict

from la.heller.classifier_fit import BestEpoch, History
from la.runs import folder
from la.runs.checkpoint import as_json, read_state, save_state, unpack_parts
from la.runs.persist import generator_from_state

FILE = "fit_checkpoint.npz"     # in the unit's folder
EVERY = 10                      # epochs between saves: a 24-puzzle classifier's epoch takes 5–15 s
PARTS = ("net", "opt")
HISTORY_KEYS = ("train_loss", "val_loss", "val_accuracy", "stopped_early")
folder.READERS[FILE] = lambda path: read(path, None)    # checked before a --resume (la.runs.folder)


def saver(path, net, opt, rng, identity: dict, clock, every: int = EVERY):
    """An `on_epoch(keeper)` that saves the fit to `path` after every `every`-th epoch, unless it is
    over; `clock()`: the seconds the fit has taken so far."""
    def on_epoch(keeper: BestEpoch) -> None:
        if len(keeper.history.val_loss) % every == 0 and not keeper.done():
            history = asdict(keeper.history)
            meta = {"identity": as_json(identity), "best": keeper.best,
                    "rng": rng.bit_generator.state,
                    "history": {key: history[key] for key in HISTORY_KEYS},
                    "seconds": float(clock())}
            save_state(path, {"net": net, "opt": opt},
                       {f"best/{name}": p for name, p in keeper.params.items()}, meta)
    return on_epoch


def restore(path, net, opt, rng, cfg, identity: dict) -> tuple:
    """(where the fit saved at `path` stood, the seconds it had taken), with `net`, `opt` and `rng`
    set back to it; (None, 0.0) if there is no file; ValueError naming the file if it is damaged or
    another fit's."""
    if not path.exists():
        return None, 0.0
    saved_net, saved_opt, keeper, rng_state, seconds = read(path, cfg, identity)
    if saved_net.params.keys() != net.params.keys() or saved_opt.m.keys() != opt.m.keys() or any(
            saved_net.params[name].shape != p.shape for name, p in net.params.items()):
        raise ValueError(f"{path}: its network has other parameters than this fit's")
    for name, p in net.params.items():
        p[...] = saved_net.params[name]
        opt.m[name][...], opt.v[name][...] = saved_opt.m[name], saved_opt.v[name]
    opt.t = saved_opt.t
    if hasattr(net, "rng"):                                              # the FFNN's dropout masks
        net.rng.bit_generator.state = saved_net.rng.bit_generator.state
    rng.bit_generator.state = rng_state
    return keeper, seconds


def read(path, cfg, identity: dict | None = None) -> tuple:
    """(network, optimiser, BestEpoch, generator state, seconds) saved at `path`; ValueError naming
    the file unless it is a whole fit checkpoint (of `identity`, if given)."""
    arrays, meta = read_state(path, "fit checkpoint")
    if identity is not None and meta.get("identity") != as_json(identity):
        raise ValueError(f"{path}: the checkpoint belongs to another fit (another network, "
                         "configuration or data)")
    parts = unpack_parts(arrays, meta, path, PARTS)
    if set(parts) != set(PARTS) or not _whole(meta):
        raise ValueError(f"{path}: not a whole fit checkpoint (network, optimiser, history, "
                         "best epoch, generator)")
    params = {k[len("best/"):]: a for k, a in arrays.items() if k.startswith("best/")}
    if params.keys() != parts["net"].params.keys():
        raise ValueError(f"{path}: the best epoch's parameters do not match its network's")
    keeper = BestEpoch(cfg, History(**meta["history"]), meta["best"], params)
    return parts["net"], parts["opt"], keeper, meta["rng"], float(meta["seconds"])


def _whole(meta: dict) -> bool:
    """Whether the metadata holds a history of equal-length lists, a best epoch within it, a
    generator's state and the seconds taken."""
    history, best = meta.get("history"), meta.get("best")
    return (isinstance(history, dict) and set(history) == set(HISTORY_KEYS)
            and all(isinstance(history[key], list) for key in HISTORY_KEYS[:3])
            and len(history["train_loss"]) == len(history["val_loss"])
            and isinstance(best, int) and 0 <= best < len(history["val_loss"])
            and _generator(meta.get("rng")) and isinstance(meta.get("seconds"), (int, float)))


def _generator(state) -> bool:
    """Whether `state` is a bit generator's state (PCG64, ...), as a generator's
    `bit_generator.state` gives it."""
    try:
        generator_from_state(state)
    except ValueError:
        return False
    return True
