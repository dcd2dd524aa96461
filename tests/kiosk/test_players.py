"""The kiosk's attract player (``kiosk.players``): its openings vary from game to game, a seed repeats them."""

from __future__ import annotations

from python_bridge.kiosk.players import AttractPlayer
from python_bridge.reference.game import Game


def test_attract_openings_differ_from_game_to_game_and_repeat_for_a_seed() -> None:
    def opening(game_no: int, seed: int = 1960) -> list[str]:
        game, moves = Game.new(6, 4), []
        player = AttractPlayer(seed, game_no)
        for _ in range(3):  # the demo player opening as South, three moves
            keys = player.choose(game)
            moves.append(keys)
            game.move(int(keys))
            if game.position.to_move != "s":
                break
        return moves

    openings = [opening(n) for n in range(1, 13, 2)]  # the games in which the demo player opens
    assert all(a[0] != b[0] for a, b in zip(openings, openings[1:], strict=False))
    assert opening(5) == opening(5)  # a seed repeats its series
