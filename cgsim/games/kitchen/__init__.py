"""Kitchen Garden (Rightgames, 2013): the second game simulated on the cgsim machinery.

``cgsim.games.kitchen.game.GAME`` is the entry point; the engine modules below it are pure
functions over the frozen ``State`` of ``cgsim.games.kitchen.state``.
"""
