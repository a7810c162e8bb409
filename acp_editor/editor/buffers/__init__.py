"""The editor's buffers: the agent's documents read from and written to what the editor holds
(``source``), overlaps with unsaved text (``conflicts``), and review placed in them (``review``,
``review_groups``)."""
