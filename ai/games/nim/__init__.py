"""Nim, the matches game (jeu des allumettes) of seeds 000, 003 and 004."""
from .rules import Nim

Rules = Nim
__all__ = ["Nim", "Rules"]
