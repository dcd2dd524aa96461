"""``make bench-asm``: how much slower the Python assembler is than macro1.

Assembles a long generated source, and the Kalah program's sources when given,
with ``/usr/bin/macro1`` and with ``python -m tools.macro``, each as the separate
process a user runs (start-up included), best of several runs; checks that both
wrote the same tape and listing; prints the times and the ratio Python/C.

    python -m tools.macro.bench [--runs N] [--lines N] [kalah sources ...]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.cli_args import OneLineParser, bounded_int

MACRO1 = "/usr/bin/macro1"


def generated_source(lines: int, seed: int = 1962) -> str:
    """A long, error-free program using most of the dialect (over and over 4K)."""
    rng = random.Random(seed)
    out = ["generated benchmark program", "define\tswap a,b", "\tlac a", "\tlio b",
           "\tdac b", "\tdio a", "terminate", "define\tcount c", "\tidx c",
           "\tsas (%o" % 0o100, "\tjmp .-2", "terminate", "100/"]
    words = 0
    label = 0
    blocks = 0
    while len(out) < lines:
        if words > 3000:                                # memory is 4K: assemble over it again
            out.append("100/")
            words = 0
        if len(out) > (blocks + 1) * lines // 9:       # a literal pool now and then (at most 8)
            out.append("\tconstants")
            blocks += 1
        kind = rng.random()
        if kind < 0.25:
            out.append("l%d,\tlac l%d+%o" % (label, max(0, label - 1), rng.randrange(8)))
            label += 1
            words += 1
        elif kind < 0.45:
            op = rng.choice(["add", "sub", "dac", "lio", "and", "ior", "xor", "sad", "sas"])
            out.append("\t%s %s(%o" % (op, rng.choice(["", "i "]) if op != "dac" else "",
                                       rng.randrange(0o777777)))
            words += 1
        elif kind < 0.55:
            out.append("\tswap t%d\\,t%d\\" % (rng.randrange(40), rng.randrange(40)))
            words += 4
        elif kind < 0.6:
            out.append("\tcount t%d\\" % rng.randrange(40))
            words += 3
        elif kind < 0.65:
            out.append("\ttext /The quick brown Fox, %d/" % rng.randrange(1000))
            words += 9
        elif kind < 0.7:
            out.append("\trepeat 3, ral 1s\tidx k%d\\" % rng.randrange(20))
            words += 6
        elif kind < 0.75:
            out.append("c%d=%o+%o-%o&%o!%o" % (rng.randrange(500), *(rng.randrange(0o7777)
                                                                     for _ in range(5))))
        elif kind < 0.8:
            out.append("\tsza sma-szf\t/ a comment %d" % rng.randrange(99))
            words += 1
        else:
            out.append("\tjmp l%d\t\t/ back" % rng.randrange(max(1, label)))
            words += 1
    out += ["\tconstants", "\tvariables", "\tstart 100"]
    return "\n".join(out) + "\n"


def best_time(command: list[str], folder: Path, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        done = subprocess.run(command, cwd=folder, capture_output=True, timeout=600)
        best = min(best, time.perf_counter() - began)
        if done.returncode != 0:
            raise SystemExit("%s failed:\n%s" % (" ".join(command),
                                                 done.stderr.decode("latin-1")))
    return best


def measure(name: str, sources: list[Path], runs: int) -> float:
    """Time both assemblers on ``sources`` (one program); return the ratio Python/C."""
    repo = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory(prefix="bench-asm-") as tmp:
        timings = {}
        outputs = {}
        for who in ("c", "python"):
            folder = Path(tmp) / who
            folder.mkdir()
            for source in sources:
                shutil.copyfile(source, folder / source.name)
            files = [source.name for source in sources]
            command = ([MACRO1, *files] if who == "c" else
                       [sys.executable, "-c", "import sys; sys.path.insert(0, %r); "
                        "from tools.macro.cli import main; sys.exit(main())" % str(repo), *files])
            timings[who] = best_time(command, folder, runs)
            stem = Path(files[0]).stem
            outputs[who] = [(folder / (stem + ext)).read_bytes() for ext in (".rim", ".lst")]
    same = "identical" if outputs["c"] == outputs["python"] else "DIFFERENT"
    lines = sum(len(source.read_bytes().splitlines()) for source in sources)
    ratio = timings["python"] / timings["c"]
    print("%-28s %6d lines  macro1 %7.3f s  python %7.3f s  ratio %6.1f  (outputs %s)"
          % (name, lines, timings["c"], timings["python"], ratio, same))
    return ratio


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m tools.macro.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=bounded_int(1, 100), default=3, help="best of this many runs (default 3)")
    parser.add_argument("--lines", type=bounded_int(1, 1_000_000), default=20000,
                        help="lines of the generated source (default 20000)")
    parser.add_argument("sources", nargs="*", type=Path, help="one program's source files")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.sources if not path.is_file()]
    if missing:
        parser.error(f"no such source file: {missing[0]}")
    with tempfile.TemporaryDirectory(prefix="bench-src-") as tmp:
        generated = Path(tmp) / "bench.mac"
        generated.write_text(generated_source(args.lines))
        measure("generated", [generated], args.runs)
    existing = args.sources
    if existing:
        measure(" ".join(path.name for path in existing[:2]) + (" ..." if len(existing) > 2
                                                                else ""), existing, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
