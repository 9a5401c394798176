"""The run's modules as ``Project`` resolves them (names a ``from base import *`` brings in) and
the record classes they define (``analysis.records``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from tokenlint.source.project import Project


def project_of(**sources: str) -> Project:
    """A project of in-memory modules: keyword ``pkg__mod`` is module ``pkg.mod``."""
    files: dict[str, tuple[Path, str]] = {}
    texts: dict[Path, str] = {}
    for key, text in sources.items():
        name = key.replace("__", ".")
        path = Path(name.replace(".", "/") + ".py")
        files[name] = (path, str(path))
        texts[path] = textwrap.dedent(text)
    return Project(files, texts, {})


def test_star_import_binds_the_public_names_of_the_base():
    project = project_of(
        pkg__helpers="""
            import httpx
            from os import path as osp
            LIMIT = 10
            def fetch(url): return httpx.get(url)
            def _secret(): return 1
            class Client: pass
        """,
        pkg__server="from .helpers import *\n",
    )
    server = project.get("pkg.server")
    assert server is not None
    names = server.imports.names
    assert names["fetch"] == "pkg.helpers.fetch"
    assert names["Client"] == "pkg.helpers.Client"
    assert names["LIMIT"] == "pkg.helpers.LIMIT"
    assert names["osp"] == "os.path"  # what the base imported, as it imported it
    assert names["httpx"] == "httpx"
    assert "_secret" not in names
    assert project.function_called(server, cst.Name("fetch")) is not None


def test_star_import_takes_only_the_names_of_all_and_keeps_the_module_s_own():
    project = project_of(
        pkg__helpers="""
            __all__ = ["fetch"]
            def fetch(url): return url
            def parse(text): return text
            def close(): pass
        """,
        pkg__server="""
            from .helpers import *
            from json import loads as close
            def fetch(url): return None
        """,
    )
    server = project.get("pkg.server")
    assert server is not None
    assert "parse" not in server.imports.names  # not in ``__all__``
    assert "fetch" not in server.imports.names  # defined here: this module's own
    assert server.imports.names["close"] == "json.loads"


def test_star_imports_chain_and_stop_at_a_cycle():
    project = project_of(
        pkg__a="from .b import *\ndef alpha(): pass\n",
        pkg__b="from .a import *\nfrom .c import *\ndef beta(): pass\n",
        pkg__c="def gamma(): pass\n",
    )
    a = project.get("pkg.a")
    assert a is not None
    assert a.imports.names["beta"] == "pkg.b.beta"
    assert a.imports.names["gamma"] == "pkg.c.gamma"  # through b's own star import
    b = project.get("pkg.b")
    assert b is not None and b.imports.names["gamma"] == "pkg.c.gamma"



def test_a_name_only_a_library_star_import_can_bind_is_that_library_s():
    project = project_of(
        pkg__server="""
            from acme_sdk import *
            from .local import *
            import json
            LIMIT = 5
            def helper(): pass
        """,
        pkg__local="def mine(): pass\n",
    )
    server = project.get("pkg.server")
    assert server is not None
    assert server.imports.foreign_stars == ["acme_sdk"]
    assert project.star_qualified(server, "list_widgets") == "acme_sdk.list_widgets"
    for bound in ("mine", "json", "LIMIT", "helper", "len", "print"):
        assert project.star_qualified(server, bound) is None, bound
    plain = project_of(pkg__server="def helper(): pass\n").get("pkg.server")
    assert plain is not None and project.star_qualified(plain, "list_widgets") is None


def test_fixed_model_reads_the_declared_fields():
    from tokenlint.analysis.records import fixed_model

    project = project_of(
        pkg__models="""
            from datetime import datetime
            from enum import Enum
            from typing import Annotated, Literal, Optional, TypedDict
            from pydantic import BaseModel, ConfigDict, Field
            from dataclasses import dataclass

            class Kind(str, Enum):
                A = "a"
            class Small(BaseModel):
                id: str
                n: Optional[int] = None
                kind: Kind
                at: "datetime"
                mode: Literal["x", "y"] = "x"
                score: Annotated[float, Field(ge=0)] = 0
            class Nested(BaseModel):
                small: Small | None = None
            class Child(Small):
                extra_flag: bool = False
            @dataclass
            class Point:
                x: int
                y: int
            class Listing(BaseModel):
                id: str
                tags: list[str]
            class Payload(BaseModel):
                id: str
                description: str
            class Open(BaseModel):
                model_config = ConfigDict(extra="allow")
                id: str
            class OldOpen(BaseModel):
                id: str
                class Config:
                    extra = "allow"
            class Plain:
                id: str
            class Dict(TypedDict):
                id: str
        """,
    )
    for name in ("Small", "Nested", "Child", "Point"):
        assert fixed_model(project, f"pkg.models.{name}"), name
    for name in ("Listing", "Payload", "Open", "OldOpen", "Plain", "Dict", "Missing"):
        assert not fixed_model(project, f"pkg.models.{name}"), name
