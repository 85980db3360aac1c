"""The table that each module of differential cases fills (cases.py,
cases_faults.py, cases_realcode.py: `CASES = CaseTable()`, then
`case(...)` for each case); harness.all_cases() collects the tables."""


class CaseTable(dict):
    """case name -> case, in the shape harness.run_case runs"""

    def add(
        self,
        name,
        main=None,
        files=None,
        argv=None,
        mode='out',
        env=None,
        oracle='native',
        min_version=(3, 9),
        before_min=None,
    ):
        """main: main.py's text after the cookie line; files: the case's other
        files (harness.COMMON's helper modules are always there).
        mode: 'out' (stdout and stderr compared) or 'tail' (stdout and the
        interpreter's report of the last exception).
        oracle: 'native' (3.15's recorded output) or 'eager' (this interpreter
        running the same program with `lazy ` removed: for the interpreter's own
        errors, whose wording differs by version).
        min_version: the first version it runs on; before_min: why not before
        (default: the case uses that version's syntax)"""
        assert name not in self, f'two cases named {name!r}'
        files = dict(files or {})
        if main is not None:
            files['main.py'] = '{COOKIE}\n' + main
        self[name] = {
            'files': files,
            'argv': argv or ['main.py'],
            'mode': mode,
            'env': env or {},
            'oracle': oracle,
            'min_version': min_version,
            'before_min': before_min or f'needs Python {min_version} syntax',
        }
