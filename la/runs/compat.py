"""The files of earlier versions of `la`, read as what they are: the one place that knows them.

Networks and checkpoints committed under figures/ (and in results folders) were written before some
fields existed. Each gap has one reading, used by every reader:

    a network file without `about`       a 15-puzzle network on the one-hot, the only kind `la`
                                         trained then (`la.runs.network`)
    a checkpoint without "encoding"      the one-hot, likewise (`la.runs.checkpoint`)
    an FFNN saved without "scale"        the target scale y/10 the FFNN's constructor defaults to
                                         (`la.nn.ffnn.SCALE`; `la.runs.persist` passes what is
                                         saved)
"""
from la.features.encodings import ONE_HOT

# what a network file saved without `about` holds
NETWORK_ABOUT = {"domain": "15-puzzle", "encoding": ONE_HOT}
# what a checkpoint saved without it was run on
CHECKPOINT_IDENTITY = {"encoding": ONE_HOT}


def network_about(about):
    """What a network file's `about` says it was trained on, for a file saved without one too."""
    return NETWORK_ABOUT if about is None else about


def checkpoint_identity(meta: dict, keys) -> dict:
    """A checkpoint's identity entries `keys`, with the ones an earlier version did not write filled
    in."""
    return {key: meta.get(key, CHECKPOINT_IDENTITY.get(key)) for key in keys}
