"""The attacks of issue 38 on names, ratings and the daily box, against a real `shutthebox
serve` (SQLite, and PostgreSQL when it answers on 127.0.0.1:5432), with what each got:

- **offline-found lines**: the public box's dice (``shutthebox daily``, which anyone can
  compute for any day) against the rolls the server deals: how many of the first rolls agree
  (a sixth of the dice agree by chance), and how many rolls an answer showed before the
  decision that precedes them;
- **results never dealt**: a client's own list of moves, a score or a name sent as a result;
- **tokens made up by the client**: a daily turn, a game and "who am I" with a player token
  the server never gave;
- **self-play from one address**: one person with two claimed names playing both seats of
  74 short games: how many were rated, and the two ratings after;
- **games under another's name**: a seat named as a claimed player (five looks of the name)
  without their token: the answers, and the player's rating after;
- **a thousand names from one address**: claims accepted and refused, and how long it took;
- **a recovery code guessed**: 1,000 wrong codes: refused as wrong, then refused outright,
  and the right code after them;
- **two server processes** (``--workers 2``): the first roll dealt to 8 players, one
  process or the other: all the same.

Prints figures; asserts nothing (the tests under ``tests/`` hold the protections).

    python benchmarks/bench_trust.py [--database sqlite|postgresql|both]
"""

from __future__ import annotations

import secrets
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_attacks import database, on_databases
from report import Figures

from tests.web.webserver import Server, play

SHORT = {"tiles": 4}
"""A short game: four tiles, a turn or two each."""


def player(token: str) -> dict[str, str]:
    return {"X-Player-Token": token}


ADDRESSES = iter(range(2, 250))


