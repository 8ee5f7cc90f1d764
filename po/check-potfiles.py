#!/usr/bin/env python3
"""Every source file that marks strings for translation is in POTFILES.in,
and POTFILES.in is sorted and names only files that exist. Run by meson
test (suite 'data') with the source root as the argument."""
import os
import re
import sys

top = sys.argv[1]
listed = [l.strip() for l in open(os.path.join(top, 'po', 'POTFILES.in'))
          if l.strip() and not l.startswith('#')]
marker = re.compile(r'\b(?:N?_|C_|NC_)\s*\(\s*"|g_dn?gettext\s*\(')
found = []
for folder in ('app', 'model', 'render'):
    for root, _, names in os.walk(os.path.join(top, folder)):
        for name in names:
            if name.endswith(('.c', '.h')):
                path = os.path.join(root, name)
                if marker.search(open(path, encoding='utf-8').read()):
                    found.append(os.path.relpath(path, top))
status = 0
for path in sorted(set(found) - set(listed)):
    print(f'not in po/POTFILES.in: {path}')
    status = 1
for path in listed:
    if not os.path.exists(os.path.join(top, path)):
        print(f'in po/POTFILES.in but missing: {path}')
        status = 1
if listed != sorted(listed):
    print('po/POTFILES.in is not sorted')
    status = 1
sys.exit(status)
