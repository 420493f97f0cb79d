#!/usr/bin/env python3
"""Functions (and initialisers) in Sources/ longer than a limit, longest first (issue "Outputs as
observers": at most 15 over 60 lines).

    python3 scripts/long-functions.py [--limit 60] [--list]

A function's length is counted from its declaration's line to the line of its closing brace
(strings and // comments ignored when matching braces). Prints the count, and with --list each
function: lines, file, line of its declaration, the declaration's start. Standard library only.
"""
import argparse
import os
import re
import sys

DECL = re.compile(r'\s*(public |private |fileprivate |internal |static |mutating |@inline\(__always\) '
                  r'|@discardableResult |nonisolated |override |final )*(func |init[(<?]|init\?)')


def functions(root='Sources'):
    """(lines, path, line number, declaration) of every function under root."""
    out = []
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            i = 0
            while i < len(lines):
                if not DECL.match(lines[i]) or lines[i].strip().startswith('//'):
                    i += 1
                    continue
                depth, started, j = 0, False, i
                while j < len(lines):
                    code = re.sub(r'"([^"\\]|\\.)*"', '""', lines[j]).split('//')[0]
                    for ch in code:
                        if ch == '{':
                            depth, started = depth + 1, True
                        elif ch == '}':
                            depth -= 1
                    if started and depth <= 0:
                        break
                    if not started and j > i + 15:  # a protocol requirement: no body
                        break
                    j += 1
                if started:
                    out.append((j - i + 1, path, i + 1, lines[i].strip()[:70]))
                    i = j + 1
                else:
                    i += 1
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--limit', type=int, default=60)
    ap.add_argument('--list', action='store_true')
    args = ap.parse_args(argv)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(here)
    long = sorted((f for f in functions() if f[0] > args.limit), reverse=True)
    print(f'{len(long)} functions over {args.limit} lines in Sources/')
    if args.list:
        for n, path, line, decl in long:
            print(f'{n:4d}  {path}:{line}  {decl}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
