"""Live pages: a save on one server reaches a page following the match on another, at once.

Two ``cardscore serve`` processes share one database (SQLite file, or PostgreSQL as in a club's
deployment): a follower streams the match's events from one while a phone saves on the other.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator

import httpx
from fastapi.testclient import TestClient

from tests.web.conftest import Server, bearer, new_match

HEARTS = "23456789TJQKA"  # a hand's four piles hold all sixteen scoring cards
PILES = [[HEARTS, "P", "G", "D"], ["P", HEARTS, "G", "D"], ["G", "D", HEARTS, "P"]]


def _versions(lines: Iterator[str]) -> Iterator[int]:
    """The versions announced by a server-sent event stream, as they come."""
    event = None
    for line in lines:
        if line.startswith("event:"):
            event = line.partition(":")[2].strip()
        elif line.startswith("data:") and event == "version":
            yield int(json.loads(line.partition(":")[2])["version"])


def test_a_save_on_one_server_reaches_a_follower_of_another(any_database_url: str) -> None:
    workers = 2  # and the save and the stream may land on different workers of each
    editor_side = Server(any_database_url, workers=workers).start()
    follower_side = Server(any_database_url, workers=workers).start()
    try:
        match = new_match(httpx.Client(base_url=editor_side.url))
        events = f"{follower_side.url}/api/matches/{match['id']}/events"
        with httpx.stream(
            "GET",
            events,
            params={"key": match["share_key"]},
            headers={"Accept": "text/event-stream"},
            timeout=httpx.Timeout(10.0),
        ) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            heard = _versions(stream.iter_lines())
            assert next(heard) == 1  # the version now, at once
            for version, piles in enumerate(PILES, start=1):
                saved = httpx.post(
                    f"{editor_side.url}/api/matches/{match['id']}/rounds",
                    json={"version": version, "round": {"piles": piles}},
                    headers={**bearer(match["edit_key"]), "Prefer": "return=minimal"},
                )
                assert saved.status_code == 201, saved.text
                assert next(heard) == version + 1
        # Without the event-stream header the same URL answers at once (for polling).
        polled = httpx.get(events, headers=bearer(match["share_key"]))
        assert polled.json() == {"version": len(PILES) + 1}
    finally:
        editor_side.stop()
        follower_side.stop()


def test_following_needs_a_key_of_the_match(client: TestClient) -> None:
    match = new_match(client)
    other = new_match(client)
    url = f"/api/matches/{match['id']}/events"
    assert client.get(url).status_code == 401
    assert client.get(url, params={"key": other["share_key"]}).status_code == 403
    assert client.get(url, params={"key": "guess"}).status_code == 403
    assert client.get("/api/matches/nope/events", params={"key": "x"}).status_code == 404
    assert client.get(url, params={"key": match["share_key"]}).json() == {"version": 1}
    assert client.get(url, headers=bearer(match["edit_key"])).json() == {"version": 1}


def _page_data(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', html)
    assert found
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_the_page_follows_with_the_share_key_only(client: TestClient) -> None:
    match = new_match(client)
    for page_key in (match["edit_key"], match["share_key"]):
        data = _page_data(client.get(f"/m/{match['id']}/{page_key}").text)
        assert data["events"] == f"/api/matches/{match['id']}/events?key={match['share_key']}"


def test_a_long_match_page_shows_the_latest_rounds_and_pages_older_ones(
    client: TestClient,
) -> None:
    from cardscore.web.pages.match import OLDER, SHOWN

    match = new_match(client)
    rounds = SHOWN + OLDER + 5
    for version in range(1, rounds + 1):
        piles = PILES[version % 2]  # each player gains over two hands: no end in sight
        saved = client.post(
            f"/api/matches/{match['id']}/rounds",
            json={"version": version, "round": {"piles": piles}},
            headers={**bearer(match["edit_key"]), "Prefer": "return=minimal"},
        )
        assert saved.status_code == 201
    whole = client.get(f"/api/matches/{match['id']}", headers=bearer(match["share_key"])).json()
    page_url = f"/m/{match['id']}/{match['share_key']}"

    def shown(html: str) -> list[int]:
        return [int(n) for n in re.findall(r'<details class="round" data-number="(\d+)"', html)]

    first = client.get(page_url).text
    assert shown(first) == list(range(rounds, rounds - SHOWN, -1))
    data = _page_data(first)
    assert data["first"] == rounds - SHOWN + 1
    assert data["count"] == rounds
    assert data["documents"] == {str(r["number"]): r["document"] for r in whole["rounds"][-SHOWN:]}
    # The totals and the chart still cover the whole match.
    assert f">{whole['totals'][0]:,}<" in first  # as English writes it: 4,000
    older = re.search(r'<a class="older" href="\?from=(\d+)"', first)
    assert older
    assert int(older.group(1)) == rounds - SHOWN - OLDER + 1
    second = client.get(page_url, params={"from": older.group(1)}).text
    assert shown(second) == list(range(rounds, rounds - SHOWN - OLDER, -1))
    last = re.search(r'<a class="older" href="\?from=(\d+)"', second)
    assert last
    assert last.group(1) == "1"
    everything = client.get(page_url, params={"from": 1}).text
    assert shown(everything) == list(range(rounds, 0, -1))
    assert 'class="older"' not in everything


def test_live_refreshes_render_a_version_once_and_follow_saves(client: TestClient) -> None:
    match = new_match(client)
    page = f"/m/{match['id']}/{match['share_key']}"
    refresh = {"X-Cardscore-Refresh": "1"}
    first = client.get(page, headers=refresh)
    assert first.status_code == 200
    assert "set-cookie" not in first.headers  # nothing personal: the same page for everyone
    assert _page_data(first.text)["version"] == 1
    rendered = client.app.state.rendered_pages  # type: ignore[attr-defined]
    kept = rendered.get((match["id"], match["share_key"], "en", "http://testserver/", "1"))
    assert kept == first.content
    assert client.get(page, headers=refresh).content == first.content
    saved = client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"version": 1, "round": {"piles": PILES[0]}},
        headers=bearer(match["edit_key"]),
    )
    assert saved.status_code == 201
    after = client.get(page, headers=refresh).text
    assert _page_data(after)["version"] == 2
    assert _page_data(after)["documents"] == {"1": saved.json()["rounds"][0]["document"]}
    # A key that does not open the match gets nothing from what is kept.
    assert client.get(f"/m/{match['id']}/guess", headers=refresh).status_code == 403


def test_chart_labels_of_equal_totals_do_not_overlap_and_long_matches_stay_small() -> None:
    from cardscore.web.charts import totals_chart

    def label_ys(svg: str) -> list[float]:
        return [
            float(y)
            for y in re.findall(
                r'<text x="[\d.]+" y="([\d.]+)" font-size="10" fill="#[0-9a-f]{6}"', svg
            )
        ]

    equal = totals_chart(["Ana", "Bia", "Caio"], [[100, 100, 100], [250, 250, 250]], None)
    ys = sorted(label_ys(equal))
    assert all(b - a >= 10.9 for a, b in itertools.pairwise(ys))
    long = totals_chart(["A", "B"], [[i, -i] for i in range(1, 1001)], None)
    assert len(long) < 25_000
    # The last round is still where the lines end.
    assert long.count("1000") >= 1


def test_a_refresh_for_a_heard_version_does_not_take_a_rendering_begun_before_it() -> None:
    """Two phones follow one match: the first asks for version 2's page and, while it renders,
    the match is saved (version 3) and the second asks for version 3. It must not be handed
    the page of version 2: it would wait for an announcement that already came."""
    import asyncio

    from cardscore.web.pages.match import Rendered

    async def scene() -> tuple[bytes, bytes, bytes, int]:
        rendered = Rendered()
        place = ("m", "share", "en", "http://testserver/")
        stored = {"version": 2}
        renderings = 0
        first_reading = asyncio.Event()
        go_on = asyncio.Event()

        async def render() -> tuple[bytes, int]:
            nonlocal renderings
            renderings += 1
            version = stored["version"]  # read when the rendering begins
            first_reading.set()
            await go_on.wait()
            return f"page {version}".encode(), version

        older = asyncio.create_task(rendered.once(place, render, 2))
        await first_reading.wait()
        stored["version"] = 3  # saved while version 2 renders
        heard = asyncio.create_task(rendered.once(place, render, 3))
        same = asyncio.create_task(rendered.once(place, render, 2))
        await asyncio.sleep(0)
        go_on.set()
        return await older, await heard, await same, renderings

    older, heard, same, renderings = asyncio.run(scene())
    assert older == same == b"page 2"  # one rendering served both who asked for 2
    assert heard == b"page 3"
    assert renderings == 2
