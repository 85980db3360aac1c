"""markdown: render a string."""

import markdown

TEXT = """# Title

Some *emphasis*, some **strong**, a [link](https://example.invalid/) and `code`.

* one
* two

| a | b |
|---|---|
| 1 | 2 |

```
fenced
```
"""
print(markdown.markdown(TEXT, extensions=['tables', 'fenced_code']))
