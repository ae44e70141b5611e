"""A ruleset's files as one archive, for workers on other machines (the Ray backend).

`pack` gathers every file a ruleset reads (its manifest and its bases', its rules and content files,
and its bots' files) into a tar archive, each under its path from a folder above them all and above
the ruleset's project; `unpack` writes them into a folder in the same layout, so that a manifest's
`../../cards/root/maps/winter.yaml` or `base: root` still finds them, and that folder is the
ruleset's project there.

The archive is untrusted input: `unpack` writes only regular files, each inside its folder, and
refuses an archive with anything else (a link, a device, an absolute name, a `..`).
"""
from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path, PurePosixPath

from interpreter.content.load import content_files
from interpreter.loading.ruleset import Ruleset
from interpreter.loading.stages import read_manifest, rules_files
from interpreter.safety.files import Boundary, read_source_bytes

RULESET_HEADER = "ludolex.ruleset"  # the archive's header that says which of its folders is the ruleset's


class UnsafeArchive(ValueError):
    """An archive with a member that could write outside its folder, or that is not a regular file."""


def ruleset_files(ruleset: Ruleset) -> list[Path]:
    """Every file the ruleset reads to be loaded and played: for it and each of its bases, the manifest,
    the rules and content files the manifest names (a base's all, even those its variant removes: the
    base is read whole first) and the bots of its `bots/` folder."""
    files = []
    for folder in (ruleset.directory, *ruleset.bases):
        read = read_manifest(folder)
        files += [read.manifest_path, *rules_files(read), *content_files(list(read.content_places))]
        files += sorted((folder / "bots").rglob("*.yaml"))
    return list(dict.fromkeys(_located(path) for path in files))


def _located(path: Path) -> Path:
    """Where a file lies: its folder with every link followed, and its own name (a file that is a link
    is shipped as a regular file of that name, where the loader looks for it)."""
    return Path(os.path.abspath(path)).parent.resolve() / Path(path).name


def top_folder(ruleset: Ruleset, files: list[Path] | None = None) -> Path:
    """The folder above the ruleset's files (`files`, when known) and its project: the archive's names
    start from it."""
    boundary = ruleset.boundary or Boundary.of_ruleset(ruleset.directory)
    return Path(os.path.commonpath([boundary.project, *(files or ruleset_files(ruleset))]))


def pack(ruleset: Ruleset) -> bytes:
    """The ruleset's files as a tar archive (read as the loader reads them: inside its boundary)."""
    boundary = ruleset.boundary or Boundary.of_ruleset(ruleset.directory)
    files = ruleset_files(ruleset)
    top = top_folder(ruleset, files)
    directory = Path(ruleset.directory).resolve().relative_to(top).as_posix()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT,
                      pax_headers={RULESET_HEADER: directory}) as archive:
        for path in files:
            data = read_source_bytes(path, boundary)
            member = tarfile.TarInfo(path.relative_to(top).as_posix())
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


def unpack(data: bytes, folder: Path) -> Path:
    """Write the archive's files into `folder` (empty); the ruleset's folder among them."""
    folder = Path(folder).resolve()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
        for member in archive:
            target = _inside(folder, member.name)
            if not member.isfile():
                raise UnsafeArchive(f"`{member.name}` is not a regular file")
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.extractfile(member) as source, open(target, "xb") as copy:
                shutil.copyfileobj(source, copy)
        ruleset = _inside(folder, archive.pax_headers.get(RULESET_HEADER, "."))
    # the loader bounds a game by its project, found by its `.git`: here the unpacked folder, as on the driver
    (folder / ".git").mkdir(exist_ok=True)
    return ruleset


def _inside(folder: Path, name: str) -> Path:
    """Where the archive's `name` goes in `folder` (resolved), or UnsafeArchive if that is not inside it."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts:
        raise UnsafeArchive(f"`{name}` names a file outside the folder")
    target = (folder / relative).resolve()
    if target != folder and folder not in target.parents:
        raise UnsafeArchive(f"`{name}` names a file outside the folder")
    return target
