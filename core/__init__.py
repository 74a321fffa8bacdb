"""Matchlight's scoring engine: pure Python, no Qt.

Tokenizers keep every token's character span in the original line, metrics produce additive
per-segment statistics, and scores are pure functions of those statistics.
"""

__version__ = "0.1.0"
