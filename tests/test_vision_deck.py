"""Deck profiles: round trip, refusals (other models, bad files), learning from a spread and
from labelled photos, and an end-to-end reading of a design the models never trained on."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.cards import RANKS, SUITS, Card, full_deck, parse_cards  # noqa: E402
from cardscore.cli import main  # noqa: E402
from cardscore.errors import CardscoreError  # noqa: E402
from cardscore.vision import recognize  # noqa: E402
from cardscore.vision.calibration import FLAG_AT  # noqa: E402
from cardscore.vision.classifier import MODEL_PATHS, classify  # noqa: E402
from cardscore.vision.deck import (  # noqa: E402
    MAX_BYTES,
    DeckProfile,
    DeckProfileError,
    expecting,
    model_hash,
    reading_with,
)
from cardscore.vision.evaluate import read_labels, score_cards  # noqa: E402
from cardscore.vision.labels import BACKGROUND  # noqa: E402
from cardscore.vision.learn import (  # noqa: E402
    Embedded,
    Examples,
    SpreadError,
    fit,
    fit_embedded,
    learn_from_photos,
    learn_from_spread,
    photo_examples,
    spread_examples,
)
from tests.conftest import SHARED, need  # noqa: E402
from tests.render_tables import DESIGNS, draw_face, render_rows, render_table, spread  # noqa: E402

SERIF = DESIGNS[1]


@pytest.fixture(scope="module")
def serif_deck() -> DeckProfile:
    """The serif stroke design's profile, learnt from its spread (a few seconds)."""
    return learn_from_spread(spread(SERIF), name="serif").profile


def _index_crops() -> Examples:
    """Upright index crops of a few faces of the serif design, cut by hand (no pipeline)."""
    crops, labels = [], []
    for code in ("Ah", "Ks", "7d", "Tc"):
        face = draw_face(Card(code), SERIF)
        corner = cv2.resize(face[0:90, 0:64], (32, 32), interpolation=cv2.INTER_AREA)
        crops += [corner, np.ascontiguousarray(np.rot90(corner, 2))]
        labels += [Card(code).id, BACKGROUND]
    return Examples(np.array(crops, np.uint8), np.array(labels))


def test_a_profile_round_trips_through_its_file(tmp_path: Path) -> None:
    profile = fit(_index_crops(), steps=30, name="hand cut")
    path = tmp_path / "ours.deck"
    profile.save(path)
    assert path.stat().st_size <= MAX_BYTES
    again = DeckProfile.load(path)
    assert (again.models, again.hashes, again.examples, again.name) == (
        profile.models,
        profile.hashes,
        profile.examples,
        "hand cut",
    )
    for a, b in zip(again.weights + again.biases, profile.weights + profile.biases, strict=True):
        np.testing.assert_allclose(a, b, atol=2e-3 * max(1.0, float(np.abs(b).max())))
    assert sum(1 for n in again.examples[:BACKGROUND] if n) == 4
    assert "4 cards learnt" in repr(again)


def test_a_profiles_bytes_are_its_file(tmp_path: Path) -> None:
    """What a database keeps (:meth:`DeckProfile.to_bytes`) is the ``.deck`` file, byte for
    byte, and reads back as the file does."""
    profile = fit(_index_crops(), steps=10, name="in a database")
    path = tmp_path / "ours.deck"
    profile.save(path)
    data = profile.to_bytes()
    assert data == path.read_bytes()
    again = DeckProfile.from_bytes(data)
    loaded = DeckProfile.load(path)
    assert (again.name, again.hashes, again.examples) == (
        loaded.name,
        loaded.hashes,
        loaded.examples,
    )
    for a, b in zip(again.weights + again.biases, loaded.weights + loaded.biases, strict=True):
        np.testing.assert_array_equal(a, b)
    assert again.to_bytes() == data  # float16 weights: a second round trip changes nothing


