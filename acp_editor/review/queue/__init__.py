"""Review's queue: the changes found, as hunks and groups the user decides on.

``review_queue`` keeps them and carries out decisions through the editor or the disk;
``anchor`` and ``tracking`` find a hunk's lines again in text that moved since; ``groups`` and
``bulk`` are many files changed at once, decided as one; ``persist`` keeps what is pending across
restarts. Nothing here knows how a change was found (``review.finding``).
"""
