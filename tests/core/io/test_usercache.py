"""core.io.usercache: what is stored comes back under its name and key only, checked; a
corrupt, truncated, stale or unwritable cache is ignored, never an error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from matchlight.core.io.usercache import CACHE_ENV, UserCache, cache_folder, user_cache


def test_data_comes_back_under_its_name_and_key(tmp_path: Path) -> None:
    cache = UserCache(tmp_path / "made" / "here")
    assert cache.get("model", "k1") is None
    cache.put("model", "k1", b"\x00 model bytes \xff" * 1000)
    assert cache.get("model", "k1") == b"\x00 model bytes \xff" * 1000
    assert cache.get("model", "k2") is None
    assert cache.get("other", "k1") is None


def test_a_new_key_replaces_the_old_files_of_that_name_only(tmp_path: Path) -> None:
    cache = UserCache(tmp_path)
    cache.put("groups-en", "old", b"a")
    cache.put("groups-de", "old", b"b")
    cache.put("groups-en", "new", b"c")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["groups-de-old.bin", "groups-en-new.bin"]
    assert (cache.get("groups-en", "old"), cache.get("groups-en", "new")) == (None, b"c")
    assert cache.get("groups-de", "old") == b"b"


@pytest.mark.parametrize("damage", ["flip", "truncate", "empty", "foreign"])
def test_a_damaged_file_is_ignored(tmp_path: Path, damage: str) -> None:
    cache = UserCache(tmp_path)
    cache.put("model", "k", bytes(range(256)) * 64)
    path = cache.path("model", "k")
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[-100] ^= 0x01
    elif damage == "truncate":
        del raw[-1:]
    elif damage == "empty":
        raw.clear()
    else:
        raw = bytearray(b"PK\x03\x04 not ours")
    path.write_bytes(bytes(raw))
    assert cache.get("model", "k") is None
    cache.put("model", "k", b"again")  # made again, over the damaged file
    assert cache.get("model", "k") == b"again"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_folder_that_cannot_be_written_means_no_cache(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        cache = UserCache(folder)
        cache.put("model", "k", b"data")  # no error
        assert cache.get("model", "k") is None
    finally:
        folder.chmod(0o700)


def test_a_folder_in_the_way_of_the_cache_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"not a folder")
    cache = UserCache(blocker / "cache")
    cache.put("model", "k", b"data")
    assert cache.get("model", "k") is None
    assert blocker.read_bytes() == b"not a folder"


def test_the_folder_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_folder() == tmp_path / "mine"
    assert user_cache() == UserCache(tmp_path / "mine")
    monkeypatch.setenv(CACHE_ENV, "")
    assert cache_folder() is None and user_cache() is None
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert cache_folder() == tmp_path / "xdg" / "matchlight"
