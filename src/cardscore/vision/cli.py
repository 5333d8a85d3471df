"""``cardscore recognize PHOTO``: the cards, melds and piles on a table, and a Tranca draft."""

from __future__ import annotations

from pathlib import Path

import click

from cardscore.cli.output import console, echo_json, json_option
from cardscore.vision.recognition import Recognition, recognize

__all__ = ["recognize_command", "text_report"]


def text_report(result: Recognition) -> str:
    """The people-readable report."""
    lines = [f"{len(result.cards)} cards (card width {result.card_width:.0f} px):"]
    for n, seen in enumerate(result.cards):
        mark = "  ? please confirm" + (f" (or {seen.alternative.code})" if seen.alternative else "")
        lines.append(
            f"  {n:>2}  {seen.card.code:<3} {seen.card!s:<4} {seen.confidence:5.3f}  "
            f"at ({seen.x:.0f}, {seen.y:.0f}), turned {seen.angle:.0f}°"
            + (mark if seen.flagged else "")
        )
    lines.append("groups:")
    for group in result.groups:
        cards = " ".join(result.cards[i].card.code for i in group.cards)
        extra = ""
        if group.orientation:
            clean = "clean" if group.orientation == "horizontal" else "dirty"
            extra = f" — {group.orientation} ({clean})"
        lines.append(f"  {group.kind:<6} {cards}{extra}")
    draft = result.tranca_draft()
    lines.append("tranca draft (add hand, took_morto and went_out):")
    lines.append(f"  melds:   {draft['melds']}")
    lines.append(f"  piles:   {draft['piles']}")
    lines.append(f"  dollars: {draft['dollars']}")
    if result.flagged:
        lines.append(f"{len(result.flagged)} card(s) need confirming (marked ?)")
    return "\n".join(lines)


@click.command("recognize")
@click.argument("photo", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--annotate",
    "annotate_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also write the photo with boxes, codes and groups drawn on it (e.g. out.png).",
)
@click.option(
    "--card-width",
    type=float,
    default=None,
    help="Card width in pixels, if known (skips the estimate).",
)
@json_option
def recognize_command(
    photo: Path, annotate_path: Path | None, card_width: float | None, as_json: bool
) -> None:
    """Read the cards, melds, piles and dollars on a table from PHOTO.

    Prints every card (code, confidence, where), the groups, and a draft Tranca team entry;
    unsure cards are flagged for you to confirm.
    """
    result = recognize(photo, card_width=card_width)
    if annotate_path is not None:
        from cardscore.vision.annotate import save_annotated

        save_annotated(photo, result, annotate_path)
    if as_json:
        echo_json(result.as_dict())
    else:
        console().print(text_report(result), markup=False)
