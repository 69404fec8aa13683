"""Software verification (GLI-11 program verification): a SHA-256 manifest of the bundle.

The build writes ``etg-manifest.json`` into the PyInstaller onedir folder: the
program's version and the SHA-256 of every file in the folder. At start-up the
frozen program checks its own files against it, and any changed, missing or
extra file is a tilt. ``etg verify`` prints the manifest's own digest, which a
lab compares with the digest of the build it approved.

Strict by design: a file that is not in the manifest is extra, wherever it is
(a frozen onedir build writes no ``__pycache__`` at run time). Symbolic links
are recorded by their target text, never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

MANIFEST_NAME = "etg-manifest.json"
_CHUNK = 1 << 20


def write_manifest(bundle: Path, version: str) -> Path:
    """Hash every file under ``bundle`` into ``bundle/etg-manifest.json``; returns its path."""
    files = {name: digest for name, digest in _hashes(bundle)}
    path = bundle / MANIFEST_NAME
    path.write_text(json.dumps({"program": "etg", "version": version, "files": files},
                               sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def manifest_digest(path: Path) -> str:
    """The SHA-256 of the manifest file itself: the one figure a lab compares."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_version(path: Path) -> str:
    return str(json.loads(path.read_text(encoding="utf-8")).get("version", "?"))


def verify_bundle(bundle: Path) -> list[str]:
    """Every file that differs from the manifest, one line each; empty when all match."""
    path = bundle / MANIFEST_NAME
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))["files"]
        if not isinstance(recorded, dict):
            raise TypeError("files is not a mapping")
    except FileNotFoundError:
        return [f"the software manifest {path} is missing"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"the software manifest {path} cannot be read: {error}"]
    found = dict(_hashes(bundle))
    problems = [f"{name}: changed" for name in sorted(recorded)
                if name in found and found[name] != recorded[name]]
    problems += [f"{name}: missing" for name in sorted(set(recorded) - set(found))]
    problems += [f"{name}: extra (not in the manifest)"
                 for name in sorted(set(found) - set(recorded))]
    return problems


def frozen_bundle() -> Path | None:
    """The onedir folder of a frozen (PyInstaller) program, or None from a source install."""
    if not getattr(sys, "frozen", False):
        return None
    return Path(sys.executable).resolve().parent


def _hashes(bundle: Path) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for root, dirs, files in os.walk(bundle, followlinks=False):
        dirs.sort()
        for name in sorted(files) + sorted(d for d in dirs if (Path(root) / d).is_symlink()):
            path = Path(root) / name
            relative = path.relative_to(bundle).as_posix()
            if relative == MANIFEST_NAME:
                continue
            out.append((relative, _digest(path)))
    return out


def _digest(path: Path) -> str:
    if path.is_symlink():
        return "link:" + hashlib.sha256(os.readlink(path).encode()).hexdigest()
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
