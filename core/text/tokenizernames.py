"""The tokenizers' registry names, and whether a BLEU tokenizer can run here.

Light on purpose: the command line's ``choices=`` and the settings' checks read these without
importing the tokenizers themselves (:mod:`core.text.tokenizers`, which compiles its regular
expressions), so that building a parser for ``--help`` stays fast.
"""

from __future__ import annotations

from matchlight.core.text import mecab

__all__ = ["BLEU_TOKENIZERS", "ROUGE_TOKENIZERS", "bleu_tokenizer_unavailable"]

#: Registry names of the BLEU tokenizers, for the CLI's ``choices=`` and the GUI's combo box.
#: ``ja-mecab`` and ``ko-mecab`` are listed whether or not their packages are installed.
BLEU_TOKENIZERS: tuple[str, ...] = ("13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "none")
#: Registry names of the ROUGE tokenizers.
ROUGE_TOKENIZERS: tuple[str, ...] = ("rouge-score", "unicode")


def bleu_tokenizer_unavailable(name: str) -> str | None:
    """Why BLEU tokenizer ``name`` cannot be used here, with how to install what it needs
    (``"ko-mecab (Korean) needs ...: pip install 'matchlight[ko]'"``); None when it can.

    A MeCab tokenizer whose packages are there is loaded to be sure (once per process).
    """
    if name not in mecab.MECAB_KINDS:
        return None
    if not mecab.is_installed(name):
        return mecab.install_hint(name)
    try:
        mecab.tagger(name)
    except mecab.MecabUnavailable as error:
        return str(error)
    return None
