"""Marienbad, the game of the film (L'Année dernière à Marienbad, 1961): a multi-heap Nim,
heaps 1, 3, 5, 7, take any number of matches from one heap; the film plays it misère."""
from .rules import Marienbad

Rules = Marienbad
__all__ = ["Marienbad", "Rules"]
