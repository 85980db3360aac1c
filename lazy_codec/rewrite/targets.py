"""What 3.15 calls an expression written where an import target goes.

`lazy import a as b.c` is a SyntaxError whose message names what follows
`as` ("cannot use attribute as import target") and whose span is that
expression's.  This reads the expression from the statement's tokens and
names it as 3.15's parser does.  Only a rejected statement needs it: the
rewrite imports this module when it words such an error, never otherwise.
"""

from lazy_codec.rewrite.lexer import KEYWORDS, NAME, OP, OTHER, Tok
from lazy_codec.rewrite.statements import OPENING, bracket_depths, closing_bracket

_BINARY = frozenset(('+', '-', '*', '/', '//', '%', '**', '@', '<<', '>>', '&', '|', '^'))
_COMPARISON = frozenset(('<', '>', '==', '!=', '<=', '>=', 'in', 'is', 'not'))


def _primary(toks: list, at: int, end: Tok):
    """(kind, first token, last token, index after) of the atom and its
    trailers at `at`, named as 3.15's errors name expressions, or None"""
    tok = toks[at] if at < len(toks) else end
    first = start = tok
    if tok.type == NAME and tok.string == 'lambda':
        # a lambda runs to the end of the statement or a `,` outside brackets
        last, i = tok, at
        while i < len(toks) and toks[i].string not in (',', ')'):
            if toks[i].string in OPENING:
                i = _closing(toks, i)
                if i < 0:
                    return None
            last, i = toks[i], i + 1
        return 'lambda', first, last, i
    if tok.type == NAME:
        if tok.string in ('None', 'True', 'False'):
            kind = tok.string
        elif tok.string in KEYWORDS:
            return None
        else:
            kind = 'name'
        last, at = tok, at + 1
    elif tok.type == OTHER:  # numbers and strings (one, or adjacent ones)
        kind, last, at = 'literal', tok, at + 1
        while at < len(toks) and toks[at].type == OTHER:
            last, at = toks[at], at + 1
    elif tok.string == '...':
        kind, last, at = 'ellipsis', tok, at + 1
    elif tok.string in OPENING:
        close = _closing(toks, at)
        if close < 0:
            return None
        inner = toks[at + 1 : close]
        last = toks[close]
        if tok.string == '[':
            kind = 'list'
        elif tok.string == '{':
            kind = 'dict literal' if _outside_brackets(inner, ':') else 'set display'
        elif not inner or _outside_brackets(inner, ','):
            kind = 'tuple'
        else:  # (expression): 3.15 names and places the expression inside
            kind, first, last, after = expression(inner, 0, toks[close])
            if kind is None or after != len(inner):
                return None
        at = close + 1
    else:
        return None
    while at < len(toks):  # trailers
        tok = toks[at]
        if tok.string == '.' and at + 1 < len(toks) and toks[at + 1].type == NAME:
            kind, last, at = 'attribute', toks[at + 1], at + 2
        elif tok.type == OP and tok.string in ('(', '['):
            close = _closing(toks, at)
            if close < 0:
                return None
            kind = 'function call' if tok.string == '(' else 'subscript'
            last, at = toks[close], close + 1
        else:
            break
        first = start
    return kind, first, last, at


def _outside_brackets(toks: list, op: str) -> bool:
    strings = [tok.string for tok in toks]
    return any(string == op and not depth for string, depth in zip(strings, bracket_depths(strings)))


def expression(toks: list, at: int, end: Tok):
    """(kind, first token, last token, index after) of the expression at
    `at`, named as 3.15 names it in "cannot use ... as import target"; kind
    None and the token at fault if there is no expression there"""
    ops = set()
    start = at
    first = None
    while True:
        tok = toks[at] if at < len(toks) else end
        while tok.string in ('-', '+', '~') and tok.type == OP or tok.string == 'not' and tok.type == NAME:
            ops.add('unary')
            at += 1
            tok = toks[at] if at < len(toks) else end
        primary = _primary(toks, at, end)
        if primary is None:
            return None, tok, None, at
        kind, primary_first, last, at = primary
        first = first or primary_first
        tok = toks[at] if at < len(toks) else end
        if tok.type == OP and tok.string in _BINARY:
            ops.add('binary')
        elif tok.type in (OP, NAME) and tok.string in _COMPARISON:
            ops.add('comparison')
            if tok.string in ('is', 'not') and at + 1 < len(toks) and toks[at + 1].string in ('not', 'in'):
                at += 1
        elif tok.type == NAME and tok.string in ('and', 'or'):
            ops.add('boolean')
        elif tok.type == NAME and tok.string in ('if', 'else'):
            ops.add('conditional')
        else:
            break
        at += 1
    if ops:
        first = toks[start]
    if 'conditional' in ops:
        kind = 'conditional expression'
    elif 'boolean' in ops:
        kind = 'expression'
    elif 'comparison' in ops:
        kind = 'comparison'
    elif ops:
        kind = 'expression'
    return kind, first, last, at


def _closing(toks: list, at: int) -> int:
    return closing_bracket([tok.string for tok in toks], at)