def test_a_profile_raises_the_cards_it_was_taught() -> None:
    examples = _index_crops()
    before = classify(examples.crops)
    with reading_with(fit(examples, steps=60)):
        after = classify(examples.crops)
    rows = np.arange(len(examples.labels))
    cards = examples.labels != BACKGROUND
    assert (after[rows, examples.labels] > before[rows, examples.labels])[cards].all()
    assert (after.argmax(axis=1) == examples.labels).all()
    # Outside the block the shipped models read as before.
    np.testing.assert_allclose(classify(examples.crops), before, atol=1e-6)


def test_a_profile_of_other_models_is_refused(tmp_path: Path) -> None:
    profile = fit(_index_crops(), steps=5)
    other = DeckProfile(
        profile.models,
        ("0" * 64,) * len(profile.models),
        profile.weights,
        profile.biases,
        profile.examples,
        "old",
    )
    with pytest.raises(DeckProfileError, match="learn the deck again"):
        recognize(np.zeros((60, 80, 3), np.uint8) + 40, deck=other)
    path = tmp_path / "old.deck"
    other.save(path)
    with pytest.raises(DeckProfileError, match="was learnt with the models"):
        DeckProfile.load(path).check(MODEL_PATHS)


def _archive(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def _header(**changes: object) -> np.ndarray:
    header: dict[str, object] = {
        "format": "cardscore-deck",
        "version": 1,
        "name": "x",
        "models": ["a.onnx"],
        "hashes": ["0" * 64],
        "examples": [0] * 53,
    }
    header.update(changes)
    return np.array(json.dumps(header))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is not a deck profile"),
        (b"\xff\xd8\xff\xe0 a jpeg", "is not a deck profile"),
        (_archive(weights=np.zeros(3)), "is not a deck profile"),
        (_archive(header=_header(format="other")), "no 'cardscore-deck' header"),
        (_archive(header=_header(version=99)), "has version 99"),
        (_archive(header=_header(examples=[1])), "examples for 53 classes"),
        (
            _archive(header=_header(), weight0=np.zeros((53, 4)), bias0=np.zeros(7)),
            "member 0's correction is damaged",
        ),
        (
            _archive(header=_header(), weight0=np.full((53, 4), np.nan), bias0=np.zeros(53)),
            "is not finite",
        ),
        (b"PK" + bytes(MAX_BYTES), "larger than a deck profile"),
    ],
)
def test_bad_profile_files_say_what_is_wrong(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.deck"
    path.write_bytes(content)
    with pytest.raises(DeckProfileError, match=message) as error:
        DeckProfile.load(path)
    assert "bad.deck" in error.value.problems[0]
    with pytest.raises(DeckProfileError, match=message) as error:
        DeckProfile.from_bytes(content, "match 7's deck")
    assert "match 7's deck" in error.value.problems[0]


def test_cli_deck_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((600, 800, 3), 40, np.uint8))
    assert main(["recognize", str(photo), "--deck", str(tmp_path / "none.deck")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["deck", "learn", "--out", str(tmp_path / "x.deck")]) == 2
    assert "exactly one of --labels CSV or --spread PHOTO" in capsys.readouterr().err
    assert main(["deck", "learn", "--spread", str(photo), "--out", str(tmp_path / "x.deck")]) == 2
    assert "0 cards found apart" in capsys.readouterr().err
    assert not (tmp_path / "x.deck").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["recognize", "--json"],
        ["poker", "compare", "--json", "--photo"],
        ["gongzhu", "score", "--json", "--photo"],
    ],
)
def test_a_bad_profile_and_a_bad_photo_are_reported_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    (tmp_path / "notes.deck").write_text("not a profile")
    (tmp_path / "notes.jpg").write_text("not a photo")
    deck, photo = str(tmp_path / "notes.deck"), str(tmp_path / "notes.jpg")
    assert main([*command, photo, "--deck", deck]) == 2
    problems = json.loads(capsys.readouterr().err)["problems"]
    assert [p["code"] for p in problems] == ["not_a_deck_profile", "image_format"]
    assert [p["params"] for p in problems] == [{"path": deck}, {"name": photo}]
    # A good photo: the profile's problem alone.
    cv2.imwrite(photo.replace(".jpg", ".png"), np.full((600, 800, 3), 40, np.uint8))
    assert main([*command, photo.replace(".jpg", ".png"), "--deck", deck]) == 2
    assert [p["code"] for p in json.loads(capsys.readouterr().err)["problems"]] == [
        "not_a_deck_profile"
    ]


