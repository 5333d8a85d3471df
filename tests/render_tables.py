"""An independent Tranca table renderer: card designs the recogniser never trained on.

Written apart from ``train.synth`` (which draws the training tables), so that
the project is never measured only on its own generator. The faces are drawn here from
nothing: ranks in OpenCV's Hershey stroke fonts (no TrueType font the classifier saw), suits
as polygons and circles of this file's own shapes. Each :class:`Design` is one deck: font,
ink weight, index size and place, paper and ink colours. A table lays melds (fanned along
one axis, each card a fixed step over the last), closed piles (a lone card, turned a quarter
from the melds when clean), red 3s (dollars) on a cloth, then turns the whole photo a little,
blurs it, adds noise and saves it as JPEG at the given quality.

Only numpy and OpenCV (the ``vision`` extra): the tests and ``benchmarks/vision_bench.py``
use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from cardscore.cards import Card, Rank, Suit, full_deck

__all__ = [
    "CALIBRATION",
    "DESIGNS",
    "Design",
    "Table",
    "cream",
    "draw_face",
    "gingham",
    "render_rows",
    "render_table",
    "seat_view",
    "spread",
]

RED_SUITS = (Suit.HEARTS, Suit.DIAMONDS)
_RANK_TEXT = {Rank.TEN: "10", Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}


@dataclass(frozen=True)
class Design:
    """One deck's look: Hershey font, stroke weight, index height (card widths), paper, inks."""

    name: str
    font: int
    weight: int
    index: float  # rank glyph height / card width
    paper: tuple[int, int, int]  # BGR
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    cloth: tuple[int, int, int]


DESIGNS = (
    Design(
        "stroke-plain", cv2.FONT_HERSHEY_DUPLEX, 3, 0.16, (245, 246, 248), (40, 30, 200),
        (30, 30, 30), (60, 110, 40),
    ),
    Design(
        "stroke-serif", cv2.FONT_HERSHEY_TRIPLEX, 3, 0.15, (228, 238, 244), (50, 40, 170),
        (50, 30, 20), (120, 70, 30),
    ),
)  # fmt: skip
# Only for fitting the confidence calibration (benchmarks/vision_calibrate.py): never measured.
CALIBRATION = Design(
    "stroke-calibration", cv2.FONT_HERSHEY_COMPLEX, 2, 0.17, (238, 240, 240), (60, 20, 190),
    (20, 20, 20), (40, 60, 110),
)  # fmt: skip

W, H = 200, 280  # a face's pixels


def cream(design: Design) -> Design:
    """``design`` printed as a cream, low-contrast deck on a beige cloth: cream paper, grey
    ink, a faded red; little between ink, paper and table."""
    return replace(
        design, paper=(200, 230, 240), black=(90, 90, 90), red=(90, 90, 190), cloth=(170, 200, 215)
    )


