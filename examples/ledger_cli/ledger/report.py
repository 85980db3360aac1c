import statistics
from collections import defaultdict
from fractions import Fraction

from ledger import entries


def run(args, out):
    totals = defaultdict(list)
    for _, account, amount in entries.read(args.file):
        totals[account].append(amount)
    for account, amounts in sorted(totals.items()):
        share = Fraction(len(amounts), sum(map(len, totals.values())))
        out.write(f'{account:10} {sum(amounts):>10} mean {statistics.mean(amounts):.2f} '
                  f'({share} of entries)\n')
    return 0
