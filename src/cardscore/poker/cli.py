"""``cardscore poker``: rank hands, equities and draw odds, and play five-card draw."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardscore.cards import Card, parse_cards
from cardscore.cli.output import ask, console, echo_json, json_option, photo_options, vision_reader
from cardscore.errors import CardscoreError, IllegalMoveError, Problem
from cardscore.poker.evaluate import best_five, evaluate, showdown
from cardscore.poker.tables import CATEGORY_RANGES, Category

# Each command imports what it alone needs, so `cardscore poker rank` starts fast.
if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from cardscore.poker.dealer import Dealer

__all__ = ["group"]


def _cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards)


@click.group("poker")
def group() -> None:
    """Five-card draw: rank hands, equities and draw odds, play against computer players."""


@group.command("rank")
@click.argument("cards", nargs=-1, required=True)
@click.option("--explain", is_flag=True, help="Also print the hand in words and its best five.")
@json_option
def rank_command(cards: tuple[str, ...], explain: bool, as_json: bool) -> None:
    """Rank 5, 6 or 7 CARDS: prints the class (1 = royal flush … 7462) and the category."""
    hand = parse_cards(cards)
    found = evaluate(hand)
    best = best_five(hand)
    if as_json:
        echo_json({"cards": hand, "best": best, **found.as_dict()})
        return
    click.echo(f"{found.rank} {found.category.value}")
    if explain:
        click.echo(f"{found.description} ({_cards_text(best)})")


@group.command("compare")
@click.argument("hands", nargs=-1)
@photo_options("the hands (each player's five cards in a row)")
@json_option
def compare_command(
    hands: tuple[str, ...], photo: Path | None, deck_path: Path | None, as_json: bool
) -> None:
    """Rank several HANDS (each quoted, e.g. "As Ad Kc Kd 2h") and name the winner(s)."""
    if (photo is None) == (not hands):
        raise CardscoreError(Problem.of("hands_or_photo"))
    result = showdown(
        hands
        if photo is None
        else [tuple(row) for row in vision_reader("photo_rows")(photo, 5, deck_path)]
    )
    if as_json:
        echo_json(result.as_dict())
        return
    for number, (cards, rank) in enumerate(zip(result.hands, result.ranks, strict=True)):
        mark = "*" if number in result.winners else " "
        click.echo(f"{mark} {_cards_text(cards):<22} {rank.rank:>4} {rank.description}")


@group.command("odds")
@click.argument("hand", nargs=-1, required=True)
@click.option("--discard", "-d", default="", help="Cards to throw (e.g. '9c'); none: stand pat.")
@click.option("--dead", default="", help="Cards seen elsewhere, out of the draw.")
@json_option
def odds_command(hand: tuple[str, ...], discard: str, dead: str, as_json: bool) -> None:
    """Exact odds of each final hand when HAND (five cards) throws --discard and draws."""
    from rich.table import Table

    from cardscore.poker.equity import draw_odds

    odds = draw_odds(parse_cards(hand), discard, dead)
    if as_json:
        echo_json(odds.as_dict())
        return
    table = Table(box=None, pad_edge=False, show_footer=True)
    table.add_column("final hand", footer="improves")
    table.add_column("chance", justify="right", footer=f"{odds.improve:.2%}")
    table.add_column("draws", justify="right", footer=f"of {odds.draws:,}")
    for category in Category:
        span = CATEGORY_RANGES[category]
        n = sum(odds.counts[span.start : span.stop])
        if n:
            table.add_row(category.value, f"{n / odds.draws:.2%}", f"{n:,}")
    console().print(table)


@group.command("equity")
@click.argument("players", nargs=-1, required=True)
@click.option("--board", default="", help="Hold'em board cards (0, 3, 4 or 5).")
@click.option("--dead", default="", help="Cards out of play.")
@click.option("--draw", "five_card", is_flag=True, help="Five-card draw hands instead of hold'em.")
@click.option("--discards", multiple=True, help="With --draw: each player's discards, in order.")
@click.option("--trials", type=int, default=None, help="Sample this many deals.")
@click.option("--seed", type=int, default=None, help="Seed for sampling.")
@json_option
def equity_command(
    players: tuple[str, ...],
    board: str,
    dead: str,
    five_card: bool,
    discards: tuple[str, ...],
    trials: int | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Equity of each of PLAYERS: hold'em hole cards or ranges ("AhKh", "QQ+, AKs"), or
    with --draw five-card hands that each throw their --discards."""
    from cardscore.poker.equity import draw_equity, holdem_equity

    progress = sys.stderr.isatty() and not as_json
    if five_card:
        result = draw_equity(
            players, list(discards) or None, trials=trials or 100_000, seed=seed, progress=progress
        )
    else:
        result = holdem_equity(players, board, dead, trials=trials, seed=seed, progress=progress)
    if as_json:
        echo_json({"players": list(players), **result.as_dict()})
        return
    for player, share in zip(players, result.equities, strict=True):
        click.echo(f"{share:8.2%}  {player}")
    how = "exact" if result.exact else "sampled"
    click.echo(f"({how}, {result.trials:,} deals)")


