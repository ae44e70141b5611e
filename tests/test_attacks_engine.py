"""Attacks on the engine itself: its grammar cache, its compiler's budgets, its run-time limits."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path



class _RunsCode:
    def __init__(self, sentinel):
        self.sentinel = sentinel

    def __reduce__(self):
        return (os.system, (f"touch {self.sentinel}",))


def _build_parser(environment: dict, shared_cache: bool) -> subprocess.CompletedProcess:
    """Build the rules parser in a fresh process; `shared_cache`: as Lark does by default (the old way)."""
    code = textwrap.dedent(f"""
        from interpreter.language import parser
        if {shared_cache}:
            parser._private_cache = lambda: True
        parser.parser()
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment)


def test_a_planted_grammar_cache_in_the_shared_temp_folder_is_never_loaded(tmp_path):
    """Lark's default cache is a pickle at a predictable name in the temp folder: whoever writes
    there first runs code as the next user. ludolex keeps its cache in a private folder."""
    sentinel, shared_temp = tmp_path / "PWNED", tmp_path / "tmp"
    shared_temp.mkdir()
    environment = {**os.environ, "TMPDIR": str(shared_temp), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    _build_parser(environment, shared_cache=True)  # the attacker learns the name Lark uses...
    (planted,) = shared_temp.glob(".lark_cache_*")
    planted.write_bytes(b"any hash\n" + pickle.dumps(_RunsCode(sentinel)))  # ...and plants a pickle there
    _build_parser(environment, shared_cache=True)
    assert sentinel.exists(), "the planted cache is a working attack on Lark's default"
    sentinel.unlink()

    built = _build_parser(environment, shared_cache=False)
    assert built.returncode == 0, built.stderr
    assert not sentinel.exists()
    private = tmp_path / "cache" / "ludolex"
    assert list(private.glob("*.pickle")) and (private.stat().st_mode & 0o777) == 0o700


def test_a_cache_folder_others_can_write_is_not_used(tmp_path):
    folder = tmp_path / "cache" / "ludolex"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    code = "from interpreter.language import parser; print(parser._private_cache())"
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment)
    assert done.stdout.strip() == "False", done.stderr
