"""The rewrite: source with `lazy` statements -> source today's compiler
takes, line for line.  It imports nothing else of lazy_codec (a test of the
import graph holds it to that): the codec, mode "all", the tools and IPython
use it; it never calls them.

    lexer       a fast tokenizer for the lines that matter (tokenized: the
                stdlib tokenizer, where it declines a text)
    statements  the statement records and the reader that finds them
    verdicts    3.15's parser and placement rules for a statement, its errors
    targets     the wording of "cannot use X as import target"
    cookie      the PEP 263 coding cookie
    emitter     what each statement becomes, and `rewrite` itself

The calls it writes go to the builtin entry object named below, whose
attributes are the runtime's entry points (lazy_codec._entry installs it):
the names are an ABI kept by every release, as bytecode outlives them.
"""

ENTRY_NAME = '__lazy_codec_abi1__'
ENTRY_POINTS = ('lazy_import', 'lazy_from', 'maybe_lazy_import', 'maybe_lazy_from', 'syntax_error')
