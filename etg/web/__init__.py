"""The floor's web pages (issue 28): the floor dashboard and the linked meter sign.

Served by ``etg floor web`` (or beside ``etg floor demo --web``) from the
controller's PostgreSQL, read-only, pushed live from its ``LISTEN floor``:

- :mod:`etg.web.serve`: start it, on a thread (``serve``) or in the foreground (``run``).
- :mod:`etg.web.app`: the Starlette application, its routes and who may see them.
- :mod:`etg.web.access`: PIN logins, their throttle, sessions.
- :mod:`etg.web.tokens`: the sign's signed link.
- :mod:`etg.web.follow` and :mod:`etg.web.board`: from NOTIFY to every open page.
- :mod:`etg.web.picture`: the floor read as the pages are sent it.
- ``static/``: the pages themselves, plain HTML, CSS and JavaScript.

It lives beside :mod:`etg.floor` rather than in it because it checks PINs with the
table's registry (:mod:`etg.table.pin`), which the floor's controller must not import.
"""

