"""Build hook: compiles every C accelerator found under ``src/cardscore/**/_c_*.c``.

Each game owns its hot loop in a file named ``_c_<name>.c`` next to its Python code; the
extension module takes the file's dotted path (``cardscore.poker._c_eval``), so adding a file
is all a game needs to do. Lookup tables are computed here, once, into generated headers
(the poker evaluator's by ``cardscore/poker/_tablegen.py``), so importing computes nothing.
"""

import importlib.util
import platform
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).parent
SOURCES = sorted((ROOT / "src").glob("cardscore/**/_c_*.c"))


# x86-64 processors have had the popcnt instruction since 2008; without the flag GCC calls a
# library function for each count (3% of a Cross Kings proof's time). GCC and Clang only.
X86_64 = platform.machine().lower() in {"x86_64", "amd64"}
POPCNT = ["-mpopcnt"] if X86_64 and sys.platform != "win32" else []


def _write_generated_headers() -> None:
    """Load the generator by path: the build has the standard library only, not numpy."""
    source = ROOT / "src/cardscore/poker/_tablegen.py"
    spec = importlib.util.spec_from_file_location("_cardscore_tablegen", source)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_header(source.with_name("_c_eval_tables.h"))


def _extension(source: Path) -> Extension:
    relative = source.relative_to(ROOT / "src").with_suffix("")
    return Extension(
        ".".join(relative.parts),
        sources=[str(source.relative_to(ROOT))],
        extra_compile_args=["-O3", "-std=c11", *POPCNT],
    )


_write_generated_headers()
setup(ext_modules=[_extension(source) for source in SOURCES])
