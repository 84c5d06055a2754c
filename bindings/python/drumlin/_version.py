"""The version of this package and the C ABI it speaks.

Generated from include/drumlin.h by tools/gen-python-version.py: do not edit.
"""

VERSION = "0.1.0"
ABI_VERSION = 1
