"""Text pasted from the web often carries mojibake: UTF-8 bytes decoded as Windows-1252 ("KÃ¶ping" for "Köping",
"GarcÃ­a" for "García"). Such names link to nothing, or their fragments ("KÃ") to the wrong thing, so the text is
repaired before it is read. ftfy's encoding step only (no quote, width or normal-form changes): it undoes a
mis-decoding when the result is plausibly what was meant and leaves clean text as it is."""
from __future__ import annotations


def repair_mojibake(text: str) -> str:
    """TEXT with mis-decoded UTF-8 undone; the same string when there is none."""
    if text.isascii():
        return text  # nothing to repair, and the common case: skip the import and the scan
    import ftfy

    return ftfy.fix_encoding(text)
