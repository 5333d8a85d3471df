"""Build hook: compiles every C accelerator found under ``src/cardscore/**/_c_*.c``.

Each game owns its hot loop in a file named ``_c_<name>.c`` next to its Python code; the
extension module takes the file's dotted path (``cardscore.poker._c_eval``), so adding a file
is all a game needs to do.
"""

from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
SOURCES = sorted((ROOT / "src").glob("cardscore/**/_c_*.c"))


def _extension(source: Path) -> Extension:
    relative = source.relative_to(ROOT / "src").with_suffix("")
    return Extension(
        ".".join(relative.parts),
        sources=[str(source.relative_to(ROOT))],
        extra_compile_args=["-O3", "-std=c11"],
    )


setup(ext_modules=[_extension(source) for source in SOURCES])
