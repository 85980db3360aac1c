"""Write pth/lazy_codec.pth from pth/lazy_codec_pth.py: a .pth runs only
lines that start with `import`, one line each, so the source is exec'd."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def pth_line() -> str:
    with open(os.path.join(HERE, 'lazy_codec_pth.py')) as f:
        source = ''.join(line for line in f if not line.startswith('#'))
    # site can process a venv's site-packages twice: the second time, the
    # check stops before the source is even compiled (on 3.15+, where sys
    # gets no __getattr__, it runs twice, registering a second search)
    return f"import codecs, sys; '__getattr__' in vars(sys) or exec({source.strip()!r})\n"


def main() -> int:
    with open(os.path.join(HERE, 'lazy_codec.pth'), 'w') as f:
        f.write(pth_line())
    return 0


if __name__ == '__main__':
    sys.exit(main())
