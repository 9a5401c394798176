"""Declare the runtime requirement in the project ``fix`` rewrites.

A rewritten server imports ``tokenlint.runtime``, which the ``mcp-tokenlint-runtime``
distribution provides; unless the project declares it, the server installed with its own
dependencies dies at start (``ModuleNotFoundError``) and ``pip check`` sees nothing wrong. So for
each rewritten file ``fix`` finds the nearest project manifest, walking up from the file's
directory to the repository root (the first directory holding ``.git``) or the filesystem root,
and in each directory takes the first of:

1. ``pyproject.toml`` with a ``[project]`` table (PEP 621: setuptools, hatch, PDM, uv, Poetry 2):
   the requirement goes into ``[project].dependencies``; when that field is ``dynamic`` and
   setuptools reads it from files (``[tool.setuptools.dynamic] dependencies = {file = [...]}``),
   into the first of those files;
2. ``pyproject.toml`` with ``[tool.poetry.dependencies]`` (Poetry 1): ``name = "^X.Y.Z"``;
3. ``requirements.txt``, else the only ``requirements*.txt`` that is not for development
   (``dev``, ``test``, ``doc``, ``lint`` in its name): one line appended.

Edits keep the file's formatting (tomlkit for TOML; for requirements files the line is appended
with the file's own line ending). A manifest that already names the distribution, under any
spelling (PEP 503 normalisation) and any version specifier, is left alone, so ``fix`` run twice
changes nothing. Where no manifest is found, or it cannot be edited (dynamic dependencies of
another backend, a file that does not parse), ``Declaration.advice`` says exactly what to add.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tokenlint._version import RUNTIME_DISTRIBUTION, RUNTIME_REQUIREMENT

#: PEP 508 distribution name at the start of a requirement string.
_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)")
#: requirements files that are not what a deployment installs.
_DEV_REQUIREMENTS = re.compile(r"dev|test|doc|lint|ci", re.I)


@dataclass(frozen=True)
class Declaration:
    """What declaring the runtime needs in one project.

    ``path`` is the manifest to change and ``old_text`` / ``new_text`` its text before and after
    (``new_text`` equal to ``old_text`` when the requirement is already there); ``path`` is None
    when there is nothing to edit, and ``advice`` (one line) says what the user must add by hand.
    """

    path: Path | None
    old_text: str = ""
    new_text: str = ""
    advice: str = ""

    @property
    def changed(self) -> bool:
        """Whether the manifest at ``path`` must be edited (the requirement is not there yet)."""
        return self.path is not None and self.new_text != self.old_text


def normalize_name(name: str) -> str:
    """PEP 503 normalised form of a distribution name (``Foo_Bar`` → ``foo-bar``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(line: str) -> str | None:
    """The normalised distribution name a requirement string or requirements-file line names,
    None for comments, options (``-r``, ``--index-url``), URLs and blank lines."""
    line = line.split("#", 1)[0].strip()
    if not line or line.startswith("-") or "://" in line.split("@", 1)[0]:
        return None
    m = _NAME.match(line)
    return normalize_name(m.group(1)) if m else None


def declare_runtime(rewritten: Path) -> Declaration:
    """The declaration of ``RUNTIME_REQUIREMENT`` for the project holding the file ``rewritten``.

    Reads files, writes nothing. Raises nothing for a bad manifest: a ``pyproject.toml`` that
    does not parse or cannot be edited gives a ``Declaration`` with ``advice``.
    """
    for directory in _ancestors(rewritten.resolve().parent):
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file():
            found = _in_pyproject(pyproject)
            if found is not None:
                return found
        requirements = _requirements_file(directory)
        if requirements is not None:
            return _in_requirements(requirements)
    return Declaration(None, advice=f"add `{RUNTIME_REQUIREMENT}` to the dependencies of the project that "
                                    f"deploys {rewritten.parent} (no pyproject.toml or requirements.txt "
                                    "found above it)")


def _ancestors(start: Path) -> Iterator[Path]:
    """``start`` and its parents, up to the repository root (holding ``.git``) or ``/``."""
    directory = start
    while True:
        yield directory
        if (directory / ".git").exists() or directory.parent == directory:
            return
        directory = directory.parent


def _read(path: Path) -> str:
    """The text of ``path`` (UTF-8), line endings kept."""
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def _in_pyproject(path: Path) -> Declaration | None:
    """The declaration in this ``pyproject.toml``; None when it declares no project (a file of
    tool settings only), so the search goes on upward."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    text = _read(path)
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        return Declaration(None, advice=f"{path}: does not parse as TOML ({exc}); add `{RUNTIME_REQUIREMENT}` "
                                        "to its dependencies")
    project = doc.get("project")
    poetry = doc.get("tool", {}).get("poetry", {})
    if project is not None:
        if "dependencies" in project.get("dynamic", []):
            files = doc.get("tool", {}).get("setuptools", {}).get("dynamic", {}).get("dependencies", {}).get("file")
            files = [files] if isinstance(files, str) else list(files or [])
            if files and (path.parent / files[0]).is_file():
                return _in_requirements(path.parent / files[0])
            return Declaration(None, advice=f"{path}: its dependencies are dynamic; add `{RUNTIME_REQUIREMENT}` "
                                            "where your build backend reads them")
        dependencies = project.get("dependencies")
        if dependencies is None:
            project["dependencies"] = [RUNTIME_REQUIREMENT]
        elif any(requirement_name(str(d)) == RUNTIME_DISTRIBUTION for d in dependencies):
            return Declaration(path, text, text)
        else:
            dependencies.append(RUNTIME_REQUIREMENT)
        return Declaration(path, text, tomlkit.dumps(doc))
    if "dependencies" in poetry:
        table = poetry["dependencies"]
        if any(normalize_name(str(k)) == RUNTIME_DISTRIBUTION for k in table):
            return Declaration(path, text, text)
        table[RUNTIME_DISTRIBUTION] = "^" + RUNTIME_REQUIREMENT.split("~=", 1)[1]
        return Declaration(path, text, tomlkit.dumps(doc))
    return None


def _requirements_file(directory: Path) -> Path | None:
    """``requirements.txt`` of ``directory``, else its only ``requirements*.txt`` not for development."""
    main = directory / "requirements.txt"
    if main.is_file():
        return main
    candidates = [p for p in sorted(directory.glob("requirements*.txt"))
                  if p.is_file() and not _DEV_REQUIREMENTS.search(p.name[len("requirements"):])]
    return candidates[0] if len(candidates) == 1 else None


def _in_requirements(path: Path) -> Declaration:
    """The declaration in the requirements file ``path``: one line appended, unless it names the runtime."""
    text = _read(path)
    if any(requirement_name(line) == RUNTIME_DISTRIBUTION for line in text.splitlines()):
        return Declaration(path, text, text)
    newline = "\r\n" if "\r\n" in text else "\n"
    prefix = text if not text or text.endswith(("\n", "\r")) else text + newline
    return Declaration(path, text, f"{prefix}{RUNTIME_REQUIREMENT}{newline}")
