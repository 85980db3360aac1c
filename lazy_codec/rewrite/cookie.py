"""The PEP 263 coding cookie: where it is and what it names, read from bytes
as the interpreter reads them (the first two lines), before any decoding."""


def cookie_span(data: bytes):
    """(start, end) of the codec name in the PEP 263 cookie of `data`'s first
    two lines, or None: `^[ \\t\\f]*#.*?coding[:=][ \\t]*([-\\w.]+)`"""
    offset = 0
    for raw in data.split(b'\n', 2)[:2]:
        line = raw.split(b'\r', 1)[0]
        at = line.find(b'coding') if line.lstrip(b' \t\f').startswith(b'#') else -1
        while at >= 0:
            if line[at + 6 : at + 7] in (b':', b'='):
                start = at + 7
                while line[start : start + 1] in (b' ', b'\t'):
                    start += 1
                end = start
                while end < len(line) and (line[end : end + 1].isalnum() or line[end : end + 1] in b'-_.'):
                    end += 1
                if end > start:
                    return offset + start, offset + end
            at = line.find(b'coding', at + 1)
        offset += len(raw) + 1
    return None


def cookie_name(data: bytes):
    """the codec name (lowercased bytes) the PEP 263 cookie gives, or None"""
    span = cookie_span(data)
    return None if span is None else data[span[0] : span[1]].lower()
