"""Write pth/lazy_codec.pth from pth/lazy_codec_pth.py: a .pth runs only
lines that start with `import`, one line each, so the source is exec'd."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def pth_line() -> str:
    with open(os.path.join(HERE, 'lazy_codec_pth.py')) as f:
        source = ''.join(line for line in f if not line.startswith('#'))
    return f'import codecs; exec({source.strip()!r})\n'


def main() -> int:
    with open(os.path.join(HERE, 'lazy_codec.pth'), 'w') as f:
        f.write(pth_line())
    return 0


if __name__ == '__main__':
    sys.exit(main())
