"""Paddock's per-user cache of its own YAML, parsed (generator/cache.py): the same data and lines as a parse,
keyed by the whole text, ignored when damaged, foreign or made by other code, and never an error."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys

import pytest

from generator import cache
from generator.data import templates_dir, track_specs_dir
from generator.specs import parse_yaml

SHIPPED = sorted(templates_dir().rglob("*.yaml")) + sorted(track_specs_dir().glob("*.yaml"))


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _parse_all():
    return [parse_yaml(f.read_text(encoding="utf-8"), f, trusted=True) for f in SHIPPED]


def test_a_warm_cache_gives_what_parsing_gives(folder, monkeypatch):
    cold = _parse_all()  # parsed, and written
    assert cache.parsed_yaml().path.is_file()
    monkeypatch.setattr(cache, "_STORES", {})  # a new process: the file is read
    warm = _parse_all()
    monkeypatch.setenv(cache.ENV, "")  # off: parsed again
    monkeypatch.setattr(cache, "_STORES", {})
    off = _parse_all()
    assert [d for d, _ in warm] == [d for d, _ in cold] == [d for d, _ in off]
    assert [dict(lines) for _, lines in warm] == [dict(lines) for _, lines in off]
    assert all(type(lines).__name__ == "LineMap" for _, lines in warm)
    assert not (folder.parent / "off").exists()


def test_an_edited_file_is_a_new_entry_and_the_cache_is_off_when_asked(folder, monkeypatch):
    a = parse_yaml("name: A\nlanes: 2\n", "x.yaml", trusted=True)
    b = parse_yaml("name: A\nlanes: 3\n", "x.yaml", trusted=True)
    assert a[0] == {"name": "A", "lanes": 2} and b[0] == {"name": "A", "lanes": 3}
    monkeypatch.setattr(cache, "_STORES", {})
    assert cache.parsed_yaml().get("name: A\nlanes: 2\n")[0] == {"name": "A", "lanes": 2}
    assert cache.parsed_yaml().get("name: A\nlanes: 3\n")[1] == {(): 1, ("name",): 1, ("lanes",): 2}
    monkeypatch.setenv(cache.ENV, "")
    assert cache.cache_dir() is None and cache.parsed_yaml().get("name: A\nlanes: 2\n") is None


def test_users_files_are_never_cached(folder):
    parse_yaml("name: mine\n", "mine.yaml")
    assert not folder.exists() or not any(folder.iterdir())


def _poisoned(path, stamp):
    """A well-formed cache saying ``name: A`` is ``{"name": "B"}``: what a file someone else wrote could say."""
    cache._write(path, (stamp, {"name: A\n": marshal.dumps(({"name": "B"}, ()))}))


def _no_magic(path, stamp):
    payload = marshal.dumps((stamp, {"name: A\n": marshal.dumps(({"name": "B"}, ()))}))
    path.write_bytes(payload)  # the right content, but not as Paddock writes it (no checksum)


@pytest.mark.parametrize(
    "damage",
    [
        lambda p, stamp: p.write_bytes(b"not marshal at all"),
        lambda p, stamp: p.write_bytes(p.read_bytes()[:100]),
        lambda p, stamp: _poisoned(p, "another stamp"),
        lambda p, stamp: cache._write(p, [1, 2, 3]),
        lambda p, stamp: (_poisoned(p, stamp), os.chmod(p, 0o666)),  # anyone could have written it
        lambda p, stamp: (_poisoned(p, stamp), os.chmod(p.parent, 0o777)),  # … or put it there
        _no_magic,
    ],
    ids=["garbage", "cut short", "another stamp", "not entries", "world-writable", "open folder", "no checksum"],
)
def test_a_damaged_or_foreign_cache_is_ignored(folder, monkeypatch, damage):
    parse_yaml("name: A\n", "x.yaml", trusted=True)
    path = cache.parsed_yaml().path
    damage(path, cache.parsed_yaml().stamp)
    monkeypatch.setattr(cache, "_STORES", {})
    assert parse_yaml("name: A\n", "x.yaml", trusted=True)[0] == {"name": "A"}


def test_the_users_own_cache_is_believed(folder, monkeypatch):
    """The checks above would pass whatever the cache held, were a well-formed entry not read when it is the
    user's own: here it is, and it is believed (the cache trusts its owner, as the owner's shell does)."""
    parse_yaml("name: A\n", "x.yaml", trusted=True)
    _poisoned(cache.parsed_yaml().path, cache.parsed_yaml().stamp)
    monkeypatch.setattr(cache, "_STORES", {})
    assert parse_yaml("name: A\n", "x.yaml", trusted=True)[0] == {"name": "B"}


def test_any_flipped_bit_is_caught_before_anything_is_read(folder, monkeypatch):
    """marshal is not safe on damaged data (one flipped bit was seen to crash Python): the file's checksum is
    checked first, so a damaged file is only a miss, whichever bit of it flipped."""
    texts = [f.read_text(encoding="utf-8") for f in SHIPPED[:6]]
    want = [parse_yaml(t, "x.yaml", trusted=True) for t in texts]
    path = cache.parsed_yaml().path
    good = path.read_bytes()
    for at in range(0, len(good), max(1, len(good) // 300)):
        bad = bytearray(good)
        bad[at] ^= 1 << (at % 8)
        path.write_bytes(bytes(bad))
        monkeypatch.setattr(cache, "_STORES", {})
        assert cache.parsed_yaml()._load() == {}  # CRC-32 catches every single-bit error
    assert [parse_yaml(t, "x.yaml", trusted=True) for t in texts] == want


def test_a_pipe_where_the_cache_should_be_is_not_waited_on(folder, monkeypatch):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    folder.mkdir(mode=0o700)
    os.mkfifo(cache.parsed_yaml().path, 0o600)
    monkeypatch.setattr(cache, "_STORES", {})
    assert parse_yaml("name: A\n", "x.yaml", trusted=True)[0] == {"name": "A"}  # would hang on open


def test_the_stamp_follows_what_a_parse_depends_on(tmp_path):
    """A dependency is named by its content: a same-sized edit with its time put back still changes the stamp."""
    dep = tmp_path / "specs.py"
    dep.write_text("A = 1\n")
    before = cache._content(dep)
    st = dep.stat()
    dep.write_text("A = 2\n")
    os.utime(dep, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cache._content(dep) != before
    stamp = cache.parsed_yaml().stamp
    assert "specs.py" in stamp and "messages.py" in stamp and "PyYAML" in stamp.replace("pyyaml", "PyYAML")


def test_users_files_read_by_the_commands_are_never_cached(folder, tmp_path):
    from generator.teams import load_field
    from generator.track.load import load_spec

    teams = tmp_path / "teams.yaml"
    teams.write_text((templates_dir() / "teams" / "f1-2011.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    spec = tmp_path / "loop.yaml"
    spec.write_text((track_specs_dir() / "monte-carlo.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    load_field(teams)
    load_spec(spec)
    store = cache.parsed_yaml()
    assert teams.read_text(encoding="utf-8") not in store._load()
    assert spec.read_text(encoding="utf-8") not in store._load()
    load_field("f1-2011")  # the shipped preset of the same text: cached
    assert teams.read_text(encoding="utf-8") in store._load()


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv(cache.ENV, str(blocker / "cache"))
    monkeypatch.setattr(cache, "_STORES", {})
    assert parse_yaml("name: A\n", "x.yaml", trusted=True)[0] == {"name": "A"}


def test_values_marshal_cannot_hold_are_parsed_every_time(folder):
    data, _ = parse_yaml("when: 2026-11-24\n", "x.yaml", trusted=True)
    assert type(data["when"]).__name__ == "date"
    assert cache.parsed_yaml().get("when: 2026-11-24\n") is None


def test_a_warm_pack_does_not_load_pyyaml(folder):
    """The point of the cache: a command whose YAML is all Paddock's own (the default pack) no longer loads PyYAML
    at all, once the cache is warm (tests run with it in a folder of their own: see conftest)."""
    code = (
        "import sys, tempfile\n"
        "from generator.cli import main\n"
        "try:\n"
        "    main(['pack', '-q', '-o', tempfile.mkdtemp()])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('yaml' in sys.modules)\n"
    )
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert first.stdout.strip() == "True"  # the first process parsed (and cached) them: PyYAML loaded
    assert again.stdout.strip() == "False"


@pytest.mark.parametrize("key", ["regular", "condensed-bold"])
def test_a_cached_font_face_is_the_parsed_face(folder, monkeypatch, key):
    """Paddock's fonts are kept parsed too (generator/fonts.py): a face from the cache has every attribute of the
    face parsed from the file, of the same type, and cuts the same subsets."""
    from reportlab.pdfbase.ttfonts import TTFontFace

    from generator import fonts

    path = str(fonts.font_path(key))
    monkeypatch.setattr(cache, "_STORES", {})
    parsed = fonts._cached_face(path)  # a miss: parsed and kept
    assert cache.parsed_fonts().path.is_file()
    monkeypatch.setattr(cache, "_STORES", {})
    kept = fonts._cached_face(path)
    plain = TTFontFace(path)
    assert set(kept.__dict__) == set(parsed.__dict__) == set(plain.__dict__)
    for name, value in plain.__dict__.items():
        if name != "_pdfScale":
            assert kept.__dict__[name] == value and type(kept.__dict__[name]) is type(value), name
    assert [kept._pdfScale(v) for v in (0, 1, 2048, -7)] == [plain._pdfScale(v) for v in (0, 1, 2048, -7)]
    assert kept.name.ustr == plain.name.ustr
    assert kept.makeSubset([0x41, 0x42, 0xE9, 0x2013]) == plain.makeSubset([0x41, 0x42, 0xE9, 0x2013])


def test_no_home_means_no_cache_and_no_error(monkeypatch):
    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home():
        raise RuntimeError("Could not determine home directory")

    monkeypatch.setattr(cache.Path, "home", staticmethod(no_home))
    monkeypatch.setattr(cache, "_STORES", {})
    assert cache.cache_dir() is None
    assert parse_yaml("name: A\n", "x.yaml", trusted=True)[0] == {"name": "A"}
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # not absolute: ignored, as the XDG spec says
    assert cache.cache_dir() is None


def test_a_font_file_changed_in_place_is_parsed_again(folder, tmp_path, monkeypatch):
    """A font is known by its name, size and checksum: the same name and size, its time put back, but other bytes
    (here another face of the same size, padded) is parsed again, never given the old tables."""
    from generator import fonts

    a = (fonts.FONT_DIR / "Roboto-Regular.ttf").read_bytes()
    b = (fonts.FONT_DIR / "Roboto-Bold.ttf").read_bytes()
    size = max(len(a), len(b))
    path = tmp_path / "face.ttf"
    path.write_bytes(a.ljust(size, b"\0"))
    st = path.stat()
    first = fonts._cached_face(str(path))
    path.write_bytes(b.ljust(size, b"\0"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    monkeypatch.setattr(cache, "_STORES", {})
    second = fonts._cached_face(str(path))
    assert first.fullName != second.fullName and second.charWidths == fonts._fast_face_class()(str(path)).charWidths


def test_two_pythons_or_installs_keep_a_cache_each_and_old_ones_go(folder, monkeypatch):
    """A cache file is named for its stamp: another install (another stamp) keeps its own file beside this one
    instead of replacing it on every run; beyond the newest few, files of stamps no longer used are removed."""
    parse_yaml("name: A\n", "x.yaml", trusted=True)
    mine = cache.parsed_yaml().path
    for n in range(cache.KEEP_FILES + 2):
        other = cache.ParsedYaml(folder, cache.YAML_FILE, f"another install {n}")
        other.put(f"name: {n}\n", {"name": n}, {})
        assert mine.is_file() or n >= cache.KEEP_FILES - 1
    files = sorted(p.name for p in folder.glob(cache.YAML_FILE + "-*.marshal"))
    assert len(files) == cache.KEEP_FILES and other.path.name in files
    stale = folder / f".{mine.name}.1.abcd.tmp"
    stale.write_bytes(b"left by a run that was killed")
    os.utime(stale, (0, 0))
    other.put("name: Z\n", {"name": "Z"}, {})
    assert not stale.exists()


def test_a_stamp_that_cannot_be_made_turns_the_cache_off_once(folder, monkeypatch):
    calls = []

    def broken():
        calls.append(1)
        raise OSError("a dependency went missing")

    monkeypatch.setattr(cache, "_STORES", {})
    for _ in range(3):
        store = cache._store(cache.ParsedYaml, "broken", broken, 10)
        assert store.path is None and store.get("name: A\n") is None
    assert calls == [1]


def test_a_cached_face_names_the_file_it_was_asked_for(folder, tmp_path, monkeypatch):
    from generator import fonts

    copy = tmp_path / "Roboto-Regular.ttf"
    copy.write_bytes((fonts.FONT_DIR / "Roboto-Regular.ttf").read_bytes())
    fonts._cached_face(str(copy))  # the same font (name, size, checksum) kept from another place
    monkeypatch.setattr(cache, "_STORES", {})
    face = fonts._cached_face(str(fonts.FONT_DIR / "Roboto-Regular.ttf"))
    assert face.filename == str(fonts.FONT_DIR / "Roboto-Regular.ttf")
