"""Held-out figures for a recipe that learns from the labelled photos it is measured on.

    python benchmarks/vision_photo_folds.py [--shared ../shared] [--recipe plain] [--played 0.5] \\
        [--folds 03 06 01,10 08,11] [--cache-crops] [--keep DIR]

The shipped plain model is trained on crops harvested from the shared photos
(``train.real``), so ``vision_bench.py``'s photo figures are on photos it has
seen. This retrains the recipe once per fold with that fold's photos left out of the harvest
(the synthetic stage is trained once), and reads the left-out photos with the resulting
ensemble: the recipe's member replaced, the other shipped members as they are. Needs the
``train`` extra and the deck cache; about 4 minutes a fold on two CPU cores.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from rich.progress import Progress

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's train/

from cardscore.vision.classifier import MODEL_PATHS
from cardscore.vision.evaluate import PhotoScore, cards_of, read_labels, score_cards
from cardscore.vision.recognition import recognize
from train.__main__ import PLAYED, RECIPES, export, harvest, synthetic_crops, train

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--recipe", choices=sorted(n for n, r in RECIPES.items() if r.photos))
    parser.add_argument("--folds", nargs="+", default=["03", "06", "01,10", "08,11"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--epochs", type=int, default=None, help="passes over the crops (default: the recipe's)"
    )
    parser.add_argument("--played", type=float, default=PLAYED, help="as python -m train's")
    parser.add_argument("--cache-crops", action="store_true")
    parser.add_argument("--keep", type=Path, help="a folder to keep each fold's model in")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(2)
    name = args.recipe or "plain"
    recipe = RECIPES[name]
    epochs = args.epochs or recipe.epochs
    folder = args.shared / "data" / "real-photos"
    labels = read_labels(folder)
    crops = ROOT / "src" / "cardscore" / "vision" / ".cache" if args.cache_crops else None
    rows: list[PhotoScore] = []
    with Progress() as progress, tempfile.TemporaryDirectory() as tmp:
        x, y = synthetic_crops(name, args.seed, None, None, crops, progress, args.played)
        net = train(x, y, epochs, args.seed, progress, recipe.soft_crops, recipe.width)
        real = harvest(net, folder, args.seed, progress)
        for fold in args.folds:
            held = [f"train_{stem}.jpg" for stem in fold.split(",")]
            kept = [c for photo, c in real.items() if photo not in held]
            fx = np.concatenate([x, *(c[0] for c in kept)])
            fy = np.concatenate([y, *(c[1] for c in kept)])
            model = (args.keep or Path(tmp)) / f"fold-{fold.replace(',', '-')}.onnx"
            model.parent.mkdir(parents=True, exist_ok=True)
            export(
                train(fx, fy, epochs, args.seed, progress, recipe.soft_crops, recipe.width),
                model,
            )
            members = [model if p.name == recipe.model else p for p in MODEL_PATHS]
            for photo in held:
                seen = cards_of(recognize(folder / photo, model=members))
                rows.append(score_cards(photo, seen, labels[photo]))
    print(f"## Photos left out of the {name!r} recipe's harvest, one fold at a time\n")
    print("| photo | expected | reported | right | missed | extra |")
    print("|---|---:|---:|---:|---|---|")
    for s in rows:
        missed = " ".join(c.code for c in s.missed)
        extra = " ".join(c.code for c in s.extra)
        print(f"| {s.name} | {s.expected} | {s.reported} | {s.right} | {missed} | {extra} |")
    right = sum(s.right for s in rows)
    reported = sum(s.reported for s in rows)
    expected = sum(s.expected for s in rows)
    print(
        f"| **all** | {expected} | {reported} | {right} | precision **{right / reported:.3f}**"
        f" | recall **{right / expected:.3f}** |"
    )


if __name__ == "__main__":
    main()
