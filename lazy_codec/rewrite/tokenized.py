"""The text as the stdlib's tokenizer reads it, in `lexer`'s terms.

The fallback for what the fast lexer (`lexer.logical_lines`) cannot vouch
for.  It is a module of its own because `tokenize` imports `re` and `enum`:
a decode that never needs it never pays for them, nor for this module.
"""

import tokenize

from lazy_codec.rewrite.lexer import DEDENT, ERROR, INDENT, NAME, OP, OTHER, LineReader, Tok


def tokenized_lines(reader: LineReader, stop_after: int, plain: bool = False):
    """`logical_lines` by the stdlib's tokenizer: for any text; stops quietly
    at a tokenizer error (the compiler will report it, at its own line)"""
    kinds = {tokenize.NAME: NAME, tokenize.OP: OP, tokenize.ERRORTOKEN: ERROR}
    skip = (tokenize.COMMENT, tokenize.NL)
    # 3.12+ tokenizes an f-string (3.14+: t-string) into parts: one token
    # here, as the fast lexer has it (the rewrite never looks inside)
    opens = {
        getattr(tokenize, name) for name in ('FSTRING_START', 'TSTRING_START') if hasattr(tokenize, name)
    }
    closes = {getattr(tokenize, name) for name in ('FSTRING_END', 'TSTRING_END') if hasattr(tokenize, name)}
    current = []
    nested = 0
    try:
        for tok in tokenize.generate_tokens(reader.readline):
            if nested or tok.type in opens:
                if tok.type in opens:
                    nested += 1
                    if nested == 1:
                        string_start = tok.start
                elif tok.type in closes:
                    nested -= 1
                    if not nested:
                        text = _text(reader.lines, string_start, tok.end)
                        current.append(Tok(OTHER, text, string_start, tok.end))
                continue
            if tok.type in skip:
                continue
            if tok.type in (tokenize.INDENT, tokenize.DEDENT):
                kind = INDENT if tok.type == tokenize.INDENT else DEDENT
                yield [Tok(kind, tok.string, tok.start, tok.end)]
            elif tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if current:
                    yield current
                    current = []
                if tok.type == tokenize.ENDMARKER or tok.start[0] >= stop_after:
                    return
            else:
                current.append(Tok(kinds.get(tok.type, OTHER), tok.string, tok.start, tok.end))
    except (tokenize.TokenError, SyntaxError):
        reader.unfinished = current


def _text(lines: list, start: tuple, end: tuple) -> str:
    """the text from `start` to `end` (rows and columns), '\\n' endings"""
    rows = [line.rstrip('\r\n') + '\n' for line in lines[start[0] - 1 : end[0]]]
    rows[-1] = rows[-1][: end[1]]
    rows[0] = rows[0][start[1] :]
    return ''.join(rows)
