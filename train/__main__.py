"""Rebuild the shipped index classifiers: ``python -m train --seed 0`` and
``python -m train --seed 0 --recipe fonts`` in a checkout's root (the recogniser averages both).

Fetches and renders the Debian decks (cached), draws synthetic tables, runs the recogniser's
own candidate stage on them, labels each crop from the known geometry, trains
:func:`~train.model.build_net`'s network on the CPU, and exports it to ONNX.
Both recipes draw the Debian decks and the font-drawn designs (:mod:`train.fontdecks`): a
member that knows fewer glyph shapes than the other overrules it on the designs only that
other knows, since the recogniser needs both members' support. A table's design is drawn
among them with each Debian deck 3.5 times as likely as a font design (``printed_weight``,
the printed decks' share as when there were 42 font designs to their 18 drawn twice): the fonts
vary the ranks' glyphs most, the printed decks the suits' shapes.
The ``fonts`` recipe also deals court cards more often, photographs some tables out of
focus, blurs or coarsens some crops and is twice as wide: it reads soft photos and Latin
court indices better, the ``plain`` one is more often right; together they beat either.

The ``plain`` recipe then reads the labelled real photos (``--photos``, by default
``../shared/data/real-photos``) with the model just trained, labels their crops with the
photos' own cards (:mod:`train.real`), and trains again from the start on
both: a real deck's thin, pale glyphs are what no rendered design teaches. Written over the
shipped one, it gets its int8 screen anew (``python -m train.screen``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.progress import Progress

import cardscore.vision
from cardscore.vision.blobs import candidates
from cardscore.vision.classifier import MODEL_PATH
from cardscore.vision.crops import CROP, crop_batch
from cardscore.vision.geometry import angle_gap
from cardscore.vision.labels import BACKGROUND
from train.decks import TRAIN_DECKS, default_cache, load_decks
from train.model import build_net
from train.synth import Scene, SceneMaker, jitter

__all__ = [
    "RECIPES",
    "SHARD",
    "Drawing",
    "Recipe",
    "build_dataset",
    "export",
    "harvest",
    "main",
    "scene_crops",
    "shard_seed",
    "synthetic_crops",
    "train",
]


@dataclass(frozen=True)
class Recipe:
    """What one shipped model is trained on: its file, scenes, designs and augmentation."""

    model: str  # file name in the models folder
    scenes: int
    font_designs: bool
    soft_focus: float  # share of tables photographed out of focus (SceneMaker)
    court_weight: float  # J, Q, K dealt that much more often (SceneMaker)
    soft_crops: bool  # crop-level soft focus and low-resolution augmentation
    photos: bool = False  # then trained again with crops harvested from labelled real photos
    width: int = 1  # the network's channels, times (model.build_net)
    # Each Debian deck drawn this many times as often as a font design: the printed decks
    # are where the suits' shapes vary most.
    printed_weight: float = 1.0
    epochs: int = 5


@dataclass(frozen=True)
class Drawing:
    """How the synthetic tables are drawn: one seeded stream (the shipped models'), or seeded
    shards (:data:`SHARD` tables each) that ``workers`` processes draw side by side."""

    shards: bool = False
    workers: int = 1


RECIPES = {
    "plain": Recipe(
        "index_classifier.onnx", 900, True, 0.0, 1.0, False, photos=True, printed_weight=3.5
    ),
    "fonts": Recipe(
        "index_classifier_fonts.onnx",
        2400,
        True,
        0.2,
        1.6,
        True,
        width=2,
        printed_weight=3.5,
        epochs=8,
    ),
}
# Where the recogniser loads its models from: in a checkout (an editable install),
# src/cardscore/vision/models.
MODELS = MODEL_PATH.parent
PLAYED = 0.5
"""Share of synthetic tables that are a side of a Tranca round the engine played
(:mod:`train.played`); the rest are random groups (loose cards, pairs, random melds). Both
shipped models were trained with this default."""
QUICK_SCENES, QUICK_EPOCHS = 6, 2  # --quick: CI's smoke run of the command
# The labelled photos a recipe with ``photos`` learns the real deck from (../shared).
PHOTOS = Path(os.environ.get("CARDSCORE_SHARED", "../shared")) / "data" / "real-photos"


def _crop_code_hash() -> str:
    """A short hash of every source file that decides what the labelled crops are: the
    recogniser's (its candidates) and this folder's (the tables and their labels)."""
    vision = Path(cardscore.vision.__file__).resolve().parent
    files = sorted(vision.glob("*.py")) + sorted(Path(__file__).resolve().parent.glob("*.py"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def scene_crops(
    maker: SceneMaker, scene: Scene, rng: np.random.Generator, negatives: float
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every candidate in all four orientations, labelled from the scene geometry."""
    points = maker.index_points(scene)
    cands = candidates(scene.image)
    rows: list[tuple[float, float, float, float]] = []
    labels: list[int] = []
    for c in cands:
        for k in range(4):
            angle = (c.angle + 90 * k) % 360
            label: int | None = BACKGROUND
            for i, x, y, up, (hw, hh), trusted in points:
                t = np.deg2rad(up)
                du = (c.x - x) * np.cos(t) - (c.y - y) * np.sin(t)
                dv = (c.x - x) * np.sin(t) + (c.y - y) * np.cos(t)
                inside = abs(du) <= 1.15 * hw + 2 and abs(dv) <= 1.15 * hh + 2
                if inside and not trusted:
                    label = None  # an index printed upright at the bottom: no label at all
                    break
                # The blob must be the rank glyph itself, not the suit under it or a pip. A
                # tilted photo squashes a glyph along the tilt, down to less wide than tall.
                tall = hh if scene.view is None else max(hh, hw)
                inside = inside and 0.7 * 2 * hh <= c.size <= 1.4 * 2 * tall + 2
                if inside and angle_gap(angle, up) < 45:
                    label = scene.cards[i].card.id
                    break
            if label is None or (label == BACKGROUND and rng.random() > negatives):
                continue
            rows.append(jitter((c.x, c.y, c.size, angle), rng))
            labels.append(label)
    if not rows:
        return np.empty((0, CROP, CROP, 3), np.uint8), np.empty(0, np.int64)
    return crop_batch(scene.image, rows), np.array(labels, np.int64)


def build_dataset(
    maker: SceneMaker,
    scenes: int,
    seed: int,
    progress: Progress,
    drawing: Drawing = Drawing(),
) -> tuple[np.ndarray, np.ndarray]:
    """Labelled crops of ``scenes`` tables: drawn one after the other from ``maker`` (the
    shipped models' crops), or (``drawing.shards``) in shards of :data:`SHARD` tables, each
    from its own seed (:func:`shard_seed`), by ``drawing.workers`` processes: the same crops
    for any number. The workers are forks of this process, which must not have run OpenCV on
    several threads yet (:func:`main` sets it to one thread first; the forks inherit that)."""
    task = progress.add_task("synthetic tables", total=scenes)
    if not drawing.shards:
        rng = np.random.default_rng(seed)
        return _tables_crops(maker, scenes, rng, lambda: progress.advance(task))
    jobs = [
        (seed, k, min(SHARD, scenes - first)) for k, first in enumerate(range(0, scenes, SHARD))
    ]
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    global _MAKER
    _MAKER = maker  # forked workers inherit it: the faces are not copied to them
    try:
        import multiprocessing

        workers = min(drawing.workers, len(jobs))
        pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
        with pool or contextlib.nullcontext():
            drawn = pool.imap(_draw_shard, jobs) if pool else map(_draw_shard, jobs)
            for job, part in zip(jobs, drawn, strict=True):
                parts.append(part)
                progress.advance(task, job[2])
    finally:
        _MAKER = None
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


SHARD = 25  # tables a shard
_MAKER: SceneMaker | None = None  # the maker the shards are drawn with


def shard_seed(seed: int, shard: int) -> int:
    """The seed a run's ``shard``-th shard of tables is drawn from."""
    return int(np.random.SeedSequence([seed, shard]).generate_state(1)[0])


def _draw_shard(job: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, shard, count = job
    assert _MAKER is not None
    _MAKER.reseed(shard_seed(seed, shard))
    # The crops' jitter and background share, seeded per shard too.
    return _tables_crops(_MAKER, count, np.random.default_rng([seed, shard]))


def _tables_crops(
    maker: SceneMaker,
    count: int,
    rng: np.random.Generator,
    drawn: Callable[[], None] = lambda: None,
) -> tuple[np.ndarray, np.ndarray]:
    """The labelled crops of ``maker``'s next ``count`` tables; ``drawn`` after each."""
    xs, ys = [], []
    for _ in range(count):
        x, y = scene_crops(maker, maker.scene(), rng, negatives=0.35)
        xs.append(x)
        ys.append(y)
        drawn()
    return np.concatenate(xs), np.concatenate(ys)


def _augment(xb: Any, gen: Any, soft_crops: bool = False) -> Any:
    """Photo-like variety the renders lack: pale, thin or blurred ink, exposure, colour cast.

    Real indices are often thinner and lighter than the decks' (outlined fonts, bright
    photos); crops are NHWC uint8.
    """
    import torch
    import torch.nn.functional as F  # noqa: N812 (the usual name)

    n = len(xb)
    x = xb.permute(0, 3, 1, 2).float()
    on = {"generator": gen, "device": gen.device}  # draws where the crops are

    def pick(p: float) -> Any:
        return (torch.rand(n, 1, 1, 1, **on) < p).float()

    # Thinner strokes: a 3×3 max filter grows the paper into the ink.
    thin = pick(0.25)
    x = thin * F.max_pool2d(x, 3, 1, 1) + (1 - thin) * x
    # Blur: slight, or (soft_crops) a soft focus of up to 1.5 px (sigma), one sigma a batch.
    blur = pick(0.4)
    kernel = torch.tensor([1.0, 2.0, 1.0], device=gen.device)
    kernel = (kernel[:, None] * kernel[None, :] / 16).expand(3, 1, 3, 3)
    x = blur * F.conv2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), kernel, groups=3) + (1 - blur) * x
    if soft_crops:  # the random draws stay those of the plain recipe without it
        x = _soften(x, gen, pick)
    # Pale ink: blend toward the paper.
    pale = pick(0.5) * torch.rand(n, 1, 1, 1, **on) * 0.45
    x = x * (1 - pale) + x.amax(dim=(2, 3), keepdim=True) * pale
    # Exposure and colour cast.
    x = x * (0.75 + 0.5 * torch.rand(n, 1, 1, 1, **on))
    x = x * (0.9 + 0.2 * torch.rand(n, 3, 1, 1, **on))
    x = x + torch.randn(x.shape, **on) * 3 * pick(0.5)
    return x.clamp(0, 255).to(torch.uint8).permute(0, 2, 3, 1).contiguous()


