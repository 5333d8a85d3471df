"""How far a photo is out of focus or shaken, and the photo sharpened back where it is.

The index classifiers were trained on tables blurred up to about 1.3 px (a Gaussian's sigma,
cards :data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide). A phone out of focus or shaken
blurs more: an index's rank and suit run into one blob, or the rank comes apart, the candidate
stage frames them otherwise than training framed them, and whole tables go unread (blurred
3 px, the shared photos read 45 of 66 cards). This stage measures the blur along four
directions from the image's own edges and, where it passes :data:`SHARP` px in any of them,
sharpens the image with an unsharp mask shaped like the blur measured: long one way for a
shaken phone, round for a lens out of focus.

The measure is the re-blur ratio (Zhuo and Sim, *Defocus map estimation from a single
image*, 2011): an edge blurred by ``sigma`` across it, blurred again by :data:`PROBE`, loses
``sqrt(sigma**2 + PROBE**2) / sigma`` of its steepest gradient, so that loss gives ``sigma``.
Derivatives and blurs commute, so the re-blurred gradient is the gradient's own blur along the
edge's normal, summed at the edge pixels only.

>>> import numpy as np, cv2
>>> square = np.full((200, 200, 3), 230, np.uint8)
>>> square[60:140, 60:140] = 30
>>> measure_blur(square).worst < SHARP
True
>>> soft = cv2.GaussianBlur(square, (0, 0), 2.0)
>>> round(measure_blur(soft).worst, 1)
2.0
>>> refocus(soft).sharpened, refocus(square).sharpened
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = [
    "AMOUNT",
    "OWN",
    "PROBE",
    "REACH",
    "SHARP",
    "UNMEASURED",
    "Blur",
    "Focus",
    "measure_blur",
    "refocus",
]

DIRECTIONS = (0, 45, 90, 135)  # degrees, the edges' normals the blur is measured along
# One pixel's step along each direction, and its length.
_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1))
PROBE = 1.5  # the re-blur's sigma (px)
QUANTILE = 0.25  # of the edges' blur: the sharper ones (a cloth's pattern may be soft)
_TAPS = 4  # the re-blur's half-width, in steps
# The measure's own blur (px): Sobel's difference and the pixels' size. A step edge drawn
# sharp measures so; blurred by s, sqrt(s**2 + OWN**2).
OWN = 0.85
MIN_EDGE = 80.0  # an edge pixel's gradient (Sobel's 3 × 3 scale: 4 × grey levels per px)
NEAR = 3  # px: edges this far outside the paper count (a card's own outline)
MIN_EDGES = 50  # edge pixels a direction needs to be measured
MAX_EDGES = 20_000  # edge pixels looked at, at most (evenly spread over the image)
# The classifiers read an image blurred up to this (px, in its worst direction) as it is.
# Chosen on tuning tables (stroke designs' seeds 200-219 and the older Debian five at seed
# 7000, blurred and shaken), with AMOUNT and REACH. The stroke tables as drawn measure
# 0.6-1.0 px (on a gingham cloth up to 1.34), the shared photos 0.3-0.7, blurred 3 px 1.4-1.6.
SHARP = 1.3
# A shake: the edges' median blur this much more in its worst direction than in its best,
# and past SHAKEN there. A shake's edges are ramps, a box across them, and the quarter of
# them least soft, which SHARP is judged on, reads a shake of 6 px (a card 120 px wide) as
# 1.0-1.3 px on some designs. Sharp tables' medians differ by 0.06-0.42, a gingham cloth's
# soft checks up to 0.77; shaken 6 px, 0.6-2.2. Chosen on the tuning tables (the older
# Debian five and the stroke designs, shaken 6 and 8 px, gingham): 0.6 sharpened more
# shaken tables but put a quarter of the gingham ones on the blurred lines.
SPREAD = 0.8
SHAKEN = 1.3
AMOUNT = 2.5  # the unsharp mask's strength
REACH = 0.7  # its Gaussian's size, times the blur measured


@dataclass(frozen=True)
class Blur:
    """The blur measured along :data:`DIRECTIONS` (sigma, px; nan where too few edges run
    across that direction)."""

    sigmas: tuple[float, float, float, float]
    # The same along each direction from the edges' median: a shake's box-shaped edges,
    # whose sharpest quarter reads too little of it.
    medians: tuple[float, float, float, float] = (math.nan, math.nan, math.nan, math.nan)

    @property
    def worst(self) -> float:
        """The blur in its worst direction (0 when no direction could be measured)."""
        known = [s for s in self.sigmas if not math.isnan(s)]
        return max(known, default=0.0)

    @property
    def least(self) -> float:
        """The blur in its best direction (a shake blurs one way: ``worst`` apart from it)."""
        known = [s for s in self.sigmas if not math.isnan(s)]
        return min(known, default=0.0)

    @property
    def shaken(self) -> bool:
        """Blurred one way much more than across it: a shake (:data:`SPREAD`, :data:`SHAKEN`)."""
        known = [s for s in self.medians if not math.isnan(s)]
        if len(known) < 2:
            return False
        return max(known) > SHAKEN and max(known) - min(known) > SPREAD

    @property
    def sharp(self) -> bool:
        """Read as it is: :data:`SHARP` or less in its worst direction, and no shake."""
        return self.worst <= SHARP and not self.shaken

    def covariance(self) -> np.ndarray:
        """The 2 × 2 covariance (x, y; px²) of a Gaussian blurring so along each direction;
        a direction not measured takes the median of the others."""
        known = [s for s in self.sigmas if not math.isnan(s)]
        fill = float(np.median(known)) if known else 0.0
        v0, v45, v90, v135 = ((fill if math.isnan(s) else s) ** 2 for s in self.sigmas)
        # Least squares of v(t) = xx cos² t + 2 xy cos t sin t + yy sin² t over the four.
        shift = ((v45 + v135) - (v0 + v90)) / 4
        xy = (v45 - v135) / 2
        return np.array([[v0 + shift, xy], [xy, v90 + shift]])


UNMEASURED = Blur((math.nan, math.nan, math.nan, math.nan))  # no edges to measure: worst 0


@dataclass(frozen=True, eq=False)
class Focus:
    """An image as the classifiers should see it: ``image``, sharpened (``sharpened``) where
    the ``blur`` measured on the image as it came passed :data:`SHARP`."""

    image: np.ndarray
    blur: Blur
    sharpened: bool


def measure_blur(image: np.ndarray, where: np.ndarray | None = None) -> Blur:
    """The blur of ``image`` (BGR or grey) along each of :data:`DIRECTIONS`: the
    :data:`QUANTILE` of its strong edges running across that direction (those within ``where``'s nonzero
    pixels, within :data:`NEAR` px, given it)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(grey, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_16S, 0, 1, ksize=3)
    steep = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))  # saturates at 255
    strong = (steep >= MIN_EDGE).view(np.uint8)
    margin = _TAPS + 1
    strong[:margin], strong[-margin:], strong[:, :margin], strong[:, -margin:] = 0, 0, 0, 0
    if where is not None:
        near = cv2.dilate(where.astype(np.uint8), np.ones((2 * NEAR + 1, 2 * NEAR + 1), np.uint8))
        strong &= near > 0
    found = cv2.findNonZero(strong)
    if found is None:
        return UNMEASURED
    points = found.reshape(-1, 2)
    if len(points) > MAX_EDGES:
        points = points[:: len(points) // MAX_EDGES + 1]
    xs, ys = points[:, 0], points[:, 1]
    px, py = gx[ys, xs].astype(np.float32), gy[ys, xs].astype(np.float32)
    # Each pixel's edge normal, to the nearest of the four directions.
    bins = np.round(np.degrees(np.arctan2(py, px)) / 45).astype(int) % 4
    both = [_sigma_along(gx, gy, xs[bins == k], ys[bins == k], k) for k in range(4)]
    sigmas, medians = [b[0] for b in both], [b[1] for b in both]
    return Blur(
        (sigmas[0], sigmas[1], sigmas[2], sigmas[3]),
        (medians[0], medians[1], medians[2], medians[3]),
    )


def _sigma_along(
    gx: np.ndarray, gy: np.ndarray, xs: np.ndarray, ys: np.ndarray, k: int
) -> tuple[float, float]:
    """The blur (:data:`QUANTILE`) of the edge pixels (``xs``, ``ys``) whose normal is ``k``:
    each one's gradient along the normal against its blur along the normal (:data:`PROBE`),
    the gradient's ridge pixels only."""
    dx, dy = _STEPS[k]
    length = math.hypot(dx, dy)
    c, s = dx / length, dy / length

    def along(t: int) -> np.ndarray:
        """The gradient along the normal ``t`` steps from each pixel (looked up there only)."""
        at_y, at_x = ys + t * dy, xs + t * dx
        out: np.ndarray = np.abs(c * gx[at_y, at_x] + s * gy[at_y, at_x], dtype=np.float64)
        return out

    here = along(0)
    ridge = (here >= along(1)) & (here >= along(-1))
    xs, ys, here = xs[ridge], ys[ridge], here[ridge]
    if len(xs) < MIN_EDGES:
        return math.nan, math.nan
    taps = np.arange(-_TAPS, _TAPS + 1)
    weights = np.exp(-((taps * length) ** 2) / (2 * PROBE**2))
    weights /= weights.sum()
    blurred = sum(wt * along(int(t)) for t, wt in zip(taps, weights, strict=True))
    ratio = here / np.maximum(blurred, 1e-6)
    ratio = ratio[ratio > 1.0001]
    if len(ratio) < MIN_EDGES:
        return math.nan, math.nan
    seen = np.quantile(PROBE / np.sqrt(ratio**2 - 1), (QUANTILE, 0.5))
    return _less_own(float(seen[0])), _less_own(float(seen[1]))


def _less_own(seen: float) -> float:
    """A blur measured less the measure's own (:data:`OWN`), in quadrature."""
    return math.sqrt(max(seen**2 - OWN**2, 0.0))


def refocus(image: np.ndarray, where: np.ndarray | None = None) -> Focus:
    """``image`` (cards :data:`~cardscore.vision.geometry.NORMAL_WIDTH` px wide) sharpened
    where its blur (measured near ``where``'s pixels, given it: the cards) passes
    :data:`SHARP`: an unsharp mask (:data:`AMOUNT`) whose Gaussian is the blur measured,
    :data:`REACH` its size."""
    blur = measure_blur(image, where)
    if blur.sharp:
        return Focus(image, blur, False)
    kernel = _gaussian(REACH**2 * blur.covariance())
    x = image.astype(np.float32)
    sharp = x + AMOUNT * (x - cv2.filter2D(x, -1, kernel, borderType=cv2.BORDER_REFLECT))
    return Focus(np.clip(sharp, 0, 255).astype(np.uint8), blur, True)


def _gaussian(covariance: np.ndarray) -> np.ndarray:
    """A normalised 2-D Gaussian kernel of ``covariance`` (px²), at least 0.3 px each way."""
    values, vectors = np.linalg.eigh(covariance)
    values = np.maximum(values, 0.09)
    inverse = (vectors / values) @ vectors.T
    half = math.ceil(3 * math.sqrt(values.max()))
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float64)
    q = inverse[0, 0] * xx * xx + 2 * inverse[0, 1] * xx * yy + inverse[1, 1] * yy * yy
    kernel = np.exp(-0.5 * q)
    out: np.ndarray = (kernel / kernel.sum()).astype(np.float32)
    return out
