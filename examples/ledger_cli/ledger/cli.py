"""ledger's command line: each command lives in a module of its own."""
import argparse
import sys

from ledger import export, fetch, report


def main(argv=None):
    parser = argparse.ArgumentParser(prog='ledger', description='keep accounts in a CSV file')
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('report', help='totals per account')
    p.add_argument('file')
    p = sub.add_parser('export', help='the ledger as JSON or XML')
    p.add_argument('file')
    p.add_argument('--format', choices=('json', 'xml'), default='json')
    p = sub.add_parser('fetch', help='download rates from a URL')
    p.add_argument('url')
    args = parser.parse_args(argv)
    if args.command == 'report':
        return report.run(args, sys.stdout)
    if args.command == 'export':
        return export.run(args, sys.stdout)
    return fetch.run(args, sys.stdout)
