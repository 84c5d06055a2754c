#!/usr/bin/env bash
# Checks that Sources/CairnC/HeaderCheck.swift covers every function declared in include/cairn.h,
# so the compile-time signature check cannot silently miss a new declaration.
set -euo pipefail
cd "$(dirname "$0")/.."
declared=$(grep -oE '\b(cairn_[a-z0-9_]+)\(' include/cairn.h | tr -d '(' | grep -v '^cairn_[a-z_]*_fn$' | sort -u)
checked=$(grep -oE 'CCairnHeader\.cairn_[a-z0-9_]+' Sources/CairnC/HeaderCheck.swift | sed 's/CCairnHeader\.//' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$checked"))
extra=$(comm -13 <(echo "$declared") <(echo "$checked"))
if [ -n "$missing$extra" ]; then
    [ -n "$missing" ] && echo "declared in cairn.h but not checked in HeaderCheck.swift: $missing"
    [ -n "$extra" ] && echo "checked in HeaderCheck.swift but not declared in cairn.h: $extra"
    exit 1
fi
echo "header check covers $(echo "$declared" | wc -l) functions"
