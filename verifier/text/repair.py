"""Text pasted from the web often carries mojibake: UTF-8 bytes decoded as Windows-1252 ("KÃ¶ping" for "Köping",
"GarcÃ­a" for "García"). Such names link to nothing, or their fragments ("KÃ") to the wrong thing, so the text is
repaired before it is read. ftfy's encoding step only (no quote, width or normal-form changes): it undoes a
mis-decoding when the result is plausibly what was meant and leaves clean text as it is."""
from __future__ import annotations

import re


def repair_mojibake(text: str) -> str:
    """TEXT with mis-decoded UTF-8 undone; the same string when there is none."""
    if text.isascii():
        return text  # nothing to repair, and the common case: skip the import and the scan
    import ftfy

    return ftfy.fix_encoding(text)


# Text that went through a word tokenizer (Penn Treebank style, as NLP datasets and pipelines write it) splits
# clitics and punctuation off their words: "Let 's Join Joanie", "Does n't Really Matter", "Oh , Mabel Behave",
# "( You Drive Me ) Crazy", "Invasion ! ! Alien". Names written so match no label; each split is one no English
# prose writes, so joining it back cannot change a clean text.
_CLITIC = re.compile(r"(?<=\w) (?=(?:'s|'re|'ve|'ll|'d|'m|n't)(?![\w'-]))", re.IGNORECASE)
_BEFORE_MARK = re.compile(r"(?<=\S) +(?=[,.:;!?)\]](?:\s|$|'s\b))")
_AFTER_OPENING = re.compile(r"(?<=[(\[]) +(?=\S)")


def untokenize(text: str) -> str:
    """TEXT with a tokenizer's splits joined back: no space before a clitic ('s, n't, ...) or a closing mark, none
    after an opening bracket. The same string when there are none."""
    joined = _AFTER_OPENING.sub("", _CLITIC.sub("", text))
    while (once := _BEFORE_MARK.sub("", joined)) != joined:  # "! !": the first join makes the second visible
        joined = once
    return joined