def _soften(x: Any, gen: Any, pick: Any) -> Any:
    """Soft focus on a quarter of the crops, and fewer pixels on the glyph on a fifth."""
    import torch
    import torch.nn.functional as F  # noqa: N812 (the usual name)

    soft = pick(0.25)
    on = {"generator": gen, "device": gen.device}
    sigma = 0.6 + 0.9 * float(torch.rand(1, **on))
    taps = torch.arange(-4, 5, dtype=torch.float32, device=gen.device)
    g = torch.exp(-(taps**2) / (2 * sigma**2))
    g = g / g.sum()
    padded = F.pad(x, (4, 4, 4, 4), mode="replicate")
    smooth = F.conv2d(padded, g.view(1, 1, 1, 9).expand(3, 1, 1, 9), groups=3)
    smooth = F.conv2d(smooth, g.view(1, 1, 9, 1).expand(3, 1, 9, 1), groups=3)
    x = soft * smooth + (1 - soft) * x
    # Fewer pixels on the glyph (a small card in the photo): down and up again.
    low = pick(0.2)
    side = x.shape[-1]
    small = F.interpolate(x, scale_factor=0.45 + 0.35 * float(torch.rand(1, **on)), mode="area")
    x = (
        low * F.interpolate(small, size=(side, side), mode="bilinear", align_corners=False)
        + (1 - low) * x
    )
    return x


