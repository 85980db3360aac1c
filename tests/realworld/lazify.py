"""Make every eligible module-level import of a source tree a `lazy` statement.

    python lazify.py DIR...        # edits the .py files under each DIR in place

For each .py file: every `import ...` / `from ... import ...` at module level
(also inside module-level `if`/`else`, `with`, `for`, `while`, `match`: 3.15
accepts lazy statements there) that is not inside `try`/`except`/`finally`,
a function or a class, not `from __future__` and not `*`, gets `lazy ` in
front of it, on its own line (no line moves but the cookie's).  The cookie
`# -*- coding: lazy -*-` replaces a coding cookie on line 1 or 2, or else goes
on line 1 (line 2 after a shebang), in every other file of a tree (in sorted
order; the rest are left as 3.15 source without a cookie, which lazy_codec's
source loader compiles through the rewrite), so that both ways are run.
Files the running interpreter cannot parse are left as they are (and reported).
"""

import ast
import os
import re
import sys

COOKIE = '# -*- coding: lazy -*-'
COOKIE_RE = re.compile(r'^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)')
# statements whose bodies are still module level for a lazy statement
BLOCKS = (ast.If, ast.With, ast.For, ast.While) + ((ast.Match,) if hasattr(ast, 'Match') else ())


def eligible_imports(body):
    for node in body:
        if isinstance(node, ast.Import):
            yield node
        elif isinstance(node, ast.ImportFrom):
            if node.module == '__future__' or any(a.name == '*' for a in node.names):
                continue
            yield node
        elif isinstance(node, BLOCKS):
            if hasattr(ast, 'Match') and isinstance(node, ast.Match):
                for case in node.cases:
                    yield from eligible_imports(case.body)
            else:
                yield from eligible_imports(node.body)
                yield from eligible_imports(getattr(node, 'orelse', []))


def lazify_source(data: bytes, cookie: bool = True):
    """the edited bytes and the number of statements made lazy (None:
    unparsable); with `cookie`, the `lazy` cookie in it"""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None, 0
    lines = data.splitlines(keepends=True)
    nodes = sorted(eligible_imports(tree.body), key=lambda n: (n.lineno, n.col_offset), reverse=True)
    for node in nodes:
        i = node.lineno - 1
        line = lines[i]
        # col_offset counts UTF-8 bytes, as the bytes of the line do
        lines[i] = line[: node.col_offset] + b'lazy ' + line[node.col_offset :]
    if not cookie:
        return b''.join(lines), len(nodes)
    cookie = (COOKIE + '\n').encode()
    for i in (0, 1):
        if i < len(lines) and COOKIE_RE.match(lines[i].decode('latin-1')):
            if i == 1 and not lines[0].startswith(b'#'):
                break  # a cookie on line 2 counts only after a comment line
            lines[i] = cookie
            break
    else:
        at = 1 if lines and lines[0].startswith(b'#!') else 0
        lines.insert(at, cookie)
    return b''.join(lines), len(nodes)


def lazify_tree(root, exclude=()):
    """edit every .py under root but in directories named in exclude;
    returns {'files': n, 'lazy': n, 'unparsable': [...]}"""
    stats = {'files': 0, 'lazy': 0, 'unparsable': []}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in exclude)
        for filename in sorted(filenames):
            if not filename.endswith('.py'):
                continue
            path = os.path.join(dirpath, filename)
            with open(path, 'rb') as f:
                data = f.read()
            new, count = lazify_source(data, cookie=stats['files'] % 2 == 0)
            if new is None:
                stats['unparsable'].append(os.path.relpath(path, root))
                continue
            with open(path, 'wb') as f:
                f.write(new)
            stats['files'] += 1
            stats['lazy'] += count
    return stats


if __name__ == '__main__':
    for directory in sys.argv[1:]:
        print(directory, lazify_tree(directory))
