"""Pure rules of the game: no pygame, no sqlite, no clock, no I/O.

Everything here is a function of the paytable, recorded draws and commands.
"""
