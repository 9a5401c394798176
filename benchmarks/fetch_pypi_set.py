"""Download and extract the sdists of a PyPI label set (benchmarks/data/pypi/ or .../pypi2/).

    python benchmarks/fetch_pypi_set.py DEST                       # download + extract every sdist into DEST
    python benchmarks/fetch_pypi_set.py DEST --verify              # also check every label's (path, line)
    python benchmarks/fetch_pypi_set.py DEST --set pypi2 --verify  # the second PyPI set (data/pypi2/)

Each sdist is fetched with PyPI's ordinary client,
`pip download --no-deps --no-binary :all: NAME==VERSION`, its sha256 is checked against the one
recorded when the set was labelled, and it is extracted into DEST as the sdist's own top
directory (`DEST/<top>/`, e.g. `DEST/gitlab_ci_mcp-0.5.2/`; `top` is the archive name without
`.tar.gz`). A label's `path` is relative to that directory. Already extracted sdists are skipped.

`--verify` re-reads `labels.jsonl` and checks that every `(package, version, path, line)` points
at a line naming the tool: `def <tool>(` / `def <function>(` for function tools, or the quoted
client-visible name for a low-level dispatch branch. A low-level handler serving one tool may be
labelled at its name guard (`if name != handler.name:`, whose name is not a literal there): that
line is accepted when it compares `name` and the quoted tool name is in the same file. Exit
status 1 if any download, checksum or check fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (PyPI name, exact version, sdist file name, sha256 of that file)
PYPI: list[tuple[str, str, str, str]] = [
    ("analytics-mcp", "0.8.0", "analytics_mcp-0.8.0.tar.gz",
     "696e6109550cdfb690da99d0b98d1ecc0fa9ade73f5f1f534fb61675cf0cac00"),
    ("awslabs.memcached-mcp-server", "1.1.1", "awslabs_memcached_mcp_server-1.1.1.tar.gz",
     "b69e41f5baa5239c3068800ff46a11cd1b961bfce7120d513c5c7a24df24bb6b"),
    ("elasticsearch-mcp-server", "2.1.6", "elasticsearch_mcp_server-2.1.6.tar.gz",
     "62c11ef11e0dba42bd541d65c6d6bdf7d6f4bf96483c607edf7cb264793b2a71"),
    ("filesystem-mcp", "1.0.2", "filesystem_mcp-1.0.2.tar.gz",
     "d28a819079c7b5b95ec27e35da368eabed55371d7432264e60b9273b26aead23"),
    ("gitlab-ci-mcp", "0.5.2", "gitlab_ci_mcp-0.5.2.tar.gz",
     "9a86785e9463f7622cc1f8302bae12905332a53a72ef31ceb91cae61766ef11a"),
    ("jenkins-mcp", "0.1.1", "jenkins_mcp-0.1.1.tar.gz",
     "b80d64a21788336d717a97b3af737490590cd04b326d17e7d1ef42cdaeecee31"),
    ("jewei-mysql-mcp-server", "0.2.5", "jewei_mysql_mcp_server-0.2.5.tar.gz",
     "1ffc9a757e0c901db561bf388a6a91c7748b6b293a035929881f8b9967350cf0"),
    ("markitdown-mcp", "0.0.1a8", "markitdown_mcp-0.0.1a8.tar.gz",
     "f91d7aaa62b249b7fe58885e8fa1eaad686f4f8e67b3eb08bda39756d45ba8a0"),
    ("mcp-grafana", "0.1.2", "mcp_grafana-0.1.2.tar.gz",
     "c9470ee65d3187d52bc3a24762554e49ed70f8065f40032716e8bc5e241376ca"),
    ("mcp-scholarly", "0.1.0", "mcp_scholarly-0.1.0.tar.gz",
     "cf7a65988e5a8d9386c4ae589fc684b83cda86d0f8ee7ca991a6ba7039299424"),
    ("tilt-mcp", "0.1.3", "tilt_mcp-0.1.3.tar.gz",
     "1932885e5be6b3f155319886b8fb1b4b419ba897f0d06e9589122afcaadc811f"),
]

# the second set (data/pypi2/), labelled later by a reviewer
PYPI2: list[tuple[str, str, str, str]] = [
    ("azure-devops-mcp", "0.2.0", "azure_devops_mcp-0.2.0.tar.gz",
     "47937e12fccc21176419246935bfce2cc3cb190b6a0303dc050669feec53f6ab"),
    ("mcp-pandoc", "0.11.1", "mcp_pandoc-0.11.1.tar.gz",
     "07aea7a0d9f2717f94d7fa92e87635cb7c64727107e662e303028ab1e30d9219"),
    ("mcp-server-make", "0.4.0", "mcp_server_make-0.4.0.tar.gz",
     "bb413d93ead2cad6929312fd6e939431bdd78929c4bedc1adb22ae6aaf595301"),
    ("mcp-server-mariadb", "0.1.2", "mcp_server_mariadb-0.1.2.tar.gz",
     "35a7830cc6406a181111c70c8ff4c931ef7acb932ee746cdcfbc533df6d589af"),
    ("mcp-server-wikipedia", "0.5.5", "mcp_server_wikipedia-0.5.5.tar.gz",
     "e01c5fbf6ae81984d336a2eec6d70eade149e3314793e9b8a67104cfaf3028f1"),
    ("mcp-shell-server", "1.1.14", "mcp_shell_server-1.1.14.tar.gz",
     "58e8f5789b8ede9218165b28f14055051adb3a87bbed1891092f8f0fb340c9fa"),
    ("mcp-tavily", "0.1.10", "mcp_tavily-0.1.10.tar.gz",
     "fef4d97981b44bb02602758765bdb6bcfc1e3c4f97103f594886b6f950b49d60"),
    ("todoist-mcp", "0.4.0", "todoist_mcp-0.4.0.tar.gz",
     "953e6b8ac26d4ae45e5c205f1656b4d18cb6c5af1e96a21d8f13e9c68a4c1b48"),
    ("trino-mcp", "0.2.7", "trino_mcp-0.2.7.tar.gz",
     "9ddd9f2c6d29dacf0be84dc62384be621c7bf0f6a37b9b4c9e6ec21f9ee98da4"),
    ("wikipedia-mcp", "2.0.1", "wikipedia_mcp-2.0.1.tar.gz",
     "445333337cedc4111a4fdb309ecaf7329cd2baaf10dabcf933f3be6ed8e329d2"),
]

# set name -> (its sdists, its labels)
SETS: dict[str, tuple[list[tuple[str, str, str, str]], Path]] = {
    "pypi": (PYPI, HERE / "data" / "pypi" / "labels.jsonl"),
    "pypi2": (PYPI2, HERE / "data" / "pypi2" / "labels.jsonl"),
}
SDISTS = PYPI  # the first set, as before
LABELS = SETS["pypi"][1]


def top_dir(filename: str) -> str:
    return filename[: -len(".tar.gz")]


def sdist_dirs() -> dict[tuple[str, str], str]:
    """(package, version) -> the extracted directory name under DEST, over every set."""
    return {(name, version): top_dir(fname)
            for sdists, _ in SETS.values() for name, version, fname, _ in sdists}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def fetch(dest: Path, sdists: list[tuple[str, str, str, str]] = SDISTS) -> list[str]:
    errors: list[str] = []
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pypi_set_") as tmp:
        for name, version, fname, digest in sdists:
            target = dest / top_dir(fname)
            if target.is_dir():
                print(f"have  {name}=={version} -> {target}")
                continue
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--no-binary", ":all:", f"{name}=={version}", "-d", tmp]
            run = subprocess.run(cmd, capture_output=True, text=True)
            archive = Path(tmp) / fname
            if run.returncode != 0 or not archive.is_file():
                errors.append(f"{name}=={version}: pip download failed: {run.stderr.strip()[-500:]}")
                continue
            got = sha256(archive)
            if got != digest:
                errors.append(f"{name}=={version}: sha256 {got} != recorded {digest}")
                continue
            with tarfile.open(archive) as tar:
                members = [m for m in tar.getmembers()
                           if m.name == top_dir(fname) or m.name.startswith(top_dir(fname) + "/")]
                tar.extractall(dest, members=members)  # noqa: S202 - names checked above
            print(f"got   {name}=={version} -> {target}")
    return errors


def verify(dest: Path, labels: Path = LABELS) -> list[str]:
    dirs = sdist_dirs()
    errors: list[str] = []
    rows = [json.loads(line) for line in labels.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        key = (row["package"], row["version"])
        where = f"{row['package']}=={row['version']} {row['path']}:{row['line']} ({row['tool']})"
        if key not in dirs:
            errors.append(f"{where}: package not in SDISTS")
            continue
        path = dest / dirs[key] / row["path"]
        if not path.is_file():
            errors.append(f"{where}: no such file")
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if not 1 <= row["line"] <= len(lines):
            errors.append(f"{where}: line out of range")
            continue
        text = lines[row["line"] - 1]
        names = {row["tool"]}
        if row.get("function"):
            names.add(row["function"].split(".")[-1])
        quoted = f'"{row["tool"]}"'
        ok = any(f"def {n}(" in text for n in names) or quoted in text
        if not ok and row.get("framework") == "lowlevel-server":  # a single-tool name guard
            guard = text.strip().startswith(("if name ", "if params.name ")) and (" != " in text or " == " in text)
            ok = guard and quoted in path.read_text(encoding="utf-8")
        if not ok:
            errors.append(f"{where}: line does not name the tool: {text.strip()!r}")
    print(f"verified {len(rows) - len(errors)}/{len(rows)} label locations")
    return errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dest", type=Path, help="directory to extract the sdists into")
    ap.add_argument("--verify", action="store_true", help="check every label's (path, line) afterwards")
    ap.add_argument("--set", choices=sorted(SETS), default="pypi",
                    help="which label set's sdists: pypi (data/pypi/, default) or pypi2 (data/pypi2/)")
    args = ap.parse_args()
    sdists, labels = SETS[args.set]
    errors = fetch(args.dest, sdists)
    if args.verify:
        errors += verify(args.dest, labels)
    for e in errors:
        print("ERROR", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
