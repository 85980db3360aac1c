"""rich: print a table."""

from rich.console import Console
from rich.table import Table

table = Table(title='Releases')
for column in ('version', 'date', 'notes'):
    table.add_column(column)
table.add_row('3.13', '2024-10-07', 'free-threaded build')
table.add_row('3.14', '2025-10-07', 'deferred annotations')
table.add_row('3.15', '2026-10-01', '[bold]lazy imports[/bold]')
Console(width=80, force_terminal=True, color_system='standard').print(table)
