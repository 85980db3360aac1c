"""reading the ledger: date,account,amount rows"""
import csv
import datetime
from decimal import Decimal


def read(path):
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            yield (datetime.date.fromisoformat(row['date']), row['account'],
                   Decimal(row['amount']))