# --- play ----------------------------------------------------------------------------------


def _table(dealer: Dealer, you: int | None, reveal: bool) -> Table:
    """The table; hole cards are shown for ``you``, and with ``reveal`` for hands shown at the
    showdown (or every hand when there is no human to hide them from)."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("", "player", "stack", "bet", "cards", ""):
        table.add_column(column)
    for i, seat in enumerate(dealer.seats):
        marks = ("D" if i == dealer.button else "") + (">" if i == dealer.to_act else "")
        cards = dealer.hand_of(i)
        visible = i == you or (
            reveal and (you is None or (dealer.result is not None and i in dealer.result.shown))
        )
        shown = _cards_text(cards) if visible else ("▒▒ " * len(cards)).strip()
        status = "folded" if seat.folded else ("all in" if seat.all_in else "")
        if not seat.in_hand:
            status = "out" if seat.stack == 0 else "sitting out"
        table.add_row(marks, seat.name, str(seat.stack), str(seat.total_bet), shown, status)
    return table


def _human_turn(dealer: Dealer, out: Console) -> bool:
    from cardscore.poker.dealer import Phase

    seat = dealer.to_act
    assert seat is not None
    out.print(_table(dealer, seat, reveal=False))
    hand = dealer.hand_of(seat)
    if dealer.phase is Phase.DRAW:
        while True:
            text = ask(
                f"Your hand {_cards_text(hand)} — discard (card codes or positions 1-5, "
                "empty to stand pat; q to quit)"
            )
            if text is None:
                return False
            try:
                tokens = text.replace(",", " ").split()
                thrown = [hand[int(t) - 1] if t.isdigit() else parse_cards(t)[0] for t in tokens]
                dealer.draw(thrown)
                return True
            except (CardscoreError, IndexError) as error:
                out.print(str(error), style="red", markup=False)
    while True:
        to_call = dealer.to_call()
        span = dealer.raise_range()
        options = [
            "fold" if dealer.can_fold() else None,
            "check" if to_call == 0 else f"call {to_call}",
        ]
        if span:
            word = "bet" if dealer.can_bet(span[0] - dealer.seats[seat].round_bet) else "raise to"
            options.append(
                f"{word} {span[0]}–{span[1]}" if span[0] != span[1] else f"{word} {span[0]}"
            )
        options.append("all-in")
        options.append("quit")
        prompt = f"Pot {dealer.pot_total()}. " + " / ".join(o for o in options if o)
        answer = ask(prompt, default="check" if to_call == 0 else "call")
        if answer is None:
            return False
        text = answer.lower()
        word, _, number = text.partition(" ")
        try:
            if word in ("f", "fold"):
                dealer.fold()
            elif word in ("k", "check", "c", "call"):
                dealer.check() if to_call == 0 else dealer.call()
            elif word in ("a", "all-in", "allin", "all"):
                dealer.all_in()
            elif word in ("b", "bet", "r", "raise"):
                amount = int(number.replace("to", "").strip())
                if dealer.can_bet(amount):
                    dealer.bet(amount)
                else:
                    dealer.raise_to(amount)
            else:
                raise IllegalMoveError(Problem.of("not_an_action", text=text))
            return True
        except (CardscoreError, ValueError) as error:
            out.print(str(error), style="red", markup=False)


def _show_result(dealer: Dealer, out: Console, you: int | None) -> None:
    result = dealer.result
    assert result is not None
    for seat, (cards, hand_rank) in result.shown.items():
        who = "You show" if seat == you else f"{dealer.seats[seat].name} shows"
        out.print(f"{who} {_cards_text(cards)}: {hand_rank.description}")
    for seat, chips in result.returned.items():
        out.print(f"{chips} uncalled returned to {dealer.seats[seat].name}")
    for number, pot in enumerate(result.pots):
        label = "main pot" if number == 0 else f"side pot {number}"
        names = " and ".join(dealer.seats[w].name for w in pot.winners)
        out.print(
            f"{names} {'split' if len(pot.winners) > 1 else 'wins'} the {label} ({pot.amount})"
        )


@group.command("play")
@click.option("--players", "-n", type=click.IntRange(2, 7), default=4, help="Seats, you included.")
@click.option("--stack", type=int, default=100, help="Starting chips for everyone.")
@click.option(
    "--hands", type=int, default=0, help="Stop after this many hands (0: until you quit or bust)."
)
@click.option("--limit", type=click.Choice(["no-limit", "fixed"]), default="no-limit")
@click.option("--blinds", default="1/2", help="Small/big blind, e.g. 1/2 (0/0 for none).")
@click.option("--ante", type=int, default=0)
@click.option("--seed", type=int, default=None, help="Seed the deck and the computer players.")
@click.option("--name", default="You")
@click.option("--watch", is_flag=True, help="Computer players only; you watch.")
@click.option(
    "--save",
    "save",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write each hand's JSON history to this file (the last hand).",
)
def play_command(
    players: int,
    stack: int,
    hands: int,
    limit: str,
    blinds: str,
    ante: int,
    seed: int | None,
    name: str,
    watch: bool,
    save: Path | None,
) -> None:
    """Play five-card draw in the terminal against computer players."""
    from cardscore.poker.betting import ActionKind, Limit, Rules
    from cardscore.poker.bots import Bot
    from cardscore.poker.dealer import Dealer, Phase

    small, _, big = blinds.partition("/")
    try:
        rules = Rules(
            limit=Limit(limit),
            ante=ante,
            small_blind=int(small),
            big_blind=int(big or small),
            small_bet=max(1, int(big or small)),
            big_bet=max(1, 2 * int(big or small)),
        )
    except ValueError as error:  # --blinds that are not numbers
        if isinstance(error, CardscoreError):
            raise
        raise CardscoreError(Problem.of("bad_blinds", blinds=blinds)) from None
    names = ([] if watch else [name]) + [
        f"Bot {i}" for i in range(1, players + (1 if watch else 0))
    ]
    dealer = Dealer(names, stacks=stack, rules=rules, seed=seed)
    base = 0 if seed is None else seed * 100
    bots = {i: Bot(seed=None if seed is None else base + i) for i in range(len(names))}
    you = None if watch else 0
    out = console()
    played = 0
    quit_ = False
    while sum(s.stack > 0 for s in dealer.seats) >= 2 and (
        you is None or dealer.seats[0].stack > 0
    ):
        dealer.start_hand()
        played += 1
        out.rule(f"Hand {played} — button: {dealer.seats[dealer.button].name}")
        shown_phase = None
        while dealer.phase is not Phase.COMPLETE:
            if dealer.phase is not shown_phase:
                shown_phase = dealer.phase
                out.print(f"[bold]{dealer.phase.value}[/bold]")
            seat = dealer.to_act
            assert seat is not None
            if seat == you:
                if not _human_turn(dealer, out):
                    quit_ = True
                    break
            else:
                action = bots[seat].act(dealer)
                out.print(f"{dealer.seats[seat].name} {action}")
            if (
                you is not None
                and dealer.actions[-1].kind is ActionKind.DRAW
                and dealer.actions[-1].seat == you
            ):
                out.print(
                    f"You draw {_cards_text(dealer.actions[-1].drawn) or 'nothing'}: {_cards_text(dealer.hand_of(0))}"
                )
        if quit_:
            out.print("You leave the table.")
            break
        _show_result(dealer, out, you)
        out.print(_table(dealer, you, reveal=True))
        if save is not None:
            save.write_text(dealer.history_json() + "\n", encoding="utf-8")
        if hands and played >= hands:
            break
        if you is not None and (ask("Another hand?", default="y") or "n").lower() in ("n", "no"):
            break
    out.print("Stacks: " + ", ".join(f"{s.name} {s.stack}" for s in dealer.seats))
