"""The floor: linked progressives across tables, on PostgreSQL (SPEC §13, issue 27)."""
