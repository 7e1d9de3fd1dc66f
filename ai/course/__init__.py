"""The course's algorithms, naming no game: the game protocol (``game``), minimax and
alpha-beta (``search``), the search's record (``record``) and its result (``scores``), and
the heuristics students type as weights of a game's terms (``weights``)."""
