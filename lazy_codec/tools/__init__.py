"""The tools a person runs: `check` and `fix` (with fix_edits, its token
edits), the `report` command and its recorder, the IPython extension.  They
use the rewrite and the runtime; nothing there uses them.
"""
