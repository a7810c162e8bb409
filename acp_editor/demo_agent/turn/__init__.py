"""What a scenario may do in a turn, and the rules it follows doing it: the ``Turn`` and its
session (``prompt_turn``), what the client offered (``capabilities``), the v2 way of saying
each update (``v2``) and the commands the agent runs itself (``shell``). It imports nothing
else of the demo agent's."""