def claim(server: Server, name: str) -> dict[str, Any]:
    """Claim ``name`` from an address of its own (127.0.0.N: a player of their own)."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{next(ADDRESSES)}")
    with httpx.Client(transport=transport, timeout=30) as client:
        found: dict[str, Any] = client.post(f"{server.url}/api/players",
                                            json={"name": name}).json()
    return found


def first_roll(state: dict[str, Any]) -> list[int] | None:
    roll = (state.get("pending") or {}).get("roll")
    return list(roll) if roll else None


def dealt_turn(server: Server, token: str) -> list[list[int]]:
    """Play the player's daily turn to its end with the first legal decisions: the rolls
    dealt, in order."""
    turn = httpx.post(f"{server.url}/api/daily/turn", json={}, headers=player(token),
                      timeout=30).json()
    rolls = []
    for _ in range(40):
        pending = turn.get("pending") or {}
        if turn.get("status") == "over" or not pending:
            break
        if pending.get("roll"):
            rolls.append(list(pending["roll"]))
        decision = 2 if pending["kind"] == "choose-dice" else pending["legal"][0]
        turn = httpx.post(f"{server.url}/api/daily/turn/decisions",
                          json={"at": turn["at"], "decision": decision}, headers=player(token),
                          timeout=30).json()
    return rolls


def daily(server: Server, figures: Figures, kind: str, tokens: list[str]) -> None:
    from shutthebox.coach.daily import daily_box

    public = daily_box(datetime.now(UTC).date())
    rolls = dealt_turn(server, tokens[0])
    agree = sum(sorted(roll) == sorted(public.roll(i)) for i, roll in enumerate(rolls))
    print(f"{kind}: offline-found lines: {agree} of the {len(rolls)} rolls of a turn dealt "
          "agree with the public box's at the same place (about one in eight would by "
          "chance)")
    figures.add(f"{kind}, offline lines: rolls agreeing with the public box", agree, "",
                f"chance, of {len(rolls)}", 0)
    forged = [httpx.post(f"{server.url}/api/daily/results",
                         json={"moves": [[9]], "name": "Cheater"}, headers=player(tokens[0]),
                         timeout=30).status_code,
              httpx.post(f"{server.url}/api/daily/turn", json={"moves": [[3]], "score": 0},
                         headers=player(tokens[0]), timeout=30).status_code,
              httpx.post(f"{server.url}/api/daily/turn/decisions",
                         json={"at": 0, "decision": [1, 2, 3, 4, 5, 6, 7, 8, 9]},
                         headers=player(tokens[0]), timeout=30).status_code]
    table = httpx.get(f"{server.url}/api/daily/results", timeout=30).json()
    print(f"{kind}: results never dealt: {forged} (a result route, moves in a turn, an "
          f"illegal decision); the day's table holds {len(table.get('results', []))} entries")
    figures.add(f"{kind}, results never dealt: accepted", sum(s < 400 for s in forged), "",
                "0", 0)


def made_up(server: Server, figures: Figures, kind: str) -> None:
    fake = player(secrets.token_urlsafe(24))
    statuses = [httpx.post(f"{server.url}/api/daily/turn", json={}, headers=fake,
                           timeout=30).status_code,
                httpx.post(f"{server.url}/api/games", json={"players": [{"name": "Ann"}]},
                           headers=fake, timeout=30).status_code,
                httpx.get(f"{server.url}/api/players/me", headers=fake,
                          timeout=30).status_code]
    print(f"{kind}: tokens made up by the client: {statuses} (daily turn, new game, who am I)")
    figures.add(f"{kind}, made-up player tokens: accepted", sum(s < 400 for s in statuses),
                "", "0", 0)


def farming(server: Server, figures: Figures, kind: str, games: int = 74) -> None:
    farmer, feeder = claim(server, "Farmer")["token"], claim(server, "Feeder")["token"]
    for _ in range(games):
        made = server.post("/api/games", {"players": [
            {"name": "Farmer"}, {"name": "Friend", "kind": "open"}], "rules": SHORT},
            player=farmer).json()
        assert "id" in made, made
        joined = server.post(f"/api/games/{made['id']}/join",
                             {"invite": made["invites"][0]["code"]}, player=feeder).json()
        play(server, joined["state"], {"0": made["tokens"]["0"], "1": joined["token"]})
    ratings = {name: (server.get(f"/api/stats?player={name}").json().get("rating") or {})
               for name in ("Farmer", "Feeder")}
    rated = ratings["Farmer"].get("games", 0)
    print(f"{kind}: self-play from one address: {games} games, {rated} rated; Farmer "
          f"{ratings['Farmer'].get('rating', 1500):.0f}, Feeder "
          f"{ratings['Feeder'].get('rating', 1500):.0f}")
    figures.add(f"{kind}, self-play: games rated of {games}", rated, "", "3 a day", 0)
    figures.add(f"{kind}, self-play: Farmer's rating", ratings["Farmer"].get("rating", 1500),
                "", "", 0)


def sinking(server: Server, figures: Figures, kind: str) -> None:
    claim(server, "Victim")
    statuses = [server.post("/api/games", {"players": [{"name": look}, {"name": "Me"}]})
                .status_code for look in ("Victim", "victim", "VICTIM", "V\u0456ctim",
                                          "Vict\u0131m")]
    stats = server.get("/api/stats?player=Victim")
    print(f"{kind}: games under another's name: {statuses}; Victim's statistics: "
          f"{stats.status_code} (no game of hers)")
    figures.add(f"{kind}, games under another's name: accepted",
                sum(s < 400 for s in statuses), "", "0", 0)


def claims(server: Server, figures: Figures, kind: str, count: int = 1000) -> None:
    start = time.perf_counter()
    statuses = [server.post("/api/players", {"name": f"Sock {i:04d} x"}).status_code
                for i in range(count)]
    seconds = time.perf_counter() - start
    accepted = statuses.count(201)
    print(f"{kind}: {count} names from one address: {accepted} claimed, "
          f"{statuses.count(429)} refused (429) in {seconds:.1f} s")
    figures.add(f"{kind}, {count} names from one address: claimed", accepted, "", "5", 0)


def guesses(server: Server, figures: Figures, kind: str, count: int = 1000) -> None:
    code = claim(server, "Guarded")["recovery"]
    statuses = [server.post("/api/players/recover",
                            {"name": "Guarded", "code": secrets.token_hex(8)}).status_code
                for _ in range(count)]
    after = server.post("/api/players/recover", {"name": "Guarded", "code": code}).status_code
    print(f"{kind}: {count} recovery codes guessed: {statuses.count(401)} wrong (401), "
          f"{statuses.count(429)} refused outright (429), {statuses.count(200)} right; the "
          f"real code after them: {after}")
    figures.add(f"{kind}, recovery guesses answered before the name closed",
                statuses.count(401), "", "10", 0)


def two_processes(kind: str, url: str | None, home: Path, figures: Figures) -> None:
    server = Server(home / "two", workers=2, database_url=url).start()
    try:
        rolls = set()
        for number in range(8):
            token = claim(server, f"Daily {chr(65 + number)}")["token"]
            turn = httpx.post(f"{server.url}/api/daily/turn", json={}, headers=player(token),
                              timeout=30).json()
            rolls.add(tuple(sorted(first_roll(turn) or ())))
        print(f"{kind}: two server processes: the first roll of 8 turns: {len(rolls)} "
              f"different ({sorted(rolls)})")
        figures.add(f"{kind}, two processes: different first rolls of 8 turns", len(rolls),
                    "", "1", 0)
    finally:
        server.stop()


def attack(kind: str, figures: Figures) -> None:
    with tempfile.TemporaryDirectory() as folder, database(kind, Path(folder)) as url:
        home = Path(folder)
        (home / "two").mkdir()
        server = Server(home, database_url=url).start()
        try:
            tokens = [claim(server, f"Early {chr(65 + i)}")["token"] for i in range(3)]
            daily(server, figures, kind, tokens)
            made_up(server, figures, kind)
            farming(server, figures, kind)
            sinking(server, figures, kind)
            guesses(server, figures, kind)
            claims(server, figures, kind)
        finally:
            server.stop()
        log = server.log.read_text(errors="replace")
        print(f"{kind}: server log: {log.count('Traceback')} tracebacks")
        figures.add(f"{kind}: tracebacks in the server's log", log.count("Traceback"), "",
                    "0", 0)
        two_processes(kind, url, home, figures)


def main() -> None:
    on_databases("bench_trust", __doc__.splitlines()[0], attack, runs=1)


if __name__ == "__main__":
    main()