def _suit_mask(suit: Suit, size: int) -> np.ndarray:
    """A suit symbol drawn from circles and polygons, ``size`` px square, 255 inside."""
    s = size * 4  # drawn large, then shrunk: smooth edges
    m = np.zeros((s, s), np.uint8)
    r = s // 4
    if suit is Suit.DIAMONDS:
        pts = np.array([[s // 2, 0], [s - s // 8, s // 2], [s // 2, s - 1], [s // 8, s // 2]])
        cv2.fillPoly(m, [pts], 255)
    elif suit is Suit.HEARTS:
        cv2.circle(m, (s // 2 - r + r // 8, s // 3), r, 255, -1)
        cv2.circle(m, (s // 2 + r - r // 8, s // 3), r, 255, -1)
        pts = np.array([[s // 2 - 2 * r + r // 5, s // 3 + r // 4],
                        [s // 2 + 2 * r - r // 5, s // 3 + r // 4], [s // 2, s - 1]])  # fmt: skip
        cv2.fillPoly(m, [pts], 255)
    elif suit is Suit.SPADES:
        cv2.circle(m, (s // 2 - r + r // 8, s - s // 3 - r // 4), r, 255, -1)
        cv2.circle(m, (s // 2 + r - r // 8, s - s // 3 - r // 4), r, 255, -1)
        pts = np.array([[s // 2 - 2 * r + r // 6, s - s // 3 - r // 2],
                        [s // 2 + 2 * r - r // 6, s - s // 3 - r // 2], [s // 2, 0]])  # fmt: skip
        cv2.fillPoly(m, [pts], 255)
        stem = np.array([[s // 2, s // 2], [s // 2 + r // 2, s - 1], [s // 2 - r // 2, s - 1]])
        cv2.fillPoly(m, [stem], 255)
    else:
        cr = int(r * 0.85)
        cv2.circle(m, (s // 2, cr + 2), cr, 255, -1)
        cv2.circle(m, (s // 2 - r, s // 2 + r // 4), cr, 255, -1)
        cv2.circle(m, (s // 2 + r, s // 2 + r // 4), cr, 255, -1)
        stem = np.array([[s // 2, s // 3], [s // 2 + r // 2, s - 1], [s // 2 - r // 2, s - 1]])
        cv2.fillPoly(m, [stem], 255)
    out: np.ndarray = cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
    return out


def _stamp(face: np.ndarray, mask: np.ndarray, x: int, y: int, ink: tuple[int, int, int]) -> None:
    h, w = mask.shape
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    region = face[y : y + h, x : x + w].astype(np.float32)
    face[y : y + h, x : x + w] = (region * (1 - alpha) + np.array(ink) * alpha).astype(np.uint8)


def _text_mask(text: str, design: Design, height: int) -> np.ndarray:
    """The rank's text in the design's font, scaled to ``height`` px tall (tens narrower)."""
    scale = 4.0
    (tw, th), base = cv2.getTextSize(text, design.font, scale, design.weight * 4)
    m = np.zeros((th + base + 20, tw + 20), np.uint8)
    cv2.putText(m, text, (10, th + 10), design.font, scale, 255, design.weight * 4, cv2.LINE_AA)
    ys, xs = np.nonzero(m > 40)
    m = m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    width = max(1, round(m.shape[1] * height / m.shape[0] * (0.8 if len(text) > 1 else 1.0)))
    out: np.ndarray = cv2.resize(m, (width, height), interpolation=cv2.INTER_AREA)
    return out


def draw_face(card: Card, design: Design) -> np.ndarray:
    """A card face (H×W BGR): indices in two opposite corners, pips or a court panel between."""
    face = np.full((H, W, 3), design.paper, np.uint8)
    ink = design.red if card.suit in RED_SUITS else design.black
    rank = _text_mask(_RANK_TEXT.get(card.rank, card.rank.value), design, round(design.index * W))
    suit = _suit_mask(card.suit, round(design.index * W * 0.8))
    # One corner drawn on the top half, copied turned half a turn: point-symmetric indices.
    cx = round(0.13 * W)
    top = round(0.05 * W)
    _stamp(face, rank, max(2, cx - rank.shape[1] // 2), top, ink)
    _stamp(face, suit, cx - suit.shape[1] // 2, top + rank.shape[0] + round(0.03 * W), ink)
    half = face[: H // 2].copy()
    face[H - H // 2 :] = np.rot90(half, 2)[: H - H // 2]
    # The middle is drawn after the copy: a pip or court panel across the centre line.
    middle = face[round(0.2 * H) : round(0.8 * H), round(0.27 * W) : round(0.73 * W)]
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        cv2.rectangle(middle, (4, 4), (middle.shape[1] - 5, middle.shape[0] - 5), ink, 3)
        big = _text_mask(_RANK_TEXT[card.rank], design, middle.shape[0] // 3)
        _stamp(middle, big, (middle.shape[1] - big.shape[1]) // 2, middle.shape[0] // 3, ink)
    else:
        pip = _suit_mask(card.suit, round(0.2 * W))
        _stamp(middle, pip, (middle.shape[1] - pip.shape[1]) // 2,
               (middle.shape[0] - pip.shape[0]) // 2, ink)  # fmt: skip
    cv2.rectangle(face, (0, 0), (W - 1, H - 1), (150, 150, 150), 1)
    return face


@dataclass(frozen=True)
class Table:
    """A rendered photo and its truth in :func:`cardscore.vision.evaluate.score_table`'s terms."""

    image: np.ndarray
    truth: list[tuple[Card, float, float, int]]
    kinds: dict[int, str]
    card_width: float


def _place(canvas: np.ndarray, face: np.ndarray, x: float, y: float, angle: float) -> None:
    """Pastes ``face`` (BGR, or BGRA: its alpha cuts its corners round) centred at (x, y),
    turned ``angle`` degrees counter-clockwise."""
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (x - w / 2, y - h / 2)
    size = (canvas.shape[1], canvas.shape[0])
    opaque = np.full((h, w), 255, np.uint8) if face.shape[2] == 3 else face[..., 3].copy()
    warped = cv2.warpAffine(np.ascontiguousarray(face[..., :3]), m, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(opaque, m, size, flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    canvas[:] = (canvas * (1 - alpha) + warped * alpha).astype(np.uint8)


def _meld(rng: np.random.Generator, deck: list[Card]) -> list[Card]:
    """A legal Tranca meld: three to seven cards of one rank (no 2s, 3s)."""
    rank = Rank(str(rng.choice(list("456789TJQKA"))))
    suits = [Suit(s) for s in rng.choice(list("shdc"), size=int(rng.integers(3, 6)))]
    return [Card(rank, suit) for suit in suits]


def _run(rng: np.random.Generator) -> list[Card]:
    """A legal Tranca run: three to six cards of one suit in sequence, 4 up to the ace."""
    suit = Suit(str(rng.choice(list("shdc"))))
    order = list("456789TJQKA")
    n = int(rng.integers(3, 7))
    start = int(rng.integers(0, len(order) - n + 1))
    return [Card(Rank(r), suit) for r in order[start : start + n]]


def gingham(height: int, width: int, cell: int, ink: tuple[int, int, int]) -> np.ndarray:
    """A gingham tablecloth (BGR): white, ``ink``, and their mix where bands cross singly."""
    yy, xx = np.mgrid[0:height, 0:width]
    across, down = (xx // cell) % 2, (yy // cell) % 2
    white, dark = np.array((245, 245, 245), np.float32), np.array(ink, np.float32)
    out = np.where(
        (across & down)[..., None] == 1,
        dark,
        np.where((across ^ down)[..., None] == 1, (white + dark) / 2, white),
    )
    return out.astype(np.uint8)


def _texture(image: np.ndarray, rng: np.random.Generator) -> None:
    """A cloth's weave on ``image`` (in place): smooth noise, 6 grey levels."""
    height, width = image.shape[:2]
    noise = rng.normal(0, 6, (height // 8 + 1, width // 8 + 1, 1))
    texture = cv2.resize(noise, (width, height))[..., None]
    image[:] = np.clip(image + texture, 0, 255).astype(np.uint8)


def _photographed(image: np.ndarray, rng: np.random.Generator, quality: int) -> np.ndarray:
    """``image`` as a photo: a little blur, sensor noise, a light gradient, JPEG."""
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.5, 1.1)))
    light = np.linspace(float(rng.uniform(0.85, 1.0)), 1.0, image.shape[1])[None, :, None]
    image = np.clip(image * light + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    decoded: np.ndarray = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return decoded


def render_table(
    seed: int,
    design: Design,
    *,
    card_width: int = 150,
    quality: int = 85,
    checked: tuple[int, int, int] | None = None,
    keystone: float = 1.0,
    turn: float = 0.0,
    faces: Mapping[Card, np.ndarray] | None = None,
    columns: bool = False,
) -> Table:
    """A Tranca table: two or three melds, a clean and a dirty pile, a red 3; photo-like.
    ``checked``: a gingham cloth of that colour (BGR) instead of the design's plain one.
    ``keystone`` under 1: photographed from a seat at its lower edge, the far (upper) edge
    that much narrower than the near one, and the far cards foreshortened (:func:`seat_view`).
    ``turn``: the whole table turned that many degrees counter-clockwise in the photo (a phone
    held askew of the table's edge), the photo widened to hold it. ``faces``: another deck's
    faces (BGR or BGRA, any size, every card) instead of ``design``'s own, laid out the same
    (the design still gives the cloth). ``columns``: the melds fanned down in columns side
    by side, each card a step below the last (0.42–0.55 card widths: its rank and suit in
    sight), as many players lay them, instead of rows.

    >>> t = render_table(1, DESIGNS[0])
    >>> t.image.shape[2], len(t.truth) >= 8, sorted(set(t.kinds.values()))[:1]
    (3, True, ['dollar'])
    """
    rng = np.random.default_rng(seed)
    drawn = faces or {c: draw_face(c, design) for c in full_deck()}
    faces = {c: cv2.resize(face, None, fx=card_width / face.shape[1], fy=card_width / face.shape[1],
                           interpolation=cv2.INTER_AREA) for c, face in drawn.items()}  # fmt: skip
    cw, ch = card_width, card_width * H / W
    width, height = round(cw * 8), round(cw * 6)
    image = np.empty((height, width, 3), np.uint8)
    if checked is None:
        image[:] = design.cloth
    else:
        image[:] = gingham(height, width, max(4, round(cw * 0.16)), checked)
    _texture(image, rng)
    truth: list[tuple[Card, float, float, int]] = []
    kinds: dict[int, str] = {}
    base = float(rng.uniform(-8, 8))
    gid = 0
    n_melds = int(rng.integers(2, 4))
    for m in range(n_melds):
        cards = _run(rng) if rng.random() < 0.5 else _meld(rng, [])
        step = cw * float(rng.uniform(0.32, 0.42))
        x0, y0 = cw * 0.9, ch * 0.75 + m * ch * 1.25
        # Along the cards' right in a row, along their down in a column.
        t = np.deg2rad(base)
        along = (np.cos(t), -np.sin(t))
        if columns:
            step *= 1.3
            x0, y0 = cw * (0.8 + 1.35 * m), ch * 0.6
            along = (np.sin(t), np.cos(t))
        for k, card in enumerate(cards):
            x = x0 + k * step * along[0]
            y = y0 + k * step * along[1]
            _place(image, faces[card], x, y, base)
            truth.append((card, x, y, gid))
        kinds[gid] = "meld"
        gid += 1
    # Piles and a dollar in the right-hand column, well apart from the melds.
    px = cw * 6.3
    for k, clean in enumerate((True, False)):
        card = Card(Rank(str(rng.choice(list("456789TJQK")))), Suit(str(rng.choice(["s", "c"]))))
        y = ch * 0.75 + k * ch * 1.3
        _place(image, faces[card], px, y, base + (90 if clean else 0))
        truth.append((card, px, y, gid))
        kinds[gid] = "pile:horizontal" if clean else "pile:vertical"
        gid += 1
    dollar = Card(Rank.THREE, Suit(str(rng.choice(["h", "d"]))))
    x, y = px, ch * 0.75 + 2 * ch * 1.3
    _place(image, faces[dollar], x, y, base + float(rng.uniform(-10, 10)))
    truth.append((dollar, x, y, gid))
    kinds[gid] = "dollar"
    if keystone != 1.0:
        view = seat_view(height, width, keystone)
        image = cv2.warpPerspective(image, view, (width, height), borderMode=cv2.BORDER_REPLICATE)
        seen = cv2.perspectiveTransform(np.array([[(x, y) for _, x, y, _ in truth]]), view)[0]
        truth = [(c, float(x), float(y), g) for (c, *_, g), (x, y) in zip(truth, seen, strict=True)]
    if turn:
        image, truth = _turned(image, truth, turn, design.cloth)
    return Table(_photographed(image, rng, quality), truth, kinds, float(card_width))


def render_close_up(
    seed: int,
    design: Design,
    *,
    faces: Mapping[Card, np.ndarray] | None = None,
    quality: int = 85,
) -> Table:
    """A close-up: one card, or two or three fanned in a row, filling much of the photo (a
    player photographing a pair or a meld, not the table; three cards are a Tranca meld, the
    start of a run or of a set, as a Tranca reading expects). Each card 180–400 px wide, a fan's
    step 0.3–0.5 card widths, turned a quarter some of the time; a margin of cloth 0.1–0.6 of
    the cards' extent on each side, the photo then widened to 4:3 (or 3:4). ``faces``: as
    :func:`render_table`'s. Only three cards make a group judged (a meld).

    >>> t = render_close_up(3, DESIGNS[0])
    >>> 1 <= len(t.truth) <= 3, set(t.kinds.values()) <= {"meld"}, t.card_width >= 180
    (True, True, True)
    """
    rng = np.random.default_rng(seed)
    count = int(rng.choice([1, 2, 3], p=[0.3, 0.4, 0.3]))
    if count == 3:
        cards = (_run(rng) if rng.random() < 0.5 else _meld(rng, []))[:3]
    else:
        cards = [full_deck()[int(i)] for i in rng.choice(52, size=count, replace=False)]
    cw = int(rng.integers(180, 401))
    ch = cw * H / W
    step = cw * float(rng.uniform(0.3, 0.5))
    quarter = rng.random() < 0.3
    angle = float(rng.uniform(-8, 8)) + (90.0 if quarter else 0.0)
    across, down = cw + step * (count - 1), ch
    if quarter:
        across, down = down, across
    margin = float(rng.uniform(0.1, 0.6))
    width, height = across * (1 + 2 * margin), down * (1 + 2 * margin)
    if width >= height:
        width = max(width, height * 4 / 3)
        height = max(height, width * 3 / 4)
    else:
        height = max(height, width * 4 / 3)
        width = max(width, height * 3 / 4)
    width, height = round(width), round(height)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = design.cloth
    _texture(image, rng)
    drawn = faces or {c: draw_face(c, design) for c in cards}
    t = np.deg2rad(angle)
    along = np.array([np.cos(t), -np.sin(t)])
    centre = np.array([width / 2, height / 2])
    truth: list[tuple[Card, float, float, int]] = []
    for k, card in enumerate(cards):
        face = drawn[card]
        face = cv2.resize(face, None, fx=cw / face.shape[1], fy=cw / face.shape[1],
                          interpolation=cv2.INTER_AREA)  # fmt: skip
        x, y = centre + (k - (count - 1) / 2) * step * along
        _place(image, face, float(x), float(y), angle)
        truth.append((card, float(x), float(y), 0))
    kinds = {0: "meld"} if count == 3 else {}
    return Table(_photographed(image, rng, quality), truth, kinds, float(cw))


def _turned(
    image: np.ndarray,
    truth: list[tuple[Card, float, float, int]],
    degrees: float,
    cloth: tuple[int, int, int],
) -> tuple[np.ndarray, list[tuple[Card, float, float, int]]]:
    """The photo turned counter-clockwise by ``degrees`` about its centre, widened to hold
    all of it (the new corners the cloth's colour), and the cards' centres with it.

    >>> out, moved = _turned(np.zeros((100, 200, 3), np.uint8), [(Card("As"), 150.0, 50.0, 0)], 90, (0, 0, 0))
    >>> out.shape[:2], [round(v) for v in moved[0][1:3]]
    ((200, 100), [50, 50])
    """
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(np.cos(np.deg2rad(degrees))), abs(np.sin(np.deg2rad(degrees)))
    size = (round(w * c + h * s), round(w * s + h * c))
    turn[:, 2] += ((size[0] - w) / 2, (size[1] - h) / 2)
    out = cv2.warpAffine(image, turn, size, borderMode=cv2.BORDER_CONSTANT, borderValue=cloth)
    moved = []
    for card, x, y, g in truth:
        tx, ty = turn @ (x, y, 1.0)
        moved.append((card, float(tx), float(ty), g))
    return out, moved


def seat_view(height: int, width: int, keystone: float) -> np.ndarray:
    """The homography of a photo taken from a seat at a table's lower edge: the upper edge
    shrinks to ``keystone`` of its width about the middle and comes down by half of what it
    loses, the lower edge stays (the far cards smaller and squashed, the near ones as drawn).

    >>> v = seat_view(600, 800, 0.7)
    >>> [round(float(c), 1) for c in cv2.perspectiveTransform(np.array([[(0.0, 0.0)]]), v)[0, 0]]
    [120.0, 90.0]
    """
    inset = (1 - keystone) / 2
    flat = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    seen = np.float32([[inset * width, inset * height], [(1 - inset) * width, inset * height],
                       [width, height], [0, height]])  # fmt: skip
    return np.asarray(cv2.getPerspectiveTransform(flat, seen), np.float64)


def spread(design: Design, *, card_width: int = 120, seed: int = 0) -> np.ndarray:
    """The whole deck face up in four rows by suit (♠ ♥ ♦ ♣), A to K left to right: the photo
    ``cardscore deck learn --spread`` reads."""
    rng = np.random.default_rng(seed)
    scale = card_width / W
    cw, ch = card_width, card_width * H / W
    gap = cw * 0.12
    width, height = round(13 * (cw + gap) + gap), round(4 * (ch + gap) + gap)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = design.cloth
    ranks = "A23456789TJQK"
    for row, suit in enumerate("shdc"):
        for col, rank in enumerate(ranks):
            face = cv2.resize(draw_face(Card(rank + suit), design), None, fx=scale, fy=scale,
                              interpolation=cv2.INTER_AREA)  # fmt: skip
            x = gap + col * (cw + gap) + cw / 2
            y = gap + row * (ch + gap) + ch / 2
            _place(image, face, x, y, float(rng.uniform(-2, 2)))
    return cv2.GaussianBlur(image, (0, 0), 0.6)


def render_rows(
    rows: list[list[Card]], design: Design, *, card_width: int = 130, seed: int = 0
) -> np.ndarray:
    """Each row of cards laid side by side, a little apart, rows well apart: a showdown's
    hands, one player's per row (or a Gong Zhu pile spread out in rows)."""
    rng = np.random.default_rng(seed)
    scale = card_width / W
    cw, ch = card_width, card_width * H / W
    longest = max(len(r) for r in rows)
    width, height = round((longest + 1) * cw * 1.15), round((len(rows) + 0.4) * ch * 1.5)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = design.cloth
    for k, row in enumerate(rows):
        for j, card in enumerate(row):
            face = cv2.resize(draw_face(card, design), None, fx=scale, fy=scale,
                              interpolation=cv2.INTER_AREA)  # fmt: skip
            x = cw * (0.9 + 1.12 * j)
            y = ch * (0.85 + 1.5 * k)
            _place(image, face, x, y, float(rng.uniform(-4, 4)))
    return cv2.GaussianBlur(image, (0, 0), 0.7)
