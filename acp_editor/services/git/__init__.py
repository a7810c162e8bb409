"""git, run by us: the environment every git run of ours gets (``environment``), against our
own private stores and against the user's repository."""