def train(
    x: np.ndarray,
    y: np.ndarray,
    epochs: int,
    seed: int,
    progress: Progress,
    soft_crops: bool = False,
    width: int = 1,
    device: str = "cpu",
) -> Any:
    """The network trained on crops ``x`` (NHWC uint8) labelled ``y`` on ``device``, returned
    on the CPU. A GPU draws the order and the augmentation from its own generator: the same
    recipe, other weights than the CPU's."""
    import torch

    torch.manual_seed(seed)
    net = build_net(width).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
    gen = torch.Generator(device=device).manual_seed(seed)
    task = progress.add_task("training", total=steps)
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen, device=device)
        seen = correct = 0
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            xb, yb = xt[idx], yt[idx]
            xb = _augment(xb, gen, soft_crops)
            logits = net(xb)
            loss = torch.nn.functional.cross_entropy(logits, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            seen += len(idx)
            correct += int((logits.argmax(1) == yb).sum())
            progress.update(
                task,
                advance=1,
                description=f"epoch {epoch + 1}/{epochs} loss {total / seen:.3f} acc {correct / seen:.3f}",
            )
        progress.console.print(
            f"epoch {epoch + 1}/{epochs}: loss {total / seen:.3f}, accuracy {correct / seen:.4f}"
        )
    net.eval()
    return net.cpu()


def export(net: Any, path: Path) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros((1, CROP, CROP, 3), dtype=torch.uint8)
    torch.onnx.export(
        net,
        (dummy,),
        str(path),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    add_embedding_output(path)


def add_embedding_output(path: Path) -> None:
    """Names the net's penultimate layer ``embedding``, a second output: deck profiles
    (cardscore.vision.deck) correct the last layer from it."""
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(path))
    graph = model.graph
    last = next(n for n in reversed(graph.node) if n.op_type == "Gemm")
    size = next(i.dims[1] for i in graph.initializer if i.name == last.input[1])
    graph.node.append(
        helper.make_node("Identity", [last.input[0]], ["embedding"], name="embedding")
    )
    graph.output.append(helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", size]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODELS, help="folder the model is written to")
    parser.add_argument(
        "--recipe", choices=sorted(RECIPES), default="plain", help="which shipped model"
    )
    parser.add_argument("--scenes", type=int, default=None, help="synthetic tables to draw")
    parser.add_argument(
        "--played",
        type=float,
        default=PLAYED,
        metavar="SHARE",
        help="share of tables that are a side of a Tranca round the engine played (0: none)",
    )
    parser.add_argument(
        "--tilted",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of tables photographed at an angle (the shipped models: none; the "
        "recogniser straightens such photos before reading them)",
    )
    parser.add_argument(
        "--weathered",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="share of tables whose deck, light or hand is a real table's: faded or cream "
        "paper, a colour cast, a lamp's glare, a shake (the shipped models: none)",
    )
    parser.add_argument(
        "--epochs", type=int, default=None, help="passes over the crops (default: the recipe's)"
    )
    parser.add_argument("--threads", type=int, default=2, help="torch's threads on the CPU")
    parser.add_argument(
        "--device",
        default="cpu",
        help="where the network trains: cpu, cuda, or auto (a GPU if any)",
    )
    parser.add_argument(
        "--shards",
        action="store_true",
        help=f"draw the tables in seeded shards of {SHARD} (other tables than the shipped "
        "models'), by --workers processes: the same crops for any number of them",
    )
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes drawing --shards"
    )
    parser.add_argument("--cache", type=Path, default=None, help="deck cache folder")
    parser.add_argument(
        "--cache-crops", action="store_true", help="keep the labelled crops for re-runs"
    )
    parser.add_argument(
        "--photos",
        type=Path,
        default=PHOTOS,
        help="labelled real photos (a folder with labels.csv), for recipes that learn from them",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"a smoke run of a minute: {QUICK_SCENES} tables (unless --scenes), "
        f"{QUICK_EPOCHS} epochs at most, the font designs only (nothing fetched), no photos; "
        "its model is no shipped one, so it needs an --out of its own",
    )
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    recipe = RECIPES[args.recipe]
    if not 0 <= args.played <= 1:
        parser.error(f"--played is a share of the tables, from 0 to 1, not {args.played}")
    for share in ("tilted", "weathered"):
        if not 0 <= getattr(args, share) <= 1:
            parser.error(
                f"--{share} is a share of the tables, from 0 to 1, not {getattr(args, share)}"
            )
    if args.quick and args.out.resolve() == MODELS.resolve():
        parser.error(
            "--quick writes a smoke-test model: give it an --out other than the shipped models'"
        )
    photos = recipe.photos and not args.quick
    if photos and not (args.photos / "labels.csv").is_file():
        parser.error(
            f"the {args.recipe!r} recipe learns from labelled photos: no labels.csv in {str(args.photos)!r} (set --photos)"
        )
    scenes = args.scenes or (QUICK_SCENES if args.quick else None)
    epochs = args.epochs or recipe.epochs
    epochs = min(epochs, QUICK_EPOCHS) if args.quick else epochs
    import torch

    torch.set_num_threads(args.threads)
    device = (
        ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    )
    if args.shards and args.workers > 1:
        import cv2

        # Forked workers hang in OpenCV's thread pool if this process has started it.
        cv2.setNumThreads(1)
    started = time.time()
    with Progress() as progress:
        crops = args.out.parent / ".cache" if args.cache_crops else None
        drawing = Drawing(args.shards, args.workers)
        x, y = synthetic_crops(
            args.recipe,
            args.seed,
            scenes,
            args.cache,
            crops,
            progress,
            args.played,
            args.quick,
            drawing,
            args.tilted,
            args.weathered,
        )
        net = train(x, y, epochs, args.seed, progress, recipe.soft_crops, recipe.width, device)
        if photos:
            # The synthetic model reads the photos; their cards' crops so labelled join the
            # synthetic ones, and the model is trained again from the start on both.
            real = harvest(net, args.photos, args.seed, progress)
            rx = np.concatenate([c[0] for c in real.values()])
            ry = np.concatenate([c[1] for c in real.values()])
            progress.console.print(
                f"{len(rx)} crops from {args.photos}, {int((ry != BACKGROUND).sum())} indices"
            )
            x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
            net = train(x, y, epochs, args.seed, progress, recipe.soft_crops, recipe.width, device)
    export(net, args.out / recipe.model)
    print(f"wrote {args.out / recipe.model} in {time.time() - started:.0f} s (trained on {device})")
    if (args.out / recipe.model).resolve() == MODEL_PATH.resolve():
        # The classifier's int8 screen is made from the shipped plain model: a stale one
        # would go unused.
        from train.screen import main as screen

        screen(["--cache", str(args.cache or default_cache())])


def synthetic_crops(
    recipe_name: str,
    seed: int,
    scenes: int | None,
    cache: Path | None,
    crops: Path | None,
    progress: Progress,
    played: float = PLAYED,
    fonts_only: bool = False,
    drawing: Drawing | None = None,
    tilted: float = 0.0,
    weathered: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """A recipe's labelled crops from its synthetic tables, a ``played`` share of them from
    played Tranca rounds, a ``tilted`` share photographed at an angle and a ``weathered``
    share whose deck, light or hand is a real table's (:func:`train.synth.draw_weather`);
    ``crops``: a folder
    to keep them in for re-runs (None: build them every time); ``fonts_only``: only the
    font-drawn designs (no Debian deck is fetched); ``drawing``: one stream of tables (None),
    or seeded shards by several processes."""
    recipe = RECIPES[recipe_name]
    random.seed(seed)
    scenes = scenes or recipe.scenes
    cache = cache or default_cache()
    printed = {} if fonts_only else {d.name: d.faces for d in load_decks(cache, TRAIN_DECKS)}
    decks = dict(printed)
    if recipe.font_designs or fonts_only:
        from train.fontdecks import font_decks  # needs pillow

        decks.update(font_decks(cache, seed))
    weights = dict.fromkeys(printed, recipe.printed_weight)
    maker = SceneMaker(
        decks, seed, recipe.soft_focus, recipe.court_weight, played, weights, tilted, weathered
    )
    # The crops depend only on the designs, seed, scene count, played share and code: named by
    # a hash of the code that makes them, a kept copy is never stale.
    drawing = drawing or Drawing()
    designs = "-fonts" if fonts_only else ""
    sharded = "-shards" if drawing.shards else ""
    name = (
        f"crops-{recipe_name}{designs}{sharded}-{seed}-{scenes}-{played:g}-{tilted:g}-"
        f"{weathered:g}-"
        f"{_crop_code_hash()}.npz"
    )
    data = crops / name if crops else None
    if data is not None and data.exists():
        saved = np.load(data)
        x, y = saved["x"], saved["y"]
    else:
        x, y = build_dataset(maker, scenes, seed, progress, drawing)
        if data is not None:
            data.parent.mkdir(parents=True, exist_ok=True)
            np.savez(data, x=x, y=y)
    progress.console.print(
        f"{len(x)} crops, {int((y != BACKGROUND).sum())} indices, {len(decks)} decks"
    )
    return x, y


def harvest(
    net: Any, photos: Path, seed: int, progress: Progress
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Crops of each labelled photo in ``photos``, labelled by what ``net`` reads there
    (:mod:`train.real`)."""
    from train.real import real_dataset

    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "synthetic.onnx"
        export(net, model)
        return real_dataset(photos, model, seed, progress)


if __name__ == "__main__":
    main()
