"""How well the index classifiers read each held-out design: crops of the bench's kind of
tables, labelled from the known geometry, read by the ensemble (or the models given).

    CARDSCORE_DECKS=/tmp/deckcache python benchmarks/vision_crops.py [--tables 15] [MODEL.onnx ...]

Only crops centred on a visible index (the recogniser's own candidates, as training labels
them) count: this measures the classifier alone, not the candidates or the layout. Per
design, court cards (J, Q, K) and the rest apart: the share read right, and the mean
probability given to the right card. Needs the deck cache (skipped with a message when absent).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from cardscore.cards import Card, Rank
from cardscore.vision.classifier import MODEL_PATHS, classify
from cardscore.vision.labels import BACKGROUND

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's train/

COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", type=Path, help="ONNX files (default: shipped)")
    parser.add_argument("--tables", type=int, default=15, help="tables per design")
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    from train.__main__ import scene_crops
    from train.decks import HELD_OUT, default_cache, load_decks
    from train.synth import SceneMaker

    cache = default_cache()
    if not (cache / "rendered").is_dir():
        print(f"skipped: no rendered decks in {cache} (run the training once)")
        sys.exit(0)
    models = args.models or list(MODEL_PATHS)
    rng = np.random.default_rng(args.seed)
    tally: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for deck in load_decks(cache, HELD_OUT):
        maker = SceneMaker({deck.name: deck.faces}, args.seed)
        xs, ys = [], []
        for _ in range(args.tables):
            x, y = scene_crops(maker, maker.scene(tranca=True), rng, negatives=0.0)
            xs.append(x[y != BACKGROUND])
            ys.append(y[y != BACKGROUND])
        x, y = np.concatenate(xs), np.concatenate(ys)
        probs = classify(x, models)
        right = probs.argmax(axis=1) == y
        for label, ok, p in zip(y, right, probs[np.arange(len(y)), y], strict=True):
            kind = "courts" if Card.from_id(int(label)).rank in COURTS else "others"
            for key in ((deck.name, kind), (deck.name, "all"), ("all designs", kind)):
                tally[key][0] += 1
                tally[key][1] += int(ok)
                tally[key][2] += float(p)
    print(f"models: {', '.join(m.name for m in models)}\n")
    print("| design | cards | crops | read right | mean p(right card) |")
    print("|---|---|---:|---:|---:|")
    for (design, kind), (n, ok, p) in sorted(tally.items()):
        print(f"| {design} | {kind} | {int(n)} | {ok / n:.3f} | {p / n:.3f} |")


if __name__ == "__main__":
    main()
