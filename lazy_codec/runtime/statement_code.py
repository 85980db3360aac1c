"""The code of a lazy statement's import, as resolution runs it: made once
per statement shape without compile() (a process's first compile() builds
the ast module's node types), then placed on the `lazy` line of its file,
so that a traceback shows the user's own line.
"""

import sys

from lazy_codec.runtime.state import statement_code_ids

_getframe = sys._getframe

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true)
if TYPE_CHECKING:
    from types import CodeType
else:
    CodeType = type(sys._getframe().f_code)  # (not importing types: see access.ModuleType)


# code objects of the statements that resolution executes, by (statement,
# file, line): compiled once per process (their ids: state.statement_code_ids)
_statement_codes: dict = {}


def statement_code(statement: str, filename: str, lineno: int):
    """`statement` compiled as if written on line `lineno` of `filename`"""
    key = (statement, filename, lineno)
    code = _statement_codes.get(key)
    if code is None:
        code = _unplaced.get(statement)
        if code is None:
            code = _from_template(statement)
            if code is None:
                code = code_of(statement)
            _unplaced[statement] = code
        code = _statement_codes[key] = placed(code, filename, lineno)
        statement_code_ids.add(id(code))  # kept alive by _statement_codes
    return code


# the same, by statement alone, before placing (many modules import the
# same names)
_unplaced: dict = {}

# compiled import statements with placeholder names, by shape, each with the
# function that gives its names and constants for real names: a statement of
# that shape is the template with its names put in (a few times cheaper than
# compiling it, which every first use of a lazy name would pay)
_templates: dict = {}


def _from_template(statement: str):
    """`import a.b as v` or `from ..a import b as v` as code, or None"""
    words = statement.split(' ')
    if len(words) == 4 and words[0] == 'import' and words[2] == 'as' and words[3] == 'v':
        names = words[1].split('.')
        shape = ('import', 0, len(names))
    elif (
        len(words) == 6
        and words[0] == 'from'
        and words[2] == 'import'
        and words[4] == 'as'
        and words[5] == 'v'
    ):
        dotted = words[1].lstrip('.')
        names = (dotted.split('.') if dotted else []) + [words[3]]
        shape = ('from', len(words[1]) - len(dotted), len(names))
    else:
        return None
    if not all(map(str.isidentifier, names)):
        return None
    made = _templates.get(shape)
    if made is None:
        made = _templates[shape] = _template(*shape)
    template, fill = made
    names_, consts = fill(names)
    return template.replace(co_names=names_, co_consts=consts)


def _template(kind: str, level: int, count: int) -> tuple:
    """(the code of a statement of this shape with placeholder names `_0`,
    `_1`, ..., the function of the real names that gives its co_names and
    co_consts): the function is written once per shape, so that filling a
    template in costs one call"""
    placeholders = [f'_{i}' for i in range(count)]
    if kind == 'import':
        text = f'import {".".join(placeholders)} as v'
    else:
        text = f'from {"." * level}{".".join(placeholders[:-1])} import {placeholders[-1]} as v'
    code = code_of(text)

    def expression(value) -> str:
        """Python source for `value` with the placeholders as names[i]"""
        if type(value) is tuple:
            return '(' + ''.join(expression(item) + ', ' for item in value) + ')'
        if type(value) is str and value:
            parts = value.split('.')
            if all(part in placeholders for part in parts):
                return " + '.' + ".join(f'names[{placeholders.index(part)}]' for part in parts)
        if value is None or type(value) in (str, int, bool):
            return repr(value)
        raise ValueError(value)  # (no such constant in an import statement's code)

    source = f'lambda names: ({expression(code.co_names)}, {expression(code.co_consts)})'
    return code, eval(source, {})


# `statement` as the body of a class that never runs, in a module that hands
# out its own code (see code_of)
_CLASS_BODY = 'c = _getframe().f_code\nif c is None:\n    class _:\n        {}\n'


def code_of(statement: str) -> CodeType:
    """`statement` as code that runs in a namespace (a class body's: it also
    stores __module__ and __qualname__ there, which nothing reads), made
    without compile(): a process's first compile() builds the ast module's
    node types, 8.6 M instructions on 3.11 and 10.4 M on 3.14, which exec of
    a string does not"""
    namespace: dict = {'_getframe': _getframe}
    exec(_CLASS_BODY.format(statement), namespace)
    module: CodeType = namespace['c']
    return next(const for const in module.co_consts if type(const) is CodeType)


# a location table entry (3.11+): "no columns" (code 13) for up to 8 code
# units, at line delta 0; its low 3 bits hold the count less one
LOCATION_NO_COLUMNS = 0x80 | (13 << 3)


_no_columns: dict = {}  # the location table above, by number of code units


def placed(code, filename: str, lineno: int):
    """`code` as if written on line `lineno` of `filename`, with no columns
    (one replace: each makes a new code object): a traceback shows the
    user's `lazy` line there, whose columns differ"""
    if sys.version_info < (3, 10):  # no columns before 3.11; an empty lnotab: all at the first line
        return code.replace(co_filename=filename, co_firstlineno=lineno, co_name='<module>', co_lnotab=b'')
    if sys.version_info < (3, 11):  # (bytes, line delta 0) pairs of at most 254 bytes
        size = len(code.co_code)
        table = bytes((254, 0)) * (size // 254) + (bytes((size % 254, 0)) if size % 254 else b'')
        return code.replace(
            co_filename=filename, co_firstlineno=lineno, co_name='<module>', co_linetable=table
        )
    units = len(code.co_code) // 2
    table = _no_columns.get(units)
    if table is None:
        table = bytearray()
        left = units
        while left > 0:
            n = min(left, 8)
            table += bytes((LOCATION_NO_COLUMNS | (n - 1), 0))
            left -= n
        table = _no_columns[units] = bytes(table)
    return code.replace(
        co_filename=filename,
        co_firstlineno=lineno,
        co_linetable=table,
        co_name='<module>',
        co_qualname='<module>',
    )
