"""tools/gen-python-version.py on bad input: a clear error, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import _generator


def test_a_header_without_the_version_defines_is_refused_by_name(tmp_path: Path) -> None:
    header = tmp_path / "drumlin.h"
    header.write_text('#define DRUMLIN_VERSION "1.2.3"\n')  # no DRUMLIN_ABI_VERSION
    with pytest.raises(SystemExit, match=r"drumlin\.h: DRUMLIN_VERSION or DRUMLIN_ABI_VERSION not found"):
        _generator().header_versions(header)


def test_check_mode_reports_a_stale_file_and_leaves_it_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    generator = _generator()
    stale = tmp_path / "_version.py"
    stale.write_text('VERSION = "0.0.0"\n')
    monkeypatch.setattr(generator, "TARGET", stale)
    assert generator.main(["--check"]) == 1
    assert "is out of date" in capsys.readouterr().err
    assert stale.read_text() == 'VERSION = "0.0.0"\n'
    assert generator.main([]) == 0  # without --check it rewrites the file from the header
    assert 'ABI_VERSION = ' in stale.read_text() and generator.main(["--check"]) == 0
