"""minimax-lab's web layer: Flask blueprints that read a game from its URL, call ``ai/`` and
render a page or one block of it. ``app.create_app`` puts the pieces together:

- ``params``: the value readers: every parameter of a link read and checked (``BadRequest``);
- ``game_link``: the URL is the game: ``Settings`` and ``GameLink`` (one position of a game);
- ``games``: the table of games (rules, URL parameters, move parameter, templates, words);
  each game's own pages and hooks in its package (``web/<game>/``, ``GameSpec.web``);
- ``ai_move``: the AI's move (the one search a request makes); ``tree_panel``: the tree
  panel behind it;
- ``exercise``: the lab's typed tree and the student's answer;
- ``charts``: geometry of the comparison charts;
- ``htmx``: the one place that reads ``HX-*`` headers (a page or a block);
- ``i18n``: languages, ``lang`` kept in links, labels and number formats;
- ``security``: security headers and gzip;
- ``classroom/``: class mode, a package of its own (its store in SQLite or Redis, a worker's
  live streams, what the class pages show, its questions, exercises, plan and blueprints);
- blueprints: ``play`` (the games), ``lab`` (the exercise lab), ``pages`` (home, errors).
"""
