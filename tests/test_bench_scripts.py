"""Every script of bench/ still starts, so that a module moved or a name renamed elsewhere cannot
silently break a benchmark (as the move of ``Threats`` once broke bench/bench_search.py).

Each check runs in a subprocess, as a person would run the script, with a generous timeout that
is only there so that a hang fails instead of blocking the run (no time is asserted):
- ``--help`` of every Python script: it imports what the script imports at its top;
- every name the script imports from the project or a package, in its functions too, and the
  project's names in the code it hands to other processes as text (bench_analysis.py's cold
  start): imported one by one, each missing one named;
- bench/load.sh: its ``--help`` and bash's syntax check. It is not run: a load test takes
  minutes, and it needs locust, which is not one of the app's packages (it installs it itself);
  bench/locustfile.py, run only by locust, has its imports checked as above, less locust's own.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PYTHON_SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))
# Run only by locust (from bench/load.sh), which has no --help of its own to give.
NOT_RUN_ALONE = {"locustfile.py"}
# Imported by a script, but not one of the app's packages (pyproject.toml): not checked.
NOT_OURS = {"locust": "bench/load.sh installs locust when it runs; the app does not need it",
            "kaggle_environments": "bench/bench_connectx.py runs in a scratch environment that "
                                   "has it (1.6 GB of jax and more): never one of the app's"}
TIMEOUT = 300    # s: only against a hang (an import that compiles numba's kernels takes seconds)

# Collects every import of a script (at its top and inside functions, by the syntax tree) and
# the project's ``from ai... import ...`` in its string constants (code run in another process),
# then imports each name, and prints the ones that fail.
CHECK_IMPORTS = r'''
import ast, importlib, re, sys
path, skip = sys.argv[1], set(sys.argv[2:])
tree = ast.parse(open(path).read(), path)
wanted = []
for node in ast.walk(tree):
    if isinstance(node, ast.Import):
        wanted += [(a.name, None) for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module != "__future__":
        wanted += [(node.module, a.name) for a in node.names]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        for module, names in re.findall(r"\bfrom ((?:ai|web|app)\b[\w.]*) import ([\w, ]+)",
                                        node.value):
            wanted += [(module, n.strip()) for n in names.split(",") if n.strip()]
missing = []
for module, name in wanted:
    if module.split(".")[0] in skip:
        continue
    try:
        imported = importlib.import_module(module)
        if name is not None and name != "*" and not hasattr(imported, name):
            try:                                              # a submodule, not yet imported?
                importlib.import_module(f"{module}.{name}")
            except ModuleNotFoundError:
                raise ImportError(f"{module} has no name {name}") from None
    except Exception as e:
        missing.append(f"{module}{'' if name is None else ' import ' + name}: "
                       f"{type(e).__name__}: {e}")
print(f"{len(wanted)} imports checked")
if missing:
    sys.exit("cannot import:\n" + "\n".join(missing))
'''


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, **kw)


def test_bench_holds_the_scripts_this_test_knows():
    assert len(PYTHON_SCRIPTS) >= 10 and (BENCH / "load.sh").exists()


@pytest.mark.parametrize("script", [s for s in PYTHON_SCRIPTS if s not in NOT_RUN_ALONE])
def test_the_script_starts_and_gives_its_help(script):
    done = run(sys.executable, f"bench/{script}", "--help")
    assert done.returncode == 0, f"bench/{script} --help failed:\n{done.stderr[-3000:]}"
    assert "usage:" in done.stdout, done.stdout[-2000:]


@pytest.mark.parametrize("script", PYTHON_SCRIPTS)
def test_every_name_the_script_imports_exists(script):
    # The folders the scripts put on their path: bench/ (they import each other), tests/ (the
    # crawler's and the fuzzer's helpers).
    path = os.pathsep.join(str(p) for p in (ROOT, BENCH, ROOT / "tests"))
    done = run(sys.executable, "-c", CHECK_IMPORTS, f"bench/{script}", *NOT_OURS,
               env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, f"bench/{script}: {done.stderr[-3000:]}"
    assert " imports checked" in done.stdout


def test_the_load_test_script_parses_and_gives_its_help():
    assert run("bash", "-n", "bench/load.sh").returncode == 0
    done = run("bash", "bench/load.sh", "--help")
    assert done.returncode == 0 and "locust" in done.stdout, done.stderr
