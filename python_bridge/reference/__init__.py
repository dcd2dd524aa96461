"""The golden model of Kalah, with no emulator in it: what every PDP-1 answer is checked against.

``rules`` (positions, sowing, captures, the end and the variants), ``notation`` (positions and
game records as text), ``search`` (the search contract the PDP-1 mirrors exactly: values, best
pits and node counts; its readable negamax is the specification, and its ``best_move`` and
``level_move`` run the same search fast: ``fast_search`` on ``fast_board``'s one-int board, with
``search_limits`` the numbers both share), ``prove`` (the proof contract of the PDP-1's ``w``: null-window
alpha-beta to the end of the game, verdict and node count; its readable proof is the specification, and
``prove``, ``deepen`` and ``exact_value`` run the same proof fast: ``fast_prove``), ``fast_rules`` and
``solver`` (exact game values),
``published`` (values from the literature), ``game`` (a game in progress, with the pie rule's seats), ``samples`` (the
seeded positions every depth and speed figure is measured on), ``solve_table`` (the level table
tabulated; its command line is ``commands.solve_table``), ``estimates`` (how long a deep search or a proof will
take, told before it starts).  No command-line code lives here.

May import: the standard library only.  Everything else in ``python_bridge`` may import it.
"""
