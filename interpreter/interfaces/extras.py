"""Modules that need an optional extra of ludolex: importing one that is missing says what to install.

Only the plots of `report --plots` need one (`report`: matplotlib, which brings numpy); the statistics
of `simulate`, `report` and `compare` are pure Python (`interpreter.reports.stats`)."""
from __future__ import annotations

import importlib
from types import ModuleType

import click

EXTRA_OF = {"matplotlib": "report", "numpy": "report"}  # an imported package -> its extra (numpy comes with matplotlib)


class MissingExtra(click.ClickException):
    exit_code = 2  # not a problem of the games: the installation lacks a part

    def __init__(self, package: str):
        extra = EXTRA_OF[package]
        super().__init__(f"this command needs {package}, which comes with the `{extra}` extra: "
                         f"pip install 'ludolex[{extra}]' (in a clone: pip install -e '.[{extra}]', or `make test`)")


def import_needing_extra(module: str) -> ModuleType:
    """`module`, or MissingExtra if a package of an extra it imports is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = (error.name or "").partition(".")[0]
        if package in EXTRA_OF:
            raise MissingExtra(package) from None
        raise
