"""The unchecked entry points of the packed read calls (_ffi.UNCHECKED) are the declared C functions
themselves, with the declared result type and no argument conversion or status check."""

from __future__ import annotations

from ctypes import c_void_p, cast

from drumlin import _ffi


def test_each_unchecked_entry_point_is_its_declared_function() -> None:
    assert len(_ffi.UNCHECKED) == 11
    for unchecked, declared in _ffi.UNCHECKED:
        assert unchecked.__name__ == declared.__name__
        assert cast(unchecked, c_void_p).value == cast(declared, c_void_p).value
        assert unchecked.restype is declared.restype
        assert unchecked.argtypes is None and declared.argtypes
        assert unchecked.errcheck is None and declared.errcheck is not None
