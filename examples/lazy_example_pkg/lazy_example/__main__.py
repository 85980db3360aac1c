# -*- coding: lazy -*-
"""python -m lazy_example: shows which modules the package's lazy imports
have imported, before and after it uses them."""

import sys

WATCHED = ('json', 'decimal', 'statistics', 'lazy_example.report')


def imported():
    return ' '.join(f'{name}={"yes" if name in sys.modules else "no"}' for name in WATCHED)


def main():
    # `python -m lazy_example` has imported the package (runpy does, to find
    # this module): its lazy imports have run and imported nothing
    import lazy_example

    print('imported lazy_example:', imported())
    result = lazy_example.summary(['1.10', '2.20'])
    print('summary:', result)
    print('after summary:', imported())
    print('json:', lazy_example.to_json(result))
    print('after to_json:', imported())
    return 0


if __name__ == '__main__':
    sys.exit(main())
