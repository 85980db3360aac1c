"""`python -m lazy_codec` / `lazy-codec`: the command line."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='lazy-codec', description=__doc__)
    sub = parser.add_subparsers(dest='command', required=True)
    show = sub.add_parser('show', help='print a file as the interpreter sees it after the rewrite')
    show.add_argument('filename')
    args = parser.parse_args(argv)
    if args.command == 'show':
        from lazy_codec._rewrite import rewrite
        with open(args.filename, 'rb') as f:
            data = f.read()
        try:
            text = data.decode('utf-8')
        except UnicodeDecodeError as exc:
            print(f'{args.filename}: not UTF-8: {exc}', file=sys.stderr)
            return 1
        sys.stdout.write(rewrite(text))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