def test_deck_show_tells_the_cards_learnt_and_whether_the_profile_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = [0] * 53
    for card in ("As", "Ts", "Kh", "2c"):
        seen[Card(card).id] = 3
    weights = tuple(np.zeros((53, 4), np.float32) for _ in MODEL_PATHS)
    biases = tuple(np.zeros(53, np.float32) for _ in MODEL_PATHS)
    names = tuple(p.name for p in MODEL_PATHS)
    fitting = DeckProfile(names, tuple(model_hash(p) for p in MODEL_PATHS), weights, biases,
                          tuple(seen), "ours")  # fmt: skip
    stale = DeckProfile(names, ("0" * 64,) * len(names), weights, biases, tuple(seen), "old")
    fitting.save(tmp_path / "ours.deck")
    stale.save(tmp_path / "old.deck")

    assert main(["deck", "show", str(tmp_path / "ours.deck")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ours: 4 of 52 cards learnt"
    assert out[1].split() == ["♠", "A", *"·" * 8, "10", "·", "·", "·"]
    assert out[2].split()[-1] == "K"
    assert out[4].split()[2] == "2"
    assert out[5] == "fits the installed models"

    assert main(["deck", "show", str(tmp_path / "old.deck"), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["fits_models"] is False
    assert shown["learnt"] == ["2c", "Ts", "Kh", "As"]
    assert shown["crops"] == {"2c": 3, "Ts": 3, "Kh": 3, "As": 3}
    assert main(["deck", "show", str(tmp_path / "old.deck")]) == 0
    assert "does not fit: deck profile 'old' was learnt with" in capsys.readouterr().out

    assert main(["deck", "show", str(tmp_path / "none.deck")]) == 2
    assert "does not exist" in capsys.readouterr().err
    page = fitting._repr_html_()
    assert "ours: 4 of 52 cards learnt" in page
    assert page.count("10</td>") == 1


def test_a_spread_out_of_rows_is_refused() -> None:
    image = spread(SERIF)
    h, w = image.shape[:2]
    # The last card's place left empty: 51 cards.
    image[h - h // 4 :, w - w // 13 :] = SERIF.cloth
    with pytest.raises(SpreadError, match="51 cards found apart"):
        spread_examples(image)


def test_a_spread_labels_each_card_by_its_place() -> None:
    examples = spread_examples(spread(SERIF))
    taught = Counter(int(k) for k in examples.labels if k != BACKGROUND)
    # Both corner indices of every card, and each of them turned as "no index" three times.
    assert taught == Counter(dict.fromkeys(range(52), 2))
    assert int(np.sum(examples.labels == BACKGROUND)) >= 3 * 104


def test_end_to_end_a_table_of_a_design_never_trained_on(serif_deck: DeckProfile) -> None:
    """Issue 28: a small rendered table (tests/render_tables.py, not the training generator)
    of a design the models never saw, read with the deck learnt from its spread: exactly its
    cards, melds, piles and dollar."""
    table = render_table(32, SERIF)
    result = recognize(table.image, deck=serif_deck)
    assert sorted(c.card for c in result.cards) == sorted(t[0] for t in table.truth)
    melds = {tuple(sorted(g)) for g in result.tranca_draft()["melds"]}
    want: dict[int, list[str]] = {}
    for card, _, _, group in table.truth:
        if table.kinds[group] == "meld":
            want.setdefault(group, []).append(card.code)
    assert melds == {tuple(sorted(g)) for g in want.values()}
    piles = {(p["pile"], p["clean"]) for p in result.tranca_draft()["piles"]}
    truth_piles = {
        (t[0].rank.label, table.kinds[t[3]] == "pile:horizontal")
        for t in table.truth
        if table.kinds[t[3]].startswith("pile")
    }
    assert piles == truth_piles
    assert result.tranca_draft()["dollars"] == [
        t[0].code for t in table.truth if table.kinds[t[3]] == "dollar"
    ]


def test_learning_from_half_the_shared_photos_keeps_or_improves_the_other_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Folds: learn from three labelled photos (one label deliberately wrong), read the other
    three. The wrong label is reported, and the reading does not get worse."""
    folder = SHARED / "data" / "real-photos"
    need(folder.is_dir(), f"{folder} not found (set CARDSCORE_SHARED)")
    labels = read_labels(folder)
    learn, held = ["train_01.jpg", "train_03.jpg", "train_08.jpg"], ["train_06.jpg", "train_10.jpg"]
    rows = []
    for name in learn:
        (tmp_path / name).symlink_to(folder / name)
        cards = [c.code for c in labels[name]]
        if name == "train_03.jpg":
            cards[cards.index("6d")] = "6s"  # a labelling slip: the photo shows the 6♦
        rows.append(f"{name},{' '.join(cards)}")
    csv = tmp_path / "labels.csv"
    csv.write_text("image,cards\n" + "\n".join(rows) + "\n")
    out = tmp_path / "ours.deck"
    assert main(["deck", "learn", "--labels", str(csv), "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert "train_03.jpg: labelled but not read: 6♠; read but not labelled: 6♦" in printed.err
    deck = DeckProfile.load(out)
    assert deck.examples[Card("6d").id] == 0  # the disputed card is not learnt
    # Three photos show part of the deck: the others are named as not learnt.
    assert f"the other {52 - len(deck.learnt)} were in no photo" in printed.out
    for name in held:
        before = score_cards(name, [c.card for c in recognize(folder / name).cards], labels[name])
        after = score_cards(
            name, [c.card for c in recognize(folder / name, deck=deck).cards], labels[name]
        )
        assert (after.right, -after.reported) >= (before.right, -before.reported), name


def test_learning_from_labelled_photos_reports_each_step_and_each_photo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``step`` counts every reading and fit of every round up to their total, each photo's
    check reaches ``progress`` once; on a terminal ``deck learn`` shows them with a bar."""
    from cardscore.vision import learn

    tables = [render_table(seed, SERIF) for seed in (1, 2)]
    photos = [(t.image, [c for c, *_ in t.truth], f"t{k}.png") for k, t in enumerate(tables)]
    steps: list[tuple[int, int]] = []
    lines: list[str] = []
    learnt = learn_from_photos(
        photos, progress=lines.append, step=lambda done, total: steps.append((done, total))
    )
    total = learn.LABEL_ROUNDS * (len(photos) + 1)
    assert steps == [(done, total) for done in range(1, total + 1)]
    assert [line.split(":")[0] for line in lines] == ["t0.png", "t1.png"]
    assert learnt.profile.learnt

    rows = []
    for k, t in enumerate(tables):
        cv2.imwrite(str(tmp_path / f"t{k}.png"), t.image)
        rows.append(f"t{k}.png,{' '.join(c.code for c, *_ in t.truth)}")
    (tmp_path / "labels.csv").write_text("image,cards\n" + "\n".join(rows) + "\n")
    import rich.console

    monkeypatch.setattr(rich.console.Console, "is_terminal", property(lambda self: True))
    out = tmp_path / "ours.deck"
    args = ["deck", "learn", "--labels", str(tmp_path / "labels.csv"), "--out", str(out)]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "t0.png: " in err
    assert "t1.png: " in err
    assert DeckProfile.load(out).learnt == learnt.profile.learnt


def test_a_labels_file_with_problems_lists_them_all(tmp_path: Path) -> None:
    from cardscore.vision.learn import read_label_file

    (tmp_path / "a.jpg").write_bytes(b"x")
    csv = tmp_path / "labels.csv"
    csv.write_text("image,cards\na.jpg,As Zz\nb.jpg,Kd\n")
    with pytest.raises(CardscoreError) as error:
        read_label_file(csv)
    assert len(error.value.problems) == 2
    assert "b.jpg" in error.value.problems[1]
    (tmp_path / "other.csv").write_text("photo,labels\na.jpg,As\n")
    with pytest.raises(CardscoreError, match="needs the columns image,cards"):
        read_label_file(tmp_path / "other.csv")


def test_poker_compare_and_gongzhu_score_read_a_photo(
    serif_deck: DeckProfile, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each player's five cards in a row → the ranking and winner; a Gong Zhu pile spread
    out → its score. The games' own logic decides (the same answers as typed cards)."""
    deck = tmp_path / "serif.deck"
    serif_deck.save(deck)
    hands = [
        parse_cards("Ah Kh Qh Jh Th"),
        parse_cards("2c 2d 9s 9h 4c"),
        parse_cards("5s 6s 7s 8d 9c"),
    ]
    photo = tmp_path / "showdown.png"
    cv2.imwrite(str(photo), render_rows([list(h) for h in hands], SERIF))
    assert main(["poker", "compare", "--photo", str(photo), "--deck", str(deck), "--json"]) == 0
    out, err = capsys.readouterr()
    read = json.loads(out)
    # What each row was read as goes to stderr, stdout carrying the answer alone.
    assert "photo: row 1: 5 card(s) read: A♥ K♥ Q♥ J♥ 10♥" in err.splitlines()
    typed = [" ".join(c.code for c in h) for h in hands]
    assert main(["poker", "compare", *typed, "--json"]) == 0
    assert read == json.loads(capsys.readouterr().out)
    assert [h["wins"] for h in read["hands"]] == [True, False, False]
    pile = parse_cards("Qs Jd Tc Ah Kh 5h 2h 9s")
    photo = tmp_path / "pile.png"
    cv2.imwrite(str(photo), render_rows([list(pile[:4]), list(pile[4:])], SERIF))
    assert main(["gongzhu", "score", "--photo", str(photo), "--deck", str(deck)]) == 0
    from_photo, err = capsys.readouterr()
    read_line = next(
        line for line in err.splitlines() if line.startswith("photo: 8 card(s) read: ")
    )
    assert sorted(read_line.split(": ")[-1].split()) == sorted(str(c) for c in pile)
    assert main(["gongzhu", "score", "--cards", *(c.code for c in pile)]) == 0
    assert from_photo == capsys.readouterr().out
    assert main(["poker", "compare", "--photo", str(photo), "--deck", str(deck)]) == 2
    assert "a row of 4 card(s)" in capsys.readouterr().err
    assert main(["poker", "compare"]) == 2
    assert "one of the two" in capsys.readouterr().err


def test_recognize_json_keeps_its_shape_with_options_on_either_side(
    serif_deck: DeckProfile, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "serif.deck"
    serif_deck.save(deck)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), render_table(33, SERIF).image)
    assert main(["recognize", "--json", "--deck", str(deck), str(photo)]) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["recognize", str(photo), "--deck", str(deck), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == before
    assert set(before) >= {"cards", "groups", "tranca"}
    for card in before["cards"]:
        assert Card(card["card"]).code == card["card"]
        # A card under the calibrated threshold is always flagged (a doubted meld flags more).
        assert isinstance(card["flagged"], bool)
        assert 0 <= card["confidence"] <= 1
        if card["confidence"] < FLAG_AT:
            assert card["flagged"]


def test_the_training_export_names_the_embedding_the_shipped_models_carry(tmp_path: Path) -> None:
    """A model exported without the ``embedding`` output (as torch writes it) gets the same
    second output the shipped files carry: the penultimate layer, unchanged logits."""
    onnx = need_module("onnx", "the train extra exports models")
    import onnxruntime as ort

    from train.__main__ import add_embedding_output

    model = onnx.load(str(MODEL_PATHS[0]))
    model.graph.node.remove(next(n for n in model.graph.node if n.name == "embedding"))
    model.graph.output.remove(next(o for o in model.graph.output if o.name == "embedding"))
    path = tmp_path / "bare.onnx"
    onnx.save(model, str(path))
    add_embedding_output(path)
    crops = np.random.default_rng(0).integers(0, 255, (4, 32, 32, 3), dtype=np.uint8)
    options = {"providers": ["CPUExecutionProvider"]}
    rebuilt = ort.InferenceSession(str(path), **options).run(None, {"crops": crops})
    shipped = ort.InferenceSession(str(MODEL_PATHS[0]), **options).run(None, {"crops": crops})
    for a, b in zip(rebuilt, shipped, strict=True):
        np.testing.assert_array_equal(a, b)


def test_expecting_reads_only_the_labelled_cards() -> None:
    """Under ``expecting``, every crop reads as one of the labelled cards or as no index."""
    examples = _index_crops()
    allowed = {Card("Ah").id, Card("7d").id, BACKGROUND}
    with expecting(parse_cards("Ah 7d")):
        probs = classify(examples.crops)
    assert set(np.argmax(probs, axis=1).tolist()) <= allowed
    ruled_out = np.delete(probs, sorted(allowed), axis=1)
    assert ruled_out.max() < 1e-6
    plain = classify(examples.crops)  # outside the block, nothing is ruled out
    assert np.delete(plain, sorted(allowed), axis=1).max() > 1e-3


def _toy_fit(
    taught: list[Card],
    embedding: Callable[[Card | None], np.ndarray],
    logits: Callable[[Card | None], np.ndarray],
) -> DeckProfile:
    """The profile a made-up model (its ``embedding`` and ``logits`` of a card's crop, or
    of "no index": None) learns from four crops of each ``taught`` card and 30 of no index."""
    shown = [c for c in taught for _ in range(4)] + [None] * 30
    labels = np.array([BACKGROUND if c is None else c.id for c in shown])
    seen = Embedded(
        ("0" * 64,),
        (np.array([logits(c) for c in shown]),),
        (np.array([embedding(c) for c in shown]),),
    )
    return fit_embedded(seen, labels, ("toy.onnx",))


def test_what_some_cards_teach_carries_to_their_rank_and_suit() -> None:
    """A profile learnt from 13 cards (every rank once, every suit) reads the 39 others.
    Made-up models: embeddings with a rank part, a suit part and noise; logits that know the
    rank but not the suit. A card's correction shares its rank's and its suit's, so the
    suits learnt on some cards tell the others' apart."""
    rng = np.random.default_rng(0)

    def embedding(card: Card | None) -> np.ndarray:
        e = rng.normal(0, 0.1, 17 + 8).astype(np.float32)
        if card is not None:
            e[RANKS.index(card.rank)] += 3.0
            e[13 + SUITS.index(card.suit)] += 3.0
        return e

    def logits(card: Card | None) -> np.ndarray:
        z = np.zeros(53, np.float32)
        z[[BACKGROUND] if card is None else [c.id for c in full_deck() if c.rank == card.rank]] = 2
        return z

    taught = [c for c in full_deck() if SUITS.index(c.suit) == RANKS.index(c.rank) % 4]
    profile = _toy_fit(taught, embedding, logits)
    others = [c for c in full_deck() if c not in taught]
    before = np.array([logits(c) for c in others])
    after = profile.adjust(0, before, np.array([embedding(c) for c in others]))
    truth = np.array([c.id for c in others])
    assert np.mean(np.argmax(before, axis=1) == truth) < 0.3
    assert np.mean(np.argmax(after, axis=1) == truth) >= 0.95


def test_labels_teach_the_cards_the_models_were_unsure_of() -> None:
    """A table of a design never trained on, photographed from a seat: the cards the models
    miss without labels are reported, and those the labels settle are learnt all the same."""
    table = render_table(39, DESIGNS[0], keystone=0.55)  # both its far K♠ are read K♣
    examples, check = photo_examples(table.image, [c for c, *_ in table.truth], "table")
    assert check.missed, "the models read this table whole: pick another"
    learnt = {Card.from_id(int(i)) for i in examples.labels if i != BACKGROUND}
    assert learnt & set(check.missed)
    assert learnt <= {c for c, *_ in table.truth}


def test_a_labelled_photo_is_read_twice_and_its_crops_taken_from_those_readings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reading as is and the reading expecting the labels are all the work: the index
    crops and the pips learnt come from their readings, with no third look at the photo."""
    import cardscore.vision.learn as learn
    import cardscore.vision.recognition as recognition

    table = render_table(32, DESIGNS[0])
    labelled = [c for c, *_ in table.truth]
    before = photo_examples(table.image, labelled, "table")
    reads = []
    read_photo = recognition.read_photo

    def counted(*args: object, **kwargs: object) -> object:
        reads.append(1)
        return read_photo(*args, **kwargs)  # type: ignore[arg-type]

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("the photo was read again")

    monkeypatch.setattr(learn, "read_photo", counted)
    for name in ("find_regions", "find_indices", "read_blobs"):
        monkeypatch.setattr(learn, name, never)
    examples, check = photo_examples(table.image, labelled, "table")
    assert len(reads) == 2
    assert check == before[1]
    np.testing.assert_array_equal(examples.labels, before[0].labels)
    np.testing.assert_array_equal(examples.crops, before[0].crops)
    # Each index comes with its three other turns as "no index"; the pips of the lone cards
    # (its piles) are "no index" too.
    indices = int(np.sum(examples.labels != BACKGROUND))
    assert int(np.sum(examples.labels == BACKGROUND)) > 3 * indices


def test_a_labelled_photo_taken_from_a_seat_teaches_its_cards_indices() -> None:
    """Straightened, a photo's readings are in the view's pixels: its cards' indices are found
    on the cards the result reports in the photo's, and learnt as labelled (the photo read
    from above teaches as much)."""
    labelled = [c for c, *_ in render_table(12, DESIGNS[0]).truth]
    seated = render_table(12, DESIGNS[0], keystone=0.7)
    examples, check = photo_examples(seated.image, labelled, "seated")
    assert check.missed == ()
    learnt = [Card.from_id(int(i)) for i in examples.labels if i != BACKGROUND]
    assert set(learnt) == set(labelled)
    overhead, _ = photo_examples(render_table(12, DESIGNS[0]).image, labelled, "overhead")
    assert len(learnt) >= 0.8 * int(np.sum(overhead.labels != BACKGROUND))


def test_a_card_read_surely_otherwise_than_labelled_is_not_learnt() -> None:
    """A labelling slip (6♠ for the 6♦ the photo shows, read surely): reported, and the
    crop is learnt as neither card."""
    folder = SHARED / "data" / "real-photos"
    need(folder.is_dir(), f"{folder} not found (set CARDSCORE_SHARED)")
    cards = [Card("6s") if c == Card("6d") else c for c in read_labels(folder)["train_03.jpg"]]
    examples, check = photo_examples(folder / "train_03.jpg", cards, "train_03.jpg")
    assert (check.missed, check.extra) == ((Card("6s"),), (Card("6d"),))
    assert not np.isin([Card("6s").id, Card("6d").id], examples.labels).any()
    assert check.learnt == len(cards) - 1


def test_a_deck_reads_crops_the_screen_rules_out_entirely(
    serif_deck: DeckProfile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the screen rules every crop of a call out (here: by a threshold nothing passes),
    no model runs on any; with a deck in use that is no error either, and the crops keep the
    screen's reading."""
    import cardscore.vision.classifier as classifier

    crops = _index_crops().crops
    monkeypatch.setattr(classifier, "LOOSE_SCREEN", 1.1)
    with reading_with(serif_deck):
        probs = classify(crops)
    assert probs.shape == (len(crops), 53)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)


def test_a_card_no_example_showed_is_neither_taught_nor_taught_against() -> None:
    """Photos that show queens and no jacks: a jack's crop looks like a queen's to the
    made-up models (a court panel both share), and they barely tell the two apart. The fit
    raises the queens and leaves each jack only its suit's share, as each 2 (never shown
    either): lowered as the queens' rival, the jacks would lose to the queens further
    (what is left, the queens' own rise, :meth:`DeckProfile.temper` answers)."""
    rng = np.random.default_rng(1)
    court = (Card("Qs").rank, Card("Js").rank)

    def embedding(card: Card | None) -> np.ndarray:
        e = rng.normal(0, 0.1, 17 + 8).astype(np.float32)
        if card is not None:
            e[RANKS.index(card.rank)] += 1.0
            e[13 + SUITS.index(card.suit)] += 3.0
            e[17] += 3.0 if card.rank in court else 0.0  # the court panel
        return e

    def logits(card: Card | None) -> np.ndarray:
        z = np.zeros(53, np.float32)
        if card is None:
            z[BACKGROUND] = 2.0
            return z
        z[card.id] = 2.0
        for other in court:  # a queen and a jack of one suit read alike
            if card.rank in court and other != card.rank:
                z[Card(other, card.suit).id] = 1.9
        return z

    profile = _toy_fit([Card(Card("Qs").rank, s) for s in SUITS], embedding, logits)
    jacks = [Card(Card("Js").rank, s) for s in SUITS]
    for jack in jacks:  # a rank never shown: only its suit's share, as its 2's
        two = Card(Card("2s").rank, jack.suit)
        np.testing.assert_array_equal(profile.weights[0][jack.id], profile.weights[0][two.id])
        assert profile.biases[0][jack.id] == profile.biases[0][two.id]
    queen = profile.weights[0][Card("Qs").id]
    assert queen @ embedding(Card("Qs")) > 1.0  # the queens were taught


def test_a_deck_tempers_its_correction_where_it_moves_a_card_it_never_showed() -> None:
    """A profile that showed only K♠ and raises it everywhere: the A♥ the models read is
    moved onto K♠, but the deck never showed an A♥, so the two readings are averaged and
    neither is sure. A profile that showed the A♥ too is taken at its word."""
    from cardscore.vision.classifier import outputs

    examples = spread_examples(spread(SERIF))
    crops = examples.crops[examples.labels == Card("Ah").id][:1]
    shipped = classify(crops)
    assert shipped.argmax() == Card("Ah").id

    def raising_kings(shown: tuple[Card, ...]) -> DeckProfile:
        biases = np.zeros(53, np.float32)
        biases[Card("Ks").id] = 40.0
        sizes = [outputs(p, crops)[1].shape[1] for p in MODEL_PATHS]
        return DeckProfile(
            tuple(p.name for p in MODEL_PATHS),
            tuple(model_hash(p) for p in MODEL_PATHS),
            tuple(np.zeros((53, d), np.float32) for d in sizes),
            tuple(biases for _ in MODEL_PATHS),
            (*(4 if Card.from_id(i) in shown else 0 for i in range(52)), 30),
            "kings",
        )

    with reading_with(raising_kings((Card("Ks"),))):
        tempered = classify(crops)
    with reading_with(raising_kings((Card("Ks"), Card("Ah")))):
        taken = classify(crops)
    assert taken[0, Card("Ks").id] > 0.99
    assert 0.45 < tempered[0, Card("Ks").id] < 0.55
    assert tempered[0, Card("Ah").id] == pytest.approx(shipped[0, Card("Ah").id] / 2, abs=0.01)
