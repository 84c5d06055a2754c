#!/usr/bin/env bash
# Checks that Sources/DrumlinC/HeaderCheck.swift covers every function declared in include/drumlin.h,
# so the compile-time signature check cannot silently miss a new declaration; then that each export
# sits in the Swift file of its header section (tools/check-export-sections.py).
set -euo pipefail
cd "$(dirname "$0")/.."
declared=$(grep -oE '\b(drumlin_[a-z0-9_]+)\(' include/drumlin.h | tr -d '(' | grep -v '^drumlin_[a-z_]*_fn$' | sort -u)
checked=$(grep -oE 'CDrumlinHeader\.drumlin_[a-z0-9_]+' Sources/DrumlinC/HeaderCheck.swift | sed 's/CDrumlinHeader\.//' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$checked"))
extra=$(comm -13 <(echo "$declared") <(echo "$checked"))
if [ -n "$missing$extra" ]; then
    [ -n "$missing" ] && echo "declared in drumlin.h but not checked in HeaderCheck.swift: $missing"
    [ -n "$extra" ] && echo "checked in HeaderCheck.swift but not declared in drumlin.h: $extra"
    exit 1
fi
echo "header check covers $(echo "$declared" | wc -l) functions"
${PYTHON:-python3} tools/check-export-sections.py
