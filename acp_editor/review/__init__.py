"""Review: every change an agent makes, as hunks the user accepts or rejects one at a time.

``anchor`` finds a hunk again in a file's current text (which the user, other decisions and the
agent may have changed since the hunk was made) and swaps its lines, refusing rather than
guessing when the hunk can no longer be found for certain. ``queue`` keeps the hunks and carries
out the user's decisions through the editor or the disk.
"""
